// A player's profile (GET /api/players/{name}): its rating in each ruleset
// family with its rank, a chart of its rating after each rated game, its
// results as Axis and as Allies, and its rated games, newest first, with
// links to each game's replay and record where the viewer may see them.
// No account needed.

import { api, ApiError, BySide, PlayerFamily, PlayerProfile, RatedGame } from "../api";
import { App, Cleanup } from "../app";
import { ratingChart } from "../chart";
import { h, replace, setReady } from "../dom";
import { familyName, powerName, t, Key } from "../i18n";
import { localTime } from "../clock";
import { headRow, num, playerLink, ratingText } from "./ladder";

function ratings(families: PlayerFamily[]): HTMLElement {
  const teams = families.some((f) => f.team_games > 0);
  const head = [t("colFamily"), t("colRank"), num(t("colRating")), num(t("colDeviation")), num(t("colGames")), ...(teams ? [num(t("colTeamRating")), num(t("colTeamGames"))] : [])];
  return h(
    "table",
    { id: "player-ratings", class: "ranking" },
    headRow(head),
    h(
      "tbody",
      null,
      families.map((f) =>
        h(
          "tr",
          { "data-family": f.family, "data-rating": String(f.rating), "data-rank": String(f.rank ?? "") },
          h("th", { scope: "row" }, h("a", { href: `/ladder#${f.family}` }, familyName(f.family))),
          h("td", null, f.rank === null ? "–" : t("playerRank", { rank: f.rank, players: f.players })),
          h("td", { class: "num rating" }, ratingText(f.rating, f.provisional)),
          h("td", { class: "num" }, `± ${f.deviation}`),
          h("td", { class: "num" }, String(f.games)),
          teams ? [h("td", { class: "num" }, ratingText(f.team_rating, f.team_provisional)), h("td", { class: "num" }, String(f.team_games))] : null,
        ),
      ),
    ),
  );
}

function sides(s: BySide): HTMLElement {
  const rows: [string, string][] = [["axis", powerName("axis")], ["allies", powerName("allies")]];
  const u = s.unknown;
  if (u.wins + u.losses + u.draws > 0) rows.push(["unknown", t("sideUnknown")]);
  return h(
    "table",
    { id: "player-sides", class: "ranking" },
    headRow([t("colSide"), num(t("colWins")), num(t("colLosses")), num(t("colDraws"))]),
    h(
      "tbody",
      null,
      rows.map(([key, title]) => {
        const r = s[key as keyof BySide];
        return h(
          "tr",
          { "data-side": key, "data-wins": String(r.wins), "data-losses": String(r.losses), "data-draws": String(r.draws) },
          h("th", { scope: "row" }, title),
          h("td", { class: "num" }, String(r.wins)),
          h("td", { class: "num" }, String(r.losses)),
          h("td", { class: "num" }, String(r.draws)),
        );
      }),
    ),
  );
}

const RESULTS: Record<string, Key> = { win: "resultWin", loss: "resultLoss", draw: "resultDraw" };
const HOWS: Record<string, Key> = { victory: "howVictory", surrender: "howSurrender", claim: "howClaim", abandon: "howAbandon" };

/** Names joined by commas, each a link to its profile. */
function players(names: string[]): (HTMLElement | string)[] {
  return names.flatMap((n, i) => (i === 0 ? [playerLink(n)] : [", ", playerLink(n)]));
}

function games(list: RatedGame[]): HTMLElement {
  const partners = list.some((g) => g.partners.length > 0);
  const head = [t("colEnded"), t("colFamily"), t("colSide"), t("colOpponents"), ...(partners ? [t("colPartners")] : []), t("colResult"), t("colHow"), t("colLinks")];
  return h(
    "table",
    { id: "player-games", class: "ranking" },
    headRow(head),
    h(
      "tbody",
      null,
      list.map((g) =>
        h(
          "tr",
          { "data-game": g.game, "data-result": g.result, "data-side": g.side ?? "" },
          h("td", null, localTime(g.ended_at)),
          h("td", null, familyName(g.family)),
          h("td", null, g.side ? powerName(g.side) : t("sideUnknown")),
          h("td", null, players(g.opponents)),
          partners ? h("td", null, players(g.partners)) : null,
          h("td", { class: `result result-${g.result}` }, RESULTS[g.result] ? t(RESULTS[g.result]) : g.result),
          h("td", null, HOWS[g.how] ? t(HOWS[g.how]) : g.how),
          h(
            "td",
            null,
            g.replay || g.record
              ? h(
                  "div",
                  { class: "actions" },
                  g.replay ? h("a", { href: g.replay, "data-replay": g.game }, t("replayLink")) : null,
                  g.record ? h("a", { href: g.record, "data-record": g.game, download: `warboard-${g.game}.json` }, t("recordLink")) : null,
                )
              : h("span", { class: "meta" }, t("privateGame")),
          ),
        ),
      ),
    ),
  );
}

function profile(p: PlayerProfile): HTMLElement[] {
  if (p.families.length === 0) return [h("p", { class: "hint", id: "player-no-games" }, t("playerNoGames", { name: p.name }))];
  const panel = (id: string, title: string, ...body: (HTMLElement | null)[]) =>
    h("section", { class: "panel", "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title` }, title), ...body);
  const solo = ratingChart(p.families, false, "rating-chart");
  const team = ratingChart(p.families, true, "team-rating-chart");
  return [
    panel("player-ratings", t("playerRatings"), ratings(p.families)),
    solo ? panel("rating-chart", t("ratingChartTitle"), solo) : null,
    team ? panel("team-rating-chart", t("teamRatingChartTitle"), team) : null,
    panel("player-sides", t("sidesTitle"), sides(p.by_side)),
    panel("player-games", t("ratedGames"), games(p.games)),
  ].filter((e): e is HTMLElement => e !== null);
}

export function playerPage(app: App, name: string): Cleanup {
  let alive = true;
  const heading = h("h1", { id: "player-name" }, name);
  const body = h("div", { id: "player-body" }, t("loading"));
  replace(app.main, h("section", { class: "page player-page", id: "player", "data-player": name }, h("p", null, h("a", { href: "/ladder" }, t("backToLadder"))), heading, body));
  (async () => {
    try {
      const p = await api.player(name);
      if (!alive) return;
      heading.textContent = p.name;
      replace(body, profile(p));
    } catch (e) {
      if (!alive) return;
      replace(body, h("p", { class: "hint" }, e instanceof ApiError && e.code === "ladder/unknown-player" ? t("unknownPlayer") : ""));
      app.showError(e);
    } finally {
      if (alive) setReady(true);
    }
  })();
  return () => {
    alive = false;
  };
}
