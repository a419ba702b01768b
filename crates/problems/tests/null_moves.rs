//! Option NullMoves (Popeye's `options/nullmoves.c`, called with `no_side` from
//! `solving/machinery/solve.c`): in help play either side may pass instead of moving, written
//! `...` (Popeye's `write_regular_move`: " ...", after the move number `1. ...`), never while in
//! check (the passing side would stay in check). No Popeye output with NullMoves was found to
//! compare with: the lines below are checked by hand.

use mysl_problems::input::parse_problems;
use mysl_problems::solve::Limits;
use mysl_problems::{solve_problem, ProblemResult, SolveError};

fn result(text: &str) -> Result<ProblemResult, SolveError> {
    let p = parse_problems(text).remove(0).expect("parsed");
    solve_problem(&p, &Limits::default())
}

fn sorted_lines(text: &str, twin: usize) -> Vec<String> {
    let mut l = result(text).expect("supported").twins.remove(twin).lines;
    l.sort();
    l
}

fn problem(stip: &str, pieces: &str, extra: &str) -> String {
    format!("BeginProblem\nstip {stip}\npieces {pieces}\n{extra}EndProblem\n")
}

// Black Ka8; White Kb6 Rh1: White's Rh1-h8 mates at once, Black's only move Ka8-b8 too.
const KR: &str = "white Kb6 Rh1 black Ka8";

#[test]
fn black_passes_in_h1() {
    assert_eq!(sorted_lines(&problem("h#1", KR, ""), 0), ["1.Ka8-b8 Rh1-h8 #"]);
    assert_eq!(sorted_lines(&problem("h#1", KR, "option nullmoves\n"), 0), ["1. ... Rh1-h8 #", "1.Ka8-b8 Rh1-h8 #"]);
    // Abbreviated as Popeye's keyword table allows.
    assert_eq!(sorted_lines(&problem("h#1", KR, "opti null\n"), 0).len(), 2);
}

#[test]
fn no_pass_in_check() {
    // The bishop on d5 checks: Black cannot pass (the king would stay in check).
    let l = sorted_lines(&problem("h#1", "white Kb6 Rh1 Bd5 black Ka8", "option nullmoves\n"), 0);
    assert_eq!(l, ["1.Ka8-b8 Rh1-h8 #"]);
}

#[test]
fn passes_of_both_sides_in_h2() {
    let with = sorted_lines(&problem("h#2", KR, "option nullmoves\n"), 0);
    let without = sorted_lines(&problem("h#2", KR, ""), 0);
    // Every line without passes is still there.
    for l in &without {
        assert!(with.contains(l), "{l} missing: {with:?}");
    }
    for l in [
        // Black passes, White moves its king, Black passes, mate (Ka6 guards a7, b7).
        "1. ... Kb6-a6 2. ... Rh1-h8 #",
        // White passes in the middle of the line.
        "1.Ka8-b8 ... 2.Kb8-a8 Rh1-h8 #",
        // Both pass: the h#1 after two passes.
        "1. ... ... 2.Ka8-b8 Rh1-h8 #",
        "1.Ka8-b8 ... 2. ... Rh1-h8 #",
        // The short solution with Black's pass (h#1 lines are shown in h#2).
        "1. ... Rh1-h8 #",
    ] {
        assert!(with.contains(&l.to_string()), "{l} missing: {with:?}");
        assert!(!without.contains(&l.to_string()));
    }
    assert!(with.iter().all(|l| !l.contains("... ... ...")), "{with:?}");
    // A pass never mates: no line ends with one.
    assert!(with.iter().all(|l| l.ends_with(" #")), "{with:?}");
    assert_eq!(with.len(), 53, "{with:?}");
}

#[test]
fn white_passes_first_in_h1_5() {
    let l = sorted_lines(&problem("h#1.5", KR, "option nullmoves\n"), 0);
    assert!(l.contains(&"1... ... 2.Ka8-b8 Rh1-h8 #".to_string()), "{l:?}");
    assert!(l.contains(&"1...Kb6-a6 2. ... Rh1-h8 #".to_string()), "{l:?}");
}

#[test]
fn twins_keep_the_option() {
    let text = problem("h#1", KR, "option nullmoves\ntwin move h1 g1\n");
    assert_eq!(sorted_lines(&text, 1), ["1. ... Rg1-g8 #", "1.Ka8-b8 Rg1-g8 #"]);
}

#[test]
fn classification_replays_passes() {
    let r = result(&problem("h#2", KR, "option nullmoves\n")).expect("supported");
    let t = &r.twins[0];
    let idx = |s: &str| t.lines.iter().position(|l| l == s).expect(s);
    // The same moves in another order, passes included: one solution, a move-order dual.
    let (a, b) = (idx("1. ... ... 2.Ka8-b8 Rh1-h8 #"), idx("1.Ka8-b8 ... 2. ... Rh1-h8 #"));
    let (ra, rb) = (t.classification.role(a), t.classification.role(b));
    assert_eq!(ra.1, rb.1, "{ra:?} {rb:?}");
    assert!(ra.0 == "move-order" || rb.0 == "move-order", "{ra:?} {rb:?}");
    // h#1 with the option: the pass differs from Ka8-b8 in one half move, a dual (a line that
    // could not be replayed would be a solution of its own, a cook).
    let r1 = result(&problem("h#1", KR, "option nullmoves\n")).expect("supported");
    let c = &r1.twins[0].classification;
    assert_eq!(c.solutions.len(), 1);
    let pass = r1.twins[0].lines.iter().position(|l| l == "1. ... Rh1-h8 #").expect("pass line");
    let other = 1 - pass;
    assert_eq!(c.role(other), ("intended", Some(0)));
    assert_eq!(c.role(pass), ("dual", Some(0)));
}

#[test]
fn other_play_not_supported_yet() {
    for stip in ["#2", "s#2", "h=1", "hs#2", "ser-s#2", "ser-=2", "pser-h#2"] {
        match result(&problem(stip, KR, "option nullmoves\n")) {
            Err(SolveError::Unsupported(s)) => assert!(s.contains("NullMoves"), "{s}"),
            other => panic!("{stip}: {:?}", other.map(|r| r.twins[0].lines.clone())),
        }
    }
}

/// Every line of exactly `plies` half moves from `b` ending in mate, passes allowed wherever the
/// side to move is not in check (the last half move included: a pass can never mate), as move
/// texts.
fn brute(b: &mut mysl_problems::board::Board, plies: u32, line: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    use mysl_problems::solve::{goal_reached, move_text};
    use mysl_problems::stipulation::Goal;
    if plies == 0 {
        if goal_reached(b, Goal::Mate) {
            out.push(line.clone());
        }
        return;
    }
    for m in b.legal_moves() {
        line.push(move_text(b, Goal::Mate, m, plies == 1));
        let u = b.make(m);
        brute(b, plies - 1, line, out);
        b.unmake(m, u);
        line.pop();
    }
    if !b.in_check(b.side) {
        let ep = b.make_null();
        line.push("...".to_string());
        brute(b, plies - 1, line, out);
        line.pop();
        b.unmake_null(ep);
    }
}

/// The solver (hash table, check-reach and flight bounds, leaf move filter) against a plain
/// enumeration with passes, on positions with some material: the same lines.
#[test]
fn same_lines_as_enumeration() {
    use mysl_problems::classify::split_line;
    for (stip, pieces, plies) in [
        ("h#2", "white Kf1 Qa1 Sb3 Pe2 black Ke4 Pd5 Bc8 Rh8", [2, 4].as_slice()),
        ("h#2", "white Kc6 Rb1 Bd3 black Ka8 Pa7b5 Sg6", &[2, 4]),
        ("h#1.5", "white Kc1 Rh3 Sf2 black Ke1 Pe2 Qa8", &[1, 3]),
    ] {
        let text = problem(stip, pieces, "option nullmoves\n");
        let p = parse_problems(&text).remove(0).expect("parsed");
        let (_, board, _) = mysl_problems::twin_positions(&p).expect("supported").remove(0);
        let mut expected = Vec::new();
        for &k in plies {
            let mut b = board.clone();
            b.side = if k % 2 == 1 { mysl_core::Color::White } else { mysl_core::Color::Black };
            brute(&mut b, k, &mut Vec::new(), &mut expected);
        }
        expected.sort();
        let mut got: Vec<Vec<String>> =
            sorted_lines(&text, 0).iter().map(|l| split_line(l).into_iter().map(|(t, _)| t).collect()).collect();
        got.sort();
        assert!(!expected.is_empty() && expected.iter().any(|l| l.contains(&"...".to_string())), "{stip} {pieces}");
        eprintln!("{stip} {pieces}: {} lines", got.len());
        assert_eq!(got, expected, "{stip} {pieces}");
    }
}

#[test]
fn set_play_with_passes() {
    // h#2 with set play: White passes first (`1...`), then 3 half moves that may hold passes.
    let l = sorted_lines(&problem("h#2", KR, "option nullmoves setplay\n"), 0);
    assert!(l.contains(&"1... ... 2. ... Rh1-h8 #".to_string()), "{l:?}");
    assert!(l.contains(&"1...Kb6-a6 2. ... Rh1-h8 #".to_string()), "{l:?}");
    let without = sorted_lines(&problem("h#2", KR, "option setplay\n"), 0);
    assert!(without.iter().all(|l| !l.contains(" ...")), "{without:?}");
}

/// Series lines of exactly `k` series moves (the series side may pass when not in check; a
/// series move before the last may not check), then for ser-h# the other side's mate, for ser-#
/// mate by the last series move; move texts, numbered like the solver's lines.
fn brute_series(
    b: &mut mysl_problems::board::Board,
    k: u32,
    help: bool,
    line: &mut Vec<String>,
    out: &mut Vec<Vec<String>>,
) {
    use mysl_problems::solve::{goal_reached, move_text};
    use mysl_problems::stipulation::Goal;
    let us = b.side;
    let step = |b: &mut mysl_problems::board::Board, line: &mut Vec<String>, out: &mut Vec<Vec<String>>| {
        // The series move was made; the other side is to move.
        if k == 1 {
            if help {
                for m in b.legal_moves() {
                    line.push(move_text(b, Goal::Mate, m, true));
                    let u = b.make(m);
                    if goal_reached(b, Goal::Mate) {
                        out.push(line.clone());
                    }
                    b.unmake(m, u);
                    line.pop();
                }
            } else if goal_reached(b, Goal::Mate) {
                out.push(line.clone());
            }
        } else if !b.in_check(!us) {
            let ep = b.make_null();
            brute_series(b, k - 1, help, line, out);
            b.unmake_null(ep);
        }
    };
    for m in b.legal_moves() {
        line.push(move_text(b, Goal::Mate, m, !help && k == 1));
        let u = b.make(m);
        step(b, line, out);
        b.unmake(m, u);
        line.pop();
    }
    if !b.in_check(us) {
        let ep = b.make_null();
        line.push("...".to_string());
        step(b, line, out);
        line.pop();
        b.unmake_null(ep);
    }
}

#[test]
fn series_passes() {
    assert_eq!(
        sorted_lines(&problem("ser-h#1", KR, "option nullmoves\n"), 0),
        ["1. ... Rh1-h8 #", "1.Ka8-b8 Rh1-h8 #"]
    );
    let l = sorted_lines(&problem("ser-#2", KR, "option nullmoves\n"), 0);
    assert!(l.contains(&"1. ... 2.Rh1-h8 #".to_string()), "{l:?}");
    assert!(l.contains(&"1.Rh1-h8 #".to_string()), "{l:?}");
    assert!(!sorted_lines(&problem("ser-#2", KR, ""), 0).iter().any(|l| l.contains("...")));
}

/// Series play against a plain enumeration with passes: the same lines.
#[test]
fn series_same_lines_as_enumeration() {
    use mysl_problems::classify::split_line;
    for (stip, pieces, n, help) in [
        ("ser-h#3", "white Kb6 Rh1 Sd3 black Ka8 Pd5 Sg6", 3, true),
        ("ser-#3", "white Kb6 Rh1 Bc1 Pe2 black Ka8 Pa7 Sd5", 3, false),
        ("ser-h#2", "white Kf1 Qa1 Sb3 Pe2 black Ke4 Pd5 Bc8 Rh8", 2, true),
    ] {
        let text = problem(stip, pieces, "option nullmoves\n");
        let p = parse_problems(&text).remove(0).expect("parsed");
        let (_, board, _) = mysl_problems::twin_positions(&p).expect("supported").remove(0);
        let mut expected = Vec::new();
        for k in 1..=n {
            let mut b = board.clone();
            b.side = if help { mysl_core::Color::Black } else { mysl_core::Color::White };
            brute_series(&mut b, k, help, &mut Vec::new(), &mut expected);
        }
        expected.sort();
        let mut got: Vec<Vec<String>> =
            sorted_lines(&text, 0).iter().map(|l| split_line(l).into_iter().map(|(t, _)| t).collect()).collect();
        got.sort();
        eprintln!("{stip} {pieces}: {} lines", got.len());
        assert!(!expected.is_empty() && expected.iter().any(|l| l.contains(&"...".to_string())), "{stip} {pieces}");
        assert_eq!(got, expected, "{stip} {pieces}");
    }
}
