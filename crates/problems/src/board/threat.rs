//! When is a threat move still there after a defence (Popeye's "relevant effects")?

use super::{sq, AntiCirce, Board, Move, Special};

impl Board {
    /// Are two moves of the side to move the same move for threats (a threat move that is
    /// still there after a defence)? Popeye compares the "relevant" effects of moves
    /// (`utilities/table.c`, `is_effect_relevant` and `moves_equal`): the moving piece's (or
    /// castling king's) departure and arrival and any promotion, not which piece moves nor a
    /// castling partner's movement (CastlingChess: the same king move with another partner is
    /// the same threat), a capture, a Breton removal, a Bul or Dob hurdle's movement (only its
    /// promotion) or a plain AntiCirce rebirth square.
    pub(crate) fn same_threat_move(&self, a: Move, b: Move) -> bool {
        if a == b {
            return true;
        }
        if a.from != b.from || a.to != b.to {
            return false;
        }
        // Take&Make: the capture square is relevant too (`is_effect_relevant`).
        let taken = |m: Move| match m.special {
            Special::Locust { cap } | Special::TakeMakePromote { cap, .. } => Some(cap),
            _ => None,
        };
        if self.take_make && taken(a) != taken(b) {
            return false;
        }
        let promotion = |m: Move| match m.special {
            Special::Promote(k) | Special::HurdlePromote(k) | Special::RebirthPromote(k) => Some(k),
            Special::TakeMakePromote { kind, .. } => Some(kind),
            Special::EnPassantRebirthPromote { kind, .. } => Some(kind),
            _ => None,
        };
        if promotion(a) != promotion(b) {
            return false;
        }
        // `extra` names a promotion's square or kind, a Mars or AntiCirce Super rebirth square
        // (all relevant), or a Breton removal, a hurdle's arrival or a plain AntiCirce rebirth.
        a.extra == b.extra
            || self.breton
            || (self.bul.contains(sq(a.from)) && promotion(a).is_none())
            || matches!(self.anticirce, AntiCirce::Calvet | AntiCirce::Cheylan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_square, NO_EXTRA};
    use crate::walk;

    fn at(s: &str) -> u8 {
        parse_square(s).expect("square")
    }

    fn mv(from: &str, to: &str, special: Special, extra: u8) -> Move {
        Move { from: at(from), to: at(to), special, extra }
    }

    #[test]
    fn departure_arrival_and_promotion_decide() {
        let b = Board::empty();
        let plain = mv("d2", "d4", Special::None, NO_EXTRA);
        // A pawn's double step and another piece's move between the same squares (Andernach: a
        // recoloured piece now stands there).
        assert!(b.same_threat_move(mv("d2", "d4", Special::Double, NO_EXTRA), plain));
        assert!(!b.same_threat_move(mv("d2", "d3", Special::None, NO_EXTRA), plain));
        assert!(!b.same_threat_move(mv("c2", "d4", Special::None, NO_EXTRA), plain));
        // The castling partner does not count (CastlingChess), a promotion does.
        let castle =
            |rf: &str, rt: &str| mv("e1", "g1", Special::Castle { rook_from: at(rf), rook_to: at(rt) }, NO_EXTRA);
        assert!(b.same_threat_move(castle("h1", "f1"), castle("e2", "f1")));
        let q = mv("d7", "d8", Special::Promote(walk::QUEEN), NO_EXTRA);
        assert!(!b.same_threat_move(q, mv("d7", "d8", Special::Promote(walk::KNIGHT), NO_EXTRA)));
        assert!(!b.same_threat_move(q, mv("d7", "d8", Special::None, NO_EXTRA)));
    }

    #[test]
    fn extra_counts_unless_it_is_a_removal_a_hurdle_move_or_a_plain_anticirce_rebirth() {
        let capture = mv("d2", "b1", Special::None, at("b1"));
        let quiet = mv("d2", "b1", Special::None, NO_EXTRA);
        let mut b = Board::empty();
        // Mars Circe: the rebirth square the piece moved from is relevant.
        assert!(!b.same_threat_move(capture, quiet));
        b.anticirce = AntiCirce::Calvet;
        assert!(b.same_threat_move(capture, quiet), "AntiCirce: the capture and the quiet move are one threat");
        b.anticirce = AntiCirce::SuperCalvet;
        assert!(!b.same_threat_move(capture, quiet), "AntiCirce Super: the rebirth square is chosen");
        let mut b = Board::empty();
        b.breton = true;
        assert!(b.same_threat_move(capture, quiet));
        let mut b = Board::empty();
        b.bul.set(sq(at("d2")));
        assert!(b.same_threat_move(capture, quiet));
        let hp = |to: &str, k| mv("d2", "b1", Special::HurdlePromote(k), at(to));
        assert!(
            !b.same_threat_move(hp("c8", walk::QUEEN), hp("e8", walk::QUEEN)),
            "a hurdle's promotion square counts"
        );
    }
}
