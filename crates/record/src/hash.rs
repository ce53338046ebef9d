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
    record_hash_without_field(&v)
}

/// [`record_hash`] of a save that has no `record_hash` field (no copy).
pub(crate) fn record_hash_without_field(save: &serde_json::Value) -> String {
    // serde_json's maps are sorted by key: the same save, however laid out,
    // gives the same text.
    digest(serde_json::to_vec(save).unwrap_or_default())
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
