//! Conditions on kings and checks: Pepo (checks by two pieces, an attacked king is paralysed),
//! ChecklessChess (a check must mate) and TransmutedKings (an attacked king moves as its
//! attackers).

use mysl_core::attacks;
use mysl_core::{Bitboard, Color};

use crate::board::{offset, sq, Board, Move, Piece, Special, NO_EXTRA};
use crate::walk::{self, Kind, KindSet, Walk, KINDS};

/// ChecklessChess: the mate test of a checking move asks whether the checked side has a legal
/// reply, and a reply that checks back asks the same of the other side. Popeye stops such nested
/// tests at its ply limit and then takes the move as illegal (its "undecidable" case); we stop
/// after this many nested tests.
pub const CHECKLESS_MAX_DEPTH: u8 = 24;

impl Board {
    /// TransmutedKings: the kinds of the pieces of `!c` that attack the king of `c` (plain
    /// attacks), as a bit set (bit k for kind k); 0 without a king.
    pub fn transmutations(&self, c: Color) -> KindSet {
        let Some(k) = self.king_square(c) else { return 0 };
        let mut set: KindSet = 0;
        for f in self.color_bb(!c) {
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            if set & (1 << p.kind) == 0 && self.piece_attacks(f as u8, p, k) {
                set |= 1 << p.kind;
            }
        }
        set
    }

    /// TransmutedKings: does the king of `c` on `f` attack `s`?
    pub(crate) fn transmuted_king_attacks(&self, f: u8, c: Color, s: u8) -> bool {
        let mut t = self.transmutations(c);
        if t == 0 {
            return attacks::king_attacks(sq(f)).contains(sq(s));
        }
        while t != 0 {
            let kind = t.trailing_zeros() as Kind;
            t &= t - 1;
            if self.piece_attacks(f, Piece { color: c, kind }, s) {
                return true;
            }
        }
        false
    }

    /// TransmutedKings: the king's moves on `f` as pieces of the kinds in `t` (its own colour's
    /// pawn for a pawn: one or, from its second rank, two squares forward, diagonal captures;
    /// no promotion, no en passant).
    pub(crate) fn transmuted_king_moves(&self, f: u8, us: Color, mut t: KindSet, out: &mut Vec<Move>) {
        let own = self.color_bb(us);
        let occ = self.occupied();
        let mut targets = Bitboard(0);
        while t != 0 {
            let kind = t.trailing_zeros() as Kind;
            t &= t - 1;
            let from = sq(f);
            targets |= match KINDS[kind as usize].walk {
                Walk::King => attacks::king_attacks(from),
                Walk::Queen => attacks::queen_attacks(from, occ),
                Walk::Rook => attacks::rook_attacks(from, occ),
                Walk::Bishop => attacks::bishop_attacks(from, occ),
                Walk::Knight => attacks::knight_attacks(from),
                Walk::Pawn => {
                    let mut b = attacks::pawn_attacks(us, from) & self.color_bb(!us);
                    let (dir, start): (i8, u8) = if us == Color::White { (1, 1) } else { (-1, 6) };
                    if let Some(one) = offset(f, (0, dir)) {
                        if !occ.contains(sq(one)) {
                            b.set(sq(one));
                            if f / 8 == start {
                                if let Some(two) = offset(one, (0, dir)) {
                                    if !occ.contains(sq(two)) {
                                        b.set(sq(two));
                                    }
                                }
                            }
                        }
                    }
                    b
                }
                _ => self.fairy_targets(f, kind, us),
            };
        }
        for to in targets & !(own | self.holes) {
            out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
        }
    }

    /// ChecklessChess, after a move (the side to move did not make it): does the move check the
    /// side to move without mating it? Past [`CHECKLESS_MAX_DEPTH`] nested tests: yes.
    #[inline(never)]
    pub(crate) fn checkless_illegal(&self) -> bool {
        if !self.in_check(self.side) {
            return false;
        }
        if self.checkless_depth >= CHECKLESS_MAX_DEPTH {
            return true;
        }
        let mut b = self.clone();
        b.checkless_depth += 1;
        b.has_legal_move()
    }

    /// Pepo: how many pieces of colour `by` other than the king attack `s` (counting stops at 2).
    pub(crate) fn pepo_attackers(&self, s: u8, by: Color) -> u32 {
        let mut n = 0;
        for f in self.color_bb(by) {
            let p = self.squares[f as usize].expect("bitboard and mailbox agree");
            if p.kind != walk::KING && self.piece_attacks(f as u8, p, s) {
                n += 1;
                if n == 2 {
                    break;
                }
            }
        }
        n
    }
}
