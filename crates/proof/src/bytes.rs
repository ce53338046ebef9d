//! Canonical bytes (what is hashed and signed) and hex for JSON.
//!
//! Every structure's bytes start with its own ASCII tag and then its fields
//! in a fixed order: integers big-endian in fixed width, hashes and keys as
//! their raw bytes, text and other variable-length fields as a u32
//! big-endian length followed by the bytes. docs/pbem.md spells out each.

use sha2::{Digest, Sha256};

#[derive(Default)]
pub(crate) struct Canon(pub(crate) Vec<u8>);

impl Canon {
    pub(crate) fn new(tag: &str) -> Canon {
        Canon(tag.as_bytes().to_vec())
    }
    pub(crate) fn fixed(&mut self, bytes: &[u8]) -> &mut Canon {
        self.0.extend_from_slice(bytes);
        self
    }
    pub(crate) fn u8(&mut self, v: u8) -> &mut Canon {
        self.0.push(v);
        self
    }
    pub(crate) fn u64(&mut self, v: u64) -> &mut Canon {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    /// A u32 big-endian length, then the bytes. Lengths past u32 are refused
    /// long before (a record is size-checked when read); saturating keeps this total.
    pub(crate) fn var(&mut self, bytes: &[u8]) -> &mut Canon {
        let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
        self.0.extend_from_slice(&len.to_be_bytes());
        self.0.extend_from_slice(bytes);
        self
    }
    pub(crate) fn opt_u64(&mut self, v: Option<u64>) -> &mut Canon {
        match v {
            None => self.u8(0),
            Some(v) => self.u8(1).u64(v),
        }
    }
}

pub(crate) fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// Lower-case hex.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Hex in either case; an odd length or another character is an error.
pub fn from_hex(text: &str) -> Result<Vec<u8>, String> {
    fn nibble(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let t = text.as_bytes();
    if t.len() % 2 != 0 {
        return Err(format!("hex of odd length {}", t.len()));
    }
    t.chunks(2)
        .map(|p| match (nibble(p[0]), nibble(p[1])) {
            (Some(h), Some(l)) => Ok(h << 4 | l),
            _ => Err("a character that is not hex".to_string()),
        })
        .collect()
}

/// Hex of exactly `N` bytes.
pub fn from_hex_n<const N: usize>(text: &str) -> Result<[u8; N], String> {
    let v = from_hex(text)?;
    let len = v.len();
    v.try_into().map_err(|_| format!("{len} bytes where {N} belong"))
}

/// `#[serde(with = "hex")]` for byte arrays and vectors.
pub mod hex {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer, T: AsRef<[u8]>>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::to_hex(v.as_ref()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: TryFrom<Vec<u8>>>(d: D) -> Result<T, D::Error> {
        let text = String::deserialize(d)?;
        let bytes = super::from_hex(&text).map_err(serde::de::Error::custom)?;
        let len = bytes.len();
        T::try_from(bytes).map_err(|_| serde::de::Error::custom(format!("{len} bytes: the wrong length here")))
    }
}

/// `#[serde(with = "hex_opt")]` for optional byte arrays (absent when `None`).
pub mod hex_opt {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer, T: AsRef<[u8]>>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.serialize_str(&super::to_hex(v.as_ref())),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: TryFrom<Vec<u8>>>(d: D) -> Result<Option<T>, D::Error> {
        let text = String::deserialize(d)?;
        let bytes = super::from_hex(&text).map_err(serde::de::Error::custom)?;
        let len = bytes.len();
        T::try_from(bytes).map(Some).map_err(|_| serde::de::Error::custom(format!("{len} bytes: the wrong length here")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_junk() {
        assert_eq!(to_hex(&[0, 0xab, 0x0f]), "00ab0f");
        assert_eq!(from_hex("00AB0f").unwrap(), vec![0, 0xab, 0x0f]);
        assert!(from_hex("abc").is_err());
        assert!(from_hex("zz").is_err());
        assert!(from_hex_n::<2>("0011").is_ok());
        assert!(from_hex_n::<2>("001122").is_err());
    }
}
