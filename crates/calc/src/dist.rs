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

/// Probability that one die hits on `value` or less.
pub(crate) fn hit_chance(value: u8) -> f64 {
    value.min(6) as f64 / 6.0
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

/// Stores the distribution of hits of dice with the given values (a small
/// one-off group: AA fire, bombardment).
pub(crate) fn push_dice(arena: &mut Vec<f64>, values: impl IntoIterator<Item = u8>, trim: f64) -> Dist {
    let mut d = push_certain_zero(arena);
    for v in values {
        if v > 0 {
            d = push_with_die(arena, d, hit_chance(v), trim);
        }
    }
    d
}

/// Stores the distribution of hits of `counts[v]` dice hitting on `v`, for
/// `v` from 1 to 6.
pub(crate) fn push_counts(arena: &mut Vec<f64>, counts: &[u32; 7], trim: f64) -> Dist {
    let start = arena.len();
    arena.push(1.0);
    for (v, &n) in counts.iter().enumerate().skip(1) {
        let p = hit_chance(v as u8);
        for _ in 0..n {
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
