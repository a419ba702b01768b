//! Take&MakeChess (Popeye's `conditions/take_and_make.c`): a capture goes on with a
//! non-capturing move of the captured piece's walk, as a piece of the captured side, from the
//! capture's arrival square; a capture without such a move is no move. Checks are the ordinary
//! attacks (capturing a king needs no make).

use mysl_core::Color;

use crate::board::{sq, Board, Move, Piece, Special, NO_EXTRA};
use crate::walk;

impl Board {
    /// Take&Make: every capture among `out[start..]` is replaced, in its place, by its makes:
    /// `Locust { cap }` moves from the departure to the make's arrival (a pawn promoting there
    /// `TakeMakePromote`). A pawn may not end on its own first rank (Popeye's
    /// `take_and_make_avoid_pawn_make_to_base_line`).
    pub(crate) fn take_make_expand(&self, start: usize, out: &mut Vec<Move>) {
        if !out[start..].iter().any(|&m| self.is_capture(m)) {
            return;
        }
        let moves: Vec<Move> = out.drain(start..).collect();
        let mut b = self.clone();
        let mut makes = Vec::new();
        let mut last_take: Option<(u8, u8)> = None;
        for m in moves {
            if !self.is_capture(m) {
                out.push(m);
                continue;
            }
            // A capture that promotes comes once per promotion kind: its makes once.
            if matches!(m.special, Special::Promote(_)) && last_take == Some((m.from, m.to)) {
                continue;
            }
            last_take = Some((m.from, m.to));
            let cap = match m.special {
                Special::EnPassant { cap } | Special::Locust { cap } => cap,
                _ => m.to,
            };
            let Some(mover) = self.squares[m.from as usize] else { continue };
            let Some(taken) = self.squares[cap as usize] else { continue };
            // The make: the captured walk and side from the take's arrival, with the captured
            // piece and the mover's departure square gone.
            b.remove(cap, taken);
            b.remove(m.from, mover);
            let ghost = Piece { color: taken.color, kind: taken.kind };
            b.put(m.to, ghost);
            makes.clear();
            let own = b.color_bb(taken.color);
            let theirs = b.color_bb(!taken.color);
            let occ = own | theirs | b.holes;
            b.piece_moves_plain(sq(m.to), taken.color, theirs, occ, own | b.holes, &mut makes);
            b.clear(m.to);
            b.put(m.from, mover);
            b.put(cap, taken);
            let (first, last) = if mover.color == Color::White { (0, 7) } else { (7, 0) };
            let mut previous = None;
            for mk in &makes {
                let to = mk.to;
                // Non-captures only (the squares were empty), each arrival once (a pawn make's
                // promotions), no en passant or castling.
                if occ.contains(sq(to))
                    || matches!(mk.special, Special::EnPassant { .. } | Special::Castle { .. })
                    || previous == Some(to)
                {
                    continue;
                }
                previous = Some(to);
                let pawn = mover.kind == walk::PAWN;
                if pawn && to / 8 == first {
                    continue;
                }
                if pawn && to / 8 == last {
                    for k in walk::PROMOTIONS {
                        if k == walk::KNIGHT && self.cavalier_majeur {
                            continue;
                        }
                        out.push(Move {
                            from: m.from,
                            to,
                            special: Special::TakeMakePromote { cap, kind: k },
                            extra: NO_EXTRA,
                        });
                    }
                    let mut fairies = self.promotion_fairies;
                    while fairies != 0 {
                        let k = fairies.trailing_zeros() as walk::Kind;
                        fairies &= fairies - 1;
                        out.push(Move {
                            from: m.from,
                            to,
                            special: Special::TakeMakePromote { cap, kind: k },
                            extra: NO_EXTRA,
                        });
                    }
                } else {
                    out.push(Move { from: m.from, to, special: Special::Locust { cap }, extra: NO_EXTRA });
                }
            }
        }
    }
}
