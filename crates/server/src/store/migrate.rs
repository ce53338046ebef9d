//! Schema migrations, embedded in the binary.
//!
//! sqlx's own `Migrator` runs them (it works through the Any driver: it
//! delegates to the SQLite or PostgreSQL implementation, which keeps the
//! `_sqlx_migrations` table and, on PostgreSQL, takes an advisory lock so two
//! servers starting together don't both migrate). The files are embedded with
//! `include_str!` instead of `sqlx::migrate!` so the crate needn't build
//! sqlx's proc-macro crate, and a deployed server never reads `migrations/`
//! from disk. A new migration is a new file in `crates/server/migrations/`
//! plus one line in [`MIGRATIONS`]; a unit test below checks the two agree.
//!
//! A file is SQL both databases run, except where the two cannot share a
//! statement (a trigger: SQLite's body is SQL, PostgreSQL's a function): a
//! line `-- backend: sqlite` or `-- backend: postgres` starts lines only
//! that database runs, `-- backend: all` goes back to lines both run (see
//! [`for_backend`]). A database only ever sees its own backend's text, so
//! its checksum stays the same from start to start; a file without such
//! lines is run exactly as it is written.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::AnyPool;

use super::{Backend, StoreError};

/// (version, description, SQL). Versions only ever grow; an applied file must
/// never change, since sqlx refuses to start on a checksum mismatch.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "initial", include_str!("../../migrations/0001_initial.sql")),
    (2, "chat", include_str!("../../migrations/0002_chat.sql")),
    (3, "mail", include_str!("../../migrations/0003_mail.sql")),
    (4, "witness", include_str!("../../migrations/0004_witness.sql")),
    (5, "clock", include_str!("../../migrations/0005_clock.sql")),
    (6, "orders", include_str!("../../migrations/0006_orders.sql")),
    (7, "ladder", include_str!("../../migrations/0007_ladder.sql")),
    (8, "moderation", include_str!("../../migrations/0008_moderation.sql")),
    (9, "ladder_sides", include_str!("../../migrations/0009_ladder_sides.sql")),
    (10, "bids", include_str!("../../migrations/0010_bids.sql")),
    (11, "abandon", include_str!("../../migrations/0011_abandon.sql")),
];

/// The line that starts the lines of one backend, or (`all`) of both.
const BACKEND_MARK: &str = "-- backend:";

#[derive(Debug)]
struct Embedded(Backend);

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(self) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 's>> {
        Box::pin(async move {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(version, Cow::Borrowed(description), MigrationType::Simple, for_backend(sql, self.0), false)
                })
                .collect())
        })
    }
}

/// The lines of `sql` that `backend` runs: those outside any backend's
/// part and those in its own; the marks themselves stay, as comments.
/// Text without marks comes back untouched (the checksums of migrations
/// applied before marks existed must not change).
fn for_backend(sql: &'static str, backend: Backend) -> Cow<'static, str> {
    if !sql.lines().any(|line| line.trim_start().starts_with(BACKEND_MARK)) {
        return Cow::Borrowed(sql);
    }
    let mine = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    let mut keep = true;
    let mut out = String::with_capacity(sql.len());
    for line in sql.split_inclusive('\n') {
        if let Some(part) = line.trim_start().strip_prefix(BACKEND_MARK) {
            let part = part.trim();
            keep = part == "all" || part == mine;
            out.push_str(line);
        } else if keep {
            out.push_str(line);
        }
    }
    Cow::Owned(out)
}

/// Applies whatever migrations the database lacks; harmless when it has them all.
pub(crate) async fn run(pool: &AnyPool, backend: Backend) -> Result<(), StoreError> {
    let migrator = Migrator::new(Embedded(backend)).await?;
    migrator.run(pool).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{for_backend, Backend, BACKEND_MARK, MIGRATIONS};

    #[test]
    fn every_migration_file_is_embedded_in_order() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("migrations directory")
            .map(|entry| entry.expect("directory entry").file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".sql"))
            .collect();
        files.sort();
        assert_eq!(files.len(), MIGRATIONS.len(), "files in {dir:?}: {files:?}");
        for (file, &(version, description, sql)) in files.iter().zip(MIGRATIONS) {
            assert_eq!(*file, format!("{version:04}_{description}.sql"));
            let on_disk = std::fs::read_to_string(dir.join(file)).expect("migration file");
            assert_eq!(on_disk, sql, "{file} differs from the embedded copy");
        }
        let versions: Vec<i64> = MIGRATIONS.iter().map(|m| m.0).collect();
        assert!(versions.windows(2).all(|w| w[0] < w[1]), "versions must increase");
    }

    #[test]
    fn each_backend_runs_the_shared_lines_and_its_own() {
        let sql = "CREATE TABLE t (x BIGINT);\n-- backend: sqlite\nSQLITE ONLY;\n-- backend: postgres\nPOSTGRES ONLY;\n-- backend: all\nBOTH;\n";
        let sqlite = for_backend(sql, Backend::Sqlite);
        let postgres = for_backend(sql, Backend::Postgres);
        assert!(sqlite.contains("SQLITE ONLY") && !sqlite.contains("POSTGRES ONLY") && sqlite.contains("BOTH"), "{sqlite}");
        assert!(postgres.contains("POSTGRES ONLY") && !postgres.contains("SQLITE ONLY") && postgres.contains("BOTH"), "{postgres}");
        assert!(sqlite.starts_with("CREATE TABLE t") && postgres.starts_with("CREATE TABLE t"));
    }

    #[test]
    fn migrations_without_marks_run_as_written() {
        for &(version, _, sql) in MIGRATIONS {
            if !sql.contains(BACKEND_MARK) {
                for backend in [Backend::Sqlite, Backend::Postgres] {
                    assert!(matches!(for_backend(sql, backend), std::borrow::Cow::Borrowed(s) if s == sql), "migration {version}");
                }
            }
        }
    }
}
