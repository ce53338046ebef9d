//! The calculator as a service: exact odds of a battle written as `warboard
//! calc` takes it ("3 inf 2 arm vs 4 inf 1 arm"), in any ruleset, for the
//! interface's calculator page.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use warboard_calc::{Battle, CalcOptions, Calculator};

use crate::app::{AppState, StrictJson};
use crate::error::ApiError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalcRequest {
    ruleset: String,
    /// "3 inf 2 arm vs 4 inf", as `warboard calc` reads it.
    battle: String,
    /// An amphibious assault (units from transports cannot retreat).
    #[serde(default)]
    amphibious: bool,
    /// Low Luck dice (the ruleset's option `low_luck`, docs/low-luck.md).
    #[serde(default)]
    low_luck: bool,
}

/// `POST /api/calc`: the exact outcome distribution.
pub async fn calc(State(state): State<AppState>, StrictJson(req): StrictJson<CalcRequest>) -> Result<Json<Value>, ApiError> {
    if req.battle.len() > 1000 {
        return Err(ApiError::bad_request("calc/too-long", "a battle is written in at most 1,000 characters"));
    }
    if !warboard_rules::ruleset::RULESET_NAMES.contains(&req.ruleset.as_str()) {
        return Err(ApiError::bad_request("start/unknown-ruleset", format!("no ruleset `{}`", req.ruleset)));
    }
    // The calculator's work is bounded by its own limits (crates/calc); it
    // runs on the blocking pool with the computer players' permits, so a
    // queue of big battles never holds up games.
    let _permit = state.hub.thinking_permit().await;
    let answer = tokio::task::spawn_blocking(move || -> Result<Value, ApiError> {
        let mut rs = warboard_rules::ruleset(&req.ruleset).map_err(|e| ApiError::internal(e.to_string()))?;
        if req.low_luck {
            let on = toml::Value::Boolean(true);
            rs = std::sync::Arc::new(rs.with_options([("low_luck", &on)]).map_err(|e| ApiError::internal(e.to_string()))?);
        }
        let mut battle = Battle::parse(&req.battle).map_err(|e| ApiError::bad_request("calc/bad-battle", e.to_string()))?;
        battle.attackers = battle.attackers.in_ruleset(&rs);
        battle.defenders = battle.defenders.in_ruleset(&rs);
        let opts = CalcOptions { amphibious: req.amphibious, ..CalcOptions::default() };
        let outcome = Calculator::new(rs).exact_uncached(&battle, &opts).map_err(|e| ApiError::bad_request("calc/refused", e.to_string()))?;
        let mut v = outcome.to_json();
        let army = |a: &warboard_calc::Army| -> Value { Value::Object(a.iter().map(|(t, n)| (t.name().to_string(), json!(n))).collect()) };
        if let Some(obj) = v.as_object_mut() {
            obj.insert("ruleset".into(), json!(req.ruleset));
            obj.insert("low_luck".into(), json!(req.low_luck));
            obj.insert("attackers".into(), army(&battle.attackers));
            obj.insert("defenders".into(), army(&battle.defenders));
        }
        Ok(v)
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(Json(answer))
}
