//! WhiteMaximummer / BlackMaximummer: only the longest legal moves.

use crate::board::{Board, Move, Special};
use crate::walk::{Walk, KINDS};

impl Board {
    /// Maximummer: of the moves `out[start..]`, only the legal ones of the greatest length stay.
    #[inline(never)]
    pub(crate) fn longest_legal_only(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let mut b = self.clone();
        // Popeye's measure (`len_max`): the squared distance, but castling counts 16 (king side) or
        // 25 (queen side) and a mao's or moa's step 6.
        let length = |m: &Move| {
            if let Special::Castle { rook_from, .. } = m.special {
                return if rook_from % 8 > m.from % 8 { 16 } else { 25 };
            }
            let xiangqi = self.squares[m.from as usize]
                .is_some_and(|p| matches!(KINDS[p.kind as usize].walk, Walk::Xiangqi { rider: false, .. }));
            if xiangqi {
                return 6;
            }
            let (df, dr) = ((m.to % 8) as i32 - (m.from % 8) as i32, (m.to / 8) as i32 - (m.from / 8) as i32);
            df * df + dr * dr
        };
        let mut best = -1;
        let mut kept = start;
        for i in start..out.len() {
            let m = out[i];
            let len = length(&m);
            if len < best {
                continue;
            }
            let u = b.make(m);
            let legal = !b.in_check(us);
            b.unmake(m, u);
            if !legal {
                continue;
            }
            if len > best {
                best = len;
                kept = start;
            }
            out[kept] = m;
            kept += 1;
        }
        out.truncate(kept);
    }
}
