// The replay viewer: any game, entry by entry, the board as it stood after
// each (the server replays the record: GET /api/games/{id}/positions/{n}),
// with the story told so far.

import { api } from "../api";
import { App, Cleanup } from "../app";
import { BoardView } from "../board";
import { h, replace, setReady } from "../dom";
import { t, storyText } from "../i18n";

export function replayPage(app: App, id: string): Cleanup {
  const boardPane = h("div", { class: "board-pane" });
  const slider = h("input", { id: "replay-slider", type: "range", min: 0, max: 0, value: 0, "aria-label": t("replayStep") });
  const where = h("p", { id: "replay-where", "aria-live": "polite" });
  const log = h("ol", { id: "replay-log", class: "log" });
  // Steps count from the entry last asked for, so quick presses add up
  // even while an answer is on its way.
  let target = 0;
  const step = (d: number) => () => void show(target + d);
  const controls = h(
    "div",
    { class: "replay-controls" },
    h("button", { type: "button", id: "replay-first", "aria-label": t("replayFirst"), title: t("replayFirst"), onclick: () => void show(0) }, "«"),
    h("button", { type: "button", id: "replay-prev", "aria-label": t("replayPrev"), title: t("replayPrev"), onclick: step(-1) }, "‹"),
    slider,
    h("button", { type: "button", id: "replay-next", "aria-label": t("replayNext"), title: t("replayNext"), onclick: step(1) }, "›"),
    h("button", { type: "button", id: "replay-last", "aria-label": t("replayLast"), title: t("replayLast"), onclick: () => void show(Number(slider.max)) }, "»"),
  );
  const root = h(
    "section",
    { class: "page game replay", id: "replay", "data-game": id },
    h("p", null, h("a", { href: `/game/${encodeURIComponent(id)}` }, t("backToGame"))),
    h("h1", null, t("replayTitle")),
    controls,
    where,
    h("div", { class: "replay-body" }, boardPane, h("section", { class: "panel" }, h("h2", null, t("log")), log)),
  );
  replace(app.main, root);
  let board: BoardView | null = null;
  let alive = true;
  let asked = 0;
  async function show(n: number): Promise<void> {
    target = Math.max(0, Math.min(n, Number(slider.max) || n));
    n = target;
    const ask = ++asked;
    setReady(false);
    try {
      const r = await api.position(id, Math.max(0, n));
      if (!alive || ask !== asked) return;
      slider.max = String(r.count);
      slider.value = String(r.seq);
      target = r.seq;
      root.dataset.seq = String(r.seq);
      where.textContent = t("replayWhere", { n: r.seq, count: r.count, round: r.position.round, turn: r.position.turn, phase: r.position.phase.replace(/_/g, " ") });
      board?.update(r.position);
      replace(log, ...r.story.map((l) => h("li", { "data-kind": l.kind, class: `kind-${l.kind}` }, storyText(l))));
      log.lastElementChild?.scrollIntoView({ block: "nearest" });
    } catch (e) {
      app.showError(e);
    } finally {
      if (ask === asked) setReady(true);
    }
  }
  slider.addEventListener("change", () => void show(Number(slider.value)));
  (async () => {
    try {
      const game = await api.game(id);
      const ruleset = await api.ruleset(game.ruleset);
      if (!alive) return;
      board = new BoardView(game.ruleset, ruleset, () => {});
      replace(boardPane, board.root);
      await board.load();
      if (!alive) return;
      await show(0);
    } catch (e) {
      app.showError(e);
      setReady(true);
    }
  })();
  return () => {
    alive = false;
    board?.dispose();
  };
}
