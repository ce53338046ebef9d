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
use std::sync::Arc;

use ed25519_dalek::VerifyingKey;
use serde::{Deserialize, Serialize};

use crate::beacon::{beacon_for, Beacon};
use crate::bytes::{self};
use crate::chain::{link_hash, verify_signature, verifying_key, DiceMode, Header, Link, SignedEntry, SignedReceipt};
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
    let mut verifier = Verifier::new(&record.header, &record.witnessed, record.seed)?;
    let mut entries = Vec::with_capacity(record.links.len());
    for link in &record.links {
        entries.push(verifier.push(link)?);
    }
    verifier.finish()?;
    Ok(Verified { entries, head: verifier.head(), dice_pending: verifier.dice_pending() })
}

/// The verifier one link at a time, for a record read or written entry by
/// entry (a save replayed, a turn file, a live game): the same checks as
/// [`verify`], in the same order, without holding the links.
#[derive(Clone)]
pub struct Verifier {
    game_id: [u8; 16],
    seat_keys: BTreeMap<String, Option<VerifyingKey>>,
    server_key: VerifyingKey,
    beacon: Option<Arc<dyn Beacon>>,
    seed: Option<[u8; 32]>,
    /// The first receipt seen for each number (the chain's and the witnessed).
    receipts: BTreeMap<u64, SignedReceipt>,
    prev: [u8; 32],
    next_n: u64,
    last_time: u64,
}

impl std::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Verifier(game {}, next entry {})", bytes::to_hex(&self.game_id), self.next_n)
    }
}

impl Verifier {
    /// Checks the header, the revealed seed and the witnessed receipts
    /// (steps 1 to 3 for them).
    pub fn new(header: &Header, witnessed: &[SignedReceipt], seed: Option<[u8; 32]>) -> Result<Verifier, ProofError> {
        let seat_keys = seat_keys(header)?;
        let server_key = verifying_key(&header.server_key).map_err(|e| ProofError::BadHeader(format!("the server key: {e}")))?;
        let beacon = match &header.dice {
            DiceMode::Beacon { chain } => {
                if seed.is_some() {
                    return Err(ProofError::BadHeader("a revealed seed in a game whose dice come from a beacon".into()));
                }
                Some(Arc::from(beacon_for(chain)?))
            }
            DiceMode::Server { commitment } => {
                if let Some(seed) = &seed {
                    check_seed(seed, commitment)?;
                }
                None
            }
        };
        let mut verifier = Verifier {
            game_id: header.game_id,
            seat_keys,
            server_key,
            beacon,
            seed,
            receipts: BTreeMap::new(),
            prev: header.hash(),
            next_n: 0,
            last_time: 0,
        };
        for r in witnessed {
            verifier.witness(r)?;
        }
        Ok(verifier)
    }

    /// A receipt collected apart from the chain: its signature, and no
    /// other receipt for its number naming another entry.
    pub fn witness(&mut self, r: &SignedReceipt) -> Result<(), ProofError> {
        verify_signature(&self.server_key, &r.receipt.bytes(&self.game_id), &r.signature).map_err(|reason| ProofError::BadSignature {
            n: r.receipt.n,
            what: "receipt",
            reason,
        })?;
        match self.receipts.get(&r.receipt.n) {
            Some(first) if first.receipt.entry_hash != r.receipt.entry_hash => {
                Err(ProofError::Equivocation { n: r.receipt.n, first: Box::new(first.clone()), second: Box::new(r.clone()) })
            }
            Some(_) => Ok(()),
            None => {
                self.receipts.insert(r.receipt.n, r.clone());
                Ok(())
            }
        }
    }

    /// The next link: step 2 and 3 for its receipt, then step 4.
    pub fn push(&mut self, link: &Link) -> Result<VerifiedEntry, ProofError> {
        let game_id = self.game_id;
        self.witness(&link.receipt)?;
        let expected = self.next_n;
        let entry = &link.entry.entry;
        let receipt = &link.receipt.receipt;
        let n = entry.n;
        if n != expected {
            return Err(ProofError::OutOfOrder(format!("entry {n} stands where entry {expected} belongs")));
        }
        if receipt.n != n {
            return Err(ProofError::ReceiptMismatch { n, what: format!("entry {}", receipt.n) });
        }
        if entry.prev != self.prev {
            return Err(ProofError::ChainBroken { n });
        }
        let entry_hash = check_seat(&self.seat_keys, &game_id, &link.entry)?;
        if receipt.entry_hash != entry_hash {
            return Err(ProofError::ReceiptMismatch { n, what: "another entry's hash".into() });
        }
        if receipt.server_time_ms < self.last_time {
            return Err(ProofError::OutOfOrder(format!("entry {n} was receipted before entry {}", n.saturating_sub(1))));
        }
        let dice = match (&self.beacon, entry.beacon_round, &link.beacon) {
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
                check_round_ahead(beacon.as_ref(), n, round, receipt.server_time_ms)?;
                let r = beacon.verify(round, &proof.signature).map_err(|e| match e {
                    ProofError::BadBeacon { round, reason, .. } => ProofError::BadBeacon { n: Some(n), round, reason },
                    other => other,
                })?;
                Some(ProofDice::for_entry(&r, &game_id, n, &entry_hash))
            }
            (None, None, None) => self.seed.map(|s| ProofDice::for_entry(&s, &game_id, n, &entry_hash)),
            (Some(_), None, None) => None,
        };
        self.last_time = receipt.server_time_ms;
        self.prev = link_hash(&game_id, entry, receipt);
        self.next_n += 1;
        Ok(VerifiedEntry {
            n,
            seat: entry.seat.clone(),
            entry_hash,
            beacon_round: entry.beacon_round,
            seat_signed: link.entry.signature.is_some(),
            dice,
        })
    }

    /// Step 5: no signed receipt names a number past the last link.
    pub fn finish(&self) -> Result<(), ProofError> {
        match self.receipts.range(self.next_n..).next() {
            Some((&n, _)) => Err(ProofError::Truncated { n, len: self.next_n }),
            None => Ok(()),
        }
    }

    /// The next entry's `prev`.
    pub fn head(&self) -> [u8; 32] {
        self.prev
    }

    /// The next entry's number.
    pub fn next_n(&self) -> u64 {
        self.next_n
    }

    pub fn game_id(&self) -> [u8; 16] {
        self.game_id
    }

    /// Server mode before the seed is revealed: the chain checks, the dice cannot yet.
    pub fn dice_pending(&self) -> bool {
        self.beacon.is_none() && self.seed.is_none()
    }

    /// The beacon the header names (beacon mode).
    pub fn beacon(&self) -> Option<&dyn Beacon> {
        self.beacon.as_deref()
    }
}

/// The seats' keys by name, as a header lists them (`record/bad-header`
/// for a key that is no point or a seat named twice).
pub fn seat_keys(header: &Header) -> Result<BTreeMap<String, Option<VerifyingKey>>, ProofError> {
    let mut seat_keys = BTreeMap::new();
    for s in &header.seats {
        let key = match &s.key {
            None => None,
            Some(k) => Some(verifying_key(k).map_err(|e| ProofError::BadHeader(format!("seat {:?}: {e}", s.seat)))?),
        };
        if seat_keys.insert(s.seat.clone(), key).is_some() {
            return Err(ProofError::BadHeader(format!("seat {:?} is listed twice", s.seat)));
        }
    }
    Ok(seat_keys)
}

/// An entry's seat is one of `seats` and signed it exactly when it has a
/// key, with that key: what a witness checks before it receipts an entry,
/// and a verifier after. Returns the entry's hash.
pub fn check_seat(seats: &BTreeMap<String, Option<VerifyingKey>>, game_id: &[u8; 16], signed: &SignedEntry) -> Result<[u8; 32], ProofError> {
    let entry = &signed.entry;
    let n = entry.n;
    let Some(seat_key) = seats.get(entry.seat.as_str()) else {
        return Err(ProofError::UnknownSeat { n, seat: entry.seat.clone() });
    };
    let bytes = entry.bytes(game_id);
    match (seat_key, &signed.signature) {
        (Some(key), Some(sig)) => verify_signature(key, &bytes, sig).map_err(|reason| ProofError::BadSignature {
            n,
            what: "entry",
            reason: format!("seat {:?}: {reason}", entry.seat),
        })?,
        (Some(_), None) => {
            return Err(ProofError::BadSignature { n, what: "entry", reason: format!("seat {:?} has a key and did not sign", entry.seat) })
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
    Ok(bytes::sha256(&[&bytes]))
}

/// The beacon round an entry names was still to come when the server
/// receipted it, and not too far ahead (`record/round-published`,
/// `record/round-too-far`): what a witness checks before it signs, and a
/// verifier after.
pub fn check_round_ahead(beacon: &dyn Beacon, n: u64, round: u64, server_time_ms: u64) -> Result<(), ProofError> {
    let published = beacon.time_of(round);
    if round == 0 || published.saturating_mul(1000) <= server_time_ms {
        return Err(ProofError::RoundPublished { n, round, published, receipted_ms: server_time_ms });
    }
    let current = beacon.round_at(server_time_ms / 1000);
    if round > current.saturating_add(MAX_ROUNDS_AHEAD) {
        return Err(ProofError::RoundTooFar { n, round, current, max: MAX_ROUNDS_AHEAD });
    }
    Ok(())
}
