//! Training throughput on synthetic positions (random playouts labelled with the material balance):
//! `cargo run --release -p mysl-nnue --example train_speed -- [hidden] [threads] [positions] [batch] [epochs]`.
//! Prints positions per second of the training steps (forward, backward, AdamW) and of validation.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use mysl_nnue::train::{synth, TrainConfig, Trainer};

fn arg(i: usize, default: usize) -> usize {
    std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

/// CPU seconds used by this process so far (user + system, from /proc/self/stat; None elsewhere).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let hidden = arg(1, 256);
    let threads = arg(2, 2);
    let positions = arg(3, 400_000);
    let batch = arg(4, 16384);
    let epochs = arg(5, 2);
    let t0 = Instant::now();
    let data = synth::material_records(positions, 1);
    let pieces: usize =
        data.iter().map(|r| u64::from_le_bytes(r[..8].try_into().unwrap_or_default()).count_ones() as usize).sum();
    eprintln!(
        "{positions} synthetic positions ({:.1} pieces on average) in {:.1} s",
        pieces as f64 / positions as f64,
        t0.elapsed().as_secs_f64()
    );
    let cfg = TrainConfig { hidden, threads, batch, epochs: epochs as u32, ..TrainConfig::default() };
    let mut t = Trainer::new(cfg).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("hidden {hidden}, {threads} threads, batch {batch}, AVX2+FMA kernels: {}", t.simd());
    let stop = AtomicBool::new(false);
    for _ in 0..epochs {
        let cpu0 = cpu_seconds();
        if let Some(s) = t.run_epoch(&data, &stop, &mut |_| {}) {
            let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
            println!(
                "epoch {}: train loss {:.5}, {:.0} positions/s ({:.2} s wall{})",
                s.epoch,
                s.train_loss,
                s.pos_per_s,
                s.secs,
                cpu.map_or(String::new(), |c| format!(
                    ", {c:.2} s CPU: {:.0} positions per CPU-second, {:.0}% of {threads} cores",
                    positions as f64 / c,
                    100.0 * c / s.secs / threads as f64
                ))
            );
        }
    }
    let t0 = Instant::now();
    let _ = t.validation_loss(&data);
    println!("validation: {:.0} positions/s", positions as f64 / t0.elapsed().as_secs_f64());
}
