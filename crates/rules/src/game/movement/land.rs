//! Land units: walking and blitzing (DAAK 3.6), neutral walk-ins (2.7),
//! boarding and landing from transports (3.2, 3.3).

use crate::action::{reject, reject_with, RuleError};
use crate::game::Ctx;
use crate::ids::{PowerId, SpaceId, UnitId, UnitType};
use crate::state::{Development, Phase};

impl Ctx<'_> {
    pub(super) fn move_land(&mut self, p: PowerId, units: &[UnitId], route: &[SpaceId], transport: Option<UnitId>, combat: bool) -> Result<(), RuleError> {
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
            if let Some(t) = transport {
                if units.iter().any(|id| self.s.unit(*id).is_some_and(|u| u.carried_by != Some(t))) {
                    return reject("move/not-on-that-transport", "those units are not aboard the transport named");
                }
            }
            return self.unload(p, units, route[0], route[1], combat);
        }
        match sea_steps.as_slice() {
            [] => self.walk(p, units, route, combat),
            [1] if route.len() <= 3 => {
                for &id in units {
                    let u = self.s.unit(id).unwrap();
                    if u.moved > 0 || u.flags.boarded || u.flags.moved_in_combat {
                        return reject_with(
                            "move/before-loading",
                            format!("the {} has moved this turn and may not board a transport (DAAK 3.2(b))", u.kind),
                            &[("unit", u.kind.name())],
                        );
                    }
                }
                // Boarding in combat move is for an amphibious assault
                // (DAAK 3.2(c)), and AA guns never attack (DAAK 3.1(f)).
                if combat && units.iter().any(|id| self.stats(self.s.unit(*id).unwrap().kind).anti_aircraft > 0) {
                    return reject("move/aa-cannot-attack", "AA guns do not attack, so they board transports only in non-combat move (DAAK 3.1(f), 3.2(c))");
                }
                let sea = route[1];
                let landing = route.get(2).copied();
                let subs_there = self.rel().enemy_units_present(p, sea).any(|u| self.stats(u.kind).submarine);
                if combat && self.rs.options.enemy_submarines_block_loading && subs_there {
                    return reject_with(
                        "move/board-beside-submarines",
                        format!("enemy submarines in {} stop transports loading in combat move (EUROPE FAQ: Submarines)", self.name(sea)),
                        &[("at", self.name(sea))],
                    );
                }
                if combat && self.rel().enemy_units(p, sea).next().is_some() {
                    let assault = landing.is_some_and(|l| self.rel().enemy_land(p, l) || self.rel().neutral(l));
                    if !assault {
                        return reject_with(
                            "move/board-in-battle-zone",
                            format!("in combat move, troops board a transport in a sea zone with a battle ({}) only for an amphibious assault (DAAK 3.2(c))", self.name(sea)),
                            &[("at", self.name(sea))],
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
        // Mechanized Infantry (Anniversary chart 1; FORMAT.md v2): infantry
        // moving with armor, one per armor, moves 2.
        let count = |t: UnitType| units.iter().filter(|id| self.s.unit(**id).unwrap().kind == t).count();
        let mechanized = self.s.has_development(p, Development::MechanizedInfantry)
            && count(UnitType::Infantry) <= count(UnitType::Armor)
            && self.rs.unit(UnitType::Armor).is_some();
        for &id in units {
            let u = self.s.unit(id).unwrap().clone();
            let mut st = self.stats(u.kind).clone();
            if mechanized && u.kind == UnitType::Infantry {
                st.movement = st.movement.max(self.stats(UnitType::Armor).movement);
            }
            if u.flags.boarded {
                return reject_with(
                    "move/after-boarding",
                    format!("the {} boarded a transport this turn: that is its move (DAAK 3.2(b))", u.kind),
                    &[("unit", u.kind.name())],
                );
            }
            if u.moved + steps > st.movement {
                return Err(super::too_far(u.kind, st.movement, u.moved));
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
                    let at = self.name(t);
                    return reject_with(
                        "move/through-neutral",
                        format!("{at} is neutral: land units stop there, and armor may not blitz through a neutral country (DAAK 2.7(b), 3.6(c))"),
                        &[("at", at)],
                    );
                }
                if rel.enemy_defenders(p, t).next().is_some() {
                    let at = self.name(t);
                    return reject_with("move/through-enemy", format!("enemy units in {at} stop land movement"), &[("at", at)]);
                }
                // Anniversary: an enemy complex or AA gun stops a blitz
                // (knob `factories_and_aa_stop_blitz`; TripleA's "Blitz
                // Through Factories And AA Restricted", rules/anniversary.md
                // §6 [UNSURE]); DAAK 3.6(b) lets armor pass them.
                if self.rs.options.factories_and_aa_stop_blitz && rel.enemy_units(p, t).any(|u| !self.rs.stats(u.kind).is_combatant()) {
                    let at = self.name(t);
                    return reject_with(
                        "move/blitz-stopped",
                        format!("the enemy industrial complex or AA gun in {at} stops armor blitzing through (option factories_and_aa_stop_blitz)"),
                        &[("at", at)],
                    );
                }
                // Enemy-controlled and empty of defenders (AA guns and factories
                // do not count, DAAK 3.6(b)): a blitz, in combat move only.
                if !combat {
                    let at = self.name(t);
                    return reject_with(
                        "move/blitz-noncombat",
                        format!("{at} is enemy territory: it can be entered only in combat move; a blitz is declared and finished in combat move (DAAK 3.6(a))"),
                        &[("at", at)],
                    );
                }
                if !st.blitz {
                    let at = self.name(t);
                    return reject_with("move/no-blitz", format!("only armor may blitz through {at}"), &[("at", at)]);
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
        // Units may follow others into a territory taken earlier in this
        // combat move: the attack on it is one combat, whichever move
        // reached it first.
        let joins_conquest = self.s.conquered[dest.index()] && rel.friendly_land(p, dest);
        if combat {
            if !dest_neutral && !dest_enemy && blitzed.is_empty() && !joins_conquest {
                let at = self.name(dest);
                return reject_with(
                    "move/combat-needs-target",
                    format!("{at} is friendly: moves that attack nothing belong to the non-combat move"),
                    &[("at", at)],
                );
            }
        } else if dest_neutral || dest_enemy {
            let at = self.name(dest);
            return reject_with(
                "move/enemy-in-noncombat",
                format!("{at} is not friendly: it can be entered only in combat move"),
                &[("at", at)],
            );
        }
        // Where a land unit's movement ends although it has points left: a
        // neutral country (DAAK 2.7(b): "land units stop there"), and with
        // `factories_and_aa_stop_blitz` an enemy territory holding a complex
        // or an AA gun, whichever number of moves the route is split into.
        let stops_here = combat
            && (dest_neutral
                || (self.rs.options.factories_and_aa_stop_blitz && dest_enemy && rel.enemy_units(p, dest).any(|u| !self.rs.stats(u.kind).is_combatant())));
        let armor_movement = if mechanized { self.stats(UnitType::Armor).movement } else { 0 };
        // Carry out: blitzed territories change hands as the armor passes.
        for t in blitzed {
            self.take_territory(t, p);
        }
        for &id in units {
            let full = self.stats(self.s.unit(id).unwrap().kind).movement.max(armor_movement);
            let u = self.s.unit_mut(id).unwrap();
            u.at = dest;
            u.moved += steps;
            if stops_here {
                u.moved = u.moved.max(full);
            }
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
            let cost = self.stats(u.kind).transport_cost();
            if cost == 0 {
                return reject_with(
                    "move/not-transportable",
                    format!("a {} cannot be carried by a transport", u.kind),
                    &[("unit", u.kind.name())],
                );
            }
            let rel = self.rel();
            let fits = |t: &crate::state::Unit| {
                self.stats(t.kind).transport_capacity() > 0
                    && t.at == sea
                    && self.s.allied(p, t.owner)
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
                            let any = self.s.units.iter().find(|t| t.at == sea && self.stats(t.kind).transport_capacity() > 0 && self.s.allied(p, t.owner));
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
        if self.stats(t.kind).transport_capacity() == 0 {
            return format!("that unit is a {}, not a transport", t.kind);
        }
        if t.at != sea {
            return format!("that transport is not in {}", self.name(sea));
        }
        if !self.s.allied(u.owner, t.owner) {
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
                return reject_with("move/not-cargo", format!("the {} is not aboard a transport", u.kind), &[("unit", u.kind.name())]);
            };
            let tr = self.s.unit(t).unwrap();
            if tr.flags.fought && !(self.rs.options.unload_after_sea_battle && !combat) {
                return reject(
                    "move/cargo-after-sea-battle",
                    "troops aboard a transport that fought a sea battle stay aboard until their owner's next turn (DAAK 3.2(f))",
                );
            }
            if tr.owner != p && !u.flags.shuttled {
                return reject_with(
                    "move/not-yet-shuttled",
                    format!("troops aboard {}'s transport land only after it has carried them on its own turn (DAAK 3.3(b))", self.power_name(tr.owner)),
                    &[("power", self.power_name(tr.owner))],
                );
            }
            if !transports.contains(&t) {
                transports.push(t);
            }
        }
        let one_territory = self.rs.options.transport_unloading == crate::ruleset::TransportUnloading::OneTerritory;
        for &t in &transports {
            let tr = self.s.unit(t).unwrap();
            let all_cargo = self.s.cargo_of(t).all(|c| units.contains(&c.id));
            if let Some(before) = tr.flags.unloaded_into.filter(|b| one_territory && *b != shore) {
                return reject_with(
                    "move/one-territory-per-transport",
                    format!("the transport unloaded into {} this turn: a transport unloads into only one territory (EUROPE FAQ: Amphibious Assault)", self.name(before)),
                    &[("at", self.name(before))],
                );
            }
            if !all_cargo && combat && !one_territory {
                return reject("move/partial-unload-combat", "in combat move a transport unloads all its cargo into one territory (DAAK 3.2(e))");
            }
            if !all_cargo && tr.owner != p {
                return reject("move/partial-unload-friendly", "troops on a friendly power's transport unload all together (DAAK 3.3(b))");
            }
        }
        self.check_aa_room(units, shore)?;
        let rel = self.rel();
        let hostile = rel.enemy_land(p, shore) || rel.neutral(shore);
        let joins_conquest = self.s.conquered[shore.index()] && rel.friendly_land(p, shore);
        if combat && !hostile && !joins_conquest {
            let at = self.name(shore);
            return reject_with("move/combat-needs-target", format!("{at} is friendly: unload there in non-combat move"), &[("at", at)]);
        }
        if !combat && hostile {
            let at = self.name(shore);
            return reject_with(
                "move/enemy-in-noncombat",
                format!("{at} is not friendly: it can be entered only in combat move"),
                &[("at", at)],
            );
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
            let flags = &mut self.s.unit_mut(t).unwrap().flags;
            flags.transport_unloaded = true;
            flags.unloaded_into = Some(shore);
        }
        if combat {
            if shore_neutral {
                self.pay_neutral_fee(p, shore)?;
            } else if defended || sea_battle {
                self.declare_battle(shore, &[sea, shore], false);
            } else if !joins_conquest {
                self.take_territory(shore, p);
            }
        }
        Ok(())
    }
}
