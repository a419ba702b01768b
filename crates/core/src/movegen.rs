//! Legal move generation.
//!
//! One generator, generic over a [`MoveSink`]: the list sink expands moves, the counting sink only adds
//! popcounts, so perft's last ply costs no move objects at all. Pins and checks come from the
//! position's cache; king moves test the destination with the king removed from the board.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::rules::{Generator, Rules, Variant, VariantState};
use crate::types::{CastlingSide, Color, Rank, Role, Square};

/// Receives generated moves in bulk.
pub(crate) trait MoveSink {
    /// One special move (castling, en passant).
    fn one(&mut self, mv: Move);
    /// Normal moves from one square to each target.
    fn moves_from(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves without promotion: each target `to` comes from `to - delta`.
    fn pawn_moves(&mut self, delta: i32, targets: Bitboard);
    /// Pawn moves onto the last rank: each target yields one move per promotion kind.
    fn promotions(&mut self, delta: i32, targets: Bitboard, kinds: &[MoveKind]);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.push(mv);
    }
    #[inline(always)]
    fn moves_from(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, delta: i32, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(Square::from_index((to as i32 - delta) as u32), to));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, delta: i32, targets: Bitboard, kinds: &[MoveKind]) {
        for to in targets {
            let from = Square::from_index((to as i32 - delta) as u32);
            for &kind in kinds {
                self.push(Move::new(from, to, kind));
            }
        }
    }
}

/// Counts moves without creating them.
#[derive(Debug, Default)]
pub(crate) struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn moves_from(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, _: i32, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, _: i32, targets: Bitboard, kinds: &[MoveKind]) {
        self.0 += kinds.len() as u64 * targets.count() as u64;
    }
}

/// Stops at the first move.
#[derive(Debug, Default)]
pub(crate) struct AnyMove(pub bool);

impl MoveSink for AnyMove {
    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 = true;
    }
    #[inline(always)]
    fn moves_from(&mut self, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn pawn_moves(&mut self, _: i32, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn promotions(&mut self, _: i32, targets: Bitboard, _: &[MoveKind]) {
        self.0 |= targets.any();
    }
}

#[inline(always)]
fn shift_forward(b: Bitboard, us: Color) -> Bitboard {
    match us {
        Color::White => b.north(),
        Color::Black => b.south(),
    }
}

impl<R: Rules> Position<R> {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// All legal moves, appended to `list` after clearing it (reuse a list to avoid re-initialising one).
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate(list);
    }

    /// The number of legal moves, computed without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// The legal captures (e.p. included) and promotions (pushes onto the last rank too, every kind),
    /// in the order `legal_moves` lists them: the quiescence search's candidates without generating
    /// the quiet moves (only the orthodox generator has a direct path; the others filter).
    pub fn legal_tactical_moves_into(&self, list: &mut MoveList) {
        list.clear();
        if matches!(R::GENERATOR, Generator::Orthodox) {
            if !(R::HAS_VARIANT_END && self.variant_outcome().is_some()) {
                self.generate_orthodox::<_, true>(list);
            }
        } else {
            self.generate(list);
            let occ = self.board.occupied();
            list.retain(|m| {
                m.is_en_passant()
                    || m.promotion().is_some()
                    || (!m.is_castle() && m.drop_role().is_none() && occ.contains(m.to()))
            });
        }
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut any = AnyMove(false);
        self.generate(&mut any);
        any.0
    }

    #[inline(always)]
    pub(crate) fn generate<S: MoveSink>(&self, sink: &mut S) {
        if R::HAS_VARIANT_END && self.variant_outcome().is_some() {
            return;
        }
        match R::GENERATOR {
            Generator::Orthodox => self.generate_orthodox::<S, false>(sink),
            Generator::NonRoyal => {
                if matches!(R::VARIANT, Variant::Dice) {
                    if let Some(role) = self.state.roll() {
                        let mut all = MoveList::new();
                        self.generate_non_royal(&mut all);
                        for mv in all.iter() {
                            if self.dice_move_allowed(mv, role) {
                                sink.one(mv);
                            }
                        }
                        return;
                    }
                }
                self.generate_non_royal(sink)
            }
            Generator::Filtered => {
                let mut list = MoveList::new();
                self.filtered_moves(&mut list);
                for mv in list.iter() {
                    sink.one(mv);
                }
            }
        }
    }

    /// Dice chess: whether `mv` may be played on a roll of `role` (docs/variants.md: a pawn may
    /// reach the last rank on any face but promotes only to the rolled type, on a 1 to any; a 6
    /// promotes nothing).
    pub fn dice_move_allowed(&self, mv: Move, role: Role) -> bool {
        let mover = self.board.role_at(mv.from());
        match mv.promotion() {
            Some(p) => role == Role::Pawn || p == role,
            None => mover == Some(role),
        }
    }

    /// The die faces (as roles) that have at least one legal move here; a face without one is
    /// re-rolled.
    pub fn dice_faces_with_moves(&self) -> Vec<Role> {
        let mut all = MoveList::new();
        if self.variant_outcome().is_none() {
            self.generate_non_royal(&mut all);
        }
        Role::ALL.into_iter().filter(|&r| all.iter().any(|m| self.dice_move_allowed(m, r))).collect()
    }

    #[inline(always)]
    fn generate_orthodox<S: MoveSink, const TACTICAL: bool>(&self, sink: &mut S) {
        let us = self.turn;
        let them = !us;
        let board = &self.board;
        let ours = board.by_color(us);
        let occ = board.occupied();
        let king = self.king_square(us);

        // King moves: the destination must not be attacked once the king has left its square.
        let occ_without_king = occ ^ king;
        let theirs = board.by_color(them);
        let king_reach =
            if TACTICAL { attacks::king_attacks(king) & theirs } else { attacks::king_attacks(king) - ours };
        let mut king_targets = Bitboard::EMPTY;
        for to in king_reach {
            if !board.is_attacked(to, them, occ_without_king) {
                king_targets.set(to);
            }
        }
        sink.moves_from(king, king_targets);

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        // Squares a non-king move must go to: anywhere not ours, or (in check) block/capture.
        let target = match checkers.single() {
            Some(checker) => attacks::between(king, checker) | checker,
            None => !ours,
        };
        // Pieces other than pawns: captures only when TACTICAL (pawns handle their promotions).
        let piece_target = if TACTICAL { target & theirs } else { target };
        let pinned = self.pinned;
        // In check a pinned piece never has a legal move.
        let movable = if checkers.any() { ours - pinned } else { ours };

        for from in board.knights() & (movable - pinned) {
            sink.moves_from(from, attacks::knight_attacks(from) & piece_target);
        }
        for from in board.diagonal_sliders() & movable {
            let mut t = attacks::bishop_attacks(from, occ) & piece_target;
            if pinned.contains(from) {
                t &= attacks::line(king, from);
            }
            sink.moves_from(from, t);
        }
        for from in board.orthogonal_sliders() & movable {
            let mut t = attacks::rook_attacks(from, occ) & piece_target;
            if pinned.contains(from) {
                t &= attacks::line(king, from);
            }
            sink.moves_from(from, t);
        }

        self.generate_pawn_moves::<S, TACTICAL>(sink, target, movable);

        if let Some(ep) = self.ep_square {
            self.generate_en_passant(sink, ep, king);
        }

        if !TACTICAL && checkers.is_empty() && self.castling.has_any(us) {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling.rook(us, side) {
                    if self.can_castle(side, king, rook) {
                        sink.one(Move::new(king, rook, MoveKind::Castle));
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn generate_pawn_moves<S: MoveSink, const TACTICAL: bool>(
        &self,
        sink: &mut S,
        target: Bitboard,
        movable: Bitboard,
    ) {
        let us = self.turn;
        let board = &self.board;
        let pawns = board.pawns() & movable;
        if pawns.is_empty() {
            return;
        }
        let occ = board.occupied();
        let empty = !occ;
        let theirs = board.by_color(!us);
        let king = self.king_square(us);
        let (up, third_rank, last_rank) = match us {
            Color::White => (8, Bitboard::rank(Rank::Third), Bitboard::rank(Rank::Eighth)),
            Color::Black => (-8, Bitboard::rank(Rank::Sixth), Bitboard::rank(Rank::First)),
        };

        let free = pawns - self.pinned;
        // Pushes.
        let single = shift_forward(free, us) & empty;
        let double = if TACTICAL { Bitboard::EMPTY } else { shift_forward(single & third_rank, us) & empty & target };
        let single = if TACTICAL { single & target & last_rank } else { single & target };
        sink.pawn_moves(up, single - last_rank);
        sink.promotions(up, single & last_rank, R::PROMOTIONS);
        sink.pawn_moves(2 * up, double);
        // Captures towards the a-file side (west) and the h-file side (east).
        let forward = shift_forward(free, us);
        let west = forward.west() & theirs & target;
        let east = forward.east() & theirs & target;
        sink.pawn_moves(up - 1, west - last_rank);
        sink.promotions(up - 1, west & last_rank, R::PROMOTIONS);
        sink.pawn_moves(up + 1, east - last_rank);
        sink.promotions(up + 1, east & last_rank, R::PROMOTIONS);

        // Pinned pawns (never in check here: movable excludes them then) move along the pin line.
        for from in pawns & self.pinned {
            let pin_line = attacks::line(king, from);
            let from_bb = Bitboard::from_square(from);
            let mut push = shift_forward(from_bb, us) & empty & pin_line;
            let mut push2 = shift_forward(push & third_rank, us) & empty;
            if TACTICAL {
                push &= last_rank;
                push2 = Bitboard::EMPTY;
            }
            let caps = attacks::pawn_attacks(us, from) & theirs & pin_line;
            for to in (push | caps) & target {
                if last_rank.contains(to) {
                    sink.promotions(to as i32 - from as i32, Bitboard::from_square(to), R::PROMOTIONS);
                } else {
                    sink.one(Move::normal(from, to));
                }
            }
            for to in push2 & target {
                sink.one(Move::normal(from, to));
            }
        }
    }

    #[inline(never)]
    fn generate_en_passant<S: MoveSink>(&self, sink: &mut S, ep: Square, king: Square) {
        let us = self.turn;
        let them = !us;
        let board = &self.board;
        let victim = Square::from_coords(
            ep.file(),
            match us {
                Color::White => Rank::Fifth,
                Color::Black => Rank::Fourth,
            },
        );
        // In check, the capture must remove the checker or block the check.
        if let Some(checker) = self.checkers.single() {
            if checker != victim && !attacks::between(king, checker).contains(ep) {
                return;
            }
        } else if self.checkers.any() {
            return;
        }
        let capturers = attacks::pawn_attacks(them, ep) & board.pawns() & board.by_color(us);
        for from in capturers {
            let occ = (board.occupied() ^ from ^ victim) | ep;
            let theirs = board.by_color(them);
            let exposed = (attacks::rook_attacks(king, occ) & board.orthogonal_sliders() & theirs).any()
                || (attacks::bishop_attacks(king, occ) & board.diagonal_sliders() & theirs).any();
            if !exposed {
                sink.one(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }

    #[inline(never)]
    fn can_castle(&self, side: CastlingSide, king: Square, rook: Square) -> bool {
        let us = self.turn;
        let i = 2 * us as usize + side as usize;
        let occ = self.board.occupied();
        if (self.castling_empty_path(i) & occ).any() {
            return false;
        }
        // Judge attacks without our king and castling rook on the board (the king moves; a rook that
        // shielded a square does not shield it after castling; see docs/architecture.md).
        let occ = occ ^ king ^ rook;
        for sq in self.castling_king_path(i) {
            if self.board.is_attacked(sq, !us, occ) {
                return false;
            }
        }
        true
    }
}

impl<R: Rules> Position<R> {
    /// Every pseudo-legal move is legal when the king is not royal (antichess, extinction, dice).
    #[inline(always)]
    fn generate_non_royal<S: MoveSink>(&self, sink: &mut S) {
        let board = &self.board;
        let theirs = board.by_color(!self.turn);
        if R::MUST_CAPTURE {
            let mut any = AnyMove(false);
            self.generate_pseudo(&mut any, theirs, false);
            if any.0 {
                self.generate_pseudo(sink, theirs, false);
            } else {
                self.generate_pseudo(sink, !board.occupied(), true);
            }
        } else {
            self.generate_pseudo(sink, !board.by_color(self.turn), true);
        }
    }

    /// Pseudo-legal moves onto `target`; `quiet` adds pawn pushes and castling, and, when false,
    /// limits the moves to captures (e.p. included).
    #[inline(always)]
    fn generate_pseudo<S: MoveSink>(&self, sink: &mut S, target: Bitboard, quiet: bool) {
        let us = self.turn;
        let board = &self.board;
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);
        let occ = board.occupied();
        for from in board.knights() & ours {
            sink.moves_from(from, attacks::knight_attacks(from) & target);
        }
        for from in board.diagonal_sliders() & ours {
            sink.moves_from(from, attacks::bishop_attacks(from, occ) & target);
        }
        for from in board.orthogonal_sliders() & ours {
            sink.moves_from(from, attacks::rook_attacks(from, occ) & target);
        }
        for from in board.kings() & ours {
            sink.moves_from(from, attacks::king_attacks(from) & target);
        }
        let pawns = board.pawns() & ours;
        let (up, third_rank, last_rank) = match us {
            Color::White => (8, Bitboard::rank(Rank::Third), Bitboard::rank(Rank::Eighth)),
            Color::Black => (-8, Bitboard::rank(Rank::Sixth), Bitboard::rank(Rank::First)),
        };
        if quiet {
            let single = shift_forward(pawns, us) & !occ;
            let double = shift_forward(single & third_rank, us) & !occ & target;
            let single = single & target;
            sink.pawn_moves(up, single - last_rank);
            sink.promotions(up, single & last_rank, R::PROMOTIONS);
            sink.pawn_moves(2 * up, double);
        }
        let forward = shift_forward(pawns, us);
        let west = forward.west() & theirs & target;
        let east = forward.east() & theirs & target;
        sink.pawn_moves(up - 1, west - last_rank);
        sink.promotions(up - 1, west & last_rank, R::PROMOTIONS);
        sink.pawn_moves(up + 1, east - last_rank);
        sink.promotions(up + 1, east & last_rank, R::PROMOTIONS);
        if let (true, Some(ep)) = (R::EN_PASSANT, self.ep_square) {
            for from in attacks::pawn_attacks(!us, ep) & pawns {
                sink.one(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
        // Castling without check rules: unmoved king and rook, empty squares between.
        if R::CASTLING && quiet && self.castling.has_any(us) {
            // The castling king, not just any king (extinction promotes to kings).
            if let Some(king) =
                Some(self.castling.king(us)).filter(|&k| (board.kings() & board.by_color(us)).contains(k))
            {
                for side in CastlingSide::ALL {
                    if let Some(rook) = self.castling.rook(us, side) {
                        if (self.castling_empty_path(2 * us as usize + side as usize) & occ).is_empty() {
                            sink.one(Move::new(king, rook, MoveKind::Castle));
                        }
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn castling_empty_path(&self, i: usize) -> Bitboard {
        self.castling.empty_path_of(i)
    }
    #[inline(always)]
    fn castling_king_path(&self, i: usize) -> Bitboard {
        self.castling.king_path_of(i)
    }
}
