//! The game log: each accepted action told in a few short lines (moves,
//! battles with their dice and casualties, captures, income), with a kind
//! that the screen colours.

use std::collections::BTreeMap;
pub use warboard_record::narrate::Said;
use warboard_record::narrate::{self, Topic, Wording};
use warboard_rules::battle::{BattleKind, BattleResult, Decision};
use warboard_record::{Change, ClockEvent, CorrectionStep, Entry, TableEntry};
use warboard_rules::{Action, Event, GameState, Phase, PowerId, Ruleset, SpaceId, UnitId, UnitType};

/// "3 inf 1 arm" for a list of counts, in unit-table order, merging repeats.
pub fn counts_text(units: &[(UnitType, u32)]) -> String {
    let mut merged: BTreeMap<UnitType, u32> = BTreeMap::new();
    for (kind, n) in units {
        *merged.entry(*kind).or_default() += n;
    }
    let parts: Vec<String> = merged.iter().filter(|(_, n)| **n > 0).map(|(k, n)| format!("{n} {}", k.short())).collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(" ")
    }
}

/// Units in the log as the screen writes them: `2 inf 1 arm`, `LEN > UKR`.
const SHORT_NAMES: Wording = Wording { counts: counts_text, arrow: " > " };

/// What a log line is about, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A new turn.
    Turn,
    /// A new phase.
    Phase,
    Action,
    Battle,
    Dice,
    Loss,
    Capture,
    Income,
    Odds,
    Victory,
    /// Messages from the program itself (saved, loaded).
    Note,
}

impl LineKind {
    /// The kind's name where a line travels as data (the server's pushes).
    pub fn name(self) -> &'static str {
        match self {
            LineKind::Turn => "turn",
            LineKind::Phase => "phase",
            LineKind::Action => "action",
            LineKind::Battle => "battle",
            LineKind::Dice => "dice",
            LineKind::Loss => "loss",
            LineKind::Capture => "capture",
            LineKind::Income => "income",
            LineKind::Odds => "odds",
            LineKind::Victory => "victory",
            LineKind::Note => "note",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    pub kind: LineKind,
    pub text: String,
    /// For a line about units that a following line of the same group may
    /// be added to: the computer moves and places one unit at a time, and
    /// "russia places 8 inf at LEN" reads better than eight lines.
    pub group: Option<UnitGroup>,
    /// A line about one nation's shopping while the round's shopping is
    /// still on (Alternative: everybody shops at once, ALT L20): shown only
    /// to that nation's player until every nation is done.
    pub sealed: Option<Seal>,
    /// What the line says apart from its English words, for a front end
    /// in another language (`warboard_record::narrate::Said`).
    pub said: Option<Said>,
}

/// Whose shopping a sealed line tells, and in which round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seal {
    pub round: u32,
    pub power: warboard_rules::PowerId,
}

/// "{head} {units}{tail}": a line whose units can be added up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitGroup {
    pub head: String,
    pub tail: String,
    pub units: Vec<(UnitType, u32)>,
}

impl LogLine {
    pub fn new(kind: LineKind, text: impl Into<String>) -> LogLine {
        LogLine { kind, text: text.into(), group: None, sealed: None, said: None }
    }

    /// A line with what it says (see [`Said`]).
    pub fn told(kind: LineKind, text: impl Into<String>, said: Said) -> LogLine {
        LogLine { kind, text: text.into(), group: None, sealed: None, said: Some(said) }
    }

    /// A line of units that the next of its group joins; `said` names the
    /// units as `units`, which joining updates.
    fn grouped(kind: LineKind, head: String, units: Vec<(UnitType, u32)>, tail: String, mut said: Said) -> LogLine {
        let counts = counts_text(&units);
        let text = format!("{head} {counts}{tail}");
        said.set("units", counts);
        LogLine { kind, text, group: Some(UnitGroup { head, tail, units }), sealed: None, said: Some(said) }
    }

    /// Adds `next` to this line if both are of one group; says whether it did.
    pub fn absorb(&mut self, next: &LogLine) -> bool {
        let (Some(mine), Some(theirs)) = (&mut self.group, &next.group) else { return false };
        if self.kind != next.kind || self.sealed != next.sealed || mine.head != theirs.head || mine.tail != theirs.tail {
            return false;
        }
        mine.units.extend(theirs.units.iter().copied());
        let counts = counts_text(&mine.units);
        self.text = format!("{} {counts}{}", mine.head, mine.tail);
        if let Some(said) = &mut self.said {
            said.set("units", counts);
        }
        true
    }
}

/// A saved game as the terminal game tells it (see [`story`]).
pub struct Story {
    pub lines: Vec<LogLine>,
    /// Where the replay stopped, if it did.
    pub stopped: Option<String>,
    /// Where the round's shopping began, when the game stands in it (what
    /// each nation may see of the others is measured from there).
    pub shopping_start: Option<GameState>,
}

/// A saved game told as the terminal game tells it live (issue 15, point
/// 10): one style in the game, after a load and in `warboard replay`, the
/// computer's one-unit moves and placements grouped. Lines of a round's
/// shopping are sealed for the nation that shopped (see [`Seal`]).
pub fn story(record: &warboard_record::Record) -> Story {
    let rs = record.game().ruleset.clone();
    let mut lines: Vec<LogLine> = Vec::new();
    let mut shopping_start: Option<GameState> = None;
    let stopped = narrate::walk(record, |before, after, entry| {
        if lines.is_empty() {
            let phase = before.phase.name().replace('_', " ");
            let (round, power) = (before.round.to_string(), rs.power(before.turn).id.clone());
            let from = Said::new("story_from", &[("title", &rs.title), ("round", &round), ("power", &power), ("phase", before.phase.name())]);
            lines.push(LogLine::told(LineKind::Note, format!("{}: from round {round}, {power}'s turn, {phase} phase", rs.title), from));
            let heading = if rs.turn.round_phases.is_empty() {
                LogLine::told(LineKind::Turn, format!("== round {round}: {power} =="), Said::new("round_heading", &[("round", &round), ("power", &power)]))
            } else {
                LogLine::told(LineKind::Turn, format!("== round {round} =="), Said::new("round_only", &[("round", &round)]))
            };
            lines.push(heading);
        }
        let shopping = before.phase == Phase::Shopping;
        if shopping && shopping_start.as_ref().is_none_or(|s| s.round != before.round) {
            shopping_start = Some(before.clone());
        }
        let seal = shopping
            .then(|| entry.action.value().get("power").and_then(|v| v.as_str()).and_then(|name| rs.power_by_name(name)))
            .flatten()
            .map(|power| Seal { round: before.round, power });
        for mut line in describe(&rs, before, after, entry) {
            line.sealed = seal;
            if !lines.last_mut().is_some_and(|last| last.absorb(&line)) {
                lines.push(line);
            }
        }
    });
    let now = record.state();
    let shopping_start = shopping_start.filter(|s| now.phase == Phase::Shopping && s.round == now.round);
    Story { lines, stopped: stopped.err(), shopping_start }
}

/// Tells one entry of the log: `before` and `after` are the states around it.
pub fn describe(rs: &Ruleset, before: &GameState, after: &GameState, entry: &Entry) -> Vec<LogLine> {
    match &entry.resolved {
        Some(action) => describe_action(rs, before, after, action, &entry.events),
        None => Teller { rs }.table_entry(&entry.action.value()).into_iter().collect(),
    }
}

/// Tells one rules action and what it did.
pub fn describe_action(rs: &Ruleset, before: &GameState, after: &GameState, action: &Action, events: &[Event]) -> Vec<LogLine> {
    let t = Teller { rs };
    let mut lines = Vec::new();
    if let Some(line) = t.action(before, action) {
        lines.push(line);
    }
    // The engine reports a move after what happened on the way (AA fire,
    // captures); told in the order a person thinks of it, the move comes first.
    let (moves, rest): (Vec<&Event>, Vec<&Event>) = events.iter().partition(|e| matches!(e, Event::Moved { .. }));
    for e in moves.into_iter().chain(rest) {
        if let Some(line) = t.event(before, after, e) {
            lines.push(line);
        }
    }
    lines
}

struct Teller<'a> {
    rs: &'a Ruleset,
}

impl Teller<'_> {
    fn power(&self, p: PowerId) -> &str {
        narrate::power(self.rs, p)
    }
    fn space(&self, s: SpaceId) -> &str {
        narrate::space(self.rs, s)
    }
    fn route(&self, route: &[SpaceId]) -> String {
        route.iter().map(|s| self.space(*s)).collect::<Vec<_>>().join(" > ")
    }
    /// "2 inf 1 arm" for units looked up in a state.
    fn units(&self, s: &GameState, ids: &[UnitId]) -> String {
        let kinds: Vec<(UnitType, u32)> = ids.iter().filter_map(|id| s.unit(*id)).map(|u| (u.kind, 1)).collect();
        counts_text(&kinds)
    }

    /// A table entry's line: the host's clock, a correction (issue 31,
    /// points 1 and 7).
    fn table_entry(&self, action: &serde_json::Value) -> Option<LogLine> {
        let entry = TableEntry::parse(self.rs, action).ok()??;
        let names = |powers: &[PowerId]| powers.iter().map(|p| self.power(*p)).collect::<Vec<_>>().join(", ");
        let (kind, text, key, args): (LineKind, String, &'static str, Vec<(&'static str, String)>) = match entry {
            TableEntry::Clock { event, powers, .. } => {
                let who = names(&powers);
                let (text, key) = match event {
                    ClockEvent::Reminder => (format!("reminder to {who}: half the time for the move is gone"), "clock_reminder"),
                    ClockEvent::LateReminder => (format!("last reminder to {who}: nine tenths of the time for the move are gone"), "clock_late_reminder"),
                    ClockEvent::Expired => (format!("{who}: the time for the move ran out"), "clock_expired"),
                    ClockEvent::TakenOver => (format!("the computer plays {who} until their player reclaims the seat"), "clock_taken_over"),
                    ClockEvent::Reclaimed => (format!("{who}: their player is back and plays on"), "clock_reclaimed"),
                };
                (LineKind::Note, text, key, vec![("powers", who)])
            }
            TableEntry::Correction { power, step } => {
                let who = self.power(power).to_string();
                let (text, key, n) = match step {
                    CorrectionStep::Propose(Change::TakeBack { to }) => {
                        (format!("{who} proposes a correction: take back the log from entry {to} on"), "correction_proposed", to)
                    }
                    CorrectionStep::Propose(change @ Change::Position { .. }) => {
                        let what = change.describe(0);
                        let line = format!("{who} proposes {what}");
                        return Some(LogLine::told(LineKind::Note, line, Said::new("correction_position", &[("power", &who), ("what", &what)])));
                    }
                    CorrectionStep::Approve { proposal } => {
                        (format!("{who} approves the correction proposed in entry {proposal}: the game goes back"), "correction_approved", proposal)
                    }
                    CorrectionStep::Decline { proposal } => {
                        (format!("{who} declines the correction proposed in entry {proposal}"), "correction_declined", proposal)
                    }
                };
                (LineKind::Note, text, key, vec![("power", who), ("n", n.to_string())])
            }
        };
        let args: Vec<(&'static str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        Some(LogLine::told(kind, text, Said::new(key, &args)))
    }

    /// A line for actions whose events alone would not say what was done.
    fn action(&self, before: &GameState, action: &Action) -> Option<LogLine> {
        let line = |kind, text: String, key: &'static str, args: &[(&'static str, &str)]| Some(LogLine::told(kind, text, Said::new(key, args)));
        let deciding = || warboard_rules::battle::current(before).map(|i| self.space(before.battles[i].at).to_string()).unwrap_or_default();
        let raid_at = |at: SpaceId| before.battles.iter().any(|b| b.at == at && b.kind == BattleKind::Bombing && !b.result.is_over());
        match action {
            // A raid is told as a raid, not an attack fought to the end
            // (issue 33, point 11).
            Action::Battle { at } | Action::Resolve { at: Some(at) } if raid_at(*at) => {
                let (who, at) = (self.power(before.turn), self.space(*at));
                line(LineKind::Battle, format!("{who} raids the industrial complex at {at}"), "raids", &[("power", who), ("at", at)])
            }
            Action::Battle { at } if !before.battles.iter().any(|b| b.at == *at && b.result == BattleResult::Ongoing) => {
                let (who, at) = (self.power(before.turn), self.space(*at));
                line(LineKind::Battle, format!("{who} attacks {at}"), "attacks", &[("power", who), ("at", at)])
            }
            Action::Resolve { at } => {
                let at = at.map(|a| self.space(a).to_string()).unwrap_or_else(deciding);
                line(LineKind::Battle, format!("battle at {at}: fought to the end with default choices"), "resolved", &[("at", &at)])
            }
            // Who goes on, from the decision it answers (issue 33, point 10:
            // a defender's submarines staying read "the attacker presses on").
            Action::Continue => {
                let (who, key) = match warboard_rules::battle::decision(self.rs, before).map(|(_, d)| d) {
                    Some(Decision::AttackerSubmarines) => ("the attacking submarines stay in the battle", "attacking_submarines_stay"),
                    Some(Decision::DefenderSubmarines) => ("the defending submarines stay in the battle", "defending_submarines_stay"),
                    _ => ("the attacker presses on", "presses_on"),
                };
                let at = deciding();
                line(LineKind::Battle, format!("battle at {at}: {who}"), key, &[("at", &at)])
            }
            Action::Casualties { units } => {
                let (at, what) = (deciding(), self.units(before, units));
                line(LineKind::Battle, format!("battle at {at}: casualties chosen: {what}"), "casualties_chosen", &[("at", &at), ("units", &what)])
            }
            Action::Research { dice, chart: Some(c), .. } => {
                let (who, n, chart) = (self.power(before.turn), dice.to_string(), c.to_string());
                let text = format!("{who} hires {dice} researcher{}; researchers roll on chart {c}", if *dice == 1 { "" } else { "s" });
                line(LineKind::Action, text, "researchers_hired", &[("power", who), ("count", &n), ("chart", &chart)])
            }
            Action::Research { dice, .. } => {
                let (who, n) = (self.power(before.turn), dice.to_string());
                line(LineKind::Action, format!("{who} buys {dice} research dice"), "research_dice", &[("power", who), ("count", &n)])
            }
            _ => None,
        }
    }

    fn event(&self, before: &GameState, after: &GameState, event: &Event) -> Option<LogLine> {
        let (kind, text, said) = match event {
            Event::PhaseStarted { power, phase, round } => {
                let (who, r, ph) = (self.power(*power), round.to_string(), phase.name());
                if *phase == Phase::Research {
                    (LineKind::Turn, format!("== round {round}: {who} =="), Said::new("round_heading", &[("round", &r), ("power", who)]))
                } else if self.rs.turn.round_phases.contains(phase) {
                    // A phase of the whole round (Alternative payday and
                    // shopping): every nation's, not one power's.
                    (LineKind::Phase, format!("-- round {round}: {} (every nation)", ph.replace('_', " ")), Said::new("round_phase", &[("round", &r), ("phase", ph)]))
                } else {
                    (LineKind::Phase, format!("-- {who} {}", ph.replace('_', " ")), Said::new("phase", &[("power", who), ("phase", ph)]))
                }
            }
            Event::Purchased { .. } => {
                let (topic, text, said) = narrate::event_told(self.rs, before, after, event, &SHORT_NAMES)?;
                debug_assert_eq!(topic, Topic::Action);
                (LineKind::Action, text, said)
            }
            Event::Moved { units, route } => {
                let owner = units.first().and_then(|id| before.unit(*id)).map(|u| u.owner).unwrap_or(before.turn);
                let kinds = units.iter().filter_map(|id| before.unit(*id)).map(|u| (u.kind, 1)).collect();
                let head = format!("{} moves", self.power(owner));
                let said = Said::new("moved", &[("power", self.power(owner)), ("route", &self.route(route))]);
                return Some(LogLine::grouped(LineKind::Action, head, kinds, format!(": {}", self.route(route)), said));
            }
            Event::Placed { at, units } => {
                // The newest unit there was just placed, by its owner (every
                // nation places in the Alternative rules' shopping).
                let by = after.units.iter().filter(|u| u.at == *at).max_by_key(|u| u.id).map_or(before.turn, |u| u.owner);
                let head = format!("{} places", self.power(by));
                let said = Said::new("placed", &[("power", self.power(by)), ("at", self.space(*at))]);
                return Some(LogLine::grouped(LineKind::Action, head, units.clone(), format!(" at {}", self.space(*at)), said));
            }
            // Everything else is told as `warboard replay` tells it.
            other => {
                let (topic, text, said) = narrate::event_told(self.rs, before, after, other, &SHORT_NAMES)?;
                let kind = match topic {
                    Topic::Action => LineKind::Action,
                    Topic::Battle => LineKind::Battle,
                    Topic::Dice => LineKind::Dice,
                    Topic::Loss => LineKind::Loss,
                    Topic::Capture => LineKind::Capture,
                    Topic::Income => LineKind::Income,
                    Topic::Victory => LineKind::Victory,
                };
                // Dice and losses belong to the battle above them.
                let text = if matches!(kind, LineKind::Dice | LineKind::Loss) && !text.starts_with("the raid") { format!("  {text}") } else { text };
                (kind, text, said)
            }
        };
        Some(LogLine::told(kind, text, said))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warboard_rules::{Game, SeededDice};

    #[test]
    fn a_purchase_and_the_phase_change_are_told() {
        let rs = warboard_rules::ruleset("classic").expect("classic loads");
        let mut game = Game::standard(rs.clone());
        let mut dice = SeededDice::new(1);
        game.apply(&Action::EndPhase, &mut dice).expect("research ends");
        let before = game.state.clone();
        let buy = Action::Purchase { units: vec![(UnitType::Infantry, 2), (UnitType::Armor, 1)] };
        let events = game.apply(&buy, &mut dice).expect("Russia can afford 11 IPCs");
        let lines = describe_action(&rs, &before, &game.state, &buy, &events);
        assert!(lines.iter().any(|l| l.kind == LineKind::Action && l.text == "russia buys 2 inf 1 arm for 11 IPCs"), "{lines:?}");
        let before = game.state.clone();
        let events = game.apply(&Action::EndPhase, &mut dice).expect("purchase ends");
        let lines = describe_action(&rs, &before, &game.state, &Action::EndPhase, &events);
        let said = Said::new("phase", &[("power", "russia"), ("phase", "combat_move")]);
        assert_eq!(lines, vec![LogLine::told(LineKind::Phase, "-- russia combat move", said)], "told, and what it says for other languages");
    }

    #[test]
    fn moves_along_one_route_add_up() {
        let rs = warboard_rules::ruleset("classic").expect("classic loads");
        let mut game = Game::standard(rs.clone());
        let mut dice = SeededDice::new(1);
        for _ in 0..4 {
            game.apply(&Action::EndPhase, &mut dice).expect("on to non-combat move");
        }
        let (mos, len) = (rs.map.id("MOS").expect("MOS"), rs.map.id("LEN").expect("LEN"));
        let mut lines: Vec<LogLine> = Vec::new();
        for kind in [UnitType::Infantry, UnitType::Infantry, UnitType::Armor] {
            let id = game.state.units.iter().find(|u| u.at == mos && u.kind == kind).map(|u| u.id).expect("Moscow has it");
            let before = game.state.clone();
            let action = Action::Move { units: vec![id], route: vec![mos, len], transport: None, bombing: false };
            let events = game.apply(&action, &mut dice).expect("a move within Russia");
            for line in describe_action(&rs, &before, &game.state, &action, &events) {
                if !lines.last_mut().is_some_and(|last| last.absorb(&line)) {
                    lines.push(line);
                }
            }
        }
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(lines[0].text, "russia moves 2 inf 1 arm: MOS > LEN");
        let said = lines[0].said.as_ref().expect("what the line says");
        assert_eq!((said.key, said.arg("units"), said.arg("route")), ("moved", Some("2 inf 1 arm"), Some("MOS > LEN")), "joining counts the units in every language");
    }
}
