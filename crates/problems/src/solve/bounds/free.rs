//! Free moves: the s#1 free-defence bound (the attacker's move must take away every free defence)
//! and the stalemate bounds (the last moves must take away every free move of the stalemated
//! side).

use mysl_core::attacks;
use mysl_core::{Bitboard, Color};

use crate::board::{Board, Move, Special};
use crate::solve::Searcher;
use crate::walk::{self, Walk, KINDS};

/// Can one move that leaves a square of `from` (the mover's pieces) and lands on one other
/// square touch every mask? (Some piece square f, and one square in all masks without f.)
pub(in crate::solve) fn one_move_touches_all(masks: &[Bitboard], from: Bitboard) -> bool {
    if masks.len() < 2 {
        return true;
    }
    Iterator::any(&mut from.into_iter(), |f| {
        let f = Bitboard::from_square(f);
        let mut common = Bitboard(!0);
        for &mask in masks {
            if (mask & f).is_empty() {
                common &= mask;
            }
        }
        !common.is_empty()
    })
}

/// How many of `masks` missing `touched` share no square (greedy: a lower bound of the most).
pub(in crate::solve) fn disjoint_count(masks: &[Bitboard], touched: Bitboard) -> usize {
    let mut union = touched;
    let mut n = 0;
    for &mask in masks {
        if (mask & union).is_empty() {
            union |= mask;
            n += 1;
        }
    }
    n
}

/// The squares on the line from `a` through `b` beyond `b` (to the edge); empty if not aligned.
fn ray_beyond(a: mysl_core::Square, b: mysl_core::Square) -> Bitboard {
    let line = attacks::line(a, b);
    if line.is_empty() {
        return line;
    }
    let (ax, ay) = (a as i32 % 8, a as i32 / 8);
    let (bx, by) = (b as i32 % 8, b as i32 / 8);
    let (dx, dy) = ((bx - ax).signum(), (by - ay).signum());
    let mut out = Bitboard(0);
    let (mut x, mut y) = (bx + dx, by + dy);
    while (0..8).contains(&x) && (0..8).contains(&y) {
        out |= Bitboard::from_square(mysl_core::Square::from_index((y * 8 + x) as u32));
        x += dx;
        y += dy;
    }
    out
}

/// Free defences kept per s#1 node ([`Searcher::free_defences`]).
pub(in crate::solve) const FREE_MAX: usize = 6;

impl Searcher {
    /// s#1 (self play, mate, plain orthodox board: [`Searcher::self_free`]), attacker to move:
    /// the defender's "free" moves, seen as if it were to move now (a null move): legal, giving
    /// no check, not by its king, not en passant or castling, a promotion only to an orthodox
    /// piece. For each (at most [`FREE_MAX`]) the mask of squares an attacker move must touch
    /// (leave or land on) to take that move away or make it a check, in `out`; returns how many.
    ///
    /// Why the mask is enough. Let d go from s to t, and let the attacker's move m be a legal move
    /// that is no check, not by the king, not castling or en passant, not a promotion to a fairy
    /// piece, with neither end in the mask. After m the defender can still play d, d is legal
    /// and gives no check, so it mates nothing and m does not win (s#1: every defence must mate):
    /// * d is still pseudo-legal: its piece is still on s (m does not land on s), its path and,
    ///   for a pawn push, t are still empty (m lands on none of them), a pawn capture still has
    ///   its victim (m does not leave t).
    /// * d leaves its king unattacked. Before m it did (d was legal); the occupancy after m and
    ///   d differs from that after d alone only on m's two squares. A new attack on the king
    ///   must run through a square m changed: a line opened by m.from that did not pass s would
    ///   have been open after m alone (t only blocks), so m would give check; a line through s
    ///   is the line through the defender's king and s, which m does not touch. The piece on
    ///   m.to attacking the king directly would be a check by m, unless s was in between (same
    ///   line). Knights and pawns do not care about occupancy.
    /// * d gives no check. The attacker's king did not move. An attack on it after m and d
    ///   that was not there after d alone runs through m.from (m.to only blocks, and a captured
    ///   defender on m.to attacks nothing): if that line avoided s and t, it was open after m
    ///   alone and m would leave its own king in check (m is legal); if it passes s or t it is
    ///   the line through the attacker's king and s or t, which m does not touch.
    ///
    /// If the attacker is in check now the null-move view is meaningless: no free moves.
    pub(in crate::solve) fn free_defences(&mut self, out: &mut [Bitboard; FREE_MAX]) -> usize {
        self.free_moves(false, true, out)
    }

    /// The stalemated side's free moves (as [`Searcher::free_defences`]) for a stalemate goal:
    /// the moves may give check, and their masks leave out the lines through the other king.
    /// `null`: the other side is to move now (its last move comes next), else the stalemated
    /// side is (its move, then the other side's last move).
    ///
    /// Why that is enough. Let the remaining moves (the other side's last move m, and at most
    /// one move of the stalemated side before it, not by its king, no castling) touch none of
    /// the squares of d's mask, and let the final position F be no check (else no stalemate).
    /// d's piece is still on s, its path, and for a pawn push t, are as now, a pawn capture's
    /// victim is still on t: d is still pseudo-legal. After d in F, an attack on the (unmoved)
    /// king that F itself does not have must run through s, along the line through the king
    /// and s; that line is untouched, so the same attack would follow d now, and d is legal
    /// now. So the stalemated side still has the legal move d in F: no stalemate.
    pub(in crate::solve) fn stalemate_free_moves(&mut self, null: bool, out: &mut [Bitboard; FREE_MAX]) -> usize {
        self.free_moves(true, null, out)
    }

    fn free_moves(&mut self, stalemate: bool, null: bool, out: &mut [Bitboard; FREE_MAX]) -> usize {
        let to_move = self.board.side;
        if self.board.has_fairy(Color::White)
            || self.board.has_fairy(Color::Black)
            || (null && self.board.in_check(to_move))
        {
            return 0;
        }
        // `mover`: the side whose free moves are listed; `other`: the side whose moves must take them away.
        let mover = if null { !to_move } else { to_move };
        let (Some(ak), Some(dk)) = (self.board.king_square(!mover), self.board.king_square(mover)) else {
            return 0;
        };
        let sqr = |i: u8| mysl_core::Square::from_index(i as u32);
        let (ak, dk) = (sqr(ak), sqr(dk));
        let ep = if null { Some(self.board.make_null()) } else { None };
        // A move of an unpinned piece (not the king) needs no legality test; a move that
        // certainly gives no check ([`Board::could_check_with`]) needs no check test.
        let test = self.board.needs_legality_test();
        let no_check_info = if stalemate { None } else { Some(self.board.check_info(ak as u8)) };
        let mut moves = self.take_buf(0);
        self.board.pseudo_moves(&mut moves);
        let mut n = 0;
        let mut pieces_seen = Bitboard(0);
        for &d in &moves {
            let orthodox = match d.special {
                Special::None | Special::Double => true,
                Special::Promote(k) => {
                    matches!(KINDS[k as usize].walk, Walk::Queen | Walk::Rook | Walk::Bishop | Walk::Knight)
                }
                _ => false,
            };
            if !orthodox
                || self.board.piece_at(d.from).is_none_or(|p| p.kind == walk::KING)
                || pieces_seen.contains(sqr(d.from))
            {
                continue;
            }
            let may_check = no_check_info.as_ref().is_some_and(|ci| self.board.could_check_with(ci, d));
            let free = if may_check || Board::must_test(test, d) {
                let u = self.board.make(d);
                let free = !self.board.in_check(mover) && (stalemate || !self.board.in_check(!mover));
                self.board.unmake(d, u);
                free
            } else {
                true
            };
            if free {
                let (f, t) = (sqr(d.from), sqr(d.to));
                let mut mask = Bitboard::from_square(f)
                    | Bitboard::from_square(t)
                    | attacks::between(f, t)
                    | attacks::between(dk, f)
                    | ray_beyond(dk, f);
                if !stalemate {
                    mask |= attacks::line(ak, f) | attacks::line(ak, t);
                }
                // One move per piece: masks of one piece all hold its square.
                pieces_seen |= Bitboard::from_square(f);
                out[n] = mask;
                n += 1;
                if n == FREE_MAX {
                    break;
                }
            }
        }
        self.bufs[0] = moves;
        if let Some(ep) = ep {
            self.board.unmake_null(ep);
        }
        n
    }

    /// h= with two half moves left, the stalemated side to move, `free` its free moves
    /// ([`Searcher::stalemate_free_moves`], not `null`): can its move `d` be skipped? The masks
    /// `d` does not touch stay free after it (see there), so the other side's last move must
    /// touch each of them: it leaves a square of its own piece and lands on one square
    /// ([`one_move_touches_all`]; en passant's third square is d's own, so it changes nothing).
    /// With castling rights (`castle`: four squares) the weaker test: five masks that d misses
    /// and that share no square.
    pub(in crate::solve) fn stalemate_skips(&self, d: Move, free: &[Bitboard], castle: bool) -> bool {
        if !matches!(d.special, Special::None | Special::Double | Special::Promote(_))
            || self.board.piece_at(d.from).is_none_or(|p| p.kind == walk::KING)
        {
            return false;
        }
        let touched = Bitboard::from_square(mysl_core::Square::from_index(d.from as u32))
            | Bitboard::from_square(mysl_core::Square::from_index(d.to as u32));
        if castle {
            return disjoint_count(free, touched) >= 5;
        }
        let mut left = [Bitboard(0); FREE_MAX];
        let mut n = 0;
        for &mask in free {
            if (mask & touched).is_empty() {
                left[n] = mask;
                n += 1;
            }
        }
        !one_move_touches_all(&left[..n], self.board.color_bb(!self.board.side))
    }

    /// Does attacker move `m` leave one of the free defences `free` ([`Searcher::free_defences`])
    /// untouched, while it is certainly no check (`ci`: the defender's king) and of the plain
    /// kind the proof there needs? Then `m` does not win s#1.
    #[inline]
    pub(in crate::solve) fn misses_a_free_defence(
        &self,
        m: Move,
        ci: &crate::board::CheckInfo,
        free: &[Bitboard],
    ) -> bool {
        let plain = match m.special {
            Special::None | Special::Double => true,
            Special::Promote(k) => {
                matches!(KINDS[k as usize].walk, Walk::Queen | Walk::Rook | Walk::Bishop | Walk::Knight)
            }
            _ => false,
        };
        if !plain
            || self.board.piece_at(m.from).is_none_or(|p| p.kind == walk::KING)
            || self.board.could_check_with(ci, m)
        {
            return false;
        }
        Self::leaves_a_mask_untouched(m, free)
    }

    /// Does our last move `m` leave one of the stalemated side's free moves
    /// ([`Searcher::stalemate_free_moves`]) in place? Then it does not stalemate.
    #[inline]
    pub(in crate::solve) fn misses_a_free_move(&self, m: Move, free: &[Bitboard]) -> bool {
        let plain = match m.special {
            Special::None | Special::Double => true,
            Special::Promote(k) => {
                matches!(KINDS[k as usize].walk, Walk::Queen | Walk::Rook | Walk::Bishop | Walk::Knight)
            }
            _ => false,
        };
        plain && Self::leaves_a_mask_untouched(m, free)
    }

    #[inline]
    fn leaves_a_mask_untouched(m: Move, masks: &[Bitboard]) -> bool {
        let touched = Bitboard::from_square(mysl_core::Square::from_index(m.from as u32))
            | Bitboard::from_square(mysl_core::Square::from_index(m.to as u32));
        masks.iter().any(|&mask| (mask & touched).is_empty())
    }
}
