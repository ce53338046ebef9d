// The income chart: what each power was paid in each round, one line a
// power in its board colour, drawn as SVG from the server's figures
// (`GET /api/games/{id}/income`). A table with the same figures follows
// for screen readers and for reading exact numbers.

import { RoundIncome } from "./api";
import { powerColours } from "./board";
import { h, svg } from "./dom";
import { t } from "./i18n";

const W = 320;
const H = 160;
const PAD = { left: 30, right: 8, top: 8, bottom: 20 };

export function incomeChart(rounds: RoundIncome[], powers: string[], label: (p: string) => string): HTMLElement {
  if (rounds.length === 0) return h("p", { class: "hint", id: "income-chart" }, t("incomeNone"));
  const shown = powers.filter((p) => rounds.some((r) => p in r.income));
  const top = Math.max(10, ...rounds.flatMap((r) => Object.values(r.income)));
  const scaleTop = Math.ceil(top / 10) * 10;
  const first = rounds[0].round;
  const last = rounds[rounds.length - 1].round;
  const x = (round: number) => PAD.left + (last === first ? 0.5 : (round - first) / (last - first)) * (W - PAD.left - PAD.right);
  const y = (ipcs: number) => H - PAD.bottom - (ipcs / scaleTop) * (H - PAD.top - PAD.bottom);
  const grid = [0, scaleTop / 2, scaleTop].map((v) => [
    svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }),
    svg("text", { x: PAD.left - 4, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(v)),
  ]);
  const ticks = rounds.map((r) => svg("text", { x: x(r.round), y: H - 6, "text-anchor": "middle", class: "axis" }, String(r.round)));
  const lines = shown.map((p) => {
    const paid = rounds.filter((r) => p in r.income);
    const colour = powerColours(p)[0];
    const points = paid.map((r) => `${x(r.round).toFixed(1)},${y(r.income[p]).toFixed(1)}`);
    const line = svg("polyline", { points: points.join(" "), fill: "none", "stroke-width": 2, "data-power": p }, svg("title", null, label(p)));
    line.style.stroke = colour;
    // A dot per round, so that a single round shows too.
    const dots = paid.map((r) => {
      const dot = svg("circle", { cx: x(r.round).toFixed(1), cy: y(r.income[p]).toFixed(1), r: 2.5 }, svg("title", null, `${label(p)}: ${r.income[p]}`));
      dot.style.fill = colour;
      return dot;
    });
    return [line, dots];
  });
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": t("incomeChart") }, grid, ticks, lines);
  const legend = h(
    "ul",
    { class: "legend" },
    shown.map((p) => {
      const mark = h("span", { class: "swatch", "aria-hidden": "true" });
      mark.style.background = powerColours(p)[0];
      return h("li", null, mark, " ", label(p));
    }),
  );
  const table = h(
    "table",
    { class: "figures" },
    h("thead", null, h("tr", null, h("th", null, t("round")), shown.map((p) => h("th", { scope: "col" }, label(p))))),
    h("tbody", null, rounds.map((r) => h("tr", { "data-round": String(r.round) }, h("th", { scope: "row" }, String(r.round)), shown.map((p) => h("td", { "data-power": p }, p in r.income ? String(r.income[p]) : "–"))))),
  );
  return h("div", { id: "income-chart" }, chart, legend, h("details", null, h("summary", null, t("incomeFigures")), table));
}
