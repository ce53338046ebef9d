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
    let mut start = record.start().clone();
    let all_dice = if start.dice == crate::DiceMode::Proof {
        // A proven game's dice were checked when it was loaded or played:
        // told again, each entry rolls what it rolled.
        start.dice = crate::DiceMode::Client;
        record.log().iter().flat_map(|e| e.dice.iter().copied()).collect()
    } else {
        rolled.into_iter().chain(queued).collect()
    };
    let mut replay = Record::for_replay(start, all_dice).map_err(|e| format!("the game cannot be started again: {e}"))?;
    for (i, entry) in record.log().iter().enumerate() {
        let before = replay.state().clone();
        let parsed = match &entry.resolved {
            Some(resolved) => crate::record::Parsed::Rules(resolved.clone()),
            None => replay.parse(&entry.action.value()).map_err(|e| format!("(the replay stops at log[{i}]: {e})"))?,
        };
        replay.apply_parsed(&entry.action.value(), parsed, entry.by).map_err(|e| format!("(the replay stops at log[{i}]: {e})"))?;
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
/// With the sentence's key ([`Said`]).
pub fn purchase_sentence(who: &str, units: &str, cost: i32) -> (&'static str, String) {
    match cost {
        0 => ("received", format!("{who} receives {units}")),
        1 => ("bought_one", format!("{who} buys {units} for 1 IPC")),
        _ => ("bought", format!("{who} buys {units} for {cost} IPCs")),
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
/// With the sentence's key ([`Said`]).
fn raid_sentence(rs: &Ruleset, at: &str, victim: &str, amount: i32) -> (&'static str, String) {
    let plural = if amount == 1 { "" } else { "s" };
    if rs.options.bombing_cap == warboard_rules::ruleset::BombingCap::FactoryDamage {
        ("raid_damage", format!("the raid on {at} places {amount} damage marker{plural} on {victim}'s industrial complex"))
    } else {
        ("raid_cost", format!("the raid on {at} costs {victim} {amount} IPC{plural}"))
    }
}

/// What a sentence says, apart from its English words: a stable `key` for
/// its form and the values it names (`power…`: a power id, `phase`: a
/// phase id, `purpose`: the rules core's name for a roll, others as the
/// English sentence writes them: space ids, unit counts such as "2 inf 1
/// arm", numbers, dice). A front end in another language tells the event
/// from these (the browser's German log, web/src/story_de.ts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
}

impl Said {
    pub fn new(key: &'static str, args: &[(&'static str, &str)]) -> Said {
        Said { key, args: args.iter().map(|(k, v)| (*k, v.to_string())).collect() }
    }

    /// The value named `key`, if the sentence names one.
    pub fn arg(&self, key: &str) -> Option<&str> {
        self.args.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str())
    }

    /// Sets (or adds) the value named `key`.
    pub fn set(&mut self, key: &'static str, value: String) {
        match self.args.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.args.push((key, value)),
        }
    }
}

/// One event in words: the one place where warboard tells what happened,
/// for `warboard replay`, the terminal game's log and other front ends.
/// `before` and `after` are the states around the action that produced it.
/// Phase starts are left to the caller (each front end heads its log its
/// own way): `None`.
pub fn event_sentence(rs: &Ruleset, before: &GameState, after: &GameState, event: &Event, words: &Wording) -> Option<(Topic, String)> {
    event_told(rs, before, after, event, words).map(|(topic, text, _)| (topic, text))
}

/// [`event_sentence`] with what the sentence says ([`Said`]).
pub fn event_told(rs: &Ruleset, before: &GameState, after: &GameState, event: &Event, words: &Wording) -> Option<(Topic, String, Said)> {
    let counts = words.counts;
    let said = Said::new;
    Some(match event {
        Event::PhaseStarted { .. } => return None,
        Event::Eliminated { power: p } => (Topic::Capture, format!("{} is out of the game", power(rs, *p)), said("eliminated", &[("power", power(rs, *p))])),
        Event::Purchased { power: p, units, cost } => {
            let (who, what) = (power(rs, *p), counts(units));
            let (key, text) = purchase_sentence(who, &what, *cost);
            (Topic::Action, text, said(key, &[("power", who), ("units", &what), ("cost", &cost.to_string())]))
        }
        Event::Moved { units, route } => {
            let owner = units.first().and_then(|id| before.unit(*id)).map(|u| u.owner).unwrap_or(before.turn);
            let path: Vec<&str> = route.iter().map(|s| space(rs, *s)).collect();
            let (who, what, path) = (power(rs, owner), units_in(before, units, words), path.join(words.arrow));
            (Topic::Action, format!("{who} moves {what}: {path}"), said("moved", &[("power", who), ("units", &what), ("route", &path)]))
        }
        Event::NeutralTaken { at, by, fee } => (
            Topic::Capture,
            format!("{} enters neutral {}, paying {fee} IPCs", power(rs, *by), space(rs, *at)),
            said("neutral_taken", &[("power", power(rs, *by)), ("at", space(rs, *at)), ("fee", &fee.to_string())]),
        ),
        Event::Captured { at, by, from } => match from {
            Some(from) => (
                Topic::Capture,
                format!("{} captures {} from {}", power(rs, *by), space(rs, *at), power(rs, *from)),
                said("captured_from", &[("power", power(rs, *by)), ("at", space(rs, *at)), ("powerFrom", power(rs, *from))]),
            ),
            None => (Topic::Capture, format!("{} captures {}", power(rs, *by), space(rs, *at)), said("captured", &[("power", power(rs, *by)), ("at", space(rs, *at))])),
        },
        Event::Liberated { at, for_power } => (
            Topic::Capture,
            format!("{} is liberated for {}", space(rs, *at), power(rs, *for_power)),
            said("liberated", &[("at", space(rs, *at)), ("power", power(rs, *for_power))]),
        ),
        Event::BankTaken { from, to, amount } => (
            Topic::Capture,
            format!("{} takes {amount} IPCs from {}'s bank", power(rs, *to), power(rs, *from)),
            said("bank_taken", &[("power", power(rs, *to)), ("powerFrom", power(rs, *from)), ("amount", &amount.to_string())]),
        ),
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
            let runs = runs.join(", ");
            (
                Topic::Dice,
                format!("{purpose} {} {runs}: {hits} hit{}", rolls(purpose), if *hits == 1 { "" } else { "s" }),
                said("rolled_runs", &[("purpose", purpose), ("runs", &runs), ("hits", &hits.to_string())]),
            )
        }
        Event::Rolled { purpose, dice, hits, .. } => {
            let faces: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
            let faces = faces.join(" ");
            // Low Luck's to-hit steps: sure hits, and a die for a remainder
            // only (docs/low-luck.md); the other dice roll as ever.
            let low_luck = rs.options.low_luck
                && !["strategic bombing", "research", "war bonds", "turn order"].contains(&purpose.as_str())
                && !purpose.starts_with("rocket");
            let s = if *hits == 1 { "" } else { "s" };
            let named = [("purpose", purpose.as_str()), ("dice", faces.as_str()), ("hits", &hits.to_string())];
            // A raid's dice are damage, told by the line after them, not hits.
            if purpose == "strategic bombing" {
                (Topic::Dice, format!("the bombers roll {faces}"), said("bombers_roll", &named))
            } else if low_luck && dice.is_empty() {
                (Topic::Dice, format!("{purpose} (low luck): {hits} sure hit{s}, no die"), said("low_luck_sure", &named))
            } else if low_luck {
                (Topic::Dice, format!("{purpose} (low luck) {} {faces} → {hits} hit{s}", rolls(purpose)), said("low_luck_rolled", &named))
            } else {
                (Topic::Dice, format!("{purpose} {} {faces} → {hits} hit{s}", rolls(purpose)), said("rolled", &named))
            }
        }
        Event::Destroyed { units, at } => {
            let mut by_owner: BTreeMap<PowerId, Vec<(UnitType, u32)>> = BTreeMap::new();
            for (_, kind, owner) in units {
                by_owner.entry(*owner).or_default().push((*kind, 1));
            }
            let parts: Vec<String> = by_owner.iter().map(|(p, kinds)| format!("{} {}", power(rs, *p), counts(kinds))).collect();
            let losses = parts.join("; ");
            (Topic::Loss, format!("lost at {}: {losses}", space(rs, *at)), said("lost", &[("at", space(rs, *at)), ("losses", &losses)]))
        }
        Event::Damaged { unit, hits } => {
            let what = units_in(before, &[*unit], words);
            (
                Topic::Loss,
                format!("{what} is damaged ({hits} {})", if *hits == 1 { "hit" } else { "hits" }),
                said("damaged", &[("units", &what), ("hits", &hits.to_string())]),
            )
        }
        Event::Repaired { power: p, units } => {
            let what = units_in(before, units, words);
            (Topic::Income, format!("{} repairs {what}", power(rs, *p)), said("repaired", &[("power", power(rs, *p)), ("units", &what)]))
        }
        Event::Withdrew { units, from, to } => {
            let what = units_in(before, units, words);
            match to {
                Some(to) => (
                    Topic::Battle,
                    format!("{what} withdraw from {} to {}", space(rs, *from), space(rs, *to)),
                    said("withdrew", &[("units", &what), ("from", space(rs, *from)), ("to", space(rs, *to))]),
                ),
                None => (
                    Topic::Battle,
                    format!("{what} break off the attack at {}", space(rs, *from)),
                    said("broke_off", &[("units", &what), ("from", space(rs, *from))]),
                ),
            }
        }
        Event::BattleEnded { at, result } => {
            let here = [("at", space(rs, *at))];
            // A bombing raid is told as one: it ends in damage or with every
            // bomber shot down (issue 15, point 4).
            let raid = before.battles.iter().chain(after.battles.iter()).any(|b| b.at == *at && b.kind == BattleKind::Bombing);
            if raid {
                return Some(match result {
                    BattleResult::AttackerWon => (Topic::Battle, format!("the raid on {} is over", space(rs, *at)), said("raid_over", &here)),
                    _ => (Topic::Battle, format!("the raid on {} ends with no bomber left to drop its bombs", space(rs, *at)), said("raid_failed", &here)),
                });
            }
            let (outcome, key) = match result {
                BattleResult::AttackerWon => ("the attacker wins", "battle_won"),
                BattleResult::DefenderWon => ("the defender holds", "battle_held"),
                // At sea there is no territory to keep.
                BattleResult::Draw if rs.map.is_sea(*at) => ("both sides are destroyed", "battle_draw_at_sea"),
                BattleResult::Draw => ("both sides are destroyed (the defender keeps the territory)", "battle_draw"),
                BattleResult::Retreated => ("the attacker retreats", "battle_retreated"),
                BattleResult::Pending | BattleResult::Ongoing => ("not over", "battle_not_over"),
            };
            (Topic::Battle, format!("battle at {} ends: {outcome}", space(rs, *at)), said(key, &here))
        }
        Event::Bombed { at, victim, ipcs } => {
            let (at, victim) = (space(rs, *at), power(rs, *victim));
            let (key, text) = raid_sentence(rs, at, victim, *ipcs);
            (Topic::Loss, text, said(key, &[("at", at), ("power", victim), ("amount", &ipcs.to_string())]))
        }
        Event::Placed { at, units } => {
            // The newest unit there is one just placed: its owner placed it
            // (in the Alternative rules' shopping every nation places).
            let by = after.units.iter().filter(|u| u.at == *at).max_by_key(|u| u.id).map_or(before.turn, |u| u.owner);
            let what = counts(units);
            (
                Topic::Action,
                format!("{} places {what} at {}", power(rs, by), space(rs, *at)),
                said("placed", &[("power", power(rs, by)), ("units", &what), ("at", space(rs, *at))]),
            )
        }
        Event::LostUnplaced { units } => {
            let what = counts(units);
            (Topic::Loss, format!("{} loses unplaced {what}", power(rs, before.turn)), said("lost_unplaced", &[("power", power(rs, before.turn)), ("units", &what)]))
        }
        Event::Developed { power: p, development } => (
            Topic::Income,
            format!("{} develops {}", power(rs, *p), development.replace('_', " ")),
            said("developed", &[("power", power(rs, *p)), ("development", development)]),
        ),
        Event::Income { power: p, amount } => {
            let bank = after.ipcs.get(p.index()).copied().unwrap_or(0);
            (
                Topic::Income,
                format!("{} collects {amount} IPCs (bank {bank})", power(rs, *p)),
                said("income", &[("power", power(rs, *p)), ("amount", &amount.to_string()), ("bank", &bank.to_string())]),
            )
        }
        Event::Converted { at, units, to } => (
            Topic::Action,
            format!("{} takes over {} allied unit{} at {} (Patriotic War)", power(rs, *to), units.len(), if units.len() == 1 { "" } else { "s" }, space(rs, *at)),
            said("converted", &[("power", power(rs, *to)), ("count", &units.len().to_string()), ("at", space(rs, *at))]),
        ),
        Event::Paid { from, to, amount } => (
            Topic::Income,
            format!("{} hands {} {amount} IPCs for the Middle East", power(rs, *from), power(rs, *to)),
            said("paid", &[("power", power(rs, *from)), ("powerTo", power(rs, *to)), ("amount", &amount.to_string())]),
        ),
        Event::Victory { winner, reason } => {
            let who = winner.describe(|p| power(rs, p).to_string());
            (Topic::Victory, format!("VICTORY for the {who}: {reason}"), said("victory", &[("winner", &who), ("reason", reason)]))
        }
    })
}

#[cfg(test)]
mod wording_tests {
    use super::*;

    /// Issue 33, points 7 and 11: the words agree with what happened.
    #[test]
    fn sentences_say_what_happened_in_good_english() {
        assert_eq!(purchase_sentence("china", "2 inf", 0).1, "china receives 2 inf");
        assert_eq!(purchase_sentence("germany", "1 inf", 1).1, "germany buys 1 inf for 1 IPC");
        assert_eq!(rolls("attacking submarines"), "roll");
        assert_eq!(rolls("the attacker"), "rolls");
        assert_eq!(rolls("AA fire over Caucasus"), "rolls");
        let classic = warboard_rules::ruleset("classic").unwrap();
        assert_eq!(raid_sentence(&classic, "GER", "germany", 1).1, "the raid on GER costs germany 1 IPC");
        let aa50 = warboard_rules::ruleset("anniversary-1941").unwrap();
        assert_eq!(raid_sentence(&aa50, "RUS", "russia", 4).1, "the raid on RUS places 4 damage markers on russia's industrial complex");
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

    /// Low Luck (docs/low-luck.md): a step's sure hits and its remainder
    /// dice; the other dice are told as ever.
    #[test]
    fn low_luck_steps_tell_sure_hits() {
        let on = toml::Value::Boolean(true);
        let rs = std::sync::Arc::new(warboard_rules::ruleset("classic").unwrap().with_options([("low_luck", &on)]).unwrap());
        let game = warboard_rules::Game::empty(rs.clone());
        let words = |purpose: &str, dice: Vec<u8>, hits| {
            let e = Event::Rolled { purpose: purpose.into(), dice, hits, by: Vec::new() };
            let words = Wording { counts: |_| String::new(), arrow: "→" };
            event_sentence(&rs, &game.state, &game.state, &e, &words).unwrap().1
        };
        assert_eq!(words("attacker", vec![], 1), "attacker (low luck): 1 sure hit, no die");
        assert_eq!(words("defender", vec![4], 3), "defender (low luck) rolls 4 → 3 hits");
        assert_eq!(words("research", vec![6, 2], 0), "research rolls 6 2 → 0 hits");
    }
}
