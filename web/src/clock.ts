// A correspondence game's clock on the game page (docs/server.md,
// "Correspondence games"): whom the game waits on and until when, the
// viewer's vacation, and the claim and reclaim where they apply; and the
// clock's pushed events as lines of the log.
// Ids: #clock, #clock-waiting, #clock-deadline[data-deadline], #vacation-left,
// #vacation-days, #take-vacation, #claim-win, #reclaim-seats.

import { ClockEvent, Game } from "./api";
import { h, replace, Child } from "./dom";
import { t, currentLang, daysText } from "./i18n";

export interface ClockActions {
  vacation(days: number): Promise<void>;
  claim(): Promise<void>;
  reclaim(): Promise<void>;
}

/** A time as the viewer reads it: local date and time. */
export function localTime(ms: number): string {
  try {
    return new Date(ms).toLocaleString(currentLang(), { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return new Date(ms).toISOString();
  }
}

/** The time left until `deadline`, in days and hours (hours and minutes under a day). */
export function timeLeft(deadline: number, now = Date.now()): string {
  const ms = deadline - now;
  if (ms <= 0) return t("clockOverdue");
  const minutes = Math.floor(ms / 60000);
  const d = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  return d > 0 ? t("clockLeftDays", { d, h: hours }) : t("clockLeftHours", { h: hours, m: minutes % 60 });
}

/** Accounts with seats in the game, those the computer holds for them included. */
function accountsSeated(g: Game): Set<string> {
  const out = new Set<string>();
  for (const s of g.seats) {
    if (s.kind === "account" && s.account) out.add(s.account);
    if (s.taken_from) out.add(s.taken_from);
  }
  return out;
}

export class ClockPanel {
  readonly el: HTMLDivElement;
  private busy = false;
  private deadline: number | null = null;

  constructor(private actions: ClockActions, private powerLabel: (p: string) => string) {
    this.el = h("div", { id: "clock", hidden: true });
  }

  /** Shows `g`'s clock for the viewer `me` (null: not signed in); hidden without one. */
  render(g: Game, me: string | null): void {
    const c = g.clock;
    this.el.hidden = !c;
    this.deadline = null;
    if (!c) return;
    // What the player was typing survives a render.
    const typed = this.el.querySelector<HTMLInputElement>("#vacation-days")?.value;
    const out: Child[] = [h("p", { class: "meta", id: "clock-rule" }, t("clockRule", { move: daysText(c.move_days), vacation: daysText(c.vacation_days) }))];
    const w = c.waiting;
    if (w && g.status === "playing") {
      this.deadline = w.deadline_ms;
      const power = w.power ? this.powerLabel(w.power) : "?";
      const stage = w.stage === "half" ? t("stageHalf") : w.stage === "late" ? t("stageLate") : w.stage === "expired" ? t("stageExpired") : "";
      out.push(
        h("p", { id: "clock-waiting", "data-account": w.account ?? "", "data-power": w.power ?? "", "data-stage": w.stage, class: w.account === me ? "clock-mine" : "" }, w.account === me ? t("clockWaitingYou", { power }) : t("clockWaiting", { account: w.account ?? "?", power })),
        h(
          "p",
          { id: "clock-deadline", "data-deadline": String(w.deadline_ms), class: `clock-deadline stage-${w.stage}` },
          t("clockDeadline", { date: localTime(w.deadline_ms) }),
          " · ",
          h("span", { class: "left" }, timeLeft(w.deadline_ms)),
          stage ? ` · ${stage}` : "",
        ),
      );
      // The opponent's time ran out in a game of one account against another: the win may be claimed.
      const seated = accountsSeated(g);
      if (me && w.stage === "expired" && w.account && w.account !== me && seated.has(me) && seated.size === 2) {
        out.push(h("p", { class: "clock-claim" }, t("claimHint", { account: w.account }), " ", this.button("claim-win", t("claimWin"), () => this.actions.claim(), "primary")));
      }
    } else if (g.status === "playing") {
      out.push(h("p", { id: "clock-waiting", class: "meta", "data-account": "" }, t("clockIdle")));
    }
    if (c.taken_over.length) {
      out.push(h("ul", { class: "taken-over" }, c.taken_over.map((x) => h("li", { "data-taken": x.power }, t("takenOverLine", { power: this.powerLabel(x.power), account: x.account })))));
    }
    const mine = g.seats.filter((s) => me && s.taken_from === me).map((s) => s.power);
    if (mine.length && g.status === "playing") {
      out.push(h("p", { class: "clock-reclaim" }, t("reclaimHint", { powers: mine.map(this.powerLabel).join(", ") }), " ", this.button("reclaim-seats", t("reclaimSeats"), () => this.actions.reclaim(), "primary")));
    }
    const left = me ? c.vacation_left[me] : undefined;
    if (me && left !== undefined && c.vacation_days > 0 && g.status === "playing") {
      const banked = c.vacation_banked[me] ?? 0;
      out.push(h("p", { id: "vacation-left", "data-left": String(left) }, t("vacationLeft", { n: left }), banked ? ` (${t("vacationBanked", { n: banked })})` : ""));
      if (left > 0) {
        const days = h("input", { id: "vacation-days", type: "number", inputmode: "numeric", min: 1, max: left, step: 1, value: typed ?? "1" });
        out.push(
          h(
            "div",
            { class: "row" },
            h("label", { for: "vacation-days" }, t("vacationDaysLabel")),
            days,
            this.button("take-vacation", t("takeVacation"), () => this.actions.vacation(Math.floor(Number(days.value)) || 0)),
          ),
        );
      }
    }
    replace(this.el, out);
  }

  /** The time left, brought up to date. */
  tick(): void {
    const span = this.el.querySelector<HTMLElement>("#clock-deadline .left");
    if (span && this.deadline !== null) span.textContent = timeLeft(this.deadline);
  }

  private button(id: string, label: string, act: () => Promise<void>, cls = ""): HTMLButtonElement {
    const b = h("button", { type: "button", id, class: cls }, label);
    b.onclick = async () => {
      if (this.busy) return;
      this.busy = true;
      b.disabled = true;
      try {
        await act();
      } finally {
        this.busy = false;
        b.disabled = false;
      }
    };
    return b;
  }
}

/** A clock event as a line of the log, in the page's language. */
export function clockEventText(e: ClockEvent, powerLabel: (p: string) => string): string {
  const d = e.detail ?? {};
  const account = e.account ?? "?";
  const power = e.power ? powerLabel(e.power) : "?";
  const powers = Array.isArray(d.powers) ? (d.powers as unknown[]).map((p) => powerLabel(String(p))).join(", ") : power;
  const deadline = typeof d.deadline_ms === "number" ? localTime(d.deadline_ms) : "?";
  switch (e.kind) {
    case "reminder_half":
      return t("clockHalf", { account, power, deadline });
    case "reminder_late":
      return t("clockLate", { account, power, deadline });
    case "expired":
      return t("clockExpired", { account, power });
    case "claimed":
      return t("clockClaimed", { account, side: typeof d.side === "string" ? powerLabel(d.side) : "?" });
    case "taken_over":
      return t("clockTakenOver", { account, powers });
    case "reclaimed":
      return t("clockReclaimed", { account, powers });
    case "vacation":
      return t("clockVacation", { account, days: daysText(Number(d.days) || 0), left: Number(d.left) || 0 });
    default:
      return t("clockOther", { kind: e.kind });
  }
}
