//! What a calculation answers: outcome probabilities, expected survivors and
//! losses, and the full distributions. Both modes fill the same struct;
//! Monte Carlo adds standard errors.

use crate::model::BattleModel;
use crate::spec::Army;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use warboard_rules::UnitType;

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// The defenders are destroyed and an attacking unit is left.
    AttackerWins,
    /// The attackers are destroyed and a defender is left.
    DefenderWins,
    /// Both sides are destroyed (the defender keeps the territory).
    Draw,
    /// The attacker broke off (the defender keeps the territory).
    Retreated,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::AttackerWins => "attacker_wins",
            Ending::DefenderWins => "defender_wins",
            Ending::Draw => "draw",
            Ending::Retreated => "retreated",
        }
    }
}

/// One way the battle can end, with what is left of each side.
#[derive(Clone, Debug, PartialEq)]
pub struct SurvivorOutcome {
    pub ending: Ending,
    /// The attacker took the territory (won a land battle with a land unit).
    pub captured: bool,
    pub attackers: Army,
    pub defenders: Army,
    pub probability: f64,
}

/// Which calculation produced an outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Exact,
    MonteCarlo { runs: u64, seed: u64 },
}

/// Standard errors of a Monte Carlo estimate, field by field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StandardErrors {
    pub attacker_wins: f64,
    pub defender_wins: f64,
    pub draw: f64,
    pub retreated: f64,
    pub captured: f64,
    pub attacker_survivors: Vec<(UnitType, f64)>,
    pub defender_survivors: Vec<(UnitType, f64)>,
    pub attacker_ipc_loss: f64,
    pub defender_ipc_loss: f64,
    pub expected_rounds: f64,
}

/// The answer to "if I attack with this against that, what happens?".
///
/// The probabilities of the four endings and `pruned` add up to 1.
/// Survivors count units that took part (AA guns and factories are not
/// counted; attacking ships that only bombard always survive). IPC losses
/// are the value of the units destroyed, including defending aircraft lost
/// after a sea battle for want of a carrier.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub method: Method,
    pub attacker_wins: f64,
    pub defender_wins: f64,
    pub draw: f64,
    pub retreated: f64,
    /// The attacker wins a land battle with a land unit left.
    pub captured: f64,
    /// Expected units left, for each unit type the side brought.
    pub attacker_survivors: Vec<(UnitType, f64)>,
    pub defender_survivors: Vec<(UnitType, f64)>,
    pub attacker_ipc_loss: f64,
    pub defender_ipc_loss: f64,
    /// Expected number of rounds fought (0 when there is nobody to fight).
    pub expected_rounds: f64,
    /// Probability left out: pruned states (exact), or battles that did not
    /// finish (Monte Carlo).
    pub pruned: f64,
    /// Every ending with its survivors, most likely first.
    pub outcomes: Vec<SurvivorOutcome>,
    /// `rounds_distribution[r]`: probability that the battle lasts exactly
    /// `r` rounds. Empty unless asked for (exact mode) — Monte Carlo always
    /// fills it.
    pub rounds_distribution: Vec<f64>,
    pub standard_errors: Option<StandardErrors>,
}

impl Outcome {
    /// The IPC swing in the attacker's favour: what the defender loses
    /// minus what the attacker loses.
    pub fn ipc_swing(&self) -> f64 {
        self.defender_ipc_loss - self.attacker_ipc_loss
    }

    /// Distribution of what is left of the attacker, most likely first.
    pub fn attacker_distribution(&self) -> Vec<(Army, f64)> {
        marginal(&self.outcomes, |o| o.attackers)
    }

    /// Distribution of what is left of the defender, most likely first.
    pub fn defender_distribution(&self) -> Vec<(Army, f64)> {
        marginal(&self.outcomes, |o| o.defenders)
    }

    pub fn attacker_survivor(&self, t: UnitType) -> f64 {
        self.attacker_survivors.iter().find(|(k, _)| *k == t).map_or(0.0, |(_, v)| *v)
    }

    pub fn defender_survivor(&self, t: UnitType) -> f64 {
        self.defender_survivors.iter().find(|(k, _)| *k == t).map_or(0.0, |(_, v)| *v)
    }

    /// One JSON object for programs (see the CLI's `--json`).
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "method": match self.method { Method::Exact => "exact", Method::MonteCarlo { .. } => "monte_carlo" },
            "attacker_wins": self.attacker_wins,
            "defender_wins": self.defender_wins,
            "draw": self.draw,
            "retreated": self.retreated,
            "captured": self.captured,
            "attacker_survivors": by_type(&self.attacker_survivors),
            "defender_survivors": by_type(&self.defender_survivors),
            "attacker_ipc_loss": self.attacker_ipc_loss,
            "defender_ipc_loss": self.defender_ipc_loss,
            "rounds": self.expected_rounds,
            "pruned": self.pruned,
            "outcomes": self.outcomes.iter().map(|o| json!({
                "ending": o.ending.name(),
                "captured": o.captured,
                "attackers": army_json(&o.attackers),
                "defenders": army_json(&o.defenders),
                "probability": o.probability,
            })).collect::<Vec<_>>(),
        });
        let obj = v.as_object_mut().expect("an object");
        if let Method::MonteCarlo { runs, seed } = self.method {
            obj.insert("runs".into(), json!(runs));
            obj.insert("seed".into(), json!(seed));
        }
        if !self.rounds_distribution.is_empty() {
            obj.insert("rounds_distribution".into(), json!(self.rounds_distribution));
        }
        if let Some(se) = &self.standard_errors {
            obj.insert(
                "standard_errors".into(),
                json!({
                    "attacker_wins": se.attacker_wins,
                    "defender_wins": se.defender_wins,
                    "draw": se.draw,
                    "retreated": se.retreated,
                    "captured": se.captured,
                    "attacker_survivors": by_type(&se.attacker_survivors),
                    "defender_survivors": by_type(&se.defender_survivors),
                    "attacker_ipc_loss": se.attacker_ipc_loss,
                    "defender_ipc_loss": se.defender_ipc_loss,
                    "rounds": se.expected_rounds,
                }),
            );
        }
        v
    }
}

fn by_type(v: &[(UnitType, f64)]) -> Value {
    Value::Object(v.iter().map(|(t, x)| (t.name().to_string(), json!(x))).collect::<Map<_, _>>())
}

fn army_json(a: &Army) -> Value {
    Value::Object(a.iter().map(|(t, n)| (t.name().to_string(), json!(n))).collect::<Map<_, _>>())
}

fn marginal(outcomes: &[SurvivorOutcome], side: impl Fn(&SurvivorOutcome) -> Army) -> Vec<(Army, f64)> {
    let mut sums: HashMap<Army, f64> = HashMap::new();
    for o in outcomes {
        *sums.entry(side(o)).or_default() += o.probability;
    }
    let mut v: Vec<(Army, f64)> = sums.into_iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// Collects endings (weighted by probability, or counted) and turns them
/// into an [`Outcome`].
pub(crate) struct OutcomeBuilder {
    /// Endings with their weights; the same ending may come more than once.
    entries: Vec<(Key, f64)>,
    /// Weight by number of rounds fought.
    pub rounds: Vec<f64>,
}

/// An ending, whether the territory was taken, and both sides' survivors.
pub(crate) type Key = (Ending, bool, Army, Army);

impl OutcomeBuilder {
    pub fn new() -> OutcomeBuilder {
        OutcomeBuilder { entries: Vec::new(), rounds: Vec::new() }
    }

    pub fn add(&mut self, ending: Ending, captured: bool, attackers: Army, defenders: Army, weight: f64) {
        self.entries.push(((ending, captured, attackers, defenders), weight));
    }

    pub fn add_rounds(&mut self, rounds: usize, weight: f64) {
        if weight == 0.0 {
            return;
        }
        if self.rounds.len() <= rounds {
            self.rounds.resize(rounds + 1, 0.0);
        }
        self.rounds[rounds] += weight;
    }

    /// The outcome. Weights are divided by `total`; `expected_rounds`
    /// overrides the mean of the rounds histogram (the exact mode's folded
    /// solve has no histogram); `sampled` adds standard errors for `total`
    /// independent samples.
    pub fn finish(
        self,
        model: &BattleModel,
        method: Method,
        total: f64,
        pruned: f64,
        expected_rounds: Option<f64>,
        sampled: bool,
    ) -> Outcome {
        let start_att_all = model.with_bystanders(model.attackers);
        let start_def = model.defenders;
        let (att_cost, def_cost) = (model.cost(&start_att_all), model.cost(&start_def));

        // The same ending may have been added more than once: merge.
        let mut entries = self.entries;
        // Totals first: most entries differ there, and it is cheaper than
        // comparing every count.
        entries.sort_unstable_by(|(a, _), (b, _)| {
            (a.0, a.1, a.2.total(), a.3.total()).cmp(&(b.0, b.1, b.2.total(), b.3.total())).then_with(|| a.cmp(b))
        });
        let mut outcomes: Vec<SurvivorOutcome> = Vec::with_capacity(entries.len());
        for ((ending, captured, attackers, defenders), w) in entries {
            match outcomes.last_mut() {
                Some(o) if (o.ending, o.captured, o.attackers, o.defenders) == (ending, captured, attackers, defenders) => {
                    o.probability += w / total
                }
                _ => outcomes.push(SurvivorOutcome { ending, captured, attackers, defenders, probability: w / total }),
            }
        }
        outcomes.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        let costs: Vec<(f64, f64)> = outcomes.iter().map(|o| (model.cost(&o.attackers), model.cost(&o.defenders))).collect();

        // Means (and, for samples, second moments) of everything reported.
        let mean = |f: &dyn Fn(&SurvivorOutcome, (f64, f64)) -> f64| -> (f64, f64) {
            let (mut m1, mut m2) = (0.0, 0.0);
            for (o, c) in outcomes.iter().zip(&costs) {
                let x = f(o, *c);
                m1 += o.probability * x;
                m2 += o.probability * x * x;
            }
            (m1, m2)
        };
        let se = |(m1, m2): (f64, f64)| ((m2 - m1 * m1).max(0.0) / total).sqrt();
        let ending_is = |e: Ending| move |o: &SurvivorOutcome, _| (o.ending == e) as u8 as f64;
        let att_wins = mean(&ending_is(Ending::AttackerWins));
        let def_wins = mean(&ending_is(Ending::DefenderWins));
        let draw = mean(&ending_is(Ending::Draw));
        let retreated = mean(&ending_is(Ending::Retreated));
        let captured = mean(&|o: &SurvivorOutcome, _| o.captured as u8 as f64);
        let att_loss = mean(&|_, (att, _)| att_cost - att);
        let def_loss = mean(&|_, (_, def)| def_cost - def);
        let survivors = |army: &Army, of: fn(&SurvivorOutcome) -> &Army| -> Vec<(UnitType, (f64, f64))> {
            army.iter().map(|(t, _)| (t, mean(&|o: &SurvivorOutcome, _| of(o).count(t) as f64))).collect()
        };
        let att_surv = survivors(&start_att_all, |o| &o.attackers);
        let def_surv = survivors(&start_def, |o| &o.defenders);

        let rounds_total: f64 = self.rounds.iter().sum();
        let rounds_distribution: Vec<f64> = self.rounds.iter().map(|w| w / total).collect();
        let rounds_m1: f64 = rounds_distribution.iter().enumerate().map(|(r, p)| r as f64 * p).sum();
        let rounds_m2: f64 = rounds_distribution.iter().enumerate().map(|(r, p)| (r * r) as f64 * p).sum();
        let expected_rounds = expected_rounds.unwrap_or(if rounds_total > 0.0 { rounds_m1 } else { 0.0 });

        let standard_errors = sampled.then(|| StandardErrors {
            attacker_wins: se(att_wins),
            defender_wins: se(def_wins),
            draw: se(draw),
            retreated: se(retreated),
            captured: se(captured),
            attacker_survivors: att_surv.iter().map(|(t, m)| (*t, se(*m))).collect(),
            defender_survivors: def_surv.iter().map(|(t, m)| (*t, se(*m))).collect(),
            attacker_ipc_loss: se(att_loss),
            defender_ipc_loss: se(def_loss),
            expected_rounds: se((rounds_m1, rounds_m2)),
        });
        Outcome {
            method,
            attacker_wins: att_wins.0,
            defender_wins: def_wins.0,
            draw: draw.0,
            retreated: retreated.0,
            captured: captured.0,
            attacker_survivors: att_surv.iter().map(|(t, m)| (*t, m.0)).collect(),
            defender_survivors: def_surv.iter().map(|(t, m)| (*t, m.0)).collect(),
            attacker_ipc_loss: att_loss.0,
            defender_ipc_loss: def_loss.0,
            expected_rounds,
            pruned: pruned.max(0.0),
            outcomes,
            rounds_distribution,
            standard_errors,
        }
    }
}
