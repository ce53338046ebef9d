//! A chat per game (issue 30): the game's players talk; anyone who may
//! watch the game reads. Messages are committed before they are pushed,
//! like moves, and reach the game's watchers on other servers through the
//! same PostgreSQL notification channel.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::error::ApiError;
use crate::live::{Hub, LiveGame, Push};
use crate::store::{Backend, ChatRow};

/// The longest message, in characters.
pub const MAX_CHARS: usize = 500;
/// Messages an account may send within [`WINDOW_MS`] across all games.
pub const BURST: usize = 5;
pub const WINDOW_MS: i64 = 10_000;
/// Messages a client reads at once.
pub const PAGE: i64 = 100;

/// Who sent how much lately: a flood is refused before it reaches the
/// database or anyone's screen.
#[derive(Default)]
pub struct RateLimit {
    sent: std::sync::Mutex<HashMap<String, VecDeque<i64>>>,
}

impl RateLimit {
    /// Counts a message by `account` at `now`, or refuses it.
    fn admit(&self, account: &str, now: i64) -> Result<(), ApiError> {
        let mut sent = self.sent.lock().expect("the chat limiter is never poisoned");
        // Forget accounts that have been quiet for a window, so the map
        // stays as small as the set of people chatting.
        sent.retain(|_, times| times.back().is_some_and(|t| now - t < WINDOW_MS));
        let times = sent.entry(account.to_string()).or_default();
        while times.front().is_some_and(|t| now - t >= WINDOW_MS) {
            times.pop_front();
        }
        if times.len() >= BURST {
            return Err(ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                "chat/too-fast",
                format!("at most {BURST} messages in {} seconds: wait a moment", WINDOW_MS / 1000),
            ));
        }
        times.push_back(now);
        Ok(())
    }
}

/// A message as clients receive it, pushed or read back.
pub fn message_json(row: &ChatRow) -> Value {
    json!({"n": row.n, "by": row.name, "at": row.sent_at, "text": row.body})
}

/// The text as it will be kept: trimmed, one line or several, no control
/// characters but line breaks, at most [`MAX_CHARS`].
fn cleaned(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::bad_request("chat/empty", "the message is empty"));
    }
    if text.chars().count() > MAX_CHARS {
        return Err(ApiError::bad_request("chat/too-long", format!("a message is at most {MAX_CHARS} characters")));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(ApiError::bad_request("chat/bad-text", "a message may hold line breaks but no other control characters"));
    }
    Ok(text.to_string())
}

impl Hub {
    /// `account` says `text` in `game`: only a player of the game may.
    pub async fn say(&self, game: &Arc<LiveGame>, account: &str, text: &str) -> Result<Value, ApiError> {
        let text = cleaned(text)?;
        if game.inner.lock().await.seat_of(account).is_empty() {
            return Err(ApiError::forbidden("auth/not-a-player", "only the game's players chat in it"));
        }
        let now = self.now_ms();
        self.chat_limit().admit(account, now)?;
        let row = self.store().post_chat(&game.id, account, now, &text).await?;
        let message = message_json(&row);
        // On PostgreSQL every server, this one included, pushes a message
        // when the database announces it: one path, so nobody gets it twice.
        if self.store().backend() == Backend::Sqlite {
            let _ = game.pushes.send(Push::Chat(Arc::new(message.clone())));
        }
        Ok(message)
    }

    /// The chat as a client first reads it, or further back from `before`.
    pub async fn chat_log(&self, game: &LiveGame, before: Option<i64>) -> Result<Value, ApiError> {
        let rows = self.store().chat(&game.id, before, PAGE).await?;
        Ok(json!({"messages": rows.iter().map(message_json).collect::<Vec<_>>()}))
    }

    /// The database announced message `n` of a game this server holds (on
    /// PostgreSQL, whichever server took it): its watchers here are sent it.
    pub(crate) async fn chat_elsewhere(&self, game: &LiveGame, n: i64) {
        match self.store().chat_message(&game.id, n).await {
            Ok(Some(row)) => {
                let _ = game.pushes.send(Push::Chat(Arc::new(message_json(&row))));
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(game = %game.id, error = %e, "cannot read a chat message another server took"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_admitted_and_the_next_waits_for_the_window() {
        let limit = RateLimit::default();
        for i in 0..BURST as i64 {
            limit.admit("a", i).expect("within the burst");
        }
        assert_eq!(limit.admit("a", 100).unwrap_err().code, "chat/too-fast");
        limit.admit("b", 100).expect("another account has its own budget");
        limit.admit("a", WINDOW_MS).expect("the first message has left the window");
    }

    #[test]
    fn text_is_trimmed_and_checked() {
        assert_eq!(cleaned("  hello\n").unwrap(), "hello");
        assert_eq!(cleaned(" \n ").unwrap_err().code, "chat/empty");
        assert_eq!(cleaned(&"x".repeat(MAX_CHARS + 1)).unwrap_err().code, "chat/too-long");
        assert_eq!(cleaned("a\u{7}b").unwrap_err().code, "chat/bad-text");
        assert!(cleaned(&"ü".repeat(MAX_CHARS)).is_ok(), "characters, not bytes, are counted");
    }
}
