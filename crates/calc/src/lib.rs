//! warboard's battle calculator: "if I attack with this against that, what
//! happens?"
//!
//! Two modes answer with the same [`Outcome`]:
//! - **exact**: the full outcome distribution by dynamic programming over
//!   battle states (module `exact`), for players and for the computer
//!   players, who ask thousands of times a turn (use a [`Calculator`]: it
//!   reuses its buffers and caches answers);
//! - **Monte Carlo**: the battle fought many times by the battle engine
//!   itself, seeded and in parallel, with standard errors.
//!
//! There is no second implementation of the combat rules: unit values come
//! from the ruleset's unit table, battles are validated by building the
//! engine's own standalone position, Monte Carlo runs the engine, and the
//! exact mode's round structure mirrors the engine step by step (see
//! `exact` and `fleet`); tests check the two modes agree.
//!
//! # What the exact mode models
//!
//! Classic's, Europe's and the Anniversary Edition's battles (`warboard
//! calc --ruleset europe`, `--ruleset anniversary-1941`): AA fire (the
//! attacker choosing which aircraft are hit, or, Anniversary, each aircraft
//! rolling its own die and those hit lost: knob `aa_hits_chosen`),
//! bombardment (battleships, Europe's destroyers at 2, Anniversary's
//! cruisers at 3, at most one ship per land unit landing where
//! `bombard_per_land_unit`), submarines' first strike attacking and
//! (Anniversary's surprise strike) defending, the defender's casualties
//! firing back; from the unit table, support (an artillery raises one
//! attacking infantry to 2), units of two hit points (a battleship is
//! damaged by its first hit, and whole battleships absorb hits before
//! anything is lost, as the engine's default order of loss has it),
//! anti-submarine units (an enemy destroyer in the battle cancels the
//! submarines' first strike; aircraft hit submarines only with a destroyer
//! of their side; submarines' hits never take aircraft), round by round as
//! units are lost; defenseless units (Anniversary's transports: taken only
//! when nothing else can take the hit, whatever the order of loss, and lost
//! without dice when the defender cannot hurt the attacker); and the end
//! the engine gives a battle in which neither side can hurt the other
//! (aircraft against submarines with no destroyer left): as if the
//! attacker broke off ([`Ending::Retreated`]).
//!
//! Each side may have research developments ([`Developments`], written
//! "… with jets, heavy bombers vs …"): those that change dice are modelled
//! by the engine's own `warboard_rules::battle::firing` for the ruleset's research charts
//! (Anniversary: jet fighters attack at 4, super submarines at 3, heavy
//! bombers roll two dice of which the lower counts, advanced artillery
//! supports two infantry, radar's AA guns hit on 2; classic: jet fighters
//! defend at 5, heavy bombers roll three dice).
//!
//! It refuses ([`CalcError::NotModelled`], naming the rule; Monte Carlo
//! answers) first strikes by units other than submarines, units of more
//! than two hit points, two kinds of support in one battle, and
//! defenseless units that fire, fly, dive or walk, or that stand beside
//! other units that never fire (no edition has them).
//!
//! # What the calculator assumes
//!
//! The battle has no player choices: submarines never withdraw (classic)
//! or submerge (Europe, Anniversary); the attacker retreats only as its
//! [`RetreatPolicy`] says, and never from an amphibious assault (where
//! Europe lets aircraft alone break off, or Anniversary the units that did
//! not land, they stay); casualties follow each side's [`LossOrder`], by
//! default the engine's own order of loss. Monte Carlo answers the engine's
//! decisions the same way (the engine's `auto` play submerges and retreats
//! nothing either, and takes the default casualties).
//!
//! # Limits
//!
//! A side has at most [`MAX_UNITS_PER_SIDE`] units, and a Monte Carlo
//! request at most [`MAX_MONTE_CARLO_WORK`] of work (its runs times the
//! cost of one battle, which grows with the square of its units, and
//! faster where the engine's casualty choices take their general path or
//! the retreat policy asks the exact mode). Both are checked from the
//! counts before anything is built: a battle of billions of units or a
//! request of years gets its error at once ([`CalcError::TooManyUnits`],
//! [`CalcError::TooMuchWork`]).
//!
//! ```
//! use warboard_calc::{Battle, CalcOptions, Calculator};
//! let mut calc = Calculator::new(warboard_rules::ruleset("classic").unwrap());
//! let battle = Battle::parse("1 inf vs 1 inf").unwrap();
//! let odds = calc.exact(&battle, &CalcOptions::default()).unwrap();
//! assert!((odds.attacker_wins - 0.25).abs() < 1e-12);
//! ```

mod dist;
mod exact;
mod fleet;
mod graph;
mod loss;
mod model;
mod montecarlo;
mod options;
mod result;
mod spec;

pub use montecarlo::{MonteCarlo, MAX_MONTE_CARLO_WORK};
pub use options::{CalcOptions, LossOrder, RetreatPolicy};
pub use result::{Ending, Method, Outcome, StandardErrors, SurvivorOutcome};
pub use spec::{known_names, parse_army, unit_by_name, Army, Battle, Developments, Side, MAX_UNITS_PER_SIDE};
pub use warboard_rules::state::Development;

use model::BattleModel;
use std::collections::HashMap;
use std::sync::Arc;
use warboard_rules::Ruleset;

/// Why a battle cannot be calculated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CalcError {
    /// The text or an option could not be read.
    #[error("{0}")]
    Syntax(String),
    #[error("unknown unit \"{0}\"; known names: {names}", names = known_names())]
    UnknownUnit(String),
    /// The battle cannot happen (as the battle engine says).
    #[error("impossible battle: {0}")]
    Impossible(String),
    #[error("too large for the exact calculation: {0}; use Monte Carlo")]
    TooLarge(String),
    /// More units on one side than either mode takes
    /// ([`MAX_UNITS_PER_SIDE`]): refused from the counts, before anything
    /// is built. `units` saturates at `u64::MAX`.
    #[error("too many units on a side: {} {side} (at most {MAX_UNITS_PER_SIDE})", count_text(*units))]
    TooManyUnits { side: Side, units: u64 },
    /// More Monte Carlo runs than [`MAX_MONTE_CARLO_WORK`] allows for this
    /// battle of `units` units (both sides): refused before the first.
    #[error(
        "too much Monte Carlo work: {} of a battle of {}; at most {} of it \
         (Monte Carlo is bounded to {MAX_MONTE_CARLO_WORK} unit pairs, a few seconds)",
        counted(*runs, "run"), counted(*units, "unit"), counted(*max_runs, "run")
    )]
    TooMuchWork { runs: u64, units: u64, max_runs: u64 },
    /// A rule of this battle the exact calculation does not model: it says
    /// so rather than answer wrongly (Monte Carlo runs the battle engine
    /// itself, so it models every rule).
    #[error("the exact calculation does not model {0}; use Monte Carlo (--monte-carlo)")]
    NotModelled(String),
    /// The battle engine refused a decision (a bug, if it ever happens).
    #[error("{0}")]
    Engine(String),
}

/// A count as an error message writes it: one that saturated is at least
/// that much.
fn count_text(units: u64) -> String {
    if units == u64::MAX {
        format!("{units} or more")
    } else {
        units.to_string()
    }
}

/// "1 run", "4 runs".
fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Answers cached per calculator before the cache is emptied.
const DEFAULT_CACHE_LIMIT: usize = 100_000;

/// Exact and Monte Carlo odds for one ruleset. Keeps its working buffers
/// between calls (the exact mode allocates next to nothing once warm) and
/// caches exact answers by (battle, options). One per thread.
pub struct Calculator {
    ruleset: Arc<Ruleset>,
    workspace: exact::Workspace,
    cache: HashMap<(Battle, CalcOptions), Arc<Outcome>>,
    cache_limit: usize,
    hits: u64,
}

impl Calculator {
    pub fn new(ruleset: Arc<Ruleset>) -> Calculator {
        Calculator { ruleset, workspace: exact::Workspace::default(), cache: HashMap::new(), cache_limit: DEFAULT_CACHE_LIMIT, hits: 0 }
    }

    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// At most this many answers are kept; when full the cache starts over.
    pub fn with_cache_limit(mut self, limit: usize) -> Calculator {
        self.cache_limit = limit;
        self
    }

    /// The exact outcome, from the cache when this battle was asked before.
    pub fn exact(&mut self, battle: &Battle, opts: &CalcOptions) -> Result<Arc<Outcome>, CalcError> {
        let key = (*battle, opts.clone());
        if let Some(hit) = self.cache.get(&key) {
            self.hits += 1;
            return Ok(hit.clone());
        }
        let outcome = Arc::new(self.exact_uncached(battle, opts)?);
        if self.cache.len() >= self.cache_limit {
            self.cache.clear();
        }
        self.cache.insert(key, outcome.clone());
        Ok(outcome)
    }

    /// The exact outcome, computed afresh.
    pub fn exact_uncached(&mut self, battle: &Battle, opts: &CalcOptions) -> Result<Outcome, CalcError> {
        battle.check_size()?;
        if let Some(rule) = model::unmodelled(&self.ruleset, battle) {
            return Err(CalcError::NotModelled(rule));
        }
        let (model, _) = BattleModel::new(&self.ruleset, battle, opts.amphibious)?;
        exact::solve(&model, opts, &mut self.workspace)
    }

    /// The Monte Carlo estimate (all cores, through rayon's pool).
    pub fn monte_carlo(&self, battle: &Battle, opts: &CalcOptions, mc: MonteCarlo) -> Result<Outcome, CalcError> {
        montecarlo::check(&self.ruleset, battle, opts, mc)?;
        let (model, standalone) = BattleModel::new(&self.ruleset, battle, opts.amphibious)?;
        montecarlo::run(&self.ruleset, &model, &standalone, opts, mc)
    }

    /// Answers served from the cache so far.
    pub fn cache_hits(&self) -> u64 {
        self.hits
    }

    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }
}

/// The exact outcome of one battle (a one-off [`Calculator`]).
pub fn exact(ruleset: &Arc<Ruleset>, battle: &Battle, opts: &CalcOptions) -> Result<Outcome, CalcError> {
    Calculator::new(ruleset.clone()).exact_uncached(battle, opts)
}

/// The Monte Carlo estimate of one battle.
pub fn monte_carlo(ruleset: &Arc<Ruleset>, battle: &Battle, opts: &CalcOptions, mc: MonteCarlo) -> Result<Outcome, CalcError> {
    Calculator::new(ruleset.clone()).monte_carlo(battle, opts, mc)
}
