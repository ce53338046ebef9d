//! The drawn map (issue 15, point 14): every space of the ruleset's map at
//! its place on a schematic of the board, with its owner's colour and its
//! unit count; the selected space and its neighbours stand out, and the
//! view follows the selection at one of three zooms. Where each space goes
//! is data beside each map (`rulesets/<map>/layout.toml`, made by
//! `tools/make_layout.py`), embedded in the binary and checked against the
//! map when it is read.

use warboard_rules::{Game, SpaceId};

/// The layouts, by the map they belong to.
const LAYOUTS: [(&str, &str); 3] = [
    ("classic", include_str!("../../../../rulesets/classic/layout.toml")),
    ("europe", include_str!("../../../../rulesets/europe/layout.toml")),
    ("anniversary", include_str!("../../../../rulesets/anniversary/layout.toml")),
];

/// Zoom levels: how many times the screen the whole board is, across and
/// down.
pub const ZOOMS: [u16; 3] = [1, 2, 3];

/// Where each space of a map is drawn, on a grid 0..999 each way.
#[derive(Debug)]
pub struct MapLayout {
    pub pos: Vec<(SpaceId, u16, u16)>,
}

/// The layout file for a ruleset's map: the Alternative rules play on the
/// classic board, both Anniversary scenarios on one map.
fn layout_name(ruleset: &str) -> Option<&'static str> {
    match ruleset {
        "classic" | "alternative" => Some("classic"),
        "europe" => Some("europe"),
        r if r.starts_with("anniversary") => Some("anniversary"),
        _ => None,
    }
}

/// A layout file as read: each space id with the numbers it was given.
type Places = Vec<(String, Vec<u16>)>;

/// The places of `LAYOUTS[i]`, read once (the map is drawn every frame): each
/// space id with the whole numbers it was given.
fn parsed(i: usize) -> &'static Result<Places, String> {
    static PARSED: [std::sync::OnceLock<Result<Places, String>>; LAYOUTS.len()] = [const { std::sync::OnceLock::new() }; LAYOUTS.len()];
    PARSED[i].get_or_init(|| {
        let (name, text) = LAYOUTS[i];
        let table: toml::Table = toml::from_str(text).map_err(|e| format!("layout {name}: {e}"))?;
        let pos = table.get("pos").and_then(|v| v.as_table()).ok_or_else(|| format!("layout {name}: no [pos] table"))?;
        Ok(pos
            .iter()
            .map(|(id, value)| (id.clone(), value.as_array().into_iter().flatten().filter_map(|v| v.as_integer()).filter_map(|v| u16::try_from(v).ok()).collect()))
            .collect())
    })
}

/// The layout of `game`'s map, checked: every space has one place, and
/// every place names a space. `Err` says what is wrong.
pub fn layout(game: &Game) -> Result<MapLayout, String> {
    let rs = &game.ruleset;
    let name = layout_name(&rs.name).ok_or_else(|| format!("no map layout for the {} rules", rs.name))?;
    let i = LAYOUTS.iter().position(|(n, _)| *n == name).ok_or_else(|| format!("layout {name} is missing"))?;
    let places = parsed(i).as_ref().map_err(Clone::clone)?;
    let mut out = Vec::new();
    for (id, xy) in places {
        let space = rs.map.id(id).ok_or_else(|| format!("layout {name}: {id} is not a space of the map"))?;
        match xy.as_slice() {
            [x, y] if *x < 1000 && *y < 1000 => out.push((space, *x, *y)),
            _ => return Err(format!("layout {name}: {id} needs [x, y] from 0 to 999")),
        }
    }
    if let Some(missing) = rs.map.ids().find(|t| !out.iter().any(|(s, _, _)| s == t)) {
        return Err(format!("layout {name}: no place for {}", rs.map.name(missing)));
    }
    Ok(MapLayout { pos: out })
}

/// What a cell of the drawn map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Nothing.
    Blank,
    /// Part of a space's label.
    Label { space: SpaceId, selected: bool, neighbour: bool },
}

/// The map as `width` × `height` cells of text and what each shows, the
/// view centred on `selected` at `zoom` (an index into [`ZOOMS`]). Labels
/// are the space's id and its unit count ("GER12"); where two would
/// overlap the later one moves right, or down a row.
pub fn render(game: &Game, layout: &MapLayout, selected: Option<SpaceId>, zoom: usize, width: u16, height: u16) -> Vec<Vec<(char, Mark)>> {
    let (w, h) = (width as usize, height as usize);
    let z = ZOOMS[zoom.min(ZOOMS.len() - 1)] as usize;
    // The whole board at this zoom, in cells.
    let (board_w, board_h) = (w * z, h * z);
    let at = |x: u16, y: u16| (x as usize * board_w.saturating_sub(6) / 1000, y as usize * board_h.saturating_sub(1) / 1000);
    // The view: centred on the selection, kept on the board.
    let (cx, cy) = selected.and_then(|s| layout.pos.iter().find(|(t, _, _)| *t == s)).map(|(_, x, y)| at(*x, *y)).unwrap_or((board_w / 2, board_h / 2));
    let left = cx.saturating_sub(w / 2).min(board_w.saturating_sub(w));
    let top = cy.saturating_sub(h / 2).min(board_h.saturating_sub(h));
    let neighbours: Vec<SpaceId> = selected.map(|s| game.ruleset.map.space(s).adjacent.clone()).unwrap_or_default();
    let mut grid = vec![vec![(' ', Mark::Blank); w]; h];
    // The selection last, so that it is never the label moved aside.
    let mut order: Vec<&(SpaceId, u16, u16)> = layout.pos.iter().collect();
    order.sort_by_key(|(s, _, _)| (Some(*s) == selected, neighbours.contains(s)));
    for &&(space, x, y) in &order {
        let (bx, by) = at(x, y);
        if bx < left || by < top {
            continue;
        }
        let (col, row) = (bx - left, by - top);
        if col >= w || row >= h {
            continue;
        }
        let units = game.state.units_at(space).count();
        let label: Vec<char> = if units > 0 { format!("{}{units}", game.ruleset.map.name(space)) } else { game.ruleset.map.name(space).to_string() }.chars().collect();
        let mark = Mark::Label { space, selected: Some(space) == selected, neighbour: neighbours.contains(&space) };
        let fits = |r: usize, c: usize, grid: &Vec<Vec<(char, Mark)>>| c + label.len() <= w && (c..c + label.len()).all(|k| grid[r][k].1 == Mark::Blank);
        // The nearest free place: this row further right, then the rows below.
        let place = (row..h).flat_map(|r| (col..w).map(move |c| (r, c))).take(w * 2).find(|(r, c)| fits(*r, *c, &grid));
        let (r, c) = match (place, Some(space) == selected) {
            (Some(p), _) => p,
            // The selection is drawn where it belongs, over what was there.
            (None, true) => (row, col.min(w.saturating_sub(label.len()))),
            (None, false) => continue,
        };
        for (k, ch) in label.iter().enumerate() {
            if c + k < w {
                grid[r][c + k] = (*ch, mark);
            }
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;
    use warboard_rules::ruleset;

    #[test]
    fn every_map_has_a_layout_that_places_each_space_once() {
        for name in ["classic", "europe", "anniversary-1941", "anniversary-1942", "alternative"] {
            let game = Game::standard(ruleset(name).unwrap());
            let l = layout(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(l.pos.len(), game.ruleset.map.len(), "{name}");
        }
    }

    #[test]
    fn the_selection_and_its_neighbours_are_drawn_at_every_zoom() {
        let game = Game::standard(ruleset("classic").unwrap());
        let l = layout(&game).unwrap();
        let ger = game.ruleset.map.id("GER").unwrap();
        for zoom in 0..ZOOMS.len() {
            let grid = render(&game, &l, Some(ger), zoom, 120, 36);
            let text: String = grid.iter().map(|row| row.iter().map(|(c, _)| *c).collect::<String>() + "\n").collect();
            let units = game.state.units_at(ger).count();
            assert!(text.contains(&format!("GER{units}")), "zoom {zoom}:\n{text}");
            let marked = |want: fn(&Mark) -> bool| grid.iter().flatten().filter(|(_, m)| want(m)).count();
            assert!(marked(|m| matches!(m, Mark::Label { selected: true, .. })) >= 3);
            assert!(marked(|m| matches!(m, Mark::Label { neighbour: true, .. })) >= 3, "zoom {zoom}: the neighbours are marked");
        }
        // Zoomed out, most of the board's spaces are on screen.
        let grid = render(&game, &l, Some(ger), 0, 160, 40);
        let mut shown: Vec<SpaceId> = grid.iter().flatten().filter_map(|(_, m)| match m { Mark::Label { space, .. } => Some(*space), _ => None }).collect();
        shown.sort();
        shown.dedup();
        assert!(shown.len() * 10 >= game.ruleset.map.len() * 8, "{} of {} spaces shown", shown.len(), game.ruleset.map.len());
    }
}
