//! The `Tablebases` front: our files and Syzygy files give the same WDL and DTZ (the README's DTZ
//! tolerance), DTM only from ours, 5-piece positions from Syzygy, root moves ranked.

mod common;

use mysl_core::{Chess, Color};
use mysl_tb::tablebases::RANK_WIN;
use mysl_tb::write::write_table;
use mysl_tb::{Tablebases, TbSource};

fn core_pos(fen: &str) -> Chess {
    Chess::from_fen(fen).expect("fen")
}

#[test]
fn ours_and_syzygy_agree_through_the_front() {
    let Some(data) = common::shared_data() else { return };
    let endings = ["KQvK", "KRvK", "KPvK", "KRvKN"];
    let tables = common::generate(&endings);
    let dir = tempfile::tempdir().expect("tempdir");
    for name in endings {
        let m = mysl_tb::Material::parse(name).expect("material");
        write_table(dir.path(), &tables[&m]).expect("write");
    }
    let mut ours = Tablebases::new();
    assert_eq!(ours.set_ours(dir.path()).expect("ours"), endings.len());
    let mut syz = Tablebases::new();
    assert!(syz.add_syzygy(&data.join("syzygy")).expect("syzygy") > 70);
    assert_eq!(ours.max_pieces(), 4);
    assert_eq!(syz.max_pieces(), 5);
    let mut checked = 0;
    let mut bad = Vec::new();
    for name in endings {
        let t = &tables[&mysl_tb::Material::parse(name).expect("material")];
        for p in common::positions(t, 397, 13) {
            let pos = core_pos(&p.fen());
            let (board, turn) = (pos.board(), pos.turn());
            let a = ours.probe(board, turn, None).expect("ours has it");
            let b = syz.probe(board, turn, None).expect("syzygy has it");
            assert_eq!(a.source, TbSource::Mysl);
            assert_eq!(b.source, TbSource::Syzygy);
            assert!(a.dtm.is_some() && b.dtm.is_none());
            assert_eq!(ours.probe_wdl(board, turn, None), Some(a.wdl));
            assert_eq!(syz.probe_wdl(board, turn, None), Some(b.wdl));
            let (da, db) = (a.dtz.expect("dtz"), b.dtz.expect("dtz"));
            let dtz_ok = da == db || (da.signum() == db.signum() && da.abs() == db.abs() + 1);
            checked += 1;
            if a.wdl != b.wdl || !dtz_ok {
                bad.push(format!("{}: ours {a:?}, syzygy {b:?}", p.fen()));
            }
        }
    }
    assert!(bad.is_empty(), "{} of {checked} differ: {:?}", bad.len(), &bad[..bad.len().min(10)]);
    assert!(checked > 1000, "only {checked} positions");
    eprintln!("{checked} positions: WDL equal, DTZ within the README's tolerance");
}

#[test]
fn five_pieces_come_from_syzygy() {
    let Some(data) = common::shared_data() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let tables = common::generate(&["KRvK"]);
    write_table(dir.path(), &tables[&mysl_tb::Material::parse("KRvK").expect("m")]).expect("write");
    let mut tb = Tablebases::new();
    tb.set_ours(dir.path()).expect("ours");
    tb.add_syzygy(&data.join("syzygy")).expect("syzygy");
    let sz = common::syzygy(&data);
    for fen in [
        "8/8/8/8/2k5/8/1R6/K2R2r1 w - - 0 1",
        "8/3B4/8/1R6/5r2/8/3K4/5k2 w - - 0 1",
        "8/8/2k5/8/8/4P3/1R2K3/5r2 b - - 0 1",
        "k7/8/8/8/8/8/3QR3/4K2r w - - 0 1",
        "8/8/8/8/8/2k5/8/KR6 w - - 0 1",
    ] {
        let pos = core_pos(fen);
        let v = tb.probe(pos.board(), pos.turn(), None).expect("covered");
        let sp = common::to_shakmaty(fen);
        let w = common::wdl_i8(sz.probe_wdl_after_zeroing(&sp).expect("wdl"));
        let d = sz.probe_dtz(&sp).expect("dtz").ignore_rounding().0;
        assert_eq!(v.wdl, w, "{fen}");
        if pos.board().occupied().count() == 5 {
            assert_eq!((v.source, v.dtz, v.dtm), (TbSource::Syzygy, Some(d), None), "{fen}");
        } else {
            assert_eq!(v.source, TbSource::Mysl, "{fen}: ours first");
            assert!(v.dtm.is_some());
        }
    }
    // a castling right or a 6th piece: not covered
    let pos = core_pos("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1");
    assert!(tb.probe_root(&pos).is_none());
}

#[test]
fn root_moves_ranked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tables = common::generate(&["KQvK", "KRvK"]);
    for t in tables.values() {
        write_table(dir.path(), t).expect("write");
    }
    let mut tb = Tablebases::new();
    tb.set_ours(dir.path()).expect("ours");
    // mate in 1: Rh8#
    let pos = core_pos("k7/8/1K6/8/8/8/8/7R w - - 0 1");
    let r = tb.probe_root(&pos).expect("covered");
    assert_eq!(r.value.wdl, 2);
    assert_eq!(r.value.dtm, Some(1));
    assert_eq!(r.wdl50, 2);
    let best = &r.moves[0];
    assert_eq!((best.uci.as_str(), best.dtm, best.dtz, best.rank), ("h1h8", Some(1), 1, RANK_WIN));
    // KRvK, Black to move: every move loses; the sort puts the longest resistance first
    let pos = core_pos("8/8/8/3k4/8/8/8/KR6 b - - 0 1");
    let r = tb.probe_root(&pos).expect("covered");
    assert_eq!(r.wdl50, -2);
    let longest = r.moves.iter().map(|m| m.dtm.expect("dtm")).min().expect("moves");
    assert_eq!(longest, r.value.dtm.expect("dtm"), "the longest resistance is the position's DTM");
    assert!(r.moves.iter().all(|m| m.wdl == -2 && m.rank < 0));
    // the 50-move counter: with 99 plies gone a win needing more than one ply to convert is spoilt
    let pos = core_pos("8/8/8/3k4/8/8/8/KR6 w - - 99 80");
    let r = tb.probe_root(&pos).expect("covered");
    assert!(r.moves.iter().all(|m| m.rank < RANK_WIN), "no move converts at once");
    assert_eq!(r.wdl50, 1);
    let _ = Color::White;
}

/// Found by the `tbdiff` fuzz target (fuzz/regressions/tbdiff/): with our tables alone, a root move that
/// captures the last piece (into bare kings, which have no table) left the whole root probe without an
/// answer, where the Syzygy front answered.
#[test]
fn a_capture_into_bare_kings_is_a_draw_with_our_tables() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tables = common::generate(&["KRvK"]);
    for t in tables.values() {
        write_table(dir.path(), t).expect("write");
    }
    let mut tb = Tablebases::new();
    tb.set_ours(dir.path()).expect("ours");
    let pos = core_pos("8/8/8/8/8/1r6/1K3k2/8 w - - 0 1");
    let r = tb.probe_root(&pos).expect("covered");
    assert_eq!((r.value.wdl, r.value.dtz, r.wdl50), (0, Some(0), 0));
    let take = r.moves.iter().find(|m| m.uci == "b2b3").expect("Kxb3");
    assert_eq!((take.wdl, take.dtz, take.dtm, take.rank), (0, 0, Some(0), 0));
    assert_eq!(r.moves[0].uci, "b2b3", "the only move that does not lose comes first");
    assert!(r.moves[1..].iter().all(|m| m.wdl == -2));
    let bare = core_pos("8/8/8/8/8/1K6/5k2/8 b - - 0 1");
    let v = tb.probe(bare.board(), bare.turn(), None).expect("bare kings");
    assert_eq!((v.wdl, v.dtz, v.dtm, v.source), (0, Some(0), Some(0), TbSource::Mysl));
    assert_eq!(tb.probe_wdl(bare.board(), bare.turn(), None), Some(0));
}

/// Found by the `tbdiff` fuzz target (fuzz/regressions/tbdiff/): the root moves of `probe_fen` (what `mysl
/// tb probe` and the web panel list) valued the position after a pawn's double step without the
/// opponent's right to capture en passant: a7-a5 here lets b5xa6 e.p. in, yet was listed as a draw.
#[test]
fn a_double_step_is_valued_with_the_en_passant_capture_it_allows() {
    let tb = mysl_tb::Tablebase::from_tables(common::generate(&["KPvKP"]));
    let (_, moves) = tb.probe_fen("8/p3k3/8/1P1K4/8/8/8/8 b - - 0 1").expect("covered");
    let double = moves.iter().find(|m| m.uci == "a7a5").expect("a7a5");
    // The position after it, with and without its e.p. square.
    let (with_ep, _) = tb.probe_fen("8/4k3/8/pP1K4/8/8/8/8 w - a6 0 2").expect("covered");
    let (without, _) = tb.probe_fen("8/4k3/8/pP1K4/8/8/8/8 w - - 0 2").expect("covered");
    assert_ne!(with_ep.wdl(), without.wdl(), "the e.p. capture decides this position");
    assert_eq!(double.result.wdl(), -with_ep.wdl(), "a7a5 is valued with the e.p. capture it allows");
    if let Some(data) = common::shared_data() {
        let syz = common::syzygy(&data);
        let after = common::to_shakmaty("8/4k3/8/pP1K4/8/8/8/8 w - a6 0 2");
        let w = common::wdl_i8(syz.probe_wdl_after_zeroing(&after).expect("syzygy"));
        assert_eq!(double.result.wdl(), -w, "Syzygy's value after a7a5");
    }
}
