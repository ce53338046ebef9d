//! Reading request lines. Every way a line can be wrong has its own error
//! code, and the error keeps the request's `id` and `cmd` when they could be
//! read, so that the client can tell which request failed.

use crate::message::{Command, Reply, Request};
use serde_json::{Map, Value};

/// The longest request line the engine reads (bytes).
pub const MAX_LINE: usize = 1 << 20;

/// The longest string `id` (bytes): it is copied into every reply and event
/// of its request, so a long one would multiply the output (issue 34).
pub const MAX_ID: usize = 256;

/// A request line that cannot be carried out as written.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("[{code}] {message}")]
pub struct ProtocolError {
    pub id: Option<Value>,
    pub cmd: Option<String>,
    pub code: &'static str,
    pub message: String,
}

impl ProtocolError {
    pub fn new(code: &'static str, message: impl Into<String>) -> ProtocolError {
        ProtocolError { id: None, cmd: None, code, message: message.into() }
    }
    pub fn to_reply(&self) -> Reply {
        Reply::Error { id: self.id.clone(), cmd: self.cmd.clone(), code: self.code.into(), message: self.message.clone() }
    }
}

/// Parses one request line.
pub fn parse_line(line: &str) -> Result<Request, ProtocolError> {
    if line.len() > MAX_LINE {
        return Err(ProtocolError::new("protocol/line-too-long", format!("a request line is at most {MAX_LINE} bytes")));
    }
    let value: Value =
        serde_json::from_str(line).map_err(|e| ProtocolError::new("protocol/not-json", format!("the line is not JSON: {e}")))?;
    // Strict JSON: a key given twice would let the last one win unseen,
    // and `null` for a field is not the same as leaving it out (issue 34).
    if let Err(e) = warboard_conform::strict_json::check(line) {
        return Err(ProtocolError::new("protocol/bad-field", e));
    }
    let Value::Object(mut fields) = value else {
        return Err(ProtocolError::new("protocol/not-an-object", "a request is a JSON object with a `cmd`"));
    };
    let id = fields.remove("id");
    // An id comes back exactly as given: a string, or a whole number that
    // fits 64 bits (a larger one would come back as a float; issue 16,
    // finding 8).
    match &id {
        Some(Value::Number(n)) if !(n.is_u64() || n.is_i64()) => {
            return Err(ProtocolError::new("protocol/bad-field", format!("`id` is a string or a whole number of at most 64 bits, not {n}")));
        }
        // Refused without echoing it back.
        Some(v) => {
            let len = v.to_string().len();
            if len > MAX_ID {
                return Err(ProtocolError::new("protocol/bad-field", format!("an `id` is at most {MAX_ID} bytes of JSON; this one is {len}")));
            }
        }
        None => {}
    }
    let fail = |code, message: String, cmd: Option<String>| ProtocolError { id: id.clone(), cmd, code, message };
    let cmd = match fields.get("cmd") {
        None => return Err(fail("protocol/missing-field", "a request needs a `cmd`".into(), None)),
        Some(Value::String(s)) => s.clone(),
        Some(other) => return Err(fail("protocol/bad-field", format!("`cmd` is a string, not {other}"), None)),
    };
    if !Command::NAMES.contains(&cmd.as_str()) {
        let known = Command::NAMES.join(", ");
        return Err(fail("protocol/unknown-command", format!("unknown command `{cmd}` (commands: {known})"), Some(cmd)));
    }
    let command = serde_json::from_value::<Command>(Value::Object(fields)).map_err(|e| {
        let message = e.to_string();
        let code = if message.starts_with("missing field") { "protocol/missing-field" } else { "protocol/bad-field" };
        fail(code, format!("`{cmd}`: {message}"), Some(cmd.clone()))
    })?;
    Ok(Request { id, command })
}

impl Request {
    /// The request as one line of JSON, as a client writes it.
    pub fn to_line(&self) -> String {
        let mut fields = match serde_json::to_value(&self.command) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        };
        if let Some(id) = &self.id {
            fields.insert("id".into(), id.clone());
        }
        Value::Object(fields).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{DiceChoice, NewGame};
    use serde_json::json;

    fn code(line: &str) -> &'static str {
        parse_line(line).unwrap_err().code
    }

    #[test]
    fn commands_parse_with_defaults() {
        let r = parse_line(r#"{"cmd": "new", "seed": 7, "id": 1}"#).unwrap();
        assert_eq!(r.id, Some(json!(1)));
        assert_eq!(r.command, Command::New(NewGame { seed: Some(7), ..NewGame::default() }));
        let r = parse_line(r#"{"cmd": "new", "dice": "client", "powers": ["germany"]}"#).unwrap();
        let Command::New(n) = r.command else { panic!() };
        assert_eq!((n.dice, n.powers), (DiceChoice::Client, Some(vec!["germany".to_string()])));
        assert_eq!(parse_line(r#"{"cmd": "state"}"#).unwrap().command, Command::State { full: false });
        assert_eq!(parse_line(r#"{"cmd": "undo"}"#).unwrap().command, Command::Undo {});
        assert_eq!(parse_line(r#"{"cmd": "legal", "limit": 5}"#).unwrap().command, Command::Legal { offset: 0, limit: Some(5) });
    }

    #[test]
    fn every_kind_of_bad_line_has_its_code() {
        assert_eq!(code("hello"), "protocol/not-json");
        assert_eq!(code(""), "protocol/not-json");
        assert_eq!(code("[1]"), "protocol/not-an-object");
        assert_eq!(code(r#"{"id": 3}"#), "protocol/missing-field");
        assert_eq!(code(r#"{"cmd": 3}"#), "protocol/bad-field");
        assert_eq!(code(r#"{"cmd": "castle"}"#), "protocol/unknown-command");
        assert_eq!(code(r#"{"cmd": "save"}"#), "protocol/missing-field");
        assert_eq!(code(r#"{"cmd": "apply", "action": {}, "seq": "x"}"#), "protocol/bad-field");
        assert_eq!(code(r#"{"cmd": "state", "ful": true}"#), "protocol/bad-field");
        assert_eq!(code(r#"{"cmd": "undo", "steps": 2}"#), "protocol/bad-field");
        assert_eq!(code(r#"{"cmd": "dice", "values": [1, 300]}"#), "protocol/bad-field");
    }

    #[test]
    fn ids_come_back_exactly_or_are_refused() {
        let r = parse_line(r#"{"cmd": "state", "id": 18446744073709551615}"#).unwrap();
        assert_eq!(r.id.unwrap().to_string(), "18446744073709551615");
        let e = parse_line(r#"{"cmd": "state", "id": 123456789012345678901234567890}"#).unwrap_err();
        assert_eq!(e.code, "protocol/bad-field");
        let e = parse_line(r#"{"cmd": "state", "id": 1.5}"#).unwrap_err();
        assert_eq!(e.code, "protocol/bad-field");
    }

    #[test]
    fn long_ids_repeated_keys_and_nulls_are_refused() {
        // Issue 34: a 1 MiB id was copied into every event of its request.
        let long = "i".repeat(MAX_ID + 1);
        let e = parse_line(&format!(r#"{{"cmd": "state", "id": "{long}"}}"#)).unwrap_err();
        assert_eq!((e.code, e.id), ("protocol/bad-field", None));
        assert!(parse_line(&format!(r#"{{"cmd": "state", "id": "{}"}}"#, "i".repeat(MAX_ID - 2))).is_ok());
        // The last of two keys won unseen: `bogus` was never looked at.
        assert_eq!(code(r#"{"cmd":"bogus","cmd":"state"}"#), "protocol/bad-field");
        assert_eq!(code(r#"{"cmd":"apply","action":{"type":"end_phase","type":"purchase"}}"#), "protocol/bad-field");
        // `null` is not an absent field.
        assert_eq!(code(r#"{"cmd":"new","seed":null}"#), "protocol/bad-field");
        assert_eq!(code(r#"{"cmd":"state","id":null}"#), "protocol/bad-field");
    }

    #[test]
    fn errors_keep_the_id_and_command() {
        let e = parse_line(r#"{"cmd": "save", "id": "a7"}"#).unwrap_err();
        assert_eq!((e.id, e.cmd.as_deref()), (Some(json!("a7")), Some("save")));
    }

    #[test]
    fn requests_write_what_they_read() {
        for line in [
            r#"{"cmd":"apply","action":{"type":"end_phase"},"seq":4,"id":9}"#,
            r#"{"cmd":"new","seed":1,"powers":["uk"]}"#,
            r#"{"cmd":"quit"}"#,
        ] {
            let r = parse_line(line).unwrap();
            assert_eq!(parse_line(&r.to_line()).unwrap(), r);
        }
    }
}
