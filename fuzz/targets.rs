//! The fuzz targets' bodies, one place for both drivers: cargo-fuzz's
//! (`fuzz_targets/*.rs`, nightly, coverage-guided) and the stable runner
//! (`crates/fuzz-runner`, any toolchain). Each panics on a finding.

use warboard_protocol::{Engine, Reply};
use warboard_record::Record;

/// The engine protocol: any bytes as request lines to one engine session.
/// A panic, or a request answered by anything but events then exactly one
/// `ok` or `error`, is a finding. Returns how many requests were answered
/// `ok` (the stable runner keeps inputs that get further).
pub fn protocol_line(data: &[u8]) -> usize {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new();
    // Start a game first, so that the lines reach the game commands too.
    engine.handle_line(r#"{"cmd": "new", "seed": 1}"#, &mut |_| {});
    let mut answered = 0;
    for line in text.lines() {
        // `save` writes files and `load` reads them: not from fuzz input.
        if line.contains("\"save\"") || line.contains("\"load\"") {
            continue;
        }
        let _ = warboard_protocol::parse_line(line);
        let mut replies = Vec::new();
        engine.handle_line(line, &mut |r| replies.push(r));
        let last = replies.pop().expect("every request is answered");
        assert!(matches!(last, Reply::Ok { .. } | Reply::Error { .. }), "a request ended without ok or error: {line}");
        assert!(replies.iter().all(|r| matches!(r, Reply::Event { .. })), "a reply before the last was not an event: {line}");
        answered += matches!(last, Reply::Ok { .. }) as usize;
    }
    answered
}

/// The save loader: any bytes as a save file. A panic is a finding; so is
/// a file that loads but does not save and load again to the same game.
/// Bytes that are JSON are tried a second time with their hashes made to
/// match (as a forger would), so that the replay and the snapshot checks
/// behind the hash are reached too. Returns how many of the tries loaded
/// (the stable runner keeps inputs that load).
pub fn save_load(data: &[u8]) -> usize {
    let Ok(text) = std::str::from_utf8(data) else { return 0 };
    let mut loaded = loads_and_saves_again(text) as usize;
    if let Ok(mut v) = serde_json::from_str::<serde_json::Value>(text) {
        if v.is_object() {
            if let Ok(state) = serde_json::from_value::<warboard_rules::GameState>(v["snapshot"].clone()) {
                v["hash"] = serde_json::Value::from(warboard_record::state_hash(&state));
            }
            v["record_hash"] = serde_json::Value::from(warboard_record::record_hash(&v));
            loaded += loads_and_saves_again(&v.to_string()) as usize;
        }
    }
    loaded
}

fn loads_and_saves_again(text: &str) -> bool {
    match Record::load(text) {
        Ok(record) => {
            let again = Record::load(&record.to_save_string()).expect("a loaded game saves and loads again");
            assert!(again.state() == record.state(), "a saved game loads again to another state");
            true
        }
        Err(_) => false,
    }
}
