//! Loading a save file: parse it in stages, rebuild the start, replay the
//! log through the same path as live play, and check every recorded fact
//! (the resolved actions, the dice, the events, the snapshot and its hash)
//! against what the replay does. The first fact that disagrees is the error.

use crate::error::LoadError;
use crate::file::{DiceRecord, Entry, FIELDS, FORMAT_MARKER, FORMAT_VERSION};
use crate::json;

mod read;
mod v1;
use crate::hash::state_hash;
use crate::record::Record;
use crate::start::Start;
use crate::ApplyError;
use read::Header;
use serde_json::value::RawValue;
use serde_json::Value;
use warboard_rules::{Event, GameState};

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

/// The fewest bytes a log entry takes (`{"action":{"type":"continue"},
/// "resolved":"Continue","dice":[],"events":[]}` is 72): room for more
/// entries than the log's text could hold is never taken.
const MIN_ENTRY_BYTES: usize = 64;

pub(crate) fn load(text: &str) -> Result<Record, LoadError> {
    // The save's fields as slices of the text, each read with bounds and
    // the log entry by entry (issue 34, finding 4): memory stays a few
    // times the file's size whatever it holds.
    let top = json::top(text, &FIELDS).map_err(json_error)?;
    let version = check_header(&top)?;
    if let Some(k) = &top.unknown {
        return Err(LoadError::Malformed(format!("unknown field `{k}`, expected one of {}", FIELDS.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", "))));
    }
    if let Some(k) = top.twice {
        return Err(LoadError::Malformed(format!("the field `{k}` is given twice")));
    }
    // Format 3 hashes the whole file: an edit anywhere (queued dice, who
    // made an action, options) is refused before anything is replayed. A
    // file that carries a record hash, whatever its version, is checked
    // as version 3; so is one that says version 1 or 2 but holds what only
    // version 3 writes (issue 34, finding 2: changing the version must not
    // switch the check off).
    let unverified = if version >= 3 || top.get("record_hash").is_some() {
        match check_record_hash(&top) {
            Ok(()) => None,
            Err(LoadError::RecordEdited { recorded, computed, found }) => {
                // The hash says only that something changed. The replay's
                // own checks, run all the same, may say where (issue 34,
                // finding 20); what they cannot see is named instead.
                let found = match load_fields(&top, version, None) {
                    // A proven game's chain says more than the hash: which
                    // signature no longer verifies.
                    Err(e @ LoadError::Proof { .. }) => return Err(e),
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
        let old = Unverified { version, computed: crate::hash::record_hash_of_fields(top.fields.iter().copied())? };
        if let Some(shape) = later_shape(version, &top)? {
            return Err(old.later_shape(&shape));
        }
        Some(old)
    };
    load_fields(&top, version, unverified.as_ref())
}

/// The rest of a load, the header and hashes checked: the fields read,
/// the log replayed and compared.
fn load_fields(top: &json::Top<'_>, version: u64, unverified: Option<&Unverified>) -> Result<Record, LoadError> {
    let migrated_from = match unverified {
        Some(old) => Some(old.version),
        None => top.get("migrated_from").map(read_migrated_from).transpose()?,
    };
    let field = |name: &str| top.get(name).ok_or_else(|| LoadError::Malformed(format!("missing field `{name}`")));
    let header = read::header(top)?;
    let (log, snapshot) = (field("log")?, field("snapshot")?);
    let mut record = if version == 1 {
        v1::load(header, log, snapshot, unverified)?
    } else {
        let snapshot: GameState = serde_json::from_str(snapshot.get()).map_err(|e| LoadError::Malformed(format!("snapshot: {}", json::message(&e))))?;
        load_entries(header, log, snapshot, unverified)?
    };
    record.set_migrated_from(migrated_from);
    Ok(record)
}

/// The whole-record hash of a version 3 file (or one checked as version 3)
/// is the one it records.
fn check_record_hash(top: &json::Top<'_>) -> Result<(), LoadError> {
    let computed = crate::hash::record_hash_of_fields(top.fields.iter().copied())?;
    let recorded = top.get("record_hash").map(|r| json::canonical_text(r.get(), 256).map(|t| serde_json::from_str::<Value>(&t)));
    match recorded {
        Some(Ok(Ok(Value::String(r)))) if r == computed => Ok(()),
        other => {
            // What is wrong with the record hash itself, if anything, as the
            // start of `found` (the caller adds where the edit is).
            let (recorded, found) = match other {
                Some(Ok(Ok(Value::String(r)))) => (r, String::new()),
                Some(_) => (crate::disk::bounded_text(top.get("record_hash").map_or("", |r| r.get()), 80), "the record hash is not a string; ".to_string()),
                None => ("none".to_string(), "the record hash was removed; ".to_string()),
            };
            Err(LoadError::RecordEdited { recorded, computed, found })
        }
    }
}

/// The first save format with a whole-record hash; 4 added table entries
/// (entries without `resolved`, docs/saves.md).
const FIRST_HASHED_VERSION: u64 = 3;

/// `migrated_from` of a version 3 file: the version without a record hash
/// the game was once loaded from.
fn read_migrated_from(raw: &RawValue) -> Result<u64, LoadError> {
    let version = json::canonical_text(raw.get(), 20).ok().and_then(|t| serde_json::from_str::<u64>(&t).ok());
    match version {
        Some(v) if (1..FIRST_HASHED_VERSION).contains(&v) => Ok(v),
        _ => Err(LoadError::Malformed(format!(
            "migrated_from: {} is not a version without a record hash (1 or 2)",
            crate::disk::bounded_text(raw.get(), 40)
        ))),
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
                "the file says version {}, but {shape}, which only version {FIRST_HASHED_VERSION} and later write: a later save whose version was changed",
                self.version
            ),
        }
    }

    /// Battles' dice named who threw them (`Rolled`'s `by`) only after
    /// version 3 began.
    pub fn check_events(&self, index: usize, events: &[Event]) -> Result<(), LoadError> {
        if events.iter().any(|e| matches!(e, Event::Rolled { by, .. } if !by.is_empty())) {
            return Err(self.dice_named(index));
        }
        Ok(())
    }

    pub fn dice_named(&self, index: usize) -> LoadError {
        self.later_shape(&format!("log[{index}] records who threw which dice"))
    }
}

/// What in the file, if anything, a save of `version` never held: the
/// `migrated_from` field, a ruleset of later date, or a snapshot field the
/// state of that time did not have. Fields of the wrong shape are left for
/// the loader to refuse as malformed.
fn later_shape(version: u64, top: &json::Top<'_>) -> Result<Option<String>, LoadError> {
    if top.get("migrated_from").is_some() {
        return Ok(Some("it carries `migrated_from`".into()));
    }
    if version == 2 {
        let ruleset = top.get("ruleset").and_then(|r| read::name("ruleset", r).ok());
        if let Some(name) = ruleset.filter(|n| !V2_RULESETS.contains(&n.as_str())) {
            return Ok(Some(format!("it is of the ruleset `{}`", crate::disk::bounded_text(&name, 40))));
        }
    }
    let Some(snapshot) = top.get("snapshot").and_then(|r| json::object(r.get()).ok()) else { return Ok(None) };
    let known = |k: &str| V1_STATE_FIELDS.contains(&k) || (version == 2 && V2_ADDED_STATE_FIELDS.contains(&k));
    let later = snapshot.names().find(|k| !known(k)).map(|later| format!("its snapshot has `{}`", crate::disk::bounded_text(later, 40)));
    Ok(later)
}

/// Calls `each` on every log entry, as its slice of the text, one at a
/// time; the number of entries. Nothing of the log is collected.
pub(crate) fn each_entry<'a>(log: &'a RawValue, each: impl FnMut(usize, &'a RawValue) -> Result<(), LoadError>) -> Result<usize, LoadError> {
    json::for_each(log.get(), each).map_err(|stop| match stop {
        json::Stop::Json(e) => LoadError::Malformed(format!("log: {}", json::message(&e))),
        json::Stop::Caller(e) => e,
    })
}

/// Room in the record for the log's entries, taken at once, but never for
/// more than the log's text could hold.
pub(crate) fn reserve_log(record: &mut Record, log: &RawValue) -> Result<(), LoadError> {
    let entries = each_entry(log, |_, _| Ok(()))?;
    record.reserve_log(entries.min(log.get().len() / MIN_ENTRY_BYTES));
    Ok(())
}

/// A save of format 2 or later, its fields read: check the snapshot's
/// hash, replay the log and compare.
fn load_entries(header: Header, log: &RawValue, snapshot: GameState, unverified: Option<&Unverified>) -> Result<Record, LoadError> {
    // The hash guards the snapshot itself; checking it before the replay
    // tells an edited snapshot from an edited log.
    let computed = state_hash(&snapshot);
    if computed != header.hash {
        return Err(LoadError::HashMismatch { recorded: header.hash, computed });
    }
    let start = Start { ruleset: header.ruleset, options: header.options.changed, position: header.position, dice: header.dice.mode() };
    let mut record = start_replay(start, &header.dice)?;
    if let DiceRecord::Proof(chain) = &header.dice {
        record.attach_chain((**chain).clone()).map_err(|error| LoadError::Proof { index: None, error })?;
    }
    // Options declared since the save was written, at their defaults,
    // change nothing in its game (docs/saves.md).
    let rebuilt = record.game().ruleset.options.canonical_as_of(&header.options.canonical);
    if rebuilt != header.options.canonical {
        return Err(LoadError::OptionsMismatch { recorded: header.options.canonical, rebuilt });
    }
    // Each entry is read just before it is replayed, so the log is never in
    // memory twice (issue 16, finding 7).
    reserve_log(&mut record, log)?;
    each_entry(log, |index, text| {
        let entry: Entry = serde_json::from_str(text.get()).map_err(|e| LoadError::Malformed(format!("log[{index}]: {}", json::message(&e))))?;
        if let Some(old) = unverified {
            old.check_events(index, &entry.events)?;
        }
        replay_entry(&mut record, index, entry)
    })?;
    check_client_dice(&record, &header.dice)?;
    record.finish_chain().map_err(|error| LoadError::Proof { index: None, error })?;
    if *record.state() != snapshot {
        return Err(LoadError::SnapshotMismatch { field: first_difference(record.state(), &snapshot) });
    }
    Ok(record)
}

/// The record at the start of the saved game, its client dice queued.
pub(crate) fn start_replay(start: Start, dice: &DiceRecord) -> Result<Record, LoadError> {
    let all_client_dice: Vec<u8> = match dice {
        DiceRecord::Seeded { .. } | DiceRecord::Proof(_) => Vec::new(),
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
fn check_header(top: &json::Top<'_>) -> Result<u64, LoadError> {
    // Each read only if short: a marker or a version is a few bytes.
    let short = |name: &str| top.get(name).map(|raw| json::canonical_text(raw.get(), 64).ok().and_then(|t| serde_json::from_str::<Value>(&t).ok()));
    let shown = |name: &str, v: Option<Value>| v.map(|v| v.to_string()).unwrap_or_else(|| crate::disk::bounded_text(top.get(name).map_or("", |r| r.get()), 40));
    match short("format") {
        Some(Some(Value::String(s))) if s == FORMAT_MARKER => {}
        Some(other) => return Err(LoadError::NotASave(format!("`format` is {}, not \"{FORMAT_MARKER}\"", shown("format", other)))),
        None => return Err(LoadError::NotASave(format!("there is no `format`: \"{FORMAT_MARKER}\" field"))),
    }
    match short("version") {
        Some(Some(v)) if v.as_u64().is_some_and(|v| (1..=FORMAT_VERSION).contains(&v)) => Ok(v.as_u64().unwrap_or(FORMAT_VERSION)),
        Some(v) => Err(LoadError::UnknownVersion { found: shown("version", v), supported: FORMAT_VERSION }),
        None => Err(LoadError::UnknownVersion { found: "none".into(), supported: FORMAT_VERSION }),
    }
}

/// Replays one entry and checks that it does what the file says it did.
fn replay_entry(record: &mut Record, index: usize, entry: Entry) -> Result<(), LoadError> {
    // The written action is resolved again and must give the recorded one:
    // the recorded rules-core action is never applied unchecked (its unit
    // and space numbers could point anywhere in a damaged file).
    let action = entry.action.value();
    let parsed = record.parse(&action).map_err(|e| match e {
        // Units that are not there make the action illegal, as in play.
        ApplyError::NoSuchUnits(_) => LoadError::ActionRejected { index, code: e.code().to_string(), message: e.to_string() },
        _ => LoadError::UnreadableAction { index, detail: e.to_string() },
    })?;
    match (parsed.resolved(), &entry.resolved) {
        (Some(_), None) => return Err(LoadError::Malformed(format!("log[{index}]: a rules action without its `resolved` form"))),
        (None, Some(_)) => return Err(LoadError::Malformed(format!("log[{index}]: a table entry holds no `resolved` action"))),
        _ => {}
    }
    if parsed.resolved() != entry.resolved.as_ref() {
        return Err(LoadError::ActionMismatch { index, written: entry.action.to_string() });
    }
    let applied = match (record.proven(), &entry.proof) {
        (true, Some(proof)) => {
            let link = record.link_for(index, proof, entry.action.as_str());
            record.apply_link_resolved(&action, parsed, entry.by, &link, None, Some(&entry.dice))
        }
        (true, None) => return Err(LoadError::Malformed(format!("log[{index}]: an entry of a proven game without its proof"))),
        (false, Some(_)) => return Err(LoadError::Malformed(format!("log[{index}]: a proof in a game whose dice are not proven"))),
        (false, None) => record.apply_parsed(&action, parsed, entry.by),
    };
    let applied = match applied {
        Ok(applied) => applied,
        Err(ApplyError::Proof(error)) => return Err(LoadError::Proof { index: Some(index), error }),
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

/// The first top-level field of the game state that differs, for the error:
/// compared as the compact text of each field, without JSON trees of the
/// states (a hostile snapshot may be large).
fn first_difference(replayed: &GameState, snapshot: &GameState) -> String {
    let (Ok(a), Ok(b)) = (serde_json::to_string(replayed), serde_json::to_string(snapshot)) else {
        return "the state".into();
    };
    let (Ok(a), Ok(b)) = (json::object(&a), json::object(&b)) else {
        return "the state".into();
    };
    let first = a.names().find(|k| a.get(k).map(RawValue::get) != b.get(k).map(RawValue::get)).map(|k| format!("`{k}`"));
    first.unwrap_or_else(|| "the state".into())
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
