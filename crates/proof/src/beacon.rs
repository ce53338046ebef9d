//! Public randomness beacons: a round's value is unknown before its time and
//! checkable by anyone afterwards with the chain's public key.
//!
//! Two implementations: drand's `bls-unchained-g1-rfc9380` chains (quicknet
//! is the one games use), verified offline with `drand-verify`; and a local
//! test beacon, an Ed25519 key a test holds, behind the same trait.
//! [`beacon_for`] picks one from a record header's [`ChainInfo`].

use drand_verify::{G2PubkeyRfc, Pubkey};
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use crate::bytes::{self, sha256};
use crate::error::ProofError;

/// drand's scheme for quicknet: BLS signatures on G1, public key on G2,
/// hashing to the curve per RFC 9380, rounds not chained.
pub const SCHEME_DRAND_RFC9380: &str = "bls-unchained-g1-rfc9380";
/// The local test beacon's scheme (never used for real games).
pub const SCHEME_TEST_ED25519: &str = "warboard-test-ed25519";

/// drand quicknet, as its `/info` publishes it.
pub const QUICKNET_CHAIN_HASH: &str = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";
pub const QUICKNET_PUBLIC_KEY: &str = "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c\
8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a";
pub const QUICKNET_PERIOD: u64 = 3;
pub const QUICKNET_GENESIS: u64 = 1_692_803_367;

/// What a record header says about its beacon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainInfo {
    pub scheme: String,
    #[serde(with = "bytes::hex")]
    pub chain_hash: [u8; 32],
    #[serde(with = "bytes::hex")]
    pub public_key: Vec<u8>,
    /// Seconds between rounds.
    pub period: u64,
    /// Unix time (seconds) of round 1.
    pub genesis_time: u64,
}

impl ChainInfo {
    /// drand quicknet.
    pub fn quicknet() -> ChainInfo {
        ChainInfo {
            scheme: SCHEME_DRAND_RFC9380.to_string(),
            chain_hash: bytes::from_hex_n(QUICKNET_CHAIN_HASH).expect("constant"),
            public_key: bytes::from_hex(QUICKNET_PUBLIC_KEY).expect("constant"),
            period: QUICKNET_PERIOD,
            genesis_time: QUICKNET_GENESIS,
        }
    }

    pub fn is_quicknet(&self) -> bool {
        *self == ChainInfo::quicknet()
    }

    /// The round current at `unix_time` (seconds): 0 before genesis, 1 from
    /// genesis, one more every period (drand's `CurrentRound`).
    pub fn round_at(&self, unix_time: u64) -> u64 {
        if unix_time < self.genesis_time || self.period == 0 {
            0
        } else {
            (unix_time - self.genesis_time) / self.period + 1
        }
    }

    /// When `round` is published (seconds); round 0 does not exist and reads as genesis.
    pub fn time_of(&self, round: u64) -> u64 {
        self.genesis_time.saturating_add(round.saturating_sub(1).saturating_mul(self.period))
    }
}

/// A randomness beacon: which chain, when each round comes, and whether a
/// round's signature is genuine.
pub trait Beacon: Send + Sync {
    fn info(&self) -> &ChainInfo;

    fn round_at(&self, unix_time: u64) -> u64 {
        self.info().round_at(unix_time)
    }

    fn time_of(&self, round: u64) -> u64 {
        self.info().time_of(round)
    }

    /// Checks `signature` for `round` against the chain's public key and
    /// returns the round's randomness, `SHA-256(signature)`; a signature that
    /// does not verify is `record/bad-beacon`.
    fn verify(&self, round: u64, signature: &[u8]) -> Result<[u8; 32], ProofError>;
}

/// A drand chain of scheme `bls-unchained-g1-rfc9380` (quicknet).
pub struct Drand {
    info: ChainInfo,
    key: G2PubkeyRfc,
}

impl Drand {
    pub fn quicknet() -> Drand {
        Drand::from_info(ChainInfo::quicknet()).expect("quicknet's key is a point")
    }

    /// Any chain of the scheme; one that claims quicknet's chain hash must be
    /// quicknet exactly.
    pub fn from_info(info: ChainInfo) -> Result<Drand, ProofError> {
        if info.scheme != SCHEME_DRAND_RFC9380 {
            return Err(ProofError::BadHeader(format!("scheme {:?} is not {SCHEME_DRAND_RFC9380}", info.scheme)));
        }
        if info.chain_hash == ChainInfo::quicknet().chain_hash && !info.is_quicknet() {
            return Err(ProofError::BadHeader("quicknet's chain hash with other chain details".into()));
        }
        if info.period == 0 {
            return Err(ProofError::BadHeader("a beacon period of 0".into()));
        }
        let fixed: [u8; 96] = info
            .public_key
            .as_slice()
            .try_into()
            .map_err(|_| ProofError::BadHeader(format!("a drand public key of {} bytes, not 96", info.public_key.len())))?;
        let key = G2PubkeyRfc::from_fixed(fixed).map_err(|e| ProofError::BadHeader(format!("the drand public key: {e}")))?;
        Ok(Drand { info, key })
    }
}

impl Beacon for Drand {
    fn info(&self) -> &ChainInfo {
        &self.info
    }

    fn verify(&self, round: u64, signature: &[u8]) -> Result<[u8; 32], ProofError> {
        let bad = |reason: String| ProofError::BadBeacon { n: None, round, reason };
        if round == 0 {
            return Err(bad("drand has no round 0".into()));
        }
        if signature.len() != 48 {
            return Err(bad(format!("a signature of {} bytes, not 48", signature.len())));
        }
        match self.key.verify(round, b"", signature) {
            Ok(true) => Ok(sha256(&[signature])),
            Ok(false) => Err(bad("the signature does not verify against the chain's public key".into())),
            Err(e) => Err(bad(format!("the signature is no point on the curve: {e}"))),
        }
    }
}

/// The local test beacon: an Ed25519 key signs `SHA-256(u64_be(round))`
/// (drand's unchained message); randomness is `SHA-256(signature)`. Built
/// with [`TestBeacon::new`] it can sign rounds; from a header's info it only
/// verifies. Ed25519 signing is deterministic, but the key's holder could
/// make other valid signatures for a round: fine for tests, never for games.
pub struct TestBeacon {
    info: ChainInfo,
    key: VerifyingKey,
    signer: Option<SigningKey>,
}

impl TestBeacon {
    pub fn new(secret: [u8; 32], genesis_time: u64, period: u64) -> TestBeacon {
        let signer = SigningKey::from_bytes(&secret);
        let key = signer.verifying_key();
        let public_key = key.to_bytes().to_vec();
        let chain_hash = sha256(&[b"warboard/test-beacon/v1", &public_key, &period.to_be_bytes(), &genesis_time.to_be_bytes()]);
        let info = ChainInfo { scheme: SCHEME_TEST_ED25519.to_string(), chain_hash, public_key, period, genesis_time };
        TestBeacon { info, key, signer: Some(signer) }
    }

    /// A verifier for the chain a header describes.
    pub fn from_info(info: ChainInfo) -> Result<TestBeacon, ProofError> {
        if info.scheme != SCHEME_TEST_ED25519 {
            return Err(ProofError::BadHeader(format!("scheme {:?} is not {SCHEME_TEST_ED25519}", info.scheme)));
        }
        if info.period == 0 {
            return Err(ProofError::BadHeader("a beacon period of 0".into()));
        }
        let key = crate::chain::verifying_key(&info.public_key).map_err(ProofError::BadHeader)?;
        Ok(TestBeacon { info, key, signer: None })
    }

    /// The signature of `round` (None for a verifier-only beacon).
    pub fn sign(&self, round: u64) -> Option<Vec<u8>> {
        let signer = self.signer.as_ref()?;
        Some(signer.sign(&round_message(round)).to_bytes().to_vec())
    }
}

fn round_message(round: u64) -> [u8; 32] {
    sha256(&[&round.to_be_bytes()])
}

impl Beacon for TestBeacon {
    fn info(&self) -> &ChainInfo {
        &self.info
    }

    fn verify(&self, round: u64, signature: &[u8]) -> Result<[u8; 32], ProofError> {
        let bad = |reason: String| ProofError::BadBeacon { n: None, round, reason };
        if round == 0 {
            return Err(bad("there is no round 0".into()));
        }
        let fixed: [u8; 64] = signature.try_into().map_err(|_| bad(format!("a signature of {} bytes, not 64", signature.len())))?;
        self.key
            .verify_strict(&round_message(round), &Signature::from_bytes(&fixed))
            .map_err(|_| bad("the signature does not verify against the test beacon's key".into()))?;
        Ok(sha256(&[signature]))
    }
}

/// The verifier for a header's beacon, by scheme.
pub fn beacon_for(info: &ChainInfo) -> Result<Box<dyn Beacon>, ProofError> {
    match info.scheme.as_str() {
        SCHEME_DRAND_RFC9380 => Ok(Box::new(Drand::from_info(info.clone())?)),
        SCHEME_TEST_ED25519 => Ok(Box::new(TestBeacon::from_info(info.clone())?)),
        other => Err(ProofError::BadHeader(format!("unknown beacon scheme {other:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_and_times_follow_drand() {
        let q = ChainInfo::quicknet();
        assert_eq!(q.round_at(QUICKNET_GENESIS - 1), 0);
        assert_eq!(q.round_at(QUICKNET_GENESIS), 1);
        assert_eq!(q.round_at(QUICKNET_GENESIS + 2), 1);
        assert_eq!(q.round_at(QUICKNET_GENESIS + 3), 2);
        assert_eq!(q.time_of(1), QUICKNET_GENESIS);
        assert_eq!(q.time_of(123), QUICKNET_GENESIS + 122 * 3);
        for round in [1u64, 2, 123, 1_000_000] {
            assert_eq!(q.round_at(q.time_of(round)), round);
        }
    }

    #[test]
    fn the_test_beacon_signs_and_a_verifier_from_its_info_checks() {
        let b = TestBeacon::new([5; 32], 1000, 3);
        let sig = b.sign(7).unwrap();
        let v = beacon_for(b.info()).unwrap();
        assert_eq!(v.verify(7, &sig).unwrap(), sha256(&[&sig]));
        assert_eq!(v.verify(8, &sig).unwrap_err().code(), "record/bad-beacon");
        assert!(TestBeacon::from_info(b.info().clone()).unwrap().sign(7).is_none());
    }

    #[test]
    fn a_header_cannot_pass_another_key_off_as_quicknet() {
        let mut info = ChainInfo::quicknet();
        info.period = 30;
        assert_eq!(beacon_for(&info).err().unwrap().code(), "record/bad-header");
        info = ChainInfo::quicknet();
        info.scheme = "pedersen-bls-chained".into();
        assert_eq!(beacon_for(&info).err().unwrap().code(), "record/bad-header");
    }
}
