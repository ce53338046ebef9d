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

use super::read::Header;
use super::{check_client_dice, each_entry, reserve_log, start_replay, Unverified};
use crate::error::LoadError;
use crate::file::{ActionText, Origin};
use crate::json;
use crate::record::Record;
use crate::start::Start;
use crate::ApplyError;
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// Format 1 knew one ruleset, classic, whose powers were numbered in this
/// turn order.
const V1_POWERS: [&str; 5] = ["russia", "germany", "uk", "japan", "usa"];

#[derive(Deserialize)]
struct EntryV1<'a> {
    action: ActionText,
    #[serde(default)]
    by: Origin,
    /// Old internal shape, recomputed by the replay.
    #[allow(dead_code)]
    resolved: IgnoredAny,
    dice: Vec<u8>,
    /// Old internal shape, recomputed by the replay; read only for what
    /// version 1 never wrote.
    #[serde(borrow)]
    events: &'a RawValue,
}

/// The part of a `Rolled` event a version 1 file never had.
#[derive(Deserialize)]
struct Rolled {
    #[serde(default)]
    by: Vec<IgnoredAny>,
}

/// Whether an entry's events name who threw the dice (after version 3).
fn names_dice_throwers(events: &RawValue) -> bool {
    let mut named = false;
    let _ = json::for_each::<()>(events.get(), |_, event| {
        let rolled = json::object(event.get()).ok().and_then(|e| e.get("Rolled")).and_then(|r| serde_json::from_str::<Rolled>(r.get()).ok());
        named |= rolled.is_some_and(|r| !r.by.is_empty());
        Ok(())
    });
    named
}

pub(super) fn load(header: Header, log: &RawValue, snapshot: &RawValue, unverified: Option<&Unverified>) -> Result<Record, LoadError> {
    if header.ruleset != "classic" {
        return Err(LoadError::Malformed(format!("a version 1 save is of the classic ruleset, not `{}`", header.ruleset)));
    }
    let start = Start { ruleset: header.ruleset, options: header.options.changed, position: header.position, dice: header.dice.mode() };
    let mut record = start_replay(start, &header.dice)?;
    check_options(&record, &header.options.canonical)?;
    reserve_log(&mut record, log)?;
    each_entry(log, |index, text| {
        let old: EntryV1 = serde_json::from_str(text.get()).map_err(|e| LoadError::Malformed(format!("log[{index}]: {}", json::message(&e))))?;
        if let Some(file) = unverified {
            // Battles' dice named who threw them after version 3 began.
            if names_dice_throwers(old.events) {
                return Err(file.dice_named(index));
            }
        }
        // Resolved and applied as in play, and checked on its dice.
        let action = old.action.value();
        let resolved = record.resolve(&action).map_err(|e| LoadError::ActionRejected { index, code: e.code().to_string(), message: e.to_string() })?;
        let applied = record.apply_resolved(&action, resolved, old.by).map_err(|e| match e {
            ApplyError::NeedDice { .. } => LoadError::DiceInconsistent(format!("log[{index}]: the action needs more client dice than the file lists")),
            e => LoadError::ActionRejected { index, code: e.code().to_string(), message: e.to_string() },
        })?;
        if applied.dice != old.dice {
            return Err(LoadError::DiceInconsistent(format!(
                "log[{index}]: the file records the dice {:?}, but the game's dice source gives {:?}",
                old.dice, applied.dice
            )));
        }
        Ok(())
    })?;
    check_client_dice(&record, &header.dice)?;
    check_snapshot(&record, snapshot)?;
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

/// A unit of a version 1 snapshot, as far as it is compared.
#[derive(Deserialize)]
struct UnitV1 {
    id: Option<u64>,
    kind: Option<String>,
    owner: Option<u64>,
    at: Option<u64>,
}

/// A field of the snapshot as `T`, or `None` where it is missing or of
/// another shape (either is a difference from the replay).
fn snapshot_field<T: serde::de::DeserializeOwned>(snap: &json::Fields<'_>, name: &str) -> Option<T> {
    snap.get(name).and_then(|raw| serde_json::from_str(raw.get()).ok())
}

/// The snapshot, in the old shape, compared with the replay on what every
/// version agrees on. Read field by field into small types, never as a
/// tree (issue 34, finding 4).
fn check_snapshot(record: &Record, snapshot: &RawValue) -> Result<(), LoadError> {
    let snap = json::object(snapshot.get()).map_err(|_| mismatch("snapshot"))?;
    let s = record.state();
    let rs = &record.game().ruleset;
    let power_at = |i: Option<u64>| i.and_then(|i| V1_POWERS.get(i as usize)).and_then(|name| rs.power_by_name(name));
    if snapshot_field::<u64>(&snap, "round") != Some(s.round as u64) {
        return Err(mismatch("round"));
    }
    if power_at(snapshot_field(&snap, "turn")) != Some(s.turn) {
        return Err(mismatch("turn"));
    }
    if snapshot_field::<String>(&snap, "phase").as_deref() != Some(s.phase.name()) {
        return Err(mismatch("phase"));
    }
    let ipcs: Vec<i64> = snapshot_field(&snap, "ipcs").ok_or_else(|| mismatch("ipcs"))?;
    for (i, name) in V1_POWERS.iter().enumerate() {
        let p = rs.power_by_name(name).ok_or_else(|| mismatch("ipcs"))?;
        if ipcs.get(i) != Some(&(s.ipcs[p.index()] as i64)) {
            return Err(mismatch("ipcs"));
        }
    }
    let control: Vec<Option<u64>> = snapshot_field(&snap, "control").ok_or_else(|| mismatch("control"))?;
    if control.len() != s.control.len() || control.iter().zip(&s.control).any(|(old, now)| if old.is_none() { now.is_some() } else { power_at(*old) != *now }) {
        return Err(mismatch("control"));
    }
    let units: Vec<UnitV1> = snapshot_field(&snap, "units").ok_or_else(|| mismatch("units"))?;
    let same = units.len() == s.units.len()
        && units.iter().zip(&s.units).all(|(old, u)| {
            old.id == Some(u.id.0 as u64) && old.kind.as_deref() == Some(u.kind.name()) && power_at(old.owner) == Some(u.owner) && old.at == Some(u.at.0 as u64)
        });
    if !same {
        return Err(mismatch("units"));
    }
    Ok(())
}
