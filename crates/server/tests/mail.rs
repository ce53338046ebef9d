//! "Your turn" mail, over real SMTP to a mail server on loopback: one mail
//! per change of turn to the account that now holds the turn, none where
//! the same account held the turn before, none to an account that opted
//! out (by its settings or by the link in a mail), and a mail server that
//! is down changes nothing in the game.

mod common;

use std::time::Duration;

use common::smtp::{dead_port, Received, SmtpSink, WAIT};
use common::{databases, Db, TestServer, Ws};
use serde_json::{json, Value};
use warboard_server::mail::MailConfig;

const PUBLIC_URL: &str = "https://club.example";

fn mail_to(smtp_url: String) -> Option<MailConfig> {
    Some(MailConfig { smtp_url, from: "warboard <turns@club.example>".into(), public_url: format!("{PUBLIC_URL}/") })
}

/// Two accounts at one classic game, the Axis's and the Allies'.
struct Game {
    id: String,
    axis: String,
    seats: Vec<(Vec<&'static str>, Ws)>,
}

impl Game {
    async fn start(server: &TestServer) -> Game {
        Game::start_on(server, server).await
    }

    /// The Allies' seat plays through `other` (a second server on the
    /// same database, or the same one).
    async fn start_on(server: &TestServer, other: &TestServer) -> Game {
        let (axis, allies) = (server.account("axis").await, server.account("allies").await);
        for (token, address) in [(&axis, "axis@club.example"), (&allies, "allies@club.example")] {
            let (status, body) = server.http("PUT", "/api/account/mail", Some(token), Some(&json!({"email": address}))).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(body, json!({"email": address, "turn_mail": true, "sending": true}));
        }
        let seats = json!({
            "germany": {"kind": "me"}, "japan": {"kind": "me"},
            "russia": {"kind": "account", "name": "allies"}, "uk": {"kind": "account", "name": "allies"}, "usa": {"kind": "account", "name": "allies"},
        });
        let id = server.create(&axis, json!({"ruleset": "classic", "seats": seats})).await;
        let seats = vec![
            (vec!["germany", "japan"], server.ws(&id, Some(&axis)).await),
            (vec!["russia", "uk", "usa"], other.ws(&id, Some(&allies)).await),
        ];
        Game { id, axis, seats }
    }

    /// Ends phases (and fights whatever battle comes up) until the game is
    /// at `power`'s turn in `round`.
    async fn play_until(&mut self, round: u64, power: &str) {
        for _ in 0..500 {
            let summary = self.seats[0].1.summary().await;
            if summary["round"] == round && summary["turn"] == power {
                return;
            }
            let actor = summary["actor"].as_str().expect("someone acts").to_string();
            let ws = &mut self.seats.iter_mut().find(|(powers, _)| powers.contains(&actor.as_str())).expect("a seat holds the actor").1;
            let action = match (summary["decision"]["kind"].as_str(), summary["phase"].as_str()) {
                (Some("phase"), _) => json!({"type": "end_phase"}),
                (Some("casualties"), _) => {
                    let legal = ws.request(json!({"cmd": "legal"})).await;
                    let item = legal["result"]["items"]
                        .as_array()
                        .and_then(|i| i.iter().find(|i| i["type"] == "casualties"))
                        .cloned()
                        .expect("casualties");
                    json!({"type": "casualties", "units": item["default"]})
                }
                _ => json!({"type": "continue"}),
            };
            let reply = ws.apply(action.clone()).await;
            assert_eq!(reply["reply"], "ok", "{actor}: {action} → {reply}");
            // Both seats see the entry before the next summary is read (on
            // two servers, the other must have caught up first).
            let seq = reply["result"]["seq"].as_i64().expect("seq");
            for (_, ws) in &mut self.seats {
                ws.wait_for_seq(seq).await;
            }
        }
        panic!("round {round}, {power}'s turn was never reached");
    }
}

/// (recipient, subject) of each mail, sorted: mails are sent on their own
/// tasks, so two close together may arrive either way round.
fn sent(mails: &[Received]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = mails.iter().map(|m| (m.to.join(","), m.header("Subject").unwrap_or_default())).collect();
    out.sort();
    out
}

fn turn(to: &str, round: u32, power: &str) -> (String, String) {
    (to.to_string(), format!("warboard: your turn (classic, round {round}, {power})"))
}

/// Waits for exactly `n` mails in all: `n` come, and no more follow.
async fn exactly(smtp: &SmtpSink, n: usize) -> Vec<Received> {
    smtp.wait_for(n, WAIT).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let all = smtp.received();
    assert_eq!(all.len(), n, "{:#?}", sent(&all));
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_mail_per_change_of_turn_to_the_player_whose_turn_it_is() {
    for db in databases("one_mail_per_change_of_turn_to_the_player_whose_turn_it_is") {
        one_per_turn(db).await;
    }
}

async fn one_per_turn(db: Db) {
    let smtp = SmtpSink::start().await;
    let server = TestServer::start_with(db, mail_to(smtp.url())).await;
    let mut game = Game::start(&server).await;
    // Classic's order is russia, germany, uk, japan, usa: the turn changes
    // hands at every change but usa → russia (both the Allies').
    game.play_until(2, "germany").await;
    let mails = exactly(&smtp, 5).await;
    let (a, b) = ("axis@club.example", "allies@club.example");
    let mut expected = vec![turn(a, 1, "germany"), turn(b, 1, "uk"), turn(a, 1, "japan"), turn(b, 1, "usa"), turn(a, 2, "germany")];
    expected.sort();
    assert_eq!(sent(&mails), expected);
    for m in &mails {
        assert_eq!(m.from, "turns@club.example");
        let body = m.body();
        assert!(body.contains(&format!("{PUBLIC_URL}/game/{}", game.id)), "the game's link: {body}");
        let unsubscribe = m.header("List-Unsubscribe").expect("a List-Unsubscribe header");
        let link = unsubscribe.trim_start_matches('<').trim_end_matches('>');
        assert!(link.starts_with(&format!("{PUBLIC_URL}/api/mail/unsubscribe?token=")), "{unsubscribe}");
        assert!(body.contains(link), "the body says how to stop: {body}");
    }
    server.stop().await;
    smtp.stop();
}

/// Two servers on one PostgreSQL database, both sending mail, each seat
/// playing through its own: every entry is committed by one server, and
/// the other only catches up, so each change of turn is mailed once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_database_mail_each_change_of_turn_once() {
    if !databases("two_servers_on_one_database_mail_each_change_of_turn_once").contains(&Db::Postgres) {
        return;
    }
    let smtp = SmtpSink::start().await;
    let one = TestServer::start_with(Db::Postgres, mail_to(smtp.url())).await;
    let two = one.beside_with(mail_to(smtp.url())).await;
    let mut game = Game::start_on(&one, &two).await;
    game.play_until(1, "usa").await;
    let (a, b) = ("axis@club.example", "allies@club.example");
    let mut expected = vec![turn(a, 1, "germany"), turn(b, 1, "uk"), turn(a, 1, "japan"), turn(b, 1, "usa")];
    expected.sort();
    assert_eq!(sent(&exactly(&smtp, 4).await), expected);
    two.stop().await;
    one.stop().await;
    smtp.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_that_opted_out_gets_none_and_the_other_still_does() {
    for db in databases("an_account_that_opted_out_gets_none_and_the_other_still_does") {
        opted_out(db).await;
    }
}

async fn opted_out(db: Db) {
    let smtp = SmtpSink::start().await;
    let server = TestServer::start_with(db, mail_to(smtp.url())).await;
    let mut game = Game::start(&server).await;
    let (a, b) = ("axis@club.example", "allies@club.example");

    // Off by the account's settings: round 1's germany and japan pass unmailed.
    let (status, body) = server.http("PUT", "/api/account/mail", Some(&game.axis), Some(&json!({"turn_mail": false}))).await;
    assert_eq!((status, &body), (200, &json!({"email": a, "turn_mail": false, "sending": true})));
    game.play_until(1, "usa").await;
    assert_eq!(sent(&exactly(&smtp, 2).await), vec![turn(b, 1, "uk"), turn(b, 1, "usa")]);

    // On again, then off by the link in the mail it gets: usa → russia is
    // the Allies' own, russia → germany the Axis's.
    let (status, body) = server.http("PUT", "/api/account/mail", Some(&game.axis), Some(&json!({"turn_mail": true}))).await;
    assert_eq!((status, body["turn_mail"].clone()), (200, json!(true)), "{body}");
    game.play_until(2, "germany").await;
    let mails = exactly(&smtp, 3).await;
    let to_axis = mails.iter().find(|m| m.to == [a]).expect("the Axis's mail for round 2");
    assert_eq!(to_axis.header("Subject").as_deref(), Some("warboard: your turn (classic, round 2, germany)"));
    let link = to_axis.header("List-Unsubscribe").expect("the header");
    let path = link.trim_start_matches('<').trim_end_matches('>').strip_prefix(PUBLIC_URL).expect("a link to this server").to_string();
    let (status, text) = server.http_text("GET", &path, None, None).await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("Turn mail is off") && text.contains(a), "{text}");
    let (_, body) = server.http("GET", "/api/account/mail", Some(&game.axis), None).await;
    assert_eq!(body, json!({"email": a, "turn_mail": false, "sending": true}));
    // Following the link again (a mail program's one-click POST) is harmless.
    let (status, _) = server.http_text("POST", &path, None, Some("List-Unsubscribe=One-Click")).await;
    assert_eq!(status, 200);

    // Round 2: germany → uk (the Allies'), → japan (the Axis's, now
    // silent), → usa (the Allies').
    game.play_until(2, "usa").await;
    let mails = exactly(&smtp, 5).await;
    assert_eq!(mails.iter().filter(|m| m.to == [a]).count(), 1, "{:#?}", sent(&mails));
    // The Allies never opted out and heard of each of their turns.
    let to_allies: Vec<(String, String)> = sent(&mails).into_iter().filter(|(to, _)| to == b).collect();
    assert_eq!(to_allies, vec![turn(b, 1, "uk"), turn(b, 1, "usa"), turn(b, 2, "uk"), turn(b, 2, "usa")]);
    server.stop().await;
    smtp.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_settings_refuse_bad_addresses_and_unknown_links() {
    let smtp = SmtpSink::start().await;
    let server = TestServer::start_with(Db::Sqlite, mail_to(smtp.url())).await;
    let me = server.account("mailer").await;
    let put = |body: Value| {
        let server = &server;
        let me = me.clone();
        async move { server.http("PUT", "/api/account/mail", Some(&me), Some(&body)).await }
    };

    let (status, body) = server.http("GET", "/api/account/mail", Some(&me), None).await;
    assert_eq!((status, body), (200, json!({"email": null, "turn_mail": false, "sending": true})));
    let long = format!("{}@club.example", "x".repeat(250));
    for bad in [
        "no-at.example",
        "two@@club.example",
        "a@b@club.example",
        "space @club.example",
        "tab\t@club.example",
        "@club.example",
        "me@",
        &long,
    ] {
        let (status, body) = put(json!({"email": bad})).await;
        assert_eq!((status, body["error"]["code"].as_str()), (400, Some("mail/bad-address")), "{bad}: {body}");
    }
    let (status, body) = put(json!({"turn_mail": true})).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("mail/no-address")), "{body}");
    let (status, body) = put(json!({"email": "me@club.example", "turn_mail": false})).await;
    assert_eq!((status, body), (200, json!({"email": "me@club.example", "turn_mail": false, "sending": true})));
    let (status, body) = put(json!({"email": "me@club.example", "turn": true})).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("request/bad-json")), "{body}");
    let (status, body) = put(json!({"email": null})).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("request/bad-field")), "{body}");
    let (status, body) = put(json!({"email": ""})).await;
    assert_eq!((status, body), (200, json!({"email": null, "turn_mail": false, "sending": true})));

    let (status, body) = server.http("PUT", "/api/account/mail", None, Some(&json!({"email": "x@club.example"}))).await;
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("auth/required")), "{body}");
    for path in ["/api/mail/unsubscribe?token=0123abcd", "/api/mail/unsubscribe", "/api/mail/unsubscribe?token="] {
        let (status, body) = server.http("GET", path, None, None).await;
        assert_eq!((status, body["error"]["code"].as_str()), (404, Some("mail/unknown-token")), "{path}: {body}");
    }
    server.stop().await;
    assert!(smtp.received().is_empty());
    smtp.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_server_that_is_down_changes_nothing_in_the_game() {
    let down = dead_port().await;
    let server = TestServer::start_with(Db::Sqlite, mail_to(format!("smtp://{down}"))).await;
    let mut game = Game::start(&server).await;
    game.play_until(1, "uk").await;
    let summary = game.seats[1].1.summary().await;
    assert_eq!((summary["turn"].as_str(), summary["actor"].as_str()), (Some("uk"), Some("uk")), "{summary}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_mail_says_so_and_keeps_the_settings() {
    let server = TestServer::start(Db::Sqlite).await;
    let me = server.account("quiet").await;
    let (status, body) = server.http("PUT", "/api/account/mail", Some(&me), Some(&json!({"email": "q@club.example"}))).await;
    assert_eq!((status, body), (200, json!({"email": "q@club.example", "turn_mail": true, "sending": false})));
    server.stop().await;
}
