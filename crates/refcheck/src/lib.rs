//! Test-only crate: the cross-checks in `tests/` compare warboard's ruleset data
//! (`rulesets/<name>/{map,setup,ruleset}.toml`) with TripleA's game XMLs in
//! `../shared/reference`. This library is what they share. It never embeds or
//! ships reference data: the tests read it from `../shared/reference` at test
//! time.
//!
//! Both sources are reduced to the same plain [`Facts`] (spaces, connections,
//! owners, IPC values, capitals, original factories, canals, starting units and
//! starting IPCs, all keyed by warboard ids) and, for the unit table and the
//! powers, [`RulesetFacts`]; [`compare`] and [`compare_rulesets`] list every
//! difference, one line each, and [`judge`] fails on any difference that is not
//! accepted with its ruling.
//!
//! The reference data is third-party and lives outside the repository, so a
//! user's clone may not have it: the check is then skipped ([`reference_dir`]),
//! except under CI.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::path::{Path, PathBuf};

/// What both sources say about one space. `None` means "no value": an ordinary
/// sea zone has no IPC value; a neutral or ordinary sea space has no owner;
/// `capital` holds the power whose capital it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpaceFacts {
    pub kind: String,
    /// A territory's IPC value, or a convoy zone's (our `convoy.value`;
    /// TripleA's `production` on a sea zone).
    pub ipc: Option<u32>,
    /// The original owner; for a convoy zone our `convoy.owner`.
    pub owner: Option<String>,
    pub capital: Option<String>,
    pub original_factory: bool,
    /// Ours only (`paid_by`): the power that pays this territory's value to an
    /// enemy holding it; the holder gets nothing from it otherwise.
    pub paid_by: Option<String>,
    /// Ours only (`convoy.requires`): a land space the convoy's owner must also
    /// hold for the convoy to pay.
    pub convoy_requires: Option<String>,
    /// TripleA's `changeUnitOwners`: whose units other powers' units here may
    /// be turned into. Our map has no such field; a test derives it from the
    /// rule it plays by.
    pub converts_units_to: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub spaces: BTreeMap<String, SpaceFacts>,
    /// Unordered pairs, stored with the smaller id first.
    pub connections: BTreeSet<(String, String)>,
    /// Canal name -> (sea zones joined, land spaces that control it).
    pub canals: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>,
    /// (space, owner, unit type) -> count; zero counts are never stored.
    pub units: BTreeMap<(String, String, String), u32>,
    pub starting_ipcs: BTreeMap<String, u32>,
    /// Island -> the one sea zone that encloses it (`island_in`, ours only).
    pub islands: BTreeMap<String, String>,
}

/// The keys of both maps, sorted, each once.
pub fn union<'a, K: Ord, V>(a: &'a BTreeMap<K, V>, b: &'a BTreeMap<K, V>) -> BTreeSet<&'a K> {
    a.keys().chain(b.keys()).collect()
}

/// A name table from `(TripleA name, warboard id)` pairs.
pub fn table(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

pub fn pair(a: &str, b: &str) -> (String, String) {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    (a.to_string(), b.to_string())
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// `rulesets/<name>` of this repository.
pub fn ruleset_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../rulesets")
        .join(name)
}

/// Panics unless `rulesets/<ruleset>/REFERENCE-DIFFERENCES.md` lists every
/// accepted difference word for word (in backquotes), each accepted once.
pub fn check_differences_documented(ruleset: &str, accepted: &[(&str, &str)]) {
    let doc = read(&ruleset_dir(ruleset).join("REFERENCE-DIFFERENCES.md"));
    let missing: Vec<&str> = accepted
        .iter()
        .map(|(line, _)| *line)
        .filter(|line| !doc.contains(&format!("`{line}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "rulesets/{ruleset}/REFERENCE-DIFFERENCES.md does not list: {missing:#?}"
    );
    let rulings: BTreeMap<&str, &str> = accepted.iter().copied().collect();
    assert_eq!(rulings.len(), accepted.len(), "ACCEPTED lists a line twice");
}

/// CI must run the check; anything other than unset, empty, "0" or "false" counts as set.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// `../shared/reference`, beside the checkout. Without it the check is skipped
/// (`None`, after saying so), except under CI, where that is a failure.
pub fn reference_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !in_ci(),
        "../shared/reference not found, but CI is set: the reference check must run in CI"
    );
    println!("skipped: ../shared/reference not found");
    None
}

// ---- our data -------------------------------------------------------------
// Only the fields compared are declared; unknown fields are ignored on purpose
// so that the format can grow without breaking this check.

#[derive(Deserialize)]
struct MapFile {
    #[serde(default)]
    space: Vec<Space>,
    #[serde(default)]
    canal: Vec<Canal>,
}
#[derive(Deserialize)]
struct Space {
    id: String,
    kind: String,
    #[serde(default)]
    ipc: Option<u32>,
    #[serde(default)]
    owner: Option<String>,
    #[serde(default)]
    capital: bool,
    #[serde(default)]
    original_factory: bool,
    #[serde(default)]
    island_in: Option<String>,
    #[serde(default)]
    convoy: Option<Convoy>,
    #[serde(default)]
    paid_by: Option<String>,
    #[serde(default)]
    adjacent: Vec<String>,
}
#[derive(Deserialize)]
struct Convoy {
    value: u32,
    owner: String,
    #[serde(default)]
    requires: Option<String>,
}
#[derive(Deserialize)]
struct Canal {
    name: String,
    #[serde(default)]
    zones: Vec<String>,
    #[serde(default)]
    controlled_by: Vec<String>,
}
#[derive(Deserialize)]
struct SetupFile {
    #[serde(default)]
    ipcs: BTreeMap<String, u32>,
    #[serde(default)]
    units: Vec<UnitsEntry>,
}
#[derive(Deserialize)]
struct UnitsEntry {
    at: String,
    owner: String,
    /// Unit type -> count; any non-integer key is not a unit count and is ignored.
    #[serde(flatten)]
    counts: BTreeMap<String, toml::Value>,
}

/// Parses map.toml and setup.toml. Also returns adjacency listed by one side
/// only, which the unordered pair set would otherwise hide.
///
/// A convoy zone's `convoy = { value, owner }` becomes its IPC value and owner,
/// which is how TripleA states a convoy centre (a sea zone with `production`
/// and a `territoryOwner`).
pub fn load_ours(map_toml: &str, setup_toml: &str) -> (Facts, Vec<String>) {
    let map: MapFile = toml::from_str(map_toml).unwrap_or_else(|e| panic!("map.toml: {e}"));
    let setup: SetupFile = toml::from_str(setup_toml).unwrap_or_else(|e| panic!("setup.toml: {e}"));
    let mut facts = Facts::default();
    let mut listed = BTreeSet::new();
    for s in &map.space {
        let mut owner = s.owner.clone().filter(|o| o != "neutral");
        let mut ipc = s.ipc;
        let mut convoy_requires = None;
        if let Some(c) = &s.convoy {
            assert!(
                ipc.is_none() && owner.is_none(),
                "map.toml: convoy zone {} also has an ipc or owner of its own",
                s.id
            );
            ipc = Some(c.value);
            owner = Some(c.owner.clone());
            convoy_requires = c.requires.clone();
        }
        let space = SpaceFacts {
            kind: s.kind.clone(),
            ipc,
            // Ours marks a capital with `capital = true`; TripleA names its power.
            capital: s
                .capital
                .then(|| owner.clone().unwrap_or_else(|| "neutral".into())),
            owner,
            original_factory: s.original_factory,
            paid_by: s.paid_by.clone(),
            convoy_requires,
            converts_units_to: None,
        };
        assert!(
            facts.spaces.insert(s.id.clone(), space).is_none(),
            "map.toml: space {} twice",
            s.id
        );
        for n in &s.adjacent {
            listed.insert((s.id.clone(), n.clone()));
            facts.connections.insert(pair(&s.id, n));
        }
        if let Some(sea) = &s.island_in {
            facts.islands.insert(s.id.clone(), sea.clone());
        }
    }
    let one_sided = listed
        .iter()
        .filter(|(a, b)| !listed.contains(&(b.clone(), a.clone())))
        .map(|(a, b)| format!("map.toml: {a} lists {b} as adjacent, but {b} does not list {a}"))
        .collect();
    for c in map.canal {
        facts.canals.insert(
            c.name,
            (
                c.zones.into_iter().collect(),
                c.controlled_by.into_iter().collect(),
            ),
        );
    }
    for entry in setup.units {
        for (unit, value) in entry.counts {
            let Some(n) = value.as_integer() else {
                continue;
            };
            let n = u32::try_from(n)
                .unwrap_or_else(|_| panic!("setup.toml: {unit} at {} is {n}", entry.at));
            if n > 0 {
                *facts
                    .units
                    .entry((entry.at.clone(), entry.owner.clone(), unit))
                    .or_default() += n;
            }
        }
    }
    facts.starting_ipcs = setup.ipcs;
    (facts, one_sided)
}

// ---- the reference --------------------------------------------------------

/// TripleA's names of spaces, players and unit types, mapped to warboard ids.
pub struct Names {
    /// The id table's file name, for messages.
    pub ids_file: String,
    pub spaces: BTreeMap<String, String>,
    pub powers: BTreeMap<String, String>,
    pub units: BTreeMap<String, String>,
}

impl Names {
    /// `ids_tsv` is an id table of `../shared/reference` (`<name>-ids.tsv`:
    /// id, triplea_name, kind, ..., header line first); `powers` and `units`
    /// pair TripleA's player and unit type names with warboard ids.
    pub fn new(
        ids_file: &str,
        ids_tsv: &str,
        powers: &[(&str, &str)],
        units: &[(&str, &str)],
    ) -> Names {
        let mut spaces = BTreeMap::new();
        for line in ids_tsv.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let cols: Vec<&str> = line.split('\t').collect();
            assert!(cols.len() >= 2, "{ids_file}: too few columns in {line:?}");
            let dup = spaces.insert(cols[1].to_string(), cols[0].to_string());
            assert!(
                dup.is_none(),
                "{ids_file}: TripleA name {:?} mapped twice",
                cols[1]
            );
        }
        let ids: BTreeSet<_> = spaces.values().collect();
        assert_eq!(
            ids.len(),
            spaces.len(),
            "{ids_file}: some warboard id is used twice"
        );
        Names {
            ids_file: ids_file.to_string(),
            spaces,
            powers: table(powers),
            units: table(units),
        }
    }
}

/// Maps a TripleA name through `table`; an unknown name is kept, marked, so it
/// shows up in the report instead of aborting the comparison.
pub fn map_name(table: &BTreeMap<String, String>, name: &str) -> String {
    table
        .get(name)
        .cloned()
        .unwrap_or_else(|| format!("<unmapped TripleA name {name:?}>"))
}

/// Parses a TripleA game XML (which has a DOCTYPE line: an external DTD, never
/// loaded). `xml_file` names it in messages.
pub fn parse_xml<'a>(xml_file: &str, xml: &'a str) -> roxmltree::Document<'a> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(xml.trim_start_matches('\u{feff}'), opts)
        .unwrap_or_else(|e| panic!("{xml_file}: {e}"))
}

/// An attribute that must be there.
fn attr(xml_file: &str, n: &roxmltree::Node, a: &str) -> String {
    n.attribute(a)
        .unwrap_or_else(|| panic!("{xml_file}: <{}> without {a}", n.tag_name().name()))
        .to_string()
}

/// The `<option name= value=>` children of an `<attachment>`, in order.
fn options(xml_file: &str, n: &roxmltree::Node) -> Vec<(String, String)> {
    n.children()
        .filter(|c| c.has_tag_name("option"))
        .map(|c| {
            (
                attr(xml_file, &c, "name"),
                c.attribute("value").unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn elements<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    doc.descendants().filter(|n| n.is_element())
}

/// The map and starting position of a TripleA game XML, in warboard ids.
pub fn load_reference(xml_file: &str, xml: &str, names: &Names) -> Facts {
    let doc = parse_xml(xml_file, xml);
    let attr = |n: &roxmltree::Node, a: &str| attr(xml_file, n, a);
    let (spaces, powers, units) = (&names.spaces, &names.powers, &names.units);
    let mut facts = Facts::default();
    for n in elements(&doc) {
        match n.tag_name().name() {
            "territory" => {
                let sea = n.attribute("water") == Some("true");
                let kind = (if sea { "sea" } else { "land" }).to_string();
                let space = SpaceFacts {
                    kind,
                    ..Default::default()
                };
                facts
                    .spaces
                    .insert(map_name(spaces, &attr(&n, "name")), space);
            }
            "connection" => {
                facts.connections.insert(pair(
                    &map_name(spaces, &attr(&n, "t1")),
                    &map_name(spaces, &attr(&n, "t2")),
                ));
            }
            "unitPlacement" => {
                let key = (
                    map_name(spaces, &attr(&n, "territory")),
                    map_name(powers, &attr(&n, "owner")),
                    map_name(units, &attr(&n, "unitType")),
                );
                let q: u32 = attr(&n, "quantity").parse().unwrap_or_else(|_| {
                    panic!("{xml_file}: unitPlacement quantity is not a number")
                });
                *facts.units.entry(key).or_default() += q;
            }
            "resourceGiven" if n.attribute("resource") == Some("PUs") => {
                let q: u32 = attr(&n, "quantity").parse().unwrap_or_else(|_| {
                    panic!("{xml_file}: resourceGiven quantity is not a number")
                });
                facts
                    .starting_ipcs
                    .insert(map_name(powers, &attr(&n, "player")), q);
            }
            _ => {}
        }
    }
    // Second pass: owners and attachments refer to spaces created above.
    for n in elements(&doc) {
        let tag = n.tag_name().name();
        if tag == "territoryOwner" {
            let id = map_name(spaces, &attr(&n, "territory"));
            facts.spaces.entry(id).or_default().owner = Some(map_name(powers, &attr(&n, "owner")));
        } else if tag == "attachment" {
            let options = options(xml_file, &n);
            let target = map_name(spaces, &attr(&n, "attachTo"));
            match n.attribute("name") {
                // A space with two territoryAttachments (Europe's Moscow) gets both, in order.
                Some("territoryAttachment") => {
                    let space = facts.spaces.entry(target).or_default();
                    for (name, value) in options {
                        match name.as_str() {
                            "production" => space.ipc = value.parse().ok(),
                            "capital" => space.capital = Some(map_name(powers, &value)),
                            "originalFactory" => space.original_factory = value == "true",
                            "changeUnitOwners" => {
                                space.converts_units_to = Some(
                                    value
                                        .split(':')
                                        .map(|p| map_name(powers, p))
                                        .collect::<Vec<_>>()
                                        .join(":"),
                                )
                            }
                            _ => {}
                        }
                    }
                }
                Some("canalAttachment") => {
                    let get = |k: &str| {
                        options
                            .iter()
                            .find(|(n, _)| n == k)
                            .map(|(_, v)| v.clone())
                            .unwrap_or_default()
                    };
                    let canal = facts.canals.entry(get("canalName")).or_default();
                    canal.0.insert(target);
                    canal.1.extend(
                        get("landTerritories")
                            .split(':')
                            .filter(|s| !s.is_empty())
                            .map(|t| map_name(spaces, t)),
                    );
                }
                _ => {}
            }
        }
    }
    facts
}

// ---- the comparison -------------------------------------------------------

pub fn show<T: Debug>(v: &Option<T>) -> String {
    v.as_ref()
        .map_or("none".into(), |v| format!("{v:?}").replace('"', ""))
}

/// Every difference between `ours` and `reference`, one line each, in a stable
/// order. `ours.islands` is checked against the reference's connections.
pub fn compare(ours: &Facts, reference: &Facts) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = |what: String, a: String, b: String| {
        if a != b {
            out.push(format!("{what}: ours {a}, reference {b}"));
        }
    };
    for id in union(&ours.spaces, &reference.spaces) {
        let (a, b) = (ours.spaces.get(id), reference.spaces.get(id));
        let (Some(a), Some(b)) = (a, b) else {
            field(
                format!("space {id}"),
                show(&a.map(|_| "present")),
                show(&b.map(|_| "present")),
            );
            continue;
        };
        let rows = [
            ("kind", a.kind.clone(), b.kind.clone()),
            ("ipc", show(&a.ipc), show(&b.ipc)),
            ("owner", show(&a.owner), show(&b.owner)),
            ("capital", show(&a.capital), show(&b.capital)),
            (
                "original factory",
                a.original_factory.to_string(),
                b.original_factory.to_string(),
            ),
            ("paid by", show(&a.paid_by), show(&b.paid_by)),
            (
                "convoy requires",
                show(&a.convoy_requires),
                show(&b.convoy_requires),
            ),
            (
                "converts units to",
                show(&a.converts_units_to),
                show(&b.converts_units_to),
            ),
        ];
        for (name, a, b) in rows {
            field(format!("space {id} {name}"), a, b);
        }
    }
    for (x, y) in ours
        .connections
        .symmetric_difference(&reference.connections)
    {
        let here = |f: &Facts| {
            if f.connections.contains(&(x.clone(), y.clone())) {
                "adjacent"
            } else {
                "not adjacent"
            }
        };
        field(
            format!("connection {x}-{y}"),
            here(ours).into(),
            here(reference).into(),
        );
    }
    for name in union(&ours.canals, &reference.canals) {
        let (a, b) = (ours.canals.get(name), reference.canals.get(name));
        field(format!("canal {name}"), show(&a), show(&b));
    }
    for key in union(&ours.units, &reference.units) {
        let count = |f: &Facts| f.units.get(key).copied().unwrap_or(0).to_string();
        field(
            format!("units {} {} at {}", key.1, key.2, key.0),
            count(ours),
            count(reference),
        );
    }
    for power in union(&ours.starting_ipcs, &reference.starting_ipcs) {
        let get = |f: &Facts| show(&f.starting_ipcs.get(power));
        field(
            format!("starting IPCs of {power}"),
            get(ours),
            get(reference),
        );
    }
    // An island "in" one sea zone (DAAK 3.4(b)) must touch that zone and nothing else.
    for (island, sea) in &ours.islands {
        let neighbours: Vec<&String> = reference
            .connections
            .iter()
            .filter(|(x, y)| x == island || y == island)
            .map(|(x, y)| if x == island { y } else { x })
            .collect();
        field(
            format!("island {island} neighbours"),
            show(&Some([sea])),
            show(&Some(neighbours)),
        );
    }
    out
}

// ---- the unit table and the powers ----------------------------------------

/// One unit type's compared properties, by name, each shown as text. Every
/// type has every property: a missing value reads "none" or `false`.
pub type UnitFacts = BTreeMap<&'static str, String>;

/// What a ruleset says about its powers and unit types.
#[derive(Clone, Debug, Default)]
pub struct RulesetFacts {
    /// Powers in turn order, each with its side.
    pub powers: Vec<(String, String)>,
    pub units: BTreeMap<String, UnitFacts>,
}

/// The loads a carrying unit can take: every combination of cargo that fits in
/// `capacity` and leaves no room for one more unit, each as `a+b`, sorted, in
/// one line. `cargo` maps each type it can carry to the room it takes (> 0).
/// Comparing loads rather than numbers copes with TripleA's scale (a transport
/// of 4 with infantry at 2) against ours (2 and 1).
pub fn maximal_loads(capacity: u32, cargo: &BTreeMap<String, u32>) -> String {
    fn walk(
        types: &[(&String, u32)],
        from: usize,
        room: u32,
        load: &mut Vec<String>,
        out: &mut BTreeSet<String>,
    ) {
        let mut extended = false;
        for (i, (t, size)) in types.iter().enumerate().skip(from) {
            if *size <= room {
                extended = true;
                load.push(t.to_string());
                walk(types, i, room - size, load, out);
                load.pop();
            }
        }
        // Maximal: nothing at all (not only from `from` on) fits any more.
        if !extended && !load.is_empty() && types.iter().all(|(_, s)| *s > room) {
            out.insert(load.join("+"));
        }
    }
    let types: Vec<(&String, u32)> = cargo
        .iter()
        .map(|(t, s)| (t, *s))
        .filter(|(_, s)| *s > 0)
        .collect();
    let mut out = BTreeSet::new();
    walk(&types, 0, capacity, &mut Vec::new(), &mut out);
    if out.is_empty() {
        "nothing".into()
    } else {
        out.into_iter().collect::<Vec<_>>().join(", ")
    }
}

fn yes_no(b: bool) -> String {
    b.to_string()
}

fn value_or_none(v: u32) -> String {
    if v == 0 {
        "none".into()
    } else {
        v.to_string()
    }
}

#[derive(Deserialize)]
struct RulesetFile {
    #[serde(default)]
    power: Vec<PowerEntry>,
    #[serde(default)]
    unit: Vec<UnitEntry>,
}
#[derive(Deserialize)]
struct PowerEntry {
    id: String,
    side: String,
}
#[derive(Deserialize)]
struct UnitEntry {
    #[serde(rename = "type")]
    kind: String,
    domain: String,
    cost: u32,
    attack: u32,
    defense: u32,
    movement: u32,
    #[serde(default)]
    cargo_size: u32,
    #[serde(default)]
    cargo: Option<CargoEntry>,
    #[serde(default)]
    blitz: bool,
    #[serde(default)]
    submarine: bool,
    #[serde(default)]
    strategic_bomber: bool,
    #[serde(default)]
    bombard: u32,
    #[serde(default)]
    anti_aircraft: u32,
    #[serde(default)]
    factory: bool,
    #[serde(default = "one")]
    hit_points: u32,
    #[serde(default)]
    support: Option<SupportEntry>,
    #[serde(default)]
    anti_submarine: bool,
    #[serde(default = "yes")]
    buyable: bool,
}
#[derive(Deserialize)]
struct CargoEntry {
    capacity: u32,
    carries: Vec<String>,
}
#[derive(Deserialize)]
struct SupportEntry {
    #[serde(rename = "type")]
    kind: String,
    attack: u32,
}
fn one() -> u32 {
    1
}
fn yes() -> bool {
    true
}

/// The powers and the unit table of our ruleset.toml.
pub fn load_our_ruleset(ruleset_toml: &str) -> RulesetFacts {
    let file: RulesetFile =
        toml::from_str(ruleset_toml).unwrap_or_else(|e| panic!("ruleset.toml: {e}"));
    let mut facts = RulesetFacts {
        powers: file.power.into_iter().map(|p| (p.id, p.side)).collect(),
        ..Default::default()
    };
    for u in &file.unit {
        let loads = u.cargo.as_ref().map_or("nothing".into(), |c| {
            let cargo = file
                .unit
                .iter()
                .filter(|v| c.carries.contains(&v.domain))
                .map(|v| (v.kind.clone(), v.cargo_size))
                .collect();
            maximal_loads(c.capacity, &cargo)
        });
        let supports = u.support.as_ref().map_or("none".into(), |s| {
            format!("{} attacks at {}", s.kind, s.attack)
        });
        let row: UnitFacts = [
            ("domain", u.domain.clone()),
            ("cost", u.cost.to_string()),
            ("buyable", yes_no(u.buyable)),
            ("attack", u.attack.to_string()),
            ("defense", u.defense.to_string()),
            ("movement", u.movement.to_string()),
            ("hit points", u.hit_points.to_string()),
            ("blitz", yes_no(u.blitz)),
            ("submarine", yes_no(u.submarine)),
            ("strategic bomber", yes_no(u.strategic_bomber)),
            ("anti-submarine", yes_no(u.anti_submarine)),
            ("bombard", value_or_none(u.bombard)),
            ("anti-aircraft", value_or_none(u.anti_aircraft)),
            ("factory", yes_no(u.factory)),
            ("supports", supports),
            ("carries", loads),
        ]
        .into_iter()
        .collect();
        assert!(
            facts.units.insert(u.kind.clone(), row).is_none(),
            "ruleset.toml: unit {} twice",
            u.kind
        );
    }
    facts
}

/// The players (in turn order, with their alliance) and the unit table of a
/// TripleA game XML: `unitAttachment`s, `productionRule`s (cost) and the
/// production frontiers (buyable).
pub fn load_reference_ruleset(xml_file: &str, xml: &str, names: &Names) -> RulesetFacts {
    let doc = parse_xml(xml_file, xml);
    let attr = |n: &roxmltree::Node, a: &str| attr(xml_file, n, a);
    let (powers, units) = (&names.powers, &names.units);
    let mut facts = RulesetFacts::default();

    // Turn order: the players' turns in the sequence (each has one end-turn step).
    let mut sides = BTreeMap::new();
    for n in elements(&doc) {
        if n.has_tag_name("alliance") {
            sides.insert(attr(&n, "player"), attr(&n, "alliance").to_lowercase());
        }
    }
    for n in elements(&doc) {
        if n.has_tag_name("step") && n.attribute("delegate") == Some("endTurn") {
            let player = attr(&n, "player");
            let side = sides.get(&player).cloned().unwrap_or_else(|| "none".into());
            facts.powers.push((map_name(powers, &player), side));
        }
    }

    // Cost: the rule buying one of the type for PUs; buyable: that rule is in a frontier.
    let in_frontier: BTreeSet<String> = elements(&doc)
        .filter(|n| n.has_tag_name("frontierRules"))
        .map(|n| attr(&n, "name"))
        .collect();
    let mut cost = BTreeMap::new();
    let mut buyable = BTreeSet::new();
    for rule in elements(&doc).filter(|n| n.has_tag_name("productionRule")) {
        let results: Vec<_> = rule
            .children()
            .filter(|c| c.has_tag_name("result"))
            .collect();
        let pus: Vec<_> = rule
            .children()
            .filter(|c| c.has_tag_name("cost") && c.attribute("resource") == Some("PUs"))
            .collect();
        let ([result], [pus]) = (&results[..], &pus[..]) else {
            continue;
        };
        if result.attribute("quantity") != Some("1") {
            continue;
        }
        let unit = map_name(units, &attr(result, "resourceOrUnit"));
        let q: u32 = attr(pus, "quantity")
            .parse()
            .unwrap_or_else(|_| panic!("{xml_file}: productionRule cost is not a number"));
        cost.insert(unit.clone(), q);
        if in_frontier.contains(&attr(&rule, "name")) {
            buyable.insert(unit);
        }
    }

    // The unit attachments, as name -> value per unit type (TripleA's names).
    let mut attachments: BTreeMap<String, BTreeMap<String, String>> = elements(&doc)
        .filter(|n| n.has_tag_name("unit"))
        .map(|n| (attr(&n, "name"), BTreeMap::new()))
        .collect();
    for n in elements(&doc) {
        if n.has_tag_name("attachment") && n.attribute("name") == Some("unitAttachment") {
            attachments
                .entry(attr(&n, "attachTo"))
                .or_default()
                .extend(options(xml_file, &n));
        }
    }
    let num = |o: &BTreeMap<String, String>, k: &str| -> u32 {
        o.get(k).map_or(0, |v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{xml_file}: unitAttachment {k} = {v:?}"))
        })
    };
    let flag = |o: &BTreeMap<String, String>, k: &str| o.get(k).is_some_and(|v| v == "true");
    let room = |key: &str| -> BTreeMap<String, u32> {
        attachments
            .iter()
            .map(|(t, o)| (map_name(units, t), num(o, key)))
            .collect()
    };
    let (transport_room, carrier_room) = (room("transportCost"), room("carrierCost"));
    let supported: Vec<String> = attachments
        .iter()
        .filter(|(_, o)| flag(o, "artillerySupportable"))
        .map(|(t, o)| format!("{} attacks at {}", map_name(units, t), num(o, "attack") + 1))
        .collect();

    for (name, o) in &attachments {
        let id = map_name(units, name);
        let domain = if flag(o, "isAir") {
            "air"
        } else if flag(o, "isSea") {
            "sea"
        } else {
            "land"
        };
        let hit_points = match num(o, "hitPoints") {
            0 if flag(o, "isTwoHit") => 2,
            0 => 1,
            n => n,
        };
        // canBombard fires at the unit's `bombard` value, else at its attack.
        let bombard = if flag(o, "canBombard") {
            o.get("bombard")
                .map_or(num(o, "attack"), |_| num(o, "bombard"))
        } else {
            0
        };
        // An AA gun hits aircraft on a 1 unless it says otherwise.
        let anti_aircraft = if flag(o, "isAA") || flag(o, "isAAforCombatOnly") {
            o.get("attackAA").map_or(1, |_| num(o, "attackAA"))
        } else {
            0
        };
        let mut loads = Vec::new();
        if num(o, "transportCapacity") > 0 {
            loads.push(maximal_loads(num(o, "transportCapacity"), &transport_room));
        }
        if num(o, "carrierCapacity") > 0 {
            loads.push(maximal_loads(num(o, "carrierCapacity"), &carrier_room));
        }
        let supports = if flag(o, "artillery") && !supported.is_empty() {
            supported.join(", ")
        } else {
            "none".into()
        };
        let row: UnitFacts = [
            ("domain", domain.to_string()),
            ("cost", show(&cost.get(&id))),
            ("buyable", yes_no(buyable.contains(&id))),
            ("attack", num(o, "attack").to_string()),
            ("defense", num(o, "defense").to_string()),
            ("movement", num(o, "movement").to_string()),
            ("hit points", hit_points.to_string()),
            ("blitz", yes_no(flag(o, "canBlitz"))),
            ("submarine", yes_no(flag(o, "isSub"))),
            ("strategic bomber", yes_no(flag(o, "isStrategicBomber"))),
            ("anti-submarine", yes_no(flag(o, "isDestroyer"))),
            ("bombard", value_or_none(bombard)),
            ("anti-aircraft", value_or_none(anti_aircraft)),
            ("factory", yes_no(flag(o, "isFactory"))),
            ("supports", supports),
            (
                "carries",
                if loads.is_empty() {
                    "nothing".into()
                } else {
                    loads.join("; ")
                },
            ),
        ]
        .into_iter()
        .collect();
        facts.units.insert(id, row);
    }
    facts
}

/// Every difference in the powers and the unit tables, one line each.
pub fn compare_rulesets(ours: &RulesetFacts, reference: &RulesetFacts) -> Vec<String> {
    let mut out = Vec::new();
    let list = |f: &RulesetFacts| {
        f.powers
            .iter()
            .map(|(p, s)| format!("{p} ({s})"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if ours.powers != reference.powers {
        out.push(format!(
            "powers in turn order: ours {}, reference {}",
            list(ours),
            list(reference)
        ));
    }
    for unit in union(&ours.units, &reference.units) {
        let (Some(a), Some(b)) = (ours.units.get(unit), reference.units.get(unit)) else {
            let here = |f: &RulesetFacts| {
                if f.units.contains_key(unit) {
                    "present"
                } else {
                    "none"
                }
            };
            out.push(format!(
                "unit {unit}: ours {}, reference {}",
                here(ours),
                here(reference)
            ));
            continue;
        };
        for key in union(a, b) {
            let get = |f: &UnitFacts| f.get(key).cloned().unwrap_or_else(|| "none".into());
            let (x, y) = (get(a), get(b));
            if x != y {
                out.push(format!("unit {unit} {key}: ours {x}, reference {y}"));
            }
        }
    }
    out
}

// ---- the verdict ----------------------------------------------------------

/// Prints `summary` with the number of differences, then each accepted,
/// unexplained and stale line, and fails on any unexplained difference or
/// stale `accepted` entry. `accepted` pairs an exact report line with the
/// ruling that justifies it; `ruleset` names the ruleset whose
/// REFERENCE-DIFFERENCES.md mirrors it.
pub fn judge(ruleset: &str, summary: &str, found: &[String], accepted: &[(&str, &str)]) {
    let accepted: BTreeMap<&str, &str> = accepted.iter().copied().collect();
    let unexplained: Vec<&String> = found
        .iter()
        .filter(|d| !accepted.contains_key(d.as_str()))
        .collect();
    let stale: Vec<&&str> = accepted
        .keys()
        .filter(|a| !found.iter().any(|d| d == **a))
        .collect();

    // Say what was compared, so an empty parse cannot pass unnoticed by a reader.
    println!(
        "{summary}: {} difference(s), {} accepted",
        found.len(),
        found.len() - unexplained.len()
    );
    for d in found.iter().filter(|d| accepted.contains_key(d.as_str())) {
        println!("  accepted: {d}  ({})", accepted[d.as_str()]);
    }
    for d in &unexplained {
        println!("  UNEXPLAINED: {d}");
    }
    for a in &stale {
        println!("  STALE allow-list entry (difference no longer occurs): {a}");
    }
    assert!(
        unexplained.is_empty() && stale.is_empty(),
        "{} unexplained difference(s) and {} stale allow-list entr(y/ies); see the report above. Fix the data, or \
         add the difference to ACCEPTED with its ruling and to rulesets/{ruleset}/REFERENCE-DIFFERENCES.md",
        unexplained.len(),
        stale.len()
    );
}

/// The comparison must be able to fail: identical data gives no difference,
/// and a copy with one connection removed and one IPC value changed gives
/// exactly those two. Runs on our own data, without the reference.
pub fn check_injected_differences(ours: &Facts, one_sided: &[String]) {
    assert!(
        one_sided.is_empty(),
        "one-sided adjacency in map.toml: {one_sided:?}"
    );
    assert_eq!(
        compare(ours, ours),
        Vec::<String>::new(),
        "our data differs from itself (island_in inconsistent?)"
    );

    let mut changed = ours.clone();
    // Remove a connection that touches no island, so the island check stays quiet.
    let (x, y) = ours
        .connections
        .iter()
        .find(|(x, y)| !ours.islands.contains_key(x) && !ours.islands.contains_key(y))
        .expect("map.toml has a connection between non-islands")
        .clone();
    changed.connections.remove(&(x.clone(), y.clone()));
    let (land, space) = changed
        .spaces
        .iter_mut()
        .find(|(_, s)| s.ipc.is_some())
        .expect("map.toml has a land space");
    let ipc = space.ipc.unwrap();
    space.ipc = Some(ipc + 1);
    let land = land.clone();

    assert_eq!(
        compare(ours, &changed),
        vec![
            format!("space {land} ipc: ours {ipc}, reference {}", ipc + 1),
            format!("connection {x}-{y}: ours adjacent, reference not adjacent"),
        ]
    );
}
