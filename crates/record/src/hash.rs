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

/// A writer that hashes what it is given.
struct Hashing(Sha256);

impl std::io::Write for Hashing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Hashing {
    fn of_state(state: &GameState) -> Hashing {
        // Serialising a GameState cannot fail: its maps have string-like keys
        // (unit types, power and space indices) and it holds no floats. Hashed
        // as it is written, without a copy of the text.
        let mut h = Hashing(Sha256::new());
        let _ = serde_json::to_writer(&mut h, state);
        h
    }

    fn hex(self) -> String {
        let hex: String = self.0.finalize().iter().map(|b| format!("{b:02x}")).collect();
        format!("sha256:{hex}")
    }
}

/// [`record_hash`] of a save read as its top-level fields (slices of its
/// text): the same bytes `serde_json` would write for the save's tree
/// (keys sorted, compact), hashed as they are read, so that no tree of any
/// part of the save is built and memory stays bounded whatever the file
/// holds (issue 34, finding 4).
pub(crate) fn record_hash_of_fields<'a>(fields: impl IntoIterator<Item = (&'a str, &'a serde_json::value::RawValue)>) -> Result<String, crate::error::LoadError> {
    let mut fields: Vec<_> = fields.into_iter().filter(|(k, _)| *k != "record_hash").collect();
    fields.sort_by_key(|(k, _)| *k);
    let mut h = Hashing(Sha256::new());
    let bad = |name: &str, e: serde_json::Error| crate::error::LoadError::Malformed(format!("{name}: {}", crate::json::message(&e)));
    h.0.update(b"{");
    for (i, (key, raw)) in fields.iter().enumerate() {
        if i > 0 {
            h.0.update(b",");
        }
        serde_json::to_writer(&mut h, key).map_err(|e| bad(key, e))?;
        h.0.update(b":");
        crate::json::canonical(raw.get(), &mut h).map_err(|e| bad(key, e))?;
    }
    h.0.update(b"}");
    Ok(h.hex())
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
    Hashing::of_state(state).hex()
}

/// [`state_hash`]'s 32 bytes: what a proven game's entries are signed for
/// (`state_hash_before`, docs/pbem.md).
pub fn state_digest(state: &GameState) -> [u8; 32] {
    Hashing::of_state(state).0.finalize().into()
}
