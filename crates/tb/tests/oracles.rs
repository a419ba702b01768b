//! Our tables against outside oracles (never hard-coded expectations):
//! * WDL50 and DTZ50 against the Syzygy files in ../shared/data/syzygy (probed with shakmaty-syzygy);
//! * per-ending totals against ../shared/data/tb-stats.tsv (the DTM rows come from Gaviota, full-board
//!   counting; the DTZ50 rows from the Syzygy generator, symmetry-reduced counting);
//! * DTM against the Gaviota `dm` values of ../shared/data/tb-tests/endgame-dm-4.epd and WDL/DTZ against
//!   endgame.epd and shakmaty-syzygy-chess.csv.
//!
//! The default tests cover all 3-piece endings exhaustively and samples of a few 4-piece ones, two of them
//! with pawns (about two to three minutes here); `cargo test -p mysl-tb --test oracles -- --ignored --nocapture` runs the full sweep over
//! all 30 four-piece endings (every position against Syzygy: about 75 M probes, hours on 2 cores; the
//! totals and EPD checks of that test take a few minutes and run first).

mod common;

use std::collections::HashMap;
use std::time::Instant;

use common::*;
use mysl_tb::probe::pos_from_fen;
use mysl_tb::stats::{stats, Counting};
use mysl_tb::{Material, Tablebase};

const THREE: [&str; 5] = ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"];
/// 4-piece endings of the default tests (with their sub-endings: only 3-piece ones and KBBvK, KBNvK...).
const FOUR_DEFAULT: [&str; 4] = ["KQvKR", "KRvKN", "KBNvK", "KBBvK"];

fn all_four() -> Vec<String> {
    Material::all_up_to(4).iter().filter(|m| m.count() == 4).map(|m| m.to_string()).collect()
}

/// Every `step`-th index of each ending against Syzygy.
fn syzygy_check(names: &[&str], step: u64) -> u64 {
    let Some(data) = shared_data() else { return 0 };
    let t0 = Instant::now();
    let tables = generate(names);
    eprintln!("generation: {:.1} s", t0.elapsed().as_secs_f64());
    let syz = syzygy(&data);
    let ours = Tablebase::from_tables(tables.clone());
    let mut total = 0;
    let mut failed = Vec::new();
    for name in names {
        let m = Material::parse(name).expect("test value").normalized();
        let pos = positions(&tables[&m], step, 7);
        let t1 = Instant::now();
        let (n, bad) = compare_with_syzygy(&syz, &ours, &pos);
        if bad.is_empty() {
            eprintln!(
                "{name}: {n} positions agree with Syzygy (every {step}. index) in {:.1} s",
                t1.elapsed().as_secs_f64()
            );
        } else {
            let msg = format!(
                "{name}: {} of {n} positions differ from Syzygy, e.g.\n{}",
                bad.len(),
                bad[..bad.len().min(8)].join("\n")
            );
            eprintln!("{msg}");
            failed.push(msg);
        }
        total += n;
    }
    assert!(failed.is_empty(), "{} endings differ:\n{}", failed.len(), failed.join("\n"));
    total
}

fn stats_check(names: &[String]) -> usize {
    let Some(data) = shared_data() else { return 0 };
    let expected = rows(&data);
    let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let tables = generate(&refs);
    let mut compared = 0;
    let mut bad = Vec::new();
    for name in names {
        let m = Material::parse(name).expect("test value");
        let t = &tables[&m];
        for (dtz, counting, kind) in [(false, Counting::FullBoard, "DTM"), (true, Counting::SyzygyUnique, "DTZ50")] {
            let ours = stats(t, dtz, counting);
            for (side, stm) in [(0, "wtm"), (1, "btm")] {
                let Some(exp) = expected.get(&(name.clone(), stm.to_string(), kind.to_string())) else { continue };
                compared += 1;
                let o = ours[side];
                if &o != exp {
                    bad.push(format!("{name} {stm} {kind}:\n  ours     {o:?}\n  expected {exp:?}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} of {compared} rows differ:\n{}", bad.len(), bad.join("\n"));
    eprintln!("{compared} rows of tb-stats.tsv agree");
    compared
}

/// EPD/CSV lines with expected values, for the positions whose ending is generated.
fn epd_check(tables: &HashMap<Material, std::sync::Arc<mysl_tb::Table>>) -> usize {
    epd_check_with(&Tablebase::from_tables(tables.clone()), &|m| tables.contains_key(m))
}

/// The EPD/CSV positions of the endings `covered` says `ours` has.
fn epd_check_with(ours: &Tablebase, covered: &dyn Fn(&Material) -> bool) -> usize {
    let Some(data) = shared_data() else { return 0 };
    let mut checked = 0;
    let mut bad = Vec::new();
    let have = |fen: &str| -> Option<(mysl_tb::pos::TbPos, Option<u8>)> {
        let (p, ep) = pos_from_fen(fen).ok()?;
        let m = p.material();
        (m.count() <= 2 || covered(&m.normalized())).then_some((p, ep))
    };
    // Gaviota DTM in moves: "dm N" (N > 0 mate in N moves, N < 0 mated in -N moves, 0 draw)
    let mut text = std::fs::read_to_string(data.join("tb-tests/endgame-dm-4.epd")).expect("endgame-dm-4.epd");
    text += &std::fs::read_to_string(data.join("tb-tests/endgame-dm-5.epd")).expect("endgame-dm-5.epd");
    for line in text.lines().filter(|l| !l.starts_with('#') && l.contains(" dm ")) {
        let (fen, rest) = line.split_once(" dm ").expect("dm");
        let dm: i32 = rest.trim_end_matches(';').trim().parse().expect("dm value");
        let fen = format!("{} 0 1", fen.trim());
        let Some((p, ep)) = have(&fen) else { continue };
        let (r, _) = ours.probe_root(&p, ep).expect("probe");
        let plies = if dm > 0 { 2 * dm - 1 } else { 2 * dm };
        checked += 1;
        if r.dtm() != plies {
            bad.push(format!("{fen}: dm {dm} = {plies} plies, ours {}", r.dtm()));
        }
    }
    // Syzygy WDL/DTZ from python-chess's endgame.epd and shakmaty-syzygy's test positions
    let text = std::fs::read_to_string(data.join("tb-tests/endgame.epd")).expect("endgame.epd");
    let mut cases = Vec::new();
    for line in text.lines().filter(|l| l.contains("wdl ")) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let fen = format!("{} {} {} {} 0 1", f[0], f[1], f[2], f[3]);
        let get = |key: &str| -> i32 {
            let i = line.find(&format!(" {key} ")).expect("field") + key.len() + 2;
            line[i..].split(';').next().expect("value").trim().parse().expect("number")
        };
        cases.push((fen, get("wdl"), get("dtz")));
    }
    let csv = std::fs::read_to_string(data.join("tb-tests/shakmaty-syzygy-chess.csv")).expect("csv");
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        cases.push((format!("{} 0 1", f[0]), f[1].parse().expect("wdl"), f[2].parse().expect("dtz")));
    }
    for (fen, wdl, dtz) in cases {
        let Some((p, ep)) = have(&fen) else { continue };
        let (r, _) = ours.probe_root(&p, ep).expect("probe");
        checked += 1;
        // DTZ in these files may be rounded (one ply short in magnitude)
        let dtz_ok = r.dtz() == dtz || (r.dtz().signum() == dtz.signum() && r.dtz().abs() == dtz.abs() + 1);
        if r.wdl() as i32 != wdl || !dtz_ok {
            bad.push(format!("{fen}: expected wdl {wdl} dtz {dtz}, ours wdl {} dtz {}", r.wdl(), r.dtz()));
        }
    }
    assert!(bad.is_empty(), "{} of {checked} EPD positions differ:\n{}", bad.len(), bad.join("\n"));
    eprintln!("{checked} EPD/CSV positions agree");
    checked
}

#[test]
fn syzygy_three_pieces_exhaustive() {
    syzygy_check(&THREE, 1);
}

#[test]
fn syzygy_four_pieces_sampled() {
    // every 11th index of KQvKR and KRvKN, every 29th of the slower-to-probe KBNvK and KBBvK
    syzygy_check(&["KQvKR", "KRvKN"], 11);
    syzygy_check(&["KBNvK", "KBBvK"], 29);
}

#[test]
fn syzygy_four_piece_pawn_endings_sampled() {
    // endings where the loser's zeroing moves (a forced capture in KBPvK, a forced pawn push in KNvKP)
    // decide DTZ
    syzygy_check(&["KBPvK", "KNvKP"], 37);
}

#[test]
fn stats_three_and_selected_four() {
    let mut names: Vec<String> = THREE.iter().map(|s| s.to_string()).collect();
    names.extend(FOUR_DEFAULT.iter().map(|s| s.to_string()));
    stats_check(&names);
}

#[test]
fn epd_values_of_generated_endings() {
    let mut names: Vec<&str> = THREE.to_vec();
    names.extend(FOUR_DEFAULT);
    let tables = generate(&names);
    epd_check(&tables);
}

#[test]
fn threads_do_not_change_results() {
    let m = Material::parse("KBNvK").expect("test value");
    let tables = generate(&["KBNvK"]);
    let one = mysl_tb::generate_table(m, &tables, 1, &mysl_tb::Silent);
    let two = &tables[&m];
    assert!(one.dtm == two.dtm && one.dtz == two.dtz, "1 and 2 threads give different tables");
}

#[test]
#[ignore = "full sweep: all 3-4 piece endings, every position against Syzygy (tens of minutes)"]
fn full_sweep_all_four_piece_endings() {
    let names = all_four();
    let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let n = stats_check(&names);
    assert_eq!(n, 120, "rows compared");
    let tables = generate(&refs);
    epd_check(&tables);
    let total = syzygy_check(&refs, 1);
    eprintln!("{total} positions of 30 four-piece endings agree with Syzygy");
}

#[test]
#[ignore = "all 30 four-piece endings, every 41st index against Syzygy (several minutes)"]
fn syzygy_all_four_piece_sampled() {
    let names = all_four();
    let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let total = syzygy_check(&refs, 41);
    eprintln!("{total} positions of 30 four-piece endings agree with Syzygy");
}

/// A 5-piece ending (`MYSL_TB_FIVE`, default KRNvKR) generated as `mysl tb gen` does (metric by metric,
/// straight to a file; with pawns the 5-piece endings it promotes into first, read from their files), read
/// back from the file and checked: the per-ending totals against both DTZ50 rows of tb-stats.tsv, WDL and
/// DTZ against Syzygy on every `MYSL_TB_STEP`-th index (default 97; 1 for every position), and the EPD/CSV
/// positions of the ending. `MYSL_TB_FIVE_DIR=DIR` checks the 5-piece files already in DIR (e.g. made by
/// `mysl tb gen`) instead of generating them (those missing are generated there).
/// `cargo test -p mysl-tb --test oracles five_piece -- --ignored --nocapture` (the test profile is optimised)
#[test]
#[ignore = "a 5-piece ending: minutes of generation and 1.5-2 GB of memory for the check"]
fn five_piece_ending_against_syzygy() {
    let Some(data) = shared_data() else { return };
    let name = std::env::var("MYSL_TB_FIVE").unwrap_or_else(|_| "KRNvKR".into());
    let step: u64 = std::env::var("MYSL_TB_STEP").ok().and_then(|s| s.parse().ok()).unwrap_or(97);
    let m = Material::parse(&name).expect("MYSL_TB_FIVE: a material such as KRNvKR").normalized();
    assert!(m.count() == 5, "{name}: a 5-piece ending");
    let plan = mysl_tb::Generator::plan(&[m]);
    let small: Vec<String> = plan.iter().filter(|x| x.count() < 5).map(|x| x.to_string()).collect();
    let refs: Vec<&str> = small.iter().map(|s| s.as_str()).collect();
    let mut tables = generate(&refs);
    let tmp = tempfile::tempdir().expect("temporary directory");
    let given = std::env::var_os("MYSL_TB_FIVE_DIR").map(std::path::PathBuf::from);
    let dir = given.clone().unwrap_or_else(|| tmp.path().to_path_buf());
    // the 5-piece endings (those it promotes into first), as files: mysl tb gen reads them so
    let mut subs = mysl_tb::read::Sources { tables: tables.clone(), files: HashMap::new() };
    let mut path = dir.clone();
    for x in plan.iter().filter(|x| x.count() == 5) {
        path = mysl_tb::format::path_for(&dir, x);
        if given.is_some() && path.exists() {
            eprintln!("{x}: the file in {}", dir.display());
        } else {
            let t0 = Instant::now();
            path = mysl_tb::write::generate_file(*x, &subs, 2, &mysl_tb::Silent, &dir).expect("generate");
            eprintln!(
                "{x}: generated in {:.1} s, {} bytes",
                t0.elapsed().as_secs_f64(),
                std::fs::metadata(&path).expect("file").len()
            );
        }
        if *x != m {
            subs.files.insert(*x, std::sync::Arc::new(mysl_tb::read::TableFile::open(&path, Some(*x)).expect("open")));
        }
    }
    let file = mysl_tb::read::TableFile::open(&path, Some(m)).expect("open");
    // with pawns only the DTZ values in memory (1.6 GB), and probes of the files for the comparison
    let big = m.has_pawns();
    let t = if big {
        let dtz = file.decode_metric(mysl_tb::table::DTZ, &tables).expect("decode");
        mysl_tb::Table { layout: file.layout.clone(), dtm: [Vec::new(), Vec::new()], dtz }
    } else {
        file.to_table(&tables).expect("decode")
    };
    // totals
    let expected = rows(&data);
    let ours = stats(&t, true, Counting::SyzygyUnique);
    let mut compared = 0;
    for (side, stm) in [(0, "wtm"), (1, "btm")] {
        let Some(exp) = expected.get(&(m.to_string(), stm.to_string(), "DTZ50".to_string())) else { continue };
        compared += 1;
        assert_eq!(&ours[side], exp, "{m} {stm}: totals differ from tb-stats.tsv");
    }
    eprintln!("{m}: {compared} rows of tb-stats.tsv agree");
    if !big {
        let dtm = stats(&t, false, Counting::SyzygyUnique);
        eprintln!(
            "{m}: longest DTM win {} plies (White to move), {} (Black to move)",
            dtm[0].longest_win, dtm[1].longest_win
        );
    }
    tables.insert(m, std::sync::Arc::new(t));
    // the sub-tables beside it for the probes from files (a temporary directory: nothing added to DIR)
    let probe_dir = tmp.path();
    if big {
        if given.is_some() {
            std::fs::copy(&path, mysl_tb::format::path_for(probe_dir, &m)).expect("copy");
            for x in subs.files.keys() {
                std::fs::copy(mysl_tb::format::path_for(&dir, x), mysl_tb::format::path_for(probe_dir, x))
                    .expect("copy");
            }
        }
        for t in subs.tables.values() {
            mysl_tb::write::write_table(probe_dir, t).expect("write");
        }
    }
    // Syzygy
    let syz = syzygy(&data);
    // from the files (the ending just read back, its sub-tables written beside it); without pawns from memory
    let ours = if big { Tablebase::open_dir(probe_dir) } else { Tablebase::from_tables(tables.clone()) };
    let t = &tables[&m];
    let t1 = Instant::now();
    // every `step`-th index, in slices of the index on two threads (the positions of a slice at a time)
    let slice = 1u64 << 20;
    let next = std::sync::atomic::AtomicU64::new(0);
    let results: Vec<(u64, Vec<String>)> = std::thread::scope(|scope| {
        let work = || {
            let (mut n, mut bad) = (0u64, Vec::new());
            loop {
                let a = next.fetch_add(slice, std::sync::atomic::Ordering::Relaxed);
                if a >= t.layout.size {
                    break;
                }
                let pos = positions_in(t, a, (a + slice).min(t.layout.size), step, 7);
                let (k, b) = compare_with_syzygy(&syz, &ours, &pos);
                n += k;
                bad.extend(b);
            }
            (n, bad)
        };
        let h: Vec<_> = (0..2).map(|_| scope.spawn(work)).collect();
        h.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    let n: u64 = results.iter().map(|r| r.0).sum();
    let bad: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    assert!(
        bad.is_empty(),
        "{m}: {} of {n} positions differ from Syzygy, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(8)].join("\n")
    );
    eprintln!("{m}: {n} positions (every {step}. index) agree with Syzygy in {:.1} s", t1.elapsed().as_secs_f64());
    if big {
        let materials: Vec<Material> = subs.tables.keys().chain(subs.files.keys()).copied().chain([m]).collect();
        epd_check_with(&ours, &|x| materials.contains(x));
    } else {
        epd_check(&tables);
    }
}
