//! Move generation: the pseudo-legal moves of the side to move (the plain generator, pawns,
//! castling; the conditions' hook [`Board::pseudo_moves_ext`] adds their changes), legal moves by
//! "make, is my king attacked, unmake", and the goal tests.

use mysl_core::attacks;
use mysl_core::{Bitboard, Color, Square};

use super::{sq, Board, Mars, Move, Paralysis, Piece, Special, CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ, NO_EXTRA};
use crate::walk::{self, Kind, Walk, KINDS};

impl Board {
    /// Pseudo-legal moves of the side to move, appended to `out`.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        if self.neutral.any() {
            self.neutral_pseudo_moves(out);
            return;
        }
        self.pseudo_moves_base(out);
    }

    /// [`Board::pseudo_moves`] with every piece of the side to move its own, every other piece
    /// an enemy (neutral pieces as they are coloured at the time).
    pub(crate) fn pseudo_moves_base(&self, out: &mut Vec<Move>) {
        let start = out.len();
        if self.mars != Mars::Off {
            self.mars_moves(out);
        } else {
            self.pseudo_moves_plain(out);
        }
        if self.singlebox {
            self.singlebox_filter(start, out);
        }
        if self.ext_active()
            | self.danger_circe
            | self.bicaptures
            | self.cast_inverse
            | self.no_capture[self.side.index()]
        {
            self.pseudo_moves_ext(start, out);
        }
        if self.maximummer[self.side.index()] {
            self.longest_legal_only(start, out);
        }
    }

    /// Does a condition restrict the side to move to some of its legal moves (Maximummer,
    /// BackHome, NoCapture)? Then
    /// [`Board::pseudo_moves`] gives exactly the allowed moves, and generators that skip it
    /// ([`Board::checking_candidates`]) must not be used.
    pub fn restricts_moves(&self) -> bool {
        self.maximummer[self.side.index()] | self.back_home | self.no_capture[self.side.index()] | self.take_make
    }

    pub(crate) fn pseudo_moves_plain(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let own = self.color_bb(us);
        let theirs = self.color_bb(!us);
        // Holes block lines and are no targets.
        let occ = own | theirs | self.holes;
        let blocked = own | self.holes;
        for from in own {
            self.piece_moves_plain(from, us, theirs, occ, blocked, out);
        }
        self.castling_moves(out);
    }

    /// The plain pseudo-legal moves of the piece of `us` on `from` (no castling), appended to
    /// `out`; `occ` and `blocked` as in [`Board::pseudo_moves_plain`].
    #[inline(always)]
    pub(crate) fn piece_moves_plain(
        &self,
        from: Square,
        us: Color,
        theirs: Bitboard,
        occ: Bitboard,
        blocked: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let f = from as u8;
        let p = self.squares[f as usize].expect("bitboard and mailbox agree");
        if self.paralysis == Paralysis::Madrasi && self.observed_by_same_walk(f) {
            return; // paralysed
        }
        if p.kind == walk::KING && self.pepo && self.attacked(f, !us) {
            return; // Pepo: an attacked king is paralysed
        }
        if p.kind == walk::KING && self.frankfurt && self.royal_walk[us.index()] != walk::KING {
            // FrankfurtChess: the royal piece moves by its walk (a pawn's without promotion or
            // en passant, as TransmutedKings' kings).
            self.transmuted_king_moves(f, us, 1 << self.royal_walk[us.index()], out);
            return;
        }
        if p.kind == walk::KING && self.transmuted_kings {
            let t = self.transmutations(us);
            if t != 0 {
                self.transmuted_king_moves(f, us, t, out);
                return;
            }
        }
        if self.annan {
            let w = self.annan_walker(f, p);
            if w.kind != p.kind {
                self.annan_moves(f, p, w.kind, occ, out);
                return;
            }
        }
        let targets = match KINDS[p.kind as usize].walk {
            Walk::King => attacks::king_attacks(from),
            Walk::Queen => attacks::queen_attacks(from, occ),
            Walk::Rook => attacks::rook_attacks(from, occ),
            Walk::Bishop => attacks::bishop_attacks(from, occ),
            Walk::Knight => attacks::knight_attacks(from),
            Walk::Pawn => {
                self.pawn_moves(f, us, theirs, occ, out);
                return;
            }
            Walk::Locust(v) => {
                self.locust_moves(f, us, v, out);
                return;
            }
            Walk::Orphan => {
                self.orphan_moves(f, us, out);
                return;
            }
            Walk::BerolinaPawn => {
                self.berolina_moves(f, us, theirs, occ, out);
                return;
            }
            _ => self.fairy_targets(f, p.kind, us),
        } & !blocked;
        for to in targets {
            out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
        }
    }

    /// CavalierMajeur's set-up: every knight becomes a nightrider, which pawns then promote to
    /// (among the fairy promotions, in place of the knight).
    pub fn cavalier_majeur_setup(&mut self) {
        for c in [Color::White, Color::Black] {
            for s in self.kind_bb(c, walk::KNIGHT) {
                self.put(s as u8, Piece { color: c, kind: walk::NIGHTRIDER });
            }
        }
        self.promotion_fairies |= 1 << walk::NIGHTRIDER;
    }

    /// Does the pseudo-legal move `m` capture?
    pub(crate) fn is_capture(&self, m: Move) -> bool {
        match m.special {
            Special::EnPassant { .. }
            | Special::EnPassantRebirthPromote { .. }
            | Special::Locust { .. }
            | Special::TakeMakePromote { .. } => true,
            Special::Castle { .. } => false,
            _ => self.squares[m.to as usize].is_some(),
        }
    }

    /// Pawn moves of a piece that only borrows the pawn's walk (an orphan, ...): no promotion (one move
    /// per arrival square) and no en-passant right.
    /// On its own first rank (only an orphan gets there: Annan's borrower stands in front of
    /// its pawn) it steps one square and captures, as Popeye's `pawn_get_no_capture_length`
    /// lets a "pawned" orphan do.
    pub(crate) fn borrowed_pawn_moves(&self, f: u8, us: Color, theirs: Bitboard, occ: Bitboard, out: &mut Vec<Move>) {
        let start = out.len();
        let first = if us == Color::White { 0 } else { 7 };
        if f / 8 == first {
            let one = if us == Color::White { f + 8 } else { f - 8 };
            if !occ.contains(sq(one)) {
                out.push(Move { from: f, to: one, special: Special::None, extra: NO_EXTRA });
            }
            for to in attacks::pawn_attacks(us, sq(f)) & theirs {
                out.push(Move { from: f, to: to as u8, special: Special::None, extra: NO_EXTRA });
            }
            return;
        }
        self.pawn_moves(f, us, theirs, occ, out);
        let mut w = start;
        for i in start..out.len() {
            let mut m = out[i];
            match m.special {
                Special::Promote(k) if k != walk::PROMOTIONS[0] => continue,
                Special::Promote(_) | Special::Double => m.special = Special::None,
                _ => {}
            }
            out[w] = m;
            w += 1;
        }
        out.truncate(w);
    }

    /// A pawn walk's move from `f` to `to` (`last`: its last rank): there every promotion (the
    /// orthodox kinds, then the fairy kinds present), else the move with `special`.
    #[inline(always)]
    pub(crate) fn push_pawn_move(&self, f: u8, to: u8, last: u8, special: Special, out: &mut Vec<Move>) {
        if to / 8 == last {
            for k in walk::PROMOTIONS {
                if k == walk::KNIGHT && self.cavalier_majeur {
                    continue;
                }
                out.push(Move { from: f, to, special: Special::Promote(k), extra: NO_EXTRA });
            }
            let mut fairies = self.promotion_fairies;
            while fairies != 0 {
                let k = fairies.trailing_zeros() as Kind;
                fairies &= fairies - 1;
                out.push(Move { from: f, to, special: Special::Promote(k), extra: NO_EXTRA });
            }
        } else {
            out.push(Move { from: f, to, special, extra: NO_EXTRA });
        }
    }

    /// Is the piece on `cap` one that `us` may take en passant: the double-stepped enemy pawn,
    /// orthodox or Berolina (Popeye's `en_passant_find_potential`)?
    #[inline(always)]
    pub(crate) fn ep_victim(&self, cap: u8, us: Color) -> bool {
        matches!(self.squares[cap as usize],
            Some(q) if q.color == !us && (q.kind == walk::PAWN || q.kind == walk::BEROLINA_PAWN))
    }

    pub(crate) fn pawn_moves(&self, f: u8, us: Color, theirs: Bitboard, occ: Bitboard, out: &mut Vec<Move>) {
        let rank = f / 8;
        let (dir, start, last): (i8, u8, u8) = if us == Color::White { (8, 1, 7) } else { (-8, 6, 0) };
        let push = |out: &mut Vec<Move>, to: u8, double: bool| {
            self.push_pawn_move(f, to, last, if double { Special::Double } else { Special::None }, out)
        };
        // Pawns on their own first rank cannot move (Popeye allows them only with fairy conditions).
        // Circe Parrain: a pawn reborn on its first rank steps one square (Popeye's
        // `pawn_get_no_capture_length`).
        let first = (us == Color::White && rank == 0) || (us == Color::Black && rank == 7);
        if rank == last || (first && !self.parrain) {
            return;
        }
        let one = (f as i8 + dir) as u8;
        if !occ.contains(sq(one)) {
            push(out, one, false);
            if rank == start {
                let two = (one as i8 + dir) as u8;
                if !occ.contains(sq(two)) {
                    push(out, two, true);
                }
            }
        }
        for to in attacks::pawn_attacks(us, sq(f)) {
            let t = to as u8;
            if theirs.contains(to) {
                push(out, t, false);
            } else if let Some((ep_to, cap)) = self.ep {
                if ep_to == t && self.ep_victim(cap, us) && !occ.contains(sq(ep_to)) {
                    out.push(Move { from: f, to: t, special: Special::EnPassant { cap }, extra: NO_EXTRA });
                }
            }
        }
    }

    pub(crate) fn castling_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let (k_side, q_side, base) =
            if us == Color::White { (CASTLE_WK, CASTLE_WQ, 0u8) } else { (CASTLE_BK, CASTLE_BQ, 56u8) };
        if self.effective_castling() & (k_side | q_side) == 0 {
            return;
        }
        let occ = self.occupied();
        let king = base + 4;
        // Circe RexInclusive: "attacked" means "in check there" (Popeye plays the king's step to
        // the square passed and tests its legality); with the king off e1 (e8), a square passed
        // is never in check when the king's rebirth square is that one.
        let attacked =
            |s: u8| if self.circe_rex { self.rex_circe_passing_checked(s, king, us) } else { self.attacked(s, !us) };
        if self.piece_at(king) != Some(Piece { color: us, kind: walk::KING }) || attacked(king) {
            return;
        }
        if self.castling & k_side != 0
            && !occ.contains(sq(base + 5))
            && !occ.contains(sq(base + 6))
            && !attacked(base + 5)
        {
            out.push(Move {
                from: king,
                to: base + 6,
                special: Special::Castle { rook_from: base + 7, rook_to: base + 5 },
                extra: NO_EXTRA,
            });
        }
        if self.castling & q_side != 0
            && !occ.contains(sq(base + 3))
            && !occ.contains(sq(base + 2))
            && !occ.contains(sq(base + 1))
            && !attacked(base + 3)
        {
            out.push(Move {
                from: king,
                to: base + 2,
                special: Special::Castle { rook_from: base, rook_to: base + 3 },
                extra: NO_EXTRA,
            });
        }
    }

    /// Legal moves of the side to move.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut pseudo = Vec::with_capacity(64);
        self.pseudo_moves(&mut pseudo);
        let us = self.side;
        pseudo.retain(|&m| {
            let u = self.make(m);
            let ok = !self.in_check(us);
            self.unmake(m, u);
            ok
        });
        pseudo
    }

    /// Does the side to move have at least one legal move?
    pub fn has_legal_move(&mut self) -> bool {
        thread_local! {
            // The goal test of every leaf asks this: one buffer per thread instead of an
            // allocation per call (taken out while in use, so a nested call gets its own).
            static BUF: std::cell::Cell<Vec<Move>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let mut pseudo = BUF.take();
        pseudo.clear();
        self.pseudo_moves(&mut pseudo);
        let found = self.any_legal(&pseudo);
        BUF.set(pseudo);
        found
    }

    /// Is the side to move mated?
    pub fn is_mate(&mut self) -> bool {
        if !self.in_check(self.side) {
            return false;
        }
        match (self.evasion_targets(), self.king_square(self.side)) {
            (Some(targets), Some(ksq)) => !self.has_legal_evasion(targets, ksq),
            _ => !self.has_legal_move(),
        }
    }

    /// [`Board::has_legal_move`] for the side to move in check under orthodox rules, with the
    /// squares of [`Board::evasion_targets`]: the king's moves first (the likeliest escapes),
    /// then only the moves that capture the checker or block it are played out.
    fn has_legal_evasion(&mut self, targets: Bitboard, ksq: u8) -> bool {
        thread_local! {
            static BUF: std::cell::Cell<Vec<Move>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let mut moves = BUF.take();
        let mut found = false;
        // The king's moves first, and the others generated only if none of them is legal.
        for king in [true, false] {
            moves.clear();
            if king {
                self.king_evasion_candidates(ksq, &mut moves);
            } else {
                self.other_evasion_candidates(targets, ksq, &mut moves);
            }
            found = self.any_legal(&moves);
            if found {
                break;
            }
        }
        BUF.set(moves);
        found
    }

    /// The side to move in check under orthodox rules, `targets` from [`Board::evasion_targets`],
    /// its king on `ksq`: the pseudo-legal moves that may be legal, appended to `out`: the
    /// king's first (the likeliest escapes), then the other pieces' moves that land on `targets`
    /// (a pawn's also by en passant). Every legal move of [`Board::pseudo_moves`] is among them
    /// ([`Board::evasion_targets`] says why); castling is never legal in check.
    pub fn evasion_candidates(&self, targets: Bitboard, ksq: u8, out: &mut Vec<Move>) {
        self.king_evasion_candidates(ksq, out);
        self.other_evasion_candidates(targets, ksq, out);
    }

    /// The king's part of [`Board::evasion_candidates`].
    fn king_evasion_candidates(&self, ksq: u8, out: &mut Vec<Move>) {
        let us = self.side;
        let own = self.color_bb(us);
        self.piece_moves_plain(sq(ksq), us, self.color_bb(!us), own | self.color_bb(!us), own, out);
    }

    /// The other pieces' part of [`Board::evasion_candidates`].
    fn other_evasion_candidates(&self, targets: Bitboard, ksq: u8, out: &mut Vec<Move>) {
        if targets.is_empty() {
            return;
        }
        let us = self.side;
        let own = self.color_bb(us);
        let theirs = self.color_bb(!us);
        let occ = own | theirs;
        let start = out.len();
        // A pawn whose steps and captures all miss the targets has no candidate (en passant:
        // its victim, the checker, is a target square's neighbour; such pawns are kept).
        let pawns = self.kind_bb(us, walk::PAWN);
        let ep = self.ep.is_some();
        // `blocked` limits the arrivals of every walk but the pawn's (filtered below).
        for from in own & !Bitboard::from_square(sq(ksq)) {
            if !ep && pawns.contains(from) && (pawn_reach(us, from) & targets).is_empty() {
                continue;
            }
            self.piece_moves_plain(from, us, theirs, occ, own | !targets, out);
        }
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            if targets.contains(sq(m.to)) || matches!(m.special, Special::EnPassant { .. }) {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }

    /// Is one of the pseudo-legal `moves` of the side to move legal?
    fn any_legal(&mut self, moves: &[Move]) -> bool {
        let us = self.side;
        moves.iter().any(|&m| {
            let u = self.make(m);
            let legal = !self.in_check(us);
            self.unmake(m, u);
            legal
        })
    }

    /// Is the side to move stalemated?
    pub fn is_stalemate(&mut self) -> bool {
        !self.in_check(self.side) && !self.has_legal_move()
    }

    /// Are both sides stalemated (the side to move and, were it to move, the other side)?
    pub fn is_double_stalemate(&mut self) -> bool {
        if !self.is_stalemate() {
            return false;
        }
        let ep = self.make_null();
        let other = self.is_stalemate();
        self.unmake_null(ep);
        other
    }
}

/// The squares a pawn of `us` on `from` can step to (one or two squares ahead) or capture on.
fn pawn_reach(us: Color, from: Square) -> Bitboard {
    let f = from as i32;
    let ahead = if us == Color::White { f + 8 } else { f - 8 };
    let mut reach = attacks::pawn_attacks(us, from);
    if (0..64).contains(&ahead) {
        reach |= Bitboard::from_square(Square::from_index(ahead as u32));
        let two = if us == Color::White { f + 16 } else { f - 16 };
        if (0..64).contains(&two) {
            reach |= Bitboard::from_square(Square::from_index(two as u32));
        }
    }
    reach
}
