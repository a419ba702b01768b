//! The Berolina pawn (`BP`, Popeye's `pieces/walks/pawns/berolina.c`): steps diagonally
//! forward, captures straight forward, double-steps from its second rank, promotes like a pawn,
//! takes and is taken en passant. Hand-checked positions.

use mysl_core::Color;
use mysl_problems::board::{parse_square, Board, Piece};
use mysl_problems::walk::{self, kind_by_code};

const W: Color = Color::White;
const B: Color = Color::Black;

fn sq(s: &str) -> u8 {
    parse_square(s).expect("square")
}

fn board(pieces: &[(Color, &str, &str)]) -> Board {
    let mut b = Board::empty();
    for &(c, code, s) in pieces {
        b.put(sq(s), Piece { color: c, kind: kind_by_code(code).expect("code") });
    }
    b
}

/// Popeye's texts of the legal moves of the piece on `from`, sorted.
fn move_texts(b: &mut Board, from: &str) -> Vec<String> {
    use mysl_problems::solve::move_text;
    use mysl_problems::stipulation::Goal;
    let moves: Vec<_> = b.legal_moves().into_iter().filter(|m| m.from == sq(from)).collect();
    let mut v: Vec<String> = moves.into_iter().map(|m| move_text(b, Goal::Mate, m, true)).collect();
    v.sort();
    v
}

/// Plays the legal move of the piece on `from` to `to` (the first one, for promotions).
fn play(b: &mut Board, from: &str, to: &str) {
    let m = b.legal_moves().into_iter().find(|m| m.from == sq(from) && m.to == sq(to)).expect("the move");
    let _ = b.make(m);
}

fn solve_lines(text: &str) -> Vec<String> {
    let p = mysl_problems::input::parse_problems(text).remove(0).expect("parsed");
    let r = mysl_problems::solve_problem(&p, &mysl_problems::solve::Limits::default()).expect("supported");
    r.twins.iter().flat_map(|t| t.lines.iter().cloned()).collect()
}

#[test]
fn code_bp_is_the_berolina_pawn() {
    assert_eq!(kind_by_code("BP"), Some(walk::BEROLINA_PAWN));
    assert_eq!(kind_by_code("bp"), Some(walk::BEROLINA_PAWN));
    assert_eq!(walk::KINDS[walk::BEROLINA_PAWN as usize].code, "BP");
}

#[test]
fn steps_diagonally_forward_one_or_two_squares_from_the_second_rank() {
    let mut b = board(&[(W, "K", "a1"), (W, "BP", "e2"), (B, "K", "h8")]);
    assert_eq!(move_texts(&mut b, "e2"), ["BPe2-c4", "BPe2-d3", "BPe2-f3", "BPe2-g4"]);
    // A piece on the passed square blocks the double step; an enemy one is not captured.
    let mut b = board(&[(W, "K", "a1"), (W, "BP", "e2"), (B, "K", "h8"), (B, "S", "d3")]);
    assert_eq!(move_texts(&mut b, "e2"), ["BPe2-f3", "BPe2-g4"]);
    // A piece on the arrival square of the double step: only the single step.
    let mut b = board(&[(W, "K", "a1"), (W, "BP", "e2"), (B, "K", "h8"), (B, "S", "c4")]);
    assert_eq!(move_texts(&mut b, "e2"), ["BPe2-d3", "BPe2-f3", "BPe2-g4"]);
    // From the edge file one way only; off the second rank one square.
    let mut b = board(&[(W, "K", "h1"), (W, "BP", "a2"), (W, "BP", "d4"), (B, "K", "h8")]);
    assert_eq!(move_texts(&mut b, "a2"), ["BPa2-b3", "BPa2-c4"]);
    assert_eq!(move_texts(&mut b, "d4"), ["BPd4-c5", "BPd4-e5"]);
    // Black moves down the board.
    let mut b = board(&[(W, "K", "a1"), (B, "BP", "d7"), (B, "K", "h8")]);
    b.side = B;
    assert_eq!(move_texts(&mut b, "d7"), ["BPd7-b5", "BPd7-c6", "BPd7-e6", "BPd7-f5"]);
}

#[test]
fn captures_straight_forward_only() {
    // Enemy pieces on c5, d5, e5: only d5 is taken, the diagonal squares are blocked.
    let mut b =
        board(&[(W, "K", "a1"), (W, "BP", "d4"), (B, "K", "h8"), (B, "S", "c5"), (B, "S", "d5"), (B, "S", "e5")]);
    assert_eq!(move_texts(&mut b, "d4"), ["BPd4*d5"]);
    // An own piece straight ahead is neither taken nor a block for the diagonal steps.
    let mut b = board(&[(W, "K", "a1"), (W, "BP", "d4"), (W, "S", "d5"), (B, "K", "h8")]);
    assert_eq!(move_texts(&mut b, "d4"), ["BPd4-c5", "BPd4-e5"]);
    // It attacks only the square straight ahead.
    let b = board(&[(W, "K", "a1"), (W, "BP", "d4"), (B, "K", "h8")]);
    assert!(b.attacked(sq("d5"), W));
    assert!(!b.attacked(sq("c5"), W) && !b.attacked(sq("e5"), W));
    let b = board(&[(W, "K", "a1"), (B, "BP", "d4"), (B, "K", "h8")]);
    assert!(b.attacked(sq("d3"), B));
    assert!(!b.attacked(sq("c3"), B) && !b.attacked(sq("d5"), B));
}

#[test]
fn no_moves_and_no_attacks_on_the_first_rank() {
    // Popeye's `pawn_get_no_capture_length` is 0 on the pawn's base square.
    let mut b = board(&[(W, "K", "a1"), (W, "BP", "e1"), (B, "K", "h8"), (B, "S", "e2")]);
    assert!(move_texts(&mut b, "e1").is_empty());
    assert!(!b.attacked(sq("e2"), W));
    let mut b = board(&[(W, "K", "a1"), (B, "BP", "e8"), (B, "K", "h8"), (W, "S", "e7")]);
    b.side = B;
    assert!(move_texts(&mut b, "e8").is_empty());
    assert!(!b.attacked(sq("e7"), B));
}

#[test]
fn promotes_like_a_pawn_but_not_to_a_berolina_pawn() {
    // d7: steps to c8 and e8, takes on d8; each promotes to Q, R, B, S and the fairy kinds
    // present other than pawn walks (the grasshopper here, not the Berolina pawn).
    let mut b =
        board(&[(W, "K", "a1"), (W, "BP", "d7"), (W, "G", "h1"), (B, "K", "h2"), (B, "R", "d8"), (B, "BP", "a7")]);
    b.promotion_fairies = b.fairy_kinds_present() & !(1 << walk::BEROLINA_PAWN);
    let t = move_texts(&mut b, "d7");
    let mut expected = Vec::new();
    for to in ["-c8", "*d8", "-e8"] {
        for k in ["B", "G", "Q", "R", "S"] {
            expected.push(format!("BPd7{to}={k}"));
        }
    }
    expected.sort();
    assert_eq!(t, expected);
    // Made and taken back: a Berolina pawn again on d7, the rook back on d8.
    let key = b.key();
    for m in b.legal_moves().into_iter().filter(|m| m.from == sq("d7")) {
        let u = b.make(m);
        assert_ne!(b.piece_at(m.to).map(|p| p.kind), Some(walk::BEROLINA_PAWN));
        b.unmake(m, u);
        assert_eq!(b.piece_at(sq("d7")), Some(Piece { color: W, kind: walk::BEROLINA_PAWN }));
        assert_eq!(b.piece_at(sq("d8")).map(|p| p.kind), Some(walk::ROOK));
        assert_eq!(b.key(), key);
    }
}

#[test]
fn checks_straight_ahead() {
    let b = board(&[(W, "K", "a1"), (W, "BP", "d6"), (B, "K", "d7")]);
    assert!(b.in_check(B));
    let b = board(&[(W, "K", "a1"), (W, "BP", "c6"), (B, "K", "d7")]);
    assert!(!b.in_check(B), "no diagonal attack");
    let b = board(&[(W, "K", "e2"), (B, "BP", "e3"), (B, "K", "h8")]);
    assert!(b.in_check(W));
    let b = board(&[(W, "K", "e2"), (B, "BP", "d3"), (B, "K", "h8")]);
    assert!(!b.in_check(W));
    // A king may not step in front of an enemy Berolina pawn, but diagonally next to it.
    let mut b = board(&[(W, "K", "d4"), (B, "BP", "e6"), (B, "K", "h8")]);
    let t = move_texts(&mut b, "d4");
    assert!(!t.contains(&"Kd4-e5".to_string()), "{t:?}");
    assert!(t.contains(&"Kd4-d5".to_string()), "{t:?}");
}

#[test]
fn en_passant_after_a_berolina_double_step() {
    // White BPe2-c4 passes d3: the black pawn e4 takes it en passant (diagonally to d3), the
    // black Berolina pawn d4 too (straight to d3); the Berolina pawn on c4 is removed.
    let base = [(W, "K", "h1"), (W, "BP", "e2"), (B, "K", "a8"), (B, "P", "e4"), (B, "BP", "d4")];
    let mut b = board(&base);
    play(&mut b, "e2", "c4");
    assert_eq!(b.ep, Some((sq("d3"), sq("c4"))));
    assert_eq!(move_texts(&mut b, "e4"), ["e4*d3 ep.", "e4-e3"]);
    assert_eq!(move_texts(&mut b, "d4"), ["BPd4*d3 ep.", "BPd4-c3", "BPd4-e3"]);
    for from in ["e4", "d4"] {
        let mut b = board(&base);
        play(&mut b, "e2", "c4");
        let key = b.key();
        let m = b.legal_moves().into_iter().find(|m| m.from == sq(from) && m.to == sq("d3")).expect("ep");
        let u = b.make(m);
        assert_eq!(b.piece_at(sq("c4")), None, "the double-stepped Berolina pawn is taken");
        b.unmake(m, u);
        assert_eq!(b.piece_at(sq("c4")), Some(Piece { color: W, kind: walk::BEROLINA_PAWN }));
        assert_eq!(b.key(), key);
    }
    // The single step gives no en-passant right.
    let mut b = board(&base);
    play(&mut b, "e2", "d3");
    assert_eq!(b.ep, None);
    // An orthodox double step: the Berolina pawn takes straight ahead on the passed square only
    // if it stands in front of it, which the pawn's arrival square is; so a black Berolina pawn
    // never takes an orthodox pawn en passant, but an orthodox pawn of either kind can be taken
    // by a pawn: white d2-d4 next to the black pawn e4.
    let mut b = board(&[(W, "K", "h1"), (W, "P", "d2"), (B, "K", "a8"), (B, "P", "e4"), (B, "BP", "c4")]);
    play(&mut b, "d2", "d4");
    assert_eq!(move_texts(&mut b, "e4"), ["e4*d3 ep.", "e4-e3"]);
    assert_eq!(move_texts(&mut b, "c4"), ["BPc4-b3", "BPc4-d3"]);
    // Black's double step BPd7-f5 passes e6: the white pawn d5 and the white Berolina pawn e5
    // take en passant.
    let mut b = board(&[(W, "K", "h1"), (W, "P", "d5"), (W, "BP", "e5"), (B, "K", "a8"), (B, "BP", "d7")]);
    b.side = B;
    play(&mut b, "d7", "f5");
    assert_eq!(move_texts(&mut b, "d5"), ["d5*e6 ep.", "d5-d6"]);
    assert_eq!(move_texts(&mut b, "e5"), ["BPe5*e6 ep.", "BPe5-d6", "BPe5-f6"]);
}

/// Plays every legal line `depth` half moves deep, checking after each unmake that pieces, key,
/// en-passant right and side are restored and that the incremental key is right.
fn walk(b: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let before: Vec<(u8, Piece)> = b.pieces().collect();
    let (key, ep, side) = (b.key(), b.ep, b.side);
    let mut n = 0;
    for m in b.legal_moves() {
        let u = b.make(m);
        let mut r = Board::empty();
        for (s, p) in b.pieces() {
            r.put(s, p);
        }
        r.side = b.side;
        r.castling = b.castling;
        r.ep = b.ep;
        assert_eq!(b.key(), r.key(), "incremental key after {m:?}");
        n += walk(b, depth - 1);
        b.unmake(m, u);
        assert_eq!(b.pieces().collect::<Vec<_>>(), before, "pieces after unmaking {m:?}");
        assert_eq!((b.key(), b.ep, b.side), (key, ep, side));
    }
    n
}

#[test]
fn make_unmake_walks_restore_berolina_positions() {
    // Double steps, en passant both ways, promotions with captures, checks straight ahead.
    let mut b = Board::empty();
    for (c, code, s) in [
        (W, "K", "e1"),
        (W, "BP", "b2"),
        (W, "BP", "e2"),
        (W, "P", "g2"),
        (W, "BP", "c7"),
        (W, "R", "a1"),
        (B, "K", "e8"),
        (B, "BP", "d7"),
        (B, "BP", "f4"),
        (B, "P", "h4"),
        (B, "BP", "g2"),
        (B, "R", "b8"),
        (B, "S", "d8"),
    ] {
        b.put(sq(s), Piece { color: c, kind: kind_by_code(code).expect("code") });
    }
    assert!(walk(&mut b, 4) > 10_000);
    // Under Circe: captured Berolina pawns reborn on their second (seventh) rank, double steps
    // and en passant from there.
    let text = "BeginProblem\nstip #2\npieces white Ke1 BPb2e4g5 Rh1 Sd3 black Ke8 BPc5d7f7 Pe5 Rh8 Sb8\ncondition Circe\nEndProblem\n";
    let p = mysl_problems::input::parse_problems(text).remove(0).expect("parsed");
    let mut b = mysl_problems::twin_positions(&p).expect("supported").remove(0).1;
    assert!(walk(&mut b, 4) > 10_000);
}

#[test]
fn direct_mate_by_a_diagonal_step_checking_straight_ahead() {
    // 1.BPg6-h7 #: the Berolina pawn steps diagonally to h7 and checks h8 straight ahead; the
    // bishop d3, now seeing h7 through g6, guards it, the knight e7 guards g8, g7 is blocked.
    // An orthodox pawn g6 could not go to h7 (nothing to take there); BPg6*g7 gives no check.
    let text = "BeginProblem\nstip #1\npieces white Ka1 Bd3 Se7 BPg6 black Kh8 Pg7\nEndProblem\n";
    assert_eq!(solve_lines(text), ["1.BPg6-h7 # !"]);
    // The same with an orthodox pawn: no mate in one.
    let text = "BeginProblem\nstip #1\npieces white Ka1 Bd3 Se7 Pg6 black Kh8 Pg7\nEndProblem\n";
    assert!(solve_lines(text).is_empty());
}

#[test]
fn berolina_pawn_with_other_conditions_is_not_supported_yet() {
    for cond in ["Madrasi", "CirceClone", "MirrorCirce", "Circe RexInclusive", "AnnanChess"] {
        let text = format!("BeginProblem\nstip #1\npieces white Ka1 BPe2 black Kh8\ncondition {cond}\nEndProblem\n");
        let p = mysl_problems::input::parse_problems(&text).remove(0).expect("parsed");
        let r = mysl_problems::solve_problem(&p, &mysl_problems::solve::Limits::default());
        assert!(matches!(r, Err(mysl_problems::SolveError::Unsupported(_))), "{cond}");
    }
    let text = "BeginProblem\nstip #1\npieces white Ka1 BPe2 black Kh8\ntwin rotate 90\nEndProblem\n";
    let p = mysl_problems::input::parse_problems(text).remove(0).expect("parsed");
    let r = mysl_problems::solve_problem(&p, &mysl_problems::solve::Limits::default());
    assert!(matches!(r, Err(mysl_problems::SolveError::Unsupported(_))));
}

#[test]
fn circe_rebirth_on_the_pawns_square() {
    use mysl_problems::board::rebirth_square;
    // Popeye's `rennormal`: every pawn walk goes to the capture file's second (seventh) rank.
    assert_eq!(rebirth_square(Piece { color: W, kind: walk::BEROLINA_PAWN }, sq("e5")), sq("e2"));
    assert_eq!(rebirth_square(Piece { color: B, kind: walk::BEROLINA_PAWN }, sq("c4")), sq("c7"));
    // A #1 with Circe: 1.Sb5*d6 checks e8 and the black pawn reborn on d7 blocks the last
    // flight (d8 and e7 are the bishop's, f7 and f8 the rook's). A reborn Berolina pawn takes
    // the knight straight ahead (BPd7*d6), so there is no mate.
    let text = "BeginProblem\nstip #1\npieces white Ka1 Sb5 Rf1 Bh4 black Ke8 Pd6\ncondition Circe\nEndProblem\n";
    assert_eq!(solve_lines(text), ["1.Sb5*d6[+bPd7] # !"]);
    let text = "BeginProblem\nstip #1\npieces white Ka1 Sb5 Rf1 Bh4 black Ke8 BPd6\ncondition Circe\nEndProblem\n";
    assert!(solve_lines(text).is_empty());
    let text = "BeginProblem\nstip #2\npieces white Ka1 Sb5 Rf1 Bh4 black Ke8 BPd6\ncondition Circe\nEndProblem\n";
    let p = mysl_problems::input::parse_problems(text).remove(0).expect("parsed");
    let mut b = mysl_problems::twin_positions(&p).expect("supported").remove(0).1;
    let t = move_texts(&mut b, "b5");
    assert!(t.contains(&"Sb5*d6[+bBPd7] +".to_string()), "{t:?}");
    play(&mut b, "b5", "d6");
    assert_eq!(move_texts(&mut b, "d7"), ["BPd7*d6[+wSg1]"], "only the capture parries the check");
}

#[test]
fn helpmate_with_en_passant_of_a_berolina_pawn() {
    // h#1. Black's Berolina pawn d7 has the steps c6, e6 and the double step d7-f5 over e6
    // (b5 is the rook's), and takes d6. After each of the three steps the white pawn d5 takes
    // on c6 or e6, after the double step en passant on e6 (removing the pawn on f5), and opens
    // the fifth rank: Rb5 checks h5; g5 is on the rook's line, g4 the knight's, h4 the bishop's,
    // g6 and h6 the king's. After BPd7*d6 or Kh5-g5 White has no mate. With an orthodox pawn
    // on d7 (blocked by d6) Black has only the king's move: no solution.
    let text = "BeginProblem\nstip h#1\npieces white Kg7 Rb5 Bg3 Sf2 Pd5d6 black Kh5 BPd7\nEndProblem\n";
    let mut lines = solve_lines(text);
    lines.sort();
    assert_eq!(lines, ["1.BPd7-c6 d5*c6 #", "1.BPd7-e6 d5*e6 #", "1.BPd7-f5 d5*e6 ep. #"]);
    let text = "BeginProblem\nstip h#1\npieces white Kg7 Rb5 Bg3 Sf2 Pd5d6 black Kh5 Pd7\nEndProblem\n";
    assert!(solve_lines(text).is_empty());
}
