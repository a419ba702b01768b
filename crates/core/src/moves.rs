//! The packed move (16 bits) and the move list.

use std::fmt;
use std::num::NonZeroU16;

use crate::types::{Role, Square};

/// What kind of move a [`Move`] is. Four bits; all kinds the variants need are reserved now so the
/// packing (and with it the transposition table and book formats) never has to change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    Normal = 0,
    /// King takes own rook: `from` = king square, `to` = rook square (Chess960 style, also for orthodox).
    Castle = 1,
    EnPassant = 2,
    PromoteKnight = 3,
    PromoteBishop = 4,
    PromoteRook = 5,
    PromoteQueen = 6,
    /// Antichess and Extinction promote to a king.
    PromoteKing = 7,
    /// Recycle drops; `from` is unused (set equal to `to`).
    DropPawn = 8,
    DropKnight = 9,
    DropBishop = 10,
    DropRook = 11,
    DropQueen = 12,
    /// Recycle: a pawn that reaches the last rank disappears.
    PawnVanish = 13,
}

impl MoveKind {
    /// Indexed by the 4-bit kind field; 14 and 15 are unused (never constructed) and read as Normal.
    const BY_BITS: [MoveKind; 16] = [
        MoveKind::Normal,
        MoveKind::Castle,
        MoveKind::EnPassant,
        MoveKind::PromoteKnight,
        MoveKind::PromoteBishop,
        MoveKind::PromoteRook,
        MoveKind::PromoteQueen,
        MoveKind::PromoteKing,
        MoveKind::DropPawn,
        MoveKind::DropKnight,
        MoveKind::DropBishop,
        MoveKind::DropRook,
        MoveKind::DropQueen,
        MoveKind::PawnVanish,
        MoveKind::Normal,
        MoveKind::Normal,
    ];

    pub const fn promotion(role: Role) -> MoveKind {
        match role {
            Role::Knight => MoveKind::PromoteKnight,
            Role::Bishop => MoveKind::PromoteBishop,
            Role::Rook => MoveKind::PromoteRook,
            Role::King => MoveKind::PromoteKing,
            _ => MoveKind::PromoteQueen,
        }
    }
}

/// A move in 16 bits: to (bits 0–5), from (6–11), kind (12–15). `Option<Move>` is 16 bits too.
///
/// The all-zero pattern would be a normal move a1a1, which never occurs, so it is the niche for `None`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

impl Move {
    /// A move of the given kind. `from == to` with `MoveKind::Normal` is not a move; it yields a
    /// harmless stand-in (a1b1) rather than a panic.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let bits = (to as u16) | ((from as u16) << 6) | ((kind as u16) << 12);
        match NonZeroU16::new(bits) {
            Some(nz) => Move(nz),
            None => Move(NonZeroU16::MIN),
        }
    }
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::new(from, to, MoveKind::Normal)
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index(((self.0.get() >> 6) & 63) as u32)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0.get() & 63) as u32)
    }
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        MoveKind::BY_BITS[(self.0.get() >> 12) as usize]
    }
    /// The raw 16 bits.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0.get()
    }
    /// Rebuilds a move from [`Move::bits`]; `None` for zero or an unused kind.
    pub const fn from_bits(bits: u16) -> Option<Move> {
        if (bits >> 12) > 13 {
            return None;
        }
        match NonZeroU16::new(bits) {
            Some(nz) => Some(Move(nz)),
            None => None,
        }
    }
    /// The piece a pawn promotes to, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::PromoteKnight => Some(Role::Knight),
            MoveKind::PromoteBishop => Some(Role::Bishop),
            MoveKind::PromoteRook => Some(Role::Rook),
            MoveKind::PromoteQueen => Some(Role::Queen),
            MoveKind::PromoteKing => Some(Role::King),
            _ => None,
        }
    }
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        matches!(self.kind(), MoveKind::Castle)
    }
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        matches!(self.kind(), MoveKind::EnPassant)
    }
    /// The role dropped, if this is a drop.
    pub const fn drop_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::DropPawn => Some(Role::Pawn),
            MoveKind::DropKnight => Some(Role::Knight),
            MoveKind::DropBishop => Some(Role::Bishop),
            MoveKind::DropRook => Some(Role::Rook),
            MoveKind::DropQueen => Some(Role::Queen),
            _ => None,
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}{} {:?})", self.from(), self.to(), self.kind())
    }
}

/// Room for every legal move of any reachable position (the known maximum is 218).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves; generation never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl MoveList {
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList { moves: [Move::normal(Square::A1, Square::B1); MAX_MOVES], len: 0 }
    }
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        // A position with more than MAX_MOVES moves cannot arise from a valid setup (the FEN parser
        // limits material), so dropping extras is unreachable; guard without panicking.
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    pub fn get(&self, i: usize) -> Option<Move> {
        self.as_slice().get(i).copied()
    }
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.as_slice().iter().copied()
    }
    pub fn contains(&self, mv: Move) -> bool {
        self.iter().any(|m| m == mv)
    }
    /// Keeps the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
    pub fn swap(&mut self, a: usize, b: usize) {
        self.moves[..self.len].swap(a, b);
    }
}
