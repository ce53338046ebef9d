//! Landings that take their troops aboard on the way (issue 14): in the
//! combat move an empty transport sails to a friendly shore, takes troops
//! aboard, sails on beside the enemy shore and lands them, all in one move
//! (DAAK 3.2(c): a transport may move before, between and after loading;
//! 3.2(b): troops board before they move, and landing ends their move).
//!
//! Why: the planner landed only troops that had boarded in an earlier turn,
//! so every landing first waited a turn aboard, in reach of the enemy, and
//! empty transports beside an island sailed off to far shores for troops
//! while armies stood on the coast next to them (classic, planner against
//! planner: 20 American transports beside Japan went back to the Bering Sea
//! for seven infantry while British armor waited in the Soviet Far East).

use crate::convoy;
use crate::geo::{self, FAR};
use std::collections::{HashMap, HashSet};
use warboard_rules::game::Relations;
use warboard_rules::ids::{SpaceId, UnitId};
use warboard_rules::state::Unit;
use warboard_rules::Action;

/// One transport's part in a landing on a target.
pub(crate) struct Pickup<'r> {
    pub transport: &'r Unit,
    /// Its route to the zone where the troops board (one space: it is
    /// there).
    to_shore: Vec<SpaceId>,
    /// Where the troops board from.
    shore: SpaceId,
    pub troops: Vec<&'r Unit>,
    /// On from where it loads to the zone it lands from (one space: it
    /// lands from where it loads).
    to_landing: Vec<SpaceId>,
}

impl Pickup<'_> {
    /// The moves that carry the troops onto `target`, in order.
    pub fn moves(&self, target: SpaceId) -> Vec<Action> {
        let troops: Vec<UnitId> = self.troops.iter().map(|u| u.id).collect();
        let tr = self.transport.id;
        let boarding = *self.to_shore.last().unwrap_or(&self.transport.at);
        let mut out = Vec::new();
        if self.to_shore.len() >= 2 {
            out.push(Action::Move { units: vec![tr], route: self.to_shore.clone(), transport: None, bombing: false });
        }
        if self.to_landing.len() >= 2 {
            out.push(Action::Move { units: troops.clone(), route: vec![self.shore, boarding], transport: Some(tr), bombing: false });
            out.push(Action::Move { units: vec![tr], route: self.to_landing.clone(), transport: None, bombing: false });
            out.push(Action::Move { units: troops, route: vec![*self.to_landing.last().unwrap(), target], transport: None, bombing: false });
        } else {
            // Board and land in one move: the rules take both steps of one
            // route (shore, zone, target).
            out.push(Action::Move { units: troops, route: vec![self.shore, boarding, target], transport: Some(tr), bombing: false });
        }
        out
    }
}

/// The pickups that can land on `target` this combat move, the fullest
/// first: each empty transport in `transports` loads where the most
/// attack waits within its reach, from `available(shore)` (the troops that
/// may board there, best first), and lands from a clear zone beside the
/// target. A troop boards one transport at most.
pub(crate) fn pickups<'r>(rel: &Relations<'r>, open_sea: &[bool], target: SpaceId, transports: &[&'r Unit], available: impl Fn(SpaceId) -> Vec<&'r Unit>) -> Vec<Pickup<'r>> {
    let rs = rel.rs;
    let open = |x: SpaceId| open_sea[x.index()];
    let beside: Vec<SpaceId> = rs.map.neighbours(target).iter().copied().filter(|z| rs.map.is_sea(*z) && open(*z)).collect();
    if beside.is_empty() {
        return Vec::new();
    }
    // Sea distances from each zone a transport may load in, worked out once.
    let mut from: HashMap<SpaceId, Vec<u32>> = HashMap::new();
    let mut taken: HashSet<UnitId> = HashSet::new();
    let mut out: Vec<Pickup<'r>> = Vec::new();
    for &tr in transports {
        let range = convoy::sailing_range(rel, open_sea, tr);
        let left = rs.stats(tr.kind).movement.saturating_sub(tr.moved) as u32;
        let room = rel.transport_room(tr.id);
        // The best (attack aboard, fewest steps) boarding zone, shore,
        // troops and landing zone.
        let mut best: Option<(u32, u32, SpaceId, SpaceId, SpaceId, Vec<&'r Unit>)> = None;
        for z in rs.map.ids().filter(|z| range[z.index()] < FAR) {
            let d = from.entry(z).or_insert_with(|| geo::sea_distances(rel, tr.owner, z, open));
            let Some(landing) = beside.iter().copied().filter(|b| d[b.index()] < FAR && range[z.index()] + d[b.index()] <= left).min_by_key(|b| (d[b.index()], b.0)) else {
                continue;
            };
            let steps = range[z.index()] + d[landing.index()];
            for &shore in rs.map.neighbours(z) {
                if !rs.map.is_land(shore) {
                    continue;
                }
                let mut space = room;
                let mut aboard: Vec<&Unit> = Vec::new();
                for u in available(shore).into_iter().filter(|u| !taken.contains(&u.id)) {
                    let cost = rs.stats(u.kind).transport_cost();
                    if cost > 0 && cost <= space {
                        space -= cost;
                        aboard.push(u);
                    }
                }
                let attack: u32 = aboard.iter().map(|u| rs.stats(u.kind).attack as u32).sum();
                if attack == 0 {
                    continue;
                }
                let better = best.as_ref().is_none_or(|b| (attack, std::cmp::Reverse(steps)) > (b.0, std::cmp::Reverse(b.1)));
                if better {
                    best = Some((attack, steps, z, shore, landing, aboard));
                }
            }
        }
        let Some((_, _, z, shore, landing, troops)) = best else { continue };
        let (Some(to_shore), Some(to_landing)) = (geo::sea_path(rel, tr.owner, tr.at, z, open), geo::sea_path(rel, tr.owner, z, landing, open)) else {
            continue;
        };
        taken.extend(troops.iter().map(|u| u.id));
        out.push(Pickup { transport: tr, to_shore, shore, troops, to_landing });
    }
    out.sort_by_key(|p| (std::cmp::Reverse(p.troops.iter().map(|u| rs.stats(u.kind).attack as u32).sum::<u32>()), p.transport.id));
    out
}
