//! The system allocator, counting the bytes live and their peak, for the
//! tests that measure memory (`#[global_allocator]` in each of them).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = System.realloc(p, layout, new_size);
        if !q.is_null() {
            if new_size > layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Relaxed) + new_size - layout.size();
                // A moved block holds both copies for a moment.
                PEAK.fetch_max(now + if q != p { layout.size() } else { 0 }, Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        q
    }
}

/// Bytes live now.
pub fn live() -> usize {
    LIVE.load(Relaxed)
}

/// Starts a measurement: the peak is reset to what is live now, which is
/// returned.
pub fn start() -> usize {
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    before
}

/// The peak since [`start`] returned `before`, beyond `before`.
pub fn peak_since(before: usize) -> usize {
    PEAK.load(Relaxed).saturating_sub(before)
}
