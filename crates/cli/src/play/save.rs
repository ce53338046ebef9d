//! Saving and loading a game in progress: warboard-record's save files
//! (docs/saves.md), the same files `warboard engine` and `warboard replay`
//! read. A load replays the whole log and checks it against the saved
//! snapshot, so a damaged file is refused with the reason, never resumed as
//! a different game.

use std::path::Path;
use warboard_record::Record;

/// Writes the game to `path`, whole or not at all: the previous save there
/// survives any failure (`warboard_record::write_save`).
pub fn save(record: &Record, path: &Path) -> Result<(), String> {
    warboard_record::write_save(path, record.to_save_string().as_bytes()).map_err(|e| format!("cannot save: {e}"))
}

/// Reads (with the one size limit of every loader) and verifies a saved game.
pub fn load(path: &Path) -> Result<Record, String> {
    let text = warboard_record::read_save(path).map_err(|e| e.to_string())?;
    Record::load(&text).map_err(|e| warboard_record::bounded_text(&format!("cannot load {}: {e}", path.display()), 1000))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use warboard_record::{DiceMode, Origin, Start};

    #[test]
    fn a_saved_game_loads_to_the_same_state() {
        let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 9 })).expect("a classic game starts");
        record.apply(&json!({"type": "end_phase"}), Origin::Client).expect("research ends");
        record.apply(&json!({"type": "purchase", "units": {"infantry": 2}}), Origin::Engine).expect("Russia buys");
        let path = std::env::temp_dir().join(format!("warboard-play-save-test-{}.json", std::process::id()));
        save(&record, &path).expect("the temp dir is writable");
        let loaded = load(&path).expect("the file just written loads");
        assert_eq!(loaded.state(), record.state());
        std::fs::write(&path, "{").expect("the temp dir is writable");
        assert!(load(&path).unwrap_err().contains("cut short"));
        let _ = std::fs::remove_file(&path);
        assert!(load(&path).unwrap_err().contains("cannot read"), "{}", load(&path).unwrap_err());
    }
}
