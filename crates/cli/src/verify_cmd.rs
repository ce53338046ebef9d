//! `warboard verify FILE`: is this game what its record says, and were its
//! dice fair? The save is loaded (its log replayed and every fact checked,
//! docs/saves.md); a proven game's chain is checked link by link as it
//! replays: every signature, receipt and beacon round, and every die
//! against the round or seed it comes from (docs/pbem.md). A save without a
//! proof replays as before and says so: "no dice proof".

use std::path::Path;
use warboard_record::Record;

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
    for s in &header.seats {
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
        if let Err(r) = warboard_table::authority(&game, &powers[seat.as_str()], &entry.action.value(), |_| false) {
            refused.get_or_insert_with(|| format!("[{}] log[{i}]: seat {seat}: {r}", r.code()));
        }
        i += 1;
    })?;
    match refused {
        Some(e) => Err(e),
        None => Ok("every entry made by the seat holding the power that acted".into()),
    }
}
