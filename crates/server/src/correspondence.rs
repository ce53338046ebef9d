//! Correspondence games (issue 31): a time per move chosen when the game is
//! created, vacation days for each account, reminders at half and nine
//! tenths of the time, and what happens when it runs out: in a game of one
//! account against another the opponent may claim the win (the timed-out
//! side surrenders, an entry of the log like any other), in a team game the
//! computer plays the account's seats until it comes back for them.
//!
//! The clock lives in the database (store/clock.rs): the wait now running
//! and each account's vacation, so that every server on one PostgreSQL
//! database, and a restarted one, sees the same clock. The server that
//! commits an entry moves the wait on; a sweeper on every server
//! ([`Hub::clock_every`], calling [`Hub::clock_tick`]) makes reminders and
//! expiries, each exactly once: the database serialises changes to a game's
//! clock, and only the server that finds a stage still to reach reaches it
//! and acts on it. Every time is the injected [`crate::clock::Clock`]'s.
//!
//! In a game with proven dice whose chain has the table's seat, each
//! reminder, expiry, takeover and reclaim is also a note of the record
//! (docs/pbem.md, "Table entries"): a link of the chain, receipted like
//! every entry, so the game's clock verifies with its record. The server
//! that makes the event writes the note.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use warboard_record::{ClockEvent, Origin, TABLE_SEAT};
use warboard_rules::PowerId;

use crate::app::{AppState, StrictJson};
use crate::auth::{Authed, MaybeAuthed};
use crate::error::ApiError;
use crate::live::{check_playing, refusal, Hub, Inner, LiveGame, Push};
use crate::mail::ReminderMail;
use crate::store::{
    Backend, ClockRow, ClockSettings, EventKind, EventRow, GameRow, GameStatus, NewEvent, ReclaimOutcome, SeatKind, SeatRow, Store,
    TakeoverRow, VacationOutcome, VacationRow, WaitStage, MAX_VACATION_DAYS, MOVE_DAYS,
};

/// An event as clients read it (`GET …/events`) and are pushed it.
pub fn event_json(row: &EventRow) -> Value {
    let detail: Value = serde_json::from_str(&row.detail_json).unwrap_or(Value::Null);
    json!({"n": row.n, "kind": row.kind, "account": row.account_name, "power": row.power, "at": row.at_ms, "detail": detail})
}

/// The clock a new game asks for (`move_days`, `vacation_days`), checked;
/// `None` for a game without one.
pub fn settings_from_request(move_days: Option<&Value>, vacation_days: Option<&Value>) -> Result<Option<ClockSettings>, ApiError> {
    let Some(move_days) = move_days else {
        if vacation_days.is_some() {
            return Err(ApiError::bad_request(
                "clock/bad-vacation-days",
                "vacation days come with a time per move: give `move_days` too, or leave both out",
            ));
        }
        return Ok(None);
    };
    let move_days = move_days.as_i64().filter(|d| MOVE_DAYS.contains(d)).ok_or_else(|| {
        ApiError::bad_request(
            "clock/bad-move-days",
            "`move_days` is 1, 2, 3, 5, 7, 10 or 14 (days), or left out for a game without a clock",
        )
    })?;
    let vacation_days = match vacation_days {
        None => 0,
        Some(v) => v.as_i64().filter(|d| (0..=MAX_VACATION_DAYS).contains(d)).ok_or_else(|| {
            ApiError::bad_request(
                "clock/bad-vacation-days",
                format!("`vacation_days` is a whole number of days from 0 to {MAX_VACATION_DAYS}"),
            )
        })?,
    };
    Ok(Some(ClockSettings { move_days, vacation_days }))
}

/// What a game's description shows of its clock.
pub struct ClockInfo {
    pub clock: ClockRow,
    pub vacations: Vec<VacationRow>,
    pub takeovers: Vec<TakeoverRow>,
}

/// The clocks of several games, for their descriptions: three queries
/// whatever their number.
pub async fn clock_infos(store: &Store, ids: &[String]) -> Result<HashMap<String, ClockInfo>, ApiError> {
    let clocks = store.clocks(ids).await?;
    if clocks.is_empty() {
        return Ok(HashMap::new());
    }
    let clocked: Vec<String> = clocks.keys().cloned().collect();
    let mut vacations = store.vacations(&clocked).await?;
    let mut takeovers = store.takeovers(&clocked).await?;
    Ok(clocks
        .into_iter()
        .map(|(id, clock)| {
            let info = ClockInfo {
                clock,
                vacations: vacations.remove(&id).unwrap_or_default(),
                takeovers: takeovers.remove(&id).unwrap_or_default(),
            };
            (id, info)
        })
        .collect())
}

impl ClockInfo {
    /// `{"move_days","vacation_days","waiting","vacation_left","vacation_banked","taken_over"}`
    /// for a game whose seats are `seats` (with their holders' names).
    pub fn json(&self, seats: &[(SeatRow, Option<String>)]) -> Value {
        let settings = self.clock.settings;
        // Every account seated, or whose seats the computer holds for it.
        let mut names: BTreeMap<String, String> = BTreeMap::new();
        for (seat, holder) in seats {
            if let (Some(id), Some(name)) = (&seat.account_id, holder) {
                names.insert(id.clone(), name.clone());
            }
        }
        for t in &self.takeovers {
            names.insert(t.account_id.clone(), t.name.clone());
        }
        let mut left = serde_json::Map::new();
        let mut banked = serde_json::Map::new();
        for (id, name) in &names {
            let row = self.vacations.iter().find(|v| v.account_id == *id);
            left.insert(name.clone(), json!(row.map_or(settings.vacation_days, |v| v.days_left)));
            if let Some(v) = row.filter(|v| v.banked_days > 0) {
                banked.insert(name.clone(), json!(v.banked_days));
            }
        }
        let waiting = self.clock.wait.as_ref().map(|w| {
            json!({
                "account": names.get(&w.account_id),
                "power": self.clock.power,
                "started_ms": w.started_at,
                "deadline_ms": w.deadline,
                "stage": w.stage.as_str(),
            })
        });
        let taken: Vec<Value> = self.takeovers.iter().map(|t| json!({"power": t.power, "account": t.name, "at": t.taken_at})).collect();
        json!({
            "move_days": settings.move_days,
            "vacation_days": settings.vacation_days,
            "waiting": waiting,
            "vacation_left": left,
            "vacation_banked": banked,
            "taken_over": taken,
        })
    }

    /// The deadline of the seat of `power`, where the game waits on it.
    pub fn deadline_of(&self, power: &str) -> Option<i64> {
        self.clock.wait.as_ref().filter(|_| self.clock.power.as_deref() == Some(power)).map(|w| w.deadline)
    }

    /// The name of the account the computer holds `power` for, if it does.
    pub fn taken_from(&self, power: &str) -> Option<&str> {
        self.takeovers.iter().find(|t| t.power == power).map(|t| t.name.as_str())
    }
}

/// Where the game is one account against another (exactly two accounts
/// seated, counting seats the computer holds for one, each holding powers
/// of one team, the two teams different): each account's team.
pub(crate) fn one_against_one(inner: &Inner, takeovers: &[TakeoverRow]) -> Option<BTreeMap<String, String>> {
    let rs = &inner.table.game().ruleset;
    let teams = &inner.table.record().state().teams;
    let mut holders: BTreeMap<String, Vec<PowerId>> = BTreeMap::new();
    let seated = inner.seats.iter().filter(|s| s.kind == SeatKind::Account).filter_map(|s| Some((s.account_id.clone()?, s.power.as_str())));
    for (account, power) in seated.chain(takeovers.iter().map(|t| (t.account_id.clone(), t.power.as_str()))) {
        holders.entry(account).or_default().push(rs.power_by_name(power)?);
    }
    if holders.len() != 2 {
        return None;
    }
    let mut out = BTreeMap::new();
    for (account, powers) in holders {
        let team = teams.team_of(*powers.first()?)?;
        if powers.iter().any(|p| teams.team_of(*p) != Some(team)) {
            return None;
        }
        out.insert(account, team.to_string());
    }
    let mut sides = out.values();
    (sides.next() != sides.next()).then_some(out)
}

fn no_clock() -> ApiError {
    ApiError::conflict("clock/no-clock", "this game has no clock: it was created without a time per move")
}

impl Hub {
    /// Moves the game's wait on to whoever holds the power it waits for
    /// now (after a commit, an undo, its start, a reclaim). A failure is
    /// logged, never the caller's: the entry is committed, and the sweeper
    /// catches a wait behind the log up.
    ///
    /// The future holds no reference to `inner` (a table is not `Sync`):
    /// what it needs is read before it starts.
    pub(crate) fn follow_wait<'a>(&'a self, game_id: &'a str, inner: &Inner) -> impl std::future::Future<Output = ()> + Send + 'a {
        let clocked = inner.clock.is_some() && inner.status != GameStatus::Open;
        let (count, actor) = (inner.count(), inner.table.actor().map(|p| inner.power_name(p)));
        async move {
            if !clocked {
                return;
            }
            if let Err(e) = self.store().follow_wait(game_id, count, actor.as_deref(), self.now_ms()).await {
                tracing::warn!(game = game_id, error = %e, "the clock's wait was not moved on; the sweeper will");
            }
        }
    }

    /// Sends events to the game's connections here. On PostgreSQL every
    /// server, this one included, sends them when the database announces
    /// them ([`Hub::clock_elsewhere`]): one path, so nobody gets one twice.
    fn publish_clock(&self, game_id: &str, events: &[EventRow]) {
        if self.store().backend() != Backend::Sqlite {
            return;
        }
        let Some(game) = self.loaded(game_id) else { return };
        for e in events {
            let _ = game.pushes.send(Push::Clock(Arc::new(event_json(e))));
        }
    }

    /// The database announced event `n` of a game this server holds: its
    /// connections here are sent it, and where seats changed hands the game
    /// is read again.
    pub(crate) async fn clock_elsewhere(&self, game: &LiveGame, n: i64) {
        let row = match self.store().events_numbered(&game.id, &[n]).await {
            Ok(mut rows) => rows.pop(),
            Err(e) => {
                tracing::warn!(game = %game.id, error = %e, "cannot read a clock event");
                return;
            }
        };
        let Some(row) = row else { return };
        if row.kind == EventKind::TakenOver.as_str() || row.kind == EventKind::Reclaimed.as_str() {
            let mut inner = game.inner.lock().await;
            // The server that changed them has read them already.
            let changed = self.store().seats(&game.id).await.map_or(true, |seats| seats != inner.seats);
            if changed {
                if let Err(e) = self.reload(game, &mut inner).await {
                    tracing::warn!(game = %game.id, code = %e.code, "cannot read a game whose seats changed");
                }
            }
        }
        let _ = game.pushes.send(Push::Clock(Arc::new(event_json(&row))));
    }

    /// Runs [`Hub::clock_tick`] every `period`, for as long as the server runs.
    pub async fn clock_every(self: Arc<Self>, period: std::time::Duration) {
        loop {
            tokio::time::sleep(period).await;
            let made = self.clock_tick().await;
            if made > 0 {
                tracing::debug!(events = made, "the clock swept");
            }
        }
    }

    /// One sweep of every clocked game in play, at the clock's time now:
    /// waits behind the log are caught up, then each wait on an account
    /// that has reached half its time is reminded, at nine tenths reminded
    /// again, at its deadline expired (a wait found further along than a
    /// stage skips it: a server that was down does not send a stale
    /// reminder). Returns the events this server made; running it again at
    /// the same time makes none.
    pub async fn clock_tick(self: &Arc<Self>) -> usize {
        match self.store().waits_behind().await {
            Ok(ids) => {
                for id in ids {
                    match self.game(&id).await {
                        Ok(game) => {
                            let inner = game.inner.lock().await;
                            self.follow_wait(&id, &inner).await;
                        }
                        Err(e) => tracing::warn!(game = %id, code = %e.code, "cannot read a game to catch its clock up"),
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot read the clocks behind their games"),
        }
        let now = self.now_ms();
        let due = match self.store().waits_due(now).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the clocks that are due");
                return 0;
            }
        };
        let mut made = 0;
        for clock in due {
            let Some(wait) = &clock.wait else { continue };
            let to = wait.due(now);
            if to <= wait.stage {
                continue;
            }
            let done = if to == WaitStage::Expired { self.expire(&clock, now).await } else { self.remind(&clock, to, now).await };
            match done {
                Ok(n) => made += n,
                Err(e) => {
                    tracing::warn!(game = %clock.game_id, code = %e.code, message = %e.message, "a clock's step failed; the next sweep tries again")
                }
            }
        }
        made
    }

    /// A reminder, if this server is the one to make it: its event, and
    /// its mail where the account wants turn mail.
    async fn remind(&self, clock: &ClockRow, to: WaitStage, now: i64) -> Result<usize, ApiError> {
        let events = self.store().advance_wait(&clock.game_id, clock.wait_n, to, now, false).await?;
        let Some(event) = events.first() else { return Ok(0) };
        let game = self.game(&clock.game_id).await?;
        self.note_events(&game, &mut *game.inner.lock().await, &events).await;
        self.publish_clock(&clock.game_id, &events);
        if let (Some(mailer), Some(account_id)) = (self.mailer(), &event.account_id) {
            let detail: Value = serde_json::from_str(&event.detail_json).unwrap_or(Value::Null);
            let ruleset = self.store().game(&clock.game_id).await?.map(|g| g.ruleset).unwrap_or_default();
            let reminder = ReminderMail {
                account_id: account_id.clone(),
                game_id: clock.game_id.clone(),
                ruleset,
                power: event.power.clone().unwrap_or_default(),
                late: to == WaitStage::Late,
                deadline_ms: detail["deadline_ms"].as_i64().unwrap_or_default(),
            };
            mailer.spawn_reminder(self.store().clone(), reminder);
        }
        Ok(events.len())
    }

    /// An expiry, if this server is the one to make it; in a team game the
    /// computer then takes the account's seats and plays on.
    async fn expire(self: &Arc<Self>, clock: &ClockRow, now: i64) -> Result<usize, ApiError> {
        let game = self.game(&clock.game_id).await?;
        // Held across the change of seats: no action of this server's
        // slips in between the seats changing and the table learning it.
        let mut inner = game.inner.lock().await;
        if inner.status != GameStatus::Playing {
            return Ok(0);
        }
        let takeovers = self.store().takeovers(std::slice::from_ref(&game.id)).await?.remove(&game.id).unwrap_or_default();
        let team_game = one_against_one(&inner, &takeovers).is_none();
        // A battle decision out of time (one no standing order answered)
        // takes the battle's default, and the game goes on: it is no turn
        // to claim or take over (issue 31, point 3).
        let in_battle = warboard_rules::battle::decision(&inner.table.game().ruleset, inner.table.record().state()).is_some();
        let events = self.store().advance_wait(&game.id, clock.wait_n, WaitStage::Expired, now, team_game && !in_battle).await?;
        if events.is_empty() {
            return Ok(0);
        }
        self.note_events(&game, &mut inner, &events).await;
        if in_battle {
            if let Some(p) = inner.table.actor() {
                // Made by the server for the late player: the record says so
                // (`by: engine`, after the `expired` event).
                let action = warboard_table::fallback::default_action(inner.table.record());
                match inner.act(&[p], &action, warboard_record::Origin::Engine) {
                    Ok(applied) => self.commit(&game, &mut inner, applied, None, None).await?,
                    Err(refusal) => tracing::warn!(game = %game.id, %action, code = %refusal.code(), "a battle's default was refused"),
                }
            }
            drop(inner);
            self.publish_clock(&game.id, &events);
            self.kick(game);
            return Ok(events.len());
        }
        let taken_over = events.iter().any(|e| e.kind == EventKind::TakenOver.as_str());
        if taken_over {
            self.reload(&game, &mut inner).await?;
        }
        drop(inner);
        self.publish_clock(&game.id, &events);
        if taken_over {
            self.kick(game);
        }
        Ok(events.len())
    }

    /// Writes clock events as notes of a proven game's record whose chain
    /// has the table's seat (games with other dice, or proven before the
    /// seat existed, keep them as events only). A note that cannot be
    /// committed is logged: the event stands, made and sent.
    async fn note_events(&self, game: &LiveGame, inner: &mut Inner, events: &[EventRow]) {
        let notes_clock = inner.table.record().proof_header().is_some_and(|h| h.seats.iter().any(|s| s.seat == TABLE_SEAT));
        if !notes_clock || inner.status != GameStatus::Playing {
            return;
        }
        for event in events {
            let Some((kind, powers, deadline)) = clock_note(inner, event) else { continue };
            let noted = match inner.table.note_clock(kind, &powers, deadline.as_deref()) {
                Ok(applied) => self.commit(game, inner, applied, None, None).await,
                Err(refusal) => Err(crate::live::refusal(refusal)),
            };
            if let Err(e) = noted {
                tracing::warn!(game = %game.id, event = %event.kind, code = %e.code, message = %e.message, "a clock event was not noted in the record");
            }
        }
    }

    /// `account` claims the win in a game of one account against another
    /// whose opponent's time has run out: the opponent's team surrenders,
    /// made by the server (`Origin::Engine`) and committed as an entry of
    /// the log, so the record replays to the same end.
    pub async fn claim(self: &Arc<Self>, game: &Arc<LiveGame>, account: &str) -> Result<EventRow, ApiError> {
        let mut inner = game.inner.lock().await;
        let clock = self.store().clock(&game.id).await?.ok_or_else(no_clock)?;
        check_playing(&inner)?;
        if inner.seat_of(account).is_empty() {
            return Err(ApiError::forbidden("auth/not-a-player", "this account holds no power in this game"));
        }
        let takeovers = self.store().takeovers(std::slice::from_ref(&game.id)).await?.remove(&game.id).unwrap_or_default();
        let Some(teams) = one_against_one(&inner, &takeovers) else {
            return Err(ApiError::conflict(
                "clock/team-game",
                "only a game of one account against another is won by a claim; in a team game the computer takes the seats of a player whose time ran out",
            ));
        };
        let Some(wait) = clock.wait.as_ref().filter(|w| w.stage == WaitStage::Expired) else {
            return Err(ApiError::conflict("clock/not-expired", "the opponent's time has not run out: there is nothing to claim yet"));
        };
        if wait.account_id == account {
            return Err(ApiError::forbidden(
                "clock/not-yours",
                "it is this account's own time that ran out: only its opponent may claim the win",
            ));
        }
        let side = teams.get(&wait.account_id).cloned().ok_or_else(|| ApiError::internal("the timed-out account holds no team"))?;
        let loser = inner.seat_of(&wait.account_id);
        let action = json!({"type": "surrender", "side": side});
        let seq = inner.count();
        let applied = inner.table.act(&loser, &action, Origin::Engine).map_err(refusal)?;
        self.commit(game, &mut inner, applied, Some(account), None).await?;
        let detail = json!({"side": side, "seq": seq});
        let event =
            NewEvent { kind: EventKind::Claimed, account_id: Some(account), power: clock.power.as_deref(), at_ms: self.now_ms(), detail };
        let event = self.store().record_event(&game.id, &event).await?.ok_or_else(no_clock)?;
        drop(inner);
        self.publish_clock(&game.id, std::slice::from_ref(&event));
        Ok(event)
    }

    /// `account` takes back the seats the computer took from it.
    pub async fn reclaim(self: &Arc<Self>, game: &Arc<LiveGame>, account: &str) -> Result<EventRow, ApiError> {
        let mut inner = game.inner.lock().await;
        check_playing(&inner)?;
        let event = match self.store().reclaim_seats(&game.id, account, self.now_ms()).await? {
            ReclaimOutcome::NoClock => return Err(no_clock()),
            ReclaimOutcome::NothingTaken => {
                return Err(ApiError::conflict(
                    "clock/not-taken-over",
                    "the computer holds nobody's seats in this game: there is nothing to reclaim",
                ))
            }
            ReclaimOutcome::NotYours => {
                return Err(ApiError::forbidden(
                    "clock/not-yours",
                    "the seats the computer holds in this game were taken from another account",
                ))
            }
            ReclaimOutcome::Reclaimed { event, .. } => event,
        };
        self.reload(game, &mut inner).await?;
        self.note_events(game, &mut inner, std::slice::from_ref(&event)).await;
        // The wait starts on the account at once where the game waits for
        // one of its powers.
        self.follow_wait(&game.id, &inner).await;
        drop(inner);
        self.publish_clock(&game.id, std::slice::from_ref(&event));
        Ok(event)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VacationRequest {
    days: i64,
}

/// `POST /api/games/{id}/vacation`: `{"days": N}`.
pub async fn vacation(
    State(state): State<AppState>,
    authed: Authed,
    Path(id): Path<String>,
    StrictJson(req): StrictJson<VacationRequest>,
) -> Result<Json<Value>, ApiError> {
    let me = &authed.account.id;
    if !(1..=MAX_VACATION_DAYS).contains(&req.days) {
        return Err(ApiError::bad_request("clock/bad-days", format!("`days` is a whole number from 1 to {MAX_VACATION_DAYS}")));
    }
    let (row, seated) = member(&state, &id, me).await?;
    if !seated {
        return Err(ApiError::forbidden("auth/not-a-player", "this account holds no power in this game"));
    }
    if row.status == GameStatus::Over {
        return Err(ApiError::conflict("game/over", "the game is over"));
    }
    let event = match state.store.take_vacation(&id, me, req.days, state.clock.now_ms()).await? {
        VacationOutcome::NoClock => return Err(no_clock()),
        VacationOutcome::NotEnough { left } => {
            let days = if left == 1 { "1 day".to_string() } else { format!("{left} days") };
            return Err(ApiError::conflict(
                "clock/no-vacation-left",
                format!("this account has {days} of vacation left in this game, fewer than asked for"),
            ));
        }
        VacationOutcome::Taken { event, .. } => event,
    };
    state.hub.publish_clock(&id, std::slice::from_ref(&event));
    answer(&state, &id, &event).await
}

/// The game, if `account` may see it, and whether it is one of its
/// players (seated, or its seats held by the computer for it); a private
/// game is unknown to anyone else.
async fn member(state: &AppState, id: &str, account: &str) -> Result<(GameRow, bool), ApiError> {
    let row = crate::lobby::game_row(&state.store, id).await?;
    let seated = state.store.seats(id).await?.iter().any(|s| s.account_id.as_deref() == Some(account))
        || state.store.takeovers(&[id.to_string()]).await?.remove(id).unwrap_or_default().iter().any(|t| t.account_id == account);
    if !row.public && !seated && row.created_by != account {
        return Err(ApiError::unknown_game(id));
    }
    Ok((row, seated))
}

/// A clock route's answer: the game as it stands, and the event made.
async fn answer(state: &AppState, id: &str, event: &EventRow) -> Result<Json<Value>, ApiError> {
    let row = crate::lobby::game_row(&state.store, id).await?;
    Ok(Json(json!({"game": crate::lobby::game_json(state, &row).await?, "event": event_json(event)})))
}

/// `POST /api/games/{id}/claim`
pub async fn claim(State(state): State<AppState>, authed: Authed, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let account = &authed.account.id;
    member(&state, &id, account).await?;
    let game = state.hub.game(&id).await?;
    let event = state.hub.claim(&game, account).await?;
    answer(&state, &id, &event).await
}

/// `POST /api/games/{id}/reclaim`
pub async fn reclaim(State(state): State<AppState>, authed: Authed, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let account = &authed.account.id;
    member(&state, &id, account).await?;
    let game = state.hub.game(&id).await?;
    let event = state.hub.reclaim(&game, account).await?;
    answer(&state, &id, &event).await
}

/// `GET /api/games/{id}/events`: `{"events":[…]}`, oldest first.
pub async fn events(State(state): State<AppState>, who: MaybeAuthed, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    crate::lobby::visible(&state, &who, &id).await?;
    let rows = state.store.events(&id).await?;
    Ok(Json(json!({"events": rows.iter().map(event_json).collect::<Vec<_>>()})))
}

/// The note a clock event makes in the record: its kind, the powers it
/// concerns and the deadline as text; `None` for events that are no note
/// (a claim is the surrender entry itself; vacations change no wait's
/// outcome).
fn clock_note(inner: &Inner, event: &EventRow) -> Option<(ClockEvent, Vec<PowerId>, Option<String>)> {
    let kind = match event.kind.as_str() {
        k if k == EventKind::ReminderHalf.as_str() => ClockEvent::Reminder,
        k if k == EventKind::ReminderLate.as_str() => ClockEvent::LateReminder,
        k if k == EventKind::Expired.as_str() => ClockEvent::Expired,
        k if k == EventKind::TakenOver.as_str() => ClockEvent::TakenOver,
        k if k == EventKind::Reclaimed.as_str() => ClockEvent::Reclaimed,
        _ => return None,
    };
    let detail: Value = serde_json::from_str(&event.detail_json).unwrap_or(Value::Null);
    let rs = &inner.table.game().ruleset;
    let listed: Vec<String> = match detail["powers"].as_array() {
        Some(list) => list.iter().filter_map(|p| p.as_str().map(str::to_string)).collect(),
        None => event.power.iter().cloned().collect(),
    };
    let powers: Vec<PowerId> = listed.iter().filter_map(|p| rs.power_by_name(p)).collect();
    let deadline = detail["deadline_ms"].as_i64().map(crate::mail::utc_minute);
    (!powers.is_empty()).then_some((kind, powers, deadline))
}
