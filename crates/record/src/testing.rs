//! A club in one process, for tests and examples of proven games
//! (docs/pbem.md): a local test beacon, a server key that receipts every
//! entry, a seat key, and a server seed, with a clock that moves on 1.7 s an
//! action. Never for real games: one party holds every key here.

use crate::{ApplyError, Origin, Record};
use serde_json::Value;
use warboard_proof::{Beacon, BeaconProof, ChainInfo, DiceMode, Header, Link, Receipt, SeatKey, ServerSeed, SigningKey, TestBeacon};

/// Russia's first classic turn in FORMAT.md's words, with a battle for
/// Ukraine fought to its end: the scripted turn of the proof tests.
pub const RUSSIAN_TURN: [&str; 12] = [
    r#"{"type": "end_phase"}"#,
    r#"{"type": "purchase", "units": {"infantry": 2, "armor": 1}}"#,
    r#"{"type": "end_phase"}"#,
    r#"{"type": "move", "units": [{"type": "infantry", "count": 5}], "route": ["CAU", "UKR"]}"#,
    r#"{"type": "move", "units": [{"type": "armor", "count": 2}], "route": ["MOS", "CAU", "UKR"]}"#,
    r#"{"type": "end_phase"}"#,
    r#"{"type": "resolve", "at": "UKR"}"#,
    r#"{"type": "end_phase"}"#,
    r#"{"type": "end_phase"}"#,
    r#"{"type": "place", "at": "MOS", "units": {"infantry": 2, "armor": 1}}"#,
    r#"{"type": "end_phase"}"#,
    r#"{"type": "end_phase"}"#,
];

/// Russia's first classic turn up to its battle for Ukraine: nothing
/// bought, three infantry and an armor moved in, the combat phase begun.
pub fn attack_on_ukraine() -> Vec<Value> {
    [
        r#"{"type": "end_phase"}"#,
        r#"{"type": "end_phase"}"#,
        r#"{"type": "move", "units": [{"type": "infantry", "count": 3}], "route": ["CAU", "UKR"]}"#,
        r#"{"type": "move", "units": [{"type": "armor", "count": 1}], "route": ["MOS", "CAU", "UKR"]}"#,
        r#"{"type": "end_phase"}"#,
    ]
    .iter()
    .map(|a| serde_json::from_str(a).expect("a constant action"))
    .collect()
}

/// The test beacon's genesis (unix seconds).
pub const GENESIS: u64 = 1_000_000;

pub struct LocalClub {
    pub beacon: TestBeacon,
    pub server: SigningKey,
    /// The key of seat `player`; seat `computer` has none.
    pub seat: SigningKey,
    pub seed: ServerSeed,
    pub now_ms: u64,
}

impl Default for LocalClub {
    fn default() -> LocalClub {
        LocalClub {
            beacon: TestBeacon::new([7; 32], GENESIS, 3),
            server: SigningKey::from_bytes(&[9; 32]),
            seat: SigningKey::from_bytes(&[4; 32]),
            seed: ServerSeed::from_bytes([5; 32]),
            now_ms: (GENESIS + 100) * 1000,
        }
    }
}

impl LocalClub {
    /// The header of a proven `record` (seats `player` and `computer`),
    /// dice from the beacon or the server's seed; attached to it.
    pub fn start(&self, record: &mut Record, beacon: bool) -> Result<(), String> {
        self.start_with_seats(record, beacon, &[("player", true), ("computer", false)])
    }

    /// As [`LocalClub::start`] with other seats: each a name, and whether it
    /// signs (with the club's one seat key).
    pub fn start_with_seats(&self, record: &mut Record, beacon: bool, seats: &[(&str, bool)]) -> Result<(), String> {
        let (ruleset, start_state_hash) = record.proof_binding().map_err(|e| e.to_string())?;
        let dice = if beacon { DiceMode::Beacon { chain: self.beacon_info() } } else { DiceMode::Server { commitment: self.seed.commitment() } };
        let header = Header {
            game_id: [0x1d; 16],
            ruleset,
            start_state_hash,
            seats: seats.iter().map(|(seat, signs)| SeatKey { seat: seat.to_string(), key: signs.then(|| self.seat.verifying_key().to_bytes()) }).collect(),
            server_key: self.server.verifying_key().to_bytes(),
            dice,
        };
        record.attach_proof(header).map_err(|e| e.to_string())
    }

    pub fn beacon_info(&self) -> ChainInfo {
        self.beacon.info().clone()
    }

    /// One action as a seat and the server make it: the entry, signed
    /// (`player`) or not (`computer`), receipted, with its round's signature
    /// where it rolls (beacon mode), or the host's seed (server mode).
    pub fn act(&mut self, record: &mut Record, action: &Value, by_player: bool) -> Result<(), ApplyError> {
        self.act_as(record, action, if by_player { "player" } else { "computer" }, by_player)
    }

    /// One action by the seat named `seat` (signed where `signs`).
    pub fn act_as(&mut self, record: &mut Record, action: &Value, seat: &str, signs: bool) -> Result<(), ApplyError> {
        self.link(record, action, seat, signs, Origin::Client)
    }

    /// A clock note (a table entry), made by the host as the table's seat.
    pub fn note(&mut self, record: &mut Record, action: &Value) -> Result<(), ApplyError> {
        self.link(record, action, crate::TABLE_SEAT, false, Origin::Engine)
    }

    fn link(&mut self, record: &mut Record, action: &Value, seat: &str, signs: bool, by: Origin) -> Result<(), ApplyError> {
        let header = record.proof_header().ok_or(ApplyError::NeedsLink)?.clone();
        let beacon_mode = matches!(header.dice, DiceMode::Beacon { .. });
        let rolls = record.would_roll(action)?;
        self.now_ms += 1700;
        let round = (beacon_mode && rolls).then(|| self.beacon_info().round_at(self.now_ms / 1000) + 1);
        let entry = record.next_entry(seat, action, round)?;
        let game_id = header.game_id;
        let signed = if signs { entry.clone().sign(&game_id, &self.seat) } else { entry.clone().unsigned() };
        let receipt = Receipt::for_entry(&game_id, &entry, self.now_ms).sign(&game_id, &self.server);
        let beacon = round.and_then(|r| Some(BeaconProof { round: r, signature: self.beacon.sign(r)? }));
        let link = Link { entry: signed, receipt, beacon };
        let seed = self.seed.reveal();
        record.apply_link(action, by, &link, (!beacon_mode).then_some(&seed)).map(|_| ())
    }
}
