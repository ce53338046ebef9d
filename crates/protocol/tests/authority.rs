//! Seat authority (issue 34, finding 1): a client acts only for the powers
//! it plays, in every phase of every ruleset, round phases included, where
//! several nations act at once. The server rests on this check.

mod common;

use common::Client;
use serde_json::{json, Value};

/// Every action a client might try for another power, naming it.
fn forged(power: &str) -> Vec<Value> {
    vec![
        json!({"type": "end_phase", "power": power}),
        json!({"type": "purchase", "units": {"infantry": 1}, "power": power}),
        json!({"type": "place", "at": "GER", "units": {"infantry": 1}, "power": power}),
        json!({"type": "surrender", "power": power}),
    ]
}

/// Plays `rounds` rounds as `client`, trying at each decision every forged
/// action for every other power: each is refused with
/// `game/not-your-turn` and changes nothing. Returns the phases seen.
fn play_checking_authority(ruleset: &str, client: &str, rounds: u64) -> Vec<String> {
    let powers: Vec<String> = warboard_rules::ruleset(ruleset).unwrap().powers.iter().map(|p| p.id.clone()).collect();
    let mut c = Client::new();
    let mut s = c.ok(json!({"cmd": "new", "ruleset": ruleset, "seed": 3, "powers": [client]}))["summary"].clone();
    let mut phases = Vec::new();
    while s["round"].as_u64().unwrap_or(0) <= rounds && s["awaiting"] == "client" {
        let phase = s["phase"].as_str().unwrap_or("").to_string();
        if !phases.contains(&phase) {
            phases.push(phase.clone());
        }
        let before = c.ok(json!({"cmd": "state", "full": true}));
        for other in powers.iter().filter(|p| *p != client) {
            for action in forged(other) {
                let code = c.error(json!({"cmd": "apply", "action": action}));
                assert_eq!(code, "game/not-your-turn", "{ruleset}, {phase}: {action}");
            }
        }
        assert_eq!(c.ok(json!({"cmd": "state", "full": true})), before, "{ruleset}: a refused action changed the game");
        // The client's own move on: end its phase, or settle a battle.
        let own = match c.send(json!({"cmd": "apply", "action": {"type": "end_phase", "power": client}})) {
            warboard_protocol::Reply::Ok { result, .. } => result,
            _ => c.ok(json!({"cmd": "apply", "action": {"type": "resolve"}})),
        };
        s = own["summary"].clone();
    }
    phases
}

#[test]
fn a_client_acts_only_for_its_powers_in_every_ruleset() {
    for (ruleset, client) in [("classic", "germany"), ("europe", "russia"), ("anniversary-1941", "uk"), ("anniversary-1942", "italy")] {
        let phases = play_checking_authority(ruleset, client, 1);
        assert!(phases.len() >= 6, "{ruleset}: only {phases:?} seen");
    }
}

#[test]
fn a_client_shops_only_for_its_nations_in_the_alternative_round() {
    // The reproduction: the UK's points spent and its shopping ended by a
    // client playing Germany. Payday, shopping and the turn, two rounds.
    let phases = play_checking_authority("alternative", "germany", 2);
    for phase in ["shopping", "turn"] {
        assert!(phases.iter().any(|p| p == phase), "{phases:?}");
    }
}

#[test]
fn a_client_decides_no_battle_for_an_engine_ally() {
    // The client plays the UK; the engine plays the US. A battle waiting for
    // the US may not be decided by naming the UK's ally.
    let mut c = Client::new();
    c.ok(json!({"cmd": "new", "seed": 1, "powers": ["uk"]}));
    let code = c.error(json!({"cmd": "apply", "action": {"type": "casualties", "units": [], "power": "usa"}}));
    assert_eq!(code, "game/not-your-turn");
}
