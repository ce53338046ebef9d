//! The shapes of a layout's spaces, worked out once per layout: the fitted
//! Voronoi cells of the places (see [`crate::fit`]), the islands cut out of
//! them (see [`crate::islands`]), and from those each space's area, the
//! boundaries spaces share and where each label goes.

use crate::geometry::{centroid, distance, ConvexCell, EdgeOf, Point};
use crate::islands::{self, Island};
use crate::regions::{self, Piece, Region};
use crate::{fit, layout, voronoi};
use std::sync::OnceLock;

/// The board's height in layout units: the layouts' 0..999 grid.
const SIZE: f64 = 1000.0;

/// An island keeps this far from every other space's place, and a label
/// put in the middle of a cell this far from every island (else it goes
/// at the space's place).
const PLACE_CLEARANCE: f64 = 12.0;
const LABEL_CLEARANCE: f64 = 14.0;

/// How much wider than high each map's board is drawn. The layouts squeeze
/// each map into a square; the world maps are wide, and their cells match
/// the game's adjacency best drawn about this wide (`adjacency_experiment`
/// below: fitted, the classic map shows 278 of its 309 adjacencies as
/// shared borders with 42 false ones at 1.75, 261 and 60 square; Europe
/// does best square).
fn aspect(layout: &str) -> f64 {
    match layout {
        "europe" => 1.0,
        _ => 1.75,
    }
}

/// The ruleset whose map a layout's cells are fitted to: every ruleset on
/// one layout has the same map (the Alternative rules change values and
/// owners, not the shapes).
fn fitted_to(layout: &str) -> &'static str {
    match layout {
        "anniversary" => "anniversary-1941",
        "europe" => "europe",
        _ => "classic",
    }
}

/// A layout's shapes, by the layout's places (index `p` is
/// `layout.places[p]`), on a board `width` × `height`.
#[derive(Debug, PartialEq)]
pub struct Shapes {
    pub width: f64,
    pub height: f64,
    pub regions: Vec<Region>,
    /// Where each place's label and connectors go, inside its area.
    pub centres: Vec<Point>,
    /// Shared boundaries `(p, q, from, to)`, `p < q`.
    pub borders: Vec<(usize, usize, Point, Point)>,
}

/// Works out the shapes of layout `name` on a board `aspect` times wider
/// than high, the cells fitted to the map or not.
fn build(name: &'static str, aspect: f64, fitted: bool) -> Result<Shapes, String> {
    let l = layout::read(name)?;
    let (width, height) = (SIZE * aspect, SIZE);
    let places: Vec<Point> = l.places.iter().map(|(_, p)| (p.0 * aspect, p.1)).collect();
    let rs = warboard_rules::ruleset(fitted_to(name)).map_err(|e| format!("layout {name}: {e}"))?;
    let map = &rs.map;
    let mut space_of_place = Vec::with_capacity(places.len());
    for (id, _) in &l.places {
        space_of_place.push(map.id(id).ok_or_else(|| format!("layout {name}: {id} is not a space of the {} map", rs.name))?);
    }
    let adjacent = |p: usize, q: usize| map.adjacent(space_of_place[p], space_of_place[q]);

    // Islands are cut out of the cells afterwards; every other place is a
    // site of the diagram.
    let on_island: Vec<bool> = space_of_place.iter().map(|s| islands::is_island(map, *s)).collect();
    let site_places: Vec<usize> = (0..places.len()).filter(|p| !on_island[*p]).collect();
    let sites: Vec<Point> = site_places.iter().map(|p| places[*p]).collect();
    let diagram = voronoi::Diagram::new(sites, width, height)
        .map_err(|(i, j)| format!("layout {name}: {} and {} are at the same place", l.places[site_places[i]].0, l.places[site_places[j]].0))?;
    let islands = (0..places.len()).filter(|p| on_island[*p]).map(|p| islands::island(p, &places)).collect();
    let mut problem = fit::Problem::new(diagram, site_places.clone(), islands, &adjacent);
    if fitted {
        fit::fit(&mut problem);
    }
    let fit::Problem { diagram, islands, .. } = problem;

    // The cells as pieces of the spaces at their places.
    let cells: Vec<(usize, &ConvexCell)> = diagram.cells.iter().enumerate().map(|(i, c)| (site_places[i], c)).collect();
    let islands = settle_islands(islands, &cells, &places, &adjacent, (width, height));
    let mut pieces: Vec<Piece> = cells
        .iter()
        .map(|(p, cell)| {
            let edges = cell.edges.iter().map(|e| if let EdgeOf::Site(j) = *e { EdgeOf::Site(site_places[j]) } else { *e }).collect();
            Piece { owner: *p, cell: ConvexCell { corners: cell.corners.clone(), edges } }
        })
        .collect();
    for island in &islands {
        pieces = islands::cut(pieces, island);
    }
    let mut regions = Vec::with_capacity(places.len());
    for (p, (id, _)) in l.places.iter().enumerate() {
        regions.push(regions::region(&pieces, p).map_err(|e| format!("layout {name}: {id}'s area is wrong: {e}"))?);
    }
    let centres = label_places(&places, &cells, &islands);
    Ok(Shapes { width, height, regions, centres, borders: regions::borders(&pieces) })
}

/// Settles each island (see [`islands::settle`]) in turn, clear of the
/// other spaces' places (where their labels go) and of the other islands.
fn settle_islands(islands: Vec<Island>, cells: &[(usize, &ConvexCell)], places: &[Point], adjacent: &dyn Fn(usize, usize) -> bool, size: Point) -> Vec<Island> {
    let on_island = |p: usize| islands.iter().any(|i| i.space == p);
    let other_places: Vec<(usize, Point)> = places.iter().copied().enumerate().filter(|(p, _)| !on_island(*p)).collect();
    let mut settled: Vec<Island> = Vec::with_capacity(islands.len());
    for (k, island) in islands.iter().enumerate() {
        let mut clear: Vec<(Point, f64)> = other_places.iter().map(|(_, at)| (*at, PLACE_CLEARANCE)).collect();
        clear.extend(settled.iter().chain(&islands[k + 1..]).map(|other| (other.centre, other.radius + 2.0)));
        settled.push(islands::settle(island, cells, adjacent, &clear, size));
    }
    settled
}

/// Where each place's label and connectors go: the middle of its cell, or
/// its place where that middle is on or next to an island (islands keep
/// clear of places); an island's, the island's middle.
fn label_places(places: &[Point], cells: &[(usize, &ConvexCell)], islands: &[Island]) -> Vec<Point> {
    let mut centres = places.to_vec();
    for (p, cell) in cells {
        let middle = centroid(&cell.corners);
        if !islands.iter().any(|island| distance(middle, island.centre) < island.radius + LABEL_CLEARANCE) {
            centres[*p] = middle;
        }
    }
    for island in islands {
        centres[island.space] = island.centre;
    }
    centres
}

/// The shapes of `layout`, worked out the first time they are asked for.
pub fn of(layout: &layout::Layout) -> Result<&'static Shapes, String> {
    static BUILT: [OnceLock<Result<Shapes, String>>; layout::COUNT] = [const { OnceLock::new() }; layout::COUNT];
    let i = layout::index(layout.name)?;
    BUILT[i].get_or_init(|| build(layout.name, aspect(layout.name), true)).as_ref().map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MIN_SHOWN_BORDER;
    use warboard_rules::SpaceId;

    #[test]
    fn shapes_come_out_the_same_every_time() {
        for name in ["classic", "europe", "anniversary"] {
            let once = build(name, aspect(name), true).unwrap();
            assert_eq!(once, build(name, aspect(name), true).unwrap(), "{name}");
            assert_eq!(&once, of(layout::read(name).unwrap()).unwrap(), "{name}");
        }
    }

    /// How well each layout's cells show its map at several widths, plain
    /// and fitted (run with `--ignored --nocapture`): what [`aspect`] was
    /// chosen by.
    #[test]
    #[ignore]
    fn adjacency_experiment() {
        for name in ["classic", "europe", "anniversary"] {
            let rs = warboard_rules::ruleset(fitted_to(name)).unwrap();
            let map = &rs.map;
            let l = layout::read(name).unwrap();
            let space: Vec<SpaceId> = l.places.iter().map(|(id, _)| map.id(id).unwrap()).collect();
            for aspect in [1.0, 1.25, 1.5, 1.75, 2.0] {
                for fitted in [false, true] {
                    let t = std::time::Instant::now();
                    let g = build(name, aspect, fitted).unwrap();
                    let mut shared = std::collections::BTreeMap::new();
                    for &(p, q, from, to) in &g.borders {
                        *shared.entry((p, q)).or_insert(0.0) += distance(from, to);
                    }
                    let (mut shown, mut falses, mut false_len) = (0, 0, 0.0);
                    for ((p, q), len) in shared {
                        if map.adjacent(space[p], space[q]) {
                            shown += usize::from(len >= MIN_SHOWN_BORDER);
                        } else {
                            falses += 1;
                            false_len += len;
                        }
                    }
                    eprintln!("{name} aspect {aspect} fitted {fitted}: shown {shown} false {falses} ({false_len:.0} long) in {:?}", t.elapsed());
                }
            }
        }
    }

}
