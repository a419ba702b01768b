//! Antichess and three-check against shakmaty's variants on 10,000 seeded random-playout positions each:
//! legal moves (UCI), SAN of every move, FEN, and the outcome (variant ends, mate, stalemate).
//! Insufficient-material draws are not compared: shakmaty declares some variant-specific dead positions
//! (e.g. antichess bishops on opposite colors) that mysl leaves to the game's other rules.

mod common;

use std::collections::BTreeSet;

use common::Rng;
use mysl_core::{san, uci, Antichess, Outcome, Position, Rules, ThreeCheck};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, EnPassantMode, FromSetup, KnownOutcome};

const TARGET_POSITIONS: usize = 10_000;

fn compare<R: Rules, P: shakmaty::Position + Clone>(ours: &Position<R>, theirs: &P, context: &str) {
    let our_moves = ours.legal_moves();
    let our_set: BTreeSet<String> = our_moves.iter().map(|m| uci::move_to_uci(ours, m)).collect();
    let their_set: BTreeSet<String> =
        theirs.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
    assert_eq!(our_set, their_set, "legal moves differ at {context}");
    for mv in our_moves.iter() {
        let text = uci::move_to_uci(ours, mv);
        let their_move = UciMove::from_ascii(text.as_bytes()).expect("uci").to_move(theirs).expect("legal in shakmaty");
        let ours_san = san::move_to_san_with(ours, mv, &our_moves);
        let their_san = SanPlus::from_move(theirs.clone(), their_move).to_string();
        assert_eq!(ours_san, their_san, "SAN of {text} at {context}");
        assert_eq!(san::parse_san(ours, &ours_san), Ok(mv), "parse SAN {ours_san} at {context}");
    }
    let their_fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
    assert_eq!(ours.fen(), their_fen, "FEN at {context}");
    let reread = Position::<R>::from_fen(&ours.fen()).unwrap_or_else(|e| panic!("re-reading {}: {e}", ours.fen()));
    assert_eq!(reread.fen(), ours.fen(), "FEN round trip at {context}");
    // A FEN carries the e.p. square only when the capture is legal, the Polyglot key already when a
    // pawn stands ready: the keys then differ by exactly that term.
    if ours.ep_square() == ours.legal_ep_square() {
        assert_eq!(reread.key(), ours.key(), "key after FEN round trip at {context}");
    }
    assert!(ours.is_consistent(), "incremental state differs from recomputation at {context}");

    if !theirs.is_insufficient_material() {
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
    }
}

fn playouts<R: Rules, P: shakmaty::Position + FromSetup + Clone>(seed: u64, start_fen: &str) {
    let mut rng = Rng(seed);
    let (mut positions, mut games, mut ended) = (0, 0, 0);
    while positions < TARGET_POSITIONS {
        let mut ours = Position::<R>::from_fen(start_fen).expect("start");
        let setup = Fen::from_ascii(start_fen.as_bytes()).expect("fen").into_setup();
        let mut theirs = P::from_setup(setup, CastlingMode::Standard).expect("shakmaty accepts");
        let mut history = Vec::new();
        for ply in 0..200 {
            compare(&ours, &theirs, &format!("game {games} ply {ply} {history:?}"));
            positions += 1;
            let moves = ours.legal_moves();
            if moves.is_empty() {
                ended += 1;
                break;
            }
            let mv = moves.get(rng.below(moves.len())).expect("non-empty");
            let text = uci::move_to_uci(&ours, mv);
            let before = (ours.fen(), ours.key());
            ours.play_unchecked(mv);
            ours.unplay(mv);
            assert_eq!((ours.fen(), ours.key()), before, "unplay {text}");
            ours.play_unchecked(mv);
            let their_move = UciMove::from_ascii(text.as_bytes()).expect("uci").to_move(&theirs).expect("legal");
            theirs.play_unchecked(their_move);
            history.push(text);
        }
        games += 1;
    }
    assert!(ended > 0, "some games reached their end");
    eprintln!("{} {positions} positions in {games} games ({ended} ended by the rules)", R::NAME);
}

#[test]
fn antichess_agrees_with_shakmaty() {
    playouts::<Antichess, shakmaty::variant::Antichess>(
        0xa17c_0001,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    );
}

#[test]
fn three_check_agrees_with_shakmaty() {
    playouts::<ThreeCheck, shakmaty::variant::ThreeCheck>(
        0x3c4e_0002,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
    );
}
