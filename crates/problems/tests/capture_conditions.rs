//! Conditions that change which moves a piece has (DangerCirce) or what it may capture
//! (BiCaptures, CASTInverse): hand-checked moves and checks on constructed positions, small
//! problems solved, and random h#2 positions whose solver lines equal a plain enumeration of the
//! legal moves (which fails if an orthodox shortcut of the search stays on).

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

fn piece(c: Color, code: &str) -> Piece {
    Piece { color: c, kind: kind_by_code(code).expect("kind") }
}

fn board(pieces: &[(Color, &str, &str)]) -> Board {
    let mut b = Board::empty();
    for &(c, code, s) in pieces {
        b.put(sq(s), piece(c, code));
    }
    b
}

/// Popeye texts of the legal moves of the piece on `from`, sorted.
fn piece_texts(b: &mut Board, from: &str) -> Vec<String> {
    let moves: Vec<Move> = b.legal_moves().into_iter().filter(|m| m.from == sq(from)).collect();
    let mut v: Vec<String> = moves.into_iter().map(|m| move_text(b, Goal::Mate, m, true)).collect();
    v.sort();
    v
}

fn solve_lines(text: &str) -> Vec<String> {
    let p = parse_problems(text).remove(0).expect("parsed");
    let r = solve_problem(&p, &Limits::default()).expect("supported");
    let mut lines = r.twins[0].lines.clone();
    lines.sort();
    lines
}

/// Every line of `plies` legal half moves from `b` that ends in mate, written as the solver
/// writes help play.
fn naive_help_lines(b: &mut Board, plies: u32) -> Vec<String> {
    fn walk(b: &mut Board, plies: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
        for m in b.legal_moves() {
            let u = b.make(m);
            line.push(m);
            if plies == 1 {
                if b.is_mate() {
                    out.push(line.clone());
                }
            } else {
                walk(b, plies - 1, line, out);
            }
            line.pop();
            b.unmake(m, u);
        }
    }
    let mut lines = Vec::new();
    walk(b, plies, &mut Vec::new(), &mut lines);
    let mut out = Vec::new();
    for line in lines {
        let mut text = String::new();
        let mut undo = Vec::new();
        for (i, &m) in line.iter().enumerate() {
            let t = move_text(b, Goal::Mate, m, i + 1 == line.len());
            if i % 2 == 0 {
                text.push_str(&format!("{}{}.{t}", if i > 0 { " " } else { "" }, i / 2 + 1));
            } else {
                text.push_str(&format!(" {t}"));
            }
            undo.push((m, b.make(m)));
        }
        while let Some((m, u)) = undo.pop() {
            b.unmake(m, u);
        }
        out.push(text);
    }
    out
}

/// Random small positions (orthodox pieces) under `cond`: the solver's h#2 lines equal those
/// of a plain enumeration of the legal moves. `set` switches the condition on a bare board.
/// Returns how many positions had lines and how many lines `special` picked out.
fn random_h2_match_enumeration(cond: &str, set: fn(&mut Board), special: fn(&str) -> bool) -> (u32, usize) {
    random_h2_sized(cond, set, special, 4, 25)
}

/// [`random_h2_match_enumeration`] with `per_side` pieces a side (kings included) and `count`
/// positions.
fn random_h2_sized(
    cond: &str,
    set: fn(&mut Board),
    special: fn(&str) -> bool,
    per_side: usize,
    count: u32,
) -> (u32, usize) {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ cond.len() as u64;
    let mut rnd = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let names = ["K", "Q", "R", "B", "S", "P"];
    let (mut tried, mut with_lines, mut special_lines) = (0, 0, 0);
    while tried < count {
        let mut used = Vec::new();
        let mut white = Vec::new();
        let mut black = Vec::new();
        let mut ok = true;
        for i in 0..2 * per_side {
            let s = rnd(64) as u8;
            let kind = if i == 0 || i == per_side { "K" } else { names[1 + rnd(5) as usize] };
            if used.contains(&s) || (kind == "P" && !(8..56).contains(&s)) {
                ok = false;
                break;
            }
            used.push(s);
            let text = format!("{kind}{}", mysl_problems::board::square_name(s));
            if i < per_side {
                white.push(text);
            } else {
                black.push(text);
            }
        }
        if !ok {
            continue;
        }
        let text = format!(
            "BeginProblem\nstip h#2\npieces white {} black {}\ncond {cond}\nEndProblem\n",
            white.join(" "),
            black.join(" ")
        );
        let p = parse_problems(&text).remove(0).expect("parsed");
        let limits = Limits { hash_entries: 1 << 12, threads: 1, ..Limits::default() };
        let Ok(r) = solve_problem(&p, &limits) else { continue };
        let mut b = p.board.clone();
        set(&mut b);
        b.castling = b.default_castling();
        b.side = B;
        if b.in_check(W) {
            continue;
        }
        // Shorter solutions (1.X Y #) would be printed as well: leave such positions out.
        if !naive_help_lines(&mut b, 2).is_empty() {
            continue;
        }
        tried += 1;
        let mut naive = naive_help_lines(&mut b, 4);
        naive.sort();
        let mut got = r.twins[0].lines.clone();
        got.sort();
        assert_eq!(got, naive, "{text}");
        with_lines += !naive.is_empty() as u32;
        special_lines += naive.iter().filter(|l| special(l)).count();
    }
    eprintln!("{cond}: {with_lines} positions with h#2 lines, {special_lines} special lines");
    (with_lines, special_lines)
}

// ----------------------------------------------------------------------------------- DangerCirce

#[test]
fn danger_circe_observed_pieces_also_go_to_their_rebirth_square() {
    // Pc4 is observed by Pd5 (c4-c2), Pg5 by Se6 (g5*g2, taking the black pawn on its rebirth
    // square), Bh6 (dark) by Sg8 (h6-c1); Pf3 is not observed (no f3-f2), and Pb4, observed by
    // Pa5, has its own Pb2 on its rebirth square.
    let mut b = board(&[
        (W, "K", "a1"),
        (W, "P", "c4"),
        (W, "P", "f3"),
        (W, "P", "g5"),
        (W, "B", "h6"),
        (W, "P", "b4"),
        (W, "P", "b2"),
        (B, "K", "h8"),
        (B, "P", "d5"),
        (B, "S", "e6"),
        (B, "P", "g2"),
        (B, "S", "g8"),
        (B, "P", "a5"),
    ]);
    b.danger_circe = true;
    assert_eq!(piece_texts(&mut b, "c4"), ["c4*d5", "c4-c2", "c4-c5"]);
    assert_eq!(piece_texts(&mut b, "f3"), ["f3-f4"]);
    assert_eq!(piece_texts(&mut b, "g5"), ["g5*g2", "g5-g6"]);
    assert!(piece_texts(&mut b, "h6").contains(&"Bh6-c1".to_string()));
    assert_eq!(piece_texts(&mut b, "b4"), ["b4*a5", "b4-b5"]);
    // Black's pieces likewise: Pd5, observed by Pc4, goes home to d7; Sg8 is not observed (Bh6
    // sees g7 and f8).
    b.side = B;
    assert_eq!(piece_texts(&mut b, "d5"), ["d5*c4", "d5-d4", "d5-d7"]);
    assert!(!piece_texts(&mut b, "g8").iter().any(|t| t.ends_with("b8") || t.ends_with("g8")));
    // Without the condition: none of these moves.
    b.danger_circe = false;
    assert_eq!(piece_texts(&mut b, "d5"), ["d5*c4", "d5-d4"]);
}

#[test]
fn danger_circe_checks_include_a_capture_by_a_rebirth_move() {
    // Qa8 (rebirth d1) is observed by Rb8: it could take the king on d1, so Black is in check;
    // without the observer, or with the king elsewhere, not.
    let mut b = board(&[(W, "K", "h3"), (W, "Q", "a8"), (B, "K", "d1"), (B, "R", "b8")]);
    b.danger_circe = true;
    assert!(b.in_check(B));
    b.danger_circe = false;
    assert!(!b.in_check(B));
    let mut b = board(&[(W, "K", "h3"), (W, "Q", "a8"), (B, "K", "d1"), (B, "R", "b7")]);
    b.danger_circe = true;
    assert!(!b.in_check(B));
    // A move into such a check is illegal: Kd2-d1 with Qa8 observed.
    let mut b = board(&[(W, "K", "h3"), (W, "Q", "a8"), (B, "K", "d2"), (B, "R", "b8")]);
    b.danger_circe = true;
    b.side = B;
    assert!(!piece_texts(&mut b, "d2").contains(&"Kd2-d1".to_string()));
    assert!(piece_texts(&mut b, "d2").contains(&"Kd2-c1".to_string()));
}

#[test]
fn danger_circe_mate_by_a_rebirth_move() {
    // Rg7 (dark square: rebirth a1), observed by Se8, goes to a1 and mates Kh1 (Ph2, Kf2 guards
    // g1 and g2; the king's own rebirth square e8 is taken by its knight, so it cannot jump
    // there). Rg1 is cut off by Pg4. Orthodox: no mate in one.
    let p = "BeginProblem\nstip #1\npieces white Kf2 Rg7 black Kh1 Se8 Pg4h2\ncondition DangerCirce\nEndProblem\n";
    assert_eq!(solve_lines(p), ["1.Rg7-a1 # !"]);
    assert!(solve_lines(&p.replace("condition DangerCirce\n", "")).is_empty());
    // The observer on f5 instead: the king's rebirth square is free, 1...Kh1-e8 escapes.
    assert!(solve_lines(&p.replace(" Se8", " Sf5")).is_empty());
}

#[test]
fn danger_circe_input() {
    let p = parse_problems("BeginProblem\nstip #1\npieces white Kh4 black Kd1\ncondition danger\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(p.conditions.danger_circe);
    assert_eq!(p.conditions.names(), ["DangerCirce"]);
    // With another condition: refused.
    let p = parse_problems(
        "BeginProblem\nstip #1\npieces white Kh4 black Kd1\ncondition DangerCirce Madrasi\nEndProblem\n",
    )
    .remove(0)
    .expect("parsed");
    assert!(matches!(solve_problem(&p, &Limits::default()), Err(SolveError::Unsupported(_))));
}

#[test]
fn danger_circe_h2_match_plain_enumeration() {
    let (with, special) = random_h2_match_enumeration("DangerCirce", |b| b.danger_circe = true, |_| true);
    assert!(with > 3 && special > 0, "{with} {special}");
}

// ------------------------------------------------------------------------------------ BiCaptures

#[test]
fn bicaptures_pieces_also_capture_their_own_pieces_but_not_the_king() {
    let mut b = board(&[
        (W, "K", "h1"),
        (W, "R", "d1"),
        (W, "P", "d3"),
        (W, "S", "b2"),
        (W, "P", "g7"),
        (W, "B", "h8"),
        (B, "K", "a8"),
        (B, "P", "a7"),
    ]);
    b.bicaptures = true;
    let rook = piece_texts(&mut b, "d1");
    assert!(rook.contains(&"Rd1*d3".to_string()) && rook.contains(&"Rd1-g1".to_string()), "{rook:?}");
    assert!(!rook.iter().any(|t| t.contains("h1")), "the own king is not taken: {rook:?}");
    let knight = piece_texts(&mut b, "b2");
    assert!(knight.contains(&"Sb2*d1".to_string()) && knight.contains(&"Sb2*d3".to_string()), "{knight:?}");
    // A pawn takes its own piece diagonally forward, promoting on its last rank.
    let pawn = piece_texts(&mut b, "g7");
    assert_eq!(pawn.iter().filter(|t| t.starts_with("g7*h8=")).count(), 4, "{pawn:?}");
    // Black likewise: the king takes its own pawn.
    b.side = B;
    assert!(piece_texts(&mut b, "a8").contains(&"Ka8*a7".to_string()));
    // Make and unmake restore the board.
    let before = format!("{:?}", b.pieces().collect::<Vec<_>>());
    let m = b.legal_moves().into_iter().find(|m| m.from == sq("a8") && m.to == sq("a7")).expect("Kxa7");
    let u = b.make(m);
    assert_eq!(b.piece_at(sq("a7")), Some(piece(B, "K")));
    b.unmake(m, u);
    assert_eq!(format!("{:?}", b.pieces().collect::<Vec<_>>()), before);
    // Without the condition: no such captures.
    b.bicaptures = false;
    b.side = W;
    assert!(!piece_texts(&mut b, "d1").contains(&"Rd1*d3".to_string()));
}

#[test]
fn bicaptures_king_escapes_by_taking_its_own_pawn() {
    // Orthodox, 1.Ra1-a8 mates Kh8 behind Pg7 h7; with BiCaptures the king takes g7 or h7,
    // unless bishops b2 and d3 guard both squares.
    let p = "BeginProblem\nstip #1\npieces white Kc1 Ra1 black Kh8 Pg7h7\ncondition BiCaptures\nEndProblem\n";
    assert!(solve_lines(&p.replace("condition BiCaptures\n", "")).contains(&"1.Ra1-a8 # !".to_string()));
    assert!(!solve_lines(p).iter().any(|l| l.starts_with("1.Ra1-a8")), "{:?}", solve_lines(p));
    let guarded = p.replace("Ra1 ", "Ra1 Bb2d3 ");
    assert!(solve_lines(&guarded).contains(&"1.Ra1-a8 # !".to_string()), "{:?}", solve_lines(&guarded));
}

#[test]
fn bicaptures_input() {
    let p = parse_problems("BeginProblem\nstip #1\npieces white Kh4 black Kd1\ncondition bicaptures\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(p.conditions.bicaptures);
    assert_eq!(p.conditions.names(), ["Bicaptures"]);
    // With fairy pieces: refused.
    let p = parse_problems("BeginProblem\nstip #1\npieces white Kh4 Gd4 black Kd1\ncondition bicaptures\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(matches!(solve_problem(&p, &Limits::default()), Err(SolveError::Unsupported(_))));
}

#[test]
fn bicaptures_h2_match_plain_enumeration() {
    // Lines with a capture of an own piece cannot be told from the text; any capture counts.
    let (with, special) = random_h2_match_enumeration("BiCaptures", |b| b.bicaptures = true, |l| l.contains('*'));
    assert!(with > 3 && special > 0, "{with} {special}");
}

// ----------------------------------------------------------------------------------- CASTInverse

#[test]
fn cast_inverse_a_piece_captures_only_with_two_captures() {
    // Rd1 takes d5 and a1, both; without a1 it takes nothing.
    let mut b = board(&[(W, "K", "h2"), (W, "R", "d1"), (B, "K", "h8"), (B, "P", "d5"), (B, "S", "a1")]);
    b.cast_inverse = true;
    let rook = piece_texts(&mut b, "d1");
    assert!(rook.contains(&"Rd1*d5".to_string()) && rook.contains(&"Rd1*a1".to_string()), "{rook:?}");
    b.clear(sq("a1"));
    let rook = piece_texts(&mut b, "d1");
    assert!(!rook.iter().any(|t| t.contains('*')), "{rook:?}");
    assert!(rook.contains(&"Rd1-d4".to_string()));
    // A pawn's promotions on one square are one capture: b7*a8 needs a second target (c8).
    let mut b = board(&[(W, "K", "h2"), (W, "P", "b7"), (B, "K", "h8"), (B, "R", "a8")]);
    b.cast_inverse = true;
    assert!(!piece_texts(&mut b, "b7").iter().any(|t| t.contains('*')));
    b.put(sq("c8"), piece(B, "B"));
    assert_eq!(piece_texts(&mut b, "b7").iter().filter(|t| t.contains('*')).count(), 8);
}

#[test]
fn cast_inverse_checks_need_a_second_capture() {
    // Kd4 next to Kd5 checks only with a second piece to take (Pe5).
    let mut b = board(&[(W, "K", "d4"), (B, "K", "d5")]);
    b.cast_inverse = true;
    assert!(!b.in_check(B) && !b.in_check(W));
    b.put(sq("e5"), piece(B, "P"));
    assert!(b.in_check(B));
    // 1.Rd1-d8 mates Kh8 behind Pg7 h7 only if the rook can take a8 too (so g8 is guarded as
    // well; the bishop a8, shut in by Pb7, cannot step away); orthodox it mates either way.
    let p =
        "BeginProblem\nstip #1\npieces white Kb1 Rd1 black Kh8 Ba8 Pb7g7h7\ncondition CASTchess inverse\nEndProblem\n";
    assert!(solve_lines(p).contains(&"1.Rd1-d8 # !".to_string()), "{:?}", solve_lines(p));
    // A knight on a8 steps away (no second capture: no check).
    let knight = p.replace(" Ba8", " Sa8");
    assert!(!solve_lines(&knight).iter().any(|l| l.starts_with("1.Rd1-d8")), "{:?}", solve_lines(&knight));
    let alone = p.replace(" Ba8", "");
    assert!(!solve_lines(&alone).iter().any(|l| l.starts_with("1.Rd1-d8")), "{:?}", solve_lines(&alone));
    assert!(solve_lines(&alone.replace("condition CASTchess inverse\n", "")).contains(&"1.Rd1-d8 # !".to_string()));
}

#[test]
fn cast_inverse_input() {
    for cond in ["CASTchess inverse", "castinverse"] {
        let text = format!("BeginProblem\nstip #1\npieces white Kh4 black Kd1\ncondition {cond}\nEndProblem\n");
        let p = parse_problems(&text).remove(0).expect("parsed");
        assert!(p.conditions.cast_inverse, "{cond}");
        assert_eq!(p.conditions.names(), ["CASTInverse"]);
    }
    // Plain CASTChess: not supported.
    let p = parse_problems("BeginProblem\nstip #1\npieces white Kh4 black Kd1\ncondition CASTchess\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(!p.unsupported.is_empty() || solve_problem(&p, &Limits::default()).is_err());
    // With castling rights: refused.
    let p =
        parse_problems("BeginProblem\nstip #1\npieces white Ke1 Rh1 black Kd8\ncondition castinverse\nEndProblem\n")
            .remove(0)
            .expect("parsed");
    assert!(matches!(solve_problem(&p, &Limits::default()), Err(SolveError::Unsupported(_))));
}

#[test]
fn cast_inverse_h2_match_plain_enumeration() {
    let (with, special) =
        random_h2_match_enumeration("CASTchess inverse", |b| b.cast_inverse = true, |l| l.contains('*'));
    assert!(with > 3 && special > 0, "{with} {special}");
}

// ------------------------------------------------------------------------------------ AllInChess

/// The legal move of the piece on `from` to `to` (panics if there is none).
fn find(b: &mut Board, from: &str, to: &str) -> Move {
    b.legal_moves()
        .into_iter()
        .find(|m| m.from == sq(from) && m.to == sq(to))
        .unwrap_or_else(|| panic!("no move {from}-{to}"))
}

#[test]
fn all_in_chess_either_side_moves_both_colours_but_takes_no_king() {
    // White to move: its own rook, and Black's rook (which takes white pieces: Pd2) and pawn
    // (which goes down).
    let mut b =
        board(&[(W, "K", "h1"), (W, "R", "b4"), (W, "P", "d2"), (B, "K", "a8"), (B, "R", "d5"), (B, "P", "f5")]);
    b.all_in_chess = true;
    assert!(piece_texts(&mut b, "b4").contains(&"Rb4-c4".to_string()));
    let rook = piece_texts(&mut b, "d5");
    assert!(rook.contains(&"Rd5*d2".to_string()) && rook.contains(&"Rd5-a5".to_string()), "{rook:?}");
    assert_eq!(piece_texts(&mut b, "f5"), ["f5-f4"]);
    // Black's king too (into the rook's line: a check, and legal, as only the mover's king
    // counts).
    assert!(piece_texts(&mut b, "a8").contains(&"Ka8-b8 +".to_string()));
    // No piece takes a king: with the black rook on the white king's file, White may not move
    // it onto h1, nor Black the white rook onto a8.
    let mut b = board(&[(W, "K", "h1"), (W, "R", "a4"), (B, "K", "a8"), (B, "R", "h5")]);
    b.all_in_chess = true;
    assert!(!piece_texts(&mut b, "h5").iter().any(|t| t.contains("h1")));
    b.side = B;
    b.put(sq("h5"), piece(B, "P"));
    assert!(!piece_texts(&mut b, "a4").iter().any(|t| t.contains("a8")));
    // Without the condition: only White's own pieces.
    b.all_in_chess = false;
    b.side = W;
    assert!(piece_texts(&mut b, "h5").is_empty());
}

#[test]
fn all_in_chess_no_move_undoes_the_last_one() {
    let pieces = [(W, "K", "h1"), (W, "P", "g2"), (W, "R", "d1"), (B, "K", "a8"), (B, "P", "d5")];
    // 1.g2-g3 Ka8-b8: White may not move the king back to a8, but may play Kb8-a7.
    let mut b = board(&pieces);
    b.all_in_chess = true;
    let m = find(&mut b, "g2", "g3");
    b.make(m);
    let m = find(&mut b, "a8", "b8");
    let u = b.make(m);
    let t = piece_texts(&mut b, "b8");
    assert!(!t.contains(&"Kb8-a8".to_string()) && t.contains(&"Kb8-a7".to_string()), "{t:?}");
    let key = b.key();
    b.unmake(m, u);
    // The same position after 1.g2-g3 Ka8-b8 is another key from one where a8 is free to go back
    // to: after 1.g2-g4 (a double step) Ka8-b8, Kb8-a8 repeats no position (the en-passant
    // right is gone) and is legal.
    let mut b = board(&pieces);
    b.all_in_chess = true;
    let m = find(&mut b, "g2", "g4");
    b.make(m);
    let m = find(&mut b, "a8", "b8");
    b.make(m);
    assert!(piece_texts(&mut b, "b8").contains(&"Kb8-a8".to_string()));
    assert_ne!(b.key(), key);
    // A capture may be taken back: 1.Rd1*d5, then Black moves the rook back to d1.
    let mut b = board(&pieces);
    b.all_in_chess = true;
    let m = find(&mut b, "d1", "d5");
    b.make(m);
    assert!(piece_texts(&mut b, "d5").contains(&"Rd5-d1".to_string()));
    // A null move (threats, series) lifts the ban: 1.Rd1-d2, pass, then Rd2-d1 is legal.
    let mut b = board(&pieces);
    b.all_in_chess = true;
    let m = find(&mut b, "d1", "d2");
    b.make(m);
    assert!(!piece_texts(&mut b, "d2").contains(&"Rd2-d1".to_string()));
    let ep = b.make_null();
    b.side = B;
    b.unmake_null(ep);
    let ep = b.make_null();
    assert!(piece_texts(&mut b, "d2").contains(&"Rd2-d1".to_string()));
    b.unmake_null(ep);
    assert!(!piece_texts(&mut b, "d2").contains(&"Rd2-d1".to_string()));
}

#[test]
fn all_in_chess_mate_because_the_king_may_not_go_back() {
    // White moves the black king b1-a1 into the bishop's check: b2 is on the bishop's line, a2
    // guarded by Sc1, and Ka1-b1 would undo White's move. The bishop in its corner has no move
    // off the diagonal, and no piece of either colour reaches it. Orthodox: no such move.
    let p = "BeginProblem\nstip #1\npieces white Kh1 Bh8 Sc1 black Kb1\ncondition AllInChess\nEndProblem\n";
    assert!(solve_lines(p).contains(&"1.Kb1-a1 # !".to_string()), "{:?}", solve_lines(p));
    let mut b = board(&[(W, "K", "h1"), (W, "B", "h8"), (W, "S", "c1"), (B, "K", "b1")]);
    b.all_in_chess = true;
    let m = find(&mut b, "b1", "a1");
    b.make(m);
    assert!(b.is_mate());
}

#[test]
fn all_in_chess_input() {
    let p = parse_problems("BeginProblem\nstip #1\npieces white Kh4 black Kd1\ncondition AllInChess\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(p.conditions.all_in_chess);
    assert_eq!(p.conditions.names(), ["AllInChess"]);
    // With castling rights: refused.
    let p = parse_problems("BeginProblem\nstip #1\npieces white Ke1 Rh1 black Kd8\ncondition AllInChess\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(matches!(solve_problem(&p, &Limits::default()), Err(SolveError::Unsupported(_))));
}

#[test]
fn all_in_chess_h2_match_plain_enumeration() {
    // Either side moves every piece: few pieces, or the plain enumeration takes minutes.
    let (with, special) = random_h2_sized("AllInChess", |b| b.all_in_chess = true, |_| true, 3, 10);
    assert!(with > 3 && special > 0, "{with} {special}");
}

// -------------------------------------------------------------------------------- FrankfurtChess

#[test]
fn frankfurt_a_capturer_takes_the_captured_walk() {
    // Rd1*d5 leaves a white knight on d5; unmake brings rook and knight back.
    let mut b = board(&[(W, "K", "a1"), (W, "R", "d1"), (B, "K", "h8"), (B, "S", "d5")]);
    b.frankfurt = true;
    let before = format!("{:?}", b.pieces().collect::<Vec<_>>());
    let key = b.key();
    assert!(piece_texts(&mut b, "d1").contains(&"Rd1*d5=S".to_string()));
    let m = find(&mut b, "d1", "d5");
    let u = b.make(m);
    assert_eq!(b.piece_at(sq("d5")), Some(piece(W, "S")));
    b.unmake(m, u);
    assert_eq!(format!("{:?}", b.pieces().collect::<Vec<_>>()), before);
    assert_eq!(b.key(), key);
    // A promotion with a capture: the pawn promotes, then takes the captured walk (Popeye's
    // order is not checked here): b7*a8=Q=R, one move per promotion kind (the rook checks h8).
    let mut b = board(&[(W, "K", "h1"), (W, "P", "b7"), (B, "K", "h8"), (B, "R", "a8")]);
    b.frankfurt = true;
    let t: Vec<String> = piece_texts(&mut b, "b7").into_iter().filter(|x| x.contains('*')).collect();
    assert_eq!(t, ["b7*a8=B=R +", "b7*a8=Q=R +", "b7*a8=R=R +", "b7*a8=S=R +"]);
}

#[test]
fn frankfurt_a_king_that_captures_becomes_a_royal_piece_of_that_walk() {
    // Ke4*d5 (a bishop): the king is now a royal bishop, checking Kg8 along d5-g8.
    let mut b = board(&[(W, "K", "e4"), (B, "B", "d5"), (B, "K", "g8"), (B, "R", "a2")]);
    b.frankfurt = true;
    assert!(piece_texts(&mut b, "e4").contains(&"Ke4*d5=rB +".to_string()));
    let m = find(&mut b, "e4", "d5");
    let u = b.make(m);
    assert_eq!(b.royal_walk[W.index()], kind_by_code("B").expect("kind"));
    assert!(b.in_check(B));
    b.unmake(m, u);
    assert_eq!(b.royal_walk[W.index()], kind_by_code("K").expect("kind"));
    assert!(!b.in_check(B));
    // The royal bishop moves as a bishop (not as a king), its capture of the rook makes it a
    // royal rook, and it is in check when attacked (Rd1).
    let mut b = board(&[(W, "K", "d5"), (B, "K", "g7"), (B, "R", "a2")]);
    b.frankfurt = true;
    b.royal_walk[W.index()] = kind_by_code("B").expect("kind");
    let t = piece_texts(&mut b, "d5");
    assert!(t.contains(&"rBd5-b7".to_string()) && t.contains(&"rBd5*a2=rR".to_string()), "{t:?}");
    // (Not onto a8, which the rook a2 guards, nor next to the black king.)
    assert!(!t.contains(&"rBd5-a8".to_string()) && !t.contains(&"rBd5-f7".to_string()), "{t:?}");
    assert!(!t.iter().any(|x| x.ends_with("d6")), "{t:?}");
    assert!(!b.in_check(W));
    b.put(sq("d1"), piece(B, "R"));
    assert!(b.in_check(W));
}

#[test]
fn frankfurt_mate_by_a_capture_that_makes_a_knight() {
    // Rd1*d7 becomes a knight checking Kf8 (e8, g8 rooks, e7 f7 g7 pawns); orthodox the rook on
    // d7 gives no check.
    let p = "BeginProblem\nstip #1\npieces white Ka1 Rd1 black Kf8 Re8g8 Sd7 Pe7f7g7\ncondition FrankfurtChess\nEndProblem\n";
    assert_eq!(solve_lines(p), ["1.Rd1*d7=S # !"]);
    assert!(solve_lines(&p.replace("condition FrankfurtChess\n", "")).is_empty());
}

#[test]
fn frankfurt_input() {
    let p = parse_problems("BeginProblem\nstip #1\npieces white Kh4 black Kd1\ncondition FrankfurtChess\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(p.conditions.frankfurt);
    assert_eq!(p.conditions.names(), ["FrankfurtChess"]);
    let p = parse_problems("BeginProblem\nstip #1\npieces white Kh4 Gd4 black Kd1\ncondition frankfurt\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(matches!(solve_problem(&p, &Limits::default()), Err(SolveError::Unsupported(_))));
}

#[test]
fn frankfurt_h2_match_plain_enumeration() {
    let (with, special) =
        random_h2_match_enumeration("FrankfurtChess", |b| b.frankfurt = true, |l| l.contains("=r") || l.contains('*'));
    assert!(with > 3 && special > 0, "{with} {special}");
}
