//! Sealed bids for sides on the server (issue 32, point 4; docs/ladder.md,
//! "Sealed bids"). A game created with `"bid": {"opponent", "rule"}` waits,
//! its seats open but kept for the bid, while its two players each seal a
//! commitment and then reveal the bid that opens it; the commit–reveal
//! round itself is `warboard_ladder::bids`, rebuilt from the stored rows for
//! every request. When both are revealed the rule gives the sides, the
//! Axis's bid goes into the bank of the Axis power that moves first, and the
//! game starts with that start (a proven game's header bound to it).
//!
//! - `POST /api/games/{id}/bid` `{"commitment"}`: seals the caller's bid;
//! - `POST /api/games/{id}/bid/reveal` `{"ipcs", "nonce"}`: reveals it;
//! - `GET  /api/games/{id}/bid`: the round as it stands.
//!
//! The round's changes are not pushed over the game's WebSocket: a client
//! polls `GET …/bid`; the game's start is pushed (`resync`) as any start is.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use warboard_ladder::bids::{BidError, BidRound, Sides};
use warboard_proof::bytes::{from_hex_n, to_hex};
use warboard_record::Record;
use warboard_rules::Side;

use crate::app::{AppState, StrictJson};
use crate::auth::{Authed, MaybeAuthed};
use crate::error::ApiError;
use crate::live::StoredStart;
use crate::store::{Account, BidLock, BidRow, Store};

/// The largest bid: far above any bid played, small enough that a bank
/// raised by it stays a plain number.
pub const MAX_BID_IPCS: u32 = 1000;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{id}/bid", get(show).post(seal)).route("/api/games/{id}/bid/reveal", post(reveal))
}

/// How the two bids decide the sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BidRule {
    /// DAAK's: the lower bid plays the Axis and gets its bid.
    LowerAxis,
}

impl BidRule {
    pub fn name(self) -> &'static str {
        match self {
            BidRule::LowerAxis => "lower-axis",
        }
    }

    fn parse(name: &str) -> Option<BidRule> {
        [BidRule::LowerAxis].into_iter().find(|r| r.name() == name)
    }
}

/// `POST /api/games`'s `bid`: the creator bids against `opponent`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BidSpec {
    opponent: String,
    rule: String,
}

/// A new game's bid, checked: its rule and the opponent's account.
pub struct NewBid {
    pub rule: BidRule,
    pub opponent: Account,
}

/// Checks a new game's bid against its creator and its start: a known
/// rule, an opponent who is another account and not banned, and a ruleset
/// whose powers form exactly two teams, the Axis and the Allies.
pub(crate) async fn check_new(store: &Store, creator: &Account, spec: &BidSpec, record: &Record) -> Result<NewBid, ApiError> {
    let rule = BidRule::parse(&spec.rule)
        .ok_or_else(|| ApiError::bad_request("bid/unknown-rule", format!("there is no bid rule `{}` (rules: lower-axis)", spec.rule)))?;
    if !two_sides(record) {
        return Err(ApiError::bad_request(
            "bid/not-two-sides",
            "a bid decides who plays the Axis and who the Allies: this game's powers are not exactly those two teams",
        ));
    }
    let opponent = store
        .account_by_name(&spec.opponent)
        .await?
        .ok_or_else(|| ApiError::bad_request("auth/unknown-account", format!("there is no account `{}`", spec.opponent)))?;
    if opponent.banned {
        return Err(ApiError::bad_request("auth/account-banned", format!("the account `{}` is banned and cannot play", opponent.name)));
    }
    if opponent.id == creator.id {
        return Err(ApiError::bad_request("bid/own-opponent", "a bid is against another player: name someone else as `opponent`"));
    }
    Ok(NewBid { rule, opponent })
}

/// Whether the game's teams are the ruleset's two sides, every power on its own.
fn two_sides(record: &Record) -> bool {
    let game = record.game();
    let teams = &game.state.teams;
    let names: Vec<&str> = teams.names.iter().map(String::as_str).collect();
    names == [Side::Axis.name(), Side::Allies.name()]
        && game.ruleset.power_ids().all(|p| teams.team_of(p) == Some(game.ruleset.power(p).side.name()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SealRequest {
    commitment: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RevealRequest {
    /// Read as any JSON value, so that a negative, fractional or huge
    /// number gets the bid's own code.
    ipcs: Value,
    nonce: String,
}

/// `GET /api/games/{id}/bid`
async fn show(State(state): State<AppState>, who: MaybeAuthed, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    crate::lobby::visible(&state, &who, &id).await?;
    let rows = state.store.bids(&id).await?;
    if rows.is_empty() {
        return Err(no_bid(&id));
    }
    Ok(Json(json!({"bid": round_json(&id, &rows)?})))
}

/// `POST /api/games/{id}/bid`: seals the caller's bid (again, until either
/// bid is revealed: nobody has seen anything yet).
async fn seal(
    State(state): State<AppState>,
    authed: Authed,
    Path(id): Path<String>,
    StrictJson(req): StrictJson<SealRequest>,
) -> Result<Json<Value>, ApiError> {
    let commitment = hex32(&req.commitment, "bid/bad-commitment", "`commitment`")?;
    let (mut lock, rows) = locked(&state, authed, &id).await?;
    let me = &lock.me;
    round_of(&id, &rows)?.seal(&me.name, commitment).map_err(refused)?;
    lock.bids.seal(&me.id, &to_hex(&commitment), state.clock.now_ms()).await?;
    lock.bids.commit().await?;
    answer(&state, &id).await
}

/// `POST /api/games/{id}/bid/reveal`: reveals the caller's bid; the reveal
/// that completes the round settles it and starts the game.
async fn reveal(
    State(state): State<AppState>,
    authed: Authed,
    Path(id): Path<String>,
    StrictJson(req): StrictJson<RevealRequest>,
) -> Result<Json<Value>, ApiError> {
    let ipcs = bid_ipcs(&req.ipcs)?;
    let nonce = hex32(&req.nonce, "bid/bad-nonce", "`nonce`")?;
    let (mut lock, rows) = locked(&state, authed, &id).await?;
    let mut round = round_of(&id, &rows)?;
    round.reveal(&lock.me.name, ipcs, &nonce).map_err(refused)?;
    lock.bids.reveal(&lock.me.id, i64::from(ipcs), &to_hex(&nonce), state.clock.now_ms()).await?;
    let settled = round.sides();
    if let Some(sides) = &settled {
        settle(&state.store, &id, &mut lock.bids, sides, &rows).await?;
    }
    lock.bids.commit().await?;
    if settled.is_some() {
        crate::lobby::start(&state, &id).await?;
    }
    answer(&state, &id).await
}

/// The caller and the game's bid rows, locked for a change.
struct Locked {
    me: Account,
    bids: BidLock,
}

async fn locked(state: &AppState, authed: Authed, id: &str) -> Result<(Locked, Vec<BidRow>), ApiError> {
    let who = MaybeAuthed(Some(authed));
    crate::lobby::visible(state, &who, id).await?;
    let me = who.0.map(|a| a.account).ok_or_else(|| ApiError::unauthorized("sign in to bid"))?;
    let (bids, rows) = state.store.lock_bids(id).await?.ok_or_else(|| no_bid(id))?;
    Ok((Locked { me, bids }, rows))
}

/// The round and the game, as both POST routes answer.
async fn answer(state: &AppState, id: &str) -> Result<Json<Value>, ApiError> {
    let rows = state.store.bids(id).await?;
    let row = crate::lobby::game_row(&state.store, id).await?;
    Ok(Json(json!({"bid": round_json(id, &rows)?, "game": crate::lobby::game_json(state, &row).await?})))
}

/// Writes the settled round's game into the caller's lock: its start with
/// the Axis's bid in the first Axis power's bank, and each power's seat
/// given to the bidder playing its side.
async fn settle(store: &Store, id: &str, bids: &mut BidLock, sides: &Sides, rows: &[BidRow]) -> Result<(), ApiError> {
    let row = crate::lobby::game_row(store, id).await?;
    let mut stored: StoredStart =
        serde_json::from_str(&row.start_json).map_err(|e| ApiError::internal(format!("the game's start does not read: {e}")))?;
    let record = with_bid(&mut stored, sides.axis_ipcs)?;
    let account_of = |name: &str| rows.iter().find(|r| r.name == name).map(|r| r.account_id.clone());
    let (axis, allies) = (account_of(&sides.axis), account_of(&sides.allies));
    let (Some(axis), Some(allies)) = (axis, allies) else { return Err(ApiError::internal("the round's sides are not its bidders")) };
    let rs = &record.game().ruleset;
    let seats: Vec<(String, String)> = rs
        .power_ids()
        .map(|p| (rs.power(p).id.clone(), if rs.power(p).side == Side::Axis { axis.clone() } else { allies.clone() }))
        .collect();
    let start_json = serde_json::to_string(&stored).map_err(|e| ApiError::internal(e.to_string()))?;
    bids.settle(&start_json, &seats).await?;
    Ok(())
}

/// Adds `ipcs` to the bank of the Axis power that moves first (it spends
/// them in its first purchase and places what it buys by the ruleset's
/// placement rules), as the start's `state.ipcs`; a proven game's header
/// is bound to the new start. The new start's record.
fn with_bid(stored: &mut StoredStart, ipcs: u32) -> Result<Record, ApiError> {
    let standard = Record::new(stored.start()).map_err(|e| ApiError::internal(e.to_string()))?;
    let (power, bank) = first_axis_bank(&standard).ok_or_else(|| ApiError::internal("the game has no Axis power to take the bid"))?;
    let mut state = stored.position.state.take().unwrap_or_else(|| json!({}));
    let object = state.as_object_mut().ok_or_else(|| ApiError::internal("the game's start state is not an object"))?;
    let banks = object.entry("ipcs").or_insert_with(|| json!({}));
    let banks = banks.as_object_mut().ok_or_else(|| ApiError::internal("the game's start `ipcs` is not an object"))?;
    banks.insert(power, json!(i64::from(bank) + i64::from(ipcs)));
    stored.position.state = Some(state);
    let record = Record::new(stored.start()).map_err(|e| ApiError::internal(format!("the start with the bid does not build: {e}")))?;
    if let Some(proof) = &mut stored.proof {
        proof.rebind(&record)?;
    }
    Ok(record)
}

/// The Axis power first in the round's order, and its bank at the start.
fn first_axis_bank(record: &Record) -> Option<(String, i32)> {
    let game = record.game();
    let first = game.state.order.iter().copied().find(|p| game.ruleset.power(*p).side == Side::Axis)?;
    Some((game.ruleset.power(first).id.clone(), game.state.ipcs[first.index()]))
}

/// The IPCs the Axis got from the game's bid, once settled (`None`: the
/// game has no bid, or it is not settled); kept with its rated result.
pub(crate) async fn settled_bid(store: &Store, game_id: &str) -> Result<Option<u32>, ApiError> {
    let rows = store.bids(game_id).await?;
    if rows.is_empty() {
        return Ok(None);
    }
    Ok(round_of(game_id, &rows)?.sides().map(|s| s.axis_ipcs))
}

/// The round as the stored rows have it, replayed through
/// `warboard_ladder::bids` (seals first: every reveal came after both).
fn round_of(game_id: &str, rows: &[BidRow]) -> Result<BidRound, ApiError> {
    let [a, b] = rows else { return Err(ApiError::internal(format!("the bid of game {game_id} has {} bidders", rows.len()))) };
    let mut round = BidRound::new(game_id, [a.name.as_str(), b.name.as_str()]);
    let damaged = |e: BidError| ApiError::internal(format!("the stored bid of game {game_id} does not replay: {e}"));
    for r in rows {
        if let Some(c) = &r.commitment {
            round.seal(&r.name, stored_hex(c)?).map_err(damaged)?;
        }
    }
    for r in rows {
        if let (Some(ipcs), Some(nonce)) = (r.ipcs, &r.nonce) {
            let ipcs = u32::try_from(ipcs).map_err(|_| ApiError::internal(format!("a stored bid of {ipcs} IPCs")))?;
            round.reveal(&r.name, ipcs, &stored_hex(nonce)?).map_err(damaged)?;
        }
    }
    Ok(round)
}

/// The round for clients: each bidder's commitment once sealed and bid once
/// revealed (never before: the server does not know it), and the sides
/// once both are revealed.
fn round_json(game_id: &str, rows: &[BidRow]) -> Result<Value, ApiError> {
    let round = round_of(game_id, rows)?;
    let sealed = rows.iter().all(|r| r.commitment.is_some());
    let sides = round.sides();
    let stage = match (&sides, sealed) {
        (Some(_), _) => "settled",
        (None, true) => "revealing",
        (None, false) => "sealing",
    };
    let bidders: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "account": r.name, "commitment": r.commitment, "sealed_at": r.sealed_at,
                "ipcs": r.ipcs, "nonce": r.nonce, "revealed_at": r.revealed_at,
            })
        })
        .collect();
    let settled = sides.map(|s| {
        let tie = rows.iter().all(|r| r.ipcs == Some(i64::from(s.axis_ipcs)));
        json!({"axis": s.axis, "allies": s.allies, "ipcs": s.axis_ipcs, "tie": tie})
    });
    let rule = rows.first().map(|r| r.rule.clone());
    Ok(json!({"rule": rule, "stage": stage, "bidders": bidders, "settled": settled}))
}

/// A bid's IPCs: a whole number from 0 to [`MAX_BID_IPCS`].
fn bid_ipcs(value: &Value) -> Result<u32, ApiError> {
    value.as_u64().filter(|n| *n <= u64::from(MAX_BID_IPCS)).map(|n| n as u32).ok_or_else(|| {
        ApiError::bad_request("bid/bad-ipcs", format!("a bid is a whole number of IPCs from 0 to {MAX_BID_IPCS}, not {value}"))
    })
}

/// 32 bytes from 64 hex digits (either case), or `code`.
fn hex32(text: &str, code: &str, what: &str) -> Result<[u8; 32], ApiError> {
    from_hex_n::<32>(text).map_err(|e| ApiError::bad_request(code, format!("{what} is 64 hex digits (32 bytes): {e}")))
}

fn stored_hex(text: &str) -> Result<[u8; 32], ApiError> {
    from_hex_n::<32>(text).map_err(|e| ApiError::internal(format!("a stored commitment or nonce does not read: {e}")))
}

fn no_bid(id: &str) -> ApiError {
    ApiError::not_found("bid/no-bid", format!("the game `{id}` was not created with a bid"))
}

/// A refusal of the round in the server's words: the crate's codes.
fn refused(e: BidError) -> ApiError {
    let status = match e {
        BidError::NotABidder(_) => StatusCode::FORBIDDEN,
        BidError::CommitmentMismatch(_) => StatusCode::UNPROCESSABLE_ENTITY,
        BidError::AfterReveal(_) | BidError::NotSealed | BidError::RevealedTwice(_) => StatusCode::CONFLICT,
    };
    let message = e.to_string();
    // The crate's message begins with its code; the sentence is the rest.
    let sentence = message.split_once(": ").map_or(message.as_str(), |(_, s)| s);
    ApiError::new(status, e.code(), sentence)
}
