//! Declaring battles during combat move.

use super::{Battle, BattleKind, BattleResult, Stage};
use crate::game::Ctx;
use crate::ids::SpaceId;

impl Ctx<'_> {
    fn battle_kind_at(&self, at: SpaceId) -> BattleKind {
        if self.rs.map.is_sea(at) {
            BattleKind::Sea
        } else {
            BattleKind::Land
        }
    }

    /// Records that units moved along `route` into a battle at its end. The
    /// spaces they came from (the last step, and for blitzes and overflights
    /// the spaces passed) are where a retreat may go (DAAK 4.1(b)).
    pub fn declare_battle(&mut self, at: SpaceId, route: &[SpaceId], ships: bool) {
        self.declare(at, self.battle_kind_at(at), route, ships);
    }

    fn declare(&mut self, at: SpaceId, kind: BattleKind, route: &[SpaceId], ships: bool) {
        let attacker = self.s.turn;
        let i = match self.s.battles.iter().position(|b| b.at == at && b.kind == kind && !b.result.is_over()) {
            Some(i) => i,
            None => {
                self.s.battles.push(Battle {
                    at,
                    attacker,
                    kind,
                    result: BattleResult::Pending,
                    came_from: Vec::new(),
                    ships_came_from: Vec::new(),
                    round: 0,
                    stage: Stage::AaFire,
                    pending: None,
                    dying: Vec::new(),
                    struck: Vec::new(),
                    amphibious: false,
                });
                self.s.battles.len() - 1
            }
        };
        let b = &mut self.s.battles[i];
        if route.len() >= 2 {
            for &s in &route[..route.len() - 1] {
                // Every space of the declared route that borders the battle.
                if s != at && self.rs.map.adjacent(s, at) && !b.came_from.contains(&s) {
                    b.came_from.push(s);
                }
            }
            // Zones attacking ships came from or through (German 4.2(3)).
            if ships {
                for &s in &route[..route.len() - 1] {
                    if s != at && self.rs.map.adjacent(s, at) && !b.ships_came_from.contains(&s) {
                        b.ships_came_from.push(s);
                    }
                }
            }
        }
    }

    /// A strategic bombing raid at `at`.
    pub fn declare_bombing(&mut self, at: SpaceId, route: &[SpaceId]) {
        self.declare(at, BattleKind::Bombing, route, false);
    }

    /// When combat move ends, ships still sharing a zone with enemy ships
    /// must fight (the Europe FAQ rules the same): such zones get a battle.
    pub fn declare_standing_battles(&mut self) {
        let p = self.s.turn;
        let zones: Vec<SpaceId> = self
            .rs
            .map
            .ids()
            .filter(|z| self.rs.map.is_sea(*z))
            .filter(|z| self.s.units.iter().any(|u| u.at == *z && u.owner == p && self.rs.stats(u.kind).is_sea()))
            .filter(|z| self.rel().enemy_units(p, *z).next().is_some())
            .filter(|z| !self.s.battles.iter().any(|b| b.at == *z && b.kind == BattleKind::Sea))
            .collect();
        for z in zones {
            self.declare(z, BattleKind::Sea, &[], true);
        }
    }
}
