//! Helpers shared by the tablebase tests: the shared data directory, in-memory generation and the Syzygy
//! oracle (shakmaty-syzygy).
#![allow(dead_code)]

use mysl_tb::stats::SideStats;
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
    // SAFETY: shakmaty-syzygy's contract for memory maps: the files (../shared, read-only) are not
    // modified while the tests run.
    let mut tb = unsafe { Syzygy::with_mmap_filesystem() };
    tb.add_directory(data.join("syzygy")).expect("syzygy directory");
    tb
}

#[allow(clippy::result_large_err)]
pub fn to_shakmaty(fen: &str) -> Chess {
    // positions such as a double check by two bishops cannot arise in a game but are in the tables
    fen.parse::<Fen>()
        .expect("fen")
        .into_position(CastlingMode::Standard)
        .or_else(|e: shakmaty::PositionError<Chess>| e.ignore_impossible_check())
        .expect("legal position")
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

/// Does our exact DTZ agree with Syzygy's? As ../shared/data/syzygy/README.md says, a probed DTZ may be one
/// ply too low in magnitude where a table stores moves instead of plies, so |ours| = |Syzygy| or
/// |Syzygy| + 1 with equal sign. (shakmaty-syzygy marks some of those values `Precise` although the
/// generator's own statistics, matched exactly by the stats test, show the longer count.)
pub fn dtz_agrees(ours: i32, theirs: MaybeRounded<shakmaty_syzygy::Dtz>) -> bool {
    let d = theirs.ignore_rounding().0;
    d == ours || (d.signum() == ours.signum() && ours.abs() == d.abs() + 1)
}

/// Valid positions of a table: (index, side to move, position). `step` > 1 samples every step-th index.
pub fn positions(t: &Table, step: u64, offset: u64) -> Vec<TbPos> {
    positions_in(t, 0, t.layout.size, step, offset)
}

/// [`positions`] of the indices `a..b` (those equal to `offset` modulo `step`).
pub fn positions_in(t: &Table, a: u64, b: u64, step: u64, offset: u64) -> Vec<TbPos> {
    let l = &t.layout;
    let mut out = Vec::new();
    let mut sq = [0u8; 8];
    let step = step.max(1);
    let mut idx = a + (offset % step + step - a % step) % step;
    while idx < b {
        let i = idx as usize;
        if l.decode(idx, &mut sq).is_some() {
            for (side, stm) in [(0, Color::White), (1, Color::Black)] {
                if t.dtz[side][i] != mysl_tb::value::INVALID {
                    out.push(TbPos::new(&l.pieces, &sq[..l.len()], stm));
                }
            }
        }
        idx += step;
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
                bad.push(format!(
                    "{fen}: ours wdl {} dtz {} (dtm {}), syzygy wdl {w} dtz {d:?}",
                    r.wdl(),
                    r.dtz(),
                    r.dtm()
                ));
            } else {
                bad.push(String::new());
            }
        }
    }
    (n, bad)
}

/// Rows of the TSV: (ending, stm, metric kind "DTM"/"DTZ50") -> stats.
pub fn rows(data: &std::path::Path) -> HashMap<(String, String, String), SideStats> {
    let text = std::fs::read_to_string(data.join("tb-stats.tsv")).expect("tb-stats.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("column {name}"));
    let (c_end, c_stm, c_pos) = (col("ending"), col("stm"), col("positions"));
    let (c_w, c_d, c_l, c_cw, c_bl) =
        (col("wins"), col("draws"), col("losses"), col("cursed_wins"), col("blessed_losses"));
    let (c_lw, c_ll, c_lcw, c_lbl) = (
        col("longest_win_plies"),
        col("longest_loss_plies"),
        col("longest_cursed_win_plies"),
        col("longest_blessed_loss_plies"),
    );
    let (c_metric, c_counting) = (col("metric"), col("counting"));
    let mut out = HashMap::new();
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        let kind = if f[c_metric] == "DTM" && f[c_counting] == "full-board legal positions" {
            "DTM"
        } else if f[c_metric].starts_with("DTZ50") {
            "DTZ50"
        } else {
            continue;
        };
        let num = |c: usize| f.get(c).and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or(0);
        let s = SideStats {
            positions: num(c_pos),
            wins: num(c_w),
            draws: num(c_d),
            losses: num(c_l),
            cursed_wins: num(c_cw),
            blessed_losses: num(c_bl),
            longest_win: num(c_lw) as u32,
            longest_loss: num(c_ll) as u32,
            longest_cursed_win: num(c_lcw) as u32,
            longest_blessed_loss: num(c_lbl) as u32,
        };
        out.insert((f[c_end].to_string(), f[c_stm].to_string(), kind.to_string()), s);
    }
    out
}
