//! The turn sequence: ending phases, starting turns, income and victory.

use super::Ctx;
use crate::action::{reject, Event, RuleError};
use crate::battle::BattleResult;
use crate::ids::{PowerId, Side};
use crate::state::Phase;

impl Ctx<'_> {
    pub fn end_phase(&mut self) -> Result<(), RuleError> {
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
                    return reject(
                        "combat/battles-remain",
                        format!("every declared battle must be fought before combat ends: {}", open.join(", ")),
                    );
                }
            }
            Phase::NoncombatMove => self.land_aircraft(),
            Phase::Place => self.lose_unplaced(),
            Phase::Income => {
                let p = self.s.turn;
                let amount = self.rel().income(p);
                self.s.ipcs[p.index()] += amount;
                self.events.push(Event::Income { power: p, amount });
                self.check_victory();
                if self.s.winner.is_none() {
                    self.next_turn();
                }
                return Ok(());
            }
            Phase::Research | Phase::Purchase => {}
        }
        self.s.phase = self.s.phase.next().expect("income is the last phase");
        self.events.push(Event::PhaseStarted { power: self.s.turn, phase: self.s.phase, round: self.s.round });
        Ok(())
    }

    /// The next power in turn order that is still in the game.
    fn next_turn(&mut self) {
        let n = self.rs.power_count() as u8;
        let mut p = self.s.turn;
        for _ in 0..n {
            let next = PowerId((p.0 + 1) % n);
            if next.0 == 0 {
                self.s.round += 1;
            }
            p = next;
            if self.rel().in_game(p) {
                break;
            }
        }
        self.s.turn = p;
        self.s.phase = Phase::Research;
        self.begin_turn();
        self.events.push(Event::PhaseStarted { power: p, phase: Phase::Research, round: self.s.round });
    }

    /// Clears last turn's bookkeeping.
    pub fn begin_turn(&mut self) {
        let p = self.s.turn;
        self.s.start_control = self.s.control.clone();
        self.s.conquered.iter_mut().for_each(|c| *c = false);
        // Units kept from an earlier turn wait to be placed again.
        self.s.purchased = self.s.unplaced.remove(&p).unwrap_or_default();
        self.s.placed.clear();
        self.s.neutral_fees = 0;
        self.s.battles.clear();
        let transports_of_p: Vec<_> = self
            .s
            .units
            .iter()
            .filter(|u| u.owner == p && self.rs.stats(u.kind).transport_capacity > 0)
            .map(|u| u.id)
            .collect();
        for u in &mut self.s.units {
            let shuttled = u.flags.shuttled;
            u.flags = Default::default();
            u.moved = 0;
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
        let rel = self.rel();
        let holds = |side: Side, p: PowerId| {
            let cap = self.rs.power(p).capital;
            self.s.control[cap.index()].is_some_and(|q| self.rs.side(q) == side)
        };
        let allies: Vec<PowerId> = self.rs.power_ids().filter(|p| self.rs.side(*p) == Side::Allies).collect();
        let axis: Vec<PowerId> = self.rs.power_ids().filter(|p| self.rs.side(*p) == Side::Axis).collect();
        let allied_capitals_taken = allies.iter().filter(|p| holds(Side::Axis, **p)).count();
        let axis_capitals_taken = axis.iter().filter(|p| holds(Side::Allies, **p)).count();
        let last_of_round = self.s.turn.0 as usize + 1 == self.rs.power_count();
        let threshold = self.rs.options.axis_economic_victory as i32;
        let axis_value: i32 = axis.iter().map(|p| rel.territory_value(*p)).sum();
        let capitals_now = last_of_round || self.rs.options.capital_victory_checked == crate::ruleset::VictoryCheck::Turn;
        let win = if !capitals_now {
            None
        } else if allied_capitals_taken >= 2 {
            Some((Side::Axis, "the Axis hold two Allied capitals".to_string()))
        } else if !axis.is_empty() && axis_capitals_taken == axis.len() {
            Some((Side::Allies, "the Allies hold both Axis capitals".to_string()))
        } else if threshold > 0 && last_of_round && axis_value >= threshold {
            Some((Side::Axis, format!("the Axis control {axis_value} IPCs of territory (Magic {threshold})")))
        } else {
            None
        };
        if let Some((side, reason)) = win {
            self.s.winner = Some(side);
            self.events.push(Event::Victory { side, reason });
        }
    }

    /// Units bought but not placed are lost in classic; an option keeps them.
    fn lose_unplaced(&mut self) {
        if self.s.purchased.is_empty() {
            return;
        }
        if self.rs.options.unplaced_units_kept {
            let kept = std::mem::take(&mut self.s.purchased);
            self.s.unplaced.insert(self.s.turn, kept);
            return;
        }
        let units: Vec<_> = std::mem::take(&mut self.s.purchased).into_iter().filter(|(_, n)| *n > 0).collect();
        if !units.is_empty() {
            self.events.push(Event::LostUnplaced { units });
        }
    }
}
