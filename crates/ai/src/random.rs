//! A player that picks random candidate actions: the floor any computer
//! player must clear.

use crate::production;
use crate::Player;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use warboard_rules::battle::{self, BattleResult, Decision};
use warboard_rules::ids::UnitType;
use warboard_rules::ruleset::{BombingCap, ResearchCharts};
use warboard_rules::{Action, Game, Phase, RuleError, SpaceId};

pub struct RandomPlayer {
    rng: ChaCha8Rng,
    refused: u32,
    key: (u32, u8, Phase),
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: ChaCha8Rng::seed_from_u64(seed), refused: 0, key: (0, 0, Phase::Research) }
    }
    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u32() as usize) % n.max(1)
    }
}

impl Player for RandomPlayer {
    fn rejected(&mut self, _action: &Action, _error: &RuleError) {
        self.refused += 1;
    }

    fn next_action(&mut self, game: &Game) -> Action {
        // The Alternative rules (issue 13): its own policy, choosing at random.
        if game.ruleset.options.free_movement {
            let p = crate::acting(game);
            let mut below = |n: usize| self.below(n);
            return crate::alternative::next_action(game, p, crate::alternative::Style::Random(&mut below));
        }
        let s = &game.state;
        let rs = &game.ruleset;
        let key = (s.round, s.turn.0, s.phase);
        if key != self.key {
            self.key = key;
            self.refused = 0;
        }
        if let Some((i, d)) = battle::decision(rs, s) {
            return match d {
                Decision::Casualties { candidates, choice, .. } => {
                    // A random order, then the legal set of losses it prefers.
                    // A unit with hit points to spare is listed once per hit
                    // it can still take (a battleship of two may take both).
                    let mut c: Vec<_> = candidates
                        .iter()
                        .flat_map(|id| {
                            let left = s.unit(*id).map_or(1, |u| rs.stats(u.kind).hit_points.saturating_sub(u.hits).max(1));
                            std::iter::repeat_n(*id, left as usize)
                        })
                        .collect();
                    let mut order = Vec::new();
                    while !c.is_empty() {
                        let k = self.below(c.len());
                        order.push(c.swap_remove(k));
                    }
                    Action::Casualties { units: choice.pick_in_order(&order) }
                }
                _ if self.below(4) == 0 && self.refused < 5 => {
                    let b = &s.battles[i];
                    Action::Retreat { to: b.came_from.first().copied() }
                }
                _ => Action::Continue,
            };
        }
        // Give up on a phase after many refusals (a place phase ends only
        // once nothing more can be placed: see below).
        let must_place = s.phase == Phase::Place && rs.options.unplaced_units_kept;
        if self.refused > 40 && !must_place {
            return Action::EndPhase;
        }
        let p = s.turn;
        let china = game.relations().is_china(p);
        match s.phase {
            // The Alternative round's phases come with that ruleset (issue 13).
            Phase::Income | Phase::Payday | Phase::Shopping | Phase::Turn => Action::EndPhase,
            // Anniversary's researchers: now and then one or two, or none
            // (those held roll again), on a chart picked at random.
            Phase::Research if rs.options.research_charts == ResearchCharts::Anniversary && !china && self.refused < 3 && self.below(4) == 0 => {
                Action::Research { dice: self.below(3) as u32, development: None, chart: Some(1 + self.below(2) as u8) }
            }
            Phase::Research => Action::EndPhase,
            Phase::Purchase => {
                // China buys nothing: its infantry come when the phase ends.
                if china || self.below(3) == 0 {
                    return Action::EndPhase;
                }
                // A damaged complex is repaired now and then.
                if rs.options.bombing_cap == BombingCap::FactoryDamage && self.below(4) == 0 {
                    let damaged: Vec<(SpaceId, u8)> =
                        s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).factory && u.hits > 0).map(|u| (u.at, u.hits)).collect();
                    if !damaged.is_empty() {
                        let (at, hits) = damaged[self.below(damaged.len())];
                        return Action::Repair { at, count: 1 + self.below(hits as usize) as u32 };
                    }
                }
                let types: Vec<UnitType> = rs.unit_types().filter(|u| u.buyable).map(|u| u.kind).collect();
                if types.is_empty() {
                    return Action::EndPhase;
                }
                let t = types[self.below(types.len())];
                Action::Purchase { units: vec![(t, 1 + self.below(3) as u32)] }
            }
            Phase::CombatMove | Phase::NoncombatMove => {
                let mine: Vec<_> = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).movement > 0).collect();
                if mine.is_empty() || self.below(10) == 0 {
                    return Action::EndPhase;
                }
                let u = mine[self.below(mine.len())];
                let (id, at, moves) = (u.id, u.at, rs.stats(u.kind).movement as usize);
                let mut route = vec![at];
                for _ in 0..1 + self.below(moves) {
                    let n = rs.map.neighbours(*route.last().unwrap());
                    route.push(n[self.below(n.len())]);
                }
                Action::Move { units: vec![id], route, transport: None, bombing: false }
            }
            Phase::Combat => {
                let open: Vec<SpaceId> = s.battles.iter().filter(|b| b.result == BattleResult::Pending).map(|b| b.at).collect();
                if open.is_empty() {
                    Action::EndPhase
                } else {
                    Action::Battle { at: open[self.below(open.len())] }
                }
            }
            Phase::Place => {
                let bought: Vec<UnitType> = s.purchased.keys().copied().collect();
                if bought.is_empty() {
                    return Action::EndPhase;
                }
                let factories: Vec<SpaceId> = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).factory).map(|u| u.at).collect();
                if china || (must_place && (factories.is_empty() || self.refused > 20)) {
                    // China places without a complex; and where guesses
                    // keep failing, some legal placement is looked for from
                    // a random space on: units that can be placed must be
                    // (Anniversary), so the phase ends only when none can.
                    let start = self.below(rs.map.len());
                    return production::any_placement(game, start).unwrap_or(Action::EndPhase);
                }
                if factories.is_empty() {
                    return Action::EndPhase;
                }
                let f = factories[self.below(factories.len())];
                let t = bought[self.below(bought.len())];
                let at = if rs.stats(t).is_sea() {
                    let n: Vec<SpaceId> = rs.map.neighbours(f).iter().copied().filter(|z| rs.map.is_sea(*z)).collect();
                    if n.is_empty() {
                        f
                    } else {
                        n[self.below(n.len())]
                    }
                } else {
                    f
                };
                Action::Place { at, units: vec![(t, 1)] }
            }
        }
    }
}
