//! `mysl perft`: one position to a depth, or a whole suite file.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use mysl_core::perft::{parse_perft_suite, perft, perft_divide};
use mysl_core::{dispatch_variant, uci, CastlingMode, Position, Rules, Variant};

use crate::CliError;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Position: `startpos` or a FEN (alternative to --fen).
    #[arg(value_name = "POSITION")]
    position: Option<String>,
    /// Depth in plies.
    #[arg(long, short)]
    depth: Option<u32>,
    /// Variant: chess, antichess, antichess-noep, 3check, extinction, berolina, cylinder, dice,
    /// knightrelay, recycle (dice counts the moves of every die face).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// The position as FEN (X-FEN or Shredder-FEN); default: the start position.
    #[arg(long, conflicts_with = "position")]
    fen: Option<String>,
    /// Print `move: count` for each root move.
    #[arg(long)]
    divide: bool,
    /// Write castling as king takes rook (e1h1) in --divide output.
    #[arg(long)]
    chess960: bool,
    /// Run every line of a perft suite file (`variant;FEN;D N;...`).
    #[arg(long, conflicts_with_all = ["position", "fen", "divide"])]
    suite: Option<String>,
    /// With --suite: skip depths whose expected count is larger than this.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Print timing and nodes per second on stderr.
    #[arg(long)]
    stats: bool,
}

pub fn run(args: PerftArgs) -> Result<ExitCode, CliError> {
    if let Some(path) = &args.suite {
        return run_suite(path, args.max_nodes);
    }
    let depth = args.depth.ok_or_else(|| CliError::Input("perft needs --depth N (or --suite FILE)".to_string()))?;
    let fen = match (&args.fen, &args.position) {
        (Some(f), _) => f.clone(),
        (None, Some(p)) if p == "startpos" => mysl_core::STARTING_FEN.to_string(),
        (None, Some(p)) => p.clone(),
        (None, None) => mysl_core::STARTING_FEN.to_string(),
    };
    let variant = parse_variant(&args.variant)?;
    let chess960 = args.chess960 || args.variant.eq_ignore_ascii_case("chess960");
    dispatch_variant!(variant, R => {
        let mut pos = Position::<R>::from_fen(&fen).map_err(|e| CliError::Input(e.to_string()))?;
        if chess960 {
            pos.set_castling_mode(CastlingMode::Chess960);
        }
        run_one(&mut pos, depth, args.divide, args.stats)
    })
}

fn parse_variant(name: &str) -> Result<Variant, CliError> {
    Variant::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        CliError::Input(format!("unknown variant '{name}' (known: {})", names.join(", ")))
    })
}

fn run_one<R: Rules>(pos: &mut Position<R>, depth: u32, divide: bool, stats: bool) -> Result<ExitCode, CliError> {
    let start = Instant::now();
    let total = if divide {
        let mut out = std::io::stdout().lock();
        let mut total = 0;
        for (mv, n) in perft_divide(pos, depth) {
            let _ = writeln!(out, "{}: {n}", uci::move_to_uci(pos, mv));
            total += n;
        }
        let _ = writeln!(out);
        total
    } else {
        perft(pos, depth)
    };
    let elapsed = start.elapsed();
    println!("Nodes searched: {total}");
    if stats {
        let secs = elapsed.as_secs_f64().max(1e-9);
        eprintln!("time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs);
    }
    Ok(ExitCode::SUCCESS)
}

fn run_suite(path: &str, max_nodes: Option<u64>) -> Result<ExitCode, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::Input(format!("{path}: {e}")))?;
    let cases = parse_perft_suite(&text).map_err(|e| CliError::Input(format!("{path}: {e}")))?;
    let limit = max_nodes.unwrap_or(u64::MAX);
    let (mut passed, mut failed, mut skipped) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    let mut nodes_total = 0u64;
    for case in &cases {
        let Some(variant) = Variant::from_name(&case.variant) else {
            println!("SKIP {path}:{} variant '{}' is not a mysl variant", case.line, case.variant);
            skipped += case.counts.len() as u64;
            continue;
        };
        let result = dispatch_variant!(variant, R => run_case::<R>(&case.fen, &case.counts, limit));
        match result {
            Err(e) => {
                println!("ERROR {path}:{} {};{}: {e}", case.line, case.variant, case.fen);
                failed += 1;
            }
            Ok(outcomes) => {
                for (depth, expected, got) in outcomes {
                    match got {
                        None => skipped += 1,
                        Some(got) => {
                            nodes_total += got;
                            if got == expected {
                                passed += 1;
                            } else {
                                failed += 1;
                                println!(
                                    "MISMATCH {path}:{} variant {} fen {} depth {depth}: expected {expected}, got {got}",
                                    case.line, case.variant, case.fen
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft suite {path}: {passed} passed, {failed} failed, {skipped} skipped ({nodes_total} nodes in {secs:.2} s)"
    );
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FAILURE) })
}

/// Runs one suite line: (depth, expected, Some(got) or None when skipped by the node limit).
fn run_case<R: Rules>(fen: &str, counts: &[(u32, u64)], limit: u64) -> Result<Vec<(u32, u64, Option<u64>)>, String> {
    let mut pos = Position::<R>::from_fen(fen).map_err(|e| e.to_string())?;
    Ok(counts
        .iter()
        .map(|&(depth, expected)| (depth, expected, (expected <= limit).then(|| perft(&mut pos, depth))))
        .collect())
}
