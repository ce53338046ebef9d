//! Moderation (issue 32; docs/server.md, "Moderation"): administrators ban
//! and unban accounts and read players' reports of games; every
//! administrator's action is in an append-only audit log, written in the
//! same transaction as the change it records.
//!
//! - `POST   /api/admin/bans`: `{"account","reason"}` bans an account;
//! - `DELETE /api/admin/bans/{name}`: `{"reason"}` lifts the ban;
//! - `POST   /api/admin/admins`: `{"account","reason"}` makes an administrator;
//! - `DELETE /api/admin/admins/{name}`: `{"reason"}` unmakes one;
//! - `GET    /api/admin/audit?after=N`: the audit log after row N;
//! - `GET    /api/admin/reports?after=N`: the open reports after number N;
//! - `POST   /api/admin/reports/{n}/close`: `{"reason"}` closes one;
//! - `POST   /api/games/{id}/reports`: `{"reason"}`, by any player who
//!   may see the game.
//!
//! The first administrators are named by `warboard serve --admin NAME`:
//! the server makes them administrators when it starts, or when they sign
//! up later.


use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::{AppState, StrictJson};
use crate::auth::{Authed, MaybeAuthed};
use crate::error::ApiError;
use crate::store::{Account, AuditAction, AuditRow, ReportRow};

/// The longest reason, in characters (a report's or an administrator's).
pub const MAX_REASON: usize = 1000;
/// Reports one account may file within [`REPORT_WINDOW_MS`].
pub const REPORTS_PER_WINDOW: i64 = 5;
pub const REPORT_WINDOW_MS: i64 = 3600 * 1000;
/// Rows a list answers with at once; the next page starts `after` the last.
pub const PAGE: i64 = 100;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/bans", post(ban))
        .route("/api/admin/bans/{name}", delete(unban))
        .route("/api/admin/admins", post(grant))
        .route("/api/admin/admins/{name}", delete(revoke))
        .route("/api/admin/audit", get(audit))
        .route("/api/admin/reports", get(reports))
        .route("/api/admin/reports/{n}/close", post(close_report))
        .route("/api/games/{id}/reports", post(file_report))
}

/// Whether the account is banned now (the database's word, so a ban made
/// on another server counts): for connections that outlive their check at
/// sign-in.
pub async fn check_not_banned(state: &AppState, account_id: &str) -> Result<(), ApiError> {
    match state.store.account(account_id).await? {
        Some(account) if !account.banned => Ok(()),
        _ => Err(banned()),
    }
}

/// The refusal every route and message gives a banned account.
pub fn banned() -> ApiError {
    ApiError::forbidden("auth/banned", "this account is banned")
}

/// An administrator's request.
pub struct Admin(pub Account);

impl FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Admin, ApiError> {
        let authed = Authed::from_request_parts(parts, state).await?;
        if !state.store.is_admin(&authed.account.id).await? {
            return Err(ApiError::forbidden("admin/not-admin", "only an administrator may do this"));
        }
        Ok(Admin(authed.account))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountAndReason {
    account: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reason {
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct After {
    #[serde(default)]
    after: Option<i64>,
}

/// A reason as it is kept: trimmed, at most [`MAX_REASON`] characters, line
/// breaks but no other control characters. `area` prefixes the codes
/// (`admin`, `report`).
fn reason(text: &str, area: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::bad_request(format!("{area}/empty-reason"), "give a reason"));
    }
    if text.chars().count() > MAX_REASON {
        return Err(ApiError::bad_request(format!("{area}/reason-too-long"), format!("a reason is at most {MAX_REASON} characters")));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(ApiError::bad_request(format!("{area}/bad-reason"), "a reason may hold line breaks but no other control characters"));
    }
    Ok(text.to_string())
}

/// The account an administrator names.
async fn named(state: &AppState, name: &str) -> Result<Account, ApiError> {
    state
        .store
        .account_by_name(name)
        .await?
        .ok_or_else(|| ApiError::not_found("auth/unknown-account", format!("there is no account `{name}`")))
}

fn audit_json(row: &AuditRow) -> Value {
    let mut entry = json!({
        "n": row.n,
        "at": row.at,
        // `null`: the server itself (an account named by `--admin`).
        "by": row.actor_name,
        "action": row.action.as_str(),
        "reason": row.reason,
    });
    match row.action {
        AuditAction::CloseReport => entry["report"] = json!(row.target.parse::<i64>().ok()),
        _ => entry["account"] = json!(row.target_name),
    }
    entry
}

fn report_json(row: &ReportRow) -> Value {
    json!({"n": row.n, "game": row.game_id, "by": row.reporter_name, "reason": row.reason, "at": row.created_at, "open": row.open})
}

/// The answer to an audited change: its audit row.
fn audited(status: StatusCode, row: &AuditRow) -> Response {
    (status, Json(json!({"audit": audit_json(row)}))).into_response()
}

/// `POST /api/admin/bans`
async fn ban(
    State(state): State<AppState>,
    Admin(admin): Admin,
    StrictJson(req): StrictJson<AccountAndReason>,
) -> Result<Response, ApiError> {
    let why = reason(&req.reason, "admin")?;
    let target = named(&state, &req.account).await?;
    if target.id == admin.id {
        return Err(ApiError::conflict("admin/cannot-ban-self", "an administrator cannot ban themselves"));
    }
    if state.store.is_admin(&target.id).await? {
        return Err(ApiError::conflict("admin/cannot-ban-admin", format!("`{}` is an administrator: revoke that first", target.name)));
    }
    if target.banned {
        return Err(ApiError::conflict("admin/already-banned", format!("`{}` is banned already", target.name)));
    }
    let row = state.store.ban(&admin.id, &target.id, &why, state.clock.now_ms()).await?.ok_or_else(|| changed_meanwhile(&target.name))?;
    tracing::info!(by = %admin.name, account = %target.name, "banned");
    let _ = state.bans.send(target.id);
    Ok(audited(StatusCode::CREATED, &row))
}

/// `DELETE /api/admin/bans/{name}`
async fn unban(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(name): Path<String>,
    StrictJson(req): StrictJson<Reason>,
) -> Result<Response, ApiError> {
    let why = reason(&req.reason, "admin")?;
    let target = named(&state, &name).await?;
    if !target.banned {
        return Err(ApiError::conflict("admin/not-banned", format!("`{}` is not banned", target.name)));
    }
    let row = state.store.unban(&admin.id, &target.id, &why, state.clock.now_ms()).await?.ok_or_else(|| changed_meanwhile(&target.name))?;
    tracing::info!(by = %admin.name, account = %target.name, "unbanned");
    Ok(audited(StatusCode::OK, &row))
}

/// `POST /api/admin/admins`
async fn grant(
    State(state): State<AppState>,
    Admin(admin): Admin,
    StrictJson(req): StrictJson<AccountAndReason>,
) -> Result<Response, ApiError> {
    let why = reason(&req.reason, "admin")?;
    let target = named(&state, &req.account).await?;
    if target.banned {
        return Err(ApiError::conflict("admin/target-banned", format!("`{}` is banned: unban it first", target.name)));
    }
    if state.store.is_admin(&target.id).await? {
        return Err(ApiError::conflict("admin/already-admin", format!("`{}` is an administrator already", target.name)));
    }
    let row = state
        .store
        .grant_admin(Some(&admin.id), &target.id, &why, state.clock.now_ms())
        .await?
        .ok_or_else(|| changed_meanwhile(&target.name))?;
    Ok(audited(StatusCode::CREATED, &row))
}

/// `DELETE /api/admin/admins/{name}`
async fn revoke(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(name): Path<String>,
    StrictJson(req): StrictJson<Reason>,
) -> Result<Response, ApiError> {
    let why = reason(&req.reason, "admin")?;
    let target = named(&state, &name).await?;
    // So that the last administrator cannot leave the server without one.
    if target.id == admin.id {
        return Err(ApiError::conflict("admin/cannot-revoke-self", "an administrator cannot revoke themselves: ask another"));
    }
    if !state.store.is_admin(&target.id).await? {
        return Err(ApiError::conflict("admin/was-not-admin", format!("`{}` is not an administrator", target.name)));
    }
    let row = state
        .store
        .revoke_admin(&admin.id, &target.id, &why, state.clock.now_ms())
        .await?
        .ok_or_else(|| changed_meanwhile(&target.name))?;
    Ok(audited(StatusCode::OK, &row))
}

/// Another administrator changed the account between the check and the change.
fn changed_meanwhile(name: &str) -> ApiError {
    ApiError::conflict("admin/changed-meanwhile", format!("`{name}` was changed meanwhile: look again"))
}

/// The query's `after`, a number.
fn after_of(uri: &axum::http::Uri) -> Result<i64, ApiError> {
    let Query(q) = Query::<After>::try_from_uri(uri).map_err(|e| ApiError::bad_request("request/bad-field", e.body_text()))?;
    Ok(q.after.unwrap_or(0))
}

/// `GET /api/admin/audit?after=N`: `{"entries":[…]}`, in order, a page at a time.
async fn audit(State(state): State<AppState>, _admin: Admin, uri: axum::http::Uri) -> Result<Json<Value>, ApiError> {
    let rows = state.store.audit(after_of(&uri)?, PAGE).await?;
    Ok(Json(json!({"entries": rows.iter().map(audit_json).collect::<Vec<_>>()})))
}

/// `GET /api/admin/reports?after=N`: the open reports, oldest first.
async fn reports(State(state): State<AppState>, _admin: Admin, uri: axum::http::Uri) -> Result<Json<Value>, ApiError> {
    let rows = state.store.open_reports(after_of(&uri)?, PAGE).await?;
    Ok(Json(json!({"reports": rows.iter().map(report_json).collect::<Vec<_>>()})))
}

/// `POST /api/admin/reports/{n}/close`
async fn close_report(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(n): Path<String>,
    StrictJson(req): StrictJson<Reason>,
) -> Result<Response, ApiError> {
    let why = reason(&req.reason, "admin")?;
    let unknown = || ApiError::not_found("report/unknown", format!("there is no report {n}"));
    let number: i64 = n.parse().map_err(|_| unknown())?;
    let report = state.store.report(number).await?.ok_or_else(unknown)?;
    let closed = || ApiError::conflict("report/closed", format!("report {number} is closed already"));
    if !report.open {
        return Err(closed());
    }
    let row = state.store.close_report(&admin.id, number, &why, state.clock.now_ms()).await?.ok_or_else(closed)?;
    Ok(audited(StatusCode::OK, &row))
}

/// `POST /api/games/{id}/reports`: a player reports a game it may see.
async fn file_report(
    State(state): State<AppState>,
    authed: Authed,
    Path(id): Path<String>,
    StrictJson(req): StrictJson<Reason>,
) -> Result<Response, ApiError> {
    let why = reason(&req.reason, "report")?;
    let me = authed.account.id.clone();
    crate::lobby::visible(&state, &MaybeAuthed(Some(authed)), &id).await?;
    let now = state.clock.now_ms();
    if state.store.reports_filed_since(&me, now - REPORT_WINDOW_MS).await? >= REPORTS_PER_WINDOW {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "report/too-many",
            format!("at most {REPORTS_PER_WINDOW} reports an hour: an administrator reads the ones filed"),
        ));
    }
    let row = state.store.file_report(&id, &me, &why, now).await.map_err(|e| match e {
        crate::store::StoreError::Conflict(_) => {
            ApiError::conflict("report/duplicate", "this account has reported this game already; an administrator will read it")
        }
        other => other.into(),
    })?;
    // The reporter is not told the report's number: numbers tell how many there are.
    Ok((StatusCode::CREATED, Json(json!({"report": {"game": row.game_id, "reason": row.reason, "at": row.created_at, "open": true}})))
        .into_response())
}

/// Makes the accounts `--admin` names administrators (those that exist;
/// the others when they sign up): at the server's start.
pub async fn grant_named_admins(state: &AppState) -> Result<(), String> {
    for name in &state.config.admins {
        match state.store.account_by_name(name).await.map_err(|e| e.to_string())? {
            Some(account) => grant_if_named(state, &account).await.map_err(|e| e.message)?,
            None => tracing::info!(account = %name, "--admin names no account yet: it becomes an administrator when it signs up"),
        }
    }
    Ok(())
}

/// The server's own grant, where `--admin` names the account and it is not
/// an administrator yet (a banned one is left as it is, and said so): at
/// the start, and when a named account signs up.
pub async fn grant_if_named(state: &AppState, account: &Account) -> Result<(), ApiError> {
    let key = account.name.to_lowercase();
    if !state.config.admins.iter().any(|n| n.to_lowercase() == key) {
        return Ok(());
    }
    if account.banned {
        tracing::warn!(account = %account.name, "--admin names a banned account: it is not made an administrator");
        return Ok(());
    }
    let reason = "named by `warboard serve --admin`";
    if state.store.grant_admin(None, &account.id, reason, state.clock.now_ms()).await?.is_some() {
        tracing::info!(account = %account.name, "made an administrator (--admin)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_trimmed_and_checked() {
        assert_eq!(reason("  cheating\n", "report").unwrap(), "cheating");
        assert_eq!(reason(" \n ", "report").unwrap_err().code, "report/empty-reason");
        assert_eq!(reason(&"x".repeat(MAX_REASON + 1), "admin").unwrap_err().code, "admin/reason-too-long");
        assert_eq!(reason("a\u{7}b", "admin").unwrap_err().code, "admin/bad-reason");
        assert!(reason(&"ü".repeat(MAX_REASON), "report").is_ok(), "characters, not bytes, are counted");
    }
}
