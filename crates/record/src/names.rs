//! Names for units in FORMAT.md selectors (`{"id": NAME}`).
//!
//! A position may name units itself (FORMAT.md's `id` in `state.units`).
//! Besides those, every unit can be named by its permanent id as `u<number>`
//! (`u17`): that is how the engine shows units to clients, and how clients
//! pick one casualty or one transport among several alike.

use serde_json::Value;
use std::collections::HashMap;
use warboard_rules::{GameState, UnitId};

/// The protocol's name of a unit: `u` and its id.
pub fn unit_name(id: UnitId) -> String {
    format!("u{}", id.0)
}

/// The unit a `u<number>` name refers to.
pub fn parse_unit_name(name: &str) -> Option<UnitId> {
    let digits = name.strip_prefix('u')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().map(UnitId)
}

/// Every name an action may use now. `u<number>` always means the unit with
/// that id: a position's own name of that shape (as in a position the engine
/// wrote, whose units are numbered afresh when it starts a new game) is not
/// used, so that the names the engine shows are the names it reads.
pub(crate) fn names_now(state: &GameState, position_names: &HashMap<String, UnitId>) -> HashMap<String, UnitId> {
    let mut names: HashMap<String, UnitId> = state.units.iter().map(|u| (unit_name(u.id), u.id)).collect();
    names.extend(position_names.iter().filter(|(k, _)| parse_unit_name(k).is_none()).map(|(k, v)| (k.clone(), *v)));
    names
}

/// The names an action uses, and the units they name now: only the strings
/// the action holds are looked up, so resolving an action costs what the
/// action is, not what the board is (issue 34: a name for every unit, built
/// for every action, made a turn quadratic in the number of units).
pub(crate) fn names_in(action: &Value, state: &GameState, position_names: &HashMap<String, UnitId>) -> HashMap<String, UnitId> {
    let mut names = HashMap::new();
    let mut stack = vec![action];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                let unit = match parse_unit_name(s) {
                    Some(id) => state.unit(id).map(|u| u.id),
                    None => position_names.get(s).copied(),
                };
                if let Some(id) = unit {
                    names.insert(s.clone(), id);
                }
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(fields) => stack.extend(fields.values()),
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(parse_unit_name(&unit_name(UnitId(17))), Some(UnitId(17)));
        for bad in ["u", "17", "u-1", "ux", "u1x", "U1", "u99999999999"] {
            assert_eq!(parse_unit_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn engine_names_win_over_position_names_of_their_shape() {
        let mut state = warboard_rules::Game::empty(warboard_rules::ruleset("classic").unwrap()).state;
        let a = state.add_unit(warboard_rules::UnitType::Infantry, warboard_rules::PowerId(0), warboard_rules::SpaceId(0));
        let b = state.add_unit(warboard_rules::UnitType::Armor, warboard_rules::PowerId(0), warboard_rules::SpaceId(0));
        let given = HashMap::from([("u0".to_string(), b), ("tank".to_string(), b), ("u7".to_string(), a)]);
        let names = names_now(&state, &given);
        assert_eq!((names["u0"], names["u1"], names["tank"]), (a, b, b));
        assert!(!names.contains_key("u7"));
    }
}
