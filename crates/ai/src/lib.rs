//! Computer players for warboard. They use only the rules core's public
//! API: they look at the position, propose actions, and the rules judge
//! them like anyone else's. Deterministic for a seed.

pub mod alternative;
mod computer;
mod convoy;
pub mod eval;
mod ferry;
mod geo;
mod greedy;
pub mod production;
pub mod odds;
pub mod planner;
mod random;
pub mod roles;
pub mod series;
mod siege;
pub mod threat;

pub use computer::{Buy, ComputerPlayer, Garrison, Style};
pub use planner::PlanningPlayer;
pub use greedy::GreedyPlayer;
pub use odds::{Assessment, ExactOdds, Odds, QuickOdds};
pub use random::RandomPlayer;
pub use roles::Roles;

use warboard_rules::game::Actor;
use warboard_rules::{Action, DiceSource, Game, RuleError, Side};

/// Something that chooses actions: a computer player, or a person behind a
/// user interface.
pub trait Player {
    /// The next action for the power that acts now in `game`.
    fn next_action(&mut self, game: &Game) -> Action;
    /// The action it chose was rejected: it will not be offered again in
    /// this phase.
    fn rejected(&mut self, _action: &Action, _error: &RuleError) {}
    /// As the defender of the raid at `at`, in the attacker's combat phase
    /// before any battle: the fighters there that intercept, if any
    /// (escorts and interceptors: Europe, Anniversary's option).
    fn intercept(&mut self, _game: &Game, _at: warboard_rules::SpaceId, _power: warboard_rules::PowerId) -> Option<Action> {
        None
    }
}

/// The raids of this combat phase whose defenders may still name
/// interceptors, with each defending power that has fighters there (the
/// rules core's [`warboard_rules::battle::raids_open_to_interceptors`]).
pub fn raids_to_intercept(game: &Game) -> Vec<(warboard_rules::SpaceId, warboard_rules::PowerId)> {
    warboard_rules::battle::raids_open_to_interceptors(&game.ruleset, &game.state)
}

/// The power that acts now (for the Alternative policy, which serves
/// every player type).
pub fn acting_power(game: &Game) -> warboard_rules::PowerId {
    acting(game)
}

pub(crate) fn acting(game: &Game) -> warboard_rules::PowerId {
    match game.actor() {
        Actor::Power(p) => p,
        Actor::Terminal => game.state.turn,
    }
}

/// How a game between players ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    pub winner: Option<Side>,
    pub rounds: u32,
    pub actions: u64,
    /// Each power whose capital fell to the enemy, with the round it first
    /// fell, in order: where a long game's rounds went.
    pub capitals_taken: Vec<(warboard_rules::PowerId, u32)>,
}

/// Plays a game to its end or to `max_rounds`, asking each power's player
/// in turn. `players[i]` plays power `i`.
pub fn play_game(game: &mut Game, players: &mut [Box<dyn Player>], dice: &mut dyn DiceSource, max_rounds: u32) -> GameOutcome {
    let mut seats: Vec<&mut dyn Player> = players.iter_mut().map(|p| p.as_mut() as &mut dyn Player).collect();
    let taken = std::cell::RefCell::new(Vec::new());
    let stop = |g: &Game| {
        note_capitals_taken(g, &mut taken.borrow_mut());
        g.state.round > max_rounds
    };
    let actions = play_until(game, &mut seats, dice, &stop, u64::MAX);
    note_capitals_taken(game, &mut taken.borrow_mut());
    GameOutcome { winner: winning_side(game), rounds: game.state.round, actions, capitals_taken: taken.into_inner() }
}

/// Adds to `taken` each power whose capital an enemy holds now and that is
/// not listed yet.
fn note_capitals_taken(game: &Game, taken: &mut Vec<(warboard_rules::PowerId, u32)>) {
    let rs = &game.ruleset;
    for q in rs.power_ids() {
        let Some(c) = rs.power(q).capital else { continue };
        let lost = game.state.control[c.index()].is_some_and(|h| !game.state.allied(q, h));
        if lost && !taken.iter().any(|(t, _)| *t == q) {
            taken.push((q, game.state.round));
        }
    }
}

/// Plays on until the game is won, `stop` says so (asked before every
/// action) or `max_actions` actions have been taken; returns how many were.
/// `players[i]` plays power `i`. The planning player plays its candidate
/// turns out with it.
pub fn play_until(game: &mut Game, players: &mut [&mut dyn Player], dice: &mut dyn DiceSource, stop: &dyn Fn(&Game) -> bool, max_actions: u64) -> u64 {
    let mut actions = 0u64;
    let mut refused_in_a_row = 0u32;
    // Raids whose defenders were asked to intercept: (round, attacker, at,
    // defender); each is asked once.
    let mut asked: Vec<(u32, warboard_rules::PowerId, warboard_rules::SpaceId, warboard_rules::PowerId)> = Vec::new();
    while game.state.winner.is_none() && !stop(game) && actions < max_actions {
        // Defenders of raids decide on interceptors before any battle.
        for (at, defender) in raids_to_intercept(game) {
            let key = (game.state.round, game.state.turn, at, defender);
            if asked.contains(&key) {
                continue;
            }
            asked.push(key);
            if let Some(a) = players[defender.index()].intercept(game, at, defender) {
                if game.apply_as(Some(defender), &a, dice).is_ok() {
                    actions += 1;
                }
            }
        }
        let Actor::Power(p) = game.actor() else { break };
        let action = if refused_in_a_row > 200 {
            // A player that keeps proposing refused actions is moved on: the
            // phase ends, or the battle is played out with default choices.
            if game.state.phase == warboard_rules::Phase::Combat {
                Action::Resolve { at: None }
            } else {
                Action::EndPhase
            }
        } else {
            players[p.index()].next_action(game)
        };
        // In a phase of the whole round several powers act: the action
        // names the one whose player chose it.
        let by = game.round_phase().then_some(p);
        match game.apply_as(by, &action, dice) {
            Ok(_) => {
                actions += 1;
                refused_in_a_row = 0;
            }
            Err(e) => {
                // Out of dice, or nothing at all is accepted any more (a
                // bug, if it happens): stop rather than loop for ever.
                if e.code == "dice/exhausted" || refused_in_a_row > 1000 {
                    break;
                }
                refused_in_a_row += 1;
                if refused_in_a_row > 200 {
                    // Even the fallback was refused: start the next pending battle.
                    if let Some(b) = game.state.battles.iter().find(|b| !b.result.is_over()) {
                        let at = b.at;
                        let _ = game.apply(&Action::Resolve { at: Some(at) }, dice);
                    }
                }
                players[p.index()].rejected(&action, &e);
            }
        }
    }
    actions
}

/// The side that won: the winning team's, or, where nations play alone
/// (Alternative's independent play), the printed side all the winners
/// belong to.
fn winning_side(game: &Game) -> Option<Side> {
    let w = game.state.winner.as_ref()?;
    if let Some(side) = w.team.as_deref().and_then(Side::parse) {
        return Some(side);
    }
    let first = game.ruleset.side(*w.powers.first()?);
    w.powers.iter().all(|p| game.ruleset.side(*p) == first).then_some(first)
}
