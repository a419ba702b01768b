//! Breton: after a capture, one of the mover's pieces of the captured kind is removed.

use crate::board::{sq, Board, Move, Special};

impl Board {
    /// Breton: each capture among `out[start..]` becomes one move per own piece of the captured
    /// kind that could be removed after it (the capturing piece as it stands after the move
    /// included); a capture with no such piece stays as it is.
    pub(crate) fn breton_choices(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let end = out.len();
        for i in start..end {
            let m = out[i];
            let victim = match m.special {
                Special::EnPassant { cap } | Special::Locust { cap } => self.squares[cap as usize],
                Special::Castle { .. } => None,
                _ => self.squares[m.to as usize],
            };
            let Some(victim) = victim else { continue };
            let mover = self.squares[m.from as usize].expect("moving piece");
            let placed = if let Special::Promote(k) = m.special { k } else { mover.kind };
            let mut cands = self.kind_bb(us, victim.kind);
            cands.clear(sq(m.from));
            if placed == victim.kind {
                cands.set(sq(m.to));
            }
            let mut first = true;
            for c in cands {
                let v = Move { extra: c as u8, ..m };
                if first {
                    out[i] = v;
                    first = false;
                } else {
                    out.push(v);
                }
            }
        }
    }
}
