//! Table entries at a table (issue 31, points 1 and 7): a correction is
//! its named power's to make, whoever acts now; a clock note is the
//! host's (`Table::note_clock`), refused to every seat; both are told in
//! the game's log.

use serde_json::json;
use warboard_record::{ClockEvent, DiceMode, Origin, Record, Start};
use warboard_table::Table;

fn table() -> Table {
    let record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 3 })).unwrap();
    let powers = record.game().ruleset.powers.len();
    Table::new(record, vec![false; powers], 0)
}

#[test]
fn corrections_are_the_named_powers_and_notes_the_hosts() {
    let mut t = table();
    let rs = t.game().ruleset.clone();
    let [russia, germany] = ["russia", "germany"].map(|p| rs.power_by_name(p).unwrap());
    t.act(&[russia], &json!({"type": "end_phase"}), Origin::Client).map_err(|e| e.to_string()).unwrap();
    // Germany does not act now, yet proposes for itself; not for Russia.
    let refused = t.act(&[germany], &json!({"type": "correction", "power": "russia", "take_back_to": 0}), Origin::Client).err().expect("refused");
    assert_eq!(refused.code(), "auth/not-your-power");
    t.act(&[germany], &json!({"type": "correction", "power": "germany", "take_back_to": 0}), Origin::Client).map_err(|e| e.to_string()).unwrap();
    let note = json!({"type": "table", "event": "reminder", "powers": ["russia"]});
    assert_eq!(t.act(&[russia], &note, Origin::Client).err().expect("refused").code(), "table/host-only");
    t.note_clock(ClockEvent::Reminder, &[russia], Some("2026-11-28 14:07 UTC")).map_err(|e| e.to_string()).unwrap();
    t.act(&[russia], &json!({"type": "correction", "power": "russia", "approve": 1}), Origin::Client).map_err(|e| e.to_string()).unwrap();
    assert_eq!(t.record().log().len(), 4);
    assert_eq!(t.game().state.phase.name(), "research", "back before Russia ended its first phase");
    let told: Vec<&str> = t.log().iter().map(|l| l.text.as_str()).collect();
    for line in [
        "germany proposes a correction: take back the log from entry 0 on",
        "reminder to russia: half the time for the move is gone",
        "russia approves the correction proposed in entry 1: the game goes back",
    ] {
        assert!(told.contains(&line), "{line:?} in {told:?}");
    }
}
