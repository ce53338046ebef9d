//! The choices within a battle: casualties, submarine withdrawal, pressing
//! on or retreating (DAAK 4.1, 4.2, 4.3).

use super::casualties::{attackers, defenders, CasualtyChoice};
use super::ending::{end, finish_if_over};
use super::fire::{run, take_casualties};
use super::{current, BattleKind, BattleResult, BattleSide, Stage};
use crate::action::{reject, Event, RuleError};
use crate::game::Ctx;
use crate::ids::{SpaceId, UnitId};
use crate::ruleset::SubWithdrawalText;

fn battle_index(ctx: &Ctx<'_>) -> Result<usize, RuleError> {
    match current(ctx.s) {
        Some(i) => Ok(i),
        None => reject("battle/none", "no battle is waiting for a decision"),
    }
}

pub(crate) fn casualties(ctx: &mut Ctx<'_>, units: &[UnitId]) -> Result<(), RuleError> {
    let i = battle_index(ctx)?;
    let Some(p) = ctx.s.battles[i].pending.clone() else {
        return reject("battle/no-casualties-due", "no hits are waiting for casualties to be chosen");
    };
    let choice = CasualtyChoice::of(ctx.rs, ctx.s, &ctx.s.battles[i], p.chooser, &p.groups);
    let candidates = choice.candidates();
    let hits = choice.hits();
    if units.len() != hits as usize {
        return reject(
            "battle/casualty-count",
            format!(
                "{hits} {} must be taken, no more and no fewer: every hit that can be applied is applied",
                if hits == 1 { "hit" } else { "hits" }
            ),
        );
    }
    for id in units {
        if !candidates.contains(id) {
            let why = match ctx.s.unit(*id) {
                Some(u) if ctx.rs.stats(u.kind).anti_aircraft > 0 => "an AA gun cannot be taken as a loss (DAAK 3.1(c))".to_string(),
                Some(u) if u.carried_by.is_some() => format!("the {} is cargo: it never fights and is no casualty on its own (DAAK 3.2(f), 3.4(e))", u.kind),
                Some(u) => format!("the {} cannot take these hits", u.kind),
                None => "no such unit in this battle".to_string(),
            };
            return reject("battle/not-a-casualty", why);
        }
    }
    if !choice.admits(units) {
        return reject(
            "battle/casualty-targets",
            "those losses do not fit the hits: a unit is named more often than it has hit points, or the hits may not take it (submarine hits are never taken by aircraft, AA fire hits only aircraft)",
        );
    }
    take_casualties(ctx, i, units);
    run(ctx, i, false)
}

fn expect_stage(ctx: &Ctx<'_>, i: usize, stages: &[Stage]) -> Result<(), RuleError> {
    let b = &ctx.s.battles[i];
    if b.pending.is_some() {
        return reject("battle/casualties-first", "casualties must be chosen first");
    }
    if !stages.contains(&b.stage) {
        return reject("battle/not-now", "that choice is not open now: it comes after a full round of the battle");
    }
    Ok(())
}

pub(crate) fn press_on(ctx: &mut Ctx<'_>) -> Result<(), RuleError> {
    let i = battle_index(ctx)?;
    expect_stage(
        ctx,
        i,
        &[Stage::AttackerSubs, Stage::DefenderSubs, Stage::PressOrRetreat, Stage::AttackerSubmerge, Stage::DefenderSubmerge],
    )?;
    let b = &mut ctx.s.battles[i];
    b.stage = match b.stage {
        Stage::AttackerSubs => Stage::DefenderSubs,
        Stage::DefenderSubs => Stage::PressOrRetreat,
        Stage::AttackerSubmerge | Stage::DefenderSubmerge => super::fire::after_submerge_stage(ctx.rs, b.stage),
        _ => {
            b.round += 1;
            Stage::AaFire
        }
    };
    run(ctx, i, false)
}

/// Where the attacker may retreat now, or why not at all. An empty list
/// means only aircraft attack: breaking off needs no destination.
pub(crate) fn retreat_allowed(ctx: &Ctx<'_>, i: usize) -> Result<Vec<SpaceId>, RuleError> {
    let b = &ctx.s.battles[i];
    if ctx.rs.options.free_movement {
        return free_retreats(ctx, i);
    }
    if b.kind == BattleKind::Bombing {
        return reject("battle/no-retreat", "a bombing raid is not a battle one retreats from");
    }
    let partial = b.amphibious && ctx.rs.options.amphibious_retreat == crate::ruleset::AmphibiousRetreat::Partial;
    let movers: Vec<UnitId> = attackers(ctx.rs, ctx.s, b)
        .into_iter()
        .filter(|id| !ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).is_air())
        // Units that landed from transports stay (knob `amphibious_retreat
        // = partial`).
        .filter(|id| !(partial && ctx.s.unit(*id).unwrap().flags.unloaded))
        .collect();
    if b.amphibious && !partial {
        let air = movers.len() < attackers(ctx.rs, ctx.s, b).len();
        match ctx.rs.options.amphibious_retreat {
            crate::ruleset::AmphibiousRetreat::Nobody => {
                return reject(
                    "battle/no-retreat-amphibious",
                    "no unit may retreat from an amphibious assault, aircraft included (DAAK 4.1(a), 4.3(b))",
                )
            }
            crate::ruleset::AmphibiousRetreat::AirOnly if !air => {
                return reject("battle/no-retreat-amphibious", "land units fight an amphibious assault to the end; only fighters and bombers may retreat (EUROPE FAQ: Amphibious Assault)")
            }
            crate::ruleset::AmphibiousRetreat::AirOnly | crate::ruleset::AmphibiousRetreat::Partial => {}
        }
    }
    if defenders(ctx.rs, ctx.s, b).is_empty() {
        return reject("battle/no-retreat-from-nobody", "a retreat needs at least one defender left (DAAK 4.1(c))");
    }
    // Only aircraft break off (no destination): those of an attack without
    // land units or ships, or of an amphibious assault whose land units
    // fight on (knob `amphibious_retreat`).
    if movers.is_empty() || (b.amphibious && !partial) {
        return Ok(Vec::new());
    }
    let p = b.attacker;
    let rel = ctx.rel();
    let to: Vec<SpaceId> = b
        .came_from
        .iter()
        .copied()
        .filter(|s| match b.kind {
            BattleKind::Land => rel.friendly_land(p, *s),
            _ => ctx.rs.map.is_sea(*s) && rel.enemy_units(p, *s).next().is_none() && rel.canal_open(p, b.at, *s),
        })
        .collect();
    if to.is_empty() {
        return reject(
            "battle/no-retreat-space",
            if ctx.rs.options.retreat_to_air_origins {
                "there is no friendly space from which the attack came to retreat to (DAAK 4.1(b))"
            } else {
                "there is no adjacent friendly space from which an attacking land or sea unit moved to retreat to (AA50 errata p. 19)"
            },
        );
    }
    Ok(to)
}

pub(crate) fn retreat(ctx: &mut Ctx<'_>, to: Option<SpaceId>) -> Result<(), RuleError> {
    let i = battle_index(ctx)?;
    expect_stage(ctx, i, &[Stage::AttackerSubs, Stage::PressOrRetreat])?;
    let allowed = retreat_allowed(ctx, i)?;
    if ctx.rs.options.free_movement {
        return free_retreat(ctx, i, &allowed, to);
    }
    let b = ctx.s.battles[i].clone();
    let (air, mut land): (Vec<UnitId>, Vec<UnitId>) =
        attackers(ctx.rs, ctx.s, &b).into_iter().partition(|id| ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).is_air());
    // A partial amphibious retreat: units that landed from transports stay
    // and fight on; the others go (knob `amphibious_retreat = partial`).
    let partial = b.amphibious && ctx.rs.options.amphibious_retreat == crate::ruleset::AmphibiousRetreat::Partial;
    let stay: Vec<UnitId> = if partial { land.iter().copied().filter(|id| ctx.s.unit(*id).unwrap().flags.unloaded).collect() } else { Vec::new() };
    land.retain(|id| !stay.contains(id));
    let movers: Vec<UnitId> = if allowed.is_empty() {
        if to.is_some() {
            return reject("battle/air-retreat", "aircraft do not retreat to a space: they stay and fly to a landing in non-combat move (DAAK 4.1(b))");
        }
        Vec::new()
    } else {
        let Some(to) = to else {
            return reject("battle/retreat-where", "name the space to retreat to");
        };
        if !allowed.contains(&to) {
            let names: Vec<&str> = allowed.iter().map(|s| ctx.name(*s)).collect();
            return reject(
                "battle/retreat-space",
                format!(
                    "all retreating units go together to one friendly space from which the attack came: {} (DAAK 4.1(b))",
                    names.join(", ")
                ),
            );
        }
        land.clone()
    };
    // Part of an amphibious assault breaks off and the rest fights on: its
    // aircraft (EUROPE FAQ: Amphibious Assault, knob `amphibious_retreat`),
    // and with a partial retreat the land units that came overland, to
    // `to`; those that landed from transports stay.
    let part_stays = if partial { !stay.is_empty() } else { b.amphibious && !land.is_empty() };
    if part_stays {
        if let (true, Some(to)) = (partial, to) {
            for id in &movers {
                ctx.s.unit_mut(*id).unwrap().at = to;
            }
            ctx.events.push(Event::Withdrew { units: movers.clone(), from: b.at, to: Some(to) });
        }
        for id in &air {
            ctx.s.unit_mut(*id).unwrap().flags.withdrawn = true;
        }
        ctx.events.push(Event::Withdrew { units: air, from: b.at, to: None });
        ctx.s.battles[i].round += 1;
        ctx.s.battles[i].stage = Stage::AaFire;
        return run(ctx, i, false);
    }
    // Aircraft stay in the battle zone and fly in non-combat move (DAAK
    // 4.1(b)); cargo stays aboard its transport (DAAK 3.2(f)).
    if let Some(to) = to {
        // Troops declared to land from a transport that breaks off its sea
        // battle have not landed: they stay aboard, go with it, and do not
        // fight on land (DAAK 3.2(f), 4.3(c)).
        let landing: Vec<(UnitId, UnitId)> = ctx
            .s
            .units
            .iter()
            .filter_map(|u| u.landed_from.filter(|t| movers.contains(t)).map(|t| (u.id, t)))
            .filter(|(id, _)| {
                let at = ctx.s.unit(*id).unwrap().at;
                ctx.s.battles.iter().any(|b| b.at == at && b.result == BattleResult::Pending)
            })
            .collect();
        for (id, transport) in landing {
            let u = ctx.s.unit_mut(id).unwrap();
            u.carried_by = Some(transport);
            u.landed_from = None;
        }
        let cargo: Vec<UnitId> = ctx.s.units.iter().filter(|u| u.carried_by.is_some_and(|c| movers.contains(&c))).map(|u| u.id).collect();
        for id in movers.iter().chain(&cargo) {
            ctx.s.unit_mut(*id).unwrap().at = to;
        }
        ctx.events.push(Event::Withdrew { units: movers.clone(), from: b.at, to: Some(to) });
    }
    end(ctx, i, BattleResult::Retreated);
    Ok(())
}

/// Sea zones attacking submarines may withdraw to: English 4.2(c), an empty
/// or friendly adjacent zone from which an attacking unit came; German
/// 4.2(3), a zone from or through which an attacking ship came. A canal is
/// passed only if it was open at the start of the turn (DAAK 2.3).
pub(crate) fn attacker_sub_zones(ctx: &Ctx<'_>, i: usize) -> Vec<SpaceId> {
    let b = &ctx.s.battles[i];
    let p = b.attacker;
    let rel = ctx.rel();
    let from = match ctx.rs.options.sub_withdrawal_text {
        SubWithdrawalText::English => &b.came_from,
        SubWithdrawalText::German => &b.ships_came_from,
    };
    from.iter()
        .copied()
        .filter(|z| ctx.rs.map.is_sea(*z) && ctx.rs.map.adjacent(b.at, *z) && rel.canal_open(p, b.at, *z))
        .filter(|z| rel.enemy_units(p, *z).next().is_none())
        .collect()
}

/// Sea zones defending submarines may withdraw to (DAAK 4.2(d)): adjacent,
/// with no enemy naval units (English) or no enemy units at all (German),
/// and no battle there this turn; canals as at the start of the attacker's
/// turn (DAAK 2.3).
pub(crate) fn defender_sub_zones(ctx: &Ctx<'_>, i: usize) -> Vec<SpaceId> {
    if !ctx.rs.options.defending_submarines_withdraw {
        return Vec::new();
    }
    let b = &ctx.s.battles[i];
    if attackers(ctx.rs, ctx.s, b).is_empty() {
        return Vec::new();
    }
    let rel = ctx.rel();
    let Some(sub) = defenders(ctx.rs, ctx.s, b).into_iter().find(|id| ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).submarine) else {
        return Vec::new();
    };
    let owner = ctx.s.unit(sub).unwrap().owner;
    ctx.rs
        .map
        .neighbours(b.at)
        .iter()
        .copied()
        .filter(|z| ctx.rs.map.is_sea(*z) && rel.canal_open(owner, b.at, *z))
        .filter(|z| !ctx.s.battles.iter().any(|x| x.at == *z))
        .filter(|z| match ctx.rs.options.sub_withdrawal_text {
            SubWithdrawalText::English => rel.enemy_ships(owner, *z).next().is_none(),
            SubWithdrawalText::German => rel.enemy_units(owner, *z).next().is_none(),
        })
        .collect()
}

pub(crate) fn submerge(ctx: &mut Ctx<'_>, units: &[UnitId], to: Option<SpaceId>) -> Result<(), RuleError> {
    let i = battle_index(ctx)?;
    let b = ctx.s.battles[i].clone();
    if b.pending.is_some() {
        return reject("battle/casualties-first", "casualties must be chosen first");
    }
    if matches!(b.stage, Stage::AttackerSubmerge | Stage::DefenderSubmerge) {
        return submerge_in_place(ctx, i, units, to);
    }
    if b.stage == Stage::PressOrRetreat && super::fire::submerge_at_round_end(ctx, &b) {
        return submerge_and_press_on(ctx, i, units, to);
    }
    let side = match b.stage {
        Stage::AttackerSubs => BattleSide::Attacker,
        Stage::DefenderSubs => BattleSide::Defender,
        _ => {
            return reject(
                "battle/not-now",
                "submarines withdraw after a full round: attacking submarines first, then defending ones (DAAK 4.2(a), (b)); this side's choice is spent or not open now",
            )
        }
    };
    if units.is_empty() {
        return reject("battle/no-units", "name the submarines that withdraw");
    }
    let eligible = super::casualties::fighting(ctx.rs, ctx.s, &b, side);
    for id in units {
        let is_sub = ctx.s.unit(*id).is_some_and(|u| ctx.rs.stats(u.kind).submarine);
        if !is_sub || !eligible.contains(id) {
            return reject("battle/not-your-sub", "only the deciding side's submarines in this battle may withdraw now");
        }
    }
    let Some(to) = to else {
        return reject("battle/withdraw-where", "in classic, submarines withdraw to a sea zone: name it");
    };
    let zones = match side {
        BattleSide::Attacker => attacker_sub_zones(ctx, i),
        BattleSide::Defender => defender_sub_zones(ctx, i),
    };
    if !zones.contains(&to) {
        let rule = match side {
            BattleSide::Attacker => "attacking submarines withdraw to an empty or friendly adjacent zone from which the attack came (DAAK 4.2(c))",
            BattleSide::Defender => "defending submarines withdraw to an adjacent zone without enemy ships where no battle took place this turn (DAAK 4.2(d))",
        };
        let names: Vec<&str> = zones.iter().map(|z| ctx.name(*z)).collect();
        return reject("battle/withdraw-zone", format!("{rule}; open now: {}", if names.is_empty() { "none".to_string() } else { names.join(", ") }));
    }
    for id in units {
        ctx.s.unit_mut(*id).unwrap().at = to;
    }
    ctx.events.push(Event::Withdrew { units: units.to_vec(), from: b.at, to: Some(to) });
    let next = match side {
        BattleSide::Attacker => Stage::DefenderSubs,
        BattleSide::Defender => Stage::PressOrRetreat,
    };
    after_submarines_left(ctx, i, next)
}

/// Once submarines have left a battle: on to `next`, unless one side has
/// left entirely (DAAK 4.2(e)) or nothing is left to fight.
fn after_submarines_left(ctx: &mut Ctx<'_>, i: usize, next: Stage) -> Result<(), RuleError> {
    ctx.s.battles[i].stage = next;
    if attackers(ctx.rs, ctx.s, &ctx.s.battles[i]).is_empty() && !defenders(ctx.rs, ctx.s, &ctx.s.battles[i]).is_empty() {
        end(ctx, i, BattleResult::Retreated);
        return Ok(());
    }
    if finish_if_over(ctx, i) {
        return Ok(());
    }
    run(ctx, i, false)
}

/// Submerging before a round's dice (knob `submarine_escape`, AA50 FAQ:
/// Submarines): the named submarines leave the battle for good and stay in
/// the zone, submerged until the turn ends.
fn submerge_in_place(ctx: &mut Ctx<'_>, i: usize, units: &[UnitId], to: Option<SpaceId>) -> Result<(), RuleError> {
    let stage = ctx.s.battles[i].stage;
    let side = if stage == Stage::AttackerSubmerge { BattleSide::Attacker } else { BattleSide::Defender };
    submerge_here(ctx, i, side, units, to)?;
    after_submarines_left(ctx, i, super::fire::after_submerge_stage(ctx.rs, stage))
}

/// Europe, at a round's end: the named attacking submarines submerge, the
/// rest of the attack presses on (FORMAT.md v2, "Submerging").
fn submerge_and_press_on(ctx: &mut Ctx<'_>, i: usize, units: &[UnitId], to: Option<SpaceId>) -> Result<(), RuleError> {
    submerge_here(ctx, i, BattleSide::Attacker, units, to)?;
    ctx.s.battles[i].round += 1;
    after_submarines_left(ctx, i, Stage::AaFire)
}

/// The named submarines of `side` submerge where they are, if they may
/// (`fire::submergers`): out of the battle for good, flagged until the turn
/// ends.
fn submerge_here(ctx: &mut Ctx<'_>, i: usize, side: BattleSide, units: &[UnitId], to: Option<SpaceId>) -> Result<(), RuleError> {
    if to.is_some() {
        return reject("battle/submerge-in-place", "submarines submerge where they are: name no zone");
    }
    if units.is_empty() {
        return reject("battle/no-units", "name the submarines that submerge");
    }
    let b = &ctx.s.battles[i];
    let may = super::fire::submergers(ctx, b, side);
    if let Some(id) = units.iter().find(|id| !may.contains(id)) {
        let europe = ctx.rs.options.submarine_escape == crate::ruleset::SubmarineEscape::SubmergeBeforeOwnDice;
        let why = if !ctx.s.unit(*id).is_some_and(|u| ctx.rs.stats(u.kind).submarine) {
            "only the deciding side's submarines in this battle may submerge"
        } else if europe {
            "only the deciding side's own submarines not hit this round may submerge; bystanders never do (EUROPE FAQ: Submarines)"
        } else {
            "a submarine facing an enemy destroyer cannot submerge (AA50 FAQ: Submarines)"
        };
        return reject("battle/not-your-sub", why);
    }
    let at = b.at;
    for id in units {
        ctx.s.unit_mut(*id).unwrap().flags.submerged = true;
    }
    ctx.events.push(Event::Withdrew { units: units.to_vec(), from: at, to: None });
    Ok(())
}

/// Alternative retreats (ALT L46): units with a move left, never tanks that
/// landed from a ship (an amphibious assault) and so never infantry, which
/// spend their one move entering; to any adjacent space without enemy
/// units that can take them (planes: land, or a friendly ship with room).
fn free_retreaters(ctx: &Ctx<'_>, i: usize) -> Vec<UnitId> {
    let b = &ctx.s.battles[i];
    attackers(ctx.rs, ctx.s, b)
        .into_iter()
        .filter(|id| {
            let u = ctx.s.unit(*id).unwrap();
            u.moved < ctx.rs.stats(u.kind).movement && !u.flags.unloaded
        })
        .collect()
}

fn free_retreats(ctx: &Ctx<'_>, i: usize) -> Result<Vec<SpaceId>, RuleError> {
    let b = &ctx.s.battles[i];
    if defenders(ctx.rs, ctx.s, b).is_empty() {
        return reject("battle/no-retreat-from-nobody", "a retreat needs at least one defender left");
    }
    let movers = free_retreaters(ctx, i);
    if movers.is_empty() {
        return reject(
            "battle/no-retreat",
            "no attacking unit can retreat: units out of moves fight to the death, infantry never retreat and tanks never retreat from an amphibious assault (ALT L46)",
        );
    }
    let p = b.attacker;
    let rel = ctx.rel();
    let to: Vec<SpaceId> = ctx
        .rs
        .map
        .space(b.at)
        .adjacent
        .iter()
        .copied()
        .filter(|t| !ctx.rs.map.space(*t).off_limits && rel.enemy_units(p, *t).next().is_none())
        .filter(|t| movers.iter().any(|id| free_can_enter(ctx, p, *id, *t)))
        .collect();
    if to.is_empty() {
        return reject("battle/no-retreat-space", "there is no space next to the battle, free of enemy units, that the attackers can move to");
    }
    Ok(to)
}

fn free_can_enter(ctx: &Ctx<'_>, p: crate::ids::PowerId, id: UnitId, t: SpaceId) -> bool {
    let st = ctx.rs.stats(ctx.s.unit(id).unwrap().kind);
    let sea = ctx.rs.map.is_sea(t);
    if st.is_sea() {
        return sea;
    }
    if st.is_land() {
        return !sea;
    }
    !sea || ctx.s.units.iter().any(|u| u.at == t && ctx.s.allied(p, u.owner) && ctx.rs.stats(u.kind).cargo.is_some())
}

/// Every attacker that can retreat to `to` goes there (a move spent); the
/// rest fight on, and the battle is a retreat once none is left (ALT L46).
fn free_retreat(ctx: &mut Ctx<'_>, i: usize, allowed: &[SpaceId], to: Option<SpaceId>) -> Result<(), RuleError> {
    let Some(to) = to else {
        return reject("battle/retreat-where", "name the space to retreat to");
    };
    if !allowed.contains(&to) {
        let names: Vec<&str> = allowed.iter().map(|s| ctx.name(*s)).collect();
        return reject("battle/retreat-space", format!("the attackers can retreat only next door to a space free of enemy units: {}", names.join(", ")));
    }
    let p = ctx.s.battles[i].attacker;
    let movers: Vec<UnitId> = free_retreaters(ctx, i).into_iter().filter(|id| free_can_enter(ctx, p, *id, to)).collect();
    let at = ctx.s.battles[i].at;
    for id in &movers {
        let planes_aboard = ctx.rs.map.is_sea(to) && ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).is_air();
        let ship = if planes_aboard {
            ctx.s
                .units
                .iter()
                .filter(|u| u.at == to && ctx.s.allied(p, u.owner) && ctx.rs.stats(u.kind).cargo.is_some())
                .map(|u| u.id)
                .find(|s| {
                    let cap = ctx.rs.stats(ctx.s.unit(*s).unwrap().kind).cargo.as_ref().map_or(0, |c| c.capacity);
                    ctx.s.cargo_of(*s).map(|c| ctx.rs.stats(c.kind).cargo_size).sum::<u8>() < cap
                })
        } else {
            None
        };
        if planes_aboard && ship.is_none() {
            continue;
        }
        let cargo: Vec<UnitId> = ctx.s.cargo_of(*id).map(|c| c.id).collect();
        let u = ctx.s.unit_mut(*id).unwrap();
        u.at = to;
        u.moved += 1;
        u.carried_by = ship;
        for c in cargo {
            ctx.s.unit_mut(c).unwrap().at = to;
        }
    }
    ctx.events.push(Event::Moved { units: movers, route: vec![at, to] });
    let b = ctx.s.battles[i].clone();
    if attackers(ctx.rs, ctx.s, &b).is_empty() {
        end(ctx, i, BattleResult::Retreated);
    }
    Ok(())
}
