//! The story a table tells, in the words every front end shows.

use serde_json::{json, Value};
use warboard_record::{DiceMode, Origin, Position, Record, Start};
use warboard_rules::battle::{self, Decision};
use warboard_table::Table;

fn table(state: Value, seed: u64) -> Table {
    let mut start = Start::standard("classic", DiceMode::Seeded { seed });
    start.position = Position { setup: "empty".into(), state: Some(state) };
    Table::new(Record::new(start).expect("a position"), vec![false; 5], 0)
}

fn all(t: &Table) -> Vec<warboard_rules::PowerId> {
    t.game().ruleset.power_ids().collect()
}

fn act(t: &mut Table, action: Value) {
    let seat = all(t);
    t.act(&seat, &action, Origin::Client).unwrap_or_else(|e| panic!("{action}: {e}"));
}

fn told(t: &Table) -> Vec<String> {
    t.log().iter().map(|l| l.text.clone()).collect()
}

/// Issue 33, point 11: a raid is told as a raid.
#[test]
fn a_raid_is_told_as_a_raid() {
    let mut t = table(
        json!({"turn": "germany", "phase": "combat_move", "units": [
            {"at": "WEU", "owner": "germany", "type": "bomber"},
            {"at": "GBR", "owner": "uk", "type": "industrial_complex"}]}),
        1,
    );
    act(&mut t, json!({"type": "move", "units": [{"type": "bomber"}], "route": ["WEU", "NOR", "GBR"], "bombing": true}));
    act(&mut t, json!({"type": "end_phase"}));
    act(&mut t, json!({"type": "resolve", "at": "GBR"}));
    let lines = told(&t);
    assert!(lines.iter().any(|l| l == "germany raids the industrial complex at GBR"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("fought to the end") || l.contains("attacks GBR")), "{lines:?}");
}

/// Issue 33, point 10: who stays in a battle is told by who decided.
#[test]
fn submarines_staying_are_told_as_the_side_that_decided() {
    let mut t = table(
        json!({"turn": "germany", "phase": "combat_move", "units": [
            {"at": "BAL", "owner": "germany", "type": "submarine", "count": 3},
            {"at": "NOR", "owner": "uk", "type": "submarine", "count": 3}]}),
        5,
    );
    act(&mut t, json!({"type": "move", "units": [{"type": "submarine", "count": 3}], "route": ["BAL", "NOR"]}));
    act(&mut t, json!({"type": "end_phase"}));
    act(&mut t, json!({"type": "battle", "at": "NOR"}));
    let mut seen = Vec::new();
    for _ in 0..40 {
        let decision = battle::decision(&t.game().ruleset, &t.game().state).map(|(_, d)| d);
        match decision {
            Some(Decision::Casualties { .. }) => {
                let action = warboard_table::fallback::default_action(t.record());
                act(&mut t, action);
            }
            Some(d @ (Decision::AttackerSubmarines | Decision::DefenderSubmarines | Decision::PressOrRetreat)) => {
                act(&mut t, json!({"type": "continue"}));
                let last = told(&t).into_iter().rev().find(|l| l.starts_with("battle at NOR: ")).expect("the choice is told");
                let expected = match d {
                    Decision::AttackerSubmarines => "battle at NOR: the attacking submarines stay in the battle",
                    Decision::DefenderSubmarines => "battle at NOR: the defending submarines stay in the battle",
                    _ => "battle at NOR: the attacker presses on",
                };
                assert_eq!(last, expected);
                seen.push(d);
            }
            None => break,
        }
    }
    assert!(seen.iter().any(|d| matches!(d, Decision::DefenderSubmarines)), "the defender's submarines were asked: {seen:?} {:?}", told(&t));
}
