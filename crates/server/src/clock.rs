//! The server's clock, behind a trait so that tests can inject their own:
//! correspondence games' time limits (src/correspondence.rs) are days
//! long, and a test moves a [`ManualClock`] instead of waiting them out.

use std::sync::atomic::{AtomicI64, Ordering};

/// Unix time in milliseconds.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;
}

/// The operating system's clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
    }
}

/// A clock that stands still until it is set or moved on: for tests of
/// anything that happens after hours or days.
pub struct ManualClock {
    now: AtomicI64,
}

impl ManualClock {
    /// A clock showing `now_ms`.
    pub fn new(now_ms: i64) -> ManualClock {
        ManualClock { now: AtomicI64::new(now_ms) }
    }

    /// Sets the time to `now_ms` (backwards too: a test may want that).
    pub fn set(&self, now_ms: i64) {
        self.now.store(now_ms, Ordering::SeqCst);
    }

    /// Moves the time on by `ms`; the new time.
    pub fn advance(&self, ms: i64) -> i64 {
        self.now.fetch_add(ms, Ordering::SeqCst) + ms
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let clock = ManualClock::new(1_000);
        assert_eq!(clock.now_ms(), 1_000);
        assert_eq!(clock.advance(500), 1_500);
        assert_eq!(clock.now_ms(), 1_500);
        clock.set(10);
        assert_eq!(clock.now_ms(), 10);
    }
}
