//! Joint assaults on an enemy capital (issue 14, `Style::joint_assaults`):
//! a power attacks a capital it cannot take alone when the allies' armies
//! beside it, moving before the capital's holder moves again, make the two
//! attacks together likely to win. Positions on the classic board (turn
//! order Russia, Germany, United Kingdom, Japan, United States): every
//! territory held by `attacker` but Germany (GER), held by twelve German
//! infantry; ten of the attacker's infantry in Western Europe (WEU) and
//! twenty of `ally`'s in Southern Europe (SEU), both beside Germany.

mod common;

use warboard_ai::Style;
use warboard_rules::ids::UnitType;
use warboard_rules::{Action, Phase};

/// The combat move `attacker` plays with `style`: whether it attacks GER.
fn attacks_berlin(attacker: &str, ally: &str, style: Style) -> bool {
    let (mut game, p, id) = common::held_by("classic", attacker, Phase::CombatMove, 10);
    let helper = game.ruleset.power_by_name(ally).unwrap();
    common::hold(&mut game, "germany", id("GER"), &[(UnitType::Infantry, 12)]);
    for _ in 0..10 {
        game.state.add_unit(UnitType::Infantry, p, id("WEU"));
    }
    for _ in 0..20 {
        game.state.add_unit(UnitType::Infantry, helper, id("SEU"));
    }
    let ger = id("GER");
    let played = common::play_phase(&mut game, p, style);
    played.iter().any(|a| matches!(a, Action::Move { route, .. } if route.last() == Some(&ger)))
}

const JOINT: Style = Style { joint_assaults: true, ..Style::STANDARD };

#[test]
fn a_capital_too_strong_alone_is_attacked_when_allies_beside_it_move_before_its_holder() {
    assert!(!attacks_berlin("uk", "usa", Style::STANDARD), "ten infantry against twelve: no attack alone");
    // The Americans move after the British and before the Germans.
    assert!(attacks_berlin("uk", "usa", JOINT), "with twenty American infantry to follow, the British attack");
    // So do the Soviets (the next round's first turn comes before Germany's).
    assert!(attacks_berlin("uk", "russia", JOINT), "with twenty Soviet infantry to follow, the British attack");
}

#[test]
fn allies_moving_after_the_holder_do_not_count() {
    // After the Americans come the Soviets, then the Germans: the British
    // move only after Germany has rebuilt.
    assert!(!attacks_berlin("usa", "uk", JOINT), "the British follow only after Germany's turn");
    assert!(attacks_berlin("usa", "russia", JOINT), "the Soviets follow before it");
}
