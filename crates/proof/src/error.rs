//! What can be wrong with a proof: one variant per finding, each with a
//! stable code (`record/…`, `seed/…`) that tools and tests match on.

use crate::chain::SignedReceipt;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// The header itself is unusable: a public key that is no point, a seat
    /// named twice, an unknown beacon scheme, a chain claiming quicknet's hash
    /// with another key.
    #[error("record/bad-header: {0}")]
    BadHeader(String),
    /// Bytes of the wrong length or encoding where a record is read.
    #[error("record/malformed: {0}")]
    Malformed(String),
    /// A seat's signature on an entry, or the server's on a receipt, does not
    /// verify; or a seat that has a key left an entry unsigned, or a seat
    /// without one signed.
    #[error("record/bad-signature: {what} {n}: {reason}")]
    BadSignature { n: u64, what: &'static str, reason: String },
    /// An entry names a seat the header does not list.
    #[error("record/unknown-seat: entry {n} names seat {seat:?}, which the header does not list")]
    UnknownSeat { n: u64, seat: String },
    /// An entry's `prev` is not the hash of the entry and receipt before it
    /// (for entry 0: the header's hash).
    #[error("record/chain-broken: entry {n}'s prev does not match the entry and receipt before it")]
    ChainBroken { n: u64 },
    /// Entries not numbered 0, 1, 2, … in order (a replayed, dropped or
    /// reordered entry), or receipt times going backwards.
    #[error("record/out-of-order: {0}")]
    OutOfOrder(String),
    /// A receipt signed by the server for another entry than the one beside it.
    #[error("record/receipt-mismatch: the receipt beside entry {n} is for {what}")]
    ReceiptMismatch { n: u64, what: String },
    /// Two receipts, both validly signed by the server, for one entry number
    /// with different entry hashes: the server's own proof that it forked the game.
    #[error("record/equivocation: the server signed two different entries as number {n}")]
    Equivocation { n: u64, first: Box<SignedReceipt>, second: Box<SignedReceipt> },
    /// A validly signed receipt for an entry number the record does not reach:
    /// the record was cut short.
    #[error("record/truncated: a receipt for entry {n} exists, but the record ends after {len} entries")]
    Truncated { n: u64, len: u64 },
    /// A beacon signature that does not verify, belongs to another round than
    /// the entry named, or stands where the dice mode names no rounds.
    #[error("record/bad-beacon: {}round {round}: {reason}", n.map(|n| format!("entry {n}, ")).unwrap_or_default())]
    BadBeacon { n: Option<u64>, round: u64, reason: String },
    /// An entry named a beacon round but the record holds no signature for it.
    #[error("record/missing-beacon: entry {n} named round {round}, and the record has no signature for it")]
    MissingBeacon { n: u64, round: u64 },
    /// The server receipted an entry whose round was already published (its
    /// randomness was known when the entry was accepted).
    #[error("record/round-published: entry {n} names round {round}, published at {published} s, receipted at {receipted_ms} ms")]
    RoundPublished { n: u64, round: u64, published: u64, receipted_ms: u64 },
    /// An entry named a round further ahead than `MAX_ROUNDS_AHEAD`.
    #[error("record/round-too-far: entry {n} names round {round}, more than {max} rounds after round {current} of its receipt")]
    RoundTooFar { n: u64, round: u64, current: u64, max: u64 },
    /// An entry was signed and receipted for another position than the one
    /// the game's rules reach before it: the chain and the game disagree.
    #[error("record/state-mismatch: entry {n} was signed for another position than the game stands at before it")]
    StateMismatch { n: u64 },
    /// An entry whose action rolls dice named no beacon round (or, in the
    /// server mode, was applied without the host's seed): it has no dice.
    #[error("record/no-dice: entry {n}'s action rolls dice, and its link gives none (it named no beacon round)")]
    NoDice { n: u64 },
    /// The revealed server seed is not the one committed to at the start.
    #[error("record/seed-mismatch: the revealed seed does not hash to the commitment")]
    SeedMismatch,
    /// The operating system gave no randomness for a seed or key.
    #[error("seed/unavailable: {0}")]
    SeedUnavailable(String),
}

impl ProofError {
    /// The stable code, the part before the colon in the message.
    pub fn code(&self) -> &'static str {
        match self {
            ProofError::BadHeader(_) => "record/bad-header",
            ProofError::Malformed(_) => "record/malformed",
            ProofError::BadSignature { .. } => "record/bad-signature",
            ProofError::UnknownSeat { .. } => "record/unknown-seat",
            ProofError::ChainBroken { .. } => "record/chain-broken",
            ProofError::OutOfOrder(_) => "record/out-of-order",
            ProofError::ReceiptMismatch { .. } => "record/receipt-mismatch",
            ProofError::Equivocation { .. } => "record/equivocation",
            ProofError::Truncated { .. } => "record/truncated",
            ProofError::BadBeacon { .. } => "record/bad-beacon",
            ProofError::MissingBeacon { .. } => "record/missing-beacon",
            ProofError::RoundPublished { .. } => "record/round-published",
            ProofError::RoundTooFar { .. } => "record/round-too-far",
            ProofError::StateMismatch { .. } => "record/state-mismatch",
            ProofError::NoDice { .. } => "record/no-dice",
            ProofError::SeedMismatch => "record/seed-mismatch",
            ProofError::SeedUnavailable(_) => "seed/unavailable",
        }
    }
}

/// Every code [`ProofError::code`] can return, for documentation and tests.
pub const CODES: &[&str] = &[
    "record/bad-header",
    "record/malformed",
    "record/bad-signature",
    "record/unknown-seat",
    "record/chain-broken",
    "record/out-of-order",
    "record/receipt-mismatch",
    "record/equivocation",
    "record/truncated",
    "record/bad-beacon",
    "record/missing-beacon",
    "record/round-published",
    "record/round-too-far",
    "record/state-mismatch",
    "record/no-dice",
    "record/seed-mismatch",
    "seed/unavailable",
];
