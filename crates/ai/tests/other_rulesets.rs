//! The game driver on a ruleset other than classic: the core's test ruleset
//! (crates/rules/tests/data/testland), whose rounds open with a purchase in
//! which every power acts. Random players must get through several rounds.

use std::sync::Arc;
use warboard_ai::{play_game, Player, RandomPlayer};
use warboard_rules::ruleset::load_scenario;

#[path = "../../rules/tests/support/testland_files.rs"]
mod testland_files;
use warboard_rules::{Game, SeededDice};

#[test]
fn random_players_play_testland_rounds() {
    let files = testland_files::files();
    // Many seeds: random play reaches battles with first strikes, damage,
    // submerging and support; none may panic or stall.
    // TESTLAND_SEED=k runs one game alone, to look into it.
    let only: Option<u64> = std::env::var("TESTLAND_SEED").ok().and_then(|v| v.parse().ok());
    for (seed, scenario) in (0..24u64).filter(|k| only.is_none_or(|o| o == *k)).map(|k| (k, if k % 2 == 0 { None } else { Some("b") })) {
        let rs = Arc::new(load_scenario(&files, scenario).unwrap());
        let mut game = Game::standard(rs.clone());
        let mut players: Vec<Box<dyn Player>> =
            (0..rs.power_count()).map(|i| Box::new(RandomPlayer::new(seed * 10 + i as u64)) as Box<dyn Player>).collect();
        let outcome = play_game(&mut game, &mut players, &mut SeededDice::new(seed), 8);
        assert!(outcome.rounds >= 4 || game.state.winner.is_some(), "{scenario:?}: stuck in round {}", outcome.rounds);
        assert!(outcome.actions > 30, "{scenario:?}: only {} actions", outcome.actions);
    }
}
