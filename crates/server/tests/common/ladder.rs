//! Rated games for the ladder's tests (tests/ladder.rs, browser_ladder.rs):
//! classic games between accounts that end at once by a surrender, and the
//! ratings `warboard_ladder` gives their results, to check the server's.

use serde_json::{json, Value};
use warboard_ladder::{Family, How, Ladder, Outcome, PlayerId, RatedResult};
use warboard_server::store::RatedRow;

use super::TestServer;

/// An account: its name and bearer token.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub token: String,
}

impl Player {
    pub async fn sign_up(server: &TestServer, name: &str) -> Player {
        Player { name: name.to_string(), token: server.account(name).await }
    }
}

/// A classic game (`create` adds to the request: `dice`, `server` and
/// `beacon` rated, `seeded` not; `public`): `axis` creates it and holds
/// Germany and Japan, `allies` the Soviet Union, the United Kingdom and the
/// United States; the side `loser` (`axis` or `allies`) surrenders at once.
/// Its id.
pub async fn surrendered_game(server: &TestServer, axis: &Player, allies: &Player, create: Value, loser: &str) -> String {
    let a = json!({"kind": "account", "name": allies.name});
    let mut body =
        json!({"ruleset": "classic", "seats": {"germany": {"kind": "me"}, "japan": {"kind": "me"}, "russia": a, "uk": a, "usa": a}});
    for (k, v) in create.as_object().expect("an object") {
        body[k] = v.clone();
    }
    let game = server.create(&axis.token, body).await;
    let token = if loser == "axis" { &axis.token } else { &allies.token };
    let mut ws = server.ws(&game, Some(token)).await;
    let reply = ws.apply(json!({"type": "surrender", "side": loser})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");
    game
}

/// The result `warboard_ladder` rates for a kept row, read here from the
/// row's columns as the server should.
pub fn result_of(row: &RatedRow) -> RatedResult {
    let side = |ids: &[String]| ids.iter().map(|a| PlayerId(a.clone())).collect();
    let how = match row.how.as_str() {
        "surrender" => How::Surrender,
        "claim" => How::Claim,
        _ => How::Victory,
    };
    let outcome = if row.outcome == "draw" { Outcome::Draw } else { Outcome::Win };
    let family = Family::from_ruleset(&row.family).expect("a family");
    RatedResult { family, at_ms: row.ended_at, sides: [side(&row.side_a), side(&row.side_b)], outcome, how }
}

/// The family's ladder over the results the server kept, in its order.
pub async fn expected_ladder(server: &TestServer, family: &str) -> (Vec<RatedRow>, Ladder) {
    let rows = server.store.rated(family).await.expect("the rated results");
    let results: Vec<RatedResult> = rows.iter().map(result_of).collect();
    (rows, Ladder::from_results(&results).expect("the results rate"))
}

/// The bytes a client hashes for its sealed bid's commitment, as
/// docs/ladder.md spells them: written here from the document, not from
/// the server's code, for the bid tests (tests/bids.rs, browser_bids.rs).
pub fn bid_commitment_bytes(game: &str, player: &str, ipcs: u32, nonce: &[u8]) -> Vec<u8> {
    let mut bytes = b"warboard/bid/v1".to_vec();
    for part in [game.as_bytes(), player.as_bytes()] {
        bytes.extend((part.len() as u32).to_be_bytes());
        bytes.extend(part);
    }
    bytes.extend(ipcs.to_be_bytes());
    bytes.extend(nonce);
    bytes
}
