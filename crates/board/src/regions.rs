//! A space's area as the union of convex pieces: a Voronoi cell, less the
//! islands cut out of it. Each piece's edges name what lies across them
//! (another space, the same space across an internal cut, or the board's
//! frame); the edges with another space or the frame across are the
//! space's boundary, chained into rings, and the edges with another space
//! across are the borders.

use crate::geometry::{distance, signed_area, ConvexCell, EdgeOf, Point};

/// A convex part of one space's area. In a piece, `EdgeOf::Site(s)` names
/// the space `s` across the edge (the owner itself across an internal cut).
#[derive(Clone, Debug)]
pub struct Piece {
    pub owner: usize,
    pub cell: ConvexCell,
}

/// One space's area: its outer boundary and the islands inside it, each a
/// ring of corners, the outline clockwise on the screen and the holes the
/// other way round.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Region {
    pub outline: Vec<Point>,
    pub holes: Vec<Vec<Point>>,
}

/// Corners closer than this are one corner: the same Voronoi vertex as two
/// cells worked it out, a rounding error apart.
const SAME_CORNER: f64 = 1e-3;

/// Edges shorter than this are rounding, not boundary.
const NO_LENGTH: f64 = 1e-6;

/// The area of space `owner`, from its pieces. `Err` says what is wrong in
/// words (no piece, a boundary that does not close, or two separate parts).
pub fn region(pieces: &[Piece], owner: usize) -> Result<Region, String> {
    let mut edges: Vec<(Point, Point)> = Vec::new();
    for piece in pieces.iter().filter(|p| p.owner == owner) {
        for (k, label) in piece.cell.edges.iter().enumerate() {
            let (a, b) = piece.cell.edge(k);
            if *label != EdgeOf::Site(owner) && distance(a, b) >= NO_LENGTH {
                edges.push((a, b));
            }
        }
    }
    if edges.is_empty() {
        return Err("it has no area".into());
    }
    let mut used = vec![false; edges.len()];
    let mut region = Region::default();
    while let Some(start) = used.iter().position(|u| !u) {
        used[start] = true;
        let mut ring = vec![edges[start].0];
        let mut at = edges[start].1;
        while distance(at, ring[0]) >= SAME_CORNER {
            // The boundary goes on from where this edge ends.
            let next = (0..edges.len())
                .filter(|k| !used[*k])
                .map(|k| (distance(edges[k].0, at), k))
                .filter(|(d, _)| *d < SAME_CORNER)
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, k)| k)
                .ok_or_else(|| format!("its boundary does not close at ({:.1}, {:.1})", at.0, at.1))?;
            used[next] = true;
            ring.push(edges[next].0);
            at = edges[next].1;
        }
        let ring = without_straight_corners(ring);
        if ring.len() < 3 {
            continue;
        }
        if signed_area(&ring) > 0.0 {
            if !region.outline.is_empty() {
                return Err("it is in two separate parts".into());
            }
            region.outline = ring;
        } else {
            region.holes.push(ring);
        }
    }
    if region.outline.is_empty() {
        return Err("it has no outer boundary".into());
    }
    Ok(region)
}

/// The ring without corners where it goes straight on (where two pieces
/// of one space meet along its boundary).
fn without_straight_corners(ring: Vec<Point>) -> Vec<Point> {
    let n = ring.len();
    if n < 4 {
        return ring;
    }
    (0..n)
        .filter(|&k| {
            let (p, c, q) = (ring[(k + n - 1) % n], ring[k], ring[(k + 1) % n]);
            let cross = (c.0 - p.0) * (q.1 - c.1) - (c.1 - p.1) * (q.0 - c.0);
            let dot = (c.0 - p.0) * (q.0 - c.0) + (c.1 - p.1) * (q.1 - c.1);
            !(cross.abs() <= 1e-9 * distance(p, c) * distance(c, q) && dot > 0.0)
        })
        .map(|k| ring[k])
        .collect()
}

/// Every stretch of boundary two spaces share, as `(a, b, from, to)` with
/// `a < b`, read from `a`'s pieces; where one piece edge continues another
/// along the same line, the two are one stretch.
pub fn borders(pieces: &[Piece]) -> Vec<(usize, usize, Point, Point)> {
    let mut found: Vec<(usize, usize, Point, Point)> = Vec::new();
    for piece in pieces {
        for (k, label) in piece.cell.edges.iter().enumerate() {
            let EdgeOf::Site(other) = *label else { continue };
            let (a, b) = piece.cell.edge(k);
            if piece.owner < other && distance(a, b) >= NO_LENGTH {
                found.push((piece.owner, other, a, b));
            }
        }
    }
    // Join stretches of one pair that continue each other in a straight line.
    let mut k = 0;
    while k < found.len() {
        let (a, b, from, to) = found[k];
        let continues = found.iter().enumerate().position(|(j, &(a2, b2, from2, to2))| {
            j != k && (a2, b2) == (a, b) && distance(to, from2) < SAME_CORNER && {
                let cross = (to.0 - from.0) * (to2.1 - from2.1) - (to.1 - from.1) * (to2.0 - from2.0);
                cross.abs() <= 1e-9 * distance(from, to) * distance(from2, to2)
            }
        });
        match continues {
            Some(j) => {
                found[k].3 = found[j].3;
                found.remove(j);
                if j < k {
                    k -= 1;
                }
            }
            None => k += 1,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::area;

    fn square(x: f64, y: f64, side: f64, right: EdgeOf, left: EdgeOf) -> ConvexCell {
        ConvexCell { corners: vec![(x, y), (x + side, y), (x + side, y + side), (x, y + side)], edges: vec![EdgeOf::Frame, right, EdgeOf::Frame, left] }
    }

    #[test]
    fn two_pieces_of_one_space_are_one_outline() {
        let pieces = vec![
            Piece { owner: 0, cell: square(0.0, 0.0, 1.0, EdgeOf::Site(0), EdgeOf::Frame) },
            Piece { owner: 0, cell: square(1.0, 0.0, 1.0, EdgeOf::Site(1), EdgeOf::Site(0)) },
            Piece { owner: 1, cell: square(2.0, 0.0, 1.0, EdgeOf::Frame, EdgeOf::Site(0)) },
        ];
        let r = region(&pieces, 0).unwrap();
        assert_eq!(r.outline.len(), 4, "{:?}", r.outline);
        assert!((area(&r.outline) - 2.0).abs() < 1e-12);
        assert!(r.holes.is_empty());
        let b = borders(&pieces);
        assert_eq!(b.len(), 1);
        assert_eq!((b[0].0, b[0].1), (0, 1));
        assert!((distance(b[0].2, b[0].3) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_space_in_two_parts_is_refused() {
        let pieces = vec![
            Piece { owner: 0, cell: square(0.0, 0.0, 1.0, EdgeOf::Site(1), EdgeOf::Frame) },
            Piece { owner: 1, cell: square(1.0, 0.0, 1.0, EdgeOf::Site(0), EdgeOf::Site(0)) },
            Piece { owner: 0, cell: square(2.0, 0.0, 1.0, EdgeOf::Frame, EdgeOf::Site(1)) },
        ];
        assert!(region(&pieces, 0).unwrap_err().contains("two separate parts"));
        assert!(region(&pieces, 2).is_err());
    }
}
