//! Round one's own steps: who takes part and whether the attack is
//! amphibious, AA fire, shore bombardment, and strategic bombing raids.

use super::casualties::{attackers, default_casualties, defenders, pool, CasualtyChoice};
use super::ending::{end, finish_if_over};
use super::fire::{pend, take_casualties, value_of};
use super::{BattleKind, BattleResult, BattleSide, HitGroup, Removal, Targets};
use crate::action::{Event, RuleError};
use crate::game::Ctx;
use crate::ids::{SpaceId, UnitId};

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
    let value = aa_value(ctx, aa);
    let aircraft = pool(ctx.rs, ctx.s, &b, BattleSide::Attacker, Targets::AIRCRAFT);
    if ctx.rs.options.low_luck {
        // One group: a shot at each aircraft, added up (docs/low-luck.md).
        // No die is any aircraft's own, so the attacker chooses the losses
        // whatever `aa_hits_chosen` says.
        let mut dice = Vec::new();
        let hits = ctx.low_luck(aircraft.len() as u32 * u32::from(value.min(6)), &mut dice)?;
        if !aircraft.is_empty() {
            ctx.events.push(Event::Rolled { purpose: format!("AA fire at {}", ctx.name(b.at)), dice, hits, by: Vec::new() });
        }
        pend(ctx, i, BattleSide::Attacker, &[HitGroup { targets: Targets::AIRCRAFT, hits }], Removal::Now);
        return Ok(());
    }
    let mut dice = Vec::new();
    for _ in &aircraft {
        dice.push(ctx.roll()?);
    }
    let struck: Vec<UnitId> = aircraft.iter().zip(&dice).filter(|(_, d)| **d <= value).map(|(id, _)| *id).collect();
    let hits = struck.len() as u32;
    if !dice.is_empty() {
        ctx.events.push(Event::Rolled { purpose: format!("AA fire at {}", ctx.name(b.at)), dice, hits, by: Vec::new() });
    }
    pend(ctx, i, BattleSide::Attacker, &[HitGroup { targets: Targets::AIRCRAFT, hits }], Removal::Now);
    // Each aircraft rolls for itself and the ones hit are lost, nobody
    // chooses (knob `aa_hits_chosen`; rules/anniversary.md §4, TripleA's
    // "Roll AA Individually", "Choose AA Casualties = false").
    if hits > 0 && !ctx.rs.options.aa_hits_chosen {
        take_casualties(ctx, i, &struck);
    }
    Ok(())
}

/// The number an AA gun hits aircraft on: its table value, 2 with Radar
/// (Anniversary chart 2).
pub(crate) fn aa_value(ctx: &Ctx<'_>, gun: &crate::state::Unit) -> u8 {
    let value = ctx.rs.stats(gun.kind).anti_aircraft;
    if ctx.s.has_development(gun.owner, crate::state::Development::Radar) {
        value.max(2)
    } else {
        value
    }
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
    // One bombarding ship per land unit landed from a transport (knob
    // `bombard_per_land_unit`; rules/anniversary.md §4): the strongest fire.
    if ctx.rs.options.bombard_per_land_unit {
        let by_sea = |u: &crate::state::Unit| u.landed_from.and_then(|t| ctx.s.unit(t)).is_some_and(|t| ctx.rs.stats(t.kind).is_sea());
        let landed = ctx.s.units.iter().filter(|u| u.at == b.at && u.owner == b.attacker && by_sea(u)).count();
        ships.sort_by_key(|id| std::cmp::Reverse(ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).bombard));
        ships.truncate(landed);
        ships.sort_by_key(|id| (ctx.rs.rank(ctx.s.unit(*id).unwrap().kind), *id));
    }
    let values: Vec<u8> = ships.iter().map(|id| ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).bombard).collect();
    // One group (under Low Luck: docs/low-luck.md).
    let mut dice = Vec::new();
    let hits = ctx.roll_group(&values, &mut dice)?;
    for id in &ships {
        ctx.s.unit_mut(*id).unwrap().flags.fought = true;
    }
    if !ships.is_empty() {
        ctx.events.push(Event::Rolled { purpose: "shore bombardment".into(), dice, hits, by: Vec::new() });
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
        let f = value_of(ctx, *id, true);
        let mut rolled = Vec::new();
        for _ in 0..f.dice {
            rolled.push(ctx.roll()?);
        }
        // Heavy bombers (Anniversary): two dice, the higher counts (AA50
        // errata p. 12, p. 17).
        total += if f.best_of { rolled.iter().copied().max().unwrap_or(0) as i32 } else { rolled.iter().map(|d| *d as i32).sum() };
        dice.extend(rolled);
    }
    ctx.events.push(Event::Rolled { purpose: "strategic bombing".into(), dice, hits: 0, by: Vec::new() });
    ctx.bomb_factory(b.at, total);
    let result = if bombers.is_empty() { BattleResult::DefenderWon } else { BattleResult::AttackerWon };
    end(ctx, i, result);
    Ok(())
}
