//! `warboard conform`: runs rule conformance cases (shared/conformance/
//! FORMAT.md) against the rules core and reports what differed.

/// FORMAT.md's JSON vocabulary: positions (`setup` + `state`) and actions.
/// Shared by the conformance runner and the engine protocol.
pub mod case;
pub mod strict_json;
mod check;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use warboard_rules::Game;

/// The outcome of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub id: String,
    pub path: PathBuf,
    /// `None`: passed; otherwise what went wrong.
    pub failure: Option<String>,
}

/// Runs one case given as JSON text.
pub fn run_case_text(text: &str) -> (String, Option<String>) {
    let case: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (String::new(), Some(format!("not valid JSON: {e}"))),
    };
    let id = case.get("id").and_then(Value::as_str).unwrap_or("").to_string();
    (id, run_case(&case).err())
}

fn run_case(case: &Value) -> Result<(), String> {
    let mut loaded = case::load(case).map_err(|e| format!("cannot be loaded: {e}"))?;
    let steps = steps(case, &loaded.game).map_err(|e| format!("cannot be loaded: {e}"))?;
    for (n, step) in steps.iter().enumerate() {
        let at = |msg: String| format!("step {}: {msg}", n + 1);
        if let Some(action) = case::field(step, "action") {
            let expect = case::field(step, "expect").and_then(Value::as_str).unwrap_or("ok");
            let outcome = try_action(&mut loaded.game, &loaded.names, &mut loaded.dice, action);
            match (expect, outcome) {
                ("ok", Ok(())) => {}
                ("ok", Err(Rejection::Illegal(why))) => return Err(at(format!("expected ok, but it was rejected: {why}"))),
                ("illegal", Err(Rejection::Illegal(_))) => {}
                ("illegal", Ok(())) => return Err(at(format!("expected illegal, but it was accepted: {action}"))),
                (_, Err(Rejection::Broken(why))) => return Err(at(why)),
                (other, _) => return Err(at(format!("unknown expect `{other}`"))),
            }
        }
        if let Some(c) = case::field(step, "check") {
            check::check(&loaded, c).map_err(at)?;
        }
    }
    Ok(())
}

/// The case's steps, every one checked against the ruleset's vocabulary
/// before any is run: a misspelt field makes the whole case unloadable
/// rather than a step that goes wrong, or right, for another reason.
fn steps<'c>(case: &'c Value, game: &Game) -> Result<&'c [Value], String> {
    let steps = case.get("steps").and_then(Value::as_array).ok_or("`steps` must be a list")?;
    let vocabulary = case::Vocabulary::of(&game.ruleset);
    for (n, step) in steps.iter().enumerate() {
        step_shape(&vocabulary, step, &format!("step {}", n + 1))?;
    }
    Ok(steps)
}

fn step_shape(vocabulary: &case::Vocabulary, step: &Value, path: &str) -> Result<(), String> {
    vocabulary.object(step, &[&case::STEP], path)?;
    let within = |e: String| format!("{path}: {e}");
    if let Some(action) = case::field(step, "action") {
        vocabulary.action(action).map_err(within)?;
    }
    match case::field(step, "expect") {
        None => {}
        Some(e) if e == "ok" || e == "illegal" => {}
        Some(e) => return Err(within(format!("`expect` is \"ok\" or \"illegal\", not {e}"))),
    }
    if let Some(c) = case::field(step, "check") {
        check::shape(vocabulary, c).map_err(within)?;
    }
    Ok(())
}

pub(crate) enum Rejection {
    /// The engine refused the action (or the units it names are not there).
    Illegal(String),
    /// The case itself is broken or the dice ran out: the case fails.
    Broken(String),
}

/// Applies one JSON action; a rejected action leaves the game as it was
/// (the engine guarantees it; this checks it too), and gives back any dice
/// it rolled before it was refused.
pub(crate) fn try_action(
    game: &mut Game,
    names: &std::collections::HashMap<String, warboard_rules::UnitId>,
    dice: &mut Box<dyn warboard_rules::DiceSource>,
    action: &Value,
) -> Result<(), Rejection> {
    let a = match case::action(game, names, action) {
        Ok(a) => a,
        Err(case::ParseError::Malformed(e)) => return Err(Rejection::Broken(format!("cannot be loaded: {e}"))),
        Err(case::ParseError::NoSuchUnits(e)) => return Err(Rejection::Illegal(e)),
    };
    // `power` (FORMAT v2): the engine checks that it may act now.
    let by = case::acting_power(game, action).map_err(|e| Rejection::Broken(format!("cannot be loaded: {e}")))?;
    let before = game.state.clone();
    let unrolled = dice.boxed_clone();
    match game.apply_as(by, &a, dice.as_mut()) {
        Ok(_) => Ok(()),
        Err(e) if e.code == "dice/exhausted" => Err(Rejection::Broken(e.message)),
        Err(e) => {
            *dice = unrolled;
            if game.state != before {
                return Err(Rejection::Broken("a rejected action changed the state".into()));
            }
            Err(Rejection::Illegal(format!("[{}] {}", e.code, e.message)))
        }
    }
}

/// Every `*.json` file under the given files or folders, sorted.
pub fn collect_cases(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            entries.sort();
            for e in entries {
                walk(&e, out)?;
            }
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p.to_path_buf());
        } else if !p.exists() {
            return Err(format!("{}: no such file or folder", p.display()));
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        walk(p, &mut out)?;
    }
    Ok(out)
}

/// Runs every case file.
pub fn run_files(files: &[PathBuf]) -> Vec<Outcome> {
    files
        .iter()
        .map(|path| {
            let (id, failure) = match std::fs::read_to_string(path) {
                Ok(text) => run_case_text(&text),
                Err(e) => (String::new(), Some(format!("cannot be read: {e}"))),
            };
            let id = if id.is_empty() { path.file_stem().unwrap_or_default().to_string_lossy().into_owned() } else { id };
            Outcome { id, path: path.clone(), failure }
        })
        .collect()
}

/// Parses an expected-failures file: one case id per line, then the reason;
/// `#` starts a comment.
pub fn parse_expected(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (id, why) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            (id.to_string(), why.trim().to_string())
        })
        .collect()
}
