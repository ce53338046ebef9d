//! Sealed bids for sides in a real browser (headless Chromium, as
//! tests/browser.rs; issue 32, point 4): anna creates a classic game
//! through the lobby's form with its sides decided by sealed bid against
//! boris (server dice, as any other option). Each opens the game page in a
//! Chromium of their own (boris's in German) and seals a bid through the
//! bid panel (anna 5, boris 9): the page draws the nonce, computes the
//! commitment the server keeps and keeps the bid in localStorage, where a
//! reload finds it and whose loss the panel explains. A reveal from a
//! tampered stored bid is refused with `bid/commitment-mismatch` in the
//! page's words (English and German); the true reveals settle the round:
//! both pages show the bids and the sides, then the game itself, anna
//! holding the Axis (the lower bid) with Germany's bank raised by 5.
//! Screenshots go to target/screenshots/.

mod common;

use common::browser::Browser;
use common::{Db, TestServer};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use warboard_record::{DiceMode, Record, Start};

fn screenshots() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}

/// Signs `name` in through the page and waits for the lobby's form.
async fn sign_in(browser: &mut Browser, server: &TestServer, name: &str) {
    browser.goto(&format!("http://{}/", server.addr)).await;
    browser.fill("#signin-name", name).await;
    browser.fill("#signin-password", "a long password").await;
    browser.click("#signin-submit").await;
    browser.wait_for("document.querySelector('#new-game [data-seat]')", "the lobby").await;
}

async fn no_error(browser: &mut Browser) {
    let error = browser.eval("document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent").await;
    assert_eq!(error, json!(""), "the page shows no refusal");
}

/// A GET from the page, with its session: the JSON answer.
async fn get(browser: &mut Browser, path: &str) -> Value {
    browser.eval(&format!("fetch({}).then(r => r.json())", serde_json::to_string(path).expect("a string"))).await
}

/// The localStorage key the page keeps `account`'s bid under (docs/web.md).
fn kept_key(game: &str, account: &str) -> String {
    serde_json::to_string(&format!("warboard-bid/{game}/{account}")).expect("a string")
}

/// What the page keeps of `account`'s bid (`Null`: nothing).
async fn kept(browser: &mut Browser, game: &str, account: &str) -> Value {
    let raw = browser.eval(&format!("localStorage.getItem({})", kept_key(game, account))).await;
    raw.as_str().map_or(Value::Null, |s| serde_json::from_str(s).expect("the kept bid is JSON"))
}

async fn set_kept(browser: &mut Browser, game: &str, account: &str, bid: &Value) {
    let text = serde_json::to_string(&bid.to_string()).expect("a string");
    browser.eval(&format!("localStorage.setItem({}, {text})", kept_key(game, account))).await;
}

/// The commitment as docs/ladder.md spells it (the test's own reading).
fn commitment(game: &str, player: &str, ipcs: u32, nonce_hex: &str) -> String {
    let nonce: Vec<u8> = (0..nonce_hex.len()).step_by(2).map(|i| u8::from_str_radix(&nonce_hex[i..i + 2], 16).expect("hex")).collect();
    assert_eq!(nonce.len(), 32, "a 32-byte nonce");
    Sha256::digest(common::ladder::bid_commitment_bytes(game, player, ipcs, &nonce)).iter().map(|b| format!("{b:02x}")).collect()
}

/// The bidder's row of the round as the server has it.
fn bidder<'a>(round: &'a Value, name: &str) -> &'a Value {
    round["bidders"].as_array().and_then(|b| b.iter().find(|b| b["account"] == name)).unwrap_or_else(|| panic!("{name} bids: {round}"))
}

/// Seals `ipcs` through the panel and waits until the panel shows it sealed.
async fn seal(browser: &mut Browser, name: &str, ipcs: u32) {
    browser.fill("#bid-ipcs", &ipcs.to_string()).await;
    browser.click("#bid-seal").await;
    browser
        .wait_for(
            &format!("document.querySelector('#bid-bidders li[data-bidder=\"{name}\"]').dataset.sealed === '1' && (document.querySelector('#bid-mine') || {{dataset: {{}}}}).dataset.ipcs === '{ipcs}' && !document.querySelector('#bid').classList.contains('busy')"),
            &format!("{name}'s bid sealed"),
        )
        .await;
    no_error(browser).await;
}

/// Reveals from a stored bid with another number of IPCs: refused as
/// `bid/commitment-mismatch`; the error line's text. The true bid is put
/// back and the error dismissed.
async fn tampered_reveal(browser: &mut Browser, game: &str, name: &str, other_ipcs: u32) -> String {
    let truth = kept(browser, game, name).await;
    let mut tampered = truth.clone();
    tampered["ipcs"] = json!(other_ipcs);
    set_kept(browser, game, name, &tampered).await;
    browser.click("#bid-reveal").await;
    browser.wait_for("document.querySelector('#error').dataset.code === 'bid/commitment-mismatch'", "the refusal").await;
    let text = browser.eval("document.querySelector('#error .msg').textContent").await.as_str().expect("a text").to_string();
    let round = get(browser, &format!("/api/games/{game}/bid")).await["bid"].clone();
    assert_eq!(bidder(&round, name)["ipcs"], Value::Null, "nothing revealed: {round}");
    set_kept(browser, game, name, &truth).await;
    browser.click("#error .close").await;
    text
}

/// Germany's bank in the classic game's published start.
fn standard_german_bank() -> i64 {
    let record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 1 })).expect("classic starts");
    let rs = &record.game().ruleset;
    i64::from(record.state().ipcs[rs.power_by_name("germany").expect("germany").index()])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sealed_bids_for_sides_in_the_browser() {
    let Some(mut anna) = Browser::start(1400, 1000).await else {
        eprintln!("sealed_bids_for_sides_in_the_browser: skipped: no Chromium on this machine (CI installs Debian's chromium)");
        return;
    };
    let mut boris = Browser::start(1400, 1000).await.expect("a second Chromium");
    let server = TestServer::start(Db::Sqlite).await;
    server.account("anna").await;
    server.account("boris").await;

    // Anna creates the game through the lobby's form: sides by sealed bid
    // against boris (the seats' table goes away), server dice.
    sign_in(&mut anna, &server, "anna").await;
    anna.fill("#create-ruleset", "classic").await;
    anna.wait_for("document.querySelector('[data-seat=\"germany\"]') && document.querySelector('#create-bid')", "the form").await;
    assert_eq!(anna.eval("document.querySelector('.bid-details').hidden").await, json!(true), "the bid's fields wait for the choice");
    anna.click("#create-bid").await;
    anna.wait_for("document.querySelector('fieldset.seats').hidden && !document.querySelector('.bid-details').hidden", "the bid's fields instead of the seats").await;
    anna.fill("#create-bid-opponent", "boris").await;
    assert_eq!(anna.eval("document.querySelector('#create-bid-rule').value").await, json!("lower-axis"));
    assert_eq!(anna.eval("document.querySelector('#create-bid-rule').selectedOptions[0].textContent").await, json!("The lower Axis bid plays the Axis"));
    anna.fill("#create-dice", "server").await;
    anna.screenshot(&screenshots().join("bid-lobby.png")).await;
    anna.click("#create-submit").await;
    anna.wait_for("document.querySelector('#game[data-game]') && document.querySelector('#bid[data-stage=\"sealing\"] #bid-seal')", "the game page's bid panel").await;
    no_error(&mut anna).await;
    let id = anna.eval("document.querySelector('#game').dataset.game").await.as_str().expect("a game id").to_string();
    let game = get(&mut anna, &format!("/api/games/{id}")).await["game"].clone();
    assert_eq!(game["status"], json!("open"), "{game}");
    assert_eq!(game["bid"], json!({"rule": "lower-axis", "bidders": ["anna", "boris"]}), "{game}");
    assert_eq!(game["dice"]["mode"], json!("server"), "the form's other options as before: {game}");
    assert!(game["seats"].as_array().expect("seats").iter().all(|s| s["kind"] == "open"), "every seat kept for the bid: {game}");
    // The panel: the rule, both bidders unsealed, no play controls.
    let rule = anna.eval("document.querySelector('#bid-rule').textContent").await;
    assert!(rule.as_str().is_some_and(|r| r.contains("the lower bid plays the Axis")), "{rule}");
    assert_eq!(anna.eval("Array.from(document.querySelectorAll('#bid-bidders li')).map(li => li.dataset.bidder + ':' + li.dataset.sealed)").await, json!(["anna:0", "boris:0"]));
    anna.wait_for("document.body.dataset.ready === '1'", "the page settled").await;
    assert_eq!(anna.eval("document.querySelector('#decision').hidden").await, json!(true), "the bid panel instead of the play controls");
    let kept_text = anna.eval("document.querySelector('#bid-kept').textContent").await;
    assert!(kept_text.as_str().is_some_and(|k| k.contains("a reload does not lose them")), "{kept_text}");

    // Boris (in German) finds the game among his own and opens it.
    sign_in(&mut boris, &server, "boris").await;
    boris.click("#lang-switch").await;
    boris.wait_for(&format!("document.documentElement.lang === 'de' && document.querySelector('#my-games tr[data-game=\"{id}\"]')"), "boris's games in German").await;
    let status = boris.eval(&format!("document.querySelector('#my-games tr[data-game=\"{id}\"] td:nth-child(2)').textContent")).await;
    assert_eq!(status, json!("Gebote um die Seiten"));
    boris.click(&format!("a[data-open-game=\"{id}\"]")).await;
    boris.wait_for("document.querySelector('#bid[data-stage=\"sealing\"] #bid-seal')", "boris's bid panel").await;
    assert_eq!(boris.eval("document.querySelector('#bid-title').textContent").await, json!("Seiten durch verdeckte Gebote"));

    // Anna seals 5: the page keeps the bid and its nonce, and the server
    // keeps the commitment to them.
    seal(&mut anna, "anna", 5).await;
    let anna_bid = kept(&mut anna, &id, "anna").await;
    assert_eq!(anna_bid["ipcs"], json!(5), "{anna_bid}");
    let anna_nonce = anna_bid["nonce"].as_str().expect("a nonce").to_string();
    let round = get(&mut anna, &format!("/api/games/{id}/bid")).await["bid"].clone();
    assert_eq!(round["stage"], json!("sealing"), "{round}");
    assert_eq!(bidder(&round, "anna")["commitment"], json!(commitment(&id, "anna", 5, &anna_nonce)), "the commitment to the kept bid: {round}");
    // A reload keeps it.
    anna.goto(&format!("http://{}/game/{id}", server.addr)).await;
    anna.wait_for("(document.querySelector('#bid-mine') || {dataset: {}}).dataset.ipcs === '5'", "the sealed bid after a reload").await;
    assert_eq!(anna.eval("document.querySelector('#bid-ipcs').value").await, json!("5"));
    anna.screenshot(&screenshots().join("bid-sealed.png")).await;

    // Boris's page finds anna's seal by itself; boris seals 9.
    boris.wait_for("document.querySelector('#bid-bidders li[data-bidder=\"anna\"]').dataset.sealed === '1'", "anna's seal on boris's page").await;
    seal(&mut boris, "boris", 9).await;
    for page in [&mut anna, &mut boris] {
        page.wait_for("document.querySelector('#bid[data-stage=\"revealing\"] #bid-reveal')", "both sealed: the reveal").await;
    }
    assert_eq!(anna.eval("document.querySelector('#bid-reveal').textContent").await, json!("Reveal my bid (5 IPCs)"));

    // Without the kept bid (another browser, cleared storage) the panel says
    // why it cannot reveal; with it back, it can.
    let boris_bid = kept(&mut boris, &id, "boris").await;
    assert_eq!(boris_bid["ipcs"], json!(9), "{boris_bid}");
    boris.eval(&format!("localStorage.removeItem({})", kept_key(&id, "boris"))).await;
    boris.goto(&format!("http://{}/game/{id}", server.addr)).await;
    boris.wait_for("document.querySelector('#bid[data-stage=\"revealing\"] #bid-lost')", "the kept bid missing").await;
    assert_eq!(boris.eval("!!document.querySelector('#bid-reveal')").await, json!(false), "nothing to reveal from");
    let lost = boris.eval("document.querySelector('#bid-lost').textContent").await;
    assert!(lost.as_str().is_some_and(|l| l.contains("in einem anderen Browser versiegelt")), "{lost}");
    set_kept(&mut boris, &id, "boris", &boris_bid).await;
    boris.goto(&format!("http://{}/game/{id}", server.addr)).await;
    boris.wait_for("document.querySelector('#bid[data-stage=\"revealing\"] #bid-reveal')", "the reveal again").await;

    // A tampered kept bid does not open the commitment: refused, in the
    // page's words, and nothing revealed.
    let english = tampered_reveal(&mut anna, &id, "anna", 4).await;
    assert_eq!(english, "anna's revealed bid is not the one sealed");
    let german = tampered_reveal(&mut boris, &id, "boris", 0).await;
    assert_eq!(german, "Das aufgedeckte Gebot ist nicht das versiegelte: Gebot und Geheimzahl öffnen die Verpflichtung nicht.");

    // The true reveals: anna's first, then boris's settles the round.
    anna.click("#bid-reveal").await;
    anna.wait_for("document.querySelector('#bid-bidders li[data-bidder=\"anna\"]').dataset.ipcs === '5' && document.querySelector('#bid-waiting')", "anna's bid revealed").await;
    no_error(&mut anna).await;
    assert_eq!(kept(&mut anna, &id, "anna").await, Value::Null, "a revealed bid is kept no longer");
    boris.wait_for("document.querySelector('#bid-bidders li[data-bidder=\"anna\"]').dataset.ipcs === '5'", "anna's bid on boris's page").await;
    boris.click("#bid-reveal").await;

    // Both pages: the bids and the sides, then the game itself.
    let bank = standard_german_bank() + 5;
    for (page, powers) in [(&mut boris, json!(["russia", "uk", "usa"])), (&mut anna, json!(["germany", "japan"]))] {
        page.wait_for(
            "(r => r && r.dataset.axis === 'anna' && r.dataset.allies === 'boris' && r.dataset.ipcs === '5' && r.dataset.tie === '0')(document.querySelector('#bid[data-stage=\"settled\"] #bid-result'))",
            "the settled round",
        )
        .await;
        assert_eq!(
            page.eval("Array.from(document.querySelectorAll('#bid-bidders li')).map(li => li.dataset.bidder + ':' + li.dataset.ipcs)").await,
            json!(["anna:5", "boris:9"])
        );
        page.wait_for(
            &format!("document.querySelector('#summary').dataset.status === 'playing' && document.body.dataset.ready === '1' && document.querySelector('#summary li[data-bank=\"germany\"] .n').textContent === '{bank}' && document.querySelectorAll('#summary li.mine[data-bank]').length === {}", powers.as_array().expect("a list").len()),
            "the game started, with the bid in Germany's bank",
        )
        .await;
        no_error(page).await;
        assert_eq!(page.eval("Array.from(document.querySelectorAll('#summary li.mine[data-bank]')).map(li => li.dataset.bank)").await, powers);
        assert_eq!(page.eval("document.querySelector('#decision').hidden").await, json!(false), "the play controls are back");
        assert_eq!(page.eval("!!document.querySelector('#bid-seal, #bid-reveal')").await, json!(false), "nothing more to bid");
    }
    let result = anna.eval("document.querySelector('#bid-result').textContent").await;
    assert_eq!(result, json!("anna plays the Axis with 5 extra IPCs; boris plays the Allies."));
    let result = boris.eval("document.querySelector('#bid-result').textContent").await;
    assert_eq!(result, json!("anna spielt die Achsenmächte mit 5 zusätzlichen IPCs; boris spielt die Alliierten."));
    assert_eq!(kept(&mut boris, &id, "boris").await, Value::Null);
    anna.screenshot(&screenshots().join("bid-settled.png")).await;

    // The server agrees: anna holds the Axis, boris the Allies, the game is
    // played, and the round says so.
    let game = get(&mut anna, &format!("/api/games/{id}")).await["game"].clone();
    assert_eq!(game["status"], json!("playing"), "{game}");
    let holders: Value = game["seats"].as_array().expect("seats").iter().map(|s| (s["power"].as_str().unwrap().to_string(), s["account"].clone())).collect::<serde_json::Map<_, _>>().into();
    assert_eq!(holders, json!({"germany": "anna", "japan": "anna", "russia": "boris", "uk": "boris", "usa": "boris"}));
    let round = get(&mut boris, &format!("/api/games/{id}/bid")).await["bid"].clone();
    assert_eq!(round["settled"], json!({"axis": "anna", "allies": "boris", "ipcs": 5, "tie": false}), "{round}");
    server.stop().await;
}
