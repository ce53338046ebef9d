//! The browser interface's speed (issue 30): the board's first paint on
//! loopback and a move's round trip (a click until the page shows the new
//! entry), in headless Chromium against an in-process server. Prints the
//! figures for BENCHMARKS.md; without Chromium it says so and stops.
//!
//!     cargo bench -p warboard-server --bench web

#[path = "../tests/common/mod.rs"]
mod common;

use common::browser::Browser;
use common::{Db, TestServer};
use serde_json::json;
use std::time::Instant;

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(run());
}

async fn run() {
    let Some(mut browser) = Browser::start(1400, 900).await else {
        println!("no Chromium on this machine: nothing measured");
        return;
    };
    let server = TestServer::start(Db::Sqlite).await;
    let token = server.account("bencher").await;
    let seats: serde_json::Map<String, serde_json::Value> =
        ["russia", "germany", "uk", "japan", "usa"].iter().map(|p| (p.to_string(), json!({"kind": "me"}))).collect();
    let base = format!("http://{}", server.addr);
    // Sign in once (the cookie), then time the game page's loads.
    browser.goto(&format!("{base}/")).await;
    browser.fill("#signin-name", "bencher").await;
    browser.fill("#signin-password", "a long password").await;
    browser.click("#signin-submit").await;
    browser.wait_for("document.querySelector('#new-game')", "the lobby").await;
    let mut paints = Vec::new();
    let mut boards = Vec::new();
    for _ in 0..5 {
        let game = server.create(&token, json!({"ruleset": "classic", "seats": seats})).await;
        let started = Instant::now();
        browser.goto(&format!("{base}/game/{game}")).await;
        browser.wait_for("document.querySelector('#board svg path#space-GER') && document.body.dataset.ready === '1'", "the board").await;
        boards.push(started.elapsed().as_secs_f64() * 1e3);
        let paint = browser.eval("(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || 0").await;
        paints.push(paint.as_f64().unwrap_or(0.0));
    }
    // A move's round trip: research ends, then Russia buys one infantry at
    // a time (its 24 IPCs make eight), each from the click until the page
    // shows the new entry.
    let mut trips = Vec::new();
    browser.click("#end-phase").await;
    browser.wait_for("Number(document.querySelector('#game').dataset.seq) >= 1 && document.body.dataset.ready === '1'", "research to end").await;
    for _ in 0..8 {
        browser.fill("[data-buy=\"infantry\"]", "1").await;
        // Timed in the page, from the click until the new entry is shown
        // and the page has settled (no polling in between).
        let ms = browser
            .eval(
                "new Promise(resolve => { const g = document.querySelector('#game'); const seq = Number(g.dataset.seq); \
                 const t0 = performance.now(); const done = () => { if (Number(g.dataset.seq) > seq && document.body.dataset.ready === '1') \
                 { obs.disconnect(); resolve(performance.now() - t0); } }; const obs = new MutationObserver(done); \
                 obs.observe(g, {attributes: true}); obs.observe(document.body, {attributes: true}); \
                 document.querySelector('#buy-submit').click(); })",
            )
            .await;
        trips.push(ms.as_f64().unwrap_or(0.0));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let max = |v: &Vec<f64>| v.iter().copied().fold(0.0, f64::max);
    println!("first contentful paint: median {:.0} ms, max {:.0} ms (5 loads)", median(&mut paints.clone()), max(&paints));
    println!("game page with the drawn board ready: median {:.0} ms, max {:.0} ms (5 loads)", median(&mut boards.clone()), max(&boards));
    println!("a move's round trip (click to the new entry shown): median {:.1} ms, max {:.1} ms ({} purchases)", median(&mut trips.clone()), max(&trips), trips.len());
    server.stop().await;
}
