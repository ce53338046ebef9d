//! Rule options that cases rarely reach: each one changes what it says.

use std::sync::Arc;
use warboard_rules::ids::UnitType;
use warboard_rules::state::Development;
use warboard_rules::{ruleset, Action, FixedDice, Game, Phase, Ruleset, ScriptedDice};

fn rules(changes: &[(&str, toml::Value)]) -> Arc<Ruleset> {
    let mut rs = (*ruleset("classic").unwrap()).clone();
    for (k, v) in changes {
        rs.options.set(k, v).unwrap();
    }
    Arc::new(rs)
}

fn id(g: &Game, s: &str) -> warboard_rules::SpaceId {
    g.ruleset.map.id(s).unwrap()
}

fn end_phases(g: &mut Game, n: usize) {
    for _ in 0..n {
        g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    }
}

#[test]
fn unplaced_units_are_lost_or_kept() {
    for kept in [false, true] {
        let mut g = Game::standard(rules(&[("unplaced_units_kept", toml::Value::Boolean(kept))]));
        end_phases(&mut g, 1); // research -> purchase
        g.apply(&Action::Purchase { units: vec![(UnitType::Infantry, 2)] }, &mut FixedDice(6)).unwrap();
        end_phases(&mut g, 4); // -> place
        assert_eq!(g.state.phase, Phase::Place);
        if kept {
            // Units that can be placed must be: only those beyond every
            // complex's room wait (AA50 FAQ: Miscellaneous). Moscow has room.
            let err = g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap_err();
            assert_eq!(err.code, "place/must-place");
            let russia_factories: Vec<_> = g.state.units.iter().filter(|u| u.kind == UnitType::IndustrialComplex && u.owner.0 == 0).map(|u| u.id).collect();
            g.state.remove_units(&russia_factories);
        }
        end_phases(&mut g, 1 + 1 + 7 * 4); // place, income, four other powers
        assert_eq!((g.state.round, g.state.phase, g.state.turn.0), (2, Phase::Research, 0));
        let waiting = g.state.purchased.get(&UnitType::Infantry).copied().unwrap_or(0);
        assert_eq!(waiting, if kept { 2 } else { 0 }, "kept = {kept}");
    }
}

#[test]
fn first_turn_restriction_blocks_russian_attacks_in_round_one() {
    for restricted in [false, true] {
        let mut g = Game::standard(rules(&[("russia_first_turn_restricted", toml::Value::Boolean(restricted))]));
        end_phases(&mut g, 2); // -> combat move
        let inf = g.state.units.iter().find(|u| u.at == id(&g, "CAU") && u.kind == UnitType::Infantry).unwrap().id;
        // UKR is German: an attack.
        let r = g.apply(&Action::Move { units: vec![inf], route: vec![id(&g, "CAU"), id(&g, "UKR")], transport: None, bombing: false }, &mut FixedDice(6));
        assert_eq!(r.is_err(), restricted, "{r:?}");
    }
}

#[test]
fn research_rolls_the_chart_or_aims_at_a_chosen_development() {
    let mut g = Game::standard(rules(&[("weapons_development", toml::Value::Boolean(true))]));
    // Research is refused when the option is off.
    let mut off = Game::standard(ruleset("classic").unwrap());
    assert_eq!(off.apply(&Action::Research { dice: 1, development: None, chart: None }, &mut FixedDice(6)).unwrap_err().code, "research/off");
    // Roll: a 6 is a breakthrough, the next die (3) picks super submarines.
    let russia = g.state.turn;
    g.apply(&Action::Research { dice: 2, development: None, chart: None }, &mut ScriptedDice::new(vec![2, 6, 3])).unwrap();
    assert!(g.state.has_development(russia, Development::SuperSubmarines));
    assert_eq!(g.state.ipcs[russia.index()], 24 - 10);

    let mut c = Game::standard(rules(&[
        ("weapons_development", toml::Value::Boolean(true)),
        ("research_breakthrough", toml::Value::String("choose".into())),
    ]));
    assert!(c.apply(&Action::Research { dice: 1, development: None, chart: None }, &mut FixedDice(6)).is_err());
    c.apply(&Action::Research { dice: 1, development: Some(Development::JetFighters), chart: None }, &mut FixedDice(6)).unwrap();
    assert!(c.state.has_development(russia, Development::JetFighters));
}

#[test]
fn rockets_hit_an_enemy_factory_within_three_spaces() {
    let mut g = Game::standard(ruleset("classic").unwrap());
    let germany = g.ruleset.power_by_name("germany").unwrap();
    let russia = g.ruleset.power_by_name("russia").unwrap();
    g.state.turn = germany;
    g.state.phase = Phase::Combat;
    let ger = id(&g, "GER");
    // Without the development, no rockets.
    assert_eq!(g.apply(&Action::Rocket { from: ger, at: id(&g, "LEN") }, &mut FixedDice(4)).unwrap_err().code, "rocket/no-development");
    g.state.developments[germany.index()] |= Development::Rockets.bit();
    // GER-EEU-... MOS is too far from GER? GER to LEN: GER-EEU-LEN? check both ways by range.
    let before = g.state.ipcs[russia.index()];
    g.apply(&Action::Rocket { from: ger, at: id(&g, "LEN") }, &mut FixedDice(4)).unwrap();
    assert_eq!(g.state.ipcs[russia.index()], before - 4);
    // Once per AA gun per turn.
    assert_eq!(g.apply(&Action::Rocket { from: ger, at: id(&g, "LEN") }, &mut FixedDice(4)).unwrap_err().code, "rocket/fired");
    // Out of range.
    let jpn = id(&g, "JPN");
    let japan = g.ruleset.power_by_name("japan").unwrap();
    g.state.turn = japan;
    g.state.developments[japan.index()] |= Development::Rockets.bit();
    assert_eq!(g.apply(&Action::Rocket { from: jpn, at: id(&g, "EUS") }, &mut FixedDice(4)).unwrap_err().code, "rocket/range");
}

#[test]
fn bombing_raid_loss_is_capped_by_the_option() {
    for (cap, want_loss) in [("bank", 12), ("territory", 8)] {
        let mut g = Game::empty(rules(&[("bombing_cap", toml::Value::String(cap.into()))]));
        let (germany, uk) = (g.ruleset.power_by_name("germany").unwrap(), g.ruleset.power_by_name("uk").unwrap());
        g.state.turn = germany;
        g.state.phase = Phase::CombatMove;
        g.state.ipcs[uk.index()] = 30;
        g.state.add_unit(UnitType::IndustrialComplex, uk, id(&g, "GBR"));
        for _ in 0..2 {
            g.state.add_unit(UnitType::Bomber, germany, id(&g, "WEU"));
        }
        g.settle_position();
        let bombers: Vec<_> = g.state.units.iter().filter(|u| u.kind == UnitType::Bomber).map(|u| u.id).collect();
        g.apply(&Action::Move { units: bombers, route: vec![id(&g, "WEU"), id(&g, "NOR"), id(&g, "GBR")], transport: None, bombing: true }, &mut FixedDice(6)).unwrap();
        g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
        g.apply(&Action::Battle { at: id(&g, "GBR") }, &mut FixedDice(6)).unwrap();
        assert_eq!(g.state.ipcs[uk.index()], 30 - want_loss, "cap {cap}");
    }
}

#[test]
fn capital_victory_is_checked_at_the_end_of_the_round_or_turn() {
    for (when, after_germany) in [("round", None), ("turn", Some(warboard_rules::Side::Axis))] {
        let mut g = Game::empty(rules(&[("capital_victory_checked", toml::Value::String(when.into()))]));
        let germany = g.ruleset.power_by_name("germany").unwrap();
        for t in ["MOS", "GBR"] {
            let s = id(&g, t);
            g.state.control[s.index()] = Some(germany);
        }
        g.state.turn = germany;
        g.state.phase = Phase::Income;
        g.settle_position();
        g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
        let team = |g: &Game| g.state.winner.as_ref().and_then(|w| w.team.as_deref()).and_then(warboard_rules::Side::parse);
        assert_eq!(team(&g), after_germany, "{when}");
        // Either way the Axis have won once the round is over.
        while g.state.winner.is_none() && g.state.round == 1 {
            g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
        }
        assert_eq!(team(&g), Some(warboard_rules::Side::Axis), "{when}");
    }
}

#[test]
fn huge_purchases_and_endless_battles_are_refused() {
    let mut g = Game::standard(ruleset("classic").unwrap());
    end_phases(&mut g, 1);
    let bank = g.state.ipcs[0];
    let e = g.apply(&Action::Purchase { units: vec![(UnitType::Battleship, u32::MAX)] }, &mut FixedDice(6)).unwrap_err();
    assert_eq!(e.code, "purchase/cost");
    assert_eq!(g.state.ipcs[0], bank);
    // Dice that always miss: the battle never ends, and is refused.
    use warboard_rules::battle::standalone::{build, BattleSpec};
    let spec = BattleSpec { attackers: vec![(UnitType::Infantry, 1)], defenders: vec![(UnitType::Infantry, 1)], amphibious: false };
    let mut b = build(ruleset("classic").unwrap(), &spec).unwrap();
    let before = b.game.state.clone();
    let e = b.game.apply(&Action::Resolve { at: Some(b.at) }, &mut FixedDice(6)).unwrap_err();
    assert_eq!(e.code, "battle/endless");
    assert_eq!(b.game.state, before);
}
