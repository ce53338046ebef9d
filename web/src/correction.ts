// Corrections by consent on the game page (issue 31, point 7; docs/web.md,
// "Corrections"): a seated player proposes to take the game back to before
// an entry of the log (the log's "take back to here" buttons, confirmed in
// a dialog); while the proposal is open a banner says who proposed it and
// from which entry, with "Approve" and "Decline" for a seat of the other
// side and "Withdraw" for the proposer's. Each is an action over the game's
// WebSocket: `{"type": "correction", "power", "take_back_to" | "approve" |
// "decline"}`. Where corrections stand comes with the `state` reply
// (`correction`: the open proposal, the floor, how many were approved).
// A proposal to correct the position (made elsewhere: `warboard pbem`, a
// client of the protocol) is shown with the server's description and
// answered the same way.
// Ids: #correction[data-proposal][data-take-back-to][data-by],
// #correction-approve, #correction-decline, #correction-withdraw;
// #take-back-dialog[data-take-back], #take-back-confirm, #take-back-cancel.

import { h, replace, Child } from "./dom";
import { t } from "./i18n";
import { CorrectionState } from "./types";

export interface CorrectionContext {
  correction: CorrectionState | null;
  /** The game's status (`playing`: corrections may be made). */
  status: string;
  myPowers: string[];
  teamOf(power: string): string | null;
  powerLabel(power: string): string;
  /** The first line the log shows for an entry, if it shows one. */
  entryText(seq: number): string | null;
  send(action: { type: "correction"; power: string; [key: string]: unknown }): Promise<boolean>;
}

/** Whether `a` and `b` are on one side (the same power, or one team). */
function sameSide(ctx: CorrectionContext, a: string, b: string): boolean {
  if (a === b) return true;
  const ta = ctx.teamOf(a);
  return ta !== null && ta === ctx.teamOf(b);
}

export class CorrectionPanel {
  /** The banner of an open proposal (hidden while none is open). */
  readonly el: HTMLElement;
  /** The confirmation asked before a proposal. */
  readonly dialog: HTMLDialogElement;
  private ctx: CorrectionContext | null = null;
  private busy = false;
  /** The proposal an answer was sent for: its buttons stay off until the state moves on. */
  private answered: number | null = null;
  private key = "";
  private asking: { seq: number; power: string | null; from: HTMLElement | null } | null = null;
  private readonly dialogText: HTMLParagraphElement;
  private readonly confirmBtn: HTMLButtonElement;

  constructor() {
    this.el = h("section", { id: "correction", class: "panel correction", "aria-labelledby": "correction-title", "aria-live": "polite", hidden: true });
    this.dialogText = h("p", { id: "take-back-text" });
    this.confirmBtn = h("button", { type: "button", id: "take-back-confirm", class: "primary", onclick: () => void this.confirm() }, t("takeBackPropose"));
    this.dialog = h(
      "dialog",
      { id: "take-back-dialog", class: "take-back-dialog", "aria-labelledby": "take-back-title", "aria-describedby": "take-back-text" },
      h("h2", { id: "take-back-title" }, t("takeBackTitle")),
      this.dialogText,
      h("div", { class: "buttons" }, this.confirmBtn, h("button", { type: "button", id: "take-back-cancel", onclick: () => this.dialog.close() }, t("cancel"))),
    );
    // Escape or Cancel: back to the button that asked.
    this.dialog.addEventListener("close", () => {
      const from = this.asking?.from;
      this.asking = null;
      delete this.dialog.dataset.takeBack;
      if (from?.isConnected) from.focus();
    });
  }

  /** The power the seat proposes with: the one the entry was taken by where the seat holds it, else its first. */
  private proposer(ctx: CorrectionContext, power: string | null): string | null {
    if (power && ctx.myPowers.includes(power)) return power;
    return ctx.myPowers[0] ?? null;
  }

  /** Whether the viewer may propose now: seated, the game on, no proposal open. */
  canPropose(): boolean {
    const ctx = this.ctx;
    return !!ctx && ctx.status === "playing" && ctx.myPowers.length > 0 && !!ctx.correction && ctx.correction.pending === null;
  }

  /** Asks before proposing to take the game back to before entry `seq` (the button `from` asked). */
  ask(seq: number, power: string | null, from: HTMLElement | null): void {
    if (!this.canPropose()) return;
    this.asking = { seq, power, from };
    this.dialog.dataset.takeBack = String(seq);
    const line = this.ctx!.entryText(seq);
    this.dialogText.textContent = t(line ? "takeBackConfirmLine" : "takeBackConfirm", { n: seq, line: line ?? "" });
    this.confirmBtn.disabled = false;
    if (!this.dialog.open) this.dialog.showModal();
    this.confirmBtn.focus();
  }

  private async confirm(): Promise<void> {
    const ctx = this.ctx;
    const asking = this.asking;
    if (!ctx || !asking || this.busy) return;
    const power = this.proposer(ctx, asking.power);
    if (!power) return;
    this.confirmBtn.disabled = true;
    this.dialog.close();
    await this.act({ type: "correction", power, take_back_to: asking.seq }, null);
  }

  /** Sends `action`; `answering`: the proposal it answers (null for a proposal). */
  private async act(action: { type: "correction"; power: string; [key: string]: unknown }, answering: number | null): Promise<void> {
    if (!this.ctx || this.busy) return;
    this.busy = true;
    for (const b of Array.from(this.el.querySelectorAll<HTMLButtonElement>("button"))) b.disabled = true;
    try {
      const ok = await this.ctx.send(action);
      this.answered = ok ? answering : null;
    } finally {
      this.busy = false;
      this.key = "";
      this.render(this.ctx);
    }
  }

  render(ctx: CorrectionContext): void {
    this.ctx = ctx;
    const c = ctx.correction;
    const p = c?.pending ?? null;
    if (!p || ctx.status !== "playing") {
      // A proposal made elsewhere closes the question asked here.
      if (this.dialog.open && !this.canPropose()) this.dialog.close();
      this.el.hidden = true;
      this.key = "";
      this.answered = null;
      delete this.el.dataset.proposal;
      delete this.el.dataset.takeBackTo;
      delete this.el.dataset.by;
      replace(this.el);
      return;
    }
    if (this.dialog.open) this.dialog.close();
    const back = typeof p.take_back_to === "number" ? p.take_back_to : null;
    const line = back !== null ? ctx.entryText(back) : null;
    if (this.answered !== null && this.answered !== p.proposal) this.answered = null;
    const off = this.busy || this.answered === p.proposal;
    const key = JSON.stringify([p, line, ctx.myPowers, off]);
    if (key === this.key && !this.el.hidden) return;
    this.key = key;
    const by = p.by ?? null;
    const who = by ? ctx.powerLabel(by) : "?";
    // A seat of the other side answers; the proposer's side may withdraw.
    const other = by ? ctx.myPowers.find((m) => !sameSide(ctx, m, by)) : undefined;
    const own = by ? ctx.myPowers.find((m) => sameSide(ctx, m, by)) : undefined;
    const answer = (id: string, cls: string, label: string, power: string, field: "approve" | "decline") =>
      h("button", { type: "button", id, class: cls, onclick: () => void this.act({ type: "correction", power, [field]: p.proposal }, p.proposal) }, label);
    const children: Child[] = [
      h("h2", { id: "correction-title" }, t("correctionTitle")),
      h(
        "p",
        { class: "correction-what" },
        back === null ? t("correctionProposedChange", { power: who, what: p.what ?? "?" }) : t(line ? "correctionProposedLine" : "correctionProposed", { power: who, n: back, line: line ?? "" }),
      ),
    ];
    if (other) {
      children.push(
        h("p", { class: "meta" }, t(back === null ? "correctionAskChange" : "correctionAsk")),
        h("div", { class: "buttons" }, answer("correction-approve", "primary", t("correctionApprove"), other, "approve"), answer("correction-decline", "", t("correctionDecline"), other, "decline")),
      );
    } else if (own) {
      children.push(h("p", { class: "meta" }, t("correctionWaiting")), h("div", { class: "buttons" }, answer("correction-withdraw", "", t("correctionWithdraw"), by && ctx.myPowers.includes(by) ? by : own, "decline")));
    } else {
      children.push(h("p", { class: "meta" }, t("correctionWatching")));
    }
    replace(this.el, children);
    this.el.dataset.proposal = String(p.proposal);
    if (back !== null) this.el.dataset.takeBackTo = String(back);
    else delete this.el.dataset.takeBackTo;
    this.el.dataset.by = by ?? "";
    this.el.hidden = false;
    if (off) for (const b of Array.from(this.el.querySelectorAll<HTMLButtonElement>("button"))) b.disabled = true;
  }
}
