//! mysl-tb: endgame tablebases for up to 5 pieces.
//!
//! Our own retrograde generator computes, from one run, DTM (plies to mate, no 50-move rule) and DTZ50
//! (Syzygy's distance to zeroing with the 50-move rule, from which WDL50 with cursed wins and blessed losses
//! follows). See docs/tablebases.md for the index, the metrics' definitions and the file format.

pub mod file;
pub mod gen;
pub mod huffman;
pub mod index;
pub mod material;
pub mod pos;
pub mod probe;
pub mod stats;
pub mod tablebases;
pub mod value;

pub use gen::{generate_table, Generator, Progress, Silent, Table};
pub use material::Material;
pub use probe::{ProbeResult, Tablebase};
pub use tablebases::{RootMove, RootProbe, Tablebases, TbSource, TbValue};

use std::path::PathBuf;

/// Errors of the tablebase crate; each names what and where.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    #[error("bad material '{text}': {why}")]
    BadMaterial { text: String, why: String },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: corrupt table file: {why}")]
    Corrupt { path: PathBuf, why: String },
    #[error("no table for {material} in {dir}")]
    Missing { material: String, dir: PathBuf },
    #[error("position not covered: {0}")]
    Unsupported(String),
}
