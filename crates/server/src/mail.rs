//! "Your turn" mail for correspondence play (issue 31): an account may give
//! an address, and when a game's turn passes to a power it holds, it gets
//! one mail with the game's link. Sent over SMTP by lettre, after the
//! action is committed and off the commit's path: a mail that fails is
//! logged and changes nothing in the game.
//!
//! The routes: `GET` and `PUT /api/account/mail` (the signed-in account's
//! address and switch), `GET /api/mail/unsubscribe?token=…` (the link in
//! every mail; no sign-in) and its RFC 8058 one-click `POST`.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::Json;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::{AppState, StrictJson};
use crate::auth::Authed;
use crate::error::ApiError;
use crate::store::{new_id, MailSettings, Store};

/// The longest address SMTP carries (RFC 5321's path limit less its brackets).
const ADDRESS_MAX: usize = 254;
/// How long one SMTP conversation may take before it is given up.
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);
/// Mails sent at once: a slow mail server holds a few connections, not one
/// per change of turn.
const SENDING_AT_ONCE: usize = 4;

/// Where and as whom turn mail is sent. `Config::mail` is `None` when the
/// server sends none.
#[derive(Clone)]
pub struct MailConfig {
    /// The SMTP server as lettre reads it: `smtp://user:pass@host:port`
    /// (plain), `smtp://…?tls=required` (STARTTLS), `smtps://…` (TLS).
    pub smtp_url: String,
    /// The sender: `turns@club.example` or `warboard <turns@club.example>`.
    pub from: String,
    /// The server as players reach it, for the links in mails:
    /// `https://club.example`.
    pub public_url: String,
}

impl fmt::Debug for MailConfig {
    // The SMTP URL may hold a password, and configurations get logged.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MailConfig")
            .field("smtp_url", &redact(&self.smtp_url))
            .field("from", &self.from)
            .field("public_url", &self.public_url)
            .finish()
    }
}

/// Sends turn mail: the SMTP transport, the sender and the link base.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// Without a trailing `/`.
    public_url: String,
    sending: tokio::sync::Semaphore,
}

/// One change of turn that may deserve a mail: whose it is now, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnMail {
    pub account_id: String,
    pub game_id: String,
    pub ruleset: String,
    pub round: u32,
    pub power: String,
}

/// A correspondence game's reminder (src/correspondence.rs): half, or nine
/// tenths (`late`), of the account's time for its move is gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReminderMail {
    pub account_id: String,
    pub game_id: String,
    pub ruleset: String,
    pub power: String,
    pub late: bool,
    pub deadline_ms: i64,
}

/// Unix milliseconds as `2024-03-05 14:07 UTC` (a deadline in a mail: the
/// reader's time zone is not known).
pub fn utc_minute(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000);
    let (days, minute_of_day) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
    // Howard Hinnant's days-to-civil: the proleptic Gregorian calendar.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", minute_of_day / 60, minute_of_day % 60)
}

impl Mailer {
    /// Checks the configuration and builds the transport (no connection is
    /// made until the first mail).
    pub fn new(config: &MailConfig) -> Result<Mailer, String> {
        let url = redact(&config.smtp_url);
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&config.smtp_url)
            .map_err(|e| format!("the SMTP URL {url} is not one lettre reads (smtp://, smtps://, smtp://…?tls=required): {e}"))?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        let from: Mailbox = config.from.parse().map_err(|e| {
            format!("the sender {:?} is not a mail address (`turns@club.example`, or `warboard <turns@club.example>`): {e}", config.from)
        })?;
        let public_url = config.public_url.trim_end_matches('/').to_string();
        let host = public_url.strip_prefix("https://").or_else(|| public_url.strip_prefix("http://"));
        if host.is_none_or(|h| h.is_empty() || h.contains(char::is_whitespace)) {
            return Err(format!(
                "the public URL {:?} is not an http:// or https:// address (e.g. `https://club.example`)",
                config.public_url
            ));
        }
        Ok(Mailer { transport, from, public_url, sending: tokio::sync::Semaphore::new(SENDING_AT_ONCE) })
    }

    /// The link that switches turn mail off for the token's account.
    pub fn unsubscribe_url(&self, token: &str) -> String {
        format!("{}/api/mail/unsubscribe?token={token}", self.public_url)
    }

    /// The mail for `turn`, to `to`.
    pub fn turn_message(&self, turn: &TurnMail, to: &MailSettings) -> Result<Message, String> {
        let address: Mailbox = to.address.parse().map_err(|e| format!("the stored address is not one: {e}"))?;
        let game_url = format!("{}/game/{}", self.public_url, turn.game_id);
        let unsubscribe = self.unsubscribe_url(&to.unsubscribe_token);
        let TurnMail { ruleset, round, power, .. } = turn;
        let body = format!(
            "It is {power}'s turn in round {round} of your {ruleset} game, and {power} is yours.\n\
             \n\
             Play: {game_url}\n\
             \n\
             warboard mails you each time the turn passes to you in one of your games.\n\
             To stop these mails, open {unsubscribe}\n"
        );
        self.envelope(address, format!("warboard: your turn ({ruleset}, round {round}, {power})"), &unsubscribe, body)
    }

    /// The mail reminding the account in `reminder` that its time runs short.
    pub fn reminder_message(&self, reminder: &ReminderMail, to: &MailSettings) -> Result<Message, String> {
        let address: Mailbox = to.address.parse().map_err(|e| format!("the stored address is not one: {e}"))?;
        let game_url = format!("{}/game/{}", self.public_url, reminder.game_id);
        let unsubscribe = self.unsubscribe_url(&to.unsubscribe_token);
        let ReminderMail { ruleset, power, late, deadline_ms, .. } = reminder;
        let deadline = utc_minute(*deadline_ms);
        let (subject, gone) = if *late {
            (format!("warboard: your time is nearly up ({ruleset}, {power})"), "nine tenths of the time for your move are gone")
        } else {
            (format!("warboard: half your time is gone ({ruleset}, {power})"), "half the time for your move is gone")
        };
        let body = format!(
            "Your {ruleset} game waits for {power}, which is yours, and {gone}: it runs out at {deadline}.\n\
             \n\
             Play: {game_url}\n\
             \n\
             warboard mails you when the turn passes to you in one of your games, and when your time runs short.\n\
             To stop these mails, open {unsubscribe}\n"
        );
        self.envelope(address, subject, &unsubscribe, body)
    }

    /// A plain-text mail from the server with the headers every one of its
    /// mails carries.
    fn envelope(&self, address: Mailbox, subject: String, unsubscribe: &str, body: String) -> Result<Message, String> {
        // Relays often add one, but not all: a mail without is spam-like.
        let message_id = format!("<{}@{}>", new_id().map_err(|e| e.to_string())?, self.from.email.domain());
        Message::builder()
            .message_id(Some(message_id))
            .from(self.from.clone())
            .to(address)
            .subject(subject)
            .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("List-Unsubscribe"), format!("<{unsubscribe}>")))
            // RFC 8058: a mail program may switch it off with one POST.
            .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click".into()))
            // RFC 3834: no vacation replies to a robot.
            .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("Auto-Submitted"), "auto-generated".into()))
            .header(ContentType::TEXT_PLAIN)
            .body(body)
            .map_err(|e| format!("the mail could not be put together: {e}"))
    }

    /// Sends the mail for `turn` if its account wants one.
    pub async fn send_turn(&self, store: &Store, turn: &TurnMail) -> Result<(), String> {
        let Some(to) = store.turn_mail_to(&turn.account_id).await.map_err(|e| format!("the account's address could not be read: {e}"))?
        else {
            return Ok(());
        };
        let message = self.turn_message(turn, &to)?;
        let _permit = self.sending.acquire().await.map_err(|e| e.to_string())?;
        self.transport.send(message).await.map_err(|e| format!("the mail server did not take the mail: {e}"))?;
        tracing::info!(game = %turn.game_id, power = %turn.power, account = %turn.account_id, "turn mail sent");
        Ok(())
    }

    /// Sends it on a task of its own: neither the commit nor its answer
    /// waits for the mail server, and a failure only reaches the log.
    pub fn spawn_turn(self: &Arc<Self>, store: Store, turn: TurnMail) {
        let mailer = self.clone();
        tokio::spawn(async move {
            if let Err(e) = mailer.send_turn(&store, &turn).await {
                tracing::warn!(game = %turn.game_id, power = %turn.power, account = %turn.account_id, error = %e, "turn mail not sent");
            }
        });
    }

    /// Sends the reminder if its account wants turn mail.
    pub async fn send_reminder(&self, store: &Store, reminder: &ReminderMail) -> Result<(), String> {
        let Some(to) =
            store.turn_mail_to(&reminder.account_id).await.map_err(|e| format!("the account's address could not be read: {e}"))?
        else {
            return Ok(());
        };
        let message = self.reminder_message(reminder, &to)?;
        let _permit = self.sending.acquire().await.map_err(|e| e.to_string())?;
        self.transport.send(message).await.map_err(|e| format!("the mail server did not take the mail: {e}"))?;
        tracing::info!(game = %reminder.game_id, power = %reminder.power, account = %reminder.account_id, late = reminder.late, "reminder sent");
        Ok(())
    }

    /// Sends it on a task of its own, as [`Mailer::spawn_turn`] does.
    pub fn spawn_reminder(self: &Arc<Self>, store: Store, reminder: ReminderMail) {
        let mailer = self.clone();
        tokio::spawn(async move {
            if let Err(e) = mailer.send_reminder(&store, &reminder).await {
                tracing::warn!(game = %reminder.game_id, power = %reminder.power, account = %reminder.account_id, error = %e, "reminder not sent");
            }
        });
    }
}

/// Whether `address` will do: one `@` with something on each side, no
/// spaces or control characters, at most [`ADDRESS_MAX`] bytes, and an
/// address lettre can send to.
pub fn check_address(address: &str) -> Result<(), ApiError> {
    let bad = |why: &str| Err(ApiError::bad_request("mail/bad-address", format!("that is not a mail address: {why}")));
    if address.len() > ADDRESS_MAX {
        return bad(&format!("it is longer than {ADDRESS_MAX} bytes"));
    }
    if address.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad("it holds a space or a control character");
    }
    match address.split_once('@') {
        Some((local, domain)) if !local.is_empty() && !domain.is_empty() && !domain.contains('@') => {}
        _ => return bad("it needs exactly one `@` with a name before it and a domain after it"),
    }
    if address.parse::<lettre::Address>().is_err() {
        return bad("its name or domain has characters a mail address cannot have");
    }
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailUpdate {
    /// A new address; `""` forgets the address.
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    turn_mail: Option<bool>,
}

/// Other parameters are ignored, not refused: mail programs and link
/// checkers add their own to links in mails.
#[derive(Deserialize)]
pub struct UnsubscribeQuery {
    #[serde(default)]
    token: Option<String>,
}

fn settings_json(state: &AppState, settings: Option<&MailSettings>) -> Value {
    json!({
        "email": settings.map(|s| s.address.as_str()),
        "turn_mail": settings.is_some_and(|s| s.turn_mail),
        // Whether this server sends mail at all, so a page can say so.
        "sending": state.hub.mails(),
    })
}

/// `GET /api/account/mail`
pub async fn show(State(state): State<AppState>, authed: Authed) -> Result<Json<Value>, ApiError> {
    let settings = state.store.mail_settings(&authed.account.id).await?;
    Ok(Json(settings_json(&state, settings.as_ref())))
}

/// `PUT /api/account/mail`: `{"email"?, "turn_mail"?}`. A new address gets
/// turn mail on unless `turn_mail` says otherwise, and a new unsubscribe
/// link; `""` forgets the address.
pub async fn update(
    State(state): State<AppState>,
    authed: Authed,
    StrictJson(req): StrictJson<MailUpdate>,
) -> Result<Json<Value>, ApiError> {
    let id = &authed.account.id;
    let now = state.clock.now_ms();
    let current = state.store.mail_settings(id).await?;
    match req.email.as_deref() {
        Some("") => {
            if req.turn_mail == Some(true) {
                return Err(no_address());
            }
            state.store.clear_mail(id).await?;
        }
        Some(address) if current.as_ref().is_none_or(|c| c.address != address) => {
            check_address(address)?;
            let token = new_token()?;
            state.store.set_mail_address(id, address, req.turn_mail.unwrap_or(true), &token, now).await?;
        }
        _ => match (req.turn_mail, &current) {
            (Some(on), Some(_)) => state.store.set_turn_mail(id, on, now).await?,
            (Some(_), None) => return Err(no_address()),
            (None, _) => {}
        },
    }
    let settings = state.store.mail_settings(id).await?;
    Ok(Json(settings_json(&state, settings.as_ref())))
}

fn no_address() -> ApiError {
    ApiError::conflict("mail/no-address", "the account has no mail address: give one (`email`) to get turn mail")
}

/// `GET /api/mail/unsubscribe?token=…`: the link in every turn mail. Needs
/// no sign-in (the token is the proof) and answers a line of plain text,
/// for a person who clicked it; `POST` to it is a mail program's one-click
/// unsubscribe (RFC 8058).
pub async fn unsubscribe(State(state): State<AppState>, uri: axum::http::Uri) -> Result<Response, ApiError> {
    let Query(q) = Query::<UnsubscribeQuery>::try_from_uri(&uri).map_err(|e| ApiError::bad_request("request/bad-field", e.body_text()))?;
    let unknown = || {
        ApiError::not_found(
            "mail/unknown-token",
            "this unsubscribe link is unknown: it may be from a mail to an address the account has since changed",
        )
    };
    let token = q.token.filter(|t| !t.is_empty() && t.len() <= 128).ok_or_else(unknown)?;
    let (name, address) = state.store.unsubscribe(&token, state.clock.now_ms()).await?.ok_or_else(unknown)?;
    let text = format!("Turn mail is off for the warboard account {name}: no more \"your turn\" mails go to {address}.\n");
    Ok(([(CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// 256 random bits from the operating system, as 64 hex digits.
fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("no randomness from the operating system: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The URL without its password, for messages and logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => match url[scheme + 3..at].split_once(':') {
            Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
            None => url.to_string(),
        },
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(smtp_url: &str) -> MailConfig {
        MailConfig { smtp_url: smtp_url.into(), from: "warboard <turns@club.example>".into(), public_url: "https://club.example/".into() }
    }

    #[test]
    fn addresses_are_checked_simply() {
        for good in ["a@b.example", "first.last+games@club.example", "x@localhost"] {
            assert!(check_address(good).is_ok(), "{good}");
        }
        let long = format!("{}@club.example", "a".repeat(250));
        for bad in
            ["", "no-at.example", "two@@club.example", "a@b@c", "@club.example", "me@", "me @club.example", "me@club.example\n", &long]
        {
            let e = check_address(bad).expect_err(bad);
            assert_eq!(e.code, "mail/bad-address", "{bad}");
        }
    }

    #[test]
    fn smtp_urls_of_every_kind_build_and_passwords_stay_out_of_debug() {
        for url in ["smtp://127.0.0.1:2525", "smtp://u:p@mail.example:587?tls=required", "smtps://u:p@mail.example"] {
            assert!(Mailer::new(&config(url)).is_ok(), "{url}");
        }
        assert!(Mailer::new(&config("http://mail.example")).is_err());
        let printed = format!("{:?}", config("smtps://user:secret@mail.example"));
        assert!(!printed.contains("secret") && printed.contains("user:***@mail.example"), "{printed}");
        let mut no_link = config("smtp://127.0.0.1");
        no_link.public_url = "club.example".into();
        assert!(Mailer::new(&no_link).is_err());
    }

    #[test]
    fn deadlines_are_told_in_utc() {
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_minute(951_782_400_000), "2000-02-29 00:00 UTC");
        assert_eq!(utc_minute(1_709_647_620_000), "2024-03-05 14:07 UTC");
    }

    #[test]
    fn a_reminder_says_when_the_time_runs_out() {
        let mailer = Mailer::new(&config("smtp://127.0.0.1:2525")).expect("a mailer");
        let reminder = ReminderMail {
            account_id: "a".into(),
            game_id: "g1".into(),
            ruleset: "classic".into(),
            power: "russia".into(),
            late: true,
            deadline_ms: 1_709_647_620_000,
        };
        let to = MailSettings { address: "bob@club.example".into(), turn_mail: true, unsubscribe_token: "t0k".into() };
        let text = String::from_utf8(mailer.reminder_message(&reminder, &to).expect("a message").formatted()).expect("UTF-8");
        assert!(text.contains("Subject: warboard: your time is nearly up (classic, russia)"), "{text}");
        assert!(text.contains("2024-03-05 14:07 UTC") && text.contains("https://club.example/game/g1"), "{text}");
        assert!(text.contains("List-Unsubscribe: <https://club.example/api/mail/unsubscribe?token=t0k>"), "{text}");
    }

    #[test]
    fn a_turn_mail_links_the_game_and_its_unsubscribe_page() {
        let mailer = Mailer::new(&config("smtp://127.0.0.1:2525")).expect("a mailer");
        let turn = TurnMail { account_id: "a".into(), game_id: "g1".into(), ruleset: "classic".into(), round: 3, power: "uk".into() };
        let to = MailSettings { address: "bob@club.example".into(), turn_mail: true, unsubscribe_token: "t0k".into() };
        let text = String::from_utf8(mailer.turn_message(&turn, &to).expect("a message").formatted()).expect("UTF-8");
        assert!(text.contains("Subject: warboard: your turn (classic, round 3, uk)"), "{text}");
        assert!(text.contains("https://club.example/game/g1"), "{text}");
        assert!(text.contains("List-Unsubscribe: <https://club.example/api/mail/unsubscribe?token=t0k>"), "{text}");
        assert!(text.contains("To: bob@club.example"), "{text}");
        assert!(text.contains("Message-ID: <") && text.contains("@club.example>"), "{text}");
    }
}
