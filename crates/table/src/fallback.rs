//! The book's defaults for the powers the client does not play, used when
//! the computer player (warboard-ai, which plays those powers) keeps
//! proposing refused actions: buy and move nothing more, fight battles to
//! the end with `resolve`, answer battle decisions as `resolve` would
//! (casualties by the ruleset's default order of loss, the attacker presses
//! on, no submarine withdraws), and place what must be placed.

use serde_json::{json, Value};
use warboard_record::{unit_name, Record};
use warboard_rules::battle::{self, BattleResult, BattleSide, Decision};
use warboard_rules::{Action, Phase};

/// The engine's action for the power that acts now, in FORMAT.md's vocabulary.
pub fn default_action(record: &Record) -> Value {
    let game = record.game();
    let (rs, s) = (&game.ruleset, &game.state);
    match battle::decision(rs, s) {
        Some((_, Decision::Casualties { side, choice, .. })) => {
            let chosen = battle::default_casualties(rs, s, &choice, side == BattleSide::Attacker);
            let units: Vec<Value> = chosen.iter().map(|id| json!({"id": unit_name(*id)})).collect();
            json!({"type": "casualties", "units": units})
        }
        Some(_) => json!({"type": "continue"}),
        None if s.phase == Phase::Combat => {
            // The first battle that may be fought now (a landing waits for
            // the sea battle in its transports' zone).
            let next = s
                .battles
                .iter()
                .filter(|b| b.result == BattleResult::Pending)
                .find(|b| record.trial(&Action::Resolve { at: Some(b.at) }).is_ok());
            match next {
                Some(b) => json!({"type": "resolve", "at": rs.map.name(b.at)}),
                None => json!({"type": "end_phase"}),
            }
        }
        // Units that can be placed must be (Anniversary): the first
        // placement the rules take, until none is left.
        None if s.phase == Phase::Place && record.trial(&Action::EndPhase).is_err() => {
            let placement = rs.map.ids().find_map(|at| {
                s.purchased
                    .keys()
                    .map(|kind| Action::Place { at, units: vec![(*kind, 1)] })
                    .find(|a| record.trial(a).is_ok())
            });
            match placement {
                Some(a) => warboard_record::action_to_format(&a, rs),
                None => json!({"type": "end_phase"}),
            }
        }
        None => json!({"type": "end_phase"}),
    }
}
