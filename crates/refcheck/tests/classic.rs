//! Cross-checks warboard's classic ruleset data (`rulesets/classic/map.toml` and
//! `setup.toml`) against TripleA's `classic/classic.xml` in `../shared/reference`.
//!
//! Both sources are reduced to the same plain [`Facts`] (spaces, connections,
//! owners, IPC values, capitals, original factories, canals, starting units and
//! starting IPCs, all keyed by warboard ids) and compared field by field. Every
//! difference must either vanish or appear in [`ACCEPTED`] with the ruling that
//! justifies it; `rulesets/classic/REFERENCE-DIFFERENCES.md` mirrors that list.
//!
//! The reference data is third-party and lives outside the repository, so a
//! user's clone may not have it: the check is then skipped, except under CI.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::path::{Path, PathBuf};

/// Differences that are deliberate, each with the ruling that justifies it.
/// The left string must equal a line of the report exactly. Keep this list in
/// step with `rulesets/classic/REFERENCE-DIFFERENCES.md`. Currently empty: the
/// classic data agrees with the reference in everything compared.
const ACCEPTED: &[(&str, &str)] = &[];

/// TripleA player names and unit type names, mapped to warboard ids.
const POWERS: &[(&str, &str)] = &[
    ("Russians", "russia"),
    ("Germans", "germany"),
    ("British", "uk"),
    ("Japanese", "japan"),
    ("Americans", "usa"),
];
const UNIT_TYPES: &[(&str, &str)] = &[
    ("infantry", "infantry"),
    ("armour", "armor"),
    ("fighter", "fighter"),
    ("bomber", "bomber"),
    ("transport", "transport"),
    ("submarine", "submarine"),
    ("carrier", "aircraft_carrier"),
    ("battleship", "battleship"),
    ("aaGun", "aa_gun"),
    ("factory", "industrial_complex"),
];

/// What both sources say about one space. `None` means "no value": a sea zone
/// has no IPC value; a neutral or sea space has no owner; `capital` holds the
/// power whose capital it is.
#[derive(Clone, Debug, Default, PartialEq)]
struct SpaceFacts {
    kind: String,
    ipc: Option<u32>,
    owner: Option<String>,
    capital: Option<String>,
    original_factory: bool,
}

#[derive(Clone, Debug, Default)]
struct Facts {
    spaces: BTreeMap<String, SpaceFacts>,
    /// Unordered pairs, stored with the smaller id first.
    connections: BTreeSet<(String, String)>,
    /// Canal name -> (sea zones joined, land spaces that control it).
    canals: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>,
    /// (space, owner, unit type) -> count; zero counts are never stored.
    units: BTreeMap<(String, String, String), u32>,
    starting_ipcs: BTreeMap<String, u32>,
    /// Island -> the one sea zone that encloses it (`island_in`, ours only).
    islands: BTreeMap<String, String>,
}

/// The keys of both maps, sorted, each once.
fn union<'a, K: Ord, V>(a: &'a BTreeMap<K, V>, b: &'a BTreeMap<K, V>) -> BTreeSet<&'a K> {
    a.keys().chain(b.keys()).collect()
}

/// A name table from `(TripleA name, warboard id)` pairs.
fn table(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn pair(a: &str, b: &str) -> (String, String) {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    (a.to_string(), b.to_string())
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
    adjacent: Vec<String>,
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

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn ruleset_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/classic")
}

/// Parses map.toml and setup.toml. Also returns adjacency listed by one side
/// only, which the unordered pair set would otherwise hide.
fn load_ours(map_toml: &str, setup_toml: &str) -> (Facts, Vec<String>) {
    let map: MapFile = toml::from_str(map_toml).unwrap_or_else(|e| panic!("map.toml: {e}"));
    let setup: SetupFile = toml::from_str(setup_toml).unwrap_or_else(|e| panic!("setup.toml: {e}"));
    let mut facts = Facts::default();
    let mut listed = BTreeSet::new();
    for s in &map.space {
        let owner = s.owner.clone().filter(|o| o != "neutral");
        let space = SpaceFacts {
            kind: s.kind.clone(),
            ipc: s.ipc,
            // Ours marks a capital with `capital = true`; TripleA names its power.
            capital: s
                .capital
                .then(|| owner.clone().unwrap_or_else(|| "neutral".into())),
            owner,
            original_factory: s.original_factory,
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

/// Maps a TripleA name through `table`; an unknown name is kept, marked, so it
/// shows up in the report instead of aborting the comparison.
fn map_name(table: &BTreeMap<String, String>, name: &str) -> String {
    table
        .get(name)
        .cloned()
        .unwrap_or_else(|| format!("<unmapped TripleA name {name:?}>"))
}

fn load_reference(xml: &str, ids_tsv: &str) -> Facts {
    // classic-ids.tsv: id, triplea_name, kind, ... (header line first).
    let mut names = BTreeMap::new();
    for line in ids_tsv.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(
            cols.len() >= 2,
            "classic-ids.tsv: too few columns in {line:?}"
        );
        let dup = names.insert(cols[1].to_string(), cols[0].to_string());
        assert!(
            dup.is_none(),
            "classic-ids.tsv: TripleA name {:?} mapped twice",
            cols[1]
        );
    }
    let ids: BTreeSet<_> = names.values().collect();
    assert_eq!(
        ids.len(),
        names.len(),
        "classic-ids.tsv: some warboard id is used twice"
    );
    let (powers, units) = (table(POWERS), table(UNIT_TYPES));

    // The XML has a DOCTYPE line (an external DTD, never loaded).
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(xml, opts)
        .unwrap_or_else(|e| panic!("classic.xml: {e}"));
    let attr = |n: &roxmltree::Node, a: &str| -> String {
        n.attribute(a)
            .unwrap_or_else(|| panic!("classic.xml: <{}> without {a}", n.tag_name().name()))
            .to_string()
    };
    let mut facts = Facts::default();
    for n in doc.descendants().filter(|n| n.is_element()) {
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
                    .insert(map_name(&names, &attr(&n, "name")), space);
            }
            "connection" => {
                facts.connections.insert(pair(
                    &map_name(&names, &attr(&n, "t1")),
                    &map_name(&names, &attr(&n, "t2")),
                ));
            }
            "unitPlacement" => {
                let key = (
                    map_name(&names, &attr(&n, "territory")),
                    map_name(&powers, &attr(&n, "owner")),
                    map_name(&units, &attr(&n, "unitType")),
                );
                let q: u32 = attr(&n, "quantity")
                    .parse()
                    .expect("classic.xml: unitPlacement quantity is not a number");
                *facts.units.entry(key).or_default() += q;
            }
            "resourceGiven" if n.attribute("resource") == Some("PUs") => {
                let q: u32 = attr(&n, "quantity")
                    .parse()
                    .expect("classic.xml: resourceGiven quantity is not a number");
                facts
                    .starting_ipcs
                    .insert(map_name(&powers, &attr(&n, "player")), q);
            }
            _ => {}
        }
    }
    // Second pass: owners and attachments refer to spaces created above.
    for n in doc.descendants().filter(|n| n.is_element()) {
        let tag = n.tag_name().name();
        if tag == "territoryOwner" {
            let id = map_name(&names, &attr(&n, "territory"));
            facts.spaces.entry(id).or_default().owner = Some(map_name(&powers, &attr(&n, "owner")));
        } else if tag == "attachment" {
            let options: Vec<(String, String)> = n
                .children()
                .filter(|c| c.has_tag_name("option"))
                .map(|c| {
                    (
                        attr(&c, "name"),
                        c.attribute("value").unwrap_or("").to_string(),
                    )
                })
                .collect();
            let target = map_name(&names, &attr(&n, "attachTo"));
            match n.attribute("name") {
                Some("territoryAttachment") => {
                    let space = facts.spaces.entry(target).or_default();
                    for (name, value) in options {
                        match name.as_str() {
                            "production" => space.ipc = value.parse().ok(),
                            "capital" => space.capital = Some(map_name(&powers, &value)),
                            "originalFactory" => space.original_factory = value == "true",
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
                            .map(|t| map_name(&names, t)),
                    );
                }
                _ => {}
            }
        }
    }
    facts
}

// ---- the comparison -------------------------------------------------------

fn show<T: Debug>(v: &Option<T>) -> String {
    v.as_ref()
        .map_or("none".into(), |v| format!("{v:?}").replace('"', ""))
}

/// Every difference between `ours` and `reference`, one line each, in a stable
/// order. `ours.islands` is checked against the reference's connections.
fn compare(ours: &Facts, reference: &Facts) -> Vec<String> {
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

// ---- the tests ------------------------------------------------------------

fn ours() -> (Facts, Vec<String>) {
    let dir = ruleset_dir();
    load_ours(&read(&dir.join("map.toml")), &read(&dir.join("setup.toml")))
}

/// CI must run the check; anything other than unset, empty, "0" or "false" counts as set.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

#[test]
fn classic_data_matches_triplea_reference() {
    let reference_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference");
    if !reference_dir.is_dir() {
        assert!(
            !in_ci(),
            "../shared/reference not found, but CI is set: the reference check must run in CI"
        );
        println!("skipped: ../shared/reference not found");
        return;
    }
    let reference = load_reference(
        &read(&reference_dir.join("triplea/classic/classic.xml")),
        &read(&reference_dir.join("classic-ids.tsv")),
    );
    let (ours, one_sided) = ours();
    let found: Vec<String> = one_sided
        .into_iter()
        .chain(compare(&ours, &reference))
        .collect();

    let accepted: BTreeMap<&str, &str> = ACCEPTED.iter().copied().collect();
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
        "classic vs TripleA classic.xml: compared {} spaces, {} connections, {} canals, {} unit stacks, \
         {} starting IPC amounts, {} islands: {} difference(s), {} accepted",
        reference.spaces.len(),
        reference.connections.len(),
        reference.canals.len(),
        reference.units.len(),
        reference.starting_ipcs.len(),
        ours.islands.len(),
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
         add the difference to ACCEPTED with its ruling and to rulesets/classic/REFERENCE-DIFFERENCES.md",
        unexplained.len(),
        stale.len()
    );
}

/// The comparison must be able to fail: identical data gives no difference, and
/// a copy with one connection removed and one IPC value changed gives exactly
/// those two. Runs without the reference, on our own data.
#[test]
fn comparison_reports_injected_differences() {
    let (ours, one_sided) = ours();
    assert!(
        one_sided.is_empty(),
        "one-sided adjacency in map.toml: {one_sided:?}"
    );
    assert_eq!(
        compare(&ours, &ours),
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
        compare(&ours, &changed),
        vec![
            format!("space {land} ipc: ours {ipc}, reference {}", ipc + 1),
            format!("connection {x}-{y}: ours adjacent, reference not adjacent"),
        ]
    );
}
