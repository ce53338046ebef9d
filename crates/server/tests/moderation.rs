//! Moderation (docs/server.md, "Moderation"): only administrators ban,
//! unban and close reports; every such action is in the audit log, which
//! the database itself keeps append-only; a banned account is refused
//! everywhere, a WebSocket opened before the ban included; players report
//! games within limits.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{databases, Db, HttpClient, TestServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use warboard_server::clock::SystemClock;
use warboard_server::store::{Backend, Store};
use warboard_server::{AppState, Config};

/// A second server on `server`'s database whose `--admin` names `admins`
/// (the harness's servers name none), as `warboard serve --admin` starts.
struct AdminServer {
    http: HttpClient,
    store: Store,
    task: tokio::task::JoinHandle<()>,
}

impl AdminServer {
    async fn start(server: &TestServer, admins: &[&str]) -> AdminServer {
        let store = server.store.open_again().await.expect("the database opens again");
        let config =
            Config { thinkers: 1, fixed_seed: Some(7), admins: admins.iter().map(|a| a.to_string()).collect(), ..Config::default() };
        let state = AppState::new(store.clone(), Arc::new(SystemClock), config, None);
        warboard_server::moderation::grant_named_admins(&state).await.expect("the named accounts are granted");
        let app = warboard_server::router(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let addr = listener.local_addr().expect("an address");
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        AdminServer { http: HttpClient { addr }, store, task }
    }

    async fn stop(self) {
        self.task.abort();
        self.store.close().await;
    }
}

/// Makes `name` an administrator as the server does for `--admin`.
async fn make_admin(server: &TestServer, name: &str) {
    let id = account_id(server, name).await;
    server.store.grant_admin(None, &id, "test", now()).await.expect("granted").expect("not an administrator before");
}

async fn account_id(server: &TestServer, name: &str) -> String {
    server.store.account_by_name(name).await.expect("read").expect("the account exists").id
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_millis() as i64
}

async fn sign_in(server: &TestServer, name: &str) -> (u16, Value) {
    server.http("POST", "/api/signin", None, Some(&json!({"name": name, "password": "a long password"}))).await
}

/// Every power but Russia held by `host`, Russia by `russia`: a game in play.
fn seats_with_russia(russia: &str) -> Value {
    json!({
        "russia": {"kind": "account", "name": russia},
        "germany": {"kind": "me"}, "uk": {"kind": "me"}, "japan": {"kind": "me"}, "usa": {"kind": "me"},
    })
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A game's WebSocket as `token`'s account, its hello read.
async fn socket(server: &TestServer, game: &str, token: &str) -> Socket {
    let mut request = format!("ws://{}/api/games/{game}/ws", server.addr).into_client_request().expect("a request");
    request.headers_mut().insert("Authorization", format!("Bearer {token}").parse().expect("a header"));
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.expect("the WebSocket opens");
    let hello = next_text(&mut socket).await.expect("a hello");
    assert_eq!(hello["reply"], "hello", "{hello}");
    socket
}

/// The next text message; `None` once the server closes.
async fn next_text(socket: &mut Socket) -> Option<Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(30), socket.next()).await.expect("a message within 30 s") {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(&t).expect("JSON")),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => continue,
        }
    }
}

/// Sends a request and waits for its answer, skipping pushes.
async fn ask(socket: &mut Socket, mut request: Value) -> Value {
    request["id"] = json!("q");
    socket.send(Message::Text(request.to_string().into())).await.expect("sent");
    loop {
        let m = next_text(socket).await.expect("an answer before the socket closes");
        if m["id"] == "q" {
            return m;
        }
    }
}

/// The close code the server ends the socket with, skipping pushes.
async fn close_code(socket: &mut Socket) -> Option<u16> {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), socket.next()).await.expect("closed within 10 s") {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
            None | Some(Err(_)) => return None,
            Some(Ok(_)) => continue,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_administrators_moderate_and_every_action_is_audited() {
    for db in databases("only_administrators_moderate_and_every_action_is_audited") {
        administrators(db).await;
    }
}

async fn administrators(db: Db) {
    let server = TestServer::start(db).await;
    let boss = server.account("Boss").await;
    let pat = server.account("pat").await;
    // Nobody is an administrator until `--admin` names one.
    let (status, body) = server.http("GET", "/api/admin/audit", Some(&boss), None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("admin/not-admin")), "{body}");

    // `--admin boss later`: boss exists (names ignore case), later signs up after the start.
    let named = AdminServer::start(&server, &["boss", "later"]).await;
    let (status, body) = named.http.http("POST", "/api/signup", None, Some(&json!({"name": "later", "password": "a long password"}))).await;
    assert_eq!(status, 201, "{body}");
    let later = body["token"].as_str().expect("a token").to_string();
    assert_eq!(server.http("GET", "/api/admin/audit", Some(&later), None).await.0, 200, "later is an administrator");

    // Others are refused, with or without an account.
    let ban_pat = json!({"account": "pat", "reason": "spam in the chat"});
    for (method, path, body) in [
        ("GET", "/api/admin/audit", None),
        ("GET", "/api/admin/reports", None),
        ("POST", "/api/admin/bans", Some(&ban_pat)),
        ("DELETE", "/api/admin/bans/boss", Some(&json!({"reason": "x"}))),
        ("POST", "/api/admin/admins", Some(&json!({"account": "pat", "reason": "x"}))),
        ("POST", "/api/admin/reports/1/close", Some(&json!({"reason": "x"}))),
    ] {
        let (status, reply) = server.http(method, path, Some(&pat), body).await;
        assert_eq!((status, reply["error"]["code"].as_str()), (403, Some("admin/not-admin")), "{method} {path}: {reply}");
        let (status, reply) = server.http(method, path, None, body).await;
        assert_eq!((status, reply["error"]["code"].as_str()), (401, Some("auth/required")), "{method} {path}: {reply}");
    }

    // A ban, and what a ban may not do.
    let (status, body) = server.http("POST", "/api/admin/bans", Some(&boss), Some(&ban_pat)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["audit"]["action"], "ban");
    assert_eq!(body["audit"]["account"], "pat");
    for (request, status, code) in [
        (json!({"account": "boss", "reason": "x"}), 409, "admin/cannot-ban-self"),
        (json!({"account": "later", "reason": "x"}), 409, "admin/cannot-ban-admin"),
        (json!({"account": "pat", "reason": "x"}), 409, "admin/already-banned"),
        (json!({"account": "nobody", "reason": "x"}), 404, "auth/unknown-account"),
        (json!({"account": "pat", "reason": "  "}), 400, "admin/empty-reason"),
        (json!({"account": "pat", "reason": "x".repeat(1001)}), 400, "admin/reason-too-long"),
        (json!({"account": "pat"}), 400, "request/bad-json"),
        (json!({"account": "pat", "reason": "x", "days": 3}), 400, "request/bad-json"),
    ] {
        let (got, reply) = server.http("POST", "/api/admin/bans", Some(&boss), Some(&request)).await;
        assert_eq!((got, reply["error"]["code"].as_str()), (status, Some(code)), "{request}: {reply}");
    }
    let unban = json!({"reason": "appealed; first offence"});
    let (status, body) = server.http("DELETE", "/api/admin/bans/pat", Some(&boss), Some(&unban)).await;
    assert_eq!((status, body["audit"]["action"].as_str()), (200, Some("unban")), "{body}");
    let (status, body) = server.http("DELETE", "/api/admin/bans/pat", Some(&boss), Some(&unban)).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("admin/not-banned")), "{body}");

    // A report, closed.
    let (_, signed_in) = sign_in(&server, "pat").await;
    let pat = signed_in["token"].as_str().expect("pat signs in again").to_string();
    let game = server.create(&boss, json!({"ruleset": "classic", "seats": {"russia": {"kind": "me"}}, "public": true})).await;
    let (status, body) =
        server.http("POST", &format!("/api/games/{game}/reports"), Some(&pat), Some(&json!({"reason": "the host stalls"}))).await;
    assert_eq!(status, 201, "{body}");
    let (_, listed) = server.http("GET", "/api/admin/reports", Some(&boss), None).await;
    let n = listed["reports"][0]["n"].as_i64().expect("the report is listed");
    let close = json!({"reason": "the game has not started: nothing to stall"});
    let (status, body) = server.http("POST", &format!("/api/admin/reports/{n}/close"), Some(&later), Some(&close)).await;
    assert_eq!((status, body["audit"]["report"].as_i64()), (200, Some(n)), "{body}");

    // Administrators made and unmade by an administrator.
    let (status, body) =
        server.http("POST", "/api/admin/admins", Some(&boss), Some(&json!({"account": "pat", "reason": "a helper"}))).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = server.http("DELETE", "/api/admin/admins/boss", Some(&boss), Some(&json!({"reason": "x"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("admin/cannot-revoke-self")), "{body}");
    let (status, body) = server.http("DELETE", "/api/admin/admins/pat", Some(&boss), Some(&json!({"reason": "helped enough"}))).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.http("DELETE", "/api/admin/admins/pat", Some(&boss), Some(&json!({"reason": "again"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("admin/was-not-admin")), "{body}");

    // A second start with the same names grants nothing again.
    named.stop().await;
    AdminServer::start(&server, &["boss", "later"]).await.stop().await;

    // Every action, in order, with who, what and why.
    let (status, log) = server.http("GET", "/api/admin/audit", Some(&boss), None).await;
    assert_eq!(status, 200, "{log}");
    let entries = log["entries"].as_array().expect("entries");
    let seen: Vec<(i64, Value, &str, Value, &str)> = entries
        .iter()
        .map(|e| {
            let target = if e["action"] == "close-report" { e["report"].clone() } else { e["account"].clone() };
            (
                e["n"].as_i64().expect("n"),
                e["by"].clone(),
                e["action"].as_str().expect("action"),
                target,
                e["reason"].as_str().expect("reason"),
            )
        })
        .collect();
    let by_server = "named by `warboard serve --admin`";
    assert_eq!(
        seen,
        vec![
            (1, Value::Null, "grant-admin", json!("Boss"), by_server),
            (2, Value::Null, "grant-admin", json!("later"), by_server),
            (3, json!("Boss"), "ban", json!("pat"), "spam in the chat"),
            (4, json!("Boss"), "unban", json!("pat"), "appealed; first offence"),
            (5, json!("later"), "close-report", json!(n), "the game has not started: nothing to stall"),
            (6, json!("Boss"), "grant-admin", json!("pat"), "a helper"),
            (7, json!("Boss"), "revoke-admin", json!("pat"), "helped enough"),
        ],
        "{log}"
    );
    assert!(entries.iter().all(|e| e["at"].as_i64().is_some_and(|at| at > 0)), "{log}");
    let (_, page) = server.http("GET", "/api/admin/audit?after=5", Some(&boss), None).await;
    let ns: Vec<i64> = page["entries"].as_array().expect("entries").iter().filter_map(|e| e["n"].as_i64()).collect();
    assert_eq!(ns, [6, 7], "{page}");
    let (status, body) = server.http("GET", "/api/admin/audit?after=x", Some(&boss), None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("request/bad-field")), "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_banned_account_cannot_sign_in_create_join_act_chat_or_report() {
    for db in databases("a_banned_account_cannot_sign_in_create_join_act_chat_or_report") {
        banned_everywhere(db).await;
    }
}

async fn banned_everywhere(db: Db) {
    let server = TestServer::start(db).await;
    let boss = server.account("boss").await;
    make_admin(&server, "boss").await;
    let host = server.account("host").await;
    let cheater = server.account("cheater").await;
    let playing = server.create(&host, json!({"ruleset": "classic", "seats": seats_with_russia("cheater"), "public": true})).await;
    let open = server.create(&host, json!({"ruleset": "classic", "seats": {"germany": {"kind": "me"}}, "public": true})).await;

    // Sockets opened before the ban; one acts while it may.
    let mut acting = socket(&server, &playing, &cheater).await;
    let mut chatting = socket(&server, &playing, &cheater).await;
    let mut undoing = socket(&server, &playing, &cheater).await;
    let r = ask(&mut acting, json!({"cmd": "apply", "action": {"type": "end_phase"}})).await;
    assert_eq!(r["reply"], "ok", "{r}");

    // Banned as another server on the database would ban it (no word
    // reaches this server's sockets but the database's).
    let (boss_id, cheater_id) = (account_id(&server, "boss").await, account_id(&server, "cheater").await);
    server.store.ban(&boss_id, &cheater_id, "cheating", now()).await.expect("banned").expect("not banned before");
    let r = ask(&mut acting, json!({"cmd": "apply", "action": {"type": "end_phase"}})).await;
    assert_eq!(r["code"], "auth/banned", "{r}");
    assert_eq!(close_code(&mut acting).await, Some(1008), "the socket closes after the refusal");
    let r = ask(&mut chatting, json!({"cmd": "chat", "text": "you all cheat"})).await;
    assert_eq!(r["code"], "auth/banned", "{r}");
    let r = ask(&mut undoing, json!({"cmd": "undo"})).await;
    assert_eq!(r["code"], "auth/banned", "{r}");
    assert_eq!(ask(&mut socket(&server, &playing, &host).await, json!({"cmd": "state"})).await["result"]["seq"], 1, "nothing was taken");

    // Over HTTP: no sign-in, and the sessions and tokens ended with the ban.
    let (status, body) = sign_in(&server, "cheater").await;
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("auth/banned")), "{body}");
    let create = json!({"ruleset": "classic", "seats": {"russia": {"kind": "me"}}});
    for (method, path, body) in [
        ("POST", "/api/games".to_string(), Some(&create)),
        ("POST", format!("/api/games/{open}/seats/russia"), None),
        ("POST", format!("/api/games/{playing}/reports"), Some(&json!({"reason": "x"}))),
        ("POST", format!("/api/games/{playing}/vacation"), Some(&json!({"days": 1}))),
        ("POST", "/api/tokens".to_string(), Some(&json!({}))),
        ("GET", format!("/api/games/{playing}/ws"), None),
    ] {
        let (status, reply) = server.http(method, &path, Some(&cheater), body).await;
        assert_eq!((status, reply["error"]["code"].as_str()), (401, Some("auth/required")), "{method} {path}: {reply}");
    }
    // Nor is it seated by someone else.
    let (status, body) =
        server.http("POST", "/api/games", Some(&host), Some(&json!({"ruleset": "classic", "seats": seats_with_russia("cheater")}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("auth/account-banned")), "{body}");

    // Unbanned, it signs in and plays again.
    let (status, body) = server.http("DELETE", "/api/admin/bans/cheater", Some(&boss), Some(&json!({"reason": "served a week"}))).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = sign_in(&server, "cheater").await;
    assert_eq!(status, 200, "{body}");
    let cheater = body["token"].as_str().expect("a token").to_string();
    let (status, body) = server.http("POST", &format!("/api/games/{open}/seats/russia"), Some(&cheater), None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.http("POST", "/api/games", Some(&cheater), Some(&create)).await;
    assert_eq!(status, 201, "{body}");
    let mut again = socket(&server, &playing, &cheater).await;
    let r = ask(&mut again, json!({"cmd": "apply", "action": {"type": "end_phase"}})).await;
    assert_eq!(r["reply"], "ok", "{r}");
    let r = ask(&mut again, json!({"cmd": "chat", "text": "sorry"})).await;
    assert_eq!(r["reply"], "ok", "{r}");

    // Banned through this server, its open socket closes at once.
    let (status, body) = server.http("POST", "/api/admin/bans", Some(&boss), Some(&json!({"account": "cheater", "reason": "again"}))).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(close_code(&mut again).await, Some(1008), "closed without a word from the client");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_are_checked_limited_listed_and_closed() {
    for db in databases("reports_are_checked_limited_listed_and_closed") {
        reports(db).await;
    }
}

async fn reports(db: Db) {
    let server = TestServer::start(db).await;
    let boss = server.account("boss").await;
    make_admin(&server, "boss").await;
    let host = server.account("host").await;
    let player = server.account("player").await;
    let mut games = Vec::new();
    for _ in 0..6 {
        games.push(server.create(&host, json!({"ruleset": "classic", "seats": {"russia": {"kind": "me"}}, "public": true})).await);
    }
    let private = server.create(&host, json!({"ruleset": "classic", "seats": {"russia": {"kind": "me"}}, "public": false})).await;
    let report = |game: &str| format!("/api/games/{game}/reports");

    for (path, request, status, code) in [
        (report(&games[0]), json!({"reason": " \n "}), 400, "report/empty-reason"),
        (report(&games[0]), json!({"reason": "x".repeat(1001)}), 400, "report/reason-too-long"),
        (report(&games[0]), json!({"reason": "bell\u{7}"}), 400, "report/bad-reason"),
        (report(&games[0]), json!({}), 400, "request/bad-json"),
        (report("nope"), json!({"reason": "x"}), 404, "game/unknown"),
        // A private game is unknown to those who do not play it.
        (report(&private), json!({"reason": "x"}), 404, "game/unknown"),
    ] {
        let (got, reply) = server.http("POST", &path, Some(&player), Some(&request)).await;
        assert_eq!((got, reply["error"]["code"].as_str()), (status, Some(code)), "{path} {request}: {reply}");
    }
    let (status, body) = server.http("POST", &report(&games[0]), None, Some(&json!({"reason": "x"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("auth/required")), "{body}");

    // One open report a game; the reason is kept trimmed, up to 1000 characters.
    let long = "ü".repeat(1000);
    let (status, body) = server.http("POST", &report(&games[0]), Some(&player), Some(&json!({"reason": format!("  {long} ")}))).await;
    assert_eq!((status, body["report"]["reason"].as_str()), (201, Some(long.as_str())), "{body}");
    let (status, body) = server.http("POST", &report(&games[0]), Some(&player), Some(&json!({"reason": "again"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("report/duplicate")), "{body}");
    // The game's host may report it too (its own open report).
    let (status, body) = server.http("POST", &report(&private), Some(&host), Some(&json!({"reason": "testing the button"}))).await;
    assert_eq!(status, 201, "{body}");

    // The open reports, oldest first; closing one lets its reporter report the game again.
    let (_, listed) = server.http("GET", "/api/admin/reports", Some(&boss), None).await;
    let open = listed["reports"].as_array().expect("reports").clone();
    assert_eq!(open.len(), 2, "{listed}");
    assert_eq!((open[0]["by"].as_str(), open[0]["game"].as_str()), (Some("player"), Some(games[0].as_str())), "{listed}");
    assert_eq!((open[1]["by"].as_str(), open[1]["game"].as_str()), (Some("host"), Some(private.as_str())), "{listed}");
    let first = open[0]["n"].as_i64().expect("n");
    let close = json!({"reason": "looked: fine"});
    let (status, body) = server.http("POST", &format!("/api/admin/reports/{first}/close"), Some(&boss), Some(&close)).await;
    assert_eq!(status, 200, "{body}");
    for (path, status, code) in [
        (format!("/api/admin/reports/{first}/close"), 409, "report/closed"),
        ("/api/admin/reports/999/close".to_string(), 404, "report/unknown"),
        ("/api/admin/reports/x/close".to_string(), 404, "report/unknown"),
    ] {
        let (got, reply) = server.http("POST", &path, Some(&boss), Some(&close)).await;
        assert_eq!((got, reply["error"]["code"].as_str()), (status, Some(code)), "{path}: {reply}");
    }
    let (status, body) =
        server.http("POST", &format!("/api/admin/reports/{}/close", open[1]["n"]), Some(&boss), Some(&json!({"reason": ""}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("admin/empty-reason")), "{body}");
    let (_, listed) = server.http("GET", "/api/admin/reports", Some(&boss), None).await;
    assert_eq!(listed["reports"].as_array().map(Vec::len), Some(1), "the closed one is gone: {listed}");
    let (_, listed) = server.http("GET", &format!("/api/admin/reports?after={}", open[1]["n"]), Some(&boss), None).await;
    assert_eq!(listed["reports"].as_array().map(Vec::len), Some(0), "{listed}");

    // Five reports an hour, closed ones counted.
    for game in &games[0..4] {
        let (status, body) = server.http("POST", &report(game), Some(&player), Some(&json!({"reason": "stalling"}))).await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = server.http("POST", &report(&games[5]), Some(&player), Some(&json!({"reason": "stalling"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("report/too-many")), "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_refuses_to_change_the_audit_log() {
    for db in databases("the_database_refuses_to_change_the_audit_log") {
        append_only(db).await;
    }
}

async fn append_only(db: Db) {
    let server = TestServer::start(db).await;
    server.account("boss").await;
    make_admin(&server, "boss").await;
    let pool = server.store.pool();
    let mut refused =
        vec!["UPDATE audit_log SET reason = 'nothing happened'", "DELETE FROM audit_log", "UPDATE audit_log SET n = n + 1 WHERE n = 1"];
    if server.store.backend() == Backend::Postgres {
        refused.push("TRUNCATE audit_log");
    }
    for sql in refused {
        let error = sqlx::query(sql).execute(pool).await.expect_err(sql).to_string();
        assert!(error.contains("append-only"), "{sql}: {error}");
    }
    let rows: Vec<(i64, String)> = sqlx::query_as("SELECT n, reason FROM audit_log").fetch_all(pool).await.expect("read");
    assert_eq!(rows, [(1, "test".to_string())]);
    server.stop().await;
}
