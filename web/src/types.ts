// The engine protocol's shapes as the page reads them (docs/protocol.md).

export interface UnitView {
  id: string;
  type: string;
  owner: string;
  at?: string;
  hits?: number;
  moved?: number;
  cargo?: UnitView[];
}

export interface Position {
  round: number;
  turn: string;
  phase: string;
  control: Record<string, string>;
  ipcs: Record<string, number>;
  units: UnitView[];
  purchased: Record<string, number>;
}

export interface Decision {
  kind: string; // phase, casualties, press_or_retreat, attacker_submarines, defender_submarines, game_over
  phase?: string;
  at?: string;
  side?: string;
  hits?: number;
  candidates?: UnitView[];
  winner?: unknown;
}

export interface BattleInfo {
  at: string;
  attacker: string;
  kind: string;
  result: string;
  round: number;
}

export interface Summary {
  seq: number;
  round: number;
  turn: string;
  phase: string;
  actor: string | null;
  actors?: string[];
  order?: string[];
  awaiting: string; // client, player, dice, engine, nobody
  decision?: Decision | null;
  ipcs: Record<string, number>;
  /** What each power would collect if paid now. */
  income?: Record<string, number>;
  purchased?: Record<string, number>;
  battles?: BattleInfo[];
  winner: unknown;
  undo?: number;
  client_powers?: string[];
}

export interface StateResult {
  seq: number;
  status: string;
  summary: Summary;
  /** The whole position, with `full`. */
  position?: Position;
  /** Units the seat's own nations bought and have not placed yet. */
  unplaced?: Record<string, Record<string, number>>;
  /** What ending the phase now would lose (the seat the game waits for). */
  end_phase_loses?: string | null;
  /** Where the game's corrections by consent stand. */
  correction?: CorrectionState;
}

/** Corrections by consent (the `state` reply's `correction`): the open
 * proposal (its entry, the power that made it, what it changes in the
 * server's words, and the entry it takes the game back to, or the position
 * it sets), the first entry a new proposal may take back, and how many
 * corrections were approved. */
export interface CorrectionState {
  pending: { proposal: number; by: string | null; what?: string; take_back_to?: number; position?: unknown } | null;
  floor: number;
  approved: number;
}

export interface LegalPage {
  seq: number;
  actor: string | null;
  total: number;
  offset: number;
  limit: number;
  items: LegalItem[];
}

/** One legal item: `type` and its fields (docs/protocol.md, `legal`). */
export interface LegalItem {
  type: string;
  [key: string]: unknown;
}

export interface StoryLine {
  kind: string;
  text: string;
  /** Joins the previous entry's last line (the computer's one-unit moves grouped): `text` is the joined line. */
  merge?: boolean;
  /** What the line says, for telling it in German (web/src/story_de.ts). */
  key?: string;
  args?: Record<string, unknown>;
}

export interface Entry {
  reply: "entry";
  seq: number;
  power?: string | null;
  by?: string;
  action?: unknown;
  events?: unknown[];
  story?: StoryLine[];
  sealed?: boolean;
  next?: string | null;
  /** A proven game's receipt for the entry, signed by the server (docs/pbem.md). */
  receipt?: unknown;
}

/** The units of a position, cargo included, flattened, each with its space. */
export function allUnits(pos: Position): UnitView[] {
  const out: UnitView[] = [];
  const walk = (u: UnitView, at: string | undefined) => {
    out.push({ ...u, at });
    for (const c of u.cargo ?? []) walk(c, at);
  };
  for (const u of pos.units) walk(u, u.at);
  return out;
}

/** A readable form of a winner: a team name or a list of powers. */
export function winnerText(w: unknown, name: (id: string) => string): string {
  if (Array.isArray(w)) return w.map((x) => name(String(x))).join(", ");
  if (typeof w === "string") return name(w);
  return JSON.stringify(w);
}
