//! The board as data: an area per space, the boundaries areas share, and
//! lines for the adjacencies the areas do not show.

use crate::geometry::{distance, Point};
use crate::{layout, shapes};
use warboard_rules::{Ruleset, SpaceId};

/// The drawn board of one map, in layout units: `x` from 0 (west) to
/// `width`, `y` from 0 (north) to `height`, down the screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub width: f64,
    pub height: f64,
    /// One cell per space, in the map's order.
    pub spaces: Vec<Cell>,
    /// Every straight stretch of boundary two cells share, passable or not
    /// (a pair may share several: an island's shore has twelve sides).
    pub borders: Vec<Border>,
    /// The adjacencies of the game that no shared boundary shows.
    pub connectors: Vec<Connector>,
}

/// A space's area on the board: its outline (corners clockwise on the
/// screen), the islands inside it if any (`holes`, each a ring the other
/// way round), and the place its label and its connectors start from
/// (inside the area). Islands (land whose every neighbour is a sea zone)
/// are small twelve-sided shapes in the sea; other cells are their fitted
/// Voronoi cells, convex unless an island bites into them.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub id: String,
    pub sea: bool,
    pub polygon: Vec<Point>,
    pub holes: Vec<Vec<Point>>,
    pub centre: Point,
}

/// A straight stretch of boundary two cells share, `a` before `b` in the
/// map's order. `passable`: the game has the adjacency; a border that is
/// not passable is one the shapes suggest and the rules deny, drawn so
/// that nobody reads it as a way through. `canal`: the two are sea zones
/// joined by a canal.
#[derive(Clone, Debug, PartialEq)]
pub struct Border {
    pub a: String,
    pub b: String,
    pub segment: (Point, Point),
    pub passable: bool,
    pub canal: bool,
}

impl Border {
    pub fn length(&self) -> f64 {
        distance(self.segment.0, self.segment.1)
    }
}

/// An adjacency of the game between two spaces whose cells share less
/// boundary than [`MIN_SHOWN_BORDER`], `a` before `b` in the map's order. `from` and `to` are the
/// centres of `a`'s and `b`'s cells whatever the kind; how it is drawn is
/// [`Connector::strokes`].
#[derive(Clone, Debug, PartialEq)]
pub struct Connector {
    pub a: String,
    pub b: String,
    pub from: Point,
    pub to: Point,
    pub kind: ConnectorKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectorKind {
    /// Two spaces that touch on the real board but not here.
    Neighbour,
    /// Two sea zones joined by a canal (Panama, Suez, Kiel...).
    Canal,
    /// Two spaces at the board's west and east ends, neighbours across its
    /// edge (the world maps go round: the Pacific is split between the
    /// board's left and right sides).
    WrapAround,
}

impl ConnectorKind {
    /// The word the SVG's class uses.
    pub fn class(self) -> &'static str {
        match self {
            ConnectorKind::Neighbour => "neighbour",
            ConnectorKind::Canal => "canal",
            ConnectorKind::WrapAround => "wrap",
        }
    }
}

impl Connector {
    /// The straight lines that draw it. A neighbour or a canal: one line
    /// from centre to centre. Across the board's edge: two stubs, each from
    /// a space's centre to the nearer side edge (west or east), on the
    /// line that would join the two centres if the board were rolled into
    /// a cylinder, so the stubs meet the edges at the same height and one
    /// continues the other.
    pub fn strokes(&self, width: f64) -> Vec<(Point, Point)> {
        if self.kind != ConnectorKind::WrapAround {
            return vec![(self.from, self.to)];
        }
        let (a, b) = (self.from, self.to);
        // `b` moved a board's width to `a`'s side, and `a` to `b`'s.
        let shift = if a.0 < b.0 { -width } else { width };
        let edge_a = if shift < 0.0 { 0.0 } else { width };
        let edge_b = width - edge_a;
        let run = b.0 + shift - a.0;
        let y = if run.abs() < 1e-9 { a.1 } else { a.1 + (b.1 - a.1) * (edge_a - a.0) / run };
        vec![(a, (edge_a, y)), ((edge_b, y), b)]
    }
}

/// A shared boundary shorter than this (layout units: the board is 1000
/// high) is too short to see as a way through, so a passable one also
/// gets a connector.
pub const MIN_SHOWN_BORDER: f64 = 6.0;

/// The board of `ruleset`'s map, from its layout's shapes (worked out
/// once per layout). `Err` names the map and the space at fault when the
/// layout and the map disagree.
pub fn board(ruleset: &Ruleset) -> Result<Board, String> {
    let map = &ruleset.map;
    let layout = layout::of(ruleset)?;
    let geometry = shapes::of(layout)?;
    // The layout's place of each space, and the space at each place.
    let mut place_of = Vec::with_capacity(map.len());
    for s in map.ids() {
        let p = layout.places.iter().position(|(id, _)| id == map.name(s)).ok_or_else(|| format!("layout {}: no place for {}", layout.name, map.name(s)))?;
        place_of.push(p);
    }
    let mut space_at = vec![None; layout.places.len()];
    for (s, p) in place_of.iter().enumerate() {
        space_at[*p] = Some(SpaceId(s as u16));
    }
    let space_at = |p: usize| space_at[p].ok_or_else(|| format!("{} map: layout {} has a place for {}, which is not a space", ruleset.name, layout.name, layout.places[p].0));

    let spaces: Vec<Cell> = map
        .ids()
        .map(|s| {
            let p = place_of[s.index()];
            let region = &geometry.regions[p];
            Cell { id: map.name(s).to_string(), sea: map.is_sea(s), polygon: region.outline.clone(), holes: region.holes.clone(), centre: geometry.centres[p] }
        })
        .collect();

    let mut borders = Vec::with_capacity(geometry.borders.len());
    // How much boundary each adjacent pair shares, to know which need a connector.
    let mut shared = vec![0.0f64; map.len() * map.len()];
    for &(p, q, from, to) in &geometry.borders {
        let (a, b) = (space_at(p)?, space_at(q)?);
        // In the map's order, so that the board reads the same whatever the layout's order.
        let (a, b, segment) = if a.index() < b.index() { (a, b, (from, to)) } else { (b, a, (to, from)) };
        let passable = map.adjacent(a, b);
        if passable {
            shared[a.index() * map.len() + b.index()] += distance(from, to);
        }
        borders.push(Border { a: map.name(a).to_string(), b: map.name(b).to_string(), segment, passable, canal: passable && map.canal_between(a, b).is_some() });
    }
    borders.sort_by_key(|x| (map.id(&x.a), map.id(&x.b)));

    let mut connectors = Vec::new();
    for a in map.ids() {
        for &b in map.neighbours(a) {
            if b.index() <= a.index() || shared[a.index() * map.len() + b.index()] >= MIN_SHOWN_BORDER {
                continue;
            }
            let (from, to) = (spaces[a.index()].centre, spaces[b.index()].centre);
            let kind = if map.canal_between(a, b).is_some() {
                ConnectorKind::Canal
            } else if (from.0 - to.0).abs() > geometry.width / 2.0 {
                ConnectorKind::WrapAround
            } else {
                ConnectorKind::Neighbour
            };
            connectors.push(Connector { a: map.name(a).to_string(), b: map.name(b).to_string(), from, to, kind });
        }
    }

    Ok(Board { width: geometry.width, height: geometry.height, spaces, borders, connectors })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_stubs_meet_the_side_edges_at_one_height() {
        let c = Connector { a: "A".into(), b: "B".into(), from: (50.0, 100.0), to: (950.0, 300.0), kind: ConnectorKind::WrapAround };
        let strokes = c.strokes(1000.0);
        assert_eq!(strokes.len(), 2);
        let ((a, ea), (eb, b)) = (strokes[0], strokes[1]);
        assert_eq!((a, b), ((50.0, 100.0), (950.0, 300.0)));
        assert_eq!(ea.0, 0.0);
        assert_eq!(eb.0, 1000.0);
        assert!((ea.1 - eb.1).abs() < 1e-9);
        // Rolled up, `b` is 50 west of the edge and `a` 50 east: half way.
        assert!((ea.1 - 200.0).abs() < 1e-9, "{ea:?}");
    }
}
