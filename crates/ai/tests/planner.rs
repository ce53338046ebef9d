//! The planning player (issue 14): legal, deterministic games in every
//! ruleset, and a probe for looking at its games.

use warboard_ai::series::PlayerKind;
use warboard_ai::planner::{ALTERNATIVE_CANDIDATES, CANDIDATES, OPENING_MARGIN};
use warboard_ai::{eval, play_game, ComputerPlayer, PlanningPlayer, Player};
use warboard_rules::{ruleset, Game, SeededDice, Side};

/// A small budget keeps the tests quick; the measured budget is in
/// BENCHMARKS.md.
const THINK: u64 = 40;

fn players(rs: &warboard_rules::Ruleset, planner: Side, seed: u64) -> Vec<Box<dyn Player>> {
    rs.power_ids()
        .map(|p| -> Box<dyn Player> {
            if rs.side(p) == planner {
                Box::new(PlanningPlayer::new(seed + p.0 as u64, THINK))
            } else {
                Box::new(ComputerPlayer::new())
            }
        })
        .collect()
}

#[test]
fn planner_games_repeat_exactly_for_a_seed() {
    let run = || {
        let rs = ruleset("classic").unwrap();
        let mut g = Game::standard(rs.clone());
        let mut ps = players(&rs, Side::Axis, 3);
        let out = play_game(&mut g, &mut ps, &mut SeededDice::new(3), 3);
        (out, g.state)
    };
    let (a, sa) = run();
    let (b, sb) = run();
    assert_eq!(a, b);
    assert_eq!(sa, sb);
    assert!(a.actions > 50, "{a:?}");
}

/// In every ruleset the planner plays a few rounds from both sides with no
/// action refused that it could not recover from: the game goes on.
#[test]
fn planner_plays_every_ruleset() {
    for name in ["classic", "europe", "anniversary-1941", "anniversary-1942", "alternative"] {
        for side in [Side::Axis, Side::Allies] {
            let rs = ruleset(name).unwrap();
            let mut g = Game::standard(rs.clone());
            let mut ps = players(&rs, side, 7);
            let out = play_game(&mut g, &mut ps, &mut SeededDice::new(7), 2);
            assert!(out.rounds > 2 || out.winner.is_some(), "{name}, planner as {side:?}: stopped in round {} ({out:?})", out.rounds);
        }
    }
}

/// The search scores every candidate of the ruleset's list (in the
/// Alternative rules that policy's own tunings, played from the round's
/// start, before the simultaneous shopping), and the style played scores
/// within the opening margin of the best (in round 1 the seed picks among
/// those).
#[test]
fn the_search_scores_every_candidate() {
    for (name, candidates) in [("classic", &CANDIDATES[..]), ("alternative", &ALTERNATIVE_CANDIDATES[..])] {
        let g = Game::standard(ruleset(name).unwrap());
        let mut planner = PlanningPlayer::new(1, THINK);
        let _ = planner.next_action(&g);
        let scores = planner.last_search();
        let names: Vec<&str> = scores.iter().map(|x| x.0).collect();
        assert_eq!(names, candidates.iter().map(|x| x.0).collect::<Vec<_>>(), "{name}");
        assert!(scores.iter().all(|(_, s)| s.is_finite()), "{name}: {scores:?}");
        let best = scores.iter().map(|x| x.1).fold(f64::MIN, f64::max);
        let chosen = candidates.iter().position(|(_, st)| *st == planner.style()).unwrap();
        assert!(scores[chosen].1 >= best - OPENING_MARGIN, "{name}: {scores:?}, chose {}", candidates[chosen].0);
    }
}

/// A tuning changes what the Alternative computer does: the infantry
/// tuning buys no tanks where the standard one buys some.
#[test]
fn alternative_tunings_change_the_purchase() {
    let rs = ruleset("alternative").unwrap();
    let mut g = Game::standard(rs.clone());
    // Payday: every nation is paid, then all shop at once.
    while g.state.phase != warboard_rules::Phase::Shopping {
        g.apply(&warboard_rules::Action::EndPhase, &mut SeededDice::new(1)).unwrap();
    }
    let tanks = |style: warboard_ai::Style| -> u32 {
        let mut player = ComputerPlayer::new();
        player.set_style(style);
        match player.next_action(&g) {
            warboard_rules::Action::Purchase { units } => units.iter().filter(|(k, _)| *k == warboard_rules::UnitType::Tank).map(|(_, n)| n).sum(),
            other => panic!("the computer shops first, not {other:?}"),
        }
    };
    let style = |name: &str| ALTERNATIVE_CANDIDATES.iter().find(|c| c.0 == name).unwrap().1;
    assert!(tanks(style("standard")) > 0, "the standard tuning buys tanks");
    assert_eq!(tanks(style("infantry")), 0, "the infantry tuning buys none");
}

/// Different seeds open differently: some power's first turn is played in
/// more than one style across a dozen seeds.
#[test]
fn seeds_choose_among_strong_openings() {
    let rs = ruleset("classic").unwrap();
    let mut g = Game::standard(rs.clone());
    // The first turn of each power in turn, each from the standard opening.
    let mut varied = false;
    for p in rs.power_ids() {
        let mut styles = Vec::new();
        for seed in 1..=12 {
            let mut planner = PlanningPlayer::new(seed, THINK);
            let _ = planner.next_action(&g);
            if !styles.contains(&planner.style()) {
                styles.push(planner.style());
            }
        }
        varied |= styles.len() > 1;
        // On to the next power's turn, played by the standard planner.
        let mut players: Vec<Box<dyn Player>> = rs.power_ids().map(|_| Box::new(ComputerPlayer::new()) as Box<dyn Player>).collect();
        let mut seats: Vec<&mut dyn Player> = players.iter_mut().map(|x| x.as_mut() as &mut dyn Player).collect();
        warboard_ai::play_until(&mut g, &mut seats, &mut SeededDice::new(1), &|x: &Game| x.state.turn != p, u64::MAX);
    }
    assert!(varied, "every power opened in one style for every seed");
}

/// Where the evaluation says a side is ahead, it is: taking a capital
/// turns the score.
#[test]
fn losing_a_capital_lowers_the_score() {
    let rs = ruleset("classic").unwrap();
    let g = Game::standard(rs.clone());
    let ger = rs.power_ids().find(|p| rs.power(*p).id == "germany").unwrap();
    let before = eval::score(&g, ger);
    let mut lost = g.clone();
    let capital = rs.power(ger).capital.unwrap();
    let rus = rs.power_ids().find(|p| rs.power(*p).id == "russia").unwrap();
    lost.state.control[capital.index()] = Some(rus);
    lost.state.units.retain(|u| u.at != capital);
    assert!(eval::score(&lost, ger) < before - 50.0, "{} vs {before}", eval::score(&lost, ger));
    assert_eq!(eval::score(&g, ger), -eval::score(&g, rus));
}

/// A planner that prints each search's scores.
struct Traced {
    inner: PlanningPlayer,
    shown: usize,
}

thread_local! {
    /// The probe's slowest planner turn start (search and first action), ms.
    static SLOWEST: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

impl Player for Traced {
    fn next_action(&mut self, game: &Game) -> warboard_rules::Action {
        let began = std::time::Instant::now();
        let a = self.inner.next_action(game);
        let ms = began.elapsed().as_secs_f64() * 1000.0;
        // A search runs when a power first acts in its turn (in the
        // Alternative rules, in the round).
        let p = warboard_ai::acting_power(game);
        let key = game.state.round as usize * 100 + p.0 as usize;
        if key != self.shown && (game.state.turn == p || game.ruleset.options.free_movement) {
            self.shown = key;
            SLOWEST.with(|s| s.set(s.get().max(ms)));
            let scores: Vec<String> = self.inner.last_search().iter().map(|(n, s)| format!("{n} {s:.0}")).collect();
            println!("  {} r{} ({ms:.0} ms): {}", game.ruleset.power(p).id, game.state.round, scores.join(", "));
        }
        // TRACE=R: every action played in round R.
        if std::env::var("TRACE").ok().and_then(|r| r.parse::<u32>().ok()) == Some(game.state.round) {
            let rs = &game.ruleset;
            let text = match &a {
                warboard_rules::Action::Move { units, route, .. } => {
                    let kinds: Vec<String> = units.iter().filter_map(|u| game.state.unit(*u)).map(|u| format!("{:?}", u.kind)).collect();
                    let path: Vec<&str> = route.iter().map(|t| rs.map.space(*t).id.as_str()).collect();
                    format!("move [{}] {}", kinds.join(" "), path.join(">"))
                }
                other => format!("{other:?}"),
            };
            println!("   {} {:?}: {text}", rs.power(p).id, game.state.phase);
        }
        a
    }
    fn rejected(&mut self, action: &warboard_rules::Action, error: &warboard_rules::RuleError) {
        // REJECTED=1: every action the rules refused.
        if std::env::var("REJECTED").is_ok() {
            println!("   refused: {action:?}: {error}");
        }
        self.inner.rejected(action, error)
    }
}

/// A look at planner games (`SEED`, `SIDE` = axis, allies or both,
/// `ROUNDS`, `THINK`, `RULESET`, `WATCH`, `WHERE`, `TRACE`, `REJECTED`):
/// `cargo test --release -p warboard-ai --test planner probe -- --ignored --nocapture`.
#[test]
#[ignore]
fn probe() {
    let seed: u64 = std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let rounds: u32 = std::env::var("ROUNDS").ok().and_then(|s| s.parse().ok()).unwrap_or(40);
    let think: u64 = std::env::var("THINK").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let side = std::env::var("SIDE").ok();
    let planner = PlayerKind::Planner { think_ms: think };
    let name = std::env::var("RULESET").unwrap_or_else(|_| "classic".into());
    let rs = ruleset(&name).unwrap();
    // SIDE=axis or allies: the planner plays that side against the standard
    // planner; SIDE=both: planners on both sides.
    let (axis, allies) = match side.as_deref() {
        Some("allies") => (PlayerKind::Computer, planner),
        Some("both") => (planner, planner),
        _ => (planner, PlayerKind::Computer),
    };
    let mut g = Game::standard(rs.clone());
    let mut ps: Vec<Box<dyn Player>> = rs
        .power_ids()
        .map(|p| -> Box<dyn Player> {
            let kind = if rs.side(p) == Side::Axis { axis } else { allies };
            match kind {
                PlayerKind::Planner { think_ms } => Box::new(Traced { inner: PlanningPlayer::new(seed * 1_000_003 + p.0 as u64, think_ms), shown: 0 }),
                other => other.make(seed * 1_000_003 + p.0 as u64),
            }
        })
        .collect();
    let mut dice = SeededDice::new(seed);
    let watch = std::env::var("WATCH").ok().and_then(|w| rs.power_ids().find(|p| rs.power(*p).id == w));
    for r in 1..=rounds {
        if let Some(w) = watch {
            // Turn by turn: the watched power's units after each turn.
            while g.state.round == r && g.state.winner.is_none() {
                let turn = g.state.turn;
                let mut seats: Vec<&mut dyn Player> = ps.iter_mut().map(|p| p.as_mut() as &mut dyn Player).collect();
                warboard_ai::play_until(&mut g, &mut seats, &mut dice, &|x: &Game| x.state.turn != turn || x.state.round != r, u64::MAX);
                let value: u32 = g.state.units.iter().filter(|u| u.owner == w).map(|u| rs.stats(u.kind).cost).sum();
                println!("    after {}: {} has {} IPCs of units, income {}", rs.power(turn).id, rs.power(w).id, value, g.income(w));
            }
        }
        let out = play_game(&mut g, &mut ps, &mut dice, r);
        let line: Vec<String> = rs
            .power_ids()
            .map(|p| {
                let units = g.state.units.iter().filter(|u| u.owner == p).count();
                let cap = rs.power(p).capital.map(|c| g.state.control[c.index()] == Some(p)).unwrap_or(true);
                format!("{} {}ipc {}u{}", rs.power(p).id, g.income(p), units, if cap { "" } else { " (capital lost)" })
            })
            .collect();
        println!("round {r}: {}", line.join(", "));
        let wheres = std::env::var("WHERE").unwrap_or_default();
        for w in wheres.split(',').filter_map(|w| rs.power_ids().find(|p| rs.power(*p).id == w)) {
            let mut at: std::collections::BTreeMap<String, Vec<String>> = Default::default();
            for u in g.state.units.iter().filter(|u| u.owner == w) {
                at.entry(rs.map.name(u.at).to_string()).or_default().push(format!("{:?}", u.kind));
            }
            let mut places: Vec<String> = Vec::new();
            for (place, units) in at {
                let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
                for u in units {
                    *counts.entry(u).or_default() += 1;
                }
                places.push(format!("{place}: {}", counts.iter().map(|(k, n)| format!("{n} {k}")).collect::<Vec<_>>().join(" ")));
            }
            println!("    {}: {}", rs.power(w).id, places.join("; "));
        }
        if out.winner.is_some() {
            println!("won by {:?}", out.winner);
            break;
        }
    }
    println!("slowest planner turn start: {:.0} ms", SLOWEST.with(|s| s.get()));
}
