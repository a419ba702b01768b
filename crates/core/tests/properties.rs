//! Property tests: parsers never panic on arbitrary input; make/unmake restores the position exactly;
//! incremental keys equal keys computed from scratch.

mod common;

use mysl_core::{dispatch_variant, san, uci, Chess, Position, Rules, Setup, Variant};
use proptest::prelude::*;

fn fen_like() -> impl Strategy<Value = String> {
    // Mostly FEN-shaped strings (so the deeper checks run), plus free text.
    prop_oneof![
        "[pnbrqkPNBRQK1-9/]{1,70} [wbx-]{1,2} [KQkqA-Ha-h-]{1,5} [a-h1-8-]{1,3}( [0-9]{1,4}){0,2}",
        ".{0,100}",
        "[rnbqkpRNBQKP1-8]{0,8}(/[rnbqkpRNBQKP1-8]{0,8}){7} [wb] (-|[KQkqA-Ha-h]{1,4}) (-|[a-h][36])( [0-9]{1,3} [0-9]{1,3})?",
    ]
}

fn variant_fen_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[rnbqkpRNBQKP1-8]{0,8}(/[rnbqkpRNBQKP1-8]{0,8}){7}(\\[[PNBRQKpnbrqkx]{0,4}\\])? [wb] (-|[KQkqA-Ha-h]{1,4}) (-|[a-h][1-8]([a-h][1-8])?)( [0-4]\\+[0-4])?( [0-9]{1,3} [0-9]{1,3})?( \\+[0-4]\\+[0-4])?( roll=[0-9])?",
        ".{0,90}",
    ]
}

fn check_variant_fen<R: Rules>(text: &str) -> Result<(), TestCaseError> {
    if let Ok(pos) = Position::<R>::from_fen(text) {
        let again = Position::<R>::from_fen(&pos.fen())
            .map_err(|e| TestCaseError::fail(format!("{}: own FEN {}: {e}", R::NAME, pos.fen())))?;
        prop_assert_eq!(again.fen(), pos.fen());
        prop_assert!(pos.is_consistent());
        for mv in pos.legal_moves().iter() {
            let _ = san::move_to_san(&pos, mv);
        }
        let _ = pos.outcome();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn fen_parser_never_panics(text in fen_like()) {
        if let Ok(pos) = Chess::from_fen(&text) {
            // Whatever it accepts is a position whose own FEN reads back identically.
            let again = Chess::from_fen(&pos.fen()).expect("own FEN must parse");
            prop_assert_eq!(again.fen(), pos.fen());
            prop_assert!(pos.is_consistent());
            let _ = pos.legal_moves();
        }
        let _ = Setup::parse(&text);
    }

    #[test]
    fn every_variant_fen_parser_never_panics(text in variant_fen_like()) {
        for variant in Variant::ALL {
            dispatch_variant!(variant, R => check_variant_fen::<R>(&text)?);
        }
    }

    #[test]
    fn san_and_uci_parsers_never_panic(text in ".{0,12}", moves in "[a-hNBRQKOo0x=+#1-8-]{1,8}") {
        let pos = Chess::startpos();
        let _ = san::parse_san(&pos, &text);
        let _ = san::parse_san(&pos, &moves);
        let _ = uci::parse_uci_move(&pos, &text);
        let _ = uci::parse_uci_move(&pos, &moves);
        let kiwipete = Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").expect("valid");
        let _ = san::parse_san(&kiwipete, &moves);
        let _ = uci::parse_uci_move(&kiwipete, &moves);
    }

    #[test]
    fn make_unmake_restores_and_keys_are_incremental(seed in any::<u64>(), plies in 1usize..120) {
        let mut rng = common::Rng(seed | 1);
        let start = if seed % 3 == 0 { common::chess960_fen(&mut rng) } else { mysl_core::STARTING_FEN.to_string() };
        let mut pos = Chess::from_fen(&start).expect("start FEN");
        let mut played = Vec::new();
        let mut snapshots = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.get(rng.below(moves.len())).expect("non-empty");
            snapshots.push((pos.fen(), pos.key(), pos.pawn_key(), pos.checkers(), pos.pinned()));
            pos.play_unchecked(mv);
            played.push(mv);
            // Incremental keys equal keys from scratch.
            prop_assert_eq!((pos.key(), pos.pawn_key()), pos.compute_keys());
            prop_assert!(pos.is_consistent());
        }
        while let Some(mv) = played.pop() {
            pos.unplay(mv);
            let (fen, key, pawn_key, checkers, pinned) = snapshots.pop().expect("snapshot");
            prop_assert_eq!(pos.fen(), fen);
            prop_assert_eq!(pos.key(), key);
            prop_assert_eq!(pos.pawn_key(), pawn_key);
            prop_assert_eq!(pos.checkers(), checkers);
            prop_assert_eq!(pos.pinned(), pinned);
        }
        prop_assert_eq!(pos.fen(), Chess::from_fen(&start).expect("start").fen());
    }
}

/// `legal_tactical_moves_into` lists exactly the captures and promotions of `legal_moves`, in its order.
fn tactical_moves_match_filtered_legal_moves<R: Rules>(seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let mut rng = common::Rng(seed | 1);
    let mut pos = Position::<R>::startpos();
    let mut tactical = mysl_core::MoveList::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        let occ = pos.board().occupied();
        let expected: Vec<_> = moves
            .iter()
            .filter(|m| {
                m.is_en_passant()
                    || m.promotion().is_some()
                    || (!m.is_castle() && m.drop_role().is_none() && occ.contains(m.to()))
            })
            .collect();
        pos.legal_tactical_moves_into(&mut tactical);
        prop_assert_eq!(tactical.iter().collect::<Vec<_>>(), expected, "{} {}", R::NAME, pos.fen());
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves.get(rng.below(moves.len())).expect("non-empty"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn tactical_generation_equals_filtered_legal_moves(seed in any::<u64>(), plies in 1usize..160) {
        for variant in Variant::ALL {
            dispatch_variant!(variant, R => tactical_moves_match_filtered_legal_moves::<R>(seed, plies)?);
        }
    }
}
