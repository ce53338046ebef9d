//! The case reader is strict and speaks FORMAT v2 (shared/conformance/
//! FORMAT.md, "Additions in v2"): unknown fields, and v2 fields the case's
//! ruleset does not have, make a case fail to load, naming the field; the
//! v2 parts classic has (`power`, `tech`, `to_place`, `income_detail`,
//! `decline`) are read and judged.

use serde_json::{json, Value};

/// A classic case on the empty map, Germany to act in `phase` in round 2.
fn case(phase: &str, state: Value, steps: Value) -> Value {
    let mut full = json!({"round": 2, "turn": "germany", "phase": phase});
    full.as_object_mut().unwrap().extend(state.as_object().unwrap().clone());
    json!({"id": "strict-reader", "source": "test", "ruleset": "classic", "setup": "empty", "state": full, "steps": steps})
}

/// The case's failure, `None` when it passes.
fn run(case: &Value) -> Option<String> {
    warboard_conform::run_case_text(&case.to_string()).1
}

fn passes(case: &Value) {
    assert_eq!(run(case), None, "case: {case}");
}

/// The case fails to load, with a message containing `needle`.
fn unloadable(case: &Value, needle: &str) {
    let failure = run(case).unwrap_or_else(|| panic!("expected a load failure naming {needle}, but it passed: {case}"));
    assert!(failure.starts_with("cannot be loaded: "), "not a load failure: {failure}");
    assert!(failure.contains(needle), "`{failure}` does not name {needle}");
}

fn end_phase() -> Value {
    json!({"action": {"type": "end_phase"}, "check": {"phase": "combat_move"}})
}

#[test]
fn an_unknown_top_level_field_names_it() {
    let good = case("purchase", json!({}), json!([end_phase()]));
    passes(&good);
    let mut bad = good.clone();
    bad["stat"] = json!({});
    unloadable(&bad, "the case has no field `stat`");
}

#[test]
fn an_unknown_action_field_names_it_and_the_step() {
    let step = |route_key: &str| {
        let mut action = json!({"type": "move", "units": [{"type": "infantry"}]});
        action[route_key] = json!(["GER", "EEU"]);
        json!({"action": action, "check": {"units": {"EEU": {"germany": {"infantry": 1}}}}})
    };
    let units = json!({"units": [{"at": "GER", "owner": "germany", "type": "infantry"}]});
    passes(&case("noncombat_move", units.clone(), json!([step("route")])));
    unloadable(&case("noncombat_move", units, json!([end_phase(), step("rout")])), "step 2: action `move` has no field `rout`");
}

#[test]
fn unknown_fields_are_named_everywhere_in_a_case() {
    let unit = json!({"at": "SZ5", "owner": "germany", "type": "transport", "cargo": [{"owner": "germany", "type": "infantry", "hp": 1}]});
    unloadable(&case("purchase", json!({"units": [unit]}), json!([end_phase()])), "state.units[1].cargo[1] has no field `hp`");
    unloadable(&case("purchase", json!({"bank": {}}), json!([end_phase()])), "state has no field `bank`");
    let selector = json!({"action": {"type": "move", "units": [{"kind": "infantry"}], "route": ["GER", "EEU"]}});
    unloadable(&case("combat_move", json!({}), json!([selector])), "step 1: action `move`: units[1] has no field `kind`");
    unloadable(&case("purchase", json!({}), json!([{"action": {"type": "end_phase"}, "chek": {}}])), "step 1 has no field `chek`");
    unloadable(&case("purchase", json!({}), json!([{"action": {"type": "end_turn"}}])), "step 1: unknown action type `end_turn`");
    let nested = json!({"check": {"illegal": [{"type": "purchase", "unit": {"infantry": 1}}]}});
    unloadable(&case("purchase", json!({}), json!([nested])), "step 1: check `illegal`[1]: action `purchase` has no field `unit`");
}

#[test]
fn an_unknown_check_names_it() {
    let step = |name: &str| json!({"action": {"type": "end_phase"}, "check": {name: null}});
    passes(&case("purchase", json!({}), json!([step("winner")])));
    unloadable(&case("purchase", json!({}), json!([step("wineer")])), "step 1: check has no field `wineer`");
}

#[test]
fn v2_fields_classic_does_not_have_are_named() {
    let not_classic = |name: &str| format!("`{name}` is not part of the classic ruleset");
    let state = |extra: Value| case("purchase", extra, json!([end_phase()]));
    unloadable(&state(json!({"researchers": {"germany": 1}})), &not_classic("researchers"));
    unloadable(&state(json!({"unplaced": {"germany": {"infantry": 1}}})), &not_classic("unplaced"));
    unloadable(&state(json!({"eliminated": []})), &not_classic("eliminated"));
    let tank = json!({"at": "GER", "owner": "germany", "type": "armor", "controller": "japan"});
    unloadable(&state(json!({"units": [tank]})), &format!("state.units[1]: {}", not_classic("controller")));

    let action = |a: Value| case("combat_move", json!({}), json!([{"action": a}]));
    let escort = json!({"type": "move", "units": [{"type": "fighter"}], "route": ["GER", "EEU"], "escort": true});
    unloadable(&action(escort), &format!("step 1: action `move`: {}", not_classic("escort")));
    // Classic has `chart` (one chart, as the shared checker allows) and
    // `submerged` units (the shared checker allows them too).
    let chart_two = run(&action(json!({"type": "research", "dice": 1, "chart": 2}))).expect("chart 2 fails");
    assert!(chart_two.contains("cannot be loaded") && chart_two.contains("one research chart"), "{chart_two}");
    let sub = json!({"at": "BAL", "owner": "germany", "type": "submarine", "submerged": true});
    passes(&case("combat_move", json!({"units": [sub]}), json!([{"check": {"units": {"BAL": {"germany": {"submarine": 1}}}}}])));
    let not_a_sub = json!({"at": "BAL", "owner": "germany", "type": "transport", "submerged": true});
    unloadable(&state(json!({"units": [not_a_sub]})), "only a submarine is `submerged`");
    unloadable(&action(json!({"type": "repair", "at": "GER", "count": 1})), &format!("step 1: action {}", not_classic("repair")));
    unloadable(&action(json!({"type": "reclaim", "at": "GER", "units": []})), &not_classic("reclaim"));

    let check = |c: Value| case("purchase", json!({}), json!([{"check": c}]));
    unloadable(&check(json!({"researchers": {"germany": 0}})), &format!("step 1: check: {}", not_classic("researchers")));
    unloadable(&check(json!({"next_placer": null})), &not_classic("next_placer"));
    unloadable(&check(json!({"income_detail": {"uk": {"convoys": 0}}})), &not_classic("convoys"));
}

#[test]
fn power_must_be_the_power_that_may_act_now() {
    let buy = |power: &str, expect: &str| {
        json!({"action": {"type": "purchase", "power": power, "units": {"infantry": 1}}, "expect": expect})
    };
    let ipcs = json!({"ipcs": {"germany": 3, "japan": 3}});
    passes(&case("purchase", ipcs.clone(), json!([buy("japan", "illegal"), buy("germany", "ok")])));
    let failure = run(&case("purchase", ipcs.clone(), json!([buy("japan", "ok")]))).expect("japan may not buy in germany's turn");
    assert!(failure.contains("[action/not-your-turn] it is germany's turn, not japan's"), "{failure}");
    unloadable(&case("purchase", ipcs, json!([buy("italy", "ok")])), "step 1: action `purchase`: unknown power `italy`");
}

#[test]
fn a_battle_decision_may_name_any_power_of_the_side_asked() {
    // The German battleship hits (die 1): the US chooses its loss between
    // its carrier and a fighter, a real choice, so the battle waits for the
    // Allies.
    let units = json!({"units": [
        {"at": "NOR", "owner": "germany", "type": "battleship"},
        {"at": "LAB", "owner": "usa", "type": "aircraft_carrier", "id": "us-cv"},
        {"at": "LAB", "owner": "usa", "type": "fighter", "count": 2}
    ]});
    let loss = |power: &str| json!({"type": "casualties", "power": power, "units": [{"id": "us-cv"}]});
    let steps = json!([
        {"action": {"type": "move", "units": [{"type": "battleship"}], "route": ["NOR", "LAB"]}},
        {"action": {"type": "end_phase"}},
        {"action": {"type": "battle", "at": "LAB"},
         "check": {"legal": [loss("usa"), loss("uk")], "illegal": [loss("germany"), loss("japan")]}}
    ]);
    let mut c = case("combat_move", units, steps);
    c["dice"] = json!([1, 1, 6, 6]);
    passes(&c);
    // The check can fail: Germany is not on the side asked.
    c["steps"][2]["check"] = json!({"legal": [loss("germany")]});
    let failure = run(&c).expect("germany chooses no American losses");
    assert!(failure.contains("the battle at LAB waits for usa or an ally, not germany"), "{failure}");
}

#[test]
fn decline_is_continue_in_classic() {
    // DAAK 4.2(b): after round 1 the attacker's subs decide first. Declining
    // spends the attacker's choice, so the German sub may no longer withdraw
    // and the British sub now may.
    let units = json!({"units": [
        {"at": "BAL", "owner": "germany", "type": "submarine", "id": "ge-sub"},
        {"at": "BAL", "owner": "germany", "type": "battleship"},
        {"at": "NOR", "owner": "uk", "type": "submarine", "id": "uk-sub"},
        {"at": "NOR", "owner": "uk", "type": "battleship"}
    ]});
    let withdraw = |id: &str, to: &str| json!({"type": "submerge", "units": [{"id": id}], "to": to});
    let decide = |after: Value| {
        json!([
            {"action": {"type": "move", "units": [{"type": "submarine"}, {"type": "battleship"}], "route": ["BAL", "NOR"]}},
            {"action": {"type": "end_phase"}},
            {"action": {"type": "battle", "at": "NOR"}, "check": {"legal": [withdraw("ge-sub", "BAL")]}},
            after
        ])
    };
    let declined = json!({"action": {"type": "decline", "power": "germany"},
                          "check": {"illegal": [withdraw("ge-sub", "BAL")], "legal": [withdraw("uk-sub", "LAB")]}});
    let mut c = case("combat_move", units, decide(declined));
    c["dice"] = json!("miss");
    passes(&c);
    // Without the decline the German sub still may withdraw.
    c["steps"] = decide(json!({"check": {"illegal": [withdraw("ge-sub", "BAL")]}}));
    assert!(run(&c).is_some(), "the attacker's choice is open until it is spent");
}

#[test]
fn tech_in_state_is_what_check_tech_sees() {
    let steps = |tech: Value| json!([{"check": {"tech": {"germany": tech, "japan": []}}}]);
    let state = json!({"tech": {"germany": ["rockets", "jet_fighters"]}});
    // Compared as a set: order does not matter.
    passes(&case("purchase", state.clone(), steps(json!(["jet_fighters", "rockets"]))));
    let failure = run(&case("purchase", state.clone(), steps(json!(["jet_fighters"])))).expect("germany also has rockets");
    assert!(failure.contains("tech of germany: expected jet_fighters, found jet_fighters, rockets"), "{failure}");
    unloadable(&case("purchase", state.clone(), steps(json!(["radar"]))), "unknown development `radar`");
    unloadable(&case("purchase", json!({"tech": {"germany": ["jets"]}}), steps(json!([]))), "tech of germany: unknown development `jets`");
}

#[test]
fn to_place_counts_what_was_bought_and_not_placed() {
    let after = |want: Value| {
        json!([
            {"check": {"to_place": {"germany": {}}}},
            {"action": {"type": "purchase", "units": {"infantry": 2}}, "check": {"to_place": want}}
        ])
    };
    let state = json!({"ipcs": {"germany": 6}});
    passes(&case("purchase", state.clone(), after(json!({"germany": {"infantry": 2}, "japan": {}}))));
    let failure = run(&case("purchase", state, after(json!({"germany": {}})))).expect("two infantry wait to be placed");
    assert!(failure.contains("to_place of germany: expected none, found 2 infantry"), "{failure}");
}

#[test]
fn income_detail_territories_is_classic_income() {
    // On the empty map Germany holds its original territories, worth 32.
    let detail = |territories: i64| {
        json!([{"check": {"income": {"germany": 32}, "income_detail": {"germany": {"territories": territories, "objectives": 0}}}}])
    };
    passes(&case("purchase", json!({}), detail(32)));
    let failure = run(&case("purchase", json!({}), detail(31))).expect("territories are worth 32");
    assert!(failure.contains("income_detail of germany: territories: expected 31, found 32"), "{failure}");
}

#[test]
fn cargo_must_fit_the_unit_tables_cargo_model() {
    let aboard = |carrier: &str, cargo: &str| {
        json!({"units": [{"at": "NOR", "owner": "germany", "type": carrier, "cargo": [{"owner": "germany", "type": cargo}]}]})
    };
    let steps = json!([{"check": {"phase": "combat_move"}}]);
    passes(&case("combat_move", aboard("transport", "armor"), steps.clone()));
    unloadable(&case("combat_move", aboard("transport", "battleship"), steps.clone()), "`transport` cannot carry `battleship`");
    unloadable(&case("combat_move", aboard("aircraft_carrier", "industrial_complex"), steps.clone()), "cannot carry `industrial_complex`");
    unloadable(&case("combat_move", aboard("transport", "bomber"), steps.clone()), "cannot carry `bomber`");
    unloadable(&case("combat_move", aboard("battleship", "infantry"), steps), "carries no cargo");
}
