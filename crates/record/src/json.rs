//! Reading a save's JSON in memory a few times its size, whatever the file
//! holds (issue 34, finding 4).
//!
//! A JSON tree (`serde_json::Value`) of a list of small objects takes up to
//! ninety times the list's text, so a hostile file of 60 MB needed 5 GB
//! before it was refused. Here nothing is built as a tree unless it is
//! bounded first: objects are read as their fields' slices of the text (at
//! most [`MAX_OBJECT_FIELDS`] of them), arrays are walked one element at a
//! time, and a value's canonical text (compact, keys sorted: what
//! `serde_json` writes for its tree, and what the record hash covers) is
//! written as it is read, to a hasher or a bounded string.

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};

/// The deepest nesting of arrays and objects a save may have. Real saves
/// nest a few levels; serde_json's own trees stop at 128.
pub(crate) const MAX_DEPTH: usize = 64;
/// The most fields any object in a save may have: real ones have at most a
/// field per space of the map (a few hundred).
pub(crate) const MAX_OBJECT_FIELDS: usize = 10_000;

type Result<T> = std::result::Result<T, serde_json::Error>;

/// Runs `read` on a deserializer of `text` and checks that nothing follows
/// the value.
fn whole<'a, T>(text: &'a str, read: impl FnOnce(&mut serde_json::Deserializer<serde_json::de::StrRead<'a>>) -> Result<T>) -> Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = read(&mut de)?;
    de.end()?;
    Ok(value)
}

/// An object's field names as slices of the text where they need no
/// unescaping.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> std::result::Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
}

/// The fields of a JSON object, as slices of its text, in the file's order.
pub(crate) struct Fields<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'a> Fields<'a> {
    pub fn get(&self, name: &str) -> Option<&'a RawValue> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| *v)
    }
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_ref())
    }
}

/// Collects an object's fields, at most [`MAX_OBJECT_FIELDS`], each name once.
struct Collect;

impl<'de> Visitor<'de> for Collect {
    type Value = Vec<(Cow<'de, str>, &'de RawValue)>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Self::Value, A::Error> {
        let mut fields = Vec::new();
        while let Some(key) = map.next_key_seed(Key)? {
            if fields.len() == MAX_OBJECT_FIELDS {
                return Err(de::Error::custom(format!("an object of more than {MAX_OBJECT_FIELDS} fields")));
            }
            let value: &'de RawValue = map.next_value()?;
            fields.push((key, value));
        }
        Ok(fields)
    }
}

/// Fields sorted by name (the canonical order); a name given twice is an
/// error, since a tree would silently keep only the last.
fn sorted<'a, E: de::Error>(mut fields: Vec<(Cow<'a, str>, &'a RawValue)>) -> std::result::Result<Vec<(Cow<'a, str>, &'a RawValue)>, E> {
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(pair) = fields.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(E::custom(format!("the field `{}` is given twice", crate::disk::bounded_text(&pair[0].0, 40))));
    }
    Ok(fields)
}

/// The fields of the object `text`, without reading their values.
pub(crate) fn object(text: &str) -> Result<Fields<'_>> {
    let fields = whole(text, |de| de.deserialize_map(Collect))?;
    // Checked on a copy of the order, so that `Fields` keeps the file's.
    let mut names: Vec<&str> = fields.iter().map(|(k, _)| k.as_ref()).collect();
    names.sort_unstable();
    if let Some(pair) = names.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(de::Error::custom(format!("the field `{}` is given twice", crate::disk::bounded_text(pair[0], 40))));
    }
    Ok(Fields(fields))
}

/// The save object's top level: the fields named in `known`, each as a
/// slice of the text, and the first other field's name (shortened). Other
/// fields are skipped unread, however many, so that a file which is not a
/// save is told as such before anything about it is kept.
pub(crate) struct Top<'a> {
    pub fields: Vec<(&'static str, &'a RawValue)>,
    pub unknown: Option<String>,
    /// A known field given more than once (a tree would keep the last).
    pub twice: Option<&'static str>,
}

impl<'a> Top<'a> {
    pub fn get(&self, name: &str) -> Option<&'a RawValue> {
        self.fields.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
    }
}

pub(crate) fn top<'a>(text: &'a str, known: &'static [&'static str]) -> Result<Top<'a>> {
    struct TopVisitor(&'static [&'static str]);
    impl<'de> Visitor<'de> for TopVisitor {
        type Value = Top<'de>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Top<'de>, A::Error> {
            let mut top = Top { fields: Vec::new(), unknown: None, twice: None };
            while let Some(key) = map.next_key_seed(Key)? {
                match self.0.iter().find(|k| **k == key) {
                    Some(name) if top.get(name).is_some() => {
                        top.twice.get_or_insert(name);
                        map.next_value::<IgnoredAny>()?;
                    }
                    Some(name) => top.fields.push((name, map.next_value()?)),
                    None => {
                        if top.unknown.is_none() {
                            top.unknown = Some(crate::disk::bounded_text(&key, 40));
                        }
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(top)
        }
    }
    whole(text, |de| de.deserialize_map(TopVisitor(known)))
}

/// Why walking an array stopped: its JSON, or what the caller said.
pub(crate) enum Stop<E> {
    Json(serde_json::Error),
    Caller(E),
}

/// Calls `each` on every element of the array `text`, as a slice of the
/// text, one at a time (nothing is collected); the number of elements.
pub(crate) fn for_each<'a, E>(text: &'a str, mut each: impl FnMut(usize, &'a RawValue) -> std::result::Result<(), E>) -> std::result::Result<usize, Stop<E>> {
    struct Each<'f, F, E> {
        each: &'f mut F,
        failed: &'f mut Option<E>,
    }
    impl<'de, F: FnMut(usize, &'de RawValue) -> std::result::Result<(), E>, E> Visitor<'de> for Each<'_, F, E> {
        type Value = usize;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<usize, A::Error> {
            let mut n = 0;
            while let Some(item) = seq.next_element::<&'de RawValue>()? {
                if let Err(e) = (self.each)(n, item) {
                    *self.failed = Some(e);
                    return Err(de::Error::custom("stopped"));
                }
                n += 1;
            }
            Ok(n)
        }
    }
    let mut failed = None;
    let walked = whole(text, |de| de.deserialize_seq(Each { each: &mut each, failed: &mut failed }));
    match (walked, failed) {
        (_, Some(e)) => Err(Stop::Caller(e)),
        (Ok(n), None) => Ok(n),
        (Err(e), None) => Err(Stop::Json(e)),
    }
}

/// Writes a value's canonical text as it reads it.
struct Canonical<'w, W> {
    out: &'w mut W,
    depth: usize,
    /// A comma goes before it (an array's element after the first).
    comma: bool,
}

impl<W: Write> Canonical<'_, W> {
    fn put<E: de::Error>(&mut self, bytes: &[u8]) -> std::result::Result<(), E> {
        self.out.write_all(bytes).map_err(E::custom)
    }
    fn start<E: de::Error>(&mut self) -> std::result::Result<(), E> {
        if self.comma {
            self.put(b",")?;
        }
        Ok(())
    }
    /// A scalar, written as serde_json writes it in a tree.
    fn scalar<E: de::Error>(mut self, v: &Value) -> std::result::Result<(), E> {
        self.start()?;
        serde_json::to_writer(&mut *self.out, v).map_err(E::custom)
    }
    fn deeper<E: de::Error>(&self) -> std::result::Result<usize, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format!("arrays and objects nested more than {MAX_DEPTH} deep")));
        }
        Ok(self.depth + 1)
    }
}

impl<'de, W: Write> DeserializeSeed<'de> for Canonical<'_, W> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

// The same values, in the same cases, as serde_json's own tree visitor, so
// that the text is the one its tree would write.
impl<'de, W: Write> Visitor<'de> for Canonical<'_, W> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<(), E> {
        self.scalar(&Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<(), E> {
        self.scalar(&Value::from(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<(), E> {
        self.scalar(&Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<(), E> {
        self.scalar(&serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(mut self, v: &str) -> std::result::Result<(), E> {
        self.start()?;
        serde_json::to_writer(&mut *self.out, v).map_err(E::custom)
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<(), E> {
        self.scalar(&Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> std::result::Result<(), E> {
        self.scalar(&Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> std::result::Result<(), A::Error> {
        let depth = self.deeper()?;
        self.start()?;
        self.put(b"[")?;
        let mut comma = false;
        while seq.next_element_seed(Canonical { out: &mut *self.out, depth, comma })?.is_some() {
            comma = true;
        }
        self.put(b"]")
    }
    fn visit_map<A: MapAccess<'de>>(mut self, map: A) -> std::result::Result<(), A::Error> {
        let depth = self.deeper()?;
        // Keys sorted: the fields are kept as slices until all are known.
        let fields = sorted(Collect.visit_map(map)?)?;
        self.start()?;
        self.put(b"{")?;
        for (i, (key, value)) in fields.iter().enumerate() {
            if i > 0 {
                self.put(b",")?;
            }
            serde_json::to_writer(&mut *self.out, key.as_ref()).map_err(de::Error::custom)?;
            self.put(b":")?;
            let mut de = serde_json::Deserializer::from_str(value.get());
            Canonical { out: &mut *self.out, depth, comma: false }.deserialize(&mut de).map_err(|e| de::Error::custom(message(&e)))?;
        }
        self.put(b"}")
    }
}

/// An error's message without serde_json's "at line L column C", which
/// would otherwise repeat at every level of a nested value.
pub(crate) fn message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Writes the canonical text of the JSON value `text` to `out`.
pub(crate) fn canonical<W: Write>(text: &str, out: &mut W) -> Result<()> {
    whole(text, |de| Canonical { out, depth: 0, comma: false }.deserialize(de))
}

/// A writer that keeps at most `max` bytes, failing past them.
struct Bounded {
    text: Vec<u8>,
    max: usize,
}

impl Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.text.len() + buf.len() > self.max {
            return Err(io::Error::other(format!("more than {} bytes as compact JSON", self.max)));
        }
        self.text.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The canonical text of the JSON value `text`, if it is at most `max`
/// bytes; read no further than that.
pub(crate) fn canonical_text(text: &str, max: usize) -> Result<String> {
    let mut out = Bounded { text: Vec::new(), max };
    canonical(text, &mut out)?;
    // Only serde_json's own output went in: valid UTF-8.
    String::from_utf8(out.text).map_err(de::Error::custom)
}

/// A writer that only counts, failing past `max` bytes.
pub(crate) struct Counter {
    pub bytes: usize,
    pub max: usize,
}

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len();
        if self.bytes > self.max {
            return Err(io::Error::other(format!("more than {} bytes as compact JSON", self.max)));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Whether the canonical text of `text` is at most `max` bytes (counted,
/// not kept).
pub(crate) fn check_compact_len(text: &str, max: usize) -> Result<()> {
    canonical(text, &mut Counter { bytes: 0, max })
}

/// A list of dice faces (each a byte), at most `budget` of them, taken off
/// the budget.
pub(crate) fn dice(text: &str, budget: &mut usize) -> Result<Vec<u8>> {
    struct Dice<'b>(&'b mut usize);
    impl<'de> Visitor<'de> for Dice<'_> {
        type Value = Vec<u8>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of dice")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Vec<u8>, A::Error> {
            let mut dice = Vec::new();
            while let Some(die) = seq.next_element::<u8>()? {
                if *self.0 == 0 {
                    return Err(de::Error::custom(format!("more than {} client dice in all", crate::limits::MAX_CLIENT_DICE)));
                }
                *self.0 -= 1;
                dice.push(die);
            }
            dice.shrink_to_fit();
            Ok(dice)
        }
    }
    whole(text, |de| de.deserialize_seq(Dice(budget)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The canonical text is what serde_json writes for the value's tree.
    #[test]
    fn canonical_text_is_the_trees() {
        for text in [
            r#"{"b": [1, -2, 3.5, 1e3, -0, 18446744073709551615, -9223372036854775808, 1e400], "a": {"z": null, "y": true, "\u00e9\n": "x\"y"}}"#,
            r#"[]"#,
            r#"{}"#,
            r#"  "text"  "#,
            r#"[[[], {}], [{"k": [1, {"j": 2, "i": 3}]}]]"#,
        ] {
            let tree: Result<Value> = serde_json::from_str(text);
            let ours = canonical_text(text, 1 << 20);
            match tree {
                Ok(tree) => assert_eq!(ours.unwrap(), serde_json::to_string(&tree).unwrap(), "{text}"),
                Err(_) => assert!(ours.is_err(), "{text}"),
            }
        }
    }

    #[test]
    fn limits_are_errors_not_trees() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert!(canonical_text(&deep, 1 << 20).unwrap_err().to_string().contains("nested"));
        let deep_objects = "{\"a\":".repeat(100_000) + "0" + &"}".repeat(100_000);
        assert!(canonical_text(&deep_objects, 1 << 20).unwrap_err().to_string().contains("nested"));
        let twice = r#"{"a": 1, "b": 2, "a": 3}"#;
        assert!(canonical_text(twice, 100).unwrap_err().to_string().contains("given twice"));
        assert!(object(twice).err().unwrap().to_string().contains("given twice"));
        let wide = format!("{{{}}}", (0..MAX_OBJECT_FIELDS + 1).map(|i| format!("\"k{i}\":0")).collect::<Vec<_>>().join(","));
        assert!(canonical_text(&wide, 1 << 30).unwrap_err().to_string().contains("fields"));
        assert!(canonical_text("[1,2,3]", 4).unwrap_err().to_string().contains("more than 4 bytes"));
        let mut budget = 3;
        assert_eq!(dice("[1,2]", &mut budget).unwrap(), vec![1, 2]);
        assert!(dice("[1,2]", &mut budget).is_err(), "one die left in the budget");
        assert!(dice("[1,300]", &mut 10).is_err());
    }

    #[test]
    fn arrays_are_walked_one_element_at_a_time() {
        let mut seen = Vec::new();
        let n = for_each::<()>(r#"[{"a":1}, 2, "x"]"#, |i, v| {
            seen.push((i, v.get().to_string()));
            Ok(())
        });
        assert!(matches!(n, Ok(3)));
        assert_eq!(seen, vec![(0, r#"{"a":1}"#.to_string()), (1, "2".into()), (2, r#""x""#.into())]);
        assert!(matches!(for_each(r#"[1, 2, 3]"#, |i, _| if i == 1 { Err("second") } else { Ok(()) }), Err(Stop::Caller("second"))));
        assert!(matches!(for_each::<()>(r#"{"a": 1}"#, |_, _| Ok(())), Err(Stop::Json(_))));
    }

    #[test]
    fn the_top_level_keeps_known_fields_only() {
        const KNOWN: &[&str] = &["format", "log"];
        let t = top(r#"{"format": "x", "other": [1, 2], "log": [], "more": 1}"#, KNOWN).unwrap();
        assert_eq!(t.get("format").unwrap().get(), r#""x""#);
        assert_eq!(t.get("log").unwrap().get(), "[]");
        assert_eq!(t.unknown.as_deref(), Some("other"));
        assert_eq!(top(r#"{"log": [], "log": []}"#, KNOWN).unwrap().twice, Some("log"));
        assert!(top("[1]", KNOWN).is_err());
    }
}
