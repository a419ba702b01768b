//! The orthodox shortcuts of the search: a cheap superset test of checking moves
//! ([`Board::could_check`], [`Board::could_check_with`]), generation of only the moves that may
//! check ([`Board::checking_candidates`]), and the squares whose moves need the full legality test
//! ([`Board::needs_legality_test`]). Any condition that changes attacks turns them off
//! ([`Board::attack_conditions`]).

use mysl_core::attacks;
use mysl_core::Bitboard;

use super::{sq, Board, Circe, Move, Special, NO_EXTRA};
use crate::walk::{self, Walk, KINDS};

impl Board {
    /// A cheap superset test: could move `m` of the side to move give check to the enemy king on
    /// `ksq` (direct or discovered)? `false` means it certainly does not.
    pub fn could_check(&self, m: Move, ksq: u8) -> bool {
        let us = self.side;
        let Some(p) = self.piece_at(m.from) else { return true };
        // Our fairy pieces: any move may add or remove a hurdle or open a rider's line. Madrasi:
        // a move may free a paralysed piece. Breton: a removal may uncover a line.
        if self.has_fairy(us) || self.move_shortcuts_off() {
            return true;
        }
        let kind = match m.special {
            Special::None | Special::Double => p.kind,
            Special::Promote(k) => k,
            _ => return true,
        };
        let occ = (self.occupied() & !Bitboard::from_square(sq(m.from))) | Bitboard::from_square(sq(m.to));
        let k = sq(ksq);
        let t = sq(m.to);
        let direct = match KINDS[kind as usize].walk {
            Walk::King => false,
            Walk::Queen => attacks::queen_attacks(t, occ).contains(k),
            Walk::Rook => attacks::rook_attacks(t, occ).contains(k),
            Walk::Bishop => attacks::bishop_attacks(t, occ).contains(k),
            Walk::Knight => attacks::knight_attacks(t).contains(k),
            Walk::Pawn => attacks::pawn_attacks(us, t).contains(k),
            // A promotion to a fairy kind (the board has none of ours yet).
            _ => return true,
        };
        if direct {
            return true;
        }
        // Discovered: the mover stood between the king and one of our line pieces.
        let q = self.kind_bb(us, walk::QUEEN);
        let rooks = self.kind_bb(us, walk::ROOK) | q;
        let bishops = self.kind_bb(us, walk::BISHOP) | q;
        let f = sq(m.from);
        let (kf, kr) = (ksq % 8, ksq / 8);
        let (ff, fr) = (m.from % 8, m.from / 8);
        let sliders = if kf == ff || kr == fr {
            rooks
        } else if (kf as i8 - ff as i8).abs() == (kr as i8 - fr as i8).abs() {
            bishops
        } else {
            return false;
        };
        for s in sliders {
            if attacks::between(k, s).contains(f) {
                return true;
            }
        }
        false
    }

    /// Squares of the side to move's pieces whose moves need the full legality test ("make, is my
    /// king attacked"): its king and its pinned pieces. Any other move, except en passant and
    /// castling, is legal without the test when the side is not in check, in orthodox play.
    /// `None` (test every move): in check, no king, enemy fairy pieces, Circe (a rebirth may
    /// check), Madrasi or Isardam.
    pub fn needs_legality_test(&self) -> Option<Bitboard> {
        let us = self.side;
        if self.circe != Circe::Off || self.move_shortcuts_off() || self.has_fairy(!us) {
            return None;
        }
        let ksq = self.king_square(us)?;
        if self.attacked(ksq, !us) {
            return None;
        }
        let k = sq(ksq);
        let occ = self.occupied();
        let q = self.kind_bb(!us, walk::QUEEN);
        let lines = (attacks::rook_attacks(k, Bitboard(0)) & (self.kind_bb(!us, walk::ROOK) | q))
            | (attacks::bishop_attacks(k, Bitboard(0)) & (self.kind_bb(!us, walk::BISHOP) | q));
        let mut mask = Bitboard::from_square(k);
        for s in lines {
            let b = attacks::between(k, s) & occ;
            if b.count() == 1 {
                mask |= b & self.color_bb(us);
            }
        }
        Some(mask)
    }

    /// Orthodox rules on this board: orthodox pieces only (no neutral, Bul or Dob pieces, royal
    /// kings that walk as kings), no holes, and no condition (SingleBox included) that changes
    /// what attacks, what a move does or which moves are allowed. The in-check shortcut
    /// ([`Board::evasion_targets`]) holds only then.
    #[inline]
    pub(crate) fn orthodox_rules(&self) -> bool {
        !(self.attack_conditions()
            | self.ext_active()
            | self.danger_circe
            | self.bicaptures
            | self.cast_inverse
            | self.circe_rex
            | self.restricts_moves()
            | self.singlebox
            | self.has_fairy(mysl_core::Color::White)
            | self.has_fairy(mysl_core::Color::Black))
            && self.circe == Circe::Off
            && self.mars == super::Mars::Off
            && (self.holes | self.neutral | self.bul | self.dob).is_empty()
            && self.royal_walk == [walk::KING; 2]
    }

    /// The side to move is in check under orthodox rules ([`Board::orthodox_rules`]): the squares
    /// on which a move of a piece other than the king, other than en passant, must land to be
    /// legal: the single checker's square and the squares between it and the king (none in
    /// double check). Such a move changes the occupancy of its two squares only, so elsewhere
    /// the check stays. `None`: not in check, no king, or other rules.
    pub fn evasion_targets(&self) -> Option<Bitboard> {
        if !self.orthodox_rules() {
            return None;
        }
        let us = self.side;
        let them = !us;
        let k = sq(self.king_square(us)?);
        let occ = self.occupied();
        let q = self.kind_bb(them, walk::QUEEN);
        let checkers = (attacks::knight_attacks(k) & self.kind_bb(them, walk::KNIGHT))
            | (attacks::pawn_attacks(us, k) & self.kind_bb(them, walk::PAWN))
            | (attacks::bishop_attacks(k, occ) & (self.kind_bb(them, walk::BISHOP) | q))
            | (attacks::rook_attacks(k, occ) & (self.kind_bb(them, walk::ROOK) | q));
        match checkers.count() {
            0 => None,
            1 => Some(checkers | attacks::between(k, checkers.lsb())),
            _ => Some(Bitboard(0)),
        }
    }

    /// With the mask of [`Board::needs_legality_test`]: must move `m` be tested?
    #[inline(always)]
    pub fn must_test(mask: Option<Bitboard>, m: Move) -> bool {
        match mask {
            None => true,
            Some(b) => {
                b.contains(sq(m.from))
                    || matches!(
                        m.special,
                        Special::EnPassant { .. }
                            | Special::Castle { .. }
                            | Special::Locust { .. }
                            | Special::TakeMakePromote { .. }
                    )
            }
        }
    }

    /// What [`Board::could_check_with`] needs to answer `could_check` for many moves of the side
    /// to move against the enemy king on `ksq` with a few mask tests.
    pub fn check_info(&self, ksq: u8) -> CheckInfo {
        let us = self.side;
        let k = sq(ksq);
        let occ = self.occupied();
        let rook_k = attacks::rook_attacks(k, occ);
        let bishop_k = attacks::bishop_attacks(k, occ);
        // Our pieces that alone stand between the king and one of our line pieces.
        let mut discoverers = Bitboard(0);
        let q = self.kind_bb(us, walk::QUEEN);
        let lines = (attacks::rook_attacks(k, Bitboard(0)) & (self.kind_bb(us, walk::ROOK) | q))
            | (attacks::bishop_attacks(k, Bitboard(0)) & (self.kind_bb(us, walk::BISHOP) | q));
        for s in lines {
            let b = attacks::between(k, s) & occ;
            if b.count() == 1 {
                discoverers |= b & self.color_bb(us);
            }
        }
        CheckInfo {
            ksq,
            all: self.has_fairy(us) || self.move_shortcuts_off(),
            visible: rook_k | bishop_k,
            discoverers,
            rook: rook_k,
            bishop: bishop_k,
            knight: attacks::knight_attacks(k),
            pawn: attacks::pawn_attacks(!us, k),
        }
    }

    /// `could_check(m, ci.ksq)` with the masks of [`Board::check_info`] (same answers where the
    /// moving piece is not seen from the king along a line; those moves take the general test).
    #[inline]
    pub fn could_check_with(&self, ci: &CheckInfo, m: Move) -> bool {
        if ci.all || ci.discoverers.contains(sq(m.from)) {
            return true;
        }
        if ci.visible.contains(sq(m.from)) {
            // Leaving `from` may open the mover's own line to the king.
            return self.could_check(m, ci.ksq);
        }
        let Some(p) = self.piece_at(m.from) else { return true };
        let kind = match m.special {
            Special::None | Special::Double => p.kind,
            Special::Promote(k) => k,
            _ => return true,
        };
        let t = sq(m.to);
        // `from` is not seen from the king, so moving it changes no line from the king except by
        // the piece now on `to`, which is itself still seen.
        match KINDS[kind as usize].walk {
            Walk::King => false,
            Walk::Queen => (ci.rook | ci.bishop).contains(t),
            Walk::Rook => ci.rook.contains(t),
            Walk::Bishop => ci.bishop.contains(t),
            Walk::Knight => ci.knight.contains(t),
            Walk::Pawn => ci.pawn.contains(t),
            _ => true,
        }
    }

    /// The pseudo-legal moves of the side to move for which `could_check_with(ci, m)` holds (the
    /// same set, without generating the others for pieces not seen from the king).
    pub fn checking_candidates(&self, ci: &CheckInfo, out: &mut Vec<Move>) {
        if ci.all {
            self.pseudo_moves(out);
            return;
        }
        let us = self.side;
        let own = self.color_bb(us);
        let theirs = self.color_bb(!us);
        // Holes block lines and are no targets.
        let occ = own | theirs | self.holes;
        let blocked = own | self.holes;
        for from in own {
            let f = from as u8;
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            let general = ci.visible.contains(from) || ci.discoverers.contains(from);
            let targets = match KINDS[p.kind as usize].walk {
                Walk::King if general => attacks::king_attacks(from),
                Walk::King => continue,
                Walk::Queen => attacks::queen_attacks(from, occ),
                Walk::Rook => attacks::rook_attacks(from, occ),
                Walk::Bishop => attacks::bishop_attacks(from, occ),
                Walk::Knight => attacks::knight_attacks(from),
                _ => {
                    let n = out.len();
                    self.pawn_moves(f, us, theirs, occ, out);
                    if !general {
                        let mut w = n;
                        for i in n..out.len() {
                            if self.could_check_with(ci, out[i]) {
                                out[w] = out[i];
                                w += 1;
                            }
                        }
                        out.truncate(w);
                    }
                    continue;
                }
            } & !blocked;
            let mask = if general {
                Bitboard(!0)
            } else {
                match KINDS[p.kind as usize].walk {
                    Walk::Queen => ci.rook | ci.bishop,
                    Walk::Rook => ci.rook,
                    Walk::Bishop => ci.bishop,
                    _ => ci.knight,
                }
            };
            for to in targets & mask {
                out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
            }
        }
        self.castling_moves(out);
        if self.bicaptures {
            // BiCaptures: the captures of own pieces that may check.
            let n = out.len();
            self.bicaptures_moves(out);
            let mut w = n;
            for i in n..out.len() {
                if self.could_check_with(ci, out[i]) {
                    out[w] = out[i];
                    w += 1;
                }
            }
            out.truncate(w);
        }
    }
}

/// Masks for testing many moves of one position with [`Board::could_check_with`].
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    ksq: u8,
    /// Every move may check (fairy pieces of the mover, Madrasi/Isardam).
    all: bool,
    /// Squares seen from the king along rook and bishop lines (first piece included).
    visible: Bitboard,
    /// The mover's pieces whose leaving would uncover one of its line pieces on the king.
    discoverers: Bitboard,
    rook: Bitboard,
    bishop: Bitboard,
    knight: Bitboard,
    pawn: Bitboard,
}
