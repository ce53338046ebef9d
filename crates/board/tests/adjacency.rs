//! The drawn board tells the truth about the game's map: every space has
//! one cell, every adjacency is visible (passable shared boundary long
//! enough to see, or a connector), and nothing that is not an adjacency
//! looks like one (shared boundaries between non-neighbours are
//! impassable, connectors join only neighbours). Checked on the data and
//! again on the SVG alone. `--nocapture` prints how each map's adjacencies
//! are shown.

use std::collections::{BTreeMap, BTreeSet};
use warboard_board::{board, svg, Board, ConnectorKind, MIN_SHOWN_BORDER};
use warboard_rules::{ruleset, Ruleset};

const RULESETS: [&str; 5] = ["classic", "europe", "anniversary-1941", "anniversary-1942", "alternative"];

/// The test's own bar for "long enough to see": a little under the
/// board's, so that the SVG's rounding to a tenth cannot fail it.
const VISIBLE: f64 = 2.0;

fn pair(a: &str, b: &str) -> (String, String) {
    if a < b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

/// The game's adjacencies, by id, each once.
fn adjacencies(rs: &Ruleset) -> BTreeSet<(String, String)> {
    let map = &rs.map;
    map.ids().flat_map(|a| map.neighbours(a).iter().map(move |b| pair(map.name(a), map.name(*b)))).collect()
}

fn length(((x1, y1), (x2, y2)): ((f64, f64), (f64, f64))) -> f64 {
    (x1 - x2).hypot(y1 - y2)
}

#[test]
fn every_space_has_exactly_one_cell() {
    for name in RULESETS {
        let rs = ruleset(name).unwrap();
        let b = board(&rs).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(b.spaces.len(), rs.map.len(), "{name}");
        for (s, cell) in rs.map.ids().zip(&b.spaces) {
            assert_eq!(cell.id, rs.map.name(s), "{name}: cells are in the map's order");
            assert_eq!(cell.sea, rs.map.is_sea(s), "{name}: {}", cell.id);
            assert!(cell.polygon.len() >= 3, "{name}: {} has a polygon", cell.id);
        }
        let ids: BTreeSet<&str> = b.spaces.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), b.spaces.len(), "{name}: no space twice");
        // The cells tile the board: their areas add up to its area.
        let total: f64 = b.spaces.iter().map(|c| area(&c.polygon) - c.holes.iter().map(|h| area(h)).sum::<f64>()).sum();
        assert!((total - b.width * b.height).abs() < 1.0, "{name}: cells cover {total}");
    }
}

/// Every entry of each layout file names a space of the maps drawn from it,
/// and each space there has one entry (a TOML table cannot name a key
/// twice).
#[test]
fn every_layout_entry_names_a_space() {
    let layouts = [
        (include_str!("../../../rulesets/classic/layout.toml"), ["classic", "alternative"].as_slice()),
        (include_str!("../../../rulesets/europe/layout.toml"), ["europe"].as_slice()),
        (include_str!("../../../rulesets/anniversary/layout.toml"), ["anniversary-1941", "anniversary-1942"].as_slice()),
    ];
    for (text, rulesets) in layouts {
        let table: toml::Table = toml::from_str(text).unwrap();
        let pos = table["pos"].as_table().unwrap();
        for name in rulesets {
            let rs = ruleset(name).unwrap();
            for id in pos.keys() {
                assert!(rs.map.id(id).is_some(), "{name}: the layout's {id} is not a space");
            }
            assert_eq!(pos.len(), rs.map.len(), "{name}");
        }
    }
}

/// Each label's place is inside its space's area, not in one of its holes.
#[test]
fn every_centre_is_inside_its_cell() {
    for name in RULESETS {
        let b = board(&ruleset(name).unwrap()).unwrap();
        for cell in &b.spaces {
            let in_holes = cell.holes.iter().any(|h| inside(h, cell.centre));
            assert!(inside(&cell.polygon, cell.centre) && !in_holes, "{name}: {}'s centre {:?}", cell.id, cell.centre);
        }
    }
}

/// Whether `p` is inside the ring (even–odd crossings).
fn inside(ring: &[(f64, f64)], p: (f64, f64)) -> bool {
    let mut crossings = 0;
    for k in 0..ring.len() {
        let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1) {
            crossings += 1;
        }
    }
    crossings % 2 == 1
}

fn area(p: &[(f64, f64)]) -> f64 {
    (0..p.len()).map(|k| { let (a, b) = (p[k], p[(k + 1) % p.len()]); a.0 * b.1 - b.0 * a.1 }).sum::<f64>().abs() / 2.0
}

/// What a board shows, read back from its parts: the pairs with a visible
/// passable edge, with any edge at all and with a connector.
struct Shown {
    by_border: BTreeSet<(String, String)>,
    any_border: BTreeMap<(String, String), bool>,
    by_connector: BTreeSet<(String, String)>,
    impassable: usize,
}

fn shown(b: &Board) -> Shown {
    let mut s = Shown { by_border: BTreeSet::new(), any_border: BTreeMap::new(), by_connector: BTreeSet::new(), impassable: 0 };
    for border in &b.borders {
        let p = pair(&border.a, &border.b);
        let seen = s.any_border.entry(p.clone()).or_insert(border.passable);
        assert_eq!(*seen, border.passable, "{}/{}: one pair, one verdict", border.a, border.b);
        if border.passable && border.length() >= VISIBLE {
            s.by_border.insert(p);
        }
        if !border.passable {
            s.impassable += 1;
        }
    }
    for c in &b.connectors {
        s.by_connector.insert(pair(&c.a, &c.b));
    }
    s
}

#[test]
fn every_adjacency_is_visible_and_no_other_is() {
    for name in RULESETS {
        let rs = ruleset(name).unwrap();
        let b = board(&rs).unwrap();
        let adjacent = adjacencies(&rs);
        let s = shown(&b);
        for p in &adjacent {
            assert!(s.by_border.contains(p) || s.by_connector.contains(p), "{name}: {}–{} is not shown", p.0, p.1);
        }
        for (p, passable) in &s.any_border {
            assert_eq!(*passable, adjacent.contains(p), "{name}: the border {}–{}", p.0, p.1);
        }
        for p in &s.by_connector {
            assert!(adjacent.contains(p), "{name}: a connector joins {}–{}, which are not neighbours", p.0, p.1);
        }
        let only_connector = adjacent.iter().filter(|p| !s.by_border.contains(*p)).count();
        let kinds = |k: ConnectorKind| b.connectors.iter().filter(|c| c.kind == k).count();
        let impassable_pairs = s.any_border.values().filter(|passable| !**passable).count();
        eprintln!(
            "{name}: {} adjacencies: {} shown by a shared border, {} by a connector only; connectors: {} neighbour, {} canal, {} wrap; impassable borders: {} stretches between {} pairs",
            adjacent.len(),
            s.by_border.len(),
            only_connector,
            kinds(ConnectorKind::Neighbour),
            kinds(ConnectorKind::Canal),
            kinds(ConnectorKind::WrapAround),
            s.impassable,
            impassable_pairs
        );
    }
}

/// The shared boundaries are found again from the polygons alone, without
/// the board's own bookkeeping: wherever two cells (outlines and holes)
/// have edges along the same line, overlapping for at least the visible
/// length, the board lists a border for the pair with the game's verdict.
#[test]
fn borders_match_the_polygons() {
    for name in ["classic", "europe", "anniversary-1941"] {
        let rs = ruleset(name).unwrap();
        let b = board(&rs).unwrap();
        let s = shown(&b);
        let adjacent = adjacencies(&rs);
        let edges = |c: &warboard_board::Cell| -> Vec<((f64, f64), (f64, f64))> {
            std::iter::once(&c.polygon).chain(&c.holes).flat_map(|ring| (0..ring.len()).map(move |k| (ring[k], ring[(k + 1) % ring.len()]))).collect()
        };
        for (i, ci) in b.spaces.iter().enumerate() {
            for cj in &b.spaces[i + 1..] {
                let overlap: f64 = edges(ci).iter().flat_map(|e| edges(cj).into_iter().map(move |f| collinear_overlap(*e, f))).sum();
                let p = pair(&ci.id, &cj.id);
                if overlap >= VISIBLE {
                    assert_eq!(s.any_border.get(&p), Some(&adjacent.contains(&p)), "{name}: {}–{} share {overlap:.1}", p.0, p.1);
                }
            }
        }
        // And each border lies along both its cells' boundaries.
        let cell = |id: &str| b.spaces.iter().find(|c| c.id == id).unwrap();
        for border in &b.borders {
            for side in [&border.a, &border.b] {
                let along: f64 = edges(cell(side)).into_iter().map(|e| collinear_overlap(border.segment, e)).sum();
                assert!(along >= border.length() - 1e-3, "{name}: the border {}–{} is not on {side}'s boundary", border.a, border.b);
            }
        }
    }
}

/// How long two segments run together on one line (0 if they do not).
fn collinear_overlap(e: ((f64, f64), (f64, f64)), f: ((f64, f64), (f64, f64))) -> f64 {
    let len = length(e);
    if len < 1e-9 {
        return 0.0;
    }
    let (dx, dy) = ((e.1 .0 - e.0 .0) / len, (e.1 .1 - e.0 .1) / len);
    let off = |p: (f64, f64)| ((p.0 - e.0 .0) * dy - (p.1 - e.0 .1) * dx).abs();
    if off(f.0) > 1e-4 || off(f.1) > 1e-4 {
        return 0.0;
    }
    let along = |p: (f64, f64)| (p.0 - e.0 .0) * dx + (p.1 - e.0 .1) * dy;
    let (f0, f1) = (along(f.0).min(along(f.1)), along(f.0).max(along(f.1)));
    (f1.min(len) - f0.max(0.0)).max(0.0)
}

/// A pair whose shared boundary is too short to see gets a connector too.
#[test]
fn short_passable_borders_get_connectors() {
    for name in RULESETS {
        let rs = ruleset(name).unwrap();
        let b = board(&rs).unwrap();
        let s = shown(&b);
        let mut shared: BTreeMap<(String, String), f64> = BTreeMap::new();
        for border in b.borders.iter().filter(|x| x.passable) {
            *shared.entry(pair(&border.a, &border.b)).or_default() += border.length();
        }
        for (p, length) in shared {
            assert!(length >= MIN_SHOWN_BORDER || s.by_connector.contains(&p), "{name}: {}–{} share {length:.1}", p.0, p.1);
        }
    }
}

#[test]
fn the_svg_shows_the_same_board() {
    for name in RULESETS {
        let rs = ruleset(name).unwrap();
        let text = svg(&rs).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{name}: the SVG does not parse: {e}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let b = board(&rs).unwrap();
        assert_eq!(root.attribute("viewBox"), Some(format!("0 0 {} {}", b.width, b.height).as_str()));

        let class_has = |n: &roxmltree::Node, word: &str| n.attribute("class").is_some_and(|c| c.split(' ').any(|w| w == word));
        // One element per space, with its id and the right class.
        for s in rs.map.ids() {
            let id = format!("space-{}", rs.map.name(s));
            let found: Vec<_> = doc.descendants().filter(|n| n.attribute("id") == Some(id.as_str())).collect();
            assert_eq!(found.len(), 1, "{name}: {id}");
            assert!(class_has(&found[0], if rs.map.is_sea(s) { "sea" } else { "land" }), "{name}: {id}");
            assert_eq!(found[0].attribute("data-space"), Some(rs.map.name(s)));
            let labels = doc.descendants().filter(|n| class_has(n, "label") && n.attribute("data-space") == Some(rs.map.name(s))).count();
            assert_eq!(labels, 1, "{name}: {id}'s label");
        }
        assert_eq!(doc.descendants().filter(|n| n.attribute("id").is_some_and(|i| i.starts_with("space-"))).count(), rs.map.len());

        // The adjacency checks again, from the document's attributes alone.
        let adjacent = adjacencies(&rs);
        let mut by_border = BTreeSet::new();
        let mut by_connector = BTreeSet::new();
        let number = |n: &roxmltree::Node, a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok()).unwrap_or_else(|| panic!("{name}: {a} of {n:?}"));
        for n in doc.descendants().filter(|n| class_has(n, "border")) {
            let p = pair(n.attribute("data-a").unwrap(), n.attribute("data-b").unwrap());
            if class_has(&n, "impassable") {
                assert!(!adjacent.contains(&p), "{name}: {}–{} are neighbours but drawn impassable", p.0, p.1);
            } else {
                assert!(adjacent.contains(&p), "{name}: {}–{} are not neighbours but drawn passable", p.0, p.1);
                let len = length(((number(&n, "x1"), number(&n, "y1")), (number(&n, "x2"), number(&n, "y2"))));
                if len >= VISIBLE {
                    by_border.insert(p);
                }
            }
        }
        for n in doc.descendants().filter(|n| class_has(n, "connector")) {
            let p = pair(n.attribute("data-a").unwrap(), n.attribute("data-b").unwrap());
            assert!(adjacent.contains(&p), "{name}: a connector joins {}–{}", p.0, p.1);
            assert!(n.attribute("d").is_some_and(|d| d.starts_with('M')), "{name}: {}–{} is drawn", p.0, p.1);
            by_connector.insert(p);
        }
        for p in &adjacent {
            assert!(by_border.contains(p) || by_connector.contains(p), "{name}: the SVG does not show {}–{}", p.0, p.1);
        }
    }
}

#[test]
fn the_svg_is_the_same_every_time() {
    for name in RULESETS {
        let rs = ruleset(name).unwrap();
        assert_eq!(svg(&rs).unwrap(), svg(&rs).unwrap(), "{name}");
        assert_eq!(board(&rs).unwrap(), board(&rs).unwrap(), "{name}");
    }
}

#[test]
fn a_ruleset_without_a_layout_is_refused_by_name() {
    let mut rs = (*ruleset("classic").unwrap()).clone();
    rs.name = "nowhere".into();
    let err = board(&rs).unwrap_err();
    assert!(err.contains("nowhere"), "{err}");
}
