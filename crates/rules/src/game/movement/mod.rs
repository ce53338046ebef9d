//! Movement in combat and non-combat move: the checks every move shares
//! and the dispatch by domain to land units (`land.rs`: walking, blitzing,
//! boarding and landing), ships (`sea.rs`: canals, enemy fleets, cargo) and
//! aircraft (`flight.rs`: neutral overflight, AA fire on the way, a landing
//! left to reach).

mod flight;
mod free;
mod land;
mod sea;

use super::Ctx;
use crate::action::{reject, reject_with, Event, RuleError};
use crate::ids::{Domain, PowerId, SpaceId, UnitId};
use crate::state::Phase;

/// "1 space", "2 spaces", "no spaces".
pub(super) fn spaces(n: u8) -> String {
    match n {
        0 => "no spaces".into(),
        1 => "1 space".into(),
        n => format!("{n} spaces"),
    }
}

/// A land unit or ship asked to go further than its movement: how far it
/// moves a turn and how far it has left, named for every language.
pub(super) fn too_far(kind: crate::ids::UnitType, movement: u8, moved: u8) -> RuleError {
    let left = movement.saturating_sub(moved);
    RuleError::new("move/too-far", format!("{} moves {} a turn; this one has {} left", kind.with_article(), spaces(movement), spaces(left)))
        .with("unit", kind.name())
        .with("movement", movement)
        .with("left", left)
}

/// Neutral countries cost this much to take (DAAK 2.7(a)).
const NEUTRAL_FEE: i32 = 3;

impl Ctx<'_> {
    pub fn move_units(
        &mut self,
        units: &[UnitId],
        route: &[SpaceId],
        transport: Option<UnitId>,
        bombing: bool,
    ) -> Result<(), RuleError> {
        let p = self.s.turn;
        let combat = match self.s.phase {
            Phase::CombatMove => true,
            Phase::NoncombatMove => false,
            other => return reject("move/wrong-phase", format!("units move in combat or non-combat move, not in {}", other.name())),
        };
        if units.is_empty() {
            return reject("move/no-units", "name at least one unit to move");
        }
        if combat && self.rs.options.russia_first_turn_restricted && self.s.round == 1 && p.0 == 0 {
            return reject_with(
                "move/first-turn-restricted",
                format!("{} makes no combat moves in round 1 (option russia_first_turn_restricted)", self.power_name(p)),
                &[("power", self.power_name(p))],
            );
        }
        if route.len() < 2 {
            return reject("move/short-route", "a route names where the units start and at least one space more");
        }
        if route.len() == 2 && route[0] == route[1] && self.rs.map.is_sea(route[0]) {
            return reject(
                "move/transfer-between-transports",
                "troops may not switch directly from one transport to another (DAAK 3.2(g))",
            );
        }
        for w in route.windows(2) {
            if !self.rs.map.adjacent(w[0], w[1]) {
                let (a, b) = (self.name(w[0]), self.name(w[1]));
                return reject_with("move/not-adjacent", format!("{a} and {b} do not border each other"), &[("from", a), ("to", b)]);
            }
        }
        if self.rs.options.neutrals_impassable {
            if let Some(t) = route[1..].iter().find(|t| self.rel().neutral(**t)) {
                let at = self.name(*t);
                return reject_with(
                    "move/neutral-impassable",
                    format!("{at} is neutral: no unit may enter or fly over it (neutrals are impassable)"),
                    &[("at", at)],
                );
            }
        }
        // China's units never leave the Chinese territories; the Flying
        // Tigers not even for a moment (AA50 FAQ: China).
        if self.rel().is_china(p) {
            let inside = |t: &SpaceId| self.rs.options.china_territories.iter().any(|n| n == self.name(*t));
            if let Some(t) = route[1..].iter().find(|t| !inside(t)) {
                let at = self.name(*t);
                return reject_with(
                    "move/china-confined",
                    format!("Chinese units never leave China: {at} is outside it (AA50 FAQ: China)"),
                    &[("at", at)],
                );
            }
        }
        let mut seen = Vec::new();
        for &id in units {
            if seen.contains(&id) {
                return reject("move/duplicate-unit", "a unit is named twice");
            }
            seen.push(id);
            let Some(u) = self.s.unit(id) else {
                return reject("move/unknown-unit", "no such unit");
            };
            if u.owner != p {
                let power = self.power_name(p);
                return reject_with("move/not-yours", format!("only {power}'s own units move on its turn"), &[("power", power)]);
            }
            if u.at != route[0] {
                let at = self.name(route[0]);
                return reject_with(
                    "move/not-at-start",
                    format!("a {} named is not at {at}", u.kind),
                    &[("unit", u.kind.name()), ("at", at)],
                );
            }
        }
        let domains: Vec<Domain> = units.iter().map(|id| self.rs.stats(self.s.unit(*id).unwrap().kind).domain).collect();
        let of = |d: Domain| -> Vec<UnitId> { units.iter().zip(&domains).filter(|(_, x)| **x == d).map(|(u, _)| *u).collect() };
        let (land, sea, air) = (of(Domain::Land), of(Domain::Sea), of(Domain::Air));
        if !land.is_empty() && !sea.is_empty() {
            return reject("move/mixed", "land units move apart from ships: transports carry them, and move on their own");
        }
        // Infantry flown by bombers beyond a walk: paratroopers. Otherwise
        // land units and aircraft named together each make their own move.
        let kind = |id: &UnitId| self.s.unit(*id).unwrap().kind;
        // Next door, infantry could walk: there the pair is paratroopers when
        // every infantry has its bomber (AA50 FAQ: Weapons Development, Q2:
        // a bomber carrying infantry into a territory blitzed this phase).
        if !land.is_empty()
            && !air.is_empty()
            && (route.len() > 2 || land.len() <= air.len())
            && self.s.has_development(p, crate::state::Development::Paratroopers)
            && land.iter().all(|id| kind(id) == crate::ids::UnitType::Infantry)
            && air.iter().all(|id| self.stats(kind(id)).strategic_bomber)
        {
            return self.paratroopers(p, &land, &air, route, combat);
        }
        if bombing && (land.len() + sea.len() > 0 || !combat) {
            return reject("move/bombing", "only bombers go on strategic bombing raids, in combat move");
        }
        // The move is told first; what it causes (captures, AA fire, fees)
        // follows it.
        let first_event = self.events.len();
        if !land.is_empty() {
            self.move_land(p, &land, route, transport, combat)?;
        }
        if !sea.is_empty() {
            self.move_sea(p, &sea, route, combat)?;
            self.convoys_passed(p, &sea, route);
        }
        if !air.is_empty() {
            self.move_air(p, &air, route, combat, bombing, false)?;
        }
        self.events.insert(first_event, Event::Moved { units: units.to_vec(), route: route.to_vec() });
        Ok(())
    }

    /// Paratroopers (AA50 errata p. 12; FORMAT.md v2): in combat move each
    /// bomber carries one infantry that started with it; it stops in the
    /// first hostile territory it enters (a territory blitzed in the same
    /// phase still counts as hostile, AA50 FAQ: Weapons Development), and
    /// the infantry drops after AA fire, dying with its bomber. Never in
    /// non-combat move (AA50 FAQ: Weapons Development).
    fn paratroopers(&mut self, p: PowerId, land: &[UnitId], air: &[UnitId], route: &[SpaceId], combat: bool) -> Result<(), RuleError> {
        let kind = |id: &UnitId| self.s.unit(*id).unwrap().kind;
        if !combat {
            return reject("move/paratroopers-noncombat", "bombers carry infantry only in combat move (AA50 FAQ: Weapons Development)");
        }
        let bombers = air.iter().filter(|id| self.stats(kind(id)).strategic_bomber).count();
        if land.iter().any(|id| kind(id) != crate::ids::UnitType::Infantry) || air.len() != bombers || land.len() > bombers {
            return reject("move/paratroopers", "each bomber carries at most one infantry, and only bombers carry (AA50 errata p. 12)");
        }
        // "Both units must begin their movement in the same territory": a
        // bomber already under way picks nobody up.
        if air.iter().any(|id| self.s.unit(*id).unwrap().moved > 0) || land.iter().any(|id| self.s.unit(*id).unwrap().moved > 0) {
            return reject("move/paratroopers-start", "a bomber and the infantry it carries begin their movement together in the same territory (AA50 errata p. 12)");
        }
        let dest = *route.last().unwrap();
        // Hostile as the phase began: all combat movement is simultaneous.
        let hostile = |t: &SpaceId| {
            self.rs.map.is_land(*t) && self.s.start_control[t.index()].is_some_and(|q| self.rel().enemies(p, q))
        };
        if let Some(t) = route[1..route.len() - 1].iter().find(|t| hostile(t)) {
            let at = self.name(*t);
            return reject_with(
                "move/paratroopers-stop",
                format!("a bomber carrying infantry stops in the first hostile territory it enters: {at} (AA50 errata p. 12)"),
                &[("at", at)],
            );
        }
        if !hostile(&dest) {
            let at = self.name(dest);
            return reject_with(
                "move/paratroopers-target",
                format!("paratroopers drop into a hostile territory, and {at} is not one"),
                &[("at", at)],
            );
        }
        for id in land {
            self.check_may_move(*id, combat)?;
        }
        let first_event = self.events.len();
        self.move_air(p, air, route, combat, false, true)?;
        let mut carriers: Vec<UnitId> = air.to_vec();
        for id in land {
            let bomber = carriers.remove(0);
            let u = self.s.unit_mut(*id).unwrap();
            u.at = dest;
            u.moved = u.moved.saturating_add(1);
            u.flags.moved_in_combat = true;
            u.landed_from = Some(bomber);
        }
        // The drop ends the bomber's combat movement (AA50 errata p. 12).
        for id in air {
            self.s.unit_mut(*id).unwrap().flags.dropped = true;
        }
        let rel = self.rel();
        let undefended = rel.enemy_defenders(p, dest).next().is_none() && !self.s.battles.iter().any(|b| b.at == dest && !b.result.is_over());
        if undefended && rel.enemy_units(p, dest).next().is_some() {
            // Only an AA gun or a complex: its battle comes first.
            self.declare_battle(dest, &route[route.len() - 1..], false);
        } else if undefended && rel.enemy_land(p, dest) {
            // An empty hostile territory: the drop takes it, like a walk in
            // (AA50 FAQ: Weapons Development, Q2; FORMAT.md: an undefended
            // territory changes hands when a capturing unit enters it). One
            // blitzed earlier in this combat move is taken already.
            self.take_territory(dest, p);
        }
        let units: Vec<UnitId> = land.iter().chain(air).copied().collect();
        self.events.insert(first_event, Event::Moved { units, route: route.to_vec() });
        Ok(())
    }

    /// Checks shared by every unit that is about to move.
    pub(super) fn check_may_move(&self, id: UnitId, combat: bool) -> Result<(), RuleError> {
        let u = self.s.unit(id).unwrap();
        let st = self.stats(u.kind);
        if st.movement == 0 {
            return reject_with("move/immobile", format!("a {} cannot move", u.kind), &[("unit", u.kind.name())]);
        }
        if u.flags.dropped {
            return reject_with(
                "move/after-drop",
                format!("the {} dropped paratroopers this turn: that ends its combat movement (AA50 errata p. 12)", u.kind),
                &[("unit", u.kind.name())],
            );
        }
        if u.flags.captured {
            return reject("move/captured-aa", "an AA gun captured this turn may not move (DAAK 4.4(b))");
        }
        if u.flags.unloaded {
            return reject_with(
                "move/after-unloading",
                format!("the {} landed from a transport this turn and moves no more (DAAK 3.2(b))", u.kind),
                &[("unit", u.kind.name())],
            );
        }
        // A unit that moved into a space where it must fight stops there,
        // however the route is split into moves (DAAK 4.1; AA50 rules,
        // Combat Move: "units moving into a hostile space must stop"); its
        // cargo may still land, as an amphibious assault from a zone with
        // a sea battle does (DAAK 4.3(c)). A paratroopers' bomber stops
        // with its drop (AA50 errata p. 12).
        if combat && u.flags.moved_in_combat && u.carried_by.is_none() {
            if let Some(b) = self.s.battles.iter().find(|b| b.at == u.at && b.attacker == u.owner && !b.result.is_over()) {
                let what = if b.kind == crate::battle::BattleKind::Bombing { "a strategic bombing raid" } else { "a battle" };
                return reject_with(
                    "move/stopped-in-battle",
                    format!("the {} moved into {what} in {} this turn and stops there until it is fought", u.kind, self.name(u.at)),
                    &[("unit", u.kind.name()), ("at", self.name(u.at))],
                );
            }
        }
        if !combat && !st.is_air() && (u.flags.moved_in_combat || u.flags.fought) {
            return reject_with(
                "move/moved-in-combat",
                format!("the {} moved or fought in combat this turn; only aircraft move again in non-combat move", u.kind),
                &[("unit", u.kind.name())],
            );
        }
        Ok(())
    }

    /// At most one AA gun per territory at any time (DAAK 3.1(b)).
    pub(super) fn check_aa_room(&self, units: &[UnitId], dest: SpaceId) -> Result<(), RuleError> {
        let is_aa = |id: &UnitId| self.s.unit(*id).is_some_and(|u| self.stats(u.kind).anti_aircraft > 0);
        let moving = units.iter().filter(|id| is_aa(id)).count();
        if moving == 0 {
            return Ok(());
        }
        let there = self.s.units_at(dest).filter(|u| self.stats(u.kind).anti_aircraft > 0 && !units.contains(&u.id)).count();
        if moving + there > 1 && self.rs.options.one_aa_gun_per_territory {
            let at = self.name(dest);
            return reject_with("move/one-aa-gun", format!("{at} may hold only one AA gun (DAAK 3.1(b))"), &[("at", at)]);
        }
        Ok(())
    }

    pub(super) fn pay_neutral_fee(&mut self, p: PowerId, t: SpaceId) -> Result<(), RuleError> {
        if self.s.ipcs[p.index()] < NEUTRAL_FEE {
            let (at, power, ipcs) = (self.name(t), self.power_name(p), self.s.ipcs[p.index()]);
            return reject_with(
                "move/neutral-fee",
                format!("taking {at} costs {NEUTRAL_FEE} IPCs from what is left after purchases, and {power} has {ipcs} (DAAK 2.7(a))"),
                &[("at", at), ("cost", &NEUTRAL_FEE.to_string()), ("power", power), ("ipcs", &ipcs.to_string())],
            );
        }
        self.s.ipcs[p.index()] -= NEUTRAL_FEE;
        self.s.neutral_fees += NEUTRAL_FEE;
        self.take_territory(t, p);
        self.events.push(Event::NeutralTaken { at: t, by: p, fee: NEUTRAL_FEE });
        Ok(())
    }
}
