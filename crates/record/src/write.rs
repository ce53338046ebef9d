//! Rules-core actions written in FORMAT.md's JSON action vocabulary, naming
//! units by their ids (`u17`) so that the written action resolves to the
//! very same units. The computer's actions go into records, the engine
//! protocol and user interfaces this way.

use crate::names::unit_name;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use warboard_rules::{Action, Ruleset, SpaceId, UnitId, UnitType};

/// A space by its map id.
pub fn space(rs: &Ruleset, s: SpaceId) -> Value {
    Value::String(rs.map.name(s).to_string())
}

/// `{"infantry": 3, "armor": 1}`; repeats of a type are added up (a JSON
/// object names each type once).
pub fn unit_counts(units: &[(UnitType, u32)]) -> Value {
    let mut merged: BTreeMap<UnitType, u32> = BTreeMap::new();
    for (kind, n) in units {
        *merged.entry(*kind).or_default() += n;
    }
    let map: Map<String, Value> = merged.into_iter().map(|(k, n)| (k.name().to_string(), json!(n))).collect();
    Value::Object(map)
}

/// `[{"id": "u3"}, ...]`
pub fn id_selectors(ids: &[UnitId]) -> Value {
    Value::Array(ids.iter().map(|id| json!({"id": unit_name(*id)})).collect())
}

pub fn optional_space(rs: &Ruleset, s: Option<SpaceId>) -> Value {
    s.map(|s| space(rs, s)).unwrap_or(Value::Null)
}

/// Puts `value` under `key` unless it is null (optional fields are left out).
pub fn with(mut v: Value, key: &str, value: Value) -> Value {
    if !value.is_null() {
        if let Value::Object(m) = &mut v {
            m.insert(key.to_string(), value);
        }
    }
    v
}

/// A rules-core action as a FORMAT.md action.
pub fn action_to_format(action: &Action, rs: &Ruleset) -> Value {
    match action {
        Action::Research { dice, development, chart } => {
            let v = with(json!({"type": "research", "dice": dice}), "development", development.map(|d| json!(d.name())).unwrap_or(Value::Null));
            with(v, "chart", chart.map(|c| json!(c)).unwrap_or(Value::Null))
        }
        Action::Rocket { from, at } => json!({"type": "rocket", "from": space(rs, *from), "at": space(rs, *at)}),
        Action::Repair { at, count } => json!({"type": "repair", "at": space(rs, *at), "count": count}),
        Action::Purchase { units } => json!({"type": "purchase", "units": unit_counts(units)}),
        Action::Move { units, route, transport, bombing } => {
            let route: Vec<Value> = route.iter().map(|s| space(rs, *s)).collect();
            let v = json!({"type": "move", "units": id_selectors(units), "route": route});
            let v = with(v, "transport", transport.map(|t| json!(unit_name(t))).unwrap_or(Value::Null));
            // A fighters-only raid move (FORMAT v2's `escort`) is written as
            // `bombing`, which the reader takes the same way.
            with(v, "bombing", if *bombing { json!(true) } else { Value::Null })
        }
        Action::EndPhase => json!({"type": "end_phase"}),
        Action::Battle { at } => json!({"type": "battle", "at": space(rs, *at)}),
        Action::Casualties { units } => json!({"type": "casualties", "units": id_selectors(units)}),
        Action::Continue => json!({"type": "continue"}),
        Action::Retreat { to } => with(json!({"type": "retreat"}), "to", optional_space(rs, *to)),
        Action::Submerge { units, to } => with(json!({"type": "submerge", "units": id_selectors(units)}), "to", optional_space(rs, *to)),
        Action::Resolve { at } => with(json!({"type": "resolve"}), "at", optional_space(rs, *at)),
        Action::Place { at, units } => json!({"type": "place", "at": space(rs, *at), "units": unit_counts(units)}),
        Action::Surrender { team } => json!({"type": "surrender", "side": team}),
        Action::Intercept { at, units } => json!({"type": "intercept", "at": space(rs, *at), "units": id_selectors(units)}),
        Action::Convert { at, units } => json!({"type": "convert", "at": space(rs, *at), "units": id_selectors(units)}),
        Action::Lend { units, route, to } => {
            let route: Vec<Value> = route.iter().map(|s| space(rs, *s)).collect();
            json!({"type": "move", "units": id_selectors(units), "route": route, "give": rs.power(*to).id})
        }
        Action::Reclaim { at, units } => json!({"type": "reclaim", "at": space(rs, *at), "units": id_selectors(units)}),
        Action::SurrenderNation { power } => json!({"type": "surrender", "power": rs.power(*power).id}),
    }
}
