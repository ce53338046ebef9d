//! The signed hash chain (scheme W1, docs/pbem.md "The chain"): a header, and
//! for each action an entry (signed by the seat's key where it has one) and
//! the server's receipt for it. Entry n's `prev` is the hash of entry n−1's
//! bytes followed by its receipt's bytes; entry 0's is the header's hash.
//!
//! Entries are numbered from 0, as the server's game log numbers its rows.

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use crate::beacon::ChainInfo;
use crate::bytes::{self, sha256, Canon};
use crate::error::ProofError;

pub const HEADER_TAG: &str = "warboard/header/v1";
pub const ENTRY_TAG: &str = "warboard/entry/v1";
pub const RECEIPT_TAG: &str = "warboard/receipt/v1";

/// How a game's dice are made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "mode")]
pub enum DiceMode {
    /// The host's seed; its SHA-256 published here, the seed revealed at the end.
    Server {
        #[serde(with = "bytes::hex")]
        commitment: [u8; 32],
    },
    /// A public beacon's rounds, each named by the entry that uses it.
    Beacon { chain: ChainInfo },
}

/// One seat and, where its client holds one, its Ed25519 public key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatKey {
    pub seat: String,
    #[serde(with = "bytes::hex_opt", default, skip_serializing_if = "Option::is_none")]
    pub key: Option<[u8; 32]>,
}

/// What every entry of a game is bound to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// 128 random bits.
    #[serde(with = "bytes::hex")]
    pub game_id: [u8; 16],
    /// The ruleset and its canonical options string, as saves write it (opaque here).
    pub ruleset: String,
    /// The starting position's hash (opaque here).
    #[serde(with = "bytes::hex")]
    pub start_state_hash: [u8; 32],
    pub seats: Vec<SeatKey>,
    /// The key that signs receipts.
    #[serde(with = "bytes::hex")]
    pub server_key: [u8; 32],
    pub dice: DiceMode,
}

impl Header {
    /// `"warboard/header/v1" ‖ game_id ‖ var(ruleset) ‖ start_state_hash ‖ u32 seat count ‖
    /// each seat: var(name) ‖ (0x00 | 0x01 ‖ key) ‖ server_key ‖ dice mode`, the dice mode
    /// being `0x00 ‖ commitment` (server) or `0x01 ‖ chain_hash ‖ var(scheme) ‖
    /// var(public_key) ‖ u64 period ‖ u64 genesis_time` (beacon).
    pub fn bytes(&self) -> Vec<u8> {
        let mut c = Canon::new(HEADER_TAG);
        c.fixed(&self.game_id).var(self.ruleset.as_bytes()).fixed(&self.start_state_hash);
        c.fixed(&u32::try_from(self.seats.len()).unwrap_or(u32::MAX).to_be_bytes());
        for s in &self.seats {
            c.var(s.seat.as_bytes());
            match &s.key {
                None => c.u8(0),
                Some(k) => c.u8(1).fixed(k),
            };
        }
        c.fixed(&self.server_key);
        match &self.dice {
            DiceMode::Server { commitment } => {
                c.u8(0).fixed(commitment);
            }
            DiceMode::Beacon { chain } => {
                c.u8(1).fixed(&chain.chain_hash).var(chain.scheme.as_bytes()).var(&chain.public_key);
                c.u64(chain.period).u64(chain.genesis_time);
            }
        }
        c.0
    }

    /// `SHA-256(header bytes)`: entry 0's `prev`.
    pub fn hash(&self) -> [u8; 32] {
        sha256(&[&self.bytes()])
    }

    pub fn seat(&self, name: &str) -> Option<&SeatKey> {
        self.seats.iter().find(|s| s.seat == name)
    }
}

/// One action, as the seat commits to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub n: u64,
    #[serde(with = "bytes::hex")]
    pub prev: [u8; 32],
    pub seat: String,
    /// The action exactly as the caller wrote it (JSON in FORMAT's vocabulary;
    /// opaque here, hashed as its UTF-8 bytes, never re-encoded).
    pub action: String,
    #[serde(with = "bytes::hex")]
    pub state_hash_before: [u8; 32],
    /// The beacon round whose randomness makes this entry's dice (beacon mode,
    /// actions that can roll only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon_round: Option<u64>,
}

impl Entry {
    /// `"warboard/entry/v1" ‖ game_id ‖ u64 n ‖ prev ‖ var(seat) ‖ var(action) ‖
    /// state_hash_before ‖ (0x00 | 0x01 ‖ u64 beacon_round)`: what the seat signs.
    pub fn bytes(&self, game_id: &[u8; 16]) -> Vec<u8> {
        let mut c = Canon::new(ENTRY_TAG);
        c.fixed(game_id).u64(self.n).fixed(&self.prev).var(self.seat.as_bytes()).var(self.action.as_bytes());
        c.fixed(&self.state_hash_before).opt_u64(self.beacon_round);
        c.0
    }

    /// `SHA-256(entry bytes)`: what the receipt and the dice key name.
    pub fn hash(&self, game_id: &[u8; 16]) -> [u8; 32] {
        sha256(&[&self.bytes(game_id)])
    }

    /// Signed with the seat's key.
    pub fn sign(self, game_id: &[u8; 16], key: &SigningKey) -> SignedEntry {
        let signature = key.sign(&self.bytes(game_id)).to_bytes();
        SignedEntry { entry: self, signature: Some(signature) }
    }

    /// Unsigned: for a seat whose client holds no key (the computer, a guest).
    pub fn unsigned(self) -> SignedEntry {
        SignedEntry { entry: self, signature: None }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedEntry {
    #[serde(flatten)]
    pub entry: Entry,
    #[serde(with = "bytes::hex_opt", default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<[u8; 64]>,
}

/// The server's word that it accepted `entry_hash` as entry `n` at `server_time_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    pub n: u64,
    #[serde(with = "bytes::hex")]
    pub entry_hash: [u8; 32],
    /// Unix time in milliseconds when the server accepted the entry; in beacon
    /// mode the entry's round must still have been in the future then.
    pub server_time_ms: u64,
}

impl Receipt {
    pub fn for_entry(game_id: &[u8; 16], entry: &Entry, server_time_ms: u64) -> Receipt {
        Receipt { n: entry.n, entry_hash: entry.hash(game_id), server_time_ms }
    }

    /// `"warboard/receipt/v1" ‖ game_id ‖ u64 n ‖ entry_hash ‖ u64 server_time_ms`: what the server signs.
    pub fn bytes(&self, game_id: &[u8; 16]) -> Vec<u8> {
        let mut c = Canon::new(RECEIPT_TAG);
        c.fixed(game_id).u64(self.n).fixed(&self.entry_hash).u64(self.server_time_ms);
        c.0
    }

    pub fn sign(self, game_id: &[u8; 16], server_key: &SigningKey) -> SignedReceipt {
        let signature = server_key.sign(&self.bytes(game_id)).to_bytes();
        SignedReceipt { receipt: self, signature }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedReceipt {
    #[serde(flatten)]
    pub receipt: Receipt,
    #[serde(with = "bytes::hex")]
    pub signature: [u8; 64],
}

/// A beacon round's signature, kept so the dice verify offline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BeaconProof {
    pub round: u64,
    #[serde(with = "bytes::hex")]
    pub signature: Vec<u8>,
}

/// One step of the chain: the entry, its receipt, and (beacon mode, entries
/// that name a round) the round's signature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub entry: SignedEntry,
    pub receipt: SignedReceipt,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon: Option<BeaconProof>,
}

/// A link as a save keeps it beside its log entry: what the log entry does
/// not already say. The entry's number is its place in the log, its `prev`
/// follows from the links before, its action is the log entry's action text
/// and the receipt's entry hash is the entry's: all recomputed on reading,
/// so a save holds each fact once, and an edit to any of them shows as a
/// signature that no longer verifies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkProof {
    pub seat: String,
    #[serde(with = "bytes::hex")]
    pub state_hash_before: [u8; 32],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon_round: Option<u64>,
    /// The seat's signature of the entry, where the seat has a key.
    #[serde(with = "bytes::hex_opt", default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<[u8; 64]>,
    pub server_time_ms: u64,
    /// The server's signature of the receipt.
    #[serde(with = "bytes::hex")]
    pub receipt_signature: [u8; 64],
    /// The named round's signature.
    #[serde(with = "bytes::hex_opt", default, skip_serializing_if = "Option::is_none")]
    pub beacon_signature: Option<Vec<u8>>,
}

impl LinkProof {
    /// What a save keeps of `link`.
    pub fn of(link: &Link) -> LinkProof {
        let e = &link.entry.entry;
        LinkProof {
            seat: e.seat.clone(),
            state_hash_before: e.state_hash_before,
            beacon_round: e.beacon_round,
            signature: link.entry.signature,
            server_time_ms: link.receipt.receipt.server_time_ms,
            receipt_signature: link.receipt.signature,
            beacon_signature: link.beacon.as_ref().map(|b| b.signature.clone()),
        }
    }

    /// The whole link again, as entry `n` after `prev` with `action`, in game `game_id`.
    pub fn link(&self, game_id: &[u8; 16], n: u64, prev: [u8; 32], action: &str) -> Link {
        let entry = Entry {
            n,
            prev,
            seat: self.seat.clone(),
            action: action.to_string(),
            state_hash_before: self.state_hash_before,
            beacon_round: self.beacon_round,
        };
        let receipt = Receipt::for_entry(game_id, &entry, self.server_time_ms);
        // A round signature kept without a round names the entry's round,
        // or round 0 (which no beacon has) when it named none: the verifier
        // then reports the signature that stands where no round was named.
        let beacon = self.beacon_signature.clone().map(|signature| BeaconProof { round: self.beacon_round.unwrap_or(0), signature });
        Link {
            entry: SignedEntry { entry, signature: self.signature },
            receipt: SignedReceipt { receipt, signature: self.receipt_signature },
            beacon,
        }
    }
}

/// The `prev` of the entry after `entry` and its receipt:
/// `SHA-256(entry bytes ‖ receipt bytes)`.
pub fn link_hash(game_id: &[u8; 16], entry: &Entry, receipt: &Receipt) -> [u8; 32] {
    sha256(&[&entry.bytes(game_id), &receipt.bytes(game_id)])
}

/// An Ed25519 public key from its 32 bytes (one that is no point is an error).
pub fn verifying_key(bytes: &[u8]) -> Result<VerifyingKey, String> {
    let fixed: [u8; 32] = bytes.try_into().map_err(|_| format!("an Ed25519 key of {} bytes, not 32", bytes.len()))?;
    VerifyingKey::from_bytes(&fixed).map_err(|_| "an Ed25519 key that is no point on the curve".to_string())
}

/// Strict Ed25519 verification (no small-order keys, no malleable signatures).
pub(crate) fn verify_signature(key: &VerifyingKey, message: &[u8], signature: &[u8; 64]) -> Result<(), String> {
    key.verify_strict(message, &Signature::from_bytes(signature)).map_err(|_| "the signature does not verify".to_string())
}

/// Builds a chain one entry at a time (what the server and `warboard pbem`
/// do): numbers entries and links each to the last.
#[derive(Clone, Debug)]
pub struct ChainWriter {
    game_id: [u8; 16],
    next_n: u64,
    prev: [u8; 32],
}

impl ChainWriter {
    pub fn new(header: &Header) -> ChainWriter {
        ChainWriter { game_id: header.game_id, next_n: 0, prev: header.hash() }
    }

    /// The next entry, numbered and linked, for the seat to sign.
    pub fn entry(&self, seat: &str, action: &str, state_hash_before: [u8; 32], beacon_round: Option<u64>) -> Entry {
        Entry { n: self.next_n, prev: self.prev, seat: seat.to_string(), action: action.to_string(), state_hash_before, beacon_round }
    }

    /// Takes `entry` and its receipt as the next link; refuses one that is not
    /// numbered and linked as [`ChainWriter::entry`] would make it, or whose
    /// receipt names another entry.
    pub fn append(&mut self, entry: &Entry, receipt: &Receipt) -> Result<(), ProofError> {
        if entry.n != self.next_n {
            return Err(ProofError::OutOfOrder(format!("entry {} where {} is next", entry.n, self.next_n)));
        }
        if entry.prev != self.prev {
            return Err(ProofError::ChainBroken { n: entry.n });
        }
        if receipt.n != entry.n || receipt.entry_hash != entry.hash(&self.game_id) {
            return Err(ProofError::ReceiptMismatch { n: entry.n, what: "another entry".into() });
        }
        self.prev = link_hash(&self.game_id, entry, receipt);
        self.next_n += 1;
        Ok(())
    }

    pub fn next_n(&self) -> u64 {
        self.next_n
    }

    /// The chain's head: the next entry's `prev`.
    pub fn head(&self) -> [u8; 32] {
        self.prev
    }
}
