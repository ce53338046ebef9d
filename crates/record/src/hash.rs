//! The snapshot's hash: SHA-256 of the game state's compact JSON.

use sha2::{Digest, Sha256};
use warboard_rules::GameState;

/// The hash of a whole save (format 3, `record_hash`): SHA-256 of the
/// compact JSON of the save object without its `record_hash` field, keys
/// sorted. It covers the ruleset, options, position, dice (rolled and
/// queued), every log entry with who made it, the snapshot and its hash:
/// any edit of the file is told apart from a game that replays differently.
pub fn record_hash(save: &serde_json::Value) -> String {
    let mut v = save.clone();
    if let Some(obj) = v.as_object_mut() {
        obj.remove("record_hash");
    }
    // serde_json's maps are sorted by key: the same save, however laid out,
    // gives the same text.
    digest(serde_json::to_vec(&v).unwrap_or_default())
}

/// [`record_hash`] of a save read as its top-level fields: the same bytes
/// `serde_json` would write for the save's tree (keys sorted, compact),
/// hashed as they are made, one log entry at a time, so that no tree of the
/// whole save is built.
pub(crate) fn record_hash_of_fields(fields: &std::collections::BTreeMap<String, &serde_json::value::RawValue>) -> Result<String, crate::error::LoadError> {
    use std::io::Write;
    struct Hasher(Sha256);
    impl Write for Hasher {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.update(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let bad = |name: &str, e: serde_json::Error| crate::error::LoadError::Malformed(format!("{name}: {e}"));
    let mut h = Hasher(Sha256::new());
    let mut first = true;
    h.0.update(b"{");
    for (key, raw) in fields.iter().filter(|(k, _)| k.as_str() != "record_hash") {
        if !first {
            h.0.update(b",");
        }
        first = false;
        serde_json::to_writer(&mut h, key).map_err(|e| bad(key, e))?;
        h.0.update(b":");
        let entries: Option<Vec<&serde_json::value::RawValue>> = if key == "log" { serde_json::from_str(raw.get()).ok() } else { None };
        match entries {
            Some(entries) => {
                h.0.update(b"[");
                for (i, e) in entries.iter().enumerate() {
                    if i > 0 {
                        h.0.update(b",");
                    }
                    let v: serde_json::Value = serde_json::from_str(e.get()).map_err(|e| bad("log", e))?;
                    serde_json::to_writer(&mut h, &v).map_err(|e| bad("log", e))?;
                }
                h.0.update(b"]");
            }
            None => {
                let v: serde_json::Value = serde_json::from_str(raw.get()).map_err(|e| bad(key, e))?;
                serde_json::to_writer(&mut h, &v).map_err(|e| bad(key, e))?;
            }
        }
    }
    h.0.update(b"}");
    let hex: String = h.0.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("sha256:{hex}"))
}

fn digest(bytes: Vec<u8>) -> String {
    let digest = Sha256::digest(&bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// `sha256:` and the hex digest of the state's compact JSON serialisation
/// (fields in declaration order, maps sorted: the same state always gives
/// the same text).
pub fn state_hash(state: &GameState) -> String {
    // Serialising a GameState cannot fail: its maps have string-like keys
    // (unit types, power and space indices) and it holds no floats.
    digest(serde_json::to_vec(state).unwrap_or_default())
}
