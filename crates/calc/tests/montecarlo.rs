//! The exact mode against the battle engine: Monte Carlo through the engine
//! on random small battles (land, with AA guns, amphibious with
//! bombardment, sea with submarines and carriers; random retreat policies
//! and orders of loss) must agree with the exact answer within statistical
//! tolerance (5 standard errors; the seeds are fixed, so this is
//! deterministic).

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
mod common;

use common::{agree, below, exact_agrees_with_monte_carlo, on_carriers, pick, random_policies};
use warboard_calc::{Battle, CalcOptions, Calculator, LossOrder, MonteCarlo, RetreatPolicy};
use warboard_rules::UnitType::{self, *};


/// A random small battle the engine can fight, with random options.
fn random_battle(rng: &mut ChaCha8Rng) -> (Battle, CalcOptions) {
    let mut opts = CalcOptions::default();
    let battle = match below(rng, 4) {
        0 | 1 => {
            let attackers = pick(rng, &[Infantry, Armor, Fighter, Bomber], 2);
            let mut defenders = pick(rng, &[Infantry, Armor, Fighter], 2);
            if below(rng, 2) == 0 {
                defenders.add(AaGun, 1);
            }
            Battle::new(attackers, defenders)
        }
        2 => {
            opts.amphibious = true;
            let attackers = pick(rng, &[Infantry, Armor], 2).with(Battleship, below(rng, 3));
            Battle::new(attackers, pick(rng, &[Infantry, Armor, Fighter], 2))
        }
        _ => {
            let mut defenders = pick(rng, &[Submarine, Battleship, AircraftCarrier, Fighter, Transport], 2);
            on_carriers(&mut defenders);
            Battle::new(pick(rng, &[Submarine, Battleship, AircraftCarrier, Fighter, Bomber, Transport], 2), defenders)
        }
    };
    random_policies(rng, &mut opts, vec![Armor, Fighter]);
    (battle, opts)
}

/// A sea battle where defending submarines face aircraft and ships
/// together: the submarines' hits may take only the ships, the other
/// defenders' hits anyone (two groups of hits in one casualty choice).
fn split_sub_fire(battle: &Battle) -> bool {
    let air = |t: UnitType| matches!(t, Fighter | Bomber);
    battle.defenders.count(Submarine) > 0
        && battle.attackers.iter().any(|(t, _)| air(t))
        && battle.attackers.iter().any(|(t, _)| !air(t))
        && battle.attackers.iter().all(|(t, _)| !matches!(t, Infantry | Armor))
}

/// Returns how many of the battles checked were `split_sub_fire` ones.
fn sweep(battles: usize, runs: u64, seed: u64) -> usize {
    let rs = warboard_rules::ruleset("classic").unwrap();
    let mut calc = Calculator::new(rs.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut done = 0;
    let mut split = 0;
    while done < battles {
        let (battle, opts) = random_battle(&mut rng);
        let mc = MonteCarlo { runs, seed: rng.next_u64() };
        // A rule the exact mode does not model: it says so (tested in
        // exact.rs), and Monte Carlo alone answers.
        if !exact_agrees_with_monte_carlo(&mut calc, &rs, &battle, &opts, mc, |e| matches!(e, warboard_calc::CalcError::NotModelled(_))) {
            continue;
        }
        done += 1;
        split += split_sub_fire(&battle) as usize;
    }
    split
}

#[test]
fn exact_and_monte_carlo_agree_on_random_battles() {
    let split = sweep(200, 3000, 1);
    println!("{split} of 200 battles with split submarine fire");
    // The sweep covers defending submarines against aircraft and ships.
    assert!(split >= 10, "only {split} battles with split submarine fire");
}

#[test]
fn defending_submarines_against_aircraft_and_ships_agree() {
    let rs = warboard_rules::ruleset("classic").unwrap();
    let mut calc = Calculator::new(rs.clone());
    let runs = 10_000;
    let never = CalcOptions::default();
    let below = CalcOptions { retreat: RetreatPolicy::WinChanceBelow(0.5), ..Default::default() };
    let keep_air = CalcOptions { attacker_order: LossOrder::KeepAircraft, ..Default::default() };
    let cases = [
        ("2 ftr, 1 bb, 1 sub vs 2 sub, 1 bb", &never),
        ("3 ftr, 2 bb vs 3 sub, 1 cv, 2 ftr", &never),
        ("1 ftr, 1 bmb, 2 trn, 1 bb vs 2 sub, 1 trn", &never),
        ("2 ftr, 1 bb, 1 sub vs 2 sub, 1 bb", &below),
        ("2 bmb, 1 cv, 1 trn vs 2 sub, 1 cv, 1 ftr", &keep_air),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        let battle = Battle::parse(text).unwrap();
        assert!(split_sub_fire(&battle), "{text}");
        let exact = calc.exact(&battle, &CalcOptions { rounds_distribution: true, ..opts.clone() }).unwrap();
        assert!(exact.pruned < 1e-9);
        let mc = calc.monte_carlo(&battle, opts, MonteCarlo { runs, seed: 100 + seed as u64 }).unwrap();
        agree(&rs, &format!("{text} ({opts:?})"), &exact, &mc, runs, 5.0);
    }
}

/// Classic's developments (its one research chart): jet fighters defend at
/// 5, super submarines attack at 3, heavy bombers roll three dice each.
#[test]
fn classic_developments_agree() {
    let rs = warboard_rules::ruleset("classic").unwrap();
    let mut calc = Calculator::new(rs.clone());
    let runs = 10_000;
    let opts = CalcOptions { rounds_distribution: true, ..Default::default() };
    // Three dice at 4 a bomber, each of which may hit: against one
    // infantry the bomber hits with 1 - (1/3)^3.
    let heavy = calc.exact(&Battle::parse("1 bmb with heavy bombers vs 1 inf").unwrap(), &opts).unwrap();
    let p = 1.0 - (1.0f64 / 3.0).powi(3);
    // Per round: the bomber hits (p), the infantry (1/3) fires back.
    let (win, draw, lose) = (p * 2.0 / 3.0, p / 3.0, (1.0 - p) / 3.0);
    assert!((heavy.attacker_wins - win / (win + draw + lose)).abs() < 1e-12);
    for (seed, text) in
        ["2 bmb, 1 inf with heavy bombers vs 4 inf", "3 arm vs 2 ftr, 1 inf with jets", "2 sub with super subs vs 1 bb, 1 trn", "2 ftr, 1 bmb with jets, heavy bombers vs 2 inf, 1 ftr, 1 aa with jets"]
            .into_iter()
            .enumerate()
    {
        let battle = Battle::parse(text).unwrap();
        let exact = calc.exact(&battle, &opts).unwrap();
        assert!(exact.pruned < 1e-9);
        let mc = calc.monte_carlo(&battle, &CalcOptions::default(), MonteCarlo { runs, seed: 200 + seed as u64 }).unwrap();
        agree(&rs, text, &exact, &mc, runs, 5.0);
    }
    let jets = calc.exact(&Battle::parse("3 arm vs 2 ftr, 1 inf with jets").unwrap(), &opts).unwrap();
    let plain = calc.exact(&Battle::parse("3 arm vs 2 ftr, 1 inf").unwrap(), &opts).unwrap();
    assert!(jets.attacker_wins < plain.attacker_wins - 0.02);
}

#[test]
fn monte_carlo_is_reproducible() {
    let calc = Calculator::new(warboard_rules::ruleset("classic").unwrap());
    let battle = Battle::parse("3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa").unwrap();
    let mc = MonteCarlo { runs: 700, seed: 42 };
    let a = calc.monte_carlo(&battle, &CalcOptions::default(), mc).unwrap();
    let b = calc.monte_carlo(&battle, &CalcOptions::default(), mc).unwrap();
    assert_eq!(a, b);
    let total: f64 = a.rounds_distribution.iter().sum();
    assert!((total - 1.0).abs() < 1e-12);
}

/// A bigger sweep: `cargo test -p warboard-calc --release -- --ignored`.
#[test]
#[ignore]
fn exact_and_monte_carlo_agree_on_many_random_battles() {
    assert!(sweep(500, 20_000, 2) > 0);
}
