//! Positions no game could reach are refused by `new` with
//! `start/bad-position` naming the unit or field (issue 34, findings 7, 8,
//! 9 and 18), and the positions a game does reach still start.

mod common;

use common::Client;
use serde_json::{json, Value};

fn new_game(ruleset: &str, options: Value, state: Value) -> Result<(), (String, String)> {
    let mut c = Client::new();
    match c.send(json!({"cmd": "new", "ruleset": ruleset, "options": options, "setup": "empty", "state": state})) {
        warboard_protocol::Reply::Ok { .. } => Ok(()),
        warboard_protocol::Reply::Error { code, message, .. } => Err((code, message)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn impossible_positions_are_refused_naming_what_is_wrong() {
    let inf = |at: &str, owner: &str| json!({"at": at, "owner": owner, "type": "infantry"});
    let cases: Vec<(&str, Value, Value, &str)> = vec![
        // A transport carrying an enemy's infantry, which would later land.
        ("classic", json!({}), json!({"units": [{"at": "BAL", "owner": "germany", "type": "transport", "cargo": [{"owner": "russia", "type": "infantry"}]}]}), "aboard germany's transport"),
        // An enemy fighter aboard a carrier.
        ("classic", json!({}), json!({"units": [{"at": "BAL", "owner": "germany", "type": "aircraft_carrier", "cargo": [{"owner": "uk", "type": "fighter"}]}]}), "aboard germany's aircraft_carrier"),
        // Damage on a unit with one hit point; movement beyond its own.
        ("classic", json!({}), json!({"units": [{"at": "GER", "owner": "germany", "type": "infantry", "hits": 1}]}), "hit point"),
        ("classic", json!({}), json!({"units": [{"at": "GER", "owner": "germany", "type": "armor", "moved": 3}]}), "`moved` 3"),
        // Values that wrapped modulo 256 (257 became 1).
        ("classic", json!({}), json!({"units": [{"at": "BAL", "owner": "germany", "type": "battleship", "hits": 257}]}), "0 to 255"),
        ("classic", json!({}), json!({"units": [{"at": "GER", "owner": "germany", "type": "armor", "moved": 258}]}), "0 to 255"),
        // A phase of another ruleset: classic at payday would pay everyone.
        ("classic", json!({}), json!({"phase": "payday"}), "not a phase of classic"),
        // Enemies sharing a territory with no battle.
        ("classic", json!({}), json!({"units": [inf("UKR", "germany"), inf("UKR", "russia")]}), "shares the territory"),
        // Units in a neutral country; land units on enemy land.
        ("classic", json!({}), json!({"units": [inf("SWE", "germany")]}), "neutral"),
        ("classic", json!({}), json!({"units": [inf("CAU", "germany")]}), "on land russia controls"),
        // A factory in an enemy's territory.
        ("classic", json!({}), json!({"units": [{"at": "CAU", "owner": "germany", "type": "industrial_complex"}]}), "territory its enemy controls"),
        // An Alternative order naming a power twice: the round never ends.
        ("alternative", json!({}), json!({"phase": "turn", "turn": "germany", "order": ["germany", "uk", "germany"]}), "twice"),
        // A numeric unit id.
        ("classic", json!({}), json!({"units": [{"at": "GER", "owner": "germany", "type": "infantry", "id": 5}]}), "a name"),
        // Units waiting to be placed count against the bound of 10,000.
        ("classic", json!({}), json!({"turn": "germany", "phase": "place", "purchased": {"infantry": 90_000, "armor": 90_000}}), "at most"),
    ];
    for (ruleset, options, state, words) in cases {
        match new_game(ruleset, options, state.clone()) {
            Err((code, message)) => {
                assert_eq!(code, "start/bad-position", "{state}: {message}");
                assert!(message.contains(words), "{state}: `{message}` does not say `{words}`");
            }
            Ok(()) => panic!("{ruleset}: {state} was accepted"),
        }
    }
}

#[test]
fn positions_a_game_reaches_still_start() {
    let cases: Vec<(&str, Value)> = vec![
        ("classic", json!({"units": [{"at": "BAL", "owner": "germany", "type": "battleship"}, {"at": "GER", "owner": "germany", "type": "armor", "moved": 2}]})),
        // Allies' units together, an allied fighter aboard a carrier.
        ("classic", json!({"units": [{"at": "GBR", "owner": "usa", "type": "infantry"}, {"at": "NOR", "owner": "uk", "type": "aircraft_carrier", "cargo": [{"owner": "usa", "type": "fighter"}]}]})),
        // A damaged battleship; Europe's enemies sharing a sea zone.
        ("anniversary-1941", json!({"units": [{"at": "SZ5", "owner": "germany", "type": "battleship", "hits": 1}, {"at": "GER", "owner": "germany", "type": "industrial_complex", "damage": 10}]})),
        ("europe", json!({"units": [{"at": "ENG", "owner": "germany", "type": "submarine", "submerged": true}, {"at": "ENG", "owner": "uk", "type": "destroyer"}]})),
        // Aircraft over land their side did not take (they won no capture).
        ("classic", json!({"phase": "noncombat_move", "turn": "germany", "units": [{"at": "CAU", "owner": "germany", "type": "fighter", "moved": 2}]})),
    ];
    for (ruleset, state) in cases {
        assert_eq!(new_game(ruleset, json!({}), state.clone()), Ok(()), "{ruleset}: {state}");
    }
}

#[test]
fn every_published_start_is_possible() {
    for name in warboard_rules::ruleset::RULESET_NAMES {
        let game = warboard_rules::Game::standard(warboard_rules::ruleset(name).unwrap());
        assert_eq!(warboard_rules::setup::impossible_position(&game), None, "{name}");
    }
}
