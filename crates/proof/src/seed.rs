//! The `server` dice mode: the host draws a 32-byte seed from the operating
//! system when the game starts, publishes `SHA-256(seed)` in the record's
//! header, and reveals the seed when the game ends. Entry n's dice are
//! derived exactly as in the beacon mode with the seed in place of the
//! round's randomness (`dice::dice_key(seed, …)`), so one derivation serves
//! both. Checkable afterwards; until the end, everyone trusts the host not to
//! look ahead or to tell.

use crate::bytes::sha256;
use crate::dice::ProofDice;
use crate::error::ProofError;

/// A server seed. Kept secret until the game ends; `Debug` does not print it.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerSeed([u8; 32]);

impl std::fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ServerSeed(commitment {})", crate::bytes::to_hex(&self.commitment()))
    }
}

impl ServerSeed {
    /// 32 bytes from the operating system's random source.
    pub fn generate() -> Result<ServerSeed, ProofError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| ProofError::SeedUnavailable(e.to_string()))?;
        Ok(ServerSeed(bytes))
    }

    /// A known seed: a revealed one, or one a test fixes.
    pub fn from_bytes(bytes: [u8; 32]) -> ServerSeed {
        ServerSeed(bytes)
    }

    /// The seed itself: reveal it only when the game is over.
    pub fn reveal(&self) -> [u8; 32] {
        self.0
    }

    /// `SHA-256(seed)`, published when the game starts.
    pub fn commitment(&self) -> [u8; 32] {
        commitment_of(&self.0)
    }

    /// The dice of entry `n`.
    pub fn dice(&self, game_id: &[u8; 16], n: u64, entry_hash: &[u8; 32]) -> ProofDice {
        ProofDice::for_entry(&self.0, game_id, n, entry_hash)
    }
}

/// `SHA-256(seed)`.
pub fn commitment_of(seed: &[u8; 32]) -> [u8; 32] {
    sha256(&[seed])
}

/// Whether a revealed seed is the one committed to; `record/seed-mismatch` if not.
pub fn check_seed(seed: &[u8; 32], commitment: &[u8; 32]) -> Result<(), ProofError> {
    if &commitment_of(seed) == commitment {
        Ok(())
    } else {
        Err(ProofError::SeedMismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revealed_seed_checks_against_its_commitment_and_no_other() {
        let seed = ServerSeed::generate().unwrap();
        let other = ServerSeed::generate().unwrap();
        assert_ne!(seed, other);
        check_seed(&seed.reveal(), &seed.commitment()).unwrap();
        assert_eq!(check_seed(&other.reveal(), &seed.commitment()).unwrap_err().code(), "record/seed-mismatch");
        assert!(!format!("{seed:?}").contains(&crate::bytes::to_hex(&seed.reveal())));
    }
}
