//! Proven games (dice source `proof`, docs/pbem.md): a game played with a
//! signed chain and beacon dice saves, loads to the same bytes and the same
//! game, and any change to its proofs is refused with its `record/…` code.

mod common;

use common::{below, candidate};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde_json::Value;
use warboard_proof::{BeaconProof, ChainInfo, DiceMode as ProofDice, Header, Link, Receipt, SeatKey, ServerSeed, SigningKey, TestBeacon};
use warboard_record::{ApplyError, DiceMode, Origin, Record, Start};

const GENESIS: u64 = 1_000_000;

struct Club {
    beacon: TestBeacon,
    server: SigningKey,
    seat: SigningKey,
    seed: ServerSeed,
    now_ms: u64,
}

impl Club {
    fn new() -> Club {
        Club {
            beacon: TestBeacon::new([7; 32], GENESIS, 3),
            server: SigningKey::from_bytes(&[9; 32]),
            seat: SigningKey::from_bytes(&[4; 32]),
            seed: ServerSeed::from_bytes([5; 32]),
            now_ms: (GENESIS + 100) * 1000,
        }
    }

    fn header(&self, record: &Record, beacon: bool) -> Header {
        let (ruleset, start_state_hash) = record.proof_binding().unwrap();
        let dice = if beacon {
            ProofDice::Beacon { chain: self.beacon_info() }
        } else {
            ProofDice::Server { commitment: self.seed.commitment() }
        };
        Header {
            game_id: [0x1d; 16],
            ruleset,
            start_state_hash,
            seats: vec![
                SeatKey { seat: "player".into(), key: Some(self.seat.verifying_key().to_bytes()) },
                SeatKey { seat: "computer".into(), key: None },
            ],
            server_key: self.server.verifying_key().to_bytes(),
            dice,
        }
    }

    fn beacon_info(&self) -> ChainInfo {
        warboard_proof::Beacon::info(&self.beacon).clone()
    }

    /// One action as the seat and the server make it: the entry, signed
    /// (the player) or not (the computer), receipted, its round's signature.
    fn act(&mut self, record: &mut Record, action: &Value, beacon: bool) -> Result<(), ApplyError> {
        let rolls = record.would_roll(action)?;
        self.now_ms += 1700;
        let round = (beacon && rolls).then(|| self.beacon_info().round_at(self.now_ms / 1000) + 1);
        let by_player = record.log().len() % 3 != 0;
        let seat = if by_player { "player" } else { "computer" };
        let entry = record.next_entry(seat, action, round)?;
        let game_id = record.proof_header().unwrap().game_id;
        let signed = if by_player { entry.clone().sign(&game_id, &self.seat) } else { entry.clone().unsigned() };
        let receipt = Receipt::for_entry(&game_id, &entry, self.now_ms).sign(&game_id, &self.server);
        let beacon = round.map(|r| BeaconProof { round: r, signature: self.beacon.sign(r).unwrap() });
        let link = Link { entry: signed, receipt, beacon };
        let seed = self.seed.reveal();
        record.apply_link(action, Origin::Client, &link, (!beacon_mode(record)).then_some(&seed)).map(|_| ())
    }
}

fn beacon_mode(record: &Record) -> bool {
    matches!(record.proof_header().unwrap().dice, ProofDice::Beacon { .. })
}

fn proven_game(seed: u64, steps: usize, beacon: bool) -> (Record, Club) {
    let mut club = Club::new();
    let mut record = Record::new(Start::standard("classic", DiceMode::Proof)).unwrap();
    let header = club.header(&record, beacon);
    record.attach_proof(header).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rolled = 0;
    for _ in 0..steps {
        if record.state().winner.is_some() {
            break;
        }
        let action = candidate(&record, &mut rng);
        let _ = below(&mut rng, 2);
        if club.act(&mut record, &action, beacon).is_ok() && !record.log().last().unwrap().dice.is_empty() {
            rolled += 1;
        }
    }
    assert!(rolled >= 2, "the game rolled dice in {rolled} entries");
    (record, club)
}

#[test]
fn a_beacon_game_saves_and_loads_to_the_same_bytes_and_game() {
    let (record, _) = proven_game(11, 400, true);
    let text = record.to_save_string();
    let loaded = Record::load(&text).unwrap();
    assert_eq!(loaded.to_save_string(), text);
    assert_eq!(loaded.state(), record.state());
    let summary = loaded.proof_summary().unwrap();
    assert_eq!(summary.entries, record.log().len());
    assert!(summary.rounds > 0 && summary.signed > 0 && !summary.dice_pending, "{summary:?}");
    // Rounds are named exactly by the entries that roll.
    for e in loaded.log() {
        assert_eq!(e.proof.as_ref().unwrap().beacon_round.is_some(), !e.dice.is_empty(), "{}", e.action);
    }
}

#[test]
fn a_proven_game_cannot_be_undone_and_takes_no_action_without_its_link() {
    let (mut record, _) = proven_game(12, 300, true);
    assert!(record.undo().is_err());
    let before = record.to_save_string();
    let err = record.apply(&serde_json::json!({"type": "end_phase"}), Origin::Client).unwrap_err();
    assert_eq!(err.code(), "proof/needs-link");
    assert_eq!(record.to_save_string(), before);
}

#[test]
fn every_change_to_a_link_is_refused_with_a_record_code() {
    let (record, _) = proven_game(13, 400, true);
    let text = record.to_save_string();
    let lines: Vec<&str> = text.lines().collect();
    let entry_lines: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains("\"proof\":")).collect();
    assert!(entry_lines.len() > 10);
    let mut checked = 0;
    for &i in entry_lines.iter().step_by(7) {
        let line = lines[i];
        let proof_at = line.find("\"proof\":").unwrap();
        for field in ["\"signature\":\"", "\"receipt_signature\":\"", "\"beacon_signature\":\"", "\"state_hash_before\":\""] {
            let Some(at) = line[proof_at..].find(field) else { continue };
            let pos = proof_at + at + field.len() + 5;
            let mut bytes = line.as_bytes().to_vec();
            bytes[pos] = if bytes[pos] == b'0' { b'1' } else { b'0' };
            let mut changed = lines.clone();
            let edited = String::from_utf8(bytes).unwrap();
            changed[i] = &edited;
            let err = Record::load(&(changed.join("\n") + "\n")).err().unwrap_or_else(|| panic!("{field} of line {i} changed, and the save loads"));
            assert!(err.code().starts_with("record/"), "{field} of line {i}: {} {err}", err.code());
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
}

#[test]
fn a_server_seed_game_checks_its_dice_once_the_seed_is_revealed() {
    let (record, club) = proven_game(14, 300, false);
    let text = record.to_save_string();
    // Before the reveal the chain verifies and the dice wait.
    let loaded = Record::load(&text).unwrap();
    assert!(loaded.proof_summary().unwrap().dice_pending);
    let mut revealed = loaded.clone();
    revealed.reveal_seed(club.seed.reveal()).unwrap();
    assert!(!revealed.proof_summary().unwrap().dice_pending);
    assert_eq!(revealed.state(), record.state());
    let again = Record::load(&revealed.to_save_string()).unwrap();
    assert_eq!(again.to_save_string(), revealed.to_save_string());

    // Another seed is not the one committed to.
    let mut wrong = loaded.clone();
    assert_eq!(wrong.reveal_seed([6; 32]).unwrap_err().code(), "record/seed-mismatch");
    assert_eq!(wrong.to_save_string(), text, "a refused reveal changes nothing");

    // A host cannot roll with another seed than the one it committed to.
    let mut club = club;
    club.seed = ServerSeed::from_bytes([6; 32]);
    let mut cheat = loaded;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let refused = (0..200).find_map(|_| {
        let action = candidate(&cheat, &mut rng);
        match club.act(&mut cheat, &action, false) {
            Err(e) if e.code() == "record/seed-mismatch" => Some(e),
            _ => None,
        }
    });
    assert!(refused.is_some(), "an entry with dice applied with another seed");
}
