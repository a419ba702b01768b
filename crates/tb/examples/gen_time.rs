//! Times the generation of endings and measures their files:
//! `cargo run --release -p mysl-tb --example gen_time -- [THREADS] [MATERIAL...]`
//! (default: all 3-4 piece endings on 2 threads). Set MYSL_TB_TRACE=1 for a per-phase breakdown. A 5-piece
//! ending is generated as `mysl tb gen` does it, metric by metric into its file (with pawns after the 5-piece
//! endings it promotes into, read from their files), and timed with the file's encoding.
//! `MYSL_TB_SIZES=1` also encodes every table (the current file format) and prints the compressed bytes of its WDL,
//! DTZ and DTM streams in bits per unique position (positions up to symmetry, both sides to move, counted as
//! the Syzygy generator counts them), and the totals. `MYSL_TB_DIR=DIR` writes the files there.
use std::time::Instant;

use mysl_tb::read::TableFile;
use mysl_tb::stats::{stats, Counting};
use mysl_tb::write::encode_table_resolved;
use mysl_tb::{Generator, Material, Silent};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = args.first().and_then(|a| a.parse().ok()).unwrap_or(2);
    let names: Vec<Material> = if args.len() > 1 {
        args[1..].iter().map(|s| Material::parse(s).expect("material")).collect()
    } else {
        Material::all_up_to(4)
    };
    let sizes = std::env::var_os("MYSL_TB_SIZES").is_some();
    let mut g = Generator::new(threads);
    let mut files = std::collections::HashMap::new();
    let tmp = std::env::temp_dir().join(format!("mysl-gen-time-{}", std::process::id()));
    let start = Instant::now();
    let cpu_start = cpu_time();
    let (mut gen_wall, mut gen_cpu) = (0.0, 0.0);
    let mut total = [0u64; 3];
    let mut total_positions = 0u64;
    for m in Generator::plan(&names) {
        let t0 = Instant::now();
        let cpu0 = cpu_time();
        if m.count() == 5 {
            // as `mysl tb gen`: metric by metric, straight to a file (MYSL_TB_DIR or a temporary directory)
            let dir = std::env::var_os("MYSL_TB_DIR").map(std::path::PathBuf::from).unwrap_or_else(|| tmp.clone());
            let subs = mysl_tb::read::Sources { tables: g.tables.clone(), files: files.clone() };
            let path = mysl_tb::write::generate_file(m, &subs, threads, &Silent, &dir).expect("generate");
            let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_time() - cpu0);
            gen_wall += wall;
            gen_cpu += cpu;
            let f = TableFile::open(&path, Some(m)).expect("reopen");
            let b = f.stream_bytes();
            println!(
                "{m:8} {:>9} index entries/side  {wall:6.2} s wall {cpu:6.2} s cpu (with the file)  {} bytes: WDL {} DTZ {} DTM {}",
                f.layout.size,
                b.iter().sum::<u64>(),
                b[0],
                b[1],
                b[2]
            );
            files.insert(m, std::sync::Arc::new(f));
            continue;
        }
        g.generate(m, &Silent);
        let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_time() - cpu0);
        gen_wall += wall;
        gen_cpu += cpu;
        let t = &g.tables[&m];
        print!("{m:8} {:>9} index entries/side  {wall:6.2} s wall {cpu:6.2} s cpu", t.layout.size);
        if let Some(dir) = std::env::var_os("MYSL_TB_DIR") {
            mysl_tb::write::write_table_resolved(std::path::Path::new(&dir), t, &g.tables).expect("write");
        }
        if sizes {
            let bytes = encode_table_resolved(t, &g.tables).expect("encode");
            let f = TableFile::from_bytes(std::path::Path::new("mem"), bytes.clone(), Some(m)).expect("reopen");
            let s = stats(t, true, Counting::SyzygyUnique);
            let positions = s[0].positions + s[1].positions;
            let b = f.stream_bytes();
            let bits = |x: u64| 8.0 * x as f64 / positions as f64;
            print!(
                "  {:>9} bytes; bits/position WDL {:.3} DTZ {:.3} DTM {:.3}",
                bytes.len(),
                bits(b[0]),
                bits(b[1]),
                bits(b[2])
            );
            for k in 0..3 {
                total[k] += b[k];
            }
            total_positions += positions;
        }
        println!();
    }
    println!(
        "total {:.1} s wall, {:.1} s cpu (generation only: {gen_wall:.1} s wall, {gen_cpu:.1} s cpu)",
        start.elapsed().as_secs_f64(),
        cpu_time() - cpu_start
    );
    if sizes {
        let bits = |x: u64| 8.0 * x as f64 / total_positions as f64;
        println!(
            "sizes: {total_positions} unique positions; WDL {} bytes ({:.3} bits/position), DTZ {} bytes ({:.3}), DTM {} bytes ({:.3})",
            total[0],
            bits(total[0]),
            total[1],
            bits(total[1]),
            total[2],
            bits(total[2])
        );
    }
    drop(files);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Process CPU time (user + system) in seconds (Linux /proc; 0 elsewhere).
fn cpu_time() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    let f: Vec<&str> = s.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks: f64 =
        f.get(11).and_then(|x| x.parse().ok()).unwrap_or(0.0) + f.get(12).and_then(|x| x.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}
