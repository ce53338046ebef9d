//! Writes the board of each built-in map to `target/board-<ruleset>.svg`,
//! for a person to look at: `cargo run -p warboard-board --example write_svgs`.

use std::path::PathBuf;

fn main() -> Result<(), String> {
    // target/ of the workspace, wherever the example is run from.
    let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target");
    std::fs::create_dir_all(&target).map_err(|e| format!("{}: {e}", target.display()))?;
    for name in ["classic", "europe", "anniversary-1941"] {
        let rs = warboard_rules::ruleset(name).map_err(|e| format!("{name}: {e}"))?;
        let started = std::time::Instant::now();
        let text = warboard_board::svg(&rs)?;
        let took = started.elapsed();
        let path = target.join(format!("board-{name}.svg"));
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{} ({} ms to work out)", path.display(), took.as_millis());
    }
    Ok(())
}
