//! The files of the core's test ruleset (`../data/testland`), shared by the
//! tests of every crate that runs it:
//! `#[path = "<to>/crates/rules/tests/support/testland_files.rs"] mod testland_files;`

use warboard_rules::ruleset::RulesetFiles;

pub fn files() -> RulesetFiles {
    RulesetFiles {
        dir: "crates/rules/tests/data/testland",
        ruleset: include_str!("../data/testland/ruleset.toml"),
        map: include_str!("../data/testland/map.toml"),
        setups: vec![
            ("setup.toml", include_str!("../data/testland/setup.toml")),
            ("setup-b.toml", include_str!("../data/testland/setup-b.toml")),
        ],
    }
}
