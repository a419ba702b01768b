//! Differential test against shakmaty 0.30.1 on positions reached by seeded random playouts from the
//! standard start and from random Chess960 starts: legal moves (UCI text), SAN of every move, FEN round
//! trip, Zobrist (Polyglot) keys, and outcome must all be identical.

mod common;

use std::collections::BTreeSet;

use common::Rng;
use mysl_core::{san, uci, CastlingMode, Chess, EndReason, Outcome};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, FromSetup, KnownOutcome, Position as _};

const TARGET_POSITIONS: usize = 10_000;

fn shak_mode(mode: CastlingMode) -> shakmaty::CastlingMode {
    match mode {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    }
}

fn compare(ours: &Chess, theirs: &shakmaty::Chess, context: &str) {
    let mode = shak_mode(ours.castling_mode());
    // Legal moves as UCI text.
    let our_moves = ours.legal_moves();
    let our_set: BTreeSet<String> = our_moves.iter().map(|m| uci::move_to_uci(ours, m)).collect();
    let their_set: BTreeSet<String> = theirs.legal_moves().iter().map(|m| m.to_uci(mode).to_string()).collect();
    assert_eq!(our_set, their_set, "legal moves differ at {context}");
    assert_eq!(our_moves.len(), our_set.len(), "duplicate moves at {context}");

    // SAN of every move, and SAN parsing back to the same move.
    for mv in our_moves.iter() {
        let text = uci::move_to_uci(ours, mv);
        let their_move = UciMove::from_ascii(text.as_bytes()).expect("uci").to_move(theirs).expect("legal in shakmaty");
        let ours_san = san::move_to_san_with(ours, mv, &our_moves);
        let their_san = SanPlus::from_move(theirs.clone(), their_move).to_string();
        assert_eq!(ours_san, their_san, "SAN of {text} at {context}");
        assert_eq!(san::parse_san(ours, &ours_san), Ok(mv), "parse SAN {ours_san} at {context}");
        assert_eq!(uci::parse_uci_move(ours, &text), Ok(mv), "parse UCI {text} at {context}");
    }

    // FEN written the same, and read back to the same position.
    let their_fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
    let our_fen = ours.fen();
    assert_eq!(our_fen, their_fen, "FEN at {context}");
    let reread = Chess::from_fen(&our_fen).unwrap_or_else(|e| panic!("re-reading {our_fen}: {e}"));
    assert_eq!(reread.fen(), our_fen, "FEN round trip at {context}");
    // A FEN carries the e.p. square only when the capture is legal, the Polyglot key already when a
    // pawn stands ready: the keys then differ by exactly that term.
    if ours.ep_square() == ours.legal_ep_square() {
        assert_eq!(reread.key(), ours.key(), "key after FEN round trip at {context}");
    }

    // Zobrist = Polyglot key (e.p. hashed when a pawn of the side to move is adjacent).
    let their_key = theirs.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0;
    assert_eq!(ours.key(), their_key, "Zobrist key at {context}");
    assert!(ours.is_consistent(), "incremental state differs from recomputation at {context}");

    // Outcome (mate, stalemate, insufficient material).
    let our_outcome = ours.outcome().map(|o| match o {
        Outcome::Decisive { winner, .. } => KnownOutcome::Decisive {
            winner: if winner.is_white() { shakmaty::Color::White } else { shakmaty::Color::Black },
        },
        Outcome::Draw { .. } => KnownOutcome::Draw,
    });
    let their_outcome = match theirs.outcome() {
        shakmaty::Outcome::Known(k) => Some(k),
        shakmaty::Outcome::Unknown => None,
    };
    assert_eq!(our_outcome, their_outcome, "outcome at {context}");
    if let Some(Outcome::Decisive { reason, .. }) = ours.outcome() {
        assert_eq!(reason, EndReason::Checkmate);
    }
}

#[test]
fn random_playouts_agree_with_shakmaty() {
    let mut rng = Rng(0x5eed_0000_0000_2026);
    let mut positions = 0;
    let mut games = 0;
    let mut chess960_positions = 0;
    while positions < TARGET_POSITIONS {
        let fen = if games % 2 == 0 { mysl_core::STARTING_FEN.to_string() } else { common::chess960_fen(&mut rng) };
        let mut ours = Chess::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mode = ours.castling_mode();
        let setup = Fen::from_ascii(fen.as_bytes()).expect("shakmaty reads the FEN").into_setup();
        let mut theirs: shakmaty::Chess =
            shakmaty::Chess::from_setup(setup, shak_mode(mode)).expect("shakmaty accepts");
        let mut history = Vec::new();
        for ply in 0..300 {
            let context = format!("game {games} ({fen}) ply {ply} {history:?}");
            compare(&ours, &theirs, &context);
            positions += 1;
            if mode == CastlingMode::Chess960 {
                chess960_positions += 1;
            }
            let moves = ours.legal_moves();
            if moves.is_empty() || ours.is_insufficient_material() {
                break;
            }
            // Prefer captures and promotions a little so games reach endgames and promotions.
            let mut mv = moves.get(rng.below(moves.len())).expect("non-empty");
            if rng.below(3) == 0 {
                if let Some(c) =
                    moves.iter().find(|m| ours.board().occupied().contains(m.to()) || m.promotion().is_some())
                {
                    mv = c;
                }
            }
            let text = uci::move_to_uci(&ours, mv);
            let before_key = ours.key();
            let before_fen = ours.fen();
            // make/unmake restores everything.
            ours.play_unchecked(mv);
            ours.unplay(mv);
            assert_eq!(ours.fen(), before_fen, "unplay {text}");
            assert_eq!(ours.key(), before_key, "unplay key {text}");
            ours.play_unchecked(mv);
            let their_move = UciMove::from_ascii(text.as_bytes()).expect("uci").to_move(&theirs).expect("legal");
            theirs.play_unchecked(their_move);
            history.push(text);
        }
        games += 1;
    }
    assert!(chess960_positions > TARGET_POSITIONS / 4, "Chess960 starts were covered");
    eprintln!("{positions} positions in {games} games compared ({chess960_positions} from Chess960 starts)");
}
