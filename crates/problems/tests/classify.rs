//! Classification of solutions (intended / cook / dual; docs/problems.md "Classification").
//!
//! On the problem set (../shared/data/problems/popeye-set.jsonl) the expectations are derived from
//! Popeye's output lines, not from ours: battle play has as many solutions as Popeye prints keys
//! (`1.X !`) and as many duals as Popeye's tree has extra attacker moves after a defence; in help and
//! series play, Popeye lines with the same moves in another order (compared as text) must be one
//! solution with move-order duals, and every other line a solution or a dual of its own. Plus small
//! hand-made problems: a cooked #1, a helpmate with a tempo dual, a series mover with a
//! transposition, `Remark Intended 2`, and an interrupted solve that is never called sound.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use mysl_problems::classify::{Classification, Dual, DualKind, SolutionKind, Verdict};
use mysl_problems::input::parse_problems;
use mysl_problems::solve::Limits;
use mysl_problems::stipulation::Play;
use mysl_problems::{output, solve_problem, ProblemResult};

fn solve_text(text: &str) -> ProblemResult {
    let problems = parse_problems(text);
    let p = problems[0].as_ref().expect("parsed");
    solve_problem(p, &Limits::default()).expect("supported")
}

fn only(r: &ProblemResult) -> (&Classification, &[String]) {
    (&r.twins[0].classification, &r.twins[0].lines)
}

#[test]
fn a_direct_mate_with_two_keys_is_cooked() {
    let r = solve_text("BeginProblem\nStipulation #1\nPieces White Kg1 Ra1 Rb2 Black Kh8 Pg7h7\nEndProblem\n");
    let (c, lines) = only(&r);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(c.solutions.len(), 2);
    assert_eq!(c.solutions[0].kind, SolutionKind::Intended);
    assert_eq!(c.solutions[1].kind, SolutionKind::Cook);
    assert_eq!((c.verdict, c.cooks), (Verdict::Cooked, 1));
    assert_eq!(c.summary, "cooked: 1 extra solution");
    assert_eq!(r.summary(), "cooked: 1 extra solution");
    let text = output::text(
        parse_problems(
            "BeginProblem
Stipulation #1
Pieces White Kg1 Ra1 Rb2 Black Kh8 Pg7h7
EndProblem
",
        )[0]
        .as_ref()
        .expect("parsed"),
        &Ok(r.clone()),
    );
    assert!(text.contains("solution finished.\nclassification: cooked: 1 extra solution\n"), "{text}");
    // With --intended 2 (or Remark Intended 2) the same two keys are sound.
    let r = solve_text(
        "BeginProblem\nRemark Intended 2\nStipulation #1\nPieces White Kg1 Ra1 Rb2 Black Kh8 Pg7h7\nEndProblem\n",
    );
    assert_eq!(only(&r).0.summary, "sound (C+)");
}

#[test]
fn a_helpmate_tempo_choice_is_a_dual_not_a_second_solution() {
    // 1.b7-b5 Rh1-h8 # and 1.b7-b6 Rh1-h8 #: one half move differs.
    let r = solve_text("BeginProblem\nStipulation h#1\nPieces White Kc7 Rh1 Black Ka8 Pa7b7\nEndProblem\n");
    let (c, lines) = only(&r);
    assert_eq!(lines.len(), 2);
    assert_eq!(c.solutions.len(), 1, "{c:?}");
    assert_eq!(c.solutions[0].duals.len(), 1);
    assert_eq!(c.solutions[0].duals[0].kind, DualKind::Dual);
    assert_eq!(c.summary, "sound (C+); 1 dual");
}

#[test]
fn a_series_transposition_is_a_move_order_dual() {
    // Black self-blocks g8 and h7 (Ra8-g8, Be4-h7) in either order, then Se5-f7 mates: one
    // solution, the other order a move-order dual.
    let r = solve_text("BeginProblem\nStipulation ser-h#2\nPieces White Kd1 Se5 Black Kh8 Ra8 Be4 Pg7\nEndProblem\n");
    let (c, lines) = only(&r);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(c.solutions.len(), 1);
    assert_eq!(c.solutions[0].duals, [Dual { line: 1, kind: DualKind::MoveOrder, after: None }]);
    assert_eq!(c.summary, "sound (C+); 1 move-order dual");
}

#[test]
fn a_helpmate_with_tempo_duals_and_transpositions() {
    // The same as h#2: White's king has four tempo moves (one half move differs: duals) and Black's
    // two moves come in either order (move-order duals): 8 lines, one solution.
    let r = solve_text("BeginProblem\nStipulation h#2\nPieces White Kd1 Se5 Black Kh8 Ra8 Be4 Pg7\nEndProblem\n");
    let (c, lines) = only(&r);
    assert_eq!(lines.len(), 8, "{lines:?}");
    assert_eq!(c.solutions.len(), 1);
    let count = |k: DualKind| c.solutions[0].duals.iter().filter(|d| d.kind == k).count();
    // The first line's tempo move: the other three first-order lines are duals; the four lines
    // with Black's moves swapped are move-order duals (of the line with the same tempo move).
    assert_eq!((count(DualKind::Dual), count(DualKind::MoveOrder)), (3, 4));
    assert_eq!(c.verdict, Verdict::Sound);
    for d in &c.solutions[0].duals {
        let (a, b) = (&lines[c.solutions[0].line], &lines[d.line]);
        let same_black_order = a.split_whitespace().next() == b.split_whitespace().next();
        assert_eq!(same_black_order, d.kind == DualKind::Dual, "{a} / {b}");
    }
}

#[test]
fn an_interrupted_solve_is_never_sound() {
    // Enough nodes for the stop flag to be seen (it is read every 64 nodes).
    let problems = parse_problems(
        "BeginProblem\nStipulation h#3\nPieces White Ke1 Qd1 Ra1 Rh1 Black Ke8 Qd8 Ra8 Rh8\nEndProblem\n",
    );
    let p = problems[0].as_ref().expect("parsed");
    let limits = Limits::default();
    limits.stop.store(true, Ordering::Relaxed);
    let r = solve_problem(p, &limits).expect("supported");
    let c = &r.twins[0].classification;
    assert!(r.twins[0].interrupted);
    assert_ne!(c.verdict, Verdict::Sound);
    assert!(!c.summary.contains("sound (C+)"), "{}", c.summary);
    assert!(!r.summary().contains("sound (C+)"), "{}", r.summary());
    // MaxSolutions cutting the list: not sound either.
    let r = solve_text(
        "BeginProblem\nStipulation h#1\nOption MaxSolutions 1\nPieces White Kc7 Rh1 Black Ka8 Pa7b7\nEndProblem\n",
    );
    assert_eq!(only(&r).0.verdict, Verdict::Incomplete);
}

#[test]
fn json_has_the_classification() {
    let text = "BeginProblem\nStipulation #1\nPieces White Kg1 Ra1 Rb2 Black Kh8 Pg7h7\nEndProblem\n";
    let problems = parse_problems(text);
    let p = problems[0].as_ref().expect("parsed");
    let r = solve_problem(p, &Limits::default());
    let v: serde_json::Value = serde_json::from_str(&output::json(p, &r)).expect("valid JSON");
    assert_eq!(v["summary"], "cooked: 1 extra solution");
    let c = &v["twins"][0]["classification"];
    assert_eq!(c["verdict"], "cooked");
    assert_eq!(c["solutions"][0]["kind"], "intended");
    assert_eq!(c["solutions"][1]["kind"], "cook");
    assert_eq!(
        c["solutions"][1]["text"],
        v["twins"][0]["lines"][c["solutions"][1]["line"].as_u64().expect("index") as usize]
    );
}

// ------------------------------------------------------------------ the problem set

fn set_path() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/problems/popeye-set.jsonl");
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: ../shared/data/problems/popeye-set.jsonl not found");
        None
    }
}

fn depth(line: &str) -> Option<usize> {
    mysl_problems::classify::line_depth(line)
}

/// Popeye's solution lines split by twin headers (`a)`, `+c) ...`).
fn split_twins(solutions: &[String]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for l in solutions {
        let t = l.trim_start_matches('+');
        let is_header = t.len() >= 2 && t.as_bytes()[0].is_ascii_lowercase() && t.as_bytes()[1] == b')';
        if is_header {
            if !out.last().is_some_and(|v| v.is_empty()) || out.len() > 1 {
                out.push(Vec::new());
            }
        } else if depth(l).is_some() || l.trim() == "but" {
            out.last_mut().expect("a twin").push(l.clone());
        }
    }
    if out.len() > 1 && out[0].is_empty() {
        out.remove(0);
    }
    out
}

/// Keys and counted duals of a Popeye battle tree, read from Popeye's text.
fn popeye_battle(lines: &[String]) -> (usize, usize) {
    let mut keys = 0;
    let mut duals = 0;
    let mut in_key = false;
    let tree: Vec<Option<usize>> = lines.iter().map(|l| depth(l)).collect();
    for (i, l) in lines.iter().enumerate() {
        if tree[i] == Some(0) {
            in_key = l.split_whitespace().any(|w| w == "!");
            keys += in_key as usize;
            continue;
        }
        let Some(d) = tree[i] else { continue };
        if !in_key || d % 2 == 0 {
            continue;
        }
        let mut n = 0;
        for dj in tree[i + 1..].iter().flatten() {
            if *dj <= d {
                break;
            }
            n += (*dj == d + 1) as usize;
        }
        duals += n.saturating_sub(1);
    }
    (keys, duals)
}

/// A help/series line's moves as text, check marks and numbers dropped, sorted.
fn move_multiset(line: &str) -> Vec<String> {
    let mut v: Vec<String> = line
        .split_whitespace()
        .filter(|t| !matches!(*t, "+" | "#" | "=" | "=="))
        .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.').to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn popeye_set_classification_follows_popeyes_lines() {
    let Some(path) = set_path() else { return };
    let text = std::fs::read_to_string(path).expect("readable set");
    let mut checked = 0;
    let mut table = BTreeMap::new();
    let (mut solve_time, mut classify_time) = (0.0, 0.0);
    for l in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(l).expect("json line");
        let id = v["id"].as_str().expect("id").to_string();
        // The quick entries only (the solving itself is tested in popeye_set.rs).
        // Those Popeye solves in intelligent mode are slow for us (popeye_set.rs runs them).
        let slow = ["pyset-001", "pyset-002", "pyset-003", "pyset-004", "pyset-005", "pyset-026", "pyset-084"];
        if v["popeye_seconds"].as_f64().unwrap_or(99.0) > 0.2
            || v["popeye_complete"] == false
            || slow.contains(&id.as_str())
        {
            continue;
        }
        let problems = parse_problems(v["popeye_input"].as_str().expect("input"));
        let Some(Ok(p)) = problems.first() else { continue };
        if p.options.set_play || p.options.max_solutions.is_some() {
            continue;
        }
        let limits = Limits { deadline: Some(Instant::now() + Duration::from_secs(20)), ..Limits::default() };
        let t0 = Instant::now();
        let Ok(r) = solve_problem(p, &limits) else { continue };
        solve_time += t0.elapsed().as_secs_f64();
        // The classification again on its own, for its share of the time.
        let t1 = Instant::now();
        for ((_, board, stip), t) in mysl_problems::twin_positions(p).expect("positions").iter().zip(&r.twins) {
            let again = mysl_problems::classify::classify(board, stip, &p.options, &t.lines, t.interrupted);
            assert_eq!(again, t.classification, "{id}: deterministic");
        }
        classify_time += t1.elapsed().as_secs_f64();
        let expected: Vec<String> = v["solutions"]
            .as_array()
            .expect("solutions")
            .iter()
            .map(|s| s.as_str().unwrap_or("").to_string())
            .collect();
        let exp = split_twins(&expected);
        if exp.len() != r.twins.len() || r.twins.iter().any(|t| t.interrupted) {
            eprintln!(
                "{id}: skipped ({} twins, Popeye {}; interrupted: {})",
                r.twins.len(),
                exp.len(),
                r.twins.iter().any(|t| t.interrupted)
            );
            continue;
        }
        for (e, t) in exp.iter().zip(&r.twins) {
            let c = &t.classification;
            let battle = !t.stipulation.series && !matches!(t.stipulation.play, Play::Help | Play::HelpSelf);
            if battle {
                let (keys, duals) = popeye_battle(e);
                assert_eq!(c.solutions.len(), keys, "{id}: keys in {e:?}");
                assert_eq!(c.duals, duals, "{id}: duals after defences in {e:?}");
            } else {
                // Popeye's lines with the same moves in another order: one solution, move-order duals.
                let mut groups: BTreeMap<Vec<String>, Vec<&String>> = BTreeMap::new();
                for line in e.iter().filter(|x| depth(x).is_some()) {
                    groups.entry(move_multiset(line)).or_default().push(line);
                }
                let transposed: usize = groups.values().map(|g| g.len() - 1).sum();
                let ours =
                    |kind: DualKind| c.solutions.iter().flat_map(|s| &s.duals).filter(|d| d.kind == kind).count();
                assert_eq!(ours(DualKind::MoveOrder), transposed, "{id}: move-order duals in {e:?}");
                // Every other line is a solution of its own, a second path or a one-move dual.
                assert_eq!(
                    c.solutions.len() + ours(DualKind::SecondPath) + ours(DualKind::Dual),
                    groups.len(),
                    "{id}: {e:?}"
                );
                for g in groups.values() {
                    let sol: Vec<_> =
                        g.iter().map(|x| c.role(t.lines.iter().position(|y| y == *x).expect("our line")).1).collect();
                    assert!(sol.windows(2).all(|w| w[0] == w[1]), "{id}: {g:?} split over solutions");
                }
            }
            // The verdict follows the count (one intended solution by default).
            let n = c.solutions.len();
            let expect = match n {
                0 => Verdict::Unsound,
                1 => Verdict::Sound,
                _ => Verdict::Cooked,
            };
            assert_eq!(c.verdict, expect, "{id}: {}", c.summary);
            assert_eq!(c.cooks, n.saturating_sub(1), "{id}");
            if expect == Verdict::Sound {
                assert!(c.summary.starts_with("sound (C+)"), "{id}: {}", c.summary);
            }
            table.insert(format!("{id}{}", t.header.split(' ').next().unwrap_or("")), c.summary.clone());
        }
        checked += 1;
    }
    for (id, s) in &table {
        eprintln!("{id} {s}");
    }
    eprintln!("classified {checked} problems of the set: solving (with classification) {solve_time:.2} s, classification alone {classify_time:.3} s");
    assert!(checked >= 30, "only {checked} entries checked");
}

#[test]
fn popeye_set_known_cases() {
    let Some(path) = set_path() else { return };
    let text = std::fs::read_to_string(path).expect("readable set");
    let entry = |id: &str| -> serde_json::Value {
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json"))
            .find(|v| v["id"] == id)
            .expect("entry")
    };
    let solve_entry = |id: &str, extra: &str| -> (ProblemResult, serde_json::Value) {
        let v = entry(id);
        let input =
            v["popeye_input"].as_str().expect("input").replacen("BeginProblem\n", &format!("BeginProblem\n{extra}"), 1);
        (solve_text(&input), v)
    };
    let popeye_lines = |v: &serde_json::Value| -> Vec<String> {
        v["solutions"]
            .as_array()
            .expect("solutions")
            .iter()
            .filter_map(|s| s.as_str())
            .filter(|s| depth(s).is_some())
            .map(String::from)
            .collect()
    };
    // pyset-011, an h#2 with two solutions in Popeye's output: two solutions, one a cook by
    // default, sound with `Remark Intended 2`.
    let (r, v) = solve_entry("pyset-011", "");
    let n = popeye_lines(&v).len();
    assert_eq!(n, 2);
    assert_eq!(only(&r).0.solutions.len(), n);
    assert_eq!(only(&r).0.summary, "cooked: 1 extra solution");
    let (r, _) = solve_entry("pyset-011", "Remark Intended 2\n");
    assert_eq!(only(&r).0.summary, "sound (C+)");
    // pyset-057, a ser-h#5 whose Popeye lines include the same moves in other orders.
    let (r, v) = solve_entry("pyset-057", "");
    let lines = popeye_lines(&v);
    let (c, ours) = only(&r);
    assert!(c.solutions.len() < lines.len());
    assert!(c.solutions.iter().flat_map(|s| &s.duals).any(|d| d.kind == DualKind::MoveOrder), "{ours:?}");
    // pyset-008, a #2 whose Popeye tree has two mates after one defence: a dual after that defence.
    let (r, v) = solve_entry("pyset-008", "");
    let (c, ours) = only(&r);
    assert_eq!(c.duals, popeye_battle(&popeye_lines(&v)).1);
    assert!(c.duals >= 1);
    for d in c.solutions.iter().flat_map(|s| &s.duals).filter(|d| d.kind == DualKind::Dual) {
        assert!(depth(&ours[d.after.expect("after")]).is_some_and(|x| x % 2 == 1), "after a defence");
        assert_eq!(depth(&ours[d.line]), depth(&ours[d.after.expect("after")]).map(|x| x + 1));
    }
    // pyset-007, a #2 with a try and one key: sound, the try is no solution.
    let (r, v) = solve_entry("pyset-007", "");
    let keys = popeye_lines(&v).iter().filter(|l| depth(l) == Some(0) && l.contains(" !")).count();
    assert_eq!(keys, 1);
    let (c, _) = only(&r);
    assert_eq!(c.solutions.len(), 1);
    assert!(!c.tries.is_empty());
    assert_eq!(c.verdict, Verdict::Sound);
}

#[test]
fn many_lines_are_classified_in_linear_time() {
    // A badly cooked h#2 (hundreds of lines): classifying them must stay cheap next to solving.
    let text = "BeginProblem\nStipulation h#2\nPieces White Kc6 Qd1 Rb1 Ra2 Black Ka8 Pa7 Pb7 Ph7\nEndProblem\n";
    let problems = parse_problems(text);
    let p = problems[0].as_ref().expect("parsed");
    let t0 = Instant::now();
    let r = solve_problem(p, &Limits::default()).expect("supported");
    let total = t0.elapsed();
    let t = &r.twins[0];
    let positions = mysl_problems::twin_positions(p).expect("positions");
    let (_, board, stip) = &positions[0];
    let t1 = Instant::now();
    let c = mysl_problems::classify::classify(board, stip, &p.options, &t.lines, false);
    let classify_time = t1.elapsed();
    eprintln!(
        "{} lines, {} solutions, {} duals: solve+classify {:.3} s, classify {:.3} s",
        t.lines.len(),
        c.solutions.len(),
        c.duals,
        total.as_secs_f64(),
        classify_time.as_secs_f64()
    );
    assert!(t.lines.len() >= 100, "{} lines", t.lines.len());
    assert_eq!(c, t.classification);
    // Every line is accounted for exactly once.
    let mut seen: Vec<usize> = c.solutions.iter().flat_map(|s| s.lines.iter().copied()).collect();
    seen.extend(&c.set_play);
    seen.sort_unstable();
    assert_eq!(seen, (0..t.lines.len()).collect::<Vec<_>>());
}
