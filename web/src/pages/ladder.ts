// The ladder: a ruleset family's leaderboard (GET /api/ladder/{family}),
// best first, each name a link to the player's profile, and beneath it the
// family's side balance (GET /api/ladder/{family}/balance). One tab a
// family; the family shown is the page's hash (/ladder#europe), classic
// without one. No account needed.

import { api, FAMILIES, Family, Leaderboard, SideBalance, SideTally } from "../api";
import { App, Cleanup } from "../app";
import { h, replace, setReady } from "../dom";
import { familyName, percent, t } from "../i18n";

function familyOfHash(): Family {
  const f = decodeURIComponent(location.hash.slice(1));
  return (FAMILIES as readonly string[]).includes(f) ? (f as Family) : "classic";
}

/** A link to a player's profile. */
export function playerLink(name: string): HTMLAnchorElement {
  return h("a", { href: `/players/${encodeURIComponent(name)}`, "data-player": name }, name);
}

/** A rating as shown: the number, and `?` while it is provisional. */
export function ratingText(rating: number, provisional: boolean): (HTMLElement | string)[] {
  return [String(rating), provisional ? h("abbr", { class: "provisional", title: t("provisional"), "aria-label": t("provisional") }, "?") : ""];
}

/** A column of numbers: its title aligned as they are. */
export function num(title: string): { num: string } {
  return { num: title };
}

/** A table's head: each column's title. */
export function headRow(columns: (string | { num: string })[]): HTMLTableSectionElement {
  return h("thead", null, h("tr", null, columns.map((c) => (typeof c === "string" ? h("th", { scope: "col" }, c) : h("th", { scope: "col", class: "num" }, c.num)))));
}

function leaderboard(b: Leaderboard): HTMLElement {
  if (b.players.length === 0) return h("p", { class: "hint", id: "ladder-empty" }, t("ladderEmpty"));
  const teams = b.players.some((p) => p.team_games > 0);
  const head = [num(t("colRank")), t("colPlayer"), num(t("colRating")), num(t("colDeviation")), num(t("colGames")), ...(teams ? [num(t("colTeamRating")), num(t("colTeamGames"))] : [])];
  return h(
    "table",
    { id: "ladder-table", class: "ranking" },
    headRow(head),
    h(
      "tbody",
      null,
      b.players.map((p) =>
        h(
          "tr",
          { "data-account": p.account, "data-rank": String(p.rank), "data-rating": String(p.rating), "data-provisional": String(p.provisional) },
          h("td", { class: "num" }, String(p.rank)),
          h("th", { scope: "row" }, playerLink(p.account)),
          h("td", { class: "num rating" }, ratingText(p.rating, p.provisional)),
          h("td", { class: "num" }, `± ${p.deviation}`),
          h("td", { class: "num" }, String(p.games)),
          teams ? [h("td", { class: "num" }, ratingText(p.team_rating, p.team_provisional)), h("td", { class: "num" }, String(p.team_games))] : null,
        ),
      ),
    ),
  );
}

/** A count with its share of the row's games. */
function countAndRate(n: number, rate: number | null): string {
  return rate === null ? String(n) : `${n} (${percent(rate)})`;
}

function balanceRow(key: string, title: string, s: SideTally): HTMLTableRowElement {
  return h(
    "tr",
    { "data-bid": key, "data-games": String(s.games), "data-axis-wins": String(s.axis_wins), "data-allies-wins": String(s.allies_wins), "data-draws": String(s.draws) },
    h("th", { scope: "row" }, title),
    h("td", { class: "num" }, String(s.games)),
    h("td", { class: "num" }, countAndRate(s.axis_wins, s.axis_win_rate)),
    h("td", { class: "num" }, countAndRate(s.allies_wins, s.allies_win_rate)),
    h("td", { class: "num" }, countAndRate(s.draws, s.draw_rate)),
  );
}

function balanceTable(b: SideBalance): HTMLElement {
  const unknown = b.unknown_sides > 0 ? h("p", { class: "hint", id: "balance-unknown" }, t("balanceUnknown", { n: b.unknown_sides })) : null;
  if (b.games === 0) return h("div", null, h("p", { class: "hint", id: "balance-empty" }, t("balanceEmpty")), unknown);
  return h(
    "div",
    null,
    h(
      "table",
      { id: "balance-table", class: "ranking" },
      headRow(["", num(t("colGames")), num(t("colAxisWins")), num(t("colAlliesWins")), num(t("colDraws"))]),
      h(
        "tbody",
        null,
        balanceRow("all", t("balanceAll"), b),
        b.by_bid.map((s) => balanceRow(s.bid === null ? "none" : String(s.bid), s.bid === null ? t("balanceNoBid") : t("balanceBid", { n: s.bid }), s)),
      ),
    ),
    unknown,
  );
}

export function ladderPage(app: App): Cleanup {
  let family = familyOfHash();
  let alive = true;
  let asked = 0;
  const tabs = FAMILIES.map((f) => h("button", { type: "button", role: "tab", id: `ladder-tab-${f}`, "data-family": f, onclick: () => void show(f) }, familyName(f)));
  const title = h("h2", { id: "ladder-board-title" });
  const games = h("p", { class: "meta", id: "ladder-games" });
  const board = h("div", { id: "ladder-board" }, t("loading"));
  const balance = h("div", { id: "ladder-balance" }, t("loading"));
  const root = h(
    "section",
    { class: "page ladder-page", id: "ladder" },
    h("h1", null, t("ladder")),
    h("p", { class: "hint" }, t("ladderIntro")),
    h("div", { class: "tabs", role: "tablist", "aria-label": t("ladderFamilies") }, tabs),
    h("section", { class: "panel", "aria-labelledby": "ladder-board-title" }, title, games, board),
    h("section", { class: "panel", "aria-labelledby": "balance-title" }, h("h2", { id: "balance-title" }, t("balanceTitle")), h("p", { class: "hint" }, t("balanceIntro")), balance),
  );
  replace(app.main, root);

  async function show(f: Family): Promise<void> {
    family = f;
    const ask = ++asked;
    if (location.hash !== `#${f}`) history.replaceState(null, "", `/ladder#${f}`);
    root.dataset.family = f;
    for (const tab of tabs) tab.setAttribute("aria-selected", String(tab.dataset.family === f));
    title.textContent = t("ladderBoard", { family: familyName(f) });
    setReady(false);
    try {
      const [b, s] = await Promise.all([api.ladder(f), api.balance(f)]);
      if (!alive || ask !== asked) return;
      games.textContent = t("ladderGames", { n: b.games });
      replace(board, leaderboard(b));
      replace(balance, balanceTable(s));
    } catch (e) {
      if (alive) app.showError(e);
    } finally {
      if (alive && ask === asked) setReady(true);
    }
  }

  void show(family);
  return () => {
    alive = false;
  };
}
