//! The drawn board of each map, from the project's own geometry (no map
//! art): each space's area grows around its place in
//! `rulesets/<map>/layout.toml`.
//!
//! - The areas start as the Voronoi diagram of the places (each point of
//!   the board goes to the nearest place), clipped to the board's
//!   rectangle: `voronoi`, by cutting the rectangle with the line between
//!   each place and every other, O(n²).
//! - The lines are then moved (weights, a power diagram) and the sites
//!   nudged, a little, so that areas touch where the game's spaces are
//!   adjacent and not where they are not: `fit`, a deterministic
//!   coordinate descent.
//! - Islands (land whose neighbours are all sea zones) are small shapes cut
//!   out of the sea around them: `islands`, `regions`.
//! - Whatever the shapes still get wrong is drawn as such: a shared
//!   boundary between spaces that are not adjacent is impassable, and an
//!   adjacency without a visible shared boundary gets a connector (a
//!   dashed line between the centres, a canal's drawn as such, and for the
//!   world maps' east–west wrap, two stubs to the side edges).
//!
//! The shapes of each layout are worked out once per process (a few
//! hundred milliseconds in an optimised build). [`board`] gives them as data
//! (for the terminal and the tests), [`svg`] as a document for the browser.

mod board;
mod fit;
mod geometry;
mod islands;
mod layout;
mod regions;
mod shapes;
mod svg;
mod voronoi;

pub use board::{Board, Border, Cell, Connector, ConnectorKind, MIN_SHOWN_BORDER};
pub use geometry::Point;

use warboard_rules::Ruleset;

/// The board of `ruleset`'s map: a cell per space (in the map's order),
/// the borders cells share and the connectors. `Err` names the map and the
/// space when the layout and the map disagree.
pub fn board(ruleset: &Ruleset) -> Result<Board, String> {
    board::board(ruleset)
}

/// The board of `ruleset`'s map as an SVG document (`viewBox` the board's
/// width and height), each part in its own group:
///
/// - `<path id="space-ID" class="space land|sea [neutral] [island]"
///   data-space="ID">` per space, with its name as a `<title>`;
/// - `<line class="border land|sea|coast|canal|impassable" data-a="ID"
///   data-b="ID">` per stretch of shared boundary (`coast`: land and sea;
///   `impassable`: spaces the game does not join, drawn over the rest);
/// - `<path class="connector neighbour|canal|wrap" data-a data-b>` per
///   connector, dashed (a wrap is two stubs in one path);
/// - `<text class="label" data-space="ID">ID</text>` per space.
///
/// Colours are only the `<style>` block's defaults, by class, for a page
/// to override. Coordinates are rounded to a tenth; the same ruleset
/// always gives the same bytes.
pub fn svg(ruleset: &Ruleset) -> Result<String, String> {
    svg::document(ruleset, &board::board(ruleset)?)
}
