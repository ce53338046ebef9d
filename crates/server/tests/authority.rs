//! Seat authority, races and reconnection through the server: every kind of
//! action from a seat that does not hold the power is refused with
//! `auth/not-your-power` and changes nothing, in every ruleset; two
//! connections acting on one state get one acceptance; a resend with the
//! same client id is answered, not repeated; a reconnecting client reads
//! exactly what it missed.

mod common;

use common::{databases, Db, TestServer};
use serde_json::{json, Value};

/// Every kind of action a client can send, shaped for the ruleset's map
/// (whether the rules would take it does not matter: the seat is checked
/// first).
fn every_kind(actor: &str, other_team: &str) -> Vec<Value> {
    vec![
        json!({"type": "end_phase"}),
        json!({"type": "end_phase", "power": actor}),
        json!({"type": "purchase", "units": {"infantry": 1}}),
        json!({"type": "research", "dice": 1}),
        json!({"type": "repair", "at": "GER", "count": 1}),
        json!({"type": "move", "units": [{"type": "infantry", "count": 1}], "route": ["GER", "EEU"]}),
        json!({"type": "resolve"}),
        json!({"type": "battle", "at": "GER"}),
        json!({"type": "casualties", "units": []}),
        json!({"type": "continue"}),
        json!({"type": "retreat"}),
        json!({"type": "place", "at": "GER", "units": {"infantry": 1}}),
        json!({"type": "surrender", "side": other_team}),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_acts_only_for_its_own_powers_in_every_ruleset() {
    let server = TestServer::start(Db::Sqlite).await;
    let (holder, intruder, watcher) = (server.account("holder").await, server.account("intruder").await, server.account("watcher").await);
    for ruleset in ["classic", "europe", "anniversary-1941", "anniversary-1942", "alternative"] {
        // The intruder holds one power of the side that does not move
        // first; the holder all the others.
        let rs = warboard_rules::ruleset(ruleset).expect("the ruleset loads");
        let game = warboard_rules::Game::standard(rs.clone());
        let first = match game.actor() {
            warboard_rules::game::Actor::Power(p) => p,
            warboard_rules::game::Actor::Terminal => unreachable!("a new game waits for someone"),
        };
        let first_team = game.state.teams.team_of(first).expect("a team").to_string();
        let other = rs.power_ids().find(|p| game.state.teams.team_of(*p) != Some(first_team.as_str())).expect("a power of the other side");
        let mut seats = serde_json::Map::new();
        for p in rs.power_ids() {
            let spec = if p == other { json!({"kind": "account", "name": "intruder"}) } else { json!({"kind": "me"}) };
            seats.insert(rs.power(p).id.clone(), spec);
        }
        let id = server.create(&holder, json!({"ruleset": ruleset, "seats": seats})).await;
        let mut bad = server.ws(&id, Some(&intruder)).await;
        let mut outsider = server.ws(&id, Some(&watcher)).await;
        let before = bad.request(json!({"cmd": "state", "full": true})).await;
        let actor = rs.power(first).id.clone();
        for action in every_kind(&actor, &first_team) {
            let reply = bad.apply(action.clone()).await;
            assert_eq!(reply["code"], "auth/not-your-power", "{ruleset}: {action} → {reply}");
            let reply = outsider.apply(action.clone()).await;
            assert_eq!(reply["code"], "auth/not-a-player", "{ruleset}: {action} → {reply}");
        }
        // Undo, and the choices of a decision that is not the seat's.
        let undo = bad.request(json!({"cmd": "undo"})).await;
        assert_eq!(undo["reply"], "error", "{ruleset}: {undo}");
        let legal = bad.request(json!({"cmd": "legal"})).await;
        assert_eq!(legal["code"], "auth/not-your-power", "{ruleset}: {legal}");
        let after = bad.request(json!({"cmd": "state", "full": true})).await;
        assert_eq!(after["result"], before["result"], "{ruleset}: nothing changed");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_double_submissions_are_each_accepted_once() {
    for db in databases("a_hundred_double_submissions_are_each_accepted_once") {
        double_submissions(db).await;
    }
}

async fn double_submissions(db: Db) {
    let server = TestServer::start(db).await;
    let me = server.account("hotseat").await;
    let seats: serde_json::Map<String, Value> =
        ["russia", "germany", "uk", "japan", "usa"].iter().map(|p| (p.to_string(), json!({"kind": "me"}))).collect();
    let game = server.create(&me, json!({"ruleset": "classic", "seats": seats})).await;
    let (mut a, mut b) = (server.ws(&game, Some(&me)).await, server.ws(&game, Some(&me)).await);
    for round in 0..100 {
        let seq = a.request(json!({"cmd": "state"})).await["result"]["seq"].as_i64().expect("seq");
        // Both connections send the same step against the same state at once.
        let action = json!({"cmd": "apply", "action": {"type": "end_phase"}, "seq": seq});
        let (ra, rb) = tokio::join!(a.request(action.clone()), b.request(action.clone()));
        let oks = [&ra, &rb].iter().filter(|r| r["reply"] == "ok").count();
        assert_eq!(oks, 1, "round {round}: one acceptance: {ra} {rb}");
        let refused = if ra["reply"] == "ok" { &rb } else { &ra };
        assert_eq!(refused["code"], "game/stale", "round {round}: {refused}");
        let now = a.request(json!({"cmd": "state"})).await["result"]["seq"].as_i64().expect("seq");
        assert_eq!(now, seq + 1, "round {round}: no gap, no duplicate");
    }
    // The same action resent with its client id, from either connection,
    // is answered with the first acceptance and applied once.
    let seq = a.request(json!({"cmd": "state"})).await["result"]["seq"].as_i64().expect("seq");
    let action = json!({"cmd": "apply", "action": {"type": "end_phase"}, "client_id": "resend-1"});
    let first = a.request(action.clone()).await;
    let again = b.request(action.clone()).await;
    assert_eq!((first["result"]["seq"].as_i64(), first["result"]["repeated"].as_bool()), (Some(seq), Some(false)), "{first}");
    assert_eq!((again["result"]["seq"].as_i64(), again["result"]["repeated"].as_bool()), (Some(seq), Some(true)), "{again}");
    let now = a.request(json!({"cmd": "state"})).await["result"]["seq"].as_i64().expect("seq");
    assert_eq!(now, seq + 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnecting_client_reads_exactly_what_it_missed() {
    let server = TestServer::start(Db::Sqlite).await;
    let (axis, allies) = (server.account("axis").await, server.account("allies").await);
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "account", "name": "allies"}, "uk": {"kind": "account", "name": "allies"}, "usa": {"kind": "account", "name": "allies"},
    });
    let game = server.create(&axis, json!({"ruleset": "classic", "seats": seats})).await;
    let mut russia = server.ws(&game, Some(&allies)).await;
    for _ in 0..3 {
        assert_eq!(russia.apply(json!({"type": "end_phase"})).await["reply"], "ok");
    }
    let seen = russia.request(json!({"cmd": "state"})).await["result"]["seq"].as_i64().expect("seq");
    drop(russia);
    // Meanwhile a watcher follows, and Russia plays on from another device.
    let mut again = server.ws(&game, Some(&allies)).await;
    for _ in 0..4 {
        assert_eq!(again.apply(json!({"type": "end_phase"})).await["reply"], "ok");
    }
    let missed = again.request(json!({"cmd": "sync", "from": seen})).await;
    let entries = missed["result"]["entries"].as_array().expect("entries").clone();
    let seqs: Vec<i64> = entries.iter().filter_map(|e| e["seq"].as_i64()).collect();
    assert_eq!(seqs, (seen..seen + 4).collect::<Vec<_>>(), "{missed}");
    assert!(entries.iter().all(|e| e["action"]["type"] == "end_phase" && e["power"] == "russia"));
    // A public game is watched without an account; watching is all it does.
    let mut watcher = server.ws(&game, None).await;
    let all = watcher.request(json!({"cmd": "sync", "from": 0})).await;
    assert_eq!(all["result"]["entries"].as_array().map(Vec::len), Some((seen + 4) as usize));
    assert_eq!(watcher.apply(json!({"type": "end_phase"})).await["code"], "auth/required");
    // A game nobody holds leaves memory and is read again from the log.
    let before = again.request(json!({"cmd": "state", "full": true})).await["result"].clone();
    drop((again, watcher));
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert!(server.hub.sweep() >= 1, "the idle game left memory");
    let mut back = server.ws(&game, Some(&allies)).await;
    assert_eq!(back.request(json!({"cmd": "state", "full": true})).await["result"], before);
    // Russia's turn is over: the seats read again still know whose it is.
    let reply = back.apply(json!({"type": "end_phase"})).await;
    assert_eq!(reply["code"], "auth/not-your-power", "{reply}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_seats_play_on_the_server_and_hand_over() {
    let server = TestServer::start(Db::Sqlite).await;
    let me = server.account("human").await;
    // The computer holds Russia, which moves first, and the other Allies.
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "computer"}, "uk": {"kind": "computer"}, "usa": {"kind": "computer"},
    });
    let game = server.create(&me, json!({"ruleset": "classic", "seats": seats})).await;
    let mut ws = server.ws(&game, Some(&me)).await;
    let mut summary = ws.summary().await;
    for _ in 0..600 {
        if summary["turn"] == "germany" && summary["awaiting"] == "client" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        summary = ws.summary().await;
        // Russia's attacks are Germany's decisions to make.
        if summary["awaiting"] == "client" && summary["decision"]["kind"] != "phase" {
            let legal = ws.request(json!({"cmd": "legal"})).await;
            let item = legal["result"]["items"][0].clone();
            let action = if item["type"] == "casualties" { json!({"type": "casualties", "units": item["default"]}) } else { item };
            assert_eq!(ws.apply(action).await["reply"], "ok");
        }
    }
    assert_eq!(summary["turn"], "germany", "the computer played Russia's turn: {summary}");
    let log = ws.request(json!({"cmd": "sync", "from": 0})).await;
    assert!(log["result"]["entries"].as_array().is_some_and(|e| e.iter().any(|e| e["by"] == "computer" && e["power"] == "russia")), "{log}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_one_clear_error_and_change_nothing() {
    let server = TestServer::start(Db::Sqlite).await;
    let me = server.account("careful").await;
    // Sign-up and sign-in.
    let (status, body) = server.http("POST", "/api/signup", None, Some(&json!({"name": "careful", "password": "another password"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("auth/name-taken")), "{body}");
    let (status, body) = server.http("POST", "/api/signup", None, Some(&json!({"name": "x", "password": "another password"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("auth/bad-name")), "{body}");
    let (status, body) = server.http("POST", "/api/signup", None, Some(&json!({"name": "shorty", "password": "short"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("auth/bad-password")), "{body}");
    let (status, body) = server.http_text("POST", "/api/signup", None, Some(r#"{"name":"twice","name":"again","password":"a long password"}"#)).await;
    assert!(status == 400 && body.contains("request/bad-field"), "{status} {body}");
    let (status, body) = server.http("POST", "/api/signup", None, Some(&json!({"name": "extra", "password": "a long password", "admin": true}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("request/bad-json")), "{body}");
    for _ in 0..5 {
        let (status, _) = server.http("POST", "/api/signin", None, Some(&json!({"name": "careful", "password": "wrong password"}))).await;
        assert_eq!(status, 401);
    }
    let (status, body) = server.http("POST", "/api/signin", None, Some(&json!({"name": "careful", "password": "a long password"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("auth/locked")), "five failures lock the account: {body}");
    let (status, body) = server.http("GET", "/api/me", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("auth/required")));
    let (status, body) = server.http("GET", "/api/me", Some(&me), None).await;
    assert_eq!((status, body["account"]["name"].as_str()), (200, Some("careful")));
    // Games.
    let (status, body) = server.http("POST", "/api/games", Some(&me), Some(&json!({"ruleset": "chess"}))).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = server.http("POST", "/api/games", Some(&me), Some(&json!({"ruleset": "classic", "options": {"no_such_option": true}}))).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = server.http("POST", "/api/games", Some(&me), Some(&json!({"ruleset": "classic", "seats": {"prussia": {"kind": "me"}}}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("start/unknown-power")), "{body}");
    let (status, _) = server.http("GET", "/api/games/nonesuch", Some(&me), None).await;
    assert_eq!(status, 404);
    let game = server.create(&me, json!({"ruleset": "classic", "seats": {"russia": {"kind": "me"}}})).await;
    let (status, body) = server.http("POST", &format!("/api/games/{game}/seats/russia"), Some(&me), None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("game/seat-taken")), "{body}");
    let mut ws = server.ws(&game, Some(&me)).await;
    assert_eq!(ws.apply(json!({"type": "end_phase"})).await["code"], "game/not-started");
    // Messages: not JSON, unknown command, unknown field, a key twice.
    ws.send_text("not json").await;
    assert_eq!(ws.recv().await["code"], "protocol/not-json");
    assert_eq!(ws.request(json!({"cmd": "dance"})).await["code"], "protocol/unknown-command");
    assert_eq!(ws.request(json!({"cmd": "state", "colour": "red"})).await["code"], "protocol/bad-field");
    ws.send_text(r#"{"cmd":"state","cmd":"sync"}"#).await;
    assert_eq!(ws.recv().await["code"], "protocol/bad-field");
    // Routes: an unknown one, a wrong method, a bad query, not a WebSocket.
    let (status, body) = server.http("GET", "/api/nowhere", Some(&me), None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("request/unknown-route")), "{body}");
    let (status, body) = server.http("GET", "/api/signup", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (405, Some("request/wrong-method")), "{body}");
    let (status, body) = server.http("GET", "/api/games?filter=open&sort=new", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("request/bad-field")), "{body}");
    let (status, body) = server.http("GET", "/api/games?filter=everything", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("request/bad-field")), "{body}");
    let (status, body) = server.http("GET", &format!("/api/games/{game}/ws"), Some(&me), None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("request/not-websocket")), "{body}");
    // Signing out ends the session.
    let (status, _) = server.http("POST", "/api/signout", Some(&me), None).await;
    assert_eq!(status, 204);
    let (status, _) = server.http("GET", "/api/me", Some(&me), None).await;
    assert_eq!(status, 401);
    server.stop().await;
}
