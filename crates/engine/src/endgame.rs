//! Endgame knowledge the search cannot see in time: the exact KPK result (a bitbase computed once by
//! retrograde iteration), mating technique against a bare king (KBNK drives the king to a corner of the
//! bishop's colour), and draws by material (KNK, KBK, KNNK, minor against minor, rook against minor,
//! opposite-coloured bishops).

use std::sync::OnceLock;

use mysl_core::attacks;
use mysl_core::{Bitboard, Board, Color, Square};

/// Scores of won endgames sit well above material and well below mate scores.
pub const KNOWN_WIN: i32 = 2000;

/// KPK with White holding the pawn: (white king, black king, pawn on files a–d, side to move).
struct Kpk {
    /// One bit per index: White wins.
    wins: Vec<u64>,
}

const KPK_SIZE: usize = 2 * 24 * 64 * 64;

fn kpk_index(white_to_move: bool, wk: Square, bk: Square, pawn: Square) -> usize {
    let p = (pawn.rank() as usize - 1) * 4 + pawn.file() as usize;
    ((usize::from(white_to_move) * 24 + p) * 64 + wk as usize) * 64 + bk as usize
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Invalid,
    Unknown,
    Draw,
    Win,
}

impl Kpk {
    fn compute() -> Kpk {
        let mut table = vec![Kind::Unknown; KPK_SIZE];
        let pawn_squares: Vec<Square> = Square::ALL
            .iter()
            .copied()
            .filter(|s| (1..=6).contains(&(s.rank() as usize)) && (s.file() as usize) < 4)
            .collect();
        // Initial classification.
        for white_to_move in [false, true] {
            for &p in &pawn_squares {
                for wk in Square::ALL {
                    for bk in Square::ALL {
                        let i = kpk_index(white_to_move, wk, bk, p);
                        table[i] = Self::classify_initial(white_to_move, wk, bk, p);
                    }
                }
            }
        }
        // Retrograde iteration: until nothing changes.
        loop {
            let mut changed = false;
            for white_to_move in [true, false] {
                for &p in &pawn_squares {
                    for wk in Square::ALL {
                        for bk in Square::ALL {
                            let i = kpk_index(white_to_move, wk, bk, p);
                            if table[i] != Kind::Unknown {
                                continue;
                            }
                            let k = if white_to_move {
                                Self::white_moves(&table, wk, bk, p)
                            } else {
                                Self::black_moves(&table, wk, bk, p)
                            };
                            if k != Kind::Unknown {
                                table[i] = k;
                                changed = true;
                            }
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut wins = vec![0u64; KPK_SIZE.div_ceil(64)];
        for (i, k) in table.iter().enumerate() {
            if *k == Kind::Win {
                wins[i / 64] |= 1 << (i % 64);
            }
        }
        Kpk { wins }
    }

    fn classify_initial(white_to_move: bool, wk: Square, bk: Square, p: Square) -> Kind {
        if wk == bk || wk == p || bk == p || wk.distance(bk) <= 1 {
            return Kind::Invalid;
        }
        let pawn_attacks = attacks::pawn_attacks(Color::White, p);
        if white_to_move && pawn_attacks.contains(bk) {
            return Kind::Invalid; // Black, not to move, would be in check.
        }
        if white_to_move && p.rank() as usize == 6 {
            let promo = Square::from_index(p as u32 + 8);
            if promo != wk && promo != bk && (bk.distance(promo) > 1 || wk.distance(promo) <= 1) {
                return Kind::Win;
            }
        }
        if !white_to_move {
            let defended = wk.distance(p) <= 1;
            if bk.distance(p) <= 1 && !defended {
                return Kind::Draw; // Black takes the pawn.
            }
            let free = attacks::king_attacks(bk)
                & !attacks::king_attacks(wk)
                & !pawn_attacks
                & !Bitboard::from_square(wk)
                & !Bitboard::from_square(p);
            if free.is_empty() {
                return if pawn_attacks.contains(bk) { Kind::Win } else { Kind::Draw };
            }
        }
        Kind::Unknown
    }

    fn white_moves(table: &[Kind], wk: Square, bk: Square, p: Square) -> Kind {
        let mut all_draw = true;
        let mut consider = |k: Kind| match k {
            Kind::Win => true,
            Kind::Unknown => {
                all_draw = false;
                false
            }
            _ => false,
        };
        for to in attacks::king_attacks(wk) {
            if to == p || to.distance(bk) <= 1 {
                continue;
            }
            if consider(table[kpk_index(false, to, bk, p)]) {
                return Kind::Win;
            }
        }
        if p.rank() as usize <= 5 {
            let one = Square::from_index(p as u32 + 8);
            if one != wk && one != bk {
                if consider(table[kpk_index(false, wk, bk, one)]) {
                    return Kind::Win;
                }
                if p.rank() as usize == 1 {
                    let two = Square::from_index(p as u32 + 16);
                    if two != wk && two != bk && consider(table[kpk_index(false, wk, bk, two)]) {
                        return Kind::Win;
                    }
                }
            }
        }
        if all_draw {
            Kind::Draw
        } else {
            Kind::Unknown
        }
    }

    fn black_moves(table: &[Kind], wk: Square, bk: Square, p: Square) -> Kind {
        let mut all_win = true;
        let pawn_attacks = attacks::pawn_attacks(Color::White, p);
        for to in attacks::king_attacks(bk) {
            if to == wk || to.distance(wk) <= 1 || pawn_attacks.contains(to) {
                continue;
            }
            if to == p {
                continue; // Defended (an undefended pawn was classified as a draw already).
            }
            match table[kpk_index(true, wk, to, p)] {
                Kind::Draw => return Kind::Draw,
                Kind::Win => {}
                _ => all_win = false,
            }
        }
        if all_win {
            Kind::Win
        } else {
            Kind::Unknown
        }
    }

    fn probe(&self, white_to_move: bool, wk: Square, bk: Square, p: Square) -> bool {
        let i = kpk_index(white_to_move, wk, bk, p);
        self.wins[i / 64] >> (i % 64) & 1 == 1
    }
}

fn kpk() -> &'static Kpk {
    static KPK: OnceLock<Kpk> = OnceLock::new();
    KPK.get_or_init(Kpk::compute)
}

/// Whether the side with the pawn wins K+P vs K. `strong` holds the pawn; `stm` is the side to move.
pub fn kpk_wins(strong: Color, stm: Color, strong_king: Square, weak_king: Square, pawn: Square) -> bool {
    // Normalise: the strong side is White, the pawn on files a–d (one mirror for all three pieces).
    let mirror = (pawn.file() as usize) >= 4;
    let norm = |sq: Square| {
        let sq = if strong == Color::White { sq } else { sq.flip_vertical() };
        if mirror {
            Square::from_index(sq as u32 ^ 7)
        } else {
            sq
        }
    };
    let (wk, bk, p) = (norm(strong_king), norm(weak_king), norm(pawn));
    if !(1..=6).contains(&(p.rank() as usize)) {
        return false;
    }
    kpk().probe(stm == strong, wk, bk, p)
}

fn edge_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    f.min(7 - f).min(r).min(7 - r)
}

/// Non-pawn material in pawns (N = B = 3, R = 5, Q = 9).
fn minor_major(board: &Board, color: Color) -> (u32, u32, u32, u32) {
    let ours = board.by_color(color);
    (
        (board.knights() & ours).count(),
        (board.bishops() & ours).count(),
        (board.rooks() & ours).count(),
        (board.queens() & ours).count(),
    )
}

/// The endgame's verdict, White's point of view: `Some(score)` replaces the evaluation, or a scale
/// (out of 64) for drawish material; `None` leaves the evaluation alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Exact(i32),
    Scale(i32),
}

/// Orthodox endgame knowledge for `board` with `stm` to move.
pub fn probe(board: &Board, stm: Color) -> Option<Verdict> {
    let pieces = board.occupied().count();
    if pieces > 6 {
        return opposite_bishops(board);
    }
    let pawns = [board.pawns() & board.by_color(Color::White), board.pawns() & board.by_color(Color::Black)];
    let king = |c: Color| (board.kings() & board.by_color(c)).first();
    let (Some(wk), Some(bk)) = (king(Color::White), king(Color::Black)) else { return None };
    let mat = [minor_major(board, Color::White), minor_major(board, Color::Black)];
    let npm = |c: usize| {
        let (n, b, r, q) = mat[c];
        3 * (n + b) + 5 * r + 9 * q
    };
    // K+P vs K: exact.
    if pieces == 3 && (pawns[0] | pawns[1]).count() == 1 {
        let strong = if pawns[0].any() { Color::White } else { Color::Black };
        let pawn = (pawns[0] | pawns[1]).first()?;
        let (sk, wk2) = if strong == Color::White { (wk, bk) } else { (bk, wk) };
        let sign = if strong == Color::White { 1 } else { -1 };
        return Some(Verdict::Exact(if kpk_wins(strong, stm, sk, wk2, pawn) {
            sign * (KNOWN_WIN + 20 * strong.relative_rank(pawn.rank()) as i32)
        } else {
            0
        }));
    }
    for strong in [Color::White, Color::Black] {
        let s = strong as usize;
        let w = 1 - s;
        let sign = if strong == Color::White { 1 } else { -1 };
        let (sk, lk) = if strong == Color::White { (wk, bk) } else { (bk, wk) };
        let weak_bare = board.by_color(!strong).count() == 1;
        if weak_bare && pawns[s].is_empty() {
            let (n, b, r, q) = mat[s];
            let bishops = board.bishops() & board.by_color(strong);
            let both_colours =
                (bishops & Bitboard(0x55aa_55aa_55aa_55aa)).any() && (bishops & Bitboard(0xaa55_aa55_aa55_aa55)).any();
            let close = 7 - sk.distance(lk) as i32;
            if q + r > 0 || both_colours || (b > 0 && n > 0 && n + b >= 2) {
                // Mating material: drive the bare king to the edge, bring the king close.
                let mut drive = 20 * (3 - edge_distance(lk)) + 10 * close;
                if n == 1 && b == 1 && q + r == 0 {
                    // KBNK: only the corners of the bishop's colour mate.
                    let dark = (bishops & Bitboard(0xaa55_aa55_aa55_aa55)).any();
                    let corners: [Square; 2] = if dark { [Square::A1, Square::H8] } else { [Square::H1, Square::A8] };
                    let to_corner = corners.iter().map(|c| lk.distance(*c) as i32).min().unwrap_or(7);
                    drive = 25 * (7 - to_corner) + 10 * close;
                }
                return Some(Verdict::Exact(sign * (KNOWN_WIN + 100 * npm(s) as i32 / 3 + drive)));
            }
            // KNK, KBK, KNNK, same-coloured bishops: no mate can be forced.
            return Some(Verdict::Exact(0));
        }
        // No pawns and at most a minor piece ahead (KRKN, KRKB, KBKN, KNKN, ...): drawish.
        if pawns[s].is_empty() && npm(s) > npm(w) && npm(s) <= npm(w) + 3 {
            return Some(Verdict::Scale(if npm(s) >= 5 && npm(w) == 3 { 16 } else { 4 }));
        }
    }
    opposite_bishops(board)
}

/// Each side has one bishop, the bishops on opposite colours, no other pieces: half the evaluation.
fn opposite_bishops(board: &Board) -> Option<Verdict> {
    let non_pawn = board.occupied() & !board.pawns() & !board.kings();
    let bishops = board.bishops();
    if non_pawn != bishops || bishops.count() != 2 {
        return None;
    }
    let w = (bishops & board.by_color(Color::White)).first()?;
    let b = (bishops & board.by_color(Color::Black)).first()?;
    let colour = |s: Square| (s.file() as u32 + s.rank() as u32) % 2;
    (colour(w) != colour(b)).then_some(Verdict::Scale(32))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use mysl_core::Chess;

    fn verdict(fen: &str) -> Option<i32> {
        let pos = Chess::from_fen(fen).unwrap();
        match probe(pos.board(), pos.turn()) {
            Some(Verdict::Exact(v)) => Some(v),
            Some(Verdict::Scale(s)) => Some(-1000 - s),
            None => None,
        }
    }

    #[test]
    fn kpk_agrees_with_the_gaviota_statistics() {
        // ../shared/data/tb-stats.tsv: full-board legal KPvK positions and wins, from the Gaviota tables.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tb-stats.tsv");
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("skipped: {} not found", path.display());
            return;
        };
        let row = |stm: &str| -> (u64, u64, u64) {
            let f: Vec<&str> = text
                .lines()
                .map(|l| l.split('\t').collect::<Vec<_>>())
                .find(|f| f[0] == "KPvK" && f[2] == stm && f[13] == "DTM" && !f[3].is_empty())
                .map(|f| f.to_vec())
                .expect("KPvK row");
            (f[3].parse().unwrap(), f[4].parse().unwrap(), f[6].parse().unwrap())
        };
        let (wtm_positions, wtm_wins, _) = row("wtm");
        let (btm_positions, _, btm_losses) = row("btm");
        let t = kpk();
        let mut counts = [[0u64; 2]; 2]; // [stm][legal, white wins]
        for white_to_move in [false, true] {
            for p in Square::ALL.iter().filter(|s| (1..=6).contains(&(s.rank() as usize)) && (s.file() as usize) < 4) {
                for wk in Square::ALL {
                    for bk in Square::ALL {
                        if Kpk::classify_initial(white_to_move, wk, bk, *p) == Kind::Invalid {
                            continue;
                        }
                        let c = &mut counts[usize::from(white_to_move)];
                        c[0] += 1;
                        c[1] += u64::from(t.probe(white_to_move, wk, bk, *p));
                    }
                }
            }
        }
        // Files e-h mirror files a-d.
        assert_eq!((2 * counts[1][0], 2 * counts[1][1]), (wtm_positions, wtm_wins), "White to move");
        assert_eq!((2 * counts[0][0], 2 * counts[0][1]), (btm_positions, btm_losses), "Black to move");
    }

    #[test]
    fn kbnk_prefers_the_bishops_corner() {
        // Light-squared bishop (f1): the mating corners are h1 and a8.
        let right = verdict("k7/8/1K6/8/8/8/8/2N2B2 w - - 0 1").unwrap();
        let wrong = verdict("7k/8/6K1/8/8/8/8/2N2B2 w - - 0 1").unwrap();
        assert!(right > wrong && wrong > KNOWN_WIN, "{right} {wrong}");
    }

    #[test]
    fn drawn_material() {
        assert_eq!(verdict("8/8/4k3/8/8/3NK3/3N4/8 w - - 0 1"), Some(0));
        assert_eq!(verdict("8/8/4k3/8/8/4K3/3B4/8 w - - 0 1"), Some(0));
        assert_eq!(verdict("8/8/4k3/8/3n4/4K3/3R4/8 w - - 0 1"), Some(-1016));
        assert_eq!(verdict("8/pp3k2/8/2b5/8/4KB2/PP6/8 w - - 0 1"), Some(-1032));
        assert!(verdict("8/8/4k3/8/8/4K3/3Q4/8 w - - 0 1").unwrap() > KNOWN_WIN);
    }
}
