//! The three loaders of save files (`warboard replay FILE`, `warboard play
//! --load FILE`, the engine's `load`) on files each of them must refuse the
//! same way, within seconds, and on files they read with a caveat (issue 34).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use warboard_record::{DiceMode, Origin, Record, Start};

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warboard-saves-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs warboard with `args` and `stdin`; its status, stdout and stderr.
/// A run that has not ended after `limit` is killed and fails the test: a
/// loader must never block.
fn warboard(args: &[&str], stdin: &str, limit: Duration) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_warboard"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start warboard");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let (mut out, mut err) = (String::new(), String::new());
            child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            return (status.success(), out, err);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("warboard {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What each loader says about the file at `path`: replay's and play's
/// error text, and the engine's error reply.
struct Verdicts {
    replay: (bool, String),
    play: (bool, String),
    engine: Value,
}

fn load_everywhere(path: &Path) -> Verdicts {
    let p = path.to_str().unwrap();
    let limit = Duration::from_secs(30);
    let (ok, out, err) = warboard(&["replay", p], "", limit);
    let replay = (ok, if ok { out } else { err });
    // `play --load` reads the file before it takes over the terminal, so a
    // refused file is reported as plain text.
    let (ok, _, err) = warboard(&["play", "--load", p], "", limit);
    let play = (ok, err);
    let request = json!({"cmd": "load", "path": p}).to_string();
    let (_, out, _) = warboard(&["engine"], &format!("{request}\n{}\n", json!({"cmd": "quit"})), limit);
    let engine = BufReader::new(out.as_bytes())
        .lines()
        .map(|l| serde_json::from_str::<Value>(&l.unwrap()).unwrap())
        .find(|r| r["reply"] == "ok" || r["reply"] == "error")
        .expect("the engine answers the load");
    Verdicts { replay, play, engine }
}

/// Every loader refuses the file, the replay and the engine with `code`,
/// all of them saying `words`.
fn refused_everywhere(path: &Path, code: &str, words: &str) {
    let v = load_everywhere(path);
    assert!(!v.replay.0 && v.replay.1.contains(&format!("[{code}]")) && v.replay.1.contains(words), "replay: {}", v.replay.1);
    assert!(!v.play.0 && v.play.1.contains(words), "play --load: {}", v.play.1);
    assert_eq!(v.engine["reply"], "error", "engine: {}", v.engine);
    assert_eq!(v.engine["code"], code, "engine: {}", v.engine);
    assert!(v.engine["message"].as_str().unwrap_or("").contains(words), "engine: {}", v.engine);
}

/// A client-dice game with dice rolled in a battle and dice still queued.
fn client_dice_game() -> Record {
    let mut record = Record::new(Start::standard("classic", DiceMode::Client)).unwrap();
    record.supply_dice(&[1; 40]).unwrap();
    for a in [
        json!({"type": "end_phase"}),
        json!({"type": "purchase", "units": {"infantry": 2}}),
        json!({"type": "end_phase"}),
        json!({"type": "move", "units": [{"type": "infantry", "count": 5}], "route": ["CAU", "UKR"]}),
        json!({"type": "end_phase"}),
        json!({"type": "resolve", "at": "UKR"}),
    ] {
        record.apply(&a, Origin::Client).unwrap_or_else(|e| panic!("{a}: {e}"));
    }
    assert!(record.queued_dice() > 0 && record.log().iter().any(|e| !e.dice.is_empty()));
    record
}

/// Issue 34, finding 2: a save whose queued dice were edited and whose
/// version was set to 2, its record hash dropped or kept, is refused by
/// every loader as an edit of version 3.
#[test]
fn a_downgraded_save_is_refused_by_every_loader() {
    let mut v: Value = serde_json::from_str(&client_dice_game().to_save_string()).unwrap();
    v["dice"]["queued"] = json!([6, 6, 6]);
    v["version"] = json!(2);
    let kept = temp_path("downgraded-kept.json");
    std::fs::write(&kept, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    refused_everywhere(&kept, "save/record-edited", "edited or damaged");
    v.as_object_mut().unwrap().remove("record_hash");
    let dropped = temp_path("downgraded-dropped.json");
    std::fs::write(&dropped, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    refused_everywhere(&dropped, "save/record-edited", "says version 2");
}

/// Issue 34, finding 2: a real version 1 save replays, and the replay says
/// that what the file held beyond the replay's checks is unverified.
#[test]
fn a_version_1_save_replays_with_a_note() {
    let path = temp_path("v1.json");
    std::fs::write(&path, include_str!("../../record/tests/data/v1-classic-round1-usa.json")).unwrap();
    let (ok, out, err) = warboard(&["replay", path.to_str().unwrap()], "", Duration::from_secs(30));
    assert!(ok, "{err}");
    assert!(out.starts_with("note: this game comes from a version 1 save, which had no record hash"), "{out}");
}

/// Issue 34, finding 12: a FIFO in place of a save is refused by every
/// loader at once (opening one waits for a writer, forever).
#[cfg(unix)]
#[test]
fn a_fifo_is_refused_by_every_loader_without_waiting() {
    let fifo = temp_path("fifo.json");
    let _ = std::fs::remove_file(&fifo);
    if !Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    refused_everywhere(&fifo, "save/unreadable", "not a regular file");
}

/// Issue 34, finding 20: a file that is not text is reported by the replay
/// with its code, as every other refusal is.
#[test]
fn a_file_that_is_not_text_is_refused_with_its_code() {
    let path = temp_path("binary.json");
    std::fs::write(&path, [0xff, 0xfe, 0x00, 0x7b]).unwrap();
    refused_everywhere(&path, "save/not-json", "not UTF-8 text");
}

/// Issue 34, finding 20: an edited save is refused by every loader saying
/// which log entry the edit is in, where the replay can find it.
#[test]
fn an_edited_save_names_the_entry_everywhere() {
    let mut v: Value = serde_json::from_str(&client_dice_game().to_save_string()).unwrap();
    v["log"][1]["events"][0]["Purchased"]["cost"] = json!(1);
    let path = temp_path("edited-entry.json");
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    refused_everywhere(&path, "save/record-edited", "[save/events-mismatch] log[1]");
}
