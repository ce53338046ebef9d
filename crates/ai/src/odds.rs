//! How likely an attack is to win: the question behind every attack.
//! Planners ask through [`Odds`], so the exact calculator can answer where
//! it is available and a quick estimate elsewhere.

use std::cell::RefCell;
use std::sync::Arc;
use warboard_calc::{Army, Battle, CalcOptions, Calculator};
use warboard_rules::ids::UnitType;
use warboard_rules::ruleset::Ruleset;

pub trait Odds {
    /// The chance that `attackers` win: destroy `defenders` and survive,
    /// and on land keep a unit that takes the territory. `defenders` may
    /// include the AA gun of the territory.
    fn win_chance(&self, rs: &Arc<Ruleset>, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], amphibious: bool) -> f64 {
        self.assess(rs, attackers, defenders, amphibious).win
    }

    /// The win chance and the expected IPC swing of the battle.
    fn assess(&self, rs: &Arc<Ruleset>, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], amphibious: bool) -> Assessment;
}

/// What an attack is expected to bring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assessment {
    /// The chance the attack wins (on land: takes the territory).
    pub win: f64,
    /// Expected IPCs the defender loses minus those the attacker loses
    /// (positive: a good trade for the attacker); `None` when unknown.
    pub swing: Option<f64>,
    /// Expected IPCs of attackers lost; `None` when unknown.
    pub attacker_loss: Option<f64>,
}

/// The exact calculator (`warboard-calc`): the battle engine's own rules,
/// AA fire and bombardment included. Battles it cannot take (too large for
/// the exact method) get the quick estimate.
pub struct ExactOdds {
    calculator: RefCell<Option<Calculator>>,
    /// Outcomes less likely than this are dropped.
    prune_below: f64,
}

impl Default for ExactOdds {
    /// The computer asks many questions a turn: a coarser threshold than
    /// the calculator's own is plenty for a decision, and keeps large
    /// battles quick.
    fn default() -> Self {
        ExactOdds { calculator: RefCell::new(None), prune_below: 1e-9 }
    }
}

impl ExactOdds {
    /// Answers to within about a thousandth: large battles in a fraction
    /// of the time. The planning player's simulations use it: they ask
    /// thousands of questions a turn, and late in a game about battles of
    /// hundreds of units.
    pub fn coarse() -> Self {
        ExactOdds { calculator: RefCell::new(None), prune_below: 1e-5 }
    }
}

impl Odds for ExactOdds {
    fn assess(&self, rs: &Arc<Ruleset>, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], amphibious: bool) -> Assessment {
        let mut slot = self.calculator.borrow_mut();
        let calc = match slot.as_mut() {
            Some(c) if Arc::ptr_eq(c.ruleset(), rs) => c,
            _ => slot.insert(Calculator::new(rs.clone())),
        };
        let battle = Battle::new(Army::from_counts(attackers), Army::from_counts(defenders));
        let opts = CalcOptions { amphibious, prune_below: self.prune_below, ..CalcOptions::default() };
        let land_attack = attackers.iter().any(|(t, n)| *n > 0 && rs.stats(*t).is_land());
        match calc.exact(&battle, &opts) {
            Ok(o) => Assessment {
                win: if land_attack { o.captured } else { o.attacker_wins },
                swing: Some(o.defender_ipc_loss - o.attacker_ipc_loss),
                attacker_loss: Some(o.attacker_ipc_loss),
            },
            Err(_) => QuickOdds.assess(rs, attackers, defenders, amphibious),
        }
    }
}

/// Lanchester's square law on expected hits per round: the side with more
/// firepower times hit points wins, the more clearly the larger the ratio.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuickOdds;

impl Odds for QuickOdds {
    fn assess(&self, rs: &Arc<Ruleset>, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], amphibious: bool) -> Assessment {
        Assessment { win: self.quick_win_chance(rs, attackers, defenders, amphibious), swing: None, attacker_loss: None }
    }
}

impl QuickOdds {
    fn quick_win_chance(&self, rs: &Ruleset, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], _amphibious: bool) -> f64 {
        let strength = |side: &[(UnitType, u32)], attacking: bool| -> (f64, f64) {
            let mut fire = 0.0;
            let mut bodies = 0.0;
            for &(t, n) in side {
                let st = rs.stats(t);
                if !st.is_combatant() {
                    continue;
                }
                let v = if attacking { st.attack } else { st.defense } as f64;
                fire += v / 6.0 * n as f64;
                bodies += n as f64;
            }
            (fire, bodies)
        };
        let (fa, na) = strength(attackers, true);
        let (fd, nd) = strength(defenders, false);
        if nd == 0.0 {
            return if na > 0.0 { 1.0 } else { 0.0 };
        }
        if fa == 0.0 || na == 0.0 {
            return 0.0;
        }
        let ratio = (fa * na) / (fd.max(0.01) * nd);
        1.0 / (1.0 + ratio.powf(-3.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warboard_rules::UnitType::{Armor, Infantry};

    /// The game's rule options reach the calculator: the computer players
    /// ask about the game's own ruleset, `low_luck` included (issue 33).
    #[test]
    fn exact_odds_follow_the_games_low_luck() {
        let plain = warboard_rules::ruleset("classic").unwrap();
        let low_luck = Arc::new(plain.with_options([("low_luck", &toml::Value::Boolean(true))]).unwrap());
        let odds = ExactOdds::default();
        let (attackers, defenders) = ([(Armor, 2)], [(Infantry, 3)]);
        // Low Luck: a sure hit a side in round one, then the armor's 3 in 6
        // against 4 in 6 and 2 in 6 (docs/low-luck.md): 1/10.
        let ll = odds.assess(&low_luck, &attackers, &defenders, false).win;
        assert!((ll - 0.1).abs() < 1e-6, "{ll}");
        let dice = odds.assess(&plain, &attackers, &defenders, false).win;
        assert!((dice - ll).abs() > 0.05, "{dice} with dice, {ll} with Low Luck");
    }
}
