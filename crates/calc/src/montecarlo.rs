//! Monte Carlo: the battle fought many times by the battle engine itself
//! (the standalone position of `warboard_rules::battle::standalone`), with
//! the side's order of loss answering the engine's casualty decisions and
//! the retreat policy answering its press-or-retreat decisions.
//!
//! Runs are split into fixed blocks, each run seeded from the seed and its
//! own index, so the answer is the same whatever the number of threads.

use crate::exact::{self, Workspace};
use crate::loss::{LossRule, Pool, CLASSES};
use crate::model::{BattleModel, TYPES};
use crate::options::{CalcOptions, RetreatPolicy};
use crate::result::{Ending, Key, Method, Outcome, OutcomeBuilder};
use crate::spec::{Army, Battle};
use crate::CalcError;
use rayon::prelude::*;
use std::collections::HashMap;
use warboard_rules::battle::casualties::{attackers, defenders};
use warboard_rules::battle::standalone::Standalone;
use warboard_rules::battle::{self, BattleResult, BattleSide, CasualtyChoice, Decision};
use warboard_rules::ruleset::UnitStats;
use warboard_rules::{Action, Event, GameState, Ruleset, SeededDice, UnitId, UnitType};

/// How many battles to fight, and the seed of their dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonteCarlo {
    pub runs: u64,
    pub seed: u64,
}

/// The Monte Carlo work one request may ask for, in the unit pairs of
/// `battle_work`: 2 to 6 s on one core, less on more. Measured with
/// `examples/probe --mc`, one core: infantry against infantry, 10 a side
/// take 67 to 79 µs a battle (48,000 runs allowed: 3.2 to 3.8 s), 100 a
/// side 0.6 ms (3,500 runs), 1,000 a side 29 to 32 ms (100 runs), 5,000 a
/// side 0.6 s (4 runs), 4 to 8 ns a pair at every size; small mixed fleets
/// up to 11 ns a pair (5 submarines, 3 fighters and 2 battleships against
/// 4 destroyers, 2 transports, a carrier and 2 fighters: 49,000 runs,
/// 5.8 s). BENCHMARKS.md, "Limits (issue 34)", has the table.
pub const MAX_MONTE_CARLO_WORK: u64 = 500_000_000;

/// Runs per block of work (and per seed stream).
const BLOCK: u64 = 256;
/// Decisions after which a battle counts as unfinished (no ruleset has an
/// endless battle today).
const MAX_DECISIONS: usize = 100_000;

/// One fought battle.
struct Fought {
    ending: Ending,
    captured: bool,
    attackers: Army,
    defenders: Army,
    rounds: usize,
}

/// Counts of a block of runs.
#[derive(Default)]
struct Tally {
    endings: HashMap<Key, u64>,
    rounds: Vec<u64>,
    unfinished: u64,
}

/// What every run shares.
struct Setup<'a> {
    rs: &'a Ruleset,
    model: &'a BattleModel,
    standalone: &'a Standalone,
    opts: &'a CalcOptions,
    attacker_rule: LossRule,
    defender_rule: LossRule,
}

/// The work of one battle of `units` units in all, in unit pairs: what
/// the battle engine costs, measured (see [`MAX_MONTE_CARLO_WORK`]).
///
/// - units × (units + 500): the engine goes through a side's units for
///   each casualty (the square), and each unit costs something however
///   small the battle (rolls, events, the state's clone: the 500).
/// - `split_hits`: where hits of one step fall in groups with other
///   targets (submarines' hits never take aircraft, aircraft hit
///   submarines only beside a destroyer), the engine's casualty choice
///   takes its general path, which grows with the fourth power of the
///   units: 100 submarines and 50 bombers against 50 destroyers, 50
///   carriers and 100 fighters take 46 ms a battle, twice as many 455 ms,
///   four times as many 6.8 s.
/// - `taken_last`: so it does where some units are taken last (defenseless
///   transports), growing with the third power: 200 submarines against 100
///   destroyers and 100 transports take 11 ms a battle, five times as many
///   0.7 s.
/// - `exact_retreats`: the "below P" retreat policy asks the exact mode
///   the win chance of each position, a solve growing with the square of
///   the units, and large battles hardly ever reach the same position twice
///   (small ones are answered from a cache per block): 100 infantry a side
///   cost 8.5 times as much with the policy, 1,000 a side 66 times.
fn battle_work(units: u64, split_hits: bool, taken_last: bool, exact_retreats: bool) -> u128 {
    let u = u128::from(units);
    let mut work = u * (u + 500);
    if split_hits {
        work += u.pow(4) / 2_000;
    }
    if taken_last {
        work += u.pow(3) / 30;
    }
    if exact_retreats {
        work += u.pow(3) / 10;
    }
    work
}

/// Whether hits of one step of this battle may fall in groups with other
/// targets (see [`battle_work`]): a side whose submarines fire beside
/// other units, or aircraft facing submarines.
fn split_hits(rs: &Ruleset, battle: &Battle) -> bool {
    let mixed = |side: &Army, enemy: &Army| {
        (has(rs, side, |st| st.submarine) && has(rs, side, |st| !st.submarine))
            || (has(rs, side, |st| st.is_air()) && has(rs, enemy, |st| st.submarine))
    };
    mixed(&battle.attackers, &battle.defenders) || mixed(&battle.defenders, &battle.attackers)
}

/// Whether `army` has a unit of a type for which `what` holds.
fn has(rs: &Ruleset, army: &Army, what: fn(&UnitStats) -> bool) -> bool {
    army.iter().any(|(t, _)| rs.unit(t).is_some_and(what))
}

/// Refuses a request of no runs, of too many units, or of more work than
/// [`MAX_MONTE_CARLO_WORK`], from the counts alone: before anything is
/// built or fought.
pub(crate) fn check(rs: &Ruleset, battle: &Battle, opts: &CalcOptions, mc: MonteCarlo) -> Result<(), CalcError> {
    battle.check_size()?;
    if mc.runs == 0 {
        return Err(CalcError::Syntax("Monte Carlo needs at least one run".into()));
    }
    let units = battle.attackers.units() + battle.defenders.units();
    let exact_retreats = matches!(opts.retreat, RetreatPolicy::WinChanceBelow(_));
    let taken_last = has(rs, &battle.attackers, |st| st.defenseless) || has(rs, &battle.defenders, |st| st.defenseless);
    let per_battle = battle_work(units, split_hits(rs, battle), taken_last, exact_retreats);
    let bound = u128::from(MAX_MONTE_CARLO_WORK);
    if per_battle * u128::from(mc.runs) > bound {
        let max_runs = u64::try_from(bound / per_battle.max(1)).unwrap_or(u64::MAX);
        return Err(CalcError::TooMuchWork { runs: mc.runs, units, max_runs });
    }
    Ok(())
}

pub(crate) fn run(
    rs: &Ruleset,
    model: &BattleModel,
    standalone: &Standalone,
    opts: &CalcOptions,
    mc: MonteCarlo,
) -> Result<Outcome, CalcError> {
    opts.check()?;
    let setup = Setup {
        rs,
        model,
        standalone,
        opts,
        attacker_rule: LossRule::new(model, &opts.attacker_order, true),
        defender_rule: LossRule::new(model, &opts.defender_order, false),
    };
    let blocks = mc.runs.div_ceil(BLOCK);
    let results: Vec<Result<Tally, CalcError>> = (0..blocks)
        .into_par_iter()
        .map(|block| {
            let mut tally = Tally::default();
            let mut chances = WinChances::default();
            for i in block * BLOCK..((block + 1) * BLOCK).min(mc.runs) {
                match fight(&setup, run_seed(mc.seed, i), &mut chances)? {
                    Some(f) => {
                        *tally.endings.entry((f.ending, f.captured, f.attackers, f.defenders)).or_default() += 1;
                        if tally.rounds.len() <= f.rounds {
                            tally.rounds.resize(f.rounds + 1, 0);
                        }
                        tally.rounds[f.rounds] += 1;
                    }
                    None => tally.unfinished += 1,
                }
            }
            Ok(tally)
        })
        .collect();
    // Counts add up the same in any order: the answer does not depend on
    // how the blocks were shared among threads.
    let mut total = Tally::default();
    for r in results {
        let t = r?;
        for (k, n) in t.endings {
            *total.endings.entry(k).or_default() += n;
        }
        if total.rounds.len() < t.rounds.len() {
            total.rounds.resize(t.rounds.len(), 0);
        }
        for (r, n) in t.rounds.iter().enumerate() {
            total.rounds[r] += n;
        }
        total.unfinished += t.unfinished;
    }
    let mut builder = OutcomeBuilder::new();
    for ((ending, captured, attackers, defenders), n) in total.endings {
        builder.add(ending, captured, attackers, defenders, n as f64);
    }
    for (r, n) in total.rounds.iter().enumerate() {
        builder.add_rounds(r, *n as f64);
    }
    let runs = mc.runs as f64;
    Ok(builder.finish(model, Method::MonteCarlo { runs: mc.runs, seed: mc.seed }, runs, total.unfinished as f64 / runs, None, true))
}

/// The seed of run `i`: SplitMix64 of the seed and the index.
fn run_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(0x6a09_e667_f3bc_c909);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One side's units in a mid-battle position, and which of them are
/// damaged.
type Units = (Army, Army);

/// The exact win chance of mid-battle positions, for the "below p"
/// retreat policy, computed once per position per block.
#[derive(Default)]
struct WinChances {
    workspace: Option<Workspace>,
    known: HashMap<(Units, Units), f64>,
}

impl WinChances {
    fn get(&mut self, setup: &Setup, attackers: Units, defenders: Units, threshold: f64) -> Result<f64, CalcError> {
        if let Some(c) = self.known.get(&(attackers, defenders)) {
            return Ok(*c);
        }
        // From now on only ordinary rounds are fought: no AA fire or
        // bombardment (round one only).
        let mut mid = setup.model.clone();
        (mid.attackers, mid.attackers_damaged) = attackers;
        (mid.defenders, mid.defenders_damaged) = defenders;
        mid.aa_value = 0;
        mid.bombard_values.clear();
        let ws = self.workspace.get_or_insert_with(Workspace::default);
        let chance = exact::win_chance_pressing_on(&mid, setup.opts, ws, threshold)?;
        self.known.insert((attackers, defenders), chance);
        Ok(chance)
    }
}

/// Units by type, and the damaged ones among them.
fn army_of_units(state: &GameState, ids: &[UnitId]) -> Units {
    let (mut army, mut damaged) = (Army::new(), Army::new());
    for u in ids.iter().filter_map(|id| state.unit(*id)) {
        army.add(u.kind, 1);
        if u.hits > 0 {
            damaged.add(u.kind, 1);
        }
    }
    (army, damaged)
}

/// Fights one battle; `None` if it does not finish.
fn fight(setup: &Setup, seed: u64, chances: &mut WinChances) -> Result<Option<Fought>, CalcError> {
    let rs = setup.rs;
    let model = setup.model;
    let at = setup.standalone.at;
    let mut game = setup.standalone.game.clone();
    let attacker = game.state.turn;
    let mut dice = SeededDice::new(seed);
    let (mut lost_att, mut lost_def) = (Army::new(), Army::new());
    let mut action = Action::Battle { at };
    let mut rolled = false;
    for _ in 0..MAX_DECISIONS {
        let events = game.apply(&action, &mut dice).map_err(|e| CalcError::Engine(format!("the battle engine refused {action:?}: {e}")))?;
        for e in &events {
            match e {
                Event::Destroyed { units, .. } => {
                    for (_, kind, owner) in units {
                        if *owner == attacker {
                            lost_att.add(*kind, 1)
                        } else {
                            lost_def.add(*kind, 1)
                        }
                    }
                }
                Event::Rolled { .. } => rolled = true,
                _ => {}
            }
        }
        let Some((i, decision)) = battle::decision(rs, &game.state) else {
            break;
        };
        action = match decision {
            Decision::Casualties { side, candidates, choice, .. } => {
                let rule = match side {
                    BattleSide::Attacker => &setup.attacker_rule,
                    BattleSide::Defender => &setup.defender_rule,
                };
                // The side's order of loss; by default the engine's own
                // (the test below checks the picks are the engine's
                // `default_casualties`).
                let units = choose_casualties(rule, &game.state, &candidates, &choice);
                Action::Casualties { units }
            }
            // Submarines stay in the battle: they never withdraw or submerge
            // (the exact mode has no such choices either; the engine's
            // `auto` play does the same).
            Decision::AttackerSubmarines | Decision::DefenderSubmarines => Action::Continue,
            Decision::PressOrRetreat => {
                let b = &game.state.battles[i];
                let retreat = match setup.opts.retreat {
                    // Nobody breaks off an amphibious assault (where Europe
                    // lets its aircraft retreat, the calculator's attacker
                    // keeps them in, as the exact mode does).
                    _ if b.amphibious => false,
                    RetreatPolicy::Never => false,
                    RetreatPolicy::AfterRound(n) => b.round >= n,
                    RetreatPolicy::WinChanceBelow(p) => {
                        let att = army_of_units(&game.state, &attackers(rs, &game.state, b));
                        let def = army_of_units(&game.state, &defenders(rs, &game.state, b));
                        chances.get(setup, att, def, p)? < p
                    }
                };
                if retreat {
                    // Only aircraft left: they break off without a
                    // destination (decisions.rs, `retreat_allowed`).
                    let ground =
                        attackers(rs, &game.state, b).iter().any(|id| game.state.unit(*id).is_some_and(|u| !rs.stats(u.kind).is_air()));
                    Action::Retreat { to: ground.then_some(setup.standalone.retreat_to) }
                } else {
                    Action::Continue
                }
            }
        };
    }
    let b = &game.state.battles[0];
    let ending = match b.result {
        BattleResult::AttackerWon => Ending::AttackerWins,
        BattleResult::DefenderWon => Ending::DefenderWins,
        BattleResult::Draw => Ending::Draw,
        BattleResult::Retreated => Ending::Retreated,
        BattleResult::Pending | BattleResult::Ongoing => return Ok(None),
    };
    let captured = ending == Ending::AttackerWins && !model.sea && game.state.control[at.index()] == Some(attacker);
    let mut survivors_att = model.with_bystanders(model.attackers);
    let mut survivors_def = model.defenders;
    for (t, n) in lost_att.iter() {
        survivors_att.remove(t, n);
    }
    for (t, n) in lost_def.iter() {
        survivors_def.remove(t, n);
    }
    // No die rolled: the battle was over before its first round (nobody to
    // fight, or nobody who can hurt the other side).
    let rounds = if model.defenders.is_empty() || !rolled { 0 } else { b.round as usize };
    Ok(Some(Fought { ending, captured, attackers: survivors_att, defenders: survivors_def, rounds }))
}

/// The casualties the side's order of loss picks among the candidates.
fn choose_casualties(rule: &LossRule, state: &GameState, candidates: &[UnitId], choice: &CasualtyChoice) -> Vec<UnitId> {
    // The rule's order of loss over every hit the candidates can take (a
    // unit of two hit points is named once per hit: first the hit that
    // damages it), then the legal set of losses that follows it (hit groups
    // may restrict who takes what).
    let class_of = |kind: UnitType, damaged: bool| kind.index() + if damaged { TYPES } else { 0 };
    // Each candidate's class now, as the order goes on.
    let mut units: Vec<(UnitId, usize)> = Vec::with_capacity(candidates.len());
    let mut comp = [0u16; CLASSES];
    for id in candidates {
        if let Some(u) = state.unit(*id) {
            let c = class_of(u.kind, u.hits > 0);
            comp[c] += 1;
            units.push((*id, c));
        }
    }
    // With one group of hits only as many as it scores are needed.
    let needed = if choice.groups.len() == 1 { choice.hits() as usize } else { usize::MAX };
    let mut order: Vec<UnitId> = Vec::with_capacity(candidates.len());
    while order.len() < needed {
        let Some(class) = rule.next_hit(&comp, Pool::All) else { break };
        rule.hit(&mut comp, class);
        let Some(unit) = units.iter_mut().find(|(_, c)| *c == class) else { break };
        order.push(unit.0);
        // Damaged (a class further on), or gone.
        unit.1 = if class < TYPES && comp[class + TYPES] > 0 && rule.hit_points_left[class] > 1 { class + TYPES } else { usize::MAX };
    }
    choice.pick_in_order(&order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::LossOrder;
    use crate::spec::Battle;
    use warboard_rules::battle::casualties::default_casualties;
    use warboard_rules::battle::{HitGroup, Targets};

    /// The most runs `check` allows of a battle (and it allows them, and
    /// refuses one more).
    fn runs_allowed(ruleset: &str, text: &str, opts: &CalcOptions) -> u64 {
        let rs = warboard_rules::ruleset(ruleset).unwrap();
        let battle = Battle::parse(text).unwrap();
        let at = |runs: u64| check(&rs, &battle, opts, MonteCarlo { runs, seed: 1 });
        let Err(CalcError::TooMuchWork { runs: u64::MAX, max_runs, .. }) = at(u64::MAX) else { panic!("{text}: {:?}", at(u64::MAX)) };
        if max_runs > 0 {
            assert_eq!(at(max_runs), Ok(()), "{text}");
        }
        assert!(matches!(at(max_runs + 1), Err(CalcError::TooMuchWork { .. })), "{text}");
        max_runs
    }

    #[test]
    fn monte_carlo_work_is_bounded_before_anything_is_fought() {
        let never = CalcOptions::default();
        let below = CalcOptions { retreat: RetreatPolicy::WinChanceBelow(0.5), ..Default::default() };
        // The runs allowed fall with the square of the units.
        assert_eq!(runs_allowed("classic", "10 inf vs 10 inf", &never), 48_076);
        assert_eq!(runs_allowed("classic", "100 inf vs 100 inf", &never), 3_571);
        assert_eq!(runs_allowed("classic", "5000 inf vs 5000 inf", &never), 4);
        // Faster where the engine's casualty choice takes its general path,
        // or the retreat policy asks the exact mode.
        assert!(runs_allowed("europe", "200 sub, 200 bb vs 400 dd", &never) < runs_allowed("europe", "400 bb vs 400 dd", &never) / 50);
        assert!(runs_allowed("europe", "400 ftr vs 400 sub", &never) < runs_allowed("europe", "400 bb vs 400 sub", &never) / 50);
        let fleet = runs_allowed("anniversary-1941", "400 sub vs 400 dd", &never);
        assert_eq!(fleet, runs_allowed("anniversary-1941", "400 sub vs 400 bb", &never));
        assert!(runs_allowed("anniversary-1941", "400 sub vs 200 dd, 200 trn", &never) < fleet / 5);
        assert!(runs_allowed("classic", "100 inf vs 100 inf", &below) < 3_571 / 5);
        assert_eq!(runs_allowed("classic", "1000 inf vs 1000 inf", &below), 0, "one battle is too much");
        // Small battles keep plenty of runs whatever they hold.
        assert!(runs_allowed("anniversary-1941", "5 sub, 3 ftr, 2 bb vs 4 dd, 2 trn, 1 cv, 2 ftr", &below) > 20_000);

        let rs = warboard_rules::ruleset("classic").unwrap();
        let battle = Battle::parse("1 inf vs 1 inf").unwrap();
        assert!(matches!(check(&rs, &battle, &never, MonteCarlo { runs: 0, seed: 1 }), Err(CalcError::Syntax(_))));
        // Too many units are refused as such, whatever the runs.
        let huge = Battle::new(Army::new().with(UnitType::Infantry, u32::MAX), Army::new().with(UnitType::Infantry, 1));
        assert!(matches!(check(&rs, &huge, &never, MonteCarlo { runs: 1, seed: 1 }), Err(CalcError::TooManyUnits { .. })));
        let message = check(&rs, &Battle::parse("10 inf vs 10 inf").unwrap(), &never, MonteCarlo { runs: 1_000_000, seed: 1 })
            .unwrap_err()
            .to_string();
        let one = check(&rs, &Battle::parse("1000 inf vs 1000 inf").unwrap(), &below, MonteCarlo { runs: 1, seed: 1 }).unwrap_err().to_string();
        assert!(one.starts_with("too much Monte Carlo work: 1 run of a battle of 2000 units; at most 0 runs of it"), "{one}");
        assert_eq!(
            message,
            "too much Monte Carlo work: 1000000 runs of a battle of 20 units; at most 48076 runs of it \
             (Monte Carlo is bounded to 500000000 unit pairs, a few seconds)"
        );
    }

    /// What a set of losses leaves of the candidates: per unit type, how
    /// many whole and how many damaged.
    fn left(rs: &Ruleset, state: &GameState, candidates: &[UnitId], chosen: &[UnitId]) -> Vec<(UnitType, u8)> {
        let mut v = Vec::new();
        for id in candidates {
            let u = state.unit(*id).unwrap();
            let hits = u.hits as usize + chosen.iter().filter(|x| *x == id).count();
            if hits < rs.stats(u.kind).hit_points.max(1) as usize {
                v.push((u.kind, hits as u8));
            }
        }
        v.sort();
        v
    }

    /// The default order of loss Monte Carlo answers the engine with (the
    /// exact mode's `LossRule`) picks what the engine's own default picks
    /// (`default_casualties`), for every mix of hit groups: the exact mode
    /// follows the engine's default order of loss.
    #[test]
    fn the_default_order_of_loss_is_the_engines() {
        let groups = [
            Targets::ANY,
            Targets { only_air: false, no_air: true, no_submarines: false },
            Targets { only_air: false, no_air: false, no_submarines: true },
            Targets::AIRCRAFT,
        ];
        let battles = [
            ("europe", "3 sub, 2 dd, 2 bb, 2 ftr, 1 bmb, 1 cv, 1 trn vs 3 sub, 2 dd, 2 bb, 2 cv, 3 ftr, 2 trn"),
            ("europe", "4 inf, 2 art, 2 arm, 2 ftr, 1 bmb vs 5 inf, 2 art, 1 arm, 2 ftr, 1 aa"),
            ("classic", "3 sub, 2 bb, 2 ftr, 2 bmb, 1 cv, 1 trn vs 3 sub, 2 bb, 2 cv, 3 ftr, 2 trn"),
        ];
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut checked = 0;
        for (name, text) in battles {
            let rs = warboard_rules::ruleset(name).unwrap();
            let battle = Battle::parse(text).unwrap();
            let (model, standalone) = BattleModel::new(&rs, &battle, false).unwrap();
            let mut state = standalone.game.state.clone();
            let b = state.battles[0].clone();
            for side in [BattleSide::Attacker, BattleSide::Defender] {
                let attacking = side == BattleSide::Attacker;
                let rule = LossRule::new(&model, &LossOrder::Default, attacking);
                for _ in 0..300 {
                    // Some battleships damaged already.
                    for u in state.units.iter_mut() {
                        u.hits = if rs.stats(u.kind).hit_points > 1 { next(2) as u8 } else { 0 };
                    }
                    let mut hit_groups: Vec<HitGroup> = Vec::new();
                    for targets in groups {
                        if next(2) == 0 {
                            hit_groups.push(HitGroup { targets, hits: 1 + next(6) as u32 });
                        }
                    }
                    if hit_groups.is_empty() {
                        continue;
                    }
                    let choice = CasualtyChoice::of(&rs, &state, &b, side, &hit_groups);
                    let candidates = choice.candidates();
                    let engine = default_casualties(&rs, &state, &choice, attacking);
                    let ours = choose_casualties(&rule, &state, &candidates, &choice);
                    assert_eq!(
                        left(&rs, &state, &candidates, &ours),
                        left(&rs, &state, &candidates, &engine),
                        "{name} {text}, {side:?}, {hit_groups:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
