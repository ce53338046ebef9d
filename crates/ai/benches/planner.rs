//! The planning player's time a turn (issue 14; results in BENCHMARKS.md):
//! `cargo bench -p warboard-ai`.
//!
//! What is timed is the search at the start of a turn (every candidate
//! style played out to the power's next turn, at the default budget) and
//! the turn's first action; the rest of the turn is the standard planner's
//! (about a millisecond). Positions: each ruleset's first turn, and the
//! position at the start of round 10 of a game between standard planners
//! (armies grown, fronts formed).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Duration;
use warboard_ai::planner::DEFAULT_THINK_MS;
use warboard_ai::{play_game, ComputerPlayer, PlanningPlayer, Player};
use warboard_rules::{ruleset, Game, SeededDice};

fn position(name: &str, round: u32) -> Game {
    let rs = ruleset(name).expect("a shipped ruleset");
    let mut game = Game::standard(rs.clone());
    if round > 1 {
        let mut players: Vec<Box<dyn Player>> = rs.power_ids().map(|_| Box::new(ComputerPlayer::new()) as Box<dyn Player>).collect();
        play_game(&mut game, &mut players, &mut SeededDice::new(1), round - 1);
    }
    game
}

fn turn(c: &mut Criterion) {
    let mut group = c.benchmark_group("planner_turn");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(5));
    for name in ["classic", "europe", "anniversary-1941", "anniversary-1942"] {
        for round in [1, 10] {
            let game = position(name, round);
            if game.state.winner.is_some() {
                continue;
            }
            group.bench_with_input(BenchmarkId::new(name, format!("round {round}")), &game, |b, game| {
                b.iter(|| PlanningPlayer::new(1, DEFAULT_THINK_MS).next_action(game));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, turn);
criterion_main!(benches);
