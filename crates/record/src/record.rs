//! A game kept as a log of accepted actions, with undo within a turn.

use crate::dice::{DiceMode, DiceStream, EntryDice, Tally};
use crate::error::{ApplyError, LoadError, StartError, UndoError};
use crate::proven::{Chain, ProofSummary};
use crate::file::{self, ActionText, DiceRecord, Entry, OptionsRecord, Origin, ProofRecord, SaveFile};
use crate::hash::state_hash;
use crate::limits;
use crate::names::names_now;
use crate::start::Start;
use crate::table_entry::{Approved, Change, CorrectionStep, Corrections, TableEntry};
use serde_json::Value;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use warboard_conform::case::{self, ParseError};
use warboard_proof::{Entry as ProofEntry, Header, Link, LinkProof, ProofError, SignedReceipt};
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
    /// A proven game's chain (dice source `proof`, docs/pbem.md); `None`
    /// until a header is attached, and in every other game.
    chain: Option<Box<Chain>>,
    /// Where the game's corrections by consent stand (`table_entry.rs`).
    corrections: Corrections,
}

/// An action read for the record: a rules action resolved on the current
/// state, or a table entry the rules core never sees.
#[derive(Clone, Debug)]
pub(crate) enum Parsed {
    Rules(Action),
    Table(TableEntry),
}

impl Parsed {
    /// What a log entry keeps as `resolved`.
    pub(crate) fn resolved(&self) -> Option<&Action> {
        match self {
            Parsed::Rules(action) => Some(action),
            Parsed::Table(_) => None,
        }
    }
}

impl Record {
    /// Starts a game.
    pub fn new(start: Start) -> Result<Record, StartError> {
        let built = start.build()?;
        let dice = DiceStream::new(start.dice);
        Ok(Record {
            start,
            game: built.game,
            position_names: built.names,
            dice,
            log: Vec::new(),
            undo: Vec::new(),
            migrated_from: None,
            chain: None,
            corrections: Corrections::default(),
        })
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

    /// Reads an action: a table entry (`table_entry.rs`), or a FORMAT.md
    /// action resolved on the current state.
    pub(crate) fn parse(&self, action: &Value) -> Result<Parsed, ApplyError> {
        limits::check_action(action).map_err(ApplyError::Malformed)?;
        match TableEntry::parse(&self.game.ruleset, action).map_err(ApplyError::Malformed)? {
            Some(table) => Ok(Parsed::Table(table)),
            None => self.resolve(action).map(Parsed::Rules),
        }
    }

    /// The table entry `action` is (`table_entry.rs`), or `None` for a
    /// rules action.
    pub fn table_entry(&self, action: &Value) -> Result<Option<TableEntry>, ApplyError> {
        TableEntry::parse(&self.game.ruleset, action).map_err(ApplyError::Malformed)
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
            DiceStream::Client { .. } | DiceStream::Proof(_) => copy.apply(action, &mut SeededDice::new(self.game.state.seq)),
        }));
        verdict.unwrap_or_else(|panic| Err(RuleError::new("engine/internal", panic_message(panic))))
    }

    /// Whether `action` would roll dice now, or why it would be refused;
    /// nothing changes. Whether an action draws its first die never depends
    /// on dice, so stand-in dice tell it: what a proven game asks before it
    /// names a beacon round for the action.
    pub fn would_roll(&self, action: &Value) -> Result<bool, ApplyError> {
        let resolved = match self.parse(action)? {
            Parsed::Rules(resolved) => resolved,
            // A table entry never rolls; whether it may be made is checked
            // as it is applied.
            Parsed::Table(_) => return Ok(false),
        };
        let power = case::acting_power(&self.game, action).map_err(ApplyError::Malformed)?;
        let mut copy = self.game.clone();
        let mut dice = Counting { inner: SeededDice::new(self.game.state.seq), drawn: 0 };
        match catch_unwind(AssertUnwindSafe(|| copy.apply_as(power, &resolved, &mut dice))) {
            Ok(Ok(_)) => Ok(dice.drawn > 0),
            Ok(Err(e)) => Err(ApplyError::Rejected(e)),
            Err(panic) => Err(ApplyError::Internal(panic_message(panic))),
        }
    }

    /// Applies a FORMAT.md action and logs it, or rejects it and changes
    /// nothing (the state, the dice and the log stay as they were).
    pub fn apply(&mut self, action: &Value, by: Origin) -> Result<&Entry, ApplyError> {
        if self.start.dice == DiceMode::Proof {
            return Err(ApplyError::NeedsLink);
        }
        let parsed = self.parse(action)?;
        self.apply_parsed(action, parsed, by)
    }

    /// Applies an action read by [`Record::parse`] on this state.
    pub(crate) fn apply_parsed(&mut self, action: &Value, parsed: Parsed, by: Origin) -> Result<&Entry, ApplyError> {
        match parsed {
            Parsed::Rules(resolved) => self.apply_resolved(action, resolved, by),
            Parsed::Table(table) => self.apply_table(action, table, by),
        }
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
        let entry = Entry { action: ActionText::new(action), by, resolved: Some(resolved), dice, events, proof: None };
        // A proven game's chain only grows: its corrections are entries of their own.
        if undoable(&entry, &before, &self.game.state) && self.game.state.winner.is_none() && self.chain.is_none() {
            self.undo.push(before);
        } else {
            self.undo.clear();
        }
        // A rules action after a proposal lets it lapse: the position it
        // would correct has moved on.
        self.corrections.pending = None;
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
        if self.chain.is_some() {
            UndoError::Proven
        } else if self.game.state.winner.is_some() {
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
        let dice = match (self.start.dice, &self.chain) {
            (DiceMode::Seeded { seed }, _) => DiceRecord::Seeded { seed },
            (DiceMode::Client, _) => DiceRecord::Client { rolled, queued },
            (DiceMode::Proof, Some(chain)) => DiceRecord::Proof(Box::new(chain.record())),
            // Not written: `write_save` refuses a proven game without its chain.
            (DiceMode::Proof, None) => DiceRecord::Client { rolled, queued },
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

/// A proven game (dice source `proof`, docs/pbem.md): its chain, and
/// actions applied with their links.
impl Record {
    /// What a proven game's header must name: the ruleset with its options,
    /// and the starting position's hash.
    pub fn proof_binding(&self) -> Result<(String, [u8; 32]), StartError> {
        let label = crate::proven::ruleset_label(&self.start.ruleset, &self.game.ruleset.options.canonical());
        Ok((label, crate::hash::state_digest(&self.start.build()?.game.state)))
    }

    /// Gives a proven game, before its first action, its chain's header.
    pub fn attach_proof(&mut self, header: Header) -> Result<(), ProofError> {
        self.attach_chain(ProofRecord { header, witnessed: Vec::new(), seed: None })
    }

    pub(crate) fn attach_chain(&mut self, record: ProofRecord) -> Result<(), ProofError> {
        if self.start.dice != DiceMode::Proof {
            return Err(ProofError::BadHeader("the game was not started with dice \"proof\"".into()));
        }
        if !self.log.is_empty() || self.chain.is_some() {
            return Err(ProofError::BadHeader("a chain is attached before the game's first action, once".into()));
        }
        let (label, start) = self.proof_binding().map_err(|e| ProofError::BadHeader(e.to_string()))?;
        self.chain = Some(Box::new(Chain::new(record, &label, start)?));
        Ok(())
    }

    pub fn proof_header(&self) -> Option<&Header> {
        self.chain.as_ref().map(|c| &c.header)
    }

    pub fn proof_summary(&self) -> Option<ProofSummary> {
        self.chain.as_ref().map(|c| c.summary(&self.log))
    }

    /// The next entry of the chain for `action` by `seat`, to be signed and
    /// receipted; `beacon_round` where the action may roll (beacon mode).
    pub fn next_entry(&self, seat: &str, action: &Value, beacon_round: Option<u64>) -> Result<ProofEntry, ApplyError> {
        let chain = self.chain.as_ref().ok_or(ApplyError::Proof(ProofError::BadHeader("this game has no proof chain".into())))?;
        Ok(ProofEntry {
            n: chain.verifier.next_n(),
            prev: chain.verifier.head(),
            seat: seat.to_string(),
            action: ActionText::new(action).as_str().to_string(),
            state_hash_before: crate::hash::state_digest(&self.game.state),
            beacon_round,
        })
    }

    /// Applies `action` with its link in the chain: the link is checked
    /// (order, signatures, receipt, beacon round, the position it was signed
    /// for), then the action with the link's dice. `host_seed` is the
    /// server mode's secret seed, for the host that holds it. A refusal
    /// changes nothing.
    pub fn apply_link(&mut self, action: &Value, by: Origin, link: &Link, host_seed: Option<&[u8; 32]>) -> Result<&Entry, ApplyError> {
        let parsed = self.parse(action)?;
        self.apply_link_resolved(action, parsed, by, link, host_seed, None)
    }

    /// As [`Record::apply_link`], for an action resolved already; a loader
    /// passes the dice a save recorded, used while the host's seed is secret.
    pub(crate) fn apply_link_resolved(
        &mut self,
        action: &Value,
        parsed: Parsed,
        by: Origin,
        link: &Link,
        host_seed: Option<&[u8; 32]>,
        recorded: Option<&[u8]>,
    ) -> Result<&Entry, ApplyError> {
        let chain = self.chain.as_ref().ok_or(ApplyError::Proof(ProofError::BadHeader("this game has no proof chain".into())))?;
        let text = ActionText::new(action);
        let (verified, verifier) = chain.check(link, text.as_str(), crate::hash::state_digest(&self.game.state)).map_err(ApplyError::Proof)?;
        let n = verified.n;
        let dice = match (verified.dice, host_seed, recorded) {
            (Some(dice), _, _) => EntryDice::Proven(Box::new(dice)),
            (None, Some(seed), _) if verifier.dice_pending() => {
                if let warboard_proof::DiceMode::Server { commitment } = &chain.header.dice {
                    warboard_proof::check_seed(seed, commitment).map_err(ApplyError::Proof)?;
                }
                EntryDice::Proven(Box::new(warboard_proof::ProofDice::for_entry(seed, &verifier.game_id(), n, &verified.entry_hash)))
            }
            (None, None, Some(recorded)) if verifier.dice_pending() => EntryDice::Recorded(recorded.iter().copied().collect()),
            _ => EntryDice::None,
        };
        self.dice = DiceStream::Proof(dice);
        let before = Before { dice: DiceStream::Proof(EntryDice::None), ..self.before() };
        let outcome = self.apply_parsed(action, parsed, by);
        let outcome = match outcome {
            Err(ApplyError::Rejected(e)) if e.code == "dice/exhausted" => Err(ApplyError::Proof(ProofError::NoDice { n })),
            other => other.map(|_| ()),
        };
        let DiceStream::Proof(left) = std::mem::replace(&mut self.dice, DiceStream::Proof(EntryDice::None)) else { unreachable!("set above") };
        outcome?;
        if let EntryDice::Recorded(left) = left {
            if !left.is_empty() {
                self.retract_last(before);
                return Err(ApplyError::Proof(ProofError::Malformed(format!("entry {n} records {} dice more than its action rolls", left.len()))));
            }
        }
        if let Some(chain) = self.chain.as_mut() {
            chain.verifier = verifier;
            chain.last = Some(link.clone());
        }
        let entry = self.log.last_mut().expect("an entry was just applied");
        entry.proof = Some(Box::new(LinkProof::of(link)));
        Ok(entry)
    }

    /// The link of the last entry applied in this session (a loaded game's
    /// last link, or the one just taken): its receipt is what a server
    /// sends every seat.
    pub fn last_link(&self) -> Option<&Link> {
        self.chain.as_ref().and_then(|c| c.last.as_ref())
    }

    /// Whether the game's dice are proven (a chain is attached).
    pub fn proven(&self) -> bool {
        self.chain.is_some()
    }

    /// The link a save keeps as `proof` beside log entry `n`, rebuilt as the
    /// chain's next one.
    pub(crate) fn link_for(&self, n: usize, proof: &LinkProof, action: &str) -> Link {
        let chain = self.chain.as_ref().expect("only for proven games");
        proof.link(&chain.header.game_id, n as u64, chain.verifier.head(), action)
    }

    /// After the last entry: no receipt names one past it.
    pub(crate) fn finish_chain(&self) -> Result<(), ProofError> {
        self.chain.as_ref().map_or(Ok(()), |c| c.verifier.finish())
    }

    /// Applies an entry as another copy of this game recorded it (a
    /// server's log, read back or written by another server): with the link
    /// it carries where the game is proven (`host_seed`: the server mode's
    /// secret seed, for the host), and then it must roll the dice it
    /// recorded; as a plain action otherwise.
    pub fn apply_recorded(&mut self, entry: &Entry, host_seed: Option<&[u8; 32]>) -> Result<&Entry, ApplyError> {
        let action = entry.action.value();
        let before = self.before();
        let applied = match (&self.chain, &entry.proof) {
            (Some(_), Some(proof)) => {
                let link = self.link_for(self.log.len(), proof, entry.action.as_str());
                let parsed = self.parse(&action)?;
                self.apply_link_resolved(&action, parsed, entry.by, &link, host_seed, Some(&entry.dice))?
            }
            (Some(_), None) => return Err(ApplyError::NeedsLink),
            (None, Some(_)) => return Err(ApplyError::Malformed("a proof on an entry of a game whose dice are not proven".into())),
            (None, None) => self.apply(&action, entry.by)?,
        };
        if applied.dice != entry.dice {
            let n = self.log.len() as u64 - 1;
            self.retract_last(before);
            return Err(ApplyError::Proof(ProofError::Malformed(format!("entry {n} rolls other dice than the ones it recorded"))));
        }
        Ok(self.log.last().expect("just applied"))
    }

    /// Takes back the entry just applied when a check after it fails: the
    /// state and dice as they were, no undo across it.
    fn retract_last(&mut self, before: Before) {
        self.log.pop();
        self.game.state = before.state;
        self.dice = before.dice;
        self.corrections = before.corrections;
        self.undo.clear();
    }

    /// What [`Record::retract_last`] restores.
    fn before(&self) -> Before {
        Before { state: self.game.state.clone(), dice: self.dice.clone(), corrections: self.corrections.clone() }
    }

    /// Every link of the chain, rebuilt from the log (for turn files).
    pub fn links(&self) -> Vec<Link> {
        let Some(chain) = &self.chain else { return Vec::new() };
        let game_id = chain.header.game_id;
        let mut prev = chain.header.hash();
        let mut links = Vec::with_capacity(self.log.len());
        for (n, entry) in self.log.iter().enumerate() {
            let Some(proof) = &entry.proof else { break };
            let link = proof.link(&game_id, n as u64, prev, entry.action.as_str());
            prev = warboard_proof::link_hash(&game_id, &link.entry.entry, &link.receipt.receipt);
            links.push(link);
        }
        links
    }

    /// Keeps a receipt a seat collected apart from the chain: it must be the
    /// server's and name no other entry than the chain's (or the record now
    /// holds the server's proof of a fork, refused as `record/equivocation`).
    pub fn witness(&mut self, receipt: SignedReceipt) -> Result<(), ProofError> {
        let chain = self.chain.as_mut().ok_or(ProofError::BadHeader("this game has no proof chain".into()))?;
        // The verifier holds every receipt of the chain so far: another
        // entry under a number is its equivocation; it keeps nothing on one.
        chain.verifier.witness(&receipt)?;
        chain.witnessed.push(receipt);
        Ok(())
    }

    /// The server mode's seed, revealed when the game ends: the whole game
    /// is checked again with it (every die of every entry), and kept only if
    /// it holds.
    pub fn reveal_seed(&mut self, seed: [u8; 32]) -> Result<(), LoadError> {
        if self.chain.is_none() {
            return Err(LoadError::Proof { index: None, error: ProofError::BadHeader("this game has no proof chain".into()) });
        }
        let mut copy = self.clone();
        copy.chain.as_mut().expect("checked above").seed = Some(seed);
        let reloaded = Record::load(&copy.to_save_string())?;
        *self = reloaded;
        Ok(())
    }
}

/// The record as it was before an entry, to restore when a check after
/// applying it fails.
struct Before {
    state: GameState,
    dice: DiceStream,
    corrections: Corrections,
}

/// Table entries (`table_entry.rs`): the host's clock notes and
/// corrections by consent.
impl Record {
    /// Where the game's corrections stand: the open proposal, and every
    /// correction approved (the entries each took back stay in the log).
    pub fn corrections(&self) -> &Corrections {
        &self.corrections
    }

    fn apply_table(&mut self, action: &Value, table: TableEntry, by: Origin) -> Result<&Entry, ApplyError> {
        let refuse = |code: &'static str, message: String| Err(ApplyError::Rejected(RuleError::new(code, message)));
        if let Some(w) = &self.game.state.winner {
            let rs = &self.game.ruleset;
            return refuse("game/over", format!("the game is over: {} won", w.describe(|p| rs.power(p).id.clone())));
        }
        let n = self.log.len();
        let mut corrections = self.corrections.clone();
        let mut state = None;
        match table {
            TableEntry::Clock { .. } if by != Origin::Engine => {
                return refuse("table/host-only", "only the host's clock notes reminders, expiries and changes of seat".into())
            }
            TableEntry::Clock { .. } => {}
            TableEntry::Correction { step: CorrectionStep::Propose(change), .. } => {
                if let Some((proposal, _)) = &corrections.pending {
                    return refuse(
                        "correction/pending",
                        format!("entry {proposal} proposes a correction already: it is approved or declined before another is proposed"),
                    );
                }
                match &change {
                    Change::TakeBack { to } => self.check_take_back(*to, corrections.floor())?,
                    // Tried now, so that a position that cannot be is refused
                    // before the other side is asked.
                    Change::Position { .. } => drop(self.corrected(&self.game.state, &change)?),
                }
                corrections.pending = Some((n, change));
            }
            TableEntry::Correction { power, step: CorrectionStep::Approve { proposal } | CorrectionStep::Decline { proposal } } => {
                let Some((pending, change)) = corrections.pending.take().filter(|(p, _)| *p == proposal) else {
                    return refuse("correction/not-open", self.not_open(proposal));
                };
                if matches!(table, TableEntry::Correction { step: CorrectionStep::Approve { .. }, .. }) {
                    let proposer = self.proposer(pending);
                    let teams = &self.game.state.teams;
                    if proposer.is_some_and(|p| p == power || teams.team_of(p).is_some_and(|t| teams.team_of(power) == Some(t))) {
                        return refuse("correction/own-side", "a correction is approved by the other side, not by the side that proposed it".into());
                    }
                    state = Some(match &change {
                        Change::TakeBack { to } => self.state_before(*to)?,
                        Change::Position { .. } => self.corrected(&self.game.state, &change)?,
                    });
                    corrections.approved.push(Approved { approval: n, proposal: pending, change });
                }
            }
        }
        if let Some(state) = state {
            self.game.state = state;
        }
        self.corrections = corrections;
        self.undo.clear();
        self.log.push(Entry { action: ActionText::new(action), by, resolved: None, dice: Vec::new(), events: Vec::new(), proof: None });
        Ok(self.log.last().expect("an entry was just pushed"))
    }

    /// A take-back reaches no further than the first entry after the last
    /// correction, and takes back an action, not a note.
    fn check_take_back(&self, to: usize, floor: usize) -> Result<(), ApplyError> {
        let refuse = |code: &'static str, message: String| Err(ApplyError::Rejected(RuleError::new(code, message)));
        let n = self.log.len();
        if to < floor || to >= n {
            let reach = if floor > 0 { format!("back to entry {floor}, the first after the last correction,") } else { "back to the first entry".into() };
            return refuse("correction/out-of-reach", format!("a correction takes back entries of the log {reach} at most; there are {n}"));
        }
        if self.log[to].resolved.is_none() {
            return refuse("correction/not-an-action", format!("entry {to} is a note of the table, no action to take back"));
        }
        Ok(())
    }

    /// `state` with a corrected position applied (`Change::Position`): the
    /// units to remove named as any action names them, the result a
    /// position a game could reach (`correction/bad-position` otherwise).
    fn corrected(&self, state: &GameState, change: &Change) -> Result<GameState, ApplyError> {
        let Change::Position { state: changes, remove } = change else { return Ok(state.clone()) };
        let bad = |why: String| ApplyError::Rejected(RuleError::new("correction/bad-position", format!("the corrected position cannot be: {why}")));
        let names = names_now(state, &self.position_names);
        let remove = remove.iter().map(|n| names.get(n).copied().ok_or_else(|| bad(format!("no unit is named `{n}`")))).collect::<Result<Vec<_>, _>>()?;
        let mut game = Game { ruleset: self.game.ruleset.clone(), state: state.clone() };
        case::correct_position(&mut game, changes, &remove).map_err(bad)?;
        if let Some(why) = warboard_rules::setup::impossible_position(&game) {
            return Err(bad(why));
        }
        Ok(game.state)
    }

    /// Why entry `proposal` is not an open proposal.
    fn not_open(&self, proposal: usize) -> String {
        let proposes = self.log.get(proposal).is_some_and(|e| {
            e.resolved.is_none()
                && matches!(
                    TableEntry::parse(&self.game.ruleset, &e.action.value()),
                    Ok(Some(TableEntry::Correction { step: CorrectionStep::Propose(_), .. }))
                )
        });
        if proposes {
            format!("the correction entry {proposal} proposed is no longer open: it was answered, or the game went on after it")
        } else {
            format!("entry {proposal} proposes no correction")
        }
    }

    /// The power that proposed the correction at entry `n`.
    fn proposer(&self, n: usize) -> Option<warboard_rules::PowerId> {
        match TableEntry::parse(&self.game.ruleset, &self.log.get(n)?.action.value()) {
            Ok(Some(TableEntry::Correction { power, .. })) => Some(power),
            _ => None,
        }
    }

    /// The state the game stood in before entry `n` of the log: from the
    /// last correction approved before it (the state before the entry it
    /// took back to, or before the approval with the position corrected),
    /// or from the start, the entries in between applied again with the
    /// dice they rolled.
    fn state_before(&self, n: usize) -> Result<GameState, ApplyError> {
        let (state, from) = match self.corrections.last_before(n) {
            Some(a @ Approved { change: Change::TakeBack { to }, .. }) => (self.state_before(*to)?, a.approval + 1),
            Some(a) => (self.corrected(&self.state_before(a.approval)?, &a.change)?, a.approval + 1),
            None => (self.start.build().map_err(|e| ApplyError::Internal(format!("the start cannot be built again: {e}")))?.game.state, 0),
        };
        let mut game = Game { ruleset: self.game.ruleset.clone(), state };
        for (i, entry) in self.log.iter().enumerate().take(n).skip(from) {
            let Some(resolved) = &entry.resolved else { continue };
            let power = case::acting_power(&game, &entry.action.value()).map_err(ApplyError::Malformed)?;
            let mut dice = warboard_rules::ScriptedDice::new(entry.dice.clone());
            game.apply_as(power, resolved, &mut dice)
                .map_err(|e| ApplyError::Internal(format!("entry {i} does not apply again on the way back: {}", e.message)))?;
        }
        Ok(game.state)
    }
}

/// Stand-in dice that count what is drawn.
#[derive(Clone)]
struct Counting {
    inner: SeededDice,
    drawn: usize,
}

impl warboard_rules::DiceSource for Counting {
    fn roll(&mut self) -> Result<u8, warboard_rules::DiceError> {
        self.drawn += 1;
        self.inner.roll()
    }
    fn boxed_clone(&self) -> Box<dyn warboard_rules::DiceSource> {
        Box::new(self.clone())
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
            Some(Action::Surrender { .. }) | None => false,
            Some(Action::EndPhase) => same_turn,
            Some(_) => true,
        }
}

pub(crate) fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the rules engine panicked".into())
}
