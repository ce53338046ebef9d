//! Older versions: saves of format 1, written before rulesets became data
//! (issue 10). Such a file is migrated on load, never refused for a changed
//! option list or a changed shape of the state:
//! - each log entry's `action` (FORMAT.md's vocabulary, which v2 keeps) and
//!   `dice` are replayed and checked as in version 2; its `resolved` and
//!   `events`, written in the rules core's old internal shapes, are not
//!   compared (the replay recomputes both);
//! - the options are checked by the names the file lists: each must still
//!   exist and have the same value (options added since take their
//!   defaults, which are the old behaviour);
//! - the snapshot, in the old shape, is compared with the replay on what
//!   every version agrees on: round, turn, phase, banks, control and every
//!   unit's id, type, owner and space. Its hash was over the old shape and
//!   cannot be recomputed; the replay is what decides the state.
//!
//! Saving the loaded game writes the current version, marked as migrated
//! from version 1 (`migrated_from`) unless the file carried a record hash
//! that checked: a version 1 file's queued dice and `by` marks were never
//! covered by a hash, and a save of the game must not pass them off as if
//! they had been.

use super::{check_client_dice, parse_log, start_replay, Unverified};
use crate::error::LoadError;
use crate::file::{Origin, RawSave};
use crate::ApplyError;
use crate::record::Record;
use crate::start::Start;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Format 1 knew one ruleset, classic, whose powers were numbered in this
/// turn order.
const V1_POWERS: [&str; 5] = ["russia", "germany", "uk", "japan", "usa"];

#[derive(Deserialize)]
struct EntryV1 {
    action: Value,
    #[serde(default)]
    by: Origin,
    #[allow(dead_code)] // old internal shape, recomputed by the replay
    resolved: Value,
    dice: Vec<u8>,
    /// Old internal shape, recomputed by the replay; read only for what
    /// version 1 never wrote.
    events: Value,
}

pub(super) fn load(raw: RawSave, unverified: Option<&Unverified>) -> Result<Record, LoadError> {
    if raw.ruleset != "classic" {
        return Err(LoadError::Malformed(format!("a version 1 save is of the classic ruleset, not `{}`", raw.ruleset)));
    }
    let entries: Vec<EntryV1> = parse_log(raw.log)?;
    let start = Start { ruleset: raw.ruleset, options: raw.options.changed, position: raw.position, dice: raw.dice.mode() };
    let mut record = start_replay(start, &raw.dice)?;
    check_options(&record, &raw.options.canonical)?;
    for (index, old) in entries.into_iter().enumerate() {
        if let Some(file) = unverified {
            // Battles' dice named who threw them after version 3 began.
            let named_dice = |e: &Value| e.get("Rolled").and_then(|r| r.get("by")).and_then(Value::as_array).is_some_and(|by| !by.is_empty());
            if old.events.as_array().is_some_and(|events| events.iter().any(named_dice)) {
                return Err(file.later_shape(&format!("log[{index}] records who threw which dice")));
            }
        }
        // Resolved and applied as in play, and checked on its dice.
        let resolved = record.resolve(&old.action).map_err(|e| LoadError::ActionRejected {
            index,
            code: e.code().to_string(),
            message: e.to_string(),
        })?;
        let applied = record.apply_resolved(&old.action, resolved, old.by).map_err(|e| match e {
            ApplyError::NeedDice { .. } => LoadError::DiceInconsistent(format!("log[{index}]: the action needs more client dice than the file lists")),
            e => LoadError::ActionRejected { index, code: e.code().to_string(), message: e.to_string() },
        })?;
        if applied.dice != old.dice {
            return Err(LoadError::DiceInconsistent(format!(
                "log[{index}]: the file records the dice {:?}, but the game's dice source gives {:?}",
                old.dice, applied.dice
            )));
        }
    }
    check_client_dice(&record, &raw.dice)?;
    check_snapshot(&record, &raw.snapshot)?;
    Ok(record)
}

/// `name=value` pairs of a canonical options string (values are TOML and
/// never contain a comma in format 1: booleans, numbers, plain strings).
fn pairs(canonical: &str) -> BTreeMap<String, String> {
    canonical
        .split(',')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn check_options(record: &Record, recorded: &str) -> Result<(), LoadError> {
    let now = pairs(&record.game().ruleset.options.canonical());
    for (name, value) in pairs(recorded) {
        if now.get(&name) != Some(&value) {
            return Err(LoadError::OptionsMismatch { recorded: recorded.to_string(), rebuilt: record.game().ruleset.options.canonical() });
        }
    }
    Ok(())
}

fn mismatch(field: &str) -> LoadError {
    LoadError::SnapshotMismatch { field: format!("`{field}`") }
}

fn check_snapshot(record: &Record, snap: &Value) -> Result<(), LoadError> {
    let s = record.state();
    let rs = &record.game().ruleset;
    let power_at = |v: &Value| v.as_u64().and_then(|i| V1_POWERS.get(i as usize)).and_then(|name| rs.power_by_name(name));
    if snap["round"].as_u64() != Some(s.round as u64) {
        return Err(mismatch("round"));
    }
    if power_at(&snap["turn"]) != Some(s.turn) {
        return Err(mismatch("turn"));
    }
    if snap["phase"].as_str() != Some(s.phase.name()) {
        return Err(mismatch("phase"));
    }
    for (i, name) in V1_POWERS.iter().enumerate() {
        let p = rs.power_by_name(name).ok_or_else(|| mismatch("ipcs"))?;
        if snap["ipcs"][i].as_i64() != Some(s.ipcs[p.index()] as i64) {
            return Err(mismatch("ipcs"));
        }
    }
    let control = snap["control"].as_array().ok_or_else(|| mismatch("control"))?;
    if control.len() != s.control.len() || control.iter().zip(&s.control).any(|(old, now)| if old.is_null() { now.is_some() } else { power_at(old) != *now }) {
        return Err(mismatch("control"));
    }
    let units = snap["units"].as_array().ok_or_else(|| mismatch("units"))?;
    let same = units.len() == s.units.len()
        && units.iter().zip(&s.units).all(|(old, u)| {
            old["id"].as_u64() == Some(u.id.0 as u64)
                && old["kind"].as_str() == Some(u.kind.name())
                && power_at(&old["owner"]) == Some(u.owner)
                && old["at"].as_u64() == Some(u.at.0 as u64)
        });
    if !same {
        return Err(mismatch("units"));
    }
    Ok(())
}
