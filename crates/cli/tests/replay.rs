//! `warboard replay FILE`: a saved game told in words, replayed to the
//! identical final state; and each kind of damaged save file refused with
//! its own message.

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;
use warboard_record::{state_hash, DiceMode, Origin, Record, Start};
use warboard_rules::GameState;

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warboard-replay-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn replay(path: &PathBuf) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warboard")).arg("replay").arg(path).output().expect("run warboard replay");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Russia's first turn, with a battle for Ukraine fought to its end.
fn russian_turn() -> Record {
    let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 77 })).unwrap();
    let mut act = |a: Value| {
        record.apply(&a, Origin::Client).unwrap_or_else(|e| panic!("{a}: {e}"));
    };
    act(json!({"type": "end_phase"}));
    act(json!({"type": "purchase", "units": {"infantry": 2, "armor": 1}}));
    act(json!({"type": "end_phase"}));
    act(json!({"type": "move", "units": [{"type": "infantry", "count": 5}], "route": ["CAU", "UKR"]}));
    act(json!({"type": "move", "units": [{"type": "armor", "count": 2}], "route": ["MOS", "CAU", "UKR"]}));
    act(json!({"type": "end_phase"}));
    act(json!({"type": "resolve", "at": "UKR"}));
    act(json!({"type": "end_phase"}));
    act(json!({"type": "end_phase"}));
    act(json!({"type": "place", "at": "MOS", "units": {"infantry": 2, "armor": 1}}));
    act(json!({"type": "end_phase"}));
    act(json!({"type": "end_phase"}));
    record
}

fn saved(name: &str, text: &str) -> PathBuf {
    let path = temp_path(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_saved_game_replays_to_the_identical_state_in_words() {
    let record = russian_turn();
    let text = record.to_save_string();
    let path = saved("russia.json", &text);

    let (ok, out, err) = replay(&path);
    assert!(ok, "{err}");
    for words in [
        "== round 1: russia ==",
        "russia buys 2 inf 1 arm for 11 IPCs",
        "russia moves 5 inf: CAU > UKR",
        "russia moves 2 arm: MOS > CAU > UKR",
        "battle at UKR: fought to the end with default choices",
        "attacker rolls",
        "defender rolls",
        "lost at UKR",
        "battle at UKR ends",
        "russia places 2 inf 1 arm at MOS",
        "russia collects",
        "the game stands at: round 1, germany's turn, research phase",
    ] {
        assert!(out.contains(words), "the replay should say `{words}`:\n{out}");
    }

    // The file replays to the very state that was saved.
    let loaded = Record::load(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(loaded.state(), record.state());
    assert_eq!(state_hash(loaded.state()), state_hash(record.state()));
    assert_eq!(loaded.to_save_string(), text);
}

/// The save as JSON, damaged by `damage`, written to a file and replayed:
/// the replay fails, naming the damage.
/// A save damaged by `damage`, its whole-record hash kept in step so that
/// the checks behind it are reached (see [`edited`] for an edit alone).
fn damaged(name: &str, damage: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(&russian_turn().to_save_string()).unwrap();
    damage(&mut v);
    v["record_hash"] = json!(warboard_record::record_hash(&v));
    damaged_text(name, &serde_json::to_string_pretty(&v).unwrap())
}

/// A save edited by `edit`, its record hash as written.
fn edited(name: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(&russian_turn().to_save_string()).unwrap();
    edit(&mut v);
    damaged_text(name, &serde_json::to_string_pretty(&v).unwrap())
}

fn damaged_text(name: &str, text: &str) -> String {
    let (ok, out, err) = replay(&saved(name, text));
    assert!(!ok, "a damaged save must not replay:\n{out}");
    assert!(out.is_empty(), "nothing is narrated from a damaged save:\n{out}");
    err
}

fn says(err: &str, code: &str, words: &str) {
    assert!(err.contains(&format!("[{code}]")) && err.contains(words), "expected [{code}] … {words}, got: {err}");
}

#[test]
fn a_truncated_save() {
    let text = russian_turn().to_save_string();
    says(&damaged_text("truncated.json", &text[..text.len() * 2 / 3]), "save/truncated", "cut short");
}

#[test]
fn a_save_that_is_not_json() {
    says(&damaged_text("garbage.json", "PK\u{3}\u{4} a zip file?"), "save/not-json", "not JSON");
}

#[test]
fn a_json_file_that_is_not_a_save() {
    says(&damaged_text("case.json", r#"{"id": "a-case", "steps": []}"#), "save/not-a-save", "not a warboard save file");
}

#[test]
fn a_save_of_an_unknown_version() {
    says(&damaged("v9.json", |v| v["version"] = json!(9)), "save/unknown-version", "unknown save format version 9");
}

#[test]
fn a_save_missing_a_field() {
    says(&damaged("nolog.json", |v| drop(v.as_object_mut().unwrap().remove("log"))), "save/malformed", "missing field `log`");
}

#[test]
fn a_save_of_an_unknown_ruleset() {
    says(&damaged("chess.json", |v| v["ruleset"] = json!("chess")), "save/unknown-ruleset", "ruleset `chess`");
}

#[test]
fn a_save_with_an_unknown_option() {
    says(&damaged("option.json", |v| v["options"]["changed"]["fog_of_war"] = json!(true)), "save/bad-option", "fog_of_war");
}

#[test]
fn a_save_whose_options_no_longer_match() {
    says(
        &damaged("canonical.json", |v| v["options"]["canonical"] = json!("weapons_development=true")),
        "save/options-mismatch",
        "defaults have changed",
    );
}

#[test]
fn a_save_with_a_bad_starting_position() {
    says(&damaged("position.json", |v| v["position"]["state"] = json!({"turn": "france"})), "save/bad-position", "france");
}

#[test]
fn a_save_with_an_unreadable_action() {
    says(&damaged("unreadable.json", |v| v["log"][3]["action"]["route"] = json!(["CAU", "MORDOR"])), "save/unreadable-action", "log[3]");
}

#[test]
fn a_save_whose_written_action_was_changed() {
    says(&damaged("mismatch.json", |v| v["log"][3]["action"]["units"][0]["count"] = json!(4)), "save/action-mismatch", "log[3]");
}

#[test]
fn a_save_with_an_action_the_rules_reject() {
    // Moving five infantry a second time, in both forms.
    let err = damaged("rejected.json", |v| {
        let log = v["log"].as_array_mut().unwrap();
        let again = log[3].clone();
        log.insert(4, again);
    });
    says(&err, "save/action-rejected", "log[4]: the rules reject this action");
}

#[test]
fn a_save_with_changed_dice() {
    let err = damaged("dice.json", |v| {
        let i = v["log"].as_array().unwrap().iter().position(|e| !e["dice"].as_array().unwrap().is_empty()).unwrap();
        let d = v["log"][i]["dice"][0].as_u64().unwrap();
        v["log"][i]["dice"][0] = json!(d % 6 + 1);
    });
    says(&err, "save/dice-inconsistent", "the game's dice source gives");
}

#[test]
fn a_save_with_changed_events() {
    says(&damaged("events.json", |v| v["log"][1]["events"][0]["Purchased"]["cost"] = json!(1)), "save/events-mismatch", "log[1]");
}

#[test]
fn a_save_whose_snapshot_was_edited_and_rehashed() {
    let err = damaged("rehashed.json", |v| {
        let mut state: GameState = serde_json::from_value(v["snapshot"].clone()).unwrap();
        state.ipcs[0] = 999;
        v["snapshot"] = serde_json::to_value(&state).unwrap();
        v["hash"] = json!(state_hash(&state));
    });
    says(&err, "save/snapshot-mismatch", "the file was edited");
}

#[test]
fn a_save_whose_snapshot_was_edited() {
    says(&damaged("edited.json", |v| v["snapshot"]["ipcs"][0] = json!(999)), "save/hash-mismatch", "snapshot was edited or damaged");
    says(&edited("edited-alone.json", |v| v["snapshot"]["ipcs"][0] = json!(999)), "save/record-edited", "edited or damaged");
}

#[test]
fn a_missing_file() {
    let (ok, _, err) = replay(&temp_path("no-such-save.json"));
    assert!(!ok && err.contains("cannot read"), "{err}");
}
