//! Round one's own steps: who takes part and whether the attack is
//! amphibious, AA fire, shore bombardment, and strategic bombing raids.

use super::casualties::{attackers, default_casualties, defenders, pool, CasualtyChoice};
use super::ending::{end, finish_if_over};
use super::fire::{pend, take_casualties, value_of};
use super::{BattleKind, BattleResult, BattleSide, HitGroup, Removal, Targets};
use crate::action::{Event, RuleError};
use crate::game::Ctx;
use crate::ids::{PowerId, SpaceId, UnitId};
use crate::ruleset::BombingCap;

/// Round one: mark who takes part and whether the attack is amphibious (a
/// land unit attacks straight from a transport that still floats, DAAK
/// 4.3(a), (c)).
pub(crate) fn start_of_battle(ctx: &mut Ctx<'_>, i: usize) {
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

/// AA guns fire once, in round one, one die per attacking aircraft
/// (DAAK 3.1(a)); the attacker picks which aircraft the hits take.
pub(crate) fn aa_fire(ctx: &mut Ctx<'_>, i: usize) -> Result<(), RuleError> {
    let b = ctx.s.battles[i].clone();
    let rel = ctx.rel();
    let Some(aa) = ctx.s.units.iter().find(|u| u.at == b.at && ctx.rs.stats(u.kind).anti_aircraft > 0 && rel.enemies(b.attacker, u.owner)) else {
        return Ok(());
    };
    let value = ctx.rs.stats(aa.kind).anti_aircraft;
    let aircraft = pool(ctx.rs, ctx.s, &b, BattleSide::Attacker, Targets::AIRCRAFT);
    let mut dice = Vec::new();
    for _ in &aircraft {
        dice.push(ctx.roll()?);
    }
    let hits = dice.iter().filter(|d| **d <= value).count() as u32;
    if !dice.is_empty() {
        ctx.events.push(Event::Rolled { purpose: format!("AA fire at {}", ctx.name(b.at)), dice, hits });
    }
    pend(ctx, i, BattleSide::Attacker, &[HitGroup { targets: Targets::AIRCRAFT, hits }], Removal::Now);
    Ok(())
}

/// Shore bombardment: each battleship in a zone the landing came from that
/// fought no sea battle this combat phase fires once, in round one; its
/// casualties still fire back (DAAK 3.5(a), (c)).
pub(crate) fn bombard(ctx: &mut Ctx<'_>, i: usize) -> Result<(), RuleError> {
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
    ships.sort_by_key(|id| (ctx.rs.rank(ctx.s.unit(*id).unwrap().kind), *id));
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
    pend(ctx, i, BattleSide::Defender, &[HitGroup { targets: Targets::ANY, hits }], Removal::EndOfRound);
    Ok(())
}

/// A strategic bombing raid: after AA fire, each surviving bomber rolls
/// (three dice with heavy bombers) and the factory's owner pays the total,
/// capped as the `bombing_cap` option says.
pub(crate) fn bombing_raid(ctx: &mut Ctx<'_>, i: usize) -> Result<(), RuleError> {
    // AA casualties are taken first (forced or chosen by default: all
    // bombers are alike unless damaged).
    if let Some(p) = ctx.s.battles[i].pending.clone() {
        let choice = CasualtyChoice::of(ctx.rs, ctx.s, &ctx.s.battles[i], p.chooser, &p.groups);
        let chosen = default_casualties(ctx.rs, ctx.s, &choice, true);
        take_casualties(ctx, i, &chosen);
    }
    let b = ctx.s.battles[i].clone();
    // Escorts do not bomb.
    let bombers: Vec<UnitId> = attackers(ctx.rs, ctx.s, &b).into_iter().filter(|id| ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).strategic_bomber).collect();
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
