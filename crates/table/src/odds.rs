//! The odds shown before each attack.
//!
//! They come from [`AttackOdds`]: the exact calculator (crate
//! `warboard-calc`). Switching to the computer players' quick estimate is
//! the one line `type AttackOdds = ...` below. Where the calculator cannot
//! answer (a battle too large for the exact method), the quick estimate
//! does, and the screen says which one spoke.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;
use warboard_ai::odds::{Odds, QuickOdds};
use warboard_calc::{Army, Battle as CalcBattle, CalcOptions, Calculator};
use warboard_rules::battle::{self, Battle, BattleKind};
use warboard_rules::{Game, Ruleset, SpaceId, UnitId, UnitType};

/// The odds engine behind the screen's numbers.
type AttackOdds = ExactCalculator;

/// Something that estimates the chance an attack wins.
trait OddsSource {
    /// How the screen names it, so that nobody mistakes an estimate for
    /// exact odds.
    const NAME: &'static str;
    /// The chance that `attackers` destroy `defenders` and survive, if this
    /// source can tell.
    fn win_chance(rs: &Arc<Ruleset>, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], amphibious: bool) -> Option<f64>;
}

/// `warboard-calc`'s exact outcome distribution.
struct ExactCalculator;

thread_local! {
    /// One calculator for the program: it caches answers, and the screen
    /// asks about the same battles at every frame.
    static CALCULATOR: RefCell<Option<Calculator>> = const { RefCell::new(None) };
}

impl OddsSource for ExactCalculator {
    const NAME: &'static str = "exact";
    fn win_chance(rs: &Arc<Ruleset>, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], amphibious: bool) -> Option<f64> {
        let battle = CalcBattle::new(Army::from_counts(attackers), Army::from_counts(defenders));
        let opts = CalcOptions { amphibious, ..CalcOptions::default() };
        CALCULATOR.with(|cell| {
            let mut slot = cell.borrow_mut();
            let calc = match slot.as_mut() {
                Some(c) if Arc::ptr_eq(c.ruleset(), rs) => c,
                _ => slot.insert(Calculator::new(rs.clone())),
            };
            calc.exact(&battle, &opts).ok().map(|o| o.attacker_wins)
        })
    }
}

/// The computer players' Lanchester estimate (`warboard_ai::QuickOdds`).
struct QuickEstimate;

impl OddsSource for QuickEstimate {
    const NAME: &'static str = "quick estimate";
    fn win_chance(rs: &Arc<Ruleset>, attackers: &[(UnitType, u32)], defenders: &[(UnitType, u32)], amphibious: bool) -> Option<f64> {
        Some(QuickOdds.win_chance(rs, attackers, defenders, amphibious))
    }
}

/// The odds of one declared battle, as the screen shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct BattleOdds {
    pub attackers: Vec<(UnitType, u32)>,
    pub defenders: Vec<(UnitType, u32)>,
    /// The chance that the attack destroys every defender and survives.
    pub attacker_wins: f64,
    /// Which source answered.
    pub source: &'static str,
}

impl BattleOdds {
    /// "attack wins 73.4% (3 inf 1 arm vs 2 inf, exact)".
    pub fn summary(&self) -> String {
        format!(
            "attack wins {} ({} vs {}, {})",
            percent(self.attacker_wins),
            crate::narrate::counts_text(&self.attackers),
            crate::narrate::counts_text(&self.defenders),
            self.source
        )
    }
}

/// A chance to a tenth of a percent, never rounded to 0% or 100% unless it
/// is exactly that (issue 15: 99.96% is not a sure thing).
pub fn percent(p: f64) -> String {
    let p = p.clamp(0.0, 1.0);
    if p == 0.0 || p == 1.0 {
        return format!("{:.0}%", p * 100.0);
    }
    let tenths = (p * 1000.0).round();
    if tenths >= 1000.0 {
        "over 99.9%".into()
    } else if tenths <= 0.0 {
        "under 0.1%".into()
    } else {
        format!("{:.1}%", tenths / 10.0)
    }
}

fn stacks(game: &Game, ids: impl IntoIterator<Item = UnitId>) -> Vec<(UnitType, u32)> {
    let mut m: BTreeMap<UnitType, u32> = BTreeMap::new();
    for u in ids.into_iter().filter_map(|id| game.state.unit(id)) {
        *m.entry(u.kind).or_default() += 1;
    }
    m.into_iter().collect()
}

/// The odds of a land or sea battle as it stands (a bombing raid has no
/// winner to estimate: `None`).
pub fn of_battle(game: &Game, b: &Battle) -> Option<BattleOdds> {
    if b.kind == BattleKind::Bombing || b.result.is_over() {
        return None;
    }
    let rs = &game.ruleset;
    let attacking = battle::casualties::attackers(rs, &game.state, b);
    // The engine marks a battle amphibious only when it starts; before that,
    // it is one where a land unit attacks straight from a transport that
    // still floats (DAAK 4.3(a), (c)), as the engine will judge it.
    let amphibious = b.amphibious
        || (b.kind == BattleKind::Land
            && attacking.iter().filter_map(|id| game.state.unit(*id)).any(|u| u.landed_from.is_some_and(|t| game.state.unit(t).is_some())));
    // Battleships in the zones the landing came from bombard it (DAAK
    // 3.5(a)) if they fought no sea battle this turn: the calculator takes
    // them as attackers of an amphibious battle.
    let mut attacking_units = attacking.clone();
    if amphibious && b.round <= 1 {
        let zones: Vec<SpaceId> =
            attacking.iter().filter_map(|id| game.state.unit(*id)).filter_map(|u| u.landed_from.and_then(|t| game.state.unit(t)).map(|t| t.at)).collect();
        attacking_units.extend(
            game.state
                .units
                .iter()
                .filter(|u| zones.contains(&u.at) && u.owner == b.attacker && rs.stats(u.kind).bombard > 0 && !u.flags.fought)
                .map(|u| u.id),
        );
    }
    let attackers = stacks(game, attacking_units);
    // The defenders who fight, and an AA gun there, which fires at aircraft
    // although it is no casualty.
    let aa_guns = game
        .state
        .units_at(b.at)
        .filter(|u| !rs.allied(u.owner, b.attacker) && rs.stats(u.kind).anti_aircraft > 0 && b.kind == BattleKind::Land)
        .map(|u| u.id);
    let defenders = stacks(game, battle::casualties::defenders(rs, &game.state, b).into_iter().chain(aa_guns));
    Some(odds_of(rs, attackers, defenders, amphibious))
}

/// The calculator's answer, or the quick estimate where it has none.
fn odds_of(rs: &Arc<Ruleset>, attackers: Vec<(UnitType, u32)>, defenders: Vec<(UnitType, u32)>, amphibious: bool) -> BattleOdds {
    let (attacker_wins, source) = match AttackOdds::win_chance(rs, &attackers, &defenders, amphibious) {
        Some(p) => (p, AttackOdds::NAME),
        None => (QuickEstimate::win_chance(rs, &attackers, &defenders, amphibious).unwrap_or(0.0), QuickEstimate::NAME),
    };
    BattleOdds { attackers, defenders, attacker_wins, source }
}

/// The odds of the battle declared (and not yet over) at a space, if any.
pub fn at_space(game: &Game, at: SpaceId) -> Option<BattleOdds> {
    game.state.battles.iter().find(|b| b.at == at && !b.result.is_over()).and_then(|b| of_battle(game, b))
}

/// The odds where `attacker`'s units share a space with enemy units and no
/// battle is declared yet: the Alternative rules start the battle with the
/// move itself and fight it with `battle` (ALT: Moving and attacking).
/// Ships' cargo does not fight (ALT L34).
pub fn where_units_meet(game: &Game, at: SpaceId, attacker: warboard_rules::PowerId) -> Option<BattleOdds> {
    let s = &game.state;
    let fighting = |u: &&warboard_rules::Unit| u.at == at && u.carried_by.is_none();
    let ours = stacks(game, s.units.iter().filter(fighting).filter(|u| u.mover() == attacker).map(|u| u.id));
    let theirs = stacks(game, s.units.iter().filter(fighting).filter(|u| !s.allied(u.owner, attacker)).map(|u| u.id));
    if ours.is_empty() || theirs.is_empty() {
        return None;
    }
    Some(odds_of(&game.ruleset, ours, theirs, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warboard_rules::{Action, Phase, SeededDice, UnitType};

    #[test]
    fn an_overwhelming_attack_is_shown_as_likely_to_win() {
        let rs = warboard_rules::ruleset("classic").expect("classic loads");
        let mut game = Game::standard(rs.clone());
        let mut dice = SeededDice::new(1);
        game.apply(&Action::EndPhase, &mut dice).expect("research ends");
        game.apply(&Action::EndPhase, &mut dice).expect("purchase ends");
        assert_eq!(game.state.phase, Phase::CombatMove);
        // Russia attacks Ukraine with everything it has in Caucasus and Karelia.
        let ukr = rs.map.id("UKR").expect("UKR");
        for from in ["CAU", "LEN"] {
            let from = rs.map.id(from).expect("a Russian territory");
            let units: Vec<_> = game
                .state
                .units
                .iter()
                .filter(|u| u.at == from && matches!(u.kind, UnitType::Infantry | UnitType::Armor | UnitType::Fighter))
                .map(|u| u.id)
                .collect();
            game.apply(&Action::Move { units, route: vec![from, ukr], transport: None, bombing: false }, &mut dice)
                .expect("Russia attacks Ukraine");
        }
        let odds = at_space(&game, ukr).expect("a battle was declared at Ukraine");
        assert_eq!(odds.source, "exact");
        assert_eq!(odds.defenders, vec![(UnitType::Infantry, 3), (UnitType::Armor, 2), (UnitType::Fighter, 1)]);
        assert!(odds.attacker_wins > 0.5 && odds.attacker_wins < 1.0, "{odds:?}");
        assert!(odds.summary().starts_with("attack wins "));
        assert!(odds.summary().ends_with(", exact)"));
    }

    #[test]
    fn chances_are_never_rounded_to_certainty() {
        assert_eq!(percent(0.734), "73.4%");
        assert_eq!(percent(0.9996), "over 99.9%");
        assert_eq!(percent(0.0004), "under 0.1%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.0), "0%");
    }

    #[test]
    fn both_sources_agree_on_a_sure_thing() {
        let rs = warboard_rules::ruleset("classic").expect("classic loads");
        let (attackers, defenders) = (vec![(UnitType::Armor, 10)], vec![(UnitType::Infantry, 1)]);
        for p in
            [ExactCalculator::win_chance(&rs, &attackers, &defenders, false), QuickEstimate::win_chance(&rs, &attackers, &defenders, false)]
        {
            assert!(p.is_some_and(|p| p > 0.95), "{p:?}");
        }
    }
}
