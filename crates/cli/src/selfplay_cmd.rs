//! `warboard selfplay`: computer players against each other.

use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;
use std::time::Instant;
use warboard_ai::series::{play_with, PlayerKind};
use warboard_rules::Side;

/// What `warboard selfplay` was asked for.
pub struct Args {
    pub ruleset: String,
    pub options: Vec<String>,
    pub games: u64,
    pub axis: String,
    pub allies: String,
    /// The planners' budget a turn (ms), where given.
    pub think: Option<u64>,
    /// Print each game's seed, winner and rounds.
    pub each: bool,
    pub seed: u64,
    pub rounds: u32,
}

pub fn run(args: &Args) -> ExitCode {
    let Args { ruleset, options, games, axis, allies, think, each, seed, rounds } = args;
    let (ruleset, options, games, axis, allies, seed, rounds) = (ruleset.as_str(), options.as_slice(), *games, axis.as_str(), allies.as_str(), *seed, *rounds);
    let think_as = |k: PlayerKind| think.map_or(k, |ms| k.thinking(ms));
    let (axis_kind, allies_kind) = match (axis.parse::<PlayerKind>(), allies.parse::<PlayerKind>()) {
        (Ok(a), Ok(b)) => (think_as(a), think_as(b)),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("warboard selfplay: {e}");
            return ExitCode::FAILURE;
        }
    };
    if games == 0 {
        eprintln!("warboard selfplay: -n must be at least 1");
        return ExitCode::FAILURE;
    }
    // An unknown ruleset or option is refused before the progress bar starts.
    let rs = match with_options(ruleset, options) {
        Ok(rs) => rs,
        Err(e) => {
            eprintln!("warboard selfplay: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bar = ProgressBar::new(games);
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise}  {msg}").expect("valid template"));
    let (mut axis_wins, mut allies_wins, mut draws, mut total_rounds) = (0u64, 0u64, 0u64, 0u64);
    // The rounds of each decided game (issue 14's target is their median).
    let mut decided: Vec<u32> = Vec::new();
    let start = Instant::now();
    for k in 0..games {
        let o = play_with(rs.clone(), seed + k, axis_kind, allies_kind, rounds);
        if *each {
            let who = match o.winner {
                Some(Side::Axis) => "axis",
                Some(Side::Allies) => "allies",
                None => "undecided",
            };
            let taken: Vec<String> = o.capitals_taken.iter().map(|(q, r)| format!("{} {r}", rs.power(*q).id)).collect();
            let taken = if taken.is_empty() { String::new() } else { format!(" (capitals taken: {})", taken.join(", ")) };
            bar.suspend(|| println!("seed {}: {who} after {} rounds{taken}", seed + k, o.rounds.min(rounds)));
        }
        total_rounds += o.rounds.min(rounds) as u64;
        if o.winner.is_some() {
            decided.push(o.rounds.min(rounds));
        }
        match o.winner {
            Some(Side::Axis) => axis_wins += 1,
            Some(Side::Allies) => allies_wins += 1,
            None => draws += 1,
        }
        bar.set_message(format!("axis {axis_wins}  allies {allies_wins}  undecided {draws}"));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let pct = |n: u64| 100.0 * n as f64 / games as f64;
    let with = if options.is_empty() { String::new() } else { format!(" with {}", options.join(", ")) };
    println!("{games} {ruleset} games{with}, axis: {axis}, allies: {allies}, at most {rounds} rounds, seeds {seed}..{}", seed + games - 1);
    println!("axis wins:    {axis_wins:>5} ({:.1}%)", pct(axis_wins));
    println!("allies wins:  {allies_wins:>5} ({:.1}%)", pct(allies_wins));
    println!("undecided:    {draws:>5} ({:.1}%)", pct(draws));
    println!("average rounds: {:.1}", total_rounds as f64 / games as f64);
    if let Some(median) = median(&mut decided) {
        let mean = decided.iter().map(|r| *r as f64).sum::<f64>() / decided.len() as f64;
        println!("rounds of decided games: median {median}, mean {mean:.1}");
    }
    println!("games per second: {:.1} ({:.1} ms a game)", games as f64 / secs, 1000.0 * secs / games as f64);
    ExitCode::SUCCESS
}

/// The median of `rounds` (the mean of the middle two where their number
/// is even); `None` for none.
fn median(rounds: &mut [u32]) -> Option<f64> {
    rounds.sort_unstable();
    let n = rounds.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(rounds[n / 2] as f64),
        _ => Some((rounds[n / 2 - 1] + rounds[n / 2]) as f64 / 2.0),
    }
}

/// The ruleset with the options given as `NAME=VALUE`, read as `play` reads
/// them: through a game's start (`warboard_record::Start`), the one place
/// options are checked and set.
fn with_options(ruleset: &str, options: &[String]) -> Result<std::sync::Arc<warboard_rules::ruleset::Ruleset>, String> {
    let mut start = warboard_record::Start::standard(ruleset, warboard_record::DiceMode::Seeded { seed: 1 });
    start.options = crate::play::parse_options(options)?;
    let record = warboard_record::Record::new(start).map_err(|e| e.to_string())?;
    Ok(record.game().ruleset.clone())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_median_of_decided_rounds() {
        assert_eq!(super::median(&mut []), None);
        assert_eq!(super::median(&mut [9, 4, 21]), Some(9.0));
        assert_eq!(super::median(&mut [20, 4, 21, 7]), Some(13.5));
    }
}
