//! The dice of one entry (scheme W1, docs/pbem.md "Dice"):
//!
//! ```text
//! r = SHA-256(beacon signature)        -- or, in the server dice mode, the revealed seed
//! K = HMAC-SHA256(key = r, msg = "warboard/dice/v1" ‖ game_id (16) ‖ u64_be(n) ‖ entry_hash (32))
//! stream = ChaCha20 (20 rounds, key K, 64-bit block counter from 0, 64-bit nonce 0), bytes in order
//! die = next byte b; b ≥ 252 is skipped; die = 1 + b mod 6
//! ```

use hmac::{Hmac, Mac};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::Sha256;
use warboard_rules::dice::{DiceError, DiceSource};

/// The HMAC message's prefix: the derivation's name and version.
pub const DICE_DOMAIN: &[u8] = b"warboard/dice/v1";

/// Bytes at or above this are skipped: 252 = 42 × 6, so the bytes kept fall
/// evenly on the six faces.
pub const REJECT_FROM: u8 = 252;

/// `K = HMAC-SHA256(key = r, msg = "warboard/dice/v1" ‖ game_id ‖ u64_be(n) ‖ entry_hash)`.
pub fn dice_key(r: &[u8; 32], game_id: &[u8; 16], n: u64, entry_hash: &[u8; 32]) -> [u8; 32] {
    // HMAC takes a key of any length, so this cannot fail.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(r).expect("HMAC accepts any key length");
    mac.update(DICE_DOMAIN);
    mac.update(game_id);
    mac.update(&n.to_be_bytes());
    mac.update(entry_hash);
    mac.finalize().into_bytes().into()
}

/// ChaCha20's keystream for key `K`, read one byte at a time with nothing
/// skipped: block 0's 64 bytes, then block 1's, … (the original ChaCha20:
/// 64-bit block counter in state words 12–13 from 0, 64-bit nonce 0 in words
/// 14–15; `ChaCha20Rng::from_seed(K)`'s stream).
///
/// `RngCore::fill_bytes` for a single byte would throw away the other three
/// bytes of its 32-bit word, so whole 64-byte blocks are drawn here (the
/// generator's buffer holds whole blocks, so they come out aligned and in
/// order) and handed out byte by byte.
#[derive(Clone, Debug)]
pub struct Keystream {
    rng: ChaCha20Rng,
    block: [u8; 64],
    at: usize,
    /// Bytes handed out so far.
    taken: u64,
}

impl Keystream {
    pub fn new(key: [u8; 32]) -> Keystream {
        Keystream { rng: ChaCha20Rng::from_seed(key), block: [0; 64], at: 64, taken: 0 }
    }

    pub fn next_byte(&mut self) -> u8 {
        if self.at == 64 {
            self.rng.fill_bytes(&mut self.block);
            self.at = 0;
        }
        let b = self.block[self.at];
        self.at += 1;
        self.taken += 1;
        b
    }

    pub fn taken(&self) -> u64 {
        self.taken
    }
}

/// One entry's dice: the keystream of its key, read by rejection sampling.
/// It implements the rules core's [`DiceSource`], so the engine rolls from it
/// in FORMAT.md's fixed order, and never runs out.
#[derive(Clone, Debug)]
pub struct ProofDice {
    key: [u8; 32],
    stream: Keystream,
    rolled: u64,
}

impl ProofDice {
    /// The dice of key `K` (see [`dice_key`]).
    pub fn from_key(key: [u8; 32]) -> ProofDice {
        ProofDice { key, stream: Keystream::new(key), rolled: 0 }
    }

    /// The dice of entry `n` with hash `entry_hash` in game `game_id`, given
    /// the round's randomness (or the server's seed).
    pub fn for_entry(r: &[u8; 32], game_id: &[u8; 16], n: u64, entry_hash: &[u8; 32]) -> ProofDice {
        ProofDice::from_key(dice_key(r, game_id, n, entry_hash))
    }

    pub fn key(&self) -> [u8; 32] {
        self.key
    }

    /// Dice rolled so far.
    pub fn rolled(&self) -> u64 {
        self.rolled
    }

    /// Keystream bytes read so far (rolled dice plus skipped bytes).
    pub fn bytes_read(&self) -> u64 {
        self.stream.taken()
    }

    /// The next die, 1 to 6.
    pub fn next_die(&mut self) -> u8 {
        loop {
            let b = self.stream.next_byte();
            if b < REJECT_FROM {
                self.rolled += 1;
                return 1 + b % 6;
            }
        }
    }

    /// The next `count` dice.
    pub fn take(&mut self, count: usize) -> Vec<u8> {
        (0..count).map(|_| self.next_die()).collect()
    }
}

impl DiceSource for ProofDice {
    fn roll(&mut self) -> Result<u8, DiceError> {
        Ok(self.next_die())
    }
    fn boxed_clone(&self) -> Box<dyn DiceSource> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ChaCha20 written out from its definition (D. J. Bernstein's original:
    /// 64-bit counter, 64-bit nonce), to pin what "the keystream" means
    /// independently of rand_chacha.
    fn reference_block(key: &[u8; 32], counter: u64) -> [u8; 64] {
        fn qr(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
            s[a] = s[a].wrapping_add(s[b]);
            s[d] = (s[d] ^ s[a]).rotate_left(16);
            s[c] = s[c].wrapping_add(s[d]);
            s[b] = (s[b] ^ s[c]).rotate_left(12);
            s[a] = s[a].wrapping_add(s[b]);
            s[d] = (s[d] ^ s[a]).rotate_left(8);
            s[c] = s[c].wrapping_add(s[d]);
            s[b] = (s[b] ^ s[c]).rotate_left(7);
        }
        let mut init = [0u32; 16];
        init[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
        for i in 0..8 {
            init[4 + i] = u32::from_le_bytes(key[4 * i..4 * i + 4].try_into().unwrap());
        }
        init[12] = counter as u32;
        init[13] = (counter >> 32) as u32;
        let mut s = init;
        for _ in 0..10 {
            qr(&mut s, 0, 4, 8, 12);
            qr(&mut s, 1, 5, 9, 13);
            qr(&mut s, 2, 6, 10, 14);
            qr(&mut s, 3, 7, 11, 15);
            qr(&mut s, 0, 5, 10, 15);
            qr(&mut s, 1, 6, 11, 12);
            qr(&mut s, 2, 7, 8, 13);
            qr(&mut s, 3, 4, 9, 14);
        }
        let mut out = [0u8; 64];
        for i in 0..16 {
            out[4 * i..4 * i + 4].copy_from_slice(&s[i].wrapping_add(init[i]).to_le_bytes());
        }
        out
    }

    #[test]
    fn keystream_is_chacha20_block_after_block_with_no_byte_skipped() {
        // The published all-zero-key, zero-nonce ChaCha20 keystream (block 0).
        let zero = crate::bytes::from_hex(
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7\
             da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
        )
        .unwrap();
        let mut ks = Keystream::new([0; 32]);
        let first: Vec<u8> = (0..64).map(|_| ks.next_byte()).collect();
        assert_eq!(first, zero);
        assert_eq!(reference_block(&[0; 32], 0).to_vec(), zero);

        // Ten blocks, across rand_chacha's four-block buffer, byte by byte.
        let key: [u8; 32] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let mut ks = Keystream::new(key);
        for counter in 0..10 {
            let block = reference_block(&key, counter);
            for (i, want) in block.iter().enumerate() {
                assert_eq!(ks.next_byte(), *want, "block {counter} byte {i}");
            }
        }
    }

    #[test]
    fn dice_skip_high_bytes_and_map_the_rest_evenly() {
        let key = [9u8; 32];
        let mut ks = Keystream::new(key);
        let bytes: Vec<u8> = (0..4096).map(|_| ks.next_byte()).collect();
        let expected: Vec<u8> = bytes.iter().filter(|b| **b < 252).map(|b| 1 + b % 6).collect();
        let mut dice = ProofDice::from_key(key);
        assert_eq!(dice.take(expected.len()), expected);
        assert_eq!(dice.bytes_read(), 4096);
    }

    #[test]
    fn the_engine_can_roll_from_it() {
        let mut dice = ProofDice::from_key([1; 32]);
        let mut copy = dice.boxed_clone();
        let a: Vec<u8> = (0..20).map(|_| dice.roll().unwrap()).collect();
        let b: Vec<u8> = (0..20).map(|_| copy.roll().unwrap()).collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|d| (1..=6).contains(d)));
    }
}
