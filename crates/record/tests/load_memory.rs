//! Issue 16, finding 7: loading a save takes a few times the file's size in
//! memory, not tens of times. Measured with a counting allocator around
//! `Record::load` on a long game.

mod common;

use warboard_record::{DiceMode, Record};

#[global_allocator]
static ALLOCATOR: common::counting::Counting = common::counting::Counting;

#[test]
fn loading_and_saving_take_a_few_times_the_file_size() {
    let record = common::random_game(11, 40_000, DiceMode::Seeded { seed: 11 });
    let before = common::counting::start();
    let text = record.to_save_string();
    let saving_x = common::counting::peak_since(before) as f64 / text.len() as f64;
    drop(record);
    let before = common::counting::start();
    let loaded = Record::load(&text).expect("the save loads");
    let peak = common::counting::peak_since(before);
    let kept = common::counting::live().saturating_sub(before);
    let (peak_x, kept_x) = (peak as f64 / text.len() as f64, kept as f64 / text.len() as f64);
    eprintln!("{} actions, {} bytes: loading peaks at {peak_x:.2}x and keeps {kept_x:.2}x, saving peaks at {saving_x:.2}x", loaded.log().len(), text.len());
    assert!(loaded.log().len() > 5_000, "a long game: {} actions", loaded.log().len());
    // Beside the file's text itself. Before the log kept its actions as
    // text, its events without spare capacity, and the loader read each
    // entry just before replaying it: a peak of 9.8 times, 8.1 kept.
    // After: 1.9 and 1.6.
    assert!(peak_x <= 3.0, "loading peaks at {peak_x:.2} times the file's size");
    assert!(kept_x <= 2.5, "the loaded game holds {kept_x:.2} times the file's size");
    // The text as it grows. Before the whole-save hash was taken field by
    // field: 27 times (a JSON tree of the whole save). After: 1.8.
    assert!(saving_x <= 3.0, "saving peaks at {saving_x:.2} times the file's size");
}
