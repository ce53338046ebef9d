// How a game's dice are made, on the game page (docs/server.md, `dice`;
// docs/pbem.md, "The server's games"): seeded by the server, or committed
// at the start (the seed's SHA-256) and revealed at the end, with the
// receipt of each entry the server pushes kept in memory per game.
// Ids: #dice-info[data-mode], #dice-commitment[data-commitment],
// #dice-seed, #receipts[data-count].

import { Game } from "./api";
import { h, replace, Child } from "./dom";
import { t } from "./i18n";

/** Receipts of proven games' entries, by game id and entry number: kept for
 * this page's life (across pages of the same tab), to be saved later. */
const kept = new Map<string, Map<number, unknown>>();

export function receiptsOf(gameId: string): Map<number, unknown> {
  let m = kept.get(gameId);
  if (!m) {
    m = new Map();
    kept.set(gameId, m);
  }
  return m;
}

export class DiceInfo {
  readonly el: HTMLDivElement;
  private game: Game | null = null;
  private count: HTMLSpanElement;

  constructor(private gameId: string) {
    this.el = h("div", { id: "dice-info" });
    this.count = h("span", { id: "receipts" });
  }

  /** An entry's receipt (from its push or a sync). */
  keep(seq: number, receipt: unknown): void {
    if (receipt === undefined || receipt === null) return;
    receiptsOf(this.gameId).set(seq, receipt);
    this.showCount();
  }

  render(g: Game): void {
    this.game = g;
    const dice = g.dice ?? { mode: "seeded" as const };
    this.el.dataset.mode = dice.mode;
    if (dice.mode === "seeded") {
      replace(this.el, h("p", { class: "meta" }, t("diceSeededLine")));
      return;
    }
    if (dice.mode === "beacon") {
      const verify = h("p", { class: "meta" }, t("diceVerify"), " ", h("a", { href: `/api/games/${encodeURIComponent(g.id)}/record`, download: `warboard-${g.id}.json`, id: "download-record" }, t("downloadRecord")));
      replace(this.el, [h("p", { id: "dice-beacon" }, t("diceBeaconLine", { scheme: dice.beacon.scheme })), verify, h("p", { class: "meta" }, this.count)]);
      this.showCount();
      return;
    }
    const out: Child[] = [h("p", { id: "dice-commitment", "data-commitment": dice.commitment, title: dice.commitment }, t("diceCommitted", { hash: dice.commitment.slice(0, 16) }))];
    if (dice.seed) {
      out.push(
        h("p", { id: "dice-seed" }, t("diceSeed", { seed: "" }), h("code", null, dice.seed)),
        h("p", { class: "meta" }, t("diceVerify"), " ", h("a", { href: `/api/games/${encodeURIComponent(g.id)}/record`, download: `warboard-${g.id}.json`, id: "download-record" }, t("downloadRecord"))),
      );
    }
    out.push(h("p", { class: "meta" }, this.count));
    replace(this.el, out);
    this.showCount();
  }

  private showCount(): void {
    if (this.game?.dice?.mode !== "server" && this.game?.dice?.mode !== "beacon") return;
    const n = receiptsOf(this.gameId).size;
    this.count.dataset.count = String(n);
    this.count.textContent = n === 1 ? t("receiptKept") : t("receiptsKept", { n });
  }
}
