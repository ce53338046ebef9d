//! A game kept as a log of accepted actions, with undo within a turn.

use crate::dice::{DiceMode, DiceStream, Tally};
use crate::error::{ApplyError, LoadError, StartError, UndoError};
use crate::file::{self, ActionText, DiceRecord, Entry, OptionsRecord, Origin, SaveFile};
use crate::hash::state_hash;
use crate::limits;
use crate::names::names_now;
use crate::start::Start;
use serde_json::Value;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use warboard_conform::case::{self, ParseError};
use warboard_rules::{Action, Event, Game, GameState, RuleError, SeededDice, UnitId};

/// How far undo reaches, in a sentence for documentation and clients.
pub const UNDO_POLICY: &str = "undo takes back the client's last actions of the current turn, one at a time and \
across the turn's phases, back to the most recent action that rolled dice, ended a turn, ended the game or was made \
by the engine";

/// A game: its start, its log, and the state the log leads to.
#[derive(Clone, Debug)]
pub struct Record {
    start: Start,
    game: Game,
    /// Names the starting position gave to units (FORMAT.md's `id`).
    position_names: HashMap<String, UnitId>,
    dice: DiceStream,
    log: Vec<Entry>,
    /// The state before each entry at the end of the log that may still be
    /// undone, oldest first.
    undo: Vec<GameState>,
    /// The save format version of a file without a whole-record hash that
    /// this game was loaded from, at any point of its history (issue 34,
    /// finding 2): such a file's queued client dice and `by` marks were
    /// never covered by a hash, so every later save says so rather than
    /// passing the game off as verified from its start.
    migrated_from: Option<u64>,
}

impl Record {
    /// Starts a game.
    pub fn new(start: Start) -> Result<Record, StartError> {
        let built = start.build()?;
        let dice = DiceStream::new(start.dice);
        Ok(Record { start, game: built.game, position_names: built.names, dice, log: Vec::new(), undo: Vec::new(), migrated_from: None })
    }

    /// Reads a save file, replays its log and checks it (see [`LoadError`]).
    pub fn load(text: &str) -> Result<Record, LoadError> {
        crate::load::load(text)
    }

    pub fn start(&self) -> &Start {
        &self.start
    }
    pub fn game(&self) -> &Game {
        &self.game
    }
    pub fn state(&self) -> &GameState {
        &self.game.state
    }
    pub fn log(&self) -> &[Entry] {
        &self.log
    }
    pub fn dice_mode(&self) -> DiceMode {
        self.start.dice
    }
    /// Client dice supplied and not yet used (0 in a seeded game).
    pub fn queued_dice(&self) -> usize {
        self.dice.queued()
    }
    /// The version of the file without a record hash this game was loaded
    /// from, if it ever was (version 1 or 2): what that file held beyond
    /// what a replay checks (the queued client dice, who made each action)
    /// is unverified. `None` for a game begun here or loaded from verified
    /// files only.
    pub fn migrated_from(&self) -> Option<u64> {
        self.migrated_from
    }

    /// A sentence for readers of a game with [`Record::migrated_from`], the
    /// same for every loader; `None` for a verified game.
    pub fn migration_note(&self) -> Option<String> {
        self.migrated_from.map(|v| {
            format!(
                "this game comes from a version {v} save, which had no record hash: its queued client dice and who made each \
                 action up to then are unverified (the replay checks everything else)"
            )
        })
    }

    pub(crate) fn set_migrated_from(&mut self, version: Option<u64>) {
        self.migrated_from = version;
    }

    /// How many actions [`Record::undo`] can take back now.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// Every unit name an action may use now: the position's names and
    /// `u<number>` for every unit.
    pub fn names(&self) -> HashMap<String, UnitId> {
        names_now(&self.game.state, &self.position_names)
    }

    /// Adds client-supplied dice (a game started with [`DiceMode::Client`]).
    pub fn supply_dice(&mut self, values: &[u8]) -> Result<(), String> {
        self.dice.supply(values)
    }

    /// Turns a FORMAT.md action into a rules-core action on the current state.
    pub fn resolve(&self, action: &Value) -> Result<Action, ApplyError> {
        limits::check_action(action).map_err(ApplyError::Malformed)?;
        let names = crate::names::names_in(action, &self.game.state, &self.position_names);
        catch_unwind(AssertUnwindSafe(|| case::action(&self.game, &names, action)))
            .map_err(|panic| ApplyError::Internal(panic_message(panic)))?
            .map_err(|e| match e {
                ParseError::Malformed(m) => ApplyError::Malformed(m),
                ParseError::NoSuchUnits(m) => ApplyError::NoSuchUnits(m),
            })
    }

    /// What a rules-core action would do now, or why it would be rejected;
    /// nothing changes. A seeded game tries it with a copy of its dice. A
    /// game with client dice tries it with stand-in dice, so that an empty
    /// queue does not make every battle look illegal; they are random rather
    /// than fixed because a battle fought to its end with dice that always
    /// miss would never end.
    pub fn trial(&self, action: &Action) -> Result<Vec<Event>, RuleError> {
        let mut copy = self.game.clone();
        let verdict = catch_unwind(AssertUnwindSafe(|| match &self.dice {
            DiceStream::Seeded(_) => copy.apply(action, &mut Tally::new(&self.dice)),
            DiceStream::Client { .. } => copy.apply(action, &mut SeededDice::new(self.game.state.seq)),
        }));
        verdict.unwrap_or_else(|panic| Err(RuleError::new("engine/internal", panic_message(panic))))
    }

    /// Applies a FORMAT.md action and logs it, or rejects it and changes
    /// nothing (the state, the dice and the log stay as they were).
    pub fn apply(&mut self, action: &Value, by: Origin) -> Result<&Entry, ApplyError> {
        let resolved = self.resolve(action)?;
        self.apply_resolved(action, resolved, by)
    }

    /// Applies an action already resolved from `action` on this state.
    pub(crate) fn apply_resolved(&mut self, action: &Value, resolved: Action, by: Origin) -> Result<&Entry, ApplyError> {
        let mut tally = Tally::new(&self.dice);
        let before = self.game.state.clone();
        // The rules core promises never to panic; if it does all the same, the
        // game is unchanged (apply replaces the state only on success) and the
        // client gets an error instead of a dead engine.
        // `power` on an action (FORMAT v2): the rules core checks that it
        // may act now (and, in a phase of the whole round, that is who acts).
        let power = case::acting_power(&self.game, action).map_err(ApplyError::Malformed)?;
        let outcome = catch_unwind(AssertUnwindSafe(|| self.game.apply_as(power, &resolved, &mut tally)));
        let events = match outcome {
            Err(panic) => {
                self.game.state = before;
                return Err(ApplyError::Internal(panic_message(panic)));
            }
            Ok(Err(e)) if e.code == "dice/exhausted" && matches!(self.dice, DiceStream::Client { .. }) => {
                return Err(ApplyError::NeedDice { queued: self.dice.queued() });
            }
            Ok(Err(e)) => return Err(ApplyError::Rejected(e)),
            Ok(Ok(events)) => events,
        };
        self.dice = tally.stream;
        // The log lives as long as the game: no spare capacity in it.
        let (mut dice, mut events) = (tally.drawn, events);
        dice.shrink_to_fit();
        events.shrink_to_fit();
        let entry = Entry { action: ActionText::new(action), by, resolved, dice, events };
        if undoable(&entry, &before, &self.game.state) && self.game.state.winner.is_none() {
            self.undo.push(before);
        } else {
            self.undo.clear();
        }
        self.log.push(entry);
        Ok(self.log.last().expect("an entry was just pushed"))
    }

    /// Takes back the last action, if the undo policy allows it
    /// ([`UNDO_POLICY`]), and returns it.
    pub fn undo(&mut self) -> Result<Entry, UndoError> {
        let Some(before) = self.undo.pop() else {
            return Err(self.why_no_undo());
        };
        self.game.state = before;
        // An undoable entry drew no dice, so the dice stream is as it was.
        self.log.pop().ok_or(UndoError::Nothing)
    }

    /// The state the next undo would return to, if the undo policy allows
    /// one: whoever acted there is who took the action an undo takes back.
    pub fn undo_target(&self) -> Option<&GameState> {
        self.undo.last()
    }

    fn why_no_undo(&self) -> UndoError {
        let Some(last) = self.log.last() else { return UndoError::Nothing };
        if self.game.state.winner.is_some() {
            UndoError::GameOver
        } else if last.by == Origin::Engine {
            UndoError::ByEngine
        } else if !last.dice.is_empty() {
            UndoError::DiceRolled
        } else {
            UndoError::PhaseStart
        }
    }

    /// The save file's text. Saving, loading and saving again gives the same
    /// bytes.
    pub fn to_save_string(&self) -> String {
        let (rolled, queued) = self.dice.client_dice();
        let dice = match self.start.dice {
            DiceMode::Seeded { seed } => DiceRecord::Seeded { seed },
            DiceMode::Client => DiceRecord::Client { rolled, queued },
        };
        file::render(&SaveFile {
            ruleset: &self.start.ruleset,
            options: OptionsRecord { changed: self.start.options.clone(), canonical: self.game.ruleset.options.canonical() },
            position: &self.start.position,
            dice,
            log: &self.log,
            snapshot: &self.game.state,
            hash: state_hash(&self.game.state),
            migrated_from: self.migrated_from,
        })
    }

    /// For the loader: room for a log of `entries` entries, taken at once
    /// rather than doubled as the replay grows it.
    pub(crate) fn reserve_log(&mut self, entries: usize) {
        self.log.reserve_exact(entries);
    }

    /// For the loader: a record at the start of a saved game whose client
    /// dice (consumed and queued) are all in the queue, to be consumed again
    /// by the replay.
    pub(crate) fn for_replay(start: Start, client_dice: Vec<u8>) -> Result<Record, StartError> {
        let mut record = Record::new(start)?;
        if let DiceStream::Client { queued, .. } = &mut record.dice {
            queued.extend(client_dice);
        }
        Ok(record)
    }

    pub(crate) fn client_dice(&self) -> (Vec<u8>, Vec<u8>) {
        self.dice.client_dice()
    }
}

/// An entry that undo may take back: the client's, without dice, not ending
/// the game, and where it ends a phase, one that keeps the same power's
/// turn (issue 15, point 1: undo reaches back across the phases of the
/// player's own turn; the dice already rolled stay rolled, since an entry
/// with dice is never undone and clears the way back).
fn undoable(entry: &Entry, before: &GameState, after: &GameState) -> bool {
    let same_turn = before.turn == after.turn && before.round == after.round && before.phase != after.phase;
    entry.by == Origin::Client
        && entry.dice.is_empty()
        && match entry.resolved {
            Action::Surrender { .. } => false,
            Action::EndPhase => same_turn,
            _ => true,
        }
}

pub(crate) fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the rules engine panicked".into())
}
