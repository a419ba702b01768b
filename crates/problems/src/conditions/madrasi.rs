//! Madrasi and Isardam: observation by an enemy piece of the same kind.

use crate::board::{Board, Piece};
use crate::walk;

/// Madrasi-type conditions (Popeye's `Madrasi` and `Isardam`, kings not included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Paralysis {
    #[default]
    Off,
    /// A piece (not a king) observed by an enemy piece of its own kind is paralysed: it cannot
    /// move, capture or give check.
    Madrasi,
    /// Type A: a move after which a piece is observed by an enemy piece of its own kind is
    /// illegal; a check counts only if capturing the king would be legal by that rule.
    Isardam,
}

impl Paralysis {
    /// Popeye's name in twin headers.
    pub fn name(self) -> &'static str {
        match self {
            Paralysis::Off => "",
            Paralysis::Madrasi => "Madrasi",
            Paralysis::Isardam => "Isardam",
        }
    }
}

impl Board {
    /// Madrasi observation: is the piece on `z` (not a king) attacked by an enemy piece of the
    /// same kind (geometry only, as Popeye's `madrasi_is_moving_piece_observed`), en passant included?
    pub fn observed_by_same_walk(&self, z: u8) -> bool {
        let Some(p) = self.piece_at(z) else { return false };
        if p.kind == walk::KING {
            return false;
        }
        let enemies = self.kind_bb(!p.color, p.kind);
        if !enemies.any() {
            return false;
        }
        let enemy = Piece { color: !p.color, kind: p.kind };
        let mut it = enemies.into_iter();
        if Iterator::any(&mut it, |x| self.piece_attacks(x as u8, enemy, z)) {
            return true;
        }
        // A pawn that has just made a double step is observed by an enemy pawn that could take it
        // en passant (Popeye's pawn observation includes the en-passant capture).
        match self.ep {
            Some((over, victim)) if victim == z && p.kind == walk::PAWN => {
                let mut it = enemies.into_iter();
                Iterator::any(&mut it, |x| self.piece_attacks(x as u8, enemy, over))
            }
            _ => false,
        }
    }

    /// Is any piece observed by an enemy piece of its own kind (an Isardam-illegal position)?
    pub fn any_same_walk_observation(&self) -> bool {
        let mut it = self.occupied().into_iter();
        Iterator::any(&mut it, |z| self.observed_by_same_walk(z as u8))
    }
}
