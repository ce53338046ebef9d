//! What to fight: each side's units as counts per unit type, and the text
//! form players type ("3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa").

use crate::CalcError;
use std::fmt;
use warboard_rules::UnitType;

const UNIT_TYPES: usize = UnitType::ALL.len();

/// One side's units: how many of each unit type. Small, `Copy` and hashable,
/// so it can key the calculator's cache without allocating.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Army {
    counts: [u32; UNIT_TYPES],
}

impl Army {
    pub fn new() -> Army {
        Army::default()
    }

    /// An army from (unit type, count) pairs; repeated types add up.
    pub fn from_counts(pairs: &[(UnitType, u32)]) -> Army {
        let mut army = Army::new();
        for &(kind, n) in pairs {
            army.add(kind, n);
        }
        army
    }

    /// This army with `n` more units of `kind`.
    pub fn with(mut self, kind: UnitType, n: u32) -> Army {
        self.add(kind, n);
        self
    }

    pub fn add(&mut self, kind: UnitType, n: u32) {
        self.counts[kind.index()] = self.counts[kind.index()].saturating_add(n);
    }

    /// Removes up to `n` units of `kind`.
    pub fn remove(&mut self, kind: UnitType, n: u32) {
        self.counts[kind.index()] = self.counts[kind.index()].saturating_sub(n);
    }

    pub fn count(&self, kind: UnitType) -> u32 {
        self.counts[kind.index()]
    }

    /// All units, whatever their type.
    pub fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The unit types present, with their counts, in unit-table order.
    pub fn iter(&self) -> impl Iterator<Item = (UnitType, u32)> + '_ {
        UnitType::ALL.iter().map(|t| (*t, self.counts[t.index()])).filter(|(_, n)| *n > 0)
    }

    /// The (unit type, count) pairs of the battle engine's `BattleSpec`.
    pub fn to_pairs(&self) -> Vec<(UnitType, u32)> {
        self.iter().collect()
    }

    /// Only the units for which `keep` holds (asked only of types present).
    pub fn filter(&self, keep: impl Fn(UnitType) -> bool) -> Army {
        let mut army = *self;
        for t in UnitType::ALL {
            if army.counts[t.index()] > 0 && !keep(t) {
                army.counts[t.index()] = 0;
            }
        }
        army
    }
}

impl fmt::Debug for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Army({self})")
    }
}

/// "3 infantry, 2 armor"; "nothing" when empty.
impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nothing");
        }
        for (k, (t, n)) in self.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n} {t}")?;
        }
        Ok(())
    }
}

/// Who attacks and who defends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Battle {
    pub attackers: Army,
    pub defenders: Army,
}

impl Battle {
    pub fn new(attackers: Army, defenders: Army) -> Battle {
        Battle { attackers, defenders }
    }

    /// Parses "3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa".
    pub fn parse(text: &str) -> Result<Battle, CalcError> {
        let lower = text.to_ascii_lowercase();
        let parts: Vec<&str> = split_on_vs(&lower);
        if parts.len() != 2 {
            return Err(CalcError::Syntax(format!(
                "write the battle as `ATTACKERS vs DEFENDERS`, e.g. \"3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa\"; got \"{}\"",
                text.trim()
            )));
        }
        Ok(Battle { attackers: parse_army(parts[0])?, defenders: parse_army(parts[1])? })
    }
}

/// Splits on the word "vs" (or "vs."), however it is spaced.
fn split_on_vs(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut rest = text;
    loop {
        let found = rest.match_indices("vs").find(|(i, _)| {
            let before = rest[..*i].chars().next_back();
            let after = rest[i + 2..].chars().next();
            !matches!(before, Some(c) if c.is_alphanumeric()) && !matches!(after, Some(c) if c.is_alphanumeric() && c != '.')
        });
        match found {
            Some((i, _)) => {
                parts.push(&rest[..i]);
                rest = rest[i + 2..].strip_prefix('.').unwrap_or(&rest[i + 2..]);
            }
            None => {
                parts.push(rest);
                return parts;
            }
        }
    }
}

/// Parses one side: entries separated by commas (or `+`, `;`), or simply
/// one after the other ("3 inf 1 art"), each an optional count and a unit
/// name ("3 inf", "2x armor", "fighter", "1 aa gun").
pub fn parse_army(text: &str) -> Result<Army, CalcError> {
    let mut army = Army::new();
    for entry in text.split([',', '+', ';']).flat_map(entries) {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let digits = entry.find(|c: char| !c.is_ascii_digit()).unwrap_or(entry.len());
        let (count, name) = entry.split_at(digits);
        let count: u32 = if count.is_empty() {
            1
        } else {
            count.parse().map_err(|_| CalcError::Syntax(format!("the count in \"{entry}\" is too large")))?
        };
        // "2x bb": an "x" after a count is part of the count.
        let name = name.trim_start();
        let name = match name.strip_prefix('x') {
            Some(rest) if digits > 0 && rest.starts_with(char::is_whitespace) => rest,
            _ => name,
        };
        let kind = unit_by_name(name.trim()).ok_or_else(|| CalcError::UnknownUnit(name.trim().to_string()))?;
        army.add(kind, count);
    }
    Ok(army)
}

/// The entries of a text without separators: a count starts a new entry
/// once the entry before has a name ("3 inf 1 art": "3 inf", "1 art").
fn entries(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut named = false;
    for word in text.split_whitespace() {
        let count = word.starts_with(|c: char| c.is_ascii_digit());
        if out.is_empty() || (count && named) {
            out.push(String::new());
            named = false;
        }
        let entry = out.last_mut().expect("an entry");
        if !entry.is_empty() {
            entry.push(' ');
        }
        entry.push_str(word);
        // "2x" or "3" is a count; anything else names the unit.
        named |= !(count && word.trim_start_matches(|c: char| c.is_ascii_digit()).chars().all(|c| c == 'x'));
    }
    out
}

/// A unit type by any name players use: the rules core's one list of
/// names and abbreviations (`UnitType::from_player_name`), singular or
/// plural, in any case ("inf", "Tanks", "aircraft carrier").
pub fn unit_by_name(name: &str) -> Option<UnitType> {
    UnitType::from_player_name(name)
}

/// The usual abbreviations, for error messages.
pub fn known_names() -> String {
    let short: Vec<&str> = UnitType::ALL.iter().map(|t| t.short()).collect();
    format!("{} (or the full names, e.g. infantry, armor, aircraft carrier; plurals too)", short.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use UnitType::*;

    #[test]
    fn parses_the_usual_forms() {
        let b = Battle::parse("3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa").unwrap();
        assert_eq!(b.attackers, Army::from_counts(&[(Infantry, 3), (Armor, 2), (Fighter, 1)]));
        assert_eq!(b.defenders, Army::from_counts(&[(Infantry, 4), (AaGun, 1)]));
        let b = Battle::parse("2 Tanks + bomber VS 3 infantry, 2 inf").unwrap();
        assert_eq!(b.attackers, Army::from_counts(&[(Armor, 2), (Bomber, 1)]));
        assert_eq!(b.defenders.count(Infantry), 5);
        let b = Battle::parse("2x bb, 1 sub vs. 1 aircraft carrier, 2 fighters, 1 trn").unwrap();
        assert_eq!(b.attackers, Army::from_counts(&[(Battleship, 2), (Submarine, 1)]));
        assert_eq!(b.defenders, Army::from_counts(&[(AircraftCarrier, 1), (Fighter, 2), (Transport, 1)]));
        assert_eq!(unit_by_name("cv"), Some(AircraftCarrier));
        assert_eq!(unit_by_name("ac"), Some(AircraftCarrier));
        assert_eq!(unit_by_name("dd"), Some(Destroyer));
        assert_eq!(unit_by_name("cru"), Some(Cruiser));
        assert_eq!(unit_by_name("art"), Some(Artillery));
        assert_eq!(unit_by_name("aa gun"), Some(AaGun));
        // Europe's names, and entries one after the other.
        let b = Battle::parse("3 inf 1 art vs 4 inf").unwrap();
        assert_eq!(b.attackers, Army::from_counts(&[(Infantry, 3), (Artillery, 1)]));
        assert_eq!(b.defenders, Army::from_counts(&[(Infantry, 4)]));
        let b = Battle::parse("2 artillery 1 destroyer 2x dd vs 1 aa gun 2 battleships, sub").unwrap();
        assert_eq!(b.attackers, Army::from_counts(&[(Artillery, 2), (Destroyer, 3)]));
        assert_eq!(b.defenders, Army::from_counts(&[(AaGun, 1), (Battleship, 2), (Submarine, 1)]));
        assert_eq!(unit_by_name("destroyers"), Some(Destroyer));
        assert_eq!(unit_by_name("arty"), Some(Artillery));
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(matches!(Battle::parse("3 inf"), Err(CalcError::Syntax(_))));
        assert!(matches!(Battle::parse("3 inf vs 2 inf vs 1 inf"), Err(CalcError::Syntax(_))));
        assert!(matches!(Battle::parse("3 elephants vs 2 inf"), Err(CalcError::UnknownUnit(_))));
        assert!(matches!(Battle::parse("99999999999 inf vs 2 inf"), Err(CalcError::Syntax(_))));
    }

    #[test]
    fn displays_counts() {
        assert_eq!(Army::from_counts(&[(Infantry, 3), (Armor, 1)]).to_string(), "3 infantry, 1 armor");
        assert_eq!(Army::new().to_string(), "nothing");
    }
}
