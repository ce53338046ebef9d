//! What can go wrong: starting a game, applying an action, undoing one, and
//! loading a save file. Each kind of damage to a save file has its own
//! variant, code and message.

use warboard_rules::RuleError;

/// A game that cannot be started as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("unknown ruleset `{name}` (known rulesets: {known})")]
    UnknownRuleset { name: String, known: String },
    #[error("ruleset `{name}` is not available yet (available: {known})")]
    NotYetAvailable { name: String, known: String },
    #[error("the ruleset `{name}` cannot be loaded: {detail}")]
    BrokenRuleset { name: String, detail: String },
    #[error("option `{name}`: {detail}")]
    BadOption { name: String, detail: String },
    #[error("the starting position cannot be built: {0}")]
    BadPosition(String),
    /// A part of the start is larger than a save file may hold
    /// (`limits.rs`), so the game could not be saved and loaded.
    #[error("{0}: a save file could not hold it")]
    TooLarge(String),
}

impl StartError {
    pub fn code(&self) -> &'static str {
        match self {
            StartError::UnknownRuleset { .. } | StartError::NotYetAvailable { .. } => "start/unknown-ruleset",
            StartError::BrokenRuleset { .. } => "start/broken-ruleset",
            StartError::BadOption { .. } => "start/bad-option",
            StartError::BadPosition(_) => "start/bad-position",
            StartError::TooLarge(_) => "start/too-large",
        }
    }
}

/// An action that was not applied. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// The JSON is not an action of FORMAT.md's vocabulary.
    #[error("not an action: {0}")]
    Malformed(String),
    /// The units a selector names are not there: the action is illegal.
    #[error("{0}")]
    NoSuchUnits(String),
    /// The rules reject the action.
    #[error("{0}")]
    Rejected(RuleError),
    /// The game takes its dice from the client and this action needs more
    /// than are queued.
    #[error("this action needs more dice than the {queued} queued: supply more with the `dice` command and try again")]
    NeedDice { queued: usize },
    /// The rules core failed on this action (a bug in warboard; the game is
    /// unchanged).
    #[error("internal error in the rules engine (the game is unchanged): {0}")]
    Internal(String),
    /// A proven game takes each action with its signed link (`apply_link`).
    #[error("this game's dice and record are proven: every action is made as a signed, receipted entry of its chain (docs/pbem.md)")]
    NeedsLink,
    /// In a proven game: the action's link in the signed chain is not in
    /// order, or the action has none (docs/pbem.md).
    #[error("{0}")]
    Proof(warboard_proof::ProofError),
}

impl ApplyError {
    /// A stable code: the rules' own code for a rejection.
    pub fn code(&self) -> &str {
        match self {
            ApplyError::Malformed(_) => "action/malformed",
            ApplyError::NoSuchUnits(_) => "action/no-such-units",
            ApplyError::Rejected(e) => e.code,
            ApplyError::NeedDice { .. } => "dice/needed",
            ApplyError::Internal(_) => "engine/internal",
            ApplyError::NeedsLink => "proof/needs-link",
            ApplyError::Proof(e) => e.code(),
        }
    }
}

/// Why the last action cannot be undone.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UndoError {
    #[error("nothing to undo: no action has been made")]
    Nothing,
    #[error("the turn has just begun (or the last action ended a phase of the whole round): undo reaches back only within the phases of one turn")]
    PhaseStart,
    #[error("the last action rolled dice: an action whose dice were seen cannot be taken back")]
    DiceRolled,
    #[error("the last action was made by the engine for a power the client does not control")]
    ByEngine,
    #[error("the game is over")]
    GameOver,
    /// A proven game's entries are receipted and sent to every seat: none is
    /// taken back (docs/pbem.md).
    #[error("this game's record is proven: an entry, once receipted, is never taken back")]
    Proven,
}

impl UndoError {
    pub fn code(&self) -> &'static str {
        match self {
            UndoError::Nothing => "undo/nothing",
            UndoError::PhaseStart => "undo/phase-start",
            UndoError::DiceRolled => "undo/dice-rolled",
            UndoError::ByEngine => "undo/by-engine",
            UndoError::GameOver => "undo/game-over",
            UndoError::Proven => "undo/proven",
        }
    }
}

/// A save file that cannot be loaded. Log positions are written `log[i]`,
/// counting from 0 as the file's JSON array does.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read the save file: {0}")]
    Unreadable(String),
    #[error("the save file is cut short at line {line}, column {column} (truncated or empty)")]
    Truncated { line: usize, column: usize },
    #[error("the save file is not JSON: {detail} at line {line}, column {column}")]
    NotJson { line: usize, column: usize, detail: String },
    #[error("not a warboard save file: {0}")]
    NotASave(String),
    #[error("unknown save format version {found}: this warboard reads versions 1 to {supported}")]
    UnknownVersion { found: String, supported: u64 },
    #[error("the save file is damaged: {0}")]
    Malformed(String),
    #[error("the save is of ruleset `{name}`, which this warboard does not know (known rulesets: {known})")]
    UnknownRuleset { name: String, known: String },
    #[error("the save's ruleset `{name}` cannot be loaded: {detail}")]
    BrokenRuleset { name: String, detail: String },
    #[error("the save's option `{name}` is not valid: {detail}")]
    BadOption { name: String, detail: String },
    #[error("the save's options read `{recorded}`, but this warboard makes them `{rebuilt}` (the ruleset's defaults have changed)")]
    OptionsMismatch { recorded: String, rebuilt: String },
    #[error("the save's starting position cannot be built: {0}")]
    BadPosition(String),
    #[error("log[{index}]: the action cannot be read: {detail}")]
    UnreadableAction { index: usize, detail: String },
    #[error("log[{index}]: the action as written ({written}) does not match the action recorded as applied")]
    ActionMismatch { index: usize, written: String },
    #[error("log[{index}]: the rules reject this action: [{code}] {message}")]
    ActionRejected { index: usize, code: String, message: String },
    #[error("the dice log is inconsistent: {0}")]
    DiceInconsistent(String),
    #[error("log[{index}]: the recorded events differ from what the action does")]
    EventsMismatch { index: usize },
    #[error("the snapshot does not match the game the log replays to (first difference: {field}): the file was edited")]
    SnapshotMismatch { field: String },
    #[error("the snapshot's hash is {computed}, but the file records {recorded}: the snapshot was edited or damaged")]
    HashMismatch { recorded: String, computed: String },
    /// `found` says where the edit is, as far as the loader can tell (the
    /// hash alone only says that something changed).
    #[error("the file's record hash is {recorded}, but its contents hash to {computed}: the save was edited or damaged after it was written ({found})")]
    RecordEdited { recorded: String, computed: String, found: String },
    /// A proven game whose chain does not verify, or does not match the
    /// game its log replays (docs/pbem.md, "Verifying a record").
    #[error("{}{error}", index.map(|i| format!("log[{i}]: ")).unwrap_or_default())]
    Proof { index: Option<usize>, error: warboard_proof::ProofError },
}

impl LoadError {
    /// A stable code for each kind of damage.
    pub fn code(&self) -> &'static str {
        match self {
            LoadError::Unreadable(_) => "save/unreadable",
            LoadError::Truncated { .. } => "save/truncated",
            LoadError::NotJson { .. } => "save/not-json",
            LoadError::NotASave(_) => "save/not-a-save",
            LoadError::UnknownVersion { .. } => "save/unknown-version",
            LoadError::Malformed(_) => "save/malformed",
            LoadError::UnknownRuleset { .. } => "save/unknown-ruleset",
            LoadError::BrokenRuleset { .. } => "save/broken-ruleset",
            LoadError::BadOption { .. } => "save/bad-option",
            LoadError::OptionsMismatch { .. } => "save/options-mismatch",
            LoadError::BadPosition(_) => "save/bad-position",
            LoadError::UnreadableAction { .. } => "save/unreadable-action",
            LoadError::ActionMismatch { .. } => "save/action-mismatch",
            LoadError::ActionRejected { .. } => "save/action-rejected",
            LoadError::DiceInconsistent(_) => "save/dice-inconsistent",
            LoadError::EventsMismatch { .. } => "save/events-mismatch",
            LoadError::SnapshotMismatch { .. } => "save/snapshot-mismatch",
            LoadError::HashMismatch { .. } => "save/hash-mismatch",
            LoadError::RecordEdited { .. } => "save/record-edited",
            LoadError::Proof { error, .. } => error.code(),
        }
    }
}

impl From<StartError> for LoadError {
    fn from(e: StartError) -> LoadError {
        match e {
            StartError::UnknownRuleset { name, known } | StartError::NotYetAvailable { name, known } => LoadError::UnknownRuleset { name, known },
            StartError::BrokenRuleset { name, detail } => LoadError::BrokenRuleset { name, detail },
            StartError::BadOption { name, detail } => LoadError::BadOption { name, detail },
            StartError::BadPosition(detail) => LoadError::BadPosition(detail),
            e @ StartError::TooLarge(_) => LoadError::Malformed(e.to_string()),
        }
    }
}
