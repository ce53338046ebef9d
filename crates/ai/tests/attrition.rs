//! Attrition against the last enemy capital (issue 14, `Style::attrition`):
//! an attack that cannot win is made when what it is expected to destroy,
//! weighed by how many times the enemy's income this team earns (at most
//! `ATTRITION_WEIGHT`), outweighs what it is expected to lose. Positions on
//! the classic board: every territory American but Japan (JPN, 8 IPCs), so
//! Tokyo is the last Axis capital and the Americans out-earn Japan many
//! times; Japan holds it with ten infantry and four armor; American
//! infantry aboard transports in Japan's sea zone (JPZ) and bombers in
//! Manchuria (MAN), beside it.

mod common;

use warboard_ai::Style;
use warboard_rules::ids::UnitType;
use warboard_rules::{Action, Phase};

/// The American combat move with `style`, `infantry` aboard transports in
/// JPZ and `bombers` in MAN: whether anything attacks Japan.
fn attacks_tokyo(style: Style, infantry: usize, bombers: usize) -> bool {
    let (mut game, usa, id) = common::held_by("classic", "usa", Phase::CombatMove, 20);
    common::hold(&mut game, "japan", id("JPN"), &[(UnitType::Infantry, 10), (UnitType::Armor, 4)]);
    for pair in 0..infantry.div_ceil(2) {
        let transport = game.state.add_unit(UnitType::Transport, usa, id("JPZ"));
        for _ in 0..(infantry - 2 * pair).min(2) {
            let inf = game.state.add_unit(UnitType::Infantry, usa, id("JPZ"));
            game.state.unit_mut(inf).unwrap().carried_by = Some(transport);
        }
    }
    for _ in 0..bombers {
        game.state.add_unit(UnitType::Bomber, usa, id("MAN"));
    }
    let jpn = id("JPN");
    let played = common::play_phase(&mut game, usa, style);
    played.iter().any(|a| matches!(a, Action::Move { route, bombing: false, .. } if route.last() == Some(&jpn)))
}

const MOBILE: Style = Style { air_at_sea: true, shuttle: true, siege: true, ..Style::STANDARD };
const ATTRITION: Style = Style { attrition: true, ..MOBILE };

#[test]
fn the_last_capital_is_worn_down_when_the_trade_pays_at_the_incomes_rate() {
    assert!(!attacks_tokyo(MOBILE, 8, 3), "eight infantry and three bombers cannot take Tokyo: no landing without attrition");
    assert!(attacks_tokyo(ATTRITION, 8, 3), "with attrition they land: what Japan loses it cannot replace");
}

#[test]
fn an_attack_that_destroys_too_little_is_not_made() {
    // Two infantry alone destroy far less than a third of what they lose.
    assert!(!attacks_tokyo(ATTRITION, 2, 0), "two infantry against fourteen defenders");
}

