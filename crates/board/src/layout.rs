//! Where each space is drawn: `rulesets/<map>/layout.toml`, a `[pos]` table
//! of `ID = [x, y]` on a grid 0..999 each way, embedded in the binary and
//! read once per map.

use crate::geometry::Point;
use std::sync::OnceLock;
use warboard_rules::Ruleset;

/// The layout files, by the map they belong to.
const LAYOUTS: [(&str, &str); 3] = [
    ("classic", include_str!("../../../rulesets/classic/layout.toml")),
    ("europe", include_str!("../../../rulesets/europe/layout.toml")),
    ("anniversary", include_str!("../../../rulesets/anniversary/layout.toml")),
];

/// The layout of a ruleset's map: the Alternative rules play on the classic
/// board, both Anniversary scenarios on one map.
pub fn layout_name(ruleset: &str) -> Option<&'static str> {
    match ruleset {
        "classic" | "alternative" => Some("classic"),
        "europe" => Some("europe"),
        r if r.starts_with("anniversary") => Some("anniversary"),
        _ => None,
    }
}

/// A layout as read: each space id with its place, sorted by id, so that
/// everything built from it comes out in the same order every time.
#[derive(Debug)]
pub struct Layout {
    pub name: &'static str,
    pub places: Vec<(String, Point)>,
}

/// How many layouts there are, and where `name` is among them: for tables
/// of what is worked out once per layout.
pub const COUNT: usize = LAYOUTS.len();
pub fn index(name: &str) -> Result<usize, String> {
    LAYOUTS.iter().position(|(n, _)| *n == name).ok_or_else(|| format!("there is no layout named {name}"))
}

/// The layout named `name` (see [`layout_name`]), read once.
pub fn read(name: &str) -> Result<&'static Layout, String> {
    static READ: [OnceLock<Result<Layout, String>>; COUNT] = [const { OnceLock::new() }; COUNT];
    let i = index(name)?;
    READ[i].get_or_init(|| parse(LAYOUTS[i].0, LAYOUTS[i].1)).as_ref().map_err(Clone::clone)
}

fn parse(name: &'static str, text: &str) -> Result<Layout, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| format!("layout {name}: {e}"))?;
    let pos = table.get("pos").and_then(|v| v.as_table()).ok_or_else(|| format!("layout {name}: no [pos] table"))?;
    let mut places = Vec::with_capacity(pos.len());
    for (id, value) in pos {
        let numbers: Vec<i64> = value.as_array().into_iter().flatten().filter_map(|v| v.as_integer()).collect();
        match numbers.as_slice() {
            [x, y] if (0..1000).contains(x) && (0..1000).contains(y) => places.push((id.clone(), (*x as f64, *y as f64))),
            _ => return Err(format!("layout {name}: {id} needs [x, y], each a whole number from 0 to 999")),
        }
    }
    places.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Layout { name, places })
}

/// The layout of `ruleset`'s map, checked against the map: every space has
/// one place and every place names a space.
pub fn of(ruleset: &Ruleset) -> Result<&'static Layout, String> {
    let name = layout_name(&ruleset.name).ok_or_else(|| format!("there is no board layout for the map of the {} rules", ruleset.name))?;
    let layout = read(name)?;
    let map = &ruleset.map;
    if let Some((id, _)) = layout.places.iter().find(|(id, _)| map.id(id).is_none()) {
        return Err(format!("layout {name}: {id} is not a space of the {} map", ruleset.name));
    }
    if let Some(missing) = map.ids().find(|s| !layout.places.iter().any(|(id, _)| id == map.name(*s))) {
        return Err(format!("layout {name}: no place for {} ({}) of the {} map", map.name(missing), map.space(missing).name, ruleset.name));
    }
    Ok(layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_reads() {
        for (name, _) in LAYOUTS {
            let layout = read(name).unwrap();
            assert!(layout.places.len() > 90, "{name}");
        }
    }

    #[test]
    fn a_bad_place_is_named() {
        let err = parse("test", "[pos]\nGER = [1, 2000]\n").unwrap_err();
        assert!(err.contains("GER"), "{err}");
        let err = parse("test", "[pos]\nGER = [1]\n").unwrap_err();
        assert!(err.contains("GER"), "{err}");
    }
}
