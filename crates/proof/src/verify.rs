//! The offline verifier: a record's header and links in, the first problem
//! out as a [`ProofError`] with its stable code, or every entry's dice.
//!
//! Order of the checks (the first problem found is the one reported):
//! 1. the header: seat names unique, keys are points, the beacon is known;
//!    in the server mode a revealed seed must match the commitment;
//! 2. every receipt's server signature, the chain's and the witnessed ones;
//! 3. equivocation: two validly signed receipts for one n with different
//!    entry hashes;
//! 4. link by link: numbering, the receipt's number, `prev`, the seat and its
//!    signature, the receipt's entry hash, receipt times never going back,
//!    the beacon round (named before it was published, not too far ahead,
//!    its signature) and the dice;
//! 5. truncation: a signed receipt for a number past the record's end.

use std::collections::BTreeMap;

use ed25519_dalek::VerifyingKey;
use serde::{Deserialize, Serialize};

use crate::beacon::{beacon_for, Beacon};
use crate::bytes::{self};
use crate::chain::{link_hash, verify_signature, verifying_key, DiceMode, Header, Link, SignedReceipt};
use crate::dice::ProofDice;
use crate::error::ProofError;
use crate::seed::check_seed;

/// How far ahead of the current round (at the receipt's time) an entry may
/// name its round: about 30 s on quicknet.
pub const MAX_ROUNDS_AHEAD: u64 = 10;

/// A whole record as far as proofs go: the actions inside stay opaque.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub header: Header,
    pub links: Vec<Link>,
    /// Receipts seats or witnesses collected apart from the chain (pushed to
    /// them as the game went): they catch a server that forked or cut the record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub witnessed: Vec<SignedReceipt>,
    /// The server mode's seed, once revealed.
    #[serde(with = "bytes::hex_opt", default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<[u8; 32]>,
}

/// What a verified record's entries roll.
#[derive(Clone, Debug)]
pub struct VerifiedEntry {
    pub n: u64,
    pub seat: String,
    pub entry_hash: [u8; 32],
    pub beacon_round: Option<u64>,
    /// Whether the seat signed it (seats without keys do not).
    pub seat_signed: bool,
    /// This entry's dice: beacon mode, entries that name a round; server mode,
    /// every entry once the seed is revealed. `None`: the entry has no dice
    /// (an action of it that rolls is refused when the rules are replayed).
    pub dice: Option<ProofDice>,
}

#[derive(Clone, Debug)]
pub struct Verified {
    pub entries: Vec<VerifiedEntry>,
    /// The next entry's `prev`.
    pub head: [u8; 32],
    /// Server mode before the seed is revealed: the chain checks, the dice cannot yet.
    pub dice_pending: bool,
}

/// Checks `record` whole; see the module's documentation for the order.
pub fn verify(record: &Record) -> Result<Verified, ProofError> {
    let header = &record.header;
    let game_id = header.game_id;

    // 1. The header.
    let mut seat_keys: BTreeMap<&str, Option<VerifyingKey>> = BTreeMap::new();
    for s in &header.seats {
        let key = match &s.key {
            None => None,
            Some(k) => Some(verifying_key(k).map_err(|e| ProofError::BadHeader(format!("seat {:?}: {e}", s.seat)))?),
        };
        if seat_keys.insert(&s.seat, key).is_some() {
            return Err(ProofError::BadHeader(format!("seat {:?} is listed twice", s.seat)));
        }
    }
    let server_key = verifying_key(&header.server_key).map_err(|e| ProofError::BadHeader(format!("the server key: {e}")))?;
    let (beacon, seed): (Option<Box<dyn Beacon>>, Option<[u8; 32]>) = match &header.dice {
        DiceMode::Beacon { chain } => {
            if record.seed.is_some() {
                return Err(ProofError::BadHeader("a revealed seed in a game whose dice come from a beacon".into()));
            }
            (Some(beacon_for(chain)?), None)
        }
        DiceMode::Server { commitment } => {
            if let Some(seed) = &record.seed {
                check_seed(seed, commitment)?;
            }
            (None, record.seed)
        }
    };

    // 2. Every receipt's signature.
    let chain_receipts = record.links.iter().map(|l| &l.receipt);
    for r in chain_receipts.clone().chain(record.witnessed.iter()) {
        verify_signature(&server_key, &r.receipt.bytes(&game_id), &r.signature).map_err(|reason| ProofError::BadSignature {
            n: r.receipt.n,
            what: "receipt",
            reason,
        })?;
    }

    // 3. Equivocation, then truncation.
    let mut by_n: BTreeMap<u64, &SignedReceipt> = BTreeMap::new();
    for r in chain_receipts.chain(record.witnessed.iter()) {
        match by_n.get(&r.receipt.n) {
            Some(first) if first.receipt.entry_hash != r.receipt.entry_hash => {
                return Err(ProofError::Equivocation { n: r.receipt.n, first: Box::new((*first).clone()), second: Box::new(r.clone()) })
            }
            Some(_) => {}
            None => {
                by_n.insert(r.receipt.n, r);
            }
        }
    }
    // 4. Link by link.
    let mut prev = header.hash();
    let mut last_time = 0u64;
    let mut entries = Vec::with_capacity(record.links.len());
    for (i, link) in record.links.iter().enumerate() {
        let expected = i as u64;
        let entry = &link.entry.entry;
        let receipt = &link.receipt.receipt;
        let n = entry.n;
        if n != expected {
            return Err(ProofError::OutOfOrder(format!("entry {n} stands where entry {expected} belongs")));
        }
        if receipt.n != n {
            return Err(ProofError::ReceiptMismatch { n, what: format!("entry {}", receipt.n) });
        }
        if entry.prev != prev {
            return Err(ProofError::ChainBroken { n });
        }
        let Some(seat_key) = seat_keys.get(entry.seat.as_str()) else {
            return Err(ProofError::UnknownSeat { n, seat: entry.seat.clone() });
        };
        let bytes = entry.bytes(&game_id);
        match (seat_key, &link.entry.signature) {
            (Some(key), Some(sig)) => verify_signature(key, &bytes, sig).map_err(|reason| ProofError::BadSignature {
                n,
                what: "entry",
                reason: format!("seat {:?}: {reason}", entry.seat),
            })?,
            (Some(_), None) => {
                return Err(ProofError::BadSignature {
                    n,
                    what: "entry",
                    reason: format!("seat {:?} has a key and did not sign", entry.seat),
                })
            }
            (None, Some(_)) => {
                return Err(ProofError::BadSignature {
                    n,
                    what: "entry",
                    reason: format!("seat {:?} has no key, yet the entry is signed", entry.seat),
                })
            }
            (None, None) => {}
        }
        let entry_hash = bytes::sha256(&[&bytes]);
        if receipt.entry_hash != entry_hash {
            return Err(ProofError::ReceiptMismatch { n, what: "another entry's hash".into() });
        }
        if receipt.server_time_ms < last_time {
            return Err(ProofError::OutOfOrder(format!("entry {n} was receipted before entry {}", n.saturating_sub(1))));
        }
        last_time = receipt.server_time_ms;

        let dice = match (&beacon, entry.beacon_round, &link.beacon) {
            (_, None, Some(proof)) => {
                return Err(ProofError::BadBeacon {
                    n: Some(n),
                    round: proof.round,
                    reason: "a beacon signature for an entry that named no round".into(),
                })
            }
            (None, Some(round), _) => {
                return Err(ProofError::BadBeacon {
                    n: Some(n),
                    round,
                    reason: "the game's dice come from the server's seed, not a beacon".into(),
                })
            }
            (Some(_), Some(round), None) => return Err(ProofError::MissingBeacon { n, round }),
            (Some(beacon), Some(round), Some(proof)) => {
                if proof.round != round {
                    return Err(ProofError::BadBeacon { n: Some(n), round: proof.round, reason: format!("the entry named round {round}") });
                }
                let published = beacon.time_of(round);
                if round == 0 || published.saturating_mul(1000) <= receipt.server_time_ms {
                    return Err(ProofError::RoundPublished { n, round, published, receipted_ms: receipt.server_time_ms });
                }
                let current = beacon.round_at(receipt.server_time_ms / 1000);
                if round > current.saturating_add(MAX_ROUNDS_AHEAD) {
                    return Err(ProofError::RoundTooFar { n, round, current, max: MAX_ROUNDS_AHEAD });
                }
                let r = beacon.verify(round, &proof.signature).map_err(|e| match e {
                    ProofError::BadBeacon { round, reason, .. } => ProofError::BadBeacon { n: Some(n), round, reason },
                    other => other,
                })?;
                Some(ProofDice::for_entry(&r, &game_id, n, &entry_hash))
            }
            (None, None, None) => seed.map(|s| ProofDice::for_entry(&s, &game_id, n, &entry_hash)),
            (Some(_), None, None) => None,
        };
        entries.push(VerifiedEntry {
            n,
            seat: entry.seat.clone(),
            entry_hash,
            beacon_round: entry.beacon_round,
            seat_signed: link.entry.signature.is_some(),
            dice,
        });
        prev = link_hash(&game_id, entry, receipt);
    }
    // 5. A signed receipt past the end: the record was cut short.
    let len = record.links.len() as u64;
    if let Some((&n, _)) = by_n.range(len..).next() {
        return Err(ProofError::Truncated { n, len });
    }
    let dice_pending = matches!(header.dice, DiceMode::Server { .. }) && seed.is_none();
    Ok(Verified { entries, head: prev, dice_pending })
}
