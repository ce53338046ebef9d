//! The calculator on a ruleset whose unit table says what the exact mode
//! does not model (issues 10 and 11): it refuses, naming the rule, and
//! Monte Carlo, which runs the battle engine, answers; what it does model
//! (support, two-hit battleships) agrees with Monte Carlo. The ruleset is
//! the core's test ruleset (crates/rules/tests/data/testland): its
//! submarines strike first when defending too, its transports are
//! defenseless. Europe's battles: tests/europe.rs.

mod common;

use common::agree;
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
        ("1 dd vs 1 sub", "first strikes by defending units"),
        ("1 sub, 1 ftr vs 1 dd", "first strikes by defending units"),
        ("1 bb vs 2 trn", "defenseless"),
    ] {
        let battle = Battle::parse(text).unwrap();
        match calc.exact(&battle, &opts) {
            Err(CalcError::NotModelled(what)) => {
                assert!(what.contains(rule), "{text}: {what}");
                let message = CalcError::NotModelled(what).to_string();
                assert!(message.contains("--monte-carlo"), "{text}: the refusal says what to do: {message}");
            }
            other => panic!("{text}: expected a refusal naming {rule}, got {other:?}"),
        }
        let mc = calc.monte_carlo(&battle, &opts, MonteCarlo { runs: 2000, seed: 5 }).unwrap();
        let total = mc.attacker_wins + mc.defender_wins + mc.draw + mc.retreated;
        assert!((total - 1.0).abs() < 1e-9, "{text}: outcomes add up to {total}");
    }
}

#[test]
fn support_and_two_hit_units_agree_with_the_engine() {
    let mut calc = testland();
    let rs = calc.ruleset().clone();
    let opts = CalcOptions { rounds_distribution: true, ..Default::default() };
    for (seed, text) in ["2 inf, 2 art vs 3 inf", "3 inf, 1 art, 1 ftr vs 2 inf, 2 art", "2 bb vs 1 bb, 2 dd", "1 bb, 1 ftr vs 1 bb"].into_iter().enumerate() {
        let battle = Battle::parse(text).unwrap();
        let exact = calc.exact(&battle, &opts).unwrap();
        assert!(exact.pruned < 1e-9, "{text}");
        let mc = calc.monte_carlo(&battle, &CalcOptions::default(), MonteCarlo { runs: 10_000, seed: seed as u64 }).unwrap();
        agree(&rs, text, &exact, &mc, 10_000, 5.0);
    }
    // Artillery makes the attack better than infantry alone.
    let with = calc.exact(&Battle::parse("2 inf, 2 art vs 3 inf").unwrap(), &CalcOptions::default()).unwrap();
    let without = calc.exact(&Battle::parse("4 inf vs 3 inf").unwrap(), &CalcOptions::default()).unwrap();
    assert!(with.attacker_wins > without.attacker_wins + 0.05, "{} vs {}", with.attacker_wins, without.attacker_wins);
}
