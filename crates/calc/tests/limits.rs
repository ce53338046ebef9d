//! Limits checked from the counts alone (issue 34, "nothing forged, nothing
//! exhausted"): a battle of billions of units, or a Monte Carlo request of
//! years, gets its error before any unit is built, in both modes and from
//! the text as from armies built by hand. A counting allocator measures the
//! memory each request takes at its peak.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use warboard_calc::{Army, Battle, CalcError, CalcOptions, Calculator, MonteCarlo, RetreatPolicy, Side};
use warboard_rules::UnitType::Infantry;

/// The system's allocator, counting the bytes held and their peak. It
/// refuses whatever would take the bytes held past [`CAP`], as if memory
/// had run out: before the limits were checked first, these requests went
/// on to ask for 7 GB and more, and the test would have taken the machine's
/// memory with it rather than fail.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
const CAP: usize = 1 << 30;

impl Counting {
    fn took(size: usize) {
        let held = HELD.fetch_add(size, Relaxed) + size;
        PEAK.fetch_max(held, Relaxed);
    }

    fn room_for(size: usize) -> bool {
        HELD.load(Relaxed).saturating_add(size) <= CAP
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !Counting::room_for(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Counting::took(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !Counting::room_for(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            Counting::took(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        HELD.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && !Counting::room_for(new_size - layout.size()) {
            return std::ptr::null_mut();
        }
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            HELD.fetch_sub(layout.size(), Relaxed);
            Counting::took(new_size);
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What `f` returns, and the most bytes it held at once beyond what was
/// held before. Only one test in this file, so that no other thread's
/// allocations count.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = HELD.load(Relaxed);
    PEAK.store(before, Relaxed);
    let out = f();
    (out, PEAK.load(Relaxed).saturating_sub(before))
}

/// A refused request takes no more than this, whatever its counts (the
/// name of 100 KB below is copied twice as it is read).
const FEW_BYTES: usize = 1 << 20;

fn assert_small<T: std::fmt::Debug>(what: &str, (out, peak): (T, usize)) -> T {
    assert!(peak < FEW_BYTES, "{what}: {peak} bytes at the peak ({out:?})");
    out
}

#[test]
fn huge_requests_are_refused_from_the_counts_in_a_few_bytes() {
    let rs = warboard_rules::ruleset("classic").unwrap();
    let mut calc = Calculator::new(rs.clone());
    let never = CalcOptions::default();
    // Warm: the first calculation sets up what every later one shares.
    calc.exact(&Battle::parse("1 inf vs 1 inf").unwrap(), &never).unwrap();
    calc.monte_carlo(&Battle::parse("1 inf vs 1 inf").unwrap(), &never, MonteCarlo { runs: 10, seed: 1 }).unwrap();

    // The text: refused by the parser.
    for (text, side, units) in [
        ("4294967295 inf vs 1 inf", Side::Attackers, 4_294_967_295),
        ("10000000 inf vs 1 inf", Side::Attackers, 10_000_000),
        ("1 inf vs 4000 arm, 4294967295 inf, 4294967295 inf", Side::Defenders, 4_294_971_295),
        ("99999999999999999999999999 inf vs 1 inf", Side::Attackers, u64::MAX),
    ] {
        let parsed = assert_small(text, peak_of(|| Battle::parse(text)));
        assert_eq!(parsed, Err(CalcError::TooManyUnits { side, units }), "{text}");
    }

    // Armies built by hand: refused by both modes before the model.
    let huge = Battle::new(Army::new().with(Infantry, u32::MAX), Army::new().with(Infantry, 1));
    let ten_million = Battle::new(Army::new().with(Infantry, 1), Army::new().with(Infantry, 10_000_000));
    for (what, battle, side, units) in [
        ("u32::MAX attackers", huge, Side::Attackers, u64::from(u32::MAX)),
        ("10,000,000 defenders", ten_million, Side::Defenders, 10_000_000),
    ] {
        let exact = assert_small(what, peak_of(|| calc.exact(&battle, &never)));
        assert_eq!(exact.map(|_| ()), Err(CalcError::TooManyUnits { side, units }), "{what}, exact");
        let uncached = assert_small(what, peak_of(|| calc.exact_uncached(&battle, &never)));
        assert_eq!(uncached.map(|_| ()), Err(CalcError::TooManyUnits { side, units }), "{what}, exact");
        let mc = assert_small(what, peak_of(|| calc.monte_carlo(&battle, &never, MonteCarlo { runs: 1, seed: 1 })));
        assert_eq!(mc.map(|_| ()), Err(CalcError::TooManyUnits { side, units }), "{what}, Monte Carlo");
        let one_off = assert_small(what, peak_of(|| warboard_calc::monte_carlo(&rs, &battle, &never, MonteCarlo { runs: 1, seed: 1 })));
        assert_eq!(one_off.map(|_| ()), Err(CalcError::TooManyUnits { side, units }), "{what}, Monte Carlo");
    }

    // Monte Carlo: more work than the bound, refused before the first
    // battle (and before the engine's position of 10,000 units is built).
    let below = CalcOptions { retreat: RetreatPolicy::WinChanceBelow(0.3), ..Default::default() };
    for (text, runs, opts) in [
        ("10 inf vs 10 inf", u64::MAX, &never),
        ("10 inf vs 10 inf", 1_000_000, &never),
        ("5000 inf vs 5000 inf", 100, &never),
        ("1000 inf vs 1000 inf", 1, &below),
    ] {
        let battle = Battle::parse(text).unwrap();
        let mc = assert_small(text, peak_of(|| calc.monte_carlo(&battle, opts, MonteCarlo { runs, seed: 1 })));
        assert!(matches!(mc, Err(CalcError::TooMuchWork { runs: r, .. }) if r == runs), "{text}, {runs} runs: {mc:?}");
    }

    // A name of 100 KB: echoed cut, the error a few dozen characters.
    let long = format!("3 {} vs 2 inf", "q".repeat(100_000));
    let err = assert_small("a long name", peak_of(|| Battle::parse(&long).map_err(|e| e.to_string()))).unwrap_err();
    assert!(err.starts_with(&format!("unknown unit \"{}…\"", "q".repeat(40))), "{}", &err[..200.min(err.len())]);
    assert!(err.len() < 400, "{err}");

    // What is within the limits still answers.
    let small = Battle::parse("10 inf vs 10 inf").unwrap();
    assert!(calc.monte_carlo(&small, &never, MonteCarlo { runs: 1000, seed: 1 }).is_ok());
    let at_the_limit = Battle::parse("5000 inf vs 1 inf").unwrap();
    assert!(calc.exact(&at_the_limit, &never).is_ok());
}
