//! The exact mode under Low Luck (option `low_luck`, docs/low-luck.md)
//! against the battle engine: every sequence of dice the engine can use
//! on small battles, each with its chance (exhaustive, so the comparison
//! is exact), and Monte Carlo through the engine on random battles of
//! every ruleset (5 standard errors; the seeds are fixed, so this is
//! deterministic).

mod common;

use common::{below, exact_agrees_with_monte_carlo, on_carriers, pick, random_policies};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::collections::BTreeMap;
use std::sync::Arc;
use warboard_calc::{Army, Battle, CalcOptions, Calculator, Developments, Ending, MonteCarlo, Outcome};
use warboard_rules::battle::standalone::{build, BattleSpec, Standalone};
use warboard_rules::battle::BattleResult;
use warboard_rules::UnitType::*;
use warboard_rules::{Action, DiceError, DiceSource, Event, Ruleset, ScriptedDice};

fn low_luck(name: &str) -> Arc<Ruleset> {
    // (The option's value is a `toml::Value`, read here from JSON.)
    let on = serde_json::from_str("true").unwrap();
    Arc::new(warboard_rules::ruleset(name).unwrap().with_options([("low_luck", &on)]).unwrap())
}

/// Dice: `prefix`, then 1s (every Low Luck die hits, so the battle ends).
#[derive(Clone)]
struct ThenHits {
    prefix: Vec<u8>,
    used: usize,
}

impl DiceSource for ThenHits {
    fn roll(&mut self) -> Result<u8, DiceError> {
        let v = self.prefix.get(self.used).copied().unwrap_or(1);
        self.used += 1;
        Ok(v)
    }
    fn boxed_clone(&self) -> Box<dyn DiceSource> {
        Box::new(self.clone())
    }
}

/// The hits of the step that rolls die `k` when it shows `face` (the dice
/// before it as `prefix` says).
fn hits_with(start: &Standalone, prefix: &[u8], face: u8) -> u32 {
    let mut dice = ThenHits { prefix: prefix.iter().copied().chain([face]).collect(), used: 0 };
    let events = start.game.clone().apply(&Action::Resolve { at: Some(start.at) }, &mut dice).unwrap();
    let mut seen = 0;
    for e in events {
        if let Event::Rolled { dice, hits, .. } = e {
            seen += dice.len();
            if seen > prefix.len() {
                return hits;
            }
        }
    }
    panic!("die {} was never rolled", prefix.len())
}

/// The engine's outcome distribution of `battle` (fought to the end with
/// the default decisions, as the calculator's battle is), by every way its
/// dice can fall up to `max_dice` dice; and the chance left in longer
/// battles. A Low Luck die only hits (at or under its group's remainder
/// r) or misses: each die is found to be one with remainder r by trying
/// its faces, then followed as a hit (a 1), r in 6, and as a miss (a 6).
fn engine_distribution(rs: &Arc<Ruleset>, battle: &Battle, max_dice: usize) -> (BTreeMap<(Ending, Army, Army), f64>, f64) {
    let spec = BattleSpec { attackers: battle.attackers.to_pairs(), defenders: battle.defenders.to_pairs(), amphibious: false };
    let start = build(rs.clone(), &spec).unwrap();
    let attacker = start.game.state.turn;
    let mut out = BTreeMap::new();
    let mut left = 0.0;
    let mut stack: Vec<(Vec<u8>, f64)> = vec![(Vec::new(), 1.0)];
    while let Some((prefix, chance)) = stack.pop() {
        let mut game = start.game.clone();
        match game.apply(&Action::Resolve { at: Some(start.at) }, &mut ScriptedDice::new(prefix.clone())) {
            Ok(_) => {
                let ending = match game.state.battles[0].result {
                    BattleResult::AttackerWon => Ending::AttackerWins,
                    BattleResult::DefenderWon => Ending::DefenderWins,
                    BattleResult::Draw => Ending::Draw,
                    BattleResult::Retreated => Ending::Retreated,
                    other => panic!("{battle}: the battle is still {other:?}"),
                };
                // Every unit of each side that fights, wherever it is (a
                // defending fighter may land on an island after a sea battle).
                let side = |mine: &dyn Fn(warboard_rules::PowerId) -> bool| {
                    let mut army = Army::new();
                    for u in game.state.units.iter().filter(|u| mine(u.owner) && rs.stats(u.kind).is_combatant()) {
                        army.add(u.kind, 1);
                    }
                    army
                };
                let key = (ending, side(&|p| p == attacker), side(&|p| p != attacker));
                *out.entry(key).or_insert(0.0) += chance;
            }
            Err(e) if e.code == "dice/exhausted" && prefix.len() < max_dice => {
                let hit = hits_with(&start, &prefix, 1);
                assert_eq!(hits_with(&start, &prefix, 6), hit - 1, "{battle}: a 6 misses, a 1 hits");
                let r = (2..=5).filter(|f| hits_with(&start, &prefix, *f) == hit).count() + 1;
                for (face, p) in [(1, r as f64 / 6.0), (6, (6 - r) as f64 / 6.0)] {
                    let mut longer = prefix.clone();
                    longer.push(face);
                    stack.push((longer, chance * p));
                }
            }
            Err(e) if e.code == "dice/exhausted" => left += chance,
            Err(e) => panic!("{battle}: {e}"),
        }
    }
    (out, left)
}

/// The exact outcome and the engine's, every ending with its survivors,
/// agree to within the chance the enumeration left out.
fn exact_is_the_engine(name: &str, text: &str) {
    let rs = low_luck(name);
    let battle = Battle::parse(text).unwrap();
    let exact: Outcome =
        Calculator::new(rs.clone()).exact_uncached(&battle, &CalcOptions { prune_below: 0.0, ..CalcOptions::default() }).unwrap();
    let (engine, left) = engine_distribution(&rs, &battle, 24);
    assert!(left < 1e-3, "{name} {text}: {left} of the chance left in longer battles");
    let mut seen = 0.0;
    for o in &exact.outcomes {
        let e = engine.get(&(o.ending, o.attackers, o.defenders)).copied().unwrap_or(0.0);
        seen += e;
        assert!(
            e <= o.probability + 1e-12 && o.probability <= e + left + 1e-12,
            "{name} {text}: {:?} with {} against {}: exact {}, engine {e} (+ up to {left})",
            o.ending,
            o.attackers,
            o.defenders,
            o.probability
        );
    }
    let total: f64 = engine.values().sum();
    assert!((total - seen).abs() < 1e-12, "{name} {text}: the engine has endings the exact mode does not: {engine:?}");
}

#[test]
fn land_battles_sure_hits_and_remainders() {
    exact_is_the_engine("classic", "3 arm vs 3 inf");
    exact_is_the_engine("classic", "2 arm, 1 ftr vs 3 inf");
    exact_is_the_engine("classic", "3 inf, 1 arm vs 2 inf, 1 arm");
}

#[test]
fn aa_fire_chosen_by_the_attacker() {
    exact_is_the_engine("classic", "3 ftr, 1 bmb vs 3 inf, 1 aa");
    // Anniversary's AA hits, otherwise each aircraft's own, are chosen too.
    exact_is_the_engine("anniversary-1941", "1 ftr, 2 bmb, 1 inf vs 2 inf, 1 aa");
    exact_is_the_engine("anniversary-1941", "2 ftr, 2 bmb, 2 inf vs 3 inf, 1 aa");
}

#[test]
fn support_is_counted_into_the_total() {
    exact_is_the_engine("europe", "3 inf, 1 art, 1 arm vs 3 inf");
    exact_is_the_engine("europe", "2 inf, 1 art, 1 arm vs 3 inf");
}

#[test]
fn defending_submarines_are_a_group_of_their_own_only_beside_aircraft() {
    // Classic: the defending submarines' hits never take aircraft. Against
    // fighters and a battleship they are a group apart; once the fighters
    // are gone, one group with the battleship.
    exact_is_the_engine("classic", "2 ftr, 1 bb vs 2 sub, 1 bb");
    exact_is_the_engine("classic", "3 ftr, 1 bb vs 3 sub, 1 bb");
    // The fighter goes first: the two battleships left face one group of
    // the submarine's die and the battleship's (6: a sure hit), not two
    // (2 and 4: 0, 1 or 2 hits).
    exact_is_the_engine("classic", "1 ftr, 2 bb vs 2 sub, 1 bb");
}

#[test]
fn fleets_with_destroyers_and_surprise_strikes() {
    exact_is_the_engine("anniversary-1941", "2 sub, 1 dd vs 1 sub, 1 dd, 1 cv, 1 ftr");
    exact_is_the_engine("europe", "2 sub, 1 dd vs 2 sub, 1 trn");
    exact_is_the_engine("anniversary-1941", "2 sub, 1 ftr vs 1 dd, 1 trn");
}

/// A random small battle of `ruleset` (the units it has).
fn random_battle(rng: &mut ChaCha8Rng, ruleset: &str) -> (Battle, CalcOptions) {
    let mut opts = CalcOptions::default();
    let (land, sea): (&[_], &[_]) = match ruleset {
        "classic" => (&[Infantry, Armor, Fighter, Bomber], &[Submarine, Battleship, AircraftCarrier, Fighter, Transport]),
        "europe" => {
            (&[Infantry, Artillery, Armor, Fighter, Bomber], &[Submarine, Destroyer, Battleship, AircraftCarrier, Fighter, Transport])
        }
        _ => (
            &[Infantry, Artillery, Armor, Fighter, Bomber],
            &[Submarine, Destroyer, Cruiser, Battleship, AircraftCarrier, Fighter, Transport],
        ),
    };
    let mut battle = match below(rng, 3) {
        0 => {
            let mut defenders = pick(rng, &land[..3], 2);
            if below(rng, 2) == 0 {
                defenders.add(AaGun, 1);
            }
            Battle::new(pick(rng, land, 2), defenders)
        }
        1 => {
            opts.amphibious = true;
            Battle::new(pick(rng, &land[..3], 2).with(Battleship, below(rng, 3)), pick(rng, &land[..3], 2))
        }
        _ => {
            let mut defenders = pick(rng, sea, 2);
            on_carriers(&mut defenders);
            Battle::new(pick(rng, sea, 2), defenders)
        }
    };
    if ruleset.starts_with("anniversary") && below(rng, 3) == 0 {
        // Developments that change dice: heavy bombers (two dice, the
        // best counts: 5 of a total), jets, super submarines, radar.
        battle.attacker_developments = Developments::parse("heavy bombers, jets, super submarines, advanced artillery").unwrap();
        battle.defender_developments = Developments::parse("radar").unwrap();
    }
    random_policies(rng, &mut opts, vec![Armor, Fighter]);
    (battle, opts)
}

#[test]
fn exact_agrees_with_monte_carlo_in_every_ruleset() {
    for (k, ruleset) in ["classic", "europe", "anniversary-1941"].into_iter().enumerate() {
        let rs = low_luck(ruleset);
        let mut calc = Calculator::new(rs.clone());
        let mut rng = ChaCha8Rng::seed_from_u64(33 + k as u64);
        let mut checked = 0;
        for i in 0..12 {
            let (battle, opts) = random_battle(&mut rng, ruleset);
            let mc = MonteCarlo { runs: 3000, seed: 100 + i };
            // Battles the exact mode refuses (or the engine cannot set up)
            // are skipped: the point is the ones it answers.
            if exact_agrees_with_monte_carlo(&mut calc, &rs, &battle, &opts, mc, |_| true) {
                checked += 1;
            }
        }
        assert!(checked >= 8, "{ruleset}: only {checked} battles checked");
    }
}

#[test]
fn low_luck_changes_the_odds() {
    // 2 armor against 3 infantry: 6 against 6, one sure hit a side a round.
    let battle = Battle::parse("2 arm vs 3 inf").unwrap();
    let plain = Calculator::new(warboard_rules::ruleset("classic").unwrap()).exact_uncached(&battle, &CalcOptions::default()).unwrap();
    let ll = Calculator::new(low_luck("classic")).exact_uncached(&battle, &CalcOptions::default()).unwrap();
    // Round 1: one armor and one infantry go, for sure. Then the armor's
    // die is 3 in 6, the two infantry's 4 in 6: the armor must hit and
    // not be hit (rounds where both miss change nothing), then again
    // against one infantry's 2 in 6.
    assert!((plain.attacker_wins - ll.attacker_wins).abs() > 0.01);
    let a = 3.0 / 6.0;
    let first = |d: f64| a * (1.0 - d) / (1.0 - (1.0 - a) * (1.0 - d));
    let want = first(4.0 / 6.0) * first(2.0 / 6.0);
    assert!((ll.attacker_wins - want).abs() < 1e-12, "{} vs {want}", ll.attacker_wins);
}
