//! The witness's tables (docs/pbem.md): the server's signing keys, the
//! games it witnesses and the receipts it signed. A receipt's (game, n) is
//! the primary key: the database itself refuses a second receipt for a
//! number, whichever server of a cluster is asked.

use sqlx::Row;

use super::error::is_unique_violation;
use super::{Store, StoreError};

/// The last receipt of a witnessed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessHead {
    pub n: i64,
    pub next_prev: String,
    pub server_time: i64,
}

/// One receipt as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessReceipt {
    pub n: i64,
    pub entry_hash: String,
    pub receipt_json: String,
}

/// An insert's result: `false` where a row with its key is there already.
fn inserted(result: Result<sqlx::any::AnyQueryResult, sqlx::Error>) -> Result<bool, StoreError> {
    match result {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

impl Store {
    /// The secret of the key named `name`: the one stored, or `fresh`,
    /// stored now if none was (the first server to ask decides).
    pub async fn server_secret(&self, name: &str, fresh: &str, now: i64) -> Result<String, StoreError> {
        let inserted_key = sqlx::query("INSERT INTO server_keys (name, secret_hex, created_at) VALUES ($1, $2, $3)")
            .bind(name)
            .bind(fresh)
            .bind(now)
            .execute(&self.pool)
            .await;
        if inserted(inserted_key)? {
            return Ok(fresh.to_string());
        }
        Ok(sqlx::query_scalar("SELECT secret_hex FROM server_keys WHERE name = $1").bind(name).fetch_one(&self.pool).await?)
    }

    /// Starts witnessing a game; `false` if its id is taken already.
    pub async fn add_witness_game(&self, game_id: &str, header_json: &str, now: i64) -> Result<bool, StoreError> {
        inserted(
            sqlx::query("INSERT INTO witness_games (game_id, header_json, created_at) VALUES ($1, $2, $3)")
                .bind(game_id)
                .bind(header_json)
                .bind(now)
                .execute(&self.pool)
                .await,
        )
    }

    /// A witnessed game's header, as it was registered.
    pub async fn witness_game(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT header_json FROM witness_games WHERE game_id = $1").bind(game_id).fetch_optional(&self.pool).await?)
    }

    /// The game's last receipt, if any.
    pub async fn witness_head(&self, game_id: &str) -> Result<Option<WitnessHead>, StoreError> {
        let row = sqlx::query("SELECT n, next_prev, server_time FROM witness_receipts WHERE game_id = $1 ORDER BY n DESC LIMIT 1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok(WitnessHead { n: r.try_get("n")?, next_prev: r.try_get("next_prev")?, server_time: r.try_get("server_time")? })).transpose()
    }

    /// Receipt `n` of the game.
    pub async fn witness_receipt(&self, game_id: &str, n: i64) -> Result<Option<WitnessReceipt>, StoreError> {
        let row = sqlx::query("SELECT n, entry_hash, receipt_json FROM witness_receipts WHERE game_id = $1 AND n = $2")
            .bind(game_id)
            .bind(n)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok(WitnessReceipt { n: r.try_get("n")?, entry_hash: r.try_get("entry_hash")?, receipt_json: r.try_get("receipt_json")? }))
            .transpose()
    }

    /// Keeps a receipt; `false` if the number has one already (another
    /// request, perhaps on another server, was first).
    pub async fn add_witness_receipt(&self, game_id: &str, head: &WitnessHead, entry_hash: &str, receipt_json: &str) -> Result<bool, StoreError> {
        inserted(
            sqlx::query("INSERT INTO witness_receipts (game_id, n, entry_hash, next_prev, server_time, receipt_json) VALUES ($1, $2, $3, $4, $5, $6)")
                .bind(game_id)
                .bind(head.n)
                .bind(entry_hash)
                .bind(&head.next_prev)
                .bind(head.server_time)
                .bind(receipt_json)
                .execute(&self.pool)
                .await,
        )
    }

    /// The game's receipts from number `from` on, at most `limit`.
    pub async fn witness_receipts(&self, game_id: &str, from: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT receipt_json FROM witness_receipts WHERE game_id = $1 AND n >= $2 ORDER BY n LIMIT $3")
            .bind(game_id)
            .bind(from)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("receipt_json")?)).collect()
    }
}
