//! Cross-checks warboard's anniversary ruleset data (`rulesets/anniversary/
//! map.toml`, `setup-1941.toml`, `setup-1942.toml`, and the powers and unit
//! table of `ruleset.toml`) against TripleA's "World War II v3" games,
//! `anniversary/WW2v3-1941.xml` and `WW2v3-1942.xml` in `../shared/reference`,
//! with TripleA's names mapped to our ids by
//! `../shared/reference/anniversary-ids.tsv`.
//!
//! Compared, for each scenario against its own XML: every space (kind, IPC
//! value, capital, victory city), every connection (and that our map lists each
//! both ways), the Suez and Panama canals, the islands, the starting units per
//! space, owner and type, the starting controller of every territory (our
//! map's `owner` unless the setup's `[control]` says otherwise, against
//! TripleA's `territoryOwner`s), the original controller (our map's `owner`
//! against TripleA's `originalOwner` option, else its starting owner), the
//! starting IPCs, the powers in the scenario's turn order with their sides, and
//! the unit table (as `tests/europe.rs` does, plus the Improved Shipyards
//! costs). Once, for the map: every space's kind, IPC value and original
//! controller against the ids table, and the starting IPCs against
//! `shared/rules/anniversary.md` §1 (its errata: Germany starts 1942 with 37).
//!
//! The library (`src/lib.rs`) reads most of it. What it cannot read of the
//! WW2v3 files is done here: TripleA's Improved Shipyards `productionRule`s
//! would overwrite the ordinary costs, so they are taken out before the unit
//! table is read and compared on their own; China's turn ends with a
//! `endTurnNoPU` step, which the library does not count, so the turn order is
//! the order in which each player's first step of the round comes; canal
//! names are TripleA's without " Canal"; `originalOwner` and `victoryCity` are
//! read here.
//!
//! Every difference must either vanish or appear in [`ACCEPTED`] with the
//! ruling that justifies it; `rulesets/anniversary/REFERENCE-DIFFERENCES.md`
//! lists the same lines. Without `../shared/reference` the check is skipped,
//! except under CI.

use std::collections::{BTreeMap, BTreeSet};
use warboard_refcheck::{
    check_differences_documented, check_injected_differences, compare, compare_rulesets, judge, load_our_ruleset, load_ours,
    load_reference, load_reference_ruleset, map_name, parse_xml, read, reference_dir, ruleset_dir,
    show, union, Facts, Names, RulesetFacts,
};

/// Differences that are deliberate, each with the ruling that justifies it.
/// The left string must equal a line of the report exactly; each must also
/// appear, in backquotes, in `rulesets/anniversary/REFERENCE-DIFFERENCES.md`.
const ACCEPTED: &[(&str, &str)] = &[
    (
        "1941: space MON capital: ours none, reference china",
        CHINA_CAPITAL,
    ),
    (
        "1942: space MON capital: ours none, reference china",
        CHINA_CAPITAL,
    ),
    (
        "1941: space SAU owner: ours none, reference uk",
        SAUDI_ARABIA,
    ),
    (
        "1942: space SAU owner: ours none, reference uk",
        SAUDI_ARABIA,
    ),
    (
        "1941: space SAU original owner: ours neutral, reference uk",
        SAUDI_ARABIA,
    ),
    (
        "1942: space SAU original owner: ours neutral, reference uk",
        SAUDI_ARABIA,
    ),
    (
        "1941: unit bomber carries: ours nothing, reference infantry",
        PARATROOPERS,
    ),
    (
        "1942: unit bomber carries: ours nothing, reference infantry",
        PARATROOPERS,
    ),
];

const CHINA_CAPITAL: &str =
    "rules/anniversary.md §1 and §8 (AA50 FAQ: China): China has no capital \
     and no IPCs; ruleset.toml's china names none. TripleA marks impassable neutral Mongolia \
     `capital=Chinese`, a device of its engine (anniversary-ids.tsv notes it)";

const SAUDI_ARABIA: &str =
    "rules/anniversary.md §6 and anniversary-ids.tsv: Saudi Arabia is one of \
     the 15 impassable neutrals, worth 0. TripleA gives it a British territoryOwner besides \
     isImpassable; nobody may enter it either way and it pays nothing";

const PARATROOPERS: &str =
    "rules/anniversary.md §3 and §5: a bomber carries one infantry only with \
     the Paratroopers development (research_charts = \"anniversary\"), not as a unit property. \
     TripleA gives every bomber transportCapacity=2 and isAirTransport, used only with its \
     paratroopers tech";

/// TripleA player, unit type and canal names, mapped to warboard ids.
const POWERS: &[(&str, &str)] = &[
    ("Germans", "germany"),
    ("Russians", "russia"),
    ("Japanese", "japan"),
    ("British", "uk"),
    ("Italians", "italy"),
    ("Americans", "usa"),
    ("Chinese", "china"),
];
const UNIT_TYPES: &[(&str, &str)] = &[
    ("infantry", "infantry"),
    ("artillery", "artillery"),
    ("armour", "armor"),
    ("fighter", "fighter"),
    ("bomber", "bomber"),
    ("transport", "transport"),
    ("submarine", "submarine"),
    ("destroyer", "destroyer"),
    ("cruiser", "cruiser"),
    ("carrier", "aircraft_carrier"),
    ("battleship", "battleship"),
    ("aaGun", "aa_gun"),
    ("factory", "industrial_complex"),
];
const CANALS: &[(&str, &str)] = &[("Suez Canal", "Suez"), ("Panama Canal", "Panama")];

/// The scenarios: name (as in ruleset.toml's `[[scenario]]`), our setup file,
/// TripleA's game file.
const SCENARIOS: &[(&str, &str, &str)] = &[
    ("1941", "setup-1941.toml", "WW2v3-1941.xml"),
    ("1942", "setup-1942.toml", "WW2v3-1942.xml"),
];

/// Starting IPCs, rules/anniversary.md §1 (with the errata: Germany 37 in 1942).
const DIGEST_IPCS: &[(&str, &[(&str, u32)])] = &[
    (
        "1941",
        &[
            ("germany", 31),
            ("russia", 30),
            ("japan", 17),
            ("uk", 43),
            ("italy", 10),
            ("usa", 40),
            ("china", 0),
        ],
    ),
    (
        "1942",
        &[
            ("germany", 37),
            ("russia", 24),
            ("japan", 31),
            ("uk", 31),
            ("italy", 10),
            ("usa", 38),
            ("china", 0),
        ],
    ),
];

/// One side of a scenario's comparison. `facts.spaces[..].owner` is the
/// starting controller; `original_owners` the original one of each land space
/// ("neutral" for none).
#[derive(Clone, Debug, Default)]
struct Data {
    facts: Facts,
    original_owners: BTreeMap<String, String>,
    victory_cities: BTreeSet<String>,
    rules: RulesetFacts,
    /// Unit type -> its cost with Improved Shipyards.
    shipyards: BTreeMap<String, u32>,
}

fn toml_table(file: &str, text: &str) -> toml::Table {
    toml::from_str(text).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn array<'a>(t: &'a toml::Table, key: &str) -> &'a [toml::Value] {
    t.get(key)
        .and_then(|v| v.as_array())
        .map_or(&[], |a| a.as_slice())
}

fn string(v: &toml::Value, key: &str) -> Option<String> {
    v.get(key).and_then(|s| s.as_str()).map(str::to_string)
}

/// Our data for one scenario, and the adjacency our map lists one way only.
fn ours(scenario: &str, setup_file: &str) -> (Data, Vec<String>) {
    let dir = ruleset_dir("anniversary");
    let map_toml = read(&dir.join("map.toml"));
    let setup_toml = read(&dir.join(setup_file));
    let ruleset_toml = read(&dir.join("ruleset.toml"));
    let (mut facts, one_sided) = load_ours(&map_toml, &setup_toml);

    let map = toml_table("map.toml", &map_toml);
    let mut original_owners = BTreeMap::new();
    let mut victory_cities = BTreeSet::new();
    for s in array(&map, "space") {
        let id = string(s, "id").expect("map.toml: a space without id");
        if string(s, "kind").as_deref() == Some("land") {
            let owner = string(s, "owner").unwrap_or_else(|| "none".into());
            original_owners.insert(id.clone(), owner);
        }
        if s.get("victory_city").and_then(|v| v.as_bool()) == Some(true) {
            victory_cities.insert(id);
        }
    }
    // The starting controller: the setup's `[control]`, else the map's owner.
    let setup = toml_table(setup_file, &setup_toml);
    if let Some(control) = setup.get("control").and_then(|c| c.as_table()) {
        for (t, p) in control {
            let p = p
                .as_str()
                .unwrap_or_else(|| panic!("{setup_file}: control.{t}"));
            facts.spaces.entry(t.clone()).or_default().owner = Some(p.to_string());
        }
    }

    let mut rules = load_our_ruleset(&ruleset_toml);
    let ruleset = toml_table("ruleset.toml", &ruleset_toml);
    let listed = |v: Option<&toml::Value>| -> Vec<String> {
        v.and_then(|o| o.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|p| p.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let scenario_order = array(&ruleset, "scenario")
        .iter()
        .find(|s| string(s, "name").as_deref() == Some(scenario))
        .map(|s| listed(s.get("turn_order")))
        .unwrap_or_default();
    let order = if scenario_order.is_empty() {
        listed(ruleset.get("turn_order"))
    } else {
        scenario_order
    };
    if !order.is_empty() {
        let sides: BTreeMap<String, String> = rules.powers.iter().cloned().collect();
        rules.powers = order
            .into_iter()
            .map(|p| {
                let side = sides.get(&p).cloned().unwrap_or_else(|| "none".into());
                (p, side)
            })
            .collect();
    }
    let shipyards = array(&ruleset, "unit")
        .iter()
        .filter_map(|u| {
            let cost = u.get("shipyards_cost")?.as_integer()?;
            Some((string(u, "type")?, u32::try_from(cost).ok()?))
        })
        .collect();
    let data = Data {
        facts,
        original_owners,
        victory_cities,
        rules,
        shipyards,
    };
    (data, one_sided)
}

/// TripleA's Improved Shipyards rules, by name ending; the library would take
/// their prices for the ordinary costs, the later rule winning.
fn is_shipyards_rule(name: &str) -> bool {
    name.ends_with("Shipyards")
}

/// The XML without its Improved Shipyards `productionRule`s.
fn without_shipyards_rules(xml: &str) -> String {
    let mut out = String::with_capacity(xml.len());
    let mut rest = xml;
    while let Some(start) = rest.find("<productionRule ") {
        let open_end = start
            + rest[start..]
                .find('>')
                .expect("unterminated <productionRule");
        let name = rest[start..open_end]
            .split("name=\"")
            .nth(1)
            .and_then(|n| n.split('"').next())
            .unwrap_or("");
        let close = "</productionRule>";
        let end = open_end
            + rest[open_end..]
                .find(close)
                .expect("a <productionRule> without its end")
            + close.len();
        out.push_str(&rest[..start]);
        if !is_shipyards_rule(name) {
            out.push_str(&rest[start..end]);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// TripleA's data for one scenario.
fn reference(xml_file: &str, xml: &str, names: &Names) -> Data {
    let mut facts = load_reference(xml_file, xml, names);
    facts.canals = std::mem::take(&mut facts.canals)
        .into_iter()
        .map(|(name, canal)| {
            let ours = CANALS
                .iter()
                .find(|(theirs, _)| *theirs == name)
                .map_or(name, |(_, ours)| ours.to_string());
            (ours, canal)
        })
        .collect();
    let mut rules = load_reference_ruleset(xml_file, &without_shipyards_rules(xml), names);

    let doc = parse_xml(xml_file, xml);
    let elements = || doc.descendants().filter(|n| n.is_element());
    let space = |n: &roxmltree::Node, a: &str| {
        map_name(
            &names.spaces,
            n.attribute(a)
                .unwrap_or_else(|| panic!("{xml_file}: <{}> without {a}", n.tag_name().name())),
        )
    };
    let power = |p: &str| map_name(&names.powers, p);

    // Original owners: TripleA's `originalOwner` option, else the starting owner.
    let mut original_owners: BTreeMap<String, String> = facts
        .spaces
        .iter()
        .filter(|(_, s)| s.kind == "land")
        .map(|(id, s)| {
            (
                id.clone(),
                s.owner.clone().unwrap_or_else(|| "neutral".into()),
            )
        })
        .collect();
    let mut victory_cities = BTreeSet::new();
    for n in elements() {
        if n.attribute("name") != Some("territoryAttachment") {
            continue;
        }
        let id = space(&n, "attachTo");
        for o in n.children().filter(|c| c.has_tag_name("option")) {
            let value = o.attribute("value").unwrap_or("");
            match o.attribute("name") {
                Some("originalOwner") => {
                    original_owners.insert(id.clone(), power(value));
                }
                Some("victoryCity") if !matches!(value, "" | "0" | "false") => {
                    victory_cities.insert(id.clone());
                }
                _ => {}
            }
        }
    }

    // The turn order: the order of each player's first step of the round
    // (bids aside). China's turn ends with `endTurnNoPU`, inside the American
    // turn, which the library's end-turn count misses.
    let sides: BTreeMap<String, String> = elements()
        .filter(|n| n.has_tag_name("alliance"))
        .filter_map(|n| {
            Some((
                power(n.attribute("player")?),
                n.attribute("alliance")?.to_lowercase(),
            ))
        })
        .collect();
    let mut order: Vec<(String, String)> = Vec::new();
    for n in elements().filter(|n| n.has_tag_name("step")) {
        let (Some(player), Some(delegate)) = (n.attribute("player"), n.attribute("delegate"))
        else {
            continue;
        };
        if matches!(delegate, "bid" | "placeBid") {
            continue;
        }
        let p = power(player);
        if !order.iter().any(|(q, _)| *q == p) {
            let side = sides.get(&p).cloned().unwrap_or_else(|| "none".into());
            order.push((p, side));
        }
    }
    rules.powers = order;

    // Improved Shipyards prices.
    let mut shipyards = BTreeMap::new();
    for rule in elements().filter(|n| n.has_tag_name("productionRule")) {
        if !rule.attribute("name").is_some_and(is_shipyards_rule) {
            continue;
        }
        let child = |tag: &str| rule.children().find(|c| c.has_tag_name(tag));
        let (Some(result), Some(cost)) = (child("result"), child("cost")) else {
            continue;
        };
        let unit = map_name(
            &names.units,
            result.attribute("resourceOrUnit").unwrap_or(""),
        );
        let q: u32 = cost
            .attribute("quantity")
            .and_then(|q| q.parse().ok())
            .unwrap_or_else(|| panic!("{xml_file}: a shipyards rule without a cost"));
        shipyards.insert(unit, q);
    }

    Data {
        facts,
        original_owners,
        victory_cities,
        rules,
        shipyards,
    }
}

/// Every difference of one scenario, one line each.
fn compare_data(ours: &Data, reference: &Data) -> Vec<String> {
    let mut out = compare(&ours.facts, &reference.facts);
    for id in union(&ours.original_owners, &reference.original_owners) {
        let get = |d: &Data| show(&d.original_owners.get(id));
        let (a, b) = (get(ours), get(reference));
        if a != b {
            out.push(format!(
                "space {id} original owner: ours {a}, reference {b}"
            ));
        }
    }
    for id in ours
        .victory_cities
        .symmetric_difference(&reference.victory_cities)
    {
        let has = |d: &Data| d.victory_cities.contains(id);
        out.push(format!(
            "space {id} victory city: ours {}, reference {}",
            has(ours),
            has(reference)
        ));
    }
    out.extend(compare_rulesets(&ours.rules, &reference.rules));
    for unit in union(&ours.shipyards, &reference.shipyards) {
        let get = |d: &Data| show(&d.shipyards.get(unit));
        let (a, b) = (get(ours), get(reference));
        if a != b {
            out.push(format!(
                "unit {unit} shipyards cost: ours {a}, reference {b}"
            ));
        }
    }
    out
}

/// One row of `anniversary-ids.tsv`: kind, IPC value, original owner.
type IdRow = (String, Option<u32>, Option<String>);

fn ids_table(tsv: &str) -> BTreeMap<String, IdRow> {
    tsv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let col = |i: usize| cols.get(i).map(|c| c.trim()).filter(|c| !c.is_empty());
            let id = col(0).unwrap_or_else(|| panic!("anniversary-ids.tsv: {line:?}"));
            let ipc = col(3).map(|v| {
                v.parse()
                    .unwrap_or_else(|_| panic!("anniversary-ids.tsv: ipc {v:?}"))
            });
            let row = (
                col(2).unwrap_or("").to_string(),
                ipc,
                col(4).map(str::to_string),
            );
            (id.to_string(), row)
        })
        .collect()
}

/// Our map against the ids table: kind, IPC value, original owner.
fn compare_ids(ours: &Data, table: &BTreeMap<String, IdRow>) -> Vec<String> {
    let mut out = Vec::new();
    let ids: BTreeSet<&String> = ours.facts.spaces.keys().chain(table.keys()).collect();
    for id in ids {
        let (Some(s), Some((kind, ipc, owner))) = (ours.facts.spaces.get(id), table.get(id)) else {
            let ours_has = if ours.facts.spaces.contains_key(id) {
                "present"
            } else {
                "none"
            };
            let table_has = if table.contains_key(id) {
                "present"
            } else {
                "none"
            };
            out.push(format!(
                "ids table: space {id}: ours {ours_has}, table {table_has}"
            ));
            continue;
        };
        let rows = [
            ("kind", s.kind.clone(), kind.clone()),
            ("ipc", show(&s.ipc), show(ipc)),
            (
                "original owner",
                show(&ours.original_owners.get(id)),
                show(owner),
            ),
        ];
        for (what, a, b) in rows {
            if a != b {
                out.push(format!("ids table: space {id} {what}: ours {a}, table {b}"));
            }
        }
    }
    out
}

/// Our starting IPCs against rules/anniversary.md §1.
fn compare_digest(scenario: &str, ours: &Data) -> Vec<String> {
    let digest: BTreeMap<String, u32> = DIGEST_IPCS
        .iter()
        .find(|(s, _)| *s == scenario)
        .map(|(_, list)| list.iter().map(|(p, n)| (p.to_string(), *n)).collect())
        .unwrap_or_default();
    union(&ours.facts.starting_ipcs, &digest)
        .into_iter()
        .filter_map(|p| {
            let (a, b) = (show(&ours.facts.starting_ipcs.get(p)), show(&digest.get(p)));
            (a != b)
                .then(|| format!("{scenario}: starting IPCs of {p}: ours {a}, rules digest {b}"))
        })
        .collect()
}

#[test]
fn anniversary_data_matches_triplea_reference() {
    let Some(reference_dir) = reference_dir() else {
        return;
    };
    let tsv = read(&reference_dir.join("anniversary-ids.tsv"));
    let names = Names::new("anniversary-ids.tsv", &tsv, POWERS, UNIT_TYPES);
    let table = ids_table(&tsv);
    let mut found = Vec::new();
    let mut summary = Vec::new();
    for (i, (scenario, setup, xml_file)) in SCENARIOS.iter().enumerate() {
        let xml = read(&reference_dir.join("triplea/anniversary").join(xml_file));
        let theirs = reference(xml_file, &xml, &names);
        let (ours, one_sided) = ours(scenario, setup);
        if i == 0 {
            found.extend(one_sided);
            found.extend(compare_ids(&ours, &table));
        }
        found.extend(
            compare_data(&ours, &theirs)
                .into_iter()
                .map(|d| format!("{scenario}: {d}")),
        );
        found.extend(compare_digest(scenario, &ours));
        let r = &theirs.facts;
        summary.push(format!(
            "{scenario} vs {xml_file}: {} spaces ({} land), {} connections, {} canals, {} unit stacks \
             ({} units), {} starting IPC amounts, {} territories held by another than their original \
             owner, {} victory cities, {} islands, {} powers, {} unit types, {} shipyards prices",
            r.spaces.len(),
            r.spaces.values().filter(|s| s.kind == "land").count(),
            r.connections.len(),
            r.canals.len(),
            r.units.len(),
            r.units.values().sum::<u32>(),
            r.starting_ipcs.len(),
            theirs
                .original_owners
                .iter()
                .filter(|(id, o)| r.spaces[*id].owner.as_deref().unwrap_or("neutral") != *o)
                .count(),
            theirs.victory_cities.len(),
            ours.facts.islands.len(),
            theirs.rules.powers.len(),
            theirs.rules.units.len(),
            theirs.shipyards.len(),
        ));
    }
    let summary = format!(
        "anniversary vs TripleA WW2v3 ({} ids in anniversary-ids.tsv): {}",
        table.len(),
        summary.join("; ")
    );
    judge("anniversary", &summary, &found, ACCEPTED);
}

/// The comparison must be able to fail, on the fields this test adds too:
/// identical data gives no difference, and a copy with a connection removed,
/// an IPC value, a starting controller, an original controller, a victory
/// city, a starting stack, a starting IPC amount, a unit's cost, a shipyards
/// price and the turn order changed gives exactly those differences. Runs
/// without the reference, on our own data, for both scenarios.
#[test]
fn comparison_reports_injected_differences() {
    for (scenario, setup, _) in SCENARIOS {
        let (ours, one_sided) = ours(scenario, setup);
        check_injected_differences(&ours.facts, &one_sided);
        assert_eq!(
            compare_data(&ours, &ours),
            Vec::<String>::new(),
            "{scenario}"
        );
        assert_eq!(
            compare_digest(scenario, &ours),
            Vec::<String>::new(),
            "{scenario}"
        );

        let mut changed = ours.clone();
        // A starting controller: a held territory changes hands.
        let (held, space) = changed
            .facts
            .spaces
            .iter_mut()
            .find(|(_, s)| s.kind == "land" && s.owner.is_some())
            .expect("map.toml has an owned territory");
        let was = space.owner.clone().unwrap();
        let now = if was == "china" { "japan" } else { "china" };
        space.owner = Some(now.to_string());
        let held = held.clone();
        // An original controller.
        let (land, owner) = changed
            .original_owners
            .iter_mut()
            .find(|(_, o)| *o != "neutral")
            .expect("map.toml has an owned territory");
        let original = std::mem::replace(owner, "neutral".into());
        let land = land.clone();
        // A victory city.
        let city = changed
            .victory_cities
            .pop_first()
            .expect("map.toml has victory cities");
        // A starting stack.
        let (stack, count) = changed
            .facts
            .units
            .iter_mut()
            .next()
            .expect("the setup places units");
        *count += 1;
        let (stack, count) = (stack.clone(), *count);
        // Starting IPCs.
        let (power, ipcs) = changed
            .facts
            .starting_ipcs
            .iter_mut()
            .find(|(_, n)| **n > 0)
            .expect("the setup gives starting IPCs");
        *ipcs -= 1;
        let (power, ipcs) = (power.clone(), *ipcs);
        // A unit's cost and a shipyards price.
        let (unit, row) = changed
            .rules
            .units
            .iter_mut()
            .next()
            .expect("ruleset.toml has units");
        let cost: u32 = row["cost"].parse().unwrap();
        row.insert("cost", (cost + 1).to_string());
        let unit = unit.clone();
        let (ship, price) = changed
            .shipyards
            .iter_mut()
            .next()
            .expect("ruleset.toml has shipyards prices");
        *price += 1;
        let (ship, price) = (ship.clone(), *price);
        // The turn order.
        changed.rules.powers.swap(0, 1);
        let order = |r: &RulesetFacts| {
            r.powers
                .iter()
                .map(|(p, s)| format!("{p} ({s})"))
                .collect::<Vec<_>>()
                .join(", ")
        };

        let mut found = compare_data(&ours, &changed);
        found.sort();
        let mut expected = vec![
            format!("space {held} owner: ours {was}, reference {now}"),
            format!("space {land} original owner: ours {original}, reference neutral"),
            format!("space {city} victory city: ours true, reference false"),
            format!(
                "units {} {} at {}: ours {}, reference {count}",
                stack.1,
                stack.2,
                stack.0,
                count - 1
            ),
            format!(
                "starting IPCs of {power}: ours {}, reference {ipcs}",
                ipcs + 1
            ),
            format!("unit {unit} cost: ours {cost}, reference {}", cost + 1),
            format!(
                "unit {ship} shipyards cost: ours {}, reference {price}",
                price - 1
            ),
            format!(
                "powers in turn order: ours {}, reference {}",
                order(&ours.rules),
                order(&changed.rules)
            ),
        ];
        expected.sort();
        assert_eq!(found, expected, "{scenario}");

        assert_eq!(
            compare_digest(scenario, &changed),
            vec![format!(
                "{scenario}: starting IPCs of {power}: ours {ipcs}, rules digest {}",
                ipcs + 1
            )]
        );
    }
}

/// The comparison with the ids table must be able to fail too, and taking out
/// the Shipyards rules must leave the other rules alone.
#[test]
fn ids_table_comparison_and_shipyards_filter_work() {
    let (ours, _) = ours("1941", "setup-1941.toml");
    let mut table: BTreeMap<String, IdRow> = ours
        .facts
        .spaces
        .iter()
        .map(|(id, s)| {
            let owner = ours.original_owners.get(id).cloned();
            (id.clone(), (s.kind.clone(), s.ipc, owner))
        })
        .collect();
    assert_eq!(compare_ids(&ours, &table), Vec::<String>::new());
    let (id, row) = table
        .iter_mut()
        .find(|(_, r)| r.1.is_some())
        .expect("a land space");
    let ipc = row.1.unwrap();
    row.1 = Some(ipc + 1);
    row.2 = Some("nobody".into());
    let id = id.clone();
    let owner = show(&ours.original_owners.get(&id));
    assert_eq!(
        compare_ids(&ours, &table),
        vec![
            format!("ids table: space {id} ipc: ours {ipc}, table {}", ipc + 1),
            format!("ids table: space {id} original owner: ours {owner}, table nobody"),
        ]
    );

    let xml = "<production>\
        <productionRule name=\"buyTransport\"><cost resource=\"PUs\" quantity=\"7\"/></productionRule>\
        <productionRule name=\"buyTransportShipyards\"><cost resource=\"PUs\" quantity=\"6\"/></productionRule>\
        <productionRule name=\"buyCarrier\"><cost resource=\"PUs\" quantity=\"14\"/></productionRule>\
        </production>";
    assert_eq!(
        without_shipyards_rules(xml),
        "<production>\
        <productionRule name=\"buyTransport\"><cost resource=\"PUs\" quantity=\"7\"/></productionRule>\
        <productionRule name=\"buyCarrier\"><cost resource=\"PUs\" quantity=\"14\"/></productionRule>\
        </production>"
    );
}

/// REFERENCE-DIFFERENCES.md must list every accepted difference, word for word.
#[test]
fn accepted_differences_are_documented() {
    check_differences_documented("anniversary", ACCEPTED);
}
