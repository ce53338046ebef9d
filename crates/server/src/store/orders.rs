//! Standing orders by game and power (src/orders.rs).

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// Sets a power's orders, replacing any; `None` removes them. Announced
    /// so that other servers holding the game read them again.
    pub async fn set_orders(&self, game_id: &str, power: &str, orders_json: Option<&str>, now: i64) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM standing_orders WHERE game_id = $1 AND power = $2").bind(game_id).bind(power).execute(&mut *tx).await?;
        if let Some(json) = orders_json {
            sqlx::query("INSERT INTO standing_orders (game_id, power, orders_json, updated_at) VALUES ($1, $2, $3, $4)")
                .bind(game_id)
                .bind(power)
                .bind(json)
                .bind(now)
                .execute(&mut *tx)
                .await?;
        }
        self.announce(&mut tx, game_id, 0, "orders").await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every power's orders in a game: (power, orders as JSON).
    pub async fn orders(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT power, orders_json FROM standing_orders WHERE game_id = $1 ORDER BY power").bind(game_id).fetch_all(&self.pool).await?;
        rows.iter().map(|r| Ok((r.try_get("power")?, r.try_get("orders_json")?))).collect()
    }
}
