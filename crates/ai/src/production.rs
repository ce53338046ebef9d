//! What a power can produce and where: the room its industrial complexes
//! have this turn (a complex's territory value less its damage where
//! production is limited, as in the Anniversary Edition), the repairs worth
//! paying for, research, and China's placements without a complex. The
//! rules core judges every action; these are the planner's own estimates,
//! read from the same knobs, so that it buys only what it can place.

use crate::geo;
use warboard_rules::game::Relations;
use warboard_rules::ids::{PowerId, SpaceId, UnitType};
use warboard_rules::ruleset::{BombingCap, ResearchCharts};
use warboard_rules::state::Development;
use warboard_rules::{Action, FixedDice, Game};

/// How many units `p`'s complexes can still place this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacity {
    /// Units of any kind; `None`: no limit (classic's original factories).
    pub total: Option<u32>,
    /// Units placed beside the sea (ships need a coastal complex); `None`:
    /// no limit.
    pub coastal: Option<u32>,
}

impl Capacity {
    /// Whether one more unit fits, `placed` and `ships` being those already
    /// planned.
    pub fn fits(&self, placed: u32, ships: u32, sea: bool) -> bool {
        self.total.is_none_or(|t| placed < t) && (!sea || self.coastal.is_none_or(|c| ships < c))
    }
}

/// The complexes `p` may place at this turn: its own, held since the start
/// of the turn.
pub fn producing_factories(rel: &Relations<'_>, p: PowerId) -> Vec<SpaceId> {
    let s = rel.s;
    s.units
        .iter()
        .filter(|u| u.owner == p && rel.rs.stats(u.kind).factory && !u.flags.new)
        .map(|u| u.at)
        .filter(|t| s.control[t.index()] == Some(p) && s.start_control[t.index()] == Some(p))
        .collect()
}

/// What the complex at `t` places this turn with `damage` markers, before
/// anything is placed (`None`: no limit). Mirrors the rules core's
/// placement limit (`game/production.rs`).
pub fn room_at(rel: &Relations<'_>, p: PowerId, t: SpaceId, damage: u32) -> Option<u32> {
    let rs = rel.rs;
    let space = rs.map.space(t);
    if space.neutral {
        Some(1)
    } else if space.original_factory && space.original_owner == Some(p) && rs.options.original_factories_unlimited {
        None
    } else if rs.options.bombing_cap == BombingCap::FactoryDamage {
        let extra = if space.ipc >= 3 && rel.s.has_development(p, Development::IncreasedFactoryProduction) { 2 } else { 0 };
        Some((space.ipc + extra).saturating_sub(damage))
    } else {
        Some(space.ipc.max(1))
    }
}

/// Damage markers on the complex at `t`.
pub fn damage_at(rel: &Relations<'_>, t: SpaceId) -> u32 {
    rel.factory_at(t).map_or(0, |f| f.hits as u32)
}

/// The repairs worth making in the purchase phase, and what they cost: the
/// damage that takes production away (damage beyond the territory's
/// production takes nothing more until the rest is repaired), as far as
/// half the bank pays for it. Only where bombing damages complexes.
pub fn repairs(game: &Game, p: PowerId) -> (Vec<(SpaceId, u32)>, i32) {
    let rel = game.relations();
    let rs = &game.ruleset;
    if rs.options.bombing_cap != BombingCap::FactoryDamage {
        return (Vec::new(), 0);
    }
    let half_price = game.state.has_development(p, Development::IncreasedFactoryProduction);
    let mut budget = game.state.ipcs[p.index()] / 2;
    let mut out = Vec::new();
    let mut spent = 0;
    // The most productive complexes first.
    let mut factories = producing_factories(&rel, p);
    factories.sort_by_key(|t| std::cmp::Reverse((rs.map.space(*t).ipc, t.0)));
    for t in factories {
        let damage = damage_at(&rel, t);
        if damage == 0 {
            continue;
        }
        let cost_of = |n: u32| if half_price { n.div_ceil(2) } else { n } as i32;
        let mut n = damage;
        while n > 0 && cost_of(n) > budget {
            n -= 1;
        }
        if n == 0 {
            continue;
        }
        let action = Action::Repair { at: t, count: n };
        if game.is_legal(&action, &FixedDice(1)).is_ok() {
            budget -= cost_of(n);
            spent += cost_of(n);
            out.push((t, n));
        }
    }
    (out, spent)
}

/// The room `p`'s complexes have this turn once `repaired` markers are
/// gone, less what waits to be placed from earlier turns.
pub fn capacity(game: &Game, p: PowerId, repaired: &[(SpaceId, u32)]) -> Capacity {
    let rel = game.relations();
    let rs = &game.ruleset;
    let mut total = Some(0u32);
    let mut coastal = Some(0u32);
    for t in producing_factories(&rel, p) {
        let fixed: u32 = repaired.iter().filter(|(at, _)| *at == t).map(|(_, n)| n).sum();
        let room = room_at(&rel, p, t, damage_at(&rel, t).saturating_sub(fixed));
        // Ships need a zone beside the complex that takes them: where the
        // rules refuse zones holding enemy ships, those do not count
        // (issue 33, point 14: the UK bought transports for a zone full of
        // German submarines and threw 16 IPCs away).
        let takes_ships = |z: SpaceId| rs.map.is_sea(z) && (rs.options.ships_placed_in_enemy_zones || rel.enemy_units(p, z).next().is_none());
        let sea = rs.map.neighbours(t).iter().any(|z| takes_ships(*z));
        total = total.zip(room).map(|(a, b)| a + b);
        if sea {
            coastal = coastal.zip(room).map(|(a, b)| a + b);
        }
    }
    // Units bought earlier this turn, or kept from an earlier one, take
    // room too.
    let s = &game.state;
    let bought: u32 = if s.turn == p { s.purchased.values().sum() } else { 0 };
    let waiting: u32 = s.unplaced.get(&p).map_or(0, |m| m.values().sum::<u32>()) + bought;
    Capacity { total: total.map(|t| t.saturating_sub(waiting)), coastal }
}

/// A simple research policy for rulesets with researchers and two charts
/// (Anniversary): a power that is not threatened and has money to spare
/// hires one researcher when it holds none; researchers held roll again
/// every turn for free. A power that must cross the sea works on chart 2
/// (air and naval: long-range aircraft, shipyards), the others on chart 1
/// (land and production: artillery, mechanized infantry); a chart already
/// complete gives way to the other. Only legal proposals are made.
pub fn research(game: &Game, p: PowerId, threatened: bool, naval: bool) -> Option<Action> {
    let rs = &game.ruleset;
    let s = &game.state;
    if !rs.options.weapons_development || rs.options.research_charts != ResearchCharts::Anniversary || game.relations().is_china(p) {
        return None;
    }
    let held = s.researchers[p.index()];
    let bank = s.ipcs[p.index()];
    let dice = if held > 0 {
        0
    } else if !threatened && bank >= 30 {
        1
    } else {
        return None;
    };
    let charts: [u8; 2] = if naval { [2, 1] } else { [1, 2] };
    charts
        .into_iter()
        .map(|chart| Action::Research { dice, development: None, chart: Some(chart) })
        .find(|a| game.is_legal(a, &FixedDice(1)).is_ok())
}

/// Where China places its infantry (AA50 FAQ: China): a territory it
/// controls where fewer than three Chinese units stood before placing
/// began, nearest the enemy first. One unit a proposal; asked first.
pub fn china_placement(game: &Game, p: PowerId) -> Option<Action> {
    let rel = game.relations();
    let rs = &game.ruleset;
    let s = &game.state;
    let (&kind, _) = s.purchased.iter().find(|(k, n)| **n > 0 && rs.stats(**k).is_land())?;
    let front = geo::land_distance_to_enemy(&rel, p);
    let mut spots: Vec<SpaceId> = rs
        .map
        .ids()
        .filter(|t| rs.map.is_land(*t) && s.control[t.index()] == Some(p))
        .filter(|t| rel.units_of(p, *t).filter(|u| !u.flags.new).count() < 3)
        .collect();
    // Nearest the enemy, then where the fewest of ours stand.
    spots.sort_by_key(|t| (front[t.index()], rel.units_of(p, *t).count(), t.0));
    spots
        .into_iter()
        .map(|at| Action::Place { at, units: vec![(kind, 1)] })
        .find(|a| game.is_legal(a, &FixedDice(1)).is_ok())
}

/// Some legal placement of one waiting unit, searching every space from
/// the `start`-th on (a caller that wants variety rotates it): the last
/// resort before ending a place phase in which units that can be placed
/// must be (AA50 FAQ: Miscellaneous). `None` when nothing can be placed.
pub fn any_placement(game: &Game, start: usize) -> Option<Action> {
    let rs = &game.ruleset;
    let s = &game.state;
    let p = s.turn;
    let kinds: Vec<UnitType> = s.purchased.iter().filter(|(_, n)| **n > 0).map(|(k, _)| *k).collect();
    // Units go to the power's own territories, ships (and fighters aboard
    // carriers) to the zones beside its complexes: nowhere else is asked.
    let rel = game.relations();
    let own = |t: SpaceId| rs.map.is_land(t) && s.control[t.index()] == Some(p);
    let beside_complex = |z: SpaceId| rs.map.neighbours(z).iter().any(|t| own(*t) && rel.factory_at(*t).is_some_and(|f| f.owner == p));
    let n = rs.map.len();
    for i in 0..n {
        let at = SpaceId(((start + i) % n) as u16);
        if !(own(at) || (rs.map.is_sea(at) && beside_complex(at))) {
            continue;
        }
        for &kind in &kinds {
            // Ships go to sea; land units stay on land.
            if rs.map.is_sea(at) != rs.stats(kind).is_sea() && !rs.stats(kind).is_air() {
                continue;
            }
            let a = Action::Place { at, units: vec![(kind, 1)] };
            if game.is_legal(&a, &FixedDice(1)).is_ok() {
                return Some(a);
            }
        }
    }
    None
}

/// With the rockets development: the rocket the turn power's AA guns may
/// fire now at the most valuable enemy complex, if any (each gun and each
/// complex once a turn: the rules decide, AA50 errata p. 12).
pub fn rocket(game: &Game) -> Option<Action> {
    let s = &game.state;
    let rs = &game.ruleset;
    let p = s.turn;
    if !s.has_development(p, Development::Rockets) {
        return None;
    }
    let guns: Vec<SpaceId> = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).anti_aircraft > 0 && u.carried_by.is_none() && !u.flags.fired_rocket).map(|u| u.at).collect();
    let mut targets: Vec<SpaceId> = s.units.iter().filter(|u| rs.stats(u.kind).factory && !s.allied(p, u.owner)).map(|u| u.at).collect();
    targets.sort_by_key(|t| std::cmp::Reverse(rs.map.space(*t).ipc));
    for at in targets {
        for from in &guns {
            let a = Action::Rocket { from: *from, at };
            if game.is_legal(&a, &FixedDice(1)).is_ok() {
                return Some(a);
            }
        }
    }
    None
}
