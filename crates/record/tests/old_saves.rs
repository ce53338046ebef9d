//! Saves written by earlier releases still load and replay to the same game
//! (issue 10: "a save written by the version before this change loads and
//! replays to the same round, turn, phase and bank"). The files in `data/`
//! were written by the engine's `save` command of that version and are never
//! edited: a change that breaks them breaks players' games.

use serde_json::Value;
use warboard_record::Record;

fn check(file: &str, text: &str) {
    let record = Record::load(text).unwrap_or_else(|e| panic!("{file}: {e} ({})", e.code()));
    let saved: Value = serde_json::from_str(text).unwrap();
    let snap = &saved["snapshot"];
    let s = record.state();
    let rs = &record.game().ruleset;
    assert_eq!(snap["round"].as_u64(), Some(s.round as u64), "{file}: round");
    let turn_index = snap["turn"].as_u64().unwrap() as usize;
    let old_order = ["russia", "germany", "uk", "japan", "usa"];
    assert_eq!(old_order[turn_index], rs.power(s.turn).id, "{file}: turn");
    assert_eq!(snap["phase"].as_str(), Some(s.phase.name()), "{file}: phase");
    for (i, name) in old_order.iter().enumerate() {
        let p = rs.power_by_name(name).unwrap();
        assert_eq!(snap["ipcs"][i].as_i64(), Some(s.ipcs[p.index()] as i64), "{file}: bank of {name}");
    }
    assert_eq!(snap["units"].as_array().unwrap().len(), s.units.len(), "{file}: units");
    assert_eq!(record.log().len(), saved["log"].as_array().unwrap().len(), "{file}: log");
    // A version 1 file had no record hash: the game says so (issue 34,
    // finding 2).
    assert_eq!(record.migrated_from(), Some(1), "{file}");
    // Saving it again writes the current format, which loads too, and
    // keeps saying where the game came from.
    let resaved = record.to_save_string();
    assert!(resaved.contains("\"version\": 4,") && resaved.contains("\"migrated_from\": 1,"), "{file}");
    let again = Record::load(&resaved).unwrap_or_else(|e| panic!("{file}, saved again: {e}"));
    assert_eq!(again.state(), record.state(), "{file}: saved again");
    assert_eq!(again.migrated_from(), Some(1), "{file}: saved again");
}

#[test]
fn version_1_saves_load_and_replay() {
    check("v1-classic-round1-usa.json", include_str!("data/v1-classic-round1-usa.json"));
    check("v1-classic-battle-pending.json", include_str!("data/v1-classic-battle-pending.json"));
}
