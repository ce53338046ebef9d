// The new game form's correspondence part (docs/server.md, "Correspondence
// games" and `dice`): a time per move, vacation days, and how the dice are
// made. Ids: #create-move-days, #create-vacation-days, #create-dice.

import { NewGame } from "./api";
import { h } from "./dom";
import { t, daysText } from "./i18n";

const MOVE_DAYS = [1, 2, 3, 5, 7, 10, 14];

export interface CorrespondenceFields {
  el: HTMLFieldSetElement;
  /** What the form adds to the new game: only what differs from a live game. */
  read(): Pick<NewGame, "move_days" | "vacation_days" | "dice">;
}

export function correspondenceFields(): CorrespondenceFields {
  const move = h(
    "select",
    { id: "create-move-days", onchange: () => sync() },
    h("option", { value: "" }, t("moveDaysNone")),
    MOVE_DAYS.map((n) => h("option", { value: String(n) }, daysText(n))),
  );
  const vacation = h("input", { id: "create-vacation-days", type: "number", inputmode: "numeric", min: 0, max: 60, step: 1, value: "0", "aria-describedby": "create-vacation-doc" });
  const dice = h(
    "select",
    { id: "create-dice", "aria-describedby": "create-dice-doc" },
    h("option", { value: "seeded", selected: true }, t("diceSeeded")),
    h("option", { value: "server" }, t("diceServer")),
    h("option", { value: "beacon" }, t("diceBeacon")),
  );
  const sync = () => {
    vacation.disabled = move.value === "";
  };
  sync();
  const el = h(
    "fieldset",
    { class: "correspondence" },
    h("legend", null, t("correspondence")),
    h("div", { class: "row" }, h("label", { for: "create-move-days" }, t("moveDays")), move),
    h("div", { class: "row" }, h("label", { for: "create-vacation-days" }, t("vacationDays")), vacation),
    h("p", { class: "doc meta", id: "create-vacation-doc" }, t("vacationDaysHint")),
    h("div", { class: "row" }, h("label", { for: "create-dice" }, t("dice")), dice),
    h("p", { class: "doc meta", id: "create-dice-doc" }, t("diceServerHint"), " ", t("diceBeaconHint")),
  );
  return {
    el,
    read() {
      const out: Pick<NewGame, "move_days" | "vacation_days" | "dice"> = {};
      if (move.value !== "") {
        out.move_days = Number(move.value);
        const v = Math.floor(Number(vacation.value));
        // Out of range goes to the server as written: its refusal names the rule.
        if (Number.isFinite(v) && v !== 0) out.vacation_days = v;
      }
      if (dice.value === "server" || dice.value === "beacon") out.dice = dice.value;
      return out;
    },
  };
}
