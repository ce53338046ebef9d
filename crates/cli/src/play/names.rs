//! The words a person types and reads for unit types, on top of the rules
//! core's one list of player names (`UnitType::from_player_name`, `short`):
//! here, the ruleset check with its message, and "3 inf 1 arm" lists.

use warboard_rules::{Ruleset, UnitType};

/// The short form shown on screen (`inf`, `arm`, `bb`).
pub fn short(kind: UnitType) -> &'static str {
    kind.short()
}

/// The unit type a word names, in any accepted spelling, if the ruleset has
/// it. The error is a sentence for the person who typed it.
pub fn parse_unit(word: &str, rs: &Ruleset) -> Result<UnitType, String> {
    let kind = rs
        .unit_by_player_name(word)
        .ok_or_else(|| format!("`{word}` is not a unit type (try inf, arm, ftr, bmb, trn, sub, cv, bb, aa, ic)"))?;
    if rs.unit(kind).is_none() {
        return Err(format!("the {} ruleset has no {}", rs.name, kind.name().replace('_', " ")));
    }
    Ok(kind)
}

/// Whether a word is a unit type in any spelling (ruleset aside).
pub fn unit_word(word: &str) -> Option<UnitType> {
    UnitType::from_player_name(word)
}

/// "3 inf 1 arm": the log's one way of counting units.
pub use warboard_table::narrate::counts_text;

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> std::sync::Arc<Ruleset> {
        warboard_rules::ruleset("classic").expect("the classic ruleset loads")
    }

    #[test]
    fn every_spelling_of_a_unit_is_understood() {
        let rs = classic();
        for (word, kind) in [
            ("inf", UnitType::Infantry),
            ("INFANTRY", UnitType::Infantry),
            ("tank", UnitType::Armor),
            ("tanks", UnitType::Armor),
            ("arm", UnitType::Armor),
            ("ftr", UnitType::Fighter),
            ("fighters", UnitType::Fighter),
            ("bmb", UnitType::Bomber),
            ("trn", UnitType::Transport),
            ("sub", UnitType::Submarine),
            ("cv", UnitType::AircraftCarrier),
            ("ac", UnitType::AircraftCarrier),
            ("aircraft-carrier", UnitType::AircraftCarrier),
            ("bb", UnitType::Battleship),
            ("aa", UnitType::AaGun),
            ("aa_gun", UnitType::AaGun),
            ("ic", UnitType::IndustrialComplex),
        ] {
            assert_eq!(parse_unit(word, &rs), Ok(kind), "{word}");
        }
    }

    #[test]
    fn unknown_words_and_absent_types_are_explained() {
        let rs = classic();
        assert!(parse_unit("zeppelin", &rs).unwrap_err().contains("not a unit type"));
        // Classic has no destroyers: the message says so rather than "unknown".
        assert!(parse_unit("dd", &rs).unwrap_err().contains("has no destroyer"));
    }

    #[test]
    fn counts_are_merged_and_abbreviated() {
        let text = counts_text(&[(UnitType::Armor, 1), (UnitType::Infantry, 2), (UnitType::Infantry, 1)]);
        assert_eq!(text, "3 inf 1 arm");
        assert_eq!(counts_text(&[]), "nothing");
    }
}
