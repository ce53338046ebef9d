//! Issue 31: two `warboard` instances play a classic game through a folder
//! of turn files, every entry receipted by a club's witness (a real
//! `warboard serve` on loopback with a local test beacon) and every die
//! from the beacon's rounds; each player's copy ends the same and `warboard
//! verify --require-proof` accepts it. A tampered, replayed or foreign turn
//! file is refused whole, with its code.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use warboard_server::clock::SystemClock;
use warboard_server::store::Store;
use warboard_server::witness::BeaconConfig;
use warboard_server::{AppState, Config};

fn warboard(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warboard")).args(args).output().expect("run warboard");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn ok(args: &[&str]) -> String {
    let (success, out, err) = warboard(args);
    assert!(success, "warboard {}: {out}{err}", args.join(" "));
    out
}

/// A witness on loopback: `warboard serve`'s router with a test beacon of
/// one round a second, on a SQLite file of its own.
fn start_witness(dir: &Path) -> String {
    let db = format!("sqlite://{}", dir.join("witness.db").display());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        runtime.block_on(async move {
            let store = Store::open(&db).await.unwrap();
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
            let config = Config { beacon: BeaconConfig::Test { secret: [11; 32], genesis: now - 10, period: 1 }, ..Config::default() };
            let state = AppState::new(store, Arc::new(SystemClock), config, None);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            axum::serve(listener, warboard_server::router(state)).await.unwrap();
        });
    });
    format!("http://{}", rx.recv().unwrap())
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warboard-pbem-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Seat {
    game: String,
    key: String,
    read: usize,
}

#[test]
fn two_players_play_a_classic_game_through_turn_files_and_it_verifies() {
    let dir = folder("game");
    let witness = start_witness(&dir);
    let turns = dir.join("turns");
    std::fs::create_dir_all(&turns).unwrap();
    let path = |p: PathBuf| p.to_string_lossy().into_owned();
    let mut seats = Vec::new();
    for name in ["axis", "allies"] {
        std::fs::create_dir_all(dir.join(name)).unwrap();
        let key = path(dir.join(name).join("key"));
        let public = ok(&["pbem", "key", &key]).trim().to_string();
        seats.push((Seat { game: path(dir.join(name).join("game.json")), key, read: 0 }, public));
    }
    let (axis, allies) = (&seats[0], &seats[1]);
    let out = ok(&[
        "pbem",
        "new",
        &axis.0.game,
        "--witness",
        &witness,
        "--seat",
        &format!("germany,japan={}", axis.1),
        "--seat",
        &format!("russia,uk,usa={}", allies.1),
    ]);
    assert!(out.contains("send it to every player"), "{out}");
    std::fs::copy(&axis.0.game, &allies.0.game).unwrap();
    let status = ok(&["pbem", "status", &allies.0.game, "--key", &allies.0.key]);
    assert!(status.contains("seat russia,uk,usa") && status.contains("the game waits on russia"), "{status}");
    assert!(status.contains("your seat: russia,uk,usa; it is your move"), "{status}");
    let mut players: Vec<Seat> = seats.into_iter().map(|(s, _)| s).collect();

    // Russia moves first: the Allies, then whoever the game waits on.
    let mut files: Vec<String> = Vec::new();
    let mut who = 1;
    let mut rounds_played = 0;
    for exchange in 0..40 {
        let me = &mut players[who];
        let unread: Vec<String> = files[me.read..].to_vec();
        if !unread.is_empty() {
            let mut args = vec!["pbem", "read", &me.game, "--witness", &witness];
            args.extend(unread.iter().map(String::as_str));
            ok(&args);
            me.read = files.len();
        }
        let out_file = path(turns.join(format!("{exchange:03}.json")));
        // After two rounds the Axis gives up in its turn: a whole game, to its end.
        let summary = ok(&["verify", &me.game]);
        rounds_played = summary.split("round ").nth(1).and_then(|r| r.split(',').next()).and_then(|r| r.parse().ok()).unwrap_or(rounds_played);
        let surrender = who == 0 && rounds_played >= 3;
        let script = dir.join("surrender.jsonl");
        std::fs::write(&script, "{\"type\": \"surrender\", \"side\": \"axis\"}\n").unwrap();
        let script = path(script);
        let mut args = vec!["pbem", "play", &me.game, "--key", &me.key, "--witness", &witness, "--out", &out_file];
        if surrender {
            args.extend(["--actions", &script]);
        } else {
            args.push("--auto");
        }
        let said = ok(&args);
        me.read = files.len() + 1;
        files.push(out_file);
        if said.contains("the game is over") {
            break;
        }
        who = 1 - who;
    }
    // The other player reads the last turn: both copies are the same game.
    let other = &players[1 - who];
    let mut args = vec!["pbem", "read", &other.game, "--witness", &witness];
    args.extend(files[other.read..].iter().map(String::as_str));
    ok(&args);
    let a = std::fs::read_to_string(&players[0].game).unwrap();
    let b = std::fs::read_to_string(&players[1].game).unwrap();
    assert_eq!(a, b, "both players hold the same game");
    let report = ok(&["verify", "--require-proof", &players[0].game]);
    assert!(report.contains("the allies have won"), "{report}");
    assert!(report.contains("dice: every die checked"), "{report}");
    assert!(report.contains("who acted: every entry made by the seat holding the power that acted"), "{report}");
    let rolled: usize = report.split("entries that rolled: ").nth(1).and_then(|r| r.split(')').next()).and_then(|r| r.parse().ok()).unwrap();
    assert!(rolled >= 5, "{report}");

    // Tampered: a die-bearing link's beacon signature changed.
    let first = std::fs::read_to_string(&files[0]).unwrap();
    let at = first.find("\"beacon\"").expect("the first turn rolled dice");
    let sig_at = at + first[at..].find("\"signature\": \"").unwrap() + 20;
    let mut bytes = first.clone().into_bytes();
    bytes[sig_at] = if bytes[sig_at] == b'a' { b'b' } else { b'a' };
    let tampered = path(dir.join("tampered.json"));
    std::fs::write(&tampered, bytes).unwrap();
    let fresh = path(dir.join("fresh.json"));
    // The game file as the creator sent it.
    std::fs::write(&fresh, first_state(&players[0].game)).unwrap();
    let (success, _, err) = warboard(&["pbem", "read", &fresh, &tampered]);
    assert!(!success && err.contains("[record/bad-beacon]"), "{err}");
    assert_eq!(std::fs::read_to_string(&fresh).unwrap(), first_state(&players[0].game), "a refused turn file changes nothing");
    // Out of order: the second turn before the first.
    let (success, _, err) = warboard(&["pbem", "read", &fresh, &files[1]]);
    assert!(!success && err.contains("[record/out-of-order]"), "{err}");
    // Another game's turn file.
    let mut other = first.clone();
    let id_at = other.find("\"game_id\": \"").unwrap() + 12;
    other.replace_range(id_at..id_at + 2, "ff");
    let foreign = path(dir.join("foreign.json"));
    std::fs::write(&foreign, other).unwrap();
    let (success, _, err) = warboard(&["pbem", "read", &fresh, &foreign]);
    assert!(!success && err.contains("[pbem/other-game]"), "{err}");
    // Replayed: the first turn read twice is the same entries, nothing new.
    ok(&["pbem", "read", &fresh, &files[0], &files[0]]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game file as it was created: the game with no entries. Rebuilt from
/// a player's file by dropping its log (the header and start stay).
fn first_state(game: &str) -> String {
    let text = std::fs::read_to_string(game).unwrap();
    let record = warboard_record::Record::load(&text).unwrap();
    let header = record.proof_header().unwrap().clone();
    let mut fresh = warboard_record::Record::new(record.start().clone()).unwrap();
    fresh.attach_proof(header).unwrap();
    fresh.to_save_string()
}
