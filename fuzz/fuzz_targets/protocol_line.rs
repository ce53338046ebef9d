//! The engine protocol: any bytes as request lines to one engine session
//! (the body: `fuzz/targets.rs`).

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../targets.rs"]
mod targets;

fuzz_target!(|data: &[u8]| {
    targets::protocol_line(data);
});
