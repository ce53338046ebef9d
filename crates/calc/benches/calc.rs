//! Benchmarks of the battle calculator (results in BENCHMARKS.md):
//! `cargo bench -p warboard-calc`.
//!
//! - exact, mixed land battles of 10, 30 and 100 units a side (a warm
//!   calculator, cache bypassed: what a computer player pays for a new
//!   position), and a cache hit;
//! - Monte Carlo through the battle engine, on one core;
//! - the exact 30-vs-30 answer against 10,000 Monte Carlo runs of it;
//! - Europe's battles (issue 11): land with artillery, fleets with
//!   destroyers, submarines, aircraft and two-hit battleships;
//! - the Anniversary Edition's: AA fire where each aircraft rolls its own
//!   die, developments, landings with cruisers bombarding, submarines'
//!   surprise strike both ways, defenseless transports
//!   (`cargo bench -p warboard-calc -- anniversary`);
//! - Low Luck (option `low_luck`, issue 33), each battle beside the same
//!   one with dice in the same run (`cargo bench -p warboard-calc -- "low
//!   luck"`).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;
use warboard_calc::{Battle, CalcOptions, Calculator, MonteCarlo, RetreatPolicy};

// Mixed land battles, with and without the defender's AA gun (which
// splits the battle into one per number of aircraft it downs).
const MIXED_10: &str = "4 inf, 3 arm, 2 ftr, 1 bmb vs 6 inf, 2 arm, 2 ftr";
const MIXED_10_AA: &str = "4 inf, 3 arm, 2 ftr, 1 bmb vs 6 inf, 2 arm, 2 ftr, 1 aa";
const MIXED_30: &str = "12 inf, 10 arm, 6 ftr, 2 bmb vs 18 inf, 6 arm, 6 ftr";
const MIXED_30_AA: &str = "12 inf, 10 arm, 6 ftr, 2 bmb vs 18 inf, 6 arm, 6 ftr, 1 aa";
const MIXED_100: &str = "40 inf, 30 arm, 20 ftr, 10 bmb vs 60 inf, 20 arm, 20 ftr";
const MIXED_100_AA: &str = "40 inf, 30 arm, 20 ftr, 10 bmb vs 60 inf, 20 arm, 20 ftr, 1 aa";
const INFANTRY_10: &str = "10 inf vs 10 inf";
// Defending submarines' hits may not take the attacking aircraft (issue 10):
// the exact mode fires them as a group of their own.
const NAVAL: &str = "4 sub, 2 ftr, 2 bmb, 2 bb vs 3 sub, 2 cv, 4 ftr, 2 bb, 2 trn";

// Europe: artillery raising infantry, with and without an AA gun.
const EUROPE_LAND_10: &str = "4 inf, 2 art, 2 arm, 1 ftr, 1 bmb vs 6 inf, 1 art, 1 arm, 2 ftr";
const EUROPE_LAND_10_AA: &str = "4 inf, 2 art, 2 arm, 1 ftr, 1 bmb vs 6 inf, 1 art, 1 arm, 2 ftr, 1 aa";
const EUROPE_LAND_30: &str = "10 inf, 4 art, 8 arm, 6 ftr, 2 bmb vs 16 inf, 2 art, 6 arm, 6 ftr";
const EUROPE_LAND_30_AA: &str = "10 inf, 4 art, 8 arm, 6 ftr, 2 bmb vs 16 inf, 2 art, 6 arm, 6 ftr, 1 aa";
const EUROPE_LAND_100: &str = "30 inf, 15 art, 25 arm, 20 ftr, 10 bmb vs 50 inf, 10 art, 20 arm, 20 ftr";
// Europe at sea: destroyers against submarines, aircraft that need a
// destroyer to hit submarines, two-hit battleships (the fleet kernel).
const EUROPE_FLEET_8: &str = "2 bb, 2 dd, 2 sub, 2 ftr vs 1 bb, 2 dd, 2 sub, 1 cv, 2 ftr, 2 trn";
const EUROPE_NAVAL: &str = "4 sub, 2 ftr, 2 bmb, 2 bb vs 3 sub, 2 cv, 4 ftr, 2 bb, 2 trn";
const EUROPE_FLEET_26: &str = "4 bb, 6 dd, 8 sub, 6 ftr, 2 bmb vs 3 bb, 6 dd, 6 sub, 3 cv, 6 ftr, 4 trn";

// Anniversary: the same land battles as Europe's (its AA gun's hits are
// not chosen: each aircraft rolls, so fighters and bombers are lost
// independently), one with developments on both sides, and a landing.
const ANNIVERSARY_LAND_10_DEV: &str =
    "4 inf, 2 art, 2 arm, 1 ftr, 1 bmb with jets, heavy bombers, advanced artillery vs 6 inf, 1 art, 1 arm, 2 ftr, 1 aa with radar";
const ANNIVERSARY_LANDING: &str = "4 inf, 2 art, 2 arm, 2 bb, 2 cru, 2 ftr vs 8 inf, 2 arm, 1 aa";
// Anniversary at sea: submarines strike first attacking and defending
// unless a destroyer faces them; transports are taken last and lost
// without dice; cruisers.
const ANNIVERSARY_SUBS_CRUISERS: &str = "4 sub, 2 cru, 1 dd vs 3 sub, 2 cru, 3 trn";

fn calculator() -> Calculator {
    Calculator::new(warboard_rules::ruleset("classic").unwrap())
}

/// A pool of one thread: Monte Carlo "per core".
fn one_core() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap()
}

fn exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    let opts = CalcOptions::default();
    let mut calc = calculator();
    for (name, text) in [
        ("10v10 infantry", INFANTRY_10),
        ("10v10 mixed", MIXED_10),
        ("10v10 mixed + aa", MIXED_10_AA),
        ("30v30 mixed", MIXED_30),
        ("30v30 mixed + aa", MIXED_30_AA),
        ("100v100 mixed", MIXED_100),
        ("100v100 mixed + aa", MIXED_100_AA),
        ("10v13 naval, submarines", NAVAL),
    ] {
        let battle = Battle::parse(text).unwrap();
        let o = calc.exact_uncached(&battle, &opts).unwrap();
        eprintln!("{name}: {text}: attacker wins {:.6}, pruned {:.1e}", o.attacker_wins, o.pruned);
        group.bench_function(BenchmarkId::from_parameter(name), |b| b.iter(|| calc.exact_uncached(black_box(&battle), &opts).unwrap()));
    }
    let battle = Battle::parse(MIXED_30_AA).unwrap();
    let below = CalcOptions { retreat: RetreatPolicy::WinChanceBelow(0.4), ..CalcOptions::default() };
    group.bench_function("30v30 mixed + aa, retreat below 40%", |b| b.iter(|| calc.exact_uncached(black_box(&battle), &below).unwrap()));
    group.bench_function("30v30 mixed + aa, cache hit", |b| b.iter(|| calc.exact(black_box(&battle), &opts).unwrap()));
    let with_rounds = CalcOptions { rounds_distribution: true, ..CalcOptions::default() };
    group.bench_function("30v30 mixed + aa, with rounds distribution", |b| {
        b.iter(|| calc.exact_uncached(black_box(&battle), &with_rounds).unwrap())
    });
    let battle = Battle::parse(MIXED_100).unwrap();
    group.bench_function("100v100 mixed, with rounds distribution", |b| {
        b.iter(|| calc.exact_uncached(black_box(&battle), &with_rounds).unwrap())
    });
    group.finish();
}

fn europe(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact europe");
    let opts = CalcOptions::default();
    let mut calc = Calculator::new(warboard_rules::ruleset("europe").unwrap());
    for (name, text) in [
        ("10v10 infantry", INFANTRY_10),
        ("10v10 land, artillery", EUROPE_LAND_10),
        ("10v10 land, artillery + aa", EUROPE_LAND_10_AA),
        ("30v30 land, artillery", EUROPE_LAND_30),
        ("30v30 land, artillery + aa", EUROPE_LAND_30_AA),
        ("100v100 land, artillery", EUROPE_LAND_100),
        ("8v10 fleet, destroyers", EUROPE_FLEET_8),
        ("10v13 naval, no destroyers", EUROPE_NAVAL),
        ("26v28 fleet, destroyers", EUROPE_FLEET_26),
    ] {
        let battle = Battle::parse(text).unwrap();
        let o = calc.exact_uncached(&battle, &opts).unwrap();
        eprintln!("europe {name}: {text}: attacker wins {:.6}, pruned {:.1e}", o.attacker_wins, o.pruned);
        group.bench_function(BenchmarkId::from_parameter(name), |b| b.iter(|| calc.exact_uncached(black_box(&battle), &opts).unwrap()));
    }
    // What `warboard calc` computes: the answer with its distribution of
    // rounds.
    with_rounds_distribution(&mut group, &mut calc, &[("10v10 land, artillery + aa", EUROPE_LAND_10_AA), ("30v30 land, artillery + aa", EUROPE_LAND_30_AA), ("8v10 fleet, destroyers", EUROPE_FLEET_8)]);
    group.finish();
    monte_carlo_one_core(c, "monte_carlo_one_core europe", &calc, &[("10v10 land, artillery + aa", EUROPE_LAND_10_AA), ("8v10 fleet, destroyers", EUROPE_FLEET_8)]);
}

/// Exact answers with their distribution of rounds, one bench each.
fn with_rounds_distribution(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, calc: &mut Calculator, battles: &[(&str, &str)]) {
    let with_rounds = CalcOptions { rounds_distribution: true, ..CalcOptions::default() };
    for (name, text) in battles {
        let battle = Battle::parse(text).unwrap();
        group.bench_function(BenchmarkId::new("with rounds distribution", name), |b| {
            b.iter(|| calc.exact_uncached(black_box(&battle), &with_rounds).unwrap())
        });
    }
}

/// Monte Carlo through the battle engine on one core: 1000 battles each.
fn monte_carlo_one_core(c: &mut Criterion, group_name: &str, calc: &Calculator, battles: &[(&str, &str)]) {
    let mut group = c.benchmark_group(group_name);
    let pool = one_core();
    let opts = CalcOptions::default();
    for (name, text) in battles {
        let battle = Battle::parse(text).unwrap();
        let runs = 1000;
        group.throughput(Throughput::Elements(runs));
        group.bench_function(BenchmarkId::new("1000 battles", name), |b| {
            b.iter(|| pool.install(|| calc.monte_carlo(black_box(&battle), &opts, MonteCarlo { runs, seed: 1 }).unwrap()))
        });
    }
    group.finish();
}

fn anniversary(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact anniversary");
    let opts = CalcOptions::default();
    let amphibious = CalcOptions { amphibious: true, ..CalcOptions::default() };
    let mut calc = Calculator::new(warboard_rules::ruleset("anniversary-1941").unwrap());
    for (name, text, opts) in [
        ("10v10 infantry", INFANTRY_10, &opts),
        ("10v10 land, artillery", EUROPE_LAND_10, &opts),
        ("10v10 land, artillery + aa", EUROPE_LAND_10_AA, &opts),
        ("10v10 land + aa, developments", ANNIVERSARY_LAND_10_DEV, &opts),
        ("30v30 land, artillery", EUROPE_LAND_30, &opts),
        ("30v30 land, artillery + aa", EUROPE_LAND_30_AA, &opts),
        ("100v100 land, artillery", EUROPE_LAND_100, &opts),
        ("10v10 landing, 4 ships bombard + aa", ANNIVERSARY_LANDING, &amphibious),
        ("7v8 submarines, cruisers, transports", ANNIVERSARY_SUBS_CRUISERS, &opts),
        ("8v10 fleet, destroyers", EUROPE_FLEET_8, &opts),
        ("10v13 naval, no destroyers", EUROPE_NAVAL, &opts),
        ("26v28 fleet, destroyers", EUROPE_FLEET_26, &opts),
    ] {
        let battle = Battle::parse(text).unwrap();
        let o = calc.exact_uncached(&battle, opts).unwrap();
        eprintln!("anniversary {name}: {text}: attacker wins {:.6}, pruned {:.1e}", o.attacker_wins, o.pruned);
        group.bench_function(BenchmarkId::from_parameter(name), |b| b.iter(|| calc.exact_uncached(black_box(&battle), opts).unwrap()));
    }
    with_rounds_distribution(&mut group, &mut calc, &[("30v30 land, artillery + aa", EUROPE_LAND_30_AA), ("8v10 fleet, destroyers", EUROPE_FLEET_8)]);
    group.finish();
    monte_carlo_one_core(c, "monte_carlo_one_core anniversary", &calc, &[("10v10 land, artillery + aa", EUROPE_LAND_10_AA), ("8v10 fleet, destroyers", EUROPE_FLEET_8)]);
}

/// Low Luck (docs/low-luck.md): each group's hits are sure hits and one
/// Bernoulli die, so a side's hit distribution has at most two entries.
/// Every battle is measured with Low Luck and with dice, in the same run.
fn low_luck(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact low luck");
    let opts = CalcOptions::default();
    // `true`, as the option value `Ruleset::with_options` takes (a TOML
    // value, read here from JSON).
    let on = serde_json::from_str("true").unwrap();
    for (ruleset, name, text) in [
        ("classic", "10v10 infantry", INFANTRY_10),
        ("classic", "10v10 mixed + aa", MIXED_10_AA),
        ("classic", "30v30 mixed", MIXED_30),
        ("classic", "30v30 mixed + aa", MIXED_30_AA),
        ("classic", "100v100 mixed", MIXED_100),
        ("classic", "100v100 mixed + aa", MIXED_100_AA),
        ("classic", "10v13 naval, submarines", NAVAL),
        ("europe", "30v30 land, artillery + aa", EUROPE_LAND_30_AA),
        ("europe", "26v28 fleet, destroyers", EUROPE_FLEET_26),
        ("anniversary-1941", "30v30 land, artillery + aa", EUROPE_LAND_30_AA),
        ("anniversary-1941", "8v10 fleet, destroyers", EUROPE_FLEET_8),
        ("anniversary-1941", "26v28 fleet, destroyers", EUROPE_FLEET_26),
    ] {
        let dice = warboard_rules::ruleset(ruleset).unwrap();
        let ll = std::sync::Arc::new(dice.with_options([("low_luck", &on)]).unwrap());
        let battle = Battle::parse(text).unwrap();
        for (how, rs) in [("low luck", ll), ("dice", dice)] {
            let mut calc = Calculator::new(rs);
            let o = calc.exact_uncached(&battle, &opts).unwrap();
            eprintln!("{how}: {ruleset} {name}: {text}: attacker wins {:.6}, pruned {:.1e}", o.attacker_wins, o.pruned);
            group.bench_function(BenchmarkId::new(how, format!("{ruleset} {name}")), |b| {
                b.iter(|| calc.exact_uncached(black_box(&battle), &opts).unwrap())
            });
        }
    }
    group.finish();
}

fn monte_carlo(c: &mut Criterion) {
    let mut group = c.benchmark_group("monte_carlo_one_core");
    let pool = one_core();
    let calc = calculator();
    let opts = CalcOptions::default();
    for (name, text) in [("10v10 mixed + aa", MIXED_10_AA), ("30v30 mixed + aa", MIXED_30_AA)] {
        let battle = Battle::parse(text).unwrap();
        let runs = 1000;
        group.throughput(Throughput::Elements(runs));
        group.bench_function(BenchmarkId::new("1000 battles", name), |b| {
            b.iter(|| pool.install(|| calc.monte_carlo(black_box(&battle), &opts, MonteCarlo { runs, seed: 1 }).unwrap()))
        });
    }
    group.finish();
}

fn exact_against_monte_carlo(c: &mut Criterion) {
    let mut group = c.benchmark_group("30v30 mixed + aa: exact vs 10,000 Monte Carlo runs, one core");
    group.sample_size(10);
    let pool = one_core();
    let mut calc = calculator();
    let opts = CalcOptions::default();
    let battle = Battle::parse(MIXED_30_AA).unwrap();
    group.bench_function("exact", |b| b.iter(|| calc.exact_uncached(black_box(&battle), &opts).unwrap()));
    group.bench_function("monte carlo 10000", |b| {
        b.iter(|| pool.install(|| calc.monte_carlo(black_box(&battle), &opts, MonteCarlo { runs: 10_000, seed: 1 }).unwrap()))
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1)).sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = exact, monte_carlo, exact_against_monte_carlo, europe, anniversary, low_luck
}
criterion_main!(benches);
