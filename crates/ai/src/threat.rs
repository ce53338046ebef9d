//! What the enemy can bring against a space next turn: its land units
//! within their moves by land, its aircraft within half their range (they
//! must land again), and the troops aboard its loaded transports that can
//! reach a zone beside the space. Used to size garrisons and to score
//! positions; blocking and canals are ignored, so the estimate errs toward
//! danger.

use crate::geo::{self, FAR};
use crate::odds::{Odds, QuickOdds};
use std::collections::BTreeMap;
use warboard_rules::game::Relations;
use warboard_rules::ids::{PowerId, SpaceId, UnitType};
use warboard_rules::ruleset::Ruleset;
use warboard_rules::state::Unit;
use warboard_rules::Game;
use std::sync::Arc;

/// The enemy units of `p` that can attack `t` in their next turn.
pub fn attackers_in_reach<'a>(rel: &Relations<'a>, p: PowerId, t: SpaceId) -> Vec<&'a Unit> {
    let rs = rel.rs;
    let s = rel.s;
    let by_land = geo::distances(rel, t, |x| rs.map.is_land(x) && !rel.neutral(x));
    let by_air = geo::distances(rel, t, |x| !rel.neutral(x));
    // Zones beside `t`, and how far each sea zone is from the nearest.
    let shore_zones: Vec<SpaceId> = rs.map.neighbours(t).iter().copied().filter(|z| rs.map.is_sea(*z)).collect();
    let by_sea = if shore_zones.is_empty() {
        Vec::new()
    } else {
        let mut d = vec![FAR; rs.map.len()];
        let mut queue: std::collections::VecDeque<SpaceId> = shore_zones.iter().copied().collect();
        for z in &shore_zones {
            d[z.index()] = 0;
        }
        while let Some(x) = queue.pop_front() {
            for &n in rs.map.neighbours(x) {
                if rs.map.is_sea(n) && d[n.index()] == FAR {
                    d[n.index()] = d[x.index()] + 1;
                    queue.push_back(n);
                }
            }
        }
        d
    };
    let mut out = Vec::new();
    for u in s.units.iter().filter(|u| rel.enemies(p, u.owner)) {
        let st = rs.stats(u.kind);
        if !st.is_combatant() || st.movement == 0 {
            continue;
        }
        let reach = if st.is_air() {
            by_air[u.at.index()] <= (st.movement as u32).div_ceil(2)
        } else if st.is_land() {
            match u.carried_by.and_then(|tr| s.unit(tr)) {
                // Aboard: the transport carries it to a zone beside `t`.
                Some(tr) => !by_sea.is_empty() && by_sea[tr.at.index()] <= rs.stats(tr.kind).movement as u32,
                None => rs.map.is_land(u.at) && by_land[u.at.index()] <= st.movement as u32,
            }
        } else {
            false
        };
        if reach {
            out.push(u);
        }
    }
    out
}

/// The enemy units of `p` that can attack ships at sea zone `z` in their
/// next turn: warships within their move by sea (blockades and canals
/// ignored), aircraft within half their range.
pub fn sea_attackers_in_reach<'a>(rel: &Relations<'a>, p: PowerId, z: SpaceId) -> Vec<&'a Unit> {
    let rs = rel.rs;
    let by_sea = geo::distances(rel, z, |x| rs.map.is_sea(x));
    let by_air = geo::distances(rel, z, |x| !rel.neutral(x));
    rel.s
        .units
        .iter()
        .filter(|u| rel.enemies(p, u.owner))
        .filter(|u| {
            let st = rs.stats(u.kind);
            if st.attack == 0 || st.movement == 0 || !st.is_combatant() {
                false
            } else if st.is_air() {
                by_air[u.at.index()] <= (st.movement as u32).div_ceil(2)
            } else if st.is_sea() {
                by_sea[u.at.index()] <= st.movement as u32
            } else {
                false
            }
        })
        .collect()
}

/// Counts by unit type, as the calculators take them.
pub fn stacks(units: &[&Unit]) -> Vec<(UnitType, u32)> {
    let mut m: BTreeMap<UnitType, u32> = BTreeMap::new();
    for u in units {
        *m.entry(u.kind).or_default() += 1;
    }
    m.into_iter().collect()
}

/// The chance that everything the enemy can bring takes `t` from
/// `defenders` (the quick square-law estimate; the planners that size a
/// garrison ask their own calculator).
pub fn quick_capture_chance(game: &Game, p: PowerId, t: SpaceId, defenders: &[&Unit]) -> f64 {
    let attackers = attackers_in_reach(&game.relations(), p, t);
    capture_chance(&QuickOdds, &game.ruleset, &attackers, defenders)
}

/// The chance that `attackers` take a territory from `defenders`.
pub fn capture_chance(odds: &dyn Odds, rs: &Arc<Ruleset>, attackers: &[&Unit], defenders: &[&Unit]) -> f64 {
    // Aircraft alone never take a territory.
    if !attackers.iter().any(|u| rs.stats(u.kind).is_land()) {
        return 0.0;
    }
    odds.win_chance(rs, &stacks(attackers), &stacks(defenders), false)
}
