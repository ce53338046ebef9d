//! Rolling a battle forward: each step's dice, the hits they score, and the
//! end of the battle.

use super::casualties::{attackers, default_casualties, defenders, is_real_choice, pool};
use super::decisions::{attacker_sub_zones, defender_sub_zones, retreat_allowed};
use super::{BattleKind, BattleResult, BattleSide, HitPool, PendingHits, Stage};
use crate::action::{Event, RuleError};
use crate::game::Ctx;
use crate::ids::{PowerId, SpaceId, UnitId};
use crate::ruleset::BombingCap;
use crate::state::Development;

/// More rounds than any real battle lasts.
const MAX_ROUNDS: u32 = 1000;

/// Rolls the battle at index `i` on until a real choice is needed (or, with
/// `auto`, to its end with the default decisions).
pub(crate) fn run(ctx: &mut Ctx<'_>, i: usize, auto: bool) -> Result<(), RuleError> {
    loop {
        if ctx.s.battles[i].result.is_over() {
            return Ok(());
        }
        if let Some(p) = ctx.s.battles[i].pending.clone() {
            let b = &ctx.s.battles[i];
            let candidates = pool(ctx.rs, ctx.s, b, p.pool);
            if auto || !is_real_choice(ctx.s, &candidates, p.hits) {
                let chosen = default_casualties(ctx.rs, ctx.s, &candidates, p.hits, p.chooser == BattleSide::Attacker);
                take_casualties(ctx, i, &chosen);
            } else {
                return Ok(());
            }
            continue;
        }
        let b = ctx.s.battles[i].clone();
        let next = match b.stage {
            Stage::AaFire => {
                if b.round == 1 {
                    start_of_battle(ctx, i);
                    if ctx.s.battles[i].result.is_over() {
                        return Ok(());
                    }
                    if b.kind != BattleKind::Sea {
                        aa_fire(ctx, i)?;
                    }
                    if b.kind == BattleKind::Bombing {
                        bombing_raid(ctx, i)?;
                        return Ok(());
                    }
                }
                Stage::Bombard
            }
            Stage::Bombard => {
                if b.round == 1 && b.kind == BattleKind::Land && ctx.s.battles[i].amphibious {
                    bombard(ctx, i)?;
                }
                Stage::SubStrike
            }
            Stage::SubStrike => {
                if b.kind == BattleKind::Sea {
                    let subs: Vec<UnitId> = attackers(ctx.rs, ctx.s, &b).into_iter().filter(|id| is_sub(ctx, *id)).collect();
                    let hits = roll_for(ctx, &subs, true, "attacking submarines")?;
                    pend(ctx, i, BattleSide::Defender, HitPool::DefendingShips, hits);
                }
                Stage::AttackerFire
            }
            Stage::AttackerFire => {
                let firing: Vec<UnitId> = attackers(ctx.rs, ctx.s, &b).into_iter().filter(|id| b.kind != BattleKind::Sea || !is_sub(ctx, *id)).collect();
                let hits = roll_for(ctx, &firing, true, "attacker")?;
                pend(ctx, i, BattleSide::Defender, HitPool::Defenders, hits);
                Stage::DefenderFire
            }
            Stage::DefenderFire => {
                let firing = defenders(ctx.rs, ctx.s, &b);
                let hits = roll_for(ctx, &firing, false, "defender")?;
                pend(ctx, i, BattleSide::Attacker, HitPool::Attackers, hits);
                Stage::EndRound
            }
            Stage::EndRound => {
                let dying = std::mem::take(&mut ctx.s.battles[i].dying);
                destroy(ctx, i, &dying);
                if finish_if_over(ctx, i) {
                    return Ok(());
                }
                Stage::AttackerSubs
            }
            Stage::AttackerSubs => {
                if !auto && !attacker_sub_zones(ctx, i).is_empty() && has_subs(ctx, i, BattleSide::Attacker) {
                    return Ok(());
                }
                Stage::DefenderSubs
            }
            Stage::DefenderSubs => {
                if !auto && has_subs(ctx, i, BattleSide::Defender) && !defender_sub_zones(ctx, i).is_empty() {
                    return Ok(());
                }
                Stage::PressOrRetreat
            }
            Stage::PressOrRetreat => {
                if !auto && retreat_allowed(ctx, i).is_ok() {
                    return Ok(());
                }
                // Dice that never hit (FORMAT.md's "miss") or sides that
                // cannot hurt each other would fight forever.
                if ctx.s.battles[i].round >= MAX_ROUNDS {
                    return Err(RuleError::new(
                        "battle/endless",
                        format!("the battle at {} has gone {MAX_ROUNDS} rounds: with these dice it never ends", ctx.name(b.at)),
                    ));
                }
                ctx.s.battles[i].round += 1;
                Stage::AaFire
            }
        };
        ctx.s.battles[i].stage = next;
    }
}

fn is_sub(ctx: &Ctx<'_>, id: UnitId) -> bool {
    ctx.rs.stats(ctx.s.unit(id).unwrap().kind).submarine
}

pub(crate) fn has_subs(ctx: &Ctx<'_>, i: usize, side: BattleSide) -> bool {
    let b = &ctx.s.battles[i];
    let units = match side {
        BattleSide::Attacker => attackers(ctx.rs, ctx.s, b),
        BattleSide::Defender => defenders(ctx.rs, ctx.s, b),
    };
    units.iter().any(|id| is_sub(ctx, *id))
}

/// Round one: mark who takes part and whether the attack is amphibious (a
/// land unit attacks straight from a transport that still floats, DAAK
/// 4.3(a), (c)).
fn start_of_battle(ctx: &mut Ctx<'_>, i: usize) {
    let b = ctx.s.battles[i].clone();
    let attacking = attackers(ctx.rs, ctx.s, &b);
    let amphibious = b.kind == BattleKind::Land
        && attacking.iter().any(|id| ctx.s.unit(*id).unwrap().landed_from.is_some_and(|t| ctx.s.unit(t).is_some()));
    ctx.s.battles[i].amphibious = amphibious;
    let defending = defenders(ctx.rs, ctx.s, &b);
    for id in attacking.iter().chain(&defending) {
        ctx.s.unit_mut(*id).unwrap().flags.fought = true;
    }
    if b.kind != BattleKind::Bombing {
        finish_if_over(ctx, i);
    }
}

fn value_of(ctx: &Ctx<'_>, id: UnitId, attacking: bool) -> (u8, u8) {
    let u = ctx.s.unit(id).unwrap();
    let st = ctx.rs.stats(u.kind);
    let dev = |d| ctx.s.has_development(u.owner, d);
    let mut value = if attacking { st.attack } else { st.defense };
    let mut dice = 1;
    if !attacking && st.carrier_cost > 0 && dev(Development::JetFighters) {
        value = 5;
    }
    if attacking && st.submarine && dev(Development::SuperSubmarines) {
        value += 1;
    }
    if attacking && st.strategic_bomber && dev(Development::HeavyBombers) {
        dice = 3;
    }
    (value, dice)
}

/// One die per firing unit (units with value 0 roll none), in unit-table
/// order, then the order units were listed or arrived (FORMAT.md); a die at
/// or under the unit's value hits.
fn roll_for(ctx: &mut Ctx<'_>, units: &[UnitId], attacking: bool, who: &str) -> Result<u32, RuleError> {
    let mut order: Vec<UnitId> = units.to_vec();
    order.sort_by_key(|id| {
        let u = ctx.s.unit(*id).unwrap();
        (u.kind, u.id)
    });
    let mut dice = Vec::new();
    let mut hits = 0;
    for id in order {
        let (value, n) = value_of(ctx, id, attacking);
        if value == 0 {
            continue;
        }
        for _ in 0..n {
            let d = ctx.roll()?;
            dice.push(d);
            if d <= value {
                hits += 1;
            }
        }
    }
    if !dice.is_empty() {
        ctx.events.push(Event::Rolled { purpose: who.to_string(), dice, hits });
    }
    Ok(hits)
}

fn pend(ctx: &mut Ctx<'_>, i: usize, chooser: BattleSide, pool_kind: HitPool, hits: u32) {
    let b = &ctx.s.battles[i];
    let n = pool(ctx.rs, ctx.s, b, pool_kind).len() as u32;
    let hits = hits.min(n);
    if hits > 0 {
        ctx.s.battles[i].pending = Some(PendingHits { chooser, pool: pool_kind, hits });
    }
}

/// Applies chosen casualties for the pending hits.
pub(crate) fn take_casualties(ctx: &mut Ctx<'_>, i: usize, chosen: &[UnitId]) {
    let p = ctx.s.battles[i].pending.take().expect("hits pending");
    match p.pool {
        HitPool::Defenders => ctx.s.battles[i].dying.extend_from_slice(chosen),
        _ => destroy(ctx, i, chosen),
    }
}

/// Removes units from the board, with their cargo; troops landed from a
/// sunk transport before their landing was fought go down with it
/// (FORMAT.md; DAAK 4.3(c)).
pub(crate) fn destroy(ctx: &mut Ctx<'_>, i: usize, ids: &[UnitId]) {
    if ids.is_empty() {
        return;
    }
    let at = ctx.s.battles[i].at;
    let mut doomed: Vec<UnitId> = ids.to_vec();
    for u in &ctx.s.units {
        if let Some(t) = u.landed_from {
            let landing_pending = ctx.s.battles.iter().any(|b| b.at == u.at && b.result == BattleResult::Pending);
            if ids.contains(&t) && landing_pending {
                doomed.push(u.id);
            }
        }
    }
    let info = doomed
        .iter()
        .filter_map(|id| ctx.s.unit(*id))
        .map(|u| (u.id, u.kind, u.owner))
        .chain(ctx.s.units.iter().filter(|u| u.carried_by.is_some_and(|c| doomed.contains(&c))).map(|u| (u.id, u.kind, u.owner)))
        .collect();
    ctx.s.remove_units(&doomed);
    ctx.events.push(Event::Destroyed { units: info, at });
}

/// AA guns fire once, in round one, one die per attacking aircraft
/// (DAAK 3.1(a)); the attacker picks which aircraft the hits take.
fn aa_fire(ctx: &mut Ctx<'_>, i: usize) -> Result<(), RuleError> {
    let b = ctx.s.battles[i].clone();
    let rel = ctx.rel();
    let Some(aa) = ctx.s.units.iter().find(|u| u.at == b.at && ctx.rs.stats(u.kind).anti_aircraft > 0 && rel.enemies(b.attacker, u.owner)) else {
        return Ok(());
    };
    let value = ctx.rs.stats(aa.kind).anti_aircraft;
    let aircraft = pool(ctx.rs, ctx.s, &b, HitPool::AttackingAircraft);
    let mut dice = Vec::new();
    for _ in &aircraft {
        dice.push(ctx.roll()?);
    }
    let hits = dice.iter().filter(|d| **d <= value).count() as u32;
    if !dice.is_empty() {
        ctx.events.push(Event::Rolled { purpose: format!("AA fire at {}", ctx.name(b.at)), dice, hits });
    }
    pend(ctx, i, BattleSide::Attacker, HitPool::AttackingAircraft, hits);
    Ok(())
}

/// Shore bombardment: each battleship in a zone the landing came from that
/// fought no sea battle this combat phase fires once, in round one; its
/// casualties still fire back (DAAK 3.5(a), (c)).
fn bombard(ctx: &mut Ctx<'_>, i: usize) -> Result<(), RuleError> {
    let b = ctx.s.battles[i].clone();
    let zones: Vec<SpaceId> = ctx
        .s
        .units
        .iter()
        .filter(|u| u.at == b.at && u.owner == b.attacker)
        .filter_map(|u| u.landed_from.and_then(|t| ctx.s.unit(t)).map(|t| t.at))
        .collect();
    let mut ships: Vec<UnitId> = ctx
        .s
        .units
        .iter()
        .filter(|u| zones.contains(&u.at) && u.owner == b.attacker && ctx.rs.stats(u.kind).bombard > 0 && !u.flags.fought)
        .map(|u| u.id)
        .collect();
    ships.sort_by_key(|id| (ctx.s.unit(*id).unwrap().kind, *id));
    let mut dice = Vec::new();
    let mut hits = 0;
    for id in &ships {
        let d = ctx.roll()?;
        let value = ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).bombard;
        dice.push(d);
        if d <= value {
            hits += 1;
        }
        ctx.s.unit_mut(*id).unwrap().flags.fought = true;
    }
    if !dice.is_empty() {
        ctx.events.push(Event::Rolled { purpose: "shore bombardment".into(), dice, hits });
    }
    pend(ctx, i, BattleSide::Defender, HitPool::Defenders, hits);
    Ok(())
}

/// A strategic bombing raid: after AA fire, each surviving bomber rolls
/// (three dice with heavy bombers) and the factory's owner pays the total,
/// capped as the `bombing_cap` option says.
fn bombing_raid(ctx: &mut Ctx<'_>, i: usize) -> Result<(), RuleError> {
    // AA casualties are taken first (forced or chosen by default: all
    // bombers are alike unless damaged).
    if let Some(p) = ctx.s.battles[i].pending.clone() {
        let b = &ctx.s.battles[i];
        let candidates = pool(ctx.rs, ctx.s, b, p.pool);
        let chosen = default_casualties(ctx.rs, ctx.s, &candidates, p.hits, true);
        take_casualties(ctx, i, &chosen);
    }
    let b = ctx.s.battles[i].clone();
    let bombers = attackers(ctx.rs, ctx.s, &b);
    let mut total = 0i32;
    let mut dice = Vec::new();
    for id in &bombers {
        let (_, n) = value_of(ctx, *id, true);
        for _ in 0..n {
            let d = ctx.roll()?;
            dice.push(d);
            total += d as i32;
        }
    }
    let victim: Option<PowerId> = ctx.rel().factory_at(b.at).map(|f| f.owner);
    if let Some(victim) = victim {
        let bank = ctx.s.ipcs[victim.index()];
        let cap = match ctx.rs.options.bombing_cap {
            BombingCap::Bank => bank,
            BombingCap::Territory => bank.min(ctx.rs.map.space(b.at).ipc as i32),
        };
        let paid = total.min(cap).max(0);
        ctx.s.ipcs[victim.index()] -= paid;
        ctx.events.push(Event::Rolled { purpose: "strategic bombing".into(), dice, hits: 0 });
        ctx.events.push(Event::Bombed { at: b.at, victim, ipcs: paid });
    }
    let result = if bombers.is_empty() { BattleResult::DefenderWon } else { BattleResult::AttackerWon };
    end(ctx, i, result);
    Ok(())
}

/// Ends the battle if one side is gone.
pub(crate) fn finish_if_over(ctx: &mut Ctx<'_>, i: usize) -> bool {
    let b = ctx.s.battles[i].clone();
    let att = attackers(ctx.rs, ctx.s, &b);
    let def = defenders(ctx.rs, ctx.s, &b);
    let result = match (att.is_empty(), def.is_empty()) {
        (false, false) => return false,
        (false, true) => BattleResult::AttackerWon,
        (true, false) => BattleResult::DefenderWon,
        (true, true) => BattleResult::Draw,
    };
    end(ctx, i, result);
    true
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
        rehouse_defending_fighters(ctx, i);
    }
}

/// Fighters of a defending carrier that was lost land on another friendly
/// carrier there with room, or on a friendly island fully surrounded by the
/// zone; otherwise they are lost (DAAK 3.4(b)).
fn rehouse_defending_fighters(ctx: &mut Ctx<'_>, i: usize) {
    let b = ctx.s.battles[i].clone();
    let rs = ctx.rs;
    let defending_powers: Vec<PowerId> = rs.power_ids().filter(|p| !rs.allied(*p, b.attacker)).collect();
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
        .filter(|u| u.at == b.at && defending_powers.contains(&u.owner) && rs.stats(u.kind).carrier_capacity > 0)
        .map(|u| (u.id, u.owner, rs.stats(u.kind).carrier_capacity as i32))
        .collect();
    let island = rs.map.ids().find(|t| rs.map.space(*t).island_in == Some(b.at));
    let mut lost = Vec::new();
    for f in fighters {
        let (owner, cost, carried) = {
            let u = ctx.s.unit(f).unwrap();
            (u.owner, rs.stats(u.kind).carrier_cost as i32, u.carried_by)
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
        match island {
            Some(t) if ctx.rel().friendly_land(owner, t) => {
                let u = ctx.s.unit_mut(f).unwrap();
                u.at = t;
                u.carried_by = None;
            }
            _ => lost.push(f),
        }
    }
    destroy(ctx, i, &lost);
}
