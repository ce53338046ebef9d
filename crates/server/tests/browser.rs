//! The browser interface in a real browser (headless Chromium) against a
//! server on 127.0.0.1: a player signs up, creates a game against the
//! computer and plays an opening by mouse — buy, move, fight a battle
//! choosing casualties, place, end the turn — and the page's log agrees
//! with the server's. Screenshots go to target/screenshots/.

mod common;

use common::browser::Browser;
use common::{Db, TestServer};
use serde_json::{json, Value};

fn screenshots() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_loads_and_a_player_signs_up() {
    let Some(mut browser) = Browser::start(1280, 800).await else {
        eprintln!("the_page_loads_and_a_player_signs_up: skipped: no Chromium on this machine (CI installs Debian's chromium)");
        return;
    };
    let server = TestServer::start(Db::Sqlite).await;
    browser.goto(&format!("http://{}/", server.addr)).await;
    browser.wait_for("document.getElementById('app')", "the page's root").await;
    browser.screenshot(&screenshots().join("first-page.png")).await;
    server.stop().await;
}

/// Clicks `selector`, then waits until the game has more than `seq`
/// entries and the page has settled; the new entry count.
async fn act(browser: &mut Browser, selector: &str, seq: i64) -> i64 {
    browser.click(selector).await;
    browser.wait_for(&format!("Number(document.querySelector('#game').dataset.seq) > {seq} && document.body.dataset.ready === '1'"), &format!("`{selector}` to be taken")).await;
    let error = browser.eval("document.querySelector('#error') && document.querySelector('#error').dataset.code || ''").await;
    assert!(error.as_str().is_none_or(str::is_empty), "`{selector}` was refused: {error}");
    seq_of(browser).await
}

async fn seq_of(browser: &mut Browser) -> i64 {
    browser.eval("Number(document.querySelector('#game').dataset.seq)").await.as_i64().expect("a seq")
}

/// The decision panel's kind once the page has settled for `awaiting`.
async fn decision(browser: &mut Browser) -> String {
    browser.wait_for("document.body.dataset.ready === '1' && document.querySelector('#decision')", "the decision panel").await;
    browser.eval("document.querySelector('#decision').dataset.kind").await.as_str().unwrap_or("").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classic_opening_against_the_computer_by_mouse() {
    let Some(mut browser) = Browser::start(1400, 900).await else {
        eprintln!("a_classic_opening_against_the_computer_by_mouse: skipped: no Chromium on this machine (CI installs Debian's chromium)");
        return;
    };
    let server = TestServer::start(Db::Sqlite).await;
    let base = format!("http://{}", server.addr);
    browser.goto(&format!("{base}/")).await;
    // Sign up.
    browser.fill("#signin-name", "alice").await;
    browser.fill("#signin-password", "a long password").await;
    browser.click("#signup-submit").await;
    browser.wait_for("document.querySelector('#new-game')", "the lobby").await;
    // A classic game: Russia for the player, the computer for the rest.
    browser.fill("#create-ruleset", "classic").await;
    browser.wait_for("document.querySelector('[data-seat=\"germany\"]')", "the seats").await;
    browser.fill("[data-seat=\"russia\"]", "me").await;
    for power in ["germany", "uk", "japan", "usa"] {
        browser.fill(&format!("[data-seat=\"{power}\"]"), "computer").await;
    }
    browser.click("#create-submit").await;
    browser.wait_for("document.querySelector('#game[data-game]') && document.querySelector('#decision') && document.body.dataset.ready === '1'", "the game page").await;
    let game = browser.eval("document.querySelector('#game').dataset.game").await.as_str().expect("a game id").to_string();
    let mut seq = seq_of(&mut browser).await;
    assert_eq!(decision(&mut browser).await, "research");
    seq = act(&mut browser, "#end-phase", seq).await;
    // Buy two infantry.
    assert_eq!(decision(&mut browser).await, "purchase");
    browser.fill("[data-buy=\"infantry\"]", "2").await;
    seq = act(&mut browser, "#buy-submit", seq).await;
    seq = act(&mut browser, "#end-phase", seq).await;
    // Attack Ukraine from the Caucasus.
    assert_eq!(decision(&mut browser).await, "combat_move");
    browser.click("[data-move-from=\"CAU\"][data-move-unit=\"infantry\"]").await;
    browser.fill("#move-count", "3").await;
    seq = act(&mut browser, "[data-route=\"CAU>UKR\"]", seq).await;
    seq = act(&mut browser, "#end-phase", seq).await;
    // Fight it round by round, choosing casualties when asked.
    assert_eq!(decision(&mut browser).await, "combat");
    seq = act(&mut browser, "[data-battle-at=\"UKR\"][data-type=\"battle\"]", seq).await;
    let mut chose_casualties = false;
    for _ in 0..30 {
        match decision(&mut browser).await.as_str() {
            "casualties" => {
                chose_casualties = true;
                seq = act(&mut browser, "#casualties-submit", seq).await;
            }
            "press_or_retreat" => seq = act(&mut browser, "#continue", seq).await,
            _ => {
                let more = browser.eval("!!document.querySelector('[data-battle-at=\"UKR\"][data-type=\"battle\"]')").await;
                if more == json!(true) {
                    seq = act(&mut browser, "[data-battle-at=\"UKR\"][data-type=\"battle\"]", seq).await;
                } else {
                    break;
                }
            }
        }
    }
    browser.screenshot(&screenshots().join("classic-battle.png")).await;
    seq = act(&mut browser, "#end-phase", seq).await;
    assert_eq!(decision(&mut browser).await, "noncombat_move");
    seq = act(&mut browser, "#end-phase", seq).await;
    // Place the infantry in Moscow, then end the turn.
    assert_eq!(decision(&mut browser).await, "place");
    browser.fill("[data-place-at=\"MOS\"] [data-place-unit=\"infantry\"]", "2").await;
    seq = act(&mut browser, "[data-place-submit=\"MOS\"]", seq).await;
    seq = act(&mut browser, "#end-phase", seq).await;
    if decision(&mut browser).await == "income" {
        seq = act(&mut browser, "#end-phase", seq).await;
    }
    // The computer plays Germany's turn; the page follows, and Russia
    // chooses its own casualties when Germany attacks it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    let mut defended = false;
    loop {
        assert!(std::time::Instant::now() < deadline, "Germany's turn ends within 90 s");
        browser.wait_for("document.body.dataset.ready === '1' && document.querySelector('#decision')", "the page to settle").await;
        let awaiting = browser.eval("document.querySelector('#decision').dataset.awaiting").await;
        let kind = decision(&mut browser).await;
        let turn = browser.eval("(document.querySelector('#summary [data-field=\"turn\"]') || {}).textContent || ''").await;
        let turn = turn.as_str().unwrap_or("").to_lowercase();
        if awaiting == json!("client") {
            match kind.as_str() {
                "casualties" => {
                    defended = true;
                    seq = act(&mut browser, "#casualties-submit", seq).await;
                }
                "press_or_retreat" | "attacker_submarines" | "defender_submarines" => seq = act(&mut browser, "#continue", seq).await,
                _ => break,
            }
            continue;
        }
        if !turn.contains("germany") && !turn.contains("soviet") && !turn.contains("russia") && seq_of(&mut browser).await > seq {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    eprintln!("Russia defended by choosing its casualties: {defended}");
    browser.screenshot(&screenshots().join("classic-after-turn.png")).await;

    // The page's log tells what the server's log tells, line for line.
    let (status, body) = server.http("POST", "/api/signin", None, Some(&json!({"name": "alice", "password": "a long password"}))).await;
    assert_eq!(status, 200, "{body}");
    let token = body["token"].as_str().expect("a token").to_string();
    let mut ws = server.ws(&game, Some(&token)).await;
    let now = browser.eval("Number(document.querySelector('#game').dataset.seq)").await.as_i64().expect("seq");
    let synced = ws.request(json!({"cmd": "sync", "from": 0})).await;
    let told: Vec<String> = synced["result"]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["seq"].as_i64().is_some_and(|s| s < now))
        .flat_map(|e| e["story"].as_array().cloned().unwrap_or_default())
        .filter_map(|l: Value| l["text"].as_str().map(String::from))
        .collect();
    let shown: Vec<String> = browser
        .eval("Array.from(document.querySelectorAll('#log li')).map(li => li.textContent)")
        .await
        .as_array()
        .expect("log lines")
        .iter()
        .filter_map(|v| v.as_str().map(String::from))
        .collect();
    assert!(told.iter().any(|l| l == "russia buys 2 inf for 6 IPCs"), "{told:?}");
    let mut at = 0;
    for line in &told {
        let found = shown[at..].iter().position(|s| s == line).unwrap_or_else(|| panic!("the page shows `{line}` in order; it shows {shown:?}"));
        at += found + 1;
    }
    assert!(chose_casualties || told.iter().any(|l| l.contains("casualties")), "a battle was fought with its casualties");
    server.stop().await;
}
