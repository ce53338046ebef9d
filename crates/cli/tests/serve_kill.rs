//! The kill test (issue 29): the real `warboard serve` process, on a SQLite
//! file, is killed with SIGKILL at 50 or more random points of a scripted
//! hot-seat game (one account holds every power). After each restart:
//!
//! 1. the game's entry count is the number of acknowledged actions, or one
//!    more where an action was in flight (sent, its reply never read);
//! 2. `sync` from 0 gives back every acknowledged action, in order, and at
//!    most the in-flight one after them; resending the in-flight one under
//!    its client id answers `repeated` where it was committed and is
//!    accepted afresh where it was not; resending the last acknowledged one
//!    always answers `repeated`, applying nothing;
//! 3. the state (summary and full position) equals the one read right after
//!    the last acknowledgement, when nothing in flight was committed;
//! 4. in the middle and at the end the downloaded record passes
//!    `warboard replay` and holds exactly the acknowledged actions.
//!
//! The kill points come from a splitmix64 over a seed printed in the output;
//! `WARBOARD_KILL_SEED=N cargo test -p warboard --test serve_kill` repeats a
//! run (the server's dice are its own, from the operating system, so only
//! the kill points and the script repeat).

use std::collections::HashSet;
use std::fs::File;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// The seed used unless `WARBOARD_KILL_SEED` names another.
const DEFAULT_SEED: u64 = 0x2900_4B11;
/// How many times the server is killed.
const KILLS: usize = 56;
/// The server keeps the last 1000 entries for `sync`: the game stays under.
const MAX_ENTRIES: usize = 900;
/// How long any one wait (a reply, the server coming up) may take.
const WAIT: Duration = Duration::from_secs(30);

/// splitmix64: small, seedable, good enough to pick kill points.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The server process, its database and its log, in a folder of their own.
/// On drop (a panic included) the process is killed and the folder removed;
/// after a panic the log's tail is printed first.
struct Server {
    dir: PathBuf,
    db: PathBuf,
    log: PathBuf,
    child: Option<Child>,
    addr: String,
    starts: usize,
}

impl Server {
    fn new() -> Server {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!("warboard-serve-kill-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        Server { db: dir.join("games.db"), log: dir.join("server.log"), dir, child: None, addr: String::new(), starts: 0 }
    }

    /// Starts the server on a free port and waits until `/health` answers.
    fn start(&mut self) {
        assert!(self.child.is_none(), "one server at a time");
        let port = {
            let listener = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
            listener.local_addr().expect("an address").port()
        };
        self.addr = format!("127.0.0.1:{port}");
        let log = File::options().create(true).append(true).open(&self.log).expect("the server's log");
        let child = Command::new(env!("CARGO_BIN_EXE_warboard"))
            .args(["serve", "--listen", &self.addr, "--database", &format!("sqlite://{}", self.db.display()), "--log", "info"])
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("warboard serve starts");
        self.child = Some(child);
        self.starts += 1;
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.as_mut().and_then(|c| c.try_wait().ok().flatten()) {
                panic!("the server exited at start ({status}):\n{}", self.log_tail());
            }
            if let Ok((200, body)) = http(&self.addr, "GET", "/health", None, None) {
                let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                assert_eq!(body, json!({"status": "ok"}), "the health check's body");
                return;
            }
            assert!(Instant::now() < deadline, "the server answers /health within {WAIT:?}:\n{}", self.log_tail());
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// SIGKILL: no shutdown, no flush, nothing finished.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn http(&self, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> (u16, String) {
        http(&self.addr, method, path, token, body.map(|b| b.to_string()).as_deref()).unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            eprintln!("--- the server's log, last lines ---\n{}", self.log_tail());
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One HTTP/1.1 request on a fresh connection: the status and the body.
fn http(addr: &str, method: &str, path: &str, token: Option<&str>, body: Option<&str>) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(WAIT))?;
    let body = body.unwrap_or("");
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes())?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, rest) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    Ok((status, if chunked { dechunk(rest) } else { rest.to_string() }))
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

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket to the game: requests answered by id, pushes skipped.
struct Ws {
    socket: Socket,
    next_id: u64,
    hello: Value,
}

impl Ws {
    async fn open(addr: &str, game: &str, token: &str) -> Ws {
        let mut request = format!("ws://{addr}/api/games/{game}/ws").into_client_request().expect("a request");
        request.headers_mut().insert("Authorization", format!("Bearer {token}").parse().expect("a header"));
        let (socket, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(request))
            .await
            .expect("the WebSocket opens in time")
            .expect("the WebSocket opens");
        let mut ws = Ws { socket, next_id: 0, hello: Value::Null };
        ws.hello = ws.recv().await;
        assert_eq!(ws.hello["reply"], "hello", "{}", ws.hello);
        assert_eq!(ws.hello["status"], "playing", "{}", ws.hello);
        ws
    }

    async fn recv(&mut self) -> Value {
        loop {
            let next = tokio::time::timeout(WAIT, self.socket.next()).await.expect("a message in time");
            match next.expect("the socket is open").expect("a frame") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON"),
                Message::Close(_) => panic!("the server closed the socket"),
                _ => continue,
            }
        }
    }

    /// Sends a request with a fresh id and returns the id, reading nothing.
    async fn send(&mut self, mut request: Value) -> Value {
        self.next_id += 1;
        let id = json!(format!("r-{}", self.next_id));
        request["id"] = id.clone();
        self.socket.send(Message::Text(request.to_string().into())).await.expect("the request is sent");
        id
    }

    async fn reply_to(&mut self, id: &Value) -> Value {
        loop {
            let m = self.recv().await;
            if m["reply"] != "ok" && m["reply"] != "error" {
                continue; // a push: entry, undone, revealed, resync
            }
            assert_eq!(&m["id"], id, "replies come in the order of the requests: {m}");
            return m;
        }
    }

    async fn request(&mut self, request: Value) -> Value {
        let id = self.send(request).await;
        self.reply_to(&id).await
    }

    async fn ok(&mut self, request: Value) -> Value {
        let reply = self.request(request.clone()).await;
        assert_eq!(reply["reply"], "ok", "{request} → {reply}");
        reply["result"].clone()
    }
}

/// The game as read with `state` (`full`): entry count, summary, position.
#[derive(Clone, Debug)]
struct Observed {
    seq: usize,
    summary: Value,
    state: Value,
}

async fn observe(ws: &mut Ws) -> Observed {
    let r = ws.ok(json!({"cmd": "state", "full": true})).await;
    assert_eq!(r["status"], "playing", "{r}");
    Observed { seq: r["seq"].as_u64().expect("a seq") as usize, summary: r["summary"].clone(), state: r["position"].clone() }
}

/// An action about to be sent, with what the script learns once it is
/// acknowledged.
#[derive(Clone, Debug)]
struct Pending {
    action: Value,
    client_id: String,
    /// Round, power whose turn it is, phase: where it was chosen.
    at: (u64, String, String),
}

impl Pending {
    fn message(&self, seq: Option<usize>) -> Value {
        let mut m = json!({"cmd": "apply", "action": self.action, "client_id": self.client_id});
        if let Some(seq) = seq {
            m["seq"] = json!(seq);
        }
        m
    }
}

/// The scripted hot-seat player and what it has been told.
#[derive(Default)]
struct Player {
    /// Every acknowledged action, at its entry number, and its client id.
    acked: Vec<(Value, String)>,
    next_client_id: u64,
    /// (round, power) whose purchase, placement was acknowledged or given up.
    bought: HashSet<(u64, String)>,
    placed: HashSet<(u64, String)>,
    attacked: bool,
    /// (round, power, phase) where a refusal sends the script to end_phase.
    gave_up: HashSet<(u64, String, String)>,
    refusals: Vec<String>,
    refused_in_a_row: usize,
}

fn capital(power: &str) -> &'static str {
    match power {
        "russia" => "MOS",
        "germany" => "GER",
        "uk" => "GBR",
        "japan" => "JPN",
        "usa" => "EUS",
        other => panic!("no capital known for {other}"),
    }
}

impl Player {
    /// The script's next action in the position `obs` (which was read on
    /// `ws`, where `legal` is asked for casualties).
    async fn choose(&mut self, ws: &mut Ws, obs: &Observed) -> Pending {
        let s = &obs.summary;
        let round = s["round"].as_u64().expect("a round");
        let turn = s["turn"].as_str().expect("a turn").to_string();
        let phase = s["phase"].as_str().expect("a phase").to_string();
        let key = (round, turn.clone());
        let kind = s["decision"]["kind"].as_str().unwrap_or("phase");
        let action = if kind == "casualties" {
            let legal = ws.ok(json!({"cmd": "legal"})).await;
            let item = legal["items"].as_array().and_then(|items| items.iter().find(|i| i["type"] == "casualties")).cloned();
            let item = item.unwrap_or_else(|| panic!("a casualty choice is listed: {legal}"));
            json!({"type": "casualties", "units": item["default"]})
        } else if kind != "phase" {
            json!({"type": "continue"})
        } else if self.gave_up.contains(&(round, turn.clone(), phase.clone())) {
            json!({"type": "end_phase"})
        } else if phase == "combat" {
            match s["battles"].as_array().and_then(|b| b.iter().find(|b| b["result"] == "pending")) {
                // Round by round, so that casualty and press-on decisions come up.
                Some(b) => json!({"type": "battle", "at": b["at"]}),
                None => json!({"type": "end_phase"}),
            }
        } else if phase == "purchase" && !self.bought.contains(&key) {
            json!({"type": "purchase", "units": {"infantry": 1}})
        } else if phase == "place" && self.bought.contains(&key) && !self.placed.contains(&key) {
            json!({"type": "place", "at": capital(&turn), "units": {"infantry": 1}})
        } else if phase == "combat_move" && turn == "germany" && round == 1 && !self.attacked {
            json!({"type": "move", "units": [{"type": "infantry", "count": 3}, {"type": "armor", "count": 1}], "route": ["EEU", "LEN"]})
        } else {
            json!({"type": "end_phase"})
        };
        self.next_client_id += 1;
        Pending { action, client_id: format!("a-{}", self.next_client_id), at: (round, turn, phase) }
    }

    /// An acknowledgement of `p` at entry `seq`.
    fn ack(&mut self, p: &Pending, seq: usize) {
        assert_eq!(seq, self.acked.len(), "an acknowledged action is the next entry: {p:?}");
        self.acked.push((p.action.clone(), p.client_id.clone()));
        self.refused_in_a_row = 0;
        let key = (p.at.0, p.at.1.clone());
        match p.action["type"].as_str() {
            Some("purchase") => {
                self.bought.insert(key);
            }
            Some("place") => {
                self.placed.insert(key);
            }
            Some("move") => self.attacked = true,
            _ => {}
        }
    }

    /// A refusal of `p`: the script ends that phase instead.
    fn refused(&mut self, p: &Pending, reply: &Value) {
        assert_eq!(reply["reply"], "error", "{reply}");
        let code = reply["code"].as_str().unwrap_or("");
        assert!(!code.starts_with("protocol/") && !code.starts_with("auth/") && code != "game/stale", "{} → {reply}", p.action);
        self.refused_in_a_row += 1;
        assert!(self.refused_in_a_row <= 3, "the script is stuck at {:?}: {} → {reply}", p.at, p.action);
        self.refusals.push(format!("{:?} {} → {}", p.at, p.action, code));
        self.gave_up.insert(p.at.clone());
        if p.action["type"] == "move" {
            self.attacked = true;
        }
    }

    /// One action taken to its acknowledgement (refusals on the way are
    /// followed by the fallback).
    async fn step(&mut self, ws: &mut Ws) {
        loop {
            let obs = observe(ws).await;
            assert_eq!(obs.seq, self.acked.len(), "the game holds exactly the acknowledged actions");
            let p = self.choose(ws, &obs).await;
            let reply = ws.request(p.message(Some(obs.seq))).await;
            if reply["reply"] == "ok" {
                assert_eq!(reply["result"]["repeated"], false, "{reply}");
                self.ack(&p, reply["result"]["seq"].as_u64().expect("a seq") as usize);
                return;
            }
            self.refused(&p, &reply);
        }
    }
}

/// The record downloaded, replayed by `warboard replay`, and its log compared
/// with the acknowledged actions.
fn check_record(server: &Server, token: &str, game: &str, player: &Player, when: &str) {
    let (status, text) = server.http("GET", &format!("/api/games/{game}/record"), Some(token), None);
    assert_eq!(status, 200, "{when}: the record downloads: {text}");
    let path = server.dir.join("record.json");
    std::fs::write(&path, &text).expect("the record is written");
    let out = Command::new(env!("CARGO_BIN_EXE_warboard")).arg("replay").arg(&path).output().expect("warboard replay runs");
    assert!(out.status.success(), "{when}: warboard replay refuses the download: {}", String::from_utf8_lossy(&out.stderr));
    let save: Value = serde_json::from_str(&text).expect("the record is JSON");
    let log: Vec<&Value> = save["log"].as_array().expect("a log").iter().map(|e| &e["action"]).collect();
    let acked: Vec<&Value> = player.acked.iter().map(|(a, _)| a).collect();
    assert_eq!(log, acked, "{when}: the record holds exactly the acknowledged actions");
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn killed_servers_keep_every_acknowledged_action() {
    let started = Instant::now();
    let seed = std::env::var("WARBOARD_KILL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_SEED);
    println!("serve_kill: seed {seed} (WARBOARD_KILL_SEED={seed} repeats the kill points)");
    let mut rng = SplitMix(seed);
    let mut server = Server::new();
    server.start();

    let (status, body) = server.http("POST", "/api/signup", None, Some(&json!({"name": "killer", "password": "a long password"})));
    assert_eq!(status, 201, "{body}");
    let token = serde_json::from_str::<Value>(&body).expect("JSON")["token"].as_str().expect("a token").to_string();
    let seats = json!({"russia": {"kind": "me"}, "germany": {"kind": "me"}, "uk": {"kind": "me"}, "japan": {"kind": "me"}, "usa": {"kind": "me"}});
    let (status, body) = server.http("POST", "/api/games", Some(&token), Some(&json!({"ruleset": "classic", "seats": seats})));
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(created["game"]["status"], "playing", "{created}");
    let game = created["game"]["id"].as_str().expect("an id").to_string();

    let mut player = Player::default();
    let mut ws = Ws::open(&server.addr, &game, &token).await;
    let (mut in_flight_kills, mut in_flight_committed) = (0, 0);

    for kill in 1..=KILLS {
        let where_ = |player: &Player| format!("seed {seed}, kill {kill}, after {} acknowledged actions", player.acked.len());
        for _ in 0..1 + rng.below(8) {
            player.step(&mut ws).await;
        }
        // The state right after the last acknowledgement.
        let reference = observe(&mut ws).await;
        assert_eq!(reference.seq, player.acked.len(), "{}", where_(&player));
        let in_flight = if rng.below(2) == 0 {
            let p = player.choose(&mut ws, &reference).await;
            ws.send(p.message(Some(reference.seq))).await;
            // Kill at once or a moment later, so the action is sometimes
            // committed and sometimes not.
            let micros = rng.below(6) * 400;
            if micros > 0 {
                std::thread::sleep(Duration::from_micros(micros));
            }
            Some(p)
        } else {
            None
        };
        server.kill();
        drop(ws);
        server.start();
        ws = Ws::open(&server.addr, &game, &token).await;

        // 1. Every acknowledged action is there, at most the in-flight one more.
        let n = player.acked.len();
        let hello_seq = ws.hello["seq"].as_u64().expect("a seq") as usize;
        let after = observe(&mut ws).await;
        assert_eq!(after.seq, hello_seq, "{}", where_(&player));
        let extra = if in_flight.is_some() { 1 } else { 0 };
        assert!(
            after.seq >= n && after.seq <= n + extra,
            "{}: the game has {} entries after the restart, {n} were acknowledged and {extra} in flight",
            where_(&player),
            after.seq
        );

        // 2. In order, nothing lost, nothing twice.
        let sync = ws.ok(json!({"cmd": "sync", "from": 0})).await;
        assert_eq!(sync["seq"].as_u64(), Some(after.seq as u64), "{}: {sync}", where_(&player));
        let entries = sync["entries"].as_array().unwrap_or_else(|| panic!("{}: sync gives entries: {sync}", where_(&player)));
        assert_eq!(entries.len(), after.seq, "{}", where_(&player));
        for (i, e) in entries.iter().enumerate() {
            assert_eq!(e["seq"].as_u64(), Some(i as u64), "{}: {e}", where_(&player));
            if let Some((action, _)) = player.acked.get(i) {
                assert_eq!(&e["action"], action, "{}: entry {i} is the action acknowledged as {i}", where_(&player));
            }
        }
        match in_flight {
            Some(p) => {
                in_flight_kills += 1;
                let reply = ws.request(p.message(Some(n))).await;
                if after.seq == n + 1 {
                    in_flight_committed += 1;
                    assert_eq!(entries[n]["action"], p.action, "{}: the extra entry is the one in flight", where_(&player));
                    assert_eq!(reply["reply"], "ok", "{}: the resent action: {reply}", where_(&player));
                    assert_eq!(reply["result"]["repeated"], true, "{}: the resent committed action is a repeat: {reply}", where_(&player));
                    player.ack(&p, reply["result"]["seq"].as_u64().expect("a seq") as usize);
                } else {
                    // 3. Nothing new committed: the replayed game is the acknowledged one.
                    assert_eq!(after.summary, reference.summary, "{}: the summary after the restart", where_(&player));
                    assert_eq!(after.state, reference.state, "{}: the position after the restart", where_(&player));
                    if reply["reply"] == "ok" {
                        assert_eq!(reply["result"]["repeated"], false, "{}: the uncommitted action is new: {reply}", where_(&player));
                        player.ack(&p, reply["result"]["seq"].as_u64().expect("a seq") as usize);
                    } else {
                        player.refused(&p, &reply);
                    }
                }
            }
            None => {
                // 3. The replayed game is the acknowledged one.
                assert_eq!(after.summary, reference.summary, "{}: the summary after the restart", where_(&player));
                assert_eq!(after.state, reference.state, "{}: the position after the restart", where_(&player));
            }
        }
        // A resend of the last acknowledged action (no seq to guard it)
        // applies nothing.
        if let Some((action, client_id)) = player.acked.last().cloned() {
            let reply = ws.ok(json!({"cmd": "apply", "action": action, "client_id": client_id})).await;
            assert_eq!(reply["repeated"], true, "{}: {reply}", where_(&player));
            assert_eq!(reply["seq"].as_u64(), Some(player.acked.len() as u64 - 1), "{}: {reply}", where_(&player));
            assert_eq!(observe(&mut ws).await.seq, player.acked.len(), "{}: the repeat applied nothing", where_(&player));
        }
        assert!(player.acked.len() < MAX_ENTRIES, "the game stays within what sync keeps");

        // 4. Once in the middle: the record replays.
        if kill == KILLS / 2 {
            check_record(&server, &token, &game, &player, &where_(&player));
        }
    }

    let last = observe(&mut ws).await;
    assert_eq!(last.seq, player.acked.len());
    check_record(&server, &token, &game, &player, &format!("seed {seed}, at the end"));
    drop(ws);
    server.kill();
    println!(
        "serve_kill: {} kills ({} starts), {} acknowledged actions (round {}, {} to act), {in_flight_kills} with an action in flight ({in_flight_committed} of them committed), {} refusals, {:.1} s",
        KILLS,
        server.starts,
        player.acked.len(),
        last.summary["round"],
        last.summary["turn"],
        player.refusals.len(),
        started.elapsed().as_secs_f64()
    );
    let mut kinds = std::collections::BTreeMap::new();
    for (action, _) in &player.acked {
        *kinds.entry(action["type"].as_str().unwrap_or("?").to_string()).or_insert(0) += 1;
    }
    println!("serve_kill: actions by type: {kinds:?}");
    for r in &player.refusals {
        println!("serve_kill: refused: {r}");
    }
    assert!(player.attacked, "Germany's attack was tried");
    assert!(kinds.contains_key("battle") && kinds.contains_key("casualties"), "a battle was fought: {kinds:?}");
}
