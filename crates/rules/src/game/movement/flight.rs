//! Aircraft: neutral overflight (DAAK 2.7(a), (c)), AA fire on the way
//! (3.1(a)), and a landing left to reach (3.4(g), 4.4(c)).

use super::{spaces, NEUTRAL_FEE};
use crate::action::{reject, Event, RuleError};
use crate::game::Ctx;
use crate::ids::{PowerId, SpaceId, UnitId};

impl Ctx<'_> {
    /// `drop`: bombers carrying paratroopers, whose target is the hostile
    /// territory they drop into, defended or not (AA50 errata p. 12).
    pub(super) fn move_air(&mut self, p: PowerId, units: &[UnitId], route: &[SpaceId], combat: bool, bombing: bool, drop: bool) -> Result<(), RuleError> {
        let steps = (route.len() - 1) as u8;
        let dest = *route.last().unwrap();
        for &id in units {
            self.check_may_move(id, combat)?;
            let u = self.s.unit(id).unwrap();
            let range = self.air_range(u.owner, u.kind);
            if u.moved + steps > range {
                return reject("move/too-far", format!("{} flies {} a turn; this one has {} left", u.kind.with_article(), spaces(range), spaces(range.saturating_sub(u.moved))));
            }
            if bombing && !self.stats(u.kind).strategic_bomber && !self.rs.options.raid_escorts {
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
                // Fighters escort bombers flying with them, or a raid an
                // earlier move of this combat move declared there.
                if !self.raid_comes(units, dest) {
                    return reject("move/escort-without-raid", format!("escorts fly with bombers or to a raid declared at {} earlier this combat move", self.name(dest)));
                }
                if !(rel.enemy_land(p, dest) && rel.factory_at(dest).is_some_and(|f| rel.enemies(p, f.owner))) {
                    return reject("move/bombing-target", "a strategic bombing raid goes to an enemy territory with an industrial complex");
                }
            } else {
                let battle_there = rel.enemy_defenders(p, dest).next().is_some() || (self.rs.map.is_sea(dest) && rel.enemy_units(p, dest).next().is_some());
                if !battle_there && neutrals.is_empty() && !drop {
                    return reject("move/combat-needs-target", format!("no enemy units are in {}: aircraft attack only where there is a battle", self.name(dest)));
                }
            }
        } else if rel.enemy_land(p, dest) || rel.enemy_units_present(p, dest).next().is_some() {
            return reject("move/enemy-in-noncombat", format!("{} is held by the enemy: it can be entered only in combat move", self.name(dest)));
        }
        // A landing must stay within reach (no suicide moves; DAAK 3.4(g),
        // 4.4(c)). Judged per aircraft, then for those that need carriers
        // together, before anything changes.
        let lefts: Vec<(UnitId, u8)> = units
            .iter()
            .map(|id| {
                let u = self.s.unit(*id).unwrap();
                (*id, self.air_range(u.owner, u.kind) - u.moved - steps)
            })
            .collect();
        for &(id, left) in &lefts {
            let u = self.s.unit(id).unwrap();
            if !self.landing_within(p, u.kind, dest, left, units, combat) {
                return reject(
                    "move/no-landing",
                    format!(
                        "the {} would have {} movement left at {} and no landing it can reach: a friendly territory held since the start of the turn{} (DAAK 3.4(g), 4.4(c))",
                        u.kind,
                        left,
                        self.name(dest),
                        if self.stats(u.kind).carrier_cost() > 0 { " or a friendly carrier with room that will be there without retreating" } else { "" }
                    ),
                );
            }
        }
        if !self.carrier_room_for_all(p, dest, &lefts, combat) {
            return reject(
                "move/no-landing",
                "more fighters would need a carrier to land on than the carriers they can reach have room for: a suicide attack (EUROPE FAQ: Other Air Unit Questions; DAAK 3.4(g))",
            );
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
            // Anniversary: AA guns fire only in their own territory's battle
            // or raid (FORMAT.md v2 judging notes).
            let overflown: Vec<SpaceId> =
                if self.rs.options.aa_fires_at_overflights { route[1..route.len() - 1].to_vec() } else { Vec::new() };
            for t in overflown {
                self.overflight_aa_fire(p, t, units, dest)?;
            }
            let rel = self.rel();
            let battle_there = rel.enemy_defenders(p, dest).next().is_some()
                || (self.rs.map.is_sea(dest) && rel.enemy_units(p, dest).next().is_some());
            // No raid exists until bombers reach their target: one whose
            // bombers were all shot down on the way declares none, and its
            // fighters escort nothing (EUROPE FAQ: Strategic Bombing Raids,
            // Q3).
            if bombing {
                if self.raid_comes(units, dest) {
                    self.declare_bombing(dest, route);
                } else {
                    for id in units {
                        if let Some(u) = self.s.unit_mut(*id) {
                            u.flags.bombing = false;
                        }
                    }
                }
            } else if battle_there {
                // AA50 errata p. 19: a retreat goes only where an attacking
                // land or sea unit came from, so aircraft routes name none.
                let origins = if self.rs.options.retreat_to_air_origins { route } else { &route[route.len() - 1..] };
                self.declare_battle(dest, origins, false);
            }
        }
        Ok(())
    }

    /// Whether a raid on `dest` comes with these aircraft: bombers among
    /// them (still flying, once AA fire on the way has been rolled), or a
    /// raid an earlier move of this combat move declared there.
    fn raid_comes(&self, units: &[UnitId], dest: SpaceId) -> bool {
        units.iter().any(|id| self.s.unit(*id).is_some_and(|u| self.stats(u.kind).strategic_bomber))
            || self.s.battles.iter().any(|b| b.at == dest && b.kind == crate::battle::BattleKind::Bombing)
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
        if self.rs.options.low_luck {
            // One group, a shot at each aircraft added up (docs/low-luck.md);
            // no die is an aircraft's own and nobody is asked in a move: the
            // hits take the aircraft in the default order of loss.
            let hits = self.low_luck(alive.len() as u32 * u32::from(value.min(6)), &mut dice)?;
            lost = crate::battle::casualties::default_order(self.rs, self.s, &alive, true);
            lost.truncate(hits as usize);
        } else {
            for id in alive {
                let d = self.roll()?;
                dice.push(d);
                if d <= value {
                    lost.push(id);
                }
            }
        }
        self.events.push(Event::Rolled { purpose: format!("AA fire over {}", self.name(t)), dice, hits: lost.len() as u32, by: Vec::new() });
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
