//! `warboard-fuzz-runner TARGET --runs N`: the fuzz targets of
//! `fuzz/targets.rs` on the stable toolchain (fuzz/README.md).
//!
//! cargo-fuzz needs nightly Rust and libFuzzer; this driver needs neither.
//! It starts from the seed corpus (`fuzz/seeds/TARGET/`), mutates inputs
//! with a seeded generator (bit flips, bytes set, inserted and deleted,
//! ranges repeated, splices of two inputs, the protocol's and the save
//! format's own words, interesting numbers, truncation) and keeps the
//! inputs that reach further (a save that still loads; a session with more
//! requests answered `ok`) as parents for later runs. There is no coverage
//! feedback: it finds less per run than libFuzzer, which is why it runs
//! millions of times. A panic is a finding: the input is written to
//! `fuzz/artifacts/TARGET/` and the runner exits with status 1.

use clap::Parser;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[path = "../../../fuzz/targets.rs"]
mod targets;

#[derive(Parser)]
#[command(about = "Run a fuzz target on the stable toolchain (fuzz/README.md)")]
struct Args {
    /// protocol_line or save_load.
    target: String,
    /// How many inputs to try.
    #[arg(long, default_value_t = 100_000)]
    runs: u64,
    /// The mutation generator's seed (a run repeats exactly for a seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The seed corpus (default: fuzz/seeds/TARGET).
    #[arg(long)]
    corpus: Option<PathBuf>,
}

/// Words the inputs are made of, spliced in whole.
const WORDS: &[&str] = &[
    "\"cmd\"", "\"new\"", "\"apply\"", "\"legal\"", "\"state\"", "\"undo\"", "\"dice\"", "\"action\"", "\"type\"", "\"units\"", "\"route\"", "\"at\"",
    "\"purchase\"", "\"move\"", "\"battle\"", "\"resolve\"", "\"end_phase\"", "\"retreat\"", "\"casualties\"", "\"place\"", "\"infantry\"", "\"armor\"",
    "\"fighter\"", "\"bomber\"", "\"transport\"", "\"battleship\"", "\"GER\"", "\"UKR\"", "\"CAU\"", "\"seed\"", "\"powers\"", "\"ruleset\"", "\"europe\"",
    "\"alternative\"", "\"options\"", "\"log\"", "\"hash\"", "\"by\"", "\"format\"", "\"state\"", "\"count\"", "\"id\"", "null", "true", "false", "[]", "{}",
    ":", ",", "[", "]", "{", "}", "\"", "\\", "\n",
];

/// Numbers at the edges of every type a reader might take.
const NUMBERS: &[&str] = &["0", "-1", "1", "255", "256", "65535", "4294967295", "4294967296", "-2147483649", "9223372036854775807", "18446744073709551616", "1e308", "-0", "0.5", "1e-7"];

static LAST_PANIC: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

const MAX_INPUT: usize = 256 * 1024;
/// Protocol sessions are cut to this many bytes: the engine answers line by
/// line, and long sessions only repeat what short ones reach.
const MAX_SESSION: usize = 4 * 1024;
const MAX_KEPT: usize = 512;
/// An input slower than this is not kept as a parent.
const SLOW: std::time::Duration = std::time::Duration::from_millis(5);

fn main() -> ExitCode {
    let args = Args::parse();
    let run: fn(&[u8]) -> usize = match args.target.as_str() {
        "protocol_line" => targets::protocol_line,
        "save_load" => targets::save_load,
        other => {
            eprintln!("warboard-fuzz-runner: unknown target `{other}` (protocol_line or save_load)");
            return ExitCode::FAILURE;
        }
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let dir = args.corpus.clone().unwrap_or_else(|| root.join("seeds").join(&args.target));
    let mut corpus: Vec<(Vec<u8>, usize)> = match std::fs::read_dir(&dir) {
        Ok(entries) => {
            let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
            files.sort();
            files.into_iter().filter_map(|p| std::fs::read(p).ok()).map(|d| (d, 0)).collect()
        }
        Err(e) => {
            eprintln!("warboard-fuzz-runner: {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    if corpus.is_empty() {
        corpus.push((b"{}".to_vec(), 0));
    }
    // Panics are findings: caught, and reported with their input (the hook
    // keeps the message instead of printing it for every run).
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = info.to_string();
        }
    }));
    let seeds = corpus.len();
    for entry in corpus.iter_mut() {
        entry.1 = match catch_unwind(AssertUnwindSafe(|| run(&entry.0))) {
            Ok(score) => score,
            Err(_) => return finding(&root, &args.target, &entry.0, 0),
        };
    }
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let start = Instant::now();
    let mut kept = 0u64;
    for n in 1..=args.runs {
        let parent = (rng.next_u64() % corpus.len() as u64) as usize;
        let other = (rng.next_u64() % corpus.len() as u64) as usize;
        let mut input = mutate(&mut rng, &corpus[parent].0, &corpus[other].0);
        if args.target == "protocol_line" {
            input.truncate(MAX_SESSION);
        }
        let began = Instant::now();
        match catch_unwind(AssertUnwindSafe(|| run(&input))) {
            Ok(score) => {
                // Inputs that reach further than their parent become
                // parents too (a random extra one makes room), unless they
                // are slow: a corpus of slow inputs would take the runs.
                let quick = began.elapsed() < SLOW;
                if quick && score > corpus[parent].1 || (score > 0 && score == corpus[parent].1 && rng.next_u32() % 64 == 0) {
                    kept += 1;
                    if corpus.len() >= MAX_KEPT {
                        let victim = seeds + (rng.next_u64() % (corpus.len() - seeds).max(1) as u64) as usize;
                        corpus.swap_remove(victim.min(corpus.len() - 1));
                    }
                    corpus.push((input, score));
                }
            }
            Err(_) => return finding(&root, &args.target, &input, n),
        }
        if n % 100_000 == 0 {
            eprintln!("{}: {n} runs, {kept} inputs kept, {:.0} s", args.target, start.elapsed().as_secs_f64());
        }
    }
    println!(
        "{}: {} runs without a finding (seed {}, {} seed inputs, {kept} inputs kept, {:.0} s)",
        args.target,
        args.runs,
        args.seed,
        seeds,
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

fn finding(root: &std::path::Path, target: &str, input: &[u8], run: u64) -> ExitCode {
    let dir = root.join("artifacts").join(target);
    let path = dir.join(format!("crash-run-{run}"));
    let written = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, input));
    match written {
        Ok(()) => eprintln!("{target}: a finding at run {run}: the input is in {}", path.display()),
        Err(e) => eprintln!("{target}: a finding at run {run} (the input could not be written: {e})"),
    }
    if let Ok(message) = LAST_PANIC.lock() {
        eprintln!("{message}");
    }
    ExitCode::FAILURE
}

/// A position in `0..len` (0 for an empty range).
fn pick(rng: &mut ChaCha8Rng, len: usize) -> usize {
    if len == 0 {
        0
    } else {
        (rng.next_u64() % len as u64) as usize
    }
}

/// One to eight mutations of `input`; `other` is spliced in by some.
fn mutate(rng: &mut ChaCha8Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    let times = 1 + rng.next_u32() % 8;
    for _ in 0..times {
        let len = out.len();
        match rng.next_u32() % 10 {
            0 if len > 0 => {
                let i = pick(rng, len);
                out[i] ^= 1 << (rng.next_u32() % 8);
            }
            1 if len > 0 => {
                let i = pick(rng, len);
                out[i] = rng.next_u32() as u8;
            }
            2 => {
                let i = pick(rng, len + 1);
                let bytes: Vec<u8> = (0..1 + rng.next_u32() % 4).map(|_| rng.next_u32() as u8).collect();
                out.splice(i..i, bytes);
            }
            3 if len > 0 => {
                let i = pick(rng, len);
                let j = (i + 1 + pick(rng, 32)).min(len);
                out.drain(i..j);
            }
            4 if len > 0 => {
                let i = pick(rng, len);
                let j = (i + 1 + pick(rng, 64)).min(len);
                let copy = out[i..j].to_vec();
                let at = pick(rng, len + 1);
                out.splice(at..at, copy);
            }
            5 if !other.is_empty() => {
                let i = pick(rng, len + 1);
                let j = pick(rng, other.len());
                out.truncate(i);
                out.extend_from_slice(&other[j..]);
            }
            6 => {
                let i = pick(rng, len + 1);
                let word = WORDS[pick(rng, WORDS.len())];
                out.splice(i..i, word.bytes());
            }
            7 => {
                // A number in the input replaced by one at a type's edge.
                let digits: Vec<usize> = out.iter().enumerate().filter(|(_, b)| b.is_ascii_digit()).map(|(i, _)| i).collect();
                if let Some(&start) = digits.get(pick(rng, digits.len())) {
                    let mut end = start;
                    while end < out.len() && out[end].is_ascii_digit() {
                        end += 1;
                    }
                    let number = NUMBERS[pick(rng, NUMBERS.len())];
                    out.splice(start..end, number.bytes());
                }
            }
            8 if len > 0 => {
                out.truncate(pick(rng, len));
            }
            _ => {
                // A whole line repeated or dropped (protocol sessions are lines).
                let lines: Vec<&[u8]> = out.split(|b| *b == b'\n').collect();
                if lines.len() > 1 {
                    let k = pick(rng, lines.len());
                    let mut joined: Vec<u8> = Vec::with_capacity(out.len() + 64);
                    for (n, line) in lines.iter().enumerate() {
                        if n == k && rng.next_u32() & 1 == 0 {
                            continue;
                        }
                        joined.extend_from_slice(line);
                        joined.push(b'\n');
                        if n == k {
                            joined.extend_from_slice(line);
                            joined.push(b'\n');
                        }
                    }
                    out = joined;
                }
            }
        }
    }
    out.truncate(MAX_INPUT);
    out
}
