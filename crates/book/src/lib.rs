//! mysl opening books.
//!
//! - [`pgn`]: reading PGN (plain, gzip, zstd, stdin) on all cores, with broken games reported and skipped;
//! - [`build`]: counting (position, move) statistics in bounded memory and writing a book;
//! - [`format`]: the Polyglot `.bin` and mysl `.mbk` formats, reading, probing and choosing a move;
//! - [`eco`]: opening names (ECO codes) from the lichess table.

pub mod build;
pub mod eco;
pub mod format;
pub mod pgn;

pub use build::{build, BuildError, BuildOptions, BuildReport, Progress, WeightMode};
pub use format::{
    choose_move, polyglot_move, Book, BookError, BookMove, BookWriter, MbkWriter, PolyglotWriter, RawEntry, Stats,
    WrittenMove,
};
pub use pgn::{GameError, GameLocation, Input, InputError};

/// The small default book that ships inside mysl: master games (Elo ≥ 2400, 20 plies, ≥ 5 games a
/// move) from `../shared/data/pgn`, rebuilt by `scripts/build-default-book.sh`.
pub const DEFAULT_BOOK: &[u8] = include_bytes!("../data/default.mbk");

/// Opens [`DEFAULT_BOOK`].
pub fn default_book() -> Result<Book, BookError> {
    Book::from_bytes(DEFAULT_BOOK, "<default>")
}
