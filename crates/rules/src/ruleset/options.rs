//! Rule options: every point where readings or editions differ, read in one
//! place. Each option has a documented name (the key in `ruleset.toml`'s
//! `[options]` table and in conformance cases) and a default per ruleset.

use serde::{Deserialize, Serialize};

/// Which text decides submarine withdrawal where the English and German
/// DAAK texts differ (seeds 000 and 001, 4.2(c) and (d)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubWithdrawalText {
    /// English 4.2(c): attacking subs go to an empty or friendly adjacent zone
    /// from which an attacking unit came; 4.2(d): defending subs to a zone
    /// with no enemy *naval* units and no battle this turn.
    English,
    /// German 4.2(3): attacking subs go to a zone from or through which an
    /// attacking *ship* came; 4.2(4): defending subs to a zone with no enemy
    /// units at all and no battle this turn.
    German,
}

/// How much a strategic bombing raid can cost its victim. `rules/classic.md`
/// marks this [UNSURE]: a port of the rulebook caps the loss at the IPCs
/// the victim holds (default); TripleA's classic applies no territory cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BombingCap {
    /// The victim pays what it can; never below zero.
    Bank,
    /// At most the bombed territory's IPC value, and never below zero.
    Territory,
}

/// When the capital victories are checked. DAAK 5.1 says only that the game
/// ends when a condition is met; `rules/classic.md` §10 and TripleA's notes
/// check at the end of a round (default), the moment Magic 84 is also
/// checked (DAAK 5.1, German text: "am Ende einer Runde").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VictoryCheck {
    Round,
    Turn,
}

/// How a research breakthrough picks its development (`rules/classic.md` §4,
/// [UNSURE]): the rulebook port rolls a second die on the chart and re-rolls
/// developments already owned (default); TripleA lets the player choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResearchBreakthrough {
    Roll,
    Choose,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Weapons development (research dice). DAAK plays with it off.
    pub weapons_development: bool,
    /// The Axis win when Germany and Japan control territories worth this
    /// many IPCs at the end of the US turn (DAAK 5.1, "Magic 84"); 0: off.
    pub axis_economic_victory: u32,
    /// Original factories place any number of units (rulebook pp. 11, 13, 21
    /// per the rulebook port); false: limited by the territory's IPC value
    /// like new ones (TripleA classic).
    pub original_factories_unlimited: bool,
    /// Units bought but not placed stay for a later turn (Anniversary rules);
    /// false: they are lost (classic).
    pub unplaced_units_kept: bool,
    /// Ships may be placed into a sea zone holding enemy ships (Europe FAQ);
    /// false in classic.
    pub ships_placed_in_enemy_zones: bool,
    /// Submarine hits may be taken by aircraft; the rulebook port says subs
    /// never hit aircraft (default false).
    pub submarines_hit_aircraft: bool,
    /// Defending submarines may withdraw after a round (DAAK 4.2); TripleA's
    /// classic does not allow it.
    pub defending_submarines_withdraw: bool,
    pub sub_withdrawal_text: SubWithdrawalText,
    pub bombing_cap: BombingCap,
    pub research_breakthrough: ResearchBreakthrough,
    /// Russia may not attack in its first combat move (a TripleA option,
    /// [UNSURE] in the rulebook; off by default).
    pub russia_first_turn_restricted: bool,
    /// When two Allied (or both Axis) capitals win the game.
    pub capital_victory_checked: VictoryCheck,
}

impl Options {
    /// Sets one option by its documented name, checking the value's type.
    pub fn set(&mut self, name: &str, value: &toml::Value) -> Result<(), String> {
        let mut table = toml::Table::try_from(&*self).map_err(|e| e.to_string())?;
        if !table.contains_key(name) {
            return Err(format!(
                "unknown option `{name}`; the options are: {}",
                table.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        table.insert(name.to_string(), value.clone());
        *self = table
            .try_into()
            .map_err(|e: toml::de::Error| format!("option `{name}`: {}", e.message()))?;
        Ok(())
    }

    /// The options as a canonical `name=value` string, for saves and logs.
    pub fn canonical(&self) -> String {
        let table = toml::Table::try_from(self).expect("options serialise");
        table
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}
