//! Standing orders (issue 31, point 3): what a player decided in advance
//! for its powers' battle decisions, so that a battle of a correspondence
//! game need not wait days for each casualty choice. An order answers a
//! decision at once; a decision no order covers waits for the player.
//!
//! - `losses`: unit types in the order they are taken; types not listed come
//!   after, in the ruleset's default order of loss. A battleship's (or any
//!   unit's) spare hit point is still taken first, as every player expects.
//! - `submarines`: `always` (submerge or withdraw whenever the choice is
//!   given, to the first zone the rules allow) or `never`.
//! - `retreat` (the attacker's choice after a round): `never`, or retreat
//!   when at most `when_at_most` of its units are left in the battle, to the
//!   first place the rules allow.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use warboard_record::Record;
use warboard_rules::battle::{self, casualties, BattleSide, Decision};
use warboard_rules::{Action, UnitId, UnitType};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingOrders {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<UnitType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submarines: Option<SubmarineOrder>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat: Option<RetreatOrder>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubmarineOrder {
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RetreatOrder {
    Never,
    WhenAtMost(u32),
}

impl StandingOrders {
    /// The action these orders give for the decision the game waits on, in
    /// FORMAT.md's vocabulary, if they cover it (and the rules take it);
    /// `None`: the decision waits for the player.
    pub fn answer(&self, record: &Record) -> Option<Value> {
        let game = record.game();
        let (rs, s) = (&game.ruleset, &game.state);
        let (i, decision) = battle::decision(rs, s)?;
        let b = &s.battles[i];
        let attacking = |side: BattleSide| side == BattleSide::Attacker;
        let action = match decision {
            Decision::Casualties { side, choice, .. } => {
                if self.losses.is_empty() {
                    return None;
                }
                let rank = |kind: UnitType| self.losses.iter().position(|k| *k == kind).unwrap_or(self.losses.len());
                let mut order = casualties::default_order(rs, s, &choice.candidates(), attacking(side));
                // A unit's spare hit point stays first; then the player's order
                // (stable: the default order within a rank).
                let spare = |order: &[UnitId], at: usize| order[at + 1..].contains(&order[at]);
                let keys: Vec<(bool, usize)> =
                    (0..order.len()).map(|at| (!spare(&order, at), rank(s.unit(order[at]).map_or(UnitType::Infantry, |u| u.kind)))).collect();
                let mut indexed: Vec<usize> = (0..order.len()).collect();
                indexed.sort_by_key(|&at| keys[at]);
                order = indexed.into_iter().map(|at| order[at]).collect();
                Action::Casualties { units: choice.pick_in_order(&order) }
            }
            Decision::AttackerSubmarines | Decision::DefenderSubmarines => {
                let side = if decision == Decision::AttackerSubmarines { BattleSide::Attacker } else { BattleSide::Defender };
                match self.submarines? {
                    SubmarineOrder::Never => Action::Continue,
                    SubmarineOrder::Always => {
                        let ours = |owner| s.allied(owner, b.attacker) == attacking(side);
                        let subs: Vec<UnitId> =
                            s.units.iter().filter(|u| u.at == b.at && ours(u.owner) && rs.stats(u.kind).submarine && !u.flags.submerged).map(|u| u.id).collect();
                        let tries = std::iter::once(None).chain(rs.map.neighbours(b.at).iter().map(|n| Some(*n)));
                        tries.map(|to| Action::Submerge { units: subs.clone(), to }).find(|a| record.trial(a).is_ok()).unwrap_or(Action::Continue)
                    }
                }
            }
            Decision::PressOrRetreat => match self.retreat? {
                RetreatOrder::Never => Action::Continue,
                RetreatOrder::WhenAtMost(n) => {
                    let left = s.units.iter().filter(|u| u.at == b.at && s.allied(u.owner, b.attacker) && u.carried_by.is_none()).count() as u32;
                    if left > n {
                        Action::Continue
                    } else {
                        let tries = std::iter::once(None).chain(rs.map.neighbours(b.at).iter().map(|n| Some(*n)));
                        tries.map(|to| Action::Retreat { to }).find(|a| record.trial(a).is_ok()).unwrap_or(Action::Continue)
                    }
                }
            },
        };
        record.trial(&action).ok()?;
        Some(warboard_record::action_to_format(&action, rs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_read_as_players_write_them() {
        let o: StandingOrders =
            serde_json::from_str(r#"{"losses": ["infantry", "artillery", "armor"], "submarines": "always", "retreat": {"when_at_most": 2}}"#).unwrap();
        assert_eq!(o.losses, vec![UnitType::Infantry, UnitType::Artillery, UnitType::Armor]);
        assert_eq!(o.submarines, Some(SubmarineOrder::Always));
        assert_eq!(o.retreat, Some(RetreatOrder::WhenAtMost(2)));
        assert!(serde_json::from_str::<StandingOrders>(r#"{"loses": []}"#).is_err(), "an unknown field is refused");
        assert_eq!(serde_json::from_str::<StandingOrders>(r#"{"retreat": "never"}"#).unwrap().retreat, Some(RetreatOrder::Never));
    }
}
