//! Strategic bombing raids with escorts and interceptors (knob
//! `raid_escorts`, Europe's base rules): AA fire at every raiding aircraft,
//! escorts included (EUROPE FAQ: Strategic Bombing Raids: "The same applies
//! to fighters escorting the bombers"); aircraft it shoots down never fire;
//! then, if fighters intercept, one round of air combat (escorts against
//! interceptors, bombers do not fire; each side chooses its own losses);
//! then the surviving bombers bomb (`round_one.rs`, `bombing_raid`).

use super::casualties::{attackers, defenders};
use super::fire::pend;
use super::{BattleKind, BattleSide, HitGroup, Removal, Targets};
use crate::action::{reject, Event, RuleError};
use crate::game::Ctx;
use crate::ids::{SpaceId, UnitId};
use crate::ruleset::RaidAirCombat;

/// One side's dice in a raid's air combat: the attacker's escorts, or the
/// defender's interceptors. Nothing happens where nobody intercepts.
pub(crate) fn air_combat_fire(ctx: &mut Ctx<'_>, i: usize, side: BattleSide) -> Result<(), RuleError> {
    let b = ctx.s.battles[i].clone();
    let interceptors = defenders(ctx.rs, ctx.s, &b);
    if interceptors.is_empty() {
        return Ok(());
    }
    let firing: Vec<UnitId> = match side {
        BattleSide::Attacker => attackers(ctx.rs, ctx.s, &b).into_iter().filter(|id| !ctx.rs.stats(ctx.s.unit(*id).unwrap().kind).strategic_bomber).collect(),
        BattleSide::Defender => interceptors,
    };
    let values: Vec<u8> = firing
        .iter()
        .map(|id| {
            let u = ctx.s.unit(*id).unwrap();
            let st = ctx.rs.stats(u.kind);
            // AA50 FAQ: Additional Optional Rules: escorts attack at 1, "2 if
            // the attacker has the Jet Power research breakthrough".
            let jets = ctx.rs.options.research_charts == crate::ruleset::ResearchCharts::Anniversary
                && ctx.s.has_development(u.owner, crate::state::Development::JetFighters);
            match (ctx.rs.options.raid_air_combat, side) {
                (RaidAirCombat::OneAndTwo, BattleSide::Attacker) => 1 + jets as u8,
                (RaidAirCombat::OneAndTwo, BattleSide::Defender) => 2,
                (RaidAirCombat::AttackAndDefense, BattleSide::Attacker) => st.attack,
                (RaidAirCombat::AttackAndDefense, BattleSide::Defender) => st.defense,
            }
        })
        .collect();
    // One group (under Low Luck: docs/low-luck.md).
    let mut dice = Vec::new();
    let hits = ctx.roll_group(&values, &mut dice)?;
    if !firing.is_empty() {
        let who = if side == BattleSide::Attacker { "escorts" } else { "interceptors" };
        ctx.events.push(Event::Rolled { purpose: format!("{who} at {}", ctx.name(b.at)), dice, hits, by: Vec::new() });
    }
    // Interceptors hit by escorts still fire; the raiders the interceptors
    // hit are gone before the bombs fall.
    let removal = if side == BattleSide::Attacker { Removal::EndOfRound } else { Removal::Now };
    pend(ctx, i, side.other(), &[HitGroup { targets: Targets::ANY, hits }], removal);
    Ok(())
}

/// The raids of the current combat phase whose defenders may still name
/// interceptors, with each defending power that has fighters there: where
/// the ruleset has interceptors, before any battle or raid of the phase is
/// fought (the moment the `intercept` action is accepted).
pub fn raids_open_to_interceptors(rs: &crate::ruleset::Ruleset, s: &crate::state::GameState) -> Vec<(SpaceId, crate::ids::PowerId)> {
    if !rs.options.raid_escorts || s.phase != crate::state::Phase::Combat || s.battles.iter().any(|b| b.result != super::BattleResult::Pending) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for b in s.battles.iter().filter(|b| b.kind == BattleKind::Bombing) {
        for u in s.units.iter().filter(|u| u.at == b.at && !s.allied(u.owner, s.turn)) {
            let st = rs.stats(u.kind);
            if st.is_air() && !st.strategic_bomber && !out.contains(&(b.at, u.owner)) {
                out.push((b.at, u.owner));
            }
        }
    }
    out
}

impl Ctx<'_> {
    /// The defender's interceptors whose territory fell move one space to a
    /// friendly territory or a friendly carrier with room, once all of the
    /// attacker's battles are fought and before its non-combat move (AA50
    /// FAQ: Additional Optional Rules); those left are lost when the combat
    /// phase ends.
    pub(crate) fn relocate_interceptors(&mut self, units: &[UnitId], route: &[SpaceId]) -> Result<(), RuleError> {
        let p = self.by;
        if self.s.phase != crate::state::Phase::Combat {
            return reject("move/not-your-turn", "only the power whose turn it is moves now");
        }
        if self.s.battles.iter().any(|b| !b.result.is_over()) {
            return reject("intercept/relocate-early", "interceptors move out once all of the attacker's battles are fought");
        }
        if route.len() != 2 || !self.rs.map.adjacent(route[0], route[1]) {
            return reject("intercept/relocate-one-space", "interceptors of a captured territory move one space, no more");
        }
        let (from, to) = (route[0], route[1]);
        if units.is_empty() || units.iter().any(|id| self.s.unit(*id).is_none_or(|u| u.owner != p || u.at != from || !u.flags.intercepting)) {
            return reject("intercept/relocate-who", format!("only {}'s interceptors at {} move now", self.power_name(p), self.name(from)));
        }
        if !self.rel().enemy_land(p, from) {
            return reject("intercept/relocate-not-captured", format!("{} was not captured: its interceptors land there", self.name(from)));
        }
        let room = if self.rs.map.is_sea(to) {
            let need: i32 = units.iter().map(|id| self.rs.stats(self.s.unit(*id).unwrap().kind).carrier_cost() as i32).sum();
            self.carrier_room(p, to, units) >= need
        } else {
            self.rel().friendly_land(p, to) && !self.s.conquered[to.index()]
        };
        if !room {
            return reject("intercept/relocate-landing", format!("{} is no friendly territory or carrier with room", self.name(to)));
        }
        for id in units {
            let u = self.s.unit_mut(*id).unwrap();
            u.at = to;
            u.moved = u.moved.saturating_add(1);
        }
        self.events.push(Event::Moved { units: units.to_vec(), route: route.to_vec() });
        Ok(())
    }

    /// The defender names the fighters at `at`, already there, that
    /// intercept the raid declared there this turn ("Just the ones already
    /// there", EUROPE FAQ: Strategic Bombing Raids); legal in the attacker's
    /// combat phase before any of its battles or raids has been fought.
    pub(crate) fn intercept(&mut self, at: SpaceId, units: &[UnitId]) -> Result<(), RuleError> {
        let rs = self.rs;
        let by = self.by;
        if !rs.options.raid_escorts {
            return reject("intercept/not-allowed", "fighters do not intercept raids in this ruleset");
        }
        if self.s.phase != crate::state::Phase::Combat || self.s.battles.iter().any(|b| b.result != super::BattleResult::Pending) {
            return reject("intercept/not-now", "interceptors are named in the attacker's combat phase, before any battle or raid is fought");
        }
        if !self.s.battles.iter().any(|b| b.at == at && b.kind == BattleKind::Bombing) {
            return reject("intercept/no-raid", format!("no raid was declared at {} this turn", self.name(at)));
        }
        if units.is_empty() {
            return reject("intercept/no-units", "name the fighters that intercept");
        }
        for (n, id) in units.iter().enumerate() {
            let ok = self.s.unit(*id).is_some_and(|u| {
                let st = rs.stats(u.kind);
                u.at == at && u.owner == by && !self.s.allied(by, self.s.turn) && st.is_air() && !st.strategic_bomber && !u.flags.intercepting
            });
            if !ok || units[..n].contains(id) {
                return reject("intercept/which", format!("only the defender's own fighters already at {} intercept, each once", self.name(at)));
            }
        }
        for id in units {
            self.s.unit_mut(*id).unwrap().flags.intercepting = true;
        }
        Ok(())
    }
}
