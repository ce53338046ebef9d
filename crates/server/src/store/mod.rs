//! Durable state of the server: accounts, tokens, games, seats and each game's
//! log, in SQLite or PostgreSQL through one set of queries and migrations.
//!
//! Everything goes through sqlx's Any driver, so the SQL here is the common
//! ground of both databases: `$1`-style placeholders, TEXT ids made in Rust,
//! BIGINT unix milliseconds supplied by the caller (the store never reads the
//! clock, so the server can inject one), BIGINT 0/1 for flags.

mod accounts;
mod bids;
mod chat;
mod clock;
mod error;
mod games;
mod ladder;
mod log;
mod mail;
mod migrate;
mod moderation;
mod orders;
mod tokens;
mod witness;

use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::Connection as _;
use sqlx::{AnyConnection, AnyPool};

pub use accounts::Account;
pub use bids::{BidLock, BidRow};
pub use chat::ChatRow;
pub use clock::{
    ClockRow, ClockSettings, EventKind, EventRow, NewEvent, ReclaimOutcome, TakeoverRow, VacationOutcome, VacationRow, Wait, WaitStage,
    DAY_MS, MAX_VACATION_DAYS, MOVE_DAYS,
};
pub use error::StoreError;
pub use games::{GameRow, GameStatus, NewGame, SeatKind, SeatRow};
pub use ladder::RatedRow;
pub use log::{Append, LogRow, CHANNEL};
pub use mail::MailSettings;
pub use moderation::{AuditAction, AuditRow, ReportRow};
pub use tokens::{TokenKind, TokenRow};
pub use witness::{WitnessHead, WitnessReceipt};

/// How long a connection waits on another's lock before giving up. SQLite
/// allows one writer at a time; a short wait turns contention into queueing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Which database a [`Store`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A handle to the database; cheap to clone (it shares one pool).
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// Set by [`Store::open_fresh_postgres_schema`]: (base URL, schema name),
    /// so [`Store::drop_fresh_schema`] can clean up.
    fresh_schema: Option<(String, String)>,
    /// The URL it was opened with (for SQLite, as completed here).
    url: String,
}

impl Store {
    /// Connects to `sqlite://path` (the file is created if missing) or
    /// `postgres://…`, and brings the schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = backend_of(url)?;
        let (url, options) = match backend {
            Backend::Sqlite => (sqlite_url(url), sqlite_pool_options()),
            Backend::Postgres => (url.to_string(), AnyPoolOptions::new()),
        };
        let pool = options.connect(&url).await?;
        let store = Store { pool, backend, fresh_schema: None, url };
        store.migrate().await?;
        Ok(store)
    }

    /// Opens PostgreSQL in a new schema with a random name, migrated and
    /// empty, so tests running side by side in one database never meet.
    pub async fn open_fresh_postgres_schema(base_url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        if backend_of(base_url)? != Backend::Postgres {
            return Err(StoreError::Database(format!("not a PostgreSQL URL: {}", redact(base_url))));
        }
        // Hex only, so the name needs no quoting rules beyond the quotes.
        let schema = format!("wb_{}", new_id()?);
        let mut conn = AnyConnection::connect(base_url).await?;
        sqlx::query(&format!("CREATE SCHEMA \"{schema}\"")).execute(&mut conn).await?;
        conn.close().await?;
        let mut store = Store::in_schema(base_url, &schema).await?;
        store.fresh_schema = Some((base_url.to_string(), schema));
        store.migrate().await?;
        Ok(store)
    }

    /// Another store on the same database and schema, as a second server
    /// process would open it (tests of several servers on one database).
    /// Dropping it leaves the schema alone.
    pub async fn open_again(&self) -> Result<Store, StoreError> {
        match &self.fresh_schema {
            Some((base, schema)) => Store::in_schema(base, schema).await,
            None => Store::open(&self.url).await,
        }
    }

    /// The database's URL (PostgreSQL's listener connects with it).
    pub fn url(&self) -> &str {
        &self.url
    }

    async fn in_schema(base_url: &str, schema: &str) -> Result<Store, StoreError> {

        // Every pooled connection, whenever it is opened, must see only the
        // new schema: a hook rather than URL options, which would have to be
        // merged into whatever query string the base URL already has.
        let search_path = format!("SET search_path TO \"{schema}\"");
        let pool = AnyPoolOptions::new()
            .after_connect(move |conn, _meta| {
                let search_path = search_path.clone();
                Box::pin(async move {
                    sqlx::query(&search_path).execute(conn).await?;
                    Ok(())
                })
            })
            .connect(base_url)
            .await?;
        Ok(Store { pool, backend: Backend::Postgres, fresh_schema: None, url: base_url.to_string() })
    }

    /// Closes the pool and drops the schema made by
    /// [`Store::open_fresh_postgres_schema`]; does nothing for other stores.
    pub async fn drop_fresh_schema(self) -> Result<(), StoreError> {
        self.pool.close().await;
        if let Some((base_url, schema)) = self.fresh_schema {
            let mut conn = AnyConnection::connect(&base_url).await?;
            sqlx::query(&format!("DROP SCHEMA \"{schema}\" CASCADE")).execute(&mut conn).await?;
            conn.close().await?;
        }
        Ok(())
    }

    /// Applies any migrations the database lacks. [`Store::open`] already
    /// does; calling it again is harmless.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        migrate::run(&self.pool, self.backend).await
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The pool, for the rare query that has no method here yet.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Waits for the connections to close; later calls on clones fail.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// A fresh id: 32 lowercase hex digits (128 bits) from the operating system's
/// random source. Ids are made in Rust because the two databases spell
/// autoincrement differently, and random ids don't reveal how many exist.
pub fn new_id() -> Result<String, StoreError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| StoreError::Database(format!("no randomness for an id: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn backend_of(url: &str) -> Result<Backend, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(Backend::Sqlite)
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Ok(Backend::Postgres)
    } else {
        Err(StoreError::Database(format!("unsupported database URL (want sqlite:// or postgres://): {}", redact(url))))
    }
}

/// The URL with `mode=rwc` added, so a missing database file is created,
/// unless the caller chose a mode or an in-memory database.
fn sqlite_url(url: &str) -> String {
    if url.contains("mode=") || url.contains(":memory:") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    }
}

/// The Any driver takes only a URL, and sqlx's SQLite URLs can't set these
/// pragmas, so each new connection sets them itself.
fn sqlite_pool_options() -> AnyPoolOptions {
    AnyPoolOptions::new().after_connect(|conn, _meta| {
        Box::pin(async move {
            // First, so that switching to WAL waits out another connection's lock.
            sqlx::query(&format!("PRAGMA busy_timeout = {}", BUSY_TIMEOUT.as_millis())).execute(&mut *conn).await?;
            // WAL: readers don't block the writer. synchronous=FULL: a
            // committed log entry survives power loss, which is the point of
            // committing before acknowledging.
            sqlx::query("PRAGMA journal_mode = WAL").execute(&mut *conn).await?;
            sqlx::query("PRAGMA synchronous = FULL").execute(&mut *conn).await?;
            sqlx::query("PRAGMA foreign_keys = ON").execute(&mut *conn).await?;
            Ok(())
        })
    })
}

/// The URL without its password, for error messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            match userinfo.find(':') {
                Some(colon) => format!("{}{}:***{}", &url[..scheme_end + 3], &userinfo[..colon], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_32_hex_digits_and_differ() {
        let a = new_id().expect("id");
        let b = new_id().expect("id");
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(a, b);
    }

    #[test]
    fn sqlite_urls_get_create_mode() {
        assert_eq!(sqlite_url("sqlite://a.db"), "sqlite://a.db?mode=rwc");
        assert_eq!(sqlite_url("sqlite://a.db?cache=shared"), "sqlite://a.db?cache=shared&mode=rwc");
        assert_eq!(sqlite_url("sqlite://a.db?mode=ro"), "sqlite://a.db?mode=ro");
        assert_eq!(sqlite_url("sqlite::memory:"), "sqlite::memory:");
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(redact("postgres://u:secret@h/db"), "postgres://u:***@h/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
    }

    #[test]
    fn backends_from_scheme() {
        assert_eq!(backend_of("sqlite://x").ok(), Some(Backend::Sqlite));
        assert_eq!(backend_of("postgresql://x").ok(), Some(Backend::Postgres));
        assert!(backend_of("mysql://x").is_err());
    }
}
