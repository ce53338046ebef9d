//! Rated results (src/ladder.rs): written once a game, read in order.

use std::collections::{HashMap, HashSet};

use sqlx::Row;

use super::{Store, StoreError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedRow {
    pub game_id: String,
    pub family: String,
    pub ended_at: i64,
    pub side_a: Vec<String>,
    pub side_b: Vec<String>,
    /// `win` (side a won) or `draw`.
    pub outcome: String,
    pub how: String,
    /// The side (`axis` or `allies`) each of the two played; `None` where
    /// it held powers of both, or for a result kept before sides were
    /// (migration 0009) whose game could not tell.
    pub side_a_plays: Option<String>,
    pub side_b_plays: Option<String>,
    /// The IPCs the Axis got from a bid; `None`: the game had no bid.
    pub bid: Option<i64>,
}

const RATED_COLUMNS: &str = "game_id, family, ended_at, side_a, side_b, outcome, how, side_a_plays, side_b_plays, bid";

/// `$first, $first+1, …`: one placeholder for each of `n` values.
fn placeholders(first: usize, n: usize) -> String {
    (first..first + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

impl Store {
    /// Keeps a game's rated result; `false` if it has one already.
    pub async fn add_rated(&self, r: &RatedRow) -> Result<bool, StoreError> {
        let done = sqlx::query(&format!(
            "INSERT INTO rated_results ({RATED_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (game_id) DO NOTHING"
        ))
        .bind(&r.game_id)
        .bind(&r.family)
        .bind(r.ended_at)
        .bind(r.side_a.join(","))
        .bind(r.side_b.join(","))
        .bind(&r.outcome)
        .bind(&r.how)
        .bind(&r.side_a_plays)
        .bind(&r.side_b_plays)
        .bind(r.bid)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// A family's rated results in the order they are rated: by when the
    /// game ended, then by game id (a total order every server agrees on).
    pub async fn rated(&self, family: &str) -> Result<Vec<RatedRow>, StoreError> {
        let rows = sqlx::query(&format!("SELECT {RATED_COLUMNS} FROM rated_results WHERE family = $1 ORDER BY ended_at, game_id"))
            .bind(family)
            .fetch_all(&self.pool)
            .await?;
        let split = |s: String| s.split(',').filter(|p| !p.is_empty()).map(str::to_string).collect();
        rows.iter()
            .map(|r| {
                Ok(RatedRow {
                    game_id: r.try_get("game_id")?,
                    family: r.try_get("family")?,
                    ended_at: r.try_get("ended_at")?,
                    side_a: split(r.try_get("side_a")?),
                    side_b: split(r.try_get("side_b")?),
                    outcome: r.try_get("outcome")?,
                    how: r.try_get("how")?,
                    side_a_plays: r.try_get("side_a_plays")?,
                    side_b_plays: r.try_get("side_b_plays")?,
                    bid: r.try_get("bid")?,
                })
            })
            .collect()
    }

    /// The names of the accounts `ids` names (ids that are no account's are left out).
    pub async fn account_names(&self, ids: &[String]) -> Result<HashMap<String, String>, StoreError> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!("SELECT id, name FROM accounts WHERE id IN ({})", placeholders(1, ids.len()));
        let mut query = sqlx::query(&sql);
        for id in ids {
            query = query.bind(id);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(|r| Ok((r.try_get("id")?, r.try_get("name")?))).collect()
    }

    /// Which of the games `ids` names are public.
    pub async fn public_games(&self, ids: &[String]) -> Result<HashSet<String>, StoreError> {
        if ids.is_empty() {
            return Ok(HashSet::new());
        }
        let sql = format!("SELECT id FROM games WHERE is_public = 1 AND id IN ({})", placeholders(1, ids.len()));
        let mut query = sqlx::query(&sql);
        for id in ids {
            query = query.bind(id);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }
}
