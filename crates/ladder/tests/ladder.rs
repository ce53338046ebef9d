//! The ladder: recomputing equals updating, provisional ratings, families, refusals.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skillratings::glicko2::{decay_deviation, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use warboard_ladder::*;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

fn p(name: &str) -> PlayerId {
    PlayerId::from(name)
}

fn game(family: Family, at_ms: i64, a: &[&str], b: &[&str], outcome: Outcome) -> RatedResult {
    RatedResult { family, at_ms, sides: [a.iter().map(|s| p(s)).collect(), b.iter().map(|s| p(s)).collect()], outcome, how: How::Victory }
}

/// 10,000 random results over 50 players in every family: one against one
/// and sides of two to five, gaps of zero to sixty days (now and then a
/// year), every outcome and ending.
fn random_results(seed: u64, n: usize) -> Vec<RatedResult> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut below = |n: u64| rng.next_u64() % n;
    let mut at = 1_700_000_000_000i64;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        at += if below(50) == 0 { (below(400) as i64) * DAY_MS } else { (below(60 * 24) as i64) * DAY_MS / 24 };
        let family = Family::ALL[below(4) as usize];
        let (na, nb) = if below(3) == 0 { (1 + below(5) as usize, 1 + below(5) as usize) } else { (1, 1) };
        let mut players: Vec<u64> = Vec::new();
        while players.len() < na + nb {
            let x = below(50);
            if !players.contains(&x) {
                players.push(x);
            }
        }
        let ids: Vec<PlayerId> = players.iter().map(|x| PlayerId(format!("player-{x}"))).collect();
        let outcome = [Outcome::Win, Outcome::Loss, Outcome::Draw][below(3) as usize];
        let how = match outcome {
            Outcome::Draw => How::Victory,
            _ => [How::Victory, How::Surrender, How::Claim, How::Abandon][below(4) as usize],
        };
        out.push(RatedResult { family, at_ms: at, sides: [ids[..na].to_vec(), ids[na..].to_vec()], outcome, how });
    }
    out
}

#[test]
fn recomputing_equals_updating_over_ten_thousand_results() {
    let results = random_results(32, 10_000);
    assert!(results.iter().any(|r| r.sides[0].len() == 1 && r.sides[1].len() == 1));
    assert!(results.iter().any(|r| r.sides[0].len() > 1 || r.sides[1].len() > 1));

    let mut step = Ladder::new();
    for r in &results {
        step.apply(r).unwrap();
    }
    let whole = Ladder::from_results(&results).unwrap();
    assert_eq!(whole, step, "exact f64 equality");
    assert_eq!(whole.applied(), 10_000);

    // And from any prefix onward: the ladder after k results, then the rest.
    let k = 6_173;
    let mut resumed = Ladder::from_results(&results[..k]).unwrap();
    for r in &results[k..] {
        resumed.apply(r).unwrap();
    }
    assert_eq!(resumed, whole);

    let mut seen = 0;
    for (family, player) in whole.players() {
        seen += 1;
        let s = whole.rating(family, player);
        let t = whole.team_rating(family, player);
        let later = whole.rating_at(family, player, results.last().unwrap().at_ms + 400 * DAY_MS);
        for x in [s.value, s.deviation, s.volatility, t.value, t.uncertainty, later.deviation] {
            assert!(x.is_finite(), "{family:?} {player:?}: {s:?} {t:?}");
        }
        assert!(s.deviation > 0.0 && s.deviation <= 350.0 && t.uncertainty > 0.0 && t.uncertainty <= 25.0 / 3.0);
        assert!(later.deviation >= s.deviation);
    }
    assert!(seen > 150, "most of the 50 players in most of the 4 families, saw {seen}");
}

#[test]
fn a_game_is_the_crates_one_game_rating_period() {
    let ladder = Ladder::from_results(&[game(Family::Classic, 0, &["ann"], &["bob"], Outcome::Win)]).unwrap();
    let fresh = Glicko2Rating::new();
    let ann = glicko2_rating_period(&fresh, &[(fresh, Outcomes::WIN)], &Glicko2Config::new());
    let bob = glicko2_rating_period(&fresh, &[(fresh, Outcomes::LOSS)], &Glicko2Config::new());
    let r = ladder.rating(Family::Classic, &p("ann"));
    assert_eq!((r.value, r.deviation, r.volatility, r.games), (ann.rating, ann.deviation, ann.volatility, 1));
    let r = ladder.rating(Family::Classic, &p("bob"));
    assert_eq!((r.value, r.deviation, r.volatility), (bob.rating, bob.deviation, bob.volatility));
    // Nothing moved in another family, nor in the team rating.
    assert_eq!(ladder.rating(Family::Europe, &p("ann")).games, 0);
    assert_eq!(ladder.team_rating(Family::Classic, &p("ann")).games, 0);
}

#[test]
fn deviation_grows_once_per_empty_period() {
    let first = game(Family::Europe, 0, &["ann"], &["bob"], Outcome::Draw);
    let ladder = Ladder::from_results(std::slice::from_ref(&first)).unwrap();
    let standing = ladder.standing(Family::Europe, &p("ann")).solo;
    let ann = |at| ladder.rating_at(Family::Europe, &p("ann"), at).deviation;
    // Same period and the next one: nothing empty yet.
    assert_eq!(ann(PERIOD_MS - 1), standing.deviation);
    assert_eq!(ann(2 * PERIOD_MS - 1), standing.deviation);
    // Two periods on: period 1 was empty.
    assert_eq!(ann(2 * PERIOD_MS), decay_deviation(&standing).deviation);
    assert_eq!(ann(4 * PERIOD_MS), decay_deviation(&decay_deviation(&decay_deviation(&standing))).deviation);
    // Long away: back to the start's 350, never above.
    assert_eq!(ann(50 * 52 * PERIOD_MS), 350.0);

    // The next game sees the grown deviation: the same as rating from it by hand.
    let later = game(Family::Europe, 4 * PERIOD_MS, &["ann"], &["bob"], Outcome::Win);
    let mut grown = ladder.clone();
    grown.apply(&later).unwrap();
    let a = decay_deviation(&decay_deviation(&decay_deviation(&standing)));
    let b = decay_deviation(&decay_deviation(&decay_deviation(&ladder.standing(Family::Europe, &p("bob")).solo)));
    let (na, _) = skillratings::glicko2::glicko2(&a, &b, &Outcomes::WIN, &Glicko2Config::new());
    assert_eq!(grown.standing(Family::Europe, &p("ann")).solo, na);
}

#[test]
fn provisional_until_enough_games() {
    let mut ladder = Ladder::new();
    let mut games = 0;
    let ann = p("ann");
    assert!(ladder.rating(Family::Classic, &ann).provisional);
    while ladder.rating(Family::Classic, &ann).provisional {
        let opponent = format!("opp-{games}");
        let outcome = if games % 2 == 0 { Outcome::Win } else { Outcome::Loss };
        // One game a day, against fresh opponents.
        ladder.apply(&game(Family::Classic, games * DAY_MS, &["ann"], &[&opponent], outcome)).unwrap();
        games += 1;
        assert!(games < 100, "still provisional after 100 games: {:?}", ladder.rating(Family::Classic, &ann));
    }
    let r = ladder.rating(Family::Classic, &ann);
    assert!(r.deviation <= PROVISIONAL_DEVIATION && r.games as i64 == games);
    assert!((10..=40).contains(&games), "games to leave provisional among newcomers: {games}");
    // A year away makes it provisional again.
    assert!(ladder.rating_at(Family::Classic, &ann, games * DAY_MS + 365 * DAY_MS).provisional);

    // Team ratings: provisional too, until enough team games.
    let mut ladder = Ladder::new();
    let mut games = 0;
    while ladder.team_rating(Family::Anniversary, &ann).provisional {
        let (x, y, z) = (format!("x{games}"), format!("y{games}"), format!("z{games}"));
        let outcome = if games % 2 == 0 { Outcome::Win } else { Outcome::Loss };
        ladder.apply(&game(Family::Anniversary, games * DAY_MS, &["ann", &x], &[&y, &z], outcome)).unwrap();
        games += 1;
        assert!(games < 100, "team rating still provisional: {:?}", ladder.team_rating(Family::Anniversary, &ann));
    }
    assert_eq!(ladder.team_rating(Family::Anniversary, &ann).games as i64, games);
    assert!((10..=40).contains(&games), "team games to leave provisional among newcomers: {games}");
    assert!(ladder.team_rating_at(Family::Anniversary, &ann, games * DAY_MS + 365 * DAY_MS).provisional);
    assert_eq!(ladder.rating(Family::Anniversary, &ann).games, 0);
}

#[test]
fn families_from_ruleset_names() {
    assert_eq!(Family::from_ruleset("classic"), Some(Family::Classic));
    assert_eq!(Family::from_ruleset("europe"), Some(Family::Europe));
    assert_eq!(Family::from_ruleset("anniversary"), Some(Family::Anniversary));
    assert_eq!(Family::from_ruleset("anniversary-1941"), Some(Family::Anniversary));
    assert_eq!(Family::from_ruleset("anniversary-1942"), Some(Family::Anniversary));
    assert_eq!(Family::from_ruleset("alternative"), Some(Family::Alternative));
    assert_eq!(Family::from_ruleset("testland"), None);
    assert_eq!(Family::from_ruleset("Classic"), None);
    for f in Family::ALL {
        assert_eq!(Family::from_ruleset(f.name()), Some(f));
    }
    // Every ruleset directory shipped has a family.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(Family::from_ruleset(&name).is_some(), "rulesets/{name} has no family");
    }
}

#[test]
fn abandonment_is_a_loss_and_bad_results_are_refused() {
    let mut left = game(Family::Classic, 0, &["ann"], &["bob"], Outcome::Loss);
    left.how = How::Abandon;
    let plain = game(Family::Classic, 0, &["ann"], &["bob"], Outcome::Loss);
    let (a, b) = (Ladder::from_results(&[left.clone()]).unwrap(), Ladder::from_results(&[plain]).unwrap());
    assert_eq!(a.rating(Family::Classic, &p("ann")), b.rating(Family::Classic, &p("ann")));

    let mut ladder = Ladder::from_results(&[left.clone()]).unwrap();
    let before = ladder.clone();
    left.outcome = Outcome::Draw;
    assert_eq!(ladder.apply(&left), Err(LadderError::AbandonDraw));
    assert_eq!(ladder.apply(&game(Family::Classic, 1, &["ann"], &[], Outcome::Win)), Err(LadderError::EmptySide(1)));
    assert_eq!(ladder.apply(&game(Family::Classic, 1, &["ann", "cy"], &["ann"], Outcome::Win)), Err(LadderError::PlayerTwice(p("ann"))));
    assert_eq!(ladder, before, "a refused result changes nothing");
    let bad = [game(Family::Classic, 0, &["ann"], &["bob"], Outcome::Win), game(Family::Classic, 1, &["ann"], &["ann"], Outcome::Win)];
    assert_eq!(Ladder::from_results(&bad), Err((1, LadderError::PlayerTwice(p("ann")))));
}
