// Line charts drawn as SVG from the server's figures, each with a legend
// and a table of the same figures for screen readers and for reading
// exact numbers: the income chart (what each power was paid in each
// round, one line a power in its board colour: `GET
// /api/games/{id}/income`) and the rating chart of a player's profile
// (its rating after each rated game, one line a ruleset family:
// `GET /api/players/{name}`).

import { PlayerFamily, RatingPoint, RoundIncome } from "./api";
import { powerColours } from "./board";
import { h, svg } from "./dom";
import { currentLang, familyName, t } from "./i18n";

const W = 320;
const H = 160;
const PAD = { left: 30, right: 8, top: 8, bottom: 20 };

/** One line of a chart: its points in order, each with the note its dot shows. */
export interface ChartLine {
  label: string;
  colour: string;
  points: { x: number; y: number; note: string }[];
  /** More attributes of the line (`data-…` for the tests). */
  attrs?: Record<string, string>;
}

/** The chart itself: x from `first` to `last` (labelled at `ticks`), y
 * from `low` to `high` with grid lines at both and halfway; a dot per
 * point, so that a single point shows too. */
export function lineChart(lines: ChartLine[], first: number, last: number, ticks: number[], low: number, high: number, label: string): SVGSVGElement {
  const x = (v: number) => PAD.left + (last === first ? 0.5 : (v - first) / (last - first)) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - ((v - low) / (high - low)) * (H - PAD.top - PAD.bottom);
  const grid = [low, (low + high) / 2, high].map((v) => [
    svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }),
    svg("text", { x: PAD.left - 4, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(v)),
  ]);
  const tickLabels = ticks.map((v) => svg("text", { x: x(v), y: H - 6, "text-anchor": "middle", class: "axis" }, String(v)));
  const drawn = lines.map((l) => {
    const points = l.points.map((p) => `${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`);
    const line = svg("polyline", { points: points.join(" "), fill: "none", "stroke-width": 2, ...l.attrs }, svg("title", null, l.label));
    line.style.stroke = l.colour;
    const dots = l.points.map((p) => {
      const dot = svg("circle", { cx: x(p.x).toFixed(1), cy: y(p.y).toFixed(1), r: 2.5 }, svg("title", null, p.note));
      dot.style.fill = l.colour;
      return dot;
    });
    return [line, dots];
  });
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": label }, grid, tickLabels, drawn);
}

/** The lines' colours and names. */
export function chartLegend(lines: { label: string; colour: string }[]): HTMLUListElement {
  return h(
    "ul",
    { class: "legend" },
    lines.map((l) => {
      const mark = h("span", { class: "swatch", "aria-hidden": "true" });
      mark.style.background = l.colour;
      return h("li", null, mark, " ", l.label);
    }),
  );
}

export function incomeChart(rounds: RoundIncome[], powers: string[], label: (p: string) => string): HTMLElement {
  if (rounds.length === 0) return h("p", { class: "hint", id: "income-chart" }, t("incomeNone"));
  const shown = powers.filter((p) => rounds.some((r) => p in r.income));
  const top = Math.max(10, ...rounds.flatMap((r) => Object.values(r.income)));
  const scaleTop = Math.ceil(top / 10) * 10;
  const lines: ChartLine[] = shown.map((p) => ({
    label: label(p),
    colour: powerColours(p)[0],
    points: rounds.filter((r) => p in r.income).map((r) => ({ x: r.round, y: r.income[p], note: `${label(p)}: ${r.income[p]}` })),
    attrs: { "data-power": p },
  }));
  const rs = rounds.map((r) => r.round);
  const chart = lineChart(lines, rs[0], rs[rs.length - 1], rs, 0, scaleTop, t("incomeChart"));
  const table = h(
    "table",
    { class: "figures" },
    h("thead", null, h("tr", null, h("th", null, t("round")), shown.map((p) => h("th", { scope: "col" }, label(p))))),
    h("tbody", null, rounds.map((r) => h("tr", { "data-round": String(r.round) }, h("th", { scope: "row" }, String(r.round)), shown.map((p) => h("td", { "data-power": p }, p in r.income ? String(r.income[p]) : "–"))))),
  );
  return h("div", { id: "income-chart" }, chart, chartLegend(lines), h("details", null, h("summary", null, t("incomeFigures")), table));
}

/** Each family's line in the rating chart. */
export const FAMILY_COLOURS: Record<string, string> = { classic: "#8f2d2d", europe: "#1c5d99", anniversary: "#2b7a3e", alternative: "#8a5a00" };

/** At most this many numbers under the x axis: every point's below it. */
const MAX_TICKS = 12;

/** A player's rating after each of its rated games (one-against-one
 * games' Glicko-2 ratings, or with `team` the team games' Weng-Lin
 * ratings: the two scales are not one), one line a family. The games are
 * numbered in the order they ended, all families together. */
export function ratingChart(families: PlayerFamily[], team: boolean, id: string): HTMLElement | null {
  const all: (RatingPoint & { family: string })[] = families.flatMap((f) => f.history.filter((p) => p.team === team).map((p) => ({ ...p, family: f.family })));
  if (all.length === 0) return null;
  all.sort((a, b) => a.ended_at - b.ended_at || (a.game < b.game ? -1 : a.game > b.game ? 1 : 0));
  const n = new Map(all.map((p, i) => [p, i + 1]));
  const date = (ms: number) => new Date(ms).toLocaleDateString(currentLang());
  const lines: ChartLine[] = families
    .filter((f) => all.some((p) => p.family === f.family))
    .map((f) => {
      const mine = all.filter((p) => p.family === f.family);
      return {
        label: familyName(f.family),
        colour: FAMILY_COLOURS[f.family] ?? "#555",
        points: mine.map((p) => ({ x: n.get(p)!, y: p.rating, note: t("ratingPoint", { family: familyName(f.family), n: n.get(p)!, rating: p.rating, date: date(p.ended_at) }) })),
        attrs: { "data-family": f.family, "data-count": String(mine.length) },
      };
    });
  // Whole steps of 50 rating points (of 1 for team ratings) around what was reached.
  const step = team ? 1 : 50;
  const ratings = all.map((p) => p.rating);
  let low = Math.floor(Math.min(...ratings) / step) * step;
  let high = Math.ceil(Math.max(...ratings) / step) * step;
  if (high - low < 2 * step) {
    low -= step;
    high += step;
  }
  const every = Math.ceil(all.length / MAX_TICKS);
  const ticks = all.map((_, i) => i + 1).filter((k) => k === 1 || k === all.length || (k - 1) % every === 0);
  const chart = lineChart(lines, 1, Math.max(all.length, 1), ticks, low, high, t(team ? "teamRatingChart" : "ratingChart"));
  const table = h(
    "table",
    { class: "figures" },
    h("thead", null, h("tr", null, [t("colNumber"), t("colEnded"), t("colFamily"), t("colRating"), t("colDeviation")].map((c) => h("th", { scope: "col" }, c)))),
    h(
      "tbody",
      null,
      all.map((p) =>
        h("tr", { "data-game": p.game, "data-family": p.family }, h("th", { scope: "row" }, String(n.get(p))), h("td", null, date(p.ended_at)), h("td", null, familyName(p.family)), h("td", { "data-rating": String(p.rating) }, String(p.rating)), h("td", null, `± ${p.deviation}`)),
      ),
    ),
  );
  return h("div", { id, class: "rating-chart" }, chart, chartLegend(lines), h("details", null, h("summary", null, t("ratingFigures")), table));
}
