//! Two server processes on one PostgreSQL database serve the same games: a
//! move accepted by one reaches the WebSocket watchers of the other within
//! a second (LISTEN/NOTIFY), and either may take the next move.

mod common;

use common::{Db, TestServer, POSTGRES_VAR};
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_through_one_server_reaches_a_watcher_of_the_other() {
    if std::env::var(POSTGRES_VAR).map_or(true, |u| u.is_empty()) {
        eprintln!("a_move_through_one_server_reaches_a_watcher_of_the_other: skipped: {POSTGRES_VAR} is unset (it needs PostgreSQL)");
        return;
    }
    let one = TestServer::start(Db::Postgres).await;
    let two = one.beside().await;
    let me = one.account("everywhere").await;
    let seats: serde_json::Map<String, serde_json::Value> =
        ["russia", "germany", "uk", "japan", "usa"].iter().map(|p| (p.to_string(), json!({"kind": "me"}))).collect();
    let game = one.create(&me, json!({"ruleset": "classic", "seats": seats})).await;
    // A watcher on the second server, a player on the first.
    let mut watcher = two.ws(&game, None).await;
    let mut player = one.ws(&game, Some(&me)).await;
    for seq in 0..5 {
        let started = Instant::now();
        let reply = player.apply(json!({"type": "end_phase"})).await;
        assert_eq!(reply["reply"], "ok", "{reply}");
        tokio::time::timeout(Duration::from_secs(1), watcher.wait_for_seq(seq)).await.unwrap_or_else(|_| panic!("entry {seq} reached the other server's watcher within a second"));
        let entry = watcher.pushes.iter().find(|p| p["seq"] == json!(seq)).cloned().expect("the entry");
        assert_eq!(entry["action"]["type"], "end_phase", "{entry}");
        assert!(started.elapsed() < Duration::from_secs(1));
    }
    // The same account plays on through the second server, at the count
    // the first one left.
    let mut elsewhere = two.ws(&game, Some(&me)).await;
    let reply = elsewhere.request(json!({"cmd": "apply", "action": {"type": "end_phase"}, "seq": 5})).await;
    assert_eq!(reply["result"]["seq"], 5, "{reply}");
    // And the first hears of it, and takes the move after.
    let reply = player.request(json!({"cmd": "apply", "action": {"type": "end_phase"}, "seq": 6})).await;
    assert_eq!(reply["result"]["seq"], 6, "the first server caught up: {reply}");
    // Both servers acting on one state: one acceptance.
    let action = json!({"cmd": "apply", "action": {"type": "end_phase"}, "seq": 7});
    let (a, b) = tokio::join!(player.request(action.clone()), elsewhere.request(action.clone()));
    assert_eq!([&a, &b].iter().filter(|r| r["reply"] == "ok").count(), 1, "{a} {b}");
    two.stop().await;
    one.stop().await;
}
