//! Actions a player (or the engine's default policy) takes, the events they
//! produce, and the error that rejects an action.

use crate::battle::BattleResult;
use crate::ids::{PowerId, SpaceId, UnitId, UnitType};
use crate::state::{Development, Phase, Winner};
use serde::{Deserialize, Serialize};

/// One action, in the vocabulary of FORMAT.md, with units already resolved
/// to their ids (see [`crate::select`] for FORMAT's selectors).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Buy and roll research dice; with the `research_breakthrough =
    /// "choose"` option the development aimed at is named. Anniversary:
    /// `dice` researchers bought (0 allowed), every researcher held rolls,
    /// and a breakthrough rolls on `chart` (1 or 2).
    Research {
        dice: u32,
        development: Option<Development>,
        #[serde(default)]
        chart: Option<u8>,
    },
    /// With the rockets development: an AA gun at `from` fires at the enemy
    /// factory at `at` (combat phase).
    Rocket { from: SpaceId, at: SpaceId },
    /// Removes `count` damage markers from the complex at `at` (Anniversary,
    /// purchase phase).
    Repair { at: SpaceId, count: u32 },
    Purchase { units: Vec<(UnitType, u32)> },
    Move { units: Vec<UnitId>, route: Vec<SpaceId>, transport: Option<UnitId>, bombing: bool },
    EndPhase,
    Battle { at: SpaceId },
    Casualties { units: Vec<UnitId> },
    Continue,
    Retreat { to: Option<SpaceId> },
    Submerge { units: Vec<UnitId>, to: Option<SpaceId> },
    Resolve { at: Option<SpaceId> },
    Place { at: SpaceId, units: Vec<(UnitType, u32)> },
    /// A team gives up (v1: `axis` or `allies`; in Alternative a team of
    /// the `teams` option, FORMAT.md v2 "surrender").
    Surrender { team: String },
    /// The Soviet Patriotic War (Europe): the turn power takes over allied
    /// land and air units at one of its own original industrial complexes.
    Convert { at: SpaceId, units: Vec<UnitId> },
    /// The defender's fighters at `at` intercept the raid declared there
    /// (knob `raid_escorts`); taken by the defending power, in the
    /// attacker's combat phase before any battle is fought.
    Intercept { at: SpaceId, units: Vec<UnitId> },
    /// Alternative `assisting_teammates` (ALT L56): a move that lends the
    /// units to teammate `to` at the route's end.
    Lend { units: Vec<UnitId>, route: Vec<SpaceId>, to: PowerId },
    /// The owner takes back its units at `at` that a teammate uses.
    Reclaim { at: SpaceId, units: Vec<UnitId> },
    /// One nation gives up alone (Alternative, FORMAT.md v2 "surrender"
    /// with `power`): its units leave the board, it is out of the game.
    SurrenderNation { power: PowerId },
}

/// What happened, for logs, replays and user interfaces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    PhaseStarted { power: PowerId, phase: Phase, round: u32 },
    Purchased { power: PowerId, units: Vec<(UnitType, u32)>, cost: i32 },
    Moved { units: Vec<UnitId>, route: Vec<SpaceId> },
    NeutralTaken { at: SpaceId, by: PowerId, fee: i32 },
    Captured { at: SpaceId, by: PowerId, from: Option<PowerId> },
    Liberated { at: SpaceId, for_power: PowerId },
    BankTaken { from: PowerId, to: PowerId, amount: i32 },
    /// Dice rolled, in order. `by`: in a battle, who rolled them, as runs
    /// of the dice in order (empty elsewhere, and in saves made before it
    /// was kept).
    Rolled {
        purpose: String,
        dice: Vec<u8>,
        hits: u32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        by: Vec<DiceRun>,
    },
    Destroyed { units: Vec<(UnitId, UnitType, PowerId)>, at: SpaceId },
    /// A unit with hit points to spare took a hit and has `hits` now.
    Damaged { unit: UnitId, hits: u8 },
    /// Damaged units of a power were repaired at the end of its turn.
    Repaired { power: PowerId, units: Vec<UnitId> },
    Withdrew { units: Vec<UnitId>, from: SpaceId, to: Option<SpaceId> },
    BattleEnded { at: SpaceId, result: BattleResult },
    Bombed { at: SpaceId, victim: PowerId, ipcs: i32 },
    Placed { at: SpaceId, units: Vec<(UnitType, u32)> },
    LostUnplaced { units: Vec<(UnitType, u32)> },
    Developed { power: PowerId, development: String },
    Income { power: PowerId, amount: i32 },
    /// IPCs handed from one power to another, the bank not involved
    /// (Europe's Middle East, EUROPE FAQ: Industry, IPCs, Convoys, and
    /// Production).
    Paid { from: PowerId, to: PowerId, amount: i32 },
    /// Allied units at `at` became `to`'s (the Soviet Patriotic War).
    Converted { at: SpaceId, units: Vec<UnitId>, to: PowerId },
    Victory { winner: Winner, reason: String },
    /// A nation is out of the game (Alternative).
    Eliminated { power: PowerId },
}

/// A run of a battle's dice thrown by units of one type hitting on one
/// number: `count` dice from where the previous run ended, `hits` of them
/// hits (a unit rolling the best of two scores once).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRun {
    pub kind: UnitType,
    pub value: u8,
    pub count: u32,
    pub hits: u32,
}

/// A rejected action: a stable code (for programs) and a sentence naming
/// the rule it breaks (for people), with what the sentence names: spaces
/// as the message names them (their ids), unit types and powers (by id), numbers. A front end in
/// another language words the refusal from its code and these.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RuleError {
    pub code: &'static str,
    pub message: String,
    pub args: Vec<(&'static str, String)>,
}

impl RuleError {
    pub fn new(code: &'static str, message: impl Into<String>) -> RuleError {
        RuleError { code, message: message.into(), args: Vec::new() }
    }

    /// Names something the refusal is about. Keys say what the value is:
    /// `unit…` a unit type id, `power…` a power id, others a space as the message names it (its id)
    /// or a number.
    pub fn with(mut self, key: &'static str, value: impl ToString) -> RuleError {
        self.args.push((key, value.to_string()));
        self
    }
}

/// Shorthand for a rejection.
pub(crate) fn reject<T>(code: &'static str, message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::new(code, message))
}

/// A rejection with what it names (see [`RuleError::with`]).
pub(crate) fn reject_with<T>(code: &'static str, message: impl Into<String>, args: &[(&'static str, &str)]) -> Result<T, RuleError> {
    Err(RuleError { code, message: message.into(), args: args.iter().map(|(k, v)| (*k, v.to_string())).collect() })
}
