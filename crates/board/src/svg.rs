//! The board as an SVG document, for the browser: elements carry classes
//! and `data-` attributes (which space, which pair), never colours of their
//! own; the `<style>` block only gives defaults a page can restyle.

use crate::board::{Board, Border};
use crate::geometry::Point;
use crate::islands::is_island;
use std::fmt::Write;
use warboard_rules::Ruleset;

/// Default looks, by class: sea blue, land sand, neutral land grey;
/// impassable borders thick and dark, coasts darker than land borders,
/// connectors dashed.
const STYLE: &str = "\
.space{stroke:none}\
.sea{fill:#b8d4ea}\
.land{fill:#e8dcb8}\
.land.neutral{fill:#cfcac0}\
.border{stroke-linecap:round;fill:none}\
.border.land{stroke:#8a7a5a;stroke-width:1}\
.border.sea{stroke:#8fb3d0;stroke-width:0.8}\
.border.coast{stroke:#4a6a85;stroke-width:1.6}\
.border.canal{stroke:#2a6a9a;stroke-width:1.6;stroke-dasharray:2 3}\
.border.impassable{stroke:#3a3030;stroke-width:4}\
.connector{fill:none;stroke:#555;stroke-width:1.4;stroke-dasharray:5 4}\
.connector.canal{stroke:#2a6a9a}\
.connector.wrap{stroke:#7a3a7a}\
.label{font:11px sans-serif;text-anchor:middle;dominant-baseline:central;fill:#222;pointer-events:none}";

/// The SVG document of `board`, the board of `ruleset`'s map.
pub fn document(ruleset: &Ruleset, board: &Board) -> Result<String, String> {
    let map = &ruleset.map;
    let mut out = String::with_capacity(64 * 1024);
    let (w, h) = (num(board.width), num(board.height));
    // Writing to a String cannot fail: the results are ignored below.
    let _ = writeln!(out, r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" data-map="{}">"#, escape(&ruleset.name));
    let _ = writeln!(out, "<style>{STYLE}</style>");

    out.push_str("<g class=\"spaces\">\n");
    for cell in &board.spaces {
        let s = map.id(&cell.id).ok_or_else(|| format!("{} map: the board has a cell for {}, which is not a space", ruleset.name, cell.id))?;
        let space = map.space(s);
        let mut class = String::from(if cell.sea { "space sea" } else { "space land" });
        if space.neutral {
            class.push_str(" neutral");
        }
        if is_island(map, s) {
            class.push_str(" island");
        }
        let id = escape(&cell.id);
        let _ = writeln!(out, r#"<path id="space-{id}" class="{class}" data-space="{id}" d="{}"><title>{}</title></path>"#, outline(&cell.polygon, &cell.holes), escape(&space.name));
    }
    out.push_str("</g>\n");

    // Passable borders first, impassable ones over them.
    out.push_str("<g class=\"borders\">\n");
    let sea = |id: &str| board.spaces.iter().find(|c| c.id == id).map(|c| c.sea).unwrap_or(false);
    let mut ordered: Vec<&Border> = board.borders.iter().collect();
    ordered.sort_by_key(|b| !b.passable);
    for b in ordered {
        let class = if !b.passable {
            "impassable"
        } else if b.canal {
            "canal"
        } else {
            match (sea(&b.a), sea(&b.b)) {
                (false, false) => "land",
                (true, true) => "sea",
                _ => "coast",
            }
        };
        let ((x1, y1), (x2, y2)) = b.segment;
        let _ = writeln!(
            out,
            r#"<line class="border {class}" data-a="{}" data-b="{}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            escape(&b.a),
            escape(&b.b),
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
    }
    out.push_str("</g>\n");

    out.push_str("<g class=\"connectors\">\n");
    for c in &board.connectors {
        let d: String = c.strokes(board.width).iter().map(|(p, q)| format!("M{} {}L{} {}", num(p.0), num(p.1), num(q.0), num(q.1))).collect();
        let _ = writeln!(out, r#"<path class="connector {}" data-a="{}" data-b="{}" d="{d}"/>"#, c.kind.class(), escape(&c.a), escape(&c.b));
    }
    out.push_str("</g>\n");

    out.push_str("<g class=\"labels\">\n");
    for cell in &board.spaces {
        let id = escape(&cell.id);
        let _ = writeln!(out, r#"<text class="label" data-space="{id}" x="{}" y="{}">{id}</text>"#, num(cell.centre.0), num(cell.centre.1));
    }
    out.push_str("</g>\n</svg>\n");
    Ok(out)
}

/// A space's path: its outline, then each hole (the holes go the other
/// way round, so the default fill rule leaves them empty).
fn outline(polygon: &[Point], holes: &[Vec<Point>]) -> String {
    let mut d = String::new();
    for ring in std::iter::once(polygon).chain(holes.iter().map(Vec::as_slice)) {
        for (k, (x, y)) in ring.iter().enumerate() {
            let _ = write!(d, "{}{} {}", if k == 0 { "M" } else { "L" }, num(*x), num(*y));
        }
        d.push('Z');
    }
    d
}

/// A coordinate to one decimal, without a trailing ".0" and never "-0".
fn num(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    let (whole, frac) = (tenths.abs() / 10, tenths.abs() % 10);
    if frac == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac}")
    }
}

/// Text made safe for XML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_exact_to_a_tenth() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.04), "12");
        assert_eq!(num(12.06), "12.1");
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(-3.25), "-3.3");
        assert_eq!(num(999.96), "1000");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape(r#"A & B <"c">"#), "A &amp; B &lt;&quot;c&quot;&gt;");
    }
}
