//! Who fights, who may be taken as a casualty, and the default order of loss.

use super::{Battle, BattleKind, HitPool};
use crate::ids::UnitId;
use crate::ruleset::Ruleset;
use crate::state::{GameState, Unit};

/// Whether a unit is cargo on a transport (it never fights, DAAK 3.2(f)) or
/// another power's fighter aboard an attacking carrier (cargo too, DAAK
/// 3.4(e)).
fn is_cargo(rs: &Ruleset, s: &GameState, u: &Unit, attacking: bool) -> bool {
    match u.carried_by.and_then(|c| s.unit(c)) {
        None => false,
        Some(c) if rs.stats(c.kind).transport_capacity > 0 => true,
        // Fighters aboard a defending carrier defend (DAAK 3.4(b)).
        Some(_) => attacking,
    }
}

/// The attacking units that take part: the attacker's units in the space,
/// apart from cargo, AA guns and factories. In a land battle ships are never
/// there (they bombard from the sea zone and cannot be hit, DAAK 3.5(b)).
pub fn attackers(rs: &Ruleset, s: &GameState, b: &Battle) -> Vec<UnitId> {
    let mut v: Vec<&Unit> = s
        .units
        .iter()
        .filter(|u| u.at == b.at && u.owner == b.attacker && rs.stats(u.kind).is_combatant())
        .filter(|u| !is_cargo(rs, s, u, true))
        .filter(|u| match b.kind {
            BattleKind::Bombing => u.flags.bombing,
            _ => !u.flags.bombing,
        })
        .collect();
    v.sort_by_key(|u| (u.kind, u.id));
    v.into_iter().map(|u| u.id).collect()
}

/// The defending units: every enemy unit there that can fight (not AA guns
/// or factories, DAAK 3.1(c); not cargo, DAAK 3.2(f)).
pub fn defenders(rs: &Ruleset, s: &GameState, b: &Battle) -> Vec<UnitId> {
    let mut v: Vec<&Unit> = s
        .units
        .iter()
        .filter(|u| u.at == b.at && !rs.allied(u.owner, b.attacker) && rs.stats(u.kind).is_combatant())
        .filter(|u| !is_cargo(rs, s, u, false))
        .collect();
    v.sort_by_key(|u| (u.kind, u.id));
    v.into_iter().map(|u| u.id).collect()
}

/// The units that hits of a step may be taken from.
pub fn pool(rs: &Ruleset, s: &GameState, b: &Battle, pool: HitPool) -> Vec<UnitId> {
    match pool {
        HitPool::AttackingAircraft => attackers(rs, s, b)
            .into_iter()
            .filter(|id| rs.stats(s.unit(*id).unwrap().kind).is_air())
            .collect(),
        HitPool::DefendingShips => defenders(rs, s, b)
            .into_iter()
            .filter(|id| !b.dying.contains(id))
            .filter(|id| rs.options.submarines_hit_aircraft || !rs.stats(s.unit(*id).unwrap().kind).is_air())
            .collect(),
        HitPool::Defenders => defenders(rs, s, b).into_iter().filter(|id| !b.dying.contains(id)).collect(),
        HitPool::Attackers => attackers(rs, s, b),
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

/// Whether choosing `hits` casualties from `candidates` is a real choice.
pub fn is_real_choice(s: &GameState, candidates: &[UnitId], hits: u32) -> bool {
    if hits as usize >= candidates.len() || hits == 0 {
        return false;
    }
    let first = likeness(s, candidates[0]);
    candidates.iter().any(|c| likeness(s, *c) != first)
}

/// A unit type's place in the default order of loss (FORMAT.md): lower keys
/// are lost first. Transports only when nothing else can be taken, then the
/// cheapest, then the lower combat value in its role. The calculator orders
/// its casualties by this same key.
pub fn loss_order_key(st: &crate::ruleset::UnitStats, attacking: bool) -> (bool, u32, u8) {
    (st.transport_capacity > 0, st.cost, if attacking { st.attack } else { st.defense })
}

/// The default order of loss (FORMAT.md): [`loss_order_key`], then empty
/// transports before loaded ones, then the later unit first.
pub fn default_casualties(rs: &Ruleset, s: &GameState, candidates: &[UnitId], hits: u32, attacking: bool) -> Vec<UnitId> {
    let mut v: Vec<UnitId> = candidates.to_vec();
    v.sort_by_key(|id| {
        let u = s.unit(*id).unwrap();
        let (transport, cost, value) = loss_order_key(rs.stats(u.kind), attacking);
        let cargo: u32 = s.cargo_of(*id).map(|c| rs.stats(c.kind).cost).sum();
        (transport, cost, value, cargo, std::cmp::Reverse(u.id))
    });
    v.truncate(hits as usize);
    v
}
