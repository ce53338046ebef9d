//! The calculator on a ruleset whose unit table says what the exact mode
//! models and what it does not (issues 10 and 11): what it does not, it
//! refuses, naming the rule, and Monte Carlo, which runs the battle
//! engine, answers; what it does model (support, two-hit battleships,
//! submarines that strike first when defending too, defenseless
//! transports) agrees with Monte Carlo. The ruleset is the core's test
//! ruleset (crates/rules/tests/data/testland), and variants of it with one
//! line of its unit table changed. Europe's battles: tests/europe.rs;
//! Anniversary's: tests/anniversary.rs.

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

/// Testland with `from` replaced by `to` in its unit table.
fn testland_with(from: &str, to: &str) -> Calculator {
    let mut files = testland_files::files();
    assert!(files.ruleset.contains(from), "{from}");
    files.ruleset = Box::leak(files.ruleset.replacen(from, to, 1).into_boxed_str());
    Calculator::new(Arc::new(load_scenario(&files, None).unwrap()))
}

#[test]
fn unmodelled_unit_rules_are_refused_by_name_and_left_to_monte_carlo() {
    let opts = CalcOptions::default();
    let cases = [
        (testland_with("hit_points = 2", "hit_points = 3"), "1 bb vs 1 dd", "units of more than two hit points"),
        (testland_with("anti_submarine = true", "anti_submarine = true\nfirst_strike = \"attack\""), "1 dd vs 1 bb", "first strikes by units other than submarines"),
        (testland_with("defense = 0\nmovement = 2", "defense = 1\nmovement = 2"), "1 bb vs 1 trn, 1 dd", "defenseless units that fire"),
        (testland_with("cargo_size = 1", "cargo_size = 1\nsupport = { type = \"infantry\", attack = 3 }"), "2 inf, 1 art, 1 ftr vs 3 inf", "two kinds of support"),
    ];
    for (mut calc, text, rule) in cases {
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
fn defending_first_strikes_and_defenseless_transports_agree_with_the_engine() {
    let mut calc = testland();
    let rs = calc.ruleset().clone();
    let opts = CalcOptions { rounds_distribution: true, ..Default::default() };
    for (seed, text) in ["1 dd vs 1 sub", "1 sub, 1 ftr vs 1 dd", "1 bb vs 2 trn", "2 sub vs 1 sub, 1 dd, 2 trn", "2 ftr, 1 bb vs 2 sub, 1 trn"].into_iter().enumerate() {
        let battle = Battle::parse(text).unwrap();
        let exact = calc.exact(&battle, &opts).unwrap();
        assert!(exact.pruned < 1e-9, "{text}");
        let mc = calc.monte_carlo(&battle, &CalcOptions::default(), MonteCarlo { runs: 10_000, seed: 50 + seed as u64 }).unwrap();
        agree(&rs, text, &exact, &mc, 10_000, 5.0);
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
