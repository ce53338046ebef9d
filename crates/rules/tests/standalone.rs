//! Standalone battles are fought by the ordinary battle engine.

use warboard_rules::battle::standalone::{build, BattleSpec};
use warboard_rules::battle::BattleResult;
use warboard_rules::ids::UnitType::*;
use warboard_rules::{ruleset, Action, FixedDice};

#[test]
fn land_battle_all_hits_is_a_draw() {
    let spec = BattleSpec { attackers: vec![(Infantry, 2)], defenders: vec![(Infantry, 2)], amphibious: false };
    let mut b = build(ruleset("classic").unwrap(), &spec).unwrap();
    b.game.apply(&Action::Resolve { at: Some(b.at) }, &mut FixedDice(1)).unwrap();
    assert_eq!(b.game.state.battles[0].result, BattleResult::Draw);
}

#[test]
fn sea_battle_and_amphibious_bombardment() {
    let spec = BattleSpec { attackers: vec![(Battleship, 1)], defenders: vec![(Transport, 2)], amphibious: false };
    let mut b = build(ruleset("classic").unwrap(), &spec).unwrap();
    assert!(b.game.ruleset.map.is_sea(b.at));
    b.game.apply(&Action::Resolve { at: Some(b.at) }, &mut FixedDice(1)).unwrap();
    assert_eq!(b.game.state.battles[0].result, BattleResult::DefenderWon);

    // Bombardment kills the lone defender before it fires? No: its casualty
    // still fires back (DAAK 3.5(a)); with all dice 1 everything dies.
    let spec = BattleSpec { attackers: vec![(Infantry, 1), (Battleship, 1)], defenders: vec![(Infantry, 1)], amphibious: true };
    let mut b = build(ruleset("classic").unwrap(), &spec).unwrap();
    b.game.apply(&Action::Resolve { at: Some(b.at) }, &mut FixedDice(1)).unwrap();
    assert_eq!(b.game.state.battles[0].result, BattleResult::Draw);
    assert!(b.game.state.battles[0].amphibious);
}

#[test]
fn impossible_battles_are_refused() {
    let rs = ruleset("classic").unwrap();
    assert!(build(rs.clone(), &BattleSpec { attackers: vec![], defenders: vec![(Infantry, 1)], amphibious: false }).is_err());
    assert!(build(rs.clone(), &BattleSpec { attackers: vec![(Infantry, 1)], defenders: vec![(Battleship, 1)], amphibious: false }).is_err());
    assert!(build(rs, &BattleSpec { attackers: vec![(Battleship, 1)], defenders: vec![(Infantry, 1)], amphibious: false }).is_err());
}
