//! Legal move generation.
//!
//! One generator, generic over a [`MoveSink`]: the list sink expands moves, the counting sink only adds
//! popcounts, so perft's last ply costs no move objects at all. Pins and checks come from the
//! position's cache; king moves test the destination with the king removed from the board.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{CastlingSide, Color, Rank, Role, Square};

/// Receives generated moves in bulk.
pub(crate) trait MoveSink {
    /// One special move (castling, en passant).
    fn one(&mut self, mv: Move);
    /// Normal moves from one square to each target.
    fn from_square(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves without promotion: each target `to` comes from `to - delta`.
    fn pawn_moves(&mut self, delta: i32, targets: Bitboard);
    /// Pawn moves onto the last rank: each target yields the four promotions.
    fn promotions(&mut self, delta: i32, targets: Bitboard);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.push(mv);
    }
    #[inline(always)]
    fn from_square(&mut self, from: Square, targets: Bitboard) {
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
    fn promotions(&mut self, delta: i32, targets: Bitboard) {
        for to in targets {
            let from = Square::from_index((to as i32 - delta) as u32);
            for kind in
                [MoveKind::PromoteQueen, MoveKind::PromoteKnight, MoveKind::PromoteRook, MoveKind::PromoteBishop]
            {
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
    fn from_square(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, _: i32, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, _: i32, targets: Bitboard) {
        self.0 += 4 * targets.count() as u64;
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
    fn from_square(&mut self, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn pawn_moves(&mut self, _: i32, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn promotions(&mut self, _: i32, targets: Bitboard) {
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

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut any = AnyMove(false);
        self.generate(&mut any);
        any.0
    }

    #[inline(always)]
    pub(crate) fn generate<S: MoveSink>(&self, sink: &mut S) {
        let us = self.turn;
        let them = !us;
        let board = &self.board;
        let ours = board.by_color(us);
        let occ = board.occupied();
        let king = self.king_square(us);

        // King moves: the destination must not be attacked once the king has left its square.
        let occ_without_king = occ ^ king;
        let mut king_targets = Bitboard::EMPTY;
        for to in attacks::king_attacks(king) - ours {
            if !board.is_attacked(to, them, occ_without_king) {
                king_targets.set(to);
            }
        }
        sink.from_square(king, king_targets);

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        // Squares a non-king move must go to: anywhere not ours, or (in check) block/capture.
        let target = match checkers.single() {
            Some(checker) => attacks::between(king, checker) | checker,
            None => !ours,
        };
        let pinned = self.pinned;
        // In check a pinned piece never has a legal move.
        let movable = if checkers.any() { ours - pinned } else { ours };

        for from in board.knights() & movable - pinned {
            sink.from_square(from, attacks::knight_attacks(from) & target);
        }
        for from in board.diagonal_sliders() & movable {
            let mut t = attacks::bishop_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= attacks::line(king, from);
            }
            sink.from_square(from, t);
        }
        for from in board.orthogonal_sliders() & movable {
            let mut t = attacks::rook_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= attacks::line(king, from);
            }
            sink.from_square(from, t);
        }

        self.generate_pawn_moves(sink, target, movable);

        if let Some(ep) = self.ep_square {
            self.generate_en_passant(sink, ep, king);
        }

        if checkers.is_empty() && self.castling.has_any(us) {
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
    fn generate_pawn_moves<S: MoveSink>(&self, sink: &mut S, target: Bitboard, movable: Bitboard) {
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
        let double = shift_forward(single & third_rank, us) & empty & target;
        let single = single & target;
        sink.pawn_moves(up, single - last_rank);
        sink.promotions(up, single & last_rank);
        sink.pawn_moves(2 * up, double);
        // Captures towards the a-file side (west) and the h-file side (east).
        let forward = shift_forward(free, us);
        let west = forward.west() & theirs & target;
        let east = forward.east() & theirs & target;
        sink.pawn_moves(up - 1, west - last_rank);
        sink.promotions(up - 1, west & last_rank);
        sink.pawn_moves(up + 1, east - last_rank);
        sink.promotions(up + 1, east & last_rank);

        // Pinned pawns (never in check here: movable excludes them then) move along the pin line.
        for from in pawns & self.pinned {
            let pin_line = attacks::line(king, from);
            let from_bb = Bitboard::from_square(from);
            let push = shift_forward(from_bb, us) & empty & pin_line;
            let push2 = shift_forward(push & third_rank, us) & empty;
            let caps = attacks::pawn_attacks(us, from) & theirs & pin_line;
            for to in (push | caps) & target {
                if last_rank.contains(to) {
                    sink.promotions(to as i32 - from as i32, Bitboard::from_square(to));
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
    #[inline(always)]
    fn castling_empty_path(&self, i: usize) -> Bitboard {
        self.castling.empty_path_of(i)
    }
    #[inline(always)]
    fn castling_king_path(&self, i: usize) -> Bitboard {
        self.castling.king_path_of(i)
    }
}

/// The role of each kind of promotion move, in generation order.
pub const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];
