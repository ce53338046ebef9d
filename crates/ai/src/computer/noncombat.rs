//! The non-combat move: aircraft land safely nearest the enemy, transports
//! load and carry troops (to friendly shores near the front, toward enemy
//! shores, or in escorted convoys), warships keep with them, land units
//! march to the front and the capital keeps its garrison.

use super::{clear_seas, prize, ComputerPlayer, SHUTTLE_FRONT};
use crate::convoy::{self, Convoys};
use crate::geo::{self, FAR};
use crate::odds::Odds;
use std::collections::{BTreeMap, HashSet, VecDeque};
use warboard_rules::game::Relations;
use warboard_rules::ids::{SpaceId, UnitId};
use warboard_rules::state::Unit;
use warboard_rules::{Action, Game};

impl<O: Odds> ComputerPlayer<O> {
    pub(super) fn plan_noncombat(&self, game: &Game) -> VecDeque<Action> {
        let s = &game.state;
        let rs = &game.ruleset;
        let p = s.turn;
        let rel = game.relations();
        let front = geo::land_distance_to_enemy(&rel, p);
        let capital = geo::home(rs, p);
        let garrison = self.garrison(game, p);
        let allowed = geo::allowed(&rel, p);
        let mut plan = VecDeque::new();

        // Aircraft: land where it is safe, nearest the enemy (by air).
        let air_front = {
            let mut d = vec![FAR; rs.map.len()];
            let mut queue: VecDeque<SpaceId> = rs.map.ids().filter(|t| rel.enemy_land(p, *t)).collect();
            for t in &queue {
                d[t.index()] = 0;
            }
            while let Some(x) = queue.pop_front() {
                for &n in rs.map.neighbours(x) {
                    if d[n.index()] == FAR {
                        d[n.index()] = d[x.index()] + 1;
                        queue.push_back(n);
                    }
                }
            }
            d
        };
        for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air()) {
            let left = (rs.stats(a.kind).movement.saturating_sub(a.moved)) as u32;
            let here_ok = rs.map.is_land(a.at) && rel.friendly_since_start(p, a.at) && front[a.at.index()] >= 1;
            let carrier_here = rs.map.is_sea(a.at) && s.units_at(a.at).any(|c| rs.allied(p, c.owner) && rs.stats(c.kind).carrier_capacity() > 0);
            if (here_ok && a.moved == 0 && air_front[a.at.index()] <= 3) || carrier_here || left == 0 {
                continue;
            }
            let d = geo::distances(&rel, a.at, |x| !rel.neutral(x) && allowed[x.index()]);
            let best = rs
                .map
                .ids()
                .filter(|t| d[t.index()] <= left && rel.friendly_since_start(p, *t) && front[t.index()] >= 1)
                .min_by_key(|t| (air_front[t.index()].max(2), std::cmp::Reverse(s.units_at(*t).filter(|u| u.owner == p).count()), d[t.index()]));
            if let Some(t) = best {
                if t != a.at {
                    if let Some(route) = geo::path(&rel, a.at, t, |x| !rel.neutral(x) && allowed[x.index()]) {
                        plan.push_back(Action::Move { units: vec![a.id], route, transport: None, bombing: false });
                    }
                }
            }
        }

        // Transports: load troops and carry them toward the enemy's shores.
        let open_sea = clear_seas(&rel, p);
        let clear = |z: SpaceId| open_sea[z.index()];
        // Troops waiting for a ship beside each sea zone: this power's
        // transportable units on friendly shores away from the front.
        let mut transportable = vec![0usize; rs.map.len()];
        for u in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).transport_cost() > 0 && rs.stats(u.kind).is_combatant()) {
            transportable[u.at.index()] += 1;
        }
        let waiting: Vec<usize> = rs
            .map
            .ids()
            .map(|z| {
                if !rs.map.is_sea(z) {
                    return 0;
                }
                rs.map.neighbours(z).iter().filter(|t| rel.friendly_land(p, **t) && front[t.index()] >= 2).map(|t| transportable[t.index()]).sum()
            })
            .collect();
        let mut boarded: HashSet<UnitId> = HashSet::new();
        // With convoys: loaded transports bound for a zone, moved together
        // after this loop (crate::convoy), and the transports moved here.
        let mut convoy_bound: Vec<(&Unit, SpaceId, usize)> = Vec::new();
        let mut sailed: Vec<&Unit> = Vec::new();
        let target_zones: Vec<SpaceId> = rs
            .map
            .ids()
            .filter(|z| rs.map.is_sea(*z) && rs.map.neighbours(*z).iter().any(|t| rel.enemy_land(p, *t)))
            .collect();
        for tr in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0) {
            if tr.flags.moved_in_combat || tr.flags.fought || tr.flags.transport_unloaded || !clear(tr.at) {
                continue;
            }
            let mut cargo: Vec<UnitId> = s.cargo_of(tr.id).map(|c| c.id).collect();
            let mut room = rel.transport_room(tr.id);
            // Load from a shore beside it.
            if room > 0 && cargo.iter().all(|c| s.unit(*c).unwrap().owner == p) {
                for &shore in rs.map.neighbours(tr.at) {
                    if !rel.friendly_land(p, shore) || room == 0 {
                        continue;
                    }
                    let keep = if shore == capital { garrison } else { 0 };
                    let mut here: Vec<&Unit> = s
                        .units
                        .iter()
                        .filter(|u| u.at == shore && u.owner == p && u.moved == 0 && !u.flags.moved_in_combat && !u.flags.unloaded && !boarded.contains(&u.id))
                        .filter(|u| rs.stats(u.kind).transport_cost() > 0 && rs.stats(u.kind).is_combatant())
                        .collect();
                    here.sort_by_key(|u| rs.stats(u.kind).transport_cost());
                    let spare = here.len().saturating_sub(keep);
                    for u in here.into_iter().take(spare) {
                        let c = rs.stats(u.kind).transport_cost();
                        if c <= room {
                            room -= c;
                            boarded.insert(u.id);
                            cargo.push(u.id);
                            plan.push_back(Action::Move { units: vec![u.id], route: vec![shore, tr.at], transport: Some(tr.id), bombing: false });
                        }
                    }
                }
            }
            if cargo.is_empty() {
                // Go where troops wait for a ship: a friendly shore with the
                // most of this power's transportable units.
                let d = geo::sea_distances(&rel, p, tr.at, clear);
                let goal = rs
                    .map
                    .ids()
                    .filter(|z| rs.map.is_sea(*z) && d[z.index()] < FAR && waiting[z.index()] > 0)
                    .min_by_key(|z| (d[z.index()], std::cmp::Reverse(waiting[z.index()])));
                if let Some(goal) = goal {
                    sailed.push(tr);
                    plan.extend(sail_toward(&rel, tr, goal, &open_sea));
                }
                continue;
            }
            // Sail toward the nearest zone beside enemy land, through zones
            // without enemy ships.
            // A goal zone held by enemy ships is approached, not entered: the
            // fleet clears it in the next combat move.
            let d = geo::sea_distances(&rel, p, tr.at, clear);
            let reach = |z: SpaceId| d[z.index()].min(rs.map.neighbours(z).iter().map(|n| d[n.index()].saturating_add(1)).min().unwrap_or(FAR));
            // A friendly shore near the land front, where the troops march
            // on (with `shuttle`): the nearest by sea, then the nearest the
            // front.
            let drop = |z: SpaceId| {
                rs.map
                    .neighbours(z)
                    .iter()
                    .copied()
                    .filter(|t| rel.friendly_land(p, *t) && allowed[t.index()] && front[t.index()] <= SHUTTLE_FRONT && front[t.index()] >= 1)
                    .min_by_key(|t| (front[t.index()], t.0))
            };
            let near = if self.style.shuttle {
                let left = rs.stats(tr.kind).movement.saturating_sub(tr.moved) as u32;
                rs.map.ids().filter(|z| rs.map.is_sea(*z) && d[z.index()] <= left).filter_map(|z| drop(z).map(|t| (z, t))).min_by_key(|(z, t)| (front[t.index()], d[z.index()], z.0))
            } else {
                None
            };
            // With convoys, unless such a shore is within this move: toward
            // the shore most worth invading, as far as is safe, with escorts.
            if self.style.convoys && near.is_none() {
                if let Some(goal) = convoy::invasion_goal(&rel, p, &target_zones, reach, |t| prize(rs, t)) {
                    convoy_bound.push((tr, goal, cargo.len()));
                    continue;
                }
            }
            if self.style.shuttle {
                if let Some((z, t)) = near {
                    if z != tr.at {
                        match geo::sea_path(&rel, p, tr.at, z, clear) {
                            Some(route) if route.len() >= 2 => {
                                sailed.push(tr);
                                plan.push_back(Action::Move { units: vec![tr.id], route, transport: None, bombing: false })
                            }
                            _ => continue,
                        }
                    }
                    plan.push_back(Action::Move { units: cargo, route: vec![z, t], transport: None, bombing: false });
                    continue;
                }
                // Farther off: toward the nearer of a friendly shore and an
                // enemy one.
                let friendly = rs.map.ids().filter(|z| rs.map.is_sea(*z) && d[z.index()] < FAR && drop(*z).is_some()).min_by_key(|z| (d[z.index()], z.0));
                let enemy = target_zones.iter().copied().filter(|z| reach(*z) < FAR).min_by_key(|z| reach(*z));
                let goal = match (friendly, enemy) {
                    (Some(f), Some(e)) => Some(if d[f.index()] <= reach(e) { f } else { e }),
                    (f, e) => f.or(e),
                };
                if let Some(goal) = goal {
                    sailed.push(tr);
                    plan.extend(sail_toward(&rel, tr, goal, &open_sea));
                }
                continue;
            }
            if let Some(goal) = target_zones.iter().copied().filter(|z| reach(*z) < FAR).min_by_key(|z| reach(*z)) {
                sailed.push(tr);
                plan.extend(sail_toward(&rel, tr, goal, &open_sea));
            }
        }

        if self.style.convoys {
            // Convoys sail as far as is safe, with the warships they need;
            // the other warships join the nearest convoy where that is safe.
            let escorts: Vec<&Unit> = s
                .units
                .iter()
                .filter(|u| u.owner == p && rs.map.is_sea(u.at) && u.moved == 0 && !u.flags.moved_in_combat && !u.flags.fought)
                .filter(|u| {
                    let st = rs.stats(u.kind);
                    st.is_sea() && st.defense > 0 && st.transport_capacity() == 0 && st.carrier_capacity() == 0
                })
                .collect();
            let mut movers = sailed.clone();
            movers.extend(convoy_bound.iter().map(|(tr, _, _)| *tr));
            let mut convoys = Convoys::new(&rel, &game.ruleset, &self.odds, p, &open_sea, &movers, escorts);
            // The most troops aboard first: they get the escorts.
            convoy_bound.sort_by_key(|(tr, _, aboard)| (std::cmp::Reverse(*aboard), tr.id));
            for (tr, goal, _) in convoy_bound {
                convoys.advance(tr, goal);
            }
            convoys.gather();
            plan.extend(convoys.moves);
        } else {
            // Warships keep with the loaded transports.
            let convoy: Vec<SpaceId> = s
                .units
                .iter()
                .filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0 && s.cargo_of(u.id).next().is_some())
                .map(|u| u.at)
                .collect();
            for w in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_sea() && rs.stats(u.kind).attack > 0) {
                if w.moved > 0 || w.flags.moved_in_combat || w.flags.fought || convoy.is_empty() || convoy.contains(&w.at) {
                    continue;
                }
                let d = geo::sea_distances(&rel, p, w.at, clear);
                if let Some(&goal) = convoy.iter().filter(|z| d[z.index()] < FAR).min_by_key(|z| d[z.index()]) {
                    plan.extend(sail_toward(&rel, w, goal, &open_sea));
                }
            }
        }

        // Land units: toward the front, keeping the capital's garrison.
        let mut groups: BTreeMap<SpaceId, Vec<&Unit>> = BTreeMap::new();
        for u in s.units.iter().filter(|u| u.owner == p && rs.map.is_land(u.at) && !boarded.contains(&u.id)) {
            let st = rs.stats(u.kind);
            if st.is_land() && st.movement > 0 && !u.flags.moved_in_combat && !u.flags.unloaded && !u.flags.captured && u.moved == 0 {
                groups.entry(u.at).or_default().push(u);
            }
        }
        let capital_in_danger = self.capital_in_danger(game, p);
        // A territory holds one AA gun at most: guns are not sent where one
        // stands (or is going).
        let mut aa_guns = vec![0u32; rs.map.len()];
        for u in s.units.iter().filter(|u| rs.stats(u.kind).anti_aircraft > 0) {
            aa_guns[u.at.index()] += 1;
        }
        for (at, mut units) in groups {
            if at == capital {
                units.sort_by_key(|u| std::cmp::Reverse(rs.stats(u.kind).defense));
                let keep = garrison.min(units.len());
                units.drain(..keep);
            }
            for u in units {
                let st = rs.stats(u.kind);
                // Reinforce a threatened capital first.
                let goal = if capital_in_danger && rs.map.adjacent(at, capital) && rel.friendly_land(p, capital) {
                    Some(capital)
                } else if front[at.index()] >= 2 && front[at.index()] < FAR {
                    let d = geo::distances(&rel, at, |x| rel.friendly_land(p, x) && allowed[x.index()]);
                    rs.map
                        .ids()
                        .filter(|t| d[t.index()] >= 1 && d[t.index()] <= st.movement as u32 && rel.friendly_land(p, *t) && allowed[t.index()])
                        .min_by_key(|t| (front[t.index()], d[t.index()]))
                        .filter(|t| front[t.index()] < front[at.index()])
                } else {
                    None
                };
                if let Some(t) = goal {
                    if let Some(route) = geo::path(&rel, at, t, |x| rel.friendly_land(p, x) && allowed[x.index()]) {
                        if route.len() >= 2 && route.len() - 1 <= st.movement as usize {
                            if st.anti_aircraft > 0 {
                                if aa_guns[t.index()] > 0 {
                                    continue;
                                }
                                aa_guns[t.index()] += 1;
                                aa_guns[at.index()] -= 1;
                            }
                            plan.push_back(Action::Move { units: vec![u.id], route, transport: None, bombing: false });
                        }
                    }
                }
            }
        }
        plan
    }
}

/// A non-combat move of a ship as far as it can go toward `goal`, through
/// and into zones free of enemy units (a goal the enemy holds is approached,
/// not entered: the fleet clears it in the next combat move).
fn sail_toward(rel: &Relations<'_>, ship: &Unit, goal: SpaceId, open_sea: &[bool]) -> Option<Action> {
    let route = geo::sail_route(rel, ship, goal, open_sea);
    (route.len() >= 2).then(|| Action::Move { units: vec![ship.id], route, transport: None, bombing: false })
}
