//! One game in the engine: the record, which powers the client plays, and
//! the engine's turns for the others.

use crate::autoplay;
use crate::vocab::{self, Awaiting, Summary};
use serde_json::{json, Value};
use warboard_record::{ApplyError, DiceMode, Entry, Origin, Record};
use warboard_ai::{PlanningPlayer, Player};
use warboard_rules::game::Actor;
use warboard_rules::{GameState, PowerId};

/// The most actions the engine takes in a row for the powers it plays:
/// a full round of passive turns is well under a hundred; this only stops a
/// runaway loop should the rules ever refuse to move on.
const MAX_ENGINE_ACTIONS: usize = 10_000;

/// Refusals in a row after which the engine falls back on the defaults.
const MAX_REFUSALS: u32 = 50;

/// A failed command: a stable code and a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    pub code: String,
    pub message: String,
}

impl Failure {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Failure {
        Failure { code: code.into(), message: message.into() }
    }
}

impl From<ApplyError> for Failure {
    fn from(e: ApplyError) -> Failure {
        Failure::new(e.code(), e.to_string())
    }
}

pub(crate) struct Session {
    pub record: Record,
    /// The powers the client plays, in turn order.
    pub client: Vec<PowerId>,
    /// Plays the other powers, thinking `new`'s `think` a turn (with no
    /// budget, the standard planner).
    computer: PlanningPlayer,
}

impl Session {
    /// A session over a record; `powers` names the client's powers (all of
    /// them when `None`).
    pub fn new(record: Record, powers: Option<&[String]>, think: u64) -> Result<Session, Failure> {
        let rs = &record.game().ruleset;
        let client = match powers {
            None => rs.power_ids().collect(),
            Some(names) => {
                let mut ids = Vec::new();
                for name in names {
                    let p = rs.power_by_name(name).ok_or_else(|| {
                        let known: Vec<&str> = rs.powers.iter().map(|p| p.id.as_str()).collect();
                        Failure::new("start/unknown-power", format!("unknown power `{name}` (powers: {})", known.join(", ")))
                    })?;
                    if !ids.contains(&p) {
                        ids.push(p);
                    }
                }
                ids.sort();
                ids
            }
        };
        // The planner's dice samples follow the game's seed, so a seeded
        // game with the same requests repeats exactly.
        let seed = match record.dice_mode() {
            DiceMode::Seeded { seed } => seed,
            DiceMode::Client => 0,
        };
        Ok(Session { record, client, computer: PlanningPlayer::new(seed, think) })
    }

    pub fn awaiting(&self) -> Awaiting {
        match self.record.game().actor() {
            Actor::Terminal => Awaiting::Nobody,
            Actor::Power(p) if self.client.contains(&p) => Awaiting::Client,
            Actor::Power(_) if self.record.dice_mode() == DiceMode::Client => Awaiting::Dice,
            Actor::Power(_) => Awaiting::Engine,
        }
    }

    pub fn summary(&self) -> Summary {
        vocab::summary(&self.record, &self.client, self.awaiting(), self.computer.think_ms())
    }

    /// Applies the client's action, streams its events, then lets the engine
    /// act for the powers it plays.
    pub fn apply(&mut self, action: &Value, seq: Option<u64>, emit: &mut dyn FnMut(Value)) -> Result<(), Failure> {
        let state = self.record.state();
        if let Some(seq) = seq {
            if seq != state.seq {
                return Err(Failure::new(
                    "game/stale-seq",
                    format!("the action was made against seq {seq}, but the game is at seq {}: read the state again", state.seq),
                ));
            }
        }
        match self.record.game().actor() {
            Actor::Terminal => {
                let rs = &self.record.game().ruleset;
                let winner = state.winner.as_ref().map(|w| w.describe(|p| rs.power(p).id.clone())).unwrap_or_else(|| "nobody".into());
                return Err(Failure::new("game/over", format!("the game is over: the {winner} have won")));
            }
            Actor::Power(p) if !self.client.contains(&p) => {
                let name = vocab::power(&self.record.game().ruleset, p);
                let why = match self.awaiting() {
                    Awaiting::Dice => "; it waits for client dice (the `dice` command)",
                    _ => "",
                };
                return Err(Failure::new("game/not-your-turn", format!("{name} acts now, and the engine plays it{why}")));
            }
            Actor::Power(_) => {}
        }
        // The power the action is taken by: the one it names (FORMAT v2
        // `power`: in a phase of the whole round, which nation acts; a
        // nation surrendering alone), else the one the game waits for. It
        // must be one the client plays; the rules then judge whether that
        // power may act now (issue 34: the check looked only at who acts
        // first, so a client could shop for the engine's nations).
        let named = warboard_conform::case::acting_power(self.record.game(), action).map_err(|e| Failure::new("action/malformed", e))?;
        if let Some(p) = named.filter(|p| !self.client.contains(p)) {
            let name = vocab::power(&self.record.game().ruleset, p);
            return Err(Failure::new("game/not-your-turn", format!("{name} is played by the engine, not by this client")));
        }
        // Surrender is open at any moment, but only for a side the client plays.
        if action.get("type").and_then(Value::as_str) == Some("surrender") {
            let teams = &state.teams;
            let team = action.get("side").and_then(Value::as_str);
            if team.is_some_and(|team| !self.client.iter().any(|p| teams.team_of(*p) == Some(team))) {
                return Err(Failure::new("game/not-your-side", "the client may surrender only a side it plays"));
            }
        }
        let before = state.clone();
        let entry = self.record.apply(action, Origin::Client)?.clone();
        emit_events(&self.record, &before, &entry, emit);
        self.engine_turns(emit);
        Ok(())
    }

    /// The engine acts for the powers the client does not play, until a
    /// client power acts, the game ends, or client dice run out.
    pub fn engine_turns(&mut self, emit: &mut dyn FnMut(Value)) {
        let mut refused = 0;
        for _ in 0..MAX_ENGINE_ACTIONS {
            let Actor::Power(p) = self.record.game().actor() else { return };
            if self.client.contains(&p) {
                return;
            }
            // The computer player proposes; after many refusals in a row the
            // book's defaults take over (end the phase, resolve battles).
            let (action, proposed) = if refused < MAX_REFUSALS {
                let a = self.computer.next_action(self.record.game());
                (warboard_record::action_to_format(&a, &self.record.game().ruleset), Some(a))
            } else {
                (autoplay::default_action(&self.record), None)
            };
            // In a phase of the whole round the action names its power.
            let mut action = action;
            if self.record.game().round_phase() {
                if let Value::Object(fields) = &mut action {
                    fields.insert("power".into(), Value::String(vocab::power(&self.record.game().ruleset, p)));
                }
            }
            let before = self.record.state().clone();
            match self.record.apply(&action, Origin::Engine) {
                Ok(entry) => {
                    refused = 0;
                    let entry = entry.clone();
                    let power = vocab::power(&self.record.game().ruleset, p);
                    emit(json!({"event": "engine_action", "power": power, "action": action}));
                    emit_events(&self.record, &before, &entry, emit);
                }
                Err(ApplyError::NeedDice { .. }) => return,
                Err(e @ (ApplyError::Rejected(_) | ApplyError::NoSuchUnits(_))) if proposed.is_some() => {
                    refused += 1;
                    let why = match e {
                        ApplyError::Rejected(r) => r,
                        other => warboard_rules::RuleError::new("action/no-such-units", other.to_string()),
                    };
                    self.computer.rejected(proposed.as_ref().expect("checked above"), &why);
                }
                Err(e) => {
                    emit(json!({"event": "engine_stuck", "action": action, "code": e.code(), "message": e.to_string()}));
                    return;
                }
            }
        }
        // Never stop in silence (docs/protocol.md, `engine_stuck`).
        emit(json!({
            "event": "engine_stuck",
            "action": null,
            "code": "engine/action-limit",
            "message": format!("the engine made {MAX_ENGINE_ACTIONS} actions in a row for the powers it plays and stopped; save and load the game to go on"),
        }));
    }
}

fn emit_events(record: &Record, before: &GameState, entry: &Entry, emit: &mut dyn FnMut(Value)) {
    let rs = &record.game().ruleset;
    for event in &entry.events {
        emit(vocab::event_json(rs, before, record.state(), event));
    }
}
