//! The ladder (issue 32, docs/ladder.md): a game is rated when it ends if
//! its dice are proven (`"dice": "server"` or `"beacon"`) and its record
//! verifies with them, every power is held by an account, and the two
//! teams are held by different accounts; its result is kept once
//! (`rated_results`), with the side each team played. Ratings are never
//! stored: every answer computes them from the family's results in order
//! (`warboard_ladder`, a pure function of that list):
//!
//! - `GET /api/ladder/{family}`: the leaderboard;
//! - `GET /api/ladder/{family}/balance`: win rates by side, and by bid;
//! - `GET /api/players/{name}`: a player's ratings, rating after each game,
//!   rated games and results by side;
//! - `/ladder` and `/players/{name}`: the pages showing them (web/src/pages).

use std::collections::{BTreeMap, BTreeSet};

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use warboard_ladder::{Family, How, Ladder, Outcome, PlayerId, RatedResult, Rating, TeamRating};
use warboard_record::Record;
use warboard_rules::Side;

use crate::app::AppState;
use crate::auth::MaybeAuthed;
use crate::error::ApiError;
use crate::live::Inner;
use crate::store::{RatedRow, SeatKind, Store, TakeoverRow};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/ladder/{family}", get(leaderboard))
        .route("/api/ladder/{family}/balance", get(balance))
        .route("/api/players/{name}", get(profile))
        // The pages: the app reads the path itself.
        .route("/ladder", get(crate::web::index))
        .route("/players/{name}", get(crate::web::index))
}

/// The rated result of a game that just ended, if it is rated. `taken`:
/// the seats the computer holds because their account's time ran out and
/// it never came back (src/correspondence.rs). Such a seat counts as its
/// account's, and the game as abandoned: a loss for the side that left it
/// (issue 32, point 2), whoever the computer won for; where both sides
/// left, nobody is credited and the game is not rated.
pub(crate) fn rated_row(game_id: &str, inner: &Inner, ended_at: i64, taken: &[TakeoverRow]) -> Option<RatedRow> {
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
        inner
            .seats
            .iter()
            .find(|seat| seat.power == rs.power(p).id)
            .filter(|seat| seat.kind == SeatKind::Account)
            .and_then(|seat| seat.account_id.clone())
    };
    let left_by = |p: warboard_rules::PowerId| taken.iter().find(|t| t.power == rs.power(p).id).map(|t| t.account_id.clone());
    let mut abandoners: Vec<String> = Vec::new();
    let mut winners: Vec<String> = Vec::new();
    let mut losers: Vec<String> = Vec::new();
    // The sides (axis, allies) of the powers each team held.
    let (mut winners_play, mut losers_play): (Vec<Side>, Vec<Side>) = (Vec::new(), Vec::new());
    for p in rs.power_ids() {
        let account = match left_by(p) {
            Some(account) => {
                abandoners.push(account.clone());
                account
            }
            None => holder(p)?,
        };
        let (team, plays) = if winner.powers.contains(&p) { (&mut winners, &mut winners_play) } else { (&mut losers, &mut losers_play) };
        if !team.contains(&account) {
            team.push(account);
        }
        if !plays.contains(&rs.power(p).side) {
            plays.push(rs.power(p).side);
        }
    }
    if winners.is_empty() || losers.is_empty() || winners.iter().any(|a| losers.contains(a)) {
        return None;
    }
    let last = record.log().last()?;
    let mut how = match (last.action.value()["type"].as_str(), last.by) {
        (Some("surrender"), warboard_record::Origin::Engine) => "claim",
        (Some("surrender"), _) => "surrender",
        _ => "victory",
    };
    match (abandoners.iter().any(|a| winners.contains(a)), abandoners.iter().any(|a| losers.contains(a))) {
        (true, true) => return None,
        (true, false) => {
            std::mem::swap(&mut winners, &mut losers);
            std::mem::swap(&mut winners_play, &mut losers_play);
            how = "abandon";
        }
        (false, true) => how = "abandon",
        (false, false) => {}
    }
    // A team that held powers of both sides (Alternative's own teams) played neither.
    let one_side = |plays: &[Side]| match plays {
        [side] => Some(side.name().to_string()),
        _ => None,
    };
    Some(RatedRow {
        game_id: game_id.to_string(),
        family: family.name().to_string(),
        ended_at,
        side_a: winners,
        side_b: losers,
        outcome: "win".into(),
        how: how.into(),
        side_a_plays: one_side(&winners_play),
        side_b_plays: one_side(&losers_play),
        // The game's settled bid, read by `keep` (src/bids.rs).
        bid: None,
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

/// Keeps a finished game's rated result (once, whichever server), with the
/// IPCs the Axis got from the game's sealed bid where it had one; a
/// failure is logged, never the game's.
pub(crate) async fn keep(store: &Store, mut row: RatedRow) {
    match crate::bids::settled_bid(store, &row.game_id).await {
        Ok(bid) => row.bid = bid.map(i64::from),
        Err(e) => {
            tracing::warn!(game = row.game_id, error = %e.message, "a rated result was not kept: its bid does not read");
            return;
        }
    }
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
        "abandon" => How::Abandon,
        _ => How::Victory,
    };
    let outcome = if row.outcome == "draw" { Outcome::Draw } else { Outcome::Win };
    Some(RatedResult { family, at_ms: row.ended_at, sides: [side(&row.side_a), side(&row.side_b)], outcome, how })
}

/// The family a path names (`anniversary`, not `anniversary-1941`).
fn family_of(name: &str) -> Result<Family, ApiError> {
    Family::from_ruleset(name).filter(|f| f.name() == name).ok_or_else(|| {
        ApiError::not_found("ladder/unknown-family", format!("no ladder `{name}` (classic, europe, anniversary, alternative)"))
    })
}

/// A family's rated results in the order they are rated, each beside its row.
async fn results(store: &Store, family: Family) -> Result<Vec<(RatedRow, RatedResult)>, ApiError> {
    let rows = store.rated(family.name()).await?;
    Ok(rows.into_iter().filter_map(|row| result_of(&row).map(|result| (row, result))).collect())
}

fn rating_failed((i, e): (usize, warboard_ladder::LadderError)) -> ApiError {
    ApiError::internal(format!("rated result {i} does not rate: {e}"))
}

/// One player's place in a family at a time.
struct Standing {
    player: PlayerId,
    solo: Rating,
    team: TeamRating,
}

/// Every player of `family` at `now`, best first: by one-against-one
/// rating, then team rating, then account id (so that every answer ranks
/// alike).
fn standings(ladder: &Ladder, family: Family, now: i64) -> Vec<Standing> {
    let mut all: Vec<Standing> = ladder
        .players()
        .filter(|(f, _)| *f == family)
        .map(|(_, p)| Standing { player: p.clone(), solo: ladder.rating_at(family, p, now), team: ladder.team_rating_at(family, p, now) })
        .collect();
    all.sort_by(|a, b| b.solo.value.total_cmp(&a.solo.value).then(b.team.value.total_cmp(&a.team.value)).then(a.player.cmp(&b.player)));
    all
}

/// A Weng-Lin number as shown: to hundredths (Glicko-2's are whole).
fn hundredths(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The account names of `ids`, for answers that name players (never by id).
async fn names(store: &Store, ids: BTreeSet<String>) -> Result<BTreeMap<String, String>, ApiError> {
    let ids: Vec<String> = ids.into_iter().collect();
    Ok(store.account_names(&ids).await?.into_iter().collect())
}

fn name_of(names: &BTreeMap<String, String>, id: &str) -> String {
    names.get(id).cloned().unwrap_or_default()
}

/// `GET /api/ladder/{family}`: every rated player of the family, best first:
/// the Glicko-2 rating of one-against-one games and the team rating, each
/// with its games and whether it is provisional.
async fn leaderboard(State(state): State<AppState>, Path(family): Path<String>) -> Result<Json<Value>, ApiError> {
    let fam = family_of(&family)?;
    let results = results(&state.store, fam).await?;
    let ladder = Ladder::from_results(&results.iter().map(|(_, r)| r.clone()).collect::<Vec<_>>()).map_err(rating_failed)?;
    let board = standings(&ladder, fam, state.clock.now_ms());
    let names = names(&state.store, board.iter().map(|s| s.player.0.clone()).collect()).await?;
    let players: Vec<Value> = board
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "rank": i + 1, "account": name_of(&names, &s.player.0),
                "rating": s.solo.value.round(), "deviation": s.solo.deviation.round(), "games": s.solo.games, "provisional": s.solo.provisional,
                "team_rating": hundredths(s.team.value), "team_games": s.team.games, "team_provisional": s.team.provisional,
            })
        })
        .collect();
    Ok(Json(json!({"family": fam.name(), "games": results.len(), "players": players})))
}

/// Rated games counted by the side that won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    games: u32,
    axis_wins: u32,
    allies_wins: u32,
    draws: u32,
}

impl Tally {
    fn json(&self) -> Value {
        let rate = |n: u32| (self.games > 0).then(|| n as f64 / self.games as f64);
        json!({
            "games": self.games, "axis_wins": self.axis_wins, "allies_wins": self.allies_wins, "draws": self.draws,
            "axis_win_rate": rate(self.axis_wins), "allies_win_rate": rate(self.allies_wins), "draw_rate": rate(self.draws),
        })
    }
}

/// Which side won a result: `Some(None)` a draw, `None` where its sides are
/// not known to be one Axis and one Allies.
fn side_won(row: &RatedRow) -> Option<Option<&str>> {
    match (row.side_a_plays.as_deref(), row.side_b_plays.as_deref()) {
        (Some(a), Some(b)) if a != b => Some((row.outcome != "draw").then_some(a)),
        _ => None,
    }
}

/// Side balance: every result whose sides are known, and the same by bid
/// (`None`: no bid), with the number of results whose sides are not known.
fn balance_of<'a>(rows: impl IntoIterator<Item = &'a RatedRow>) -> (Tally, BTreeMap<Option<i64>, Tally>, u32) {
    let (mut all, mut by_bid, mut unknown) = (Tally::default(), BTreeMap::<Option<i64>, Tally>::new(), 0);
    for row in rows {
        let Some(won) = side_won(row) else {
            unknown += 1;
            continue;
        };
        for t in [&mut all, by_bid.entry(row.bid).or_default()] {
            t.games += 1;
            match won {
                Some("axis") => t.axis_wins += 1,
                Some(_) => t.allies_wins += 1,
                None => t.draws += 1,
            }
        }
    }
    (all, by_bid, unknown)
}

/// `GET /api/ladder/{family}/balance`: how often each side wins the
/// family's rated games, overall and by bid (the IPCs the Axis got; `null`:
/// no bid). Games whose sides are not one Axis and one Allies are only
/// counted (`unknown_sides`).
async fn balance(State(state): State<AppState>, Path(family): Path<String>) -> Result<Json<Value>, ApiError> {
    let fam = family_of(&family)?;
    let rows = state.store.rated(fam.name()).await?;
    let (all, by_bid, unknown) = balance_of(&rows);
    let mut answer = all.json();
    answer["family"] = json!(fam.name());
    answer["unknown_sides"] = json!(unknown);
    answer["by_bid"] = by_bid
        .iter()
        .map(|(bid, t)| {
            let mut bucket = t.json();
            bucket["bid"] = json!(bid);
            bucket
        })
        .collect();
    Ok(Json(answer))
}

/// A player's rating after one of its games.
#[derive(Clone, Debug, PartialEq)]
struct Point {
    game_id: String,
    ended_at: i64,
    /// A team game: Weng-Lin's rating and uncertainty, not Glicko-2's.
    team: bool,
    rating: f64,
    deviation: f64,
}

/// The family's ladder over `results`, and `player`'s rating after each of
/// its games in them, in order.
fn history(results: &[(RatedRow, RatedResult)], player: &PlayerId) -> Result<(Ladder, Vec<Point>), ApiError> {
    let mut ladder = Ladder::new();
    let mut points = Vec::new();
    for (i, (row, result)) in results.iter().enumerate() {
        ladder.apply(result).map_err(|e| rating_failed((i, e)))?;
        if !result.sides.iter().flatten().any(|p| p == player) {
            continue;
        }
        let team = result.sides.iter().any(|s| s.len() > 1);
        let (rating, deviation) = if team {
            let r = ladder.team_rating(result.family, player);
            (hundredths(r.value), hundredths(r.uncertainty))
        } else {
            let r = ladder.rating(result.family, player);
            (r.value.round(), r.deviation.round())
        };
        points.push(Point { game_id: row.game_id.clone(), ended_at: row.ended_at, team, rating, deviation });
    }
    Ok((ladder, points))
}

#[derive(Clone, Copy, Debug, Default)]
struct WinsLosses {
    wins: u32,
    losses: u32,
    draws: u32,
}

/// A player's results as Axis, as Allies, and where its side is not known.
#[derive(Clone, Copy, Debug, Default)]
struct BySide {
    axis: WinsLosses,
    allies: WinsLosses,
    unknown: WinsLosses,
}

impl BySide {
    fn add(&mut self, side: Option<&str>, result: &str) {
        let r = match side {
            Some("axis") => &mut self.axis,
            Some("allies") => &mut self.allies,
            _ => &mut self.unknown,
        };
        match result {
            "win" => r.wins += 1,
            "loss" => r.losses += 1,
            _ => r.draws += 1,
        }
    }

    fn json(&self) -> Value {
        let one = |r: &WinsLosses| json!({"wins": r.wins, "losses": r.losses, "draws": r.draws});
        json!({"axis": one(&self.axis), "allies": one(&self.allies), "unknown": one(&self.unknown)})
    }
}

/// The player's part in one rated game: its team's accounts, the other's,
/// the side it played and its result.
struct Part<'a> {
    row: &'a RatedRow,
    partners: Vec<&'a String>,
    opponents: &'a [String],
    side: Option<&'a str>,
    result: &'static str,
}

fn part_of<'a>(row: &'a RatedRow, id: &str) -> Option<Part<'a>> {
    let (own, other, side, won) = if row.side_a.iter().any(|a| a == id) {
        (&row.side_a, &row.side_b, row.side_a_plays.as_deref(), true)
    } else if row.side_b.iter().any(|a| a == id) {
        (&row.side_b, &row.side_a, row.side_b_plays.as_deref(), false)
    } else {
        return None;
    };
    let result = match (row.outcome.as_str(), won) {
        ("draw", _) => "draw",
        (_, true) => "win",
        (_, false) => "loss",
    };
    Some(Part { row, partners: own.iter().filter(|a| *a != id).collect(), opponents: other, side, result })
}

/// `GET /api/players/{name}`: a player's ladder: per family its rating now,
/// its rank, its rating after each rated game and its results by side; its
/// rated games, newest first, each with a link to the record and the
/// replay where the asker may see the game (public games, or the asker's).
async fn profile(State(state): State<AppState>, who: MaybeAuthed, Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    let account = state
        .store
        .account_by_name(&name)
        .await?
        .ok_or_else(|| ApiError::not_found("ladder/unknown-player", format!("there is no player `{name}`")))?;
    let player = PlayerId(account.id.clone());
    let now = state.clock.now_ms();
    let mut families = Vec::new();
    let mut rows: Vec<RatedRow> = Vec::new();
    let mut all_sides = BySide::default();
    for fam in Family::ALL {
        let results = results(&state.store, fam).await?;
        let (ladder, points) = history(&results, &player)?;
        if points.is_empty() {
            continue;
        }
        let board = standings(&ladder, fam, now);
        let rank = board.iter().position(|s| s.player == player).map(|i| i + 1);
        let (solo, team) = (ladder.rating_at(fam, &player, now), ladder.team_rating_at(fam, &player, now));
        let mut sides = BySide::default();
        for part in results.iter().filter_map(|(row, _)| part_of(row, &account.id)) {
            sides.add(part.side, part.result);
            all_sides.add(part.side, part.result);
        }
        let history: Vec<Value> = points
            .iter()
            .map(|p| json!({"game": p.game_id, "ended_at": p.ended_at, "team": p.team, "rating": p.rating, "deviation": p.deviation}))
            .collect();
        families.push(json!({
            "family": fam.name(), "rank": rank, "players": board.len(),
            "rating": solo.value.round(), "deviation": solo.deviation.round(), "games": solo.games, "provisional": solo.provisional,
            "team_rating": hundredths(team.value), "team_uncertainty": hundredths(team.uncertainty), "team_games": team.games, "team_provisional": team.provisional,
            "history": history, "by_side": sides.json(),
        }));
        rows.extend(results.into_iter().map(|(row, _)| row).filter(|row| part_of(row, &account.id).is_some()));
    }
    rows.sort_by(|a, b| b.ended_at.cmp(&a.ended_at).then(b.game_id.cmp(&a.game_id)));
    let names = names(&state.store, rows.iter().flat_map(|r| r.side_a.iter().chain(&r.side_b)).cloned().collect()).await?;
    let ids: Vec<String> = rows.iter().map(|r| r.game_id.clone()).collect();
    let public = state.store.public_games(&ids).await?;
    let me = who.0.as_ref().map(|a| a.account.id.clone());
    let mut games = Vec::new();
    for part in rows.iter().filter_map(|row| part_of(row, &account.id)) {
        let id = &part.row.game_id;
        let played = me.as_ref().is_some_and(|me| part.row.side_a.contains(me) || part.row.side_b.contains(me));
        // A private game's other viewers (its creator) by the lobby's own rule.
        let shown = public.contains(id) || played || (me.is_some() && crate::lobby::visible(&state, &who, id).await.is_ok());
        games.push(json!({
            "game": id, "family": part.row.family, "ended_at": part.row.ended_at, "side": part.side,
            "partners": part.partners.iter().map(|a| name_of(&names, a)).collect::<Vec<_>>(),
            "opponents": part.opponents.iter().map(|a| name_of(&names, a)).collect::<Vec<_>>(),
            "result": part.result, "how": part.row.how, "bid": part.row.bid,
            "record": shown.then(|| format!("/api/games/{id}/record")),
            "replay": shown.then(|| format!("/game/{id}/replay")),
        }));
    }
    Ok(Json(json!({"name": account.name, "families": families, "by_side": all_sides.json(), "games": games})))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, ended_at: i64, a: &str, b: &str, plays: Option<(&str, &str)>, outcome: &str, bid: Option<i64>) -> RatedRow {
        RatedRow {
            game_id: id.into(),
            family: "classic".into(),
            ended_at,
            side_a: vec![a.into()],
            side_b: vec![b.into()],
            outcome: outcome.into(),
            how: "surrender".into(),
            side_a_plays: plays.map(|p| p.0.into()),
            side_b_plays: plays.map(|p| p.1.into()),
            bid,
        }
    }

    #[test]
    fn balance_counts_known_sides_by_bid() {
        let rows = [
            row("g1", 1, "x", "y", Some(("axis", "allies")), "win", None),
            row("g2", 2, "x", "y", Some(("allies", "axis")), "win", Some(9)),
            row("g3", 3, "x", "y", Some(("axis", "allies")), "draw", Some(9)),
            row("g4", 4, "x", "y", None, "win", None),
        ];
        let (all, by_bid, unknown) = balance_of(&rows);
        assert_eq!(all, Tally { games: 3, axis_wins: 1, allies_wins: 1, draws: 1 });
        assert_eq!(unknown, 1);
        assert_eq!(by_bid.keys().copied().collect::<Vec<_>>(), vec![None, Some(9)], "no bid first");
        assert_eq!(by_bid[&Some(9)], Tally { games: 2, axis_wins: 0, allies_wins: 1, draws: 1 });
        assert_eq!(all.json()["axis_win_rate"], json!(1.0 / 3.0));
        assert_eq!(Tally::default().json()["axis_win_rate"], Value::Null, "no games, no rate");
    }

    #[test]
    fn history_is_the_ladder_after_each_game_of_the_player() {
        let rows = [
            row("g1", 1, "x", "y", Some(("axis", "allies")), "win", None),
            row("g2", 2, "y", "z", Some(("axis", "allies")), "win", None),
            row("g3", 3, "z", "x", Some(("axis", "allies")), "win", None),
        ];
        let results: Vec<(RatedRow, RatedResult)> = rows.iter().map(|r| (r.clone(), result_of(r).expect("classic"))).collect();
        let (ladder, points) = history(&results, &PlayerId::from("x")).expect("rates");
        assert_eq!(points.iter().map(|p| p.game_id.as_str()).collect::<Vec<_>>(), ["g1", "g3"]);
        let mut expected = Ladder::new();
        expected.apply(&results[0].1).expect("rates");
        assert_eq!(points[0].rating, expected.rating(Family::Classic, &PlayerId::from("x")).value.round());
        assert_eq!(points[1].rating, ladder.rating(Family::Classic, &PlayerId::from("x")).value.round());
        assert_eq!(ladder, Ladder::from_results(&results.iter().map(|(_, r)| r.clone()).collect::<Vec<_>>()).expect("rates"));
    }
}
