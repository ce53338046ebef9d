//! What the spaces and detail panels say: which spaces match the filter,
//! a one-line summary of each, and the full story of the selected one.

use super::names::{counts_text, short};
use super::odds;
use std::collections::BTreeMap;
use warboard_rules::battle::BattleKind;
use warboard_rules::{Game, PowerId, SpaceId, UnitType};

/// Spaces whose id, name, controller or unit owners contain the filter
/// (case-insensitive). "GER" finds Germany; "germany" also finds every
/// territory Germany holds and every sea zone with German units. The best
/// matches come first (the id itself, then ids and names that contain the
/// filter, then owners), each group in map order.
pub fn matching(game: &Game, filter: &str) -> Vec<SpaceId> {
    let q = filter.trim().to_ascii_lowercase();
    let rs = &game.ruleset;
    let power_matches = |p: PowerId| {
        let info = rs.power(p);
        info.id.to_ascii_lowercase().contains(&q) || info.name.to_ascii_lowercase().contains(&q)
    };
    let rank = |s: SpaceId| -> Option<u8> {
        if q.is_empty() {
            return Some(0);
        }
        let space = rs.map.space(s);
        let id = space.id.to_ascii_lowercase();
        if id == q {
            Some(0)
        } else if id.contains(&q) || space.name.to_ascii_lowercase().contains(&q) {
            Some(1)
        } else if game.state.control[s.index()].is_some_and(power_matches) || game.state.units_at(s).any(|u| power_matches(u.owner)) {
            Some(2)
        } else {
            None
        }
    };
    let mut found: Vec<(u8, SpaceId)> = rs.map.ids().filter_map(|s| rank(s).map(|r| (r, s))).collect();
    found.sort();
    found.into_iter().map(|(_, s)| s).collect()
}

/// The controller's name, or what the space is when nobody controls it.
pub fn owner_text(game: &Game, at: SpaceId) -> String {
    let rs = &game.ruleset;
    match game.state.control[at.index()] {
        Some(p) => rs.power(p).id.clone(),
        None if rs.map.is_sea(at) => "sea".into(),
        None => "neutral".into(),
    }
}

/// Units in a space by owner: `[(germany, [(infantry, 3), ...])]`.
fn stacks(game: &Game, at: SpaceId) -> BTreeMap<PowerId, BTreeMap<UnitType, u32>> {
    let mut by_owner: BTreeMap<PowerId, BTreeMap<UnitType, u32>> = BTreeMap::new();
    for u in game.state.units_at(at) {
        *by_owner.entry(u.owner).or_default().entry(u.kind).or_default() += 1;
    }
    by_owner
}

/// "germany 3 inf 1 arm; uk 1 ftr" (empty when no units are there).
pub fn units_text(game: &Game, at: SpaceId) -> String {
    let parts: Vec<String> = stacks(game, at)
        .into_iter()
        .map(|(p, kinds)| {
            let list: Vec<(UnitType, u32)> = kinds.into_iter().collect();
            format!("{} {}", game.ruleset.power(p).id, counts_text(&list))
        })
        .collect();
    parts.join("; ")
}

/// A marker for a space with a battle this turn: `!` still to fight.
pub fn battle_marker(game: &Game, at: SpaceId) -> &'static str {
    match game.state.battles.iter().find(|b| b.at == at) {
        Some(b) if !b.result.is_over() => "!",
        _ => " ",
    }
}

/// The detail panel's lines for one space.
pub fn detail(game: &Game, at: SpaceId) -> Vec<String> {
    let rs = &game.ruleset;
    let s = &game.state;
    let space = rs.map.space(at);
    let mut lines = Vec::new();
    if space.is_sea() {
        lines.push(format!("{} ({}): sea zone", space.name, space.id));
    } else {
        lines.push(format!("{} ({}): land, {} IPC{}", space.name, space.id, space.ipc, if space.ipc == 1 { "" } else { "s" }));
        let original = space.original_owner.map(|p| rs.power(p).id.clone()).unwrap_or_else(|| "neutral".into());
        let mut facts = vec![format!("held by {} (originally {original})", owner_text(game, at))];
        if let Some(p) = space.capital_of {
            facts.push(format!("capital of {}", rs.power(p).id));
        }
        if space.victory_city {
            facts.push("victory city".into());
        }
        lines.push(facts.join(", "));
    }
    let neighbours: Vec<&str> = rs.map.neighbours(at).iter().map(|n| rs.map.name(*n)).collect();
    lines.push(format!("neighbours: {}", neighbours.join(" ")));
    let by_owner = stacks(game, at);
    if by_owner.is_empty() {
        lines.push("no units".into());
    }
    for (p, kinds) in by_owner {
        let list: Vec<(UnitType, u32)> = kinds.into_iter().collect();
        lines.push(format!("{}: {}", rs.power(p).id, counts_text(&list)));
        // Ids, for commands that name one unit (`cas u17`, `via u57`).
        let mut ids: BTreeMap<UnitType, Vec<String>> = BTreeMap::new();
        for u in s.units_at(at).filter(|u| u.owner == p) {
            let mut label = format!("u{}", u.id.0);
            if u.hits > 0 {
                label.push_str(&format!("(hit {})", u.hits));
            }
            if let Some(c) = u.carried_by {
                label.push_str(&format!("(on u{})", c.0));
            }
            ids.entry(u.kind).or_default().push(label);
        }
        for (kind, labels) in ids {
            lines.push(format!("  {} {}", short(kind), labels.join(" ")));
        }
    }
    for b in s.battles.iter().filter(|b| b.at == at) {
        let what = match b.kind {
            BattleKind::Bombing => "bombing raid",
            BattleKind::Land | BattleKind::Sea => "battle",
        };
        lines.push(format!("{what} by {}: {}", rs.power(b.attacker).id, b.result.name().replace('_', " ")));
        if let Some(o) = odds::of_battle(game, b) {
            lines.push(format!("  {}", o.summary()));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Game {
        Game::standard(warboard_rules::ruleset("classic").expect("classic loads"))
    }

    #[test]
    fn the_filter_finds_ids_names_and_owners() {
        let g = game();
        let names = |f: &str| -> Vec<String> { matching(&g, f).iter().map(|s| g.ruleset.map.name(*s).to_string()).collect() };
        assert_eq!(names("GER")[0], "GER", "the space itself comes first");
        assert_eq!(names("ger")[0], "GER");
        assert!(names("GER").contains(&"ALG".to_string()), "then what Germany holds");
        let german = names("germany");
        assert!(german.contains(&"UKR".to_string()), "Germany holds Ukraine at the start");
        assert!(german.contains(&"BAL".to_string()), "German ships are in the Baltic");
        assert!(!german.contains(&"MOS".to_string()));
        assert_eq!(matching(&g, "").len(), g.ruleset.map.len());
        assert!(matching(&g, "zzzz").is_empty());
    }

    #[test]
    fn a_space_is_described_with_its_units_and_ids() {
        let g = game();
        let ger = g.ruleset.map.id("GER").expect("GER");
        assert_eq!(owner_text(&g, ger), "germany");
        assert!(units_text(&g, ger).starts_with("germany 4 inf 2 arm"));
        let lines = detail(&g, ger);
        assert!(lines[0].starts_with("Germany (GER): land, 10 IPCs"), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("capital of germany")));
        assert!(lines.iter().any(|l| l.starts_with("neighbours: ") && l.contains("EEU")));
        assert!(lines.iter().any(|l| l.starts_with("  inf u")));
    }
}
