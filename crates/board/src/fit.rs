//! Weights and nudges that make the cells tell the game's story: the plain
//! Voronoi diagram of the layout's places has cells touching where the
//! game's spaces do not, and apart where they do. Each site's weight moves
//! the lines around its cell (see [`crate::voronoi`]), and the site itself
//! may move a little from its place. A coordinate descent tries each site
//! a step heavier and lighter and a step each way, coarse steps first, and
//! keeps a change when the board shows more of the game's adjacencies as
//! shared edges and fewer false ones, and each space's place stays well
//! inside its cell. Deterministic: fixed order, fixed steps, a change kept
//! only when it strictly helps, and nothing but IEEE arithmetic (no
//! library sines or `hypot`), so every machine fits the same cells.

use crate::geometry::{distance, ConvexCell, EdgeOf, Point};
use crate::islands::Island;
use crate::voronoi::Diagram;

/// A shared edge this long counts in full; shorter ones in proportion, so
/// that the descent sees a border grow before it is long enough to see.
const FULL_EDGE: f64 = 15.0;

/// An island's shore in a cell counts in full from this length.
const FULL_SHORE: f64 = 6.0;

/// Weight steps, coarse to fine. A step of `w` moves the line between two
/// sites `d` apart by `w / 2d`: at a typical 60 units apart, 3200 moves it
/// ~27 units and 400 ~3. Each comes with a move of the site by
/// [`MOVE_PER_WEIGHT`] times as many units (16, 6 and 2). Finer steps and
/// more passes gained next to nothing on the three maps, at twice the time.
const STEPS: [f64; 3] = [3200.0, 1200.0, 400.0];
const MOVE_PER_WEIGHT: f64 = 16.0 / 3200.0;

/// Passes over all sites at one step size, at most (a pass that changes
/// nothing ends the step early).
const PASSES: usize = 4;

/// A space's place in the layout stays at least this far inside its cell
/// (or as far as it starts, if less), so that the cell stays where the
/// layout puts the space.
const PLACE_ROOM: f64 = 8.0;

/// How far a site may move from its place in the layout.
const MAX_DRIFT: f64 = 30.0;

/// Two sites never come closer than this.
const SITE_GAP: f64 = 4.0;

/// What the descent works on: the diagram, the space each site is, the
/// islands (not sites: they are cut out of the cells afterwards, see
/// [`crate::islands`]) and the game's adjacency between spaces.
pub struct Problem<'a> {
    pub diagram: Diagram,
    pub space_of_site: Vec<usize>,
    pub islands: Vec<Island>,
    pub adjacent: &'a dyn Fn(usize, usize) -> bool,
    /// Each island's outline, worked out once.
    outlines: Vec<Vec<Point>>,
}

impl<'a> Problem<'a> {
    pub fn new(diagram: Diagram, space_of_site: Vec<usize>, islands: Vec<Island>, adjacent: &'a dyn Fn(usize, usize) -> bool) -> Problem<'a> {
        let outlines = islands.iter().map(Island::outline).collect();
        Problem { diagram, space_of_site, islands, adjacent, outlines }
    }
}

impl Problem<'_> {
    /// How well the cells show the game's adjacency: each adjacent pair
    /// with a shared edge counts up to 1 by the edge's length, each shared
    /// edge between non-adjacent spaces down the same way; each island's
    /// shore in a cell likewise, except that shore in a cell it is not
    /// adjacent to counts against without limit.
    fn score(&self) -> f64 {
        let all: Vec<usize> = (0..self.diagram.cells.len()).collect();
        self.score_of(&all, |i| &self.diagram.cells[i])
    }

    /// The part of [`Problem::score`] that depends on the cells `sites`
    /// (sorted), with `cell(i)` for their shapes: their edges (those
    /// between two of them counted once) and the islands' shores in them.
    /// A change to those cells alone changes the score by the difference.
    fn score_of<'c>(&'c self, sites: &[usize], cell: impl Fn(usize) -> &'c ConvexCell) -> f64 {
        let mut total = 0.0;
        for &i in sites {
            let c = cell(i);
            for (k, e) in c.edges.iter().enumerate() {
                let EdgeOf::Site(j) = *e else { continue };
                if j < i && sites.binary_search(&j).is_ok() {
                    continue;
                }
                let (a, b) = c.edge(k);
                let part = (distance(a, b) / FULL_EDGE).min(1.0);
                total += if (self.adjacent)(self.space_of_site[i], self.space_of_site[j]) { part } else { -part };
            }
            for (island, outline) in self.islands.iter().zip(&self.outlines) {
                // Touching a right zone counts up to 1; every bit of shore
                // in a wrong cell counts against, without limit.
                let shore = island.shore_in(outline, &c.corners) / FULL_SHORE;
                if shore > 0.0 {
                    total += if (self.adjacent)(island.space, self.space_of_site[i]) { shore.min(1.0) } else { -shore };
                }
            }
        }
        total
    }
}

/// How far inside `cell` the point is: its distance to the nearest edge,
/// negative outside.
pub fn room(cell: &ConvexCell, point: Point) -> f64 {
    let n = cell.corners.len();
    if n < 3 {
        return f64::NEG_INFINITY;
    }
    (0..n)
        .map(|k| {
            let (a, b) = cell.edge(k);
            let len = distance(a, b).max(1e-9);
            // Corners go clockwise on the screen (y down): inside is to the
            // right of each edge, where this cross product is positive.
            ((b.0 - a.0) * (point.1 - a.1) - (b.1 - a.1) * (point.0 - a.0)) / len
        })
        .fold(f64::INFINITY, f64::min)
}

/// Moves the sites (within [`MAX_DRIFT`] of where they start, which stays
/// inside their cells) and sets their weights so that the cells show the
/// game's adjacency as well as the descent finds, then rebuilds the
/// diagram. Returns the score before and after.
pub fn fit(problem: &mut Problem) -> (f64, f64) {
    let n = problem.diagram.sites.len();
    let places = problem.diagram.sites.clone();
    // A site that starts with less room keeps at least what it has.
    let least_room: Vec<f64> = (0..n).map(|i| room(&problem.diagram.cells[i], places[i]).min(PLACE_ROOM)).collect();
    let start = problem.score();
    for step in STEPS {
        let shift = step * MOVE_PER_WEIGHT;
        let moves = [(0.0, 0.0, step), (0.0, 0.0, -step), (shift, 0.0, 0.0), (-shift, 0.0, 0.0), (0.0, shift, 0.0), (0.0, -shift, 0.0)];
        for _ in 0..PASSES {
            let mut improved = false;
            for i in 0..n {
                for &(dx, dy, dw) in &moves {
                    let d = &mut problem.diagram;
                    let (old_site, old_weight) = (d.sites[i], d.weights[i]);
                    let site = (old_site.0 + dx, old_site.1 + dy);
                    if distance(site, places[i]) > MAX_DRIFT || d.sites.iter().enumerate().any(|(j, s)| j != i && distance(*s, site) < SITE_GAP) {
                        continue;
                    }
                    let mut old_cells = d.set_site(i, site, old_weight + dw);
                    old_cells.sort_by_key(|(j, _)| *j);
                    let roomy = old_cells.iter().all(|(j, _)| room(&d.cells[*j], places[*j]) >= least_room[*j]);
                    let changed: Vec<usize> = old_cells.iter().map(|(j, _)| *j).collect();
                    let gain = if roomy {
                        let after = problem.score_of(&changed, |j| &problem.diagram.cells[j]);
                        // `score_of` asks only for the cells in `changed`.
                        let before = problem.score_of(&changed, |j| &old_cells[changed.binary_search(&j).unwrap_or(0)].1);
                        after - before
                    } else {
                        f64::NEG_INFINITY
                    };
                    if gain > 1e-9 {
                        improved = true;
                        break;
                    }
                    problem.diagram.restore(i, old_site, old_weight, old_cells);
                }
            }
            if !improved {
                break;
            }
        }
    }
    problem.diagram.rebuild();
    (start, problem.score())
}
