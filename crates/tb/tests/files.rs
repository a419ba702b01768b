//! Table files: round trip, probing through files equals probing in memory, damaged files are detected.

use std::collections::HashMap;
use std::sync::Arc;

use mysl_core::Color;
use mysl_tb::format::path_for;
use mysl_tb::pos::TbPos;
use mysl_tb::probe::pos_from_fen;
use mysl_tb::read::TableFile;
use mysl_tb::value::INVALID;
use mysl_tb::write::write_table;
use mysl_tb::{Generator, Material, Silent, Table, Tablebase, TbError};

fn tables() -> HashMap<Material, Arc<Table>> {
    let mut g = Generator::new(2);
    g.generate(Material::parse("KRvK").expect("test value"), &Silent);
    g.generate(Material::parse("KPvK").expect("test value"), &Silent);
    g.tables
}

#[test]
fn round_trip_and_probe_through_files() {
    let tables = tables();
    let dir = tempfile::tempdir().expect("tempdir");
    for t in tables.values() {
        write_table(dir.path(), t).expect("write");
    }
    for (m, t) in &tables {
        let f = TableFile::open(&path_for(dir.path(), m), Some(*m)).expect("open");
        let back = f.to_table(&tables).expect("decode");
        assert!(back.dtm == t.dtm && back.dtz == t.dtz, "{m}: values differ after the round trip");
        for side in 0..2 {
            let mut sq = [0u8; 8];
            let n = t.layout.len();
            for i in 0..t.layout.size as usize {
                if t.dtm[side][i] != INVALID {
                    t.layout.decode(i as u64, &mut sq).expect("a valid entry decodes");
                    let s = t.layout.storage_index(&sq[..n]).expect("a valid entry has a storage index");
                    assert_eq!(f.get(side, s).expect("get"), (t.dtm[side][i], t.dtz[side][i]), "{m} {i}");
                }
            }
        }
    }
    let mem = Tablebase::from_tables(tables.clone());
    let disk = Tablebase::open_dir(dir.path());
    for fen in ["8/8/8/8/8/2k5/8/KR6 w - - 0 1", "8/8/8/8/8/2k5/8/KR6 b - - 0 1", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"] {
        let (p, _) = pos_from_fen(fen).expect("fen");
        assert_eq!(mem.probe(&p).expect("memory"), disk.probe(&p).expect("disk"), "{fen}");
    }
    // colors exchanged: KvKR is probed in KRvK
    let (p, _) = pos_from_fen("8/8/8/8/8/2K5/8/kr6 b - - 0 1").expect("fen");
    let (q, _) = pos_from_fen("KR6/8/2k5/8/8/8/8/8 w - - 0 1").expect("fen");
    assert_eq!(disk.probe(&p).expect("flip").dtm(), disk.probe(&q).expect("flip").dtm());
}

fn damaged(bytes: &[u8], m: Material) -> Result<(), TbError> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = path_for(dir.path(), &m);
    std::fs::write(&path, bytes).expect("write");
    let f = TableFile::open(&path, Some(m))?;
    f.to_table(&Default::default()).map(|_| ())
}

#[test]
fn damaged_files_are_detected() {
    let tables = tables();
    let m = Material::parse("KRvK").expect("test value");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write_table(dir.path(), &tables[&m]).expect("write");
    let good = std::fs::read(&path).expect("read");
    assert!(damaged(&good, m).is_ok());
    // every single flipped bit at a spread of offsets (header, index, data, checksum)
    let n = good.len();
    for at in (0..n).step_by((n / 97).max(1)).chain([n - 1, 9, 13, 33]) {
        let mut b = good.clone();
        b[at] ^= 0x10;
        let e = damaged(&b, m).expect_err(&format!("flipped byte at {at} not detected"));
        assert!(e.to_string().contains("KRvK.mtb"), "error names the file: {e}");
    }
    for len in [0, 5, 40, n / 2, n - 1] {
        let e = damaged(&good[..len], m).expect_err(&format!("truncation to {len} not detected"));
        assert!(e.to_string().contains("corrupt"), "{e}");
    }
    // wrong version (checksum fixed up, so the version test itself must catch it)
    let mut b = good.clone();
    b[8] = 9;
    let body = b.len() - 4;
    let crc = crc32fast::hash(&b[..body]);
    b[body..].copy_from_slice(&crc.to_le_bytes());
    let e = damaged(&b, m).expect_err("wrong version");
    assert!(e.to_string().contains("version 9"), "{e}");
    // wrong ending for the file name
    let e = damaged(&good, Material::parse("KQvK").expect("test value")).expect_err("wrong material");
    assert!(e.to_string().contains("expected KQvK"), "{e}");
    // not a table at all
    let e = damaged(b"hello, this is not a tablebase file at all, but long enough......", m).expect_err("magic");
    assert!(e.to_string().contains("magic"), "{e}");
}

#[test]
fn missing_table_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tb = Tablebase::open_dir(dir.path());
    let (p, _) = pos_from_fen("8/8/8/8/8/2k5/8/KQ5r w - - 0 1").expect("fen");
    let e = tb.probe(&p).expect_err("missing");
    assert!(e.to_string().contains("KQvKR"), "{e}");
    assert!(pos_from_fen("8/8/8/8/8/2k5/8/KQ5r w - -").is_ok());
    assert!(pos_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").is_err());
    assert!(pos_from_fen("8/8/8/8/8/2k5/8/KQQQQ2r w - - 0 1").is_err());
    assert!(pos_from_fen("not a fen").is_err());
    let _ = TbPos::new(&[], &[], mysl_core::Color::White);
}

#[test]
fn materials_and_probe_fen() {
    let tables = tables();
    let dir = tempfile::tempdir().expect("tempdir");
    for t in tables.values() {
        write_table(dir.path(), t).expect("write");
    }
    std::fs::write(dir.path().join("notes.txt"), "not a table").expect("write");
    std::fs::write(dir.path().join("XYZ.mtb"), "not a material").expect("write");
    let disk = Tablebase::open_dir(dir.path());
    // KPvK brings the endings its promotions lead to.
    let all = ["KBvK", "KNvK", "KPvK", "KQvK", "KRvK"];
    assert_eq!(disk.materials(), all);
    assert_eq!(Tablebase::from_tables(tables).materials(), all);
    // probe_fen = pos_from_fen + the legality check + probe_root, as `mysl tb probe` does.
    let fen = "8/8/8/8/8/2k5/8/KR6 w - - 0 1";
    let (root, moves) = disk.probe_fen(fen).expect("probe");
    let (p, ep) = pos_from_fen(fen).expect("fen");
    let (root2, moves2) = disk.probe_root(&p, ep).expect("probe_root");
    assert_eq!(root, root2);
    assert_eq!(moves.iter().map(|m| &m.uci).collect::<Vec<_>>(), moves2.iter().map(|m| &m.uci).collect::<Vec<_>>());
    let err = disk.probe_fen("8/8/8/8/8/2k5/8/KR5n w - - 0 1").expect_err("no KRvKN table");
    assert!(matches!(err, TbError::Missing { .. }), "{err}");
    let err = disk.probe_fen("8/8/8/8/8/1Rk5/8/K7 w - - 0 1").expect_err("Black in check with White to move");
    assert!(err.to_string().contains("side not to move is in check"), "{err}");
}

#[test]
fn four_piece_round_trip() {
    // many distinct values, blocks of several sizes, order-1 codes; the files of `mysl tb gen`, whose WDL
    // streams leave captures to the reader: every position probed from the files equals the table in memory
    let mut g = Generator::new(2);
    let names = ["KQvKR", "KRvKP"];
    for name in names {
        g.generate(Material::parse(name).expect("test value"), &Silent);
    }
    let dir = tempfile::tempdir().expect("tempdir");
    for t in g.tables.values() {
        mysl_tb::write::write_table_resolved(dir.path(), t, &g.tables).expect("write");
    }
    let mem = Tablebase::from_tables(g.tables.clone());
    let disk = Tablebase::open_dir(dir.path());
    for name in names {
        let m = Material::parse(name).expect("test value");
        let t = &g.tables[&m];
        let f = TableFile::open(&path_for(dir.path(), &m), Some(m)).expect("open");
        assert!(f.resolves_captures(), "{m}: written with the capture flag");
        assert!(f.get(0, 0).is_err(), "{m}: the stored WDL alone is refused for such a file");
        let back = f.to_table(&g.tables).expect("decode");
        assert!(back.dtm == t.dtm && back.dtz == t.dtz, "{m}: values differ after the round trip");
        // one side's DTZ is left to a 1-ply search wherever that finds it (the smaller file)
        let searched: Vec<usize> = (0..2).filter(|&s| f.dtz_searched(s)).collect();
        assert_eq!(searched.len(), 1, "{m}: one side's DTZ searched");
        let mut left_to_search = 0u64;
        let n = t.layout.len();
        let mut sq = [0u8; 8];
        let (mut checked, mut left_to_captures, mut left_to_zeroing, mut dtm_left) = (0u64, 0u64, 0u64, 0u64);
        // every position of KQvKR, every third of KRvKP (the test's time)
        let step = if m.has_pawns() { 3 } else { 1 };
        for i in (0..t.layout.size as usize).step_by(step) {
            for (side, stm) in [Color::White, Color::Black].into_iter().enumerate() {
                if t.dtm[side][i] == INVALID {
                    continue;
                }
                t.layout.decode(i as u64, &mut sq).expect("a valid entry decodes");
                let p = TbPos::new(&t.layout.pieces, &sq[..n], stm);
                let want = mem.probe(&p).expect("memory");
                assert_eq!(disk.probe_wdl(&p).expect("disk wdl"), want.wdl(), "{m} {}", p.fen());
                if i % 7 == 0 {
                    assert_eq!(disk.probe(&p).expect("disk"), want, "{m} {}", p.fen());
                }
                let s = t.layout.storage_index(&sq[..n]).expect("storage index");
                if f.wdl(side, s).expect("stored") != want.wdl() {
                    left_to_captures += 1;
                }
                let stored_dtz = f.metrics_with(side, s, None).expect("stored").1;
                if want.wdl() != 0 && stored_dtz == 0 && f.dtz_searched(side) {
                    left_to_search += 1;
                    if i % 7 != 0 {
                        assert_eq!(disk.probe(&p).expect("disk").dtz_raw, want.dtz_raw, "{m} {}", p.fen());
                    }
                } else if want.wdl() != 0 && stored_dtz != want.dtz_raw {
                    left_to_zeroing += 1;
                }
                if want.wdl() != 0 && f.metrics_with(side, s, Some(want.dtz_raw)).expect("stored").0 != want.dtm_raw {
                    dtm_left += 1;
                }
                checked += 1;
            }
        }
        assert!(left_to_captures > 0, "{m}: some stored WDL values differ (captures decide them)");
        assert!(left_to_zeroing > 0, "{m}: some stored DTZ values differ (winning zeroing moves decide them)");
        assert!(dtm_left > 0, "{m}: some stored DTM values differ (captures decide them)");
        assert!(left_to_search > 0, "{m}: some DTZ values are left to the search");
        eprintln!(
            "{m}: {checked} positions equal; left to the reader: {left_to_captures} WDL values (captures), \
             {left_to_zeroing} DTZ values (zeroing moves), {left_to_search} DTZ values (a 1-ply search), {dtm_left} \
             DTM values (captures)"
        );
    }
}
