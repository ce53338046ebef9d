//! The classic ruleset data: the facts the DAAK rulings settle, and the
//! validation that rejects broken data files with a message naming the
//! file, the entry and the problem.

use warboard_rules::ids::UnitType;
use warboard_rules::ruleset::{embedded_files, load_ruleset_files, ruleset, DataError, RulesetFiles};
use warboard_rules::Game;

fn adjacent(a: &str, b: &str) -> bool {
    let rs = ruleset("classic").unwrap();
    let (x, y) = (rs.map.id(a).unwrap(), rs.map.id(b).unwrap());
    rs.map.adjacent(x, y) && rs.map.adjacent(y, x)
}

#[test]
fn board_has_70_land_and_58_sea_spaces() {
    let rs = ruleset("classic").unwrap();
    let land = rs.map.spaces.iter().filter(|s| s.is_land()).count();
    assert_eq!((land, rs.map.len() - land), (70, 58));
    assert_eq!(rs.map.spaces.iter().filter(|s| s.neutral).count(), 14);
}

#[test]
fn caspian_is_a_sea_zone() {
    // DAAK 2.1
    let rs = ruleset("classic").unwrap();
    assert!(rs.map.is_sea(rs.map.id("CAS").unwrap()));
    for t in ["CAU", "KAZ", "MOS", "PER"] {
        assert!(adjacent("CAS", t), "CAS-{t}");
    }
}

#[test]
fn canals_and_their_controllers() {
    // DAAK 2.3, 2.4
    let rs = ruleset("classic").unwrap();
    let m = &rs.map;
    let panama = m.canal_between(m.id("CAR").unwrap(), m.id("GLP").unwrap()).expect("Panama canal");
    assert_eq!(panama.controlled_by, vec![m.id("PAN").unwrap()]);
    let suez = m.canal_between(m.id("EMD").unwrap(), m.id("RED").unwrap()).expect("Suez canal");
    assert_eq!(suez.controlled_by, vec![m.id("EGY").unwrap(), m.id("SYR").unwrap()]);
    assert!(adjacent("EGY", "SYR"));
}

#[test]
fn tasman_sea_and_map_edges() {
    // DAAK 2.5
    for n in ["SOS", "POL", "SPO", "JFI", "SCO"] {
        assert!(adjacent("TAS", n), "TAS-{n}");
    }
    // DAAK 2.6: the wrap-around edges, and BER not next to LAB.
    for (a, b) in [("TAS", "SCO"), ("TAS", "JFI"), ("SPO", "JFI"), ("GOC", "GLP"), ("MEX", "PAN"), ("GOM", "CAR"), ("GOM", "ECO"), ("WUS", "EUS"), ("WCA", "ECA"), ("WCA", "LAB")] {
        assert!(adjacent(a, b), "{a}-{b}");
    }
    assert!(!adjacent("BER", "LAB"));
}

#[test]
fn islands_enclosed_by_one_zone() {
    // DAAK 3.4(b): CRL is the Caroline Islands (the text's "CAR").
    let rs = ruleset("classic").unwrap();
    let enclosed: Vec<&str> = rs.map.spaces.iter().filter(|s| s.island_in.is_some()).map(|s| s.id.as_str()).collect();
    for i in ["CUB", "IRE", "GBR", "SUM", "PHI", "BOR", "NGU", "SUL", "NZE", "CRL", "OKI", "WAK", "MID", "HAW", "JPN"] {
        assert!(enclosed.contains(&i), "{i}");
    }
    assert_eq!(enclosed.len(), 15);
    assert!(!enclosed.contains(&"MAD") && !enclosed.contains(&"AUS"));
}

#[test]
fn starting_position() {
    let rs = ruleset("classic").unwrap();
    let game = Game::standard(rs.clone());
    // Starting banks equal starting income in the 2nd edition.
    for (p, want) in [("russia", 24), ("germany", 32), ("uk", 30), ("japan", 25), ("usa", 36)] {
        let pid = rs.power_by_name(p).unwrap();
        assert_eq!(game.state.ipcs[pid.index()], want, "{p} bank");
        assert_eq!(game.income(pid), want, "{p} income");
    }
    let count = |t: UnitType| game.state.units.iter().filter(|u| u.kind == t).count();
    assert_eq!(count(UnitType::IndustrialComplex), 8);
    assert_eq!(count(UnitType::AaGun), 9);
    assert_eq!(count(UnitType::AircraftCarrier), 2);
    assert_eq!(count(UnitType::Battleship), 6);
}

fn with(f: impl FnOnce(&mut (String, String, String))) -> Result<warboard_rules::Ruleset, DataError> {
    let files = embedded_files("classic").unwrap();
    let mut texts = (files.ruleset.to_string(), files.map.to_string(), files.setups[0].1.to_string());
    f(&mut texts);
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    load_ruleset_files(&RulesetFiles { dir: "rulesets/classic", ruleset: leak(texts.0), map: leak(texts.1), setups: vec![("setup.toml", leak(texts.2))] })
}

fn error_of(f: impl FnOnce(&mut (String, String, String))) -> String {
    match with(f) {
        Ok(_) => panic!("a broken data file was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_embedded_files_are_valid() {
    assert!(with(|_| {}).is_ok());
}

#[test]
fn one_sided_connection_is_rejected() {
    // TAS lists SOS, but SOS no longer lists TAS.
    let msg = error_of(|t| {
        let i = t.1.find("id = \"SOS\"").unwrap();
        let j = i + t.1[i..].find("\"TAS\", ").unwrap();
        t.1.replace_range(j..j + 7, "");
    });
    assert!(msg.contains("rulesets/classic/map.toml: space TAS: lists SOS as a neighbour, but SOS does not list TAS"), "{msg}");
}

#[test]
fn unknown_neighbour_is_rejected() {
    let msg = error_of(|t| t.1 = t.1.replacen("adjacent = [\"IND\", \"KAZ\", \"PER\", \"SIN\"]", "adjacent = [\"IND\", \"KAZ\", \"PER\", \"XXX\"]", 1));
    assert!(msg.contains("space AFG: neighbour `XXX` is not a space of this map"), "{msg}");
}

#[test]
fn land_unit_at_sea_and_second_aa_gun_are_rejected() {
    let msg = error_of(|t| {
        t.2.push_str("\n[[units]]\nat = \"NOR\"\nowner = \"uk\"\ninfantry = 1\n\n[[units]]\nat = \"EUS\"\nowner = \"usa\"\naa_gun = 1\n");
    });
    assert!(msg.contains("rulesets/classic/setup.toml: uk infantry at NOR: land units stand on land"), "{msg}");
    assert!(msg.contains("AA guns at EUS: at most one AA gun per territory (DAAK 3.1(b))"), "{msg}");
}

#[test]
fn bad_canal_and_unknown_unit_type_are_rejected() {
    let msg = error_of(|t| {
        t.1 = t.1.replace("zones = [\"EMD\", \"RED\"]", "zones = [\"EMD\", \"NOR\"]");
        t.2.push_str("\n[[units]]\nat = \"GER\"\nowner = \"germany\"\ndragon = 1\n");
    });
    assert!(msg.contains("canal Suez Canal: its two zones must be adjacent"), "{msg}");
    assert!(msg.contains("`dragon` is not a unit type of this ruleset"), "{msg}");
}

#[test]
fn syntax_error_names_the_file() {
    let msg = error_of(|t| t.0.push_str("\n[[power]\n"));
    assert!(msg.starts_with("rulesets/classic/ruleset.toml: not valid TOML"), "{msg}");
}

#[test]
fn unknown_ruleset_is_a_clear_error() {
    let msg = ruleset("monopoly").unwrap_err().to_string();
    assert!(msg.contains("unknown ruleset `monopoly`") && msg.contains("classic"), "{msg}");
}

#[test]
fn options_are_named_and_checked() {
    let rs = ruleset("classic").unwrap();
    let mut o = rs.options.clone();
    assert!(o.set("weapons_development", &toml::Value::Boolean(true)).is_ok());
    assert!(o.weapons_development);
    assert!(o.set("no_such_option", &toml::Value::Boolean(true)).unwrap_err().contains("unknown option"));
    assert!(o.set("axis_economic_victory", &toml::Value::String("lots".into())).is_err());
}

#[test]
fn scenarios_are_named_after_their_ruleset() {
    let msg = ruleset("classic-1066").unwrap_err().to_string();
    assert!(msg.contains("unknown ruleset `classic-1066`") && msg.contains("classic"), "{msg}");
    // The Alternative rules are built in (issue 13); none is planned only.
    assert!(ruleset("alternative").is_ok());
    assert!(std::sync::Arc::ptr_eq(&ruleset("classic").unwrap(), &ruleset("classic").unwrap()), "loaded once");
}
