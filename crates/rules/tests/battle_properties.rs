//! Random battles from generated positions, with random decisions (issue:
//! battles). After every decision: casualties never exceed the hits scored,
//! no unit rolls twice in a step, retreats go only where allowed, each side
//! only loses units, and the same dice give the same battle again.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use warboard_rules::battle::standalone::{build, BattleSpec, Standalone};
use warboard_rules::battle::{self, Decision};
use warboard_rules::ids::{PowerId, UnitType};
use warboard_rules::{ruleset, Action, Event, GameState, SeededDice};

fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    rng.next_u32() % n.max(1)
}

fn pick(rng: &mut ChaCha8Rng, types: &[UnitType], max: u32) -> Vec<(UnitType, u32)> {
    let mut v: Vec<(UnitType, u32)> = types.iter().map(|t| (*t, below(rng, max + 1))).filter(|(_, n)| *n > 0).collect();
    if v.is_empty() {
        v.push((types[0], 1));
    }
    v
}

fn random_spec(rng: &mut ChaCha8Rng) -> BattleSpec {
    use UnitType::*;
    match below(rng, 3) {
        0 => {
            let attackers = pick(rng, &[Infantry, Armor, Fighter, Bomber], 3);
            let mut defenders = pick(rng, &[Infantry, Armor, Fighter], 3);
            if below(rng, 2) == 0 {
                defenders.push((AaGun, 1));
            }
            BattleSpec { attackers, defenders, amphibious: false }
        }
        1 => {
            let mut attackers = pick(rng, &[Infantry, Armor], 2);
            let bb = below(rng, 3);
            if bb > 0 {
                attackers.push((Battleship, bb));
            }
            BattleSpec { attackers, defenders: pick(rng, &[Infantry, Armor, Fighter], 3), amphibious: true }
        }
        _ => {
            let mut defenders = pick(rng, &[Submarine, Battleship, AircraftCarrier, Fighter, Transport], 2);
            // Defending fighters at sea stand on carriers (DAAK 3.4(a)).
            let room = 2 * defenders.iter().filter(|d| d.0 == AircraftCarrier).map(|d| d.1).sum::<u32>();
            for d in defenders.iter_mut().filter(|d| d.0 == Fighter) {
                d.1 = d.1.min(room);
            }
            defenders.retain(|d| d.1 > 0);
            if defenders.is_empty() {
                defenders.push((Transport, 1));
            }
            BattleSpec { attackers: pick(rng, &[Submarine, Battleship, AircraftCarrier, Fighter, Bomber, Transport], 2), defenders, amphibious: false }
        }
    }
}

/// Fighting units per side (a captured AA gun changes sides; it is no
/// combatant, DAAK 3.1(c), (e)).
fn side_counts(s: &GameState, attacker: PowerId) -> (usize, usize) {
    let fighting: Vec<_> = s.units.iter().filter(|u| !matches!(u.kind, UnitType::AaGun | UnitType::IndustrialComplex)).collect();
    let a = fighting.iter().filter(|u| u.owner == attacker).count();
    (a, fighting.len() - a)
}

/// Fights one battle with random decisions; returns the final state.
fn fight(b: &Standalone, decisions_seed: u64, dice_seed: u64) -> Result<GameState, String> {
    let mut game = b.game.clone();
    let rs = game.ruleset.clone();
    let attacker = game.state.turn;
    let mut rng = ChaCha8Rng::seed_from_u64(decisions_seed);
    let mut dice = SeededDice::new(dice_seed);
    let mut action = Action::Battle { at: b.at };
    let (mut hits_on_attacker, mut hits_on_defender) = (0u32, 0u32);
    let mut lost_with_carrier = 0u32;
    let (start_att, start_def) = side_counts(&game.state, attacker);
    for _ in 0..400 {
        let before = game.state.clone();
        let result = game.apply(&action, &mut dice);
        match result {
            Ok(events) => {
                let (att, def) = side_counts(&game.state, attacker);
                let (att0, def0) = side_counts(&before, attacker);
                if att > att0 || def > def0 {
                    return Err(format!("a side gained units after {action:?}"));
                }
                let mut ended = false;
                for e in &events {
                    // Fighters of a defending carrier that sank are lost when
                    // the battle ends, without a hit of their own (DAAK 3.4(b)).
                    if let Event::BattleEnded { .. } = e {
                        ended = true;
                    }
                    if let (true, Event::Destroyed { units, .. }) = (ended, e) {
                        lost_with_carrier += units.len() as u32;
                    }
                    if let Event::Rolled { purpose, dice, hits, .. } = e {
                        let attacking = matches!(purpose.as_str(), "attacker" | "attacking submarines" | "shore bombardment");
                        let aa = purpose.starts_with("AA fire");
                        // One die per unit (no heavy bombers here), never more:
                        // the attacker's steps and AA fire (one die per
                        // attacking aircraft) roll at most one die per attacking
                        // unit, the defender's step one per defending unit.
                        let most = if attacking || aa { att0 } else { def0 };
                        if dice.len() > most {
                            return Err(format!("{} dice for {most} units in step {purpose}", dice.len()));
                        }
                        let attacking = attacking && !aa;
                        if attacking { hits_on_defender += hits } else { hits_on_attacker += hits }
                    }
                }
                if let Action::Retreat { to: Some(to) } = action {
                    if to != b.retreat_to {
                        return Err(format!("retreated to {to:?}, not an allowed space"));
                    }
                }
            }
            Err(e) => {
                if game.state != before {
                    return Err(format!("rejected {action:?} ({}) changed the state", e.code));
                }
                if let Action::Retreat { to: Some(to) } = action {
                    if to == b.retreat_to && e.code.starts_with("battle/retreat-space") {
                        return Err("a retreat to the allowed space was refused".into());
                    }
                }
            }
        }
        let (att, def) = side_counts(&game.state, attacker);
        // Transports that carried the landing are not in the battle.
        let transports = game.state.units.iter().filter(|u| u.owner == attacker && u.flags.transport_unloaded).count();
        let lost_att = start_att - att;
        let lost_def = start_def - def;
        if lost_att > hits_on_attacker as usize || lost_def > (hits_on_defender + lost_with_carrier) as usize {
            return Err(format!("losses {lost_att}/{lost_def} exceed hits {hits_on_attacker}/{hits_on_defender} (transports {transports})"));
        }
        if game.state.battles[0].result.is_over() {
            return Ok(game.state);
        }
        action = match battle::decision(&rs, &game.state) {
            Some((_, Decision::Casualties { candidates, hits, .. })) => {
                let mut c = candidates.clone();
                let mut chosen = Vec::new();
                let want = hits as usize + usize::from(below(&mut rng, 8) == 0);
                while chosen.len() < want && !c.is_empty() {
                    chosen.push(c.swap_remove(below(&mut rng, c.len() as u32) as usize));
                }
                Action::Casualties { units: chosen }
            }
            Some((i, _)) => {
                let bt = &game.state.battles[i];
                match below(&mut rng, 5) {
                    0 | 1 => Action::Continue,
                    2 => Action::Retreat { to: Some(if below(&mut rng, 2) == 0 { b.retreat_to } else { rs.map.neighbours(bt.at)[0] }) },
                    3 => {
                        let subs: Vec<_> = game.state.units.iter().filter(|u| u.at == bt.at && rs.stats(u.kind).submarine).map(|u| u.id).collect();
                        let n = rs.map.neighbours(bt.at);
                        Action::Submerge { units: subs, to: Some(n[below(&mut rng, n.len() as u32) as usize]) }
                    }
                    _ => Action::Resolve { at: None },
                }
            }
            None => Action::Battle { at: b.at },
        };
    }
    Err("the battle did not end".into())
}

fn run_battles(count: u64) {
    let rs = ruleset("classic").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for n in 0..count {
        let spec = random_spec(&mut rng);
        let b = match build(rs.clone(), &spec) {
            Ok(b) => b,
            Err(e) => panic!("battle {n}: {spec:?} could not be built: {e}"),
        };
        let first = fight(&b, n, n * 7 + 1).unwrap_or_else(|e| panic!("battle {n} {spec:?}: {e}"));
        // Same dice and decisions: the same battle.
        if n % 10 == 0 {
            let again = fight(&b, n, n * 7 + 1).unwrap();
            assert_eq!(first, again, "battle {n} replayed differently");
        }
    }
}

#[test]
fn hundred_thousand_random_battles() {
    run_battles(100_000);
}
