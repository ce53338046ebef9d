//! Sealed bids for sides (migration 0010, src/bids.rs): a bidding game's two
//! bidders, each with its commitment once sealed and its bid once revealed.
//!
//! Every change runs in a [`BidLock`], which begins by updating the game's
//! bid rows: on PostgreSQL that takes their row locks, on SQLite the one
//! write lock. Two reveals (or a seal and a reveal) of one game thus happen
//! one after the other, each deciding on rows nobody changes before it
//! commits: of two last reveals only one finds both bids revealed.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::games::insert_game;
use super::{ClockSettings, NewGame, Store, StoreError};

/// One bidder's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidRow {
    pub account_id: String,
    /// The account's name, as the commitment binds it.
    pub name: String,
    pub rule: String,
    /// 64 hex digits, once sealed.
    pub commitment: Option<String>,
    pub sealed_at: Option<i64>,
    /// The bid, once revealed, with its nonce (64 hex digits).
    pub ipcs: Option<i64>,
    pub nonce: Option<String>,
    pub revealed_at: Option<i64>,
}

const BID_COLUMNS: &str = "bids.game_id, bids.account_id, accounts.name, bids.rule, bids.commitment, bids.sealed_at, \
     bids.ipcs, bids.nonce, bids.revealed_at";

fn bid_from_row(row: &AnyRow) -> Result<BidRow, StoreError> {
    Ok(BidRow {
        account_id: row.try_get("account_id")?,
        name: row.try_get("name")?,
        rule: row.try_get("rule")?,
        commitment: row.try_get("commitment")?,
        sealed_at: row.try_get("sealed_at")?,
        ipcs: row.try_get("ipcs")?,
        nonce: row.try_get("nonce")?,
        revealed_at: row.try_get("revealed_at")?,
    })
}

/// A game's bid rows, taken for one change (see the module's comment).
/// Dropped without [`BidLock::commit`], it changes nothing.
pub struct BidLock {
    tx: Transaction<'static, Any>,
    game_id: String,
}

impl Store {
    /// [`Store::create_game_with_clock`] for a game whose seats wait for a
    /// bid: the game, its open seats, its clock and a row for each of the
    /// two bidders (account ids), all or nothing.
    pub async fn create_game_with_bids(
        &self,
        game: &NewGame,
        clock: Option<ClockSettings>,
        bidders: [&str; 2],
        rule: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert_game(&mut tx, game, clock).await?;
        for account_id in bidders {
            sqlx::query("INSERT INTO bids (game_id, account_id, rule) VALUES ($1, $2, $3)")
                .bind(&game.id)
                .bind(account_id)
                .bind(rule)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The game's bidders in the order of their names (none: the game has
    /// no bid).
    pub async fn bids(&self, game_id: &str) -> Result<Vec<BidRow>, StoreError> {
        Ok(self.bids_of_games(std::slice::from_ref(&game_id.to_string())).await?.remove(game_id).unwrap_or_default())
    }

    /// The bidders of several games (those that have a bid), in one query.
    pub async fn bids_of_games(&self, game_ids: &[String]) -> Result<HashMap<String, Vec<BidRow>>, StoreError> {
        let mut out: HashMap<String, Vec<BidRow>> = HashMap::new();
        if game_ids.is_empty() {
            return Ok(out);
        }
        let placeholders: Vec<String> = (1..=game_ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT {BID_COLUMNS} FROM bids JOIN accounts ON accounts.id = bids.account_id \
             WHERE bids.game_id IN ({}) ORDER BY bids.game_id, accounts.name",
            placeholders.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for id in game_ids {
            query = query.bind(id);
        }
        for row in query.fetch_all(&self.pool).await? {
            out.entry(row.try_get("game_id")?).or_default().push(bid_from_row(&row)?);
        }
        Ok(out)
    }

    /// Takes the game's bid rows for a change, and reads them as they are
    /// under the lock; `None` where the game has no bid.
    pub async fn lock_bids(&self, game_id: &str) -> Result<Option<(BidLock, Vec<BidRow>)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let locked = sqlx::query("UPDATE bids SET rule = rule WHERE game_id = $1").bind(game_id).execute(&mut *tx).await?;
        if locked.rows_affected() == 0 {
            return Ok(None);
        }
        let sql = format!(
            "SELECT {BID_COLUMNS} FROM bids JOIN accounts ON accounts.id = bids.account_id \
             WHERE bids.game_id = $1 ORDER BY accounts.name"
        );
        let rows = sqlx::query(&sql).bind(game_id).fetch_all(&mut *tx).await?;
        let rows = rows.iter().map(bid_from_row).collect::<Result<Vec<_>, _>>()?;
        Ok(Some((BidLock { tx, game_id: game_id.to_string() }, rows)))
    }
}

impl BidLock {
    /// Keeps the bidder's commitment (replacing one sealed before).
    pub async fn seal(&mut self, account_id: &str, commitment: &str, at: i64) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE bids SET commitment = $3, sealed_at = $4 \
             WHERE game_id = $1 AND account_id = $2 AND ipcs IS NULL",
        )
        .bind(&self.game_id)
        .bind(account_id)
        .bind(commitment)
        .bind(at)
        .execute(&mut *self.tx)
        .await?;
        one_row(done.rows_affected(), "the bid was revealed already")
    }

    /// Keeps the bidder's revealed bid and nonce.
    pub async fn reveal(&mut self, account_id: &str, ipcs: i64, nonce: &str, at: i64) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE bids SET ipcs = $3, nonce = $4, revealed_at = $5 \
             WHERE game_id = $1 AND account_id = $2 AND commitment IS NOT NULL AND ipcs IS NULL",
        )
        .bind(&self.game_id)
        .bind(account_id)
        .bind(ipcs)
        .bind(nonce)
        .bind(at)
        .execute(&mut *self.tx)
        .await?;
        one_row(done.rows_affected(), "the bid is not sealed, or was revealed already")
    }

    /// Starts the game the settled bid decided: its final start
    /// (`start_json`), each power's seat given to its account
    /// (`(power, account_id)`), and its status `playing`. `Conflict` where
    /// the game is no longer open and untouched.
    pub async fn settle(&mut self, start_json: &str, seats: &[(String, String)]) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE games SET start_json = $2, status = 'playing' WHERE id = $1 AND status = 'open' AND seq = 0")
            .bind(&self.game_id)
            .bind(start_json)
            .execute(&mut *self.tx)
            .await?;
        one_row(done.rows_affected(), "the game is no longer waiting for its bid")?;
        for (power, account_id) in seats {
            let done = sqlx::query(
                "UPDATE seats SET kind = 'account', account_id = $3 \
                 WHERE game_id = $1 AND power = $2 AND kind = 'open'",
            )
            .bind(&self.game_id)
            .bind(power)
            .bind(account_id)
            .execute(&mut *self.tx)
            .await?;
            one_row(done.rows_affected(), "a seat of the bidding game is not open")?;
        }
        Ok(())
    }

    pub async fn commit(self) -> Result<(), StoreError> {
        self.tx.commit().await?;
        Ok(())
    }
}

/// A guarded update that must change exactly one row: `Conflict(why)` where
/// its guard refused.
fn one_row(affected: u64, why: &str) -> Result<(), StoreError> {
    if affected == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict(why.to_string()))
    }
}
