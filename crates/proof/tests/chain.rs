//! The signed hash chain and its verifier: valid chains verify and give each
//! entry's dice; every kind of tampering is refused with its own code; every
//! flipped byte of any entry, receipt, beacon signature (or header, or seed)
//! is refused with a `record/…` code, never accepted, never a panic.

use proptest::prelude::*;
use warboard_proof::bytes::to_hex;
use warboard_proof::error::CODES;
use warboard_proof::*;

const GENESIS: u64 = 1_700_000_000;
const GAME: [u8; 16] = [0x6a; 16];

fn seat_key(seat: &str) -> Option<SigningKey> {
    match seat {
        "Germany" => Some(SigningKey::from_bytes(&[1; 32])),
        "Russia" => Some(SigningKey::from_bytes(&[2; 32])),
        _ => None,
    }
}

fn server_key() -> SigningKey {
    SigningKey::from_bytes(&[0x5e; 32])
}

fn test_beacon() -> TestBeacon {
    TestBeacon::new([0xbe; 32], GENESIS, 3)
}

fn seed() -> ServerSeed {
    ServerSeed::from_bytes([0x5d; 32])
}

fn header(dice: DiceMode) -> Header {
    let seats = ["Germany", "Russia", "computer"]
        .iter()
        .map(|s| SeatKey { seat: s.to_string(), key: seat_key(s).map(|k| k.verifying_key().to_bytes()) })
        .collect();
    Header {
        game_id: GAME,
        ruleset: "classic".into(),
        start_state_hash: [0x55; 32],
        seats,
        server_key: server_key().verifying_key().to_bytes(),
        dice,
    }
}

fn beacon_mode() -> DiceMode {
    DiceMode::Beacon { chain: test_beacon().info().clone() }
}

fn server_mode() -> DiceMode {
    DiceMode::Server { commitment: seed().commitment() }
}

/// One planned entry: who, what, and the round it names relative to the
/// round current at its receipt (`None`: it rolls nothing).
struct Step(&'static str, &'static str, Option<u64>);

const PLAN: &[Step] = &[
    Step("Germany", r#"{"purchase":{"infantry":2}}"#, None),
    Step("Russia", r#"{"attack":"Ukraine"}"#, Some(2)),
    Step("computer", r#"{"battle":"Ukraine"}"#, Some(2)),
    Step("Germany", r#"{"end_phase":null}"#, None),
];

fn build_with(dice: DiceMode, plan: &[Step]) -> Record {
    let header = header(dice);
    let beacon = test_beacon();
    let mut writer = ChainWriter::new(&header);
    let mut time_ms = (GENESIS + 100) * 1000 + 500;
    let mut links = Vec::new();
    for (i, Step(seat, action, ahead)) in plan.iter().enumerate() {
        let round = ahead.map(|a| beacon.round_at(time_ms / 1000) + a);
        let entry = writer.entry(seat, action, [i as u8; 32], round);
        let entry = match seat_key(seat) {
            Some(key) => entry.sign(&GAME, &key),
            None => entry.unsigned(),
        };
        let receipt = Receipt::for_entry(&GAME, &entry.entry, time_ms);
        writer.append(&entry.entry, &receipt).unwrap();
        let beacon = round.map(|round| BeaconProof { round, signature: beacon.sign(round).unwrap() });
        links.push(Link { entry, receipt: receipt.sign(&GAME, &server_key()), beacon });
        time_ms += 10_000;
    }
    Record { header, links, witnessed: Vec::new(), seed: None }
}

/// The beacon chain of `PLAN`, with link 1's receipt also held by a witness.
fn beacon_record() -> Record {
    let mut record = build_with(beacon_mode(), PLAN);
    record.witnessed.push(record.links[1].receipt.clone());
    record
}

fn server_record() -> Record {
    let plan: Vec<Step> = PLAN.iter().map(|s| Step(s.0, s.1, None)).collect();
    let mut record = build_with(server_mode(), &plan);
    record.seed = Some(seed().reveal());
    record
}

fn code(record: &Record) -> &'static str {
    verify(record).err().map(|e| e.code()).unwrap_or("ok")
}

#[test]
fn a_beacon_chain_verifies_and_gives_the_dice_of_the_entries_that_roll() {
    let record = beacon_record();
    let verified = verify(&record).unwrap();
    assert!(!verified.dice_pending);
    assert_eq!(verified.entries.len(), 4);
    let beacon = test_beacon();
    for (link, v) in record.links.iter().zip(&verified.entries) {
        assert_eq!(v.entry_hash, link.entry.entry.hash(&GAME));
        assert_eq!(v.seat_signed, v.seat != "computer");
        match &link.beacon {
            None => assert!(v.dice.is_none()),
            Some(proof) => {
                let r = beacon.verify(proof.round, &proof.signature).unwrap();
                let want = ProofDice::for_entry(&r, &GAME, v.n, &v.entry_hash).take(10);
                assert_eq!(v.dice.clone().unwrap().take(10), want);
            }
        }
    }
    // The head is what a writer reached.
    let mut writer = ChainWriter::new(&record.header);
    for link in &record.links {
        writer.append(&link.entry.entry, &link.receipt.receipt).unwrap();
    }
    assert_eq!(verified.head, writer.head());
}

#[test]
fn a_server_seed_chain_verifies_once_the_seed_is_revealed() {
    let record = server_record();
    let verified = verify(&record).unwrap();
    assert!(!verified.dice_pending);
    for v in &verified.entries {
        let want = seed().dice(&GAME, v.n, &v.entry_hash).take(10);
        assert_eq!(v.dice.clone().unwrap().take(10), want);
    }

    let mut pending = record.clone();
    pending.seed = None;
    let verified = verify(&pending).unwrap();
    assert!(verified.dice_pending);
    assert!(verified.entries.iter().all(|v| v.dice.is_none()));

    let mut wrong = record.clone();
    wrong.seed = Some([0x5c; 32]);
    assert_eq!(code(&wrong), "record/seed-mismatch");
}

#[test]
fn two_receipts_for_one_entry_are_equivocation_and_both_are_the_proof() {
    let record = beacon_record();
    // The server also receipted another entry 1 (say, the better attack for Russia).
    let fork = build_with(beacon_mode(), &[Step("Germany", PLAN[0].1, None), Step("Russia", r#"{"attack":"Karelia"}"#, Some(2))]);
    let mut forked = record.clone();
    forked.witnessed.push(fork.links[1].receipt.clone());
    match verify(&forked) {
        Err(ProofError::Equivocation { n, first, second }) => {
            assert_eq!(n, 1);
            assert_eq!(*first, record.links[1].receipt);
            assert_eq!(*second, fork.links[1].receipt);
            assert_ne!(first.receipt.entry_hash, second.receipt.entry_hash);
        }
        other => panic!("{other:?}"),
    }
    // A fork shown as the chain itself, with the original held by a witness.
    let mut shown = record.clone();
    shown.links.truncate(1);
    shown.links.push(fork.links[1].clone());
    shown.witnessed = vec![record.links[1].receipt.clone()];
    assert_eq!(code(&shown), "record/equivocation");
}

#[test]
fn a_record_cut_short_is_caught_by_a_witnessed_receipt() {
    let record = beacon_record();
    let mut cut = record.clone();
    cut.links.truncate(2);
    cut.witnessed.push(record.links[3].receipt.clone());
    assert_eq!(code(&cut), "record/truncated");
    // Without a witness, a prefix of a record is a valid (shorter) record.
    let mut prefix = record.clone();
    prefix.links.truncate(2);
    prefix.witnessed.clear();
    assert_eq!(code(&prefix), "ok");
}

#[test]
fn reordered_replayed_or_dropped_entries_are_out_of_order() {
    let record = beacon_record();
    let mut swapped = record.clone();
    swapped.links.swap(1, 2);
    assert_eq!(code(&swapped), "record/out-of-order");
    let mut replayed = record.clone();
    replayed.links.insert(2, record.links[1].clone());
    assert_eq!(code(&replayed), "record/out-of-order");
    let mut dropped = record.clone();
    dropped.links.remove(1);
    assert_eq!(code(&dropped), "record/out-of-order");
}

#[test]
fn an_entry_renumbered_and_resigned_still_breaks_the_chain() {
    // Germany re-signs its entry 3 with entry 1's prev: numbering is fine,
    // the signature and the receipt are fine, the chain is not.
    let mut record = beacon_record();
    let server = server_key();
    let mut entry = record.links[3].entry.entry.clone();
    entry.prev = record.links[1].entry.entry.prev;
    let receipt = Receipt::for_entry(&GAME, &entry, record.links[3].receipt.receipt.server_time_ms);
    record.links[3] = Link { entry: entry.sign(&GAME, &seat_key("Germany").unwrap()), receipt: receipt.sign(&GAME, &server), beacon: None };
    record.witnessed.clear();
    assert_eq!(code(&record), "record/chain-broken");
}

#[test]
fn seats_and_their_signatures() {
    let record = beacon_record();
    let mut unsigned = record.clone();
    unsigned.links[0].entry.signature = None;
    assert_eq!(code(&unsigned), "record/bad-signature");
    let mut other_seat = record.clone();
    let s = other_seat.links[3].entry.entry.clone().sign(&GAME, &seat_key("Russia").unwrap());
    other_seat.links[3].entry.signature = s.signature;
    assert_eq!(code(&other_seat), "record/bad-signature");
    let mut keyless_signed = record.clone();
    keyless_signed.links[2].entry.signature = Some([0; 64]);
    assert_eq!(code(&keyless_signed), "record/bad-signature");
    let unknown = build_with(beacon_mode(), &[Step("Italy", "{}", None)]);
    assert_eq!(code(&unknown), "record/unknown-seat");
}

#[test]
fn beacon_rounds_must_be_future_near_and_present() {
    let published = build_with(beacon_mode(), &[Step("Russia", "{}", Some(0))]);
    assert_eq!(code(&published), "record/round-published");
    let next = build_with(beacon_mode(), &[Step("Russia", "{}", Some(1))]);
    assert_eq!(code(&next), "ok");
    let edge = build_with(beacon_mode(), &[Step("Russia", "{}", Some(MAX_ROUNDS_AHEAD))]);
    assert_eq!(code(&edge), "ok");
    let far = build_with(beacon_mode(), &[Step("Russia", "{}", Some(MAX_ROUNDS_AHEAD + 1))]);
    assert_eq!(code(&far), "record/round-too-far");

    let record = beacon_record();
    let mut missing = record.clone();
    missing.links[1].beacon = None;
    assert_eq!(code(&missing), "record/missing-beacon");
    let mut stray = record.clone();
    stray.links[0].beacon = stray.links[1].beacon.clone();
    assert_eq!(code(&stray), "record/bad-beacon");
    let mut other_round = record.clone();
    other_round.links[1].beacon = other_round.links[2].beacon.clone();
    assert_eq!(code(&other_round), "record/bad-beacon");

    // The server mode names no rounds.
    let in_server_mode = build_with(server_mode(), &[Step("Russia", "{}", Some(2))]);
    assert_eq!(code(&in_server_mode), "record/bad-beacon");
    let mut seed_in_beacon_mode = record.clone();
    seed_in_beacon_mode.seed = Some(seed().reveal());
    assert_eq!(code(&seed_in_beacon_mode), "record/bad-header");
}

#[test]
fn a_record_survives_json_and_reads_the_same() {
    for record in [beacon_record(), server_record()] {
        let text = serde_json::to_string_pretty(&record).unwrap();
        let back: Record = serde_json::from_str(&text).unwrap();
        assert_eq!(back, record);
        verify(&back).unwrap();
    }
}

/// The canonical bytes of docs/pbem.md's worked example, pinned (checked
/// against a separate Python implementation: hashlib and `cryptography`'s Ed25519).
#[test]
fn canonical_bytes_known_answers() {
    let header = Header {
        game_id: [0x01; 16],
        ruleset: "classic".into(),
        start_state_hash: [0x02; 32],
        seats: vec![
            SeatKey { seat: "Germany".into(), key: Some(SigningKey::from_bytes(&[1; 32]).verifying_key().to_bytes()) },
            SeatKey { seat: "computer".into(), key: None },
        ],
        server_key: SigningKey::from_bytes(&[0x5e; 32]).verifying_key().to_bytes(),
        dice: DiceMode::Server { commitment: ServerSeed::from_bytes([0x5d; 32]).commitment() },
    };
    let writer = ChainWriter::new(&header);
    let entry = writer.entry("Germany", r#"{"end_phase":null}"#, [0x03; 32], Some(1000));
    let receipt = Receipt::for_entry(&header.game_id, &entry, 1_700_000_000_000);
    let report = [
        ("header hash", to_hex(&header.hash())),
        ("entry bytes", to_hex(&entry.bytes(&header.game_id))),
        ("entry hash", to_hex(&entry.hash(&header.game_id))),
        ("receipt bytes", to_hex(&receipt.bytes(&header.game_id))),
        ("next prev", to_hex(&chain::link_hash(&header.game_id, &entry, &receipt))),
        ("entry signature", to_hex(&entry.clone().sign(&header.game_id, &SigningKey::from_bytes(&[1; 32])).signature.unwrap())),
    ];
    let pinned = [
        ("header hash", "bb4f3b2f60dca0ad3d724a9f6d1f2edb5eed6b2bdb53dfae5d8230dad2cce3d3"),
        ("entry bytes", concat!(
                "776172626f6172642f656e7472792f7631", // "warboard/entry/v1"
                "01010101010101010101010101010101",   // game_id
                "0000000000000000",                   // n = 0
                "bb4f3b2f60dca0ad3d724a9f6d1f2edb5eed6b2bdb53dfae5d8230dad2cce3d3", // prev = header hash
                "00000007", "4765726d616e79",         // seat "Germany"
                "00000012", "7b22656e645f7068617365223a6e756c6c7d", // action
                "0303030303030303030303030303030303030303030303030303030303030303", // state_hash_before
                "01", "00000000000003e8",             // beacon_round = Some(1000)
            )),
        ("entry hash", "18589ee428abb69f52c819567ce6fe7976bed673a54be3c4e8fab6845bad0359"),
        ("receipt bytes", concat!(
                "776172626f6172642f726563656970742f7631", // "warboard/receipt/v1"
                "01010101010101010101010101010101",       // game_id
                "0000000000000000",                       // n = 0
                "18589ee428abb69f52c819567ce6fe7976bed673a54be3c4e8fab6845bad0359", // entry hash
                "0000018bcfe56800",                       // server_time_ms = 1_700_000_000_000
            )),
        ("next prev", "92ca4700eae03356ba36dbe8e45088aa88fc2b6703526a1007e8cb13a20608ac"),
        ("entry signature", "ec36d717b04e167c335a91e1bd0162a71b5a9880b1f0cde2bde7529dd2c284c9732788c5808e26d67a3337b945e378a8ce01bb1c2f7019b9bc345916b1290307"),
    ];
    for ((what, got), (_, want)) in report.iter().zip(pinned) {
        assert_eq!(got, want, "{what}");
    }
}

/// Every byte of every field the proof rests on, as (field, offset).
#[derive(Clone, Copy, Debug)]
enum Field {
    EntryN(usize),
    Prev(usize),
    Seat(usize),
    Action(usize),
    StateHash(usize),
    Round(usize),
    EntrySignature(usize),
    ReceiptN(Which),
    ReceiptHash(Which),
    ReceiptTime(Which),
    ReceiptSignature(Which),
    BeaconRound(usize),
    BeaconSignature(usize),
    GameId,
    Ruleset,
    StartHash,
    SeatName(usize),
    SeatKeyBytes(usize),
    ServerKey,
    ChainHash,
    Scheme,
    BeaconKey,
    Period,
    Genesis,
    Commitment,
    Seed,
}

#[derive(Clone, Copy, Debug)]
enum Which {
    Chain(usize),
    Witnessed(usize),
}

fn receipt_mut(r: &mut Record, w: Which) -> &mut SignedReceipt {
    match w {
        Which::Chain(i) => &mut r.links[i].receipt,
        Which::Witnessed(i) => &mut r.witnessed[i],
    }
}

fn all_fields(r: &Record) -> Vec<Field> {
    use Field::*;
    let mut fields = vec![GameId, Ruleset, StartHash, ServerKey, Seed];
    fields.extend(match &r.header.dice {
        DiceMode::Server { .. } => vec![Commitment],
        DiceMode::Beacon { .. } => vec![ChainHash, Scheme, BeaconKey, Period, Genesis],
    });
    for i in 0..r.header.seats.len() {
        fields.extend([SeatName(i), SeatKeyBytes(i)]);
    }
    for i in 0..r.links.len() {
        fields.extend([
            EntryN(i),
            Prev(i),
            Seat(i),
            Action(i),
            StateHash(i),
            Round(i),
            EntrySignature(i),
            BeaconRound(i),
            BeaconSignature(i),
        ]);
        let w = Which::Chain(i);
        fields.extend([ReceiptN(w), ReceiptHash(w), ReceiptTime(w), ReceiptSignature(w)]);
    }
    for i in 0..r.witnessed.len() {
        let w = Which::Witnessed(i);
        fields.extend([ReceiptN(w), ReceiptHash(w), ReceiptTime(w), ReceiptSignature(w)]);
    }
    fields
}

/// The field's bytes (empty where the field is absent).
fn get(r: &Record, f: Field) -> Vec<u8> {
    use Field::*;
    let mut r = r.clone();
    let chain = |r: &Record| match &r.header.dice {
        DiceMode::Beacon { chain } => chain.clone(),
        DiceMode::Server { .. } => unreachable!(),
    };
    match f {
        EntryN(i) => r.links[i].entry.entry.n.to_be_bytes().to_vec(),
        Prev(i) => r.links[i].entry.entry.prev.to_vec(),
        Seat(i) => r.links[i].entry.entry.seat.as_bytes().to_vec(),
        Action(i) => r.links[i].entry.entry.action.as_bytes().to_vec(),
        StateHash(i) => r.links[i].entry.entry.state_hash_before.to_vec(),
        Round(i) => r.links[i].entry.entry.beacon_round.map(|x| x.to_be_bytes().to_vec()).unwrap_or_default(),
        EntrySignature(i) => r.links[i].entry.signature.map(|s| s.to_vec()).unwrap_or_default(),
        ReceiptN(w) => receipt_mut(&mut r, w).receipt.n.to_be_bytes().to_vec(),
        ReceiptHash(w) => receipt_mut(&mut r, w).receipt.entry_hash.to_vec(),
        ReceiptTime(w) => receipt_mut(&mut r, w).receipt.server_time_ms.to_be_bytes().to_vec(),
        ReceiptSignature(w) => receipt_mut(&mut r, w).signature.to_vec(),
        BeaconRound(i) => r.links[i].beacon.as_ref().map(|b| b.round.to_be_bytes().to_vec()).unwrap_or_default(),
        BeaconSignature(i) => r.links[i].beacon.as_ref().map(|b| b.signature.clone()).unwrap_or_default(),
        GameId => r.header.game_id.to_vec(),
        Ruleset => r.header.ruleset.as_bytes().to_vec(),
        StartHash => r.header.start_state_hash.to_vec(),
        SeatName(i) => r.header.seats[i].seat.as_bytes().to_vec(),
        SeatKeyBytes(i) => r.header.seats[i].key.map(|k| k.to_vec()).unwrap_or_default(),
        ServerKey => r.header.server_key.to_vec(),
        ChainHash => chain(&r).chain_hash.to_vec(),
        Scheme => chain(&r).scheme.into_bytes(),
        BeaconKey => chain(&r).public_key,
        Period => chain(&r).period.to_be_bytes().to_vec(),
        Genesis => chain(&r).genesis_time.to_be_bytes().to_vec(),
        Commitment => match &r.header.dice {
            DiceMode::Server { commitment } => commitment.to_vec(),
            DiceMode::Beacon { .. } => unreachable!(),
        },
        Seed => r.seed.map(|s| s.to_vec()).unwrap_or_default(),
    }
}

fn chain_mut(r: &mut Record) -> &mut ChainInfo {
    match &mut r.header.dice {
        DiceMode::Beacon { chain } => chain,
        DiceMode::Server { .. } => unreachable!(),
    }
}

fn set(r: &mut Record, f: Field, b: Vec<u8>) {
    use Field::*;
    let u64_of = |b: &[u8]| u64::from_be_bytes(b.try_into().unwrap());
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    match f {
        EntryN(i) => r.links[i].entry.entry.n = u64_of(&b),
        Prev(i) => r.links[i].entry.entry.prev = b.try_into().unwrap(),
        Seat(i) => r.links[i].entry.entry.seat = text(b),
        Action(i) => r.links[i].entry.entry.action = text(b),
        StateHash(i) => r.links[i].entry.entry.state_hash_before = b.try_into().unwrap(),
        Round(i) => r.links[i].entry.entry.beacon_round = Some(u64_of(&b)),
        EntrySignature(i) => r.links[i].entry.signature = Some(b.try_into().unwrap()),
        ReceiptN(w) => receipt_mut(r, w).receipt.n = u64_of(&b),
        ReceiptHash(w) => receipt_mut(r, w).receipt.entry_hash = b.try_into().unwrap(),
        ReceiptTime(w) => receipt_mut(r, w).receipt.server_time_ms = u64_of(&b),
        ReceiptSignature(w) => receipt_mut(r, w).signature = b.try_into().unwrap(),
        BeaconRound(i) => r.links[i].beacon.as_mut().unwrap().round = u64_of(&b),
        BeaconSignature(i) => r.links[i].beacon.as_mut().unwrap().signature = b,
        GameId => r.header.game_id = b.try_into().unwrap(),
        Ruleset => r.header.ruleset = text(b),
        StartHash => r.header.start_state_hash = b.try_into().unwrap(),
        SeatName(i) => r.header.seats[i].seat = text(b),
        SeatKeyBytes(i) => r.header.seats[i].key = Some(b.try_into().unwrap()),
        ServerKey => r.header.server_key = b.try_into().unwrap(),
        ChainHash => chain_mut(r).chain_hash = b.try_into().unwrap(),
        Scheme => chain_mut(r).scheme = text(b),
        BeaconKey => chain_mut(r).public_key = b,
        Period => chain_mut(r).period = u64_of(&b),
        Genesis => chain_mut(r).genesis_time = u64_of(&b),
        Commitment => r.header.dice = DiceMode::Server { commitment: b.try_into().unwrap() },
        Seed => r.seed = Some(b.try_into().unwrap()),
    }
}

/// Every (field, byte offset) of a record.
fn positions(r: &Record) -> Vec<(Field, usize)> {
    all_fields(r).into_iter().flat_map(|f| (0..get(r, f).len()).map(move |i| (f, i))).collect()
}

fn flipped(r: &Record, (field, at): (Field, usize), xor: u8) -> Record {
    let mut bytes = get(r, field);
    bytes[at] ^= xor;
    let mut out = r.clone();
    set(&mut out, field, bytes);
    out
}

fn assert_refused(record: &Record, pos: (Field, usize), xor: u8) {
    let tampered = flipped(record, pos, xor);
    match verify(&tampered) {
        Ok(_) => panic!("{pos:?} ^ {xor:#04x} was accepted"),
        Err(e) => {
            assert!(e.code().starts_with("record/") && CODES.contains(&e.code()), "{pos:?}: {e}");
            assert_ne!(e.code(), "record/malformed", "{pos:?}: {e}");
        }
    }
}

#[test]
fn every_byte_flipped_is_refused_with_a_record_code() {
    for record in [beacon_record(), server_record()] {
        let all = positions(&record);
        assert!(all.len() > 1000, "{}", all.len());
        let mut seen = std::collections::BTreeMap::<&str, usize>::new();
        for pos in all {
            for xor in [0x01, 0x80] {
                let tampered = flipped(&record, pos, xor);
                let e = verify(&tampered).err().unwrap_or_else(|| panic!("{pos:?} ^ {xor:#04x} was accepted"));
                assert!(e.code().starts_with("record/"), "{pos:?}: {e}");
                *seen.entry(e.code()).or_default() += 1;
            }
        }
        println!("{seen:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_flipped_byte_of_a_beacon_chain_is_refused(pick in any::<prop::sample::Index>(), xor in 1u8..=255) {
        let record = beacon_record();
        let all = positions(&record);
        assert_refused(&record, all[pick.index(all.len())], xor);
    }

    #[test]
    fn any_flipped_byte_of_a_server_seed_chain_is_refused(pick in any::<prop::sample::Index>(), xor in 1u8..=255) {
        let record = server_record();
        let all = positions(&record);
        assert_refused(&record, all[pick.index(all.len())], xor);
    }
}
