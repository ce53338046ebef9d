//! The Voronoi diagram of the spaces' places, clipped to the board: each
//! site's cell is the board's rectangle cut by the line between it and
//! every other site. O(n²) cuts at worst, for ~150 sites, and no special
//! cases to get wrong (no sweep line, no Delaunay flips).
//!
//! Sites carry weights (a power diagram): the line between sites `i` and
//! `j` is where `|p − sᵢ|² − wᵢ = |p − sⱼ|² − wⱼ`, still straight and
//! perpendicular to the two, moved towards the lighter one. With all
//! weights 0 it is the plain Voronoi diagram; [`crate::fit`] sets weights so
//! that the cells touch where the game's spaces do.

use crate::geometry::{distance, ConvexCell, Point};

/// Closer than this, two sites are a mistake in the layout, not two places.
const SAME_PLACE: f64 = 0.5;

/// The sites, their weights and their cells, kept in step.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub sites: Vec<Point>,
    pub weights: Vec<f64>,
    pub cells: Vec<ConvexCell>,
    width: f64,
    height: f64,
    heaviest: f64,
    /// For each site, the others nearest first, as the sites first stood:
    /// the order to cut a cell in. Near sites cut the most, so later cuts
    /// have fewer corners to test and the far sites are soon out of reach.
    /// (Only the speed depends on it: every site is still considered.)
    cut_order: Vec<Vec<usize>>,
}

impl Diagram {
    /// The plain Voronoi diagram of `sites` in the rectangle `width` ×
    /// `height`. `Err((i, j))`: sites `i` and `j` are at the same place.
    pub fn new(sites: Vec<Point>, width: f64, height: f64) -> Result<Diagram, (usize, usize)> {
        for (i, a) in sites.iter().enumerate() {
            if let Some(j) = sites[i + 1..].iter().position(|b| distance(*a, *b) < SAME_PLACE) {
                return Err((i, i + 1 + j));
            }
        }
        let n = sites.len();
        let cut_order = (0..n)
            .map(|i| {
                let mut others: Vec<usize> = (0..n).filter(|j| *j != i).collect();
                others.sort_by(|a, b| distance(sites[i], sites[*a]).total_cmp(&distance(sites[i], sites[*b])).then(a.cmp(b)));
                others
            })
            .collect();
        let mut d = Diagram { sites, weights: vec![0.0; n], cells: Vec::new(), width, height, heaviest: 0.0, cut_order };
        d.cells = (0..n).map(|i| d.cell(i)).collect();
        Ok(d)
    }

    /// Site `i`'s cell for the weights now set.
    pub fn cell(&self, i: usize) -> ConvexCell {
        let site = self.sites[i];
        let mut cell = ConvexCell::rectangle(self.width, self.height);
        let mut reach = f64::INFINITY;
        // The line with site `j`, `d` away, is `d / 2 + (wᵢ − wⱼ) / 2d` from
        // the site, at least `d / 2 + (wᵢ − heaviest) / 2d`: past the
        // cell's farthest corner, it cannot cut. That bound grows with `d`,
        // so the larger of the two coordinate differences, which is at most
        // `d`, tells most far sites without a square root.
        let lightest_line = |d: f64| d / 2.0 + (self.weights[i] - self.heaviest) / (2.0 * d);
        for &j in &self.cut_order[i] {
            let other = self.sites[j];
            let along = (other.0 - site.0).abs().max((other.1 - site.1).abs());
            if along > 0.0 && lightest_line(along) > reach {
                continue;
            }
            let d = distance(site, other);
            if lightest_line(d) > reach {
                continue;
            }
            cell.keep_nearer(site, self.sites[j], j, (self.weights[i] - self.weights[j]) / (2.0 * d));
            reach = cell.corners.iter().map(|c| distance(site, *c)).fold(0.0, f64::max);
        }
        cell
    }

    /// Moves site `i` and sets its weight, and works out again the cells
    /// that changes: its own, and those of the sites it bordered before or
    /// borders now (only the lines between `i` and the others moved).
    /// Returns those cells as they were, for [`Diagram::restore`].
    pub fn set_site(&mut self, i: usize, site: Point, weight: f64) -> Vec<(usize, ConvexCell)> {
        self.sites[i] = site;
        self.weights[i] = weight;
        self.heaviest = self.weights.iter().copied().fold(0.0, f64::max);
        let mut old = vec![(i, self.cells[i].clone())];
        let mut changed = self.cells[i].neighbours();
        self.cells[i] = self.cell(i);
        changed.extend(self.cells[i].neighbours());
        changed.sort_unstable();
        changed.dedup();
        for j in changed {
            old.push((j, self.cells[j].clone()));
            self.cells[j] = self.cell(j);
        }
        old
    }

    /// Undoes [`Diagram::set_site`]: site `i` back at `site` with `weight`,
    /// and the cells it returned back in place.
    pub fn restore(&mut self, i: usize, site: Point, weight: f64, cells: Vec<(usize, ConvexCell)>) {
        self.sites[i] = site;
        self.weights[i] = weight;
        self.heaviest = self.weights.iter().copied().fold(0.0, f64::max);
        for (j, cell) in cells {
            self.cells[j] = cell;
        }
    }

    /// Works every cell out from scratch (after [`Diagram::set_site`]s,
    /// so that the result does not depend on the order they came in).
    pub fn rebuild(&mut self) {
        self.heaviest = self.weights.iter().copied().fold(0.0, f64::max);
        self.cells = (0..self.sites.len()).map(|i| self.cell(i)).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{area, inside_convex, EdgeOf};

    fn sites() -> Vec<Point> {
        (0..60).map(|k| (((k * 37) % 97) as f64 * 10.0 + 3.0, ((k * 53) % 89) as f64 * 11.0 + 1.0)).collect()
    }

    /// The cells cover the board once, and each shared edge is found from
    /// both sides at the same place.
    fn assert_tiles(d: &Diagram) {
        let total: f64 = d.cells.iter().map(|c| area(&c.corners)).sum();
        assert!((total - 1_000_000.0).abs() < 1e-3, "{total}");
        for (i, cell) in d.cells.iter().enumerate() {
            for (k, e) in cell.edges.iter().enumerate() {
                if let EdgeOf::Site(j) = e {
                    let (a, b) = cell.edge(k);
                    let other = &d.cells[*j];
                    let back = other.edges.iter().position(|e| *e == EdgeOf::Site(i)).expect("the other side has the edge");
                    let (c, e) = other.edge(back);
                    assert!(distance(a, e) < 1e-6 && distance(b, c) < 1e-6, "{i}/{j}: {a:?}-{b:?} vs {c:?}-{e:?}");
                }
            }
        }
    }

    #[test]
    fn cells_tile_the_board_and_hold_their_sites() {
        let d = Diagram::new(sites(), 1000.0, 1000.0).unwrap();
        assert_tiles(&d);
        for (site, cell) in d.sites.iter().zip(&d.cells) {
            assert!(inside_convex(&cell.corners, *site));
        }
    }

    #[test]
    fn weights_grow_a_cell_and_updates_match_a_rebuild() {
        let mut d = Diagram::new(sites(), 1000.0, 1000.0).unwrap();
        let before = area(&d.cells[5].corners);
        d.set_site(5, d.sites[5], 900.0);
        d.set_site(9, (d.sites[9].0 + 7.0, d.sites[9].1 - 3.0), -400.0);
        assert!(area(&d.cells[5].corners) > before);
        assert_tiles(&d);
        let updated = d.cells.clone();
        d.rebuild();
        for (a, b) in updated.iter().zip(&d.cells) {
            assert_eq!(a.corners.len(), b.corners.len());
            assert!(a.corners.iter().zip(&b.corners).all(|(p, q)| distance(*p, *q) < 1e-9));
        }
    }

    #[test]
    fn two_sites_at_one_place_are_refused() {
        assert_eq!(Diagram::new(vec![(1.0, 1.0), (5.0, 5.0), (5.2, 5.0)], 10.0, 10.0).unwrap_err(), (1, 2));
    }
}
