//! The states one side can be in during a battle, and how hits move it
//! between them.
//!
//! Nodes are compositions, numbered by hit points left, most first: every
//! hit takes exactly one hit point, so hits only ever lead to higher
//! numbers, and a battle state (attacker node, defender node) only to
//! states later in lexicographic order. For the usual battle (every hit may
//! take any unit) the nodes form a chain and node `i` is simply "the first
//! `i` units of the order of loss are gone"; AA fire (aircraft only) and
//! submarine strikes (ships only) branch off it.
//!
//! Per node the graph keeps where `k` hits lead (a table, so the dynamic
//! program never recomputes casualties) and the hit distribution of each of
//! the side's firing roles. A node's distribution is its successor's (one
//! unit fewer) with that unit's die added: one O(n) step per node.

use crate::dist::{pips, push_certain_zero, push_counts, push_unit, Dist, LowLuckDists, CODES};
use crate::loss::{Composition, HitEffect, LossRule, Pool, CLASSES};
use crate::CalcError;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A firing role: each class's die code (`dist`; 0: no die).
pub(crate) type RoleValues = [u8; crate::loss::CLASSES];

/// Support within a firing role (fire.rs, `roll_each`): each unit of a
/// supporting class raises `per` units of a target class, whose value is
/// below `value`, to `value` (one each; two with Advanced Artillery).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RoleSupport {
    pub supporters: [bool; CLASSES],
    pub targets: [bool; CLASSES],
    pub value: u8,
    pub per: u8,
}

/// One firing role of a side: its dice, and any support among them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Role {
    pub values: RoleValues,
    pub support: Option<RoleSupport>,
}

impl Role {
    pub fn plain(values: RoleValues) -> Role {
        Role { values, support: None }
    }

    /// How many units of each die code the units of `comp` fire as in this
    /// role.
    pub fn dice(&self, comp: &Composition) -> [u32; CODES] {
        let mut dice = [0u32; CODES];
        let mut raised = match &self.support {
            Some(sup) => (0..CLASSES).filter(|c| sup.supporters[*c]).map(|c| comp[c] as u32 * sup.per as u32).sum::<u32>(),
            None => 0,
        };
        for (class, &n) in comp.iter().enumerate() {
            let (n, v) = (n as u32, self.values[class]);
            if n == 0 {
                continue;
            }
            // (Supported units roll one plain die: `v` is a plain value.)
            if let Some(sup) = self.support.filter(|s| s.targets[class] && v < s.value) {
                let up = n.min(raised);
                raised -= up;
                dice[sup.value.min(6) as usize] += up;
                if v > 0 {
                    dice[v as usize] += n - up;
                }
            } else if v > 0 {
                dice[v as usize] += n;
            }
        }
        dice
    }
}

/// Where a restricted pool's hits are looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PoolScope {
    /// From the first node only, and the nodes it leads to by such hits (AA
    /// fire happens once, at the start).
    Start,
    /// From every node (submarines strike every round).
    Everywhere,
}

/// Nodes beyond this are refused (the exact mode would need gigabytes).
const MAX_NODES: usize = 4_000_000;
/// Hit-table entries beyond this are refused (memory).
const MAX_TABLE: usize = 50_000_000;

/// A small fast hash for compositions (the graph's node index).
#[derive(Default)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

pub(crate) type NodeIndex = HashMap<Composition, u32, BuildHasherDefault<FxHasher>>;

/// Reusable buffers for building graphs.
#[derive(Default)]
pub(crate) struct GraphScratch {
    index: NodeIndex,
    comps: Vec<Composition>,
    next_one: Vec<u32>,
    next_one_effect: Vec<Option<usize>>,
    pool_one: Vec<u32>,
    in_pool_scope: Vec<bool>,
    order: Vec<u32>,
    rank: Vec<u32>,
    hit_points: Vec<u32>,
    stack: Vec<u32>,
    segments: Vec<(u32, u32)>,
    dice: Vec<[u32; CODES]>,
    /// Low Luck: each node's total in the role being built, and the
    /// distributions by total.
    totals: Vec<u32>,
    low_luck: LowLuckDists,
}

const NONE: u32 = u32::MAX;

/// The node of `comp`, added (and queued) if new; `in_scope` marks it as
/// one the restricted pool's hits are looked up from.
fn intern(s: &mut GraphScratch, comp: Composition, in_scope: bool) -> Result<u32, CalcError> {
    if let Some(&id) = s.index.get(&comp) {
        if in_scope && !s.in_pool_scope[id as usize] {
            s.in_pool_scope[id as usize] = true;
            s.stack.push(id);
        }
        return Ok(id);
    }
    if s.comps.len() >= MAX_NODES {
        return Err(CalcError::TooLarge(format!("one side has more than {MAX_NODES} distinct states")));
    }
    let id = s.comps.len() as u32;
    s.index.insert(comp, id);
    s.comps.push(comp);
    s.next_one.push(NONE);
    s.next_one_effect.push(None);
    s.pool_one.push(NONE);
    s.in_pool_scope.push(in_scope);
    s.stack.push(id);
    Ok(id)
}

/// One side's state graph.
#[derive(Default)]
pub(crate) struct SideGraph {
    pub comps: Vec<Composition>,
    /// Columns of the hit tables: hits beyond `width - 1` count as
    /// `width - 1` (which already takes everything that can be taken).
    pub width: usize,
    /// `next_all[n * width + k]`: the node after `k` hits on anyone.
    pub next_all: Vec<u32>,
    /// Rows of the restricted pool's table, per node (`NONE` where unused).
    pool_row: Vec<u32>,
    pool_table: Vec<u32>,
    /// Per role, per node: the hit distribution.
    pub dists: Vec<Vec<Dist>>,
    pub arena: Vec<f64>,
    /// Per arena entry, the sum of it and the rest of its distribution.
    pub tails: Vec<f64>,
    /// The node with nothing left.
    pub empty: usize,
    /// The nodes form a chain (no restricted pool, no other starts): node
    /// `i + k` is `k` hits after node `i`, and the empty node is the last.
    pub chain: bool,
    /// The nodes of the compositions given as other starts, in their order.
    pub starts: Vec<u32>,
}

impl SideGraph {
    pub fn len(&self) -> usize {
        self.comps.len()
    }

    #[inline(always)]
    pub fn next(&self, node: usize, hits: usize) -> usize {
        self.next_all[node * self.width + hits.min(self.width - 1)] as usize
    }

    /// The node after `hits` hits from the restricted pool.
    #[inline(always)]
    pub fn next_in_pool(&self, node: usize, hits: usize) -> usize {
        let row = self.pool_row[node];
        debug_assert!(row != NONE, "restricted pool looked up outside its scope");
        self.pool_table[row as usize * self.width + hits.min(self.width - 1)] as usize
    }

    /// Builds the graph from `root`, and from the compositions of `starts`
    /// (where round one may leave the side without following its order of
    /// loss: unchosen AA hits), reusing `self`'s and `scratch`'s buffers.
    /// `width` is the most hits one step can score against the side plus
    /// one. With `low_luck` each role's hits are those of one Low Luck
    /// group (`dist::push_low_luck`) of its dice's total.
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        &mut self,
        scratch: &mut GraphScratch,
        root: Composition,
        starts: &[Composition],
        rule: &LossRule,
        pool: Option<(Pool, PoolScope)>,
        roles: &[Role],
        width: usize,
        trim: f64,
        low_luck: bool,
    ) -> Result<(), CalcError> {
        let s = scratch;
        s.index.clear();
        s.comps.clear();
        s.next_one.clear();
        s.next_one_effect.clear();
        s.pool_one.clear();
        s.in_pool_scope.clear();
        s.stack.clear();

        // Discover the nodes: one hit on anyone from every node, and one
        // hit from the restricted pool from the nodes in its scope.
        let chain = pool.is_none() && starts.is_empty();
        if chain {
            // A chain: no node is reached twice, so no index is needed.
            let mut comp = root;
            loop {
                let id = s.comps.len() as u32;
                if id as usize >= MAX_NODES {
                    return Err(CalcError::TooLarge(format!("one side has more than {MAX_NODES} distinct states")));
                }
                s.comps.push(comp);
                s.pool_one.push(NONE);
                s.in_pool_scope.push(false);
                match rule.next_hit(&comp, Pool::All) {
                    Some(class) => {
                        let effect = rule.hit(&mut comp, class);
                        s.next_one.push(id + 1);
                        s.next_one_effect.push((effect == HitEffect::Destroys).then_some(class));
                    }
                    None => {
                        s.next_one.push(id);
                        s.next_one_effect.push(None);
                        break;
                    }
                }
            }
        } else {
            intern(s, root, true)?;
            for c in starts {
                intern(s, *c, false)?;
            }
        }
        while let Some(id) = s.stack.pop() {
            let comp = s.comps[id as usize];
            if s.next_one[id as usize] == NONE {
                if let Some(class) = rule.next_hit(&comp, Pool::All) {
                    let mut after = comp;
                    let effect = rule.hit(&mut after, class);
                    // A hit that destroys removes that unit's die; one that
                    // damages leaves it (damaged units fire as before).
                    s.next_one_effect[id as usize] = (effect == HitEffect::Destroys).then_some(class);
                    let keep_scope = matches!(pool, Some((_, PoolScope::Everywhere)));
                    let child = intern(s, after, keep_scope)?;
                    s.next_one[id as usize] = child;
                } else {
                    s.next_one[id as usize] = id;
                }
            }
            if let Some((restricted, _)) = pool {
                if s.in_pool_scope[id as usize] && s.pool_one[id as usize] == NONE {
                    s.pool_one[id as usize] = match rule.next_hit(&comp, restricted) {
                        Some(class) => {
                            let mut after = comp;
                            rule.hit(&mut after, class);
                            intern(s, after, true)?
                        }
                        None => id,
                    };
                }
            }
        }

        // Number the nodes by hit points left, most first.
        let n = s.comps.len();
        s.order.clear();
        s.order.extend(0..n as u32);
        s.hit_points.clear();
        s.hit_points.extend(s.comps.iter().map(|c| rule.hit_points(c)));
        let hp = &s.hit_points;
        if !chain {
            // (A chain is found in this order already.)
            s.order.sort_by_key(|i| std::cmp::Reverse(hp[*i as usize]));
        }
        s.rank.clear();
        s.rank.resize(n, 0);
        for (new, old) in s.order.iter().enumerate() {
            s.rank[*old as usize] = new as u32;
        }
        self.comps.clear();
        self.comps.extend(s.order.iter().map(|old| s.comps[*old as usize]));
        self.empty = self.comps.iter().position(|c| c.iter().all(|x| *x == 0)).expect("every side can be destroyed");
        // Without a restricted pool every node has one successor per hit and
        // one hit point fewer, so numbering by hit points lines them up.
        self.chain = chain;
        self.starts.clear();
        for c in starts {
            self.starts.push(s.rank[s.index[c] as usize]);
        }
        debug_assert!(!self.chain || self.empty == n - 1);

        // Hit tables, filled from the last node back: k hits from n are
        // k - 1 hits from n's one-hit successor, which comes later.
        self.width = width.max(2);
        let w = self.width;
        if n.saturating_mul(w) > MAX_TABLE {
            return Err(CalcError::TooLarge(format!("{n} states of one side, each with {w} hit counts")));
        }
        self.next_all.clear();
        self.next_all.resize(n * w, 0);
        if self.chain {
            for (new, row) in self.next_all.chunks_exact_mut(w).enumerate() {
                for (k, next) in row.iter_mut().enumerate() {
                    *next = (new + k).min(n - 1) as u32;
                }
            }
        } else {
            for new in (0..n).rev() {
                let old = s.order[new] as usize;
                let child = s.rank[s.next_one[old] as usize] as usize;
                self.next_all[new * w] = new as u32;
                for k in 1..w {
                    self.next_all[new * w + k] = if child == new { new as u32 } else { self.next_all[child * w + k - 1] };
                }
            }
        }
        self.pool_row.clear();
        self.pool_table.clear();
        if pool.is_some() {
            self.pool_row.resize(n, NONE);
            let rows = s.in_pool_scope.iter().filter(|x| **x).count();
            self.pool_table.resize(rows * w, 0);
            let mut next_row = 0u32;
            for new in (0..n).rev() {
                let old = s.order[new] as usize;
                if !s.in_pool_scope[old] {
                    continue;
                }
                let row = next_row as usize;
                next_row += 1;
                self.pool_row[new] = row as u32;
                let child = s.rank[s.pool_one[old] as usize] as usize;
                self.pool_table[row * w] = new as u32;
                for k in 1..w {
                    self.pool_table[row * w + k] = if child == new {
                        new as u32
                    } else {
                        let child_row = self.pool_row[child] as usize;
                        self.pool_table[child_row * w + k - 1]
                    };
                }
            }
        }

        // Hit distributions per role, again from the last node back.
        self.arena.clear();
        self.dists.resize_with(roles.len(), Vec::new);
        self.dists.truncate(roles.len());
        for (r, role) in roles.iter().enumerate() {
            let dists = &mut self.dists[r];
            dists.clear();
            dists.resize(n, Dist::default());
            if low_luck {
                // A node's total is its successor's plus the unit lost (or
                // counted afresh where support pairs units).
                s.totals.clear();
                s.totals.resize(n, 0);
                s.low_luck.clear();
                for new in (0..n).rev() {
                    let old = s.order[new] as usize;
                    let child = s.rank[s.next_one[old] as usize] as usize;
                    let total = if role.support.is_some() {
                        let dice = role.dice(&self.comps[new]);
                        (1..CODES).map(|v| dice[v] * pips(v as u8)).sum()
                    } else if child == new {
                        0
                    } else {
                        match s.next_one_effect[old] {
                            Some(class) => s.totals[child] + pips(role.values[class]),
                            None => s.totals[child],
                        }
                    };
                    s.totals[new] = total;
                    dists[new] = s.low_luck.get(&mut self.arena, total);
                }
                continue;
            }
            if role.support.is_some() {
                // Support pairs units: a unit lost may change another's die.
                // Each node's dice are its successor's plus one die where
                // that is so, else computed afresh.
                s.dice.clear();
                s.dice.extend(self.comps.iter().map(|c| role.dice(c)));
                for new in (0..n).rev() {
                    let old = s.order[new] as usize;
                    let child = s.rank[s.next_one[old] as usize] as usize;
                    let (dice, before) = (s.dice[new], s.dice[child]);
                    dists[new] = if child == new {
                        push_counts(&mut self.arena, &dice, trim)
                    } else {
                        // The one code with a unit more, if that is all.
                        let mut more = None;
                        let mut other = false;
                        for v in 1..CODES {
                            if dice[v] == before[v] + 1 && more.is_none() {
                                more = Some(v);
                            } else if dice[v] != before[v] {
                                other = true;
                            }
                        }
                        match (more, other) {
                            (None, false) => dists[child],
                            (Some(v), false) => push_unit(&mut self.arena, dists[child], v as u8, trim),
                            _ => push_counts(&mut self.arena, &dice, trim),
                        }
                    };
                }
                continue;
            }
            let values = &role.values;
            for new in (0..n).rev() {
                let old = s.order[new] as usize;
                let child = s.rank[s.next_one[old] as usize] as usize;
                dists[new] = if child == new {
                    push_certain_zero(&mut self.arena)
                } else {
                    match s.next_one_effect[old] {
                        Some(class) if values[class] > 0 => push_unit(&mut self.arena, dists[child], values[class], trim),
                        // The unit had no die in this role, or survived
                        // damaged: the same dice as the successor.
                        _ => dists[child],
                    }
                };
            }
        }
        // Tail sums of every stored distribution: `tails[start + i]` is
        // P(hits ≥ lo + i), so "this many hits or more" costs one lookup.
        // Distributions lie back to back in the arena, in the order pushed.
        self.tails.clear();
        self.tails.resize(self.arena.len() + 1, 0.0);
        let ends = &mut s.segments;
        ends.clear();
        ends.extend(self.dists.iter().flatten().map(|d| (d.start, d.start + d.len)));
        ends.sort_unstable();
        ends.dedup();
        for &(start, end) in ends.iter() {
            let mut sum = 0.0;
            for i in (start..end).rev() {
                sum += self.arena[i as usize];
                self.tails[i as usize] = sum;
            }
        }
        Ok(())
    }
}
