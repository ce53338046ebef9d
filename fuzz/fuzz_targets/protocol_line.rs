//! The engine protocol: any bytes as request lines to one engine session.
//! A panic, or a request answered by anything but events then exactly one
//! `ok` or `error`, is a finding.

#![no_main]

use libfuzzer_sys::fuzz_target;
use warboard_protocol::{Engine, Reply};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new();
    // Start a game first, so that the lines reach the game commands too.
    engine.handle_line(r#"{"cmd": "new", "seed": 1}"#, &mut |_| {});
    for line in text.lines() {
        // `save` writes files and `load` reads them: not from fuzz input.
        if line.contains("\"save\"") || line.contains("\"load\"") {
            continue;
        }
        let _ = warboard_protocol::parse_line(line);
        let mut replies = Vec::new();
        engine.handle_line(line, &mut |r| replies.push(r));
        let last = replies.pop().expect("every request is answered");
        assert!(matches!(last, Reply::Ok { .. } | Reply::Error { .. }));
        assert!(replies.iter().all(|r| matches!(r, Reply::Event { .. })));
    }
});
