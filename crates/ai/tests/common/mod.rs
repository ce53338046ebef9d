//! Positions for the computer players' tests: a board where one power holds
//! every territory but a few, and a player's moves of one phase.

use std::sync::Arc;
use warboard_ai::{ComputerPlayer, Player, Style};
use warboard_rules::ids::{PowerId, SpaceId, UnitType};
use warboard_rules::{ruleset, Action, Game, Phase, Ruleset, SeededDice};

/// An empty board of `ruleset` where `owner` holds every territory but
/// neutrals, at `owner`'s turn in `phase` of `round`; and the space id of a
/// name.
pub fn held_by(ruleset_name: &str, owner: &str, phase: Phase, round: u32) -> (Game, PowerId, impl Fn(&str) -> SpaceId) {
    let rs: Arc<Ruleset> = ruleset(ruleset_name).unwrap();
    let mut game = Game::empty(rs.clone());
    let p = rs.power_by_name(owner).unwrap();
    for t in rs.map.ids() {
        if rs.map.is_land(t) && !rs.map.space(t).neutral {
            game.state.control[t.index()] = Some(p);
        }
    }
    game.state.start_control = game.state.control.clone();
    game.state.turn = p;
    game.state.round = round;
    game.state.phase = phase;
    let id = move |name: &str| rs.map.id(name).unwrap_or_else(|| panic!("{name}"));
    (game, p, id)
}

/// Plays `style`'s actions of the current phase for `p` (each must be
/// legal) and returns them.
pub fn play_phase(game: &mut Game, p: PowerId, style: Style) -> Vec<Action> {
    let mut player = ComputerPlayer::new().with_style(style);
    let phase = game.state.phase;
    let mut played = Vec::new();
    while game.state.phase == phase && game.state.turn == p {
        let a = player.next_action(game);
        if a == Action::EndPhase {
            break;
        }
        game.apply(&a, &mut SeededDice::new(1)).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        played.push(a);
    }
    played
}

/// Hands `t` to `holder` (a power's name) with a factory and `units`
/// there: an enemy capital held out on a board `held_by` gave away.
#[allow(dead_code)] // not every test file has one
pub fn hold(game: &mut Game, holder: &str, t: SpaceId, units: &[(UnitType, usize)]) -> PowerId {
    let q = game.ruleset.power_by_name(holder).unwrap();
    game.state.control[t.index()] = Some(q);
    game.state.start_control = game.state.control.clone();
    game.state.add_unit(UnitType::IndustrialComplex, q, t);
    for &(kind, n) in units {
        for _ in 0..n {
            game.state.add_unit(kind, q, t);
        }
    }
    q
}
