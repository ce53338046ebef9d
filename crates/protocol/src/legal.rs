//! The legal actions for the current decision.
//!
//! Candidates are generated from the position and each is tried on a copy
//! of the game ([`Record::trial`]): the rules core alone decides what is
//! legal, there is no second copy of the rules here. Where the space of
//! actions is large the answer is compact: a purchase item gives the most
//! of a unit type that can be bought, a move item gives, for one stack of
//! like units, one legal route to each space it can reach, and a placement
//! item the unit types that can be placed in one space.
//!
//! Items are paged with `offset` and `limit`. The list is built cheaply and
//! only the move items of the requested page have their routes searched, so
//! a client can page through a big combat move without paying for all of it.

use crate::vocab::{power, space, unit_view, UnitView};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use warboard_record::{unit_name, Record, MAX_NUMBER};
use warboard_rules::battle::{self, BattleResult, BattleSide, Decision};
use warboard_rules::ids::Domain;
use warboard_rules::routes;
use warboard_rules::ruleset::ResearchCharts;
use warboard_rules::select::{self, Selector};
use warboard_rules::state::Development;
use warboard_rules::{Action, Event, Phase, SpaceId, UnitType};

/// Items per page when the client names no `limit`.
pub const DEFAULT_LIMIT: usize = 50;
/// The most items a page may hold.
pub const MAX_LIMIT: usize = 500;
/// Routes tried per destination before it is given up (routes are tried
/// shortest first; a destination reachable only by a longer detour than the
/// first few may be missed).
const ROUTES_PER_DESTINATION: usize = 12;

/// One page of legal actions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegalPage {
    pub seq: u64,
    /// The power these actions are for.
    pub actor: Option<String>,
    /// Items in the whole list.
    pub total: usize,
    pub offset: usize,
    pub limit: usize,
    /// The items of this page (docs/protocol.md, `legal`).
    pub items: Vec<Value>,
}

/// An item, before move items have their routes searched.
enum Slot {
    Ready(Value),
    Stack { from: SpaceId, kind: UnitType, count: usize },
}

/// The page of legal actions for the power that acts now (empty when the
/// game is over). Items from `offset`, at most `limit` of them.
pub fn legal_page(record: &Record, offset: usize, limit: Option<usize>) -> LegalPage {
    let limit = limit.unwrap_or(DEFAULT_LIMIT).min(MAX_LIMIT);
    let game = record.game();
    let slots = slots(record);
    let total = slots.len();
    let items = slots.into_iter().skip(offset).take(limit).map(|slot| expand(record, slot)).collect();
    let actor = match game.actor() {
        warboard_rules::game::Actor::Power(p) => Some(power(&game.ruleset, p)),
        warboard_rules::game::Actor::Terminal => None,
    };
    LegalPage { seq: game.state.seq, actor, total, offset, limit, items }
}

fn legal(record: &Record, action: &Action) -> bool {
    record.trial(action).is_ok()
}

fn slots(record: &Record) -> Vec<Slot> {
    let game = record.game();
    let s = &game.state;
    if s.winner.is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some((i, decision)) = battle::decision(&game.ruleset, s) {
        battle_choices(record, i, decision, &mut out);
        return out;
    }
    // A phase of the whole round (Alternative shopping): the actions of the
    // nation that acts now, each naming it (FORMAT v2 `power`).
    if game.round_phase() {
        if let warboard_rules::game::Actor::Power(p) = game.actor() {
            if s.phase == Phase::Shopping {
                shopping(record, p, &mut out);
            }
            if game.is_legal_as(Some(p), &Action::EndPhase) {
                out.push(Slot::Ready(json!({"type": "end_phase", "power": power(&game.ruleset, p)})));
            }
        }
        return out;
    }
    match s.phase {
        Phase::Research => research(record, &mut out),
        Phase::Purchase => purchases(record, &mut out),
        Phase::CombatMove | Phase::NoncombatMove => stacks(record, &mut out),
        Phase::Combat => battles(record, &mut out),
        Phase::Place => placements(record, &mut out),
        // Alternative: one phase of moving and fighting (ALT L42).
        Phase::Turn => {
            stacks(record, &mut out);
            battles(record, &mut out);
        }
        Phase::Income | Phase::Payday | Phase::Shopping => {}
    }
    if legal(record, &Action::EndPhase) {
        out.push(Slot::Ready(json!({"type": "end_phase"})));
    }
    out
}

/// Alternative shopping (ALT L24): what nation `p` can buy, and where it can
/// place what it has bought, each item naming `p`.
fn shopping(record: &Record, p: warboard_rules::PowerId, out: &mut Vec<Slot>) {
    let game = record.game();
    let (rs, s) = (&game.ruleset, &game.state);
    let name = power(rs, p);
    let bank = (s.ipcs.get(p.index()).copied().unwrap_or(0).max(0) as u32).min(MAX_NUMBER as u32);
    for kind in rs.unit_types().map(|u| u.kind) {
        if let Some(n) = most(bank, |n| game.is_legal_as(Some(p), &Action::Purchase { units: vec![(kind, n)] })) {
            out.push(Slot::Ready(json!({"type": "purchase", "unit": kind.name(), "cost": rs.stats(kind).cost, "max": n, "power": name})));
        }
    }
    let mut waiting: Vec<UnitType> = s.unplaced.get(&p).map(|m| m.keys().copied().collect()).unwrap_or_default();
    for k in s.purchased.keys() {
        if !waiting.contains(k) {
            waiting.push(*k);
        }
    }
    for at in rs.map.ids() {
        let kinds: Vec<&str> =
            waiting.iter().filter(|k| game.is_legal_as(Some(p), &Action::Place { at, units: vec![(**k, 1)] })).map(|k| k.name()).collect();
        if !kinds.is_empty() {
            out.push(Slot::Ready(json!({"type": "place", "at": space(rs, at), "units": kinds, "power": name})));
        }
    }
}

/// The largest `n` in `1..=max` for which `ok(n)` holds, if any, assuming
/// that `ok` holds up to some point and not after (more dice or units cost
/// more).
fn most(max: u32, ok: impl Fn(u32) -> bool) -> Option<u32> {
    if max == 0 || !ok(1) {
        return None;
    }
    let (mut lo, mut hi) = (1, max);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}

fn bank_bound(record: &Record) -> u32 {
    let s = record.state();
    let bank = s.ipcs.get(s.turn.index()).copied().unwrap_or(0).max(0) as u32;
    bank.min(MAX_NUMBER as u32)
}

fn research(record: &Record, out: &mut Vec<Slot>) {
    let max = bank_bound(record);
    // Anniversary: researchers work on a chart the player names; with
    // researchers held, none need be hired (`min_dice` 0: those held roll).
    // Classic's one chart takes `chart: 1` too, but is listed once, plain.
    let charts: &[u8] = if record.game().ruleset.options.research_charts == ResearchCharts::Anniversary { &[1, 2] } else { &[] };
    for &chart in charts {
        let on_chart = |n| legal(record, &Action::Research { dice: n, development: None, chart: Some(chart) });
        let free = on_chart(0);
        match (most(max, on_chart), free) {
            (Some(n), true) => out.push(Slot::Ready(json!({"type": "research", "chart": chart, "min_dice": 0, "max_dice": n}))),
            (Some(n), false) => out.push(Slot::Ready(json!({"type": "research", "chart": chart, "max_dice": n}))),
            (None, true) => out.push(Slot::Ready(json!({"type": "research", "chart": chart, "min_dice": 0, "max_dice": 0}))),
            (None, false) => {}
        }
    }
    let plain = |n| legal(record, &Action::Research { dice: n, development: None, chart: None });
    if let Some(n) = most(max, plain) {
        out.push(Slot::Ready(json!({"type": "research", "max_dice": n})));
        return;
    }
    // With research_breakthrough = "choose" the dice aim at a development.
    for d in Development::CHART {
        let aimed = |n| legal(record, &Action::Research { dice: n, development: Some(d), chart: None });
        if let Some(n) = most(max, aimed) {
            out.push(Slot::Ready(json!({"type": "research", "development": d.name(), "max_dice": n})));
        }
    }
}

fn purchases(record: &Record, out: &mut Vec<Slot>) {
    let max = bank_bound(record);
    repairs(record, out);
    for kind in record.game().ruleset.unit_types().map(|u| u.kind) {
        let buy = |n| Action::Purchase { units: vec![(kind, n)] };
        let Some(n) = most(max, |n| legal(record, &buy(n))) else { continue };
        let cost = match record.trial(&buy(1)) {
            Ok(events) => events.iter().find_map(|e| match e {
                Event::Purchased { cost, .. } => Some(*cost),
                _ => None,
            }),
            Err(_) => None,
        };
        out.push(Slot::Ready(json!({"type": "purchase", "unit": kind.name(), "cost": cost, "max": n})));
    }
}

/// Anniversary's repairs: for each of the power's damaged complexes, the
/// most damage markers it can remove now (1 IPC each).
fn repairs(record: &Record, out: &mut Vec<Slot>) {
    let game = record.game();
    let (rs, s) = (&game.ruleset, &game.state);
    let damaged: Vec<(SpaceId, u32)> =
        s.units.iter().filter(|u| u.owner == s.turn && rs.stats(u.kind).factory && u.hits > 0).map(|u| (u.at, u.hits as u32)).collect();
    for (at, hits) in damaged {
        if let Some(n) = most(hits, |n| legal(record, &Action::Repair { at, count: n })) {
            out.push(Slot::Ready(json!({"type": "repair", "at": space(rs, at), "damage": hits, "max": n})));
        }
    }
}

/// One slot per stack: the mover's units of one type in one space.
fn stacks(record: &Record, out: &mut Vec<Slot>) {
    let game = record.game();
    let s = &game.state;
    let mut by_stack: BTreeMap<(SpaceId, UnitType), usize> = BTreeMap::new();
    // The units the turn's power moves: its own, or (Alternative) those a
    // teammate lent it.
    for u in s.units.iter().filter(|u| u.mover() == s.turn && game.ruleset.stats(u.kind).movement > 0) {
        *by_stack.entry((u.at, u.kind)).or_default() += 1;
    }
    out.extend(by_stack.into_iter().map(|((from, kind), count)| Slot::Stack { from, kind, count }));
}

fn expand(record: &Record, slot: Slot) -> Value {
    match slot {
        Slot::Ready(v) => v,
        Slot::Stack { from, kind, count } => {
            let rs = &record.game().ruleset;
            let routes: Vec<Vec<String>> = routes(record, from, kind).iter().map(|r| r.iter().map(|s| space(rs, *s)).collect()).collect();
            json!({"type": "move", "from": space(rs, from), "unit": kind.name(), "count": count, "routes": routes})
        }
    }
}

/// One legal route to each space one unit of the stack can reach.
fn routes(record: &Record, from: SpaceId, kind: UnitType) -> Vec<Vec<SpaceId>> {
    let game = record.game();
    let s = &game.state;
    let stats = game.ruleset.stats(kind);
    let spent = s.units.iter().filter(|u| u.at == from && u.mover() == s.turn && u.kind == kind).map(|u| u.moved).min().unwrap_or(0);
    // A search bound, not a rule: long-range aircraft fly two further.
    let bonus = if stats.domain == Domain::Air && s.has_development(s.turn, Development::LongRangeAircraft) { 2 } else { 0 };
    let budget = (stats.movement + bonus).saturating_sub(spent) as u32;
    let selector = [Selector { kind: Some(kind), count: 1, id: None }];
    let map = &game.ruleset.map;
    let reach = routes::distances(map, from);
    let mut ok = |route: &[SpaceId]| {
        let Ok(units) = select::for_move(game, &selector, route) else { return false };
        legal(record, &Action::Move { units, route: route.to_vec(), transport: None, bombing: false })
    };
    map.ids()
        .filter(|t| *t != from && reach[t.index()] <= budget)
        .filter_map(|to| routes::shortest_route(map, from, to, budget, ROUTES_PER_DESTINATION, &mut ok))
        .collect()
}

fn battles(record: &Record, out: &mut Vec<Slot>) {
    let game = record.game();
    let s = &game.state;
    let rs = &game.ruleset;
    let mut places: Vec<SpaceId> = s.battles.iter().filter(|b| b.result == BattleResult::Pending).map(|b| b.at).collect();
    // The Alternative turn (ALT L32, L44): a battle is fought wherever the
    // mover's units share a space with the enemy's, with or without a
    // battle declared before.
    if s.phase == Phase::Turn {
        let rel = game.relations();
        for at in rs.map.ids() {
            let mine = s.units_at(at).any(|u| u.owner == s.turn);
            if mine && !places.contains(&at) && rel.enemy_units(s.turn, at).next().is_some() {
                places.push(at);
            }
        }
    }
    for at in places {
        for (kind, action) in [("battle", Action::Battle { at }), ("resolve", Action::Resolve { at: Some(at) })] {
            if legal(record, &action) {
                out.push(Slot::Ready(json!({"type": kind, "at": space(rs, at)})));
            }
        }
    }
    if s.has_development(s.turn, Development::Rockets) {
        let guns: Vec<SpaceId> = s.units.iter().filter(|u| u.owner == s.turn && rs.stats(u.kind).anti_aircraft > 0).map(|u| u.at).collect();
        let factories: Vec<SpaceId> =
            s.units.iter().filter(|u| rs.stats(u.kind).factory && !rs.allied(u.owner, s.turn)).map(|u| u.at).collect();
        for &from in &guns {
            for &at in &factories {
                if legal(record, &Action::Rocket { from, at }) {
                    out.push(Slot::Ready(json!({"type": "rocket", "from": space(rs, from), "at": space(rs, at)})));
                }
            }
        }
    }
}

fn battle_choices(record: &Record, i: usize, decision: Decision, out: &mut Vec<Slot>) {
    let game = record.game();
    let s = &game.state;
    let rs = &game.ruleset;
    let b = &s.battles[i];
    let at = space(rs, b.at);
    match decision {
        Decision::Casualties { side, hits, candidates, choice } => {
            let default = battle::default_casualties(rs, s, &choice, side == BattleSide::Attacker);
            let views: Vec<UnitView> = candidates.iter().filter_map(|id| s.unit(*id)).map(|u| unit_view(rs, u)).collect();
            let default: Vec<Value> = default.iter().map(|id| json!({"id": unit_name(*id)})).collect();
            out.push(Slot::Ready(json!({
                "type": "casualties", "at": at, "hits": hits, "candidates": views, "default": default,
            })));
        }
        Decision::PressOrRetreat | Decision::AttackerSubmarines | Decision::DefenderSubmarines => {
            if legal(record, &Action::Continue) {
                out.push(Slot::Ready(json!({"type": "continue"})));
            }
            let mut retreats: Vec<Option<SpaceId>> = b.came_from.iter().copied().map(Some).collect();
            retreats.dedup();
            retreats.push(None);
            for to in retreats {
                if legal(record, &Action::Retreat { to }) {
                    out.push(Slot::Ready(match to {
                        Some(to) => json!({"type": "retreat", "to": space(rs, to)}),
                        None => json!({"type": "retreat"}),
                    }));
                }
            }
            if !matches!(decision, Decision::PressOrRetreat) {
                submerges(record, i, out);
            }
        }
    }
}

/// All the deciding side's submarines withdrawing to each zone that takes them.
fn submerges(record: &Record, i: usize, out: &mut Vec<Slot>) {
    let game = record.game();
    let rs = &game.ruleset;
    let b = &game.state.battles[i];
    let selector = |n| [Selector { kind: Some(UnitType::Submarine), count: n, id: None }];
    // How many submarines the deciding side has: the most the selector finds.
    let Some(n) = most(64, |n| select::for_battle(game, &selector(n)).is_ok()) else { return };
    let Ok(units) = select::for_battle(game, &selector(n)) else { return };
    // Submerging where they are (Anniversary, Europe); classic's only
    // withdraw to a zone (DAAK 4.2).
    if legal(record, &Action::Submerge { units: units.clone(), to: None }) {
        out.push(Slot::Ready(json!({"type": "submerge", "units": [{"type": "submarine", "count": n}]})));
    }
    for &to in rs.map.neighbours(b.at) {
        if legal(record, &Action::Submerge { units: units.clone(), to: Some(to) }) {
            out.push(Slot::Ready(json!({
                "type": "submerge", "units": [{"type": "submarine", "count": n}], "to": space(rs, to),
            })));
        }
    }
}

fn placements(record: &Record, out: &mut Vec<Slot>) {
    let game = record.game();
    let rs = &game.ruleset;
    let waiting: Vec<UnitType> = game.state.purchased.keys().copied().collect();
    for at in rs.map.ids() {
        let kinds: Vec<&str> =
            waiting.iter().filter(|k| legal(record, &Action::Place { at, units: vec![(**k, 1)] })).map(|k| k.name()).collect();
        if !kinds.is_empty() {
            out.push(Slot::Ready(json!({"type": "place", "at": space(rs, at), "units": kinds})));
        }
    }
}
