//! Times one exact calculation per argument (best of five), or Monte Carlo
//! on one core after `--mc N`; `--prune P` sets the exact mode's threshold,
//! `--rounds` asks for the distribution of rounds too (as `warboard calc`
//! does), `--amphibious` makes the battles after it landings, `--retreat
//! POLICY` sets the retreat policy (never, after:N, below:P), `--ruleset
//! NAME` changes the ruleset (classic by default):
//! `cargo run --release -p warboard-calc --example probe -- "10 inf vs 10 inf"`.
use warboard_calc::{Battle, CalcOptions, Calculator, MonteCarlo, RetreatPolicy};
fn main() {
    let mut calc = Calculator::new(warboard_rules::ruleset("classic").unwrap());
    let mut mc_runs = None;
    let mut opts = CalcOptions::default();
    let mut args = std::env::args().skip(1);
    while let Some(text) = args.next() {
        if text == "--prune" {
            opts.prune_below = args.next().and_then(|p| p.parse().ok()).expect("--prune P");
            continue;
        }
        if text == "--rounds" {
            opts.rounds_distribution = true;
            continue;
        }
        if text == "--amphibious" {
            opts.amphibious = true;
            continue;
        }
        if text == "--retreat" {
            opts.retreat = RetreatPolicy::parse(&args.next().expect("--retreat POLICY")).unwrap();
            continue;
        }
        if text == "--ruleset" {
            calc = Calculator::new(warboard_rules::ruleset(&args.next().expect("--ruleset NAME")).unwrap());
            continue;
        }
        if text == "--mc" {
            mc_runs = args.next().and_then(|n| n.parse().ok());
            continue;
        }
        let b = Battle::parse(&text).unwrap();
        if let Some(runs) = mc_runs {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
            let t = std::time::Instant::now();
            let o = pool.install(|| calc.monte_carlo(&b, &opts, MonteCarlo { runs, seed: 1 }).unwrap());
            let e = t.elapsed();
            println!(
                "{text}: Monte Carlo {runs} runs on one core: {e:?} ({:.0} battles/s), attacker wins {:.4}",
                runs as f64 / e.as_secs_f64(),
                o.attacker_wins
            );
            continue;
        }
        let o = calc.exact_uncached(&b, &opts).unwrap();
        let t0 = std::time::Instant::now();
        let mut n = 0u32;
        while t0.elapsed().as_secs_f64() < 0.5 {
            std::hint::black_box(calc.exact_uncached(&b, &opts).unwrap());
            n += 1;
        }
        let reps = n / 10 + 1;
        let mut best = std::time::Duration::MAX;
        for _ in 0..5 {
            let t = std::time::Instant::now();
            for _ in 0..reps {
                std::hint::black_box(calc.exact_uncached(&b, &opts).unwrap());
            }
            best = best.min(t.elapsed() / reps);
        }
        println!("{text}: exact {best:?}, attacker wins {:.9}, pruned {:.2e}, rounds {:.6}", o.attacker_wins, o.pruned, o.expected_rounds);
    }
}
