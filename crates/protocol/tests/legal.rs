//! `legal`: every item it lists is accepted by the rules, at every kind of
//! decision of a game played for a round; paging covers the whole list.

use serde_json::{json, Value};
use warboard_protocol::{legal_page, MAX_LIMIT};
use warboard_record::{ApplyError, DiceMode, Origin, Record, Start};

/// The actions an item stands for (a compact item stands for several),
/// each naming the item's `power` where it names one.
fn actions_of(item: &Value) -> Vec<Value> {
    let mut actions = actions_without_power(item);
    if let Some(p) = item.get("power") {
        for a in &mut actions {
            a["power"] = p.clone();
        }
    }
    actions
}

fn actions_without_power(item: &Value) -> Vec<Value> {
    match item["type"].as_str().unwrap() {
        "purchase" => vec![json!({"type": "purchase", "units": {item["unit"].as_str().unwrap(): item["max"]}})],
        "research" => {
            // Anniversary items name their chart, and may allow no dice.
            let mut dice = vec![item["max_dice"].clone()];
            if item.get("min_dice").is_some() {
                dice.push(item["min_dice"].clone());
            }
            dice.into_iter()
                .map(|n| match item.get("chart") {
                    Some(c) => json!({"type": "research", "dice": n, "chart": c}),
                    None => json!({"type": "research", "dice": n}),
                })
                .collect()
        }
        "repair" => vec![json!({"type": "repair", "at": item["at"], "count": item["max"]})],
        "move" => item["routes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|route| json!({"type": "move", "units": [{"type": item["unit"]}], "route": route}))
            .collect(),
        "place" => item["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| json!({"type": "place", "at": item["at"], "units": {t.as_str().unwrap(): 1}}))
            .collect(),
        "casualties" => vec![json!({"type": "casualties", "units": item["default"]})],
        _ => vec![item.clone()],
    }
}

fn all_items(record: &Record) -> Vec<Value> {
    let page = legal_page(record, 0, Some(MAX_LIMIT));
    assert!(page.total <= MAX_LIMIT, "one page holds them all in these positions");
    page.items
}

/// Every action of every item is accepted.
fn check_all_legal(record: &Record) -> usize {
    let mut n = 0;
    for item in all_items(record) {
        for action in actions_of(&item) {
            let mut copy = record.clone();
            match copy.apply(&action, Origin::Client) {
                // With client dice, running out is not a rejection.
                Ok(_) | Err(ApplyError::NeedDice { .. }) => {}
                Err(e) => panic!("legal lists {action}, but it is rejected: {e} ({})", e.code()),
            }
            n += 1;
        }
    }
    n
}

fn apply(record: &mut Record, action: Value) {
    record.apply(&action, Origin::Client).unwrap_or_else(|e| panic!("{action}: {e}"));
}

#[test]
fn every_listed_action_is_legal_through_a_turn() {
    let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 9 })).unwrap();
    // research: only end_phase (weapons development is off)
    assert_eq!(all_items(&record), vec![json!({"type": "end_phase"})]);
    apply(&mut record, json!({"type": "end_phase"}));
    // purchase
    let items = all_items(&record);
    assert!(items.contains(&json!({"type": "purchase", "unit": "infantry", "cost": 3, "max": 8})), "{items:?}");
    check_all_legal(&record);
    apply(&mut record, json!({"type": "purchase", "units": {"infantry": 3, "armor": 1}}));
    apply(&mut record, json!({"type": "end_phase"}));
    // combat move: every route of every stack
    let items = all_items(&record);
    let cau = items.iter().find(|i| i["type"] == "move" && i["from"] == "CAU" && i["unit"] == "infantry").unwrap();
    assert!(cau["routes"].as_array().unwrap().contains(&json!(["CAU", "UKR"])), "{cau}");
    assert!(check_all_legal(&record) > 50);
    apply(&mut record, json!({"type": "move", "units": [{"type": "infantry", "count": 5}], "route": ["CAU", "UKR"]}));
    apply(&mut record, json!({"type": "move", "units": [{"type": "armor", "count": 2}], "route": ["MOS", "CAU", "UKR"]}));
    apply(&mut record, json!({"type": "end_phase"}));
    // combat: the battle to start, then its decisions
    let items = all_items(&record);
    assert!(
        items.contains(&json!({"type": "battle", "at": "UKR"})) && items.contains(&json!({"type": "resolve", "at": "UKR"})),
        "{items:?}"
    );
    assert!(!items.contains(&json!({"type": "end_phase"})), "the battle must be fought first");
    apply(&mut record, json!({"type": "battle", "at": "UKR"}));
    let mut decisions = 0;
    while warboard_rules::battle::current(record.state()).is_some() {
        decisions += 1;
        check_all_legal(&record);
        let items = all_items(&record);
        let next = items.iter().find(|i| i["type"] == "casualties" || i["type"] == "continue").cloned().unwrap();
        apply(&mut record, actions_of(&next).remove(0));
    }
    assert!(decisions > 0, "the battle asked at least one question");
    apply(&mut record, json!({"type": "end_phase"}));
    // noncombat move
    check_all_legal(&record);
    apply(&mut record, json!({"type": "end_phase"}));
    // place
    let items = all_items(&record);
    let moscow = items.iter().find(|i| i["type"] == "place" && i["at"] == "MOS").unwrap();
    assert_eq!(moscow["units"], json!(["infantry", "armor"]));
    check_all_legal(&record);
}

/// Issue 34, finding 17: a bot that plays from the listing can play the
/// Alternative rules: shopping lists purchases, placements and the end of a
/// nation's shopping, each with its `power`; the turn lists moves and
/// `end_phase`.
#[test]
fn alternative_shopping_and_turns_are_listed() {
    let mut record = Record::new(Start::standard("alternative", DiceMode::Seeded { seed: 4 })).unwrap();
    assert_eq!(record.state().phase, warboard_rules::Phase::Payday);
    apply(&mut record, json!({"type": "end_phase"}));
    let mut shoppers = 0;
    while record.state().phase == warboard_rules::Phase::Shopping {
        let items = all_items(&record);
        let buys = items.iter().filter(|i| i["type"] == "purchase" && i.get("power").is_some()).count();
        assert!(buys > 0, "{items:?}");
        check_all_legal(&record);
        // Buy one infantry, place it where the listing says, end.
        let who = items[0]["power"].clone();
        apply(&mut record, json!({"type": "purchase", "units": {"infantry": 1}, "power": who}));
        let items = all_items(&record);
        let place = items.iter().find(|i| i["type"] == "place").unwrap_or_else(|| panic!("nowhere to place: {items:?}")).clone();
        apply(&mut record, actions_of(&place).remove(0));
        let end = all_items(&record).into_iter().find(|i| i["type"] == "end_phase").unwrap();
        assert_eq!(end["power"], who);
        apply(&mut record, end);
        shoppers += 1;
    }
    assert!(shoppers >= 5, "{shoppers} nations shopped");
    assert_eq!(record.state().phase, warboard_rules::Phase::Turn);
    let items = all_items(&record);
    assert!(items.iter().any(|i| i["type"] == "move"), "{items:?}");
    assert!(items.contains(&json!({"type": "end_phase"})), "{items:?}");
    check_all_legal(&record);
}

#[test]
fn retreats_are_listed_when_the_attacker_may_retreat() {
    // One round of a battle the attacker can leave: Russia's infantry from
    // Caucasus against Ukraine, dice that all miss so that it goes on.
    let mut record = Record::new(Start::standard("classic", DiceMode::Client)).unwrap();
    apply(&mut record, json!({"type": "end_phase"}));
    apply(&mut record, json!({"type": "end_phase"}));
    apply(&mut record, json!({"type": "move", "units": [{"type": "infantry", "count": 5}], "route": ["CAU", "UKR"]}));
    apply(&mut record, json!({"type": "end_phase"}));
    record.supply_dice(&[6; 20]).unwrap();
    apply(&mut record, json!({"type": "battle", "at": "UKR"}));
    let items = all_items(&record);
    assert!(items.contains(&json!({"type": "continue"})), "{items:?}");
    assert!(items.contains(&json!({"type": "retreat", "to": "CAU"})), "{items:?}");
    check_all_legal(&record);
}

#[test]
fn paging_covers_the_list() {
    let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed: 2 })).unwrap();
    apply(&mut record, json!({"type": "end_phase"}));
    apply(&mut record, json!({"type": "end_phase"}));
    let whole = legal_page(&record, 0, Some(MAX_LIMIT));
    let mut pieces = Vec::new();
    let mut offset = 0;
    loop {
        let page = legal_page(&record, offset, Some(4));
        assert_eq!(page.total, whole.total);
        assert!(page.items.len() <= 4);
        if page.items.is_empty() {
            break;
        }
        offset += page.items.len();
        pieces.extend(page.items);
    }
    assert_eq!(pieces, whole.items);
    assert!(legal_page(&record, whole.total + 10, None).items.is_empty());
    assert_eq!(legal_page(&record, 0, Some(100_000)).limit, MAX_LIMIT);
}

fn anniversary(state: Value) -> Record {
    let start = Start {
        ruleset: "anniversary-1941".into(),
        options: Default::default(),
        position: warboard_record::Position { setup: "empty".into(), state: Some(state) },
        dice: DiceMode::Seeded { seed: 3 },
    };
    Record::new(start).unwrap()
}

#[test]
fn anniversary_research_names_its_chart_and_researchers_held_roll_for_nothing() {
    let record = anniversary(json!({"turn": "germany", "phase": "research", "ipcs": {"germany": 12}}));
    let items = all_items(&record);
    assert!(items.contains(&json!({"type": "research", "chart": 1, "max_dice": 2})), "{items:?}");
    assert!(items.contains(&json!({"type": "research", "chart": 2, "max_dice": 2})), "{items:?}");
    assert!(!items.iter().any(|i| i["type"] == "research" && i.get("chart").is_none()), "no research without a chart: {items:?}");
    check_all_legal(&record);
    // Researchers held: they may roll with none hired, even with no money.
    let record = anniversary(json!({"turn": "germany", "phase": "research", "ipcs": {"germany": 0}, "researchers": {"germany": 2}}));
    let items = all_items(&record);
    assert!(items.contains(&json!({"type": "research", "chart": 1, "min_dice": 0, "max_dice": 0})), "{items:?}");
    check_all_legal(&record);
    // China does no research.
    let record = anniversary(json!({"turn": "china", "phase": "research", "units": [{"at": "CHG", "owner": "china", "type": "infantry"}]}));
    assert_eq!(all_items(&record), vec![json!({"type": "end_phase"})]);
}

#[test]
fn anniversary_repairs_are_listed_in_the_purchase_phase() {
    let state = json!({
        "round": 2, "turn": "germany", "phase": "purchase", "ipcs": {"germany": 3},
        "units": [{"at": "GER", "owner": "germany", "type": "industrial_complex", "damage": 5}]
    });
    let record = anniversary(state);
    let items = all_items(&record);
    assert!(items.contains(&json!({"type": "repair", "at": "GER", "damage": 5, "max": 3})), "as far as the bank pays: {items:?}");
    check_all_legal(&record);
}

#[test]
fn anniversary_placements_list_chinas_territories_and_must_place_holds_the_phase() {
    // China places its received infantry without a complex.
    let state = json!({
        "turn": "china", "phase": "place", "purchased": {"infantry": 2},
        "units": [{"at": "CHG", "owner": "china", "type": "infantry"}]
    });
    let record = anniversary(state);
    let items = all_items(&record);
    assert!(items.contains(&json!({"type": "place", "at": "CHG", "units": ["infantry"]})), "{items:?}");
    check_all_legal(&record);
    // Germany with units its complex can take: the phase may not end yet.
    let state = json!({
        "turn": "germany", "phase": "place", "purchased": {"infantry": 2},
        "units": [{"at": "GER", "owner": "germany", "type": "industrial_complex"}]
    });
    let record = anniversary(state);
    let items = all_items(&record);
    assert!(items.contains(&json!({"type": "place", "at": "GER", "units": ["infantry"]})), "{items:?}");
    assert!(!items.contains(&json!({"type": "end_phase"})), "units that can be placed must be: {items:?}");
    check_all_legal(&record);
}

/// Classic's research is listed once, without a chart: its one chart also
/// takes `chart: 1`, and the list named it twice.
#[test]
fn classic_research_is_listed_once_without_a_chart() {
    let mut start = Start::standard("classic", DiceMode::Seeded { seed: 1 });
    start.options.insert("weapons_development".into(), json!(true));
    let record = Record::new(start).expect("classic with weapons development");
    let page = legal_page(&record, 0, Some(MAX_LIMIT));
    let research: Vec<Value> = page.items.iter().map(|i| serde_json::to_value(i).unwrap()).filter(|i| i["type"] == "research").collect();
    assert_eq!(research.len(), 1, "{research:?}");
    assert!(research[0].get("chart").is_none(), "{research:?}");
}
