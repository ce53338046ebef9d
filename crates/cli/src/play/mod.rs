//! `warboard play`: a game of classic Axis & Allies in the terminal, the
//! person against the computer (docs/play.md).
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
mod draw;
mod guide;
mod names;
mod narrate;
mod odds;
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
    /// Comma-separated powers the person plays; `None`: ask on the first screen.
    pub powers: Option<String>,
    pub seed: Option<u64>,
    pub load: Option<PathBuf>,
}

/// Plays until the person quits.
pub fn run(args: PlayArgs) -> Result<(), String> {
    let app = start(&args)?;
    terminal::run(app)
}

/// Everything that can fail before the terminal is taken over, so that
/// errors are printed as plain text.
fn start(args: &PlayArgs) -> Result<App, String> {
    let ruleset = warboard_rules::ruleset("classic").map_err(|e| e.to_string())?;
    let humans = args.powers.as_deref().map(|list| parse_powers(list, &ruleset)).transpose()?;
    let session = match &args.load {
        Some(path) => {
            if args.seed.is_some() {
                return Err("--seed does not go with --load: a saved game keeps its own dice".into());
            }
            let mut session = Session::resume(save::load(path)?, humans.clone().unwrap_or_default());
            session.note(format!("resumed {}", path.display()));
            session
        }
        None => Session::new(args.seed.unwrap_or_else(seed_from_clock), humans.clone().unwrap_or_default())?,
    };
    Ok(App::new(session, humans.is_some()))
}

/// A seed for a game started without one: different every time.
fn seed_from_clock() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    now.as_nanos() as u64 ^ u64::from(std::process::id())
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
    fn seed_and_load_do_not_mix() {
        let args = PlayArgs { powers: None, seed: Some(1), load: Some(PathBuf::from("x.json")) };
        assert!(start(&args).err().is_some_and(|e| e.contains("--seed does not go with --load")));
        let args = PlayArgs { powers: Some("germany".into()), seed: Some(1), load: None };
        let app = start(&args).expect("a new game starts");
        assert_eq!(app.session.humans(), &[false, true, false, false, false]);
    }
}
