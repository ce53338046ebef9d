//! Games and their seats.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::error::conflict_if_unique;
use super::{Store, StoreError};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// Waiting for players to fill the open seats.
    Open,
    Playing,
    Over,
}

impl GameStatus {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Playing => "playing",
            GameStatus::Over => "over",
        }
    }

    fn parse(text: &str) -> Result<GameStatus, StoreError> {
        match text {
            "open" => Ok(GameStatus::Open),
            "playing" => Ok(GameStatus::Playing),
            "over" => Ok(GameStatus::Over),
            other => Err(StoreError::Database(format!("unknown game status {other:?}"))),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// Anyone may take it while the game is open.
    Open,
    /// Held by `account_id`.
    Account,
    Computer,
}

impl SeatKind {
    fn as_str(self) -> &'static str {
        match self {
            SeatKind::Open => "open",
            SeatKind::Account => "account",
            SeatKind::Computer => "computer",
        }
    }

    fn parse(text: &str) -> Result<SeatKind, StoreError> {
        match text {
            "open" => Ok(SeatKind::Open),
            "account" => Ok(SeatKind::Account),
            "computer" => Ok(SeatKind::Computer),
            other => Err(StoreError::Database(format!("unknown seat kind {other:?}"))),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    pub power: String,
    pub kind: SeatKind,
    /// Set exactly when `kind` is `Account` (the schema enforces it).
    pub account_id: Option<String>,
    /// How long the computer thinks per decision; meaningful for `Computer`.
    pub think_ms: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub id: String,
    pub ruleset: String,
    pub options_json: String,
    /// Secret: holds the dice seed.
    pub start_json: String,
    pub created_by: String,
    pub created_at: i64,
    pub public: bool,
    /// In the order the game lists them; [`Store::seats`] returns this order.
    pub seats: Vec<SeatRow>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub ruleset: String,
    pub options_json: String,
    /// Secret: holds the dice seed.
    pub start_json: String,
    pub created_by: String,
    pub created_at: i64,
    pub public: bool,
    pub status: GameStatus,
    /// Log entries appended so far: the `seq` the next append must carry.
    pub seq: i64,
    /// The power whose decision the game waits for, for game lists.
    pub actor: Option<String>,
    pub winner: Option<String>,
}

const GAME_COLUMNS: &str = "games.id, games.ruleset, games.options_json, games.start_json, \
     games.created_by, games.created_at, games.is_public, games.status, games.seq, \
     games.actor, games.winner";

fn game_from_row(row: &AnyRow) -> Result<GameRow, StoreError> {
    Ok(GameRow {
        id: row.try_get("id")?,
        ruleset: row.try_get("ruleset")?,
        options_json: row.try_get("options_json")?,
        start_json: row.try_get("start_json")?,
        created_by: row.try_get("created_by")?,
        created_at: row.try_get("created_at")?,
        public: row.try_get::<i64, _>("is_public")? != 0,
        status: GameStatus::parse(&row.try_get::<String, _>("status")?)?,
        seq: row.try_get("seq")?,
        actor: row.try_get("actor")?,
        winner: row.try_get("winner")?,
    })
}

fn seat_from_row(row: &AnyRow) -> Result<SeatRow, StoreError> {
    Ok(SeatRow {
        power: row.try_get("power")?,
        kind: SeatKind::parse(&row.try_get::<String, _>("kind")?)?,
        account_id: row.try_get("account_id")?,
        think_ms: row.try_get("think_ms")?,
    })
}

impl Store {
    /// Records a new, open game and its seats, all or nothing. `Conflict` if
    /// the id is taken or a power is listed twice; `NotFound` if an account
    /// named in it doesn't exist.
    pub async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        self.create_game_with_clock(game, None).await
    }

    /// [`Store::create_game`], with a correspondence clock where `clock`
    /// says: the game and its clock are recorded together or not at all.
    pub async fn create_game_with_clock(&self, game: &NewGame, clock: Option<super::ClockSettings>) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert_game(&mut tx, game, clock).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await?;
        row.as_ref().map(game_from_row).transpose()
    }

    /// The game's seats in the order they were created with.
    pub async fn seats(&self, game_id: &str) -> Result<Vec<SeatRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT power, kind, account_id, think_ms FROM seats \
             WHERE game_id = $1 ORDER BY ordinal",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(seat_from_row).collect()
    }

    /// The seats of several games with the names of the accounts holding
    /// them, in one query (game lists show a hundred games at once), each
    /// game's seats in their order.
    pub async fn seats_named(&self, game_ids: &[String]) -> Result<std::collections::HashMap<String, Vec<(SeatRow, Option<String>)>>, StoreError> {
        let mut out: std::collections::HashMap<String, Vec<(SeatRow, Option<String>)>> = std::collections::HashMap::new();
        if game_ids.is_empty() {
            return Ok(out);
        }
        let placeholders: Vec<String> = (1..=game_ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT seats.game_id, seats.power, seats.kind, seats.account_id, seats.think_ms, accounts.name AS holder \
             FROM seats LEFT JOIN accounts ON accounts.id = seats.account_id \
             WHERE seats.game_id IN ({}) ORDER BY seats.game_id, seats.ordinal",
            placeholders.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for id in game_ids {
            query = query.bind(id);
        }
        for row in query.fetch_all(&self.pool).await? {
            let game: String = row.try_get("game_id")?;
            let holder: Option<String> = row.try_get("holder")?;
            out.entry(game).or_default().push((seat_from_row(&row)?, holder));
        }
        Ok(out)
    }

    /// Gives the open seat to the account. One guarded UPDATE, so of two
    /// players racing for a seat exactly one gets it; the other gets
    /// `Conflict`, as does anyone once the game has started. `NotFound` if
    /// there is no such seat.
    pub async fn take_seat(&self, game_id: &str, power: &str, account_id: &str) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE seats SET kind = 'account', account_id = $3 \
             WHERE game_id = $1 AND power = $2 AND kind = 'open' \
               AND EXISTS (SELECT 1 FROM games WHERE games.id = $1 AND games.status = 'open')",
        )
        .bind(game_id)
        .bind(power)
        .bind(account_id)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 1 {
            return Ok(());
        }
        self.explain_unchanged_seat(game_id, power, "the seat is taken or the game has started").await
    }

    /// Opens the seat again; only its holder may, and only before the game starts.
    pub async fn leave_seat(&self, game_id: &str, power: &str, account_id: &str) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE seats SET kind = 'open', account_id = NULL \
             WHERE game_id = $1 AND power = $2 AND kind = 'account' AND account_id = $3 \
               AND EXISTS (SELECT 1 FROM games WHERE games.id = $1 AND games.status = 'open')",
        )
        .bind(game_id)
        .bind(power)
        .bind(account_id)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 1 {
            return Ok(());
        }
        self.explain_unchanged_seat(game_id, power, "the seat isn't yours or the game has started").await
    }

    /// Why a guarded seat update changed nothing: the seat doesn't exist
    /// (`NotFound`) or the guard refused (`Conflict`).
    async fn explain_unchanged_seat(&self, game_id: &str, power: &str, refusal: &str) -> Result<(), StoreError> {
        let exists = sqlx::query("SELECT 1 FROM seats WHERE game_id = $1 AND power = $2")
            .bind(game_id)
            .bind(power)
            .fetch_optional(&self.pool)
            .await?
            .is_some();
        if exists {
            Err(StoreError::Conflict(refusal.to_string()))
        } else {
            Err(StoreError::NotFound)
        }
    }

    pub async fn set_status(&self, game_id: &str, status: GameStatus) -> Result<(), StoreError> {
        let done =
            sqlx::query("UPDATE games SET status = $2 WHERE id = $1").bind(game_id).bind(status.as_str()).execute(&self.pool).await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Whose decision the game waits for, for game lists: set when the game
    /// starts and after an undo (appends set it themselves).
    pub async fn set_actor(&self, game_id: &str, actor: Option<&str>) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE games SET actor = $2 WHERE id = $1").bind(game_id).bind(actor).execute(&self.pool).await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Public games waiting for players, newest first; a game whose seats
    /// wait for its bid (src/bids.rs) is no one else's to join.
    pub async fn open_games(&self, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status = 'open' AND is_public = 1 \
               AND NOT EXISTS (SELECT 1 FROM bids WHERE bids.game_id = games.id) \
             ORDER BY created_at DESC, id LIMIT $1"
        );
        let rows = sqlx::query(&sql).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(game_from_row).collect()
    }

    /// Games the account created, bids in (src/bids.rs) or holds a seat in
    /// (or the computer holds its seats for it, src/correspondence.rs),
    /// newest first.
    pub async fn games_of(&self, account_id: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games \
             WHERE games.created_by = $1 \
                OR games.id IN (SELECT seats.game_id FROM seats WHERE seats.account_id = $1) \
                OR games.id IN (SELECT bids.game_id FROM bids WHERE bids.account_id = $1) \
                OR games.id IN (SELECT clock_takeovers.game_id FROM clock_takeovers WHERE clock_takeovers.account_id = $1) \
             ORDER BY created_at DESC, id LIMIT $2"
        );
        let rows = sqlx::query(&sql).bind(account_id).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(game_from_row).collect()
    }

    /// Games the account created that aren't over, for a per-account limit.
    pub async fn count_active_games_of(&self, account_id: &str) -> Result<i64, StoreError> {
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE created_by = $1 AND status <> 'over'")
            .bind(account_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(count)
    }
}

/// Records a new, open game, its seats and its clock, in the caller's
/// transaction (a game with a bid records its bidders in the same one:
/// src/store/bids.rs).
pub(super) async fn insert_game(
    tx: &mut Transaction<'_, Any>,
    game: &NewGame,
    clock: Option<super::ClockSettings>,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO games (id, ruleset, options_json, start_json, created_by, created_at, \
                            is_public, status, seq) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0)",
    )
    .bind(&game.id)
    .bind(&game.ruleset)
    .bind(&game.options_json)
    .bind(&game.start_json)
    .bind(&game.created_by)
    .bind(game.created_at)
    .bind(i64::from(game.public))
    .bind(GameStatus::Open.as_str())
    .execute(&mut **tx)
    .await
    .map_err(|e| conflict_if_unique(e, "a game with this id exists"))?;
    for (ordinal, seat) in game.seats.iter().enumerate() {
        sqlx::query(
            "INSERT INTO seats (game_id, ordinal, power, kind, account_id, think_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&game.id)
        .bind(ordinal as i64)
        .bind(&seat.power)
        .bind(seat.kind.as_str())
        .bind(seat.account_id.as_deref())
        .bind(seat.think_ms)
        .execute(&mut **tx)
        .await
        .map_err(|e| conflict_if_unique(e, "a power is seated twice"))?;
    }
    if let Some(clock) = clock {
        sqlx::query("INSERT INTO game_clocks (game_id, move_days, vacation_days) VALUES ($1, $2, $3)")
            .bind(&game.id)
            .bind(clock.move_days)
            .bind(clock.vacation_days)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
