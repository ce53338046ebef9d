//! The exact mode on the Anniversary Edition's battles
//! (`warboard calc --ruleset anniversary-1941`): submarines' surprise
//! strike attacking and defending and its cancelling by an enemy
//! destroyer, defenseless transports (taken last, lost without dice),
//! cruisers, two-hit battleships, artillery support, AA fire where each
//! aircraft rolls its own die, one bombarding ship per land unit landing,
//! and the developments that change dice. Small cases against
//! probabilities worked out by hand; every kind of battle against Monte
//! Carlo through the battle engine (5 standard errors; the seeds are fixed,
//! so this is deterministic). Submarines never submerge: the calculator's
//! battle has no player choices (Monte Carlo plays the engine's decisions
//! the same way).

mod common;

use common::{agree, agree_on_endings, below, exact_agrees_with_monte_carlo, on_carriers, pick, random_policies};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use warboard_calc::{Army, Battle, CalcError, CalcOptions, Calculator, Development, Developments, Ending, LossOrder, MonteCarlo, Outcome, RetreatPolicy};
use warboard_rules::Ruleset;
use warboard_rules::UnitType::{self, *};

fn anniversary() -> Arc<Ruleset> {
    warboard_rules::ruleset("anniversary-1941").unwrap()
}

/// Anniversary with a declared option changed (`[[option]]`s of
/// rulesets/anniversary/ruleset.toml).
fn anniversary_with(option: &str, value: bool) -> Arc<Ruleset> {
    // (The option's value is a `toml::Value`, read here from JSON.)
    let value = serde_json::from_str(&value.to_string()).unwrap();
    Arc::new(anniversary().with_options([(option, &value)]).unwrap())
}

fn exact(text: &str, opts: &CalcOptions) -> Outcome {
    Calculator::new(anniversary()).exact_uncached(&Battle::parse(text).unwrap(), opts).unwrap()
}

fn close(what: &str, got: f64, want: f64) {
    assert!((got - want).abs() < 1e-9, "{what}: got {got}, want {want}");
}

fn endings(text: &str, o: &Outcome, attacker: f64, defender: f64, draw: f64) {
    close(&format!("{text}: attacker wins"), o.attacker_wins, attacker);
    close(&format!("{text}: defender wins"), o.defender_wins, defender);
    close(&format!("{text}: draw"), o.draw, draw);
}

// ---------------------------------------------------------------- by hand

#[test]
fn both_sides_submarines_strike_first() {
    // Attacking (2) and defending (1) submarine strike together: 1/3 and
    // 1/6 a round, independently.
    let o = exact("1 sub vs 1 sub", &CalcOptions::default());
    endings("1 sub vs 1 sub", &o, 5.0 / 8.0, 2.0 / 8.0, 1.0 / 8.0);
    // The defending submarine strikes a battleship (two hit points) before
    // it fires: whole, it wins 12/13 and is damaged 1/13 of the rounds
    // that change anything; damaged, a hit sinks it before it fires (3/13),
    // else it wins (10/13). No draws. (Europe's submarine fires with the
    // battleship: 46/49, with draws.)
    let o = exact("1 bb vs 1 sub", &CalcOptions::default());
    endings("1 bb vs 1 sub", &o, 166.0 / 169.0, 3.0 / 169.0, 0.0);
    // Against a cruiser (3): the defending submarine's hit (1/6) sinks it
    // before it fires; otherwise the cruiser hits with 1/2.
    let o = exact("1 cru vs 1 sub", &CalcOptions::default());
    endings("1 cru vs 1 sub", &o, 5.0 / 7.0, 2.0 / 7.0, 0.0);
    // The attacking submarine's hit (1/3) sinks the cruiser (defends at 3)
    // before it fires.
    let o = exact("1 sub vs 1 cru", &CalcOptions::default());
    endings("1 sub vs 1 cru", &o, 0.5, 0.5, 0.0);
}

#[test]
fn a_destroyer_cancels_the_enemy_surprise_strike() {
    // The attacking destroyer (2) cancels the defending submarine's strike:
    // both fire together, 1/3 against 1/6.
    let o = exact("1 dd vs 1 sub", &CalcOptions::default());
    endings("1 dd vs 1 sub", &o, 5.0 / 8.0, 2.0 / 8.0, 1.0 / 8.0);
    // The defending destroyer (2) cancels the attacking submarine's strike:
    // 1/3 against 1/3 together.
    let o = exact("1 sub vs 1 dd", &CalcOptions::default());
    endings("1 sub vs 1 dd", &o, 0.4, 0.4, 0.2);
    // One side's destroyer cancels only the enemy's strike: the attacker's
    // submarine and destroyer against a submarine. The attacking submarine
    // strikes first (1/3): its victim never fires, as the defending
    // submarine, spotted by the destroyer, fires with the rest of the
    // defender, after the attacker's fire. Otherwise the destroyer hits
    // (1/3) a submarine that still fires back (1/6, at the cheaper
    // attacking submarine). Per round: the defender is sunk with
    // 1/3 + 2/3 · 1/3 = 5/9 (the attacker wins); the attacker only loses
    // its submarine with 4/9 · 1/6 = 2/27, then it is the destroyer
    // against the submarine (5/8, draws 1/8, as above).
    let o = exact("1 sub, 1 dd vs 1 sub", &CalcOptions::default());
    let go = 1.0 - 4.0 / 9.0 * 5.0 / 6.0;
    close("attacker wins", o.attacker_wins, (5.0 / 9.0 + 2.0 / 27.0 * 5.0 / 8.0) / go);
    close("draw", o.draw, 2.0 / 27.0 * 1.0 / 8.0 / go);
}

#[test]
fn transports_are_taken_last_and_lost_without_dice() {
    // Transports alone cannot hurt the attacker: they are lost before any
    // die is rolled (AA50 FAQ: Combat).
    for text in ["1 ftr vs 1 trn", "1 sub vs 2 trn", "1 bb vs 1 trn"] {
        let o = exact(text, &CalcOptions { rounds_distribution: true, ..Default::default() });
        endings(text, &o, 1.0, 0.0, 0.0);
        close(&format!("{text}: no round"), o.rounds_distribution[0], 1.0);
        close(&format!("{text}: the transports lost"), o.defender_survivor(Transport), 0.0);
    }
    // The destroyer (2) takes the submarine's hit, the transport only when
    // nothing else can: once the destroyer sinks, the transport is lost
    // without dice. Per round: the submarine (1/3) and the destroyer (1/3)
    // fire together (the destroyer cancels the strike).
    let o = exact("1 sub vs 1 dd, 1 trn", &CalcOptions::default());
    endings("1 sub vs 1 dd, 1 trn", &o, 0.4, 0.6, 0.0);
    // Aircraft cannot hit the submarine, and the submarine cannot hit
    // aircraft: the transport is lost, and the battle ends as if the
    // attacker broke off, before any die is rolled.
    let o = exact("2 ftr vs 1 sub, 1 trn", &CalcOptions { rounds_distribution: true, ..Default::default() });
    close("stalemate", o.retreated, 1.0);
    close("no round", o.rounds_distribution[0], 1.0);
    close("the submarine left", o.defender_survivor(Submarine), 1.0);
    close("the transport lost", o.defender_survivor(Transport), 0.0);
    // Transports go last whatever the order of loss says.
    let transports_first = CalcOptions { defender_order: LossOrder::Explicit(vec![Transport]), ..Default::default() };
    let o = exact("1 sub vs 1 dd, 1 trn", &transports_first);
    endings("1 sub vs 1 dd, 1 trn, transports first", &o, 0.4, 0.6, 0.0);
    // An attacking transport can still retreat, so it is not lost without
    // dice: the destroyer (2) sinks it in time.
    let o = exact("1 trn vs 1 dd", &CalcOptions::default());
    endings("1 trn vs 1 dd", &o, 0.0, 1.0, 0.0);
}

#[test]
fn developments_change_the_dice() {
    let opts = CalcOptions::default();
    // Advanced artillery: each artillery raises two infantry to 2, so two
    // infantry and an artillery attack like three artillery.
    let adv = exact("2 inf, 1 art with advanced artillery vs 2 inf", &opts);
    let art = exact("3 art vs 2 inf", &opts);
    close("advanced artillery", adv.attacker_wins, art.attacker_wins);
    let plain = exact("2 inf, 1 art vs 2 inf", &opts);
    assert!(plain.attacker_wins < adv.attacker_wins - 0.01);
    // Jet fighters attack at 4: like a bomber.
    let jets = exact("1 ftr with jets vs 1 arm", &opts);
    let bomber = exact("1 bmb vs 1 arm", &opts);
    close("jet fighters", jets.attacker_wins, bomber.attacker_wins);
    // (Anniversary jets defend as before.)
    let defending = exact("1 arm vs 1 ftr with jets", &opts);
    let plain = exact("1 arm vs 1 ftr", &opts);
    close("jets defend at 4", defending.attacker_wins, plain.attacker_wins);
    // Heavy bombers: two dice, a hit when either is at or under 4 (8/9),
    // one hit at most; against infantry (1/3).
    let o = exact("1 bmb with heavy bombers vs 1 inf", &opts);
    endings("heavy bombers", &o, 16.0 / 25.0, 1.0 / 25.0, 8.0 / 25.0);
    let o = exact("2 bmb with heavy bombers vs 3 inf", &opts);
    assert!(o.attacker_wins > exact("2 bmb vs 3 inf", &opts).attacker_wins + 0.05);
    // Super submarines attack at 3: 1/2 against the defender's 1/6.
    let o = exact("1 sub with super subs vs 1 sub", &opts);
    endings("super submarines", &o, 5.0 / 7.0, 1.0 / 7.0, 1.0 / 7.0);
    // Radar: the AA gun hits on 2 (1/3); the fighter (1/2) that survives it
    // fights the infantry (1/3).
    let o = exact("1 ftr vs 1 inf, 1 aa with radar", &opts);
    endings("radar", &o, 1.0 / 3.0, 0.5, 1.0 / 6.0);
    // Developments of the other side change nothing here.
    let o = exact("1 ftr with radar vs 1 inf, 1 aa with jets, super subs", &opts);
    let p = exact("1 ftr vs 1 inf, 1 aa", &opts);
    close("no effect", o.attacker_wins, p.attacker_wins);
}

#[test]
fn each_aircraft_rolls_its_own_aa_die() {
    // Anniversary: the aircraft hit are lost, nobody chooses. With a
    // fighter and a bomber against infantry and an AA gun (1/6 each) the
    // battle is a mixture of the battles AA fire leaves; classic lets the
    // attacker lose the fighter first.
    let opts = CalcOptions::default();
    let o = exact("1 ftr, 1 bmb vs 1 inf, 1 aa", &opts);
    let w = |text: &str| exact(text, &opts).attacker_wins;
    let (p, q) = (1.0 / 6.0, 5.0 / 6.0);
    let want = q * q * w("1 ftr, 1 bmb vs 1 inf") + p * q * (w("1 bmb vs 1 inf") + w("1 ftr vs 1 inf"));
    close("unchosen AA hits", o.attacker_wins, want);
    // With more of each kind, compare with Monte Carlo through the engine.
    let mut calc = Calculator::new(anniversary());
    check(&mut calc, "4 inf, 1 art, 3 ftr, 2 bmb vs 5 inf, 1 arm, 1 aa", &opts, 10_000, 1);
    // The other reading, option `aa_hits_chosen`: the attacker chooses,
    // and by default loses the cheaper fighter first.
    let mut chosen = Calculator::new(anniversary_with("aa_hits_chosen", true));
    let o = chosen.exact_uncached(&Battle::parse("1 ftr, 1 bmb vs 1 inf, 1 aa").unwrap(), &opts).unwrap();
    let want = q * q * w("1 ftr, 1 bmb vs 1 inf") + 2.0 * p * q * w("1 bmb vs 1 inf");
    close("chosen AA hits", o.attacker_wins, want);
    check(&mut chosen, "4 inf, 1 art, 3 ftr, 2 bmb vs 5 inf, 1 arm, 1 aa", &opts, 10_000, 2);
}

#[test]
fn one_ship_bombards_per_land_unit() {
    // One land unit landing: only the battleship (4) bombards, not the
    // second battleship or the cruiser.
    let amphibious = CalcOptions { amphibious: true, ..Default::default() };
    let o = exact("1 inf, 2 bb, 1 cru vs 1 inf", &amphibious);
    let p = exact("1 inf, 1 bb vs 1 inf", &amphibious);
    close("one bombards", o.attacker_wins, p.attacker_wins);
    // Two land units: the battleship and a cruiser (3), the strongest two.
    let o = exact("2 inf, 1 bb, 2 cru vs 3 inf", &amphibious);
    let p = exact("2 inf, 1 bb, 1 cru vs 3 inf", &amphibious);
    close("the strongest two bombard", o.attacker_wins, p.attacker_wins);
    let q = exact("2 inf, 1 bb vs 3 inf", &amphibious);
    assert!(o.attacker_wins > q.attacker_wins + 0.01);
    // Destroyers do not bombard, so they have no place in a landing.
    let calc = Calculator::new(anniversary()).exact_uncached(&Battle::parse("2 inf, 1 dd vs 3 inf").unwrap(), &amphibious);
    assert!(matches!(calc, Err(CalcError::Impossible(_))), "{calc:?}");
}

#[test]
fn developments_read_and_written_with_the_battle() {
    let b = Battle::parse("2 ftr with jets vs 2 inf, 1 aa with radar").unwrap();
    assert_eq!(b.attacker_developments, Developments::NONE.with(Development::JetFighters));
    assert_eq!(b.defender_developments, Developments::NONE.with(Development::Radar));
    // Developments key the cache: with and without are two battles.
    let mut calc = Calculator::new(anniversary());
    let opts = CalcOptions::default();
    let with = calc.exact(&b, &opts).unwrap();
    let without = calc.exact(&Battle::new(b.attackers, b.defenders), &opts).unwrap();
    assert!((with.attacker_wins - without.attacker_wins).abs() > 0.01);
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
fn land_battles_agree() {
    let mut calc = Calculator::new(anniversary());
    let never = CalcOptions::default();
    let amphibious = CalcOptions { amphibious: true, ..Default::default() };
    let artillery_first = CalcOptions { attacker_order: LossOrder::Explicit(vec![Artillery]), ..Default::default() };
    let below = CalcOptions { retreat: RetreatPolicy::WinChanceBelow(0.4), ..Default::default() };
    let cases = [
        ("3 inf, 1 art vs 4 inf", &never),
        ("3 inf, 2 art, 1 ftr vs 4 inf, 1 aa", &artillery_first),
        ("2 inf, 2 art, 2 arm, 2 ftr, 1 bmb vs 4 inf, 1 arm, 1 ftr, 1 aa", &never),
        ("4 inf, 1 art, 1 arm, 2 ftr, 2 bmb vs 5 inf, 1 art, 1 aa", &below),
        ("2 inf, 1 art, 1 bb, 1 cru vs 3 inf", &amphibious),
        ("1 inf, 1 arm, 2 bb, 1 cru, 1 ftr vs 2 inf, 1 aa", &amphibious),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        check(&mut calc, text, opts, 10_000, 100 + seed as u64);
    }
}

#[test]
fn land_battles_with_developments_agree() {
    let mut calc = Calculator::new(anniversary());
    let never = CalcOptions::default();
    let after1 = CalcOptions { retreat: RetreatPolicy::AfterRound(1), ..Default::default() };
    let cases = [
        ("4 inf, 2 art with advanced artillery vs 5 inf", &never),
        ("2 inf, 1 art, 2 ftr, 1 bmb with jets, heavy bombers, advanced artillery vs 4 inf, 1 ftr, 1 aa with radar", &never),
        ("1 inf, 2 ftr, 2 bmb with heavy bombers vs 3 inf, 1 arm, 1 aa", &after1),
        ("3 ftr with jet fighters vs 2 inf, 1 ftr, 1 aa with radar", &never),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        check(&mut calc, text, opts, 10_000, 200 + seed as u64);
    }
}

#[test]
fn submarines_destroyers_and_transports_agree() {
    let mut calc = Calculator::new(anniversary());
    let never = CalcOptions::default();
    let below = CalcOptions { retreat: RetreatPolicy::WinChanceBelow(0.5), ..Default::default() };
    let after2 = CalcOptions { retreat: RetreatPolicy::AfterRound(2), ..Default::default() };
    let cases = [
        ("2 sub vs 2 sub, 1 trn", &never),
        ("2 sub vs 1 dd, 2 trn", &never),
        ("1 dd, 1 sub vs 2 sub, 1 trn", &never),
        ("3 sub vs 1 bb, 1 cru, 2 trn", &never),
        ("2 cru, 1 sub vs 2 sub, 1 dd, 1 trn", &below),
        ("2 sub, 1 trn vs 1 dd, 1 sub", &never),
        ("1 bb, 1 dd vs 2 sub, 2 trn", &after2),
        ("2 sub with super subs vs 1 dd, 1 sub, 1 trn", &never),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        check(&mut calc, text, opts, 10_000, 300 + seed as u64);
    }
}

#[test]
fn fleets_with_aircraft_agree() {
    let mut calc = Calculator::new(anniversary());
    let never = CalcOptions::default();
    let keep_air = CalcOptions { attacker_order: LossOrder::KeepAircraft, ..Default::default() };
    let cases = [
        ("2 sub, 2 ftr vs 1 dd, 1 cv, 2 ftr, 1 trn", &never),
        ("2 ftr, 1 bmb vs 2 sub, 2 trn", &never),
        ("2 ftr, 1 dd vs 1 sub, 1 trn", &never),
        ("1 bb, 1 cru, 2 ftr, 1 bmb with jets, heavy bombers vs 1 bb, 1 cv, 2 ftr, 2 trn", &never),
        ("2 sub, 1 dd, 1 cru, 1 ftr vs 2 sub, 1 cv, 2 ftr, 1 trn", &keep_air),
        ("3 sub, 2 bmb vs 1 cv, 1 ftr, 1 sub, 2 trn", &never),
    ];
    for (seed, (text, opts)) in cases.into_iter().enumerate() {
        check(&mut calc, text, opts, 10_000, 400 + seed as u64);
    }
}

/// The comparison with the engine can fail: answers worked out under
/// other rules (Europe's defending submarines without a surprise strike;
/// classic's AA hits chosen by the attacker; no developments) are told
/// apart from the engine's Anniversary battles.
#[test]
fn the_comparison_tells_other_rules_apart() {
    let mut calc = Calculator::new(anniversary());
    let rs = calc.ruleset().clone();
    let runs = 10_000;
    let wrong = |text: &str, wrong_answer: &Outcome, calc: &mut Calculator| {
        let mc = calc.monte_carlo(&Battle::parse(text).unwrap(), &CalcOptions::default(), MonteCarlo { runs, seed: 9 }).unwrap();
        let failed = catch_unwind(AssertUnwindSafe(|| agree(&rs, text, wrong_answer, &mc, runs, 5.0))).is_err();
        assert!(failed, "{text}: Monte Carlo agreed with an answer under other rules");
    };
    let opts = CalcOptions { rounds_distribution: true, ..Default::default() };
    // The right answers agree.
    for text in ["2 cru vs 2 sub", "3 ftr with jets vs 3 arm", "3 ftr, 3 bmb vs 2 inf, 1 aa"] {
        check(&mut calc, text, &CalcOptions::default(), runs, 9);
    }
    // Defending submarines that fire with the rest (classic's and
    // Europe's): the Anniversary unit table with that one line changed.
    let mut files = warboard_rules::ruleset::embedded_files("anniversary").unwrap();
    let (from, to) = ("first_strike = \"both\"", "first_strike = \"attack\"");
    assert!(files.ruleset.contains(from), "{from}");
    files.ruleset = Box::leak(files.ruleset.replace(from, to).into_boxed_str());
    let attack_only = Arc::new(warboard_rules::ruleset::load_scenario(&files, Some("1941")).unwrap());
    let attack_only = Calculator::new(attack_only).exact_uncached(&Battle::parse("2 cru vs 2 sub").unwrap(), &opts).unwrap();
    wrong("2 cru vs 2 sub", &attack_only, &mut calc);
    // AA hits chosen by the attacker (fighters lost first), as classic's
    // (option `aa_hits_chosen`), against the default: each aircraft rolls.
    let chosen = Calculator::new(anniversary_with("aa_hits_chosen", true)).exact_uncached(&Battle::parse("3 ftr, 3 bmb vs 2 inf, 1 aa").unwrap(), &opts).unwrap();
    wrong("3 ftr, 3 bmb vs 2 inf, 1 aa", &chosen, &mut calc);
    // Jets not counted.
    let plain = calc.exact_uncached(&Battle::parse("3 ftr vs 3 arm").unwrap(), &opts).unwrap();
    wrong("3 ftr with jets vs 3 arm", &plain, &mut calc);
}

/// A random small Anniversary battle the engine can fight, with random
/// developments and options.
fn random_battle(rng: &mut ChaCha8Rng) -> (Battle, CalcOptions) {
    let mut opts = CalcOptions::default();
    let battle = match below(rng, 6) {
        0 | 1 => {
            let attackers = pick(rng, &[Infantry, Artillery, Armor, Fighter, Bomber], 2);
            let mut defenders = pick(rng, &[Infantry, Artillery, Armor, Fighter, Bomber], 2);
            if below(rng, 2) == 0 {
                defenders.add(AaGun, 1);
            }
            Battle::new(attackers, defenders)
        }
        2 => {
            opts.amphibious = true;
            let attackers = pick(rng, &[Infantry, Artillery, Armor], 2).with(Battleship, below(rng, 3)).with(Cruiser, below(rng, 2)).with(Fighter, below(rng, 2)).with(Bomber, below(rng, 2));
            Battle::new(attackers, pick(rng, &[Infantry, Armor, Fighter], 2).with(AaGun, below(rng, 2)))
        }
        _ => {
            let mut defenders = pick(rng, &[Submarine, Destroyer, Cruiser, Battleship, AircraftCarrier, Fighter, Transport], 2);
            on_carriers(&mut defenders);
            Battle::new(pick(rng, &[Submarine, Destroyer, Cruiser, Battleship, Fighter, Bomber, Transport], 2), defenders)
        }
    };
    let mut devs = |choices: &[Development]| {
        let mut d = Developments::NONE;
        for c in choices {
            if below(rng, 5) == 0 {
                d = d.with(*c);
            }
        }
        d
    };
    let attacker = devs(&[Development::JetFighters, Development::SuperSubmarines, Development::HeavyBombers, Development::AdvancedArtillery]);
    let defender = devs(&[Development::Radar, Development::JetFighters]);
    random_policies(rng, &mut opts, vec![Transport, Destroyer, Fighter]);
    (battle.with_developments(attacker, defender), opts)
}

/// How many of each kind of battle the sweep checked.
#[derive(Debug, Default)]
struct Kinds {
    developments: usize,
    artillery: usize,
    aa_mixed_aircraft: usize,
    bombardment: usize,
    surprise_strikes_both_ways: usize,
    strike_cancelled: usize,
    transports: usize,
    battleships: usize,
    cruisers: usize,
}

fn sweep(rs: Arc<Ruleset>, battles: usize, runs: u64, seed: u64) -> Kinds {
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
        let (a, d) = (&battle.attackers, &battle.defenders);
        let all = |t: UnitType| a.count(t) + d.count(t);
        kinds.developments += !(battle.attacker_developments.is_empty() && battle.defender_developments.is_empty()) as usize;
        kinds.artillery += (a.count(Artillery) > 0 && a.count(Infantry) > 0) as usize;
        kinds.aa_mixed_aircraft += (d.count(AaGun) > 0 && a.count(Fighter) > 0 && a.count(Bomber) > 0) as usize;
        kinds.bombardment += (opts.amphibious && a.count(Battleship) + a.count(Cruiser) > 0) as usize;
        kinds.surprise_strikes_both_ways += (a.count(Submarine) > 0 && d.count(Submarine) > 0) as usize;
        kinds.strike_cancelled += (all(Submarine) > 0 && all(Destroyer) > 0) as usize;
        kinds.transports += (all(Transport) > 0) as usize;
        kinds.battleships += (all(Battleship) > 0 && !opts.amphibious) as usize;
        kinds.cruisers += (all(Cruiser) > 0 && !opts.amphibious) as usize;
    }
    kinds
}

#[test]
fn exact_and_monte_carlo_agree_on_random_anniversary_battles() {
    let k = sweep(anniversary(), 150, 3000, 21);
    println!("{k:?}");
    assert!(
        k.developments >= 50
            && k.artillery >= 10
            && k.aa_mixed_aircraft >= 3
            && k.bombardment >= 10
            && k.surprise_strikes_both_ways >= 10
            && k.strike_cancelled >= 15
            && k.transports >= 20
            && k.battleships >= 15
            && k.cruisers >= 15,
        "{k:?}"
    );
}

/// A bigger sweep: `cargo test -p warboard-calc --release -- --ignored`.
#[test]
#[ignore]
fn exact_and_monte_carlo_agree_on_many_random_anniversary_battles() {
    sweep(anniversary(), 500, 20_000, 22);
}

/// The other reading of AA fire (option `aa_hits_chosen`: the attacker
/// chooses which aircraft are hit, as in classic).
#[test]
fn exact_and_monte_carlo_agree_with_aa_hits_chosen() {
    let k = sweep(anniversary_with("aa_hits_chosen", true), 40, 3000, 23);
    assert!(k.aa_mixed_aircraft >= 1, "{k:?}");
}

#[test]
fn endings_name_the_stalemate() {
    // Fighter and submarine cannot touch each other once the destroyer is
    // gone: the battle ends as if the attacker broke off (ending.rs).
    let o = exact("1 ftr, 1 dd vs 1 sub", &CalcOptions::default());
    assert!(o.outcomes.iter().any(|x| x.ending == Ending::Retreated && x.attackers == Army::new().with(Fighter, 1)));
    assert!(o.retreated > 0.0);
}
