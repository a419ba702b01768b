//! Fairy piece walks and Circe rebirth squares on the solver board.

use mysl_core::Color;
use mysl_problems::board::{parse_square, rebirth_square, Board, Circe, Piece};
use mysl_problems::walk::{self, kind_by_code, Kind};

fn sq(s: &str) -> u8 {
    parse_square(s).expect("square")
}

fn kind(code: &str) -> Kind {
    kind_by_code(code).expect("supported code")
}

fn piece(c: Color, code: &str) -> Piece {
    Piece { color: c, kind: kind(code) }
}

/// Target squares (sorted names) of the piece on `from`.
fn targets(b: &Board, from: &str) -> Vec<String> {
    let p = b.piece_at(sq(from)).expect("piece");
    let mut v: Vec<String> = b
        .fairy_targets(sq(from), p.kind, p.color)
        .into_iter()
        .map(|s| mysl_problems::board::square_name(s as u8))
        .collect();
    v.sort();
    v
}

fn count(b: &Board, from: &str) -> usize {
    targets(b, from).len()
}

fn board(pieces: &[(Color, &str, &str)]) -> Board {
    let mut b = Board::empty();
    for &(c, code, s) in pieces {
        b.put(sq(s), piece(c, code));
    }
    b
}

const W: Color = Color::White;
const B: Color = Color::Black;

#[test]
fn codes_parse_to_kinds() {
    for code in [
        "G", "N", "NH", "CA", "Z", "GI", "15", "16", "24", "25", "35", "36", "37", "BI", "OK", "GN", "ZE", "CR", "ZR",
        "G2", "G3", "KL", "NA", "PA", "VA", "RO", "B1", "B2", "B3",
    ] {
        let k = kind(code);
        assert!(k >= walk::FIRST_FAIRY);
        assert_eq!(walk::KINDS[k as usize].code, code);
    }
    assert_eq!(kind_by_code("s"), Some(walk::KNIGHT));
    assert_eq!(kind_by_code("nh"), Some(walk::NIGHTRIDER_HOPPER));
    assert_eq!(kind_by_code("F"), None, "the friend is not implemented");
    assert_eq!(walk::fairy_name("F"), Some("friend"));
    assert_eq!(kind_by_code("L"), Some(walk::LOCUST));
    assert_eq!(kind_by_code("o"), Some(walk::ORPHAN));
}

#[test]
fn leapers_on_an_empty_board() {
    // Camel (1,3).
    let b = board(&[(W, "CA", "d4")]);
    assert_eq!(targets(&b, "d4"), ["a3", "a5", "c1", "c7", "e1", "e7", "g3", "g5"]);
    assert_eq!(count(&board(&[(W, "CA", "a1")]), "a1"), 2);
    assert_eq!(count(&board(&[(W, "Z", "d4")]), "d4"), 8);
    assert_eq!(count(&board(&[(W, "Z", "a1")]), "a1"), 2);
    assert_eq!(targets(&board(&[(W, "GI", "d4")]), "d4"), ["c8", "e8", "h3", "h5"]);
    assert_eq!(targets(&board(&[(W, "35", "a1")]), "a1"), ["d6", "f4"]);
    assert_eq!(targets(&board(&[(W, "16", "g7")]), "g7"), ["a6", "a8", "f1", "h1"]);
    assert_eq!(count(&board(&[(W, "37", "d4")]), "d4"), 0);
}

#[test]
fn leaper_blocked_by_own_captures_enemy() {
    let b = board(&[(W, "CA", "a1"), (W, "P", "b4"), (B, "P", "d2")]);
    assert_eq!(targets(&b, "a1"), ["d2"]);
}

#[test]
fn nightrider_rides_until_blocked() {
    // From a1: (1,2) b3 c5 d7; (2,1) c2 e3 g4.
    assert_eq!(targets(&board(&[(W, "N", "a1")]), "a1"), ["b3", "c2", "c5", "d7", "e3", "g4"]);
    // Own piece on c5 stops the ride before it; enemy on e3 is captured and stops it.
    let b = board(&[(W, "N", "a1"), (W, "P", "c5"), (B, "P", "e3")]);
    assert_eq!(targets(&b, "a1"), ["b3", "c2", "e3"]);
    assert_eq!(count(&board(&[(W, "N", "d4")]), "d4"), 12);
}

#[test]
fn grasshopper_hops_over_one_piece() {
    // Alone: no moves.
    assert_eq!(count(&board(&[(W, "G", "d4")]), "d4"), 0);
    // Hurdles of both colours at any distance; lands right behind, captures an enemy there, not
    // an own piece; no landing square beyond the edge.
    let b = board(&[
        (W, "G", "d4"),
        (W, "P", "d6"), // hurdle (own) -> d7
        (B, "P", "f4"), // hurdle (enemy) -> g4,
        (B, "R", "g4"), // where an enemy rook is captured
        (W, "B", "b2"), // hurdle -> a1
        (B, "S", "a4"), // hurdle on the edge: no landing square
        (W, "P", "f6"), // hurdle -> g7 (own piece on g7 blocks)
        (W, "P", "g7"),
    ]);
    assert_eq!(targets(&b, "d4"), ["a1", "d7", "g4"]);
}

#[test]
fn nightrider_hopper_hops_on_knight_lines() {
    // From a1 along (1,2): hurdle c5 (b3 empty) -> d7; along (2,1): hurdle c2 -> e3.
    let b = board(&[(W, "NH", "a1"), (B, "P", "c5"), (W, "P", "c2")]);
    assert_eq!(targets(&b, "a1"), ["d7", "e3"]);
    // Hurdle next to the edge: b3 hurdle -> c5; d7 hurdle -> nothing beyond (e9).
    let b = board(&[(W, "NH", "a1"), (W, "P", "b3"), (B, "P", "c5")]);
    assert_eq!(targets(&b, "a1"), ["c5"]);
    let b = board(&[(W, "NH", "a1"), (W, "P", "d7")]);
    assert_eq!(targets(&b, "a1"), Vec::<String>::new());
}

#[test]
fn fairy_pieces_give_check() {
    // Grasshopper checks over a hurdle, not without one.
    let mut b = board(&[(W, "K", "a1"), (B, "K", "e8"), (W, "G", "e1")]);
    assert!(!b.in_check(B));
    b.put(sq("e7"), piece(W, "P"));
    assert!(b.in_check(B));
    // A second piece between: the hurdle is e5, landing e6, not e8.
    b.put(sq("e5"), piece(B, "P"));
    assert!(!b.in_check(B));
    // Nightrider from far away (a1-c2-e3-g4); blocked on e3.
    let mut b = board(&[(W, "K", "h1"), (B, "K", "g4"), (W, "N", "a1")]);
    assert!(b.in_check(B));
    b.put(sq("e3"), piece(B, "P"));
    assert!(!b.in_check(B));
}

#[test]
fn fairy_checks_make_moves_illegal() {
    // The black king on e8 may not step where the zebra attacks.
    let mut b = board(&[(W, "K", "a1"), (B, "K", "e8"), (W, "Z", "b5")]);
    b.side = B;
    let moves = b.legal_moves();
    // Zebra b5 attacks d8 (2,3) and e7 (3,2).
    let tos: Vec<u8> = moves.iter().map(|m| m.to).collect();
    assert!(!tos.contains(&sq("d8")));
    assert!(!tos.contains(&sq("e7")));
    assert!(tos.contains(&sq("f8")));
}

#[test]
fn circe_rebirth_squares() {
    let r = |c: Color, code: &str, s: &str| mysl_problems::board::square_name(rebirth_square(piece(c, code), sq(s)));
    assert_eq!(r(B, "P", "c4"), "c7");
    assert_eq!(r(W, "P", "f7"), "f2");
    assert_eq!(r(W, "Q", "h8"), "d1");
    assert_eq!(r(B, "Q", "a1"), "d8");
    // Rook, bishop, knight: the game-array square of the capture square's colour.
    assert_eq!(r(W, "R", "d7"), "h1"); // light
    assert_eq!(r(W, "R", "d8"), "a1"); // dark
    assert_eq!(r(B, "R", "e2"), "a8"); // light
    assert_eq!(r(B, "R", "d2"), "h8"); // dark
    assert_eq!(r(W, "B", "b3"), "f1");
    assert_eq!(r(B, "B", "f2"), "f8");
    assert_eq!(r(W, "S", "c6"), "b1");
    assert_eq!(r(W, "S", "f8"), "g1");
    assert_eq!(r(B, "S", "e1"), "b8");
    assert_eq!(r(B, "S", "d7"), "g8");
    // Fairy pieces: the capture file on their promotion rank (Popeye's rennormal).
    assert_eq!(r(W, "G", "c5"), "c8");
    assert_eq!(r(B, "N", "g2"), "g1");
}

#[test]
fn circe_make_and_unmake() {
    let mut b = board(&[(W, "K", "e1"), (B, "K", "e8"), (W, "R", "a4"), (B, "P", "c4")]);
    b.circe = Circe::Plain;
    let key = b.key();
    let m = b.legal_moves().into_iter().find(|m| m.from == sq("a4") && m.to == sq("c4")).expect("Ra4*c4");
    let u = b.make(m);
    assert_eq!(u.reborn(), Some((sq("c7"), piece(B, "P"))));
    assert_eq!(b.piece_at(sq("c7")), Some(piece(B, "P")));
    b.unmake(m, u);
    assert_eq!(b.piece_at(sq("c7")), None);
    assert_eq!(b.piece_at(sq("c4")), Some(piece(B, "P")));
    assert_eq!(b.key(), key);
    // Occupied rebirth square: the piece vanishes.
    b.put(sq("c7"), piece(W, "S"));
    let u = b.make(m);
    assert_eq!(u.reborn(), None);
    assert_eq!(b.piece_at(sq("c7")), Some(piece(W, "S")));
    b.unmake(m, u);
}

#[test]
fn circe_variants_choose_the_reborn_piece() {
    let (wb, bq, wk, wp) = (piece(W, "B"), piece(B, "Q"), piece(W, "K"), piece(W, "P"));
    let rook = piece(B, "R");
    // Chameleon: S -> B -> R -> Q -> S; pawns and fairy pieces keep their kind.
    assert_eq!(Circe::Chameleon.reborn_piece(wb, rook), piece(W, "R"));
    assert_eq!(Circe::Chameleon.reborn_piece(bq, wb), piece(B, "S"));
    assert_eq!(Circe::Chameleon.reborn_piece(wp, rook), wp);
    assert_eq!(Circe::Chameleon.reborn_piece(piece(W, "G"), rook), piece(W, "G"));
    // Clone: the capturer's kind in the captured piece's colour; taken by a king: as it is.
    assert_eq!(Circe::Clone.reborn_piece(bq, wb), piece(B, "B"));
    assert_eq!(Circe::Clone.reborn_piece(bq, wp), piece(B, "P"));
    assert_eq!(Circe::Clone.reborn_piece(bq, wk), bq);
    assert_eq!(Circe::Plain.reborn_piece(bq, wb), bq);
    // The new kind decides the rebirth square: a bishop taken on b3 under Chameleon Circe
    // becomes a rook reborn on h1.
    let reborn = Circe::Chameleon.reborn_piece(piece(W, "B"), rook);
    assert_eq!(rebirth_square(reborn, sq("b3")), sq("h1"));
}

#[test]
fn twin_condition_switches_circe_variant() {
    use mysl_problems::input::parse_problems;
    use mysl_problems::twin_positions;
    let text = "BeginProblem\nstip #2\npieces white Ke1 black Ke8\ncondition Circe\ntwin condition ChameleonCirce\ntwin condition CirceClone\ntwin rotate 90\nEndProblem\n";
    let p = parse_problems(text).remove(0).expect("parsed");
    let t = twin_positions(&p).expect("supported");
    let got: Vec<(String, Circe)> = t.iter().map(|(h, b, _)| (h.clone(), b.circe)).collect();
    assert_eq!(
        got,
        [
            ("a)".to_string(), Circe::Plain),
            ("b) Circe Chameleon".to_string(), Circe::Chameleon),
            ("c) Circe Clone".to_string(), Circe::Clone),
            ("d) rotate 90".to_string(), Circe::Plain),
        ]
    );
}

#[test]
fn compound_leapers() {
    // Bison = camel + zebra; gnu = knight + camel; okapi = knight + zebra; zebu = camel + giraffe.
    assert_eq!(count(&board(&[(W, "BI", "d4")]), "d4"), 16);
    assert_eq!(count(&board(&[(W, "GN", "d4")]), "d4"), 16);
    assert_eq!(count(&board(&[(W, "OK", "d4")]), "d4"), 16);
    assert_eq!(count(&board(&[(W, "ZE", "d4")]), "d4"), 12);
    assert_eq!(targets(&board(&[(W, "BI", "a1")]), "a1"), ["b4", "c4", "d2", "d3"]);
}

#[test]
fn camelrider_rides() {
    // a1-b4-c7 and a1-d2-g3.
    assert_eq!(targets(&board(&[(W, "CR", "a1")]), "a1"), ["b4", "c7", "d2", "g3"]);
    assert_eq!(targets(&board(&[(W, "CR", "a1"), (B, "P", "b4")]), "a1"), ["b4", "d2", "g3"]);
}

#[test]
fn chinese_pieces_capture_over_a_screen() {
    // Nao: moves as a nightrider; captures over a screen (b3) the first piece behind it (d7);
    // the screen itself is not captured.
    let b = board(&[(W, "NA", "a1"), (B, "P", "b3"), (B, "R", "d7")]);
    assert_eq!(targets(&b, "a1"), ["c2", "d7", "e3", "g4"]);
    // Pao: rook lines; own screen a3, enemy a6 taken; a8 not reached; own piece behind a screen
    // is not taken.
    let b = board(&[(W, "PA", "a1"), (W, "P", "a3"), (B, "R", "a6"), (W, "S", "c1"), (W, "S", "e1")]);
    assert_eq!(targets(&b, "a1"), ["a2", "a6", "b1"]);
    // Vao: bishop lines.
    let b = board(&[(W, "VA", "a1"), (B, "P", "c3"), (B, "P", "h8")]);
    assert_eq!(targets(&b, "a1"), ["b2", "h8"]);
    // And they check the same way.
    let mut b = board(&[(W, "K", "h1"), (W, "PA", "a1"), (B, "K", "a8")]);
    assert!(!b.in_check(B));
    b.put(sq("a4"), piece(B, "P"));
    assert!(b.in_check(B));
}

#[test]
fn grasshopper_2_and_3_land_further() {
    assert_eq!(targets(&board(&[(W, "G2", "a1"), (B, "P", "a3")]), "a1"), ["a5"]);
    // The square between hurdle and landing square must be empty.
    assert_eq!(count(&board(&[(W, "G2", "a1"), (B, "P", "a3"), (B, "P", "a4")]), "a1"), 0);
    assert_eq!(targets(&board(&[(W, "G2", "a1"), (B, "P", "a6"), (B, "P", "a8")]), "a1"), ["a8"]);
    assert_eq!(count(&board(&[(W, "G2", "a1"), (B, "P", "a7")]), "a1"), 0);
    assert_eq!(targets(&board(&[(W, "G3", "a1"), (B, "P", "a2")]), "a1"), ["a5"]);
}

#[test]
fn kangaroo_lion_hops_two_hurdles() {
    let b = board(&[(W, "KL", "a1"), (B, "P", "a3"), (W, "P", "a5")]);
    assert_eq!(targets(&b, "a1"), ["a6", "a7", "a8"]);
    let b = board(&[(W, "KL", "a1"), (B, "P", "a3"), (W, "P", "a5"), (B, "R", "a7")]);
    assert_eq!(targets(&b, "a1"), ["a6", "a7"]);
    // One hurdle is not enough.
    assert_eq!(count(&board(&[(W, "KL", "a1"), (B, "P", "a3")]), "a1"), 0);
}

#[test]
fn rose_turns_around_the_octagon() {
    assert_eq!(targets(&board(&[(W, "RO", "a1")]), "a1"), ["a5", "a7", "b3", "c2", "c6", "d4", "e1", "f3", "g1"]);
    assert_eq!(count(&board(&[(W, "RO", "d4")]), "d4"), 14);
    // An enemy on b3 is captured and blocks the circles through it; d4 is still reached via c2.
    let b = board(&[(W, "RO", "a1"), (B, "P", "b3")]);
    assert_eq!(targets(&b, "a1"), ["a7", "b3", "c2", "c6", "d4", "e1"]);
    // Rose check along a circle.
    let mut b = board(&[(W, "K", "h1"), (W, "RO", "a1"), (B, "K", "a7")]);
    assert!(b.in_check(B));
    b.put(sq("c6"), piece(B, "P"));
    assert!(!b.in_check(B));
}

#[test]
fn grasshopper_2_checks() {
    // G2 a1, hurdle a4, a5 empty, king a6: check; a piece on a5 stops it.
    let mut b = board(&[(W, "K", "h1"), (W, "G2", "a1"), (W, "P", "a4"), (B, "K", "a6")]);
    assert!(b.in_check(B));
    b.put(sq("a5"), piece(B, "P"));
    assert!(!b.in_check(B));
    // Hurdle directly next to the king: the king is one square behind it, not two.
    let b = board(&[(W, "K", "h1"), (W, "G2", "a1"), (W, "P", "a5"), (B, "K", "a6")]);
    assert!(!b.in_check(B));
    // Kangaroo-lion and rose checks come from their forward generation.
    let b = board(&[(W, "K", "h1"), (W, "KL", "a1"), (W, "P", "a2"), (B, "P", "a4"), (B, "K", "a7")]);
    assert!(b.in_check(B));
}

/// Rebuilds the board from its pieces and state, so the incremental Zobrist key can be checked.
fn rebuilt_key(b: &Board) -> u64 {
    let mut r = Board::empty();
    for (s, p) in b.pieces() {
        r.put(s, p);
    }
    r.side = b.side;
    r.castling = b.castling;
    r.ep = b.ep;
    r.key()
}

/// Walks every legal line `depth` plies deep; after each make the key matches a rebuilt board and
/// after each unmake the position is exactly the one before. Returns the number of leaves.
fn walk_lines(b: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let before: Vec<(u8, Piece)> = b.pieces().collect();
    let (key, castling, ep, side) = (b.key(), b.castling, b.ep, b.side);
    let mut n = 0;
    for m in b.legal_moves() {
        let u = b.make(m);
        assert_eq!(b.key(), rebuilt_key(b), "incremental key after {m:?}");
        n += walk_lines(b, depth - 1);
        b.unmake(m, u);
        assert_eq!(b.pieces().collect::<Vec<_>>(), before, "pieces after unmaking {m:?}");
        assert_eq!((b.key(), b.castling, b.ep, b.side), (key, castling, ep, side));
    }
    n
}

fn problem_board(pieces: &str, condition: &str) -> Board {
    use mysl_problems::input::parse_problems;
    use mysl_problems::twin_positions;
    let text = format!("BeginProblem\nstip #2\npieces {pieces}\n{condition}\nEndProblem\n");
    let p = parse_problems(&text).remove(0).expect("parsed");
    twin_positions(&p).expect("supported").remove(0).1
}

#[test]
fn make_unmake_restore_fairy_and_circe_positions() {
    // pyset-051's fairy-heavy position, and pyset-060's Circe position (many captures).
    let mut b =
        problem_board("White Kb8 Rc4 Be6 Ga8d3f8 NHa1 Pa5c2g6g7 Black Kc6 Gb2b6e7f5 NHb3d6d7 Pc5d2d4e5f3h7", "");
    assert!(walk_lines(&mut b, 3) > 1000);
    for circe in ["condition Circe", "condition ChameleonCirce", "condition CirceClone"] {
        let mut b = problem_board("White Kd5 Pd4 Sb3 Qg3 Black Pg6c4f4c3d3e2 Bh5f2 Ke3 Rf3c2 Se1", circe);
        assert!(walk_lines(&mut b, 3) > 1000, "{circe}");
        // Fairy pieces under Circe (reborn on their promotion rank), castling rooks.
        let mut b = problem_board("White Ke1 Ra1h1 Gd4 Nc3 CAe2 Pb2g5 Black Ke8 Ra8h8 NHd5 ZRf6 ROc6 Ph7a3", circe);
        assert!(walk_lines(&mut b, 3) > 1000, "{circe}");
    }
}

#[test]
fn circe_reborn_rook_can_castle_again() {
    // 1.Rd1-d5 Qd8*d5 [+wRh1]: the white king never moved, so 0-0 is possible again.
    let mut b = problem_board("White Ke1 Rd1 Black Ke8 Qd8", "condition Circe");
    let castle_right = |b: &mut Board| b.legal_moves().iter().any(|m| m.from == sq("e1") && m.to == sq("g1"));
    let m = b.legal_moves().into_iter().find(|m| m.from == sq("d1") && m.to == sq("d5")).expect("Rd5");
    b.make(m);
    let c = b.legal_moves().into_iter().find(|m| m.from == sq("d8") && m.to == sq("d5")).expect("Qxd5");
    let u = b.make(c);
    assert_eq!(u.reborn(), Some((sq("h1"), piece(W, "R"))));
    assert!(castle_right(&mut b));
    // Had the king moved (Ke1-f1-e1), the reborn rook could not castle.
    let mut b = problem_board("White Ke1 Rd1 Black Ke8 Qd8", "condition Circe");
    for (f, t) in [("e1", "f1"), ("e8", "f8"), ("f1", "e1"), ("f8", "e8"), ("d1", "d5"), ("d8", "d5")] {
        let m = b.legal_moves().into_iter().find(|m| m.from == sq(f) && m.to == sq(t)).expect("move");
        b.make(m);
    }
    assert_eq!(b.piece_at(sq("h1")), Some(piece(W, "R")));
    assert!(!castle_right(&mut b));
}

#[test]
fn madrasi_paralyses_pieces_observed_by_their_own_kind() {
    use mysl_problems::board::Paralysis;
    // The queens observe each other on the d-file: both paralysed, White can only move the king.
    let mut b = board(&[(W, "K", "a1"), (W, "Q", "d1"), (B, "K", "h5"), (B, "Q", "d8")]);
    b.paralysis = Paralysis::Madrasi;
    assert!(b.legal_moves().iter().all(|m| m.from == sq("a1")));
    // A paralysed queen gives no check (d1-h5); without the black queen it does.
    assert!(!b.in_check(B));
    b.clear(sq("d8"));
    assert!(b.in_check(B));
    // Kings are not paralysed (Madrasi without RexInclusive).
    let mut b = board(&[(W, "K", "d4"), (B, "K", "d6"), (W, "R", "a1")]);
    b.paralysis = Paralysis::Madrasi;
    assert!(b.legal_moves().iter().any(|m| m.from == sq("d4")));
}

#[test]
fn isardam_forbids_moves_into_observation_and_checks_by_illegal_captures() {
    use mysl_problems::board::Paralysis;
    // Qc2-d2 would make the queens observe each other: illegal; Qc2-c3 is fine.
    let mut b = board(&[(W, "K", "a1"), (W, "Q", "c2"), (B, "K", "h8"), (B, "Q", "d8")]);
    b.paralysis = Paralysis::Isardam;
    let moves = b.legal_moves();
    assert!(!moves.iter().any(|m| m.from == sq("c2") && m.to == sq("d2")));
    assert!(moves.iter().any(|m| m.from == sq("c2") && m.to == sq("c3")));
    // Qd1 "checks" Kd8, but Qd1*d8 would put the queen under the black queen's eye on h4: no
    // check. With the black queen on h3 it is a check.
    let mut b = board(&[(W, "K", "a1"), (W, "Q", "d1"), (B, "K", "d8"), (B, "Q", "h4")]);
    b.paralysis = Paralysis::Isardam;
    assert!(!b.in_check(B));
    b.clear(sq("h4"));
    b.put(sq("h3"), piece(B, "Q"));
    assert!(b.in_check(B));
}

#[test]
fn bouncers_move_as_far_back_as_the_obstacle_ahead() {
    // B1 on d4, empty board: the edge is 4 squares away to the west (a4 is the last square),
    // south-west and south, so it moves 4 squares east (h4), north-east (h8) and north (d8);
    // the other edges are 5 squares away and a move of 5 the other way would leave the board.
    let b = board(&[(W, "B1", "d4")]);
    assert_eq!(targets(&b, "d4"), ["d8", "h4", "h8"]);
    // A piece 2 squares north: 2 squares south (d2); the way north is now blocked for the
    // 4-square move. A black piece on h4 is taken by the 4-square move east, an own piece on h8
    // is not.
    let b = board(&[(W, "B1", "d4"), (B, "P", "d6"), (B, "S", "h4"), (W, "P", "h8")]);
    assert_eq!(targets(&b, "d4"), ["d2", "h4"]);
    // Rook and bishop bouncers: the same on their lines only.
    assert_eq!(targets(&board(&[(W, "B2", "d4")]), "d4"), ["d8", "h4"]);
    assert_eq!(targets(&board(&[(W, "B3", "d4")]), "d4"), ["h8"]);
    // Checks use the same walk: Kh8 is attacked from d4 only while the south-west edge is 4
    // squares away; a piece on c3 makes it a 1-square bounce to e5.
    let mut b = board(&[(W, "K", "a8"), (W, "B1", "d4"), (B, "K", "h8")]);
    assert!(b.in_check(B));
    b.put(sq("c3"), piece(W, "P"));
    assert!(!b.in_check(B));
}

// ------------------------------------------------------------------ lions, kangaroo, Chinese pieces

#[test]
fn new_codes_parse_to_their_kinds() {
    for code in [
        "LI", "RL", "BL", "NL", "KA", "LE", "MA", "MO", "AO", "OA", "EQ", "OR", "NE", "RH", "BH", "CH", "ZH", "WE",
        "FE", "DA", "AL", "AN", "BU", "SQ", "GR", "AM", "EM", "PR", "WA", "M", "EA", "SW", "RM", "RE", "RW", "BM",
        "BE", "BW",
    ] {
        let k = kind(code);
        assert!(k >= walk::FIRST_FAIRY);
        assert_eq!(walk::KINDS[k as usize].code, code);
    }
}

#[test]
fn lions_hop_one_hurdle_at_any_distance() {
    assert_eq!(targets(&board(&[(W, "LI", "a1"), (B, "P", "a3")]), "a1"), ["a4", "a5", "a6", "a7", "a8"]);
    assert_eq!(targets(&board(&[(W, "LI", "a1"), (B, "P", "a3"), (W, "P", "a6")]), "a1"), ["a4", "a5"]);
    assert_eq!(targets(&board(&[(W, "LI", "a1"), (B, "P", "a3"), (B, "P", "a6")]), "a1"), ["a4", "a5", "a6"]);
    // Rook-lion: rook lines only; bishop-lion: bishop lines only; nightrider-lion: knight lines.
    let b = board(&[(W, "RL", "a1"), (B, "P", "a3"), (B, "P", "c3")]);
    assert_eq!(targets(&b, "a1"), ["a4", "a5", "a6", "a7", "a8"]);
    let b = board(&[(W, "BL", "a1"), (B, "P", "a3"), (B, "P", "c3")]);
    assert_eq!(targets(&b, "a1"), ["d4", "e5", "f6", "g7", "h8"]);
    assert_eq!(targets(&board(&[(W, "NL", "a1"), (B, "P", "c2")]), "a1"), ["e3", "g4"]);
}

#[test]
fn kangaroo_lands_right_behind_the_second_hurdle() {
    assert_eq!(targets(&board(&[(W, "KA", "a1"), (B, "P", "a3"), (W, "P", "a5")]), "a1"), ["a6"]);
    assert_eq!(targets(&board(&[(W, "KA", "a1"), (B, "P", "a2"), (W, "P", "a3")]), "a1"), ["a4"]);
    let b = board(&[(W, "KA", "a1"), (B, "P", "a3"), (W, "P", "a5"), (B, "R", "a6")]);
    assert_eq!(targets(&b, "a1"), ["a6"]);
    let b = board(&[(W, "KA", "a1"), (B, "P", "a3"), (W, "P", "a5"), (W, "R", "a6")]);
    assert_eq!(count(&b, "a1"), 0);
    // One hurdle is not enough, and two hurdles at the edge leave no landing square.
    assert_eq!(count(&board(&[(W, "KA", "a1"), (B, "P", "a3")]), "a1"), 0);
    assert_eq!(count(&board(&[(W, "KA", "a1"), (B, "P", "a7"), (B, "P", "a8")]), "a1"), 0);
}

#[test]
fn leo_moves_as_a_queen_and_captures_over_a_screen() {
    assert_eq!(count(&board(&[(W, "LE", "d4")]), "d4"), 27);
    let b = board(&[(W, "LE", "a1"), (B, "P", "a3"), (B, "R", "a6")]);
    let t = targets(&b, "a1");
    assert_eq!(t.len(), 16, "{t:?}");
    assert!(t.contains(&"a2".to_string()) && t.contains(&"a6".to_string()));
    assert!(!t.contains(&"a3".to_string()) && !t.contains(&"a4".to_string()));
}

#[test]
fn mao_and_moa_are_blocked_on_their_way() {
    // Mao: orthogonally first (b1-b2-a3/c3, b1-c1-d2).
    assert_eq!(targets(&board(&[(W, "MA", "b1")]), "b1"), ["a3", "c3", "d2"]);
    assert_eq!(targets(&board(&[(W, "MA", "b1"), (W, "P", "b2")]), "b1"), ["d2"]);
    // Moa: diagonally first (b1-a2-a3, b1-c2-c3, b1-c2-d2).
    assert_eq!(targets(&board(&[(W, "MO", "b1"), (W, "P", "b2")]), "b1"), ["a3", "c3", "d2"]);
    assert_eq!(targets(&board(&[(W, "MO", "b1"), (W, "P", "c2")]), "b1"), ["a3"]);
    // Maorider: repeated mao steps (a1-b3-c5-d7 through a2, b4, c6; a1-c2-e3-g4 through b1, d2,
    // f3); a piece on a passed square stops the ride there.
    assert_eq!(targets(&board(&[(W, "AO", "a1")]), "a1"), ["b3", "c2", "c5", "d7", "e3", "g4"]);
    assert_eq!(targets(&board(&[(W, "AO", "a1"), (B, "P", "b4")]), "a1"), ["b3", "c2", "e3", "g4"]);
    assert_eq!(targets(&board(&[(W, "AO", "a1"), (B, "P", "c5")]), "a1"), ["b3", "c2", "c5", "e3", "g4"]);
    // Moarider: a1-b3 passes b2, b3-c5 passes c4.
    assert_eq!(targets(&board(&[(W, "OA", "a1"), (B, "P", "c4")]), "a1"), ["b3", "c2", "e3", "g4"]);
}

#[test]
fn equihoppers_land_as_far_behind_the_hurdle_as_they_started() {
    // a1-c3 (hurdle)-e5 on a queen line, and a1-b3 (hurdle)-c5 off the lines.
    assert_eq!(targets(&board(&[(W, "EQ", "a1"), (B, "P", "c3"), (W, "P", "b3")]), "a1"), ["c5", "e5"]);
    // The orix has only the queen-line hops.
    assert_eq!(targets(&board(&[(W, "OR", "a1"), (B, "P", "c3"), (W, "P", "b3")]), "a1"), ["e5"]);
    // The squares between hurdle and arrival are empty; an enemy on the arrival square is taken.
    assert_eq!(targets(&board(&[(W, "EQ", "a1"), (W, "P", "a3"), (B, "R", "a5")]), "a1"), ["a5"]);
    assert_eq!(count(&board(&[(W, "EQ", "a1"), (W, "P", "a3"), (B, "P", "a4")]), "a1"), 0);
    assert_eq!(count(&board(&[(W, "EQ", "a1"), (W, "P", "a5")]), "a1"), 0);
    // Non-stop equihopper: any hurdle, whatever stands in between.
    let b = board(&[(W, "NE", "a1"), (W, "P", "b2"), (B, "P", "c3"), (B, "P", "d4")]);
    assert_eq!(targets(&b, "a1"), ["c3", "e5", "g7"]);
}

#[test]
fn more_hoppers_leapers_and_compounds() {
    assert_eq!(targets(&board(&[(W, "RH", "a1"), (B, "P", "a4"), (B, "P", "b2")]), "a1"), ["a5"]);
    assert_eq!(targets(&board(&[(W, "BH", "a1"), (B, "P", "a4"), (B, "P", "c3")]), "a1"), ["d4"]);
    assert_eq!(targets(&board(&[(W, "CH", "a1"), (B, "P", "b4")]), "a1"), ["c7"]);
    assert_eq!(targets(&board(&[(W, "ZH", "a1"), (B, "P", "c4")]), "a1"), ["e7"]);
    assert_eq!(targets(&board(&[(W, "WE", "d4")]), "d4"), ["c4", "d3", "d5", "e4"]);
    assert_eq!(targets(&board(&[(W, "FE", "d4")]), "d4"), ["c3", "c5", "e3", "e5"]);
    assert_eq!(targets(&board(&[(W, "DA", "d4")]), "d4"), ["b4", "d2", "d6", "f4"]);
    assert_eq!(targets(&board(&[(W, "AL", "d4")]), "d4"), ["b2", "b6", "f2", "f6"]);
    assert_eq!(targets(&board(&[(W, "AN", "a1")]), "a1"), ["d5", "e4"]);
    assert_eq!(targets(&board(&[(W, "BU", "a1")]), "a1"), ["a6", "d5", "e4", "f1"]);
    assert_eq!(count(&board(&[(W, "SQ", "d4")]), "d4"), 16);
    assert_eq!(targets(&board(&[(W, "GR", "a1")]), "a1"), ["b3", "b4", "c2", "c5", "c7", "d2", "d7", "e3", "g3", "g4"]);
    assert_eq!(count(&board(&[(W, "AM", "d4")]), "d4"), 35);
    assert_eq!(count(&board(&[(W, "EM", "d4")]), "d4"), 22);
    assert_eq!(count(&board(&[(W, "PR", "d4")]), "d4"), 21);
    assert_eq!(count(&board(&[(W, "WA", "a1")]), "a1"), 20);
    assert_eq!(
        targets(&board(&[(W, "WA", "a1"), (B, "P", "a2"), (B, "P", "b1"), (W, "P", "b3")]), "a1"),
        ["a2", "b1", "c2", "e3", "g4"]
    );
}

/// A tiny xorshift generator, so the random boards are the same on every run.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
fn attack_detection_agrees_with_generated_captures_for_every_kind() {
    // On random boards of fairy pieces of every kind, a square held by one side is attacked by
    // the other exactly when one of its pieces has a capture there: the reverse walks used for
    // checks against the forward move generation.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let fairy_kinds = walk::NUM_KINDS as u64 - walk::FIRST_FAIRY as u64;
    let mut checked = 0;
    for _ in 0..400 {
        let mut b = Board::empty();
        for _ in 0..6 + next(&mut seed) % 14 {
            let s = (next(&mut seed) % 64) as u8;
            let kind = walk::FIRST_FAIRY + (next(&mut seed) % fairy_kinds) as u8;
            let color = if next(&mut seed) & 1 == 0 { W } else { B };
            b.put(s, Piece { color, kind });
        }
        for (s, victim) in b.pieces().collect::<Vec<_>>() {
            let by = !victim.color;
            let t = mysl_core::Square::from_index(s as u32);
            let expected = b.pieces().any(|(f, p)| p.color == by && b.fairy_targets(f, p.kind, by).contains(t));
            let name = mysl_problems::board::square_name(s);
            assert_eq!(b.attacked(s, by), expected, "{name} by {by:?} on {:?}", b.pieces().collect::<Vec<_>>());
            checked += 1;
        }
    }
    assert!(checked > 3000);
}

#[test]
fn make_unmake_restore_positions_with_the_new_pieces() {
    let mut b = problem_board(
        "White Ke1 LIa1 KAh1 MAb1 EQc1 AMd1 WAf1 NEg1 Pb2d2 Black Ke8 LEa8 MOb8 ORc8 AOd8 SQf8 BUg8 NLh8 Pd7e7",
        "",
    );
    assert!(walk_lines(&mut b, 3) > 1000);
}

#[test]
fn leo_mates_over_a_screen() {
    use mysl_problems::input::parse_problems;
    use mysl_problems::solve::Limits;
    // Only with the h5 pawn as its screen does the leo on h1 check h8 (and guard h7).
    let text = "BeginProblem\nstip #1\npieces white Kf7 LEb1 Ph5 black Kh8\nEndProblem\n";
    let p = parse_problems(text).remove(0).expect("parsed");
    let r = mysl_problems::solve_problem(&p, &Limits::default()).expect("supported");
    let lines: Vec<&String> = r.twins.iter().flat_map(|t| t.lines.iter()).collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("1.LEb1-h1 #"), "{lines:?}");
}

#[test]
fn mirror_circe_rebirth_on_the_other_colours_square() {
    // Mirror Circe: a black rook taken on d5 (light) goes to h1, where a white rook taken on a
    // light square would go (and checks along the first rank, so the white king is not on it);
    // a black pawn taken on c4 to c2.
    for cond in ["condition MirrorCirce", "condition Circe Mirror"] {
        let mut b = problem_board("White Ka2 Rd1 Sb6 Black Ke8 Rd5 Pc4", cond);
        assert_eq!(b.circe, Circe::Mirror, "{cond}");
        let rd5 = b.legal_moves().into_iter().find(|m| m.from == sq("d1") && m.to == sq("d5")).expect("Rd1*d5");
        let u = b.make(rd5);
        assert_eq!(u.reborn(), Some((sq("h1"), piece(B, "R"))));
        b.unmake(rd5, u);
        let sc4 = b.legal_moves().into_iter().find(|m| m.from == sq("b6") && m.to == sq("c4")).expect("Sb6*c4");
        let u = b.make(sc4);
        assert_eq!(u.reborn(), Some((sq("c2"), piece(B, "P"))));
        b.unmake(sc4, u);
        assert!(walk_lines(&mut b, 3) > 1000);
    }
}

#[test]
fn angle_hoppers_turn_at_the_hurdle() {
    // Approach a1-d4 (north-east), hurdle d4: the moose turns 45° (d5, e4), the eagle 90° (c5,
    // e3), the sparrow 135° (c4, d3), each landing next to the hurdle.
    assert_eq!(targets(&board(&[(W, "M", "a1"), (B, "P", "d4")]), "a1"), ["d5", "e4"]);
    assert_eq!(targets(&board(&[(W, "EA", "a1"), (B, "P", "d4")]), "a1"), ["c5", "e3"]);
    assert_eq!(targets(&board(&[(W, "SW", "a1"), (B, "P", "d4")]), "a1"), ["c4", "d3"]);
    // Landing off the board or on an own piece: no move; on an enemy: a capture.
    assert_eq!(targets(&board(&[(W, "M", "a1"), (B, "P", "a4")]), "a1"), ["b5"]);
    assert_eq!(targets(&board(&[(W, "M", "a1"), (B, "P", "d4"), (W, "P", "d5"), (B, "R", "e4")]), "a1"), ["e4"]);
    // Rook and bishop versions approach only along their lines.
    assert_eq!(targets(&board(&[(W, "RM", "a1"), (B, "P", "d4"), (B, "P", "a4")]), "a1"), ["b5"]);
    assert_eq!(targets(&board(&[(W, "BE", "a1"), (B, "P", "c3"), (B, "P", "a4")]), "a1"), ["b4", "d2"]);
    assert_eq!(targets(&board(&[(W, "RW", "a1"), (B, "P", "a4")]), "a1"), ["b3"]);
    assert_eq!(targets(&board(&[(W, "BW", "a1"), (B, "P", "c3")]), "a1"), ["b3", "c2"]);
    assert_eq!(targets(&board(&[(W, "BM", "a1"), (B, "P", "c3")]), "a1"), ["c4", "d3"]);
    assert_eq!(targets(&board(&[(W, "RE", "a1"), (B, "P", "c1")]), "a1"), ["c2"]);
    // One-letter and two-letter codes side by side in the input.
    let b = problem_board("White Ka1 Md4 MAd5 EAe5 SWf6 Black Kh8 Sg8", "");
    for (s, code) in [("d4", "M"), ("d5", "MA"), ("e5", "EA"), ("f6", "SW"), ("g8", "S")] {
        assert_eq!(b.piece_at(sq(s)).map(|p| p.kind), Some(kind(code)), "{s}");
    }
}

#[test]
fn rose_hopper_lion_and_rao_use_the_rose_lines() {
    // From a1 the rose lines are b3-d4-f3-g1, c2-d4-c6-a7, b3-a5 and c2-e1.
    let hurdle = [(W, "RP", "a1"), (B, "P", "d4")];
    assert_eq!(targets(&board(&hurdle), "a1"), ["c6", "f3"]);
    let with_rook = |code| board(&[(W, code, "a1"), (B, "P", "d4"), (B, "R", "g1")]);
    assert_eq!(targets(&with_rook("RN"), "a1"), ["a7", "c6", "f3", "g1"]);
    // Rao: rose moves up to the screen d4, captures only over it (g1; nothing behind d4 on the
    // other line).
    assert_eq!(targets(&with_rook("RA"), "a1"), ["a5", "b3", "c2", "e1", "g1"]);
    assert_eq!(targets(&with_rook("RO"), "a1"), ["a5", "b3", "c2", "d4", "e1"]);
}

// ------------------------------------------------------------------------- locust and orphan

/// Popeye texts of all legal moves of the piece on `from`, sorted.
fn move_texts(b: &mut Board, from: &str) -> Vec<String> {
    use mysl_problems::solve::move_text;
    use mysl_problems::stipulation::Goal;
    let moves: Vec<_> = b.legal_moves().into_iter().filter(|m| m.from == sq(from)).collect();
    let mut v: Vec<String> = moves.into_iter().map(|m| move_text(b, Goal::Mate, m, true)).collect();
    v.sort();
    v
}

fn solve_lines(text: &str) -> Vec<String> {
    let p = mysl_problems::input::parse_problems(text).remove(0).expect("parsed");
    let r = mysl_problems::solve_problem(&p, &mysl_problems::solve::Limits::default()).expect("supported");
    r.twins[0].lines.clone()
}

#[test]
fn locust_moves_only_by_capturing_over_an_enemy_to_the_empty_square_behind() {
    // Ld4: d6 (black pawn, d7 empty) and b6 (a7 empty) can be taken; f6 cannot (g7 occupied),
    // the own king a1 is no hurdle, the empty lines give nothing.
    let mut b = board(&[
        (W, "K", "a1"),
        (W, "L", "d4"),
        (B, "K", "h8"),
        (B, "P", "d6"),
        (B, "S", "f6"),
        (B, "P", "g7"),
        (B, "P", "b6"),
    ]);
    assert_eq!(move_texts(&mut b, "d4"), ["Ld4*b6-a7", "Ld4*d6-d7"]);
    // It attacks the pieces it could take: d6 and b6, not f6 (nothing to land on), no empty square.
    assert_eq!(targets(&b, "d4"), ["b6", "d6"]);
    // The capture is made and taken back: the pawn on d6 is gone, the locust stands on d7.
    let m = b.legal_moves().into_iter().find(|m| m.to == sq("d7")).expect("the capture");
    let before = b.key();
    let u = b.make(m);
    assert_eq!(b.piece_at(sq("d6")), None);
    assert_eq!(b.piece_at(sq("d7")), Some(piece(W, "L")));
    b.unmake(m, u);
    assert_eq!(b.key(), before);
    assert_eq!(b.piece_at(sq("d6")), Some(piece(B, "P")));
}

#[test]
fn locust_checks_only_with_an_empty_square_behind_the_king() {
    // On the e-file: Le1 checks Ke7 when e8 is empty, not when e8 is occupied; never a king in
    // the corner (no square behind it on the board).
    let b = board(&[(W, "K", "a1"), (W, "L", "e1"), (B, "K", "e7")]);
    assert!(b.in_check(B));
    let b = board(&[(W, "K", "a1"), (W, "L", "e1"), (B, "K", "e7"), (B, "R", "e8")]);
    assert!(!b.in_check(B));
    let b = board(&[(W, "K", "a2"), (W, "L", "a8"), (B, "K", "h8")]);
    assert!(!b.in_check(B));
    // Rook-, bishop- and nightrider-locusts keep to their lines.
    let b = board(&[(W, "K", "a1"), (W, "LR", "e1"), (B, "K", "e7")]);
    assert!(b.in_check(B));
    let b = board(&[(W, "K", "a1"), (W, "LB", "e1"), (B, "K", "e7")]);
    assert!(!b.in_check(B));
    let b = board(&[(W, "K", "a1"), (W, "LB", "b4"), (B, "K", "e7")]);
    assert!(b.in_check(B));
    let b = board(&[(W, "K", "a1"), (W, "LN", "a1"), (B, "K", "e5")]);
    assert!(!b.in_check(B), "a1-c2-e3: e3 is no king square");
    let b = board(&[(W, "K", "h1"), (W, "LN", "a1"), (B, "K", "e3")]);
    assert!(b.in_check(B), "a1-c2-e3, landing on g4");
}

#[test]
fn locust_mate_in_one_is_written_the_popeye_way() {
    // 1.Lh1*h3-h4 #: the locust lands on h4 and attacks h5 (h6 empty behind the king); g4, g5,
    // g6 are covered by Kg3 and Rg8, h4 is guarded by Kg3, h6 by the locust (h7 empty behind).
    let lines = solve_lines("BeginProblem\nstip #1\npieces white Kg3 Rg8 Lh1 black Kh5 Ph3\nEndProblem\n");
    assert_eq!(lines, ["1.Lh1*h3-h4 # !"]);
    // With a black piece on h6 the locust on h4 gives no check: no mate.
    let lines = solve_lines("BeginProblem\nstip #1\npieces white Kg3 Rg8 Lh1 black Kh5 Ph3 Sh6\nEndProblem\n");
    assert!(!lines.iter().any(|l| l.contains("Lh1*h3-h4")), "{lines:?}");
}

#[test]
fn orphan_moves_like_the_enemy_pieces_that_observe_it() {
    // Black rook d8 observes the white orphan d4: it moves as a rook (7 squares on the file up to
    // d8, 7 on the rank); a black knight f5 adds the knight's moves.
    let b = board(&[(W, "K", "a1"), (W, "O", "d4"), (B, "K", "h8"), (B, "R", "d8")]);
    assert_eq!(count(&b, "d4"), 14);
    let b = board(&[(W, "K", "a1"), (W, "O", "d4"), (B, "K", "h8"), (B, "R", "d8"), (B, "S", "f5")]);
    assert_eq!(count(&b, "d4"), 14 + 8, "the knight's eight moves, f5 itself a capture");
    // A white rook does not lend its walk to a white orphan.
    let b = board(&[(W, "K", "a1"), (W, "O", "d4"), (W, "R", "d8"), (B, "K", "h8")]);
    assert_eq!(count(&b, "d4"), 0);
}

#[test]
fn orphan_chains_pass_the_walk_on() {
    // White orphan a1, black orphan a8, white rook h8: the white rook observes the black orphan,
    // which (as a rook) observes the white orphan: both move as rooks.
    let pieces = [(W, "K", "c4"), (W, "O", "a1"), (W, "R", "h8"), (B, "K", "f4"), (B, "O", "a8")];
    let b = board(&pieces);
    assert_eq!(targets(&b, "a1"), ["a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]);
    assert_eq!(count(&b, "a8"), 7 + 7, "b8-h8 (taking the rook) and a7-a1 (taking the orphan)");
    // Without the rook nothing observes either orphan: the chain cannot come back through the
    // white orphan itself.
    let b = board(&[(W, "K", "c4"), (W, "O", "a1"), (B, "K", "f4"), (B, "O", "a8")]);
    assert_eq!(count(&b, "a1"), 0);
    assert_eq!(count(&b, "a8"), 0);
}

#[test]
fn orphan_next_to_the_king_checks_it_with_the_kings_walk() {
    let b = board(&[(W, "K", "a1"), (W, "O", "g8"), (B, "K", "h8")]);
    assert!(b.in_check(B), "the black king observes g8, so the orphan attacks h8 as a king");
    let b = board(&[(W, "K", "a1"), (W, "O", "f8"), (B, "K", "h8")]);
    assert!(!b.in_check(B));
    // 1.Od5-g8 #: the black bishop h1 lends the bishop's walk (d5-e6-f7-g8); on g8 the black king
    // lends the king's; Sf6 guards g8, g7 and h7 are blocked.
    let lines = solve_lines("BeginProblem\nstip #1\npieces white Ka1 Sf6 Od5 black Kh8 Bh1 Pg7h7\nEndProblem\n");
    assert_eq!(lines, ["1.Od5-g8 # !"]);
}

#[test]
fn pawns_promote_to_locusts_and_orphans_present() {
    let mut b = board(&[(W, "K", "a1"), (W, "P", "c7"), (W, "L", "h1"), (B, "K", "h8"), (B, "O", "a8")]);
    b.promotion_fairies = b.fairy_kinds_present();
    let t = move_texts(&mut b, "c7");
    assert!(t.contains(&"c7-c8=L".to_string()) && t.contains(&"c7-c8=O".to_string()), "{t:?}");
}

#[test]
fn orphan_on_its_first_rank_steps_and_captures_as_a_pawn() {
    // The white pawn g7 observes the black orphan h8, which moves as a black pawn from its own
    // first rank: one step and the capture (Popeye's `pawn_get_no_capture_length` gives a
    // "pawned" orphan there one step; a pawn itself could not move).
    let mut b = board(&[(W, "K", "a1"), (W, "P", "g7"), (B, "K", "c6"), (B, "O", "h8")]);
    b.side = B;
    let mut t: Vec<String> = b
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == sq("h8"))
        .map(|m| mysl_problems::board::square_name(m.to))
        .collect();
    t.sort();
    assert_eq!(t, ["g7", "h7"]);
    // The same for White: the black pawn b2 observes the white orphan a1.
    let mut b = board(&[(W, "K", "h1"), (W, "O", "a1"), (B, "K", "h8"), (B, "P", "b2")]);
    b.side = W;
    let mut t: Vec<String> = b
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == sq("a1"))
        .map(|m| mysl_problems::board::square_name(m.to))
        .collect();
    t.sort();
    assert_eq!(t, ["a2", "b2"]);
}
