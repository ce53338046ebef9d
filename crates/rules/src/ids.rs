//! Small typed identifiers: powers, spaces, units, unit types, sides.
//!
//! Powers and spaces are indices into the ruleset's tables (like shakmaty's
//! `ByColor`, per-power data lives in arrays indexed by [`PowerId`]).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Index of a power in its ruleset's turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PowerId(pub u8);

/// Index of a land territory or sea zone in its ruleset's map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SpaceId(pub u16);

/// A unit's identity for the whole game: stable across moves, never reused.
/// Ids are handed out in the order units appear, which is also the order in
/// which units of one type roll dice (FORMAT.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct UnitId(pub u32);

impl PowerId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl SpaceId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The two sides of the war.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Axis,
    Allies,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Axis => "axis",
            Side::Allies => "allies",
        }
    }
    pub fn parse(s: &str) -> Option<Side> {
        match s {
            "axis" => Some(Side::Axis),
            "allies" => Some(Side::Allies),
            _ => None,
        }
    }
    pub fn other(self) -> Side {
        match self {
            Side::Axis => Side::Allies,
            Side::Allies => Side::Axis,
        }
    }
}

/// Every unit type in warboard's vocabulary (FORMAT.md). A ruleset says
/// which of them exist in it and what they can do; the order here is the
/// unit-table order in which units roll dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitType {
    Infantry,
    Artillery,
    Armor,
    Fighter,
    Bomber,
    Transport,
    Submarine,
    Destroyer,
    Cruiser,
    AircraftCarrier,
    Battleship,
    AaGun,
    IndustrialComplex,
}

impl UnitType {
    pub const ALL: [UnitType; 13] = [
        UnitType::Infantry,
        UnitType::Artillery,
        UnitType::Armor,
        UnitType::Fighter,
        UnitType::Bomber,
        UnitType::Transport,
        UnitType::Submarine,
        UnitType::Destroyer,
        UnitType::Cruiser,
        UnitType::AircraftCarrier,
        UnitType::Battleship,
        UnitType::AaGun,
        UnitType::IndustrialComplex,
    ];

    pub fn name(self) -> &'static str {
        match self {
            UnitType::Infantry => "infantry",
            UnitType::Artillery => "artillery",
            UnitType::Armor => "armor",
            UnitType::Fighter => "fighter",
            UnitType::Bomber => "bomber",
            UnitType::Transport => "transport",
            UnitType::Submarine => "submarine",
            UnitType::Destroyer => "destroyer",
            UnitType::Cruiser => "cruiser",
            UnitType::AircraftCarrier => "aircraft_carrier",
            UnitType::Battleship => "battleship",
            UnitType::AaGun => "aa_gun",
            UnitType::IndustrialComplex => "industrial_complex",
        }
    }

    pub fn parse(s: &str) -> Option<UnitType> {
        UnitType::ALL.into_iter().find(|t| t.name() == s)
    }

    /// Index in the unit table, for per-type arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for UnitType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Land, sea or air: where a unit may stand and how it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Domain {
    Land,
    Sea,
    Air,
}
