//! Correspondence play in a real browser (headless Chromium, as
//! tests/browser.rs): a game created through the page with a time per move
//! and server dice shows its clock and the dice's commitment; standing
//! orders saved through the form are the server's; vacation moves the
//! deadline; when the time runs out the computer takes the seats and the
//! player reclaims them, or, one against one, the opponent claims the win
//! and the seed is revealed; turn mail is set in the lobby's settings. The
//! server's clock is a `ManualClock` the test moves on. Screenshots go to
//! target/screenshots/.

mod common;

use std::sync::Arc;

use common::browser::Browser;
use common::{Db, TestServer};
use serde_json::{json, Value};
use warboard_server::clock::{Clock, ManualClock, SystemClock};

const DAY: i64 = 24 * 60 * 60 * 1000;

fn screenshots() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}

/// A server whose clock starts now and moves only when the test moves it.
async fn server() -> (TestServer, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(SystemClock.now_ms()));
    let server = TestServer::start_clocked(Db::Sqlite, clock.clone(), None).await;
    (server, clock)
}

/// Signs up `name` in the page and waits for the lobby.
async fn sign_up(browser: &mut Browser, server: &TestServer, name: &str) {
    browser.goto(&format!("http://{}/", server.addr)).await;
    browser.fill("#signin-name", name).await;
    browser.fill("#signin-password", "a long password").await;
    browser.click("#signup-submit").await;
    browser.wait_for("document.querySelector('#new-game [data-seat]')", "the lobby").await;
}

/// Creates a classic game through the lobby's form: `seats` as (power,
/// kind, account), a time per move, vacation days and the dice; its id.
async fn create(browser: &mut Browser, seats: &[(&str, &str, &str)], move_days: &str, vacation_days: &str, dice: &str) -> String {
    browser.fill("#create-ruleset", "classic").await;
    browser.wait_for("document.querySelector('[data-seat=\"germany\"]')", "the seats").await;
    for (power, kind, account) in seats {
        browser.fill(&format!("[data-seat=\"{power}\"]"), kind).await;
        if *kind == "account" {
            browser.fill(&format!("[data-account=\"{power}\"]"), account).await;
        }
    }
    browser.fill("#create-move-days", move_days).await;
    browser.fill("#create-vacation-days", vacation_days).await;
    browser.fill("#create-dice", dice).await;
    browser.click("#create-submit").await;
    browser.wait_for("document.querySelector('#game[data-game]') && document.body.dataset.ready === '1' && document.querySelector('#clock-waiting')", "the game page with its clock").await;
    no_error(browser).await;
    browser.eval("document.querySelector('#game').dataset.game").await.as_str().expect("a game id").to_string()
}

/// A GET from the page, with its session: the JSON answer.
async fn get(browser: &mut Browser, path: &str) -> Value {
    browser.eval(&format!("fetch({}).then(r => r.json())", serde_json::to_string(path).expect("a string"))).await
}

async fn no_error(browser: &mut Browser) {
    let error = browser.eval("document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent").await;
    assert_eq!(error, json!(""), "the page shows no refusal");
}

/// The log's clock lines.
async fn clock_lines(browser: &mut Browser) -> Vec<String> {
    let lines = browser.eval("Array.from(document.querySelectorAll('#log li[data-kind=\"clock\"]')).map(li => li.textContent)").await;
    lines.as_array().expect("lines").iter().filter_map(|l| l.as_str().map(String::from)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_in_the_browser() {
    let Some(mut browser) = Browser::start(1400, 1000).await else {
        eprintln!("a_correspondence_game_in_the_browser: skipped: no Chromium on this machine (CI installs Debian's chromium)");
        return;
    };
    let (server, clock) = server().await;
    server.account("dora").await;
    sign_up(&mut browser, &server, "carla").await;

    // Turn mail, in the lobby's settings (the header's link opens them).
    browser.click("#nav-settings").await;
    browser.wait_for("document.querySelector('#settings-panel').open && document.querySelector('#mail-sending').dataset.sending", "the settings").await;
    assert_eq!(browser.eval("document.querySelector('#mail-sending').dataset.sending").await, json!("false"), "this server sends no mail");
    browser.fill("#mail-email", "carla@club.example").await;
    browser.click("#mail-save").await;
    browser.wait_for("document.querySelector('#mail-status').dataset.state === 'saved'", "the address saved").await;
    no_error(&mut browser).await;
    let mail = get(&mut browser, "/api/account/mail").await;
    assert_eq!(mail, json!({"email": "carla@club.example", "turn_mail": true, "sending": false}));
    // Switched off, and a bad address refused with its code.
    browser.click("#mail-on").await;
    browser.click("#mail-save").await;
    browser.wait_for("document.querySelector('#mail-status').dataset.state === 'saved' && !document.querySelector('#mail-on').checked", "turn mail off").await;
    assert_eq!(get(&mut browser, "/api/account/mail").await["turn_mail"], json!(false));
    browser.fill("#mail-email", "not an address").await;
    browser.click("#mail-save").await;
    browser.wait_for("document.querySelector('#error').dataset.code === 'mail/bad-address'", "the refusal").await;
    browser.click("#error .close").await;
    browser.eval("document.querySelector('#settings-panel').scrollIntoView()").await;
    browser.screenshot(&screenshots().join("correspondence-settings.png")).await;
    browser.fill("#create-move-days", "3").await;
    browser.screenshot(&screenshots().join("correspondence-lobby.png")).await;

    // A team game: carla's Soviet Union and dora's United Kingdom against
    // the computer, three days a move, five of vacation, server dice.
    let seats = [("russia", "me", ""), ("uk", "account", "dora"), ("germany", "computer", ""), ("japan", "computer", ""), ("usa", "computer", "")];
    let id = create(&mut browser, &seats, "3", "5", "server").await;
    let game = get(&mut browser, &format!("/api/games/{id}")).await["game"].clone();
    assert_eq!(game["clock"]["move_days"], json!(3), "{game}");
    assert_eq!(game["dice"]["mode"], json!("server"), "{game}");
    let deadline = game["clock"]["waiting"]["deadline_ms"].as_i64().expect("a deadline");
    // The clock: waiting on carla, until the deadline, in local time.
    assert_eq!(browser.eval("document.querySelector('#clock-waiting').dataset.account").await, json!("carla"));
    assert_eq!(browser.eval("document.querySelector('#clock-deadline').dataset.deadline").await, json!(deadline.to_string()));
    let shown = browser.eval("document.querySelector('#clock-deadline').textContent").await;
    assert!(shown.as_str().is_some_and(|s| s.starts_with("Deadline: ") && s.contains("2 d 23 h left")), "{shown}");
    assert_eq!(browser.eval("document.querySelector('#vacation-left').dataset.left").await, json!("5"));
    // The dice: committed, the first 16 hex digits shown.
    let commitment = game["dice"]["commitment"].as_str().expect("a commitment").to_string();
    assert_eq!(commitment.len(), 64);
    let dice = browser.eval("document.querySelector('#dice-commitment').textContent").await;
    assert_eq!(dice, json!(format!("Dice: committed (SHA-256 {}…)", &commitment[..16])));

    // Standing orders for the Soviet Union, through the form.
    browser.wait_for("document.querySelector('#orders-panel') && !document.querySelector('#orders-panel').hidden && document.querySelector('#orders-status-russia').dataset.state === 'loaded'", "the orders form").await;
    browser.fill("#orders-losses-russia", "infantry, Armor, fighter").await;
    browser.fill("#orders-subs-russia", "never").await;
    browser.fill("#orders-retreat-russia", "when").await;
    browser.fill("#orders-retreat-n-russia", "2").await;
    browser.click("#orders-save-russia").await;
    browser.wait_for("document.querySelector('#orders-status-russia').dataset.state === 'saved'", "the orders saved").await;
    no_error(&mut browser).await;
    let orders = get(&mut browser, &format!("/api/games/{id}/orders/russia")).await;
    assert_eq!(orders["orders"], json!({"losses": ["infantry", "armor", "fighter"], "submarines": "never", "retreat": {"when_at_most": 2}}), "{orders}");
    // A unit type classic lacks: the server's refusal, with its code.
    browser.fill("#orders-losses-russia", "artillery").await;
    browser.click("#orders-save-russia").await;
    browser.wait_for("document.querySelector('#error').dataset.code === 'orders/unknown-unit'", "the refusal").await;
    browser.click("#error .close").await;
    assert_eq!(get(&mut browser, &format!("/api/games/{id}/orders/russia")).await["orders"]["losses"], json!(["infantry", "armor", "fighter"]), "unchanged");

    // Two days of vacation: the deadline moves, the log says so.
    browser.fill("#vacation-days", "2").await;
    browser.click("#take-vacation").await;
    browser.wait_for("document.querySelector('#vacation-left').dataset.left === '3'", "the vacation taken").await;
    assert_eq!(browser.eval("document.querySelector('#clock-deadline').dataset.deadline").await, json!((deadline + 2 * DAY).to_string()));
    browser.wait_for("Array.from(document.querySelectorAll('#log li[data-kind=\"clock\"]')).some(li => li.textContent === 'Clock: carla took 2 days of vacation (3 left)')", "the vacation in the log").await;
    browser.screenshot(&screenshots().join("correspondence.png")).await;

    // The time runs out: the computer takes carla's seat and plays on,
    // until the game waits on dora; carla reclaims her seat.
    clock.advance(6 * DAY);
    assert!(server.hub.clock_tick().await >= 1, "expired");
    browser.wait_for("document.querySelector('#reclaim-seats')", "the reclaim button").await;
    browser.wait_for("document.querySelector('#clock-waiting').dataset.account === 'dora'", "the game to wait on dora").await;
    let lines = clock_lines(&mut browser).await;
    assert!(lines.contains(&"Clock: carla's time for Soviet Union ran out".to_string()), "{lines:?}");
    assert!(lines.contains(&"Clock: the computer took over Soviet Union from carla".to_string()), "{lines:?}");
    browser.wait_for("Number(document.querySelector('#receipts').dataset.count) > 0", "receipts kept").await;
    let kept = browser.eval("document.querySelector('#receipts').textContent").await;
    assert!(kept.as_str().is_some_and(|k| k.ends_with(" receipts kept")), "{kept}");
    browser.screenshot(&screenshots().join("correspondence-taken-over.png")).await;
    browser.click("#reclaim-seats").await;
    browser.wait_for("!document.querySelector('#reclaim-seats') && Array.from(document.querySelectorAll('#log li[data-kind=\"clock\"]')).some(li => li.textContent === 'Clock: carla took back Soviet Union')", "the seat reclaimed").await;
    no_error(&mut browser).await;
    browser.wait_for("!document.querySelector('#orders-panel').hidden && document.body.dataset.ready === '1'", "carla's orders again").await;
    let game = get(&mut browser, &format!("/api/games/{id}")).await["game"].clone();
    let russia = game["seats"].as_array().expect("seats").iter().find(|s| s["power"] == "russia").cloned().expect("russia");
    assert_eq!((russia["kind"].as_str(), russia["account"].as_str()), (Some("account"), Some("carla")), "{game}");
    server.stop().await;
}

/// One account against another: the opponent's time runs out, carla
/// claims the win (in German), and the dice's seed is revealed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claimed_win_reveals_the_seed() {
    let Some(mut browser) = Browser::start(1400, 1000).await else {
        eprintln!("a_claimed_win_reveals_the_seed: skipped: no Chromium on this machine (CI installs Debian's chromium)");
        return;
    };
    let (server, clock) = server().await;
    server.account("dora").await;
    sign_up(&mut browser, &server, "carla").await;
    let seats = [("germany", "me", ""), ("japan", "me", ""), ("russia", "account", "dora"), ("uk", "account", "dora"), ("usa", "account", "dora")];
    let id = create(&mut browser, &seats, "1", "0", "server").await;
    assert_eq!(browser.eval("document.querySelector('#clock-waiting').dataset.account").await, json!("dora"));
    assert_eq!(browser.eval("!!document.querySelector('#claim-win')").await, json!(false), "nothing to claim yet");
    browser.click("#lang-switch").await;
    browser.wait_for("document.documentElement.lang === 'de' && document.querySelector('#clock-waiting') && document.body.dataset.ready === '1'", "the game in German").await;
    let waiting = browser.eval("document.querySelector('#clock-waiting').textContent").await;
    assert_eq!(waiting, json!("Wartet auf dora (Sowjetunion)"));

    clock.advance(2 * DAY);
    assert!(server.hub.clock_tick().await >= 1, "expired");
    browser.wait_for("document.querySelector('#claim-win')", "the claim button").await;
    assert!(clock_lines(&mut browser).await.contains(&"Uhr: die Zeit von dora für Sowjetunion ist abgelaufen".to_string()));
    browser.click("#claim-win").await;
    browser.wait_for("document.querySelector('#winner') && document.querySelector('#dice-seed')", "the win and the seed").await;
    no_error(&mut browser).await;
    browser.wait_for("Array.from(document.querySelectorAll('#log li[data-kind=\"clock\"]')).some(li => li.textContent === 'Uhr: carla beansprucht den Sieg; Alliierte geben auf')", "the claim in the log").await;
    let game = get(&mut browser, &format!("/api/games/{id}")).await["game"].clone();
    let seed = game["dice"]["seed"].as_str().expect("the seed, revealed").to_string();
    assert_eq!(browser.eval("document.querySelector('#dice-seed code').textContent").await, json!(seed));
    assert_eq!(browser.eval("document.querySelector('#download-record').getAttribute('href')").await, json!(format!("/api/games/{id}/record")));
    browser.screenshot(&screenshots().join("correspondence-claimed.png")).await;
    server.stop().await;
}
