//! Variant geometry and the generator for variants whose moves are not orthodox (Berolina, Cylinder,
//! Knight Relay, Recycle): pseudo-legal moves filtered by "the mover's king is not attacked afterwards".
//! Orthodox chess never calls into this module's slow paths: every entry point is chosen by constants.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::rules::{Rules, Variant, VariantState};
use crate::types::{CastlingSide, Color, Piece, Rank, Role, Square};

// ---- Cylinder geometry: files a and h are adjacent ----

const fn wrapped_leaper_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < steps.len() {
            let nf = (f + steps[i].0 + 8) % 8;
            let nr = r + steps[i].1;
            if nr >= 0 && nr < 8 && !(nf == f && nr == r) {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static CYL_KNIGHT: [u64; 64] =
    wrapped_leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static CYL_KING: [u64; 64] =
    wrapped_leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
static CYL_PAWN: [[u64; 64]; 2] =
    [wrapped_leaper_table(&[(-1, 1), (1, 1)]), wrapped_leaper_table(&[(-1, -1), (1, -1)])];

/// `[cell][occupancy]`: the cells of a line of eight that a slider on `cell` attacks, both ways to the
/// first piece; with `wrap` the line is a ring (a cylinder's rank), never back to the slider's own cell.
const fn line_table(wrap: bool) -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut c = 0;
    while c < 8 {
        let mut occ = 0;
        while occ < 256 {
            let mut att = 0u8;
            // the two directions, each up to the first piece, the end of the line or (ring) the slider
            let mut dir = 0;
            while dir < 2 {
                let mut k = 1;
                while k < 8 {
                    let cell = if dir == 0 { c + k } else { c + 8 - k };
                    if !wrap && (cell < 8) != (dir == 0) {
                        break;
                    }
                    let cell = cell % 8;
                    att |= 1 << cell;
                    if occ & (1 << cell) != 0 {
                        break;
                    }
                    k += 1;
                }
                dir += 1;
            }
            table[c][occ] = att;
            occ += 1;
        }
        c += 1;
    }
    table
}

/// `[file][rank occupancy]`: a slider's attacks along its rank on the cylinder.
static CYL_RANK: [[u8; 256]; 8] = line_table(true);

/// `[cell][occupancy]`: a slider's attacks along a line of eight whose ends do not wrap.
static LINE: [[u8; 256]; 8] = line_table(false);

/// `[0][sq]`: the cylinder's diagonal through `sq` going up to the right (file − rank constant modulo 8);
/// `[1][sq]`: up to the left (file + rank constant). Eight squares each, one on every file and every rank.
static CYL_DIAGONALS: [[u64; 64]; 2] = {
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        let mut rank = 0;
        while rank < 8 {
            table[0][sq] |= 1 << (rank * 8 + (f + 16 + rank - r) % 8);
            table[1][sq] |= 1 << (rank * 8 + (f + 16 - rank + r) % 8);
            rank += 1;
        }
        sq += 1;
    }
    table
};

/// A slider's moves along one of the cylinder's diagonals through `sq`. The diagonal has one square on
/// every file, so a multiplication gathers its pieces into one byte by file (no two bits meet); turned into
/// rank order, a line table gives the attacks, and the same multiplication spreads them back.
#[inline(always)]
fn cylinder_diagonal(sq: Square, occupied: Bitboard, up_left: bool) -> Bitboard {
    const FILES: u64 = 0x0101_0101_0101_0101;
    let mask = CYL_DIAGONALS[up_left as usize][sq as usize];
    let by_file = ((occupied.0 & mask).wrapping_mul(FILES) >> 56) as u8;
    let (f, r) = (sq.file() as u32, sq.rank() as u32);
    let att_by_file = if up_left {
        // rank k holds file (f + r − k): reversed, then turned
        let e = (7 + 16 - f - r) % 8;
        let by_rank = by_file.reverse_bits().rotate_right(e);
        LINE[r as usize][by_rank as usize].rotate_left(e).reverse_bits()
    } else {
        // rank k holds file (f − r + k)
        let c = (f + 8 - r) % 8;
        let by_rank = by_file.rotate_right(c);
        LINE[r as usize][by_rank as usize].rotate_left(c)
    };
    Bitboard((att_by_file as u64).wrapping_mul(FILES) & mask)
}

/// A slider's ray on the cylinder, square by square: files wrap, ranks end; it stops at the first piece
/// and never comes back to its own square. The tests' reference.
#[cfg(test)]
fn cylinder_ray(sq: Square, occupied: Bitboard, df: i32, dr: i32) -> Bitboard {
    let mut result = Bitboard::EMPTY;
    let (mut f, mut r) = (sq.file() as i32, sq.rank() as i32);
    loop {
        f = (f + df + 8) % 8;
        r += dr;
        if !(0..8).contains(&r) {
            break;
        }
        let to = Square::from_index((r * 8 + f) as u32);
        if to == sq {
            break;
        }
        result.set(to);
        if occupied.contains(to) {
            break;
        }
    }
    result
}

pub fn cylinder_rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let shift = 8 * sq.rank() as u32;
    let rank = CYL_RANK[sq.file() as usize][((occupied.0 >> shift) & 0xFF) as usize];
    Bitboard((rank as u64) << shift) | (attacks::rook_attacks(sq, occupied) & Bitboard::file(sq.file()))
}

pub fn cylinder_bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    cylinder_diagonal(sq, occupied, false) | cylinder_diagonal(sq, occupied, true)
}

/// The square-by-square walk of the bishop's four rays (the reference of the tests and the benchmark).
#[cfg(test)]
fn cylinder_bishop_attacks_walk(sq: Square, occupied: Bitboard) -> Bitboard {
    cylinder_ray(sq, occupied, 1, 1)
        | cylinder_ray(sq, occupied, 1, -1)
        | cylinder_ray(sq, occupied, -1, 1)
        | cylinder_ray(sq, occupied, -1, -1)
}

/// The square-by-square walk of the rook's four rays.
#[cfg(test)]
fn cylinder_rook_attacks_walk(sq: Square, occupied: Bitboard) -> Bitboard {
    cylinder_ray(sq, occupied, 1, 0)
        | cylinder_ray(sq, occupied, -1, 0)
        | cylinder_ray(sq, occupied, 0, 1)
        | cylinder_ray(sq, occupied, 0, -1)
}

pub fn cylinder_knight_attacks(sq: Square) -> Bitboard {
    Bitboard(CYL_KNIGHT[sq as usize])
}

pub fn cylinder_king_attacks(sq: Square) -> Bitboard {
    Bitboard(CYL_KING[sq as usize])
}

// ---- per-variant attack primitives ----

/// Squares a pawn of `color` on `sq` attacks (can capture on) under the rules `R`.
#[inline(always)]
pub fn pawn_attacks<R: Rules>(color: Color, sq: Square) -> Bitboard {
    match R::VARIANT {
        Variant::Cylinder => Bitboard(CYL_PAWN[color as usize][sq as usize]),
        Variant::Berolina => {
            let b = Bitboard::from_square(sq);
            match color {
                Color::White => b.north(),
                Color::Black => b.south(),
            }
        }
        _ => attacks::pawn_attacks(color, sq),
    }
}

/// Knight attacks under the rules `R` (Cylinder wraps the files).
#[inline(always)]
pub fn knight_attacks<R: Rules>(sq: Square) -> Bitboard {
    if matches!(R::VARIANT, Variant::Cylinder) {
        cylinder_knight_attacks(sq)
    } else {
        attacks::knight_attacks(sq)
    }
}

/// King attacks under the rules `R` (Cylinder wraps the files).
#[inline(always)]
pub fn king_attacks<R: Rules>(sq: Square) -> Bitboard {
    if matches!(R::VARIANT, Variant::Cylinder) {
        cylinder_king_attacks(sq)
    } else {
        attacks::king_attacks(sq)
    }
}

/// Rook attacks under the rules `R` (Cylinder wraps the files).
#[inline(always)]
pub fn rook_attacks<R: Rules>(sq: Square, occ: Bitboard) -> Bitboard {
    if matches!(R::VARIANT, Variant::Cylinder) {
        cylinder_rook_attacks(sq, occ)
    } else {
        attacks::rook_attacks(sq, occ)
    }
}

/// Bishop attacks under the rules `R` (Cylinder wraps the files).
#[inline(always)]
pub fn bishop_attacks<R: Rules>(sq: Square, occ: Bitboard) -> Bitboard {
    if matches!(R::VARIANT, Variant::Cylinder) {
        cylinder_bishop_attacks(sq, occ)
    } else {
        attacks::bishop_attacks(sq, occ)
    }
}

/// Queen attacks under the rules `R` (Cylinder wraps the files).
#[inline(always)]
pub fn queen_attacks<R: Rules>(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks::<R>(sq, occ) | bishop_attacks::<R>(sq, occ)
}

/// Knight relay: pieces of `color` (not kings, not knights) a knight's move from a friendly knight.
pub fn relayed_pieces(board: &Board, color: Color) -> Bitboard {
    let ours = board.by_color(color);
    let mut covered = Bitboard::EMPTY;
    for knight in board.knights() & ours {
        covered |= attacks::knight_attacks(knight);
    }
    covered & (ours - board.knights() - board.kings())
}

/// Pieces of `by` that attack `sq` under the rules `R` (the squares they could capture on).
#[inline]
pub fn attackers_to<R: Rules>(board: &Board, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
    match R::VARIANT {
        Variant::Cylinder | Variant::Berolina => {
            let them = board.by_color(by);
            ((pawn_attacks::<R>(!by, sq) & board.pawns())
                | (knight_attacks::<R>(sq) & board.knights())
                | (king_attacks::<R>(sq) & board.kings())
                | (bishop_attacks::<R>(sq, occ) & board.diagonal_sliders())
                | (rook_attacks::<R>(sq, occ) & board.orthogonal_sliders()))
                & them
        }
        Variant::KnightRelay => {
            // Knights attack nothing; pieces a knight's move from a friendly knight also attack as
            // knights (pawns not onto the first or last rank).
            let them = board.by_color(by);
            let mut relayed = relayed_pieces(board, by);
            if Bitboard::BACK_RANKS.contains(sq) {
                relayed = relayed - board.pawns();
            }
            (((attacks::pawn_attacks(!by, sq) & board.pawns())
                | (attacks::king_attacks(sq) & board.kings())
                | (attacks::bishop_attacks(sq, occ) & board.diagonal_sliders())
                | (attacks::rook_attacks(sq, occ) & board.orthogonal_sliders()))
                & them)
                | (attacks::knight_attacks(sq) & relayed)
        }
        _ => board.attackers_to(sq, by, occ),
    }
}

// ---- the filtered generator ----

impl<R: Rules> Position<R> {
    /// Pseudo-legal moves of the variants with their own geometry, then the legality filter.
    pub(crate) fn filtered_moves(&self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_moves(&mut pseudo);
        let us = self.turn;
        // Out of check, a move of another piece than the king (not en passant) can expose the king only
        // by leaving a line from it that holds an enemy slider of the line's kind (knights, pawns and the
        // king attack from fixed squares, and a capture only removes attackers): only such moves, king
        // moves and every move in check are played out and tested.
        let board = &self.board;
        let quiet_king = match board.king_of(us) {
            Some(k) if self.checkers.is_empty() => {
                let them = board.by_color(!us);
                let rook_lines = rook_attacks::<R>(k, Bitboard::EMPTY);
                let bishop_lines = bishop_attacks::<R>(k, Bitboard::EMPTY);
                let mut lines = Bitboard::EMPTY;
                if (rook_lines & board.orthogonal_sliders() & them).any() {
                    lines |= rook_lines;
                }
                if (bishop_lines & board.diagonal_sliders() & them).any() {
                    lines |= bishop_lines;
                }
                Some((k, lines))
            }
            _ => None,
        };
        for mv in pseudo.iter() {
            let surely_legal = quiet_king
                .is_some_and(|(k, lines)| mv.from() != k && !mv.is_en_passant() && !lines.contains(mv.from()));
            if surely_legal || mv.is_castle() || !self.leaves_king_attacked(mv, us) {
                list.push(mv);
            }
        }
    }

    /// Every pseudo-legal move played out and tested (the tests' reference for the shortcut above).
    #[cfg(test)]
    fn filtered_moves_by_testing_all(&self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_moves(&mut pseudo);
        for mv in pseudo.iter() {
            if mv.is_castle() || !self.leaves_king_attacked(mv, self.turn) {
                list.push(mv);
            }
        }
    }

    fn leaves_king_attacked(&self, mv: Move, us: Color) -> bool {
        let mut board = self.board.clone();
        let from = mv.from();
        let to = mv.to();
        if let Some(role) = mv.drop_role() {
            board.put(to, Piece::new(us, role));
        } else if let Some(piece) = board.piece_at(from) {
            if mv.is_en_passant() {
                let victim = if matches!(R::VARIANT, Variant::Berolina) {
                    self.state.ep_victim().unwrap_or(Square::from_coords(to.file(), from.rank()))
                } else {
                    Square::from_coords(to.file(), from.rank())
                };
                board.set_piece_at(victim, None);
            }
            board.set_piece_at(to, None);
            board.set_piece_at(from, None);
            if mv.kind() != MoveKind::PawnVanish {
                board.put(to, Piece::new(us, mv.promotion().unwrap_or(piece.role)));
            }
        }
        let Some(king) = board.king_of(us) else { return false };
        attackers_to::<R>(&board, king, !us, board.occupied()).any()
    }

    fn pseudo_moves(&self, list: &mut MoveList) {
        let us = self.turn;
        let them = !us;
        let board = &self.board;
        let ours = board.by_color(us);
        let theirs = board.by_color(them);
        let occ = board.occupied();
        let relay = matches!(R::VARIANT, Variant::KnightRelay);
        let recycle = matches!(R::VARIANT, Variant::Recycle);
        // Where pieces may go: enemy pieces (not knights in knight relay; never the king) and empty
        // squares; in recycle also own pieces other than the king.
        let mut capturable = theirs - board.kings();
        if relay {
            capturable = capturable - board.knights();
        }
        if recycle {
            capturable |= ours - board.kings();
        }
        let target = capturable | !occ;
        let relayed = if relay { relayed_pieces(board, us) } else { Bitboard::EMPTY };
        let last_rank = Bitboard::rank(us.relative_rank(Rank::Eighth));

        for from in ours - board.pawns() {
            let Some(role) = board.role_at(from) else { continue };
            let mut t = match role {
                Role::Knight if relay => attacks::knight_attacks(from) & !occ,
                Role::Knight => knight_attacks::<R>(from) & target,
                Role::Bishop => bishop_attacks::<R>(from, occ) & target,
                Role::Rook => rook_attacks::<R>(from, occ) & target,
                Role::Queen => (bishop_attacks::<R>(from, occ) | rook_attacks::<R>(from, occ)) & target,
                Role::King => king_attacks::<R>(from) & target,
                Role::Pawn => Bitboard::EMPTY,
            };
            if relayed.contains(from) {
                t |= attacks::knight_attacks(from) & target;
            }
            for to in t {
                list.push(Move::normal(from, to));
            }
        }

        // Pawns.
        let up: i32 = if us == Color::White { 8 } else { -8 };
        let second_rank = Bitboard::rank(us.relative_rank(Rank::Second));
        let push_pawn = |list: &mut MoveList, from: Square, to: Square| {
            if last_rank.contains(to) {
                if recycle {
                    list.push(Move::new(from, to, MoveKind::PawnVanish));
                } else {
                    for &kind in R::PROMOTIONS {
                        list.push(Move::new(from, to, kind));
                    }
                }
            } else {
                list.push(Move::normal(from, to));
            }
        };
        for from in board.pawns() & ours {
            let forward = from.offset(up);
            if matches!(R::VARIANT, Variant::Berolina) {
                // Quiet moves one square diagonally forward, or two from the second rank over an
                // empty square; captures one square straight ahead.
                for df in [-1i32, 1] {
                    let Some(step) = forward.and_then(|f| diagonal(f, df)) else { continue };
                    if occ.contains(step) {
                        continue;
                    }
                    push_pawn(list, from, step);
                    if second_rank.contains(from) {
                        if let Some(double) = step.offset(up).and_then(|f| diagonal(f, df)) {
                            if !occ.contains(double) {
                                list.push(Move::normal(from, double));
                            }
                        }
                    }
                }
                if let Some(f) = forward {
                    if capturable.contains(f) && occ.contains(f) {
                        push_pawn(list, from, f);
                    }
                }
            } else {
                if let Some(f) = forward {
                    if !occ.contains(f) {
                        push_pawn(list, from, f);
                        if second_rank.contains(from) {
                            if let Some(double) = f.offset(up) {
                                if !occ.contains(double) {
                                    list.push(Move::normal(from, double));
                                }
                            }
                        }
                    }
                }
                for to in pawn_attacks::<R>(us, from) & capturable & occ {
                    push_pawn(list, from, to);
                }
            }
            if relayed.contains(from) {
                // Relayed knight moves of a pawn never land on the first or last rank.
                for to in attacks::knight_attacks(from) & (target - Bitboard::BACK_RANKS) {
                    list.push(Move::normal(from, to));
                }
            }
        }

        // En passant.
        if let (true, Some(ep)) = (R::EN_PASSANT, self.ep_square) {
            let capturers = if matches!(R::VARIANT, Variant::Berolina) {
                let b = Bitboard::from_square(ep);
                (if us == Color::White { b.south() } else { b.north() }) & board.pawns() & ours
            } else {
                pawn_attacks::<R>(them, ep) & board.pawns() & ours
            };
            for from in capturers {
                list.push(Move::new(from, ep, MoveKind::EnPassant));
            }
        }

        // Drops (recycle): any empty square, pawns not on the first or last rank.
        if recycle {
            let hand = self.state.pockets()[us as usize];
            for (i, &n) in hand.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let role = Role::from_index(i);
                let squares = if role == Role::Pawn { !occ - Bitboard::BACK_RANKS } else { !occ };
                let kind = match role {
                    Role::Pawn => MoveKind::DropPawn,
                    Role::Knight => MoveKind::DropKnight,
                    Role::Bishop => MoveKind::DropBishop,
                    Role::Rook => MoveKind::DropRook,
                    _ => MoveKind::DropQueen,
                };
                for to in squares {
                    list.push(Move::new(to, to, kind));
                }
            }
        }

        // Castling: orthodox conditions, attacks judged with the variant's geometry.
        if R::CASTLING && self.checkers.is_empty() && self.castling.has_any(us) {
            if let Some(king) = board.king_of(us) {
                for side in CastlingSide::ALL {
                    if let Some(rook) = self.castling.rook(us, side) {
                        let i = 2 * us as usize + side as usize;
                        if (self.castling.empty_path_of(i) & occ).any() {
                            continue;
                        }
                        let occ_after = occ ^ king ^ rook;
                        if self.castling.king_path_of(i).into_iter().all(|sq| {
                            let mut b = board.clone();
                            b.set_piece_at(king, None);
                            b.set_piece_at(rook, None);
                            !attackers_to::<R>(&b, sq, them, occ_after).any()
                        }) {
                            list.push(Move::new(king, rook, MoveKind::Castle));
                        }
                    }
                }
            }
        }
    }
}

/// The square one file to the side (`df` = -1 or 1) of `sq`, on the same rank, if on the board.
fn diagonal(sq: Square, df: i32) -> Option<Square> {
    let f = sq.file() as i32 + df;
    if (0..8).contains(&f) {
        Some(Square::from_coords(crate::types::File::ALL[f as usize], sq.rank()))
    } else {
        None
    }
}

#[cfg(test)]
mod cylinder_slider_tests {
    use super::*;

    #[test]
    fn table_sliders_equal_the_plain_walk() {
        let seed = 0x6379_6c69_6e64;
        let mut rng = crate::rng::SplitMix64::new(seed);
        for n in 0..20_000 {
            // sparse to dense boards
            let occupied = match n % 3 {
                0 => Bitboard(rng.next_u64() & rng.next_u64() & rng.next_u64()),
                1 => Bitboard(rng.next_u64() & rng.next_u64()),
                _ => Bitboard(rng.next_u64()),
            };
            for i in 0..64 {
                let sq = Square::from_index(i);
                let (rook, bishop) =
                    (cylinder_rook_attacks_walk(sq, occupied), cylinder_bishop_attacks_walk(sq, occupied));
                assert_eq!(
                    cylinder_rook_attacks(sq, occupied),
                    rook,
                    "seed {seed:#x}, board {n}, {sq:?}, {occupied:?}"
                );
                assert_eq!(
                    cylinder_bishop_attacks(sq, occupied),
                    bishop,
                    "seed {seed:#x}, board {n}, {sq:?}, {occupied:?}"
                );
            }
        }
    }

    /// Not a test: `cargo test --release -p mysl-core --lib cylinder_slider_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn cylinder_slider_speed() {
        let mut rng = crate::rng::SplitMix64::new(7);
        // boards of about 24 pieces, as in a middlegame
        let boards: Vec<Bitboard> = (0..4096)
            .map(|_| Bitboard(rng.next_u64() & rng.next_u64() | 0xFFFF_0000_0000_FFFF & rng.next_u64()))
            .collect();
        type Slider = fn(Square, Bitboard) -> Bitboard;
        let pairs: [(&str, Slider, Slider); 2] = [
            ("rook", cylinder_rook_attacks, cylinder_rook_attacks_walk),
            ("bishop", cylinder_bishop_attacks, cylinder_bishop_attacks_walk),
        ];
        for (name, table, walk) in pairs {
            for (kind, f) in [("table", table), ("walk", walk)] {
                let start = std::time::Instant::now();
                let mut acc = 0u64;
                for _ in 0..20 {
                    for b in &boards {
                        for i in 0..64 {
                            acc ^= f(Square::from_index(i), std::hint::black_box(*b)).0;
                        }
                    }
                }
                eprintln!(
                    "{name} {kind}: {:.1} ns a call ({acc:x})",
                    start.elapsed().as_nanos() as f64 / (20.0 * 4096.0 * 64.0)
                );
            }
        }
    }
}

#[cfg(test)]
mod legality_shortcut_tests {
    use super::*;
    use crate::{Berolina, Cylinder, KnightRelay, Recycle};

    /// Random games: at every position the generator with the shortcut gives the same moves as testing
    /// every pseudo-legal move.
    fn same_moves<R: Rules>(seed: u64) {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut positions = 0;
        for game in 0..150 {
            let mut pos = Position::<R>::startpos();
            for ply in 0..160 {
                let mut fast = MoveList::new();
                pos.filtered_moves(&mut fast);
                let mut slow = MoveList::new();
                pos.filtered_moves_by_testing_all(&mut slow);
                let (a, b): (Vec<Move>, Vec<Move>) = (fast.iter().collect(), slow.iter().collect());
                assert_eq!(a, b, "{:?} seed {seed}, game {game}, ply {ply}: {}", R::VARIANT, pos.fen());
                positions += 1;
                if a.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos.play_unchecked(a[rng.below(a.len() as u64) as usize]);
            }
        }
        assert!(positions > 5_000, "{positions}");
    }

    #[test]
    fn shortcut_gives_the_moves_of_the_full_test() {
        same_moves::<Cylinder>(1);
        same_moves::<Berolina>(2);
        same_moves::<KnightRelay>(3);
        same_moves::<Recycle>(4);
    }
}
