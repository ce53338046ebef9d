//! The combat move: landings from loaded transports, land attacks on the
//! most valuable targets, bombing raids, fleets against enemy ships (with
//! the landings their victories open).

use super::{clear_seas, prize, ComputerPlayer};
use crate::convoy;
use crate::ferry;
use crate::geo::{self, FAR};
use crate::odds::Odds;
use crate::siege;
use crate::threat::stacks;
use std::collections::{HashSet, VecDeque};
use warboard_rules::game::Relations;
use warboard_rules::ids::{PowerId, SpaceId, UnitId};
use warboard_rules::state::Unit;
use warboard_rules::{Action, Game};

impl<O: Odds> ComputerPlayer<O> {
    pub(super) fn plan_attacks(&self, game: &Game) -> VecDeque<Action> {
        let s = &game.state;
        let rs = &game.ruleset;
        let p = s.turn;
        let rel = game.relations();
        let mut plan = VecDeque::new();
        let mut used: HashSet<UnitId> = HashSet::new();
        let capital = geo::home(rs, p);
        let garrison = self.garrison(game, p);
        let allowed = geo::allowed(&rel, p);
        let air_lanes = AirLanes::new(&rel, &allowed);
        // Enemy territories a planned move enters: an empty one is taken by
        // the first unit in, and a second move into it would be no attack.
        let mut entered: HashSet<SpaceId> = HashSet::new();

        // Amphibious landings: every loaded transport beside a target lands
        // together, with aircraft in range, when the odds are good.
        let loaded: Vec<&Unit> = s
            .units
            .iter()
            .filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0 && !u.flags.transport_unloaded)
            .filter(|u| rel.enemy_units(p, u.at).next().is_none() && s.cargo_of(u.id).any(|c| c.owner == p))
            .collect();
        let open_sea = clear_seas(&rel, p);
        // With convoys, transports that can reach a zone beside the shore
        // this move land too, not only those already beside it.
        // Each loaded transport's sailing range this move (with convoys).
        let ranges: Vec<Vec<u32>> = if self.style.convoys { loaded.iter().map(|tr| convoy::sailing_range(&rel, &open_sea, tr)).collect() } else { Vec::new() };
        let landing_zones: Vec<SpaceId> = if self.style.convoys {
            ranges.iter().flat_map(|d| rs.map.ids().filter(|z| d[z.index()] < FAR)).collect()
        } else {
            loaded.iter().map(|tr| tr.at).collect()
        };
        // With pickups, against the last enemy capital: the empty transports
        // that may still sail (crate::ferry), which may make it a shore to
        // land on although no loaded transport reaches it.
        let siege_of = if self.style.pickups { siege::last_capital(&rel, p) } else { None };
        let empty: Vec<&Unit> = match siege_of {
            Some(_) => s
                .units
                .iter()
                .filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0 && s.cargo_of(u.id).next().is_none())
                .filter(|u| !u.flags.transport_unloaded && !u.flags.moved_in_combat && !u.flags.fought && u.moved == 0 && open_sea[u.at.index()])
                .collect(),
            None => Vec::new(),
        };
        // Where troops may be picked up from: away from the land front
        // (worked out only when there are transports to pick them up).
        let front = if empty.is_empty() { Vec::new() } else { geo::land_distance_to_enemy(&rel, p) };
        let mut shores: Vec<SpaceId> = landing_zones.iter().flat_map(|z| rs.map.neighbours(*z).iter().copied()).filter(|t| rel.enemy_land(p, *t)).collect();
        let pickup_only = siege_of.filter(|c| !empty.is_empty() && !shores.contains(c));
        shores.extend(pickup_only);
        shores.sort_by_key(|t| std::cmp::Reverse((rs.map.space(*t).capital_of.is_some(), prize(rs, *t))));
        let mut listed = HashSet::new();
        shores.retain(|t| listed.insert(*t));
        for t in shores {
            let defenders: Vec<&Unit> = rel.enemy_defenders(p, t).chain(enemy_aa(&rel, p, t)).collect();
            // Each boat with its route to the zone it lands from (one space:
            // it is there already).
            let mut boats: Vec<(&Unit, Vec<SpaceId>)> = if self.style.convoys {
                let free: Vec<(&Unit, &[u32])> = loaded.iter().copied().zip(ranges.iter().map(|d| d.as_slice())).filter(|(tr, _)| !used.contains(&tr.id)).collect();
                convoy::landing_routes(&rel, &open_sea, t, &free)
            } else {
                loaded.iter().copied().filter(|tr| !used.contains(&tr.id) && rs.map.adjacent(tr.at, t)).map(|tr| (tr, vec![tr.at])).collect()
            };
            // An undefended shore is taken by the first troops to land: the
            // boats of one zone land together, in one move.
            let undefended = rel.enemy_defenders(p, t).next().is_none();
            if undefended {
                let zone = boats.first().and_then(|b| b.1.last().copied());
                boats.retain(|b| b.1.last().copied() == zone);
            }
            let mut force: Vec<&Unit> = boats.iter().flat_map(|(tr, _)| s.cargo_of(tr.id)).filter(|c| c.owner == p).collect();
            let mut air: Vec<&Unit> = Vec::new();
            // Aircraft join only a landing that has a battle to fight.
            let fight = !undefended;
            for a in s.units.iter().filter(|u| fight && u.owner == p && rs.stats(u.kind).is_air() && !used.contains(&u.id)) {
                if air_lanes.strikes(a, t) {
                    air.push(a);
                }
            }
            force.extend(air.iter().copied());
            // Battleships beside the landing bombard it (DAAK 3.5): count them.
            let zones: Vec<SpaceId> = boats.iter().filter_map(|b| b.1.last().copied()).collect();
            force.extend(s.units.iter().filter(|u| u.owner == p && zones.contains(&u.at) && rs.stats(u.kind).bombard > 0 && !u.flags.fought));
            // Troops picked up on the way join a landing that has a battle to
            // fight, one transport at a time, the fullest first, until the odds
            // are good (crate::ferry). They come from shores away from the land
            // front (where they would attack on foot) and never from the
            // capital's garrison.
            let mut pickups: Vec<ferry::Pickup> = Vec::new();
            if fight && !empty.is_empty() && siege_of == Some(t) {
                let free: Vec<&Unit> = empty.iter().copied().filter(|tr| !used.contains(&tr.id)).collect();
                let available = |shore: SpaceId| -> Vec<&Unit> {
                    if !rel.friendly_land(p, shore) || front[shore.index()] < 2 {
                        return Vec::new();
                    }
                    let mut here: Vec<&Unit> = s
                        .units
                        .iter()
                        .filter(|u| u.at == shore && u.owner == p && !used.contains(&u.id) && u.moved == 0 && !u.flags.moved_in_combat && !u.flags.unloaded)
                        .filter(|u| {
                            let st = rs.stats(u.kind);
                            st.is_land() && st.is_combatant() && st.transport_cost() > 0
                        })
                        .collect();
                    if shore == capital {
                        here.sort_by_key(|u| std::cmp::Reverse(rs.stats(u.kind).defense));
                        here.drain(..garrison.min(here.len()));
                    }
                    // The strongest attackers board first.
                    here.sort_by_key(|u| (std::cmp::Reverse(rs.stats(u.kind).attack), rs.stats(u.kind).cost, u.id));
                    here
                };
                for pick in ferry::pickups(&rel, &open_sea, t, &free, available) {
                    if !force.is_empty() && self.win_chance(game, &force, &defenders, true) >= 0.9 {
                        break;
                    }
                    force.extend(pick.troops.iter().copied());
                    pickups.push(pick);
                }
            }
            // Aircraft alone take no shore: a capital only empty transports
            // reach waits for troops picked up on the way.
            if pickup_only == Some(t) && pickups.is_empty() {
                continue;
            }
            // Against an enemy capital, allies' troops landing right after
            // count too: the first landing wears the garrison down for them.
            let mut judged = force.clone();
            if rs.map.space(t).capital_of.is_some() {
                judged.extend(
                    s.units
                        .iter()
                        .filter(|tr| tr.owner != p && rs.allied(p, tr.owner) && rs.stats(tr.kind).transport_capacity() > 0 && rs.map.adjacent(tr.at, t))
                        .flat_map(|tr| s.cargo_of(tr.id)),
                );
            }
            if force.is_empty() || !(self.worth_attacking(game, t, &judged, &defenders, true) || self.attrition_pays(game, t, &force, &defenders, true)) {
                continue;
            }
            entered.insert(t);
            let mut together: Vec<UnitId> = Vec::new();
            for (tr, route) in &boats {
                used.insert(tr.id);
                let cargo: Vec<UnitId> = s.cargo_of(tr.id).map(|c| c.id).collect();
                used.extend(cargo.iter().copied());
                if route.len() >= 2 {
                    plan.push_back(Action::Move { units: vec![tr.id], route: route.clone(), transport: None, bombing: false });
                }
                let from = *route.last().unwrap_or(&tr.at);
                if undefended {
                    together.extend(cargo);
                } else {
                    plan.push_back(Action::Move { units: cargo, route: vec![from, t], transport: None, bombing: false });
                }
            }
            if let (false, Some((b, route))) = (together.is_empty(), boats.first()) {
                plan.push_back(Action::Move { units: together, route: vec![*route.last().unwrap_or(&b.at), t], transport: None, bombing: false });
            }
            for pick in &pickups {
                used.insert(pick.transport.id);
                used.extend(pick.troops.iter().map(|u| u.id));
                plan.extend(pick.moves(t));
            }
            for a in air {
                used.insert(a.id);
                if let Some(route) = air_lanes.route(a, t) {
                    plan.push_back(Action::Move { units: vec![a.id], route, transport: None, bombing: false });
                }
            }
        }

        // Land attacks: the most valuable targets first.
        let mut targets: Vec<(f64, SpaceId)> = rs
            .map
            .ids()
            .filter(|t| rel.enemy_land(p, *t) && allowed[t.index()])
            .map(|t| (prize(rs, t) as f64, t))
            .collect();
        targets.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, t) in targets {
            let defenders: Vec<&Unit> = rel.enemy_defenders(p, t).chain(enemy_aa(&rel, p, t)).collect();
            let mut pool: Vec<&Unit> = Vec::new();
            for &n in rs.map.neighbours(t) {
                if !rel.friendly_land(p, n) {
                    continue;
                }
                let mut movable: Vec<&Unit> = s
                    .units
                    .iter()
                    .filter(|u| u.at == n && u.owner == p && !used.contains(&u.id) && u.moved == 0)
                    .filter(|u| {
                        let st = rs.stats(u.kind);
                        st.is_land() && st.is_combatant() && st.movement > 0
                    })
                    .collect();
                if n == capital {
                    // Keep the garrison home.
                    movable.sort_by_key(|u| rs.stats(u.kind).defense);
                    let keep = garrison.min(movable.len());
                    movable.drain(movable.len() - keep..);
                }
                pool.extend(movable);
            }
            let fight = rel.enemy_defenders(p, t).next().is_some();
            if pool.is_empty() || (!fight && entered.contains(&t)) {
                continue;
            }
            // Strongest attackers first; stop once the odds are good.
            pool.sort_by_key(|u| std::cmp::Reverse(rs.stats(u.kind).attack));
            let mut chosen: Vec<&Unit> = Vec::new();
            if defenders.is_empty() {
                // Walk in with one unit, the cheapest.
                let one = pool.iter().rev().min_by_key(|u| rs.stats(u.kind).cost).copied().unwrap();
                chosen.push(one);
            } else {
                for u in &pool {
                    chosen.push(u);
                    if self.win_chance(game, &chosen, &defenders, false) >= 0.9 {
                        break;
                    }
                }
                let mut chance = self.win_chance(game, &chosen, &defenders, false);
                // Aircraft in range join a battle that needs them.
                if chance < 0.9 && fight {
                    for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air() && !used.contains(&u.id) && !u.flags.bombing) {
                        if air_lanes.strikes(a, t) {
                            chosen.push(a);
                            chance = self.win_chance(game, &chosen, &defenders, false);
                            if chance >= 0.9 {
                                break;
                            }
                        }
                    }
                }
                if chance < self.style.attack && !self.joint_assault(game, t, &chosen, &defenders) && !self.attrition_pays(game, t, &chosen, &defenders, false) {
                    continue;
                }
                if self.style.counter_attacks && rs.map.space(t).capital_of.is_none() && !self.pays_after_counter_attack(game, t, &chosen, &defenders) {
                    continue;
                }
            }
            entered.insert(t);
            for u in &chosen {
                used.insert(u.id);
                let route = if rs.stats(u.kind).is_air() {
                    match air_lanes.route(u, t) {
                        Some(r) => r,
                        None => continue,
                    }
                } else {
                    vec![u.at, t]
                };
                plan.push_back(Action::Move { units: vec![u.id], route, transport: None, bombing: false });
            }
        }

        // Idle bombers raid the richest enemy factory within reach: a power
        // that cannot buy cannot reinforce.
        let bombers: Vec<&Unit> = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).strategic_bomber && !used.contains(&u.id) && u.moved == 0).collect();
        for b in bombers {
            let target = s
                .units
                .iter()
                .filter(|f| rs.stats(f.kind).factory && rel.enemies(p, f.owner) && rel.enemy_land(p, f.at) && air_lanes.strikes(b, f.at) && !entered.contains(&f.at))
                .filter(|f| s.ipcs[f.owner.index()] >= 3)
                .max_by_key(|f| s.ipcs[f.owner.index()]);
            if let Some(f) = target {
                if let Some(route) = air_lanes.route(b, f.at) {
                    used.insert(b.id);
                    plan.push_back(Action::Move { units: vec![b.id], route, transport: None, bombing: true });
                }
            }
        }

        // Fleets attack enemy ships within reach when clearly stronger;
        // loaded transports within reach sail with them and land beside.
        let clear = |z: SpaceId| open_sea[z.index()];
        let warships: Vec<&Unit> = s
            .units
            .iter()
            .filter(|u| u.owner == p && rs.stats(u.kind).is_sea() && rs.stats(u.kind).attack > 0 && u.moved == 0 && !used.contains(&u.id))
            .collect();
        let screen = if self.style.siege { siege::last_capital_screen(&rel, p) } else { None };
        let enemy_zones: Vec<SpaceId> = rs.map.ids().filter(|z| rs.map.is_sea(*z) && rel.enemy_defenders(p, *z).next().is_some()).collect();
        for z in enemy_zones {
            let mut fleet: Vec<(&Unit, Vec<SpaceId>)> = Vec::new();
            for w in warships.iter().filter(|w| !used.contains(&w.id)) {
                if let Some(route) = geo::route_this_turn(&rel, w, z, clear).filter(|r| r.len() >= 2) {
                    fleet.push((w, route));
                }
            }
            if fleet.is_empty() && !self.style.air_at_sea {
                continue;
            }
            let enemies: Vec<&Unit> = rel.enemy_defenders(p, z).collect();
            let mut force: Vec<&Unit> = fleet.iter().map(|f| f.0).collect();
            let mut chance = if force.is_empty() { 0.0 } else { self.win_chance(game, &force, &enemies, false) };
            // Fighters and bombers in reach join a sea battle that needs
            // them, or strike a fleet on their own: they must fly home
            // again, so only half their range counts.
            if self.style.air_at_sea && chance < 0.9 {
                for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air() && !used.contains(&u.id) && u.moved == 0 && !u.flags.bombing) {
                    if !air_lanes.strikes(a, z) {
                        continue;
                    }
                    let Some(route) = air_lanes.route(a, z) else { continue };
                    force.push(a);
                    fleet.push((a, route));
                    chance = self.win_chance(game, &force, &enemies, false);
                    if chance >= 0.9 {
                        break;
                    }
                }
            }
            // The screen before the last enemy capital is worn down while the
            // trade in IPCs favours it, before it can be swept (crate::siege):
            // the fleet and aircraft strike, no troops follow.
            let wear_down = !force.is_empty()
                && chance < self.style.fleet
                && screen == Some(z)
                && self.odds.assess(rs, &stacks(&force), &stacks(&enemies), false).swing.is_some_and(|w| w > 0.0);
            if force.is_empty() || (chance < self.style.fleet && !wear_down) {
                continue;
            }
            for (w, route) in &fleet {
                used.insert(w.id);
                plan.push_back(Action::Move { units: vec![w.id], route: route.clone(), transport: None, bombing: false });
            }
            if wear_down {
                continue;
            }
            // Transports follow into the cleared zone and land troops beside it.
            let shore = rs.map.neighbours(z).iter().copied().filter(|t| rel.enemy_land(p, *t)).max_by_key(|t| (rs.map.space(*t).capital_of.is_some(), prize(rs, *t)));
            let Some(shore) = shore else { continue };
            if entered.contains(&shore) && rel.enemy_defenders(p, shore).next().is_none() {
                continue;
            }
            let defenders: Vec<&Unit> = rel.enemy_defenders(p, shore).chain(enemy_aa(&rel, p, shore)).collect();
            let mut landing: Vec<(&Unit, Vec<SpaceId>)> = Vec::new();
            for tr in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0 && u.moved == 0 && !used.contains(&u.id)) {
                if s.cargo_of(tr.id).any(|c| c.owner != p) || s.cargo_of(tr.id).next().is_none() {
                    continue;
                }
                if let Some(route) = geo::route_this_turn(&rel, tr, z, clear) {
                    landing.push((tr, route));
                }
            }
            let mut troops: Vec<&Unit> = landing.iter().flat_map(|(tr, _)| s.cargo_of(tr.id)).collect();
            // Aircraft in reach of the shore, not yet in a battle, join a
            // landing the troops cannot win alone.
            let mut air: Vec<(&Unit, Vec<SpaceId>)> = Vec::new();
            if self.style.air_at_sea && !troops.is_empty() && !self.worth_attacking(game, shore, &troops, &defenders, true) {
                for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air() && !used.contains(&u.id) && u.moved == 0 && !u.flags.bombing) {
                    if !air_lanes.strikes(a, shore) {
                        continue;
                    }
                    if let Some(route) = air_lanes.route(a, shore) {
                        troops.push(a);
                        air.push((a, route));
                    }
                }
            }
            if troops.is_empty() || !self.worth_attacking(game, shore, &troops, &defenders, true) {
                continue;
            }
            for (a, route) in air {
                used.insert(a.id);
                plan.push_back(Action::Move { units: vec![a.id], route, transport: None, bombing: false });
            }
            entered.insert(shore);
            // Troops landing on an undefended shore go in one move: the
            // first in takes it.
            let undefended = rel.enemy_defenders(p, shore).next().is_none();
            let mut together: Vec<UnitId> = Vec::new();
            for (tr, route) in landing {
                used.insert(tr.id);
                let cargo: Vec<UnitId> = s.cargo_of(tr.id).map(|c| c.id).collect();
                if route.len() >= 2 {
                    plan.push_back(Action::Move { units: vec![tr.id], route: route.clone(), transport: None, bombing: false });
                }
                if undefended {
                    together.extend(cargo);
                } else {
                    plan.push_back(Action::Move { units: cargo, route: vec![z, shore], transport: None, bombing: false });
                }
            }
            if !together.is_empty() {
                plan.push_back(Action::Move { units: together, route: vec![z, shore], transport: None, bombing: false });
            }
        }
        plan
    }

    /// With `joint_assaults`: whether an attack on the enemy capital `t`
    /// that `chosen` cannot win alone is worth making because the allies'
    /// land units beside it, moving after this power and before the
    /// capital's holder moves again, finish what it begins: the two
    /// attacks together win as often as an ordinary attack needs. (Issue 14:
    /// Berlin held forty infantry for seven rounds against British,
    /// American and Soviet armies beside it, each too weak alone.)
    fn joint_assault(&self, game: &Game, t: SpaceId, chosen: &[&Unit], defenders: &[&Unit]) -> bool {
        let rs = &game.ruleset;
        let s = &game.state;
        if !self.style.joint_assaults || rs.map.space(t).capital_of.is_none() || defenders.is_empty() {
            return false;
        }
        let Some(holder) = s.control[t.index()] else { return false };
        let helpers = allies_before(rs, s.turn, holder);
        let mut judged: Vec<&Unit> = chosen.to_vec();
        judged.extend(s.units.iter().filter(|u| helpers.contains(&u.owner) && rs.map.is_land(u.at) && rs.map.adjacent(u.at, t)).filter(|u| {
            let st = rs.stats(u.kind);
            st.is_land() && st.is_combatant() && st.movement > 0
        }));
        judged.len() > chosen.len() && self.win_chance(game, &judged, defenders, false) >= self.style.attack
    }
}

/// `p`'s allies that take their turns after `p` and before `holder` takes
/// its next one (turn order, into the next round).
fn allies_before(rs: &warboard_rules::Ruleset, p: PowerId, holder: PowerId) -> Vec<PowerId> {
    let order = &rs.turn.order;
    let Some(i) = order.iter().position(|q| *q == p) else { return Vec::new() };
    (1..order.len()).map(|k| order[(i + k) % order.len()]).take_while(|q| *q != holder).filter(|q| rs.allied(p, *q)).collect()
}

/// Where aircraft may fly in a combat move (no neutrals, no space the plan
/// forbids), with the distances from each place aircraft stand on worked
/// out once for the whole plan.
struct AirLanes<'a, 'r> {
    rel: &'a Relations<'r>,
    allowed: &'a [bool],
    from: std::cell::RefCell<std::collections::HashMap<SpaceId, Vec<u32>>>,
}

impl<'a, 'r> AirLanes<'a, 'r> {
    fn new(rel: &'a Relations<'r>, allowed: &'a [bool]) -> Self {
        AirLanes { rel, allowed, from: Default::default() }
    }

    fn open(&self, x: SpaceId) -> bool {
        !self.rel.neutral(x) && self.allowed[x.index()]
    }

    /// Whether `a` can fight at `t` and fly home again: half its range.
    fn strikes(&self, a: &Unit, t: SpaceId) -> bool {
        let mut from = self.from.borrow_mut();
        let d = from.entry(a.at).or_insert_with(|| geo::distances(self.rel, a.at, |x| self.open(x)));
        d[t.index()] <= self.rel.rs.stats(a.kind).movement as u32 / 2
    }

    fn route(&self, a: &Unit, t: SpaceId) -> Option<Vec<SpaceId>> {
        geo::path(self.rel, a.at, t, |x| self.open(x))
    }
}

/// An enemy AA gun in a territory: no defender, but it fires at aircraft.
fn enemy_aa<'a>(rel: &Relations<'a>, p: PowerId, t: SpaceId) -> impl Iterator<Item = &'a Unit> + 'a {
    let rs = rel.rs;
    rel.enemy_units(p, t).filter(move |u| rs.stats(u.kind).anti_aircraft > 0)
}
