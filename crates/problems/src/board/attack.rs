//! Attacks and checks: is a square attacked, does a piece attack a square, is a king in check.
//! The conditions that change what an attack is are asked through their observation hook
//! (`Board::attacked_checked`) and legality hook (`Board::in_check_rare`), in `conditions/mod.rs`.

use mysl_core::attacks;
use mysl_core::Color;

use super::{sq, Board, Mars, Paralysis, Piece};
use crate::walk::{self, Walk, KINDS};

impl Board {
    /// Is square `s` attacked by a piece of colour `by`?
    pub fn attacked(&self, s: u8, by: Color) -> bool {
        // The plain flags or-ed without a branch each, the others tested one by one.
        if (self.bgl.on
            | self.transmuted_kings
            | self.annan
            | self.singlebox
            | self.back_home
            | self.cast_inverse
            | self.frankfurt)
            || self.paralysis != Paralysis::Off
            || self.bul.any()
            || self.anticirce.checks_by_capture()
            || self.mars == Mars::Mars
            || self.imitators.n > 0
        {
            return self.attacked_checked(s, by);
        }
        let t = sq(s);
        let occ = self.occupied();
        let k = &self.by_kind[by.index()];
        if (attacks::knight_attacks(t) & k[walk::KNIGHT as usize]).any() {
            return true;
        }
        if (attacks::king_attacks(t) & k[walk::KING as usize]).any() {
            return true;
        }
        if (attacks::pawn_attacks(!by, t) & k[walk::PAWN as usize]).any() {
            return true;
        }
        let q = k[walk::QUEEN as usize];
        if (attacks::rook_attacks(t, occ) & (k[walk::ROOK as usize] | q)).any() {
            return true;
        }
        if (attacks::bishop_attacks(t, occ) & (k[walk::BISHOP as usize] | q)).any() {
            return true;
        }
        self.fairy[by.index()].any() && self.fairy_attacked(s, by)
    }

    /// Does the piece on `f` attack square `s` by its walk (geometry only)?
    pub(crate) fn piece_attacks(&self, f: u8, p: Piece, s: u8) -> bool {
        let (from, t, occ) = (sq(f), sq(s), self.occupied());
        match KINDS[p.kind as usize].walk {
            Walk::King => attacks::king_attacks(from).contains(t),
            Walk::Queen => attacks::queen_attacks(from, occ).contains(t),
            Walk::Rook => attacks::rook_attacks(from, occ).contains(t),
            Walk::Bishop => attacks::bishop_attacks(from, occ).contains(t),
            Walk::Knight => attacks::knight_attacks(from).contains(t),
            Walk::Pawn => attacks::pawn_attacks(p.color, from).contains(t),
            _ => self.fairy_targets(f, p.kind, p.color).contains(t),
        }
    }

    /// Is the king of colour `c` in check? (No king: never.) Under Isardam a position with a
    /// Madrasi observation counts as "in check" for both sides: no legal move leads to one, so
    /// the legality test after a move ("is my king attacked") rejects such moves.
    ///
    /// ChecklessChess: for the side that has just moved (`c` is not the side to move), "in check"
    /// means "the move just played is illegal": its own king is attacked, or it checks the other
    /// king without mating it (the side to move has a legal reply, judged by the same rule).
    /// That is the legality test every caller makes after a move (Popeye's `pos_legal` for
    /// `ohneschach`); for the side to move it is the plain check.
    pub fn in_check(&self, c: Color) -> bool {
        if self.neutral.any() {
            return self.neutral_in_check(c);
        }
        self.in_check_base(c)
    }

    /// [`Board::in_check`] with neutral pieces as they are coloured at the time.
    pub(crate) fn in_check_base(&self, c: Color) -> bool {
        // One test for the rare rules (orthodox solving asks this after every move).
        if (self.pepo | self.circe_rex | self.checkless | self.danger_circe) || self.paralysis == Paralysis::Isardam {
            return self.in_check_rare(c);
        }
        match self.king_square(c) {
            Some(k) => self.attacked(k, !c),
            None => false,
        }
    }
}
