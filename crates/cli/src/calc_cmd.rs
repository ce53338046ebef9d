//! `warboard calc`: the odds of a battle, exact or by Monte Carlo through
//! the battle engine, as a table, as JSON, and as an SVG chart.
//!
//! The battle has no player choices (warboard_calc's "What the calculator
//! assumes"): submarines never withdraw or submerge, the attacker retreats
//! only as `--retreat` says (never from an amphibious assault), casualties
//! follow the orders of loss. Both modes play it so.

use clap::Args;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use warboard_calc::{Army, Battle, CalcOptions, Calculator, LossOrder, Method, MonteCarlo, Outcome, RetreatPolicy};
use warboard_rules::Ruleset;

/// What `warboard calc --help` says the calculator assumes.
const ASSUMPTIONS: &str = "\
The battle has no player choices: submarines never withdraw (classic) or
submerge (Europe, Anniversary); the attacker retreats only as --retreat
says, and never from an amphibious assault; casualties follow the orders of
loss (by default
the engine's: cheapest first, a whole battleship's spare hit before any
loss). Monte Carlo plays the engine's decisions the same way. A battle in
which neither side can hurt the other (aircraft against submarines with no
destroyer) ends as \"attacker retreats\", as in the engine. What the exact
mode does not model it refuses by name: use --monte-carlo then.
Developments follow a side after `with`: \"3 inf 1 art 2 ftr with jets,
advanced artillery vs 4 inf 1 aa with radar\" (the ruleset's research
charts give them their effect).
Rule options are given as in `warboard play`, --option NAME=VALUE; the one
that changes battles is low_luck (--low-luck): each group of dice that
rolls together adds up its values, a hit per full 6 is sure and one die
rolls for the remainder (docs/low-luck.md); AA hits are then chosen by the
attacker.";

#[derive(Args)]
#[command(after_help = ASSUMPTIONS)]
pub struct CalcArgs {
    /// The battle: "ATTACKERS vs DEFENDERS", e.g. "3 inf, 2 arm, 1 ftr vs 4 inf, 1 aa"
    /// or "3 inf 1 art vs 4 inf". Names: inf, art, arm/tank, ftr, bmb, trn,
    /// sub, dd, cru, cv/ac, bb, aa, or the full names. Counts are whole
    /// numbers, 0 or more, at most 5000 units a side.
    // A battle may start with '-' ("-3 inf vs 2 inf"): taken as the battle,
    // the calculator says what is wrong with it (a count below 0) instead
    // of clap calling it an unknown option.
    #[arg(allow_hyphen_values = true)]
    battle: String,
    /// Ruleset name: classic, europe (artillery, destroyers, two-hit
    /// battleships), anniversary-1941 or anniversary-1942 (cruisers,
    /// submarines striking first both ways, defenseless transports,
    /// developments), alternative (infantry, ship, tank, plane: one hit
    /// roll each).
    #[arg(long, default_value = "classic")]
    ruleset: String,
    /// A rule option of the ruleset, NAME=VALUE, repeatable, as `warboard
    /// play` takes them (e.g. --option low_luck=true).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Low Luck, the same as --option low_luck=true: each group of dice
    /// adds up its values, a hit per full 6 is sure and one die rolls for
    /// the remainder (docs/low-luck.md).
    #[arg(long)]
    low_luck: bool,
    /// The attacking land units come straight from transports: attacking
    /// battleships bombard in round one, and nobody retreats.
    #[arg(long)]
    amphibious: bool,
    /// When the attacker retreats: never, after:N (after N rounds), or
    /// below:P (when its chance of winning falls below P, e.g. 0.3 or 30%).
    #[arg(long, default_value = "never")]
    retreat: String,
    /// The attacker's order of loss: default (cheapest first), keep-land
    /// (keep a land unit to take the territory), keep-air, or unit names
    /// lost first, e.g. inf,arm. In every order a battleship's spare hit
    /// (it only damages it) is taken before anything is lost.
    #[arg(long, default_value = "default")]
    attacker_order: String,
    /// The defender's order of loss (as --attacker-order).
    #[arg(long, default_value = "default")]
    defender_order: String,
    /// Fight N battles with the battle engine instead of computing the
    /// exact odds. N is bounded to a few seconds' work: the larger the
    /// battle, the fewer runs (the error says how many).
    #[arg(long, value_name = "N")]
    monte_carlo: Option<u64>,
    /// Seed of the Monte Carlo dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Exact mode: leave out battle states less likely than this.
    #[arg(long, default_value_t = 1e-12)]
    prune: f64,
    /// Also work out how many rounds the battle lasts, round by round (the
    /// table "Rounds fought"; `rounds_distribution` in JSON). Exact mode
    /// then makes a second, round-by-round pass, 1.3 to 6 times the bare
    /// answer's time (BENCHMARKS.md); the expected number of rounds is
    /// always given. Implied by --chart and by Monte Carlo, which counts
    /// rounds as it goes.
    #[arg(long)]
    rounds: bool,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    json: bool,
    /// Also draw the distributions into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    chart: Option<PathBuf>,
}

pub fn run(args: CalcArgs) -> ExitCode {
    match calc(&args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("warboard calc: {e}");
            ExitCode::FAILURE
        }
    }
}

fn calc(args: &CalcArgs) -> Result<String, String> {
    let rs = with_options(&args.ruleset, &args.options, args.low_luck)?;
    let mut battle = Battle::parse(&args.battle).map_err(|e| e.to_string())?;
    battle.attackers = battle.attackers.in_ruleset(&rs);
    battle.defenders = battle.defenders.in_ruleset(&rs);
    let opts = CalcOptions {
        amphibious: args.amphibious,
        retreat: RetreatPolicy::parse(&args.retreat).map_err(|e| e.to_string())?,
        attacker_order: LossOrder::parse(&args.attacker_order).map_err(|e| e.to_string())?,
        defender_order: LossOrder::parse(&args.defender_order).map_err(|e| e.to_string())?,
        prune_below: args.prune,
        // On demand (issue 33, point 18): with pruning off the round-by-round
        // pass cost many times the solve, for a table few readers want.
        rounds_distribution: args.rounds || args.chart.is_some() || args.monte_carlo.is_some(),
    };
    if let Some(path) = &args.chart {
        if path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()) != Some("svg".into()) {
            return Err(format!("{}: charts are written as SVG: name the file FILE.svg", path.display()));
        }
    }
    let mut calc = Calculator::new(rs.clone());
    let outcome = match args.monte_carlo {
        Some(runs) => calc.monte_carlo(&battle, &opts, MonteCarlo { runs, seed: args.seed }),
        None => calc.exact_uncached(&battle, &opts),
    }
    .map_err(|e| e.to_string())?;
    if let Some(path) = &args.chart {
        std::fs::write(path, chart(&battle, &outcome)).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if args.json {
        let mut v = outcome.to_json();
        let obj = v.as_object_mut().expect("an object");
        obj.insert("ruleset".into(), json!(args.ruleset));
        obj.insert("options".into(), json!(rs.options.canonical()));
        obj.insert("attackers".into(), army_json(&battle.attackers));
        obj.insert("defenders".into(), army_json(&battle.defenders));
        return Ok(format!("{v}\n"));
    }
    Ok(table(&args.ruleset, rs.options.low_luck, &battle, &opts, &outcome))
}

/// The ruleset with the options of the command line, set by their
/// documented names (a value as JSON, or a plain word), as `play` sets
/// them.
fn with_options(name: &str, options: &[String], low_luck: bool) -> Result<Arc<Ruleset>, String> {
    let base = warboard_rules::ruleset(name).map_err(|e| e.to_string())?;
    let mut changes = crate::play::parse_options(options)?;
    if low_luck {
        changes.insert("low_luck".into(), json!(true));
    }
    if changes.is_empty() {
        return Ok(base);
    }
    let mut values = Vec::new();
    for (k, v) in &changes {
        let tv: toml::Value = serde_json::from_value(v.clone()).map_err(|e| format!("option `{k}`: {e}"))?;
        values.push((k.as_str(), tv));
    }
    Ok(Arc::new(base.with_options(values.iter().map(|(k, v)| (*k, v)))?))
}

fn army_json(a: &Army) -> Value {
    Value::Object(a.iter().map(|(t, n)| (t.name().to_string(), json!(n))).collect())
}

fn pct(p: f64) -> String {
    if p == 0.0 {
        "0".into()
    } else if p < 1e-4 {
        format!("{:.1e}%", p * 100.0)
    } else {
        format!("{:.2}%", p * 100.0)
    }
}

/// "± 0.41%" for Monte Carlo, nothing for exact answers.
fn pm(se: Option<f64>, as_pct: bool) -> String {
    match se {
        Some(s) if as_pct => format!("  ± {:.2}%", s * 100.0),
        Some(s) => format!("  ± {s:.3}"),
        None => String::new(),
    }
}

/// Entries of a distribution shown before "... more".
const SHOWN: usize = 12;

fn table(ruleset: &str, low_luck: bool, battle: &Battle, opts: &CalcOptions, o: &Outcome) -> String {
    let mut s = String::new();
    let method = match o.method {
        Method::Exact => "exact".to_string(),
        Method::MonteCarlo { runs, seed } => format!("Monte Carlo, {runs} battles, seed {seed}"),
    };
    let _ = writeln!(s, "{}  vs  {}", battle.attackers, battle.defenders);
    let mut how = vec![ruleset.to_string(), method];
    if low_luck {
        how.push("low luck".into());
    }
    if opts.amphibious {
        how.push("amphibious".into());
    }
    match opts.retreat {
        RetreatPolicy::Never => {}
        RetreatPolicy::AfterRound(n) => how.push(format!("retreat after round {n}")),
        RetreatPolicy::WinChanceBelow(p) => how.push(format!("retreat when the win chance is below {}", pct(p))),
    }
    let _ = writeln!(s, "({})\n", how.join(", "));

    let se = o.standard_errors.as_ref();
    let _ = writeln!(s, "Outcome");
    let rows = [
        ("attacker wins", o.attacker_wins, se.map(|e| e.attacker_wins)),
        ("  and captures", o.captured, se.map(|e| e.captured)),
        ("defender wins", o.defender_wins, se.map(|e| e.defender_wins)),
        ("both destroyed", o.draw, se.map(|e| e.draw)),
        ("attacker retreats", o.retreated, se.map(|e| e.retreated)),
    ];
    for (name, p, e) in rows {
        let _ = writeln!(s, "  {name:<20} {:>9}{}", pct(p), pm(e, true));
    }
    let _ = writeln!(s, "  {:<20} {:>9.3}{}", "rounds (expected)", o.expected_rounds, pm(se.map(|e| e.expected_rounds), false));
    if o.pruned > 0.0 {
        let _ = writeln!(s, "  {:<20} {:>9.1e}", if o.standard_errors.is_some() { "unfinished" } else { "pruned" }, o.pruned);
    }

    let _ = writeln!(s, "\nExpected survivors            start      left");
    let side = |s: &mut String,
                label: &str,
                start: &Army,
                left: &[(warboard_rules::UnitType, f64)],
                errs: Option<&Vec<(warboard_rules::UnitType, f64)>>| {
        for (k, (t, n)) in start.iter().enumerate() {
            let l = left.iter().find(|x| x.0 == t).map_or(0.0, |x| x.1);
            let e = errs.and_then(|v| v.iter().find(|x| x.0 == t)).map(|x| x.1);
            let _ = writeln!(s, "  {:<9} {:<18} {:>5} {:>9.3}{}", if k == 0 { label } else { "" }, t.name(), n, l, pm(e, false));
        }
    };
    let start_att: Army = {
        let mut a = Army::new();
        for (t, _) in &o.attacker_survivors {
            a.add(*t, battle.attackers.count(*t));
        }
        a
    };
    let start_def: Army = {
        let mut a = Army::new();
        for (t, _) in &o.defender_survivors {
            a.add(*t, battle.defenders.count(*t));
        }
        a
    };
    side(&mut s, "attacker", &start_att, &o.attacker_survivors, se.map(|e| &e.attacker_survivors));
    side(&mut s, "defender", &start_def, &o.defender_survivors, se.map(|e| &e.defender_survivors));
    let _ = writeln!(
        s,
        "\nIPCs lost: attacker {:.2}{}, defender {:.2}{}; swing to the attacker {:+.2}",
        o.attacker_ipc_loss,
        pm(se.map(|e| e.attacker_ipc_loss), false),
        o.defender_ipc_loss,
        pm(se.map(|e| e.defender_ipc_loss), false),
        o.ipc_swing()
    );

    for (title, dist) in [("Attacker left", o.attacker_distribution()), ("Defender left", o.defender_distribution())] {
        let _ = writeln!(s, "\n{title} (most likely first)");
        let _ = writeln!(s, "  {:>9} {:>11}  units", "chance", "cumulative");
        let mut cumulative = 0.0;
        for (army, p) in dist.iter().take(SHOWN) {
            cumulative += p;
            let _ = writeln!(s, "  {:>9} {:>11}  {}", pct(*p), pct(cumulative), army);
        }
        if dist.len() > SHOWN {
            let rest: f64 = dist[SHOWN..].iter().map(|x| x.1).sum();
            let _ = writeln!(s, "  {:>9} {:>11}  ... {} more", pct(rest), pct(cumulative + rest), dist.len() - SHOWN);
        }
    }

    if !o.rounds_distribution.is_empty() {
        let _ = writeln!(s, "\nRounds fought");
        let top = o.rounds_distribution.iter().cloned().fold(0.0, f64::max);
        let mut cumulative = 0.0;
        for (r, p) in o.rounds_distribution.iter().enumerate() {
            if *p == 0.0 {
                continue;
            }
            cumulative += p;
            let bar = "#".repeat(((p / top) * 40.0).round() as usize);
            let _ = writeln!(s, "  {r:>4} {:>9}  {bar}", pct(*p));
            if cumulative > 1.0 - 1e-4 - o.pruned {
                let rest: f64 = o.rounds_distribution[r + 1..].iter().sum();
                if rest > 0.0 {
                    let _ = writeln!(s, "  {:>4} {:>9}", "more", pct(rest));
                }
                break;
            }
        }
    }
    s
}

/// Bars of one distribution in a panel of the chart.
struct Panel<'a> {
    title: &'a str,
    labels: Vec<String>,
    values: Vec<f64>,
    color: &'a str,
}

/// A hand-drawn SVG: the endings, the units left on each side (by number
/// of units), and the number of rounds.
fn chart(battle: &Battle, o: &Outcome) -> String {
    let endings = Panel {
        title: "Outcome",
        labels: vec!["attacker wins".into(), "defender wins".into(), "both destroyed".into(), "retreat".into()],
        values: vec![o.attacker_wins, o.defender_wins, o.draw, o.retreated],
        color: "#4a7ab5",
    };
    let by_count = |side: fn(&warboard_calc::SurvivorOutcome) -> &Army, total: u32| {
        let mut v = vec![0.0; total as usize + 1];
        for x in &o.outcomes {
            let n = side(x).total().min(total) as usize;
            v[n] += x.probability;
        }
        v
    };
    let att_total = battle.attackers.total();
    let def_total = o.defender_survivors.iter().map(|(t, _)| battle.defenders.count(*t)).sum::<u32>();
    let attacker = Panel {
        title: "Attacking units left",
        labels: (0..=att_total).map(|n| n.to_string()).collect(),
        values: by_count(|x| &x.attackers, att_total),
        color: "#c0504d",
    };
    let defender = Panel {
        title: "Defending units left",
        labels: (0..=def_total).map(|n| n.to_string()).collect(),
        values: by_count(|x| &x.defenders, def_total),
        color: "#9bbb59",
    };
    // Rounds up to where almost all battles are over.
    let mut last = 0;
    let mut cumulative = 0.0;
    for (r, p) in o.rounds_distribution.iter().enumerate() {
        cumulative += p;
        last = r;
        if cumulative > 0.9999 - o.pruned {
            break;
        }
    }
    let rounds = Panel {
        title: "Rounds fought",
        labels: (0..=last).map(|n| n.to_string()).collect(),
        values: o.rounds_distribution.iter().take(last + 1).cloned().collect(),
        color: "#8064a2",
    };
    let (width, panel_h) = (760.0, 200.0);
    let panels = [endings, attacker, defender, rounds];
    let height = 60.0 + panels.len() as f64 * (panel_h + 40.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="20" y="28" font-size="15">{}  vs  {}</text>"#,
        escape(&battle.attackers.to_string()),
        escape(&battle.defenders.to_string())
    );
    for (k, p) in panels.iter().enumerate() {
        let top = 50.0 + k as f64 * (panel_h + 40.0);
        let (left, plot_w, plot_h) = (60.0, width - 90.0, panel_h - 50.0);
        let _ = writeln!(s, r#"<text x="{left}" y="{}" font-size="13">{}</text>"#, top + 14.0, escape(p.title));
        let base = top + 24.0 + plot_h;
        let max = p.values.iter().cloned().fold(0.0, f64::max).max(1e-12);
        let _ = writeln!(s, r##"<line x1="{left}" y1="{base}" x2="{}" y2="{base}" stroke="#333"/>"##, left + plot_w);
        let _ = writeln!(s, r##"<text x="{}" y="{}" text-anchor="end">{:.0}%</text>"##, left - 6.0, top + 28.0, max * 100.0);
        let n = p.values.len().max(1) as f64;
        let slot = plot_w / n;
        let bar = (slot * 0.8).max(1.0);
        let every = (n / 25.0).ceil().max(1.0) as usize;
        for (i, (label, v)) in p.labels.iter().zip(&p.values).enumerate() {
            let h = v / max * plot_h;
            let x = left + i as f64 * slot + (slot - bar) / 2.0;
            let _ = writeln!(
                s,
                r#"<rect x="{x:.1}" y="{:.1}" width="{bar:.1}" height="{h:.1}" fill="{}"><title>{}: {:.4}%</title></rect>"#,
                base - h,
                p.color,
                escape(label),
                v * 100.0
            );
            if i % every == 0 {
                let _ =
                    writeln!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#, x + bar / 2.0, base + 14.0, escape(label));
            }
        }
    }
    let _ = writeln!(s, "</svg>");
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_is_well_formed() {
        let battle = Battle::parse("2 inf, 1 arm vs 2 inf").unwrap();
        let mut calc = Calculator::new(warboard_rules::ruleset("classic").unwrap());
        let o = calc.exact_uncached(&battle, &CalcOptions { rounds_distribution: true, ..Default::default() }).unwrap();
        let svg = chart(&battle, &o);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<rect").count(), svg.matches("</rect>").count() + 1);
    }
}
