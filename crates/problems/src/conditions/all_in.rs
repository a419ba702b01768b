//! AllInChess (Popeye's `conditions/all_in_chess.c`): either side may move the pieces of both
//! colours; a move may not undo the one just played.

use crate::board::{Board, Move, Special};
use crate::walk;

impl Board {
    /// AllInChess: the moves of the other side's pieces, each by its own colour's rules (a black
    /// pawn moved by White still goes down and takes white pieces, but no piece takes the
    /// mover's king), appended to `out`; then the
    /// move that would undo the last one (Popeye's `all_in_chess_undo_move_avoider_solve`) is
    /// removed from `out[start..]`.
    pub(crate) fn all_in_chess_moves(&self, start: usize, out: &mut Vec<Move>) {
        let them = !self.side;
        let own = self.color_bb(them);
        let theirs = self.color_bb(self.side);
        let occ = own | theirs | self.holes;
        // No move takes a king (the mover's own king among the pieces these moves would take).
        let king = self.kind_bb(self.side, walk::KING);
        let blocked = own | self.holes | king;
        let theirs = theirs & !king;
        for from in own {
            self.piece_moves_plain(from, them, theirs, occ, blocked, out);
        }
        if let Some((f, t)) = self.all_in_forbidden {
            out.retain_from(start, |m| !(m.from == f && m.to == t && m.special == Special::None));
        }
    }

    /// AllInChess: after the move `m` (`captured`: whether it took a piece), the move that would
    /// undo it: the same piece back from `m.to` to `m.from`, unless `m` captured or promoted, or
    /// the move before `m` was a pawn's double step (then the position would not repeat: the
    /// en-passant right differs, Popeye's `en_passant_modified_since_last_move_of_same_side`).
    pub(crate) fn all_in_chess_after(&mut self, m: Move, captured: bool) {
        let undoable = !captured && !matches!(m.special, Special::Promote(_)) && !self.all_in_last_double;
        self.all_in_forbidden = undoable.then_some((m.to, m.from));
        self.all_in_last_double = m.special == Special::Double;
    }
}

/// `Vec::retain` on the elements from `start` on.
trait RetainFrom<T> {
    fn retain_from(&mut self, start: usize, keep: impl FnMut(&T) -> bool);
}

impl<T: Copy> RetainFrom<T> for Vec<T> {
    fn retain_from(&mut self, start: usize, mut keep: impl FnMut(&T) -> bool) {
        let mut w = start;
        for i in start..self.len() {
            let x = self[i];
            if keep(&x) {
                self[w] = x;
                w += 1;
            }
        }
        self.truncate(w);
    }
}
