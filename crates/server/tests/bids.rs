//! Sealed bids for sides (issue 32, point 4; docs/ladder.md, "Sealed
//! bids"): two players seal commitments, reveal them, and the lower bid
//! plays the Axis with its bid in Germany's bank; equal bids go by the
//! nonces' coin; tampering, mismatched reveals and malformed bids are
//! refused with their own codes. On SQLite and (where configured)
//! PostgreSQL.

mod common;

use common::{databases, Db, TestServer};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use warboard_record::{DiceMode, Record, Start};

/// The worked example of docs/ladder.md, "Sealed bids".
const EXAMPLE_GAME: &str = "0123456789abcdef0123456789abcdef";
const EXAMPLE_BYTES: &str = "776172626f6172642f6269642f763100000020303132333435363738396162636465663031323334353637383961626364656600000004616e6e6100000009000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const EXAMPLE_COMMITMENT: &str = "88df79a87bbb3eab5ab3db111bc3b29fb111ffdbac50c8eda247ce574dcff5dd";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn commitment(game: &str, player: &str, ipcs: u32, nonce: &[u8; 32]) -> String {
    hex(&Sha256::digest(common::ladder::bid_commitment_bytes(game, player, ipcs, nonce)))
}

/// The tie coin as docs/ladder.md spells it: 0 gives the Axis to the name
/// first in byte order.
fn coin(first_nonce: &[u8; 32], second_nonce: &[u8; 32]) -> u8 {
    Sha256::new().chain_update(first_nonce).chain_update(second_nonce).finalize()[31] & 1
}

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or_default()
}

#[test]
fn the_documented_commitment_is_the_one_checked() {
    let nonce: [u8; 32] = std::array::from_fn(|i| i as u8);
    assert_eq!(hex(&common::ladder::bid_commitment_bytes(EXAMPLE_GAME, "anna", 9, &nonce)), EXAMPLE_BYTES);
    assert_eq!(commitment(EXAMPLE_GAME, "anna", 9, &nonce), EXAMPLE_COMMITMENT);
    assert_eq!(hex(&warboard_ladder::bids::commitment(EXAMPLE_GAME, "anna", 9, &nonce)), EXAMPLE_COMMITMENT, "the server checks these bytes");
    let doc = include_str!("../../../docs/ladder.md");
    for shown in [EXAMPLE_GAME, EXAMPLE_BYTES, EXAMPLE_COMMITMENT] {
        assert!(doc.contains(shown), "docs/ladder.md shows {shown}");
    }
}

/// A signed-up account.
struct Bidder {
    name: &'static str,
    token: String,
}

impl Bidder {
    async fn sign_up(server: &TestServer, name: &'static str) -> Bidder {
        Bidder { name, token: server.account(name).await }
    }

    async fn seal(&self, server: &TestServer, game: &str, commitment: &str) -> (u16, Value) {
        server.http("POST", &format!("/api/games/{game}/bid"), Some(&self.token), Some(&json!({"commitment": commitment}))).await
    }

    async fn reveal(&self, server: &TestServer, game: &str, ipcs: Value, nonce: &[u8; 32]) -> (u16, Value) {
        let body = json!({"ipcs": ipcs, "nonce": hex(nonce)});
        server.http("POST", &format!("/api/games/{game}/bid/reveal"), Some(&self.token), Some(&body)).await
    }

    /// Seals `ipcs` with `nonce`, as a client does; the answer's round.
    async fn seal_bid(&self, server: &TestServer, game: &str, ipcs: u32, nonce: &[u8; 32]) -> Value {
        let (status, body) = self.seal(server, game, &commitment(game, self.name, ipcs, nonce)).await;
        assert_eq!(status, 200, "{} seals: {body}", self.name);
        body
    }

    async fn reveal_bid(&self, server: &TestServer, game: &str, ipcs: u32, nonce: &[u8; 32]) -> Value {
        let (status, body) = self.reveal(server, game, json!(ipcs), nonce).await;
        assert_eq!(status, 200, "{} reveals: {body}", self.name);
        body
    }
}

/// A game `creator` creates with a bid against `opponent`; its id.
async fn bidding_game(server: &TestServer, creator: &Bidder, opponent: &Bidder, extra: Value) -> String {
    let mut body = json!({"ruleset": "classic", "bid": {"opponent": opponent.name, "rule": "lower-axis"}});
    for (k, v) in extra.as_object().expect("an object") {
        body[k] = v.clone();
    }
    server.create(&creator.token, body).await
}

/// Germany's bank in the classic game's published start.
fn standard_german_bank() -> i64 {
    let record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 1 })).expect("classic starts");
    let rs = &record.game().ruleset;
    i64::from(record.state().ipcs[rs.power_by_name("germany").expect("germany").index()])
}

/// Who holds each power of the game, by account name.
async fn holders(server: &TestServer, game: &str, token: &str) -> Value {
    let (status, shown) = server.http("GET", &format!("/api/games/{game}"), Some(token), None).await;
    assert_eq!(status, 200, "{shown}");
    let seats = shown["game"]["seats"].as_array().expect("seats");
    Value::Object(seats.iter().map(|s| (s["power"].as_str().unwrap().to_string(), s["account"].clone())).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bidding_round_refuses_tampering_and_starts_the_game() {
    for db in databases("a_bidding_round_refuses_tampering_and_starts_the_game") {
        bidding_round(db).await;
    }
}

async fn bidding_round(db: Db) {
    let server = TestServer::start(db).await;
    let (anna, boris, carl) = (Bidder::sign_up(&server, "anna").await, Bidder::sign_up(&server, "boris").await, Bidder::sign_up(&server, "carl").await);
    let game = bidding_game(&server, &anna, &boris, json!({})).await;
    let (anna_nonce, boris_nonce) = ([0xa1; 32], [0xb2; 32]);

    // The game waits, every seat open but kept for the bid.
    let (_, shown) = server.http("GET", &format!("/api/games/{game}"), Some(&boris.token), None).await;
    assert_eq!(shown["game"]["status"], "open", "{shown}");
    assert_eq!(shown["game"]["bid"], json!({"rule": "lower-axis", "bidders": ["anna", "boris"]}), "{shown}");
    assert!(shown["game"]["seats"].as_array().unwrap().iter().all(|s| s["kind"] == "open"), "{shown}");
    for who in [&carl, &anna] {
        let (status, body) = server.http("POST", &format!("/api/games/{game}/seats/germany"), Some(&who.token), None).await;
        assert_eq!((status, code(&body)), (409, "bid/seats-by-bid"), "{body}");
    }
    let (_, open) = server.http("GET", "/api/games?filter=open", None, None).await;
    assert!(open["games"].as_array().unwrap().iter().all(|g| g["id"] != json!(game)), "no one else joins it: {open}");
    let (_, mine) = server.http("GET", "/api/games?filter=mine", Some(&boris.token), None).await;
    assert!(mine["games"].as_array().unwrap().iter().any(|g| g["id"] == json!(game)), "the opponent finds it: {mine}");

    // Malformed bids get their own codes.
    let (status, body) = anna.seal(&server, &game, "not hex").await;
    assert_eq!((status, code(&body)), (400, "bid/bad-commitment"), "{body}");
    let (status, body) = anna.seal(&server, &game, &"ab".repeat(31)).await;
    assert_eq!((status, code(&body)), (400, "bid/bad-commitment"), "31 bytes: {body}");
    for ipcs in [json!(-1), json!(1001), json!(2.5), json!("9"), json!(u64::MAX)] {
        let (status, body) = anna.reveal(&server, &game, ipcs.clone(), &anna_nonce).await;
        assert_eq!((status, code(&body)), (400, "bid/bad-ipcs"), "{ipcs}: {body}");
    }
    let body = json!({"ipcs": 9, "nonce": "zz"});
    let (status, reply) = server.http("POST", &format!("/api/games/{game}/bid/reveal"), Some(&anna.token), Some(&body)).await;
    assert_eq!((status, code(&reply)), (400, "bid/bad-nonce"), "{reply}");

    // Anna seals 9; nobody reveals before both are sealed; Carl is no bidder.
    let round = anna.seal_bid(&server, &game, 9, &anna_nonce).await;
    assert_eq!(round["bid"]["stage"], "sealing", "{round}");
    let (status, body) = anna.reveal(&server, &game, json!(9), &anna_nonce).await;
    assert_eq!((status, code(&body)), (409, "bid/not-sealed"), "{body}");
    let (status, body) = carl.seal(&server, &game, &commitment(&game, "carl", 0, &[0; 32])).await;
    assert_eq!((status, code(&body)), (403, "bid/not-a-bidder"), "{body}");
    let (status, body) = carl.reveal(&server, &game, json!(0), &[0; 32]).await;
    assert_eq!((status, code(&body)), (403, "bid/not-a-bidder"), "{body}");

    // Boris seals 6; the round shows both commitments and no bid.
    boris.seal_bid(&server, &game, 6, &boris_nonce).await;
    let (status, shown) = server.http("GET", &format!("/api/games/{game}/bid"), Some(&carl.token), None).await;
    assert_eq!(status, 200, "a public game's round is anyone's to read: {shown}");
    let bidders = shown["bid"]["bidders"].as_array().unwrap();
    assert_eq!(shown["bid"]["stage"], "revealing", "{shown}");
    assert_eq!(bidders[1]["commitment"], json!(commitment(&game, "boris", 6, &boris_nonce)), "{shown}");
    assert!(bidders.iter().all(|b| b["ipcs"].is_null() && b["nonce"].is_null()), "no bid before its reveal: {shown}");

    // A reveal that does not open the commitment: another bid, another nonce.
    let (status, body) = anna.reveal(&server, &game, json!(8), &anna_nonce).await;
    assert_eq!((status, code(&body)), (422, "bid/commitment-mismatch"), "{body}");
    let (status, body) = anna.reveal(&server, &game, json!(9), &[0xa2; 32]).await;
    assert_eq!((status, code(&body)), (422, "bid/commitment-mismatch"), "{body}");
    // Boris's commitment opened as Anna's is not hers either.
    let (status, body) = anna.reveal(&server, &game, json!(6), &boris_nonce).await;
    assert_eq!((status, code(&body)), (422, "bid/commitment-mismatch"), "{body}");

    let round = anna.reveal_bid(&server, &game, 9, &anna_nonce).await;
    assert_eq!(round["bid"]["bidders"][0]["ipcs"], 9, "{round}");
    assert_eq!(round["bid"]["settled"], Value::Null, "{round}");
    // Boris saw Anna's 9: he can no longer change his bid, nor she hers.
    let (status, body) = boris.seal(&server, &game, &commitment(&game, "boris", 8, &boris_nonce)).await;
    assert_eq!((status, code(&body)), (409, "bid/after-reveal"), "{body}");
    let (status, body) = anna.seal(&server, &game, &commitment(&game, "anna", 5, &anna_nonce)).await;
    assert_eq!((status, code(&body)), (409, "bid/after-reveal"), "{body}");
    let (status, body) = anna.reveal(&server, &game, json!(9), &anna_nonce).await;
    assert_eq!((status, code(&body)), (409, "bid/revealed-twice"), "{body}");

    // Boris's 6 is the lower: he plays the Axis with 6 IPCs more.
    let settled = boris.reveal_bid(&server, &game, 6, &boris_nonce).await;
    assert_eq!(settled["bid"]["stage"], "settled", "{settled}");
    assert_eq!(settled["bid"]["settled"], json!({"axis": "boris", "allies": "anna", "ipcs": 6, "tie": false}), "{settled}");
    assert_eq!(settled["game"]["status"], "playing", "{settled}");
    assert_eq!(
        holders(&server, &game, &anna.token).await,
        json!({"russia": "anna", "germany": "boris", "uk": "anna", "japan": "boris", "usa": "anna"})
    );
    let (status, body) = boris.reveal(&server, &game, json!(6), &boris_nonce).await;
    assert_eq!((status, code(&body)), (409, "bid/revealed-twice"), "{body}");
    let (status, body) = server.http("POST", &format!("/api/games/{game}/seats/germany"), Some(&carl.token), None).await;
    assert_eq!((status, code(&body)), (409, "bid/seats-by-bid"), "{body}");

    // The record starts from Germany's raised bank.
    let bank = standard_german_bank() + 6;
    let (status, text) = server.http_text("GET", &format!("/api/games/{game}/record"), Some(&anna.token), None).await;
    assert_eq!(status, 200, "{text}");
    let record = Record::load(&text).unwrap_or_else(|e| panic!("the record loads: {e}"));
    assert_eq!(record.start().position.state, Some(json!({"ipcs": {"germany": bank}})));

    // The game plays: Russia's turn passes, and Germany buys with the bid
    // more than its published bank pays for (classic infantry costs 3).
    let mut russia = server.ws(&game, Some(&anna.token)).await;
    for _ in 0..10 {
        if russia.summary().await["actor"] == "germany" {
            break;
        }
        let reply = russia.apply(json!({"type": "end_phase"})).await;
        assert_eq!(reply["reply"], "ok", "{reply}");
    }
    let mut germany = server.ws(&game, Some(&boris.token)).await;
    assert_eq!(germany.summary().await["actor"], "germany");
    let reply = germany.apply(json!({"type": "end_phase"})).await;
    assert_eq!(reply["reply"], "ok", "research: {reply}");
    let infantry = bank / 3;
    assert!(infantry * 3 > standard_german_bank());
    let reply = germany.apply(json!({"type": "purchase", "units": {"infantry": infantry}})).await;
    assert_eq!(reply["reply"], "ok", "{infantry} infantry with the bid: {reply}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn equal_bids_go_by_the_nonces_coin() {
    for db in databases("equal_bids_go_by_the_nonces_coin") {
        equal_bids(db).await;
    }
}

async fn equal_bids(db: Db) {
    let server = TestServer::start(db).await;
    let (anna, boris) = (Bidder::sign_up(&server, "anna").await, Bidder::sign_up(&server, "boris").await);
    // Both faces of the coin: "anna" sorts first, so coin 0 is hers.
    for face in [0u8, 1] {
        let anna_nonce = [7; 32];
        let boris_nonce = (0u8..=255).map(|n| [n; 32]).find(|b| coin(&anna_nonce, b) == face).expect("a nonce for each face");
        // Boris creates this one: the coin does not follow who created the game.
        let game = bidding_game(&server, &boris, &anna, json!({})).await;
        anna.seal_bid(&server, &game, 4, &anna_nonce).await;
        boris.seal_bid(&server, &game, 4, &boris_nonce).await;
        boris.reveal_bid(&server, &game, 4, &boris_nonce).await;
        let settled = anna.reveal_bid(&server, &game, 4, &anna_nonce).await;
        let (axis, allies) = if face == 0 { ("anna", "boris") } else { ("boris", "anna") };
        assert_eq!(settled["bid"]["settled"], json!({"axis": axis, "allies": allies, "ipcs": 4, "tie": true}), "face {face}: {settled}");
        assert_eq!(holders(&server, &game, &anna.token).await["germany"], axis);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_reveals_settle_once() {
    for db in databases("concurrent_reveals_settle_once") {
        concurrent_reveals(db).await;
    }
}

async fn concurrent_reveals(db: Db) {
    let server = TestServer::start(db).await;
    let (anna, boris) = (Bidder::sign_up(&server, "anna").await, Bidder::sign_up(&server, "boris").await);
    // Both last reveals at once, a few times: each must see the other's
    // (or wait for it), so exactly one settles and the game starts.
    for n in 0..3u8 {
        let game = bidding_game(&server, &anna, &boris, json!({})).await;
        let (anna_nonce, boris_nonce) = ([n; 32], [n + 100; 32]);
        anna.seal_bid(&server, &game, 3, &anna_nonce).await;
        boris.seal_bid(&server, &game, 5, &boris_nonce).await;
        let (a, b) = tokio::join!(anna.reveal(&server, &game, json!(3), &anna_nonce), boris.reveal(&server, &game, json!(5), &boris_nonce));
        assert_eq!((a.0, b.0), (200, 200), "{a:?} {b:?}");
        let (_, round) = server.http("GET", &format!("/api/games/{game}/bid"), Some(&anna.token), None).await;
        assert_eq!(round["bid"]["settled"], json!({"axis": "anna", "allies": "boris", "ipcs": 3, "tie": false}), "{round}");
        let (_, shown) = server.http("GET", &format!("/api/games/{game}"), Some(&anna.token), None).await;
        assert_eq!(shown["game"]["status"], "playing", "{shown}");
        assert_eq!(holders(&server, &game, &anna.token).await["germany"], "anna");
    }
    // The same reveal twice at once: one is kept, the other refused.
    let game = bidding_game(&server, &anna, &boris, json!({})).await;
    anna.seal_bid(&server, &game, 3, &[1; 32]).await;
    boris.seal_bid(&server, &game, 5, &[2; 32]).await;
    let (first, second) = tokio::join!(anna.reveal(&server, &game, json!(3), &[1; 32]), anna.reveal(&server, &game, json!(3), &[1; 32]));
    let mut outcomes = [(first.0, code(&first.1).to_string()), (second.0, code(&second.1).to_string())];
    outcomes.sort();
    assert_eq!(outcomes, [(200, String::new()), (409, "bid/revealed-twice".to_string())], "{first:?} {second:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_with_a_bid_are_checked_at_creation() {
    let server = TestServer::start(Db::Sqlite).await;
    let (anna, _boris) = (Bidder::sign_up(&server, "anna").await, Bidder::sign_up(&server, "boris").await);
    let bid = json!({"opponent": "boris", "rule": "lower-axis"});
    let refused = [
        (json!({"ruleset": "classic", "bid": bid, "seats": {"germany": {"kind": "me"}}}), 400, "bid/with-seats"),
        (json!({"ruleset": "classic", "bid": {"opponent": "boris", "rule": "higher-axis"}}), 400, "bid/unknown-rule"),
        (json!({"ruleset": "classic", "bid": {"opponent": "nobody", "rule": "lower-axis"}}), 400, "auth/unknown-account"),
        (json!({"ruleset": "classic", "bid": {"opponent": "ANNA", "rule": "lower-axis"}}), 400, "bid/own-opponent"),
        (json!({"ruleset": "alternative", "options": {"teams": "independent"}, "bid": bid}), 400, "bid/not-two-sides"),
    ];
    for (body, status, expected) in refused {
        let (got, reply) = server.http("POST", "/api/games", Some(&anna.token), Some(&body)).await;
        assert_eq!((got, code(&reply)), (status, expected), "{body}: {reply}");
    }
    let (status, reply) = server.http("GET", "/api/games?filter=mine", Some(&anna.token), None).await;
    assert_eq!((status, reply["games"].as_array().map(Vec::len)), (200, Some(0)), "nothing was created: {reply}");
    // A game without a bid has no round.
    let plain = server.create(&anna.token, json!({"ruleset": "classic"})).await;
    let (status, body) = server.http("GET", &format!("/api/games/{plain}/bid"), Some(&anna.token), None).await;
    assert_eq!((status, code(&body)), (404, "bid/no-bid"), "{body}");
    let (status, body) = anna.seal(&server, &plain, &commitment(&plain, "anna", 1, &[0; 32])).await;
    assert_eq!((status, code(&body)), (404, "bid/no-bid"), "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proven_bidding_game_binds_the_raised_bank_and_rates_the_bid() {
    for db in databases("a_proven_bidding_game_binds_the_raised_bank_and_rates_the_bid") {
        proven_bidding_game(db).await;
    }
}

async fn proven_bidding_game(db: Db) {
    let server = TestServer::start(db).await;
    let (anna, boris) = (Bidder::sign_up(&server, "anna").await, Bidder::sign_up(&server, "boris").await);
    let game = bidding_game(&server, &anna, &boris, json!({"dice": "server", "public": false})).await;
    let dice_at = |shown: &Value| shown["game"]["dice"].clone();
    let (_, created) = server.http("GET", &format!("/api/games/{game}"), Some(&boris.token), None).await;
    assert_eq!(dice_at(&created)["mode"], "server", "the opponent sees the private game: {created}");

    anna.seal_bid(&server, &game, 12, &[3; 32]).await;
    boris.seal_bid(&server, &game, 15, &[4; 32]).await;
    anna.reveal_bid(&server, &game, 12, &[3; 32]).await;
    let settled = boris.reveal_bid(&server, &game, 15, &[4; 32]).await;
    assert_eq!(settled["bid"]["settled"]["axis"], "anna", "{settled}");
    assert_eq!(dice_at(&settled)["commitment"], dice_at(&created)["commitment"], "the seed committed at creation stays");

    // Russia (Boris) plays a few actions; every entry is a link of the chain.
    let mut russia = server.ws(&game, Some(&boris.token)).await;
    let mut script = warboard_record::testing::attack_on_ukraine();
    script.push(json!({"type": "resolve", "at": "UKR"}));
    for action in script {
        let reply = russia.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{action}: {reply}");
    }
    let (status, text) = server.http_text("GET", &format!("/api/games/{game}/record"), Some(&anna.token), None).await;
    assert_eq!(status, 200, "{text}");
    let record = Record::load(&text).unwrap_or_else(|e| panic!("the proven record loads: {e}"));
    let bank = standard_german_bank() + 12;
    assert_eq!(record.start().position.state, Some(json!({"ipcs": {"germany": bank}})));
    let binding = record.proof_binding().expect("a binding");
    assert_eq!(record.proof_header().expect("a header").start_state_hash, binding.1, "the header binds the start with the bid");
    let germany = record.game().ruleset.power_by_name("germany").unwrap();
    assert_eq!(i64::from(record.state().ipcs[germany.index()]), bank);

    // The game ends; its rated result keeps the bid the Axis got.
    let reply = russia.apply(json!({"type": "surrender", "side": "allies"})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");
    let rated = server.store.rated("classic").await.expect("rated results");
    assert_eq!(rated.len(), 1, "{rated:?}");
    assert_eq!(rated[0].bid, Some(12), "{rated:?}");
    let (_, balance) = server.http("GET", "/api/ladder/classic/balance", None, None).await;
    assert_eq!(balance["by_bid"][0]["bid"], 12, "{balance}");
    server.stop().await;
}
