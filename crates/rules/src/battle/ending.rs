//! The end of a battle: its result, capture, and the fighters of a lost
//! carrier.

use super::casualties::{attackers, defenders};
use super::fire::destroy;
use super::{BattleKind, BattleResult};
use crate::action::Event;
use crate::game::Ctx;
use crate::ids::{PowerId, UnitId};

/// Ends the battle if one side is gone, or if neither side can hurt the
/// other any more. A side that cannot hurt the enemy loses its defenseless
/// units without dice when the enemy can hit them (AA50 FAQ: Combat,
/// "defenseless transports", and the errata to p. 19: transports beside
/// submarines against aircraft alone). Aircraft and submarines that cannot
/// touch each other (AA50: aircraft hit submarines only with a destroyer,
/// submarines never hit aircraft) end the battle as if the attacker broke
/// off: the aircraft fly on in non-combat move.
pub(crate) fn finish_if_over(ctx: &mut Ctx<'_>, i: usize) -> bool {
    let b = ctx.s.battles[i].clone();
    let mut att = attackers(ctx.rs, ctx.s, &b);
    let mut def = defenders(ctx.rs, ctx.s, &b);
    let any_defenseless = ctx.rs.unit_types().any(|u| u.defenseless);
    if !att.is_empty() && !def.is_empty() && any_defenseless {
        let defenseless = |ids: &[UnitId]| -> Vec<UnitId> {
            ids.iter().copied().filter(|id| ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).defenseless).collect()
        };
        let (att_helpless, def_helpless) = (defenseless(&att), defenseless(&def));
        if !def_helpless.is_empty() && !can_hurt(ctx, &b, &def, false, &att) && can_hurt(ctx, &b, &att, true, &def_helpless) {
            destroy(ctx, i, &def_helpless);
            def.retain(|id| !def_helpless.contains(id));
        } else if !att_helpless.is_empty()
            && !can_hurt(ctx, &b, &att, true, &def)
            && can_hurt(ctx, &b, &def, false, &att_helpless)
            // AA50 FAQ: Combat: an attacking transport that "can still
            // retreat before it is hit" is not defenseless.
            && super::decisions::retreat_allowed(ctx, i).is_err()
        {
            destroy(ctx, i, &att_helpless);
            att.retain(|id| !att_helpless.contains(id));
        }
    }
    // The attacker's allies standing by can be hit too (EUROPE FAQ: Submarines).
    let exposed = || -> Vec<UnitId> { att.iter().copied().chain(super::casualties::bystanders(ctx.rs, ctx.s, &b).map(|u| u.id)).collect() };
    if !att.is_empty() && !def.is_empty() && !can_hurt(ctx, &b, &att, true, &def) && !can_hurt(ctx, &b, &def, false, &exposed()) {
        end(ctx, i, BattleResult::Retreated);
        return true;
    }
    let result = match (att.is_empty(), def.is_empty()) {
        (false, false) => return false,
        (false, true) => BattleResult::AttackerWon,
        (true, false) => BattleResult::DefenderWon,
        (true, true) => BattleResult::Draw,
    };
    end(ctx, i, result);
    true
}

/// Whether any of `firing` (fighting in the role `attacking` says) could
/// score a hit that one of `targets` may take.
fn can_hurt(ctx: &Ctx<'_>, b: &super::Battle, firing: &[UnitId], attacking: bool, targets: &[UnitId]) -> bool {
    firing.iter().any(|id| {
        let st = ctx.rs.stats(ctx.s.unit(*id).unwrap().kind);
        let value = if attacking { st.attack } else { st.defense };
        value > 0 && {
            let may = super::fire::targets_of(ctx.rs, ctx.s, b, *id);
            targets.iter().any(|t| may.admit(ctx.rs.stats(ctx.s.unit(*t).unwrap().kind)))
        }
    })
}

pub(crate) fn end(ctx: &mut Ctx<'_>, i: usize, result: BattleResult) {
    let b = ctx.s.battles[i].clone();
    ctx.s.battles[i].result = result;
    ctx.s.battles[i].pending = None;
    ctx.events.push(Event::BattleEnded { at: b.at, result });
    if b.kind == BattleKind::Land && result == BattleResult::AttackerWon {
        // Only land units capture (AA guns never attack); aircraft alone win
        // but take nothing.
        let captor = attackers(ctx.rs, ctx.s, &b).into_iter().any(|id| ctx.rs.stats(ctx.s.unit(id).unwrap().kind).is_land());
        if captor {
            ctx.take_territory(b.at, b.attacker);
        }
    }
    if b.kind == BattleKind::Sea {
        if ctx.rs.options.free_movement {
            relocate_defending_planes(ctx, i);
        } else {
            rehouse_defending_fighters(ctx, i);
        }
    }
}

/// Alternative (ALT L40): a defending plane with no friendly ship left in
/// its zone to land on flies, with the moves it has left this round, to
/// the nearest territory that is friendly or free of enemy units; where
/// several are as near, its owner chooses (`GameState::relocating`); none
/// in reach: it is lost.
fn relocate_defending_planes(ctx: &mut Ctx<'_>, i: usize) {
    let b = ctx.s.battles[i].clone();
    let rs = ctx.rs;
    let planes: Vec<UnitId> = ctx
        .s
        .units
        .iter()
        .filter(|u| u.at == b.at && u.carried_by.is_none() && rs.stats(u.kind).is_air() && !ctx.s.allied(u.owner, b.attacker))
        .map(|u| u.id)
        .collect();
    let mut lost = Vec::new();
    for id in planes {
        let (owner, left) = {
            let u = ctx.s.unit(id).unwrap();
            (u.owner, rs.stats(u.kind).movement.saturating_sub(u.moved))
        };
        // A friendly ship with room there takes it back aboard.
        let ship = ctx
            .s
            .units
            .iter()
            .filter(|u| u.at == b.at && ctx.s.allied(owner, u.owner) && rs.stats(u.kind).cargo.is_some())
            .map(|u| u.id)
            .find(|s| {
                let cap = rs.stats(ctx.s.unit(*s).unwrap().kind).cargo.as_ref().map_or(0, |c| c.capacity);
                let used: u8 = ctx.s.cargo_of(*s).map(|c| rs.stats(c.kind).cargo_size).sum();
                used < cap
            });
        if let Some(s) = ship {
            ctx.s.unit_mut(id).unwrap().carried_by = Some(s);
            continue;
        }
        let rel = ctx.rel();
        let hostile = |t: crate::ids::SpaceId| rel.enemy_units(owner, t).next().is_some();
        let mut dist = vec![u8::MAX; rs.map.len()];
        dist[b.at.index()] = 0;
        let mut frontier = vec![b.at];
        let mut found = None;
        for d in 1..=left {
            let mut next = Vec::new();
            for &f in &frontier {
                for &n in &rs.map.space(f).adjacent {
                    if dist[n.index()] != u8::MAX || rs.map.space(n).off_limits {
                        continue;
                    }
                    dist[n.index()] = d;
                    if hostile(n) {
                        continue;
                    }
                    next.push(n);
                }
            }
            next.sort();
            let lands: Vec<crate::ids::SpaceId> = next.iter().copied().filter(|t| rs.map.is_land(*t)).collect();
            if !lands.is_empty() {
                found = Some((lands, d));
                break;
            }
            frontier = next;
        }
        match found {
            Some((lands, d)) if lands.len() == 1 => {
                let u = ctx.s.unit_mut(id).unwrap();
                u.at = lands[0];
                u.moved += d;
                ctx.events.push(Event::Moved { units: vec![id], route: vec![b.at, lands[0]] });
            }
            // Several as near: its owner chooses (FORMAT.md v2, judging
            // notes), with a `move` before anything else happens.
            Some((lands, _)) => ctx.s.relocating.push((id, lands)),
            None => lost.push(id),
        }
    }
    destroy(ctx, i, &lost);
}

/// Fighters of a defending carrier that was lost, the owner's and allied
/// ones alike, land on another friendly carrier there with room, or on any
/// friendly island fully surrounded by the zone; otherwise they are lost
/// (DAAK 3.4(b) and its note to 3.4(e)).
fn rehouse_defending_fighters(ctx: &mut Ctx<'_>, i: usize) {
    let b = ctx.s.battles[i].clone();
    let rs = ctx.rs;
    let defending_powers: Vec<PowerId> = rs.power_ids().filter(|p| !ctx.s.allied(*p, b.attacker)).collect();
    let mut fighters: Vec<UnitId> = ctx
        .s
        .units
        .iter()
        .filter(|u| u.at == b.at && defending_powers.contains(&u.owner) && rs.stats(u.kind).is_air())
        .map(|u| u.id)
        .collect();
    fighters.sort();
    let mut room: Vec<(UnitId, PowerId, i32)> = ctx
        .s
        .units
        .iter()
        .filter(|u| u.at == b.at && defending_powers.contains(&u.owner) && rs.stats(u.kind).carrier_capacity() > 0)
        .map(|u| (u.id, u.owner, rs.stats(u.kind).carrier_capacity() as i32))
        .collect();
    // Every island the zone fully surrounds (NOR has two: GBR and IRE).
    let islands: Vec<_> = rs.map.ids().filter(|t| rs.map.space(*t).island_in == Some(b.at)).collect();
    let mut lost = Vec::new();
    for f in fighters {
        let (owner, cost, carried) = {
            let u = ctx.s.unit(f).unwrap();
            (u.owner, rs.stats(u.kind).carrier_cost() as i32, u.carried_by)
        };
        // Keep the carrier it was on, if that one floats.
        let slot = room
            .iter()
            .position(|c| Some(c.0) == carried && c.2 >= cost)
            .or_else(|| room.iter().position(|c| c.1 == owner && c.2 >= cost))
            .or_else(|| room.iter().position(|c| c.2 >= cost));
        if let (Some(k), true) = (slot, cost > 0) {
            room[k].2 -= cost;
            let carrier = room[k];
            ctx.s.unit_mut(f).unwrap().carried_by = if carrier.1 == owner { None } else { Some(carrier.0) };
            continue;
        }
        match islands.iter().copied().find(|t| ctx.rel().friendly_land(owner, *t)) {
            Some(t) => {
                let u = ctx.s.unit_mut(f).unwrap();
                u.at = t;
                u.carried_by = None;
            }
            None => lost.push(f),
        }
    }
    destroy(ctx, i, &lost);
}
