//! How a game starts: the ruleset, the options that differ from its
//! defaults, the position and the dice. Everything a replay needs before the
//! first action, and the header of a save file.

use crate::dice::DiceMode;
use crate::error::StartError;
use crate::limits;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use warboard_rules::ruleset::DataError;
use warboard_rules::{Game, UnitId};

/// A starting position in FORMAT.md's vocabulary: a `setup` and optional
/// `state` changes on top of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// `standard` (the ruleset's published start) or `empty`.
    pub setup: String,
    /// FORMAT.md's `state`: changes applied on top of the setup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
}

impl Position {
    /// The ruleset's published starting position.
    pub fn standard() -> Position {
        Position { setup: "standard".into(), state: None }
    }
}

/// Everything that decides a game before its first action.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    pub ruleset: String,
    /// Options that differ from the ruleset's defaults, by their documented
    /// names, as FORMAT.md writes them.
    pub options: BTreeMap<String, Value>,
    pub position: Position,
    pub dice: DiceMode,
}

/// A started game: the position and the names its `state` gave to units.
pub(crate) struct Built {
    pub game: Game,
    pub names: HashMap<String, UnitId>,
}

impl Start {
    /// The standard game of a ruleset with its default options.
    pub fn standard(ruleset: &str, dice: DiceMode) -> Start {
        Start { ruleset: ruleset.into(), options: BTreeMap::new(), position: Position::standard(), dice }
    }

    /// Builds the starting game. The ruleset and each option are checked on
    /// their own first, so that each kind of mistake gets its own error; the
    /// position is then built by the conformance runner's FORMAT.md loader,
    /// the one reader of that vocabulary in the project.
    pub(crate) fn build(&self) -> Result<Built, StartError> {
        // What a save file could not hold is refused before the game begins
        // (issue 34, finding 6): every game can be saved and loaded again.
        let too_large = |what: &'static str, max: usize| move |size: String| StartError::TooLarge(format!("{what} {size} (at most {max})"));
        if self.ruleset.len() > limits::MAX_NAME_BYTES {
            return Err(too_large("the ruleset's name is", limits::MAX_NAME_BYTES)(format!("{} bytes", self.ruleset.len())));
        }
        if self.position.setup.len() > limits::MAX_NAME_BYTES {
            return Err(too_large("the setup's name is", limits::MAX_NAME_BYTES)(format!("{} bytes", self.position.setup.len())));
        }
        limits::check_compact_len(&self.options, limits::MAX_OPTIONS_BYTES).map_err(too_large("the options are", limits::MAX_OPTIONS_BYTES))?;
        let base = warboard_rules::ruleset(&self.ruleset).map_err(|e| match e {
            DataError::UnknownRuleset { name, known } => StartError::UnknownRuleset { name, known },
            DataError::NotYetAvailable { name, known } => StartError::NotYetAvailable { name, known },
            other => StartError::BrokenRuleset { name: self.ruleset.clone(), detail: other.to_string() },
        })?;
        let mut options = base.options.clone();
        for (name, value) in &self.options {
            let bad = |detail: String| StartError::BadOption { name: name.clone(), detail };
            let value: toml::Value = serde_json::from_value(value.clone()).map_err(|e| bad(e.to_string()))?;
            options.set(name, &value).map_err(bad)?;
        }
        // Options that change the board are checked together, where each
        // is read (teams, combined nations, limited war): a mistake there is
        // the option's, not the position's.
        let mut board = (*base).clone();
        board.options = options;
        if let Err(detail) = board.apply_board_options() {
            let name = self.options.keys().find(|n| detail.contains(&format!("`{n}`"))).or(self.options.keys().next()).cloned().unwrap_or_default();
            return Err(StartError::BadOption { name, detail });
        }
        if let Some(state) = &self.position.state {
            limits::check_position(state).map_err(StartError::BadPosition)?;
        }
        let case = json!({
            "ruleset": self.ruleset,
            "options": self.options,
            "setup": self.position.setup,
            "state": self.position.state,
        });
        let loaded = warboard_conform::case::load(&case).map_err(StartError::BadPosition)?;
        // A game starts only from a position a game could reach (issue 34).
        if self.position.state.is_some() {
            if let Some(why) = warboard_rules::setup::impossible_position(&loaded.game) {
                return Err(StartError::BadPosition(why));
            }
        }
        Ok(Built { game: loaded.game, names: loaded.names })
    }
}
