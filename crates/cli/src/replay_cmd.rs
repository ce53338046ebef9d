//! `warboard replay FILE`: a save file's game told turn by turn, from its
//! log's events. The file is loaded (replayed and checked) first, so a
//! damaged file is reported, not narrated.

use std::path::Path;
use warboard_record::{narrate, Record};

/// The narration, or why the file cannot be replayed.
pub fn run(path: &Path) -> Result<String, String> {
    let text = warboard_record::read_save(path).map_err(|e| e.to_string())?;
    let record = Record::load(&text).map_err(|e| warboard_record::bounded_text(&format!("{}: [{}] {e}", path.display(), e.code()), 1000))?;
    let mut out = String::new();
    for line in narrate::narrate(&record) {
        out.push_str(&line);
        out.push('\n');
    }
    let s = record.state();
    let rs = &record.game().ruleset;
    let outcome = match &s.winner {
        Some(w) => format!("the {} have won", w.describe(|p| rs.power(p).id.clone())),
        None => format!("round {}, {}'s turn, {} phase", s.round, rs.powers[s.turn.index()].id, s.phase.name().replace('_', " ")),
    };
    out.push_str(&format!("\n{} actions; the game stands at: {outcome}\n", record.log().len()));
    Ok(out)
}
