//! The save loader: any bytes as a save file. A panic is a finding; so is
//! a file that loads but does not save and load again to the same game.

#![no_main]

use libfuzzer_sys::fuzz_target;
use warboard_record::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(record) = Record::load(text) {
        let again = Record::load(&record.to_save_string()).expect("a loaded game saves and loads again");
        assert!(again.state() == record.state());
    }
});
