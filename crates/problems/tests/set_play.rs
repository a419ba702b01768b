//! Set play (Option SetPlay): when Popeye prints it, and `MaxSolutions` counted per phase.

use mysl_problems::input::parse_problems;
use mysl_problems::solve::Limits;
use mysl_problems::solve_problem;

fn lines(text: &str) -> Vec<String> {
    let p = parse_problems(text).remove(0).expect("parsed");
    let r = solve_problem(&p, &Limits { threads: 1, ..Limits::default() }).expect("supported");
    r.twins.into_iter().next().expect("one twin").lines
}

fn set_lines(l: &[String]) -> Vec<&String> {
    l.iter().filter(|l| l.starts_with("1...")).collect()
}

/// h#1 with set play: Black to move (in check or not from the rook on h8), set play is White's
/// mate at once. In check, Black cannot pass (White could capture the king): no set play.
#[test]
fn no_help_set_play_when_the_passing_side_is_in_check() {
    let free = "BeginProblem\nOption SetPlay\nPieces White Kc6 Rh1 Black Ka8 Pa7\nStipulation h#1\nEndProblem\n";
    let l = lines(free);
    assert!(!set_lines(&l).is_empty(), "set play expected without check: {l:?}");
    let checked = "BeginProblem\nOption SetPlay\nPieces White Kc6 Rh8 Black Ka8 Pa7 Pb7\nStipulation h#1\nEndProblem\n";
    let l = lines(checked);
    assert!(set_lines(&l).is_empty(), "no set play with Black in check: {l:?}");
}

/// ser-h#: the same rule (the series side passes in set play).
#[test]
fn no_series_set_play_when_the_passing_side_is_in_check() {
    let free = "BeginProblem\nOption SetPlay\nPieces White Kc6 Rh1 Black Ka8 Pa7\nStipulation ser-h#1\nEndProblem\n";
    let l = lines(free);
    assert!(!set_lines(&l).is_empty(), "set play expected without check: {l:?}");
    let checked =
        "BeginProblem\nOption SetPlay\nPieces White Kc6 Rh8 Black Ka8 Pa7 Pb7\nStipulation ser-h#1\nEndProblem\n";
    assert!(set_lines(&lines(checked)).is_empty());
}

/// MaxSolutions limits set play and actual play each on its own.
#[test]
fn max_solutions_counts_set_play_and_actual_play_apart() {
    // Several set mates and several actual solutions.
    let base = "Pieces White Kc6 Rh1 Rg2 Black Ka8 Pa7 Pc7\nStipulation h#1\n";
    let all = lines(&format!("BeginProblem\nOption SetPlay\n{base}EndProblem\n"));
    let (set_all, actual_all) = (set_lines(&all).len(), all.len() - set_lines(&all).len());
    assert!(set_all >= 2 && actual_all >= 2, "{all:?}");
    let one = lines(&format!("BeginProblem\nOption SetPlay MaxSolutions 1\n{base}EndProblem\n"));
    assert_eq!(set_lines(&one).len(), 1, "{one:?}");
    assert_eq!(one.len() - set_lines(&one).len(), 1, "{one:?}");
}

/// h#1.5 (and h#n with WhiteToPlay): White's first move starts the actual play (`1...W 2.B W`);
/// the set play passes it and keeps that numbering, as Popeye writes it: `1... ... 2.B W #`.
/// The classifier must count those lines as set play, not as solutions.
#[test]
fn odd_help_set_play_keeps_the_actual_numbering_after_a_passed_move() {
    for stip in ["Stipulation h#1.5", "Stipulation h#2\nOption WhiteToPlay"] {
        let text = format!("BeginProblem\nOption SetPlay\nPieces White Kg6 Rb1 Black Kh8 Pa7\n{stip}\nEndProblem\n");
        let p = parse_problems(&text).remove(0).expect("parsed");
        let r = solve_problem(&p, &Limits { threads: 1, ..Limits::default() }).expect("supported");
        let t = &r.twins[0];
        let set: Vec<&String> = t.lines.iter().filter(|l| l.starts_with("1... ...")).collect();
        assert!(set.iter().any(|l| l.as_str() == "1... ... 2.a7-a6 Rb1-b8 #"), "{stip}: {:?}", t.lines);
        assert!(set.len() < t.lines.len() && t.lines.iter().all(|l| l.starts_with("1...")), "{stip}: {:?}", t.lines);
        for (i, l) in t.lines.iter().enumerate() {
            let role = t.classification.role(i).0;
            assert_eq!(role == "set-play", l.starts_with("1... ..."), "{stip}: {l} is {role}");
        }
    }
}
