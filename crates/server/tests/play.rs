//! Whole games through WebSocket with two accounts, on SQLite and (where
//! configured) PostgreSQL: each decision goes to the seat holding the power
//! the rules wait for, the record downloads and replays.

mod common;

use common::{databases, decide, Db, TestServer, Ws};
use serde_json::{json, Value};
use warboard_record::Record;

/// Two accounts at one game: which powers each holds.
struct Players {
    seats: Vec<(Vec<&'static str>, Ws)>,
}

impl Players {
    fn holder(&mut self, power: &str) -> &mut Ws {
        let seat = self.seats.iter_mut().find(|(powers, _)| powers.contains(&power)).unwrap_or_else(|| panic!("nobody holds {power}"));
        &mut seat.1
    }
    fn first(&mut self) -> &mut Ws {
        &mut self.seats[0].1
    }
}


#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scripted_classic_game_with_two_accounts() {
    for db in databases("a_scripted_classic_game_with_two_accounts") {
        classic_game(db).await;
    }
}

async fn classic_game(db: Db) {
    let server = TestServer::start(db).await;
    let (axis, allies) = (server.account("axis").await, server.account("allies").await);
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "account", "name": "allies"}, "uk": {"kind": "account", "name": "allies"}, "usa": {"kind": "account", "name": "allies"},
    });
    let game = server.create(&axis, json!({"ruleset": "classic", "seats": seats})).await;
    let mut players = Players {
        seats: vec![
            (vec!["germany", "japan"], server.ws(&game, Some(&axis)).await),
            (vec!["russia", "uk", "usa"], server.ws(&game, Some(&allies)).await),
        ],
    };
    // What each power does beyond ending its phases: Russia buys, Germany
    // attacks Karelia and fights it round by round.
    let mut script: Vec<(&str, &str, Value)> = vec![
        ("russia", "purchase", json!({"type": "purchase", "units": {"infantry": 2}})),
        ("germany", "purchase", json!({"type": "purchase", "units": {"infantry": 1}})),
        ("germany", "combat_move", json!({"type": "move", "units": [{"type": "infantry", "count": 3}, {"type": "armor", "count": 1}], "route": ["EEU", "LEN"]})),
    ];
    let mut defender_decided = false;
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 2000, "the game moves on");
        let summary = players.first().summary().await;
        if summary["round"] == 2 && summary["turn"] == "germany" {
            break;
        }
        let actor = summary["actor"].as_str().expect("someone acts").to_string();
        let (phase, turn) = (summary["phase"].as_str().unwrap_or("").to_string(), summary["turn"].as_str().unwrap_or("").to_string());
        let decision = summary["decision"].clone();
        let ws = players.holder(&actor);
        let action = if decision["kind"] != "phase" {
            // The defender decides in the attacker's turn, on its own seat.
            if actor != turn {
                defender_decided = true;
            }
            decide(ws, &decision).await
        } else if let Some(i) = script.iter().position(|(p, ph, _)| *p == actor && *ph == phase) {
            script.remove(i).2
        } else if phase == "combat" {
            match summary["battles"].as_array().and_then(|b| b.iter().find(|b| b["result"] == "pending")) {
                Some(b) => json!({"type": "battle", "at": b["at"]}),
                None => json!({"type": "end_phase"}),
            }
        } else {
            json!({"type": "end_phase"})
        };
        let reply = ws.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{actor} in {phase}: {action} → {reply}");
    }
    assert!(script.is_empty(), "every scripted action was taken: {script:?}");
    assert!(defender_decided, "Russia chose its own casualties in Germany's turn");
    // The Allies give up: the game is over, for both seats.
    let reply = players.holder("russia").apply(json!({"type": "surrender", "side": "allies"})).await;
    assert_eq!(reply["reply"], "ok", "{reply}");
    let summary = players.first().summary().await;
    assert_eq!(summary["winner"], "axis", "{summary}");
    let after = players.first().apply(json!({"type": "end_phase"})).await;
    assert_eq!(after["code"], "game/over", "{after}");
    // Every entry reached the other seat as it happened.
    let seq = players.first().request(json!({"cmd": "state"})).await["result"]["seq"].as_i64().expect("seq");
    players.holder("russia").wait_for_seq(seq - 1).await;
    // The entries tell the story in the terminal game's words.
    let told: Vec<String> = players
        .first()
        .pushes
        .iter()
        .flat_map(|p| p["story"].as_array().cloned().unwrap_or_default())
        .filter_map(|l| l["text"].as_str().map(String::from))
        .collect();
    assert!(told.iter().any(|t| t == "russia buys 2 inf for 6 IPCs"), "{told:?}");
    // The record downloads as a save that replays to the same game.
    let (status, text) = server.http_text("GET", &format!("/api/games/{game}/record"), Some(&axis), None).await;
    assert_eq!(status, 200);
    let record = Record::load(&text).unwrap_or_else(|e| panic!("the download replays: {e}"));
    assert_eq!(record.log().len() as i64, seq);
    assert!(record.state().winner.is_some());
    let (status, listed) = server.http("GET", "/api/games?filter=mine", Some(&allies), None).await;
    assert_eq!(status, 200);
    assert_eq!(listed["games"][0]["status"], "over", "{listed}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_alternative_round_with_sealed_shopping() {
    for db in databases("a_full_alternative_round_with_sealed_shopping") {
        alternative_round(db).await;
    }
}

async fn alternative_round(db: Db) {
    let server = TestServer::start(db).await;
    let (axis, allies) = (server.account("axis").await, server.account("allies").await);
    let seats = json!({
        "germany": {"kind": "me"}, "japan": {"kind": "me"},
        "russia": {"kind": "account", "name": "allies"}, "uk": {"kind": "account", "name": "allies"}, "usa": {"kind": "account", "name": "allies"},
    });
    let game = server.create(&axis, json!({"ruleset": "alternative", "seats": seats})).await;
    let mut players = Players {
        seats: vec![
            (vec!["germany", "japan"], server.ws(&game, Some(&axis)).await),
            (vec!["russia", "uk", "usa"], server.ws(&game, Some(&allies)).await),
        ],
    };
    let mut bought = false;
    let mut sealed_seen = false;
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 500, "the round moves on");
        let summary = players.first().summary().await;
        if summary["round"] == 2 {
            break;
        }
        let phase = summary["phase"].as_str().unwrap_or("").to_string();
        let actors: Vec<String> = summary["actors"].as_array().map(|a| a.iter().filter_map(|p| p.as_str().map(String::from)).collect()).unwrap_or_default();
        let actor = actors.first().cloned().or_else(|| summary["actor"].as_str().map(String::from)).expect("someone acts");
        if phase == "shopping" && actor == "germany" && !bought {
            // Germany buys in secret: the Allies' seat is told only that
            // something happened, and sees Germany's points as they were.
            let before = players.holder("russia").summary().await["ipcs"]["germany"].clone();
            let reply = players.holder("germany").apply(json!({"type": "purchase", "units": {"infantry": 2}, "power": "germany"})).await;
            assert_eq!(reply["reply"], "ok", "{reply}");
            let seq = reply["result"]["seq"].as_i64().expect("seq");
            let allies_ws = players.holder("russia");
            allies_ws.wait_for_seq(seq).await;
            let pushed = allies_ws.pushes.iter().find(|p| p["seq"] == json!(seq)).cloned().expect("the entry was pushed");
            assert_eq!(pushed["sealed"], true, "{pushed}");
            assert!(pushed.get("action").is_none() && pushed.get("events").is_none(), "{pushed}");
            assert_eq!(allies_ws.summary().await["ipcs"]["germany"], before, "Germany's spending is hidden");
            let synced = allies_ws.request(json!({"cmd": "sync", "from": seq})).await;
            assert_eq!(synced["result"]["entries"][0]["sealed"], true, "{synced}");
            let mine = players.holder("germany");
            mine.wait_for_seq(seq).await;
            let own = mine.pushes.iter().find(|p| p["seq"] == json!(seq)).cloned().expect("pushed to its own seat");
            assert_eq!(own["action"]["type"], "purchase", "{own}");
            // What was bought is put down, sealed too.
            let reply = mine.apply(json!({"type": "place", "at": "GER", "units": {"infantry": 2}, "power": "germany"})).await;
            assert_eq!(reply["reply"], "ok", "{reply}");
            bought = true;
            sealed_seen = true;
            continue;
        }
        let ws = players.holder(&actor);
        let mut action = json!({"type": "end_phase"});
        if matches!(phase.as_str(), "payday" | "shopping") {
            action["power"] = json!(actor);
        }
        let reply = ws.apply(action.clone()).await;
        assert_eq!(reply["reply"], "ok", "{actor} in {phase}: {action} → {reply}");
    }
    assert!(sealed_seen);
    // Once every nation had shopped, the purchases were shown to all.
    let allies_ws = players.holder("russia");
    let revealed = allies_ws.pushes.iter().find(|p| p["reply"] == "revealed").cloned().expect("a reveal was pushed");
    assert!(revealed["entries"].as_array().is_some_and(|e| e.iter().any(|e| e["action"]["type"] == "purchase")), "{revealed}");
    server.stop().await;
}
