//! The messages of the engine protocol: one JSON object per line in each
//! direction (docs/protocol.md).
//!
//! A client sends [`Request`]s: a `cmd` naming the command, the command's
//! fields, and optionally an `id` of its choosing that the engine copies
//! into every line it answers with. The engine answers each request with any
//! number of `event` lines and then exactly one `ok` or `error` line
//! ([`Reply`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The protocol version this engine speaks, sent in its `hello` line.
pub const PROTOCOL_VERSION: u32 = 1;

/// One request line: the command and the client's optional `id`.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Any JSON value the client chose; copied into the replies.
    pub id: Option<Value>,
    pub command: Command,
}

/// The commands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Starts a new game.
    New(NewGame),
    /// Loads a save file (replaying and checking it).
    Load {
        path: String,
        /// The powers the client plays; all of them when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        powers: Option<Vec<String>>,
        /// The engine's thinking budget a turn, as in `new`.
        #[serde(default, skip_serializing_if = "is_zero")]
        think: u64,
    },
    /// Writes the game to a save file.
    Save { path: String },
    /// Where the game stands: a summary, and with `full` the whole position.
    State {
        #[serde(default)]
        full: bool,
    },
    /// The legal actions for the current decision, a page at a time.
    Legal {
        #[serde(default)]
        offset: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<usize>,
    },
    /// Applies an action in FORMAT.md's vocabulary. With `seq`, only if the
    /// game is still at that sequence number.
    Apply {
        action: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// Takes back the last action (within the phase, before any dice).
    Undo {},
    /// Supplies dice, in a game whose dice come from the client.
    Dice { values: Vec<u8> },
    /// Ends the session.
    Quit {},
}

impl Command {
    /// The command's name, as it is written in `cmd`.
    pub fn name(&self) -> &'static str {
        match self {
            Command::New(_) => "new",
            Command::Load { .. } => "load",
            Command::Save { .. } => "save",
            Command::State { .. } => "state",
            Command::Legal { .. } => "legal",
            Command::Apply { .. } => "apply",
            Command::Undo {} => "undo",
            Command::Dice { .. } => "dice",
            Command::Quit {} => "quit",
        }
    }

    /// Every command name.
    pub const NAMES: [&'static str; 9] = ["new", "load", "save", "state", "legal", "apply", "undo", "dice", "quit"];
}

/// Where the dice of a new game come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceChoice {
    /// Rolled by the engine from the game's seed.
    #[default]
    Seeded,
    /// Supplied by the client with `dice`.
    Client,
}

fn classic() -> String {
    "classic".into()
}
fn standard() -> String {
    "standard".into()
}

/// The fields of `new`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    #[serde(default = "classic")]
    pub ruleset: String,
    /// Options that differ from the ruleset's defaults (FORMAT.md names).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, Value>,
    /// The seed of a seeded game; the engine picks one when absent and
    /// reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default)]
    pub dice: DiceChoice,
    /// The powers the client plays; all of them when absent. The engine
    /// decides for the others (see docs/protocol.md, "Powers the engine plays").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub powers: Option<Vec<String>>,
    /// FORMAT.md's `setup`: `standard` or `empty`.
    #[serde(default = "standard")]
    pub setup: String,
    /// FORMAT.md's `state`: changes on top of the setup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
    /// The thinking budget a turn of the computer that plays the other
    /// powers, in milliseconds on the reference machine (counted in
    /// simulated turns, so a game repeats for a seed): 0, the default, is
    /// the standard planner; above 0 the planning player (issue 14), as
    /// `warboard play --think`. At most [`MAX_THINK_MS`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub think: u64,
}

/// The largest `think` a client may ask for (ten seconds a turn).
pub const MAX_THINK_MS: u64 = 10_000;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Default for NewGame {
    fn default() -> NewGame {
        NewGame {
            ruleset: classic(),
            options: BTreeMap::new(),
            seed: None,
            dice: DiceChoice::Seeded,
            powers: None,
            setup: standard(),
            state: None,
            think: 0,
        }
    }
}

/// The longest error message a reply carries (bytes).
const MAX_MESSAGE: usize = 1000;

/// One line from the engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum Reply {
    /// The first line of a session.
    Hello { protocol: u32, engine: String },
    /// Something happened in the game (a die roll, a capture, income...).
    Event {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        event: Value,
    },
    /// The request succeeded; `result` depends on the command.
    Ok {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        cmd: String,
        result: Value,
    },
    /// The request failed and changed nothing.
    Error {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cmd: Option<String>,
        code: String,
        message: String,
    },
}

impl Reply {
    /// The reply as one line of JSON (without the newline).
    pub fn to_line(&self) -> String {
        // An error quotes at most a short prefix of what the client sent
        // (issue 16, finding 7): a 100 MB field gives a short line.
        if let Reply::Error { id, cmd, code, message } = self {
            if message.len() > MAX_MESSAGE || cmd.as_ref().is_some_and(|c| c.len() > 64) || id.as_ref().is_some_and(|i| i.to_string().len() > 256) {
                let short = Reply::Error {
                    id: id.clone().filter(|i| i.to_string().len() <= 256),
                    cmd: cmd.as_deref().map(|c| warboard_record::bounded_text(c, 64)),
                    code: code.clone(),
                    message: warboard_record::bounded_text(message, MAX_MESSAGE),
                };
                return serde_json::to_string(&short).unwrap_or_default();
            }
        }
        // A Reply is plain data with string keys: serialising cannot fail.
        serde_json::to_string(self)
            .unwrap_or_else(|e| format!(r#"{{"reply":"error","code":"engine/internal","message":"cannot write a reply: {e}"}}"#))
    }
}
