//! Ratings per ruleset family (issue 32, docs/ladder.md).
//!
//! A [`Ladder`] is a pure function of the ordered list of rated results: no
//! I/O, no clock (every time is passed in, in milliseconds since the Unix
//! epoch), so [`Ladder::from_results`] over a list equals a ladder that
//! [`Ladder::apply`]s the same results one at a time, bit for bit.
//!
//! - **Families.** One rating per (player, [`Family`]): classic, europe,
//!   anniversary (both setups, 1941 and 1942), alternative.
//! - **One against one** (one player a side): Glicko-2, updated after every
//!   game ([`skillratings::glicko2::glicko2`]: each game is its own rating
//!   period, as lichess; τ = 0.5 and the crate's defaults: 1500, RD 350,
//!   σ 0.06). Glickman's worked example is checked in tests/glickman.rs.
//! - **Teams** (more than one player on either side): Weng-Lin on the two
//!   sides ([`skillratings::weng_lin::weng_lin_two_teams`], defaults μ 25,
//!   σ 25/3, β 25/6). A player keeps a separate Weng-Lin rating per family
//!   beside the Glicko-2 one ([`Standing::team`]): the two scales are not
//!   mapped onto each other, so neither system's numbers are bent by the
//!   other's games.
//! - **Days away.** Rating periods are fixed calendar windows of
//!   [`PERIOD_MS`] (7 days) counted from the epoch. Before a player's result
//!   is applied, its deviation grows once for every whole period between its
//!   last game and this one in which it played nothing (Glicko-2's step for
//!   a player without games in a period, φ* = √(φ² + σ²):
//!   [`skillratings::glicko2::decay_deviation`], which caps at 350). The
//!   period holding the game itself needs no extra step: the crate's
//!   one-game update already takes φ* for it.
//! - **Provisional** while the Glicko-2 deviation exceeds
//!   [`PROVISIONAL_DEVIATION`] (110, as lichess); a team rating while its
//!   uncertainty exceeds [`TEAM_PROVISIONAL_UNCERTAINTY`] (6.0). Team
//!   uncertainty grows with empty periods too, by [`TEAM_TAU`] (ours:
//!   skillratings' Weng-Lin has no such step).
//! - **How a game ended** ([`How`]) does not change the arithmetic: an
//!   abandonment counts as a loss for the side that abandoned, so a result
//!   with [`How::Abandon`] must name a winner (a draw is refused).
//!
//! The server (crates/server/src/ladder.rs, bids.rs) decides which games
//! are rated (verified records only), keeps the ordered results and their
//! bids, and computes leaderboards, profiles and side balance from them
//! with this crate (docs/ladder.md).

pub mod bids;

use std::collections::BTreeMap;

use skillratings::glicko2::{decay_deviation, glicko2, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_two_teams, WengLinConfig, WengLinRating};
use skillratings::Outcomes;

/// One rating period: 7 days in milliseconds. Windows start at the Unix
/// epoch (a Thursday), so periods are the same for every player.
pub const PERIOD_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// A Glicko-2 rating is provisional while its deviation is above this (lichess's threshold).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A team rating is provisional while its uncertainty is above this (Weng-Lin
/// starts at 25/3 ≈ 8.33). Weng-Lin narrows a player's σ slowly when the
/// other players are new too: in two against two among newcomers, 6.0 is
/// reached after about 23 team games, near Glicko-2's 22 one-against-one
/// games among newcomers to reach 110 (tests/ladder.rs). The same share of
/// the start as 110 of 350 (2.62) took 236 games there. To be tuned on data.
pub const TEAM_PROVISIONAL_UNCERTAINTY: f64 = 6.0;

/// How much a team rating's uncertainty grows per empty period:
/// σ* = √(σ² + τ²), capped at the starting 25/3. skillratings' Weng-Lin has
/// no step for a player away, so this one is ours, shaped as Glicko-2's:
/// τ is the same share of Weng-Lin's start (25/3) as Glicko-2's starting
/// volatility step (0.06 × 173.7178 ≈ 10.4 rating points) is of 350, ≈ 0.248.
pub const TEAM_TAU: f64 = 25.0 / 3.0 * (0.06 * 173.7178 / 350.0);

/// More empty periods than this (about 192 years) are counted as this many:
/// both deviations are long capped by then, and a bogus time cannot loop for long.
pub const MAX_EMPTY_PERIODS: i64 = 10_000;

/// A ruleset family: ratings in one say nothing about another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    Classic,
    Europe,
    Anniversary,
    Alternative,
}

impl Family {
    /// Every family, in a fixed order.
    pub const ALL: [Family; 4] = [Family::Classic, Family::Europe, Family::Anniversary, Family::Alternative];

    /// The family of a ruleset name: `anniversary-1941` and `anniversary-1942` are anniversary.
    pub fn from_ruleset(name: &str) -> Option<Family> {
        match name {
            "classic" => Some(Family::Classic),
            "europe" => Some(Family::Europe),
            "anniversary" | "anniversary-1941" | "anniversary-1942" => Some(Family::Anniversary),
            "alternative" => Some(Family::Alternative),
            _ => None,
        }
    }

    /// The family's name, as in `rulesets/`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Classic => "classic",
            Family::Europe => "europe",
            Family::Anniversary => "anniversary",
            Family::Alternative => "alternative",
        }
    }
}

/// A player: the server's account id.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(pub String);

impl From<&str> for PlayerId {
    fn from(s: &str) -> Self {
        PlayerId(s.to_owned())
    }
}

/// The result, from the first side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first side won.
    Win,
    /// The second side won.
    Loss,
    Draw,
}

/// How the game ended. Only recorded: the rating reads [`Outcome`] alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// The rules' victory condition.
    Victory,
    /// A side conceded.
    Surrender,
    /// A win claimed after the other side ran out of time (correspondence).
    Claim,
    /// A side left the game: a loss for it, so the outcome must name a winner.
    Abandon,
}

/// One rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedResult {
    pub family: Family,
    /// When the game ended, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The two sides, each the players who played it.
    pub sides: [Vec<PlayerId>; 2],
    pub outcome: Outcome,
    pub how: How,
}

/// Why a result cannot be rated; a refused result changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LadderError {
    #[error("side {0} has no players")]
    EmptySide(usize),
    #[error("player {0:?} appears more than once in the game")]
    PlayerTwice(PlayerId),
    #[error("an abandoned game is a loss for the side that left it, not a draw")]
    AbandonDraw,
}

/// What a player sees of one family's rating: Glicko-2 numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub value: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Deviation above [`PROVISIONAL_DEVIATION`].
    pub provisional: bool,
    /// One-against-one games rated.
    pub games: u32,
}

/// A player's team rating in one family: Weng-Lin numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TeamRating {
    pub value: f64,
    pub uncertainty: f64,
    /// Uncertainty above [`TEAM_PROVISIONAL_UNCERTAINTY`].
    pub provisional: bool,
    /// Team games rated.
    pub games: u32,
}

/// All a ladder keeps of one player in one family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub solo: Glicko2Rating,
    pub solo_games: u32,
    /// When the last one-against-one game ended.
    pub solo_last_ms: Option<i64>,
    pub team: WengLinRating,
    pub team_games: u32,
    pub team_last_ms: Option<i64>,
}

impl Default for Standing {
    fn default() -> Self {
        Standing {
            solo: Glicko2Rating::new(),
            solo_games: 0,
            solo_last_ms: None,
            team: WengLinRating::new(),
            team_games: 0,
            team_last_ms: None,
        }
    }
}

impl Standing {
    fn rating(&self, now_ms: Option<i64>) -> Rating {
        let solo = match (now_ms, self.solo_last_ms) {
            (Some(now), Some(last)) => decay_solo(self.solo, empty_periods(last, now)),
            _ => self.solo,
        };
        Rating {
            value: solo.rating,
            deviation: solo.deviation,
            volatility: solo.volatility,
            provisional: solo.deviation > PROVISIONAL_DEVIATION,
            games: self.solo_games,
        }
    }

    fn team_rating(&self, now_ms: Option<i64>) -> TeamRating {
        let team = match (now_ms, self.team_last_ms) {
            (Some(now), Some(last)) => decay_team(self.team, empty_periods(last, now)),
            _ => self.team,
        };
        TeamRating {
            value: team.rating,
            uncertainty: team.uncertainty,
            provisional: team.uncertainty > TEAM_PROVISIONAL_UNCERTAINTY,
            games: self.team_games,
        }
    }
}

/// The rating period holding a time.
pub fn period_of(at_ms: i64) -> i64 {
    at_ms.div_euclid(PERIOD_MS)
}

/// Whole periods strictly between the period of `last_ms` and that of
/// `now_ms`: the periods a player played nothing in. Zero when `now_ms` is
/// in the same or the next period, or earlier than `last_ms`.
pub fn empty_periods(last_ms: i64, now_ms: i64) -> i64 {
    (period_of(now_ms) - period_of(last_ms) - 1).clamp(0, MAX_EMPTY_PERIODS)
}

fn decay_solo(mut r: Glicko2Rating, periods: i64) -> Glicko2Rating {
    for _ in 0..periods {
        let next = decay_deviation(&r);
        if next == r {
            break; // capped at 350: every further step is the same
        }
        r = next;
    }
    r
}

fn decay_team(mut r: WengLinRating, periods: i64) -> WengLinRating {
    let cap = WengLinRating::new().uncertainty;
    for _ in 0..periods {
        if r.uncertainty >= cap {
            break;
        }
        r.uncertainty = r.uncertainty.hypot(TEAM_TAU).min(cap);
    }
    r
}

fn outcomes(outcome: Outcome) -> Outcomes {
    match outcome {
        Outcome::Win => Outcomes::WIN,
        Outcome::Loss => Outcomes::LOSS,
        Outcome::Draw => Outcomes::DRAW,
    }
}

/// Every player's standing in every family, from the results applied so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ladder {
    standings: BTreeMap<(Family, PlayerId), Standing>,
    applied: u64,
}

impl Ladder {
    pub fn new() -> Ladder {
        Ladder::default()
    }

    /// The ladder of an ordered list of results, from scratch. Stops at the
    /// first refused result, giving its index.
    pub fn from_results(results: &[RatedResult]) -> Result<Ladder, (usize, LadderError)> {
        let mut ladder = Ladder::new();
        for (i, r) in results.iter().enumerate() {
            ladder.apply(r).map_err(|e| (i, e))?;
        }
        Ok(ladder)
    }

    /// Results applied.
    pub fn applied(&self) -> u64 {
        self.applied
    }

    /// Rate one more game. A result with one player a side moves both by
    /// Glicko-2; any other by Weng-Lin on the two sides.
    pub fn apply(&mut self, result: &RatedResult) -> Result<(), LadderError> {
        check(result)?;
        let family = result.family;
        let at = result.at_ms;
        let outcome = outcomes(result.outcome);
        let [a, b] = &result.sides;
        if a.len() == 1 && b.len() == 1 {
            let mut one = self.standing(family, &a[0]);
            let mut two = self.standing(family, &b[0]);
            let r1 = one.solo_last_ms.map_or(one.solo, |last| decay_solo(one.solo, empty_periods(last, at)));
            let r2 = two.solo_last_ms.map_or(two.solo, |last| decay_solo(two.solo, empty_periods(last, at)));
            let (n1, n2) = glicko2(&r1, &r2, &outcome, &Glicko2Config::new());
            for (s, n) in [(&mut one, n1), (&mut two, n2)] {
                s.solo = n;
                s.solo_games += 1;
                s.solo_last_ms = Some(s.solo_last_ms.map_or(at, |l| l.max(at)));
            }
            self.standings.insert((family, a[0].clone()), one);
            self.standings.insert((family, b[0].clone()), two);
        } else {
            let side = |players: &Vec<PlayerId>| -> Vec<Standing> { players.iter().map(|p| self.standing(family, p)).collect() };
            let (mut sa, mut sb) = (side(a), side(b));
            let ratings = |s: &[Standing]| -> Vec<WengLinRating> {
                s.iter().map(|s| s.team_last_ms.map_or(s.team, |last| decay_team(s.team, empty_periods(last, at)))).collect()
            };
            let (na, nb) = weng_lin_two_teams(&ratings(&sa), &ratings(&sb), &outcome, &WengLinConfig::new());
            for (players, standings, new) in [(a, &mut sa, na), (b, &mut sb, nb)] {
                for ((p, s), n) in players.iter().zip(standings.iter_mut()).zip(new) {
                    s.team = n;
                    s.team_games += 1;
                    s.team_last_ms = Some(s.team_last_ms.map_or(at, |l| l.max(at)));
                    self.standings.insert((family, p.clone()), *s);
                }
            }
        }
        self.applied += 1;
        Ok(())
    }

    /// What the ladder keeps of a player in a family (the defaults if it never played there).
    pub fn standing(&self, family: Family, player: &PlayerId) -> Standing {
        self.standings.get(&(family, player.clone())).copied().unwrap_or_default()
    }

    /// A player's one-against-one rating as of its last game.
    pub fn rating(&self, family: Family, player: &PlayerId) -> Rating {
        self.standing(family, player).rating(None)
    }

    /// A player's one-against-one rating at `now_ms`: its deviation grown
    /// for the periods since its last game in which it played nothing, as
    /// its next game would see it.
    pub fn rating_at(&self, family: Family, player: &PlayerId, now_ms: i64) -> Rating {
        self.standing(family, player).rating(Some(now_ms))
    }

    /// A player's team rating as of its last team game.
    pub fn team_rating(&self, family: Family, player: &PlayerId) -> TeamRating {
        self.standing(family, player).team_rating(None)
    }

    /// A player's team rating at `now_ms`, uncertainty grown as in [`Ladder::rating_at`].
    pub fn team_rating_at(&self, family: Family, player: &PlayerId, now_ms: i64) -> TeamRating {
        self.standing(family, player).team_rating(Some(now_ms))
    }

    /// Every (family, player) the ladder has seen, in order.
    pub fn players(&self) -> impl Iterator<Item = (Family, &PlayerId)> {
        self.standings.keys().map(|(f, p)| (*f, p))
    }
}

fn check(result: &RatedResult) -> Result<(), LadderError> {
    for (i, side) in result.sides.iter().enumerate() {
        if side.is_empty() {
            return Err(LadderError::EmptySide(i));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for p in result.sides.iter().flatten() {
        if !seen.insert(p) {
            return Err(LadderError::PlayerTwice(p.clone()));
        }
    }
    if result.how == How::Abandon && result.outcome == Outcome::Draw {
        return Err(LadderError::AbandonDraw);
    }
    Ok(())
}
