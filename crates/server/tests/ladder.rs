//! The ladder (issue 32): a game with proven dice between accounts is rated
//! when it ends, once; the family's leaderboard is computed from the rated
//! results in order; games with the host's secret seed or a computer seat
//! are not rated. A player's profile and the family's side balance are
//! the numbers `warboard_ladder` gives over the same results.

mod common;

use std::sync::Arc;

use common::ladder::{expected_ladder, surrendered_game, Player};
use common::{databases, Db, TestServer};
use serde_json::{json, Value};
use warboard_ladder::{Family, PlayerId};
use warboard_server::clock::ManualClock;
use warboard_server::store::RatedRow;

const DAY: i64 = 24 * 60 * 60 * 1000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn proven_games_between_players_make_the_leaderboard() {
    for db in databases("proven_games_between_players_make_the_leaderboard") {
        ladder(db).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_and_the_side_balance_are_the_ladders_numbers() {
    for db in databases("a_profile_and_the_side_balance_are_the_ladders_numbers") {
        profile_and_balance(db).await;
    }
}

fn player<'a>(board: &'a Value, name: &str) -> &'a Value {
    board["players"].as_array().and_then(|p| p.iter().find(|p| p["account"] == name)).unwrap_or_else(|| panic!("{name} on {board}"))
}

async fn ladder(db: Db) {
    let server = TestServer::start(db).await;
    let (anna, boris) = (Player::sign_up(&server, "anna").await, Player::sign_up(&server, "boris").await);
    // Two wins for anna, with proven dice of both kinds.
    for dice in ["server", "beacon"] {
        surrendered_game(&server, &anna, &boris, json!({"dice": dice}), "allies").await;
    }
    // Not rated: the host's secret seed; a computer seat.
    surrendered_game(&server, &anna, &boris, json!({"dice": "seeded"}), "allies").await;
    let vs_computer = server
        .create(&anna.token, json!({"ruleset": "classic", "dice": "server", "seats": {"germany": {"kind": "me"}, "japan": {"kind": "me"}, "russia": {"kind": "computer"}, "uk": {"kind": "computer"}, "usa": {"kind": "computer"}}}))
        .await;
    let mut ws = server.ws(&vs_computer, Some(&anna.token)).await;
    assert_eq!(ws.apply(json!({"type": "surrender", "side": "axis"})).await["reply"], "ok");

    let (status, board) = server.http("GET", "/api/ladder/classic", None, None).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["games"], 2, "{board}");
    let (a, b) = (player(&board, "anna"), player(&board, "boris"));
    assert_eq!((a["games"].as_u64(), b["games"].as_u64()), (Some(2), Some(2)), "{board}");
    assert!(a["rating"].as_f64() > Some(1500.0) && b["rating"].as_f64() < Some(1500.0), "{board}");
    assert_eq!(a["provisional"], true, "two games leave a rating provisional: {a}");
    assert_eq!(
        (board["players"][0]["account"].as_str(), board["players"][0]["rank"].as_u64()),
        (Some("anna"), Some(1)),
        "best first: {board}"
    );
    // Boris wins one back: his rating rises, hers falls.
    surrendered_game(&server, &anna, &boris, json!({"dice": "server"}), "axis").await;
    let (_, after) = server.http("GET", "/api/ladder/classic", None, None).await;
    assert_eq!(after["games"], 3, "{after}");
    assert!(player(&after, "boris")["rating"].as_f64() > b["rating"].as_f64(), "{after}");
    assert!(player(&after, "anna")["rating"].as_f64() < a["rating"].as_f64(), "{after}");
    // Each kept with the sides the teams played: the winners' first.
    let rows = server.store.rated("classic").await.expect("rated");
    let plays: Vec<(Option<&str>, Option<&str>)> = rows.iter().map(|r| (r.side_a_plays.as_deref(), r.side_b_plays.as_deref())).collect();
    assert_eq!(plays, [(Some("axis"), Some("allies")), (Some("axis"), Some("allies")), (Some("allies"), Some("axis"))]);
    let (status, other) = server.http("GET", "/api/ladder/europe", None, None).await;
    assert_eq!((status, other["players"].as_array().map(Vec::len)), (200, Some(0)), "{other}");
    let (status, body) = server.http("GET", "/api/ladder/checkers", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("ladder/unknown-family")), "{body}");
    server.stop().await;
}

/// Four rated games among three players over three weeks (so that the
/// days away count), one of them private, and one result kept with a bid
/// (sealed bids are not on the server yet: the store stands in for them).
async fn profile_and_balance(db: Db) {
    let start = 1_750_000_000_000;
    let clock = Arc::new(ManualClock::new(start));
    let server = TestServer::start_clocked(db, clock.clone(), None).await;
    let anna = Player::sign_up(&server, "anna").await;
    let boris = Player::sign_up(&server, "boris").await;
    let carla = Player::sign_up(&server, "carla").await;
    let server_dice = json!({"dice": "server"});
    let g1 = surrendered_game(&server, &anna, &boris, server_dice.clone(), "allies").await;
    clock.advance(DAY);
    let g2 = surrendered_game(&server, &carla, &anna, server_dice.clone(), "axis").await;
    clock.advance(21 * DAY);
    let g3 = surrendered_game(&server, &boris, &carla, json!({"dice": "server", "public": false}), "allies").await;
    clock.advance(DAY);
    let g4 = surrendered_game(&server, &anna, &boris, server_dice.clone(), "axis").await;
    clock.advance(DAY);
    // Seeded dice: not rated by the server; kept here as a rated result with a bid of 12 IPCs.
    let g5 = surrendered_game(&server, &carla, &boris, json!({"dice": "seeded"}), "allies").await;
    let mut ids = std::collections::HashMap::new();
    for p in [&anna, &boris, &carla] {
        ids.insert(p.name.as_str(), account_id(&server, &p.name).await);
    }
    let bid_row = RatedRow {
        game_id: g5.clone(),
        family: "classic".into(),
        ended_at: start + 24 * DAY,
        side_a: vec![ids["carla"].clone()],
        side_b: vec![ids["boris"].clone()],
        outcome: "win".into(),
        how: "surrender".into(),
        side_a_plays: Some("axis".into()),
        side_b_plays: Some("allies".into()),
        bid: Some(12),
    };
    assert!(server.store.add_rated(&bid_row).await.expect("kept"));
    clock.advance(DAY);
    let now = start + 25 * DAY;

    let (rows, ladder) = expected_ladder(&server, "classic").await;
    let order: Vec<&str> = rows.iter().map(|r| r.game_id.as_str()).collect();
    assert_eq!(order, [&g1, &g2, &g3, &g4, &g5], "rated in the order they ended");
    let ended: Vec<i64> = rows.iter().map(|r| r.ended_at).collect();
    assert_eq!(ended, [start, start + DAY, start + 22 * DAY, start + 23 * DAY, start + 24 * DAY], "ended at the server's clock");

    // The leaderboard: warboard_ladder's ratings at now, best first, by name.
    let mut best: Vec<(&str, f64)> =
        ["anna", "boris", "carla"].iter().map(|n| (*n, ladder.rating_at(Family::Classic, &PlayerId(ids[n].clone()), now).value)).collect();
    best.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (status, board) = server.http("GET", "/api/ladder/classic", None, None).await;
    assert_eq!((status, board["games"].as_u64()), (200, Some(5)), "{board}");
    let shown: Vec<(&str, f64)> = board["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| (p["account"].as_str().unwrap_or(""), p["rating"].as_f64().unwrap_or(0.0)))
        .collect();
    assert_eq!(shown, best.iter().map(|(n, r)| (*n, r.round())).collect::<Vec<_>>(), "{board}");

    // Anna's profile: her rating now, and after each of her games.
    let (status, profile) = server.http("GET", "/api/players/ANNA", None, None).await;
    assert_eq!(status, 200, "{profile}");
    assert_eq!(profile["name"], "anna", "names match in any case; the answer has the account's own");
    let families = profile["families"].as_array().expect("families");
    assert_eq!(families.len(), 1, "classic only: {profile}");
    let classic = &families[0];
    let anna_id = PlayerId(ids["anna"].clone());
    let now_rating = ladder.rating_at(Family::Classic, &anna_id, now);
    assert_eq!(classic["family"], "classic");
    assert_eq!(classic["rating"].as_f64(), Some(now_rating.value.round()), "{classic}");
    assert_eq!(classic["deviation"].as_f64(), Some(now_rating.deviation.round()), "{classic}");
    assert_eq!((classic["games"].as_u64(), classic["provisional"].as_bool()), (Some(3), Some(true)), "{classic}");
    let rank = best.iter().position(|(n, _)| *n == "anna").expect("ranked") + 1;
    assert_eq!((classic["rank"].as_u64(), classic["players"].as_u64()), (Some(rank as u64), Some(3)), "{classic}");
    let mut expected_history = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        if row.side_a.contains(&ids["anna"]) || row.side_b.contains(&ids["anna"]) {
            let (_, prefix) = ladder_of(&rows[..=k]);
            let r = prefix.rating(Family::Classic, &anna_id);
            expected_history.push(json!({"game": row.game_id, "ended_at": row.ended_at, "team": false, "rating": r.value.round(), "deviation": r.deviation.round()}));
        }
    }
    assert_eq!(classic["history"], json!(expected_history));
    assert_eq!(classic["history"].as_array().map(Vec::len), Some(3));
    let by_side = json!({"axis": {"wins": 1, "losses": 1, "draws": 0}, "allies": {"wins": 1, "losses": 0, "draws": 0}, "unknown": {"wins": 0, "losses": 0, "draws": 0}});
    assert_eq!(classic["by_side"], by_side);
    assert_eq!(profile["by_side"], by_side, "all families together");
    // Her games, newest first.
    let game = |id: &str, side: &str, opponent: &str, result: &str| {
        json!({"game": id, "family": "classic", "ended_at": rows.iter().find(|r| r.game_id == id).map(|r| r.ended_at), "side": side,
               "partners": [], "opponents": [opponent], "result": result, "how": "surrender", "bid": null,
               "record": format!("/api/games/{id}/record"), "replay": format!("/game/{id}/replay")})
    };
    assert_eq!(
        profile["games"],
        json!([game(&g4, "axis", "boris", "loss"), game(&g2, "allies", "carla", "win"), game(&g1, "axis", "boris", "win")])
    );

    // Carla's private game with boris: its links for its players only.
    let (_, carla_seen) = server.http("GET", "/api/players/carla", None, None).await;
    let private = |p: &Value| p["games"].as_array().and_then(|g| g.iter().find(|g| g["game"] == json!(g3))).cloned().expect("g3");
    let g3_anonymous = private(&carla_seen);
    assert_eq!((g3_anonymous["record"].clone(), g3_anonymous["replay"].clone()), (Value::Null, Value::Null), "{g3_anonymous}");
    assert_eq!((g3_anonymous["side"].as_str(), g3_anonymous["result"].as_str()), (Some("allies"), Some("loss")));
    let (_, by_boris) = server.http("GET", "/api/players/carla", Some(&boris.token), None).await;
    assert_eq!(private(&by_boris)["record"], json!(format!("/api/games/{g3}/record")));
    let (_, by_anna) = server.http("GET", "/api/players/carla", Some(&anna.token), None).await;
    assert_eq!(private(&by_anna)["record"], Value::Null, "anna did not play it");
    let (status, _) = server.http_text("GET", &format!("/api/games/{g3}/record"), Some(&anna.token), None).await;
    assert_eq!(status, 404, "nor may she download it");
    let (_, record) = server.http_text("GET", &format!("/api/games/{g1}/record"), None, None).await;
    assert!(record.contains("surrender"), "a public game's record downloads for anyone");
    // With the bid game: carla as axis won it.
    assert_eq!(carla_seen["families"][0]["by_side"]["axis"], json!({"wins": 1, "losses": 1, "draws": 0}));
    assert_eq!(private(&carla_seen)["bid"], Value::Null);
    let bid_game = carla_seen["games"][0].clone();
    assert_eq!((bid_game["game"].as_str(), bid_game["bid"].as_i64()), (Some(g5.as_str()), Some(12)), "{carla_seen}");

    // Side balance: g1, g3 and g5 the Axis's, g2 and g4 the Allies'.
    let (status, balance) = server.http("GET", "/api/ladder/classic/balance", None, None).await;
    assert_eq!(status, 200, "{balance}");
    let tally = |games: u64, axis: u64, allies: u64| {
        let rate = |n: u64| json!(n as f64 / games as f64);
        json!({"games": games, "axis_wins": axis, "allies_wins": allies, "draws": 0, "axis_win_rate": rate(axis), "allies_win_rate": rate(allies), "draw_rate": rate(0)})
    };
    let mut expected = tally(5, 3, 2);
    expected["family"] = json!("classic");
    expected["unknown_sides"] = json!(0);
    let (mut no_bid, mut twelve) = (tally(4, 2, 2), tally(1, 1, 0));
    no_bid["bid"] = Value::Null;
    twelve["bid"] = json!(12);
    expected["by_bid"] = json!([no_bid, twelve]);
    assert_eq!(balance, expected);
    let (_, empty) = server.http("GET", "/api/ladder/europe/balance", None, None).await;
    assert_eq!(
        (empty["games"].as_u64(), empty["axis_win_rate"].clone(), empty["by_bid"].clone()),
        (Some(0), Value::Null, json!([])),
        "{empty}"
    );

    // Refusals with their codes.
    let (status, body) = server.http("GET", "/api/players/nobody", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("ladder/unknown-player")), "{body}");
    let (status, body) = server.http("GET", "/api/ladder/checkers/balance", None, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("ladder/unknown-family")), "{body}");
    // A player without rated games has an empty profile.
    Player::sign_up(&server, "dora").await;
    let (status, dora) = server.http("GET", "/api/players/dora", None, None).await;
    assert_eq!((status, dora["families"].clone(), dora["games"].clone()), (200, json!([]), json!([])), "{dora}");
    server.stop().await;
}

fn ladder_of(rows: &[RatedRow]) -> (Vec<warboard_ladder::RatedResult>, warboard_ladder::Ladder) {
    let results: Vec<_> = rows.iter().map(common::ladder::result_of).collect();
    let ladder = warboard_ladder::Ladder::from_results(&results).expect("the results rate");
    (results, ladder)
}

async fn account_id(server: &TestServer, name: &str) -> String {
    server.store.account_by_name(name).await.expect("the account is read").expect("the account").id
}
