//! Standing orders over HTTP (issue 31, point 3; docs/server.md,
//! "Standing orders"): a player sets, for a power it holds, what answers
//! that power's battle decisions at once (an order of loss, submarines,
//! retreat: `warboard_table::orders`), so that a battle of a correspondence
//! game need not wait days for each choice. Orders are the player's own:
//! only the seat's holder reads or changes them.
//!
//! - `GET    /api/games/{id}/orders/{power}`: the orders (`{}` for none);
//! - `PUT    /api/games/{id}/orders/{power}`: set them;
//! - `DELETE /api/games/{id}/orders/{power}`: remove them.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use warboard_table::orders::StandingOrders;

use crate::app::{AppState, StrictJson};
use crate::auth::Authed;
use crate::error::ApiError;
use crate::store::SeatKind;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{id}/orders/{power}", get(show).put(set).delete(remove))
}

/// The power's seat is held by the account asking.
async fn check_holder(state: &AppState, authed: &Authed, id: &str, power: &str) -> Result<(), ApiError> {
    crate::lobby::game_row(&state.store, id).await?;
    let seats = state.store.seats(id).await?;
    let seat = seats.iter().find(|s| s.power == power).ok_or_else(|| ApiError::not_found("start/unknown-power", format!("the game has no power `{power}`")))?;
    if seat.kind != SeatKind::Account || seat.account_id.as_deref() != Some(authed.account.id.as_str()) {
        return Err(ApiError::forbidden("orders/not-yours", format!("only the player holding {power} gives its standing orders")));
    }
    Ok(())
}

async fn show(State(state): State<AppState>, authed: Authed, Path((id, power)): Path<(String, String)>) -> Result<Json<Value>, ApiError> {
    check_holder(&state, &authed, &id, &power).await?;
    let orders = state.store.orders(&id).await?.into_iter().find(|(p, _)| *p == power).map(|(_, json)| json);
    let orders: Value = match orders {
        Some(json) => serde_json::from_str(&json).map_err(|e| ApiError::internal(e.to_string()))?,
        None => json!({}),
    };
    Ok(Json(json!({"power": power, "orders": orders})))
}

async fn set(
    State(state): State<AppState>,
    authed: Authed,
    Path((id, power)): Path<(String, String)>,
    StrictJson(orders): StrictJson<StandingOrders>,
) -> Result<Json<Value>, ApiError> {
    check_holder(&state, &authed, &id, &power).await?;
    let game = state.hub.game(&id).await?;
    {
        let mut inner = game.inner.lock().await;
        let rs = inner.table.game().ruleset.clone();
        let p = rs.power_by_name(&power).ok_or_else(|| ApiError::not_found("start/unknown-power", format!("the game has no power `{power}`")))?;
        if let Some(bad) = orders.losses.iter().find(|k| rs.unit(**k).is_none()) {
            return Err(ApiError::bad_request("orders/unknown-unit", format!("{} has no unit `{}`", rs.name, bad.name())));
        }
        let text = serde_json::to_string(&orders).map_err(|e| ApiError::internal(e.to_string()))?;
        state.store.set_orders(&id, &power, Some(&text), state.clock.now_ms()).await?;
        inner.table.set_orders(p, Some(orders.clone()));
    }
    // A decision waiting now may be answered at once.
    state.hub.kick(game);
    Ok(Json(json!({"power": power, "orders": orders})))
}

async fn remove(State(state): State<AppState>, authed: Authed, Path((id, power)): Path<(String, String)>) -> Result<Json<Value>, ApiError> {
    check_holder(&state, &authed, &id, &power).await?;
    let game = state.hub.game(&id).await?;
    let mut inner = game.inner.lock().await;
    let p = inner.table.game().ruleset.power_by_name(&power).ok_or_else(|| ApiError::not_found("start/unknown-power", format!("the game has no power `{power}`")))?;
    state.store.set_orders(&id, &power, None, state.clock.now_ms()).await?;
    inner.table.set_orders(p, None);
    Ok(Json(json!({"power": power, "orders": {}})))
}
