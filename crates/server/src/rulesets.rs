//! What a client needs to know of the games before one exists: each
//! ruleset's powers, teams and options (with their documentation and
//! defaults, for the lobby's form), and each map's spaces.

use axum::extract::Path;
use axum::Json;
use serde_json::{json, Value};
use warboard_rules::ruleset::RULESET_NAMES;
use warboard_rules::Ruleset;

use crate::error::ApiError;

fn load(name: &str) -> Result<std::sync::Arc<Ruleset>, ApiError> {
    if !RULESET_NAMES.contains(&name) {
        return Err(ApiError::not_found("start/unknown-ruleset", format!("no ruleset `{name}` (rulesets: {})", RULESET_NAMES.join(", "))));
    }
    warboard_rules::ruleset(name).map_err(|e| ApiError::internal(e.to_string()))
}

/// A ruleset as the lobby offers it, by the name a game is created with
/// (`anniversary-1941`, not the map's shared `anniversary`).
fn summary(name: &str, rs: &Ruleset) -> Value {
    let teams = rs.initial_teams();
    let powers: Vec<Value> = rs
        .power_ids()
        .map(|p| {
            let info = rs.power(p);
            json!({
                "id": info.id,
                "name": info.name,
                "team": teams.team_of(p),
                "capital": info.capital.map(|c| rs.map.name(c).to_string()),
            })
        })
        .collect();
    json!({
        "name": name,
        "title": rs.title,
        "powers": powers,
        "teams": teams.names.to_vec(),
        "options": rs.options.declared(),
    })
}

/// `GET /api/rulesets`
pub async fn list() -> Result<Json<Value>, ApiError> {
    let mut all = Vec::new();
    for name in RULESET_NAMES {
        all.push(summary(name, &*load(name)?));
    }
    Ok(Json(json!({"rulesets": all})))
}

/// `GET /api/rulesets/{name}`: the ruleset and its map's spaces.
pub async fn show(Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    let rs = load(&name)?;
    let spaces: Vec<Value> = rs
        .map
        .ids()
        .map(|id| {
            let s = rs.map.space(id);
            json!({
                "id": s.id,
                "name": s.name,
                "sea": s.is_sea(),
                "value": s.ipc,
                "owner": s.original_owner.map(|p| rs.power(p).id.clone()),
                "capital_of": s.capital_of.map(|p| rs.power(p).id.clone()),
                "victory_city": s.victory_city,
                "convoy": s.convoy.is_some(),
                "neutral": s.neutral,
                "off_limits": s.off_limits,
                "neighbours": rs.map.neighbours(id).iter().map(|n| rs.map.name(*n).to_string()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut body = summary(&name, &rs);
    body["spaces"] = json!(spaces);
    Ok(Json(json!({"ruleset": body})))
}

/// `GET /api/rulesets/{name}/board.svg`: the drawn board of the ruleset's
/// map (crate warboard-board: the project's own geometry), one element per
/// space (`space-GER`); the page colours it.
pub async fn board_svg(Path(name): Path<String>) -> Result<axum::response::Response, ApiError> {
    use axum::response::IntoResponse;
    let rs = load(&name)?;
    let svg = warboard_board::svg(&rs).map_err(ApiError::internal)?;
    Ok(([(axum::http::header::CONTENT_TYPE, "image/svg+xml"), (axum::http::header::CACHE_CONTROL, "max-age=3600")], svg).into_response())
}
