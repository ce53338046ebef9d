//! FORMAT.md's unit selectors (`{"type": T, "count": N}` or `{"id": NAME}`)
//! resolved to unit ids. Where several units fit a selector, the ones best
//! able to do the job are taken: those with the most movement left, then the
//! oldest.

use crate::battle::{self, Decision};
use crate::game::Game;
use crate::ids::{SpaceId, UnitId, UnitType};
use crate::state::Phase;

/// One selector. With `id`, that unit; otherwise `count` units of `kind`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    pub kind: Option<UnitType>,
    pub count: u32,
    pub id: Option<UnitId>,
}

fn pick(candidates: &[UnitId], game: &Game, selectors: &[Selector], place: &str) -> Result<Vec<UnitId>, String> {
    let mut chosen: Vec<UnitId> = Vec::new();
    // Named units first, so that a type selector does not take them.
    for sel in selectors.iter().filter(|s| s.id.is_some()) {
        let id = sel.id.unwrap();
        if !candidates.contains(&id) || chosen.contains(&id) {
            return Err(format!("the named unit is not one that can be chosen {place}"));
        }
        chosen.push(id);
    }
    for sel in selectors.iter().filter(|s| s.id.is_none()) {
        let Some(kind) = sel.kind else {
            return Err("a selector names a `type` or an `id`".into());
        };
        let mut taken = 0;
        for id in candidates {
            if taken == sel.count {
                break;
            }
            if !chosen.contains(id) && game.state.unit(*id).is_some_and(|u| u.kind == kind) {
                chosen.push(*id);
                taken += 1;
            }
        }
        if taken < sel.count {
            return Err(if sel.count == 1 {
                format!("there is no {} {place}", kind.words())
            } else {
                format!("there are not {} {place}, only {taken}", kind.count_words(sel.count as u64))
            });
        }
    }
    Ok(chosen)
}

/// Units for a `move` from `route[0]`: the mover's own.
pub fn for_move(game: &Game, selectors: &[Selector], route: &[SpaceId]) -> Result<Vec<UnitId>, String> {
    for_move_with(game, selectors, route, None)
}

/// Units for a `move` that names a transport: a landing from a sea zone
/// takes that transport's cargo (FORMAT.md: `transport` names which, when
/// it matters).
pub fn for_move_with(game: &Game, selectors: &[Selector], route: &[SpaceId], transport: Option<UnitId>) -> Result<Vec<UnitId>, String> {
    for_move_by(game, game.state.turn, selectors, route, transport)
}

/// As [`for_move_with`], the units of power `p` (interceptors moving out in
/// the attacker's turn).
pub fn for_move_by(game: &Game, p: crate::ids::PowerId, selectors: &[Selector], route: &[SpaceId], transport: Option<UnitId>) -> Result<Vec<UnitId>, String> {
    let Some(&from) = route.first() else { return Err("the route is empty".into()) };
    let s = &game.state;
    let rs = &game.ruleset;
    let boarding = route.get(1).is_some_and(|n| rs.map.is_sea(*n)) && rs.map.is_land(from);
    // `[S, S]` with `transport` moves cargo to that ship: it is not aboard
    // it yet.
    let landing_from = transport.filter(|_| rs.map.is_sea(from) && route.get(1) != Some(&from));
    let mut candidates: Vec<&crate::state::Unit> = s
        .units
        .iter()
        .filter(|u| u.at == from && u.mover() == p)
        .filter(|u| landing_from.is_none() || u.carried_by == landing_from || !rs.stats(u.kind).is_land())
        .collect();
    candidates.sort_by_key(|u| {
        let noncombat_stuck = s.phase == Phase::NoncombatMove && (u.flags.moved_in_combat || u.flags.fought) && !rs.stats(u.kind).is_air();
        (u.flags.unloaded || u.flags.captured || noncombat_stuck, boarding && u.moved > 0, u.moved, u.carried_by, u.id)
    });
    let ids: Vec<UnitId> = candidates.iter().map(|u| u.id).collect();
    pick(&ids, game, selectors, &format!("at {}", rs.map.name(from)))
}

/// Units for the Soviet Patriotic War's `convert` at `at`: allied land and
/// air units there, British before American (FORMAT.md v2: "A type
/// selector takes British units before American ones"), i.e. in power order.
pub fn for_convert(game: &Game, selectors: &[Selector], at: SpaceId) -> Result<Vec<UnitId>, String> {
    let s = &game.state;
    let rs = &game.ruleset;
    let mut candidates: Vec<&crate::state::Unit> = s
        .units
        .iter()
        .filter(|u| u.at == at && u.owner != s.turn && s.allied(u.owner, s.turn) && !rs.stats(u.kind).is_sea() && !rs.stats(u.kind).factory)
        .collect();
    candidates.sort_by_key(|u| (u.owner, u.id));
    let ids: Vec<UnitId> = candidates.iter().map(|u| u.id).collect();
    pick(&ids, game, selectors, &format!("of the turn power's allies at {}", rs.map.name(at)))
}

/// Fighters of `by` at `at` for an `intercept`.
pub fn for_intercept(game: &Game, selectors: &[Selector], at: SpaceId, by: crate::ids::PowerId) -> Result<Vec<UnitId>, String> {
    let rs = &game.ruleset;
    let ids: Vec<UnitId> = game.state.units.iter().filter(|u| u.at == at && u.owner == by && rs.stats(u.kind).is_air()).map(|u| u.id).collect();
    pick(&ids, game, selectors, &format!("of {} at {}", rs.power(by).id, rs.map.name(at)))
}

/// Units for a `reclaim` at `at`: the turn power's units there that a
/// teammate uses (Alternative `assisting_teammates`).
pub fn for_reclaim(game: &Game, selectors: &[Selector], at: SpaceId) -> Result<Vec<UnitId>, String> {
    let s = &game.state;
    let ids: Vec<UnitId> = s.units.iter().filter(|u| u.at == at && u.owner == s.turn && u.controller.is_some()).map(|u| u.id).collect();
    pick(&ids, game, selectors, &format!("lent at {}", game.ruleset.map.name(at)))
}

/// Units for a battle decision: the casualties the pending hits may take,
/// or the deciding side's submarines.
pub fn for_battle(game: &Game, selectors: &[Selector]) -> Result<Vec<UnitId>, String> {
    let Some((i, decision)) = battle::decision(&game.ruleset, &game.state) else {
        return Err("no battle is waiting for a decision".into());
    };
    let b = &game.state.battles[i];
    let candidates: Vec<UnitId> = match decision {
        Decision::Casualties { candidates, .. } => candidates,
        Decision::AttackerSubmarines => battle::casualties::attackers(&game.ruleset, &game.state, b),
        Decision::DefenderSubmarines => battle::casualties::defenders(&game.ruleset, &game.state, b),
        Decision::PressOrRetreat => {
            let mut v = battle::casualties::attackers(&game.ruleset, &game.state, b);
            v.extend(battle::casualties::defenders(&game.ruleset, &game.state, b));
            v
        }
    };
    pick(&candidates, game, selectors, &format!("in the battle at {}", game.ruleset.map.name(b.at)))
}
