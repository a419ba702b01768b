//! Twins: each change applied to the original position (or to the previous twin with Continued),
//! with Popeye-style headers.

use mysl_problems::input::parse_problems;
use mysl_problems::solve::Limits;
use mysl_problems::solve_problem;

fn solve(text: &str) -> Vec<(String, Vec<String>)> {
    let p = parse_problems(text).remove(0).expect("parsed");
    let r = solve_problem(&p, &Limits::default()).expect("supported");
    r.twins
        .into_iter()
        .map(|t| {
            let mut l = t.lines;
            l.sort();
            (t.header, l)
        })
        .collect()
}

const BASE: &str = "BeginProblem\nstip h#1\npieces white Kc7 Rh1 black Ka8 Pa7b7\n";

#[test]
fn mirror_substitute_move_and_continued() {
    let text = format!(
        "{BASE}twin mirror a1<-->h1\ntwin substitute R Q\ntwin continued move h1 g1\ntwin stipulation h=1\nEndProblem\n"
    );
    let t = solve(&text);
    assert_eq!(t.len(), 5);
    assert_eq!(t[0].0, "a)");
    assert_eq!(t[0].1, ["1.b7-b5 Rh1-h8 #", "1.b7-b6 Rh1-h8 #"]);
    assert_eq!(t[1].0, "b) mirror a1<-->h1");
    assert_eq!(t[1].1, ["1.g7-g5 Ra1-a8 #", "1.g7-g6 Ra1-a8 #"]);
    assert_eq!(t[2].0, "c) R ==> Q");
    // The queen on h1 pins the b7 pawn: only a7 moves, then Qh1*b7 #.
    assert_eq!(t[2].1, ["1.a7-a5 Qh1*b7 #", "1.a7-a6 Qh1*b7 #"]);
    // Continued: the queen of twin c) moves from h1 to g1.
    assert_eq!(t[3].0, "+d) wQh1-->g1");
    assert!(t[3].1.contains(&"1.b7-b6 Qg1-g8 #".to_string()), "{:?}", t[3].1);
    assert_eq!(t[4].0, "e) h=1");
    assert!(t[4].1.iter().all(|l| l.ends_with(" =")), "{:?}", t[4].1);
}

#[test]
fn remove_add_exchange() {
    let text = format!("{BASE}twin remove b7\ntwin add black Pb6\ntwin exchange c7 h1\nEndProblem\n");
    let t = solve(&text);
    assert_eq!(t[1].0, "b) -bPb7");
    assert_eq!(t[2].0, "c) bPb6");
    assert_eq!(t[3].0, "d) wKc7<-->wRh1");
    // Without the b7 pawn the king escapes to b7 unless ... no h#1 with only a7-a6/a5.
    assert!(t[1].1.iter().all(|l| l.starts_with("1.")), "{:?}", t[1].1);
}

#[test]
fn add_takes_several_colours_and_pieces() {
    // Popeye reads `add` as `Pieces`: `add white Rg1 black Pb6 Pc6` adds all three.
    let text = format!("{BASE}twin add white Rg1 black Pb6 Pc6\ntwin add black Pb6\nEndProblem\n");
    let p = parse_problems(&text).remove(0).expect("parsed");
    let r = solve_problem(&p, &Limits::default()).expect("supported");
    assert_eq!(r.twins.len(), 3);
    assert!(r.twins[1].header.starts_with("b) "), "{}", r.twins[1].header);
    for piece in ["wRg1", "bPb6", "bPc6"] {
        assert!(r.twins[1].header.contains(piece), "{}", r.twins[1].header);
    }
    assert_eq!(r.twins[2].header, "c) bPb6");
    // A colour without a piece is still an error.
    let text = format!("{BASE}twin add white rotate 90\nEndProblem\n");
    let e = parse_problems(&text).remove(0).expect_err("no piece");
    assert_eq!(e.token, "rotate");
}

#[test]
fn an_unsupported_twin_change_refuses_the_problem_by_name() {
    // The twin's only change is a stipulation mysl does not solve: refused by name, not an
    // input error ("twin without changes").
    let text = format!("{BASE}twin stipulation exact-h#2\nEndProblem\n");
    let p = parse_problems(&text).remove(0).expect("parsed");
    assert!(p.unsupported.iter().any(|m| m.contains("exact-h#2")), "{:?}", p.unsupported);
    let text = format!("{BASE}twin\nEndProblem\n");
    assert!(parse_problems(&text).remove(0).is_err(), "a twin with nothing is still an error");
}
