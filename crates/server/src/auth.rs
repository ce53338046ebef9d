//! Accounts: sign up, sign in, sign out, API tokens for bots, and the
//! extractor that says who a request comes from.
//!
//! Passwords are hashed with Argon2id (its default parameters: 19 MiB,
//! two passes) on the blocking pool, never on the async threads. A session
//! or API token is 256 random bits; only its SHA-256 is stored, so a copy of
//! the database opens no account.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::{FromRequestParts, State};
use axum::http::header::{AUTHORIZATION, COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::app::{AppState, StrictJson};
use crate::error::ApiError;
use crate::store::{Account, StoreError, TokenKind};

/// The session cookie's name.
pub const COOKIE_NAME: &str = "wb_session";
/// How long a sign-in lasts.
const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;
/// Failed sign-ins in a row after which an account is locked for a while:
/// enough for typos, too few for guessing.
const LOCK_AFTER: i64 = 5;
const LOCK_MS: i64 = 15 * 60 * 1000;
const NAME_MAX: usize = 32;
const PASSWORD_MIN: usize = 8;
/// Argon2 hashes whatever it is given: a bound keeps one request cheap.
const PASSWORD_MAX: usize = 1024;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    #[serde(default)]
    label: Option<String>,
}

/// The account a request comes from, by its session cookie or an
/// `Authorization: Bearer` API token.
pub struct Authed {
    pub account: Account,
    token_hash: String,
}

impl FromRequestParts<AppState> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Authed, ApiError> {
        let token = token_of(&parts.headers).ok_or_else(|| ApiError::unauthorized("sign in first (no session cookie or API token)"))?;
        account_for(state, &token).await
    }
}

/// The account behind a raw token, refused if unknown, expired or banned.
pub async fn account_for(state: &AppState, token: &str) -> Result<Authed, ApiError> {
    let token_hash = hash_token(token);
    let (account, _) = state
        .store
        .account_for_token(&token_hash, state.clock.now_ms())
        .await?
        .ok_or_else(|| ApiError::unauthorized("the session has ended or the token is unknown: sign in again"))?;
    if account.banned {
        return Err(ApiError::forbidden("auth/banned", "this account is banned"));
    }
    Ok(Authed { account, token_hash })
}

/// The token a request carries: a bearer token first (bots), else the cookie.
pub fn token_of(headers: &HeaderMap) -> Option<String> {
    if let Some(bearer) = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")) {
        return Some(bearer.trim().to_string());
    }
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(COOKIE_NAME).and_then(|rest| rest.strip_prefix('=')))
        .map(str::to_string)
}

pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 256 random bits from the operating system, as 64 hex digits.
fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("no randomness from the operating system: {e}")))?;
    Ok(hex(&bytes))
}

fn check_name(name: &str) -> Result<(), ApiError> {
    let ok = (3..=NAME_MAX).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad_request("auth/bad-name", format!("a name is 3 to {NAME_MAX} letters, digits, `_` or `-`")))
    }
}

fn check_password(password: &str) -> Result<(), ApiError> {
    if password.chars().count() < PASSWORD_MIN || password.len() > PASSWORD_MAX {
        return Err(ApiError::bad_request(
            "auth/bad-password",
            format!("a password has at least {PASSWORD_MIN} characters (and at most {PASSWORD_MAX} bytes)"),
        ));
    }
    Ok(())
}

/// Password hashes computed at once: each takes 19 MiB and a core for tens
/// of milliseconds, so a burst of sign-ups queues here instead of filling
/// the blocking pool (and memory) with hashes.
static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Argon2id on the blocking pool.
async fn hash_password(password: String) -> Result<String, ApiError> {
    let _permit = HASHING.acquire().await.map_err(|e| ApiError::internal(e.to_string()))?;
    tokio::task::spawn_blocking(move || {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|e| ApiError::internal(format!("no randomness from the operating system: {e}")))?;
        let salt = SaltString::encode_b64(&salt).map_err(|e| ApiError::internal(e.to_string()))?;
        Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| ApiError::internal(e.to_string()))
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?
}

async fn verify_password(password: String, phc: String) -> bool {
    let Ok(_permit) = HASHING.acquire().await else { return false };
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&phc).is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
    })
    .await
    .unwrap_or(false)
}

/// A new session for `account`, as the cookie that carries it.
async fn start_session(state: &AppState, account: &Account) -> Result<(String, HeaderValue), ApiError> {
    let token = new_token()?;
    let now = state.clock.now_ms();
    state.store.create_token(&hash_token(&token), &account.id, TokenKind::Session, None, now, Some(now + SESSION_MS)).await?;
    let secure = if state.config.secure_cookies { "; Secure" } else { "" };
    let cookie = format!("{COOKIE_NAME}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}", SESSION_MS / 1000);
    let value = HeaderValue::from_str(&cookie).map_err(|e| ApiError::internal(e.to_string()))?;
    Ok((token, value))
}

fn account_json(account: &Account) -> serde_json::Value {
    json!({"id": account.id, "name": account.name})
}

/// `POST /api/signup`
pub async fn sign_up(State(state): State<AppState>, StrictJson(c): StrictJson<Credentials>) -> Result<Response, ApiError> {
    check_name(&c.name)?;
    check_password(&c.password)?;
    let hash = hash_password(c.password).await?;
    let account = state.store.create_account(&c.name, &hash, state.clock.now_ms()).await.map_err(|e| match e {
        StoreError::Conflict(_) => ApiError::conflict("auth/name-taken", format!("the name `{}` is taken", c.name)),
        other => other.into(),
    })?;
    crate::moderation::grant_if_named(&state, &account).await?;
    let (token, cookie) = start_session(&state, &account).await?;
    Ok((StatusCode::CREATED, [(SET_COOKIE, cookie)], Json(json!({"account": account_json(&account), "token": token}))).into_response())
}

/// `POST /api/signin`
pub async fn sign_in(State(state): State<AppState>, StrictJson(c): StrictJson<Credentials>) -> Result<Response, ApiError> {
    let refused = || ApiError::unauthorized("the name or the password is wrong");
    let account = state.store.account_by_name(&c.name).await?;
    let Some(account) = account else {
        // The same work as a real check, so that timing tells no names.
        let _ = verify_password(c.password, "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA".into()).await;
        return Err(refused());
    };
    let now = state.clock.now_ms();
    if account.locked_until > now {
        let minutes = (account.locked_until - now + 59_999) / 60_000;
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "auth/locked",
            format!("too many failed sign-ins: try again in {minutes} minute(s)"),
        ));
    }
    if account.banned {
        return Err(ApiError::forbidden("auth/banned", "this account is banned"));
    }
    if c.password.len() > PASSWORD_MAX || !verify_password(c.password, account.password_hash.clone()).await {
        state.store.note_failed_signin(&account.id, now, LOCK_AFTER, LOCK_MS).await?;
        return Err(refused());
    }
    state.store.note_signin(&account.id).await?;
    let (token, cookie) = start_session(&state, &account).await?;
    Ok(([(SET_COOKIE, cookie)], Json(json!({"account": account_json(&account), "token": token}))).into_response())
}

/// `POST /api/signout`: ends this session (or revokes this API token).
pub async fn sign_out(State(state): State<AppState>, authed: Authed) -> Result<Response, ApiError> {
    state.store.delete_token(&authed.token_hash).await?;
    let gone = HeaderValue::from_static("wb_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    Ok((StatusCode::NO_CONTENT, [(SET_COOKIE, gone)]).into_response())
}

/// `GET /api/me`
pub async fn me(authed: Authed) -> Json<serde_json::Value> {
    Json(json!({"account": account_json(&authed.account)}))
}

/// `POST /api/tokens`: a token for a bot, shown once.
pub async fn new_api_token(State(state): State<AppState>, authed: Authed, StrictJson(t): StrictJson<NewToken>) -> Result<Response, ApiError> {
    if t.label.as_ref().is_some_and(|l| l.len() > 100) {
        return Err(ApiError::bad_request("request/bad-field", "a token's label is at most 100 bytes"));
    }
    let token = new_token()?;
    let now = state.clock.now_ms();
    state.store.create_token(&hash_token(&token), &authed.account.id, TokenKind::Api, t.label.as_deref(), now, None).await?;
    Ok((StatusCode::CREATED, Json(json!({"token": token}))).into_response())
}

/// The account a request comes from, if it carries a session or token
/// (watching a public game needs none). A token that is present but
/// invalid is refused rather than taken for nobody.
pub struct MaybeAuthed(pub Option<Authed>);

impl FromRequestParts<AppState> for MaybeAuthed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<MaybeAuthed, ApiError> {
        match token_of(&parts.headers) {
            None => Ok(MaybeAuthed(None)),
            Some(token) => Ok(MaybeAuthed(Some(account_for(state, &token).await?))),
        }
    }
}
