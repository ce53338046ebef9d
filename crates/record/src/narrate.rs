//! A saved game told in words, turn by turn: purchases, moves with their
//! unit types and routes, battles with their dice, casualties, captures,
//! placements, income and victory. Used by `warboard replay`.

use crate::file::{Entry, Origin};
use crate::record::Record;
use std::collections::BTreeMap;
use warboard_rules::battle::BattleResult;
use warboard_rules::{Action, Event, GameState, Phase, PowerId, Ruleset, SpaceId, UnitId, UnitType};

/// The game of a record, one line per happening. The record was checked
/// when it was loaded or made, so its log replays; should it not, the
/// narration says where it stops.
pub fn narrate(record: &Record) -> Vec<String> {
    let (rolled, queued) = record.client_dice();
    let all_dice = rolled.into_iter().chain(queued).collect();
    let mut replay = match Record::for_replay(record.start().clone(), all_dice) {
        Ok(r) => r,
        Err(e) => return vec![format!("the game cannot be started again: {e}")],
    };
    let rs = replay.game().ruleset.clone();
    let mut story = Story { rs: &rs, lines: Vec::new(), heading: None };
    story.start(replay.state());
    for (i, entry) in record.log().iter().enumerate() {
        let before = replay.state().clone();
        if let Err(e) = replay.apply_resolved(entry.action.clone(), entry.resolved.clone(), entry.by) {
            story.lines.push(format!("(the replay stops at log[{i}]: {e})"));
            break;
        }
        story.entry(&before, replay.state(), entry);
    }
    story.lines
}

struct Story<'a> {
    rs: &'a Ruleset,
    lines: Vec<String>,
    /// The turn and phase the last heading named.
    heading: Option<(u32, PowerId, Phase)>,
}

impl Story<'_> {
    fn power(&self, p: PowerId) -> &str {
        self.rs.powers.get(p.index()).map(|x| x.id.as_str()).unwrap_or("?")
    }
    fn space(&self, s: SpaceId) -> &str {
        if s.index() < self.rs.map.len() {
            self.rs.map.name(s)
        } else {
            "?"
        }
    }

    fn start(&mut self, s: &GameState) {
        self.lines.push(format!(
            "{}: round {}, {}'s turn, {} phase",
            self.rs.title,
            s.round,
            self.power(s.turn),
            s.phase.name().replace('_', " ")
        ));
    }

    /// Headings for a new turn and for each phase in which something happens.
    fn under(&mut self, s: &GameState) {
        let here = (s.round, s.turn, s.phase);
        match self.heading {
            Some((r, p, _)) if (r, p) == (s.round, s.turn) => {}
            _ => {
                self.lines.push(String::new());
                self.lines.push(format!("== Round {}: {} ==", s.round, self.power(s.turn)));
            }
        }
        if self.heading != Some(here) {
            self.lines.push(format!("  [{}]", s.phase.name().replace('_', " ")));
            self.heading = Some(here);
        }
    }

    fn say(&mut self, s: &GameState, line: String) {
        self.under(s);
        self.lines.push(format!("    {line}"));
    }

    fn entry(&mut self, before: &GameState, after: &GameState, entry: &Entry) {
        let who = if entry.by == Origin::Engine { " (decided by the engine)" } else { "" };
        match &entry.resolved {
            Action::Battle { at } => self.say(before, format!("battle at {}{who}", self.space(*at))),
            Action::Resolve { at } => {
                let at = at.or_else(|| warboard_rules::battle::current(before).map(|i| before.battles[i].at));
                let place = at.map(|a| format!(" at {}", self.space(a))).unwrap_or_default();
                self.say(before, format!("battle{place} fought to the end with default decisions{who}"));
            }
            Action::Continue => self.say(before, format!("the attacker presses on{who}")),
            Action::Casualties { units } => {
                let chosen = self.units(before, units);
                let owner = units.first().and_then(|id| before.unit(*id)).map(|u| self.power(u.owner).to_string());
                let owner = owner.unwrap_or_else(|| "the deciding side".into());
                self.say(before, format!("{owner} takes as casualties: {chosen}{who}"));
            }
            Action::Surrender { side } => self.say(before, format!("the {} surrender", side.name())),
            _ => {}
        }
        for event in &entry.events {
            if let Some(line) = self.event(before, after, event) {
                self.say(before, line);
            }
        }
    }

    /// "3 infantry, 1 armor" for units looked up in a state.
    fn units(&self, s: &GameState, ids: &[UnitId]) -> String {
        let mut kinds: BTreeMap<UnitType, u32> = BTreeMap::new();
        let mut unknown = 0;
        for id in ids {
            match s.unit(*id) {
                Some(u) => *kinds.entry(u.kind).or_default() += 1,
                None => unknown += 1,
            }
        }
        let mut parts: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        if unknown > 0 {
            parts.push(format!("{unknown} unit(s)"));
        }
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }

    /// "2 infantry, 1 armor", in unit-table order whatever order they came in.
    fn counts(units: &[(UnitType, u32)]) -> String {
        let mut kinds: BTreeMap<UnitType, u32> = BTreeMap::new();
        for (k, n) in units {
            *kinds.entry(*k).or_default() += n;
        }
        kinds.iter().filter(|(_, n)| **n > 0).map(|(k, n)| format!("{n} {k}")).collect::<Vec<_>>().join(", ")
    }

    fn route(&self, route: &[SpaceId]) -> String {
        route.iter().map(|s| self.space(*s)).collect::<Vec<_>>().join(" → ")
    }

    fn event(&self, before: &GameState, after: &GameState, event: &Event) -> Option<String> {
        Some(match event {
            Event::PhaseStarted { .. } => return None,
            Event::Purchased { power, units, cost } => {
                format!("{} buys {} for {cost} IPCs", self.power(*power), Self::counts(units))
            }
            Event::Moved { units, route } => {
                let owner = units.first().and_then(|id| before.unit(*id)).map(|u| u.owner).unwrap_or(before.turn);
                format!("{} moves {}: {}", self.power(owner), self.units(before, units), self.route(route))
            }
            Event::NeutralTaken { at, by, fee } => {
                format!("{} enters neutral {}, paying {fee} IPCs", self.power(*by), self.space(*at))
            }
            Event::Captured { at, by, from } => match from {
                Some(from) => format!("{} captures {} from {}", self.power(*by), self.space(*at), self.power(*from)),
                None => format!("{} captures {}", self.power(*by), self.space(*at)),
            },
            Event::Liberated { at, for_power } => format!("{} is liberated for {}", self.space(*at), self.power(*for_power)),
            Event::BankTaken { from, to, amount } => {
                format!("{} takes {amount} IPCs from {}'s bank", self.power(*to), self.power(*from))
            }
            Event::Rolled { purpose, dice, hits } => {
                let faces: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
                format!("{purpose} rolls {} → {hits} hit(s)", faces.join(" "))
            }
            Event::Destroyed { units, at } => {
                let mut by_owner: BTreeMap<PowerId, BTreeMap<UnitType, u32>> = BTreeMap::new();
                for (_, kind, owner) in units {
                    *by_owner.entry(*owner).or_default().entry(*kind).or_default() += 1;
                }
                let parts: Vec<String> = by_owner
                    .iter()
                    .map(|(p, kinds)| {
                        let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
                        format!("{} {}", self.power(*p), list.join(", "))
                    })
                    .collect();
                format!("lost at {}: {}", self.space(*at), parts.join("; "))
            }
            Event::Withdrew { units, from, to } => {
                let what = self.units(before, units);
                match to {
                    Some(to) => format!("{what} withdraw from {} to {}", self.space(*from), self.space(*to)),
                    None => format!("{what} break off the attack at {}", self.space(*from)),
                }
            }
            Event::BattleEnded { at, result } => {
                let outcome = match result {
                    BattleResult::AttackerWon => "the attacker wins",
                    BattleResult::DefenderWon => "the defender holds",
                    BattleResult::Draw => "both sides are destroyed (the defender keeps the territory)",
                    BattleResult::Retreated => "the attacker retreats",
                    BattleResult::Pending | BattleResult::Ongoing => "not over",
                };
                format!("battle at {} ends: {outcome}", self.space(*at))
            }
            Event::Bombed { at, victim, ipcs } => {
                format!("the raid on {} costs {} {ipcs} IPCs", self.space(*at), self.power(*victim))
            }
            Event::Placed { at, units } => format!("{} places {} at {}", self.power(before.turn), Self::counts(units), self.space(*at)),
            Event::LostUnplaced { units } => format!("{} loses unplaced {}", self.power(before.turn), Self::counts(units)),
            Event::Developed { power, development } => format!("{} develops {}", self.power(*power), development.replace('_', " ")),
            Event::Income { power, amount } => {
                let bank = after.ipcs.get(power.index()).copied().unwrap_or(0);
                format!("{} collects {amount} IPCs (bank: {bank})", self.power(*power))
            }
            Event::Victory { side, reason } => format!("VICTORY for the {}: {reason}", side.name()),
        })
    }
}
