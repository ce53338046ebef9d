//! Read-only questions about a position: who is friend or foe, who holds
//! what, what is where. One place for each of these facts.

use crate::ids::{Domain, PowerId, SpaceId, UnitId};
use crate::ruleset::Ruleset;
use crate::state::{GameState, Unit};

/// The parts of a power's income (FORMAT.md v2 `income_detail`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IncomeParts {
    pub territories: i32,
    pub convoys: i32,
    /// National objective bonuses met now (Anniversary option).
    pub objectives: i32,
}

impl IncomeParts {
    pub fn total(&self) -> i32 {
        self.territories + self.convoys + self.objectives
    }
}

#[derive(Clone, Copy)]
pub struct Relations<'a> {
    pub rs: &'a Ruleset,
    pub s: &'a GameState,
}

impl<'a> Relations<'a> {
    pub fn enemies(&self, a: PowerId, b: PowerId) -> bool {
        !self.s.allied(a, b)
    }
    pub fn domain(&self, u: &Unit) -> Domain {
        self.rs.stats(u.kind).domain
    }
    /// Land controlled by `p` or an ally.
    pub fn friendly_land(&self, p: PowerId, t: SpaceId) -> bool {
        self.rs.map.is_land(t) && self.s.control[t.index()].is_some_and(|q| self.s.allied(p, q))
    }
    /// Land controlled by an enemy of `p`.
    pub fn enemy_land(&self, p: PowerId, t: SpaceId) -> bool {
        self.rs.map.is_land(t) && self.s.control[t.index()].is_some_and(|q| self.enemies(p, q))
    }
    /// A neutral country nobody has taken yet.
    pub fn neutral(&self, t: SpaceId) -> bool {
        self.rs.map.is_land(t) && self.s.control[t.index()].is_none()
    }
    /// A formerly neutral country: no original owner, no income (DAAK 2.7(d)).
    pub fn formerly_neutral(&self, t: SpaceId) -> bool {
        self.rs.map.space(t).neutral && self.s.control[t.index()].is_some()
    }
    /// Friendly at the start of this turn and not taken since: where aircraft
    /// may land (DAAK 4.4(c)) and factories produce.
    pub fn friendly_since_start(&self, p: PowerId, t: SpaceId) -> bool {
        self.friendly_land(p, t)
            && self.s.start_control[t.index()].is_some_and(|q| self.s.allied(p, q))
            && !self.s.conquered[t.index()]
    }

    /// Units at a space owned by enemies of `p` (cargo included).
    pub fn enemy_units(&self, p: PowerId, at: SpaceId) -> impl Iterator<Item = &'a Unit> + 'a {
        let s = self.s;
        s.units.iter().filter(move |u| u.at == at && !s.allied(p, u.owner))
    }
    /// Enemy units that defend a space: not AA guns or factories (DAAK 3.1(c),
    /// (f)) and not transport cargo (DAAK 3.2(f)); fighters aboard a carrier
    /// do defend (DAAK 3.4(b)).
    pub fn enemy_defenders(&self, p: PowerId, at: SpaceId) -> impl Iterator<Item = &'a Unit> + 'a {
        let this = *self;
        self.enemy_units(p, at).filter(move |u| this.rs.stats(u.kind).is_combatant() && !this.on_transport(u))
    }
    /// Enemy ships at a space (they stop ships passing through).
    pub fn enemy_ships(&self, p: PowerId, at: SpaceId) -> impl Iterator<Item = &'a Unit> + 'a {
        let rs = self.rs;
        self.enemy_units(p, at).filter(move |u| rs.stats(u.kind).is_sea())
    }
    /// Enemy units at a space that are in the turn's play: a submarine
    /// that submerged this turn is out of it, and stops no movement,
    /// loading or unloading (EUROPE FAQ: Submarines; FORMAT.md v2, unit
    /// `submerged`).
    pub fn enemy_units_present(&self, p: PowerId, at: SpaceId) -> impl Iterator<Item = &'a Unit> + 'a {
        self.enemy_units(p, at).filter(|u| !u.flags.submerged)
    }
    /// Whether enemy ships at `at` stop `p`'s ships passing through. Any
    /// enemy ship does, unless `ships_ignore_subs_and_transports`: then only
    /// surface warships do (AA50 FAQ: Submarines: "Subs (and/or transports)
    /// can only be ignored during movement"; a destroyer need not stop for
    /// a sub), and submarines pass everything but a destroyer (AA50 errata
    /// p. 29: a destroyer cancels Sub Movement).
    pub fn ships_stopping(&self, p: PowerId, at: SpaceId, moving_subs_only: bool) -> bool {
        let rs = self.rs;
        let mut ships = self.enemy_units_present(p, at).filter(|u| rs.stats(u.kind).is_sea());
        if !self.rs.options.ships_ignore_subs_and_transports {
            return ships.next().is_some();
        }
        ships.any(|u| {
            let st = self.rs.stats(u.kind);
            if moving_subs_only {
                st.anti_submarine
            } else {
                !st.submarine && st.transport_capacity() == 0
            }
        })
    }
    pub fn on_transport(&self, u: &Unit) -> bool {
        u.carried_by
            .and_then(|c| self.s.unit(c))
            .is_some_and(|c| self.rs.stats(c.kind).transport_capacity() > 0)
    }
    pub fn units_of(&self, p: PowerId, at: SpaceId) -> impl Iterator<Item = &'a Unit> + 'a {
        self.s.units.iter().filter(move |u| u.at == at && u.owner == p)
    }
    pub fn factory_at(&self, at: SpaceId) -> Option<&'a Unit> {
        let rs = self.rs;
        self.s.units.iter().find(move |u| u.at == at && rs.stats(u.kind).factory)
    }

    /// Whether ships of `p` may pass between two adjacent sea zones now: a
    /// canal needs its territories friendly at the start of the turn
    /// (DAAK 2.3, 2.4).
    pub fn canal_open(&self, p: PowerId, a: SpaceId, b: SpaceId) -> bool {
        match self.rs.map.canal_between(a, b) {
            None => true,
            Some(c) => c
                .controlled_by
                .iter()
                .all(|t| self.s.start_control[t.index()].is_some_and(|q| self.s.allied(p, q))),
        }
    }

    /// Room left on a transport.
    pub fn transport_room(&self, t: UnitId) -> u8 {
        let Some(tr) = self.s.unit(t) else { return 0 };
        let cap = self.rs.stats(tr.kind).transport_capacity();
        let used: u8 = self.s.cargo_of(t).map(|c| self.rs.stats(c.kind).transport_cost()).sum();
        cap.saturating_sub(used)
    }

    /// Whether `p`'s capital is held by an enemy.
    /// A power without a capital never loses one.
    pub fn capital_lost(&self, p: PowerId) -> bool {
        let o = &self.rs.options;
        if o.no_capitals {
            return false;
        }
        if o.liberation {
            return self.rs.power(p).capital.is_some_and(|cap| self.s.control[cap.index()].is_some_and(|q| self.enemies(p, q)));
        }
        // Without liberation a capital counts only while the nation claims
        // it itself (ALT L4), or another's with `captured_capitals` (ALT L66).
        let own = self.rs.power(p).capital.is_none_or(|cap| self.s.control[cap.index()] == Some(p));
        let other = || o.captured_capitals && self.rs.map.ids().any(|t| self.rs.map.space(t).capital_of.is_some_and(|q| q != p) && self.s.control[t.index()] == Some(p));
        !own && !other()
    }

    /// The IPC value of the territories a power controls that pay it:
    /// formerly neutral countries pay nothing (DAAK 2.7(d)), nor does
    /// Europe's Middle East (`paid_by`, EUROPE FAQ: "The Allies get nothing
    /// for holding the Middle-Eastern territories").
    pub fn territory_value(&self, p: PowerId) -> i32 {
        self.rs
            .map
            .ids()
            .filter(|t| self.s.control[t.index()] == Some(p) && self.rs.map.is_land(*t))
            .map(|t| self.rs.map.space(t))
            .filter(|sp| (!sp.neutral || self.rs.options.formerly_neutral_pays) && sp.paid_by.is_none())
            .map(|sp| sp.ipc as i32)
            .sum()
    }
    /// What a power's convoys pay it: each convoy zone it owns and controls,
    /// and the land the convoy needs too (the Soviet convoy and Archangel).
    /// A convoy held by the enemy pays nobody (EUROPE FAQ: Industry, IPCs,
    /// Convoys, and Production).
    pub fn convoy_value(&self, p: PowerId) -> i32 {
        let held = |t: SpaceId| self.s.control[t.index()] == Some(p);
        self.rs
            .map
            .ids()
            .filter_map(|z| self.rs.map.space(z).convoy.as_ref().map(|c| (z, c)))
            .filter(|(z, c)| c.owner == p && held(*z) && c.requires.is_none_or(held))
            .map(|(_, c)| c.value as i32)
            .sum()
    }
    /// What a power collects at the end of its turn, by part: nothing while
    /// an enemy holds its capital (DAAK 5.2(a)).
    /// China (knob `china_power`) has no IPCs at all (AA50 FAQ: China).
    pub fn income_parts(&self, p: PowerId) -> IncomeParts {
        if self.capital_lost(p) || self.is_china(p) || !self.rs.plays(p) || self.s.eliminated.contains(&p) {
            return IncomeParts::default();
        }
        IncomeParts { territories: self.territory_value(p), convoys: self.convoy_value(p), objectives: self.objectives_met(p) }
    }
    /// Whether `p` plays by China's rules (knob `china_power`).
    pub fn is_china(&self, p: PowerId) -> bool {
        self.rs.powers[p.index()].id == self.rs.options.china_power
    }
    /// The national objective bonuses `p` meets now, with the
    /// `national_objectives` option (rules/anniversary.md §10).
    pub fn objectives_met(&self, p: PowerId) -> i32 {
        if !self.rs.options.national_objectives {
            return 0;
        }
        self.rs.objectives.iter().filter(|o| o.power == p && self.objective_met(o)).map(|o| o.bonus as i32).sum()
    }
    fn objective_met(&self, o: &crate::ruleset::Objective) -> bool {
        let p = o.power;
        let holds = |t: &SpaceId| {
            self.s.control[t.index()].is_some_and(|q| if o.by_power { q == p } else { self.s.allied(p, q) })
        };
        if o.spaces.iter().filter(|t| holds(t)).count() < o.at_least {
            return false;
        }
        let enemy_warship = |z: &SpaceId| {
            self.enemy_ships(p, *z).any(|u| {
                let st = self.rs.stats(u.kind);
                st.transport_capacity() == 0 && !st.submarine
            })
        };
        if o.no_enemy_warships_in.iter().any(enemy_warship) {
            return false;
        }
        // "No other Allied units in Soviet-controlled territories".
        !(o.no_allied_units_in_own
            && self.s.units.iter().any(|u| u.owner != p && self.s.allied(u.owner, p) && self.rs.map.is_land(u.at) && self.s.control[u.at.index()] == Some(p)))
    }
    pub fn income(&self, p: PowerId) -> i32 {
        self.income_parts(p).total()
    }
    /// What `payer` owes each enemy holding territories it pays for, out of
    /// an income of `collected` (never more): Europe's Middle East, paid by
    /// the UK when its income phase ends (EUROPE FAQ: Industry, IPCs,
    /// Convoys, and Production; FORMAT.md v2 reading: the UK pays).
    pub fn tribute(&self, payer: PowerId, collected: i32) -> Vec<(PowerId, i32)> {
        let mut owed: Vec<(PowerId, i32)> = Vec::new();
        for sp_id in self.rs.map.ids() {
            let sp = self.rs.map.space(sp_id);
            let Some(holder) = self.s.control[sp_id.index()] else { continue };
            if sp.paid_by != Some(payer) || !self.enemies(payer, holder) {
                continue;
            }
            match owed.iter_mut().find(|(q, _)| *q == holder) {
                Some(entry) => entry.1 += sp.ipc as i32,
                None => owed.push((holder, sp.ipc as i32)),
            }
        }
        let mut left = collected.max(0);
        for entry in &mut owed {
            entry.1 = entry.1.min(left);
            left -= entry.1;
        }
        owed.retain(|(_, n)| *n > 0);
        owed
    }
    /// Whether a power still takes part: it holds territory or has units.
    /// Whether the current phase is one of the whole round, where several
    /// powers act in any order (FORMAT.md v2: alternative's shopping).
    pub fn in_round_phase(&self) -> bool {
        self.rs.turn.round_phases.contains(&self.s.phase)
    }

    /// In a phase of the whole round where each power acts, the powers still
    /// to end it, in turn order; empty otherwise.
    pub fn round_actors(&self) -> Vec<PowerId> {
        if !self.in_round_phase() || !self.s.phase.each_power_acts() || self.s.winner.is_some() {
            return Vec::new();
        }
        // Alternative shopping: only nations that may buy (ALT L4).
        let buys = |p: PowerId| !self.rs.options.buy_on_claimed_territory || !self.capital_lost(p);
        self.s.order.iter().copied().filter(|p| !self.s.done.contains(p) && self.in_game(*p) && buys(*p)).collect()
    }

    /// Whether a power still takes turns: it holds a territory or a unit,
    /// and the ruleset's `sitting_out` list does not leave it out.
    pub fn in_game(&self, p: PowerId) -> bool {
        if !self.rs.plays(p) || self.s.eliminated.contains(&p) {
            return false;
        }
        self.s.control.contains(&Some(p)) || self.s.units.iter().any(|u| u.owner == p)
    }
}
