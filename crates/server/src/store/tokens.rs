//! Session and API tokens. Only their hashes are stored (the caller hashes),
//! so reading the database grants nobody a session.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::accounts::{account_from_row, ACCOUNT_COLUMNS};
use super::error::conflict_if_unique;
use super::{Account, Store, StoreError};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Made by signing in; usually expires.
    Session,
    /// Made by the player for a program (a bot, a script); listed and revocable.
    Api,
}

impl TokenKind {
    fn as_str(self) -> &'static str {
        match self {
            TokenKind::Session => "session",
            TokenKind::Api => "api",
        }
    }

    fn parse(text: &str) -> Result<TokenKind, StoreError> {
        match text {
            "session" => Ok(TokenKind::Session),
            "api" => Ok(TokenKind::Api),
            other => Err(StoreError::Database(format!("unknown token kind {other:?}"))),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRow {
    pub token_hash: String,
    pub account_id: String,
    pub kind: TokenKind,
    pub label: Option<String>,
    pub created_at: i64,
    /// Unix ms; `None` never expires.
    pub expires_at: Option<i64>,
}

fn token_from_row(row: &AnyRow) -> Result<TokenRow, StoreError> {
    Ok(TokenRow {
        token_hash: row.try_get("token_hash")?,
        account_id: row.try_get("account_id")?,
        kind: TokenKind::parse(&row.try_get::<String, _>("kind")?)?,
        label: row.try_get("label")?,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
    })
}

impl Store {
    /// `Conflict` if the hash exists already (a collision means a bad generator).
    pub async fn create_token(
        &self,
        token_hash: &str,
        account_id: &str,
        kind: TokenKind,
        label: Option<&str>,
        now: i64,
        expires_at: Option<i64>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tokens (token_hash, account_id, kind, label, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(token_hash)
        .bind(account_id)
        .bind(kind.as_str())
        .bind(label)
        .bind(now)
        .bind(expires_at)
        .execute(&self.pool)
        .await
        .map_err(|e| conflict_if_unique(e, "the token exists already"))?;
        Ok(())
    }

    /// The token's account, unless the token is unknown or expired at `now`.
    pub async fn account_for_token(&self, token_hash: &str, now: i64) -> Result<Option<(Account, TokenKind)>, StoreError> {
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS}, tokens.kind AS token_kind \
             FROM tokens JOIN accounts ON accounts.id = tokens.account_id \
             WHERE tokens.token_hash = $1 \
               AND (tokens.expires_at IS NULL OR tokens.expires_at > $2)"
        );
        let row = sqlx::query(&sql).bind(token_hash).bind(now).fetch_optional(&self.pool).await?;
        match row {
            None => Ok(None),
            Some(row) => {
                let kind = TokenKind::parse(&row.try_get::<String, _>("token_kind")?)?;
                Ok(Some((account_from_row(&row)?, kind)))
            }
        }
    }

    /// Signs a session out or revokes an API token; unknown hashes are ignored
    /// so signing out twice is not an error.
    pub async fn delete_token(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM tokens WHERE token_hash = $1").bind(token_hash).execute(&self.pool).await?;
        Ok(())
    }

    /// The account's API tokens, oldest first, expired ones included.
    pub async fn api_tokens(&self, account_id: &str) -> Result<Vec<TokenRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT token_hash, account_id, kind, label, created_at, expires_at FROM tokens \
             WHERE account_id = $1 AND kind = 'api' ORDER BY created_at, token_hash",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(token_from_row).collect()
    }
}
