//! The server's own games with proven dice (issue 31, points 4 and 5;
//! docs/pbem.md, "The server's games"): a game created with `"dice":
//! "server"` draws a 32-byte seed from the operating system, commits to
//! its SHA-256 in the chain's header (shown to everyone from the start),
//! and reveals the seed when the game ends. Every entry is a link of the
//! chain, receipted with the server's key; its dice come from the seed and
//! the entry's hash, so once the seed is out anyone checks every die
//! (`warboard verify`).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use warboard_proof::bytes::{from_hex_n, to_hex};
use warboard_proof::{DiceMode as ProofDice, Header, Link, Receipt, SeatKey, ServerSeed, SigningKey};
use warboard_record::{ApplyError, Record, TableEntry, TABLE_SEAT};
use warboard_rules::PowerId;

use crate::clock::Clock;
use crate::error::ApiError;
use crate::store::Store;

/// How a new game's dice are made (`POST /api/games`, `dice`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceChoice {
    /// The host's secret seed, no proof (undo within a turn allowed).
    #[default]
    Seeded,
    /// The host's seed committed at the start and revealed at the end.
    Server,
    /// A public beacon's rounds, each named by the entry before it is
    /// published (drand quicknet; the witness's beacon).
    Beacon,
}

/// What a proven game keeps beside its start: the chain's header and the
/// seed, secret until the game ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredProof {
    pub header: Header,
    /// Hex; never sent to a client while the game runs. None in beacon mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

impl StoredProof {
    /// A new proven game's header and seed: one seat a power, named by it
    /// (the server's seats hold no keys yet: the server's receipts are the
    /// proof of order), the game id from the server's own id.
    pub fn new(record: &Record, game_id: &str, server_key: &SigningKey, dice: Dice) -> Result<StoredProof, ApiError> {
        let game_id: [u8; 16] = from_hex_n(game_id).map_err(|e| ApiError::internal(format!("a game id that is not 16 bytes of hex: {e}")))?;
        let (ruleset, start_state_hash) = record.proof_binding().map_err(|e| ApiError::bad_request(e.code(), e.to_string()))?;
        // One seat a power, and the table's, which makes the clock's notes
        // (src/correspondence.rs).
        let powers = record.game().ruleset.powers.iter().map(|p| p.id.clone());
        let seats = powers.chain([TABLE_SEAT.to_string()]).map(|seat| SeatKey { seat, key: None }).collect();
        let (dice, seed) = match dice {
            Dice::Seed(seed) => (ProofDice::Server { commitment: seed.commitment() }, Some(to_hex(&seed.reveal()))),
            Dice::Beacon(chain) => (ProofDice::Beacon { chain }, None),
        };
        let header = Header { game_id, ruleset, start_state_hash, seats, server_key: server_key.verifying_key().to_bytes(), dice };
        Ok(StoredProof { header, seed })
    }

    /// Binds the header to the start the game finally has: a bidding game's
    /// start changes when its bid settles (src/bids.rs), before any entry.
    /// The seed, its commitment and the seats stay as they were.
    pub fn rebind(&mut self, record: &Record) -> Result<(), ApiError> {
        let (ruleset, start_state_hash) = record.proof_binding().map_err(|e| ApiError::bad_request(e.code(), e.to_string()))?;
        self.header.ruleset = ruleset;
        self.header.start_state_hash = start_state_hash;
        Ok(())
    }

    /// The server mode's seed (None in beacon mode).
    pub fn seed(&self) -> Result<Option<[u8; 32]>, ApiError> {
        self.seed.as_deref().map(|s| from_hex_n(s).map_err(|e| ApiError::internal(format!("a stored seed that does not read: {e}")))).transpose()
    }
}

/// Where a new proven game's dice come from.
pub enum Dice {
    Seed(ServerSeed),
    Beacon(warboard_proof::ChainInfo),
}

/// The server's signing key (receipts of its games and of the games it
/// witnesses), made on first use and shared by every server on the database.
pub async fn server_key(store: &Store, clock: &dyn Clock) -> Result<SigningKey, ApiError> {
    let mut fresh = [0u8; 32];
    getrandom::fill(&mut fresh).map_err(|e| ApiError::internal(format!("no randomness for the server's key: {e}")))?;
    let secret = store.server_secret("witness", &to_hex(&fresh), clock.now_ms()).await?;
    let secret: [u8; 32] = from_hex_n(&secret).map_err(ApiError::internal)?;
    Ok(SigningKey::from_bytes(&secret))
}

/// Where a proven game's new entries get their dice.
pub enum Source {
    /// The server mode's seed, secret until the game ends.
    Seed([u8; 32]),
    /// The witness's beacon: an action that rolls names the next round.
    Beacon(Arc<crate::witness::Witness>),
}

/// Links each new action of a proven server game: the entry by the seat of
/// the power that takes it (unsigned), the server's receipt at the clock's
/// time (never earlier than the last). Its dice come from the seed, or, in
/// beacon mode, an action that rolls names the beacon's next round, is
/// receipted at once (before the round is out) and waits for the round,
/// whose signature gives its dice: blocking (up to a period and a fetch),
/// so the table calls it off the async threads.
pub struct HostLinker {
    key: SigningKey,
    source: Source,
    clock: Arc<dyn Clock>,
    last_ms: u64,
}

impl HostLinker {
    pub fn new(key: SigningKey, source: Source, clock: Arc<dyn Clock>, record: &Record) -> HostLinker {
        let last_ms = record.log().iter().rev().find_map(|e| e.proof.as_ref()).map_or(0, |p| p.server_time_ms);
        HostLinker { key, source, clock, last_ms }
    }

    /// The round's signature once it is published, waiting for it.
    fn await_round(&self, witness: &crate::witness::Witness, round: u64) -> Result<warboard_proof::BeaconProof, ApplyError> {
        let give_up = self.last_ms + ROUND_PATIENCE_MS;
        loop {
            let now = u64::try_from(self.clock.now_ms()).unwrap_or(0);
            match witness.published_round(round, now) {
                Ok(signature) => return Ok(warboard_proof::BeaconProof { round, signature }),
                Err(e) if e.code == "beacon/not-yet" && now < give_up => {
                    let wait = e.args.as_ref().and_then(|a| a.get("retry_after_ms")).and_then(Value::as_u64).unwrap_or(100);
                    std::thread::sleep(std::time::Duration::from_millis(wait.clamp(10, 1000)));
                }
                Err(e) => {
                    return Err(ApplyError::Rejected(warboard_rules::RuleError::new(
                        "beacon/unavailable",
                        format!("the beacon's round {round} did not come: {}", e.message),
                    )))
                }
            }
        }
    }
}

/// How long an action waits for its round at most: a minute covers any
/// beacon's period and a slow relay.
const ROUND_PATIENCE_MS: u64 = 60_000;

impl warboard_table::Linker for HostLinker {
    fn link(&mut self, record: &Record, power: PowerId, action: &Value) -> Result<(Link, Option<[u8; 32]>), ApplyError> {
        let seat = match record.table_entry(action)? {
            Some(TableEntry::Clock { .. }) => TABLE_SEAT.to_string(),
            _ => record.game().ruleset.power(power).id.clone(),
        };
        let game_id = record.proof_header().ok_or(ApplyError::NeedsLink)?.game_id;
        self.last_ms = u64::try_from(self.clock.now_ms()).unwrap_or(0).max(self.last_ms);
        let round = match &self.source {
            Source::Beacon(witness) => record.would_roll(action)?.then(|| witness.beacon().round_at(self.last_ms / 1000) + 1),
            Source::Seed(_) => None,
        };
        let entry = record.next_entry(&seat, action, round)?;
        let receipt = Receipt::for_entry(&game_id, &entry, self.last_ms).sign(&game_id, &self.key);
        let (beacon, seed) = match (&self.source, round) {
            (Source::Seed(seed), _) => (None, Some(*seed)),
            (Source::Beacon(witness), Some(round)) => (Some(self.await_round(witness, round)?), None),
            (Source::Beacon(_), None) => (None, None),
        };
        Ok((Link { entry: entry.unsigned(), receipt, beacon }, seed))
    }
}
