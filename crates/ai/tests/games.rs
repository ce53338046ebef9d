//! Whole games between computer players.

use warboard_ai::{play_game, ComputerPlayer, GameOutcome, Player, RandomPlayer};
use warboard_rules::{ruleset, Game, SeededDice, Side};

fn players(ai_side: Option<Side>, seed: u64) -> Vec<Box<dyn Player>> {
    let rs = ruleset("classic").unwrap();
    rs.power_ids()
        .map(|p| -> Box<dyn Player> {
            if ai_side.is_none_or(|s| rs.side(p) == s) {
                Box::new(ComputerPlayer::new())
            } else {
                Box::new(RandomPlayer::new(seed * 31 + p.0 as u64))
            }
        })
        .collect()
}

fn game(ai_side: Option<Side>, seed: u64, rounds: u32) -> (GameOutcome, Game) {
    let mut g = Game::standard(ruleset("classic").unwrap());
    let mut ps = players(ai_side, seed);
    let mut dice = SeededDice::new(seed);
    let out = play_game(&mut g, &mut ps, &mut dice, rounds);
    (out, g)
}

#[test]
fn computer_against_computer_is_deterministic() {
    let (a, ga) = game(None, 5, 6);
    let (b, gb) = game(None, 5, 6);
    assert_eq!(a, b);
    assert_eq!(ga.state, gb.state);
    assert!(a.actions > 100, "{a:?}");
}

#[test]
fn computer_beats_random_from_either_side() {
    use warboard_ai::series::{play_classic, PlayerKind};
    for seed in 1..=4 {
        let o = play_classic(seed, PlayerKind::Computer, PlayerKind::Random, 40).unwrap();
        assert_eq!(o.winner, Some(Side::Axis), "AI as Axis, seed {seed}: {o:?}");
    }
    let wins = (1..=4).filter(|seed| play_classic(*seed, PlayerKind::Random, PlayerKind::Computer, 60).unwrap().winner == Some(Side::Allies)).count();
    assert!(wins >= 3, "AI as Allies won {wins} of 4 against random");
}

/// Twenty games a side against the random player (a few seconds in
/// release: `cargo test -p warboard-ai --release -- --ignored`).
#[test]
#[ignore]
fn strength_survey() {
    for side in [Side::Axis, Side::Allies] {
        let n = 20;
        let wins = (0..n).filter(|seed| game(Some(side), *seed, 60).0.winner == Some(side)).count();
        println!("AI as {side:?}: {wins}/{n} wins against random");
        assert!(wins >= 19, "AI as {side:?} won only {wins} of {n}");
    }
}
