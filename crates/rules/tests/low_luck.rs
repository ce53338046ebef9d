//! Low Luck (option `low_luck`, docs/low-luck.md): each firing group's
//! values added up, a hit per full six for sure, one die for a remainder.

use std::sync::Arc;
use warboard_rules::battle::standalone::{build, BattleSpec, Standalone};
use warboard_rules::battle::{self, BattleSide, Decision, Firing};
use warboard_rules::ids::UnitType::{self, *};
use warboard_rules::{ruleset, Action, Event, Ruleset, ScriptedDice};

fn low_luck(name: &str) -> Arc<Ruleset> {
    Arc::new(ruleset(name).unwrap().with_options([("low_luck", &toml::Value::Boolean(true))]).unwrap())
}

fn battle(name: &str, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], amphibious: bool) -> Standalone {
    build(low_luck(name), &BattleSpec { attackers: attackers.to_vec(), defenders: defenders.to_vec(), amphibious }).unwrap()
}

/// Starts the battle with these dice (all of them must be used) and
/// returns each step's purpose, dice and hits.
fn first_steps(b: &mut Standalone, dice: &[u8]) -> Vec<(String, Vec<u8>, u32)> {
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let events = b.game.apply(&Action::Battle { at: b.at }, &mut scripted).unwrap();
    assert_eq!(scripted.used(), dice.len(), "every die given is used");
    events
        .into_iter()
        .filter_map(|e| match e {
            Event::Rolled { purpose, dice, hits, by } => {
                assert!(by.is_empty(), "a Low Luck step names no unit's own dice");
                Some((purpose, dice, hits))
            }
            _ => None,
        })
        .collect()
}

fn step<'a>(steps: &'a [(String, Vec<u8>, u32)], purpose: &str) -> &'a (String, Vec<u8>, u32) {
    steps.iter().find(|s| s.0.starts_with(purpose)).unwrap_or_else(|| panic!("no step {purpose} in {steps:?}"))
}

#[test]
fn pips_of_a_unit() {
    let f = |value, dice, best_of| Firing { value, dice, best_of }.low_luck_pips();
    assert_eq!(f(3, 1, false), 3);
    assert_eq!(f(0, 1, false), 0);
    // Values above 6 hit on every die.
    assert_eq!(f(7, 1, false), 6);
    // Classic heavy bombers: three dice, each may hit.
    assert_eq!(f(4, 3, false), 12);
    // Anniversary heavy bombers: two dice, the best counts: TripleA's
    // value plus one per extra die, at most 6.
    assert_eq!(f(4, 2, true), 5);
    assert_eq!(f(6, 2, true), 6);
}

#[test]
fn multiples_of_six_roll_no_die() {
    // 2 armor at 3: 6, one sure hit; 3 infantry defending at 2: 6.
    let mut b = battle("classic", &[(Armor, 2)], &[(Infantry, 3)], false);
    let steps = first_steps(&mut b, &[]);
    assert_eq!(step(&steps, "attacker"), &("attacker".into(), vec![], 1));
    assert_eq!(step(&steps, "defender"), &("defender".into(), vec![], 1));
    let s = &b.game.state;
    let left = |owner| s.units.iter().filter(|u| u.at == b.at && u.owner == owner).count();
    assert_eq!((left(s.battles[0].attacker), left(s.control[b.at.index()].unwrap())), (1, 2));
}

#[test]
fn the_remainder_die_hits_at_or_under_the_remainder() {
    // Attacker 1 armor + 1 infantry: 4; defender 2 infantry: 4.
    let mut b = battle("classic", &[(Infantry, 1), (Armor, 1)], &[(Infantry, 2)], false);
    let steps = first_steps(&mut b, &[4, 5]);
    assert_eq!(step(&steps, "attacker"), &("attacker".into(), vec![4], 1), "4 on a remainder of 4 hits");
    assert_eq!(step(&steps, "defender"), &("defender".into(), vec![5], 0), "5 on 4 misses");
    // 14: two sure hits and a 2 on a remainder of 2.
    let mut b = battle("classic", &[(Armor, 4), (Infantry, 2)], &[(Infantry, 7)], false);
    let steps = first_steps(&mut b, &[2, 3]);
    assert_eq!(step(&steps, "attacker").2, 3);
    assert_eq!(step(&steps, "defender"), &("defender".into(), vec![3], 2), "14 again, 3 on 2 misses");
}

#[test]
fn support_counts_as_the_engine_computes_it() {
    // Europe: artillery raises one infantry to 2: 2 + 2 + 1 = 5.
    let mut b = battle("europe", &[(Infantry, 2), (Artillery, 1)], &[(Infantry, 1)], false);
    let steps = first_steps(&mut b, &[5, 6]);
    assert_eq!(step(&steps, "attacker").2, 1, "5 on a remainder of 5 hits");
    let mut b = battle("europe", &[(Infantry, 2), (Artillery, 1)], &[(Infantry, 1)], false);
    let steps = first_steps(&mut b, &[6, 6]);
    assert_eq!(step(&steps, "attacker").2, 0);
}

#[test]
fn groups_are_the_dice_whose_hits_take_the_same_units() {
    // Anniversary: the defender's destroyer cancels the submarine's first
    // strike; it fires with the destroyer, its hits never taking aircraft.
    // Against a fighter the two are two groups of 2: two dice.
    let mut b = battle("anniversary-1941", &[(Submarine, 1), (Destroyer, 1)], &[(Destroyer, 1), (AircraftCarrier, 1), (Fighter, 1)], false);
    let steps = first_steps(&mut b, &[2, 3]);
    assert_eq!(step(&steps, "attacker"), &("attacker".into(), vec![2, 3], 1), "the submarine's group hits, the destroyer's misses");
    let pending = b.game.state.battles[0].pending.clone().expect("the defender chooses");
    assert_eq!(pending.groups.len(), 1);
    assert!(pending.groups[0].targets.no_air, "the hit is the submarine's: no aircraft");
    // Without aircraft to spare they are one group of 4: one die.
    let mut b = battle("anniversary-1941", &[(Submarine, 1), (Destroyer, 1)], &[(Destroyer, 1), (AircraftCarrier, 1)], false);
    let steps = first_steps(&mut b, &[4]);
    assert_eq!(step(&steps, "attacker"), &("attacker".into(), vec![4], 1));
}

#[test]
fn aa_fire_is_one_group_and_the_attacker_chooses() {
    // Classic: 6 aircraft against an AA gun: one sure hit, no die.
    let mut b = battle("classic", &[(Fighter, 3), (Bomber, 3)], &[(Infantry, 1), (AaGun, 1)], false);
    let steps = first_steps(&mut b, &[]);
    assert_eq!(step(&steps, "AA fire"), &(steps[0].0.clone(), vec![], 1));
    let (_, d) = battle::decision(&b.game.ruleset, &b.game.state).unwrap();
    assert!(matches!(d, Decision::Casualties { side: BattleSide::Attacker, hits: 1, .. }), "{d:?}");
    // Anniversary, where each aircraft otherwise rolls its own die: 4
    // aircraft roll one die for 4; a 4 hits and the attacker chooses.
    let mut b = battle("anniversary-1941", &[(Fighter, 2), (Bomber, 2)], &[(Infantry, 1), (AaGun, 1)], false);
    let steps = first_steps(&mut b, &[4]);
    assert_eq!(step(&steps, "AA fire").1, vec![4]);
    let (_, d) = battle::decision(&b.game.ruleset, &b.game.state).unwrap();
    assert!(matches!(d, Decision::Casualties { side: BattleSide::Attacker, hits: 1, .. }), "{d:?}");
    // A 5 misses; the battle goes on to the other steps.
    let mut b = battle("anniversary-1941", &[(Fighter, 2), (Bomber, 2)], &[(Infantry, 1), (AaGun, 1)], false);
    let steps = first_steps(&mut b, &[5, 6, 6]);
    assert_eq!(step(&steps, "AA fire").2, 0);
    // Fighters 3 + 3, bombers 4 + 4: 14; infantry 2.
    assert_eq!(step(&steps, "attacker"), &("attacker".into(), vec![6], 2));
}

#[test]
fn bombardment_is_one_group() {
    // Classic: two battleships bombard at 4: 8, one sure hit and a die for
    // 2; the infantry landing rolls for 1; the three defenders, two of them
    // hit, fire back at 2: 6, no die.
    let mut b = battle("classic", &[(Infantry, 1), (Battleship, 2)], &[(Infantry, 3)], true);
    let steps = first_steps(&mut b, &[2, 6]);
    assert_eq!(step(&steps, "shore bombardment"), &("shore bombardment".into(), vec![2], 2));
    assert_eq!(step(&steps, "attacker"), &("attacker".into(), vec![6], 0));
    assert_eq!(step(&steps, "defender"), &("defender".into(), vec![], 1));
}

#[test]
fn off_by_default() {
    let rs = ruleset("classic").unwrap();
    assert!(!rs.options.low_luck);
    let mut b = build(rs, &BattleSpec { attackers: vec![(Armor, 2)], defenders: vec![(Infantry, 3)], amphibious: false }).unwrap();
    let mut dice = ScriptedDice::new(vec![3, 4, 2, 2, 6]);
    let events = b.game.apply(&Action::Battle { at: b.at }, &mut dice).unwrap();
    assert_eq!(dice.used(), 5, "a die per unit");
    assert!(events.iter().any(|e| matches!(e, Event::Rolled { purpose, hits: 1, .. } if purpose == "attacker")));
}
