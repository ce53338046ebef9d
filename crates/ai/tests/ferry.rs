//! Landings that take their troops aboard on the way (issue 14,
//! `Style::pickups`, crate::ferry; DAAK 3.2(c): a transport may move
//! before, between and after loading). Positions on the classic board:
//! every territory American but Japan (JPN), held by two infantry; empty
//! American transports in the Soviet Far East's sea zone (SFZ), one move
//! from Japan's zone (JPZ); the troops in Manchuria (MAN, on JPZ) or the
//! Soviet Far East (SFE, on SFZ).

mod common;

use warboard_ai::Style;
use warboard_rules::ids::{PowerId, SpaceId, UnitType};
use warboard_rules::{Action, Game, Phase};

struct Board {
    game: Game,
    usa: PowerId,
    id: Box<dyn Fn(&str) -> SpaceId>,
}

/// The United States' combat move with `transports` empty transports in
/// SFZ and two armor and two infantry in `troops_at`.
fn board(troops_at: &str, transports: usize) -> Board {
    let (mut game, usa, id) = common::held_by("classic", "usa", Phase::CombatMove, 20);
    common::hold(&mut game, "japan", id("JPN"), &[(UnitType::Infantry, 2)]);
    for _ in 0..transports {
        game.state.add_unit(UnitType::Transport, usa, id("SFZ"));
    }
    for kind in [UnitType::Armor, UnitType::Armor, UnitType::Infantry, UnitType::Infantry] {
        game.state.add_unit(kind, usa, id(troops_at));
    }
    Board { game, usa, id: Box::new(id) }
}

const MOBILE: Style = Style { air_at_sea: true, shuttle: true, ..Style::STANDARD };
const PICKUPS: Style = Style { pickups: true, ..MOBILE };

/// American troops standing in Japan after the combat move.
fn landed(b: &Board) -> usize {
    b.game.state.units_at((b.id)("JPN")).filter(|u| u.owner == b.usa).count()
}

#[test]
fn transports_sail_to_troops_on_the_coast_and_land_them_in_one_move() {
    let mut b = board("MAN", 3);
    let played = common::play_phase(&mut b.game, b.usa, MOBILE);
    assert_eq!(landed(&b), 0, "without pickups only troops already aboard land: {played:?}");

    let mut b = board("MAN", 3);
    let played = common::play_phase(&mut b.game, b.usa, PICKUPS);
    // Sailed SFZ > JPZ, then boarded in Manchuria and landed in one move.
    let (man, jpz, jpn) = ((b.id)("MAN"), (b.id)("JPZ"), (b.id)("JPN"));
    assert!(played.iter().any(|a| matches!(a, Action::Move { route, transport: Some(_), .. } if *route == vec![man, jpz, jpn])), "{played:?}");
    // Two armor (one a transport) and two infantry (both on one): all four.
    assert_eq!(landed(&b), 4, "{played:?}");
}

#[test]
fn transports_load_where_they_stand_and_sail_on_to_land() {
    let mut b = board("SFE", 3);
    let played = common::play_phase(&mut b.game, b.usa, PICKUPS);
    let (sfe, sfz, jpz, jpn) = ((b.id)("SFE"), (b.id)("SFZ"), (b.id)("JPZ"), (b.id)("JPN"));
    assert!(played.iter().any(|a| matches!(a, Action::Move { route, transport: Some(_), .. } if *route == vec![sfe, sfz])), "boarded in SFZ: {played:?}");
    assert!(played.iter().any(|a| matches!(a, Action::Move { route, transport: None, .. } if *route == vec![sfz, jpz])), "sailed on: {played:?}");
    assert!(played.iter().any(|a| matches!(a, Action::Move { route, transport: None, .. } if *route == vec![jpz, jpn])), "landed: {played:?}");
    assert_eq!(landed(&b), 4, "{played:?}");
}

/// Transports go only with troops aboard: six wait beside four troops,
/// and three carry them all (one armor each, or two infantry).
#[test]
fn a_landing_takes_no_more_transports_than_there_are_troops() {
    let mut b = board("MAN", 6);
    let played = common::play_phase(&mut b.game, b.usa, PICKUPS);
    let sailed = played.iter().filter(|a| matches!(a, Action::Move { units, transport: None, .. } if units.len() == 1 && b.game.state.unit(units[0]).is_some_and(|u| u.kind == UnitType::Transport))).count();
    assert!(sailed <= 3, "four troops fill three transports (one armor each, two infantry together): {sailed} sailed, {played:?}");
    assert_eq!(landed(&b), 4, "{played:?}");
}
