//! Convoys (issue 14, `Style::convoys`): loaded transports sail toward
//! the shore worth invading, only as far as they stay safe from what the
//! enemy can strike them with next turn, and the warships that can reach
//! them sail along as escorts; landings are made from every loaded
//! transport that can reach a zone beside the target in the combat move,
//! not only from those already beside it. Without this the planner sent
//! unescorted transports one by one toward the nearest enemy shore, where a
//! lone fighter sank them (Anniversary 1942, seed 1: Japan bought
//! transports every turn and never landed; 21 tanks waited at home).

use crate::geo::{self, FAR};
use crate::odds::Odds;
use crate::threat::{self, stacks};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use warboard_rules::ruleset::Ruleset;
use warboard_rules::game::Relations;
use warboard_rules::ids::{PowerId, SpaceId, UnitId};
use warboard_rules::state::Unit;
use warboard_rules::Action;

/// The chance that what the enemy can strike with next turn sinks the
/// ships of a zone, which a convoy accepts where it stops.
pub(crate) const SAFE_SEA: f64 = 0.25;

/// A move of `unit` along `route` (more than one space).
fn sail(unit: &Unit, route: Vec<SpaceId>) -> Action {
    Action::Move { units: vec![unit.id], route, transport: None, bombing: false }
}

/// The non-combat moves of one power's ships: where each convoy stops,
/// with its escorts. Ships not moved stay where they are and count for the
/// safety of their zone.
pub(crate) struct Convoys<'a, 'r, O: Odds> {
    rel: &'a Relations<'r>,
    ruleset: &'a Arc<Ruleset>,
    odds: &'a O,
    p: PowerId,
    open_sea: &'a [bool],
    /// The ships of this power and its allies at each zone at the end of
    /// the moves planned so far (ships yet to move are not counted
    /// anywhere).
    at: BTreeMap<SpaceId, Vec<&'r Unit>>,
    /// Warships free to sail as escorts.
    free: Vec<&'r Unit>,
    /// Ships that will move (loaded transports, escorts).
    moving: HashSet<UnitId>,
    /// What the enemy can strike each zone asked about with next turn
    /// (the position does not change while the moves are planned).
    strikers: BTreeMap<SpaceId, Vec<&'r Unit>>,
    pub moves: Vec<Action>,
}

impl<'a, 'r, O: Odds> Convoys<'a, 'r, O> {
    /// `movers`: the transports this plan will move; `escorts`: warships
    /// free to move with them. Every other ship of `p` stays.
    pub(crate) fn new(rel: &'a Relations<'r>, ruleset: &'a Arc<Ruleset>, odds: &'a O, p: PowerId, open_sea: &'a [bool], movers: &[&'r Unit], escorts: Vec<&'r Unit>) -> Self {
        let rs = rel.rs;
        let mut moving: HashSet<UnitId> = movers.iter().map(|u| u.id).collect();
        moving.extend(escorts.iter().map(|u| u.id));
        let mut at: BTreeMap<SpaceId, Vec<&'r Unit>> = BTreeMap::new();
        for u in rel.s.units.iter().filter(|u| rs.allied(p, u.owner) && rs.map.is_sea(u.at) && rs.stats(u.kind).is_sea() && !moving.contains(&u.id)) {
            at.entry(u.at).or_default().push(u);
        }
        Convoys { rel, ruleset, odds, p, open_sea, at, free: escorts, moving, strikers: BTreeMap::new(), moves: Vec::new() }
    }

    /// The chance the enemy destroys `ships` (never none) at `z` next turn.
    fn danger(&mut self, z: SpaceId, ships: &[&Unit]) -> f64 {
        let (rel, p) = (self.rel, self.p);
        let attackers = self.strikers.entry(z).or_insert_with(|| threat::sea_attackers_in_reach(rel, p, z));
        if attackers.is_empty() {
            return 0.0;
        }
        self.odds.win_chance(self.ruleset, &stacks(attackers), &stacks(ships), false)
    }

    /// The route of `ship` to `z` this turn, through clear zones and open
    /// canals, if it can get there.
    fn route_to(&self, ship: &Unit, z: SpaceId) -> Option<Vec<SpaceId>> {
        if ship.at == z {
            return Some(vec![z]);
        }
        let open = |x: SpaceId| self.open_sea[x.index()];
        if !open(z) {
            return None;
        }
        geo::route_this_turn(self.rel, ship, z, open)
    }

    /// Sails `ship` toward `goal` as far as it can while its zone stays
    /// safe, calling the free warships that can reach that zone as escorts
    /// (the strongest defenders first, as few as it takes). Where no stop
    /// on the way is safe, it stops where the danger is least. Moves
    /// nowhere when it cannot get nearer.
    pub(crate) fn advance(&mut self, ship: &'r Unit, goal: SpaceId) {
        let rs = self.rel.rs;
        let route = geo::sail_route(self.rel, ship, goal, self.open_sea);
        let mut fallback: Option<(f64, usize)> = None;
        for stop in (0..route.len()).rev() {
            let z = route[stop];
            let mut group: Vec<&Unit> = self.at.get(&z).cloned().unwrap_or_default();
            group.push(ship);
            let alone = self.danger(z, &group);
            if alone <= SAFE_SEA {
                self.commit(ship, &route[..=stop], Vec::new());
                return;
            }
            // Escorts that can reach the zone this turn, best defenders first.
            let mut callable: Vec<(&'r Unit, Vec<SpaceId>)> = self.free.iter().filter_map(|w| self.route_to(w, z).map(|r| (*w, r))).collect();
            callable.sort_by_key(|(w, _)| (std::cmp::Reverse(rs.stats(w.kind).defense * rs.stats(w.kind).hit_points.max(1)), w.id));
            let mut called = Vec::new();
            let mut danger = alone;
            for (w, r) in callable {
                group.push(w);
                called.push((w, r));
                danger = self.danger(z, &group);
                if danger <= SAFE_SEA {
                    break;
                }
            }
            if danger <= SAFE_SEA {
                self.commit(ship, &route[..=stop], called);
                return;
            }
            if fallback.is_none_or(|(d, _)| alone < d) {
                fallback = Some((alone, stop));
            }
        }
        let stop = fallback.map_or(0, |(_, s)| s);
        self.commit(ship, &route[..=stop], Vec::new());
    }

    fn commit(&mut self, ship: &'r Unit, route: &[SpaceId], escorts: Vec<(&'r Unit, Vec<SpaceId>)>) {
        let z = *route.last().unwrap_or(&ship.at);
        if route.len() >= 2 {
            self.moves.push(sail(ship, route.to_vec()));
        }
        let group = self.at.entry(z).or_default();
        group.push(ship);
        for (w, r) in escorts {
            group.push(w);
            self.free.retain(|f| f.id != w.id);
            if r.len() >= 2 {
                self.moves.push(sail(w, r));
            }
        }
    }

    /// Zones where convoys stop (with their cargo aboard), for warships
    /// left free to join.
    pub(crate) fn convoy_zones(&self) -> Vec<SpaceId> {
        let rs = self.rel.rs;
        let s = self.rel.s;
        self.at
            .iter()
            .filter(|(_, ships)| ships.iter().any(|u| u.owner == self.p && rs.stats(u.kind).transport_capacity() > 0 && (self.moving.contains(&u.id) || s.cargo_of(u.id).next().is_some())))
            .map(|(z, _)| *z)
            .collect()
    }

    /// Warships still free: each sails toward the nearest convoy as far as
    /// it stays safe (with the other free warships as escorts), or stays.
    pub(crate) fn gather(&mut self) {
        let zones = self.convoy_zones();
        if zones.is_empty() {
            return;
        }
        while let Some(w) = self.free.first().copied() {
            self.free.remove(0);
            let open = |x: SpaceId| self.open_sea[x.index()];
            let d = geo::sea_distances(self.rel, self.p, w.at, open);
            match zones.iter().copied().filter(|z| d[z.index()] < FAR).min_by_key(|z| (d[z.index()], z.0)) {
                Some(goal) if goal != w.at => self.advance(w, goal),
                _ => self.at.entry(w.at).or_default().push(w),
            }
        }
    }
}

/// How far `tr` can sail this combat move: its sea distance to each zone
/// through clear zones and open canals, FAR beyond the moves it has left
/// (all but its own zone once it has moved in combat).
pub(crate) fn sailing_range(rel: &Relations<'_>, open_sea: &[bool], tr: &Unit) -> Vec<u32> {
    let left = if tr.flags.moved_in_combat { 0 } else { rel.rs.stats(tr.kind).movement.saturating_sub(tr.moved) as u32 };
    let mut d = geo::sea_distances(rel, tr.owner, tr.at, |x| open_sea[x.index()]);
    for x in d.iter_mut().filter(|x| **x > left) {
        *x = FAR;
    }
    d
}

/// Loaded transports' routes to a zone beside `t` for a landing this combat
/// move: every transport in `loaded` (each with its [`sailing_range`]) that
/// can reach a clear zone beside `t`, by way of the nearest such zone (a
/// route of one space: already there).
pub(crate) fn landing_routes<'r>(rel: &Relations<'r>, open_sea: &[bool], t: SpaceId, loaded: &[(&'r Unit, &[u32])]) -> Vec<(&'r Unit, Vec<SpaceId>)> {
    let rs = rel.rs;
    let beside: Vec<SpaceId> = rs.map.neighbours(t).iter().copied().filter(|z| rs.map.is_sea(*z) && open_sea[z.index()]).collect();
    let open = |x: SpaceId| open_sea[x.index()];
    let mut out = Vec::new();
    for (tr, d) in loaded {
        if let Some(z) = beside.iter().copied().filter(|z| d[z.index()] < FAR).min_by_key(|z| (d[z.index()], z.0)) {
            if let Some(route) = geo::sea_path(rel, tr.owner, tr.at, z, open) {
                out.push((*tr, route));
            }
        }
    }
    out
}

/// Where a convoy with troops aboard heads: the zone beside enemy land
/// whose best shore is worth most for how little defends it and how near
/// it is (`reach`: the transport's sea distance to a zone, or FAR).
pub(crate) fn invasion_goal(rel: &Relations<'_>, p: PowerId, targets: &[SpaceId], reach: impl Fn(SpaceId) -> u32, prize: impl Fn(SpaceId) -> u32) -> Option<SpaceId> {
    let rs = rel.rs;
    let mut best: Option<(f64, SpaceId)> = None;
    for &z in targets {
        let r = reach(z);
        if r >= FAR {
            continue;
        }
        let shore = rs
            .map
            .neighbours(z)
            .iter()
            .copied()
            .filter(|t| rel.enemy_land(p, *t))
            .map(|t| {
                let defence: f64 = rel.enemy_defenders(p, t).map(|u| rs.stats(u.kind).defense as f64 * rs.stats(u.kind).hit_points.max(1) as f64).sum();
                prize(t) as f64 / (1.0 + defence / 2.0)
            })
            .fold(0.0, f64::max);
        // A transport sails two zones a turn: each turn on the way counts.
        let value = shore / (1.0 + (r as f64 / 2.0).ceil());
        if best.is_none_or(|(v, b)| value > v || (value == v && z.0 < b.0)) {
            best = Some((value, z));
        }
    }
    best.map(|(_, z)| z)
}
