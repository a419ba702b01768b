//! The Zobrist key of a position: pieces, side to move, castling rights, en-passant square, and
//! the state of the conditions that have one.

use super::{Board, Piece};
use crate::walk::NUM_KINDS;
use mysl_core::Color;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const ZOBRIST_PIECES: usize = 2 * NUM_KINDS * 64;
static ZOBRIST: [u64; ZOBRIST_PIECES + 64 + 64 + 1] = {
    let mut t = [0u64; ZOBRIST_PIECES + 64 + 64 + 1];
    let mut i = 0;
    while i < t.len() {
        t[i] = splitmix(0x6d79_736c_5f70_726f ^ (i as u64).wrapping_mul(0x1000_0000_01b3));
        i += 1;
    }
    t
};

#[inline(always)]
pub(crate) fn z_piece(p: Piece, sq: u8) -> u64 {
    ZOBRIST[(p.color.index() * NUM_KINDS + p.kind as usize) * 64 + sq as usize]
}
#[inline(always)]
fn z_castle(c: u8) -> u64 {
    ZOBRIST[ZOBRIST_PIECES + c as usize]
}
#[inline(always)]
fn z_ep(sq: u8) -> u64 {
    ZOBRIST[ZOBRIST_PIECES + 64 + sq as usize]
}
const Z_SIDE: usize = ZOBRIST_PIECES + 64 + 64;

impl Board {
    /// The Zobrist key (pieces, side to move, castling rights, en-passant square; BGL budgets).
    pub fn key(&self) -> u64 {
        let k = self.key
            ^ z_castle(self.castling)
            ^ self.ep.map_or(0, |(t, _)| z_ep(t))
            ^ if self.side == Color::Black { ZOBRIST[Z_SIDE] } else { 0 };
        if self.ext_active() {
            k ^ self.ext_key()
        } else {
            k
        }
    }

    /// The key of the conditions' state: BGL budgets, the last departure square
    /// (ChameleonPursuit), Bul pieces, ghosts and uncapturable pieces.
    #[inline(never)]
    fn ext_key(&self) -> u64 {
        let mut k = 0;
        if self.bgl.on {
            k ^= splitmix(((self.bgl.left[0] as u32 as u64) << 32) | self.bgl.left[1] as u32 as u64);
        }
        if self.chameleon_pursuit {
            k ^= splitmix(0x6370_0000 ^ self.last_from as u64);
        }
        if self.bul.any() {
            k ^= splitmix(self.bul.0 ^ 0x6275_6c00_0000_0000);
            k ^= splitmix(self.dob.0 ^ 0x646f_6200_0000_0000);
        }
        if self.neutral.any() {
            k ^= splitmix(self.neutral.0 ^ 0x6e65_7500_0000_0000);
        }
        if let Some((cs, p)) = self.parrain_pending {
            k ^= splitmix(0x7061_7200_0000_0000 ^ z_piece(p, cs));
        }
        if self.imitators.n > 0 {
            k ^= splitmix(self.imitators.bitboard().0 ^ 0x696d_6900_0000_0000);
        }
        if self.frankfurt {
            k ^= splitmix(0x6672_0000_0000_0000 ^ ((self.royal_walk[0] as u64) << 8) ^ self.royal_walk[1] as u64);
        }
        if let Some((f, t)) = self.all_in_forbidden {
            k ^= splitmix(0x6169_6300_0000_0000 ^ ((f as u64) << 8) ^ t as u64);
        }
        if self.exchange_castling {
            k ^= splitmix(0x6578_6300_0000_0000 ^ self.exchange_used as u64);
        }
        if self.back_home {
            for s in self.occupied() {
                k ^= splitmix(0x6268_0000 ^ ((s as u64) << 8) ^ self.home[s as usize] as u64);
            }
        }
        if self.ghost_chess {
            k ^= splitmix(self.uncapturable.0 ^ 0x7563_0000_0000_0000);
            for (i, &(g, p)) in self.ghosts[..self.n_ghosts as usize].iter().enumerate() {
                k ^= splitmix(z_piece(p, g).rotate_left(i as u32 + 1));
            }
        }
        k
    }
}
