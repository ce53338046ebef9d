//! `warboard replay FILE`: a save file's game told turn by turn, from its
//! log's events. The file is loaded (replayed and checked) first, so a
//! damaged file is reported, not narrated.

use std::path::Path;
use warboard_table::narrate::{story, LineKind, Story};
use warboard_record::Record;

/// The narration, or why the file cannot be replayed.
pub fn run(path: &Path) -> Result<String, String> {
    // With its code, as a load error is (issue 34, finding 20).
    let text = warboard_record::read_save(path).map_err(|e| format!("[{}] {e}", e.code()))?;
    let record = Record::load(&text).map_err(|e| warboard_record::bounded_text(&format!("{}: [{}] {e}", path.display(), e.code()), 1000))?;
    // Told as the terminal game tells it live (issue 15, point 10): turns
    // as headings, phases under them, what happened under those.
    let Story { lines, stopped, .. } = story(&record);
    let rs = &record.game().ruleset;
    let mut out = String::new();
    // A game that passed through a file without a record hash says so
    // before it is told (issue 34, finding 2).
    if let Some(note) = record.migration_note() {
        out.push_str(&format!("note: {note}\n"));
    }
    if lines.is_empty() {
        let s = record.state();
        out.push_str(&format!("{}: round {}, {}'s turn, {} phase\n", rs.title, s.round, rs.powers[s.turn.index()].id, s.phase.name().replace('_', " ")));
    }
    for line in lines {
        let indent = match line.kind {
            LineKind::Turn => {
                out.push('\n');
                ""
            }
            LineKind::Phase => "  ",
            _ => "    ",
        };
        out.push_str(indent);
        out.push_str(&line.text);
        out.push('\n');
    }
    if let Some(e) = stopped {
        out.push_str(&e);
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
