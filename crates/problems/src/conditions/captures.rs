//! Conditions on what a piece may capture: BiCaptures (Popeye's `conditions/bicaptures.c`) and
//! CASTInverse (`conditions/castinverse.c`).

use mysl_core::attacks;
use mysl_core::Color;

use crate::board::{sq, Board, Move, Special, NO_EXTRA};
use crate::walk::{self, Walk, KINDS};

/// The squares an orthodox king, queen, rook, bishop or knight on `from` reaches over `occ`;
/// `None` for the other walks (pawns, fairy pieces).
fn piece_reach(walk: Walk, from: mysl_core::Square, occ: mysl_core::Bitboard) -> Option<mysl_core::Bitboard> {
    Some(match walk {
        Walk::King => attacks::king_attacks(from),
        Walk::Queen => attacks::queen_attacks(from, occ),
        Walk::Rook => attacks::rook_attacks(from, occ),
        Walk::Bishop => attacks::bishop_attacks(from, occ),
        Walk::Knight => attacks::knight_attacks(from),
        _ => return None,
    })
}

impl Board {
    /// BiCaptures: the side to move's pieces also capture its own pieces other than the king
    /// (Popeye recolours the mover's pieces to both colours while it generates the moves, and
    /// never lets a move capture a king). Orthodox walks only: their captures of own pieces are
    /// appended to `out` (a pawn's diagonally forward, promoting on its last rank).
    pub(crate) fn bicaptures_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let own = self.color_bb(us);
        let targets_own = own & !self.kind_bb(us, walk::KING);
        if !targets_own.any() {
            return;
        }
        let occ = self.occupied();
        let last = if us == Color::White { 7 } else { 0 };
        let first = if us == Color::White { 0 } else { 7 };
        for from in own {
            let f = from as u8;
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            let walk = KINDS[p.kind as usize].walk;
            let targets = match walk {
                _ if let Some(b) = piece_reach(walk, from, occ) => b,
                Walk::Pawn => {
                    if f / 8 == last || f / 8 == first {
                        continue;
                    }
                    for to in attacks::pawn_attacks(us, from) & targets_own {
                        self.push_pawn_move(f, to as u8, last, Special::None, out);
                    }
                    continue;
                }
                // (lib.rs refuses fairy pieces with the condition.)
                _ => continue,
            } & targets_own;
            for to in targets {
                out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
            }
        }
    }

    /// CASTInverse: a piece captures only if it has at least two captures (Popeye's
    /// `cast_inverse_single_captures_remover_solve`: after generation, the captures of a piece
    /// with a single one are removed). Captures are counted by their capture squares (a pawn's
    /// promotions on one square are one capture, as in Popeye's move list).
    pub(crate) fn cast_inverse_filter(&self, start: usize, out: &mut Vec<Move>) {
        let capture_square = |m: &Move| match m.special {
            Special::EnPassant { cap } => Some(cap),
            Special::Castle { .. } => None,
            _ => self.squares[m.to as usize].is_some().then_some(m.to),
        };
        // Per departure square: its first capture square, and whether it has another one.
        let mut first = [NO_EXTRA; 64];
        let mut several = 0u64;
        for m in &out[start..] {
            if let Some(c) = capture_square(m) {
                let f = m.from as usize;
                if first[f] == NO_EXTRA {
                    first[f] = c;
                } else if first[f] != c {
                    several |= 1 << f;
                }
            }
        }
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            if capture_square(&m).is_some() && several & (1 << m.from) == 0 {
                continue;
            }
            out[w] = m;
            w += 1;
        }
        out.truncate(w);
    }

    /// CASTInverse: how many pieces could the piece of `by` on `f` capture (orthodox walks; en
    /// passant included), at most two? An observation by it is valid only with two or more
    /// (Popeye's `cast_inverse_remove_illegal_captures_solve`).
    pub(crate) fn cast_inverse_captures(&self, f: u8, by: Color) -> u32 {
        let p = self.squares[f as usize].expect("a piece on f");
        let from = sq(f);
        let theirs = self.color_bb(!by);
        let occ = self.occupied();
        let walk = KINDS[p.kind as usize].walk;
        let targets = match walk {
            _ if let Some(b) = piece_reach(walk, from, occ) => b,
            Walk::Pawn => {
                let rank = f / 8;
                let (first, last) = if by == Color::White { (0, 7) } else { (7, 0) };
                if rank == first || rank == last {
                    return 0;
                }
                let mut n = (attacks::pawn_attacks(by, from) & theirs).count();
                if let Some((ep_to, cap)) = self.ep {
                    if self.side == by
                        && attacks::pawn_attacks(by, from).contains(sq(ep_to))
                        && self.ep_victim(cap, by)
                        && !occ.contains(sq(ep_to))
                    {
                        n += 1;
                    }
                }
                return n.min(2);
            }
            _ => return 0,
        } & theirs;
        targets.count().min(2)
    }

    /// CASTInverse: is `s` attacked by a piece of `by` that has two or more captures? (The
    /// attackers by the orthodox walks, then each one's captures counted.)
    pub(crate) fn cast_inverse_attacked(&self, s: u8, by: Color) -> bool {
        let t = sq(s);
        let occ = self.occupied();
        let k = |kind| self.kind_bb(by, kind);
        let q = k(walk::QUEEN);
        let attackers = (attacks::knight_attacks(t) & k(walk::KNIGHT))
            | (attacks::king_attacks(t) & k(walk::KING))
            | (attacks::pawn_attacks(!by, t) & k(walk::PAWN))
            | (attacks::rook_attacks(t, occ) & (k(walk::ROOK) | q))
            | (attacks::bishop_attacks(t, occ) & (k(walk::BISHOP) | q));
        Iterator::any(&mut attackers.into_iter(), |f| self.cast_inverse_captures(f as u8, by) >= 2)
    }
}
