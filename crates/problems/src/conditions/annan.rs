//! AnnanChess: a piece moves with the walk of its own piece directly behind it.

use mysl_core::attacks;
use mysl_core::{Bitboard, Color};

use crate::board::{sq, Board, Move, Piece, Special, NO_EXTRA};
use crate::walk::{self, Kind, Walk, KINDS};

impl Board {
    /// AnnanChess: the piece whose walk the piece `p` on `f` moves with: the piece of its colour
    /// directly behind it (on `f - 8` for White, `f + 8` for Black; Popeye's `annanises`, type A:
    /// any piece, kings included), else `p` itself. Only the kind counts; the colour is `p`'s.
    #[inline]
    pub fn annan_walker(&self, f: u8, p: Piece) -> Piece {
        let rear = if p.color == Color::White { f.checked_sub(8) } else { Some(f + 8).filter(|&r| r < 64) };
        match rear.and_then(|r| self.squares[r as usize]) {
            Some(q) if q.color == p.color => Piece { color: p.color, kind: q.kind },
            _ => p,
        }
    }

    /// AnnanChess: the moves of the piece `p` on `f` with the walk of kind `kind` (its
    /// annaniser's, another kind than its own). A pawn that arrives on its last rank this way
    /// promotes (Popeye promotes a pawn that stands on its promotion square, whatever walk took
    /// it there); a pawn may land on its own first rank, where it has no moves of its own. Another
    /// piece moving with a pawn walk steps, double-steps from its second rank, captures
    /// diagonally and takes en passant like a pawn, but never promotes and its double step gives
    /// no en-passant right (only a pawn's does).
    #[inline(never)]
    pub(crate) fn annan_moves(&self, f: u8, p: Piece, kind: Kind, occ: Bitboard, out: &mut Vec<Move>) {
        let us = p.color;
        let theirs = self.color_bb(!us);
        if kind == walk::PAWN {
            self.borrowed_pawn_moves(f, us, theirs, occ, out);
            return;
        }
        let from = sq(f);
        let targets = match KINDS[kind as usize].walk {
            Walk::King => attacks::king_attacks(from),
            Walk::Queen => attacks::queen_attacks(from, occ),
            Walk::Rook => attacks::rook_attacks(from, occ),
            Walk::Bishop => attacks::bishop_attacks(from, occ),
            Walk::Knight => attacks::knight_attacks(from),
            _ => self.fairy_targets(f, kind, us),
        } & !(self.color_bb(us) | self.holes);
        let last = if us == Color::White { 7 } else { 0 };
        for to in targets {
            let to = to as u8;
            if p.kind == walk::PAWN && to / 8 == last {
                let mut kinds = self.promotion_fairies;
                for k in walk::PROMOTIONS {
                    out.push(Move { from: f, to, special: Special::Promote(k), extra: NO_EXTRA });
                }
                while kinds != 0 {
                    let k = kinds.trailing_zeros() as Kind;
                    kinds &= kinds - 1;
                    out.push(Move { from: f, to, special: Special::Promote(k), extra: NO_EXTRA });
                }
            } else {
                out.push(Move { from: f, to, special: Special::None, extra: NO_EXTRA });
            }
        }
    }
}
