//! Random play in FORMAT.md's vocabulary, for the property and fuzz-smoke
//! tests: random candidate actions for the current decision, often legal,
//! sometimes not; the record keeps the accepted ones.

#![allow(dead_code)] // each test file uses a part

pub mod counting;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::{json, Value};
use warboard_record::{unit_name, ApplyError, DiceMode, Origin, Record, Start};
use warboard_rules::battle::{self, BattleResult, Decision};
use warboard_rules::{Phase, UnitType};

pub fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u32() as usize) % n.max(1)
}

/// A random FORMAT.md action for the record's current decision.
pub fn candidate(record: &Record, rng: &mut ChaCha8Rng) -> Value {
    let game = record.game();
    let s = &game.state;
    let rs = &game.ruleset;
    let p = s.turn;
    let space = |i: usize| json!(rs.map.spaces[i].id);
    if below(rng, 30) == 0 {
        return json!({"type": "end_phase"});
    }
    match s.phase {
        Phase::Research | Phase::Income | Phase::Payday | Phase::Shopping | Phase::Turn => json!({"type": "end_phase"}),
        Phase::Purchase => {
            if below(rng, 3) == 0 {
                return json!({"type": "end_phase"});
            }
            let types: Vec<UnitType> = rs.unit_types().map(|u| u.kind).collect();
            let t = types[below(rng, types.len())];
            json!({"type": "purchase", "units": {t.name(): 1 + below(rng, 3)}})
        }
        Phase::CombatMove | Phase::NoncombatMove => {
            let mine: Vec<_> = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).movement > 0).collect();
            if mine.is_empty() || below(rng, 8) == 0 {
                return json!({"type": "end_phase"});
            }
            let u = mine[below(rng, mine.len())];
            let mut route = vec![u.at];
            for _ in 0..1 + below(rng, rs.stats(u.kind).movement.max(1) as usize + 1) {
                let n = rs.map.neighbours(*route.last().unwrap());
                route.push(n[below(rng, n.len())]);
            }
            let route: Vec<Value> = route.iter().map(|s| space(s.index())).collect();
            let units = if below(rng, 2) == 0 {
                json!([{"id": unit_name(u.id)}])
            } else {
                json!([{"type": u.kind.name(), "count": 1 + below(rng, 2)}])
            };
            let mut action = json!({"type": "move", "units": units, "route": route});
            if u.kind == UnitType::Bomber && below(rng, 4) == 0 {
                action["bombing"] = json!(true);
            }
            action
        }
        Phase::Combat => match battle::decision(rs, s) {
            Some((_, Decision::Casualties { mut candidates, hits, .. })) => {
                let mut chosen = Vec::new();
                while chosen.len() < hits as usize && !candidates.is_empty() {
                    let id = candidates.swap_remove(below(rng, candidates.len()));
                    chosen.push(json!({"id": unit_name(id)}));
                }
                json!({"type": "casualties", "units": chosen})
            }
            Some((i, _)) => {
                let b = &s.battles[i];
                match below(rng, 4) {
                    0 => json!({"type": "continue"}),
                    1 => json!({"type": "resolve"}),
                    2 => match b.came_from.get(below(rng, b.came_from.len() + 1)) {
                        Some(to) => json!({"type": "retreat", "to": space(to.index())}),
                        None => json!({"type": "retreat"}),
                    },
                    _ => {
                        let n = rs.map.neighbours(b.at);
                        json!({"type": "submerge", "units": [{"type": "submarine"}], "to": space(n[below(rng, n.len())].index())})
                    }
                }
            }
            None => {
                let open: Vec<_> = s.battles.iter().filter(|b| b.result == BattleResult::Pending).map(|b| b.at).collect();
                if open.is_empty() {
                    json!({"type": "end_phase"})
                } else {
                    let at = space(open[below(rng, open.len())].index());
                    if below(rng, 2) == 0 {
                        json!({"type": "resolve", "at": at})
                    } else {
                        json!({"type": "battle", "at": at})
                    }
                }
            }
        },
        Phase::Place => {
            let bought: Vec<UnitType> = s.purchased.keys().copied().collect();
            if bought.is_empty() || below(rng, 6) == 0 {
                return json!({"type": "end_phase"});
            }
            let factories: Vec<_> =
                s.units.iter().filter(|u| u.owner == p && u.kind == UnitType::IndustrialComplex).map(|u| u.at).collect();
            let at = if factories.is_empty() || below(rng, 4) == 0 {
                below(rng, rs.map.len())
            } else {
                let f = factories[below(rng, factories.len())];
                let n = rs.map.neighbours(f);
                if below(rng, 3) == 0 {
                    n[below(rng, n.len())].index()
                } else {
                    f.index()
                }
            };
            json!({"type": "place", "at": space(at), "units": {bought[below(rng, bought.len())].name(): 1}})
        }
    }
}

/// Plays up to `steps` random candidate actions, sometimes undoing one; in a
/// game with client dice, supplies random dice whenever they run out.
pub fn random_game(seed: u64, steps: usize, mode: DiceMode) -> Record {
    let mut record = Record::new(Start::standard("classic", mode)).expect("the standard game starts");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..steps {
        if record.state().winner.is_some() {
            break;
        }
        if below(&mut rng, 20) == 0 {
            let _ = record.undo();
            continue;
        }
        let action = candidate(&record, &mut rng);
        if let Err(ApplyError::NeedDice { .. }) = record.apply(&action, Origin::Client) {
            let dice: Vec<u8> = (0..8).map(|_| 1 + below(&mut rng, 6) as u8).collect();
            record.supply_dice(&dice).unwrap();
        }
    }
    if mode == DiceMode::Client {
        // Leave a few supplied dice unused, so that the queue is saved too.
        record.supply_dice(&[4, 2]).unwrap();
    }
    record
}
