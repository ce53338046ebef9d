//! Playing the Alternative rules (knob `free_movement`; issue 13): a first
//! policy through the rules core's public API. Payday is ended; shopping
//! spends the points on tanks and infantry, put down on the capital and on
//! the claimed territory nearest the enemy (one unit at a time under fair
//! buying); a turn fights out every space shared with the enemy, captures
//! unoccupied enemy and neutral land next to its land units, attacks from
//! one space where its strength clearly outweighs the defenders', and
//! ends. It buys no ships or planes yet, so island nations stay home: the
//! planning player of issue 14 is to take this over.

use warboard_rules::battle::{self, Decision};
use warboard_rules::ids::{Domain, PowerId, SpaceId, UnitId, UnitType};
use warboard_rules::{Action, Game, Phase};

/// How a player picks among the moves this policy finds.
pub enum Style<'a> {
    /// The strongest (the computer player).
    Best,
    /// At random, and ending the turn as one of the choices (the random
    /// player); the closure returns a number below its argument.
    Random(&'a mut dyn FnMut(usize) -> usize),
}

/// The next action for `p`, who acts now.
pub fn next_action(game: &Game, p: PowerId, style: Style) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    if let Some((_, d)) = battle::decision(rs, s) {
        return match d {
            Decision::Casualties { side, choice, .. } => {
                Action::Casualties { units: battle::default_casualties(rs, s, &choice, side == battle::BattleSide::Attacker) }
            }
            _ => Action::Continue,
        };
    }
    // A defending plane without a ship flies to its first nearest landing.
    if let Some((id, choices)) = s.relocating.first() {
        if let (Some(u), Some(&to)) = (s.unit(*id), choices.first()) {
            if let Some(route) = flight(game, u.at, to) {
                return Action::Move { units: vec![*id], route, transport: None, bombing: false };
            }
        }
    }
    match s.phase {
        Phase::Shopping => shop(game, p),
        Phase::Turn => turn(game, p, style),
        _ => Action::EndPhase,
    }
}

fn unplaced(game: &Game, p: PowerId) -> Vec<(UnitType, u32)> {
    game.state.unplaced.get(&p).map(|m| m.iter().filter(|(_, n)| **n > 0).map(|(k, n)| (*k, *n)).collect()).unwrap_or_default()
}

fn shop(game: &Game, p: PowerId) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    let placing = s.next_placer.is_some();
    let waiting = unplaced(game, p);
    if placing || (!waiting.is_empty() && !rs.options.fair_buying) {
        let (kind, _) = waiting[0];
        let n = if rs.options.fair_buying { 1 } else { waiting[0].1 };
        for at in drop_points(game, p) {
            let a = Action::Place { at, units: vec![(kind, n)] };
            if game.is_legal_as(Some(p), &a) {
                return a;
            }
        }
        // Nowhere for all of them: one at a time, anywhere it may go.
        for t in rs.map.ids() {
            let a = Action::Place { at: t, units: vec![(kind, 1)] };
            if game.is_legal_as(Some(p), &a) {
                return a;
            }
        }
        return Action::EndPhase;
    }
    let points = s.ipcs[p.index()].max(0) as u32;
    let (tank, inf) = (rs.unit(UnitType::Tank).map_or(3, |u| u.cost), rs.unit(UnitType::Infantry).map_or(1, |u| u.cost));
    if points >= inf && waiting.is_empty() {
        // A third of the points in tanks, the rest infantry.
        let tanks = points / 3 / tank.max(1);
        let infantry = (points - tanks * tank) / inf.max(1);
        let units: Vec<(UnitType, u32)> = [(UnitType::Tank, tanks), (UnitType::Infantry, infantry)].into_iter().filter(|(_, n)| *n > 0).collect();
        return Action::Purchase { units };
    }
    Action::EndPhase
}

/// Where new land units go: the claimed territory with the most enemy land
/// units next to it, then the capital, then the rest.
fn drop_points(game: &Game, p: PowerId) -> Vec<SpaceId> {
    let s = &game.state;
    let rs = &game.ruleset;
    let rel = game.relations();
    let mut list: Vec<(i64, SpaceId)> = rs
        .map
        .ids()
        .filter(|t| rs.map.is_land(*t) && s.control[t.index()] == Some(p))
        .map(|t| {
            let threat: i64 = rs.map.space(t).adjacent.iter().map(|n| rel.enemy_units(p, *n).count() as i64).sum();
            let capital = rs.power(p).capital == Some(t);
            (-(threat * 2 + if capital { 1 } else { 0 }), t)
        })
        .collect();
    list.sort();
    list.into_iter().map(|(_, t)| t).collect()
}

fn strength(game: &Game, units: &[&warboard_rules::Unit]) -> u32 {
    units.iter().map(|u| game.ruleset.stats(u.kind).attack as u32).sum()
}

fn turn(game: &Game, p: PowerId, style: Style) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    let rel = game.relations();
    // A space shared with the enemy is fought out first (ALT L32, L44).
    if let Some(at) = rs.map.ids().find(|t| s.units.iter().any(|u| u.at == *t && u.mover() == p) && rel.enemy_units(p, *t).next().is_some()) {
        return Action::Resolve { at: Some(at) };
    }
    let mut options: Vec<(i64, Action)> = Vec::new();
    let capital = rs.power(p).capital;
    for from in rs.map.ids().filter(|t| rs.map.is_land(*t)) {
        let mine: Vec<&warboard_rules::Unit> = s
            .units
            .iter()
            .filter(|u| u.at == from && u.mover() == p && rs.stats(u.kind).domain == Domain::Land && u.moved < rs.stats(u.kind).movement)
            .collect();
        if mine.is_empty() {
            continue;
        }
        // The capital keeps two units at home.
        let keep = if Some(from) == capital { 2 } else { 0 };
        if mine.len() <= keep {
            continue;
        }
        let free: Vec<&warboard_rules::Unit> = mine.iter().copied().skip(keep).collect();
        for &to in &rs.map.space(from).adjacent {
            let sp = rs.map.space(to);
            if !sp.is_land() || sp.off_limits {
                continue;
            }
            let enemies: Vec<&warboard_rules::Unit> = rel.enemy_units(p, to).collect();
            if enemies.is_empty() {
                let held = s.control[to.index()];
                if held.is_none_or(|h| !s.allied(p, h)) {
                    // Capture with the unit that has the fewest moves left
                    // to spare elsewhere: infantry first.
                    let u = free.iter().min_by_key(|u| (rs.stats(u.kind).movement - u.moved, u.id)).unwrap();
                    options.push((sp.ipc as i64 * 10 + 5, Action::Move { units: vec![u.id], route: vec![from, to], transport: None, bombing: false }));
                }
            } else {
                let ours = strength(game, &free);
                let theirs: u32 = enemies.iter().map(|u| rs.stats(u.kind).defense as u32).sum();
                if ours * 2 >= theirs * 3 + 2 {
                    let ids: Vec<UnitId> = free.iter().map(|u| u.id).collect();
                    let value = sp.ipc as i64 * 10 + if sp.capital_of.is_some() { 100 } else { 0 } + (ours as i64 - theirs as i64);
                    options.push((value, Action::Move { units: ids, route: vec![from, to], transport: None, bombing: false }));
                }
            }
        }
    }
    options.retain(|(_, a)| game.is_legal_as(Some(p), a));
    match style {
        Style::Best => options.into_iter().max_by_key(|(v, _)| *v).map(|(_, a)| a).unwrap_or(Action::EndPhase),
        Style::Random(below) => {
            let k = below(options.len() + 1);
            options.into_iter().nth(k).map(|(_, a)| a).unwrap_or(Action::EndPhase)
        }
    }
}

/// A shortest route from `from` to `to` (breadth first over the map).
fn flight(game: &Game, from: SpaceId, to: SpaceId) -> Option<Vec<SpaceId>> {
    let map = &game.ruleset.map;
    let mut prev: Vec<Option<SpaceId>> = vec![None; map.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    let mut seen = vec![false; map.len()];
    seen[from.index()] = true;
    while let Some(t) = queue.pop_front() {
        if t == to {
            let mut route = vec![to];
            let mut at = to;
            while let Some(p) = prev[at.index()] {
                route.push(p);
                at = p;
            }
            route.reverse();
            return Some(route);
        }
        for &n in &map.space(t).adjacent {
            if !seen[n.index()] {
                seen[n.index()] = true;
                prev[n.index()] = Some(t);
                queue.push_back(n);
            }
        }
    }
    None
}
