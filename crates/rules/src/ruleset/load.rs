//! Parsing and validating ruleset files. A bad file fails with messages that
//! name the file, the entry and the problem; every problem is listed at once.

use super::map::{Canal, Convoy, Map, Space, SpaceKind};
use super::options::{OptionDecl, Options};
use super::{Cargo, FirstStrike, Objective, PowerInfo, Ruleset, Setup, SetupUnit, Support, TurnStructure, UnitStats};
use crate::state::Phase;
use crate::ids::{Domain, PowerId, Side, SpaceId, UnitType};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// The text of one ruleset's files, and the folder they came from (for
/// messages). `setups` holds every setup file by its name: the default one
/// (`setup` in `ruleset.toml`) and those its scenarios name.
#[derive(Clone, Debug)]
pub struct RulesetFiles {
    pub dir: &'static str,
    pub ruleset: &'static str,
    pub map: &'static str,
    pub setups: Vec<(&'static str, &'static str)>,
}

/// One problem found in a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataProblem {
    pub file: String,
    pub entry: String,
    pub problem: String,
}

impl fmt::Display for DataProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.file, self.entry, self.problem)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("unknown ruleset `{name}` (known rulesets: {known})")]
    UnknownRuleset { name: String, known: String },
    /// A ruleset of the project's plan (FORMAT.md v2) that this build does
    /// not have yet.
    #[error("ruleset `{name}` is not available yet (available: {known})")]
    NotYetAvailable { name: String, known: String },
    #[error("{file}: not valid TOML for this file: {message}")]
    Parse { file: String, message: String },
    #[error("invalid ruleset data:\n{}", .0.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    Invalid(Vec<DataProblem>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesetToml {
    name: String,
    title: String,
    map: String,
    setup: String,
    power: Vec<PowerToml>,
    unit: Vec<UnitToml>,
    /// The turn order (power ids); default: the order of `[[power]]`.
    #[serde(default)]
    turn_order: Vec<String>,
    /// Phases of the whole round, before any power's turn, in which several
    /// powers act (FORMAT.md v2: alternative's payday and shopping).
    #[serde(default)]
    round_phases: Vec<String>,
    /// The phases of each power's turn; default: FORMAT.md's seven.
    #[serde(default)]
    turn_phases: Vec<String>,
    /// Scenarios: other setups and turn orders on the same map and units
    /// (Anniversary 1941 and 1942).
    #[serde(default)]
    scenario: Vec<ScenarioToml>,
    /// Engine knobs this ruleset fixes (not player options).
    #[serde(default)]
    rules: toml::Table,
    /// The options players may set, with types, defaults and docs.
    #[serde(default)]
    option: Vec<OptionDecl>,
    /// National objectives (Anniversary), paid with `national_objectives`.
    #[serde(default)]
    objective: Vec<ObjectiveToml>,
    /// Values and owners that differ from the map file (the Alternative
    /// rules on the classic board), some only under an option.
    #[serde(default)]
    space_change: Vec<SpaceChangeToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpaceChangeToml {
    id: Option<String>,
    #[serde(default)]
    ids: Vec<String>,
    ipc: Option<u32>,
    owner: Option<String>,
    option: Option<String>,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectiveToml {
    power: String,
    bonus: u32,
    spaces: Vec<String>,
    at_least: Option<usize>,
    #[serde(default)]
    by: Option<String>,
    #[serde(default)]
    no_enemy_warships_in: Vec<String>,
    #[serde(default)]
    no_allied_units_in_own: bool,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioToml {
    name: String,
    setup: String,
    #[serde(default)]
    turn_order: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerToml {
    id: String,
    name: String,
    side: String,
    /// None: a power without a capital (Anniversary's China).
    capital: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitToml {
    #[serde(rename = "type")]
    kind: String,
    domain: Domain,
    cost: u32,
    attack: u8,
    defense: u8,
    movement: u8,
    #[serde(default)]
    cargo_size: u8,
    #[serde(default)]
    cargo: Option<Cargo>,
    #[serde(default)]
    blitz: bool,
    #[serde(default)]
    submarine: bool,
    #[serde(default)]
    strategic_bomber: bool,
    #[serde(default)]
    bombard: u8,
    #[serde(default)]
    anti_aircraft: u8,
    #[serde(default)]
    factory: bool,
    #[serde(default = "one")]
    hit_points: u8,
    #[serde(default)]
    support: Option<SupportToml>,
    #[serde(default)]
    anti_submarine: bool,
    #[serde(default)]
    first_strike: FirstStrike,
    #[serde(default)]
    defenseless: bool,
    #[serde(default = "yes")]
    buyable: bool,
    /// Its cost with the Improved Shipyards development (Anniversary).
    #[serde(default)]
    shipyards_cost: Option<u32>,
}

fn one() -> u8 {
    1
}
fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SupportToml {
    /// The unit type it supports.
    #[serde(rename = "type")]
    kind: String,
    /// What the supported unit's attack becomes.
    attack: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapToml {
    space: Vec<SpaceToml>,
    #[serde(default)]
    canal: Vec<CanalToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpaceToml {
    id: String,
    name: String,
    kind: String,
    #[serde(default)]
    ipc: u32,
    owner: Option<String>,
    #[serde(default)]
    capital: bool,
    #[serde(default)]
    original_factory: bool,
    island_in: Option<String>,
    /// A convoy centre (sea zones only; Europe).
    convoy: Option<ConvoyToml>,
    /// The power that pays this territory's value to an enemy holding it
    /// (Europe's Middle East).
    paid_by: Option<String>,
    /// A victory city (Anniversary: the 18 of `anniversary-ids.tsv`).
    #[serde(default)]
    victory_city: bool,
    adjacent: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConvoyToml {
    value: u32,
    owner: String,
    requires: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CanalToml {
    name: String,
    zones: Vec<String>,
    controlled_by: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupToml {
    ipcs: BTreeMap<String, i32>,
    /// Territories a power other than their original owner holds at the
    /// start (Anniversary: Japan in Manchuria and Kiangsu; the 1942
    /// scenario's conquests).
    #[serde(default)]
    control: BTreeMap<String, String>,
    units: Vec<SetupEntryToml>,
}

#[derive(Deserialize)]
struct SetupEntryToml {
    at: String,
    owner: String,
    /// Land units aboard the owner's transports in this sea zone, loaded in
    /// the order the transports are listed.
    #[serde(default)]
    aboard: bool,
    #[serde(flatten)]
    counts: BTreeMap<String, toml::Value>,
}

struct Problems {
    list: Vec<DataProblem>,
}

impl Problems {
    fn add(&mut self, file: &str, entry: impl Into<String>, problem: impl Into<String>) {
        self.list.push(DataProblem { file: file.to_string(), entry: entry.into(), problem: problem.into() });
    }
}

fn parse<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, DataError> {
    toml::from_str(text).map_err(|e| DataError::Parse { file: file.to_string(), message: e.to_string() })
}

/// Parses and validates one ruleset's files, with its default setup and
/// turn order.
pub fn load_ruleset_files(files: &RulesetFiles) -> Result<Ruleset, DataError> {
    load_scenario(files, None)
}

/// Parses and validates one ruleset's files for one of its scenarios (by
/// name; `None`: the default).
pub fn load_scenario(files: &RulesetFiles, scenario: Option<&str>) -> Result<Ruleset, DataError> {
    let rs_file = format!("{}/ruleset.toml", files.dir);
    let rs: RulesetToml = parse(&rs_file, files.ruleset)?;
    let map_file = format!("{}/{}", files.dir, rs.map);
    let chosen = match scenario {
        None => None,
        Some(name) => match rs.scenario.iter().find(|sc| sc.name == name) {
            Some(sc) => Some(sc),
            None => {
                let mut known: Vec<String> = vec![rs.name.clone()];
                known.extend(rs.scenario.iter().map(|sc| format!("{}-{}", rs.name, sc.name)));
                return Err(DataError::UnknownRuleset { name: format!("{}-{name}", rs.name), known: known.join(", ") });
            }
        },
    };
    let setup_name = chosen.map(|sc| sc.setup.as_str()).unwrap_or(rs.setup.as_str());
    let setup_file = format!("{}/{}", files.dir, setup_name);
    let setup_text = files.setups.iter().find(|(n, _)| *n == setup_name).map(|(_, t)| *t).ok_or_else(|| DataError::Parse {
        file: setup_file.clone(),
        message: "no such setup file among the ruleset's files".into(),
    })?;
    let map_toml: MapToml = parse(&map_file, files.map)?;
    let setup_toml: SetupToml = parse(&setup_file, setup_text)?;
    let mut problems = Problems { list: Vec::new() };

    // Powers first: the map names them as owners.
    let power_ids: HashMap<&str, PowerId> =
        rs.power.iter().enumerate().map(|(i, p)| (p.id.as_str(), PowerId(i as u8))).collect();
    if power_ids.len() != rs.power.len() {
        problems.add(&rs_file, "[[power]]", "two powers share an id");
    }

    // Spaces.
    let space_ids: HashMap<&str, SpaceId> =
        map_toml.space.iter().enumerate().map(|(i, s)| (s.id.as_str(), SpaceId(i as u16))).collect();
    if space_ids.len() != map_toml.space.len() {
        let mut seen = HashMap::new();
        for s in &map_toml.space {
            if seen.insert(s.id.as_str(), ()).is_some() {
                problems.add(&map_file, format!("space {}", s.id), "the id is used twice");
            }
        }
    }
    let mut spaces = Vec::new();
    for s in &map_toml.space {
        let entry = format!("space {}", s.id);
        let kind = match s.kind.as_str() {
            "land" => SpaceKind::Land,
            "sea" => SpaceKind::Sea,
            other => {
                problems.add(&map_file, &entry, format!("kind `{other}` is neither `land` nor `sea`"));
                SpaceKind::Land
            }
        };
        let (original_owner, neutral) = match (kind, s.owner.as_deref()) {
            (SpaceKind::Sea, None) => (None, false),
            (SpaceKind::Sea, Some(_)) => {
                problems.add(&map_file, &entry, "a sea zone has no owner");
                (None, false)
            }
            (SpaceKind::Land, None) => {
                problems.add(&map_file, &entry, "a land territory needs an owner (a power or `neutral`)");
                (None, true)
            }
            (SpaceKind::Land, Some("neutral")) => (None, true),
            (SpaceKind::Land, Some(o)) => match power_ids.get(o) {
                Some(&p) => (Some(p), false),
                None => {
                    problems.add(&map_file, &entry, format!("owner `{o}` is not a power of this ruleset"));
                    (None, true)
                }
            },
        };
        if kind == SpaceKind::Sea && s.ipc != 0 {
            problems.add(&map_file, &entry, "a sea zone has no IPC value");
        }
        let mut adjacent = Vec::new();
        for a in &s.adjacent {
            match space_ids.get(a.as_str()) {
                Some(_) if a == &s.id => problems.add(&map_file, &entry, "a space cannot be its own neighbour"),
                Some(&id) => adjacent.push(id),
                None => problems.add(&map_file, &entry, format!("neighbour `{a}` is not a space of this map")),
            }
        }
        let island_in = s.island_in.as_deref().and_then(|z| {
            let id = space_ids.get(z).copied();
            if id.is_none() {
                problems.add(&map_file, &entry, format!("island_in `{z}` is not a space of this map"));
            }
            id
        });
        let power_named = |what: &str, o: &str, problems: &mut Problems| {
            let p = power_ids.get(o).copied();
            if p.is_none() {
                problems.add(&map_file, &entry, format!("{what} `{o}` is not a power of this ruleset"));
            }
            p
        };
        let convoy = s.convoy.as_ref().and_then(|c| {
            if kind != SpaceKind::Sea {
                problems.add(&map_file, &entry, "only a sea zone can be a convoy centre");
            }
            let owner = power_named("convoy owner", &c.owner, &mut problems)?;
            let requires = match c.requires.as_deref() {
                None => None,
                Some(z) => match space_ids.get(z) {
                    Some(&id) => Some(id),
                    None => {
                        problems.add(&map_file, &entry, format!("convoy requires `{z}`, not a space of this map"));
                        None
                    }
                },
            };
            Some(Convoy { value: c.value, owner, requires })
        });
        let paid_by = s.paid_by.as_deref().and_then(|o| {
            if kind != SpaceKind::Land || neutral {
                problems.add(&map_file, &entry, "only an owned land territory can be paid for by a power");
            }
            power_named("paid_by", o, &mut problems)
        });
        let capital_of = if s.capital {
            let p = rs.power.iter().position(|p| p.capital.as_deref() == Some(s.id.as_str())).map(|i| PowerId(i as u8));
            if p.is_none() {
                problems.add(&map_file, &entry, "marked as a capital, but no power names it as its capital");
            }
            p
        } else {
            None
        };
        spaces.push(Space {
            id: s.id.clone(),
            name: s.name.clone(),
            kind,
            ipc: s.ipc,
            original_owner,
            neutral,
            capital_of,
            original_factory: s.original_factory,
            island_in,
            convoy,
            paid_by,
            victory_city: s.victory_city,
            off_limits: false,
            adjacent,
        });
    }

    // Connections must agree both ways.
    for (i, s) in spaces.iter().enumerate() {
        for a in &s.adjacent {
            if !spaces[a.index()].adjacent.contains(&SpaceId(i as u16)) {
                problems.add(
                    &map_file,
                    format!("space {}", s.id),
                    format!("lists {} as a neighbour, but {} does not list {}", spaces[a.index()].id, spaces[a.index()].id, s.id),
                );
            }
        }
    }
    // Islands: the one zone around them is their only neighbour (DAAK 3.4(b)).
    for s in &spaces {
        if let Some(z) = s.island_in {
            if s.kind != SpaceKind::Land || spaces[z.index()].kind != SpaceKind::Sea || s.adjacent != [z] {
                problems.add(
                    &map_file,
                    format!("space {}", s.id),
                    format!("island_in = {} needs a land space whose only neighbour is that sea zone", spaces[z.index()].id),
                );
            }
        }
    }
    // Every space can be reached from every other (the Caspian Sea touches
    // only land, so this is connectivity of the whole board).
    if !spaces.is_empty() {
        let mut seen = vec![false; spaces.len()];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for a in &spaces[i].adjacent {
                if !seen[a.index()] {
                    seen[a.index()] = true;
                    stack.push(a.index());
                }
            }
        }
        for (i, s) in spaces.iter().enumerate() {
            if !seen[i] {
                problems.add(&map_file, format!("space {}", s.id), format!("cannot be reached from {}", spaces[0].id));
            }
        }
    }

    // Canals.
    let mut canals = Vec::new();
    for c in &map_toml.canal {
        let entry = format!("canal {}", c.name);
        let zones: Vec<SpaceId> = c.zones.iter().filter_map(|z| space_ids.get(z.as_str()).copied()).collect();
        let ctrl: Vec<SpaceId> = c.controlled_by.iter().filter_map(|z| space_ids.get(z.as_str()).copied()).collect();
        if zones.len() != 2 || c.zones.len() != 2 {
            problems.add(&map_file, &entry, "needs exactly two known sea zones");
            continue;
        }
        if ctrl.len() != c.controlled_by.len() || ctrl.is_empty() {
            problems.add(&map_file, &entry, "controlled_by must name known land territories");
            continue;
        }
        if zones.iter().any(|z| spaces[z.index()].kind != SpaceKind::Sea) {
            problems.add(&map_file, &entry, "both zones must be sea zones");
        } else if !spaces[zones[0].index()].adjacent.contains(&zones[1]) {
            problems.add(&map_file, &entry, "its two zones must be adjacent");
        }
        for t in &ctrl {
            let sp = &spaces[t.index()];
            if sp.kind != SpaceKind::Land || !zones.iter().all(|z| sp.adjacent.contains(z)) {
                problems.add(&map_file, &entry, format!("{} must be a land territory next to both zones", sp.id));
            }
        }
        canals.push(Canal { name: c.name.clone(), zones: [zones[0], zones[1]], controlled_by: ctrl });
    }

    // Powers.
    let mut powers = Vec::new();
    for p in &rs.power {
        let entry = format!("power {}", p.id);
        let side = Side::parse(&p.side).unwrap_or_else(|| {
            problems.add(&rs_file, &entry, format!("side `{}` is neither `axis` nor `allies`", p.side));
            Side::Axis
        });
        let capital = p.capital.as_ref().map(|name| match space_ids.get(name.as_str()) {
            Some(&c) if spaces[c.index()].kind == SpaceKind::Land && spaces[c.index()].capital_of.is_some() => c,
            Some(&c) => {
                problems.add(&rs_file, &entry, format!("capital {name} is not marked `capital = true` on the map"));
                c
            }
            None => {
                problems.add(&rs_file, &entry, format!("capital `{name}` is not a space of the map"));
                SpaceId(0)
            }
        });
        powers.push(PowerInfo { id: p.id.clone(), name: p.name.clone(), side, capital });
    }

    // Units.
    let mut units: Vec<Option<UnitStats>> = vec![None; UnitType::ALL.len()];
    for u in &rs.unit {
        let entry = format!("unit {}", u.kind);
        let Some(kind) = UnitType::parse(&u.kind) else {
            problems.add(&rs_file, &entry, "not a unit type of warboard's vocabulary (see FORMAT.md)");
            continue;
        };
        if units[kind.index()].is_some() {
            problems.add(&rs_file, &entry, "listed twice");
        }
        units[kind.index()] = Some(UnitStats {
            kind,
            domain: u.domain,
            cost: u.cost,
            attack: u.attack,
            defense: u.defense,
            movement: u.movement,
            cargo_size: u.cargo_size,
            cargo: u.cargo.clone(),
            blitz: u.blitz,
            submarine: u.submarine,
            strategic_bomber: u.strategic_bomber,
            bombard: u.bombard,
            anti_aircraft: u.anti_aircraft,
            factory: u.factory,
            hit_points: u.hit_points,
            support: None,
            anti_submarine: u.anti_submarine,
            first_strike: u.first_strike,
            defenseless: u.defenseless,
            buyable: u.buyable,
            shipyards_cost: u.shipyards_cost,
        });
        if u.hit_points == 0 {
            problems.add(&rs_file, &entry, "`hit_points` is at least 1");
        }
        if u.cargo.as_ref().is_some_and(|c| c.capacity == 0 || c.carries.is_empty()) {
            problems.add(&rs_file, &entry, "`cargo` has room (`capacity` from 1) for units of at least one domain (`carries`)");
        }
    }
    // Support names another type of the table, so it is read once all are.
    for u in &rs.unit {
        let (Some(kind), Some(sup)) = (UnitType::parse(&u.kind), &u.support) else { continue };
        match UnitType::parse(&sup.kind).filter(|t| units[t.index()].is_some()) {
            Some(target) => {
                if let Some(st) = units[kind.index()].as_mut() {
                    st.support = Some(Support { target, attack: sup.attack });
                }
            }
            None => problems.add(&rs_file, format!("unit {}", u.kind), format!("it supports `{}`, which is not a unit type of this ruleset", sup.kind)),
        }
    }

    // Turn structure: the turn order, and the phases of the round and of
    // each turn.
    let order_names: &Vec<String> = match chosen {
        Some(sc) if !sc.turn_order.is_empty() => &sc.turn_order,
        _ => &rs.turn_order,
    };
    let turn_order: Vec<PowerId> = if order_names.is_empty() {
        (0..powers.len() as u8).map(PowerId).collect()
    } else {
        order_names
            .iter()
            .filter_map(|n| {
                let p = power_ids.get(n.as_str()).copied();
                if p.is_none() {
                    problems.add(&rs_file, "turn_order", format!("`{n}` is not a power of this ruleset"));
                }
                p
            })
            .collect()
    };
    let mut sorted = turn_order.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != turn_order.len() || (turn_order.len() != powers.len() && problems.list.is_empty()) {
        problems.add(&rs_file, "turn_order", "the turn order names every power once");
    }
    let phase_list = |names: &[String], what: &str, problems: &mut Problems| -> Vec<Phase> {
        names
            .iter()
            .filter_map(|n| {
                let ph = Phase::parse(n);
                if ph.is_none() {
                    problems.add(&rs_file, what, format!("`{n}` is not a phase of FORMAT.md"));
                }
                ph
            })
            .collect()
    };
    let round_phases = phase_list(&rs.round_phases, "round_phases", &mut problems);
    let mut turn_phases = phase_list(&rs.turn_phases, "turn_phases", &mut problems);
    if rs.turn_phases.is_empty() {
        turn_phases = Phase::TURN.to_vec();
    }
    if turn_phases.is_empty() || round_phases.iter().any(|p| turn_phases.contains(p)) {
        problems.add(&rs_file, "turn_phases", "a turn has at least one phase, and no phase is both the round's and a turn's");
    }

    // The starting position.
    let mut ipcs = vec![0; powers.len()];
    for (name, amount) in &setup_toml.ipcs {
        match power_ids.get(name.as_str()) {
            Some(p) if *amount >= 0 => ipcs[p.index()] = *amount,
            Some(_) => problems.add(&setup_file, format!("ipcs.{name}"), "a bank cannot be negative"),
            None => problems.add(&setup_file, format!("ipcs.{name}"), "not a power of this ruleset"),
        }
    }
    let mut control = Vec::new();
    for (t, p) in &setup_toml.control {
        let entry = format!("control.{t}");
        match (space_ids.get(t.as_str()), power_ids.get(p.as_str())) {
            (Some(&at), Some(&owner)) if spaces[at.index()].kind == SpaceKind::Land && !spaces[at.index()].neutral => {
                control.push((at, owner))
            }
            (Some(_), Some(_)) => problems.add(&setup_file, entry, "only a land territory that is not neutral is held at the start"),
            (None, _) => problems.add(&setup_file, entry, format!("`{t}` is not a space of the map")),
            (_, None) => problems.add(&setup_file, entry, format!("`{p}` is not a power of this ruleset")),
        }
    }
    let mut setup_units = Vec::new();
    let mut aboard = Vec::new();
    for e in &setup_toml.units {
        let entry = format!("units at {} ({})", e.at, e.owner);
        let at = space_ids.get(e.at.as_str()).copied();
        let owner = power_ids.get(e.owner.as_str()).copied();
        if at.is_none() {
            problems.add(&setup_file, &entry, format!("`{}` is not a space of the map", e.at));
        }
        if owner.is_none() {
            problems.add(&setup_file, &entry, format!("`{}` is not a power of this ruleset", e.owner));
        }
        for (t, v) in &e.counts {
            let Some(kind) = UnitType::parse(t).filter(|k| units[k.index()].is_some()) else {
                problems.add(&setup_file, &entry, format!("`{t}` is not a unit type of this ruleset"));
                continue;
            };
            let Some(count) = v.as_integer().filter(|c| *c > 0) else {
                problems.add(&setup_file, &entry, format!("the count of {t} must be a positive whole number"));
                continue;
            };
            if let (Some(at), Some(owner)) = (at, owner) {
                if e.aboard {
                    aboard.push(SetupUnit { at, owner, kind, count: count as u32 });
                } else {
                    setup_units.push(SetupUnit { at, owner, kind, count: count as u32 });
                }
            }
        }
    }
    let options = Options::new(&rs.rules, rs.option).unwrap_or_else(|list| {
        for (entry, problem) in list {
            problems.add(&rs_file, entry, problem);
        }
        Options::new(&toml::Table::new(), Vec::new()).expect("no options are valid options")
    });
    let mut objectives = Vec::new();
    for (i, o) in rs.objective.iter().enumerate() {
        let entry = format!("objective {} ({})", i + 1, o.power);
        let Some(&power) = power_ids.get(o.power.as_str()) else {
            problems.add(&rs_file, &entry, format!("`{}` is not a power of this ruleset", o.power));
            continue;
        };
        let ids = |list: &[String], want_sea: bool, problems: &mut Problems| -> Vec<SpaceId> {
            list.iter()
                .filter_map(|n| match space_ids.get(n.as_str()) {
                    Some(&id) if (spaces[id.index()].kind == SpaceKind::Sea) == want_sea => Some(id),
                    Some(_) => {
                        problems.add(&rs_file, &entry, format!("`{n}` is not a {} of the map", if want_sea { "sea zone" } else { "land territory" }));
                        None
                    }
                    None => {
                        problems.add(&rs_file, &entry, format!("`{n}` is not a space of the map"));
                        None
                    }
                })
                .collect()
        };
        let objective_spaces = ids(&o.spaces, false, &mut problems);
        let zones = ids(&o.no_enemy_warships_in, true, &mut problems);
        let at_least = o.at_least.unwrap_or(o.spaces.len());
        if at_least == 0 || at_least > o.spaces.len() {
            problems.add(&rs_file, &entry, "`at_least` is between 1 and the number of spaces");
        }
        let by_power = match o.by.as_deref() {
            None | Some("side") => false,
            Some("power") => true,
            Some(other) => {
                problems.add(&rs_file, &entry, format!("`by` is `side` or `power`, not `{other}`"));
                false
            }
        };
        objectives.push(Objective {
            power,
            bonus: o.bonus,
            spaces: objective_spaces,
            at_least,
            by_power,
            no_enemy_warships_in: zones,
            no_allied_units_in_own: o.no_allied_units_in_own,
            text: o.text.clone(),
        });
    }
    // Knobs that name spaces must name this map's.
    for name in options.china_territories.iter().chain(Some(&options.dardanelles_zone).filter(|z| !z.is_empty())) {
        if !space_ids.contains_key(name.as_str()) {
            problems.add(&rs_file, "rules", format!("`{name}` is not a space of the map"));
        }
    }
    if !options.china_power.is_empty() && !power_ids.contains_key(options.china_power.as_str()) {
        problems.add(&rs_file, "rules.china_power", format!("`{}` is not a power of this ruleset", options.china_power));
    }
    let mut space_changes = Vec::new();
    for (i, c) in rs.space_change.iter().enumerate() {
        let entry = format!("space_change {} ({})", i + 1, c.text);
        let names: Vec<&String> = c.id.iter().chain(&c.ids).collect();
        if names.is_empty() || c.ipc.is_none() && c.owner.is_none() {
            problems.add(&rs_file, &entry, "a change names `id` or `ids` and sets `ipc` or `owner`");
        }
        let owner = match c.owner.as_deref() {
            None => None,
            Some("neutral") => Some(None),
            Some(o) => match power_ids.get(o) {
                Some(&p) => Some(Some(p)),
                None => {
                    problems.add(&rs_file, &entry, format!("owner `{o}` is not a power of this ruleset"));
                    None
                }
            },
        };
        if let Some(o) = &c.option {
            if !options.declared().iter().any(|d| &d.name == o && d.kind == super::OptionType::Bool) {
                problems.add(&rs_file, &entry, format!("`{o}` is not a true-or-false option of this ruleset"));
            }
        }
        for n in names {
            match space_ids.get(n.as_str()) {
                Some(&at) if spaces[at.index()].kind == SpaceKind::Land => {
                    space_changes.push(super::board::SpaceChange { at, ipc: c.ipc, owner, option: c.option.clone() })
                }
                _ => problems.add(&rs_file, &entry, format!("`{n}` is not a land territory of the map")),
            }
        }
    }
    let map = Map::new(spaces, canals);
    let table: Vec<UnitType> = rs.unit.iter().filter_map(|u| UnitType::parse(&u.kind)).collect();
    let ranks = UnitType::ALL.iter().map(|t| table.iter().position(|x| x == t).unwrap_or(usize::MAX)).collect();
    let mut ruleset = Ruleset {
        table,
        ranks,
        name: rs.name,
        title: rs.title,
        powers,
        units,
        map,
        options,
        scenario: chosen.map(|sc| sc.name.clone()),
        turn: TurnStructure { order: turn_order, round_phases, turn_phases },
        setup: Setup { ipcs, control, units: Vec::new(), aboard: Vec::new() },
        objectives,
        board: std::sync::Arc::new(super::board::BaseBoard::default()),
        out_of_play: Vec::new(),
    };
    ruleset.board = std::sync::Arc::new(super::board::BaseBoard::of(&ruleset, space_changes));
    if let Err(e) = ruleset.apply_board_options() {
        problems.add(&rs_file, "options", e);
    }
    for problem in crate::setup::placement_problems(&ruleset, &setup_units) {
        problems.add(&setup_file, problem.0, problem.1);
    }
    // Cargo: land units that fit aboard the owner's transports there.
    for c in &aboard {
        let entry = format!("units aboard at {}", ruleset.map.name(c.at));
        let stats = ruleset.stats(c.kind);
        if !ruleset.map.is_sea(c.at) || !stats.is_land() {
            problems.add(&setup_file, &entry, "`aboard` puts land units on transports in a sea zone");
        }
    }
    let room: u32 = setup_units
        .iter()
        .filter(|u| aboard.iter().any(|c| c.at == u.at && c.owner == u.owner))
        .map(|u| ruleset.stats(u.kind).transport_capacity() as u32 * u.count)
        .sum();
    let load: u32 = aboard.iter().map(|c| ruleset.stats(c.kind).transport_cost() as u32 * c.count).sum();
    if load > room {
        problems.add(&setup_file, "units aboard", "more cargo than the transports there can hold");
    }
    ruleset.setup.units = setup_units;
    ruleset.setup.aboard = aboard;
    if problems.list.is_empty() {
        Ok(ruleset)
    } else {
        Err(DataError::Invalid(problems.list))
    }
}
