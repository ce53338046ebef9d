//! The help panel: what may be done now, for the decision the game waits
//! for, in the input line's own syntax.

use super::names::{counts_text, short};
use super::odds;
use super::session::{after_phase_end, Session};
use warboard_rules::battle::{self, Decision};
use warboard_ai::production;
use warboard_rules::ruleset::ResearchCharts;
use warboard_rules::ids::Domain;
use warboard_rules::{Action, FixedDice, Game, Phase, PowerId, SpaceId, UnitId, UnitType};

/// The help panel's lines.
pub fn lines(session: &Session) -> Vec<String> {
    let game = session.game();
    let mut out = Vec::new();
    let Some(p) = session.actor() else {
        let winner = game.state.winner.as_ref().map(|w| w.describe(|p| game.ruleset.power(p).id.clone())).unwrap_or_else(|| "nobody".into());
        out.push(format!("The game is over: the {winner} have won."));
        out.push("save FILE to keep it, quit to leave".into());
        return out;
    };
    let name = session.power_name(p).to_string();
    if !session.is_human(p) {
        out.push(format!("The computer is playing {name}..."));
        if session.computer_stuck() {
            out.push("It is stuck: save the game (save FILE) and report it.".into());
        }
        return out;
    }
    out.push(format!("You play {name} now:"));
    if let Some((_, decision)) = battle::decision(&game.ruleset, &game.state) {
        battle_choices(game, decision, &mut out);
    } else {
        phase_choices(game, p, &mut out);
    }
    out.push("undo, save FILE, load FILE, quit".into());
    out
}

fn battle_choices(game: &Game, decision: Decision, out: &mut Vec<String>) {
    let s = &game.state;
    let Some(i) = battle::current(s) else { return };
    let at = game.ruleset.map.name(s.battles[i].at).to_string();
    match decision {
        Decision::Casualties { side, hits, candidates, choice } => {
            let kinds: Vec<_> = candidates.iter().filter_map(|id| s.unit(*id)).map(|u| (u.kind, 1)).collect();
            out.push(format!("battle at {at}: take {hits} casualt{} from {}", if hits == 1 { "y" } else { "ies" }, counts_text(&kinds)));
            // The example is this battle's own default choice (issue 15,
            // point 8), by kind and by unit name.
            let picked = battle::default_casualties(&game.ruleset, s, &choice, side == battle::BattleSide::Attacker);
            let by_kind: Vec<_> = picked.iter().filter_map(|id| s.unit(*id)).map(|u| (u.kind, 1)).collect();
            let names: Vec<String> = picked.iter().map(|id| format!("u{}", id.0)).collect();
            if !picked.is_empty() {
                out.push(format!("  cas {} (or by name: cas {})", counts_text(&by_kind), names.join(" ")));
            }
        }
        Decision::AttackerSubmarines | Decision::DefenderSubmarines => {
            // Only what the rules accept: classic's subs withdraw to a zone
            // and never submerge in place (DAAK 4.2; issue 33, point 5).
            let (here, zones) = submarine_escapes(game, i);
            let mut choices = Vec::new();
            if here {
                choices.push("sub (submerge)".to_string());
            }
            choices.extend(zones.iter().map(|z| format!("sub {z} (withdraw)")));
            choices.push("continue".into());
            out.push(format!("battle at {at}: your submarines may {}", if here { "submerge or withdraw" } else { "withdraw" }));
            out.push(format!("  {}", choices.join(" / ")));
        }
        Decision::PressOrRetreat => {
            out.push(format!("battle at {at}: press on or retreat"));
            out.push("  continue".into());
            let spaces = retreat_spaces(game, i);
            if !spaces.is_empty() {
                out.push(format!("  retreat {}", spaces.join(" | ")));
            }
            if let Some(o) = odds::of_battle(game, &s.battles[i]) {
                out.push(format!("  now: {}", o.summary()));
            }
        }
    }
    out.push("  resolve (fight it out with default choices)".into());
}

/// Where the deciding side's submarines may go now: submerge where they
/// are, and the zones they may withdraw to, tried on a copy of the game.
fn submarine_escapes(game: &Game, i: usize) -> (bool, Vec<String>) {
    use warboard_rules::select::{self, Selector};
    let rs = &game.ruleset;
    let at = game.state.battles[i].at;
    let subs = |n: u32| [Selector { kind: Some(UnitType::Submarine), count: n, id: None }];
    let Some(units) = (1..=64).rev().find_map(|n| select::for_battle(game, &subs(n)).ok()) else { return (false, Vec::new()) };
    let legal = |to| game.is_legal(&Action::Submerge { units: units.clone(), to }, &FixedDice(6)).is_ok();
    let here = legal(None);
    let zones = rs.map.neighbours(at).iter().filter(|z| legal(Some(**z))).map(|z| rs.map.name(*z).to_string()).collect();
    (here, zones)
}

/// The attacks the rules accept now from `p`'s own units next to the
/// enemy: each enemy-held or enemy-occupied space, with where from and
/// what (one unit of the kind tried on a copy of the game), in map order.
/// Cached by position: the help panel is drawn every frame.
#[allow(clippy::type_complexity)]
fn attacks(game: &Game, p: PowerId) -> Vec<(SpaceId, Vec<(SpaceId, UnitType, u32)>)> {
    thread_local! {
        static CACHE: std::cell::RefCell<Option<(u64, Vec<(SpaceId, Vec<(SpaceId, UnitType, u32)>)>)>> = const { std::cell::RefCell::new(None) };
    }
    let s = &game.state;
    // The position's fingerprint: who acts, the ruleset, where every unit
    // is and how far it moved (a load may bring back an earlier seq).
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (s.seq, s.round, p, game.ruleset.name.as_str(), s.phase.name()).hash(&mut h);
        for u in &s.units {
            (u.id, u.at, u.moved, u.owner).hash(&mut h);
        }
        h.finish()
    };
    if let Some(found) = CACHE.with(|c| c.borrow().as_ref().filter(|(k, _)| *k == key).map(|(_, v)| v.clone())) {
        return found;
    }
    let rs = &game.ruleset;
    let by = game.round_phase().then_some(p);
    let enemy_at = |to: SpaceId| {
        let held = rs.map.is_land(to) && s.control[to.index()].is_some_and(|q| !s.allied(p, q));
        held || s.units_at(to).any(|u| !s.allied(p, u.owner))
    };
    let mut found: Vec<(SpaceId, Vec<(SpaceId, UnitType, u32)>)> = Vec::new();
    for from in rs.map.ids() {
        let mut kinds: Vec<(UnitType, Vec<UnitId>)> = Vec::new();
        for u in s.units_at(from).filter(|u| u.owner == p && rs.stats(u.kind).domain != Domain::Air && (u.moved as u32) < rs.stats(u.kind).movement as u32) {
            match kinds.iter_mut().find(|(k, _)| *k == u.kind) {
                Some((_, ids)) => ids.push(u.id),
                None => kinds.push((u.kind, vec![u.id])),
            }
        }
        for (kind, ids) in &kinds {
            for &to in rs.map.neighbours(from).iter().filter(|t| enemy_at(**t)) {
                let one = Action::Move { units: vec![ids[0]], route: vec![from, to], transport: None, bombing: false };
                if game.is_legal_as(by, &one) {
                    match found.iter_mut().find(|(t, _)| *t == to) {
                        Some((_, from_list)) => from_list.push((from, *kind, ids.len() as u32)),
                        None => found.push((to, vec![(from, *kind, ids.len() as u32)])),
                    }
                }
            }
        }
    }
    CACHE.with(|c| *c.borrow_mut() = Some((key, found.clone())));
    found
}

/// One move of `p`'s own the rules accept now in non-combat move, for the
/// help's example: an aircraft to a landing first, else a land unit.
fn own_move(game: &Game, p: PowerId) -> Option<(SpaceId, UnitType, SpaceId)> {
    let rs = &game.ruleset;
    let s = &game.state;
    let by = game.round_phase().then_some(p);
    let movable = |u: &&warboard_rules::Unit| u.owner == p && (u.moved as u32) < rs.stats(u.kind).movement as u32;
    let mut units: Vec<&warboard_rules::Unit> = s.units.iter().filter(movable).collect();
    // Aircraft first: where they land is what non-combat move is for.
    units.sort_by_key(|u| rs.stats(u.kind).domain != Domain::Air);
    units.into_iter().take(40).find_map(|u| {
        rs.map.neighbours(u.at).iter().find_map(|&to| {
            let one = Action::Move { units: vec![u.id], route: vec![u.at, to], transport: None, bombing: false };
            game.is_legal_as(by, &one).then_some((u.at, u.kind, to))
        })
    })
}

/// The retreats the rules accept now, tried on a copy of the game.
fn retreat_spaces(game: &Game, i: usize) -> Vec<String> {
    let b = &game.state.battles[i];
    let mut options: Vec<Option<warboard_rules::SpaceId>> = b.came_from.iter().copied().map(Some).collect();
    options.push(None);
    options
        .into_iter()
        .filter(|to| game.is_legal(&Action::Retreat { to: *to }, &FixedDice(6)).is_ok())
        .map(|to| to.map(|t| game.ruleset.map.name(t).to_string()).unwrap_or_else(|| "(aircraft: retreat)".into()))
        .collect()
}

fn phase_choices(game: &Game, p: PowerId, out: &mut Vec<String>) {
    let rs = &game.ruleset;
    let s = &game.state;
    let bank = s.ipcs[p.index()];
    match s.phase {
        Phase::Research => {
            if rs.options.weapons_development && rs.options.research_charts == ResearchCharts::Anniversary {
                if game.relations().is_china(p) {
                    out.push("research: China does no research".into());
                } else {
                    let held = s.researchers[p.index()];
                    out.push(format!("research N chart 1|2: hire N researchers, 5 IPCs each (bank {bank}, {held} held); all held roll"));
                    out.push("  chart 1: land and production; chart 2: air and naval; research chart 1: only those held roll".into());
                }
            } else if rs.options.weapons_development {
                out.push(format!("research N: roll N research dice, 5 IPCs each (bank {bank})"));
            } else {
                out.push("research: weapons development is off".into());
            }
            out.push("end: on to purchase".into());
        }
        Phase::Purchase if game.relations().is_china(p) => {
            out.push("China buys nothing: it receives one infantry per two territories it holds".into());
            out.push("end: receive them, on to combat move".into());
        }
        Phase::Purchase => {
            out.push(format!("buy 3 inf 1 arm ... (bank {bank} IPCs)"));
            let damaged: Vec<String> = s
                .units
                .iter()
                .filter(|u| u.owner == p && rs.stats(u.kind).factory && u.hits > 0)
                .map(|u| format!("{} {}", rs.map.name(u.at), u.hits))
                .collect();
            if !damaged.is_empty() {
                out.push(format!("repair GER 2: remove damage, 1 IPC each (damaged: {})", damaged.join(", ")));
            }
            let prices: Vec<String> = rs.unit_types().filter(|u| u.buyable).map(|u| format!("{} {}", short(u.kind), u.cost)).collect();
            out.push(format!("  {}", prices.join(", ")));
            if !s.purchased.is_empty() {
                let bought: Vec<_> = s.purchased.iter().map(|(k, n)| (*k, *n)).collect();
                out.push(format!("  bought: {}", counts_text(&bought)));
            }
            out.push("end: on to combat move".into());
        }
        Phase::CombatMove => {
            // Examples from the player's own units, each a move the rules
            // accept now (issue 33, point 5), and what can be attacked.
            let targets = attacks(game, p);
            match targets.first().and_then(|(to, from)| from.first().map(|f| (*to, *f))) {
                Some((to, (from, kind, n))) => {
                    out.push(format!("move {n} {} {} {}: attack {}", short(kind), rs.map.name(from), rs.map.name(to), rs.map.space(to).name));
                    let listed: Vec<String> = targets
                        .iter()
                        .take(8)
                        .map(|(to, from)| {
                            let mut origins: Vec<&str> = from.iter().map(|(f, _, _)| rs.map.name(*f)).collect();
                            origins.dedup();
                            format!("{} (from {})", rs.map.name(*to), origins.join(" "))
                        })
                        .collect();
                    let more = if targets.len() > 8 { format!(" and {} more", targets.len() - 8) } else { String::new() };
                    out.push(format!("  can attack: {}{more}", listed.join(", ")));
                }
                None => out.push("move N UNIT FROM TO: attack or reposition (no enemy next to your units)".into()),
            }
            if rs.unit_types().any(|u| u.strategic_bomber) && s.units.iter().any(|u| u.owner == p && rs.stats(u.kind).strategic_bomber) {
                out.push("bomb 1 bmb FROM TARGET: strategic bombing raid on an enemy complex".into());
            }
            battles_list(game, out);
            out.push("end: on to combat".into());
        }
        Phase::Combat => {
            if s.battles.iter().any(|b| !b.result.is_over()) {
                out.push("battle X (fight, deciding as it goes) or resolve X:".into());
                battles_list(game, out);
            } else {
                out.push("every battle is fought".into());
            }
            out.push("end: on to non-combat move".into());
        }
        Phase::NoncombatMove => {
            match own_move(game, p) {
                Some((from, kind, to)) => out.push(format!("move 1 {} {} {}: land aircraft, bring units up", short(kind), rs.map.name(from), rs.map.name(to))),
                None => out.push("move N UNIT FROM TO: land aircraft, bring units up".into()),
            }
            stranded_aircraft(game, p, out);
            out.push("end: aircraft without a landing are lost".into());
        }
        Phase::Place => {
            let waiting: Vec<_> = s.purchased.iter().map(|(k, n)| (*k, *n)).collect();
            let rel = game.relations();
            if rel.is_china(p) {
                // AA50 FAQ: China: no complex; where fewer than three
                // Chinese units stood before placing began.
                let spots: Vec<&str> = rs
                    .map
                    .ids()
                    .filter(|t| rs.map.is_land(*t) && s.control[t.index()] == Some(p))
                    .filter(|t| rel.units_of(p, *t).filter(|u| !u.flags.new).count() < 3)
                    .map(|t| rs.map.name(t))
                    .collect();
                out.push(format!("place 2 inf CHG: to place {}", counts_text(&waiting)));
                out.push(format!("  where fewer than 3 Chinese units stand: {}", spots.join(" ")));
            } else {
                out.push(format!("place 2 inf GER: to place {}", counts_text(&waiting)));
                let factories: Vec<String> = rs
                    .map
                    .ids()
                    .filter(|t| s.control[t.index()] == Some(p))
                    .filter(|t| s.units_at(*t).any(|u| rs.stats(u.kind).factory))
                    .map(|t| {
                        // The room left where production is limited.
                        let room = production::room_at(&rel, p, t, production::damage_at(&rel, t));
                        match room {
                            Some(r) => format!("{} ({} left)", rs.map.name(t), r.saturating_sub(s.placed.get(&t).copied().unwrap_or(0))),
                            None => rs.map.name(t).to_string(),
                        }
                    })
                    .collect();
                out.push(format!("  factories: {}", factories.join(" ")));
            }
            if rs.options.unplaced_units_kept {
                out.push("end: units with no room wait for a later turn (all that fit must be placed)".into());
            } else {
                out.push("end: unplaced units are lost".into());
            }
        }
        Phase::Income => {
            out.push(format!("end: collect {} IPCs (bank {bank})", game.income(p)));
        }
        // The Alternative round (ALT L18–46).
        Phase::Payday => out.push("end: every nation is paid; on to shopping".into()),
        Phase::Shopping => shopping_choices(game, p, bank, out),
        Phase::Turn => {
            match attacks(game, p).first().and_then(|(to, from)| from.first().map(|f| (*to, *f))) {
                Some((to, (from, kind, n))) => out.push(format!(
                    "move {n} {} {} {}: up to each unit's moves; into enemy units starts a battle",
                    short(kind),
                    rs.map.name(from),
                    rs.map.name(to)
                )),
                None => out.push("move N UNIT FROM TO: up to each unit's moves; into enemy units starts a battle".into()),
            }
            out.push("  board a ship: move 1 inf GER NOR; land: move 1 inf NOR NWY".into());
            out.push("battle CAU: fight a round; resolve CAU: fight it out".into());
            battles_list(game, out);
            out.push("end: end the turn (no space may be shared with the enemy)".into());
        }
    }
    patriotic_war(game, p, out);
}

/// Where `p`'s units at `at` can move now (issue 15, point 14, move help):
/// each kind with its moves left and the spaces the rules accept a move
/// to by the shortest way, tried on a copy of the game.
pub fn move_help(game: &Game, p: PowerId, at: SpaceId) -> Vec<String> {
    let s = &game.state;
    let rs = &game.ruleset;
    if !matches!(s.phase, Phase::CombatMove | Phase::NoncombatMove | Phase::Turn) || s.turn != p {
        return Vec::new();
    }
    let mut groups: Vec<(UnitType, u8, Vec<UnitId>)> = Vec::new();
    for u in s.units.iter().filter(|u| u.at == at && u.mover() == p && u.carried_by.is_none()) {
        let left = rs.stats(u.kind).movement.saturating_sub(u.moved);
        if left == 0 {
            continue;
        }
        match groups.iter_mut().find(|(k, m, _)| *k == u.kind && *m == left) {
            Some(g) => g.2.push(u.id),
            None => groups.push((u.kind, left, vec![u.id])),
        }
    }
    let mut out = Vec::new();
    for (kind, left, ids) in groups {
        let reach = reachable(game, ids[0]);
        let head = format!("{} ({} left)", counts_text(&[(kind, ids.len() as u32)]), if left == 1 { "1 move".to_string() } else { format!("{left} moves") });
        if reach.is_empty() {
            out.push(format!("{head}: no move the rules accept this phase"));
        } else {
            let names: Vec<&str> = reach.iter().take(14).map(|t| rs.map.name(*t)).collect();
            let more = if reach.len() > 14 { format!(" and {} more", reach.len() - 14) } else { String::new() };
            out.push(format!("{head} to: {}{more}", names.join(" ")));
        }
    }
    out
}

/// The spaces unit `id` may move to now by the shortest way, nearest
/// first: the rules judge each move, on a copy of the game.
fn reachable(game: &Game, id: UnitId) -> Vec<SpaceId> {
    let Some(u) = game.state.unit(id) else { return Vec::new() };
    let left = game.ruleset.stats(u.kind).movement.saturating_sub(u.moved) as usize;
    let (dist, prev) = steps_from(game, u.at);
    let mut out: Vec<(usize, SpaceId)> = Vec::new();
    for to in game.ruleset.map.ids().filter(|t| *t != u.at && dist[t.index()] <= left) {
        let route = route_to(&prev, u.at, to);
        if game.is_legal(&Action::Move { units: vec![id], route, transport: None, bombing: false }, &FixedDice(6)).is_ok() {
            out.push((dist[to.index()], to));
        }
    }
    out.sort();
    out.into_iter().map(|(_, t)| t).collect()
}

/// Steps from `at` over the whole map, and each space's predecessor on a
/// shortest way.
fn steps_from(game: &Game, at: SpaceId) -> (Vec<usize>, Vec<Option<SpaceId>>) {
    let map = &game.ruleset.map;
    let mut dist = vec![usize::MAX; map.len()];
    let mut prev = vec![None; map.len()];
    dist[at.index()] = 0;
    let mut queue = std::collections::VecDeque::from([at]);
    while let Some(t) = queue.pop_front() {
        for &n in &map.space(t).adjacent {
            if dist[n.index()] == usize::MAX {
                dist[n.index()] = dist[t.index()] + 1;
                prev[n.index()] = Some(t);
                queue.push_back(n);
            }
        }
    }
    (dist, prev)
}

fn route_to(prev: &[Option<SpaceId>], from: SpaceId, to: SpaceId) -> Vec<SpaceId> {
    let mut route = vec![to];
    let mut at = to;
    while let Some(p) = prev[at.index()] {
        route.push(p);
        at = p;
        if at == from {
            break;
        }
    }
    route.reverse();
    route
}

/// Aircraft of `p` that would be lost if the noncombat move ended now, and
/// where each can still land (issue 15, point 14): each space in reach is
/// tried once on a copy, the flight there and then the end of the phase.
fn stranded_aircraft(game: &Game, p: PowerId, out: &mut Vec<String>) {
    let Some(after) = after_phase_end(game, p) else { return };
    let rs = &game.ruleset;
    for u in game.state.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).domain == Domain::Air && after.state.unit(u.id).is_none()) {
        let left = rs.stats(u.kind).movement.saturating_sub(u.moved) as usize;
        let (dist, prev) = steps_from(game, u.at);
        let mut landings: Vec<(usize, &str)> = rs
            .map
            .ids()
            .filter(|to| *to != u.at && dist[to.index()] <= left)
            .filter(|to| {
                let mut g = game.clone();
                let route = route_to(&prev, u.at, *to);
                g.apply(&Action::Move { units: vec![u.id], route, transport: None, bombing: false }, &mut FixedDice(6)).is_ok()
                    && after_phase_end(&g, p).is_some_and(|a| a.state.unit(u.id).is_some())
            })
            .map(|t| (dist[t.index()], rs.map.name(t)))
            .collect();
        landings.sort();
        let names: Vec<&str> = landings.into_iter().map(|(_, n)| n).collect();
        let (what, at) = (u.kind.count_words(1), rs.map.name(u.at));
        if names.is_empty() {
            out.push(format!("  {what} at {at} has no landing in reach: it is lost when the phase ends"));
        } else {
            out.push(format!("  {what} at {at} still needs a landing: {}", names.join(" ")));
        }
    }
}

/// Alternative shopping: every nation buys and puts its units down at once
/// (ALT L20–26; fair buying: one unit at a time, in turn).
fn shopping_choices(game: &Game, p: PowerId, bank: i32, out: &mut Vec<String>) {
    let rs = &game.ruleset;
    let s = &game.state;
    let prices: Vec<String> = rs.unit_types().filter(|u| u.buyable).map(|u| format!("{} {}", short(u.kind), u.cost)).collect();
    out.push(format!("buy 3 inf 1 tank ... (bank {bank} points; {})", prices.join(", ")));
    let waiting: Vec<(UnitType, u32)> = s.unplaced.get(&p).map(|m| m.iter().filter(|(_, n)| **n > 0).map(|(k, n)| (*k, *n)).collect()).unwrap_or_default();
    if !waiting.is_empty() {
        out.push(format!("  to place: {}", counts_text(&waiting)));
        if rs.options.fair_buying {
            out.push("place 1 inf GER: one unit at a time, when it is your turn to place".into());
        } else {
            out.push("place 2 inf GER: on a territory you claim; ships in a sea zone next to one".into());
        }
        out.push("  planes on a territory you claim or aboard your ship there".into());
    }
    out.push("end: done shopping (the others' purchases are shown when all are done)".into());
}

/// Europe's Soviet Patriotic War: where allied land and air units stand in
/// one of the power's original industrial complexes, it may take them over
/// in any phase of its turn (the rules core judges the details).
fn patriotic_war(game: &Game, p: PowerId, out: &mut Vec<String>) {
    let rs = &game.ruleset;
    let s = &game.state;
    if rs.options.patriotic_war != rs.power(p).id || s.turn != p {
        return;
    }
    let spots: Vec<(&str, Vec<(UnitType, u32)>)> = rs
        .map
        .ids()
        .filter(|t| rs.map.space(*t).original_factory && rs.map.space(*t).original_owner == Some(p) && s.control[t.index()] == Some(p))
        .filter_map(|t| {
            let allied: Vec<(UnitType, u32)> = s
                .units_at(t)
                .filter(|u| u.owner != p && s.allied(u.owner, p) && !rs.stats(u.kind).is_sea() && !rs.stats(u.kind).factory)
                .map(|u| (u.kind, 1))
                .collect();
            (!allied.is_empty()).then(|| (rs.map.name(t), allied))
        })
        .collect();
    if let Some((at, units)) = spots.first() {
        let example = format!("convert {at} {}", counts_text(units));
        let all: Vec<String> = spots.iter().map(|(t, u)| format!("{t} ({})", counts_text(u))).collect();
        out.push(format!("{example}: take over allied units at {}", all.join(", ")));
    }
}

/// The battles declared this turn and not yet fought, with their odds.
fn battles_list(game: &Game, out: &mut Vec<String>) {
    for b in game.state.battles.iter().filter(|b| !b.result.is_over()) {
        let at = game.ruleset.map.name(b.at);
        match odds::of_battle(game, b) {
            Some(o) => out.push(format!("  {at}: {}", o.summary())),
            None => out.push(format!("  {at}: bombing raid")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_follows_the_phase() {
        let mut s = Session::new("classic", 1, vec![true; 5]).expect("a game starts");
        let text = lines(&s).join("\n");
        assert!(text.starts_with("You play russia now:"), "{text}");
        assert!(text.contains("weapons development is off"));
        let end = crate::play::command::Order::EndPhase;
        s.order(&end).expect("research ends");
        let text = lines(&s).join("\n");
        assert!(text.contains("buy 3 inf 1 arm ... (bank 24 IPCs)"), "{text}");
        assert!(text.contains("inf 3"), "prices are listed: {text}");
    }

    /// Issue 33, point 5: the examples are the player's own moves, each
    /// one the rules accept now, in every ruleset, with what can be
    /// attacked; `help` lists only the ruleset's own commands.
    #[test]
    fn the_examples_are_moves_the_rules_accept_now() {
        for ruleset in ["classic", "europe", "anniversary-1941"] {
            let n = warboard_rules::ruleset(ruleset).expect("loads").power_count();
            let mut s = Session::new(ruleset, 1, vec![true; n]).expect("a game starts");
            while s.game().state.phase != Phase::CombatMove {
                s.order(&crate::play::command::Order::EndPhase).expect("phases end");
            }
            let text = lines(&s);
            let example = text.iter().find(|l| l.starts_with("move ")).unwrap_or_else(|| panic!("{ruleset}: an example move: {text:?}"));
            assert!(text.iter().any(|l| l.starts_with("  can attack: ")), "{ruleset}: {text:?}");
            let order = example.split(':').next().expect("the command");
            let rs = s.game().ruleset.clone();
            let Ok(crate::play::command::Command::Order(o)) = crate::play::command::parse(order, &rs) else { panic!("{ruleset}: `{order}` parses") };
            s.order(&o).unwrap_or_else(|e| panic!("{ruleset}: the example `{order}` is accepted: {e}"));
        }
        let classic = crate::play::command::syntax_for(&warboard_rules::ruleset("classic").expect("loads"));
        // Classic plays without weapons development unless it is chosen.
        assert!(!classic.iter().any(|l| l.starts_with("research") || l.starts_with("repair") || l.starts_with("convert")), "{classic:?}");
        assert!(classic.iter().any(|l| l.starts_with("bomb ")), "{classic:?}");
        let europe = crate::play::command::syntax_for(&warboard_rules::ruleset("europe").expect("loads"));
        assert!(europe.iter().any(|l| l.starts_with("convert")), "{europe:?}");
        let anniversary = crate::play::command::syntax_for(&warboard_rules::ruleset("anniversary-1941").expect("loads"));
        assert!(anniversary.iter().any(|l| l.starts_with("repair")) && anniversary.iter().any(|l| l.contains("chart")), "{anniversary:?}");
    }

    /// Classic's submarines withdraw to a zone and never submerge in place:
    /// the help offers only what the rules accept.
    #[test]
    fn classic_submarines_are_offered_only_a_withdrawal() {
        let state = serde_json::json!({"turn": "germany", "phase": "combat_move", "units": [
            {"at": "BAL", "owner": "germany", "type": "submarine", "count": 2},
            {"at": "NOR", "owner": "uk", "type": "transport"},
            {"at": "NOR", "owner": "uk", "type": "submarine", "count": 2}]});
        let mut start = warboard_record::Start::standard("classic", warboard_record::DiceMode::Seeded { seed: 3 });
        start.position = warboard_record::Position { setup: "empty".into(), state: Some(state) };
        let mut s = Session::resume(warboard_record::Record::new(start).expect("a position"), vec![true; 5]);
        let rs = s.game().ruleset.clone();
        let order = |line: &str| match crate::play::command::parse(line, &rs) {
            Ok(crate::play::command::Command::Order(o)) => o,
            other => panic!("{line}: {other:?}"),
        };
        s.order(&order("move 2 sub BAL NOR")).expect("the subs attack");
        s.order(&order("end")).expect("on to combat");
        let mut asked = false;
        for _ in 0..20 {
            match battle::decision(&s.game().ruleset, &s.game().state) {
                Some((_, Decision::AttackerSubmarines | Decision::DefenderSubmarines)) => {
                    let text = lines(&s).join("\n");
                    assert!(!text.contains("sub (submerge)"), "classic never submerges in place: {text}");
                    assert!(text.contains("(withdraw)"), "{text}");
                    asked = true;
                    s.order(&order("continue")).expect("the subs fight on");
                }
                Some((_, Decision::Casualties { .. })) => {
                    // The help's own example: this battle's default losses.
                    let text = lines(&s);
                    let cas = text.iter().find_map(|l| l.trim().strip_prefix("cas ").map(|c| format!("cas {}", c.split(" (").next().unwrap_or(c))));
                    s.order(&order(&cas.expect("a casualty example"))).expect("the example is accepted");
                }
                _ if s.game().state.battles.iter().all(|b| b.result.is_over()) => break,
                _ => s.order(&order("battle NOR")).expect("the battle goes on"),
            }
        }
        assert!(asked, "the submarines' decision came up");
    }

    #[test]
    fn the_soviets_are_offered_the_patriotic_war_where_allied_units_stand() {
        let rs = warboard_rules::ruleset("europe").expect("europe loads");
        let mut game = Game::standard(rs.clone());
        let (russia, uk, germany) = (rs.power_by_name("russia").unwrap(), rs.power_by_name("uk").unwrap(), rs.power_by_name("germany").unwrap());
        let mos = rs.map.id("MOS").unwrap();
        let offered = |game: &Game, p: PowerId| {
            let mut out = Vec::new();
            patriotic_war(game, p, &mut out);
            out
        };
        game.state.turn = russia;
        assert!(offered(&game, russia).is_empty(), "no allied units stand in a Soviet complex at the start");
        game.state.add_unit(UnitType::Infantry, uk, mos);
        game.state.add_unit(UnitType::Fighter, uk, mos);
        assert_eq!(offered(&game, russia), vec!["convert MOS 1 inf 1 ftr: take over allied units at MOS (1 inf 1 ftr)".to_string()]);
        game.state.turn = germany;
        assert!(offered(&game, germany).is_empty(), "only the knob's power converts, in its own turn");
    }

    #[test]
    fn anniversary_help_names_charts_repairs_and_chinas_placement() {
        let mut s = Session::new("anniversary-1941", 1, vec![true; 7]).expect("an Anniversary game starts");
        let text = lines(&s).join("\n");
        assert!(text.starts_with("You play germany now:"), "{text}");
        assert!(text.contains("research N chart 1|2"), "{text}");
        let end = crate::play::command::Order::EndPhase;
        s.order(&end).expect("research ends");
        // A bombed complex is offered for repair.
        let game = s.game();
        let ger = game.ruleset.map.id("GER").unwrap();
        let mut damaged = game.clone();
        damaged.state.units.iter_mut().filter(|u| u.at == ger && game.ruleset.stats(u.kind).factory).for_each(|u| u.hits = 3);
        let mut out = Vec::new();
        phase_choices(&damaged, damaged.state.turn, &mut out);
        assert!(out.iter().any(|l| l.contains("repair GER 2") && l.contains("GER 3")), "{out:?}");
        // China's place phase lists its territories, not complexes.
        let china = game.ruleset.power_by_name("china").unwrap();
        let mut chinese = game.clone();
        chinese.state.turn = china;
        chinese.state.phase = Phase::Place;
        chinese.state.purchased.insert(UnitType::Infantry, 2);
        let mut out = Vec::new();
        phase_choices(&chinese, china, &mut out);
        assert!(out.iter().any(|l| l.starts_with("place 2 inf CHG")), "{out:?}");
        assert!(out.iter().any(|l| l.contains("fewer than 3 Chinese units") && l.contains("CHG")), "{out:?}");
        assert!(out.iter().any(|l| l.contains("wait for a later turn")), "{out:?}");
    }

    #[test]
    fn the_computers_turn_says_so() {
        let s = Session::new("classic", 1, vec![false, true, false, false, false]).expect("a game starts");
        assert_eq!(lines(&s), vec!["The computer is playing russia...".to_string()]);
    }

    #[test]
    fn the_casualty_example_names_this_battles_units() {
        // Issue 15, point 8: Germany defends against Russia's first attack;
        // the example lists units that are in the battle.
        let mut s = Session::new("classic", 1, vec![false, true, false, false, false]).expect("a game starts");
        while s.step_computer() {}
        let game = s.game();
        let Some((_, Decision::Casualties { candidates, .. })) = battle::decision(&game.ruleset, &game.state) else {
            panic!("Germany is asked for casualties first");
        };
        let text = lines(&s).join("\n");
        let example = text.lines().find(|l| l.trim_start().starts_with("cas ")).unwrap_or_else(|| panic!("no example: {text}"));
        let names = example.split("cas ").last().unwrap().trim_end_matches(')');
        for name in names.split_whitespace() {
            let id: u32 = name.trim_start_matches('u').parse().unwrap();
            assert!(candidates.iter().any(|c| c.0 == id), "{name} is not in the battle: {text}");
        }
    }

    #[test]
    fn move_help_lists_where_units_can_go_and_where_aircraft_can_land() {
        // Issue 15, point 14: Russia's units in Moscow in the combat move,
        // then a fighter left at sea in the noncombat move.
        let mut s = Session::new("classic", 1, vec![true; 5]).expect("a game starts");
        let end = crate::play::command::Order::EndPhase;
        s.order(&end).expect("research ends");
        s.order(&end).expect("purchase ends");
        let game = s.game();
        let (russia, mos) = (game.ruleset.power_by_name("russia").unwrap(), game.ruleset.map.id("MOS").unwrap());
        let help = move_help(game, russia, mos);
        let armor = help.iter().find(|l| l.starts_with("2 arm (2 moves left) to:")).unwrap_or_else(|| panic!("{help:?}"));
        // In the combat move only attacks: enemy and neutral land two steps away.
        assert!(armor.contains("UKR") && armor.contains("EEU") && !armor.contains("CAU"), "{armor}");
        // Moscow's neighbours are Russia's own: no attack for infantry.
        assert!(help.contains(&"4 inf (1 move left): no move the rules accept this phase".to_string()), "{help:?}");
        s.order(&end).expect("combat move ends");
        s.order(&end).expect("combat ends");
        let fly = crate::play::command::parse("move 1 ftr LEN KRZ", &s.game().ruleset.clone());
        let Ok(crate::play::command::Command::Order(o)) = fly else { panic!("a move") };
        s.order(&o).expect("the fighter flies out to sea");
        let text = lines(&s).join("\n");
        assert!(text.contains("1 fighter at KRZ still needs a landing: LEN"), "{text}");
    }
}
