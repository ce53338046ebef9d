//! The server put together: its configuration, shared state, routes, and
//! the loop that serves until asked to stop.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::clock::{Clock, SystemClock};
use crate::error::ApiError;
use crate::live::Hub;
use crate::mail::{MailConfig, Mailer};
use crate::store::{Backend, Store};
use crate::{auth, calc, correspondence, lobby, mail, rulesets, web, ws};

/// The largest request body: every request is a small JSON object.
pub const MAX_BODY: usize = 64 * 1024;

#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    /// `sqlite://FILE` or `postgres://…`.
    pub database: String,
    /// Mark the session cookie `Secure` (behind HTTPS).
    pub secure_cookies: bool,
    pub max_games_per_account: i64,
    pub max_connections_per_account: usize,
    /// Computer players thinking at once.
    pub thinkers: usize,
    /// Every new game's dice seed, for tests that must repeat exactly.
    /// Never set by `warboard serve` (no flag reads it): a server's seeds
    /// come from the operating system's random source.
    pub fixed_seed: Option<u64>,
    /// Where "your turn" mail goes out (docs/server.md, "Turn mail");
    /// `None`: the server sends no mail.
    pub mail: Option<MailConfig>,
    /// The beacon the witness for games played by e-mail names rounds of
    /// (docs/pbem.md): drand quicknet, or a local test beacon in tests.
    pub beacon: crate::witness::BeaconConfig,
    /// Accounts the server makes administrators (`warboard serve --admin`;
    /// docs/server.md, "Moderation"): at its start, or when they sign up.
    pub admins: Vec<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://warboard.db".into(),
            secure_cookies: false,
            max_games_per_account: 50,
            max_connections_per_account: 32,
            thinkers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            fixed_seed: None,
            mail: None,
            beacon: crate::witness::BeaconConfig::Quicknet,
            admins: Vec::new(),
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub clock: Arc<dyn Clock>,
    pub hub: Arc<Hub>,
    pub config: Arc<Config>,
    pub connections: Arc<Connections>,
    /// Set when the server is stopping: open WebSockets close (graceful
    /// shutdown waits for every connection, and a WebSocket never ends by
    /// itself).
    pub stopping: Arc<tokio::sync::watch::Sender<bool>>,
    /// The witness for games played by e-mail (src/witness.rs).
    pub witness: Arc<crate::witness::Witness>,
    /// The ids of accounts this server bans from now on: their WebSockets
    /// here close at once (src/moderation.rs; a socket on another server
    /// finds the ban when it next acts).
    pub bans: tokio::sync::broadcast::Sender<String>,
}

impl AppState {
    /// `mailer` is built from `config.mail` by the caller ([`Mailer::new`]),
    /// which can fail, where this cannot.
    pub fn new(store: Store, clock: Arc<dyn Clock>, config: Config, mailer: Option<Arc<Mailer>>) -> AppState {
        let witness = Arc::new(crate::witness::Witness::new(&config.beacon));
        let hub = Hub::new(store.clone(), clock.clone(), config.thinkers, mailer, witness.clone());
        let connections = Arc::new(Connections { limit: config.max_connections_per_account, open: Mutex::new(HashMap::new()) });
        let stopping = Arc::new(tokio::sync::watch::Sender::new(false));
        let bans = tokio::sync::broadcast::channel(64).0;
        AppState { store, clock, hub, config: Arc::new(config), connections, stopping, witness, bans }
    }
}

/// Open WebSocket connections per account, against a limit.
pub struct Connections {
    limit: usize,
    open: Mutex<HashMap<String, usize>>,
}

/// One connection counted while it lives.
pub struct ConnectionGuard {
    connections: Arc<Connections>,
    account: Option<String>,
}

impl Connections {
    /// Counts a new connection of `account` (watchers without one are not
    /// counted here), or `None` at the limit.
    pub fn enter(self: &Arc<Self>, account: Option<&str>) -> Option<ConnectionGuard> {
        if let Some(a) = account {
            let mut open = self.open.lock().expect("never poisoned");
            let n = open.entry(a.to_string()).or_default();
            if *n >= self.limit {
                return None;
            }
            *n += 1;
        }
        Some(ConnectionGuard { connections: self.clone(), account: account.map(str::to_string) })
    }
}

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        if let Some(a) = &self.account {
            let mut open = self.connections.open.lock().expect("never poisoned");
            if let Some(n) = open.get_mut(a) {
                *n -= 1;
                if *n == 0 {
                    open.remove(a);
                }
            }
        }
    }
}

/// A JSON body read strictly: no key twice, no `null`, unknown fields
/// refused (by the target type), one clear error otherwise.
pub struct StrictJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for StrictJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<StrictJson<T>, ApiError> {
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| ApiError::new(e.status(), "request/too-large", format!("the request body could not be read: {e}")))?;
        let text = std::str::from_utf8(&bytes).map_err(|_| ApiError::bad_request("request/not-json", "the body is not UTF-8"))?;
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ApiError::bad_request("request/not-json", format!("the body is not JSON: {e}")))?;
        warboard_conform::strict_json::check(text).map_err(|e| ApiError::bad_request("request/bad-field", e))?;
        serde_json::from_value(value).map(StrictJson).map_err(|e| ApiError::bad_request("request/bad-json", e.to_string()))
    }
}

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(web::index))
        .route("/app.js", get(web::app_js))
        .route("/app.css", get(web::app_css))
        .route("/lobby", get(web::index))
        .route("/game/{id}", get(web::index))
        .route("/health", get(health))
        .route("/api/signup", post(auth::sign_up))
        .route("/api/signin", post(auth::sign_in))
        .route("/api/signout", post(auth::sign_out))
        .route("/api/me", get(auth::me))
        .route("/api/tokens", post(auth::new_api_token))
        .route("/api/account/mail", get(mail::show).put(mail::update))
        .route("/api/mail/unsubscribe", get(mail::unsubscribe).post(mail::unsubscribe))
        .route("/api/rulesets", get(rulesets::list))
        .route("/api/rulesets/{name}", get(rulesets::show))
        .route("/api/rulesets/{name}/board.svg", get(rulesets::board_svg))
        .route("/api/calc", post(calc::calc))
        .route("/calc", get(web::index))
        .route("/api/games", get(lobby::list).post(lobby::create))
        .route("/api/games/{id}", get(lobby::show))
        .route("/api/games/{id}/seats/{power}", post(lobby::take_seat).delete(lobby::leave_seat))
        .route("/api/games/{id}/record", get(lobby::record))
        .route("/api/games/{id}/positions/{n}", get(lobby::position))
        .route("/api/games/{id}/income", get(lobby::income))
        .route("/api/games/{id}/events", get(correspondence::events))
        .route("/api/games/{id}/vacation", post(correspondence::vacation))
        .route("/api/games/{id}/claim", post(correspondence::claim))
        .route("/api/games/{id}/reclaim", post(correspondence::reclaim))
        .route("/game/{id}/replay", get(web::index))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .merge(crate::witness::routes())
        .merge(crate::orders::routes())
        .merge(crate::ladder::routes())
        .merge(crate::moderation::routes())
        .merge(crate::bids::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(log_request))
        .with_state(state)
}

async fn health(axum::extract::State(state): axum::extract::State<AppState>) -> Result<Json<serde_json::Value>, ApiError> {
    // A health check that touches the database, so a dead one shows.
    state.store.game("health-check").await?;
    Ok(Json(json!({"status": "ok"})))
}

/// One structured line a request: method, route, status, time taken
/// (answers the server got wrong at `warn`).
async fn log_request(request: Request, next: axum::middleware::Next) -> axum::response::Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    let (status, ms) = (response.status().as_u16(), started.elapsed().as_secs_f64() * 1e3);
    if response.status().is_server_error() {
        tracing::warn!(%method, path, status, ms, "request");
    } else {
        tracing::info!(%method, path, status, ms, "request");
    }
    response
}

async fn wrong_method(method: axum::http::Method) -> ApiError {
    ApiError::new(axum::http::StatusCode::METHOD_NOT_ALLOWED, "request/wrong-method", format!("this route does not take {method} (see docs/server.md)"))
}

async fn not_found() -> ApiError {
    ApiError::not_found("request/unknown-route", "no such route (see docs/server.md)")
}

/// Serves until `shutdown` resolves, then lets open requests finish.
pub async fn serve(config: Config, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> Result<(), String> {
    // Checked before anything opens: a mistyped SMTP URL stops the start.
    let mailer = config.mail.as_ref().map(Mailer::new).transpose()?.map(Arc::new);
    let store = Store::open(&config.database).await.map_err(|e| format!("{}: {e}", config.database))?;
    let listener = tokio::net::TcpListener::bind(config.listen).await.map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tracing::info!(%addr, database = %redact(&config.database), "warboard serve is listening");
    match &config.mail {
        Some(m) => tracing::info!(mail = ?m, "turn mail is on"),
        None => tracing::info!("turn mail is off (no --smtp-url)"),
    }
    let state = AppState::new(store.clone(), Arc::new(SystemClock), config, mailer);
    crate::moderation::grant_named_admins(&state).await?;
    if store.backend() == Backend::Postgres {
        tokio::spawn(state.hub.clone().follow(store.url().to_string()));
    }
    tokio::spawn(state.hub.clone().sweep_every(std::time::Duration::from_secs(60)));
    // Correspondence games' reminders and expiries (src/correspondence.rs).
    tokio::spawn(state.hub.clone().clock_every(std::time::Duration::from_secs(60)));
    let stopping = state.stopping.clone();
    let app = router(state);
    let shutdown = async move {
        shutdown.await;
        stopping.send_replace(true);
    };
    axum::serve(without_delay(listener), app).with_graceful_shutdown(shutdown).await.map_err(|e| e.to_string())?;
    store.close().await;
    tracing::info!("warboard serve stopped");
    Ok(())
}

/// The listener with Nagle's algorithm off on every connection: an answer
/// and the push after it are small writes, and without this the second
/// waits for the client's delayed acknowledgement (tens of ms a move).
pub fn without_delay(listener: tokio::net::TcpListener) -> axum::serve::TapIo<tokio::net::TcpListener, fn(&mut tokio::net::TcpStream)> {
    use axum::serve::ListenerExt;
    fn no_delay(tcp: &mut tokio::net::TcpStream) {
        let _ = tcp.set_nodelay(true);
    }
    listener.tap_io(no_delay as fn(&mut tokio::net::TcpStream))
}

/// A database URL without its password, for the logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://…@{}", &url[..scheme], &url[at + 1..]),
        _ => url.to_string(),
    }
}
