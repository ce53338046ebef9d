//! `warboard map`: the board summary, or one space in detail.

use std::fmt::Write;
use warboard_rules::ids::UnitType;
use warboard_rules::ruleset::{self, SpaceKind};
use warboard_rules::Game;

/// The ruleset and the space from the command line: `map RULESET [SPACE]`,
/// or `map --ruleset RULESET [SPACE]`; no ruleset at all: classic.
pub fn arguments(args: &[String], flag: Option<&str>) -> Result<(String, Option<String>), String> {
    match (flag, args) {
        (Some(r), []) => Ok((r.to_string(), None)),
        (Some(r), [space]) => Ok((r.to_string(), Some(space.clone()))),
        (Some(r), [first, space]) if *first == r => Ok((r.to_string(), Some(space.clone()))),
        (Some(r), _) => Err(format!("with --ruleset {r}, name at most one space")),
        (None, []) => Ok(("classic".to_string(), None)),
        (None, [r]) => Ok((r.clone(), None)),
        (None, [r, space, ..]) => Ok((r.clone(), Some(space.clone()))),
    }
}

pub fn run(ruleset_name: &str, space: Option<&str>) -> Result<String, String> {
    let rs = ruleset::ruleset(ruleset_name).map_err(|e| e.to_string())?;
    let game = Game::standard(rs.clone());
    let map = &rs.map;
    let mut out = String::new();
    match space {
        None => {
            let land = map.spaces.iter().filter(|s| s.kind == SpaceKind::Land).count();
            let neutral = map.spaces.iter().filter(|s| s.neutral).count();
            let sea = map.len() - land;
            match &rs.scenario {
                Some(scenario) => writeln!(out, "{} ({scenario} scenario) — {}", rs.name, rs.title).unwrap(),
                None => writeln!(out, "{} — {}", rs.name, rs.title).unwrap(),
            }
            writeln!(out, "{land} land territories ({neutral} neutral), {sea} sea zones, {} canals", map.canals.len()).unwrap();
            let cities: Vec<_> = map.ids().filter(|t| map.space(*t).victory_city).collect();
            if !cities.is_empty() {
                let held = |side: warboard_rules::Side| {
                    cities.iter().filter(|t| game.state.control[t.index()].is_some_and(|p| rs.side(p) == side)).map(|t| map.name(*t)).collect::<Vec<_>>()
                };
                let (axis, allies) = (held(warboard_rules::Side::Axis), held(warboard_rules::Side::Allies));
                let need = if rs.options.capital_victory == ruleset::CapitalVictory::VictoryCities {
                    format!(": a side holding {} at the end of a round wins", rs.options.victory_cities)
                } else {
                    String::new()
                };
                writeln!(out, "{} victory cities{need}", cities.len()).unwrap();
                writeln!(out, "  axis ({}): {}", axis.len(), axis.join(" ")).unwrap();
                writeln!(out, "  allies ({}): {}", allies.len(), allies.join(" ")).unwrap();
            }
            writeln!(out).unwrap();
            writeln!(out, "{:<10} {:<16} {:<7} {:>7} {:>8} {:>5}", "power", "name", "side", "capital", "income", "bank").unwrap();
            for p in rs.power_ids() {
                let info = rs.power(p);
                writeln!(
                    out,
                    "{:<10} {:<16} {:<7} {:>7} {:>8} {:>5}",
                    info.id,
                    info.name,
                    info.side.name(),
                    info.capital.map(|c| map.name(c)).unwrap_or("-"),
                    game.income(p),
                    game.state.ipcs[p.index()]
                )
                .unwrap();
            }
            writeln!(out).unwrap();
            if rs.options.turn_order_by_income {
                // The Alternative rules: each payday orders the round.
                writeln!(out, "Turn order: each round by the points paid at payday, most first, ties by dice (ALT L22)").unwrap();
            } else {
                writeln!(out, "Turn order: {}", rs.turn.order.iter().map(|p| rs.power(*p).id.as_str()).collect::<Vec<_>>().join(", ")).unwrap();
            }
            writeln!(out, "Options: {}", rs.options.canonical()).unwrap();
            // Every space, so that ids and names can be looked up here
            // (issue 15, point 12); `warboard map RULESET SPACE` tells one.
            writeln!(out).unwrap();
            writeln!(out, "{:<5} {:<28} {:<5} {:>3}  held by", "id", "name", "kind", "ipc").unwrap();
            for t in map.ids() {
                let sp = map.space(t);
                let kind = if sp.is_land() { "land" } else { "sea" };
                let held = game.state.control[t.index()].map(|p| rs.power(p).id.as_str()).unwrap_or(if sp.is_land() { "neutral" } else { "-" });
                writeln!(out, "{:<5} {:<28} {:<5} {:>3}  {held}", sp.id, sp.name, kind, sp.ipc).unwrap();
            }
        }
        Some(id) => {
            // By id or by name, in any case (issue 15, point 12).
            let sid = map.find(id).map_err(|could| match could.as_slice() {
                [] => format!("`{id}` is not a space of the {} map (ids are like EGY, GER, NOR; names like Egypt)", rs.name),
                some => {
                    let names: Vec<String> = some.iter().take(6).map(|t| format!("{} ({})", map.space(*t).name, map.name(*t))).collect();
                    format!("`{id}` could be {}: name one by its id", names.join(", "))
                }
            })?;
            let s = map.space(sid);
            writeln!(out, "{} — {}", s.id, s.name).unwrap();
            match s.kind {
                SpaceKind::Sea => writeln!(out, "kind:       sea zone").unwrap(),
                SpaceKind::Land => {
                    writeln!(out, "kind:       land territory{}", if s.island_in.is_some() { " (island)" } else { "" }).unwrap();
                    let owner = s.original_owner.map(|p| rs.power(p).id.as_str()).unwrap_or("neutral");
                    writeln!(out, "owner:      {owner}").unwrap();
                    // A scenario may start with a territory held by another power.
                    let held = game.state.control[sid.index()];
                    if held != s.original_owner {
                        writeln!(out, "held by:    {} at the start", held.map(|p| rs.power(p).id.as_str()).unwrap_or("nobody")).unwrap();
                    }
                    writeln!(out, "IPC value:  {}", s.ipc).unwrap();
                    if let Some(p) = s.capital_of {
                        writeln!(out, "capital of: {}", rs.power(p).id).unwrap();
                    }
                    if s.victory_city {
                        writeln!(out, "victory city").unwrap();
                    }
                    if let Some(z) = s.island_in {
                        writeln!(out, "island:     fully surrounded by {} (fighters of a carrier lost there may land here, DAAK 3.4(b))", map.name(z)).unwrap();
                    }
                }
            }
            let mut neighbours: Vec<&str> = s.adjacent.iter().map(|a| map.name(*a)).collect();
            neighbours.sort();
            writeln!(out, "neighbours: {}", neighbours.join(", ")).unwrap();
            for c in &map.canals {
                let names: Vec<&str> = c.controlled_by.iter().map(|t| map.name(*t)).collect();
                if c.zones.contains(&sid) || c.controlled_by.contains(&sid) {
                    writeln!(
                        out,
                        "canal:      {} joins {} and {}; ships pass only if {} friendly at the start of the turn (DAAK 2.3, 2.4); aircraft fly over freely",
                        c.name,
                        map.name(c.zones[0]),
                        map.name(c.zones[1]),
                        names.join(" and ") + if names.len() > 1 { " are" } else { " is" }
                    )
                    .unwrap();
                }
            }
            let mut units: Vec<(String, UnitType, usize)> = Vec::new();
            for u in game.state.units_at(sid) {
                let owner = rs.power(u.owner).id.clone();
                match units.iter_mut().find(|(o, k, _)| *o == owner && *k == u.kind) {
                    Some(e) => e.2 += 1,
                    None => units.push((owner, u.kind, 1)),
                }
            }
            units.sort();
            if units.is_empty() {
                writeln!(out, "units:      none at the start").unwrap();
            } else {
                let text: Vec<String> = units.iter().map(|(o, k, n)| format!("{o} {n} {k}")).collect();
                writeln!(out, "units:      {}", text.join(", ")).unwrap();
            }
        }
    }
    Ok(out)
}
