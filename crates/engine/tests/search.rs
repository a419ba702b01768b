//! Search behaviour on known positions: mates found with the right score, obvious tactics, limits.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use mysl_core::{uci, Position, Rules};
use mysl_engine::score::mate_in;
use mysl_engine::{Limits, Searcher, TranspositionTable};

fn search<R: Rules>(fen: &str, depth: i32) -> (String, i32) {
    let pos = Position::<R>::from_fen(fen).expect("valid FEN");
    let mut s = Searcher::<R>::new(Arc::new(TranspositionTable::new(16)), Arc::new(AtomicBool::new(false)));
    let r = s.search(&pos, &Limits { depth: Some(depth), multipv: 1, ..Limits::default() }, |_| {});
    (uci::move_to_uci(&pos, r.best.expect("a move")), r.score)
}

#[test]
fn finds_mates_with_the_right_distance() {
    use mysl_core::Orthodox;
    let cases = [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "a1a8"),
        ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, "h5f7"),
        ("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3, "b1g6"),
        ("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", 1, "b1b7"),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, "f6a6"),
    ];
    // Distances checked with Stockfish 15.1.
    for (fen, n, expected) in cases {
        let (mv, score) = search::<Orthodox>(fen, 2 * n + 2);
        assert_eq!(mate_in(score), Some(n), "{fen}: score {score}, move {mv}");
        if !expected.is_empty() {
            assert_eq!(mv, expected, "{fen}");
        }
    }
}

#[test]
fn takes_a_hanging_queen_and_avoids_losing_one() {
    use mysl_core::Orthodox;
    let (mv, score) = search::<Orthodox>("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 6);
    assert_eq!(mv, "d2d5");
    assert!(score > 300);
}

#[test]
fn variants_search_and_return_legal_moves() {
    use mysl_core::{Antichess, ThreeCheck};
    // Antichess: the capture is forced.
    let (mv, _) = search::<Antichess>("rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 2", 4);
    assert_eq!(mv, "d4e5");
    // Three-check: white has given two checks; a third check wins at once.
    let (mv, score) = search::<ThreeCheck>("rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 3", 3);
    assert_eq!(mv, "f1b5");
    assert!(mate_in(score).is_some(), "a variant win is scored as a win: {score}");
}

#[test]
fn node_limit_and_determinism() {
    use mysl_core::Orthodox;
    let run = || {
        let pos = Position::<Orthodox>::startpos();
        let mut s = Searcher::<Orthodox>::new(Arc::new(TranspositionTable::new(8)), Arc::new(AtomicBool::new(false)));
        s.search(&pos, &Limits { depth: Some(8), multipv: 1, ..Limits::default() }, |_| {})
    };
    let (a, b) = (run(), run());
    assert_eq!(a.nodes, b.nodes, "one thread is deterministic");
    assert_eq!(a.best, b.best);
    let pos = Position::<Orthodox>::startpos();
    let mut s = Searcher::<Orthodox>::new(Arc::new(TranspositionTable::new(8)), Arc::new(AtomicBool::new(false)));
    let r = s.search(&pos, &Limits { nodes: Some(5000), multipv: 1, ..Limits::default() }, |_| {});
    assert!(r.best.is_some());
    assert!(r.nodes < 5000 + 2000, "stops near the node limit: {}", r.nodes);
}

#[test]
fn multipv_gives_distinct_lines() {
    use mysl_core::Orthodox;
    let pos = Position::<Orthodox>::startpos();
    let mut s = Searcher::<Orthodox>::new(Arc::new(TranspositionTable::new(8)), Arc::new(AtomicBool::new(false)));
    let mut firsts = std::collections::HashMap::new();
    s.search(&pos, &Limits { depth: Some(5), multipv: 3, ..Limits::default() }, |info| {
        if info.depth == 5 {
            firsts.insert(info.multipv, info.pv[0]);
        }
    });
    assert_eq!(firsts.len(), 3);
    let distinct: std::collections::HashSet<_> = firsts.values().collect();
    assert_eq!(distinct.len(), 3);
}

#[test]
fn dice_searches_chance_nodes_and_respects_the_roll() {
    use mysl_core::Dice;
    // On a 5 only the queen may move; capturing the king wins at once.
    let (mv, score) = search::<Dice>("4k3/8/8/8/8/8/8/3QK2R w K - 0 1 roll=5", 3);
    assert!(mv.starts_with("d1"), "only the queen moves on a 5: {mv}");
    assert!(score.abs() < 30000, "{score}");
    let (mv, score) = search::<Dice>("4k3/8/8/8/8/8/8/4Q1K1 w - - 0 1 roll=5", 3);
    assert_eq!(mv, "e1e8", "the queen takes the king");
    assert!(mate_in(score).is_some());
}
