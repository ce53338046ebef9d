//! Routes between two spaces that the rules accept, shortest first, for
//! every interface that lets a player name only where units go (issue 33,
//! point 4: `move 2 ftr GER NTH`) and for the protocol's `legal` listing.
//! The rules alone judge each route (`ok` tries it on a copy); this only
//! decides which routes to try, and in what order.

use crate::ruleset::Map;
use crate::SpaceId;
use std::collections::VecDeque;

/// Distances from `start` over the map's connections, ignoring the rules.
pub fn distances(map: &Map, start: SpaceId) -> Vec<u32> {
    let mut dist = vec![u32::MAX; map.len()];
    dist[start.index()] = 0;
    let mut queue = VecDeque::from([start]);
    while let Some(here) = queue.pop_front() {
        for &n in map.neighbours(here) {
            if dist[n.index()] == u32::MAX {
                dist[n.index()] = dist[here.index()] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The first route from `from` to `to` of at most `budget` steps that `ok`
/// accepts, shortest routes first, trying at most `tries` routes (a space
/// reachable only by a longer detour than the first few may be missed).
pub fn shortest_route(map: &Map, from: SpaceId, to: SpaceId, budget: u32, tries: usize, ok: &mut dyn FnMut(&[SpaceId]) -> bool) -> Option<Vec<SpaceId>> {
    if from == to {
        return None;
    }
    let back = distances(map, to);
    if back[from.index()] > budget {
        return None;
    }
    let mut route = vec![from];
    let mut tries_left = tries;
    search(map, &back, budget, &mut route, ok, &mut tries_left).then_some(route)
}

/// Depth-first search for a route to the destination whose distances are
/// `back`, nearer spaces first, trying at most `tries_left` more routes.
fn search(map: &Map, back: &[u32], budget: u32, route: &mut Vec<SpaceId>, ok: &mut dyn FnMut(&[SpaceId]) -> bool, tries_left: &mut usize) -> bool {
    let here = *route.last().expect("a route starts somewhere");
    if back[here.index()] == 0 {
        if *tries_left == 0 {
            return false;
        }
        *tries_left -= 1;
        return ok(route);
    }
    let steps_left = budget.saturating_sub(route.len() as u32 - 1);
    let mut next: Vec<SpaceId> = map.neighbours(here).iter().copied().filter(|n| back[n.index()] < steps_left && !route.contains(n)).collect();
    next.sort_by_key(|n| back[n.index()]);
    for n in next {
        if *tries_left == 0 {
            return false;
        }
        route.push(n);
        if search(map, back, budget, route, ok, tries_left) {
            return true;
        }
        route.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_accepted_route_is_found() {
        let rs = crate::ruleset("classic").unwrap();
        let id = |s: &str| rs.map.id(s).unwrap();
        // Any route: the shortest, two steps over one of Germany's
        // neighbours.
        let r = shortest_route(&rs.map, id("GER"), id("NOR"), 4, 12, &mut |_| true).unwrap();
        assert_eq!((r.len(), r[0], r[2]), (3, id("GER"), id("NOR")));
        // Routes through the Baltic refused: another is found.
        let bal = id("BAL");
        let r = shortest_route(&rs.map, id("GER"), id("NOR"), 4, 12, &mut |r: &[SpaceId]| !r.contains(&bal)).unwrap();
        assert!(!r.contains(&bal) && r.last() == Some(&id("NOR")), "{r:?}");
        // Out of reach, or nothing accepted: none.
        assert_eq!(shortest_route(&rs.map, id("GER"), id("NOR"), 1, 12, &mut |_| true), None);
        assert_eq!(shortest_route(&rs.map, id("GER"), id("NOR"), 4, 12, &mut |_| false), None);
    }
}
