//! The browser interface, embedded: `web/` is built by `npm run build` into
//! `web/dist`, committed, and compiled into the binary, so a machine with
//! only Rust serves the whole interface (CI rebuilds it from the lockfile
//! and fails when it differs). docs/web.md.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("../../../web/index.html");
const APP_JS: &str = include_str!("../../../web/dist/app.js");
const APP_CSS: &str = include_str!("../../../web/dist/app.css");

fn file(kind: &'static str, body: &'static str) -> Response {
    // No caching across upgrades of the binary: the files are small.
    ([(CONTENT_TYPE, kind), (CACHE_CONTROL, "no-cache")], body).into_response()
}

/// `GET /` and the interface's own paths (`/game/…`, `/lobby`): the page,
/// which reads the path itself.
pub async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX)
}

pub async fn app_js() -> Response {
    file("text/javascript; charset=utf-8", APP_JS)
}

pub async fn app_css() -> Response {
    file("text/css; charset=utf-8", APP_CSS)
}
