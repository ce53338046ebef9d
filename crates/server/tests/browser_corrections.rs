//! Corrections by consent in a real browser (headless Chromium, as
//! tests/browser.rs; issue 31, point 7): two accounts play a classic game
//! with server dice, each in a browser of its own. Russia's player attacks
//! Ukraine and resolves the battle, then proposes through the log's "take
//! back to here" button to take the battle back; the Axis's page shows the
//! proposal and approves it; both pages show the battle pending again with
//! the units in Ukraine as before it, and the log tells the proposal and
//! the approval. A second proposal is declined by the other side, a third
//! withdrawn by its proposer. Screenshots go to target/screenshots/.

mod common;

use common::browser::Browser;
use common::{Db, TestServer, Ws};
use serde_json::{json, Value};

fn screenshots() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}

/// Signs `name` in through the page and opens game `id`.
async fn open_game(browser: &mut Browser, server: &TestServer, name: &str, id: &str) {
    browser.goto(&format!("http://{}/", server.addr)).await;
    browser.fill("#signin-name", name).await;
    browser.fill("#signin-password", "a long password").await;
    browser.click("#signin-submit").await;
    browser.wait_for("document.querySelector('#new-game')", "the lobby").await;
    browser.goto(&format!("http://{}/game/{id}", server.addr)).await;
    browser.wait_for("document.querySelector('#game[data-game]') && document.body.dataset.ready === '1' && document.querySelector('#game').dataset.corrections", "the game page").await;
}

/// Waits until the page has seen `seq` entries and settled.
async fn settled_at(browser: &mut Browser, seq: i64) {
    browser.wait_for(&format!("Number(document.querySelector('#game').dataset.seq) === {seq} && document.body.dataset.ready === '1'"), &format!("{seq} entries, settled")).await;
}

async fn no_error(browser: &mut Browser) {
    let error = browser.eval("document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent").await;
    assert_eq!(error, json!(""), "the page shows no refusal");
}

/// The entries the log offers to take back to.
async fn take_back_buttons(browser: &mut Browser) -> Value {
    browser.eval("Array.from(document.querySelectorAll('#log button[data-take-back]')).map(b => Number(b.dataset.takeBack))").await
}

/// Whether the log has a line containing `text`.
fn log_has(text: &str) -> String {
    format!("Array.from(document.querySelectorAll('#log li')).some(li => li.textContent.includes({}))", serde_json::to_string(text).expect("a string"))
}

/// What the page shows of Ukraine: the battle's result in the list of
/// battles, and whose units the board's badge counts there.
async fn ukraine(browser: &mut Browser) -> Value {
    browser
        .eval(
            "({battle: (document.querySelector('#summary li[data-battle=\"UKR\"]') || {dataset: {}}).dataset.result || null, \
              owners: Array.from(document.querySelectorAll('[data-units-for=\"UKR\"] [data-owner]')).map(r => r.dataset.owner).sort()})",
        )
        .await
}

/// The game's correction state as the server tells a seat.
async fn correction(ws: &mut Ws) -> Value {
    let state = ws.request(json!({"cmd": "state"})).await;
    assert_eq!(state["reply"], "ok", "{state}");
    state["result"]["correction"].clone()
}

/// Proposes through the log's button at entry `seq` and the dialog.
async fn propose(browser: &mut Browser, seq: i64) {
    browser.click(&format!("#log button[data-take-back=\"{seq}\"]")).await;
    browser.wait_for(&format!("document.querySelector('#take-back-dialog').open && document.querySelector('#take-back-dialog').dataset.takeBack === '{seq}'"), "the question").await;
    browser.click("#take-back-confirm").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correction_by_consent_in_the_browser() {
    let Some(mut allies) = Browser::start(1400, 1000).await else {
        eprintln!("a_correction_by_consent_in_the_browser: skipped: no Chromium on this machine (CI installs Debian's chromium)");
        return;
    };
    let mut axis = Browser::start(1400, 1000).await.expect("a second Chromium");
    let server = TestServer::start(Db::Sqlite).await;
    let (axis_token, allies_token) = (server.account("axel").await, server.account("alma").await);
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "account", "name": "alma"}, "uk": {"kind": "account", "name": "alma"}, "usa": {"kind": "account", "name": "alma"},
    });
    let id = server.create(&axis_token, json!({"ruleset": "classic", "seats": seats, "dice": "server"})).await;
    open_game(&mut allies, &server, "alma", &id).await;
    open_game(&mut axis, &server, "axel", &id).await;

    // Russia's player attacks Ukraine and fights the battle out (its own
    // socket; the pages follow the pushes).
    let mut russia = server.ws(&id, Some(&allies_token)).await;
    for action in [
        json!({"type": "end_phase"}),
        json!({"type": "end_phase"}),
        json!({"type": "move", "units": [{"type": "infantry", "count": 3}], "route": ["CAU", "UKR"]}),
        json!({"type": "end_phase"}),
    ] {
        let reply = russia.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{action}: {reply}");
    }
    settled_at(&mut allies, 4).await;
    let before = ukraine(&mut allies).await;
    assert_eq!(before["battle"], json!("pending"), "{before}");
    assert_eq!(before["owners"], json!(["germany", "russia"]), "both sides in Ukraine before the battle: {before}");
    let reply = russia.apply(json!({"type": "resolve", "at": "UKR"})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");
    for page in [&mut allies, &mut axis] {
        settled_at(page, 5).await;
        let after = ukraine(page).await;
        assert_ne!(after, before, "the battle was fought: {after}");
        assert_eq!(page.eval("!!document.querySelector('#last-dice')").await, json!(true), "its dice shown");
        assert_eq!(page.eval("document.querySelector('#correction').hidden").await, json!(true), "no proposal open");
    }
    // Every rules action can be taken back, by either seat.
    assert_eq!(take_back_buttons(&mut allies).await, json!([0, 1, 2, 3, 4]));
    assert_eq!(take_back_buttons(&mut axis).await, json!([0, 1, 2, 3, 4]));

    // From the keyboard: the button asks; Escape asks no more.
    allies.eval("document.querySelector('#log button[data-take-back=\"4\"]').focus()").await;
    allies.press("Enter").await;
    allies.wait_for("document.querySelector('#take-back-dialog').open", "the question").await;
    let question = allies.eval("document.querySelector('#take-back-text').textContent").await;
    assert!(
        question.as_str().is_some_and(|q| q.starts_with("Propose to take back the game to before entry 4 (") && q.ends_with("The other side must agree; dice rolled since stay in the record.")),
        "{question}"
    );
    allies.screenshot(&screenshots().join("correction-ask.png")).await;
    allies.press("Escape").await;
    allies.wait_for("!document.querySelector('#take-back-dialog').open", "the question closed").await;
    assert_eq!(correction(&mut russia).await["pending"], Value::Null, "nothing proposed");

    // Proposed: the proposer's page waits, the other side's asks.
    propose(&mut allies, 4).await;
    settled_at(&mut allies, 6).await;
    no_error(&mut allies).await;
    let open = correction(&mut russia).await;
    assert_eq!((&open["pending"]["proposal"], &open["pending"]["take_back_to"], &open["pending"]["by"]), (&json!(5), &json!(4), &json!("russia")), "{open}");
    allies.wait_for("!document.querySelector('#correction').hidden && document.querySelector('#correction-withdraw')", "the proposer's banner").await;
    assert_eq!(allies.eval("!!document.querySelector('#correction-approve')").await, json!(false), "the proposer's side does not approve");
    assert_eq!(take_back_buttons(&mut allies).await, json!([]), "one proposal at a time");
    axis.wait_for(
        "(b => b && !b.hidden && b.dataset.proposal === '5' && b.dataset.takeBackTo === '4' && b.dataset.by === 'russia')(document.querySelector('#correction')) && document.querySelector('#correction-approve') && document.querySelector('#correction-decline')",
        "the other side's banner",
    )
    .await;
    let banner = axis.eval("document.querySelector('#correction .correction-what').textContent").await;
    assert!(banner.as_str().is_some_and(|b| b.contains("proposes to take back the game to before entry 4")), "{banner}");
    assert_eq!(axis.eval("!!document.querySelector('#correction-withdraw')").await, json!(false));
    axis.wait_for(&log_has("proposes a correction: take back the log from entry 4 on"), "the proposal in the log").await;
    axis.screenshot(&screenshots().join("correction-proposed.png")).await;

    // Approved: both pages show the position before the battle.
    axis.click("#correction-approve").await;
    for page in [&mut axis, &mut allies] {
        settled_at(page, 7).await;
        no_error(page).await;
        page.wait_for("document.querySelector('#correction').hidden && document.querySelector('#game').dataset.corrections === '1'", "the correction approved").await;
        assert_eq!(ukraine(page).await, before, "the position before the battle");
        assert_eq!(page.eval("!!document.querySelector('#last-dice')").await, json!(false), "the superseded dice are not shown as the last");
        page.wait_for(&log_has("approves the correction proposed in entry 5: the game goes back"), "the approval in the log").await;
        assert_eq!(page.eval("!!document.querySelector('#log li[data-seq=\"4\"].superseded')").await, json!(true), "the battle's lines marked as taken back");
        assert_eq!(take_back_buttons(page).await, json!([]), "nothing after the correction to take back yet");
    }
    assert_eq!(correction(&mut russia).await, json!({"pending": null, "floor": 7, "approved": 1}));
    allies.wait_for("document.querySelector('#decision [data-battle-at=\"UKR\"][data-type=\"battle\"]')", "Russia to fight Ukraine again").await;
    allies.screenshot(&screenshots().join("correction-approved.png")).await;

    // The battle again; a second proposal, declined by the other side.
    let reply = russia.apply(json!({"type": "resolve", "at": "UKR"})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");
    settled_at(&mut allies, 8).await;
    let fought = ukraine(&mut allies).await;
    assert_eq!(take_back_buttons(&mut allies).await, json!([7]), "not before the first entry after the correction");
    propose(&mut allies, 7).await;
    axis.wait_for("document.querySelector('#correction').dataset.proposal === '8' && document.querySelector('#correction-decline')", "the second proposal").await;
    axis.click("#correction-decline").await;
    for page in [&mut axis, &mut allies] {
        settled_at(page, 10).await;
        no_error(page).await;
        page.wait_for("document.querySelector('#correction').hidden", "the proposal declined").await;
        page.wait_for(&log_has("declines the correction proposed in entry 8"), "the decline in the log").await;
        assert_eq!(ukraine(page).await, fought, "the game goes on from the battle fought again");
        assert_eq!(page.eval("document.querySelector('#game').dataset.corrections").await, json!("1"));
    }

    // A third, withdrawn by the proposer.
    propose(&mut allies, 7).await;
    allies.wait_for("document.querySelector('#correction').dataset.proposal === '10' && document.querySelector('#correction-withdraw')", "the third proposal").await;
    allies.click("#correction-withdraw").await;
    settled_at(&mut allies, 12).await;
    no_error(&mut allies).await;
    allies.wait_for(&format!("document.querySelector('#correction').hidden && {}", log_has("declines the correction proposed in entry 10")), "the proposal withdrawn").await;
    assert_eq!(correction(&mut russia).await, json!({"pending": null, "floor": 7, "approved": 1}));
    assert_eq!(take_back_buttons(&mut allies).await, json!([7]), "a proposal may be made again");
    server.stop().await;
}
