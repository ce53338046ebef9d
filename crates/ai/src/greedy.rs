//! A greedy baseline: buys the unit table's cheapest defender (infantry),
//! attacks any neighbour it outnumbers, marches toward the nearest enemy,
//! places at its capital. What a thinking computer player must beat.

use crate::geo::{self, FAR};
use crate::production;
use crate::Player;
use std::collections::{HashSet, VecDeque};
use warboard_rules::battle::{self, Decision};
use warboard_rules::{Action, Game, Phase, RuleError};

pub struct GreedyPlayer {
    plan: VecDeque<Action>,
    planned: bool,
    key: (u32, u8, Phase),
    refused: HashSet<String>,
}

impl GreedyPlayer {
    pub fn new() -> GreedyPlayer {
        GreedyPlayer { plan: VecDeque::new(), planned: false, key: (0, 0, Phase::Research), refused: HashSet::new() }
    }
}

impl Default for GreedyPlayer {
    fn default() -> Self {
        Self::new()
    }
}

impl Player for GreedyPlayer {
    fn rejected(&mut self, action: &Action, _e: &RuleError) {
        self.refused.insert(format!("{action:?}"));
    }

    fn next_action(&mut self, game: &Game) -> Action {
        // The Alternative rules (issue 13): its own policy for now.
        if game.ruleset.options.free_movement {
            return crate::alternative::next_action(game, crate::acting(game), crate::alternative::Style::Best(crate::alternative::Tuning::STANDARD));
        }
        let s = &game.state;
        let rs = &game.ruleset;
        let p = s.turn;
        let key = (s.round, p.0, s.phase);
        if key != self.key {
            *self = GreedyPlayer { key, ..GreedyPlayer::new() };
        }
        if let Some((_, d)) = battle::decision(rs, s) {
            return match d {
                Decision::Casualties { side, choice, .. } => Action::Casualties {
                    units: battle::default_casualties(rs, s, &choice, side == battle::BattleSide::Attacker),
                },
                _ => Action::Continue,
            };
        }
        while let Some(a) = self.plan.pop_front() {
            if !self.refused.contains(&format!("{a:?}")) {
                return a;
            }
        }
        if self.planned {
            return Action::EndPhase;
        }
        // Placing is not planned ahead: one unit at a time, where the rules
        // take it, until nothing more can be placed.
        if s.phase == Phase::Place {
            return self.place(game);
        }
        self.planned = true;
        let rel = game.relations();
        let china = rel.is_china(p);
        let allowed = geo::allowed(&rel, p);
        match s.phase {
            Phase::Research => {
                let naval = false;
                if let Some(a) = production::research(game, p, false, naval) {
                    return a;
                }
            }
            Phase::Purchase if !china => {
                // Damage is repaired first; then infantry, as many as the
                // money buys and the complexes can place.
                let (repairs, cost) = production::repairs(game, p);
                let capacity = production::capacity(game, p, &repairs);
                self.plan.extend(repairs.into_iter().map(|(at, count)| Action::Repair { at, count }));
                if let Some(t) = crate::Roles::of(rs).defender {
                    let n = ((s.ipcs[p.index()] - cost) / rs.stats(t).cost as i32).max(0) as u32;
                    let n = capacity.total.map_or(n, |room| n.min(room));
                    if n > 0 {
                        self.plan.push_back(Action::Purchase { units: vec![(t, n)] });
                    }
                }
            }
            Phase::CombatMove => {
                let mut used: HashSet<warboard_rules::UnitId> = HashSet::new();
                for t in rs.map.ids().filter(|t| rel.enemy_land(p, *t) && allowed[t.index()]) {
                    let defenders = rel.enemy_defenders(p, t).count();
                    for &n in rs.map.neighbours(t) {
                        let ours: Vec<_> = rel
                            .units_of(p, n)
                            .filter(|u| u.moved == 0 && !used.contains(&u.id) && rs.stats(u.kind).is_land() && rs.stats(u.kind).is_combatant())
                            .map(|u| u.id)
                            .collect();
                        if rel.friendly_land(p, n) && ours.len() > defenders {
                            used.extend(ours.iter().copied());
                            self.plan.push_back(Action::Move { units: ours, route: vec![n, t], transport: None, bombing: false });
                        }
                    }
                }
            }
            Phase::Combat => {
                for b in s.battles.iter().filter(|b| !b.result.is_over()) {
                    self.plan.push_back(Action::Resolve { at: Some(b.at) });
                }
            }
            Phase::NoncombatMove => {
                let front = geo::land_distance_to_enemy(&rel, p);
                for u in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_land() && rs.stats(u.kind).is_combatant() && rs.map.is_land(u.at)) {
                    let here = front[u.at.index()];
                    if here < 2 || here == FAR || u.flags.moved_in_combat {
                        continue;
                    }
                    let step = rs.map.neighbours(u.at).iter().copied().filter(|n| rel.friendly_land(p, *n) && allowed[n.index()]).min_by_key(|n| front[n.index()]);
                    if let Some(n) = step.filter(|n| front[n.index()] < here) {
                        self.plan.push_back(Action::Move { units: vec![u.id], route: vec![u.at, n], transport: None, bombing: false });
                    }
                }
                // Aircraft go home to the capital if they can.
                let capital = crate::geo::home(rs, p);
                for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air() && u.at != capital) {
                    if let Some(route) = geo::path(&rel, a.at, capital, |x| !rel.neutral(x) && allowed[x.index()]) {
                        self.plan.push_back(Action::Move { units: vec![a.id], route, transport: None, bombing: false });
                    }
                }
            }
            _ => {}
        }
        self.plan.pop_front().unwrap_or(Action::EndPhase)
    }
}

impl GreedyPlayer {
    /// Everything bought at the capital's complex while it has room, then
    /// wherever the rules take it (China: where fewer than three Chinese
    /// units stand); the phase ends when nothing more can be placed.
    fn place(&mut self, game: &Game) -> Action {
        let s = &game.state;
        let rs = &game.ruleset;
        let p = s.turn;
        if game.relations().is_china(p) {
            return production::china_placement(game, p).unwrap_or(Action::EndPhase);
        }
        let capital = crate::geo::home(rs, p);
        let at = if game.relations().factory_at(capital).is_some_and(|f| f.owner == p) {
            Some(capital)
        } else {
            s.units.iter().find(|u| u.owner == p && rs.stats(u.kind).factory).map(|f| f.at)
        };
        let rel = game.relations();
        for (&t, &n) in s.purchased.iter() {
            let Some(at) = at else { break };
            // As many as the complex has room for (where it is limited).
            let room = production::room_at(&rel, p, at, production::damage_at(&rel, at)).map(|r| r.saturating_sub(s.placed.get(&at).copied().unwrap_or(0)));
            let n = room.map_or(n, |r| n.min(r));
            if n == 0 {
                continue;
            }
            let a = Action::Place { at, units: vec![(t, n)] };
            if !self.refused.contains(&format!("{a:?}")) {
                return a;
            }
        }
        // The capital is full, lost, or the units are ships: one at a time
        // where the rules take them. Classic loses what is not placed.
        if !rs.options.unplaced_units_kept {
            return Action::EndPhase;
        }
        production::any_placement(game, capital.index()).unwrap_or(Action::EndPhase)
    }
}
