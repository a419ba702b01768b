//! Neutral pieces.

use mysl_core::Color;

use super::{sq, Board, Move, Piece};

/// Neutral pieces (Popeye's colour `Neutral`, `py-engl.txt`): a neutral piece belongs to both
/// sides. The side to move may move it as its own (a neutral pawn then moves and captures in
/// that side's direction and promotes on its last rank, to a neutral piece), either side may
/// capture it (a neutral piece may capture another), and it attacks both kings: a side may not
/// leave its king attacked by a neutral piece acting for the other side. Between moves the
/// neutral pieces are stored as white pieces; each query gives them the colour it needs on a
/// copy of the board (only positions with neutral pieces pay for this).
impl Board {
    /// Gives every neutral piece the colour `c`, the one on `except` the other colour.
    fn colour_neutrals(&mut self, c: Color, except: Option<u8>) {
        for s in self.neutral {
            let s = s as u8;
            let want = if Some(s) == except { !c } else { c };
            if let Some(p) = self.squares[s as usize] {
                if p.color != want {
                    self.remove(s, p);
                    self.add(s, Piece { color: want, kind: p.kind });
                }
            }
        }
    }

    /// The side to move's pseudo-legal moves with neutral pieces on the board: its own pieces'
    /// moves with the neutral pieces as enemies (so they can be captured), then the moves of
    /// each neutral piece as the side's own, the other neutral pieces still enemies.
    #[inline(never)]
    pub(crate) fn neutral_pseudo_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let mut b = self.clone();
        b.colour_neutrals(!us, None);
        b.pseudo_moves_base(out);
        let mut own = Vec::with_capacity(32);
        for n in self.neutral {
            let n = n as u8;
            b.colour_neutrals(!us, Some(n));
            own.clear();
            b.pseudo_moves_base(&mut own);
            out.extend(own.iter().filter(|m| m.from == n));
        }
    }

    /// Is the king of `c` attacked, the neutral pieces acting for the other side?
    #[inline(never)]
    pub(crate) fn neutral_in_check(&self, c: Color) -> bool {
        let mut b = self.clone();
        b.colour_neutrals(!c, None);
        b.in_check_base(c)
    }

    /// After the move `m` (its capture on `captured`): the neutral attribute leaves with a
    /// captured neutral piece and moves with a moving one.
    pub(crate) fn neutral_moved(&mut self, m: Move, captured: Option<(u8, Piece)>) {
        if let Some((cs, _)) = captured {
            self.neutral.clear(sq(cs));
        }
        if self.neutral.contains(sq(m.from)) {
            self.neutral.clear(sq(m.from));
            self.neutral.set(sq(m.to));
        }
    }
}
