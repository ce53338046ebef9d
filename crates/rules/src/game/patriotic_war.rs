//! The Soviet Patriotic War (Europe): the Soviet player may change British
//! and US units into Soviet ones, only where a Soviet industrial complex is
//! (EUROPE FAQ: Second Edition Rules: "only in Leningrad, Stalingrad,
//! Archangel, and Moscow"; Miscellaneous: never at sea). Knob
//! `patriotic_war` names the power that may do it.

use super::Ctx;
use crate::action::{reject, reject_with, Event, RuleError};
use crate::ids::{SpaceId, UnitId};

impl Ctx<'_> {
    /// In any phase of its turn, the knob's power takes over the named allied
    /// land and air units at `at`, a territory it controls holding an
    /// industrial complex of its own that stood there when the game began.
    /// The units keep their movement spent and their damage.
    pub(crate) fn convert(&mut self, at: SpaceId, units: &[UnitId]) -> Result<(), RuleError> {
        let p = self.s.turn;
        let rs = self.rs;
        if rs.options.patriotic_war != rs.power(p).id {
            let power = self.power_name(p);
            return reject_with(
                "convert/not-allowed",
                format!("{power} may not take over its allies' units in this ruleset (the Soviet Patriotic War is Europe's, for the Soviet Union)"),
                &[("power", power)],
            );
        }
        if crate::battle::current(self.s).is_some() {
            return reject("convert/in-battle", "units change hands between battles, not while one waits for a decision");
        }
        let space = rs.map.space(at);
        let own_complex = self.s.units_at(at).any(|u| u.owner == p && rs.stats(u.kind).factory);
        if !space.is_land() || self.s.control[at.index()] != Some(p) || space.original_owner != Some(p) || !space.original_factory || !own_complex {
            return reject_with(
                "convert/where",
                format!("{} is not a territory of {} with its own industrial complex: allied units are taken over only there, never at sea (EUROPE FAQ: Second Edition Rules)", self.name(at), self.power_name(p)),
                &[("at", self.name(at)), ("power", self.power_name(p))],
            );
        }
        if units.is_empty() {
            return reject("convert/no-units", "name the allied units to take over");
        }
        for (n, id) in units.iter().enumerate() {
            let ok = self.s.unit(*id).is_some_and(|u| {
                let st = rs.stats(u.kind);
                u.at == at && u.owner != p && self.s.allied(u.owner, p) && !st.is_sea() && !st.factory
            });
            if !ok || units[..n].contains(id) {
                let at = self.name(at);
                return reject_with(
                    "convert/not-allied",
                    format!("only allied land and air units at {at} can be taken over, each once"),
                    &[("at", at)],
                );
            }
        }
        for id in units {
            self.s.unit_mut(*id).unwrap().owner = p;
        }
        self.events.push(Event::Converted { at, units: units.to_vec(), to: p });
        Ok(())
    }
}
