//! Changing hands: conquest, liberation, capitals (DAAK 2.7(d), 3.1(e),
//! 5.2(b), and the capital rules of `rules/classic.md` §9).

use super::Ctx;
use crate::action::Event;
use crate::ids::{PowerId, SpaceId};

impl Ctx<'_> {
    /// `by` takes territory `t` (by moving in, or by winning its battle).
    pub fn take_territory(&mut self, t: SpaceId, by: PowerId) {
        let rs = self.rs;
        let space = rs.map.space(t);
        let from = self.s.control[t.index()];
        // Who gets it: an ally's original territory goes back to that ally
        // (liberation), unless the ally's capital is in enemy hands, in which
        // case the liberator captures it (DAAK 5.2(b)). A formerly neutral
        // country has no original owner: it is always conquered (DAAK 2.7(d)).
        let original = space.original_owner;
        let liberating = original.filter(|o| *o != by && self.s.allied(*o, by) && rs.options.liberation);
        let new_owner = match liberating {
            Some(o) if space.capital_of == Some(o) || !self.rel().capital_lost(o) => o,
            _ => by,
        };
        self.s.control[t.index()] = Some(new_owner);
        self.s.conquered[t.index()] = true;
        // A capital held for a round is held "simultaneously" with the
        // holder's own: losing either, even if retaken, starts the count
        // again (EUROPE FAQ: Victory Conditions, Q1).
        let teams = &self.s.teams;
        self.s.capitals_held.retain(|(p, c)| {
            let own = rs.power(*p).capital == Some(t);
            (*c != t && !own) || teams.allied(*p, new_owner)
        });
        // Factories and AA guns go to the new controller (DAAK 3.1(e));
        // a captured AA gun may not move this turn (DAAK 4.4(b)).
        let teams = self.s.teams.clone();
        for u in self.s.units.iter_mut().filter(|u| u.at == t) {
            let st = rs.stats(u.kind);
            if (st.factory || st.anti_aircraft > 0) && !teams.allied(u.owner, by) {
                u.owner = new_owner;
                if st.anti_aircraft > 0 {
                    u.flags.captured = true;
                }
            }
        }
        if new_owner == by {
            self.events.push(Event::Captured { at: t, by, from });
        } else {
            self.events.push(Event::Liberated { at: t, for_power: new_owner });
        }
        // Taking an enemy's capital takes its bank.
        if let Some(victim) = space.capital_of {
            if from == Some(victim) && !self.s.allied(victim, by) && rs.options.capital_takes_bank {
                let amount = self.s.ipcs[victim.index()];
                self.s.ipcs[victim.index()] = 0;
                self.s.ipcs[by.index()] += amount;
                self.events.push(Event::BankTaken { from: victim, to: by, amount });
                // AA50 FAQ: Miscellaneous: units waiting in the mobilization
                // zone and researcher tokens are lost with the capital.
                if let Some(lost) = self.s.unplaced.remove(&victim) {
                    self.events.push(Event::LostUnplaced { units: lost.into_iter().collect() });
                }
                self.s.researchers[victim.index()] = 0;
            }
            // A freed capital takes back at once every original territory
            // its allies hold, with the factories there; AA guns and other
            // units stay with their owners (DAAK 5.2(b)).
            if new_owner == victim && rs.options.liberation {
                for other in rs.map.ids() {
                    let sp = rs.map.space(other);
                    let holder = self.s.control[other.index()];
                    if sp.original_owner == Some(victim)
                        && holder.is_some_and(|h| h != victim && self.s.allied(h, victim))
                    {
                        self.s.control[other.index()] = Some(victim);
                        for u in self.s.units.iter_mut().filter(|u| u.at == other) {
                            if rs.stats(u.kind).factory {
                                u.owner = victim;
                            }
                        }
                        self.events.push(Event::Liberated { at: other, for_power: victim });
                    }
                }
            }
        }
    }
}
