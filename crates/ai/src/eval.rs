//! The worth of a whole position to one power's team, in IPCs: what each
//! power has on the board, what it earns, its bank, its capital held and
//! how likely the enemy is to take that capital in its next turn. The
//! planning player scores the positions its candidate turns lead to with
//! it; a won game outweighs everything.

use crate::geo;
use crate::threat;
use warboard_rules::ids::PowerId;
use warboard_rules::Game;

/// Income counts for several rounds: a territory held is worth more than
/// its value once.
const INCOME_ROUNDS: f64 = 3.0;
/// A capital held, beyond its income: production and the bank it guards.
const CAPITAL_HELD: f64 = 20.0;
/// A won (or lost) game.
const GAME_WON: f64 = 10_000.0;

/// The position's worth to `p`'s team: its powers' worth less its
/// enemies'.
pub fn score(game: &Game, p: PowerId) -> f64 {
    let s = &game.state;
    if let Some(w) = &s.winner {
        let ours = w.powers.iter().any(|q| s.allied(p, *q));
        return if ours { GAME_WON } else { -GAME_WON };
    }
    game.ruleset.power_ids().filter(|q| game.ruleset.plays(*q)).map(|q| if s.allied(p, q) { worth(game, q) } else { -worth(game, q) }).sum()
}

/// One power's worth: its units at their cost, its income for a few rounds,
/// its bank, and its capital if its team holds it, less the chance of
/// losing it next turn.
pub fn worth(game: &Game, q: PowerId) -> f64 {
    let rs = &game.ruleset;
    let s = &game.state;
    if s.eliminated.contains(&q) {
        return 0.0;
    }
    let units: f64 = s
        .units
        .iter()
        .filter(|u| u.owner == q)
        .map(|u| {
            let st = rs.stats(u.kind);
            // A damaged unit is worth what repairing it would leave.
            let whole = st.cost as f64;
            if st.hit_points > 1 && u.hits > 0 {
                whole * (1.0 - 0.5 * u.hits as f64 / st.hit_points as f64)
            } else {
                whole
            }
        })
        .sum();
    let rel = game.relations();
    let income = rel.income(q) as f64;
    let bank = s.ipcs[q.index()].max(0) as f64;
    let capital = geo::home(rs, q);
    let held = s.control[capital.index()].is_some_and(|c| s.allied(q, c));
    let capital_worth = if held {
        let defenders: Vec<_> = s.units_at(capital).filter(|u| s.allied(q, u.owner)).collect();
        let danger = threat::quick_capture_chance(game, q, capital, &defenders);
        (CAPITAL_HELD + bank + income) * (1.0 - danger)
    } else {
        0.0
    };
    units + INCOME_ROUNDS * income + bank + capital_worth
}
