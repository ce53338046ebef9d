//! A real historical drand quicknet round as a fixture: round 123, whose
//! signature is the one drand-verify 0.6.2 uses in its documentation and
//! tests for `G2PubkeyRfc` (from drand's public API,
//! `/52db9ba7…e971/public/123`); its randomness, the SHA-256 of the
//! signature, is the value the API publishes for that round (other projects'
//! fixtures of round 123 carry the same).

use warboard_proof::bytes::{from_hex, to_hex};
use warboard_proof::{Beacon, ChainInfo, Drand, ProofError};

const ROUND: u64 = 123;
const SIGNATURE: &str = "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92";
const RANDOMNESS: &str = "fb8f7bc29bf24db51871ec8c79f3a1e4bd0557bc0dfcee9ed1d924e69d1c60dc";

#[test]
fn quicknet_round_123_verifies_and_gives_its_published_randomness() {
    let beacon = Drand::quicknet();
    assert!(beacon.info().is_quicknet());
    assert_eq!(beacon.info(), &ChainInfo::quicknet());
    let r = beacon.verify(ROUND, &from_hex(SIGNATURE).unwrap()).unwrap();
    assert_eq!(to_hex(&r), RANDOMNESS);
    // Round 123 came 122 periods after genesis (2023-08-23).
    assert_eq!(beacon.time_of(ROUND), 1_692_803_367 + 122 * 3);
    assert_eq!(beacon.round_at(beacon.time_of(ROUND)), ROUND);
}

#[test]
fn every_flipped_byte_of_its_signature_is_refused() {
    let beacon = Drand::quicknet();
    let good = from_hex(SIGNATURE).unwrap();
    for i in 0..good.len() {
        let mut sig = good.clone();
        sig[i] ^= 0x01;
        match beacon.verify(ROUND, &sig) {
            Err(ProofError::BadBeacon { round: ROUND, .. }) => {}
            other => panic!("byte {i}: {other:?}"),
        }
    }
    let mut sig = good.clone();
    sig[20] ^= 0x80;
    assert_eq!(beacon.verify(ROUND, &sig).unwrap_err().code(), "record/bad-beacon");
}

#[test]
fn it_is_refused_for_another_round_or_cut_short() {
    let beacon = Drand::quicknet();
    let good = from_hex(SIGNATURE).unwrap();
    assert_eq!(beacon.verify(ROUND + 1, &good).unwrap_err().code(), "record/bad-beacon");
    assert_eq!(beacon.verify(0, &good).unwrap_err().code(), "record/bad-beacon");
    assert_eq!(beacon.verify(ROUND, &good[..47]).unwrap_err().code(), "record/bad-beacon");
    assert_eq!(beacon.verify(ROUND, &[]).unwrap_err().code(), "record/bad-beacon");
}
