//! Rated results (src/ladder.rs): written once a game, read in order.

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
}

impl Store {
    /// Keeps a game's rated result; `false` if it has one already.
    pub async fn add_rated(&self, r: &RatedRow) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO rated_results (game_id, family, ended_at, side_a, side_b, outcome, how) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(&r.game_id)
        .bind(&r.family)
        .bind(r.ended_at)
        .bind(r.side_a.join(","))
        .bind(r.side_b.join(","))
        .bind(&r.outcome)
        .bind(&r.how)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// A family's rated results in the order they are rated: by when the
    /// game ended, then by game id (a total order every server agrees on).
    pub async fn rated(&self, family: &str) -> Result<Vec<RatedRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, family, ended_at, side_a, side_b, outcome, how FROM rated_results WHERE family = $1 ORDER BY ended_at, game_id",
        )
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
                })
            })
            .collect()
    }
}
