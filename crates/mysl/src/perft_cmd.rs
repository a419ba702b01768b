//! `mysl perft`: one position to a depth, or a whole suite file.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use mysl_core::perft::{parse_perft_suite, perft, perft_divide};
use mysl_core::{uci, CastlingMode, Chess, Position, Rules};

use crate::CliError;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Position: `startpos` or a FEN (alternative to --fen).
    #[arg(value_name = "POSITION")]
    position: Option<String>,
    /// Depth in plies.
    #[arg(long, short)]
    depth: Option<u32>,
    /// Variant (only `chess` so far).
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
    match args.variant.as_str() {
        "chess" | "standard" | "chess960" => {}
        other => return Err(CliError::Input(format!("unknown or unsupported variant '{other}' (supported: chess)"))),
    }
    let mut pos: Chess = Position::from_fen(&fen).map_err(|e| CliError::Input(e.to_string()))?;
    if args.chess960 || args.variant == "chess960" {
        pos.set_castling_mode(CastlingMode::Chess960);
    }
    run_one(&mut pos, depth, args.divide, args.stats)
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
        let mut pos: Chess = match case.variant.as_str() {
            "chess" | "standard" | "chess960" => match Position::from_fen(&case.fen) {
                Ok(p) => p,
                Err(e) => {
                    println!("ERROR {path}:{} {};{}: {e}", case.line, case.variant, case.fen);
                    failed += 1;
                    continue;
                }
            },
            other => {
                println!("SKIP {path}:{} variant '{other}' is not supported yet", case.line);
                skipped += case.counts.len() as u64;
                continue;
            }
        };
        for &(depth, expected) in &case.counts {
            if expected > limit {
                skipped += 1;
                continue;
            }
            let got = perft(&mut pos, depth);
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
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft suite {path}: {passed} passed, {failed} failed, {skipped} skipped ({nodes_total} nodes in {secs:.2} s)"
    );
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FAILURE) })
}
