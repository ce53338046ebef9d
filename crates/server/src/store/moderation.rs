//! Moderation: administrators, players' reports of games, and the audit
//! log. Every change an administrator (or the server) makes is written in
//! one transaction with its audit row, so that what is acknowledged is on
//! disk together with its record, and nothing is recorded that did not
//! happen.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::error::is_unique_violation;
use super::{Store, StoreError};

/// What the audit log records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuditAction {
    Ban,
    Unban,
    CloseReport,
    GrantAdmin,
    RevokeAdmin,
}

impl AuditAction {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditAction::Ban => "ban",
            AuditAction::Unban => "unban",
            AuditAction::CloseReport => "close-report",
            AuditAction::GrantAdmin => "grant-admin",
            AuditAction::RevokeAdmin => "revoke-admin",
        }
    }

    fn parse(text: &str) -> Result<AuditAction, StoreError> {
        [AuditAction::Ban, AuditAction::Unban, AuditAction::CloseReport, AuditAction::GrantAdmin, AuditAction::RevokeAdmin]
            .into_iter()
            .find(|a| a.as_str() == text)
            .ok_or_else(|| StoreError::Database(format!("unknown audit action {text:?}")))
    }
}

/// One row of the audit log as it is read back, with names joined in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditRow {
    pub n: i64,
    pub at: i64,
    /// The administrator's account id; `None` where the server acted.
    pub actor_id: Option<String>,
    pub actor_name: Option<String>,
    pub action: AuditAction,
    /// An account's id, or (close-report) a report's number.
    pub target: String,
    /// The target account's name, where the target is an account.
    pub target_name: Option<String>,
    pub reason: String,
}

/// A player's report of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    pub n: i64,
    pub game_id: String,
    pub reporter_id: String,
    pub reporter_name: String,
    pub reason: String,
    pub created_at: i64,
    pub open: bool,
    pub closed_by: Option<String>,
    pub closed_at: Option<i64>,
}

/// The change an audit row records, made in the row's transaction. Each is
/// guarded on the state it changes from, so that a change made meanwhile
/// (by another administrator, on another server) is not made twice.
#[derive(Clone, Copy, Debug)]
enum Change<'a> {
    /// Bans an account that is neither banned nor an administrator, and
    /// ends its sessions and API tokens.
    Ban {
        account_id: &'a str,
    },
    Unban {
        account_id: &'a str,
    },
    /// Makes an account that is not banned an administrator.
    GrantAdmin {
        account_id: &'a str,
    },
    RevokeAdmin {
        account_id: &'a str,
    },
    CloseReport {
        n: i64,
    },
}

impl Change<'_> {
    fn action(self) -> AuditAction {
        match self {
            Change::Ban { .. } => AuditAction::Ban,
            Change::Unban { .. } => AuditAction::Unban,
            Change::GrantAdmin { .. } => AuditAction::GrantAdmin,
            Change::RevokeAdmin { .. } => AuditAction::RevokeAdmin,
            Change::CloseReport { .. } => AuditAction::CloseReport,
        }
    }

    fn target(self) -> String {
        match self {
            Change::Ban { account_id }
            | Change::Unban { account_id }
            | Change::GrantAdmin { account_id }
            | Change::RevokeAdmin { account_id } => account_id.to_string(),
            Change::CloseReport { n } => n.to_string(),
        }
    }

    /// Makes the change; false where the guard found nothing to change.
    async fn apply(self, tx: &mut Transaction<'_, Any>, actor_id: Option<&str>, now: i64) -> Result<bool, sqlx::Error> {
        let done = match self {
            Change::Ban { account_id } => {
                let done = sqlx::query("UPDATE accounts SET banned = 1 WHERE id = $1 AND banned = 0 AND admin = 0")
                    .bind(account_id)
                    .execute(&mut **tx)
                    .await?;
                if done.rows_affected() > 0 {
                    // A banned account's sessions and tokens end with the
                    // ban: unbanned, it signs in again.
                    sqlx::query("DELETE FROM tokens WHERE account_id = $1").bind(account_id).execute(&mut **tx).await?;
                }
                done
            }
            Change::Unban { account_id } => {
                sqlx::query("UPDATE accounts SET banned = 0 WHERE id = $1 AND banned = 1").bind(account_id).execute(&mut **tx).await?
            }
            Change::GrantAdmin { account_id } => {
                sqlx::query("UPDATE accounts SET admin = 1 WHERE id = $1 AND admin = 0 AND banned = 0")
                    .bind(account_id)
                    .execute(&mut **tx)
                    .await?
            }
            Change::RevokeAdmin { account_id } => {
                sqlx::query("UPDATE accounts SET admin = 0 WHERE id = $1 AND admin = 1").bind(account_id).execute(&mut **tx).await?
            }
            Change::CloseReport { n } => {
                sqlx::query("UPDATE reports SET status = 'closed', closed_by = $2, closed_at = $3 WHERE n = $1 AND status = 'open'")
                    .bind(n)
                    .bind(actor_id)
                    .bind(now)
                    .execute(&mut **tx)
                    .await?
            }
        };
        Ok(done.rows_affected() > 0)
    }
}

/// Two servers may number a row at once; the loser numbers again.
const NUMBERING_TRIES: usize = 5;

const AUDIT_SELECT: &str = "SELECT audit_log.n, audit_log.at, audit_log.actor_id, actor.name AS actor_name, audit_log.action, \
     audit_log.target, target.name AS target_name, audit_log.reason \
     FROM audit_log \
     LEFT JOIN accounts actor ON actor.id = audit_log.actor_id \
     LEFT JOIN accounts target ON audit_log.action <> 'close-report' AND target.id = audit_log.target";

fn audit_from_row(row: &AnyRow) -> Result<AuditRow, StoreError> {
    Ok(AuditRow {
        n: row.try_get("n")?,
        at: row.try_get("at")?,
        actor_id: row.try_get("actor_id")?,
        actor_name: row.try_get("actor_name")?,
        action: AuditAction::parse(&row.try_get::<String, _>("action")?)?,
        target: row.try_get("target")?,
        target_name: row.try_get("target_name")?,
        reason: row.try_get("reason")?,
    })
}

const REPORT_SELECT: &str = "SELECT reports.n, reports.game_id, reports.reporter_id, accounts.name AS reporter_name, reports.reason, \
     reports.created_at, reports.status, reports.closed_by, reports.closed_at \
     FROM reports JOIN accounts ON accounts.id = reports.reporter_id";

fn report_from_row(row: &AnyRow) -> Result<ReportRow, StoreError> {
    Ok(ReportRow {
        n: row.try_get("n")?,
        game_id: row.try_get("game_id")?,
        reporter_id: row.try_get("reporter_id")?,
        reporter_name: row.try_get("reporter_name")?,
        reason: row.try_get("reason")?,
        created_at: row.try_get("created_at")?,
        open: row.try_get::<String, _>("status")? == "open",
        closed_by: row.try_get("closed_by")?,
        closed_at: row.try_get("closed_at")?,
    })
}

impl Store {
    /// Whether the account is an administrator (false for an unknown one).
    pub async fn is_admin(&self, account_id: &str) -> Result<bool, StoreError> {
        let admin: Option<i64> =
            sqlx::query_scalar("SELECT admin FROM accounts WHERE id = $1").bind(account_id).fetch_optional(&self.pool).await?;
        Ok(admin == Some(1))
    }

    /// Bans `account_id` and ends its sessions and tokens, recorded as done
    /// by `actor_id`; `None` where the account is banned already or an
    /// administrator (or unknown).
    pub async fn ban(&self, actor_id: &str, account_id: &str, reason: &str, now: i64) -> Result<Option<AuditRow>, StoreError> {
        self.audited(Change::Ban { account_id }, Some(actor_id), reason, now).await
    }

    /// `None` where the account is not banned.
    pub async fn unban(&self, actor_id: &str, account_id: &str, reason: &str, now: i64) -> Result<Option<AuditRow>, StoreError> {
        self.audited(Change::Unban { account_id }, Some(actor_id), reason, now).await
    }

    /// Makes `account_id` an administrator; `actor_id` `None` where the
    /// server grants it. `None` where it is one already, or banned.
    pub async fn grant_admin(
        &self,
        actor_id: Option<&str>,
        account_id: &str,
        reason: &str,
        now: i64,
    ) -> Result<Option<AuditRow>, StoreError> {
        self.audited(Change::GrantAdmin { account_id }, actor_id, reason, now).await
    }

    /// `None` where the account is no administrator.
    pub async fn revoke_admin(&self, actor_id: &str, account_id: &str, reason: &str, now: i64) -> Result<Option<AuditRow>, StoreError> {
        self.audited(Change::RevokeAdmin { account_id }, Some(actor_id), reason, now).await
    }

    /// Closes report `n`; `None` where it is closed already (or unknown).
    pub async fn close_report(&self, actor_id: &str, n: i64, reason: &str, now: i64) -> Result<Option<AuditRow>, StoreError> {
        self.audited(Change::CloseReport { n }, Some(actor_id), reason, now).await
    }

    /// Makes `change` and appends its audit row in one transaction.
    async fn audited(&self, change: Change<'_>, actor_id: Option<&str>, reason: &str, now: i64) -> Result<Option<AuditRow>, StoreError> {
        for _ in 0..NUMBERING_TRIES {
            let mut tx = self.pool.begin().await?;
            if !change.apply(&mut tx, actor_id, now).await? {
                return Ok(None);
            }
            let n: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(n), 0) + 1 FROM audit_log").fetch_one(&mut *tx).await?;
            let inserted = sqlx::query("INSERT INTO audit_log (n, at, actor_id, action, target, reason) VALUES ($1, $2, $3, $4, $5, $6)")
                .bind(n)
                .bind(now)
                .bind(actor_id)
                .bind(change.action().as_str())
                .bind(change.target())
                .bind(reason)
                .execute(&mut *tx)
                .await;
            match inserted {
                // Rolled back with the change; both are made again.
                Err(e) if is_unique_violation(&e) => continue,
                Err(e) => return Err(e.into()),
                Ok(_) => {}
            }
            tx.commit().await?;
            return self.audit_entry(n).await?.ok_or(StoreError::NotFound).map(Some);
        }
        Err(StoreError::Database("an audit row could not be numbered: try again".into()))
    }

    pub async fn audit_entry(&self, n: i64) -> Result<Option<AuditRow>, StoreError> {
        let sql = format!("{AUDIT_SELECT} WHERE audit_log.n = $1");
        let row = sqlx::query(&sql).bind(n).fetch_optional(&self.pool).await?;
        row.as_ref().map(audit_from_row).transpose()
    }

    /// Up to `limit` audit rows after number `after`, in order.
    pub async fn audit(&self, after: i64, limit: i64) -> Result<Vec<AuditRow>, StoreError> {
        let sql = format!("{AUDIT_SELECT} WHERE audit_log.n > $1 ORDER BY audit_log.n LIMIT $2");
        let rows = sqlx::query(&sql).bind(after).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(audit_from_row).collect()
    }

    /// Files a report; `Conflict` where the reporter has an open report of
    /// the game already, `NotFound` for an unknown game or account.
    pub async fn file_report(&self, game_id: &str, reporter_id: &str, reason: &str, now: i64) -> Result<ReportRow, StoreError> {
        for _ in 0..NUMBERING_TRIES {
            let mut tx = self.pool.begin().await?;
            let n: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(n), 0) + 1 FROM reports").fetch_one(&mut *tx).await?;
            let inserted = sqlx::query("INSERT INTO reports (n, game_id, reporter_id, reason, created_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(n)
                .bind(game_id)
                .bind(reporter_id)
                .bind(reason)
                .bind(now)
                .execute(&mut *tx)
                .await;
            match inserted {
                // Either the number was taken meanwhile (number again) or
                // the reporter's open report of the game is there.
                Err(e) if is_unique_violation(&e) => {
                    drop(tx);
                    if self.has_open_report(game_id, reporter_id).await? {
                        return Err(StoreError::Conflict("this account has an open report of this game".into()));
                    }
                    continue;
                }
                Err(e) => return Err(e.into()),
                Ok(_) => {}
            }
            tx.commit().await?;
            return self.report(n).await?.ok_or(StoreError::NotFound);
        }
        Err(StoreError::Database("a report could not be numbered: try again".into()))
    }

    async fn has_open_report(&self, game_id: &str, reporter_id: &str) -> Result<bool, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reports WHERE game_id = $1 AND reporter_id = $2 AND status = 'open'")
            .bind(game_id)
            .bind(reporter_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(n > 0)
    }

    pub async fn report(&self, n: i64) -> Result<Option<ReportRow>, StoreError> {
        let sql = format!("{REPORT_SELECT} WHERE reports.n = $1");
        let row = sqlx::query(&sql).bind(n).fetch_optional(&self.pool).await?;
        row.as_ref().map(report_from_row).transpose()
    }

    /// Up to `limit` open reports after number `after`, oldest first.
    pub async fn open_reports(&self, after: i64, limit: i64) -> Result<Vec<ReportRow>, StoreError> {
        let sql = format!("{REPORT_SELECT} WHERE reports.status = 'open' AND reports.n > $1 ORDER BY reports.n LIMIT $2");
        let rows = sqlx::query(&sql).bind(after).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(report_from_row).collect()
    }

    /// Reports the account filed at or after `since` (unix ms), open or closed.
    pub async fn reports_filed_since(&self, reporter_id: &str, since: i64) -> Result<i64, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reports WHERE reporter_id = $1 AND created_at >= $2")
            .bind(reporter_id)
            .bind(since)
            .fetch_one(&self.pool)
            .await?;
        Ok(n)
    }
}
