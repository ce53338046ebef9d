//! Every conformance case: the project's own (`conformance/`) and, where
//! the checkout has `../shared` beside it, the shared ones. Cases listed in
//! `conformance/expected-failures.txt` may fail; any other failure, or a
//! listed case that passes, fails this test.

use std::path::PathBuf;

#[test]
fn conformance_cases() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut paths = vec![root.join("conformance")];
    let shared = root.join("../shared/conformance");
    if shared.is_dir() {
        paths.push(shared);
    } else if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0") {
        panic!("CI: ../shared/conformance is missing");
    } else {
        eprintln!("skipped the shared cases: ../shared/conformance not found");
    }
    let expected = warboard_conform::parse_expected(&std::fs::read_to_string(root.join("conformance/expected-failures.txt")).unwrap());
    let files = warboard_conform::collect_cases(&paths).unwrap();
    let outcomes = warboard_conform::run_files(&files);
    let mut problems = Vec::new();
    for o in &outcomes {
        match (&o.failure, expected.contains_key(&o.id)) {
            (Some(why), false) => problems.push(format!("{}: {why}", o.id)),
            (None, true) => problems.push(format!("{}: passes now; remove it from expected-failures.txt", o.id)),
            _ => {}
        }
    }
    let mut ids: Vec<&str> = outcomes.iter().map(|o| o.id.as_str()).collect();
    ids.sort();
    let dupes: Vec<&&str> = ids.windows(2).filter(|w| w[0] == w[1]).map(|w| &w[0]).collect();
    assert!(dupes.is_empty(), "case ids used twice: {dupes:?}");
    assert!(problems.is_empty(), "{} of {} cases failed:\n{}", problems.len(), outcomes.len(), problems.join("\n"));
}
