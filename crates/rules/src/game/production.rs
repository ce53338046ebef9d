//! Weapons development, purchase and placement.

use super::Ctx;
use crate::action::{reject, reject_with, Event, RuleError};
use crate::ids::{SpaceId, UnitType};
use crate::ruleset::{BombingCap, ResearchBreakthrough, ResearchCharts};
use crate::state::{Development, Phase};

/// What one research die costs (`rules/classic.md` §4).
const RESEARCH_DIE_COST: i32 = 5;

impl Ctx<'_> {
    pub fn research(&mut self, dice: u32, aim: Option<Development>, chart: Option<u8>) -> Result<(), RuleError> {
        if self.s.phase != Phase::Research {
            return reject("research/wrong-phase", "research dice are bought in the weapons development phase");
        }
        if !self.rs.options.weapons_development {
            return reject("research/off", "weapons development is off in this game (option weapons_development)");
        }
        if self.s.researched {
            return reject_with(
                "research/once-a-turn",
                format!("{} has rolled its research this turn: researchers roll once a turn (AA50 rules: Research & Development)", self.power_name(self.s.turn)),
                &[("power", self.power_name(self.s.turn))],
            );
        }
        if self.rs.options.research_charts == ResearchCharts::Anniversary {
            return self.research_with_researchers(dice, chart);
        }
        if chart.is_some_and(|c| c != 1) {
            return reject("research/chart", "this game has one research chart");
        }
        let p = self.s.turn;
        let choose = self.rs.options.research_breakthrough == ResearchBreakthrough::Choose;
        match (choose, aim) {
            (true, None) => return reject("research/name-development", "with research_breakthrough = \"choose\", name the development the dice aim at"),
            (false, Some(_)) => return reject("research/development-rolled", "the development is rolled on the chart (option research_breakthrough = \"roll\"), not chosen"),
            (true, Some(d)) if self.s.has_development(p, d) => {
                return reject_with(
                    "research/owned",
                    format!("{} already has {}", self.power_name(p), d.name()),
                    &[("power", self.power_name(p))],
                )
            }
            _ => {}
        }
        let cost = (RESEARCH_DIE_COST as i64 * dice as i64).min(i32::MAX as i64) as i32;
        if dice == 0 || cost > self.s.ipcs[p.index()] {
            let (power, ipcs) = (self.power_name(p), self.s.ipcs[p.index()]);
            return reject_with(
                "research/cost",
                format!("{dice} research dice cost {cost} IPCs; {power} has {ipcs}"),
                &[("dice", &dice.to_string()), ("cost", &cost.to_string()), ("power", power), ("ipcs", &ipcs.to_string())],
            );
        }
        self.s.ipcs[p.index()] -= cost;
        self.s.researched = true;
        let mut rolled = Vec::new();
        for _ in 0..dice {
            rolled.push(self.roll()?);
        }
        let breakthroughs = rolled.iter().filter(|d| **d == 6).count();
        self.events.push(Event::Rolled { purpose: "research".into(), dice: rolled, hits: breakthroughs as u32, by: Vec::new() });
        if let (Some(d), true) = (aim, breakthroughs > 0) {
            self.s.developments[p.index()] |= d.bit();
            self.events.push(Event::Developed { power: p, development: d.name().into() });
            return Ok(());
        }
        for _ in 0..breakthroughs {
            if choose || Development::CHART.iter().all(|d| self.s.has_development(p, *d)) {
                break;
            }
            // A second die picks the development on the chart; one already
            // owned is rolled again (`rules/classic.md` §4).
            self.develop_on(&Development::CHART)?;
        }
        Ok(())
    }

    /// Rolls a die on `chart` for the turn power until it shows a
    /// development the power does not hold yet, and gives it.
    fn develop_on(&mut self, chart: &[Development; 6]) -> Result<(), RuleError> {
        let p = self.s.turn;
        // Dice that only ever show owned developments (fixed dice) would
        // re-roll forever.
        for _ in 0..=1000 {
            let dev = chart[(self.roll()? - 1) as usize];
            if !self.s.has_development(p, dev) {
                self.s.developments[p.index()] |= dev.bit();
                self.events.push(Event::Developed { power: p, development: dev.name().into() });
                return Ok(());
            }
        }
        reject("dice/stuck", "the dice keep showing developments already owned")
    }

    /// Anniversary research (FORMAT.md v2 `research`; rules/anniversary.md
    /// §5): buy `dice` researchers at 5 IPCs, then every researcher held
    /// rolls. Any 6 is one breakthrough: the researchers are discarded and a
    /// die on `chart` gives that development, one already held rolled
    /// again. No 6: the researchers stay for a later turn.
    fn research_with_researchers(&mut self, dice: u32, chart: Option<u8>) -> Result<(), RuleError> {
        let p = self.s.turn;
        if self.rel().is_china(p) {
            return reject("research/china", "China does no research (AA50 FAQ: China)");
        }
        let chart = match chart {
            Some(1) => &Development::CHART_1,
            Some(2) => &Development::CHART_2,
            _ => return reject("research/chart", "name the breakthrough chart the researchers work on: 1 (land and production) or 2 (air and naval)"),
        };
        let cost = (RESEARCH_DIE_COST as i64 * dice as i64).min(i32::MAX as i64) as i32;
        if cost > self.s.ipcs[p.index()] {
            let (power, ipcs) = (self.power_name(p), self.s.ipcs[p.index()]);
            return reject_with(
                "research/cost",
                format!("{dice} researchers cost {cost} IPCs; {power} has {ipcs}"),
                &[("dice", &dice.to_string()), ("cost", &cost.to_string()), ("power", power), ("ipcs", &ipcs.to_string())],
            );
        }
        let held = self.s.researchers[p.index()].saturating_add(dice);
        if held == 0 {
            let power = self.power_name(p);
            return reject_with("research/no-researchers", format!("{power} holds no researchers: buy at least one"), &[("power", power)]);
        }
        if chart.iter().all(|d| self.s.has_development(p, *d)) {
            let power = self.power_name(p);
            return reject_with("research/chart-complete", format!("{power} holds every development of that chart"), &[("power", power)]);
        }
        self.s.ipcs[p.index()] -= cost;
        self.s.researched = true;
        let mut rolled = Vec::new();
        for _ in 0..held {
            rolled.push(self.roll()?);
        }
        let breakthrough = rolled.contains(&6);
        self.events.push(Event::Rolled { purpose: "research".into(), dice: rolled, hits: breakthrough as u32, by: Vec::new() });
        if !breakthrough {
            self.s.researchers[p.index()] = held;
            return Ok(());
        }
        // One breakthrough however many sixes; the researchers go.
        self.s.researchers[p.index()] = 0;
        self.develop_on(chart)
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
            let power = self.power_name(p);
            return reject_with("rocket/no-development", format!("{power} has not developed rockets"), &[("power", power)]);
        }
        let Some(gun) = self.s.units.iter().find(|u| u.at == from && u.owner == p && self.stats(u.kind).anti_aircraft > 0 && u.carried_by.is_none()) else {
            let (power, from) = (self.power_name(p), self.name(from));
            return reject_with("rocket/no-aa-gun", format!("{power} has no AA gun in {from}"), &[("power", power), ("from", from)]);
        };
        // AA50 errata p. 12: one AA gun per territory launches a turn, and
        // each complex takes one rocket.
        if self.s.units.iter().any(|u| u.at == from && u.owner == p && u.flags.fired_rocket) {
            let from = self.name(from);
            return reject_with("rocket/fired", format!("a rocket was already launched from {from} this turn"), &[("from", from)]);
        }
        let gun = gun.id;
        let Some(factory) = self.rel().factory_at(at).filter(|f| self.rel().enemies(p, f.owner)) else {
            let at = self.name(at);
            return reject_with("rocket/target", format!("{at} has no enemy industrial complex"), &[("at", at)]);
        };
        if factory.flags.rocketed {
            let at = self.name(at);
            return reject_with(
                "rocket/target-struck",
                format!("the complex in {at} was already struck by a rocket this turn"),
                &[("at", at)],
            );
        }
        let victim = factory.owner;
        // Distance over the board (land and sea alike); where neutrals are
        // impassable a rocket does not fly over them (AA50 FAQ: Weapons
        // Development).
        let mut dist = vec![u8::MAX; self.rs.map.len()];
        dist[from.index()] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(s) = queue.pop_front() {
            for &n in self.rs.map.neighbours(s) {
                if self.rs.options.neutrals_impassable && self.rs.map.space(n).neutral {
                    continue;
                }
                if dist[n.index()] == u8::MAX {
                    dist[n.index()] = dist[s.index()] + 1;
                    queue.push_back(n);
                }
            }
        }
        if dist[at.index()] > 3 {
            let (at, from) = (self.name(at), self.name(from));
            return reject_with("rocket/range", format!("{at} is more than 3 spaces from {from}"), &[("at", at), ("from", from)]);
        }
        let d = self.roll()?;
        self.s.unit_mut(gun).unwrap().flags.fired_rocket = true;
        if let Some(f) = self.s.units.iter_mut().find(|u| u.at == at && self.rs.stats(u.kind).factory) {
            f.flags.rocketed = true;
        }
        self.events.push(Event::Rolled { purpose: format!("rocket at {}", self.name(at)), dice: vec![d], hits: 0, by: Vec::new() });
        let _ = victim;
        self.bomb_factory(at, d as i32);
        Ok(())
    }

    /// A raid's or a rocket's result on the complex at `at`: its owner pays
    /// `amount` IPCs, capped as `bombing_cap` says, or, where bombing damages
    /// complexes, the complex takes that many damage markers up to twice the
    /// territory's value (AA50 errata p. 17; AA50 FAQ: Weapons Development:
    /// the cap does not grow with Increased Factory Production).
    pub(crate) fn bomb_factory(&mut self, at: SpaceId, amount: i32) {
        let Some(factory) = self.rel().factory_at(at) else { return };
        let (victim, id, damage) = (factory.owner, factory.id, factory.hits as i32);
        let ipc = self.rs.map.space(at).ipc as i32;
        let bank = self.s.ipcs[victim.index()];
        let lost = match self.rs.options.bombing_cap {
            BombingCap::Bank => amount.min(bank).max(0),
            BombingCap::Territory => amount.min(bank.min(ipc)).max(0),
            BombingCap::FactoryDamage => {
                let added = amount.min(2 * ipc - damage).max(0);
                let f = self.s.unit_mut(id).unwrap();
                f.hits = (damage + added).min(u8::MAX as i32) as u8;
                self.events.push(Event::Bombed { at, victim, ipcs: added });
                return;
            }
        };
        self.s.ipcs[victim.index()] -= lost;
        self.events.push(Event::Bombed { at, victim, ipcs: lost });
    }

    /// What a unit costs a power (industrial technology takes 1 off;
    /// improved shipyards make sea units cheaper).
    pub fn unit_cost(&self, kind: UnitType) -> i32 {
        let st = self.stats(kind);
        let base = st.cost as i32;
        let p = self.by;
        if self.s.has_development(p, Development::IndustrialTechnology) {
            base - 1
        } else if st.is_sea() && self.s.has_development(p, Development::ImprovedShipyards) {
            st.shipyards_cost.map_or(base, |c| c as i32)
        } else {
            base
        }
    }

    /// Repairs `count` damage markers on `p`'s complex at `at` in its
    /// purchase phase, 1 IPC each (FORMAT.md v2 `repair`); with Increased
    /// Factory Production half that, rounded up (the development's second
    /// sentence, which the errata leave standing; rules/anniversary.md §5).
    pub fn repair_factory(&mut self, at: SpaceId, count: u32) -> Result<(), RuleError> {
        let p = self.by;
        if self.s.phase != Phase::Purchase || p != self.s.turn {
            return reject("repair/wrong-phase", "damage is repaired in your purchase phase");
        }
        let Some(f) = self.rel().factory_at(at).filter(|f| f.owner == p) else {
            let (power, at) = (self.power_name(p), self.name(at));
            return reject_with("repair/no-complex", format!("{power} has no industrial complex in {at}"), &[("power", power), ("at", at)]);
        };
        let id = f.id;
        if count == 0 || count > f.hits as u32 {
            let (at, hits) = (self.name(at), f.hits);
            return reject_with(
                "repair/count",
                format!("the complex in {at} has {hits} damage markers"),
                &[("at", at), ("hits", &hits.to_string())],
            );
        }
        let cost = if self.s.has_development(p, Development::IncreasedFactoryProduction) { count.div_ceil(2) } else { count } as i32;
        if cost > self.s.ipcs[p.index()] {
            let (power, ipcs) = (self.power_name(p), self.s.ipcs[p.index()]);
            return reject_with(
                "repair/cost",
                format!("repairing {count} damage costs {cost} IPCs; {power} has {ipcs}"),
                &[("count", &count.to_string()), ("cost", &cost.to_string()), ("power", power), ("ipcs", &ipcs.to_string())],
            );
        }
        self.s.ipcs[p.index()] -= cost;
        self.s.unit_mut(id).unwrap().hits -= count as u8;
        Ok(())
    }

    pub fn purchase(&mut self, units: &[(UnitType, u32)]) -> Result<(), RuleError> {
        if !matches!(self.s.phase, Phase::Purchase | Phase::Shopping) {
            return reject("purchase/wrong-phase", "units are bought in the purchase phase");
        }
        let p = self.by;
        if self.rel().is_china(p) {
            return reject("purchase/china", "China has no IPCs and buys nothing: it receives infantry when its purchase phase ends (AA50 FAQ: China)");
        }
        // Costs are added in 64 bits: no count, however large, can wrap
        // into a negative price.
        let mut cost: i64 = 0;
        for (kind, n) in units {
            match self.rs.unit(*kind) {
                None => {
                    return reject_with(
                        "purchase/unknown-unit",
                        format!("there are no {kind} units in this ruleset"),
                        &[("unit", kind.name())],
                    )
                }
                Some(st) if !st.buyable && *n > 0 => {
                    return reject_with(
                        "purchase/not-for-sale",
                        format!("{kind} units cannot be bought in this ruleset"),
                        &[("unit", kind.name())],
                    )
                }
                Some(_) => {}
            }
            cost += self.unit_cost(*kind) as i64 * *n as i64;
        }
        if cost > self.s.ipcs[p.index()] as i64 {
            let (power, ipcs) = (self.power_name(p), self.s.ipcs[p.index()]);
            return reject_with(
                "purchase/cost",
                format!("these units cost {cost} IPCs; {power} has {ipcs}"),
                &[("cost", &cost.to_string()), ("power", power), ("ipcs", &ipcs.to_string())],
            );
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
        } else if self.rs.options.bombing_cap == BombingCap::FactoryDamage {
            // AA50: the territory's value less the complex's damage, two more
            // with Increased Factory Production where it is worth 3 or more
            // (AA50 errata p. 12; FORMAT.md v2, "Raids").
            let damage = self.rel().factory_at(t).map_or(0, |f| f.hits as u32);
            let extra = if space.ipc >= 3 && self.s.has_development(self.s.turn, Development::IncreasedFactoryProduction) { 2 } else { 0 };
            (space.ipc + extra).saturating_sub(damage)
        } else {
            // New and captured factories place up to the territory's value; one
            // in a territory worth nothing places one (rulebook p. 14, per
            // the rulebook port cited in rules/classic.md).
            space.ipc.max(1)
        };
        limit.saturating_sub(self.s.placed.get(&t).copied().unwrap_or(0))
    }

    /// Whether one more unit of `kind` could be placed somewhere now (AA50
    /// FAQ: Miscellaneous: "You must mobilize all of your purchased units
    /// that you are able to").
    pub(crate) fn placeable_somewhere(&self, kind: UnitType) -> bool {
        // A complex bought waits where the player likes (as before this
        // check asked the placement rules themselves).
        if self.stats(kind).factory {
            return false;
        }
        self.rs.map.ids().any(|t| self.placement_check(t, &[(kind, 1)], 1).is_ok())
    }

    /// A territory whose factory `p` may place at: its own, held since the
    /// start of the turn.
    fn producing_factory(&self, t: SpaceId) -> bool {
        let p = self.s.turn;
        self.rel().factory_at(t).is_some_and(|f| f.owner == p && !f.flags.new)
            && self.s.start_control[t.index()] == Some(p)
            && self.s.control[t.index()] == Some(p)
    }

    /// Whether `units` (`total` of them, bought) may be placed at `at` now,
    /// and which territory's complex then places them (`None`: no complex
    /// counts them: China's infantry, a new complex). The one statement of
    /// where units may be placed: `place` and the must-place rule ask it.
    fn placement_check(&self, at: SpaceId, units: &[(UnitType, u32)], total: u32) -> Result<Option<SpaceId>, RuleError> {
        let p = self.s.turn;
        let map = &self.rs.map;
        let sea = map.is_sea(at);
        if self.rel().is_china(p) {
            // AA50 FAQ: China: in any territory it controls (taken this turn
            // too) where fewer than three Chinese units stood before it began
            // placing; allied units do not count, the Flying Tigers do.
            if sea || self.s.control[at.index()] != Some(p) {
                let at = self.name(at);
                return reject_with(
                    "place/china-territory",
                    format!("China places its units in a territory it controls, not {at}"),
                    &[("at", at)],
                );
            }
            let before = self.rel().units_of(p, at).filter(|u| !u.flags.new).count();
            if before >= 3 {
                return reject_with(
                    "place/china-limit",
                    format!(
                        "{} already held {before} Chinese units before placing began: China places only where fewer than three stand",
                        self.name(at)
                    ),
                    &[("at", self.name(at)), ("count", &before.to_string())],
                );
            }
            Ok(None)
        } else if sea {
            let on_carriers = |k: &UnitType| self.rs.options.fighters_placed_on_carriers && self.stats(*k).carrier_cost() > 0;
            if units.iter().any(|(k, _)| !self.stats(*k).is_sea() && !on_carriers(k)) {
                return reject("place/land-unit-at-sea", "only ships are placed in sea zones; new fighters go on land with a factory (DAAK 3.4(f))");
            }
            // Anniversary: new fighters may go aboard new or existing
            // carriers of the power in the zone (rules/anniversary.md §7,
            // TripleA's LHTR carrier production rules).
            let need: i32 = units.iter().map(|(k, n)| self.stats(*k).carrier_cost() as i32 * *n as i32).sum::<i32>()
                - units.iter().map(|(k, n)| self.stats(*k).carrier_capacity() as i32 * *n as i32).sum::<i32>();
            if units.iter().any(|(k, _)| on_carriers(k)) {
                let mine = |u: &&crate::state::Unit| u.at == at && u.owner == p;
                let room: i32 = self.s.units.iter().filter(mine).map(|u| self.stats(u.kind).carrier_capacity() as i32 - self.stats(u.kind).carrier_cost() as i32).sum();
                if need > room {
                    let (power, at) = (self.power_name(p), self.name(at));
                    return reject_with(
                        "place/carrier-room",
                        format!("new fighters go aboard {power}'s carriers in {at} with room for them"),
                        &[("power", power), ("at", at)],
                    );
                }
            }
            if !self.rs.options.ships_placed_in_enemy_zones && self.rel().enemy_units(p, at).next().is_some() {
                let at = self.name(at);
                return reject_with(
                    "place/enemy-zone",
                    format!("ships may not be placed into {at}, which holds enemy ships"),
                    &[("at", at)],
                );
            }
            // Which factory builds them: one next to the zone with room.
            let mut factories: Vec<SpaceId> = map.neighbours(at).iter().copied().filter(|t| self.producing_factory(*t)).collect();
            factories.sort_by_key(|t| std::cmp::Reverse(self.placement_room(*t)));
            let Some(&f) = factories.first() else {
                let power = self.power_name(p);
                return reject_with(
                    "place/no-factory",
                    format!("ships are placed in a sea zone next to a factory {power} has held since the start of the turn"),
                    &[("power", power)],
                );
            };
            if self.placement_room(f) < total {
                let (at, room) = (self.name(f), self.placement_room(f));
                return reject_with(
                    "place/limit",
                    format!("the factory in {at} can place {} more this turn", units_count(room as u64)),
                    &[("at", at), ("room", &room.to_string())],
                );
            }
            Ok(Some(f))
        } else if units.iter().all(|(k, _)| *k == UnitType::IndustrialComplex) {
            if total > 1 || self.rel().factory_at(at).is_some() {
                return reject("place/one-factory", "a territory holds at most one industrial complex");
            }
            if self.s.control[at.index()] != Some(p) || self.s.start_control[at.index()] != Some(p) || self.s.conquered[at.index()] {
                let power = self.power_name(p);
                return reject_with(
                    "place/factory-territory",
                    format!("a factory is built in a territory {power} has held since the start of the turn"),
                    &[("power", power)],
                );
            }
            Ok(None)
        } else {
            if units.iter().any(|(k, _)| self.stats(*k).is_sea()) {
                return reject("place/ship-on-land", "ships are placed in a sea zone next to the factory");
            }
            if units.iter().any(|(k, _)| *k == UnitType::IndustrialComplex) {
                return reject("place/factory-with-units", "place a factory on its own");
            }
            if !self.producing_factory(at) {
                let power = self.power_name(p);
                return reject_with(
                    "place/no-factory",
                    format!("units are placed in a territory with a factory {power} has held since the start of the turn"),
                    &[("power", power)],
                );
            }
            let aa_new: u32 = units.iter().filter(|(k, _)| self.stats(*k).anti_aircraft > 0).map(|(_, n)| n).sum();
            let aa_there = self.s.units_at(at).filter(|u| self.stats(u.kind).anti_aircraft > 0).count() as u32;
            if aa_new + aa_there > 1 && self.rs.options.one_aa_gun_per_territory {
                let at = self.name(at);
                return reject_with("place/one-aa-gun", format!("{at} may hold only one AA gun (DAAK 3.1(b))"), &[("at", at)]);
            }
            if self.placement_room(at) < total {
                let (name, room) = (self.name(at), self.placement_room(at));
                return reject_with(
                    "place/limit",
                    format!("the factory in {name} can place {} more this turn", units_count(room as u64)),
                    &[("at", name), ("room", &room.to_string())],
                );
            }
            Ok(Some(at))
        }
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
        // Units kept from earlier turns are placed with this turn's (AA50
        // FAQ: Miscellaneous).
        if let Some(kept) = self.s.unplaced.remove(&p) {
            for (kind, n) in kept {
                *self.s.purchased.entry(kind).or_default() += n;
            }
        }
        for (kind, n) in units {
            let have = self.s.purchased.get(kind).copied().unwrap_or(0);
            if *n > have {
                let waiting = if have == 0 { format!("no {} waiting", kind.words()) } else { format!("only {} waiting", kind.count_words(have as u64)) };
                return reject_with(
                    "place/not-bought",
                    format!("{} has {waiting} to be placed", self.power_name(p)),
                    &[("power", self.power_name(p)), ("unit", kind.name()), ("count", &have.to_string())],
                );
            }
        }
        if let Some(f) = self.placement_check(at, units, total)? {
            *self.s.placed.entry(f).or_default() += total;
        }
        for (kind, n) in units {
            *self.s.purchased.get_mut(kind).unwrap() -= n;
            for _ in 0..*n {
                let id = self.s.add_unit(*kind, p, at);
                self.s.unit_mut(id).unwrap().flags.new = true;
            }
        }
        self.s.purchased.retain(|_, n| *n > 0);
        self.events.push(Event::Placed { at, units: units.to_vec() });
        Ok(())
    }
}


/// "1 unit", "3 units", "no units".
fn units_count(n: u64) -> String {
    match n {
        0 => "no units".into(),
        1 => "1 unit".into(),
        n => format!("{n} units"),
    }
}
