// The game's log: the story lines of each entry, newest at the bottom.

import { h } from "./dom";
import { t, powerName, storyText } from "./i18n";
import { Entry } from "./types";

export class GameLog {
  readonly el: HTMLOListElement;
  /** Lines a later entry joined: which entry, and the text before it did. */
  private joined: { seq: number; li: HTMLLIElement; text: string }[] = [];

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
    const lines = this.lines(entry);
    // A first line that joins the last one shown replaces its text, as the
    // terminal joins the computer's one-unit moves; the old text is kept
    // for an undo.
    const first = entry.sealed ? undefined : entry.story?.[0];
    const last = this.el.lastElementChild as HTMLLIElement | null;
    if (first?.merge && last && last.dataset.kind === first.kind && lines.length > 0) {
      this.joined.push({ seq: entry.seq, li: last, text: last.textContent ?? "" });
      last.textContent = storyText(first);
      lines.shift();
    }
    for (const li of lines) this.el.appendChild(li);
    if (stick) this.el.scrollTop = this.el.scrollHeight;
  }

  /** Replaces a sealed entry's line with the entry in full. */
  reveal(entry: Entry): void {
    const old = Array.from(this.el.querySelectorAll<HTMLLIElement>(`li[data-seq="${entry.seq}"]`));
    if (old.length === 0) return;
    const fresh = this.lines(entry);
    old[0].replaceWith(...fresh);
    for (const li of old.slice(1)) li.remove();
  }

  /** Drops the lines of entries from `seq` on (they were taken back). */
  undone(seq: number): void {
    for (const li of Array.from(this.el.querySelectorAll<HTMLLIElement>("li[data-seq]"))) {
      if (Number(li.dataset.seq) >= seq) li.remove();
    }
    while (this.joined.length > 0 && this.joined[this.joined.length - 1].seq >= seq) {
      const j = this.joined.pop()!;
      j.li.textContent = j.text;
    }
  }

  note(text: string, kind = "note"): void {
    const stick = this.nearBottom();
    this.el.appendChild(h("li", { "data-kind": kind, class: `kind-${kind}` }, text));
    if (stick) this.el.scrollTop = this.el.scrollHeight;
  }

  clear(): void {
    this.el.textContent = "";
    this.joined = [];
  }
}
