//! Building a game from a case's `setup` and `state`, and turning the case's
//! JSON actions into rules-core actions (FORMAT.md); and the vocabulary
//! both are checked against: which fields each object may have, and which
//! of FORMAT v2's additions each ruleset has.

use serde_json::{Map, Value};
use std::collections::HashMap;
use warboard_rules::game::Game;
use warboard_rules::ids::{PowerId, SpaceId, UnitId, UnitType};
use warboard_rules::ruleset::{ResearchCharts, SetupUnit};
use warboard_rules::select::{self, Selector};
use warboard_rules::state::{Development, Phase};
use warboard_rules::{Action, DiceSource, FixedDice, Ruleset, ScriptedDice};

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
    power_in(&game.ruleset, v)
}

fn power_in(rs: &Ruleset, v: &Value) -> Result<PowerId, String> {
    let name = v.as_str().ok_or_else(|| format!("a power must be a string, not {v}"))?;
    rs.power_by_name(name).ok_or_else(|| format!("unknown power `{name}` in ruleset {}", rs.name))
}

/// A list of development names (`state.tech`, check `tech`) as the rules
/// core's set, each a development of the ruleset's charts.
pub fn development_set(rs: &Ruleset, list: &Value) -> Result<u16, String> {
    let names = list.as_array().ok_or_else(|| format!("a list of development names, not {list}"))?;
    let known: Vec<Development> = match rs.options.research_charts {
        ResearchCharts::Classic => Development::CHART.to_vec(),
        ResearchCharts::Anniversary => Development::CHART_1.iter().chain(&Development::CHART_2).copied().collect(),
    };
    let mut set = 0u16;
    for name in names {
        let name = name.as_str().ok_or_else(|| format!("a development name is a string, not {name}"))?;
        let d = Development::parse(name).filter(|d| known.contains(d)).ok_or_else(|| {
            let all: Vec<&str> = known.iter().map(|d| d.name()).collect();
            format!("unknown development `{name}` (known: {})", all.join(", "))
        })?;
        let bit = d.bit();
        if set & bit != 0 {
            return Err(format!("`{name}` is listed twice"));
        }
        set |= bit;
    }
    Ok(set)
}

/// The names of a development set, for messages.
pub fn development_names(set: u16) -> String {
    let names: Vec<&str> = Development::ALL.into_iter().filter(|d| set & d.bit() != 0).map(Development::name).collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
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
    let vocabulary = Vocabulary::of(&base);
    vocabulary.object(case, &[&CASE], "the case")?;
    if let Some(state) = field(case, "state") {
        vocabulary.state(state)?;
    }
    let mut ruleset = (*base).clone();
    if let Some(opts) = field(case, "options") {
        let obj = opts.as_object().ok_or("`options` must be an object")?;
        for (k, v) in obj {
            let tv: toml::Value = serde_json::from_value(v.clone()).map_err(|e| format!("option `{k}`: {e}"))?;
            ruleset.options.set(k, &tv)?;
        }
        ruleset.apply_board_options()?;
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

/// A position corrected in a game in progress (a correction by consent,
/// warboard_record's table entries): FORMAT.md `state` changes limited to
/// `ipcs` (banks set), `control` and `units` (added), read with the case
/// vocabulary's checks, and units removed (with what they carry). The turn
/// order, the turn's start and what it conquered stay as they were: the
/// correction fixes the board, not the turn's history.
pub fn correct_position(game: &mut Game, changes: &Value, remove: &[UnitId]) -> Result<(), String> {
    const CORRECTABLE: [&str; 3] = ["ipcs", "control", "units"];
    let object = changes.as_object().ok_or("the corrected position is an object of FORMAT.md `state` fields")?;
    if let Some(k) = object.keys().find(|k| !CORRECTABLE.contains(&k.as_str())) {
        return Err(format!("a correction sets `ipcs`, `control` and `units`, not `{k}`"));
    }
    Vocabulary::of(&game.ruleset).state(changes)?;
    if let Some(missing) = remove.iter().find(|id| game.state.unit(**id).is_none()) {
        return Err(format!("unit u{} is not on the board", missing.0));
    }
    let kept = (game.state.order.clone(), game.state.start_control.clone(), game.state.conquered.clone());
    game.state.remove_units(remove);
    apply_state(game, changes, &mut HashMap::new())?;
    // Convoys and combined nations follow the new board as at any start.
    game.settle_position();
    (game.state.order, game.state.start_control, game.state.conquered) = kept;
    Ok(())
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
            // Convoy zones have a controller (FORMAT.md v2, "Convoys").
            if game.ruleset.map.is_sea(at) && game.ruleset.map.space(at).convoy.is_none() {
                return Err(format!("{t} is a sea zone: nobody controls it"));
            }
            game.state.control[at.index()] = if p == "neutral" { None } else { Some(power(game, p)?) };
        }
    }
    if let Some(t) = field(state, "tech") {
        for (p, list) in t.as_object().ok_or("`tech` must be an object: power → developments")? {
            let pid = power(game, &Value::String(p.clone()))?;
            // The list is what the power holds, not an addition to its setup.
            game.state.developments[pid.index()] = development_set(&game.ruleset, list).map_err(|e| format!("tech of {p}: {e}"))?;
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
    if let Some(r) = field(state, "researchers") {
        for (p, n) in r.as_object().ok_or("`researchers` must be an object: power → tokens")? {
            let pid = power(game, &Value::String(p.clone()))?;
            game.state.researchers[pid.index()] = n.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| format!("researchers of {p} must be a count"))?;
        }
    }
    if let Some(u) = field(state, "unplaced") {
        for (p, types) in u.as_object().ok_or("`unplaced` must be an object: power → type → count")? {
            let pid = power(game, &Value::String(p.clone()))?;
            for (t, n) in types.as_object().ok_or_else(|| format!("unplaced of {p} must be an object: type → count"))? {
                let kind = unit_type(game, &Value::String(t.clone()))?;
                let n = n.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| format!("unplaced {t} of {p} must be a count"))?;
                if n > 0 {
                    *game.state.unplaced.entry(pid).or_default().entry(kind).or_default() += n;
                }
            }
        }
    }
    if let Some(o) = field(state, "order") {
        let list = o.as_array().ok_or("`order` must be a list of powers")?;
        game.state.order = list.iter().map(|p| power(game, p)).collect::<Result<_, _>>()?;
    } else if game.ruleset.options.turn_order_by_income && game.state.phase != Phase::Payday {
        // FORMAT.md v2: without `state.order`, the nations in play by
        // decreasing income, ties in power order.
        let g = &*game;
        let mut order: Vec<PowerId> = g.ruleset.power_ids().filter(|p| g.relations().in_game(*p)).collect();
        order.sort_by_key(|p| -g.income(*p));
        game.state.order = order;
    }
    if let Some(e) = field(state, "eliminated") {
        let list = e.as_array().ok_or("`eliminated` must be a list of powers")?;
        game.state.eliminated = list.iter().map(|p| power(game, p)).collect::<Result<_, _>>()?;
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
    let name = match field(entry, "id") {
        None => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(other) => return Err(format!("a unit's `id` is a name (a string), not {other}")),
    };
    if name.is_some() && n != 1 {
        return Err("a unit entry with an `id` has count 1".into());
    }
    // Counts that do not fit a unit's byte are refused, never wrapped
    // (issue 34: `hits` 257 became 1).
    let byte = |name: &str| -> Result<u8, String> {
        match field(entry, name) {
            None => Ok(0),
            Some(v) => v.as_u64().and_then(|n| u8::try_from(n).ok()).ok_or_else(|| format!("`{name}` is a count from 0 to 255, not {v}")),
        }
    };
    let mut hits = byte("hits")?;
    // v2 `damage`: an industrial complex's damage markers (kept as its hits).
    if let Some(d) = field(entry, "damage") {
        if !game.ruleset.stats(kind).factory {
            return Err(format!("only an industrial complex has `damage`, not a {kind}"));
        }
        hits = d.as_u64().and_then(|n| u8::try_from(n).ok()).ok_or_else(|| format!("`damage` is a count, not {d}"))?;
    }
    let moved = byte("moved")?;
    let stats = game.ruleset.stats(kind).clone();
    // v2: a sub that submerged in a battle this turn (out of it for good).
    let submerged = match field(entry, "submerged") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("`submerged` is true or false, not {other}")),
    };
    let controller = field(entry, "controller").map(|c| power(game, c)).transpose()?.filter(|c| *c != owner);
    if submerged && !stats.submarine {
        return Err(format!("only a submarine is `submerged`, not a {kind}"));
    }
    if carrier.is_none() || stats.is_air() {
        placed.push(SetupUnit { at, owner, kind, count: n });
    }
    for _ in 0..n {
        let id = game.state.add_unit(kind, owner, at);
        let u = game.state.unit_mut(id).unwrap();
        u.hits = hits;
        u.moved = moved;
        u.carried_by = carrier;
        u.flags.submerged = submerged;
        u.controller = controller;
        if let Some(name) = name {
            // `u<number>` is the engine's own name of unit `number`
            // (protocol, saves): a position may use it only for that unit,
            // or `{"id": "u1"}` would later name another unit (issue 16,
            // finding 8).
            if let Some(digits) = name.strip_prefix('u').filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) {
                if digits.parse::<u64>().ok() != Some(u64::from(id.0)) {
                    return Err(format!(
                        "unit name `{name}` has the engine's shape u<number>, which always names the unit numbered so, and this unit is u{}: name it otherwise",
                        id.0
                    ));
                }
            }
            if names.insert(name.to_string(), id).is_some() {
                return Err(format!("two units are named `{name}`"));
            }
        }
        if let Some(cargo) = field(entry, "cargo") {
            // The unit table's cargo model: room, and the domains carried;
            // each piece of cargo takes its `cargo_size` (0: never carried).
            let Some(hold) = stats.cargo.clone() else {
                return Err(format!("a {kind} carries no cargo"));
            };
            for c in cargo.as_array().ok_or("`cargo` must be a list")? {
                add_entry(game, c, at, Some(id), names, placed)?;
            }
            let mut used: u32 = 0;
            for c in game.state.cargo_of(id) {
                let st = game.ruleset.stats(c.kind);
                if !hold.carries.contains(&st.domain) || st.cargo_size == 0 {
                    return Err(format!("`{kind}` cannot carry `{}`", c.kind));
                }
                used += st.cargo_size as u32;
            }
            if used > hold.capacity as u32 {
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
    let ty = Vocabulary::of(&game.ruleset).action(v).map_err(Malformed)?.name;
    Ok(match ty {
        "research" => Action::Research {
            dice: field(v, "dice")
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| Malformed("research needs `dice`: a whole number".into()))?,
            // Classic has one chart (the shared checker allows `chart` there);
            // Anniversary's two are numbered 1 and 2.
            chart: match (field(v, "chart"), game.ruleset.options.research_charts) {
                (None, _) => None,
                (Some(c), ResearchCharts::Classic) if c.as_u64() == Some(1) => None,
                (Some(c), ResearchCharts::Classic) => return Err(Malformed(format!("the {} ruleset has one research chart: `chart` is 1, not {c}", game.ruleset.name))),
                (Some(c), ResearchCharts::Anniversary) => match c.as_u64() {
                    Some(n @ 1..=2) => Some(n as u8),
                    _ => return Err(Malformed(format!("`chart` is 1 or 2, not {c}"))),
                },
            },
            development: match field(v, "development").and_then(Value::as_str) {
                None => None,
                Some(name) => Some(Development::parse(name).ok_or_else(|| Malformed(format!("unknown development `{name}`")))?),
            },
        },
        "rocket" => Action::Rocket {
            from: space(game, field(v, "from").ok_or_else(|| Malformed("`rocket` needs `from`".into()))?).map_err(m)?,
            at: space(game, field(v, "at").ok_or_else(|| Malformed("`rocket` needs `at`".into()))?).map_err(m)?,
        },
        "repair" => Action::Repair {
            at: space(game, field(v, "at").ok_or_else(|| Malformed("`repair` needs `at`".into()))?).map_err(m)?,
            count: field(v, "count").and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok()).ok_or_else(|| Malformed("`repair` needs `count`: a whole number".into()))?,
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
            let mover = acting_power(game, v).map_err(m)?.unwrap_or(game.state.turn);
            let units = select::for_move_by(game, mover, &sels, &route, transport).map_err(NoSuchUnits)?;
            // FORMAT v2 `escort`: fighters joining a raid declared earlier
            // in this combat move; the rules core calls both a raid move.
            let bombing = field(v, "bombing").and_then(Value::as_bool).unwrap_or(false) || field(v, "escort").and_then(Value::as_bool).unwrap_or(false);
            // FORMAT v2 `give` (Alternative `assisting_teammates`).
            match field(v, "give") {
                Some(to) => Action::Lend { units, route, to: power(game, to).map_err(m)? },
                None => Action::Move { units, route, transport, bombing },
            }
        }
        "end_phase" => Action::EndPhase,
        "battle" => Action::Battle { at: space(game, field(v, "at").ok_or_else(|| Malformed("`battle` needs `at`".into()))?).map_err(m)? },
        "casualties" => {
            let sels = selectors(game, names, field(v, "units")).map_err(m)?;
            Action::Casualties { units: select::for_battle(game, &sels).map_err(NoSuchUnits)? }
        }
        "continue" => Action::Continue,
        // FORMAT v2: `decline` is the asked side's "no" to its submerge (or
        // withdraw) choice. Classic asks the attacker and the defender each
        // on its own, and either says no by going on: `continue`. Where no
        // such choice is open the rules core rejects it.
        "decline" => Action::Continue,
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
        "intercept" => {
            let at = space(game, field(v, "at").ok_or_else(|| Malformed("`intercept` needs `at`".into()))?).map_err(m)?;
            let sels = selectors(game, names, field(v, "units")).map_err(m)?;
            let by = acting_power(game, v).map_err(m)?.ok_or_else(|| Malformed("`intercept` names the defending `power`".into()))?;
            Action::Intercept { at, units: select::for_intercept(game, &sels, at, by).map_err(NoSuchUnits)? }
        }
        "convert" => {
            let at = space(game, field(v, "at").ok_or_else(|| Malformed("`convert` needs `at`".into()))?).map_err(m)?;
            let sels = selectors(game, names, field(v, "units")).map_err(m)?;
            Action::Convert { at, units: select::for_convert(game, &sels, at).map_err(NoSuchUnits)? }
        }
        // FORMAT v2: `surrender` by `power` alone: that nation gives up.
        "surrender" if field(v, "side").is_none() => {
            let p = acting_power(game, v).map_err(m)?.ok_or_else(|| Malformed("`surrender` names a `side` or a `power`".into()))?;
            Action::SurrenderNation { power: p }
        }
        "reclaim" => {
            let at = space(game, field(v, "at").ok_or_else(|| Malformed("`reclaim` needs `at`".into()))?).map_err(m)?;
            let sels = selectors(game, names, field(v, "units")).map_err(m)?;
            Action::Reclaim { at, units: select::for_reclaim(game, &sels, at).map_err(NoSuchUnits)? }
        }
        "surrender" => {
            // v1: `axis` or `allies`; v2, Alternative: a team of the `teams`
            // option (the rules refuse a team the game does not have).
            let s = field(v, "side").and_then(Value::as_str).ok_or_else(|| Malformed("`surrender` names a `side` (a team) or a `power`".into()))?;
            Action::Surrender { team: s.to_string() }
        }
        // The vocabulary let through a type that is in the ruleset's row of
        // ADDITIONS but that is not read here yet.
        other => return Err(Malformed(format!("action `{other}` is not read for ruleset {} yet", game.ruleset.name))),
    })
}

/// The power an action names with FORMAT v2's `power`, if it names one.
pub fn acting_power(game: &Game, v: &Value) -> Result<Option<PowerId>, String> {
    field(v, "power").map(|p| power(game, p)).transpose()
}

// The vocabulary. The reader is strict (FORMAT.md, "Additions in v2": an
// unknown field, action or check, or one the case's ruleset does not have,
// makes the case fail to load): a misspelt field that was silently ignored
// would leave the case testing something other than what its author meant.

/// The fields one kind of object may have. Those of FORMAT v1 are in every
/// ruleset; one that v2 adds only in the rulesets whose row of [`ADDITIONS`]
/// names it as `scope.field`.
pub struct Fields {
    pub(crate) scope: &'static str,
    pub(crate) v1: &'static [&'static str],
    pub(crate) v2: &'static [&'static str],
}

const CASE: Fields = Fields {
    scope: "case",
    v1: &["id", "source", "comment", "ruleset", "options", "setup", "state", "dice", "steps"],
    v2: &[],
};
const STATE: Fields = Fields {
    scope: "state",
    v1: &["round", "turn", "phase", "control", "ipcs", "units", "purchased"],
    v2: &["tech", "researchers", "unplaced", "order", "eliminated"],
};
const UNIT_V2: &[&str] = &["controller", "submerged", "damage"];
const UNIT: Fields = Fields { scope: "unit", v1: &["at", "owner", "type", "count", "id", "cargo", "hits", "moved"], v2: UNIT_V2 };
/// A unit aboard another: as [`UNIT`] without `at` (it is where its carrier is).
const CARGO: Fields = Fields { scope: "unit", v1: &["owner", "type", "count", "id", "cargo", "hits", "moved"], v2: UNIT_V2 };
pub(crate) const STEP: Fields = Fields { scope: "step", v1: &["action", "expect", "check"], v2: &[] };
const SELECTOR: Fields = Fields { scope: "selector", v1: &["type", "count", "id"], v2: &[] };
/// The fields of every action: its `type`, and v2's `power` (who takes it).
const ANY_ACTION: Fields = Fields { scope: "action", v1: &["type"], v2: &["power"] };

/// An action type with its own fields. A v2 type is in a ruleset only when
/// its row of [`ADDITIONS`] names it as `action.type`; its own fields are
/// then all its.
pub struct ActionType {
    pub(crate) name: &'static str,
    v2: bool,
    fields: Fields,
}

const fn v1_action(name: &'static str, v1: &'static [&'static str], v2: &'static [&'static str]) -> ActionType {
    ActionType { name, v2: false, fields: Fields { scope: name, v1, v2 } }
}

const fn v2_action(name: &'static str, fields: &'static [&'static str]) -> ActionType {
    ActionType { name, v2: true, fields: Fields { scope: name, v1: fields, v2: &[] } }
}

const ACTIONS: &[ActionType] = &[
    // `development` is warboard's, not FORMAT's: the development aimed at
    // under the `research_breakthrough = "choose"` option (engine protocol).
    v1_action("research", &["dice"], &["chart", "development"]),
    v1_action("purchase", &["units"], &[]),
    v1_action("move", &["units", "route", "transport", "bombing"], &["escort", "give"]),
    v1_action("end_phase", &[], &[]),
    v1_action("battle", &["at"], &[]),
    v1_action("casualties", &["units"], &[]),
    v1_action("continue", &[], &[]),
    v1_action("retreat", &["to"], &[]),
    v1_action("submerge", &["units", "to"], &[]),
    v1_action("resolve", &["at"], &[]),
    v1_action("place", &["at", "units"], &[]),
    v1_action("surrender", &["side"], &[]),
    v2_action("rocket", &["from", "at"]),
    v2_action("repair", &["at", "count"]),
    v2_action("convert", &["at", "units"]),
    v2_action("intercept", &["at", "units"]),
    v2_action("decline", &[]),
    v2_action("reclaim", &["at", "units"]),
];

/// The additions of FORMAT v2 that each ruleset has, as `scope.name`: a
/// field (`state.tech`, `move.escort`, `action.power`), an action type
/// (`action.decline`), a check (`check.to_place`) or an income part
/// (`income_detail.territories`). Whatever v2 adds and a ruleset's row does
/// not name is "not part of" that ruleset, and a case using it fails to load.
/// A ruleset without a row has v1 only: each ruleset that is built in adds
/// its row here.
const ADDITIONS: &[(&str, &[&str])] = &[
(
    "classic",
    &[
        "action.power",
        // Weapons development (DAAK plays without it; the rules core has it).
        "state.tech",
        "check.tech",
        "research.development",
        // The rockets development's AA fire at a factory (rules/classic.md §4).
        "action.rocket",
        "check.to_place",
        // Classic's income is its territories; it has no national objectives,
        // so `objectives` is 0 where a case lists it.
        "check.income_detail",
        "income_detail.territories",
        "income_detail.objectives",
        // Read as `continue` (see [`action`]).
        "action.decline",
        // As the shared checker (tools/check_cases.py) allows for classic: a
        // submarine submerged this turn, and research's one chart.
        "unit.submerged",
        "research.chart",
    ],
),
(
    "europe",
    &[
        "action.power",
        "check.to_place",
        "check.income_detail",
        "income_detail.territories",
        "income_detail.convoys",
        "income_detail.middle_east_payment",
        // Read as `continue`, as in classic.
        "action.decline",
        "unit.submerged",
        // The Soviet Patriotic War (EUROPE FAQ: Second Edition Rules).
        "action.convert",
        // Strategic bombing raids with escorts and interceptors.
        "action.intercept",
        "move.escort",
    ],
),
(
    "anniversary",
    &[
        "action.power",
        "state.tech",
        "check.tech",
        "state.researchers",
        "check.researchers",
        "research.chart",
        "action.repair",
        "action.rocket",
        "unit.damage",
        "check.damage",
        "state.unplaced",
        "check.to_place",
        "check.income_detail",
        "income_detail.territories",
        "income_detail.objectives",
        "action.decline",
        "unit.submerged",
        // Escorts and interceptors, with `fighter_escorts_interceptors`.
        "action.intercept",
        "move.escort",
    ],
),
(
    "alternative",
    &[
        "action.power",
        "state.unplaced",
        "state.order",
        "state.eliminated",
        "unit.controller",
        "move.give",
        "action.reclaim",
        "check.to_place",
        "check.order",
        "check.eliminated",
        "check.next_placer",
        "check.controllers",
        "check.income_detail",
        "income_detail.territories",
    ],
)];

/// What the case reader accepts for one ruleset: v1, and the v2 additions
/// of the ruleset's row of [`ADDITIONS`].
pub struct Vocabulary<'a> {
    rs: &'a Ruleset,
    additions: &'static [&'static str],
}

impl<'a> Vocabulary<'a> {
    pub fn of(rs: &'a Ruleset) -> Self {
        let additions = ADDITIONS.iter().find(|(name, _)| *name == rs.name).map(|(_, a)| *a).unwrap_or(&[]);
        Vocabulary { rs, additions }
    }

    /// The ruleset whose vocabulary this is.
    pub fn ruleset(&self) -> &'a Ruleset {
        self.rs
    }

    fn has(&self, scope: &str, name: &str) -> bool {
        self.additions.iter().any(|a| a.split_once('.') == Some((scope, name)))
    }

    fn not_part(&self, name: &str) -> String {
        format!("`{name}` is not part of the {} ruleset", self.rs.name)
    }

    /// `v` as an object, once each of its keys is found to be a field of one
    /// of `kinds` that this ruleset has. `path` names the object in errors
    /// (`state.units[2]`, "action `move`").
    pub fn object<'v>(&self, v: &'v Value, kinds: &[&Fields], path: &str) -> Result<&'v Map<String, Value>, String> {
        let obj = v.as_object().ok_or_else(|| format!("{path} must be an object, not {v}"))?;
        for key in obj.keys() {
            let key = key.as_str();
            if kinds.iter().any(|k| k.v1.contains(&key)) {
                continue;
            }
            match kinds.iter().find(|k| k.v2.contains(&key)) {
                Some(k) if self.has(k.scope, key) => {}
                Some(_) => return Err(format!("{path}: {}", self.not_part(key))),
                None => return Err(format!("{path} has no field `{key}`")),
            }
        }
        Ok(obj)
    }

    /// Checks an action's type and fields, its selectors' fields and the
    /// power it names, and gives its type.
    pub fn action(&self, v: &Value) -> Result<&'static ActionType, String> {
        let ty = field(v, "type").and_then(Value::as_str).ok_or("an action needs a `type`")?;
        let kind = ACTIONS.iter().find(|a| a.name == ty).ok_or_else(|| format!("unknown action type `{ty}`"))?;
        if kind.v2 && !self.has("action", ty) {
            return Err(format!("action {}", self.not_part(ty)));
        }
        let path = format!("action `{ty}`");
        self.object(v, &[&ANY_ACTION, &kind.fields], &path)?;
        if let Some(p) = field(v, "power") {
            power_in(self.rs, p).map_err(|e| format!("{path}: {e}"))?;
        }
        // `units` is a list of selectors, except in `purchase` and `place`.
        if let Some(Value::Array(list)) = field(v, "units") {
            for (n, s) in list.iter().enumerate() {
                self.selector(s, &format!("{path}: units[{}]", n + 1))?;
            }
        }
        Ok(kind)
    }

    fn selector(&self, s: &Value, path: &str) -> Result<(), String> {
        let obj = self.object(s, &[&SELECTOR], path)?;
        if obj.contains_key("id") && obj.len() > 1 {
            return Err(format!("{path}: a selector is {{\"id\": NAME}} alone, or {{\"type\": T, \"count\": N}}"));
        }
        Ok(())
    }

    /// Checks the fields of `state`, of its unit entries and their cargo.
    fn state(&self, state: &Value) -> Result<(), String> {
        self.object(state, &[&STATE], "state")?;
        if let Some(Value::Array(units)) = field(state, "units") {
            for (n, entry) in units.iter().enumerate() {
                self.unit(entry, &UNIT, &format!("state.units[{}]", n + 1))?;
            }
        }
        Ok(())
    }

    fn unit(&self, entry: &Value, kind: &Fields, path: &str) -> Result<(), String> {
        self.object(entry, &[kind], path)?;
        if let Some(Value::Array(cargo)) = field(entry, "cargo") {
            for (n, c) in cargo.iter().enumerate() {
                self.unit(c, &CARGO, &format!("{path}.cargo[{}]", n + 1))?;
            }
        }
        Ok(())
    }
}
