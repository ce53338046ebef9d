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

#[test]
#[ignore]
fn strength_survey() {
    for side in [Side::Axis, Side::Allies] {
        let mut wins = 0;
        let n = 20;
        let mut rounds = 0;
        for seed in 0..n {
            let (o, g) = game(Some(side), seed, 40);
            rounds += o.rounds;
            if o.winner == Some(side) {
                wins += 1;
            } else {
                let rel = g.relations();
                let vals: Vec<String> = g.ruleset.power_ids().map(|p| format!("{}:{}", g.ruleset.power(p).id, rel.territory_value(p))).collect();
                println!("seed {seed}: {:?} after {} rounds; values {}", o.winner, o.rounds, vals.join(" "));
            }
        }
        println!("AI as {side:?}: {wins}/{n} wins, {} rounds on average", rounds as f64 / n as f64);
    }
    let t = std::time::Instant::now();
    let (o, _) = game(None, 1, 40);
    println!("AI vs AI: {o:?} in {:?}", t.elapsed());
}


