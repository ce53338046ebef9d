//! Whole Europe games (issue 11): the computer player plans from the
//! ruleset's data (artillery with infantry, destroyers, no new industrial
//! complexes, impassable neutrals, the closed Bosphorus), and every action
//! it proposes is legal: the rules never have to refuse it, and no game
//! stalls.

use std::cell::RefCell;
use std::rc::Rc;
use warboard_ai::{play_game, ComputerPlayer, GameOutcome, Player, RandomPlayer};
use warboard_rules::{ruleset, Action, Event, Game, RuleError, SeededDice, Side};

/// What the rules said to one side's players.
#[derive(Default)]
struct Tally {
    /// Refused proposals, with the rule's code and sentence.
    refused: Vec<String>,
    /// The longest run of refusals in a row (the driver moves a player on
    /// after 200: a stall).
    longest_run: u32,
    run: u32,
}

/// A player whose refusals are counted.
struct Watched {
    inner: Box<dyn Player>,
    tally: Rc<RefCell<Tally>>,
}

impl Player for Watched {
    fn next_action(&mut self, game: &Game) -> Action {
        self.tally.borrow_mut().run = 0;
        self.inner.next_action(game)
    }
    fn rejected(&mut self, action: &Action, error: &RuleError) {
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

/// One standard Europe game: the computer plays `computer` (every power of
/// that side; both sides when `None`), the random player the rest.
fn europe_game(computer: Option<Side>, seed: u64, rounds: u32) -> (GameOutcome, Game, Tally, Tally) {
    let rs = ruleset("europe").unwrap();
    let (ours, theirs) = (Rc::new(RefCell::new(Tally::default())), Rc::new(RefCell::new(Tally::default())));
    let mut players: Vec<Box<dyn Player>> = rs
        .power_ids()
        .map(|p| -> Box<dyn Player> {
            if computer.is_none_or(|side| rs.side(p) == side) {
                Box::new(Watched { inner: Box::new(ComputerPlayer::new()), tally: ours.clone() })
            } else {
                Box::new(Watched { inner: Box::new(RandomPlayer::new(seed * 31 + p.0 as u64)), tally: theirs.clone() })
            }
        })
        .collect();
    let mut game = Game::standard(rs);
    let outcome = play_game(&mut game, &mut players, &mut SeededDice::new(seed), rounds);
    drop(players);
    let take = |t: Rc<RefCell<Tally>>| Rc::try_unwrap(t).ok().expect("the players are gone").into_inner();
    (outcome, game, take(ours), take(theirs))
}

/// The game ended (a winner) or ran to its round limit, and nobody stalled.
fn complete(out: &GameOutcome, game: &Game, rounds: u32, tallies: &[&Tally]) {
    assert!(game.state.winner.is_some() || out.rounds > rounds, "the game stopped early in round {}: {out:?}", out.rounds);
    for t in tallies {
        assert!(t.longest_run < 200, "a player was refused {} times in a row: the driver had to move it on", t.longest_run);
    }
}

#[test]
fn the_computer_plays_whole_legal_europe_games_against_random_from_either_side() {
    let rounds = 30;
    for (side, seeds) in [(Side::Axis, 1..=3u64), (Side::Allies, 1..=3)] {
        for seed in seeds {
            let (out, game, ours, theirs) = europe_game(Some(side), seed, rounds);
            complete(&out, &game, rounds, &[&ours, &theirs]);
            assert!(ours.refused.is_empty(), "the computer as {side:?} (seed {seed}) proposed refused actions: {:#?}", ours.refused);
            assert_eq!(out.winner, Some(side), "the computer as {side:?} (seed {seed}) should beat the random player: {out:?}");
        }
    }
}

#[test]
fn computer_against_computer_in_europe_is_legal_and_deterministic() {
    let (a, ga, ours, _) = europe_game(None, 7, 8);
    complete(&a, &ga, 8, &[&ours]);
    assert!(ours.refused.is_empty(), "{:#?}", ours.refused);
    let (b, gb, _, _) = europe_game(None, 7, 8);
    assert_eq!(a, b);
    assert_eq!(ga.state, gb.state);
    assert!(a.actions > 300, "{a:?}");
}

/// What the computer buys comes from the unit table: artillery beside
/// infantry, never the industrial complex Europe does not sell.
#[test]
fn europe_purchases_follow_the_unit_table() {
    use warboard_rules::game::Actor;
    use warboard_rules::UnitType;
    let rs = ruleset("europe").unwrap();
    let mut game = Game::standard(rs.clone());
    let mut players: Vec<ComputerPlayer> = rs.power_ids().map(|_| ComputerPlayer::new()).collect();
    let mut dice = SeededDice::new(3);
    let mut bought: Vec<(UnitType, u32)> = Vec::new();
    while game.state.round <= 3 && game.state.winner.is_none() {
        let Actor::Power(p) = game.actor() else { break };
        let action = players[p.index()].next_action(&game);
        let events = game.apply_as(None, &action, &mut dice).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
        for e in events {
            if let Event::Purchased { units, .. } = e {
                bought.extend(units);
            }
        }
    }
    let count = |t: UnitType| bought.iter().filter(|(k, _)| *k == t).map(|(_, n)| n).sum::<u32>();
    assert!(count(UnitType::Artillery) > 0, "artillery raises infantry's attack: it is bought ({bought:?})");
    assert!(count(UnitType::Infantry) > 0);
    assert_eq!(count(UnitType::IndustrialComplex), 0);
    assert!(bought.iter().all(|(t, _)| rs.stats(*t).buyable));
}

/// Forty games a side against the random player, and forty computer
/// against computer (release: `cargo test -p warboard-ai --release --
/// --ignored europe_strength_survey --nocapture`; BENCHMARKS.md has the
/// figures from `warboard selfplay --ruleset europe`).
#[test]
#[ignore]
fn europe_strength_survey() {
    let (n, rounds) = (40, 40);
    for side in [Side::Axis, Side::Allies] {
        let mut wins = 0;
        for seed in 1..=n {
            let (out, game, ours, theirs) = europe_game(Some(side), seed, rounds);
            complete(&out, &game, rounds, &[&ours, &theirs]);
            assert!(ours.refused.is_empty(), "seed {seed}: {:#?}", ours.refused);
            wins += usize::from(out.winner == Some(side));
        }
        println!("Europe, computer as {side:?}: {wins}/{n} wins against random");
        assert!(wins * 100 >= 95 * n as usize, "the computer as {side:?} won only {wins} of {n}");
    }
    let (mut axis, mut allies) = (0, 0);
    for seed in 1..=n {
        let (out, game, ours, _) = europe_game(None, seed, rounds);
        complete(&out, &game, rounds, &[&ours]);
        assert!(ours.refused.is_empty(), "seed {seed}: {:#?}", ours.refused);
        match out.winner {
            Some(Side::Axis) => axis += 1,
            Some(Side::Allies) => allies += 1,
            None => {}
        }
    }
    println!("Europe, computer against computer: Axis {axis}, Allies {allies}, undecided {} of {n}", n as usize - axis - allies);
}
