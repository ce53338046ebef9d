//! Rulesets as data: the map, the powers, the unit table, the options and
//! the starting position, parsed from the TOML files in `rulesets/` (embedded
//! in the binary) and validated on load.

mod board;
mod load;
mod map;
mod options;

pub use load::{load_ruleset_files, load_scenario, DataError, RulesetFiles};
pub use map::{Canal, Convoy, Map, Space, SpaceKind};
pub use options::{CombinedNations, LimitedWar, TeamsKnob, AmphibiousRetreat, BombingCap, RaidAirCombat, CapitalVictory, OptionDecl, OptionType, Options, ResearchBreakthrough, ResearchCharts, RuleKnobs, SubWithdrawalText, SubmarineEscape, TransportUnloading, VictoryCheck};

use crate::ids::{Domain, PowerId, Side, SpaceId, UnitType};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// One power: its name, side and capital (none for a power that has none,
/// like Anniversary's China).
#[derive(Clone, Debug)]
pub struct PowerInfo {
    pub id: String,
    pub name: String,
    pub side: Side,
    pub capital: Option<SpaceId>,
}

/// What a unit carries: how much room, units of which domains, and whether
/// its cargo fights. Read from the unit table as it is (`cargo = {...}`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cargo {
    pub capacity: u8,
    pub carries: Vec<Domain>,
    #[serde(default)]
    pub fights: CargoFights,
}

/// Whether a unit's cargo takes part in its battles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CargoFights {
    /// Never: it sinks with its carrier (transports, DAAK 3.2(f)).
    #[default]
    Never,
    /// When the carrier defends: other powers' fighters aboard a defending
    /// carrier defend; aboard an attacking one they are cargo (DAAK 3.4(b),
    /// (e)).
    Defending,
    /// Aircraft aboard fight, attacking or defending, and outlive a carrier
    /// that sinks; land units aboard never fight and sink with it
    /// (Alternative ships, ALT L34, L40).
    Aircraft,
}

/// One unit raising another's attack, one to one (Anniversary and Europe
/// artillery: "infantry attack at 2 when paired with artillery").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Support {
    /// The type it supports.
    pub target: UnitType,
    /// The supported unit's attack value.
    pub attack: u8,
}

/// When a unit type's first strike applies (its hits are taken before the
/// enemy fires, and its victims do not fire back).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstStrike {
    /// Never.
    #[default]
    None,
    /// When attacking (classic submarines, `rules/classic.md` §5).
    Attack,
    /// When attacking and when defending (Anniversary submarines), unless
    /// the enemy has an anti-submarine unit in the battle.
    Both,
}

/// The shape of a round: the turn order, the phases of the whole round
/// (several powers act) and the phases of each power's turn.
#[derive(Clone, Debug)]
pub struct TurnStructure {
    pub order: Vec<PowerId>,
    pub round_phases: Vec<crate::state::Phase>,
    pub turn_phases: Vec<crate::state::Phase>,
}

/// What a unit type is and does in one ruleset.
#[derive(Clone, Debug)]
pub struct UnitStats {
    pub kind: UnitType,
    pub domain: Domain,
    pub cost: u32,
    pub attack: u8,
    pub defense: u8,
    pub movement: u8,
    /// Room it takes aboard a unit that carries its domain (0: it is never
    /// carried).
    pub cargo_size: u8,
    /// What it carries, if anything: one cargo model for transports,
    /// carriers and the Alternative rules' ships.
    pub cargo: Option<Cargo>,
    pub blitz: bool,
    pub submarine: bool,
    pub strategic_bomber: bool,
    /// Shore bombardment value (0: cannot bombard).
    pub bombard: u8,
    /// Value the AA gun hits aircraft on (0: not an AA gun).
    pub anti_aircraft: u8,
    pub factory: bool,
    /// Hits it takes to destroy (two-hit battleships in later editions).
    pub hit_points: u8,
    /// The unit it raises in attack, one to one.
    pub support: Option<Support>,
    /// Cancels enemy submarines' first strike and lets friendly aircraft hit
    /// them (the destroyer of Europe and Anniversary).
    pub anti_submarine: bool,
    pub first_strike: FirstStrike,
    /// Cannot fire and is removed when only such units are left against an
    /// enemy that can hit them (Anniversary transports).
    pub defenseless: bool,
    /// Whether it can be bought.
    pub buyable: bool,
    /// Its cost with the Improved Shipyards development (Anniversary).
    pub shipyards_cost: Option<u32>,
}

impl UnitStats {
    /// Room for land units, if it carries them (a transport).
    pub fn transport_capacity(&self) -> u8 {
        self.cargo.as_ref().filter(|c| c.carries.contains(&Domain::Land)).map_or(0, |c| c.capacity)
    }
    /// Room for aircraft, if it carries them (a carrier).
    pub fn carrier_capacity(&self) -> u8 {
        self.cargo.as_ref().filter(|c| c.carries.contains(&Domain::Air)).map_or(0, |c| c.capacity)
    }
    /// Room a land unit takes aboard a transport (0: none).
    pub fn transport_cost(&self) -> u8 {
        if self.is_land() { self.cargo_size } else { 0 }
    }
    /// Room an aircraft takes aboard a carrier (0: it cannot land on one).
    pub fn carrier_cost(&self) -> u8 {
        if self.is_air() { self.cargo_size } else { 0 }
    }
    pub fn is_land(&self) -> bool {
        self.domain == Domain::Land
    }
    pub fn is_sea(&self) -> bool {
        self.domain == Domain::Sea
    }
    pub fn is_air(&self) -> bool {
        self.domain == Domain::Air
    }
    /// Units that can fight and be taken as casualties: not AA guns or
    /// factories (DAAK 3.1(c), 3.1(f)).
    pub fn is_combatant(&self) -> bool {
        self.anti_aircraft == 0 && !self.factory
    }
}

/// A starting (or case) unit entry: where, whose, what and how many.
#[derive(Clone, Debug)]
pub struct SetupUnit {
    pub at: SpaceId,
    pub owner: PowerId,
    pub kind: UnitType,
    pub count: u32,
}

/// The published starting position.
#[derive(Clone, Debug)]
pub struct Setup {
    pub ipcs: Vec<i32>,
    /// Territories held at the start by a power other than their original
    /// owner.
    pub control: Vec<(SpaceId, PowerId)>,
    /// Land units aboard transports at the start (`aboard = true`).
    pub aboard: Vec<SetupUnit>,
    pub units: Vec<SetupUnit>,
}

/// A complete, validated ruleset.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub name: String,
    pub title: String,
    pub powers: Vec<PowerInfo>,
    units: Vec<Option<UnitStats>>,
    /// The unit table's order: the order units roll dice in (FORMAT.md).
    table: Vec<UnitType>,
    /// Each vocabulary type's place in `table` (by `UnitType::index`).
    ranks: Vec<usize>,
    pub map: Map,
    pub options: Options,
    /// The scenario chosen (`None`: the ruleset's default setup).
    pub scenario: Option<String>,
    pub turn: TurnStructure,
    pub setup: Setup,
    /// National objectives (Anniversary), paid with `national_objectives`.
    pub objectives: Vec<Objective>,
    /// The board as the map file has it, and the changes of `[[space_change]]`
    /// (see [`Ruleset::apply_board_options`]).
    board: Arc<board::BaseBoard>,
    /// Powers that take no part in this game (the `sitting_out` knob, and
    /// the Alternative rules' limited war and combined nations).
    pub out_of_play: Vec<PowerId>,
}

/// One national objective: a bonus its power collects with its income while
/// the condition holds (rules/anniversary.md §10).
#[derive(Clone, Debug)]
pub struct Objective {
    pub power: PowerId,
    pub bonus: u32,
    /// Territories to control: all of them, or `at_least` of them.
    pub spaces: Vec<SpaceId>,
    pub at_least: usize,
    /// Controlled by the power itself (else by its side).
    pub by_power: bool,
    /// No enemy surface warship in any of these zones.
    pub no_enemy_warships_in: Vec<SpaceId>,
    /// No other power's units in the territories the power controls.
    pub no_allied_units_in_own: bool,
    /// The condition in words.
    pub text: String,
}

impl Ruleset {
    pub fn power_count(&self) -> usize {
        self.powers.len()
    }
    pub fn power(&self, p: PowerId) -> &PowerInfo {
        &self.powers[p.index()]
    }
    pub fn power_ids(&self) -> impl Iterator<Item = PowerId> {
        (0..self.powers.len() as u8).map(PowerId)
    }
    pub fn power_by_name(&self, name: &str) -> Option<PowerId> {
        self.powers.iter().position(|p| p.id == name).map(|i| PowerId(i as u8))
    }
    pub fn side(&self, p: PowerId) -> Side {
        self.powers[p.index()].side
    }
    pub fn allied(&self, a: PowerId, b: PowerId) -> bool {
        self.side(a) == self.side(b)
    }
    /// Stats of a unit type, if the ruleset has it.
    pub fn unit(&self, kind: UnitType) -> Option<&UnitStats> {
        self.units[kind.index()].as_ref()
    }
    /// Stats of a unit type the ruleset is known to have (a unit on the
    /// board always is: setups are validated against the table).
    pub fn stats(&self, kind: UnitType) -> &UnitStats {
        self.units[kind.index()]
            .as_ref()
            .unwrap_or_else(|| panic!("unit type {kind} is not in ruleset {}", self.name))
    }
    /// The unit types of this ruleset, in unit-table order.
    pub fn unit_types(&self) -> impl Iterator<Item = &UnitStats> {
        self.table.iter().map(|t| self.stats(*t))
    }
    /// A unit type of this ruleset from a word players use: the type of that
    /// exact name where the ruleset has one (the Alternative rules' `tank`),
    /// otherwise the usual names and nicknames (`tank` for armor).
    pub fn unit_by_player_name(&self, word: &str) -> Option<UnitType> {
        let key = word.trim().to_ascii_lowercase().replace([' ', '-'], "_");
        let exact = UnitType::parse(&key).or_else(|| key.strip_suffix('s').and_then(UnitType::parse));
        exact.filter(|t| self.unit(*t).is_some()).or_else(|| UnitType::from_player_name(word))
    }
    /// The ruleset's own type for a type of another ruleset's names: the
    /// type itself where the ruleset has it, else the one players call by
    /// the same word (the Alternative rules' `tank` for armor, `plane` for a
    /// fighter), if any.
    pub fn own_type(&self, kind: UnitType) -> Option<UnitType> {
        if self.unit(kind).is_some() {
            return Some(kind);
        }
        self.table.iter().copied().find(|t| UnitType::from_player_name(t.name()) == Some(kind) || UnitType::from_player_name(kind.name()) == Some(*t))
    }
    /// A unit type's place in the unit table: units roll dice in this order
    /// (FORMAT.md), whatever the vocabulary's order.
    pub fn rank(&self, kind: UnitType) -> usize {
        self.ranks[kind.index()]
    }
    /// A copy with some options changed, by their documented names.
    pub fn with_options<'a>(
        &self,
        changes: impl IntoIterator<Item = (&'a str, &'a toml::Value)>,
    ) -> Result<Ruleset, String> {
        let mut r = self.clone();
        for (k, v) in changes {
            r.options.set(k, v)?;
        }
        r.apply_board_options()?;
        Ok(r)
    }
}

/// The names of the rulesets built into this binary.
pub const RULESET_NAMES: &[&str] = &["classic", "europe", "anniversary-1941", "anniversary-1942", "alternative"];

/// Rulesets FORMAT.md v2 names that are planned but not built in yet.
pub const PLANNED_RULESETS: &[&str] = &[];

/// The embedded text of a built-in ruleset's files.
pub fn embedded_files(name: &str) -> Option<RulesetFiles> {
    match name {
        "classic" => Some(RulesetFiles {
            dir: "rulesets/classic",
            ruleset: include_str!("../../../../rulesets/classic/ruleset.toml"),
            map: include_str!("../../../../rulesets/classic/map.toml"),
            setups: vec![("setup.toml", include_str!("../../../../rulesets/classic/setup.toml"))],
        }),
        "europe" => Some(RulesetFiles {
            dir: "rulesets/europe",
            ruleset: include_str!("../../../../rulesets/europe/ruleset.toml"),
            map: include_str!("../../../../rulesets/europe/map.toml"),
            setups: vec![("setup.toml", include_str!("../../../../rulesets/europe/setup.toml"))],
        }),
        "anniversary" => Some(RulesetFiles {
            dir: "rulesets/anniversary",
            ruleset: include_str!("../../../../rulesets/anniversary/ruleset.toml"),
            map: include_str!("../../../../rulesets/anniversary/map.toml"),
            setups: vec![
                ("setup-1941.toml", include_str!("../../../../rulesets/anniversary/setup-1941.toml")),
                ("setup-1942.toml", include_str!("../../../../rulesets/anniversary/setup-1942.toml")),
            ],
        }),
        // The classic board, with its own changes (ALT L4: "the same board").
        "alternative" => Some(RulesetFiles {
            dir: "rulesets/alternative",
            ruleset: include_str!("../../../../rulesets/alternative/ruleset.toml"),
            map: include_str!("../../../../rulesets/classic/map.toml"),
            setups: vec![("setup.toml", include_str!("../../../../rulesets/alternative/setup.toml"))],
        }),
        _ => None,
    }
}

/// Looks up a built-in ruleset by name: a ruleset (`classic`) or one of its
/// scenarios as `RULESET-SCENARIO` (`anniversary-1942`: the Anniversary
/// files with scenario `1942`). Each is parsed and validated once per
/// process and shared.
pub fn ruleset(name: &str) -> Result<Arc<Ruleset>, DataError> {
    static LOADED: Mutex<BTreeMap<String, Result<Arc<Ruleset>, DataError>>> = Mutex::new(BTreeMap::new());
    if let Some(done) = LOADED.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
        return done.clone();
    }
    let not_found = || {
        let (name, known) = (name.to_string(), RULESET_NAMES.join(", "));
        if PLANNED_RULESETS.contains(&name.as_str()) {
            DataError::NotYetAvailable { name, known }
        } else {
            DataError::UnknownRuleset { name, known }
        }
    };
    // Only the names players use: `anniversary` alone is a folder of two
    // scenarios, not a game (issue 34: the alias was read leniently).
    let loaded = if !RULESET_NAMES.contains(&name) {
        Err(not_found())
    } else {
        match embedded_files(name) {
            Some(files) => load_ruleset_files(&files),
            None => match name.rsplit_once('-').and_then(|(base, scenario)| Some((embedded_files(base)?, scenario))) {
                Some((files, scenario)) => load_scenario(&files, Some(scenario)),
                None => Err(not_found()),
            },
        }
    }
    .map(Arc::new);
    LOADED.lock().unwrap_or_else(|e| e.into_inner()).insert(name.to_string(), loaded.clone());
    loaded
}
