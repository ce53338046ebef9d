//! The input line's compact command syntax, parsed into typed commands.
//!
//! Parsing only needs the ruleset (to know the space ids and unit types);
//! which units a command means is decided later against the game, by the
//! rules core's selectors, so that the person's words and a save file's
//! actions are read the same way.

use super::names::{parse_unit, unit_word};
use warboard_record::parse_unit_name;
use warboard_rules::state::Development;
use warboard_rules::{Ruleset, SpaceId, UnitId, UnitType};

/// Units named in a command: "2 inf" or one unit by its id ("u17").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitPick {
    Kind { kind: UnitType, count: u32 },
    Id(UnitId),
}

/// A game action as the person typed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Research dice (classic), or Anniversary researchers hired (0: only
    /// those held roll) and the breakthrough chart they roll on.
    Research {
        dice: u32,
        development: Option<Development>,
        chart: Option<u8>,
    },
    Buy(Vec<(UnitType, u32)>),
    /// Removes damage markers from one's own industrial complex
    /// (Anniversary, purchase phase); no count: all of them.
    Repair {
        at: SpaceId,
        count: Option<u32>,
    },
    Move {
        units: Vec<UnitPick>,
        route: Vec<SpaceId>,
        transport: Option<UnitId>,
        bombing: bool,
    },
    EndPhase,
    Battle(SpaceId),
    Resolve(Option<SpaceId>),
    Casualties(Vec<UnitPick>),
    Continue,
    Retreat(Option<SpaceId>),
    /// Submarines submerge or withdraw; no units named means all of the
    /// deciding side's submarines in the battle.
    Submerge {
        units: Vec<UnitPick>,
        to: Option<SpaceId>,
    },
    Place {
        at: SpaceId,
        units: Vec<(UnitType, u32)>,
    },
    Rocket {
        from: SpaceId,
        at: SpaceId,
    },
    /// The Soviet Patriotic War (Europe): take over allied units at `at`.
    Convert {
        at: SpaceId,
        units: Vec<UnitPick>,
    },
    Surrender,
}

/// Everything the input line understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Order(Order),
    Save(String),
    Load(String),
    Undo,
    Help,
    Quit,
}

/// The commands, one line each, for the help text and docs/play.md.
pub const SYNTAX: &[&str] = &[
    "research N [development]   roll N research dice",
    "research N chart 1|2       hire N researchers, all roll on a chart",
    "buy 3 inf 1 arm            purchase units",
    "repair GER [2]             remove damage from a complex (all of it)",
    "move 2 inf GER EEU         move along a route (via u57: by that transport)",
    "bomb 1 bmb WEU GBR         strategic bombing raid",
    "end                        end the phase",
    "battle UKR                 fight a battle until a decision is needed",
    "resolve [UKR]              fight a battle to its end with default choices",
    "cas 2 inf 1 arm            choose casualties (or u17 u18 by id)",
    "continue                   press on with the attack",
    "retreat UKR                retreat (air only: retreat)",
    "sub [LAB]                  submerge (or withdraw to LAB) submarines",
    "place 2 inf GER            place purchased units",
    "rocket WEU MOS             rockets: AA gun at WEU fires at MOS",
    "convert MOS 2 inf          Europe's Soviets: take over allied units",
    "surrender                  your side gives up (asked twice: it ends the game for your allies too)",
    "undo                       take back your last action (back through this turn's phases)",
    "save FILE / load FILE      save or resume a game",
    "quit                       leave (asks first when play is unsaved)",
];

/// The commands of this ruleset (issue 33, point 5: `help` listed other
/// rulesets' commands): research as its rules run it, repairs where
/// raids damage complexes, rockets and bombing where a unit can, the
/// Soviet conversion where the Patriotic War is a rule.
pub fn syntax_for(rs: &Ruleset) -> Vec<&'static str> {
    use warboard_rules::ruleset::{BombingCap, ResearchCharts};
    let o = &rs.options;
    let bombers = rs.unit_types().any(|u| u.strategic_bomber);
    SYNTAX
        .iter()
        .copied()
        .filter(|line| match line.split_whitespace().next().unwrap_or("") {
            "research" if line.contains("chart") => o.weapons_development && o.research_charts == ResearchCharts::Anniversary,
            "research" => o.weapons_development && o.research_charts == ResearchCharts::Classic,
            "repair" => o.bombing_cap == BombingCap::FactoryDamage,
            "bomb" => bombers,
            "rocket" => o.weapons_development,
            "convert" => !o.patriotic_war.is_empty(),
            _ => true,
        })
        .collect()
}

/// Parses one input line. Errors are sentences for the person who typed it.
pub fn parse(line: &str, rs: &Ruleset) -> Result<Command, String> {
    let words = tokens_of(line);
    let tokens: Vec<&str> = words.iter().map(String::as_str).collect();
    let Some((verb, args)) = tokens.split_first() else {
        return Err("type a command, e.g. `end` (the help panel lists them)".into());
    };
    let order = |o: Order| Ok(Command::Order(o));
    match verb.to_ascii_lowercase().as_str() {
        "research" | "res" => order(research(args)?),
        "buy" | "purchase" => order(Order::Buy(counts_only(args, rs, "buy")?)),
        "repair" | "rep" => order(repair(args, rs)?),
        "move" | "mv" | "m" => order(movement(args, rs, false)?),
        "bomb" => order(movement(args, rs, true)?),
        "end" | "done" | "next" => no_args(args, Order::EndPhase),
        "battle" | "fight" | "attack" => match args {
            [at] => order(Order::Battle(space(at, rs)?)),
            _ => Err("name the battle's space: `battle UKR`".into()),
        },
        "resolve" => match args {
            [] => order(Order::Resolve(None)),
            [at] => order(Order::Resolve(Some(space(at, rs)?))),
            _ => Err("`resolve` or `resolve UKR`".into()),
        },
        "cas" | "casualties" | "lose" => {
            let (units, rest) = picks(args, rs)?;
            if units.is_empty() || !rest.is_empty() {
                return Err("name the casualties: `cas 2 inf 1 arm` (or unit ids: `cas u17 u18`)".into());
            }
            order(Order::Casualties(units))
        }
        "continue" | "press" | "cont" => no_args(args, Order::Continue),
        "retreat" => match args {
            [] => order(Order::Retreat(None)),
            [to] => order(Order::Retreat(Some(space(to, rs)?))),
            _ => Err("`retreat UKR` (aircraft alone: `retreat`)".into()),
        },
        "sub" | "submerge" | "withdraw" => {
            let (units, rest) = picks(args, rs)?;
            let to = match rest {
                [] => None,
                [to] => Some(space(to, rs)?),
                _ => return Err("`sub` to submerge, `sub LAB` to withdraw to LAB".into()),
            };
            order(Order::Submerge { units, to })
        }
        "place" => order(placement(args, rs)?),
        "rocket" => match args {
            [from, at] => order(Order::Rocket { from: space(from, rs)?, at: space(at, rs)? }),
            _ => Err("`rocket WEU MOS`: the AA gun's territory, then the target".into()),
        },
        "convert" => order(conversion(args, rs)?),
        "surrender" => no_args(args, Order::Surrender),
        "save" => file_arg(line, "save").map(Command::Save),
        "load" => file_arg(line, "load").map(Command::Load),
        "undo" => Ok(Command::Undo),
        "help" | "?" => Ok(Command::Help),
        "quit" | "exit" | "q" => Ok(Command::Quit),
        other => Err(format!("unknown command `{other}` (the help panel lists the commands)")),
    }
}

fn no_args(args: &[&str], o: Order) -> Result<Command, String> {
    if args.is_empty() {
        Ok(Command::Order(o))
    } else {
        Err(format!("this command takes nothing after it: `{}` is left over", args.join(" ")))
    }
}

/// The file name: everything after the verb, so that names with spaces work.
fn file_arg(line: &str, verb: &str) -> Result<String, String> {
    let rest = line.trim_start();
    let name = rest.get(verb.len()..).unwrap_or("").trim();
    if name.is_empty() {
        Err(format!("name the file: `{verb} game.json`"))
    } else {
        Ok(name.to_string())
    }
}

/// The words of a line: split at spaces and commas, a name in quotes kept
/// whole (`move 2 inf Germany "East Europe"`).
fn tokens_of(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                if quoted || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                quoted = !quoted;
            }
            c if !quoted && (c.is_whitespace() || c == ',') => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out.retain(|w| !w.trim().is_empty());
    out
}

/// A territory or sea zone: its id or name in any case, or a part of one
/// name (`EGY`, `egypt`, `"East Europe"`).
pub fn space(token: &str, rs: &Ruleset) -> Result<SpaceId, String> {
    rs.map.find(token).map_err(|could| match could.as_slice() {
        [] => format!("`{token}` is not a territory or sea zone (type / and a name in the spaces panel to find one)"),
        some => {
            let names: Vec<String> = some.iter().take(6).map(|t| format!("{} ({})", rs.map.space(*t).name, rs.map.name(*t))).collect();
            format!("`{token}` could be {}: name one by its id", names.join(", "))
        }
    })
}

fn count(token: &str) -> Option<u32> {
    token.parse::<u32>().ok()
}

/// Leading unit picks ("2 inf", "arm", "u17"), and the tokens after them.
fn picks<'a, 'b>(args: &'b [&'a str], rs: &Ruleset) -> Result<(Vec<UnitPick>, &'b [&'a str]), String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let t = args[i];
        if let Some(n) = count(t) {
            let Some(word) = args.get(i + 1) else {
                return Err(format!("`{n}` of what? e.g. `{n} inf`"));
            };
            if n == 0 {
                return Err("a count is at least 1".into());
            }
            out.push(UnitPick::Kind { kind: parse_unit(word, rs)?, count: n });
            i += 2;
        } else if let Some(id) = parse_unit_name(&t.to_ascii_lowercase()) {
            out.push(UnitPick::Id(id));
            i += 1;
        } else if unit_word(t).is_some() && rs.map.id(&t.to_ascii_uppercase()).is_none() {
            out.push(UnitPick::Kind { kind: parse_unit(t, rs)?, count: 1 });
            i += 1;
        } else {
            break;
        }
    }
    Ok((out, &args[i..]))
}

/// Unit types with their counts, as bought and placed.
type Counts = Vec<(UnitType, u32)>;

/// Units by type and count only (buying and placing name no single unit),
/// and the tokens after them.
fn counts(args: &[&str], rs: &Ruleset) -> Result<(Counts, Vec<String>), String> {
    let (units, rest) = picks(args, rs)?;
    let mut list = Vec::new();
    for u in units {
        match u {
            UnitPick::Kind { kind, count } => list.push((kind, count)),
            UnitPick::Id(_) => return Err("name unit types and counts here, not unit ids".into()),
        }
    }
    Ok((list, rest.iter().map(|s| s.to_string()).collect()))
}

fn counts_only(args: &[&str], rs: &Ruleset, verb: &str) -> Result<Counts, String> {
    let (list, rest) = counts(args, rs)?;
    if let Some(extra) = rest.first() {
        return Err(format!("`{extra}` is not a count or a unit type: `{verb} 3 inf 1 arm`"));
    }
    if list.is_empty() {
        return Err(format!("{verb} what? e.g. `{verb} 3 inf 1 arm`"));
    }
    Ok(list)
}

/// `research 2`, `research 2 jet_fighters` (a chosen development), or
/// Anniversary's `research 2 chart 1` (two researchers hired, all held roll
/// on chart 1) and `research chart 2` (none hired: those held roll).
fn research(args: &[&str]) -> Result<Order, String> {
    let usage = "`research 2` rolls two research dice (`research 2 jet_fighters` where the development is chosen; `research 2 chart 1` hires two researchers for chart 1)";
    // `chart C` may stand anywhere after the count.
    let mut chart = None;
    let mut rest: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i].eq_ignore_ascii_case("chart") {
            let c = args.get(i + 1).and_then(|c| c.parse::<u8>().ok()).filter(|c| (1..=2).contains(c));
            chart = Some(c.ok_or("`chart` is followed by 1 (land and production) or 2 (air and naval): `research 2 chart 1`")?);
            i += 2;
        } else {
            rest.push(args[i]);
            i += 1;
        }
    }
    let (dice, development) = match rest.as_slice() {
        // Researchers held roll again without hiring more.
        [] if chart.is_some() => (Some(0), None),
        [n] => (count(n), None),
        [n, d] => {
            let dev = Development::parse(&d.to_ascii_lowercase()).ok_or_else(|| {
                let names: Vec<&str> = Development::CHART.iter().map(|d| d.name()).collect();
                format!("`{d}` is not a development: {}", names.join(", "))
            })?;
            (count(n), Some(dev))
        }
        _ => (None, None),
    };
    Ok(Order::Research { dice: dice.ok_or(usage)?, development, chart })
}

/// `repair GER 2`, `repair 2 GER`, or `repair GER` (every damage marker).
fn repair(args: &[&str], rs: &Ruleset) -> Result<Order, String> {
    let usage = "`repair GER 2` removes two damage markers from the complex in GER (`repair GER`: all of them)";
    let (at, n) = match args {
        [at] => (at, None),
        [a, b] => match (count(a), count(b)) {
            (Some(n), None) => (b, Some(n)),
            (None, Some(n)) => (a, Some(n)),
            _ => return Err(usage.into()),
        },
        _ => return Err(usage.into()),
    };
    if n == Some(0) {
        return Err("a count is at least 1".into());
    }
    Ok(Order::Repair { at: space(at, rs)?, count: n })
}

fn movement(args: &[&str], rs: &Ruleset, bombing: bool) -> Result<Order, String> {
    let verb = if bombing { "bomb 1 bmb WEU GBR" } else { "move 2 inf GER EEU" };
    let (units, rest) = picks(args, rs)?;
    if units.is_empty() {
        return Err(format!("name the units first: `{verb}`"));
    }
    let mut route = Vec::new();
    let mut transport = None;
    let mut i = 0;
    while i < rest.len() {
        if rest[i].eq_ignore_ascii_case("via") {
            let id = rest.get(i + 1).and_then(|t| parse_unit_name(&t.to_ascii_lowercase()));
            transport = Some(id.ok_or("`via` names a transport by its id: `via u57`")?);
            i += 2;
        } else {
            route.push(space(rest[i], rs)?);
            i += 1;
        }
    }
    if route.len() < 2 {
        return Err(format!("a route has the start and at least one more space: `{verb}`"));
    }
    Ok(Order::Move { units, route, transport, bombing })
}

/// `place 2 inf GER`, or with the territory first: `place GER 2 inf`.
fn placement(args: &[&str], rs: &Ruleset) -> Result<Order, String> {
    let usage = "`place 2 inf GER`";
    let (first, args) = match args.first() {
        Some(t) if count(t).is_none() && unit_word(t).is_none() => (Some(space(t, rs)?), &args[1..]),
        _ => (None, args),
    };
    let (units, rest) = counts(args, rs)?;
    let at = match (first, rest.as_slice()) {
        (Some(at), []) => at,
        (None, [at]) => space(at, rs)?,
        _ => return Err(format!("name the units and one territory or sea zone: {usage}")),
    };
    if units.is_empty() {
        return Err(format!("place what? {usage}"));
    }
    Ok(Order::Place { at, units })
}

/// `convert MOS 2 inf 1 ftr`, or with the units first: `convert 2 inf MOS`.
fn conversion(args: &[&str], rs: &Ruleset) -> Result<Order, String> {
    let usage = "`convert MOS 2 inf 1 ftr` (or unit ids: `convert MOS u17`)";
    let (first, args) = match args.first() {
        Some(t) if count(t).is_none() && unit_word(t).is_none() && parse_unit_name(&t.to_ascii_lowercase()).is_none() => (Some(space(t, rs)?), &args[1..]),
        _ => (None, args),
    };
    let (units, rest) = picks(args, rs)?;
    let at = match (first, rest) {
        (Some(at), []) => at,
        (None, [at]) => space(at, rs)?,
        _ => return Err(format!("name one territory and the units: {usage}")),
    };
    if units.is_empty() {
        return Err(format!("convert which units? {usage}"));
    }
    Ok(Order::Convert { at, units })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn rs() -> Arc<Ruleset> {
        warboard_rules::ruleset("classic").expect("classic loads")
    }
    fn id(rs: &Ruleset, s: &str) -> SpaceId {
        rs.map.id(s).expect("a classic space id")
    }

    #[test]
    fn buying_and_placing() {
        let rs = rs();
        assert_eq!(parse("buy 3 inf 1 arm", &rs), Ok(Command::Order(Order::Buy(vec![(UnitType::Infantry, 3), (UnitType::Armor, 1)]))));
        assert_eq!(parse("buy tank", &rs), Ok(Command::Order(Order::Buy(vec![(UnitType::Armor, 1)]))));
        let place = Command::Order(Order::Place { at: id(&rs, "GER"), units: vec![(UnitType::Infantry, 2)] });
        assert_eq!(parse("place 2 inf GER", &rs), Ok(place.clone()));
        assert_eq!(parse("place ger 2 infantry", &rs), Ok(place));
        assert!(parse("buy", &rs).is_err());
        assert!(parse("buy 3", &rs).unwrap_err().contains("of what"));
        assert!(parse("buy 3 dd", &rs).unwrap_err().contains("no destroyer"));
        assert!(parse("buy 0 inf", &rs).is_err());
    }

    #[test]
    fn moves_take_units_then_a_route() {
        let rs = rs();
        let expected = Order::Move {
            units: vec![UnitPick::Kind { kind: UnitType::Infantry, count: 2 }],
            route: vec![id(&rs, "GER"), id(&rs, "EEU")],
            transport: None,
            bombing: false,
        };
        assert_eq!(parse("move 2 inf GER EEU", &rs), Ok(Command::Order(expected)));
        let Ok(Command::Order(Order::Move { units, route, .. })) = parse("move 1 ftr u7 weu nor gbr", &rs) else {
            panic!("a move with a unit id and a three-space route parses");
        };
        assert_eq!(units, vec![UnitPick::Kind { kind: UnitType::Fighter, count: 1 }, UnitPick::Id(UnitId(7))]);
        assert_eq!(route.len(), 3);
        let Ok(Command::Order(Order::Move { transport, .. })) = parse("move 1 inf LEN KRZ via u57", &rs) else {
            panic!("a move naming its transport parses");
        };
        assert_eq!(transport, Some(UnitId(57)));
        let Ok(Command::Order(Order::Move { bombing, .. })) = parse("bomb 1 bmb WEU GBR", &rs) else {
            panic!("a bombing raid parses");
        };
        assert!(bombing);
        assert!(parse("move 2 inf GER", &rs).unwrap_err().contains("route"));
        assert!(parse("move GER EEU", &rs).unwrap_err().contains("units first"));
        assert!(parse("move 2 inf GER XXX", &rs).unwrap_err().contains("not a territory"));
    }

    #[test]
    fn battle_commands() {
        let rs = rs();
        let ukr = id(&rs, "UKR");
        assert_eq!(parse("battle UKR", &rs), Ok(Command::Order(Order::Battle(ukr))));
        assert_eq!(parse("resolve", &rs), Ok(Command::Order(Order::Resolve(None))));
        assert_eq!(parse("resolve ukr", &rs), Ok(Command::Order(Order::Resolve(Some(ukr)))));
        assert_eq!(
            parse("cas 2 inf 1 arm", &rs),
            Ok(Command::Order(Order::Casualties(vec![
                UnitPick::Kind { kind: UnitType::Infantry, count: 2 },
                UnitPick::Kind { kind: UnitType::Armor, count: 1 }
            ])))
        );
        assert_eq!(parse("continue", &rs), Ok(Command::Order(Order::Continue)));
        assert_eq!(parse("retreat UKR", &rs), Ok(Command::Order(Order::Retreat(Some(ukr)))));
        assert_eq!(parse("retreat", &rs), Ok(Command::Order(Order::Retreat(None))));
        let lab = id(&rs, "LAB");
        assert_eq!(parse("sub LAB", &rs), Ok(Command::Order(Order::Submerge { units: vec![], to: Some(lab) })));
        assert_eq!(
            parse("sub 2 sub", &rs),
            Ok(Command::Order(Order::Submerge { units: vec![UnitPick::Kind { kind: UnitType::Submarine, count: 2 }], to: None }))
        );
        assert!(parse("cas", &rs).is_err());
        assert!(parse("end now", &rs).unwrap_err().contains("left over"));
    }

    #[test]
    fn the_patriotic_war_takes_a_territory_and_units() {
        let rs = warboard_rules::ruleset("europe").expect("europe loads");
        let mos = id(&rs, "MOS");
        let expected = Command::Order(Order::Convert {
            at: mos,
            units: vec![UnitPick::Kind { kind: UnitType::Infantry, count: 2 }, UnitPick::Id(UnitId(17))],
        });
        assert_eq!(parse("convert MOS 2 inf u17", &rs), Ok(expected.clone()));
        assert_eq!(parse("convert 2 inf u17 mos", &rs), Ok(expected));
        assert!(parse("convert MOS", &rs).unwrap_err().contains("which units"));
        assert!(parse("convert 2 inf", &rs).is_err());
    }

    #[test]
    fn anniversary_research_names_a_chart_and_repairs_name_a_complex() {
        let rs = warboard_rules::ruleset("anniversary-1941").expect("anniversary loads");
        let research = |dice, chart| Ok(Command::Order(Order::Research { dice, development: None, chart }));
        assert_eq!(parse("research 2 chart 1", &rs), research(2, Some(1)));
        assert_eq!(parse("research chart 2 1", &rs), research(1, Some(2)), "the chart may come first");
        assert_eq!(parse("res chart 2", &rs), research(0, Some(2)), "no count: the researchers held roll");
        assert_eq!(parse("research 0 chart 1", &rs), research(0, Some(1)));
        assert!(parse("research 2 chart 3", &rs).unwrap_err().contains("1 (land and production) or 2"));
        assert!(parse("research 2 chart", &rs).is_err());
        let ger = id(&rs, "GER");
        let repair = |count| Ok(Command::Order(Order::Repair { at: ger, count }));
        assert_eq!(parse("repair GER 3", &rs), repair(Some(3)));
        assert_eq!(parse("repair 3 ger", &rs), repair(Some(3)));
        assert_eq!(parse("repair GER", &rs), repair(None));
        assert!(parse("repair", &rs).unwrap_err().contains("repair GER 2"));
        assert!(parse("repair GER 0", &rs).is_err());
        assert!(parse("repair XXX 2", &rs).unwrap_err().contains("not a territory"));
        // China places its infantry in its own territories, complex or not.
        let chg = id(&rs, "CHG");
        assert_eq!(parse("place 2 inf CHG", &rs), Ok(Command::Order(Order::Place { at: chg, units: vec![(UnitType::Infantry, 2)] })));
    }

    #[test]
    fn other_commands() {
        let rs = rs();
        assert_eq!(parse("research 2", &rs), Ok(Command::Order(Order::Research { dice: 2, development: None, chart: None })));
        assert_eq!(
            parse("research 1 jet_fighters", &rs),
            Ok(Command::Order(Order::Research { dice: 1, development: Some(Development::JetFighters), chart: None }))
        );
        assert_eq!(parse("save my game.json", &rs), Ok(Command::Save("my game.json".into())));
        assert_eq!(parse("  load g.json ", &rs), Ok(Command::Load("g.json".into())));
        assert_eq!(parse("QUIT", &rs), Ok(Command::Quit));
        assert!(parse("save", &rs).is_err());
        assert!(parse("", &rs).is_err());
        assert!(parse("fly me to the moon", &rs).unwrap_err().contains("unknown command"));
    }

    #[test]
    fn spaces_are_named_by_id_or_by_name() {
        // Issue 15, point 12: `move 2 inf Germany "East Europe"`.
        let rs = rs();
        let Ok(Command::Order(Order::Move { route, .. })) = parse("move 2 inf Germany \"Eastern Europe\"", &rs) else { panic!("a move") };
        assert_eq!(route, vec![rs.map.id("GER").unwrap(), rs.map.id("EEU").unwrap()]);
        let Ok(Command::Order(Order::Move { route, .. })) = parse("move 1 arm moscow, \"Caucasus\"", &rs) else { panic!("a move") };
        assert_eq!(route, vec![rs.map.id("MOS").unwrap(), rs.map.id("CAU").unwrap()]);
        let err = parse("move 1 inf GER europe", &rs).unwrap_err();
        assert!(err.contains("could be East Europe (EEU)"), "{err}");
    }
}
