//! Plane geometry for the board: convex polygons whose edges remember
//! what lies across them, cut by lines; segments clipped to polygons;
//! areas and centroids. Nothing but IEEE arithmetic and square roots (no
//! sines, no `hypot`), so results are the same to the bit everywhere.

/// A point on the board, in layout units: `x` east, `y` south (down the
/// screen), the board 1000 high.
pub type Point = (f64, f64);

/// What lies across an edge of a cell: the board's frame, or another site
/// (in a Voronoi cell, the site whose line made the edge; in a piece of a
/// space's area, the space across), so the cells on both sides of a shared
/// edge are known without comparing coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeOf {
    Frame,
    Site(usize),
}

/// A convex polygon, corners in order; `edges[k]` is what the edge from
/// `corners[k]` to `corners[k + 1]` (wrapping) lies on.
#[derive(Clone, Debug, Default)]
pub struct ConvexCell {
    pub corners: Vec<Point>,
    pub edges: Vec<EdgeOf>,
}

/// Below this distance, in layout units, two points are the same point and
/// a point on a line is on it: far below anything drawn (the SVG rounds to
/// 0.1) and far above the rounding error of a few hundred cuts.
const EPSILON: f64 = 1e-7;

impl ConvexCell {
    /// The rectangle `(0, 0)`–`(width, height)`.
    pub fn rectangle(width: f64, height: f64) -> ConvexCell {
        ConvexCell { corners: vec![(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)], edges: vec![EdgeOf::Frame; 4] }
    }

    /// Keeps the part of the cell on `site`'s side of the line between
    /// `site` and `other`, perpendicular to the two and `shift` past their
    /// midpoint towards `other` (0: the perpendicular bisector); the new
    /// edge, if any, lies on `EdgeOf::Site(other_index)`.
    pub fn keep_nearer(&mut self, site: Point, other: Point, other_index: usize, shift: f64) {
        let (nx, ny) = (other.0 - site.0, other.1 - site.1);
        let length = (nx * nx + ny * ny).sqrt();
        if length < EPSILON {
            return;
        }
        let (nx, ny) = (nx / length, ny / length);
        let on_line = ((site.0 + other.0) / 2.0 + shift * nx, (site.1 + other.1) / 2.0 + shift * ny);
        self.keep_behind(on_line, (nx, ny), EdgeOf::Site(other_index));
    }

    /// Keeps the part of the cell on this side of the directed line `from`
    /// → `to`: the right-hand side on the screen (y down), where a polygon
    /// whose corners go clockwise has its inside. The new edge, if any,
    /// lies on `label`.
    pub fn keep_right_of(&mut self, from: Point, to: Point, label: EdgeOf) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let length = (dx * dx + dy * dy).sqrt();
        if length < EPSILON {
            return;
        }
        // The left-hand normal: what lies that way is cut away.
        self.keep_behind(from, (dy / length, -dx / length), label);
    }

    /// Keeps the part of the cell behind the line through `on_line` with
    /// unit normal `normal` (Sutherland–Hodgman against one line): points
    /// `p` with `(p − on_line) · normal ≤ 0`.
    fn keep_behind(&mut self, on_line: Point, normal: Point, label: EdgeOf) {
        if self.corners.is_empty() {
            return;
        }
        // Signed distance past the line: positive is cut away.
        let beyond = |p: Point| (p.0 - on_line.0) * normal.0 + (p.1 - on_line.1) * normal.1;
        // Most lines miss the cell: tell that before allocating anything.
        if self.corners.iter().all(|p| beyond(*p) <= EPSILON) {
            return;
        }
        let depth: Vec<f64> = self.corners.iter().map(|p| beyond(*p)).collect();
        let n = self.corners.len();
        let mut corners = Vec::with_capacity(n + 1);
        let mut edges = Vec::with_capacity(n + 1);
        for k in 0..n {
            let (p, q) = (self.corners[k], self.corners[(k + 1) % n]);
            let (dp, dq) = (depth[k], depth[(k + 1) % n]);
            let p_in = dp <= EPSILON;
            let q_in = dq <= EPSILON;
            if p_in {
                corners.push(p);
                edges.push(self.edges[k]);
            }
            if p_in != q_in {
                // Where the edge crosses the line. Leaving the kept side,
                // the next edge runs along the line; coming back, along the
                // rest of this edge.
                let t = dp / (dp - dq);
                let crossing = (p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1));
                corners.push(crossing);
                edges.push(if p_in { label } else { self.edges[k] });
            }
        }
        self.corners = corners;
        self.edges = edges;
        self.drop_zero_edges();
    }

    /// Removes corners whose outgoing edge has no length (a corner exactly
    /// on the bisector is found twice): the edge before them then ends at
    /// the same place, so nothing else changes.
    fn drop_zero_edges(&mut self) {
        let mut k = 0;
        while self.corners.len() > 2 && k < self.corners.len() {
            let next = (k + 1) % self.corners.len();
            if distance(self.corners[k], self.corners[next]) < EPSILON {
                self.corners.remove(k);
                self.edges.remove(k);
            } else {
                k += 1;
            }
        }
        if self.corners.len() < 3 {
            self.corners.clear();
            self.edges.clear();
        }
    }

    /// The sites whose cells share an edge with this one.
    pub fn neighbours(&self) -> Vec<usize> {
        self.edges.iter().filter_map(|e| if let EdgeOf::Site(j) = e { Some(*j) } else { None }).collect()
    }

    /// The edge from corner `k` to the next.
    pub fn edge(&self, k: usize) -> (Point, Point) {
        (self.corners[k], self.corners[(k + 1) % self.corners.len()])
    }
}

/// Plain square root rather than `hypot`: IEEE arithmetic alone, so the
/// board comes out the same to the bit on every machine.
pub fn distance(a: Point, b: Point) -> f64 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    (dx * dx + dy * dy).sqrt()
}

/// A regular twelve-sided polygon around `centre`, corners `radius` from
/// it, clockwise on the screen like every cell. Its corners are made from
/// ½ and √3⁄2 rather than sines and cosines, which are not the same to the
/// bit on every machine.
pub fn dodecagon(centre: Point, radius: f64) -> Vec<Point> {
    let h = 3.0f64.sqrt() / 2.0;
    let unit = [(1.0, 0.0), (h, 0.5), (0.5, h), (0.0, 1.0), (-0.5, h), (-h, 0.5), (-1.0, 0.0), (-h, -0.5), (-0.5, -h), (0.0, -1.0), (0.5, -h), (h, -0.5)];
    unit.iter().map(|(x, y)| (centre.0 + radius * x, centre.1 + radius * y)).collect()
}

/// The part of segment `from`–`to` inside the convex polygon (corners
/// clockwise on the screen), if any.
pub fn clip_segment(from: Point, to: Point, polygon: &[Point]) -> Option<(Point, Point)> {
    let (t0, t1) = clip_params(from, to, polygon)?;
    let at = |t: f64| (from.0 + t * (to.0 - from.0), from.1 + t * (to.1 - from.1));
    Some((at(t0), at(t1)))
}

/// The part of segment `from`–`to` inside the convex polygon, as the
/// fractions of the way along where it starts and ends (Cyrus–Beck).
pub fn clip_params(from: Point, to: Point, polygon: &[Point]) -> Option<(f64, f64)> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let n = polygon.len();
    for k in 0..n {
        let (a, b) = (polygon[k], polygon[(k + 1) % n]);
        // Inside is where the cross product of the edge and the point is
        // positive: cross(t) = base + t * rate.
        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
        let base = ex * (from.1 - a.1) - ey * (from.0 - a.0);
        let rate = ex * dy - ey * dx;
        if rate.abs() < 1e-12 {
            if base < 0.0 {
                return None;
            }
            continue;
        }
        let t = -base / rate;
        if rate > 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 >= t1 {
            return None;
        }
    }
    Some((t0, t1))
}

/// Twice the signed area (positive: counter-clockwise with y up, which is
/// clockwise on the screen, where y grows down).
fn twice_signed_area(polygon: &[Point]) -> f64 {
    let n = polygon.len();
    (0..n)
        .map(|k| {
            let (p, q) = (polygon[k], polygon[(k + 1) % n]);
            p.0 * q.1 - q.0 * p.1
        })
        .sum()
}

pub fn area(polygon: &[Point]) -> f64 {
    twice_signed_area(polygon).abs() / 2.0
}

/// The area with a sign: positive for corners clockwise on the screen (the
/// way cells and outer boundaries go), negative for a hole's boundary.
pub fn signed_area(polygon: &[Point]) -> f64 {
    twice_signed_area(polygon) / 2.0
}

/// The centre of mass of a simple polygon (its first corner if it has no
/// area).
pub fn centroid(polygon: &[Point]) -> Point {
    let a2 = twice_signed_area(polygon);
    if a2.abs() < EPSILON || polygon.is_empty() {
        return polygon.first().copied().unwrap_or((0.0, 0.0));
    }
    let n = polygon.len();
    let (mut cx, mut cy) = (0.0, 0.0);
    for k in 0..n {
        let (p, q) = (polygon[k], polygon[(k + 1) % n]);
        let cross = p.0 * q.1 - q.0 * p.1;
        cx += (p.0 + q.0) * cross;
        cy += (p.1 + q.1) * cross;
    }
    (cx / (3.0 * a2), cy / (3.0 * a2))
}

/// Whether `p` lies inside the convex polygon or on its boundary.
#[cfg(test)]
pub fn inside_convex(polygon: &[Point], p: Point) -> bool {
    let n = polygon.len();
    if n < 3 {
        return false;
    }
    let side = |k: usize| {
        let (a, b) = (polygon[k], polygon[(k + 1) % n]);
        (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
    };
    let sides: Vec<f64> = (0..n).map(side).collect();
    sides.iter().all(|s| *s >= -1e-6) || sides.iter().all(|s| *s <= 1e-6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_through_the_middle_keeps_the_near_half() {
        let mut cell = ConvexCell::rectangle(10.0, 10.0);
        cell.keep_nearer((2.0, 5.0), (8.0, 5.0), 7, 0.0);
        assert!((area(&cell.corners) - 50.0).abs() < 1e-9);
        assert_eq!(cell.edges.iter().filter(|e| **e == EdgeOf::Site(7)).count(), 1);
        let k = cell.edges.iter().position(|e| *e == EdgeOf::Site(7)).unwrap();
        let (a, b) = cell.edge(k);
        assert!((a.0 - 5.0).abs() < 1e-9 && (b.0 - 5.0).abs() < 1e-9);
        assert!((distance(a, b) - 10.0).abs() < 1e-9);
    }

    #[test]
    fn a_cut_through_a_corner_leaves_no_zero_length_edge() {
        let mut cell = ConvexCell::rectangle(10.0, 10.0);
        // The bisector of these two runs through (0, 0) and (10, 10).
        cell.keep_nearer((0.0, 10.0), (10.0, 0.0), 1, 0.0);
        assert_eq!(cell.corners.len(), 3);
        assert!((area(&cell.corners) - 50.0).abs() < 1e-9);
        assert!((0..3).all(|k| { let (a, b) = cell.edge(k); distance(a, b) > 1.0 }));
    }

    #[test]
    fn a_far_site_cuts_nothing() {
        let mut cell = ConvexCell::rectangle(10.0, 10.0);
        cell.keep_nearer((5.0, 5.0), (50.0, 5.0), 1, 0.0);
        assert_eq!(cell.corners.len(), 4);
        assert!(cell.edges.iter().all(|e| *e == EdgeOf::Frame));
    }

    #[test]
    fn a_segment_is_clipped_to_a_polygon() {
        let square = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)];
        assert!(signed_area(&square) > 0.0);
        assert!(signed_area(&dodecagon((0.0, 0.0), 1.0)) > 0.0);
        let (a, b) = clip_segment((-2.0, 1.0), (6.0, 1.0), &square).unwrap();
        assert!(distance(a, (0.0, 1.0)) < 1e-12 && distance(b, (4.0, 1.0)) < 1e-12);
        assert!(clip_segment((-2.0, 5.0), (6.0, 5.0), &square).is_none());
        let mut cell = ConvexCell::rectangle(4.0, 4.0);
        cell.keep_right_of((0.0, 2.0), (4.0, 2.0), EdgeOf::Frame);
        // Right of going east, on the screen, is south: y from 2 to 4.
        assert!((area(&cell.corners) - 8.0).abs() < 1e-12 && cell.corners.iter().all(|p| p.1 >= 2.0 - 1e-12));
    }

    #[test]
    fn the_centroid_of_a_square_is_its_middle() {
        let c = centroid(&[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]);
        assert!((c.0 - 2.0).abs() < 1e-12 && (c.1 - 2.0).abs() < 1e-12);
        assert!(inside_convex(&[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)], c));
    }
}
