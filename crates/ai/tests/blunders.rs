//! Blunders a new player saw the computer make (issue 33, point 14), each
//! a position where the computer must not make it again.

mod common;

use warboard_ai::Style;
use warboard_rules::ids::UnitType;
use warboard_rules::{Action, Phase};

/// The United Kingdom's only complex stands beside a zone full of German
/// submarines: ships bought there could not be placed (classic refuses new
/// ships in a zone holding enemy ships), so the computer buys none.
#[test]
fn no_ships_are_bought_for_a_zone_held_by_the_enemy() {
    let (mut game, uk, id) = common::held_by("classic", "uk", Phase::Purchase, 1);
    // Germany holds Germany with its complex and an army, so there is a
    // war to buy for; the UK holds the rest, with one complex: GBR.
    common::hold(&mut game, "germany", id("GER"), &[(UnitType::Infantry, 6), (UnitType::Armor, 2)]);
    game.state.add_unit(UnitType::IndustrialComplex, uk, id("GBR"));
    game.state.add_unit(UnitType::Infantry, uk, id("GBR"));
    let germany = game.ruleset.power_by_name("germany").expect("germany");
    for _ in 0..3 {
        game.state.add_unit(UnitType::Submarine, germany, id("NOR"));
    }
    game.state.ipcs[uk.index()] = 40;
    let bought = common::play_phase(&mut game, uk, Style::STANDARD);
    let ships: Vec<&Action> = bought
        .iter()
        .filter(|a| matches!(a, Action::Purchase { units } if units.iter().any(|(k, n)| *n > 0 && game.ruleset.stats(*k).is_sea())))
        .collect();
    assert!(ships.is_empty(), "no ships for a zone held by German submarines: {bought:?}");
    assert!(!bought.is_empty(), "the bank is spent on what can be placed: {bought:?}");
}

/// A submarine attacking a fleet it cannot beat withdraws after the round
/// (DAAK 4.2) instead of fighting on to its loss: before, the computer
/// never withdrew or submerged a submarine.
#[test]
fn a_submarine_in_a_lost_battle_withdraws() {
    let (mut game, uk, id) = common::held_by("classic", "uk", Phase::CombatMove, 2);
    common::hold(&mut game, "germany", id("GER"), &[(UnitType::Infantry, 3)]);
    let germany = game.ruleset.power_by_name("germany").expect("germany");
    for kind in [UnitType::Battleship, UnitType::Battleship, UnitType::Fighter] {
        game.state.add_unit(kind, germany, id("NOR"));
    }
    // The submarine sails in from a zone beside (the person's move; the
    // computer would not make this attack).
    let from = *game.ruleset.map.neighbours(id("NOR")).iter().find(|n| game.ruleset.map.is_sea(**n)).expect("a sea zone beside");
    let sub = game.state.add_unit(UnitType::Submarine, uk, from);
    let attack = Action::Move { units: vec![sub], route: vec![from, id("NOR")], transport: None, bombing: false };
    game.apply(&attack, &mut warboard_rules::FixedDice(6)).unwrap_or_else(|e| panic!("{e}"));
    let mut player = warboard_ai::ComputerPlayer::new().with_style(Style::STANDARD);
    let mut seen = Vec::new();
    // Every die misses: the battle lasts, and the withdrawal is the choice.
    for _ in 0..40 {
        if game.state.turn != uk || !matches!(game.state.phase, Phase::CombatMove | Phase::Combat) {
            break;
        }
        let a = warboard_ai::Player::next_action(&mut player, &game);
        game.apply(&a, &mut warboard_rules::FixedDice(6)).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        seen.push(a);
    }
    assert!(seen.iter().any(|a| matches!(a, Action::Submerge { units, to: Some(_) } if units.contains(&sub))), "the submarine withdraws: {seen:?}");
}
