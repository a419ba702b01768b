//! `mysl tune`: Texel tuning of the evaluation weights on positions from real games.
//!
//! Positions are sampled from PGN games (quiet ones: not in check, and the move played next is neither a
//! capture nor a promotion), labelled with the game result, and the weights are fitted so that
//! `1 / (1 + 10^(-K * eval / 400))` predicts the result (least squares, Adam on the full batch). K is
//! fitted first, on the starting weights. The result is written as Rust source for
//! `crates/engine/src/tuned.rs`.

use std::io::Read;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use mysl_core::{san, Chess};
use mysl_engine::eval::{self, evaluate_trace, Evaluator, Score, Trace, Weights, N_PARAMS};

use crate::CliError;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// PGN files (`-` = standard input, e.g. `zstd -dc games.pgn.zst | mysl tune --pgn -`).
    #[arg(long, required = true, num_args = 1..)]
    pgn: Vec<String>,
    /// Use every Nth quiet position of a game.
    #[arg(long, default_value_t = 4)]
    every: usize,
    /// Skip this many plies at the start of each game (book moves).
    #[arg(long, default_value_t = 10)]
    skip_plies: usize,
    /// At most this many games.
    #[arg(long)]
    max_games: Option<usize>,
    /// Optimisation steps over the whole data set.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Adam learning rate (centipawns per step).
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Where to write the fitted weights (Rust source for crates/engine/src/tuned.rs).
    #[arg(long, default_value = "target/tuned.rs")]
    out: String,
}

struct Sample {
    trace: Trace,
    result: f64,
}

/// Splits PGN text into games: (tags, movetext).
fn games(text: &str) -> Vec<(Vec<(String, String)>, String)> {
    let mut out = Vec::new();
    let mut tags = Vec::new();
    let mut moves = String::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') && l.ends_with(']') {
            if !moves.trim().is_empty() {
                out.push((std::mem::take(&mut tags), std::mem::take(&mut moves)));
            }
            let inner = &l[1..l.len() - 1];
            if let Some((name, value)) = inner.split_once(' ') {
                tags.push((name.to_string(), value.trim().trim_matches('"').to_string()));
            }
        } else if !l.starts_with('%') {
            moves.push_str(l);
            moves.push(' ');
        }
    }
    if !moves.trim().is_empty() {
        out.push((tags, moves));
    }
    out
}

/// SAN tokens of a movetext: comments, variations, NAGs, move numbers and the result removed.
fn san_tokens(movetext: &str) -> Vec<String> {
    let mut clean = String::with_capacity(movetext.len());
    let mut depth = 0;
    let mut in_comment = false;
    for c in movetext.chars() {
        match c {
            '{' if !in_comment => in_comment = true,
            '}' if in_comment => in_comment = false,
            '(' if !in_comment => depth += 1,
            ')' if !in_comment && depth > 0 => depth -= 1,
            _ if in_comment || depth > 0 => {}
            _ => clean.push(c),
        }
    }
    clean
        .split_whitespace()
        .filter(|t| !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty() && !t.starts_with('$'))
        .map(str::to_string)
        .collect()
}

fn load(args: &TuneArgs, evaluator: &Evaluator) -> Result<(Vec<Sample>, usize, usize), CliError> {
    let mut samples = Vec::new();
    let (mut used, mut broken) = (0, 0);
    for path in &args.pgn {
        let mut text = String::new();
        if path == "-" {
            std::io::stdin().read_to_string(&mut text).map_err(|e| CliError::Input(format!("stdin: {e}")))?;
        } else {
            text = std::fs::read_to_string(path).map_err(|e| CliError::Input(format!("{path}: {e}")))?;
        }
        for (tags, movetext) in games(&text) {
            if args.max_games.is_some_and(|m| used >= m) {
                break;
            }
            let tag = |n: &str| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
            let result = match tag("Result") {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                Some("1/2-1/2") => 0.5,
                _ => continue,
            };
            if tag("FEN").is_some() || tag("Variant").is_some_and(|v| !v.eq_ignore_ascii_case("standard")) {
                continue;
            }
            let mut pos = Chess::startpos();
            let mut quiet_index = 0;
            let mut ok = true;
            for (ply, token) in san_tokens(&movetext).iter().enumerate() {
                let Ok(mv) = san::parse_san(&pos, token) else {
                    ok = false;
                    break;
                };
                let capture = mv.is_en_passant() || pos.board().occupied().contains(mv.to()) && !mv.is_castle();
                if ply >= args.skip_plies && !pos.is_check() && !capture && mv.promotion().is_none() {
                    if quiet_index % args.every.max(1) == 0 {
                        samples.push(Sample { trace: evaluator.trace(&pos), result });
                    }
                    quiet_index += 1;
                }
                pos.play_unchecked(mv);
            }
            if ok {
                used += 1;
            } else {
                broken += 1;
            }
        }
    }
    Ok((samples, used, broken))
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

fn mse(samples: &[Sample], params: &[Score], k: f64) -> f64 {
    samples.iter().map(|s| (s.result - sigmoid(k, evaluate_trace(&s.trace, params))).powi(2)).sum::<f64>()
        / samples.len().max(1) as f64
}

fn fit_k(samples: &[Sample], params: &[Score]) -> f64 {
    let (mut lo, mut hi) = (0.1, 3.0);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if mse(samples, params, a) < mse(samples, params, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

pub fn run(args: TuneArgs) -> Result<ExitCode, CliError> {
    let start = Instant::now();
    let evaluator = Evaluator::new(Weights::initial());
    let (samples, games, broken) = load(&args, &evaluator)?;
    if samples.is_empty() {
        return Err(CliError::Input("no positions found in the PGN input".to_string()));
    }
    eprintln!(
        "{} positions from {games} games ({broken} games skipped: unreadable moves) in {:.1} s",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    let mut params: Vec<[f64; 2]> = evaluator.weights.params.iter().map(|s| [s.0 as f64, s.1 as f64]).collect();
    let as_scores =
        |p: &[[f64; 2]]| -> Vec<Score> { p.iter().map(|v| Score(v[0].round() as i32, v[1].round() as i32)).collect() };
    let k = fit_k(&samples, &evaluator.weights.params);
    let initial = mse(&samples, &evaluator.weights.params, k);
    eprintln!("K = {k:.4}, mean squared error with the initial weights: {initial:.6}");

    // Adam on the full batch. The king's material stays 0 (it never changes hands).
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0f64; 2]; N_PARAMS];
    let mut v = vec![[0.0f64; 2]; N_PARAMS];
    let ln10 = std::f64::consts::LN_10;
    for epoch in 1..=args.epochs {
        let mut grad = vec![[0.0f64; 2]; N_PARAMS];
        for s in &samples {
            let (mut mg, mut eg) = (0.0, 0.0);
            for &(p, c) in &s.trace.terms {
                mg += params[p as usize][0] * c as f64;
                eg += params[p as usize][1] * c as f64;
            }
            let phase = s.trace.phase as f64 / eval::MAX_PHASE as f64;
            let e = mg * phase + eg * (1.0 - phase) + s.trace.fixed as f64;
            let p = sigmoid(k, e);
            // d/de of (r - p)^2 = -2 (r - p) p (1 - p) k ln10 / 400
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k * ln10 / 400.0;
            for &(i, c) in &s.trace.terms {
                grad[i as usize][0] += d * c as f64 * phase;
                grad[i as usize][1] += d * c as f64 * (1.0 - phase);
            }
        }
        let n = samples.len() as f64;
        for i in 0..N_PARAMS {
            if i == eval::MATERIAL + 5 {
                continue;
            }
            for j in 0..2 {
                let g = grad[i][j] / n;
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * g;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * g * g;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                params[i][j] -= args.rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 50 == 0 || epoch == args.epochs {
            eprintln!("epoch {epoch}: error {:.6}", mse(&samples, &as_scores(&params), k));
        }
    }
    let fitted = as_scores(&params);
    let final_error = mse(&samples, &fitted, k);
    eprintln!(
        "error {initial:.6} -> {final_error:.6} ({} positions, {:.1} s)",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    let source = rust_source(&fitted, k, samples.len(), games, initial, final_error, &args);
    if let Some(dir) = std::path::Path::new(&args.out).parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| CliError::Failure(format!("{}: {e}", dir.display())))?;
        }
    }
    std::fs::write(&args.out, source).map_err(|e| CliError::Failure(format!("{}: {e}", args.out)))?;
    println!("fitted weights written to {}", args.out);
    Ok(ExitCode::SUCCESS)
}

fn rust_source(
    params: &[Score],
    k: f64,
    positions: usize,
    games: usize,
    before: f64,
    after: f64,
    args: &TuneArgs,
) -> String {
    let mut s = String::new();
    s.push_str("//! Fitted evaluation weights, written by `mysl tune` (see docs/tuning.md). Do not edit by hand.\n");
    s.push_str(&format!(
        "//! Fit: {positions} positions from {games} games ({}), every {} quiet position after ply {}, {} epochs,\n//! K = {k:.4}, mean squared error {before:.6} -> {after:.6}.\n\n",
        args.pgn.join(", "),
        args.every,
        args.skip_plies,
        args.epochs
    ));
    s.push_str("use crate::eval::{Score, Weights};\n\n#[rustfmt::skip]\nconst PARAMS: [(i32, i32); ");
    s.push_str(&format!("{}] = [\n", params.len()));
    for (i, p) in params.iter().enumerate() {
        s.push_str(&format!("    ({}, {}), // {}\n", p.0, p.1, eval::param_name(i)));
    }
    s.push_str(
        "];\n\n/// The fitted weights; parameters added after this fit keep their initial values.\n\
         pub fn weights() -> Option<Weights> {\n    let mut w = Weights::initial();\n    \
         for (p, &(m, e)) in w.params.iter_mut().zip(PARAMS.iter()) {\n        *p = Score(m, e);\n    }\n    \
         Some(w)\n}\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_tokens() {
        let g = games("[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3.Bb5 1-0\n[Event \"y\"]\n1. d4 *\n");
        assert_eq!(g.len(), 2);
        assert_eq!(san_tokens(&g[0].1), vec!["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(g[0].0.iter().find(|(k, _)| k == "Result").map(|(_, v)| v.as_str()), Some("1-0"));
    }
}
