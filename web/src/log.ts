// The game's log: the story lines of each entry, newest at the bottom.
// For a seated player each rules action from the corrections' floor on has
// a small "take back to here" button (`button.take-back[data-take-back]`,
// its glyph drawn by CSS so the line's text stays the story's); entries a
// correction took back are marked `li.superseded[data-superseded]`.

import { h } from "./dom";
import { t, powerName, storyText } from "./i18n";
import { Entry } from "./types";

export class GameLog {
  readonly el: HTMLOListElement;
  /** Lines a later entry joined: which entry, and the text before it did. */
  private joined: { seq: number; li: HTMLLIElement; text: string }[] = [];
  /** The rules actions shown (not the table's notes or corrections): entry → the power that took it. */
  private rules = new Map<number, string | null>();
  /** Proposed corrections seen: the proposal's entry → the entry it takes the game back to. */
  private proposals = new Map<number, number>();
  private takeBack: TakeBack | null = null;

  constructor() {
    this.el = h("ol", { id: "log", class: "log", "aria-live": "polite", "aria-relevant": "additions", tabindex: 0, "aria-label": t("log") });
  }

  private nearBottom(): boolean {
    return this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 40;
  }

  private lines(entry: Entry): HTMLLIElement[] {
    const seq = String(entry.seq);
    if (entry.sealed) {
      const text = t("sealed", { what: t("sealedPurchase"), power: powerName(entry.power ?? "?") });
      return [h("li", { "data-kind": "sealed", "data-seq": seq, class: "kind-sealed" }, text)];
    }
    const story = entry.story ?? [];
    if (story.length === 0) {
      const type = (entry.action as { type?: string } | undefined)?.type ?? "?";
      return [h("li", { "data-kind": "action", "data-seq": seq, class: "kind-action" }, `${entry.power ?? ""} ${type}`.trim())];
    }
    return story.map((line) => h("li", { "data-kind": line.kind, "data-seq": seq, class: `kind-${line.kind}` }, storyText(line)));
  }

  add(entry: Entry): void {
    const stick = this.nearBottom();
    const action = entry.sealed ? undefined : (entry.action as CorrectionAction | undefined);
    if (isRulesAction(entry)) this.rules.set(entry.seq, entry.power ?? null);
    if (action?.type === "correction" && typeof action.take_back_to === "number") this.proposals.set(entry.seq, action.take_back_to);
    const lines = this.lines(entry);
    // A first line that joins the last one shown replaces its text, as the
    // terminal joins the computer's one-unit moves; the old text is kept
    // for an undo.
    const first = entry.sealed ? undefined : entry.story?.[0];
    const last = this.el.lastElementChild as HTMLLIElement | null;
    if (first?.merge && last && last.dataset.kind === first.kind && lines.length > 0) {
      this.joined.push({ seq: entry.seq, li: last, text: last.textContent ?? "" });
      last.textContent = storyText(first);
      this.decorate(last);
      lines.shift();
    }
    for (const li of lines) this.el.appendChild(li);
    if (lines.length > 0) this.decorate(lines[0], true);
    if (action?.type === "correction" && typeof action.approve === "number") this.supersede(action.approve);
    if (stick) this.el.scrollTop = this.el.scrollHeight;
  }

  /** Marks the entries an approved correction took back. */
  private supersede(proposal: number): void {
    const from = this.proposals.get(proposal);
    if (from === undefined) return;
    for (const li of Array.from(this.el.querySelectorAll<HTMLLIElement>("li[data-seq]"))) {
      const n = Number(li.dataset.seq);
      if (n >= from && n < proposal) {
        li.classList.add("superseded");
        li.dataset.superseded = String(proposal);
      }
    }
  }

  /** The "take back to here" buttons: from entry `takeBack.from` on, or none (null). */
  setTakeBack(takeBack: TakeBack | null): void {
    if (takeBack?.from === this.takeBack?.from && (takeBack === null) === (this.takeBack === null)) {
      this.takeBack = takeBack;
      return;
    }
    this.takeBack = takeBack;
    const done = new Set<string>();
    for (const li of Array.from(this.el.querySelectorAll<HTMLLIElement>("li[data-seq]"))) {
      const seq = li.dataset.seq!;
      if (done.has(seq)) {
        li.querySelector("button.take-back")?.remove();
        continue;
      }
      done.add(seq);
      this.decorate(li, true);
    }
  }

  /** Gives an entry's first line its button, or takes it away (`first`: known to be the entry's first line). */
  private decorate(li: HTMLLIElement, first = false): void {
    const seq = Number(li.dataset.seq);
    const old = li.querySelector<HTMLButtonElement>("button.take-back");
    const tb = this.takeBack;
    if (!tb || !this.rules.has(seq) || seq < tb.from || !(first || this.el.querySelector(`li[data-seq="${li.dataset.seq}"]`) === li)) {
      old?.remove();
      return;
    }
    if (old) return;
    const label = tb.label(seq);
    const power = this.rules.get(seq) ?? null;
    const button = h("button", { type: "button", class: "take-back", "data-take-back": seq, "aria-label": label, title: label });
    button.addEventListener("click", () => this.takeBack?.ask(seq, power, button));
    // First in the line: floated right, it stays on the line's first row.
    li.prepend(button);
  }

  /** The text of an entry's first line, if the log shows it. */
  textOf(seq: number): string | null {
    const li = this.el.querySelector<HTMLLIElement>(`li[data-seq="${seq}"]`);
    return li ? (li.textContent ?? "").trim() || null : null;
  }

  /** Replaces a sealed entry's line with the entry in full. */
  reveal(entry: Entry): void {
    const old = Array.from(this.el.querySelectorAll<HTMLLIElement>(`li[data-seq="${entry.seq}"]`));
    if (old.length === 0) return;
    const fresh = this.lines(entry);
    old[0].replaceWith(...fresh);
    for (const li of old.slice(1)) li.remove();
    if (fresh.length > 0) this.decorate(fresh[0], true);
  }

  /** Drops the lines of entries from `seq` on (they were taken back). */
  undone(seq: number): void {
    for (const li of Array.from(this.el.querySelectorAll<HTMLLIElement>("li[data-seq]"))) {
      if (Number(li.dataset.seq) >= seq) li.remove();
    }
    while (this.joined.length > 0 && this.joined[this.joined.length - 1].seq >= seq) {
      const j = this.joined.pop()!;
      j.li.textContent = j.text;
      this.decorate(j.li);
    }
    for (const n of Array.from(this.rules.keys())) if (n >= seq) this.rules.delete(n);
    for (const n of Array.from(this.proposals.keys())) if (n >= seq) this.proposals.delete(n);
  }

  note(text: string, kind = "note"): void {
    const stick = this.nearBottom();
    this.el.appendChild(h("li", { "data-kind": kind, class: `kind-${kind}` }, text));
    if (stick) this.el.scrollTop = this.el.scrollHeight;
  }

  clear(): void {
    this.el.textContent = "";
    this.joined = [];
    this.rules.clear();
    this.proposals.clear();
  }
}

/** What the log's take-back buttons say and do. */
export interface TakeBack {
  /** The first entry a proposal may take back (the corrections' floor). */
  from: number;
  label(seq: number): string;
  ask(seq: number, power: string | null, button: HTMLElement): void;
}

interface CorrectionAction {
  type?: string;
  take_back_to?: unknown;
  approve?: unknown;
}

/** An entry of the rules (a sealed purchase too), not a note of the table's clock or a correction. */
function isRulesAction(entry: Entry): boolean {
  if (entry.sealed) return true;
  const type = (entry.action as { type?: unknown } | undefined)?.type;
  return typeof type === "string" && type !== "table" && type !== "correction";
}
