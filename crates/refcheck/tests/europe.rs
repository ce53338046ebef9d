//! Cross-checks warboard's europe ruleset data (`rulesets/europe/map.toml`,
//! `setup.toml`, and the powers and unit table of `ruleset.toml`) against
//! TripleA's `europe/europe_AAE.xml` in `../shared/reference`, with TripleA's
//! names mapped to our ids by `../shared/reference/europe-ids.tsv`.
//!
//! Compared: every space (kind, IPC value, a convoy zone's `convoy.value` and
//! `convoy.owner` against TripleA's production and owner of the sea zone,
//! original owner, capital, original factory, our `paid_by` and
//! `convoy.requires`, where allied units turn Soviet), every connection (and
//! that our map lists each both ways), the Bosphorus canal, the islands, the
//! starting units per space, owner and type, the starting IPCs, the powers in
//! turn order with their sides, and the unit table (domain, cost, buyable,
//! attack, defense, movement, hit points, blitz, submarine, strategic bomber,
//! anti-submarine, bombard, anti-aircraft, factory, artillery support, what a
//! transport or carrier can take). The shared code is this crate's library
//! (`src/lib.rs`).
//!
//! Every difference must either vanish or appear in [`ACCEPTED`] with the
//! ruling that justifies it; `rulesets/europe/REFERENCE-DIFFERENCES.md` lists
//! the same lines. Without `../shared/reference` the check is skipped, except
//! under CI.

use warboard_refcheck::{
    check_differences_documented, check_injected_differences, compare, compare_rulesets, judge, load_our_ruleset, load_ours,
    load_reference, load_reference_ruleset, read, reference_dir, ruleset_dir, Facts, Names,
    RulesetFacts,
};

/// Differences that are deliberate, each with the ruling that justifies it.
/// The left string must equal a line of the report exactly; each must also
/// appear, in backquotes, in `rulesets/europe/REFERENCE-DIFFERENCES.md`.
const ACCEPTED: &[(&str, &str)] = &[
    (
        "space EGY paid by: ours uk, reference none",
        MIDDLE_EAST,
    ),
    (
        "space IRN paid by: ours uk, reference none",
        MIDDLE_EAST,
    ),
    (
        "space IRQ paid by: ours uk, reference none",
        MIDDLE_EAST,
    ),
    (
        "space SYR paid by: ours uk, reference none",
        MIDDLE_EAST,
    ),
    (
        "space TRJ paid by: ours uk, reference none",
        MIDDLE_EAST,
    ),
    (
        "space SVC convoy requires: ours ARC, reference none",
        "EUROPE FAQ, Industry, IPCs, Convoys, and Production: the Soviets need both Archangel and the \
         convoy center to collect the convoy's four IPCs; TripleA pays the convoy on its own",
    ),
    (
        "space VYB converts units to: ours none, reference russia",
        "EUROPE FAQ, Second Edition Rules (and Miscellaneous): allied units are taken over only where a \
         Soviet industrial complex is, Leningrad, Stalingrad, Archangel and Moscow; TripleA also marks \
         Vyborg (changeUnitOwners), which has none",
    ),
    (
        "unit destroyer bombard: ours 2, reference 3",
        "EUROPE FAQ, Second Edition Rules, change 1: a destroyer in an amphibious assault hits on 2 or \
         less (still 3 in naval combat); TripleA's canBombard bombards at the attack value, 3",
    ),
];

const MIDDLE_EAST: &str = "EUROPE FAQ, Industry, IPCs, Convoys, and Production: the Allies get nothing \
     for holding the Middle East (Egypt, Iran, Iraq, Syria, Trans-Jordan); a German captor is paid its \
     value out of the Allies' income, the bank not involved. TripleA counts it as ordinary UK income \
     (its notes: not yet supported)";

/// TripleA player names and unit type names, mapped to warboard ids.
const POWERS: &[(&str, &str)] = &[
    ("Germans", "germany"),
    ("Russians", "russia"),
    ("British", "uk"),
    ("Americans", "usa"),
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
    ("carrier", "aircraft_carrier"),
    ("battleship", "battleship"),
    ("aaGun", "aa_gun"),
    ("factory", "industrial_complex"),
];

/// Our map, setup and ruleset. Our map has no per-space flag for the Soviet
/// Patriotic War: the ruleset's knob `patriotic_war` names the power, which
/// takes over allied units in its own original territories with an original
/// industrial complex (`crates/rules/src/game/patriotic_war.rs`; EUROPE FAQ:
/// Second Edition Rules). That is what is compared with TripleA's
/// `changeUnitOwners`.
fn ours() -> (Facts, Vec<String>, RulesetFacts) {
    let dir = ruleset_dir("europe");
    let (mut facts, one_sided) =
        load_ours(&read(&dir.join("map.toml")), &read(&dir.join("setup.toml")));
    let ruleset_toml = read(&dir.join("ruleset.toml"));
    let knobs: toml::Table =
        toml::from_str(&ruleset_toml).unwrap_or_else(|e| panic!("ruleset.toml: {e}"));
    let patriotic_war = knobs
        .get("rules")
        .and_then(|r| r.get("patriotic_war"))
        .and_then(|p| p.as_str())
        .filter(|p| !p.is_empty());
    if let Some(power) = patriotic_war {
        for s in facts.spaces.values_mut() {
            if s.original_factory && s.owner.as_deref() == Some(power) {
                s.converts_units_to = Some(power.to_string());
            }
        }
    }
    (facts, one_sided, load_our_ruleset(&ruleset_toml))
}

#[test]
fn europe_data_matches_triplea_reference() {
    let Some(reference_dir) = reference_dir() else {
        return;
    };
    let names = Names::new(
        "europe-ids.tsv",
        &read(&reference_dir.join("europe-ids.tsv")),
        POWERS,
        UNIT_TYPES,
    );
    let xml = read(&reference_dir.join("triplea/europe/europe_AAE.xml"));
    let reference = load_reference("europe_AAE.xml", &xml, &names);
    let reference_rules = load_reference_ruleset("europe_AAE.xml", &xml, &names);
    let (ours, one_sided, our_rules) = ours();
    let found: Vec<String> = one_sided
        .into_iter()
        .chain(compare(&ours, &reference))
        .chain(compare_rulesets(&our_rules, &reference_rules))
        .collect();
    let summary = format!(
        "europe vs TripleA europe_AAE.xml: compared {} spaces ({} with an IPC value, {} convoy zones), \
         {} connections, {} canals, {} unit stacks, {} starting IPC amounts, {} islands, {} powers, \
         {} unit types",
        reference.spaces.len(),
        reference.spaces.values().filter(|s| s.ipc.is_some()).count(),
        reference
            .spaces
            .values()
            .filter(|s| s.kind == "sea" && s.ipc.is_some())
            .count(),
        reference.connections.len(),
        reference.canals.len(),
        reference.units.len(),
        reference.starting_ipcs.len(),
        ours.islands.len(),
        reference_rules.powers.len(),
        reference_rules.units.len(),
    );
    judge("europe", &summary, &found, ACCEPTED);
}

/// The comparison must be able to fail, on Europe's own fields too: identical
/// data gives no difference, and a copy with a connection removed, an IPC
/// value, a convoy value, a Patriotic War space, a starting stack, a starting
/// IPC amount and a unit's cost changed gives exactly those differences. Runs
/// without the reference, on our own data.
#[test]
fn comparison_reports_injected_differences() {
    let (ours, one_sided, rules) = ours();
    check_injected_differences(&ours, &one_sided);
    assert_eq!(compare_rulesets(&rules, &rules), Vec::<String>::new());

    let mut changed = ours.clone();
    let (convoy, zone) = changed
        .spaces
        .iter_mut()
        .find(|(_, s)| s.kind == "sea" && s.ipc.is_some())
        .expect("map.toml has a convoy zone");
    let value = zone.ipc.unwrap();
    zone.ipc = Some(value + 1);
    let convoy = convoy.clone();
    let (soviet, space) = changed
        .spaces
        .iter_mut()
        .find(|(_, s)| s.converts_units_to.is_some())
        .expect("the Patriotic War applies somewhere");
    let to = space.converts_units_to.take().unwrap();
    let soviet = soviet.clone();
    let (stack, count) = changed
        .units
        .iter_mut()
        .next()
        .expect("setup.toml places units");
    *count += 1;
    let (stack, count) = (stack.clone(), *count);
    let (power, ipcs) = changed
        .starting_ipcs
        .iter_mut()
        .next()
        .expect("setup.toml gives starting IPCs");
    *ipcs -= 1;
    let (power, ipcs) = (power.clone(), *ipcs);
    let mut found = compare(&ours, &changed);
    found.sort();
    let mut expected = vec![
        format!("space {convoy} ipc: ours {value}, reference {}", value + 1),
        format!("space {soviet} converts units to: ours {to}, reference none"),
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
    ];
    expected.sort();
    assert_eq!(found, expected);

    let mut changed_rules = rules.clone();
    let (unit, row) = changed_rules
        .units
        .iter_mut()
        .next()
        .expect("ruleset.toml has units");
    let cost: u32 = row["cost"].parse().unwrap();
    row.insert("cost", (cost + 1).to_string());
    let unit = unit.clone();
    changed_rules.powers.swap(0, 1);
    let order = |r: &RulesetFacts| {
        r.powers
            .iter()
            .map(|(p, s)| format!("{p} ({s})"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    assert_eq!(
        compare_rulesets(&rules, &changed_rules),
        vec![
            format!(
                "powers in turn order: ours {}, reference {}",
                order(&rules),
                order(&changed_rules)
            ),
            format!("unit {unit} cost: ours {cost}, reference {}", cost + 1),
        ]
    );
}

/// REFERENCE-DIFFERENCES.md must list every accepted difference, word for word.
#[test]
fn accepted_differences_are_documented() {
    check_differences_documented("europe", ACCEPTED);
}
