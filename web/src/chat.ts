// The game's chat (docs/server.md: `chat`, `chat_log`, pushed `chat`):
// the players talk, watchers read. Messages are numbered by the server; a
// message seen twice (a push and a reload after a reconnect) shows once.

import { ApiError } from "./api";
import { h, foldable } from "./dom";
import { t, errorText } from "./i18n";
import { GameSocket } from "./socket";

export interface ChatMessage {
  n: number;
  by: string;
  at: number;
  text: string;
}

export class ChatPanel {
  readonly el: HTMLDetailsElement;
  private list: HTMLOListElement;
  private input: HTMLTextAreaElement;
  private send: HTMLButtonElement;
  private problem: HTMLParagraphElement;
  private seen = new Set<number>();
  private socket: GameSocket | null = null;

  constructor() {
    this.list = h("ol", { id: "chat", class: "chat", "aria-live": "polite", "aria-relevant": "additions", tabindex: 0, "aria-label": t("chat") });
    this.input = h("textarea", { id: "chat-input", rows: 2, maxlength: 500, "aria-label": t("chatMessage"), placeholder: t("chatPlaceholder") });
    this.send = h("button", { type: "submit", id: "chat-send" }, t("chatSend"));
    this.problem = h("p", { class: "chat-problem", role: "alert", hidden: true });
    // Enter sends, Shift+Enter starts a new line.
    this.input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.shiftKey) {
        ev.preventDefault();
        void this.submit();
      }
    });
    const form = h("form", { class: "chat-form", onsubmit: (ev: Event) => { ev.preventDefault(); void this.submit(); } }, this.input, this.send, this.problem);
    this.el = foldable({ id: "chat-panel", class: "chat-panel" }, "chat-title", t("chat"), this.list, form);
  }

  /** Reads the chat (again) through `socket`: on the first hello and after each reconnect. */
  async load(socket: GameSocket, canSpeak: boolean): Promise<void> {
    this.socket = socket;
    this.input.disabled = !canSpeak;
    this.send.disabled = !canSpeak;
    this.input.placeholder = canSpeak ? t("chatPlaceholder") : t("chatWatchOnly");
    const r = await socket.request<{ messages: ChatMessage[] }>("chat_log");
    for (const m of r.messages) this.add(m);
  }

  /** A message the server pushed. */
  add(m: ChatMessage): void {
    if (typeof m.n !== "number" || this.seen.has(m.n)) return;
    this.seen.add(m.n);
    const stick = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    const when = new Date(m.at);
    const li = h(
      "li",
      { "data-n": String(m.n) },
      h("time", { datetime: when.toISOString() }, when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
      " ",
      h("b", null, m.by),
      ": ",
      h("span", { class: "chat-text" }, m.text),
    );
    // In number order, whichever arrives first.
    const after = Array.from(this.list.children).find((el) => Number((el as HTMLElement).dataset.n) > m.n);
    this.list.insertBefore(li, after ?? null);
    if (stick) this.list.scrollTop = this.list.scrollHeight;
  }

  private async submit(): Promise<void> {
    const text = this.input.value.trim();
    if (!text || !this.socket) return;
    this.send.disabled = true;
    this.problem.hidden = true;
    try {
      const m = await this.socket.request<ChatMessage>("chat", { text });
      this.add(m);
      this.input.value = "";
    } catch (e) {
      this.problem.textContent = e instanceof ApiError ? errorText(e.code, e.message, e.args) : String(e);
      this.problem.dataset.code = e instanceof ApiError ? e.code : "error";
      this.problem.hidden = false;
    } finally {
      this.send.disabled = false;
      this.input.focus();
    }
  }
}
