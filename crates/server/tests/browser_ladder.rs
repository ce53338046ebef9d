//! The ladder in a real browser (headless Chromium, as tests/browser.rs):
//! after four scripted rated games among three accounts, the lobby links
//! the ladder; `/ladder` shows the players in rating order with the ratings
//! `warboard_ladder` gives over the kept results, and the side balance; a
//! name opens the player's profile with its rated games, results by side
//! and the rating chart; a game's link opens its replay. Screenshots go to
//! target/screenshots/.

mod common;

use common::browser::Browser;
use common::ladder::{expected_ladder, result_of, surrendered_game, Player};
use common::{Db, TestServer};
use serde_json::json;
use warboard_ladder::{Family, Ladder, PlayerId};

fn screenshots() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}

async fn account_id(server: &TestServer, name: &str) -> PlayerId {
    PlayerId(server.store.account_by_name(name).await.expect("the account is read").expect("the account").id)
}

/// A JavaScript list's items, as strings.
async fn strings(browser: &mut Browser, expression: &str) -> Vec<String> {
    let v = browser.eval(expression).await;
    v.as_array()
        .unwrap_or_else(|| panic!("a list from `{expression}`: {v}"))
        .iter()
        .map(|s| s.as_str().map_or_else(|| s.to_string(), String::from))
        .collect()
}

async fn no_error(browser: &mut Browser) {
    let error = browser.eval("document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent").await;
    assert_eq!(error, json!(""), "the page shows no refusal");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_and_a_profile_in_the_browser() {
    let Some(mut browser) = Browser::start(1280, 1000).await else {
        eprintln!("the_ladder_and_a_profile_in_the_browser: skipped: no Chromium on this machine (CI installs Debian's chromium)");
        return;
    };
    let server = TestServer::start(Db::Sqlite).await;
    let base = format!("http://{}", server.addr);
    let anna = Player::sign_up(&server, "anna").await;
    let boris = Player::sign_up(&server, "boris").await;
    let carla = Player::sign_up(&server, "carla").await;
    let dice = json!({"dice": "server"});
    let g1 = surrendered_game(&server, &anna, &boris, dice.clone(), "allies").await;
    let g2 = surrendered_game(&server, &carla, &anna, dice.clone(), "axis").await;
    let g3 = surrendered_game(&server, &boris, &carla, dice.clone(), "allies").await;
    let g4 = surrendered_game(&server, &anna, &boris, dice.clone(), "axis").await;

    // What the pages must show: warboard_ladder over the results the server
    // kept (all four within a minute: no days away to count).
    let (rows, ladder) = expected_ladder(&server, "classic").await;
    assert_eq!(rows.iter().map(|r| r.game_id.as_str()).collect::<Vec<_>>(), [&g1, &g2, &g3, &g4]);
    let mut ids = Vec::new();
    for p in [&anna, &boris, &carla] {
        ids.push((p.name.clone(), account_id(&server, &p.name).await));
    }
    let mut best: Vec<(String, f64)> = ids.iter().map(|(n, id)| (n.clone(), ladder.rating(Family::Classic, id).value)).collect();
    best.sort_by(|a, b| b.1.total_cmp(&a.1));

    // Anna signs in; the lobby's header links the ladder.
    browser.goto(&format!("{base}/")).await;
    browser.fill("#signin-name", "anna").await;
    browser.fill("#signin-password", "a long password").await;
    browser.click("#signin-submit").await;
    browser.wait_for("document.querySelector('#new-game')", "the lobby").await;
    browser.click("#nav-ladder").await;
    browser.wait_for("location.pathname === '/ladder' && document.body.dataset.ready === '1' && document.querySelectorAll('#ladder-table tbody tr').length === 3", "the leaderboard").await;
    no_error(&mut browser).await;

    // The players in rating order, with their ratings, all provisional (?).
    let shown = strings(&mut browser, "Array.from(document.querySelectorAll('#ladder-table tbody tr')).map(tr => [tr.dataset.rank, tr.dataset.account, tr.querySelector('td.rating').textContent].join(' '))").await;
    let expected: Vec<String> = best.iter().enumerate().map(|(i, (n, r))| format!("{} {n} {}?", i + 1, r.round())).collect();
    assert_eq!(shown, expected, "the leaderboard, best first");
    let (_, board) = server.http("GET", "/api/ladder/classic", None, None).await;
    assert_eq!(
        board["players"].as_array().map(|p| p.iter().map(|p| p["account"].as_str().unwrap_or("").to_string()).collect::<Vec<_>>()),
        Some(best.iter().map(|b| b.0.clone()).collect()),
        "{board}"
    );
    assert_eq!(browser.eval("document.querySelector('#ladder-games').textContent").await, json!("4 rated games"));
    // The side balance: the Axis won g1 and g3, the Allies g2 and g4; no bids yet.
    let balance = strings(&mut browser, "Array.from(document.querySelectorAll('#balance-table tbody tr')).map(tr => [tr.dataset.bid, tr.dataset.games, tr.dataset.axisWins, tr.dataset.alliesWins, tr.dataset.draws].join(' '))").await;
    assert_eq!(balance, ["all 4 2 2 0", "none 4 2 2 0"]);
    let axis_cell = browser.eval("document.querySelector('#balance-table tr[data-bid=\"all\"] td:nth-child(3)').textContent").await;
    assert_eq!(axis_cell, json!("2 (50.0%)"));
    browser.screenshot(&screenshots().join("ladder.png")).await;

    // Another family's tab: nothing rated there yet; back to classic.
    browser.click("#ladder-tab-europe").await;
    browser.wait_for("document.querySelector('#ladder').dataset.family === 'europe' && document.body.dataset.ready === '1' && document.querySelector('#ladder-empty')", "europe's empty ladder").await;
    assert_eq!(browser.eval("location.hash").await, json!("#europe"));
    browser.click("#ladder-tab-classic").await;
    browser
        .wait_for(
            "document.body.dataset.ready === '1' && document.querySelectorAll('#ladder-table tbody tr').length === 3",
            "classic again",
        )
        .await;

    // Anna's name opens her profile.
    browser.click("#ladder-table a[data-player=\"anna\"]").await;
    browser
        .wait_for(
            "location.pathname === '/players/anna' && document.body.dataset.ready === '1' && document.querySelector('#player-games')",
            "anna's profile",
        )
        .await;
    no_error(&mut browser).await;
    let anna_id = &ids[0].1;
    let rank = best.iter().position(|b| b.0 == "anna").expect("ranked") + 1;
    let rating = ladder.rating(Family::Classic, anna_id).value.round();
    let family = strings(&mut browser, "Array.from(document.querySelectorAll('#player-ratings tbody tr')).map(tr => [tr.dataset.family, tr.dataset.rank, tr.dataset.rating].join(' '))").await;
    assert_eq!(family, [format!("classic {rank} {rating}")]);
    // Her games, newest first, with her side, opponent, result and links.
    let games = strings(&mut browser, "Array.from(document.querySelectorAll('#player-games tbody tr')).map(tr => [tr.dataset.game, tr.dataset.side, tr.dataset.result, tr.querySelector('a[data-player]').textContent].join(' '))").await;
    assert_eq!(games, [format!("{g4} axis loss boris"), format!("{g2} allies win carla"), format!("{g1} axis win boris")]);
    let links = browser.eval(&format!("[document.querySelector('a[data-replay=\"{g1}\"]').getAttribute('href'), document.querySelector('a[data-record=\"{g1}\"]').getAttribute('href')]")).await;
    assert_eq!(links, json!([format!("/game/{g1}/replay"), format!("/api/games/{g1}/record")]));
    // Results by side: as Axis a win and a loss, as Allies a win.
    let sides = strings(&mut browser, "Array.from(document.querySelectorAll('#player-sides tbody tr')).map(tr => [tr.dataset.side, tr.dataset.wins, tr.dataset.losses, tr.dataset.draws].join(' '))").await;
    assert_eq!(sides, ["axis 1 1 0", "allies 1 0 0"]);
    // The chart: one classic line through her three games, at the ratings
    // warboard_ladder gives after each.
    let mut after = Vec::new();
    for k in 0..rows.len() {
        if rows[k].side_a.contains(&anna_id.0) || rows[k].side_b.contains(&anna_id.0) {
            let prefix = Ladder::from_results(&rows[..=k].iter().map(result_of).collect::<Vec<_>>()).expect("the results rate");
            after.push(prefix.rating(Family::Classic, anna_id).value.round().to_string());
        }
    }
    let line = browser.eval("(() => { const l = document.querySelector('#rating-chart svg polyline[data-family=\"classic\"]'); return [l.getAttribute('points').split(' ').length, document.querySelectorAll('#rating-chart svg circle').length]; })()").await;
    assert_eq!(line, json!([3, 3]), "a point a game");
    let figures = strings(
        &mut browser,
        "Array.from(document.querySelectorAll('#rating-chart tbody tr')).map(tr => tr.querySelector('[data-rating]').dataset.rating)",
    )
    .await;
    assert_eq!(figures, after, "the rating after each game");
    browser.screenshot(&screenshots().join("profile.png")).await;
    browser.eval("document.querySelector('#player-games').scrollIntoView()").await;
    browser.screenshot(&screenshots().join("profile-games.png")).await;

    // In German.
    browser.click("#lang-switch").await;
    browser
        .wait_for(
            "document.documentElement.lang === 'de' && document.body.dataset.ready === '1' && document.querySelector('#player-sides')",
            "the profile in German",
        )
        .await;
    let titles = strings(&mut browser, "[document.querySelector('#player-sides-title').textContent, document.querySelector('#player-sides tr[data-side=\"axis\"] th').textContent, document.querySelector('#player-games tr td.result').textContent]").await;
    assert_eq!(titles, ["Ergebnisse nach Seite", "Achsenmächte", "verloren"]);
    browser.click("#lang-switch").await;
    browser
        .wait_for(
            "document.documentElement.lang === 'en' && document.body.dataset.ready === '1' && document.querySelector('#player-games')",
            "back in English",
        )
        .await;

    // A game's replay link opens the replay.
    browser.click(&format!("a[data-replay=\"{g1}\"]")).await;
    browser
        .wait_for(&format!("document.querySelector('#replay[data-game=\"{g1}\"]') && document.body.dataset.ready === '1'"), "the replay")
        .await;
    no_error(&mut browser).await;
    // A name nobody has: the refusal's code.
    browser.goto(&format!("{base}/players/nobody")).await;
    browser.wait_for("document.querySelector('#error').dataset.code === 'ladder/unknown-player'", "the refusal").await;
    server.stop().await;
}
