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


#[test]
#[ignore]
fn debug_undecided() {
    use warboard_ai::series::PlayerKind;
    for seed in 1..40u64 {
        let rs = ruleset("classic").unwrap();
        let mut ps: Vec<Box<dyn Player>> = rs.power_ids().map(|p| {
            let kind = if rs.side(p) == Side::Axis { PlayerKind::Random } else { PlayerKind::Computer };
            kind.make(seed.wrapping_mul(1_000_003).wrapping_add(p.0 as u64))
        }).collect();
        let mut g = Game::standard(rs.clone());
        let mut dice = SeededDice::new(seed);
        let o = play_game(&mut g, &mut ps, &mut dice, 60);
        if o.winner.is_some() { continue; }
        let rel = g.relations();
        let vals: Vec<String> = rs.power_ids().map(|p| format!("{}:{}", rs.power(p).id, rel.territory_value(p))).collect();
        println!("seed {seed}: {vals:?}");
        for t in rs.map.ids() {
            if let Some(c) = g.state.control[t.index()] { if rs.side(c) == Side::Axis && rs.map.space(t).ipc > 0 || rs.map.space(t).capital_of.is_some() && rs.side(c)==Side::Axis {
                let units: Vec<String> = g.state.units_at(t).map(|u| format!("{}-{}", rs.power(u.owner).id, u.kind)).collect();
                println!("  {} held by {}: {:?}", rs.map.name(t), rs.power(c).id, units);
            }}
        }
        let mut ships = std::collections::BTreeMap::new();
        for u in g.state.units.iter().filter(|u| rs.stats(u.kind).is_sea() && rs.side(u.owner) == Side::Allies) {
            *ships.entry(format!("{}@{}", u.kind, rs.map.name(u.at))).or_insert(0) += 1;
        }
        println!("  allied ships: {ships:?}");
        break;
    }
}
