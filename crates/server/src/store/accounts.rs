//! Player accounts and the sign-in lockout counter.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::error::conflict_if_unique;
use super::{new_id, Store, StoreError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    /// As the player typed it; uniqueness ignores case.
    pub name: String,
    pub password_hash: String,
    pub created_at: i64,
    /// Failed sign-ins since the last success or lockout.
    pub failed_signins: i64,
    /// Unix ms before which sign-in is refused; 0 when never locked.
    pub locked_until: i64,
    pub banned: bool,
}

/// The columns [`account_from_row`] reads, for queries that join accounts.
pub(crate) const ACCOUNT_COLUMNS: &str = "accounts.id, accounts.name, accounts.password_hash, \
     accounts.created_at, accounts.failed_signins, accounts.locked_until, accounts.banned";

pub(crate) fn account_from_row(row: &AnyRow) -> Result<Account, StoreError> {
    Ok(Account {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        created_at: row.try_get("created_at")?,
        failed_signins: row.try_get("failed_signins")?,
        locked_until: row.try_get("locked_until")?,
        banned: row.try_get::<i64, _>("banned")? != 0,
    })
}

/// The key names are unique under: "Alice" and "alice" are one player.
fn name_key(name: &str) -> String {
    name.to_lowercase()
}

impl Store {
    /// `Conflict` when the name is taken in any letter case.
    pub async fn create_account(&self, name: &str, password_hash: &str, now: i64) -> Result<Account, StoreError> {
        let account = Account {
            id: new_id()?,
            name: name.to_string(),
            password_hash: password_hash.to_string(),
            created_at: now,
            failed_signins: 0,
            locked_until: 0,
            banned: false,
        };
        sqlx::query(
            "INSERT INTO accounts (id, name, name_key, password_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&account.id)
        .bind(&account.name)
        .bind(name_key(name))
        .bind(&account.password_hash)
        .bind(now)
        .execute(&self.pool)
        .await
        .map_err(|e| conflict_if_unique(e, "the account name is taken"))?;
        Ok(account)
    }

    /// Looks the name up ignoring case.
    pub async fn account_by_name(&self, name: &str) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1");
        let row = sqlx::query(&sql).bind(name_key(name)).fetch_optional(&self.pool).await?;
        row.as_ref().map(account_from_row).transpose()
    }

    pub async fn account(&self, id: &str) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1");
        let row = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await?;
        row.as_ref().map(account_from_row).transpose()
    }

    /// Counts a failed sign-in; the `lock_after`-th in a row locks the account
    /// until `now + lock_ms` and starts the count again. One statement, so
    /// concurrent failures can't lose a count.
    pub async fn note_failed_signin(&self, id: &str, now: i64, lock_after: i64, lock_ms: i64) -> Result<(), StoreError> {
        // Both databases evaluate every SET expression against the old row.
        let done = sqlx::query(
            "UPDATE accounts SET \
               failed_signins = CASE WHEN failed_signins + 1 >= $3 THEN 0 \
                                     ELSE failed_signins + 1 END, \
               locked_until = CASE WHEN failed_signins + 1 >= $3 THEN $2 + $4 \
                                   ELSE locked_until END \
             WHERE id = $1",
        )
        .bind(id)
        .bind(now)
        .bind(lock_after)
        .bind(lock_ms)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// A successful sign-in forgives earlier failures.
    pub async fn note_signin(&self, id: &str) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE accounts SET failed_signins = 0 WHERE id = $1").bind(id).execute(&self.pool).await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }
}
