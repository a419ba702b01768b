//! Make and unmake: a move, with Circe rebirths and castling rights; the other conditions'
//! effects go through [`Board::make_ext`] and a side stack; the null move.

use super::{castle_bits, sq, Board, Circe, Effects, Mars, Move, Piece, Special, Undo, NO_EXTRA};
use crate::conditions::mars::antimars_castling;
use crate::walk;

impl Board {
    /// Plays a pseudo-legal move; returns the undo record.
    pub fn make(&mut self, m: Move) -> Undo {
        let undo = Undo {
            captured: None,
            reborn: None,
            castling: self.castling,
            ep: self.ep,
            key: self.key,
            ext: false,
            berolina: false,
            last_move: self.last_move,
            last_capture: self.last_capture,
        };
        let mut undo = undo;
        let p = self.squares[m.from as usize].expect("a piece on the from square");
        match m.special {
            Special::EnPassant { cap }
            | Special::EnPassantRebirthPromote { cap, .. }
            | Special::Locust { cap }
            | Special::TakeMakePromote { cap, .. } => {
                let cp = self.squares[cap as usize].expect("en-passant, locust or take&make victim");
                self.remove(cap, cp);
                undo.captured = Some((cap, cp));
            }
            // Anti-Mars Circe: the king may castle onto its rook's square (c1 from a1).
            Special::Castle { .. } => {}
            _ => {
                if let Some(cp) = self.squares[m.to as usize] {
                    self.remove(m.to, cp);
                    undo.captured = Some((m.to, cp));
                }
            }
        }
        self.remove(m.from, p);
        let placed = match m.special {
            Special::Promote(k) | Special::TakeMakePromote { kind: k, .. } => {
                undo.berolina = p.kind == walk::BEROLINA_PAWN;
                Piece { color: p.color, kind: k }
            }
            _ => p,
        };
        if let Special::Castle { rook_from, rook_to } = m.special {
            // The rook leaves before the king arrives (Anti-Mars Circe: a rook on c1 castling
            // from a1, the king on f1 castling from e1).
            let r = self.squares[rook_from as usize].expect("castling rook");
            self.remove(rook_from, r);
            self.add(m.to, placed);
            self.add(rook_to, r);
            let used = castle_bits(rook_from);
            // The castling rook's flag goes with it (the king's below): a king reborn on its
            // square later (AntiCirce, Circe RexInclusive) does not castle with it again.
            self.castling &= !used;
            for &(a, b) in &self.castling_exclusive {
                if a & used != 0 {
                    self.castling &= !b;
                }
                if b & used != 0 {
                    self.castling &= !a;
                }
            }
        } else {
            self.add(m.to, placed);
        }
        self.castling &= !(castle_bits(m.from) | castle_bits(m.to));
        if let Some((cs, _)) = undo.captured {
            // A rook taken on its square away from the arrival (Take&Make, a locust).
            self.castling &= !castle_bits(cs);
        }
        // A neutral piece reborn by Circe: its square (the attribute is set after the side stack
        // has kept the squares before the move).
        let mut neutral_reborn = None;
        if self.circe != Circe::Off {
            if let Some((cs, captured)) = undo.captured {
                if captured.kind != walk::KING || self.circe_rex {
                    let cp = self.circe.reborn_piece(captured, p);
                    let neutral = self.neutral.any() && self.neutral.contains(sq(cs));
                    // A neutral piece is reborn as a piece of the side it was captured from
                    // (Popeye's relevant side: the mover's opponent), staying neutral.
                    let r = if neutral {
                        self.circe.rebirth_square(Piece { color: !self.side, kind: cp.kind }, cs)
                    } else {
                        self.circe.rebirth_square(cp, cs)
                    };
                    if self.squares[r as usize].is_none() {
                        self.add(r, cp);
                        undo.reborn = Some((r, cp));
                        if neutral {
                            neutral_reborn = Some(r);
                        }
                        if !neutral {
                            self.restore_castling_flag(r, cp);
                        }
                    }
                }
            }
        }
        if self.ext_active() {
            if self.mars == Mars::AntiMars {
                self.castling = antimars_castling(undo.castling, m);
            }
            let e = self.make_ext(m, placed, undo.captured);
            self.ext_undo.push(e);
            undo.ext = true;
        }
        if let Some(r) = neutral_reborn {
            self.neutral.set(sq(r));
        }
        self.ep = match m.special {
            Special::Double if m.extra != NO_EXTRA && self.mars != Mars::Off => {
                // Anti-Mars Circe: a double step from the rebirth square passes over the square
                // between it and the arrival, unless that is the pawn's own square.
                let over = (m.extra + m.to) / 2;
                (over != m.from).then_some((over, m.to))
            }
            Special::Double => Some(((m.from + m.to) / 2, m.to)),
            _ => None,
        };
        self.last_move = m;
        self.last_capture = undo.captured.is_some();
        self.side = !self.side;
        undo
    }

    /// Takes back the move `m` made with `make`.
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        self.side = !self.side;
        if undo.ext {
            let e = self.ext_undo.pop().expect("effects of the move");
            self.unmake_ext(m, e);
        }
        if let Some((r, rp)) = undo.reborn {
            self.remove(r, rp);
        }
        let placed = self.squares[m.to as usize].expect("moved piece");
        self.remove(m.to, placed);
        let p = match m.special {
            Special::Promote(_) | Special::TakeMakePromote { .. } => {
                Piece { color: placed.color, kind: if undo.berolina { walk::BEROLINA_PAWN } else { walk::PAWN } }
            }
            _ => placed,
        };
        if let Special::Castle { rook_from, rook_to } = m.special {
            let r = self.squares[rook_to as usize].expect("castled rook");
            self.remove(rook_to, r);
            self.add(m.from, p);
            self.add(rook_from, r);
        } else {
            self.add(m.from, p);
        }
        if let Some((s, cp)) = undo.captured {
            self.add(s, cp);
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.key = undo.key;
        self.last_move = undo.last_move;
        self.last_capture = undo.last_capture;
    }

    /// A "null move": the side to move passes (used for threats and series play).
    ///
    /// Circe Parrain: a capture waiting for its rebirth is lost, as in Popeye, whose null move
    /// (`null_move_player_solve`) skips the move's Circe slices and whose next move finds no
    /// capture in the ply before it (kept on the side stack for [`Board::unmake_null`]).
    pub fn make_null(&mut self) -> Option<(u8, u8)> {
        // AllInChess: no move undoes a null move, and a null move is no double step.
        if self.parrain | self.all_in_chess {
            self.ext_undo.push(Effects {
                parrain_before: self.parrain_pending.take(),
                all_in_forbidden: self.all_in_forbidden.take(),
                all_in_last_double: std::mem::replace(&mut self.all_in_last_double, false),
                ..Effects::default()
            });
        }
        let ep = self.ep.take();
        self.side = !self.side;
        ep
    }

    pub fn unmake_null(&mut self, ep: Option<(u8, u8)>) {
        if self.parrain | self.all_in_chess {
            let e = self.ext_undo.pop().expect("null move effects");
            self.parrain_pending = e.parrain_before;
            self.all_in_forbidden = e.all_in_forbidden;
            self.all_in_last_double = e.all_in_last_double;
        }
        self.side = !self.side;
        self.ep = ep;
    }
}
