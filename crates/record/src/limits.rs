//! Bounds on numbers in actions and positions, checked before the rules
//! core sees them; and on the size of what a game holds, the same for the
//! game as played and as loaded.
//!
//! The rules core takes counts as `u32` and multiplies them by costs in
//! `i32`: a purchase of four billion infantry would overflow, and a position
//! with a billion units would take the engine's memory. Real games never come
//! near these bounds; input from a client or a file may.
//!
//! The size bounds keep loading within a few times a file's size (issue 34,
//! finding 4: the parts of a game held as JSON trees take up to ninety times
//! their text) and keep the engine from holding a game no loader reads
//! (finding 6): a game refuses to grow past them, and a loader refuses a
//! file beyond them before building anything of it.

use serde_json::Value;

/// The largest count (or any other number) an action or position may hold.
pub const MAX_NUMBER: u64 = 100_000;
/// The most units a position may add.
pub const MAX_POSITION_UNITS: u64 = 10_000;
/// The most client dice a game may be given (rolled and queued together):
/// a long game rolls tens of thousands.
pub const MAX_CLIENT_DICE: usize = 1_000_000;
/// The longest action, as compact JSON: a move of some four thousand units
/// named one by one.
pub const MAX_ACTION_BYTES: usize = 64 << 10;
/// The longest starting position (`position.state`), as compact JSON: some
/// fifteen hundred units named one by one, or any number counted. It is
/// kept as a JSON tree for the game's life, up to ninety times its text.
pub const MAX_POSITION_BYTES: usize = 128 << 10;
/// The longest set of options (`options.changed`), as compact JSON; the
/// canonical string of them all is bounded likewise.
pub const MAX_OPTIONS_BYTES: usize = 16 << 10;
/// The longest name of a ruleset or a setup, and the longest hash text.
pub const MAX_NAME_BYTES: usize = 256;
/// A proven game's chain header (docs/pbem.md): a few seats and keys.
pub const MAX_PROOF_HEADER_BYTES: usize = 16 << 10;
/// Receipts collected apart from a proven game's chain: about 300 bytes
/// each, room for one for every entry of a long game.
pub const MAX_WITNESSED_BYTES: usize = 64 << 20;

/// `value` as compact JSON is at most `max` bytes; else its size so far.
pub(crate) fn check_compact_len<T: serde::Serialize + ?Sized>(value: &T, max: usize) -> Result<(), String> {
    let mut counter = crate::json::Counter { bytes: 0, max };
    serde_json::to_writer(&mut counter, value).map_err(|_| format!("more than {max} bytes as compact JSON"))
}

/// Every number in an action is a whole number from 0 to [`MAX_NUMBER`],
/// and the action is at most [`MAX_ACTION_BYTES`] as compact JSON.
pub(crate) fn check_action(action: &Value) -> Result<(), String> {
    check_compact_len(action, MAX_ACTION_BYTES).map_err(|size| format!("the action is {size}"))?;
    check_numbers(action, "the action")
}

/// Numbers in bounds, at most [`MAX_POSITION_UNITS`] units in all, and at
/// most [`MAX_POSITION_BYTES`] as compact JSON.
pub(crate) fn check_position(state: &Value) -> Result<(), String> {
    check_compact_len(state, MAX_POSITION_BYTES).map_err(|size| format!("the position is {size}"))?;
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
