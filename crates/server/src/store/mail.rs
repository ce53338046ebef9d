//! Each account's mail settings: its address, whether it wants "your turn"
//! mail, and the token of its unsubscribe link.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::error::conflict_if_unique;
use super::{Store, StoreError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailSettings {
    pub address: String,
    pub turn_mail: bool,
    /// What the unsubscribe link in every mail carries.
    pub unsubscribe_token: String,
}

fn settings_from_row(row: &AnyRow) -> Result<MailSettings, StoreError> {
    Ok(MailSettings {
        address: row.try_get("address")?,
        turn_mail: row.try_get::<i64, _>("turn_mail")? != 0,
        unsubscribe_token: row.try_get("unsubscribe_token")?,
    })
}

impl Store {
    /// The account's settings; `None` while it has no address.
    pub async fn mail_settings(&self, account_id: &str) -> Result<Option<MailSettings>, StoreError> {
        let row = sqlx::query("SELECT address, turn_mail, unsubscribe_token FROM account_mail WHERE account_id = $1")
            .bind(account_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(settings_from_row).transpose()
    }

    /// Where to send the account "your turn" mail: its settings while it
    /// has an address, wants the mail and is not banned.
    pub async fn turn_mail_to(&self, account_id: &str) -> Result<Option<MailSettings>, StoreError> {
        let row = sqlx::query(
            "SELECT account_mail.address, account_mail.turn_mail, account_mail.unsubscribe_token \
             FROM account_mail JOIN accounts ON accounts.id = account_mail.account_id \
             WHERE account_mail.account_id = $1 AND account_mail.turn_mail = 1 AND accounts.banned = 0",
        )
        .bind(account_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(settings_from_row).transpose()
    }

    /// Gives the account a new address with a new unsubscribe token (the
    /// old address's links stop working), replacing any it had. `NotFound`
    /// if there is no such account.
    pub async fn set_mail_address(
        &self,
        account_id: &str,
        address: &str,
        turn_mail: bool,
        token: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        // Both databases take this upsert, `excluded` included.
        sqlx::query(
            "INSERT INTO account_mail (account_id, address, turn_mail, unsubscribe_token, updated_at) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (account_id) DO UPDATE SET address = excluded.address, turn_mail = excluded.turn_mail, \
               unsubscribe_token = excluded.unsubscribe_token, updated_at = excluded.updated_at",
        )
        .bind(account_id)
        .bind(address)
        .bind(i64::from(turn_mail))
        .bind(token)
        .bind(now)
        .execute(&self.pool)
        .await
        .map_err(|e| conflict_if_unique(e, "the unsubscribe token exists already"))?;
        Ok(())
    }

    /// Switches the account's turn mail on or off. `NotFound` while it has
    /// no address.
    pub async fn set_turn_mail(&self, account_id: &str, on: bool, now: i64) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE account_mail SET turn_mail = $2, updated_at = $3 WHERE account_id = $1")
            .bind(account_id)
            .bind(i64::from(on))
            .bind(now)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Forgets the account's address (and with it every setting).
    pub async fn clear_mail(&self, account_id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM account_mail WHERE account_id = $1").bind(account_id).execute(&self.pool).await?;
        Ok(())
    }

    /// Switches turn mail off for the account whose unsubscribe link this
    /// is; that account's name and address, or `None` for an unknown token.
    pub async fn unsubscribe(&self, token: &str, now: i64) -> Result<Option<(String, String)>, StoreError> {
        let done = sqlx::query("UPDATE account_mail SET turn_mail = 0, updated_at = $2 WHERE unsubscribe_token = $1")
            .bind(token)
            .bind(now)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Ok(None);
        }
        let row = sqlx::query(
            "SELECT accounts.name, account_mail.address FROM account_mail \
             JOIN accounts ON accounts.id = account_mail.account_id WHERE account_mail.unsubscribe_token = $1",
        )
        .bind(token)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((r.try_get("name")?, r.try_get("address")?))).transpose()
    }
}
