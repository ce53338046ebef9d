//! The `check` assertions of a step (FORMAT.md, "Expectations").

use crate::case::{self, Loaded};
use serde_json::Value;
use std::collections::BTreeMap;
use warboard_rules::battle::BattleResult;

pub fn check(loaded: &Loaded, c: &Value) -> Result<(), String> {
    let game = &loaded.game;
    let s = &game.state;
    let rs = &game.ruleset;
    let obj = c.as_object().ok_or("`check` must be an object")?;
    for (key, want) in obj {
        match key.as_str() {
            "units" => {
                for (t, powers) in want.as_object().ok_or("check.units must be an object")? {
                    let at = case::space(game, &Value::String(t.clone()))?;
                    for (p, types) in powers.as_object().ok_or("check.units.<space> must be an object")? {
                        let pid = case::power(game, &Value::String(p.clone()))?;
                        let mut want_counts: BTreeMap<String, u64> = BTreeMap::new();
                        for (ty, n) in types.as_object().ok_or("check.units.<space>.<power> must be an object")? {
                            case::unit_type(game, &Value::String(ty.clone()))?;
                            let n = n.as_u64().ok_or("unit counts are whole numbers")?;
                            if n > 0 {
                                want_counts.insert(ty.clone(), n);
                            }
                        }
                        let mut have: BTreeMap<String, u64> = BTreeMap::new();
                        for u in s.units.iter().filter(|u| u.at == at && u.owner == pid) {
                            *have.entry(u.kind.name().to_string()).or_default() += 1;
                        }
                        if have != want_counts {
                            return Err(format!("units of {p} at {t}: expected {}, found {}", fmt_counts(&want_counts), fmt_counts(&have)));
                        }
                    }
                }
            }
            "control" => {
                for (t, p) in want.as_object().ok_or("check.control must be an object")? {
                    let at = case::space(game, &Value::String(t.clone()))?;
                    let have = s.control[at.index()].map(|p| rs.power(p).id.as_str()).unwrap_or("neutral");
                    let want = p.as_str().unwrap_or("");
                    if have != want {
                        return Err(format!("control of {t}: expected {want}, found {have}"));
                    }
                }
            }
            "ipcs" | "income" => {
                for (p, n) in want.as_object().ok_or("check.ipcs must be an object")? {
                    let pid = case::power(game, &Value::String(p.clone()))?;
                    let have = if key == "ipcs" { s.ipcs[pid.index()] as i64 } else { game.income(pid) as i64 };
                    if Some(have) != n.as_i64() {
                        return Err(format!("{key} of {p}: expected {n}, found {have}"));
                    }
                }
            }
            "turn" => {
                let have = &rs.power(s.turn).id;
                if want.as_str() != Some(have) {
                    return Err(format!("turn: expected {want}, found {have}"));
                }
            }
            "phase" => {
                if want.as_str() != Some(s.phase.name()) {
                    return Err(format!("phase: expected {want}, found {}", s.phase.name()));
                }
            }
            "round" => {
                if want.as_u64() != Some(s.round as u64) {
                    return Err(format!("round: expected {want}, found {}", s.round));
                }
            }
            "winner" => {
                let have = s.winner.map(|w| w.name());
                if want.as_str() != have {
                    return Err(format!("winner: expected {want}, found {}", have.unwrap_or("null")));
                }
            }
            "battle" => {
                let at = case::space(game, want.get("at").ok_or("check.battle needs `at`")?)?;
                let want_result = want.get("result").and_then(Value::as_str).ok_or("check.battle needs `result`")?;
                let have = s.battles.iter().rev().find(|b| b.at == at).map(|b| b.result);
                let have_name = have.map(BattleResult::name).unwrap_or("no battle");
                if have_name != want_result {
                    return Err(format!("battle at {}: expected {want_result}, found {have_name}", rs.map.name(at)));
                }
            }
            "legal" | "illegal" => {
                for a in want.as_array().ok_or("check.legal must be a list of actions")? {
                    let mut copy = game.clone();
                    let mut dice = loaded.dice.boxed_clone();
                    let r = crate::try_action(&mut copy, &loaded.names, &mut dice, a);
                    match (key.as_str(), r) {
                        ("legal", Ok(())) | ("illegal", Err(crate::Rejection::Illegal(_))) => {}
                        ("legal", Err(crate::Rejection::Illegal(why))) => return Err(format!("expected legal: {a}; rejected: {why}")),
                        ("illegal", Ok(())) => return Err(format!("expected illegal, but accepted: {a}")),
                        (_, Err(crate::Rejection::Broken(why))) => return Err(why),
                        _ => unreachable!(),
                    }
                }
            }
            other => return Err(format!("unknown check `{other}`")),
        }
    }
    Ok(())
}

fn fmt_counts(c: &BTreeMap<String, u64>) -> String {
    if c.is_empty() {
        return "none".into();
    }
    c.iter().map(|(k, v)| format!("{v} {k}")).collect::<Vec<_>>().join(", ")
}
