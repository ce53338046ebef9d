//! One game in play for every front end: the terminal game (`warboard
//! play`), the engine protocol (`warboard engine`) and the server
//! (`warboard serve`) all drive a [`Table`], so that a game's record, who
//! may act for which power, the computer players and their fallbacks, what
//! each seat may see, undo and the story in words are written once
//! (issue 29).

pub mod fallback;
pub mod history;
pub mod narrate;
pub mod odds;
pub mod orders;
mod table;

pub use table::{after_phase_end, authority, seat_powers, lost_if_phase_ends, people_in, Applied, Linker, Preface, Refusal, Step, Table, FALLBACK_AFTER};

// The server keeps tables in its tasks: a table must move between threads.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Table>();
};
