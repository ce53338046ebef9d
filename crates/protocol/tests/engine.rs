//! The engine in process: undo's reach, the powers the engine plays, a
//! failed `new` keeping the game, and the full position as a new game.

mod common;

use common::Client;
use warboard_protocol::Reply;
use serde_json::{json, Value};
use std::collections::BTreeMap;

#[test]
fn undo_reaches_back_within_the_turn_and_never_past_dice() {
    let mut c = Client::new();
    c.ok(json!({"cmd": "new", "seed": 5}));
    assert_eq!(c.error(json!({"cmd": "undo"})), "undo/nothing");
    c.act(json!({"type": "end_phase"}));
    // Undo reaches back across the phases of the client's own turn.
    let back = c.ok(json!({"cmd": "undo"}));
    assert_eq!(back["summary"]["phase"], "research", "{back}");
    c.act(json!({"type": "end_phase"}));
    c.act(json!({"type": "purchase", "units": {"infantry": 1}}));
    let s = c.act(json!({"type": "purchase", "units": {"armor": 1}}));
    assert_eq!((s["undo"].as_u64(), s["ipcs"]["russia"].as_i64()), (Some(3), Some(16)));
    let undone = c.ok(json!({"cmd": "undo"}));
    assert_eq!(undone["undone"], json!({"type": "purchase", "units": {"armor": 1}}));
    let undone = c.ok(json!({"cmd": "undo"}));
    assert_eq!((undone["summary"]["ipcs"]["russia"].as_i64(), undone["summary"]["seq"].as_u64()), (Some(24), Some(1)));
    // Back through the end of research to the game's start.
    c.ok(json!({"cmd": "undo"}));
    assert_eq!(c.error(json!({"cmd": "undo"})), "undo/nothing");
    c.act(json!({"type": "end_phase"}));

    c.act(json!({"type": "end_phase"}));
    c.act(json!({"type": "move", "units": [{"type": "infantry", "count": 5}], "route": ["CAU", "UKR"]}));
    let moved = c.ok(json!({"cmd": "undo"}));
    // Left: the two ends of phase since the game began.
    assert_eq!(moved["summary"]["undo"], 2);
    c.act(json!({"type": "move", "units": [{"type": "infantry", "count": 5}], "route": ["CAU", "UKR"]}));
    c.act(json!({"type": "end_phase"}));
    c.act(json!({"type": "resolve", "at": "UKR"}));
    assert_eq!(c.error(json!({"cmd": "undo"})), "undo/dice-rolled");
}

#[test]
fn the_engine_plays_the_powers_the_client_does_not() {
    let mut c = Client::new();
    // The client plays Germany: the engine plays Russia's first turn at once.
    let started = c.ok(json!({"cmd": "new", "seed": 8, "powers": ["germany"]}));
    // The computer's Russia may attack Germany: the client, defending,
    // answers those battles (here: with the default decisions).
    let mut s = started["summary"].clone();
    while s["turn"] != "germany" {
        assert_eq!(s["awaiting"].as_str(), Some("client"), "{s}");
        s = c.act(json!({"type": "resolve"}));
    }
    assert_eq!((s["turn"].as_str(), s["phase"].as_str(), s["awaiting"].as_str()), (Some("germany"), Some("research"), Some("client")));
    assert!(c.events.iter().any(|e| e["event"] == "engine_action" && e["power"] == "russia"));
    assert!(c.events.iter().any(|e| e["event"] == "income" && e["power"] == "russia"));
    for _ in 0..7 {
        c.act(json!({"type": "end_phase"}));
    }
    // Germany's turn ended; the engine played the others (the client
    // answering their attacks), and round 2 is Germany's again.
    let mut s = c.ok(json!({"cmd": "state"}))["summary"].clone();
    while s["turn"] != "germany" {
        s = c.act(json!({"type": "resolve"}));
    }
    assert_eq!((s["round"].as_u64(), s["turn"].as_str()), (Some(2), Some("germany")), "{s}");
    assert_eq!(c.error(json!({"cmd": "undo"})), "undo/by-engine");
    // Germany may give up for the Axis, not for the Allies.
    assert_eq!(c.error(json!({"cmd": "apply", "action": {"type": "surrender", "side": "allies"}})), "game/not-your-side");
    let s = c.act(json!({"type": "surrender", "side": "axis"}));
    assert_eq!((s["winner"].as_str(), s["awaiting"].as_str()), (Some("allies"), Some("nobody")));
    assert_eq!(c.error(json!({"cmd": "apply", "action": {"type": "end_phase"}})), "game/over");
    assert_eq!(c.error(json!({"cmd": "undo"})), "undo/game-over");
}

#[test]
fn a_failed_new_or_load_keeps_the_game() {
    let mut c = Client::new();
    c.ok(json!({"cmd": "new", "seed": 1}));
    c.act(json!({"type": "end_phase"}));
    let before = c.ok(json!({"cmd": "state", "full": true}));
    assert_eq!(c.error(json!({"cmd": "new", "setup": "moon"})), "start/bad-position");
    assert_eq!(c.error(json!({"cmd": "new", "dice": "client", "seed": 4})), "protocol/bad-field");
    assert_eq!(c.error(json!({"cmd": "load", "path": "/no/such/file.json"})), "save/unreadable");
    assert_eq!(c.ok(json!({"cmd": "state", "full": true})), before);
}

#[test]
fn stale_actions_are_refused() {
    let mut c = Client::new();
    c.ok(json!({"cmd": "new", "seed": 1}));
    c.ok(json!({"cmd": "apply", "action": {"type": "end_phase"}, "seq": 0}));
    assert_eq!(c.error(json!({"cmd": "apply", "action": {"type": "end_phase"}, "seq": 0})), "game/stale-seq");
}

/// Units per (space, owner, type), without their ids.
fn census(position: &Value) -> BTreeMap<(String, String, String), usize> {
    let mut m = BTreeMap::new();
    for u in position["units"].as_array().unwrap() {
        let key =
            (u["at"].as_str().unwrap().to_string(), u["owner"].as_str().unwrap().to_string(), u["type"].as_str().unwrap().to_string());
        *m.entry(key).or_default() += 1;
    }
    m
}

#[test]
fn the_full_position_starts_a_new_game() {
    let mut c = Client::new();
    c.ok(json!({"cmd": "new", "seed": 3}));
    c.act(json!({"type": "end_phase"}));
    c.act(json!({"type": "purchase", "units": {"infantry": 2}}));
    let position = c.ok(json!({"cmd": "state", "full": true}))["position"].clone();
    c.ok(json!({"cmd": "new", "seed": 3, "setup": "empty", "state": position}));
    let again = c.ok(json!({"cmd": "state", "full": true}))["position"].clone();
    for field in ["round", "turn", "phase", "control", "ipcs", "purchased"] {
        assert_eq!(again[field], position[field], "{field}");
    }
    assert_eq!(census(&again), census(&position));
    // The engine's unit names are the ones it reads, in the new game too.
    let first = again["units"][0].clone();
    let route = json!([first["at"], first["at"]]);
    let reply = c.send(json!({"cmd": "apply", "action": {"type": "move", "units": [{"id": first["id"]}], "route": route}}));
    assert!(!matches!(reply, Reply::Error { ref code, .. } if code == "action/no-such-units"), "{reply:?}");
}

/// Issue 16, finding 7: a huge field in a request gives a short error line.
#[test]
fn huge_inputs_give_short_errors() {
    let huge = "x".repeat(5_000_000);
    let reply = warboard_protocol::Reply::Error { id: Some(serde_json::json!(huge.clone())), cmd: Some(huge.clone()), code: "request/bad".into(), message: format!("unknown ruleset `{huge}`") };
    let line = reply.to_line();
    assert!(line.len() < 2_000, "{} bytes", line.len());
    assert!(line.contains("more bytes"), "{line}");
}

/// Issue 16, finding 8: a position's `u<number>` name must be that unit's
/// own engine name, or `{"id": "u1"}` would later name another unit.
#[test]
fn engine_shaped_names_in_a_position_must_match() {
    let mut client = Client::new();
    let code = client.error(json!({"cmd":"new","setup":"empty","state":{"units":[
        {"at":"GER","owner":"germany","type":"infantry"},
        {"at":"GER","owner":"germany","type":"infantry","id":"u0"}]}}));
    assert_eq!(code, "start/bad-position");
    client.ok(json!({"cmd":"new","setup":"empty","state":{"units":[
        {"at":"GER","owner":"germany","type":"infantry","id":"u0"},
        {"at":"GER","owner":"germany","type":"infantry","id":"first"}]}}));
}

#[test]
fn the_engine_plays_anniversary_around_a_client_china() {
    // The client plays China in both scenarios; the engine plays the six
    // others (researchers, repairs, units that must be placed) for two
    // rounds without getting stuck, and China's received infantry are
    // placed where `legal` says, without a complex.
    for ruleset in ["anniversary-1941", "anniversary-1942"] {
        let mut c = Client::new();
        let mut s = c.ok(json!({"cmd": "new", "ruleset": ruleset, "seed": 4, "powers": ["china"]}))["summary"].clone();
        let (mut steps, mut placed) = (0, 0);
        while s["round"].as_u64() <= Some(2) && s["winner"].is_null() {
            steps += 1;
            assert!(steps < 2000, "{ruleset}: {s}");
            assert_eq!(s["awaiting"].as_str(), Some("client"), "{ruleset}: the engine hands over only to China: {s}");
            let action = if s["turn"] != "china" {
                // China defends a battle in another power's turn: the
                // default choices.
                json!({"type": "resolve"})
            } else if s["phase"] == "place" {
                let items = c.ok(json!({"cmd": "legal"}))["items"].clone();
                match items.as_array().unwrap().iter().find(|i| i["type"] == "place") {
                    Some(p) => {
                        placed += 1;
                        json!({"type": "place", "at": p["at"], "units": {"infantry": 1}})
                    }
                    None => json!({"type": "end_phase"}),
                }
            } else {
                json!({"type": "end_phase"})
            };
            s = c.act(action);
        }
        assert!(placed > 0, "{ruleset}: China placed infantry");
        assert!(!c.events.iter().any(|e| e["event"] == "engine_stuck"), "{ruleset}: {:?}", c.events.iter().find(|e| e["event"] == "engine_stuck"));
        for power in ["germany", "russia", "japan", "uk", "italy", "usa"] {
            assert!(c.events.iter().any(|e| e["event"] == "engine_action" && e["power"] == power), "{ruleset}: the engine played {power}");
        }
    }
}

/// Issue 14: `think` hands the engine's powers to the planning player. A
/// seeded game repeats exactly with it (the budget is counted in simulated
/// turns), it plays otherwise than the standard planner (`think` 0), and a
/// budget past the limit is refused.
#[test]
fn the_engine_thinks_when_asked() {
    let position = |think: u64| {
        let mut c = Client::new();
        let started = c.ok(json!({"cmd": "new", "seed": 9, "powers": ["usa"], "think": think}));
        assert_eq!(started["summary"]["think"], think);
        assert_eq!(started["summary"]["actor"], "usa", "the engine played the four powers before the USA");
        c.ok(json!({"cmd": "state", "full": true}))
    };
    let thinking = position(40);
    assert_eq!(thinking, position(40), "the same seed and budget give the same game");
    assert_ne!(thinking, position(0), "the planning player opened otherwise than the standard planner");
    let mut c = Client::new();
    assert_eq!(c.error(json!({"cmd": "new", "think": 10_001})), "protocol/bad-field");
    assert_eq!(c.error(json!({"cmd": "load", "path": "nowhere.json", "think": 10_001})), "protocol/bad-field");
}

/// Issue 34, finding 6: the dice queue is bounded, so the engine never holds
/// a game no loader could read back.
#[test]
fn the_client_dice_queue_is_bounded() {
    let mut c = Client::new();
    c.ok(json!({"cmd": "new", "dice": "client"}));
    let half = vec![3u8; warboard_protocol::MAX_QUEUED_DICE / 2 + 1];
    let first = c.ok(json!({"cmd": "dice", "values": half}));
    assert_eq!(first["queued"].as_u64(), Some(half.len() as u64));
    assert_eq!(c.error(json!({"cmd": "dice", "values": half})), "dice/too-many");
    let after = c.ok(json!({"cmd": "state"}));
    assert_eq!(after["summary"]["seq"], first["summary"]["seq"]);
    c.ok(json!({"cmd": "dice", "values": [1, 2]}));
}

/// Issue 34, finding 9: the engine's turns cost about what the board holds,
/// not its square: 3,000 infantry that the computer marches to the front
/// move in a few actions, not one action (each copying the board) apiece.
#[test]
fn thousands_of_like_units_move_in_few_actions() {
    let mut c = Client::new();
    c.ok(json!({"cmd": "new", "seed": 1, "powers": ["usa"], "state": {"units": [
        {"at": "GER", "owner": "germany", "type": "infantry", "count": 3000}]}}));
    let moves = c.events.iter().filter(|e| e["event"] == "engine_action" && e["power"] == "germany" && e["action"]["type"] == "move").count();
    assert!(moves > 0 && moves < 100, "Germany moved in {moves} actions");
}
