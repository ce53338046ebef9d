//! Correspondence games (issue 31, point 1), driven by an injected clock:
//! a time per move chosen at creation, reminders at half and nine tenths of
//! it, vacation that moves the deadline, and what happens when it runs out:
//! the opponent claims the win in a game of one account against another,
//! the computer takes the seats in a team game until their player reclaims
//! them. Each event happens once, however often (and on however many
//! servers) the sweeper runs.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::smtp::{SmtpSink, WAIT};
use common::{databases, Db, TestServer, Ws};
use serde_json::{json, Value};
use warboard_record::{Origin, Record};
use warboard_server::clock::ManualClock;
use warboard_server::mail::MailConfig;

/// 2026-01-01 00:00 UTC: every test's clock starts here.
const T0: i64 = 1_767_225_600_000;
const DAY: i64 = 24 * 60 * 60 * 1000;

fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(T0))
}

fn code(body: &Value) -> Option<&str> {
    body["error"]["code"].as_str()
}

async fn game(server: &TestServer, token: &str, id: &str) -> Value {
    let (status, body) = server.http("GET", &format!("/api/games/{id}"), Some(token), None).await;
    assert_eq!(status, 200, "{body}");
    body["game"].clone()
}

async fn post(server: &TestServer, token: &str, path: String, body: Option<Value>) -> (u16, Value) {
    server.http("POST", &path, Some(token), body.as_ref()).await
}

/// The game's events as (kind, account, power).
async fn events(server: &TestServer, token: &str, id: &str) -> Vec<(String, String, String)> {
    let (status, body) = server.http("GET", &format!("/api/games/{id}/events"), Some(token), None).await;
    assert_eq!(status, 200, "{body}");
    let text = |v: &Value| v.as_str().unwrap_or("").to_string();
    body["events"].as_array().expect("events").iter().map(|e| (text(&e["kind"]), text(&e["account"]), text(&e["power"]))).collect()
}

fn event(kind: &str, account: &str, power: &str) -> (String, String, String) {
    (kind.to_string(), account.to_string(), power.to_string())
}

/// The next `clock` push the connection receives.
async fn clock_push(ws: &mut Ws) -> Value {
    if let Some(i) = ws.pushes.iter().position(|p| p["reply"] == "clock") {
        return ws.pushes.remove(i);
    }
    loop {
        let m = ws.recv().await;
        if m["reply"] == "clock" {
            return m;
        }
        ws.pushes.push(m);
    }
}

/// The Axis ("axis": germany, japan) against the Allies ("allies": russia,
/// uk, usa) in classic, with a time per move of `move_days`: the game
/// starts waiting on russia, the Allies'.
async fn duel(server: &TestServer, move_days: i64, vacation_days: i64) -> (String, String, String) {
    let (axis, allies) = (server.account("axis").await, server.account("allies").await);
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "account", "name": "allies"}, "uk": {"kind": "account", "name": "allies"}, "usa": {"kind": "account", "name": "allies"},
    });
    let body = json!({"ruleset": "classic", "seats": seats, "move_days": move_days, "vacation_days": vacation_days});
    let id = server.create(&axis, body).await;
    (id, axis, allies)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_is_chosen_at_creation_and_checked() {
    for db in databases("a_clock_is_chosen_at_creation_and_checked") {
        creation(db).await;
    }
}

async fn creation(db: Db) {
    let clock = clock();
    let server = TestServer::start_clocked(db, clock.clone(), None).await;
    let (alice, _bob) = (server.account("alice").await, server.account("bob").await);
    let seats = json!({"germany": {"kind": "me"}, "japan": {"kind": "me"}, "russia": {"kind": "account", "name": "bob"}, "uk": {"kind": "account", "name": "bob"}, "usa": {"kind": "account", "name": "bob"}});
    let create = |extra: Value| {
        let mut body = json!({"ruleset": "classic", "seats": seats.clone()});
        for (k, v) in extra.as_object().expect("an object") {
            body[k] = v.clone();
        }
        body
    };
    for bad in
        [json!({"move_days": 4}), json!({"move_days": 0}), json!({"move_days": "3"}), json!({"move_days": 2.5}), json!({"move_days": 15})]
    {
        let (status, body) = server.http("POST", "/api/games", Some(&alice), Some(&create(bad.clone()))).await;
        assert_eq!((status, code(&body)), (400, Some("clock/bad-move-days")), "{bad}: {body}");
    }
    for bad in [json!({"move_days": 3, "vacation_days": 61}), json!({"move_days": 3, "vacation_days": -1}), json!({"vacation_days": 5})] {
        let (status, body) = server.http("POST", "/api/games", Some(&alice), Some(&create(bad.clone()))).await;
        assert_eq!((status, code(&body)), (400, Some("clock/bad-vacation-days")), "{bad}: {body}");
    }
    let (status, body) = server.http("POST", "/api/games", Some(&alice), Some(&create(json!({"move_days": null})))).await;
    assert_eq!((status, code(&body)), (400, Some("request/bad-field")), "{body}");
    let (_, mine) = server.http("GET", "/api/games?filter=mine", Some(&alice), None).await;
    assert_eq!(mine["games"].as_array().map(Vec::len), Some(0), "a refused game is not made: {mine}");

    // Every seat taken: the game starts, waiting on russia (bob's).
    let id = server.create(&alice, create(json!({"move_days": 3, "vacation_days": 5}))).await;
    let g = game(&server, &alice, &id).await;
    let c = &g["clock"];
    assert_eq!((c["move_days"].as_i64(), c["vacation_days"].as_i64()), (Some(3), Some(5)), "{g}");
    assert_eq!(
        c["waiting"],
        json!({"account": "bob", "power": "russia", "started_ms": T0, "deadline_ms": T0 + 3 * DAY, "stage": "running"})
    );
    assert_eq!(c["vacation_left"], json!({"alice": 5, "bob": 5}));
    let russia = g["seats"].as_array().and_then(|s| s.iter().find(|s| s["power"] == "russia")).expect("russia's seat");
    assert_eq!(russia["deadline_ms"].as_i64(), Some(T0 + 3 * DAY), "{russia}");
    let (_, list) = server.http("GET", "/api/games?filter=mine", Some(&alice), None).await;
    assert_eq!(list["games"][0]["clock"]["move_days"].as_i64(), Some(3), "game lists show the clock: {list}");

    // Open seats: the clock waits for the game to start.
    let open = server.create(&alice, json!({"ruleset": "classic", "seats": {"germany": {"kind": "me"}}, "move_days": 1})).await;
    let g = game(&server, &alice, &open).await;
    assert_eq!((g["status"].as_str(), &g["clock"]["waiting"]), (Some("open"), &Value::Null), "{g}");
    assert_eq!(g["clock"]["vacation_days"].as_i64(), Some(0), "no vacation unless asked for: {g}");
    clock.advance(DAY / 4);
    for power in ["japan", "russia", "uk", "usa"] {
        let (status, body) = post(&server, &alice, format!("/api/games/{open}/seats/{power}"), None).await;
        assert_eq!(status, 200, "{body}");
    }
    let g = game(&server, &alice, &open).await;
    assert_eq!(g["clock"]["waiting"]["account"], "alice", "{g}");
    assert_eq!(g["clock"]["waiting"]["deadline_ms"].as_i64(), Some(T0 + DAY / 4 + DAY), "the wait starts with the game: {g}");

    // A game without a clock.
    let plain = server.create(&alice, create(json!({}))).await;
    let g = game(&server, &alice, &plain).await;
    assert_eq!(g["clock"], Value::Null, "{g}");
    for (route, body) in [("vacation", Some(json!({"days": 1}))), ("claim", None), ("reclaim", None)] {
        let (status, reply) = post(&server, &alice, format!("/api/games/{plain}/{route}"), body).await;
        assert_eq!((status, code(&reply)), (409, Some("clock/no-clock")), "{route}: {reply}");
    }
    assert!(events(&server, &alice, &plain).await.is_empty());
    assert_eq!(server.hub.clock_tick().await, 0);
    server.stop().await;
}

fn mail_to(smtp: &SmtpSink) -> Option<MailConfig> {
    Some(MailConfig { smtp_url: smtp.url(), from: "warboard <turns@club.example>".into(), public_url: "https://club.example".into() })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_against_one_reminders_vacation_expiry_and_a_claim() {
    for db in databases("one_against_one_reminders_vacation_expiry_and_a_claim") {
        duel_to_the_claim(db).await;
    }
}

async fn duel_to_the_claim(db: Db) {
    let smtp = SmtpSink::start().await;
    let clock = clock();
    let server = TestServer::start_clocked(db, clock.clone(), mail_to(&smtp)).await;
    let (id, axis, allies) = duel(&server, 1, 3).await;
    let (status, body) = server.http("PUT", "/api/account/mail", Some(&allies), Some(&json!({"email": "allies@club.example"}))).await;
    assert_eq!(status, 200, "{body}");
    let mut watch = server.ws(&id, Some(&axis)).await;
    let g = game(&server, &axis, &id).await;
    assert_eq!(g["clock"]["waiting"]["deadline_ms"].as_i64(), Some(T0 + DAY), "{g}");

    assert_eq!(server.hub.clock_tick().await, 0, "nothing is due at the start");
    clock.set(T0 + DAY / 2 - 1);
    assert_eq!(server.hub.clock_tick().await, 0, "nothing before half the time");
    clock.set(T0 + DAY / 2);
    assert_eq!(server.hub.clock_tick().await, 1, "half the time: a reminder");
    assert_eq!(server.hub.clock_tick().await, 0, "and only one");
    assert_eq!(events(&server, &axis, &id).await, vec![event("reminder_half", "allies", "russia")]);
    let pushed = clock_push(&mut watch).await;
    assert_eq!(
        (pushed["kind"].as_str(), pushed["account"].as_str(), pushed["n"].as_i64()),
        (Some("reminder_half"), Some("allies"), Some(0)),
        "{pushed}"
    );
    assert_eq!(pushed["detail"]["deadline_ms"].as_i64(), Some(T0 + DAY), "{pushed}");

    let (status, body) = post(&server, &axis, format!("/api/games/{id}/claim"), None).await;
    assert_eq!((status, code(&body)), (409, Some("clock/not-expired")), "{body}");

    // Vacation: checked, then added to the wait's deadline and deducted.
    let outsider = server.account("outsider").await;
    let (status, body) = post(&server, &outsider, format!("/api/games/{id}/vacation"), Some(json!({"days": 1}))).await;
    assert_eq!((status, code(&body)), (403, Some("auth/not-a-player")), "{body}");
    for (days, status_code) in [(0, (400, "clock/bad-days")), (61, (400, "clock/bad-days")), (4, (409, "clock/no-vacation-left"))] {
        let (status, body) = post(&server, &allies, format!("/api/games/{id}/vacation"), Some(json!({"days": days}))).await;
        assert_eq!((status, code(&body)), (status_code.0, Some(status_code.1)), "{days} days: {body}");
    }
    let (status, body) = post(&server, &allies, format!("/api/games/{id}/vacation"), Some(json!({"days": 1}))).await;
    assert_eq!(status, 200, "{body}");
    let c = &body["game"]["clock"];
    assert_eq!(c["waiting"]["deadline_ms"].as_i64(), Some(T0 + 2 * DAY), "{c}");
    assert_eq!(c["vacation_left"], json!({"allies": 2, "axis": 3}), "{c}");
    assert_eq!(body["event"]["kind"], "vacation", "{body}");
    assert_eq!(clock_push(&mut watch).await["kind"], "vacation");

    // The wait is now two days long: nine tenths of it is 1.8 days in.
    clock.set(T0 + 2 * DAY / 10 * 9 - 1);
    assert_eq!(server.hub.clock_tick().await, 0);
    clock.set(T0 + 2 * DAY / 10 * 9);
    assert_eq!(server.hub.clock_tick().await, 1, "nine tenths: the second reminder");
    assert_eq!(server.hub.clock_tick().await, 0);
    clock.set(T0 + 2 * DAY - 1);
    assert_eq!(server.hub.clock_tick().await, 0);
    let (status, body) = post(&server, &axis, format!("/api/games/{id}/claim"), None).await;
    assert_eq!((status, code(&body)), (409, Some("clock/not-expired")), "a moment before the deadline: {body}");
    clock.set(T0 + 2 * DAY);
    assert_eq!(server.hub.clock_tick().await, 1, "the deadline: expired");
    clock.advance(DAY);
    assert_eq!(server.hub.clock_tick().await, 0, "an expiry is made once");
    assert_eq!(game(&server, &axis, &id).await["clock"]["waiting"]["stage"], "expired");

    // Only the opponent claims.
    let (status, body) = post(&server, &allies, format!("/api/games/{id}/claim"), None).await;
    assert_eq!((status, code(&body)), (403, Some("clock/not-yours")), "{body}");
    let (status, body) = post(&server, &outsider, format!("/api/games/{id}/claim"), None).await;
    assert_eq!((status, code(&body)), (403, Some("auth/not-a-player")), "{body}");
    let (status, body) = post(&server, &axis, format!("/api/games/{id}/claim"), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["game"]["status"].as_str(), body["game"]["winner"].as_str()), (Some("over"), Some("axis")), "{body}");
    assert_eq!(body["game"]["clock"]["waiting"], Value::Null, "a game over waits on nobody: {body}");
    let (status, again) = post(&server, &axis, format!("/api/games/{id}/claim"), None).await;
    assert_eq!((status, code(&again)), (409, Some("game/over")), "{again}");
    assert_eq!(server.hub.clock_tick().await, 0);
    assert_eq!(
        events(&server, &axis, &id).await,
        vec![
            event("reminder_half", "allies", "russia"),
            event("vacation", "allies", "russia"),
            event("reminder_late", "allies", "russia"),
            event("expired", "allies", "russia"),
            event("claimed", "axis", "russia"),
        ]
    );
    let mut kinds = Vec::new();
    while kinds.last().is_none_or(|k| k != "claimed") {
        kinds.push(clock_push(&mut watch).await["kind"].as_str().unwrap_or("").to_string());
    }
    assert_eq!(kinds, ["reminder_late", "expired", "claimed"]);

    // The claim is an entry of the log: the record replays to the same end.
    let (status, text) = server.http_text("GET", &format!("/api/games/{id}/record"), Some(&axis), None).await;
    assert_eq!(status, 200, "{text}");
    let record = Record::load(&text).unwrap_or_else(|e| panic!("the record replays: {e}"));
    let last = record.log().last().expect("the surrender");
    assert_eq!((last.action.value(), last.by), (json!({"type": "surrender", "side": "allies"}), Origin::Engine));
    assert_eq!(record.state().winner.as_ref().and_then(|w| w.team.as_deref()), Some("axis"));

    // One mail a reminder, to the account whose time it is; none else.
    smtp.wait_for(2, WAIT).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mails = smtp.received();
    let mut subjects: Vec<(String, String)> = mails.iter().map(|m| (m.to.join(","), m.header("Subject").unwrap_or_default())).collect();
    subjects.sort();
    assert_eq!(
        subjects,
        vec![
            ("allies@club.example".to_string(), "warboard: half your time is gone (classic, russia)".to_string()),
            ("allies@club.example".to_string(), "warboard: your time is nearly up (classic, russia)".to_string()),
        ]
    );
    assert!(mails.iter().all(|m| m.body().contains(&format!("https://club.example/game/{id}"))));
    server.stop().await;
    smtp.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wait_follows_the_turn_and_banked_vacation_goes_to_the_next_wait() {
    for db in databases("the_wait_follows_the_turn_and_banked_vacation_goes_to_the_next_wait") {
        following(db).await;
    }
}

async fn following(db: Db) {
    let clock = clock();
    let server = TestServer::start_clocked(db, clock.clone(), None).await;
    let (id, axis, allies) = duel(&server, 2, 5).await;
    // Taken while the game waits on the Allies: kept for the Axis's next wait.
    let (status, body) = post(&server, &axis, format!("/api/games/{id}/vacation"), Some(json!({"days": 2}))).await;
    assert_eq!(status, 200, "{body}");
    let c = &body["game"]["clock"];
    assert_eq!((c["waiting"]["deadline_ms"].as_i64(), &c["vacation_banked"]), (Some(T0 + 2 * DAY), &json!({"axis": 2})), "{c}");
    assert_eq!(body["event"]["detail"]["next_wait"], true, "{body}");

    // Russia's turn, ended phase by phase a day in: the game then waits on germany.
    clock.set(T0 + DAY);
    let mut ws = server.ws(&id, Some(&allies)).await;
    for _ in 0..100 {
        let summary = ws.summary().await;
        if summary["actor"] == "germany" {
            break;
        }
        let action = match summary["decision"]["kind"].as_str() {
            Some("phase") => json!({"type": "end_phase"}),
            _ => json!({"type": "continue"}),
        };
        let reply = ws.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{action}: {reply}");
    }
    let g = game(&server, &axis, &id).await;
    let c = &g["clock"];
    let expected =
        json!({"account": "axis", "power": "germany", "started_ms": T0 + DAY, "deadline_ms": T0 + DAY + 4 * DAY, "stage": "running"});
    assert_eq!(c["waiting"], expected, "a new wait with the banked days: {g}");
    assert_eq!((&c["vacation_banked"], &c["vacation_left"]), (&json!({}), &json!({"allies": 5, "axis": 3})), "{g}");
    // The old wait's half point has passed, but it is gone: no reminder.
    assert_eq!(server.hub.clock_tick().await, 0);
    assert!(events(&server, &axis, &id).await.iter().all(|(kind, _, _)| kind == "vacation"));
    clock.set(T0 + DAY + 2 * DAY);
    assert_eq!(server.hub.clock_tick().await, 1);
    assert_eq!(events(&server, &axis, &id).await.last(), Some(&event("reminder_half", "axis", "germany")));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_team_game_the_computer_takes_the_seats_until_their_player_reclaims_them() {
    for db in databases("in_a_team_game_the_computer_takes_the_seats_until_their_player_reclaims_them") {
        team_game(db).await;
    }
}

async fn team_game(db: Db) {
    let clock = clock();
    let server = TestServer::start_clocked(db, clock.clone(), None).await;
    let (a, b, c) = (server.account("anna").await, server.account("boris").await, server.account("carl").await);
    let seats = json!({
        "russia": {"kind": "account", "name": "anna"}, "uk": {"kind": "account", "name": "anna"}, "usa": {"kind": "me"},
        "germany": {"kind": "account", "name": "boris"}, "japan": {"kind": "account", "name": "boris"},
    });
    let id = server.create(&c, json!({"ruleset": "classic", "seats": seats, "move_days": 2, "public": false})).await;
    let mut watch = server.ws(&id, Some(&c)).await;
    let (status, body) = post(&server, &a, format!("/api/games/{id}/reclaim"), None).await;
    assert_eq!((status, code(&body)), (409, Some("clock/not-taken-over")), "{body}");

    clock.set(T0 + 2 * DAY);
    assert_eq!(server.hub.clock_tick().await, 2, "expired, and taken over");
    assert_eq!(server.hub.clock_tick().await, 0);
    assert_eq!(events(&server, &a, &id).await, vec![event("expired", "anna", "russia"), event("taken_over", "anna", "russia")]);
    assert_eq!(clock_push(&mut watch).await["kind"], "expired");
    let taken = clock_push(&mut watch).await;
    assert_eq!((taken["kind"].as_str(), &taken["detail"]["powers"]), (Some("taken_over"), &json!(["russia", "uk"])), "{taken}");

    // The computer plays russia until the game waits on a person.
    let mut g = game(&server, &a, &id).await;
    for _ in 0..600 {
        // The wait follows the commit a moment later (after the answer).
        let moved_on = g["seq"].as_i64() > Some(0) && !["russia", "uk"].contains(&g["actor"].as_str().unwrap_or(""));
        if moved_on && g["clock"]["waiting"]["account"] == "boris" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        g = game(&server, &a, &id).await;
    }
    let seat =
        |g: &Value, power: &str| g["seats"].as_array().and_then(|s| s.iter().find(|s| s["power"] == power)).cloned().expect("a seat");
    for power in ["russia", "uk"] {
        let s = seat(&g, power);
        assert_eq!((s["kind"].as_str(), s["account"].as_str(), s["taken_from"].as_str()), (Some("computer"), None, Some("anna")), "{s}");
    }
    assert_eq!(g["clock"]["taken_over"].as_array().map(Vec::len), Some(2), "{g}");
    // A private game stays hers to find while she holds no seat in it.
    let (_, mine) = server.http("GET", "/api/games?filter=mine", Some(&a), None).await;
    assert!(mine["games"].as_array().is_some_and(|g| g.iter().any(|g| g["id"] == id.as_str())), "{mine}");
    let actor = g["actor"].as_str().expect("someone acts").to_string();
    assert!(["germany", "japan"].contains(&actor.as_str()), "the computer played russia's turn through: {g}");
    assert_eq!(g["clock"]["waiting"]["account"], "boris", "the game waits on the Axis's player now: {g}");
    let log = watch.request(json!({"cmd": "sync", "from": 0})).await;
    let entries = log["result"]["entries"].as_array().cloned().unwrap_or_default();
    assert!(entries.iter().any(|e| e["by"] == "computer" && e["power"] == "russia"), "{log}");

    // Only anna reclaims, and a team game is not won by a claim.
    let (status, body) = post(&server, &c, format!("/api/games/{id}/reclaim"), None).await;
    assert_eq!((status, code(&body)), (403, Some("clock/not-yours")), "{body}");
    let (status, body) = post(&server, &b, format!("/api/games/{id}/claim"), None).await;
    assert_eq!((status, code(&body)), (409, Some("clock/team-game")), "{body}");
    let (status, body) = post(&server, &a, format!("/api/games/{id}/reclaim"), None).await;
    assert_eq!(status, 200, "{body}");
    let g = &body["game"];
    for power in ["russia", "uk"] {
        let s = seat(g, power);
        assert_eq!((s["kind"].as_str(), s["account"].as_str(), &s["taken_from"]), (Some("account"), Some("anna"), &Value::Null), "{s}");
    }
    assert_eq!(g["clock"]["taken_over"], json!([]), "{g}");
    assert_eq!(g["clock"]["waiting"]["account"], "boris", "{g}");
    let (status, body) = post(&server, &a, format!("/api/games/{id}/reclaim"), None).await;
    assert_eq!((status, code(&body)), (409, Some("clock/not-taken-over")), "{body}");
    assert_eq!(server.hub.clock_tick().await, 0);
    assert_eq!(
        events(&server, &a, &id).await,
        vec![event("expired", "anna", "russia"), event("taken_over", "anna", "russia"), event("reclaimed", "anna", "")]
    );
    assert_eq!(clock_push(&mut watch).await["kind"], "reclaimed");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_sweeping_one_database_make_each_event_once() {
    for db in databases("two_servers_sweeping_one_database_make_each_event_once") {
        two_sweepers(db).await;
    }
}

async fn two_sweepers(db: Db) {
    let clock = clock();
    let one = TestServer::start_clocked(db, clock.clone(), None).await;
    let two = one.beside_clocked(clock.clone(), None).await;
    let (id, axis, _allies) = duel(&one, 1, 0).await;
    let mut watch = two.ws(&id, Some(&axis)).await;
    watch.pushes.clear();
    for (at, kind) in [(T0 + DAY / 2, "reminder_half"), (T0 + DAY / 10 * 9, "reminder_late"), (T0 + DAY, "expired")] {
        clock.set(at);
        let mut made = 0;
        for _ in 0..3 {
            let (a, b) = tokio::join!(one.hub.clock_tick(), two.hub.clock_tick());
            made += a + b;
        }
        assert_eq!(made, 1, "{kind}: one event between both servers");
        assert_eq!(events(&one, &axis, &id).await.last().map(|e| e.0.clone()), Some(kind.to_string()));
        // On PostgreSQL every server hears of it, and pushes it once; SQLite
        // is one server's database, and two share it here only to race.
        if db == Db::Postgres {
            assert_eq!(clock_push(&mut watch).await["kind"], kind);
        }
    }
    assert_eq!(events(&two, &axis, &id).await.len(), 3);
    two.stop().await;
    one.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_battle_decision_out_of_time_takes_the_battles_default() {
    for db in databases("a_battle_decision_out_of_time_takes_the_battles_default") {
        battle_expiry(db).await;
    }
}

/// Russia attacks Ukraine round by round; Germany's player, with no
/// standing orders, lets its casualty decision run out of time: the
/// server takes the battle's default for it, recorded as the engine's, and
/// the battle goes on; nothing is claimed.
async fn battle_expiry(db: Db) {
    let clock = clock();
    let server = TestServer::start_clocked(db, clock.clone(), None).await;
    let (id, axis, allies) = duel(&server, 1, 0).await;
    let mut rus = server.ws(&id, Some(&allies)).await;
    for action in warboard_record::testing::attack_on_ukraine() {
        let reply = rus.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{action}: {reply}");
    }
    // Fight until Germany must choose casualties (some seed's round may miss).
    let mut waited_on_germany = false;
    for _ in 0..20 {
        let summary = rus.summary().await;
        if summary["actor"] == "germany" && summary["decision"]["kind"] == "casualties" {
            waited_on_germany = true;
            break;
        }
        let action = match summary["decision"]["kind"].as_str() {
            Some("casualties") | Some("press_or_retreat") | Some("retreat") => common::decide(&mut rus, &summary["decision"]).await,
            _ => json!({"type": "battle", "at": "UKR"}),
        };
        let reply = rus.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{action}: {reply}");
    }
    assert!(waited_on_germany, "the battle came to Germany's casualties");
    let count = game(&server, &axis, &id).await["seq"].as_i64().unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    clock.advance(DAY + 1);
    assert!(server.hub.clock_tick().await >= 1);
    let g = game(&server, &axis, &id).await;
    assert_eq!(g["seq"].as_i64(), Some(count + 1), "the default was taken: {g}");
    assert_ne!(g["actor"], "germany", "the game went on: {g}");
    assert!(events(&server, &axis, &id).await.contains(&event("expired", "axis", "germany")));
    let log = rus.request(json!({"cmd": "sync", "from": count})).await;
    let last = &log["result"]["entries"][0];
    assert_eq!((last["power"].as_str(), last["by"].as_str(), last["action"]["type"].as_str()), (Some("germany"), Some("computer"), Some("casualties")), "{log}");
    let (status, body) = post(&server, &allies, format!("/api/games/{id}/claim"), None).await;
    assert_eq!((status, code(&body)), (409, Some("clock/not-expired")), "a battle's decision is no turn to claim: {body}");
    server.stop().await;
}
