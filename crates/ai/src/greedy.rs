//! A greedy baseline: buys the unit table's cheapest defender (infantry),
//! attacks any neighbour it outnumbers, marches toward the nearest enemy,
//! places at its capital. What a thinking computer player must beat.

use crate::geo::{self, FAR};
use crate::Player;
use std::collections::{HashSet, VecDeque};
use warboard_rules::battle::{self, Decision};
use warboard_rules::{Action, Game, Phase, RuleError, SpaceId};

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
        self.planned = true;
        let rel = game.relations();
        match s.phase {
            Phase::Purchase => {
                if let Some(t) = crate::Roles::of(rs).defender {
                    let n = s.ipcs[p.index()] / rs.stats(t).cost as i32;
                    if n > 0 {
                        return Action::Purchase { units: vec![(t, n as u32)] };
                    }
                }
            }
            Phase::CombatMove => {
                for t in rs.map.ids().filter(|t| rel.enemy_land(p, *t)) {
                    let defenders = rel.enemy_defenders(p, t).count();
                    for &n in rs.map.neighbours(t) {
                        let ours: Vec<_> = rel.units_of(p, n).filter(|u| u.moved == 0 && rs.stats(u.kind).is_land() && rs.stats(u.kind).is_combatant()).map(|u| u.id).collect();
                        if rel.friendly_land(p, n) && ours.len() > defenders {
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
                    let step = rs.map.neighbours(u.at).iter().copied().filter(|n| rel.friendly_land(p, *n)).min_by_key(|n| front[n.index()]);
                    if let Some(n) = step.filter(|n| front[n.index()] < here) {
                        self.plan.push_back(Action::Move { units: vec![u.id], route: vec![u.at, n], transport: None, bombing: false });
                    }
                }
                // Aircraft go home to the capital if they can.
                let capital = crate::geo::home(rs, p);
                for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air() && u.at != capital) {
                    if let Some(route) = geo::path(&rel, a.at, capital, |x| !rel.neutral(x)) {
                        self.plan.push_back(Action::Move { units: vec![a.id], route, transport: None, bombing: false });
                    }
                }
            }
            Phase::Place => {
                let capital = crate::geo::home(rs, p);
                let at: SpaceId = if rel.factory_at(capital).is_some_and(|f| f.owner == p) {
                    capital
                } else {
                    match s.units.iter().find(|u| u.owner == p && rs.stats(u.kind).factory) {
                        Some(f) => f.at,
                        None => return Action::EndPhase,
                    }
                };
                for (t, n) in s.purchased.iter() {
                    self.plan.push_back(Action::Place { at, units: vec![(*t, *n)] });
                }
            }
            _ => {}
        }
        self.plan.pop_front().unwrap_or(Action::EndPhase)
    }
}
