//! Strict JSON for what players and clients send (protocol requests, save
//! files, conformance cases): serde_json lets the last of two equal keys win
//! without a word, and reads `null` as an absent field. Both hide mistakes
//! and make one text mean two things (issue 34), so they are refused here,
//! in one place, before the text is read for its meaning.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// Checks a JSON text: no object repeats a key, and no value is `null`.
/// The error names the key (cut to a prefix) and says why.
pub fn check(text: &str) -> Result<(), String> {
    let mut de = serde_json::Deserializer::from_str(text);
    Strict::visit(&mut de).map_err(|e| e.to_string())
}

/// Checks a JSON text for repeated keys only (`null` allowed: FORMAT.md
/// uses it, e.g. `"winner": null` in a check).
pub fn check_keys(text: &str) -> Result<(), String> {
    let mut de = serde_json::Deserializer::from_str(text);
    Keys::visit(&mut de).map_err(|e| e.to_string())
}

fn shown(key: &str) -> String {
    match key.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &key[..i]),
        None => key.to_string(),
    }
}

/// A walk over one JSON value; `NULLS` says whether `null` is allowed.
struct Walk<const NULLS: bool>;
type Strict = Walk<false>;
type Keys = Walk<true>;

impl<const NULLS: bool> Walk<NULLS> {
    fn visit<'de, D: Deserializer<'de>>(de: D) -> Result<(), D::Error> {
        de.deserialize_any(Walk::<NULLS>).map(|_| ())
    }
}

impl<'de, const NULLS: bool> de::Deserialize<'de> for Walk<NULLS> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_any(Walk::<NULLS>)
    }
}

impl<'de, const NULLS: bool> Visitor<'de> for Walk<NULLS> {
    type Value = Walk<NULLS>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Walk)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Walk)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Walk)
    }
    fn visit_i128<E>(self, _: i128) -> Result<Self::Value, E> {
        Ok(Walk)
    }
    fn visit_u128<E>(self, _: u128) -> Result<Self::Value, E> {
        Ok(Walk)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Walk)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Walk)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        if NULLS {
            Ok(Walk)
        } else {
            Err(E::custom("`null` is not a value here: leave the field out"))
        }
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<Walk<NULLS>>()?.is_some() {}
        Ok(Walk)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if let Err(e) = map.next_value::<Walk<NULLS>>() {
                return Err(de::Error::custom(format!("`{}`: {e}", shown(&key))));
            }
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("the key `{}` is given twice in one object", shown(&key))));
            }
        }
        Ok(Walk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_and_nulls_are_refused() {
        assert!(check(r#"{"cmd":"state","full":true,"a":[1,{"b":"c"}]}"#).is_ok());
        let e = check(r#"{"cmd":"bogus","cmd":"state"}"#).unwrap_err();
        assert!(e.contains("`cmd` is given twice"), "{e}");
        let e = check(r#"{"cmd":"new","state":{"units":[{"at":"GER","at":"FRA"}]}}"#).unwrap_err();
        assert!(e.contains("`at` is given twice"), "{e}");
        let e = check(r#"{"cmd":"new","seed":null}"#).unwrap_err();
        assert!(e.contains("`seed`") && e.contains("null"), "{e}");
        assert!(check_keys(r#"{"winner":null}"#).is_ok());
        assert!(check_keys(r#"{"a":1,"a":2}"#).is_err());
        // A long key is named by its first 40 characters.
        let long = "k".repeat(10_000);
        let e = check(&format!(r#"{{"{long}":1,"{long}":2}}"#)).unwrap_err();
        assert!(e.len() < 200, "{}", e.len());
    }
}
