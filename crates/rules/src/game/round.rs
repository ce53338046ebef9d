//! The Alternative rules' round (ALT L16–24; FORMAT.md v2, "Alternative"):
//! payday and the turn order, simultaneous shopping (and fair buying, one
//! unit at a time), the end of a nation's turn, and the end of the round
//! with its eliminations and victory. Lending units (ALT L56) and a nation
//! surrendering alone are here too.

use super::Ctx;
use crate::action::{reject, reject_with, Event, RuleError};
use crate::ids::{PowerId, SpaceId, UnitId, UnitType};
use crate::state::{Phase, Winner};

impl Ctx<'_> {
    /// The nations still in the game (not left out by an option, not
    /// surrendered or eliminated), in power order.
    pub(crate) fn nations_in_play(&self) -> Vec<PowerId> {
        self.rs.power_ids().filter(|p| self.rs.plays(*p) && !self.s.eliminated.contains(p)).collect()
    }

    /// Payday (ALT L18, L22): every nation in play is paid what it claims,
    /// the round's order is drawn (most points first, ties by dice; or all
    /// by dice with `random_turn_order`), and every unit is refuelled
    /// (ALT L42).
    pub(crate) fn payday(&mut self) -> Result<(), RuleError> {
        let nations = self.nations_in_play();
        let mut paid = Vec::new();
        for &p in &nations {
            let amount = self.rel().income(p);
            self.s.ipcs[p.index()] += amount;
            self.events.push(Event::Income { power: p, amount });
            paid.push((p, if self.rs.options.random_turn_order { 0 } else { amount }));
        }
        if self.rs.options.turn_order_by_income {
            self.s.order = self.order_by(paid)?;
        }
        for u in &mut self.s.units {
            u.moved = 0;
            u.flags = Default::default();
        }
        Ok(())
    }

    /// Nations by decreasing key; equal keys each roll a die in power order,
    /// highest first, those still tied rolling again (FORMAT.md v2,
    /// "Turn order").
    fn order_by(&mut self, mut keyed: Vec<(PowerId, i32)>) -> Result<Vec<PowerId>, RuleError> {
        keyed.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut order = Vec::new();
        let mut i = 0;
        while i < keyed.len() {
            let j = (i..keyed.len()).find(|j| keyed[*j].1 != keyed[i].1).unwrap_or(keyed.len());
            let group: Vec<PowerId> = keyed[i..j].iter().map(|(p, _)| *p).collect();
            order.extend(self.settle_ties(group)?);
            i = j;
        }
        Ok(order)
    }

    fn settle_ties(&mut self, group: Vec<PowerId>) -> Result<Vec<PowerId>, RuleError> {
        if group.len() < 2 {
            return Ok(group);
        }
        let mut rolled = Vec::new();
        for p in group {
            rolled.push((p, self.roll()? as i32));
        }
        self.events.push(Event::Rolled { purpose: "turn order".into(), dice: rolled.iter().map(|(_, d)| *d as u8).collect(), hits: 0, by: Vec::new() });
        self.order_by(rolled)
    }

    /// Whether `p` may collect and buy now: it claims its capital (or, with
    /// `captured_capitals`, another's), or capitals do not count (ALT L4).
    pub(crate) fn may_buy(&self, p: PowerId) -> bool {
        !self.rel().capital_lost(p)
    }

    /// Putting bought units down in `shopping` (ALT L20, L30, L32, L38):
    /// land units on a territory the nation claims, ships in a sea zone next
    /// to one, planes on such a territory or aboard a friendly ship with
    /// room in such a zone; never where enemy planes are.
    pub(crate) fn place_bought(&mut self, at: SpaceId, units: &[(UnitType, u32)]) -> Result<(), RuleError> {
        let p = self.by;
        let total: u32 = units.iter().fold(0u32, |a, (_, n)| a.saturating_add(*n));
        if total == 0 {
            return reject("place/nothing", "name the units to place");
        }
        if self.rs.options.fair_buying {
            if self.s.next_placer.is_none() {
                return reject("place/fair-buying-buy-first", "with fair buying, units are put down once every nation has ended its buying (ALT L60)");
            }
            if total != 1 {
                return reject("place/fair-buying-one-at-a-time", "with fair buying, each nation puts down one unit at a time (ALT L60)");
            }
        }
        let waiting = self.s.unplaced.get(&p).cloned().unwrap_or_default();
        for (kind, n) in units {
            let have = waiting.get(kind).copied().unwrap_or(0);
            if *n > have {
                let what = if have == 0 { format!("no {} waiting", kind.words()) } else { format!("only {} waiting", kind.count_words(have as u64)) };
                return reject_with(
                    "place/not-bought",
                    format!("{} has {what} to be put down", self.power_name(p)),
                    &[("power", self.power_name(p)), ("unit", kind.name()), ("count", &have.to_string())],
                );
            }
        }
        let rel = self.rel();
        let claimed = |t: SpaceId| self.rs.map.is_land(t) && self.s.control[t.index()] == Some(p) && !self.rs.map.space(t).off_limits;
        let enemy_planes = self.s.units.iter().any(|u| u.at == at && rel.enemies(p, u.owner) && self.stats(u.kind).is_air());
        let next_to_claimed = self.rs.map.is_sea(at) && self.rs.map.space(at).adjacent.iter().any(|t| claimed(*t));
        let mut room: Vec<(UnitId, u8)> = Vec::new();
        if self.rs.map.is_sea(at) {
            let carriers: Vec<UnitId> = self.s.units.iter().filter(|u| u.at == at && !rel.enemies(p, u.owner) && self.stats(u.kind).carrier_capacity() > 0).map(|u| u.id).collect();
            room = carriers.iter().copied().zip(self.cargo_rooms(&carriers)).collect();
        }
        let mut new_ships = 0u32;
        for (kind, n) in units {
            let st = self.stats(*kind);
            if self.rs.map.is_land(at) {
                if !st.is_land() && !st.is_air() {
                    return reject_with(
                        "place/ship-on-land",
                        format!("{} are put down in a sea zone next to a territory the nation claims (ALT L32)", kind.words()),
                        &[("unit", kind.name())],
                    );
                }
                if !claimed(at) {
                    return reject_with(
                        "place/not-claimed",
                        format!(
                            "units are put down only on territories {} claims (ALT L20), and {} is not one",
                            self.power_name(p),
                            self.name(at)
                        ),
                        &[("power", self.power_name(p)), ("at", self.name(at))],
                    );
                }
                if enemy_planes {
                    return reject_with(
                        "place/enemy-planes",
                        format!("enemy planes are in {}: nothing can be bought there, though it still pays (ALT L38)", self.name(at)),
                        &[("at", self.name(at))],
                    );
                }
            } else {
                if st.is_land() {
                    return reject_with(
                        "place/land-unit-at-sea",
                        format!("{} are bought only on territories, not at sea (ALT L30)", kind.words()),
                        &[("unit", kind.name())],
                    );
                }
                if !next_to_claimed {
                    return reject_with(
                        "place/not-next-to-claimed",
                        format!("{} is not next to a territory {} claims (ALT L32)", self.name(at), self.power_name(p)),
                        &[("at", self.name(at)), ("power", self.power_name(p))],
                    );
                }
                if st.is_sea() {
                    new_ships += n;
                }
            }
        }
        // Planes at sea go aboard: ships already there, then the new ones.
        let capacity = self.rs.unit_types().find(|u| u.carrier_capacity() > 0).map_or(0, |u| u.carrier_capacity());
        let planes: u32 = units.iter().filter(|(k, _)| self.stats(*k).is_air()).map(|(_, n)| *n).sum();
        if self.rs.map.is_sea(at) && planes > 0 {
            let free: u32 = room.iter().map(|(_, r)| *r as u32).sum::<u32>() + new_ships * capacity as u32;
            if planes > free {
                return reject_with(
                    "place/no-room-aboard",
                    format!("a plane at sea is always aboard a ship; the ships at {} have room for {free} (ALT L38)", self.name(at)),
                    &[("at", self.name(at)), ("room", &free.to_string())],
                );
            }
        }
        let mut new_ids = Vec::new();
        let mut placed_planes = Vec::new();
        for (kind, n) in units {
            for _ in 0..*n {
                let id = self.s.add_unit(*kind, p, at);
                self.s.unit_mut(id).unwrap().flags.new = true;
                if self.stats(*kind).is_air() && self.rs.map.is_sea(at) {
                    placed_planes.push(id);
                } else if self.stats(*kind).carrier_capacity() > 0 {
                    room.push((id, capacity));
                }
                new_ids.push(id);
            }
        }
        for plane in placed_planes {
            if let Some(slot) = room.iter_mut().find(|(_, r)| *r > 0) {
                slot.1 -= 1;
                self.s.unit_mut(plane).unwrap().carried_by = Some(slot.0);
            }
        }
        let left = self.s.unplaced.entry(p).or_default();
        for (kind, n) in units {
            *left.get_mut(kind).unwrap() -= n;
        }
        left.retain(|_, n| *n > 0);
        if left.is_empty() {
            self.s.unplaced.remove(&p);
        }
        self.events.push(Event::Placed { at, units: units.to_vec() });
        if self.rs.options.fair_buying {
            self.pass_fair_placing(p);
        }
        Ok(())
    }

    /// Room left aboard a ship.
    pub(crate) fn cargo_room(&self, ship: UnitId) -> u8 {
        self.cargo_rooms(&[ship])[0]
    }

    /// Room left aboard each of `ships`, in one pass over the units carried
    /// (a zone may hold many ships).
    pub(crate) fn cargo_rooms(&self, ships: &[UnitId]) -> Vec<u8> {
        let mut room: Vec<u8> = ships.iter().map(|s| self.s.unit(*s).and_then(|u| self.stats(u.kind).cargo.as_ref()).map_or(0, |c| c.capacity)).collect();
        for c in &self.s.units {
            if let Some(i) = c.carried_by.and_then(|by| ships.iter().position(|s| *s == by)) {
                room[i] = room[i].saturating_sub(self.stats(c.kind).cargo_size);
            }
        }
        room
    }

    /// Units a nation still has to put down.
    fn has_to_place(&self, p: PowerId) -> bool {
        self.s.unplaced.get(&p).is_some_and(|m| m.values().any(|n| *n > 0))
    }

    /// The next nation to put a unit down after `after` (fair buying): the
    /// next in the round's order, round the table, that has units left;
    /// with nothing left anywhere, the turns begin.
    fn pass_fair_placing(&mut self, after: PowerId) {
        let order = self.s.order.clone();
        let start = order.iter().position(|q| *q == after).map_or(0, |i| i + 1);
        let next = (0..order.len()).map(|k| order[(start + k) % order.len()]).find(|q| self.has_to_place(*q));
        self.s.next_placer = next;
        if next.is_none() {
            self.s.done.clear();
            self.advance();
        }
    }

    /// A nation ends its shopping (ALT L20): with units left to put down it
    /// may not; with fair buying this ends its buying, and when every
    /// nation has, the putting down begins (ALT L60).
    pub(crate) fn end_shopping(&mut self) -> Result<bool, RuleError> {
        let p = self.by;
        if !self.rs.options.fair_buying && self.has_to_place(p) {
            let power = self.power_name(p);
            return reject_with("shopping/units-to-place", format!("{power} still has units to put down"), &[("power", power)]);
        }
        if !self.s.done.contains(&p) {
            self.s.done.push(p);
        }
        if !self.rel().round_actors().is_empty() {
            return Ok(false);
        }
        if self.rs.options.fair_buying {
            let first = self.s.order.iter().copied().find(|q| self.has_to_place(*q));
            if first.is_some() {
                self.s.next_placer = first;
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// What must be settled before a nation's turn ends (ALT L32, L46):
    /// no battle left open, no space shared with enemy units.
    pub(crate) fn end_free_turn(&mut self) -> Result<(), RuleError> {
        let p = self.s.turn;
        if let Some(b) = self.s.battles.iter().find(|b| !b.result.is_over()) {
            let at = self.name(b.at);
            return reject_with("turn/battle-open", format!("the battle at {at} must be fought to its end first"), &[("at", at)]);
        }
        let rel = self.rel();
        let shared = self
            .s
            .units
            .iter()
            .filter(|u| u.mover() == p)
            .map(|u| u.at)
            .find(|at| rel.enemy_units(p, *at).next().is_some());
        if let Some(at) = shared {
            return reject_with(
                "turn/enemies-share-a-space",
                format!("{} holds units of {} and of an enemy: they must fight it out (`battle`) before the turn ends (ALT L32, L44)", self.name(at), self.power_name(p)),
                &[("at", self.name(at)), ("power", self.power_name(p))],
            );
        }
        // Planes end the turn landed (ALT L38): one at sea without a ship
        // is lost.
        let lost: Vec<(UnitId, UnitType, PowerId, SpaceId)> = self
            .s
            .units
            .iter()
            .filter(|u| u.mover() == p && self.stats(u.kind).is_air() && self.rs.map.is_sea(u.at) && u.carried_by.is_none())
            .map(|u| (u.id, u.kind, u.owner, u.at))
            .collect();
        for (id, kind, owner, at) in lost {
            self.s.remove_units(&[id]);
            self.events.push(Event::Destroyed { units: vec![(id, kind, owner)], at });
        }
        Ok(())
    }

    /// The end of a round (FORMAT.md v2, "Elimination", "Victory and
    /// surrender"): nations without units and without a capital they may
    /// use are out; a team wins when every other nation in play has
    /// surrendered, is out, or (unless `no_capitals`) has its capital
    /// claimed by the team.
    pub(crate) fn end_of_alternative_round(&mut self) {
        for p in self.nations_in_play() {
            let has_units = self.s.units.iter().any(|u| u.owner == p);
            let has_base = if self.rs.options.no_capitals {
                self.s.control.contains(&Some(p))
            } else {
                self.may_buy(p)
            };
            if !has_units && !has_base {
                self.s.eliminated.push(p);
                self.events.push(Event::Eliminated { power: p });
            }
        }
        let in_play = self.nations_in_play();
        let teams = self.s.teams.clone();
        let mut candidates: Vec<(Option<String>, Vec<PowerId>)> = teams.names.iter().map(|n| (Some(n.clone()), teams.members(n))).collect();
        for p in self.rs.power_ids().filter(|p| teams.team_of(*p).is_none()) {
            candidates.push((None, vec![p]));
        }
        for (team, members) in candidates {
            let members: Vec<PowerId> = members.into_iter().filter(|p| self.rs.plays(*p)).collect();
            if !members.iter().any(|m| in_play.contains(m)) {
                continue;
            }
            let beaten = |q: PowerId| {
                !in_play.contains(&q)
                    || (!self.rs.options.no_capitals
                        && self.rs.power(q).capital.is_some_and(|c| self.s.control[c.index()].is_some_and(|h| members.contains(&h))))
            };
            let rivals: Vec<PowerId> = self.rs.power_ids().filter(|q| self.rs.plays(*q) && !members.contains(q)).collect();
            if rivals.iter().all(|q| beaten(*q)) {
                let winner = Winner { team: team.clone(), powers: members.clone() };
                let reason = "every rival nation is beaten: capital taken, eliminated or surrendered (ALT L4)".to_string();
                self.s.winner = Some(winner.clone());
                self.events.push(Event::Victory { winner, reason });
                return;
            }
        }
    }

    /// A team gives up (FORMAT.md `surrender`; v2: in Alternative a team of
    /// the `teams` option). With two sides (classic, Europe, Anniversary)
    /// the other side wins at once. Under the Alternative rules each of its
    /// nations in play gives up as one nation would; a team left alone in
    /// play (or one independent nation) then wins, else the game goes on.
    pub(crate) fn surrender_team(&mut self, team: &str) -> Result<(), RuleError> {
        let teams = self.s.teams.clone();
        let members = teams.members(team);
        if self.rs.options.capital_victory != crate::ruleset::CapitalVictory::AllEnemyCapitals {
            let Some(other) = teams.names.iter().find(|n| n.as_str() != team) else {
                return reject_with("surrender/unknown-team", format!("there is no team to surrender `{team}` to"), &[("powerTeam", team)]);
            };
            let winner = Winner::team(&teams, other);
            self.events.push(Event::Victory { winner: winner.clone(), reason: format!("the {team} surrendered") });
            self.s.winner = Some(winner);
            return Ok(());
        }
        let in_play = self.nations_in_play();
        if !members.iter().any(|p| in_play.contains(p)) {
            return reject_with("surrender/not-in-play", format!("no nation of the {team} team is in the game"), &[("powerTeam", team)]);
        }
        for p in members.into_iter().filter(|p| in_play.contains(p)) {
            self.surrender_nation(p)?;
        }
        let left = self.nations_in_play();
        let Some(first) = left.first().copied() else { return Ok(()) };
        if left.iter().all(|p| teams.allied(first, *p)) {
            let winner = match teams.team_of(first) {
                Some(name) => Winner { team: Some(name.to_string()), powers: teams.members(name).into_iter().filter(|p| self.rs.plays(*p)).collect() },
                None => Winner { team: None, powers: vec![first] },
            };
            self.events.push(Event::Victory { winner: winner.clone(), reason: format!("the {team} surrendered: every rival nation is out (ALT L4)") });
            self.s.winner = Some(winner);
        }
        Ok(())
    }

    /// One nation gives up (FORMAT.md v2): its units leave the board and it
    /// is out of the game; its territories stay claimed until captured.
    pub(crate) fn surrender_nation(&mut self, p: PowerId) -> Result<(), RuleError> {
        if self.s.eliminated.contains(&p) || !self.rs.plays(p) {
            let power = self.power_name(p);
            return reject_with("surrender/not-in-play", format!("{power} is not in the game"), &[("power", power)]);
        }
        let gone: Vec<UnitId> = self.s.units.iter().filter(|u| u.owner == p).map(|u| u.id).collect();
        self.s.remove_units(&gone);
        self.s.eliminated.push(p);
        self.events.push(Event::Eliminated { power: p });
        if self.s.turn == p && self.s.phase == Phase::Turn {
            self.advance();
        }
        Ok(())
    }

    /// The owner takes back units it lent (ALT L56: "on his or her next
    /// turn").
    pub(crate) fn reclaim(&mut self, at: SpaceId, units: &[UnitId]) -> Result<(), RuleError> {
        let p = self.s.turn;
        if !self.rs.options.assisting_teammates {
            return reject("reclaim/option-off", "units are lent and reclaimed only with the option assisting_teammates (ALT L56)");
        }
        if units.is_empty() {
            return reject("reclaim/no-units", "name the units to take back");
        }
        for id in units {
            let Some(u) = self.s.unit(*id) else { return reject("reclaim/no-such-unit", "no such unit") };
            if u.owner != p || u.at != at || u.controller.is_none_or(|c| c == p) {
                return reject_with(
                    "reclaim/not-lent",
                    format!("only {}'s own units at {} that a teammate uses can be taken back", self.power_name(p), self.name(at)),
                    &[("power", self.power_name(p)), ("at", self.name(at))],
                );
            }
            if u.flags.lent_this_turn {
                return reject("reclaim/same-turn", "lent units are taken back on the owner's next turn, not the turn they were given (ALT L56)");
            }
        }
        for id in units {
            self.s.unit_mut(*id).unwrap().controller = None;
        }
        Ok(())
    }

    /// A defending plane flies to the landing its owner chose among its
    /// nearest ones (ALT L40), by a shortest route clear of enemy units.
    pub(crate) fn relocate_plane(&mut self, units: &[UnitId], route: &[SpaceId]) -> Result<(), RuleError> {
        let [id] = units else {
            return reject("move/relocate-one", "planes left without a ship are flown one at a time");
        };
        let Some(k) = self.s.relocating.iter().position(|(u, _)| u == id) else {
            return reject("move/not-relocating", "that plane is not waiting to fly to a landing");
        };
        let choices = self.s.relocating[k].1.clone();
        let Some(&to) = route.last() else { return reject("move/short-route", "name the route") };
        if !choices.contains(&to) {
            let names: Vec<&str> = choices.iter().map(|t| self.name(*t)).collect();
            let names = names.join(", ");
            return reject_with(
                "move/not-nearest",
                format!("the plane flies to one of its nearest landings: {names} (ALT L40)"),
                &[("spaces", &names)],
            );
        }
        let owner = self.s.unit(*id).unwrap().owner;
        let rel = self.rel();
        let from = self.s.unit(*id).unwrap().at;
        let clear = route.first() == Some(&from)
            && route.windows(2).all(|w| self.rs.map.adjacent(w[0], w[1]))
            && route[1..route.len() - 1].iter().all(|t| rel.enemy_units(owner, *t).next().is_none() && !self.rs.map.space(*t).off_limits);
        let left = self.stats(self.s.unit(*id).unwrap().kind).movement.saturating_sub(self.s.unit(*id).unwrap().moved);
        if !clear || route.len() - 1 > left as usize {
            return reject("move/relocate-route", "that route is not a flight the plane can make: adjacent spaces, none held by the enemy, within its moves");
        }
        let u = self.s.unit_mut(*id).unwrap();
        u.at = to;
        u.moved += (route.len() - 1) as u8;
        self.s.relocating.remove(k);
        self.events.push(Event::Moved { units: vec![*id], route: route.to_vec() });
        Ok(())
    }
}
