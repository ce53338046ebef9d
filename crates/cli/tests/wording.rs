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
