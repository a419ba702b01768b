//! Times the generation of endings: `cargo run --release -p mysl-tb --example gen_time -- [THREADS] [MATERIAL...]`
//! (default: all 3-4 piece endings on 2 threads). Set MYSL_TB_TRACE=1 for a per-phase breakdown.
use std::time::Instant;

use mysl_tb::{Generator, Material, Silent};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = args.first().and_then(|a| a.parse().ok()).unwrap_or(2);
    let names: Vec<Material> = if args.len() > 1 {
        args[1..].iter().map(|s| Material::parse(s).expect("material")).collect()
    } else {
        Material::all_up_to(4)
    };
    let mut g = Generator::new(threads);
    let start = Instant::now();
    for m in Generator::plan(&names) {
        let t0 = Instant::now();
        let cpu0 = cpu_time();
        g.generate(m, &Silent);
        let t = &g.tables[&m];
        println!(
            "{m:8} {:>9} index entries/side  {:6.2} s wall {:6.2} s cpu",
            t.layout.size,
            t0.elapsed().as_secs_f64(),
            cpu_time() - cpu0
        );
    }
    println!("total {:.1} s wall, {:.1} s cpu", start.elapsed().as_secs_f64(), cpu_time());
}

/// Process CPU time in seconds (Linux /proc; 0 elsewhere).
fn cpu_time() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    let f: Vec<&str> = s.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks: f64 =
        f.get(11).and_then(|x| x.parse().ok()).unwrap_or(0.0) + f.get(12).and_then(|x| x.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}
