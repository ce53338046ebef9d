//! The club's witness, over HTTP (docs/pbem.md, "The witness"): its key and
//! beacon, receipts for entries, and the beacon's rounds once published.

use std::time::Duration;

use serde_json::Value;
use warboard_proof::bytes::{from_hex, from_hex_n};
use warboard_proof::{ChainInfo, Header, SignedEntry, SignedReceipt};

/// The largest answer read from a witness: receipts and rounds are small.
const MAX_ANSWER: u64 = 4 << 20;

pub struct Witness {
    base: String,
    agent: ureq::Agent,
}

/// What `GET /api/witness` says.
pub struct About {
    pub server_key: [u8; 32],
    pub beacon: ChainInfo,
    pub now_ms: u64,
}

impl Witness {
    pub fn new(url: &str) -> Witness {
        let agent = ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(Duration::from_secs(30))).build().into();
        Witness { base: url.trim_end_matches('/').to_string(), agent }
    }

    /// A request's JSON answer, or the witness's error as `[code] message`.
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<(u16, Value), String> {
        let url = format!("{}{path}", self.base);
        let answer = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            (_, Some(body)) => self.agent.post(&url).header("content-type", "application/json").send(body.to_string().as_str()),
            (_, None) => self.agent.post(&url).send_empty(),
        };
        let mut answer = answer.map_err(|e| format!("[pbem/witness-unreachable] {url}: {e}"))?;
        let status = answer.status().as_u16();
        let text = answer.body_mut().with_config().limit(MAX_ANSWER).read_to_string().map_err(|e| format!("[pbem/witness-answer] {url}: {e}"))?;
        let value: Value = serde_json::from_str(&text).map_err(|_| format!("[pbem/witness-answer] {url} answered {status} with no JSON"))?;
        Ok((status, value))
    }

    fn ok(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let (status, value) = self.call(method, path, body)?;
        if status == 200 {
            return Ok(value);
        }
        Err(error_of(&value, status))
    }

    pub fn about(&self) -> Result<About, String> {
        let v = self.ok("GET", "/api/witness", None)?;
        let bad = |what: &str| format!("[pbem/witness-answer] the witness's {what} does not read");
        let server_key = v["server_key"].as_str().and_then(|k| from_hex_n(k).ok()).ok_or_else(|| bad("key"))?;
        let beacon: ChainInfo = serde_json::from_value(v["beacon"].clone()).map_err(|_| bad("beacon"))?;
        let now_ms = v["now_ms"].as_u64().ok_or_else(|| bad("clock"))?;
        Ok(About { server_key, beacon, now_ms })
    }

    pub fn register(&self, header: &Header) -> Result<(), String> {
        self.ok("POST", "/api/witness/games", Some(&serde_json::to_value(header).map_err(|e| e.to_string())?)).map(|_| ())
    }

    pub fn receipt(&self, game: &str, entry: &SignedEntry) -> Result<SignedReceipt, String> {
        let v = self.ok("POST", &format!("/api/witness/games/{game}/entries"), Some(&serde_json::to_value(entry).map_err(|e| e.to_string())?))?;
        serde_json::from_value(v).map_err(|e| format!("[pbem/witness-answer] a receipt that does not read: {e}"))
    }

    /// Every receipt the witness gave for the game from number `from` on.
    pub fn receipts(&self, game: &str, from: u64) -> Result<Vec<SignedReceipt>, String> {
        let mut all: Vec<SignedReceipt> = Vec::new();
        loop {
            let v = self.ok("GET", &format!("/api/witness/games/{game}/receipts?from={}", from + all.len() as u64), None)?;
            let page: Vec<SignedReceipt> = serde_json::from_value(v["receipts"].clone()).map_err(|e| format!("[pbem/witness-answer] receipts that do not read: {e}"))?;
            if page.is_empty() {
                return Ok(all);
            }
            all.extend(page);
        }
    }

    /// The round's signature, waiting until it is published.
    pub fn round(&self, round: u64) -> Result<Vec<u8>, String> {
        // A round comes within its period; a minute covers any beacon's.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        loop {
            let (status, v) = self.call("GET", &format!("/api/beacon/rounds/{round}"), None)?;
            match status {
                200 => {
                    return v["signature"].as_str().and_then(|s| from_hex(s).ok()).ok_or_else(|| format!("[pbem/witness-answer] round {round}'s signature does not read"));
                }
                425 if std::time::Instant::now() < deadline => {
                    let wait = v["error"]["args"]["retry_after_ms"].as_u64().unwrap_or(250).clamp(20, 3000);
                    std::thread::sleep(Duration::from_millis(wait));
                }
                _ => return Err(error_of(&v, status)),
            }
        }
    }
}

fn error_of(v: &Value, status: u16) -> String {
    let code = v["error"]["code"].as_str().unwrap_or("pbem/witness-answer");
    let message = v["error"]["message"].as_str().unwrap_or("no message");
    format!("[{code}] the witness answered {status}: {message}")
}
