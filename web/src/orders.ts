// Standing orders on the game page (docs/server.md, "Standing orders"): for
// each power the viewer holds, an order of loss, submarines and retreat,
// read with GET, saved with PUT and cleared with DELETE
// /api/games/{id}/orders/{power}. A part left at "ask me" is left out.
// Ids, per power P: form[data-orders-power=P], #orders-losses-P,
// #orders-subs-P, #orders-retreat-P, #orders-retreat-n-P, #orders-save-P,
// #orders-clear-P, #orders-status-P[data-state]. A word that names no unit
// type at all is refused here (`orders/not-a-unit`, the page's own code).

import { api, ApiError, StandingOrders } from "./api";
import { h, replace, foldable } from "./dom";
import { t, unitName, unitIdOf } from "./i18n";

export interface OrdersHost {
  gameId: string;
  powerLabel(p: string): string;
  /** The unit types on the board now, for the hint. */
  unitTypes(): string[];
  showError(err: unknown): void;
  clearError(): void;
}

export class OrdersPanel {
  readonly el: HTMLDetailsElement;
  private body: HTMLDivElement;
  private powers: string[] = [];
  private built = "";

  constructor(private host: OrdersHost) {
    this.body = h("div", { class: "orders-body" });
    this.el = foldable({ id: "orders-panel", hidden: true }, "orders-title", t("ordersTitle"), h("p", { class: "hint" }, t("ordersIntro")), this.body);
  }

  /** The powers the viewer holds (from the socket's hello): a form each, filled from the server. */
  async load(powers: string[], playing: boolean): Promise<void> {
    this.powers = powers;
    this.el.hidden = powers.length === 0 || !playing;
    if (this.el.hidden || this.built === powers.join()) return;
    this.built = powers.join();
    replace(this.body, powers.map((p) => this.form(p)));
    for (const p of powers) {
      try {
        const orders = await api.orders(this.host.gameId, p);
        if (this.powers.includes(p)) this.fill(p, orders, "loaded");
      } catch (e) {
        this.host.showError(e);
      }
    }
  }

  private q<T extends HTMLElement>(id: string): T {
    return this.body.querySelector(`#${CSS.escape(id)}`) as T;
  }

  private form(p: string): HTMLFormElement {
    const id = (what: string) => `orders-${what}-${p}`;
    const losses = h("input", { id: id("losses"), type: "text", class: "orders-losses", spellcheck: "false", autocapitalize: "none", "aria-describedby": id("losses-doc") });
    const subs = h(
      "select",
      { id: id("subs") },
      h("option", { value: "" }, t("ordersAsk")),
      h("option", { value: "always" }, t("ordersAlways")),
      h("option", { value: "never" }, t("ordersNever")),
    );
    const n = h("input", { id: id("retreat-n"), type: "number", inputmode: "numeric", min: 0, max: 999, step: 1, value: "1", "aria-label": t("ordersRetreatN"), title: t("ordersRetreatN") });
    const retreat = h(
      "select",
      { id: id("retreat"), onchange: () => (n.disabled = retreat.value !== "when") },
      h("option", { value: "" }, t("ordersAsk")),
      h("option", { value: "never" }, t("ordersRetreatNever")),
      h("option", { value: "when" }, t("ordersRetreatWhen")),
    );
    n.disabled = true;
    const types = this.host.unitTypes();
    const form = h(
      "form",
      { class: "orders", "data-orders-power": p, novalidate: true },
      h("h3", null, this.host.powerLabel(p)),
      h("div", { class: "field" }, h("label", { for: id("losses") }, t("ordersLosses")), losses),
      h("p", { class: "doc meta", id: id("losses-doc") }, t("ordersLossesHint", { types: types.map(unitName).join(", ") || "—" })),
      h("div", { class: "row" }, h("label", { for: id("subs") }, t("ordersSubs")), subs),
      h("div", { class: "row" }, h("label", { for: id("retreat") }, t("ordersRetreat")), retreat, n),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "submit", id: id("save"), class: "primary" }, t("ordersSave")),
        h("button", { type: "button", id: id("clear"), onclick: () => void this.clear(p) }, t("ordersClear")),
      ),
      h("p", { class: "meta orders-status", id: id("status"), role: "status" }),
    );
    form.onsubmit = (e) => {
      e.preventDefault();
      void this.save(p);
    };
    return form;
  }

  private fill(p: string, o: StandingOrders, state: "loaded" | "saved" | "cleared"): void {
    this.q<HTMLInputElement>(`orders-losses-${p}`).value = (o.losses ?? []).map(unitName).join(", ");
    this.q<HTMLSelectElement>(`orders-subs-${p}`).value = o.submarines ?? "";
    const retreat = this.q<HTMLSelectElement>(`orders-retreat-${p}`);
    const n = this.q<HTMLInputElement>(`orders-retreat-n-${p}`);
    retreat.value = o.retreat === undefined ? "" : o.retreat === "never" ? "never" : "when";
    if (typeof o.retreat === "object") n.value = String(o.retreat.when_at_most);
    n.disabled = retreat.value !== "when";
    const empty = !o.losses?.length && !o.submarines && o.retreat === undefined;
    const status = this.q<HTMLElement>(`orders-status-${p}`);
    status.dataset.state = state;
    status.textContent = state === "saved" ? t("ordersSaved") : state === "cleared" ? t("ordersCleared") : empty ? t("ordersNone") : "";
  }

  /** The form's orders; an unknown unit type is refused here, before the server sees it. */
  private read(p: string): StandingOrders {
    const o: StandingOrders = {};
    const words = this.q<HTMLInputElement>(`orders-losses-${p}`).value.split(/[,;]/).map((w) => w.trim()).filter(Boolean);
    if (words.length) {
      o.losses = words.map((w) => {
        const id = unitIdOf(w);
        if (!id) throw new ApiError("orders/not-a-unit", t("ordersUnknownUnit", { name: w }));
        return id;
      });
    }
    const subs = this.q<HTMLSelectElement>(`orders-subs-${p}`).value;
    if (subs === "always" || subs === "never") o.submarines = subs;
    const retreat = this.q<HTMLSelectElement>(`orders-retreat-${p}`).value;
    if (retreat === "never") o.retreat = "never";
    else if (retreat === "when") o.retreat = { when_at_most: Math.max(0, Math.floor(Number(this.q<HTMLInputElement>(`orders-retreat-n-${p}`).value)) || 0) };
    return o;
  }

  private async save(p: string): Promise<void> {
    const status = this.q<HTMLElement>(`orders-status-${p}`);
    status.dataset.state = "saving";
    try {
      const saved = await api.setOrders(this.host.gameId, p, this.read(p));
      this.host.clearError();
      this.fill(p, saved, "saved");
    } catch (e) {
      status.dataset.state = "error";
      status.textContent = "";
      this.host.showError(e);
    }
  }

  private async clear(p: string): Promise<void> {
    const status = this.q<HTMLElement>(`orders-status-${p}`);
    status.dataset.state = "saving";
    try {
      await api.clearOrders(this.host.gameId, p);
      this.host.clearError();
      this.fill(p, {}, "cleared");
    } catch (e) {
      status.dataset.state = "error";
      this.host.showError(e);
    }
  }
}
