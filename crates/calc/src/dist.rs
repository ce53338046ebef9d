//! Hit distributions: how many hits a group of dice scores.
//!
//! Each die hits with probability value/6, so a group's hits follow a
//! Poisson-binomial distribution (binomials of each hit value, convolved).
//! Those are log-concave, hence unimodal: from the mode outwards the
//! probabilities only fall, which lets the exact calculation stop at the
//! first negligible entry on each side.

/// A distribution stored in an arena: `P(hits = lo + i) = data[start + i]`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Dist {
    pub start: u32,
    pub len: u32,
    pub lo: u32,
    /// Index (from `start`) of the most likely hit count.
    pub mode: u32,
}

impl Dist {
    #[inline(always)]
    pub fn slice<'a>(&self, arena: &'a [f64]) -> &'a [f64] {
        &arena[self.start as usize..(self.start + self.len) as usize]
    }

    /// P(no hit).
    #[inline(always)]
    pub fn p_zero(&self, arena: &[f64]) -> f64 {
        if self.lo == 0 {
            arena[self.start as usize]
        } else {
            0.0
        }
    }
}

/// How a unit fires, as one small number (a *die code*), so that a side's
/// dice can be counted by code: `1..=6`, one die hitting on that value or
/// less; [`BEST_OF_TWO`]` + v`, two dice of which the lower counts, one hit
/// at most (Anniversary heavy bombers: a hit when either die is at or
/// under `v`); [`THREE_DICE`]` + v`, three dice each hitting on `v` (classic
/// heavy bombers). 0: no die.
pub(crate) const BEST_OF_TWO: u8 = 6;
pub(crate) const THREE_DICE: u8 = 12;
/// Die codes, 0 included.
pub(crate) const CODES: usize = 19;

/// The code of a unit firing at `value` with `dice` dice, of which only the
/// best counts when `best_of` (fire.rs, `Firing`); values above 6 hit on 6.
pub(crate) fn die_code(value: u8, dice: u8, best_of: bool) -> u8 {
    let v = value.min(6);
    match (v, dice, best_of) {
        (0, _, _) => 0,
        (_, 2, true) => BEST_OF_TWO + v,
        (_, 3, false) => THREE_DICE + v,
        _ => {
            debug_assert!(dice == 1, "no die code for {dice} dice (best of: {best_of})");
            v
        }
    }
}

/// The value a die code hits on (its dice's face value).
pub(crate) fn code_value(code: u8) -> u8 {
    match code {
        0 => 0,
        c if c > THREE_DICE => c - THREE_DICE,
        c if c > BEST_OF_TWO => c - BEST_OF_TWO,
        c => c,
    }
}

/// How many independent chances to hit a unit of this code has (three for
/// classic heavy bombers, otherwise one).
pub(crate) fn rolls(code: u8) -> usize {
    match code {
        0 => 0,
        c if c > THREE_DICE => 3,
        _ => 1,
    }
}

/// Probability that one of a code's chances hits.
pub(crate) fn hit_chance(code: u8) -> f64 {
    let p = code_value(code) as f64 / 6.0;
    if code > BEST_OF_TWO && code <= THREE_DICE {
        1.0 - (1.0 - p) * (1.0 - p)
    } else {
        p
    }
}

/// What a unit of die code `code` adds to its group's total under Low Luck
/// (the engine's `Firing::low_luck_pips`): its value for each die; two
/// dice of which the best counts, its value and one more, at most 6.
pub(crate) fn pips(code: u8) -> u32 {
    let v = u32::from(code_value(code));
    match code {
        0 => 0,
        c if c > THREE_DICE => 3 * v,
        c if c > BEST_OF_TWO => (v + 1).min(6),
        _ => v,
    }
}

/// Stores the hits of a Low Luck group whose values add up to `pips`: a
/// hit per full six for sure, and one more with probability r/6 for a
/// remainder r (one die).
pub(crate) fn push_low_luck(arena: &mut Vec<f64>, pips: u32) -> Dist {
    let start = arena.len() as u32;
    let (sure, rest) = (pips / 6, pips % 6);
    if rest == 0 {
        arena.push(1.0);
        return Dist { start, len: 1, lo: sure, mode: 0 };
    }
    let p = f64::from(rest) / 6.0;
    arena.push(1.0 - p);
    arena.push(p);
    Dist { start, len: 2, lo: sure, mode: u32::from(rest > 3) }
}

/// Low Luck distributions by total, each stored once in its arena (many
/// states of a side share a total).
#[derive(Default)]
pub(crate) struct LowLuckDists(Vec<Option<Dist>>);

impl LowLuckDists {
    pub fn clear(&mut self) {
        self.0.clear();
    }
    pub fn get(&mut self, arena: &mut Vec<f64>, pips: u32) -> Dist {
        let i = pips as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        *self.0[i].get_or_insert_with(|| push_low_luck(arena, pips))
    }
}

/// Adds the dice of one unit of die code `code` to `base`.
pub(crate) fn push_unit(arena: &mut Vec<f64>, base: Dist, code: u8, trim: f64) -> Dist {
    let mut d = base;
    for _ in 0..rolls(code) {
        d = push_with_die(arena, d, hit_chance(code), trim);
    }
    d
}

/// Stores "no dice: no hits for sure".
pub(crate) fn push_certain_zero(arena: &mut Vec<f64>) -> Dist {
    let start = arena.len() as u32;
    arena.push(1.0);
    Dist { start, len: 1, lo: 0, mode: 0 }
}

/// Stores `base` with one more die hitting with probability `p`, dropping
/// tail entries below `trim` (their mass is far below the prune threshold).
pub(crate) fn push_with_die(arena: &mut Vec<f64>, base: Dist, p: f64, trim: f64) -> Dist {
    let start = arena.len();
    let (b0, blen) = (base.start as usize, base.len as usize);
    let q = 1.0 - p;
    // new[k] = old[k]·(1-p) + old[k-1]·p over hits lo ..= lo+len.
    arena.reserve(blen + 1);
    arena.push(arena[b0] * q);
    for k in 1..blen {
        let v = arena[b0 + k] * q + arena[b0 + k - 1] * p;
        arena.push(v);
    }
    arena.push(arena[b0 + blen - 1] * p);
    finish(arena, start, base.lo, trim)
}

/// Trims the tails of the distribution just pushed at `start` and finds
/// its mode.
fn finish(arena: &mut Vec<f64>, start: usize, lo: u32, trim: f64) -> Dist {
    let mut first = start;
    let mut end = arena.len();
    while end - first > 1 && arena[first] < trim {
        first += 1;
    }
    while end - first > 1 && arena[end - 1] < trim {
        end -= 1;
    }
    let new_lo = lo + (first - start) as u32;
    if first > start {
        arena.copy_within(first..end, start);
    }
    let len = end - first;
    arena.truncate(start + len);
    let mut mode = 0;
    for i in 1..len {
        if arena[start + i] > arena[start + mode] {
            mode = i;
        }
    }
    Dist { start: start as u32, len: len as u32, lo: new_lo, mode: mode as u32 }
}

/// Stores the distribution of hits of units with the given die codes (a
/// small one-off group: AA fire, bombardment).
pub(crate) fn push_dice(arena: &mut Vec<f64>, values: impl IntoIterator<Item = u8>, trim: f64) -> Dist {
    let mut d = push_certain_zero(arena);
    for v in values {
        d = push_unit(arena, d, v, trim);
    }
    d
}

/// Stores the distribution of hits of `counts[c]` units of die code `c`.
pub(crate) fn push_counts(arena: &mut Vec<f64>, counts: &[u32; CODES], trim: f64) -> Dist {
    let start = arena.len();
    arena.push(1.0);
    for (c, &n) in counts.iter().enumerate().skip(1) {
        let p = hit_chance(c as u8);
        for _ in 0..n as usize * rolls(c as u8) {
            // One more die, in place: new[k] = old[k]·(1-p) + old[k-1]·p.
            arena.push(0.0);
            for k in (start..arena.len()).rev() {
                let below = if k > start { arena[k - 1] } else { 0.0 };
                arena[k] = arena[k] * (1.0 - p) + below * p;
            }
        }
    }
    finish(arena, start, 0, trim)
}

/// Calls `f(i, w)` with `w = weight · p[i]` for the entries of `p` from the
/// mode outwards, stopping on each side at the first `w < eps` (no later
/// entry on that side can be larger: the distribution is unimodal).
#[inline(always)]
pub(crate) fn outward(p: &[f64], mode: usize, weight: f64, eps: f64, mut f: impl FnMut(usize, f64)) {
    let mut i = mode + 1;
    while i > 0 {
        i -= 1;
        let w = weight * p[i];
        if w < eps {
            break;
        }
        f(i, w);
    }
    for (i, pi) in p.iter().enumerate().skip(mode + 1) {
        let w = weight * pi;
        if w < eps {
            break;
        }
        f(i, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_by_dice() {
        let mut arena = Vec::new();
        let d = push_dice(&mut arena, [1, 1, 1], 0.0);
        let p = d.slice(&arena);
        let q: f64 = 1.0 / 6.0;
        let expect = [(1.0 - q).powi(3), 3.0 * q * (1.0 - q).powi(2), 3.0 * q * q * (1.0 - q), q.powi(3)];
        for (a, b) in p.iter().zip(expect) {
            assert!((a - b).abs() < 1e-15);
        }
        assert_eq!(d.mode, 0);
        let d = push_dice(&mut arena, [4, 4, 4, 4], 0.0);
        assert_eq!(d.mode, 3);
        assert!((d.slice(&arena).iter().sum::<f64>() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn die_codes() {
        assert_eq!(die_code(4, 1, false), 4);
        assert_eq!(die_code(9, 1, false), 6);
        assert_eq!(die_code(0, 2, true), 0);
        // Anniversary heavy bombers: two dice, a hit when either is at or
        // under 4: 1 - (2/6)^2.
        let heavy = die_code(4, 2, true);
        assert!((hit_chance(heavy) - 8.0 / 9.0).abs() < 1e-15);
        assert_eq!((code_value(heavy), rolls(heavy)), (4, 1));
        // Classic heavy bombers: three dice at 4, each may hit.
        let three = die_code(4, 3, false);
        assert_eq!((code_value(three), rolls(three)), (4, 3));
        let mut arena = Vec::new();
        let d = push_dice(&mut arena, [three], 0.0);
        let p = d.slice(&arena);
        assert_eq!(p.len(), 4);
        assert!((p[3] - 8.0 / 27.0).abs() < 1e-15);
        let mut counts = [0u32; CODES];
        counts[three as usize] = 1;
        counts[heavy as usize] = 1;
        let d = push_counts(&mut arena, &counts, 0.0);
        assert!((d.slice(&arena)[4] - 8.0 / 27.0 * 8.0 / 9.0).abs() < 1e-15);
    }

    #[test]
    fn low_luck_totals_are_the_engines() {
        for value in 0..=7 {
            for (dice, best_of) in [(1, false), (2, true), (3, false)] {
                let engine = warboard_rules::battle::Firing { value, dice, best_of }.low_luck_pips();
                assert_eq!(pips(die_code(value, dice, best_of)), engine, "value {value}, {dice} dice, best of: {best_of}");
            }
        }
        let mut arena = Vec::new();
        let d = push_low_luck(&mut arena, 14);
        assert_eq!((d.lo, d.slice(&arena), d.mode), (2, &[1.0 - 2.0 / 6.0, 2.0 / 6.0][..], 0));
        let d = push_low_luck(&mut arena, 12);
        assert_eq!((d.lo, d.slice(&arena), d.p_zero(&arena)), (2, &[1.0][..], 0.0));
        assert_eq!(push_low_luck(&mut arena, 5).mode, 1);
        assert_eq!(push_low_luck(&mut arena, 0).p_zero(&arena), 1.0);
    }

    #[test]
    fn trims_negligible_tails() {
        let mut arena = Vec::new();
        let d = push_dice(&mut arena, [1; 200], 1e-15);
        assert!(d.lo > 0 && d.len < 201);
        let sum: f64 = d.slice(&arena).iter().sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }

    #[test]
    fn outward_stops_on_each_side() {
        let p = [0.001, 0.1, 0.5, 0.3, 0.099];
        let mut seen = Vec::new();
        outward(&p, 2, 1.0, 0.05, |i, _| seen.push(i));
        assert_eq!(seen, vec![2, 1, 3, 4]);
    }
}
