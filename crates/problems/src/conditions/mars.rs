//! Mars Circe and Anti-Mars Circe: moves from the rebirth square.

use mysl_core::attacks;
use mysl_core::{Bitboard, Color};

use crate::board::{castle_bits, rebirth_square, sq, Board, Move, Piece, Special, NO_EXTRA};
use crate::walk::{self, Walk, KINDS};

/// Mars Circe and Anti-Mars Circe (Popeye's `conditions/marscirce`): a piece is first put on its
/// own Circe rebirth square ([`rebirth_square`] for its own colour; kings too, e1/e8), which
/// must be empty unless it is the piece's own square, and moves from there: under Mars Circe
/// its captures (and so its checks), under Anti-Mars Circe its non-captures (a move back to
/// its own square is no move). The other moves are plain. Nothing is reborn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mars {
    Off,
    /// `MarsCirce`: captures from the rebirth square.
    Mars,
    /// `AntiMarsCirce`: non-captures from the rebirth square.
    AntiMars,
}

impl Mars {
    /// Popeye's name of the condition.
    pub fn name(self) -> &'static str {
        match self {
            Mars::Off => "",
            Mars::Mars => "MarsCirce",
            Mars::AntiMars => "AntiMarsCirce",
        }
    }
}

impl Board {
    /// (Anti)Mars Circe: the pseudo-legal moves of the side to move. Each piece's moves of the
    /// rebirth kind (Mars: captures, Anti-Mars: non-captures) are generated with the piece put
    /// on its rebirth square (`Move::extra`, [`NO_EXTRA`] when that is its own square); the
    /// others from its square. Castling (a non-capture of the king) is plain under Mars Circe;
    /// under Anti-Mars Circe it is not generated (see docs/problems.md).
    #[inline(never)]
    pub(crate) fn mars_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let mut plain = Vec::new();
        // Moves from the pieces' own squares: the plain generator, less the kind of moves
        // made from the rebirth square.
        self.pseudo_moves_plain(&mut plain);
        let anti = self.mars == Mars::AntiMars;
        for m in plain {
            let capture = self.is_capture(m);
            if matches!(m.special, Special::Castle { .. }) {
                if !anti {
                    out.push(m);
                }
                continue;
            }
            // On its rebirth square a piece moves as usual; elsewhere only the moves of the
            // other kind (Mars: non-captures, Anti-Mars: captures) are made from its square.
            let r = rebirth_square(self.squares[m.from as usize].expect("mover"), m.from);
            if r == m.from || capture == anti {
                out.push(m);
            }
        }
        // Moves from the rebirth square.
        for from in self.color_bb(us) {
            let f = from as u8;
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            let r = rebirth_square(p, f);
            if r == f || self.squares[r as usize].is_some() {
                continue;
            }
            let mut b = self.clone();
            b.mars = Mars::Off;
            b.castling = 0;
            b.clear(f);
            b.put(r, p);
            let mut moves = Vec::new();
            b.pseudo_moves_plain(&mut moves);
            for m in moves {
                if m.from != r || m.to == f || b.is_capture(m) == anti {
                    continue;
                }
                out.push(Move { from: f, to: m.to, special: m.special, extra: r });
            }
        }
        if anti {
            self.antimars_castling_moves(out);
        }
    }

    /// Anti-Mars Circe castling (a non-capture, so from the rebirth squares): the king is put on
    /// e1/e8 (empty, or its own square) and a rook whose rebirth square is the corner (the rook
    /// on it, or one elsewhere with the corner empty) in that corner, then they castle as usual:
    /// the squares between them empty, the king on e1/e8 and the square it passes not attacked
    /// (attacks judged with both relocated). The castling right is the corner's (see
    /// [`antimars_castling`]).
    fn antimars_castling_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let Some(kd) = self.king_square(us) else { return };
        let king = Piece { color: us, kind: walk::KING };
        let base = if us == Color::White { 0u8 } else { 56 };
        let ke = base + 4;
        if kd != ke && self.squares[ke as usize].is_some() {
            return;
        }
        let rook = Piece { color: us, kind: walk::ROOK };
        // (corner, rook's arrival, king's arrival, squares to be empty, square passed)
        let sides = [
            (base + 7, base + 5, base + 6, [base + 5, base + 6, base + 6], base + 5),
            (base, base + 3, base + 2, [base + 1, base + 2, base + 3], base + 3),
        ];
        for (corner, rook_to, king_to, between, passed) in sides {
            if self.castling & castle_bits(corner) == 0 {
                continue;
            }
            for rd in self.kind_bb(us, walk::ROOK) {
                let rd = rd as u8;
                if rebirth_square(rook, rd) != corner || (rd != corner && self.squares[corner as usize].is_some()) {
                    continue;
                }
                let mut b = self.clone();
                b.mars = Mars::Off;
                b.clear(kd);
                b.clear(rd);
                b.put(ke, king);
                b.put(corner, rook);
                if between.iter().any(|&t| b.squares[t as usize].is_some())
                    || b.attacked(ke, !us)
                    || b.attacked(passed, !us)
                {
                    continue;
                }
                let extra = if kd == ke { NO_EXTRA } else { ke };
                out.push(Move { from: kd, to: king_to, special: Special::Castle { rook_from: rd, rook_to }, extra });
            }
        }
    }

    /// Mars Circe: does the piece `p` on `f` attack `s`? It captures from its rebirth square, which
    /// must be empty or its own square; its own square is empty meanwhile.
    pub(crate) fn mars_attacks(&self, f: u8, p: Piece, s: u8) -> bool {
        let r = rebirth_square(p, f);
        if r == f {
            return self.piece_attacks(f, p, s);
        }
        if self.squares[r as usize].is_some() || r == s {
            return false;
        }
        let occ = (self.occupied() & !Bitboard::from_square(sq(f))) | Bitboard::from_square(sq(r));
        let (from, t) = (sq(r), sq(s));
        match KINDS[p.kind as usize].walk {
            Walk::King => attacks::king_attacks(from).contains(t),
            Walk::Queen => attacks::queen_attacks(from, occ).contains(t),
            Walk::Rook => attacks::rook_attacks(from, occ).contains(t),
            Walk::Bishop => attacks::bishop_attacks(from, occ).contains(t),
            Walk::Knight => attacks::knight_attacks(from).contains(t),
            Walk::Pawn => attacks::pawn_attacks(p.color, from).contains(t),
            _ => {
                let mut b = self.clone();
                b.mars = Mars::Off;
                b.clear(f);
                b.put(r, p);
                b.piece_attacks(r, p, s)
            }
        }
    }
}

/// Anti-Mars Circe: the castling rights after the move `m` (rights `before` it): Popeye's king
/// flag does not count (a king castles from its rebirth square), a corner's right is lost when
/// a piece leaves or enters the corner, also on the way from its rebirth square, and when its
/// rook castles.
pub(crate) fn antimars_castling(before: u8, m: Move) -> u8 {
    let corner = |s: u8| if matches!(s, 0 | 7 | 56 | 63) { castle_bits(s) } else { 0 };
    let mut lost = corner(m.from) | corner(m.to);
    if m.extra != NO_EXTRA {
        lost |= corner(m.extra);
    }
    if let Special::Castle { rook_to, .. } = m.special {
        lost |= corner(if rook_to % 8 == 5 { rook_to + 2 } else { rook_to - 3 });
    }
    before & !lost
}
