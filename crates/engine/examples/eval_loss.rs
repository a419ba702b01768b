//! How well each evaluation predicts our games: the training loss of the hand-crafted evaluation and of
//! a network on `mysl datagen` records, `(sigmoid(eval/400) − t)²` with
//! `t = (1 − wdl)·sigmoid(score/400) + wdl·result` (side to move's view, as `mysl train` uses), and the
//! loss against the game result alone. A sample of every K-th record.
//! `cargo run --release -p mysl-engine --example eval_loss -- DATA_DIR NET.nnue [EVERY_K] [WDL]`

use std::sync::Arc;

use mysl_core::{Chess, Color};
use mysl_engine::eval::Evaluator;
use mysl_engine::Network;
use mysl_nnue::record::{Record, RECORD_SIZE};
use mysl_nnue::Accumulator;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(dir), Some(net)) = (args.first(), args.get(1)) else {
        eprintln!("usage: eval_loss DATA_DIR NET.nnue [EVERY_K] [WDL]");
        std::process::exit(2);
    };
    let every: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(50);
    let wdl: f64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0.3);
    let net = match Network::load(net) {
        Ok(n) => Arc::new(n),
        Err(e) => {
            eprintln!("eval_loss: {e}");
            std::process::exit(2);
        }
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| {
            eprintln!("eval_loss: {dir}: {e}");
            std::process::exit(2)
        })
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    files.sort();
    let mut hce = Evaluator::default();
    let mut acc = Accumulator::new(&net);
    let (mut n, mut l_hce, mut l_net, mut r_hce, mut r_net) = (0usize, 0f64, 0f64, 0f64, 0f64);
    let mut k = 0usize;
    // Scale: mean absolute values, and the least-squares slope of each evaluation against the search score.
    let (mut a_score, mut a_hce, mut a_net, mut ss, mut sh, mut sn) = (0f64, 0f64, 0f64, 0f64, 0f64, 0f64);
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        for chunk in bytes.chunks_exact(RECORD_SIZE) {
            k += 1;
            if !k.is_multiple_of(every) {
                continue;
            }
            let Ok(rec) = Record::from_bytes(chunk.try_into().expect("32 bytes")) else { continue };
            let board = rec.board();
            let fen = format!("{} {} - - 0 1", board.board_fen(), if rec.turn == Color::White { 'w' } else { 'b' });
            let Ok(pos) = Chess::from_fen(&fen) else { continue };
            let sign = if rec.turn == Color::White { 1.0 } else { -1.0 };
            let score = sign * rec.score as f64;
            let result = if rec.turn == Color::White {
                rec.result.white_score() as f64
            } else {
                1.0 - rec.result.white_score() as f64
            };
            let t = (1.0 - wdl) * sigmoid(score / 400.0) + wdl * result;
            let e_hce = hce.evaluate(&pos) as f64;
            acc.refresh(&net, &board);
            let e_net = net.evaluate(&acc, rec.turn) as f64;
            l_hce += (sigmoid(e_hce / 400.0) - t).powi(2);
            l_net += (sigmoid(e_net / 400.0) - t).powi(2);
            r_hce += (sigmoid(e_hce / 400.0) - result).powi(2);
            r_net += (sigmoid(e_net / 400.0) - result).powi(2);
            a_score += score.abs();
            a_hce += e_hce.abs();
            a_net += e_net.abs();
            ss += score * score;
            sh += score * e_hce;
            sn += score * e_net;
            n += 1;
        }
    }
    let n = n.max(1) as f64;
    println!("{} positions (every {every}th), wdl {wdl}", n as usize);
    println!("training loss: hand-crafted {:.6}, network {:.6}", l_hce / n, l_net / n);
    println!("loss against the result alone: hand-crafted {:.6}, network {:.6}", r_hce / n, r_net / n);
    println!(
        "mean |value|: search score {:.1}, hand-crafted {:.1}, network {:.1}; slope against the score: hand-crafted {:.3}, network {:.3}",
        a_score / n,
        a_hce / n,
        a_net / n,
        sh / ss.max(1.0),
        sn / ss.max(1.0)
    );
}
