//! The ladder (issue 32): a game with proven dice between accounts is rated
//! when it ends, once; the family's leaderboard is computed from the rated
//! results in order; games with the host's secret seed or a computer seat
//! are not rated.

mod common;

use common::{databases, Db, TestServer};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn proven_games_between_players_make_the_leaderboard() {
    for db in databases("proven_games_between_players_make_the_leaderboard") {
        ladder(db).await;
    }
}

async fn finished_game(server: &TestServer, anna: &str, boris: &str, dice: &str, loser: &str) -> String {
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "account", "name": "boris"}, "uk": {"kind": "account", "name": "boris"}, "usa": {"kind": "account", "name": "boris"},
    });
    let game = server.create(anna, json!({"ruleset": "classic", "seats": seats, "dice": dice})).await;
    let (token, side) = if loser == "boris" { (boris, "allies") } else { (anna, "axis") };
    let mut ws = server.ws(&game, Some(token)).await;
    let reply = ws.apply(json!({"type": "surrender", "side": side})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");
    game
}

fn player<'a>(board: &'a Value, name: &str) -> &'a Value {
    board["players"].as_array().and_then(|p| p.iter().find(|p| p["account"] == name)).unwrap_or_else(|| panic!("{name} on {board}"))
}

async fn ladder(db: Db) {
    let server = TestServer::start(db).await;
    let (anna, boris) = (server.account("anna").await, server.account("boris").await);
    // Two wins for anna, with proven dice of both kinds.
    for dice in ["server", "beacon"] {
        finished_game(&server, &anna, &boris, dice, "boris").await;
    }
    // Not rated: the host's secret seed; a computer seat.
    finished_game(&server, &anna, &boris, "seeded", "boris").await;
    let vs_computer = server
        .create(&anna, json!({"ruleset": "classic", "dice": "server", "seats": {"germany": {"kind": "me"}, "japan": {"kind": "me"}, "russia": {"kind": "computer"}, "uk": {"kind": "computer"}, "usa": {"kind": "computer"}}}))
        .await;
    let mut ws = server.ws(&vs_computer, Some(&anna)).await;
    assert_eq!(ws.apply(json!({"type": "surrender", "side": "axis"})).await["reply"], "ok");

    let (status, board) = server.http("GET", "/api/ladder/classic", None, None).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["games"], 2, "{board}");
    let (a, b) = (player(&board, "anna"), player(&board, "boris"));
    assert_eq!((a["games"].as_u64(), b["games"].as_u64()), (Some(2), Some(2)), "{board}");
    assert!(a["rating"].as_f64() > Some(1500.0) && b["rating"].as_f64() < Some(1500.0), "{board}");
    assert_eq!(a["provisional"], true, "two games leave a rating provisional: {a}");
    assert_eq!(board["players"][0]["account"], "anna", "best first: {board}");
    // Boris wins one back: his rating rises, hers falls.
    finished_game(&server, &anna, &boris, "server", "anna").await;
    let (_, after) = server.http("GET", "/api/ladder/classic", None, None).await;
    assert_eq!(after["games"], 3, "{after}");
    assert!(player(&after, "boris")["rating"].as_f64() > b["rating"].as_f64(), "{after}");
    assert!(player(&after, "anna")["rating"].as_f64() < a["rating"].as_f64(), "{after}");
    let (status, other) = server.http("GET", "/api/ladder/europe", None, None).await;
    assert_eq!((status, other["players"].as_array().map(Vec::len)), (200, Some(0)), "{other}");
    let (status, body) = server.http("GET", "/api/ladder/checkers", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("ladder/unknown-family")), "{body}");
    server.stop().await;
}
