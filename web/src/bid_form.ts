// The new game form's sealed bid (docs/server.md, "Sealed bids"): instead
// of seats, the creator against one opponent, the sides decided by sealed
// bids under a rule (only "lower-axis" today). Ids: #create-bid (the
// choice), #create-bid-opponent, #create-bid-rule.

import { NewGame } from "./api";
import { h } from "./dom";
import { t } from "./i18n";

/** The rules a bid may be made under, with their labels. */
const RULES = [{ name: "lower-axis", label: () => t("bidRuleLowerAxis") }];

export interface BidFields {
  el: HTMLFieldSetElement;
  /** Whether the sides go by bid (the seats are then not sent). */
  chosen(): boolean;
  /** The new game's `bid`. */
  read(): NonNullable<NewGame["bid"]>;
  /** Called when the choice changes. */
  onChange: () => void;
}

export function bidFields(): BidFields {
  const choice = h("input", { type: "checkbox", id: "create-bid", "aria-describedby": "create-bid-doc", onchange: () => sync() });
  const opponent = h("input", { type: "text", id: "create-bid-opponent", placeholder: t("name"), autocapitalize: "none", spellcheck: "false", autocomplete: "off" });
  const rule = h(
    "select",
    { id: "create-bid-rule" },
    RULES.map((r, i) => h("option", { value: r.name, selected: i === 0 }, r.label())),
  );
  const details = h(
    "div",
    { class: "bid-details" },
    h("div", { class: "row" }, h("label", { for: "create-bid-opponent" }, t("bidOpponent")), opponent),
    h("div", { class: "row" }, h("label", { for: "create-bid-rule" }, t("bidRule")), rule),
    h("p", { class: "doc meta" }, t("bidRuleLowerAxisText")),
  );
  const fields: BidFields = {
    el: h(
      "fieldset",
      { class: "bid-choice" },
      h("legend", null, t("bidTitle")),
      h("div", { class: "option check" }, choice, h("label", { for: "create-bid" }, t("bidChoice")), h("p", { class: "doc", id: "create-bid-doc" }, t("bidChoiceHint"))),
      details,
    ),
    chosen: () => choice.checked,
    read: () => ({ opponent: opponent.value.trim(), rule: rule.value }),
    onChange: () => {},
  };
  const sync = () => {
    details.hidden = !choice.checked;
    fields.onChange();
  };
  details.hidden = true;
  return fields;
}
