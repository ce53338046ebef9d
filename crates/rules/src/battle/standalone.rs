//! A battle on its own, outside a game: the position the odds calculator
//! and the computer players ask about ("if I attack with this against
//! that?"). It is an ordinary game position in the combat phase with one
//! declared battle, so it is fought by the same engine as every other.

use super::{Battle, BattleKind, BattleResult, Stage};
use crate::game::Game;
use crate::ids::{PowerId, Side, SpaceId, UnitType};
use crate::ruleset::Ruleset;
use crate::state::Phase;
use std::sync::Arc;

/// What to fight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BattleSpec {
    pub attackers: Vec<(UnitType, u32)>,
    pub defenders: Vec<(UnitType, u32)>,
    /// The attacking land units come straight from transports (no retreat;
    /// battleships among the attackers bombard instead of fighting).
    pub amphibious: bool,
}

/// The standalone battle: the game and where the battle is.
#[derive(Clone, Debug)]
pub struct Standalone {
    pub game: Game,
    pub at: SpaceId,
    /// Where a retreat goes.
    pub retreat_to: SpaceId,
}

/// Builds the position. Land battles are fought in a coastal territory of
/// the first Allied power, sea battles in a sea zone beside it; the attacker
/// is the first Axis power. Errors name what cannot be fought.
pub fn build(ruleset: Arc<Ruleset>, spec: &BattleSpec) -> Result<Standalone, String> {
    let rs = ruleset.clone();
    let side_power = |side: Side| rs.power_ids().find(|p| rs.side(*p) == side).ok_or("the ruleset has no such side");
    let attacker: PowerId = side_power(Side::Axis)?;
    let defender: PowerId = side_power(Side::Allies)?;
    if spec.attackers.iter().all(|(_, n)| *n == 0) {
        return Err("the attacking side is empty".into());
    }
    if spec.defenders.iter().all(|(_, n)| *n == 0) {
        return Err("the defending side is empty".into());
    }
    for (t, _) in spec.attackers.iter().chain(&spec.defenders) {
        if rs.unit(*t).is_none() {
            return Err(format!("there are no {t} units in ruleset {}", rs.name));
        }
    }
    let is = |t: UnitType, f: fn(&crate::ruleset::UnitStats) -> bool| f(rs.stats(t));
    let has_land = spec.attackers.iter().chain(&spec.defenders).any(|(t, n)| *n > 0 && is(*t, |s| s.is_land()));
    let has_sea_defender = spec.defenders.iter().any(|(t, n)| *n > 0 && is(*t, |s| s.is_sea()));
    let sea_battle = !has_land && has_sea_defender;
    if has_land && has_sea_defender {
        return Err("land units and ships never meet in one battle: ships defend at sea, land units on land".into());
    }
    if !sea_battle {
        // In a land battle the attacker's ships only bombard (amphibious).
        if spec.attackers.iter().any(|(t, n)| *n > 0 && is(*t, |s| s.is_sea()) && (!spec.amphibious || rs.stats(*t).bombard == 0)) {
            return Err("ships do not fight in a land battle (battleships bombard in an amphibious assault)".into());
        }
        if spec.defenders.iter().any(|(t, n)| *n > 0 && is(*t, |s| s.is_sea())) {
            return Err("ships cannot defend a land territory".into());
        }
    }
    // A coastal land territory of the defender with a land neighbour.
    let map = &rs.map;
    let land = map
        .ids()
        .find(|t| {
            map.space(*t).original_owner == Some(defender)
                && map.neighbours(*t).iter().any(|n| map.is_sea(*n))
                && map.neighbours(*t).iter().any(|n| map.is_land(*n) && !map.space(*n).neutral)
        })
        .ok_or("no coastal territory to fight in")?;
    let zone = *map.neighbours(land).iter().find(|n| map.is_sea(**n)).unwrap();
    let (at, retreat_to) = if sea_battle {
        let other = *map.neighbours(zone).iter().find(|n| map.is_sea(**n)).ok_or("a sea zone with no sea neighbour")?;
        (zone, other)
    } else {
        (land, *map.neighbours(land).iter().find(|n| map.is_land(**n) && !map.space(**n).neutral).unwrap())
    };
    let mut game = Game::empty(ruleset);
    let s = &mut game.state;
    s.round = 2;
    s.turn = attacker;
    s.phase = Phase::Combat;
    if map.is_land(retreat_to) {
        s.control[retreat_to.index()] = Some(attacker);
    }
    let mut transports = Vec::new();
    for &(t, n) in &spec.attackers {
        for _ in 0..n {
            let st = rs.stats(t);
            let place = if !sea_battle && st.is_sea() { zone } else { at };
            let id = s.add_unit(t, attacker, place);
            let u = s.unit_mut(id).unwrap();
            u.flags.moved_in_combat = true;
            if !sea_battle && spec.amphibious && st.is_land() {
                transports.push(id);
            }
        }
    }
    // Each landing unit came from a transport in the zone beside it.
    if !transports.is_empty() {
        let carrier = rs.unit_types().find(|u| u.transport_capacity() > 0).map(|u| u.kind).ok_or("no transports in this ruleset")?;
        for land_unit in transports {
            let tr = s.add_unit(carrier, attacker, zone);
            s.unit_mut(tr).unwrap().flags.transport_unloaded = true;
            s.unit_mut(land_unit).unwrap().landed_from = Some(tr);
        }
    }
    for &(t, n) in &spec.defenders {
        for _ in 0..n {
            s.add_unit(t, defender, at);
        }
    }
    let defending: Vec<crate::ruleset::SetupUnit> = spec
        .defenders
        .iter()
        .map(|&(kind, count)| crate::ruleset::SetupUnit { at, owner: defender, kind, count })
        .collect();
    if let Some((entry, problem)) = crate::setup::placement_problems(&rs, &defending).into_iter().next() {
        return Err(format!("{entry}: {problem}"));
    }
    s.battles.push(Battle {
        at,
        attacker,
        kind: if sea_battle { BattleKind::Sea } else { BattleKind::Land },
        result: BattleResult::Pending,
        came_from: vec![retreat_to],
        ships_came_from: if sea_battle { vec![retreat_to] } else { Vec::new() },
        round: 0,
        stage: Stage::AaFire,
        pending: None,
        dying: Vec::new(),
        struck: Vec::new(),
        amphibious: false,
    });
    Ok(Standalone { game, at, retreat_to })
}
