//! Who fights, who may be taken as a casualty, and the default order of loss.

use super::{Battle, BattleKind, BattleSide, HitGroup, Targets};
use crate::ids::UnitId;
use crate::ruleset::{CargoFights, Ruleset};
use crate::state::{GameState, Unit};

/// Whether a unit is cargo on a transport (it never fights, DAAK 3.2(f)) or
/// another power's fighter aboard an attacking carrier (cargo too, DAAK
/// 3.4(e)).
fn is_cargo(rs: &Ruleset, s: &GameState, u: &Unit, attacking: bool) -> bool {
    match u.carried_by.and_then(|c| s.unit(c)) {
        None => false,
        Some(c) => match rs.stats(c.kind).cargo.as_ref().map(|k| k.fights) {
            // Fighters aboard a defending carrier defend (DAAK 3.4(b)).
            Some(CargoFights::Defending) => attacking,
            Some(CargoFights::Aircraft) => !rs.stats(u.kind).is_air(),
            _ => true,
        },
    }
}

/// The attacking units that take part: the attacker's units in the space,
/// apart from cargo, AA guns and factories. In a land battle ships are never
/// there (they bombard from the sea zone and cannot be hit, DAAK 3.5(b)).
pub fn attackers(rs: &Ruleset, s: &GameState, b: &Battle) -> Vec<UnitId> {
    fighting(rs, s, b, BattleSide::Attacker)
}

/// The defending units: every enemy unit there that can fight (not AA guns
/// or factories, DAAK 3.1(c); not cargo, DAAK 3.2(f)).
pub fn defenders(rs: &Ruleset, s: &GameState, b: &Battle) -> Vec<UnitId> {
    fighting(rs, s, b, BattleSide::Defender)
}

/// One side's units in the battle ([`attackers`] or [`defenders`]), in
/// battle order: unit table, then id.
pub fn fighting(rs: &Ruleset, s: &GameState, b: &Battle, side: BattleSide) -> Vec<UnitId> {
    let mut v: Vec<&Unit> = side_iter(rs, s, b, side).collect();
    v.sort_by_key(|u| (rs.rank(u.kind), u.id));
    v.into_iter().map(|u| u.id).collect()
}

/// Whether any unit of `side` in the battle has a type `pred` accepts.
pub(crate) fn side_has(rs: &Ruleset, s: &GameState, b: &Battle, side: BattleSide, pred: impl Fn(&crate::ruleset::UnitStats) -> bool) -> bool {
    side_iter(rs, s, b, side).any(|u| pred(rs.stats(u.kind)))
}

/// One side's units in the battle, in the order of the board.
fn side_iter<'a, 's: 'a>(rs: &'a Ruleset, s: &'s GameState, b: &'a Battle, side: BattleSide) -> impl Iterator<Item = &'s Unit> + 'a {
    let attacking = side == BattleSide::Attacker;
    s.units
        .iter()
        .filter(move |u| u.at == b.at && !u.flags.submerged && !u.flags.withdrawn && rs.stats(u.kind).is_combatant())
        .filter(move |u| if attacking { u.mover() == b.attacker } else { !s.allied(u.owner, b.attacker) })
        .filter(move |u| !is_cargo(rs, s, u, attacking))
        .filter(move |u| !attacking || (b.kind == BattleKind::Bombing) == u.flags.bombing)
        // A raid's defenders are its interceptors (knob `raid_escorts`), and
        // they fight in no other battle that turn (AA50 FAQ: Additional
        // Optional Rules).
        .filter(move |u| attacking || (b.kind == BattleKind::Bombing) == u.flags.intercepting)
}

/// The attacker's allies' units standing by in a sea battle, where the
/// ruleset lets them share its losses and spot submarines for it (knob
/// `bystanders_share_losses`, EUROPE FAQ: Submarines). They never fire and
/// never submerge.
pub(crate) fn bystanders<'a, 's: 'a>(rs: &'a Ruleset, s: &'s GameState, b: &'a Battle) -> impl Iterator<Item = &'s Unit> + 'a {
    // Most battles have none to look for: no walk of the board then.
    let on = rs.options.bystanders_share_losses && b.kind == BattleKind::Sea;
    let units: &'s [Unit] = if on { &s.units } else { &[] };
    units
        .iter()
        .filter(move |u| u.at == b.at && u.owner != b.attacker && s.allied(u.owner, b.attacker))
        .filter(move |u| !u.flags.submerged && rs.stats(u.kind).is_combatant() && !is_cargo(rs, s, u, true))
}

/// Whether `side` has, in the battle or standing by for it, a unit `pred`
/// accepts (a destroyer spotting submarines, EUROPE FAQ: Submarines: "The
/// British destroyer makes the subs vulnerable to air attack by its mere
/// presence").
pub(crate) fn side_or_bystander_has(rs: &Ruleset, s: &GameState, b: &Battle, side: BattleSide, pred: impl Fn(&crate::ruleset::UnitStats) -> bool) -> bool {
    side_has(rs, s, b, side, &pred) || (side == BattleSide::Attacker && bystanders(rs, s, b).any(|u| pred(rs.stats(u.kind))))
}

/// The units of `side` that hits with these targets may take: not those
/// already marked to go (DAAK 3.5(a)) or struck by a first strike; the
/// attacker's bystanders too where they share its losses. A unit with hit
/// points left beyond one appears once per hit it can still take.
pub fn pool(rs: &Ruleset, s: &GameState, b: &Battle, side: BattleSide, targets: Targets) -> Vec<UnitId> {
    let mut out = Vec::new();
    let standing_by = bystanders(rs, s, b).filter(|_| side == BattleSide::Attacker);
    // The order does not matter: choices sort their candidates.
    for u in side_iter(rs, s, b, side).chain(standing_by) {
        if b.dying.contains(&u.id) || b.struck.contains(&u.id) {
            continue;
        }
        let st = rs.stats(u.kind);
        if !targets.admit(st) {
            continue;
        }
        out.push(u.id);
        for _ in 1..st.hit_points.saturating_sub(u.hits) {
            out.push(u.id);
        }
    }
    out
}

/// The casualties a set of hit groups asks for: each group's hits and the
/// units they may take. A unit takes as many hits as it has hit points left
/// (it appears that often in a group's list); a group's hits beyond what it
/// may take are lost. Which sets of losses are legal is a matching question
/// (a transversal matroid): a set is legal when its hits can be shared out
/// among the groups that may score them, and as large as any such set.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CasualtyChoice {
    pub groups: Vec<(u32, Vec<UnitId>)>,
    /// Units taken only when nothing else can take the hit: defenseless
    /// ones (AA50 FAQ: Combat: transports "may only be taken as casualties
    /// when there is no other choice").
    pub last: Vec<UnitId>,
}

impl CasualtyChoice {
    pub fn of(rs: &Ruleset, s: &GameState, b: &Battle, side: BattleSide, groups: &[HitGroup]) -> CasualtyChoice {
        let groups: Vec<(u32, Vec<UnitId>)> = groups.iter().map(|g| (g.hits, pool(rs, s, b, side, g.targets))).collect();
        let mut last: Vec<UnitId> = groups
            .iter()
            .flat_map(|g| g.1.iter().copied())
            .filter(|id| s.unit(*id).is_some_and(|u| rs.stats(u.kind).defenseless))
            .collect();
        last.sort();
        last.dedup();
        CasualtyChoice { groups, last }
    }

    /// Every unit some group may take, in battle order, once.
    pub fn candidates(&self) -> Vec<UnitId> {
        let mut v: Vec<UnitId> = self.groups.iter().flat_map(|g| g.1.iter().copied()).collect();
        v.sort();
        v.dedup();
        v
    }

    /// How many hits a unit can still take here.
    fn room(&self, u: UnitId) -> usize {
        self.groups.iter().map(|g| g.1.iter().filter(|x| **x == u).count()).max().unwrap_or(0)
    }

    /// Every candidate as often as it can take hits, in battle order.
    fn every_hit(&self) -> Vec<UnitId> {
        self.candidates().into_iter().flat_map(|u| std::iter::repeat_n(u, self.room(u))).collect()
    }

    /// How many hits must be taken: the most the groups can score together.
    pub fn hits(&self) -> u32 {
        if let [(hits, eligible)] = self.groups.as_slice() {
            return (*hits).min(eligible.len() as u32);
        }
        self.pick_in_order(&self.every_hit()).len() as u32
    }

    /// Whether `chosen` (a unit named once per hit it takes) can be shared
    /// out among the groups.
    pub fn admits(&self, chosen: &[UnitId]) -> bool {
        if !self.shares_out(chosen) {
            return false;
        }
        // A unit taken last may not stand in for another that could take
        // its hit instead.
        if self.last.is_empty() {
            return true;
        }
        let spare: Vec<UnitId> = self
            .candidates()
            .into_iter()
            .filter(|u| !self.last.contains(u) && chosen.iter().filter(|x| *x == u).count() < self.room(*u))
            .collect();
        chosen.iter().enumerate().filter(|(_, u)| self.last.contains(u)).all(|(k, _)| {
            spare.iter().all(|n| {
                let mut swapped = chosen.to_vec();
                swapped[k] = *n;
                !self.shares_out(&swapped)
            })
        })
    }

    /// Whether `chosen` can be shared out among the groups (the matching),
    /// before the order of loss is asked.
    fn shares_out(&self, chosen: &[UnitId]) -> bool {
        if let [(hits, eligible)] = self.groups.as_slice() {
            return chosen.len() as u32 <= *hits
                && chosen.iter().all(|u| chosen.iter().filter(|x| *x == u).count() <= eligible.iter().filter(|x| *x == u).count());
        }
        if chosen.iter().any(|u| chosen.iter().filter(|x| *x == u).count() > self.room(*u)) {
            return false;
        }
        let mut load = vec![Vec::new(); self.groups.len()];
        chosen.iter().all(|u| self.assign(*u, &mut load, &mut vec![false; self.groups.len()]))
    }

    /// Kuhn's augmenting path: gives `u` a group, moving others if needed.
    fn assign(&self, u: UnitId, load: &mut Vec<Vec<UnitId>>, seen: &mut Vec<bool>) -> bool {
        for g in 0..self.groups.len() {
            if seen[g] || !self.groups[g].1.contains(&u) {
                continue;
            }
            seen[g] = true;
            if (load[g].len() as u32) < self.groups[g].0 {
                load[g].push(u);
                return true;
            }
            for k in 0..load[g].len() {
                let other = load[g][k];
                if self.assign(other, load, seen) {
                    // `other` found room elsewhere: `u` takes its place.
                    load[g][k] = u;
                    return true;
                }
            }
        }
        false
    }

    /// The legal set of losses that prefers hits earlier in `order` (the
    /// greedy algorithm, optimal on a matroid). A unit may be listed once
    /// per hit it can take.
    pub fn pick_in_order(&self, order: &[UnitId]) -> Vec<UnitId> {
        if !self.last.is_empty() {
            // Units taken last come after every other, whatever the order.
            let (mut first, then): (Vec<UnitId>, Vec<UnitId>) = order.iter().partition(|u| !self.last.contains(u));
            first.extend(then);
            let mut chosen: Vec<UnitId> = Vec::new();
            for u in first {
                chosen.push(u);
                if !self.admits(&chosen) {
                    chosen.pop();
                }
            }
            return chosen;
        }
        if let [(hits, eligible)] = self.groups.as_slice() {
            // One group (most steps): the first hits of the order that it
            // may take, each unit at most as often as it is eligible.
            let mut room: Vec<(UnitId, usize)> = Vec::with_capacity(eligible.len());
            for u in eligible {
                match room.iter_mut().rev().find(|(x, _)| x == u) {
                    Some(r) => r.1 += 1,
                    None => room.push((*u, 1)),
                }
            }
            room.sort_unstable();
            let mut chosen: Vec<UnitId> = Vec::new();
            for u in order {
                if chosen.len() as u32 >= *hits {
                    break;
                }
                if let Ok(k) = room.binary_search_by_key(u, |r| r.0) {
                    if room[k].1 > 0 {
                        room[k].1 -= 1;
                        chosen.push(*u);
                    }
                }
            }
            return chosen;
        }
        let mut chosen: Vec<UnitId> = Vec::new();
        for u in order {
            chosen.push(*u);
            if !self.admits(&chosen) {
                chosen.pop();
            }
        }
        chosen
    }

    /// Whether the deciding side has a real choice (FORMAT.md): two legal
    /// sets of losses that differ other than among interchangeable units.
    /// The greedy pick by likeness ascending and descending agree exactly
    /// when every legal set has the same likeness multiset.
    pub fn is_real_choice(&self, s: &GameState) -> bool {
        if let ([(hits, eligible)], true) = (self.groups.as_slice(), self.last.is_empty()) {
            // One group: a choice unless every hit is taken or all are alike.
            if *hits as usize >= eligible.len() || *hits == 0 {
                return false;
            }
            let first = likeness(s, eligible[0]);
            return eligible.iter().any(|c| likeness(s, *c) != first);
        }
        let mut order = self.every_hit();
        if order.is_empty() {
            return false;
        }
        order.sort_by_key(|id| likeness(s, *id));
        let low = self.pick_in_order(&order);
        order.reverse();
        let high = self.pick_in_order(&order);
        let mut a: Vec<_> = low.iter().map(|id| likeness(s, *id)).collect();
        let mut b: Vec<_> = high.iter().map(|id| likeness(s, *id)).collect();
        a.sort();
        b.sort();
        a != b
    }
}

/// Units alike in owner, type, damage and cargo are interchangeable
/// (FORMAT.md): this is what makes two casualty choices different.
fn likeness(s: &GameState, id: UnitId) -> (crate::ids::PowerId, crate::ids::UnitType, u8, Vec<(crate::ids::UnitType, crate::ids::PowerId)>) {
    let u = s.unit(id).unwrap();
    let mut cargo: Vec<_> = s.cargo_of(id).map(|c| (c.kind, c.owner)).collect();
    cargo.sort();
    (u.owner, u.kind, u.hits, cargo)
}

/// A unit type's place in the default order of loss (FORMAT.md v2,
/// `resolve`): lower keys are lost first. Defenseless units (Anniversary's
/// transports) only when nothing else can be taken, then the cheapest, then
/// the lower combat value in its role. Where transports defend like any
/// unit (classic, Europe) they are lost by their cost like any unit: a
/// battleship is not thrown away to save an empty transport (issue 28).
/// The calculator orders its casualties by this same key.
pub fn loss_order_key(st: &crate::ruleset::UnitStats, attacking: bool) -> (bool, u32, u8) {
    (st.defenseless, st.cost, if attacking { st.attack } else { st.defense })
}

/// The default order of loss (FORMAT.md v2): a hit that only damages a unit
/// with hit points to spare first (it costs nothing), then
/// [`loss_order_key`] with a unit's cargo counted in its cost, then the
/// later unit first. A unit appears once per hit it can take.
pub fn default_order(rs: &Ruleset, s: &GameState, candidates: &[UnitId], attacking: bool) -> Vec<UnitId> {
    let mut v: Vec<(bool, UnitId)> = Vec::new();
    for id in candidates {
        let u = s.unit(*id).unwrap();
        let left = rs.stats(u.kind).hit_points.saturating_sub(u.hits).max(1);
        for k in 0..left {
            v.push((k + 1 < left, *id));
        }
    }
    // The key walks the board for cargo: once per unit, not per comparison.
    v.sort_by_cached_key(|(spare, id)| {
        let u = s.unit(*id).unwrap();
        let (defenseless, cost, value) = loss_order_key(rs.stats(u.kind), attacking);
        let cargo: u32 = s.cargo_of(*id).map(|c| rs.stats(c.kind).cost).sum();
        (!spare, defenseless, cost + cargo, value, std::cmp::Reverse(u.id))
    });
    v.into_iter().map(|(_, id)| id).collect()
}

/// The default casualties for a choice: the legal set of losses that
/// follows the default order of loss.
pub fn default_casualties(rs: &Ruleset, s: &GameState, choice: &CasualtyChoice, attacking: bool) -> Vec<UnitId> {
    choice.pick_in_order(&default_order(rs, s, &choice.candidates(), attacking))
}
