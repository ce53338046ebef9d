//! The ladder (issue 32, docs/ladder.md): a game is rated when it ends if
//! its dice are proven (`"dice": "server"` or `"beacon"`) and its record
//! verifies with them, every power is held by an account, and the two
//! teams are held by different accounts; its result is kept once
//! (`rated_results`). Ratings are never stored: `GET /api/ladder/{family}`
//! computes them from the family's results in order (`warboard_ladder`, a
//! pure function of that list).

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use warboard_ladder::{Family, How, Ladder, Outcome, PlayerId, RatedResult};
use warboard_record::Record;

use crate::app::AppState;
use crate::error::ApiError;
use crate::live::Inner;
use crate::store::{RatedRow, SeatKind, Store};

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/ladder/{family}", get(leaderboard))
}

/// The rated result of a game that just ended, if it is rated.
pub(crate) fn rated_row(game_id: &str, inner: &Inner, ended_at: i64) -> Option<RatedRow> {
    let record = inner.table.record();
    let game = record.game();
    let (rs, s) = (&game.ruleset, &game.state);
    let family = Family::from_ruleset(&rs.name)?;
    let winner = s.winner.as_ref()?;
    if !record.proven() || verified(inner).is_none() {
        return None;
    }
    // Every power an account's; each team's accounts its own.
    let holder = |p: warboard_rules::PowerId| {
        inner.seats.iter().find(|seat| seat.power == rs.power(p).id).filter(|seat| seat.kind == SeatKind::Account).and_then(|seat| seat.account_id.clone())
    };
    let mut winners: Vec<String> = Vec::new();
    let mut losers: Vec<String> = Vec::new();
    for p in rs.power_ids() {
        let account = holder(p)?;
        let side = if winner.powers.contains(&p) { &mut winners } else { &mut losers };
        if !side.contains(&account) {
            side.push(account);
        }
    }
    if winners.is_empty() || losers.is_empty() || winners.iter().any(|a| losers.contains(a)) {
        return None;
    }
    let last = record.log().last()?;
    let how = match (last.action.value()["type"].as_str(), last.by) {
        (Some("surrender"), warboard_record::Origin::Engine) => "claim",
        (Some("surrender"), _) => "surrender",
        _ => "victory",
    };
    Some(RatedRow {
        game_id: game_id.to_string(),
        family: family.name().to_string(),
        ended_at,
        side_a: winners,
        side_b: losers,
        outcome: "win".into(),
        how: how.into(),
    })
}

/// The game's record as it verifies when it is over (with the server
/// mode's seed revealed): `None` if it does not.
fn verified(inner: &Inner) -> Option<Record> {
    let mut record = inner.table.record().clone();
    if let Some(seed) = inner.host_seed() {
        record.reveal_seed(*seed).ok()?;
        return Some(record);
    }
    Record::load(&record.to_save_string()).ok()
}

/// Keeps a finished game's rated result (once, whichever server); a
/// failure is logged, never the game's.
pub(crate) async fn keep(store: &Store, row: RatedRow) {
    if let Err(e) = store.add_rated(&row).await {
        tracing::warn!(game = row.game_id, error = %e, "a rated result was not kept");
    }
}

fn result_of(row: &RatedRow) -> Option<RatedResult> {
    let family = Family::from_ruleset(&row.family)?;
    let side = |ids: &[String]| ids.iter().map(|a| PlayerId(a.clone())).collect::<Vec<_>>();
    let how = match row.how.as_str() {
        "surrender" => How::Surrender,
        "claim" => How::Claim,
        _ => How::Victory,
    };
    let outcome = if row.outcome == "draw" { Outcome::Draw } else { Outcome::Win };
    Some(RatedResult { family, at_ms: row.ended_at, sides: [side(&row.side_a), side(&row.side_b)], outcome, how })
}

/// `GET /api/ladder/{family}`: every rated player of the family, best first:
/// the Glicko-2 rating of one-against-one games and the team rating, each
/// with its games and whether it is provisional.
async fn leaderboard(State(state): State<AppState>, Path(family): Path<String>) -> Result<Json<Value>, ApiError> {
    let fam = Family::from_ruleset(&family).filter(|f| f.name() == family).ok_or_else(|| {
        ApiError::not_found("ladder/unknown-family", format!("no ladder `{family}` (classic, europe, anniversary, alternative)"))
    })?;
    let rows = state.store.rated(fam.name()).await?;
    let results: Vec<RatedResult> = rows.iter().filter_map(result_of).collect();
    let ladder = Ladder::from_results(&results).map_err(|(i, e)| ApiError::internal(format!("rated result {i} does not rate: {e}")))?;
    let now = state.clock.now_ms();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut players = Vec::new();
    for (f, player) in ladder.players() {
        if f != fam {
            continue;
        }
        if !names.contains_key(&player.0) {
            let name = state.store.account(&player.0).await?.map(|a| a.name).unwrap_or_default();
            names.insert(player.0.clone(), name);
        }
        let solo = ladder.rating_at(fam, player, now);
        let team = ladder.team_rating_at(fam, player, now);
        players.push(json!({
            "account": names[&player.0],
            "rating": solo.value.round(), "deviation": solo.deviation.round(), "games": solo.games, "provisional": solo.provisional,
            "team_rating": (team.value * 100.0).round() / 100.0, "team_games": team.games, "team_provisional": team.provisional,
        }));
    }
    players.sort_by(|a, b| b["rating"].as_f64().partial_cmp(&a["rating"].as_f64()).unwrap_or(std::cmp::Ordering::Equal));
    Ok(Json(json!({"family": fam.name(), "games": rows.len(), "players": players})))
}
