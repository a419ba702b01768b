//! Every line of every perft file in ../shared/data/perft (outside engines' counts), for every variant.
//! Depths whose expected count is above the node limit are skipped in the normal run;
//! `cargo test -- --ignored` runs them all.

mod common;

use mysl_core::perft::{parse_perft_suite, perft, perft_copy_make, PerftCase};
use mysl_core::{dispatch_variant, Position, Rules, Variant};

const CI_NODE_LIMIT: u64 = 2_000_000;

/// The suite files of the mysl variants (berolina-noep.perft is cross-check data, not a variant).
const SUITES: &[&str] = &["standard", "antichess", "antichess-noep", "threecheck", "extinction", "berolina", "dice"];

fn check_case<R: Rules>(case: &PerftCase, limit: u64, failures: &mut Vec<String>) -> usize {
    let mut pos = match Position::<R>::from_fen(&case.fen) {
        Ok(p) => p,
        Err(e) => {
            failures.push(format!("line {} {}: {e}", case.line, case.fen));
            return 0;
        }
    };
    let mut checked = 0;
    for &(depth, expected) in &case.counts {
        if expected > limit {
            continue;
        }
        let got = perft(&mut pos, depth);
        checked += 1;
        if got != expected {
            failures.push(format!(
                "{} line {} {} depth {depth}: expected {expected}, got {got}",
                case.variant, case.line, case.fen
            ));
        }
    }
    checked
}

fn run_suite(name: &str, limit: u64) {
    let Some(text) = common::shared_file(&format!("perft/{name}.perft")) else { return };
    let cases = parse_perft_suite(&text).expect("suite parses");
    assert!(cases.len() >= 5, "{name}: the suite should have its positions");
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &cases {
        let variant = Variant::from_name(&case.variant).unwrap_or_else(|| panic!("unknown variant {}", case.variant));
        checked += dispatch_variant!(variant, R => check_case::<R>(case, limit, &mut failures));
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert!(checked >= cases.len(), "{name}: at least one depth per position checked");
    eprintln!("{name}: {checked} perft counts checked");
}

#[test]
fn all_suites_under_node_limit() {
    for name in SUITES {
        run_suite(name, CI_NODE_LIMIT);
    }
}

#[test]
#[ignore = "full depth: several billion nodes"]
fn all_suites_full() {
    for name in SUITES {
        run_suite(name, u64::MAX);
    }
}

#[test]
fn berolina_noep_is_cross_check_data_only() {
    // Not a mysl variant: the name is rejected, so nobody mistakes it for one.
    assert_eq!(Variant::from_name("berolina-noep"), None);
}

fn copy_make_case<R: Rules>(case: &PerftCase) {
    let mut pos = Position::<R>::from_fen(&case.fen).expect("valid FEN");
    let depth = case.counts.iter().filter(|(_, n)| *n <= 100_000).map(|(d, _)| *d).max().unwrap_or(1);
    assert_eq!(perft(&mut pos, depth), perft_copy_make(&pos, depth), "{} line {}", case.variant, case.line);
}

#[test]
fn copy_make_agrees_with_make_unmake() {
    for name in SUITES {
        let Some(text) = common::shared_file(&format!("perft/{name}.perft")) else { return };
        for case in parse_perft_suite(&text).expect("suite parses") {
            let variant = Variant::from_name(&case.variant).expect("known variant");
            dispatch_variant!(variant, R => copy_make_case::<R>(&case));
        }
    }
}
