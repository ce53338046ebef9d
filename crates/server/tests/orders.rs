//! Standing orders (issue 31, point 3): a defender's order of loss answers
//! its casualty decisions in the attacker's turn at once, without its
//! player; orders are the holder's alone and checked when set.

mod common;

use common::{databases, Db, TestServer};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_defenders_order_of_loss_answers_at_once() {
    for db in databases("a_defenders_order_of_loss_answers_at_once") {
        orders_game(db).await;
    }
}

async fn orders_game(db: Db) {
    let server = TestServer::start(db).await;
    let (axis, allies) = (server.account("axis").await, server.account("allies").await);
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "account", "name": "allies"}, "uk": {"kind": "account", "name": "allies"}, "usa": {"kind": "account", "name": "allies"},
    });
    let game = server.create(&axis, json!({"ruleset": "classic", "seats": seats})).await;
    let path = format!("/api/games/{game}/orders/germany");
    let code = |v: &Value| v["error"]["code"].as_str().unwrap_or_default().to_string();

    // Only Germany's player gives Germany's orders; they are checked.
    let (status, body) = server.http("PUT", &path, Some(&allies), Some(&json!({"losses": ["infantry"]}))).await;
    assert_eq!((status, code(&body).as_str()), (403, "orders/not-yours"), "{body}");
    let (status, body) = server.http("PUT", &path, Some(&axis), Some(&json!({"losses": ["destroyer"]}))).await;
    assert_eq!((status, code(&body).as_str()), (400, "orders/unknown-unit"), "{body}");
    let (status, body) = server.http("PUT", &path, Some(&axis), Some(&json!({"loses": ["infantry"]}))).await;
    assert_eq!(status, 400, "{body}");
    let orders = json!({"losses": ["armor", "infantry"], "submarines": "never"});
    let (status, body) = server.http("PUT", &path, Some(&axis), Some(&orders)).await;
    assert_eq!(status, 200, "{body}");
    let (_, shown) = server.http("GET", &path, Some(&axis), None).await;
    assert_eq!(shown["orders"], orders, "{shown}");
    let (status, _) = server.http("GET", &path, Some(&allies), None).await;
    assert_eq!(status, 403, "another player does not read them");

    // Russia attacks Ukraine and fights it round by round; Germany's
    // casualties are chosen by its orders, never by its player.
    let mut rus = server.ws(&game, Some(&allies)).await;
    let mut script = warboard_record::testing::attack_on_ukraine();
    script.push(json!({"type": "battle", "at": "UKR"}));
    for action in script {
        let reply = rus.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{action}: {reply}");
    }
    let mut answered = 0;
    for _ in 0..400 {
        let summary = rus.summary().await;
        let battle_on = summary["battles"].as_array().is_some_and(|b| b.iter().any(|b| b["at"] == "UKR" && b["result"] == "ongoing"));
        if !battle_on {
            break;
        }
        match summary["actor"].as_str() {
            Some("russia") => {
                let action = common::decide(&mut rus, &summary["decision"]).await;
                let reply = rus.apply(action).await;
                assert_eq!(reply["reply"], "ok", "{reply}");
            }
            // Germany's decision: its orders answer it in a moment.
            _ => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
        }
    }
    let seq = rus.request(json!({"cmd": "state"})).await["result"]["seq"].as_i64().unwrap();
    rus.wait_for_seq(seq - 1).await;
    for p in rus.pushes.iter().filter(|p| p["reply"] == "entry" && p["power"] == "germany") {
        assert_eq!(p["action"]["type"], "casualties", "{p}");
        answered += 1;
    }
    assert!(answered >= 1, "Germany's orders chose its casualties: {:?}", rus.pushes);
    server.stop().await;
}
