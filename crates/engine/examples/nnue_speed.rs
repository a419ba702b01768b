//! Speed of the network against the hand-crafted evaluation: fixed-node searches of the orthodox bench
//! positions, alternating the two, several rounds (the median round is reported).
//! `cargo run --release -p mysl-engine --example nnue_speed -- NET.nnue [NODES] [ROUNDS]`

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use mysl_core::{Chess, Orthodox, Variant};
use mysl_engine::bench::BENCH_POSITIONS;
use mysl_engine::{Limits, Network, Searcher, TranspositionTable};

fn run(net: Option<Arc<Network>>, nodes: u64) -> (u64, f64) {
    let start = Instant::now();
    let mut total = 0;
    for &(_, fen) in BENCH_POSITIONS.iter().filter(|(v, _)| *v == Variant::Chess) {
        let pos = Chess::from_fen(fen).expect("bench FEN");
        let mut s = Searcher::<Orthodox>::new(Arc::new(TranspositionTable::new(16)), Arc::new(AtomicBool::new(false)));
        s.set_network(net.clone());
        total += s.search(&pos, &Limits { nodes: Some(nodes), multipv: 1, ..Limits::default() }, |_| {}).nodes;
    }
    (total, start.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: nnue_speed NET.nnue [NODES] [ROUNDS]");
        std::process::exit(2);
    };
    let net = match Network::load(path) {
        Ok(n) => Arc::new(n),
        Err(e) => {
            eprintln!("nnue_speed: {e}");
            std::process::exit(2);
        }
    };
    let nodes = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let rounds = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    println!("network: hidden size {}, SIMD {}", net.hidden(), net.uses_simd());
    let (mut hce, mut nnue) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        let (n1, t1) = run(None, nodes);
        let (n2, t2) = run(Some(net.clone()), nodes);
        println!(
            "round {round}: hand-crafted {n1} nodes {:.0} nps; NNUE {n2} nodes {:.0} nps",
            n1 as f64 / t1,
            n2 as f64 / t2
        );
        hce.push(n1 as f64 / t1);
        nnue.push(n2 as f64 / t2);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (h, n) = (median(&mut hce), median(&mut nnue));
    println!("median: hand-crafted {h:.0} nps, NNUE {n:.0} nps, ratio NNUE/hand-crafted {:.2}", n / h);
}
