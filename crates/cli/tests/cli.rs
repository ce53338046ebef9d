//! The `warboard` binary as a user runs it.

use std::process::Command;

fn warboard(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warboard")).args(args).output().expect("run warboard");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn map_summary() {
    let (ok, out, _) = warboard(&["map", "classic"]);
    assert!(ok);
    assert!(out.contains("70 land territories (14 neutral), 58 sea zones"), "{out}");
    assert!(out.contains("germany") && out.contains("32"), "{out}");
    // Every space is listed (issue 15, point 12).
    assert!(out.lines().any(|l| l.starts_with("EGY") && l.contains("Anglo-Egyptian Sudan")), "{out}");
}

#[test]
fn map_finds_spaces_by_name() {
    // Issue 15, point 12: `map classic Egypt`, in any case, and a list of
    // choices where a word names several.
    let (ok, out, _) = warboard(&["map", "classic", "Egypt"]);
    assert!(ok && out.starts_with("EGY"), "{out}");
    let (ok, out, _) = warboard(&["map", "classic", "east europe"]);
    assert!(ok && out.starts_with("EEU"), "{out}");
    let (ok, _, err) = warboard(&["map", "classic", "europe"]);
    assert!(!ok && err.contains("could be East Europe (EEU)"), "{err}");
}

#[test]
fn map_tas_lists_daak_neighbours() {
    let (ok, out, _) = warboard(&["map", "classic", "TAS"]);
    assert!(ok);
    let line = out.lines().find(|l| l.starts_with("neighbours:")).expect("neighbours line");
    for n in ["SOS", "POL", "SPO", "JFI", "SCO"] {
        assert!(line.contains(n), "{line}");
    }
}

#[test]
fn map_space_shows_canal_and_units() {
    let (ok, out, _) = warboard(&["map", "classic", "EGY"]);
    assert!(ok);
    assert!(out.contains("Suez Canal"), "{out}");
    assert!(out.contains("uk 1 armor") && out.contains("IPC value:  2"), "{out}");
}

#[test]
fn unknown_ruleset_and_space_fail_clearly() {
    let (ok, _, err) = warboard(&["map", "chess"]);
    assert!(!ok && err.contains("unknown ruleset `chess`"), "{err}");
    let (ok, _, err) = warboard(&["map", "classic", "ATLANTIS"]);
    assert!(!ok && err.contains("`ATLANTIS` is not a space"), "{err}");
}

#[test]
fn conform_reports_a_failing_case() {
    let dir = std::env::temp_dir().join(format!("warboard-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A case that is wrong on purpose: infantry moves one space, not two.
    let case = r#"{"id": "bad-infantry-moves-two", "source": "RULES classic: movement", "ruleset": "classic",
      "options": {}, "setup": "empty",
      "state": {"round": 1, "turn": "germany", "phase": "noncombat_move",
                "units": [{"at": "GER", "owner": "germany", "type": "infantry"}]},
      "steps": [{"action": {"type": "move", "units": [{"type": "infantry"}], "route": ["GER", "EEU", "UKR"]}}]}"#;
    std::fs::write(dir.join("bad.json"), case).unwrap();
    let (ok, out, _) = warboard(&["conform", dir.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("FAIL  bad-infantry-moves-two: step 1: expected ok, but it was rejected"), "{out}");
    assert!(out.trim_end().ends_with("0 passed, 1 failed"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn selfplay_plays_europe_games() {
    let (ok, out, err) = warboard(&["selfplay", "--ruleset", "europe", "-n", "2", "--axis", "ai", "--allies", "random", "--rounds", "30"]);
    assert!(ok, "{err}");
    assert!(out.contains("2 europe games, axis: ai, allies: random, at most 30 rounds, seeds 1..2"), "{out}");
    assert!(out.contains("axis wins:        2 (100.0%)"), "{out}");
    assert!(out.contains("rounds of decided games: median "), "{out}");
    // --each: each game's line tells which capitals fell, and when.
    let (ok, out, err) = warboard(&["selfplay", "--ruleset", "europe", "-n", "1", "--axis", "ai", "--allies", "random", "--rounds", "30", "--each"]);
    assert!(ok, "{err}");
    let line = out.lines().find(|l| l.starts_with("seed 1: axis after ")).unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains(" rounds (capitals taken: "), "{line}");
    // Classic and the planning player (as `play`'s computer) are the
    // defaults (issue 33, point 15); no thinking keeps the test quick.
    let (ok, out, _) = warboard(&["selfplay", "-n", "1", "--rounds", "2", "--think", "0"]);
    assert!(ok && out.contains("1 classic games") && out.contains("axis: planner, allies: planner"), "classic and the planner are the defaults: {out}");
    let (ok, _, err) = warboard(&["selfplay", "--ruleset", "chess", "-n", "1"]);
    assert!(!ok && err.contains("unknown ruleset `chess`"), "{err}");
}

#[test]
fn map_shows_the_anniversary_scenarios() {
    let (ok, out, err) = warboard(&["map", "--ruleset", "anniversary-1941"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("anniversary (1941 scenario)"), "{out}");
    assert!(out.contains("18 victory cities: a side holding 15 at the end of a round wins"), "{out}");
    assert!(out.contains("china") && out.contains("Turn order: germany, russia, japan, uk, italy, usa, china"), "{out}");
    let (ok, out, _) = warboard(&["map", "anniversary-1942"]);
    assert!(ok && out.contains("Turn order: japan, russia, germany, uk, italy, usa, china"), "the 1942 order starts with Japan: {out}");
    let (ok, out, _) = warboard(&["map", "--ruleset", "anniversary-1941", "GER"]);
    assert!(ok && out.contains("victory city") && out.contains("capital of: germany"), "{out}");
    let (ok, out, _) = warboard(&["map", "anniversary-1942", "KIA"]);
    assert!(ok && out.contains("held by:    japan at the start"), "{out}");
    let (ok, _, err) = warboard(&["map", "--ruleset", "anniversary-1941", "classic", "GER"]);
    assert!(!ok && err.contains("at most one space"), "{err}");
    let (ok, out, _) = warboard(&["map"]);
    assert!(ok && out.starts_with("classic"), "classic is the default: {out}");
}

#[test]
fn selfplay_plays_short_anniversary_games() {
    for scenario in ["anniversary-1941", "anniversary-1942"] {
        let (ok, out, err) = warboard(&["selfplay", "--ruleset", scenario, "-n", "2", "--rounds", "3", "--axis", "ai", "--allies", "ai"]);
        assert!(ok, "{scenario}: {err}");
        assert!(out.contains(&format!("2 {scenario} games, axis: ai, allies: ai, at most 3 rounds, seeds 1..2")), "{out}");
        let (ok, out, err) = warboard(&["selfplay", "--ruleset", scenario, "-n", "1", "--axis", "random", "--allies", "greedy", "--rounds", "3"]);
        assert!(ok && out.contains("1 anniversary"), "{scenario}: {err}");
    }
}
