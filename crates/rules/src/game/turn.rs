//! The turn sequence: ending phases, starting turns, income and victory.

use super::Ctx;
use crate::action::{reject_with, Event, RuleError};
use crate::battle::BattleResult;
use crate::ids::{PowerId, Side, SpaceId};
use crate::state::{Phase, Winner};

impl Ctx<'_> {
    pub fn end_phase(&mut self) -> Result<(), RuleError> {
        match self.s.phase {
            Phase::Payday => self.payday()?,
            Phase::Shopping if self.rs.options.buy_on_claimed_territory => {
                if !self.end_shopping()? {
                    return Ok(());
                }
                self.advance();
                return Ok(());
            }
            Phase::Turn if self.rs.options.free_movement => self.end_free_turn()?,
            _ => {}
        }
        if self.rel().in_round_phase() && self.s.phase.each_power_acts() {
            // Each power ends its own part; the phase ends with the last.
            if !self.s.done.contains(&self.by) {
                self.s.done.push(self.by);
            }
            if !self.rel().round_actors().is_empty() {
                return Ok(());
            }
        }
        match self.s.phase {
            Phase::CombatMove => self.declare_standing_battles(),
            Phase::Combat => {
                let open: Vec<String> = self
                    .s
                    .battles
                    .iter()
                    .filter(|b| matches!(b.result, BattleResult::Pending | BattleResult::Ongoing))
                    .map(|b| self.rs.map.name(b.at).to_string())
                    .collect();
                if !open.is_empty() {
                    let open = open.join(", ");
                    return reject_with(
                        "combat/battles-remain",
                        format!("every declared battle must be fought before combat ends: {open}"),
                        &[("spaces", &open)],
                    );
                }
                // Interceptors whose territory fell and that found no other
                // landing are lost (AA50 FAQ: Additional Optional Rules).
                let rel = self.rel();
                let stranded: Vec<(crate::ids::UnitId, crate::ids::UnitType, PowerId, SpaceId)> = self
                    .s
                    .units
                    .iter()
                    .filter(|u| u.flags.intercepting && rel.enemy_land(u.owner, u.at))
                    .map(|u| (u.id, u.kind, u.owner, u.at))
                    .collect();
                for (id, kind, owner, at) in stranded {
                    self.s.remove_units(&[id]);
                    self.events.push(Event::Destroyed { units: vec![(id, kind, owner)], at });
                }
            }
            Phase::NoncombatMove => self.land_aircraft(),
            Phase::Place => {
                // China's infantry are received, not bought: what it does not
                // place waits like any unplaced unit.
                if self.rs.options.unplaced_units_kept && !self.rel().is_china(self.s.turn) {
                    if let Some(kind) = self.s.purchased.iter().filter(|(_, n)| **n > 0).map(|(k, _)| *k).find(|k| self.placeable_somewhere(*k)) {
                        return reject_with(
                            "place/must-place",
                            format!("{kind} can still be placed: units are held back only when no complex has room for them (AA50 FAQ: Miscellaneous)"),
                            &[("unit", kind.name())],
                        );
                    }
                }
                self.lose_unplaced()
            }
            Phase::Purchase if self.rel().is_china(self.s.turn) => self.receive_chinese_infantry(),
            Phase::Income => {
                let p = self.s.turn;
                let amount = self.rel().income(p);
                self.s.ipcs[p.index()] += amount;
                self.events.push(Event::Income { power: p, amount });
                // War bonds: one die of IPCs as the income phase ends, never
                // part of `income` (FORMAT.md v2, `income_detail`); not while
                // the capital is lost, as no income is collected then.
                if self.s.has_development(p, crate::state::Development::WarBonds) && !self.rel().capital_lost(p) {
                    let d = self.roll()?;
                    self.s.ipcs[p.index()] += d as i32;
                    self.events.push(Event::Rolled { purpose: "war bonds".into(), dice: vec![d], hits: 0, by: Vec::new() });
                }
                for (to, paid) in self.rel().tribute(p, amount) {
                    self.s.ipcs[p.index()] -= paid;
                    self.s.ipcs[to.index()] += paid;
                    self.events.push(Event::Paid { from: p, to, amount: paid });
                }
            }
            Phase::Research | Phase::Purchase | Phase::Payday | Phase::Shopping | Phase::Turn => {}
        }
        self.advance();
        Ok(())
    }

    /// After a phase has ended: the next phase of the round or the turn, or
    /// the end of the turn.
    pub(crate) fn advance(&mut self) {
        let structure = &self.rs.turn;
        let in_round = self.rel().in_round_phase();
        let list = if in_round { &structure.round_phases } else { &structure.turn_phases };
        let i = list.iter().position(|p| *p == self.s.phase).unwrap_or(0);
        if let Some(next) = list.get(i + 1) {
            self.s.phase = *next;
            self.s.done.clear();
            self.events.push(Event::PhaseStarted { power: self.s.turn, phase: self.s.phase, round: self.s.round });
        } else if in_round {
            // The round's own phases are over: the first turn begins.
            self.s.done.clear();
            self.turn_from(0);
        } else {
            self.repair();
            self.check_victory();
            if self.s.winner.is_none() {
                self.turn_from(self.s.turn_index() + 1);
            }
        }
    }

    /// At the end of a turn, the power's damaged units are repaired where the
    /// ruleset says so (knob `repair_at_turn_end`).
    fn repair(&mut self) {
        if !self.rs.options.repair_at_turn_end {
            return;
        }
        let p = self.s.turn;
        let mut repaired = Vec::new();
        // A complex's damage markers stay until they are repaired for IPCs
        // (FORMAT.md v2 `repair`).
        let rs = self.rs;
        let everyone = rs.options.repair_every_power;
        for u in self.s.units.iter_mut().filter(|u| (everyone || u.owner == p) && u.hits > 0 && !rs.stats(u.kind).factory) {
            u.hits = 0;
            repaired.push(u.id);
        }
        if !repaired.is_empty() {
            self.events.push(Event::Repaired { power: p, units: repaired });
        }
    }

    /// The turn of the first power still in the game at or after place `i`
    /// of the round's order; past the last, a new round.
    fn turn_from(&mut self, i: usize) {
        let rel = self.rel();
        let next = self.s.order.iter().skip(i).copied().find(|p| rel.in_game(*p));
        match next {
            Some(p) => self.start_turn(p),
            None => self.new_round(),
        }
    }

    /// A new round: its own phases first, where the ruleset has them, else
    /// the first turn.
    fn new_round(&mut self) {
        self.s.round += 1;
        if let Some(first) = self.rs.turn.round_phases.first() {
            self.s.turn = self.s.order[0];
            self.s.phase = *first;
            self.s.done.clear();
            self.events.push(Event::PhaseStarted { power: self.s.turn, phase: self.s.phase, round: self.s.round });
            return;
        }
        // With nobody left in the game no turn would start: the first of
        // the order plays on.
        let rel = self.rel();
        let p = self.s.order.iter().copied().find(|p| rel.in_game(*p)).unwrap_or(self.s.order[0]);
        self.start_turn(p);
    }

    fn start_turn(&mut self, p: PowerId) {
        self.s.turn = p;
        self.s.phase = self.rs.turn.turn_phases[0];
        self.begin_turn();
        self.events.push(Event::PhaseStarted { power: p, phase: self.s.phase, round: self.s.round });
    }

    /// China's free infantry (AA50 FAQ: China): one per two territories it
    /// controls when its purchase phase ends, rounded down, placed in its
    /// place phase.
    fn receive_chinese_infantry(&mut self) {
        let p = self.s.turn;
        let held = self.rs.map.ids().filter(|t| self.rs.map.is_land(*t) && self.s.control[t.index()] == Some(p)).count() as u32;
        let infantry = held / 2;
        if infantry > 0 && self.rs.unit(crate::ids::UnitType::Infantry).is_some() {
            *self.s.purchased.entry(crate::ids::UnitType::Infantry).or_default() += infantry;
            self.events.push(Event::Purchased { power: p, units: vec![(crate::ids::UnitType::Infantry, infantry)], cost: 0 });
        }
    }

    /// Clears last turn's bookkeeping. China's turn continues the US turn
    /// for what was captured this turn (AA50 FAQ: China: "they act during
    /// the same turn"; FORMAT.md v2, "China").
    pub fn begin_turn(&mut self) {
        let p = self.s.turn;
        if !self.rel().is_china(p) {
            self.s.start_control = self.s.control.clone();
            self.s.conquered.iter_mut().for_each(|c| *c = false);
        }
        // Units kept from an earlier turn wait to be placed again.
        self.s.purchased = self.s.unplaced.remove(&p).unwrap_or_default();
        self.s.placed.clear();
        self.s.neutral_fees = 0;
        self.s.researched = false;
        self.s.battles.clear();
        let transports_of_p: Vec<_> = self
            .s
            .units
            .iter()
            .filter(|u| u.owner == p && self.rs.stats(u.kind).transport_capacity() > 0)
            .map(|u| u.id)
            .collect();
        // Under free movement units are refuelled at payday, not at each
        // turn (ALT L42).
        let refuel = !self.rs.options.free_movement;
        for u in &mut self.s.units {
            let shuttled = u.flags.shuttled;
            let boarded_at = u.flags.boarded_at;
            u.flags = Default::default();
            if refuel {
                u.moved = 0;
            } else {
                u.flags.boarded_at = boarded_at;
            }
            u.landed_from = None;
            // Cargo aboard this power's transports is carried on this turn,
            // whether the transport moves or not (DAAK 3.3(b), step 2).
            u.flags.shuttled =
                shuttled || u.carried_by.is_some_and(|c| transports_of_p.contains(&c) && u.owner != p);
        }
    }

    /// Victory (DAAK 5.1): two Allied capitals to the Axis, both Axis
    /// capitals to the Allies, checked at the end of the round (option
    /// `capital_victory_checked`: or of every turn); the Magic-84 economic
    /// victory only at the end of the US turn, the end of the round.
    fn check_victory(&mut self) {
        match self.rs.options.capital_victory {
            crate::ruleset::CapitalVictory::AllEnemyCapitals => {
                if self.last_turn_of_round() {
                    self.end_of_alternative_round();
                }
                return;
            }
            crate::ruleset::CapitalVictory::HoldOneForARound => return self.check_capitals_held_for_a_round(),
            crate::ruleset::CapitalVictory::VictoryCities => return self.check_victory_cities(),
            crate::ruleset::CapitalVictory::TwoCapitals => {}
        }
        let rel = self.rel();
        // A power without a capital gives none to take.
        let teams = &self.s.teams;
        let holds = |team: &str, p: PowerId| {
            self.rs.power(p).capital.is_some_and(|cap| self.s.control[cap.index()].is_some_and(|q| teams.team_of(q) == Some(team)))
        };
        let (axis_name, allies_name) = (Side::Axis.name(), Side::Allies.name());
        let allies: Vec<PowerId> = teams.members(allies_name);
        let axis: Vec<PowerId> = teams.members(axis_name).into_iter().filter(|p| self.rs.power(*p).capital.is_some()).collect();
        let allied_capitals_taken = allies.iter().filter(|p| holds(axis_name, **p)).count();
        let axis_capitals_taken = axis.iter().filter(|p| holds(allies_name, **p)).count();
        let last_of_round = self.last_turn_of_round();
        let threshold = self.rs.options.axis_economic_victory as i32;
        let axis_value: i32 = axis.iter().map(|p| rel.territory_value(*p)).sum();
        let capitals_now = last_of_round || self.rs.options.capital_victory_checked == crate::ruleset::VictoryCheck::Turn;
        let win = if !capitals_now {
            None
        } else if allied_capitals_taken >= 2 {
            Some((axis_name, "the Axis hold two Allied capitals".to_string()))
        } else if !axis.is_empty() && axis_capitals_taken == axis.len() {
            Some((allies_name, "the Allies hold both Axis capitals".to_string()))
        } else if threshold > 0 && last_of_round && axis_value >= threshold {
            Some((axis_name, format!("the Axis control {axis_value} IPCs of territory (Magic {threshold})")))
        } else {
            None
        };
        if let Some((team, reason)) = win {
            let winner = Winner::team(&self.s.teams, team);
            self.s.winner = Some(winner.clone());
            self.events.push(Event::Victory { winner, reason });
        }
    }

    /// Knob `capital_victory = hold_one_for_a_round` (Europe): at the end of
    /// a power's turn its side wins if the power's own capital and an enemy
    /// capital have been its side's since the end of its previous turn;
    /// then what it holds now is noted for its next turn.
    fn check_capitals_held_for_a_round(&mut self) {
        let p = self.s.turn;
        let s = &self.s;
        let ours = |t: SpaceId| s.control[t.index()].is_some_and(|q| s.allied(p, q));
        let own_capital = self.rs.power(p).capital.is_some_and(ours);
        let enemy_capitals: Vec<SpaceId> = self
            .rs
            .power_ids()
            .filter(|q| !s.allied(p, *q))
            .filter_map(|q| self.rs.power(q).capital)
            .filter(|c| ours(*c))
            .collect();
        let held = s.capitals_held.iter().find(|(q, c)| *q == p && enemy_capitals.contains(c)).map(|(_, c)| *c);
        self.s.capitals_held.retain(|(q, _)| *q != p);
        if own_capital {
            self.s.capitals_held.extend(enemy_capitals.iter().map(|c| (p, *c)));
        }
        if let (true, Some(c)) = (own_capital, held) {
            let team = self.s.teams.team_of(p).unwrap_or_default().to_string();
            let winner = Winner::team(&self.s.teams, &team);
            let reason = format!("{} has held its capital and {} for a full round", self.power_name(p), self.name(c));
            self.s.winner = Some(winner.clone());
            self.events.push(Event::Victory { winner, reason });
        }
    }

    /// Whether the turn ending now is the round's last: no power after it
    /// in the order still takes turns (an eliminated China, or US, takes
    /// none, and the round ends before it).
    fn last_turn_of_round(&self) -> bool {
        let rel = self.rel();
        !self.s.order.iter().skip(self.s.turn_index() + 1).any(|p| rel.in_game(*p))
    }

    /// Knob `capital_victory = victory_cities` (Anniversary): at the end of a
    /// round, after the last power's turn, a side controlling at least
    /// `victory_cities` victory cities wins (FORMAT.md v2, "Victory": nothing
    /// else is asked).
    fn check_victory_cities(&mut self) {
        if !self.last_turn_of_round() {
            return;
        }
        let need = self.rs.options.victory_cities as usize;
        let cities: Vec<SpaceId> = self.rs.map.ids().filter(|t| self.rs.map.space(*t).victory_city).collect();
        for side in [Side::Axis, Side::Allies] {
            let team = side.name();
            let held = cities.iter().filter(|c| self.s.control[c.index()].is_some_and(|q| self.s.teams.team_of(q) == Some(team))).count();
            if need > 0 && held >= need {
                let winner = Winner::team(&self.s.teams, team);
                let reason = format!("the {team} control {held} victory cities (of {} needed)", need);
                self.s.winner = Some(winner.clone());
                self.events.push(Event::Victory { winner, reason });
                return;
            }
        }
    }

    /// Units bought but not placed are lost in classic; an option keeps them.
    fn lose_unplaced(&mut self) {
        if self.s.purchased.is_empty() {
            return;
        }
        if self.rs.options.unplaced_units_kept {
            let kept = std::mem::take(&mut self.s.purchased);
            let waiting = self.s.unplaced.entry(self.s.turn).or_default();
            for (kind, n) in kept {
                *waiting.entry(kind).or_default() += n;
            }
            return;
        }
        let units: Vec<_> = std::mem::take(&mut self.s.purchased).into_iter().filter(|(_, n)| *n > 0).collect();
        if !units.is_empty() {
            self.events.push(Event::LostUnplaced { units });
        }
    }
}
