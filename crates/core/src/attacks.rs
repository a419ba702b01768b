//! Attack tables: leapers computed at compile time, sliders by magic bitboards whose table `build.rs`
//! generates. Also ray tables (`between`, `line`) used for pins and check evasions.
//!
//! These are the primitives the variants (wrapped rays for Cylinder) and the problem solver's fairy
//! pieces (arbitrary leapers, riders, hoppers) reuse; see docs/architecture.md.

use crate::bitboard::Bitboard;
use crate::types::{Color, Role, Square};

pub(crate) struct Magic {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

static SLIDER_TABLE: [u64; SLIDER_TABLE_LEN] = {
    let bytes = include_bytes!(concat!(env!("OUT_DIR"), "/slider_attacks.bin"));
    let mut table = [0u64; SLIDER_TABLE_LEN];
    let mut i = 0;
    while i < SLIDER_TABLE_LEN {
        let b = 8 * i;
        table[i] = u64::from_ne_bytes([
            bytes[b],
            bytes[b + 1],
            bytes[b + 2],
            bytes[b + 3],
            bytes[b + 4],
            bytes[b + 5],
            bytes[b + 6],
            bytes[b + 7],
        ]);
        i += 1;
    }
    table
};

/// Builds a leaper table from (file, rank) steps.
pub const fn leaper_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [u64; 64] = leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
static PAWN: [[u64; 64]; 2] = [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];

const fn slide_const(sq: i32, occ: u64, df: i32, dr: i32) -> u64 {
    let mut attacks = 0u64;
    let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        attacks |= 1 << (r * 8 + f);
        if occ & (1 << (r * 8 + f)) != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    attacks
}

const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// BETWEEN[a][b]: squares strictly between a and b on a common line, else empty.
/// LINE[a][b]: the whole line through a and b (edge to edge), else empty.
static RAYS: ([[u64; 64]; 64], [[u64; 64]; 64]) = {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            let full = slide_const(a as i32, 0, df, dr) | slide_const(a as i32, 0, -df, -dr) | (1 << a);
            let ray = slide_const(a as i32, 0, df, dr);
            let mut rest = ray;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                line[a][b] = full;
                between[a][b] = ray & slide_const(b as i32, 0, -df, -dr) & !(1 << b);
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
};

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq as usize])
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq as usize])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color as usize][sq as usize])
}

#[inline(always)]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // The index is below 2^(64-shift) by construction, so the bounds check never fails.
    Bitboard(SLIDER_TABLE[m.offset + idx])
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq as usize], occupied)
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq as usize], occupied)
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Attacks of a piece of this role and color standing on `sq`.
#[inline]
pub fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal; otherwise empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.0[a as usize][b as usize])
}

/// The full line through `a` and `b` (edge to edge, both included) if they are aligned; otherwise empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.1[a as usize][b as usize])
}

/// Whether `c` lies on the line through `a` and `b`.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(sq: Square, occ: Bitboard, dirs: &[(i32, i32)]) -> Bitboard {
        let mut b = 0;
        for &(df, dr) in dirs {
            b |= slide_const(sq as i32, occ.0, df, dr);
        }
        Bitboard(b)
    }

    #[test]
    fn magics_match_ray_walk() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & x.rotate_left(17));
            let sq = Square::from_index((x >> 58) as u32);
            assert_eq!(rook_attacks(sq, occ), slow(sq, occ, &DIRECTIONS[..4]));
            assert_eq!(bishop_attacks(sq, occ), slow(sq, occ, &DIRECTIONS[4..]));
        }
    }

    #[test]
    fn rays() {
        assert_eq!(between(Square::A1, Square::D4), Bitboard::from_square(Square::B2) | Square::C3);
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::A1, Square::B1), Bitboard::rank(crate::types::Rank::First));
        assert!(aligned(Square::A1, Square::H8, Square::D4));
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(pawn_attacks(Color::Black, Square::E4), Bitboard::from_square(Square::D3) | Square::F3);
    }
}
