//! The chat of a game: its players talk, its watchers read, a flood is
//! held back, and on PostgreSQL a message reaches the watchers of every
//! server on the database.

mod common;

use std::time::Duration;

use common::{databases, Db, TestServer, Ws};
use serde_json::{json, Value};

async fn wait_for_chat(ws: &mut Ws, text: &str) -> Value {
    let seen = |m: &Value| m["reply"] == "chat" && m["text"] == text;
    if let Some(m) = ws.pushes.iter().find(|m| seen(m)) {
        return m.clone();
    }
    loop {
        let m = ws.recv().await;
        ws.pushes.push(m.clone());
        if seen(&m) {
            return m;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_chat_watchers_read_and_a_flood_waits() {
    for db in databases("players_chat_watchers_read_and_a_flood_waits") {
        chat(db).await;
    }
}

async fn chat(db: Db) {
    let server = TestServer::start(db).await;
    let (axis, allies, watcher) = (server.account("axis").await, server.account("allies").await, server.account("watcher").await);
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "account", "name": "allies"}, "uk": {"kind": "account", "name": "allies"}, "usa": {"kind": "account", "name": "allies"},
    });
    let game = server.create(&axis, json!({"ruleset": "classic", "seats": seats, "public": true})).await;
    let mut a = server.ws(&game, Some(&axis)).await;
    let mut b = server.ws(&game, Some(&allies)).await;
    let mut w = server.ws(&game, Some(&watcher)).await;

    let said = a.request(json!({"cmd": "chat", "text": "  good luck\n"})).await;
    assert_eq!(said["reply"], "ok", "{said}");
    assert_eq!(said["result"]["n"], 0);
    assert_eq!(said["result"]["text"], "good luck", "trimmed");
    for ws in [&mut b, &mut w] {
        let m = tokio::time::timeout(Duration::from_secs(5), wait_for_chat(ws, "good luck")).await.expect("the message is pushed");
        assert_eq!(m["by"], "axis", "{m}");
        assert_eq!(m["n"], 0);
    }
    let answer = b.request(json!({"cmd": "chat", "text": "und dir, viel Glück"})).await;
    assert_eq!(answer["result"]["n"], 1, "{answer}");

    // Watchers read but do not speak; nonsense is refused with its code.
    let refused = w.request(json!({"cmd": "chat", "text": "hi"})).await;
    assert_eq!(refused["code"], "auth/not-a-player", "{refused}");
    for (text, code) in [(" ".to_string(), "chat/empty"), ("x".repeat(501), "chat/too-long"), ("bell\u{7}".to_string(), "chat/bad-text")] {
        let r = a.request(json!({"cmd": "chat", "text": text})).await;
        assert_eq!(r["code"], code, "{r}");
    }
    let r = a.request(json!({"cmd": "chat", "text": 5})).await;
    assert_eq!(r["code"], "protocol/bad-field", "{r}");

    // Five messages in ten seconds, then the account waits.
    for i in 1..5 {
        let r = a.request(json!({"cmd": "chat", "text": format!("message {i}")})).await;
        assert_eq!(r["reply"], "ok", "{r}");
    }
    let r = a.request(json!({"cmd": "chat", "text": "one too many"})).await;
    assert_eq!(r["code"], "chat/too-fast", "{r}");

    // The chat reads back in order, from the start or further back.
    let log = w.request(json!({"cmd": "chat_log"})).await;
    let texts: Vec<&str> = log["result"]["messages"].as_array().expect("messages").iter().filter_map(|m| m["text"].as_str()).collect();
    assert_eq!(texts, ["good luck", "und dir, viel Glück", "message 1", "message 2", "message 3", "message 4"]);
    let back = w.request(json!({"cmd": "chat_log", "before": 2})).await;
    assert_eq!(back["result"]["messages"].as_array().map(Vec::len), Some(2), "{back}");

    // Nothing of this touched the game's log.
    assert_eq!(a.request(json!({"cmd": "state"})).await["result"]["seq"], 0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_through_one_server_reaches_a_watcher_of_the_other() {
    if !databases("a_message_through_one_server_reaches_a_watcher_of_the_other").contains(&Db::Postgres) {
        return;
    }
    let one = TestServer::start(Db::Postgres).await;
    let two = one.beside().await;
    let me = one.account("talker").await;
    let seats: serde_json::Map<String, Value> = ["russia", "germany", "uk", "japan", "usa"].iter().map(|p| (p.to_string(), json!({"kind": "me"}))).collect();
    let game = one.create(&me, json!({"ruleset": "classic", "seats": seats, "public": true})).await;
    let mut here = one.ws(&game, Some(&me)).await;
    let mut there = two.ws(&game, None).await;
    let r = here.request(json!({"cmd": "chat", "text": "across"})).await;
    assert_eq!(r["reply"], "ok", "{r}");
    tokio::time::timeout(Duration::from_secs(2), wait_for_chat(&mut there, "across")).await.expect("the other server's watcher hears it");
    // The sender's own server pushes it once, not twice.
    tokio::time::timeout(Duration::from_secs(2), wait_for_chat(&mut here, "across")).await.expect("pushed here too");
    let _ = tokio::time::timeout(Duration::from_millis(300), here.recv()).await.map(|m| assert_ne!(m["reply"], "chat", "pushed twice: {m}"));
    two.stop().await;
    one.stop().await;
}

/// A rule's refusal names what it is about, so that a page in another
/// language can word it from its code (the German page does).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_names_its_spaces_and_units() {
    let server = TestServer::start(Db::Sqlite).await;
    let me = server.account("solo").await;
    let seats: serde_json::Map<String, Value> = ["russia", "germany", "uk", "japan", "usa"].iter().map(|p| (p.to_string(), json!({"kind": "me"}))).collect();
    let game = server.create(&me, json!({"ruleset": "classic", "seats": seats})).await;
    let mut ws = server.ws(&game, Some(&me)).await;
    // Research, purchase: on to Russia's combat move.
    for _ in 0..2 {
        assert_eq!(ws.apply(json!({"type": "end_phase"})).await["reply"], "ok");
    }
    let refused = ws.apply(json!({"type": "move", "units": [{"type": "infantry", "count": 1}], "route": ["CAU", "SFE"]})).await;
    assert_eq!(refused["code"], "move/not-adjacent", "{refused}");
    assert_eq!(refused["args"], json!({"from": "CAU", "to": "SFE"}), "{refused}");
    let odds = ws.request(json!({"cmd": "odds", "action": {"type": "move", "units": [{"type": "infantry", "count": 1}], "route": ["CAU", "SFE"]}})).await;
    assert_eq!(odds["args"], refused["args"], "the odds command refuses in the same words: {odds}");
    let (status, body) = server.http("GET", "/api/games/nope", Some(&me), None).await;
    assert_eq!((status, body["error"].get("args")), (404, None), "other errors carry no args: {body}");
    server.stop().await;
}
