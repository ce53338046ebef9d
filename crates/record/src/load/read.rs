//! The header fields of a save (ruleset, options, position, dice, hash)
//! read from their slices of the file, each bounded before anything of it
//! is built (issue 34, finding 4): a field too large for what it is, or of
//! the wrong shape, is refused as malformed, naming it.

use crate::error::LoadError;
use crate::file::{DiceRecord, OptionsRecord, ProofRecord};
use crate::json;
use crate::limits::{MAX_CLIENT_DICE, MAX_NAME_BYTES, MAX_OPTIONS_BYTES, MAX_POSITION_BYTES, MAX_PROOF_HEADER_BYTES, MAX_WITNESSED_BYTES};
use crate::start::Position;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// The header of a save of any version, read.
pub(crate) struct Header {
    pub ruleset: String,
    pub options: OptionsRecord,
    pub position: Position,
    pub dice: DiceRecord,
    pub hash: String,
}

fn malformed(field: &str, e: impl std::fmt::Display) -> LoadError {
    LoadError::Malformed(format!("{field}: {e}"))
}

fn json_error(field: &str) -> impl Fn(serde_json::Error) -> LoadError + '_ {
    move |e| malformed(field, json::message(&e))
}

/// A value of a small type (a number, a short string), read once its
/// compact text is known to be at most `max` bytes.
fn small<T: DeserializeOwned>(field: &str, raw: &RawValue, max: usize) -> Result<T, LoadError> {
    let text = json::canonical_text(raw.get(), max).map_err(json_error(field))?;
    serde_json::from_str(&text).map_err(json_error(field))
}

/// A name: a string of at most [`MAX_NAME_BYTES`].
pub(crate) fn name(field: &str, raw: &RawValue) -> Result<String, LoadError> {
    // Quotes and escapes: a string of the longest name may take this much.
    small(field, raw, MAX_NAME_BYTES * 6 + 2)
}

/// The fields of the object `raw`, each one of `allowed`.
fn fields<'a>(field: &str, raw: &'a RawValue, allowed: &[&str]) -> Result<json::Fields<'a>, LoadError> {
    let fields = json::object(raw.get()).map_err(json_error(field))?;
    if let Some(other) = fields.names().find(|n| !allowed.contains(n)) {
        let expected = allowed.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
        return Err(malformed(field, format!("unknown field `{}`, expected one of {expected}", crate::disk::bounded_text(other, 40))));
    }
    Ok(fields)
}

fn required<'a>(field: &str, fields: &json::Fields<'a>, name: &str) -> Result<&'a RawValue, LoadError> {
    fields.get(name).ok_or_else(|| malformed(field, format!("missing field `{name}`")))
}

pub(crate) fn header(top: &json::Top<'_>) -> Result<Header, LoadError> {
    let field = |name: &str| top.get(name).ok_or_else(|| LoadError::Malformed(format!("missing field `{name}`")));
    Ok(Header {
        ruleset: name("ruleset", field("ruleset")?)?,
        options: options(field("options")?)?,
        position: position(field("position")?)?,
        dice: dice(field("dice")?)?,
        hash: name("hash", field("hash")?)?,
    })
}

/// `options`: the options set by name, at most [`MAX_OPTIONS_BYTES`] of
/// them as compact JSON, and the canonical string of them all.
fn options(raw: &RawValue) -> Result<OptionsRecord, LoadError> {
    let fields = fields("options", raw, &["changed", "canonical"])?;
    let changed = required("options", &fields, "changed")?;
    json::check_compact_len(changed.get(), MAX_OPTIONS_BYTES).map_err(json_error("options.changed"))?;
    let changed: BTreeMap<String, serde_json::Value> = serde_json::from_str(changed.get()).map_err(json_error("options.changed"))?;
    let canonical = small("options.canonical", required("options", &fields, "canonical")?, MAX_OPTIONS_BYTES)?;
    Ok(OptionsRecord { changed, canonical })
}

/// `position`: the setup's name and the changes on it, at most
/// [`MAX_POSITION_BYTES`] as compact JSON.
fn position(raw: &RawValue) -> Result<Position, LoadError> {
    let fields = fields("position", raw, &["setup", "state"])?;
    let setup = name("position.setup", required("position", &fields, "setup")?)?;
    let state = match fields.get("state") {
        Some(state) => {
            json::check_compact_len(state.get(), MAX_POSITION_BYTES).map_err(json_error("position.state"))?;
            // Absent and null are the same: no changes.
            serde_json::from_str::<Option<serde_json::Value>>(state.get()).map_err(json_error("position.state"))?
        }
        None => None,
    };
    Ok(Position { setup, state })
}

/// `dice`: the seed, or the client dice rolled and queued, at most
/// [`MAX_CLIENT_DICE`] together, read die by die.
fn dice(raw: &RawValue) -> Result<DiceRecord, LoadError> {
    let fields = json::object(raw.get()).map_err(json_error("dice"))?;
    let source: String = name("dice.source", required("dice", &fields, "source")?)?;
    match source.as_str() {
        "seeded" => {
            let fields = self::fields("dice", raw, &["source", "seed"])?;
            Ok(DiceRecord::Seeded { seed: small("dice.seed", required("dice", &fields, "seed")?, 32)? })
        }
        "client" => {
            let fields = self::fields("dice", raw, &["source", "rolled", "queued"])?;
            let mut budget = MAX_CLIENT_DICE;
            let rolled = json::dice(required("dice", &fields, "rolled")?.get(), &mut budget).map_err(json_error("dice.rolled"))?;
            let queued = json::dice(required("dice", &fields, "queued")?.get(), &mut budget).map_err(json_error("dice.queued"))?;
            Ok(DiceRecord::Client { rolled, queued })
        }
        "proof" => {
            let fields = self::fields("dice", raw, &["source", "header", "witnessed", "seed"])?;
            let header = required("dice", &fields, "header")?;
            json::check_compact_len(header.get(), MAX_PROOF_HEADER_BYTES).map_err(json_error("dice.header"))?;
            let header = serde_json::from_str(header.get()).map_err(json_error("dice.header"))?;
            let witnessed = match fields.get("witnessed") {
                Some(w) => {
                    json::check_compact_len(w.get(), MAX_WITNESSED_BYTES).map_err(json_error("dice.witnessed"))?;
                    serde_json::from_str(w.get()).map_err(json_error("dice.witnessed"))?
                }
                None => Vec::new(),
            };
            let seed = fields.get("seed").map(|s| small::<String>("dice.seed", s, 66)).transpose()?;
            let seed = seed.map(|s| warboard_proof::bytes::from_hex_n::<32>(&s).map_err(|e| malformed("dice.seed", e))).transpose()?;
            Ok(DiceRecord::Proof(Box::new(ProofRecord { header, witnessed, seed })))
        }
        other => Err(malformed("dice", format!("unknown source `{}`, expected `seeded`, `client` or `proof`", crate::disk::bounded_text(other, 40)))),
    }
}
