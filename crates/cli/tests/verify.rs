//! `warboard verify FILE`: a proven game's chain and dice are checked and
//! described; any change to a proof is refused with its `record/…` code and
//! exit status 1; a save without a proof replays and says "no dice proof"
//! (exit status 2 only with --require-proof).

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use warboard_record::testing::{LocalClub, RUSSIAN_TURN};
use warboard_record::{DiceMode, Origin, Record, Start};

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warboard-verify-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn verify(path: &PathBuf, extra: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warboard")).arg("verify").arg(path).args(extra).output().expect("run warboard verify");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}


fn proven_turn(beacon: bool) -> Record {
    let mut club = LocalClub::default();
    let mut record = Record::new(Start::standard("classic", DiceMode::Proof)).unwrap();
    club.start(&mut record, beacon).unwrap();
    for (i, a) in RUSSIAN_TURN.iter().enumerate() {
        let action: Value = serde_json::from_str(a).unwrap();
        club.act(&mut record, &action, i % 2 == 0).unwrap_or_else(|e| panic!("{a}: {e}"));
    }
    record
}

#[test]
fn a_proven_game_verifies_and_says_what_was_checked() {
    let path = temp_path("beacon.json");
    std::fs::write(&path, proven_turn(true).to_save_string()).unwrap();
    let (code, out, err) = verify(&path, &["--require-proof"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("12 actions replay"), "{out}");
    assert!(out.contains("dice from the beacon (warboard-test-ed25519)"), "{out}");
    assert!(out.contains("6 signed by their seat"), "{out}");
    assert!(out.contains("dice: every die checked against the round or seed it comes from (entries that rolled: 1)"), "{out}");
    assert!(out.contains("who acted: seats named otherwise than by their powers"), "{out}");
}

#[test]
fn seats_named_by_their_powers_may_act_only_for_them() {
    let seats = [("russia", true), ("germany,uk,japan,usa", false)];
    for (acting, ok) in [("russia", true), ("germany,uk,japan,usa", false)] {
        let mut club = LocalClub::default();
        let mut record = Record::new(Start::standard("classic", DiceMode::Proof)).unwrap();
        club.start_with_seats(&mut record, true, &seats).unwrap();
        for a in RUSSIAN_TURN {
            club.act_as(&mut record, &serde_json::from_str(a).unwrap(), acting, acting == "russia").unwrap();
        }
        let path = temp_path(&format!("seats-{ok}.json"));
        std::fs::write(&path, record.to_save_string()).unwrap();
        let (code, out, err) = verify(&path, &[]);
        if ok {
            assert_eq!(code, Some(0), "{out}{err}");
            assert!(out.contains("who acted: every entry made by the seat holding the power that acted"), "{out}");
        } else {
            assert_eq!(code, Some(1), "{out}{err}");
            assert!(err.contains("[auth/not-your-power] log[0]: seat germany,uk,japan,usa"), "{err}");
        }
    }
}

#[test]
fn a_changed_signature_is_refused_with_its_code() {
    let text = proven_turn(true).to_save_string();
    for (field, code) in [("receipt_signature", "record/bad-signature"), ("beacon_signature", "record/bad-beacon"), ("state_hash_before", "record/bad-signature")] {
        let key = format!("\"{field}\":\"");
        let at = text.find(&key).unwrap_or_else(|| panic!("{field}")) + key.len() + 3;
        let mut bytes = text.clone().into_bytes();
        bytes[at] = if bytes[at] == b'a' { b'b' } else { b'a' };
        let path = temp_path(&format!("changed-{field}.json"));
        std::fs::write(&path, bytes).unwrap();
        let (status, out, err) = verify(&path, &[]);
        assert_eq!(status, Some(1), "{field}: {out}{err}");
        assert!(err.contains(&format!("[{code}]")), "{field}: {err}");
    }
}

#[test]
fn a_server_seed_game_is_pending_until_the_seed_is_revealed() {
    let path = temp_path("server.json");
    std::fs::write(&path, proven_turn(false).to_save_string()).unwrap();
    let (code, out, err) = verify(&path, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("dice: pending"), "{out}");
    let (code, ..) = verify(&path, &["--require-proof"]);
    assert_eq!(code, Some(2));
}

#[test]
fn an_old_save_verifies_as_no_dice_proof() {
    let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 77 })).unwrap();
    for a in RUSSIAN_TURN {
        record.apply(&serde_json::from_str(a).unwrap(), Origin::Client).unwrap();
    }
    let path = temp_path("seeded.json");
    std::fs::write(&path, record.to_save_string()).unwrap();
    let (code, out, _) = verify(&path, &[]);
    assert_eq!(code, Some(0));
    assert!(out.contains("no dice proof: its dice come from seed 77"), "{out}");
    let (code, _, err) = verify(&path, &["--require-proof"]);
    assert_eq!(code, Some(2), "{err}");
}

/// Issue 31, points 1 and 7: the clock's notes and every correction, with
/// the rolls it superseded, are listed; a clock note must be the table's.
#[test]
fn corrections_and_clock_notes_are_listed_and_the_tables_seat_checked() {
    let seats = [("russia,uk,usa", true), ("germany,japan", false), (warboard_record::TABLE_SEAT, false)];
    let mut club = LocalClub::default();
    let mut record = Record::new(Start::standard("classic", DiceMode::Proof)).unwrap();
    club.start_with_seats(&mut record, true, &seats).unwrap();
    for a in &RUSSIAN_TURN[..7] {
        club.act_as(&mut record, &serde_json::from_str(a).unwrap(), "russia,uk,usa", true).unwrap();
    }
    let note = serde_json::json!({"type": "table", "event": "reminder", "powers": ["russia"]});
    let err = club.act_as(&mut record, &note, "germany,japan", false).unwrap_err();
    assert_eq!(err.code(), "table/host-only", "a player's seat makes no clock note");
    club.note(&mut record, &note).unwrap();
    let correction = serde_json::json!({"type": "correction", "power": "russia", "take_back_to": 6});
    club.act_as(&mut record, &correction, "russia,uk,usa", true).unwrap();
    club.act_as(&mut record, &serde_json::json!({"type": "correction", "power": "japan", "approve": 8}), "germany,japan", false).unwrap();
    let rolled: Vec<String> = record.log()[6].dice.iter().map(u8::to_string).collect();
    let path = temp_path("corrected.json");
    std::fs::write(&path, record.to_save_string()).unwrap();
    let (code, out, err) = verify(&path, &["--require-proof"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("clock notes: log[7] reminder russia"), "{out}");
    let listed = format!("correction: log[8] russia proposed taking back log[6..8], approved in log[9] by japan; superseded rolls: log[6] rolled {}", rolled.join(" "));
    assert!(out.contains(&listed), "{out}");
    assert!(out.contains("who acted: every entry made by the seat holding the power that acted"), "{out}");
}
