//! Building a game from a case's `setup` and `state`, and turning the case's
//! JSON actions into rules-core actions (FORMAT.md).

use serde_json::Value;
use std::collections::HashMap;
use warboard_rules::game::Game;
use warboard_rules::ids::{PowerId, Side, SpaceId, UnitId, UnitType};
use warboard_rules::ruleset::SetupUnit;
use warboard_rules::select::{self, Selector};
use warboard_rules::state::{Development, Phase};
use warboard_rules::{Action, DiceSource, FixedDice, ScriptedDice};

/// A loaded case: the game at its start, the names its units were given,
/// and its dice.
pub struct Loaded {
    pub game: Game,
    pub names: HashMap<String, UnitId>,
    pub dice: Box<dyn DiceSource>,
}

pub fn field<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.get(key).filter(|x| !x.is_null())
}

pub fn space(game: &Game, v: &Value) -> Result<SpaceId, String> {
    let name = v.as_str().ok_or_else(|| format!("a space id must be a string, not {v}"))?;
    game.ruleset.map.id(name).ok_or_else(|| format!("unknown territory or sea zone `{name}`"))
}

pub fn power(game: &Game, v: &Value) -> Result<PowerId, String> {
    let name = v.as_str().ok_or_else(|| format!("a power must be a string, not {v}"))?;
    game.ruleset.power_by_name(name).ok_or_else(|| format!("unknown power `{name}`"))
}

pub fn unit_type(game: &Game, v: &Value) -> Result<UnitType, String> {
    let name = v.as_str().ok_or_else(|| format!("a unit type must be a string, not {v}"))?;
    UnitType::parse(name)
        .filter(|t| game.ruleset.unit(*t).is_some())
        .ok_or_else(|| format!("unknown unit type `{name}` in ruleset {}", game.ruleset.name))
}

fn count(v: Option<&Value>) -> Result<u32, String> {
    match v {
        None => Ok(1),
        Some(c) => c.as_u64().filter(|n| *n >= 1).and_then(|n| u32::try_from(n).ok()).ok_or_else(|| format!("a count must be a whole number from 1, not {c}")),
    }
}

/// Builds the starting game of a case.
pub fn load(case: &Value) -> Result<Loaded, String> {
    let ruleset_name = field(case, "ruleset").and_then(Value::as_str).unwrap_or("classic");
    let base = warboard_rules::ruleset(ruleset_name).map_err(|e| e.to_string())?;
    let mut ruleset = (*base).clone();
    if let Some(opts) = field(case, "options") {
        let obj = opts.as_object().ok_or("`options` must be an object")?;
        for (k, v) in obj {
            let tv: toml::Value = serde_json::from_value(v.clone()).map_err(|e| format!("option `{k}`: {e}"))?;
            ruleset.options.set(k, &tv)?;
        }
    }
    let ruleset = std::sync::Arc::new(ruleset);
    let mut game = match field(case, "setup").and_then(Value::as_str).unwrap_or("empty") {
        "empty" => Game::empty(ruleset),
        "standard" => Game::standard(ruleset),
        other => return Err(format!("unknown setup `{other}` (empty or standard)")),
    };
    let mut names = HashMap::new();
    if let Some(state) = field(case, "state") {
        apply_state(&mut game, state, &mut names)?;
    }
    game.settle_position();
    let dice: Box<dyn DiceSource> = match field(case, "dice") {
        None => Box::new(FixedDice(6)),
        Some(Value::String(s)) if s == "hit" => Box::new(FixedDice(1)),
        Some(Value::String(s)) if s == "miss" => Box::new(FixedDice(6)),
        Some(Value::Array(list)) => {
            let mut values = Vec::new();
            for d in list {
                match d.as_u64() {
                    Some(v @ 1..=6) => values.push(v as u8),
                    _ => return Err(format!("a die shows 1 to 6, not {d}")),
                }
            }
            Box::new(ScriptedDice::new(values))
        }
        Some(other) => return Err(format!("`dice` is \"hit\", \"miss\" or a list of die values, not {other}")),
    };
    Ok(Loaded { game, names, dice })
}

fn apply_state(game: &mut Game, state: &Value, names: &mut HashMap<String, UnitId>) -> Result<(), String> {
    if let Some(r) = field(state, "round") {
        game.state.round = r.as_u64().filter(|r| *r >= 1).and_then(|r| u32::try_from(r).ok()).ok_or("`round` counts from 1")?;
    }
    if let Some(t) = field(state, "turn") {
        game.state.turn = power(game, t)?;
    }
    if let Some(p) = field(state, "phase") {
        let name = p.as_str().unwrap_or("");
        game.state.phase = Phase::parse(name).ok_or_else(|| format!("unknown phase `{name}`"))?;
    }
    if let Some(c) = field(state, "control") {
        for (t, p) in c.as_object().ok_or("`control` must be an object")? {
            let at = space(game, &Value::String(t.clone()))?;
            if game.ruleset.map.is_sea(at) {
                return Err(format!("{t} is a sea zone: nobody controls it"));
            }
            game.state.control[at.index()] = if p == "neutral" { None } else { Some(power(game, p)?) };
        }
    }
    if let Some(i) = field(state, "ipcs") {
        for (p, v) in i.as_object().ok_or("`ipcs` must be an object")? {
            let pid = power(game, &Value::String(p.clone()))?;
            game.state.ipcs[pid.index()] = v.as_i64().filter(|v| *v >= 0).ok_or_else(|| format!("ipcs of {p} must be a whole number from 0"))? as i32;
        }
    }
    let mut placed = Vec::new();
    if let Some(units) = field(state, "units") {
        for entry in units.as_array().ok_or("`units` must be a list")? {
            let at = space(game, field(entry, "at").ok_or("a unit entry needs `at`")?)?;
            add_entry(game, entry, at, None, names, &mut placed)?;
        }
    }
    let problems = warboard_rules::setup::placement_problems(&game.ruleset, &placed);
    if let Some((entry, problem)) = problems.first() {
        return Err(format!("state.units: {entry}: {problem}"));
    }
    if let Some(p) = field(state, "purchased") {
        for (t, n) in p.as_object().ok_or("`purchased` must be an object")? {
            let kind = unit_type(game, &Value::String(t.clone()))?;
            let n = n.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| format!("purchased {t} must be a count"))?;
            if n > 0 {
                game.state.purchased.insert(kind, n);
            }
        }
    }
    Ok(())
}

fn add_entry(
    game: &mut Game,
    entry: &Value,
    at: SpaceId,
    carrier: Option<UnitId>,
    names: &mut HashMap<String, UnitId>,
    placed: &mut Vec<SetupUnit>,
) -> Result<(), String> {
    let owner = power(game, field(entry, "owner").ok_or("a unit entry needs `owner`")?)?;
    let kind = unit_type(game, field(entry, "type").ok_or("a unit entry needs `type`")?)?;
    let n = count(field(entry, "count"))?;
    let name = field(entry, "id").and_then(Value::as_str);
    if name.is_some() && n != 1 {
        return Err("a unit entry with an `id` has count 1".into());
    }
    let hits = field(entry, "hits").map(|v| v.as_u64().unwrap_or(0) as u8).unwrap_or(0);
    let moved = field(entry, "moved").map(|v| v.as_u64().unwrap_or(0) as u8).unwrap_or(0);
    let stats = game.ruleset.stats(kind).clone();
    if carrier.is_none() || stats.is_air() {
        placed.push(SetupUnit { at, owner, kind, count: n });
    }
    for _ in 0..n {
        let id = game.state.add_unit(kind, owner, at);
        let u = game.state.unit_mut(id).unwrap();
        u.hits = hits;
        u.moved = moved;
        u.carried_by = carrier;
        if let Some(name) = name {
            if names.insert(name.to_string(), id).is_some() {
                return Err(format!("two units are named `{name}`"));
            }
        }
        if let Some(cargo) = field(entry, "cargo") {
            if stats.transport_capacity == 0 && stats.carrier_capacity == 0 {
                return Err(format!("a {kind} carries no cargo"));
            }
            for c in cargo.as_array().ok_or("`cargo` must be a list")? {
                add_entry(game, c, at, Some(id), names, placed)?;
            }
            let used: u32 = game
                .state
                .cargo_of(id)
                .map(|c| {
                    let st = game.ruleset.stats(c.kind);
                    if stats.transport_capacity > 0 { st.transport_cost as u32 } else { st.carrier_cost as u32 }
                })
                .sum();
            let cap = stats.transport_capacity.max(stats.carrier_capacity) as u32;
            if used > cap {
                return Err(format!("the cargo of a {kind} at {} is more than it can carry", game.ruleset.map.name(at)));
            }
        }
    }
    Ok(())
}

fn selectors(game: &Game, names: &HashMap<String, UnitId>, v: Option<&Value>) -> Result<Vec<Selector>, String> {
    let list = v.and_then(Value::as_array).ok_or("`units` must be a list of selectors")?;
    list.iter()
        .map(|s| {
            if let Some(name) = field(s, "id") {
                let name = name.as_str().ok_or("a unit `id` is a string")?;
                let id = names.get(name).copied().ok_or_else(|| format!("no unit is named `{name}`"))?;
                Ok(Selector { kind: None, count: 1, id: Some(id) })
            } else {
                let kind = unit_type(game, field(s, "type").ok_or("a selector names `type` or `id`")?)?;
                Ok(Selector { kind: Some(kind), count: count(field(s, "count"))?, id: None })
            }
        })
        .collect()
}

fn unit_counts(game: &Game, v: Option<&Value>) -> Result<Vec<(UnitType, u32)>, String> {
    let obj = v.and_then(Value::as_object).ok_or("`units` must be an object of type → count")?;
    obj.iter()
        .map(|(t, n)| {
            let kind = unit_type(game, &Value::String(t.clone()))?;
            let n = n.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| format!("the count of {t} must be a whole number"))?;
            Ok((kind, n))
        })
        .collect()
}

/// Why an action could not be turned into a rules-core action: the case is
/// malformed, or the units it names are not there (then the action is
/// simply illegal).
pub enum ParseError {
    Malformed(String),
    NoSuchUnits(String),
}

/// Turns one JSON action into a rules-core action on the current game.
pub fn action(game: &Game, names: &HashMap<String, UnitId>, v: &Value) -> Result<Action, ParseError> {
    use ParseError::*;
    let m = |e: String| Malformed(e);
    let ty = field(v, "type").and_then(Value::as_str).ok_or_else(|| Malformed("an action needs a `type`".into()))?;
    Ok(match ty {
        "research" => Action::Research {
            dice: field(v, "dice").and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok()).ok_or_else(|| Malformed("research needs `dice`: a whole number".into()))?,
            development: match field(v, "development").and_then(Value::as_str) {
                None => None,
                Some(name) => Some(Development::parse(name).ok_or_else(|| Malformed(format!("unknown development `{name}`")))?),
            },
        },
        "rocket" => Action::Rocket {
            from: space(game, field(v, "from").ok_or_else(|| Malformed("`rocket` needs `from`".into()))?).map_err(m)?,
            at: space(game, field(v, "at").ok_or_else(|| Malformed("`rocket` needs `at`".into()))?).map_err(m)?,
        },
        "purchase" => Action::Purchase { units: unit_counts(game, field(v, "units")).map_err(m)? },
        "move" => {
            let route: Vec<SpaceId> = field(v, "route")
                .and_then(Value::as_array)
                .ok_or_else(|| Malformed("a move needs a `route`".into()))?
                .iter()
                .map(|s| space(game, s))
                .collect::<Result<_, _>>()
                .map_err(m)?;
            let transport = match field(v, "transport") {
                None => None,
                Some(t) => {
                    let name = t.as_str().ok_or_else(|| Malformed("`transport` names a unit id".into()))?;
                    Some(*names.get(name).ok_or_else(|| Malformed(format!("no unit is named `{name}`")))?)
                }
            };
            let sels = selectors(game, names, field(v, "units")).map_err(m)?;
            let units = select::for_move_with(game, &sels, &route, transport).map_err(NoSuchUnits)?;
            let bombing = field(v, "bombing").and_then(Value::as_bool).unwrap_or(false);
            Action::Move { units, route, transport, bombing }
        }
        "end_phase" => Action::EndPhase,
        "battle" => Action::Battle { at: space(game, field(v, "at").ok_or_else(|| Malformed("`battle` needs `at`".into()))?).map_err(m)? },
        "casualties" => {
            let sels = selectors(game, names, field(v, "units")).map_err(m)?;
            Action::Casualties { units: select::for_battle(game, &sels).map_err(NoSuchUnits)? }
        }
        "continue" => Action::Continue,
        "retreat" => Action::Retreat { to: field(v, "to").map(|t| space(game, t)).transpose().map_err(m)? },
        "submerge" => {
            let sels = selectors(game, names, field(v, "units")).map_err(m)?;
            Action::Submerge {
                units: select::for_battle(game, &sels).map_err(NoSuchUnits)?,
                to: field(v, "to").map(|t| space(game, t)).transpose().map_err(m)?,
            }
        }
        "resolve" => Action::Resolve { at: field(v, "at").map(|t| space(game, t)).transpose().map_err(m)? },
        "place" => Action::Place {
            at: space(game, field(v, "at").ok_or_else(|| Malformed("`place` needs `at`".into()))?).map_err(m)?,
            units: unit_counts(game, field(v, "units")).map_err(m)?,
        },
        "surrender" => {
            let s = field(v, "side").and_then(Value::as_str).unwrap_or("");
            Action::Surrender { side: Side::parse(s).ok_or_else(|| Malformed(format!("unknown side `{s}`")))? }
        }
        other => return Err(Malformed(format!("unknown action type `{other}`"))),
    })
}
