//! Every line of ../shared/data/perft/standard.perft (Stockfish's counts). Depths whose expected count
//! is above the node limit are skipped in the normal run; `cargo test -- --ignored` runs them all.

mod common;

use mysl_core::perft::{parse_perft_suite, perft, perft_copy_make};
use mysl_core::Chess;

const CI_NODE_LIMIT: u64 = 3_000_000;

fn run_suite(limit: u64) {
    let Some(text) = common::shared_file("perft/standard.perft") else { return };
    let cases = parse_perft_suite(&text).expect("suite parses");
    assert!(cases.len() >= 30, "the suite should have its 30+ positions");
    let (mut checked, mut failures) = (0, Vec::new());
    for case in &cases {
        assert_eq!(case.variant, "chess", "line {}", case.line);
        let mut pos = Chess::from_fen(&case.fen).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for &(depth, expected) in &case.counts {
            if expected > limit {
                continue;
            }
            let got = perft(&mut pos, depth);
            checked += 1;
            if got != expected {
                failures.push(format!("line {} {} depth {depth}: expected {expected}, got {got}", case.line, case.fen));
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    eprintln!("{checked} perft counts checked");
}

#[test]
fn standard_perft_under_node_limit() {
    run_suite(CI_NODE_LIMIT);
}

#[test]
#[ignore = "full depth: about 2e9 nodes"]
fn standard_perft_full() {
    run_suite(u64::MAX);
}

#[test]
fn copy_make_agrees_with_make_unmake() {
    let Some(text) = common::shared_file("perft/standard.perft") else { return };
    for case in parse_perft_suite(&text).expect("suite parses") {
        let mut pos = Chess::from_fen(&case.fen).expect("valid FEN");
        let depth = case.counts.iter().filter(|(_, n)| *n <= 200_000).map(|(d, _)| *d).max().unwrap_or(1);
        assert_eq!(perft(&mut pos, depth), perft_copy_make(&pos, depth), "line {}", case.line);
    }
}
