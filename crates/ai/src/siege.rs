//! The end game's siege of the last enemy capital. Classic's long end
//! games were this: Berlin taken, Japan held Tokyo for ten rounds behind a
//! screen of sixteen transports in its only sea zone (each defends at 1;
//! four battleships lose to them), while the Allies' armies waited aboard in
//! the next zones.
//!
//! Under `Style::siege`, once only one enemy capital stands
//! (`last_capital`) and every sea zone beside it holds enemy ships
//! (`last_capital_screen`), the purchase first buys what wins that sea
//! battle (aircraft, and warships that can sail there within two turns),
//! chosen by the calculator, and the combat move strikes the screen when
//! the trade in IPCs favours it even where it cannot yet sweep it.
//!
//! Tried and left out: placing new units at the factory nearest the last
//! capital (the American army on the Pacific coast while its transports
//! were in the Atlantic): in planner games the sieges lasted a little
//! longer with it, not shorter (BENCHMARKS.md, "The siege").

use crate::geo::{self, FAR};
use crate::odds::Odds;
use std::collections::BTreeMap;
use std::sync::Arc;
use warboard_rules::game::Relations;
use warboard_rules::ids::{PowerId, SpaceId, UnitType};
use warboard_rules::ruleset::Ruleset;

/// The only enemy capital still in enemy hands, where the enemy had more
/// than one: the end game, where the whole plan is that capital. While
/// others stand, the money serves the war where it is being decided; and
/// where the enemy only ever had one (Europe's Berlin), it is the whole
/// game from the first round, not an end game.
pub fn last_capital(rel: &Relations<'_>, p: PowerId) -> Option<SpaceId> {
    let rs = rel.rs;
    let s = rel.s;
    let mut capitals: Vec<SpaceId> = rs.power_ids().filter(|q| rs.plays(*q) && rel.enemies(p, *q)).filter_map(|q| rs.power(q).capital).collect();
    capitals.sort_unstable();
    capitals.dedup();
    let standing: Vec<SpaceId> = capitals.iter().copied().filter(|c| s.control[c.index()].is_some_and(|h| rel.enemies(p, h))).collect();
    match (capitals.len(), &standing[..]) {
        (2.., [capital]) => Some(*capital),
        _ => None,
    }
}

/// The screen in front of the last enemy capital (`last_capital`), where
/// no friendly land borders it (troops must land) and every sea zone beside
/// it holds enemy ships: the zone a landing must first clear, the one with
/// the weakest enemy defence.
pub fn last_capital_screen(rel: &Relations<'_>, p: PowerId) -> Option<SpaceId> {
    let rs = rel.rs;
    let capital = last_capital(rel, p)?;
    let neighbours = rs.map.neighbours(capital);
    if neighbours.iter().any(|t| rs.map.is_land(*t) && rel.friendly_land(p, *t)) {
        return None;
    }
    let zones: Vec<SpaceId> = neighbours.iter().copied().filter(|z| rs.map.is_sea(*z)).collect();
    if zones.is_empty() || zones.iter().any(|z| rel.enemy_defenders(p, *z).next().is_none()) {
        return None;
    }
    let strength = |z: SpaceId| -> u32 { rel.enemy_defenders(p, z).map(|u| rs.stats(u.kind).defense as u32 * rs.stats(u.kind).hit_points.max(1) as u32).sum() };
    zones.into_iter().min_by_key(|z| (strength(*z), z.0))
}

/// `p`'s units that can fight the sea battle, with those `bought` this
/// turn: aircraft and armed ships that carry no troops.
pub fn strike_force(rel: &Relations<'_>, p: PowerId, bought: &BTreeMap<UnitType, u32>) -> Vec<(UnitType, u32)> {
    let rs = rel.rs;
    let mut force: BTreeMap<UnitType, u32> = bought.iter().filter(|(t, _)| is_striker(rs, **t)).map(|(t, n)| (*t, *n)).collect();
    for u in rel.s.units.iter().filter(|u| u.owner == p && is_striker(rs, u.kind)) {
        *force.entry(u.kind).or_default() += 1;
    }
    force.into_iter().collect()
}

fn is_striker(rs: &Ruleset, t: UnitType) -> bool {
    let st = rs.stats(t);
    st.attack > 0 && (st.is_air() || (st.is_sea() && st.transport_capacity() == 0))
}

/// The buyable types that can join the battle at `zone` soon: aircraft,
/// and armed ships that sail there from a zone beside one of `factories`
/// within two turns.
pub fn buyable_strikers(rel: &Relations<'_>, p: PowerId, zone: SpaceId, factories: &[SpaceId]) -> Vec<UnitType> {
    let rs = rel.rs;
    let from_zone = geo::sea_distances(rel, p, zone, |z| rs.map.is_sea(z));
    let sail = factories
        .iter()
        .flat_map(|f| rs.map.neighbours(*f).iter().copied())
        .filter(|z| rs.map.is_sea(*z))
        .map(|z| from_zone[z.index()])
        .min()
        .unwrap_or(FAR);
    rs.unit_types()
        .filter(|u| u.buyable && u.cost > 0 && is_striker(rs, u.kind))
        .filter(|u| u.is_air() || sail <= 2 * u.movement as u32)
        .map(|u| u.kind)
        .collect()
}

/// What to buy, one unit at a time, until `force` would win the battle at
/// the screen at least `needed` of the time: each time the type that adds
/// most to the IPCs the battle is expected to destroy, net of its own
/// losses, per IPC spent (the win chance itself hardly moves until the
/// force is nearly large enough), among `types`. `take(t)` buys one if the
/// bank and the factories allow.
pub fn buy_breakers(
    rs: &Arc<Ruleset>,
    odds: &impl Odds,
    enemies: &[(UnitType, u32)],
    mut force: Vec<(UnitType, u32)>,
    types: &[UnitType],
    needed: f64,
    mut take: impl FnMut(UnitType) -> bool,
) {
    let with = |force: &[(UnitType, u32)], t: UnitType| -> Vec<(UnitType, u32)> {
        let mut f = force.to_vec();
        match f.iter_mut().find(|(k, _)| *k == t) {
            Some(e) => e.1 += 1,
            None => f.push((t, 1)),
        }
        f
    };
    let worth = |force: &[(UnitType, u32)]| -> (f64, f64) {
        if force.is_empty() {
            return (0.0, f64::NEG_INFINITY);
        }
        let a = odds.assess(rs, force, enemies, false);
        (a.win, a.swing.unwrap_or(a.win * 100.0))
    };
    let (mut chance, mut swing) = worth(&force);
    while chance < needed {
        let mut options: Vec<(UnitType, f64, f64)> = types.iter().map(|t| (*t, worth(&with(&force, *t)))).map(|(t, (c, w))| (t, c, w)).collect();
        let per_ipc = |o: &(UnitType, f64, f64)| (o.2 - swing) / rs.stats(o.0).cost as f64;
        options.sort_by(|a, b| per_ipc(b).total_cmp(&per_ipc(a)));
        let Some(&(t, c, w)) = options.iter().find(|o| o.2 > swing && take(o.0)) else { break };
        force = with(&force, t);
        (chance, swing) = (c, w);
    }
}
