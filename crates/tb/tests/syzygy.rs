//! Our WDL50 and DTZ50 against the Syzygy tables in ../shared/data/syzygy, probed with shakmaty-syzygy.

mod common;

use common::*;
use mysl_tb::{Material, Tablebase};

fn check(names: &[&str], step: u64) {
    let Some(data) = shared_data() else { return };
    let tables = generate(names);
    let syz = syzygy(&data);
    let ours = Tablebase::from_tables(tables.clone());
    let mut total = 0;
    for name in names {
        let m = Material::parse(name).unwrap().normalized();
        let t = &tables[&m];
        let pos = positions(t, step, 7);
        let (n, bad) = compare_with_syzygy(&syz, &ours, &pos);
        assert!(bad.is_empty(), "{name}: {} of {n} positions differ from Syzygy, e.g.\n{}", bad.len(), bad.join("\n"));
        eprintln!("{name}: {n} positions agree with Syzygy (every {step}. index)");
        total += n;
    }
    eprintln!("total {total} positions");
}

#[test]
fn three_pieces_exhaustive() {
    check(&["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"], 1);
}

#[test]
fn kqvkr_sampled() {
    check(&["KQvKR"], 13);
}
