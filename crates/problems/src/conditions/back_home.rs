//! BackHome: a side that can take a piece back to its diagram square must.

use mysl_core::Color;

use super::drop_marked;
use crate::board::{Board, Move, NO_EXTRA};

/// BackHome: how deep the tests "has this side a legal move back home?" may nest (a move's
/// legality asks whether the other side checks, which under BackHome asks whether the other side
/// has a legal move back home, ...); deeper, the answer is no (Popeye stops at its ply limit).
pub const BACK_HOME_MAX_DEPTH: u8 = 8;

impl Board {
    /// BackHome: sets every piece's home to the square it stands on (the diagram; called when the
    /// problem's board is set up).
    pub fn init_back_home(&mut self) {
        for s in 0..64u8 {
            self.home[s as usize] = if self.squares[s as usize].is_some() { s } else { NO_EXTRA };
        }
    }

    /// BackHome: does the move `m` take its piece back to its home (castling: the king)?
    #[inline]
    fn goes_back_home(&self, m: &Move) -> bool {
        self.home[m.from as usize] == m.to
    }

    /// BackHome: has side `c` a legal move back home (whoever is to move)? Past
    /// [`BACK_HOME_MAX_DEPTH`] nested tests: no.
    #[inline(never)]
    pub(crate) fn back_home_exists(&self, c: Color) -> bool {
        if self.back_home_depth >= BACK_HOME_MAX_DEPTH {
            return false;
        }
        let mut b = self.clone();
        b.back_home_depth += 1;
        if b.side != c {
            b.side = c;
            b.ep = None;
        }
        let mut moves = Vec::new();
        b.pseudo_moves_plain(&mut moves);
        for m in moves {
            if b.goes_back_home(&m) {
                let u = b.make(m);
                let legal = !b.in_check(c);
                b.unmake(m, u);
                if legal {
                    return true;
                }
            }
        }
        false
    }

    /// BackHome: if the side to move has a legal move back home among `out[start..]`, only the
    /// moves back home stay (Popeye's `backhome_remove_illegal_moves_solve`).
    pub(crate) fn back_home_filter(&self, start: usize, out: &mut Vec<Move>) {
        if !out[start..].iter().any(|m| self.goes_back_home(m)) || !self.back_home_exists(self.side) {
            return;
        }
        for m in &mut out[start..] {
            if !self.goes_back_home(m) {
                m.to = m.from;
            }
        }
        drop_marked(out, start);
    }
}
