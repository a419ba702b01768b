//! `bench`: a fixed list of positions searched to a fixed depth with one thread. The total node count
//! signs the search: a commit that changes it says `Bench: N`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mysl_core::{dispatch_variant, Position, Variant};
use mysl_nnue::Network;

use crate::search::{Limits, Searcher};
use crate::tt::TranspositionTable;

/// (variant, FEN) pairs: orthodox middlegames and endgames, then one start position per variant.
pub const BENCH_POSITIONS: &[(Variant, &str)] = &[
    (Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    (Variant::Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"),
    (Variant::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11"),
    (Variant::Chess, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    (Variant::Chess, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    (Variant::Chess, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
    (Variant::Chess, "r1bq1rk1/pp2bppp/2n2n2/3p4/3P4/2NB1N2/PP3PPP/R1BQ1RK1 w - - 4 10"),
    (Variant::Chess, "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 w - - 0 25"),
    (Variant::Chess, "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 50"),
    (Variant::Chess, "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 40"),
    (Variant::Chess, "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1"),
    (Variant::Chess, "3r1rk1/p4ppp/1q2p3/2p1P3/2P2Q2/1P4P1/P4P1P/3RR1K1 w - - 0 22"),
    (Variant::Antichess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
    (Variant::ThreeCheck, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"),
    (Variant::Extinction, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    (Variant::Berolina, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    (Variant::Cylinder, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    (Variant::Dice, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 roll=2"),
    (Variant::KnightRelay, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    (Variant::Recycle, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
];

pub const DEFAULT_DEPTH: i32 = 9;

/// Result of a bench run.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    /// The summary lines (`mysl bench` and the UCI `bench` command print these).
    pub fn summary(&self) -> [String; 3] {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        [
            format!("Total time (ms): {}", self.elapsed.as_millis()),
            format!("Nodes searched: {}", self.nodes),
            format!("Nodes/second: {:.0}", self.nodes as f64 / secs),
        ]
    }
}

/// Searches every bench position to `depth` (variants 3 plies less), with a fresh 16 MB table each, and
/// the default evaluation (`crate::nnue::default_network`).
pub fn run_bench(depth: i32, progress: impl FnMut(usize, Variant, &str, u64)) -> BenchResult {
    run_bench_with(depth, crate::nnue::default_network(), progress)
}

/// The bench with `network` for the orthodox positions (`None`: the hand-crafted evaluation).
pub fn run_bench_with(
    depth: i32,
    network: Option<Arc<Network>>,
    mut progress: impl FnMut(usize, Variant, &str, u64),
) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    for (i, &(variant, fen)) in BENCH_POSITIONS.iter().enumerate() {
        let tt = Arc::new(TranspositionTable::new(16));
        let stop = Arc::new(AtomicBool::new(false));
        let d = if variant == Variant::Chess { depth } else { (depth - 3).max(1) };
        let n = dispatch_variant!(variant, R => {
            let pos = Position::<R>::from_fen(fen).expect("bench FEN is valid");
            let mut searcher = Searcher::<R>::new(tt, stop);
            searcher.set_network(network.clone());
            let limits = Limits { depth: Some(d), multipv: 1, ..Limits::default() };
            searcher.search(&pos, &limits, |_| {}).nodes
        });
        progress(i, variant, fen, n);
        nodes += n;
    }
    BenchResult { nodes, elapsed: start.elapsed() }
}
