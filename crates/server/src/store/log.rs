//! Each game's log: the durability core. The server commits every accepted
//! action here before acknowledging it, so a restart replays exactly what
//! players were told happened.
//!
//! `games.seq` counts the entries and guards every change: an append must
//! name the count it expects, so two servers (or two tasks) that both think
//! they are next can't both succeed.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::error::is_unique_violation;
use super::{GameStatus, Store, StoreError};

/// The PostgreSQL channel on which a change to a game's log or chat is
/// announced: "GAME COUNT append|undo", "GAME N chat".
pub const CHANNEL: &str = "warboard_games";

/// One entry to append, with what it changes in the game's summary row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Append {
    pub game_id: String,
    /// 0-based; must equal the game's current entry count, else `Stale`.
    pub seq: i64,
    pub entry_json: String,
    /// The client's idempotency key: a retried action is recognised, not repeated.
    pub client_id: Option<String>,
    /// Who acted; `None` for the computer.
    pub account_id: Option<String>,
    /// Hash of the state after this entry, to detect divergent replays.
    pub state_hash: String,
    pub created_at: i64,
    /// The game's summary after this entry.
    pub actor: Option<String>,
    pub status: GameStatus,
    pub winner: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    pub seq: i64,
    pub entry_json: String,
    pub client_id: Option<String>,
    pub account_id: Option<String>,
    pub state_hash: String,
    pub created_at: i64,
}

fn log_from_row(row: &AnyRow) -> Result<LogRow, StoreError> {
    Ok(LogRow {
        seq: row.try_get("seq")?,
        entry_json: row.try_get("entry_json")?,
        client_id: row.try_get("client_id")?,
        account_id: row.try_get("account_id")?,
        state_hash: row.try_get("state_hash")?,
        created_at: row.try_get("created_at")?,
    })
}

impl Store {
    /// Appends one entry and updates the game's summary, in one transaction.
    ///
    /// `Stale` if `seq` isn't the game's entry count (someone else appended or
    /// undid first); `DuplicateClientId` if the client id is already in this
    /// game's log (a retry: see [`Store::seq_for_client_id`]); `NotFound` if
    /// the game doesn't exist. On any error nothing changes.
    pub async fn append(&self, entry: &Append) -> Result<(), StoreError> {
        match self.try_append(entry).await {
            Err(AppendRefused::Unique) => {
                // The primary key (game_id, seq) and the client id are both
                // unique; which one refused the row matters to the caller,
                // and only PostgreSQL names the constraint. Asking after the
                // rollback is portable, and a known client id wins: the
                // client is retrying something already recorded.
                if let Some(client_id) = &entry.client_id {
                    if self.seq_for_client_id(&entry.game_id, client_id).await?.is_some() {
                        return Err(StoreError::DuplicateClientId);
                    }
                }
                Err(StoreError::Stale)
            }
            Err(AppendRefused::Other(error)) => Err(error),
            Ok(()) => Ok(()),
        }
    }

    async fn try_append(&self, entry: &Append) -> Result<(), AppendRefused> {
        let mut tx = self.pool.begin().await?;
        // The insert comes first: on SQLite it takes the write lock at once
        // (no read-then-upgrade deadlock), and on PostgreSQL a concurrent
        // append of the same seq waits on the primary key, then fails.
        sqlx::query(
            "INSERT INTO game_log \
               (game_id, seq, entry_json, client_id, account_id, state_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&entry.game_id)
        .bind(entry.seq)
        .bind(&entry.entry_json)
        .bind(entry.client_id.as_deref())
        .bind(entry.account_id.as_deref())
        .bind(&entry.state_hash)
        .bind(entry.created_at)
        .execute(&mut *tx)
        .await?;
        // Catches a seq beyond the count (a gap), which the key alone allows.
        let done = sqlx::query(
            "UPDATE games SET seq = $2 + 1, actor = $3, status = $4, winner = $5 \
             WHERE id = $1 AND seq = $2",
        )
        .bind(&entry.game_id)
        .bind(entry.seq)
        .bind(entry.actor.as_deref())
        .bind(entry.status.as_str())
        .bind(entry.winner.as_deref())
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Err(AppendRefused::Other(StoreError::Stale));
        }
        self.announce(&mut tx, &entry.game_id, entry.seq + 1, "append").await?;
        tx.commit().await?;
        Ok(())
    }

    /// Tells the other servers on this database that a game's log or chat
    /// changed ("GAME COUNT append|undo|chat"; PostgreSQL's NOTIFY,
    /// delivered when the transaction commits, so never for a change that
    /// did not happen). SQLite has one server.
    pub(super) async fn announce(&self, tx: &mut sqlx::Transaction<'_, sqlx::Any>, game_id: &str, count: i64, what: &str) -> Result<(), sqlx::Error> {
        if self.backend == super::Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)").bind(CHANNEL).bind(format!("{game_id} {count} {what}")).execute(&mut **tx).await?;
        }
        Ok(())
    }

    /// The game's entries with `seq >= from_seq`, in order.
    pub async fn entries(&self, game_id: &str, from_seq: i64) -> Result<Vec<LogRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, entry_json, client_id, account_id, state_hash, created_at \
             FROM game_log WHERE game_id = $1 AND seq >= $2 ORDER BY seq",
        )
        .bind(game_id)
        .bind(from_seq)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(log_from_row).collect()
    }

    /// Where an action with this client id was recorded, if it was.
    pub async fn seq_for_client_id(&self, game_id: &str, client_id: &str) -> Result<Option<i64>, StoreError> {
        let seq = sqlx::query_scalar("SELECT seq FROM game_log WHERE game_id = $1 AND client_id = $2")
            .bind(game_id)
            .bind(client_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(seq)
    }

    /// Removes the last entry, if the game has exactly `expected_count`
    /// entries (else `Stale`). Whether an undo is allowed is the server's
    /// call; the game's actor, status and winner are left as they were.
    pub async fn undo_last(&self, game_id: &str, expected_count: i64) -> Result<(), StoreError> {
        if expected_count < 1 {
            return Err(StoreError::Stale);
        }
        let mut tx = self.pool.begin().await?;
        // The guarded update first: it takes the game row's lock, so an
        // append racing this undo waits for it and then finds the count moved.
        let done = sqlx::query("UPDATE games SET seq = seq - 1 WHERE id = $1 AND seq = $2")
            .bind(game_id)
            .bind(expected_count)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Err(StoreError::Stale);
        }
        let deleted = sqlx::query("DELETE FROM game_log WHERE game_id = $1 AND seq = $2")
            .bind(game_id)
            .bind(expected_count - 1)
            .execute(&mut *tx)
            .await?;
        if deleted.rows_affected() != 1 {
            // The count and the log disagree: refuse rather than make it worse.
            tx.rollback().await?;
            return Err(StoreError::Database(format!(
                "game {game_id} counts {expected_count} entries but has no entry {}",
                expected_count - 1
            )));
        }
        self.announce(&mut tx, game_id, expected_count - 1, "undo").await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Why [`Store::try_append`] failed, keeping unique violations apart until
/// the transaction is gone (PostgreSQL accepts no queries in a failed one).
enum AppendRefused {
    Unique,
    Other(StoreError),
}

impl From<sqlx::Error> for AppendRefused {
    fn from(error: sqlx::Error) -> Self {
        if is_unique_violation(&error) {
            AppendRefused::Unique
        } else {
            AppendRefused::Other(StoreError::from(error))
        }
    }
}
