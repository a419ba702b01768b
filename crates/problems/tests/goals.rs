//! Goals of the last move (`+`, `x`, `00`, `ep`, `z<square>`, `~`) in help play, checked against an
//! independent oracle: mysl-core's move generator (another board, another code path) lists every
//! pair of a black move and a white reply and keeps those whose reply reaches the goal.

use std::collections::BTreeSet;

use mysl_core::moves::Move as CoreMove;
use mysl_core::types::{Color, Role, Square};
use mysl_core::Chess;
use mysl_problems::input::parse_problems;
use mysl_problems::solve::Limits;
use mysl_problems::solve_problem;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A move as (from, to, promotion letter), castling as the king's step (`e1g1`).
type Key = (String, String, char);

fn core_key(m: CoreMove) -> Key {
    let from = m.from().to_string();
    let to = if m.is_castle() {
        let file = if m.to().to_string().starts_with('h') { 'g' } else { 'c' };
        format!("{file}{}", &from[1..])
    } else {
        m.to().to_string()
    };
    let promo = match m.promotion() {
        Some(Role::Queen) => 'Q',
        Some(Role::Rook) => 'R',
        Some(Role::Bishop) => 'B',
        Some(Role::Knight) => 'S',
        _ => '-',
    };
    (from, to, promo)
}

/// Popeye's move text (`Pd7-d5`, `e5*d6`, `0-0-0`, `g7-g8=Q`) as a key; `white` for castling.
fn text_key(t: &str, white: bool) -> Key {
    let rank = if white { '1' } else { '8' };
    match t {
        "0-0" => return (format!("e{rank}"), format!("g{rank}"), '-'),
        "0-0-0" => return (format!("e{rank}"), format!("c{rank}"), '-'),
        _ => {}
    }
    let b = t.as_bytes();
    let squares: Vec<String> = (0..b.len().saturating_sub(1))
        .filter(|&i| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]))
        .map(|i| t[i..i + 2].to_string())
        .collect();
    assert!(squares.len() >= 2, "a move text with two squares: {t}");
    let promo = t.split_once('=').map_or('-', |(_, p)| p.chars().next().unwrap_or('-'));
    (squares[0].clone(), squares[1].clone(), promo)
}

#[derive(Clone, Copy, Debug)]
enum Goal {
    Check,
    Capture,
    Castling,
    EnPassant,
    Target(Square),
    Any,
}

impl Goal {
    fn spelling(self) -> String {
        match self {
            Goal::Check => "+".into(),
            Goal::Capture => "x".into(),
            Goal::Castling => "00".into(),
            Goal::EnPassant => "ep".into(),
            Goal::Target(s) => format!("z{s}"),
            Goal::Any => "~".into(),
        }
    }

    /// Does `m`, played on `pos`, reach the goal (by the oracle's own rules)?
    fn reached(self, pos: &Chess, m: CoreMove) -> bool {
        match self {
            Goal::Check => {
                let mut after = pos.clone();
                after.play(m).expect("legal");
                after.is_check()
            }
            Goal::Capture => m.is_en_passant() || (!m.is_castle() && pos.board().role_at(m.to()).is_some()),
            Goal::Castling => m.is_castle(),
            Goal::EnPassant => m.is_en_passant(),
            Goal::Target(s) => core_key(m).1 == s.to_string(),
            Goal::Any => true,
        }
    }
}

/// A random position with `turn` to move and the other side not in check, as (FEN, Popeye's
/// piece list).
fn random_position(rng: &mut Lcg, turn: Color) -> Option<(String, String)> {
    let mut board: [Option<(Color, char)>; 64] = [None; 64];
    let place = |rng: &mut Lcg, board: &mut [Option<(Color, char)>; 64], c: Color, k: char, fixed: Option<u64>| {
        for _ in 0..50 {
            let s = fixed.unwrap_or_else(|| rng.next(64)) as usize;
            let pawn_ok = k != 'P' || (8..56).contains(&s);
            if board[s].is_none() && pawn_ok {
                board[s] = Some((c, k));
                return;
            }
            if fixed.is_some() {
                return;
            }
        }
    };
    // Kings and rooks on their home squares half the time (castling), pawns side by side on the
    // fifth and seventh ranks now and then (en passant).
    let home = rng.next(2) == 0;
    place(rng, &mut board, Color::White, 'K', home.then_some(4));
    let home = rng.next(2) == 0;
    place(rng, &mut board, Color::Black, 'K', home.then_some(60));
    for (c, corners) in [(Color::White, [0u64, 7]), (Color::Black, [56, 63])] {
        for corner in corners {
            if rng.next(2) == 0 {
                place(rng, &mut board, c, 'R', Some(corner));
            }
        }
    }
    if rng.next(2) == 0 {
        let f = rng.next(8);
        let g = if f == 0 {
            1
        } else if f == 7 {
            6
        } else if rng.next(2) == 0 {
            f - 1
        } else {
            f + 1
        };
        place(rng, &mut board, Color::White, 'P', Some(32 + f));
        place(rng, &mut board, Color::Black, 'P', Some(48 + g));
    }
    for c in [Color::White, Color::Black] {
        for _ in 0..rng.next(4) {
            let k = ['Q', 'R', 'B', 'S', 'P', 'P'][rng.next(6) as usize];
            place(rng, &mut board, c, k, None);
        }
    }
    if board.iter().flatten().filter(|p| p.1 == 'K').count() != 2 {
        return None;
    }
    // FEN (castling rights as Popeye assumes them: king and rook on their squares).
    let mut rows = Vec::new();
    for r in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..8 {
            match board[r * 8 + f] {
                None => empty += 1,
                Some((c, k)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let l = if k == 'S' { 'N' } else { k };
                    row.push(if c == Color::White { l } else { l.to_ascii_lowercase() });
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let is = |s: usize, c: Color, k: char| board[s] == Some((c, k));
    let mut castling = String::new();
    if is(4, Color::White, 'K') {
        if is(7, Color::White, 'R') {
            castling.push('K');
        }
        if is(0, Color::White, 'R') {
            castling.push('Q');
        }
    }
    if is(60, Color::Black, 'K') {
        if is(63, Color::Black, 'R') {
            castling.push('k');
        }
        if is(56, Color::Black, 'R') {
            castling.push('q');
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let placement = rows.join("/");
    // The side not to move must not stand in check.
    let (us, them) = if turn == Color::White { ("w", "b") } else { ("b", "w") };
    let other = Chess::from_fen(&format!("{placement} {them} {castling} - 0 1")).ok()?;
    let pos = Chess::from_fen(&format!("{placement} {us} {castling} - 0 1")).ok()?;
    if other.is_check() || pos.legal_moves().is_empty() {
        return None;
    }
    let mut pieces = String::new();
    for (c, name) in [(Color::White, "White"), (Color::Black, "Black")] {
        pieces.push_str(name);
        for (s, p) in board.iter().enumerate() {
            if let Some((pc, k)) = p {
                if *pc == c {
                    pieces.push_str(&format!(" {k}{}", Square::from_index(s as u32)));
                }
            }
        }
        pieces.push(' ');
    }
    Some((format!("{placement} {us} {castling} - 0 1"), pieces))
}

/// The oracle: every (black move, white reply reaching the goal).
fn oracle(fen: &str, goal: Goal) -> BTreeSet<(Key, Key)> {
    let pos = Chess::from_fen(fen).expect("fen");
    let mut out = BTreeSet::new();
    for b in pos.legal_moves().iter() {
        let mut after = pos.clone();
        after.play(b).expect("legal");
        for w in after.legal_moves().iter() {
            if goal.reached(&after, w) {
                out.insert((core_key(b), core_key(w)));
            }
        }
    }
    out
}

/// The solutions of `stipulation` as pairs of (first, second) move keys; `first_white`: the
/// side of the first move (castling texts name no side).
fn solution_pairs(pieces: &str, stipulation: &str, first_white: bool) -> BTreeSet<(Key, Key)> {
    let text = format!("BeginProblem\nPieces {pieces}\nStipulation {stipulation}\nEndProblem\n");
    let p = parse_problems(&text).remove(0).unwrap_or_else(|e| panic!("{text}: {e}"));
    let r = solve_problem(&p, &Limits { threads: 1, ..Limits::default() }).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let mut out = BTreeSet::new();
    for line in &r.twins[0].lines {
        let Some(rest) = line.strip_prefix("1.") else { continue };
        // The move texts, without the marks (`+`, `ep.`, `x`, `z`).
        let t: Vec<&str> = rest.split_whitespace().filter(|w| w.bytes().any(|c| c.is_ascii_digit())).collect();
        assert_eq!(t.len(), 2, "a line of two moves: {line}");
        out.insert((text_key(t[0], first_white), text_key(t[1], !first_white)));
    }
    out
}

fn solver(pieces: &str, goal: Goal) -> BTreeSet<(Key, Key)> {
    solution_pairs(pieces, &format!("h{}1", goal.spelling()), false)
}

#[test]
fn help_goals_of_the_last_move_match_an_independent_move_generator() {
    let seed = 20261130u64;
    let mut rng = Lcg(seed);
    let mut positions = 0;
    let mut solutions = [0usize; 6];
    while positions < 60 {
        let Some((fen, pieces)) = random_position(&mut rng, Color::Black) else { continue };
        positions += 1;
        let target = Square::from_index(rng.next(64) as u32);
        let goals = [Goal::Check, Goal::Capture, Goal::Castling, Goal::EnPassant, Goal::Target(target), Goal::Any];
        for (i, goal) in goals.into_iter().enumerate() {
            let want = oracle(&fen, goal);
            let got = solver(&pieces, goal);
            assert_eq!(
                got,
                want,
                "seed {seed}, position {positions} ({fen}, Popeye `{pieces}`), goal {}: solver-only {:?}, oracle-only {:?}",
                goal.spelling(),
                got.difference(&want).collect::<Vec<_>>(),
                want.difference(&got).collect::<Vec<_>>()
            );
            solutions[i] += want.len();
        }
    }
    eprintln!("solutions per goal (+ x 00 ep z ~): {solutions:?}");
    // The positions exercise every goal (castling and en passant included).
    assert!(solutions.iter().all(|&n| n > 0), "{solutions:?}");
}

/// The marks Popeye prints at the goal move: ` x` and ` z` after a check, the check goal's ` +`
/// even on a mating move, none for castling, en passant and any move.
#[test]
fn goal_marks_follow_popeye() {
    let solve = |stip: &str, pieces: &str| -> Vec<String> {
        let text = format!("BeginProblem\nPieces {pieces}\nStipulation {stip}\nEndProblem\n");
        let p = parse_problems(&text).remove(0).expect("parses");
        let r = solve_problem(&p, &Limits { threads: 1, ..Limits::default() }).expect("solves");
        r.twins[0].lines.clone()
    };
    let pieces = "White Ke1 Rh1 Ra1 Pe5 Black Ke8 Pd7 Rh8 Sb8";
    assert_eq!(solve("x1", pieces), vec!["1.Rh1*h8 + x !"]);
    assert_eq!(solve("hzd61", pieces), vec!["1.d7-d6 e5*d6 z", "1.d7-d5 e5*d6 ep. z"]);
    assert_eq!(solve("hep1", pieces), vec!["1.d7-d5 e5*d6 ep."]);
    assert!(solve("h001", pieces).contains(&"1.0-0 0-0-0".to_string()));
    // A mate reaching the check goal is marked `+`; the same move in a #1 is `#`.
    let mate = "White Kg6 Ra1 Black Kg8";
    assert_eq!(solve("+1", mate).iter().filter(|l| l.contains("Ra1-a8")).collect::<Vec<_>>(), vec!["1.Ra1-a8 + !"]);
    assert_eq!(solve("#1", mate), vec!["1.Ra1-a8 # !"]);
}

/// ser-r: both sides must reach the goal when they can. In `ser-r+1` White has no solution if one
/// of its moves gives check; otherwise every White move after which Black can check is one, with
/// each checking Black reply. The oracle plays it out with mysl-core.
#[test]
fn series_reflex_obliges_both_sides() {
    let seed = 20261131u64;
    let mut rng = Lcg(seed);
    let (mut positions, mut blocked, mut solutions) = (0, 0, 0);
    while positions < 80 {
        let Some((fen, pieces)) = random_position(&mut rng, Color::White) else { continue };
        positions += 1;
        let pos = Chess::from_fen(&fen).expect("fen");
        let gives_check = |p: &Chess, m: CoreMove| {
            let mut a = p.clone();
            a.play(m).expect("legal");
            a.is_check()
        };
        let mut want = BTreeSet::new();
        if pos.legal_moves().iter().any(|m| gives_check(&pos, m)) {
            blocked += 1;
        } else {
            for w in pos.legal_moves().iter() {
                let mut after = pos.clone();
                after.play(w).expect("legal");
                for b in after.legal_moves().iter() {
                    if gives_check(&after, b) {
                        want.insert((core_key(w), core_key(b)));
                    }
                }
            }
        }
        let got = solution_pairs(&pieces, "ser-r+1", true);
        assert_eq!(got, want, "seed {seed}, position {positions}: {fen} (`{pieces}`)");
        solutions += want.len();
    }
    eprintln!("{positions} positions, {blocked} with a White check, {solutions} solutions");
    assert!(blocked > 0 && solutions > 0);
}
