//! Variant tables (issue 23 §2): the generic generator checked three ways that share none of its retrograde
//! code: orthodox tables against the orthodox generator (itself equal to Syzygy and Gaviota), every position
//! of each variant table against its successors (`variant::verify`), and short wins against a plain
//! minimax search over mysl-core's moves; plus the cylinder's symmetry and the file format.

use mysl_core::{
    Antichess, AntichessNoEp, Berolina, Board, CastlingMode, Cylinder, KnightRelay, Orthodox, Position, Rules, Setup,
    Square,
};
use mysl_tb::variant::{self, Dtm, Pieces, VariantGenerator, VariantTable};
use mysl_tb::{Generator, Material, Silent, Tablebase};

fn generate<R: Rules>(name: &str) -> (VariantGenerator<R>, std::sync::Arc<VariantTable>) {
    let mut g = VariantGenerator::<R>::default();
    let pieces = Pieces::parse::<R>(name).expect("test ending");
    let t = g.table(&pieces, &mut |_| {}).expect("generates");
    (g, t)
}

#[test]
fn orthodox_tables_equal_the_orthodox_generator() {
    for name in ["KRvK", "KQvK", "KBvK", "KPvK"] {
        let (_, t) = generate::<Orthodox>(name);
        let mut g = Generator::new(1);
        let m = Material::parse(name).expect("test value").normalized();
        for s in Generator::plan(&[m]) {
            g.generate(s, &Silent);
        }
        let tb = Tablebase::from_tables(g.tables.clone());
        let mut checked = 0;
        for i in 0..t.len() {
            let Some(fen) = t.fen_at::<Orthodox>(i) else { continue };
            let pos = Position::<Orthodox>::from_fen(&fen).expect("fen");
            let ours = t.probe(&pos).expect("a value");
            if !pos.has_legal_moves() {
                continue; // the orthodox files do not store mates and stalemates the same way
            }
            let (r, _) = tb.probe_fen(&fen).expect("orthodox probe");
            let expected = match r.dtm() {
                0 => Dtm::Draw,
                d if d > 0 => Dtm::Win(d as u16),
                d => Dtm::Loss((-d) as u16),
            };
            assert_eq!(ours, expected, "{name} {fen}");
            checked += 1;
        }
        assert!(checked > 10_000, "{name}: {checked} positions");
    }
}

fn verified<R: Rules>(name: &str) -> std::sync::Arc<VariantTable> {
    let (g, t) = generate::<R>(name);
    let n = variant::verify(&t, &g).unwrap_or_else(|e| panic!("{:?} {name}: {e}", R::VARIANT));
    let (w, d, l) = t.counts();
    eprintln!("{:?} {name}: {n} positions, {w} wins, {d} draws, {l} losses, longest {:?}", R::VARIANT, t.longest_win());
    assert_eq!(n, w + d + l);
    t
}

#[test]
fn variant_tables_agree_with_their_successors() {
    let t = verified::<Cylinder>("KRvK");
    assert!(t.longest_win().is_some());
    verified::<Cylinder>("KQvK");
    verified::<KnightRelay>("KRvK");
    verified::<Antichess>("RvN");
    verified::<Antichess>("KvB");
    verified::<Antichess>("NvNN");
    // pawns: promotions into smaller tables, en passant (pawns of both sides)
    verified::<Berolina>("KPvK");
    verified::<Cylinder>("KPvK");
    verified::<Antichess>("PvP");
    verified::<Antichess>("PPvP");
    verified::<AntichessNoEp>("PvPB");
}

/// More endings (slow: run with `--ignored`).
#[test]
#[ignore]
fn more_variant_tables_agree_with_their_successors() {
    verified::<Cylinder>("KBvK");
    verified::<KnightRelay>("KNvK");
    verified::<KnightRelay>("KPvK");
    verified::<Antichess>("PvPN");
}

#[test]
fn the_verifier_finds_a_wrong_value() {
    let (g, t) = generate::<Cylinder>("KRvK");
    let i = t.longest_win().expect("a win").1;
    let mut bytes_ok = variant::to_bytes(&t);
    let good = variant::from_bytes::<Cylinder>(&bytes_ok).expect("reads back");
    assert!(variant::verify(&good, &g).is_ok());
    // the same table with one value off by two plies
    let mut values: Vec<i16> = (0..t.len()).map(|k| t.value_at(k)).collect();
    values[i] += 2;
    let bad = variant::VariantTable::from_values(t.variant, t.pieces.clone(), values);
    let e = variant::verify(&bad, &g).expect_err("the verifier must notice");
    assert!(e.contains("stored"), "{e}");
    // a damaged file is an error, never a panic
    let n = bytes_ok.len();
    bytes_ok[n / 2] ^= 0x10;
    assert!(variant::from_bytes::<Cylinder>(&bytes_ok).is_err());
    assert!(variant::from_bytes::<Cylinder>(&bytes_ok[..40]).is_err());
    assert!(variant::from_bytes::<Orthodox>(&variant::to_bytes(&t)).is_err());
}

#[test]
fn file_round_trip() {
    for (g, t) in [generate::<Antichess>("RvN")] {
        let _ = g;
        let back = variant::from_bytes::<Antichess>(&variant::to_bytes(&t)).expect("reads back");
        for i in 0..t.len() {
            assert_eq!(back.value_at(i), t.value_at(i), "index {i}");
        }
    }
}

/// Cylinder chess is unchanged by turning the board along the files.
#[test]
fn cylinder_tables_do_not_change_when_the_board_turns() {
    let (_, t) = generate::<Cylinder>("KRvK");
    let mut checked = 0;
    for i in (0..t.len()).step_by(7) {
        let Some(fen) = t.fen_at::<Cylinder>(i) else { continue };
        let pos = Position::<Cylinder>::from_fen(&fen).expect("fen");
        let v = t.probe(&pos).expect("a value");
        for shift in 1..8 {
            let mut setup = Setup::parse(&fen).expect("fen");
            setup.board = Board::empty();
            for sq in pos.board().occupied() {
                let turned = Square::new((sq as u32 & !7) | ((sq as u32 + shift) & 7)).expect("a square");
                setup.board.set_piece_at(turned, pos.board().piece_at(sq));
            }
            let p2 = Position::<Cylinder>::from_setup(setup, CastlingMode::Standard).expect("turned position");
            assert_eq!(t.probe(&p2), Some(v), "{fen} turned by {shift}: {}", p2.fen());
        }
        checked += 1;
    }
    assert!(checked > 5000);
}

/// Plain minimax over mysl-core's moves with `plies` left: +1 the side to move wins within them (a won end
/// of the game counts, as the tables do), -1 it loses within them, 0 neither.
fn within<R: Rules>(pos: &mut Position<R>, plies: u32) -> i32 {
    if let Some(v) = end::<R>(pos) {
        return v;
    }
    if plies == 0 {
        return 0;
    }
    let moves = pos.legal_moves();
    let mut best = -1;
    for mv in moves.iter() {
        pos.play_unchecked(mv);
        best = best.max(-within(pos, plies - 1));
        pos.unplay(mv);
    }
    best
}

/// +1 the side to move has won, -1 lost, 0 drawn, None: the game goes on.
fn end<R: Rules>(pos: &Position<R>) -> Option<i32> {
    if let Some(o) = pos.variant_outcome() {
        return Some(o.winner().map_or(0, |w| if w == pos.turn() { 1 } else { -1 }));
    }
    if pos.has_legal_moves() {
        return None;
    }
    Some(if !R::ROYAL_KING {
        1
    } else if pos.is_check() {
        -1
    } else {
        0
    })
}

fn spot_check<R: Rules>(name: &str, plies: u32, stride: usize) {
    let (_, t) = generate::<R>(name);
    let (mut wins, mut checked) = (0, 0);
    for i in (0..t.len()).step_by(stride) {
        let Some(fen) = t.fen_at::<R>(i) else { continue };
        let mut pos = Position::<R>::from_fen(&fen).expect("fen");
        let v = t.probe(&pos).expect("a value");
        let table_says = matches!(v, Dtm::Win(d) if d as u32 <= plies);
        assert_eq!(within(&mut pos, plies) == 1, table_says, "{:?} {fen}: {v:?}", R::VARIANT);
        wins += table_says as u32;
        checked += 1;
    }
    eprintln!("{:?} {name}: {checked} positions, {wins} won within {plies} plies", R::VARIANT);
    assert!(wins > 0 && checked > 100);
}

#[test]
fn short_wins_match_a_plain_search() {
    spot_check::<Cylinder>("KQvK", 3, 97);
    spot_check::<KnightRelay>("KRvK", 3, 97);
    spot_check::<Antichess>("RvN", 5, 31);
}

/// Damaged files (with their CRC made to match, so the parser behind it is reached) are errors or tables,
/// never a panic. Seeded; the seed and the mutation are in the message of a failure.
#[test]
fn damaged_files_never_panic() {
    let (_, t) = generate::<Cylinder>("KQvK");
    let good = variant::to_bytes(&t);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..300 {
        let mut b = good.clone();
        let body = b.len() - 4;
        let at = 8 + (next() as usize % (body - 8));
        let value = next() as u8;
        b[at] ^= value | 1;
        let crc = crc32fast::hash(&b[..body]);
        b[body..].copy_from_slice(&crc.to_le_bytes());
        let r = std::panic::catch_unwind(|| variant::from_bytes::<Cylinder>(&b).map(|t| t.len()));
        assert!(r.is_ok(), "round {round}: byte {at} xor {value:#x} panicked");
    }
}

/// Four pieces with en passant, against the orthodox generator (slow: run with `--ignored`).
#[test]
#[ignore]
fn orthodox_pawn_endings_with_en_passant_equal_the_orthodox_generator() {
    for name in ["KPvKP"] {
        let (_, t) = generate::<Orthodox>(name);
        let mut g = Generator::new(2);
        let m = Material::parse(name).expect("test value").normalized();
        for s in Generator::plan(&[m]) {
            g.generate(s, &Silent);
        }
        let tb = Tablebase::from_tables(g.tables.clone());
        let mut checked = 0;
        for i in (0..t.len()).step_by(3) {
            let Some(fen) = t.fen_at::<Orthodox>(i) else { continue };
            let pos = Position::<Orthodox>::from_fen(&fen).expect("fen");
            if !pos.has_legal_moves() {
                continue;
            }
            let ours = t.probe(&pos).expect("a value");
            let (r, _) = tb.probe_fen(&fen).expect("orthodox probe");
            let expected = match r.dtm() {
                0 => Dtm::Draw,
                d if d > 0 => Dtm::Win(d as u16),
                d => Dtm::Loss((-d) as u16),
            };
            assert_eq!(ours, expected, "{name} {fen}");
            checked += 1;
        }
        eprintln!("{name}: {checked} positions equal");
    }
}
