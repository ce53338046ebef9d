// The game's WebSocket (docs/server.md, "Play over WebSocket"): requests
// with ids answered by one ok/error, pushes handed on, and reconnecting
// with backoff. After a reconnect the page syncs from the last entry it saw
// (onHello), and an `apply` that was in flight is sent again with the same
// `client_id`, which the server answers as `repeated` if it took it already.

import { ApiError } from "./api";

export type ConnState = "connecting" | "open" | "closed";

export interface Hello {
  reply: "hello";
  protocol: number;
  game: string;
  seq: number;
  powers: string[];
  status: string;
}

export interface Push {
  reply: string;
  [key: string]: unknown;
}

export interface SocketHandlers {
  onState(state: ConnState): void;
  /** The server said hello: first connection (`again` false) or a reconnect. */
  onHello(hello: Hello, again: boolean): void;
  onPush(push: Push): void;
}

interface Pending {
  msg: Record<string, unknown>;
  resolve(result: unknown): void;
  reject(err: ApiError): void;
  /** Sent again after a reconnect instead of failing (apply with a client_id). */
  resend: boolean;
  sent: boolean;
}

function newClientId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class GameSocket {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private helloSeen = false;
  private everOpen = false;
  private stopped = false;
  private retries = 0;
  private timer: number | undefined;
  state: ConnState = "connecting";

  constructor(private url: string, private handlers: SocketHandlers) {
    this.connect();
  }

  static urlFor(gameId: string): string {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/api/games/${encodeURIComponent(gameId)}/ws`;
  }

  private setState(s: ConnState): void {
    this.state = s;
    this.handlers.onState(s);
  }

  private connect(): void {
    if (this.stopped) return;
    this.setState("connecting");
    this.helloSeen = false;
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onmessage = (ev) => this.onMessage(ev.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPending();
      this.setState("closed");
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = Math.min(10000, 500 * 2 ** Math.min(this.retries, 5));
    this.retries += 1;
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.connect(), delay);
  }

  /** Connect again now (the "reconnect" button). */
  reconnectNow(): void {
    if (this.ws || this.stopped) return;
    window.clearTimeout(this.timer);
    this.retries = 0;
    this.connect();
  }

  private failPending(): void {
    for (const [id, p] of this.pending) {
      if (p.resend) {
        p.sent = false;
      } else {
        this.pending.delete(id);
        p.reject(new ApiError("socket/closed", "the connection was lost before the server answered"));
      }
    }
  }

  private onMessage(data: unknown): void {
    if (typeof data !== "string") return;
    let msg: Push;
    try {
      msg = JSON.parse(data) as Push;
    } catch {
      return;
    }
    if (msg.reply === "hello") {
      this.helloSeen = true;
      this.retries = 0;
      const again = this.everOpen;
      this.everOpen = true;
      this.setState("open");
      this.handlers.onHello(msg as unknown as Hello, again);
      this.flush();
      return;
    }
    if ((msg.reply === "ok" || msg.reply === "error") && typeof msg.id === "number" && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id)!;
      this.pending.delete(msg.id);
      if (msg.reply === "ok") p.resolve(msg.result);
      else p.reject(new ApiError(String(msg.code ?? "error"), String(msg.message ?? ""), 0, msg.args as Record<string, unknown> | undefined));
      return;
    }
    this.handlers.onPush(msg);
  }

  private flush(): void {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.helloSeen) return;
    for (const [id, p] of this.pending) {
      if (!p.sent) {
        p.sent = true;
        this.ws.send(JSON.stringify({ ...p.msg, id }));
      }
    }
  }

  /** Sends a command; resolves with its `result` or rejects with its error. */
  request<T = unknown>(cmd: string, fields: Record<string, unknown> = {}, resend = false): Promise<T> {
    if (this.stopped) return Promise.reject(new ApiError("socket/closed", "the connection is closed"));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { msg: { cmd, ...fields }, resolve: resolve as (r: unknown) => void, reject, resend, sent: false });
      this.flush();
    });
  }

  /** Applies an action, once: a resend after a lost connection carries the same client_id. */
  apply(action: unknown, seq?: number): Promise<{ seq: number; repeated: boolean }> {
    const fields: Record<string, unknown> = { action, client_id: newClientId() };
    if (seq !== undefined) fields.seq = seq;
    return this.request("apply", fields, true);
  }

  close(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    for (const p of this.pending.values()) p.reject(new ApiError("socket/closed", "the connection is closed"));
    this.pending.clear();
    if (ws) ws.close(1000);
  }
}
