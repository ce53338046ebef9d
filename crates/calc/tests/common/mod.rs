//! What the tests comparing the exact mode with Monte Carlo share.

use warboard_calc::{Army, Outcome};
use warboard_rules::Ruleset;

/// Fails if a Monte Carlo estimate is further than `sigmas` standard
/// errors from the exact value, the standard errors being those of the
/// exact distribution (so a sample that happens to have no spread is judged
/// fairly).
pub fn agree(rs: &Ruleset, what: &str, exact: &Outcome, mc: &Outcome, runs: u64, sigmas: f64) {
    let n = runs as f64;
    // Rare events are far from normal (an ending with probability 1e-5
    // still turns up in one run of 1500 now and then): allow three runs'
    // worth of the quantity's range on top.
    let check = |name: &str, e: f64, var: f64, range: f64, m: f64| {
        let se = (var.max(0.0) / n).sqrt();
        let tolerance = sigmas * se + 3.0 * range / n + 1e-9;
        assert!((e - m).abs() <= tolerance, "{what}: {name}: exact {e}, Monte Carlo {m} (se {se})");
    };
    let prob = |name: &str, e: f64, m: f64| check(name, e, e * (1.0 - e), 1.0, m);
    prob("attacker wins", exact.attacker_wins, mc.attacker_wins);
    prob("defender wins", exact.defender_wins, mc.defender_wins);
    prob("draw", exact.draw, mc.draw);
    prob("retreated", exact.retreated, mc.retreated);
    prob("captured", exact.captured, mc.captured);
    // Mean and variance of a quantity over the exact outcomes.
    let moments = |f: &dyn Fn(&warboard_calc::SurvivorOutcome) -> f64| {
        let m1: f64 = exact.outcomes.iter().map(|o| o.probability * f(o)).sum();
        let m2: f64 = exact.outcomes.iter().map(|o| o.probability * f(o) * f(o)).sum();
        let max = exact.outcomes.iter().map(f).fold(f64::MIN, f64::max);
        let min = exact.outcomes.iter().map(f).fold(f64::MAX, f64::min);
        (m1, m2 - m1 * m1, max - min)
    };
    let cost = |a: &Army| a.iter().map(|(t, k)| (rs.stats(t).cost * k) as f64).sum::<f64>();
    let (_, var, range) = moments(&|o| cost(&o.attackers));
    check("attacker loss", exact.attacker_ipc_loss, var, range, mc.attacker_ipc_loss);
    let (_, var, range) = moments(&|o| cost(&o.defenders));
    check("defender loss", exact.defender_ipc_loss, var, range, mc.defender_ipc_loss);
    let r1: f64 = exact.rounds_distribution.iter().enumerate().map(|(r, p)| r as f64 * p).sum();
    let r2: f64 = exact.rounds_distribution.iter().enumerate().map(|(r, p)| (r * r) as f64 * p).sum();
    check("rounds", exact.expected_rounds, r2 - r1 * r1, exact.rounds_distribution.len() as f64, mc.expected_rounds);
    for (t, m) in &mc.attacker_survivors {
        let (e, var, range) = moments(&|o| o.attackers.count(*t) as f64);
        check(&format!("attacking {t} left"), e, var, range, *m);
    }
    for (t, m) in &mc.defender_survivors {
        let (e, var, range) = moments(&|o| o.defenders.count(*t) as f64);
        check(&format!("defending {t} left"), e, var, range, *m);
    }
}


/// Fails unless every way the battle ends (ending, survivors) that the
/// exact mode gives at least `floor` comes up in Monte Carlo as often as
/// it should (5 standard errors, plus three runs' worth), and Monte Carlo
/// finds no ending the exact mode rules out.
#[allow(dead_code)]
pub fn agree_on_endings(what: &str, exact: &Outcome, mc: &Outcome, runs: u64, floor: f64) {
    let n = runs as f64;
    for o in exact.outcomes.iter().filter(|o| o.probability >= floor) {
        let m = mc
            .outcomes
            .iter()
            .find(|x| (x.ending, x.captured, x.attackers, x.defenders) == (o.ending, o.captured, o.attackers, o.defenders))
            .map_or(0.0, |x| x.probability);
        let se = (o.probability * (1.0 - o.probability) / n).sqrt();
        assert!(
            (o.probability - m).abs() <= 5.0 * se + 3.0 / n,
            "{what}: {:?} with {} against {}: exact {}, Monte Carlo {m} (se {se})",
            o.ending,
            o.attackers,
            o.defenders,
            o.probability
        );
    }
    for x in &mc.outcomes {
        let known = exact.outcomes.iter().any(|o| (x.ending, x.captured, x.attackers, x.defenders) == (o.ending, o.captured, o.attackers, o.defenders));
        assert!(known || x.probability <= 3.0 / n, "{what}: Monte Carlo ends {:?} with {} against {} ({}), which the exact mode rules out", x.ending, x.attackers, x.defenders, x.probability);
    }
}
