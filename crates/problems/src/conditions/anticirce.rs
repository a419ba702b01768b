//! AntiCirce (Calvet, Cheylan, Super, Cage): the capturing piece is reborn.

use mysl_core::{attacks, Color};

use super::drop_marked;
use crate::board::{rebirth_square, sq, Board, Move, Paralysis, Piece, Special, NO_EXTRA};
use crate::walk::{self, Kind, KindSet, Walk, KINDS};

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
        // Room for the cage tests' make/unmake: a clone's stack is full, so each push reallocated.
        b.ext_undo.reserve(4);
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
    /// and the nested legality test of its opponent's cage candidate finds no check. That nested
    /// test is most of the work (a capture test asks it for every empty square), so a side
    /// without a king is answered from the piece's reach without playing a move.
    pub fn anticirce_caged(&mut self, r: u8) -> bool {
        let p = self.squares[r as usize].expect("reborn piece");
        let c = p.color;
        // A side without a king is never in check under the rules that ask only for its king
        // (not Pepo, Circe Rex inclusive, ChecklessChess, Isardam, neutral pieces): then any
        // non-capturing move is legal and nothing need be played. That is the common case: a
        // check test captures the king, and the cage test of the capturer's opponent follows.
        let never_in_check = self.king_square(c).is_none()
            && !(self.pepo | self.circe_rex | self.checkless | self.neutral.any())
            && self.paralysis != Paralysis::Isardam;
        if never_in_check && self.paralysis == Paralysis::Off && !self.annan && !self.transmuted_kings {
            // An orthodox walk then has a non-capturing move iff a square it reaches is empty.
            let (from, occ) = (sq(r), self.occupied() | self.holes);
            let reach = match KINDS[p.kind as usize].walk {
                Walk::King => Some(attacks::king_attacks(from)),
                Walk::Queen => Some(attacks::queen_attacks(from, occ)),
                Walk::Rook => Some(attacks::rook_attacks(from, occ)),
                Walk::Bishop => Some(attacks::bishop_attacks(from, occ)),
                Walk::Knight => Some(attacks::knight_attacks(from)),
                _ => None,
            };
            if let Some(reach) = reach {
                return (reach & !occ).is_empty();
            }
        }
        self.anticirce_caged_by_play(r, never_in_check)
    }

    /// [`Board::anticirce_caged`] by generating the piece's moves and playing each non-capturing
    /// one (none when `never_in_check`: the first is legal).
    fn anticirce_caged_by_play(&mut self, r: u8, never_in_check: bool) -> bool {
        thread_local! {
            // Asked tens of times per capture test: one buffer per thread (taken out while in
            // use, so a nested test gets its own) instead of an allocation per call.
            static BUF: std::cell::Cell<Vec<Move>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let c = self.squares[r as usize].expect("reborn piece").color;
        let (side, castling) = (self.side, self.castling);
        self.side = c;
        self.castling = 0;
        let mut moves = BUF.take();
        moves.clear();
        let theirs = self.color_bb(!c);
        let occ = self.occupied() | self.holes;
        let blocked = self.color_bb(c) | self.holes;
        self.piece_moves_plain(sq(r), c, theirs, occ, blocked, &mut moves);
        let mut caged = true;
        for &m in &moves {
            if m.from != r || self.is_capture(m) {
                continue;
            }
            if never_in_check {
                caged = false;
                break;
            }
            let u = self.make(m);
            let legal = !self.in_check(c);
            self.unmake(m, u);
            if legal {
                caged = false;
                break;
            }
        }
        BUF.set(moves);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conditions::Conditions;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, rng_seed: proptest::test_runner::RngSeed::Fixed(24), ..ProptestConfig::default() })]
        /// The cage test's shortcut for a side without a king (an orthodox piece is caged iff no
        /// square it reaches is empty) agrees with playing the piece's moves.
        #[test]
        fn kingless_cage_shortcut_agrees_with_playing_the_moves(
            pieces in proptest::collection::vec((0u8..64, 0u8..6, any::<bool>()), 2..40),
            white_king in proptest::option::of(0u8..64),
        ) {
            let mut b = Board::empty();
            b.set_conditions(&Conditions { anticirce: AntiCirce::Cage, ..Conditions::NONE });
            for &(s, kind, white) in &pieces {
                // Black has no king; White may have one (its pieces then take the slow path).
                let kind = if kind == walk::KING { walk::QUEEN } else { kind };
                let color = if white { Color::White } else { Color::Black };
                if kind == walk::PAWN && (s / 8 == 0 || s / 8 == 7) {
                    continue;
                }
                b.put(s, Piece { color, kind });
            }
            if let Some(k) = white_king {
                b.put(k, Piece { color: Color::White, kind: walk::KING });
            }
            for r in 0..64u8 {
                if b.piece_at(r).is_some_and(|p| p.kind != walk::KING) {
                    let never = b.piece_at(r).is_some_and(|p| p.color == Color::Black);
                    let fast = b.anticirce_caged(r);
                    let played = b.clone().anticirce_caged_by_play(r, false);
                    prop_assert_eq!(fast, played, "square {} never_in_check {}", r, never);
                }
            }
        }
    }
}
