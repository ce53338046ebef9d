// The server's HTTP API (docs/server.md): fetch with the session cookie,
// every refusal turned into an ApiError with the server's code and message.

export class ApiError extends Error {
  code: string;
  status: number;
  /** What a rule's refusal names (spaces, unit types, powers, numbers), for wording it in German. */
  args?: Record<string, unknown>;
  constructor(code: string, message: string, status = 0, args?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.status = status;
    this.args = args;
  }
}

export interface Account {
  id: string;
  name: string;
}

export interface PowerInfo {
  id: string;
  name: string;
  team: string | null;
  capital: string | null;
}

export interface OptionInfo {
  name: string;
  type: string; // bool, integer, choice, object, list, …
  default: unknown;
  doc: string;
  values?: unknown[];
  min?: number;
  max?: number;
}

export interface SpaceInfo {
  id: string;
  name: string;
  sea: boolean;
  value: number;
  owner: string | null;
  capital_of: string | null;
  victory_city: boolean;
  convoy: boolean;
  neutral: boolean;
  off_limits: boolean;
  neighbours: string[];
}

export interface RulesetInfo {
  name: string;
  title: string;
  powers: PowerInfo[];
  teams: string[];
  options: OptionInfo[];
  spaces?: SpaceInfo[];
}

export interface Seat {
  power: string;
  kind: string; // account, computer, open
  account: string | null;
  think: number;
  /** Where the game's clock runs for this seat: its deadline (unix ms). */
  deadline_ms?: number;
  /** A seat the computer holds for a player whose time ran out: the player's name. */
  taken_from?: string;
}

/** A correspondence game's clock (docs/server.md, "Correspondence games"). */
export interface GameClock {
  move_days: number;
  vacation_days: number;
  waiting: { account: string | null; power: string | null; started_ms: number; deadline_ms: number; stage: "running" | "half" | "late" | "expired" } | null;
  vacation_left: Record<string, number>;
  vacation_banked: Record<string, number>;
  taken_over: { power: string; account: string; at: number }[];
}

/** How the game's dice are made: the host's seed, or the server's committed seed (revealed at the end). */
export type GameDice =
  | { mode: "seeded" }
  | { mode: "server"; game_id: string; commitment: string; seed?: string }
  | { mode: "beacon"; game_id: string; beacon: { scheme: string; period: number } };

/** One event of a game's clock (`GET /api/games/{id}/events`, pushed as `{"reply":"clock",…}`). */
export interface ClockEvent {
  n: number;
  kind: string; // reminder_half, reminder_late, expired, claimed, taken_over, reclaimed, vacation
  account: string | null;
  power: string | null;
  at: number;
  detail: Record<string, unknown> | null;
}

/** A power's standing orders (docs/server.md, "Standing orders"): each part left out is the player's to decide. */
export interface StandingOrders {
  losses?: string[];
  submarines?: "always" | "never";
  retreat?: "never" | { when_at_most: number };
}

/** The account's turn mail settings. */
export interface MailSettings {
  email: string | null;
  turn_mail: boolean;
  /** Whether this server sends mail at all. */
  sending: boolean;
}

export interface Game {
  id: string;
  ruleset: string;
  options: Record<string, unknown>;
  public: boolean;
  status: "open" | "playing" | "over";
  seq: number;
  actor: string | null;
  winner: unknown;
  created_at: number;
  seats: Seat[];
  clock?: GameClock | null;
  dice?: GameDice;
  /** A game whose sides are bid for (docs/server.md, "Sealed bids"): the rule and both bidders' names. */
  bid?: GameBid | null;
}

/** A bidding game's rule and its two bidders, by name. */
export interface GameBid {
  rule: string;
  bidders: string[];
}

/** One bidder's part of a bid round: the commitment once sealed, the bid and nonce once revealed. */
export interface Bidder {
  account: string;
  commitment: string | null;
  sealed_at: number | null;
  ipcs: number | null;
  nonce: string | null;
  revealed_at: number | null;
}

/** A bid round (`GET /api/games/{id}/bid`). */
export interface BidRound {
  rule: string | null;
  stage: "sealing" | "revealing" | "settled";
  bidders: Bidder[];
  /** Once both are revealed: who plays each side, the IPCs the Axis got, whether the coin settled equal bids. */
  settled: { axis: string; allies: string; ipcs: number; tie: boolean } | null;
}

export type SeatRequest =
  | { kind: "me" }
  | { kind: "open" }
  | { kind: "computer"; think: number }
  | { kind: "account"; name: string };

/** What each power was paid in one round (the income chart). */
export interface RoundIncome {
  round: number;
  income: Record<string, number>;
}

export interface NewGame {
  ruleset: string;
  options: Record<string, unknown>;
  public: boolean;
  /** Who holds each power; left out with `bid`. */
  seats?: Record<string, SeatRequest>;
  /** Sides by sealed bid instead of seats: the creator against `opponent`. */
  bid?: { opponent: string; rule: string };
  /** A correspondence game: days per move (1, 2, 3, 5, 7, 10, 14) and vacation days (0–60). */
  move_days?: number;
  vacation_days?: number;
  dice?: "seeded" | "server" | "beacon";
}

/** The ruleset families, each with its own ladder (docs/ladder.md). */
export const FAMILIES = ["classic", "europe", "anniversary", "alternative"] as const;
export type Family = (typeof FAMILIES)[number];

/** One player of a family's leaderboard (`GET /api/ladder/{family}`): the
 * Glicko-2 rating of one-against-one games and the team rating. */
export interface LadderPlayer {
  rank: number;
  account: string;
  rating: number;
  deviation: number;
  games: number;
  provisional: boolean;
  team_rating: number;
  team_games: number;
  team_provisional: boolean;
}

export interface Leaderboard {
  family: string;
  games: number;
  players: LadderPlayer[];
}

/** Rated games by the side that won; rates are null without games. */
export interface SideTally {
  games: number;
  axis_wins: number;
  allies_wins: number;
  draws: number;
  axis_win_rate: number | null;
  allies_win_rate: number | null;
  draw_rate: number | null;
}

/** A family's side balance (`GET /api/ladder/{family}/balance`): overall and
 * by bid (the IPCs the Axis got; null: no bid). */
export interface SideBalance extends SideTally {
  family: string;
  unknown_sides: number;
  by_bid: (SideTally & { bid: number | null })[];
}

export interface WinsLosses {
  wins: number;
  losses: number;
  draws: number;
}

export interface BySide {
  axis: WinsLosses;
  allies: WinsLosses;
  unknown: WinsLosses;
}

/** A player's rating after one rated game (a team game: the team rating). */
export interface RatingPoint {
  game: string;
  ended_at: number;
  team: boolean;
  rating: number;
  deviation: number;
}

export interface PlayerFamily {
  family: string;
  rank: number | null;
  players: number;
  rating: number;
  deviation: number;
  provisional: boolean;
  games: number;
  team_rating: number;
  team_uncertainty: number;
  team_games: number;
  team_provisional: boolean;
  history: RatingPoint[];
  by_side: BySide;
}

/** One of a player's rated games; `record` and `replay` where the viewer may see the game. */
export interface RatedGame {
  game: string;
  family: string;
  ended_at: number;
  side: "axis" | "allies" | null;
  partners: string[];
  opponents: string[];
  result: "win" | "loss" | "draw";
  how: string;
  bid: number | null;
  record: string | null;
  replay: string | null;
}

/** A player's profile (`GET /api/players/{name}`). */
export interface PlayerProfile {
  name: string;
  families: PlayerFamily[];
  by_side: BySide;
  games: RatedGame[];
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError("network/failed", String(e instanceof Error ? e.message : e));
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; args?: Record<string, unknown> } } | null)?.error;
    throw new ApiError(err?.code ?? `http/${res.status}`, err?.message ?? (text.slice(0, 200) || res.statusText), res.status, err?.args);
  }
  return data as T;
}

export const api = {
  me: () => call<{ account: Account }>("GET", "/api/me").then((r) => r.account),
  signin: (name: string, password: string) => call<{ account: Account }>("POST", "/api/signin", { name, password }).then((r) => r.account),
  signup: (name: string, password: string) => call<{ account: Account }>("POST", "/api/signup", { name, password }).then((r) => r.account),
  signout: () => call<void>("POST", "/api/signout"),
  rulesets: () => call<{ rulesets: RulesetInfo[] }>("GET", "/api/rulesets").then((r) => r.rulesets),
  calc: (ruleset: string, battle: string, amphibious: boolean, lowLuck: boolean) => call<CalcResult>("POST", "/api/calc", { ruleset, battle, amphibious, low_luck: lowLuck }),
  ruleset: (name: string) => call<{ ruleset: RulesetInfo }>("GET", `/api/rulesets/${encodeURIComponent(name)}`).then((r) => r.ruleset),
  createGame: (g: NewGame) => call<{ game: Game }>("POST", "/api/games", g).then((r) => r.game),
  games: (filter: "open" | "mine") => call<{ games: Game[] }>("GET", `/api/games?filter=${filter}`).then((r) => r.games),
  game: (id: string) => call<{ game: Game }>("GET", `/api/games/${encodeURIComponent(id)}`).then((r) => r.game),
  income: (id: string) => call<{ rounds: RoundIncome[] }>("GET", `/api/games/${encodeURIComponent(id)}/income`).then((r) => r.rounds),
  position: (id: string, n: number) => call<ReplayStep>("GET", `/api/games/${encodeURIComponent(id)}/positions/${n}`),
  takeSeat: (id: string, power: string) => call<unknown>("POST", `/api/games/${encodeURIComponent(id)}/seats/${encodeURIComponent(power)}`),
  leaveSeat: (id: string, power: string) => call<unknown>("DELETE", `/api/games/${encodeURIComponent(id)}/seats/${encodeURIComponent(power)}`),
  vacation: (id: string, days: number) => call<{ game: Game; event: ClockEvent }>("POST", `/api/games/${encodeURIComponent(id)}/vacation`, { days }),
  claim: (id: string) => call<{ game: Game; event: ClockEvent }>("POST", `/api/games/${encodeURIComponent(id)}/claim`),
  reclaim: (id: string) => call<{ game: Game; event: ClockEvent }>("POST", `/api/games/${encodeURIComponent(id)}/reclaim`),
  orders: (id: string, power: string) => call<{ orders: StandingOrders }>("GET", ordersPath(id, power)).then((r) => r.orders),
  setOrders: (id: string, power: string, orders: StandingOrders) => call<{ orders: StandingOrders }>("PUT", ordersPath(id, power), orders).then((r) => r.orders),
  clearOrders: (id: string, power: string) => call<unknown>("DELETE", ordersPath(id, power)),
  mail: () => call<MailSettings>("GET", "/api/account/mail"),
  setMail: (m: { email?: string; turn_mail?: boolean }) => call<MailSettings>("PUT", "/api/account/mail", m),
  bid: (id: string) => call<{ bid: BidRound }>("GET", bidPath(id)).then((r) => r.bid),
  sealBid: (id: string, commitment: string) => call<{ bid: BidRound; game: Game }>("POST", bidPath(id), { commitment }),
  revealBid: (id: string, ipcs: number, nonce: string) => call<{ bid: BidRound; game: Game }>("POST", `${bidPath(id)}/reveal`, { ipcs, nonce }),
  ladder: (family: string) => call<Leaderboard>("GET", `/api/ladder/${encodeURIComponent(family)}`),
  balance: (family: string) => call<SideBalance>("GET", `/api/ladder/${encodeURIComponent(family)}/balance`),
  player: (name: string) => call<PlayerProfile>("GET", `/api/players/${encodeURIComponent(name)}`),
};

function bidPath(id: string): string {
  return `/api/games/${encodeURIComponent(id)}/bid`;
}

function ordersPath(id: string, power: string): string {
  return `/api/games/${encodeURIComponent(id)}/orders/${encodeURIComponent(power)}`;
}

/** The drawn board's SVG text, or null where the server has none (404) or it fails. */
export async function boardSvg(ruleset: string): Promise<string | null> {
  try {
    const res = await fetch(`/api/rulesets/${encodeURIComponent(ruleset)}/board.svg`, { credentials: "same-origin" });
    if (!res.ok) return null;
    const text = await res.text();
    return text.includes("<svg") ? text : null;
  } catch {
    return null;
  }
}

/** The calculator's answer (`POST /api/calc`, as `warboard calc --json`). */
export interface CalcResult {
  method: string;
  attacker_wins: number;
  defender_wins: number;
  draw: number;
  attackers: Record<string, number>;
  defenders: Record<string, number>;
  [key: string]: unknown;
}

/** One step of a replay: the position after the first `seq` entries. */
export interface ReplayStep {
  seq: number;
  count: number;
  position: import("./types").Position;
  story: { kind: string; text: string; key?: string; args?: Record<string, unknown> }[];
}
