// The game page: the board, where the game stands, the decision panel and
// the log, kept up to date over the game's WebSocket.

import { api, ApiError, ClockEvent, Game, RulesetInfo } from "../api";
import { App, Cleanup } from "../app";
import { BoardView, powerColours } from "../board";
import { DecisionPanel, Action, MoveOdds } from "../decisions";
import { h, replace, setReady, foldable, Child } from "../dom";
import { t, powerName, phaseName, unitName, word } from "../i18n";
import { ChatPanel, ChatMessage } from "../chat";
import { incomeChart } from "../chart";
import { GameLog } from "../log";
import { CorrectionPanel } from "../correction";
import { ConnState, GameSocket, Hello, Push } from "../socket";
import { ClockPanel, clockEventText } from "../clock";
import { DiceInfo } from "../proven";
import { OrdersPanel } from "../orders";
import { BidPanel } from "../bid";
import { CorrectionState, Entry, LegalItem, LegalPage, Position, StateResult, Summary, UnitView, allUnits, winnerText } from "../types";

/** A small square in a power's colour (set through the CSSOM: no style attributes). */
function swatch(power: string): HTMLSpanElement {
  const el = h("span", { class: "swatch", "aria-hidden": "true" });
  el.style.background = powerColours(power)[0];
  return el;
}

export function gamePage(app: App, id: string): Cleanup {
  let alive = true;
  let game: Game | null = null;
  let ruleset: RulesetInfo | null = null;
  let board: BoardView | null = null;
  let socket: GameSocket | null = null;
  let myPowers: string[] = [];
  let status = "playing";
  let summary: Summary | null = null;
  // The log's length at the last `state` (the reply's `seq`): what an action
  // or an undo is made against. The summary's `seq` counts the rules' steps
  // only: the table's entries (clock notes, corrections) are not among them,
  // and an approved correction takes it back.
  let count: number | undefined;
  let position: Position | null = null;
  let items: LegalItem[] = [];
  let seen = 0; // entries seen
  let expected = 0; // entries an accepted action of ours promises
  let endPhaseLoses: string | null = null; // what ending the phase now would lose
  let lastDice: Rolled[] = []; // the dice of the last entry that rolled
  let selectedSpace: string | null = null;
  let correction: CorrectionState | null = null; // where corrections by consent stand (the last `state`)
  let pollTimer: number | undefined;

  const log = new GameLog();
  const chat = new ChatPanel();
  const incomeBody = h("div", { class: "income-body" });
  const incomePanel = foldable({ id: "income-panel" }, "income-chart-title", t("incomeChart"), incomeBody);
  let incomeTimer: number | undefined;
  const decisions = new DecisionPanel();
  const corrections = new CorrectionPanel();
  // Correspondence play: the clock, the dice and standing orders.
  const me = () => app.account?.name ?? null;
  const clockPanel = new ClockPanel({ vacation: (days) => clockAction(() => api.vacation(id, days)), claim: () => clockAction(() => api.claim(id)), reclaim: () => clockAction(() => api.reclaim(id)) }, (p) => powerLabel(p));
  const diceInfo = new DiceInfo(id);
  const infoEl = h("section", { id: "game-info", class: "panel", "aria-labelledby": "game-info-title", hidden: true }, h("h2", { id: "game-info-title" }, t("clockAndDice")), clockPanel.el, diceInfo.el);
  const orders = new OrdersPanel({
    gameId: id,
    powerLabel: (p) => powerLabel(p),
    unitTypes: () => (position ? Array.from(new Set(allUnits(position).map((u) => u.type))).filter((u) => u !== "industrial_complex") : []),
    showError: (e) => app.showError(e),
    clearError: () => app.clearError(),
  });
  // Sides by sealed bid: while the round is open the panel takes the play controls' place.
  const bidPanel = new BidPanel({
    gameId: id,
    me,
    showError: (e) => app.showError(e),
    clearError: () => app.clearError(),
    changed: () => settle(),
    // The last reveal started the game: read it (a reconnect with the seats now held).
    settled: () => void reloadGame(false),
  });
  /** Clock events pushed while the page was open, each with the entry count it came after (shown again after a rebuild of the log). */
  const clockLines: { n: number; after: number; text: string }[] = [];
  let infoTimer: number | undefined;
  const statusEl = h("span", { id: "status", "data-state": "connecting", role: "status" }, t("connConnecting"));
  const reconnectBtn = h("button", { type: "button", id: "reconnect", hidden: true, onclick: () => socket?.reconnectNow() }, t("reconnect"));
  const field = (name: string) => h("dd", { "data-field": name });
  const fields = { round: field("round"), turn: field("turn"), phase: field("phase"), actor: field("actor") };
  const summaryExtra = h("div", { class: "summary-extra" });
  const summaryEl = h(
    "section",
    { id: "summary", class: "panel", "aria-labelledby": "summary-title" },
    h("h2", { id: "summary-title" }, t("summary")),
    h("dl", { class: "facts" }, h("dt", null, t("round")), fields.round, h("dt", null, t("turn")), fields.turn, h("dt", null, t("phase")), fields.phase, h("dt", null, t("actor")), fields.actor),
    summaryExtra,
  );
  const spaceEl = h("section", { id: "space-info", class: "panel", "aria-labelledby": "space-title", hidden: true });
  const boardPane = h("div", { class: "board-pane" }, h("p", { class: "hint" }, t("loading")));
  const title = h("h1", null, t("gameTitle", { id: id.slice(0, 8) }));
  const root = h(
    "div",
    { id: "game", class: "game", "data-game": id, "data-seq": "0" },
    h(
      "div",
      { class: "game-head" },
      h("a", { href: "/lobby", class: "back" }, t("backToLobby")),
      title,
      h("a", { href: `/game/${encodeURIComponent(id)}/replay`, id: "replay-link" }, t("replayLink")),
      h("span", { class: "conn" }, `${t("connection")}: `, statusEl, " ", reconnectBtn),
    ),
    h(
      "div",
      { class: "game-body" },
      boardPane,
      h("aside", { class: "side" }, corrections.el, bidPanel.el, summaryEl, infoEl, decisions.el, orders.el, spaceEl, foldable({ id: "log-panel", class: "log-panel" }, "log-title", t("log"), log.el), incomePanel, chat.el),
    ),
    corrections.dialog,
  );
  replace(app.main, root);
  setReady(false);

  const powerLabel = (p: string) => powerName(p, ruleset?.powers.find((x) => x.id === p)?.name);
  const spaceLabel = (s: string) => (board ? board.spaceName(s) : s);
  const teamOf = (p: string): string | null => {
    const teams = game?.options?.teams;
    if (teams && typeof teams === "object" && !Array.isArray(teams)) {
      for (const [team, members] of Object.entries(teams as Record<string, unknown>)) if (Array.isArray(members) && members.includes(p)) return team;
    }
    return ruleset?.powers.find((x) => x.id === p)?.team ?? null;
  };

  // ---- readiness for the tests: settled when nothing is in flight ----

  let refreshing = false;
  let dirty = false;
  let refreshTimer: number | undefined;
  let syncing = false;
  let syncAgain = false;

  function settle(): void {
    root.dataset.seq = String(seen);
    setReady(!refreshing && !syncing && refreshTimer === undefined && seen >= expected && summary !== null && !bidPanel.busy);
  }

  // ---- the socket ----

  function onState(s: ConnState): void {
    statusEl.dataset.state = s;
    statusEl.textContent = s === "open" ? t("connOpen") : s === "connecting" ? t("connConnecting") : t("connClosed");
    reconnectBtn.hidden = s !== "closed";
  }

  function onHello(hello: Hello, again: boolean): void {
    myPowers = hello.powers ?? [];
    status = hello.status;
    if (!again) {
      log.clear();
      seen = 0;
      clockNotes();
    }
    void sync();
    scheduleRefresh(0);
    scheduleIncome();
    if (socket) chat.load(socket, myPowers.length > 0).catch((e) => {
      if (!(e instanceof ApiError && e.code === "socket/closed")) app.showError(e);
    });
  }

  function onPush(msg: Push): void {
    switch (msg.reply) {
      case "entry": {
        entry(msg as unknown as Entry);
        // The entry of the player's own action: read the game at once; the
        // computer's bursts of entries are read together a moment later.
        const own = msg.by === "player" && seen >= expected && expected > 0;
        scheduleRefresh(own ? 0 : 40);
        break;
      }
      case "revealed":
        for (const e of (msg.entries as Entry[] | undefined) ?? []) log.reveal(e);
        scheduleRefresh();
        break;
      case "undone": {
        const n = Number(msg.seq);
        if (Number.isFinite(n) && n < seen) {
          seen = n;
          log.undone(n);
        }
        expected = Math.min(expected, seen);
        scheduleRefresh();
        break;
      }
      case "chat":
        chat.add(msg as unknown as ChatMessage);
        break;
      case "clock":
        clockEvent(msg as unknown as ClockEvent);
        break;
      case "resync":
        void sync();
        scheduleRefresh();
        break;
      default:
        break;
    }
  }

  /** One entry, from a push or a sync: taken in order, a gap asks for a sync. */
  function entry(e: Entry): void {
    if (typeof e.seq !== "number" || e.seq < seen) return;
    if (e.seq > seen) {
      void sync();
      return;
    }
    log.add(e);
    seen = e.seq + 1;
    root.dataset.seq = String(seen);
    clockNotes();
    if (e.receipt !== undefined) diceInfo.keep(e.seq, e.receipt);
    // The clock's wait follows the game; a proven game's seed shows at its end.
    if (game?.clock || (game?.dice?.mode === "server" && e.next === null)) scheduleInfo();
    // The last dice rolled, for the dice panel (issue 30: the last battle's dice).
    const rolls = (e.events ?? []).filter((ev): ev is Rolled => typeof ev === "object" && ev !== null && (ev as Rolled).event === "rolled");
    if (rolls.length) {
      lastDice = rolls;
      if (summary) render();
    }
    if ((e.events ?? []).some((ev) => typeof ev === "object" && ev !== null && (ev as { event?: string }).event === "income")) scheduleIncome();
    const act = e.sealed ? undefined : (e.action as { type?: string; approve?: unknown } | undefined);
    if (act?.type === "correction" && typeof act.approve === "number") corrected();
  }

  // ---- corrections by consent ----

  /** An approved correction: the game went back under the page. The state
   * is read in full again at once (the position, the decision, the
   * battles); the dice shown were superseded, the income and the clock may
   * differ. */
  function corrected(): void {
    lastDice = [];
    decisions.invalidate();
    scheduleIncome();
    if (game?.clock) scheduleInfo();
    scheduleRefresh(0);
  }

  /** The banner of an open proposal and the log's take-back buttons. */
  function renderCorrections(): void {
    corrections.render({ correction, status, myPowers, teamOf, powerLabel, entryText: (n) => log.textOf(n), send: (a) => send(a) });
    const c = correction;
    const open = myPowers.length > 0 && status === "playing" && c !== null && c.pending === null;
    log.setTakeBack(open ? { from: c.floor, label: (n) => t("takeBackLabel", { n }), ask: (seq, power, button) => corrections.ask(seq, power, button) } : null);
    root.dataset.corrections = String(c?.approved ?? 0);
  }

  // ---- the clock and the dice ----

  /** A clock event pushed: a line of the log, and the clock read again. */
  function clockEvent(ev: ClockEvent): void {
    if (typeof ev.n !== "number" || clockLines.some((c) => c.n === ev.n)) return;
    const text = clockEventText(ev, powerLabel);
    clockLines.push({ n: ev.n, after: seen, text });
    log.note(text, "clock");
    scheduleInfo(0);
  }

  /** The clock lines that came after the entries seen so far (after a rebuild of the log). */
  function clockNotes(): void {
    for (const c of clockLines) if (c.after === seen) log.note(c.text, "clock");
  }

  function renderInfo(): void {
    if (!game) return;
    // Shown for correspondence games and those with proven dice.
    infoEl.hidden = !game.clock && (game.dice?.mode ?? "seeded") === "seeded";
    clockPanel.render(game, me());
    diceInfo.render(game);
  }

  /** Reads the game again soon (a burst of entries is read once). */
  function scheduleInfo(delay = 500): void {
    if (infoTimer !== undefined) return;
    infoTimer = window.setTimeout(() => {
      infoTimer = undefined;
      if (alive) void reloadGame(false);
    }, delay);
  }

  /** Vacation, a claim or a reclaim: the game as it answers. */
  async function clockAction(act: () => Promise<{ game: Game }>): Promise<void> {
    setReady(false);
    try {
      const r = await act();
      if (!alive) return;
      app.clearError();
      takeGame(r.game, false);
    } catch (e) {
      app.showError(e);
    } finally {
      settle();
    }
  }

  /** Reads the income chart again a moment after income was paid (a burst of payments is read once). */
  function scheduleIncome(): void {
    if (incomeTimer !== undefined) return;
    incomeTimer = window.setTimeout(() => {
      incomeTimer = undefined;
      api
        .income(id)
        .then((rounds) => {
          if (!alive) return;
          const powers = ruleset?.powers.map((p) => p.id) ?? Array.from(new Set(rounds.flatMap((r) => Object.keys(r.income))));
          replace(incomeBody, incomeChart(rounds, powers, powerLabel));
        })
        .catch((err) => app.showError(err));
    }, 200);
  }

  async function sync(): Promise<void> {
    if (!socket) return;
    if (syncing) {
      syncAgain = true;
      return;
    }
    syncing = true;
    setReady(false);
    try {
      do {
        syncAgain = false;
        const r = await socket.request<{ seq: number; entries?: Entry[]; snapshot?: unknown }>("sync", { from: seen });
        if (!alive) return;
        if (r.entries) for (const e of r.entries) entry(e);
        else if (r.snapshot !== undefined) {
          log.clear();
          log.note(t("earlierOmitted"));
          seen = r.seq;
        }
      } while (syncAgain && alive);
    } catch (e) {
      if (!(e instanceof ApiError && e.code === "socket/closed")) app.showError(e);
    } finally {
      syncing = false;
      settle();
    }
  }

  // ---- state and legal ----

  function scheduleRefresh(delay = 40): void {
    setReady(false);
    if (refreshTimer !== undefined) return;
    refreshTimer = window.setTimeout(() => {
      refreshTimer = undefined;
      void refresh();
    }, delay);
  }

  /** Every page of the legal items, and the game's seq they are for (undefined if the pages disagree). */
  async function legalItems(): Promise<{ items: LegalItem[]; seq: number | undefined }> {
    const all: LegalItem[] = [];
    let seq: number | undefined;
    for (let offset = 0; offset < 20000; ) {
      const page = await socket!.request<LegalPage>("legal", { offset, limit: 500 });
      if (offset === 0) seq = page.seq;
      else if (page.seq !== seq) seq = undefined;
      all.push(...page.items);
      offset += page.items.length;
      if (page.items.length === 0 || offset >= page.total) break;
    }
    return { items: all, seq };
  }

  async function refresh(): Promise<void> {
    if (!socket || !alive) return;
    if (refreshing) {
      dirty = true;
      return;
    }
    refreshing = true;
    setReady(false);
    try {
      do {
        dirty = false;
        const st = await socket.request<StateResult>("state", { full: true });
        if (!alive) return;
        let legal: LegalItem[] = [];
        if (st.status === "playing" && st.summary.awaiting === "client") {
          try {
            const page = await legalItems();
            legal = page.items;
            // The game moved on between the answers: read both again (both
            // count the rules' steps, not the log's entries).
            if (page.seq !== st.summary.seq) dirty = true;
          } catch (e) {
            // The game moved on between the two answers: the next refresh catches up.
            if (e instanceof ApiError && e.code === "auth/not-your-power") dirty = true;
            else throw e;
          }
        }
        if (!alive) return;
        status = st.status;
        summary = st.summary;
        count = st.seq;
        // A correction approved while the page missed its entry (a snapshot after a reconnect).
        const approvedBefore = correction?.approved;
        correction = st.correction ?? null;
        if (approvedBefore !== undefined && correction && correction.approved > approvedBefore) {
          lastDice = [];
          scheduleIncome();
        }
        endPhaseLoses = st.end_phase_loses ?? null;
        position = st.position ?? position;
        items = legal;
        render();
        void orders.load(myPowers, status === "playing");
      } while (dirty && alive);
    } catch (e) {
      if (!(e instanceof ApiError && e.code === "socket/closed")) app.showError(e);
    } finally {
      refreshing = false;
      if (alive) {
        pollWhileOpen();
        settle();
      }
    }
  }

  // ---- rendering ----

  function render(): void {
    if (!summary) return;
    const s = summary;
    fields.round.textContent = String(s.round);
    fields.turn.textContent = powerLabel(s.turn);
    fields.phase.textContent = phaseName(s.phase);
    fields.actor.textContent = s.actor ? powerLabel(s.actor) : "—";
    summaryEl.dataset.awaiting = s.awaiting;
    summaryEl.dataset.status = status;
    const banks = Object.entries(s.ipcs).map(([p, n]) =>
      h(
        "li",
        { "data-bank": p, class: `${myPowers.includes(p) ? "mine" : ""}${p === s.turn ? " turn" : ""}` },
        swatch(p),
        h("span", { class: "who" }, powerLabel(p)),
        h("span", { class: "n" }, String(n)),
        s.income && s.income[p] !== undefined ? h("span", { class: "income", "data-income": p, title: t("incomeTitle") }, `+${s.income[p]}`) : null,
      ),
    );
    const extra: Child[] = [
      // A bidder holds no power before the bid settles: not a watcher either.
      status === "open" && game?.bid ? null : h("p", { class: "mine-line" }, myPowers.length ? `${t("myPowers")}: ${myPowers.map(powerLabel).join(", ")}` : t("watching")),
      h("h3", null, t("banks")),
      h("ul", { class: "banks" }, banks),
    ];
    if (s.order?.length) extra.push(h("p", { class: "meta", id: "turn-order" }, `${t("turnOrder")}: ${s.order.map(powerLabel).join(" → ")}`));
    if (lastDice.length) extra.push(dicePanel(lastDice));
    if (s.winner !== null && s.winner !== undefined) extra.unshift(h("p", { class: "winner", id: "winner" }, t("gameOver", { winner: winnerText(s.winner, powerLabel) })));
    const purchased = Object.entries(s.purchased ?? {}).filter(([, n]) => n > 0);
    if (purchased.length) extra.push(h("p", { class: "meta" }, `${t("purchased")}: ${purchased.map(([u, n]) => `${n} ${unitName(u)}`).join(", ")}`));
    if (s.battles?.length) {
      extra.push(h("h3", null, t("battles")));
      extra.push(
        h(
          "ul",
          { class: "battle-list" },
          s.battles.map((b) => h("li", { "data-battle": b.at, "data-result": b.result }, t("battleLine", { at: spaceLabel(b.at), attacker: powerLabel(b.attacker), kind: word(b.kind), result: word(b.result), round: b.round }))),
        ),
      );
    }
    // A game whose seats wait for its bid: the bid panel instead of the seats.
    if (status === "open" && game && !game.bid) extra.push(seatsBox(game));
    replace(summaryExtra, extra);
    decisions.el.hidden = status === "open" && !!game?.bid;
    renderCorrections();
    board?.update(position);
    decisions.render({ summary: s, status, items, myPowers, teamOf, spaceLabel, send, undo, odds, board, endPhaseLoses });
    if (selectedSpace) showSpace(selectedSpace);
  }

  function seatsBox(g: Game): Child {
    return h(
      "div",
      { class: "seats-box" },
      h("p", null, t("waitingForPlayers")),
      h(
        "ul",
        null,
        g.seats.map((seat) =>
          h(
            "li",
            null,
            `${powerLabel(seat.power)}: `,
            seat.kind === "open"
              ? app.account
                ? h("button", { type: "button", "data-take-seat": seat.power, onclick: () => void takeSeat(seat.power) }, t("takeSeat", { power: powerLabel(seat.power) }))
                : t("seatOpen")
              : seat.kind === "computer"
                ? t("seatComputer")
                : (seat.account ?? ""),
          ),
        ),
      ),
    );
  }

  async function takeSeat(power: string): Promise<void> {
    try {
      await api.takeSeat(id, power);
      app.clearError();
      await reloadGame(true);
    } catch (e) {
      app.showError(e);
    }
  }

  function showSpace(sid: string): void {
    selectedSpace = sid;
    board?.setSelected(sid);
    const info = ruleset?.spaces?.find((s) => s.id === sid);
    const units = position ? allUnits(position).filter((u) => u.at === sid) : [];
    const byOwner = new Map<string, Map<string, UnitView[]>>();
    for (const u of units) {
      const m = byOwner.get(u.owner) ?? new Map<string, UnitView[]>();
      byOwner.set(u.owner, m);
      m.set(u.type, [...(m.get(u.type) ?? []), u]);
    }
    const owner = position?.control[sid];
    replace(
      spaceEl,
      h("h2", { id: "space-title" }, `${t("spaceInfo")}: ${spaceLabel(sid)}`),
      info && !info.sea ? h("p", { class: "meta" }, [owner && owner !== "neutral" ? t("controlledBy", { power: powerLabel(owner) }) : word("neutral"), info.value ? ` · ${t("ipcValue", { n: info.value })}` : ""]) : null,
      units.length
        ? h(
            "ul",
            { class: "space-units", "data-space-units": sid },
            [...byOwner].map(([p, types]) =>
              h(
                "li",
                null,
                swatch(p),
                `${powerLabel(p)}: `,
                [...types].map(([type, us]) => `${us.length} ${unitName(type)}${us.some((u) => u.hits) ? ` (${t("damaged")})` : ""}`).join(", "),
              ),
            ),
          )
        : h("p", { class: "hint" }, t("noUnits")),
    );
    spaceEl.hidden = false;
  }

  function onSpace(sid: string): void {
    decisions.spaceClicked(sid);
    showSpace(sid);
  }

  // ---- acting ----

  async function odds(action: Action): Promise<MoveOdds | null> {
    if (!socket) return null;
    try {
      return await socket.request<MoveOdds>("odds", { action });
    } catch {
      return null;
    }
  }

  async function send(action: Action): Promise<boolean> {
    if (!socket) return false;
    setReady(false);
    try {
      const r = await socket.apply(action, count);
      app.clearError();
      expected = Math.max(expected, r.seq + 1);
      if (r.repeated || seen >= expected) scheduleRefresh(0);
      settle();
      return true;
    } catch (e) {
      app.showError(e);
      if (e instanceof ApiError && (e.code === "game/stale" || e.code === "game/stale-seq")) scheduleRefresh(0);
      settle();
      return false;
    }
  }

  async function undo(): Promise<boolean> {
    if (!socket) return false;
    setReady(false);
    try {
      const r = await socket.request<{ seq: number }>("undo", count !== undefined ? { seq: count } : {});
      app.clearError();
      if (r.seq < seen) {
        seen = r.seq;
        log.undone(r.seq);
      }
      expected = Math.min(expected, seen);
      decisions.invalidate();
      scheduleRefresh(0);
      return true;
    } catch (e) {
      app.showError(e);
      settle();
      return false;
    }
  }

  // ---- an open game: wait for its seats ----

  function pollWhileOpen(): void {
    if (status !== "open" || pollTimer !== undefined) return;
    pollTimer = window.setTimeout(async () => {
      pollTimer = undefined;
      if (!alive) return;
      await reloadGame(false);
      pollWhileOpen();
    }, 4000);
  }

  /** Reads the game again; a started game or a change of seats reconnects (the socket's powers are fixed at connecting). */
  async function reloadGame(force: boolean): Promise<void> {
    try {
      const g = await api.game(id);
      if (!alive) return;
      takeGame(g, force);
    } catch {
      /* keep waiting */
    }
  }

  function takeGame(g: Game, force: boolean): void {
    // Who holds each seat (a deadline moving on is no change of seats).
    const holders = (x: Game | null) => JSON.stringify(x?.seats.map((s) => [s.power, s.kind, s.account, s.taken_from ?? null]));
    const seatsChanged = holders(g) !== holders(game);
    const started = status === "open" && g.status !== "open";
    game = g;
    renderInfo();
    bidPanel.show(g);
    if (force || seatsChanged || started) {
      status = g.status;
      connect();
    }
  }

  function connect(): void {
    socket?.close();
    socket = new GameSocket(GameSocket.urlFor(id), { onState, onHello, onPush });
  }

  // ---- start ----

  (async () => {
    try {
      game = await api.game(id);
      if (!alive) return;
      status = game.status;
      ruleset = await api.ruleset(game.ruleset);
      if (!alive) return;
      title.textContent = `${ruleset.title} · ${t("gameTitle", { id: id.slice(0, 8) })}`;
      renderInfo();
      bidPanel.show(game);
      document.title = `warboard · ${ruleset.title}`;
      board = new BoardView(game.ruleset, ruleset, onSpace);
      replace(boardPane, board.root);
      connect();
      await board.load();
      if (!alive) return;
      board.update(position);
      if (summary) render();
    } catch (e) {
      app.showError(e);
      replace(boardPane, h("p", { class: "hint" }, e instanceof Error ? e.message : String(e)));
      setReady(true);
    }
  })();

  // The time left, kept current.
  const clockTimer = window.setInterval(() => {
    if (game?.clock && document.visibilityState === "visible") clockPanel.tick();
  }, 30000);

  return () => {
    alive = false;
    bidPanel.stop();
    window.clearInterval(clockTimer);
    window.clearTimeout(infoTimer);
    window.clearTimeout(refreshTimer);
    window.clearTimeout(pollTimer);
    window.clearTimeout(incomeTimer);
    socket?.close();
    socket = null;
    board?.dispose();
    document.title = "warboard";
  };
}

/** A `rolled` event (docs/protocol.md): who rolled what, and the hits. */
interface Rolled {
  event: "rolled";
  purpose: string;
  dice: number[];
  hits: number;
  by?: { type: string; dice: number; hit_on: number; hits: number }[];
}

/** The last dice rolled: each roll's purpose, its dice by unit type (a
 * hit marked), and its hits. */
function dicePanel(rolls: Rolled[]): Child {
  const rows = rolls.map((r) => {
    let at = 0;
    const groups = (r.by && r.by.length ? r.by : [{ type: "", dice: r.dice.length, hit_on: 0, hits: r.hits }]).map((g) => {
      const faces = r.dice.slice(at, at + g.dice);
      at += g.dice;
      return h(
        "span",
        { class: "dice-group" },
        g.type ? h("span", { class: "unit" }, `${unitName(g.type)}@${g.hit_on}`) : null,
        ...faces.map((f) => h("span", { class: `die${g.hit_on && f <= g.hit_on ? " hit" : ""}`, "aria-label": String(f) }, String(f))),
      );
    });
    return h("li", { "data-purpose": r.purpose }, h("span", { class: "purpose" }, `${r.purpose}: `), ...groups, h("span", { class: "hits" }, ` → ${r.hits}`));
  });
  return h("section", { id: "last-dice", class: "last-dice" }, h("h3", null, t("lastDice")), h("ul", null, rows));
}
