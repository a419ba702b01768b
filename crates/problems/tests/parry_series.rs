//! Parry series (`pser-`, `phser-`): a series move may give check; the other side then parries
//! it with one move (a help move in pser-h and phser-, a defence, all of which must be met, in
//! the other pser- stipulations) and the series goes on. Positions from Popeye's
//! `EXAMPLES/pseries.inp`; the lines below were checked by hand.

use mysl_problems::classify::Verdict;
use mysl_problems::input::parse_problems;
use mysl_problems::solve::Limits;
use mysl_problems::solve_problem;

fn solve(text: &str) -> (Vec<String>, Vec<Verdict>) {
    let p = parse_problems(text).remove(0).expect("parsed");
    let r = solve_problem(&p, &Limits::default()).expect("supported");
    let lines = r.twins.iter().flat_map(|t| t.lines.clone()).collect();
    let verdicts = r.twins.iter().map(|t| t.classification.verdict).collect();
    (lines, verdicts)
}

fn problem(pieces: &str, stip: &str) -> String {
    format!("BeginProblem\nPieces {pieces}\nStipulation {stip}\nEndProblem\n")
}

#[test]
fn pser_mate_check_parried_by_the_only_legal_reply() {
    // 1.Rh4*h7+: the king cannot take (h7 guarded by Qh3 and Bf5), g7 is guarded by the rook,
    // so Qg8*h7 is the only parry; then Qh3*h7 mates (Bf5 guards h7, the queen g7 and g8).
    // 1.Qh3*h7+ Qg8*h7 2.Rh4*h7+ is no mate (Kg8). Without the parry (ser-#2) White has no
    // mate in two quiet moves: the black queen always takes on h7.
    let pieces = "White Kh1 Qh3 Rh4 Bf5 Black Kh8 Qg8 Ph7";
    let (lines, v) = solve(&problem(pieces, "pser-#2"));
    assert_eq!(lines, ["1.Rh4*h7 + Qg8*h7 2.Qh3*h7 #"]);
    assert_eq!(v, [Verdict::Sound]);
    let (lines, _) = solve(&problem(pieces, "ser-#2"));
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn pser_mate_every_parry_must_be_met() {
    // Meinking, StrateGems 2009 (Popeye's pseries.inp): 1.Qe1-g3+ leaves the king d4, e6 and
    // f5 (d6 and f4 are guarded by the queen, no black piece can interpose); each parry has
    // its own mate, so the three lines are one solution. 1...Kd4 2.Qg3-e1 3.Qe1-a1#: c3 and e5
    // lie on the queen's diagonal, c4 and d3 on the bishop's, the other squares are black.
    let pieces = "White Kg1 Qe1 Ba6 Black Ke5 Sg7g8 Pa3c5d5e3e4f6";
    let (lines, v) = solve(&problem(pieces, "pser-#3"));
    assert_eq!(
        lines,
        [
            "1.Qe1-g3 + Ke5-d4 2.Qg3-e1 3.Qe1-a1 #",
            "1.Qe1-g3 + Ke5-f5 2.Ba6-f1 3.Bf1-h3 #",
            "1.Qe1-g3 + Ke5-e6 2.Qg3-c7 3.Ba6-c8 #",
        ]
    );
    assert_eq!(v, [Verdict::Sound]);
    // With help parries (phser-) each parry that allows the mate is a line of its own.
    let (help, _) = solve(&problem(pieces, "phser-#3"));
    for l in &lines {
        assert!(help.contains(l), "{l} missing from {help:?}");
    }
}

#[test]
fn pser_helpmate_black_checks_and_white_interposes() {
    // Meinking, StrateGems 2009 no. 2: Black promotes, walks the king to h2 and checks three
    // times from c1 and c6; the knight interposes on f4, e6 and g5 (on the diagonal c1-h6 and on
    // the sixth rank) and mates on f3 (g1 covered by the knight, the other flights black).
    let (lines, v) = solve(&problem("White Kh6 Sd5 Black Kg1 Pg2g3h2h3", "pser-h#6"));
    assert_eq!(lines, ["1.h2-h1=Q 2.Kg1-h2 3.Qh1-c1 + Sd5-f4 4.Qc1-c6 + Sf4-e6 5.Qc6-c1 + Se6-g5 6.Qc1-h1 Sg5-f3 #"]);
    assert_eq!(v, [Verdict::Sound]);
    // As a plain series helpmate (no checks before the last move) there is no solution.
    let (lines, _) = solve(&problem("White Kh6 Sd5 Black Kg1 Pg2g3h2h3", "ser-h#6"));
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn pser_stipulation_is_printed_back() {
    let p = parse_problems(&problem("White Kh1 Qh3 Rh4 Bf5 Black Kh8 Qg8 Ph7", "pser-#2")).remove(0).expect("parsed");
    assert_eq!(p.stipulation.expect("stipulation").to_string(), "pser-#2");
}

#[test]
fn pser_help_stalemate_with_promotion_parries() {
    // Meinking, StrateGems 2009 no. 12 (the last four moves of a pser-h=18). Checked by hand:
    // 2.Qd1-d8+ is parried by e7-e8=S, 3.Qd8-f6+ by Se8*f6; after 4.g4-g3 Rb1-f1 the black king
    // has no flight (e3, e5 Sc4; e4, g4 Sf6; f3, f5 Sh4), the rook g5 is pinned by Bh6, the
    // knight f2 by Rf1, and the other black pieces block each other: stalemate, no check.
    let pieces = "White Kh8 Rb1 Bh6 Sc4h4 Pe7 Black Kf4 Qh1 Rg5g2h2 Bg1 Sf2h3 Pd2g4";
    let (lines, v) = solve(&problem(pieces, "pser-h=4"));
    assert_eq!(lines, ["1.d2-d1=Q 2.Qd1-d8 + e7-e8=S 3.Qd8-f6 + Se8*f6 4.g4-g3 Rb1-f1 ="]);
    assert_eq!(v, [Verdict::Sound]);
}
