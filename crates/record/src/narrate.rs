//! A saved game told in words: the walk over a record's log
//! ([`walk`]) and one sentence per event ([`event_sentence`]), which the
//! terminal game's log and `warboard replay` tell in one style.

use crate::file::Entry;
use crate::record::Record;
use std::collections::BTreeMap;
use warboard_rules::battle::{BattleKind, BattleResult};
use warboard_rules::{Event, GameState, PowerId, Ruleset, SpaceId, UnitId, UnitType};

/// Replays a record's log from its start, calling `f` with the state
/// before and after each entry: the one walk every teller of a saved game
/// uses (`warboard replay`, the terminal game's log after a load). The
/// error is a sentence saying where the replay stopped.
pub fn walk(record: &Record, mut f: impl FnMut(&GameState, &GameState, &Entry)) -> Result<(), String> {
    let (rolled, queued) = record.client_dice();
    let all_dice = rolled.into_iter().chain(queued).collect();
    let mut replay = Record::for_replay(record.start().clone(), all_dice).map_err(|e| format!("the game cannot be started again: {e}"))?;
    for (i, entry) in record.log().iter().enumerate() {
        let before = replay.state().clone();
        replay.apply_resolved(&entry.action.value(), entry.resolved.clone(), entry.by).map_err(|e| format!("(the replay stops at log[{i}]: {e})"))?;
        f(&before, replay.state(), entry);
    }
    Ok(())
}

/// What an event's sentence is about: user interfaces colour it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topic {
    Action,
    Battle,
    Dice,
    Loss,
    Capture,
    Income,
    Victory,
}

/// How units are written in sentences.
pub struct Wording {
    /// "2 infantry, 1 armor" or "2 inf 1 arm", from counts per type.
    pub counts: fn(&[(UnitType, u32)]) -> String,
    /// Between the spaces of a route.
    pub arrow: &'static str,
}

/// A power's id, or "?" for one the ruleset lacks.
pub fn power(rs: &Ruleset, p: PowerId) -> &str {
    rs.powers.get(p.index()).map(|x| x.id.as_str()).unwrap_or("?")
}

/// A space's id, or "?" for one the map lacks.
pub fn space(rs: &Ruleset, s: SpaceId) -> &str {
    if s.index() < rs.map.len() {
        rs.map.name(s)
    } else {
        "?"
    }
}

/// Units looked up by id in a state, written as the wording says.
pub fn units_in(s: &GameState, ids: &[UnitId], words: &Wording) -> String {
    let kinds: Vec<(UnitType, u32)> = ids.iter().filter_map(|id| s.unit(*id)).map(|u| (u.kind, 1)).collect();
    let unknown = ids.len() - kinds.len();
    let known = (words.counts)(&kinds);
    match (unknown, kinds.is_empty()) {
        (0, _) => known,
        (1, true) => "1 unit".to_string(),
        (n, true) => format!("{n} units"),
        (1, false) => format!("{known} and 1 unit"),
        (n, false) => format!("{known} and {n} units"),
    }
}

/// "germany buys 2 inf for 6 IPCs"; units that cost nothing are received
/// (China's infantry, AA50 FAQ: China), not bought (issue 33, point 11).
pub fn purchase_sentence(who: &str, units: &str, cost: i32) -> String {
    match cost {
        0 => format!("{who} receives {units}"),
        1 => format!("{who} buys {units} for 1 IPC"),
        _ => format!("{who} buys {units} for {cost} IPCs"),
    }
}

/// The verb for who rolls: "the attacker rolls", "attacking submarines roll".
fn rolls(purpose: &str) -> &'static str {
    // The subject's noun: "AA fire over Caucasus" is AA fire.
    let subject = purpose.split(" over ").next().unwrap_or(purpose);
    let last = subject.rsplit(' ').next().unwrap_or(subject);
    if last.ends_with('s') && !last.ends_with("ss") {
        "roll"
    } else {
        "rolls"
    }
}

/// A raid's result: the victim's IPCs (classic, Europe), or damage markers
/// on its complex where the ruleset's raids damage factories (Anniversary,
/// `bombing_cap = factory_damage`: no bank changes, issue 33, point 7).
fn raid_sentence(rs: &Ruleset, at: &str, victim: &str, amount: i32) -> String {
    let plural = if amount == 1 { "" } else { "s" };
    if rs.options.bombing_cap == warboard_rules::ruleset::BombingCap::FactoryDamage {
        format!("the raid on {at} places {amount} damage marker{plural} on {victim}'s industrial complex")
    } else {
        format!("the raid on {at} costs {victim} {amount} IPC{plural}")
    }
}

/// One event in words: the one place where warboard tells what happened,
/// for `warboard replay`, the terminal game's log and other front ends.
/// `before` and `after` are the states around the action that produced it.
/// Phase starts are left to the caller (each front end heads its log its
/// own way): `None`.
pub fn event_sentence(rs: &Ruleset, before: &GameState, after: &GameState, event: &Event, words: &Wording) -> Option<(Topic, String)> {
    let counts = words.counts;
    Some(match event {
        Event::PhaseStarted { .. } => return None,
        Event::Eliminated { power: p } => (Topic::Capture, format!("{} is out of the game", power(rs, *p))),
        Event::Purchased { power: p, units, cost } => (Topic::Action, purchase_sentence(power(rs, *p), &counts(units), *cost)),
        Event::Moved { units, route } => {
            let owner = units.first().and_then(|id| before.unit(*id)).map(|u| u.owner).unwrap_or(before.turn);
            let path: Vec<&str> = route.iter().map(|s| space(rs, *s)).collect();
            (Topic::Action, format!("{} moves {}: {}", power(rs, owner), units_in(before, units, words), path.join(words.arrow)))
        }
        Event::NeutralTaken { at, by, fee } => (Topic::Capture, format!("{} enters neutral {}, paying {fee} IPCs", power(rs, *by), space(rs, *at))),
        Event::Captured { at, by, from } => (
            Topic::Capture,
            match from {
                Some(from) => format!("{} captures {} from {}", power(rs, *by), space(rs, *at), power(rs, *from)),
                None => format!("{} captures {}", power(rs, *by), space(rs, *at)),
            },
        ),
        Event::Liberated { at, for_power } => (Topic::Capture, format!("{} is liberated for {}", space(rs, *at), power(rs, *for_power))),
        Event::BankTaken { from, to, amount } => (Topic::Capture, format!("{} takes {amount} IPCs from {}'s bank", power(rs, *to), power(rs, *from))),
        Event::Rolled { purpose, dice, hits, by } if !by.is_empty() => {
            // Each unit type's dice with what it hits on and scores (issue
            // 15, point 13): "attacker rolls inf@1 3 5 → 0, arm@3 2 6 4 →
            // 2: 2 hits".
            let mut at = 0usize;
            let mut runs = Vec::new();
            for r in by {
                let end = (at + r.count as usize).min(dice.len());
                let faces: Vec<String> = dice[at..end].iter().map(|d| d.to_string()).collect();
                at = end;
                runs.push(format!("{}@{} {} → {}", (words.counts)(&[(r.kind, 1)]).trim_start_matches("1 "), r.value, faces.join(" "), r.hits));
            }
            (Topic::Dice, format!("{purpose} {} {}: {hits} hit{}", rolls(purpose), runs.join(", "), if *hits == 1 { "" } else { "s" }))
        }
        Event::Rolled { purpose, dice, hits, .. } => {
            let faces: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
            // A raid's dice are damage, told by the line after them, not hits.
            if purpose == "strategic bombing" {
                (Topic::Dice, format!("the bombers roll {}", faces.join(" ")))
            } else {
                (Topic::Dice, format!("{purpose} {} {} → {hits} hit{}", rolls(purpose), faces.join(" "), if *hits == 1 { "" } else { "s" }))
            }
        }
        Event::Destroyed { units, at } => {
            let mut by_owner: BTreeMap<PowerId, Vec<(UnitType, u32)>> = BTreeMap::new();
            for (_, kind, owner) in units {
                by_owner.entry(*owner).or_default().push((*kind, 1));
            }
            let parts: Vec<String> = by_owner.iter().map(|(p, kinds)| format!("{} {}", power(rs, *p), counts(kinds))).collect();
            (Topic::Loss, format!("lost at {}: {}", space(rs, *at), parts.join("; ")))
        }
        Event::Damaged { unit, hits } => (Topic::Loss, format!("{} is damaged ({hits} {})", units_in(before, &[*unit], words), if *hits == 1 { "hit" } else { "hits" })),
        Event::Repaired { power: p, units } => (Topic::Income, format!("{} repairs {}", power(rs, *p), units_in(before, units, words))),
        Event::Withdrew { units, from, to } => {
            let what = units_in(before, units, words);
            let text = match to {
                Some(to) => format!("{what} withdraw from {} to {}", space(rs, *from), space(rs, *to)),
                None => format!("{what} break off the attack at {}", space(rs, *from)),
            };
            (Topic::Battle, text)
        }
        Event::BattleEnded { at, result } => {
            // A bombing raid is told as one: it ends in damage or with every
            // bomber shot down (issue 15, point 4).
            let raid = before.battles.iter().chain(after.battles.iter()).any(|b| b.at == *at && b.kind == BattleKind::Bombing);
            if raid {
                let text = match result {
                    BattleResult::AttackerWon => format!("the raid on {} is over", space(rs, *at)),
                    _ => format!("the raid on {} ends with no bomber left to drop its bombs", space(rs, *at)),
                };
                return Some((Topic::Battle, text));
            }
            let outcome = match result {
                BattleResult::AttackerWon => "the attacker wins",
                BattleResult::DefenderWon => "the defender holds",
                // At sea there is no territory to keep.
                BattleResult::Draw if rs.map.is_sea(*at) => "both sides are destroyed",
                BattleResult::Draw => "both sides are destroyed (the defender keeps the territory)",
                BattleResult::Retreated => "the attacker retreats",
                BattleResult::Pending | BattleResult::Ongoing => "not over",
            };
            (Topic::Battle, format!("battle at {} ends: {outcome}", space(rs, *at)))
        }
        Event::Bombed { at, victim, ipcs } => (Topic::Loss, raid_sentence(rs, space(rs, *at), power(rs, *victim), *ipcs)),
        Event::Placed { at, units } => {
            // The newest unit there is one just placed: its owner placed it
            // (in the Alternative rules' shopping every nation places).
            let by = after.units.iter().filter(|u| u.at == *at).max_by_key(|u| u.id).map_or(before.turn, |u| u.owner);
            (Topic::Action, format!("{} places {} at {}", power(rs, by), counts(units), space(rs, *at)))
        }
        Event::LostUnplaced { units } => (Topic::Loss, format!("{} loses unplaced {}", power(rs, before.turn), counts(units))),
        Event::Developed { power: p, development } => (Topic::Income, format!("{} develops {}", power(rs, *p), development.replace('_', " "))),
        Event::Income { power: p, amount } => {
            let bank = after.ipcs.get(p.index()).copied().unwrap_or(0);
            (Topic::Income, format!("{} collects {amount} IPCs (bank {bank})", power(rs, *p)))
        }
        Event::Converted { at, units, to } => {
            (Topic::Action, format!(
                "{} takes over {} allied unit{} at {} (Patriotic War)",
                power(rs, *to),
                units.len(),
                if units.len() == 1 { "" } else { "s" },
                space(rs, *at)
            ))
        }
        Event::Paid { from, to, amount } => {
            (Topic::Income, format!("{} hands {} {amount} IPCs for the Middle East", power(rs, *from), power(rs, *to)))
        }
        Event::Victory { winner, reason } => {
            (Topic::Victory, format!("VICTORY for the {}: {reason}", winner.describe(|p| power(rs, p).to_string())))
        }
    })
}

#[cfg(test)]
mod wording_tests {
    use super::*;

    /// Issue 33, points 7 and 11: the words agree with what happened.
    #[test]
    fn sentences_say_what_happened_in_good_english() {
        assert_eq!(purchase_sentence("china", "2 inf", 0), "china receives 2 inf");
        assert_eq!(purchase_sentence("germany", "1 inf", 1), "germany buys 1 inf for 1 IPC");
        assert_eq!(rolls("attacking submarines"), "roll");
        assert_eq!(rolls("the attacker"), "rolls");
        assert_eq!(rolls("AA fire over Caucasus"), "rolls");
        let classic = warboard_rules::ruleset("classic").unwrap();
        assert_eq!(raid_sentence(&classic, "GER", "germany", 1), "the raid on GER costs germany 1 IPC");
        let aa50 = warboard_rules::ruleset("anniversary-1941").unwrap();
        assert_eq!(raid_sentence(&aa50, "RUS", "russia", 4), "the raid on RUS places 4 damage markers on russia's industrial complex");
    }

    #[test]
    fn a_sea_battle_in_which_both_sides_sink_keeps_no_territory() {
        let rs = warboard_rules::ruleset("classic").unwrap();
        let game = warboard_rules::Game::empty(rs.clone());
        let sea = rs.map.id("NOR").unwrap();
        let land = rs.map.id("UKR").unwrap();
        let words = |at| {
            let e = Event::BattleEnded { at, result: BattleResult::Draw };
            let words = Wording { counts: |_| String::new(), arrow: "→" };
            event_sentence(&rs, &game.state, &game.state, &e, &words).unwrap().1
        };
        assert_eq!(words(sea), "battle at NOR ends: both sides are destroyed");
        assert!(words(land).ends_with("(the defender keeps the territory)"));
    }
}
