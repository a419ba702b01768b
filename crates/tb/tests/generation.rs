//! The generator's two ways of keeping values agree: on the heap with every sub-table in memory (the 3-4
//! piece endings), and in a mapped file, slice by slice with finished slices released, with sub-tables read
//! from their files through the block cache (the 5-piece endings, with and without pawns). Needs no shared
//! data: both sides are computed here.

use std::sync::Arc;

use mysl_tb::gen::generate_metric;
use mysl_tb::read::{Sources, TableFile};
use mysl_tb::table::{Store, DTM, DTZ};
use mysl_tb::write::write_table;
use mysl_tb::{generate_table, Generator, Material, Silent};

/// Generates `name` both ways and asserts equal values; the sub-tables `from_files` are served from files.
fn check(name: &str, from_files: &[&str]) {
    let m = Material::parse(name).expect("test value").normalized();
    let mut g = Generator::new(2);
    for s in Generator::plan(&[m]) {
        if s != m {
            g.generate(s, &Silent);
        }
    }
    let t0 = std::time::Instant::now();
    let heap = generate_table(m, &g.tables, 2, &Silent);
    eprintln!("{name}: heap {:.2} s", t0.elapsed().as_secs_f64());
    let dir = tempfile::tempdir().expect("tempdir");
    let mut subs = Sources::default();
    let files: Vec<Material> =
        from_files.iter().map(|n| Material::parse(n).expect("test value").normalized()).collect();
    for (sm, t) in &g.tables {
        if files.contains(sm) {
            let path = write_table(dir.path(), t).expect("write");
            subs.files.insert(*sm, Arc::new(TableFile::open(&path, Some(*sm)).expect("open")));
        } else {
            subs.tables.insert(*sm, t.clone());
        }
    }
    assert_eq!(subs.files.len(), files.len(), "{name}: every file-served ending is a sub-table");
    for metric in [DTZ, DTM] {
        let t0 = std::time::Instant::now();
        let mapped = generate_metric(m, &subs, 2, &Silent, metric, Store::Mapped(dir.path())).expect("generate");
        eprintln!("{name}: mapped metric {metric} {:.2} s", t0.elapsed().as_secs_f64());
        let want: &[Vec<i16>; 2] = if metric == DTM { &heap.dtm } else { &heap.dtz };
        for (side, want) in want.iter().enumerate() {
            let mut differ = 0;
            for (i, (a, b)) in mapped.values[side].iter().zip(want).enumerate() {
                let a = a.load(std::sync::atomic::Ordering::Relaxed);
                if a != *b {
                    if differ < 5 {
                        eprintln!("{name} metric {metric} side {side} index {i}: mapped {a}, heap {b}");
                    }
                    differ += 1;
                }
            }
            assert_eq!(differ, 0, "{name}: metric {metric}, side {side}: values differ");
        }
    }
}

#[test]
fn mapped_slices_and_file_subtables_give_the_same_values_one_pawn() {
    // the promotions of KRvKP lead into KRvKQ, KRvKR, ... of which two are read from files
    check("KRvKP", &["KQvKR", "KRvKR"]);
}

#[test]
fn mapped_slices_give_the_same_values_two_pawns() {
    // pawns of both colours: slices reach each other by pushes of either pawn, double pushes, en passant
    check("KPvKP", &["KQvK"]);
}

#[test]
fn mapped_pawnless_ending() {
    check("KBNvK", &[]);
}

/// The push targets of every slice are slices of a higher advance (so they are finished first).
#[test]
fn push_targets_are_more_advanced() {
    for name in ["KRvKP", "KPvKP", "KPPvK", "KRPvKR"] {
        let l = mysl_tb::index::Layout::new(Material::parse(name).expect("test value").normalized());
        let mut any = 0;
        for s in 0..l.slices() {
            for t in l.push_targets(s) {
                assert!(t < l.slices(), "{name}: slice {s} -> {t}");
                assert!(l.slice_advance(t) > l.slice_advance(s), "{name}: slice {s} -> {t}");
                any += 1;
            }
        }
        assert!(any > 0, "{name}: no pawn moves");
    }
}
