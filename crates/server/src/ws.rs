//! Play over WebSocket, in the engine protocol's words (docs/protocol.md,
//! docs/server.md): the same action objects, events and error codes, so a
//! bot that speaks `warboard engine` plays online with the same messages.
//!
//! A connection acts only for the powers its account holds in the game,
//! decided from its session at the upgrade, never from a message. A ban
//! ends it: at once where this server banned the account, else at its
//! next action (src/moderation.rs).

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;
use warboard_protocol::{summary_of, Awaiting};
use warboard_rules::PowerId;

use crate::app::AppState;
use crate::auth::MaybeAuthed;
use crate::error::ApiError;
use crate::live::{Inner, LiveGame, Push};
use crate::store::GameStatus;

/// The largest message a client may send: an action is a few hundred bytes.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// `GET /api/games/{id}/ws`
pub async fn upgrade(
    State(state): State<AppState>,
    who: MaybeAuthed,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws.map_err(|e| ApiError::bad_request("request/not-websocket", format!("this route is a WebSocket: {}", e.body_text())))?;
    let game = state.hub.game(&id).await?;
    let account = who.0.map(|a| a.account.id);
    {
        let inner = game.inner.lock().await;
        let seat = account.as_deref().map(|a| inner.seat_of(a)).unwrap_or_default();
        if seat.is_empty() && !inner.public {
            return Err(ApiError::unknown_game(&id));
        }
    }
    let Some(guard) = state.connections.enter(account.as_deref()) else {
        return Err(ApiError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            "auth/too-many-connections",
            format!("an account may hold {} connections at once", state.config.max_connections_per_account),
        ));
    };
    Ok(ws.max_message_size(MAX_MESSAGE).max_frame_size(MAX_MESSAGE).on_upgrade(move |socket| async move {
        let _guard = guard;
        Connection { state, game, account }.run(socket).await;
    }))
}

struct Connection {
    state: AppState,
    game: Arc<LiveGame>,
    account: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApplyMsg {
    action: Value,
    #[serde(default)]
    seq: Option<i64>,
    #[serde(default)]
    client_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoMsg {
    #[serde(default)]
    seq: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateMsg {
    #[serde(default)]
    full: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LegalMsg {
    #[serde(default)]
    offset: usize,
    #[serde(default)]
    limit: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SyncMsg {
    from: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatMsg {
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatLogMsg {
    #[serde(default)]
    before: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OddsMsg {
    action: Value,
}

impl Connection {
    async fn run(self, mut socket: WebSocket) {
        // Subscribed before the hello is read, so nothing falls between.
        let mut pushes = self.game.pushes.subscribe();
        let mut stopping = self.state.stopping.subscribe();
        if *stopping.borrow_and_update() {
            return;
        }
        let mut bans = self.account.as_ref().map(|_| self.state.bans.subscribe());
        let hello = {
            let inner = self.game.inner.lock().await;
            let seat = self.seat(&inner);
            json!({
                "reply": "hello",
                "protocol": warboard_protocol::PROTOCOL_VERSION,
                "game": self.game.id,
                "seq": inner.count(),
                "powers": seat.iter().map(|p| inner.power_name(*p)).collect::<Vec<_>>(),
                "status": status_name(inner.status),
            })
        };
        if send(&mut socket, &hello).await.is_err() {
            return;
        }
        loop {
            tokio::select! {
                _ = stopping.changed() => {
                    // 1001: going away; the client reconnects elsewhere or later.
                    let frame = axum::extract::ws::CloseFrame { code: 1001, reason: "the server is stopping".into() };
                    let _ = socket.send(Message::Close(Some(frame))).await;
                    return;
                }
                _ = ban_of(&mut bans, self.account.as_deref()) => {
                    close_banned(&mut socket).await;
                    return;
                }
                incoming = socket.recv() => {
                    let Some(Ok(message)) = incoming else { return };
                    let text = match message {
                        Message::Text(t) => t.to_string(),
                        Message::Binary(_) => {
                            let e = json!({"reply": "error", "code": "protocol/not-json", "message": "messages are JSON text"});
                            if send(&mut socket, &e).await.is_err() { return }
                            continue;
                        }
                        Message::Close(_) => return,
                        _ => continue,
                    };
                    let reply = self.answer(&text).await;
                    if send(&mut socket, &reply).await.is_err() { return }
                    if reply["code"] == "auth/banned" {
                        close_banned(&mut socket).await;
                        return;
                    }
                }
                push = pushes.recv() => {
                    let out = match push {
                        Ok(push) => self.render(push).await,
                        Err(RecvError::Lagged(_)) => vec![json!({"reply": "resync"})],
                        Err(RecvError::Closed) => return,
                    };
                    for message in out {
                        if send(&mut socket, &message).await.is_err() { return }
                    }
                }
            }
        }
    }

    fn seat(&self, inner: &Inner) -> Vec<PowerId> {
        self.account.as_deref().map(|a| inner.seat_of(a)).unwrap_or_default()
    }

    /// A pushed change as this connection's seat may read it.
    async fn render(&self, push: Push) -> Vec<Value> {
        match push {
            // The game's lock only for an entry some seat may not read:
            // every other push goes out without waiting on the game.
            Push::Entry { pushed, secret } if pushed.sealed_while(secret) => {
                let seat = self.seat(&*self.game.inner.lock().await);
                vec![pushed.for_seat(&seat, secret)]
            }
            Push::Entry { pushed, .. } => vec![pushed.message.clone()],
            Push::Undone { seq } => vec![json!({"reply": "undone", "seq": seq})],
            Push::Revealed(entries) => {
                vec![json!({"reply": "revealed", "entries": entries.iter().map(|p| p.message.clone()).collect::<Vec<_>>()})]
            }
            Push::Resync => vec![json!({"reply": "resync"})],
            Push::Chat(message) => {
                let mut m = (*message).clone();
                m["reply"] = json!("chat");
                vec![m]
            }
            Push::Clock(event) => {
                let mut m = (*event).clone();
                m["reply"] = json!("clock");
                vec![m]
            }
        }
    }

    /// One request, answered by exactly one `ok` or `error`.
    async fn answer(&self, text: &str) -> Value {
        let (id, cmd, outcome) = match parse(text) {
            Err(e) => (None, None, Err(e)),
            Ok((id, cmd, fields)) => {
                let outcome = self.command(&cmd, fields).await;
                (id, Some(cmd), outcome)
            }
        };
        let mut reply = match outcome {
            Ok(result) => json!({"reply": "ok", "cmd": cmd, "result": result}),
            Err(e) => {
                let mut reply = e.fields();
                reply["reply"] = json!("error");
                reply["cmd"] = json!(cmd);
                reply
            }
        };
        if let Some(id) = id {
            reply["id"] = id;
        }
        reply
    }

    async fn command(&self, cmd: &str, fields: Value) -> Result<Value, ApiError> {
        let hub = &self.state.hub;
        match cmd {
            "apply" => {
                let m: ApplyMsg = fields_of(fields)?;
                if m.client_id.as_ref().is_some_and(|c| c.is_empty() || c.len() > 64) {
                    return Err(ApiError::bad_request("protocol/bad-field", "`client_id` is 1 to 64 bytes"));
                }
                let account = self.player().await?;
                let accepted = hub.act(&self.game, account, &m.action, m.seq, m.client_id.as_deref()).await?;
                Ok(json!({"seq": accepted.seq, "repeated": accepted.repeated}))
            }
            "undo" => {
                let m: UndoMsg = fields_of(fields)?;
                let account = self.player().await?;
                let seq = hub.undo(&self.game, account, m.seq).await?;
                Ok(json!({"seq": seq}))
            }
            "state" => {
                let m: StateMsg = fields_of(fields)?;
                let inner = self.game.inner.lock().await;
                let seat = self.seat(&inner);
                let view = inner.view(&seat);
                let record = inner.table.record();
                let summary = summary_of(&view, record, &seat, awaiting(&inner, &seat), inner.table.think_ms());
                let mut result = json!({"seq": inner.count(), "status": status_name(inner.status), "summary": summary});
                // What the seat's own nations bought and have not placed yet
                // (Alternative shopping keeps it out of the summary).
                let unplaced: serde_json::Map<String, Value> = seat
                    .iter()
                    .filter_map(|p| view.state.unplaced.get(p).map(|m| (inner.power_name(*p), json!(m.iter().map(|(k, n)| (k.name().to_string(), json!(*n))).collect::<serde_json::Map<String, Value>>()))))
                    .collect();
                result["unplaced"] = Value::Object(unplaced);
                // What ending the phase now would lose, for the seat the game
                // waits for: the page asks before it does.
                if let Some(p) = inner.table.actor().filter(|p| seat.contains(p)) {
                    result["end_phase_loses"] = json!(warboard_table::lost_if_phase_ends(inner.table.game(), p));
                }
                if m.full {
                    result["position"] = warboard_protocol::position_json(&view.ruleset, &view.state);
                }
                result["correction"] = correction_json(record);
                Ok(result)
            }
            "legal" => {
                let m: LegalMsg = fields_of(fields)?;
                let inner = self.game.inner.lock().await;
                let seat = self.seat(&inner);
                // Only the seat the game waits for is told its choices: the
                // list names units the others may not see in sealed shopping.
                if inner.table.actor().is_none_or(|p| !seat.contains(&p)) {
                    return Err(ApiError::forbidden("auth/not-your-power", "the game does not wait for a power this account holds"));
                }
                let page = warboard_protocol::legal_page(inner.table.record(), m.offset, m.limit);
                serde_json::to_value(page).map_err(|e| ApiError::internal(e.to_string()))
            }
            "sync" => {
                let m: SyncMsg = fields_of(fields)?;
                let inner = self.game.inner.lock().await;
                let seat = self.seat(&inner);
                match inner.since(m.from.max(0), &seat) {
                    Some(entries) => Ok(json!({"seq": inner.count(), "entries": entries})),
                    None => {
                        let view = inner.view(&seat);
                        Ok(json!({"seq": inner.count(), "snapshot": warboard_protocol::position_json(&view.ruleset, &view.state)}))
                    }
                }
            }
            "odds" => {
                let m: OddsMsg = fields_of(fields)?;
                let (game, power, resolved) = {
                    let inner = self.game.inner.lock().await;
                    let seat = self.seat(&inner);
                    let power = inner.table.authority(&seat, &m.action).map_err(crate::live::refusal)?;
                    let resolved = inner.table.record().resolve(&m.action).map_err(|e| crate::live::refusal(warboard_table::Refusal::Rules(e)))?;
                    (inner.table.game().clone(), power, resolved)
                };
                // Exact odds can take a while: off the async threads.
                tokio::task::spawn_blocking(move || odds_of_move(game, power, resolved)).await.map_err(|e| ApiError::internal(e.to_string()))?
            }
            "chat" => {
                let m: ChatMsg = fields_of(fields)?;
                let account = self.player().await?;
                hub.say(&self.game, account, &m.text).await
            }
            "chat_log" => {
                let m: ChatLogMsg = fields_of(fields)?;
                hub.chat_log(&self.game, m.before).await
            }
            "ping" => {
                let _: UndoMsg = fields_of(fields)?;
                Ok(json!({}))
            }
            other => Err(ApiError::bad_request("protocol/unknown-command", format!("unknown command `{other}` (apply, undo, state, legal, odds, sync, chat, chat_log, ping)"))),
        }
    }

    /// The account acting: refused for a watcher, and for an account
    /// banned since the upgrade checked its session (on any server).
    async fn player(&self) -> Result<&str, ApiError> {
        let account = self.account.as_deref().ok_or_else(|| ApiError::unauthorized("sign in to play; this connection only watches"))?;
        crate::moderation::check_not_banned(&self.state, account).await?;
        Ok(account)
    }
}

/// The odds of the battle a move would start or join (the move tried on
/// a copy of the game; `odds: null` where it starts none): what a player
/// sees before making an attack.
fn odds_of_move(mut game: warboard_rules::Game, power: PowerId, action: warboard_rules::Action) -> Result<Value, ApiError> {
    let warboard_rules::Action::Move { route, .. } = &action else {
        return Err(ApiError::bad_request("odds/not-a-move", "odds are told for a move (`type`: `move`)"));
    };
    let Some(&to) = route.last() else { return Err(ApiError::bad_request("odds/not-a-move", "the move has no route")) };
    let by = game.round_phase().then_some(power);
    game.apply_as(by, &action, &mut warboard_rules::FixedDice(6))
        .map_err(|e| crate::live::refusal(warboard_table::Refusal::Rules(warboard_record::ApplyError::Rejected(e))))?;
    let odds = warboard_table::odds::at_space(&game, to).or_else(|| warboard_table::odds::where_units_meet(&game, to, power));
    let at = game.ruleset.map.name(to).to_string();
    Ok(json!({
        "at": at,
        "odds": odds.map(|o| json!({"attacker_wins": o.attacker_wins, "summary": o.summary(), "source": o.source})),
    }))
}

fn awaiting(inner: &Inner, seat: &[PowerId]) -> Awaiting {
    match inner.table.actor() {
        None => Awaiting::Nobody,
        Some(p) if seat.contains(&p) => Awaiting::Client,
        Some(p) if inner.table.is_computer(p) => Awaiting::Engine,
        Some(_) => Awaiting::Player,
    }
}

fn status_name(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Open => "open",
        GameStatus::Playing => "playing",
        GameStatus::Over => "over",
    }
}

/// A request: strict JSON (no key twice, no `null`), an object with a
/// `cmd`, and optionally an `id` copied into the reply.
fn parse(text: &str) -> Result<(Option<Value>, String, Value), ApiError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ApiError::bad_request("protocol/not-json", format!("not JSON: {e}")))?;
    warboard_conform::strict_json::check(text).map_err(|e| ApiError::bad_request("protocol/bad-field", e))?;
    let Value::Object(mut fields) = value else {
        return Err(ApiError::bad_request("protocol/not-object", "a request is a JSON object"));
    };
    let id = fields.remove("id");
    if id.as_ref().is_some_and(|id| id.to_string().len() > warboard_protocol::MAX_ID) {
        return Err(ApiError::bad_request("protocol/bad-field", format!("`id` is at most {} bytes of JSON", warboard_protocol::MAX_ID)));
    }
    let cmd = match fields.remove("cmd") {
        Some(Value::String(cmd)) => cmd,
        _ => return Err(ApiError::bad_request("protocol/missing-field", "a request names its `cmd`")),
    };
    Ok((id, cmd, Value::Object(fields)))
}

fn fields_of<T: serde::de::DeserializeOwned>(fields: Value) -> Result<T, ApiError> {
    serde_json::from_value(fields).map_err(|e| ApiError::bad_request("protocol/bad-field", e.to_string()))
}

/// Resolves when this server bans the connection's account; never for a
/// watcher. (A ban missed while lagging is found at the next action.)
async fn ban_of(bans: &mut Option<tokio::sync::broadcast::Receiver<String>>, account: Option<&str>) {
    let (Some(bans), Some(account)) = (bans.as_mut(), account) else { return std::future::pending().await };
    loop {
        match bans.recv().await {
            Ok(banned) if banned == account => return,
            Err(RecvError::Closed) => return std::future::pending().await,
            _ => {}
        }
    }
}

/// 1008, policy violation: the client should not reconnect as this account.
async fn close_banned(socket: &mut WebSocket) {
    let frame = axum::extract::ws::CloseFrame { code: 1008, reason: "this account is banned".into() };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

async fn send(socket: &mut WebSocket, value: &Value) -> Result<(), axum::Error> {
    socket.send(Message::Text(value.to_string().into())).await
}

/// Where the game's corrections by consent stand (docs/server.md,
/// "Corrections"): the open proposal, if any, with the power that made it,
/// and the first entry a new one may take back.
fn correction_json(record: &warboard_record::Record) -> Value {
    let c = record.corrections();
    let pending = c.pending.as_ref().map(|(proposal, change)| {
        let by = record.log().get(*proposal).and_then(|e| e.action.value()["power"].as_str().map(str::to_string));
        let mut pending = json!({"proposal": proposal, "by": by, "what": change.describe(*proposal)});
        match change {
            warboard_record::Change::TakeBack { to } => pending["take_back_to"] = json!(to),
            warboard_record::Change::Position { state, remove } => pending["position"] = json!({"state": state, "remove": remove}),
        }
        pending
    });
    json!({"pending": pending, "floor": c.floor(), "approved": c.approved.len()})
}
