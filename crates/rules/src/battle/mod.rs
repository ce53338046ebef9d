//! The one battle engine of warboard: used by the game, the calculator and
//! the computer players.
//!
//! A battle runs in steps (`rules/classic.md` §5; FORMAT.md, "How a battle
//! runs"): AA fire, shore bombardment (round one only), attacking
//! submarines' first strike, the attacker's fire, the defender's fire, then
//! after each full round the submarines' withdrawals (attacker first, DAAK
//! 4.2(b)) and the attacker's choice to press on or retreat. The engine rolls
//! until a real choice is needed or the battle ends.

pub mod casualties;
mod declare;
mod decisions;
mod ending;
mod fire;
mod raid;
mod round_one;
pub mod standalone;

pub use casualties::{default_casualties, CasualtyChoice};
pub use fire::{firing, targets_of, Firing};
pub use raid::raids_open_to_interceptors;

use crate::action::{reject, Action, RuleError};
use crate::game::Ctx;
use crate::ids::{PowerId, SpaceId, UnitId};
use crate::ruleset::Ruleset;
use crate::state::GameState;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleResult {
    Pending,
    Ongoing,
    AttackerWon,
    DefenderWon,
    Draw,
    Retreated,
}

impl BattleResult {
    pub fn name(self) -> &'static str {
        match self {
            BattleResult::Pending => "pending",
            BattleResult::Ongoing => "ongoing",
            BattleResult::AttackerWon => "attacker_won",
            BattleResult::DefenderWon => "defender_won",
            BattleResult::Draw => "draw",
            BattleResult::Retreated => "retreated",
        }
    }
    pub fn is_over(self) -> bool {
        !matches!(self, BattleResult::Pending | BattleResult::Ongoing)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleKind {
    Land,
    Sea,
    /// A strategic bombing raid on a factory.
    Bombing,
}

/// The side that decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleSide {
    Attacker,
    Defender,
}

impl BattleSide {
    pub fn other(self) -> BattleSide {
        match self {
            BattleSide::Attacker => BattleSide::Defender,
            BattleSide::Defender => BattleSide::Attacker,
        }
    }
}

/// The steps of a round, in order (FORMAT.md: "AA fire, then (round one
/// only) shore bombardment, then first strikes, then the attacker's and the
/// defender's fire").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    AaFire,
    Bombard,
    /// The attacker's first strike (classic: attacking submarines).
    SubStrike,
    /// The defender's first strike (Anniversary: defending submarines).
    DefenderStrike,
    AttackerFire,
    DefenderFire,
    EndRound,
    AttackerSubs,
    DefenderSubs,
    PressOrRetreat,
    /// Before the round's dice (knob `submarine_escape`): the attacker's
    /// submarines may submerge, then the defender's.
    AttackerSubmerge,
    DefenderSubmerge,
}

/// Which of the hit side's units a group's hits may take: every unit of
/// the side in the battle, less those these flags rule out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Targets {
    /// Aircraft only (AA fire).
    pub only_air: bool,
    /// No aircraft (submarine hits, `rules/classic.md` §5).
    pub no_air: bool,
    /// No submarines (aircraft without an anti-submarine unit of their side
    /// in the battle, where the ruleset says so: Europe and Anniversary).
    pub no_submarines: bool,
}

impl Targets {
    /// Whether hits with these targets may take a unit of this type.
    pub fn admit(&self, st: &crate::ruleset::UnitStats) -> bool {
        !((self.only_air && !st.is_air()) || (self.no_air && st.is_air()) || (self.no_submarines && st.submarine))
    }
    pub const ANY: Targets = Targets { only_air: false, no_air: false, no_submarines: false };
    pub const AIRCRAFT: Targets = Targets { only_air: true, no_air: false, no_submarines: false };
}

/// The hits of one group of firing units and which units they may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HitGroup {
    pub targets: Targets,
    pub hits: u32,
}

/// When units destroyed by a step leave the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// At once: they do not fire (AA fire, the defender's fire).
    Now,
    /// When the first strikes are over: a defending first striker hit by
    /// the attacker's first strike still strikes back.
    AfterFirstStrikes,
    /// At the end of the round: they fire back (DAAK 3.5(a)).
    EndOfRound,
}

/// Hits waiting for their casualties to be chosen: one step's fire, in
/// groups whose hits may take different units.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PendingHits {
    pub chooser: BattleSide,
    pub groups: Vec<HitGroup>,
    pub removal: Removal,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Battle {
    pub at: SpaceId,
    pub attacker: PowerId,
    pub kind: BattleKind,
    pub result: BattleResult,
    /// The space each attacking unit entered the battle from, and the spaces
    /// its declared route passed (DAAK 4.1(b): retreats go to one of them).
    pub came_from: Vec<SpaceId>,
    /// The zones attacking ships entered from (DAAK 4.2(c)).
    pub ships_came_from: Vec<SpaceId>,
    pub round: u32,
    pub stage: Stage,
    pub pending: Option<PendingHits>,
    /// Defenders hit this round who still fire back (DAAK 3.5(a)).
    pub dying: Vec<UnitId>,
    /// Defenders hit by the attacker's first strike, out once the
    /// defender's first strike has fired.
    #[serde(default)]
    pub struck: Vec<UnitId>,
    pub amphibious: bool,
}

/// A decision a battle is waiting for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// `hits` units must be chosen among `candidates`, as `choice` allows.
    Casualties { side: BattleSide, hits: u32, candidates: Vec<UnitId>, choice: casualties::CasualtyChoice },
    AttackerSubmarines,
    DefenderSubmarines,
    PressOrRetreat,
}

/// The battle waiting for a decision, if any.
pub fn current(s: &GameState) -> Option<usize> {
    s.battles.iter().position(|b| b.result == BattleResult::Ongoing)
}

/// The power whose decision a battle waits for, if any.
pub fn awaiting(_rs: &Ruleset, s: &GameState) -> Option<PowerId> {
    let b = &s.battles[current(s)?];
    let defender = || {
        s.control[b.at.index()]
            .filter(|p| !s.allied(*p, b.attacker))
            .or_else(|| s.units.iter().find(|u| u.at == b.at && !s.allied(u.owner, b.attacker)).map(|u| u.owner))
            .unwrap_or(b.attacker)
    };
    Some(match b.stage {
        Stage::DefenderSubs | Stage::DefenderSubmerge => defender(),
        _ => match &b.pending {
            Some(PendingHits { chooser: BattleSide::Defender, .. }) => defender(),
            _ => b.attacker,
        },
    })
}

/// The decision the current battle waits for.
pub fn decision(rs: &Ruleset, s: &GameState) -> Option<(usize, Decision)> {
    let i = current(s)?;
    let b = &s.battles[i];
    let d = match (&b.pending, b.stage) {
        (Some(p), _) => {
            let choice = casualties::CasualtyChoice::of(rs, s, b, p.chooser, &p.groups);
            Decision::Casualties { side: p.chooser, hits: choice.hits(), candidates: choice.candidates(), choice }
        }
        (None, Stage::AttackerSubs | Stage::AttackerSubmerge) => Decision::AttackerSubmarines,
        (None, Stage::DefenderSubs | Stage::DefenderSubmerge) => Decision::DefenderSubmarines,
        _ => Decision::PressOrRetreat,
    };
    Some((i, d))
}

/// Battle actions: `battle`, `casualties`, `continue`, `retreat`, `submerge`,
/// `resolve`.
pub(crate) fn act(ctx: &mut Ctx<'_>, action: &Action) -> Result<(), RuleError> {
    match action {
        Action::Battle { at } => {
            let i = start(ctx, *at)?;
            fire::run(ctx, i, false)
        }
        Action::Resolve { at } => {
            let i = match at {
                Some(at) => start(ctx, *at)?,
                None => match current(ctx.s) {
                    Some(i) => i,
                    None => return reject("battle/none", "no battle is being fought; name one with `at`"),
                },
            };
            fire::run(ctx, i, true)
        }
        Action::Casualties { units } => decisions::casualties(ctx, units),
        Action::Continue => decisions::press_on(ctx),
        Action::Retreat { to } => decisions::retreat(ctx, *to),
        Action::Submerge { units, to } => decisions::submerge(ctx, units, *to),
        _ => unreachable!(),
    }
}

/// Starts the battle at `at` (or finds it, if it is the one being fought).
fn start(ctx: &mut Ctx<'_>, at: SpaceId) -> Result<usize, RuleError> {
    if let Some(i) = current(ctx.s) {
        if ctx.s.battles[i].at == at {
            return Ok(i);
        }
        return reject(
            "battle/another-in-progress",
            format!("the battle at {} must be finished first", ctx.name(ctx.s.battles[i].at)),
        );
    }
    // Under free movement a battle starts wherever the mover's units and
    // enemy units share a space (ALT L44; opposing ships must fight, L32).
    if ctx.rs.options.free_movement && !ctx.s.battles.iter().any(|b| b.at == at && b.result == BattleResult::Pending) {
        let p = ctx.s.turn;
        let mine = ctx.s.units.iter().any(|u| u.at == at && u.mover() == p && u.carried_by.is_none_or(|_| ctx.rs.stats(u.kind).is_air()));
        if mine && ctx.rel().enemy_units(p, at).next().is_some() {
            ctx.declare_battle(at, &[], false);
        }
    }
    let Some(i) = ctx.s.battles.iter().position(|b| b.at == at && b.result == BattleResult::Pending) else {
        return reject("battle/no-battle-there", format!("no battle is waiting to be fought at {}", ctx.name(at)));
    };
    // A landing waits for the sea battle in its transports' zone (DAAK 4.3(c)).
    let attacker = ctx.s.battles[i].attacker;
    for u in ctx.s.units.iter().filter(|u| u.at == at && u.owner == attacker) {
        if let Some(t) = u.landed_from.and_then(|t| ctx.s.unit(t)) {
            if ctx.s.battles.iter().any(|b| b.at == t.at && !b.result.is_over() && b.kind == BattleKind::Sea) {
                return reject("battle/sea-battle-first", format!("the sea battle at {} is fought before the landing from it", ctx.name(t.at)));
            }
        }
    }
    ctx.s.battles[i].result = BattleResult::Ongoing;
    ctx.s.battles[i].round = 1;
    ctx.s.battles[i].stage = Stage::AaFire;
    Ok(i)
}
