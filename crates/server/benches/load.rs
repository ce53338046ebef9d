//! The server's load generator (issue 29): many concurrent scripted games
//! over WebSocket on loopback, two clients a game (one per side), each
//! ending its powers' phases as soon as a push says it is to act. Reports
//! accepted actions a second and the latency of each `apply` (sent to
//! answered), and, for an in-process server, memory per idle game and the
//! size of a finished classic game's record.
//!
//!     cargo bench -p warboard-server --bench load -- --games 200 --actions 70
//!     cargo bench -p warboard-server --bench load -- --url http://127.0.0.1:8080 --second http://127.0.0.1:8081
//!
//! With `--url` it plays against running servers (start them with
//! `--max-games-per-account 1000`); with `--second`, each game's second
//! client talks to the second server (several servers on one PostgreSQL).

// The tests' plain HTTP client, shared.
#[path = "../tests/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use warboard_server::clock::SystemClock;
use warboard_server::store::Store;
use warboard_server::{AppState, Config};

/// Games a pair of accounts plays: keeps each account well inside the
/// per-account limits on games and connections.
const GAMES_PER_PAIR: usize = 10;

struct Args {
    games: usize,
    actions: i64,
    url: Option<String>,
    second: Option<String>,
    idle: usize,
    record_size: bool,
    /// Offered load in actions a second across all games (0: as fast as
    /// the server answers).
    rate: f64,
}

fn args() -> Args {
    let mut a = Args { games: 200, actions: 70, url: None, second: None, idle: 200, record_size: true, rate: 600.0 };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => a.games = value().parse().expect("--games N"),
            "--actions" => a.actions = value().parse().expect("--actions N"),
            "--url" => a.url = Some(value()),
            "--second" => a.second = Some(value()),
            "--idle" => a.idle = value().parse().expect("--idle N"),
            "--no-record-size" => a.record_size = false,
            "--rate" => a.rate = value().parse().expect("--rate ACTIONS_A_SECOND"),
            _ => {} // cargo bench's own flags (--bench)
        }
    }
    a
}

fn main() {
    let args = args();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(run(args));
}

async fn run(args: Args) {
    let (one, local) = match &args.url {
        Some(url) => (url.trim_start_matches("http://").to_string(), None),
        None => {
            let path = std::env::temp_dir().join(format!("warboard-load-{}.db", std::process::id()));
            let store = Store::open(&format!("sqlite://{}", path.display())).await.expect("SQLite opens");
            let config = Config { max_games_per_account: 10_000, ..Config::default() };
            let app = warboard_server::router(AppState::new(store, Arc::new(SystemClock), config, None));
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
            let addr = listener.local_addr().expect("an address").to_string();
            tokio::spawn(async move { axum::serve(warboard_server::app::without_delay(listener), app).await.expect("serves") });
            (addr, Some(path))
        }
    };
    let two = args.second.as_deref().map(|u| u.trim_start_matches("http://").to_string()).unwrap_or_else(|| one.clone());
    let tag = format!("{:x}", std::process::id());

    // Accounts and games.
    let pairs = args.games.div_ceil(GAMES_PER_PAIR);
    let mut tokens = Vec::new();
    for i in 0..pairs {
        let axis = signup(&one, &format!("ax{tag}-{i}")).await;
        let allies = signup(&one, &format!("al{tag}-{i}")).await;
        tokens.push((axis, allies, format!("al{tag}-{i}")));
    }
    let mut games = Vec::new();
    for g in 0..args.games {
        let (axis, _, allies_name) = &tokens[g / GAMES_PER_PAIR];
        let seats = json!({
            "germany": {"kind": "me"}, "japan": {"kind": "me"},
            "russia": {"kind": "account", "name": allies_name}, "uk": {"kind": "account", "name": allies_name}, "usa": {"kind": "account", "name": allies_name},
        });
        let (status, body) = http(&one, "POST", "/api/games", Some(axis), Some(json!({"ruleset": "classic", "seats": seats}))).await;
        assert_eq!(status, 201, "{body}");
        games.push(body["game"]["id"].as_str().expect("an id").to_string());
    }

    if local.is_some() && args.idle > 0 {
        idle_memory(&one, &tokens[0].0, args.idle).await;
    }

    // Play.
    let latencies = Arc::new(Mutex::new(Vec::<Duration>::new()));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (g, id) in games.iter().enumerate() {
        let (axis, allies, _) = &tokens[g / GAMES_PER_PAIR];
        for (server, token, powers) in [(&one, axis, vec!["germany", "japan"]), (&two, allies, vec!["russia", "uk", "usa"])] {
            let (server, token, id, lat) = (server.clone(), token.clone(), id.clone(), latencies.clone());
            let target = args.actions;
            // Each game offers its share of the load: one action every
            // `pace`, from a start of its own spread over the first pace so
            // that the games do not all act at the same instant.
            let pace = (args.rate > 0.0).then(|| Duration::from_secs_f64(args.games as f64 / args.rate));
            let start = started + pace.map_or(Duration::ZERO, |p| p.mul_f64(g as f64 / args.games as f64));
            tasks.push(tokio::spawn(async move { play(&server, &id, &token, &powers, target, pace, start, lat).await }));
        }
    }
    let mut accepted = 0u64;
    let rate = if args.rate > 0.0 { format!("offered {:.0} actions/s", args.rate) } else { "unpaced".into() };
    println!("playing: {rate}");
    for t in tasks {
        accepted += t.await.expect("a client finished");
    }
    let elapsed = started.elapsed();
    let mut lat = latencies.lock().await.clone();
    lat.sort();
    let pct = |q: f64| lat.get(((lat.len() as f64 * q) as usize).min(lat.len().saturating_sub(1))).copied().unwrap_or_default();
    println!(
        "games {}  clients {}  accepted {}  in {:.1} s  = {:.0} actions/s  latency p50 {:.1} ms  p99 {:.1} ms  max {:.1} ms",
        args.games,
        args.games * 2,
        accepted,
        elapsed.as_secs_f64(),
        accepted as f64 / elapsed.as_secs_f64(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        lat.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );

    if args.record_size {
        record_size();
    }
    if let Some(path) = local {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = path.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

/// One side of one game: acts whenever a push says one of its powers is to
/// act, until the game has `target` entries. Returns the actions accepted.
#[allow(clippy::too_many_arguments)]
async fn play(
    server: &str,
    game: &str,
    token: &str,
    powers: &[&str],
    target: i64,
    pace: Option<Duration>,
    start: Instant,
    latencies: Arc<Mutex<Vec<Duration>>>,
) -> u64 {
    let mut request = format!("ws://{server}/api/games/{game}/ws").into_client_request().expect("a request");
    request.headers_mut().insert("Authorization", format!("Bearer {token}").parse().expect("a header"));
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(request, None, true).await.expect("the socket opens");
    let hello = next(&mut ws).await;
    let mut count = hello["seq"].as_i64().expect("seq");
    ws.send(Message::Text(json!({"cmd": "state", "id": 0}).to_string().into())).await.expect("sent");
    let actor = loop {
        let m = next(&mut ws).await;
        if m["id"] == 0 {
            break m["result"]["summary"]["actor"].as_str().map(String::from);
        }
    };
    let mut accepted = 0;
    let mut mine = actor.as_deref().is_some_and(|a| powers.contains(&a));
    let mut sent: Option<Instant> = None;
    while count < target {
        if mine && sent.is_none() {
            if let Some(pace) = pace {
                tokio::time::sleep_until((start + pace * count as u32).into()).await;
            }
            let m = json!({"cmd": "apply", "id": count + 1, "action": {"type": "end_phase"}, "seq": count});
            ws.send(Message::Text(m.to_string().into())).await.expect("sent");
            sent = Some(Instant::now());
            mine = false;
        }
        let m = next(&mut ws).await;
        match m["reply"].as_str() {
            Some("ok") if m["cmd"] == "apply" => {
                if let Some(at) = sent.take() {
                    latencies.lock().await.push(at.elapsed());
                }
                accepted += 1;
            }
            Some("error") => panic!("refused: {m}"),
            Some("entry") => {
                count = m["seq"].as_i64().expect("seq") + 1;
                mine = m["next"].as_str().is_some_and(|p| powers.contains(&p));
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    accepted
}

async fn next(ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>) -> Value {
    loop {
        match tokio::time::timeout(Duration::from_secs(60), ws.next()).await.expect("a message within a minute") {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(&t).expect("JSON"),
            Some(Ok(_)) => continue,
            other => panic!("the socket ended: {other:?}"),
        }
    }
}

async fn signup(server: &str, name: &str) -> String {
    let (status, body) = http(server, "POST", "/api/signup", None, Some(json!({"name": name, "password": "a long password"}))).await;
    assert_eq!(status, 201, "{body}");
    body["token"].as_str().expect("a token").to_string()
}

async fn http(server: &str, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let client = common::HttpClient { addr: server.parse().expect("HOST:PORT") };
    client.http(method, path, token, body.as_ref()).await
}

/// The process's resident memory, from /proc (Linux), in KiB.
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()).and_then(|n| n.parse().ok())
}

/// Memory per idle game: games created (a game whose seats are all filled
/// starts at once, read into the server's memory) and visited by one
/// connection each, then closed; the resident size before and after.
async fn idle_memory(server: &str, token: &str, n: usize) {
    let seats: serde_json::Map<String, Value> =
        ["russia", "germany", "uk", "japan", "usa"].iter().map(|p| (p.to_string(), json!({"kind": "me"}))).collect();
    let before = rss_kib();
    let mut ids = Vec::new();
    for _ in 0..n {
        let (status, body) = http(server, "POST", "/api/games", Some(token), Some(json!({"ruleset": "classic", "seats": seats.clone()}))).await;
        if status != 201 {
            println!("idle games: stopped at {} ({body})", ids.len());
            break;
        }
        ids.push(body["game"]["id"].as_str().expect("an id").to_string());
    }
    for id in &ids {
        let mut request = format!("ws://{server}/api/games/{id}/ws").into_client_request().expect("a request");
        request.headers_mut().insert("Authorization", format!("Bearer {token}").parse().expect("a header"));
        let (mut ws, _) = tokio_tungstenite::connect_async_with_config(request, None, true).await.expect("the socket opens");
        let _ = next(&mut ws).await;
        let _ = ws.close(None).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    if let (Some(b), Some(a)) = (before, rss_kib()) {
        println!("idle games {}: resident memory {} KiB → {} KiB = {:.0} KiB a game", ids.len(), b, a, (a.saturating_sub(b)) as f64 / ids.len().max(1) as f64);
    }
}

/// The size of a finished classic game's record: computer against computer
/// (the standard planner) to the end, or 40 rounds.
fn record_size() {
    use warboard_record::{DiceMode, Record, Start};
    let record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 7 })).expect("classic starts");
    let mut table = warboard_table::Table::new(record, vec![true; 5], 0);
    while table.game().state.winner.is_none() && table.game().state.round <= 40 {
        if let warboard_table::Step::Idle | warboard_table::Step::Stuck { .. } = table.step_computer() {
            break;
        }
    }
    let text = table.record().to_save_string();
    let s = &table.game().state;
    println!(
        "a classic game to round {} ({}): {} entries, save file {} bytes ({:.0} bytes an entry)",
        s.round,
        if s.winner.is_some() { "won" } else { "undecided" },
        table.record().log().len(),
        text.len(),
        text.len() as f64 / table.record().log().len().max(1) as f64
    );
}
