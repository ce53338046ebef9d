//! Table entries (docs/saves.md, "Table entries"; issue 31, points 1 and
//! 7): the host's clock notes and corrections by consent are entries of the
//! log, replayed and checked on load like any other, and in a proven game
//! links of the signed chain.

use serde_json::{json, Value};
use warboard_record::testing::{LocalClub, RUSSIAN_TURN};
use warboard_record::{Approved, Change, DiceMode, Origin, Record, Start};

fn action(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// Russia's first turn up to and including its battle for Ukraine (the
/// seventh entry, number 6, rolls the battle's dice).
fn after_the_battle() -> Record {
    let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 77 })).unwrap();
    for text in &RUSSIAN_TURN[..7] {
        record.apply(&action(text), Origin::Client).unwrap();
    }
    assert!(!record.log()[6].dice.is_empty(), "the battle rolled");
    record
}

fn code(record: &mut Record, action: Value, by: Origin) -> String {
    let before = record.to_save_string();
    let err = record.apply(&action, by).map(|_| ()).unwrap_err();
    assert_eq!(record.to_save_string(), before, "a refused entry changes nothing");
    err.code().to_string()
}

fn reloaded(record: &Record) -> Record {
    let text = record.to_save_string();
    let loaded = Record::load(&text).unwrap();
    assert_eq!(loaded.to_save_string(), text, "saving, loading and saving again gives the same bytes");
    loaded
}

#[test]
fn an_approved_take_back_returns_the_game_to_before_the_roll_and_keeps_the_roll_in_the_log() {
    let mut record = after_the_battle();
    let mut before_battle = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 77 })).unwrap();
    for text in &RUSSIAN_TURN[..6] {
        before_battle.apply(&action(text), Origin::Client).unwrap();
    }
    let rolled = record.log()[6].dice.clone();
    record.apply(&json!({"type": "correction", "power": "russia", "take_back_to": 6}), Origin::Client).unwrap();
    assert_eq!(record.corrections().pending, Some((7, Change::TakeBack { to: 6 })));
    // The proposing side does not approve its own correction.
    assert_eq!(code(&mut record, json!({"type": "correction", "power": "russia", "approve": 7}), Origin::Client), "correction/own-side");
    assert_eq!(code(&mut record, json!({"type": "correction", "power": "uk", "approve": 7}), Origin::Client), "correction/own-side");
    assert_eq!(code(&mut record, json!({"type": "correction", "power": "germany", "approve": 6}), Origin::Client), "correction/not-open");
    record.apply(&json!({"type": "correction", "power": "germany", "approve": 7}), Origin::Client).unwrap();
    assert_eq!(record.state(), before_battle.state(), "the game stands where it stood before entry 6");
    assert_eq!(record.corrections().approved, vec![Approved { approval: 8, proposal: 7, change: Change::TakeBack { to: 6 } }]);
    assert!(record.corrections().superseded(6) && !record.corrections().superseded(5) && !record.corrections().superseded(7));
    assert_eq!(record.log()[6].dice, rolled, "the superseded roll stays in the record");
    // The battle is fought again, with new dice from the game's stream.
    record.apply(&action(RUSSIAN_TURN[6]), Origin::Client).unwrap();
    assert_ne!(record.log()[9].dice, rolled);
    let loaded = reloaded(&record);
    assert_eq!(loaded.state(), record.state());
    assert_eq!(loaded.corrections(), record.corrections());
}

#[test]
fn a_second_correction_goes_back_from_the_first_and_no_further() {
    let mut record = after_the_battle();
    record.apply(&json!({"type": "correction", "power": "russia", "take_back_to": 4}), Origin::Client).unwrap();
    record.apply(&json!({"type": "correction", "power": "japan", "approve": 7}), Origin::Client).unwrap();
    for text in &RUSSIAN_TURN[4..7] {
        record.apply(&action(text), Origin::Client).unwrap();
    }
    let after_replay = record.state().clone();
    // Entries 0 to 8 are behind the first correction (approved in entry 8).
    let out_of_reach = json!({"type": "correction", "power": "russia", "take_back_to": 8});
    assert_eq!(code(&mut record, out_of_reach, Origin::Client), "correction/out-of-reach");
    assert_eq!(
        code(&mut record, json!({"type": "correction", "power": "russia", "take_back_to": 12}), Origin::Client),
        "correction/out-of-reach"
    );
    record.apply(&json!({"type": "correction", "power": "usa", "take_back_to": 10}), Origin::Client).unwrap();
    record.apply(&json!({"type": "correction", "power": "germany", "approve": 12}), Origin::Client).unwrap();
    // Back to before entry 10: after entry 9, the first move made again.
    let mut expected = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 77 })).unwrap();
    for text in &RUSSIAN_TURN[..5] {
        expected.apply(&action(text), Origin::Client).unwrap();
    }
    assert_eq!(record.state(), expected.state());
    assert_ne!(record.state(), &after_replay);
    assert_eq!(reloaded(&record).state(), record.state());
}

#[test]
fn a_proposal_lapses_when_the_game_goes_on_and_one_is_open_at_a_time() {
    let mut record = after_the_battle();
    record.apply(&json!({"type": "correction", "power": "russia", "take_back_to": 6}), Origin::Client).unwrap();
    let second = json!({"type": "correction", "power": "russia", "take_back_to": 5});
    assert_eq!(code(&mut record, second, Origin::Client), "correction/pending");
    record.apply(&action(RUSSIAN_TURN[7]), Origin::Client).unwrap();
    assert_eq!(record.corrections().pending, None);
    assert_eq!(code(&mut record, json!({"type": "correction", "power": "germany", "approve": 7}), Origin::Client), "correction/not-open");
    // Declined by either side: the proposal ends, the game is unchanged.
    record.apply(&json!({"type": "correction", "power": "russia", "take_back_to": 6}), Origin::Client).unwrap();
    let state = record.state().clone();
    record.apply(&json!({"type": "correction", "power": "germany", "decline": 9}), Origin::Client).unwrap();
    assert_eq!(record.state(), &state);
    assert!(record.corrections().approved.is_empty() && record.corrections().pending.is_none());
    // A clock note is no action to take back.
    record
        .apply(&json!({"type": "table", "event": "reminder", "powers": ["russia"], "deadline": "2026-11-28 14:07 UTC"}), Origin::Engine)
        .unwrap();
    assert_eq!(
        code(&mut record, json!({"type": "correction", "power": "russia", "take_back_to": 11}), Origin::Client),
        "correction/not-an-action"
    );
    reloaded(&record);
}

#[test]
fn clock_notes_are_the_hosts_change_nothing_and_replay() {
    let mut record = after_the_battle();
    let note = json!({"type": "table", "event": "expired", "powers": ["russia"], "deadline": "2026-11-28 14:07 UTC"});
    assert_eq!(code(&mut record, note.clone(), Origin::Client), "table/host-only");
    let state = record.state().clone();
    record.apply(&note, Origin::Engine).unwrap();
    record.apply(&json!({"type": "table", "event": "taken-over", "powers": ["russia", "uk"]}), Origin::Engine).unwrap();
    assert_eq!(record.state(), &state);
    let entry = record.log().last().unwrap();
    assert!(entry.resolved.is_none() && entry.dice.is_empty() && entry.events.is_empty());
    assert_eq!(code(&mut record, json!({"type": "table", "event": "coffee", "powers": ["russia"]}), Origin::Engine), "action/malformed");
    let loaded = reloaded(&record);
    assert_eq!(loaded.log().len(), 9);
    // A rules action written as a table entry is refused on load.
    let text = record.to_save_string().replace(r#""event":"expired""#, r#""event":"reclaimed""#);
    assert!(Record::load(&text).is_err(), "an edited note breaks the record's hash");
}

#[test]
fn a_finished_game_takes_no_correction_and_no_note() {
    let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 5 })).unwrap();
    record.apply(&json!({"type": "surrender", "side": "axis"}), Origin::Client).unwrap();
    assert_eq!(code(&mut record, json!({"type": "table", "event": "reminder", "powers": ["russia"]}), Origin::Engine), "game/over");
    assert_eq!(code(&mut record, json!({"type": "correction", "power": "axis", "take_back_to": 0}), Origin::Client), "action/malformed");
    assert_eq!(code(&mut record, json!({"type": "correction", "power": "germany", "take_back_to": 0}), Origin::Client), "game/over");
}

#[test]
fn in_a_proven_game_notes_and_corrections_are_links_of_the_chain() {
    let mut club = LocalClub::default();
    let mut record = Record::new(Start::standard("classic", DiceMode::Proof)).unwrap();
    let seats = [("russia,uk,usa", true), ("germany,japan", false), (warboard_record::TABLE_SEAT, false)];
    club.start_with_seats(&mut record, false, &seats).unwrap();
    for text in &RUSSIAN_TURN[..7] {
        club.act_as(&mut record, &action(text), "russia,uk,usa", true).unwrap();
    }
    let rolled = record.log()[6].dice.clone();
    club.note(&mut record, &json!({"type": "table", "event": "reminder", "powers": ["russia"], "deadline": "9 o'clock"})).unwrap();
    club.act_as(&mut record, &json!({"type": "correction", "power": "russia", "take_back_to": 6}), "russia,uk,usa", true).unwrap();
    club.act_as(&mut record, &json!({"type": "correction", "power": "germany", "approve": 8}), "germany,japan", false).unwrap();
    club.act_as(&mut record, &action(RUSSIAN_TURN[6]), "russia,uk,usa", true).unwrap();
    assert_ne!(record.log()[10].dice, rolled, "entry 10's dice come from its own hash");
    let loaded = reloaded(&record);
    assert_eq!(loaded.state(), record.state());
    assert_eq!(loaded.proof_summary().unwrap().entries, 11);
    // A clock note is made by the engine: as a player's entry it is refused.
    let err =
        club.act_as(&mut record, &json!({"type": "table", "event": "expired", "powers": ["germany"]}), "germany,japan", false).unwrap_err();
    assert_eq!(err.code(), "table/host-only");
    // The note's text is signed with the chain: an edit is a bad receipt.
    let text = record.to_save_string().replace(r#""deadline":"9 o'clock""#, r#""deadline":"8 o'clock""#);
    let err = Record::load(&text).unwrap_err();
    assert!(err.code().starts_with("record/") || err.code().starts_with("save/"), "{}", err.code());
}

#[test]
fn a_corrected_position_takes_effect_when_the_other_side_approves() {
    let mut record = after_the_battle();
    let state = record.state().clone();
    let russia = record.game().ruleset.power_by_name("russia").unwrap();
    let armor = state.units.iter().find(|u| u.owner == russia && u.kind.name() == "armor").map(|u| u.id).unwrap();
    let name = warboard_record::unit_name(armor);
    for (bad, why) in [
        (json!({"type": "correction", "power": "russia", "remove": ["u99999"]}), "no unit is named"),
        (json!({"type": "correction", "power": "russia", "state": {"phase": "purchase"}}), "not `phase`"),
        (json!({"type": "correction", "power": "russia", "state": {"units": [{"at": "SZ1", "owner": "russia", "type": "armor"}]}}), "SZ1"),
    ] {
        let before = record.to_save_string();
        let err = record.apply(&bad, Origin::Client).map(|_| ()).unwrap_err();
        assert_eq!(err.code(), "correction/bad-position", "{bad}: {err}");
        assert!(err.to_string().contains(why), "{err} names {why}");
        assert_eq!(record.to_save_string(), before);
    }
    let fix = json!({"type": "correction", "power": "russia", "state": {"ipcs": {"russia": 40}, "units": [{"at": "MOS", "owner": "russia", "type": "infantry", "count": 2}]}, "remove": [name]});
    record.apply(&fix, Origin::Client).unwrap();
    assert_eq!(record.state(), &state, "nothing changes before the approval");
    record.apply(&json!({"type": "correction", "power": "germany", "approve": 7}), Origin::Client).unwrap();
    let s = record.state();
    assert_eq!(s.ipcs[russia.index()], 40);
    assert!(s.unit(armor).is_none(), "the armor is gone");
    let mos = record.game().ruleset.map.id("MOS").unwrap();
    let infantry_at = |st: &warboard_rules::GameState| st.units.iter().filter(|u| u.at == mos && u.kind.name() == "infantry").count();
    assert_eq!(infantry_at(s), infantry_at(&state) + 2);
    assert_eq!((s.round, s.turn, s.phase), (state.round, state.turn, state.phase), "the turn goes on where it was");
    assert!(!record.corrections().superseded(6), "a corrected position supersedes no entry");
    // The game goes on; a later take-back returns to the corrected position.
    let corrected = record.state().clone();
    record.apply(&action(RUSSIAN_TURN[7]), Origin::Client).unwrap();
    record.apply(&json!({"type": "correction", "power": "russia", "take_back_to": 9}), Origin::Client).unwrap();
    record.apply(&json!({"type": "correction", "power": "japan", "approve": 10}), Origin::Client).unwrap();
    assert_eq!(record.state(), &corrected);
    let loaded = reloaded(&record);
    assert_eq!(loaded.state(), record.state());
}
