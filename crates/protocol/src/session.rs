//! One game in the engine: the record, which powers the client plays, and
//! the engine's turns for the others.

use crate::vocab::{self, Awaiting, Summary};
use serde_json::{json, Value};
use warboard_record::{ApplyError, DiceMode, Origin, Record};
use warboard_rules::PowerId;
use warboard_table::{Applied, Refusal, Step, Table};

/// The most actions the engine takes in a row for the powers it plays:
/// a full round of passive turns is well under a hundred; this only stops a
/// runaway loop should the rules ever refuse to move on.
const MAX_ENGINE_ACTIONS: usize = 10_000;

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
    /// The game: the record, the engine's powers (those the client does
    /// not play) and their computer players.
    table: Table,
    /// The powers the client plays, in turn order.
    pub client: Vec<PowerId>,
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
        let computer = rs.power_ids().map(|p| !client.contains(&p)).collect();
        Ok(Session { table: Table::new(record, computer, think), client })
    }

    pub fn record(&self) -> &Record {
        self.table.record()
    }

    pub fn awaiting(&self) -> Awaiting {
        match self.table.actor() {
            None => Awaiting::Nobody,
            Some(p) if self.client.contains(&p) => Awaiting::Client,
            Some(_) if self.record().dice_mode() == DiceMode::Client => Awaiting::Dice,
            Some(_) => Awaiting::Engine,
        }
    }

    pub fn summary(&self) -> Summary {
        vocab::summary(self.record(), &self.client, self.awaiting(), self.table.think_ms())
    }

    /// Applies the client's action, streams its events, then lets the engine
    /// act for the powers it plays.
    pub fn apply(&mut self, action: &Value, seq: Option<u64>, emit: &mut dyn FnMut(Value)) -> Result<(), Failure> {
        let now = self.record().state().seq;
        if let Some(seq) = seq.filter(|seq| *seq != now) {
            return Err(Failure::new(
                "game/stale-seq",
                format!("the action was made against seq {seq}, but the game is at seq {now}: read the state again"),
            ));
        }
        let applied = self.table.act(&self.client, action, Origin::Client).map_err(|refusal| self.failure(refusal))?;
        emit_events(self.record(), &applied, emit);
        self.engine_turns(emit);
        Ok(())
    }

    /// The protocol's words for a refusal: its own codes for acting outside
    /// the client's powers (docs/protocol.md), where a client waiting on
    /// the engine's dice is told so.
    fn failure(&self, refusal: Refusal) -> Failure {
        match &refusal {
            Refusal::NotYourPower { power, .. } => {
                let why = match self.awaiting() {
                    Awaiting::Dice => "; it waits for client dice (the `dice` command)",
                    _ => "",
                };
                Failure::new("game/not-your-turn", format!("{power} is played by the engine, not by this client{why}"))
            }
            Refusal::NotYourTeam { .. } => Failure::new("game/not-your-side", "the client may surrender only a side it plays"),
            other => Failure::new(other.code(), other.to_string()),
        }
    }

    /// Takes back the client's last action.
    pub fn undo(&mut self) -> Result<warboard_record::Entry, Failure> {
        self.table.undo(&self.client).map_err(|refusal| self.failure(refusal))
    }

    pub fn supply_dice(&mut self, values: &[u8]) -> Result<(), String> {
        self.table.supply_dice(values)
    }

    /// The engine acts for the powers the client does not play, until a
    /// client power acts, the game ends, or client dice run out.
    pub fn engine_turns(&mut self, emit: &mut dyn FnMut(Value)) {
        for _ in 0..MAX_ENGINE_ACTIONS {
            match self.table.step_computer() {
                Step::Idle | Step::NeedDice => return,
                Step::Refused => {}
                Step::Acted(applied) => {
                    let power = vocab::power(&self.record().game().ruleset, applied.power);
                    emit(json!({"event": "engine_action", "power": power, "action": applied.entry.action.value()}));
                    emit_events(self.record(), &applied, emit);
                }
                Step::Stuck { action, refusal } => {
                    emit(json!({"event": "engine_stuck", "action": action, "code": refusal.code(), "message": refusal.to_string()}));
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

fn emit_events(record: &Record, applied: &Applied, emit: &mut dyn FnMut(Value)) {
    let rs = &record.game().ruleset;
    for event in &applied.entry.events {
        emit(vocab::event_json(rs, &applied.before, record.state(), event));
    }
}
