//! mysl-core: the rules of chess for mysl.
//!
//! Bitboards and magic attack tables, a validated [`Position`] with legal move generation and
//! make/unmake, Zobrist keys equal to the Polyglot book keys, FEN/X-FEN/Shredder-FEN, SAN and UCI move
//! notation, game outcomes and perft. Variants plug in as [`Rules`] types (docs/architecture.md).
//!
//! ```
//! use mysl_core::{Chess, san, perft};
//! let mut pos = Chess::startpos();
//! let mv = san::parse_san(&pos, "e4").unwrap();
//! pos.play_unchecked(mv);
//! assert_eq!(pos.key(), 0x823c9b50fd114196); // the Polyglot key
//! assert_eq!(perft::perft(&mut pos, 2), 600);
//! ```

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod error;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod rng;
pub mod rules;
pub mod san;
pub mod types;
pub mod uci;
pub mod variants;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use error::{FenError, IllegalMove, PositionError, SanError, UciMoveError};
pub use fen::{Setup, STARTING_FEN};
pub use moves::{Move, MoveKind, MoveList};
pub use position::{Castling, Chess, Position};
pub use rules::{
    Antichess, AntichessNoEp, Berolina, Cylinder, Dice, Extinction, KnightRelay, Orthodox, Recycle, Rules, ThreeCheck,
    Variant, VariantState,
};
pub use types::{ByColor, CastlingMode, CastlingSide, Color, EndReason, File, Outcome, Piece, Rank, Role, Square};
