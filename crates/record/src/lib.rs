//! Save files and replays.
//!
//! A [`Record`] is a game as a log: the start (ruleset, options, position,
//! dice source) and every accepted action, each with the dice it consumed and
//! the events it produced. The game state is always the result of replaying
//! that log, which is what makes a save trustworthy: loading replays it from
//! the start and checks the result against the saved snapshot and its hash,
//! so a damaged or tampered file is rejected with an error that names what is
//! wrong ([`LoadError`]), never loaded as a silently different game.
//!
//! The save format is documented in `docs/saves.md`.

mod dice;
mod disk;
mod error;
mod file;
mod hash;
mod json;
mod limits;
mod load;
mod names;
mod proven;
pub mod narrate;
mod record;
mod start;
mod table_entry;
pub mod testing;
pub mod write;

pub use dice::{fresh_seed, DiceMode};
pub use disk::{bounded_text, read_save, write_save, write_save_with, DiskError, MAX_SAVE_BYTES};
pub use error::{ApplyError, LoadError, StartError, UndoError};
pub use file::{ActionText, Entry, Origin, FORMAT_MARKER, FORMAT_VERSION};
pub use hash::{record_hash, state_digest, state_hash};
pub use limits::{MAX_ACTION_BYTES, MAX_CLIENT_DICE, MAX_NAME_BYTES, MAX_NUMBER, MAX_OPTIONS_BYTES, MAX_POSITION_BYTES, MAX_POSITION_UNITS};
pub use names::{parse_unit_name, unit_name};
pub use proven::ProofSummary;
pub use record::{Record, UNDO_POLICY};
pub use start::{Position, Start};
pub use table_entry::{Approved, Change, ClockEvent, CorrectionStep, Corrections, TableEntry, TABLE_SEAT};
pub use write::action_to_format;
