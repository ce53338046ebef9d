//! Known-answer vectors for the dice derivation (docs/pbem.md, "Vectors"):
//! each pins K, the first keystream bytes and the first dice. They were
//! checked against a separate Python implementation (hmac + ChaCha20 written
//! out from its definition), the one docs/pbem.md shows.

use warboard_proof::bytes::{from_hex, from_hex_n, to_hex};
use warboard_proof::{dice_key, Keystream, ProofDice, ServerSeed};

struct Vector {
    r: [u8; 32],
    game_id: [u8; 16],
    n: u64,
    entry_hash: [u8; 32],
    key: &'static str,
    first_bytes: &'static str,
    dice: [u8; 12],
}

fn check(v: &Vector) {
    let k = dice_key(&v.r, &v.game_id, v.n, &v.entry_hash);
    assert_eq!(to_hex(&k), v.key, "K");
    let mut ks = Keystream::new(k);
    let bytes: Vec<u8> = (0..16).map(|_| ks.next_byte()).collect();
    assert_eq!(to_hex(&bytes), v.first_bytes, "keystream");
    assert_eq!(ProofDice::for_entry(&v.r, &v.game_id, v.n, &v.entry_hash).take(12), v.dice, "dice");
    // The server mode derives the same way with its seed in place of r.
    assert_eq!(ServerSeed::from_bytes(v.r).dice(&v.game_id, v.n, &v.entry_hash).take(12), v.dice);
}

fn counting(from: u8) -> [u8; 32] {
    core::array::from_fn(|i| from + i as u8)
}

#[test]
fn vector_1_plain() {
    check(&Vector {
        r: counting(0x00),
        game_id: core::array::from_fn(|i| 0xa0 + i as u8),
        n: 0,
        entry_hash: counting(0x20),
        key: "417811c31fdc310db1fc7397c24cbe380c19454da7f3084b35c6191cdfb44cad",
        first_bytes: "537e33ab939d8d0e794a659be82ac550",
        dice: [6, 1, 4, 4, 4, 2, 4, 3, 2, 3, 6, 6],
    });
}

#[test]
fn vector_2_second_byte_rejected() {
    // Keystream byte 1 is 0xfe (254 ≥ 252): skipped, so die 2 comes from byte 2.
    check(&Vector {
        r: counting(0x00),
        game_id: core::array::from_fn(|i| 0xa0 + i as u8),
        n: 2,
        entry_hash: counting(0x20),
        key: "f0a6b49caa3aafedb37105d970cd9f01a40a72439951291e9bf09f65bf92cdcc",
        first_bytes: "a3fe689c839f4fa13b2f0e4eadf07b54",
        dice: [2, 3, 1, 6, 4, 2, 6, 6, 6, 3, 1, 6],
    });
}

#[test]
fn vector_3_quicknet_round_123_first_byte_rejected() {
    // r is quicknet round 123's published randomness; keystream byte 0 is 0xfc (252): skipped.
    let signature = from_hex("b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92").unwrap();
    let r: [u8; 32] = from_hex_n("fb8f7bc29bf24db51871ec8c79f3a1e4bd0557bc0dfcee9ed1d924e69d1c60dc").unwrap();
    // drand's randomness is the SHA-256 of the round's signature.
    assert_eq!(sha2_of(&signature), r);
    check(&Vector {
        r,
        game_id: core::array::from_fn(|i| i as u8),
        n: 1,
        entry_hash: [0x11; 32],
        key: "18d98e5c4d5265e0b9bf5b7a92694342a0922bee51da026f3137edf76124b88b",
        first_bytes: "fc0d80acccdd8beec55a1537aacff124",
        dice: [2, 3, 5, 1, 6, 2, 5, 6, 1, 4, 2, 3],
    });
}

fn sha2_of(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

#[test]
fn six_faces_are_equally_likely() {
    // 600,000 dice from one key: each face within 1% of 100,000.
    let mut dice = ProofDice::from_key([0x42; 32]);
    let mut counts = [0u32; 6];
    for _ in 0..600_000 {
        counts[(dice.next_die() - 1) as usize] += 1;
    }
    for c in counts {
        assert!((99_000..=101_000).contains(&c), "{counts:?}");
    }
}
