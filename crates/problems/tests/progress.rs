//! The progress and cancel hooks of `solve::Limits` (used by the web UI's solver jobs).

use std::sync::atomic::Ordering;

use mysl_problems::input::parse_problems;
use mysl_problems::solve::Limits;
use mysl_problems::{solve_problem, twin_positions};

// An h#2 with many pieces: enough nodes for the counter (it advances in steps of 64).
const H2: &str = "BeginProblem\nStipulation h#2\nPieces White Ke1 Qd1 Ra1 Sb1 Black Ke8 Qd8 Rh8 Pe7 Pd7\nEndProblem\n";

#[test]
fn nodes_are_counted_for_progress() {
    let problems = parse_problems(H2);
    let p = problems[0].as_ref().expect("parsed");
    let limits = Limits { threads: 1, ..Limits::default() };
    let result = solve_problem(p, &limits).expect("supported");
    assert!(!result.twins[0].interrupted);
    assert!(limits.nodes.load(Ordering::Relaxed) >= 64, "nodes: {}", limits.nodes.load(Ordering::Relaxed));
}

#[test]
fn a_stop_flag_interrupts_the_solve() {
    // A ser-h#8 takes far longer than the test: only the stop flag can end it quickly.
    let text = "BeginProblem\nStipulation ser-h#8\nPieces White Ke1 Qd1 Ra1 Rh1 Sb1 Black Ke8 Qd8 Ra8 Rh8 Pa7b7c7d7\nEndProblem\n";
    let problems = parse_problems(text);
    let p = problems[0].as_ref().expect("parsed");
    let limits = Limits { threads: 1, ..Limits::default() };
    let stop = limits.stop.clone();
    let start = std::time::Instant::now();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
    });
    let result = solve_problem(p, &limits).expect("supported");
    stopper.join().expect("stopper");
    assert!(result.twins[0].interrupted, "the solve says it was interrupted");
    assert!(start.elapsed().as_secs() < 5, "stopped promptly ({:?})", start.elapsed());
    assert!(limits.nodes.load(Ordering::Relaxed) > 0);
}

#[test]
fn twin_positions_match_the_twins_solved() {
    let text = "BeginProblem\nStipulation h#2\nPieces White Ke1 Ra1 Black Ke8\nTwin Move a1 b1\nEndProblem\n";
    let problems = parse_problems(text);
    let p = problems[0].as_ref().expect("parsed");
    let twins = twin_positions(p).expect("supported");
    assert_eq!(twins.len(), 2);
    assert_eq!(twins[0].0, "a)");
    assert!(twins[1].0.starts_with("b) wRa1-->b1"), "{}", twins[1].0);
    assert!(twins[1].1.piece_at(1).is_some() && twins[1].1.piece_at(0).is_none());
}
