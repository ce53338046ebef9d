//! `warboard serve`.
pub mod store;
