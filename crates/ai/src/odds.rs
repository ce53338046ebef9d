//! How likely an attack is to win: the question behind every attack.
//! Planners ask through [`Odds`], so the exact calculator can answer where
//! it is available and a quick estimate elsewhere.

use warboard_rules::ids::UnitType;
use warboard_rules::ruleset::Ruleset;

pub trait Odds {
    /// The chance that `attackers` destroy `defenders` and survive.
    fn win_chance(&self, rs: &Ruleset, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], amphibious: bool) -> f64;
}

/// Lanchester's square law on expected hits per round: the side with more
/// firepower times hit points wins, the more clearly the larger the ratio.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuickOdds;

impl Odds for QuickOdds {
    fn win_chance(&self, rs: &Ruleset, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], _amphibious: bool) -> f64 {
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
