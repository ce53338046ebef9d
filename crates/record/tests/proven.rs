//! Proven games (dice source `proof`, docs/pbem.md): a game played with a
//! signed chain and beacon dice saves, loads to the same bytes and the same
//! game, and any change to its proofs is refused with its `record/…` code.

mod common;

use common::{below, candidate};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use warboard_proof::ServerSeed;
use warboard_record::testing::LocalClub;
use warboard_record::{DiceMode, Origin, Record, Start};

fn proven_game(seed: u64, steps: usize, beacon: bool) -> (Record, LocalClub) {
    let mut club = LocalClub::default();
    let mut record = Record::new(Start::standard("classic", DiceMode::Proof)).unwrap();
    club.start(&mut record, beacon).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rolled = 0;
    for _ in 0..steps {
        if record.state().winner.is_some() {
            break;
        }
        let action = candidate(&record, &mut rng);
        let _ = below(&mut rng, 2);
        let by_player = !record.log().len().is_multiple_of(3);
        if club.act(&mut record, &action, by_player).is_ok() && !record.log().last().unwrap().dice.is_empty() {
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
    assert!(summary.rolled > 0 && summary.signed > 0 && !summary.dice_pending, "{summary:?}");
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
        match club.act(&mut cheat, &action, true) {
            Err(e) if e.code() == "record/seed-mismatch" => Some(e),
            _ => None,
        }
    });
    assert!(refused.is_some(), "an entry with dice applied with another seed");
}

#[test]
fn a_witnessed_receipt_for_another_entry_is_the_servers_proof_of_a_fork() {
    let (mut record, club) = proven_game(11, 400, true);
    let game_id = record.proof_header().unwrap().game_id;
    let first = record.links()[0].clone();
    // The same receipt again is kept; one naming another entry as number 0 is refused.
    record.witness(first.receipt.clone()).unwrap();
    let mut other = first.entry.entry.clone();
    other.action = r#"{"type":"purchase","units":{"infantry":1}}"#.into();
    let forged = warboard_proof::Receipt::for_entry(&game_id, &other, first.receipt.receipt.server_time_ms).sign(&game_id, &club.server);
    let before = record.to_save_string();
    assert_eq!(record.witness(forged).unwrap_err().code(), "record/equivocation");
    assert_eq!(record.to_save_string(), before, "a refused receipt is not kept");
    assert_eq!(record.proof_summary().unwrap().witnessed, 1);
}
