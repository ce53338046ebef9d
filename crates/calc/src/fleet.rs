//! Sea battles where what submarines and aircraft may do changes from
//! round to round (Europe, Anniversary): an enemy anti-submarine unit
//! (destroyer) in the battle cancels the submarines' first strike (the
//! attacker's; Anniversary's defender's too), aircraft hit
//! submarines only with an anti-submarine unit of their side in the battle
//! (knob `air_needs_anti_submarine`), and submarines' hits never take
//! aircraft (knob `submarines_hit_aircraft`). Losing the last destroyer
//! restores the first strike and stops the aircraft hitting submarines, so
//! the state of the dynamic program is what each side has left.
//!
//! A side's units are of three kinds for these rules: aircraft, submarines
//! and the rest. The side's order of loss (the engine's default, or the
//! side's option) is one sequence of hits; each kind's hits are its own
//! part of it, and what is left of a side is how far each kind has gone
//! along its part: a node `(i_air, i_sub, i_rest)`, numbered so that a hit
//! only ever leads to a higher number.
//!
//! Casualties (casualties.rs, `default_casualties`): a step's hits come in
//! up to three groups, by what they may take: `no_air` hits (submarines'),
//! `no_sub` hits (aircraft without a destroyer of their side) and hits on
//! anyone. The engine picks the legal set of losses that follows the order
//! of loss (`pick_in_order`, the greedy pick of a transversal matroid).
//! With `r1`, `r2` and `g` hits in the three groups a set of losses is
//! legal when it has at most `r2 + g` aircraft, at most `r1 + g`
//! submarines and at most `r1 + r2 + g` units in all (Hall's condition for
//! the three kinds), so the greedy pick walks the order of loss taking
//! each unit whose kind is still under its cap, up to the total
//! (`Side::apply`). One more hit on anyone only adds the first unit left in
//! the order of loss (the picks are nested), so the hits on anyone are
//! looked up in a table after the restricted groups' (`Side::next`).
//!
//! A round (fire.rs, `run`): the attacker's first strikers (submarines,
//! unless the defender has an anti-submarine unit) fire, and the
//! defender's (Anniversary's submarines, `first_strike = "both"`, unless
//! the attacker has an anti-submarine unit) fire at the same time, those
//! the attacker's strike hit included; the defender's strike's victims
//! leave at once, the attacker's once both have struck (`Removal::
//! AfterFirstStrikes`); the attacker's other units fire and mark
//! defenders, who still fire; every defender left that did not strike
//! first fires, its hits taking attackers at once; marked defenders leave.
//! A state where neither side can hurt the other ends the battle as if the
//! attacker broke off (ending.rs, `finish_if_over`); one where the
//! defender cannot hurt the attacker ends with its defenseless units
//! (transports) lost without dice. Defenseless units are ships of the
//! rest, last in every order of loss (`loss::LossRule`).

use crate::dist::{outward, pips, push_certain_zero, push_unit, rolls, Dist, LowLuckDists};
use crate::exact::{Round, Sink, MAX_STATES};
use crate::loss::{class_type, composition_of, Composition, LossRule, Pool, CLASSES};
use crate::model::BattleModel;
use crate::options::CalcOptions;
use crate::CalcError;
use std::cell::RefCell;

/// The kinds of unit, for these rules.
const AIR: usize = 0;
const SUB: usize = 1;
const REST: usize = 2;

/// Firing groups as bit masks: which kinds' dice a distribution counts.
const M_AIR: usize = 1;
const M_SUB: usize = 2;
const M_REST: usize = 4;

/// Node flags.
const HAS_AIR: u16 = 1;
const HAS_SUB: u16 = 2;
const HAS_REST: u16 = 4;
/// An anti-submarine unit (destroyer).
const ANTI_SUB: u16 = 8;
/// A first striker in the side's role (a submarine: attacking, or
/// defending too where `first_strike = "both"`).
const STRIKER: u16 = 16;
/// Units of each kind with a die in the side's role.
const FIRES_AIR: u16 = 32;
const FIRES_SUB: u16 = 64;
const FIRES_REST: u16 = 128;
const FIRES: u16 = FIRES_AIR | FIRES_SUB | FIRES_REST;
/// A defenseless unit (transport: always a ship of the rest, never
/// firing: `model::unmodelled`), and a unit that is not.
const DEFENSELESS: u16 = 256;
const NOT_DEFENSELESS: u16 = 512;

/// Nodes of one side beyond this are refused.
const MAX_NODES: usize = 4_000_000;
/// Hit-table entries beyond this are refused (memory).
const MAX_TABLE: usize = 50_000_000;

/// Whether `model` needs this kernel: a sea battle with submarines where an
/// anti-submarine unit takes part, or aircraft that need one to hit
/// submarines, or submarines without a first strike, or defending
/// submarines that strike first (Anniversary). Other battles (all of
/// classic's) take the classic kernel.
pub(crate) fn applies(model: &BattleModel) -> bool {
    if !model.sea {
        return false;
    }
    let types = || model.attackers.iter().chain(model.defenders.iter()).map(|(t, _)| model.profile(t));
    if !types().any(|p| p.submarine) {
        return false;
    }
    types().any(|p| p.anti_submarine)
        || (model.air_needs_anti_submarine && types().any(|p| p.is_air()))
        || types().any(|p| p.submarine && !p.first_strike)
        || model.defenders.iter().any(|(t, _)| model.profile(t).submarine && model.profile(t).first_strike_defending)
}

/// One side's nodes.
#[derive(Default)]
pub(crate) struct Side {
    /// Hits of each kind along the order of loss.
    n: [usize; 3],
    /// Each kind's hits' places in the whole order of loss, and the classes
    /// they hit.
    pos: [Vec<u32>; 3],
    entries: [Vec<usize>; 3],
    /// A node is `i_air · stride[AIR] + i_sub · stride[SUB] + i_rest`.
    stride: [usize; 3],
    comps: Vec<Composition>,
    /// Per node: how far each kind has gone.
    at: Vec<[u16; 3]>,
    /// `next_all[n · width + k]`: the node after `k` hits on anyone (hits
    /// beyond `width - 1` count as `width - 1`).
    width: usize,
    next_all: Vec<u32>,
    flags: Vec<u16>,
    /// Per node, per group mask (1 to 7): the hit distribution.
    dists: Vec<[Dist; 8]>,
    arena: Vec<f64>,
    /// Low Luck: per node, per group mask, the total of the group's dice;
    /// and the distributions by total.
    totals: Vec<[u32; 8]>,
    low_luck: LowLuckDists,
}

impl Side {
    fn len(&self) -> usize {
        self.comps.len()
    }

    fn empty(&self) -> usize {
        self.comps.len() - 1
    }

    #[inline(always)]
    fn has(&self, node: usize, flag: u16) -> bool {
        self.flags[node] & flag != 0
    }

    #[inline(always)]
    fn coords(&self, node: usize) -> [usize; 3] {
        let at = self.at[node];
        [at[0] as usize, at[1] as usize, at[2] as usize]
    }

    #[inline(always)]
    fn dist(&self, node: usize, mask: usize) -> (&[f64], Dist) {
        let d = self.dists[node][mask];
        (d.slice(&self.arena), d)
    }

    /// The node after `hits` hits on anyone.
    #[inline(always)]
    fn next(&self, node: usize, hits: usize) -> usize {
        self.next_all[node * self.width + hits.min(self.width - 1)] as usize
    }

    /// The node after hits in three groups: `r1` that may not take
    /// aircraft, `r2` that may not take submarines, `g` on anyone; the
    /// greedy pick along the order of loss (see the module's notes).
    #[inline(always)]
    fn apply(&self, node: usize, r1: usize, r2: usize, g: usize) -> usize {
        let total = r1 + r2 + g;
        if total == 0 {
            return node;
        }
        let [mut air, mut sub, mut rest] = self.coords(node);
        // Where each kind's next hit is in the order of loss (none: past
        // the end, or the kind at its cap).
        let end = u32::MAX;
        let pos = |kind: usize, i: usize, taken: usize, cap: usize| if i < self.n[kind] && taken < cap { self.pos[kind][i] } else { end };
        let (cap_air, cap_sub) = (r2 + g, r1 + g);
        let (mut took_air, mut took_sub) = (0, 0);
        let (mut p_air, mut p_sub, mut p_rest) = (pos(AIR, air, 0, cap_air), pos(SUB, sub, 0, cap_sub), pos(REST, rest, 0, usize::MAX));
        for _ in 0..total {
            if p_rest < p_air && p_rest < p_sub {
                rest += 1;
                p_rest = pos(REST, rest, 0, usize::MAX);
            } else if p_air < p_sub {
                air += 1;
                took_air += 1;
                p_air = pos(AIR, air, took_air, cap_air);
            } else if p_sub != end {
                sub += 1;
                took_sub += 1;
                p_sub = pos(SUB, sub, took_sub, cap_sub);
            } else {
                break;
            }
        }
        air * self.stride[AIR] + sub * self.stride[SUB] + rest
    }

    /// Lays out the side's order of loss from its root composition and
    /// returns how many nodes it has.
    fn plan(&mut self, model: &BattleModel, root: Composition, rule: &LossRule) -> usize {
        // The order of loss, one hit at a time (the same rule as the classic
        // kernel's and Monte Carlo's).
        for (p, e) in self.pos.iter_mut().zip(self.entries.iter_mut()) {
            p.clear();
            e.clear();
        }
        let mut comp = root;
        let mut place = 0u32;
        while let Some(class) = rule.next_hit(&comp, Pool::All) {
            rule.hit(&mut comp, class);
            let kind = kind_of(model, class);
            self.entries[kind].push(class);
            self.pos[kind].push(place);
            place += 1;
        }
        self.n = [self.entries[AIR].len(), self.entries[SUB].len(), self.entries[REST].len()];
        self.stride = [(self.n[SUB] + 1) * (self.n[REST] + 1), self.n[REST] + 1, 1];
        (self.n[AIR] + 1).saturating_mul(self.stride[AIR])
    }

    /// Builds the side planned from `root`: `values` are its die codes in
    /// its role (`attacking` or not: which submarines strike first). Under
    /// Low Luck (`model.low_luck`) each group mask's hits are one Low Luck
    /// group of its dice's total: the engine groups a step's dice by the
    /// units their hits may take, as the masks do (fire.rs,
    /// `low_luck_groups`).
    #[allow(clippy::too_many_arguments)]
    fn build(&mut self, model: &BattleModel, root: Composition, rule: &LossRule, values: &[u8; CLASSES], attacking: bool, width: usize, trim: f64) -> Result<(), CalcError> {
        let nodes = (self.n[AIR] + 1).saturating_mul(self.stride[AIR]);
        if nodes > MAX_NODES {
            return Err(CalcError::TooLarge(format!("one side has more than {MAX_NODES} distinct states")));
        }
        let entries = std::mem::take(&mut self.entries);
        // Compositions, kind by kind (the kinds' hits touch different
        // classes, so their order does not matter).
        self.comps.clear();
        self.at.clear();
        let mut ca = root;
        for ia in 0..=self.n[AIR] {
            let mut cs = ca;
            for is in 0..=self.n[SUB] {
                let mut cr = cs;
                for ir in 0..=self.n[REST] {
                    self.comps.push(cr);
                    self.at.push([ia as u16, is as u16, ir as u16]);
                    if let Some(&class) = entries[REST].get(ir) {
                        rule.hit(&mut cr, class);
                    }
                }
                if is < self.n[SUB] {
                    rule.hit(&mut cs, entries[SUB][is]);
                }
            }
            if ia < self.n[AIR] {
                rule.hit(&mut ca, entries[AIR][ia]);
            }
        }
        // Hits on anyone take the next hit of the order of loss: of the
        // kinds' next hits, the one that comes first.
        self.width = width.max(2);
        let w = self.width;
        if nodes.saturating_mul(w) > MAX_TABLE {
            return Err(CalcError::TooLarge(format!("{nodes} states of one side, each with {w} hit counts")));
        }
        self.next_all.clear();
        self.next_all.resize(nodes * w, 0);
        for node in (0..nodes).rev() {
            let at = self.at[node];
            let first = (0..3).filter(|k| (at[*k] as usize) < self.n[*k]).min_by_key(|k| self.pos[*k][at[*k] as usize]);
            let child = first.map_or(node, |k| node + self.stride[k]);
            self.next_all[node * w] = node as u32;
            for k in 1..w {
                self.next_all[node * w + k] = if child == node { node as u32 } else { self.next_all[child * w + k - 1] };
            }
        }
        // Flags.
        self.flags.clear();
        for c in &self.comps {
            let mut f = 0u16;
            for (class, &k) in c.iter().enumerate() {
                if k == 0 {
                    continue;
                }
                let p = model.profile(class_type(class));
                let kind = kind_of(model, class);
                f |= [HAS_AIR, HAS_SUB, HAS_REST][kind];
                if values[class] > 0 {
                    f |= [FIRES_AIR, FIRES_SUB, FIRES_REST][kind];
                }
                if p.anti_submarine {
                    f |= ANTI_SUB;
                }
                if p.submarine && if attacking { p.first_strike } else { p.first_strike_defending } {
                    f |= STRIKER;
                }
                f |= if p.defenseless { DEFENSELESS } else { NOT_DEFENSELESS };
            }
            self.flags.push(f);
        }
        // Hit distributions per group, from the last node back: a node's is
        // that of the node one hit further along some kind, with the die of
        // the unit that hit destroys.
        self.arena.clear();
        self.dists.clear();
        self.dists.resize(nodes, [Dist::default(); 8]);
        if model.low_luck {
            self.totals.clear();
            self.totals.resize(nodes, [0; 8]);
            self.low_luck.clear();
        }
        let mut zero = Dist::default();
        for node in (0..nodes).rev() {
            let at = self.coords(node);
            let step = (0..3).rev().find(|k| at[*k] < self.n[*k]);
            let Some(kind) = step else {
                zero = push_certain_zero(&mut self.arena);
                self.dists[node] = [zero; 8];
                continue;
            };
            if model.low_luck {
                let child = node + self.stride[kind];
                let class = entries[kind][at[kind]];
                let mut after = self.comps[node];
                let destroys = matches!(rule.hit(&mut after, class), crate::loss::HitEffect::Destroys);
                let bit = [M_AIR, M_SUB, M_REST][kind];
                let mut totals = self.totals[child];
                for (mask, t) in totals.iter_mut().enumerate().skip(1) {
                    if destroys && mask & bit != 0 {
                        *t += pips(values[class]);
                    }
                }
                self.totals[node] = totals;
                let mut row = [zero; 8];
                for mask in 1..8 {
                    row[mask] = self.low_luck.get(&mut self.arena, totals[mask]);
                }
                self.dists[node] = row;
                continue;
            }
            let child = node + self.stride[kind];
            let class = entries[kind][at[kind]];
            // The hit destroys the unit unless it damages a whole one: then
            // the class it leaves has one unit more.
            let mut after = self.comps[node];
            let destroys = matches!(rule.hit(&mut after, class), crate::loss::HitEffect::Destroys);
            let bit = [M_AIR, M_SUB, M_REST][kind];
            let mut row = self.dists[child];
            if destroys && values[class] > 0 {
                for (mask, d) in row.iter_mut().enumerate().skip(1) {
                    if mask & bit != 0 {
                        *d = push_unit(&mut self.arena, *d, values[class], trim);
                    }
                }
            }
            row[0] = zero;
            self.dists[node] = row;
        }
        self.entries = entries;
        Ok(())
    }
}

/// A unit's kind, for these rules.
fn kind_of(model: &BattleModel, class: usize) -> usize {
    let p = model.profile(class_type(class));
    if p.is_air() {
        AIR
    } else if p.submarine {
        SUB
    } else {
        REST
    }
}

/// Both sides, and the kernel's scratch buffers (lent to a kernel in a
/// `RefCell` for one solve: the calculator stays `Sync`).
#[derive(Default)]
pub(crate) struct Sides {
    pub att: Side,
    pub def: Side,
    pub scratch: Scratch,
}

/// Buffers of one round's successors.
#[derive(Default)]
pub(crate) struct Scratch {
    acc_att: Vec<f64>,
    acc_def: Vec<f64>,
    touched: Vec<u32>,
    /// A side's next nodes with their chances: the last computed, and the
    /// defender's, kept while the attacker's are computed.
    out: Vec<(u32, f64)>,
    v: Vec<(u32, f64)>,
    /// Each group's hits, counted up to what it may take.
    pg: Vec<f64>,
    p1: Vec<f64>,
    p2: Vec<f64>,
}

/// Whose accumulator a side's losses use.
#[derive(Clone, Copy)]
enum Who {
    Attacker,
    Defender,
}

/// The chances of `0..=most` hits by group `mask` of `fire` at `f`, hits
/// beyond `most` counted as `most` (no group: no hits for sure).
fn clamp(fire: &Side, f: usize, mask: usize, most: usize, out: &mut Vec<f64>) {
    out.clear();
    if mask == 0 {
        out.push(1.0);
        return;
    }
    let (p, d) = fire.dist(f, mask);
    let lo = d.lo as usize;
    out.resize(most.min(lo + p.len() - 1) + 1, 0.0);
    for (i, pi) in p.iter().enumerate() {
        out[(lo + i).min(most)] += pi;
    }
}

/// Builds both sides of `model` and an empty grid of its states.
pub(crate) fn prepare(model: &BattleModel, opts: &CalcOptions, sides: &mut Sides, grid: &mut Vec<f64>) -> Result<(), CalcError> {
    let att_rule = LossRule::new(model, &opts.attacker_order, true);
    let def_rule = LossRule::new(model, &opts.defender_order, false);
    let att_root = composition_of(model, &model.attackers, &model.attackers_damaged);
    let def_root = composition_of(model, &model.defenders, &model.defenders_damaged);
    let hp = att_rule.hit_points(&att_root).max(def_rule.hit_points(&def_root)) as usize;
    if hp > crate::exact::MAX_HIT_POINTS {
        return Err(CalcError::TooLarge(format!("more than {} hit points on a side", crate::exact::MAX_HIT_POINTS)));
    }
    let mut attack = [0u8; CLASSES];
    let mut defense = [0u8; CLASSES];
    for class in 0..CLASSES {
        let p = model.profile(class_type(class));
        attack[class] = p.attack;
        defense[class] = p.defense;
    }
    let trim = opts.prune_below * 1e-4;
    // The most hits one step can score against a side: the other side's
    // dice.
    let dice = |root: &Composition, values: &[u8; CLASSES]| -> usize { (0..CLASSES).map(|c| root[c] as usize * rolls(values[c])).sum() };
    let (att_hp, def_hp) = (att_rule.hit_points(&att_root) as usize, def_rule.hit_points(&def_root) as usize);
    let states = sides.att.plan(model, att_root, &att_rule).saturating_mul(sides.def.plan(model, def_root, &def_rule));
    if states > MAX_STATES {
        return Err(CalcError::TooLarge(format!("{states} battle states (at most {MAX_STATES})")));
    }
    sides.att.build(model, att_root, &att_rule, &attack, true, att_hp.min(dice(&def_root, &defense)) + 1, trim)?;
    sides.def.build(model, def_root, &def_rule, &defense, false, def_hp.min(dice(&att_root, &attack)) + 1, trim)?;
    grid.clear();
    grid.resize(states, 0.0);
    let s = &mut sides.scratch;
    s.acc_att.clear();
    s.acc_att.resize(sides.att.len(), 0.0);
    s.acc_def.clear();
    s.acc_def.resize(sides.def.len(), 0.0);
    Ok(())
}

/// One round of a fleet battle (see the module's notes).
#[derive(Clone, Copy)]
pub(crate) struct FleetKernel<'a> {
    att: &'a Side,
    def: &'a Side,
    scratch: &'a RefCell<Scratch>,
    eps: f64,
    eps_state: f64,
    subs_hit_aircraft: bool,
    air_needs_anti_submarine: bool,
}

impl<'a> FleetKernel<'a> {
    pub fn new(model: &BattleModel, att: &'a Side, def: &'a Side, scratch: &'a RefCell<Scratch>, eps: f64, eps_state: f64) -> FleetKernel<'a> {
        FleetKernel {
            att,
            def,
            scratch,
            eps,
            eps_state,
            subs_hit_aircraft: model.subs_hit_aircraft,
            air_needs_anti_submarine: model.air_needs_anti_submarine,
        }
    }

    /// The attacker's submarines strike first from `(a, d)`.
    #[inline(always)]
    fn first_strike(&self, a: usize, d: usize) -> bool {
        self.att.has(a, STRIKER) && !self.def.has(d, ANTI_SUB)
    }

    /// The defender's submarines strike first from `(a, d)` (Anniversary).
    #[inline(always)]
    fn defender_strike(&self, a: usize, d: usize) -> bool {
        self.def.has(d, STRIKER) && !self.att.has(a, ANTI_SUB)
    }

    /// Probability that a first strike by `fire`'s submarines at `f` takes
    /// nothing of `target` at `t` (its hits take no aircraft unless the
    /// option says so: against aircraft alone they are lost).
    #[inline(always)]
    fn strike_misses(&self, fire: &Side, f: usize, target: &Side, t: usize) -> f64 {
        if self.subs_hit_aircraft || target.flags[t] & (HAS_SUB | HAS_REST) != 0 {
            fire.dist(f, M_SUB).1.p_zero(&fire.arena)
        } else {
            1.0
        }
    }

    /// A first strike by `fire`'s submarines at `f` on `target` at `t`:
    /// calls `each(node target is left at, weight)` per number of hits
    /// (those below the transition threshold left out).
    #[inline(always)]
    fn strike(&self, fire: &Side, f: usize, target: &Side, t: usize, weight: f64, mut each: impl FnMut(usize, f64)) {
        let (p, dist) = fire.dist(f, M_SUB);
        let restricted = !self.subs_hit_aircraft;
        outward(p, dist.mode as usize, weight, self.eps, |i, w| {
            let hits = dist.lo as usize + i;
            each(if restricted { target.apply(t, hits, 0, 0) } else { target.next(t, hits) }, w);
        });
    }

    /// How `fire` at node `f` fires at `target` at node `t`: the masks of
    /// its `no_air` group, its `no_sub` group and its group on anyone (0:
    /// no such group). `subs` says whether its submarines fire in this
    /// step.
    #[inline(always)]
    fn groups(&self, fire: &Side, f: usize, target: &Side, t: usize, subs: bool) -> (usize, usize, usize) {
        // A restriction matters only where the target has units it spares.
        let r1 = subs && !self.subs_hit_aircraft && target.has(t, HAS_AIR);
        let r2 = self.air_needs_anti_submarine && !fire.has(f, ANTI_SUB) && target.has(t, HAS_SUB);
        let mut g = M_REST;
        if subs && !r1 {
            g |= M_SUB;
        }
        if !r2 {
            g |= M_AIR;
        }
        (if r1 { M_SUB } else { 0 }, if r2 { M_AIR } else { 0 }, g)
    }

    /// Probability that `fire`'s hits take nothing of `target`.
    #[inline(always)]
    fn no_loss(&self, fire: &Side, f: usize, target: &Side, t: usize, subs: bool) -> f64 {
        if t == target.empty() {
            return 1.0;
        }
        let (m1, m2, g) = self.groups(fire, f, target, t, subs);
        let zero = |mask: usize| fire.dist(f, mask).1.p_zero(&fire.arena);
        let mut p = zero(g);
        if m1 != 0 && target.flags[t] & (HAS_SUB | HAS_REST) != 0 {
            p *= zero(m1);
        }
        if m2 != 0 && target.flags[t] & (HAS_AIR | HAS_REST) != 0 {
            p *= zero(m2);
        }
        p
    }

    /// The nodes `target` may be left at after `fire`'s hits, with their
    /// chances (those below `floor` left out), into `out`.
    #[allow(clippy::too_many_arguments)]
    fn losses(&self, fire: &Side, f: usize, target: &Side, t: usize, subs: bool, floor: f64, s: &mut Scratch, acc: Who) {
        s.out.clear();
        if t == target.empty() {
            s.out.push((t as u32, 1.0));
            return;
        }
        let (m1, m2, g) = self.groups(fire, f, target, t, subs);
        // Hits beyond what a group may take change nothing: each group's
        // hits are counted up to that (the rest summed into the last).
        let at = target.coords(t);
        let left = [target.n[AIR] - at[AIR], target.n[SUB] - at[SUB], target.n[REST] - at[REST]];
        clamp(fire, f, g, left[AIR] + left[SUB] + left[REST], &mut s.pg);
        clamp(fire, f, m1, left[SUB] + left[REST], &mut s.p1);
        clamp(fire, f, m2, left[AIR] + left[REST], &mut s.p2);
        let acc = match acc {
            Who::Attacker => &mut s.acc_att,
            Who::Defender => &mut s.acc_def,
        };
        s.touched.clear();
        // Hits on anyone take the next hits of the order of loss after the
        // restricted groups' (their greedy pick grows by one unit per hit,
        // the first one left: see the module's notes).
        for (h1, &w1) in s.p1.iter().enumerate() {
            if w1 < floor {
                continue;
            }
            for (h2, &w2) in s.p2.iter().enumerate() {
                let w12 = w1 * w2;
                if w12 < floor {
                    continue;
                }
                let base = target.apply(t, h1, h2, 0);
                for (hg, &wg) in s.pg.iter().enumerate() {
                    let w = w12 * wg;
                    if w < floor {
                        continue;
                    }
                    let next = target.next(base, hg);
                    if acc[next] == 0.0 {
                        s.touched.push(next as u32);
                    }
                    acc[next] += w;
                }
            }
        }
        for &n in s.touched.iter() {
            s.out.push((n, std::mem::take(&mut acc[n as usize])));
        }
    }

    /// The attacker's fire from node `a1` (after the defender's first
    /// strike; its submarines' too unless they struck first) at defender
    /// node `d1` (after the attacker's first strike), and every defender of
    /// `d1` firing back (its submarines too unless they struck first).
    #[inline(always)]
    fn exchange(&self, a1: usize, d1: usize, struck_first: bool, defender_struck: bool, weight: f64, sink: &mut impl Sink) {
        let mut s = self.scratch.borrow_mut();
        let s = &mut *s;
        let floor = self.eps / weight;
        let nd = self.def.len();
        self.losses(self.att, a1, self.def, d1, !struck_first, floor, s, Who::Defender);
        std::mem::swap(&mut s.out, &mut s.v);
        self.losses(self.def, d1, self.att, a1, !defender_struck, floor, s, Who::Attacker);
        for &(an, pu) in &s.out {
            let wu = weight * pu;
            if wu < self.eps {
                continue;
            }
            let row = an as usize * nd;
            for &(dn, pv) in &s.v {
                let w = wu * pv;
                if w >= self.eps {
                    sink.one(an as usize, row + dn as usize, w);
                }
            }
        }
    }

    /// Whether units of `fire` at `f` could hit a unit of `target` at `t`
    /// (ending.rs, `can_hurt`: any unit with a die whose hits may take one).
    fn can_hurt(&self, fire: &Side, f: usize, target: &Side, t: usize) -> bool {
        let (ff, tf) = (fire.flags[f], target.flags[t]);
        let any = tf & (HAS_AIR | HAS_SUB | HAS_REST) != 0;
        let no_air = tf & (HAS_SUB | HAS_REST) != 0;
        let no_sub = tf & (HAS_AIR | HAS_REST) != 0;
        (ff & FIRES_REST != 0 && any)
            || (ff & FIRES_SUB != 0 && if self.subs_hit_aircraft { any } else { no_air })
            || (ff & FIRES_AIR != 0 && if self.air_needs_anti_submarine && ff & ANTI_SUB == 0 { no_sub } else { any })
    }
}

impl Round for FleetKernel<'_> {
    const REPLAY: bool = true;

    fn na(&self) -> usize {
        self.att.len()
    }
    fn nd(&self) -> usize {
        self.def.len()
    }
    fn att_empty(&self) -> usize {
        self.att.empty()
    }
    fn def_empty(&self) -> usize {
        self.def.empty()
    }
    fn eps_state(&self) -> f64 {
        self.eps_state
    }
    fn eps(&self) -> f64 {
        self.eps
    }
    fn with_eps(self, eps: f64, eps_state: f64) -> Self {
        FleetKernel { eps, eps_state, ..self }
    }
    fn att_comp(&self, a: usize) -> &Composition {
        &self.att.comps[a]
    }
    fn def_comp(&self, d: usize) -> &Composition {
        &self.def.comps[d]
    }

    fn stalemate(&self, a: usize, d: usize) -> bool {
        a != self.att.empty() && d != self.def.empty() && !self.can_hurt(self.def, d, self.att, a) && (self.def.has(d, DEFENSELESS) || !self.can_hurt(self.att, a, self.def, d))
    }

    fn helpless(&self, a: usize, d: usize) -> bool {
        // Defenseless units are ships of the rest, hit by any die.
        a != self.att.empty() && d != self.def.empty() && self.def.has(d, DEFENSELESS) && self.att.flags[a] & FIRES != 0 && !self.can_hurt(self.def, d, self.att, a)
    }

    fn only_defenseless(&self, d: usize) -> bool {
        self.def.has(d, DEFENSELESS) && !self.def.has(d, NOT_DEFENSELESS)
    }

    fn stay(&self, a: usize, d: usize) -> f64 {
        let fs = self.first_strike(a, d);
        let dfs = self.defender_strike(a, d);
        let strike = if fs { self.strike_misses(self.att, a, self.def, d) } else { 1.0 };
        let defender_strike = if dfs { self.strike_misses(self.def, d, self.att, a) } else { 1.0 };
        // Without first-strike hits, both sides fire from `(a, d)` itself.
        strike * defender_strike * self.no_loss(self.att, a, self.def, d, !fs) * self.no_loss(self.def, d, self.att, a, !dfs)
    }

    fn successors(&self, a: usize, d: usize, weight: f64, sink: &mut impl Sink) {
        // The attacker's submarines strike first: their victims leave once
        // the defender's have struck back (fire.rs, `Removal::
        // AfterFirstStrikes`). The defender's submarines (Anniversary),
        // those struck included, strike at the same time: their victims
        // leave at once, before the attacker's other units fire (`Now`).
        match (self.first_strike(a, d), self.defender_strike(a, d)) {
            (false, false) => self.exchange(a, d, false, false, weight, sink),
            (true, false) => self.strike(self.att, a, self.def, d, weight, |d1, w| self.exchange(a, d1, true, false, w, sink)),
            (false, true) => self.strike(self.def, d, self.att, a, weight, |a1, w| self.exchange(a1, d, false, true, w, sink)),
            (true, true) => self.strike(self.att, a, self.def, d, weight, |d1, w| {
                self.strike(self.def, d, self.att, a, w, |a1, w| self.exchange(a1, d1, true, true, w, sink));
            }),
        }
    }
}
