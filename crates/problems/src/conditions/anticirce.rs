//! AntiCirce (Calvet, Cheylan, Super, Cage): the capturing piece is reborn.

use mysl_core::Color;

use super::drop_marked;
use crate::board::{rebirth_square, sq, Board, Move, Piece, Special, NO_EXTRA};
use crate::walk::{self, Kind, KindSet};

/// AntiCirce: after a capture the capturing piece (kings too: Popeye's default Rex inclusive)
/// is reborn, as it stands on the capture square (a pawn that captured onto its last rank as the
/// promoted piece).
///
/// * Plain AntiCirce (`Calvet`, `Cheylan`): on its own Circe rebirth square ([`rebirth_square`]
///   of the capturing piece and the capture square; Popeye's `rennormal` for the capturer's
///   side). The capture is illegal if that square is occupied after the capture (Popeye's
///   default "strict"); the departure square and the captured piece's square are empty then,
///   and Calvet (default) counts the capture square as empty (the piece stays where it
///   captured), Cheylan forbids a rebirth on the capture square. A king is in check only if
///   such a capture of it would be legal (Popeye's observation validator playing the capture).
/// * AntiCirce Super (AntiSuperCirce): on any square empty after the capture, the mover's
///   choice; Calvet: the capture square counts as empty, Cheylan: it does not. A pawn reborn on
///   its last rank promotes. A capture of the king always has a rebirth square, so checks are
///   the plain attacks.
/// * AntiCirce Cage (Calvet): on any square empty after the capture (the capture square
///   included) that is a cage for the reborn piece, the mover's choice: there the piece, after
///   the whole move, has no legal non-capturing move ([`Board::anticirce_caged`]). A pawn
///   reborn on its last rank promotes (the promoted piece must be caged). No cage: the capture
///   is illegal (strict). A king is in check only if its capture could be played so, i.e. some
///   square would be a cage for the capturer (Popeye's `conditions/circe/cage.c` with the Super
///   rebirth squares of `conditions/circe/super.c`, checks validated by playing the capture as
///   `conditions/anticirce/anticirce.c` does for all but Super).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AntiCirce {
    #[default]
    Off,
    Calvet,
    Cheylan,
    // Next to the plain ones: `checks_by_capture` is one range test.
    Cage,
    SuperCalvet,
    SuperCheylan,
}

impl AntiCirce {
    /// Plain AntiCirce (rebirth on the Circe square; checks depend on it)?
    #[inline(always)]
    pub fn plain(self) -> bool {
        matches!(self, AntiCirce::Calvet | AntiCirce::Cheylan)
    }

    /// Is a check a capture of the king that must be playable (plain AntiCirce: a free rebirth
    /// square, Cage: a cage)? AntiCirce Super's checks are the plain attacks.
    #[inline(always)]
    pub fn checks_by_capture(self) -> bool {
        matches!(self, AntiCirce::Calvet | AntiCirce::Cheylan | AntiCirce::Cage)
    }

    /// Popeye's name in twin headers.
    pub fn name(self) -> &'static str {
        match self {
            AntiCirce::Off => "",
            AntiCirce::Calvet => "AntiCirce",
            AntiCirce::Cheylan => "AntiCirce Cheylan",
            AntiCirce::SuperCalvet => "AntiCirce Super",
            AntiCirce::SuperCheylan => "AntiCirce Cheylan Super",
            AntiCirce::Cage => "AntiCirce Cage",
        }
    }
}

impl Board {
    /// Plain AntiCirce: could the piece `p` on `f` capture on `s` (a plain capture, no en passant)
    /// and be reborn? Its rebirth square must be empty after the capture: `f` is, `s` is under
    /// Calvet but not under Cheylan. A pawn capturing onto its last rank may be reborn as any
    /// kind it can promote to.
    pub(crate) fn anticirce_capture_legal(&self, f: u8, p: Piece, s: u8) -> bool {
        let free = |r: u8| {
            if r == s {
                self.anticirce == AntiCirce::Calvet
            } else {
                r == f || self.squares[r as usize].is_none()
            }
        };
        let last = if p.color == Color::White { 7 } else { 0 };
        if p.kind == walk::PAWN && s / 8 == last {
            let mut kinds = self.promotion_fairies;
            for k in walk::PROMOTIONS {
                kinds |= 1 << k;
            }
            while kinds != 0 {
                let k = kinds.trailing_zeros() as Kind;
                kinds &= kinds - 1;
                if free(rebirth_square(Piece { color: p.color, kind: k }, s)) {
                    return true;
                }
            }
            return false;
        }
        free(rebirth_square(p, s))
    }

    /// AntiCirce Cage: could the piece `p` on `f` capture on `s` (a plain capture, as a check is
    /// one) and be reborn in a cage? After the capture `f` and `s` are empty (Calvet: the
    /// capturer may be reborn where it captured); a pawn capturing onto its last rank is reborn
    /// as any kind it promotes to, a pawn reborn on its last rank promotes. The capture is legal
    /// if some empty square is a cage for the reborn piece ([`Board::anticirce_caged`]); the
    /// capturer's own king does not matter (a check is a check even from a pinned piece).
    #[inline(never)]
    pub(crate) fn anticirce_cage_capture_legal(&self, f: u8, p: Piece, s: u8) -> bool {
        let mut b = self.clone();
        b.clear(f);
        b.clear(s);
        let last = if p.color == Color::White { 7 } else { 0 };
        let mut kinds: KindSet = 1 << p.kind;
        if p.kind == walk::PAWN && s / 8 == last {
            kinds = self.promotion_fairies;
            for k in walk::PROMOTIONS {
                kinds |= 1 << k;
            }
        }
        let empty = !b.occupied();
        while kinds != 0 {
            let kind = kinds.trailing_zeros() as Kind;
            kinds &= kinds - 1;
            for r in empty {
                let r = r as u8;
                let mut reborn: KindSet = 1 << kind;
                if kind == walk::PAWN && r / 8 == last {
                    reborn = self.promotion_fairies;
                    for k in walk::PROMOTIONS {
                        reborn |= 1 << k;
                    }
                }
                while reborn != 0 {
                    let k = reborn.trailing_zeros() as Kind;
                    reborn &= reborn - 1;
                    b.put(r, Piece { color: p.color, kind: k });
                    let caged = b.anticirce_caged(r);
                    b.clear(r);
                    if caged {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// AntiCirce Cage: is the piece on `r` caged, i.e. without a legal non-capturing move (its
    /// side's king not in check after it, checks as AntiCirce Cage has them)? Popeye's
    /// `circe_cage_cage_tester_solve` with its non-capturing-move finder (captures are not
    /// looked at). The side to move, en passant and castling rights are as they were after.
    /// The recursion ends: a check test plays a king capture, after which that side has no king
    /// and the nested legality test of its opponent's cage candidate finds no check.
    pub fn anticirce_caged(&mut self, r: u8) -> bool {
        let p = self.squares[r as usize].expect("reborn piece");
        let c = p.color;
        let (side, castling) = (self.side, self.castling);
        self.side = c;
        self.castling = 0;
        let mut moves = Vec::new();
        let theirs = self.color_bb(!c);
        let occ = self.occupied() | self.holes;
        let blocked = self.color_bb(c) | self.holes;
        self.piece_moves_plain(sq(r), c, theirs, occ, blocked, &mut moves);
        let mut caged = true;
        for m in moves {
            if m.from != r || self.is_capture(m) {
                continue;
            }
            let u = self.make(m);
            let legal = !self.in_check(c);
            self.unmake(m, u);
            if legal {
                caged = false;
                break;
            }
        }
        self.side = side;
        self.castling = castling;
        caged
    }

    /// AntiCirce Super: each capture among `out[start..]` becomes one move per rebirth square of
    /// the capturing piece (as it stands after the move, promoted if the capture promoted): any
    /// square empty after the capture, the capture square included (Calvet) or not (Cheylan); a
    /// pawn reborn on its last rank promotes (one move per kind).
    pub(crate) fn anticirce_choices(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let end = out.len();
        let occ = self.occupied();
        for i in start..end {
            let m = out[i];
            let cap = match m.special {
                Special::EnPassant { cap } | Special::Locust { cap } => cap,
                Special::Castle { .. } => continue,
                _ if self.squares[m.to as usize].is_some() => m.to,
                _ => continue,
            };
            let mover = self.squares[m.from as usize].expect("moving piece");
            let placed = if let Special::Promote(k) = m.special { k } else { mover.kind };
            // Empty after the capture: `from`, the captured piece's square, and (Calvet) the
            // capture square where the capturer stands.
            let mut empty = !occ;
            empty.set(sq(m.from));
            empty.set(sq(cap));
            empty.set(sq(m.to));
            if matches!(self.anticirce, AntiCirce::SuperCheylan | AntiCirce::Cheylan) {
                empty.clear(sq(m.to));
            }
            if self.anticirce.plain() {
                // One rebirth square (a pawn's is on its second rank: no promotion there).
                let r = rebirth_square(Piece { color: us, kind: placed }, cap);
                if empty.contains(sq(r)) {
                    out[i].extra = r;
                } else {
                    out[i].to = out[i].from; // rebirth square occupied: illegal (marked)
                }
                continue;
            }
            let last = if us == Color::White { 7 } else { 0 };
            let mut first = true;
            for r in empty {
                let r = r as u8;
                let mut push = |special: Special| {
                    let v = Move { special, extra: r, ..m };
                    if first {
                        out[i] = v;
                        first = false;
                    } else {
                        out.push(v);
                    }
                };
                if placed == walk::PAWN && r / 8 == last {
                    let promote = |k: Kind| match m.special {
                        Special::EnPassant { cap } => Special::EnPassantRebirthPromote { cap, kind: k },
                        _ => Special::RebirthPromote(k),
                    };
                    for k in walk::PROMOTIONS {
                        push(promote(k));
                    }
                    let mut fairies = self.promotion_fairies;
                    while fairies != 0 {
                        push(promote(fairies.trailing_zeros() as Kind));
                        fairies &= fairies - 1;
                    }
                } else {
                    push(m.special);
                }
            }
            if first {
                // No rebirth square: the capture is illegal (marked, removed below).
                out[i].to = out[i].from;
            }
        }
        if self.anticirce == AntiCirce::Cage {
            self.anticirce_cage_filter(start, out);
        }
        drop_marked(out, start);
    }

    /// AntiCirce Cage: of the rebirth choices among `out[start..]`, only those that put the
    /// capturer in a cage ([`Board::anticirce_caged`], judged after the whole move) stay; the
    /// others are marked. No cage at all: the capture is illegal (Popeye's AntiCirce default
    /// "strict": no rebirth-avoiding fallback).
    #[inline(never)]
    fn anticirce_cage_filter(&self, start: usize, out: &mut [Move]) {
        let mut b: Option<Board> = None;
        for m in out[start..].iter_mut() {
            if m.extra == NO_EXTRA || m.from == m.to {
                continue;
            }
            let b = b.get_or_insert_with(|| self.clone());
            let u = b.make(*m);
            let caged = b.anticirce_caged(m.extra);
            b.unmake(*m, u);
            if !caged {
                m.to = m.from;
            }
        }
    }
}
