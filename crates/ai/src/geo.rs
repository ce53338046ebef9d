//! Geography for planning: distances over land and sea, the front.

use std::collections::VecDeque;
use warboard_rules::game::Relations;
use warboard_rules::ids::{PowerId, SpaceId};

pub const FAR: u32 = u32::MAX / 2;

/// Land distance from every territory to the nearest land territory held by
/// an enemy of `p` (neutral countries are not crossed).
pub fn land_distance_to_enemy(rel: &Relations<'_>, p: PowerId) -> Vec<u32> {
    let map = &rel.rs.map;
    let mut dist = vec![FAR; map.len()];
    let mut queue = VecDeque::new();
    for t in map.ids() {
        if rel.enemy_land(p, t) {
            dist[t.index()] = 0;
            queue.push_back(t);
        }
    }
    while let Some(s) = queue.pop_front() {
        for &n in map.neighbours(s) {
            if map.is_land(n) && !rel.neutral(n) && dist[n.index()] == FAR {
                dist[n.index()] = dist[s.index()] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Breadth-first distances from `from` over the spaces `passable` allows.
pub fn distances(rel: &Relations<'_>, from: SpaceId, passable: impl Fn(SpaceId) -> bool) -> Vec<u32> {
    distances_by(rel, from, |_, n| passable(n))
}

/// Breadth-first distances from `from` over the steps `step(a, b)` allows.
pub fn distances_by(rel: &Relations<'_>, from: SpaceId, step: impl Fn(SpaceId, SpaceId) -> bool) -> Vec<u32> {
    let map = &rel.rs.map;
    let mut dist = vec![FAR; map.len()];
    dist[from.index()] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(s) = queue.pop_front() {
        for &n in map.neighbours(s) {
            if dist[n.index()] == FAR && step(s, n) {
                dist[n.index()] = dist[s.index()] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// A shortest path from `from` to `to` over passable spaces, both ends
/// included.
pub fn path(rel: &Relations<'_>, from: SpaceId, to: SpaceId, passable: impl Fn(SpaceId) -> bool) -> Option<Vec<SpaceId>> {
    path_by(rel, from, to, |_, n| n == to || passable(n))
}

/// A shortest path from `from` to `to` over the steps `step(a, b)` allows,
/// both ends included.
pub fn path_by(rel: &Relations<'_>, from: SpaceId, to: SpaceId, step: impl Fn(SpaceId, SpaceId) -> bool) -> Option<Vec<SpaceId>> {
    let map = &rel.rs.map;
    let mut prev: Vec<Option<SpaceId>> = vec![None; map.len()];
    let mut seen = vec![false; map.len()];
    seen[from.index()] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(s) = queue.pop_front() {
        if s == to {
            let mut route = vec![to];
            let mut c = to;
            while let Some(p) = prev[c.index()] {
                route.push(p);
                c = p;
            }
            route.reverse();
            return Some(route);
        }
        for &n in map.neighbours(s) {
            if !seen[n.index()] && step(s, n) {
                seen[n.index()] = true;
                prev[n.index()] = Some(s);
                queue.push_back(n);
            }
        }
    }
    None
}

/// Sea distances for `p`'s ships: through zones `clear` allows and canals
/// open to `p` (a closed canal, such as Europe's Bosphorus under neutral
/// Turkey, is never sailed through).
pub fn sea_distances(rel: &Relations<'_>, p: PowerId, from: SpaceId, clear: impl Fn(SpaceId) -> bool) -> Vec<u32> {
    distances_by(rel, from, |a, b| clear(b) && rel.canal_open(p, a, b))
}

/// A shortest sea route for `p`'s ships to `to` (which itself need not be
/// clear), through zones `clear` allows and canals open to `p`.
pub fn sea_path(rel: &Relations<'_>, p: PowerId, from: SpaceId, to: SpaceId, clear: impl Fn(SpaceId) -> bool) -> Option<Vec<SpaceId>> {
    path_by(rel, from, to, |a, b| (b == to || clear(b)) && rel.canal_open(p, a, b))
}

/// The route of `ship` to `to` if its moves left reach it this turn,
/// through zones `open` allows and canals open to its owner (`to` itself
/// need not be open: a fleet sails into the enemy it attacks). Just its own
/// zone where it stands there already.
pub fn route_this_turn(rel: &Relations<'_>, ship: &warboard_rules::state::Unit, to: SpaceId, open: impl Fn(SpaceId) -> bool) -> Option<Vec<SpaceId>> {
    let route = sea_path(rel, ship.owner, ship.at, to, open)?;
    let left = rel.rs.stats(ship.kind).movement.saturating_sub(ship.moved) as usize;
    (route.len() - 1 <= left).then_some(route)
}

/// The route of `ship` toward `goal` as far as its moves left take it this
/// turn, through zones `open_sea` marks and canals open to its owner; a goal
/// that is not open (the enemy holds it) is approached, not entered. Starts
/// at the ship's zone; that alone where no route leads nearer.
pub fn sail_route(rel: &Relations<'_>, ship: &warboard_rules::state::Unit, goal: SpaceId, open_sea: &[bool]) -> Vec<SpaceId> {
    let open = |z: SpaceId| open_sea[z.index()];
    let Some(mut route) = sea_path(rel, ship.owner, ship.at, goal, open) else { return vec![ship.at] };
    if !open(goal) {
        route.pop();
    }
    route.truncate(rel.rs.stats(ship.kind).movement.saturating_sub(ship.moved) as usize + 1);
    if route.is_empty() {
        route.push(ship.at);
    }
    route
}

/// Where `p`'s units may go: everywhere, except for a power confined to a
/// list of territories (Anniversary's China, knobs `china_power` and
/// `china_territories`: its units never leave China).
pub fn allowed(rel: &Relations<'_>, p: PowerId) -> Vec<bool> {
    let rs = rel.rs;
    if !rel.is_china(p) {
        return vec![true; rs.map.len()];
    }
    rs.map.ids().map(|t| rs.options.china_territories.iter().any(|n| n == rs.map.name(t))).collect()
}

/// A power's home: its capital, or for a power without one (Anniversary's
/// China) the first territory it starts with.
pub fn home(rs: &warboard_rules::Ruleset, p: warboard_rules::PowerId) -> warboard_rules::SpaceId {
    rs.power(p)
        .capital
        .or_else(|| rs.map.ids().find(|t| rs.map.space(*t).original_owner == Some(p)))
        .unwrap_or(warboard_rules::SpaceId(0))
}
