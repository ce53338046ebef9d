//! Games between kinds of players, for `warboard selfplay` and the strength
//! measurements in BENCHMARKS.md.

use crate::{play_game, ComputerPlayer, GameOutcome, GreedyPlayer, PlanningPlayer, Player, RandomPlayer};
use std::str::FromStr;
use std::sync::Arc;
use warboard_rules::ruleset::Ruleset;
use warboard_rules::{ruleset, Game, SeededDice, Side};

/// Which player takes a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// The planner of issue 7 (`ai`): one fixed style, no search.
    Computer,
    /// The planning player of issue 14 (`planner`): plays candidate turns
    /// out, thinking the given milliseconds (in simulated turns) a turn.
    Planner { think_ms: u64 },
    Greedy,
    Random,
}

impl FromStr for PlayerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "ai" | "computer" => Ok(PlayerKind::Computer),
            "planner" => Ok(PlayerKind::Planner { think_ms: crate::planner::DEFAULT_THINK_MS }),
            "greedy" => Ok(PlayerKind::Greedy),
            "random" => Ok(PlayerKind::Random),
            other => Err(format!("unknown player `{other}` (planner, ai, greedy or random)")),
        }
    }
}

impl PlayerKind {
    /// The same kind, a planner thinking `think_ms` a turn.
    pub fn thinking(self, think_ms: u64) -> Self {
        match self {
            PlayerKind::Planner { .. } => PlayerKind::Planner { think_ms },
            other => other,
        }
    }

    pub fn make(self, seed: u64) -> Box<dyn Player> {
        match self {
            PlayerKind::Computer => Box::new(ComputerPlayer::new()),
            PlayerKind::Planner { think_ms } => Box::new(PlanningPlayer::new(seed, think_ms)),
            PlayerKind::Greedy => Box::new(GreedyPlayer::new()),
            PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
        }
    }
}

/// One classic game from the standard position: `axis` plays Germany and
/// Japan, `allies` the rest; dice and random players follow `seed`.
pub fn play_classic(seed: u64, axis: PlayerKind, allies: PlayerKind, max_rounds: u32) -> Result<GameOutcome, String> {
    play_ruleset("classic", seed, axis, allies, max_rounds)
}

/// One game of the named ruleset (classic, europe, ...) from its standard
/// position: `axis` plays every Axis power, `allies` every Allied one; dice
/// and random players follow `seed`.
pub fn play_ruleset(name: &str, seed: u64, axis: PlayerKind, allies: PlayerKind, max_rounds: u32) -> Result<GameOutcome, String> {
    let rs = ruleset(name).map_err(|e| e.to_string())?;
    Ok(play_with(rs, seed, axis, allies, max_rounds))
}

/// One game of a ruleset as given (options already set, e.g. by
/// [`Ruleset::with_options`]) from its standard position.
pub fn play_with(rs: Arc<Ruleset>, seed: u64, axis: PlayerKind, allies: PlayerKind, max_rounds: u32) -> GameOutcome {
    let mut players: Vec<Box<dyn Player>> = rs
        .power_ids()
        .map(|p| {
            let kind = if rs.side(p) == Side::Axis { axis } else { allies };
            kind.make(seed.wrapping_mul(1_000_003).wrapping_add(p.0 as u64))
        })
        .collect();
    let mut game = Game::standard(rs);
    let mut dice = SeededDice::new(seed);
    play_game(&mut game, &mut players, &mut dice, max_rounds)
}
