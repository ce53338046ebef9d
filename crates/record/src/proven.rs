//! A proven game's chain beside its log (docs/pbem.md): the header every
//! entry is bound to, the receipts seats collected apart from the chain,
//! the host's seed once revealed, and the verifier that takes each new link.
//! The links themselves stand in the log, one beside each entry
//! (`Entry::proof`).

use crate::file::ProofRecord;
use warboard_proof::{Header, Link, ProofError, SignedReceipt, VerifiedEntry, Verifier};

/// What a proven game's header names as its ruleset: the ruleset and its
/// canonical options string, so a chain cannot be replayed under other rules.
pub(crate) fn ruleset_label(ruleset: &str, canonical_options: &str) -> String {
    format!("{ruleset} {canonical_options}")
}

#[derive(Clone, Debug)]
pub(crate) struct Chain {
    pub header: Header,
    pub witnessed: Vec<SignedReceipt>,
    pub seed: Option<[u8; 32]>,
    /// The chain as far as the log goes.
    pub verifier: Verifier,
    /// The last link taken (its receipt goes to every seat).
    pub last: Option<Link>,
}

impl Chain {
    /// The chain of a game whose start gives `label` and `start_hash`.
    pub fn new(record: ProofRecord, label: &str, start_hash: [u8; 32]) -> Result<Chain, ProofError> {
        let ProofRecord { header, witnessed, seed } = record;
        if header.ruleset != label {
            return Err(ProofError::BadHeader(format!("the header names the rules {:?}, and the game is played under {label:?}", header.ruleset)));
        }
        if header.start_state_hash != start_hash {
            return Err(ProofError::BadHeader("the header names another starting position than the game's".into()));
        }
        let verifier = Verifier::new(&header, &witnessed, seed)?;
        Ok(Chain { header, witnessed, seed, verifier, last: None })
    }

    /// Checks `link` as the next entry, for the action whose text is
    /// `action`, made where the game's state hashes to `state`. Returns the
    /// verified entry and the verifier past it, to keep only if the rules
    /// accept the action.
    pub fn check(&self, link: &Link, action: &str, state: [u8; 32]) -> Result<(VerifiedEntry, Verifier), ProofError> {
        let entry = &link.entry.entry;
        if entry.action != action {
            return Err(ProofError::Malformed(format!("entry {}'s link signs another action than the one applied", entry.n)));
        }
        let mut verifier = self.verifier.clone();
        let verified = verifier.push(link)?;
        // After the signatures: a forged link is a bad signature first.
        if entry.state_hash_before != state {
            return Err(ProofError::StateMismatch { n: entry.n });
        }
        Ok((verified, verifier))
    }

    pub fn record(&self) -> ProofRecord {
        ProofRecord { header: self.header.clone(), witnessed: self.witnessed.clone(), seed: self.seed }
    }

    pub fn summary(&self, entries: &[crate::file::Entry]) -> ProofSummary {
        let dice = match &self.header.dice {
            warboard_proof::DiceMode::Beacon { chain } => format!("beacon ({})", chain.scheme),
            warboard_proof::DiceMode::Server { .. } => "server (seed committed at the start)".to_string(),
        };
        ProofSummary {
            game_id: warboard_proof::bytes::to_hex(&self.header.game_id),
            dice,
            seats: self.header.seats.iter().map(|s| (s.seat.clone(), s.key.is_some())).collect(),
            entries: entries.len(),
            signed: entries.iter().filter(|e| e.proof.as_ref().is_some_and(|p| p.signature.is_some())).count(),
            rolled: entries.iter().filter(|e| !e.dice.is_empty()).count(),
            witnessed: self.witnessed.len(),
            dice_pending: self.verifier.dice_pending(),
        }
    }
}

/// What a proven game's chain says, for `warboard verify` and the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofSummary {
    pub game_id: String,
    /// `beacon (scheme)` or `server (…)`.
    pub dice: String,
    /// Each seat, and whether its client holds a key (its entries are signed).
    pub seats: Vec<(String, bool)>,
    pub entries: usize,
    /// Entries signed by their seat's key.
    pub signed: usize,
    /// Entries that rolled dice.
    pub rolled: usize,
    pub witnessed: usize,
    /// The server mode before its seed is revealed: the chain verifies, the dice not yet.
    pub dice_pending: bool,
}
