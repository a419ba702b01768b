//! Variant knowledge in the search: wins by a variant rule found at once, whatever the material says.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use mysl_core::{uci, Extinction, Position, Rules, ThreeCheck};
use mysl_engine::score::mate_in;
use mysl_engine::{Limits, Searcher, TranspositionTable};

fn search<R: Rules>(fen: &str, depth: i32) -> (String, i32) {
    let pos = Position::<R>::from_fen(fen).expect("valid FEN");
    let mut s = Searcher::<R>::new(Arc::new(TranspositionTable::new(16)), Arc::new(AtomicBool::new(false)));
    let r = s.search(&pos, &Limits { depth: Some(depth), multipv: 1, ..Limits::default() }, |_| {});
    (uci::move_to_uci(&pos, r.best.expect("a move")), r.score)
}

#[test]
fn extinction_takes_the_last_piece_of_a_type_even_when_it_loses_material() {
    // Black's only knight (c6) is defended by two pawns; the bishop takes it anyway: no black knight is left.
    let (mv, score) = search::<Extinction>("r1bqkb1r/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", 1);
    assert_eq!(mv, "b5c6");
    assert_eq!(mate_in(score), Some(1), "{score}");
}

#[test]
fn extinction_sees_the_threat_to_its_own_last_piece() {
    // White's only knight on d4 is attacked by the e5 pawn: with White to move it must be saved (or the
    // pawn taken); a shallow search must not leave it.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/3N4/8/PPPPPPPP/R1BQKB1R w KQkq - 0 2";
    let (mv, score) = search::<Extinction>(fen, 2);
    assert!(mv.starts_with("d4"), "the knight moves away: {mv}");
    assert!(mate_in(score).is_none(), "{score}");
    // Any other move loses the knight, and with it the game.
    let pos = Position::<Extinction>::from_fen(fen).expect("valid FEN");
    let a3 = uci::parse_uci_move(&pos, "a2a3").expect("legal");
    let mut s = Searcher::<Extinction>::new(Arc::new(TranspositionTable::new(16)), Arc::new(AtomicBool::new(false)));
    let r = s.search(&pos, &Limits { depth: Some(2), multipv: 1, searchmoves: vec![a3], ..Limits::default() }, |_| {});
    assert_eq!(mate_in(r.score), Some(-1), "{}", r.score);
}

#[test]
fn three_check_wins_with_quiet_checks_found_in_quiescence() {
    // White needs two more checks and has a queen and a rook against a bare king: check, then check
    // again, whatever Black does. A depth-1 search sees it through the quiescence's checks.
    let (_, score) = search::<ThreeCheck>("4k3/8/8/8/8/8/8/R3K2Q w - - 2+3 0 1", 1);
    assert_eq!(mate_in(score), Some(2), "{score}");
    // One check to go: any check wins at once.
    let (mv, score) = search::<ThreeCheck>("4k3/8/8/8/8/8/8/R3K2Q w - - 1+3 0 1", 1);
    assert_eq!(mate_in(score), Some(1), "{score} {mv}");
}
