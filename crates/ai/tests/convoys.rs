//! Convoys (issue 14, `Style::convoys`): loaded transports stop where the
//! enemy cannot sink them next turn, or sail with an escort, and they land
//! troops from two zones away. Positions on the Anniversary 1942 board:
//! Japan's transport in SZ62 (beside Japan), Midway (MID) the only enemy
//! shore, beside SZ57, two zones on (SZ62, SZ58, SZ57); a US fighter on
//! Midway strikes SZ57 and SZ58 (half its range) but not SZ62.

mod common;

use warboard_ai::Style;
use warboard_rules::ids::{PowerId, SpaceId, UnitId, UnitType};
use warboard_rules::{Action, Game, Phase};

struct Board {
    game: Game,
    japan: PowerId,
    transport: UnitId,
    id: Box<dyn Fn(&str) -> SpaceId>,
}

/// Japan's turn in `phase`: every territory Japanese but Midway (American,
/// with `midway` on it), a transport with two infantry aboard in SZ62, and
/// Japan's `warships` in SZ62.
fn board(phase: Phase, midway: &[UnitType], warships: &[UnitType]) -> Board {
    let (mut game, japan, id) = common::held_by("anniversary-1942", "japan", phase, 3);
    let usa = game.ruleset.power_by_name("usa").unwrap();
    game.state.control[id("MID").index()] = Some(usa);
    game.state.start_control = game.state.control.clone();
    let sz62 = id("SZ62");
    let transport = game.state.add_unit(UnitType::Transport, japan, sz62);
    for _ in 0..2 {
        let inf = game.state.add_unit(UnitType::Infantry, japan, sz62);
        game.state.unit_mut(inf).unwrap().carried_by = Some(transport);
    }
    for k in warships {
        game.state.add_unit(*k, japan, sz62);
    }
    for k in midway {
        game.state.add_unit(*k, usa, id("MID"));
    }
    Board { game, japan, transport, id: Box::new(id) }
}

fn play_phase(b: &mut Board, style: Style) -> Vec<Action> {
    common::play_phase(&mut b.game, b.japan, style)
}

const CONVOYS: Style = Style { convoys: true, ..Style::STANDARD };

fn at(b: &Board, u: UnitId) -> SpaceId {
    b.game.state.unit(u).unwrap().at
}

#[test]
fn an_unescorted_convoy_stops_out_of_the_enemys_reach() {
    // Without convoys the transport sails alone beside Midway, into the
    // fighter's reach: the planner as it was.
    let mut b = board(Phase::NoncombatMove, &[UnitType::Fighter], &[]);
    play_phase(&mut b, Style::STANDARD);
    assert_eq!(at(&b, b.transport), (b.id)("SZ57"), "the standard planner sails to the nearest enemy shore");
    // With convoys it waits where the fighter cannot reach.
    let mut b = board(Phase::NoncombatMove, &[UnitType::Fighter], &[]);
    play_phase(&mut b, CONVOYS);
    assert_eq!(at(&b, b.transport), (b.id)("SZ62"), "the convoy waits out of the fighter's reach");
}

#[test]
fn an_escorted_convoy_sails_on() {
    let mut b = board(Phase::NoncombatMove, &[UnitType::Fighter], &[UnitType::Battleship]);
    play_phase(&mut b, CONVOYS);
    let sz57 = (b.id)("SZ57");
    assert_eq!(at(&b, b.transport), sz57, "the convoy sails beside Midway");
    let escorts = b.game.state.units_at(sz57).filter(|u| u.owner == b.japan && u.kind == UnitType::Battleship).count();
    assert_eq!(escorts, 1, "with the battleship as its escort");
}

#[test]
fn convoys_land_from_two_zones_away() {
    // Midway is undefended; the landing is two zones off.
    let mut b = board(Phase::CombatMove, &[], &[]);
    let played = play_phase(&mut b, Style::STANDARD);
    assert!(played.is_empty(), "the standard planner lands only from a zone beside the shore: {played:?}");
    let mut b = board(Phase::CombatMove, &[], &[]);
    let played = play_phase(&mut b, CONVOYS);
    let mid = (b.id)("MID");
    assert!(
        played.iter().any(|a| matches!(a, Action::Move { route, .. } if route.first() == Some(&(b.id)("SZ62")) && route.last() == Some(&(b.id)("SZ57")))),
        "the transport sails to SZ57: {played:?}"
    );
    let landed = b.game.state.units_at(mid).filter(|u| u.owner == b.japan && u.kind == UnitType::Infantry).count();
    assert_eq!(landed, 2, "both infantry land on Midway: {played:?}");
}
