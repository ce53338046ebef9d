//! One error shape for every route and message: a stable code and a
//! sentence (the engine protocol's and the rules' codes where they apply,
//! `auth/…` for accounts and seats).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::store::StoreError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: String,
    pub message: String,
    /// What a rule's refusal names (spaces, unit types, powers, numbers),
    /// so a page in another language can word it from its code.
    pub args: Option<serde_json::Map<String, serde_json::Value>>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError { status, code: code.into(), message: message.into(), args: None }
    }
    pub fn bad_request(code: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "auth/required", message)
    }
    pub fn forbidden(code: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }
    pub fn not_found(code: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, code, message)
    }
    pub fn conflict(code: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }
    /// No game of this id (or none this account may see: told alike).
    pub fn unknown_game(id: &str) -> ApiError {
        ApiError::not_found("game/unknown", format!("there is no game `{id}`"))
    }
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "server/internal", message)
    }
    /// The error's fields, as HTTP bodies and WebSocket replies both carry
    /// them: `code`, `message`, and `args` where a refusal names things.
    pub fn fields(&self) -> serde_json::Value {
        let mut error = json!({"code": self.code, "message": self.message});
        if let Some(args) = &self.args {
            error["args"] = serde_json::Value::Object(args.clone());
        }
        error
    }

    /// The error as the JSON body every route answers with.
    pub fn body(&self) -> serde_json::Value {
        json!({ "error": self.fields() })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        let status = match e {
            StoreError::Conflict(_) | StoreError::Stale | StoreError::DuplicateClientId => StatusCode::CONFLICT,
            StoreError::NotFound => StatusCode::NOT_FOUND,
            StoreError::Database(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(error = %e, "database error");
            return ApiError::new(status, e.code(), "the database failed; nothing was changed: try again");
        }
        ApiError::new(status, e.code(), e.to_string())
    }
}
