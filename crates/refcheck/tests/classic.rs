//! Cross-checks warboard's classic ruleset data (`rulesets/classic/map.toml` and
//! `setup.toml`) against TripleA's `classic/classic.xml` in `../shared/reference`.
//!
//! Both sources are reduced to the same plain facts (spaces, connections,
//! owners, IPC values, capitals, original factories, canals, starting units and
//! starting IPCs, all keyed by warboard ids) and compared field by field; the
//! shared code is in this crate's library (`src/lib.rs`). Every difference must
//! either vanish or appear in [`ACCEPTED`] with the ruling that justifies it;
//! `rulesets/classic/REFERENCE-DIFFERENCES.md` mirrors that list.
//!
//! The reference data is third-party and lives outside the repository, so a
//! user's clone may not have it: the check is then skipped, except under CI.

use warboard_refcheck::{
    check_injected_differences, compare, judge, load_ours, load_reference, read, reference_dir,
    ruleset_dir, Facts, Names,
};

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

fn ours() -> (Facts, Vec<String>) {
    let dir = ruleset_dir("classic");
    load_ours(&read(&dir.join("map.toml")), &read(&dir.join("setup.toml")))
}

#[test]
fn classic_data_matches_triplea_reference() {
    let Some(reference_dir) = reference_dir() else {
        return;
    };
    let names = Names::new(
        "classic-ids.tsv",
        &read(&reference_dir.join("classic-ids.tsv")),
        POWERS,
        UNIT_TYPES,
    );
    let reference = load_reference(
        "classic.xml",
        &read(&reference_dir.join("triplea/classic/classic.xml")),
        &names,
    );
    let (ours, one_sided) = ours();
    let found: Vec<String> = one_sided
        .into_iter()
        .chain(compare(&ours, &reference))
        .collect();
    let summary = format!(
        "classic vs TripleA classic.xml: compared {} spaces, {} connections, {} canals, {} unit stacks, \
         {} starting IPC amounts, {} islands",
        reference.spaces.len(),
        reference.connections.len(),
        reference.canals.len(),
        reference.units.len(),
        reference.starting_ipcs.len(),
        ours.islands.len(),
    );
    judge("classic", &summary, &found, ACCEPTED);
}

/// The comparison must be able to fail: identical data gives no difference, and
/// a copy with one connection removed and one IPC value changed gives exactly
/// those two. Runs without the reference, on our own data.
#[test]
fn comparison_reports_injected_differences() {
    let (ours, one_sided) = ours();
    check_injected_differences(&ours, &one_sided);
}
