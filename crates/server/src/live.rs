//! Games in play on this server: each a [`Table`] rebuilt from the store's
//! log, which is the truth. An action is applied to the table, committed to
//! the log (one row per game and entry number: two servers acting on one
//! state get one acceptance and one `game/stale`), and only then answered
//! and sent to the game's connections. A failed commit throws the table
//! away and rebuilds it from the log, so memory never runs ahead of disk.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::{broadcast, Mutex, OwnedMutexGuard, Semaphore};
use warboard_record::{state_hash, DiceMode, Entry, Origin, Position, Record, Start};
use warboard_rules::{Game, Phase, PowerId};
use warboard_table::narrate::LogLine;
use warboard_table::{Applied, Refusal, Step, Table};

use crate::clock::Clock;
use crate::error::ApiError;
use crate::mail::{Mailer, TurnMail};
use crate::store::{Append, ClockSettings, GameStatus, SeatKind, SeatRow, Store, StoreError};

/// Entries kept ready to send to a client that reconnects; one further
/// behind gets a snapshot instead.
const CATCH_UP: usize = 1000;
/// Messages a slow connection may fall behind before it is told to resync.
const PUSH_BUFFER: usize = 1024;

/// What the server keeps of a game's start: the start of its record, with
/// the dice seed, which never leaves the server while the game runs.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredStart {
    pub ruleset: String,
    pub options: std::collections::BTreeMap<String, Value>,
    pub position: Position,
    pub seed: u64,
    /// A game whose dice are proven (`"dice": "server"`, src/proven.rs):
    /// its chain's header and its secret seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<crate::proven::StoredProof>,
}

impl StoredStart {
    pub fn start(&self) -> Start {
        let dice = if self.proof.is_some() { DiceMode::Proof } else { DiceMode::Seeded { seed: self.seed } };
        Start { ruleset: self.ruleset.clone(), options: self.options.clone(), position: self.position.clone(), dice }
    }

    /// The game's record at its start: with its chain's header where it is proven.
    pub fn record(&self) -> Result<Record, String> {
        let mut record = Record::new(self.start()).map_err(|e| e.to_string())?;
        if let Some(proof) = &self.proof {
            record.attach_proof(proof.header.clone()).map_err(|e| e.to_string())?;
        }
        Ok(record)
    }
}

/// One committed entry as the game's connections receive it.
pub struct Pushed {
    pub seq: i64,
    /// The nation whose sealed shopping this is (Alternative), if it is.
    pub sealed_for: Option<PowerId>,
    pub message: Value,
    /// The story's last line after this entry, which the next entry's
    /// first line may join as the terminal game joins them ("russia places
    /// 8 inf at LEN", not eight lines); `None` after sealed shopping.
    tail: Option<LogLine>,
}

impl Pushed {
    /// The message as a seat holding `viewer` may read it while the
    /// shopping is `secret`: another nation's entry says only that it
    /// happened.
    pub fn for_seat(&self, viewer: &[PowerId], secret: bool) -> Value {
        match self.sealed_for {
            Some(p) if secret && !viewer.contains(&p) => {
                json!({"reply": "entry", "seq": self.seq, "power": self.message["power"], "sealed": true, "next": self.message["next"]})
            }
            _ => self.message.clone(),
        }
    }

    /// Whether some seat may not read this entry whole now: only then does
    /// a connection need to know its seat to send it.
    pub fn sealed_while(&self, secret: bool) -> bool {
        secret && self.sealed_for.is_some()
    }
}

/// What the game's connections are sent.
#[derive(Clone)]
pub enum Push {
    /// An entry, and whether the shopping it belongs to is still secret.
    Entry { pushed: Arc<Pushed>, secret: bool },
    /// The last entry was taken back.
    Undone { seq: i64 },
    /// The round's shopping is over: the sealed entries, in full.
    Revealed(Vec<Arc<Pushed>>),
    /// The log changed under this server (another one committed): read again.
    Resync,
    /// A chat message (`chat::message_json`).
    Chat(Arc<Value>),
    /// A correspondence clock's event (`correspondence::event_json`).
    Clock(Arc<Value>),
}

pub struct Inner {
    pub table: Table,
    pub seats: Vec<SeatRow>,
    pub status: GameStatus,
    pub public: bool,
    /// The game's correspondence clock, where it has one (its settings
    /// never change; the wait lives in the database).
    pub clock: Option<ClockSettings>,
    /// The last [`CATCH_UP`] entries as sent.
    recent: VecDeque<Arc<Pushed>>,
    /// The first entry of the round's shopping while it is secret.
    secret_from: Option<i64>,
    /// A proven game's seed (src/proven.rs): secret until the game ends.
    host_seed: Option<[u8; 32]>,
}

impl Inner {
    /// A proven game's seed: secret until the game ends (src/proven.rs).
    pub(crate) fn host_seed(&self) -> Option<&[u8; 32]> {
        self.host_seed.as_ref()
    }

    /// [`Table::act`]. A beacon game's action that rolls waits for its
    /// round (up to a period): off the async threads, the game's lock held
    /// meanwhile.
    pub(crate) fn act(&mut self, seat: &[PowerId], action: &Value, origin: Origin) -> Result<Applied, Refusal> {
        let beacon = self.table.record().proof_header().is_some_and(|h| matches!(h.dice, warboard_proof::DiceMode::Beacon { .. }));
        if beacon {
            tokio::task::block_in_place(|| self.table.act(seat, action, origin))
        } else {
            self.table.act(seat, action, origin)
        }
    }

    /// Entries committed so far.
    pub fn count(&self) -> i64 {
        self.table.record().log().len() as i64
    }

    /// The entries every reader may see: all of them, or those before the
    /// round's shopping while it is secret.
    pub fn public_count(&self) -> i64 {
        self.secret_from.unwrap_or(self.count()).min(self.count())
    }

    /// The powers `account` holds in this game.
    pub fn seat_of(&self, account: &str) -> Vec<PowerId> {
        let rs = &self.table.game().ruleset;
        self.seats
            .iter()
            .filter(|s| s.kind == SeatKind::Account && s.account_id.as_deref() == Some(account))
            .filter_map(|s| rs.power_by_name(&s.power))
            .collect()
    }

    pub fn power_name(&self, p: PowerId) -> String {
        self.table.power_name(p).to_string()
    }

    /// The position as `viewer` may see it (sealed shopping hidden).
    pub fn view(&self, viewer: &[PowerId]) -> Game {
        self.table.view_for(viewer).unwrap_or_else(|| self.table.game().clone())
    }

    /// Entries from `from` on as `viewer` may read them, or `None` where
    /// they are no longer kept (the client then reads a snapshot).
    pub fn since(&self, from: i64, viewer: &[PowerId]) -> Option<Vec<Value>> {
        let count = self.count();
        if from >= count {
            return Some(Vec::new());
        }
        let first = self.recent.front().map_or(count, |p| p.seq);
        if from < first {
            return None;
        }
        let secret = |p: &Pushed| self.secret_from.is_some_and(|f| p.seq >= f);
        Some(self.recent.iter().filter(|p| p.seq >= from).map(|p| p.for_seat(viewer, secret(p))).collect())
    }

    /// Follows the round's secret shopping across an entry; returns where
    /// it began when this entry ended it.
    fn note_secret(&mut self, pushed: &Pushed) -> Option<i64> {
        if pushed.sealed_for.is_some() && self.secret_from.is_none() {
            self.secret_from = Some(pushed.seq);
        }
        if self.table.shopping_is_secret() {
            return None;
        }
        self.secret_from.take()
    }

    /// Keeps a committed entry for reconnecting clients and sends it to the
    /// game's connections; when it ends the round's secret shopping, the
    /// sealed entries follow in full.
    fn publish(&mut self, pushes: &broadcast::Sender<Push>, pushed: Arc<Pushed>) {
        let revealed = self.note_secret(&pushed);
        let secret = self.secret_from.is_some();
        self.remember(pushed.clone());
        let _ = pushes.send(Push::Entry { pushed, secret });
        if let Some(from) = revealed {
            let sealed: Vec<Arc<Pushed>> = self.recent.iter().filter(|p| p.seq >= from && p.sealed_for.is_some()).cloned().collect();
            let _ = pushes.send(Push::Revealed(sealed));
        }
    }

    /// The last story line sent, which the next entry may join.
    fn tail(&self) -> Option<&LogLine> {
        self.recent.back().and_then(|p| p.tail.as_ref())
    }

    fn remember(&mut self, pushed: Arc<Pushed>) {
        self.recent.push_back(pushed);
        if self.recent.len() > CATCH_UP {
            self.recent.pop_front();
        }
    }
}

pub struct LiveGame {
    pub id: String,
    pub inner: Arc<Mutex<Inner>>,
    pub pushes: broadcast::Sender<Push>,
}

/// The games this server process has in memory, and the pool the computer
/// players think in.
pub struct Hub {
    games: std::sync::Mutex<HashMap<String, Arc<LiveGame>>>,
    /// The beacon of games whose dice come from one (and the witness).
    witness: Arc<crate::witness::Witness>,
    store: Store,
    clock: Arc<dyn Clock>,
    /// Computer turns run on the blocking pool, a bounded number at a time,
    /// so that they never hold up other games' requests.
    thinkers: Arc<Semaphore>,
    chat_limit: crate::chat::RateLimit,
    /// Sends "your turn" mail; `None` where the server sends no mail.
    mailer: Option<Arc<Mailer>>,
}

/// An action accepted: its entry number, and whether it had been accepted
/// before under the same client id (a resend).
pub struct Accepted {
    pub seq: i64,
    pub repeated: bool,
}

impl Hub {
    pub fn new(store: Store, clock: Arc<dyn Clock>, thinkers: usize, mailer: Option<Arc<Mailer>>, witness: Arc<crate::witness::Witness>) -> Arc<Hub> {
        Arc::new(Hub {
            games: Default::default(),
            store,
            witness,
            clock,
            thinkers: Arc::new(Semaphore::new(thinkers.max(1))),
            chat_limit: Default::default(),
            mailer,
        })
    }

    /// Whether this server sends turn mail.
    pub fn mails(&self) -> bool {
        self.mailer.is_some()
    }

    /// The live game, loaded from the store on first use.
    pub async fn game(&self, id: &str) -> Result<Arc<LiveGame>, ApiError> {
        if let Some(g) = self.games.lock().expect("the hub's map is never poisoned").get(id) {
            return Ok(g.clone());
        }
        let inner = load(&self.store, &self.clock, &self.witness, id).await?;
        let (pushes, _) = broadcast::channel(PUSH_BUFFER);
        let fresh = Arc::new(LiveGame { id: id.to_string(), inner: Arc::new(Mutex::new(inner)), pushes });
        // Another task may have loaded it meanwhile: keep the first.
        let mut games = self.games.lock().expect("the hub's map is never poisoned");
        Ok(games.entry(id.to_string()).or_insert(fresh).clone())
    }

    /// A place among the computer players' thinkers (the calculator's work
    /// shares them).
    pub async fn thinking_permit(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.thinkers.clone().acquire_owned().await.ok()
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    pub(crate) fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub(crate) fn chat_limit(&self) -> &crate::chat::RateLimit {
        &self.chat_limit
    }

    pub(crate) fn mailer(&self) -> Option<&Arc<Mailer>> {
        self.mailer.as_ref()
    }

    pub(crate) fn loaded(&self, id: &str) -> Option<Arc<LiveGame>> {
        self.games.lock().expect("the hub's map is never poisoned").get(id).cloned()
    }

    /// Reads a game this server holds again from the store (its seats
    /// changed, or its table may be damaged), keeping its connections.
    pub async fn reread(&self, id: &str) -> Result<(), ApiError> {
        let Some(game) = self.loaded(id) else { return Ok(()) };
        let mut inner = game.inner.lock().await;
        self.reload(&game, &mut inner).await
    }

    /// Forgets the games nobody holds (no connection, request or computer
    /// player): the log has them, and the next use reads them again.
    /// Returns how many were forgotten.
    pub fn sweep(&self) -> usize {
        let mut games = self.games.lock().expect("the hub's map is never poisoned");
        let before = games.len();
        games.retain(|_, g| Arc::strong_count(g) > 1);
        before - games.len()
    }

    /// Sweeps every `period`, for as long as the server runs.
    pub async fn sweep_every(self: Arc<Self>, period: std::time::Duration) {
        loop {
            tokio::time::sleep(period).await;
            let gone = self.sweep();
            if gone > 0 {
                tracing::debug!(games = gone, "idle games left memory");
            }
        }
    }

    /// Reads the game again from the log, after a failed commit or a change
    /// made by another server, and tells its connections to resync.
    pub(crate) async fn reload(&self, game: &LiveGame, inner: &mut Inner) -> Result<(), ApiError> {
        *inner = load(&self.store, &self.clock, &self.witness, &game.id).await?;
        let _ = game.pushes.send(Push::Resync);
        Ok(())
    }

    /// Takes `action` for `account` in `game`.
    pub async fn act(self: &Arc<Self>, game: &Arc<LiveGame>, account: &str, action: &Value, seq: Option<i64>, client_id: Option<&str>) -> Result<Accepted, ApiError> {
        let mut inner = game.inner.lock().await;
        if let Some(cid) = client_id {
            if let Some(seq) = self.store.seq_for_client_id(&game.id, cid).await? {
                return Ok(Accepted { seq, repeated: true });
            }
        }
        check_playing(&inner)?;
        let seat = inner.seat_of(account);
        if seat.is_empty() {
            return Err(ApiError::forbidden("auth/not-a-player", "this account holds no power in this game"));
        }
        let count = inner.count();
        if let Some(seq) = seq.filter(|s| *s != count) {
            return Err(ApiError::conflict("game/stale", format!("the action was made against entry {seq}, but the game is at entry {count}: read it again")));
        }
        let applied = inner.act(&seat, action, Origin::Client).map_err(refusal)?;
        self.commit(game, &mut inner, applied, Some(account), client_id).await?;
        drop(inner);
        self.kick(game.clone());
        Ok(Accepted { seq: count, repeated: false })
    }

    /// Takes back the last action, for the seat that took it.
    pub async fn undo(&self, game: &Arc<LiveGame>, account: &str, seq: Option<i64>) -> Result<i64, ApiError> {
        let mut inner = game.inner.lock().await;
        check_playing(&inner)?;
        let count = inner.count();
        if let Some(seq) = seq.filter(|s| *s != count) {
            return Err(ApiError::conflict("game/stale", format!("the undo was asked at entry {seq}, but the game is at entry {count}")));
        }
        let seat = inner.seat_of(account);
        inner.table.undo(&seat).map_err(refusal)?;
        if let Err(e) = self.store.undo_last(&game.id, count).await {
            self.reload(game, &mut inner).await?;
            return Err(e.into());
        }
        inner.recent.pop_back();
        let actor = inner.table.actor().map(|p| inner.power_name(p));
        self.store.set_actor(&game.id, actor.as_deref()).await?;
        self.follow_wait(&game.id, &inner).await;
        let _ = game.pushes.send(Push::Undone { seq: count - 1 });
        Ok(count - 1)
    }

    /// Commits an applied action, then sends it. On failure the table is
    /// rebuilt from the log (the action never happened).
    pub(crate) async fn commit(&self, game: &LiveGame, inner: &mut Inner, applied: Applied, account: Option<&str>, client_id: Option<&str>) -> Result<(), ApiError> {
        let seq = inner.count() - 1;
        let state = inner.table.record().state();
        let rs = &inner.table.game().ruleset;
        let winner = state.winner.as_ref().map(|w| w.describe(|p| rs.power(p).id.clone()));
        let append = Append {
            game_id: game.id.clone(),
            seq,
            entry_json: serde_json::to_string(&applied.entry).map_err(|e| ApiError::internal(e.to_string()))?,
            client_id: client_id.map(str::to_string),
            account_id: account.map(str::to_string),
            state_hash: state_hash(state),
            created_at: self.clock.now_ms(),
            actor: inner.table.actor().map(|p| inner.power_name(p)),
            status: if winner.is_some() { GameStatus::Over } else { GameStatus::Playing },
            winner,
        };
        if let Err(e) = self.store.append(&append).await {
            self.reload(game, inner).await?;
            return Err(match e {
                StoreError::Stale => ApiError::conflict("game/stale", "another action was accepted first: read the game again"),
                other => other.into(),
            });
        }
        if append.status == GameStatus::Over {
            inner.status = GameStatus::Over;
            // The game that ends is rated here, once (src/ladder.rs).
            let taken = self.store.takeovers(std::slice::from_ref(&game.id)).await?.remove(&game.id).unwrap_or_default();
            if let Some(row) = crate::ladder::rated_row(&game.id, inner, append.created_at, &taken) {
                crate::ladder::keep(&self.store, row).await;
            }
        }
        let receipt = inner.table.record().last_link().map(|l| &l.receipt);
        let pushed = pushed(inner.table.game(), seq, applied.power, &applied.before, &applied.entry, inner.tail(), receipt);
        inner.publish(&game.pushes, pushed);
        // Here and not where other servers' entries are caught up: each
        // entry is committed by one server only, so it is mailed once.
        if let (Some(mailer), Some(turn)) = (&self.mailer, turn_passed(&game.id, inner, &applied.before)) {
            mailer.spawn_turn(self.store.clone(), turn);
        }
        // Likewise only the committing server moves the clock's wait on.
        self.follow_wait(&game.id, &*inner).await;
        Ok(())
    }

    /// Lets the computer play its powers in `game` until a person is to
    /// act, one action at a time, each committed before the next.
    pub fn kick(self: &Arc<Self>, game: Arc<LiveGame>) {
        let hub = self.clone();
        tokio::spawn(async move {
            loop {
                let Ok(permit) = hub.thinkers.clone().acquire_owned().await else { return };
                let inner: OwnedMutexGuard<Inner> = game.inner.clone().lock_owned().await;
                if inner.status != GameStatus::Playing || !(inner.table.computer_to_act() || inner.table.orders_answer().is_some()) {
                    return;
                }
                let thought = tokio::task::spawn_blocking(move || {
                    let mut inner = inner;
                    // A player's standing orders answer its decision at once
                    // (src/orders.rs); the computer plays its own powers.
                    let step = inner.table.step_orders().unwrap_or_else(|| inner.table.step_computer());
                    (inner, step)
                })
                .await;
                drop(permit);
                let Ok((mut inner, step)) = thought else {
                    tracing::error!(game = %game.id, "a computer player panicked; the game is read again");
                    let mut inner = game.inner.lock().await;
                    let _ = hub.reload(&game, &mut inner).await;
                    return;
                };
                match step {
                    Step::Acted(applied) => {
                        if let Err(e) = hub.commit(&game, &mut inner, *applied, None, None).await {
                            tracing::warn!(game = %game.id, code = %e.code, "a computer action was not committed");
                            return;
                        }
                    }
                    Step::Refused => {}
                    Step::Idle | Step::NeedDice => return,
                    Step::Stuck { action, refusal } => {
                        tracing::error!(game = %game.id, %action, code = %refusal.code(), "a computer player is stuck");
                        return;
                    }
                }
            }
        });
    }
}

impl Hub {
    /// Follows the changes other servers on the same PostgreSQL database
    /// make to games this one holds (LISTEN/NOTIFY: no broker beside the
    /// database), so that their watchers here hear of a move within a
    /// second. Runs until the process ends; the listener reconnects by
    /// itself, and a game is read again whenever its count is not ours.
    pub async fn follow(self: Arc<Self>, url: String) {
        loop {
            match sqlx::postgres::PgListener::connect(&url).await {
                Ok(mut listener) => {
                    if let Err(e) = listener.listen(crate::store::CHANNEL).await {
                        tracing::warn!(error = %e, "cannot listen for other servers' moves");
                    } else {
                        while let Ok(note) = listener.recv().await {
                            self.changed_elsewhere(note.payload()).await;
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "cannot connect to listen for other servers' moves"),
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
    }

    /// "GAME COUNT append|undo" from another server (or this one: then the
    /// count is already ours and nothing happens), "GAME N chat" or
    /// "GAME N clock" (the clock's event N).
    async fn changed_elsewhere(&self, payload: &str) {
        let mut words = payload.split(' ');
        let (Some(id), Some(count), what) = (words.next(), words.next().and_then(|c| c.parse::<i64>().ok()), words.next()) else { return };
        let Some(game) = self.loaded(id) else { return };
        if what == Some("chat") {
            self.chat_elsewhere(&game, count).await;
            return;
        }
        if what == Some("clock") {
            self.clock_elsewhere(&game, count).await;
            return;
        }
        if what == Some("orders") {
            // Standing orders set on another server: read them again.
            if let Ok(orders) = self.store.orders(id).await {
                let mut inner = game.inner.lock().await;
                set_orders(&mut inner.table, &orders);
            }
            return;
        }
        let mut inner = game.inner.lock().await;
        let ours = inner.count();
        if ours == count && what != Some("undo") {
            return;
        }
        if what != Some("undo") && count > ours && self.catch_up(&game, &mut inner).await {
            return;
        }
        match load(&self.store, &self.clock, &self.witness, id).await {
            Ok(fresh) => *inner = fresh,
            Err(e) => {
                // The next action here fails to commit and reads it again.
                tracing::warn!(game = id, code = %e.code, "cannot read a game another server changed");
                let _ = game.pushes.send(Push::Resync);
                return;
            }
        }
        if inner.count() < ours || what == Some("undo") {
            let _ = game.pushes.send(Push::Resync);
            return;
        }
        for pushed in inner.recent.iter().filter(|p| p.seq >= ours) {
            let secret = inner.secret_from.is_some_and(|f| pushed.seq >= f);
            let _ = game.pushes.send(Push::Entry { pushed: pushed.clone(), secret });
        }
    }
}

impl Hub {
    /// Applies the entries another server committed after ours, each
    /// checked against its dice and state hash, and sends them on; false
    /// where that cannot be done (the caller then reads the whole game).
    async fn catch_up(&self, game: &LiveGame, inner: &mut Inner) -> bool {
        let Ok(rows) = self.store.entries(&game.id, inner.count()).await else { return false };
        for r in rows {
            let Ok(entry) = serde_json::from_str::<Entry>(&r.entry_json) else { return false };
            let Ok(applied) = inner.table.apply_recorded(&entry, inner.host_seed.as_ref()) else { return false };
            if applied.entry.dice != entry.dice || state_hash(inner.table.record().state()) != r.state_hash {
                return false;
            }
            if r.seq + 1 != inner.count() {
                return false;
            }
            if let Some(status) = inner.table.record().state().winner.as_ref().map(|_| GameStatus::Over) {
                inner.status = status;
            }
            let receipt = inner.table.record().last_link().map(|l| &l.receipt);
            let pushed = pushed(inner.table.game(), r.seq, applied.power, &applied.before, &applied.entry, inner.tail(), receipt);
            inner.publish(&game.pushes, pushed);
        }
        true
    }
}

/// The mail a committed entry calls for, if any: it passed the turn (round
/// or power changed) to a power an account holds, and that account did not
/// hold the power whose turn ended (one player's own powers in a row need
/// no mail between them).
fn turn_passed(game_id: &str, inner: &Inner, before: &warboard_rules::GameState) -> Option<TurnMail> {
    let after = inner.table.record().state();
    if inner.status != GameStatus::Playing || (before.round, before.turn) == (after.round, after.turn) {
        return None;
    }
    let holder = |p: PowerId| {
        let power = inner.power_name(p);
        inner.seats.iter().find(|s| s.power == power && s.kind == SeatKind::Account).and_then(|s| s.account_id.clone())
    };
    let account_id = holder(after.turn)?;
    if holder(before.turn).as_ref() == Some(&account_id) {
        return None;
    }
    Some(TurnMail {
        account_id,
        game_id: game_id.to_string(),
        ruleset: inner.table.record().start().ruleset.clone(),
        round: after.round,
        power: inner.power_name(after.turn),
    })
}

pub(crate) fn check_playing(inner: &Inner) -> Result<(), ApiError> {
    match inner.status {
        GameStatus::Playing => Ok(()),
        GameStatus::Open => Err(ApiError::conflict("game/not-started", "the game waits for its open seats to be taken")),
        GameStatus::Over => Err(ApiError::conflict("game/over", "the game is over")),
    }
}

/// A refusal in the server's words: the table's codes (`auth/not-your-power`
/// for a power the seat does not hold), the rules' codes otherwise.
pub fn refusal(r: Refusal) -> ApiError {
    let status = match r {
        Refusal::NotYourPower { .. } | Refusal::NotYourTeam { .. } => axum::http::StatusCode::FORBIDDEN,
        Refusal::GameOver { .. } => axum::http::StatusCode::CONFLICT,
        _ => axum::http::StatusCode::UNPROCESSABLE_ENTITY,
    };
    let mut error = ApiError::new(status, r.code(), r.to_string());
    if let Refusal::Rules(warboard_record::ApplyError::Rejected(e)) = &r {
        if !e.args.is_empty() {
            error.args = Some(e.args.iter().map(|(k, v)| (k.to_string(), Value::String(v.clone()))).collect());
        }
    }
    error
}

/// The message for an entry: the action, who took it (`player` or
/// `computer`), its events in the engine protocol's words, and its story
/// in the terminal game's words, a first line that joins the previous
/// entry's last marked `"merge": true` (with the joined text).
fn entry_message(game: &Game, seq: i64, power: PowerId, before: &warboard_rules::GameState, entry: &Entry, story: &[(LogLine, bool)]) -> Value {
    let rs = &game.ruleset;
    let events: Vec<Value> = entry.events.iter().map(|e| warboard_protocol::event_json(rs, before, &game.state, e)).collect();
    let story: Vec<Value> = story
        .iter()
        .map(|(l, merge)| {
            let mut line = story_line(l);
            if *merge {
                line["merge"] = json!(true);
            }
            line
        })
        .collect();
    json!({
        "reply": "entry",
        "seq": seq,
        "power": rs.power(power).id,
        "by": match entry.by { Origin::Client => "player", Origin::Engine => "computer" },
        "action": entry.action.value(),
        "events": events,
        "story": story,
        "next": next_actor(game),
    })
}

/// A story line as clients receive it: its kind and English text, and
/// what it says (`key`, `args`) for a page in another language.
pub fn story_line(line: &LogLine) -> Value {
    let mut out = json!({"kind": line.kind.name(), "text": line.text});
    if let Some(said) = &line.said {
        out["key"] = json!(said.key);
        out["args"] = Value::Object(said.args.iter().map(|(k, v)| (k.to_string(), json!(v))).collect());
    }
    out
}

/// The power whose decision the game waits for after an entry (`null` once
/// it is over): a client knows from the push alone whether it is to act.
fn next_actor(game: &Game) -> Value {
    match game.actor() {
        warboard_rules::game::Actor::Power(p) => json!(game.ruleset.power(p).id),
        warboard_rules::game::Actor::Terminal => Value::Null,
    }
}

/// The entry as sent, sealed where it was a nation's secret shopping; its
/// story's lines joined as the terminal joins them (`narrate::story`),
/// the first with `previous` (the last line sent) where they are one group.
/// `receipt`: a proven game's receipt for the entry, sent to every seat at
/// once (docs/pbem.md: seats keep them as witnessed receipts).
fn pushed(
    game: &Game,
    seq: i64,
    power: PowerId,
    before: &warboard_rules::GameState,
    entry: &Entry,
    previous: Option<&LogLine>,
    receipt: Option<&warboard_proof::SignedReceipt>,
) -> Arc<Pushed> {
    let was_secret = before.phase == Phase::Shopping && before.next_placer.is_none();
    let sealed_for = was_secret.then_some(power);
    let described = warboard_table::narrate::describe(&game.ruleset, before, &game.state, entry);
    // Sealed lines never join others: they are shown to one nation only.
    let carried = previous.filter(|_| sealed_for.is_none());
    // Joined as `narrate::story` joins them, from the last line sent on.
    let mut lines: Vec<LogLine> = carried.into_iter().cloned().collect();
    for line in described {
        if !lines.last_mut().is_some_and(|last| last.absorb(&line)) {
            lines.push(line);
        }
    }
    let tail = sealed_for.is_none().then(|| lines.last().cloned()).flatten();
    let mut story: Vec<(LogLine, bool)> = lines.into_iter().map(|l| (l, false)).collect();
    // The line sent before goes again only where this entry joined it.
    if let Some(carried) = carried {
        if story[0].0 == *carried {
            story.remove(0);
        } else {
            story[0].1 = true;
        }
    }
    let mut message = entry_message(game, seq, power, before, entry, &story);
    if let Some(receipt) = receipt {
        message["receipt"] = serde_json::to_value(receipt).unwrap_or(Value::Null);
    }
    Arc::new(Pushed { seq, sealed_for, message, tail })
}

/// Rebuilds a game from the store: its start, then every entry applied
/// again, each checked against the dice and state hash it was committed
/// with (a log that does not replay is refused, never patched up).
pub async fn load(store: &Store, clock: &Arc<dyn Clock>, witness: &Arc<crate::witness::Witness>, id: &str) -> Result<Inner, ApiError> {
    let row = crate::lobby::game_row(store, id).await?;
    let seats = store.seats(id).await?;
    let settings = store.clock(id).await?.map(|c| c.settings);
    let rows = store.entries(id, 0).await?;
    let corrupt = |seq: i64, why: String| ApiError::internal(format!("game {id}: entry {seq} does not replay ({why}); the game is kept as it is"));
    let stored: StoredStart = serde_json::from_str(&row.start_json).map_err(|e| corrupt(-1, e.to_string()))?;
    let mut record = stored.record().map_err(|e| corrupt(-1, e))?;
    let host_seed = stored.proof.as_ref().map(|p| p.seed()).transpose()?.flatten();
    let mut recent = VecDeque::new();
    let mut secret_from = None;
    for r in &rows {
        let entry: Entry = serde_json::from_str(&r.entry_json).map_err(|e| corrupt(r.seq, e.to_string()))?;
        let before = record.state().clone();
        let power = acting_power(record.game(), &entry);
        let applied = record.apply_recorded(&entry, host_seed.as_ref()).map_err(|e| corrupt(r.seq, e.to_string()))?;
        if applied.dice != entry.dice || state_hash(record.state()) != r.state_hash {
            return Err(corrupt(r.seq, "its dice or the state after it differ".into()));
        }
        let sealed = before.phase == Phase::Shopping && before.next_placer.is_none();
        if sealed && secret_from.is_none() {
            secret_from = Some(r.seq);
        } else if !sealed {
            secret_from = None;
        }
        if rows.len() - (r.seq as usize) <= CATCH_UP {
            let tail = recent.back().and_then(|p: &Arc<Pushed>| p.tail.as_ref());
            let fresh = pushed(record.game(), r.seq, power, &before, &entry, tail, record.last_link().map(|l| &l.receipt));
            recent.push_back(fresh);
        }
    }
    let rs = record.game().ruleset.clone();
    let computer: Vec<bool> = rs.power_ids().map(|p| seats.iter().any(|s| s.kind == SeatKind::Computer && s.power == rs.power(p).id)).collect();
    // One budget for the game's computer players: the largest asked for.
    let think = seats.iter().filter(|s| s.kind == SeatKind::Computer).map(|s| s.think_ms.max(0) as u64).max().unwrap_or(0);
    let mut table = Table::new(record, computer, think);
    set_orders(&mut table, &store.orders(id).await?);
    if stored.proof.is_some() {
        let key = witness.key(store, clock.as_ref()).await?.clone();
        let source = match host_seed {
            Some(seed) => crate::proven::Source::Seed(seed),
            None => crate::proven::Source::Beacon(witness.clone()),
        };
        table.set_linker(Box::new(crate::proven::HostLinker::new(key, source, clock.clone(), table.record())));
    }
    let secret_from = secret_from.filter(|_| table.shopping_is_secret());
    Ok(Inner { table, seats, status: row.status, public: row.public, clock: settings, recent, secret_from, host_seed })
}

/// Every power's standing orders as stored (rows that do not read, or name
/// no power of the game, are left out: the decision then waits).
fn set_orders(table: &mut Table, rows: &[(String, String)]) {
    let rs = table.game().ruleset.clone();
    for p in rs.power_ids() {
        let orders = rows.iter().find(|(power, _)| *power == rs.power(p).id).and_then(|(_, json)| serde_json::from_str(json).ok());
        table.set_orders(p, orders);
    }
}

/// The power an entry was taken by: the one it names, else the one the
/// game waited for.
fn acting_power(game: &Game, entry: &Entry) -> PowerId {
    warboard_conform::case::acting_power(game, &entry.action.value()).ok().flatten().unwrap_or(match game.actor() {
        warboard_rules::game::Actor::Power(p) => p,
        warboard_rules::game::Actor::Terminal => game.state.turn,
    })
}
