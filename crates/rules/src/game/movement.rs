//! Movement in combat and non-combat move: land units (walking, blitzing,
//! boarding and landing), ships (canals, enemy fleets, cargo), aircraft
//! (neutral overflight, AA fire on the way, a landing left to reach).

use super::Ctx;
use crate::action::{reject, Event, RuleError};
use crate::ids::{Domain, PowerId, SpaceId, UnitId};
use crate::state::Phase;

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
            return reject(
                "move/first-turn-restricted",
                format!("{} makes no combat moves in round 1 (option russia_first_turn_restricted)", self.power_name(p)),
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
                return reject("move/not-adjacent", format!("{} and {} do not border each other", self.name(w[0]), self.name(w[1])));
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
                return reject("move/not-yours", format!("only {}'s own units move on its turn", self.power_name(p)));
            }
            if u.at != route[0] {
                return reject("move/not-at-start", format!("a {} named is not at {}", u.kind, self.name(route[0])));
            }
        }
        let domains: Vec<Domain> = units.iter().map(|id| self.rs.stats(self.s.unit(*id).unwrap().kind).domain).collect();
        let of = |d: Domain| -> Vec<UnitId> { units.iter().zip(&domains).filter(|(_, x)| **x == d).map(|(u, _)| *u).collect() };
        let (land, sea, air) = (of(Domain::Land), of(Domain::Sea), of(Domain::Air));
        if !land.is_empty() && !sea.is_empty() {
            return reject("move/mixed", "land units move apart from ships: transports carry them, and move on their own");
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
        }
        if !air.is_empty() {
            self.move_air(p, &air, route, combat, bombing)?;
        }
        self.events.insert(first_event, Event::Moved { units: units.to_vec(), route: route.to_vec() });
        Ok(())
    }

    /// Checks shared by every unit that is about to move.
    fn check_may_move(&self, id: UnitId, combat: bool) -> Result<(), RuleError> {
        let u = self.s.unit(id).unwrap();
        let st = self.stats(u.kind);
        if st.movement == 0 {
            return reject("move/immobile", format!("a {} cannot move", u.kind));
        }
        if u.flags.captured {
            return reject("move/captured-aa", "an AA gun captured this turn may not move (DAAK 4.4(b))");
        }
        if u.flags.unloaded {
            return reject("move/after-unloading", format!("the {} landed from a transport this turn and moves no more (DAAK 3.2(b))", u.kind));
        }
        if !combat && !st.is_air() && (u.flags.moved_in_combat || u.flags.fought) {
            return reject(
                "move/moved-in-combat",
                format!("the {} moved or fought in combat this turn; only aircraft move again in non-combat move", u.kind),
            );
        }
        Ok(())
    }

    /// At most one AA gun per territory at any time (DAAK 3.1(b)).
    fn check_aa_room(&self, units: &[UnitId], dest: SpaceId) -> Result<(), RuleError> {
        let is_aa = |id: &UnitId| self.s.unit(*id).is_some_and(|u| self.stats(u.kind).anti_aircraft > 0);
        let moving = units.iter().filter(|id| is_aa(id)).count();
        let there = self.s.units_at(dest).filter(|u| self.stats(u.kind).anti_aircraft > 0 && !units.contains(&u.id)).count();
        if moving > 0 && moving + there > 1 {
            return reject("move/one-aa-gun", format!("{} may hold only one AA gun (DAAK 3.1(b))", self.name(dest)));
        }
        Ok(())
    }

    fn pay_neutral_fee(&mut self, p: PowerId, t: SpaceId) -> Result<(), RuleError> {
        if self.s.ipcs[p.index()] < NEUTRAL_FEE {
            return reject(
                "move/neutral-fee",
                format!(
                    "taking {} costs {NEUTRAL_FEE} IPCs from what is left after purchases, and {} has {} (DAAK 2.7(a))",
                    self.name(t),
                    self.power_name(p),
                    self.s.ipcs[p.index()]
                ),
            );
        }
        self.s.ipcs[p.index()] -= NEUTRAL_FEE;
        self.s.neutral_fees += NEUTRAL_FEE;
        self.take_territory(t, p);
        self.events.push(Event::NeutralTaken { at: t, by: p, fee: NEUTRAL_FEE });
        Ok(())
    }

    // ----- land units -----

    fn move_land(&mut self, p: PowerId, units: &[UnitId], route: &[SpaceId], transport: Option<UnitId>, combat: bool) -> Result<(), RuleError> {
        let map = &self.rs.map;
        let starts_at_sea = map.is_sea(route[0]);
        let sea_steps: Vec<usize> = (0..route.len()).filter(|i| map.is_sea(route[*i])).collect();
        for &id in units {
            self.check_may_move(id, combat)?;
        }
        if starts_at_sea {
            if route.len() != 2 || map.is_sea(route[1]) {
                return reject("move/cargo-route", "cargo moves with its transport; landing is one step from the sea zone onto a shore");
            }
            return self.unload(p, units, route[0], route[1], combat);
        }
        match sea_steps.as_slice() {
            [] => self.walk(p, units, route, combat),
            [1] if route.len() <= 3 => {
                for &id in units {
                    let u = self.s.unit(id).unwrap();
                    if u.moved > 0 || u.flags.boarded || u.flags.moved_in_combat {
                        return reject("move/before-loading", format!("the {} has moved this turn and may not board a transport (DAAK 3.2(b))", u.kind));
                    }
                }
                let sea = route[1];
                let landing = route.get(2).copied();
                if combat && self.rel().enemy_units(p, sea).next().is_some() {
                    let assault = landing.is_some_and(|l| self.rel().enemy_land(p, l) || self.rel().neutral(l));
                    if !assault {
                        return reject(
                            "move/board-in-battle-zone",
                            format!("in combat move, troops board a transport in a sea zone with a battle ({}) only for an amphibious assault (DAAK 3.2(c))", self.name(sea)),
                        );
                    }
                }
                self.board(p, units, sea, transport)?;
                if let Some(l) = landing {
                    self.unload(p, units, sea, l, combat)?;
                }
                Ok(())
            }
            _ => reject("move/land-at-sea", "land units cross the sea only aboard a transport, which moves on its own"),
        }
    }

    fn walk(&mut self, p: PowerId, units: &[UnitId], route: &[SpaceId], combat: bool) -> Result<(), RuleError> {
        let steps = (route.len() - 1) as u8;
        let dest = *route.last().unwrap();
        let mut blitzed = Vec::new();
        for &id in units {
            let u = self.s.unit(id).unwrap().clone();
            let st = self.stats(u.kind).clone();
            if u.flags.boarded {
                return reject("move/after-boarding", format!("the {} boarded a transport this turn: that is its move (DAAK 3.2(b))", u.kind));
            }
            if u.moved + steps > st.movement {
                return reject("move/too-far", format!("a {} moves {} space(s) a turn and has {} left", u.kind, st.movement, st.movement - u.moved.min(st.movement)));
            }
            if combat && st.anti_aircraft > 0 {
                return reject("move/aa-cannot-attack", "AA guns do not attack and cannot take territory (DAAK 3.1(f)); move them in non-combat move");
            }
            for &t in &route[1..route.len() - 1] {
                let rel = self.rel();
                if rel.friendly_land(p, t) && rel.enemy_defenders(p, t).next().is_none() {
                    continue;
                }
                if rel.neutral(t) {
                    return reject("move/through-neutral", format!("{} is neutral: land units stop there, and armor may not blitz through a neutral country (DAAK 2.7(b), 3.6(c))", self.name(t)));
                }
                if rel.enemy_defenders(p, t).next().is_some() {
                    return reject("move/through-enemy", format!("enemy units in {} stop land movement", self.name(t)));
                }
                // Enemy-controlled and empty of defenders (AA guns and factories
                // do not count, DAAK 3.6(b)): a blitz, in combat move only.
                if !combat {
                    return reject("move/blitz-noncombat", format!("{} is enemy territory: it can be entered only in combat move; a blitz is declared and finished in combat move (DAAK 3.6(a))", self.name(t)));
                }
                if !st.blitz {
                    return reject("move/no-blitz", format!("only armor may blitz through {}", self.name(t)));
                }
                if !blitzed.contains(&t) {
                    blitzed.push(t);
                }
            }
        }
        self.check_aa_room(units, dest)?;
        let rel = self.rel();
        let dest_neutral = rel.neutral(dest);
        let dest_enemy = rel.enemy_land(p, dest);
        let dest_defended = rel.enemy_defenders(p, dest).next().is_some();
        if combat {
            if !dest_neutral && !dest_enemy && blitzed.is_empty() {
                return reject("move/combat-needs-target", format!("{} is friendly: moves that attack nothing belong to the non-combat move", self.name(dest)));
            }
        } else if dest_neutral || dest_enemy {
            return reject("move/enemy-in-noncombat", format!("{} is not friendly: it can be entered only in combat move", self.name(dest)));
        }
        // Carry out: blitzed territories change hands as the armor passes.
        for t in blitzed {
            self.take_territory(t, p);
        }
        for &id in units {
            let u = self.s.unit_mut(id).unwrap();
            u.at = dest;
            u.moved += steps;
            if combat {
                u.flags.moved_in_combat = true;
            }
        }
        if combat {
            if dest_neutral {
                self.pay_neutral_fee(p, dest)?;
            } else if dest_enemy && !dest_defended {
                self.take_territory(dest, p);
            } else if dest_defended {
                self.declare_battle(dest, route, false);
            }
        }
        Ok(())
    }

    fn board(&mut self, p: PowerId, units: &[UnitId], sea: SpaceId, chosen: Option<UnitId>) -> Result<(), RuleError> {
        for &id in units {
            let u = self.s.unit(id).unwrap().clone();
            let cost = self.stats(u.kind).transport_cost;
            if cost == 0 {
                return reject("move/not-transportable", format!("a {} cannot be carried by a transport", u.kind));
            }
            let rel = self.rel();
            let fits = |t: &crate::state::Unit| {
                self.stats(t.kind).transport_capacity > 0
                    && t.at == sea
                    && self.rs.allied(p, t.owner)
                    && !t.flags.transport_unloaded
                    && rel.transport_room(t.id) >= cost
                    && self.s.cargo_of(t.id).all(|c| c.owner == u.owner)
            };
            let tr = match chosen {
                Some(t) => {
                    let Some(tu) = self.s.unit(t) else { return reject("move/unknown-transport", "no such transport") };
                    if !fits(tu) {
                        return reject("move/transport-unusable", self.why_transport_unusable(tu, &u, sea));
                    }
                    t
                }
                None => {
                    // Prefer own transports, then ones already carrying this nation's troops.
                    let mut cands: Vec<&crate::state::Unit> = self.s.units.iter().filter(|t| fits(t)).collect();
                    cands.sort_by_key(|t| (t.owner != p, self.s.cargo_of(t.id).next().is_none(), t.id));
                    match cands.first() {
                        Some(t) => t.id,
                        None => {
                            let any = self.s.units.iter().find(|t| t.at == sea && self.stats(t.kind).transport_capacity > 0 && self.rs.allied(p, t.owner));
                            let why = match any {
                                Some(t) => self.why_transport_unusable(t, &u, sea),
                                None => format!("there is no friendly transport in {} to board", self.name(sea)),
                            };
                            return reject("move/no-transport", why);
                        }
                    }
                }
            };
            let combat = self.s.phase == Phase::CombatMove;
            let u = self.s.unit_mut(id).unwrap();
            u.at = sea;
            u.carried_by = Some(tr);
            u.flags.boarded = true;
            u.flags.shuttled = false;
            if combat {
                u.flags.moved_in_combat = true;
            }
        }
        Ok(())
    }

    fn why_transport_unusable(&self, t: &crate::state::Unit, u: &crate::state::Unit, sea: SpaceId) -> String {
        if self.stats(t.kind).transport_capacity == 0 {
            return format!("that unit is a {}, not a transport", t.kind);
        }
        if t.at != sea {
            return format!("that transport is not in {}", self.name(sea));
        }
        if !self.rs.allied(u.owner, t.owner) {
            return "that transport belongs to the enemy".into();
        }
        if t.flags.transport_unloaded {
            return "the transport unloaded this turn: no unit may board it (DAAK 3.2(d))".into();
        }
        if self.s.cargo_of(t.id).any(|c| c.owner != u.owner) {
            return "one transport may not carry units of two nations (DAAK 3.3(d))".into();
        }
        "the transport has no room: it carries one armor, or two infantry, or one AA gun (DAAK 3.2(a))".into()
    }

    fn unload(&mut self, p: PowerId, units: &[UnitId], sea: SpaceId, shore: SpaceId, combat: bool) -> Result<(), RuleError> {
        let mut transports: Vec<UnitId> = Vec::new();
        for &id in units {
            let u = self.s.unit(id).unwrap();
            let Some(t) = u.carried_by else {
                return reject("move/not-cargo", format!("the {} is not aboard a transport", u.kind));
            };
            let tr = self.s.unit(t).unwrap();
            if tr.flags.fought {
                return reject(
                    "move/cargo-after-sea-battle",
                    "troops aboard a transport that fought a sea battle stay aboard until their owner's next turn (DAAK 3.2(f))",
                );
            }
            if tr.owner != p && !u.flags.shuttled {
                return reject(
                    "move/not-yet-shuttled",
                    format!("troops aboard {}'s transport land only after it has carried them on its own turn (DAAK 3.3(b))", self.power_name(tr.owner)),
                );
            }
            if !transports.contains(&t) {
                transports.push(t);
            }
        }
        for &t in &transports {
            let tr = self.s.unit(t).unwrap();
            let all_cargo = self.s.cargo_of(t).all(|c| units.contains(&c.id));
            if !all_cargo && combat {
                return reject("move/partial-unload-combat", "in combat move a transport unloads all its cargo into one territory (DAAK 3.2(e))");
            }
            if !all_cargo && tr.owner != p {
                return reject("move/partial-unload-friendly", "troops on a friendly power's transport unload all together (DAAK 3.3(b))");
            }
        }
        self.check_aa_room(units, shore)?;
        let rel = self.rel();
        let hostile = rel.enemy_land(p, shore) || rel.neutral(shore);
        if combat && !hostile {
            return reject("move/combat-needs-target", format!("{} is friendly: unload there in non-combat move", self.name(shore)));
        }
        if !combat && hostile {
            return reject("move/enemy-in-noncombat", format!("{} is not friendly: it can be entered only in combat move", self.name(shore)));
        }
        if combat && self.s.units.iter().any(|u| units.contains(&u.id) && self.stats(u.kind).anti_aircraft > 0) {
            return reject("move/aa-cannot-attack", "AA guns do not attack and cannot take territory (DAAK 3.1(f))");
        }
        let sea_battle = combat && rel.enemy_units(p, sea).next().is_some();
        let defended = rel.enemy_defenders(p, shore).next().is_some();
        let shore_neutral = rel.neutral(shore);
        for &id in units {
            let u = self.s.unit_mut(id).unwrap();
            let t = u.carried_by.take();
            u.at = shore;
            u.flags.unloaded = true;
            u.flags.shuttled = false;
            if combat {
                u.flags.moved_in_combat = true;
                u.landed_from = t;
            }
        }
        for &t in &transports {
            self.s.unit_mut(t).unwrap().flags.transport_unloaded = true;
        }
        if combat {
            if shore_neutral {
                self.pay_neutral_fee(p, shore)?;
            } else if defended || sea_battle {
                self.declare_battle(shore, &[sea, shore], false);
            } else {
                self.take_territory(shore, p);
            }
        }
        Ok(())
    }

    // ----- ships -----

    fn move_sea(&mut self, p: PowerId, units: &[UnitId], route: &[SpaceId], combat: bool) -> Result<(), RuleError> {
        let steps = (route.len() - 1) as u8;
        let dest = *route.last().unwrap();
        for &t in route {
            if !self.rs.map.is_sea(t) {
                return reject("move/ship-on-land", format!("ships stay at sea; {} is land", self.name(t)));
            }
        }
        for w in route.windows(2) {
            if !self.rel().canal_open(p, w[0], w[1]) {
                let c = self.rs.map.canal_between(w[0], w[1]).unwrap();
                let names: Vec<&str> = c.controlled_by.iter().map(|t| self.name(*t)).collect();
                return reject(
                    "move/canal-closed",
                    format!("ships pass the {} only if {} {} friendly at the start of the turn (DAAK 2.3, 2.4)", c.name, names.join(" and "), if names.len() > 1 { "were" } else { "was" }),
                );
            }
        }
        for &t in &route[1..route.len() - 1] {
            if self.rel().has_enemy_ships(p, t) {
                return reject("move/through-enemy-ships", format!("enemy ships in {} stop ships moving through", self.name(t)));
            }
        }
        for &id in units {
            self.check_may_move(id, combat)?;
            let u = self.s.unit(id).unwrap();
            let st = self.stats(u.kind);
            if u.flags.transport_unloaded {
                return reject("move/transport-after-unloading", "a transport never moves after it has unloaded (DAAK 3.2(d))");
            }
            if u.moved + steps > st.movement {
                return reject("move/too-far", format!("a {} moves {} spaces a turn and has {} left", u.kind, st.movement, st.movement.saturating_sub(u.moved)));
            }
        }
        let enemies_there = self.rel().enemy_units(p, dest).next().is_some();
        if !combat && enemies_there {
            return reject("move/enemy-in-noncombat", format!("enemy units hold {}: it can be entered only in combat move", self.name(dest)));
        }
        for &id in units {
            let cargo: Vec<UnitId> = self.s.cargo_of(id).map(|c| c.id).collect();
            let u = self.s.unit_mut(id).unwrap();
            u.at = dest;
            u.moved += steps;
            if combat {
                u.flags.moved_in_combat = true;
            }
            // Cargo goes where its ship goes: troops on a transport, and other
            // powers' fighters on a carrier (DAAK 3.4(c)).
            for c in cargo {
                self.s.unit_mut(c).unwrap().at = dest;
            }
        }
        if combat && enemies_there {
            self.declare_battle(dest, route, true);
        }
        Ok(())
    }

    // ----- aircraft -----

    fn move_air(&mut self, p: PowerId, units: &[UnitId], route: &[SpaceId], combat: bool, bombing: bool) -> Result<(), RuleError> {
        let steps = (route.len() - 1) as u8;
        let dest = *route.last().unwrap();
        for &id in units {
            self.check_may_move(id, combat)?;
            let u = self.s.unit(id).unwrap();
            let range = self.air_range(u.owner, u.kind);
            if u.moved + steps > range {
                return reject("move/too-far", format!("a {} flies {} spaces a turn and has {} left", u.kind, range, range.saturating_sub(u.moved)));
            }
            if bombing && !self.stats(u.kind).strategic_bomber {
                return reject("move/bombing", format!("a {} cannot make a strategic bombing raid", u.kind));
            }
        }
        // Neutral countries on the way: crossed only in combat move, for 3
        // IPCs each, and then taken (DAAK 2.7(a), (c)).
        let mut neutrals: Vec<SpaceId> = Vec::new();
        for &t in &route[1..] {
            if self.rel().neutral(t) && !neutrals.contains(&t) {
                if !combat {
                    return reject("move/neutral-noncombat", format!("aircraft may cross {} (neutral) only in combat move, paying 3 IPCs (DAAK 2.7(c))", self.name(t)));
                }
                neutrals.push(t);
            }
        }
        if self.s.ipcs[p.index()] < NEUTRAL_FEE * neutrals.len() as i32 {
            return reject(
                "move/neutral-fee",
                format!("crossing {} neutral countries costs {} IPCs from what is left after purchases (DAAK 2.7(a))", neutrals.len(), NEUTRAL_FEE * neutrals.len() as i32),
            );
        }
        let rel = self.rel();
        if combat {
            if bombing {
                if !(rel.enemy_land(p, dest) && rel.factory_at(dest).is_some_and(|f| rel.enemies(p, f.owner))) {
                    return reject("move/bombing-target", "a strategic bombing raid goes to an enemy territory with an industrial complex");
                }
            } else {
                let battle_there = rel.enemy_defenders(p, dest).next().is_some() || (self.rs.map.is_sea(dest) && rel.enemy_units(p, dest).next().is_some());
                if !battle_there && neutrals.is_empty() {
                    return reject("move/combat-needs-target", format!("no enemy units are in {}: aircraft attack only where there is a battle", self.name(dest)));
                }
            }
        } else if rel.enemy_land(p, dest) || rel.enemy_units(p, dest).next().is_some() {
            return reject("move/enemy-in-noncombat", format!("{} is held by the enemy: it can be entered only in combat move", self.name(dest)));
        }
        // A landing must stay within reach (no suicide moves; DAAK 3.4(g),
        // 4.4(c)). Judged per aircraft before anything changes.
        for &id in units {
            let u = self.s.unit(id).unwrap();
            let left = self.air_range(u.owner, u.kind) - u.moved - steps;
            if !self.landing_within(p, u.kind, dest, left, units, combat) {
                return reject(
                    "move/no-landing",
                    format!(
                        "the {} would have {} movement left at {} and no landing it can reach: a friendly territory held since the start of the turn{} (DAAK 3.4(g), 4.4(c))",
                        u.kind,
                        left,
                        self.name(dest),
                        if self.stats(u.kind).carrier_cost > 0 { " or a friendly carrier with room that will be there without retreating" } else { "" }
                    ),
                );
            }
        }
        // Carry out: pay for and take neutrals, then AA guns fire at aircraft
        // flying over in combat move (DAAK 3.1(a)).
        for t in neutrals.clone() {
            self.pay_neutral_fee(p, t)?;
        }
        for &id in units {
            let u = self.s.unit_mut(id).unwrap();
            u.at = dest;
            u.moved += steps;
            u.carried_by = None;
            if combat {
                u.flags.moved_in_combat = true;
                u.flags.bombing = bombing;
            }
        }
        if combat {
            let overflown: Vec<SpaceId> = route[1..route.len() - 1].to_vec();
            for t in overflown {
                self.overflight_aa_fire(p, t, units, dest)?;
            }
            let rel = self.rel();
            let battle_there = rel.enemy_defenders(p, dest).next().is_some()
                || (self.rs.map.is_sea(dest) && rel.enemy_units(p, dest).next().is_some());
            if bombing {
                self.declare_bombing(dest, route);
            } else if battle_there {
                self.declare_battle(dest, route, false);
            }
        }
        Ok(())
    }

    /// AA guns fire at aircraft flying over their territory in combat move,
    /// one die each, hitting on 1 (DAAK 3.1(a)); at most one gun per
    /// territory (DAAK 3.1(b)).
    fn overflight_aa_fire(&mut self, p: PowerId, t: SpaceId, units: &[UnitId], dest: SpaceId) -> Result<(), RuleError> {
        let rel = self.rel();
        let Some(aa) = self.s.units.iter().find(|u| u.at == t && self.stats(u.kind).anti_aircraft > 0 && rel.enemies(p, u.owner) && !rel.on_transport(u)) else {
            return Ok(());
        };
        let value = self.stats(aa.kind).anti_aircraft;
        let alive: Vec<UnitId> = units.iter().copied().filter(|id| self.s.unit(*id).is_some_and(|u| u.at == dest)).collect();
        let mut dice = Vec::new();
        let mut lost = Vec::new();
        for id in alive {
            let d = self.roll()?;
            dice.push(d);
            if d <= value {
                lost.push(id);
            }
        }
        self.events.push(Event::Rolled { purpose: format!("AA fire over {}", self.name(t)), dice, hits: lost.len() as u32 });
        if !lost.is_empty() {
            let info = lost.iter().map(|id| {
                let u = self.s.unit(*id).unwrap();
                (u.id, u.kind, u.owner)
            }).collect();
            self.s.remove_units(&lost);
            self.events.push(Event::Destroyed { units: info, at: t });
        }
        Ok(())
    }

    /// Movement of an aircraft type for a power (long-range aircraft add 2).
    pub fn air_range(&self, p: PowerId, kind: crate::ids::UnitType) -> u8 {
        let base = self.stats(kind).movement;
        if self.s.has_development(p, crate::state::Development::LongRangeAircraft) {
            base + 2
        } else {
            base
        }
    }
}
