//! SingleBox Type1: no more pieces of an orthodox kind than the game array has.

use mysl_core::Color;

use crate::board::{Board, Move, Special};
use crate::walk::{self, Kind};

impl Board {
    /// SingleBox Type1: may a piece of colour `c` become one of kind `k` (fewer of that orthodox
    /// kind on the board than in the game array, or a fairy kind)?
    pub fn singlebox_allows(&self, c: Color, k: Kind) -> bool {
        self.kind_bb(c, k).count() < singlebox_max(k)
    }

    /// SingleBox Type1: drops the promotions of `out[start..]` to kinds the side has all of.
    #[inline(never)]
    pub(crate) fn singlebox_filter(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            let ok = match m.special {
                Special::Promote(k)
                | Special::HurdlePromote(k)
                | Special::RebirthPromote(k)
                | Special::EnPassantRebirthPromote { kind: k, .. } => self.singlebox_allows(us, k),
                _ => true,
            };
            if ok {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }
}

/// SingleBox: how many pieces of kind `k` a side has in the game array (1 K, 1 Q, 2 R, 2 B,
/// 2 S, 8 P); fairy kinds are not limited.
pub fn singlebox_max(k: Kind) -> u32 {
    match k {
        walk::KING | walk::QUEEN => 1,
        walk::ROOK | walk::BISHOP | walk::KNIGHT => 2,
        walk::PAWN => 8,
        _ => u32::MAX,
    }
}
