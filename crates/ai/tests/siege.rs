//! The siege of the last enemy capital (issue 14,
//! `Style::siege`, crate::siege). Positions on the classic board:
//! every territory American but Japan (JPN), whose only sea zone (JPZ)
//! holds Japan's transports (each defends at 1); Germany's capital taken,
//! so Tokyo is the last Axis capital. Manchuria (MAN) borders JPZ.

mod common;

use warboard_ai::odds::{ExactOdds, Odds};
use warboard_ai::Style;
use warboard_rules::ids::{PowerId, SpaceId, UnitType};
use warboard_rules::{ruleset, Action, Game, Phase};

struct Board {
    game: Game,
    usa: PowerId,
    id: Box<dyn Fn(&str) -> SpaceId>,
}

/// The United States' turn in `phase` with `bank` IPCs, its `bombers` in
/// Manchuria, a factory in the Western United States, six empty transports
/// off it; Japan's `screen` transports in JPZ and two infantry at home.
fn board(phase: Phase, bank: i32, bombers: usize, screen: usize) -> Board {
    let (mut game, usa, id) = common::held_by("classic", "usa", phase, 20);
    let japan = common::hold(&mut game, "japan", id("JPN"), &[(UnitType::Infantry, 2)]);
    game.state.ipcs[usa.index()] = bank;
    game.state.add_unit(UnitType::IndustrialComplex, usa, id("WUS"));
    for _ in 0..screen {
        game.state.add_unit(UnitType::Transport, japan, id("JPZ"));
    }
    for _ in 0..6 {
        game.state.add_unit(UnitType::Transport, usa, id("WUZ"));
    }
    for _ in 0..bombers {
        game.state.add_unit(UnitType::Bomber, usa, id("MAN"));
    }
    Board { game, usa, id: Box::new(id) }
}

fn play_phase(b: &mut Board, style: Style) -> Vec<Action> {
    common::play_phase(&mut b.game, b.usa, style)
}

const AIR_AT_SEA: Style = Style { air_at_sea: true, ..Style::STANDARD };
const SIEGE: Style = Style { siege: true, ..AIR_AT_SEA };

fn bought(played: &[Action]) -> Vec<(UnitType, u32)> {
    played
        .iter()
        .find_map(|a| match a {
            Action::Purchase { units } => Some(units.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

#[test]
fn a_screened_last_capital_gets_what_sweeps_its_screen() {
    let rs = ruleset("classic").unwrap();
    let strikers = |units: &[(UnitType, u32)]| -> Vec<(UnitType, u32)> {
        units.iter().copied().filter(|(t, _)| matches!(t, UnitType::Fighter | UnitType::Bomber | UnitType::Battleship | UnitType::Submarine)).collect()
    };
    let screen = [(UnitType::Transport, 8)];
    let mut b = board(Phase::Purchase, 90, 0, 8);
    let standard = bought(&play_phase(&mut b, AIR_AT_SEA));
    let odds = ExactOdds::default();
    let before = odds.win_chance(&rs, &strikers(&standard), &screen, false);
    assert!(before < 0.75, "without the siege the purchase does not sweep eight transports: {standard:?} wins {before}");
    let mut b = board(Phase::Purchase, 90, 0, 8);
    let breakers = bought(&play_phase(&mut b, SIEGE));
    let after = odds.win_chance(&rs, &strikers(&breakers), &screen, false);
    assert!(after >= 0.75, "the purchase sweeps the screen at least three times in four: {breakers:?} wins {after}");
}

#[test]
fn the_screen_is_worn_down_when_the_trade_favours_it() {
    // Four bombers against eight transports: about an even chance, but
    // the transports lose more IPCs than the bombers (calc: +8 IPCs).
    let mut b = board(Phase::CombatMove, 0, 4, 8);
    let played = play_phase(&mut b, AIR_AT_SEA);
    assert!(played.is_empty(), "below the fleet threshold the standard planner holds back: {played:?}");
    let mut b = board(Phase::CombatMove, 0, 4, 8);
    let played = play_phase(&mut b, SIEGE);
    let jpz = (b.id)("JPZ");
    let strikes = played.iter().filter(|a| matches!(a, Action::Move { route, .. } if route.last() == Some(&jpz))).count();
    assert_eq!(strikes, 4, "the four bombers strike the screen: {played:?}");
}

#[test]
fn no_screen_while_another_enemy_capital_stands() {
    // Berlin German again: Tokyo is not the last capital, and the money
    // is not spent on the screen.
    let mut b = board(Phase::Purchase, 80, 0, 4);
    let germany = b.game.ruleset.power_by_name("germany").unwrap();
    let ger = (b.id)("GER");
    b.game.state.control[ger.index()] = Some(germany);
    b.game.state.start_control = b.game.state.control.clone();
    b.game.state.add_unit(UnitType::Infantry, germany, ger);
    let with = bought(&play_phase(&mut b, SIEGE));
    let mut b = board(Phase::Purchase, 80, 0, 4);
    b.game.state.control[ger.index()] = Some(germany);
    b.game.state.start_control = b.game.state.control.clone();
    b.game.state.add_unit(UnitType::Infantry, germany, ger);
    let without = bought(&play_phase(&mut b, AIR_AT_SEA));
    assert_eq!(with, without, "the same purchase as without the siege");
}
