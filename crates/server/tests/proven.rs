//! The server's own games with proven dice (docs/pbem.md, "The server's
//! games"): created with `"dice": "server"`, the seed's commitment shown
//! from the start, every entry receipted and its receipt pushed to the
//! seats, no undo, and when the game ends the seed revealed and the record
//! verified die by die; on SQLite and (where configured) PostgreSQL, and
//! read again by a second server.

mod common;

use common::{databases, Db, TestServer};
use serde_json::json;
use sha2::Digest;
use warboard_record::Record;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_dice_game_commits_receipts_and_reveals() {
    for db in databases("a_server_dice_game_commits_receipts_and_reveals") {
        server_dice_game(db).await;
    }
}

async fn server_dice_game(db: Db) {
    let server = TestServer::start(db).await;
    let me = server.account("russia").await;
    let seats = json!({
        "russia": {"kind": "me"}, "germany": {"kind": "computer"}, "uk": {"kind": "computer"}, "japan": {"kind": "computer"}, "usa": {"kind": "computer"},
    });
    let game = server.create(&me, json!({"ruleset": "classic", "seats": seats, "dice": "server"})).await;
    let (status, shown) = server.http("GET", &format!("/api/games/{game}"), Some(&me), None).await;
    assert_eq!(status, 200, "{shown}");
    let dice = &shown["game"]["dice"];
    assert_eq!(dice["mode"], "server", "{shown}");
    let commitment = dice["commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64);
    assert!(dice.get("seed").is_none(), "no seed while the game runs: {dice}");

    let mut ws = server.ws(&game, Some(&me)).await;
    // Russia's first turn: buy, attack Ukraine, fight it, place, and on.
    for action in [
        json!({"type": "end_phase"}),
        json!({"type": "purchase", "units": {"infantry": 2}}),
        json!({"type": "end_phase"}),
        json!({"type": "move", "units": [{"type": "infantry", "count": 3}], "route": ["CAU", "UKR"]}),
        json!({"type": "end_phase"}),
        json!({"type": "resolve", "at": "UKR"}),
    ] {
        let reply = ws.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{action}: {reply}");
    }
    let undo = ws.request(json!({"cmd": "undo"})).await;
    assert_eq!(undo["code"], "undo/proven", "{undo}");
    ws.wait_for_seq(5).await;
    let receipts: Vec<_> = ws.pushes.iter().filter(|p| p["reply"] == "entry").map(|p| p["receipt"].clone()).collect();
    assert!(receipts.len() >= 6 && receipts.iter().all(|r| r["signature"].is_string()), "every entry's receipt is pushed: {receipts:?}");

    // While it runs the record verifies as a chain, its dice pending.
    let (status, text) = server.http_text("GET", &format!("/api/games/{game}/record"), Some(&me), None).await;
    assert_eq!(status, 200);
    let running = Record::load(&text).unwrap_or_else(|e| panic!("the running record loads: {e}"));
    assert!(running.proof_summary().unwrap().dice_pending);

    // A second server reads the game from the database and goes on with it.
    let other = server.beside().await;
    let mut ws2 = other.ws(&game, Some(&me)).await;
    let reply = ws2.apply(json!({"type": "surrender", "side": "allies"})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");

    let (_, shown) = other.http("GET", &format!("/api/games/{game}"), Some(&me), None).await;
    let seed = shown["game"]["dice"]["seed"].as_str().unwrap_or_else(|| panic!("the seed is revealed at the end: {shown}")).to_string();
    let seed_bytes: Vec<u8> = (0..32).map(|i| u8::from_str_radix(&seed[2 * i..2 * i + 2], 16).unwrap()).collect();
    let hashed: String = sha2::Sha256::digest(&seed_bytes).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hashed, commitment, "the revealed seed is the one committed to");
    let (status, text) = other.http_text("GET", &format!("/api/games/{game}/record"), Some(&me), None).await;
    assert_eq!(status, 200);
    let record = Record::load(&text).unwrap_or_else(|e| panic!("the finished record verifies: {e}"));
    let summary = record.proof_summary().unwrap();
    assert!(!summary.dice_pending && summary.rolled >= 1, "{summary:?}");
    assert!(record.state().winner.is_some());
    other.stop().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_beacon_dice_game_names_a_round_for_every_roll() {
    // A local test beacon, a round a second.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let server = TestServer::start_witness(warboard_server::witness::BeaconConfig::Test { secret: [21; 32], genesis: now - 5, period: 1 }).await;
    let me = server.account("russia").await;
    let seats = json!({
        "russia": {"kind": "me"}, "germany": {"kind": "computer"}, "uk": {"kind": "computer"}, "japan": {"kind": "computer"}, "usa": {"kind": "computer"},
    });
    let game = server.create(&me, json!({"ruleset": "classic", "seats": seats, "dice": "beacon"})).await;
    let (_, shown) = server.http("GET", &format!("/api/games/{game}"), Some(&me), None).await;
    assert_eq!(shown["game"]["dice"]["mode"], "beacon", "{shown}");
    assert_eq!(shown["game"]["dice"]["beacon"]["scheme"], "warboard-test-ed25519", "{shown}");
    let mut ws = server.ws(&game, Some(&me)).await;
    for action in warboard_record::testing::attack_on_ukraine() {
        let reply = ws.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{action}: {reply}");
    }
    // The battle rolls: its entry waits for its round, then is answered.
    let reply = ws.apply(json!({"type": "resolve", "at": "UKR"})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");
    // While it runs the record is fully checkable: every die from its round.
    let (status, text) = server.http_text("GET", &format!("/api/games/{game}/record"), Some(&me), None).await;
    assert_eq!(status, 200);
    let record = Record::load(&text).unwrap_or_else(|e| panic!("the record verifies: {e}"));
    let summary = record.proof_summary().unwrap();
    assert!(!summary.dice_pending && summary.rolled >= 1, "{summary:?}");
    for e in record.log() {
        assert_eq!(e.proof.as_ref().unwrap().beacon_round.is_some(), !e.dice.is_empty(), "{}", e.action);
    }
    server.stop().await;
}
