//! Checks that units stand where they may: used for the published starting
//! position and for positions built by conformance cases and saves.

use crate::ids::{Domain, SpaceId, UnitType};
use crate::ruleset::{Ruleset, SetupUnit};
use std::collections::HashMap;

/// Problems with a list of unit entries, as (entry, problem) pairs.
pub fn placement_problems(ruleset: &Ruleset, units: &[SetupUnit]) -> Vec<(String, String)> {
    let map = &ruleset.map;
    let mut problems = Vec::new();
    let mut aa_guns: HashMap<SpaceId, u32> = HashMap::new();
    let mut factories: HashMap<SpaceId, u32> = HashMap::new();
    let mut carrier_room: HashMap<SpaceId, i64> = HashMap::new();
    for u in units {
        let entry = format!("{} {} at {}", ruleset.powers[u.owner.index()].id, u.kind, map.name(u.at));
        let Some(stats) = ruleset.unit(u.kind) else {
            problems.push((entry, format!("{} is not a unit type of this ruleset", u.kind)));
            continue;
        };
        let sea = map.is_sea(u.at);
        match stats.domain {
            Domain::Land if sea => problems.push((entry, "land units stand on land (at sea only as cargo)".into())),
            Domain::Sea if !sea => problems.push((entry, "ships stand in sea zones".into())),
            Domain::Air if sea && stats.carrier_cost() == 0 => {
                problems.push((entry, "this aircraft cannot land on a carrier, so it must stand on land".into()))
            }
            _ => {}
        }
        if stats.anti_aircraft > 0 {
            *aa_guns.entry(u.at).or_default() += u.count;
        }
        if stats.factory {
            *factories.entry(u.at).or_default() += u.count;
        }
        if sea {
            *carrier_room.entry(u.at).or_default() +=
                (stats.carrier_capacity() as i64 - stats.carrier_cost() as i64) * u.count as i64;
        }
        if !sea && map.space(u.at).neutral && u.kind == UnitType::IndustrialComplex {
            // Allowed: a factory in a formerly neutral territory (DAAK 2.7(d)).
        }
    }
    for (at, n) in aa_guns {
        if n > 1 && ruleset.options.one_aa_gun_per_territory {
            problems.push((format!("AA guns at {}", map.name(at)), "at most one AA gun per territory (DAAK 3.1(b))".into()));
        }
    }
    for (at, n) in factories {
        if n > 1 {
            problems.push((format!("factories at {}", map.name(at)), "at most one industrial complex per territory".into()));
        }
    }
    for (at, room) in carrier_room {
        if room < 0 {
            problems.push((
                format!("fighters at {}", map.name(at)),
                "more fighters at sea than the carriers there can hold (DAAK 3.4(a))".into(),
            ));
        }
    }
    problems
}

/// The first thing no game could have reached in a position given to start
/// a game (the engine's `new`, a save's start): cargo of an enemy aboard a
/// transport or carrier, damage or movement beyond a unit's own, a phase the
/// ruleset does not have, a power twice in the turn order, enemies sharing
/// a territory, land units on enemy land or in a neutral country, a factory
/// in an enemy's territory (issue 34). `None`: nothing found. Conformance
/// cases are not held to it: they may pose a question by a position no
/// game reaches.
pub fn impossible_position(game: &crate::Game) -> Option<String> {
    let (rs, s) = (&*game.ruleset, &game.state);
    let map = &rs.map;
    let power = |p: crate::PowerId| rs.powers[p.index()].id.as_str();
    let phases = &rs.turn;
    if !phases.round_phases.contains(&s.phase) && !phases.turn_phases.contains(&s.phase) {
        return Some(format!("phase `{}` is not a phase of {}", s.phase.name(), rs.name));
    }
    for (i, p) in s.order.iter().enumerate() {
        if s.order[..i].contains(p) {
            return Some(format!("`order` names {} twice", power(*p)));
        }
    }
    // One unit per land territory to compare the others with: linear in the
    // units, as a request under the limits must be.
    let mut first_on_land: std::collections::HashMap<crate::SpaceId, &crate::Unit> = std::collections::HashMap::new();
    for u in s.units.iter().filter(|u| map.is_land(u.at)) {
        first_on_land.entry(u.at).or_insert(u);
    }
    for u in &s.units {
        let st = rs.stats(u.kind);
        let what = || format!("{} {} at {}", power(u.owner), u.kind, map.name(u.at));
        if let Some(carrier) = u.carried_by.and_then(|c| s.unit(c)) {
            if !s.allied(carrier.owner, u.owner) {
                return Some(format!("{}: aboard {}'s {}, an enemy", what(), power(carrier.owner), carrier.kind));
            }
        }
        if st.factory {
            let most = map.space(u.at).ipc.saturating_mul(2);
            if u32::from(u.hits) > most {
                return Some(format!("{}: {} damage markers, more than twice the territory's value ({most})", what(), u.hits));
            }
            if s.control[u.at.index()].is_some_and(|c| !s.allied(c, u.owner)) {
                return Some(format!("{}: an industrial complex in a territory its enemy controls", what()));
            }
        } else if u.hits >= st.hit_points.max(1) {
            let points = match st.hit_points.max(1) {
                1 => "1 hit point".to_string(),
                n => format!("{n} hit points"),
            };
            return Some(format!("{}: `hits` {} but it has {points}: it would be destroyed", what(), u.hits));
        }
        let long_range = st.is_air() && s.has_development(u.owner, crate::state::Development::LongRangeAircraft);
        let movement = st.movement.saturating_add(if long_range { 2 } else { 0 });
        if u.moved > movement {
            return Some(format!("{}: `moved` {} but it moves {movement} a turn", what(), u.moved));
        }
        if map.is_land(u.at) {
            let held_by = s.control[u.at.index()];
            if held_by.is_none() && !(st.is_air() && rs.options.free_movement) {
                return Some(format!("{}: in a neutral country", what()));
            }
            if let Some(enemy) = first_on_land.get(&u.at).filter(|e| !s.allied(e.owner, u.owner)) {
                return Some(format!("{}: shares the territory with {}'s {} and no battle", what(), power(enemy.owner), enemy.kind));
            }
            if st.domain == Domain::Land && !st.factory && held_by.is_some_and(|c| !s.allied(c, u.owner)) {
                return Some(format!("{}: on land {} controls, with no battle to take it", what(), power(held_by.unwrap())));
            }
        }
    }
    None
}
