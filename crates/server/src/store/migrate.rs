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

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::AnyPool;

use super::StoreError;

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
];

#[derive(Debug)]
struct Embedded;

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(self) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 's>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(version, Cow::Borrowed(description), MigrationType::Simple, Cow::Borrowed(sql), false)
                })
                .collect())
        })
    }
}

/// Applies whatever migrations the database lacks; harmless when it has them all.
pub(crate) async fn run(pool: &AnyPool) -> Result<(), StoreError> {
    let migrator = Migrator::new(Embedded).await?;
    migrator.run(pool).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::MIGRATIONS;

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
}
