//! The `warboard` command line.

mod calc_cmd;
mod engine_cmd;
mod map_cmd;
mod pbem;
mod play;
mod replay_cmd;
mod selfplay_cmd;
mod serve_cmd;
mod verify_cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "warboard",
    version,
    about = "Axis & Allies rules engine: classic (Milton Bradley 2nd edition with DAAK rulings), Europe (Avalon Hill 1999 with its FAQ) and the Anniversary Edition (Avalon Hill 2008, 1941 and 1942, with its errata and FAQ)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game of Axis & Allies in the terminal against the computer:
    /// classic, or another ruleset with --ruleset (docs/play.md).
    Play {
        /// The ruleset of a new game: classic, europe, anniversary-1941,
        /// anniversary-1942 or alternative (a loaded game keeps its own).
        #[arg(long)]
        ruleset: Option<String>,
        /// A rule option of a new game, NAME=VALUE, repeatable (README, "Rule
        /// options"; e.g. --option teams=independent --option fair_buying=true).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// The powers you play, comma-separated (e.g. russia,uk; or all, none);
        /// without it a first screen asks.
        #[arg(long)]
        powers: Option<String>,
        /// Seed of the dice (a new game only); default: from the clock.
        #[arg(long)]
        seed: Option<u64>,
        /// Resume a saved game.
        #[arg(long)]
        load: Option<PathBuf>,
        /// Stop at every phase; without it, phases with nothing to decide
        /// (research without weapons development, collect income) pass by
        /// themselves.
        #[arg(long)]
        every_phase: bool,
        /// Milliseconds between two of the computer's actions, to follow
        /// its turn step by step (0: as fast as it plays; F5 in the game
        /// changes it).
        #[arg(long, default_value_t = 0)]
        pace: u64,
        /// How long the computer thinks at the start of each of its turns,
        /// in milliseconds on the reference machine (it plays candidate
        /// turns out; 0: the standard planner without search).
        #[arg(long, value_name = "MS", default_value_t = warboard_ai::planner::DEFAULT_THINK_MS)]
        think: u64,
    },
    /// Show a ruleset's board: a summary, or one space
    /// (`warboard map classic EGY`, or `warboard map --ruleset anniversary-1941 CHG`).
    Map {
        /// The ruleset (default classic), then a territory or sea zone id
        /// (e.g. EGY; omit it for the summary).
        #[arg(num_args = 0..=2, value_name = "RULESET [SPACE]")]
        args: Vec<String>,
        /// The ruleset, named as an option (then the one word left is the
        /// space).
        #[arg(long = "ruleset")]
        ruleset: Option<String>,
    },
    /// Run rule conformance cases (*.json files or folders of them).
    Conform {
        /// Case files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// A file of case ids expected to fail, one per line with the reason.
        /// Listed cases that fail are not counted as failures; listed cases
        /// that pass are (so the list only shrinks).
        #[arg(long)]
        expected_failures: Option<PathBuf>,
        /// Print every case, not only failures.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Computer against computer: games of a ruleset (classic by default)
    /// from its standard position.
    Selfplay {
        /// The ruleset: classic, europe, anniversary-1941, anniversary-1942 or alternative.
        #[arg(long, default_value = "classic")]
        ruleset: String,
        /// How many games.
        #[arg(short = 'n', long, default_value_t = 100)]
        games: u64,
        /// Who plays the Axis: planner (the planning player that `play`
        /// uses: it plays candidate turns out, thinking --think a turn), ai
        /// (the standard planner: one fixed style, no search, quick), greedy
        /// (buys infantry, attacks any neighbour it outnumbers: a baseline)
        /// or random (random actions: a baseline).
        #[arg(long, default_value = "planner")]
        axis: String,
        /// Who plays the Allies: planner, ai, greedy or random (as --axis).
        #[arg(long, default_value = "planner")]
        allies: String,
        /// The planner's thinking budget a turn, in milliseconds on the
        /// reference machine (counted in simulated turns, so games repeat
        /// exactly for a seed).
        #[arg(long, value_name = "MS")]
        think: Option<u64>,
        /// Print each game's seed, winner and rounds.
        #[arg(long)]
        each: bool,
        /// Seed of the first game; game k uses seed + k.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games still undecided after this many rounds count as draws.
        #[arg(long, default_value_t = 40)]
        rounds: u32,
        /// A rule option, NAME=VALUE, as for `play` (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// The engine protocol on standard input and output: one JSON object per
    /// line each way (docs/protocol.md).
    Engine,
    /// Tell a saved game turn by turn: purchases, moves, battles with their
    /// dice, captures, income.
    Replay {
        /// A save file (written by the engine's `save`).
        file: PathBuf,
    },
    /// Check a saved game: its log replays to it, and for a proven game
    /// (play by e-mail, correspondence) every signature, receipt, beacon
    /// round and die (docs/pbem.md). Exit status 1 with the problem's code
    /// (`record/…`, `save/…`) if anything is wrong.
    Verify {
        /// A save file.
        file: PathBuf,
        /// Fail (exit status 2) unless the game's dice are proven.
        #[arg(long)]
        require_proof: bool,
    },
    /// Play by e-mail with dice nobody can fake: seat keys, a new game
    /// witnessed by a club's server, your turn into a turn file, the others'
    /// turn files checked and applied (docs/pbem.md).
    #[command(subcommand)]
    Pbem(pbem::PbemCommand),
    /// Battle odds: exact outcome distribution, or Monte Carlo through the
    /// battle engine (e.g. warboard calc "3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa").
    Calc(calc_cmd::CalcArgs),
    /// The game server: accounts, games with a seat per power, live play
    /// over WebSocket in the engine protocol's words, every action kept in
    /// SQLite (the default) or PostgreSQL (docs/server.md).
    Serve(serve_cmd::ServeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Play { ruleset, powers, seed, load, every_phase, options, pace, think } => match play::run(play::PlayArgs { ruleset, powers, seed, load, every_phase, options, pace, think }) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("warboard play: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Map { args, ruleset } => match map_cmd::arguments(&args, ruleset.as_deref()).and_then(|(r, space)| map_cmd::run(&r, space.as_deref())) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("warboard map: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Conform { paths, expected_failures, verbose } => conform(&paths, expected_failures.as_deref(), verbose),
        Command::Selfplay { ruleset, games, axis, allies, think, each, seed, rounds, options } => {
            selfplay_cmd::run(&selfplay_cmd::Args { ruleset, options, games, axis, allies, think, each, seed, rounds })
        }
        Command::Engine => match engine_cmd::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("warboard engine: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Calc(args) => calc_cmd::run(args),
        Command::Serve(args) => match serve_cmd::run(args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("warboard serve: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Verify { file, require_proof } => match verify_cmd::run(&file) {
            Ok(verdict) => {
                print!("{}", verdict.report);
                if require_proof && !verdict.proven {
                    eprintln!("warboard verify: {}: the dice are not proven", file.display());
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                }
            }
            Err(e) => {
                eprintln!("warboard verify: {}: {e}", file.display());
                ExitCode::FAILURE
            }
        },
        Command::Pbem(command) => match pbem::run(command) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("warboard pbem: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Replay { file } => match replay_cmd::run(&file) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("warboard replay: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

fn conform(paths: &[PathBuf], expected: Option<&std::path::Path>, verbose: bool) -> ExitCode {
    let files = match warboard_conform::collect_cases(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("warboard conform: {e}");
            return ExitCode::FAILURE;
        }
    };
    let expected = match expected.map(std::fs::read_to_string) {
        None => Default::default(),
        Some(Ok(text)) => warboard_conform::parse_expected(&text),
        Some(Err(e)) => {
            eprintln!("warboard conform: cannot read the expected-failures file: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcomes = warboard_conform::run_files(&files);
    let (mut passed, mut failed, mut xfail) = (0, 0, 0);
    let mut seen_ids = std::collections::BTreeSet::new();
    for o in &outcomes {
        seen_ids.insert(o.id.clone());
        match (&o.failure, expected.get(&o.id)) {
            (None, None) => {
                passed += 1;
                if verbose {
                    println!("ok    {}", o.id);
                }
            }
            (None, Some(_)) => {
                failed += 1;
                println!("FAIL  {}: passes now, but is listed as an expected failure: remove it from the list", o.id);
            }
            (Some(why), Some(reason)) => {
                xfail += 1;
                if verbose {
                    println!("xfail {}: {why} (expected: {reason})", o.id);
                }
            }
            (Some(why), None) => {
                failed += 1;
                println!("FAIL  {}: {why}", o.id);
            }
        }
    }
    if xfail > 0 {
        println!("{xfail} expected failure{}, listed with their reasons", if xfail == 1 { "" } else { "s" });
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
