//! Fuzz smoke tests for the save loader, run by `cargo test`: random bytes,
//! byte-level damage to a real save, and random changes to the numbers and
//! strings inside it never make the loader panic, and whatever it accepts
//! is a game that saves again. (The cargo-fuzz target `save_load` in
//! `fuzz/` explores the same entry point for longer; see fuzz/README.md.)

mod common;

use common::random_game;
use proptest::prelude::*;
use serde_json::Value;
use std::sync::OnceLock;
use warboard_record::{state_hash, DiceMode, Record};
use warboard_rules::GameState;

fn sample_save() -> &'static str {
    static SAVE: OnceLock<String> = OnceLock::new();
    SAVE.get_or_init(|| random_game(11, 400, DiceMode::Seeded { seed: 11 }).to_save_string())
}

/// Loading never panics; an accepted file saves again and loads again.
fn load_survives(text: &str) -> Result<(), TestCaseError> {
    if let Ok(record) = Record::load(text) {
        let again = record.to_save_string();
        let reloaded = Record::load(&again).map_err(|e| TestCaseError::fail(format!("a loaded game does not reload: {e}")))?;
        prop_assert!(reloaded.state() == record.state());
    }
    Ok(())
}

/// Every leaf of a JSON value, by path, for targeted changes.
fn leaves(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            path.push(k.clone());
            leaves(x, path, out);
            path.pop();
        }),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
            path.push(i.to_string());
            leaves(x, path, out);
            path.pop();
        }),
        _ => out.push(path.clone()),
    }
}

fn leaf_mut<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match v {
        Value::Object(m) => m.get_mut(k).unwrap(),
        Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
        _ => unreachable!("a path leads through containers"),
    })
}

/// The nearest char boundary at or before `i`.
fn char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn replacement(choice: u8, n: u64) -> Value {
    match choice % 6 {
        0 => Value::from(n % 8),
        1 => Value::from(n),
        2 => Value::from(-(n as i64 % 1000)),
        3 => Value::from("GER"),
        4 => Value::Null,
        _ => Value::from(format!("u{}", n % 300)),
    }
}

/// The number of cases: `PROPTEST_CASES` when set (for a longer smoke run),
/// else the given number.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        load_survives(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn damaged_bytes_never_panic(at in any::<prop::sample::Index>(), len in 0usize..64, junk in "[ -~]{0,8}") {
        let text = sample_save();
        let i = at.index(text.len());
        let end = (i + len).min(text.len());
        let (i, end) = (char_boundary(text, i), char_boundary(text, end));
        let damaged = format!("{}{}{}", &text[..i], junk, &text[end..]);
        load_survives(&damaged)?;
    }
}

proptest! {
    // Each case replays a whole game: fewer, but each aims at the checks
    // behind the parser (actions, dice, events, snapshot).
    #![proptest_config(ProptestConfig { cases: cases(128), .. ProptestConfig::default() })]

    #[test]
    fn changed_values_never_panic(pick in any::<prop::sample::Index>(), choice in any::<u8>(), n in any::<u64>(), rehash in any::<bool>()) {
        let mut v: Value = serde_json::from_str(sample_save()).unwrap();
        let mut paths = Vec::new();
        leaves(&v, &mut Vec::new(), &mut paths);
        let path = pick.get(&paths).clone();
        *leaf_mut(&mut v, &path) = replacement(choice, n);
        if rehash {
            // Keep the hash in step with an edited snapshot, so that the
            // replay and the snapshot comparison are reached.
            if let Ok(state) = serde_json::from_value::<GameState>(v["snapshot"].clone()) {
                v["hash"] = Value::from(state_hash(&state));
            }
            v["record_hash"] = Value::from(warboard_record::record_hash(&v));
        }
        load_survives(&v.to_string())?;
    }
}
