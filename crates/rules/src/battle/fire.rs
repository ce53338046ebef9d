//! Rolling a battle forward: the steps of each round, their dice and the
//! hits they score. Round one's special steps are in `round_one.rs`, the
//! end of a battle in `ending.rs`.

use super::casualties::{attackers, default_casualties, defenders, fighting, side_has, side_or_bystander_has, CasualtyChoice};
use super::decisions::{attacker_sub_zones, defender_sub_zones, retreat_allowed};
use super::ending::finish_if_over;
use super::round_one::{aa_fire, bombard, bombing_raid, start_of_battle};
use super::{BattleKind, BattleResult, BattleSide, HitGroup, PendingHits, Removal, Stage, Targets};
use crate::ruleset::{FirstStrike, ResearchCharts, SubmarineEscape};
use crate::action::{Event, RuleError};
use crate::game::Ctx;
use crate::ids::{UnitId, UnitType};
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
            let choice = CasualtyChoice::of(ctx.rs, ctx.s, &ctx.s.battles[i], p.chooser, &p.groups);
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
                        // AA casualties never fire (EUROPE FAQ: Strategic
                        // Bombing Raids); then the air combat, if any.
                        ctx.s.battles[i].stage = Stage::AttackerFire;
                        continue;
                    }
                }
                // AA fire and bombardment are never in a battle with
                // submarines, so this is still before any die of the round.
                match ctx.rs.options.submarine_escape {
                    SubmarineEscape::SubmergeBeforeRound => Stage::AttackerSubmerge,
                    // Europe: later rounds' attackers chose at the end of the
                    // round before (PressOrRetreat).
                    SubmarineEscape::SubmergeBeforeOwnDice if b.round == 1 => Stage::AttackerSubmerge,
                    _ => Stage::Bombard,
                }
            }
            Stage::AttackerSubmerge => {
                if !auto && !submergers(ctx, &b, BattleSide::Attacker).is_empty() {
                    return Ok(());
                }
                after_submerge_stage(ctx.rs, Stage::AttackerSubmerge)
            }
            Stage::DefenderSubmerge => {
                if !auto && !submergers(ctx, &b, BattleSide::Defender).is_empty() {
                    return Ok(());
                }
                after_submerge_stage(ctx.rs, Stage::DefenderSubmerge)
            }
            Stage::Bombard => {
                // Aircraft shot down by AA fire never fire (EUROPE FAQ:
                // Strategic Bombing Raids, the sequence of A&A: Pacific): if
                // it took every attacker, the battle is over.
                if attackers(ctx.rs, ctx.s, &ctx.s.battles[i]).is_empty() && finish_if_over(ctx, i) {
                    return Ok(());
                }
                if b.round == 1 && b.kind == BattleKind::Land && ctx.s.battles[i].amphibious {
                    bombard(ctx, i)?;
                }
                Stage::SubStrike
            }
            Stage::SubStrike => {
                first_strike(ctx, i, &b, BattleSide::Attacker, Removal::AfterFirstStrikes, "attacking submarines")?;
                Stage::DefenderStrike
            }
            Stage::DefenderStrike => {
                first_strike(ctx, i, &b, BattleSide::Defender, Removal::Now, "defending submarines")?;
                Stage::AttackerFire
            }
            // A raid's air combat (battle/raid.rs), then its bombs.
            Stage::AttackerFire if b.kind == BattleKind::Bombing => {
                super::raid::air_combat_fire(ctx, i, BattleSide::Attacker)?;
                Stage::DefenderFire
            }
            Stage::DefenderFire if b.kind == BattleKind::Bombing => {
                super::raid::air_combat_fire(ctx, i, BattleSide::Defender)?;
                Stage::EndRound
            }
            Stage::EndRound if b.kind == BattleKind::Bombing => {
                let dying = std::mem::take(&mut ctx.s.battles[i].dying);
                destroy(ctx, i, &dying);
                bombing_raid(ctx, i)?;
                return Ok(());
            }
            Stage::AttackerFire => {
                // Units struck by the attacker's first strike are gone now
                // (the defender's first strike has fired).
                let struck = std::mem::take(&mut ctx.s.battles[i].struck);
                destroy(ctx, i, &struck);
                let b = ctx.s.battles[i].clone();
                // A side whose enemies are all gone rolls at nothing: the
                // battle ends with the round (a surprise strike that sank
                // every defender; issue 33, point 10).
                if defenders(ctx.rs, ctx.s, &b).is_empty() {
                    ctx.s.battles[i].stage = Stage::EndRound;
                    continue;
                }
                let all = attackers(ctx.rs, ctx.s, &b);
                let strikers = strikers_among(ctx, &b, BattleSide::Attacker, &all);
                let firing: Vec<UnitId> = all.into_iter().filter(|id| !strikers.contains(id)).collect();
                let groups = fire_groups(ctx, &b, &firing, true, "attacker")?;
                pend(ctx, i, BattleSide::Defender, &groups, Removal::EndOfRound);
                match ctx.rs.options.submarine_escape {
                    // EUROPE FAQ: Submarines: defending subs submerge only
                    // "immediately before rolling their own attacks", once
                    // they have withstood the attacker's fire.
                    SubmarineEscape::SubmergeBeforeOwnDice => Stage::DefenderSubmerge,
                    _ => Stage::DefenderFire,
                }
            }
            Stage::DefenderFire => {
                if attackers(ctx.rs, ctx.s, &b).is_empty() {
                    ctx.s.battles[i].stage = Stage::EndRound;
                    continue;
                }
                // One roll for all defenders that did not strike first (dice
                // in unit-table order), in groups by what their hits may take.
                let all = defenders(ctx.rs, ctx.s, &b);
                let strikers = strikers_among(ctx, &b, BattleSide::Defender, &all);
                let firing: Vec<UnitId> = all.into_iter().filter(|id| !strikers.contains(id)).collect();
                let groups = fire_groups(ctx, &b, &firing, false, "defender")?;
                pend(ctx, i, BattleSide::Attacker, &groups, Removal::Now);
                Stage::EndRound
            }
            Stage::EndRound => {
                let dying = std::mem::take(&mut ctx.s.battles[i].dying);
                destroy(ctx, i, &dying);
                if finish_if_over(ctx, i) {
                    return Ok(());
                }
                match ctx.rs.options.submarine_escape {
                    SubmarineEscape::WithdrawAfterRound => Stage::AttackerSubs,
                    SubmarineEscape::SubmergeBeforeRound | SubmarineEscape::SubmergeBeforeOwnDice => Stage::PressOrRetreat,
                }
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
                // The attacker may move units in or out between rounds
                // (ALT L46): every round ends with its choice.
                if !auto && ctx.rs.options.attacker_moves_between_rounds {
                    return Ok(());
                }
                if !auto && (retreat_allowed(ctx, i).is_ok() || submerge_at_round_end(ctx, &b)) {
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

/// The submarines of `side` that may submerge now. Anniversary: those
/// facing no enemy anti-submarine unit in the battle (AA50 FAQ:
/// Submarines). Europe: any of the side's own (never bystanders') not hit
/// this round, destroyers or not (EUROPE FAQ: Submarines).
pub(crate) fn submergers(ctx: &Ctx<'_>, b: &super::Battle, side: BattleSide) -> Vec<UnitId> {
    let subs: Vec<UnitId> = fighting(ctx.rs, ctx.s, b, side)
        .into_iter()
        .filter(|id| is_sub(ctx, *id) && !b.dying.contains(id) && !b.struck.contains(id))
        .collect();
    let spotted = || ctx.rs.options.submarine_escape == SubmarineEscape::SubmergeBeforeRound && has_anti_submarine(ctx.rs, ctx.s, b, side.other());
    if subs.is_empty() || spotted() {
        return Vec::new();
    }
    subs
}

/// Whether the attacker may submerge submarines with its choice at the
/// end of a round (Europe: "at each round's end", FORMAT.md v2).
pub(crate) fn submerge_at_round_end(ctx: &Ctx<'_>, b: &super::Battle) -> bool {
    ctx.rs.options.submarine_escape == SubmarineEscape::SubmergeBeforeOwnDice && !submergers(ctx, b, BattleSide::Attacker).is_empty()
}

/// The stage after a side's submerging choice.
pub(crate) fn after_submerge_stage(rs: &crate::Ruleset, stage: Stage) -> Stage {
    match (rs.options.submarine_escape, stage) {
        (SubmarineEscape::SubmergeBeforeOwnDice, Stage::AttackerSubmerge) => Stage::Bombard,
        (SubmarineEscape::SubmergeBeforeOwnDice, _) => Stage::DefenderFire,
        (_, Stage::AttackerSubmerge) => Stage::DefenderSubmerge,
        _ => Stage::Bombard,
    }
}

/// Whether `side` has a unit in the battle, or an ally's standing by, that
/// spots submarines (EUROPE FAQ: Submarines).
fn has_anti_submarine(rs: &crate::Ruleset, s: &crate::GameState, b: &super::Battle, side: BattleSide) -> bool {
    side_or_bystander_has(rs, s, b, side, |st| st.anti_submarine)
}

/// Whether a unit of this type strikes first when fighting for `side`
/// (classic: attacking submarines; Anniversary: submarines on either side).
fn strikes_first(st: &crate::ruleset::UnitStats, side: BattleSide) -> bool {
    match st.first_strike {
        FirstStrike::None => false,
        FirstStrike::Attack => side == BattleSide::Attacker,
        FirstStrike::Both => true,
    }
}

/// The units of `side` that strike first this round, unless the enemy has
/// an anti-submarine unit in the battle (Europe and Anniversary destroyers).
fn first_strikers(ctx: &Ctx<'_>, b: &super::Battle, side: BattleSide) -> Vec<UnitId> {
    // Most rulesets and battles have none: no list is built for them.
    if !ctx.rs.unit_types().any(|u| strikes_first(u, side)) || !side_has(ctx.rs, ctx.s, b, side, |st| strikes_first(st, side)) {
        return Vec::new();
    }
    strikers_among(ctx, b, side, &fighting(ctx.rs, ctx.s, b, side))
}

/// Those of `own` (all units of `side` in the battle) that strike first.
fn strikers_among(ctx: &Ctx<'_>, b: &super::Battle, side: BattleSide, own: &[UnitId]) -> Vec<UnitId> {
    if !ctx.rs.unit_types().any(|u| strikes_first(u, side)) {
        return Vec::new();
    }
    let mine: Vec<UnitId> = own.iter().copied().filter(|id| strikes_first(ctx.rs.stats(ctx.s.unit(*id).unwrap().kind), side)).collect();
    if mine.is_empty() || has_anti_submarine(ctx.rs, ctx.s, b, side.other()) {
        return Vec::new();
    }
    mine
}

/// The first-strike step of `side`: its first strikers fire, and their
/// victims leave as `removal` says.
fn first_strike(ctx: &mut Ctx<'_>, i: usize, b: &super::Battle, side: BattleSide, removal: Removal, who: &str) -> Result<(), RuleError> {
    let strikers = first_strikers(ctx, b, side);
    if !strikers.is_empty() {
        let groups = fire_groups(ctx, b, &strikers, side == BattleSide::Attacker, who)?;
        pend(ctx, i, side.other(), &groups, removal);
    }
    Ok(())
}

/// Which enemy units a firing unit's hits may take (`rules/classic.md` §5:
/// submarines never hit aircraft, unless `submarines_hit_aircraft`; Europe
/// and Anniversary: aircraft hit submarines only with an anti-submarine
/// unit of their side in the battle, knob `air_needs_anti_submarine`).
pub fn targets_of(rs: &crate::Ruleset, s: &crate::GameState, b: &super::Battle, id: UnitId) -> Targets {
    let u = s.unit(id).unwrap();
    let st = rs.stats(u.kind);
    // Asked only where it matters: the side's units are a walk of the board.
    let own = if s.allied(u.owner, b.attacker) { BattleSide::Attacker } else { BattleSide::Defender };
    let spotted = || has_anti_submarine(rs, s, b, own);
    // Only where the enemy has submarines: a restriction that takes nothing
    // would still send the casualty choice down its slow general path.
    let enemy_subs = || side_or_bystander_has(rs, s, b, own.other(), |st| st.submarine);
    Targets {
        only_air: false,
        no_air: st.submarine && !rs.options.submarines_hit_aircraft,
        no_submarines: st.is_air() && rs.options.air_needs_anti_submarine && enemy_subs() && !spotted(),
    }
}

/// Rolls for `firing` and groups the hits by what they may take.
fn fire_groups(ctx: &mut Ctx<'_>, b: &super::Battle, firing: &[UnitId], attacking: bool, who: &str) -> Result<Vec<HitGroup>, RuleError> {
    if ctx.rs.options.low_luck {
        return low_luck_groups(ctx, b, firing, attacking, who);
    }
    let scored = roll_each(ctx, firing, attacking, who)?;
    let mut groups: Vec<HitGroup> = Vec::new();
    // Units of one type on one side share their targets: ask once a type.
    let mut known: Vec<(UnitType, Targets)> = Vec::new();
    for (id, kind, hits) in scored {
        if hits == 0 {
            continue;
        }
        let targets = match known.iter().find(|(k, _)| *k == kind) {
            Some((_, t)) => *t,
            None => {
                let t = targets_of(ctx.rs, ctx.s, b, id);
                known.push((kind, t));
                t
            }
        };
        match groups.iter_mut().find(|g| g.targets == targets) {
            Some(g) => g.hits += hits,
            None => groups.push(HitGroup { targets, hits }),
        }
    }
    Ok(groups)
}

pub(crate) fn has_subs(ctx: &Ctx<'_>, i: usize, side: BattleSide) -> bool {
    side_has(ctx.rs, ctx.s, &ctx.s.battles[i], side, |st| st.submarine)
}

/// A unit's firing: the value it hits at or under, how many dice it rolls,
/// and whether only the best of them counts (Anniversary heavy bombers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Firing {
    pub value: u8,
    pub dice: u8,
    pub best_of: bool,
}

impl Firing {
    /// What a unit firing so adds to its group's total under Low Luck
    /// (docs/low-luck.md): its value for each die, a value of 6 or more
    /// counting 6 (such a die always hits); where only the best of its dice
    /// counts (Anniversary heavy bombers), its value and one more for each
    /// further die, at most 6 (TripleA's power of a "choose best roll"
    /// unit: strength + (rolls - 1)).
    pub fn low_luck_pips(&self) -> u32 {
        let (v, n) = (u32::from(self.value.min(6)), u32::from(self.dice));
        match (v, n) {
            (0, _) | (_, 0) => 0,
            _ if self.best_of => (v + n - 1).min(6),
            _ => v * n,
        }
    }
}

/// How a unit fires, its owner's developments included.
pub(crate) fn value_of(ctx: &Ctx<'_>, id: UnitId, attacking: bool) -> Firing {
    let u = ctx.s.unit(id).unwrap();
    firing(ctx.rs, ctx.rs.stats(u.kind), attacking, |d| ctx.s.has_development(u.owner, d))
}

/// How a unit of a type fires in its role, `dev` saying which developments
/// its owner holds. The two charts give the same development different
/// effects (`research_charts`). The calculator asks the same function.
pub fn firing(rs: &crate::ruleset::Ruleset, st: &crate::ruleset::UnitStats, attacking: bool, dev: impl Fn(Development) -> bool) -> Firing {
    let anniversary = rs.options.research_charts == ResearchCharts::Anniversary;
    let mut f = Firing { value: if attacking { st.attack } else { st.defense }, dice: 1, best_of: false };
    let fighter = st.carrier_cost() > 0;
    if anniversary {
        // Chart 2: jet fighters attack at 4 (defence unchanged); heavy
        // bombers roll two dice and the best counts (AA50 errata p. 12).
        if attacking && fighter && dev(Development::JetFighters) {
            f.value = 4;
        }
        if attacking && st.strategic_bomber && dev(Development::HeavyBombers) {
            f = Firing { dice: 2, best_of: true, ..f };
        }
    } else {
        if !attacking && fighter && dev(Development::JetFighters) {
            f.value = 5;
        }
        if attacking && st.strategic_bomber && dev(Development::HeavyBombers) {
            f.dice = 3;
        }
    }
    // Super submarines attack one higher (classic 2 → 3; Anniversary "subs
    // attack at 3"); destroyers never cancel it (AA50 errata p. 29).
    if attacking && st.submarine && dev(Development::SuperSubmarines) {
        f.value += 1;
    }
    f
}

/// One die per firing unit (units with value 0 roll none), in unit-table
/// order, then the order units were listed or arrived (FORMAT.md); a die at
/// or under the unit's value hits. Attacking units a supporter pairs with
/// (artillery and infantry, one to one) roll at the supported value.
/// Returns the hits each unit scored.
fn roll_each(ctx: &mut Ctx<'_>, units: &[UnitId], attacking: bool, who: &str) -> Result<Vec<(UnitId, UnitType, u32)>, RuleError> {
    let fired = firings(ctx, units, attacking);
    let mut dice = Vec::new();
    let mut runs: Vec<crate::action::DiceRun> = Vec::new();
    let mut scored = Vec::new();
    for (id, kind, Firing { value, dice: n, best_of }) in fired {
        let mut hits = 0;
        for _ in 0..n {
            let d = ctx.roll()?;
            dice.push(d);
            if d <= value {
                hits += 1;
            }
        }
        if best_of {
            // The lowest die counts: one hit at most (FORMAT.md v2, dice).
            hits = hits.min(1);
        }
        // Who threw which dice, for the log (issue 15, point 13).
        match runs.last_mut() {
            Some(r) if r.kind == kind && r.value == value => {
                // More than 255 dice of one kind in a step are possible
                // (a big battle): the count is a u32.
                r.count += u32::from(n);
                r.hits += hits;
            }
            _ => runs.push(crate::action::DiceRun { kind, value, count: u32::from(n), hits }),
        }
        scored.push((id, kind, hits));
    }
    let hits = scored.iter().map(|(_, _, h)| h).sum();
    if !dice.is_empty() {
        ctx.events.push(Event::Rolled { purpose: who.to_string(), dice, hits, by: runs });
    }
    Ok(scored)
}

/// How each of `units` fires in this step, in dice order (unit-table
/// order, then the order units were listed or arrived: FORMAT.md), the
/// units that roll no die left out: a unit's value with its owner's
/// developments, raised where a supporter pairs with it (artillery and
/// infantry, one to one, attacking).
fn firings(ctx: &Ctx<'_>, units: &[UnitId], attacking: bool) -> Vec<(UnitId, UnitType, Firing)> {
    let mut order: Vec<UnitId> = units.to_vec();
    let key = |id: &UnitId| {
        let u = ctx.s.unit(*id).unwrap();
        (ctx.rs.rank(u.kind), u.id)
    };
    // Callers pass battle order already; sort only if not.
    if !order.is_sorted_by_key(key) {
        order.sort_by_key(key);
    }
    let mut supporters: Vec<(crate::ids::UnitType, u8, u32)> = Vec::new();
    if attacking && ctx.rs.unit_types().any(|u| u.support.is_some()) {
        for id in &order {
            let u = ctx.s.unit(*id).unwrap();
            if let Some(sup) = ctx.rs.stats(u.kind).support {
                // Advanced Artillery: each artillery supports two infantry
                // (Anniversary chart 1).
                let n = if ctx.s.has_development(u.owner, Development::AdvancedArtillery) { 2 } else { 1 };
                match supporters.iter_mut().find(|(t, v, _)| *t == sup.target && *v == sup.attack) {
                    Some(entry) => entry.2 += n,
                    None => supporters.push((sup.target, sup.attack, n)),
                }
            }
        }
    }
    let mut fired = Vec::with_capacity(order.len());
    for id in order {
        let mut f = value_of(ctx, id, attacking);
        let kind = ctx.s.unit(id).unwrap().kind;
        if let Some(entry) = supporters.iter_mut().find(|(t, v, left)| *t == kind && *left > 0 && *v > f.value) {
            f.value = entry.1;
            entry.2 -= 1;
        }
        if f.value > 0 {
            fired.push((id, kind, f));
        }
    }
    fired
}

/// Low Luck (knob `low_luck`, docs/low-luck.md): the units of `firing`
/// that roll together in this step, split into groups by the units their
/// hits may take ([`targets_of`]; two restrictions that spare the same
/// enemy units, or none there, are one group), each group's values added
/// up ([`Firing::low_luck_pips`]): a hit per full six for sure, and one
/// die for the remainder ([`Ctx::low_luck`]). Groups roll in the order of
/// their first unit in dice order. One event for the step: the remainder
/// dice and the hits.
fn low_luck_groups(
    ctx: &mut Ctx<'_>,
    b: &super::Battle,
    firing: &[UnitId],
    attacking: bool,
    who: &str,
) -> Result<Vec<HitGroup>, RuleError> {
    let fired = firings(ctx, firing, attacking);
    let hit_side = if attacking { BattleSide::Defender } else { BattleSide::Attacker };
    // (targets, the enemy units they may take, pips)
    let mut groups: Vec<(Targets, Vec<UnitId>, u32)> = Vec::new();
    let mut known: Vec<(UnitType, Targets)> = Vec::new();
    for (id, kind, f) in fired {
        let targets = match known.iter().find(|(k, _)| *k == kind) {
            Some((_, t)) => *t,
            None => {
                let t = targets_of(ctx.rs, ctx.s, b, id);
                known.push((kind, t));
                t
            }
        };
        let pips = f.low_luck_pips();
        if let Some(g) = groups.iter_mut().find(|g| g.0 == targets) {
            g.2 += pips;
            continue;
        }
        let mut may_take = super::casualties::pool(ctx.rs, ctx.s, b, hit_side, targets);
        may_take.sort_unstable();
        may_take.dedup();
        match groups.iter_mut().find(|g| g.1 == may_take) {
            Some(g) => g.2 += pips,
            None => groups.push((targets, may_take, pips)),
        }
    }
    let mut dice = Vec::new();
    let mut out = Vec::with_capacity(groups.len());
    for (targets, _, pips) in groups {
        out.push(HitGroup { targets, hits: ctx.low_luck(pips, &mut dice)? });
    }
    if !out.is_empty() {
        let hits = out.iter().map(|g| g.hits).sum();
        ctx.events.push(Event::Rolled { purpose: who.to_string(), dice, hits, by: Vec::new() });
    }
    Ok(out)
}

impl Ctx<'_> {
    /// One Low Luck group's hits (knob `low_luck`, docs/low-luck.md): of
    /// `pips`, the values its dice would roll at added up, a hit per full
    /// six for sure; a remainder r rolls one die (into `dice`), one more
    /// hit when it shows r or less. A multiple of six rolls nothing.
    pub(crate) fn low_luck(&mut self, pips: u32, dice: &mut Vec<u8>) -> Result<u32, RuleError> {
        let (sure, rest) = (pips / 6, pips % 6);
        if rest == 0 {
            return Ok(sure);
        }
        let d = self.roll()?;
        dice.push(d);
        Ok(sure + u32::from(u32::from(d) <= rest))
    }

    /// The hits of one group of shots, each at its value, into `dice`: a
    /// die a shot, or under Low Luck their values added up ([`Ctx::low_luck`]).
    pub(crate) fn roll_group(&mut self, values: &[u8], dice: &mut Vec<u8>) -> Result<u32, RuleError> {
        if self.rs.options.low_luck {
            return self.low_luck(values.iter().map(|v| u32::from((*v).min(6))).sum(), dice);
        }
        let mut hits = 0;
        for &value in values {
            let d = self.roll()?;
            dice.push(d);
            hits += u32::from(d <= value);
        }
        Ok(hits)
    }
}

/// Leaves hits waiting for casualties (hits no unit can take are lost when
/// they are taken: [`CasualtyChoice::hits`]).
pub(crate) fn pend(ctx: &mut Ctx<'_>, i: usize, chooser: BattleSide, groups: &[HitGroup], removal: Removal) {
    let groups: Vec<HitGroup> = groups.iter().copied().filter(|g| g.hits > 0).collect();
    if !groups.is_empty() {
        ctx.s.battles[i].pending = Some(PendingHits { chooser, groups, removal });
    }
}

/// Applies chosen casualties for the pending hits: a unit named fewer times
/// than it has hit points left is damaged; otherwise it goes, when the
/// step's removal says.
pub(crate) fn take_casualties(ctx: &mut Ctx<'_>, i: usize, chosen: &[UnitId]) {
    let p = ctx.s.battles[i].pending.take().expect("hits pending");
    let one_hit = |id: &UnitId| ctx.s.unit(*id).is_some_and(|u| ctx.rs.stats(u.kind).hit_points <= 1);
    if chosen.iter().all(one_hit) {
        // The usual case: every unit named goes.
        remove(ctx, i, chosen, p.removal);
        return;
    }
    let mut gone = Vec::new();
    let mut seen: Vec<UnitId> = Vec::new();
    for id in chosen {
        if seen.contains(id) {
            continue;
        }
        seen.push(*id);
        let times = chosen.iter().filter(|x| *x == id).count() as u8;
        let u = ctx.s.unit(*id).unwrap();
        let (points, hits) = (ctx.rs.stats(u.kind).hit_points.max(1), u.hits + times);
        if hits < points {
            ctx.s.unit_mut(*id).unwrap().hits = hits;
            ctx.events.push(Event::Damaged { unit: *id, hits });
        } else {
            gone.push(*id);
        }
    }
    remove(ctx, i, &gone, p.removal);
}

/// Units destroyed by a step leave the battle when `removal` says.
fn remove(ctx: &mut Ctx<'_>, i: usize, ids: &[UnitId], removal: Removal) {
    match removal {
        Removal::Now => destroy(ctx, i, ids),
        Removal::AfterFirstStrikes => ctx.s.battles[i].struck.extend_from_slice(ids),
        Removal::EndOfRound => ctx.s.battles[i].dying.extend_from_slice(ids),
    }
}

/// Removes units from the board, with their cargo; troops landed from a
/// sunk transport before their landing was fought go down with it
/// (FORMAT.md; DAAK 4.3(c)).
/// Whether battle `i` is still at its AA fire, before the first round's
/// other dice (when paratroopers have not yet dropped).
fn round_one_aa(ctx: &Ctx<'_>, i: usize) -> bool {
    let b = &ctx.s.battles[i];
    b.round <= 1 && matches!(b.stage, Stage::AaFire)
}

pub(crate) fn destroy(ctx: &mut Ctx<'_>, i: usize, ids: &[UnitId]) {
    if ids.is_empty() {
        return;
    }
    let at = ctx.s.battles[i].at;
    let mut doomed: Vec<UnitId> = ids.to_vec();
    for u in &ctx.s.units {
        if let Some(t) = u.landed_from {
            let landing_pending = ctx.s.battles.iter().any(|b| b.at == u.at && b.result == BattleResult::Pending);
            // A paratrooper dies with its bomber, shot down before the drop
            // (AA50 errata p. 12).
            let dropped_from = ctx.s.unit(t).is_some_and(|c| ctx.rs.stats(c.kind).is_air() && c.at == at && round_one_aa(ctx, i));
            if ids.contains(&t) && (landing_pending || dropped_from) {
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
        .filter(|u| u.carried_by.is_some_and(|c| doomed.contains(&c)) && ctx.rs.stats(u.kind).is_air())
        // Alternative ships: planes aboard fight on either side (ALT L40).
        .filter(|u| rel.enemies(attacker, u.owner) || aircraft_fight_aboard(ctx, u))
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

/// Whether `u` rides a carrier whose aircraft fight on either side (the
/// Alternative rules' ships, `CargoFights::Aircraft`).
fn aircraft_fight_aboard(ctx: &Ctx<'_>, u: &crate::state::Unit) -> bool {
    u.carried_by
        .and_then(|c| ctx.s.unit(c))
        .and_then(|c| ctx.rs.stats(c.kind).cargo.as_ref())
        .is_some_and(|k| k.fights == crate::ruleset::CargoFights::Aircraft)
}
