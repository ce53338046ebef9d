//! warboard's rules core: rulesets as data, the game state, actions and
//! their legality, battles, and chance injected from outside. No I/O.
//!
//! An [`Action`] applied to a [`Game`] either succeeds, producing [`Event`]s,
//! or is rejected with a [`RuleError`] that names the rule it breaks; a
//! rejected action leaves the state exactly as it was.

pub mod action;
pub mod battle;
pub mod dice;
pub mod game;
pub mod ids;
pub mod routes;
pub mod ruleset;
pub mod select;
pub mod setup;
pub mod state;

pub use action::{Action, Event, RuleError};
pub use dice::{DiceError, DiceSource, FixedDice, ScriptedDice, SeededDice};
pub use game::Game;
pub use ids::{Domain, PowerId, Side, SpaceId, UnitId, UnitType};
pub use ruleset::{ruleset, Ruleset};
pub use state::{GameState, Phase, Unit};
