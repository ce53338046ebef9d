//! Weapons development, purchase and placement.

use super::Ctx;
use crate::action::{reject, Event, RuleError};
use crate::ids::{SpaceId, UnitType};
use crate::ruleset::ResearchBreakthrough;
use crate::state::{Development, Phase};

/// What one research die costs (`rules/classic.md` §4).
const RESEARCH_DIE_COST: i32 = 5;

impl Ctx<'_> {
    pub fn research(&mut self, dice: u32, aim: Option<Development>) -> Result<(), RuleError> {
        if self.s.phase != Phase::Research {
            return reject("research/wrong-phase", "research dice are bought in the weapons development phase");
        }
        if !self.rs.options.weapons_development {
            return reject("research/off", "weapons development is off in this game (option weapons_development)");
        }
        let p = self.s.turn;
        let choose = self.rs.options.research_breakthrough == ResearchBreakthrough::Choose;
        match (choose, aim) {
            (true, None) => return reject("research/name-development", "with research_breakthrough = \"choose\", name the development the dice aim at"),
            (false, Some(_)) => return reject("research/development-rolled", "the development is rolled on the chart (option research_breakthrough = \"roll\"), not chosen"),
            (true, Some(d)) if self.s.has_development(p, d) => return reject("research/owned", format!("{} already has {}", self.power_name(p), d.name())),
            _ => {}
        }
        let cost = (RESEARCH_DIE_COST as i64 * dice as i64).min(i32::MAX as i64) as i32;
        if dice == 0 || cost > self.s.ipcs[p.index()] {
            return reject("research/cost", format!("{dice} research dice cost {cost} IPCs; {} has {}", self.power_name(p), self.s.ipcs[p.index()]));
        }
        self.s.ipcs[p.index()] -= cost;
        let mut rolled = Vec::new();
        for _ in 0..dice {
            rolled.push(self.roll()?);
        }
        let breakthroughs = rolled.iter().filter(|d| **d == 6).count();
        self.events.push(Event::Rolled { purpose: "research".into(), dice: rolled, hits: breakthroughs as u32 });
        if let (Some(d), true) = (aim, breakthroughs > 0) {
            self.s.developments[p.index()] |= 1 << d as u8;
            self.events.push(Event::Developed { power: p, development: d.name().into() });
            return Ok(());
        }
        for _ in 0..breakthroughs {
            if choose || self.s.developments[p.index()] == 0b11_1111 {
                break;
            }
            // A second die picks the development on the chart; one already
            // owned is rolled again (`rules/classic.md` §4).
            let mut tries = 0;
            loop {
                let d = self.roll()?;
                let dev = Development::CHART[(d - 1) as usize];
                if !self.s.has_development(p, dev) {
                    self.s.developments[p.index()] |= 1 << dev as u8;
                    self.events.push(Event::Developed { power: p, development: dev.name().into() });
                    break;
                }
                // Dice that only ever show owned developments (fixed dice)
                // would re-roll forever.
                tries += 1;
                if tries > 1000 {
                    return reject("dice/stuck", "the dice keep showing developments already owned");
                }
            }
        }
        Ok(())
    }

    /// Rockets (`rules/classic.md` §4): in the combat phase an AA gun fires
    /// once a turn at an enemy factory within 3 spaces; its owner loses one
    /// die of IPCs, capped as strategic bombing is (option `bombing_cap`).
    pub fn rocket(&mut self, from: SpaceId, at: SpaceId) -> Result<(), RuleError> {
        let p = self.s.turn;
        if self.s.phase != Phase::Combat {
            return reject("rocket/wrong-phase", "rockets are fired in the combat phase");
        }
        if !self.s.has_development(p, Development::Rockets) {
            return reject("rocket/no-development", format!("{} has not developed rockets", self.power_name(p)));
        }
        let Some(gun) = self.s.units.iter().find(|u| u.at == from && u.owner == p && self.stats(u.kind).anti_aircraft > 0 && u.carried_by.is_none()) else {
            return reject("rocket/no-aa-gun", format!("{} has no AA gun in {}", self.power_name(p), self.name(from)));
        };
        if gun.flags.fired_rocket {
            return reject("rocket/fired", "each AA gun fires one rocket a turn");
        }
        let gun = gun.id;
        let Some(victim) = self.rel().factory_at(at).map(|f| f.owner).filter(|o| self.rel().enemies(p, *o)) else {
            return reject("rocket/target", format!("{} has no enemy industrial complex", self.name(at)));
        };
        // Distance over the board (land and sea alike).
        let mut dist = vec![u8::MAX; self.rs.map.len()];
        dist[from.index()] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(s) = queue.pop_front() {
            for &n in self.rs.map.neighbours(s) {
                if dist[n.index()] == u8::MAX {
                    dist[n.index()] = dist[s.index()] + 1;
                    queue.push_back(n);
                }
            }
        }
        if dist[at.index()] > 3 {
            return reject("rocket/range", format!("{} is more than 3 spaces from {}", self.name(at), self.name(from)));
        }
        let d = self.roll()?;
        let bank = self.s.ipcs[victim.index()];
        let cap = match self.rs.options.bombing_cap {
            crate::ruleset::BombingCap::Bank => bank,
            crate::ruleset::BombingCap::Territory => bank.min(self.rs.map.space(at).ipc as i32),
        };
        let paid = (d as i32).min(cap).max(0);
        self.s.ipcs[victim.index()] -= paid;
        self.s.unit_mut(gun).unwrap().flags.fired_rocket = true;
        self.events.push(Event::Rolled { purpose: format!("rocket at {}", self.name(at)), dice: vec![d], hits: 0 });
        self.events.push(Event::Bombed { at, victim, ipcs: paid });
        Ok(())
    }

    /// What a unit costs a power (industrial technology takes 1 off).
    pub fn unit_cost(&self, kind: UnitType) -> i32 {
        let base = self.stats(kind).cost as i32;
        if self.s.has_development(self.s.turn, Development::IndustrialTechnology) {
            base - 1
        } else {
            base
        }
    }

    pub fn purchase(&mut self, units: &[(UnitType, u32)]) -> Result<(), RuleError> {
        if !matches!(self.s.phase, Phase::Purchase | Phase::Shopping) {
            return reject("purchase/wrong-phase", "units are bought in the purchase phase");
        }
        let p = self.by;
        // Costs are added in 64 bits: no count, however large, can wrap
        // into a negative price.
        let mut cost: i64 = 0;
        for (kind, n) in units {
            match self.rs.unit(*kind) {
                None => return reject("purchase/unknown-unit", format!("there are no {kind} units in this ruleset")),
                Some(st) if !st.buyable && *n > 0 => return reject("purchase/not-for-sale", format!("{kind} units cannot be bought in this ruleset")),
                Some(_) => {}
            }
            cost += self.unit_cost(*kind) as i64 * *n as i64;
        }
        if cost > self.s.ipcs[p.index()] as i64 {
            return reject("purchase/cost", format!("these units cost {cost} IPCs; {} has {}", self.power_name(p), self.s.ipcs[p.index()]));
        }
        let cost = cost as i32;
        self.s.ipcs[p.index()] -= cost;
        // Bought in a phase of the whole round, units wait with the power's
        // unplaced ones and are placed in its own turn.
        let bought = if p == self.s.turn && !self.rel().in_round_phase() {
            &mut self.s.purchased
        } else {
            self.s.unplaced.entry(p).or_default()
        };
        for (kind, n) in units {
            if *n > 0 {
                *bought.entry(*kind).or_default() += n;
            }
        }
        self.events.push(Event::Purchased { power: p, units: units.to_vec(), cost });
        Ok(())
    }

    /// How many units a factory territory may still take this turn.
    fn placement_room(&self, t: SpaceId) -> u32 {
        let space = self.rs.map.space(t);
        let limit = if space.neutral {
            // A factory in a formerly neutral country places one unit (DAAK 2.7(d)).
            1
        } else if space.original_factory
            && space.original_owner == Some(self.s.turn)
            && self.rs.options.original_factories_unlimited
        {
            // Only the owner's own original factories are unlimited; a
            // captured one places up to the territory's value (DAAK 5.2(b)'s
            // example: "up to 3 units" in Karelia).
            u32::MAX
        } else {
            // New and captured factories place up to the territory's value; one
            // in a territory worth nothing places one (rulebook p. 14, per
            // the rulebook port cited in rules/classic.md).
            space.ipc.max(1)
        };
        limit.saturating_sub(self.s.placed.get(&t).copied().unwrap_or(0))
    }

    /// A territory whose factory `p` may place at: its own, held since the
    /// start of the turn.
    fn producing_factory(&self, t: SpaceId) -> bool {
        let p = self.s.turn;
        self.rel().factory_at(t).is_some_and(|f| f.owner == p && !f.flags.new)
            && self.s.start_control[t.index()] == Some(p)
            && self.s.control[t.index()] == Some(p)
    }

    pub fn place(&mut self, at: SpaceId, units: &[(UnitType, u32)]) -> Result<(), RuleError> {
        if self.s.phase != Phase::Place {
            return reject("place/wrong-phase", "units are placed in the placement phase");
        }
        let p = self.s.turn;
        let total: u32 = units.iter().fold(0u32, |a, (_, n)| a.saturating_add(*n));
        if total == 0 {
            return reject("place/nothing", "name the units to place");
        }
        for (kind, n) in units {
            let have = self.s.purchased.get(kind).copied().unwrap_or(0);
            if *n > have {
                return reject("place/not-bought", format!("{} has {have} {kind} waiting to be placed", self.power_name(p)));
            }
        }
        let map = &self.rs.map;
        let sea = map.is_sea(at);
        let mut new_ids = Vec::new();
        if sea {
            if units.iter().any(|(k, _)| !self.stats(*k).is_sea()) {
                return reject("place/land-unit-at-sea", "only ships are placed in sea zones; new fighters go on land with a factory (DAAK 3.4(f))");
            }
            if !self.rs.options.ships_placed_in_enemy_zones && self.rel().enemy_units(p, at).next().is_some() {
                return reject("place/enemy-zone", format!("ships may not be placed into {}, which holds enemy ships", self.name(at)));
            }
            // Which factory builds them: one next to the zone with room.
            let mut factories: Vec<SpaceId> = map.neighbours(at).iter().copied().filter(|t| self.producing_factory(*t)).collect();
            factories.sort_by_key(|t| std::cmp::Reverse(self.placement_room(*t)));
            let Some(&f) = factories.first() else {
                return reject("place/no-factory", format!("ships are placed in a sea zone next to a factory {} has held since the start of the turn", self.power_name(p)));
            };
            if self.placement_room(f) < total {
                return reject("place/limit", format!("the factory in {} can place {} more unit(s) this turn", self.name(f), self.placement_room(f)));
            }
            *self.s.placed.entry(f).or_default() += total;
        } else if units.iter().all(|(k, _)| *k == UnitType::IndustrialComplex) {
            if total > 1 || self.rel().factory_at(at).is_some() {
                return reject("place/one-factory", "a territory holds at most one industrial complex");
            }
            if self.s.control[at.index()] != Some(p) || self.s.start_control[at.index()] != Some(p) || self.s.conquered[at.index()] {
                return reject("place/factory-territory", format!("a factory is built in a territory {} has held since the start of the turn", self.power_name(p)));
            }
        } else {
            if units.iter().any(|(k, _)| self.stats(*k).is_sea()) {
                return reject("place/ship-on-land", "ships are placed in a sea zone next to the factory");
            }
            if units.iter().any(|(k, _)| *k == UnitType::IndustrialComplex) {
                return reject("place/factory-with-units", "place a factory on its own");
            }
            if !self.producing_factory(at) {
                return reject("place/no-factory", format!("units are placed in a territory with a factory {} has held since the start of the turn", self.power_name(p)));
            }
            let aa_new: u32 = units.iter().filter(|(k, _)| self.stats(*k).anti_aircraft > 0).map(|(_, n)| n).sum();
            let aa_there = self.s.units_at(at).filter(|u| self.stats(u.kind).anti_aircraft > 0).count() as u32;
            if aa_new + aa_there > 1 {
                return reject("place/one-aa-gun", format!("{} may hold only one AA gun (DAAK 3.1(b))", self.name(at)));
            }
            if self.placement_room(at) < total {
                return reject("place/limit", format!("the factory in {} can place {} more unit(s) this turn", self.name(at), self.placement_room(at)));
            }
            *self.s.placed.entry(at).or_default() += total;
        }
        for (kind, n) in units {
            *self.s.purchased.get_mut(kind).unwrap() -= n;
            for _ in 0..*n {
                let id = self.s.add_unit(*kind, p, at);
                self.s.unit_mut(id).unwrap().flags.new = true;
                new_ids.push(id);
            }
        }
        self.s.purchased.retain(|_, n| *n > 0);
        self.events.push(Event::Placed { at, units: units.to_vec() });
        Ok(())
    }
}
