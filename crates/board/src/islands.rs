//! Islands: land whose every neighbour is a sea zone. As a Voronoi cell an
//! island would reach out to the land and sea zones around it that it does
//! not touch in the game; drawn instead as a small round shape cut out of
//! the sea around it, it touches only water, as on a real map.

use crate::geometry::{area, clip_params, clip_segment, distance, dodecagon, ConvexCell, EdgeOf, Point};
use crate::regions::{region, Piece};
use warboard_rules::ruleset::Map;
use warboard_rules::SpaceId;

/// An island's size: this share of the distance to the nearest other
/// place, so that two islands never overlap (two shares add up to less
/// than the whole) and no other space's place is covered, within limits.
const SHARE_OF_NEAREST: f64 = 0.4;
pub const SMALLEST: f64 = 10.0;
const LARGEST: f64 = 45.0;

/// An island on the board: the space (an index into the layout's places),
/// its shape's centre and the distance from it to the shape's corners.
#[derive(Clone, Debug)]
pub struct Island {
    pub space: usize,
    pub centre: Point,
    pub radius: f64,
}

impl Island {
    /// The island's shape, corners clockwise on the screen.
    pub fn outline(&self) -> Vec<Point> {
        dodecagon(self.centre, self.radius)
    }

    /// How much of the island's `outline` (see [`Island::outline`]) lies
    /// in the convex `cell`.
    pub fn shore_in(&self, outline: &[Point], cell: &[Point]) -> f64 {
        // Most cells are far away or hold the whole island: the island's
        // middle against each edge's line tells without clipping.
        let n = cell.len();
        let mut least_inside = f64::INFINITY;
        for k in 0..n {
            let (a, b) = (cell[k], cell[(k + 1) % n]);
            let inside = ((b.0 - a.0) * (self.centre.1 - a.1) - (b.1 - a.1) * (self.centre.0 - a.0)) / distance(a, b).max(1e-12);
            if inside < -self.radius {
                return 0.0;
            }
            least_inside = least_inside.min(inside);
        }
        let m = outline.len();
        let sides = (0..m).map(|k| (outline[k], outline[(k + 1) % m]));
        if least_inside >= self.radius {
            return sides.map(|(a, b)| distance(a, b)).sum();
        }
        sides.filter_map(|(a, b)| clip_segment(a, b, cell)).map(|(a, b)| distance(a, b)).sum()
    }
}

/// Whether the game's space is an island: land with neighbours, all of
/// them sea zones.
pub fn is_island(map: &Map, s: SpaceId) -> bool {
    map.is_land(s) && !map.neighbours(s).is_empty() && map.neighbours(s).iter().all(|n| map.is_sea(*n))
}

/// The island at place `space` among `places`, at its largest size.
pub fn island(space: usize, places: &[Point]) -> Island {
    let centre = places[space];
    let nearest = places.iter().enumerate().filter(|(j, _)| *j != space).map(|(_, p)| distance(centre, *p)).fold(f64::INFINITY, f64::min);
    Island { space, centre, radius: (nearest * SHARE_OF_NEAREST).clamp(SMALLEST, LARGEST) }
}

/// How good a place and size for an island is, larger better: no shore in
/// a wrong cell, wholly on the board, right cells touched, minus the size's
/// index (0: the largest), minus the offset's index (0: at its place).
type Rank = (bool, bool, usize, isize, isize);

/// How far an island may move from its place to sit in its own waters.
const MAX_MOVE: i32 = 30;
const MOVE_STEP: i32 = 5;

/// Each smaller size tried is this share of the one before.
const SHRINK: f64 = 0.85;

/// Moves and shrinks an island so that its shore lies only in the cells of
/// spaces it is adjacent to, touching as many of them as it can: the
/// fitted cells are convex and cannot always wrap an island the way a sea
/// zone does on a real map. Places within [`MAX_MOVE`] and sizes down to
/// [`SMALLEST`] are ranked by [`Rank`]; none cuts a cell in two or enters
/// a circle of `clear` (other spaces' places, other islands). `cells` are
/// `(space, cell)`, on a board `size` wide and high. No candidate at all:
/// the island as it was.
pub fn settle(island: &Island, cells: &[(usize, &ConvexCell)], adjacent: &dyn Fn(usize, usize) -> bool, clear: &[(Point, f64)], size: Point) -> Island {
    let mut offsets: Vec<(i32, i32)> = (-MAX_MOVE / MOVE_STEP..=MAX_MOVE / MOVE_STEP)
        .flat_map(|y| (-MAX_MOVE / MOVE_STEP..=MAX_MOVE / MOVE_STEP).map(move |x| (x * MOVE_STEP, y * MOVE_STEP)))
        .filter(|(x, y)| x * x + y * y <= MAX_MOVE * MAX_MOVE)
        .collect();
    offsets.sort_by_key(|(x, y)| (x * x + y * y, *y, *x));
    let mut sizes = vec![island.radius];
    while let Some(&last) = sizes.last().filter(|r| **r > SMALLEST) {
        sizes.push((last * SHRINK).max(SMALLEST));
    }
    let mut candidates: Vec<(Rank, Island)> = Vec::new();
    for (o, (dx, dy)) in offsets.iter().enumerate() {
        let centre = (island.centre.0 + *dx as f64, island.centre.1 + *dy as f64);
        for (k, radius) in sizes.iter().enumerate() {
            if clear.iter().any(|(p, r)| distance(*p, centre) < radius + r) {
                continue;
            }
            let candidate = Island { space: island.space, centre, radius: *radius };
            let outline = candidate.outline();
            let (mut wrong, mut touched, mut splits) = (0.0, 0, false);
            for (space, cell) in cells {
                let shore = candidate.shore_in(&outline, &cell.corners);
                if shore > 0.0 && covers_two_stretches(&outline, cell) {
                    splits = true;
                    break;
                }
                if adjacent(island.space, *space) {
                    touched += usize::from(shore >= 1.0);
                } else {
                    wrong += shore;
                }
            }
            if splits {
                continue;
            }
            let on_board = centre.0 >= *radius && centre.1 >= *radius && centre.0 + radius <= size.0 && centre.1 + radius <= size.1;
            candidates.push(((wrong < 0.5, on_board, touched, -(k as isize), -(o as isize)), candidate));
            // Smaller sizes here rank lower than this one unless it has
            // wrong shore or is partly off the board.
            if wrong < 0.5 && on_board {
                break;
            }
        }
    }
    candidates.sort_by_key(|(rank, _)| std::cmp::Reverse(*rank));
    // The quick test can miss an island that only grazes a cell's edge or
    // corner: the best candidate that really leaves every cell whole wins.
    candidates
        .into_iter()
        .map(|(_, candidate)| candidate)
        .find(|candidate| !cells.iter().any(|(_, cell)| cuts_in_two(candidate, cell)))
        .unwrap_or_else(|| island.clone())
}

/// Whether the island covers two separate stretches of the cell's
/// boundary, which for a convex cell and a convex island is when cutting
/// it out leaves the cell in two parts: a chord between the stretches,
/// inside the island, splits the cell, and every part left touches the
/// boundary. Quick, but blind to an island that only grazes an edge or a
/// corner (see [`cuts_in_two`]).
fn covers_two_stretches(outline: &[Point], cell: &ConvexCell) -> bool {
    let n = cell.corners.len();
    // Where each edge runs under the island: a single stretch, the island
    // being convex.
    let under: Vec<Option<(f64, f64)>> = (0..n)
        .map(|k| {
            let (a, b) = cell.edge(k);
            clip_params(a, b, outline)
        })
        .collect();
    let starts_under = |k: usize| under[k].is_some_and(|(t0, _)| t0 <= 1e-9);
    let ends_under = |k: usize| under[k].is_some_and(|(_, t1)| t1 >= 1.0 - 1e-9);
    // A stretch begins where an edge goes under the island, unless it
    // carries on from the edge before.
    let stretches = (0..n).filter(|&k| under[k].is_some() && !(starts_under(k) && ends_under((k + n - 1) % n))).count();
    stretches >= 2
}

/// Whether cutting the island out of the cell leaves it in two parts (or
/// in two touching at a point), by cutting it out and chaining what is
/// left.
fn cuts_in_two(island: &Island, cell: &ConvexCell) -> bool {
    if island.shore_in(&island.outline(), &cell.corners) == 0.0 {
        return false;
    }
    // Every edge on the frame: the pieces' owner meets only itself and the island.
    let alone = ConvexCell { corners: cell.corners.clone(), edges: vec![EdgeOf::Frame; cell.edges.len()] };
    let owner = if island.space == 0 { 1 } else { 0 };
    region(&cut(vec![Piece { owner, cell: alone }], island), owner).is_err()
}

/// A label no piece edge has, for the island's outline while it is cut.
const OUTLINE: EdgeOf = EdgeOf::Site(usize::MAX);

/// Pieces smaller than this are rounding, not area.
const NO_AREA: f64 = 1e-6;

/// Cuts the island out of the pieces: each piece it overlaps becomes the
/// part under the island (now the island's) and the parts around it, one
/// per side of the outline, split along the lines from the island's middle
/// through its corners (internal cuts, across which the piece's owner
/// meets itself).
pub fn cut(pieces: Vec<Piece>, island: &Island) -> Vec<Piece> {
    let outline = island.outline();
    let m = outline.len();
    let mut out = Vec::with_capacity(pieces.len() + 16);
    for piece in pieces {
        let mut under = piece.cell.clone();
        for k in 0..m {
            under.keep_right_of(outline[k], outline[(k + 1) % m], OUTLINE);
        }
        if area(&under.corners) < NO_AREA {
            out.push(piece);
            continue;
        }
        // Under the island: its outline faces the piece's owner; the
        // piece's own edges are now inside the island (or the frame).
        let edges = under
            .edges
            .iter()
            .map(|e| match *e {
                OUTLINE => EdgeOf::Site(piece.owner),
                EdgeOf::Frame => EdgeOf::Frame,
                EdgeOf::Site(_) => EdgeOf::Site(island.space),
            })
            .collect();
        out.push(Piece { owner: island.space, cell: ConvexCell { corners: under.corners, edges } });
        // Around it: the part beyond side k, within the angle from the
        // island's middle through the side's two corners, so that each
        // point around the island is in exactly one part and each part
        // meets the island along its whole side, and nowhere else.
        for k in 0..m {
            let (from, to) = (outline[k], outline[(k + 1) % m]);
            let mut part = piece.cell.clone();
            part.keep_right_of(to, from, EdgeOf::Site(island.space));
            part.keep_right_of(island.centre, from, EdgeOf::Site(piece.owner));
            part.keep_right_of(to, island.centre, EdgeOf::Site(piece.owner));
            if area(&part.corners) >= NO_AREA {
                out.push(Piece { owner: piece.owner, cell: part });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regions::{borders, region};

    #[test]
    fn an_island_cuts_a_cell_in_two_only_across_it() {
        // The band 40 < y < 60 (on the screen, right of going east is south).
        let mut strip = ConvexCell::rectangle(100.0, 100.0);
        strip.keep_right_of((0.0, 40.0), (100.0, 40.0), EdgeOf::Frame);
        strip.keep_right_of((100.0, 60.0), (0.0, 60.0), EdgeOf::Frame);
        assert!((area(&strip.corners) - 2000.0).abs() < 1e-9);
        let cases = [((50.0, 50.0), 15.0, true), ((50.0, 50.0), 5.0, false), ((50.0, 35.0), 10.0, false), ((0.0, 50.0), 15.0, false), ((50.0, 90.0), 10.0, false), ((50.0, 70.0), 35.0, true)];
        for (centre, radius, splits) in cases {
            let island = Island { space: 1, centre, radius };
            assert_eq!(cuts_in_two(&island, &strip), splits, "{centre:?} {radius}");
            assert_eq!(covers_two_stretches(&island.outline(), &strip), splits, "{centre:?} {radius}");
        }
        // Grazing the band's lower edge with one corner pinches off its
        // corner at a point: the quick test misses it, cutting does not.
        let grazing = Island { space: 1, centre: (10.0, 25.0), radius: 35.0 };
        assert!(cuts_in_two(&grazing, &strip));
        // Nearly covering a corner of a cell (the classic map's Madagascar
        // in the South Atlantic, once) leaves a sliver cut off: both see it.
        let sea = ConvexCell {
            corners: vec![(745.8, 1000.0), (480.4, 1000.0), (558.1, 904.9), (655.5, 864.4), (694.9, 868.9), (740.8, 885.9)],
            edges: vec![EdgeOf::Frame; 6],
        };
        let island = Island { space: 1, centre: (710.5, 904.0), radius: 35.09 };
        assert!(cuts_in_two(&island, &sea));
        assert!(covers_two_stretches(&island.outline(), &sea));
    }

    #[test]
    fn an_island_in_one_cell_is_a_hole_in_it() {
        let sea = Piece { owner: 0, cell: ConvexCell::rectangle(100.0, 100.0) };
        let island = Island { space: 1, centre: (50.0, 50.0), radius: 10.0 };
        let pieces = cut(vec![sea], &island);
        let sea = region(&pieces, 0).unwrap();
        assert_eq!(sea.outline.len(), 4);
        assert_eq!(sea.holes.len(), 1);
        let land = region(&pieces, 1).unwrap();
        assert_eq!(land.outline.len(), 12);
        let total = area(&sea.outline) - area(&sea.holes[0]) + area(&land.outline);
        assert!((total - 10_000.0).abs() < 1e-6, "{total}");
        let shore: f64 = borders(&pieces).iter().map(|(a, b, p, q)| { assert_eq!((*a, *b), (0, 1)); distance(*p, *q) }).sum();
        assert!((shore - island.shore_in(&island.outline(), &ConvexCell::rectangle(100.0, 100.0).corners)).abs() < 1e-6);
    }

    #[test]
    fn an_island_on_a_line_touches_both_sides() {
        let mut west = ConvexCell::rectangle(100.0, 100.0);
        west.keep_nearer((25.0, 50.0), (75.0, 50.0), 2, 0.0);
        let mut east = ConvexCell::rectangle(100.0, 100.0);
        east.keep_nearer((75.0, 50.0), (25.0, 50.0), 0, 0.0);
        let pieces = vec![Piece { owner: 0, cell: west }, Piece { owner: 2, cell: east }];
        let pieces = cut(pieces, &Island { space: 1, centre: (50.0, 50.0), radius: 10.0 });
        for s in 0..3 {
            let r = region(&pieces, s).unwrap();
            assert!(r.holes.is_empty(), "{s}");
        }
        let pairs: Vec<(usize, usize)> = borders(&pieces).iter().map(|(a, b, _, _)| (*a, *b)).collect();
        assert!(pairs.contains(&(0, 1)) && pairs.contains(&(1, 2)) && pairs.contains(&(0, 2)), "{pairs:?}");
    }
}
