//! Each game's chat: messages numbered per game, with who sent them.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::error::is_unique_violation;
use super::{Store, StoreError};

/// One message as it is read back: its number in the game, the sender's
/// account id and name, when, and what was said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    pub n: i64,
    pub account_id: String,
    pub name: String,
    pub sent_at: i64,
    pub body: String,
}

fn chat_from_row(row: &AnyRow) -> Result<ChatRow, StoreError> {
    Ok(ChatRow {
        n: row.try_get("n")?,
        account_id: row.try_get("account_id")?,
        name: row.try_get("name")?,
        sent_at: row.try_get("sent_at")?,
        body: row.try_get("body")?,
    })
}

/// Two servers may number a message at once; the loser numbers again.
const NUMBERING_TRIES: usize = 5;

impl Store {
    /// Appends a message to the game's chat and returns it as stored.
    pub async fn post_chat(&self, game_id: &str, account_id: &str, sent_at: i64, body: &str) -> Result<ChatRow, StoreError> {
        for _ in 0..NUMBERING_TRIES {
            let mut tx = self.pool.begin().await?;
            let next: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(n), -1) + 1 FROM chat WHERE game_id = $1")
                .bind(game_id)
                .fetch_one(&mut *tx)
                .await?;
            let inserted = sqlx::query("INSERT INTO chat (game_id, n, account_id, sent_at, body) VALUES ($1, $2, $3, $4, $5)")
                .bind(game_id)
                .bind(next)
                .bind(account_id)
                .bind(sent_at)
                .bind(body)
                .execute(&mut *tx)
                .await;
            match inserted {
                Err(e) if is_unique_violation(&e) => continue,
                Err(e) => return Err(e.into()),
                Ok(_) => {}
            }
            self.announce(&mut tx, game_id, next, "chat").await?;
            tx.commit().await?;
            return self.chat_message(game_id, next).await?.ok_or(StoreError::NotFound);
        }
        Err(StoreError::Database("a chat message could not be numbered: try again".into()))
    }

    /// Message `n` of the game's chat, if there is one.
    pub async fn chat_message(&self, game_id: &str, n: i64) -> Result<Option<ChatRow>, StoreError> {
        let row = sqlx::query(
            "SELECT chat.n, chat.account_id, accounts.name, chat.sent_at, chat.body \
             FROM chat JOIN accounts ON accounts.id = chat.account_id WHERE chat.game_id = $1 AND chat.n = $2",
        )
        .bind(game_id)
        .bind(n)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(chat_from_row).transpose()
    }

    /// The last `limit` messages before message `before` (all the latest
    /// where `before` is `None`), oldest first.
    pub async fn chat(&self, game_id: &str, before: Option<i64>, limit: i64) -> Result<Vec<ChatRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT chat.n, chat.account_id, accounts.name, chat.sent_at, chat.body \
             FROM chat JOIN accounts ON accounts.id = chat.account_id \
             WHERE chat.game_id = $1 AND chat.n < $2 ORDER BY chat.n DESC LIMIT $3",
        )
        .bind(game_id)
        .bind(before.unwrap_or(i64::MAX))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut messages = rows.iter().map(chat_from_row).collect::<Result<Vec<_>, _>>()?;
        messages.reverse();
        Ok(messages)
    }
}
