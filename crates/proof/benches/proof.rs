//! What proofs cost (BENCHMARKS.md, "Proven dice"): a link checked by the
//! verifier (signatures, hashes, the test beacon's round), a quicknet
//! round's BLS signature checked, one entry's dice derived, and a chain of
//! 1000 entries verified whole. `cargo bench -p warboard-proof`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use warboard_proof::bytes::from_hex;
use warboard_proof::*;

const GENESIS: u64 = 1_700_000_000;

struct Chain {
    record: Record,
}

/// A beacon-mode chain of `n` entries, every other one signed by its seat
/// and every third one naming a round.
fn chain(n: u64) -> Chain {
    let seat = SigningKey::from_bytes(&[1; 32]);
    let server = SigningKey::from_bytes(&[2; 32]);
    let beacon = TestBeacon::new([3; 32], GENESIS, 3);
    let header = Header {
        game_id: [9; 16],
        ruleset: "classic".into(),
        start_state_hash: [4; 32],
        seats: vec![SeatKey { seat: "germany".into(), key: Some(seat.verifying_key().to_bytes()) }, SeatKey { seat: "computer".into(), key: None }],
        server_key: server.verifying_key().to_bytes(),
        dice: DiceMode::Beacon { chain: beacon.info().clone() },
    };
    let mut writer = ChainWriter::new(&header);
    let mut links = Vec::new();
    for i in 0..n {
        let now_ms = (GENESIS + 10 + i * 2) * 1000;
        let round = (i % 3 == 0).then(|| beacon.info().round_at(now_ms / 1000) + 1);
        let signs = i % 2 == 0;
        let entry = writer.entry(if signs { "germany" } else { "computer" }, r#"{"type":"end_phase"}"#, [i as u8; 32], round);
        let receipt = Receipt::for_entry(&header.game_id, &entry, now_ms);
        writer.append(&entry, &receipt).unwrap();
        let signed = if signs { entry.sign(&header.game_id, &seat) } else { entry.unsigned() };
        let beacon = round.map(|r| BeaconProof { round: r, signature: beacon.sign(r).unwrap() });
        links.push(Link { entry: signed, receipt: receipt.sign(&header.game_id, &server), beacon });
    }
    Chain { record: Record { header, links, witnessed: Vec::new(), seed: None } }
}

fn benches(c: &mut Criterion) {
    let long = chain(1000);
    c.bench_function("verify a chain of 1000 entries", |b| b.iter(|| verify(&long.record).unwrap()));
    let one = chain(1);
    c.bench_function("verify one link (seat and server signatures, test beacon round)", |b| {
        b.iter_batched(
            || Verifier::new(&one.record.header, &[], None).unwrap(),
            |mut v| v.push(&one.record.links[0]).unwrap(),
            BatchSize::SmallInput,
        )
    });
    let quicknet = Drand::quicknet();
    let sig = from_hex("b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92").unwrap();
    c.bench_function("check a quicknet round (BLS)", |b| b.iter(|| quicknet.verify(123, &sig).unwrap()));
    c.bench_function("derive one entry's dice and roll 30", |b| {
        b.iter(|| {
            let mut d = ProofDice::for_entry(&[7; 32], &[9; 16], 42, &[5; 32]);
            d.take(30)
        })
    });
}

criterion_group! {
    name = proof;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(proof);
