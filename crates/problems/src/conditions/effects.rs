//! What a move does under the conditions and attributes of [`Board::ext_active`] beyond moving its
//! pieces: Breton removals, BGL budgets, ChameleonPursuit and Andernach side changes, Bul hurdle
//! moves, AntiCirce rebirths, ghosts, Circe Parrain rebirths, imitators, BackHome homes, neutral
//! pieces; recorded on a side stack so that the orthodox make/unmake stays small.

use mysl_core::{Bitboard, Color};

use super::bgl::bgl_pay;
use crate::board::{
    bgl_cost, castle_bits, hurdle_square, offset, sq, AntiCirce, Board, Imitators, Move, Piece, Special, Undo,
    IMITATOR_PROMOTION, MAX_GHOSTS, NO_EXTRA,
};
use crate::walk::{self, Kind};

/// The effects of a move under Breton, BGL, ChameleonPursuit, Bul, AntiCirce or GhostChess
/// and what is needed to take them back (kept on a side stack of the board, see
/// [`Board::effects`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Effects {
    /// Breton: the mover's own piece removed after its capture.
    pub(crate) breton: Option<(u8, Piece)>,
    /// BGL: the budgets before the move.
    pub(crate) bgl_left: [i32; 2],
    /// Chameleon pursuit: the departure square of the move before, and whether this move's
    /// piece changed sides.
    pub(crate) last_from: u8,
    pub(crate) side_changed: bool,
    /// Bul: the hurdle's square, its arrival square and the piece as it was.
    pub(crate) hurdle: Option<(u8, u8, Piece)>,
    /// Bul: the squares of Bul pieces before the move.
    pub(crate) bul: Bitboard,
    /// Dob: the squares of Dob pieces before the move.
    pub(crate) dob: Bitboard,
    /// The squares of the neutral pieces before the move.
    pub(crate) neutral: Bitboard,
    /// AntiCirce: the capturing piece's rebirth square and the piece as it stood on the capture
    /// square.
    pub(crate) anti: Option<(u8, Piece)>,
    /// Ghost chess: the captured piece became a ghost; the ghost summoned on the departure
    /// square (its index in the ghost list, square, piece); the uncapturable pieces before.
    pub(crate) ghost_pushed: bool,
    pub(crate) ghost_summoned: Option<(u8, u8, Piece)>,
    pub(crate) uncapturable: Bitboard,
    /// Circe Parrain: the capture waiting for its rebirth before the move, and the piece reborn
    /// by this move (square, piece as placed).
    pub(crate) parrain_before: Option<(u8, Piece)>,
    pub(crate) parrain_reborn: Option<(u8, Piece)>,
    /// Imitator: the imitators before the move.
    pub(crate) imitators: Imitators,
    /// BackHome: the moved piece's home, the captured piece's home, the castling rook's home.
    pub(crate) home_moved: u8,
    pub(crate) home_captured: u8,
    pub(crate) home_rook: u8,
    /// AllInChess: the forbidden undoing move and the double-step flag before the move.
    pub(crate) all_in_forbidden: Option<(u8, u8)>,
    pub(crate) all_in_last_double: bool,
    /// FrankfurtChess: the capturing piece as it stood after the move proper (before taking the
    /// captured walk), or the royal walk before, and the walk taken (royal?, kind).
    pub(crate) frankfurt_placed: Option<Piece>,
    pub(crate) royal_before: Option<Kind>,
    pub(crate) frankfurt: Option<(bool, Kind)>,
}

impl Effects {
    /// Breton: the square and piece removed after the capture, if any.
    pub fn breton_removed(&self) -> Option<(u8, Piece)> {
        self.breton
    }

    /// Circe Parrain: the piece reborn after this move (square, piece as placed), if any.
    pub fn parrain_reborn(&self) -> Option<(u8, Piece)> {
        self.parrain_reborn
    }

    /// FrankfurtChess: the walk the capturing piece took (whether it is the royal piece, kind).
    pub fn frankfurt_walk(&self) -> Option<(bool, Kind)> {
        self.frankfurt
    }

    /// Chameleon pursuit: did the moved piece change sides?
    pub fn side_changed(&self) -> bool {
        self.side_changed
    }

    /// AntiCirce: the capturing piece's rebirth (rebirth square, the piece as it stood on the
    /// capture square), if any.
    pub fn anti_reborn(&self) -> Option<(u8, Piece)> {
        self.anti
    }

    /// Ghost chess: the ghost that reappeared on the departure square, if any.
    pub fn ghost_summoned(&self) -> Option<(u8, Piece)> {
        self.ghost_summoned.map(|(_, s, p)| (s, p))
    }

    /// Bul: the hurdle's move (from, to, the piece before the move), if any.
    pub fn hurdle_moved(&self) -> Option<(u8, u8, Piece)> {
        self.hurdle
    }
}

impl Board {
    /// The effects of the conditions and attributes of [`Board::ext_active`] after the move
    /// proper (the mover stands on `m.to` as `placed`; `captured`: what it took), recorded for
    /// [`Board::unmake_ext`].
    #[inline(never)]
    pub(crate) fn make_ext(&mut self, m: Move, placed: Piece, captured: Option<(u8, Piece)>) -> Effects {
        let mut e = Effects {
            bgl_left: self.bgl.left,
            last_from: self.last_from,
            bul: self.bul,
            dob: self.dob,
            neutral: self.neutral,
            uncapturable: self.uncapturable,
            all_in_forbidden: self.all_in_forbidden,
            all_in_last_double: self.all_in_last_double,
            ..Effects::default()
        };
        if self.all_in_chess {
            self.all_in_chess_after(m, captured.is_some());
        }
        if self.frankfurt {
            if let Some((_, cp)) = captured {
                let now = self.squares[m.to as usize].expect("capturing piece");
                if now.kind == walk::KING {
                    let c = now.color.index();
                    e.royal_before = Some(self.royal_walk[c]);
                    self.royal_walk[c] = cp.kind;
                    e.frankfurt = Some((true, cp.kind));
                } else {
                    self.remove(m.to, now);
                    self.add(m.to, Piece { color: now.color, kind: cp.kind });
                    e.frankfurt_placed = Some(now);
                    e.frankfurt = Some((false, cp.kind));
                }
            }
        }
        if self.neutral.any() {
            self.neutral_moved(m, captured);
        }
        if self.exchange_castling && matches!(m.special, Special::Castle { .. }) {
            // (Generated only while the side has not exchanged.)
            self.exchange_used |= 1 << self.side.index();
        }
        if self.back_home {
            // The moved piece takes its home along (a promoted pawn keeps the pawn's); a
            // captured piece's home goes with it.
            let cs = captured.map(|(c, _)| c);
            e.home_captured = cs.map_or(NO_EXTRA, |c| self.home[c as usize]);
            if let Some(c) = cs {
                self.home[c as usize] = NO_EXTRA;
            }
            e.home_moved = self.home[m.from as usize];
            self.home[m.from as usize] = NO_EXTRA;
            if let Special::Castle { rook_from, rook_to } = m.special {
                e.home_rook = self.home[rook_from as usize];
                self.home[rook_from as usize] = NO_EXTRA;
                self.home[rook_to as usize] = e.home_rook;
            }
            self.home[m.to as usize] = e.home_moved;
        }
        if self.imitators.n > 0 {
            e.imitators = self.imitators;
            let v = |a: u8, b: u8| ((b % 8) as i8 - (a % 8) as i8, (b / 8) as i8 - (a / 8) as i8);
            let (mut dx, mut dy) = v(m.from, m.to);
            if let Special::Castle { rook_from, rook_to } = m.special {
                let (rx, ry) = v(rook_from, rook_to);
                dx += rx;
                dy += ry;
            }
            let mut moved = self.imitators;
            for i in 0..moved.n as usize {
                // The generator made sure every imitator lands on the board.
                moved.sq[i] = offset(moved.sq[i], (dx, dy)).unwrap_or(moved.sq[i]);
            }
            if m.extra == IMITATOR_PROMOTION {
                // The pawn (placed as a queen) becomes an imitator on its promotion square.
                self.remove(m.to, placed);
                moved.push(m.to);
            }
            self.imitators = moved;
        }
        if self.parrain {
            e.parrain_before = self.parrain_pending;
            if let Some((cs, p)) = self.parrain_pending {
                if let Some(r) = self.parrain_square(m, cs) {
                    if self.squares[r as usize].is_none() {
                        let last = if p.color == Color::White { 7 } else { 0 };
                        let kind = if p.kind == walk::PAWN && r / 8 == last {
                            if m.extra == NO_EXTRA {
                                walk::QUEEN
                            } else {
                                m.extra as Kind
                            }
                        } else {
                            p.kind
                        };
                        let q = Piece { color: p.color, kind };
                        self.add(r, q);
                        e.parrain_reborn = Some((r, q));
                    }
                }
            }
            self.parrain_pending = captured.filter(|&(_, c)| c.kind != walk::KING);
        }
        if m.extra != NO_EXTRA && self.anticirce != AntiCirce::Off {
            // AntiCirce: the capturer goes to its rebirth square (and promotes there if it is a
            // pawn on its last rank).
            self.remove(m.to, placed);
            let kind = match m.special {
                Special::RebirthPromote(k) | Special::EnPassantRebirthPromote { kind: k, .. } => k,
                _ => placed.kind,
            };
            self.add(m.extra, Piece { color: placed.color, kind });
            e.anti = Some((m.extra, placed));
            self.castling &= !castle_bits(m.extra);
            self.restore_castling_flag(m.extra, Piece { color: placed.color, kind });
        }
        if self.ghost_chess {
            let mut nu = self.uncapturable;
            if nu.contains(sq(m.from)) {
                nu.clear(sq(m.from));
                nu.set(sq(m.to));
            }
            if let Some((cs, cp)) = captured {
                let n = self.n_ghosts as usize;
                if n < MAX_GHOSTS {
                    self.ghosts[n] = (cs, cp);
                    self.n_ghosts += 1;
                    e.ghost_pushed = true;
                }
            }
            // The latest ghost under the departure square comes back there.
            let n = self.n_ghosts as usize;
            if let Some(i) = (0..n).rev().find(|&i| self.ghosts[i].0 == m.from) {
                let (g, gp) = self.ghosts[i];
                self.ghosts.copy_within(i + 1..n, i);
                self.n_ghosts -= 1;
                self.add(g, gp);
                nu.set(sq(g));
                e.ghost_summoned = Some((i as u8, g, gp));
            }
            self.uncapturable = nu;
        }
        if self.bul.any() {
            let mut nb = self.bul;
            let mut nd = self.dob;
            if let Some((cs, _)) = captured {
                nb.clear(sq(cs));
                nd.clear(sq(cs));
            }
            if nd.contains(sq(m.from)) {
                nd.clear(sq(m.from));
                nd.set(sq(m.to));
            }
            if nb.contains(sq(m.from)) {
                nb.clear(sq(m.from));
                nb.set(sq(m.to));
                if m.extra != NO_EXTRA {
                    let h = hurdle_square(m.from, m.to);
                    let hp = self.squares[h as usize].expect("hurdle");
                    self.remove(h, hp);
                    let kind = if let Special::HurdlePromote(k) = m.special { k } else { hp.kind };
                    self.add(m.extra, Piece { color: hp.color, kind });
                    e.hurdle = Some((h, m.extra, hp));
                    self.castling &= !(castle_bits(h) | castle_bits(m.extra));
                    if nb.contains(sq(h)) {
                        nb.clear(sq(h));
                        nb.set(sq(m.extra));
                    }
                    if nd.contains(sq(h)) {
                        nd.clear(sq(h));
                        nd.set(sq(m.extra));
                    }
                }
            }
            self.bul = nb;
            self.dob = nd;
        }
        if self.breton && m.extra != NO_EXTRA {
            let r = self.squares[m.extra as usize].expect("Breton victim");
            self.remove(m.extra, r);
            e.breton = Some((m.extra, r));
            self.castling &= !castle_bits(m.extra);
        }
        if self.andernach && captured.is_some() && placed.kind != walk::KING {
            let now = self.squares[m.to as usize].expect("capturing piece");
            self.remove(m.to, now);
            self.add(m.to, Piece { color: !now.color, kind: now.kind });
            e.side_changed = true;
        }
        if self.chameleon_pursuit {
            if m.to == self.last_from && placed.kind != walk::KING {
                self.remove(m.to, placed);
                self.add(m.to, Piece { color: !placed.color, kind: placed.kind });
                e.side_changed = true;
            }
            self.last_from = m.from;
        }
        if self.bgl.on {
            let cost = bgl_cost(m.from, m.to);
            if self.bgl.global {
                for v in &mut self.bgl.left {
                    *v = bgl_pay(*v, cost);
                }
            } else {
                let v = &mut self.bgl.left[placed.color.index()];
                *v = bgl_pay(*v, cost);
            }
        }
        e
    }

    /// Takes back [`Board::make_ext`] (before the move proper is taken back).
    #[inline(never)]
    pub(crate) fn unmake_ext(&mut self, m: Move, e: Effects) {
        if self.exchange_castling && matches!(m.special, Special::Castle { .. }) {
            // (`unmake` has given the move back to the mover's side; the side had not exchanged.)
            self.exchange_used &= !(1 << self.side.index());
        }
        if self.back_home {
            self.home[m.to as usize] = NO_EXTRA;
            if let Special::Castle { rook_from, rook_to } = m.special {
                self.home[rook_to as usize] = NO_EXTRA;
                self.home[rook_from as usize] = e.home_rook;
            }
            self.home[m.from as usize] = e.home_moved;
            let cs = match m.special {
                Special::EnPassant { cap }
                | Special::EnPassantRebirthPromote { cap, .. }
                | Special::Locust { cap }
                | Special::TakeMakePromote { cap, .. } => Some(cap),
                Special::Castle { .. } => None,
                _ => (e.home_captured != NO_EXTRA).then_some(m.to),
            };
            if let Some(c) = cs {
                self.home[c as usize] = e.home_captured;
            }
        }
        if self.imitators.n > 0 {
            if m.extra == IMITATOR_PROMOTION {
                // (`unmake` has given the move back to the mover's side.)
                let q = Piece { color: self.side, kind: walk::QUEEN };
                self.add(m.to, q);
            }
            self.imitators = e.imitators;
        }
        if self.ghost_chess {
            if let Some((i, g, gp)) = e.ghost_summoned {
                self.remove(g, gp);
                let (i, n) = (i as usize, self.n_ghosts as usize);
                self.ghosts.copy_within(i..n, i + 1);
                self.ghosts[i] = (g, gp);
                self.n_ghosts += 1;
            }
            if e.ghost_pushed {
                self.n_ghosts -= 1;
            }
            self.uncapturable = e.uncapturable;
        }
        if self.parrain {
            if let Some((r, q)) = e.parrain_reborn {
                self.remove(r, q);
            }
            self.parrain_pending = e.parrain_before;
        }
        if let Some((r, placed)) = e.anti {
            let q = self.squares[r as usize].expect("reborn capturer");
            self.remove(r, q);
            self.add(m.to, placed);
        }
        self.bul = e.bul;
        self.dob = e.dob;
        self.neutral = e.neutral;
        if let Some((h, t2, hp)) = e.hurdle {
            let q = self.squares[t2 as usize].expect("moved hurdle");
            self.remove(t2, q);
            self.add(h, hp);
        }
        if let Some((r, rp)) = e.breton {
            self.add(r, rp);
        }
        self.bgl.left = e.bgl_left;
        self.last_from = e.last_from;
        self.all_in_forbidden = e.all_in_forbidden;
        self.all_in_last_double = e.all_in_last_double;
        if let Some(placed) = e.frankfurt_placed {
            let now = self.squares[m.to as usize].expect("capturing piece");
            self.remove(m.to, now);
            self.add(m.to, placed);
        }
        if let Some(k) = e.royal_before {
            // (`unmake` has given the move back to the mover's side.)
            self.royal_walk[self.side.index()] = k;
        }
        if e.side_changed {
            let q = self.squares[m.to as usize].expect("piece that changed sides");
            self.remove(m.to, q);
            self.add(m.to, Piece { color: !q.color, kind: q.kind });
        }
    }

    /// The condition effects of the move `u` was returned for, while it is the last move made
    /// (Breton removal, Bul hurdle move, AntiCirce rebirth, ghost, side change).
    pub fn effects(&self, u: &Undo) -> Effects {
        if u.ext {
            self.ext_undo.last().copied().unwrap_or_default()
        } else {
            Effects::default()
        }
    }
}
