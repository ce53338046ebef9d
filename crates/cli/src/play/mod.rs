//! `warboard play`: a game of Axis & Allies in the terminal (classic, or
//! another ruleset such as Europe), the person against the computer
//! (docs/play.md).
//!
//! The pieces, from the game outwards: [`session`] plays actions through a
//! `warboard_record::Record` and the computer players; [`command`] and
//! [`vocabulary`] turn typed commands into FORMAT.md actions; [`board`],
//! [`guide`], [`narrate`] and [`odds`] say what the panels show; [`app`]
//! holds the screen's state and handles keys; [`draw`] and [`terminal`] are
//! the only parts that touch the terminal.

mod app;
mod board;
mod command;
pub(crate) mod draw;
mod guide;
mod names;
pub(crate) use warboard_table::odds;
mod save;
mod session;
mod terminal;
mod vocabulary;

use app::App;
use session::Session;
use std::path::PathBuf;
use std::sync::Arc;
use warboard_rules::Ruleset;

/// The command line's options for `warboard play`.
pub struct PlayArgs {
    /// The ruleset of a new game (`None`: classic); a loaded game keeps its own.
    pub ruleset: Option<String>,
    /// Comma-separated powers the person plays; `None`: ask on the first screen.
    pub powers: Option<String>,
    pub seed: Option<u64>,
    pub load: Option<PathBuf>,
    /// Stop at every phase, even those with nothing to decide.
    pub every_phase: bool,
    /// Rule options of a new game, `NAME=VALUE` (VALUE as JSON, or a word).
    pub options: Vec<String>,
    /// Milliseconds between two of the computer's actions on screen (0: as
    /// fast as it plays; F5 changes it in the game).
    pub pace: u64,
    /// The computer's thinking budget at the start of each of its turns
    /// (ms; 0: the standard planner without search).
    pub think: u64,
}

/// Options as `NAME=VALUE`: the value read as JSON (`true`, `{...}`), or as
/// a plain word (`teams=independent`).
pub fn parse_options(list: &[String]) -> Result<std::collections::BTreeMap<String, serde_json::Value>, String> {
    let mut out = std::collections::BTreeMap::new();
    for item in list {
        let Some((name, value)) = item.split_once('=') else {
            return Err(format!("--option takes NAME=VALUE (e.g. fair_buying=true), not `{}`", item.chars().take(60).collect::<String>()));
        };
        let value = serde_json::from_str(value.trim()).unwrap_or_else(|_| serde_json::Value::String(value.trim().to_string()));
        out.insert(name.trim().to_string(), value);
    }
    Ok(out)
}

/// Plays until the person quits.
pub fn run(args: PlayArgs) -> Result<(), String> {
    let app = start(&args)?;
    terminal::run(app)
}

/// Everything that can fail before the terminal is taken over, so that
/// errors are printed as plain text.
fn start(args: &PlayArgs) -> Result<App, String> {
    let (session, chosen) = match &args.load {
        Some(path) => {
            if args.seed.is_some() {
                return Err("--seed does not go with --load: a saved game keeps its own dice".into());
            }
            // The save names its ruleset; the powers are read against it.
            let record = save::load(path)?;
            let ruleset = record.game().ruleset.clone();
            if !args.options.is_empty() {
                return Err("--option does not go with --load: a saved game keeps its own options".into());
            }
            if let Some(asked) = args.ruleset.as_deref() {
                let asked_name = warboard_rules::ruleset(asked).map_err(|e| e.to_string())?.name.clone();
                if asked_name != ruleset.name {
                    return Err(format!("{} is a {} game: --ruleset {asked} does not go with it (leave --ruleset out)", path.display(), ruleset.name));
                }
            }
            let humans = args.powers.as_deref().map(|list| parse_powers(list, &ruleset)).transpose()?;
            let note = record.migration_note();
            // Without --powers the first screen asks, with the powers people
            // played in this save ticked (issue 33, point 1).
            let offered = humans.clone().unwrap_or_else(|| warboard_table::people_in(&record));
            let mut session = Session::resume(record, offered);
            session.note(format!("resumed {}", path.display()));
            // A game that passed through a file without a record hash says so.
            if let Some(note) = note {
                session.note(note);
            }
            (session, humans.is_some())
        }
        None => {
            let name = args.ruleset.as_deref().unwrap_or("classic");
            let ruleset = warboard_rules::ruleset(name).map_err(|e| e.to_string())?;
            let humans = args.powers.as_deref().map(|list| parse_powers(list, &ruleset)).transpose()?;
            let options = parse_options(&args.options)?;
            let session = Session::with_options(name, options, args.seed.unwrap_or_else(warboard_record::fresh_seed), humans.clone().unwrap_or_default())?;
            (session, humans.is_some())
        }
    };
    let mut session = session;
    session.set_pass_idle_phases(!args.every_phase);
    session.set_think(args.think);
    let people: Vec<String> = session.game().ruleset.power_ids().filter(|p| session.is_human(*p)).map(|p| session.power_name(p).to_string()).collect();
    let mut app = App::new(session, chosen);
    if args.load.is_some() && !people.is_empty() {
        app.picker_note = Some(format!("Ticked: the powers people played in this save ({}).", people.join(", ")));
    }
    app.pace = std::time::Duration::from_millis(args.pace);
    Ok(app)
}


/// `russia,uk` → which powers the person plays. Powers are named by id or
/// name, in any case, or by a prefix that names only one (`ger`); `none`
/// leaves every power to the computer and `all` gives every one to people.
fn parse_powers(list: &str, rs: &Arc<Ruleset>) -> Result<Vec<bool>, String> {
    let mut humans = vec![false; rs.power_count()];
    for word in list.split([',', ' ']).map(str::trim).filter(|w| !w.is_empty()) {
        let w = word.to_ascii_lowercase();
        match w.as_str() {
            "none" => continue,
            "all" => {
                humans.iter_mut().for_each(|h| *h = true);
                continue;
            }
            _ => {}
        }
        let matches: Vec<usize> = rs
            .powers
            .iter()
            .enumerate()
            .filter(|(_, p)| p.id == w || p.name.to_ascii_lowercase() == w || (w.len() >= 2 && p.id.starts_with(&w)))
            .map(|(i, _)| i)
            .collect();
        match matches.as_slice() {
            [i] => humans[*i] = true,
            _ => {
                let known: Vec<&str> = rs.powers.iter().map(|p| p.id.as_str()).collect();
                return Err(format!("unknown power `{word}` in --powers (the powers: {}, or none, or all)", known.join(", ")));
            }
        }
    }
    Ok(humans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_are_named_by_id_name_or_prefix() {
        let rs = warboard_rules::ruleset("classic").expect("classic loads");
        assert_eq!(parse_powers("russia,uk", &rs), Ok(vec![true, false, true, false, false]));
        assert_eq!(parse_powers("Germany, jap", &rs), Ok(vec![false, true, false, true, false]));
        assert_eq!(parse_powers("none", &rs), Ok(vec![false; 5]));
        assert_eq!(parse_powers("all", &rs), Ok(vec![true; 5]));
        assert!(parse_powers("france", &rs).unwrap_err().contains("unknown power `france`"));
        assert!(parse_powers("u", &rs).is_err(), "a one-letter prefix is too short to be sure");
    }

    #[test]
    fn a_loaded_game_offers_the_powers_people_played() {
        // Issue 33, point 1: the save's own actions say who was a person.
        let args = PlayArgs { ruleset: None, powers: Some("uk".into()), seed: Some(3), load: None, every_phase: true, options: Vec::new(), pace: 0, think: 0 };
        let mut app = start(&args).expect("a game starts");
        for _ in 0..100_000 {
            if !app.session.step_computer() {
                break;
            }
        }
        let uk = app.session.game().ruleset.power_by_name("uk").expect("uk");
        assert_eq!(app.session.actor(), Some(uk), "the computer played up to the UK's turn");
        app.session.order(&command::Order::EndPhase).expect("the UK ends a phase itself");
        let path = std::env::temp_dir().join(format!("warboard-people-{}.json", std::process::id()));
        app.session.save(&path).expect("saved");
        let load = PlayArgs { ruleset: None, powers: None, seed: None, load: Some(path.clone()), every_phase: true, options: Vec::new(), pace: 0, think: 0 };
        let loaded = start(&load).expect("it loads");
        assert_eq!(loaded.picked, vec![false, false, true, false, false], "the UK is ticked");
        assert!(loaded.picker_note.as_deref().is_some_and(|n| n.contains("uk")));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn seed_and_load_do_not_mix() {
        let args = PlayArgs { ruleset: None, powers: None, seed: Some(1), load: Some(PathBuf::from("x.json")), every_phase: false, options: Vec::new(), pace: 0, think: 0 };
        assert!(start(&args).err().is_some_and(|e| e.contains("--seed does not go with --load")));
        let args = PlayArgs { ruleset: None, powers: Some("germany".into()), seed: Some(1), load: None, every_phase: false, options: Vec::new(), pace: 0, think: 0 };
        let app = start(&args).expect("a new game starts");
        assert_eq!(app.session.humans(), &[false, true, false, false, false]);
    }

    #[test]
    fn a_europe_game_starts_saves_and_loads_with_its_ruleset() {
        let args = PlayArgs { ruleset: Some("europe".into()), powers: Some("russia".into()), seed: Some(2), load: None, every_phase: false, options: Vec::new(), pace: 0, think: 0 };
        let mut app = start(&args).expect("a Europe game starts");
        assert_eq!(app.session.game().ruleset.name, "europe");
        // Europe's four powers: germany, russia, uk, usa.
        assert_eq!(app.session.humans(), &[false, true, false, false]);
        assert!(parse_powers("japan", &app.session.game().ruleset).is_err(), "Europe has no Japan");
        let path = std::env::temp_dir().join(format!("warboard-play-europe-{}.json", std::process::id()));
        app.session.save(&path).expect("the temp dir is writable");
        let load = |ruleset: Option<&str>, powers: &str| PlayArgs {
            ruleset: ruleset.map(String::from),
            powers: Some(powers.into()),
            seed: None,
            load: Some(path.clone()),
            every_phase: false,
            options: Vec::new(),
            pace: 0,
            think: 0,
        };
        let loaded = start(&load(None, "uk")).expect("the Europe save loads without --ruleset");
        assert_eq!(loaded.session.game().ruleset.name, "europe");
        assert_eq!(loaded.session.game().state, app.session.game().state);
        assert_eq!(loaded.session.humans(), &[false, false, true, false]);
        assert!(start(&load(Some("europe"), "uk")).is_ok(), "naming the save's own ruleset is fine");
        let refused = start(&load(Some("classic"), "uk")).err().expect("a Europe save is no classic game");
        assert!(refused.contains("is a europe game"), "{refused}");
        let _ = std::fs::remove_file(&path);
        let alt = PlayArgs { ruleset: Some("alternative".into()), powers: Some("germany".into()), seed: Some(1), load: None, every_phase: false, options: vec!["teams=independent".into(), "axis_bonus_points=false".into()], pace: 0, think: 0 };
        let game = start(&alt).expect("an Alternative game with options starts");
        assert_eq!(game.session.game().income(game.session.game().ruleset.power_by_name("germany").unwrap()), 32, "axis_bonus_points=false");
        let bad = PlayArgs { options: vec!["teams".into()], ..alt };
        assert!(start(&bad).err().unwrap().contains("NAME=VALUE"));
        let unknown = PlayArgs { ruleset: Some("atlantis".into()), powers: None, seed: Some(1), load: None, every_phase: false, options: Vec::new(), pace: 0, think: 0 };
        assert!(start(&unknown).is_err());
    }

    /// Issue 34, finding 2: a game resumed from a file without a record
    /// hash says, in the game's log, that what the file held beyond the
    /// replay's checks is unverified.
    #[test]
    fn a_game_resumed_from_an_old_save_says_it_is_unverified() {
        let path = std::env::temp_dir().join(format!("warboard-play-v1-{}.json", std::process::id()));
        std::fs::write(&path, include_str!("../../../record/tests/data/v1-classic-round1-usa.json")).expect("the temp dir is writable");
        let args = PlayArgs { ruleset: None, powers: Some("none".into()), seed: None, load: Some(path.clone()), every_phase: false, options: Vec::new(), pace: 0, think: 0 };
        let app = start(&args).expect("a version 1 save loads");
        let _ = std::fs::remove_file(&path);
        assert!(app.session.log().iter().any(|line| line.text.contains("comes from a version 1 save, which had no record hash")), "the note is in the log");
    }
}
