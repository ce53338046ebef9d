//! The save loader: any bytes as a save file (the body: `fuzz/targets.rs`).

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../targets.rs"]
mod targets;

fuzz_target!(|data: &[u8]| {
    targets::save_load(data);
});
