//! Typed errors for everything parsed from outside: FEN, positions, SAN and UCI move text.
//! Each names the field and the offending text.

use thiserror::Error;

use crate::types::{Color, Square};

/// A FEN that cannot be read, or describes an invalid position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error(
        "FEN has {found} fields; expected 4 to 6 (placement, side, castling, en passant, half-move clock, move number)"
    )]
    FieldCount { found: usize },
    #[error("FEN field 1 (placement): {0}")]
    Placement(String),
    #[error("FEN field 2 (side to move): expected w or b, found '{0}'")]
    SideToMove(String),
    #[error("FEN field 3 (castling): {0}")]
    Castling(String),
    #[error("FEN field 4 (en passant): expected a square such as e3 or '-', found '{0}'")]
    EnPassant(String),
    #[error("FEN field {field} ({name}): expected a non-negative number, found '{text}'")]
    Counter { field: usize, name: &'static str, text: String },
    #[error("FEN field {field}: {message}")]
    Variant { field: usize, message: String },
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A setup that is syntactically fine but not a legal position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("position has no {0} king")]
    MissingKing(Color),
    #[error("position has two {0} kings")]
    TooManyKings(Color),
    #[error("pawn on rank {} ({})", .0.rank().char(), .0)]
    PawnOnBackRank(Square),
    #[error(
        "too much {0} material (more than 16 pieces, more than 8 pawns, or more promoted pieces than missing pawns)"
    )]
    TooMuchMaterial(Color),
    #[error("side not to move is in check")]
    OppositeCheck,
    #[error("impossible check (no legal last move gives these checkers)")]
    ImpossibleCheck,
    #[error("castling right {right} but {reason}")]
    BadCastling { right: char, reason: String },
    #[error("en passant square {square} impossible: {reason}")]
    BadEnPassant { square: Square, reason: String },
    #[error("{0}")]
    Variant(String),
}

/// SAN text that does not name exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SanError {
    #[error("SAN '{0}': not a move in standard algebraic notation")]
    Syntax(String),
    #[error("SAN '{0}': no legal move matches")]
    Illegal(String),
    #[error("SAN '{0}': ambiguous, several legal moves match")]
    Ambiguous(String),
}

/// UCI move text that is malformed or illegal here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UciMoveError {
    #[error("UCI move '{0}': expected from and to squares such as e2e4 (and a promotion letter such as e7e8q)")]
    Syntax(String),
    #[error("UCI move '{0}' is illegal in this position")]
    Illegal(String),
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {mv} in position {fen}")]
pub struct IllegalMove {
    pub mv: String,
    pub fen: String,
}
