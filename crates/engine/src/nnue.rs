//! The learned evaluation in the search (orthodox chess and Chess960 only).
//!
//! The searcher keeps one accumulator per ply, updated lazily: making a move only records the child's
//! piece placement (64 bytes) and marks its accumulator stale; an evaluation at ply `p` walks back to
//! the nearest valid accumulator and applies the placement differences forward (a few changed features
//! per ply, found by comparing piece bitboards). Nodes that are never evaluated (cut by the hash table,
//! pruned) cost no accumulator work; nothing allocates per node.
//!
//! On top of the network: the hand-crafted endgame knowledge's exact verdicts replace it, its scale
//! factors scale it, and the score shrinks as the 50-move counter rises.

use std::sync::{Arc, OnceLock};

use mysl_core::{Board, Color, Position, Rules};
use mysl_nnue::{Accumulator, Delta, Network, Placement};

use crate::endgame::{self, Verdict};
use crate::score::TB_BOUND;

/// The network mysl uses unless told otherwise (`EvalFile <internal>`): the one built into the binary,
/// if any. Parsed once.
pub fn default_network() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| {
        // The embedded network: docs/nnue.md#nets-and-lineage gives the commands that rebuild it bit for bit
        // (`scripts/nnue-net.sh`). A new network replaces this file name, after an SPRT against this one.
        const BYTES: &[u8] = include_bytes!("../nets/mysl-h256-b8b5a63d.nnue");
        Some(Arc::new(Network::from_bytes(BYTES).expect("the embedded network is valid")))
    })
    .clone()
}

/// The per-ply accumulator stack of one searcher.
pub(crate) struct NnueStack {
    net: Arc<Network>,
    accumulators: Vec<Accumulator>,
    /// The piece placement at each ply of the current line.
    placements: Vec<Placement>,
    /// `accumulators[p]` matches `placements[p]`. Ply 0 (the root) always does.
    valid: Vec<bool>,
    /// Test aid: refresh from scratch at every evaluation (the lazy stack must give the same numbers).
    refresh_always: bool,
}

impl NnueStack {
    pub(crate) fn new(net: Arc<Network>, plies: usize) -> NnueStack {
        let acc = Accumulator::new(&net);
        NnueStack {
            accumulators: vec![acc; plies],
            placements: vec![Placement::default(); plies],
            valid: vec![false; plies],
            net,
            refresh_always: false,
        }
    }

    pub(crate) fn network(&self) -> &Arc<Network> {
        &self.net
    }

    #[cfg(test)]
    pub(crate) fn set_refresh_always(&mut self, on: bool) {
        self.refresh_always = on;
    }

    /// A new search from `board`.
    pub(crate) fn root(&mut self, board: &Board) {
        self.placements[0] = Placement::of(board);
        self.accumulators[0].refresh(&self.net, board);
        self.valid[0] = true;
    }

    /// A move (or a null move) led to `board` at `ply` (≥ 1).
    #[inline(always)]
    pub(crate) fn push(&mut self, ply: usize, board: &Board) {
        self.placements[ply] = Placement::of(board);
        self.valid[ply] = false;
    }

    /// The network's score of `board` at `ply` for `stm`.
    fn net_score(&mut self, ply: usize, board: &Board, stm: Color) -> i32 {
        debug_assert_eq!(self.placements[ply], Placement::of(board), "the stack is out of step at ply {ply}");
        if self.refresh_always {
            let acc = &mut self.accumulators[ply];
            acc.refresh(&self.net, board);
            self.valid[ply] = false;
            return self.net.evaluate(acc, stm);
        }
        let mut q = ply;
        while !self.valid[q] {
            q -= 1;
        }
        for p in q + 1..=ply {
            let (done, rest) = self.accumulators.split_at_mut(p);
            let acc = &mut rest[0];
            match Delta::between(&self.placements[p - 1], &self.placements[p]) {
                Some(d) => acc.update(&self.net, &done[p - 1], d.added(), d.removed()),
                None => acc.refresh_pieces(&self.net, self.placements[p].pieces()),
            }
            self.valid[p] = true;
        }
        self.net.evaluate(&self.accumulators[ply], stm)
    }

    /// The evaluation of `pos` at `ply` for the side to move: the network with the endgame knowledge
    /// (`tempo` is the hand-crafted evaluation's, added to exact verdicts as it does) and the 50-move
    /// damping `v · (200 − halfmoves) / 200`; kept below the tablebase scores.
    #[inline]
    pub(crate) fn evaluate<R: Rules>(&mut self, pos: &Position<R>, ply: usize, tempo: i32) -> i32 {
        let board = pos.board();
        let stm = pos.turn();
        let verdict = endgame::probe(board, stm);
        if let Some(Verdict::Exact(x)) = verdict {
            return (if stm == Color::White { x } else { -x }) + tempo;
        }
        let mut v = self.net_score(ply, board, stm);
        if let Some(Verdict::Scale(s)) = verdict {
            v = v * s / 64;
        }
        let halfmoves = pos.halfmoves().min(200) as i32;
        v = v * (200 - halfmoves) / 200;
        v.clamp(-TB_BOUND + 1, TB_BOUND - 1)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use mysl_core::Chess;
    use mysl_nnue::testing::random_network;

    use super::*;
    use crate::bench::BENCH_POSITIONS;
    use crate::eval::Evaluator;
    use crate::search::{Limits, Searcher};
    use crate::tt::TranspositionTable;

    fn net(hidden: usize, seed: u64) -> Arc<Network> {
        Arc::new(Network::from_bytes(&random_network(hidden, seed)).expect("valid"))
    }

    fn searcher(net: Option<Arc<Network>>) -> Searcher<mysl_core::Orthodox> {
        let mut s = Searcher::new(Arc::new(TranspositionTable::new(4)), Arc::new(AtomicBool::new(false)));
        s.set_network(net);
        s
    }

    #[test]
    fn a_new_searcher_gets_the_default_network() {
        // The embedded network parses and every new orthodox searcher uses it.
        let s = Searcher::<mysl_core::Orthodox>::new(
            Arc::new(TranspositionTable::new(1)),
            Arc::new(AtomicBool::new(false)),
        );
        assert!(default_network().is_some());
        assert_eq!(s.network().map(|n| n.hidden()), default_network().map(|n| n.hidden()));
        // Variants never take one.
        let mut v = Searcher::<mysl_core::Antichess>::new(
            Arc::new(TranspositionTable::new(1)),
            Arc::new(AtomicBool::new(false)),
        );
        v.set_network(Some(net(32, 1)));
        assert!(v.network().is_none());
    }

    /// A Chess960 position where both sides can castle.
    const CHESS960: &str = "1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 w EBeb - 0 1";

    /// A search with the lazy stack and one refreshing at every evaluation: same tree, same result.
    #[test]
    fn the_lazy_stack_searches_exactly_like_refreshing_every_evaluation() {
        let mut total = 0;
        for (hidden, seed, depth) in [(32, 3, 10), (256, 4, 9)] {
            let net = net(hidden, seed);
            let orthodox = BENCH_POSITIONS.iter().filter(|(v, _)| *v == mysl_core::Variant::Chess).map(|p| p.1);
            for fen in orthodox.chain([CHESS960]) {
                let mut pos = Chess::from_fen(fen).expect("fen");
                if fen == CHESS960 {
                    pos.set_castling_mode(mysl_core::CastlingMode::Chess960);
                }
                let limits = Limits { depth: Some(depth), multipv: 1, ..Limits::default() };
                let run = |refresh: bool| {
                    let mut s = searcher(Some(net.clone()));
                    s.set_nnue_refresh_always(refresh);
                    // Fail-high/low reports depend on the clock (the refreshing run is slower): none.
                    s.set_bound_report_after(std::time::Duration::from_secs(1 << 20));
                    let mut lines = Vec::new();
                    let r = s.search(&pos, &limits, |i| lines.push((i.depth, i.score, i.nodes, i.pv.clone())));
                    (r.best, r.score, r.nodes, lines)
                };
                let lazy = run(false);
                let fresh = run(true);
                assert_eq!(lazy, fresh, "{fen} N={hidden}");
                eprintln!("N={hidden} depth {depth}: {} nodes, score {}: {fen}", lazy.2, lazy.1);
                total += lazy.2;
            }
        }
        assert!(total > 100_000, "real searches: {total} nodes");
    }

    /// A position and its colour-flipped mirror: the same score for the side to move.
    #[test]
    fn the_evaluation_is_colour_symmetric() {
        let net = net(256, 9);
        let mut s = searcher(Some(net));
        for &(_, fen) in BENCH_POSITIONS.iter().filter(|(v, _)| *v == mysl_core::Variant::Chess) {
            let pos = Chess::from_fen(fen).expect("fen");
            let mirror = Chess::from_fen(&mirror_fen(fen)).expect("mirrored fen");
            assert_eq!(s.static_eval(&pos), s.static_eval(&mirror), "{fen}");
        }
    }

    /// The FEN with colours swapped and the board flipped vertically.
    fn mirror_fen(fen: &str) -> String {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let board: Vec<String> = f[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
        let turn = if f[1] == "w" { "b" } else { "w" };
        let mut castling: Vec<char> = f[2].chars().map(swap).collect();
        castling.sort_by_key(|c| (c.is_ascii_lowercase(), "KQkq".find(c.to_ascii_uppercase()).unwrap_or(9)));
        let castling: String = if f[2] == "-" { "-".into() } else { castling.into_iter().collect() };
        let ep = if f[3] == "-" {
            "-".to_string()
        } else {
            let b = f[3].as_bytes();
            format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
        };
        format!("{} {turn} {castling} {ep} {} {}", board.join("/"), f[4], f[5])
    }

    #[test]
    fn endgame_verdicts_stay_and_the_fifty_move_counter_damps() {
        let net = net(32, 5);
        let mut s = searcher(Some(net.clone()));
        let mut hce = Evaluator::default();
        // K+P vs K is exact: the same number as the hand-crafted evaluation gives.
        for fen in
            ["8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", "8/8/4k3/8/8/4K3/4P3/8 b - - 0 1", "8/4k3/8/8/8/8/4P3/4K3 b - - 0 1"]
        {
            let pos = Chess::from_fen(fen).expect("fen");
            assert_eq!(s.static_eval(&pos), hce.evaluate(&pos), "{fen}");
        }
        // The counter: at 100 half-moves the score is half of what it is at 0.
        let fen = |hm: u32| format!("r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - {hm} 30");
        let at = |s: &mut Searcher<_>, hm| s.static_eval(&Chess::from_fen(&fen(hm)).expect("fen"));
        let (v0, v100) = (at(&mut s, 0), at(&mut s, 100));
        assert_ne!(v0, 0);
        assert_eq!(v100, v0 / 2);
        // Without a network: the hand-crafted evaluation.
        let mut plain = searcher(None);
        let pos = Chess::from_fen(&fen(0)).expect("fen");
        assert_eq!(plain.static_eval(&pos), hce.evaluate(&pos));
    }
}
