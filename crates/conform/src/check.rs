//! The `check` assertions of a step (FORMAT.md, "Expectations", and the
//! checks of "Additions in v2").

use crate::case::{self, Fields, Loaded, Vocabulary};
use serde_json::Value;
use std::collections::BTreeMap;
use warboard_rules::battle::BattleResult;
use warboard_rules::{Game, GameState, PowerId};

const CHECK: Fields = Fields {
    scope: "check",
    v1: &["units", "control", "ipcs", "income", "turn", "phase", "round", "winner", "battle", "legal", "illegal"],
    v2: &["tech", "researchers", "damage", "to_place", "income_detail", "controllers", "eliminated", "order", "next_placer"],
};
const BATTLE: Fields = Fields { scope: "battle", v1: &["at", "result"], v2: &[] };
/// The parts of `income_detail`: all v2, each in the rulesets that have it.
const INCOME_PARTS: Fields = Fields {
    scope: "income_detail",
    v1: &[],
    v2: &["territories", "convoys", "objectives", "middle_east_payment"],
};

/// Checks a `check`'s fields before the case runs: the checks it names,
/// the fields of those that are objects, the actions of `legal` and
/// `illegal`, and development names.
pub fn shape(vocabulary: &Vocabulary, c: &Value) -> Result<(), String> {
    for (key, want) in vocabulary.object(c, &[&CHECK], "check")? {
        let what = format!("check `{key}`");
        match key.as_str() {
            "battle" => {
                vocabulary.object(want, &[&BATTLE], &what)?;
            }
            "income_detail" => {
                for (p, parts) in want.as_object().ok_or_else(|| format!("{what} must be an object: power → parts"))? {
                    vocabulary.object(parts, &[&INCOME_PARTS], &format!("{what} of {p}"))?;
                }
            }
            "tech" => {
                for (p, list) in want.as_object().ok_or_else(|| format!("{what} must be an object: power → developments"))? {
                    case::development_set(vocabulary.ruleset(), list).map_err(|e| format!("{what} of {p}: {e}"))?;
                }
            }
            "legal" | "illegal" => {
                for (n, a) in want.as_array().ok_or_else(|| format!("{what} must be a list of actions"))?.iter().enumerate() {
                    vocabulary.action(a).map_err(|e| format!("{what}[{}]: {e}", n + 1))?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

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
                        let want_counts = counts(game, types, "check.units.<space>.<power>")?;
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
                // In a phase of the whole round it is nobody's turn (v2).
                let have = if game.round_phase() { None } else { Some(rs.power(s.turn).id.as_str()) };
                if want.as_str() != have {
                    return Err(format!("turn: expected {want}, found {}", have.unwrap_or("null")));
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
                // A side or team by name, or (v2) a list of powers compared
                // as a set; null while the game goes on.
                let have = s.winner.as_ref();
                let ok = match (want, have) {
                    (Value::Null, None) => true,
                    (Value::String(name), Some(w)) => w.team.as_deref() == Some(name.as_str()),
                    (Value::Array(list), Some(w)) => {
                        let mut want_powers = list.iter().map(|p| case::power(game, p)).collect::<Result<Vec<_>, _>>()?;
                        let mut have_powers = w.powers.clone();
                        want_powers.sort();
                        want_powers.dedup();
                        have_powers.sort();
                        want_powers == have_powers
                    }
                    _ => false,
                };
                if !ok {
                    let found = have.map(|w| w.describe(|p| rs.power(p).id.clone())).unwrap_or_else(|| "null".into());
                    return Err(format!("winner: expected {want}, found {found}"));
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
            "tech" => {
                for (p, list) in want.as_object().ok_or("check.tech must be an object")? {
                    let pid = case::power(game, &Value::String(p.clone()))?;
                    let (want, have) = (case::development_set(&game.ruleset, list)?, s.developments[pid.index()]);
                    if want != have {
                        return Err(format!("tech of {p}: expected {}, found {}", case::development_names(want), case::development_names(have)));
                    }
                }
            }
            "researchers" => {
                for (p, n) in want.as_object().ok_or("check.researchers must be an object: power → tokens")? {
                    let pid = case::power(game, &Value::String(p.clone()))?;
                    let have = s.researchers[pid.index()] as u64;
                    if n.as_u64() != Some(have) {
                        return Err(format!("researchers of {p}: expected {n}, found {have}"));
                    }
                }
            }
            "damage" => {
                for (t, n) in want.as_object().ok_or("check.damage must be an object: territory → markers")? {
                    let at = case::space(game, &Value::String(t.clone()))?;
                    let have = game.relations().factory_at(at).map_or(0, |f| f.hits as u64);
                    if n.as_u64() != Some(have) {
                        return Err(format!("damage at {t}: expected {n}, found {have}"));
                    }
                }
            }
            "to_place" => {
                for (p, types) in want.as_object().ok_or("check.to_place must be an object")? {
                    let pid = case::power(game, &Value::String(p.clone()))?;
                    let want_counts = counts(game, types, "check.to_place.<power>")?;
                    let have = to_place(s, pid);
                    if have != want_counts {
                        return Err(format!("to_place of {p}: expected {}, found {}", fmt_counts(&want_counts), fmt_counts(&have)));
                    }
                }
            }
            "order" => {
                let want: Vec<PowerId> = want.as_array().ok_or("check.order must be a list of powers")?.iter().map(|p| case::power(game, p)).collect::<Result<_, _>>()?;
                if want != s.order {
                    let names = |l: &[PowerId]| l.iter().map(|p| rs.power(*p).id.as_str()).collect::<Vec<_>>().join(", ");
                    return Err(format!("order: expected {}, found {}", names(&want), names(&s.order)));
                }
            }
            "eliminated" => {
                let mut want: Vec<PowerId> = want.as_array().ok_or("check.eliminated must be a list of powers")?.iter().map(|p| case::power(game, p)).collect::<Result<_, _>>()?;
                let mut have = s.eliminated.clone();
                want.sort();
                have.sort();
                if want != have {
                    let names = |l: &[PowerId]| l.iter().map(|p| rs.power(*p).id.as_str()).collect::<Vec<_>>().join(", ");
                    return Err(format!("eliminated: expected [{}], found [{}]", names(&want), names(&have)));
                }
            }
            "next_placer" => {
                let have = s.next_placer.map(|p| rs.power(p).id.as_str());
                if want.as_str() != have {
                    return Err(format!("next_placer: expected {want}, found {}", have.unwrap_or("null")));
                }
            }
            "controllers" => {
                for (t, powers) in want.as_object().ok_or("check.controllers must be an object")? {
                    let at = case::space(game, &Value::String(t.clone()))?;
                    for (p, types) in powers.as_object().ok_or("check.controllers.<space> must be an object")? {
                        let pid = case::power(game, &Value::String(p.clone()))?;
                        let want_counts = counts(game, types, "check.controllers.<space>.<power>")?;
                        let mut have: BTreeMap<String, u64> = BTreeMap::new();
                        for u in s.units.iter().filter(|u| u.at == at && u.mover() == pid) {
                            *have.entry(u.kind.name().to_string()).or_default() += 1;
                        }
                        if have != want_counts {
                            return Err(format!("units {p} controls at {t}: expected {}, found {}", fmt_counts(&want_counts), fmt_counts(&have)));
                        }
                    }
                }
            }
            "income_detail" => {
                for (p, parts) in want.as_object().ok_or("check.income_detail must be an object")? {
                    let pid = case::power(game, &Value::String(p.clone()))?;
                    for (part, n) in parts.as_object().ok_or("check.income_detail.<power> must be an object")? {
                        let have = income_part(game, pid, part)?;
                        if Some(have) != n.as_i64() {
                            return Err(format!("income_detail of {p}: {part}: expected {n}, found {have}"));
                        }
                    }
                }
            }
            "legal" | "illegal" => {
                for a in want.as_array().ok_or("check.legal must be a list of actions")? {
                    let mut copy = game.clone();
                    // A trial asks only whether the action is accepted: past
                    // the case's dice it rolls misses instead of failing.
                    let mut dice: Box<dyn warboard_rules::DiceSource> = Box::new(ThenMisses(loaded.dice.boxed_clone()));
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
            // [`shape`] lets through only the checks of the ruleset's
            // vocabulary: this is one of them that is not read here yet.
            other => return Err(format!("check `{other}` is not read for ruleset {} yet", rs.name)),
        }
    }
    Ok(())
}

/// Type → count as a case writes it; counts of 0 are left out, so that `{}`
/// and `{"infantry": 0}` both mean none.
fn counts(game: &Game, types: &Value, what: &str) -> Result<BTreeMap<String, u64>, String> {
    let mut out = BTreeMap::new();
    for (ty, n) in types.as_object().ok_or_else(|| format!("{what} must be an object"))? {
        case::unit_type(game, &Value::String(ty.clone()))?;
        let n = n.as_u64().ok_or("unit counts are whole numbers")?;
        if n > 0 {
            out.insert(ty.clone(), n);
        }
    }
    Ok(out)
}

/// Units `p` has bought and not yet placed (FORMAT v2 `to_place`): this
/// turn's purchase if it is `p`'s turn (the rules core keeps one purchase,
/// the turn power's), and units kept unplaced from earlier turns.
fn to_place(s: &GameState, p: PowerId) -> BTreeMap<String, u64> {
    let this_turn = (s.turn == p).then_some(&s.purchased);
    let mut out = BTreeMap::new();
    for (kind, n) in this_turn.into_iter().chain(s.unplaced.get(&p)).flatten() {
        if *n > 0 {
            *out.entry(kind.name().to_string()).or_default() += *n as u64;
        }
    }
    out
}

/// One part of a power's income (FORMAT v2 `income_detail`); the case
/// reader lets through only the parts the ruleset has (classic and Europe
/// have no national objectives: 0).
fn income_part(game: &Game, p: PowerId, part: &str) -> Result<i64, String> {
    let rel = game.relations();
    let parts = rel.income_parts(p);
    match part {
        "territories" => Ok(parts.territories as i64),
        "convoys" => Ok(parts.convoys as i64),
        "objectives" => Ok(parts.objectives as i64),
        "middle_east_payment" => Ok(rel.tribute(p, parts.total()).iter().map(|(_, n)| *n as i64).sum()),
        other => Err(format!("income part `{other}` is not read for ruleset {} yet", game.ruleset.name)),
    }
}

fn fmt_counts(c: &BTreeMap<String, u64>) -> String {
    if c.is_empty() {
        return "none".into();
    }
    c.iter().map(|(k, v)| format!("{v} {k}")).collect::<Vec<_>>().join(", ")
}

/// The case's dice, then misses once they run out (for legality trials).
struct ThenMisses(Box<dyn warboard_rules::DiceSource>);

impl warboard_rules::DiceSource for ThenMisses {
    fn roll(&mut self) -> Result<u8, warboard_rules::DiceError> {
        Ok(self.0.roll().unwrap_or(6))
    }
    fn boxed_clone(&self) -> Box<dyn warboard_rules::DiceSource> {
        Box::new(ThenMisses(self.0.boxed_clone()))
    }
}
