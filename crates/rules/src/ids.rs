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

/// Every unit type in warboard's vocabulary (FORMAT.md: thirteen, and the
/// Alternative rules' `ship`, `tank` and `plane`). The vocabulary is closed
/// because FORMAT's is: cases, saves and the protocol name types by these
/// words. A ruleset says which of them it has, in which order (its unit
/// table's order is the order units roll dice in: [`crate::Ruleset::rank`])
/// and what each does (its columns): no behaviour hangs on the variant.
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
    Ship,
    Tank,
    Plane,
}

impl UnitType {
    pub const ALL: [UnitType; 16] = [
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
        UnitType::Ship,
        UnitType::Tank,
        UnitType::Plane,
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
            UnitType::Ship => "ship",
            UnitType::Tank => "tank",
            UnitType::Plane => "plane",
        }
    }

    pub fn parse(s: &str) -> Option<UnitType> {
        UnitType::ALL.into_iter().find(|t| t.name() == s)
    }

    /// The name in a sentence: "aircraft carrier", "AA gun".
    pub fn words(self) -> &'static str {
        match self {
            UnitType::AircraftCarrier => "aircraft carrier",
            UnitType::AaGun => "AA gun",
            UnitType::IndustrialComplex => "industrial complex",
            other => other.name(),
        }
    }

    /// "an infantry", "a fighter", "an AA gun": one unit in a sentence.
    pub fn with_article(self) -> String {
        let w = self.words();
        let vowel = w.starts_with(['a', 'e', 'i', 'o', 'u', 'A']);
        format!("{} {w}", if vowel { "an" } else { "a" })
    }

    /// "1 fighter", "2 fighters", "3 infantry", "2 industrial complexes".
    pub fn count_words(self, n: u64) -> String {
        let w = self.words();
        if n == 1 || matches!(self, UnitType::Infantry | UnitType::Artillery | UnitType::Armor) {
            format!("{n} {w}")
        } else if w.ends_with('x') {
            format!("{n} {w}es")
        } else {
            format!("{n} {w}s")
        }
    }

    /// The short form players write and read on screen (`inf`, `arm`, `bb`).
    pub fn short(self) -> &'static str {
        match self {
            UnitType::Infantry => "inf",
            UnitType::Artillery => "art",
            UnitType::Armor => "arm",
            UnitType::Fighter => "ftr",
            UnitType::Bomber => "bmb",
            UnitType::Transport => "trn",
            UnitType::Submarine => "sub",
            UnitType::Destroyer => "dd",
            UnitType::Cruiser => "cru",
            UnitType::AircraftCarrier => "cv",
            UnitType::Battleship => "bb",
            UnitType::AaGun => "aa",
            UnitType::IndustrialComplex => "ic",
            UnitType::Ship => "ship",
            UnitType::Tank => "tank",
            UnitType::Plane => "plane",
        }
    }

    /// A unit type from any name players use: FORMAT.md's name, the usual
    /// abbreviations and nicknames, singular or plural, any case
    /// (`inf`, `Infantry`, `tanks`, `ac`, `aa gun`).
    pub fn from_player_name(name: &str) -> Option<UnitType> {
        const ALIASES: &[(&str, UnitType)] = &[
            ("inf", UnitType::Infantry),
            ("art", UnitType::Artillery),
            ("arty", UnitType::Artillery),
            ("arm", UnitType::Armor),
            ("armour", UnitType::Armor),
            // Armor's nickname, before the Alternative rules' own `tank`
            // type: a ruleset-aware lookup comes with that ruleset (issue 13).
            ("tank", UnitType::Armor),
            ("ftr", UnitType::Fighter),
            ("fig", UnitType::Fighter),
            ("bmb", UnitType::Bomber),
            ("bom", UnitType::Bomber),
            ("trn", UnitType::Transport),
            ("tran", UnitType::Transport),
            ("tpt", UnitType::Transport),
            ("sub", UnitType::Submarine),
            ("dd", UnitType::Destroyer),
            ("dst", UnitType::Destroyer),
            ("cru", UnitType::Cruiser),
            ("ca", UnitType::Cruiser),
            ("cv", UnitType::AircraftCarrier),
            ("ac", UnitType::AircraftCarrier),
            ("carrier", UnitType::AircraftCarrier),
            ("bb", UnitType::Battleship),
            ("bs", UnitType::Battleship),
            ("aa", UnitType::AaGun),
            ("aagun", UnitType::AaGun),
            ("ic", UnitType::IndustrialComplex),
            ("factory", UnitType::IndustrialComplex),
        ];
        let key: String = name.trim().to_ascii_lowercase().chars().map(|c| if c == ' ' || c == '-' { '_' } else { c }).collect();
        let find = |k: &str| {
            ALIASES
                .iter()
                .find(|(a, _)| *a == k || a.replace('_', "") == k.replace('_', ""))
                .map(|(_, t)| *t)
                .or_else(|| UnitType::parse(k))
                .or_else(|| UnitType::ALL.into_iter().find(|t| t.name().replace('_', "") == k.replace('_', "")))
        };
        find(&key)
            .or_else(|| key.strip_suffix('s').and_then(find))
            .or_else(|| key.strip_suffix("es").and_then(find))
            .or_else(|| key.strip_suffix("ies").and_then(|k| find(&format!("{k}y"))))
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

#[cfg(test)]
mod tests {
    use super::UnitType;

    #[test]
    fn player_names() {
        for (name, want) in [
            ("inf", UnitType::Infantry),
            ("Infantry", UnitType::Infantry),
            ("tanks", UnitType::Armor),
            ("armour", UnitType::Armor),
            ("ac", UnitType::AircraftCarrier),
            ("aircraft carrier", UnitType::AircraftCarrier),
            ("aircraft_carriers", UnitType::AircraftCarrier),
            ("AA gun", UnitType::AaGun),
            ("bbs", UnitType::Battleship),
            ("subs", UnitType::Submarine),
            ("factories", UnitType::IndustrialComplex),
        ] {
            assert_eq!(UnitType::from_player_name(name), Some(want), "{name}");
        }
        assert_eq!(UnitType::from_player_name("dragon"), None);
        // `tank` is armor to players of every built-in ruleset so far.
        for t in UnitType::ALL.into_iter().filter(|t| *t != UnitType::Tank) {
            assert_eq!(UnitType::from_player_name(t.short()), Some(t));
            assert_eq!(UnitType::from_player_name(t.name()), Some(t));
        }
    }
}

#[cfg(test)]
mod words_tests {
    use super::UnitType;

    #[test]
    fn unit_names_read_as_sentences() {
        assert_eq!(UnitType::Infantry.with_article(), "an infantry");
        assert_eq!(UnitType::Fighter.with_article(), "a fighter");
        assert_eq!(UnitType::AaGun.with_article(), "an AA gun");
        assert_eq!(UnitType::Fighter.count_words(1), "1 fighter");
        assert_eq!(UnitType::Fighter.count_words(2), "2 fighters");
        assert_eq!(UnitType::Infantry.count_words(3), "3 infantry");
        assert_eq!(UnitType::IndustrialComplex.count_words(2), "2 industrial complexes");
        assert_eq!(UnitType::AircraftCarrier.count_words(2), "2 aircraft carriers");
    }
}
