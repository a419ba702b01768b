//! Hand-checked notation and validation cases: error messages name the field and the offending text.

use mysl_core::{san, uci, CastlingMode, Chess, Color, EndReason, FenError, Outcome, PositionError, SanError};

fn err(fen: &str) -> String {
    Chess::from_fen(fen).expect_err("must be rejected").to_string()
}

#[test]
fn fen_errors_name_the_problem() {
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
        "FEN field 2 (side to move): expected w or b, found 'x'"
    );
    assert_eq!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1"), "position has two white kings");
    assert_eq!(err("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w - - 0 1"), "pawn on rank 8 (h8)");
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), "FEN field 3 (castling): castling right K but no rook on h1");
    assert_eq!(err("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"), "side not to move is in check");
    assert!(err("8/8/8/8/8/8/8/8 w - - 0 1").contains("no white king"));
    assert!(err("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").starts_with("FEN field 1 (placement)"));
    // An impossible e.p. square is ignored (docs/variants.md), a malformed one is an error.
    let ignored = Chess::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1").expect("ignored e.p.");
    assert_eq!(ignored.ep_square(), None);
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1").starts_with("FEN field 4 (en passant)"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1").contains("half-move clock"));
    assert!(matches!(Chess::from_fen(""), Err(FenError::Empty)));
    assert!(matches!(Chess::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"), Err(FenError::FieldCount { found: 7 })));
    // A die roll is not a FEN field: three fields and a roll are too few (found by the `moves` fuzz target).
    assert!(matches!(
        Chess::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq roll=1"),
        Err(FenError::FieldCount { found: 3 })
    ));
    assert!(matches!(
        Chess::from_fen("k7/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1"),
        Err(FenError::Position(PositionError::TooMuchMaterial(Color::White)))
    ));
}

#[test]
fn x_fen_and_shredder_fen() {
    let fen = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11";
    let pos = Chess::from_fen(fen).expect("X-FEN with an inner rook");
    assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
    assert_eq!(pos.fen(), fen);
    assert_eq!(pos.shredder_fen(), "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11");
    let shredder =
        Chess::from_fen("rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11").expect("Shredder");
    assert_eq!(shredder.fen(), fen);
    // Four-field EPD form.
    assert_eq!(Chess::from_fen("8/8/8/8/8/8/8/K6k w - -").expect("EPD").fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
}

#[test]
fn en_passant_square_written_only_when_legal() {
    // After 1.e4 no black pawn can take: the FEN has no e.p. square, and the key has no e.p. term.
    let pos = Chess::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").expect("valid");
    assert_eq!(pos.ep_square(), None);
    assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    // Pinned capturer: pseudo-legal (hashed, as Polyglot does) but not legal (not written).
    let pinned = Chess::from_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 2").expect("valid");
    assert!(pinned.ep_square().is_some());
    assert_eq!(pinned.legal_ep_square(), None);
    assert_eq!(pinned.fen(), "8/8/8/KPp4r/8/8/8/7k w - - 0 2");
}

#[test]
fn san_writing_and_lenient_reading() {
    let pos =
        Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").expect("kiwipete");
    for (input, canonical) in [
        ("O-O", "O-O"),
        ("0-0-0", "O-O-O"),
        ("Nxf7", "Nxf7"),
        ("nxf7", "Nxf7"),
        ("e5f7", "Nxf7"),
        ("Ne5xf7", "Nxf7"),
        ("Qxf6", "Qxf6"),
        ("d5e6", "dxe6"),
        ("dxe6!?", "dxe6"),
        ("e1g1", "O-O"),
        ("Bxa6", "Bxa6"),
        ("gxh3", "gxh3"),
        ("Nb1", "Nb1"),
        ("Ncb1", "Nb1"),
    ] {
        let mv = san::parse_san(&pos, input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(san::move_to_san(&pos, mv), canonical, "from {input}");
    }
    assert!(matches!(san::parse_san(&pos, "Ke3"), Err(SanError::Illegal(_))));
    assert!(matches!(san::parse_san(&pos, "Zz9"), Err(SanError::Syntax(_))));
    // Disambiguation by file, rank, and square; promotions; mate suffix.
    let p = Chess::from_fen("1k6/1P6/8/8/8/8/R6R/K7 w - - 0 1").expect("valid");
    let mv = san::parse_san(&p, "Rhb2").expect("Rhb2");
    assert_eq!(san::move_to_san(&p, mv), "Rhb2");
    assert!(matches!(san::parse_san(&p, "Rb2"), Err(SanError::Ambiguous(_))), "Rb2 is ambiguous");
    let promo = Chess::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").expect("valid");
    for input in ["a8=Q", "a8Q", "a8q", "a7a8q"] {
        let mv = san::parse_san(&promo, input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(san::move_to_san(&promo, mv), "a8=Q");
    }
    let mate = Chess::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").expect("valid");
    let mv = san::parse_san(&mate, "Ra8").expect("Ra8");
    assert_eq!(san::move_to_san(&mate, mv), "Ra8#");
}

#[test]
fn chess960_castling_uci() {
    let mut pos = Chess::from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").expect("960");
    assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
    pos = {
        let mut p = pos;
        for m in ["g2g3", "g7g6", "f2f3", "f7f6"] {
            let mv = uci::parse_uci_move(&p, m).expect(m);
            p.play_unchecked(mv);
        }
        p
    };
    // King g1 takes rook h1: castling short, king stays on g1, rook to f1 needs f1 empty: it is not.
    assert!(uci::parse_uci_move(&pos, "g1h1").is_err());
    let std = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("valid");
    let castle = uci::parse_uci_move(&std, "e1g1").expect("e1g1");
    assert!(castle.is_castle());
    assert_eq!(uci::parse_uci_move(&std, "e1h1"), Ok(castle), "king takes rook accepted in standard mode");
    assert_eq!(uci::move_to_uci(&std, castle), "e1g1");
    let mut as960 = std.clone();
    as960.set_castling_mode(CastlingMode::Chess960);
    assert_eq!(uci::move_to_uci(&as960, castle), "e1h1");
    assert!(uci::parse_uci_move(&std, "e1e1").is_err());
    assert!(uci::parse_uci_move(&std, "e7e8k").is_err());
}

#[test]
fn outcomes_and_draw_rules() {
    let mate = Chess::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").expect("valid");
    assert_eq!(mate.outcome(), Some(Outcome::Decisive { winner: Color::White, reason: EndReason::Checkmate }));
    let stalemate = Chess::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").expect("valid");
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw { reason: EndReason::Stalemate }));
    let kbk = Chess::from_fen("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1").expect("valid");
    assert_eq!(kbk.outcome(), Some(Outcome::Draw { reason: EndReason::InsufficientMaterial }));
    let krk = Chess::from_fen("8/8/8/4k3/8/8/8/2R1K3 w - - 0 1").expect("valid");
    assert_eq!(krk.outcome(), None);
    let fifty = Chess::from_fen("8/8/8/4k3/8/8/8/2R1K3 w - - 100 80").expect("valid");
    assert_eq!(fifty.outcome_with_draw_rules(), Some(Outcome::Draw { reason: EndReason::FiftyMoveRule }));
    // Threefold repetition by knight shuffles.
    let mut pos = Chess::startpos();
    for (i, m) in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"].iter().enumerate() {
        assert!(!pos.is_threefold_repetition(), "before move {i}");
        let mv = uci::parse_uci_move(&pos, m).expect(m);
        pos.play_unchecked(mv);
    }
    assert_eq!(pos.repetitions(), 2);
    assert_eq!(pos.outcome_with_draw_rules(), Some(Outcome::Draw { reason: EndReason::ThreefoldRepetition }));
}

/// Found by fuzzing (fuzz target `fen`): in knight relay a pawn that a knight defends also moves like
/// a knight, so after 1.Na3 both b7-b6 and the relayed d7-b6 reach b6. The writer names the file of
/// the relayed move (`db6`) and writes `b6` for the push, which the reader took as ambiguous.
#[test]
fn a_bare_pawn_destination_is_the_move_along_the_file() {
    use mysl_core::{KnightRelay, Position};
    let pos = Position::<KnightRelay>::from_fen("rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/R1BQKBNR b KQkq - 1 1")
        .expect("legal FEN");
    let push = san::parse_san(&pos, "b6").expect("legal SAN");
    assert_eq!(uci::move_to_uci(&pos, push), "b7b6");
    let relayed = san::parse_san(&pos, "db6").expect("legal SAN");
    assert_eq!(uci::move_to_uci(&pos, relayed), "d7b6");
    for mv in pos.legal_moves().iter() {
        assert_eq!(san::parse_san(&pos, &san::move_to_san(&pos, mv)).ok(), Some(mv));
    }
}

/// Found by fuzzing (fuzz target `fen`): d7xe8=Q+ uncovers the queen on d2, a double check by two
/// queens. The reader took two checkers of one kind as impossible, so the FEN of a position reached by
/// a legal move did not read back.
#[test]
fn a_promotion_may_give_double_check_with_a_piece_of_its_kind() {
    let mut pos = Chess::from_fen("r2kbr1n/pp1Pbrpp/2p5/q7/2B5/8/PNPQNnPP/RNB1K2R w KQ - 3 9").expect("legal FEN");
    let mv = san::parse_san(&pos, "dxe8=Q+").expect("legal SAN");
    pos.play_unchecked(mv);
    assert_eq!(pos.checkers().count(), 2);
    let fen = pos.fen();
    assert_eq!(fen, "r2kQr1n/pp2brpp/2p5/q7/2B5/8/PNPQNnPP/RNB1K2R b KQ - 0 9");
    assert!(Chess::from_fen(&fen).expect("the written FEN reads back") == pos);
    // Two queens checking with neither on the promotion rank stays impossible.
    assert_eq!(
        Chess::from_fen("3k4/8/8/Q7/8/8/8/3QK3 b - - 0 1").map(|_| ()).map_err(|e| e.to_string()),
        Err("impossible check (no legal last move gives these checkers)".to_string())
    );
}
