//! The warboard engine protocol: one JSON object per line in each direction,
//! the way a GUI drives a chess engine through UCI (docs/protocol.md).
//!
//! [`message`] holds the message types shared with the server and the
//! browser UI; [`parse_line`] reads a request line; [`Engine`] answers
//! requests, streaming events as they happen. The action and state
//! vocabulary is FORMAT.md's.

mod engine;
mod legal;
pub mod message;
mod parse;
mod session;
pub mod vocab;

pub use engine::{Engine, Flow, MAX_QUEUED_DICE};
pub use legal::{legal_page, LegalPage, DEFAULT_LIMIT, MAX_LIMIT};
pub use message::{Command, DiceChoice, NewGame, Reply, Request, PROTOCOL_VERSION};
pub use parse::{parse_line, ProtocolError, MAX_ID, MAX_LINE};
pub use vocab::{event_json, position_json, summary_of, Awaiting, DecisionView, Summary, UnitView};
