//! Games before and around play: create one (ruleset, options by their
//! documented names, a seat per power), take and leave seats, list open
//! games and one's own, and download a game's record.

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use warboard_proof::ServerSeed;
use warboard_record::{fresh_seed, DiceMode, Position, Record, Start};

use crate::app::{AppState, StrictJson};
use crate::auth::{Authed, MaybeAuthed};
use crate::correspondence::ClockInfo;
use crate::error::ApiError;
use crate::live::{Inner, StoredStart};
use crate::proven::{Dice, DiceChoice, StoredProof};
use crate::store::{new_id, BidRow, GameRow, GameStatus, NewGame, SeatKind, SeatRow, StoreError};

/// The most a computer player may think a turn (ms of simulated turns):
/// a bound on one request's work.
const MAX_THINK_MS: u64 = 60_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    ruleset: String,
    #[serde(default)]
    options: BTreeMap<String, Value>,
    /// Seats by power name; a power left out is open.
    #[serde(default)]
    seats: BTreeMap<String, SeatSpec>,
    #[serde(default = "yes")]
    public: bool,
    /// Days a player has for a move (a correspondence game,
    /// src/correspondence.rs); left out: no clock.
    #[serde(default)]
    move_days: Option<Value>,
    /// Vacation days each account may take over the game.
    #[serde(default)]
    vacation_days: Option<Value>,
    /// How the dice are made: `seeded` (the host's secret seed) or
    /// `server` (committed at the start, revealed at the end: src/proven.rs).
    #[serde(default)]
    dice: DiceChoice,
    /// Sides by sealed bids (src/bids.rs) instead of `seats`: the creator
    /// against one opponent, every seat kept for the bid's outcome.
    #[serde(default)]
    bid: Option<crate::bids::BidSpec>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, tag = "kind", rename_all = "snake_case")]
pub enum SeatSpec {
    /// The account creating the game.
    Me,
    Open,
    /// A named account.
    Account { name: String },
    /// The computer (the planning player), thinking `think` ms a turn.
    Computer {
        #[serde(default)]
        think: u64,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    #[serde(default)]
    filter: Option<String>,
}

/// `POST /api/games`
pub async fn create(State(state): State<AppState>, authed: Authed, StrictJson(req): StrictJson<CreateGame>) -> Result<Response, ApiError> {
    let me = &authed.account;
    if req.bid.is_some() && !req.seats.is_empty() {
        return Err(ApiError::bad_request(
            "bid/with-seats",
            "a game with a bid gets its seats from the bid: give `bid` or `seats`, not both",
        ));
    }
    let clock = crate::correspondence::settings_from_request(req.move_days.as_ref(), req.vacation_days.as_ref())?;
    if state.store.count_active_games_of(&me.id).await? >= state.config.max_games_per_account {
        return Err(ApiError::forbidden(
            "auth/too-many-games",
            format!("an account may have {} games open or in play that it created", state.config.max_games_per_account),
        ));
    }
    let mut stored = StoredStart {
        ruleset: req.ruleset.clone(),
        options: req.options.clone(),
        position: Position::standard(),
        seed: state.config.fixed_seed.unwrap_or_else(fresh_seed),
        proof: None,
    };
    // The record checks the ruleset and every option by its documented name.
    let dice = if req.dice == DiceChoice::Seeded { DiceMode::Seeded { seed: stored.seed } } else { DiceMode::Proof };
    let record = Record::new(Start { dice, ..stored.start() }).map_err(|e| ApiError::bad_request(e.code(), e.to_string()))?;
    let bid = match &req.bid {
        Some(spec) => Some(crate::bids::check_new(&state.store, me, spec, &record).await?),
        None => None,
    };
    let id = new_id()?;
    if req.dice != DiceChoice::Seeded {
        let key = state.witness.key(&state.store, state.clock.as_ref()).await?;
        let dice = match (req.dice, state.config.fixed_seed) {
            (DiceChoice::Beacon, _) => Dice::Beacon(state.witness.beacon().info().clone()),
            // Tests repeat their dice; a server's own seeds come from the OS.
            (_, Some(fixed)) => Dice::Seed(ServerSeed::from_bytes(<sha2::Sha256 as sha2::Digest>::digest(fixed.to_be_bytes()).into())),
            (_, None) => Dice::Seed(ServerSeed::generate().map_err(|e| ApiError::internal(e.to_string()))?),
        };
        stored.proof = Some(StoredProof::new(&record, &id, key, dice)?);
    }
    let rs = record.game().ruleset.clone();
    if let Some(unknown) = req.seats.keys().find(|name| rs.power_by_name(name).is_none()) {
        let known: Vec<&str> = rs.powers.iter().map(|p| p.id.as_str()).collect();
        return Err(ApiError::bad_request("start/unknown-power", format!("unknown power `{unknown}` (powers: {})", known.join(", "))));
    }
    let mut seats = Vec::new();
    for power in rs.power_ids() {
        let name = rs.power(power).id.clone();
        let seat = match req.seats.get(&name).unwrap_or(&SeatSpec::Open) {
            SeatSpec::Me => SeatRow { power: name, kind: SeatKind::Account, account_id: Some(me.id.clone()), think_ms: 0 },
            SeatSpec::Open => SeatRow { power: name, kind: SeatKind::Open, account_id: None, think_ms: 0 },
            SeatSpec::Account { name: holder } => {
                let account = state
                    .store
                    .account_by_name(holder)
                    .await?
                    .ok_or_else(|| ApiError::bad_request("auth/unknown-account", format!("there is no account `{holder}`")))?;
                if account.banned {
                    return Err(ApiError::bad_request("auth/account-banned", format!("the account `{holder}` is banned and cannot play")));
                }
                SeatRow { power: name, kind: SeatKind::Account, account_id: Some(account.id), think_ms: 0 }
            }
            SeatSpec::Computer { think } if *think > MAX_THINK_MS => {
                return Err(ApiError::bad_request("request/bad-field", format!("`think` is at most {MAX_THINK_MS} ms")))
            }
            SeatSpec::Computer { think } => SeatRow { power: name, kind: SeatKind::Computer, account_id: None, think_ms: *think as i64 },
        };
        seats.push(seat);
    }
    let status = if seats.iter().any(|s| s.kind == SeatKind::Open) { GameStatus::Open } else { GameStatus::Playing };
    let new = NewGame {
        id: id.clone(),
        ruleset: req.ruleset,
        options_json: serde_json::to_string(&req.options).map_err(|e| ApiError::internal(e.to_string()))?,
        start_json: serde_json::to_string(&stored).map_err(|e| ApiError::internal(e.to_string()))?,
        created_by: me.id.clone(),
        created_at: state.clock.now_ms(),
        public: req.public,
        seats,
    };
    match &bid {
        // No `seats` with a bid: every seat is open, kept for the bid.
        Some(bid) => state.store.create_game_with_bids(&new, clock, [&me.id, &bid.opponent.id], bid.rule.name()).await?,
        None => state.store.create_game_with_clock(&new, clock).await?,
    }
    if status == GameStatus::Playing {
        start(&state, &id).await?;
    }
    let row = state.store.game(&id).await?.ok_or_else(|| ApiError::internal("the game just created is gone"))?;
    Ok((StatusCode::CREATED, Json(json!({"game": game_json(&state, &row).await?}))).into_response())
}

/// Starts a game whose seats are all filled: the computer plays first if
/// it holds the first power.
pub(crate) async fn start(state: &AppState, id: &str) -> Result<(), ApiError> {
    state.store.set_status(id, GameStatus::Playing).await?;
    state.hub.reread(id).await?;
    let game = state.hub.game(id).await?;
    {
        let inner = game.inner.lock().await;
        let actor = inner.table.actor().map(|p| inner.power_name(p));
        state.store.set_actor(id, actor.as_deref()).await?;
        // The first wait of a correspondence game starts now.
        state.hub.follow_wait(id, &inner).await;
    }
    state.hub.kick(game);
    Ok(())
}

/// `GET /api/games?filter=open|mine`
pub async fn list(State(state): State<AppState>, who: MaybeAuthed, uri: axum::http::Uri) -> Result<Json<Value>, ApiError> {
    let Query(q) = Query::<ListQuery>::try_from_uri(&uri).map_err(|e| ApiError::bad_request("request/bad-field", e.body_text()))?;
    let rows = match (q.filter.as_deref().unwrap_or("open"), &who.0) {
        ("open", _) => state.store.open_games(100).await?,
        ("mine", Some(authed)) => state.store.games_of(&authed.account.id, 100).await?,
        ("mine", None) => return Err(ApiError::unauthorized("sign in to list your games")),
        (other, _) => return Err(ApiError::bad_request("request/bad-field", format!("`filter` is `open` or `mine`, not `{other}`"))),
    };
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut seats = state.store.seats_named(&ids).await?;
    let clocks = crate::correspondence::clock_infos(&state.store, &ids).await?;
    let bids = state.store.bids_of_games(&ids).await?;
    let games: Vec<Value> = rows
        .iter()
        .map(|row| game_value(row, seats.remove(&row.id).unwrap_or_default(), clocks.get(&row.id), bids.get(&row.id)))
        .collect();
    Ok(Json(json!({"games": games})))
}

/// `GET /api/games/{id}`
pub async fn show(State(state): State<AppState>, who: MaybeAuthed, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let row = visible(&state, &who, &id).await?;
    Ok(Json(json!({"game": game_json(&state, &row).await?})))
}

/// `POST /api/games/{id}/seats/{power}`: takes an open seat.
pub async fn take_seat(State(state): State<AppState>, authed: Authed, Path((id, power)): Path<(String, String)>) -> Result<Json<Value>, ApiError> {
    // A game's bid rows exist from its creation: no seat is taken before.
    if !state.store.bids(&id).await?.is_empty() {
        return Err(ApiError::conflict("bid/seats-by-bid", "the seats of this game go to its two bidders when their bids are revealed"));
    }
    state.store.take_seat(&id, &power, &authed.account.id).await.map_err(|e| seat_error(e, &power))?;
    let seats = state.store.seats(&id).await?;
    if seats.iter().any(|s| s.kind == SeatKind::Open) {
        // The game's connections read the new seat (a `resync` push).
        state.hub.reread(&id).await?;
    } else {
        start(&state, &id).await?;
    }
    let row = game_row(&state.store, &id).await?;
    Ok(Json(json!({"game": game_json(&state, &row).await?})))
}

/// `DELETE /api/games/{id}/seats/{power}`: leaves a seat before the game starts.
pub async fn leave_seat(State(state): State<AppState>, authed: Authed, Path((id, power)): Path<(String, String)>) -> Result<Json<Value>, ApiError> {
    state.store.leave_seat(&id, &power, &authed.account.id).await.map_err(|e| seat_error(e, &power))?;
    state.hub.reread(&id).await?;
    let row = game_row(&state.store, &id).await?;
    Ok(Json(json!({"game": game_json(&state, &row).await?})))
}

fn seat_error(e: StoreError, power: &str) -> ApiError {
    match e {
        StoreError::Conflict(_) => ApiError::conflict("game/seat-taken", format!("the seat of `{power}` is not open (taken, or the game has started)")),
        StoreError::NotFound => ApiError::not_found("game/unknown-seat", format!("there is no such game, or no seat `{power}` in it")),
        other => other.into(),
    }
}

/// `GET /api/games/{id}/record`: the game as a warboard save that `warboard
/// replay` reads. While the game runs its dice are given one by one, as
/// rolled (the seed stays on the server); once it is over, with its seed.
pub async fn record(State(state): State<AppState>, who: MaybeAuthed, Path(id): Path<String>) -> Result<Response, ApiError> {
    visible(&state, &who, &id).await?;
    let game = state.hub.game(&id).await?;
    let inner = game.inner.lock().await;
    let text = save_text(&inner)?;
    let disposition = format!("attachment; filename=\"warboard-{id}.json\"");
    Ok(([(CONTENT_TYPE, "application/json".to_string()), (CONTENT_DISPOSITION, disposition)], text).into_response())
}

/// `GET /api/games/{id}/positions/{n}`: the position after the game's first
/// `n` entries, for the replay viewer, with the story of those entries.
/// While a round's shopping is secret the replay stops where it began.
pub async fn position(State(state): State<AppState>, who: MaybeAuthed, Path((id, n)): Path<(String, String)>) -> Result<Json<Value>, ApiError> {
    let n: i64 = n.parse().map_err(|_| ApiError::bad_request("request/bad-field", format!("`{n}` is not an entry number")))?;
    visible(&state, &who, &id).await?;
    let game = state.hub.game(&id).await?;
    let (start, header, entries, count) = {
        let inner = game.inner.lock().await;
        let count = inner.count();
        let upto = n.clamp(0, inner.public_count()) as usize;
        let record = inner.table.record();
        let entries: Vec<warboard_record::Entry> = record.log()[..upto].to_vec();
        (record.start().clone(), record.proof_header().cloned(), entries, count)
    };
    let answer = tokio::task::spawn_blocking(move || -> Result<Value, ApiError> {
        let mut record = Record::new(start).map_err(|e| ApiError::internal(e.to_string()))?;
        if let Some(header) = header {
            record.attach_proof(header).map_err(|e| ApiError::internal(e.to_string()))?;
        }
        for entry in &entries {
            record.apply_recorded(entry, None).map_err(|e| ApiError::internal(e.to_string()))?;
        }
        let game = record.game();
        let story: Vec<Value> = warboard_table::narrate::story(&record)
            .lines
            .iter()
            .filter(|l| l.sealed.is_none())
            .map(crate::live::story_line)
            .collect();
        Ok(json!({
            "seq": entries.len(),
            "count": count,
            "position": warboard_protocol::position_json(&game.ruleset, &game.state),
            "story": story,
        }))
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(Json(answer))
}

/// `GET /api/games/{id}/income`: what each power was paid in each round,
/// for the income chart (`{"rounds":[{"round","income":{power: IPCs}}]}`);
/// while a round's shopping is secret it stops where the shopping began.
pub async fn income(State(state): State<AppState>, who: MaybeAuthed, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    visible(&state, &who, &id).await?;
    let game = state.hub.game(&id).await?;
    let inner = game.inner.lock().await;
    let record = inner.table.record();
    let upto = inner.public_count() as usize;
    let rs = &inner.table.game().ruleset;
    let rounds: Vec<Value> = warboard_table::history::income_by_round(&record.log()[..upto])
        .iter()
        .map(|r| {
            let paid: serde_json::Map<String, Value> = r.paid.iter().map(|(p, n)| (rs.power(*p).id.clone(), json!(n))).collect();
            json!({"round": r.round, "income": paid})
        })
        .collect();
    Ok(Json(json!({ "rounds": rounds })))
}

fn save_text(inner: &Inner) -> Result<String, ApiError> {
    let record = inner.table.record();
    if record.proven() {
        // The chain holds the seed's commitment, never the seed: the save is
        // the proof as it stands, its dice checkable once the seed is out.
        return match (inner.status, inner.host_seed()) {
            (GameStatus::Over, Some(seed)) => {
                let mut revealed = record.clone();
                revealed.reveal_seed(*seed).map_err(|e| ApiError::internal(format!("the game does not verify with its own seed: {e}")))?;
                Ok(revealed.to_save_string())
            }
            _ => Ok(record.to_save_string()),
        };
    }
    if inner.status == GameStatus::Over {
        return Ok(record.to_save_string());
    }
    let mut start = record.start().clone();
    start.dice = DiceMode::Client;
    let mut open = Record::new(start).map_err(|e| ApiError::internal(e.to_string()))?;
    for entry in record.log() {
        open.supply_dice(&entry.dice).map_err(ApiError::internal)?;
        open.apply(&entry.action.value(), entry.by).map_err(|e| ApiError::internal(e.to_string()))?;
    }
    Ok(open.to_save_string())
}

/// The game, if `who` may see it: public games to anyone, the others to
/// their players.
pub(crate) async fn visible(state: &AppState, who: &MaybeAuthed, id: &str) -> Result<GameRow, ApiError> {
    let row = game_row(&state.store, id).await?;
    if row.public {
        return Ok(row);
    }
    let me = who.0.as_ref().map(|a| a.account.id.clone());
    let seats = state.store.seats(id).await?;
    let mut plays = me.as_ref().is_some_and(|me| *me == row.created_by || seats.iter().any(|s| s.account_id.as_ref() == Some(me)));
    // A bidder holds no seat before the bid settles.
    if let (Some(me), false) = (&me, plays) {
        plays = state.store.bids(id).await?.iter().any(|b| b.account_id == *me);
    }
    // A player whose seats the computer holds for it (src/correspondence.rs)
    // must still find the game to reclaim them.
    let away = match &me {
        Some(me) if !plays => state.store.takeovers(std::slice::from_ref(&row.id)).await?.values().flatten().any(|t| t.account_id == *me),
        _ => false,
    };
    if plays || away {
        Ok(row)
    } else {
        Err(ApiError::unknown_game(id))
    }
}

/// The game's row; `game/unknown` where there is none.
pub(crate) async fn game_row(store: &crate::store::Store, id: &str) -> Result<GameRow, ApiError> {
    store.game(id).await?.ok_or_else(|| ApiError::unknown_game(id))
}

pub async fn game_json(state: &AppState, row: &GameRow) -> Result<Value, ApiError> {
    let ids = std::slice::from_ref(&row.id);
    let seats = state.store.seats_named(ids).await?.remove(&row.id).unwrap_or_default();
    let clock = crate::correspondence::clock_infos(&state.store, ids).await?.remove(&row.id);
    let bids = state.store.bids(&row.id).await?;
    Ok(game_value(row, seats, clock.as_ref(), Some(&bids).filter(|b| !b.is_empty())))
}

/// How the game's dice are made: `seeded`, or `server` with the chain's
/// game id and the seed's commitment, and the seed itself once the game is
/// over (docs/pbem.md, "The server's games").
fn dice_json(row: &GameRow) -> Value {
    let proof = serde_json::from_str::<StoredStart>(&row.start_json).ok().and_then(|s| s.proof);
    let Some(proof) = proof else { return json!({"mode": "seeded"}) };
    let game_id = warboard_proof::bytes::to_hex(&proof.header.game_id);
    match &proof.header.dice {
        warboard_proof::DiceMode::Server { commitment } => {
            let mut dice = json!({"mode": "server", "game_id": game_id, "commitment": warboard_proof::bytes::to_hex(commitment)});
            if row.status == GameStatus::Over {
                dice["seed"] = json!(proof.seed);
            }
            dice
        }
        warboard_proof::DiceMode::Beacon { chain } => json!({"mode": "beacon", "game_id": game_id, "beacon": chain}),
    }
}

/// A game as the lobby describes it, from its row, its seats with the
/// names of the accounts holding them, its clock where it has one, and its
/// bidders where its sides are bid for (the round itself: `GET …/bid`).
fn game_value(
    row: &GameRow,
    named: Vec<(crate::store::SeatRow, Option<String>)>,
    clock: Option<&ClockInfo>,
    bids: Option<&Vec<BidRow>>,
) -> Value {
    let mut seats = Vec::new();
    for (s, holder) in &named {
        let kind = match s.kind {
            SeatKind::Open => "open",
            SeatKind::Account => "account",
            SeatKind::Computer => "computer",
        };
        let mut seat = json!({"power": s.power, "kind": kind, "account": holder, "think": s.think_ms});
        if let Some(deadline) = clock.and_then(|c| c.deadline_of(&s.power)) {
            seat["deadline_ms"] = json!(deadline);
        }
        if let Some(from) = clock.and_then(|c| c.taken_from(&s.power)) {
            seat["taken_from"] = json!(from);
        }
        seats.push(seat);
    }
    let clock = clock.map(|c| c.json(&named));
    let status = match row.status {
        GameStatus::Open => "open",
        GameStatus::Playing => "playing",
        GameStatus::Over => "over",
    };
    let options: Value = serde_json::from_str(&row.options_json).unwrap_or(Value::Null);
    json!({
        "id": row.id,
        "ruleset": row.ruleset,
        "options": options,
        "public": row.public,
        "status": status,
        "seq": row.seq,
        "actor": row.actor,
        "winner": row.winner,
        "created_at": row.created_at,
        "seats": seats,
        "clock": clock,
        "dice": dice_json(row),
        "bid": bids.map(|b| bid_json(b)),
    })
}

/// A bidding game's rule and bidders, by name, for game lists.
fn bid_json(bids: &[BidRow]) -> Value {
    let bidders: Vec<&str> = bids.iter().map(|b| b.name.as_str()).collect();
    json!({"rule": bids.first().map(|b| b.rule.as_str()), "bidders": bidders})
}
