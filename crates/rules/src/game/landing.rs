//! Where aircraft may land (DAAK 3.4, 4.4(c)), and landing them when the
//! non-combat move ends.

use super::Ctx;
use crate::action::Event;
use crate::ids::{PowerId, SpaceId, UnitId, UnitType};
use std::collections::VecDeque;

impl Ctx<'_> {
    /// Breadth-first distances from `from`, at most `limit`, through spaces
    /// an aircraft may fly over later in the turn: anything but untaken
    /// neutral countries (DAAK 2.7(c)). `None`: out of reach.
    fn flight_distances(&self, from: SpaceId, limit: u8) -> Vec<Option<u8>> {
        let map = &self.rs.map;
        let mut dist = vec![None; map.len()];
        dist[from.index()] = Some(0);
        let mut queue = VecDeque::from([from]);
        while let Some(s) = queue.pop_front() {
            let d = dist[s.index()].unwrap();
            if d == limit {
                continue;
            }
            for &n in map.neighbours(s) {
                if dist[n.index()].is_none() && !self.rel().neutral(n) {
                    dist[n.index()] = Some(d + 1);
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    /// Free fighter room on friendly carriers in a zone now, leaving out the
    /// aircraft being moved.
    pub(crate) fn carrier_room(&self, p: PowerId, zone: SpaceId, moving: &[UnitId]) -> i32 {
        let rs = self.rs;
        let mut room = 0i32;
        for u in self.s.units_at(zone) {
            if !self.s.allied(p, u.owner) || moving.contains(&u.id) {
                continue;
            }
            let st = rs.stats(u.kind);
            if !u.flags.new {
                room += st.carrier_capacity() as i32;
            }
            room -= st.carrier_cost() as i32;
        }
        room
    }

    /// Sea zones `p`'s own carrier can still reach this turn, with the room
    /// it brings. A carrier that moved in combat or fought stays where it is.
    fn movable_carrier_zones(&self, p: PowerId, combat: bool) -> Vec<(SpaceId, i32)> {
        self.movable_carriers(p, combat).into_iter().map(|(_, z, room)| (z, room)).collect()
    }

    /// As [`Self::movable_carrier_zones`], with the carrier each entry is for.
    fn movable_carriers(&self, p: PowerId, combat: bool) -> Vec<(UnitId, SpaceId, i32)> {
        let rs = self.rs;
        let mut out = Vec::new();
        for c in self.s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).carrier_capacity() > 0 && !u.flags.new) {
            let st = rs.stats(c.kind);
            let stuck = c.flags.fought || (!combat && c.flags.moved_in_combat) || self.rel().enemy_units(p, c.at).next().is_some();
            let left = if stuck { 0 } else { st.movement.saturating_sub(c.moved) };
            if left == 0 {
                continue;
            }
            let cargo: i32 = self.s.cargo_of(c.id).map(|f| rs.stats(f.kind).carrier_cost() as i32).sum();
            let room = st.carrier_capacity() as i32 - cargo;
            // Sea moves in non-combat: no enemy ships on the way or at the end.
            let mut dist = vec![None; rs.map.len()];
            dist[c.at.index()] = Some(0u8);
            let mut queue = VecDeque::from([c.at]);
            while let Some(s) = queue.pop_front() {
                let d = dist[s.index()].unwrap();
                if d == left {
                    continue;
                }
                for &n in rs.map.neighbours(s) {
                    if rs.map.is_sea(n)
                        && dist[n.index()].is_none()
                        && self.rel().canal_open(p, s, n)
                        && self.rel().enemy_units(p, n).next().is_none()
                    {
                        dist[n.index()] = Some(d + 1);
                        queue.push_back(n);
                        out.push((c.id, n, room));
                    }
                }
            }
        }
        out
    }

    /// Whether an aircraft at `from` with `left` movement can still reach a
    /// legal landing: a friendly territory held since the start of the turn
    /// (never one conquered this turn, DAAK 4.4(c)), or, for fighters, a
    /// friendly carrier with room where it will be without retreating
    /// (DAAK 3.4(g): a carrier in a declared battle counts, a retreat does
    /// not; no losses are assumed).
    pub fn landing_within(&self, p: PowerId, kind: UnitType, from: SpaceId, left: u8, moving: &[UnitId], combat: bool) -> bool {
        let dist = self.flight_distances(from, left);
        let reach = |s: SpaceId| dist[s.index()].is_some();
        if self.rs.map.ids().any(|t| reach(t) && self.rel().friendly_since_start(p, t)) {
            return true;
        }
        if self.stats(kind).carrier_cost() == 0 {
            return false;
        }
        let need = self.stats(kind).carrier_cost() as i32;
        if self.rs.map.ids().any(|z| reach(z) && self.rs.map.is_sea(z) && self.carrier_room(p, z, moving) >= need) {
            return true;
        }
        self.movable_carrier_zones(p, combat).into_iter().any(|(z, room)| reach(z) && room >= need)
    }

    /// Whether fighters moving together that can land only on carriers all
    /// find room: every fighter its own place on a carrier, none counted
    /// twice ("If there are more planes involved than can land on the
    /// available carriers, then it's an illegal, suicide attack. You cannot
    /// assume that there will be losses", EUROPE FAQ: Other Air Unit
    /// Questions; DAAK 3.4(g)). Each aircraft is at `dest` with its own
    /// movement left.
    pub fn carrier_room_for_all(&self, p: PowerId, dest: SpaceId, moving: &[(UnitId, u8)], combat: bool) -> bool {
        let mut needy: Vec<(i32, Vec<Option<u8>>)> = Vec::new();
        for &(id, left) in moving {
            let kind = self.s.unit(id).unwrap().kind;
            let need = self.stats(kind).carrier_cost() as i32;
            if need == 0 {
                continue;
            }
            let dist = self.flight_distances(dest, left);
            if self.rs.map.ids().any(|t| dist[t.index()].is_some() && self.rel().friendly_since_start(p, t)) {
                continue;
            }
            needy.push((need, dist));
        }
        if needy.len() < 2 {
            return true;
        }
        // The least mobile choose first.
        needy.sort_by_key(|(_, d)| d.iter().filter(|x| x.is_some()).count());
        let ids: Vec<UnitId> = moving.iter().map(|(id, _)| *id).collect();
        let mut fixed: Vec<(SpaceId, i32)> =
            self.rs.map.ids().filter(|z| self.rs.map.is_sea(*z)).map(|z| (z, self.carrier_room(p, z, &ids))).collect();
        // A carrier still to move serves every fighter it takes in one zone,
        // where it is or where it can go; its room is counted there only,
        // not also where it stands (less what already sits on it).
        let mut movers: Vec<(UnitId, Vec<SpaceId>, i32)> = Vec::new();
        for (c, z, _) in self.movable_carriers(p, combat) {
            match movers.iter_mut().find(|m| m.0 == c) {
                Some(m) => m.1.push(z),
                None => {
                    // Aircraft already there fill the other carriers first,
                    // then this one.
                    let u = self.s.unit(c).unwrap();
                    let capacity = self.stats(u.kind).carrier_capacity() as i32;
                    let here = fixed.iter_mut().find(|(f, _)| *f == u.at).unwrap();
                    here.1 -= capacity;
                    let overflow = here.1.min(0);
                    here.1 = here.1.max(0);
                    movers.push((c, vec![u.at, z], capacity + overflow));
                }
            }
        }
        fixed.retain(|(_, r)| *r > 0);
        'fighter: for (need, dist) in needy {
            let reach = |z: &SpaceId| dist[z.index()].is_some();
            if let Some(f) = fixed.iter_mut().find(|(z, r)| reach(z) && *r >= need) {
                f.1 -= need;
                continue;
            }
            for m in movers.iter_mut() {
                if m.2 >= need && m.1.iter().any(reach) {
                    m.1.retain(reach);
                    m.2 -= need;
                    continue 'fighter;
                }
            }
            return false;
        }
        true
    }

    /// When non-combat move ends, aircraft land: on friendly territory held
    /// since the start of the turn, or fighters on friendly carriers with
    /// room. Others are lost. Fighters on another power's carrier become its
    /// cargo and travel with it (DAAK 3.4(c)).
    pub fn land_aircraft(&mut self) {
        let p = self.s.turn;
        let rs = self.rs;
        let air: Vec<UnitId> = self.s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air()).map(|u| u.id).collect();
        let mut lost: Vec<UnitId> = Vec::new();
        let mut zones: Vec<SpaceId> = Vec::new();
        for id in air {
            let u = self.s.unit(id).unwrap();
            if rs.map.is_land(u.at) {
                if !self.rel().friendly_since_start(p, u.at) {
                    lost.push(id);
                }
            } else if rs.stats(u.kind).carrier_cost() == 0 {
                lost.push(id);
            } else if !zones.contains(&u.at) {
                zones.push(u.at);
            }
        }
        for z in zones {
            // Other powers' fighters have landed already; this power's take
            // what room is left, own carriers first.
            let mut carriers: Vec<(UnitId, PowerId, i32)> = self
                .s
                .units_at(z)
                .filter(|u| self.s.allied(p, u.owner) && rs.stats(u.kind).carrier_capacity() > 0 && !u.flags.new)
                .map(|u| (u.id, u.owner, rs.stats(u.kind).carrier_capacity() as i32))
                .collect();
            carriers.sort_by_key(|c| (c.1 != p, c.0));
            let others_need: i32 = self
                .s
                .units_at(z)
                .filter(|u| u.owner != p && self.s.allied(p, u.owner) && rs.stats(u.kind).is_air())
                .map(|u| rs.stats(u.kind).carrier_cost() as i32)
                .sum();
            // Other powers' fighters fill their own carriers first.
            let mut others_left = others_need;
            for c in carriers.iter_mut() {
                if c.1 != p && others_left > 0 {
                    let used = others_left.min(c.2);
                    c.2 -= used;
                    others_left -= used;
                }
            }
            for c in carriers.iter_mut() {
                if c.1 == p && others_left > 0 {
                    let used = others_left.min(c.2);
                    c.2 -= used;
                    others_left -= used;
                }
            }
            let mine: Vec<UnitId> = self.s.units_at(z).filter(|u| u.owner == p && rs.stats(u.kind).is_air()).map(|u| u.id).collect();
            for f in mine {
                let cost = rs.stats(self.s.unit(f).unwrap().kind).carrier_cost() as i32;
                match carriers.iter_mut().find(|c| c.2 >= cost) {
                    Some(c) => {
                        c.2 -= cost;
                        let carrier = if c.1 == p { None } else { Some(c.0) };
                        self.s.unit_mut(f).unwrap().carried_by = carrier;
                    }
                    None => lost.push(f),
                }
            }
        }
        if !lost.is_empty() {
            let by_space: Vec<(UnitId, SpaceId, UnitType, PowerId)> =
                lost.iter().map(|id| { let u = self.s.unit(*id).unwrap(); (u.id, u.at, u.kind, u.owner) }).collect();
            self.s.remove_units(&lost);
            for (id, at, kind, owner) in by_space {
                self.events.push(Event::Destroyed { units: vec![(id, kind, owner)], at });
            }
        }
    }
}
