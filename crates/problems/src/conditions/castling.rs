//! Castling conditions: CastlingChess and ExchangeCastling.

use crate::board::{offset, sq, Board, Move, Special, NO_EXTRA};
use crate::walk;

impl Board {
    /// CastlingChess (Popeye's `castlingchess_generate_moves_for_piece`): the side to move's
    /// king, not in check, castles in each of the eight directions with the first piece on that
    /// line (either colour, any kind), provided the two squares next to the king that way are
    /// empty and the first of them (the square passed, where the partner lands) is not attacked.
    /// The king lands two squares away. Popeye tests the square passed with the king moved
    /// there (the partner still in place); only orthodox pieces are supported with the
    /// condition, and then that is the plain attack test with the king still home: an attack on
    /// the square passed through the king's square would be a line through the king, which is
    /// not in check.
    pub(crate) fn castling_chess_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let Some(k) = self.king_square(us) else { return };
        if self.attacked(k, !us) {
            return;
        }
        let occ = self.occupied();
        const DIRS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
        for d in DIRS {
            let Some(passed) = offset(k, d) else { continue };
            if occ.contains(sq(passed)) {
                continue;
            }
            let Some(arrival) = offset(passed, d) else { continue };
            if occ.contains(sq(arrival)) {
                continue;
            }
            let mut s = arrival;
            let partner = loop {
                match offset(s, d) {
                    None => break None,
                    Some(t) if occ.contains(sq(t)) => break Some(t),
                    Some(t) => s = t,
                }
            };
            let Some(partner) = partner else { continue };
            if self.attacked(passed, !us) {
                continue;
            }
            out.push(Move {
                from: k,
                to: arrival,
                special: Special::Castle { rook_from: partner, rook_to: passed },
                extra: NO_EXTRA,
            });
        }
    }

    /// ExchangeCastling (Popeye's `exchange_castling_generate_moves_for_piece`): while the side
    /// to move has not exchanged yet, its king exchanges places with any of its own pieces other
    /// than a pawn (squares a1..h8); being in check does not matter.
    pub(crate) fn exchange_castling_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        if self.exchange_used & (1 << us.index()) != 0 {
            return;
        }
        let Some(k) = self.king_square(us) else { return };
        for s in self.color_bb(us) {
            let s = s as u8;
            let p = self.squares[s as usize].expect("bitboard and mailbox agree");
            if s == k || p.kind == walk::PAWN {
                continue;
            }
            out.push(Move { from: k, to: s, special: Special::Castle { rook_from: s, rook_to: k }, extra: NO_EXTRA });
        }
    }
}
