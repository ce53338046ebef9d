//! What the tests comparing the exact mode with Monte Carlo share.

// Each test file uses its own part of this module.
#![allow(dead_code)]

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use warboard_calc::{Army, Battle, CalcError, CalcOptions, Calculator, LossOrder, MonteCarlo, Outcome, RetreatPolicy};
use warboard_rules::{Ruleset, UnitType};

/// Solves `battle` exactly (with the distribution of rounds), checks that
/// nothing was pruned and that Monte Carlo through the engine agrees.
/// Returns false, checking nothing, for a battle the exact mode refuses in
/// a way `skip` accepts.
pub fn exact_agrees_with_monte_carlo(
    calc: &mut Calculator,
    rs: &Ruleset,
    battle: &Battle,
    opts: &CalcOptions,
    mc: MonteCarlo,
    skip: impl Fn(&CalcError) -> bool,
) -> bool {
    let exact = match calc.exact(battle, &CalcOptions { rounds_distribution: true, ..opts.clone() }) {
        Ok(o) => o,
        Err(e) if skip(&e) => return false,
        Err(e) => panic!("{battle:?}: {e}"),
    };
    assert!(exact.pruned < 1e-9);
    let sampled = calc.monte_carlo(battle, opts, mc).unwrap();
    let what = format!("{} vs {} ({opts:?})", battle.attackers, battle.defenders);
    agree(rs, &what, &exact, &sampled, mc.runs, 5.0);
    true
}

/// A number below `n` (0 when `n` is 0).
pub fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    rng.next_u32() % n.max(1)
}

/// Up to `max` of each type, at least one unit in all.
pub fn pick(rng: &mut ChaCha8Rng, types: &[UnitType], max: u32) -> Army {
    let mut army = Army::new();
    for t in types {
        army.add(*t, below(rng, max + 1));
    }
    if army.is_empty() {
        army.add(types[0], 1);
    }
    army
}

/// Defending fighters stand on carriers (DAAK 3.4(a)): no more than the
/// carriers hold; a fleet left empty gets a transport.
pub fn on_carriers(defenders: &mut Army) {
    let room = 2 * defenders.count(UnitType::AircraftCarrier);
    let extra = defenders.count(UnitType::Fighter).saturating_sub(room);
    defenders.remove(UnitType::Fighter, extra);
    if defenders.is_empty() {
        defenders.add(UnitType::Transport, 1);
    }
}

/// A random retreat policy and, sometimes, orders of loss.
pub fn random_policies(rng: &mut ChaCha8Rng, opts: &mut CalcOptions, explicit: Vec<UnitType>) {
    opts.retreat = match below(rng, 4) {
        0 => RetreatPolicy::AfterRound(1 + below(rng, 3)),
        1 => RetreatPolicy::WinChanceBelow([0.2, 0.5, 0.8][below(rng, 3) as usize]),
        _ => RetreatPolicy::Never,
    };
    let orders = [LossOrder::Default, LossOrder::KeepLandUnit, LossOrder::KeepAircraft, LossOrder::Explicit(explicit)];
    if below(rng, 3) == 0 {
        opts.attacker_order = orders[below(rng, 4) as usize].clone();
    }
    if below(rng, 4) == 0 {
        opts.defender_order = orders[below(rng, 4) as usize].clone();
    }
}

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
