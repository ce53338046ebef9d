//! Whole Anniversary Edition games, 1941 and 1942: seven powers, China
//! (no IPCs, free infantry placed without a complex, confined to China),
//! researchers on two charts, damaged complexes and repairs, units that must
//! be placed where they can be, victory cities. The computer player's every
//! proposal is legal, the baselines never stall, and no game stops early.

use std::cell::RefCell;
use std::rc::Rc;
use warboard_ai::{play_game, ComputerPlayer, GameOutcome, GreedyPlayer, Player, RandomPlayer};
use warboard_rules::game::Actor;
use warboard_rules::{ruleset, Action, FixedDice, Game, RuleError, SeededDice, Side, UnitType};

/// What the rules said to one side's players, and what they did.
#[derive(Default)]
struct Tally {
    /// Refused proposals, with the rule's code and sentence.
    refused: Vec<String>,
    /// The longest run of refusals in a row (the driver moves a player on
    /// after 200: a stall).
    longest_run: u32,
    run: u32,
    /// Accepted research actions (with a chart).
    research: u32,
    /// Accepted repairs.
    repairs: u32,
    /// Accepted placements by China.
    china_placed: u32,
}

/// A player whose proposals are counted: one is accepted when the next is
/// asked for without a refusal in between.
struct Watched {
    inner: Box<dyn Player>,
    tally: Rc<RefCell<Tally>>,
    last: Option<(Action, bool)>,
}

impl Watched {
    fn settle(&mut self) {
        if let Some((a, china)) = self.last.take() {
            let mut t = self.tally.borrow_mut();
            match a {
                Action::Research { chart: Some(_), .. } => t.research += 1,
                Action::Repair { .. } => t.repairs += 1,
                Action::Place { .. } if china => t.china_placed += 1,
                _ => {}
            }
        }
    }
}

impl Player for Watched {
    fn next_action(&mut self, game: &Game) -> Action {
        self.settle();
        self.tally.borrow_mut().run = 0;
        let a = self.inner.next_action(game);
        self.last = Some((a.clone(), game.relations().is_china(game.state.turn)));
        a
    }
    fn rejected(&mut self, action: &Action, error: &RuleError) {
        self.last = None;
        {
            let mut t = self.tally.borrow_mut();
            t.refused.push(format!("{action:?}: {} ({})", error.message, error.code));
            t.run += 1;
            t.longest_run = t.longest_run.max(t.run);
        }
        self.inner.rejected(action, error);
    }
    fn intercept(&mut self, game: &Game, at: warboard_rules::SpaceId, power: warboard_rules::PowerId) -> Option<Action> {
        self.inner.intercept(game, at, power)
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        self.settle();
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Computer,
    Greedy,
    Random,
}

fn make(kind: Kind, seed: u64) -> Box<dyn Player> {
    match kind {
        Kind::Computer => Box::new(ComputerPlayer::new()),
        Kind::Greedy => Box::new(GreedyPlayer::new()),
        Kind::Random => Box::new(RandomPlayer::new(seed)),
    }
}

/// One standard game of `name` (`anniversary-1941` or `-1942`): `axis`
/// plays every Axis power, `allies` every Allied one.
fn game(name: &str, axis: Kind, allies: Kind, seed: u64, rounds: u32) -> (GameOutcome, Game, Tally, Tally) {
    let rs = ruleset(name).unwrap();
    let tallies = [Rc::new(RefCell::new(Tally::default())), Rc::new(RefCell::new(Tally::default()))];
    let mut players: Vec<Box<dyn Player>> = rs
        .power_ids()
        .map(|p| -> Box<dyn Player> {
            let (kind, tally) = if rs.side(p) == Side::Axis { (axis, &tallies[0]) } else { (allies, &tallies[1]) };
            Box::new(Watched { inner: make(kind, seed * 31 + p.0 as u64), tally: tally.clone(), last: None })
        })
        .collect();
    let mut game = Game::standard(rs);
    let outcome = play_game(&mut game, &mut players, &mut SeededDice::new(seed), rounds);
    drop(players);
    let [axis_tally, allies_tally] = tallies;
    let take = |t: Rc<RefCell<Tally>>| Rc::try_unwrap(t).ok().expect("the players are gone").into_inner();
    (outcome, game, take(axis_tally), take(allies_tally))
}

/// The game ended (a winner) or ran to its round limit, and nobody stalled.
fn complete(out: &GameOutcome, game: &Game, rounds: u32, tallies: &[&Tally]) {
    assert!(game.state.winner.is_some() || out.rounds > rounds, "the game stopped early in round {}: {out:?}", out.rounds);
    for t in tallies {
        assert!(t.longest_run < 200, "a player was refused {} times in a row: the driver had to move it on ({:?})", t.longest_run, t.refused.last());
    }
}

/// Victory cities `side` controls.
fn cities(game: &Game, side: Side) -> usize {
    let (rs, s) = (&game.ruleset, &game.state);
    rs.map.ids().filter(|t| rs.map.space(*t).victory_city && s.control[t.index()].is_some_and(|q| rs.side(q) == side)).count()
}

const SCENARIOS: [&str; 2] = ["anniversary-1941", "anniversary-1942"];

#[test]
fn the_computer_plays_whole_legal_anniversary_games_against_random_from_either_side() {
    let rounds = 30;
    for name in SCENARIOS {
        for seed in 1..=2u64 {
            // The Allies: fifteen victory cities means Berlin, Rome and more.
            let (out, g, random, ours) = game(name, Kind::Random, Kind::Computer, seed, rounds);
            complete(&out, &g, rounds, &[&ours, &random]);
            assert!(ours.refused.is_empty(), "{name}, the computer as the Allies (seed {seed}) proposed refused actions: {:#?}", ours.refused);
            assert_eq!(out.winner, Some(Side::Allies), "{name}, the computer as the Allies (seed {seed}): {out:?}");
            // The Axis: the side holding fifteen victory cities when a round
            // ends wins; the cities held are checked too, since the round's
            // end is judged by the rules core.
            let (out, g, ours, random) = game(name, Kind::Computer, Kind::Random, seed, rounds);
            complete(&out, &g, rounds, &[&ours, &random]);
            assert!(ours.refused.is_empty(), "{name}, the computer as the Axis (seed {seed}) proposed refused actions: {:#?}", ours.refused);
            let need = g.ruleset.options.victory_cities as usize;
            assert!(
                out.winner == Some(Side::Axis) || cities(&g, Side::Axis) >= need,
                "{name}, the computer as the Axis (seed {seed}) holds {} victory cities: {out:?}",
                cities(&g, Side::Axis)
            );
        }
    }
}

#[test]
fn computer_against_computer_researches_places_chinas_infantry_and_is_deterministic() {
    for name in SCENARIOS {
        let rounds = 6;
        let (a, ga, axis, allies) = game(name, Kind::Computer, Kind::Computer, 7, rounds);
        complete(&a, &ga, rounds, &[&axis, &allies]);
        assert!(axis.refused.is_empty() && allies.refused.is_empty(), "{name}: {:#?} {:#?}", axis.refused, allies.refused);
        assert!(axis.research + allies.research > 0, "{name}: researchers are hired when money allows");
        assert!(allies.china_placed > 0, "{name}: China places the infantry it receives");
        let china = ga.ruleset.power_by_name("china").unwrap();
        assert!(ga.state.units.iter().all(|u| u.owner != china || ga.ruleset.options.china_territories.iter().any(|t| t == ga.ruleset.map.name(u.at))), "{name}: Chinese units stay in China");
        let (b, gb, _, _) = game(name, Kind::Computer, Kind::Computer, 7, rounds);
        assert_eq!(a, b);
        assert_eq!(ga.state, gb.state);
    }
}

#[test]
fn the_baselines_play_whole_anniversary_games_without_stalling() {
    let rounds = 12;
    for name in SCENARIOS {
        for (axis, allies) in [(Kind::Random, Kind::Random), (Kind::Greedy, Kind::Greedy), (Kind::Greedy, Kind::Random), (Kind::Random, Kind::Computer), (Kind::Computer, Kind::Greedy)] {
            for seed in 1..=2u64 {
                let (out, g, a, b) = game(name, axis, allies, seed, rounds);
                complete(&out, &g, rounds, &[&a, &b]);
                for (t, kind) in [(&a, axis), (&b, allies)] {
                    if kind == Kind::Computer {
                        assert!(t.refused.is_empty(), "{name} {axis:?} against {allies:?} (seed {seed}): {:#?}", t.refused);
                    }
                }
            }
        }
    }
}

/// The position at `power`'s purchase phase in round 1 of 1941, every
/// earlier phase ended.
fn at_purchase(power: &str) -> (Game, warboard_rules::PowerId) {
    let rs = ruleset("anniversary-1941").unwrap();
    let p = rs.power_by_name(power).unwrap();
    let mut g = Game::standard(rs);
    let mut dice = SeededDice::new(1);
    while !(g.state.turn == p && g.state.phase == warboard_rules::Phase::Purchase) {
        if let Some(b) = g.state.battles.iter().find(|b| !b.result.is_over()) {
            let at = b.at;
            g.apply(&Action::Resolve { at: Some(at) }, &mut dice).unwrap();
        } else {
            g.apply(&Action::EndPhase, &mut dice).unwrap();
        }
    }
    (g, p)
}

/// A bombed complex is repaired before anything is bought, and the purchase
/// fits what the complexes can place.
#[test]
fn the_computer_repairs_a_damaged_complex_and_buys_what_it_can_place() {
    let (mut g, germany) = at_purchase("germany");
    let ger = g.ruleset.map.id("GER").unwrap();
    let factory = g.state.units.iter().position(|u| u.at == ger && g.ruleset.stats(u.kind).factory).unwrap();
    g.state.units[factory].hits = 6;
    let bank = g.state.ipcs[germany.index()];
    let mut ai = ComputerPlayer::new();
    let mut dice = FixedDice(1);
    let first = ai.next_action(&g);
    assert!(matches!(first, Action::Repair { at, count } if at == ger && count > 0), "{first:?}");
    g.apply(&first, &mut dice).unwrap();
    let Action::Purchase { units } = ai.next_action(&g) else { panic!("a purchase follows the repair") };
    g.apply(&Action::Purchase { units: units.clone() }, &mut dice).unwrap();
    assert!(g.state.ipcs[germany.index()] < bank);
    // Every unit bought can be placed this turn: Germany's complexes' room,
    // once the repair is made.
    let rel = g.relations();
    let room: u32 = warboard_ai::production::producing_factories(&rel, germany)
        .into_iter()
        .map(|t| warboard_ai::production::room_at(&rel, germany, t, warboard_ai::production::damage_at(&rel, t)).unwrap_or(u32::MAX))
        .sum();
    let bought: u32 = units.iter().map(|(_, n)| n).sum();
    assert!(bought <= room, "bought {bought} units for room for {room}: {units:?}");
}

/// With more units waiting than the complexes take, the computer places
/// all it can and then ends the phase (which the rules accept only then).
#[test]
fn the_computer_places_everything_placeable_before_ending_the_place_phase() {
    let (mut g, germany) = at_purchase("germany");
    let mut dice = SeededDice::new(2);
    g.state.ipcs[germany.index()] = 200;
    g.apply(&Action::Purchase { units: vec![(UnitType::Infantry, 30), (UnitType::Destroyer, 4)] }, &mut dice).unwrap();
    let mut ai = ComputerPlayer::new();
    while g.state.phase != warboard_rules::Phase::Place {
        let a = ai.next_action(&g);
        match g.apply(&a, &mut dice) {
            Ok(_) => {}
            Err(e) => ai.rejected(&a, &e),
        }
    }
    let mut steps = 0;
    while g.state.phase == warboard_rules::Phase::Place && g.state.turn == germany {
        let a = ai.next_action(&g);
        g.apply(&a, &mut dice).unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
        steps += 1;
        assert!(steps < 200);
    }
    let waiting: u32 = g.state.unplaced.get(&germany).map_or(0, |m| m.values().sum());
    assert!(waiting > 0, "more was bought than Germany's complexes take");
    assert!(steps > 5, "what fits was placed");
}

/// China receives one infantry per two territories and places them where
/// fewer than three Chinese units stand; it never buys.
#[test]
fn the_computer_plays_chinas_turn() {
    let (g, china) = at_purchase("china");
    let held = g.ruleset.map.ids().filter(|t| g.state.control[t.index()] == Some(china)).count() as u32;
    let mut g = g;
    let mut ai = ComputerPlayer::new();
    let mut dice = SeededDice::new(3);
    let mut placed = 0;
    // The same player answers the other side's battle decisions.
    while g.state.turn == china && g.state.round == 1 && g.actor() != Actor::Terminal {
        let a = ai.next_action(&g);
        assert!(!matches!(a, Action::Purchase { .. }), "China buys nothing");
        if let Action::Place { units, .. } = &a {
            placed += units.iter().map(|(_, n)| n).sum::<u32>();
        }
        match g.apply(&a, &mut dice) {
            Ok(_) => {}
            Err(e) => panic!("{a:?} refused: {e}"),
        }
    }
    assert_eq!(placed, held / 2, "China places the infantry it receives");
}

/// Forty games a side a scenario against the random player, and twenty
/// computer against computer (release: `cargo test -p warboard-ai --release
/// --test anniversary -- --ignored --nocapture`; BENCHMARKS.md has the
/// figures from `warboard selfplay --ruleset anniversary-1941`).
#[test]
#[ignore]
fn anniversary_strength_survey() {
    let (n, rounds) = (40u64, 40);
    for name in SCENARIOS {
        for side in [Side::Axis, Side::Allies] {
            let mut wins = 0;
            for seed in 1..=n {
                let (axis, allies) = if side == Side::Axis { (Kind::Computer, Kind::Random) } else { (Kind::Random, Kind::Computer) };
                let (out, g, a, b) = game(name, axis, allies, seed, rounds);
                complete(&out, &g, rounds, &[&a, &b]);
                let ours = if side == Side::Axis { &a } else { &b };
                assert!(ours.refused.is_empty(), "{name} seed {seed}: {:#?}", ours.refused);
                wins += u64::from(out.winner == Some(side));
            }
            println!("{name}, computer as {side:?}: {wins}/{n} wins against random");
            assert!(wins * 100 >= 95 * n, "{name}: the computer as {side:?} won only {wins} of {n}");
        }
        let (mut axis, mut allies) = (0, 0);
        for seed in 1..=n / 2 {
            let (out, g, a, b) = game(name, Kind::Computer, Kind::Computer, seed, rounds);
            complete(&out, &g, rounds, &[&a, &b]);
            assert!(a.refused.is_empty() && b.refused.is_empty(), "{name} seed {seed}");
            match out.winner {
                Some(Side::Axis) => axis += 1,
                Some(Side::Allies) => allies += 1,
                None => {}
            }
        }
        println!("{name}, computer against computer: Axis {axis}, Allies {allies}, undecided {} of {}", n / 2 - axis - allies, n / 2);
    }
}

/// With rockets, the computer fires at an enemy complex in range before
/// its battles (AA50 errata p. 12: one rocket per launcher territory and
/// per complex).
#[test]
fn the_computer_fires_rockets() {
    use warboard_rules::{ruleset, Action, Game, Phase, SeededDice};
    let rs = ruleset("anniversary-1941").unwrap();
    let mut game = Game::standard(rs.clone());
    let germany = rs.power_by_name("germany").unwrap();
    game.state.developments[germany.index()] |= warboard_rules::state::Development::Rockets.bit();
    game.state.phase = Phase::Combat;
    let a = warboard_ai::production::rocket(&game).expect("Germany's AA guns reach a Soviet or British complex");
    let Action::Rocket { at, .. } = a else { panic!("{a:?}") };
    let before = game.relations().factory_at(at).map_or(0, |f| f.hits);
    game.apply(&a, &mut SeededDice::new(3)).unwrap();
    assert!(game.relations().factory_at(at).unwrap().hits > before, "the complex took damage");
    assert_ne!(warboard_ai::production::rocket(&game), Some(a), "that gun's territory and that complex are done for the turn");
}

/// With escorts and interceptors, the computer defending a raided
/// territory intercepts with its fighters there before any battle.
#[test]
fn the_computer_intercepts_raids() {
    use warboard_ai::{ComputerPlayer, Player};
    use warboard_rules::{ruleset, Action, Game, Phase, SeededDice};
    let mut rs = (*ruleset("anniversary-1941").unwrap()).clone();
    rs.options.set("fighter_escorts_interceptors", &toml::Value::Boolean(true)).unwrap();
    let rs = std::sync::Arc::new(rs);
    let mut game = Game::empty(rs.clone());
    let (uk, germany) = (rs.power_by_name("uk").unwrap(), rs.power_by_name("germany").unwrap());
    let (gbr, ger) = (rs.map.id("GBR").unwrap(), rs.map.id("GER").unwrap());
    game.state.turn = uk;
    game.state.phase = Phase::CombatMove;
    game.state.round = 2;
    let bomber = game.state.add_unit(warboard_rules::ids::UnitType::Bomber, uk, gbr);
    game.state.add_unit(warboard_rules::ids::UnitType::IndustrialComplex, germany, ger);
    let fighter = game.state.add_unit(warboard_rules::ids::UnitType::Fighter, germany, ger);
    let route = vec![gbr, rs.map.id("SZ6").unwrap(), rs.map.id("NWE").unwrap(), ger];
    game.apply(&Action::Move { units: vec![bomber], route, transport: None, bombing: true }, &mut SeededDice::new(1)).unwrap();
    game.apply(&Action::EndPhase, &mut SeededDice::new(1)).unwrap();
    assert_eq!(warboard_ai::raids_to_intercept(&game), vec![(ger, germany)]);
    let mut defender = ComputerPlayer::new();
    assert_eq!(defender.intercept(&game, ger, germany), Some(Action::Intercept { at: ger, units: vec![fighter] }));
    // The defender's action is legal, taken by the defending power.
    let a = defender.intercept(&game, ger, germany).unwrap();
    game.apply_as(Some(germany), &a, &mut SeededDice::new(1)).unwrap();
    assert!(game.state.unit(fighter).unwrap().flags.intercepting);
}
