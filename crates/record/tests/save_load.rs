//! Saves: save → load → save gives the same bytes and the same game, for
//! random play (a property test), and each kind of damage to a save file is
//! rejected with its own error.

mod common;

use common::random_game;
use proptest::prelude::*;
use serde_json::{json, Value};
use warboard_record::{record_hash, state_hash, DiceMode, LoadError, Origin, Record, Start};
use warboard_rules::GameState;

fn round_trip(record: &Record) -> Result<(), String> {
    let text = record.to_save_string();
    let loaded = Record::load(&text).map_err(|e| format!("{} ({})", e, e.code()))?;
    if loaded.state() != record.state() {
        return Err("the replay reaches another state".into());
    }
    if loaded.log() != record.log() {
        return Err("the loaded log differs".into());
    }
    if loaded.undo_depth() != record.undo_depth() {
        return Err(format!("undo depth {} after loading, {} before", loaded.undo_depth(), record.undo_depth()));
    }
    if loaded.to_save_string() != text {
        return Err("saving the loaded game gives other bytes".into());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]
    #[test]
    fn seeded_games_save_load_save_identically(seed in any::<u64>(), dice_seed in any::<u64>()) {
        let record = random_game(seed, 500, DiceMode::Seeded { seed: dice_seed });
        prop_assert!(record.log().len() > 20, "random play accepted only {} actions", record.log().len());
        prop_assert_eq!(round_trip(&record), Ok(()));
    }

    #[test]
    fn client_dice_games_save_load_save_identically(seed in any::<u64>()) {
        let record = random_game(seed, 500, DiceMode::Client);
        prop_assert_eq!(round_trip(&record), Ok(()));
    }
}

#[test]
fn a_new_game_round_trips() {
    let record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 1 })).unwrap();
    assert_eq!(round_trip(&record), Ok(()));
}

#[test]
fn a_position_with_options_and_named_units_round_trips() {
    let mut start = Start::standard("classic", DiceMode::Seeded { seed: 5 });
    start.options.insert("defending_submarines_withdraw".into(), json!(false));
    start.position.setup = "empty".into();
    start.position.state = Some(json!({
        "turn": "germany", "phase": "combat_move", "control": {"EEU": "russia"},
        "units": [
            {"at": "GER", "owner": "germany", "type": "armor", "id": "tank"},
            {"at": "EEU", "owner": "russia", "type": "infantry"}
        ]
    }));
    let mut record = Record::new(start).unwrap();
    record.apply(&json!({"type": "move", "units": [{"id": "tank"}], "route": ["GER", "EEU"]}), Origin::Client).unwrap();
    assert_eq!(round_trip(&record), Ok(()));
    assert!(record.to_save_string().contains("defending_submarines_withdraw=false"));
}

/// A played game with purchases, dice and a few rounds, as a JSON value to
/// damage.
fn played() -> (Record, Value) {
    let record = random_game(3, 600, DiceMode::Seeded { seed: 3 });
    let value: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    (record, value)
}

/// Loads a damaged save whose whole-record hash was kept in step with the
/// damage, so that the checks behind it (replay, snapshot) are reached.
fn load_value(v: &Value) -> LoadError {
    let mut v = v.clone();
    v["record_hash"] = json!(record_hash(&v));
    Record::load(&serde_json::to_string_pretty(&v).unwrap()).expect_err("the damaged save must be rejected")
}

/// Loads a save as edited, its record hash untouched.
fn load_edited(v: &Value) -> LoadError {
    Record::load(&serde_json::to_string_pretty(v).unwrap()).expect_err("the edited save must be rejected")
}

fn first_entry(v: &Value, pred: impl Fn(&Value) -> bool) -> usize {
    v["log"].as_array().unwrap().iter().position(pred).expect("the played game has such an entry")
}

fn is_purchase(e: &Value) -> bool {
    e["action"]["type"] == "purchase"
}
fn has_dice(e: &Value) -> bool {
    !e["dice"].as_array().unwrap().is_empty()
}

fn expect(err: LoadError, code: &str, words: &str) {
    assert_eq!(err.code(), code, "{err}");
    assert!(err.to_string().contains(words), "`{err}` should say `{words}`");
}

#[test]
fn truncated_and_empty_files() {
    let (record, _) = played();
    let text = record.to_save_string();
    expect(Record::load(&text[..text.len() / 2]).unwrap_err(), "save/truncated", "cut short");
    expect(Record::load("").unwrap_err(), "save/truncated", "truncated or empty");
}

#[test]
fn not_json() {
    expect(Record::load("this is not a save").unwrap_err(), "save/not-json", "not JSON");
    let (record, _) = played();
    let text = record.to_save_string().replacen("\"version\": 4", "\"version\"; 3", 1);
    expect(Record::load(&text).unwrap_err(), "save/not-json", "line 3");
}

#[test]
fn not_a_save() {
    expect(Record::load("[1, 2]").unwrap_err(), "save/not-a-save", "not an object");
    expect(Record::load(r#"{"id": "some-conformance-case"}"#).unwrap_err(), "save/not-a-save", "no `format`");
}

#[test]
fn unknown_version() {
    let (_, mut v) = played();
    v["version"] = json!(5);
    expect(load_value(&v), "save/unknown-version", "version 5");
}

#[test]
fn missing_or_mistyped_fields() {
    let (_, v) = played();
    let mut no_snapshot = v.clone();
    no_snapshot.as_object_mut().unwrap().remove("snapshot");
    expect(load_value(&no_snapshot), "save/malformed", "snapshot");
    let mut bad_entry = v.clone();
    bad_entry["log"][4].as_object_mut().unwrap().remove("resolved");
    expect(load_value(&bad_entry), "save/malformed", "log[4]");
}

#[test]
fn unknown_ruleset() {
    let (_, mut v) = played();
    v["ruleset"] = json!("chess");
    expect(load_value(&v), "save/unknown-ruleset", "`chess`");
}

#[test]
fn unknown_or_mistyped_option() {
    let (_, v) = played();
    let mut unknown = v.clone();
    unknown["options"]["changed"]["nuclear_weapons"] = json!(true);
    expect(load_value(&unknown), "save/bad-option", "nuclear_weapons");
    let mut mistyped = v.clone();
    mistyped["options"]["changed"]["weapons_development"] = json!("sometimes");
    expect(load_value(&mistyped), "save/bad-option", "weapons_development");
}

#[test]
fn options_that_no_longer_match() {
    let (_, mut v) = played();
    let canonical = v["options"]["canonical"].as_str().unwrap().replace("weapons_development=false", "weapons_development=true");
    v["options"]["canonical"] = json!(canonical);
    expect(load_value(&v), "save/options-mismatch", "weapons_development=true");
}

/// A save written before an option was declared (issue 33: `low_luck`,
/// declared in every ruleset) names it nowhere; at its default it changes
/// nothing in that game, so the save loads.
#[test]
fn options_declared_since_the_save_load_at_their_defaults() {
    let (record, mut v) = played();
    let now = v["options"]["canonical"].as_str().unwrap().to_string();
    let before = now.replace(",low_luck=false", "").replace("low_luck=false,", "");
    assert_ne!(before, now, "the ruleset declares low_luck");
    v["options"]["canonical"] = json!(before);
    v["record_hash"] = json!(record_hash(&v));
    let loaded = Record::load(&serde_json::to_string_pretty(&v).unwrap()).expect("the older save loads");
    assert_eq!(loaded.state(), record.state());
    // Another value than the default is a change of rules: refused.
    v["options"]["canonical"] = json!(now.replace("low_luck=false", "low_luck=true"));
    expect(load_value(&v), "save/options-mismatch", "low_luck=true");
}

#[test]
fn bad_starting_position() {
    let (_, mut v) = played();
    v["position"]["setup"] = json!("moon");
    expect(load_value(&v), "save/bad-position", "moon");
}

#[test]
fn unreadable_action() {
    let (_, mut v) = played();
    let i = first_entry(&v, |e| e["action"]["type"] == "move");
    v["log"][i]["action"]["route"][1] = json!("ATLANTIS");
    expect(load_value(&v), "save/unreadable-action", &format!("log[{i}]"));
}

#[test]
fn written_action_differs_from_the_applied_one() {
    let (_, mut v) = played();
    let i = first_entry(&v, is_purchase);
    let (kind, n) =
        v["log"][i]["action"]["units"].as_object().unwrap().iter().next().map(|(k, n)| (k.clone(), n.as_u64().unwrap())).unwrap();
    v["log"][i]["action"]["units"][&kind] = json!(n + 1);
    expect(load_value(&v), "save/action-mismatch", &format!("log[{i}]"));
}

#[test]
fn an_action_the_rules_reject() {
    let (_, mut v) = played();
    // The first entry ends the research phase; make it a purchase there,
    // consistently in both forms: the rules refuse to buy in research.
    assert_eq!(v["log"][0]["action"]["type"], "end_phase");
    v["log"][0]["action"] = json!({"type": "purchase", "units": {"infantry": 1}});
    v["log"][0]["resolved"] = json!({"Purchase": {"units": [["infantry", 1]]}});
    expect(load_value(&v), "save/action-rejected", "log[0]: the rules reject this action: [purchase/wrong-phase]");
}

#[test]
fn dice_that_are_not_what_the_seed_gives() {
    let (_, mut v) = played();
    let i = first_entry(&v, has_dice);
    let die = v["log"][i]["dice"][0].as_u64().unwrap();
    v["log"][i]["dice"][0] = json!(die % 6 + 1);
    expect(load_value(&v), "save/dice-inconsistent", &format!("log[{i}]"));
}

#[test]
fn client_dice_that_do_not_add_up() {
    let record = random_game(4, 300, DiceMode::Client);
    let mut v: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    v["dice"]["rolled"].as_array_mut().unwrap().push(json!(3));
    expect(load_value(&v), "save/dice-inconsistent", "client dice");
    let mut v: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    v["dice"]["queued"] = json!([9]);
    expect(load_value(&v), "save/dice-inconsistent", "not 9");
}

#[test]
fn events_that_did_not_happen() {
    let (_, mut v) = played();
    let i = first_entry(&v, is_purchase);
    let cost = v["log"][i]["events"][0]["Purchased"]["cost"].as_i64().unwrap();
    v["log"][i]["events"][0]["Purchased"]["cost"] = json!(cost - 1);
    expect(load_value(&v), "save/events-mismatch", &format!("log[{i}]"));
}

#[test]
fn a_snapshot_edited_with_its_hash() {
    let (_, mut v) = played();
    let mut state: GameState = serde_json::from_value(v["snapshot"].clone()).unwrap();
    state.ipcs[1] += 100;
    v["snapshot"] = serde_json::to_value(&state).unwrap();
    v["hash"] = json!(state_hash(&state));
    expect(load_value(&v), "save/snapshot-mismatch", "`ipcs`");
}

#[test]
fn a_snapshot_edited_without_its_hash() {
    let (_, v) = played();
    let mut edited = v.clone();
    edited["snapshot"]["ipcs"][1] = json!(999);
    expect(load_value(&edited), "save/hash-mismatch", "was edited");
    let mut rehashed = v.clone();
    rehashed["hash"] = json!("sha256:0000");
    expect(load_value(&rehashed), "save/hash-mismatch", "sha256:0000");
}

/// Issue 16, finding 6: edits the snapshot's hash did not see are refused
/// with their own message: queued client dice shortened or extended, an
/// entry's `by` added or removed, options, the ruleset's canonical string.
#[test]
fn every_edit_of_the_record_is_refused() {
    let record = random_game(5, 300, DiceMode::Client);
    let mut v: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    v["dice"]["queued"] = json!([1, 2, 3]);
    // A save with queued dice, as written, loads.
    v["record_hash"] = json!(record_hash(&v));
    Record::load(&v.to_string()).expect("a client-dice save with queued dice loads");
    type Edit = Box<dyn Fn(&mut Value)>;
    let edits: Vec<(&str, Edit)> = vec![
        ("queued dice shortened", Box::new(|v| v["dice"]["queued"] = json!([1, 2]))),
        ("queued dice extended", Box::new(|v| v["dice"]["queued"] = json!([1, 2, 3, 4]))),
        ("`by` added", Box::new(|v| v["log"][0]["by"] = json!("engine"))),
        ("options", Box::new(|v| v["options"]["changed"] = json!({"weapons_development": true}))),
        ("record hash removed", Box::new(|v| {
            v.as_object_mut().unwrap().remove("record_hash");
        })),
    ];
    for (what, edit) in edits {
        let mut e = v.clone();
        edit(&mut e);
        let err = load_edited(&e);
        assert_eq!(err.code(), "save/record-edited", "{what}: {err}");
        assert!(err.to_string().contains("edited or damaged"), "{what}: {err}");
    }
    let mut by_removed = v.clone();
    let i = by_removed["log"].as_array().unwrap().iter().position(|e| e.get("by").is_some());
    if let Some(i) = i {
        by_removed["log"][i].as_object_mut().unwrap().remove("by");
        assert_eq!(load_edited(&by_removed).code(), "save/record-edited");
    }
}

#[test]
fn an_edited_log_with_an_untouched_snapshot() {
    // Drop the last entry: every remaining entry replays, but not to the
    // saved snapshot.
    let (_, mut v) = played();
    v["log"].as_array_mut().unwrap().pop();
    expect(load_value(&v), "save/snapshot-mismatch", "first difference");
}

#[test]
fn every_kind_of_damage_has_its_own_code() {
    // The codes above are distinct: a program can tell the damage apart.
    let codes = [
        "save/truncated",
        "save/not-json",
        "save/not-a-save",
        "save/unknown-version",
        "save/malformed",
        "save/unknown-ruleset",
        "save/bad-option",
        "save/options-mismatch",
        "save/bad-position",
        "save/unreadable-action",
        "save/action-mismatch",
        "save/action-rejected",
        "save/dice-inconsistent",
        "save/events-mismatch",
        "save/snapshot-mismatch",
        "save/hash-mismatch",
        "save/record-edited",
    ];
    let unique: std::collections::BTreeSet<_> = codes.iter().collect();
    assert_eq!(unique.len(), codes.len());
}

/// Units as "2 Infantry, 1 Armor": the test's own wording (the terminal
/// game brings its own).
const TEST_WORDING: warboard_record::narrate::Wording = warboard_record::narrate::Wording { counts: test_counts, arrow: " > " };

fn test_counts(units: &[(warboard_rules::ids::UnitType, u32)]) -> String {
    units.iter().map(|(k, n)| format!("{n} {k:?}")).collect::<Vec<_>>().join(", ")
}

#[test]
fn narration_tells_whole_games_with_either_dice() {
    for mode in [DiceMode::Seeded { seed: 21 }, DiceMode::Client] {
        let record = random_game(21, 600, mode);
        let rs = record.game().ruleset.clone();
        let mut story = Vec::new();
        let mut round = 0;
        let walked = warboard_record::narrate::walk(&record, |before, after, entry| {
            round = after.round;
            for e in &entry.events {
                story.extend(warboard_record::narrate::event_sentence(&rs, before, after, e, &TEST_WORDING).map(|(_, t)| t));
            }
        });
        assert!(walked.is_ok(), "{mode:?}: {walked:?}");
        assert!(round >= 2, "{mode:?}: the game reached round 2");
        assert!(story.iter().any(|l| l.contains(" rolls ")), "{mode:?}: dice were rolled: {story:#?}");
    }
}

/// A save made before battles' dice named who threw them (issue 15, point
/// 13) records `rolled` without `by`: it still loads to the same game.
#[test]
fn saves_without_the_dice_runs_still_load() {
    let (record, mut v) = played();
    let mut stripped = 0;
    for entry in v["log"].as_array_mut().unwrap() {
        for event in entry["events"].as_array_mut().unwrap() {
            if let Some(rolled) = event.get_mut("Rolled").and_then(Value::as_object_mut) {
                stripped += rolled.remove("by").is_some() as usize;
            }
        }
    }
    assert!(stripped > 0, "the played game fought battles: {}", serde_json::to_string(&v["log"][5]).unwrap());
    v["record_hash"] = json!(record_hash(&v));
    let text = serde_json::to_string_pretty(&v).unwrap();
    let loaded = Record::load(&text).unwrap_or_else(|e| panic!("an older save loads: {e}"));
    assert_eq!(loaded.state(), record.state());
    // Saved again, it is a save of today's format, and loads as well.
    let again = Record::load(&loaded.to_save_string()).expect("saved again, it loads");
    assert_eq!(again.state(), record.state());
}

/// The game as a version 1 or 2 file might look after a later save was
/// edited: `version` changed and the record hash dropped (or kept stale).
fn downgraded(v: &Value, version: u64, keep_hash: bool) -> Value {
    let mut d = v.clone();
    d["version"] = json!(version);
    if !keep_hash {
        d.as_object_mut().unwrap().remove("record_hash");
    }
    d
}

/// Issue 34, finding 2: changing a save's version does not switch off the
/// whole-record hash. A file carrying a record hash is checked as version
/// 3; one that says version 1 or 2 but holds what only version 3 writes
/// (today's snapshot fields, dice named by who threw them) is refused as
/// an edit of version 3.
#[test]
fn a_version_downgrade_is_checked_as_version_3() {
    let record = random_game(5, 300, DiceMode::Client);
    let v: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    let mut queued_edited = v.clone();
    queued_edited["dice"]["queued"] = json!([6, 6, 6, 6]);
    let mut by_added = v.clone();
    by_added["log"][0]["by"] = json!("engine");
    let seeded: Value = serde_json::from_str(&random_game(6, 300, DiceMode::Seeded { seed: 6 }).to_save_string()).unwrap();
    let cases = [
        ("queued dice, version 2, hash dropped", downgraded(&queued_edited, 2, false), "says version 2"),
        ("queued dice, version 2, stale hash kept", downgraded(&queued_edited, 2, true), "edited or damaged"),
        ("`by` added, version 2, hash dropped", downgraded(&by_added, 2, false), "says version 2"),
        ("`by` added, version 1, hash dropped", downgraded(&by_added, 1, false), "says version 1"),
        ("queued dice, version 1, stale hash kept", downgraded(&queued_edited, 1, true), "edited or damaged"),
        ("a seeded classic game, version 1", downgraded(&seeded, 1, false), "says version 1"),
    ];
    for (what, file, words) in cases {
        let err = load_edited(&file);
        assert_eq!(err.code(), "save/record-edited", "{what}: {err}");
        assert!(err.to_string().contains(words), "{what}: `{err}` should say `{words}`");
    }
    // What gave the later file away is named: a field of today's state.
    let err = load_edited(&downgraded(&queued_edited, 2, false)).to_string();
    assert!(err.contains("its snapshot has `") && err.contains("only version 3 and later write"), "{err}");
    // Shaped as version 1 could have been (its snapshot's fields only), the
    // dice named by who threw them still tell a later file.
    let mut stripped = downgraded(&seeded, 1, false);
    stripped["snapshot"].as_object_mut().unwrap().retain(|k, _| V1_STATE_FIELDS.contains(&k.as_str()));
    let err = load_edited(&stripped).to_string();
    assert!(err.contains("records who threw which dice"), "{err}");
}

/// The fields of a version 1 snapshot (the rules core's state of that time).
const V1_STATE_FIELDS: [&str; 17] = [
    "round", "turn", "phase", "control", "start_control", "conquered", "ipcs", "units", "next_unit", "purchased", "unplaced", "placed",
    "neutral_fees", "battles", "developments", "winner", "seq",
];

/// Issue 34, finding 2: a file that could have been an old save (no record
/// hash, nothing of a later version in it) loads, but is not blessed by
/// saving it again: the game remembers that it came from a file without a
/// record hash, every later save writes `migrated_from`, and that mark
/// cannot be dropped without the edit being seen.
#[test]
fn a_game_from_a_file_without_a_record_hash_stays_marked() {
    // A client-dice game whose battles' dice were not named by who threw
    // them, shaped as a version 1 file: its queued dice were edited.
    let record = random_game(5, 300, DiceMode::Client);
    let mut v: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    for entry in v["log"].as_array_mut().unwrap() {
        for event in entry["events"].as_array_mut().unwrap() {
            if let Some(rolled) = event.get_mut("Rolled").and_then(Value::as_object_mut) {
                rolled.remove("by");
            }
        }
    }
    v["dice"]["queued"] = json!([6, 6, 6, 6]);
    let mut old = downgraded(&v, 1, false);
    old["snapshot"].as_object_mut().unwrap().retain(|k, _| V1_STATE_FIELDS.contains(&k.as_str()));
    let loaded = Record::load(&serde_json::to_string(&old).unwrap()).unwrap_or_else(|e| panic!("a file shaped as version 1 loads: {e}"));
    assert_eq!(loaded.migrated_from(), Some(1));
    assert!(loaded.migration_note().is_some_and(|n| n.contains("version 1") && n.contains("unverified")));
    let resaved = loaded.to_save_string();
    assert!(resaved.contains("\"version\": 4,\n  \"migrated_from\": 1,\n"), "{}", &resaved[..200]);
    // Loaded and saved again, it keeps the mark, byte for byte.
    let again = Record::load(&resaved).expect("the re-saved game loads");
    assert_eq!(again.migrated_from(), Some(1));
    assert_eq!(again.to_save_string(), resaved);
    // Dropping the mark is an edit of the record.
    let unmarked = resaved.replace("  \"migrated_from\": 1,\n", "");
    let err = Record::load(&unmarked).unwrap_err();
    assert_eq!(err.code(), "save/record-edited", "{err}");
    // A game begun here is not marked.
    assert_eq!(Record::load(&record.to_save_string()).unwrap().migrated_from(), None);
    assert!(!record.to_save_string().contains("migrated_from"));
}

#[test]
fn a_mark_of_another_version_is_malformed() {
    let record = random_game(5, 60, DiceMode::Seeded { seed: 5 });
    let mut v: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    v["migrated_from"] = json!(3);
    expect(load_value(&v), "save/malformed", "migrated_from");
}

/// Issue 34, finding 20: an edited version 3 file is refused as
/// `save/record-edited`, saying where the edit is as far as the replay can
/// tell: the first fact that disagrees, or that nothing it checks does.
#[test]
fn an_edited_record_says_where() {
    let (_, v) = played();
    let i = first_entry(&v, is_purchase);
    let mut events = v.clone();
    let cost = events["log"][i]["events"][0]["Purchased"]["cost"].as_i64().unwrap();
    events["log"][i]["events"][0]["Purchased"]["cost"] = json!(cost - 1);
    expect(load_edited(&events), "save/record-edited", &format!("the first difference the replay finds: [save/events-mismatch] log[{i}]"));
    let mut snapshot = v.clone();
    snapshot["snapshot"]["ipcs"][1] = json!(999);
    expect(load_edited(&snapshot), "save/record-edited", "[save/hash-mismatch]");
    let mut removed = events.clone();
    removed.as_object_mut().unwrap().remove("record_hash");
    expect(load_edited(&removed), "save/record-edited", "the record hash was removed; the first difference the replay finds: [save/events-mismatch]");
    // What the replay cannot check is named as where the edit must be.
    let record = random_game(5, 300, DiceMode::Client);
    let mut queued: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    queued["dice"]["queued"] = json!([6, 6, 6]);
    expect(load_edited(&queued), "save/record-edited", "the replay finds no difference, so the edit is in what only the record hash covers: the queued client dice");
}

/// Issue 34, finding 5: the record hash is an unkeyed SHA-256 that anyone
/// can recompute, so an edit of what the replay cannot check loads once
/// rehashed; docs/saves.md says so rather than promising tamper-proofing.
#[test]
fn the_record_hash_is_documented_as_what_it_is() {
    let record = random_game(5, 300, DiceMode::Client);
    let mut forged: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    forged["dice"]["queued"] = json!([6, 6, 6, 6, 6, 6]);
    forged["record_hash"] = json!(record_hash(&forged));
    let loaded = Record::load(&forged.to_string()).expect("a rehashed edit of the queued dice loads: the hash is no proof against a forger");
    assert_eq!(loaded.queued_dice(), 6);
    let doc = include_str!("../../../docs/saves.md");
    for words in ["unkeyed SHA-256", "anyone can recompute", "detect accidents", "careless edits", "no proof against a forger", "signed records"] {
        assert!(doc.contains(words), "docs/saves.md should say `{words}`");
    }
}

/// Issue 34, finding 6: a game never holds more than a save file may (the
/// loaders' bounds): client dice past the bound, an action, position or
/// options larger than a loader reads are refused, and the game is
/// unchanged; what it holds up to the bounds saves and loads.
#[test]
fn a_game_never_holds_what_no_loader_reads() {
    use warboard_record::{MAX_ACTION_BYTES, MAX_CLIENT_DICE, MAX_OPTIONS_BYTES, MAX_POSITION_BYTES};
    let mut record = Record::new(Start::standard("classic", DiceMode::Client)).unwrap();
    record.supply_dice(&vec![3; MAX_CLIENT_DICE - 2]).expect("dice up to the bound");
    let err = record.supply_dice(&[1, 2, 3]).unwrap_err();
    assert!(err.contains(&format!("at most {MAX_CLIENT_DICE} client dice")), "{err}");
    assert_eq!(record.queued_dice(), MAX_CLIENT_DICE - 2, "a refused supply adds nothing");
    record.supply_dice(&[1, 2]).expect("the last two fit");
    let loaded = Record::load(&record.to_save_string()).expect("a game at the bound saves and loads");
    assert_eq!(loaded.queued_dice(), MAX_CLIENT_DICE);
    // A file with one die more is refused by the loader, as the game
    // refused to hold it.
    let mut v: Value = serde_json::from_str(&record.to_save_string()).unwrap();
    v["dice"]["queued"].as_array_mut().unwrap().push(json!(4));
    expect(load_value(&v), "save/malformed", &format!("more than {MAX_CLIENT_DICE} client dice"));

    let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 1 })).unwrap();
    record.apply(&json!({"type": "end_phase"}), Origin::Client).unwrap();
    let padding = "x".repeat(MAX_ACTION_BYTES);
    let err = record.apply(&json!({"type": "end_phase", "note": padding}), Origin::Client).unwrap_err();
    assert!(err.to_string().contains(&format!("more than {MAX_ACTION_BYTES} bytes")), "{err}");
    assert_eq!(record.log().len(), 1, "a refused action changes nothing");

    let mut start = Start::standard("classic", DiceMode::Seeded { seed: 1 });
    start.position.setup = "empty".into();
    let units: Vec<Value> = (0..MAX_POSITION_BYTES / 40).map(|i| json!({"at": "GER", "owner": "germany", "type": "infantry", "id": format!("unit{i}")})).collect();
    start.position.state = Some(json!({"units": units}));
    let err = Record::new(start).unwrap_err();
    assert!(err.to_string().contains(&format!("more than {MAX_POSITION_BYTES} bytes")), "{err}");

    let mut start = Start::standard("alternative", DiceMode::Seeded { seed: 1 });
    let territories: Vec<String> = (0..MAX_OPTIONS_BYTES / 4).map(|i| format!("T{i}")).collect();
    start.options.insert("limited_war".into(), json!({"off_limits": territories, "nations": []}));
    let err = Record::new(start).unwrap_err();
    assert_eq!(err.code(), "start/too-large", "{err}");
    assert!(err.to_string().contains("a save file could not hold it"), "{err}");
}
