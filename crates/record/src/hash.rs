//! The snapshot's hash: SHA-256 of the game state's compact JSON.

use sha2::{Digest, Sha256};
use warboard_rules::GameState;

/// `sha256:` and the hex digest of the state's compact JSON serialisation
/// (fields in declaration order, maps sorted: the same state always gives
/// the same text).
pub fn state_hash(state: &GameState) -> String {
    // Serialising a GameState cannot fail: its maps have string-like keys
    // (unit types, power and space indices) and it holds no floats.
    let bytes = serde_json::to_vec(state).unwrap_or_default();
    let digest = Sha256::digest(&bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}
