//! Loading a save file: parse it in stages, rebuild the start, replay the
//! log through the same path as live play, and check every recorded fact
//! (the resolved actions, the dice, the events, the snapshot and its hash)
//! against what the replay does. The first fact that disagrees is the error.

use crate::error::LoadError;
use crate::file::{DiceRecord, Entry, RawSave, FORMAT_MARKER, FORMAT_VERSION};

mod v1;
use crate::hash::state_hash;
use crate::record::Record;
use crate::start::Start;
use crate::ApplyError;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::BTreeMap;
use warboard_rules::{Event, GameState};

/// The top-level fields a save may have (the file's `deny_unknown_fields`).
const FIELDS: [&str; 11] = ["format", "version", "migrated_from", "ruleset", "options", "position", "dice", "log", "snapshot", "hash", "record_hash"];

/// The game state's fields a version 1 snapshot could hold: the rules
/// core's state while version 1 was written (commits e2b18fb to 3e0f882).
const V1_STATE_FIELDS: [&str; 17] = [
    "round", "turn", "phase", "control", "start_control", "conquered", "ipcs", "units", "next_unit", "purchased", "unplaced", "placed",
    "neutral_fees", "battles", "developments", "winner", "seq",
];
/// The fields version 2 added to them (commits 3e0f882 to cb78b42).
const V2_ADDED_STATE_FIELDS: [&str; 4] = ["order", "done", "teams", "capitals_held"];
/// The rulesets that existed while version 2 was written (version 1 knew
/// classic alone, which its migration checks).
const V2_RULESETS: [&str; 2] = ["classic", "europe"];

pub(crate) fn load(text: &str) -> Result<Record, LoadError> {
    // The save's fields as slices of the text: the log is read entry by
    // entry, so memory stays a few times the file's size (issue 16,
    // finding 7), not a JSON tree of the whole file.
    let top: BTreeMap<String, &RawValue> = serde_json::from_str(text).map_err(json_error)?;
    let header = Value::Object(
        ["format", "version"].iter().filter_map(|k| Some((k.to_string(), serde_json::from_str(top.get(*k)?.get()).ok()?))).collect(),
    );
    let version = check_header(&header)?;
    if let Some(k) = top.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(LoadError::Malformed(format!("unknown field `{}`, expected one of {}", crate::disk::bounded_text(k, 40), FIELDS.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", "))));
    }
    // Format 3 hashes the whole file: an edit anywhere (queued dice, who
    // made an action, options) is refused before anything is replayed. A
    // file that carries a record hash, whatever its version, is checked
    // as version 3; so is one that says version 1 or 2 but holds what only
    // version 3 writes (issue 34, finding 2: changing the version must not
    // switch the check off).
    let unverified = if version >= 3 || top.contains_key("record_hash") {
        match check_record_hash(&top) {
            Ok(()) => None,
            Err(LoadError::RecordEdited { recorded, computed, found }) => {
                // The hash says only that something changed. The replay's
                // own checks, run all the same, may say where (issue 34,
                // finding 20); what they cannot see is named instead.
                let found = match load_fields(text, &top, version, None) {
                    Err(e) => format!("{found}the first difference the replay finds: [{}] {e}", e.code()),
                    Ok(_) => format!(
                        "{found}the replay finds no difference, so the edit is in what only the record hash covers: the queued client dice, who made an action (`by`), `migrated_from`, or the record hash itself"
                    ),
                };
                return Err(LoadError::RecordEdited { recorded, computed, found });
            }
            Err(e) => return Err(e),
        }
    } else {
        let old = Unverified { version, computed: crate::hash::record_hash_of_fields(&top)? };
        if let Some(shape) = later_shape(version, &top) {
            return Err(old.later_shape(&shape));
        }
        Some(old)
    };
    load_fields(text, &top, version, unverified.as_ref())
}

/// The rest of a load, the header and hashes checked: the fields read,
/// the log replayed and compared.
fn load_fields(text: &str, top: &BTreeMap<String, &RawValue>, version: u64, unverified: Option<&Unverified>) -> Result<Record, LoadError> {
    let migrated_from = match unverified {
        Some(old) => Some(old.version),
        None => top.get("migrated_from").map(|raw| read_migrated_from(raw)).transpose()?,
    };
    let mut record = if version == 1 {
        // Old saves are small and migrated through the tree.
        let raw: RawSave = serde_json::from_str(text).map_err(|e| LoadError::Malformed(e.to_string()))?;
        v1::load(raw, unverified)?
    } else {
        let field = |name: &str| top.get(name).copied().ok_or_else(|| LoadError::Malformed(format!("missing field `{name}`")));
        let typed = |name: &'static str| move |e: serde_json::Error| LoadError::Malformed(format!("{name}: {e}"));
        let log: Vec<&RawValue> = serde_json::from_str(field("log")?.get()).map_err(typed("log"))?;
        let raw = RawSave {
            format: String::new(),
            version,
            ruleset: serde_json::from_str(field("ruleset")?.get()).map_err(typed("ruleset"))?,
            options: serde_json::from_str(field("options")?.get()).map_err(typed("options"))?,
            position: serde_json::from_str(field("position")?.get()).map_err(typed("position"))?,
            dice: serde_json::from_str(field("dice")?.get()).map_err(typed("dice"))?,
            log: Vec::new(),
            snapshot: Value::Null,
            hash: serde_json::from_str(field("hash")?.get()).map_err(typed("hash"))?,
            record_hash: None,
            migrated_from: None,
        };
        let snapshot: GameState = serde_json::from_str(field("snapshot")?.get()).map_err(|e| LoadError::Malformed(format!("snapshot: {e}")))?;
        load_entries(raw, &log, snapshot, unverified)?
    };
    record.set_migrated_from(migrated_from);
    Ok(record)
}

/// The whole-record hash of a version 3 file (or one checked as version 3)
/// is the one it records.
fn check_record_hash(top: &BTreeMap<String, &RawValue>) -> Result<(), LoadError> {
    let computed = crate::hash::record_hash_of_fields(top)?;
    match top.get("record_hash").map(|r| serde_json::from_str::<Value>(r.get())) {
        Some(Ok(Value::String(r))) if r == computed => Ok(()),
        other => {
            // What is wrong with the record hash itself, if anything, as the
            // start of `found` (the caller adds where the edit is).
            let (recorded, found) = match other {
                Some(Ok(Value::String(r))) => (r, String::new()),
                Some(Ok(v)) => (crate::disk::bounded_text(&v.to_string(), 80), "the record hash is not a string; ".to_string()),
                _ => ("none".to_string(), "the record hash was removed; ".to_string()),
            };
            Err(LoadError::RecordEdited { recorded, computed, found })
        }
    }
}

/// `migrated_from` of a version 3 file: the version without a record hash
/// the game was once loaded from.
fn read_migrated_from(raw: &RawValue) -> Result<u64, LoadError> {
    match serde_json::from_str::<Value>(raw.get()).ok().and_then(|v| v.as_u64()) {
        Some(v) if (1..FORMAT_VERSION).contains(&v) => Ok(v),
        _ => Err(LoadError::Malformed(format!("migrated_from: {} is not a version before {FORMAT_VERSION}", crate::disk::bounded_text(raw.get(), 40)))),
    }
}

/// A file of version 1 or 2 without a record hash: it loads only as what a
/// warboard of that version could have written, and the game it gives is
/// marked as migrated from it ([`Record::migrated_from`]).
pub(crate) struct Unverified {
    pub version: u64,
    /// The file's record hash as computed, for the error.
    computed: String,
}

impl Unverified {
    /// The file holds `shape`, which its version never wrote: it is a later
    /// save whose version was changed, refused as an edit of version 3.
    pub fn later_shape(&self, shape: &str) -> LoadError {
        LoadError::RecordEdited {
            recorded: "none".into(),
            computed: self.computed.clone(),
            found: format!(
                "the file says version {}, but {shape}, which only version {FORMAT_VERSION} writes: a later save whose version was changed",
                self.version
            ),
        }
    }

    /// Battles' dice named who threw them (`Rolled`'s `by`) only after
    /// version 3 began.
    pub fn check_events(&self, index: usize, events: &[Event]) -> Result<(), LoadError> {
        if events.iter().any(|e| matches!(e, Event::Rolled { by, .. } if !by.is_empty())) {
            return Err(self.later_shape(&format!("log[{index}] records who threw which dice")));
        }
        Ok(())
    }
}

/// What in the file, if anything, a save of `version` never held: the
/// `migrated_from` field, a ruleset of later date, or a snapshot field the
/// state of that time did not have. Fields of the wrong type are left for
/// the loader to refuse as malformed.
fn later_shape(version: u64, top: &BTreeMap<String, &RawValue>) -> Option<String> {
    if top.contains_key("migrated_from") {
        return Some("it carries `migrated_from`".into());
    }
    if version == 2 {
        let ruleset: Option<String> = top.get("ruleset").and_then(|r| serde_json::from_str(r.get()).ok());
        if let Some(name) = ruleset.filter(|n| !V2_RULESETS.contains(&n.as_str())) {
            return Some(format!("it is of the ruleset `{}`", crate::disk::bounded_text(&name, 40)));
        }
    }
    let snapshot: BTreeMap<String, serde::de::IgnoredAny> = top.get("snapshot").and_then(|r| serde_json::from_str(r.get()).ok())?;
    let known = |k: &str| V1_STATE_FIELDS.contains(&k) || (version == 2 && V2_ADDED_STATE_FIELDS.contains(&k));
    let later = snapshot.keys().find(|k| !known(k))?;
    Some(format!("its snapshot has `{}`", crate::disk::bounded_text(later, 40)))
}

/// A save of format 2 or later, its fields read: check the snapshot's
/// hash, replay the log and compare.
fn load_entries(raw: RawSave, log: &[&RawValue], snapshot: GameState, unverified: Option<&Unverified>) -> Result<Record, LoadError> {
    // The hash guards the snapshot itself; checking it before the replay
    // tells an edited snapshot from an edited log.
    let computed = state_hash(&snapshot);
    if computed != raw.hash {
        return Err(LoadError::HashMismatch { recorded: raw.hash, computed });
    }
    let start = Start { ruleset: raw.ruleset, options: raw.options.changed, position: raw.position, dice: raw.dice.mode() };
    let mut record = start_replay(start, &raw.dice)?;
    let rebuilt = record.game().ruleset.options.canonical();
    if rebuilt != raw.options.canonical {
        return Err(LoadError::OptionsMismatch { recorded: raw.options.canonical, rebuilt });
    }
    // Each entry is read just before it is replayed, so the log is never in
    // memory twice (issue 16, finding 7).
    record.reserve_log(log.len());
    for (index, text) in log.iter().enumerate() {
        let entry: Entry = serde_json::from_str(text.get()).map_err(|e| LoadError::Malformed(format!("log[{index}]: {e}")))?;
        if let Some(old) = unverified {
            old.check_events(index, &entry.events)?;
        }
        replay_entry(&mut record, index, entry)?;
    }
    check_client_dice(&record, &raw.dice)?;
    if *record.state() != snapshot {
        return Err(LoadError::SnapshotMismatch { field: first_difference(record.state(), &snapshot) });
    }
    Ok(record)
}

/// The log's entries, in the shape of the file's version; an error names
/// the entry at fault.
/// It consumes the JSON entries: a large save is not held twice.
pub(crate) fn parse_log<T: serde::de::DeserializeOwned>(log: Vec<Value>) -> Result<Vec<T>, LoadError> {
    log.into_iter()
        .enumerate()
        .map(|(i, v)| serde_json::from_value::<T>(v).map_err(|e| LoadError::Malformed(format!("log[{i}]: {e}"))))
        .collect()
}

/// The record at the start of the saved game, its client dice queued.
pub(crate) fn start_replay(start: Start, dice: &DiceRecord) -> Result<Record, LoadError> {
    let all_client_dice: Vec<u8> = match dice {
        DiceRecord::Seeded { .. } => Vec::new(),
        DiceRecord::Client { rolled, queued } => rolled.iter().chain(queued).copied().collect(),
    };
    if let Some(bad) = all_client_dice.iter().find(|d| !(1..=6).contains(*d)) {
        return Err(LoadError::DiceInconsistent(format!("a die shows 1 to 6, not {bad}")));
    }
    Ok(Record::for_replay(start, all_client_dice)?)
}

/// After the replay: the client dice it used and left are the file's.
pub(crate) fn check_client_dice(record: &Record, dice: &DiceRecord) -> Result<(), LoadError> {
    if let DiceRecord::Client { rolled: recorded_rolled, queued: recorded_queued } = dice {
        let (rolled, queued) = record.client_dice();
        if rolled != *recorded_rolled || queued != *recorded_queued {
            return Err(LoadError::DiceInconsistent(format!(
                "the file lists {} client dice as rolled, but the log's actions roll {}",
                recorded_rolled.len(),
                rolled.len()
            )));
        }
    }
    Ok(())
}

/// A JSON syntax error as a load error: a cut-short file, or not JSON (a
/// file that is JSON but not an object is told apart by the header check).
fn json_error(e: serde_json::Error) -> LoadError {
    if e.is_eof() {
        LoadError::Truncated { line: e.line(), column: e.column() }
    } else if e.is_data() {
        LoadError::NotASave("the file is JSON, but not an object".into())
    } else {
        // The message without serde's own "at line L column C" suffix.
        let detail = e.to_string();
        let detail = detail.split(" at line ").next().unwrap_or(&detail).to_string();
        LoadError::NotJson { line: e.line(), column: e.column(), detail }
    }
}

/// The format marker and version, checked before anything else is read: a
/// file of another version may be shaped differently.
fn check_header(value: &Value) -> Result<u64, LoadError> {
    let Some(obj) = value.as_object() else {
        return Err(LoadError::NotASave("the file is JSON, but not an object".into()));
    };
    match obj.get("format") {
        Some(Value::String(s)) if s == FORMAT_MARKER => {}
        Some(other) => return Err(LoadError::NotASave(format!("`format` is {other}, not \"{FORMAT_MARKER}\""))),
        None => return Err(LoadError::NotASave(format!("there is no `format`: \"{FORMAT_MARKER}\" field"))),
    }
    match obj.get("version") {
        Some(v) if v.as_u64().is_some_and(|v| (1..=FORMAT_VERSION).contains(&v)) => Ok(v.as_u64().unwrap()),
        Some(v) => Err(LoadError::UnknownVersion { found: v.to_string(), supported: FORMAT_VERSION }),
        None => Err(LoadError::UnknownVersion { found: "none".into(), supported: FORMAT_VERSION }),
    }
}

/// Replays one entry and checks that it does what the file says it did.
fn replay_entry(record: &mut Record, index: usize, entry: Entry) -> Result<(), LoadError> {
    // The written action is resolved again and must give the recorded one:
    // the recorded rules-core action is never applied unchecked (its unit
    // and space numbers could point anywhere in a damaged file).
    let action = entry.action.value();
    let resolved = record.resolve(&action).map_err(|e| match e {
        // Units that are not there make the action illegal, as in play.
        ApplyError::NoSuchUnits(_) => LoadError::ActionRejected { index, code: e.code().to_string(), message: e.to_string() },
        _ => LoadError::UnreadableAction { index, detail: e.to_string() },
    })?;
    if resolved != entry.resolved {
        return Err(LoadError::ActionMismatch { index, written: entry.action.to_string() });
    }
    let applied = match record.apply_resolved(&action, resolved, entry.by) {
        Ok(applied) => applied,
        Err(ApplyError::NeedDice { .. }) => {
            return Err(LoadError::DiceInconsistent(format!("log[{index}]: the action needs more client dice than the file lists")))
        }
        Err(e) => return Err(LoadError::ActionRejected { index, code: e.code().to_string(), message: e.to_string() }),
    };
    if applied.dice != entry.dice {
        return Err(LoadError::DiceInconsistent(format!(
            "log[{index}]: the file records the dice {:?}, but the game's dice source gives {:?}",
            entry.dice, applied.dice
        )));
    }
    if !same_events(&applied.events, &entry.events) {
        return Err(LoadError::EventsMismatch { index });
    }
    Ok(())
}

/// The first top-level field of the game state that differs, for the error.
fn first_difference(replayed: &GameState, snapshot: &GameState) -> String {
    let (Ok(Value::Object(a)), Ok(Value::Object(b))) = (serde_json::to_value(replayed), serde_json::to_value(snapshot)) else {
        return "the state".into();
    };
    a.iter().find(|(k, v)| b.get(*k) != Some(*v)).map(|(k, _)| format!("`{k}`")).unwrap_or_else(|| "the state".into())
}

/// The replayed events are the recorded ones. Saves made before battles'
/// dice named who threw them record `Rolled` without `by`: those compare
/// without it.
fn same_events(applied: &[Event], recorded: &[Event]) -> bool {
    applied.len() == recorded.len()
        && applied.iter().zip(recorded).all(|(a, r)| match (a, r) {
            (Event::Rolled { purpose, dice, hits, .. }, Event::Rolled { purpose: p, dice: d, hits: h, by }) if by.is_empty() => {
                purpose == p && dice == d && hits == h
            }
            _ => a == r,
        })
}
