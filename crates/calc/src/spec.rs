//! What to fight: each side's units as counts per unit type, the
//! developments each side has, and the text form players type ("3 inf,
//! 2 arm, 1 ftr vs 4 inf, 1 aa"; "2 ftr, 1 bmb with jets, heavy bombers vs
//! 3 inf, 1 aa with radar").

use crate::CalcError;
use std::fmt;
use warboard_rules::state::Development;
use warboard_rules::UnitType;

const UNIT_TYPES: usize = UnitType::ALL.len();

/// Units one side may have, in both modes. Both build the battle engine's
/// position, one unit value per unit, before anything else; the exact mode
/// keeps hit distributions as wide as a side's hit points (its own limit,
/// `exact::MAX_HIT_POINTS`, is the same number), and a Monte Carlo battle
/// costs at least the square of its units (5,000 infantry a side take
/// 0.6 s a battle). Battles of a real game have a few hundred units at
/// most. Counts are checked against it before anything is built
/// ([`Battle::check_size`], [`parse_army`]).
pub const MAX_UNITS_PER_SIDE: u32 = 5_000;

/// User text echoed in an error: at most this many characters of it (a
/// name of 100 KB is not worth printing back).
const ECHOED_CHARS: usize = 40;

/// `text` as an error message quotes it: whole when short, otherwise its
/// first [`ECHOED_CHARS`] characters and "…", which marks it as cut.
pub(crate) fn echoed(text: &str) -> String {
    match text.char_indices().nth(ECHOED_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// One side's units: how many of each unit type. Small, `Copy` and hashable,
/// so it can key the calculator's cache without allocating.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Army {
    counts: [u32; UNIT_TYPES],
}

impl Army {
    /// The same army in a ruleset's own unit names ([`Ruleset::own_type`]):
    /// "tank" is armor in classic and a tank in the Alternative rules.
    pub fn in_ruleset(&self, rs: &warboard_rules::Ruleset) -> Army {
        let mut out = Army::new();
        for (kind, n) in self.iter() {
            out.add(rs.own_type(kind).unwrap_or(kind), n);
        }
        out
    }
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

    /// All units, whatever their type (at most `u32::MAX`: an army past
    /// [`MAX_UNITS_PER_SIDE`] is refused anyway, see [`Army::units`]).
    pub fn total(&self) -> u32 {
        self.counts.iter().fold(0u32, |sum, n| sum.saturating_add(*n))
    }

    /// All units, whatever their type, without overflow: the count the
    /// limits are checked on.
    pub fn units(&self) -> u64 {
        self.counts.iter().map(|n| u64::from(*n)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|n| *n == 0)
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

/// The research developments one side has (the engine's
/// `GameState::developments` bits, `state::Development`). Those that change
/// battles: Anniversary's jet fighters (fighters attack at 4), super
/// submarines (submarines attack one higher), heavy bombers (two dice per
/// attacking bomber, one hit at most), advanced artillery (each artillery
/// supports two infantry) and radar (AA guns hit on 2); classic's jet
/// fighters (fighters defend at 5), super submarines and heavy bombers
/// (three dice per attacking bomber). Others change nothing in a battle.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Developments(u16);

impl Developments {
    /// None at all.
    pub const NONE: Developments = Developments(0);

    /// From the engine's bits (`1 << Development as u16`).
    pub fn from_bits(bits: u16) -> Developments {
        Developments(bits)
    }

    pub fn bits(self) -> u16 {
        self.0
    }

    /// These developments and `d`.
    pub fn with(self, d: Development) -> Developments {
        Developments(self.0 | d.bit())
    }

    pub fn has(self, d: Development) -> bool {
        self.0 & d.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The developments, in the engine's order.
    pub fn iter(self) -> impl Iterator<Item = Development> {
        Development::ALL.into_iter().filter(move |d| self.has(*d))
    }

    /// Parses a list of development names separated by commas (or `+`, `;`,
    /// "and"): the engine's names ("jet_fighters", "heavy_bombers") with
    /// spaces or hyphens for the underscores, and "jets", "super subs".
    pub fn parse(text: &str) -> Result<Developments, CalcError> {
        let mut devs = Developments::NONE;
        let lower = text.to_ascii_lowercase();
        let mut any = false;
        for name in lower.split([',', '+', ';']).flat_map(|part| part.split(" and ")) {
            let words: Vec<&str> = name.split(|c: char| c.is_whitespace() || c == '_' || c == '-').filter(|w| !w.is_empty()).collect();
            if words.is_empty() {
                continue;
            }
            let key = words.join("_");
            let dev = match key.as_str() {
                "jets" | "jet" => Some(Development::JetFighters),
                "super_subs" | "supersubs" | "super_sub" => Some(Development::SuperSubmarines),
                "heavies" | "heavy_bomber" => Some(Development::HeavyBombers),
                "adv_art" | "advanced_art" => Some(Development::AdvancedArtillery),
                _ => Development::parse(&key),
            };
            let dev = dev.ok_or_else(|| {
                let known: Vec<&str> = Development::ALL.iter().map(|d| d.name()).collect();
                CalcError::Syntax(format!(
                    "unknown development \"{}\"; known: {} (or jets, super subs)",
                    echoed(name.trim()),
                    known.join(", ")
                ))
            })?;
            devs = devs.with(dev);
            any = true;
        }
        if !any {
            return Err(CalcError::Syntax(format!(
                "\"with\" needs developments, e.g. \"with jet fighters, radar\"; got \"{}\"",
                echoed(text.trim())
            )));
        }
        Ok(devs)
    }
}

impl fmt::Debug for Developments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Developments({self})")
    }
}

/// "jet_fighters, radar"; "none" when empty.
impl fmt::Display for Developments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<&str> = self.iter().map(|d| d.name()).collect();
        f.write_str(&names.join(", "))
    }
}

/// Who attacks and who defends, and the developments each side has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Battle {
    pub attackers: Army,
    pub defenders: Army,
    pub attacker_developments: Developments,
    pub defender_developments: Developments,
}

impl Battle {
    /// A battle of sides without developments.
    pub fn new(attackers: Army, defenders: Army) -> Battle {
        Battle { attackers, defenders, attacker_developments: Developments::NONE, defender_developments: Developments::NONE }
    }

    /// This battle with these developments on each side.
    pub fn with_developments(mut self, attacker: Developments, defender: Developments) -> Battle {
        self.attacker_developments = attacker;
        self.defender_developments = defender;
        self
    }

    /// Parses "3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa". Either side may end with
    /// the developments it has: "2 ftr, 1 bmb with jets, heavy bombers vs
    /// 3 inf, 1 aa with radar".
    pub fn parse(text: &str) -> Result<Battle, CalcError> {
        let lower = text.to_ascii_lowercase();
        let parts: Vec<&str> = split_on_vs(&lower);
        if parts.len() != 2 {
            return Err(CalcError::Syntax(format!(
                "write the battle as `ATTACKERS vs DEFENDERS`, e.g. \"3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa\"; got \"{}\"",
                echoed(text.trim())
            )));
        }
        let (attackers, attacker_developments) = parse_side(parts[0], Side::Attackers)?;
        let (defenders, defender_developments) = parse_side(parts[1], Side::Defenders)?;
        Ok(Battle { attackers, defenders, attacker_developments, defender_developments })
    }

    /// Refuses a side of more than [`MAX_UNITS_PER_SIDE`] units, from the
    /// counts alone: both modes ask it before building anything (an army
    /// of `u32::MAX` infantry would otherwise build the engine's units
    /// one by one, gigabytes of them).
    pub fn check_size(&self) -> Result<(), CalcError> {
        check_units(Side::Attackers, self.attackers.units())?;
        check_units(Side::Defenders, self.defenders.units())
    }
}

/// Which side a count is on, for the error that refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Attackers,
    Defenders,
    /// An army read on its own ([`parse_army`]), of no side yet.
    Army,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
            Side::Army => "units",
        })
    }
}

/// `units` on `side`, or the error that refuses them.
fn check_units(side: Side, units: u64) -> Result<(), CalcError> {
    if units > u64::from(MAX_UNITS_PER_SIDE) {
        return Err(CalcError::TooManyUnits { side, units });
    }
    Ok(())
}

/// "3 infantry, 1 artillery with advanced_artillery vs 4 infantry": the
/// form [`Battle::parse`] reads.
impl fmt::Display for Battle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.attackers)?;
        if !self.attacker_developments.is_empty() {
            write!(f, " with {}", self.attacker_developments)?;
        }
        write!(f, " vs {}", self.defenders)?;
        if !self.defender_developments.is_empty() {
            write!(f, " with {}", self.defender_developments)?;
        }
        Ok(())
    }
}

/// One side's text: its units, then optionally "with" and its developments.
fn parse_side(text: &str, side: Side) -> Result<(Army, Developments), CalcError> {
    let with = text.match_indices("with").find(|(i, _)| {
        let before = text[..*i].chars().next_back();
        let after = text[i + 4..].chars().next();
        !matches!(before, Some(c) if c.is_alphanumeric()) && !matches!(after, Some(c) if c.is_alphanumeric())
    });
    match with {
        Some((i, _)) => Ok((parse_units(&text[..i], side)?, Developments::parse(&text[i + 4..])?)),
        None => Ok((parse_units(text, side)?, Developments::NONE)),
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
/// name ("3 inf", "2x armor", "fighter", "1 aa gun"), counts whole
/// numbers 0 or more. Refuses more than [`MAX_UNITS_PER_SIDE`] units as it
/// reads the counts.
pub fn parse_army(text: &str) -> Result<Army, CalcError> {
    parse_units(text, Side::Army)
}

/// [`parse_army`] of one side, named in the error that refuses too many.
fn parse_units(text: &str, side: Side) -> Result<Army, CalcError> {
    let mut army = Army::new();
    // Summed in u64, saturating: neither a count of twenty digits nor a
    // sum of counts past u32::MAX wraps round to something small.
    let mut units = 0u64;
    for entry in text.split([',', '+', ';']).flat_map(entries) {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        if entry.strip_prefix('-').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit())) {
            return Err(not_a_count(entry));
        }
        let digits = entry.find(|c: char| !c.is_ascii_digit()).unwrap_or(entry.len());
        let (count, name) = entry.split_at(digits);
        if digits > 0 && name.starts_with('.') {
            return Err(not_a_count(entry));
        }
        let count: u64 = if count.is_empty() { 1 } else { count.parse().unwrap_or(u64::MAX) };
        // "2x bb": an "x" after a count is part of the count.
        let name = name.trim_start();
        let name = match name.strip_prefix('x') {
            Some(rest) if digits > 0 && rest.starts_with(char::is_whitespace) => rest,
            _ => name,
        };
        let kind = unit_by_name(name.trim()).ok_or_else(|| CalcError::UnknownUnit(echoed(name.trim())))?;
        units = units.saturating_add(count);
        check_units(side, units)?;
        // At most MAX_UNITS_PER_SIDE, checked just above.
        army.add(kind, count as u32);
    }
    Ok(army)
}

/// The error for a count that is not a whole number 0 or more ("-3 inf",
/// "1.5 arm").
fn not_a_count(entry: &str) -> CalcError {
    CalcError::Syntax(format!("counts are whole numbers, 0 or more; got \"{}\"", echoed(entry)))
}

/// The entries of a text without separators: a count starts a new entry
/// once the entry before has a name ("3 inf 1 art": "3 inf", "1 art").
fn entries(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut named = false;
    for word in text.split_whitespace() {
        // "-3" starts an entry too, for parse_army to refuse the count.
        let count = word.trim_start_matches('-').starts_with(|c: char| c.is_ascii_digit());
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
        named |= !(count && word.trim_start_matches('-').trim_start_matches(|c: char| c.is_ascii_digit()).chars().all(|c| c == 'x'));
    }
    out
}

/// A unit type by any name players use: the rules core's one list of
/// names and abbreviations (`UnitType::from_player_name`), singular or
/// plural, in any case ("inf", "Tanks", "aircraft carrier").
pub fn unit_by_name(name: &str) -> Option<UnitType> {
    UnitType::from_player_name(name).or_else(|| {
        let key = name.trim().to_ascii_lowercase().replace([' ', '-'], "_");
        UnitType::parse(&key).or_else(|| key.strip_suffix('s').and_then(UnitType::parse))
    })
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
        assert!(matches!(Battle::parse("3 inf vs 2 inf 1 dragon"), Err(CalcError::UnknownUnit(name)) if name == "dragon"));
    }

    #[test]
    fn counts_are_whole_numbers_0_or_more() {
        for text in ["-3 inf vs 2 inf", "3 inf vs -2 inf", "3 inf -1 arm vs 2 inf", "1.5 inf vs 2 inf", "2 inf vs 1 inf, -1 arm"] {
            match Battle::parse(text) {
                Err(CalcError::Syntax(message)) => assert!(message.contains("counts are whole numbers, 0 or more"), "{text}: {message}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        let b = Battle::parse("0 arm, 2 inf vs 1 inf").unwrap();
        assert_eq!(b.attackers, Army::from_counts(&[(Infantry, 2)]));
        // A hyphen inside a name is no sign.
        assert_eq!(parse_army("2 aa-gun").map(|a| a.count(AaGun)), Ok(2));
    }

    #[test]
    fn refuses_too_many_units_from_the_counts() {
        let side = |text: &str| match Battle::parse(text) {
            Err(CalcError::TooManyUnits { side, units }) => (side, units),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(side("4294967295 inf vs 1 inf"), (Side::Attackers, 4_294_967_295));
        assert_eq!(side("1 inf vs 10000000 inf"), (Side::Defenders, 10_000_000));
        assert_eq!(side("5000 inf, 1 arm vs 1 inf"), (Side::Attackers, 5001));
        // Counts add up; the first past the limit stops the reading, and a
        // count of more digits than a u64 holds saturates.
        assert_eq!(side("3000 inf, 2000 arm 1 ftr, 4294967295 bmb vs 1 inf"), (Side::Attackers, 5001));
        assert_eq!(side("99999999999999999999999 inf vs 2 inf"), (Side::Attackers, u64::MAX));
        assert!(matches!(parse_army("6000 inf"), Err(CalcError::TooManyUnits { side: Side::Army, units: 6000 })));
        assert_eq!(
            Battle::parse("4294967295 inf vs 1 inf").unwrap_err().to_string(),
            format!("too many units on a side: 4294967295 attackers (at most {MAX_UNITS_PER_SIDE})")
        );
        assert_eq!(
            Battle::parse("99999999999999999999999 inf vs 2 inf").unwrap_err().to_string(),
            format!("too many units on a side: {} or more attackers (at most {MAX_UNITS_PER_SIDE})", u64::MAX)
        );
        // The limit itself is allowed; built by hand, an army is checked too.
        assert_eq!(Battle::parse("5000 inf vs 4999 inf, 1 arm").unwrap().check_size(), Ok(()));
        let huge = Battle::new(Army::new().with(Infantry, u32::MAX).with(Armor, u32::MAX), Army::new().with(Infantry, 1));
        assert_eq!(huge.attackers.units(), 2 * u64::from(u32::MAX));
        assert_eq!(huge.attackers.total(), u32::MAX, "saturates, never wraps round");
        assert!(!huge.attackers.is_empty());
        assert_eq!(huge.check_size(), Err(CalcError::TooManyUnits { side: Side::Attackers, units: 2 * u64::from(u32::MAX) }));
    }

    #[test]
    fn long_names_are_echoed_cut() {
        let name = "z".repeat(100_000);
        let err = Battle::parse(&format!("3 {name} vs 2 inf")).unwrap_err();
        let CalcError::UnknownUnit(shown) = &err else { panic!("{err:?}") };
        assert_eq!(shown, &format!("{}…", "z".repeat(ECHOED_CHARS)));
        assert!(err.to_string().len() < 1_000, "{err}");
        assert_eq!(echoed("élan"), "élan");
        // Cut at a character, not a byte.
        assert_eq!(echoed(&"é".repeat(50)), format!("{}…", "é".repeat(ECHOED_CHARS)));
        for text in [format!("3 inf {name}"), format!("1 ftr with {name} vs 1 inf"), format!("1 inf vs 1 inf with {name}")] {
            let err = Battle::parse(&text).unwrap_err().to_string();
            assert!(err.len() < 1_000, "{}", &err[..200]);
        }
    }

    #[test]
    fn parses_developments() {
        let b = Battle::parse("2 ftr, 1 bmb with jets, heavy bombers vs 3 inf, 1 aa with Radar").unwrap();
        assert_eq!(b.attackers, Army::from_counts(&[(Fighter, 2), (Bomber, 1)]));
        assert_eq!(b.attacker_developments, Developments::NONE.with(Development::JetFighters).with(Development::HeavyBombers));
        assert_eq!(b.defenders, Army::from_counts(&[(Infantry, 3), (AaGun, 1)]));
        assert_eq!(b.defender_developments, Developments::NONE.with(Development::Radar));
        let b = Battle::parse("3 inf 1 art with advanced_artillery and super-subs vs 2 inf").unwrap();
        assert!(b.attacker_developments.has(Development::AdvancedArtillery) && b.attacker_developments.has(Development::SuperSubmarines));
        assert!(b.defender_developments.is_empty());
        // What Display writes, parse reads back.
        assert_eq!(Battle::parse(&b.to_string()).unwrap(), b);
        assert_eq!(b.to_string(), "3 infantry, 1 artillery with super_submarines, advanced_artillery vs 2 infantry");
        assert_eq!(Battle::parse("1 inf vs 1 inf").unwrap(), Battle::new(Army::new().with(Infantry, 1), Army::new().with(Infantry, 1)));
        assert!(matches!(Battle::parse("1 ftr with lasers vs 1 inf"), Err(CalcError::Syntax(_))));
        assert!(matches!(Battle::parse("1 ftr with vs 1 inf"), Err(CalcError::Syntax(_))));
    }

    #[test]
    fn displays_counts() {
        assert_eq!(Army::from_counts(&[(Infantry, 3), (Armor, 1)]).to_string(), "3 infantry, 1 armor");
        assert_eq!(Army::new().to_string(), "nothing");
    }
}
