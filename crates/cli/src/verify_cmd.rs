//! `warboard verify FILE`: is this game what its record says, and were its
//! dice fair? The save is loaded (its log replayed and every fact checked,
//! docs/saves.md); a proven game's chain is checked link by link as it
//! replays: every signature, receipt and beacon round, and every die
//! against the round or seed it comes from (docs/pbem.md). A save without a
//! proof replays as before and says so: "no dice proof".

use std::path::Path;
use warboard_record::{Record, TableEntry, TABLE_SEAT};

/// What `verify` found: the report, and whether the game is proven (its
/// dice checked, not only its replay).
pub struct Verdict {
    pub report: String,
    pub proven: bool,
}

/// The report, or the first problem with its stable code.
pub fn run(path: &Path) -> Result<Verdict, String> {
    let text = warboard_record::read_save(path).map_err(|e| format!("[{}] {e}", e.code()))?;
    let record = Record::load(&text).map_err(|e| warboard_record::bounded_text(&format!("[{}] {e}", e.code()), 2000))?;
    let s = record.state();
    let rs = &record.game().ruleset;
    let stands = match &s.winner {
        Some(w) => format!("the {} have won", w.describe(|p| rs.power(p).id.clone())),
        None => format!("round {}, {}'s turn", s.round, rs.powers[s.turn.index()].id),
    };
    let mut out = format!("{}: {} actions replay to the saved game ({stands})\n", path.display(), record.log().len());
    if let Some(note) = record.migration_note() {
        out.push_str(&format!("note: {note}\n"));
    }
    out.push_str(&table_entries(&record));
    let Some(p) = record.proof_summary() else {
        let dice = match record.dice_mode() {
            warboard_record::DiceMode::Seeded { seed } => format!("its dice come from seed {seed}: reproducible, not provably fair"),
            _ => "its dice were supplied by the client: unverified".to_string(),
        };
        out.push_str(&format!("no dice proof: {dice}\n"));
        return Ok(Verdict { report: out, proven: false });
    };
    let seats: Vec<String> = p.seats.iter().map(|(name, key)| format!("{name} ({})", if *key { "signs with its key" } else { "no key" })).collect();
    out.push_str(&format!("game {}: dice from the {}\n", p.game_id, p.dice));
    out.push_str(&format!("seats: {}\n", seats.join(", ")));
    out.push_str(&format!(
        "chain: {} entries, each receipted by the server, {} signed by their seat; {} receipts collected apart agree with it\n",
        p.entries, p.signed, p.witnessed
    ));
    out.push_str(&format!("who acted: {}\n", check_seats(&record)?));
    if p.dice_pending {
        out.push_str("dice: pending — the host reveals its seed when the game ends; until then the chain verifies and the dice cannot be checked\n");
    } else {
        out.push_str(&format!("dice: every die checked against the round or seed it comes from (entries that rolled: {})\n", p.rolled));
    }
    Ok(Verdict { report: out, proven: !p.dice_pending })
}

/// Who acted for which power: in a game whose seats are named by their
/// powers (docs/pbem.md), every entry's seat must hold the power that acted
/// (`auth/not-your-power`), judged on the position before the entry (the
/// record's one walk over its log, `narrate::walk`).
fn check_seats(record: &Record) -> Result<String, String> {
    let header = record.proof_header().expect("a proven game");
    let mut powers = std::collections::BTreeMap::new();
    // The host's seat makes the clock's notes and nothing else.
    for s in header.seats.iter().filter(|s| s.seat != TABLE_SEAT) {
        match warboard_table::seat_powers(record.game(), &s.seat) {
            Ok(p) => powers.insert(s.seat.clone(), p),
            Err(_) => return Ok("seats named otherwise than by their powers: who acted for which power is not checked".into()),
        };
    }
    let links = record.links();
    let ruleset = record.game().ruleset.clone();
    let (mut i, mut refused) = (0, None);
    warboard_record::narrate::walk(record, |before, _, entry| {
        let seat = &links[i].entry.entry.seat;
        let game = warboard_rules::Game { ruleset: ruleset.clone(), state: before.clone() };
        let action = entry.action.value();
        let clock_note = matches!(TableEntry::parse(&ruleset, &action), Ok(Some(TableEntry::Clock { .. })));
        let judged = match (seat.as_str() == TABLE_SEAT, clock_note) {
            (true, true) => Ok(()),
            (true, false) => Err(("auth/not-your-power".to_string(), "the table's seat makes the clock's notes, no other entry".to_string())),
            (false, true) => Err(("table/host-only".to_string(), "a clock note made by a player's seat, not the table's".to_string())),
            (false, false) => warboard_table::authority(&game, &powers[seat.as_str()], &action, |_| false).map(|_| ()).map_err(|r| (r.code(), r.to_string())),
        };
        if let Err((code, why)) = judged {
            refused.get_or_insert_with(|| format!("[{code}] log[{i}]: seat {seat}: {why}"));
        }
        i += 1;
    })?;
    match refused {
        Some(e) => Err(e),
        None => Ok("every entry made by the seat holding the power that acted".into()),
    }
}

/// Every correction and every roll it superseded, and the clock's notes
/// (issue 31, points 1 and 7): the taken-back entries stay in the record,
/// so anyone sees what was rolled before a correction.
fn table_entries(record: &Record) -> String {
    let rs = &record.game().ruleset;
    let log = record.log();
    let power_of = |n: usize| match TableEntry::parse(rs, &log[n].action.value()) {
        Ok(Some(TableEntry::Correction { power, .. })) => rs.power(power).id.clone(),
        _ => "?".into(),
    };
    let mut out = String::new();
    let notes: Vec<String> = log
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match TableEntry::parse(rs, &e.action.value()) {
            Ok(Some(TableEntry::Clock { event, powers, .. })) => {
                let who: Vec<&str> = powers.iter().map(|p| rs.power(*p).id.as_str()).collect();
                Some(format!("log[{i}] {} {}", event.as_str(), who.join(",")))
            }
            _ => None,
        })
        .collect();
    if !notes.is_empty() {
        out.push_str(&format!("clock notes: {}\n", notes.join("; ")));
    }
    let corrections = record.corrections();
    for a in &corrections.approved {
        let rolls: Vec<String> = a
            .superseded()
            .filter(|n| !log[*n].dice.is_empty())
            .map(|n| format!("log[{n}] rolled {}", log[n].dice.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")))
            .collect();
        let rolls = if rolls.is_empty() { "no dice".to_string() } else { rolls.join(", ") };
        out.push_str(&format!(
            "correction: log[{}] {} proposed {}, approved in log[{}] by {}; superseded rolls: {rolls}\n",
            a.proposal,
            power_of(a.proposal),
            a.change.describe(a.proposal),
            a.approval,
            power_of(a.approval),
        ));
    }
    if let Some((proposal, change)) = &corrections.pending {
        out.push_str(&format!("correction open: log[{proposal}] {} proposes {}\n", power_of(*proposal), change.describe(*proposal)));
    }
    out
}
