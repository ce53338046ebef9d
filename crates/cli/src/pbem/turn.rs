//! Turn files (docs/pbem.md, "Turn files"): a turn's new links, from one
//! player to the others. A file is read whole and checked before anything
//! of it is applied.

use std::path::Path;

use serde::{Deserialize, Serialize};
use warboard_proof::bytes;
use warboard_proof::Link;

pub const TURN_FORMAT: &str = "warboard-turn";
pub const TURN_VERSION: u64 = 1;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnFile {
    pub format: String,
    pub version: u64,
    #[serde(with = "bytes::hex")]
    pub game_id: [u8; 16],
    /// The game's header hash: the file belongs to this game's chain only.
    #[serde(with = "bytes::hex")]
    pub header_hash: [u8; 32],
    /// The first link's number.
    pub from: u64,
    pub links: Vec<Link>,
}

impl TurnFile {
    /// Reads a turn file: a regular file of at most the save files' size,
    /// JSON of this shape and version (`pbem/bad-turn-file` otherwise).
    pub fn read(path: &Path) -> Result<TurnFile, String> {
        let text = warboard_record::read_save(path).map_err(|e| format!("[pbem/bad-turn-file] {e}"))?;
        let file: TurnFile = serde_json::from_str(&text).map_err(|e| format!("[pbem/bad-turn-file] {}: {e}", path.display()))?;
        if file.format != TURN_FORMAT || file.version != TURN_VERSION {
            return Err(format!("[pbem/bad-turn-file] {}: not a {TURN_FORMAT} file of version {TURN_VERSION}", path.display()));
        }
        Ok(file)
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        warboard_record::write_save(path, text.as_bytes()).map_err(|e| format!("[pbem/write] {e}"))
    }
}
