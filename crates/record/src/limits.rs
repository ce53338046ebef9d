//! Bounds on numbers in actions and positions, checked before the rules
//! core sees them.
//!
//! The rules core takes counts as `u32` and multiplies them by costs in
//! `i32`: a purchase of four billion infantry would overflow, and a position
//! with a billion units would take the engine's memory. Real games never come
//! near these bounds; input from a client or a file may.

use serde_json::Value;

/// The largest count (or any other number) an action or position may hold.
pub const MAX_NUMBER: u64 = 100_000;
/// The most units a position may add.
pub const MAX_POSITION_UNITS: u64 = 10_000;

/// Every number in an action is a whole number from 0 to [`MAX_NUMBER`].
pub(crate) fn check_action(action: &Value) -> Result<(), String> {
    check_numbers(action, "the action")
}

/// Numbers in bounds, and at most [`MAX_POSITION_UNITS`] units in all.
pub(crate) fn check_position(state: &Value) -> Result<(), String> {
    check_numbers(state, "the position")?;
    // Units bought and waiting to be placed become units too: they count
    // (issue 34: 200,000 placed through `purchased` bypassed the bound).
    let on_board = state.get("units").map(count_units).unwrap_or(0);
    let waiting = state.get("purchased").map(count_values).unwrap_or(0);
    let unplaced = state.get("unplaced").and_then(Value::as_object).map(|m| m.values().map(count_values).fold(0u64, u64::saturating_add)).unwrap_or(0);
    let units = on_board.saturating_add(waiting).saturating_add(unplaced);
    if units > MAX_POSITION_UNITS {
        return Err(format!(
            "the position adds {units} units (on the board, purchased and unplaced); at most {MAX_POSITION_UNITS} are allowed"
        ));
    }
    Ok(())
}

fn check_numbers(v: &Value, what: &str) -> Result<(), String> {
    match v {
        Value::Number(n) => match n.as_u64() {
            Some(x) if x <= MAX_NUMBER => Ok(()),
            _ => Err(format!("{what} holds the number {n}; numbers here are whole numbers from 0 to {MAX_NUMBER}")),
        },
        Value::Array(items) => items.iter().try_for_each(|x| check_numbers(x, what)),
        Value::Object(map) => map.values().try_for_each(|x| check_numbers(x, what)),
        _ => Ok(()),
    }
}

/// The sum of the counts of a type → count object.
fn count_values(counts: &Value) -> u64 {
    counts.as_object().map(|m| m.values().filter_map(Value::as_u64).fold(0u64, u64::saturating_add)).unwrap_or(0)
}

/// Units a FORMAT.md `units` list adds, cargo included (a count is 1 when
/// absent; malformed entries are left for the loader to reject).
fn count_units(list: &Value) -> u64 {
    let Some(entries) = list.as_array() else { return 0 };
    entries
        .iter()
        .map(|e| {
            let n = e.get("count").and_then(Value::as_u64).unwrap_or(1);
            let cargo = e.get("cargo").map(count_units).unwrap_or(0);
            n.saturating_mul(1 + cargo)
        })
        .fold(0u64, u64::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn huge_and_negative_numbers_are_refused() {
        assert!(check_action(&json!({"type": "purchase", "units": {"infantry": 3}})).is_ok());
        assert!(check_action(&json!({"type": "purchase", "units": {"infantry": 4_000_000_000u64}})).is_err());
        assert!(check_action(&json!({"type": "research", "dice": -1})).is_err());
        assert!(check_action(&json!({"type": "research", "dice": 1.5})).is_err());
    }

    #[test]
    fn positions_with_too_many_units_are_refused() {
        let cargo = json!([{"owner": "uk", "type": "infantry", "count": 2}]);
        let ok = json!({"units": [{"at": "NOR", "owner": "uk", "type": "transport", "count": 3, "cargo": cargo}]});
        assert!(check_position(&ok).is_ok());
        let big = json!({"units": [{"at": "GER", "owner": "germany", "type": "infantry", "count": 90_000}]});
        assert!(check_position(&big).is_err());
        // Issue 34: units waiting to be placed count against the bound.
        let bought = json!({"purchased": {"infantry": 90_000, "armor": 90_000}});
        assert!(check_position(&bought).is_err());
        let kept = json!({"unplaced": {"germany": {"infantry": 6_000}, "japan": {"infantry": 6_000}}});
        assert!(check_position(&kept).is_err());
        assert!(check_position(&json!({"purchased": {"infantry": 5_000}})).is_ok());
    }
}
