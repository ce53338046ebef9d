//! A table over a proven game (docs/pbem.md), as the server's own games
//! will be: each new action linked by the table's `Linker` (the server's
//! receipt, dice from its committed seed), the computer playing; the game
//! saves, loads, and verifies with its seed revealed; another table follows
//! it entry by entry from what the first recorded.

use serde_json::Value;
use warboard_proof::{DiceMode as ProofDice, Header, Link, Receipt, SeatKey, ServerSeed, SigningKey};
use warboard_record::{ApplyError, DiceMode, Record, Start};
use warboard_rules::PowerId;
use warboard_table::{Linker, Step, Table};

struct HostLinker {
    key: SigningKey,
    seed: ServerSeed,
    now_ms: u64,
}

impl Linker for HostLinker {
    fn link(&mut self, record: &Record, power: PowerId, action: &Value) -> Result<(Link, Option<[u8; 32]>), ApplyError> {
        self.now_ms += 1000;
        let seat = record.game().ruleset.power(power).id.clone();
        let entry = record.next_entry(&seat, action, None)?;
        let game_id = record.proof_header().expect("proven").game_id;
        let receipt = Receipt::for_entry(&game_id, &entry, self.now_ms).sign(&game_id, &self.key);
        Ok((Link { entry: entry.unsigned(), receipt, beacon: None }, Some(self.seed.reveal())))
    }
}

fn proven_start(seed: &ServerSeed, key: &SigningKey) -> Record {
    let mut record = Record::new(Start::standard("classic", DiceMode::Proof)).unwrap();
    let (ruleset, start_state_hash) = record.proof_binding().unwrap();
    let seats = record.game().ruleset.powers.iter().map(|p| SeatKey { seat: p.id.clone(), key: None }).collect();
    let header = Header {
        game_id: [0x42; 16],
        ruleset,
        start_state_hash,
        seats,
        server_key: key.verifying_key().to_bytes(),
        dice: ProofDice::Server { commitment: seed.commitment() },
    };
    record.attach_proof(header).unwrap();
    record
}

#[test]
fn the_computer_plays_a_proven_game_that_verifies_once_the_seed_is_revealed() {
    let (seed, key) = (ServerSeed::from_bytes([3; 32]), SigningKey::from_bytes(&[4; 32]));
    let record = proven_start(&seed, &key);
    let powers = record.game().ruleset.powers.len();
    let mut table = Table::new(record, vec![true; powers], 0);
    table.set_linker(Box::new(HostLinker { key: key.clone(), seed: seed.clone(), now_ms: 1_700_000_000_000 }));
    let mut acted = 0;
    while acted < 300 {
        match table.step_computer() {
            Step::Acted(_) => acted += 1,
            Step::Refused => {}
            other => panic!("the computer stopped: {:?}", matches!(other, Step::Idle)),
        }
    }
    let rolled = table.record().log().iter().filter(|e| !e.dice.is_empty()).count();
    assert!(rolled > 3, "{rolled} entries rolled");

    // Saved while the seed is secret: the chain verifies, the dice wait.
    let text = table.record().to_save_string();
    let mut loaded = Record::load(&text).unwrap();
    assert!(loaded.proof_summary().unwrap().dice_pending);
    loaded.reveal_seed(seed.reveal()).unwrap();
    assert_eq!(loaded.state(), table.record().state());

    // Another table follows the game from its recorded entries.
    let mut follower = Table::new(proven_start(&seed, &key), vec![true; powers], 0);
    for entry in table.record().log() {
        follower.apply_recorded(entry, Some(&seed.reveal())).unwrap();
    }
    assert_eq!(follower.record().to_save_string(), text);
    // An entry whose recorded dice were changed is refused, and changes nothing.
    let mut follower = Table::new(proven_start(&seed, &key), vec![true; powers], 0);
    let log = table.record().log();
    let first_roll = log.iter().position(|e| !e.dice.is_empty()).unwrap();
    for entry in &log[..first_roll] {
        follower.apply_recorded(entry, Some(&seed.reveal())).unwrap();
    }
    let mut forged = log[first_roll].clone();
    forged.dice[0] = if forged.dice[0] == 6 { 1 } else { forged.dice[0] + 1 };
    let before = follower.record().to_save_string();
    assert!(follower.apply_recorded(&forged, Some(&seed.reveal())).is_err());
    assert_eq!(follower.record().to_save_string(), before);
}
