//! What can go wrong in the store, with codes stable enough for clients.

use sqlx::error::ErrorKind;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row would clash with one that exists (a taken name, an occupied seat).
    #[error("conflict: {0}")]
    Conflict(String),
    /// The caller's view of a game's log is out of date: someone else appended
    /// or undid first. The caller should reload and retry.
    #[error("the game has moved on: reload and retry")]
    Stale,
    /// The client already submitted an action with this id to this game.
    #[error("an action with this client id was already recorded")]
    DuplicateClientId,
    #[error("not found")]
    NotFound,
    #[error("database error: {0}")]
    Database(String),
}

impl StoreError {
    /// A code that clients and logs may match on; it never changes with wording.
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::Conflict(_) => "store/conflict",
            StoreError::Stale => "game/stale",
            StoreError::DuplicateClientId => "game/duplicate-client-id",
            StoreError::NotFound => "store/not-found",
            StoreError::Database(_) => "store/database",
        }
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        match error {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            // A missing referenced row (an unknown account or game) is the
            // caller naming something that isn't there.
            sqlx::Error::Database(ref db) if db.kind() == ErrorKind::ForeignKeyViolation => StoreError::NotFound,
            other => StoreError::Database(other.to_string()),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> Self {
        StoreError::Database(format!("migration failed: {error}"))
    }
}

/// Whether the database refused a row for breaking a PRIMARY KEY or UNIQUE
/// constraint. Both drivers report the kind from the error code, so no message
/// text is inspected.
pub(crate) fn is_unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.is_unique_violation())
}

/// Maps a unique violation to `Conflict(what)` and anything else as usual.
pub(crate) fn conflict_if_unique(error: sqlx::Error, what: &str) -> StoreError {
    if is_unique_violation(&error) {
        StoreError::Conflict(what.to_string())
    } else {
        StoreError::from(error)
    }
}
