//! Playing from the tables (issue 6, "In the engine"), without Stockfish: the engine with our tables
//! mates in exactly the DTM distance against itself with tables (longest resistance), never loses a drawn
//! position against a short search without tables, and the search's WDL probes score a capture into a
//! table win. `scripts/tb-play.sh` plays the same checks against Stockfish.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use mysl_core::{Chess, Color, Move, Role, Square};
use mysl_engine::score::TB_BOUND;
use mysl_engine::{Limits, Searcher, Tablebases, TranspositionTable};
use mysl_tb::write::write_table_resolved;
use mysl_tb::{Generator, Material, Silent};

/// Our tables for `endings` (and what they convert into) in a temporary directory, written as `mysl tb gen`
/// writes them (values decided by captures and zeroing moves left to the prober).
fn tables(endings: &[&str]) -> (tempfile::TempDir, Arc<Tablebases>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let targets: Vec<Material> = endings.iter().map(|e| Material::parse(e).expect("material")).collect();
    let mut g = Generator::new(2);
    for m in Generator::plan(&targets) {
        let t = g.generate(m, &Silent);
        write_table_resolved(dir.path(), &t, &g.tables).expect("write");
    }
    let mut tb = Tablebases::new();
    tb.set_ours(dir.path()).expect("ours");
    (dir, Arc::new(tb))
}

fn best_move(pos: &Chess, tb: Option<Arc<Tablebases>>, limits: &Limits) -> (Move, i32, u64) {
    let mut s =
        Searcher::<mysl_core::Orthodox>::new(Arc::new(TranspositionTable::new(4)), Arc::new(AtomicBool::new(false)));
    s.set_tablebases(tb, 7);
    let r = s.search(pos, limits, |_| {});
    (r.best.expect("a move"), r.score, s.tb_hits())
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Random legal positions of an ending (White has the first listed pieces after its king).
fn random_positions(
    tb: &Tablebases,
    pieces: &[(Color, Role)],
    rng: &mut Rng,
    want: impl Fn(&mysl_tb::TbValue) -> bool,
    n: usize,
) -> Vec<Chess> {
    let mut out = Vec::new();
    for _ in 0..100_000 {
        if out.len() == n {
            break;
        }
        let mut board = [None; 64];
        let mut ok = true;
        for &(c, r) in pieces {
            let sq = (rng.next() % 64) as usize;
            if board[sq].is_some() || (r == Role::Pawn && !(8..56).contains(&sq)) {
                ok = false;
                break;
            }
            board[sq] = Some((c, r));
        }
        if !ok {
            continue;
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    None => empty += 1,
                    Some((c, r)) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let ch = r.char();
                        fen.push(if c == Color::White { ch.to_ascii_uppercase() } else { ch });
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if rng.next().is_multiple_of(2) { " w - - 0 1" } else { " b - - 0 1" });
        let Ok(pos) = Chess::from_fen(&fen) else { continue };
        if pos.legal_moves().is_empty() {
            continue;
        }
        if let Some(v) = tb.probe(pos.board(), pos.turn(), None) {
            if want(&v) {
                out.push(pos);
            }
        }
    }
    out
}

#[test]
fn mates_in_exactly_dtm_against_best_defence() {
    let (_dir, tb) = tables(&["KQvK", "KRvK"]);
    let mut rng = Rng(7);
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let k = |c| (c, Role::King);
    let mut games = 0;
    for pieces in [
        [k(Color::White), k(Color::Black), (Color::White, Role::Queen)],
        [k(Color::White), k(Color::Black), (Color::White, Role::Rook)],
    ] {
        for start in random_positions(&tb, &pieces, &mut rng, |v| v.wdl == 2 && v.dtm.unwrap_or(0) >= 9, 3) {
            let dtm = tb.probe(start.board(), start.turn(), None).and_then(|v| v.dtm).expect("dtm");
            let mut pos = start.clone();
            let mut plies = 0;
            while pos.outcome().is_none() && plies < 200 {
                // both sides play from the tables: quickest mate against the longest resistance
                let (mv, _, hits) = best_move(&pos, Some(tb.clone()), &limits);
                assert!(hits > 0);
                pos.play_unchecked(mv);
                plies += 1;
            }
            let o = pos.outcome().expect("the game ended");
            assert_eq!(o.winner(), Some(start.turn()), "{}: not won", start.fen());
            assert_eq!(plies, dtm, "{}: mate in {plies} plies, DTM {dtm}", start.fen());
            games += 1;
        }
    }
    assert_eq!(games, 6);
}

#[test]
fn drawn_positions_are_never_lost_against_a_short_search() {
    let (_dir, tb) = tables(&["KRvKR"]);
    let mut rng = Rng(11);
    let k = |c| (c, Role::King);
    let pieces = [k(Color::White), k(Color::Black), (Color::White, Role::Rook), (Color::Black, Role::Rook)];
    // drawn positions where the side to move has a losing move (a blunder is possible)
    let starts = random_positions(&tb, &pieces, &mut rng, |v| v.wdl == 0, 40);
    let mut tested = 0;
    for start in starts {
        let root = tb.probe_root(&start).expect("covered");
        if !root.moves.iter().any(|m| m.wdl < 0) {
            continue;
        }
        let us = start.turn();
        let mut pos = start.clone();
        for _ in 0..40 {
            if pos.outcome_with_draw_rules().is_some() {
                break;
            }
            let (mv, _, _) = if pos.turn() == us {
                best_move(&pos, Some(tb.clone()), &Limits { depth: Some(3), ..Limits::default() })
            } else {
                best_move(&pos, None, &Limits { depth: Some(2), ..Limits::default() })
            };
            pos.play_unchecked(mv);
            if pos.turn() != us {
                // after our move the opponent (to move) must not be winning
                if pos.board().occupied().count() >= 3 && !pos.legal_moves().is_empty() {
                    let v = tb.probe(pos.board(), pos.turn(), pos.ep_square()).expect("covered");
                    assert!(v.wdl <= 0, "{} -> {}: our move gave the opponent a win", start.fen(), pos.fen());
                }
            }
        }
        let lost = pos.outcome().and_then(|o| o.winner()).is_some_and(|w| w != us);
        assert!(!lost, "{}: lost", start.fen());
        tested += 1;
        if tested == 4 {
            break;
        }
    }
    assert!(tested >= 2, "too few drawn positions with a losing move");
}

#[test]
fn search_scores_a_capture_into_a_table_win() {
    let (_dir, tb) = tables(&["KRvK"]);
    // four pieces: outside a probe limit of 3 at the root; Rxd8 leads into a won KRvK
    let pos = Chess::from_fen("3r4/7k/8/8/8/8/8/K2R4 w - - 0 1").expect("fen");
    let mut s =
        Searcher::<mysl_core::Orthodox>::new(Arc::new(TranspositionTable::new(4)), Arc::new(AtomicBool::new(false)));
    s.set_tablebases(Some(tb.clone()), 3);
    let r = s.search(&pos, &Limits { depth: Some(5), ..Limits::default() }, |_| {});
    assert_eq!(r.best, Some(Move::normal(Square::D1, Square::D8)));
    assert!(r.score >= TB_BOUND, "score {}", r.score);
    assert!(s.tb_hits() > 0);
    // without tables the same search scores it as an evaluation
    let (_, score, hits) = best_move(&pos, None, &Limits { depth: Some(5), ..Limits::default() });
    assert!(score < TB_BOUND && hits == 0);
}
