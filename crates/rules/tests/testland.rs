//! The core on a ruleset that is not classic (issue 10): `tests/data/
//! testland` is a small ruleset whose data exercises what classic does not.
//! Each test fails if the core ignores the column, the option or the turn
//! structure it is about.

use std::sync::Arc;
use warboard_rules::battle::BattleResult;
#[path = "support/testland_files.rs"]
mod testland_files;

use testland_files::files;
use warboard_rules::ruleset::load_scenario;
use warboard_rules::{Action, FixedDice, Game, Phase, PowerId, Ruleset, ScriptedDice, SpaceId, UnitType};

fn testland(scenario: Option<&str>, options: &[(&str, toml::Value)]) -> Arc<Ruleset> {
    let mut rs = load_scenario(&files(), scenario).unwrap_or_else(|e| panic!("{e}"));
    for (k, v) in options {
        rs.options.set(k, v).unwrap();
    }
    Arc::new(rs)
}

fn p(g: &Game, name: &str) -> PowerId {
    g.ruleset.power_by_name(name).unwrap()
}

fn at(g: &Game, name: &str) -> SpaceId {
    g.ruleset.map.id(name).unwrap()
}

fn names(g: &Game, order: &[PowerId]) -> Vec<String> {
    order.iter().map(|q| g.ruleset.power(*q).id.clone()).collect()
}

/// An empty board in `power`'s combat move, with these units added.
fn combat(units: &[(&str, &str, UnitType, u32)], power: &str) -> Game {
    let mut g = Game::empty(testland(None, &[]));
    for (space, owner, kind, n) in units {
        let (s, o) = (at(&g, space), p(&g, owner));
        for _ in 0..*n {
            g.state.add_unit(*kind, o, s);
        }
    }
    g.state.turn = p(&g, power);
    g.state.phase = Phase::CombatMove;
    g.settle_position();
    g
}

fn count(g: &Game, space: &str, owner: &str, kind: UnitType) -> usize {
    let (s, o) = (at(g, space), p(g, owner));
    g.state.units.iter().filter(|u| u.at == s && u.owner == o && u.kind == kind).count()
}

fn mv(g: &Game, kind: UnitType, route: &[&str]) -> Action {
    let from = at(g, route[0]);
    let mover = g.state.turn;
    let units = g.state.units.iter().filter(|u| u.at == from && u.kind == kind && u.owner == mover).map(|u| u.id).take(1).collect();
    Action::Move { units, route: route.iter().map(|s| at(g, s)).collect(), transport: None, bombing: false }
}

#[test]
fn two_scenarios_with_their_own_turn_orders_and_setups() {
    let a = Game::standard(testland(None, &[]));
    let b = Game::standard(testland(Some("b"), &[]));
    assert_eq!(names(&a, &a.state.order), ["red", "blue", "green"]);
    assert_eq!(names(&b, &b.state.order), ["blue", "green", "red"]);
    assert_eq!(b.ruleset.scenario.as_deref(), Some("b"));
    assert_eq!((a.state.ipcs[p(&a, "red").index()], b.state.ipcs[p(&b, "red").index()]), (20, 12));
    assert_eq!(count(&b, "BLU", "blue", UnitType::Infantry), 3);
    let err = load_scenario(&files(), Some("1066")).unwrap_err().to_string();
    assert!(err.contains("testland-1066"), "{err}");
}

/// Ends phases with the right actor until `turn` is `power`'s `phase`.
fn play_to(g: &mut Game, power: &str, phase: Phase) {
    for _ in 0..100 {
        if g.state.phase == phase && g.state.turn == p(g, power) && g.actors().is_empty() {
            return;
        }
        let who = g.actors().first().copied();
        g.apply_as(who, &Action::EndPhase, &mut FixedDice(6)).unwrap();
    }
    panic!("never reached {power}'s {phase:?}");
}

#[test]
fn every_power_buys_at_once_at_the_start_of_the_round() {
    let mut g = Game::standard(testland(None, &[]));
    let (red, blue, green) = (p(&g, "red"), p(&g, "blue"), p(&g, "green"));
    assert_eq!(g.state.phase, Phase::Purchase);
    assert_eq!(g.actors(), vec![red, blue, green]);
    // Any order, each power with its own bank.
    let buy = |n| Action::Purchase { units: vec![(UnitType::Infantry, n)] };
    g.apply_as(Some(blue), &buy(2), &mut FixedDice(6)).unwrap();
    g.apply_as(Some(red), &buy(3), &mut FixedDice(6)).unwrap();
    assert_eq!((g.state.ipcs[red.index()], g.state.ipcs[blue.index()]), (11, 14));
    // The action must say who takes it; green's bank is empty.
    assert!(g.apply(&buy(1), &mut FixedDice(6)).unwrap_err().message.contains("names its `power`"));
    assert_eq!(g.apply_as(Some(green), &buy(1), &mut FixedDice(6)).unwrap_err().code, "purchase/cost");
    // A factory is not for sale.
    let factory = Action::Purchase { units: vec![(UnitType::IndustrialComplex, 1)] };
    assert_eq!(g.apply_as(Some(red), &factory, &mut FixedDice(6)).unwrap_err().code, "purchase/not-for-sale");
    // The phase ends when the last power has ended its part.
    g.apply_as(Some(red), &Action::EndPhase, &mut FixedDice(6)).unwrap();
    assert_eq!(g.state.phase, Phase::Purchase);
    assert_eq!(g.apply_as(Some(red), &buy(1), &mut FixedDice(6)).unwrap_err().code, "action/not-your-turn");
    g.apply_as(Some(blue), &Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply_as(Some(green), &Action::EndPhase, &mut FixedDice(6)).unwrap();
    assert_eq!((g.state.phase, g.state.turn), (Phase::CombatMove, red));
    // Each places what it bought in its own turn.
    play_to(&mut g, "red", Phase::Place);
    g.apply(&Action::Place { at: at(&g, "RED"), units: vec![(UnitType::Infantry, 3)] }, &mut FixedDice(6)).unwrap();
    assert_eq!(count(&g, "RED", "red", UnitType::Infantry), 5);
    play_to(&mut g, "blue", Phase::Place);
    g.apply(&Action::Place { at: at(&g, "BLU"), units: vec![(UnitType::Infantry, 2)] }, &mut FixedDice(6)).unwrap();
    assert_eq!(count(&g, "BLU", "blue", UnitType::Infantry), 4);
}

#[test]
fn a_power_without_a_capital_plays_and_collects() {
    let mut g = Game::standard(testland(None, &[]));
    let green = p(&g, "green");
    assert!(!g.relations().capital_lost(green));
    play_to(&mut g, "green", Phase::Income);
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    assert_eq!(g.state.ipcs[green.index()], 5, "MID and GRN pay 2 + 3");
    assert_eq!((g.state.round, g.state.phase), (2, Phase::Purchase));
    assert_eq!(g.state.winner, None);
}

#[test]
fn a_list_option_leaves_powers_out() {
    let mut g = Game::standard(testland(None, &[("sitting_out", toml::Value::Array(vec!["green".into()]))]));
    let (red, blue) = (p(&g, "red"), p(&g, "blue"));
    assert_eq!(g.actors(), vec![red, blue]);
    assert!(g.ruleset.options.canonical().contains("sitting_out=[\"green\"]"), "{}", g.ruleset.options.canonical());
    play_to(&mut g, "blue", Phase::Income);
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    assert_eq!((g.state.round, g.state.phase), (2, Phase::Purchase), "green takes no turn");
    let bad = g.ruleset.options.clone().set("sitting_out", &toml::Value::Boolean(true)).unwrap_err();
    assert!(bad.contains("is a list"), "{bad}");
}

#[test]
fn a_two_hit_battleship_is_damaged_then_repaired_at_the_end_of_its_turn() {
    use UnitType::Battleship;
    let mut g = combat(&[("S1", "red", Battleship, 1), ("S2", "blue", Battleship, 1)], "red");
    g.apply(&mv(&g, Battleship, &["S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    // Both hit: each battleship takes one hit and floats on, damaged.
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![1, 1])).unwrap();
    let hits = |g: &Game, owner: &str| g.state.units.iter().find(|u| u.owner == p(g, owner)).unwrap().hits;
    assert_eq!((hits(&g, "red"), hits(&g, "blue")), (1, 1));
    g.apply(&Action::Retreat { to: Some(at(&g, "S1")) }, &mut FixedDice(6)).unwrap();
    play_to(&mut g, "blue", Phase::CombatMove);
    assert_eq!((hits(&g, "red"), hits(&g, "blue")), (0, 1), "red's is repaired as its turn ends, blue's not yet");
    // A second hit sinks a damaged one.
    let mut g = combat(&[("S1", "red", Battleship, 1), ("S2", "blue", Battleship, 1)], "red");
    let blue_bb = g.state.units.iter().find(|u| u.owner == p(&g, "blue")).unwrap().id;
    g.state.unit_mut(blue_bb).unwrap().hits = 1;
    g.apply(&mv(&g, Battleship, &["S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![1, 6])).unwrap();
    assert_eq!(g.state.battles[0].result, BattleResult::AttackerWon);
    assert_eq!(count(&g, "S2", "blue", Battleship), 0);
}

#[test]
fn artillery_raises_one_infantry_each() {
    use UnitType::{Artillery, Infantry};
    // Dice in unit-table order: infantry 2, 2; artillery 6; green 6.
    let run = |artillery: u32| {
        let mut g = combat(&[("RED", "red", Infantry, 2), ("RED", "red", Artillery, artillery), ("MID", "green", Infantry, 2)], "red");
        for _ in 0..2 {
            g.apply(&mv(&g, Infantry, &["RED", "MID"]), &mut FixedDice(6)).unwrap();
        }
        if artillery > 0 {
            g.apply(&mv(&g, Artillery, &["RED", "MID"]), &mut FixedDice(6)).unwrap();
        }
        g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
        let mut dice = vec![2, 2];
        dice.extend(std::iter::repeat_n(6, artillery as usize + 2));
        g.apply(&Action::Battle { at: at(&g, "MID") }, &mut ScriptedDice::new(dice)).unwrap();
        count(&g, "MID", "green", Infantry)
    };
    assert_eq!(run(0), 2, "infantry alone attack at 1");
    assert_eq!(run(1), 1, "one infantry is supported: attacks at 2");
}

#[test]
fn a_destroyer_cancels_the_first_strike() {
    use UnitType::{Destroyer, Submarine};
    // The sub hits (1) and the destroyer hits back (1): with no first
    // strike, both sink. Were the strike not cancelled, the destroyer would
    // sink before firing and the second die would not be rolled.
    let mut g = combat(&[("S1", "red", Submarine, 1), ("S2", "blue", Destroyer, 1)], "red");
    g.apply(&mv(&g, Submarine, &["S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![1, 1])).unwrap();
    assert_eq!(g.state.battles[0].result, BattleResult::Draw);
    // Without a destroyer, a defending sub strikes first too, and its
    // victim does not fire: red's sub goes down before it rolls.
    let mut g = combat(&[("S1", "red", Submarine, 1), ("S2", "blue", Submarine, 1)], "red");
    g.apply(&mv(&g, Submarine, &["S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![])).unwrap();
    decline_submerging(&mut g, 2);
    g.apply(&Action::Continue, &mut ScriptedDice::new(vec![6, 1])).unwrap();
    assert_eq!(g.state.battles[0].result, BattleResult::DefenderWon);
}

#[test]
fn aircraft_hit_submarines_only_with_a_destroyer() {
    use UnitType::{Destroyer, Fighter, Submarine};
    // A fighter alone and a sub cannot touch each other: the battle ends at
    // once, without a die (AA50 errata to p. 19), the fighter breaking off.
    let mut g = combat(&[("RED", "red", Fighter, 1), ("S2", "blue", Submarine, 1)], "red");
    g.apply(&mv(&g, Fighter, &["RED", "S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![])).unwrap();
    assert_eq!(g.state.battles[0].result, BattleResult::Retreated);
    // Beside a battleship, the fighter's hit is lost all the same. Blue's
    // sub may submerge (declined); its first strike rolls 6; the fighter
    // rolls 1, a hit its side cannot put on a submarine; the battleship 6.
    let mut g = combat(&[("RED", "red", Fighter, 1), ("S1", "red", UnitType::Battleship, 1), ("S2", "blue", Submarine, 1)], "red");
    g.apply(&mv(&g, Fighter, &["RED", "S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&mv(&g, UnitType::Battleship, &["S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![])).unwrap();
    decline_submerging(&mut g, 1);
    g.apply(&Action::Continue, &mut ScriptedDice::new(vec![6, 1, 6])).unwrap();
    assert_eq!((g.state.battles[0].result, g.state.battles[0].round), (BattleResult::Ongoing, 1), "all three dice rolled");
    assert_eq!(count(&g, "S2", "blue", Submarine), 1, "the fighter's hit is lost");
    // With a destroyer beside it, the sub strikes no first blow and the
    // fighter's hit sinks it: fighter 1, destroyer 6, sub 6.
    let mut g = combat(&[("RED", "red", Fighter, 1), ("S1", "red", Destroyer, 1), ("S2", "blue", Submarine, 1)], "red");
    g.apply(&mv(&g, Fighter, &["RED", "S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&mv(&g, Destroyer, &["S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![1, 6, 6])).unwrap();
    assert_eq!(g.state.battles[0].result, BattleResult::AttackerWon);
}

/// Declines `n - 1` submerge choices and checks the last is open: the
/// caller declines it with the dice for the round.
fn decline_submerging(g: &mut Game, n: usize) {
    for k in 0..n {
        let d = warboard_rules::battle::decision(&g.ruleset, &g.state).map(|(_, d)| d);
        assert!(
            matches!(d, Some(warboard_rules::battle::Decision::AttackerSubmarines | warboard_rules::battle::Decision::DefenderSubmarines)),
            "a submerge choice, not {d:?}"
        );
        if k + 1 < n {
            g.apply(&Action::Continue, &mut ScriptedDice::new(vec![])).unwrap();
        }
    }
}

#[test]
fn submarines_submerge_before_the_dice_unless_a_destroyer_faces_them() {
    use UnitType::{Battleship, Destroyer, Submarine};
    let mut g = combat(&[("S1", "red", Battleship, 1), ("S2", "blue", Submarine, 1)], "red");
    g.apply(&mv(&g, Battleship, &["S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    // No die yet: the defender's sub may submerge first.
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![])).unwrap();
    let sub = g.state.units.iter().find(|u| u.kind == Submarine).unwrap().id;
    let zone = at(&g, "S2");
    assert_eq!(
        g.apply(&Action::Submerge { units: vec![sub], to: Some(at(&g, "S1")) }, &mut FixedDice(6)).unwrap_err().code,
        "battle/submerge-in-place"
    );
    g.apply(&Action::Submerge { units: vec![sub], to: None }, &mut ScriptedDice::new(vec![])).unwrap();
    assert_eq!(g.state.battles[0].result, BattleResult::AttackerWon, "nothing is left to fight");
    let u = g.state.unit(sub).unwrap();
    assert!(u.flags.submerged && u.at == zone, "submerged, in its zone");
    play_to(&mut g, "blue", Phase::CombatMove);
    assert!(!g.state.unit(sub).unwrap().flags.submerged, "it surfaces when the turn ends");
    // Facing a destroyer it has no choice: the battle goes straight to dice.
    let mut g = combat(&[("S1", "red", Destroyer, 1), ("S2", "blue", Submarine, 1)], "red");
    g.apply(&mv(&g, Destroyer, &["S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![1, 6])).unwrap();
    assert_eq!(g.state.battles[0].result, BattleResult::AttackerWon);
}

#[test]
fn defenseless_transports_are_removed_without_dice() {
    use UnitType::{Destroyer, Transport};
    let mut g = combat(&[("S1", "red", Destroyer, 1), ("S2", "blue", Transport, 2)], "red");
    g.apply(&mv(&g, Destroyer, &["S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    // No dice at all: an empty die list would fail any roll.
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![])).unwrap();
    assert_eq!(g.state.battles[0].result, BattleResult::AttackerWon);
    assert_eq!(count(&g, "S2", "blue", Transport), 0);
    // Beside a submarine, against aircraft alone (AA50 errata, p. 19): the
    // sub cannot hit the fighter, which can hit the transports: they go
    // without dice, and the fighter and the sub, unable to touch each
    // other, part.
    use UnitType::{Fighter, Submarine};
    let mut g = combat(&[("RED", "red", Fighter, 1), ("S2", "blue", Transport, 1), ("S2", "blue", Submarine, 1)], "red");
    g.apply(&mv(&g, Fighter, &["RED", "S1", "S2"]), &mut FixedDice(6)).unwrap();
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply(&Action::Battle { at: at(&g, "S2") }, &mut ScriptedDice::new(vec![])).unwrap();
    assert_eq!((count(&g, "S2", "blue", Transport), count(&g, "S2", "blue", Submarine)), (0, 1));
    assert_eq!(g.state.battles[0].result, BattleResult::Retreated);
}

#[test]
fn teams_live_in_the_state_and_win_together() {
    let mut g = Game::standard(testland(None, &[]));
    let (red, blue, green) = (p(&g, "red"), p(&g, "blue"), p(&g, "green"));
    assert_eq!(g.state.teams.team_of(green), Some("allies"), "teams start as the ruleset's sides");
    assert!(g.state.allied(blue, green) && !g.state.allied(red, green));
    // Teams are the state's: a change of sides is a change of the state.
    g.state.teams.of[green.index()] = None;
    assert!(!g.state.allied(blue, green) && g.relations().enemies(blue, green));
    g.state.teams.of[green.index()] = Some(1);
    g.apply(&Action::Surrender { team: "axis".into() }, &mut FixedDice(6)).unwrap();
    let w = g.state.winner.clone().unwrap();
    assert_eq!((w.team.as_deref(), w.powers), (Some("allies"), vec![blue, green]));
}

#[test]
fn dice_follow_the_rulesets_unit_table_order() {
    use UnitType::{Fighter, Infantry};
    // The same ruleset with fighters listed before infantry: the fighter
    // rolls first. Dice 3 then 6: the fighter (3) hits with the 3 and the
    // infantry (1) misses with the 6, one hit; in the vocabulary's order
    // (infantry first) both would miss.
    let text = files().ruleset;
    let ftr_start = text.find("[[unit]]\ntype = \"fighter\"").unwrap();
    let ftr_end = text[ftr_start..].find("\n\n").unwrap() + ftr_start + 2;
    let inf_start = text.find("[[unit]]\ntype = \"infantry\"").unwrap();
    let reordered = format!("{}{}{}{}", &text[..inf_start], &text[ftr_start..ftr_end], &text[inf_start..ftr_start], &text[ftr_end..]);
    let mut files = files();
    files.ruleset = Box::leak(reordered.into_boxed_str());
    let rs = Arc::new(load_scenario(&files, None).unwrap());
    assert!(rs.rank(Fighter) < rs.rank(Infantry));
    let mut g = Game::empty(rs);
    let (red, green) = (p(&g, "red"), p(&g, "green"));
    let (home, mid) = (at(&g, "RED"), at(&g, "MID"));
    let inf = g.state.add_unit(Infantry, red, home);
    let ftr = g.state.add_unit(Fighter, red, home);
    g.state.add_unit(Infantry, green, mid);
    g.state.turn = red;
    g.state.phase = Phase::CombatMove;
    g.settle_position();
    for id in [inf, ftr] {
        g.apply(&Action::Move { units: vec![id], route: vec![home, mid], transport: None, bombing: false }, &mut FixedDice(6)).unwrap();
    }
    g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    g.apply(&Action::Battle { at: mid }, &mut ScriptedDice::new(vec![3, 6, 6])).unwrap();
    assert_eq!(count(&g, "MID", "green", Infantry), 0, "the fighter rolled the 3");
}

#[test]
fn player_words_prefer_the_rulesets_own_type() {
    // Testland has no armor and no tank: `tank` stays armor's nickname, and
    // the ruleset check is the caller's. A ruleset with a `tank` type of its
    // own gets it (the vocabulary's Alternative words).
    let rs = testland(None, &[]);
    assert_eq!(rs.unit_by_player_name("tanks"), Some(UnitType::Armor));
    assert_eq!(rs.unit_by_player_name("Artillery"), Some(UnitType::Artillery));
    let text = files().ruleset.replace("type = \"artillery\"", "type = \"tank\"");
    let mut files = files();
    files.ruleset = Box::leak(text.into_boxed_str());
    let with_tank = load_scenario(&files, None).unwrap();
    assert_eq!(with_tank.unit_by_player_name("tanks"), Some(UnitType::Tank));
    assert_eq!(with_tank.unit_by_player_name("tank"), Some(UnitType::Tank));
}

#[test]
fn the_round_starts_with_the_first_power_still_playing() {
    // Red, first in the turn order, sits out: after the round's purchase,
    // blue takes the first turn of round 1.
    let mut g = Game::standard(testland(None, &[("sitting_out", toml::Value::Array(vec!["red".into()]))]));
    let (blue, green) = (p(&g, "blue"), p(&g, "green"));
    assert_eq!(g.actors(), vec![blue, green]);
    for q in [blue, green] {
        g.apply_as(Some(q), &Action::EndPhase, &mut FixedDice(6)).unwrap();
    }
    assert_eq!((g.state.round, g.state.phase, g.state.turn), (1, Phase::CombatMove, blue));
}
