//! Ships: canals (DAAK 2.3, 2.4), enemy fleets stop movement, cargo and
//! other powers' fighters go along (3.4(c)).

use crate::action::{reject, reject_with, RuleError};
use crate::game::Ctx;
use crate::ids::{PowerId, SpaceId, UnitId};

impl Ctx<'_> {
    pub(super) fn move_sea(&mut self, p: PowerId, units: &[UnitId], route: &[SpaceId], combat: bool) -> Result<(), RuleError> {
        let steps = (route.len() - 1) as u8;
        let dest = *route.last().unwrap();
        for &t in route {
            if !self.rs.map.is_sea(t) {
                let at = self.name(t);
                return reject_with("move/ship-on-land", format!("ships stay at sea; {at} is land"), &[("at", at)]);
            }
        }
        for w in route.windows(2) {
            if !self.rel().canal_open(p, w[0], w[1]) {
                let c = self.rs.map.canal_between(w[0], w[1]).unwrap();
                let names: Vec<&str> = c.controlled_by.iter().map(|t| self.name(*t)).collect();
                return reject_with(
                    "move/canal-closed",
                    format!("ships pass the {} only if {} {} friendly at the start of the turn (DAAK 2.3, 2.4)", c.name, names.join(" and "), if names.len() > 1 { "were" } else { "was" }),
                    &[("canal", &c.name), ("spaces", &names.join(", "))],
                );
            }
        }
        // AA50 FAQ: Additional Optional Rules: with the Dardanelles closed
        // no ship enters or leaves that zone.
        if self.rs.options.dardanelles_closed {
            if let Some(w) = route.windows(2).find(|w| w.iter().any(|t| self.name(*t) == self.rs.options.dardanelles_zone)) {
                let zone = if self.name(w[0]) == self.rs.options.dardanelles_zone { w[0] } else { w[1] };
                let at = self.name(zone);
                return reject_with(
                    "move/dardanelles-closed",
                    format!("the Dardanelles are closed: no ship enters or leaves {at} (option dardanelles_closed)"),
                    &[("at", at)],
                );
            }
        }
        let all_subs = units.iter().all(|id| self.stats(self.s.unit(*id).unwrap().kind).submarine);
        for &t in &route[1..route.len() - 1] {
            if self.rel().ships_stopping(p, t, all_subs) {
                let at = self.name(t);
                return reject_with("move/through-enemy-ships", format!("enemy ships in {at} stop ships moving through"), &[("at", at)]);
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
                return Err(super::too_far(u.kind, st.movement, u.moved));
            }
        }
        let enemies_there = self.rel().enemy_units_present(p, dest).next().is_some();
        // Anniversary: submarines may end a non-combat move beside enemy
        // units (rules/anniversary.md §6, TripleA's "Subs may end
        // noncombat move with enemies").
        let subs_may_stay = all_subs && self.rs.options.ships_ignore_subs_and_transports;
        if !combat && enemies_there && !subs_may_stay {
            let at = self.name(dest);
            return reject_with(
                "move/enemy-in-noncombat",
                format!("enemy units hold {at}: it can be entered only in combat move"),
                &[("at", at)],
            );
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
}
