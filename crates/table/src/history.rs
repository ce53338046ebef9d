//! What a game's record says over time, for charts: the income each power
//! was paid in each round (issue 30's income chart), read from the events
//! the rules core recorded, never worked out again.

use warboard_record::Entry;
use warboard_rules::{Event, PowerId};

/// The income paid in one round, power by power in the order paid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundIncome {
    pub round: u32,
    pub paid: Vec<(PowerId, i32)>,
}

/// Every round's income, from the entries of a record in order. A power
/// paid twice in a round (it does not happen in any ruleset today) counts
/// once with the sum.
pub fn income_by_round(log: &[Entry]) -> Vec<RoundIncome> {
    let mut rounds: Vec<RoundIncome> = Vec::new();
    let mut round = 1;
    for event in log.iter().flat_map(|e| &e.events) {
        match event {
            Event::PhaseStarted { round: r, .. } => round = *r,
            Event::Income { power, amount } => {
                if rounds.last().is_none_or(|r| r.round != round) {
                    rounds.push(RoundIncome { round, paid: Vec::new() });
                }
                let paid = &mut rounds.last_mut().expect("pushed above").paid;
                match paid.iter_mut().find(|(p, _)| p == power) {
                    Some((_, sum)) => *sum += amount,
                    None => paid.push((*power, *amount)),
                }
            }
            _ => {}
        }
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use warboard_record::{DiceMode, Origin, Record, Start};

    #[test]
    fn a_classic_round_pays_every_power_its_income() {
        let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 7 })).expect("a record");
        let rs = record.game().ruleset.clone();
        // Every power ends every phase: two rounds of income.
        while record.game().state.round <= 2 {
            record.apply(&serde_json::json!({"type": "end_phase"}), Origin::Client).expect("ending a phase is legal");
        }
        let rounds = income_by_round(record.log());
        assert_eq!(rounds.iter().map(|r| r.round).collect::<Vec<_>>(), [1, 2]);
        let russia = rs.power_by_name("russia").expect("russia");
        let first = &rounds[0];
        assert_eq!(first.paid.len(), 5, "{first:?}");
        assert_eq!(first.paid[0], (russia, 24), "Russia starts the round and is paid its 24 IPCs");
    }
}
