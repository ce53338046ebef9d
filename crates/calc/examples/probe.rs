use warboard_calc::{Battle, CalcOptions, Calculator};
fn main() {
    let mut calc = Calculator::new(warboard_rules::ruleset("classic").unwrap());
    for text in std::env::args().skip(1) {
        let b = Battle::parse(&text).unwrap();
        let opts = CalcOptions::default();
        let o = calc.exact_uncached(&b, &opts).unwrap();
        let t0 = std::time::Instant::now();
        let mut n = 0;
        while t0.elapsed().as_secs_f64() < 1.0 { std::hint::black_box(calc.exact_uncached(&b, &opts).unwrap()); n += 1; }
        let mut best = std::time::Duration::MAX;
        for _ in 0..5 { let t = std::time::Instant::now(); for _ in 0..n/10+1 { std::hint::black_box(calc.exact_uncached(&b, &opts).unwrap()); } best = best.min(t.elapsed() / (n/10+1)); }
        let t = best;
        println!("{text}: {:?}  A {:.9} pruned {:.2e} rounds {:.6}", t, o.attacker_wins, o.pruned, o.expected_rounds);
    }
}
