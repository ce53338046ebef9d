// The calculator as a page: exact odds of a battle in any ruleset, written
// as `warboard calc` takes it ("3 inf 2 arm vs 4 inf"). The server computes
// them (crate warboard-calc); nothing of the rules is here.

import { api, CalcResult } from "../api";
import { App, Cleanup } from "../app";
import { h, replace, setReady } from "../dom";
import { optionLabel, percent, t } from "../i18n";

function army(a: Record<string, number>): string {
  return Object.entries(a).map(([k, n]) => `${n} ${k}`).join(", ") || "—";
}

export function calcPage(app: App): Cleanup {
  const ruleset = h("select", { id: "calc-ruleset" });
  const battle = h("input", { id: "calc-battle", type: "text", value: "3 inf 2 arm vs 4 inf", size: 40, spellcheck: "false", autocomplete: "off" });
  const amphibious = h("input", { id: "calc-amphibious", type: "checkbox" });
  const lowLuck = h("input", { id: "calc-low-luck", type: "checkbox" });
  const result = h("div", { id: "calc-result", "aria-live": "polite" });
  let busy = false;
  const run = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    setReady(false);
    try {
      const r: CalcResult = await api.calc(ruleset.value, battle.value, amphibious.checked, lowLuck.checked);
      app.clearError();
      replace(
        result,
        h(
          "table",
          { class: "calc" },
          h("tr", null, h("th", null, t("calcAttackers")), h("td", null, army(r.attackers))),
          h("tr", null, h("th", null, t("calcDefenders")), h("td", null, army(r.defenders))),
          h("tr", null, h("th", null, t("calcAttackerWins")), h("td", { "data-field": "attacker_wins", "data-value": String(r.attacker_wins) }, percent(r.attacker_wins))),
          h("tr", null, h("th", null, t("calcDefenderWins")), h("td", { "data-field": "defender_wins", "data-value": String(r.defender_wins) }, percent(r.defender_wins))),
          h("tr", null, h("th", null, t("calcDraw")), h("td", { "data-field": "draw", "data-value": String(r.draw) }, percent(r.draw))),
        ),
        h("p", { class: "hint" }, t("calcMethod", { method: r.method })),
      );
    } catch (e) {
      replace(result);
      app.showError(e);
    } finally {
      busy = false;
      setReady(true);
    }
  };
  const form = h(
    "form",
    { class: "calc-form", onsubmit: (e: Event) => { e.preventDefault(); void run(); } },
    h("div", { class: "row" }, h("label", { for: "calc-ruleset" }, t("ruleset")), ruleset),
    h("div", { class: "row" }, h("label", { for: "calc-battle" }, t("calcBattle")), battle),
    h("p", { class: "hint" }, t("calcHint")),
    h("div", { class: "row check" }, amphibious, h("label", { for: "calc-amphibious" }, t("calcAmphibious"))),
    h("div", { class: "row check" }, lowLuck, h("label", { for: "calc-low-luck" }, optionLabel("low_luck"))),
    h("button", { type: "submit", id: "calc-submit", class: "primary" }, t("calcRun")),
  );
  replace(app.main, h("section", { class: "page calc-page", id: "calc" }, h("h1", null, t("calcTitle")), form, result));
  let alive = true;
  void api.rulesets().then((all) => {
    if (!alive) return;
    replace(ruleset, ...all.map((r) => h("option", { value: r.name }, r.title)));
    setReady(true);
  }).catch((e) => app.showError(e));
  return () => {
    alive = false;
  };
}
