//! A correspondence game with proven dice keeps its clock in its record
//! (issue 31, points 1 and 7; docs/pbem.md, "Table entries"): reminders,
//! the expiry, the takeover and the reclaim are notes of the chain made by
//! the table's seat, the claim is the surrender entry, a correction by
//! consent takes back a roll; the record downloaded at the end verifies,
//! every die checked against the revealed seed.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{databases, Db, TestServer};
use serde_json::{json, Value};
use warboard_record::{ClockEvent, Origin, Record, TableEntry, TABLE_SEAT};
use warboard_server::clock::ManualClock;

/// 2026-01-01 00:00 UTC.
const T0: i64 = 1_767_225_600_000;
const DAY: i64 = 24 * 60 * 60 * 1000;

/// The record as the server gives it, loaded (and so verified).
async fn record(server: &TestServer, token: &str, id: &str) -> Record {
    let (status, text) = server.http_text("GET", &format!("/api/games/{id}/record"), Some(token), None).await;
    assert_eq!(status, 200, "{text}");
    Record::load(&text).unwrap_or_else(|e| panic!("the record verifies: {e}"))
}

/// Each entry of the log as (seat that made it, what it is): a clock
/// note's event name, or the action's type.
fn entries(record: &Record) -> Vec<(String, String)> {
    let rs = &record.game().ruleset;
    let links = record.links();
    assert_eq!(links.len(), record.log().len(), "every entry is a link of the chain");
    record
        .log()
        .iter()
        .zip(&links)
        .map(|(e, l)| {
            let what = match TableEntry::parse(rs, &e.action.value()).unwrap() {
                Some(TableEntry::Clock { event, .. }) => {
                    assert_eq!(e.by, Origin::Engine, "the host makes the clock's notes");
                    event.as_str().to_string()
                }
                _ => e.action.value()["type"].as_str().unwrap_or("").to_string(),
            };
            (l.entry.entry.seat.clone(), what)
        })
        .collect()
}

fn seat_and(seat: &str, what: &str) -> (String, String) {
    (seat.to_string(), what.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proven_duel_keeps_its_clock_and_its_correction_in_the_record() {
    for db in databases("a_proven_duel_keeps_its_clock_and_its_correction_in_the_record") {
        proven_duel(db).await;
    }
}

async fn proven_duel(db: Db) {
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_clocked(db, clock.clone(), None).await;
    let (axis, allies) = (server.account("axis").await, server.account("allies").await);
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "account", "name": "allies"}, "uk": {"kind": "account", "name": "allies"}, "usa": {"kind": "account", "name": "allies"},
    });
    let id = server.create(&axis, json!({"ruleset": "classic", "seats": seats, "move_days": 1, "dice": "server"})).await;
    let mut russia = server.ws(&id, Some(&allies)).await;
    for action in [
        json!({"type": "end_phase"}),
        json!({"type": "end_phase"}),
        json!({"type": "move", "units": [{"type": "infantry", "count": 3}], "route": ["CAU", "UKR"]}),
        json!({"type": "end_phase"}),
        json!({"type": "resolve", "at": "UKR"}),
    ] {
        let reply = russia.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{action}: {reply}");
    }
    // Russia asks to fight Ukraine again; the Axis's player agrees.
    let reply = russia.apply(json!({"type": "correction", "power": "russia", "take_back_to": 4})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");
    let reply = russia.apply(json!({"type": "correction", "power": "russia", "approve": 5})).await;
    assert_eq!(reply["code"], "correction/own-side", "the other side approves: {reply}");
    let reply = russia.apply(json!({"type": "correction", "power": "germany", "approve": 5})).await;
    assert_eq!(reply["code"], "auth/not-your-power", "a seat answers for its own powers: {reply}");
    let mut germany = server.ws(&id, Some(&axis)).await;
    let state = germany.request(json!({"cmd": "state"})).await;
    assert_eq!(state["result"]["correction"], json!({"pending": {"proposal": 5, "take_back_to": 4, "by": "russia", "what": "taking back log[4..5]"}, "floor": 0, "approved": 0}));
    let reply = germany.apply(json!({"type": "correction", "power": "germany", "approve": 5})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");
    let reply = russia.apply(json!({"type": "resolve", "at": "UKR"})).await;
    assert_eq!(reply["reply"], "ok", "the battle is fought again: {reply}");
    let state = russia.request(json!({"cmd": "state"})).await;
    assert_eq!(state["result"]["correction"], json!({"pending": null, "floor": 7, "approved": 1}));

    // Then Russia's player goes quiet: reminders, the expiry, the claim.
    for (at, made) in [(T0 + DAY / 2, 1), (T0 + DAY / 10 * 9, 1), (T0 + DAY, 1)] {
        clock.set(at);
        assert_eq!(server.hub.clock_tick().await, made);
    }
    let (status, body) = server.http("POST", &format!("/api/games/{id}/claim"), Some(&axis), None).await;
    assert_eq!(status, 200, "{body}");

    let record = record(&server, &axis, &id).await;
    assert_eq!(
        entries(&record),
        vec![
            seat_and("russia", "end_phase"),
            seat_and("russia", "end_phase"),
            seat_and("russia", "move"),
            seat_and("russia", "end_phase"),
            seat_and("russia", "resolve"),
            seat_and("russia", "correction"),
            seat_and("germany", "correction"),
            seat_and("russia", "resolve"),
            seat_and(TABLE_SEAT, ClockEvent::Reminder.as_str()),
            seat_and(TABLE_SEAT, ClockEvent::LateReminder.as_str()),
            seat_and(TABLE_SEAT, ClockEvent::Expired.as_str()),
            seat_and("russia", "surrender"),
        ]
    );
    let summary = record.proof_summary().unwrap();
    assert!(!summary.dice_pending, "the seed is revealed at the end and every die checked: {summary:?}");
    let corrections = record.corrections();
    assert_eq!((corrections.approved.len(), &corrections.approved[0].change), (1, &warboard_record::Change::TakeBack { to: 4 }));
    assert!(!record.log()[4].dice.is_empty(), "the superseded roll stays in the record");
    assert_eq!(
        record.log()[10].action.value(),
        json!({"type": "table", "event": "expired", "powers": ["russia"], "deadline": "2026-01-02 00:00 UTC"})
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proven_team_game_notes_the_takeover_and_the_reclaim() {
    for db in databases("a_proven_team_game_notes_the_takeover_and_the_reclaim") {
        proven_team_game(db).await;
    }
}

/// A proven classic team game of anna (russia, uk), carl (usa, its creator)
/// and boris (the Axis), two days a move, whose clock has just run out on
/// anna: expired, and her seats taken over. The server, the game's id and
/// the three tokens.
async fn taken_over_team_game(db: Db) -> (TestServer, String, [String; 3]) {
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_clocked(db, clock.clone(), None).await;
    let (a, b, c) = (server.account("anna").await, server.account("boris").await, server.account("carl").await);
    let seats = json!({
        "russia": {"kind": "account", "name": "anna"}, "uk": {"kind": "account", "name": "anna"}, "usa": {"kind": "me"},
        "germany": {"kind": "account", "name": "boris"}, "japan": {"kind": "account", "name": "boris"},
    });
    let id = server.create(&c, json!({"ruleset": "classic", "seats": seats, "move_days": 2, "dice": "server"})).await;
    clock.set(T0 + 2 * DAY);
    assert_eq!(server.hub.clock_tick().await, 2, "expired, and taken over");
    (server, id, [a, b, c])
}

async fn proven_team_game(db: Db) {
    let (server, id, [a, _, _]) = taken_over_team_game(db).await;
    // The computer plays russia and the uk until the game waits on boris.
    let mut waited = Value::Null;
    for _ in 0..600 {
        let (_, body) = server.http("GET", &format!("/api/games/{id}"), Some(&a), None).await;
        waited = body["game"]["clock"]["waiting"]["account"].clone();
        if waited == "boris" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(waited, "boris");
    let (status, body) = server.http("POST", &format!("/api/games/{id}/reclaim"), Some(&a), None).await;
    assert_eq!(status, 200, "{body}");
    let record = record(&server, &a, &id).await;
    let seen = entries(&record);
    assert_eq!(seen[..2], [seat_and(TABLE_SEAT, "expired"), seat_and(TABLE_SEAT, "taken-over")]);
    assert_eq!(seen.last(), Some(&seat_and(TABLE_SEAT, "reclaimed")), "{seen:?}");
    assert!(
        seen[2..seen.len() - 1].iter().all(|(seat, _)| seat == "russia" || seat == "uk"),
        "the computer played anna's powers: {seen:?}"
    );
    assert_eq!(record.log()[1].action.value(), json!({"type": "table", "event": "taken-over", "powers": ["russia", "uk"]}));
    assert!(record.proof_summary().unwrap().dice_pending, "the game runs: its seed is still secret");
    server.stop().await;
}

/// Issue 32, point 2: abandoning counts as a loss. A team game the computer
/// finished for a player who never came back is rated, as a loss for the
/// side that player left — here although that side won on the board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_game_finished_for_a_leaver_is_rated_as_the_leavers_loss() {
    for db in databases("a_team_game_finished_for_a_leaver_is_rated_as_the_leavers_loss") {
        leaver(db).await;
    }
}

async fn leaver(db: Db) {
    let (server, id, [a, b, c]) = taken_over_team_game(db).await;
    let mut boris = server.ws(&id, Some(&b)).await;
    // The Axis gives up once the computer has played anna's powers.
    let mut reply = Value::Null;
    for _ in 0..600 {
        reply = boris.apply(json!({"type": "surrender", "side": "axis"})).await;
        if reply["reply"] == "ok" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(reply["reply"], "ok", "{reply}");
    let (status, profile) = server.http("GET", "/api/players/anna", Some(&a), None).await;
    assert_eq!(status, 200, "{profile}");
    let games = profile["games"].as_array().cloned().unwrap_or_default();
    assert_eq!(games.len(), 1, "the game is rated: {profile}");
    assert_eq!((games[0]["how"].as_str(), games[0]["result"].as_str()), (Some("abandon"), Some("loss")), "{profile}");
    let (_, profile) = server.http("GET", "/api/players/carl", Some(&c), None).await;
    assert_eq!(profile["games"][0]["result"], "loss", "the leaver's side loses, teammates included: {profile}");
    let (_, profile) = server.http("GET", "/api/players/boris", Some(&b), None).await;
    assert_eq!(profile["games"][0]["result"], "win", "{profile}");
    server.stop().await;
}
