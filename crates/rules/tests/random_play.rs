//! Random play from the standard position (issue: rules core). Random
//! candidate actions, legal or not, are applied; after each one the state
//! must satisfy the invariants, and a rejected action must leave the state
//! exactly as it was. Every accepted action must also keep the rule
//! families of issue 28 (`Families`): a unit whose movement has ended does
//! not move again; what happens once a turn happens once; combat move is
//! for attacking. They run in every ruleset, the Alternative rules too.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::BTreeSet;
use warboard_rules::battle::{self, BattleResult, Decision};
use warboard_rules::ids::{Domain, UnitType};
use warboard_rules::ruleset::ResearchCharts;
use warboard_rules::{ruleset, Action, Game, GameState, Phase, PowerId, SeededDice, SpaceId, UnitId};

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u32() as usize) % n.max(1)
}

/// A random action for the current decision, and the power that takes it
/// (in a phase of the whole round, one of those still acting).
fn candidate(game: &Game, rng: &mut ChaCha8Rng) -> (Option<PowerId>, Action) {
    let s = &game.state;
    let actors = game.actors();
    if !actors.is_empty() {
        let p = actors[below(rng, actors.len())];
        return (Some(p), shopping(game, p, rng));
    }
    let action = if s.phase == Phase::Turn && battle::decision(&game.ruleset, s).is_none() && below(rng, 6) != 0 {
        free_move(game, rng)
    } else {
        turn_candidate(game, rng)
    };
    (None, action)
}

/// Alternative shopping: buy, place on a claimed territory or the sea
/// beside one, or end the nation's shopping.
fn shopping(game: &Game, p: PowerId, rng: &mut ChaCha8Rng) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    let types: Vec<UnitType> = rs.unit_types().map(|u| u.kind).collect();
    match below(rng, 4) {
        0 => Action::EndPhase,
        1 => Action::Purchase { units: vec![(types[below(rng, types.len())], 1 + below(rng, 2) as u32)] },
        _ => {
            let claimed: Vec<SpaceId> = rs.map.ids().filter(|t| s.control[t.index()] == Some(p)).collect();
            if claimed.is_empty() {
                return Action::EndPhase;
            }
            let mut at = claimed[below(rng, claimed.len())];
            if below(rng, 3) == 0 {
                let n = rs.map.neighbours(at);
                at = n[below(rng, n.len())];
            }
            Action::Place { at, units: vec![(types[below(rng, types.len())], 1)] }
        }
    }
}

/// Alternative turn: a unit the turn's nation moves, along a random route
/// within its movement.
fn free_move(game: &Game, rng: &mut ChaCha8Rng) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    let mine: Vec<_> = s.units.iter().filter(|u| u.mover() == s.turn && rs.stats(u.kind).movement > 0).collect();
    if mine.is_empty() {
        return Action::EndPhase;
    }
    let u = mine[below(rng, mine.len())];
    let mut route = vec![u.at];
    for _ in 0..1 + below(rng, rs.stats(u.kind).movement as usize) {
        let n = rs.map.neighbours(*route.last().unwrap());
        route.push(n[below(rng, n.len())]);
    }
    Action::Move { units: vec![u.id], route, transport: None, bombing: false }
}

fn turn_candidate(game: &Game, rng: &mut ChaCha8Rng) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    let p = s.turn;
    if below(rng, 25) == 0 {
        return Action::EndPhase;
    }
    match s.phase {
        Phase::Research if rs.options.weapons_development && below(rng, 3) == 0 => {
            // Anniversary researchers work on a chart; classic rolls dice.
            let chart = (rs.options.research_charts == ResearchCharts::Anniversary).then(|| 1 + below(rng, 2) as u8);
            Action::Research { dice: below(rng, 3) as u32, development: None, chart }
        }
        Phase::Turn if battle::decision(rs, s).is_some() => battle_decision(game, rng),
        Phase::Turn => {
            let open: Vec<SpaceId> = s.battles.iter().filter(|b| !b.result.is_over()).map(|b| b.at).collect();
            if !open.is_empty() && below(rng, 2) == 0 {
                Action::Battle { at: open[below(rng, open.len())] }
            } else {
                Action::EndPhase
            }
        }
        Phase::Research | Phase::Income | Phase::Payday | Phase::Shopping => Action::EndPhase,
        Phase::Purchase => {
            if below(rng, 3) == 0 {
                return Action::EndPhase;
            }
            let damaged: Vec<SpaceId> = s.units.iter().filter(|u| u.owner == p && u.hits > 0 && rs.stats(u.kind).factory).map(|u| u.at).collect();
            if !damaged.is_empty() && below(rng, 2) == 0 {
                return Action::Repair { at: damaged[below(rng, damaged.len())], count: 1 + below(rng, 3) as u32 };
            }
            let types: Vec<UnitType> = rs.unit_types().map(|u| u.kind).collect();
            Action::Purchase { units: vec![(types[below(rng, types.len())], 1 + below(rng, 3) as u32)] }
        }
        Phase::CombatMove | Phase::NoncombatMove => {
            let mine: Vec<_> = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).movement > 0).collect();
            if mine.is_empty() || below(rng, 8) == 0 {
                return Action::EndPhase;
            }
            // Often a unit that has moved this turn: where its movement has
            // ended, a second move must be refused (issue 28).
            let moved: Vec<_> = mine.iter().filter(|u| u.moved > 0 || u.flags.moved_in_combat).collect();
            let u = if !moved.is_empty() && below(rng, 3) == 0 { moved[below(rng, moved.len())] } else { mine[below(rng, mine.len())] };
            let mut route = vec![u.at];
            let len = 1 + below(rng, rs.stats(u.kind).movement.max(1) as usize + 1);
            for _ in 0..len {
                let here = *route.last().unwrap();
                let n = rs.map.neighbours(here);
                route.push(n[below(rng, n.len())]);
            }
            let mut units = vec![u.id];
            // Sometimes take the whole stack of that type along.
            if below(rng, 3) == 0 {
                units = s.units.iter().filter(|x| x.at == u.at && x.owner == p && x.kind == u.kind && x.carried_by == u.carried_by).map(|x| x.id).collect();
            }
            // Sometimes a bomber takes an infantry along (paratroopers).
            if u.kind == UnitType::Bomber && below(rng, 4) == 0 {
                if let Some(inf) = s.units.iter().find(|x| x.at == u.at && x.owner == p && x.kind == UnitType::Infantry) {
                    units.push(inf.id);
                }
            }
            let bombing = u.kind == UnitType::Bomber && below(rng, 4) == 0;
            // Sometimes a unit lands from a transport in the zone.
            if rs.map.is_sea(u.at) && rs.stats(u.kind).transport_capacity() > 0 && below(rng, 2) == 0 {
                let cargo: Vec<UnitId> = s.cargo_of(u.id).map(|c| c.id).collect();
                let shores: Vec<SpaceId> = rs.map.neighbours(u.at).iter().copied().filter(|t| rs.map.is_land(*t)).collect();
                if !cargo.is_empty() && !shores.is_empty() {
                    return Action::Move { units: cargo, route: vec![u.at, shores[below(rng, shores.len())]], transport: None, bombing: false };
                }
            }
            Action::Move { units, route, transport: None, bombing }
        }
        Phase::Combat => battle_decision(game, rng),
        Phase::Place => {
            let bought: Vec<UnitType> = s.purchased.keys().copied().collect();
            if bought.is_empty() || below(rng, 6) == 0 {
                return Action::EndPhase;
            }
            let at = SpaceId(below(rng, rs.map.len()) as u16);
            // Aim at own factories and the sea beside them most of the time.
            let factories: Vec<SpaceId> = s.units.iter().filter(|u| u.owner == p && u.kind == UnitType::IndustrialComplex).map(|u| u.at).collect();
            let at = if !factories.is_empty() && below(rng, 4) != 0 {
                let f = factories[below(rng, factories.len())];
                if below(rng, 3) == 0 {
                    let n = rs.map.neighbours(f);
                    n[below(rng, n.len())]
                } else {
                    f
                }
            } else {
                at
            };
            Action::Place { at, units: vec![(bought[below(rng, bought.len())], 1)] }
        }
    }
}

/// A battle's decision, or starting one, in the combat phase (or the
/// Alternative turn).
fn battle_decision(game: &Game, rng: &mut ChaCha8Rng) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    match battle::decision(rs, s) {
        Some((_, Decision::Casualties { candidates, hits, .. })) => {
            let mut c = candidates.clone();
            let mut chosen = Vec::new();
            let want = if below(rng, 10) == 0 { hits as usize + 1 } else { hits as usize };
            while chosen.len() < want && !c.is_empty() {
                chosen.push(c.swap_remove(below(rng, c.len())));
            }
            Action::Casualties { units: chosen }
        }
        Some((i, d)) => {
            let b = &s.battles[i];
            match below(rng, 4) {
                0 => Action::Continue,
                1 => Action::Resolve { at: None },
                2 => {
                    let to = b.came_from.get(below(rng, b.came_from.len() + 1)).copied();
                    Action::Retreat { to }
                }
                _ => {
                    let subs: Vec<_> = s.units.iter().filter(|u| u.at == b.at && rs.stats(u.kind).submarine).map(|u| u.id).collect();
                    let n = rs.map.neighbours(b.at);
                    let _ = d;
                    Action::Submerge { units: subs, to: Some(n[below(rng, n.len())]) }
                }
            }
        }
        None => {
            let open: Vec<SpaceId> = s.battles.iter().filter(|b| b.result == BattleResult::Pending).map(|b| b.at).collect();
            if open.is_empty() {
                Action::EndPhase
            } else if below(rng, 2) == 0 {
                Action::Resolve { at: Some(open[below(rng, open.len())]) }
            } else {
                Action::Battle { at: open[below(rng, open.len())] }
            }
        }
    }
}

fn check_invariants(game: &Game, before: &GameState) -> Result<(), String> {
    let s = &game.state;
    let rs = &game.ruleset;
    if let Some(p) = s.ipcs.iter().position(|i| *i < 0) {
        return Err(format!("{}'s bank is negative", rs.powers[p].id));
    }
    let old: BTreeSet<_> = before.units.iter().map(|u| u.id).collect();
    for u in &s.units {
        if !old.contains(&u.id) {
            let placed = matches!(before.phase, Phase::Place | Phase::Shopping) && u.id.0 >= before.next_unit;
            if !placed {
                return Err(format!("unit {:?} ({}) appeared from nowhere", u.id, u.kind));
            }
        }
        let st = rs.stats(u.kind);
        let sea = rs.map.is_sea(u.at);
        match st.domain {
            Domain::Land if sea => {
                let aboard = u.carried_by.and_then(|c| s.unit(c)).is_some_and(|c| c.at == u.at && rs.stats(c.kind).transport_capacity() > 0);
                if !aboard {
                    return Err(format!("a {} stands at sea without a transport", u.kind));
                }
            }
            Domain::Sea if !sea => return Err(format!("a {} stands on land", u.kind)),
            _ => {}
        }
        if let Some(c) = u.carried_by {
            let Some(carrier) = s.unit(c) else { return Err("cargo of a unit that is gone".into()) };
            if carrier.at != u.at {
                return Err("cargo is not where its carrier is".into());
            }
        }
        if st.transport_capacity() > 0 {
            let load: u32 = s.cargo_of(u.id).map(|c| rs.stats(c.kind).transport_cost() as u32).sum();
            if load > st.transport_capacity() as u32 {
                return Err("a transport carries more than it can".into());
            }
            // One nation's troops a transport (DAAK 3.3(d)); a ship of the
            // Alternative rules holds "any two units in any combination"
            // (ALT L32), teammates' too.
            let owners: BTreeSet<_> = s.cargo_of(u.id).map(|c| c.owner).collect();
            if owners.len() > 1 && !rs.options.free_movement {
                return Err("a transport carries units of two nations (DAAK 3.3(d))".into());
            }
        }
    }
    for t in rs.map.ids() {
        let aa = s.units.iter().filter(|u| u.at == t && rs.stats(u.kind).anti_aircraft > 0 && u.carried_by.is_none()).count();
        if aa > 1 && rs.options.one_aa_gun_per_territory {
            return Err(format!("{} holds {aa} AA guns", rs.map.name(t)));
        }
    }
    Ok(())
}

/// The rule families of issue 28, judged on every accepted action against
/// the state before it, so that the next instance of a family is found by
/// a test and not by a player.
#[derive(Default)]
struct Families {
    /// The turn (round, power) the records below belong to.
    turn: Option<(u32, PowerId)>,
    researched: bool,
    rockets_from: BTreeSet<SpaceId>,
    rockets_at: BTreeSet<SpaceId>,
}

impl Families {
    fn check(&mut self, game: &Game, before: &GameState, action: &Action) -> Result<(), String> {
        let key = (before.round, before.turn);
        if self.turn != Some(key) {
            *self = Families { turn: Some(key), ..Families::default() };
        }
        match action {
            // Once a turn: research (AA50 rules: Research & Development),
            // a rocket from each territory and at each complex (AA50
            // errata p. 12).
            Action::Research { .. } => {
                if std::mem::replace(&mut self.researched, true) {
                    return Err("research rolled twice in one turn".into());
                }
            }
            Action::Rocket { from, at } => {
                if !self.rockets_from.insert(*from) || !self.rockets_at.insert(*at) {
                    return Err("a second rocket from one territory or at one complex in a turn".into());
                }
            }
            Action::Move { units, route, .. } if matches!(before.phase, Phase::CombatMove | Phase::NoncombatMove) => {
                movement_ended(game, before, units)?;
                if before.phase == Phase::CombatMove {
                    combat_move_attacks(game, before, units, route)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// "A unit's movement ends when ...": it entered a space where it must
/// fight (RULES: movement; AA50 rules: Combat Move) or a neutral country
/// (DAAK 2.7(b)), it landed from a
/// transport (DAAK 3.2(b)), its transport unloaded (DAAK 3.2(d)), its
/// bomber dropped paratroopers (AA50 errata p. 12). Cargo rides with its
/// transport and may land from a zone with a battle.
fn movement_ended(game: &Game, before: &GameState, units: &[UnitId]) -> Result<(), String> {
    let rs = &game.ruleset;
    let combat = before.phase == Phase::CombatMove;
    for id in units {
        let Some(u) = before.unit(*id) else { continue };
        if u.carried_by.is_some() {
            continue;
        }
        let st = rs.stats(u.kind);
        let in_battle = before.battles.iter().any(|b| b.at == u.at && b.attacker == u.owner && !b.result.is_over());
        let why = if combat && (u.moved > 0 || u.flags.moved_in_combat) && in_battle {
            "moved on out of the battle it had entered"
        } else if combat && st.domain == Domain::Land && u.flags.moved_in_combat && before.conquered[u.at.index()] && rs.map.space(u.at).neutral {
            "moved on out of a neutral country it entered (DAAK 2.7(b))"
        } else if u.flags.unloaded {
            "moved again after landing from a transport"
        } else if st.transport_capacity() > 0 && u.flags.transport_unloaded {
            "sailed after unloading"
        } else if u.flags.dropped {
            "flew on after dropping paratroopers"
        } else {
            continue;
        };
        return Err(format!("a {} at {} {why}", u.kind, rs.map.name(u.at)));
    }
    Ok(())
}

/// "Only in combat move for an attack": a combat move attacks or takes
/// something on its way or at its end (enemy or neutral land: a blitz, an
/// overflight of a neutral, DAAK 2.7(c), 3.6; enemy units; a territory
/// taken this turn that others join), aircraft never end at a sea zone
/// without enemy units unless they took a neutral on the way, and AA guns
/// never move (DAAK 3.1(f), 3.2(c)).
fn combat_move_attacks(game: &Game, before: &GameState, units: &[UnitId], route: &[SpaceId]) -> Result<(), String> {
    let rs = &game.ruleset;
    let Some(mover) = units.first().and_then(|id| before.unit(*id)).map(|u| u.owner) else { return Ok(()) };
    let dest = *route.last().unwrap();
    let stats = |id: &UnitId| before.unit(*id).map(|u| rs.stats(u.kind));
    if units.iter().any(|id| stats(id).is_some_and(|st| st.anti_aircraft > 0)) {
        return Err("an AA gun moved in combat move".into());
    }
    let enemies_at = |t: SpaceId| before.units.iter().any(|u| u.at == t && !before.allied(mover, u.owner));
    let hostile_land = |t: SpaceId| rs.map.is_land(t) && before.control[t.index()].is_none_or(|c| !before.allied(mover, c));
    // Land units take empty enemy land as they pass (a blitz); aircraft
    // only a neutral they fly over.
    let air = units.iter().any(|id| stats(id).is_some_and(|st| st.is_air()));
    let taken = |t: SpaceId| if air { rs.map.is_land(t) && before.control[t.index()].is_none() } else { hostile_land(t) };
    let takes_on_the_way = route[1..route.len() - 1].iter().any(|t| taken(*t));
    if rs.map.is_land(dest) {
        if !hostile_land(dest) && !enemies_at(dest) && !before.conquered[dest.index()] && !takes_on_the_way {
            return Err(format!("a combat move ended in friendly {} with nothing to attack", rs.map.name(dest)));
        }
    } else if air && !enemies_at(dest) && !takes_on_the_way {
        return Err(format!("aircraft flew to {} in combat move with no enemy there", rs.map.name(dest)));
    }
    Ok(())
}

fn play(seed: u64, steps: usize) -> Result<(), String> {
    play_ruleset("classic", seed, steps)
}

fn play_ruleset(name: &str, seed: u64, steps: usize) -> Result<(), String> {
    let mut game = Game::standard(ruleset(name).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dice = SeededDice::new(seed ^ 0x9e37_79b9);
    let mut families = Families::default();
    for step in 0..steps {
        if game.state.winner.is_some() {
            break;
        }
        let (power, action) = candidate(&game, &mut rng);
        let before = game.state.clone();
        match game.apply_as(power, &action, &mut dice) {
            Ok(_) => {
                let at = |e: String| format!("{name}, seed {seed}, step {step}, after {action:?}: {e}");
                check_invariants(&game, &before).map_err(at)?;
                families.check(&game, &before, &action).map_err(at)?;
            }
            Err(e) => {
                if game.state != before {
                    return Err(format!("{name}, seed {seed}, step {step}: rejected {action:?} ({}) but the state changed", e.code));
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]
    #[test]
    fn random_play_keeps_invariants(seed in any::<u64>()) {
        prop_assert_eq!(play(seed, 1500), Ok(()));
    }
}

proptest! {
    // The other rulesets: Europe, Anniversary's two scenarios with
    // research, repairs, paratroopers and China's turn, and the Alternative
    // rules' shopping and free movement.
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]
    #[test]
    fn random_play_keeps_invariants_in_every_ruleset(seed in any::<u64>()) {
        for name in ["europe", "anniversary-1941", "anniversary-1942", "alternative"] {
            prop_assert_eq!(play_ruleset(name, seed, 1500), Ok(()));
        }
    }
}

#[test]
fn random_play_reaches_later_rounds() {
    // With end_phase favoured the game moves on through turns and rounds.
    for name in ["classic", "europe", "anniversary-1941", "anniversary-1942", "alternative"] {
        let mut game = Game::standard(ruleset(name).unwrap());
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut dice = SeededDice::new(7);
        for _ in 0..3000 {
            let (power, a) = candidate(&game, &mut rng);
            let _ = game.apply_as(power, &a, &mut dice);
            if game.state.winner.is_some() {
                break;
            }
        }
        assert!(game.state.round >= 2 || game.state.winner.is_some(), "{name}: round {}", game.state.round);
    }
}

#[test]
#[ignore]
fn random_play_stats() {
    let mut game = Game::standard(ruleset("classic").unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut dice = SeededDice::new(11);
    let mut ok = std::collections::BTreeMap::new();
    let mut bad = std::collections::BTreeMap::new();
    for _ in 0..20000 {
        let (power, a) = candidate(&game, &mut rng);
        let name = format!("{:?}", a).split([' ', '{']).next().unwrap().to_string();
        match game.apply_as(power, &a, &mut dice) {
            Ok(_) => *ok.entry(name).or_insert(0) += 1,
            Err(e) => *bad.entry(e.code).or_insert(0) += 1,
        }
        if game.state.winner.is_some() { break; }
    }
    println!("round {} winner {:?}\nok {:?}\nrejected {:?}", game.state.round, game.state.winner, ok, bad);
}
