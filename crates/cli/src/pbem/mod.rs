//! `warboard pbem`: a game played by e-mail (or any file exchange) with
//! dice nobody can fake (issue 31, docs/pbem.md, "Playing by e-mail").
//!
//! Each player keeps the whole game as a proven save file. A player's turn
//! makes entries signed with the seat's key; the club's witness receipts
//! each before the beacon round it names is published; the round's
//! signature gives the dice. The new links go to the others in a turn file,
//! which they check (chain, signatures, receipts, rounds, dice, who may act)
//! and apply whole or not at all.

mod turn;
mod witness;

use std::path::{Path, PathBuf};

use clap::Subcommand;
use serde_json::Value;
use warboard_ai::Player;
use warboard_proof::bytes::{from_hex_n, to_hex};
use warboard_proof::{BeaconProof, DiceMode as ProofDice, Header, Link, ProofError, SeatKey, SigningKey};
use warboard_record::{DiceMode, Origin, Record, Start};
use warboard_rules::PowerId;

use turn::{TurnFile, TURN_FORMAT, TURN_VERSION};
use witness::Witness;

#[derive(Subcommand)]
pub enum PbemCommand {
    /// Make a seat's key: the secret goes to FILE (readable by you only),
    /// the public key is printed for the game's creator.
    Key {
        /// Where the secret key is written (it must not exist).
        file: PathBuf,
    },
    /// Start a game: every power in exactly one seat, the witness's key and
    /// beacon in its header; writes the game file every player starts from.
    New {
        /// The game file to write.
        game: PathBuf,
        /// The ruleset (default classic).
        #[arg(long, default_value = "classic")]
        ruleset: String,
        /// A rule option, NAME=VALUE, repeatable.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// A seat: the powers it plays, comma-separated, and its player's
        /// public key (`warboard pbem key`), e.g. germany,japan=3f2a…
        #[arg(long = "seat", value_name = "POWERS=PUBLIC_KEY", required = true)]
        seats: Vec<String>,
        /// The club's warboard server that witnesses the game.
        #[arg(long, env = "WARBOARD_WITNESS")]
        witness: String,
    },
    /// Play your seat's actions: from a file of JSON actions (one a line),
    /// and with --auto the computer's choices for your powers, until the
    /// game waits on another seat; writes the turn file for the others.
    Play {
        game: PathBuf,
        /// Your seat's secret key.
        #[arg(long)]
        key: PathBuf,
        #[arg(long, env = "WARBOARD_WITNESS")]
        witness: String,
        /// Actions in FORMAT.md's vocabulary, one JSON object a line (`-`: standard input).
        #[arg(long)]
        actions: Option<PathBuf>,
        /// After the actions, let the computer play your powers until
        /// another seat is to act.
        #[arg(long)]
        auto: bool,
        /// The turn file to write (the new entries).
        #[arg(long)]
        out: PathBuf,
    },
    /// Where the game stands: its seats, the entries so far, whose decision
    /// it waits on (and, with --key, whether it is yours).
    Status {
        game: PathBuf,
        /// Your seat's secret key.
        #[arg(long)]
        key: Option<PathBuf>,
    },
    /// Apply turn files from the others, checked whole: the chain,
    /// signatures, receipts (also against the witness's own list), rounds,
    /// dice and who may act.
    Read {
        game: PathBuf,
        #[arg(required = true)]
        turns: Vec<PathBuf>,
        /// Ask the witness for every receipt it gave: an entry it receipted
        /// that no turn file holds, or another entry under a number, is refused.
        #[arg(long, env = "WARBOARD_WITNESS")]
        witness: Option<String>,
    },
}

pub fn run(command: PbemCommand) -> Result<String, String> {
    match command {
        PbemCommand::Key { file } => key(&file),
        PbemCommand::New { game, ruleset, options, seats, witness } => new_game(&game, &ruleset, &options, &seats, &Witness::new(&witness)),
        PbemCommand::Play { game, key, witness, actions, auto, out } => play(&game, &key, &Witness::new(&witness), actions.as_deref(), auto, &out),
        PbemCommand::Status { game, key } => status(&game, key.as_deref()),
        PbemCommand::Read { game, turns, witness } => read(&game, &turns, witness.as_deref().map(Witness::new).as_ref()),
    }
}

fn key(file: &Path) -> Result<String, String> {
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| format!("[seed/unavailable] {e}"))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut f = options.open(file).map_err(|e| format!("[pbem/key-file] {}: {e}", file.display()))?;
    std::io::Write::write_all(&mut f, format!("{}\n", to_hex(&secret)).as_bytes()).map_err(|e| format!("[pbem/key-file] {}: {e}", file.display()))?;
    let public = SigningKey::from_bytes(&secret).verifying_key().to_bytes();
    Ok(format!("{}\n", to_hex(&public)))
}

fn read_key(file: &Path) -> Result<SigningKey, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("[pbem/key-file] {}: {e}", file.display()))?;
    let secret: [u8; 32] = from_hex_n(text.trim()).map_err(|e| format!("[pbem/key-file] {}: {e}", file.display()))?;
    Ok(SigningKey::from_bytes(&secret))
}

fn load(game: &Path) -> Result<Record, String> {
    let text = warboard_record::read_save(game).map_err(|e| format!("[{}] {e}", e.code()))?;
    let record = Record::load(&text).map_err(|e| format!("{}: [{}] {e}", game.display(), e.code()))?;
    if !record.proven() {
        return Err(format!("[pbem/not-proven] {}: not a game played by e-mail (its dice are not proven)", game.display()));
    }
    Ok(record)
}

fn save(game: &Path, record: &Record) -> Result<(), String> {
    warboard_record::write_save(game, record.to_save_string().as_bytes()).map_err(|e| format!("[pbem/write] {e}"))
}

/// The powers a seat's name lists (`germany,japan`).
fn seat_powers(record: &Record, seat: &str) -> Result<Vec<PowerId>, String> {
    warboard_table::seat_powers(record.game(), seat).map_err(|e| format!("[pbem/bad-seat] {e}"))
}

fn new_game(game: &Path, ruleset: &str, options: &[String], seats: &[String], witness: &Witness) -> Result<String, String> {
    if game.exists() {
        return Err(format!("[pbem/exists] {} exists: a new game is written to a new file", game.display()));
    }
    let options = crate::play::parse_options(options)?;
    let start = Start { options, ..Start::standard(ruleset, DiceMode::Proof) };
    let mut record = Record::new(start).map_err(|e| format!("[{}] {e}", e.code()))?;
    let mut keys = Vec::new();
    let mut held: Vec<PowerId> = Vec::new();
    for seat in seats {
        let (powers, public) = seat.split_once('=').ok_or_else(|| format!("[pbem/bad-seat] `{seat}`: a seat is POWERS=PUBLIC_KEY"))?;
        let key: [u8; 32] = from_hex_n(public.trim()).map_err(|e| format!("[pbem/bad-seat] `{seat}`: the key: {e}"))?;
        for p in seat_powers(&record, powers)? {
            if held.contains(&p) {
                return Err(format!("[pbem/bad-seat] {} is in two seats", record.game().ruleset.power(p).id));
            }
            held.push(p);
        }
        keys.push(SeatKey { seat: powers.to_string(), key: Some(key) });
    }
    let rs = record.game().ruleset.clone();
    if let Some(p) = rs.power_ids().find(|p| !held.contains(p)) {
        return Err(format!("[pbem/bad-seat] {} is in no seat: every power is played by a seat", rs.power(p).id));
    }
    let about = witness.about()?;
    let (label, start_state_hash) = record.proof_binding().map_err(|e| e.to_string())?;
    let mut game_id = [0u8; 16];
    getrandom::fill(&mut game_id).map_err(|e| format!("[seed/unavailable] {e}"))?;
    let header = Header { game_id, ruleset: label, start_state_hash, seats: keys, server_key: about.server_key, dice: ProofDice::Beacon { chain: about.beacon } };
    witness.register(&header)?;
    record.attach_proof(header).map_err(|e| format!("[{}] {e}", e.code()))?;
    save(game, &record)?;
    Ok(format!("game {} written to {}: send it to every player\n", to_hex(&game_id), game.display()))
}

/// The seat whose key `key` is.
fn my_seat(record: &Record, key: &SigningKey) -> Result<(String, Vec<PowerId>), String> {
    let public = key.verifying_key().to_bytes();
    let header = record.proof_header().expect("a proven game");
    let seat = header.seats.iter().find(|s| s.key == Some(public)).ok_or("[pbem/not-seated] this key holds no seat of the game")?;
    Ok((seat.seat.clone(), seat_powers(record, &seat.seat)?))
}

fn play(game: &Path, key_file: &Path, witness: &Witness, actions: Option<&Path>, auto: bool, out: &Path) -> Result<String, String> {
    let mut record = load(game)?;
    let key = read_key(key_file)?;
    let (seat, powers) = my_seat(&record, &key)?;
    let since = record.log().len() as u64;
    let script: Vec<Value> = match actions {
        None => Vec::new(),
        Some(path) => {
            let text = if path == Path::new("-") {
                std::io::read_to_string(std::io::stdin()).map_err(|e| e.to_string())?
            } else {
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?
            };
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .enumerate()
                .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("[pbem/bad-action] line {}: {e}", i + 1)))
                .collect::<Result<_, _>>()?
        }
    };
    let mut turn = Turn { witness, key: &key, seat: &seat, powers: &powers, game };
    for action in &script {
        turn.act(&mut record, action)?;
    }
    if auto {
        turn.auto(&mut record)?;
    }
    let made = record.log().len() as u64 - since;
    write_turn(&record, since, out)?;
    Ok(format!("{made} entries made; {}; send {} to the others\n", waits(&record), out.display()))
}

/// Whom the game waits on, in words.
fn waits(record: &Record) -> String {
    match record.game().actor() {
        warboard_rules::game::Actor::Power(p) => format!("the game waits on {}", record.game().ruleset.power(p).id),
        warboard_rules::game::Actor::Terminal => "the game is over".to_string(),
    }
}

struct Turn<'a> {
    witness: &'a Witness,
    key: &'a SigningKey,
    seat: &'a str,
    powers: &'a [PowerId],
    game: &'a Path,
}

impl Turn<'_> {
    /// One action: who may act, whether it rolls (then it names the
    /// beacon's next round), signed, receipted, the round awaited, applied,
    /// and the game file written (an entry receipted is never lost: sent
    /// again, the same entry gets the same receipt).
    fn act(&self, record: &mut Record, action: &Value) -> Result<(), String> {
        warboard_table::authority(record.game(), self.powers, action, |_| false).map_err(|r| format!("[{}] {action}: {r}", r.code()))?;
        let rolls = record.would_roll(action).map_err(|e| format!("[{}] {action}: {e}", e.code()))?;
        let header = record.proof_header().expect("a proven game").clone();
        // The round named is the beacon's next by the witness's clock; if it
        // came out before the entry arrived (a slow line), the witness
        // receipted nothing, and the entry names the next one again.
        let mut tries = 0;
        let (signed, receipt, round) = loop {
            let round = if rolls {
                let about = self.witness.about()?;
                Some(about.beacon.round_at(about.now_ms / 1000) + 1)
            } else {
                None
            };
            let entry = record.next_entry(self.seat, action, round).map_err(|e| format!("[{}] {e}", e.code()))?;
            let signed = entry.sign(&header.game_id, self.key);
            match self.witness.receipt(&to_hex(&header.game_id), &signed) {
                Ok(receipt) => break (signed, receipt, round),
                Err(e) if e.starts_with("[record/round-published]") && tries < 3 => tries += 1,
                Err(e) => return Err(e),
            }
        };
        let beacon = match round {
            Some(r) => Some(BeaconProof { round: r, signature: self.witness.round(r)? }),
            None => None,
        };
        let link = Link { entry: signed, receipt, beacon };
        record.apply_link(action, Origin::Client, &link, None).map_err(|e| format!("[{}] {action}: {e}", e.code()))?;
        save(self.game, record)
    }

    /// The computer's choices for the seat's powers until another seat is
    /// to act or the game ends; the book's defaults after refusals.
    fn auto(&mut self, record: &mut Record) -> Result<(), String> {
        let header = record.proof_header().expect("a proven game");
        let seed = u64::from_be_bytes(header.game_id[..8].try_into().expect("8 bytes"));
        let mut planner = warboard_ai::planner::PlanningPlayer::new(seed, 0);
        let mut refused = 0;
        loop {
            let warboard_rules::game::Actor::Power(p) = record.game().actor() else { return Ok(()) };
            if !self.powers.contains(&p) {
                return Ok(());
            }
            let (mut action, proposed) = if refused < warboard_table::FALLBACK_AFTER {
                let a = planner.next_action(record.game());
                (warboard_record::action_to_format(&a, &record.game().ruleset), Some(a))
            } else {
                (warboard_table::fallback::default_action(record), None)
            };
            if record.game().round_phase() {
                if let Value::Object(fields) = &mut action {
                    fields.insert("power".into(), Value::String(record.game().ruleset.power(p).id.clone()));
                }
            }
            match (record.would_roll(&action), proposed) {
                (Err(e), Some(a)) => {
                    refused += 1;
                    let why = match e {
                        warboard_record::ApplyError::Rejected(r) => r,
                        other => warboard_rules::RuleError::new("action/refused", other.to_string()),
                    };
                    planner.rejected(&a, &why);
                }
                (Err(e), None) => return Err(format!("[{}] the computer is stuck at {action}: {e}", e.code())),
                (Ok(_), _) => {
                    refused = 0;
                    self.act(record, &action)?;
                }
            }
        }
    }
}

fn status(game: &Path, key: Option<&Path>) -> Result<String, String> {
    let record = load(game)?;
    let header = record.proof_header().expect("a proven game");
    let rs = &record.game().ruleset;
    let s = record.state();
    let mut out = format!("game {} ({}), {} entries\n", to_hex(&header.game_id), rs.name, record.log().len());
    let waits_on = match record.game().actor() {
        warboard_rules::game::Actor::Power(p) => Some(p),
        warboard_rules::game::Actor::Terminal => None,
    };
    for seat in header.seats.iter().filter(|s| s.seat != warboard_record::TABLE_SEAT) {
        let key = seat.key.map(|k| to_hex(&k[..8])).unwrap_or_else(|| "no key".into());
        let powers = seat_powers(&record, &seat.seat)?;
        let mark = if waits_on.is_some_and(|p| powers.contains(&p)) { "  <- to act" } else { "" };
        out.push_str(&format!("seat {} (key {key}…){mark}\n", seat.seat));
    }
    match (&s.winner, waits_on) {
        (Some(w), _) => out.push_str(&format!("the game is over: the {} have won\n", w.describe(|p| rs.power(p).id.clone()))),
        (None, Some(p)) => {
            out.push_str(&format!("round {}, {}'s turn, {} phase; the game waits on {}\n", s.round, rs.power(s.turn).id, s.phase.name().replace('_', " "), rs.power(p).id));
            if let Some(key) = key {
                let (seat, powers) = my_seat(&record, &read_key(key)?)?;
                let yours = if powers.contains(&p) { "it is your move" } else { "it is not your move" };
                out.push_str(&format!("your seat: {seat}; {yours}\n"));
            }
        }
        (None, None) => {}
    }
    Ok(out)
}

fn write_turn(record: &Record, since: u64, out: &Path) -> Result<(), String> {
    let header = record.proof_header().expect("a proven game");
    let links: Vec<Link> = record.links().into_iter().skip(since as usize).collect();
    TurnFile { format: TURN_FORMAT.into(), version: TURN_VERSION, game_id: header.game_id, header_hash: header.hash(), from: since, links }.write(out)
}

fn read(game: &Path, turns: &[PathBuf], witness: Option<&Witness>) -> Result<String, String> {
    let record = load(game)?;
    let mut next = record.clone();
    let before = next.log().len() as u64;
    for path in turns {
        let file = TurnFile::read(path)?;
        apply_turn(&mut next, &file).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(witness) = witness {
        check_against_witness(&next, witness)?;
    }
    let applied = next.log().len() as u64 - before;
    save(game, &next)?;
    Ok(format!("{applied} entries applied; {}\n", waits(&next)))
}

/// A turn file's links, checked and applied in order (on the caller's copy:
/// a refused file leaves the game as it was). Links the game holds already
/// must be the same ones.
fn apply_turn(record: &mut Record, file: &TurnFile) -> Result<(), String> {
    let header = record.proof_header().expect("a proven game").clone();
    if file.game_id != header.game_id || file.header_hash != header.hash() {
        return Err("[pbem/other-game] the turn file belongs to another game".into());
    }
    let have = record.links();
    for (i, link) in file.links.iter().enumerate() {
        let n = file.from + i as u64;
        let code = |e: ProofError| format!("[{}] {e}", e.code());
        if link.entry.entry.n != n {
            return Err(code(ProofError::OutOfOrder(format!("entry {} stands where entry {n} belongs", link.entry.entry.n))));
        }
        if let Some(known) = have.get(n as usize) {
            if known.receipt != link.receipt {
                return Err(code(ProofError::Equivocation { n, first: Box::new(known.receipt.clone()), second: Box::new(link.receipt.clone()) }));
            }
            continue;
        }
        if n != record.log().len() as u64 {
            return Err(code(ProofError::OutOfOrder(format!("the turn file starts at entry {n}, and the game has {} entries", record.log().len()))));
        }
        let action: Value = serde_json::from_str(&link.entry.entry.action).map_err(|e| format!("[record/malformed] entry {n}'s action: {e}"))?;
        let powers = seat_powers(record, &link.entry.entry.seat)?;
        warboard_table::authority(record.game(), &powers, &action, |_| false).map_err(|r| format!("[{}] entry {n}: {r}", r.code()))?;
        record.apply_link(&action, Origin::Client, link, None).map_err(|e| format!("[{}] entry {n}: {e}", e.code()))?;
    }
    Ok(())
}

/// Every receipt the witness gave is the game's: no other entry under a
/// number (`record/equivocation`), none past the game's end that no turn
/// file brought (`record/truncated`).
fn check_against_witness(record: &Record, witness: &Witness) -> Result<(), String> {
    let header = record.proof_header().expect("a proven game");
    let links = record.links();
    for r in witness.receipts(&to_hex(&header.game_id), 0)? {
        let n = r.receipt.n;
        let e = match links.get(n as usize) {
            Some(l) if l.receipt.receipt.entry_hash == r.receipt.entry_hash => continue,
            Some(l) => ProofError::Equivocation { n, first: Box::new(l.receipt.clone()), second: Box::new(r) },
            None => ProofError::Truncated { n, len: links.len() as u64 },
        };
        return Err(format!("[{}] {e}", e.code()));
    }
    Ok(())
}
