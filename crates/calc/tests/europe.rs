//! The exact mode on Europe's battles (issue 11): artillery support,
//! two-hit battleships, destroyers against submarines, submarines and
//! aircraft. Small cases against probabilities worked out by hand; every
//! kind of battle against Monte Carlo through the battle engine (5
//! standard errors; the seeds are fixed, so this is deterministic).

mod common;

use common::{agree, agree_on_endings, below, exact_agrees_with_monte_carlo, on_carriers, pick, random_policies};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::sync::Arc;
use warboard_calc::{Army, Battle, CalcError, CalcOptions, Calculator, Ending, LossOrder, MonteCarlo, Outcome, RetreatPolicy};
use warboard_rules::Ruleset;
use warboard_rules::UnitType::{self, *};

fn europe() -> Arc<Ruleset> {
    warboard_rules::ruleset("europe").unwrap()
}

fn exact(text: &str, opts: &CalcOptions) -> Outcome {
    Calculator::new(europe()).exact_uncached(&Battle::parse(text).unwrap(), opts).unwrap()
}

fn close(what: &str, got: f64, want: f64) {
    assert!((got - want).abs() < 1e-9, "{what}: got {got}, want {want}");
}

// ---------------------------------------------------------------- by hand

#[test]
fn artillery_raises_one_infantry() {
    // Attacking: the infantry hits on 2 beside the artillery. Per round
    // from 2 against 1: the defender dies with 5/9, the attacker loses its
    // infantry (the cheaper) with 1/3, independently; the round repeats
    // with 4/9 · 2/3 = 8/27. Artillery alone against infantry: 1/3 against
    // 1/3, so wins 2/5, draws 1/5.
    let o = exact("1 inf, 1 art vs 1 inf", &CalcOptions::default());
    let to_alone = 4.0 / 19.0;
    close("attacker wins", o.attacker_wins, 15.0 / 19.0 + to_alone * 2.0 / 5.0);
    close("draw", o.draw, to_alone / 5.0);
    close("defender wins", o.defender_wins, to_alone * 2.0 / 5.0);
    close("infantry left", o.attacker_survivor(Infantry), 10.0 / 19.0);
    // Only one infantry is raised: 2 inf and 1 art roll 2, 2 and 1, and
    // miss together with (4/6)²(5/6) = 10/27. From there the defender dies
    // and the attacker loses nothing with (17/27)(2/3) = 34/81, loses an
    // infantry with 17/81; only the infantry goes (to the battle above)
    // with 10/81; nothing happens with 20/81.
    let o = exact("2 inf, 1 art vs 1 inf", &CalcOptions::default());
    let to_two = 10.0 / 61.0;
    let (two_wins, two_draws) = (15.0 / 19.0 + to_alone * 2.0 / 5.0, to_alone / 5.0);
    close("attacker wins", o.attacker_wins, 51.0 / 61.0 + to_two * two_wins);
    close("draw", o.draw, to_two * two_draws);
    // Infantry go first: the artillery is left whenever the attacker wins.
    close("artillery left", o.attacker_survivor(Artillery), o.attacker_wins);
    let unsupported = exact("3 inf vs 1 inf", &CalcOptions::default());
    assert!(o.attacker_wins > unsupported.attacker_wins);
    let defending = exact("1 inf vs 1 inf, 1 art", &CalcOptions::default());
    let plain = exact("1 inf vs 2 inf", &CalcOptions::default());
    close("artillery defends at 2, like infantry, and supports no one", defending.attacker_wins, plain.attacker_wins);
}

#[test]
fn a_battleship_takes_two_hits() {
    // The battleship (4) against a submarine (defends at 2): whole, it
    // wins outright when it hits first (6/7 of the rounds that change
    // anything), else it is damaged (1/7); damaged, it wins 4/7, draws 2/7,
    // loses 1/7.
    let o = exact("1 bb vs 1 sub", &CalcOptions::default());
    close("attacker wins", o.attacker_wins, 46.0 / 49.0);
    close("draw", o.draw, 2.0 / 49.0);
    close("defender wins", o.defender_wins, 1.0 / 49.0);
    // Two battleships against one: each side's hits damage whole ones
    // first. Symmetric dice, so the odds are even.
    let o = exact("1 bb vs 1 bb", &CalcOptions::default());
    close("even", o.attacker_wins, o.defender_wins);
}

#[test]
fn a_destroyer_cancels_the_first_strike() {
    // No destroyer: the submarine (2) strikes first; a transport it sinks
    // never fires back (defends at 1): wins (1/3) / (1/3 + 2/3 · 1/6) = 3/4.
    let o = exact("1 sub vs 1 trn", &CalcOptions::default());
    close("first strike", o.attacker_wins, 0.75);
    // Against a destroyer (3) both fire together: only the submarine hits
    // 1/6, only the destroyer 1/3, both 1/6, neither 1/3.
    let o = exact("1 sub vs 1 dd", &CalcOptions::default());
    close("attacker wins", o.attacker_wins, 0.25);
    close("draw", o.draw, 0.25);
    close("defender wins", o.defender_wins, 0.5);
    // Against a destroyer and a transport, per round: the submarine's hit
    // (1/3) takes the transport (the cheaper: Europe's transports defend,
    // so they are lost by their cost, FORMAT v2), the defenders hit the
    // submarine with 1 - (1/2)(5/6) = 7/12. The transport alone sinks with
    // (1/3)(5/12) = 5/36 of the rounds, 26/36 change something: then it is
    // the submarine against the destroyer above.
    let o = exact("1 sub vs 1 dd, 1 trn", &CalcOptions::default());
    close("attacker wins", o.attacker_wins, 5.0 / 26.0 * 0.25);
    close("defender wins", o.defender_wins, 21.0 / 26.0 + 5.0 / 26.0 * 0.5);
    close("draw", o.draw, 5.0 / 26.0 * 0.25);
}

#[test]
fn aircraft_and_submarines_cannot_touch_each_other_without_a_destroyer() {
    // Nobody can hurt anybody: over at once, as if the attacker broke off.
    let o = exact("1 ftr vs 1 sub", &CalcOptions { rounds_distribution: true, ..Default::default() });
    close("retreated", o.retreated, 1.0);
    close("rounds", o.expected_rounds, 0.0);
    close("no rounds", o.rounds_distribution[0], 1.0);
    close("fighter left", o.attacker_survivor(Fighter), 1.0);
    // With a destroyer the fighter (3) may hit the submarine; the
    // submarine's hits (2) take only the destroyer. Once the destroyer is
    // gone, fighter and submarine cannot touch each other.
    let o = exact("1 ftr, 1 dd vs 1 sub", &CalcOptions::default());
    // Per round: the attack (ftr 1/2, dd 1/2) sinks the sub with 3/4, the
    // sub (1/3) sinks the destroyer. Sub sunk, destroyer afloat: 3/4 · 2/3;
    // both: 3/4 · 1/3 (attacker wins, the fighter left); destroyer sunk,
    // sub afloat: 1/4 · 1/3 (stalemate); neither: 1/4 · 2/3 (again).
    let go_on = 1.0 - 0.25 * 2.0 / 3.0;
    close("attacker wins", o.attacker_wins, 0.75 / go_on);
    close("stalemate", o.retreated, (0.25 / 3.0) / go_on);
    close("destroyer left", o.attacker_survivor(Destroyer), (0.75 * 2.0 / 3.0) / go_on);
    // Defending aircraft cannot hit attacking submarines without a
    // destroyer of their own, and the submarine's hits take only the
    // carrier (3): the carrier sinks first with (1/3) / (1/3 + 2/3 · 1/2)
    // = 1/2, and then fighter and submarine cannot touch each other; the
    // fighter, with no carrier and no island, is lost.
    let o = exact("1 sub vs 1 cv, 1 ftr", &CalcOptions::default());
    close("defender wins", o.defender_wins, 0.5);
    close("stalemate", o.retreated, 0.5);
    close("fighter lost", o.defender_survivor(Fighter), 0.5);
}

// ------------------------------------------------------- against the engine

/// Exact and Monte Carlo agree on `text` with `opts`.
fn check(calc: &mut Calculator, text: &str, opts: &CalcOptions, runs: u64, seed: u64) {
    let battle = Battle::parse(text).unwrap();
    let exact = calc.exact(&battle, &CalcOptions { rounds_distribution: true, ..opts.clone() }).unwrap();
    assert!(exact.pruned < 1e-9, "{text}: pruned {}", exact.pruned);
    let total = exact.attacker_wins + exact.defender_wins + exact.draw + exact.retreated + exact.pruned;
    close(&format!("{text}: total"), total, 1.0);
    let mc = calc.monte_carlo(&battle, opts, MonteCarlo { runs, seed }).unwrap();
    let what = format!("{text} ({opts:?})");
    agree(calc.ruleset(), &what, &exact, &mc, runs, 5.0);
    agree_on_endings(&what, &exact, &mc, runs, 1e-3);
}

#[test]
fn land_battles_with_artillery_agree() {
    let mut calc = Calculator::new(europe());
    let never = CalcOptions::default();
    let amphibious = CalcOptions { amphibious: true, ..Default::default() };
    // Artillery lost first: a loss changes which infantry are raised.
    let artillery_first = CalcOptions { attacker_order: LossOrder::Explicit(vec![Artillery]), ..Default::default() };
    let cases = [
        ("3 inf, 1 art vs 4 inf", &never),
        ("3 inf, 2 art, 1 ftr vs 4 inf, 1 aa", &artillery_first),
        ("2 inf, 3 art, 1 arm vs 3 inf, 1 art, 1 arm", &never),
        ("4 inf, 2 art, 1 ftr, 1 bmb vs 3 inf, 1 ftr, 1 aa", &never),
        ("1 inf, 2 art, 1 arm vs 2 inf, 1 arm", &never),
        ("2 inf, 1 art, 1 bb, 1 dd vs 3 inf", &amphibious),
        ("2 inf, 2 art, 1 ftr, 1 bb vs 2 inf, 1 arm, 1 aa", &amphibious),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        check(&mut calc, text, opts, 10_000, 10 + seed as u64);
    }
}

#[test]
fn sea_battles_with_battleships_agree() {
    let mut calc = Calculator::new(europe());
    let never = CalcOptions::default();
    let after1 = CalcOptions { retreat: RetreatPolicy::AfterRound(1), ..Default::default() };
    let below = CalcOptions { retreat: RetreatPolicy::WinChanceBelow(0.5), ..Default::default() };
    let cases = [
        ("2 bb vs 1 bb, 1 dd", &never),
        ("1 bb, 2 dd vs 2 bb", &never),
        ("1 bb, 2 ftr, 1 bmb vs 1 bb, 1 cv, 2 ftr, 1 trn", &never),
        ("2 bb, 1 cv vs 1 bb, 2 dd, 1 trn", &after1),
        ("1 bb, 1 dd, 1 ftr vs 1 bb, 1 dd", &below),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        check(&mut calc, text, opts, 10_000, 20 + seed as u64);
    }
}

#[test]
fn submarines_against_destroyers_agree() {
    let mut calc = Calculator::new(europe());
    let never = CalcOptions::default();
    let below = CalcOptions { retreat: RetreatPolicy::WinChanceBelow(0.4), ..Default::default() };
    let cases = [
        ("3 sub vs 2 dd", &never),
        ("1 sub vs 1 dd, 1 trn", &never),
        ("2 sub vs 1 dd, 2 trn", &never),
        ("2 sub, 1 dd vs 2 sub, 1 dd", &never),
        ("3 sub vs 1 dd, 1 bb", &never),
        ("2 dd vs 3 sub", &never),
        ("3 sub, 1 dd vs 1 dd, 2 sub, 1 trn", &below),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        check(&mut calc, text, opts, 10_000, 30 + seed as u64);
    }
}

#[test]
fn submarines_and_aircraft_against_fleets_agree() {
    let mut calc = Calculator::new(europe());
    let never = CalcOptions::default();
    let keep_air = CalcOptions { attacker_order: LossOrder::KeepAircraft, ..Default::default() };
    let after2 = CalcOptions { retreat: RetreatPolicy::AfterRound(2), ..Default::default() };
    let cases = [
        ("2 sub, 2 ftr vs 1 dd, 1 cv, 2 ftr", &never),
        ("2 sub, 2 ftr, 1 bmb vs 2 sub, 1 bb", &never),
        ("1 ftr, 1 dd vs 1 sub, 1 trn", &never),
        ("1 sub vs 1 cv, 1 ftr", &never),
        ("2 ftr, 1 bmb vs 2 sub, 1 dd", &never),
        ("2 sub, 1 ftr, 1 dd vs 2 sub, 1 cv, 2 ftr", &keep_air),
        ("3 sub, 2 bmb vs 1 dd, 1 sub, 1 cv, 1 ftr", &after2),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        check(&mut calc, text, opts, 10_000, 40 + seed as u64);
    }
}

#[test]
fn mixed_fleets_agree() {
    let mut calc = Calculator::new(europe());
    let never = CalcOptions::default();
    let orders = CalcOptions {
        attacker_order: LossOrder::Explicit(vec![Submarine, Destroyer]),
        defender_order: LossOrder::KeepAircraft,
        ..Default::default()
    };
    let cases = [
        ("2 sub, 1 dd, 1 bb, 2 ftr vs 2 sub, 1 dd, 1 cv, 2 ftr, 1 trn", &never),
        ("3 sub, 1 dd, 1 bb, 1 ftr, 1 bmb vs 1 sub, 2 dd, 1 bb, 1 trn", &never),
        ("2 sub, 2 dd, 1 ftr vs 1 sub, 1 dd, 1 bb, 1 cv, 1 ftr", &orders),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        check(&mut calc, text, opts, 10_000, 50 + seed as u64);
    }
}


/// A random small Europe battle the engine can fight, with random options.
fn random_battle(rng: &mut ChaCha8Rng) -> (Battle, CalcOptions) {
    let mut opts = CalcOptions::default();
    let battle = match below(rng, 5) {
        0 => {
            let attackers = pick(rng, &[Infantry, Artillery, Armor, Fighter, Bomber], 2);
            let mut defenders = pick(rng, &[Infantry, Artillery, Armor, Fighter], 2);
            if below(rng, 2) == 0 {
                defenders.add(AaGun, 1);
            }
            Battle::new(attackers, defenders)
        }
        1 => {
            opts.amphibious = true;
            let attackers = pick(rng, &[Infantry, Artillery, Armor], 2).with(Battleship, below(rng, 2)).with(Destroyer, below(rng, 2));
            Battle::new(attackers, pick(rng, &[Infantry, Artillery, Fighter], 2))
        }
        _ => {
            let mut defenders = pick(rng, &[Submarine, Destroyer, Battleship, AircraftCarrier, Fighter, Transport], 2);
            on_carriers(&mut defenders);
            Battle::new(pick(rng, &[Submarine, Destroyer, Battleship, AircraftCarrier, Fighter, Bomber], 2), defenders)
        }
    };
    random_policies(rng, &mut opts, vec![Destroyer, Fighter]);
    (battle, opts)
}

/// How many of each kind of battle the sweep checked.
#[derive(Debug, Default)]
struct Kinds {
    artillery: usize,
    battleships: usize,
    subs_and_destroyers: usize,
    subs_and_aircraft: usize,
}

fn sweep(battles: usize, runs: u64, seed: u64) -> Kinds {
    let rs = europe();
    let mut calc = Calculator::new(rs.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut kinds = Kinds::default();
    let mut done = 0;
    while done < battles {
        let (battle, opts) = random_battle(&mut rng);
        let mc = MonteCarlo { runs, seed: rng.next_u64() };
        if !exact_agrees_with_monte_carlo(&mut calc, &rs, &battle, &opts, mc, |e| matches!(e, CalcError::Impossible(_))) {
            continue;
        }
        done += 1;
        let all = |t: UnitType| battle.attackers.count(t) + battle.defenders.count(t);
        kinds.artillery += (battle.attackers.count(Artillery) > 0 && battle.attackers.count(Infantry) > 0) as usize;
        kinds.battleships += (all(Battleship) > 0 && !opts.amphibious) as usize;
        kinds.subs_and_destroyers += (all(Submarine) > 0 && all(Destroyer) > 0) as usize;
        kinds.subs_and_aircraft += (all(Submarine) > 0 && (all(Fighter) + all(Bomber)) > 0) as usize;
    }
    kinds
}

#[test]
fn exact_and_monte_carlo_agree_on_random_europe_battles() {
    let kinds = sweep(150, 3000, 11);
    println!("{kinds:?}");
    assert!(kinds.artillery >= 10 && kinds.battleships >= 20 && kinds.subs_and_destroyers >= 15 && kinds.subs_and_aircraft >= 15, "{kinds:?}");
}

/// A bigger sweep: `cargo test -p warboard-calc --release -- --ignored`.
#[test]
#[ignore]
fn exact_and_monte_carlo_agree_on_many_random_europe_battles() {
    sweep(500, 20_000, 12);
}

#[test]
fn endings_name_the_stalemate() {
    // A stalemate reads as the attacker breaking off (ending.rs).
    let o = exact("1 ftr, 1 dd vs 1 sub", &CalcOptions::default());
    assert!(o.outcomes.iter().any(|x| x.ending == Ending::Retreated && x.attackers == Army::new().with(Fighter, 1)));
}

#[test]
fn a_named_order_of_loss_still_takes_the_battleships_spare_hit_first() {
    // Issue 33, point 19: naming the destroyer first does not make it die
    // before the whole battleship's free hit is taken: with the spare hit
    // first, "destroyer, battleship" is the default order itself.
    let named = CalcOptions { defender_order: LossOrder::Explicit(vec![Destroyer, Battleship]), ..Default::default() };
    let o = exact("2 bb vs 1 bb, 1 dd", &named);
    let d = exact("2 bb vs 1 bb, 1 dd", &CalcOptions::default());
    close("attacker wins", o.attacker_wins, d.attacker_wins);
    close("defender wins", o.defender_wins, d.defender_wins);
    // Naming the battleship before the destroyer loses it, once its spare
    // hit is taken, before the destroyer: worse for the defender.
    let dd_last = CalcOptions { defender_order: LossOrder::Explicit(vec![Battleship, Destroyer]), ..Default::default() };
    let o = exact("2 bb vs 1 bb, 1 dd", &dd_last);
    assert!(o.defender_wins < d.defender_wins, "losing the battleship before the destroyer is worse for the defender");
}
