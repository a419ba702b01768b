//! Endgame knowledge against the Syzygy tables in ../shared/data/syzygy (probed with shakmaty-syzygy):
//! the KPK bitbase must give every position's exact result, and the material draws must be draws.

use std::path::PathBuf;

use mysl_core::{Chess, Color};
use mysl_engine::endgame::{kpk_wins, probe, Verdict, KNOWN_WIN};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess as SChess};
use shakmaty_syzygy::{Tablebase, Wdl};

fn tablebase() -> Option<Tablebase<SChess>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy");
    if !dir.is_dir() {
        eprintln!("skipped: {} not found", dir.display());
        return None;
    }
    let mut tb = Tablebase::new();
    tb.add_directory(&dir).expect("syzygy directory");
    Some(tb)
}

fn syzygy_wdl(tb: &Tablebase<SChess>, fen: &str) -> Option<Wdl> {
    let setup: Fen = fen.parse().ok()?;
    let pos: SChess = setup.into_position(CastlingMode::Standard).ok()?;
    tb.probe_wdl_after_zeroing(&pos).ok()
}

#[test]
fn kpk_is_exact() {
    let Some(tb) = tablebase() else { return };
    let mut checked = 0;
    let squares = mysl_core::Square::ALL;
    for (n, (&wk, &bk)) in squares.iter().flat_map(|a| squares.iter().map(move |b| (a, b))).enumerate() {
        if n % 3 != 0 {
            continue; // a third of the king pairs keeps the test quick; all pawn squares and both colours
        }
        for p in squares.iter().filter(|s| (1..=6).contains(&(s.rank() as usize))) {
            for (strong, stm) in
                [(Color::White, Color::White), (Color::White, Color::Black), (Color::Black, Color::White)]
            {
                if wk == bk || wk == *p || bk == *p {
                    continue;
                }
                let pawn = if strong == Color::White { 'P' } else { 'p' };
                let mut board = [['.'; 8]; 8];
                board[wk.rank() as usize][wk.file() as usize] = 'K';
                board[bk.rank() as usize][bk.file() as usize] = 'k';
                board[p.rank() as usize][p.file() as usize] = pawn;
                let rows: Vec<String> = (0..8)
                    .rev()
                    .map(|r| {
                        let mut row = String::new();
                        let mut empty = 0;
                        for c in board[r] {
                            if c == '.' {
                                empty += 1;
                            } else {
                                if empty > 0 {
                                    row.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                row.push(c);
                            }
                        }
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                        }
                        row
                    })
                    .collect();
                let fen = format!("{} {} - - 0 1", rows.join("/"), if stm == Color::White { 'w' } else { 'b' });
                let Ok(ours) = Chess::from_fen(&fen) else { continue };
                let Some(wdl) = syzygy_wdl(&tb, &fen) else { continue };
                let (sk, dk) = if strong == Color::White { (wk, bk) } else { (bk, wk) };
                let win = kpk_wins(strong, stm, sk, dk, *p);
                let expected = if stm == strong { wdl == Wdl::Win } else { wdl == Wdl::Loss };
                assert_eq!(win, expected, "{fen}: Syzygy {wdl:?}");
                // The evaluation's verdict carries the same result with the right sign.
                let v = match probe(ours.board(), ours.turn()) {
                    Some(Verdict::Exact(v)) => v,
                    other => panic!("{fen}: {other:?}"),
                };
                let strong_sign = if strong == Color::White { 1 } else { -1 };
                assert_eq!(v * strong_sign >= KNOWN_WIN, win, "{fen}: {v}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn claimed_material_draws_are_draws() {
    let Some(tb) = tablebase() else { return };
    // A lone minor piece: a draw.
    for fen in ["8/8/4k3/8/8/4K3/3B4/8 w - - 0 1", "8/8/4k3/8/1n6/4K3/8/8 b - - 0 1"] {
        let pos = Chess::from_fen(fen).expect("fen");
        assert!(matches!(probe(pos.board(), pos.turn()), Some(Verdict::Exact(0) | Verdict::Scale(_))), "{fen}");
        assert_eq!(syzygy_wdl(&tb, fen), Some(Wdl::Draw), "{fen}");
    }
    // KBNK is won: the verdict says so wherever the tables say so.
    let fen = "8/8/4k3/8/8/4K3/3B4/5N2 w - - 0 1";
    let pos = Chess::from_fen(fen).expect("fen");
    assert_eq!(syzygy_wdl(&tb, fen), Some(Wdl::Win));
    assert!(matches!(probe(pos.board(), pos.turn()), Some(Verdict::Exact(v)) if v > KNOWN_WIN));
}
