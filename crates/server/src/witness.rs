//! The club's witness for games played by e-mail (issue 31, docs/pbem.md,
//! "The witness"): it receipts each entry of a registered game before the
//! beacon round the entry names is published, and never receipts a second
//! entry for a number. That is what makes a turn file's dice fair: once a
//! round is out, its player cannot have another action with other dice
//! receipted in the entry's place.
//!
//! - `GET  /api/witness`: the witness's key, its beacon, the rounds it allows ahead;
//! - `POST /api/witness/games`: register a game's header (it must name this key and beacon);
//! - `POST /api/witness/games/{id}/entries`: a signed entry in, its receipt out;
//! - `GET  /api/witness/games/{id}/receipts?from=N`: the receipts given, for seats to collect;
//! - `GET  /api/beacon/rounds/{round}`: a published round's signature (drand's, fetched and
//!   checked; or the test beacon's).

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use warboard_proof::bytes::{from_hex_n, to_hex};
use warboard_proof::{check_round_ahead, check_seat, link_hash, seat_keys, Beacon, DiceMode, Drand, Header, ProofError, Receipt, SignedEntry, SigningKey, TestBeacon, Verifier, MAX_ROUNDS_AHEAD};

use crate::app::{AppState, StrictJson};
use crate::error::ApiError;
use crate::clock::Clock;
use crate::store::{Store, WitnessHead};

/// Where drand's rounds are fetched from (its public API; any relay that
/// answers `/{chain hash}/public/{round}` does: every round is checked
/// against the chain's key before it is passed on).
pub const DRAND_URL: &str = "https://api.drand.sh";

/// Which beacon the witness names rounds of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BeaconConfig {
    /// drand's quicknet (real games), its rounds fetched from [`DRAND_URL`].
    #[default]
    Quicknet,
    /// drand's quicknet, its rounds fetched from another relay.
    QuicknetFrom { url: String },
    /// A local test beacon: its secret key, genesis (unix seconds) and period.
    /// The server publishes its rounds itself. Tests only.
    Test { secret: [u8; 32], genesis: u64, period: u64 },
}

pub struct Witness {
    beacon: Arc<dyn Beacon>,
    rounds: Rounds,
    key: tokio::sync::OnceCell<SigningKey>,
}

/// Where a published round's signature comes from.
enum Rounds {
    /// The test beacon's signer, which publishes its rounds here.
    Local(Arc<TestBeacon>),
    /// drand, over HTTP(S) from this base address.
    Relay(String),
}

impl Witness {
    pub fn new(config: &BeaconConfig) -> Witness {
        let (beacon, rounds): (Arc<dyn Beacon>, Rounds) = match config {
            BeaconConfig::Quicknet => (Arc::new(Drand::quicknet()), Rounds::Relay(DRAND_URL.to_string())),
            BeaconConfig::QuicknetFrom { url } => (Arc::new(Drand::quicknet()), Rounds::Relay(url.trim_end_matches('/').to_string())),
            BeaconConfig::Test { secret, genesis, period } => {
                let test = Arc::new(TestBeacon::new(*secret, *genesis, *period));
                (test.clone(), Rounds::Local(test))
            }
        };
        Witness { beacon, rounds, key: tokio::sync::OnceCell::new() }
    }

    /// The server's signing key ([`crate::proven::server_key`]): the
    /// witness's receipts and the server's own games'; read once.
    pub async fn key(&self, store: &Store, clock: &dyn Clock) -> Result<&SigningKey, ApiError> {
        self.key.get_or_try_init(|| crate::proven::server_key(store, clock)).await
    }
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/witness", get(about))
        .route("/api/witness/games", post(register))
        .route("/api/witness/games/{id}/entries", post(receipt))
        .route("/api/witness/games/{id}/receipts", get(receipts))
        .route("/api/beacon/rounds/{round}", get(round))
}

fn proof_error(status: StatusCode, e: ProofError) -> ApiError {
    ApiError::new(status, e.code(), e.to_string())
}

fn now_ms(state: &AppState) -> u64 {
    u64::try_from(state.clock.now_ms()).unwrap_or(0)
}

async fn about(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let key = state.witness.key(&state.store, state.clock.as_ref()).await?;
    Ok(Json(json!({
        "server_key": to_hex(&key.verifying_key().to_bytes()),
        "beacon": state.witness.beacon.info(),
        "max_rounds_ahead": MAX_ROUNDS_AHEAD,
        "now_ms": now_ms(&state),
    })))
}

async fn register(State(state): State<AppState>, StrictJson(header): StrictJson<Header>) -> Result<Json<Value>, ApiError> {
    let key = state.witness.key(&state.store, state.clock.as_ref()).await?;
    if header.server_key != key.verifying_key().to_bytes() {
        return Err(ApiError::bad_request("witness/not-our-key", "the header names another server key than this witness's (GET /api/witness)"));
    }
    match &header.dice {
        DiceMode::Beacon { chain } if chain == state.witness.beacon.info() => {}
        _ => return Err(ApiError::bad_request("witness/other-beacon", "the header's dice must come from this witness's beacon (GET /api/witness)")),
    }
    Verifier::new(&header, &[], None).map_err(|e| proof_error(StatusCode::BAD_REQUEST, e))?;
    let id = to_hex(&header.game_id);
    let text = serde_json::to_string(&header).map_err(|e| ApiError::internal(e.to_string()))?;
    if !state.store.add_witness_game(&id, &text, state.clock.now_ms()).await? {
        // Registering the same header again is a retry, not a conflict.
        let known = state.store.witness_game(&id).await?;
        if known.as_deref() != Some(text.as_str()) {
            return Err(ApiError::conflict("witness/game-exists", "a game with this id is witnessed already, with another header"));
        }
    }
    Ok(Json(json!({"game_id": id, "header_hash": to_hex(&header.hash())})))
}

async fn game_header(state: &AppState, id: &str) -> Result<Header, ApiError> {
    let text = state.store.witness_game(id).await?.ok_or_else(|| ApiError::not_found("witness/unknown-game", "this witness does not know the game: register its header first"))?;
    serde_json::from_str(&text).map_err(|e| ApiError::internal(format!("a stored header does not read: {e}")))
}

async fn receipt(State(state): State<AppState>, Path(id): Path<String>, StrictJson(signed): StrictJson<SignedEntry>) -> Result<Json<Value>, ApiError> {
    let header = game_header(&state, &id).await?;
    let key = state.witness.key(&state.store, state.clock.as_ref()).await?;
    let entry = &signed.entry;
    let entry_hash = check_seat(&seat_keys(&header).map_err(|e| proof_error(StatusCode::BAD_REQUEST, e))?, &header.game_id, &signed)
        .map_err(|e| proof_error(StatusCode::BAD_REQUEST, e))?;
    let n = i64::try_from(entry.n).map_err(|_| ApiError::bad_request("record/out-of-order", "an entry number past any game's end"))?;
    let head = state.store.witness_head(&id).await?;
    let (next_n, prev, last_time) = match &head {
        Some(h) => (h.n + 1, from_hex_n::<32>(&h.next_prev).map_err(ApiError::internal)?, u64::try_from(h.server_time).unwrap_or(0)),
        None => (0, header.hash(), 0),
    };
    if n < next_n {
        return answer_again(&state, &id, n, &entry_hash).await;
    }
    if n > next_n {
        return Err(ApiError::conflict("record/out-of-order", format!("entry {n} comes after entry {next_n}, which this witness has not receipted")));
    }
    if entry.prev != prev {
        return Err(proof_error(StatusCode::CONFLICT, ProofError::ChainBroken { n: entry.n }));
    }
    // Receipt times never go back, even if clocks of a cluster differ.
    let now = now_ms(&state).max(last_time);
    if let Some(round) = entry.beacon_round {
        check_round_ahead(state.witness.beacon.as_ref(), entry.n, round, now).map_err(|e| proof_error(StatusCode::BAD_REQUEST, e))?;
    }
    let signed_receipt = Receipt::for_entry(&header.game_id, entry, now).sign(&header.game_id, key);
    let next = WitnessHead { n, next_prev: to_hex(&link_hash(&header.game_id, entry, &signed_receipt.receipt)), server_time: now as i64 };
    let text = serde_json::to_string(&signed_receipt).map_err(|e| ApiError::internal(e.to_string()))?;
    if !state.store.add_witness_receipt(&id, &next, &to_hex(&entry_hash), &text).await? {
        // Another request for this number was first.
        return answer_again(&state, &id, n, &entry_hash).await;
    }
    Ok(Json(serde_json::to_value(&signed_receipt).map_err(|e| ApiError::internal(e.to_string()))?))
}

/// A number receipted already: the same entry gets its receipt again (a
/// retry); another entry is refused, with the receipt that stands.
async fn answer_again(state: &AppState, id: &str, n: i64, entry_hash: &[u8; 32]) -> Result<Json<Value>, ApiError> {
    let stored = state.store.witness_receipt(id, n).await?.ok_or_else(|| ApiError::internal("a receipted number without its receipt"))?;
    let receipt: Value = serde_json::from_str(&stored.receipt_json).map_err(|e| ApiError::internal(e.to_string()))?;
    if stored.entry_hash == to_hex(entry_hash) {
        return Ok(Json(receipt));
    }
    let mut error = ApiError::conflict(
        "witness/already-receipted",
        format!("entry {n} of this game was receipted with another action: an entry, once receipted, is never replaced"),
    );
    error.args = Some(serde_json::Map::from_iter([("receipt".to_string(), receipt)]));
    Err(error)
}

#[derive(Deserialize)]
struct From {
    #[serde(default)]
    from: i64,
}

async fn receipts(State(state): State<AppState>, Path(id): Path<String>, Query(q): Query<From>) -> Result<Json<Value>, ApiError> {
    game_header(&state, &id).await?;
    let texts = state.store.witness_receipts(&id, q.from.max(0), 1000).await?;
    let receipts: Vec<Value> = texts.iter().map(|t| serde_json::from_str(t)).collect::<Result<_, _>>().map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(Json(json!({"receipts": receipts})))
}

async fn round(State(state): State<AppState>, Path(round): Path<u64>) -> Result<Json<Value>, ApiError> {
    let witness = state.witness.clone();
    let now = now_ms(&state);
    let signature = tokio::task::spawn_blocking(move || witness.published_round(round, now)).await.map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(Json(json!({"round": round, "signature": to_hex(&signature)})))
}

impl Witness {
    /// The beacon this server names rounds of.
    pub fn beacon(&self) -> Arc<dyn Beacon> {
        self.beacon.clone()
    }

    /// A round's signature once it is published at `now_ms` (`beacon/not-yet`
    /// before, with `args.retry_after_ms`): the test beacon's, signed here;
    /// drand's, fetched (blocking: call it off the async threads) and
    /// checked against the chain's key, never passed on unchecked.
    pub fn published_round(&self, round: u64, now_ms: u64) -> Result<Vec<u8>, ApiError> {
        let beacon = &self.beacon;
        if round == 0 || beacon.round_at(now_ms / 1000) < round {
            let wait = (beacon.time_of(round) * 1000).saturating_sub(now_ms);
            let mut error = ApiError::new(StatusCode::TOO_EARLY, "beacon/not-yet", format!("round {round} is published in {wait} ms"));
            error.args = Some(serde_json::Map::from_iter([("retry_after_ms".to_string(), json!(wait))]));
            return Err(error);
        }
        match &self.rounds {
            Rounds::Local(publisher) => publisher.sign(round).ok_or_else(|| ApiError::internal("the test beacon cannot sign")),
            Rounds::Relay(base) => {
                let url = format!("{base}/{}/public/{round}", to_hex(&beacon.info().chain_hash));
                let signature = fetch_round(&url, round)?;
                beacon.verify(round, &signature).map_err(|e| ApiError::new(StatusCode::BAD_GATEWAY, "beacon/bad-round", e.to_string()))?;
                Ok(signature)
            }
        }
    }
}

/// A round's signature from drand's HTTP API (`{"round": R, "signature": "hex", …}`).
fn fetch_round(url: &str, round: u64) -> Result<Vec<u8>, ApiError> {
    let unreachable = |e: String| ApiError::new(StatusCode::BAD_GATEWAY, "beacon/unreachable", format!("{url}: {e}"));
    let agent: ureq::Agent = ureq::Agent::config_builder().timeout_global(Some(std::time::Duration::from_secs(10))).build().into();
    let mut answer = agent.get(url).call().map_err(|e| unreachable(e.to_string()))?;
    let text = answer.body_mut().with_config().limit(64 << 10).read_to_string().map_err(|e| unreachable(e.to_string()))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| unreachable(format!("not JSON: {e}")))?;
    let bad = |why: &str| ApiError::new(StatusCode::BAD_GATEWAY, "beacon/bad-round", format!("{url}: {why}"));
    if value["round"].as_u64() != Some(round) {
        return Err(bad("the answer is for another round"));
    }
    value["signature"].as_str().and_then(|s| warboard_proof::bytes::from_hex(s).ok()).ok_or_else(|| bad("no signature in hex"))
}
