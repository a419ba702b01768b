//! Table files (format version 4): the layout, and the constants and pieces shared by the writer
//! (`write.rs`) and the reader (`read.rs`).
//!
//! Layout, all integers little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `MYSLTB\r\n` |
//! | 4 | format version (4) |
//! | 16 | material, ASCII, NUL-padded (`KQvKR`) |
//! | 4 | metrics present: bit 0 DTM, bit 1 DTZ50, bit 2 WDL50 (7) |
//! | 8 | positions per side (the storage index size, [`Layout::storage_size`]) |
//! | 4 | number of streams (6) |
//! | 4 | flags: bit `s` set when DTM stream `s` (4 or 5) stores DTM minus DTZ instead of DTM |
//! | 6 × 16 | stream directory: offset and length (`u64` each) of every stream section, in the order WDL white
//!   to move, WDL black, DTZ white, DTZ black, DTM white, DTM black |
//! | ... | the stream sections |
//! | 4 | CRC-32 of everything before |
//!
//! A stream section starts with its codec (`u32`): [`CODEC_PAIRS`], pair coding ([`crate::pair`]: Re-Pair and a
//! canonical Huffman code in blocks of a fixed number of bytes, 16-64 for WDL, 64-1,024 for DTZ and DTM, the
//! smallest section of these), written for every stream of up to [`PAIR_MAX_VALUES`] positions; or
//! [`CODEC_RUNS`], run-length tokens under Huffman codes (the larger streams: the pair coder keeps a whole
//! stream in memory), laid out as follows.
//!
//! A run-length section: positions per block `u32` (a power of two), blocks `u32`, distinct values `V` (`u16`),
//! codes `C` (`u16`), the values `V × i16` (symbol `s` stands for value `s`; most frequent first), the code
//! lengths of the `V + 17` tokens of each code (`u8` each, see [`crate::huffman`]), the code of each context
//! (`(V + 1) × u16`), the block offsets `(blocks + 1) × u32` (from the start of the block data), the block
//! data.
//!
//! Every stream runs over the *storage index* ([`Layout::storage_index`]: no two pieces on a square,
//! identical pieces counted once), not over the generation index.
//!
//! Values: WDL50 -2..=2 (Syzygy's numbers); DTZ and DTM the generator's internal values ([`crate::value`]).
//! "Don't care" entries take the value of the entry before them (which lengthens runs): holes of the storage
//! index (the white king on a pawn's square, the second image of a position with both kings on the long diagonal) and
//! illegal positions in every stream, and drawn positions in the DTZ and DTM streams (a probe reads the WDL
//! stream first and a draw has DTZ and DTM 0). A block is at most 1 KiB (DTZ, DTM) or 128 bytes (WDL)
//! compressed (run-length sections), so a probe decodes at most one block per stream it reads. The whole file is checked against
//! its CRC when it is opened.
//!
//! [`Layout::storage_size`]: crate::index::Layout::storage_size
//! [`Layout::storage_index`]: crate::index::Layout::storage_index

use std::path::{Path, PathBuf};

use crate::material::Material;
use crate::value::{self, INVALID};

pub const MAGIC: &[u8; 8] = b"MYSLTB\r\n";
pub const VERSION: u32 = 4;
/// Codec of a run-length coded stream section.
pub const CODEC_RUNS: u32 = 0;
/// Codec of a pair-coded stream section ([`crate::pair`]).
pub const CODEC_PAIRS: u32 = 1;
/// Largest stream that is pair coded (the coder holds its symbols, 2 bytes a position, and the pair counts).
pub const PAIR_MAX_VALUES: usize = 1 << 28;
/// Block sizes tried by the pair coder (log2 of bytes) for WDL, DTZ and DTM streams.
pub(crate) const PAIR_BLOCK_LOGS: [(u32, u32); 3] = [(4, 6), (6, 10), (6, 10)];
/// Streams: WDL white/black to move, DTZ white/black, DTM white/black.
pub const STREAMS: usize = 6;
pub(crate) const HEADER: usize = 8 + 4 + 16 + 4 + 8 + 4 + 4 + STREAMS * 16;
/// Largest compressed block of a stream (WDL, DTZ and DTM streams).
pub(crate) const BLOCK_LIMIT: [usize; 3] = [128, 1024, 1024];
/// Block sizes tried (positions per block), largest first.
pub(crate) const MAX_BLOCK_LOG: u32 = 16;
pub(crate) const MIN_BLOCK_LOG: u32 = 4;

/// File name of an ending in a directory.
pub fn path_for(dir: &Path, m: &Material) -> PathBuf {
    dir.join(format!("{m}.mtb"))
}

/// The value of stream `s` of a table at `i`, `None` where it does not matter; `delta`: a DTM stream holds
/// DTM minus DTZ (equal in many endings, where the best line has no zeroing move before mate).
#[inline]
pub(crate) fn stream_value(s: usize, z: i16, m: i16, delta: bool) -> Option<i16> {
    if z == INVALID || m == INVALID {
        return None;
    }
    match s / 2 {
        0 => Some(value::wdl_of_dtz(z) as i16),
        1 => (z != 0).then_some(z),
        _ if delta => (m != 0).then_some(m.wrapping_sub(z)),
        _ => (m != 0).then_some(m),
    }
}

/// Header flag: the WDL streams store a position whose best capture already reaches its value as any value
/// not above it (whatever compresses best); a reader takes the better of the stored value and the captures'
/// values (`TableFile::resolves_captures`). Set by `encode_table_resolved` (the files of `mysl tb gen`
/// up to 4 pieces).
pub const FLAG_CAPTURES: u32 = 1 << 6;

/// Header flag: the DTZ streams leave a win with a winning zeroing move (DTZ 1; 101 for a cursed win)
/// other than a double pawn step to the reader, which looks for such a move. Set with [`FLAG_CAPTURES`].
pub const FLAG_ZEROING: u32 = 1 << 7;

/// Header flags: in White's (bit 9) or Black's (bit 10) DTZ stream, 0 stands for "search": the position's DTZ
/// is the best over its legal moves of what each gives (`pos::searched_dtz`: one ply down, the other side's
/// stored DTZ or the WDL after a zeroing move), as Syzygy stores DTZ for one side to move only. The writer
/// stores a position's own DTZ instead where the search would not give it. At most one of the two; set only
/// with [`FLAG_CAPTURES`] (a reader that searches).
pub const FLAG_DTZ_SEARCHED: [u32; 2] = [1 << 9, 1 << 10];

/// Header flag: the DTM streams store a position that is not drawn and whose best capture already reaches its
/// DTM as any value the reader ranks no higher (DTM minus DTZ streams: after adding DTZ); a reader takes the
/// better of that and the captures' DTM. Set with [`FLAG_CAPTURES`].
pub const FLAG_DTM_CAPTURES: u32 = 1 << 8;
