//! Every position of every 3- and 4-piece ending against the outside oracles (the exhaustive check):
//! * WDL50 and DTZ50 against the Syzygy files in ../shared/data/syzygy (shakmaty-syzygy);
//! * DTM against the Gaviota files in ../shared/data/gaviota, probed through Debian's C library
//!   `libgaviotatb.so.1` (`apt-get install libgaviotatb1`), loaded at run time.
//!
//! Both are ignored by default (minutes of CPU): `scripts/tb-oracles.sh`, or
//! `cargo test --release -p mysl-tb --test exhaustive -- --ignored --nocapture --test-threads 1`.
//! Every index of our generation index is visited (each position up to the symmetries of the index, both sides
//! to move); positions are built square by square (no FEN) and probed through `Tablebase::probe`, the
//! prober's own orientation and indexing. `MYSL_TB_ENDINGS=KQvKR,KPvKP` restricts the endings;
//! `MYSL_TB_FILES=1` probes the files `mysl tb gen` writes (storage index, WDL captures left to the prober's
//! capture search) instead of the tables in memory.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use common::*;
use mysl_core::{Color, Role};
use mysl_tb::pos::TbPos;
use mysl_tb::{Material, Table, Tablebase};
use shakmaty::FromSetup;

/// The endings to check: `MYSL_TB_ENDINGS` or every ending of 3 and 4 pieces.
fn endings() -> Vec<Material> {
    match std::env::var("MYSL_TB_ENDINGS") {
        Ok(list) => list
            .split(',')
            .map(|s| Material::parse(s.trim()).expect("MYSL_TB_ENDINGS: materials").normalized())
            .collect(),
        Err(_) => Material::all_up_to(4).into_iter().filter(|m| m.count() >= 3).collect(),
    }
}

/// Calls `f` with every valid position (both sides to move) of the table's indices `a..b`.
fn for_each_position(t: &Table, a: u64, b: u64, mut f: impl FnMut(&TbPos)) {
    let l = &t.layout;
    let mut sq = [0u8; 8];
    for idx in a..b {
        if l.decode(idx, &mut sq).is_none() {
            continue;
        }
        for (side, stm) in [(0, Color::White), (1, Color::Black)] {
            if t.dtz[side][idx as usize] != mysl_tb::value::INVALID {
                f(&TbPos::new(&l.pieces, &sq[..l.len()], stm));
            }
        }
    }
}

/// Runs `check` over every position of `t` on two threads; returns (positions, mismatch descriptions).
fn sweep(t: &Table, check: impl Fn(&TbPos) -> Option<String> + Sync) -> (u64, Vec<String>) {
    let size = t.layout.size;
    let next = AtomicU64::new(0);
    let count = AtomicU64::new(0);
    const CHUNK: u64 = 1 << 14;
    let bad: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut bad = Vec::new();
                    let mut n = 0;
                    loop {
                        let a = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if a >= size {
                            break;
                        }
                        for_each_position(t, a, (a + CHUNK).min(size), |p| {
                            n += 1;
                            if let Some(msg) = check(p) {
                                bad.push(msg);
                            }
                        });
                    }
                    count.fetch_add(n, Ordering::Relaxed);
                    bad
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("worker")).collect()
    });
    (count.load(Ordering::Relaxed), bad)
}

fn to_shakmaty_piece(c: Color, r: Role) -> shakmaty::Piece {
    let role = match r {
        Role::Pawn => shakmaty::Role::Pawn,
        Role::Knight => shakmaty::Role::Knight,
        Role::Bishop => shakmaty::Role::Bishop,
        Role::Rook => shakmaty::Role::Rook,
        Role::Queen => shakmaty::Role::Queen,
        Role::King => shakmaty::Role::King,
    };
    let color = if c == Color::White { shakmaty::Color::White } else { shakmaty::Color::Black };
    shakmaty::Piece { color, role }
}

/// The position for shakmaty, built square by square.
#[allow(clippy::result_large_err)]
fn shakmaty_position(p: &TbPos) -> shakmaty::Chess {
    let mut setup = shakmaty::Setup::empty();
    for i in 0..p.n {
        setup.board.set_piece_at(shakmaty::Square::new(p.sq[i] as u32), to_shakmaty_piece(p.color[i], p.role[i]));
    }
    setup.turn = if p.stm == Color::White { shakmaty::Color::White } else { shakmaty::Color::Black };
    shakmaty::Chess::from_setup(setup, shakmaty::CastlingMode::Standard)
        .or_else(|e| e.ignore_impossible_check())
        .unwrap_or_else(|e| panic!("{}: shakmaty refuses a position of our index: {e}", p.fen()))
}

/// Reports the sweep of one ending; returns the failure line, if any.
fn report(oracle: &str, m: Material, n: u64, bad: &[String], secs: f64) -> Option<String> {
    if bad.is_empty() {
        eprintln!("{m}: all {n} positions agree with {oracle} ({secs:.1} s)");
        None
    } else {
        let msg = format!(
            "{m}: {} of {n} positions differ from {oracle}, e.g.\n  {}",
            bad.len(),
            bad[..bad.len().min(5)].join("\n  ")
        );
        eprintln!("{msg}");
        Some(msg)
    }
}

/// Generates the endings and runs `check` (None: agrees) over every position of each; asserts that all agree.
fn check_every_position(oracle: &str, check: impl Fn(&Tablebase, &TbPos) -> Option<String> + Sync) {
    let t0 = Instant::now();
    let list = endings();
    let names: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    let tables = generate(&names.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    eprintln!("generation: {:.1} s", t0.elapsed().as_secs_f64());
    // MYSL_TB_FILES=1: through the files `mysl tb gen` writes (format version 4: values left to the
    // prober's capture, zeroing-move and 1-ply DTZ searches) instead of the tables in memory
    let dir = tempfile::tempdir().expect("temporary directory");
    let ours = if std::env::var_os("MYSL_TB_FILES").is_some() {
        for t in tables.values() {
            mysl_tb::write::write_table_resolved(dir.path(), t, &tables).expect("write");
        }
        eprintln!("probing through the files in {}", dir.path().display());
        Tablebase::open_dir(dir.path())
    } else {
        Tablebase::from_tables(tables.clone())
    };
    let (mut total, mut failed) = (0, Vec::new());
    for m in &list {
        let t1 = Instant::now();
        let (n, bad) = sweep(&tables[m], |p| check(&ours, p));
        total += n;
        failed.extend(report(oracle, *m, n, &bad, t1.elapsed().as_secs_f64()));
    }
    eprintln!(
        "{total} positions of {} endings checked against {oracle} in {:.1} s",
        list.len(),
        t0.elapsed().as_secs_f64()
    );
    assert!(failed.is_empty(), "{} endings differ from {oracle}:\n{}", failed.len(), failed.join("\n"));
}

#[test]
#[ignore = "every position of every 3-4 piece ending against Syzygy (minutes; scripts/tb-oracles.sh)"]
fn every_position_against_syzygy() {
    let Some(data) = shared_data() else { return };
    let syz = syzygy(&data);
    check_every_position("Syzygy (WDL and DTZ)", |ours, p| {
        let r = ours.probe(p).expect("probe ours");
        let sp = shakmaty_position(p);
        let w = wdl_i8(syz.probe_wdl_after_zeroing(&sp).expect("syzygy wdl"));
        let d = syz.probe_dtz(&sp).expect("syzygy dtz");
        (w != r.wdl() || !dtz_agrees(r.dtz(), d))
            .then(|| format!("{}: ours wdl {} dtz {}, syzygy wdl {w} dtz {d:?}", p.fen(), r.wdl(), r.dtz()))
    });
}

/// Debian's Gaviota probing library, loaded at run time (so that building the tests does not need it).
struct Gaviota {
    probe: unsafe extern "C" fn(u32, u32, u32, *const u32, *const u32, *const u8, *const u8, *mut u32, *mut u32) -> i32,
    /// The library's path list (as an address, so that `Gaviota` stays `Sync`), handed back to
    /// `tbpaths_done` on drop.
    paths: usize,
    /// The directory string the path list points into (kept alive for the library's whole use).
    _dir: std::ffi::CString,
    lib: libloading::Library,
}

const TB_NOSQUARE: u32 = 64;
const TB_DRAW: u32 = 0;
const TB_WMATE: u32 = 1;
const TB_BMATE: u32 = 2;

impl Drop for Gaviota {
    /// Frees the cache, the tables' state and the path list, in gtb-probe.h's order, so that LeakSanitizer
    /// (scripts/sanitizers.sh) sees nothing left over.
    fn drop(&mut self) {
        type Done = unsafe extern "C" fn();
        type TbDone = unsafe extern "C" fn() -> *const i8;
        type PathsDone = unsafe extern "C" fn(*const *const i8) -> *const *const i8;
        // SAFETY: same signatures as in gtb-probe.h; called once, after the last probe, with the list
        // `tbpaths_init`/`tbpaths_add` returned.
        unsafe {
            if let Ok(cache_done) = self.lib.get::<Done>(b"tbcache_done") {
                cache_done();
            }
            if let Ok(tb_done) = self.lib.get::<TbDone>(b"tb_done") {
                tb_done();
            }
            if let Ok(paths_done) = self.lib.get::<PathsDone>(b"tbpaths_done") {
                paths_done(self.paths as *const *const i8);
            }
        }
    }
}

impl Gaviota {
    /// Opens the library and the tables of `dir`; None (with a message) when the library is missing.
    fn open(dir: &std::path::Path) -> Option<Gaviota> {
        // SAFETY: loading a shared library runs its initialisers; libgaviotatb's have no preconditions
        // (it is a plain C library with no constructors that depend on the caller).
        let lib = match unsafe { libloading::Library::new("libgaviotatb.so.1") } {
            Ok(lib) => lib,
            Err(e) => {
                eprintln!("skipped: libgaviotatb.so.1 not loadable ({e}); apt-get install libgaviotatb1");
                return None;
            }
        };
        type PathsInit = unsafe extern "C" fn() -> *const *const i8;
        type PathsAdd = unsafe extern "C" fn(*const *const i8, *const i8) -> *const *const i8;
        type Init = unsafe extern "C" fn(i32, i32, *const *const i8) -> *const i8;
        type CacheInit = unsafe extern "C" fn(usize, i32) -> i32;
        type Availability = unsafe extern "C" fn() -> u32;
        let dir = std::ffi::CString::new(dir.to_str().expect("utf-8 path")).expect("path without NUL");
        // SAFETY: the symbols have these C signatures (gtb-probe.h); the path list and `dir` are kept in
        // `Gaviota` until `Drop` has shut the library down. `tb_probe_hard` is copied out as a plain function
        // pointer, valid while `lib` stays loaded: it is kept beside it in `Gaviota` (`lib`).
        unsafe {
            let paths_init: libloading::Symbol<PathsInit> = lib.get(b"tbpaths_init").expect("tbpaths_init");
            let paths_add: libloading::Symbol<PathsAdd> = lib.get(b"tbpaths_add").expect("tbpaths_add");
            let init: libloading::Symbol<Init> = lib.get(b"tb_init").expect("tb_init");
            let cache_init: libloading::Symbol<CacheInit> = lib.get(b"tbcache_init").expect("tbcache_init");
            let availability: libloading::Symbol<Availability> = lib.get(b"tb_availability").expect("tb_availability");
            let paths = paths_add(paths_init(), dir.as_ptr());
            init(0, 4, paths); // 4 = tb_CP4, the scheme of the *.gtb.cp4 files
            cache_init(256 << 20, 0);
            // bit 1: 3-piece tables complete, bit 3: 4-piece tables complete
            let av = availability();
            assert!(
                av & 0b1010 == 0b1010,
                "Gaviota 3-4 piece tables incomplete in {dir:?} (availability {av:#x})",
                dir = "../shared/data/gaviota"
            );
            let probe = *lib.get(b"tb_probe_hard").expect("tb_probe_hard");
            Some(Gaviota { probe, paths: paths as usize, _dir: dir, lib })
        }
    }

    /// DTM in python-chess's convention (plies, positive when the side to move mates), or None if not found.
    fn dtm(&self, p: &TbPos) -> Option<i32> {
        let (mut wsq, mut bsq) = ([TB_NOSQUARE; 17], [TB_NOSQUARE; 17]);
        let (mut wpc, mut bpc) = ([0u8; 17], [0u8; 17]);
        let (mut nw, mut nb) = (0, 0);
        for i in 0..p.n {
            // Gaviota: 1 pawn .. 6 king; squares a1 = 0 .. h8 = 63 as ours
            let code = p.role[i] as u8 + 1;
            if p.color[i] == Color::White {
                (wsq[nw], wpc[nw]) = (p.sq[i] as u32, code);
                nw += 1;
            } else {
                (bsq[nb], bpc[nb]) = (p.sq[i] as u32, code);
                nb += 1;
            }
        }
        let stm = if p.stm == Color::White { 0 } else { 1 };
        let (mut info, mut plies) = (0u32, 0u32);
        // SAFETY: `probe` points into the library `self.lib` keeps loaded; the square and piece arrays
        // have 17 entries, at most 5 used, the rest tb_NOSQUARE / 0 (tb_NOPIECE) as the library expects
        // as terminators; the outputs are valid `u32`s to write.
        let ok = unsafe {
            (self.probe)(
                stm,
                TB_NOSQUARE,
                0,
                wsq.as_ptr(),
                bsq.as_ptr(),
                wpc.as_ptr(),
                bpc.as_ptr(),
                &mut info,
                &mut plies,
            )
        };
        if ok == 0 {
            return None;
        }
        let plies = plies as i32;
        match info {
            TB_DRAW => Some(0),
            TB_WMATE => Some(if stm == 0 { plies } else { -plies }),
            TB_BMATE => Some(if stm == 1 { plies } else { -plies }),
            _ => None,
        }
    }
}

#[test]
#[ignore = "every position of every 3-4 piece ending against Gaviota DTM (minutes; scripts/tb-oracles.sh)"]
fn every_position_dtm_against_gaviota() {
    let Some(data) = shared_data() else { return };
    let Some(gtb) = Gaviota::open(&data.join("gaviota")) else { return };
    check_every_position("Gaviota (DTM)", |ours, p| {
        let ours = ours.probe(p).expect("probe ours").dtm();
        match gtb.dtm(p) {
            Some(theirs) if theirs == ours => None,
            theirs => Some(format!("{}: ours dtm {ours}, gaviota {theirs:?}", p.fen())),
        }
    });
}
