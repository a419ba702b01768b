//! Measures what pair coding (Re-Pair + canonical Huffman, `mysl_tb::pair`, the file format's codec since
//! version 4) makes of our WDL and DTZ streams under changes the format does not have yet (issue 23):
//! `cargo run --release -p mysl-tb --example pair_coding -- [MATERIAL...]` (default: all 3-4 piece endings).
//!
//! For each ending it generates the table, takes the exact values `mysl tb gen` stores in each WDL and DTZ
//! stream (after the writer's don't-care filling and with what captures and zeroing moves decide left to
//! the reader: `write::stream_values` + `write::fill_dont_care`, checked against the file's own decoding),
//! and prints in bits per position (both sides to move over the positions the Syzygy generator counts, as
//! docs/tablebases.md):
//! * (a) the bytes of the streams in our file (pair coded, as the format writes them);
//! * (b) the same values pair coded again here (equal to (a) for the endings of up to 4 pieces: a check);
//! * (c) as (b) with DTZ for one side to move only (the smaller; the other side's from a 1-ply search, as
//!   Syzygy), and WDL for one side in symmetric endings (KRvKR: the other side is the colour flip);
//! * (d) as (c) with the DTZ stream's sign dropped (a loss in `d` plies stored as `d`: the reader knows the
//!   sign from the WDL it probes first);
//! * (e) as (d) in moves instead of plies (`(d + 1) / 2`: lossy here; Syzygy stores moves where the ply does
//!   not matter for the 50-move rule and its readers accept a DTZ one ply off);
//! * Syzygy's .rtbw / .rtbz files of the ending (`SYZYGY`, default ../shared/data/syzygy).
use std::path::PathBuf;

use mysl_tb::pair;
use mysl_tb::read::TableFile;
use mysl_tb::stats::{stats, Counting};
use mysl_tb::write::{encode_table_resolved, fill_dont_care, stream_values};
use mysl_tb::{Generator, Material, Silent};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<Material> = if args.is_empty() {
        Material::all_up_to(4)
    } else {
        args.iter().map(|s| Material::parse(s).expect("material")).collect()
    };
    let syzygy = std::env::var_os("SYZYGY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/syzygy")));
    let mut g = Generator::new(1);
    println!(
        "{:8} {:>10} | {:>6} {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
        "ending", "positions", "WDL a", "b", "c", "sz", "DTZ a", "a1side", "b", "c", "d", "e", "sz"
    );
    // totals: positions; WDL a, b, c, Syzygy; DTZ a, a one side, b, c, d, e, Syzygy (bytes)
    let mut tot = [0u64; 12];
    for m in Generator::plan(&names) {
        if m.count() > 4 {
            continue;
        }
        g.generate(m, &Silent);
        if !names.contains(&m) {
            continue;
        }
        let t = &g.tables[&m];
        let s = stats(t, true, Counting::SyzygyUnique);
        let positions = s[0].positions + s[1].positions;
        let values = stream_values(t, Some(&g.tables)).expect("stream values");
        let file = TableFile::from_bytes(
            std::path::Path::new("mem"),
            encode_table_resolved(t, &g.tables).expect("encode"),
            Some(m),
        )
        .expect("reopen");
        let a = file.section_bytes();
        let mut b = [0u64; 4];
        let (mut d, mut e) = ([0u64; 2], [0u64; 2]);
        for (k, v) in values[..4].iter().enumerate() {
            let filled = fill_dont_care(v);
            assert_eq!(
                filled,
                file.stored_values(k).expect("decode"),
                "{m} stream {k}: not the values the file stores"
            );
            let limits = if k < 2 { (4, 6) } else { (6, 10) };
            b[k] = pair_coded_bytes(&filled, limits);
            if k >= 2 {
                // the DTZ without its sign (the reader knows it from the WDL): a loss in d plies as d
                let unsigned: Vec<Option<i16>> = v.iter().map(|x| x.map(|z| if z < 0 { -1 - z } else { z })).collect();
                d[k - 2] = pair_coded_bytes(&fill_dont_care(&unsigned), limits);
                // ... and in moves instead of plies (Syzygy's files where the ply does not matter: lossy here)
                let moves: Vec<Option<i16>> = unsigned.iter().map(|x| x.map(|z| (z + 1) / 2)).collect();
                e[k - 2] = pair_coded_bytes(&fill_dont_care(&moves), limits);
            }
        }
        // a symmetric ending's Black-to-move streams are its White-to-move ones with the colours exchanged
        let wdl_c = if m.is_symmetric() { b[0] } else { b[0] + b[1] };
        let size = |ext: &str| std::fs::metadata(syzygy.join(format!("{m}.{ext}"))).map_or(0, |x| x.len());
        let (szw, szz) = (size("rtbw"), size("rtbz"));
        let row = [
            positions,
            a[0] + a[1],
            b[0] + b[1],
            wdl_c,
            szw,
            a[2] + a[3],
            a[2].min(a[3]),
            b[2] + b[3],
            b[2].min(b[3]),
            d[0].min(d[1]),
            e[0].min(e[1]),
            szz,
        ];
        for (x, y) in tot.iter_mut().zip(row) {
            *x += y;
        }
        print_row(&m.to_string(), &row);
    }
    print_row("total", &tot);
    println!(
        "bits per position; a: our files; a1side: our DTZ, one side to move; b: Re-Pair + Huffman, blocks; c: b with \
         one side's DTZ (the smaller) and one side's WDL in symmetric endings; d: c with the DTZ's sign dropped (the \
         WDL gives it); e: d in moves instead of plies (lossy, as Syzygy where the ply does not matter); sz: \
         Syzygy ({})",
        syzygy.display()
    );
}

fn print_row(name: &str, r: &[u64; 12]) {
    let bits = |x: u64| 8.0 * x as f64 / r[0].max(1) as f64;
    println!(
        "{name:8} {:>10} | {:6.3} {:6.3} {:6.3} {:6.3} | {:6.3} {:6.3} {:6.3} {:6.3} {:6.3} {:6.3} {:6.3}",
        r[0],
        bits(r[1]),
        bits(r[2]),
        bits(r[3]),
        bits(r[4]),
        bits(r[5]),
        bits(r[6]),
        bits(r[7]),
        bits(r[8]),
        bits(r[9]),
        bits(r[10]),
        bits(r[11]),
    );
}

/// Bytes of `values` pair coded as the file format does (`mysl_tb::pair`, blocks of 2^k bytes, `k` in `logs`,
/// the smallest section), with the 4-byte codec tag; the section is decoded and checked against `values`.
fn pair_coded_bytes(values: &[i16], logs: (u32, u32)) -> u64 {
    let Some(section) = pair::encode(values.to_vec(), logs.0..=logs.1) else {
        return 0;
    };
    let p = pair::PairStream::parse(&section, 0, section.len(), values.len() as u64).expect("a section it wrote");
    let (mut all, mut out) = (Vec::with_capacity(values.len()), Vec::new());
    for b in 0..p.blocks() {
        p.decode_block(&section, b, &mut out).expect("a block it wrote");
        all.extend_from_slice(&out);
    }
    assert!(all == values, "the pair code does not decode to the stream");
    4 + section.len() as u64
}
