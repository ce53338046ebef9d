// Sealed bids for sides on the game page (docs/server.md and
// docs/ladder.md, "Sealed bids"): while a bidding game's round is open the
// panel takes the place of the play controls. A bidder seals a bid (the
// page draws a nonce, computes the commitment and keeps {ipcs, nonce} in
// localStorage under the game and the account, so that a reload does not
// lose it), then reveals it once both are sealed; the reveal that completes
// the round starts the game. Nothing of the round is pushed: the panel
// polls `GET /api/games/{id}/bid` while the round is open.
//
// Ids: #bid[data-stage] (sealing, revealing, settled), #bid-rule,
// #bid-bidders li[data-bidder][data-sealed][data-ipcs], #bid-ipcs,
// #bid-seal, #bid-reveal, #bid-kept, #bid-mine[data-ipcs], #bid-lost,
// #bid-waiting, #bid-result[data-axis][data-allies][data-ipcs][data-tie].

import { api, ApiError, BidRound, Game } from "./api";
import { h, replace, Child } from "./dom";
import { t } from "./i18n";

/** The largest bid the server takes (src/bids.rs, `MAX_BID_IPCS`). */
export const MAX_BID = 1000;

/** How often the open round is read again (ms). */
const POLL_MS = 3000;

// ---- the commitment ----

const TAG = "warboard/bid/v1";

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The 32-byte nonce of a new bid, as 64 hex digits. */
export function freshNonce(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

/** The bytes a commitment hashes: "warboard/bid/v1" ‖ var(game) ‖ var(player) ‖ u32_be(ipcs) ‖ nonce,
 * `var(x)` being u32_be(byte length of x) ‖ x (docs/ladder.md, "The commitment"). */
export function commitmentBytes(game: string, player: string, ipcs: number, nonce: string): Uint8Array<ArrayBuffer> {
  const enc = new TextEncoder();
  const [tag, g, p, n] = [enc.encode(TAG), enc.encode(game), enc.encode(player), fromHex(nonce)];
  const out = new Uint8Array(tag.length + 4 + g.length + 4 + p.length + 4 + n.length);
  const view = new DataView(out.buffer);
  let at = 0;
  const put = (bytes: Uint8Array) => {
    out.set(bytes, at);
    at += bytes.length;
  };
  const u32 = (x: number) => {
    view.setUint32(at, x >>> 0, false);
    at += 4;
  };
  put(tag);
  u32(g.length);
  put(g);
  u32(p.length);
  put(p);
  u32(ipcs);
  put(n);
  return out;
}

/** The commitment to `ipcs` with `nonce` (hex), as 64 hex digits. */
export async function bidCommitment(game: string, player: string, ipcs: number, nonce: string): Promise<string> {
  const bytes = commitmentBytes(game, player, ipcs, nonce);
  // WebCrypto exists only on secure pages (HTTPS, or the loopback
  // address): a club serving warboard over plain HTTP gets a clear refusal
  // rather than a hash function of our own.
  if (!globalThis.crypto?.subtle) throw new ApiError("bid/insecure-page", t("bidInsecurePage"));
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

// ---- what this browser keeps ----

/** A sealed bid as this browser keeps it until it is revealed. */
export interface KeptBid {
  ipcs: number;
  nonce: string;
}

/** The localStorage key of `account`'s bid in game `game`. */
export function keptKey(game: string, account: string): string {
  return `warboard-bid/${game}/${account}`;
}

function readKept(game: string, account: string): KeptBid | null {
  try {
    const raw = localStorage.getItem(keptKey(game, account));
    const v = raw ? (JSON.parse(raw) as Partial<KeptBid>) : null;
    if (v && Number.isInteger(v.ipcs) && typeof v.nonce === "string" && /^[0-9a-fA-F]{64}$/.test(v.nonce)) return { ipcs: v.ipcs as number, nonce: v.nonce };
  } catch {
    /* storage blocked, or not ours */
  }
  return null;
}

function writeKept(game: string, account: string, bid: KeptBid | null): void {
  try {
    if (bid) localStorage.setItem(keptKey(game, account), JSON.stringify(bid));
    else localStorage.removeItem(keptKey(game, account));
  } catch {
    /* storage blocked: the bid lives as long as the page */
  }
}

// ---- the panel ----

export interface BidHost {
  gameId: string;
  /** The signed-in account's name, or null. */
  me(): string | null;
  showError(err: unknown): void;
  clearError(): void;
  /** The panel's work in flight changed (for the page's readiness). */
  changed(): void;
  /** The round settled while the page was open: the game has started. */
  settled(): void;
}

export class BidPanel {
  readonly el: HTMLElement;
  /** A seal or reveal in flight (its buttons wait). */
  private acting: "seal" | "reveal" | null = null;
  /** The round being read. */
  private reading = false;
  private round: BidRound | null = null;
  private shownKey = "";
  private timer: number | undefined;
  private alive = true;
  private watching = false;
  /** Kept across renders, so that a poll does not undo what is being typed. */
  private readonly ipcsInput: HTMLInputElement;
  private readonly body: HTMLDivElement;
  /** A bid kept in memory when storage is blocked. */
  private memory: KeptBid | null = null;

  constructor(private host: BidHost) {
    this.ipcsInput = h("input", { id: "bid-ipcs", type: "number", inputmode: "numeric", min: 0, max: MAX_BID, step: 1, value: "0" });
    this.body = h("div", { class: "bid-body" });
    this.el = h("section", { id: "bid", class: "panel bid", "aria-labelledby": "bid-title", hidden: true }, h("h2", { id: "bid-title" }, t("bidTitle")), this.body);
  }

  /** The game as read: a game with a bid shows the panel, and while its round is open the panel reads it every few seconds. */
  show(game: Game): void {
    if (!game.bid || this.watching) return;
    this.watching = true;
    this.el.hidden = false;
    void this.load();
  }

  /** Work in flight: a seal, a reveal, or a read of the round. */
  get busy(): boolean {
    return this.acting !== null || this.reading;
  }

  /** Whether the round is open (the play controls wait). */
  get open(): boolean {
    return this.watching && this.round?.stage !== "settled";
  }

  stop(): void {
    this.alive = false;
    window.clearTimeout(this.timer);
  }

  private async load(): Promise<void> {
    this.reading = true;
    this.host.changed();
    try {
      const round = await api.bid(this.host.gameId);
      if (this.alive) this.take(round);
    } catch (e) {
      // A failed read is tried again at the next poll.
      if (this.alive && !(e instanceof ApiError && e.code === "network/failed")) this.host.showError(e);
    } finally {
      this.reading = false;
      this.host.changed();
      this.poll();
    }
  }

  private poll(): void {
    window.clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.alive || this.round?.stage === "settled") return;
    this.timer = window.setTimeout(() => void this.load(), POLL_MS);
  }

  private setActing(acting: "seal" | "reveal" | null): void {
    this.acting = acting;
    this.el.classList.toggle("busy", acting !== null);
    this.host.changed();
  }

  /** The bidder's name as the server spells it, where the account is one. */
  private myName(): string | null {
    const me = this.host.me()?.toLowerCase();
    return this.round?.bidders.find((b) => b.account.toLowerCase() === me)?.account ?? null;
  }

  private kept(name: string): KeptBid | null {
    return readKept(this.host.gameId, name) ?? this.memory;
  }

  private keep(name: string, bid: KeptBid | null): void {
    this.memory = bid;
    writeKept(this.host.gameId, name, bid);
  }

  private take(round: BidRound): void {
    const before = this.round?.stage;
    this.round = round;
    const name = this.myName();
    // Revealed: the server has it now; this browser keeps it no longer.
    if (name && round.bidders.find((b) => b.account === name)?.ipcs != null) this.keep(name, null);
    this.render();
    if (round.stage === "settled") {
      window.clearTimeout(this.timer);
      this.timer = undefined;
      if (before !== undefined && before !== "settled") this.host.settled();
    }
  }

  private render(): void {
    const r = this.round;
    if (!r) return;
    const name = this.myName();
    const kept = name ? this.kept(name) : null;
    const key = JSON.stringify([r, kept, this.acting]);
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.el.dataset.stage = r.stage;
    const parts: Child[] = [h("p", { id: "bid-rule" }, r.rule === "lower-axis" ? t("bidRuleLowerAxisText") : t("bidRuleOther", { rule: r.rule ?? "" }))];
    parts.push(
      h(
        "ul",
        { id: "bid-bidders" },
        r.bidders.map((b) =>
          h(
            "li",
            { "data-bidder": b.account, "data-sealed": b.commitment ? "1" : "0", "data-ipcs": b.ipcs ?? undefined },
            h("span", { class: "who" }, b.account),
            ": ",
            b.ipcs != null ? t("bidderRevealed", { n: b.ipcs }) : b.commitment ? t("bidderSealed") : t("bidderNotSealed"),
          ),
        ),
      ),
    );
    if (r.settled) {
      const s = r.settled;
      parts.push(
        h(
          "p",
          { id: "bid-result", class: "bid-result", "data-axis": s.axis, "data-allies": s.allies, "data-ipcs": s.ipcs, "data-tie": s.tie ? "1" : "0" },
          t("bidSettled", { axis: s.axis, allies: s.allies, n: s.ipcs }),
          s.tie ? ` ${t("bidTie")}` : "",
        ),
      );
    } else {
      parts.push(h("p", { class: "meta" }, r.stage === "revealing" ? t("bidStageRevealing") : t("bidStageSealing")));
      if (name) parts.push(this.controls(r, name, kept));
    }
    replace(this.body, parts);
  }

  /** What the bidder can do: seal (again, until any bid is revealed), reveal once both are sealed. */
  private controls(r: BidRound, name: string, kept: KeptBid | null): Child {
    const mine = r.bidders.find((b) => b.account === name)!;
    const other = r.bidders.find((b) => b.account !== name);
    const anyRevealed = r.bidders.some((b) => b.ipcs != null);
    const out: Child[] = [];
    if (mine.ipcs != null) {
      if (other && other.ipcs == null) out.push(h("p", { id: "bid-waiting" }, t("bidWaitingReveal", { name: other.account })));
      return out;
    }
    if (mine.commitment && kept) {
      out.push(h("p", { id: "bid-mine", "data-ipcs": kept.ipcs }, t("bidSealedMine", { n: kept.ipcs }), anyRevealed ? "" : ` ${t("bidSealAgainHint")}`));
    } else if (mine.commitment) {
      out.push(h("p", { id: "bid-lost", class: "warn" }, t("bidLost"), anyRevealed ? "" : ` ${t("bidLostSealAgain")}`));
    }
    if (r.stage === "revealing" && kept && mine.commitment) {
      out.push(
        h(
          "div",
          { class: "buttons" },
          h("button", { type: "button", id: "bid-reveal", class: "primary", disabled: this.acting !== null, onclick: () => void this.reveal(name) }, this.acting === "reveal" ? t("bidRevealing") : t("bidReveal", { n: kept.ipcs })),
        ),
      );
    }
    if (!anyRevealed) {
      if (kept && !this.ipcsInput.matches(":focus")) this.ipcsInput.value = String(kept.ipcs);
      this.ipcsInput.disabled = this.acting !== null;
      const sealClass = r.stage === "revealing" && kept ? "" : "primary";
      out.push(
        h(
          "form",
          {
            class: "bid-seal",
            onsubmit: (e: Event) => {
              e.preventDefault();
              void this.seal(name);
            },
          },
          h("div", { class: "row" }, h("label", { for: "bid-ipcs" }, t("bidMine")), this.ipcsInput),
          h("div", { class: "buttons" }, h("button", { type: "submit", id: "bid-seal", class: sealClass, disabled: this.acting !== null }, this.acting === "seal" ? t("bidSealing") : mine.commitment ? t("bidSealAgain") : t("bidSeal"))),
        ),
      );
      out.push(h("p", { id: "bid-kept", class: "hint" }, t("bidKept")));
    }
    return out;
  }

  private async seal(name: string): Promise<void> {
    const ipcs = Number(this.ipcsInput.value.trim());
    if (this.ipcsInput.value.trim() === "" || !Number.isInteger(ipcs) || ipcs < 0 || ipcs > MAX_BID) {
      this.host.showError(new ApiError("bid/bad-ipcs", t("bidBadIpcs")));
      this.ipcsInput.focus();
      return;
    }
    const before = this.kept(name);
    const bid = { ipcs, nonce: freshNonce() };
    this.setActing("seal");
    this.render();
    try {
      const commitment = await bidCommitment(this.host.gameId, name, bid.ipcs, bid.nonce);
      // Kept before it is sent: a seal the server took must never be lost here.
      this.keep(name, bid);
      try {
        const r = await api.sealBid(this.host.gameId, commitment);
        if (!this.alive) return;
        this.host.clearError();
        this.setActing(null);
        this.take(r.bid);
      } catch (e) {
        // Refused: the seal before (if any) still stands. Unanswered: the
        // server may have taken it, so the new bid is kept.
        if (e instanceof ApiError && e.status !== 0) this.keep(name, before);
        throw e;
      }
    } catch (e) {
      this.host.showError(e);
    } finally {
      if (this.acting) this.setActing(null);
      this.render();
    }
  }

  private async reveal(name: string): Promise<void> {
    const kept = this.kept(name);
    if (!kept) return;
    this.setActing("reveal");
    this.render();
    try {
      const r = await api.revealBid(this.host.gameId, kept.ipcs, kept.nonce);
      if (!this.alive) return;
      this.host.clearError();
      this.setActing(null);
      this.take(r.bid);
    } catch (e) {
      this.host.showError(e);
      // Revealed already, or the round moved on: read it again.
      if (e instanceof ApiError && e.code === "bid/revealed-twice") void this.load();
    } finally {
      if (this.acting) this.setActing(null);
      this.render();
    }
  }
}
