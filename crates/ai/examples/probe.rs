//! Plays games of a ruleset and reports, per game, the outcome, the victory
//! cities each side holds, and every refused proposal by rule code: what the
//! strength and legality checks look at. `cargo run --release -p
//! warboard-ai --example probe -- anniversary-1941 ai random 10 40 [seed]`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Instant;
use warboard_ai::series::PlayerKind;
use warboard_ai::{play_game, Player};
use warboard_rules::{ruleset, Action, Game, RuleError, SeededDice, Side};

#[derive(Default)]
struct Tally {
    refused: BTreeMap<String, (u32, String)>,
    run: u32,
    longest: u32,
}

struct Watched {
    inner: Box<dyn Player>,
    tally: Rc<RefCell<Tally>>,
}

impl Player for Watched {
    fn next_action(&mut self, game: &Game) -> Action {
        self.tally.borrow_mut().run = 0;
        let a = self.inner.next_action(game);
        // TRACE=R: every action proposed in round R, by power and phase.
        if std::env::var("TRACE").ok().and_then(|r| r.parse::<u32>().ok()) == Some(game.state.round) {
            let p = warboard_ai::acting_power(game);
            println!("   r{} {} {:?}: {}", game.state.round, game.ruleset.power(p).id, game.state.phase, describe(game, &a));
        }
        a
    }
    fn rejected(&mut self, action: &Action, error: &RuleError) {
        {
            let mut t = self.tally.borrow_mut();
            let e = t.refused.entry(error.code.to_string()).or_insert((0, String::new()));
            e.0 += 1;
            if e.1.is_empty() {
                e.1 = format!("{action:?}: {}", error.message);
            }
            t.run += 1;
            t.longest = t.longest.max(t.run);
        }
        self.inner.rejected(action, error);
    }
    fn intercept(&mut self, game: &Game, at: warboard_rules::SpaceId, power: warboard_rules::PowerId) -> Option<Action> {
        self.inner.intercept(game, at, power)
    }
}

/// An action with space and unit ids spelled out.
fn describe(game: &Game, a: &Action) -> String {
    let rs = &game.ruleset;
    match a {
        Action::Move { units, route, transport, .. } => {
            let kinds: Vec<String> = units.iter().filter_map(|u| game.state.unit(*u)).map(|u| format!("{:?}", u.kind)).collect();
            let path: Vec<&str> = route.iter().map(|t| rs.map.space(*t).id.as_str()).collect();
            format!("move [{}] {}{}", kinds.join(" "), path.join(">"), if transport.is_some() { " (boarding)" } else { "" })
        }
        other => format!("{other:?}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("anniversary-1941", |s| s.as_str());
    let axis: PlayerKind = args.get(1).map_or("ai", |s| s.as_str()).parse().unwrap();
    let allies: PlayerKind = args.get(2).map_or("ai", |s| s.as_str()).parse().unwrap();
    let n: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let rounds: u32 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(40);
    let seed0: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
    let rs = ruleset(name).unwrap();
    let cities: Vec<_> = rs.map.ids().filter(|t| rs.map.space(*t).victory_city).collect();
    let (mut ax, mut al, mut un) = (0, 0, 0);
    let start = Instant::now();
    for seed in seed0..seed0 + n {
        let tallies = [Rc::new(RefCell::new(Tally::default())), Rc::new(RefCell::new(Tally::default()))];
        let mut players: Vec<Box<dyn Player>> = rs
            .power_ids()
            .map(|p| -> Box<dyn Player> {
                let side = rs.side(p);
                let kind = if side == Side::Axis { axis } else { allies };
                let t = tallies[usize::from(side != Side::Axis)].clone();
                Box::new(Watched { inner: kind.make(seed.wrapping_mul(1_000_003).wrapping_add(p.0 as u64)), tally: t })
            })
            .collect();
        let mut game = Game::standard(rs.clone());
        let t0 = Instant::now();
        let out = play_game(&mut game, &mut players, &mut SeededDice::new(seed), rounds);
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        drop(players);
        let s = &game.state;
        let held = |side: Side| cities.iter().filter(|c| s.control[c.index()].is_some_and(|q| rs.side(q) == side)).count();
        match out.winner {
            Some(Side::Axis) => ax += 1,
            Some(Side::Allies) => al += 1,
            None => un += 1,
        }
        let names: Vec<String> = cities.iter().filter(|c| s.control[c.index()].is_some_and(|q| rs.side(q) == Side::Axis)).map(|c| rs.map.space(*c).id.clone()).collect();
        println!(
            "seed {seed}: {:?} round {} actions {} ({ms:.0} ms); cities axis {} allies {} [axis: {}]; ipcs {:?}",
            out.winner,
            out.rounds,
            out.actions,
            held(Side::Axis),
            held(Side::Allies),
            names.join(" "),
            s.ipcs
        );
        for (i, t) in tallies.iter().enumerate() {
            let t = t.borrow();
            for (code, (k, first)) in &t.refused {
                println!("   {} refused {k}x {code}: {first}", if i == 0 { "axis" } else { "allies" });
            }
            if t.longest >= 200 {
                println!("   {} STALLED (run of {})", if i == 0 { "axis" } else { "allies" }, t.longest);
            }
        }
    }
    println!("axis {ax} allies {al} undecided {un}; {:.1} ms a game", start.elapsed().as_secs_f64() * 1000.0 / n as f64);
}
