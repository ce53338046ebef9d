//! Messages a person reads are sentences with the right plural (issue 15,
//! point 9): no string in the rules core, the record's narrator, the
//! protocol or the terminal game writes "unit(s)" or "hit(s)" and leaves
//! the reader to choose. Comments are not messages and are skipped.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of a line of code (comments cut off first).
fn literals(line: &str) -> Vec<String> {
    let code = match line.trim_start() {
        l if l.starts_with("//") => return Vec::new(),
        _ => line,
    };
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    let mut escaped = false;
    for c in code.chars() {
        match (&mut current, c) {
            (Some(s), _) if escaped => {
                s.push(c);
                escaped = false;
            }
            (Some(_), '\\') => escaped = true,
            (Some(_), '"') => out.push(current.take().unwrap()),
            (Some(s), _) => s.push(c),
            (None, '"') => current = Some(String::new()),
            (None, _) => {}
        }
    }
    out
}

#[test]
fn no_message_leaves_the_plural_to_the_reader() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in ["rules", "record", "protocol", "cli", "calc"] {
        rust_files(&root.join(krate).join("src"), &mut files);
    }
    assert!(files.len() > 20, "the sources are where this test expects them");
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            for lit in literals(line) {
                if lit.contains("(s)") || lit.contains("(es)") || lit.contains("(ies)") {
                    found.push(format!("{}:{}: \"{lit}\"", file.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "messages with a plural left to the reader:\n{}", found.join("\n"));
}

/// The rules' messages that count units or spaces, tried with one and with
/// several (issue 15, point 9): the count and the noun agree.
#[test]
fn counted_messages_agree_with_their_numbers() {
    use serde_json::json;
    use warboard_record::{DiceMode, Origin, Record, Start};
    let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 1 })).unwrap();
    for _ in 0..7 {
        record.apply(&json!({"type": "end_phase"}), Origin::Client).unwrap();
    }
    // Germany's turn: research, then purchase, then its combat move.
    record.apply(&json!({"type": "end_phase"}), Origin::Client).unwrap();
    record.apply(&json!({"type": "end_phase"}), Origin::Client).unwrap();
    let refused = |record: &mut Record, action: serde_json::Value| record.apply(&action, Origin::Client).map(|_| ()).unwrap_err().to_string();
    let two = refused(&mut record, json!({"type": "move", "units": [{"type": "bomber", "count": 2}], "route": ["GER", "EEU"]}));
    assert!(two.contains("there are not 2 bombers") && two.contains("only 1"), "{two}");
    let three = refused(&mut record, json!({"type": "move", "units": [{"type": "infantry", "count": 9}], "route": ["GER", "EEU"]}));
    assert!(three.contains("there are not 9 infantry"), "{three}");
    let one = refused(&mut record, json!({"type": "move", "units": [{"type": "infantry", "count": 1}], "route": ["GER", "EEU", "UKR"]}));
    assert!(one.contains("moves 1 space a turn") && one.contains("has 1 space left"), "{one}");
    let arm = refused(&mut record, json!({"type": "move", "units": [{"type": "armor", "count": 1}], "route": ["GER", "EEU", "UKR", "CAU"]}));
    assert!(arm.contains("moves 2 spaces a turn") && arm.contains("has 2 spaces left"), "{arm}");
}
