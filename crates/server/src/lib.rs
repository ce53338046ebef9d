//! `warboard serve`: games that live on a server (issue 29). Accounts and
//! seats over HTTP, play over WebSocket in the engine protocol's words, and
//! every accepted action committed to SQLite or PostgreSQL before anyone
//! hears of it. The rules are the rules core's, driven through the same
//! table as the terminal game and the engine protocol (crate
//! warboard-table); this crate adds only transport, storage and accounts.
//! docs/server.md has the routes, the messages and how to run it.

pub mod app;
pub mod auth;
pub mod bids;
pub mod calc;
pub mod chat;
pub mod clock;
pub mod correspondence;
pub mod error;
pub mod ladder;
pub mod live;
pub mod lobby;
pub mod mail;
pub mod moderation;
pub mod orders;
pub mod proven;
pub mod rulesets;
pub mod store;
pub mod web;
pub mod witness;
pub mod ws;

pub use app::{router, serve, AppState, Config};
