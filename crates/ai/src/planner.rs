//! The planning player (issue 14): at the start of each of its turns it
//! plays the turn out once for every candidate [`Style`] of the planner,
//! with the opponents' replies by the standard planner until its own next
//! turn, under a few dice sequences shared by all candidates (so the
//! candidates are compared on the same luck), scores where each leads
//! ([`crate::eval`]) and plays the best for real.
//!
//! The thinking budget is counted in simulated turns, not wall-clock time,
//! so a game is the same for a seed on any machine and under any load:
//! `--think MS` buys `MS * TURNS_PER_SECOND / 1000` simulated turns.

use crate::computer::{Buy, ComputerPlayer, Garrison, Style};
use crate::{eval, play_until, ExactOdds, Player};
use warboard_rules::ids::{PowerId, SpaceId};
use warboard_rules::{Action, Game, RuleError, SeededDice};

/// Simulated turns a second on the reference machine (BENCHMARKS.md: the
/// search of a classic turn plays 150 turns in 57 ms), for turning a budget
/// in milliseconds into turns.
pub const TURNS_PER_SECOND: u64 = 2_500;

/// Units on the board that [`TURNS_PER_SECOND`] was measured with (about
/// classic's opening); a board with more costs more a simulated turn.
const REFERENCE_UNITS: f64 = 200.0;

/// The most dice sequences a search plays each candidate under.
const MAX_SAMPLES: u64 = 64;

/// How far below the best score (IPCs) an opening may score and still be
/// played: the openings a seed chooses between.
pub const OPENING_MARGIN: f64 = 10.0;

/// The default thinking budget a turn, in milliseconds.
pub const DEFAULT_THINK_MS: u64 = 250;

/// The styles played out each turn. The first is the standard planner;
/// the others send aircraft against fleets and ferry troops to friendly
/// shores near the front ("mobile"), some also guard the capital against
/// what can reach it and weigh counter-attacks ("guarded"), and they differ
/// in boldness and purchases. The guarded ones also sail their transports in
/// escorted convoys toward the shore most worth invading and land from two
/// zones away ([`Style::convoys`]). Convoys are part of those styles, not a
/// seventh candidate: the budget is shared among the candidates, and with
/// seven each was played under 17 dice sequences instead of 20, which cost
/// the classic Axis 5 of 66 games against the standard planner
/// (BENCHMARKS.md, "Convoys"). Every style but the standard one lays siege
/// to the last enemy capital ([`Style::siege`]), lands on it with troops
/// picked up on the way ([`Style::pickups`]) and attacks an enemy capital
/// with the allies who follow before its holder moves again
/// ([`Style::joint_assaults`]; BENCHMARKS.md, "Pickups and joint assaults").
pub const CANDIDATES: [(&str, Style); 6] = {
    const MOBILE: Style = Style { air_at_sea: true, shuttle: true, transports: 40, warships: 8, siege: true, pickups: true, joint_assaults: true, attrition: true, ..Style::STANDARD };
    const GUARDED: Style = Style { garrison: Garrison::Threat, counter_attacks: true, convoys: true, ..MOBILE };
    [
        ("standard", Style::STANDARD),
        ("mobile", MOBILE),
        ("guarded", GUARDED),
        ("bold", Style { attack: 0.45, capital: 0.2, fleet: 0.6, ..MOBILE }),
        ("air", Style { buy: Buy::Air, ..GUARDED }),
        ("infantry", Style { buy: Buy::Defenders, ..MOBILE }),
    ]
};

/// The tunings played out each round in the Alternative rules, whose own
/// policy the styles above do not reach: bolder or more careful attacks, a
/// larger guard at home, infantry only. (A tank-heavy purchase was tried
/// and dropped: it wins the round the search sees and loses the war, since
/// one hit kills any unit (ALT L28) and infantry give the most bodies for
/// the points; with it the planner's Axis fell in 8.6 rounds on average
/// against the standard computer, without it in 16.6; BENCHMARKS.md.)
pub const ALTERNATIVE_CANDIDATES: [(&str, Style); 4] = {
    use crate::alternative::Tuning;
    const fn tuned(alternative: Tuning) -> Style {
        Style { alternative, ..Style::STANDARD }
    }
    [
        ("standard", Style::STANDARD),
        ("bold", tuned(Tuning { margin: 0.5, ..Tuning::STANDARD })),
        ("cautious", tuned(Tuning { margin: 1.5, guard: 1.5, ..Tuning::STANDARD })),
        ("infantry", tuned(Tuning { tanks: 0.0, ..Tuning::STANDARD })),
    ]
};

/// What a simulated turn of the Alternative policy costs in classic turns:
/// it plans anew for every action (3.6 ms a turn against 0.65 ms, standard
/// computers on both sides, 20 games each).
const ALTERNATIVE_TURN_COST: f64 = 5.0;

pub struct PlanningPlayer {
    seed: u64,
    think_ms: u64,
    player: ComputerPlayer,
    /// The turn a style was last chosen for: (round, power).
    chosen_for: Option<(u32, PowerId)>,
    /// What the last search found: each candidate's mean score.
    last: Vec<(&'static str, f64)>,
    /// The players of the simulations, one a power, kept from search to
    /// search so their calculators' caches stay warm.
    actors: Vec<ComputerPlayer<ExactOdds>>,
}

impl PlanningPlayer {
    /// A planning player thinking `think_ms` (in simulated turns, see
    /// [`TURNS_PER_SECOND`]) at the start of each turn; its dice samples follow
    /// `seed`. With no budget at all it plays the standard planner.
    pub fn new(seed: u64, think_ms: u64) -> Self {
        PlanningPlayer { seed, think_ms, player: ComputerPlayer::new(), chosen_for: None, last: Vec::new(), actors: Vec::new() }
    }

    /// The thinking budget a turn, ms (0: the standard planner).
    pub fn think_ms(&self) -> u64 {
        self.think_ms
    }

    /// Each candidate's mean score in the last search (for diagnostics).
    pub fn last_search(&self) -> &[(&'static str, f64)] {
        &self.last
    }

    /// The style chosen for the current turn.
    pub fn style(&self) -> Style {
        self.player.style()
    }

    /// Plays every candidate out from the start of `p`'s turn and keeps
    /// the best.
    fn choose(&mut self, game: &Game, p: PowerId) {
        let powers = game.ruleset.power_count().max(1) as u64;
        let turns = self.think_ms * TURNS_PER_SECOND / 1000;
        // The Alternative rules: their own candidates, dearer turns, and a
        // round played out from its start (the style is chosen before the
        // simultaneous shopping, and every nation moves once a round in an
        // order drawn each round).
        let alternative = game.ruleset.options.free_movement;
        let (candidates, turn_cost): (&[(&str, Style)], f64) = if alternative { (&ALTERNATIVE_CANDIDATES, ALTERNATIVE_TURN_COST) } else { (&CANDIDATES, 1.0) };
        // A turn with many units on the board costs more to simulate (more
        // moves planned, larger battles weighed): the budget buys fewer.
        let crowding = (game.state.units.len() as f64 / REFERENCE_UNITS).max(1.0).powf(1.5);
        let samples = ((turns as f64 / (candidates.len() as u64 * powers) as f64 / crowding / turn_cost) as u64).clamp(1, MAX_SAMPLES);
        let round = game.state.round;
        if self.actors.len() != powers as usize {
            self.actors = (0..powers).map(|_| ComputerPlayer::with_odds(ExactOdds::coarse())).collect();
        }
        let mut scores = vec![0.0; candidates.len()];
        for k in 0..samples {
            let dice_seed = mix(self.seed, round as u64, p.0 as u64, k);
            for (i, (_, style)) in candidates.iter().enumerate() {
                let mut sim = game.clone();
                for (q, actor) in self.actors.iter_mut().enumerate() {
                    actor.reset();
                    actor.set_style(if q == p.index() { *style } else { Style::STANDARD });
                }
                let mut seats: Vec<&mut dyn Player> = self.actors.iter_mut().map(|x| x as &mut dyn Player).collect();
                let mut dice = SeededDice::new(dice_seed);
                // Until `p`'s next turn (or the round after, should `p`
                // have no turn then); in the Alternative rules, to the
                // round's end.
                let stop = |g: &Game| {
                    if alternative {
                        g.state.round > round
                    } else {
                        g.state.round > round + 1 || (g.state.round > round && g.state.turn == p)
                    }
                };
                play_until(&mut sim, &mut seats, &mut dice, &stop, 20_000);
                scores[i] += eval::score(&sim, p);
            }
        }
        self.last = candidates.iter().zip(&scores).map(|((name, _), s)| (*name, s / samples as f64)).collect();
        // The first best: ties go to the earlier candidate.
        let best = (0..candidates.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
        // In the first round the seed picks among the candidates scored
        // nearly as well as the best: several strong openings, not one.
        let pick = if round == 1 {
            let near: Vec<usize> = (0..candidates.len()).filter(|i| scores[*i] >= scores[best] - OPENING_MARGIN * samples as f64).collect();
            near[(mix(self.seed, 0, p.0 as u64, u64::MAX) % near.len() as u64) as usize]
        } else {
            best
        };
        self.player.set_style(candidates[pick].1);
    }
}

/// A seed for one dice sequence of one search.
fn mix(seed: u64, round: u64, power: u64, sample: u64) -> u64 {
    let mut x = seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ power.wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ sample.wrapping_mul(0x1656_67B1_9E37_79F9);
    // splitmix64's finaliser.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Player for PlanningPlayer {
    fn next_action(&mut self, game: &Game) -> Action {
        let p = crate::acting(game);
        // A style is chosen when the power first acts in its turn; in the
        // Alternative rules, when it first acts in a round (its shopping).
        let its_turn = game.ruleset.options.free_movement || game.state.turn == p;
        if self.think_ms > 0 && its_turn && game.state.winner.is_none() {
            let key = (game.state.round, p);
            if self.chosen_for != Some(key) {
                self.chosen_for = Some(key);
                self.choose(game, p);
            }
        }
        self.player.next_action(game)
    }

    fn rejected(&mut self, action: &Action, error: &RuleError) {
        self.player.rejected(action, error);
    }

    fn intercept(&mut self, game: &Game, at: SpaceId, power: PowerId) -> Option<Action> {
        self.player.intercept(game, at, power)
    }
}
