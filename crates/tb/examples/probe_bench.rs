//! Warm probe latency of our files against shakmaty-syzygy on the same random positions:
//! `cargo run --release -p mysl-tb --example probe_bench -- OUR_DIR SYZYGY_DIR [POSITIONS] [MATERIAL...]`
//! (default: 100,000 positions of every 4-piece ending present in both directories). Each probe set is run
//! once to load the tables and fault the pages in, then timed over a second pass.
use std::path::PathBuf;
use std::time::Instant;

use mysl_core::Color;
use mysl_tb::pos::TbPos;
use mysl_tb::{Material, Tablebase};
use shakmaty::{fen::Fen, CastlingMode, Chess};
use shakmaty_syzygy::{Tablebase as Syzygy, Wdl};

#[allow(clippy::result_large_err)] // shakmaty's PositionError
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ours = PathBuf::from(args.first().expect("OUR_DIR"));
    let syz_dir = PathBuf::from(args.get(1).expect("SYZYGY_DIR"));
    let n: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let mut names: Vec<Material> =
        args[3.min(args.len())..].iter().map(|s| Material::parse(s).expect("material")).collect();
    if names.is_empty() {
        names = Material::all_up_to(4)
            .into_iter()
            .filter(|m| m.count() == 4)
            .filter(|m| ours.join(format!("{m}.mtb")).exists() && syz_dir.join(format!("{m}.rtbw")).exists())
            .collect();
    }
    assert!(!names.is_empty(), "no ending present in both directories");
    // random legal positions
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut positions: Vec<(TbPos, Chess)> = Vec::with_capacity(n);
    while positions.len() < n {
        let m = names[(next() % names.len() as u64) as usize];
        let text = m.to_string();
        let (w, b) = text.split_once('v').expect("v");
        let mut pieces = Vec::new();
        for (color, side) in [(Color::White, w), (Color::Black, b)] {
            for c in side.chars() {
                pieces.push((color, mysl_core::Role::from_char(c).expect("role")));
            }
        }
        let mut sq = Vec::new();
        let mut occ = 0u64;
        for &(_, r) in &pieces {
            loop {
                let s = (next() % 64) as u8;
                let pawn_bad = r == mysl_core::Role::Pawn && !(8..56).contains(&s);
                if occ & (1 << s) == 0 && !pawn_bad {
                    occ |= 1 << s;
                    sq.push(s);
                    break;
                }
            }
        }
        let stm = if next() % 2 == 0 { Color::White } else { Color::Black };
        let p = TbPos::new(&pieces, &sq, stm);
        if !p.is_legal() {
            continue;
        }
        let Ok(c) = p
            .fen()
            .parse::<Fen>()
            .expect("fen")
            .into_position::<Chess>(CastlingMode::Standard)
            .or_else(|e| e.ignore_impossible_check())
        else {
            continue;
        };
        positions.push((p, c));
    }
    let tb = Tablebase::open_dir(&ours);
    // SAFETY: shakmaty-syzygy's contract for memory maps: the files are not modified while the
    // benchmark runs.
    let mut syz = unsafe { Syzygy::<Chess>::with_mmap_filesystem() };
    syz.add_directory(&syz_dir).expect("syzygy directory");
    let time = |f: &dyn Fn() -> i64| {
        f(); // warm-up: open tables, fault pages in
        let t = Instant::now();
        let s = f();
        (t.elapsed().as_nanos() as f64 / n as f64, s)
    };
    let (ours_wdl, s1) = time(&|| positions.iter().map(|(p, _)| tb.probe_wdl(p).expect("ours") as i64).sum());
    let (ours_all, _) = time(&|| positions.iter().map(|(p, _)| tb.probe(p).expect("ours").dtm() as i64).sum());
    let wdl = |w: Wdl| match w {
        Wdl::Loss => -2,
        Wdl::BlessedLoss => -1,
        Wdl::Draw => 0,
        Wdl::CursedWin => 1,
        Wdl::Win => 2,
    };
    let (syz_wdl, s2) =
        time(&|| positions.iter().map(|(_, c)| wdl(syz.probe_wdl_after_zeroing(c).expect("syzygy"))).sum());
    let (syz_dtz, _) =
        time(&|| positions.iter().map(|(_, c)| syz.probe_dtz(c).expect("syzygy").ignore_rounding().0 as i64).sum());
    let agree = positions
        .iter()
        .filter(|(p, c)| tb.probe_wdl(p).ok() == syz.probe_wdl_after_zeroing(c).ok().map(|w| wdl(w) as i8))
        .count();
    println!("{n} random legal positions of {} endings, warm, one thread:", names.len());
    println!("  mysl WDL            {ours_wdl:8.0} ns/probe");
    println!("  mysl WDL+DTZ+DTM    {ours_all:8.0} ns/probe");
    println!("  shakmaty-syzygy WDL {syz_wdl:8.0} ns/probe");
    println!("  shakmaty-syzygy DTZ {syz_dtz:8.0} ns/probe");
    println!("  WDL agrees on {agree} of {n} positions (sums {s1} / {s2})");
}
