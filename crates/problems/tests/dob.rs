//! Piece attribute Dob (a hopper whose hurdle then moves by its own walk): hand-checked hurdle
//! moves, checks, notation and input on constructed positions.

use mysl_core::Color;
use mysl_problems::board::{parse_square, Board, Move, Piece};
use mysl_problems::input::parse_problems;
use mysl_problems::solve::{move_text, Limits};
use mysl_problems::stipulation::Goal;
use mysl_problems::walk::kind_by_code;
use mysl_problems::{solve_problem, SolveError};

const W: Color = Color::White;
const B: Color = Color::Black;

fn sq(s: &str) -> u8 {
    parse_square(s).expect("square")
}

/// A board with the pieces, those on `dob` with the attribute.
fn dob_board(pieces: &[(Color, &str, &str)], dob: &[&str]) -> Board {
    let mut b = Board::empty();
    for &(c, code, s) in pieces {
        b.put(sq(s), Piece { color: c, kind: kind_by_code(code).expect("kind") });
    }
    for s in dob {
        let s = mysl_core::Square::from_index(sq(s) as u32);
        b.bul.set(s);
        b.dob.set(s);
    }
    b.promotion_fairies = b.fairy_kinds_present();
    b
}

/// Popeye texts of the legal moves of the piece on `from`, sorted.
fn piece_texts(b: &mut Board, from: &str) -> Vec<String> {
    let moves: Vec<Move> = b.legal_moves().into_iter().filter(|m| m.from == sq(from)).collect();
    let mut v: Vec<String> = moves.into_iter().map(|m| move_text(b, Goal::Mate, m, true)).collect();
    v.sort();
    v
}

#[test]
fn dob_hurdle_moves_by_its_own_walk_without_capturing() {
    // dGa1 hops over Sc3 to d4; the knight then goes to each empty knight square: not b1 (its
    // own rook) nor e4 (a white pawn: no hurdle move captures).
    let mut b = dob_board(
        &[(W, "K", "h2"), (W, "G", "a1"), (B, "S", "c3"), (B, "K", "h8"), (B, "R", "b1"), (W, "P", "e4")],
        &["a1"],
    );
    let t = piece_texts(&mut b, "a1");
    let hops: Vec<&String> = t.iter().filter(|x| x.starts_with("dGa1-d4")).collect();
    assert_eq!(
        hops,
        [
            "dGa1-d4[bSc3->a2]",
            "dGa1-d4[bSc3->a4]",
            "dGa1-d4[bSc3->b5]",
            "dGa1-d4[bSc3->d1]",
            "dGa1-d4[bSc3->d5]",
            "dGa1-d4[bSc3->e2]"
        ],
        "{t:?}"
    );
    // A hurdle that cannot move makes the hop illegal: the knight b2 (hop a1-c3) has its four
    // squares a4, c4, d3, d1 taken; a Bul grasshopper's hurdle would move as a grasshopper (b2
    // over c3 to d4).
    let mut b = dob_board(
        &[
            (W, "K", "h2"),
            (W, "G", "a1"),
            (B, "S", "b2"),
            (B, "P", "a4"),
            (B, "P", "c4"),
            (B, "P", "d3"),
            (B, "B", "d1"),
            (B, "K", "h8"),
        ],
        &["a1"],
    );
    assert!(!piece_texts(&mut b, "a1").iter().any(|t| t.starts_with("dGa1-c3")));
    b.dob = mysl_core::Bitboard(0);
    let t = piece_texts(&mut b, "a1");
    assert!(t.contains(&"bGa1-c3[bSb2->d4]".to_string()), "{t:?}");
}

#[test]
fn dob_king_hurdle_steps_even_into_check_and_attribute_moves_along() {
    // The black dG d5 hops over the white king d4 to d3; the king steps by its own walk, also
    // into the black rook's line (only the mover's king must be safe: a check), never castles.
    let mut b = dob_board(&[(W, "K", "d4"), (B, "G", "d5"), (B, "K", "h8"), (B, "R", "a5")], &["d5"]);
    b.side = B;
    let t = piece_texts(&mut b, "d5");
    let hops: Vec<&String> = t.iter().filter(|x| x.starts_with("dGd5-d3")).collect();
    assert_eq!(
        hops,
        [
            "dGd5-d3[wKd4->c3]",
            "dGd5-d3[wKd4->c4]",
            "dGd5-d3[wKd4->c5] +",
            "dGd5-d3[wKd4->d5] +",
            "dGd5-d3[wKd4->e3]",
            "dGd5-d3[wKd4->e4]",
            "dGd5-d3[wKd4->e5] +"
        ],
        "{t:?}"
    );
    // A Dob hurdle keeps its attribute: the white dG d7 moves as a grasshopper over the black
    // one now on d6, to d5.
    let mut b = dob_board(&[(W, "K", "h1"), (W, "G", "d7"), (B, "G", "d8"), (B, "K", "a1")], &["d7", "d8"]);
    b.side = B;
    let t = piece_texts(&mut b, "d8");
    assert!(t.contains(&"dGd8-d6[wdGd7->d5]".to_string()), "{t:?}");
}

#[test]
fn dob_notation_and_make_unmake() {
    let mut b = dob_board(&[(W, "K", "h1"), (W, "G", "a1"), (B, "S", "c3"), (B, "K", "h8")], &["a1"]);
    let before = format!("{:?}", b.pieces().collect::<Vec<_>>());
    let key = b.key();
    let m = b
        .legal_moves()
        .into_iter()
        .find(|m| m.from == sq("a1") && m.to == sq("d4") && m.extra == sq("b5"))
        .expect("dGa1-d4[bSc3->b5]");
    assert_eq!(move_text(&mut b, Goal::Mate, m, true), "dGa1-d4[bSc3->b5]");
    let u = b.make(m);
    assert_eq!(b.piece_at(sq("b5")).map(|p| p.color), Some(B));
    assert!(b.dob.contains(mysl_core::Square::from_index(sq("d4") as u32)));
    assert!(!b.dob.contains(mysl_core::Square::from_index(sq("a1") as u32)));
    b.unmake(m, u);
    assert_eq!(format!("{:?}", b.pieces().collect::<Vec<_>>()), before);
    assert_eq!(b.key(), key);
}

#[test]
fn dob_checks_only_where_the_hurdle_could_move() {
    // dGh1 over the black pawn b7 onto the king a8: b7-b6 and b7-b5 after the hop, a check;
    // with b6 taken (Bb6) the hurdle cannot move: no check; a plain grasshopper checks.
    let mut b = dob_board(&[(W, "K", "h2"), (W, "G", "h1"), (B, "P", "b7"), (B, "K", "a8")], &["h1"]);
    assert!(b.in_check(B));
    b.put(sq("b6"), Piece { color: W, kind: kind_by_code("B").expect("kind") });
    assert!(!b.in_check(B));
    b.bul = mysl_core::Bitboard(0);
    b.dob = mysl_core::Bitboard(0);
    assert!(b.in_check(B));
    // A pawn hurdle moves as the mover's opponent's pawns do (this reading of Popeye's Bul code,
    // `bul_solve`, which generates the hurdle's moves in a ply of the other side, is not checked
    // against a Popeye output): dGa1 over the white pawn a7 onto a8 checks, as a7-a6 is a
    // black pawn's step; as a white pawn it could not move (a8 taken by the capture).
    let b = dob_board(&[(W, "K", "h2"), (W, "G", "a1"), (W, "P", "a7"), (B, "K", "a8")], &["a1"]);
    assert!(b.in_check(B));
}

#[test]
fn dob_input() {
    let text = "BeginProblem\nstip #1\npieces white Kh1 white Dob Gd4 Gf5 black Ka8 bul Gb8\nEndProblem\n";
    let p = parse_problems(text).remove(0).expect("parsed");
    let dob: Vec<u8> = p.board.dob.into_iter().map(|s| s as u8).collect();
    assert_eq!(dob, [sq("d4"), sq("f5")]);
    let bul: Vec<u8> = p.board.bul.into_iter().map(|s| s as u8).collect();
    assert_eq!(bul, [sq("d4"), sq("f5"), sq("b8")]);
    assert!(p.unsupported.is_empty(), "{:?}", p.unsupported);
    // Only on grasshopper-type hoppers; not with neutral pieces.
    let p = parse_problems("BeginProblem\nstip #1\npieces white Kh1 dob Rd4 black Ka8\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(p.unsupported.iter().any(|u| u.contains("dob")), "{:?}", p.unsupported);
    let p = parse_problems("BeginProblem\nstip #1\npieces white Kh1 dob Gd4 black Ka8 neutral Pe4\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(matches!(solve_problem(&p, &Limits::default()), Err(SolveError::Unsupported(_))));
}

#[test]
fn dob_pawn_hurdle_promotes_only_on_its_own_last_rank() {
    // dGb2 hops along the rank over the pawn c2 to d2; the pawn steps c2-c1 as Black's pawns
    // move (the mover's opponent's). Popeye promotes a hurdle pawn only as the side whose
    // promotion square it reached (`find_potential_promotion_square`,
    // `is_square_occupied_by_promotable_pawn`): a white pawn on c1 stays a pawn.
    let mut b = dob_board(&[(W, "K", "h8"), (W, "G", "b2"), (W, "P", "c2"), (B, "K", "h1")], &["b2"]);
    let t = piece_texts(&mut b, "b2");
    let hops: Vec<&String> = t.iter().filter(|x| x.starts_with("dGb2-d2")).collect();
    assert_eq!(hops, ["dGb2-d2[wPc2->c1]"], "{t:?}");
    // A black pawn there reaches its own last rank and promotes (Q R B S and the fairy kinds
    // present: G).
    let mut b = dob_board(&[(W, "K", "h8"), (W, "G", "b2"), (B, "P", "c2"), (B, "K", "h1")], &["b2"]);
    let t = piece_texts(&mut b, "b2");
    let mut hops: Vec<String> =
        t.iter().filter(|x| x.starts_with("dGb2-d2")).map(|x| x.trim_end_matches(" +").to_string()).collect();
    hops.sort();
    assert_eq!(
        hops,
        [
            "dGb2-d2[bPc2->c1=B]",
            "dGb2-d2[bPc2->c1=G]",
            "dGb2-d2[bPc2->c1=Q]",
            "dGb2-d2[bPc2->c1=R]",
            "dGb2-d2[bPc2->c1=S]"
        ],
        "{t:?}"
    );
}
