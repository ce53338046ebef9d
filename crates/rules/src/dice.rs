//! Chance, injected: the rules never roll on their own, they ask a
//! [`DiceSource`]. A game uses a seeded generator; tests and conformance
//! cases use fixed or scripted dice; the calculator takes expectations.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the dice ran out: this needs more dice than the {given} given")]
pub struct DiceError {
    pub given: usize,
}

pub trait DiceSource {
    /// One six-sided die.
    fn roll(&mut self) -> Result<u8, DiceError>;
    /// A copy to try actions on without spending these dice.
    fn boxed_clone(&self) -> Box<dyn DiceSource>;
}

/// Reproducible dice from a 64-bit seed (ChaCha8).
#[derive(Clone, Debug)]
pub struct SeededDice(ChaCha8Rng);

impl SeededDice {
    pub fn new(seed: u64) -> SeededDice {
        SeededDice(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl DiceSource for SeededDice {
    fn roll(&mut self) -> Result<u8, DiceError> {
        // Rejection sampling keeps the six faces exactly equally likely.
        loop {
            let v = (self.0.next_u32() & 0xff) as u8;
            if v < 252 {
                return Ok(v % 6 + 1);
            }
        }
    }
    fn boxed_clone(&self) -> Box<dyn DiceSource> {
        Box::new(self.clone())
    }
}

/// Every die shows the same face (FORMAT.md's `"hit"` is 1, `"miss"` is 6).
#[derive(Clone, Copy, Debug)]
pub struct FixedDice(pub u8);

impl DiceSource for FixedDice {
    fn roll(&mut self) -> Result<u8, DiceError> {
        Ok(self.0)
    }
    fn boxed_clone(&self) -> Box<dyn DiceSource> {
        Box::new(*self)
    }
}

/// A list of die values used in order; running out is an error.
#[derive(Clone, Debug)]
pub struct ScriptedDice {
    values: Vec<u8>,
    next: usize,
}

impl ScriptedDice {
    pub fn new(values: Vec<u8>) -> ScriptedDice {
        ScriptedDice { values, next: 0 }
    }
    pub fn used(&self) -> usize {
        self.next
    }
}

impl DiceSource for ScriptedDice {
    fn roll(&mut self) -> Result<u8, DiceError> {
        let v = self.values.get(self.next).copied().ok_or(DiceError { given: self.values.len() })?;
        self.next += 1;
        Ok(v)
    }
    fn boxed_clone(&self) -> Box<dyn DiceSource> {
        Box::new(self.clone())
    }
}
