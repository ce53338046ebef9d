//! Standing orders answer a battle's decisions at once (issue 31, point 3):
//! casualties in the player's order of loss (a spare hit point first), the
//! attacker's retreat when few are left; a decision no order covers waits.

use serde_json::{json, Value};
use warboard_record::{DiceMode, Origin, Record, Start};
use warboard_rules::battle::{self, BattleSide, Decision};
use warboard_rules::UnitType;
use warboard_table::fallback::default_action;
use warboard_table::orders::{RetreatOrder, StandingOrders};

/// Russia's attack on Ukraine, up to the battle's first decision.
fn battle_for_ukraine(seed: u64) -> Record {
    let mut record = Record::new(Start::standard("classic", DiceMode::Seeded { seed })).unwrap();
    let mut script = warboard_record::testing::attack_on_ukraine();
    script.push(json!({"type": "battle", "at": "UKR"}));
    for a in script {
        record.apply(&a, Origin::Client).unwrap_or_else(|e| panic!("{a}: {e}"));
    }
    record
}

fn kinds(record: &Record, action: &Value) -> Vec<UnitType> {
    let names = record.names();
    action["units"].as_array().unwrap().iter().map(|u| record.state().unit(names[u["id"].as_str().unwrap()]).unwrap().kind).collect()
}

#[test]
fn casualties_follow_the_players_order_and_other_decisions_wait() {
    let orders = StandingOrders { losses: vec![UnitType::Fighter, UnitType::Armor, UnitType::Infantry], ..StandingOrders::default() };
    let mut answered = 0;
    for seed in 0..30 {
        let mut record = battle_for_ukraine(seed);
        while let Some((_, decision)) = battle::decision(&record.game().ruleset, record.state()) {
            let action = match &decision {
                Decision::Casualties { side: BattleSide::Defender, choice, .. } => {
                    let candidates: Vec<UnitType> = choice.candidates().iter().map(|id| record.state().unit(*id).unwrap().kind).collect();
                    let action = orders.answer(&record).expect("the order of loss answers the defender's casualties");
                    let taken = kinds(&record, &action);
                    // The first kind of the order present is the first taken.
                    let first = orders.losses.iter().find(|k| candidates.contains(k)).copied().unwrap_or(candidates[0]);
                    assert_eq!(taken[0], first, "seed {seed}: {action} from {candidates:?}");
                    answered += 1;
                    action
                }
                Decision::PressOrRetreat => {
                    assert_eq!(orders.answer(&record), None, "no retreat order: the attacker's choice waits");
                    default_action(&record)
                }
                _ => default_action(&record),
            };
            record.apply(&action, Origin::Client).unwrap_or_else(|e| panic!("seed {seed}: {action}: {e}"));
        }
    }
    assert!(answered >= 10, "{answered} decisions answered");
    assert_eq!(StandingOrders::default().answer(&battle_for_ukraine(1)), None, "no orders, no answer");
}

#[test]
fn the_attacker_retreats_when_few_are_left_or_never() {
    let mut seen = 0;
    for seed in 0..30 {
        let mut record = battle_for_ukraine(seed);
        while let Some((_, decision)) = battle::decision(&record.game().ruleset, record.state()) {
            if decision == Decision::PressOrRetreat {
                let never = StandingOrders { retreat: Some(RetreatOrder::Never), ..StandingOrders::default() };
                assert_eq!(never.answer(&record), Some(json!({"type": "continue"})));
                let always = StandingOrders { retreat: Some(RetreatOrder::WhenAtMost(100)), ..StandingOrders::default() };
                let retreat = always.answer(&record).unwrap();
                assert_eq!(retreat["type"], "retreat", "{retreat}");
                let before = record.state().battles.iter().filter(|b| b.result == battle::BattleResult::Retreated).count();
                record.apply(&retreat, Origin::Client).unwrap();
                assert_eq!(record.state().battles.iter().filter(|b| b.result == battle::BattleResult::Retreated).count(), before + 1);
                seen += 1;
                break;
            }
            let action = default_action(&record);
            record.apply(&action, Origin::Client).unwrap();
        }
    }
    assert!(seen >= 5, "{seen}");
}
