//! Glickman's worked example (glicko.net/glicko/glicko2.pdf, "Example calculation"):
//! a player rated 1500, RD 200, σ 0.06, τ 0.5, playing three games in one
//! rating period against 1400/30 (won), 1550/100 (lost), 1700/300 (lost).
//! The paper prints r' = 1464.06, RD' = 151.52, σ' = 0.05999, and on the
//! Glicko-2 scale μ' = −0.2069, φ' = 0.8722.

use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

const SCALE: f64 = 173.7178;

fn rate() -> Glicko2Rating {
    let player = Glicko2Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
    let opp = |rating, deviation| Glicko2Rating { rating, deviation, volatility: 0.06 };
    let results = [(opp(1400.0, 30.0), Outcomes::WIN), (opp(1550.0, 100.0), Outcomes::LOSS), (opp(1700.0, 300.0), Outcomes::LOSS)];
    let config = Glicko2Config::new();
    assert_eq!(config.tau, 0.5, "the paper's example uses τ = 0.5");
    glicko2_rating_period(&player, &results, &config)
}

fn round_to(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

#[test]
fn glicko2_scale_values_match_the_paper() {
    let r = rate();
    let mu = (r.rating - 1500.0) / SCALE;
    let phi = r.deviation / SCALE;
    assert_eq!(round_to(mu, 4), -0.2069, "μ' = {mu}");
    assert_eq!(round_to(phi, 4), 0.8722, "φ' = {phi}");
}

#[test]
fn rating_scale_values_match_the_paper() {
    let r = rate();
    // The paper's r' = 1464.06 is 173.7178 × (−0.2069) + 1500 = 1464.0574,
    // from μ' already rounded to four places; unrounded, μ' gives 1464.05.
    // Both agree with the printed value to its last place within one unit.
    assert_eq!(round_to(SCALE * round_to((r.rating - 1500.0) / SCALE, 4) + 1500.0, 2), 1464.06);
    assert!((r.rating - 1464.06).abs() < 0.01, "r' = {}", r.rating);
    assert_eq!(round_to(r.deviation, 2), 151.52, "RD' = {}", r.deviation);
    // σ' = 0.0599960 (the crate's own tests pin 0.059995984286488495): the
    // paper's 0.05999 is this cut, not rounded, to five places.
    assert_eq!((r.volatility * 1e5).floor() / 1e5, 0.05999, "σ' = {}", r.volatility);
    assert!((r.volatility - 0.05999).abs() < 1e-5, "σ' = {}", r.volatility);
}
