//! Correspondence clocks (issue 31, migration 0005): each clocked game's
//! settings and the wait now running, each account's vacation, the seats
//! the computer took over, and the clock's events.
//!
//! Every change begins by updating the game's `game_clocks` row ([`lock`]):
//! on PostgreSQL that takes the row's lock, on SQLite the one write lock,
//! so changes to one game's clock happen one after another, each reading
//! the state it decides on with nobody changing it before it commits. A
//! reminder or an expiry is made by whichever server first finds it due;
//! the next one finds it made and does nothing.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{Store, StoreError};

pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// The times per move a game may be created with, in days.
pub const MOVE_DAYS: [i64; 7] = [1, 2, 3, 5, 7, 10, 14];
/// The most vacation days a game may give each account.
pub const MAX_VACATION_DAYS: i64 = 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSettings {
    pub move_days: i64,
    pub vacation_days: i64,
}

/// How far a wait has gone: in this order, each reached once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WaitStage {
    Running,
    /// Half the time is gone: the first reminder was made.
    Half,
    /// Nine tenths are gone: the second reminder was made.
    Late,
    Expired,
}

impl WaitStage {
    pub fn as_str(self) -> &'static str {
        match self {
            WaitStage::Running => "running",
            WaitStage::Half => "half",
            WaitStage::Late => "late",
            WaitStage::Expired => "expired",
        }
    }

    fn parse(text: &str) -> Result<WaitStage, StoreError> {
        match text {
            "running" => Ok(WaitStage::Running),
            "half" => Ok(WaitStage::Half),
            "late" => Ok(WaitStage::Late),
            "expired" => Ok(WaitStage::Expired),
            other => Err(StoreError::Database(format!("unknown wait stage {other:?}"))),
        }
    }
}

/// The game waiting on an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    pub account_id: String,
    pub started_at: i64,
    pub deadline: i64,
    pub stage: WaitStage,
}

impl Wait {
    pub fn half_at(&self) -> i64 {
        self.started_at + (self.deadline - self.started_at) / 2
    }

    pub fn late_at(&self) -> i64 {
        self.started_at + (self.deadline - self.started_at) / 10 * 9
    }

    /// The furthest stage the wait has reached by `now`.
    pub fn due(&self, now: i64) -> WaitStage {
        if now >= self.deadline {
            WaitStage::Expired
        } else if now >= self.late_at() {
            WaitStage::Late
        } else if now >= self.half_at() {
            WaitStage::Half
        } else {
            WaitStage::Running
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockRow {
    pub game_id: String,
    pub settings: ClockSettings,
    /// The entry count the wait was worked out at.
    pub wait_seq: i64,
    /// The wait's number: each new wait gets the next.
    pub wait_n: i64,
    /// The power the game waits for (`None` once it is over).
    pub power: Option<String>,
    /// `None` while the game waits for a computer, an open seat or nobody.
    pub wait: Option<Wait>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VacationRow {
    pub account_id: String,
    pub name: String,
    pub days_left: i64,
    /// Taken while the game waited on someone else, for the next wait.
    pub banked_days: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeoverRow {
    pub power: String,
    pub account_id: String,
    pub name: String,
    pub taken_at: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    ReminderHalf,
    ReminderLate,
    Expired,
    Claimed,
    TakenOver,
    Reclaimed,
    Vacation,
}

impl EventKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::ReminderHalf => "reminder_half",
            EventKind::ReminderLate => "reminder_late",
            EventKind::Expired => "expired",
            EventKind::Claimed => "claimed",
            EventKind::TakenOver => "taken_over",
            EventKind::Reclaimed => "reclaimed",
            EventKind::Vacation => "vacation",
        }
    }
}

/// One event as read back, with the name of the account it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    pub n: i64,
    pub kind: String,
    pub account_id: Option<String>,
    pub account_name: Option<String>,
    pub power: Option<String>,
    pub at_ms: i64,
    pub detail_json: String,
}

/// An event to record.
pub struct NewEvent<'a> {
    pub kind: EventKind,
    pub account_id: Option<&'a str>,
    pub power: Option<&'a str>,
    pub at_ms: i64,
    pub detail: serde_json::Value,
}

/// What [`Store::take_vacation`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VacationOutcome {
    NoClock,
    /// Fewer days are left than were asked for; nothing changed.
    NotEnough {
        left: i64,
    },
    /// Taken: the days left after it, and the current wait's new deadline
    /// (`None`: the days wait for the account's next wait).
    Taken {
        event: EventRow,
        left: i64,
        deadline: Option<i64>,
    },
}

/// What [`Store::reclaim_seats`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReclaimOutcome {
    NoClock,
    /// The computer holds nobody's seats in this game.
    NothingTaken,
    /// It holds others' seats, not this account's.
    NotYours,
    Reclaimed {
        event: EventRow,
        powers: Vec<String>,
    },
}

const CLOCK_COLUMNS: &str = "game_clocks.game_id, game_clocks.move_days, game_clocks.vacation_days, game_clocks.wait_seq, \
     game_clocks.wait_n, game_clocks.wait_power, game_clocks.wait_account, game_clocks.wait_started, \
     game_clocks.wait_deadline, game_clocks.wait_stage";

fn clock_from_row(row: &AnyRow) -> Result<ClockRow, StoreError> {
    let account: Option<String> = row.try_get("wait_account")?;
    let started: Option<i64> = row.try_get("wait_started")?;
    let deadline: Option<i64> = row.try_get("wait_deadline")?;
    let stage = WaitStage::parse(&row.try_get::<String, _>("wait_stage")?)?;
    let wait = match (account, started, deadline) {
        (Some(account_id), Some(started_at), Some(deadline)) => Some(Wait { account_id, started_at, deadline, stage }),
        _ => None,
    };
    Ok(ClockRow {
        game_id: row.try_get("game_id")?,
        settings: ClockSettings { move_days: row.try_get("move_days")?, vacation_days: row.try_get("vacation_days")? },
        wait_seq: row.try_get("wait_seq")?,
        wait_n: row.try_get("wait_n")?,
        power: row.try_get("wait_power")?,
        wait,
    })
}

fn event_from_row(row: &AnyRow) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        n: row.try_get("n")?,
        kind: row.try_get("kind")?,
        account_id: row.try_get("account_id")?,
        account_name: row.try_get("name")?,
        power: row.try_get("power")?,
        at_ms: row.try_get("at_ms")?,
        detail_json: row.try_get("detail_json")?,
    })
}

/// `$1, $2, …` for `n` values.
fn placeholders(n: usize) -> String {
    (1..=n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

impl Store {
    /// The rows of `sql`, whose `{ids}` is replaced by one placeholder a
    /// game of `game_ids` (bound in order): several games' rows in one query.
    async fn rows_of_games(&self, sql: &str, game_ids: &[String]) -> Result<Vec<sqlx::any::AnyRow>, StoreError> {
        if game_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = sql.replace("{ids}", &placeholders(game_ids.len()));
        let mut query = sqlx::query(&sql);
        for id in game_ids {
            query = query.bind(id);
        }
        Ok(query.fetch_all(&self.pool).await?)
    }
}

/// Takes the game's clock row for the transaction (see the module's
/// comment); false where the game has no clock.
async fn lock(tx: &mut Transaction<'_, Any>, game_id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE game_clocks SET events = events WHERE game_id = $1").bind(game_id).execute(&mut **tx).await?;
    Ok(done.rows_affected() == 1)
}

async fn read_clock(tx: &mut Transaction<'_, Any>, game_id: &str) -> Result<ClockRow, StoreError> {
    let sql = format!("SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_clocks.game_id = $1");
    let row = sqlx::query(&sql).bind(game_id).fetch_one(&mut **tx).await?;
    clock_from_row(&row)
}

impl Store {
    /// The game's clock, if it has one.
    pub async fn clock(&self, game_id: &str) -> Result<Option<ClockRow>, StoreError> {
        let sql = format!("SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_clocks.game_id = $1");
        let row = sqlx::query(&sql).bind(game_id).fetch_optional(&self.pool).await?;
        row.as_ref().map(clock_from_row).transpose()
    }

    /// The clocks of several games (those that have one), in one query.
    pub async fn clocks(&self, game_ids: &[String]) -> Result<HashMap<String, ClockRow>, StoreError> {
        let sql = format!("SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_clocks.game_id IN ({{ids}})");
        let mut out = HashMap::new();
        for row in self.rows_of_games(&sql, game_ids).await? {
            let clock = clock_from_row(&row)?;
            out.insert(clock.game_id.clone(), clock);
        }
        Ok(out)
    }

    /// The vacation rows of several games (accounts that have taken none
    /// have none), with the accounts' names.
    pub async fn vacations(&self, game_ids: &[String]) -> Result<HashMap<String, Vec<VacationRow>>, StoreError> {
        let mut out: HashMap<String, Vec<VacationRow>> = HashMap::new();
        let sql = "SELECT clock_vacations.game_id, clock_vacations.account_id, accounts.name, clock_vacations.days_left, \
                    clock_vacations.banked_days \
             FROM clock_vacations JOIN accounts ON accounts.id = clock_vacations.account_id \
             WHERE clock_vacations.game_id IN ({ids}) ORDER BY accounts.name";
        for row in self.rows_of_games(sql, game_ids).await? {
            let game: String = row.try_get("game_id")?;
            out.entry(game).or_default().push(VacationRow {
                account_id: row.try_get("account_id")?,
                name: row.try_get("name")?,
                days_left: row.try_get("days_left")?,
                banked_days: row.try_get("banked_days")?,
            });
        }
        Ok(out)
    }

    /// The seats the computer took over in several games, with the names
    /// of the accounts they were taken from.
    pub async fn takeovers(&self, game_ids: &[String]) -> Result<HashMap<String, Vec<TakeoverRow>>, StoreError> {
        let mut out: HashMap<String, Vec<TakeoverRow>> = HashMap::new();
        let sql = "SELECT clock_takeovers.game_id, clock_takeovers.power, clock_takeovers.account_id, accounts.name, \
                    clock_takeovers.taken_at \
             FROM clock_takeovers JOIN accounts ON accounts.id = clock_takeovers.account_id \
             WHERE clock_takeovers.game_id IN ({ids}) ORDER BY clock_takeovers.power";
        for row in self.rows_of_games(sql, game_ids).await? {
            let game: String = row.try_get("game_id")?;
            out.entry(game).or_default().push(TakeoverRow {
                power: row.try_get("power")?,
                account_id: row.try_get("account_id")?,
                name: row.try_get("name")?,
                taken_at: row.try_get("taken_at")?,
            });
        }
        Ok(out)
    }

    /// Brings the game's wait up to date after its log reached `count`
    /// entries with `actor` (a power's id; `None`: the game is over) to
    /// act: where another account now holds the power, a new wait starts
    /// at `now`, with the move's days and any vacation that account banked
    /// for it. Nothing happens where the log has moved past `count` (the
    /// server that moved it follows it) or the game has no clock. The new
    /// wait, where one started.
    pub async fn follow_wait(&self, game_id: &str, count: i64, actor: Option<&str>, now: i64) -> Result<Option<Wait>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if !lock(&mut tx, game_id).await? {
            return Ok(None);
        }
        let seq: i64 = sqlx::query_scalar("SELECT seq FROM games WHERE id = $1").bind(game_id).fetch_one(&mut *tx).await?;
        if seq != count {
            tx.rollback().await?;
            return Ok(None);
        }
        let clock = read_clock(&mut tx, game_id).await?;
        let holder: Option<String> = match actor {
            Some(power) => sqlx::query_scalar("SELECT account_id FROM seats WHERE game_id = $1 AND power = $2 AND kind = 'account'")
                .bind(game_id)
                .bind(power)
                .fetch_optional(&mut *tx)
                .await?
                .flatten(),
            None => None,
        };
        if holder == clock.wait.as_ref().map(|w| w.account_id.clone()) {
            // The same account's powers in a row are one wait.
            sqlx::query("UPDATE game_clocks SET wait_power = $2, wait_seq = $3 WHERE game_id = $1")
                .bind(game_id)
                .bind(actor)
                .bind(count)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            return Ok(None);
        }
        let Some(account) = holder else {
            sqlx::query(
                "UPDATE game_clocks SET wait_power = $2, wait_seq = $3, wait_n = wait_n + 1, wait_account = NULL, \
                   wait_started = NULL, wait_deadline = NULL, wait_stage = 'running' WHERE game_id = $1",
            )
            .bind(game_id)
            .bind(actor)
            .bind(count)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            return Ok(None);
        };
        let banked: i64 = sqlx::query_scalar("SELECT banked_days FROM clock_vacations WHERE game_id = $1 AND account_id = $2")
            .bind(game_id)
            .bind(&account)
            .fetch_optional(&mut *tx)
            .await?
            .unwrap_or(0);
        if banked > 0 {
            sqlx::query("UPDATE clock_vacations SET banked_days = 0 WHERE game_id = $1 AND account_id = $2")
                .bind(game_id)
                .bind(&account)
                .execute(&mut *tx)
                .await?;
        }
        let wait = Wait {
            account_id: account,
            started_at: now,
            deadline: now + (clock.settings.move_days + banked) * DAY_MS,
            stage: WaitStage::Running,
        };
        sqlx::query(
            "UPDATE game_clocks SET wait_power = $2, wait_seq = $3, wait_n = wait_n + 1, wait_account = $4, \
               wait_started = $5, wait_deadline = $6, wait_stage = 'running' WHERE game_id = $1",
        )
        .bind(game_id)
        .bind(actor)
        .bind(count)
        .bind(&wait.account_id)
        .bind(wait.started_at)
        .bind(wait.deadline)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(wait))
    }

    /// Clocks of games in play whose wait on an account has reached at
    /// least half its time and has not expired: the sweeper's work.
    pub async fn waits_due(&self, now: i64) -> Result<Vec<ClockRow>, StoreError> {
        let sql = format!(
            "SELECT {CLOCK_COLUMNS} FROM game_clocks JOIN games ON games.id = game_clocks.game_id \
             WHERE games.status = 'playing' AND game_clocks.wait_account IS NOT NULL \
               AND game_clocks.wait_stage <> 'expired' \
               AND game_clocks.wait_started + (game_clocks.wait_deadline - game_clocks.wait_started) / 2 <= $1 \
             ORDER BY game_clocks.wait_deadline, game_clocks.game_id"
        );
        let rows = sqlx::query(&sql).bind(now).fetch_all(&self.pool).await?;
        rows.iter().map(clock_from_row).collect()
    }

    /// Games in play whose wait was worked out at another entry count than
    /// the log's: a server stopped between a commit and its clock, or the
    /// game has just started.
    pub async fn waits_behind(&self) -> Result<Vec<String>, StoreError> {
        let ids = sqlx::query_scalar(
            "SELECT game_clocks.game_id FROM game_clocks JOIN games ON games.id = game_clocks.game_id \
             WHERE games.status = 'playing' AND game_clocks.wait_seq <> games.seq ORDER BY game_clocks.game_id",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }

    /// Moves wait number `wait_n` on to stage `to` (a reminder, or the
    /// expiry) and records its event, if that wait is still the game's and
    /// has not reached `to`; with `take_over`, an expiry also gives the
    /// account's seats to the computer (marking whose they were), records
    /// `taken_over`, and ends the wait. The events made: none where another
    /// server (or an earlier tick) made them first.
    pub async fn advance_wait(
        &self,
        game_id: &str,
        wait_n: i64,
        to: WaitStage,
        now: i64,
        take_over: bool,
    ) -> Result<Vec<EventRow>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if !lock(&mut tx, game_id).await? {
            return Ok(Vec::new());
        }
        let clock = read_clock(&mut tx, game_id).await?;
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = $1").bind(game_id).fetch_one(&mut *tx).await?;
        let Some(wait) = clock.wait.filter(|w| clock.wait_n == wait_n && w.stage < to && status == "playing") else {
            tx.rollback().await?;
            return Ok(Vec::new());
        };
        let done = sqlx::query("UPDATE game_clocks SET wait_stage = $2 WHERE game_id = $1 AND wait_n = $3 AND wait_stage = $4")
            .bind(game_id)
            .bind(to.as_str())
            .bind(wait_n)
            .bind(wait.stage.as_str())
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(Vec::new());
        }
        let kind = match to {
            WaitStage::Half => EventKind::ReminderHalf,
            WaitStage::Late => EventKind::ReminderLate,
            WaitStage::Expired => EventKind::Expired,
            WaitStage::Running => return Err(StoreError::Database("a wait cannot go back to running".into())),
        };
        let detail = serde_json::json!({"started_ms": wait.started_at, "deadline_ms": wait.deadline});
        let power = clock.power.as_deref();
        let mut made = vec![
            self.add_event(&mut tx, game_id, &NewEvent { kind, account_id: Some(&wait.account_id), power, at_ms: now, detail }).await?,
        ];
        if to == WaitStage::Expired && take_over {
            let powers: Vec<String> =
                sqlx::query_scalar("SELECT power FROM seats WHERE game_id = $1 AND kind = 'account' AND account_id = $2 ORDER BY ordinal")
                    .bind(game_id)
                    .bind(&wait.account_id)
                    .fetch_all(&mut *tx)
                    .await?;
            sqlx::query("UPDATE seats SET kind = 'computer', account_id = NULL, think_ms = 0 WHERE game_id = $1 AND kind = 'account' AND account_id = $2")
                .bind(game_id)
                .bind(&wait.account_id)
                .execute(&mut *tx)
                .await?;
            for p in &powers {
                sqlx::query("INSERT INTO clock_takeovers (game_id, power, account_id, taken_at) VALUES ($1, $2, $3, $4)")
                    .bind(game_id)
                    .bind(p)
                    .bind(&wait.account_id)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
            }
            // The power now waits for the computer, which has no clock.
            sqlx::query(
                "UPDATE game_clocks SET wait_n = wait_n + 1, wait_account = NULL, wait_started = NULL, \
                   wait_deadline = NULL, wait_stage = 'running' WHERE game_id = $1",
            )
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
            let detail = serde_json::json!({"powers": powers});
            let event = NewEvent { kind: EventKind::TakenOver, account_id: Some(&wait.account_id), power, at_ms: now, detail };
            made.push(self.add_event(&mut tx, game_id, &event).await?);
        }
        tx.commit().await?;
        self.events_numbered(game_id, &made).await
    }

    /// Takes `days` of the account's vacation in the game: added to the
    /// deadline of the game's wait on it, or, while the game waits on
    /// someone else (or its wait has expired), kept for its next wait.
    pub async fn take_vacation(&self, game_id: &str, account_id: &str, days: i64, now: i64) -> Result<VacationOutcome, StoreError> {
        let mut tx = self.pool.begin().await?;
        if !lock(&mut tx, game_id).await? {
            return Ok(VacationOutcome::NoClock);
        }
        // The row is made on first use, with the game's allowance.
        sqlx::query(
            "INSERT INTO clock_vacations (game_id, account_id, days_left, banked_days) \
             SELECT $1, $2, vacation_days, 0 FROM game_clocks WHERE game_id = $1 \
             ON CONFLICT (game_id, account_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
        let left: i64 = sqlx::query_scalar("SELECT days_left FROM clock_vacations WHERE game_id = $1 AND account_id = $2")
            .bind(game_id)
            .bind(account_id)
            .fetch_one(&mut *tx)
            .await?;
        if left < days {
            tx.rollback().await?;
            return Ok(VacationOutcome::NotEnough { left });
        }
        sqlx::query("UPDATE clock_vacations SET days_left = days_left - $3 WHERE game_id = $1 AND account_id = $2")
            .bind(game_id)
            .bind(account_id)
            .bind(days)
            .execute(&mut *tx)
            .await?;
        let clock = read_clock(&mut tx, game_id).await?;
        let current = clock.wait.as_ref().filter(|w| w.account_id == account_id && w.stage != WaitStage::Expired);
        let deadline = match current {
            Some(wait) => {
                sqlx::query("UPDATE game_clocks SET wait_deadline = wait_deadline + $2 WHERE game_id = $1")
                    .bind(game_id)
                    .bind(days * DAY_MS)
                    .execute(&mut *tx)
                    .await?;
                Some(wait.deadline + days * DAY_MS)
            }
            None => {
                sqlx::query("UPDATE clock_vacations SET banked_days = banked_days + $3 WHERE game_id = $1 AND account_id = $2")
                    .bind(game_id)
                    .bind(account_id)
                    .bind(days)
                    .execute(&mut *tx)
                    .await?;
                None
            }
        };
        let detail = serde_json::json!({"days": days, "left": left - days, "deadline_ms": deadline, "next_wait": deadline.is_none()});
        let power = current.and(clock.power.as_deref());
        let n = self
            .add_event(&mut tx, game_id, &NewEvent { kind: EventKind::Vacation, account_id: Some(account_id), power, at_ms: now, detail })
            .await?;
        tx.commit().await?;
        let event = self.events_numbered(game_id, &[n]).await?.pop().ok_or(StoreError::NotFound)?;
        Ok(VacationOutcome::Taken { event, left: left - days, deadline })
    }

    /// Gives the account back the seats the computer took from it.
    pub async fn reclaim_seats(&self, game_id: &str, account_id: &str, now: i64) -> Result<ReclaimOutcome, StoreError> {
        let mut tx = self.pool.begin().await?;
        if !lock(&mut tx, game_id).await? {
            return Ok(ReclaimOutcome::NoClock);
        }
        let taken = sqlx::query("SELECT power, account_id FROM clock_takeovers WHERE game_id = $1 ORDER BY power")
            .bind(game_id)
            .fetch_all(&mut *tx)
            .await?;
        if taken.is_empty() {
            tx.rollback().await?;
            return Ok(ReclaimOutcome::NothingTaken);
        }
        let mut powers = Vec::new();
        for row in &taken {
            if row.try_get::<String, _>("account_id")? == account_id {
                powers.push(row.try_get::<String, _>("power")?);
            }
        }
        if powers.is_empty() {
            tx.rollback().await?;
            return Ok(ReclaimOutcome::NotYours);
        }
        for p in &powers {
            sqlx::query(
                "UPDATE seats SET kind = 'account', account_id = $3, think_ms = 0 WHERE game_id = $1 AND power = $2 AND kind = 'computer'",
            )
            .bind(game_id)
            .bind(p)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("DELETE FROM clock_takeovers WHERE game_id = $1 AND account_id = $2")
            .bind(game_id)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        let detail = serde_json::json!({"powers": powers});
        let n = self
            .add_event(
                &mut tx,
                game_id,
                &NewEvent { kind: EventKind::Reclaimed, account_id: Some(account_id), power: None, at_ms: now, detail },
            )
            .await?;
        tx.commit().await?;
        let event = self.events_numbered(game_id, &[n]).await?.pop().ok_or(StoreError::NotFound)?;
        Ok(ReclaimOutcome::Reclaimed { event, powers })
    }

    /// Records an event in a game with a clock (`None` without one).
    pub async fn record_event(&self, game_id: &str, event: &NewEvent<'_>) -> Result<Option<EventRow>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if !lock(&mut tx, game_id).await? {
            return Ok(None);
        }
        let n = self.add_event(&mut tx, game_id, event).await?;
        tx.commit().await?;
        Ok(self.events_numbered(game_id, &[n]).await?.pop())
    }

    /// Numbers and records an event inside a transaction that holds the
    /// clock's row, and announces it to the other servers.
    async fn add_event(&self, tx: &mut Transaction<'_, Any>, game_id: &str, event: &NewEvent<'_>) -> Result<i64, StoreError> {
        sqlx::query("UPDATE game_clocks SET events = events + 1 WHERE game_id = $1").bind(game_id).execute(&mut **tx).await?;
        let n: i64 = sqlx::query_scalar("SELECT events - 1 FROM game_clocks WHERE game_id = $1").bind(game_id).fetch_one(&mut **tx).await?;
        sqlx::query(
            "INSERT INTO game_events (game_id, n, kind, account_id, power, at_ms, detail_json) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(game_id)
        .bind(n)
        .bind(event.kind.as_str())
        .bind(event.account_id)
        .bind(event.power)
        .bind(event.at_ms)
        .bind(event.detail.to_string())
        .execute(&mut **tx)
        .await?;
        self.announce(tx, game_id, n, "clock").await?;
        Ok(n)
    }

    /// The game's events, oldest first.
    pub async fn events(&self, game_id: &str) -> Result<Vec<EventRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_events.n, game_events.kind, game_events.account_id, accounts.name, game_events.power, \
                    game_events.at_ms, game_events.detail_json \
             FROM game_events LEFT JOIN accounts ON accounts.id = game_events.account_id \
             WHERE game_events.game_id = $1 ORDER BY game_events.n",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_from_row).collect()
    }

    /// The game's events numbered `ns`, in that order.
    pub async fn events_numbered(&self, game_id: &str, ns: &[i64]) -> Result<Vec<EventRow>, StoreError> {
        let mut out = Vec::new();
        for n in ns {
            let row = sqlx::query(
                "SELECT game_events.n, game_events.kind, game_events.account_id, accounts.name, game_events.power, \
                        game_events.at_ms, game_events.detail_json \
                 FROM game_events LEFT JOIN accounts ON accounts.id = game_events.account_id \
                 WHERE game_events.game_id = $1 AND game_events.n = $2",
            )
            .bind(game_id)
            .bind(n)
            .fetch_optional(&self.pool)
            .await?;
            if let Some(row) = row {
                out.push(event_from_row(&row)?);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_reaches_its_stages_at_half_nine_tenths_and_the_deadline() {
        let wait = Wait { account_id: "a".into(), started_at: 1_000, deadline: 1_000 + DAY_MS, stage: WaitStage::Running };
        assert_eq!(wait.due(1_000), WaitStage::Running);
        assert_eq!(wait.due(1_000 + DAY_MS / 2 - 1), WaitStage::Running);
        assert_eq!(wait.due(1_000 + DAY_MS / 2), WaitStage::Half);
        assert_eq!(wait.due(1_000 + DAY_MS / 10 * 9), WaitStage::Late);
        assert_eq!(wait.due(1_000 + DAY_MS - 1), WaitStage::Late);
        assert_eq!(wait.due(1_000 + DAY_MS), WaitStage::Expired);
        assert!(WaitStage::Running < WaitStage::Half && WaitStage::Half < WaitStage::Late && WaitStage::Late < WaitStage::Expired);
    }
}
