//! Helpers shared by the tablebase tests: the shared data directory, in-memory generation and the Syzygy
//! oracle (shakmaty-syzygy).
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use mysl_core::Color;
use mysl_tb::pos::TbPos;
use mysl_tb::{Generator, Material, Silent, Table};
use shakmaty::{fen::Fen, CastlingMode, Chess};
use shakmaty_syzygy::{MaybeRounded, Tablebase as Syzygy, Wdl};

pub fn shared_data() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    if dir.join("syzygy").is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/data/syzygy not found (expected beside the checkout at {})", dir.display());
        None
    }
}

/// One generator shared by all tests of a test binary (tables are generated once).
pub fn generate(names: &[&str]) -> HashMap<Material, Arc<Table>> {
    static GEN: OnceLock<Mutex<Generator>> = OnceLock::new();
    let g = GEN.get_or_init(|| Mutex::new(Generator::new(2)));
    let mut g = g.lock().unwrap_or_else(|e| e.into_inner());
    for n in names {
        g.generate(Material::parse(n).expect("material"), &Silent);
    }
    g.tables.clone()
}

pub fn syzygy(data: &std::path::Path) -> Syzygy<Chess> {
    let mut tb = Syzygy::new();
    tb.add_directory(data.join("syzygy")).expect("syzygy directory");
    tb
}

pub fn to_shakmaty(fen: &str) -> Chess {
    fen.parse::<Fen>().expect("fen").into_position(CastlingMode::Standard).expect("legal position")
}

pub fn wdl_i8(w: Wdl) -> i8 {
    match w {
        Wdl::Loss => -2,
        Wdl::BlessedLoss => -1,
        Wdl::Draw => 0,
        Wdl::CursedWin => 1,
        Wdl::Win => 2,
    }
}

/// Does our exact DTZ agree with Syzygy's (which may be rounded down by one ply in magnitude)?
pub fn dtz_agrees(ours: i32, theirs: MaybeRounded<shakmaty_syzygy::Dtz>) -> bool {
    match theirs {
        MaybeRounded::Precise(d) => d.0 == ours,
        MaybeRounded::Rounded(d) => {
            d.0.signum() == ours.signum() && (ours.abs() == d.0.abs() || ours.abs() == d.0.abs() + 1)
        }
    }
}

/// Valid positions of a table: (index, side to move, position). `step` > 1 samples every step-th index.
pub fn positions(t: &Table, step: u64, offset: u64) -> Vec<TbPos> {
    let l = &t.layout;
    let mut out = Vec::new();
    let mut sq = [0u8; 8];
    let mut idx = offset % step.max(1);
    while idx < l.size {
        let i = idx as usize;
        if l.decode(idx, &mut sq).is_some() {
            for (side, stm) in [(0, Color::White), (1, Color::Black)] {
                if t.dtz[side][i] != mysl_tb::value::INVALID {
                    out.push(TbPos::new(&l.pieces, &sq[..l.len()], stm));
                }
            }
        }
        idx += step.max(1);
    }
    out
}

/// Compares WDL and DTZ with Syzygy on the given positions; returns (checked, first mismatches).
pub fn compare_with_syzygy(tb: &Syzygy<Chess>, ours: &mysl_tb::Tablebase, positions: &[TbPos]) -> (u64, Vec<String>) {
    let mut bad = Vec::new();
    let mut n = 0;
    for p in positions {
        let fen = p.fen();
        let sp = to_shakmaty(&fen);
        let r = ours.probe(p).expect("probe ours");
        let w = wdl_i8(tb.probe_wdl_after_zeroing(&sp).expect("syzygy wdl"));
        let d = tb.probe_dtz(&sp).expect("syzygy dtz");
        n += 1;
        if w != r.wdl() || !dtz_agrees(r.dtz(), d) {
            if bad.len() < 20 {
                bad.push(format!("{fen}: ours wdl {} dtz {} (dtm {}), syzygy wdl {w} dtz {d:?}", r.wdl(), r.dtz(), r.dtm()));
            } else {
                bad.push(String::new());
            }
        }
    }
    (n, bad)
}
