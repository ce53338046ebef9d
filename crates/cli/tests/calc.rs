//! `warboard calc` from the outside: JSON fields, the tables, the chart,
//! and clear errors with a non-zero exit for battles that cannot be.

use serde_json::Value;
use std::process::{Command, Output};

fn warboard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warboard")).args(args).output().expect("the warboard binary runs")
}

fn json(args: &[&str]) -> Value {
    let out = warboard(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.trim().lines().count(), 1, "one JSON object on one line");
    serde_json::from_str(&text).expect("valid JSON")
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} is a number in {v}"))
}

#[test]
fn json_has_the_documented_fields() {
    let v = json(&["calc", "1 inf vs 1 inf", "--json"]);
    for key in [
        "attacker_wins",
        "defender_wins",
        "draw",
        "captured",
        "attacker_survivors",
        "defender_survivors",
        "attacker_ipc_loss",
        "defender_ipc_loss",
        "rounds",
        "pruned",
    ] {
        assert!(v.get(key).is_some(), "missing {key} in {v}");
    }
    assert!((num(&v, "attacker_wins") - 0.25).abs() < 1e-9);
    assert!((num(&v, "defender_wins") - 0.625).abs() < 1e-9);
    assert!((num(&v, "draw") - 0.125).abs() < 1e-9);
    assert!((num(&v, "captured") - 0.25).abs() < 1e-9);
    assert!((num(&v, "rounds") - 2.25).abs() < 1e-9);
    assert!((v["attacker_survivors"]["infantry"].as_f64().unwrap() - 0.25).abs() < 1e-9);
    assert!((v["defender_survivors"]["infantry"].as_f64().unwrap() - 0.625).abs() < 1e-9);
    assert_eq!(v["method"], "exact");
}

#[test]
fn options_reach_the_calculator() {
    let v = json(&["calc", "1 ftr vs 1 inf, 1 aa", "--json"]);
    assert!((num(&v, "attacker_wins") - 5.0 / 12.0).abs() < 1e-9);
    assert_eq!(num(&v, "captured"), 0.0, "aircraft do not capture");
    let v = json(&["calc", "1 inf vs 1 inf", "--retreat", "after:1", "--json"]);
    assert!((num(&v, "retreated") - 20.0 / 36.0).abs() < 1e-9);
    let v = json(&["calc", "1 inf, 1 bb vs 1 inf", "--amphibious", "--json"]);
    assert!(num(&v, "attacker_wins") > 0.5);
    assert!((v["attacker_survivors"]["battleship"].as_f64().unwrap() - 1.0).abs() < 1e-9, "bombarding ships are never hit");
}

#[test]
fn monte_carlo_reports_standard_errors() {
    let args = ["calc", "3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa", "--monte-carlo", "2000", "--seed", "7", "--json"];
    let v = json(&args);
    assert_eq!(v["method"], "monte_carlo");
    assert_eq!(v["runs"], 2000);
    let se = num(&v["standard_errors"], "attacker_wins");
    assert!(se > 0.0 && se < 0.02);
    let exact = json(&["calc", "3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa", "--json"]);
    assert!((num(&v, "attacker_wins") - num(&exact, "attacker_wins")).abs() < 5.0 * se);
    assert_eq!(v, json(&args), "the same seed gives the same answer");
}

#[test]
fn human_output_has_the_tables() {
    let out = warboard(&["calc", "3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa", "--rounds"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for part in ["attacker wins", "defender wins", "Expected survivors", "Attacker left", "Defender left", "Rounds fought", "IPCs lost"] {
        assert!(text.contains(part), "no {part:?} in\n{text}");
    }
    let out = warboard(&["calc", "3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("rounds (expected)") && !text.contains("Rounds fought"), "the table only with --rounds:\n{text}");
}

#[test]
fn chart_is_written_as_svg() {
    let path = std::env::temp_dir().join(format!("warboard-calc-test-{}.svg", std::process::id()));
    let out = warboard(&["calc", "2 inf, 1 arm vs 2 inf", "--chart", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(svg.starts_with("<svg") && svg.contains("Rounds fought"));
    let out = warboard(&["calc", "2 inf vs 2 inf", "--chart", "odds.png"]);
    assert!(!out.status.success());
}

#[test]
fn europe_battles_are_exact() {
    // Artillery raises one infantry (Europe's names, entries without commas).
    let v = json(&["calc", "--ruleset", "europe", "3 inf 1 art vs 4 inf", "--json"]);
    assert_eq!(v["method"], "exact");
    assert_eq!(v["ruleset"], "europe");
    assert_eq!(v["attackers"]["artillery"], 1);
    let plain = json(&["calc", "--ruleset", "europe", "4 inf vs 4 inf", "--json"]);
    assert!(num(&v, "attacker_wins") > num(&plain, "attacker_wins"));
    // A destroyer cancels the submarine's first strike: both fire together.
    let v = json(&["calc", "--ruleset", "europe", "1 submarine vs 1 destroyer", "--json"]);
    assert!((num(&v, "attacker_wins") - 0.25).abs() < 1e-9);
    assert!((num(&v, "defender_wins") - 0.5).abs() < 1e-9);
    // Aircraft and submarines with no destroyer cannot touch each other.
    let v = json(&["calc", "--ruleset", "europe", "1 ftr vs 1 sub", "--json"]);
    assert!((num(&v, "retreated") - 1.0).abs() < 1e-9);
    // Two-hit battleships, and the table with its distribution of rounds.
    let out = warboard(&["calc", "--ruleset", "europe", "2 bb, 1 dd vs 1 bb, 2 sub, 1 trn", "--rounds"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("europe, exact") && text.contains("Rounds fought"), "{text}");
    // Without --rounds the round-by-round pass is not made; the expected
    // number of rounds is the same.
    let bare = json(&["calc", "--ruleset", "europe", "2 bb, 1 dd vs 1 bb, 2 sub, 1 trn", "--json"]);
    let full = json(&["calc", "--ruleset", "europe", "2 bb, 1 dd vs 1 bb, 2 sub, 1 trn", "--json", "--rounds"]);
    assert!(bare["rounds_distribution"].as_array().is_none_or(Vec::is_empty), "{bare}");
    assert!(full["rounds_distribution"].as_array().is_some_and(|r| r.len() > 2), "{full}");
    assert!((num(&bare, "rounds") - num(&full, "rounds")).abs() < 1e-6);
    // Monte Carlo agrees.
    let exact = json(&["calc", "--ruleset", "europe", "2 sub, 1 ftr vs 1 dd, 1 sub", "--json"]);
    let mc = json(&["calc", "--ruleset", "europe", "2 sub, 1 ftr vs 1 dd, 1 sub", "--monte-carlo", "4000", "--json"]);
    let se = num(&mc["standard_errors"], "attacker_wins");
    assert!((num(&mc, "attacker_wins") - num(&exact, "attacker_wins")).abs() < 5.0 * se + 1e-3);
}

#[test]
fn the_help_says_what_the_calculator_assumes() {
    let out = warboard(&["calc", "--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for part in ["submerge", "amphibious", "europe"] {
        assert!(text.contains(part), "no {part:?} in\n{text}");
    }
}

#[test]
fn impossible_battles_fail_clearly() {
    for (battle, says) in [
        ("3 inf vs 2 bb", "land units and ships"),
        ("3 elephants vs 2 inf", "unknown unit"),
        ("vs 2 inf", "empty"),
        ("3 inf vs", "empty"),
        ("3 inf", "ATTACKERS vs DEFENDERS"),
        ("2 art vs 1 inf", "no artillery"),
        ("1 aa vs 1 inf", "do not attack"),
    ] {
        let out = warboard(&["calc", battle]);
        assert!(!out.status.success(), "{battle} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{battle}: {err}");
        assert!(out.stdout.is_empty());
    }
    let out = warboard(&["calc", "1 inf vs 1 inf", "--retreat", "sometimes"]);
    assert!(!out.status.success());
    let out = warboard(&["calc", "1 inf vs 1 inf", "--ruleset", "nonesuch"]);
    assert!(!out.status.success());
}

/// Issue 34: what cannot be calculated is refused from the counts, at once
/// and in a few MB, in both modes; negative counts and unknown names are
/// told plainly.
#[test]
fn refusals_come_from_the_counts() {
    let fails = |args: &[&str], says: &str| {
        let out = warboard(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(err.starts_with("warboard calc: ") && err.contains(says), "{args:?}: {err}");
        err.into_owned()
    };
    for mode in [&[][..], &["--monte-carlo", "1"][..]] {
        for (battle, says) in [
            ("4294967295 inf vs 1 inf", "too many units on a side: 4294967295 attackers (at most 5000)"),
            ("10000000 inf vs 1 inf", "too many units on a side: 10000000 attackers (at most 5000)"),
            ("1 inf vs 5001 inf", "too many units on a side: 5001 defenders (at most 5000)"),
        ] {
            fails(&[&["calc", battle][..], mode].concat(), says);
        }
    }
    fails(
        &["calc", "5000 inf vs 5000 inf", "--monte-carlo", "100"],
        "too much Monte Carlo work: 100 runs of a battle of 10000 units; at most 4 runs of it",
    );
    fails(&["calc", "10 inf vs 10 inf", "--monte-carlo", "18446744073709551615"], "at most 48076 runs of it");

    // A leading '-' is the battle's, not an option: its count is refused.
    for battle in ["-3 inf vs 2 inf", "3 inf vs -2 inf", "1.5 inf vs 2 inf"] {
        let err = fails(&["calc", battle], "counts are whole numbers, 0 or more");
        assert!(!err.contains("unexpected argument"), "{err}");
    }
    let err = fails(&["calc", "--json", "-3 inf vs 2 inf"], "counts are whole numbers, 0 or more");
    assert!(!err.contains("unexpected argument"), "{err}");

    // A name of 100 KB is echoed cut to its first 40 characters.
    let name = "w".repeat(100_000);
    let err = fails(&["calc", &format!("3 {name} vs 2 inf")], &format!("unknown unit \"{}…\"", "w".repeat(40)));
    assert!(err.len() < 400, "{} bytes: {}", err.len(), &err[..200]);
    let err = fails(&["calc", "1 inf vs 1 inf", "--attacker-order", &name], &format!("unknown unit \"{}…\"", "w".repeat(40)));
    assert!(err.len() < 400, "{} bytes", err.len());
}

/// Low Luck (issue 33, docs/low-luck.md): `--low-luck`, or the option by
/// name as `play` takes it; the table says so, JSON names the options.
#[test]
fn low_luck_is_an_option_of_the_calculator() {
    // 2 armor against 3 infantry: one sure hit a side, then the armor's
    // die for 3 against 4 and then 2 (1 in 10 to win), not 1 in ~4 with dice.
    let flag: &[&str] = &["calc", "2 arm vs 3 inf", "--json", "--low-luck"];
    let option: &[&str] = &["calc", "2 arm vs 3 inf", "--json", "--option", "low_luck=true"];
    for args in [flag, option] {
        let v = json(args);
        assert!((num(&v, "attacker_wins") - 0.1).abs() < 1e-9, "{args:?}: {v}");
        assert!(v["options"].as_str().unwrap().contains("low_luck=true"), "{v}");
    }
    let dice = json(&["calc", "2 arm vs 3 inf", "--json"]);
    assert!((num(&dice, "attacker_wins") - 0.1).abs() > 0.05);
    assert!(dice["options"].as_str().unwrap().contains("low_luck=false"));
    let out = warboard(&["calc", "2 arm vs 3 inf", "--low-luck", "--ruleset", "europe"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("(europe, exact, low luck)"));
    let out = warboard(&["calc", "2 arm vs 3 inf", "--option", "low_luck=sometimes"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("option `low_luck` is true or false"));
    let help = String::from_utf8(warboard(&["calc", "--help"]).stdout).unwrap();
    assert!(help.contains("--low-luck") && help.contains("--option <NAME=VALUE>"), "{help}");
}
