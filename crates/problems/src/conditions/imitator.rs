//! Imitator: the imitators follow every move by its vector.

use mysl_core::Bitboard;

use super::drop_marked;
use crate::board::{offset, sq, Board, Move, Special, NO_EXTRA};
use crate::walk::{self, Kind, Walk, KINDS};

/// `Move::extra` of a promotion (`Special::Promote`, any kind) under Condition Imitator: the pawn
/// becomes an imitator on its promotion square (`e7-e8=I`).
pub const IMITATOR_PROMOTION: u8 = 254;

/// Condition Imitator: at most this many imitators (Popeye: `maxinum`, 10).
pub const MAX_IMITATORS: usize = 10;

/// Condition Imitator: the imitators' squares, in Popeye's order (the order of the condition, a
/// pawn promoted into an imitator last); `n == 0`: no imitators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Imitators {
    pub sq: [u8; MAX_IMITATORS],
    pub n: u8,
}

impl Imitators {
    pub const NONE: Imitators = Imitators { sq: [0; MAX_IMITATORS], n: 0 };

    /// The squares, in order.
    pub fn squares(&self) -> &[u8] {
        &self.sq[..self.n as usize]
    }

    /// Adds an imitator on `s` (false if there are already [`MAX_IMITATORS`]).
    pub fn push(&mut self, s: u8) -> bool {
        if (self.n as usize) < MAX_IMITATORS {
            self.sq[self.n as usize] = s;
            self.n += 1;
            true
        } else {
            false
        }
    }

    /// The squares as a bitboard.
    pub fn bitboard(&self) -> Bitboard {
        let mut b = Bitboard(0);
        for &s in self.squares() {
            b.set(sq(s));
        }
        b
    }
}

impl Board {
    /// Imitator: of the moves `out[start..]`, only those the imitators can follow stay; each
    /// promotion gets a twin promoting into an imitator ([`IMITATOR_PROMOTION`]) unless `NoIProm`.
    pub(crate) fn imitator_filter(&self, start: usize, out: &mut Vec<Move>) {
        let end = out.len();
        for i in start..end {
            let m = out[i];
            let p = self.squares[m.from as usize].expect("moving piece");
            if !self.imitators_follow(m.from, m.to, p.kind, m.special) {
                out[i].to = out[i].from;
                continue;
            }
            if !self.no_iprom && m.special == Special::Promote(walk::QUEEN) {
                out.push(Move { extra: IMITATOR_PROMOTION, ..m });
            }
        }
        drop_marked(out, start);
    }

    /// Imitator: can every imitator follow the move of the piece of kind `kind` from `from` to `to`
    /// (`special` as in [`Move`])? Popeye's `conditions/imitator.c` (`remove_illegal_moves`,
    /// `imitator_validate_observation`): each imitator makes the same steps, and every square it
    /// passes or lands on must be on the board and empty (the mover's departure square counts as
    /// empty): a leaper (king, knight, pawn step or capture, fairy leapers) makes one step, a
    /// rider (queen, rook, bishop, fairy riders, a pawn's double step) every step of its line.
    /// Castling (Popeye's `castlingimok`): with the king taken off, every imitator must be able
    /// to step one and two squares the king's way; for the long castling then, with the king on
    /// its arrival square, also one square back, its own square and one square on (the rook's
    /// way). Other walks: not supported (the solver refuses them with imitators).
    pub fn imitators_follow(&self, from: u8, to: u8, kind: Kind, special: Special) -> bool {
        let ims = self.imitators;
        // Every imitator displaced by `d` is on the board and on an empty square (or on `vacated`,
        // and not on `filled`).
        let all_free = |d: (i8, i8), vacated: u8, filled: u8| {
            ims.squares().iter().all(|&i| match offset(i, d) {
                Some(t) => t != filled && (t == vacated || self.squares[t as usize].is_none()),
                None => false,
            })
        };
        let (dx, dy) = ((to % 8) as i8 - (from % 8) as i8, (to / 8) as i8 - (from / 8) as i8);
        if let Special::Castle { .. } = special {
            let s = dx.signum();
            if !(all_free((s, 0), from, NO_EXTRA) && all_free((2 * s, 0), from, NO_EXTRA)) {
                return false;
            }
            if s < 0 {
                // Long castling: the rook's way back, the king now on its arrival square.
                return all_free((s, 0), from, to) && all_free((0, 0), from, to) && all_free((-s, 0), from, to);
            }
            return true;
        }
        let line = match KINDS[kind as usize].walk {
            Walk::Queen | Walk::Rook | Walk::Bishop | Walk::Rider(_) => true,
            Walk::Pawn => special == Special::Double,
            _ => false,
        };
        if !line {
            return all_free((dx, dy), from, NO_EXTRA);
        }
        // The rider's step: its vector of which (dx, dy) is a multiple (the primitive one for
        // the orthodox lines and a pawn's double step).
        let (sx, sy) = match KINDS[kind as usize].walk {
            Walk::Rider(v) => {
                match v
                    .iter()
                    .find(|&&(x, y)| x * dy == y * dx && x.signum() == dx.signum() && y.signum() == dy.signum())
                {
                    Some(&d) => d,
                    None => return false,
                }
            }
            _ => {
                let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i8;
                (dx / g, dy / g)
            }
        };
        let n = if sx != 0 { dx / sx } else { dy / sy };
        (1..=n).all(|j| all_free((j * sx, j * sy), from, NO_EXTRA))
    }
}

/// Greatest common divisor (`gcd(0, n) = n`).
fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
