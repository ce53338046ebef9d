//! The engine: answers requests, one at a time. Every request gets any
//! number of `event` replies and then exactly one `ok` or `error`; a request
//! that fails changes nothing, and no line, however wrong, stops the engine.

use crate::legal;
use crate::message::{Command, DiceChoice, NewGame, Reply, Request, PROTOCOL_VERSION};
use crate::parse::parse_line;
use crate::session::{Failure, Session};
use crate::vocab;
use serde_json::{json, Value};
use std::path::Path;
use warboard_record::{DiceMode, Position, Record, Start};

/// The most client dice that may wait in a game's queue: far more than the
/// biggest battle needs, far less than a save may hold.
pub const MAX_QUEUED_DICE: usize = 100_000;

/// Whether the session goes on after a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// An engine session: no game until `new` or `load`.
#[derive(Default)]
pub struct Engine {
    session: Option<Session>,
}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
    }

    /// The first line the engine writes.
    pub fn hello() -> Reply {
        Reply::Hello { protocol: PROTOCOL_VERSION, engine: format!("warboard {}", env!("CARGO_PKG_VERSION")) }
    }

    /// Answers one request line; `out` receives each reply as it is made.
    pub fn handle_line(&mut self, line: &str, out: &mut dyn FnMut(Reply)) -> Flow {
        match parse_line(line) {
            Ok(request) => self.handle(request, out),
            Err(e) => {
                out(e.to_reply());
                Flow::Continue
            }
        }
    }

    /// Answers one request.
    pub fn handle(&mut self, request: Request, out: &mut dyn FnMut(Reply)) -> Flow {
        let Request { id, command } = request;
        let cmd = command.name();
        let flow = if command == (Command::Quit {}) { Flow::Quit } else { Flow::Continue };
        let mut emit = |event: Value| out(Reply::Event { id: id.clone(), event });
        let outcome = self.run(command, &mut emit);
        out(match outcome {
            Ok(result) => Reply::Ok { id, cmd: cmd.into(), result },
            Err(f) => Reply::Error { id, cmd: Some(cmd.into()), code: f.code, message: f.message },
        });
        flow
    }

    fn run(&mut self, command: Command, emit: &mut dyn FnMut(Value)) -> Result<Value, Failure> {
        match command {
            Command::New(args) => self.new_game(args, emit),
            Command::Load { path, powers, think } => self.load(&path, powers.as_deref(), think, emit),
            Command::Quit {} => Ok(json!({})),
            other => {
                let Some(session) = self.session.as_mut() else {
                    return Err(Failure::new("game/none", "there is no game yet: start one with `new` or `load`"));
                };
                run_in_game(session, other, emit)
            }
        }
    }

    fn new_game(&mut self, args: NewGame, emit: &mut dyn FnMut(Value)) -> Result<Value, Failure> {
        check_think(args.think)?;
        let dice = match (args.dice, args.seed) {
            (DiceChoice::Seeded, Some(seed)) => DiceMode::Seeded { seed },
            (DiceChoice::Seeded, None) => DiceMode::Seeded { seed: warboard_record::fresh_seed() },
            (DiceChoice::Client, None) => DiceMode::Client,
            (DiceChoice::Client, Some(_)) => {
                return Err(Failure::new("protocol/bad-field", "`new`: a `seed` goes with dice \"seeded\", not with dice \"client\""))
            }
        };
        let start =
            Start { ruleset: args.ruleset, options: args.options, position: Position { setup: args.setup, state: args.state }, dice };
        let record = Record::new(start).map_err(|e| Failure::new(e.code(), e.to_string()))?;
        self.begin(record, args.powers.as_deref(), args.think, emit)
    }

    fn load(&mut self, path: &str, powers: Option<&[String]>, think: u64, emit: &mut dyn FnMut(Value)) -> Result<Value, Failure> {
        // Checked before the file is read and replayed.
        check_think(think)?;
        let text = read_save(Path::new(path))?;
        let record = Record::load(&text).map_err(|e| Failure::new(e.code(), format!("{path}: {e}")))?;
        // A game from an older save without a record hash says so (issue
        // 34): what that hash would have covered is unverified.
        let (migrated_from, note) = (record.migrated_from(), record.migration_note());
        let mut result = self.begin(record, powers, think, emit)?;
        if let Some(v) = migrated_from {
            result["migrated_from"] = json!(v);
            result["unverified"] = json!(note);
        }
        Ok(result)
    }

    /// Replaces the game (only once the new one is ready: a failed `new` or
    /// `load` keeps the old game) and lets the engine act for its powers.
    fn begin(&mut self, record: Record, powers: Option<&[String]>, think: u64, emit: &mut dyn FnMut(Value)) -> Result<Value, Failure> {
        let mut session = Session::new(record, powers, think)?;
        session.engine_turns(emit);
        let seed = match session.record().dice_mode() {
            DiceMode::Seeded { seed } => Some(seed),
            DiceMode::Client | DiceMode::Proof => None,
        };
        let result = json!({"seed": seed, "summary": session.summary()});
        self.session = Some(session);
        Ok(result)
    }
}

fn run_in_game(session: &mut Session, command: Command, emit: &mut dyn FnMut(Value)) -> Result<Value, Failure> {
    match command {
        Command::Save { path } => {
            let text = session.record().to_save_string();
            write_save(Path::new(&path), &text)?;
            Ok(json!({"path": path, "actions": session.record().log().len(), "hash": warboard_record::state_hash(session.record().state())}))
        }
        Command::State { full } => {
            let mut result = json!({"summary": session.summary()});
            if full {
                let game = session.record().game();
                result["position"] = vocab::position_json(&game.ruleset, &game.state);
            }
            Ok(result)
        }
        Command::Legal { offset, limit } => {
            let page = match session.awaiting() {
                crate::vocab::Awaiting::Client => legal::legal_page(session.record(), offset, limit),
                // Nothing is the client's to do now: an empty page.
                _ => legal::LegalPage {
                    seq: session.record().state().seq,
                    actor: None,
                    total: 0,
                    offset,
                    limit: limit.unwrap_or(legal::DEFAULT_LIMIT).min(legal::MAX_LIMIT),
                    items: Vec::new(),
                },
            };
            let mut result = serde_json::to_value(page).unwrap_or_default();
            result["awaiting"] = serde_json::to_value(session.awaiting()).unwrap_or_default();
            Ok(result)
        }
        Command::Apply { action, seq } => {
            session.apply(&action, seq, emit)?;
            Ok(json!({"summary": session.summary()}))
        }
        Command::Undo {} => {
            let undone = session.undo()?;
            Ok(json!({"undone": undone.action, "summary": session.summary()}))
        }
        Command::Dice { values } => {
            if session.record().dice_mode() != DiceMode::Client {
                return Err(Failure::new(
                    "dice/not-client",
                    "this game rolls its own dice from its seed; start a game with dice \"client\" to supply them",
                ));
            }
            // The queue is saved with the game: unbounded, it could grow past
            // what any loader reads (issue 34: 280 MB of queued dice).
            let queued = session.record().queued_dice();
            if queued.saturating_add(values.len()) > MAX_QUEUED_DICE {
                return Err(Failure::new(
                    "dice/too-many",
                    format!("at most {MAX_QUEUED_DICE} dice wait in the queue; {queued} do now: supply more once some are used"),
                ));
            }
            session.supply_dice(&values).map_err(|m| Failure::new("dice/bad-value", m))?;
            // The engine may have been waiting for these dice.
            session.engine_turns(emit);
            Ok(json!({"queued": session.record().queued_dice(), "summary": session.summary()}))
        }
        Command::New(_) | Command::Load { .. } | Command::Quit {} => Ok(json!({})),
    }
}


/// Reads a save through the one bounded loader every reader uses.
fn read_save(path: &Path) -> Result<String, Failure> {
    warboard_record::read_save(path).map_err(|e| {
        let code = match e {
            warboard_record::DiskError::NotText { .. } => "save/not-json",
            _ => "save/unreadable",
        };
        Failure::new(code, e.to_string())
    })
}

/// Writes the file whole or not at all, through the one save path every
/// writer uses (`warboard_record::write_save`).
fn write_save(path: &Path, text: &str) -> Result<(), Failure> {
    warboard_record::write_save(path, text.as_bytes()).map_err(|e| Failure::new("save/io", e.to_string()))
}

/// A thinking budget the engine accepts.
fn check_think(think: u64) -> Result<(), Failure> {
    if think > crate::message::MAX_THINK_MS {
        return Err(Failure::new("protocol/bad-field", format!("`think` is {think} ms; at most {} ms a turn", crate::message::MAX_THINK_MS)));
    }
    Ok(())
}
