//! Dice nobody can fake and records nobody can rewrite (issue 31, scheme W1
//! of the research note; docs/pbem.md is the specification).
//!
//! - [`dice`]: entry n's dice from a 32-byte value `r` (a beacon round's
//!   randomness, or the server's revealed seed): `K = HMAC-SHA256(r, …)`,
//!   ChaCha20 keyed by `K`, dice by rejection sampling. [`ProofDice`] is a
//!   rules-core `DiceSource`.
//! - [`seed`]: the `server` dice mode's seed, its commitment and its check.
//! - [`beacon`]: the [`Beacon`] trait; drand quicknet ([`Drand`]) and a local
//!   [`TestBeacon`].
//! - [`chain`]: the header, entries, receipts, their canonical bytes and
//!   signatures; [`ChainWriter`] builds a chain.
//! - [`verify`](mod@verify): the offline verifier, [`verify()`], returning
//!   the first problem with a stable `record/…` code, or each entry's dice.

pub mod beacon;
pub mod bytes;
pub mod chain;
pub mod dice;
pub mod error;
pub mod seed;
pub mod verify;

pub use beacon::{beacon_for, Beacon, ChainInfo, Drand, TestBeacon};
pub use chain::{link_hash, BeaconProof, ChainWriter, DiceMode, Entry, Header, Link, LinkProof, Receipt, SeatKey, SignedEntry, SignedReceipt};
pub use dice::{dice_key, Keystream, ProofDice};
pub use ed25519_dalek::{SigningKey, VerifyingKey};
pub use error::ProofError;
pub use seed::{check_seed, commitment_of, ServerSeed};
pub use verify::{check_round_ahead, check_seat, seat_keys, verify, Record, Verified, VerifiedEntry, Verifier, MAX_ROUNDS_AHEAD};
