//! Neutral pieces (Popeye's colour `Neutral`): they belong to both sides. The side to move may
//! move them as its own (a neutral pawn in that side's direction), either side may capture
//! them, and they attack both kings. Positions checked by hand.

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

/// A board from (colour, code, square); `None` for a neutral piece.
fn board(pieces: &[(Option<Color>, &str, &str)], side: Color) -> Board {
    let mut b = Board::empty();
    for &(c, code, s) in pieces {
        b.put(sq(s), Piece { color: c.unwrap_or(W), kind: kind_by_code(code).expect("kind") });
        if c.is_none() {
            b.neutral.set(mysl_core::Square::from_index(sq(s) as u32));
        }
    }
    b.side = side;
    b
}

/// Popeye texts of the legal moves from `from`, sorted.
fn texts_from(b: &mut Board, from: &str) -> Vec<String> {
    let moves: Vec<Move> = b.legal_moves().into_iter().filter(|m| m.from == sq(from)).collect();
    let mut v: Vec<String> = moves.into_iter().map(|m| move_text(b, Goal::Mate, m, true)).collect();
    v.sort();
    v
}

fn solve(text: &str) -> Result<Vec<String>, SolveError> {
    let p = parse_problems(text).remove(0).expect("parsed");
    let r = solve_problem(&p, &Limits::default())?;
    Ok(r.twins[0].lines.clone())
}

fn problem(pieces: &str, stip: &str) -> String {
    format!("BeginProblem\nPieces {pieces}\nStipulation {stip}\nEndProblem\n")
}

#[test]
fn a_neutral_pawn_moves_in_the_direction_of_the_side_moving_it() {
    let n = None;
    let pieces =
        [(Some(W), "K", "a1"), (Some(B), "K", "h8"), (n, "P", "d4"), (Some(B), "S", "e5"), (Some(W), "S", "c3")];
    // White: d4-d5 and d4*e5 (the black knight); Black: d4-d3 and d4*c3 (the white knight).
    let mut b = board(&pieces, W);
    assert_eq!(texts_from(&mut b, "d4"), ["nPd4*e5", "nPd4-d5"]);
    let mut b = board(&pieces, B);
    assert_eq!(texts_from(&mut b, "d4"), ["nPd4*c3", "nPd4-d3"]);
}

#[test]
fn a_neutral_pawn_promotes_for_either_side_to_a_neutral_piece() {
    let n = None;
    let mut b = board(&[(Some(W), "K", "h6"), (Some(B), "K", "h3"), (n, "P", "e7")], W);
    assert_eq!(texts_from(&mut b, "e7"), ["nPe7-e8=nB", "nPe7-e8=nQ", "nPe7-e8=nR", "nPe7-e8=nS"]);
    let m = b.legal_moves().into_iter().find(|m| m.from == sq("e7")).expect("a promotion");
    b.make(m);
    assert!(b.neutral.contains(mysl_core::Square::from_index(sq("e8") as u32)), "the promoted piece is neutral");
    let mut b = board(&[(Some(W), "K", "h6"), (Some(B), "K", "h3"), (n, "P", "e2")], B);
    assert_eq!(texts_from(&mut b, "e2"), ["nPe2-e1=nB", "nPe2-e1=nQ", "nPe2-e1=nR", "nPe2-e1=nS"]);
}

#[test]
fn a_neutral_piece_checks_both_kings_and_either_side_may_capture_it() {
    let n = None;
    // The neutral rook e4 attacks both kings on the e-file.
    let b = board(&[(Some(W), "K", "e1"), (Some(B), "K", "e8"), (n, "R", "e4")], W);
    assert!(b.in_check(W) && b.in_check(B));
    // White to move, in check from the neutral rook acting for Black: the rook must leave the
    // e-file (along it, it still attacks e1) or be taken by White's rook.
    let pieces =
        [(Some(W), "K", "e1"), (Some(B), "K", "h8"), (n, "R", "e4"), (Some(W), "R", "a4"), (Some(B), "B", "c6")];
    let mut b = board(&pieces, W);
    let rook = texts_from(&mut b, "e4");
    // (For White the rook a4 is its own: the neutral rook stops at b4; on h4 it checks h8.)
    assert_eq!(rook, ["nRe4-b4", "nRe4-c4", "nRe4-d4", "nRe4-f4", "nRe4-g4", "nRe4-h4 +"]);
    assert_eq!(texts_from(&mut b, "a4"), ["Ra4*e4"]);
    // Black to move, in check from the neutral rook acting for White (the black king on e8): the
    // rook takes White's rook a4 (checking a1 for Black) or leaves the file; the bishop c6 takes it (c6-d5-e4); Bc6*a4
    // leaves the check.
    let pieces =
        [(Some(W), "K", "a1"), (Some(B), "K", "e8"), (n, "R", "e4"), (Some(W), "R", "a4"), (Some(B), "B", "c6")];
    let mut b = board(&pieces, B);
    let rook = texts_from(&mut b, "e4");
    assert_eq!(rook, ["nRe4*a4 +", "nRe4-b4", "nRe4-c4", "nRe4-d4", "nRe4-f4", "nRe4-g4", "nRe4-h4"]);
    assert_eq!(texts_from(&mut b, "c6"), ["Bc6*e4"]);
}

#[test]
fn mate_by_a_neutral_pawn_that_black_cannot_move() {
    // 1.nPf6*g7+: the king cannot take (Kf7 guards g7) nor go to g8 (Kf7); as a black pawn the
    // neutral g7 cannot step (g6 is black) nor capture (f6 and h6 are empty): mate.
    let text = problem("White Kf7 Black Kh8 Bg7 Pg6h7 Neutral Pf6", "#1");
    assert_eq!(solve(&text).expect("supported"), ["1.nPf6*g7 # !"]);
    // Without the black pawn g6, Black plays the neutral pawn g7-g6 and the check is gone.
    let text = problem("White Kf7 Black Kh8 Bg7 Ph7 Neutral Pf6", "#1");
    assert!(solve(&text).expect("supported").is_empty());
}

#[test]
fn black_may_parry_with_a_neutral_piece() {
    // Orthodox: 1.Rb1-b8 # (the back rank). With the bishop e5 neutral, Black answers
    // 1...nBe5*b8, so there is no mate in one (1.Be5*g7+ Kxg7 neither).
    let text = problem("White Kh1 Rb1 Be5 Black Kh8 Pg7h7", "#1");
    assert_eq!(solve(&text).expect("supported"), ["1.Rb1-b8 # !"]);
    let text = problem("White Kh1 Rb1 Black Kh8 Pg7h7 Neutral Be5", "#1");
    assert!(solve(&text).expect("supported").is_empty());
}

#[test]
fn neutral_pieces_with_conditions_twins_or_kings_are_unsupported() {
    for (text, what) in [
        ("BeginProblem\nstip h#2\npieces white Ka1 black Kh8 neutral Pe4\ncondition Madrasi\nEndProblem\n", "neutral"),
        (
            "BeginProblem\nstip h#2\npieces white Ka1 black Kh8 neutral Pe4\ncondition MirrorCirce\nEndProblem\n",
            "neutral",
        ),
        ("BeginProblem\nstip h#2\npieces white Ka1 black Kh8 neutral Pe4\ntwin move e4 e5\nEndProblem\n", "neutral"),
        ("BeginProblem\nstip h#2\npieces white Ka1 black Kh8 neutral Ke4\nEndProblem\n", "neutral kings"),
    ] {
        match solve(text) {
            Err(SolveError::Unsupported(m)) => assert!(m.contains(what), "{m}"),
            other => panic!("expected unsupported {what}, got {other:?}"),
        }
    }
}

#[test]
fn a_neutral_piece_may_capture_another_neutral_piece() {
    let n = None;
    for side in [W, B] {
        let mut b = board(&[(Some(W), "K", "a1"), (Some(B), "K", "h8"), (n, "R", "d4"), (n, "B", "d7")], side);
        let key = b.key();
        let rook = texts_from(&mut b, "d4");
        assert!(rook.contains(&"nRd4*d7".to_string()), "{side:?}: {rook:?}");
        assert!(!rook.iter().any(|t| t.contains("d8")), "the bishop blocks the file: {rook:?}");
        let m = b.legal_moves().into_iter().find(|m| m.from == sq("d4") && m.to == sq("d7")).expect("capture");
        let u = b.make(m);
        assert_eq!(b.neutral.count(), 1);
        b.unmake(m, u);
        assert_eq!(b.key(), key);
        assert_eq!(b.neutral.count(), 2);
    }
}

#[test]
fn helpmates_with_a_neutral_pawn() {
    // h#1: 1.Bh6-g7 nPf6*g7 # (the final position of the #1 above; Black has no other move
    // after which White checks: the neutral pawn checks only by taking on g7).
    let text = problem("White Kf7 Black Kh8 Bh6 Pg6h7 Neutral Pf6", "h#1");
    assert_eq!(solve(&text).expect("supported"), ["1.Bh6-g7 nPf6*g7 #"]);
    // h#1.5: White first moves the neutral pawn up (as a white pawn), then the same mate.
    let text = problem("White Kf7 Black Kh8 Bh6 Pg6h7 Neutral Pf5", "h#1.5");
    assert_eq!(solve(&text).expect("supported"), ["1...nPf5-f6 2.Bh6-g7 nPf6*g7 #"]);
}

#[test]
fn circe_rebirth_of_a_neutral_piece_on_the_square_of_the_side_it_was_taken_from() {
    // Popeye's relevant side for the rebirth is the capturer's opponent: the neutral rook taken
    // on d4 (a dark square) by White is reborn as a black rook would be, on h8; taken by Black,
    // as a white rook, on a1; it stays neutral. (With the white king on h2, Rd1*d4 would be
    // illegal: the neutral rook reborn on h8 attacks h2 for Black.)
    let n = None;
    let pieces =
        [(Some(W), "K", "g1"), (Some(W), "R", "d1"), (Some(B), "K", "c6"), (Some(B), "R", "d8"), (n, "R", "d4")];
    for (side, from, text, reborn) in [(W, "d1", "Rd1*d4[+nRh8]", "h8"), (B, "d8", "Rd8*d4[+nRa1]", "a1")] {
        let mut b = board(&pieces, side);
        b.circe = mysl_problems::board::Circe::Plain;
        let key = b.key();
        let moves: Vec<Move> = b.legal_moves().into_iter().filter(|m| m.from == sq(from) && m.to == sq("d4")).collect();
        assert_eq!(moves.len(), 1);
        assert_eq!(move_text(&mut b, Goal::Mate, moves[0], true), text);
        let u = b.make(moves[0]);
        assert!(b.neutral.contains(mysl_core::Square::from_index(sq(reborn) as u32)));
        assert_eq!(b.neutral.count(), 1);
        assert_eq!(b.piece_at(sq(reborn)).map(|p| p.kind), kind_by_code("R"));
        b.unmake(moves[0], u);
        assert_eq!(b.key(), key);
        assert!(b.neutral.contains(mysl_core::Square::from_index(sq("d4") as u32)));
    }
    let mut b = board(&[(Some(W), "K", "h2"), (Some(W), "R", "d1"), (Some(B), "K", "c6"), (n, "R", "d4")], W);
    b.circe = mysl_problems::board::Circe::Plain;
    assert!(texts_from(&mut b, "d1").iter().all(|t| !t.contains("d4")), "the rebirth on h8 would check h2");
    // In a problem: Condition Circe with neutral pieces is supported.
    let text =
        "BeginProblem\nPieces White Kg1 Rd1 Black Kc6 Rd8 Neutral Rd4\nCondition Circe\nStipulation h#1\nEndProblem\n";
    assert!(solve(text).is_ok());
}

/// A tiny xorshift generator, so the random boards are the same on every run.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
fn neutral_play_is_colour_symmetric_and_make_unmake_restores() {
    // Neutral pieces are stored as white between moves; the rules must not see that. On random
    // boards, the position with colours swapped and the board mirrored (a1 <-> a8; neutral
    // pieces stay neutral, the other side to move) has exactly the mirrored legal moves, and
    // every move made and taken back restores the key and the neutral squares.
    let mirror = |s: u8| (7 - s / 8) * 8 + s % 8;
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let codes = ["Q", "R", "B", "S", "P"];
    let mut tested = 0;
    for _ in 0..400 {
        let mut used = [false; 64];
        let mut pick = |seed: &mut u64, pawn: bool| loop {
            let s = (next(seed) % 64) as u8;
            if !used[s as usize] && !(pawn && (s / 8 == 0 || s / 8 == 7)) {
                used[s as usize] = true;
                return s;
            }
        };
        let mut pieces: Vec<(Option<Color>, &str, u8)> =
            vec![(Some(W), "K", pick(&mut seed, false)), (Some(B), "K", pick(&mut seed, false))];
        for i in 0..(3 + next(&mut seed) % 5) {
            let code = codes[(next(&mut seed) % 5) as usize];
            let colour = match i % 3 {
                0 => None,
                1 => Some(W),
                _ => Some(B),
            };
            pieces.push((colour, code, pick(&mut seed, code == "P")));
        }
        let build = |flip: bool| {
            let mut b = Board::empty();
            for &(c, code, s) in &pieces {
                let (c, s) = if flip { (c.map(|c| !c), mirror(s)) } else { (c, s) };
                b.put(s, Piece { color: c.unwrap_or(W), kind: kind_by_code(code).expect("kind") });
                if c.is_none() {
                    b.neutral.set(mysl_core::Square::from_index(s as u32));
                }
            }
            b.side = if flip { B } else { W };
            b
        };
        let mut a = build(false);
        let mut m = build(true);
        // Skip illegal diagrams (the side not to move in check).
        if a.in_check(B) || m.in_check(W) {
            continue;
        }
        tested += 1;
        let key = |mv: &Move| (mv.from, mv.to, format!("{:?}", mv.special));
        let mut la: Vec<_> = a.legal_moves().iter().map(key).collect();
        let mut lm: Vec<_> =
            m.legal_moves().iter().map(|mv| (mirror(mv.from), mirror(mv.to), format!("{:?}", mv.special))).collect();
        // En passant and double steps carry squares; none arise without a previous move except
        // Double, which has none.
        la.sort();
        lm.sort();
        assert_eq!(la, lm, "{pieces:?}");
        let (k0, n0) = (a.key(), a.neutral);
        for mv in a.legal_moves() {
            let u = a.make(mv);
            a.unmake(mv, u);
            assert_eq!((a.key(), a.neutral), (k0, n0), "{pieces:?} {mv:?}");
        }
    }
    assert!(tested > 100, "{tested}");
}
