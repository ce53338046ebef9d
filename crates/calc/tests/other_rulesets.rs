//! The calculator on a ruleset whose unit table says what the exact mode
//! does not model (issue 10): it refuses, naming the rule, and Monte Carlo,
//! which runs the battle engine, answers. The ruleset is the core's test
//! ruleset (crates/rules/tests/data/testland).

use std::sync::Arc;
use warboard_calc::{Battle, CalcError, CalcOptions, Calculator, MonteCarlo};
use warboard_rules::ruleset::load_scenario;

#[path = "../../rules/tests/support/testland_files.rs"]
mod testland_files;

fn testland() -> Calculator {
    let files = testland_files::files();
    Calculator::new(Arc::new(load_scenario(&files, None).unwrap()))
}

#[test]
fn unmodelled_unit_rules_are_refused_by_name_and_left_to_monte_carlo() {
    let mut calc = testland();
    let opts = CalcOptions::default();
    for (text, rule) in [
        ("1 inf, 1 art vs 2 inf", "support"),
        ("1 dd vs 1 sub", "anti-submarine"),
        ("1 bb vs 2 trn", "defenseless"),
    ] {
        let battle = Battle::parse(text).unwrap();
        match calc.exact(&battle, &opts) {
            Err(CalcError::NotModelled(what)) => assert!(what.contains(rule), "{text}: {what}"),
            other => panic!("{text}: expected a refusal naming {rule}, got {other:?}"),
        }
        let mc = calc.monte_carlo(&battle, &opts, MonteCarlo { runs: 2000, seed: 5 }).unwrap();
        let total = mc.attacker_wins + mc.defender_wins + mc.draw + mc.retreated;
        assert!((total - 1.0).abs() < 1e-9, "{text}: outcomes add up to {total}");
    }
    // Artillery makes the attack better than infantry alone, as Monte Carlo
    // through the engine shows.
    let with = calc.monte_carlo(&Battle::parse("2 inf, 2 art vs 3 inf").unwrap(), &opts, MonteCarlo { runs: 4000, seed: 1 }).unwrap();
    let without = calc.monte_carlo(&Battle::parse("2 inf, 2 inf vs 3 inf").unwrap(), &opts, MonteCarlo { runs: 4000, seed: 1 }).unwrap();
    assert!(with.attacker_wins > without.attacker_wins + 0.05, "{} vs {}", with.attacker_wins, without.attacker_wins);
}
