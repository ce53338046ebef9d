//! A real server on loopback for the tests: the router on a TCP port, over
//! SQLite (a fresh file) or PostgreSQL (a fresh schema, where
//! `WARBOARD_TEST_POSTGRES` names a database), with plain HTTP/1.1 and
//! WebSocket clients.
#![allow(dead_code)]

pub mod browser;
pub mod ladder;
pub mod smtp;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use warboard_server::clock::{Clock, SystemClock};
use warboard_server::mail::{MailConfig, Mailer};
use warboard_server::store::{new_id, Store};
use warboard_server::witness::BeaconConfig;
use warboard_server::{AppState, Config};

pub const POSTGRES_VAR: &str = "WARBOARD_TEST_POSTGRES";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// The databases to run a test on: SQLite always, PostgreSQL where the
/// environment names one (said loudly where it does not).
pub fn databases(test: &str) -> Vec<Db> {
    match std::env::var(POSTGRES_VAR) {
        Ok(url) if !url.is_empty() => vec![Db::Sqlite, Db::Postgres],
        _ => {
            eprintln!("{test}: skipped on PostgreSQL: {POSTGRES_VAR} is unset");
            vec![Db::Sqlite]
        }
    }
}

pub struct TestServer {
    pub addr: SocketAddr,
    pub store: Store,
    pub hub: Arc<warboard_server::live::Hub>,
    sqlite: Option<PathBuf>,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    pub async fn start(db: Db) -> TestServer {
        TestServer::start_with(db, None).await
    }

    /// A server that sends turn mail as `mail` says.
    pub async fn start_with(db: Db, mail: Option<MailConfig>) -> TestServer {
        TestServer::start_clocked(db, Arc::new(SystemClock), mail).await
    }

    /// A server that reads the time from `clock` (a `ManualClock` for
    /// tests of correspondence games' days-long limits) and sends turn mail
    /// as `mail` says. Its clock's sweeper does not run by itself: tests
    /// call `hub.clock_tick()` after moving the clock.
    pub async fn start_clocked(db: Db, clock: Arc<dyn Clock>, mail: Option<MailConfig>) -> TestServer {
        let (store, sqlite) = match db {
            Db::Sqlite => {
                let path = std::env::temp_dir().join(format!("warboard-server-{}.db", new_id().expect("id")));
                (Store::open(&format!("sqlite://{}", path.display())).await.expect("SQLite opens"), Some(path))
            }
            Db::Postgres => {
                let url = std::env::var(POSTGRES_VAR).expect("checked by databases()");
                (Store::open_fresh_postgres_schema(&url).await.expect("PostgreSQL opens"), None)
            }
        };
        TestServer::serve(store, sqlite, clock, mail, BeaconConfig::Quicknet).await
    }

    /// A server whose witness names rounds of a local test beacon.
    pub async fn start_witness(beacon: BeaconConfig) -> TestServer {
        let path = std::env::temp_dir().join(format!("warboard-server-{}.db", new_id().expect("id")));
        let store = Store::open(&format!("sqlite://{}", path.display())).await.expect("SQLite opens");
        TestServer::serve(store, Some(path), Arc::new(SystemClock), None, beacon).await
    }

    /// A second server on the same database (PostgreSQL: the same schema),
    /// as another process would be.
    pub async fn beside(&self) -> TestServer {
        self.beside_with(None).await
    }

    /// A second server on the same database that sends turn mail as `mail` says.
    pub async fn beside_with(&self, mail: Option<MailConfig>) -> TestServer {
        self.beside_clocked(Arc::new(SystemClock), mail).await
    }

    /// A second server on the same database reading the time from `clock`.
    pub async fn beside_clocked(&self, clock: Arc<dyn Clock>, mail: Option<MailConfig>) -> TestServer {
        let store = self.store.open_again().await.expect("the database opens again");
        TestServer::serve(store, None, clock, mail, BeaconConfig::Quicknet).await
    }

    async fn serve(
        store: Store,
        sqlite: Option<PathBuf>,
        clock: Arc<dyn Clock>,
        mail: Option<MailConfig>,
        beacon: BeaconConfig,
    ) -> TestServer {
        // Every game's dice repeat from run to run (the server's own seeds
        // come from the operating system).
        let seed = std::env::var("WARBOARD_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
        let mailer = mail.as_ref().map(|m| Arc::new(Mailer::new(m).expect("the mail configuration is good")));
        let config = Config { thinkers: 2, fixed_seed: Some(seed), mail, beacon, ..Config::default() };
        let state = AppState::new(store.clone(), clock, config, mailer);
        if store.backend() == warboard_server::store::Backend::Postgres {
            tokio::spawn(state.hub.clone().follow(store.url().to_string()));
        }
        let hub = state.hub.clone();
        let app = warboard_server::router(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let addr = listener.local_addr().expect("an address");
        let task = tokio::spawn(async move {
            let _ = axum::serve(warboard_server::app::without_delay(listener), app).await;
        });
        TestServer { addr, store, hub, sqlite, task }
    }

    pub async fn stop(self) {
        self.task.abort();
        if self.sqlite.is_none() {
            let _ = self.store.clone().drop_fresh_schema().await;
        } else {
            self.store.close().await;
        }
        if let Some(path) = &self.sqlite {
            for suffix in ["", "-wal", "-shm"] {
                let mut p = path.clone().into_os_string();
                p.push(suffix);
                let _ = std::fs::remove_file(p);
            }
        }
    }

    /// One HTTP/1.1 request; the status and the JSON body (`Null` if none).
    pub async fn http(&self, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> (u16, Value) {
        HttpClient { addr: self.addr }.http(method, path, token, body).await
    }

    pub async fn http_text(&self, method: &str, path: &str, token: Option<&str>, body: Option<&str>) -> (u16, String) {
        HttpClient { addr: self.addr }.http_text(method, path, token, body).await
    }

    /// Signs up an account; its bearer token.
    pub async fn account(&self, name: &str) -> String {
        let (status, body) = self.http("POST", "/api/signup", None, Some(&json!({"name": name, "password": "a long password"}))).await;
        assert_eq!(status, 201, "{body}");
        body["token"].as_str().expect("a token").to_string()
    }

    /// Creates a game; its id.
    pub async fn create(&self, token: &str, body: Value) -> String {
        let (status, reply) = self.http("POST", "/api/games", Some(token), Some(&body)).await;
        assert_eq!(status, 201, "{reply}");
        reply["game"]["id"].as_str().expect("an id").to_string()
    }

    pub async fn ws(&self, game: &str, token: Option<&str>) -> Ws {
        let mut request = format!("ws://{}/api/games/{game}/ws", self.addr).into_client_request().expect("a request");
        if let Some(t) = token {
            request.headers_mut().insert("Authorization", format!("Bearer {t}").parse().expect("a header"));
        }
        let (socket, _) = tokio_tungstenite::connect_async_with_config(request, None, true).await.expect("the WebSocket opens");
        let mut ws = Ws { socket, pushes: Vec::new(), next_id: 0 };
        let hello = ws.recv().await;
        assert_eq!(hello["reply"], "hello", "{hello}");
        ws.pushes.clear();
        ws
    }
}

/// Plain HTTP/1.1 over a fresh connection each request.
pub struct HttpClient {
    pub addr: SocketAddr,
}

impl HttpClient {
    pub async fn http(&self, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> (u16, Value) {
        let (status, text) = self.http_text(method, path, token, body.map(|b| b.to_string()).as_deref()).await;
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn http_text(&self, method: &str, path: &str, token: Option<&str>, body: Option<&str>) -> (u16, String) {
        let mut stream = TcpStream::connect(self.addr).await.expect("the server accepts");
        let body = body.unwrap_or("");
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).await.expect("the request is sent");
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.expect("the response is read");
        let response = String::from_utf8_lossy(&response).to_string();
        let (head, rest) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
        let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
        (status, if chunked { dechunk(rest) } else { rest.to_string() })
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

pub struct Ws {
    socket: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    /// Messages that were not replies to a request, in order.
    pub pushes: Vec<Value>,
    next_id: u64,
}

impl Ws {
    pub async fn recv(&mut self) -> Value {
        loop {
            let next = tokio::time::timeout(Duration::from_secs(30), self.socket.next()).await.expect("a message within 30 s");
            match next.expect("the socket is open").expect("a frame") {
                Message::Text(t) => return serde_json::from_str(&t).expect("JSON"),
                Message::Close(_) => panic!("the server closed the socket"),
                _ => continue,
            }
        }
    }

    pub async fn send_text(&mut self, text: &str) {
        self.socket.send(Message::Text(text.to_string().into())).await.expect("sent");
    }

    /// Sends a request and waits for its `ok` or `error`, keeping pushes.
    pub async fn request(&mut self, mut request: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        request["id"] = json!(id);
        self.send_text(&request.to_string()).await;
        loop {
            let m = self.recv().await;
            if m["id"] == json!(id) {
                return m;
            }
            self.pushes.push(m);
        }
    }

    /// Takes an action; the reply (`ok` or `error`).
    pub async fn apply(&mut self, action: Value) -> Value {
        self.request(json!({"cmd": "apply", "action": action})).await
    }

    /// The game's summary as this seat sees it.
    pub async fn summary(&mut self) -> Value {
        let r = self.request(json!({"cmd": "state"})).await;
        assert_eq!(r["reply"], "ok", "{r}");
        r["result"]["summary"].clone()
    }

    /// Waits until a pushed entry with `seq` at least `seq` arrives.
    pub async fn wait_for_seq(&mut self, seq: i64) {
        if self.pushes.iter().any(|p| p["seq"].as_i64().is_some_and(|s| s >= seq)) {
            return;
        }
        loop {
            let m = self.recv().await;
            let reached = m["seq"].as_i64().is_some_and(|s| s >= seq);
            self.pushes.push(m);
            if reached {
                return;
            }
        }
    }
}

/// The action for a battle decision: the battle's default casualties (as
/// the legal list gives them), or going on.
pub async fn decide(ws: &mut Ws, decision: &Value) -> Value {
    match decision["kind"].as_str() {
        Some("casualties") => {
            let legal = ws.request(json!({"cmd": "legal"})).await;
            let item = legal["result"]["items"].as_array().and_then(|items| items.iter().find(|i| i["type"] == "casualties")).cloned();
            let item = item.unwrap_or_else(|| panic!("a casualty choice is listed: {legal}"));
            json!({"type": "casualties", "units": item["default"]})
        }
        _ => json!({"type": "continue"}),
    }
}
