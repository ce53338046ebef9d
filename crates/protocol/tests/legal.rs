//! `legal`: every item it lists is accepted by the rules, at every kind of
//! decision of a game played for a round; paging covers the whole list.

use serde_json::{json, Value};
use warboard_protocol::{legal_page, MAX_LIMIT};
use warboard_record::{ApplyError, DiceMode, Origin, Record, Start};

/// The actions an item stands for (a compact item stands for several).
fn actions_of(item: &Value) -> Vec<Value> {
    match item["type"].as_str().unwrap() {
        "purchase" => vec![json!({"type": "purchase", "units": {item["unit"].as_str().unwrap(): item["max"]}})],
        "research" => vec![json!({"type": "research", "dice": item["max_dice"]})],
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
