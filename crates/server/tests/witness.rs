//! The witness for games played by e-mail (docs/pbem.md, "The witness"): a
//! proven game played through it verifies; a number is receipted once, a
//! retry gets the same receipt and another action for it is refused with
//! the receipt that stands; rounds published already or too far ahead, bad
//! signatures and broken chains are refused with their codes.

mod common;

use common::TestServer;
use serde_json::{json, Value};
use warboard_proof::bytes::{from_hex_n, to_hex};
use warboard_proof::{BeaconProof, ChainInfo, DiceMode as ProofDice, Header, Link, SeatKey, SignedReceipt, SigningKey};
use warboard_record::testing::RUSSIAN_TURN;
use warboard_record::{DiceMode, Origin, Record, Start};
use warboard_server::witness::BeaconConfig;


fn now_s() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

struct Player {
    server: TestServer,
    record: Record,
    key: SigningKey,
    id: String,
    beacon: ChainInfo,
}

impl Player {
    async fn start() -> Player {
        let server = TestServer::start_witness(BeaconConfig::Test { secret: [3; 32], genesis: now_s() - 100, period: 1 }).await;
        let (status, about) = server.http("GET", "/api/witness", None, None).await;
        assert_eq!(status, 200, "{about}");
        let beacon: ChainInfo = serde_json::from_value(about["beacon"].clone()).unwrap();
        let server_key: [u8; 32] = from_hex_n(about["server_key"].as_str().unwrap()).unwrap();
        let key = SigningKey::from_bytes(&[8; 32]);
        let mut record = Record::new(Start::standard("classic", DiceMode::Proof)).unwrap();
        let (ruleset, start_state_hash) = record.proof_binding().unwrap();
        let mut game_id = [0u8; 16];
        getrandom::fill(&mut game_id).unwrap();
        let header = Header {
            game_id,
            ruleset,
            start_state_hash,
            seats: vec![SeatKey { seat: "russia".into(), key: Some(key.verifying_key().to_bytes()) }, SeatKey { seat: "computer".into(), key: None }],
            server_key,
            dice: ProofDice::Beacon { chain: beacon.clone() },
        };
        let body = serde_json::to_value(&header).unwrap();
        let (status, registered) = server.http("POST", "/api/witness/games", None, Some(&body)).await;
        assert_eq!(status, 200, "{registered}");
        assert_eq!(registered["header_hash"], json!(to_hex(&header.hash())));
        let (again, _) = server.http("POST", "/api/witness/games", None, Some(&body)).await;
        assert_eq!(again, 200, "registering the same header again is a retry");
        record.attach_proof(header).unwrap();
        Player { server, record, key, id: to_hex(&game_id), beacon }
    }

    async fn post_entry(&self, signed: &Value) -> (u16, Value) {
        self.server.http("POST", &format!("/api/witness/games/{}/entries", self.id), None, Some(signed)).await
    }

    /// One action through the witness: a round two ahead where it rolls,
    /// the entry signed, receipted, the round awaited, then applied.
    async fn act(&mut self, action: &Value) {
        let round = self.record.would_roll(action).unwrap().then(|| self.beacon.round_at(now_s()) + 2);
        let entry = self.record.next_entry("russia", action, round).unwrap();
        let signed = entry.sign(&from_hex_n(&self.id).unwrap(), &self.key);
        let (status, receipt) = self.post_entry(&serde_json::to_value(&signed).unwrap()).await;
        assert_eq!(status, 200, "{action}: {receipt}");
        let receipt: SignedReceipt = serde_json::from_value(receipt).unwrap();
        let beacon = match round {
            None => None,
            Some(r) => Some(BeaconProof { round: r, signature: self.wait_for_round(r).await }),
        };
        let link = Link { entry: signed, receipt, beacon };
        self.record.apply_link(action, Origin::Client, &link, None).unwrap_or_else(|e| panic!("{action}: {e}"));
    }

    async fn wait_for_round(&self, round: u64) -> Vec<u8> {
        for _ in 0..100 {
            let (status, body) = self.server.http("GET", &format!("/api/beacon/rounds/{round}"), None, None).await;
            if status == 200 {
                return warboard_proof::bytes::from_hex(body["signature"].as_str().unwrap()).unwrap();
            }
            assert_eq!(status, 425, "{body}");
            assert_eq!(body["error"]["code"], "beacon/not-yet");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("round {round} never came");
    }
}

#[tokio::test]
async fn a_game_played_through_the_witness_verifies() {
    let mut p = Player::start().await;
    for a in RUSSIAN_TURN {
        p.act(&serde_json::from_str(a).unwrap()).await;
    }
    // The receipts the witness gave, collected, agree with the chain.
    let (status, body) = p.server.http("GET", &format!("/api/witness/games/{}/receipts?from=0", p.id), None, None).await;
    assert_eq!(status, 200);
    let receipts: Vec<SignedReceipt> = serde_json::from_value(body["receipts"].clone()).unwrap();
    assert_eq!(receipts.len(), RUSSIAN_TURN.len());
    for r in receipts {
        p.record.witness(r).unwrap();
    }
    let loaded = Record::load(&p.record.to_save_string()).unwrap();
    let summary = loaded.proof_summary().unwrap();
    assert_eq!((summary.entries, summary.signed, summary.witnessed, summary.dice_pending), (12, 12, 12, false));
    assert_eq!(summary.rolled, 1);
    p.server.stop().await;
}

#[tokio::test]
async fn a_number_is_receipted_once() {
    let mut p = Player::start().await;
    p.act(&json!({"type": "end_phase"})).await;
    let game_id: [u8; 16] = from_hex_n(&p.id).unwrap();
    // The entry receipted as number 0, sent again: the same receipt.
    let first = p.record.links()[0].clone();
    let (status, again) = p.post_entry(&serde_json::to_value(&first.entry).unwrap()).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again, serde_json::to_value(&first.receipt).unwrap());
    // Another action as number 0: refused, with the receipt that stands.
    let mut other = first.entry.entry.clone();
    other.action = r#"{"type":"purchase","units":{"infantry":1}}"#.into();
    let (status, refused) = p.post_entry(&serde_json::to_value(other.sign(&game_id, &p.key)).unwrap()).await;
    assert_eq!(status, 409, "{refused}");
    assert_eq!(refused["error"]["code"], "witness/already-receipted");
    assert_eq!(refused["error"]["args"]["receipt"], serde_json::to_value(&first.receipt).unwrap());

    let next = |round: Option<u64>| p.record.next_entry("russia", &json!({"type": "purchase", "units": {"infantry": 1}}), round).unwrap();
    let code = |body: &Value| body["error"]["code"].as_str().unwrap_or_default().to_string();
    // A round published already, or too far ahead.
    let current = p.beacon.round_at(now_s());
    let (status, body) = p.post_entry(&serde_json::to_value(next(Some(current - 1)).sign(&game_id, &p.key)).unwrap()).await;
    assert_eq!((status, code(&body).as_str()), (400, "record/round-published"), "{body}");
    let (status, body) = p.post_entry(&serde_json::to_value(next(Some(current + 50)).sign(&game_id, &p.key)).unwrap()).await;
    assert_eq!((status, code(&body).as_str()), (400, "record/round-too-far"), "{body}");
    // Signed by another key; unsigned by a seat with a key; a seat not in the game.
    let (_, body) = p.post_entry(&serde_json::to_value(next(None).sign(&game_id, &SigningKey::from_bytes(&[1; 32]))).unwrap()).await;
    assert_eq!(code(&body), "record/bad-signature");
    let (_, body) = p.post_entry(&serde_json::to_value(next(None).unsigned()).unwrap()).await;
    assert_eq!(code(&body), "record/bad-signature");
    let mut stranger = next(None);
    stranger.seat = "germany".into();
    let (_, body) = p.post_entry(&serde_json::to_value(stranger.unsigned()).unwrap()).await;
    assert_eq!(code(&body), "record/unknown-seat");
    // Not linked to the entry before; a number ahead of the chain.
    let mut unlinked = next(None);
    unlinked.prev = [0; 32];
    let (status, body) = p.post_entry(&serde_json::to_value(unlinked.sign(&game_id, &p.key)).unwrap()).await;
    assert_eq!((status, code(&body).as_str()), (409, "record/chain-broken"), "{body}");
    let mut ahead = next(None);
    ahead.n += 1;
    let (status, body) = p.post_entry(&serde_json::to_value(ahead.sign(&game_id, &p.key)).unwrap()).await;
    assert_eq!((status, code(&body).as_str()), (409, "record/out-of-order"), "{body}");
    // An unknown game.
    let (status, body) = p.server.http("POST", "/api/witness/games/00/entries", None, Some(&serde_json::to_value(next(None).unsigned()).unwrap())).await;
    assert_eq!((status, code(&body).as_str()), (404, "witness/unknown-game"), "{body}");
    p.server.stop().await;
}

#[tokio::test]
async fn a_header_must_name_the_witness_key_and_beacon() {
    let p = Player::start().await;
    let mut header = p.record.proof_header().unwrap().clone();
    header.game_id = [9; 16];
    header.server_key = SigningKey::from_bytes(&[2; 32]).verifying_key().to_bytes();
    let (status, body) = p.server.http("POST", "/api/witness/games", None, Some(&serde_json::to_value(&header).unwrap())).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("witness/not-our-key")), "{body}");
    let mut header = p.record.proof_header().unwrap().clone();
    header.game_id = [9; 16];
    header.dice = ProofDice::Beacon { chain: ChainInfo::quicknet() };
    let (status, body) = p.server.http("POST", "/api/witness/games", None, Some(&serde_json::to_value(&header).unwrap())).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("witness/other-beacon")), "{body}");
    p.server.stop().await;
}

/// drand's round 123 of quicknet (docs/pbem.md, the fixture).
const ROUND_123: &str = "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92";

#[tokio::test]
async fn drand_rounds_are_relayed_only_when_they_verify() {
    // A drand relay on loopback: round 123 as drand publishes it, and a
    // round 124 that is round 123's signature again (a lie).
    let chain = warboard_proof::beacon::QUICKNET_CHAIN_HASH;
    let app = axum::Router::new()
        .route(&format!("/{chain}/public/123"), axum::routing::get(|| async { axum::Json(json!({"round": 123, "signature": ROUND_123})) }))
        .route(&format!("/{chain}/public/124"), axum::routing::get(|| async { axum::Json(json!({"round": 124, "signature": ROUND_123})) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let relay = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let server = TestServer::start_witness(BeaconConfig::QuicknetFrom { url: relay }).await;
    let (status, body) = server.http("GET", "/api/beacon/rounds/123", None, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["signature"], ROUND_123);
    let (status, body) = server.http("GET", "/api/beacon/rounds/124", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (502, Some("beacon/bad-round")), "{body}");
    let (status, body) = server.http("GET", "/api/beacon/rounds/125", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (502, Some("beacon/unreachable")), "{body}");
    // A round of next year is not published yet.
    let future = ChainInfo::quicknet().round_at(now_s() + 365 * 86400);
    let (status, body) = server.http("GET", &format!("/api/beacon/rounds/{future}"), None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (425, Some("beacon/not-yet")), "{body}");
    server.stop().await;
}
