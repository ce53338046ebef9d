//! Orders and the computer's actions written in FORMAT.md's JSON action
//! vocabulary: the words of save files. Everything played goes through a
//! `warboard_record::Record` in these words, so the person's commands, the
//! computer's actions and a loaded save are all resolved by the same reader.

use super::command::{Order, UnitPick};
use serde_json::{json, Value};
use warboard_record::unit_name;
use warboard_record::write::{id_selectors, optional_space, space, unit_counts, with};
#[cfg(test)]
use warboard_record::action_to_format;
use warboard_rules::battle::{self, Decision};
use warboard_rules::{Game, UnitId};

fn selectors(picks: &[UnitPick]) -> Value {
    Value::Array(
        picks
            .iter()
            .map(|p| match p {
                UnitPick::Kind { kind, count } => json!({"type": kind.name(), "count": count}),
                UnitPick::Id(id) => json!({"id": unit_name(*id)}),
            })
            .collect(),
    )
}

/// The deciding side's submarines in the battle waiting for a decision
/// (what `sub` with no units means).
fn deciding_submarines(game: &Game) -> Vec<UnitId> {
    let Some((i, decision)) = battle::decision(&game.ruleset, &game.state) else { return Vec::new() };
    let b = &game.state.battles[i];
    let side = match decision {
        Decision::AttackerSubmarines => battle::casualties::attackers(&game.ruleset, &game.state, b),
        Decision::DefenderSubmarines => battle::casualties::defenders(&game.ruleset, &game.state, b),
        _ => return Vec::new(),
    };
    side.into_iter().filter(|id| game.state.unit(*id).is_some_and(|u| game.ruleset.stats(u.kind).submarine)).collect()
}

/// A person's order as a FORMAT.md action. `side` is the surrendering side's
/// name, for `surrender`.
pub fn order_to_format(order: &Order, game: &Game, side: &str) -> Value {
    let rs = &game.ruleset;
    match order {
        Order::Research { dice, development, chart } => {
            let v = with(json!({"type": "research", "dice": dice}), "development", development.map(|d| json!(d.name())).unwrap_or(Value::Null));
            with(v, "chart", chart.map(|c| json!(c)).unwrap_or(Value::Null))
        }
        Order::Buy(units) => json!({"type": "purchase", "units": unit_counts(units)}),
        Order::Repair { at, count } => {
            // No count: every damage marker on the complex there.
            let count = count.unwrap_or_else(|| game.relations().factory_at(*at).map_or(0, |f| f.hits as u32));
            json!({"type": "repair", "at": space(rs, *at), "count": count})
        }
        Order::Move { units, route, transport, bombing } => {
            let route: Vec<Value> = route.iter().map(|s| space(rs, *s)).collect();
            let v = json!({"type": "move", "units": selectors(units), "route": route});
            let v = with(v, "transport", transport.map(|t| json!(unit_name(t))).unwrap_or(Value::Null));
            with(v, "bombing", if *bombing { json!(true) } else { Value::Null })
        }
        Order::EndPhase => json!({"type": "end_phase"}),
        Order::Battle(at) => json!({"type": "battle", "at": space(rs, *at)}),
        Order::Resolve(at) => with(json!({"type": "resolve"}), "at", optional_space(rs, *at)),
        Order::Casualties(units) => json!({"type": "casualties", "units": selectors(units)}),
        Order::Continue => json!({"type": "continue"}),
        Order::Retreat(to) => with(json!({"type": "retreat"}), "to", optional_space(rs, *to)),
        Order::Submerge { units, to } => {
            let units = if units.is_empty() { id_selectors(&deciding_submarines(game)) } else { selectors(units) };
            with(json!({"type": "submerge", "units": units}), "to", optional_space(rs, *to))
        }
        Order::Place { at, units } => json!({"type": "place", "at": space(rs, *at), "units": unit_counts(units)}),
        Order::Rocket { from, at } => json!({"type": "rocket", "from": space(rs, *from), "at": space(rs, *at)}),
        Order::Convert { at, units } => json!({"type": "convert", "at": space(rs, *at), "units": selectors(units)}),
        Order::Surrender => json!({"type": "surrender", "side": side}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::command::{parse, Command};
    use warboard_record::{DiceMode, Record, Start};
    use warboard_rules::{Action, Phase, UnitType};

    fn record() -> Record {
        Record::new(Start::standard("classic", DiceMode::Seeded { seed: 1 })).expect("a standard classic game starts")
    }

    fn order(line: &str, game: &Game) -> Value {
        match parse(line, &game.ruleset) {
            Ok(Command::Order(o)) => order_to_format(&o, game, "axis"),
            other => panic!("`{line}` is an order, not {other:?}"),
        }
    }

    #[test]
    fn a_typed_move_resolves_to_the_best_units_through_the_selectors() {
        let mut r = record();
        // Russia's combat move: two infantry from Moscow to Karelia.
        for _ in 0..2 {
            r.apply(&json!({"type": "end_phase"}), warboard_record::Origin::Client).expect("research and purchase end");
        }
        assert_eq!(r.state().phase, Phase::CombatMove);
        let game = r.game();
        let v = order("move 2 inf MOS LEN", game);
        assert_eq!(v, json!({"type": "move", "units": [{"type": "infantry", "count": 2}], "route": ["MOS", "LEN"]}));
        let Action::Move { units, route, .. } = r.resolve(&v).expect("the selectors find two infantry in Russia") else {
            panic!("a move resolves to a move");
        };
        assert_eq!(units.len(), 2);
        let rus = game.ruleset.map.id("MOS").expect("MOS");
        assert!(units.iter().all(|id| game.state.unit(*id).is_some_and(|u| u.kind == UnitType::Infantry && u.at == rus)));
        assert_eq!(route.len(), 2);
    }

    #[test]
    fn purchases_and_placements_merge_repeated_types() {
        let r = record();
        let v = order("buy 2 inf 1 arm 1 inf", r.game());
        assert_eq!(v, json!({"type": "purchase", "units": {"infantry": 3, "armor": 1}}));
        let v = order("place 2 inf GER", r.game());
        assert_eq!(v, json!({"type": "place", "at": "GER", "units": {"infantry": 2}}));
    }

    #[test]
    fn optional_fields_are_left_out() {
        let r = record();
        assert_eq!(order("resolve", r.game()), json!({"type": "resolve"}));
        assert_eq!(order("retreat UKR", r.game()), json!({"type": "retreat", "to": "UKR"}));
        assert_eq!(order("surrender", r.game()), json!({"type": "surrender", "side": "axis"}));
    }

    #[test]
    fn anniversary_research_and_repair_are_written_in_the_save_words() {
        let r = Record::new(Start::standard("anniversary-1941", DiceMode::Seeded { seed: 1 })).expect("an Anniversary game starts");
        assert_eq!(order("research 2 chart 1", r.game()), json!({"type": "research", "dice": 2, "chart": 1}));
        assert_eq!(order("research chart 2", r.game()), json!({"type": "research", "dice": 0, "chart": 2}));
        assert_eq!(order("repair GER 3", r.game()), json!({"type": "repair", "at": "GER", "count": 3}));
        // Without a count, the complex's damage; none at the start.
        assert_eq!(order("repair GER", r.game()), json!({"type": "repair", "at": "GER", "count": 0}));
        let Ok(Action::Research { dice: 2, chart: Some(1), development: None }) = r.resolve(&order("research 2 chart 1", r.game())) else {
            panic!("research with a chart resolves");
        };
    }

    #[test]
    fn the_computers_actions_resolve_to_themselves() {
        let r = record();
        let game = r.game();
        let rus = game.ruleset.map.id("MOS").expect("MOS");
        let kar = game.ruleset.map.id("LEN").expect("LEN");
        let infantry: Vec<UnitId> =
            game.state.units.iter().filter(|u| u.at == rus && u.kind == UnitType::Infantry).map(|u| u.id).take(2).collect();
        let action = Action::Move { units: infantry.clone(), route: vec![rus, kar], transport: None, bombing: false };
        let v = action_to_format(&action, &game.ruleset);
        assert_eq!(v["units"][0]["id"], json!(unit_name(infantry[0])));
        // Resolved on its own turn's state, the same units come back.
        let mut r = r;
        for _ in 0..2 {
            r.apply(&json!({"type": "end_phase"}), warboard_record::Origin::Client).expect("phases end");
        }
        assert_eq!(r.resolve(&v), Ok(action));
    }
}
