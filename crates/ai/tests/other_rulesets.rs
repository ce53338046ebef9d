//! The game driver on a ruleset other than classic: the core's test ruleset
//! (crates/rules/tests/data/testland), whose rounds open with a purchase in
//! which every power acts. Random players must get through several rounds.

use std::sync::Arc;
use warboard_ai::{play_game, Player, RandomPlayer};
use warboard_rules::ruleset::{load_scenario, RulesetFiles};
use warboard_rules::{Game, SeededDice};

#[test]
fn random_players_play_testland_rounds() {
    let files = RulesetFiles {
        dir: "crates/rules/tests/data/testland",
        ruleset: include_str!("../../rules/tests/data/testland/ruleset.toml"),
        map: include_str!("../../rules/tests/data/testland/map.toml"),
        setups: vec![
            ("setup.toml", include_str!("../../rules/tests/data/testland/setup.toml")),
            ("setup-b.toml", include_str!("../../rules/tests/data/testland/setup-b.toml")),
        ],
    };
    for scenario in [None, Some("b")] {
        let rs = Arc::new(load_scenario(&files, scenario).unwrap());
        let mut game = Game::standard(rs.clone());
        let mut players: Vec<Box<dyn Player>> = (0..rs.power_count()).map(|i| Box::new(RandomPlayer::new(i as u64 + 7)) as Box<dyn Player>).collect();
        let outcome = play_game(&mut game, &mut players, &mut SeededDice::new(3), 6);
        assert!(outcome.rounds >= 4 || game.state.winner.is_some(), "{scenario:?}: stuck in round {}", outcome.rounds);
        assert!(outcome.actions > 30, "{scenario:?}: only {} actions", outcome.actions);
    }
}
