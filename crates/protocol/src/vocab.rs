//! The game as clients see it, in FORMAT.md's vocabulary: powers, spaces
//! and unit types by name, units by their `u<number>` names. Events, the
//! position, and the summary of the current decision.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use warboard_record::{unit_name, DiceMode, Record};
use warboard_rules::battle::{self, BattleSide, Decision};
use warboard_rules::game::Actor;
use warboard_rules::{Event, Game, GameState, PowerId, Ruleset, SpaceId, Unit, UnitId, UnitType};

pub(crate) fn power(rs: &Ruleset, p: PowerId) -> String {
    rs.powers.get(p.index()).map(|x| x.id.clone()).unwrap_or_else(|| format!("power{}", p.0))
}

pub(crate) fn space(rs: &Ruleset, s: SpaceId) -> String {
    if s.index() < rs.map.len() {
        rs.map.name(s).to_string()
    } else {
        format!("space{}", s.0)
    }
}

fn counts(units: &[(UnitType, u32)]) -> Value {
    let mut m = Map::new();
    for (k, n) in units {
        let total = m.get(k.name()).and_then(Value::as_u64).unwrap_or(0) + *n as u64;
        m.insert(k.name().into(), total.into());
    }
    Value::Object(m)
}

/// A unit as clients see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitView {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub owner: String,
    pub at: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hits: u8,
    /// Movement points spent this turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub moved: u8,
    /// The unit that carries it, if it is cargo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<String>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

pub(crate) fn unit_view(rs: &Ruleset, u: &Unit) -> UnitView {
    UnitView {
        id: unit_name(u.id),
        kind: u.kind.name().into(),
        owner: power(rs, u.owner),
        at: space(rs, u.at),
        hits: u.hits,
        moved: u.moved,
        aboard: u.carried_by.map(unit_name),
    }
}

/// Units named in an event: looked up in the state before the action (where
/// they all still stand), else after it.
fn units_json(rs: &Ruleset, before: &GameState, after: &GameState, ids: &[UnitId]) -> Value {
    ids.iter()
        .map(|id| match before.unit(*id).or_else(|| after.unit(*id)) {
            Some(u) => json!({"id": unit_name(*id), "type": u.kind.name(), "owner": power(rs, u.owner)}),
            None => json!({"id": unit_name(*id)}),
        })
        .collect()
}

/// One event as an `event` line's object: `{"event": KIND, ...}`.
pub fn event_json(rs: &Ruleset, before: &GameState, after: &GameState, event: &Event) -> Value {
    let p = |x: &PowerId| power(rs, *x);
    let s = |x: &SpaceId| space(rs, *x);
    match event {
        Event::Eliminated { power } => json!({"event": "eliminated", "power": p(power)}),
        Event::PhaseStarted { power, phase, round } => {
            json!({"event": "phase", "power": p(power), "phase": phase.name(), "round": round})
        }
        Event::Purchased { power, units, cost } => json!({"event": "purchased", "power": p(power), "units": counts(units), "cost": cost}),
        Event::Moved { units, route } => json!({
            "event": "moved",
            "units": units_json(rs, before, after, units),
            "route": route.iter().map(s).collect::<Vec<_>>(),
        }),
        Event::NeutralTaken { at, by, fee } => json!({"event": "neutral_taken", "at": s(at), "by": p(by), "fee": fee}),
        Event::Captured { at, by, from } => json!({"event": "captured", "at": s(at), "by": p(by), "from": from.as_ref().map(p)}),
        Event::Liberated { at, for_power } => json!({"event": "liberated", "at": s(at), "for": p(for_power)}),
        Event::BankTaken { from, to, amount } => json!({"event": "bank_taken", "from": p(from), "to": p(to), "amount": amount}),
        Event::Rolled { purpose, dice, hits, by } if by.is_empty() => json!({"event": "rolled", "purpose": purpose, "dice": dice, "hits": hits}),
        Event::Rolled { purpose, dice, hits, by } => {
            let by: Vec<Value> = by.iter().map(|r| json!({"type": r.kind.name(), "hit_on": r.value, "dice": r.count, "hits": r.hits})).collect();
            json!({"event": "rolled", "purpose": purpose, "dice": dice, "hits": hits, "by": by})
        }
        Event::Destroyed { units, at } => json!({
            "event": "destroyed",
            "at": s(at),
            "units": units.iter().map(|(id, kind, owner)| json!({"id": unit_name(*id), "type": kind.name(), "owner": p(owner)})).collect::<Vec<_>>(),
        }),
        Event::Damaged { unit, hits } => json!({"event": "damaged", "unit": unit_name(*unit), "hits": hits}),
        Event::Repaired { power, units } => json!({
            "event": "repaired",
            "power": p(power),
            "units": units.iter().map(|id| unit_name(*id)).collect::<Vec<_>>(),
        }),
        Event::Withdrew { units, from, to } => json!({
            "event": "withdrew",
            "units": units_json(rs, before, after, units),
            "from": s(from),
            "to": to.as_ref().map(s),
        }),
        Event::BattleEnded { at, result } => json!({"event": "battle_ended", "at": s(at), "result": result.name()}),
        Event::Bombed { at, victim, ipcs } => json!({"event": "bombed", "at": s(at), "victim": p(victim), "ipcs": ipcs}),
        Event::Placed { at, units } => json!({"event": "placed", "power": p(&before.turn), "at": s(at), "units": counts(units)}),
        Event::LostUnplaced { units } => json!({"event": "lost_unplaced", "power": p(&before.turn), "units": counts(units)}),
        Event::Developed { power, development } => json!({"event": "developed", "power": p(power), "development": development}),
        Event::Income { power, amount } => json!({"event": "income", "power": p(power), "amount": amount}),
        Event::Converted { at, units, to } => json!({
            "event": "converted",
            "at": s(at),
            "to": p(to),
            "units": units.iter().map(|id| unit_name(*id)).collect::<Vec<_>>(),
        }),
        Event::Paid { from, to, amount } => json!({"event": "paid", "from": p(from), "to": p(to), "amount": amount}),
        Event::Victory { winner, reason } => json!({
            "event": "victory",
            "side": winner.team,
            "powers": winner.powers.iter().map(p).collect::<Vec<_>>(),
            "reason": reason,
        }),
    }
}

/// The position as FORMAT.md's `state`: it can start a new game as it is
/// (with `"setup": "empty"`). Cargo is listed under its carrier; units keep
/// their names as `id`. Per-turn facts (which units fought, moved in combat,
/// ...) are not part of FORMAT's vocabulary and are left out.
pub fn position_json(rs: &Ruleset, s: &GameState) -> Value {
    let control: Map<String, Value> = rs
        .map
        .ids()
        .filter(|t| rs.map.is_land(*t))
        .map(|t| (space(rs, t), s.control[t.index()].map(|p| power(rs, p)).unwrap_or_else(|| "neutral".into()).into()))
        .collect();
    let ipcs: Map<String, Value> = rs.power_ids().map(|p| (power(rs, p), s.ipcs[p.index()].into())).collect();
    let units: Vec<Value> = s.units.iter().filter(|u| u.carried_by.is_none()).map(|u| unit_entry(rs, s, u, true)).collect();
    let purchased: Map<String, Value> = s.purchased.iter().map(|(k, n)| (k.name().to_string(), (*n).into())).collect();
    json!({
        "round": s.round,
        "turn": power(rs, s.turn),
        "phase": s.phase.name(),
        "control": control,
        "ipcs": ipcs,
        "units": units,
        "purchased": purchased,
    })
}

fn unit_entry(rs: &Ruleset, s: &GameState, u: &Unit, with_at: bool) -> Value {
    let mut e = Map::new();
    if with_at {
        e.insert("at".into(), space(rs, u.at).into());
    }
    e.insert("owner".into(), power(rs, u.owner).into());
    e.insert("type".into(), u.kind.name().into());
    e.insert("id".into(), unit_name(u.id).into());
    if u.hits > 0 {
        e.insert("hits".into(), u.hits.into());
    }
    if u.moved > 0 {
        e.insert("moved".into(), u.moved.into());
    }
    let cargo: Vec<Value> = s.cargo_of(u.id).map(|c| unit_entry(rs, s, c, false)).collect();
    if !cargo.is_empty() {
        e.insert("cargo".into(), cargo.into());
    }
    Value::Object(e)
}

/// Who the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Awaiting {
    /// A power the client plays.
    Client,
    /// The engine, deciding for a power the client does not play (it does so
    /// at once, so this is seen only when it could not go on).
    Engine,
    /// Client dice, before the engine can go on for a power it plays.
    Dice,
    /// Nobody: the game is over.
    Nobody,
    /// Another player, holding the power that acts now (on the server).
    Player,
}

/// The decision the game waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DecisionView {
    /// The power whose turn it is acts in its phase.
    Phase { phase: String },
    /// The deciding side names its losses.
    Casualties { at: String, side: String, hits: u32, candidates: Vec<UnitView> },
    /// The attacker presses on or retreats.
    PressOrRetreat { at: String },
    /// The attacker's submarines may withdraw (or the battle goes on).
    AttackerSubmarines { at: String },
    /// The defender's submarines may withdraw (or the battle goes on).
    DefenderSubmarines { at: String },
    /// The game is over.
    GameOver { winner: String },
}

/// One of this turn's battles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleView {
    pub at: String,
    pub attacker: String,
    pub kind: String,
    pub result: String,
    pub round: u32,
}

/// Where the game stands: the answer to `state`, and part of every answer
/// that changes the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub seq: u64,
    pub round: u32,
    pub turn: String,
    pub phase: String,
    /// The power that acts now (during a battle, perhaps the defender).
    pub actor: Option<String>,
    /// In a phase of the whole round, every power still to act in it (each
    /// names itself with `power` on its actions); absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actors: Vec<String>,
    /// This round's turn order.
    #[serde(default)]
    pub order: Vec<String>,
    pub awaiting: Awaiting,
    pub winner: Option<String>,
    pub decision: DecisionView,
    pub ipcs: BTreeMap<String, i32>,
    /// What each power would collect if its income were paid now.
    pub income: BTreeMap<String, i32>,
    /// Units bought this turn and waiting to be placed.
    pub purchased: BTreeMap<String, u32>,
    pub battles: Vec<BattleView>,
    /// `seeded` or `client`.
    pub dice: String,
    /// Client dice supplied and not yet used.
    pub dice_queued: usize,
    /// How many actions `undo` can take back now.
    pub undo: usize,
    /// Actions in the game's log.
    pub actions: usize,
    /// The powers the client plays.
    pub client_powers: Vec<String>,
    /// The thinking budget a turn of the computer playing the others, ms
    /// (`new`'s and `load`'s `think`; 0: the standard planner).
    pub think: u64,
}

pub(crate) fn decision_view(rs: &Ruleset, s: &GameState) -> DecisionView {
    if let Some(w) = &s.winner {
        return DecisionView::GameOver { winner: w.describe(|p| power(rs, p)) };
    }
    match battle::decision(rs, s) {
        None => DecisionView::Phase { phase: s.phase.name().into() },
        Some((i, d)) => {
            let at = space(rs, s.battles[i].at);
            match d {
                Decision::Casualties { side, hits, candidates, .. } => DecisionView::Casualties {
                    at,
                    side: match side {
                        BattleSide::Attacker => "attacker".into(),
                        BattleSide::Defender => "defender".into(),
                    },
                    hits,
                    candidates: candidates.iter().filter_map(|id| s.unit(*id)).map(|u| unit_view(rs, u)).collect(),
                },
                Decision::PressOrRetreat => DecisionView::PressOrRetreat { at },
                Decision::AttackerSubmarines => DecisionView::AttackerSubmarines { at },
                Decision::DefenderSubmarines => DecisionView::DefenderSubmarines { at },
            }
        }
    }
}

pub(crate) fn summary(record: &Record, client: &[PowerId], awaiting: Awaiting, think: u64) -> Summary {
    summary_of(record.game(), record, client, awaiting, think)
}

/// The summary of `game` as a seat may see it (the server passes the
/// table's view during sealed shopping), with the record's dice, undo and
/// length.
pub fn summary_of(game: &Game, record: &Record, client: &[PowerId], awaiting: Awaiting, think: u64) -> Summary {
    let rs = &game.ruleset;
    let s = &game.state;
    let actor = match game.actor() {
        Actor::Power(p) => Some(power(rs, p)),
        Actor::Terminal => None,
    };
    Summary {
        seq: s.seq,
        round: s.round,
        turn: power(rs, s.turn),
        phase: s.phase.name().into(),
        actor,
        actors: game.actors().into_iter().map(|p| power(rs, p)).collect(),
        order: s.order.iter().map(|p| power(rs, *p)).collect(),
        awaiting,
        winner: s.winner.as_ref().map(|w| w.describe(|p| power(rs, p))),
        decision: decision_view(rs, s),
        ipcs: rs.power_ids().map(|p| (power(rs, p), s.ipcs[p.index()])).collect(),
        income: rs.power_ids().map(|p| (power(rs, p), game.income(p))).collect(),
        purchased: s.purchased.iter().map(|(k, n)| (k.name().to_string(), *n)).collect(),
        battles: s
            .battles
            .iter()
            .map(|b| BattleView {
                at: space(rs, b.at),
                attacker: power(rs, b.attacker),
                kind: serde_json::to_value(b.kind).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(),
                result: b.result.name().into(),
                round: b.round,
            })
            .collect(),
        dice: match record.dice_mode() {
            DiceMode::Seeded { .. } => "seeded".into(),
            DiceMode::Client => "client".into(),
            DiceMode::Proof => "proof".into(),
        },
        dice_queued: record.queued_dice(),
        undo: record.undo_depth(),
        actions: record.log().len(),
        client_powers: client.iter().map(|p| power(rs, *p)).collect(),
        think,
    }
}
