//! WhiteMaximummer / BlackMaximummer: only the longest legal moves.

use crate::board::{Board, Move};

impl Board {
    /// Maximummer: of the moves `out[start..]`, only the legal ones of the greatest length stay.
    #[inline(never)]
    pub(crate) fn longest_legal_only(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let mut b = self.clone();
        let length = |m: &Move| {
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
