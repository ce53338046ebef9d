//! The save file on disk: its fields, and the layout it is written in.

use crate::dice::DiceMode;
use crate::start::Position;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::BTreeMap;
use warboard_rules::{Action, Event, GameState};

/// The value of a save file's `format` field.
pub const FORMAT_MARKER: &str = "warboard-save";
/// The save format this warboard writes. It also reads every earlier one
/// (`load.rs`, "Older versions"): a player's save is never refused because
/// the engine moved on.
pub const FORMAT_VERSION: u64 = 4;

/// Who made an action: the client, or the engine deciding for a power the
/// client does not control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    #[default]
    Client,
    Engine,
}

impl Origin {
    fn is_client(&self) -> bool {
        *self == Origin::Client
    }
}

/// An action in FORMAT.md's vocabulary, kept as its compact JSON text.
///
/// A long game's log holds tens of thousands of actions; as JSON trees they
/// took five times the save file's size in memory, as text about a tenth
/// of that (issue 16, finding 7: memory while loading a few times the
/// file's size). Read it with [`ActionText::value`] where a tree is needed.
#[derive(Clone, Debug)]
pub struct ActionText(Box<RawValue>);

impl ActionText {
    pub fn new(action: &Value) -> ActionText {
        // A `Value` always serialises (string keys, finite numbers).
        ActionText(serde_json::value::to_raw_value(action).expect("a JSON value serialises"))
    }
    /// The action as a JSON tree.
    pub fn value(&self) -> Value {
        serde_json::from_str(self.0.get()).unwrap_or(Value::Null)
    }
    /// The compact JSON text, keys sorted.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }
}

impl PartialEq for ActionText {
    fn eq(&self, other: &ActionText) -> bool {
        self.as_str() == other.as_str()
    }
}

impl std::fmt::Display for ActionText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ActionText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ActionText {
    /// Read as its slice of the file and written back compact, keys sorted,
    /// as it is read: the same action laid out differently in a file is the
    /// same text, and no JSON tree of it is built (issue 34, finding 4). An
    /// action longer than [`crate::MAX_ACTION_BYTES`] is refused unread.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ActionText, D::Error> {
        use serde::de::Error;
        let raw: &'de RawValue = Deserialize::deserialize(d)?;
        let text = crate::json::canonical_text(raw.get(), crate::limits::MAX_ACTION_BYTES)
            .map_err(|e| D::Error::custom(format!("the action is {}", crate::json::message(&e))))?;
        RawValue::from_string(text).map(ActionText).map_err(D::Error::custom)
    }
}

/// One accepted action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The action in FORMAT.md's vocabulary, as it was given.
    pub action: ActionText,
    #[serde(default, skip_serializing_if = "Origin::is_client")]
    pub by: Origin,
    /// The rules-core action it was resolved to (selectors turned into
    /// units); `None` for a table entry, which the rules core never sees
    /// (`table_entry.rs`: the host's clock notes, corrections).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<Action>,
    /// The dice it consumed, in order.
    pub dice: Vec<u8>,
    /// What happened.
    pub events: Vec<Event>,
    /// In a proven game (dice source `proof`), the entry's link in the
    /// signed chain: who signed it, for which position, the server's
    /// receipt and the beacon round (docs/pbem.md, "In a save").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<Box<warboard_proof::LinkProof>>,
}

/// The options of a saved game: those set by name, and all of them as the
/// ruleset's canonical string (which a load checks, so that a change of the
/// ruleset's defaults cannot silently change an old game).
/// Read field by field, with bounds (`load/read.rs`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct OptionsRecord {
    pub changed: BTreeMap<String, Value>,
    pub canonical: String,
}

/// The dice of a saved game: the seed, or every client die. Read field by
/// field, with bounds (`load/read.rs`): serde's reading of a tagged enum
/// would hold the whole object, every die, as a tree first.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub(crate) enum DiceRecord {
    Seeded {
        seed: u64,
    },
    Client {
        /// Every die consumed, in order (the entries' `dice`, joined).
        rolled: Vec<u8>,
        /// Dice supplied and not yet used.
        queued: Vec<u8>,
    },
    /// Each entry's dice come from its link (`Entry::proof`); the chain's
    /// header, the receipts seats collected apart from it, and the host's
    /// seed once revealed.
    Proof(Box<ProofRecord>),
}

/// A proven game's chain, less its links (which stand in the log).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProofRecord {
    pub header: warboard_proof::Header,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub witnessed: Vec<warboard_proof::SignedReceipt>,
    #[serde(with = "warboard_proof::bytes::hex_opt", default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<[u8; 32]>,
}

impl DiceRecord {
    pub fn mode(&self) -> DiceMode {
        match self {
            DiceRecord::Seeded { seed } => DiceMode::Seeded { seed: *seed },
            DiceRecord::Client { .. } => DiceMode::Client,
            DiceRecord::Proof(_) => DiceMode::Proof,
        }
    }
}

/// A save file as written.
pub(crate) struct SaveFile<'a> {
    pub ruleset: &'a str,
    pub options: OptionsRecord,
    pub position: &'a Position,
    pub dice: DiceRecord,
    pub log: &'a [Entry],
    pub snapshot: &'a GameState,
    pub hash: String,
    /// [`crate::Record::migrated_from`]: written as `migrated_from` when set.
    pub migrated_from: Option<u64>,
}

/// The top-level fields a save may have.
pub(crate) const FIELDS: [&str; 11] = ["format", "version", "migrated_from", "ruleset", "options", "position", "dice", "log", "snapshot", "hash", "record_hash"];

/// Compact JSON of a value that always serialises (plain data, string keys).
fn compact<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

/// Writes a save file: the header fields one per line, then one line per
/// log entry (so that saves diff well and a damaged entry is easy to find),
/// then the snapshot and its hash. The same game always gives the same
/// bytes.
pub(crate) fn render(f: &SaveFile<'_>) -> String {
    let mut out = String::new();
    out.push_str("{\n");
    out.push_str(&format!("  \"format\": {},\n", compact(&FORMAT_MARKER)));
    out.push_str(&format!("  \"version\": {FORMAT_VERSION},\n"));
    if let Some(v) = f.migrated_from {
        out.push_str(&format!("  \"migrated_from\": {v},\n"));
    }
    out.push_str(&format!("  \"ruleset\": {},\n", compact(&f.ruleset)));
    out.push_str(&format!("  \"options\": {},\n", compact(&f.options)));
    out.push_str(&format!("  \"position\": {},\n", compact(f.position)));
    out.push_str(&format!("  \"dice\": {},\n", compact(&f.dice)));
    if f.log.is_empty() {
        out.push_str("  \"log\": [],\n");
    } else {
        out.push_str("  \"log\": [\n");
        for (i, e) in f.log.iter().enumerate() {
            let sep = if i + 1 == f.log.len() { "" } else { "," };
            out.push_str(&format!("    {}{sep}\n", compact(e)));
        }
        out.push_str("  ],\n");
    }
    out.push_str(&format!("  \"snapshot\": {},\n", compact(f.snapshot)));
    // The whole save's hash is over the file as JSON without its own field:
    // the object is closed, hashed field by field and entry by entry as the
    // loader does (no JSON tree of the whole game, no copy of the text),
    // then reopened for the field.
    out.push_str(&format!("  \"hash\": {}\n}}", compact(&f.hash)));
    let fields = crate::json::top(&out, &FIELDS).ok();
    let record = fields.and_then(|top| crate::hash::record_hash_of_fields(top.fields.iter().copied()).ok()).unwrap_or_default();
    out.truncate(out.len() - "\n}".len());
    out.push_str(&format!(",\n  \"record_hash\": {}\n", compact(&record)));
    out.push_str("}\n");
    out
}
