//! The storage layer on SQLite (a fresh file per test) and, when
//! `WARBOARD_TEST_POSTGRES` names a database, on PostgreSQL (a fresh schema
//! per test), through the same test bodies.

use std::future::Future;
use std::path::PathBuf;

use sqlx::Row;
use warboard_server::store::{new_id, Account, Append, Backend, GameStatus, NewGame, SeatKind, SeatRow, Store, StoreError, TokenKind};

const POSTGRES_VAR: &str = "WARBOARD_TEST_POSTGRES";

/// A database file in the temp directory, removed (with its WAL files) on drop.
struct TempSqlite {
    path: PathBuf,
}

impl TempSqlite {
    fn new() -> TempSqlite {
        let name = format!("warboard-store-{}.db", new_id().expect("id"));
        TempSqlite { path: std::env::temp_dir().join(name) }
    }

    fn url(&self) -> String {
        format!("sqlite://{}", self.path.display())
    }
}

impl Drop for TempSqlite {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut path = self.path.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Runs `body` on a fresh SQLite store, then on a fresh PostgreSQL schema if
/// the environment names a server; says so loudly when it doesn't.
async fn on_each_backend<F, Fut>(test: &str, body: F)
where
    F: Fn(Store) -> Fut,
    Fut: Future<Output = ()>,
{
    let file = TempSqlite::new();
    let store = Store::open(&file.url()).await.expect("open SQLite");
    assert_eq!(store.backend(), Backend::Sqlite);
    body(store.clone()).await;
    store.close().await;

    match std::env::var(POSTGRES_VAR) {
        Ok(url) if !url.is_empty() => {
            let store = Store::open_fresh_postgres_schema(&url).await.expect("open PostgreSQL");
            assert_eq!(store.backend(), Backend::Postgres);
            body(store.clone()).await;
            store.drop_fresh_schema().await.expect("drop the test schema");
        }
        _ => eprintln!("{test}: skipped on PostgreSQL: {POSTGRES_VAR} is unset"),
    }
}

async fn account(store: &Store, name: &str) -> Account {
    store.create_account(name, "argon2-hash", 1_000).await.expect("create account")
}

fn seat(power: &str, kind: SeatKind, account_id: Option<&str>) -> SeatRow {
    SeatRow {
        power: power.to_string(),
        kind,
        account_id: account_id.map(str::to_string),
        think_ms: if kind == SeatKind::Computer { 500 } else { 0 },
    }
}

fn new_game(creator: &Account, public: bool, created_at: i64) -> NewGame {
    NewGame {
        id: new_id().expect("id"),
        ruleset: "revised".to_string(),
        options_json: r#"{"bids":false}"#.to_string(),
        start_json: r#"{"seed":"secret"}"#.to_string(),
        created_by: creator.id.clone(),
        created_at,
        public,
        seats: vec![
            seat("Russia", SeatKind::Open, None),
            seat("Germany", SeatKind::Account, Some(&creator.id)),
            seat("UK", SeatKind::Open, None),
            seat("Japan", SeatKind::Computer, None),
            seat("USA", SeatKind::Open, None),
        ],
    }
}

async fn game_of(store: &Store, creator: &Account) -> NewGame {
    let game = new_game(creator, true, 2_000);
    store.create_game(&game).await.expect("create game");
    game
}

fn entry(game_id: &str, seq: i64, client_id: Option<&str>) -> Append {
    Append {
        game_id: game_id.to_string(),
        seq,
        entry_json: format!(r#"{{"n":{seq}}}"#),
        client_id: client_id.map(str::to_string),
        account_id: None,
        state_hash: format!("hash-{seq}"),
        created_at: 10_000 + seq,
        actor: Some(format!("power-{seq}")),
        status: GameStatus::Playing,
        winner: None,
    }
}

fn seqs(rows: &[warboard_server::store::LogRow]) -> Vec<i64> {
    rows.iter().map(|row| row.seq).collect()
}

#[tokio::test]
async fn migrations_run_twice_harmlessly() {
    let file = TempSqlite::new();
    assert!(!file.path.exists());
    let first = Store::open(&file.url()).await.expect("first open creates the file");
    assert!(file.path.exists());
    let alice = account(&first, "Alice").await;
    // A second server process (or a restart) on the same file migrates again.
    let second = Store::open(&file.url()).await.expect("second open");
    assert_eq!(second.account(&alice.id).await.expect("read"), Some(alice.clone()));
    first.close().await;
    second.close().await;
    let third = Store::open(&file.url()).await.expect("reopen");
    assert_eq!(third.account_by_name("alice").await.expect("read"), Some(alice));
    third.close().await;

    on_each_backend("migrations_run_twice_harmlessly", |store| async move {
        let bob = account(&store, "Bob").await;
        store.migrate().await.expect("migrate again");
        store.migrate().await.expect("and again");
        assert_eq!(store.account(&bob.id).await.expect("read"), Some(bob));
    })
    .await;
}

#[tokio::test]
async fn sqlite_connections_use_wal_and_full_sync() {
    let file = TempSqlite::new();
    let store = Store::open(&file.url()).await.expect("open");
    // Hold several connections at once so more than one gets checked.
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut conn = store.pool().acquire().await.expect("connection");
        let journal: String =
            sqlx::query("PRAGMA journal_mode").fetch_one(&mut *conn).await.expect("journal_mode").try_get(0).expect("text");
        assert_eq!(journal.to_lowercase(), "wal");
        let synchronous: i64 = sqlx::query_scalar("PRAGMA synchronous").fetch_one(&mut *conn).await.expect("synchronous");
        assert_eq!(synchronous, 2, "FULL");
        let foreign_keys: i64 = sqlx::query_scalar("PRAGMA foreign_keys").fetch_one(&mut *conn).await.expect("foreign_keys");
        assert_eq!(foreign_keys, 1);
        let busy: i64 = sqlx::query_scalar("PRAGMA busy_timeout").fetch_one(&mut *conn).await.expect("busy_timeout");
        assert_eq!(busy, 5_000);
        held.push(conn);
    }
    drop(held);
    store.close().await;
}

#[tokio::test]
async fn account_names_conflict_regardless_of_case() {
    on_each_backend("account_names_conflict_regardless_of_case", |store| async move {
        let alice = account(&store, "Alice").await;
        assert_eq!(alice.id.len(), 32);
        assert_eq!((alice.failed_signins, alice.locked_until, alice.banned), (0, 0, false));

        let clash = store.create_account("aLICE", "other", 1_001).await;
        assert!(matches!(clash, Err(StoreError::Conflict(_))), "{clash:?}");
        assert_eq!(clash.err().map(|e| e.code()), Some("store/conflict"));

        let found = store.account_by_name("ALICE").await.expect("read");
        assert_eq!(found.as_ref().map(|a| a.name.as_str()), Some("Alice"));
        assert_eq!(found, Some(alice.clone()));
        assert_eq!(store.account(&alice.id).await.expect("read"), Some(alice));
        assert_eq!(store.account_by_name("bob").await.expect("read"), None);
        assert_eq!(store.account("no-such-id").await.expect("read"), None);
    })
    .await;
}

#[tokio::test]
async fn failed_signins_lock_the_account() {
    on_each_backend("failed_signins_lock_the_account", |store| async move {
        let alice = account(&store, "Alice").await;
        let read = |store: Store, id: String| async move {
            let a = store.account(&id).await.expect("read").expect("exists");
            (a.failed_signins, a.locked_until)
        };

        store.note_failed_signin(&alice.id, 5_000, 3, 60_000).await.expect("fail 1");
        store.note_failed_signin(&alice.id, 5_001, 3, 60_000).await.expect("fail 2");
        assert_eq!(read(store.clone(), alice.id.clone()).await, (2, 0));
        store.note_failed_signin(&alice.id, 5_002, 3, 60_000).await.expect("fail 3");
        assert_eq!(read(store.clone(), alice.id.clone()).await, (0, 65_002));

        store.note_failed_signin(&alice.id, 70_000, 3, 60_000).await.expect("fail 4");
        assert_eq!(read(store.clone(), alice.id.clone()).await, (1, 65_002));
        store.note_signin(&alice.id).await.expect("sign in");
        assert_eq!(read(store.clone(), alice.id.clone()).await, (0, 65_002));

        let unknown = store.note_failed_signin("no-such-id", 1, 3, 1).await;
        assert!(matches!(unknown, Err(StoreError::NotFound)), "{unknown:?}");
        let unknown = store.note_signin("no-such-id").await;
        assert!(matches!(unknown, Err(StoreError::NotFound)), "{unknown:?}");
    })
    .await;
}

#[tokio::test]
async fn tokens_expire_and_can_be_deleted() {
    on_each_backend("tokens_expire_and_can_be_deleted", |store| async move {
        let alice = account(&store, "Alice").await;
        store.create_token("session-hash", &alice.id, TokenKind::Session, None, 100, Some(1_000)).await.expect("session");
        store.create_token("api-hash", &alice.id, TokenKind::Api, Some("my bot"), 200, None).await.expect("api token");

        let at = |now| {
            let store = store.clone();
            async move { store.account_for_token("session-hash", now).await.expect("read") }
        };
        assert_eq!(at(999).await, Some((alice.clone(), TokenKind::Session)));
        assert_eq!(at(1_000).await, None, "expired at expires_at");
        assert_eq!(store.account_for_token("api-hash", i64::MAX).await.expect("read"), Some((alice.clone(), TokenKind::Api)), "no expiry");
        assert_eq!(store.account_for_token("unknown", 0).await.expect("read"), None);

        let api = store.api_tokens(&alice.id).await.expect("list");
        assert_eq!(api.len(), 1, "sessions aren't listed");
        assert_eq!(api[0].token_hash, "api-hash");
        assert_eq!(api[0].label.as_deref(), Some("my bot"));
        assert_eq!((api[0].kind, api[0].created_at, api[0].expires_at), (TokenKind::Api, 200, None));

        let again = store.create_token("api-hash", &alice.id, TokenKind::Api, None, 300, None).await;
        assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
        let orphan = store.create_token("x", "no-such-id", TokenKind::Api, None, 300, None).await;
        assert!(matches!(orphan, Err(StoreError::NotFound)), "{orphan:?}");

        store.delete_token("api-hash").await.expect("delete");
        assert_eq!(store.account_for_token("api-hash", 0).await.expect("read"), None);
        assert!(store.api_tokens(&alice.id).await.expect("list").is_empty());
        store.delete_token("api-hash").await.expect("deleting twice is fine");
    })
    .await;
}

#[tokio::test]
async fn games_keep_their_seats_in_order() {
    on_each_backend("games_keep_their_seats_in_order", |store| async move {
        let alice = account(&store, "Alice").await;
        let game = game_of(&store, &alice).await;

        let row = store.game(&game.id).await.expect("read").expect("exists");
        assert_eq!(row.id, game.id);
        assert_eq!(row.ruleset, "revised");
        assert_eq!(row.options_json, game.options_json);
        assert_eq!(row.start_json, game.start_json);
        assert_eq!((row.created_by.as_str(), row.created_at, row.public), (alice.id.as_str(), 2_000, true));
        assert_eq!((row.status, row.seq, row.actor, row.winner), (GameStatus::Open, 0, None, None));
        assert_eq!(store.seats(&game.id).await.expect("seats"), game.seats);
        assert_eq!(store.game("no-such-game").await.expect("read"), None);

        let same_id = store.create_game(&game).await;
        assert!(matches!(same_id, Err(StoreError::Conflict(_))), "{same_id:?}");

        // A bad seat list leaves no half-made game behind.
        let mut twice = new_game(&alice, true, 3_000);
        twice.seats.push(seat("Russia", SeatKind::Open, None));
        let result = store.create_game(&twice).await;
        assert!(matches!(result, Err(StoreError::Conflict(_))), "{result:?}");
        assert_eq!(store.game(&twice.id).await.expect("read"), None);
        assert!(store.seats(&twice.id).await.expect("seats").is_empty());

        let mut stranger = new_game(&alice, true, 3_000);
        stranger.seats[0] = seat("Russia", SeatKind::Account, Some("no-such-account"));
        let result = store.create_game(&stranger).await;
        assert!(matches!(result, Err(StoreError::NotFound)), "{result:?}");
        assert_eq!(store.game(&stranger.id).await.expect("read"), None);

        store.set_status(&game.id, GameStatus::Over).await.expect("status");
        let row = store.game(&game.id).await.expect("read").expect("exists");
        assert_eq!(row.status, GameStatus::Over);
        let missing = store.set_status("no-such-game", GameStatus::Over).await;
        assert!(matches!(missing, Err(StoreError::NotFound)), "{missing:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_of_two_takers_gets_the_seat() {
    on_each_backend("one_of_two_takers_gets_the_seat", |store| async move {
        let alice = account(&store, "Alice").await;
        let bob = account(&store, "Bob").await;
        let carol = account(&store, "Carol").await;
        let game = game_of(&store, &alice).await;

        let take = |who: &Account| {
            let (store, game_id, who) = (store.clone(), game.id.clone(), who.id.clone());
            tokio::spawn(async move { store.take_seat(&game_id, "Russia", &who).await })
        };
        let (by_bob, by_carol) = (take(&bob), take(&carol));
        let by_bob = by_bob.await.expect("task");
        let by_carol = by_carol.await.expect("task");
        let winner = match (&by_bob, &by_carol) {
            (Ok(()), Err(StoreError::Conflict(_))) => &bob,
            (Err(StoreError::Conflict(_)), Ok(())) => &carol,
            other => panic!("exactly one taker must win: {other:?}"),
        };
        let loser = if winner.id == bob.id { &carol } else { &bob };
        let seats = store.seats(&game.id).await.expect("seats");
        assert_eq!(seats[0], seat("Russia", SeatKind::Account, Some(&winner.id)));

        // Computer and held seats can't be taken; unknown ones aren't there.
        let computer = store.take_seat(&game.id, "Japan", &loser.id).await;
        assert!(matches!(computer, Err(StoreError::Conflict(_))), "{computer:?}");
        let nowhere = store.take_seat(&game.id, "Atlantis", &loser.id).await;
        assert!(matches!(nowhere, Err(StoreError::NotFound)), "{nowhere:?}");

        // Only the holder may leave.
        let not_theirs = store.leave_seat(&game.id, "Russia", &loser.id).await;
        assert!(matches!(not_theirs, Err(StoreError::Conflict(_))), "{not_theirs:?}");
        store.leave_seat(&game.id, "Russia", &winner.id).await.expect("leave");
        assert_eq!(store.seats(&game.id).await.expect("seats")[0], seat("Russia", SeatKind::Open, None));
        let twice = store.leave_seat(&game.id, "Russia", &winner.id).await;
        assert!(matches!(twice, Err(StoreError::Conflict(_))), "{twice:?}");

        // Once the game starts, seats are fixed.
        store.take_seat(&game.id, "UK", &loser.id).await.expect("take UK");
        store.set_status(&game.id, GameStatus::Playing).await.expect("start");
        let late = store.take_seat(&game.id, "Russia", &winner.id).await;
        assert!(matches!(late, Err(StoreError::Conflict(_))), "{late:?}");
        let leave = store.leave_seat(&game.id, "UK", &loser.id).await;
        assert!(matches!(leave, Err(StoreError::Conflict(_))), "{leave:?}");
        assert_eq!(store.seats(&game.id).await.expect("seats")[2], seat("UK", SeatKind::Account, Some(&loser.id)));
    })
    .await;
}

#[tokio::test]
async fn game_lists() {
    on_each_backend("game_lists", |store| async move {
        let alice = account(&store, "Alice").await;
        let bob = account(&store, "Bob").await;
        let carol = account(&store, "Carol").await;

        let open_public = new_game(&alice, true, 1_000);
        let open_private = new_game(&alice, false, 2_000);
        let playing = new_game(&alice, true, 3_000);
        let over = new_game(&bob, true, 4_000);
        let newer_open = new_game(&bob, true, 5_000);
        for game in [&open_public, &open_private, &playing, &over, &newer_open] {
            store.create_game(game).await.expect("create");
        }
        store.take_seat(&playing.id, "Russia", &carol.id).await.expect("take");
        store.take_seat(&over.id, "USA", &carol.id).await.expect("take");
        store.set_status(&playing.id, GameStatus::Playing).await.expect("status");
        store.set_status(&over.id, GameStatus::Over).await.expect("status");

        let ids = |rows: Vec<warboard_server::store::GameRow>| -> Vec<String> { rows.into_iter().map(|g| g.id).collect() };
        assert_eq!(
            ids(store.open_games(10).await.expect("open")),
            vec![newer_open.id.clone(), open_public.id.clone()],
            "public open games, newest first"
        );
        assert_eq!(ids(store.open_games(1).await.expect("open")), vec![newer_open.id.clone()]);

        assert_eq!(
            ids(store.games_of(&alice.id, 10).await.expect("mine")),
            vec![playing.id.clone(), open_private.id.clone(), open_public.id.clone()]
        );
        // Bob created two and holds Germany in them (the creator's seat).
        assert_eq!(ids(store.games_of(&bob.id, 10).await.expect("mine")), vec![newer_open.id.clone(), over.id.clone()]);
        assert_eq!(
            ids(store.games_of(&carol.id, 10).await.expect("mine")),
            vec![over.id.clone(), playing.id.clone()],
            "seated, not creator"
        );
        assert_eq!(store.games_of(&carol.id, 1).await.expect("mine").len(), 1);

        assert_eq!(store.count_active_games_of(&alice.id).await.expect("count"), 3);
        assert_eq!(store.count_active_games_of(&bob.id).await.expect("count"), 1);
        assert_eq!(store.count_active_games_of(&carol.id).await.expect("count"), 0);
    })
    .await;
}

#[tokio::test]
async fn appends_go_in_order_and_stale_ones_change_nothing() {
    on_each_backend("appends_go_in_order_and_stale_ones_change_nothing", |store| async move {
        let alice = account(&store, "Alice").await;
        let game = game_of(&store, &alice).await;

        for seq in 0..3 {
            store.append(&entry(&game.id, seq, None)).await.expect("append");
        }
        let mut last = entry(&game.id, 3, Some("c-3"));
        last.account_id = Some(alice.id.clone());
        last.status = GameStatus::Over;
        last.actor = None;
        last.winner = Some("Axis".to_string());
        store.append(&last).await.expect("append the last");

        let before = store.game(&game.id).await.expect("read").expect("exists");
        assert_eq!(before.seq, 4);
        assert_eq!((before.status, before.actor.as_deref(), before.winner.as_deref()), (GameStatus::Over, None, Some("Axis")));
        let log = store.entries(&game.id, 0).await.expect("entries");
        assert_eq!(seqs(&log), vec![0, 1, 2, 3]);

        for wrong in [0, 3, 5, -1] {
            let result = store.append(&entry(&game.id, wrong, None)).await;
            assert!(matches!(result, Err(StoreError::Stale)), "seq {wrong}: {result:?}");
            assert_eq!(result.err().map(|e| e.code()), Some("game/stale"));
        }
        assert_eq!(store.game(&game.id).await.expect("read").expect("exists"), before);
        assert_eq!(store.entries(&game.id, 0).await.expect("entries"), log);

        let nowhere = store.append(&entry("no-such-game", 0, None)).await;
        assert!(matches!(nowhere, Err(StoreError::NotFound)), "{nowhere:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_a_hundred_racing_appends_exactly_one_wins() {
    on_each_backend("of_a_hundred_racing_appends_exactly_one_wins", |store| async move {
        let alice = account(&store, "Alice").await;
        let game = game_of(&store, &alice).await;
        store.append(&entry(&game.id, 0, None)).await.expect("first");

        let tasks: Vec<_> = (0..100)
            .map(|n| {
                let store = store.clone();
                let mut racer = entry(&game.id, 1, Some(&format!("racer-{n}")));
                racer.entry_json = format!(r#"{{"racer":{n}}}"#);
                tokio::spawn(async move { store.append(&racer).await })
            })
            .collect();
        let (mut won, mut stale) = (Vec::new(), 0);
        for (n, task) in tasks.into_iter().enumerate() {
            match task.await.expect("task") {
                Ok(()) => won.push(n),
                Err(StoreError::Stale) => stale += 1,
                Err(other) => panic!("racer {n}: {other:?}"),
            }
        }
        assert_eq!((won.len(), stale), (1, 99), "winners: {won:?}");

        let log = store.entries(&game.id, 0).await.expect("entries");
        assert_eq!(seqs(&log), vec![0, 1]);
        assert_eq!(log[1].entry_json, format!(r#"{{"racer":{}}}"#, won[0]));
        assert_eq!(log[1].client_id, Some(format!("racer-{}", won[0])));
        assert_eq!(store.game(&game.id).await.expect("read").expect("exists").seq, 2);
    })
    .await;
}

#[tokio::test]
async fn client_ids_are_recorded_once_per_game() {
    on_each_backend("client_ids_are_recorded_once_per_game", |store| async move {
        let alice = account(&store, "Alice").await;
        let game = game_of(&store, &alice).await;
        let other = game_of(&store, &alice).await;

        store.append(&entry(&game.id, 0, Some("click-1"))).await.expect("append");
        // A retry of the same action (same seq) and a reuse at the next seq.
        for seq in [0, 1] {
            let result = store.append(&entry(&game.id, seq, Some("click-1"))).await;
            assert!(matches!(result, Err(StoreError::DuplicateClientId)), "seq {seq}: {result:?}");
            assert_eq!(result.err().map(|e| e.code()), Some("game/duplicate-client-id"));
        }
        assert_eq!(store.seq_for_client_id(&game.id, "click-1").await.expect("read"), Some(0));
        assert_eq!(store.seq_for_client_id(&game.id, "click-2").await.expect("read"), None);
        assert_eq!(store.game(&game.id).await.expect("read").expect("exists").seq, 1);

        // Entries without a client id (the computer's) never clash.
        store.append(&entry(&game.id, 1, None)).await.expect("no id");
        store.append(&entry(&game.id, 2, None)).await.expect("no id again");
        // Client ids are per game.
        store.append(&entry(&other.id, 0, Some("click-1"))).await.expect("other game");
        assert_eq!(store.seq_for_client_id(&other.id, "click-1").await.expect("read"), Some(0));
    })
    .await;
}

#[tokio::test]
async fn entries_from_a_seq() {
    on_each_backend("entries_from_a_seq", |store| async move {
        let alice = account(&store, "Alice").await;
        let game = game_of(&store, &alice).await;
        for seq in 0..5 {
            let mut next = entry(&game.id, seq, Some(&format!("c{seq}")));
            next.account_id = (seq % 2 == 0).then(|| alice.id.clone());
            store.append(&next).await.expect("append");
        }

        let tail = store.entries(&game.id, 3).await.expect("entries");
        assert_eq!(seqs(&tail), vec![3, 4]);
        assert_eq!(tail[0].entry_json, r#"{"n":3}"#);
        assert_eq!(tail[0].client_id.as_deref(), Some("c3"));
        assert_eq!(tail[0].account_id, None);
        assert_eq!(tail[1].account_id.as_deref(), Some(alice.id.as_str()));
        assert_eq!((tail[1].state_hash.as_str(), tail[1].created_at), ("hash-4", 10_004));

        assert_eq!(seqs(&store.entries(&game.id, 0).await.expect("all")), vec![0, 1, 2, 3, 4]);
        assert!(store.entries(&game.id, 5).await.expect("none").is_empty());
        assert!(store.entries("no-such-game", 0).await.expect("none").is_empty());
    })
    .await;
}

#[tokio::test]
async fn undo_removes_only_the_expected_last_entry() {
    on_each_backend("undo_removes_only_the_expected_last_entry", |store| async move {
        let alice = account(&store, "Alice").await;
        let game = game_of(&store, &alice).await;
        let nothing = store.undo_last(&game.id, 0).await;
        assert!(matches!(nothing, Err(StoreError::Stale)), "{nothing:?}");
        for seq in 0..3 {
            store.append(&entry(&game.id, seq, Some(&format!("c{seq}")))).await.expect("append");
        }

        for wrong in [2, 4] {
            let result = store.undo_last(&game.id, wrong).await;
            assert!(matches!(result, Err(StoreError::Stale)), "count {wrong}: {result:?}");
        }
        assert_eq!(seqs(&store.entries(&game.id, 0).await.expect("entries")), vec![0, 1, 2]);

        store.undo_last(&game.id, 3).await.expect("undo");
        assert_eq!(seqs(&store.entries(&game.id, 0).await.expect("entries")), vec![0, 1]);
        assert_eq!(store.game(&game.id).await.expect("read").expect("exists").seq, 2);
        let again = store.undo_last(&game.id, 3).await;
        assert!(matches!(again, Err(StoreError::Stale)), "{again:?}");

        // The undone entry's seq and client id are free again.
        assert_eq!(store.seq_for_client_id(&game.id, "c2").await.expect("read"), None);
        store.append(&entry(&game.id, 2, Some("c2"))).await.expect("append after undo");
        assert_eq!(store.game(&game.id).await.expect("read").expect("exists").seq, 3);

        let missing = store.undo_last("no-such-game", 1).await;
        assert!(matches!(missing, Err(StoreError::Stale)), "{missing:?}");
    })
    .await;
}

#[test]
fn error_codes_are_stable() {
    let codes: Vec<&str> = [
        StoreError::Conflict("x".into()),
        StoreError::Stale,
        StoreError::DuplicateClientId,
        StoreError::NotFound,
        StoreError::Database("x".into()),
    ]
    .iter()
    .map(StoreError::code)
    .collect();
    assert_eq!(codes, ["store/conflict", "game/stale", "game/duplicate-client-id", "store/not-found", "store/database"]);
}
