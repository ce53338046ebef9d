//! Where a game's dice come from, and the record of what each action rolled.
//!
//! Dice are drawn only by accepted actions: an action is tried with a copy
//! of the stream ([`Tally`]) and the copy replaces the stream only if the
//! action is accepted. So the dice of a seeded game depend on the seed and
//! the accepted actions alone, and a replay of the log draws the same ones.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use warboard_rules::{DiceError, DiceSource, SeededDice};

/// The dice source a game was started with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "snake_case", deny_unknown_fields)]
pub enum DiceMode {
    /// Reproducible dice from a seed (ChaCha8, the rules core's `SeededDice`).
    Seeded { seed: u64 },
    /// Dice supplied by the client (a physical table, a play-by-email dice
    /// server, a test), used in the order given.
    Client,
    /// Each entry's dice come from its link in the game's signed chain: a
    /// public beacon's round, or the host's seed committed at the start
    /// (docs/pbem.md). The chain itself is the record's proof.
    Proof,
}

/// The dice still to come.
#[derive(Clone, Debug)]
pub(crate) enum DiceStream {
    /// Boxed: the generator is large beside the client queue.
    Seeded(Box<SeededDice>),
    Client {
        /// Every client die consumed so far, in order.
        rolled: Vec<u8>,
        /// Supplied and not yet consumed.
        queued: VecDeque<u8>,
    },
    /// The dice of the entry being applied, set for it alone.
    Proof(EntryDice),
}

/// The dice one entry of a proven game may draw.
#[derive(Clone, Debug)]
pub(crate) enum EntryDice {
    /// None: an entry whose link names no dice rolls nothing.
    None,
    /// Derived from its beacon round or the seed (docs/pbem.md, "Dice").
    Proven(Box<warboard_proof::ProofDice>),
    /// The dice a save recorded for it, while the host's seed is still
    /// secret: checked once the seed is revealed.
    Recorded(VecDeque<u8>),
}

impl DiceStream {
    pub fn new(mode: DiceMode) -> DiceStream {
        match mode {
            DiceMode::Seeded { seed } => DiceStream::Seeded(Box::new(SeededDice::new(seed))),
            DiceMode::Client => DiceStream::Client { rolled: Vec::new(), queued: VecDeque::new() },
            DiceMode::Proof => DiceStream::Proof(EntryDice::None),
        }
    }

    /// Adds client dice to the queue; every value is a die face.
    pub fn supply(&mut self, values: &[u8]) -> Result<(), String> {
        let DiceStream::Client { rolled, queued } = self else {
            return Err("this game rolls its own dice (from its seed or its proof); dice are supplied only in a game started with dice \"client\"".into());
        };
        if let Some(bad) = values.iter().find(|v| !(1..=6).contains(*v)) {
            return Err(format!("a die shows 1 to 6, not {bad}"));
        }
        // A save holds at most so many (issue 34, finding 6: the engine
        // could be given dice enough for a save that no loader reads).
        let held = rolled.len() + queued.len();
        if held + values.len() > crate::limits::MAX_CLIENT_DICE {
            return Err(format!(
                "a game takes at most {} client dice in all, and this one has {held}: {} more would make a save no loader reads",
                crate::limits::MAX_CLIENT_DICE,
                values.len()
            ));
        }
        queued.extend(values);
        Ok(())
    }

    /// Client dice consumed so far and still queued (empty for a seeded game).
    pub fn client_dice(&self) -> (Vec<u8>, Vec<u8>) {
        match self {
            DiceStream::Seeded(_) | DiceStream::Proof(_) => (Vec::new(), Vec::new()),
            DiceStream::Client { rolled, queued } => (rolled.clone(), queued.iter().copied().collect()),
        }
    }

    pub fn queued(&self) -> usize {
        match self {
            DiceStream::Seeded(_) | DiceStream::Proof(_) => 0,
            DiceStream::Client { queued, .. } => queued.len(),
        }
    }
}

/// A copy of the stream handed to one action, counting what it draws.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    pub stream: DiceStream,
    pub drawn: Vec<u8>,
}

impl Tally {
    pub fn new(stream: &DiceStream) -> Tally {
        Tally { stream: stream.clone(), drawn: Vec::new() }
    }
}

impl DiceSource for Tally {
    fn roll(&mut self) -> Result<u8, DiceError> {
        let v = match &mut self.stream {
            DiceStream::Seeded(rng) => rng.roll()?,
            DiceStream::Client { rolled, queued } => {
                let v = queued.pop_front().ok_or(DiceError { given: self.drawn.len() })?;
                rolled.push(v);
                v
            }
            DiceStream::Proof(EntryDice::Proven(dice)) => dice.next_die(),
            DiceStream::Proof(EntryDice::Recorded(queued)) => queued.pop_front().ok_or(DiceError { given: self.drawn.len() })?,
            DiceStream::Proof(EntryDice::None) => return Err(DiceError { given: 0 }),
        };
        self.drawn.push(v);
        Ok(v)
    }
    fn boxed_clone(&self) -> Box<dyn DiceSource> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_draws_from_a_copy() {
        let stream = DiceStream::new(DiceMode::Seeded { seed: 3 });
        let mut a = Tally::new(&stream);
        let mut b = Tally::new(&stream);
        let first: Vec<u8> = (0..5).map(|_| a.roll().unwrap()).collect();
        let again: Vec<u8> = (0..5).map(|_| b.roll().unwrap()).collect();
        assert_eq!(first, again);
        assert_eq!(a.drawn, first);
    }

    #[test]
    fn client_dice_run_out_and_are_checked() {
        let mut stream = DiceStream::new(DiceMode::Client);
        assert!(stream.supply(&[1, 7]).is_err());
        assert_eq!(stream.queued(), 0, "a rejected supply adds nothing");
        stream.supply(&[2, 5]).unwrap();
        let mut t = Tally::new(&stream);
        assert_eq!(t.roll(), Ok(2));
        assert_eq!(t.roll(), Ok(5));
        assert!(t.roll().is_err());
        assert_eq!(t.stream.client_dice(), (vec![2, 5], vec![]));
        assert!(DiceStream::new(DiceMode::Seeded { seed: 1 }).supply(&[3]).is_err());
    }
}

/// A seed for a game started without one, from the operating system's random
/// source: a seed from the clock could be guessed by whoever knows when the
/// game began, and with it every die (issue 29: dice nobody can fake).
pub fn fresh_seed() -> u64 {
    // Without an entropy source there is no fair game to start: better to
    // stop than to deal predictable dice.
    getrandom::u64().expect("the operating system's random source is available")
}

#[cfg(test)]
mod seed_tests {
    #[test]
    fn fresh_seeds_come_from_the_random_source_not_the_clock() {
        // Two seeds drawn at once: the clock would give two near-equal
        // numbers; the random source differs in about half the bits.
        let (a, b) = (super::fresh_seed(), super::fresh_seed());
        assert!((a ^ b).count_ones() > 8, "{a:x} {b:x}");
    }
}
