//! Europe's convoy centres: who controls a convoy zone (EUROPE FAQ:
//! Submarines; Industry, IPCs, Convoys, and Production; FORMAT.md v2,
//! "Convoys"). What a convoy pays is in `relations.rs` (`income_parts`).

use super::Ctx;
use crate::ids::{PowerId, SpaceId, UnitId, UnitType};
use crate::ruleset::Ruleset;
use crate::state::GameState;

impl Ctx<'_> {
    /// Ships of `p` that moved along `route`: a warship among them passing
    /// through an enemy's convoy zone that holds no warship of the convoy's
    /// side takes it (EUROPE FAQ: "Axis subs can move into or through
    /// Convoy centers"; FORMAT.md v2 gives taking a convoy in passing to
    /// German warships). The Allies reopen a route by ending a move there.
    /// A submerged submarine counts (FORMAT.md v2, "Convoys").
    pub(crate) fn convoys_passed(&mut self, p: PowerId, ships: &[UnitId], route: &[SpaceId]) {
        let (rs, s) = (self.rs, &mut *self.s);
        if !ships.iter().any(|id| s.unit(*id).is_some_and(|u| is_warship(rs, u.kind))) {
            return;
        }
        for &z in &route[1..route.len().saturating_sub(1)] {
            let Some(convoy) = &rs.map.space(z).convoy else { continue };
            if s.allied(p, convoy.owner) {
                continue;
            }
            let contested = s.units.iter().any(|u| u.at == z && is_warship(rs, u.kind) && !s.allied(u.owner, p));
            if !contested {
                take_convoy(rs, s, z, p);
            }
        }
    }
}

/// Whenever a convoy zone holds warships (sea units with an attack value:
/// not transports; submerged submarines included) of one side only, that
/// side controls it: the zone's owner for its own side, otherwise the power
/// of the first such warship. Otherwise control stays. Run after every
/// action and on a position built by hand.
pub(crate) fn settle_convoys(rs: &Ruleset, s: &mut GameState) {
    for z in rs.map.ids().filter(|z| rs.map.space(*z).convoy.is_some()) {
        let mut sides = s.units.iter().filter(|u| u.at == z && is_warship(rs, u.kind)).map(|u| u.owner);
        let Some(first) = sides.next() else { continue };
        if sides.all(|p| s.allied(p, first)) {
            take_convoy(rs, s, z, first);
        }
    }
}

fn is_warship(rs: &Ruleset, kind: UnitType) -> bool {
    let st = rs.stats(kind);
    st.is_sea() && st.attack > 0
}

/// Control of convoy zone `z` passes to the side of `p`: to the zone's owner
/// if `p` is on its side, else to `p`.
fn take_convoy(rs: &Ruleset, s: &mut GameState, z: SpaceId, p: PowerId) {
    let Some(convoy) = &rs.map.space(z).convoy else { return };
    let new = if s.allied(p, convoy.owner) { convoy.owner } else { p };
    s.control[z.index()] = Some(new);
}
