//! The orphan: it moves as the enemy pieces that observe it, through chains of orphans.

use mysl_core::attacks;
use mysl_core::{Bitboard, Color};

use crate::board::{berolina_capture_square, sq, Board, Move, Piece, Special, NO_EXTRA};
use crate::walk::{self, Kind, KindSet, Walk, KINDS, NUM_KINDS};

impl Board {
    /// Orphan: is the piece of colour `c` on `t` observed by an enemy piece of kind `x` (not an
    /// orphan), or by an enemy orphan that is itself observed that way, through a chain of
    /// orphans of alternating colours (each orphan attacking with the walk of `x`)? `chain`: the
    /// orphans already in the chain (Popeye's `orphan_find_observation_chain`, which replaces
    /// them by dummies: they still block lines but are no links).
    fn orphan_chain(&self, t: u8, x: Kind, c: Color, chain: Bitboard) -> bool {
        let enemy = !c;
        let px = Piece { color: enemy, kind: x };
        let mut it = self.kind_bb(enemy, x).into_iter();
        if Iterator::any(&mut it, |f| self.piece_attacks(f as u8, px, t)) {
            return true;
        }
        let chain = chain | Bitboard::from_square(sq(t));
        let orphans = self.kind_bb(enemy, walk::ORPHAN) & !chain;
        let mut it = orphans.into_iter();
        Iterator::any(&mut it, |o| self.piece_attacks(o as u8, px, t) && self.orphan_chain(o as u8, x, enemy, chain))
    }

    /// Orphan: the kinds (not orphans) on the board whose walk the orphan of colour `c` on `f`
    /// has now, as a bit set.
    fn orphan_walks(&self, f: u8, c: Color) -> KindSet {
        let mut set: KindSet = 0;
        for k in 0..NUM_KINDS as Kind {
            if k != walk::ORPHAN
                && (self.by_kind[0][k as usize].any() || self.by_kind[1][k as usize].any())
                && self.orphan_chain(f, k, c, Bitboard(0))
            {
                set |= 1 << k;
            }
        }
        set
    }

    /// Orphan: the squares the orphan of colour `c` on `f` attacks (own pieces included).
    pub(crate) fn orphan_targets(&self, f: u8, c: Color) -> Bitboard {
        let mut t = self.orphan_walks(f, c);
        let (from, occ) = (sq(f), self.occupied());
        let mut out = Bitboard(0);
        while t != 0 {
            let k = t.trailing_zeros() as Kind;
            t &= t - 1;
            out |= match KINDS[k as usize].walk {
                Walk::King => attacks::king_attacks(from),
                Walk::Queen => attacks::queen_attacks(from, occ),
                Walk::Rook => attacks::rook_attacks(from, occ),
                Walk::Bishop => attacks::bishop_attacks(from, occ),
                Walk::Knight => attacks::knight_attacks(from),
                Walk::Pawn => attacks::pawn_attacks(c, from),
                Walk::BerolinaPawn => {
                    berolina_capture_square(f, c).map_or(Bitboard(0), |t| Bitboard::from_square(sq(t)))
                }
                w => self.walk_targets(f, w),
            };
        }
        out
    }

    /// Orphan: the moves of the orphan of colour `us` on `f`: those of every walk it has now
    /// ([`Board::orphan_walks`]), each move once. With a pawn's walk it steps, double-steps from
    /// its second rank and captures like a pawn of its colour but does not promote; with a
    /// king's it does not castle.
    #[inline(never)]
    pub(crate) fn orphan_moves(&self, f: u8, us: Color, out: &mut Vec<Move>) {
        let start = out.len();
        let mut t = self.orphan_walks(f, us);
        let (from, occ) = (sq(f), self.occupied());
        let blocked = self.color_bb(us) | self.holes;
        while t != 0 {
            let k = t.trailing_zeros() as Kind;
            t &= t - 1;
            let targets = match KINDS[k as usize].walk {
                Walk::Pawn => {
                    self.borrowed_pawn_moves(f, us, self.color_bb(!us), occ, out);
                    continue;
                }
                Walk::Locust(v) => {
                    self.locust_moves(f, us, v, out);
                    continue;
                }
                Walk::King => attacks::king_attacks(from),
                Walk::Queen => attacks::queen_attacks(from, occ),
                Walk::Rook => attacks::rook_attacks(from, occ),
                Walk::Bishop => attacks::bishop_attacks(from, occ),
                Walk::Knight => attacks::knight_attacks(from),
                w => self.walk_targets(f, w),
            } & !blocked;
            for to in targets {
                out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
            }
        }
        // Each move once (Popeye's `remove_duplicate_moves_of_single_piece`).
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            if !out[start..w].contains(&m) {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }
}
