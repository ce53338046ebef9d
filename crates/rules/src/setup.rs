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
