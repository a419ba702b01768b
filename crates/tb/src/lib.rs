//! mysl-tb: endgame tablebases for up to 5 pieces.
//!
//! Our own retrograde generator computes, from one run, DTM (plies to mate, no 50-move rule) and DTZ50
//! (Syzygy's distance to zeroing with the 50-move rule, from which WDL50 with cursed wins and blessed losses
//! follows). See docs/tablebases.md for the index, the metrics' definitions and the file format.
//!
//! Modules, data flowing one way (each uses only those above it):
//! * `material`, `value` (the value encoding), `huffman`; `pos`, `index` (positions and their index);
//! * `table`: the shared types (a generated `Table`, the values in work, the metric numbers, progress, the
//!   sources of sub-tables as traits, so that the generator names no reader);
//! * `gen`: the retrograde generator;
//! * `format`: the file format's layout and constants, shared by the writer and the reader;
//! * `read`: `TableFile` (a file, checked, decoded a block at a time) and `Sources`;
//! * `probe`: `Tablebase`, probing tables in files or in memory;
//! * `decode`: a whole file back into a `Table` (`TableFile::to_table`; resolving what a file leaves to
//!   the reader needs the probe);
//! * `write`: encoding and writing files, `generate_file` (generates and writes a 5-piece ending);
//! * `stats`, `tablebases` (the engine's front over our files and Syzygy files);
//! * `plan`: the job graph of a generation (dependencies, estimates) for `mysl tb plan` and workflow/Snakefile.

mod decode;
pub mod format;
pub mod gen;
pub mod huffman;
pub mod index;
pub mod material;
pub mod pair;
pub mod plan;
pub mod pos;
pub mod probe;
pub mod read;
pub mod stats;
pub mod table;
pub mod tablebases;
pub mod value;
pub mod variant;
pub mod write;

pub use gen::{generate_table, Generator};
pub use material::Material;
pub use probe::{ProbeResult, Tablebase};
pub use table::{Progress, Silent, Table};
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
