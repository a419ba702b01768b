//! DangerCirce (Popeye's `conditions/danger_circe.c`): a piece observed by an enemy piece may
//! also move to its Circe rebirth square, as if it had been captured where it stands.

use mysl_core::Color;

use crate::board::{rebirth_square, Board, Move, Special, NO_EXTRA};

impl Board {
    /// DangerCirce: for each piece of the side to move that an enemy piece observes (plain
    /// attacks), the move to its plain Circe rebirth square (Popeye's
    /// `circe_regular_rebirth_square` with the opponent as capturer): a plain move if that square
    /// is empty, a capture if an enemy piece stands there. The piece's usual moves stay; a
    /// rebirth move equal to one of them (a rook a2 going to a1) is not added a second time.
    pub(crate) fn danger_circe_moves(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let end = out.len();
        for f in self.color_bb(us) {
            let f = f as u8;
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            let r = rebirth_square(p, f);
            if r == f {
                continue;
            }
            match self.squares[r as usize] {
                Some(q) if q.color == us => continue,
                _ => {}
            }
            if self.holes.any() && self.holes.contains(crate::board::sq(r)) {
                continue;
            }
            if !self.attacked(f, !us) {
                continue;
            }
            if out[start..end].iter().any(|m| m.from == f && m.to == r && m.special == Special::None) {
                continue;
            }
            out.push(Move { from: f, to: r, special: Special::None, extra: NO_EXTRA });
        }
    }

    /// DangerCirce: could a piece of `by` capture the king of `!by` on `k` by a rebirth move
    /// (Popeye tests checks by playing the moves, `solving_test_check_playing_moves`)?
    pub(crate) fn danger_circe_king_capture(&self, k: u8, by: Color) -> bool {
        Iterator::any(&mut self.color_bb(by).into_iter(), |f| {
            let f = f as u8;
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            rebirth_square(p, f) == k && self.attacked(f, !by)
        })
    }
}
