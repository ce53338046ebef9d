//! `warboard engine` as a separate process, the way a UI drives it: a full
//! round of the standard classic game (all five powers, every phase, a
//! purchase, a combat move, a battle, placement), a save, and a second
//! engine that loads the save and stands where the first one did.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// An engine process and the replies it has written.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// Every `event` line of the session, in order.
    events: Vec<Value>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warboard"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start warboard engine");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut engine = Engine { child, input, output, events: Vec::new() };
        let hello = engine.line();
        assert_eq!(hello["reply"], "hello", "{hello}");
        assert_eq!(hello["protocol"], 1);
        engine
    }

    fn line(&mut self) -> Value {
        let mut text = String::new();
        let n = self.output.read_line(&mut text).expect("read a reply");
        assert!(n > 0, "the engine closed its output");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("a reply line is not JSON ({e}): {text}"))
    }

    /// Sends a raw line; returns the final `ok`/`error` reply, collecting
    /// the events before it.
    fn send_raw(&mut self, line: &str) -> Value {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        loop {
            let reply = self.line();
            match reply["reply"].as_str() {
                Some("event") => self.events.push(reply["event"].clone()),
                Some("ok") | Some("error") => return reply,
                _ => panic!("unexpected reply {reply}"),
            }
        }
    }

    /// Sends a request that must succeed; returns its result.
    fn ok(&mut self, request: Value) -> Value {
        let reply = self.send_raw(&request.to_string());
        assert_eq!(reply["reply"], "ok", "{request} failed: {reply}");
        reply["result"].clone()
    }

    fn summary(&mut self) -> Value {
        self.ok(json!({"cmd": "state"}))["summary"].clone()
    }

    /// Applies an action at the current seq; returns the new summary.
    fn act(&mut self, action: Value) -> Value {
        let seq = self.summary()["seq"].clone();
        self.ok(json!({"cmd": "apply", "action": action, "seq": seq}))["summary"].clone()
    }

    /// Ends the phase and checks where the game went.
    fn end_phase(&mut self, turn: &str, phase: &str) {
        let s = self.act(json!({"type": "end_phase"}));
        assert_eq!((s["turn"].as_str(), s["phase"].as_str()), (Some(turn), Some(phase)), "{s}");
    }

    /// Fights every battle of the combat phase: `battle`, then each decision
    /// answered from `legal` (the default casualties, pressing on).
    fn fight_battles(&mut self) {
        loop {
            let s = self.summary();
            match s["decision"]["kind"].as_str().unwrap() {
                "casualties" => {
                    let legal = self.ok(json!({"cmd": "legal"}));
                    let item = &legal["items"][0];
                    assert_eq!(item["type"], "casualties", "{legal}");
                    self.act(json!({"type": "casualties", "units": item["default"]}));
                }
                "press_or_retreat" | "attacker_submarines" | "defender_submarines" => {
                    self.act(json!({"type": "continue"}));
                }
                "phase" => {
                    let pending = s["battles"].as_array().unwrap().iter().find(|b| b["result"] == "pending").cloned();
                    match pending {
                        Some(b) => {
                            self.act(json!({"type": "battle", "at": b["at"]}));
                        }
                        None => return,
                    }
                }
                other => panic!("unexpected decision {other}: {s}"),
            }
        }
    }

    /// A passive turn with one purchase and its placement.
    fn buy_and_place(&mut self, power: &str, next: &str, unit: &str, at: &str) {
        self.end_phase(power, "purchase");
        self.act(json!({"type": "purchase", "units": {unit: 1}}));
        self.end_phase(power, "combat_move");
        self.end_phase(power, "combat");
        self.fight_battles();
        self.end_phase(power, "noncombat_move");
        self.end_phase(power, "place");
        self.act(json!({"type": "place", "at": at, "units": {unit: 1}}));
        self.end_phase(power, "income");
        self.end_phase(next, "research");
    }

    fn quit(mut self) {
        let reply = self.send_raw(r#"{"cmd": "quit"}"#);
        assert_eq!(reply["reply"], "ok");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warboard-engine-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Units of one owner and type at a space, in a full `state` position.
fn count(position: &Value, at: &str, owner: &str, kind: &str) -> usize {
    position["units"].as_array().unwrap().iter().filter(|u| u["at"] == at && u["owner"] == owner && u["type"] == kind).count()
}

fn play_full_round(engine: &mut Engine) {
    let started = engine.ok(json!({"cmd": "new", "ruleset": "classic", "seed": 2024, "dice": "seeded"}));
    assert_eq!(started["seed"], 2024);
    assert_eq!(started["summary"]["turn"], "russia");

    // Russia: buys, attacks Ukraine, fights, moves, places.
    engine.end_phase("russia", "purchase");
    let s = engine.act(json!({"type": "purchase", "units": {"infantry": 2}}));
    assert_eq!(s["ipcs"]["russia"], 18);
    engine.end_phase("russia", "combat_move");
    engine.act(json!({"type": "move", "units": [{"type": "infantry", "count": 3}], "route": ["CAU", "UKR"]}));
    engine.act(json!({"type": "move", "units": [{"type": "armor"}], "route": ["LEN", "UKR"]}));
    engine.act(json!({"type": "move", "units": [{"type": "armor", "count": 2}], "route": ["MOS", "CAU", "UKR"]}));
    engine.end_phase("russia", "combat");
    let s = engine.summary();
    assert!(s["battles"].as_array().unwrap().iter().any(|b| b["at"] == "UKR"), "{s}");
    engine.fight_battles();
    let s = engine.summary();
    let ukraine = s["battles"].as_array().unwrap().iter().find(|b| b["at"] == "UKR").unwrap().clone();
    assert!(["attacker_won", "defender_won", "draw", "retreated"].contains(&ukraine["result"].as_str().unwrap()), "{ukraine}");
    engine.end_phase("russia", "noncombat_move");
    engine.act(json!({"type": "move", "units": [{"type": "infantry"}], "route": ["MOS", "CAU"]}));
    engine.end_phase("russia", "place");
    engine.act(json!({"type": "place", "at": "MOS", "units": {"infantry": 2}}));
    engine.end_phase("russia", "income");
    engine.end_phase("germany", "research");

    engine.buy_and_place("germany", "uk", "armor", "GER");
    engine.buy_and_place("uk", "japan", "infantry", "GBR");
    engine.buy_and_place("japan", "usa", "infantry", "JPN");
    engine.buy_and_place("usa", "russia", "infantry", "EUS");
}

#[test]
fn a_full_round_through_the_engine_then_save_and_load() {
    let mut engine = Engine::start();
    play_full_round(&mut engine);

    let s = engine.summary();
    assert_eq!((s["round"].as_i64(), s["turn"].as_str(), s["phase"].as_str()), (Some(2), Some("russia"), Some("research")), "{s}");
    assert_eq!(s["winner"], Value::Null);
    let full = engine.ok(json!({"cmd": "state", "full": true}));
    let position = &full["position"];
    assert_eq!(count(position, "MOS", "russia", "infantry"), 4 - 1 + 2);
    assert_eq!(count(position, "CAU", "russia", "infantry"), 5 - 3 + 1);
    assert_eq!(count(position, "GER", "germany", "armor"), 3);
    assert_eq!(count(position, "GBR", "uk", "infantry"), 3);
    assert_eq!(count(position, "JPN", "japan", "infantry"), 4);
    assert_eq!(count(position, "EUS", "usa", "infantry"), 3);

    // The events a UI would have seen, streamed as they happened.
    let kinds = |k: &str| engine.events.iter().filter(|e| e["event"] == k).count();
    assert_eq!(kinds("purchased"), 5);
    assert_eq!(kinds("placed"), 5);
    assert_eq!(kinds("income"), 5);
    assert!(kinds("moved") >= 4);
    assert!(kinds("rolled") >= 2, "the battle rolled dice");
    assert!(kinds("battle_ended") >= 1);
    let incomes: Vec<&Value> = engine.events.iter().filter(|e| e["event"] == "income").collect();
    assert_eq!(incomes[0]["power"], "russia");
    let russia_income = incomes[0]["amount"].as_i64().unwrap();
    assert_eq!(s["ipcs"]["russia"].as_i64(), Some(18 + russia_income));

    let path = temp_path("full-round.json");
    let saved = engine.ok(json!({"cmd": "save", "path": path}));
    assert!(saved["actions"].as_u64().unwrap() > 50, "{saved}");
    engine.quit();

    // A second engine loads the save and stands exactly where the first did.
    let mut again = Engine::start();
    let loaded = again.ok(json!({"cmd": "load", "path": path}));
    assert_eq!(loaded["summary"], s);
    assert_eq!(again.ok(json!({"cmd": "state", "full": true})), full);
    let resaved = temp_path("full-round-again.json");
    let saved_again = again.ok(json!({"cmd": "save", "path": resaved}));
    assert_eq!(saved_again["hash"], saved["hash"]);
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&resaved).unwrap(), "save → load → save is byte-identical");
    again.quit();
}

#[test]
fn bad_lines_never_stop_or_change_the_engine() {
    let mut engine = Engine::start();
    engine.ok(json!({"cmd": "new", "seed": 1}));
    let before = engine.ok(json!({"cmd": "state", "full": true}));
    for (line, code) in [
        ("not json at all", "protocol/not-json"),
        ("[1, 2, 3]", "protocol/not-an-object"),
        (r#"{"id": 5}"#, "protocol/missing-field"),
        (r#"{"cmd": "fly"}"#, "protocol/unknown-command"),
        (r#"{"cmd": "apply"}"#, "protocol/missing-field"),
        (r#"{"cmd": "apply", "action": {"type": "teleport"}}"#, "action/malformed"),
        (r#"{"cmd": "apply", "action": {"type": "purchase", "units": {"infantry": 2}}}"#, "purchase/wrong-phase"),
        (r#"{"cmd": "apply", "action": {"type": "end_phase"}, "seq": 99}"#, "game/stale-seq"),
        (r#"{"cmd": "apply", "action": {"type": "purchase", "units": {"infantry": 9999999999}}}"#, "action/malformed"),
        (r#"{"cmd": "dice", "values": [3]}"#, "dice/not-client"),
        (r#"{"cmd": "undo"}"#, "undo/nothing"),
        (r#"{"cmd": "load", "path": "/nonexistent/save.json"}"#, "save/unreadable"),
        (r#"{"cmd": "new", "ruleset": "chess"}"#, "start/unknown-ruleset"),
        (r#"{"cmd": "new", "options": {"nuclear_weapons": true}}"#, "start/bad-option"),
        (r#"{"cmd": "new", "powers": ["france"]}"#, "start/unknown-power"),
        // Issue 34: lines of other Unicode whitespace are answered, not
        // skipped in silence; only JSON's own whitespace is an empty line.
        ("\u{a0}", "protocol/not-json"),
        ("\u{2028}", "protocol/not-json"),
        (" \u{3000} ", "protocol/not-json"),
        (r#"{"cmd": "new", "ruleset": "anniversary"}"#, "start/unknown-ruleset"),
        (r#"{"cmd": "new", "ruleset": "anniversary-1941", "options": {"victory_cities": 19}}"#, "start/bad-option"),
        (r#"{"cmd": "new", "ruleset": "anniversary-1941", "options": {"victory_cities": 0}}"#, "start/bad-option"),
        (r#"{"cmd": "new", "ruleset": "alternative", "options": {"teams": {"a": ["germany", "uk"], "b": ["germany"]}}}"#, "start/bad-option"),
    ] {
        let reply = engine.send_raw(line);
        assert_eq!(reply["reply"], "error", "{line}: {reply}");
        assert_eq!(reply["code"], code, "{line}: {reply}");
    }
    // A line with an id gets it back, even when it is wrong.
    let reply = engine.send_raw(r#"{"cmd": "fly", "id": "x1"}"#);
    assert_eq!(reply["id"], "x1");
    assert_eq!(engine.ok(json!({"cmd": "state", "full": true})), before, "the failed requests changed nothing");
    engine.quit();
}

#[test]
fn the_engine_ends_at_the_end_of_input() {
    let mut child =
        Command::new(env!("CARGO_BIN_EXE_warboard")).arg("engine").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"{\"cmd\": \"new\", \"seed\": 3}\n\n\xff\xfe\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "hello, ok for new, error for the bad bytes: {lines:?}");
    assert_eq!(lines[2]["code"], "protocol/not-utf8");
}

#[test]
fn client_dice_and_engine_played_powers() {
    // The client plays Russia alone, with its own dice; the engine plays
    // the rest passively, and chooses Germany's losses in Russia's attack.
    let mut engine = Engine::start();
    engine.ok(json!({"cmd": "new", "dice": "client", "powers": ["russia"]}));
    engine.end_phase("russia", "purchase");
    engine.end_phase("russia", "combat_move");
    engine.act(json!({"type": "move", "units": [{"type": "infantry", "count": 5}], "route": ["CAU", "UKR"]}));
    engine.end_phase("russia", "combat");
    let reply = engine.send_raw(&json!({"cmd": "apply", "action": {"type": "battle", "at": "UKR"}}).to_string());
    assert_eq!(reply["code"], "dice/needed", "{reply}");
    // Every attacking die hits, every defending die misses.
    engine.ok(json!({"cmd": "dice", "values": [1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6]}));
    engine.act(json!({"type": "battle", "at": "UKR"}));
    assert!(
        engine.events.iter().any(|e| e["event"] == "engine_action" && e["power"] == "germany"),
        "the engine chose Germany's casualties"
    );
    assert!(engine.events.iter().any(|e| e["event"] == "rolled" && e["dice"] == json!([1, 1, 1, 1, 1])));
    let s = engine.summary();
    assert_eq!(s["client_powers"], json!(["russia"]));
    engine.quit();
}
