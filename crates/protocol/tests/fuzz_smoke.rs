//! Fuzz smoke tests for the protocol, run by `cargo test`: random bytes and
//! random JSON requests made of the protocol's own words never make the
//! engine panic, every request gets exactly one `ok` or `error` (after any
//! events), and a request that fails leaves the game exactly as it was.
//! (The cargo-fuzz target `protocol_line` in `fuzz/` explores the same
//! entry point for longer; see fuzz/README.md.)

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use warboard_protocol::{parse_line, Engine, Reply};

const WORDS: &[&str] = &[
    "new",
    "load",
    "state",
    "legal",
    "apply",
    "undo",
    "dice",
    "quit",
    "classic",
    "standard",
    "empty",
    "seeded",
    "client",
    "end_phase",
    "purchase",
    "move",
    "battle",
    "resolve",
    "casualties",
    "continue",
    "retreat",
    "submerge",
    "place",
    "surrender",
    "research",
    "rocket",
    "axis",
    "allies",
    "russia",
    "germany",
    "uk",
    "japan",
    "usa",
    "infantry",
    "armor",
    "fighter",
    "bomber",
    "transport",
    "submarine",
    "battleship",
    "aa_gun",
    "industrial_complex",
    "GER",
    "UKR",
    "CAU",
    "MOS",
    "LEN",
    "EEU",
    "BAL",
    "KRZ",
    "u0",
    "u5",
    "u40",
    "u9999",
    "",
    "ß💥",
];
const KEYS: &[&str] = &[
    "cmd",
    "id",
    "action",
    "seq",
    "type",
    "units",
    "route",
    "at",
    "to",
    "count",
    "dice",
    "side",
    "full",
    "offset",
    "limit",
    "values",
    "ruleset",
    "options",
    "seed",
    "powers",
    "setup",
    "state",
    "path",
    "transport",
    "bombing",
    "turn",
    "phase",
    "ipcs",
    "control",
    "development",
    "from",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![4 => prop::sample::select(WORDS).prop_map(String::from), 1 => "\\PC{0,6}"]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (0u64..12).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map(Value::Number).unwrap_or(Value::Null)),
        word().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<_, _>>())),
        ]
    })
}

/// A request made of the protocol's words: a real command (never `save`,
/// which writes files, nor `quit`), random fields.
fn request() -> impl Strategy<Value = Value> {
    let cmd = prop::sample::select(&["new", "load", "state", "legal", "apply", "undo", "dice", "bogus"][..]);
    (cmd, prop::collection::vec((prop::sample::select(KEYS), value()), 0..4), value()).prop_map(|(cmd, fields, action)| {
        let mut m: Map<String, Value> = fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        m.insert("cmd".into(), cmd.into());
        if cmd == "apply" && !m.contains_key("action") {
            m.insert("action".into(), action);
        }
        if cmd == "load" {
            m.insert("path".into(), "/nonexistent/warboard-fuzz.json".into());
        }
        Value::Object(m)
    })
}

/// Sends a line; checks the shape of the answer; returns the final reply.
fn answer(engine: &mut Engine, line: &str) -> Result<Reply, TestCaseError> {
    let mut replies = Vec::new();
    engine.handle_line(line, &mut |r| replies.push(r));
    let last = replies.pop().ok_or_else(|| TestCaseError::fail("no answer"))?;
    prop_assert!(replies.iter().all(|r| matches!(r, Reply::Event { .. })), "only events before the answer");
    prop_assert!(matches!(last, Reply::Ok { .. } | Reply::Error { .. }), "the answer is ok or error: {last:?}");
    // Every reply is one line of JSON.
    let text = last.to_line();
    prop_assert!(!text.contains('\n') && serde_json::from_str::<Value>(&text).is_ok());
    Ok(last)
}

fn full_state(engine: &mut Engine) -> Value {
    let mut out = Vec::new();
    engine.handle_line(r#"{"cmd": "state", "full": true}"#, &mut |r| out.push(r));
    match out.pop() {
        Some(Reply::Ok { result, .. }) => result,
        other => json!({"no game": format!("{other:?}")}),
    }
}

/// The number of cases: `PROPTEST_CASES` when set (for a longer smoke run),
/// else the given number.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let line = String::from_utf8_lossy(&bytes);
        let _ = parse_line(&line);
        let mut engine = Engine::new();
        answer(&mut engine, &line)?;
    }

    #[test]
    fn random_json_never_panics(v in value()) {
        let _ = parse_line(&v.to_string());
        let mut engine = Engine::new();
        answer(&mut engine, &v.to_string())?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(96), .. ProptestConfig::default() })]

    /// A live game, then random requests: failures change nothing.
    #[test]
    fn random_requests_never_panic_nor_corrupt(requests in prop::collection::vec(request(), 1..12)) {
        let mut engine = Engine::new();
        answer(&mut engine, r#"{"cmd": "new", "seed": 6}"#)?;
        for r in requests {
            let before = full_state(&mut engine);
            let reply = answer(&mut engine, &r.to_string())?;
            if matches!(reply, Reply::Error { .. }) {
                prop_assert_eq!(full_state(&mut engine), before, "the failed request {} changed the game", r);
            }
        }
    }
}
