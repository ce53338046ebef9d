//! The exact outcome distribution, by dynamic programming over battle
//! states.
//!
//! A state is a pair of nodes, one per side's state graph ([`SideGraph`]):
//! for the usual battle `(i, j)`, the losses so far along each side's order
//! of loss. Round one is special (AA fire, bombardment) and is expanded on
//! its own; from then on every round from a state is the same random step,
//! so the probability of a round with no effect (nobody hits) is folded
//! into one division: the mass entering a state leaves it as
//! `mass / (1 - P(no effect))` spread over its successors.
//!
//! Round structure, mirroring the battle engine (crates/rules/src/battle/
//! fire.rs, `run`), one round:
//! 1. Round one of a land battle: the AA gun rolls one die per attacking
//!    aircraft; its hits take aircraft at once (`aa_fire`): along the
//!    attacker's order of loss where it chooses (a restricted pool of its
//!    graph), or (Anniversary, `aa_hits_chosen = false`) the aircraft that
//!    rolled a hit, binomially per type of aircraft: the compositions AA
//!    fire leaves are extra starts of the attacker's graph.
//! 2. Round one of an amphibious assault: each bombarding ship rolls (the
//!    strongest, one per land unit landing, where `bombard_per_land_unit`);
//!    its hits mark defenders, who still fire this round (`bombard`).
//! 3. Sea battles, every round: attacking submarines roll; their hits take
//!    defending ships (aircraft only with the option) at once: those do not
//!    fire back (`SubStrike`, pool `DefendingShips`).
//! 4. The attacker's other units roll, each supporter (artillery) raising
//!    one unit it supports (infantry) to its supported value (`roll_each`);
//!    hits mark defenders (`AttackerFire`, pool `Defenders`: not yet marked
//!    ones).
//! 5. Every defender left after step 3, marked or not, rolls; hits take
//!    attackers at once (`DefenderFire`). In a sea battle the defending
//!    submarines' hits may not take aircraft (unless the option says so):
//!    against aircraft and ships together they are a group of their own,
//!    taking the first non-aircraft in the order of loss before the other
//!    hits take the first of what is left (`Kernel::fire`).
//! 6. Marked defenders are removed; the battle ends when a side is gone
//!    (`EndRound`, `finish_if_over`), or when the defender cannot hurt the
//!    attacker and loses its defenseless units without dice
//!    ([`Round::helpless`]), or neither side can hurt the other; otherwise
//!    the attacker may retreat (not from an amphibious assault,
//!    `retreat_allowed`).
//!
//! Dice are die codes (`dist`): a unit's value with its side's
//! developments, and Anniversary heavy bombers' two dice of which the lower
//! counts as one die of its own chance.
//!
//! A hit on a unit with a hit point to spare (a whole two-hit battleship)
//! damages it, before any unit is lost (casualties.rs, `default_order`);
//! the damaged unit is a class of its own in the side's composition.
//!
//! Sea battles where destroyers (anti-submarine units) change what
//! submarines and aircraft do, round by round, or where defending
//! submarines strike first (Anniversary), are fought by the kernel of
//! module `fleet`; this module drives both kernels through [`Round`].
//!
//! Hits beyond the units a step may take are lost (`pend` caps them).
//!
//! The calculator's battle has no player choices: submarines never
//! withdraw or submerge, the attacker retreats only by its retreat policy
//! (never from an amphibious assault), and casualties follow each side's
//! order of loss, by default the engine's. Monte Carlo answers the engine's
//! decisions the same way.

use crate::dist::{outward, pips, push_dice, push_low_luck, rolls, Dist};
use crate::fleet::{self, FleetKernel};
use crate::graph::{FxHasher, GraphScratch, PoolScope, Role, RoleSupport, RoleValues, SideGraph};
use crate::loss::{army_of, class_type, composition_of, Composition, LossRule, Pool, CLASSES};
use crate::model::BattleModel;
use crate::options::{CalcOptions, RetreatPolicy};
use crate::result::{Ending, Method, Outcome, OutcomeBuilder};
use crate::CalcError;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Battle states beyond this are refused (memory: a few grids of doubles).
pub(crate) const MAX_STATES: usize = 20_000_000;
/// Hit points on one side beyond this are refused: every state of the side
/// keeps its hit distributions, whose width grows with the square root.
pub(crate) const MAX_HIT_POINTS: usize = 5_000;
/// A battle still undecided after this many rounds is left out as pruned.
const MAX_ROUNDS: usize = 100_000;
/// A state whose rounds change nothing with at least this probability is a
/// stalemate (the kernels end those where neither side can hurt the other,
/// as the engine does; this catches anything else).
const STALEMATE: f64 = 1.0 - 1e-15;

/// Buffers reused from one calculation to the next, so that repeated
/// queries allocate next to nothing.
#[derive(Default)]
pub(crate) struct Workspace {
    scratch: GraphScratch,
    att: SideGraph,
    def: SideGraph,
    fleet: fleet::Sides,
    grid: Vec<f64>,
    transient: Vec<f64>,
    transient_next: Vec<f64>,
    active: Vec<u32>,
    active_next: Vec<u32>,
    rows: Vec<u32>,
    extent: Vec<(u32, u32)>,
    replay: Replay,
    value: Vec<f64>,
    retreat: Vec<bool>,
    visited: Vec<u32>,
    small: Vec<f64>,
    /// Where round one's AA fire leaves the attacker, with its chance.
    entries: Vec<(u32, f64)>,
    /// Unchosen AA hits: the attacker's compositions after AA fire, with
    /// their chances.
    aa_starts: Vec<(Composition, f64)>,
    start_comps: Vec<Composition>,
    /// Per node: some unit of the side has a die; the side has a
    /// defenseless unit (battles with defenseless units only).
    att_fires: Vec<bool>,
    def_fires: Vec<bool>,
    def_defenseless: Vec<u8>,
    /// Per attacker node: it has aircraft (Low Luck with the defender's
    /// submarines firing apart only).
    att_air: Vec<bool>,
}

/// `def_defenseless`: the defender has defenseless units, and nothing else.
const SOME_DEFENSELESS: u8 = 1;
const ONLY_DEFENSELESS: u8 = 2;

/// Transitions are dropped below `prune_below` times this. States below
/// `prune_below` are few and hold little; transitions below it are many
/// (every state's tails) and would add up: at the same threshold a mixed
/// 100-vs-100 battle loses ~3e-7 of its mass, at a thousandth of it ~4e-10,
/// for a third more time.
pub(crate) const TRANSITION_FACTOR: f64 = 1e-3;

/// Round by round (the distribution of rounds), states are dropped below
/// `prune_below` times this: mass lingers in a state over several rounds,
/// in pieces. At a tenth the pruned total stays about the folded solve's
/// (30-vs-30 mixed with an AA gun: 8e-11 against 1e-10), and the pass costs
/// about twice the folded solve on battles of 30 units a side or more.
const STEPPED_STATE_FACTOR: f64 = 0.1;

/// Distributions this short are spread whole, without pruning.
const SHORT: usize = 16;

/// Attacker roles: its main fire, and (sea battles) its submarines' strike.
/// Defender roles: its fire, and (sea battles where submarines' hits may not
/// take aircraft, against aircraft and ships together) its submarines' fire
/// apart from the rest.
const MAIN: usize = 0;
const SUBS: usize = 1;
/// Low Luck, the defender's role of all its dice, the submarines' with the
/// others': one group where the attacker has no aircraft for the
/// submarines' hits to spare (`Kernel::def_all`).
const ALL: usize = 2;

/// Where a round's successors go: mass into a grid, win chances into a sum.
/// A successor is a cell `row · nd + col` of the grid, `row` being the
/// attacker's node and `col` the defender's; sinks get the cell and its
/// row.
pub(crate) trait Sink {
    fn one(&mut self, row: usize, cell: usize, w: f64);
    /// Cells `cell..cell + p.len()` of `row` receive `scale · p[i]`.
    #[inline(always)]
    fn run(&mut self, row: usize, cell: usize, scale: f64, p: &[f64]) {
        for (i, pi) in p.iter().enumerate() {
            self.one(row, cell + i, scale * pi);
        }
    }
}

/// Adds mass into a grid. (What it leaves out is counted at the end: the
/// mass that did not arrive anywhere.)
struct Spread<'a> {
    grid: &'a mut [f64],
}

impl Sink for Spread<'_> {
    #[inline(always)]
    fn one(&mut self, _row: usize, cell: usize, w: f64) {
        self.grid[cell] += w;
    }
    #[inline(always)]
    fn run(&mut self, _row: usize, start: usize, scale: f64, p: &[f64]) {
        // A plain a·x + y: the compiler vectorises it.
        for (g, pi) in self.grid[start..start + p.len()].iter_mut().zip(p) {
            *g += scale * pi;
        }
    }
}

/// Sums probability × value of the successors.
struct Expect<'a> {
    value: &'a [f64],
    sum: f64,
}

impl Sink for Expect<'_> {
    #[inline(always)]
    fn one(&mut self, _row: usize, cell: usize, w: f64) {
        self.sum += w * self.value[cell];
    }
    #[inline(always)]
    fn run(&mut self, _row: usize, start: usize, scale: f64, p: &[f64]) {
        // Four partial sums, so the compiler may vectorise the dot product.
        let v = &self.value[start..start + p.len()];
        let mut acc = [0.0f64; 4];
        let (vc, pc) = (v.chunks_exact(4), p.chunks_exact(4));
        let (vr, pr) = (vc.remainder(), pc.remainder());
        for (x, y) in vc.zip(pc) {
            for i in 0..4 {
                acc[i] += x[i] * y[i];
            }
        }
        let mut dot = acc[0] + acc[1] + acc[2] + acc[3];
        for (x, y) in vr.iter().zip(pr) {
            dot += x * y;
        }
        self.sum += scale * dot;
    }
}

/// Adds mass into the next round's grid and notes, row by row, the range
/// of cells that received any (the round-by-round pass).
struct Step<'a> {
    next: &'a mut [f64],
    extent: &'a mut [(u32, u32)],
    rows: &'a mut Vec<u32>,
}

impl Step<'_> {
    #[inline(always)]
    fn touch(&mut self, row: usize, lo: usize, hi: usize) {
        let e = &mut self.extent[row];
        if e.0 == u32::MAX {
            self.rows.push(row as u32);
            *e = (lo as u32, hi as u32);
        } else {
            e.0 = e.0.min(lo as u32);
            e.1 = e.1.max(hi as u32);
        }
    }
}

impl Sink for Step<'_> {
    #[inline(always)]
    fn one(&mut self, row: usize, cell: usize, w: f64) {
        self.next[cell] += w;
        self.touch(row, cell, cell + 1);
    }
    #[inline(always)]
    fn run(&mut self, row: usize, start: usize, scale: f64, p: &[f64]) {
        for (g, pi) in self.next[start..start + p.len()].iter_mut().zip(p) {
            *g += scale * pi;
        }
        self.touch(row, start, start + p.len());
    }
}

/// One round of a battle from any state, as the dynamic program sees it:
/// the classic kernel ([`Kernel`]) or the fleet kernel
/// ([`fleet::FleetKernel`]). States are cells `a · nd + d` of a grid,
/// `a` the attacker's node and `d` the defender's; a round only ever leads
/// to the same cell or later ones.
pub(crate) trait Round: Copy {
    /// Round by round, a state's successors are worked out once and
    /// replayed in its later rounds (`Replay`): worth it where working them
    /// out costs much more than spreading them (the fleet kernel's hit
    /// groups), not for the classic kernel's runs.
    const REPLAY: bool = false;
    /// Nodes of the attacker and of the defender.
    fn na(&self) -> usize;
    fn nd(&self) -> usize;
    /// The nodes with nothing left.
    fn att_empty(&self) -> usize;
    fn def_empty(&self) -> usize;
    /// States with less mass than this are dropped.
    fn eps_state(&self) -> f64;
    /// Transitions less likely than this (weight included) are dropped.
    fn eps(&self) -> f64;
    /// The same round with other thresholds (transitions, states).
    fn with_eps(self, eps: f64, eps_state: f64) -> Self;
    /// Both sides have units, but the battle is over: neither side can hurt
    /// the other (ending.rs, `finish_if_over`: it ends as if the attacker
    /// broke off), or the defender cannot hurt the attacker and loses its
    /// defenseless units without dice ([`Round::helpless`]).
    fn stalemate(&self, a: usize, d: usize) -> bool;
    /// The defender cannot hurt the attacker, has defenseless units and the
    /// attacker can hit them: they are lost without dice (ending.rs,
    /// `finish_if_over`), and what is left of the defender cannot fight on
    /// (`model::unmodelled` refuses the battles where it could). A
    /// [`Round::stalemate`] too.
    fn helpless(&self, a: usize, d: usize) -> bool;
    /// The defender has only defenseless units left at `d` (so that where
    /// it is [`Round::helpless`] the attacker wins).
    fn only_defenseless(&self, d: usize) -> bool;
    /// Probability that a round from `(a, d)` changes nothing.
    fn stay(&self, a: usize, d: usize) -> f64;
    /// Sends the successors of `(a, d)` (the state itself included) to
    /// `sink` with weights `weight · P(successor)`, leaving out those
    /// less likely than the transition threshold.
    fn successors(&self, a: usize, d: usize, weight: f64, sink: &mut impl Sink);
    fn att_comp(&self, a: usize) -> &Composition;
    fn def_comp(&self, d: usize) -> &Composition;

    /// The battle is over in state `(a, d)`.
    #[inline(always)]
    fn is_final(&self, a: usize, d: usize) -> bool {
        a == self.att_empty() || d == self.def_empty() || self.stalemate(a, d)
    }
}

/// One round's random step from a state in the homogeneous phase (round two
/// on, or any round of a battle without round-one specials).
#[derive(Clone, Copy)]
struct Kernel<'a> {
    att: &'a SideGraph,
    def: &'a SideGraph,
    subs: bool,
    /// The defender's submarines fire as a role of their own (`SUBS`),
    /// whose hits take only the attacker's non-aircraft (the attacker's
    /// restricted pool); the defender's `MAIN` role is everyone else.
    def_subs: bool,
    /// Low Luck with `def_subs`: where the attacker has no aircraft left
    /// (`att_air`), the submarines' hits may take whatever the others' may,
    /// so all the defender's dice are one group (role `ALL`; the engine's
    /// groups are by the units their hits may take: fire.rs,
    /// `low_luck_groups`).
    def_all: bool,
    att_air: &'a [bool],
    /// Transitions less likely than this (weight included) are dropped.
    eps: f64,
    /// States with less mass than this are dropped.
    eps_state: f64,
    nd: usize,
    /// Battles with defenseless units: per node, whether the side has a
    /// unit with a die, and (defender) a defenseless unit. Empty otherwise.
    ends: Ends<'a>,
}

impl<'a> Kernel<'a> {
    /// The land kernel of a prepared battle: states with less mass than
    /// `eps` are dropped, transitions below a fraction of it.
    fn new(prep: &Prepared, att: &'a SideGraph, def: &'a SideGraph, att_air: &'a [bool], ends: Ends<'a>, eps: f64) -> Kernel<'a> {
        Kernel {
            att,
            def,
            subs: prep.subs,
            def_subs: prep.def_subs,
            def_all: prep.def_all,
            att_air,
            eps: eps * TRANSITION_FACTOR,
            eps_state: eps,
            nd: def.len(),
            ends,
        }
    }
}

/// What the classic kernel needs to end battles with defenseless units.
#[derive(Clone, Copy)]
struct Ends<'a> {
    on: bool,
    att_fires: &'a [bool],
    def_fires: &'a [bool],
    def_defenseless: &'a [u8],
}

impl Round for Kernel<'_> {
    #[inline(always)]
    fn na(&self) -> usize {
        self.att.len()
    }
    #[inline(always)]
    fn nd(&self) -> usize {
        self.nd
    }
    #[inline(always)]
    fn att_empty(&self) -> usize {
        self.att.empty
    }
    #[inline(always)]
    fn def_empty(&self) -> usize {
        self.def.empty
    }
    #[inline(always)]
    fn eps_state(&self) -> f64 {
        self.eps_state
    }
    #[inline(always)]
    fn eps(&self) -> f64 {
        self.eps
    }
    fn with_eps(self, eps: f64, eps_state: f64) -> Self {
        Kernel { eps, eps_state, ..self }
    }
    /// Every unit of the classic kernel's battles without defenseless
    /// units can hurt some enemy. With them (Anniversary's fleets without
    /// destroyers or defending submarines) every die may take any unit the
    /// other side has left that is not an aircraft, and the defenseless
    /// units are ships.
    #[inline(always)]
    fn stalemate(&self, a: usize, d: usize) -> bool {
        let e = &self.ends;
        e.on && !e.def_fires[d] && (e.def_defenseless[d] != 0 || !e.att_fires[a])
    }
    #[inline(always)]
    fn helpless(&self, a: usize, d: usize) -> bool {
        let e = &self.ends;
        e.on && !e.def_fires[d] && e.def_defenseless[d] != 0 && e.att_fires[a]
    }
    fn only_defenseless(&self, d: usize) -> bool {
        self.ends.on && self.ends.def_defenseless[d] == ONLY_DEFENSELESS
    }
    fn att_comp(&self, a: usize) -> &Composition {
        &self.att.comps[a]
    }
    fn def_comp(&self, d: usize) -> &Composition {
        &self.def.comps[d]
    }

    #[inline(always)]
    fn stay(&self, a: usize, d: usize) -> f64 {
        let merged = self.merged(a);
        let main = self.att.dists[MAIN][a].p_zero(&self.att.arena);
        let def = self.def.dists[if merged { ALL } else { MAIN }][d].p_zero(&self.def.arena);
        let subs = if !self.subs || self.def.next_in_pool(d, 1) == d {
            // No submarines, or nothing they may hit: their hits are lost.
            1.0
        } else {
            self.att.dists[SUBS][a].p_zero(&self.att.arena)
        };
        // With no submarine strike (the only way a round changes nothing)
        // the defender fires from `d` itself.
        let def_subs = if merged || !self.def_subs || self.att.next_in_pool(a, 1) == a {
            // Likewise: only aircraft left to the attacker.
            1.0
        } else {
            self.def.dists[SUBS][d].p_zero(&self.def.arena)
        };
        main * def * subs * def_subs
    }

    #[inline(always)]
    fn successors(&self, a: usize, d: usize, weight: f64, sink: &mut impl Sink) {
        if self.subs {
            // Step 3: submarine hits take ships before anyone else fires.
            let (att, def) = (self.att, self.def);
            let sd: Dist = att.dists[SUBS][a];
            outward(sd.slice(&att.arena), sd.mode as usize, weight, self.eps, |is, ws| {
                self.fire(a, def.next_in_pool(d, sd.lo as usize + is), 0, ws, sink);
            });
        } else {
            self.fire(a, d, 0, weight, sink);
        }
    }
}

impl Kernel<'_> {
    /// Low Luck: the defender's dice are one group against attacker node
    /// `a` (`def_all`).
    #[inline(always)]
    fn merged(&self, a: usize) -> bool {
        self.def_all && !self.att_air[a]
    }

    /// Steps 4 and 5 from attacker node `a` and defender node `d1` (after
    /// any submarine strike), with `marked` defenders already hit
    /// (bombardment): the attacker's fire marks defenders of `d1`, and all
    /// of `d1` fire back.
    ///
    /// With the defender's submarines firing apart (`def_subs`), all of the
    /// defender's hits are one casualty choice with two groups: the
    /// submarines' hits may take only non-aircraft, the others anyone. The
    /// default pick (casualties.rs, `pick_in_order`: the greedy pick over
    /// the order of loss) is then the submarines' hits taking the first
    /// non-aircraft in the order of loss, and the other hits the first of
    /// what is left: the submarines' hits go through the attacker's
    /// restricted pool first, then the others through the usual table. The
    /// attacker's own fire is that of `a`, before any of these losses.
    #[inline(always)]
    fn fire(&self, a: usize, d1: usize, marked: usize, weight: f64, sink: &mut impl Sink) {
        if self.merged(a) {
            self.fire_main(ALL, a, a, d1, marked, weight, sink);
        } else if self.def_subs && self.att.next_in_pool(a, 1) != a {
            let (att, def) = (self.att, self.def);
            let sd: Dist = def.dists[SUBS][d1];
            outward(sd.slice(&def.arena), sd.mode as usize, weight, self.eps, |is, ws| {
                self.fire_main(MAIN, a, att.next_in_pool(a, sd.lo as usize + is), d1, marked, ws, sink);
            });
        } else {
            // No separate submarine fire, or only aircraft left for it to
            // hit: its hits are lost.
            self.fire_main(MAIN, a, a, d1, marked, weight, sink);
        }
    }

    /// Steps 4 and 5 with the defender's hits of role `role` (`MAIN`, or
    /// `ALL`) taken from attacker node `a_hit` (`a` less any losses to the
    /// defender's submarines).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn fire_main(&self, role: usize, a: usize, a_hit: usize, d1: usize, marked: usize, weight: f64, sink: &mut impl Sink) {
        let mode = self.def.dists[role][d1].mode as usize;
        let len = self.def.dists[role][d1].len as usize;
        self.rows(role, a, a_hit, d1, marked, weight, (0..=mode).rev(), sink);
        self.rows(role, a, a_hit, d1, marked, weight, mode + 1..len, sink);
    }

    /// The defender's hits pick the attacker's row; per row, the attacker's
    /// hits spread over the defender's nodes. Going out from the defender's
    /// mode (`rows` runs one way out) the row weights fall, so the range of
    /// the attacker's hits worth keeping only shrinks: its ends are tracked
    /// rather than searched for. The attacker fires as node `a`; the
    /// defender's hits are taken from node `a_hit`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn rows(
        &self,
        role: usize,
        a: usize,
        a_hit: usize,
        d1: usize,
        marked: usize,
        weight: f64,
        rows: impl Iterator<Item = usize>,
        sink: &mut impl Sink,
    ) {
        let (att, def, eps, nd) = (self.att, self.def, self.eps, self.nd);
        let main: Dist = att.dists[MAIN][a];
        let pa = main.slice(&att.arena);
        let dd: Dist = def.dists[role][d1];
        let pd = dd.slice(&def.arena);
        let tails = &att.tails[main.start as usize..(main.start + main.len) as usize];
        let tail = |i: usize| if i < tails.len() { tails[i] } else { 0.0 };
        let (mut lo, mut hi) = (0usize, 0usize);
        let mut first = true;
        for iy in rows {
            let wy = weight * pd[iy];
            if wy < eps {
                break;
            }
            let t = eps / wy;
            if pa.len() <= SHORT {
                // Short distributions: keeping every entry is cheaper than
                // finding which to leave out.
                hi = pa.len();
            } else if first {
                // pa rises to its mode and falls after it: search each side.
                let mode = main.mode as usize;
                lo = pa[..=mode].partition_point(|p| *p < t);
                hi = mode + 1 + pa[mode + 1..].partition_point(|p| *p >= t);
                first = false;
            } else {
                while lo < hi && pa[lo] < t {
                    lo += 1;
                }
                while hi > lo && pa[hi - 1] < t {
                    hi -= 1;
                }
            }
            if lo >= hi {
                break;
            }
            let row = att.next(a_hit, dd.lo as usize + iy);
            let base = row * nd;
            let first_hits = marked + main.lo as usize + lo;
            if def.chain {
                // Node d1 + k, up to the empty node, which takes the rest.
                let room = def.empty.saturating_sub(d1 + first_hits);
                let run = (hi - lo).min(room);
                if run > 0 {
                    sink.run(row, base + d1 + first_hits, wy, &pa[lo..lo + run]);
                }
                if run < hi - lo {
                    sink.one(row, base + def.empty, wy * (tail(lo + run) - tail(hi)));
                }
            } else {
                for (k, pk) in pa[lo..hi].iter().enumerate() {
                    sink.one(row, base + def.next(d1, first_hits + k), wy * pk);
                }
            }
        }
    }
}

/// What `prepare` found besides the graphs it built: whether attacking
/// submarines strike first, whether the defender's submarines fire apart
/// (`Kernel::def_subs`), whether an AA gun fires in round one, and whether
/// battles may end with defenseless units lost (`Ends`).
struct Prepared {
    subs: bool,
    def_subs: bool,
    def_all: bool,
    aa: bool,
    ends: bool,
}

/// The attacker's support in its main fire (artillery raising infantry),
/// if any of its units supports another of them.
fn support_of(model: &BattleModel) -> Option<RoleSupport> {
    let (target, value, per) = model.attackers.iter().find_map(|(t, _)| model.profile(t).support.map(|(s, v)| (s, v, model.profile(t).support_count)))?;
    if model.attackers.count(target) == 0 {
        return None;
    }
    let mut sup = RoleSupport { supporters: [false; CLASSES], targets: [false; CLASSES], value, per };
    for class in 0..CLASSES {
        let t = class_type(class);
        sup.supporters[class] = model.profile(t).support == Some((target, value));
        sup.targets[class] = t == target;
    }
    Some(sup)
}

/// The side graphs and round-one dice of `model`.
fn prepare(model: &BattleModel, opts: &CalcOptions, ws: &mut Workspace) -> Result<Prepared, CalcError> {
    let att_rule = LossRule::new(model, &opts.attacker_order, true);
    let def_rule = LossRule::new(model, &opts.defender_order, false);
    let att_root = composition_of(model, &model.attackers, &model.attackers_damaged);
    let def_root = composition_of(model, &model.defenders, &model.defenders_damaged);

    // Firing roles (fire.rs, roll_for and value_of): in a sea battle
    // submarines fire in their own step; a value of 0 rolls no die.
    let mut main: RoleValues = [0; CLASSES];
    let mut subs: RoleValues = [0; CLASSES];
    let mut defense: RoleValues = [0; CLASSES];
    for class in 0..CLASSES {
        let p = model.profile(class_type(class));
        if model.sea && p.submarine {
            subs[class] = p.attack;
        } else {
            main[class] = p.attack;
        }
        defense[class] = p.defense;
    }
    // Defending submarines' hits are never taken by aircraft (unless the
    // option says so). Against aircraft alone they hit nothing; against
    // ships alone they hit like anyone. Against both, the defender's fire is
    // two groups of hits with different targets: the submarines get a role
    // of their own, whose hits go through the attacker's pool of
    // non-aircraft (see `Kernel::fire`).
    let att_air = model.attackers.iter().any(|(t, _)| model.profile(t).is_air());
    let att_other = model.attackers.iter().any(|(t, _)| !model.profile(t).is_air());
    let def_subs = model.sea && model.defenders.iter().any(|(t, _)| model.profile(t).submarine && model.profile(t).defense > 0);
    let mut sub_defense: RoleValues = [0; CLASSES];
    let split = def_subs && !model.subs_hit_aircraft && att_air && att_other;
    if def_subs && !model.subs_hit_aircraft && att_air {
        for class in 0..CLASSES {
            if model.profile(class_type(class)).submarine {
                if split {
                    sub_defense[class] = defense[class];
                }
                defense[class] = 0;
            }
        }
    }
    let dice = |root: &Composition, values: &RoleValues| -> usize { (0..CLASSES).map(|c| root[c] as usize * rolls(values[c])).sum() };
    let has_subs = dice(&att_root, &subs) > 0;
    let aircraft = model.attackers.iter().filter(|(t, _)| model.profile(*t).is_air()).map(|(_, n)| n as usize).sum::<usize>();
    let aa = model.aa_value > 0 && aircraft > 0;
    // Unchosen AA hits (Anniversary): each aircraft rolls, and those hit
    // are lost, whatever the order of loss. The attacker's graph starts
    // from every composition AA fire leaves with a chance worth keeping.
    ws.aa_starts.clear();
    ws.start_comps.clear();
    if aa && !model.aa_hits_chosen {
        aa_starts(model, &att_root, opts.prune_below * TRANSITION_FACTOR, &mut ws.aa_starts);
        ws.start_comps.extend(ws.aa_starts.iter().map(|(c, _)| *c));
    }

    let att_hp = att_rule.hit_points(&att_root) as usize;
    let def_hp = def_rule.hit_points(&def_root) as usize;
    if att_hp.max(def_hp) > MAX_HIT_POINTS {
        return Err(CalcError::TooLarge(format!("more than {MAX_HIT_POINTS} hit points on a side")));
    }
    // Low Luck: the defender's dice may also be one group of them all.
    let def_all = model.low_luck && split;
    let all_defense = dice(&def_root, &defense) + if def_all { dice(&def_root, &sub_defense) } else { 0 };
    let against_att = all_defense.max(dice(&def_root, &sub_defense)).max(if aa { aircraft } else { 0 });
    let against_def = (dice(&att_root, &main) + model.bombard_values.len()).max(dice(&att_root, &subs));
    let trim = opts.prune_below * 1e-4;

    let main = Role { values: main, support: support_of(model) };
    let att_roles: &[Role] = if has_subs { &[main, Role::plain(subs)] } else { &[main] };
    // One restricted pool a side: AA fire is a land battle's, split
    // submarine fire a sea battle's.
    let att_pool = match (aa && model.aa_hits_chosen, split) {
        (false, false) => None,
        (true, false) => Some((Pool::Aircraft, PoolScope::Start)),
        (false, true) => Some((Pool::Ships { aircraft_too: false }, PoolScope::Everywhere)),
        (true, true) => return Err(CalcError::NotModelled("an AA gun in a sea battle".into())),
    };
    let ll = model.low_luck;
    ws.att.build(&mut ws.scratch, att_root, &ws.start_comps, &att_rule, att_pool, att_roles, att_hp.min(against_att) + 1, trim, ll)?;
    let def_pool = has_subs.then_some((Pool::Ships { aircraft_too: model.subs_hit_aircraft }, PoolScope::Everywhere));
    let mut all: RoleValues = defense;
    for class in 0..CLASSES {
        all[class] = all[class].max(sub_defense[class]);
    }
    let def_roles_all = [Role::plain(defense), Role::plain(sub_defense), Role::plain(all)];
    let def_roles: &[Role] = match (split, def_all) {
        (_, true) => &def_roles_all,
        (true, false) => &def_roles_all[..2],
        (false, false) => &def_roles_all[..1],
    };
    ws.def.build(&mut ws.scratch, def_root, &[], &def_rule, def_pool, def_roles, def_hp.min(against_def) + 1, trim, ll)?;
    ws.att_air.clear();
    if def_all {
        ws.att_air.extend(ws.att.comps.iter().map(|c| (0..CLASSES).any(|k| c[k] > 0 && model.profile(class_type(k)).is_air())));
    }

    let states = ws.att.len().saturating_mul(ws.def.len());
    if states > MAX_STATES {
        return Err(CalcError::TooLarge(format!("{states} battle states (at most {MAX_STATES})")));
    }
    ws.grid.clear();
    ws.grid.resize(states, 0.0);
    // Battles with defenseless units: who can fire, who has them, per node.
    let ends = model.has_defenseless();
    let fires = |comp: &Composition, roles: &[Role]| (0..CLASSES).any(|c| comp[c] > 0 && roles.iter().any(|r| r.values[c] > 0));
    for (out, graph, roles) in [(&mut ws.att_fires, &ws.att, att_roles), (&mut ws.def_fires, &ws.def, def_roles)] {
        out.clear();
        if ends {
            out.extend(graph.comps.iter().map(|c| fires(c, roles)));
        }
    }
    ws.def_defenseless.clear();
    if ends {
        let defenseless = |comp: &Composition| {
            let (some, other) = (0..CLASSES).filter(|c| comp[*c] > 0).fold((false, false), |(s, o), c| {
                let is = model.profile(class_type(c)).defenseless;
                (s || is, o || !is)
            });
            match (some, other) {
                (false, _) => 0,
                (true, true) => SOME_DEFENSELESS,
                (true, false) => ONLY_DEFENSELESS,
            }
        };
        ws.def_defenseless.extend(ws.def.comps.iter().map(defenseless));
    }
    // Where AA fire leaves the attacker: by the order of loss (chosen
    // hits), or each aircraft on its own (unchosen).
    ws.entries.clear();
    if aa && !model.aa_hits_chosen {
        ws.entries.extend(ws.aa_starts.iter().zip(&ws.att.starts).map(|((_, p), node)| (*node, *p)));
    }
    Ok(Prepared { subs: has_subs, def_subs: split, def_all, aa, ends })
}

/// The attacker's compositions after unchosen AA fire, with their chances
/// (those below `eps` left out): each aircraft rolls one die, and the
/// aircraft hit are lost (round_one.rs, `aa_fire`, knob `aa_hits_chosen`).
/// Per type of aircraft the losses are binomial, independently.
fn aa_starts(model: &BattleModel, root: &Composition, eps: f64, out: &mut Vec<(Composition, f64)>) {
    let p = crate::dist::hit_chance(model.aa_value);
    out.push((*root, 1.0));
    for class in 0..CLASSES {
        let n = root[class] as usize;
        if n == 0 || !model.profile(class_type(class)).is_air() {
            continue;
        }
        // Binomial(n, p).
        let mut pmf = vec![0.0f64; n + 1];
        pmf[0] = 1.0;
        for k in 1..=n {
            for j in (1..=k).rev() {
                pmf[j] = pmf[j] * (1.0 - p) + pmf[j - 1] * p;
            }
            pmf[0] *= 1.0 - p;
        }
        let before = std::mem::take(out);
        for (comp, w) in before {
            for (k, pk) in pmf.iter().enumerate() {
                let wk = w * pk;
                if wk < eps {
                    continue;
                }
                let mut c = comp;
                c[class] -= k as u16;
                out.push((c, wk));
            }
        }
    }
}

/// The buffers the drive of a solve uses, apart from the side graphs.
struct Buffers<'a> {
    grid: &'a mut Vec<f64>,
    /// The round-by-round buffers; its `transient` also serves the
    /// win-chance pass.
    stepper: Stepper<'a>,
    value: &'a mut Vec<f64>,
    retreat: &'a mut Vec<bool>,
    visited: &'a mut Vec<u32>,
}

/// The exact outcome of the battle in `model`.
pub(crate) fn solve(model: &BattleModel, opts: &CalcOptions, ws: &mut Workspace) -> Result<Outcome, CalcError> {
    solve_with(model, opts, ws, fleet::applies(model))
}

/// The exact outcome, by the fleet kernel or the classic one.
fn solve_with(model: &BattleModel, opts: &CalcOptions, ws: &mut Workspace, by_fleet: bool) -> Result<Outcome, CalcError> {
    opts.check()?;
    if model.defenders.is_empty() {
        return Ok(unopposed(model));
    }
    let eps = opts.prune_below;
    if by_fleet {
        fleet::prepare(model, opts, &mut ws.fleet, &mut ws.grid)?;
        let Workspace { fleet, grid, transient, transient_next, active, active_next, rows, extent, replay, value, retreat, visited, .. } = ws;
        let fleet::Sides { att, def, scratch } = fleet;
        let lent = RefCell::new(std::mem::take(scratch));
        let kernel = FleetKernel::new(model, att, def, &lent, eps * TRANSITION_FACTOR, eps);
        let outcome = if kernel.stalemate(0, 0) {
            // Over before any die is rolled.
            over_at_start(model, &kernel)
        } else {
            // Round one is a round like any other.
            kernel.successors(0, 0, 1.0, &mut Spread { grid });
            let mut bufs = Buffers { grid, stepper: Stepper { transient, transient_next, active, active_next, rows, extent, replay }, value, retreat, visited };
            drive(model, opts, kernel, &mut bufs)
        };
        *scratch = lent.into_inner();
        return Ok(outcome);
    }
    let prep = prepare(model, opts, ws)?;
    let Workspace {
        att,
        def,
        grid,
        transient,
        transient_next,
        active,
        active_next,
        rows,
        extent,
        replay,
        value,
        retreat,
        visited,
        small,
        entries,
        att_fires,
        def_fires,
        def_defenseless,
        att_air,
        ..
    } = ws;
    let ends = Ends { on: prep.ends, att_fires, def_fires, def_defenseless };
    let kernel = Kernel::new(&prep, att, def, att_air, ends, eps);
    if kernel.stalemate(0, 0) {
        return Ok(over_at_start(model, &kernel));
    }
    first_round(model, &kernel, prep.aa, entries, grid, small);
    let mut bufs = Buffers { grid, stepper: Stepper { transient, transient_next, active, active_next, rows, extent, replay }, value, retreat, visited };
    Ok(drive(model, opts, kernel, &mut bufs))
}

/// The battle from the states after round one (their mass in `grid`) to
/// its end, and the outcome.
fn drive<K: Round>(model: &BattleModel, opts: &CalcOptions, kernel: K, b: &mut Buffers) -> Outcome {
    let eps = opts.prune_below;
    let policy = if model.amphibious { RetreatPolicy::Never } else { opts.retreat };
    let mut builder = OutcomeBuilder::new();
    if let RetreatPolicy::WinChanceBelow(p) = policy {
        // The win chance of a state depends on states with more losses:
        // find the states that matter (a pass without retreats: retreats
        // only ever remove mass), value them from the last back, and
        // retreat where the chance is below p.
        let transient = &mut *b.stepper.transient;
        transient.clear();
        transient.extend_from_slice(b.grid);
        b.visited.clear();
        folded(&kernel, transient, None, Some(b.visited));
        win_chances(&kernel, b.visited, b.value, b.retreat, p);
    }
    let Buffers { grid, stepper, retreat, .. } = b;
    let retreat_map = matches!(policy, RetreatPolicy::WinChanceBelow(_)).then_some(&retreat[..]);
    let expected_rounds = if opts.rounds_distribution || matches!(policy, RetreatPolicy::AfterRound(_)) {
        let after = match policy {
            RetreatPolicy::AfterRound(n) => n as usize,
            _ => usize::MAX,
        };
        // Round by round, mass lingers in a state over many rounds in small
        // pieces: a finer threshold for states keeps the pruned total about
        // as small as the folded solve's. (Retreats after a number of rounds
        // keep the finer thresholds they always had.)
        let stepping = match policy {
            RetreatPolicy::AfterRound(_) => kernel.with_eps(eps * TRANSITION_FACTOR * 1e-3, eps * 1e-3),
            _ => kernel.with_eps(eps * TRANSITION_FACTOR, eps * STEPPED_STATE_FACTOR),
        };
        stepper.run(&stepping, grid, |round, cell| round >= after || retreat_map.is_some_and(|r| r[cell]), &mut builder);
        None
    } else {
        Some(1.0 + folded(&kernel, grid, retreat_map, None))
    };
    // Every bit of mass ends in a final or retreat state, or was dropped.
    let pruned = 1.0 - accurate_sum(grid);
    tally(model, &kernel, grid, &mut builder);
    builder.finish(model, Method::Exact, 1.0, pruned, expected_rounds, false)
}

/// No defender can fight (only an AA gun or a factory, or nothing): the
/// attacker wins at once, before any die is rolled (fire.rs,
/// `start_of_battle`: the AA gun fires only in a battle that is fought).
fn unopposed(model: &BattleModel) -> Outcome {
    let mut builder = OutcomeBuilder::new();
    builder.add(Ending::AttackerWins, model.captures(&model.attackers), model.with_bystanders(model.attackers), model.defenders, 1.0);
    builder.add_rounds(0, 1.0);
    builder.finish(model, Method::Exact, 1.0, 0.0, None, false)
}

/// The battle is over before any die is rolled (ending.rs,
/// `finish_if_over`, at the start): neither side can hurt the other
/// (aircraft against submarines with no destroyer to spot them), as if the
/// attacker broke off; or the defender cannot hurt the attacker and loses
/// its defenseless units (transports alone against warships).
fn over_at_start<K: Round>(model: &BattleModel, k: &K) -> Outcome {
    let mut builder = OutcomeBuilder::new();
    let (ending, captured, attackers, defenders) = final_state(model, k, 0, 0);
    builder.add(ending, captured, attackers, defenders, 1.0);
    builder.add_rounds(0, 1.0);
    builder.finish(model, Method::Exact, 1.0, 0.0, None, false)
}

/// Round one from the starting state, with AA fire and bombardment; puts
/// the mass of every state after it into `grid`. `entries`: where unchosen
/// AA fire leaves the attacker, with the chances (empty where the AA hits
/// are chosen, or no AA gun fires).
fn first_round(model: &BattleModel, k: &Kernel, aa: bool, entries: &mut Vec<(u32, f64)>, grid: &mut [f64], small: &mut Vec<f64>) {
    let (att, def, eps) = (k.att, k.def, k.eps);
    small.clear();
    if entries.is_empty() {
        // AA hits taken along the order of loss (the attacker's choice), or
        // no AA fire: the attacker's node after it.
        let aircraft = model.attackers.iter().filter(|(t, _)| model.profile(*t).is_air()).map(|(_, n)| n as usize).sum::<usize>();
        let aa_dice = if aa { aircraft } else { 0 };
        let aa_dist = if model.low_luck {
            push_low_luck(small, aa_dice as u32 * pips(model.aa_value))
        } else {
            push_dice(small, (0..aa_dice).map(|_| model.aa_value), eps * 1e-4)
        };
        outward(aa_dist.slice(small), aa_dist.mode as usize, 1.0, eps, |ik, wk| {
            let hits = aa_dist.lo as usize + ik;
            entries.push((if aa { att.next_in_pool(0, hits) as u32 } else { 0 }, wk));
        });
    }
    let bombard = if model.low_luck {
        push_low_luck(small, model.bombard_values.iter().map(|v| pips((*v).min(6))).sum())
    } else {
        push_dice(small, model.bombard_values.iter().copied(), eps * 1e-4)
    };
    let small: &[f64] = small;
    let mut sink = Spread { grid };
    for &(a1, wk) in entries.iter() {
        let a1 = a1 as usize;
        outward(bombard.slice(small), bombard.mode as usize, wk, eps, |ib, wb| {
            // The rest of round one is an ordinary round from (a1, start),
            // except that the bombardment's marks come first: casualties
            // are taken one hit at a time in the order of loss, so `marked`
            // more hits on anyone is the same as taking them first.
            let marked = bombard.lo as usize + ib;
            if k.subs {
                let sd: Dist = att.dists[SUBS][a1];
                outward(sd.slice(&att.arena), sd.mode as usize, wb, eps, |is, ws| {
                    k.fire(a1, def.next_in_pool(0, sd.lo as usize + is), marked, ws, &mut sink)
                });
            } else {
                k.fire(a1, 0, marked, wb, &mut sink);
            }
        });
    }
}

/// The folded solve: every state once, in an order where all the states
/// leading to one come before it. Mass entering a non-final state is
/// spread over its successors (the no-effect rounds folded into one
/// division); final states and states the attacker retreats from keep
/// theirs. Returns the expected number of rounds fought after round one.
/// `visited` collects the states processed.
fn folded<K: Round>(k: &K, grid: &mut [f64], retreat: Option<&[bool]>, visited: Option<&mut Vec<u32>>) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { folded_avx2(k, grid, retreat, visited) };
        }
    }
    folded_body(k, grid, retreat, visited)
}

/// The same code compiled for AVX2: twice the doubles per instruction in
/// the spreading loops. Without fused multiply-adds (Rust never contracts
/// `a * b + c`), every element is computed exactly as in the plain build,
/// so answers do not depend on the processor.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn folded_avx2<K: Round>(k: &K, grid: &mut [f64], retreat: Option<&[bool]>, visited: Option<&mut Vec<u32>>) -> f64 {
    folded_body(k, grid, retreat, visited)
}

#[inline(always)]
fn folded_body<K: Round>(k: &K, grid: &mut [f64], retreat: Option<&[bool]>, mut visited: Option<&mut Vec<u32>>) -> f64 {
    let (na, nd) = (k.na(), k.nd());
    let (att_empty, def_empty, eps_state) = (k.att_empty(), k.def_empty(), k.eps_state());
    let mut rounds = 0.0;
    for a in 0..na {
        if a == att_empty {
            continue;
        }
        for d in 0..nd {
            let cell = a * nd + d;
            let m = grid[cell];
            if m == 0.0 || d == def_empty {
                continue;
            }
            if retreat.is_some_and(|r| r[cell]) || k.stalemate(a, d) {
                continue;
            }
            grid[cell] = 0.0;
            if m < eps_state {
                continue;
            }
            let stay = k.stay(a, d);
            if stay >= STALEMATE {
                continue;
            }
            // Rounds started here: m + m·stay + m·stay² + ...
            let through = m / (1.0 - stay);
            rounds += through;
            k.successors(a, d, through, &mut Spread { grid });
            // The round that changed nothing was folded in: drop its share.
            grid[cell] = 0.0;
            if let Some(v) = visited.as_deref_mut() {
                v.push(cell as u32);
            }
        }
    }
    rounds
}

/// The attacker's chance of winning from each visited state when it
/// presses on (and later retreats by the same rule), from the last state
/// back; marks the states where that chance is below `threshold`. Returns
/// the chance from the first visited state.
fn win_chances<K: Round>(k: &K, visited: &[u32], value: &mut Vec<f64>, retreat: &mut Vec<bool>, threshold: f64) -> f64 {
    let (na, nd) = (k.na(), k.nd());
    value.clear();
    value.resize(na * nd, 0.0);
    retreat.clear();
    retreat.resize(na * nd, false);
    for a in (0..na).filter(|a| *a != k.att_empty()) {
        value[a * nd + k.def_empty()] = 1.0;
    }
    // The defender left with defenseless units alone, which the attacker
    // can hit: they are lost without dice, and the attacker has won.
    for d in (0..nd).filter(|d| k.only_defenseless(*d)) {
        for a in (0..na).filter(|a| *a != k.att_empty() && k.helpless(*a, d)) {
            value[a * nd + d] = 1.0;
        }
    }
    let mut first = 0.0;
    for &cell in visited.iter().rev() {
        let cell = cell as usize;
        let (a, d) = (cell / nd, cell % nd);
        let stay = k.stay(a, d);
        // The state's own value is still 0 here: the round that changes
        // nothing adds nothing to the sum.
        let mut sink = Expect { value, sum: 0.0 };
        k.successors(a, d, 1.0, &mut sink);
        let chance = sink.sum / (1.0 - stay);
        first = chance;
        let retreats = chance < threshold;
        retreat[cell] = retreats;
        value[cell] = if retreats { 0.0 } else { chance };
    }
    first
}

/// Row extents nobody has touched.
const UNTOUCHED: (u32, u32) = (u32::MAX, 0);

/// Round-by-round propagation: for the distribution of rounds and for
/// "retreat after round n".
struct Stepper<'a> {
    transient: &'a mut Vec<f64>,
    transient_next: &'a mut Vec<f64>,
    active: &'a mut Vec<u32>,
    active_next: &'a mut Vec<u32>,
    rows: &'a mut Vec<u32>,
    extent: &'a mut Vec<(u32, u32)>,
    replay: &'a mut Replay,
}

/// A state's successors are kept for up to this many times the mass they
/// were worked out for (worked out with a threshold as much finer).
const REPLAY_MARGIN: f64 = 16.0;
/// Successors a replay keeps at most (memory: 24 bytes each); states beyond
/// are worked out every round.
const REPLAY_VALUES: usize = 1 << 21;

/// A state's successors as a round worked them out, kept to be replayed
/// in the later rounds the state still holds mass: a state's round is the
/// same random step every time, only its mass differs.
#[derive(Default)]
pub(crate) struct Replay {
    /// Per state: its first run, how many, and the largest mass they serve
    /// (transitions below the threshold there are left out: a larger mass
    /// works them out again).
    index: HashMap<u32, (u32, u32, f64), BuildHasherDefault<FxHasher>>,
    /// Runs of successors: row, first cell, length, first value.
    runs: Vec<(u32, u32, u32, u32)>,
    /// Chances per unit of mass.
    values: Vec<f64>,
}

impl Replay {
    fn clear(&mut self) {
        self.index.clear();
        self.runs.clear();
        self.values.clear();
    }
}

/// Passes successors on and keeps them, per unit of mass.
struct Record<'a, S: Sink> {
    inner: &'a mut S,
    runs: &'a mut Vec<(u32, u32, u32, u32)>,
    values: &'a mut Vec<f64>,
    per_mass: f64,
}

impl<S: Sink> Sink for Record<'_, S> {
    #[inline(always)]
    fn one(&mut self, row: usize, cell: usize, w: f64) {
        self.inner.one(row, cell, w);
        self.runs.push((row as u32, cell as u32, 1, self.values.len() as u32));
        self.values.push(w * self.per_mass);
    }
    #[inline(always)]
    fn run(&mut self, row: usize, cell: usize, scale: f64, p: &[f64]) {
        self.inner.run(row, cell, scale, p);
        self.runs.push((row as u32, cell as u32, p.len() as u32, self.values.len() as u32));
        let s = scale * self.per_mass;
        self.values.extend(p.iter().map(|x| s * x));
    }
}

impl Stepper<'_> {
    /// Moves the mass of undecided states out of `grid` and fights round
    /// after round; `retreats(round, cell)` says whether the attacker breaks
    /// off after `round` rounds in that state. Final and retreat masses go
    /// back into `grid`, rounds into `builder`.
    fn run<K: Round>(&mut self, k: &K, grid: &mut [f64], retreats: impl Fn(usize, usize) -> bool, builder: &mut OutcomeBuilder) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor has AVX2 (checked just above).
                return unsafe { self.run_avx2(k, grid, retreats, builder) };
            }
        }
        self.run_body(k, grid, retreats, builder)
    }

    /// As `folded_avx2`: the same code, twice the doubles per instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2<K: Round>(&mut self, k: &K, grid: &mut [f64], retreats: impl Fn(usize, usize) -> bool, builder: &mut OutcomeBuilder) {
        self.run_body(k, grid, retreats, builder)
    }

    #[inline(always)]
    fn run_body<K: Round>(&mut self, k: &K, grid: &mut [f64], retreats: impl Fn(usize, usize) -> bool, builder: &mut OutcomeBuilder) {
        let (na, nd) = (k.na(), k.nd());
        let n = grid.len();
        self.transient.clear();
        self.transient.resize(n, 0.0);
        self.transient_next.clear();
        self.transient_next.resize(n, 0.0);
        self.extent.clear();
        self.extent.resize(na, UNTOUCHED);
        self.rows.clear();
        self.active.clear();
        self.active_next.clear();
        self.replay.clear();
        let mut ended = 0.0;
        for (cell, m) in grid.iter_mut().enumerate() {
            if *m == 0.0 {
                continue;
            }
            if k.is_final(cell / nd, cell % nd) {
                ended += *m;
            } else {
                self.transient[cell] = *m;
                self.active.push(cell as u32);
                *m = 0.0;
            }
        }
        builder.add_rounds(1, ended);
        let mut round = 1;
        while !self.active.is_empty() {
            if round >= MAX_ROUNDS {
                // Left undecided: counted as pruned.
                break;
            }
            let mut retreated = 0.0;
            let mut sink = Step { next: self.transient_next, extent: self.extent, rows: self.rows };
            for &cell in self.active.iter() {
                let cell = cell as usize;
                let m = std::mem::take(&mut self.transient[cell]);
                if retreats(round, cell) {
                    grid[cell] += m;
                    retreated += m;
                    continue;
                }
                if m < k.eps_state() {
                    continue;
                }
                if !K::REPLAY {
                    k.successors(cell / nd, cell % nd, m, &mut sink);
                    continue;
                }
                let replay = &mut *self.replay;
                match replay.index.get(&(cell as u32)) {
                    Some(&(first, count, mass)) if m <= mass => {
                        for &(row, start, len, at) in &replay.runs[first as usize..(first + count) as usize] {
                            sink.run(row as usize, start as usize, m, &replay.values[at as usize..(at + len) as usize]);
                        }
                    }
                    _ if replay.values.len() < REPLAY_VALUES => {
                        let first = replay.runs.len() as u32;
                        // Worked out finer, to serve masses up to REPLAY_MARGIN
                        // times this one.
                        let mut record = Record { inner: &mut sink, runs: &mut replay.runs, values: &mut replay.values, per_mass: 1.0 / m };
                        k.with_eps(k.eps() / REPLAY_MARGIN, k.eps_state()).successors(cell / nd, cell % nd, m, &mut record);
                        let count = replay.runs.len() as u32 - first;
                        replay.index.insert(cell as u32, (first, count, m * REPLAY_MARGIN));
                    }
                    _ => k.successors(cell / nd, cell % nd, m, &mut sink),
                }
            }
            // Collect the next round's states, row by row: final ones into
            // the grid, the others to fight on.
            let mut ended = 0.0;
            for &row in self.rows.iter() {
                let row = row as usize;
                let (lo, hi) = std::mem::replace(&mut self.extent[row], UNTOUCHED);
                let lo = lo as usize;
                for (i, slot) in self.transient_next[lo..hi as usize].iter_mut().enumerate() {
                    let m = std::mem::take(slot);
                    if m <= 0.0 {
                        continue;
                    }
                    let cell = lo + i;
                    if k.is_final(row, cell - row * nd) {
                        grid[cell] += m;
                        ended += m;
                    } else {
                        self.transient[cell] = m;
                        self.active_next.push(cell as u32);
                    }
                }
            }
            self.rows.clear();
            builder.add_rounds(round, retreated);
            builder.add_rounds(round + 1, ended);
            std::mem::swap(self.active, self.active_next);
            self.active_next.clear();
            round += 1;
        }
    }
}

/// A sum of many small terms, compensated (Neumaier) so that the pruned
/// mass, one minus it, is not lost in rounding.
fn accurate_sum(values: &[f64]) -> f64 {
    let (mut sum, mut carry) = (0.0f64, 0.0f64);
    for &v in values {
        let t = sum + v;
        carry += if sum.abs() >= v.abs() { (sum - t) + v } else { (v - t) + sum };
        sum = t;
    }
    sum + carry
}

/// Turns the final and retreat states' mass into endings and survivors.
fn tally<K: Round>(model: &BattleModel, k: &K, grid: &[f64], builder: &mut OutcomeBuilder) {
    let nd = k.nd();
    for (cell, &m) in grid.iter().enumerate() {
        if m == 0.0 {
            continue;
        }
        let (ending, captured, attackers, defenders) = final_state(model, k, cell / nd, cell % nd);
        builder.add(ending, captured, attackers, defenders, m);
    }
}

/// How a battle ends in state `(a, d)`, a final or retreat state: the
/// ending, whether the territory is taken, and what is left of each side.
fn final_state<K: Round>(model: &BattleModel, k: &K, a: usize, d: usize) -> (Ending, bool, crate::spec::Army, crate::spec::Army) {
    let (att_gone, mut def_gone) = (a == k.att_empty(), d == k.def_empty());
    let attackers = army_of(k.att_comp(a));
    let mut defenders = army_of(k.def_comp(d));
    if !att_gone && !def_gone && k.helpless(a, d) {
        // The defender's defenseless units are lost without dice; what is
        // left of it cannot fight on.
        defenders = model.without_defenseless(defenders);
        def_gone = defenders.is_empty();
    }
    if model.sea {
        defenders = model.after_sea_battle(defenders);
    }
    let ending = match (att_gone, def_gone) {
        (false, true) => Ending::AttackerWins,
        (true, false) => Ending::DefenderWins,
        (true, true) => Ending::Draw,
        // The attacker broke off, or neither side could hurt the other.
        (false, false) => Ending::Retreated,
    };
    let captured = ending == Ending::AttackerWins && model.captures(&attackers);
    (ending, captured, model.with_bystanders(attackers), defenders)
}

/// The attacker's chance of winning by pressing on from the start of a
/// later round with `model`'s units (no round-one fire), retreating later
/// by "win chance below `threshold`". The Monte Carlo mode asks this to
/// play the same retreat policy through the battle engine.
pub(crate) fn win_chance_pressing_on(
    model: &BattleModel,
    opts: &CalcOptions,
    ws: &mut Workspace,
    threshold: f64,
) -> Result<f64, CalcError> {
    if model.defenders.is_empty() {
        return Ok(1.0);
    }
    if model.attackers.is_empty() {
        return Ok(0.0);
    }
    let eps = opts.prune_below;
    if fleet::applies(model) {
        fleet::prepare(model, opts, &mut ws.fleet, &mut ws.grid)?;
        let Workspace { fleet, grid, visited, value, retreat, .. } = ws;
        let fleet::Sides { att, def, scratch } = fleet;
        let lent = RefCell::new(std::mem::take(scratch));
        let kernel = FleetKernel::new(model, att, def, &lent, eps * TRANSITION_FACTOR, eps);
        let chance = if kernel.stalemate(0, 0) {
            if kernel.helpless(0, 0) && model.without_defenseless(model.defenders).is_empty() {
                1.0
            } else {
                0.0
            }
        } else {
            pressing_on(&kernel, grid, visited, value, retreat, threshold)
        };
        *scratch = lent.into_inner();
        return Ok(chance);
    }
    let prep = prepare(model, opts, ws)?;
    let Workspace { att, def, grid, visited, value, retreat, att_fires, def_fires, def_defenseless, att_air, .. } = ws;
    let ends = Ends { on: prep.ends, att_fires, def_fires, def_defenseless };
    let kernel = Kernel::new(&prep, att, def, att_air, ends, eps);
    if kernel.stalemate(0, 0) {
        return Ok(if kernel.helpless(0, 0) && model.without_defenseless(model.defenders).is_empty() { 1.0 } else { 0.0 });
    }
    Ok(pressing_on(&kernel, grid, visited, value, retreat, threshold))
}

fn pressing_on<K: Round>(k: &K, grid: &mut [f64], visited: &mut Vec<u32>, value: &mut Vec<f64>, retreat: &mut Vec<bool>, threshold: f64) -> f64 {
    grid[0] = 1.0;
    visited.clear();
    folded(k, grid, None, Some(visited));
    win_chances(k, visited, value, retreat, threshold)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Battle;
    use warboard_rules::UnitType;

    /// Two-hit battleships (no classic ruleset has them; later editions
    /// do): the first hit only damages.
    #[test]
    fn two_hit_battleship() {
        let rs = warboard_rules::ruleset("classic").unwrap();
        let battle = Battle::parse("1 bb vs 1 sub").unwrap();
        let (mut model, _) = BattleModel::new(&rs, &battle, false).unwrap();
        model.profiles[UnitType::Battleship.index()].hit_points = 2;
        let o = solve(&model, &CalcOptions::default(), &mut Workspace::default()).unwrap();
        // Hits on 4 against 2. Whole: the battleship wins outright when it
        // hits (6/7), else is damaged (1/7); damaged: wins 4/7, draw 2/7,
        // loses 1/7.
        let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        close(o.attacker_wins, 46.0 / 49.0);
        close(o.draw, 2.0 / 49.0);
        close(o.defender_wins, 1.0 / 49.0);
        close(o.attacker_survivor(UnitType::Battleship), 46.0 / 49.0);
        close(o.attacker_ipc_loss, 24.0 * 3.0 / 49.0);
        // Hits damage whole battleships first: two of them lose one only
        // to a third hit. With k hits taken and both afloat, a round ends
        // the battle at k (16/25) or k + 1 (8/25), or goes on at k + 1
        // (1/25); from three hits the last battleship wins 4/7, draws 2/7
        // and loses 1/7.
        let battle = Battle::parse("2 bb vs 1 sub").unwrap();
        let (mut model, _) = BattleModel::new(&rs, &battle, false).unwrap();
        model.profiles[UnitType::Battleship.index()].hit_points = 2;
        let o = solve(&model, &CalcOptions::default(), &mut Workspace::default()).unwrap();
        let reach_two = 1.0 / 625.0;
        let lost = reach_two * ((8.0 / 25.0 + 1.0 / 25.0 * 4.0 / 7.0) + 2.0 * (1.0 / 25.0 * 3.0 / 7.0));
        close(o.attacker_ipc_loss, 24.0 * lost);
        close(o.defender_wins, reach_two / 25.0 / 7.0);
        close(o.draw, reach_two / 25.0 * 2.0 / 7.0);
    }

    /// The fleet kernel answers what the classic kernel answers, on sea
    /// battles both can fight: classic's (no destroyers, aircraft hit
    /// submarines), and Europe's without destroyers or aircraft.
    #[test]
    fn the_fleet_kernel_agrees_with_the_classic_kernel() {
        let cases = [
            ("classic", "4 sub, 2 ftr, 2 bmb, 2 bb vs 3 sub, 2 cv, 4 ftr, 2 bb, 2 trn"),
            ("classic", "2 ftr, 1 bb, 1 sub vs 2 sub, 1 bb"),
            ("classic", "3 ftr, 2 bb vs 3 sub, 1 cv, 2 ftr"),
            ("classic", "1 ftr, 1 bmb, 2 trn, 1 bb vs 2 sub, 1 trn"),
            ("classic", "3 sub, 1 cv, 2 ftr vs 2 sub, 1 trn, 1 bb"),
            ("europe", "3 sub, 2 bb vs 2 sub, 1 bb, 1 trn"),
            ("europe", "2 sub, 1 cv vs 1 bb, 2 trn, 1 sub"),
        ];
        let orders = [
            CalcOptions::default(),
            CalcOptions { attacker_order: crate::LossOrder::KeepAircraft, retreat: RetreatPolicy::WinChanceBelow(0.4), ..Default::default() },
            CalcOptions { defender_order: crate::LossOrder::Explicit(vec![UnitType::Battleship]), retreat: RetreatPolicy::AfterRound(2), ..Default::default() },
            CalcOptions { rounds_distribution: true, ..Default::default() },
        ];
        for (ruleset, text) in cases {
            let rs = warboard_rules::ruleset(ruleset).unwrap();
            let battle = Battle::parse(text).unwrap();
            let (model, _) = BattleModel::new(&rs, &battle, false).unwrap();
            for opts in &orders {
                let mut ws = Workspace::default();
                let classic = solve_with(&model, opts, &mut ws, false).unwrap();
                let fleet = solve_with(&model, opts, &mut ws, true).unwrap();
                let close = |what: &str, a: f64, b: f64| assert!((a - b).abs() < 1e-9, "{ruleset} {text} {opts:?}: {what}: classic {a}, fleet {b}");
                close("attacker wins", classic.attacker_wins, fleet.attacker_wins);
                close("defender wins", classic.defender_wins, fleet.defender_wins);
                close("draw", classic.draw, fleet.draw);
                close("retreated", classic.retreated, fleet.retreated);
                close("rounds", classic.expected_rounds, fleet.expected_rounds);
                close("attacker loss", classic.attacker_ipc_loss, fleet.attacker_ipc_loss);
                close("defender loss", classic.defender_ipc_loss, fleet.defender_ipc_loss);
                for (a, b) in classic.rounds_distribution.iter().zip(&fleet.rounds_distribution) {
                    close("rounds distribution", *a, *b);
                }
                for o in &classic.outcomes {
                    let f = fleet.outcomes.iter().find(|x| (x.ending, x.attackers, x.defenders) == (o.ending, o.attackers, o.defenders));
                    close(&format!("{:?} {} / {}", o.ending, o.attackers, o.defenders), o.probability, f.map_or(0.0, |x| x.probability));
                }
            }
        }
    }
}
