//! Rolling a battle forward: the steps of each round, their dice and the
//! hits they score. Round one's special steps are in `round_one.rs`, the
//! end of a battle in `ending.rs`.

use super::casualties::{attackers, default_casualties, defenders, CasualtyChoice};
use super::decisions::{attacker_sub_zones, defender_sub_zones, retreat_allowed};
use super::ending::finish_if_over;
use super::round_one::{aa_fire, bombard, bombing_raid, start_of_battle};
use super::{BattleKind, BattleResult, BattleSide, HitGroup, HitPool, PendingHits, Stage};
use crate::action::{Event, RuleError};
use crate::game::Ctx;
use crate::ids::UnitId;
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
            let choice = CasualtyChoice::of(ctx.rs, ctx.s, &ctx.s.battles[i], &p.groups);
            if auto || !choice.is_real_choice(ctx.s) {
                let chosen = default_casualties(ctx.rs, ctx.s, &choice, p.chooser == BattleSide::Attacker);
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
                    pend(ctx, i, BattleSide::Defender, &[HitGroup { targets: HitPool::DefendingShips, hits }]);
                }
                Stage::AttackerFire
            }
            Stage::AttackerFire => {
                let firing: Vec<UnitId> = attackers(ctx.rs, ctx.s, &b).into_iter().filter(|id| b.kind != BattleKind::Sea || !is_sub(ctx, *id)).collect();
                let hits = roll_for(ctx, &firing, true, "attacker")?;
                pend(ctx, i, BattleSide::Defender, &[HitGroup { targets: HitPool::Defenders, hits }]);
                Stage::DefenderFire
            }
            Stage::DefenderFire => {
                // One roll for all defenders (dice in unit-table order);
                // submarines' hits are never taken by aircraft.
                let firing = defenders(ctx.rs, ctx.s, &b);
                let sub_hit = |ctx: &Ctx<'_>, id: UnitId| is_sub(ctx, id) && !ctx.rs.options.submarines_hit_aircraft;
                let per_unit = roll_each(ctx, &firing, false, "defender")?;
                let subs = per_unit.iter().filter(|(id, _)| sub_hit(ctx, *id)).map(|(_, h)| h).sum();
                let others = per_unit.iter().filter(|(id, _)| !sub_hit(ctx, *id)).map(|(_, h)| h).sum();
                let groups = [
                    HitGroup { targets: HitPool::AttackersNotAircraft, hits: subs },
                    HitGroup { targets: HitPool::Attackers, hits: others },
                ];
                pend(ctx, i, BattleSide::Attacker, &groups);
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

pub(crate) fn value_of(ctx: &Ctx<'_>, id: UnitId, attacking: bool) -> (u8, u8) {
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
    Ok(roll_each(ctx, units, attacking, who)?.iter().map(|(_, h)| h).sum())
}

/// As [`roll_for`], with the hits each unit scored.
fn roll_each(ctx: &mut Ctx<'_>, units: &[UnitId], attacking: bool, who: &str) -> Result<Vec<(UnitId, u32)>, RuleError> {
    let mut order: Vec<UnitId> = units.to_vec();
    order.sort_by_key(|id| {
        let u = ctx.s.unit(*id).unwrap();
        (u.kind, u.id)
    });
    let mut dice = Vec::new();
    let mut scored = Vec::new();
    for id in order {
        let (value, n) = value_of(ctx, id, attacking);
        if value == 0 {
            continue;
        }
        let mut hits = 0;
        for _ in 0..n {
            let d = ctx.roll()?;
            dice.push(d);
            if d <= value {
                hits += 1;
            }
        }
        scored.push((id, hits));
    }
    let hits = scored.iter().map(|(_, h)| h).sum();
    if !dice.is_empty() {
        ctx.events.push(Event::Rolled { purpose: who.to_string(), dice, hits });
    }
    Ok(scored)
}

/// Leaves hits waiting for casualties; hits no unit can take are lost.
pub(crate) fn pend(ctx: &mut Ctx<'_>, i: usize, chooser: BattleSide, groups: &[HitGroup]) {
    let groups: Vec<HitGroup> = groups.iter().copied().filter(|g| g.hits > 0).collect();
    let p = PendingHits { chooser, groups };
    if CasualtyChoice::of(ctx.rs, ctx.s, &ctx.s.battles[i], &p.groups).hits() > 0 {
        ctx.s.battles[i].pending = Some(p);
    }
}

/// Applies chosen casualties for the pending hits.
pub(crate) fn take_casualties(ctx: &mut Ctx<'_>, i: usize, chosen: &[UnitId]) {
    let p = ctx.s.battles[i].pending.take().expect("hits pending");
    if p.fire_back() {
        ctx.s.battles[i].dying.extend_from_slice(chosen);
    } else {
        destroy(ctx, i, chosen);
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
    // Fighters aboard a defending carrier that sinks are not cargo that
    // sinks with it: they fight on and land when the battle ends, allied
    // ones like the owner's (DAAK 3.4(b), and the note to 3.4(e)).
    let attacker = ctx.s.battles[i].attacker;
    let rel = ctx.rel();
    let freed: Vec<UnitId> = ctx
        .s
        .units
        .iter()
        .filter(|u| u.carried_by.is_some_and(|c| doomed.contains(&c)) && ctx.rs.stats(u.kind).is_air() && rel.enemies(attacker, u.owner))
        .map(|u| u.id)
        .collect();
    for id in freed {
        ctx.s.unit_mut(id).unwrap().carried_by = None;
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
