// The decision panel: built from the server's `legal` items for the
// decision at hand. It never judges what is legal itself: it offers what
// the items say, sends the chosen action, and shows the server's answer.

import { BoardView } from "./board";
import { h, numberField, numberValue, replace, freshId, Child } from "./dom";
import { percent, t, unitName, phaseName, powerName } from "./i18n";
import { LegalItem, Summary, UnitView } from "./types";

export type Action = Record<string, unknown>;

export interface MoveOdds {
  at: string;
  odds: { attacker_wins: number; summary: string; source: string } | null;
}

export interface DecisionContext {
  summary: Summary;
  /** The status of the game: open, playing, over. */
  status: string;
  items: LegalItem[];
  myPowers: string[];
  /** power -> team, for surrender. */
  teamOf(power: string): string | null;
  spaceLabel(id: string): string;
  send(action: Action): Promise<boolean>;
  undo(): Promise<boolean>;
  /** The odds of the battle a move would start (the server's `odds`), or null. */
  odds(action: Action): Promise<MoveOdds | null>;
  /** What ending the phase now would lose, in the server's words, or null. */
  endPhaseLoses: string | null;
  board: BoardView | null;
}

interface Stack {
  from: string;
  unit: string;
  count: number;
  routes: string[][];
}

function str(v: unknown): string {
  return typeof v === "string" ? v : v === undefined || v === null ? "" : String(v);
}

function num(v: unknown, fallback = 0): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

/** The decision's kind as the panel names it: a battle decision, else the phase. */
export function decisionKind(s: Summary): string {
  const d = s.decision;
  if (d && d.kind && d.kind !== "phase") return d.kind;
  return d?.phase ?? s.phase;
}

export class DecisionPanel {
  readonly el: HTMLElement;
  private heading: HTMLElement;
  private body: HTMLElement;
  private bar: HTMLElement;
  private ctx: DecisionContext | null = null;
  /** The end of the phase was asked once, at this seq, and warned of losses. */
  private endWarned = false;
  private endWarnedAt = -1;
  private key = "";
  private stack: { from: string; unit: string } | null = null;
  /** The routes the selected stack's panel offers now (with the units chosen to go along). */
  private shownRoutes: string[][] = [];
  private surrenderStep = 0;
  private busy = false;
  /** The panel had the focus when an action was sent: give it back after the rebuild. */
  private keepFocus = false;
  /** An action of this panel was sent since the last render. */
  private acted = false;
  private decisionKey = "";

  constructor() {
    this.heading = h("p", { class: "decision-status", role: "status", "aria-live": "polite" });
    this.body = h("div", { class: "decision-body" });
    this.bar = h("div", { class: "decision-bar" });
    this.el = h("section", { id: "decision", class: "panel", "aria-labelledby": "decision-title" }, h("h2", { id: "decision-title", tabindex: -1 }, t("decisionTitle")), this.heading, this.body, this.bar);
  }

  /** Renders for a new summary and items; leaves the controls alone when nothing changed. */
  render(ctx: DecisionContext): void {
    this.ctx = ctx;
    const s = ctx.summary;
    const kind = decisionKind(s);
    this.el.dataset.kind = kind;
    this.el.dataset.awaiting = s.awaiting;
    const key = JSON.stringify([s.seq, s.awaiting, s.actor, s.decision, s.undo, ctx.status, ctx.items, ctx.myPowers]);
    if (key === this.key) {
      this.setBusy(false);
      return;
    }
    this.key = key;
    const hadFocus = this.keepFocus || this.el.contains(document.activeElement);
    this.keepFocus = false;
    // Rebuilt because others acted (e.g. sealed shopping) during the same decision: keep what was typed.
    const decisionKey = JSON.stringify([kind, s.actor, s.round, s.turn, s.decision?.at]);
    const saved = !this.acted && decisionKey === this.decisionKey ? this.saveInputs() : null;
    const focusedId = document.activeElement instanceof HTMLElement && this.el.contains(document.activeElement) ? document.activeElement.id : "";
    this.acted = false;
    this.decisionKey = decisionKey;
    this.renderHeading(kind);
    const stacks = this.stacks();
    if (this.stack && !stacks.some((st) => st.from === this.stack!.from && st.unit === this.stack!.unit && st.routes.length > 0)) this.stack = null;
    replace(this.body, s.awaiting === "client" && ctx.status === "playing" ? this.sections() : null);
    this.renderBar();
    this.setBusy(false);
    this.showStackOnBoard();
    if (saved) this.restoreInputs(saved);
    if (saved && focusedId) document.getElementById(focusedId)?.focus();
    // Keyboard users keep their place: focus stays in the panel when its controls were rebuilt.
    if (hadFocus && !this.el.contains(document.activeElement)) {
      const first = this.el.querySelector<HTMLElement>(".decision-body button:not(:disabled), .decision-body input:not(:disabled), .decision-bar button:not(:disabled)");
      (first ?? this.el.querySelector<HTMLElement>("#decision-title"))?.focus();
    }
  }

  private saveInputs(): Map<string, string | boolean> {
    const out = new Map<string, string | boolean>();
    for (const input of Array.from(this.body.querySelectorAll<HTMLInputElement>("input[id]"))) {
      out.set(input.id, input.type === "checkbox" ? input.checked : input.value);
    }
    return out;
  }

  private restoreInputs(saved: Map<string, string | boolean>): void {
    for (const input of Array.from(this.body.querySelectorAll<HTMLInputElement>("input[id]"))) {
      const v = saved.get(input.id);
      if (v === undefined) continue;
      if (typeof v === "boolean") input.checked = v;
      else input.value = v;
      input.dispatchEvent(new Event(input.type === "checkbox" ? "change" : "input"));
    }
  }

  private renderHeading(kind: string): void {
    const ctx = this.ctx!;
    const s = ctx.summary;
    let text: string;
    if (ctx.status === "open") text = t("waitingForPlayers");
    else if (ctx.status === "over" || s.awaiting === "nobody" || s.winner !== null) {
      text = s.winner !== null && s.winner !== undefined ? t("gameOver", { winner: Array.isArray(s.winner) ? s.winner.map((w) => powerName(String(w))).join(", ") : powerName(String(s.winner)) }) : t("gameOverNoWinner");
    } else if (s.awaiting === "client") {
      text = `${t("yourDecision", { what: phaseName(kind) })} · ${t("decisionFor", { power: powerName(s.actor ?? "?") })}`;
    } else text = t("waitingFor", { power: powerName(s.actor ?? "?") });
    this.heading.textContent = text;
  }

  // ---- the sections, one per kind of item ----

  private sections(): Child[] {
    const items = this.ctx!.items;
    const by = (type: string) => items.filter((i) => i.type === type);
    const known = new Set(["end_phase", "purchase", "move", "battle", "resolve", "rocket", "casualties", "continue", "retreat", "submerge", "place", "research", "repair"]);
    const others = items.filter((i) => !known.has(i.type));
    const out: Child[] = [
      this.research(by("research")),
      this.repairs(by("repair")),
      this.purchase(by("purchase")),
      this.moves(),
      this.battles(items.filter((i) => i.type === "battle" || i.type === "resolve" || i.type === "rocket")),
      ...by("casualties").map((i) => this.casualties(i)),
      this.pressOrRetreat(items.filter((i) => i.type === "continue" || i.type === "retreat" || i.type === "submerge")),
      this.placements(by("place")),
      this.generic(others),
    ];
    if (items.every((i) => i.type === "end_phase")) out.push(h("p", { class: "hint" }, t("noItems")));
    return out;
  }

  private withPower(item: LegalItem, action: Action): Action {
    if (typeof item.power === "string") action.power = item.power;
    return action;
  }

  private purchase(items: LegalItem[]): Child {
    if (items.length === 0) return null;
    const ctx = this.ctx!;
    const power = str(items[0].power) || ctx.summary.actor || "";
    const bank = num(ctx.summary.ipcs[power]);
    const total = h("p", { class: "total", "aria-live": "polite" });
    const inputs: { unit: string; cost: number; input: HTMLInputElement }[] = [];
    const update = () => {
      const sum = inputs.reduce((acc, r) => acc + r.cost * numberValue(r.input), 0);
      total.textContent = t("totalCost", { total: sum, bank });
      total.classList.toggle("over", sum > bank);
    };
    const rows = items.map((item) => {
      const unit = str(item.unit);
      const cost = num(item.cost);
      const max = num(item.max);
      const [label, input] = numberField(`buy-${unit}`, unitName(unit), 0, 0, max, { "data-buy": unit, oninput: update });
      inputs.push({ unit, cost, input });
      return h("div", { class: "row" }, label, input, h("span", { class: "meta" }, `${t("costEach", { n: cost })}, ${t("upTo", { n: max })}`));
    });
    update();
    const buy = h("button", {
      type: "button",
      id: "buy-submit",
      class: "primary",
      onclick: () => {
        const units: Record<string, number> = {};
        for (const r of inputs) {
          const n = numberValue(r.input);
          if (n > 0) units[r.unit] = n;
        }
        void this.act(this.withPower(items[0], { type: "purchase", units }));
      },
    }, t("buy"));
    return h("section", { class: "group purchase" }, h("h3", null, t("purchase")), h("p", { class: "meta" }, t("bank", { n: bank })), ...rows, total, buy);
  }

  private stacks(): Stack[] {
    return (this.ctx?.items ?? [])
      .filter((i) => i.type === "move")
      .map((i) => ({ from: str(i.from), unit: str(i.unit), count: num(i.count, 1), routes: Array.isArray(i.routes) ? (i.routes as unknown[]).filter(Array.isArray).map((r) => (r as unknown[]).map(str)) : [] }));
  }

  private selectedStack(): Stack | null {
    if (!this.stack) return null;
    return this.stacks().find((st) => st.from === this.stack!.from && st.unit === this.stack!.unit) ?? null;
  }

  private moves(): Child {
    const stacks = this.stacks();
    if (stacks.length === 0) return null;
    const ctx = this.ctx!;
    const sel = this.selectedStack();
    const list = h(
      "ul",
      { class: "stacks" },
      stacks.map((st) => {
        const chosen = sel !== null && sel.from === st.from && sel.unit === st.unit;
        const movable = st.routes.length > 0;
        return h(
          "li",
          null,
          h(
            "button",
            {
              type: "button",
              class: `stack${chosen ? " chosen" : ""}`,
              "data-move-from": st.from,
              "data-move-unit": st.unit,
              "aria-pressed": chosen ? "true" : "false",
              disabled: !movable,
              onclick: () => this.chooseStack(chosen ? null : st),
            },
            t("stack", { count: st.count, unit: unitName(st.unit), from: ctx.spaceLabel(st.from) }),
            h("span", { class: "meta" }, movable ? t("routesCount", { n: st.routes.length }) : t("cannotMove")),
          ),
        );
      }),
    );
    return h("section", { class: "group moves" }, h("h3", null, t("moves")), h("p", { class: "hint" }, t("chooseStack")), list, sel ? this.stackDetail(sel) : null);
  }

  /** The other unit types at the stack's space that can move now: they may go along in one action. */
  private companions(st: Stack): Stack[] {
    return this.stacks().filter((o) => o.from === st.from && o.unit !== st.unit && o.routes.length > 0);
  }

  private stackDetail(st: Stack): Child {
    const ctx = this.ctx!;
    const [label, count] = numberField("move-count", t("count"), st.count, 1, st.count);
    let bombing: HTMLInputElement | null = null;
    const bombingRow: Child[] = [];
    if (st.unit === "bomber") {
      const id = freshId("bombing");
      bombing = h("input", { type: "checkbox", id, "data-bombing": "" });
      bombingRow.push(h("div", { class: "row check" }, bombing, h("label", { for: id }, t("bombingRaid"))));
    }
    // Several unit types in one action (issue 30): the others at this
    // space, each with a box and a count. The action has one route, so the
    // destinations offered are those every chosen type lists; the server
    // judges the whole move (and says why where it refuses).
    const along = this.companions(st).map((o) => {
      const id = freshId("with");
      const box = h("input", { type: "checkbox", id, "data-with-unit": o.unit });
      const [, n] = numberField(freshId("with-count"), t("count"), o.count, 1, o.count, { "data-with-count": o.unit, "aria-label": t("countOf", { unit: unitName(o.unit) }) });
      return { stack: o, box, n, row: h("div", { class: "row check" }, box, h("label", { for: id }, t("alsoMove", { count: o.count, unit: unitName(o.unit) })), n) };
    });
    const units = (): { type: string; count: number }[] => [
      { type: st.unit, count: count ? Math.max(1, Math.min(st.count, numberValue(count))) : st.count },
      ...along.filter((a) => a.box.checked).map((a) => ({ type: a.stack.unit, count: Math.max(1, Math.min(a.stack.count, numberValue(a.n))) })),
    ];
    const routesFor = (): string[][] => {
      const chosen = along.filter((a) => a.box.checked);
      return st.routes.filter((r) => chosen.every((a) => a.stack.routes.some((o) => o[o.length - 1] === r[r.length - 1])));
    };
    const routeList = h("ul", { class: "routes" });
    const detail = h(
      "div",
      { class: "stack-detail", id: "move-detail" },
      h("div", { class: "row" }, label, count),
      ...bombingRow,
      along.length ? h("fieldset", { class: "along" }, h("legend", null, t("alsoMoveTitle")), along.map((a) => a.row)) : null,
      routeList,
    );
    const combat = this.ctx?.summary.phase === "combat_move" || this.ctx?.summary.phase === "turn";
    const draw = (): void => {
      const routes = routesFor();
      this.shownRoutes = routes;
      replace(
        routeList,
        routes.length === 0
          ? h("li", { class: "hint" }, t("noCommonDestination"))
          : routes.map((r) =>
              h(
                "li",
                null,
                h(
                  "button",
                  { type: "button", class: "route", "data-route": r.join(">"), onclick: () => this.move(units(), r, bombing) },
                  `→ ${ctx.spaceLabel(r[r.length - 1])}`,
                  r.length > 2 ? h("span", { class: "meta" }, t("via", { path: r.slice(1, -1).join(" › ") })) : null,
                ),
              ),
            ),
      );
      this.ctx?.board?.setDestinations(routes.map((r) => r[r.length - 1]));
      // The odds of each attack before it is made (issue 30): asked of the
      // server for the units chosen, again when they change.
      if (!combat) return;
      const asked = units();
      for (const r of routes) {
        const to = r[r.length - 1];
        const btn = routeList.querySelector<HTMLElement>(`[data-route="${CSS.escape(r.join(">"))}"]`);
        if (!btn) continue;
        void ctx.odds({ type: "move", units: asked, route: r }).then((o) => {
          btn.querySelector("[data-odds-for]")?.remove();
          if (o?.odds) {
            btn.appendChild(h("span", { class: "odds", "data-odds-for": to, title: o.odds.summary }, t("attackWins", { p: percent(o.odds.attacker_wins) })));
          }
        });
      }
    };
    count?.addEventListener("change", draw);
    for (const a of along) {
      a.box.addEventListener("change", draw);
      a.n.addEventListener("change", () => a.box.checked && draw());
    }
    draw();
    return detail;
  }

  private move(units: { type: string; count: number }[], route: string[], bombing: HTMLInputElement | null): void {
    const action: Action = { type: "move", units, route };
    if (bombing?.checked) action.bombing = true;
    void this.act(action);
  }

  private chooseStack(st: Stack | null): void {
    this.stack = st ? { from: st.from, unit: st.unit } : null;
    // Re-render the body without losing the rest of the panel's state.
    if (this.ctx) {
      replace(this.body, this.sections());
      this.showStackOnBoard();
      const btn = st ? this.body.querySelector<HTMLButtonElement>(`[data-move-from="${CSS.escape(st.from)}"][data-move-unit="${CSS.escape(st.unit)}"]`) : null;
      btn?.focus();
    }
  }

  private showStackOnBoard(): void {
    const board = this.ctx?.board;
    if (!board) return;
    const st = this.ctx!.summary.awaiting === "client" ? this.selectedStack() : null;
    board.setOrigin(st ? st.from : null);
    board.setDestinations(st ? this.shownRoutes.map((r) => r[r.length - 1]) : []);
  }

  /** A click on the board: picks a route or a stack. True when it did something. */
  spaceClicked(id: string): boolean {
    if (!this.ctx || this.ctx.summary.awaiting !== "client" || this.busy) return false;
    const st = this.selectedStack();
    if (st) {
      // The route button the panel shows for this space, with the units chosen there.
      const button = this.body.querySelector<HTMLButtonElement>(`#move-detail [data-route$=">${CSS.escape(id)}"]`);
      const route = this.shownRoutes.find((r) => r[r.length - 1] === id);
      if (button && route) {
        button.click();
        return true;
      }
    }
    const here = this.stacks().find((s) => s.from === id && s.routes.length > 0 && !(st && st.from === s.from && st.unit === s.unit));
    if (here) {
      this.chooseStack(here);
      return true;
    }
    return false;
  }

  private battles(items: LegalItem[]): Child {
    if (items.length === 0) return null;
    const ctx = this.ctx!;
    const rows = items.map((item) => {
      const at = str(item.at);
      if (item.type === "rocket") {
        const from = str(item.from);
        return h("li", null, h("button", { type: "button", "data-rocket-from": from, "data-rocket-at": at, onclick: () => void this.act({ ...item }) }, t("rocket", { from: ctx.spaceLabel(from), at: ctx.spaceLabel(at) })));
      }
      const label = item.type === "resolve" ? t("resolve", { at: ctx.spaceLabel(at) }) : t("fight", { at: ctx.spaceLabel(at) });
      return h("li", null, h("button", { type: "button", class: item.type === "battle" ? "primary" : "", "data-battle-at": at, "data-type": item.type, onclick: () => void this.act({ type: item.type, at }) }, label));
    });
    return h("section", { class: "group battles" }, h("h3", null, t("battlesToFight")), h("ul", { class: "buttons" }, rows));
  }

  private casualties(item: LegalItem): Child {
    const ctx = this.ctx!;
    const at = str(item.at);
    const hits = num(item.hits);
    const candidates = (Array.isArray(item.candidates) ? item.candidates : []) as UnitView[];
    const defaults = (Array.isArray(item.default) ? item.default : []) as { id: string }[];
    const chosenByDefault = new Set(defaults.map((d) => d.id));
    const counter = h("p", { class: "meta", "aria-live": "polite" });
    const boxes: HTMLInputElement[] = [];
    const update = () => {
      counter.textContent = t("chooseHits", { hits, chosen: boxes.filter((b) => b.checked).length });
    };
    const rows = candidates.map((u) => {
      const id = `cas-${u.id}`;
      const box = h("input", { type: "checkbox", id, "data-casualty": u.id, checked: chosenByDefault.has(u.id), onchange: update });
      boxes.push(box);
      const who = ctx.myPowers.includes(u.owner) && candidates.every((c) => c.owner === u.owner) ? "" : ` · ${powerName(u.owner)}`;
      return h("li", { class: "row check" }, box, h("label", { for: id }, `${unitName(u.type)} (${u.id})${who}`, u.hits ? h("span", { class: "meta" }, ` ${t("damaged")}`) : null));
    });
    update();
    const submit = h("button", {
      type: "button",
      id: "casualties-submit",
      class: "primary",
      onclick: () => {
        const ids = boxes.filter((b) => b.checked).map((b) => b.dataset.casualty!);
        const same = ids.length === chosenByDefault.size && ids.every((id) => chosenByDefault.has(id));
        // The default as given (it may name a unit twice, e.g. a two-hit ship).
        const units = same ? defaults.map((d) => ({ id: d.id })) : ids.map((id) => ({ id }));
        void this.act({ type: "casualties", units });
      },
    }, t("takeLosses"));
    return h("section", { class: "group casualties", "data-casualties-at": at }, h("h3", null, t("casualties", { at: ctx.spaceLabel(at) })), counter, h("ul", { class: "checks" }, rows), submit);
  }

  private pressOrRetreat(items: LegalItem[]): Child {
    if (items.length === 0) return null;
    const ctx = this.ctx!;
    const at = ctx.summary.decision?.at;
    const buttons = items.map((item) => {
      if (item.type === "continue") return h("button", { type: "button", id: "continue", class: "primary", onclick: () => void this.act({ type: "continue" }) }, t("continueBattle"));
      if (item.type === "retreat") {
        const to = typeof item.to === "string" ? item.to : "";
        return h("button", { type: "button", "data-retreat": to, onclick: () => void this.act({ ...item }) }, to ? t("retreatTo", { to: ctx.spaceLabel(to) }) : t("breakOff"));
      }
      const to = str(item.to);
      return h("button", { type: "button", "data-submerge": to, onclick: () => void this.act({ ...item }) }, t("submergeTo", { to: ctx.spaceLabel(to) }));
    });
    return h("section", { class: "group press" }, h("h3", null, t("pressOrRetreat", { at: at ? ctx.spaceLabel(at) : "" })), h("div", { class: "buttons" }, buttons));
  }

  private placements(items: LegalItem[]): Child {
    if (items.length === 0) return null;
    const ctx = this.ctx!;
    const waiting = ctx.summary.purchased ?? {};
    const groups = items.map((item) => {
      const at = str(item.at);
      const units = Array.isArray(item.units) ? (item.units as unknown[]).map(str) : [];
      const inputs = units.map((u) => {
        const max = waiting[u];
        const [label, input] = numberField(`place-${at}-${u}`, unitName(u), 0, 0, typeof max === "number" ? max : undefined, { "data-place-unit": u });
        return { u, label, input };
      });
      const submit = h("button", {
        type: "button",
        "data-place-submit": at,
        onclick: () => {
          const chosen: Record<string, number> = {};
          for (const r of inputs) {
            const n = numberValue(r.input);
            if (n > 0) chosen[r.u] = n;
          }
          void this.act(this.withPower(item, { type: "place", at, units: chosen }));
        },
      }, t("placeSubmit", { at }));
      return h(
        "fieldset",
        { class: "place-at", "data-place-at": at },
        h("legend", null, t("placeAt", { at: ctx.spaceLabel(at) })),
        inputs.map((r) => h("div", { class: "row" }, r.label, r.input, typeof waiting[r.u] === "number" ? h("span", { class: "meta" }, t("upTo", { n: waiting[r.u] })) : null)),
        submit,
      );
    });
    return h("section", { class: "group place" }, h("h3", null, t("place")), groups);
  }

  private research(items: LegalItem[]): Child {
    if (items.length === 0) return null;
    const rows = items.map((item, k) => {
      const max = num(item.max_dice);
      const min = typeof item.min_dice === "number" ? item.min_dice : 1;
      const extra: string[] = [];
      if (typeof item.chart === "number") extra.push(t("researchChart", { n: item.chart }));
      if (typeof item.development === "string") extra.push(t("researchAim", { development: item.development.replace(/_/g, " ") }));
      const [label, input] = numberField(`research-${k}`, `${t("researchDice")}${extra.length ? ` (${extra.join(", ")})` : ""}`, Math.min(max, Math.max(min, 1)), min, max, { "data-research-dice": k });
      const go = h("button", {
        type: "button",
        "data-research": k,
        onclick: () => {
          const action: Action = { type: "research", dice: numberValue(input) };
          if (item.chart !== undefined) action.chart = item.chart;
          if (item.development !== undefined) action.development = item.development;
          void this.act(action);
        },
      }, t("rollResearch"));
      return h("div", { class: "row" }, label, input, go);
    });
    return h("section", { class: "group research" }, h("h3", null, t("research")), rows);
  }

  private repairs(items: LegalItem[]): Child {
    if (items.length === 0) return null;
    const ctx = this.ctx!;
    const rows = items.map((item) => {
      const at = str(item.at);
      const max = num(item.max, 1);
      const [label, input] = numberField(`repair-${at}`, t("repairCount", { at: ctx.spaceLabel(at) }), max, 1, max, { "data-repair-count": at });
      const go = h("button", { type: "button", "data-repair": at, onclick: () => void this.act({ type: "repair", at, count: numberValue(input) }) }, t("repairSubmit"));
      return h("div", { class: "row" }, h("span", { class: "meta" }, t("repair", { at, damage: num(item.damage) })), label, input, go);
    });
    return h("section", { class: "group repair" }, rows);
  }

  private generic(items: LegalItem[]): Child {
    if (items.length === 0) return null;
    const rows = items.map((item) => {
      const { type, ...rest } = item;
      const detail = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
      return h("li", null, h("button", { type: "button", "data-action": type, onclick: () => void this.act({ ...item }) }, `${type.replace(/_/g, " ")}${detail}`));
    });
    return h("section", { class: "group other" }, h("h3", null, t("other")), h("ul", { class: "buttons" }, rows));
  }

  // ---- the bar: end phase, undo, surrender ----

  private renderBar(): void {
    const ctx = this.ctx!;
    const s = ctx.summary;
    const mine = s.awaiting === "client" && ctx.status === "playing";
    const playing = ctx.status === "playing" && ctx.myPowers.length > 0;
    const endItem = ctx.items.find((i) => i.type === "end_phase");
    const endAction = (): Action => {
      if (endItem) return { ...endItem };
      const a: Action = { type: "end_phase" };
      const roundPhase = (s.actors?.length ?? 0) > 1 || s.phase === "payday" || s.phase === "shopping";
      if (roundPhase && s.actor) a.power = s.actor;
      return a;
    };
    const children: Child[] = [];
    // Nothing lost without consent: an end that loses units says so and
    // waits for a second press (as the terminal asks for a second `end`).
    const loses = ctx.endPhaseLoses;
    if (!loses || this.endWarnedAt !== s.seq) this.endWarned = false;
    const end = (): void => {
      if (loses && !this.endWarned) {
        this.endWarned = true;
        this.endWarnedAt = s.seq;
        this.renderBar();
        this.bar.querySelector<HTMLButtonElement>("#end-phase")?.focus();
        return;
      }
      this.endWarned = false;
      void this.act(endAction());
    };
    if (mine) children.push(h("button", { type: "button", id: "end-phase", class: endItem ? "primary" : "", onclick: end }, this.endWarned ? t("endPhaseAnyway") : t("endPhase")));
    if (mine && loses && this.endWarned) children.push(h("p", { id: "end-warning", class: "warning", role: "alert" }, t("endPhaseLoses", { what: loses })));
    if (playing) {
      children.push(h("button", { type: "button", id: "undo", disabled: s.undo === 0, onclick: () => void this.doUndo() }, t("undo")));
      children.push(h("button", { type: "button", id: "surrender", class: "danger", "aria-expanded": this.surrenderStep > 0 ? "true" : "false", onclick: () => this.setSurrender(1) }, t("surrender")));
    }
    replace(this.bar, children, playing && this.surrenderStep > 0 ? this.surrenderBox() : null);
  }

  private surrenderSide(): string | null {
    const ctx = this.ctx!;
    const actor = ctx.summary.actor;
    const p = actor && ctx.myPowers.includes(actor) ? actor : ctx.myPowers[0];
    return p ? ctx.teamOf(p) : null;
  }

  private setSurrender(step: number): void {
    this.surrenderStep = step;
    this.renderBar();
    this.bar.querySelector<HTMLButtonElement>(step > 0 ? "#surrender-confirm" : "#surrender")?.focus();
  }

  private surrenderBox(): Child {
    const side = this.surrenderSide() ?? "?";
    const text = this.surrenderStep === 1 ? t("surrenderConfirm1", { team: powerName(side) }) : t("surrenderConfirm2");
    const yes = h("button", {
      type: "button",
      id: "surrender-confirm",
      class: "danger",
      onclick: () => {
        if (this.surrenderStep === 1) this.setSurrender(2);
        else {
          this.surrenderStep = 0;
          void this.act({ type: "surrender", side });
        }
      },
    }, this.surrenderStep === 1 ? t("surrenderYes") : t("surrenderFinal"));
    const no = h("button", { type: "button", id: "surrender-cancel", onclick: () => this.setSurrender(0) }, t("cancel"));
    return h("div", { class: "surrender-confirm", role: "alertdialog", "aria-label": t("surrender") }, h("p", null, text), yes, no);
  }

  // ---- sending ----

  private setBusy(on: boolean): void {
    this.busy = on;
    this.el.classList.toggle("busy", on);
    this.el.setAttribute("aria-busy", on ? "true" : "false");
    for (const c of Array.from(this.el.querySelectorAll<HTMLButtonElement | HTMLInputElement>("button, input"))) {
      if (on && !c.disabled) {
        c.disabled = true;
        c.dataset.busyOff = "1";
      } else if (!on && c.dataset.busyOff) {
        c.disabled = false;
        delete c.dataset.busyOff;
      }
    }
  }

  private async act(action: Action): Promise<void> {
    if (!this.ctx || this.busy) return;
    const focused = document.activeElement instanceof HTMLElement && this.el.contains(document.activeElement) ? document.activeElement : null;
    this.keepFocus = focused !== null;
    this.acted = true;
    this.setBusy(true);
    const ok = await this.ctx.send(action);
    if (!ok) {
      this.keepFocus = false;
      this.acted = false;
      this.setBusy(false);
      focused?.focus();
    }
  }

  private async doUndo(): Promise<void> {
    if (!this.ctx || this.busy) return;
    this.keepFocus = this.el.contains(document.activeElement);
    this.acted = true;
    this.setBusy(true);
    const ok = await this.ctx.undo();
    if (!ok) {
      this.acted = false;
      this.setBusy(false);
    }
  }

  /** Forces the next render to rebuild the controls. */
  invalidate(): void {
    this.key = "";
  }
}
