//! Reading table files (the format: [`crate::format`]): [`TableFile`], memory-mapped (or in memory) and
//! checked, its values decoded one block at a time; and [`Sources`], the sub-tables in memory and in files
//! that the generator reads. Decoding a whole file back into a [`Table`] (`TableFile::to_table`), which for
//! a file with [`FLAG_CAPTURES`] probes the endings its captures lead to, is in `decode.rs`, after the
//! prober.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use std::sync::atomic::Ordering::Relaxed;

use crate::format::{
    CODEC_PAIRS, CODEC_RUNS, FLAG_CAPTURES, FLAG_DTM_CAPTURES, FLAG_DTZ_SEARCHED, FLAG_ZEROING, HEADER, MAGIC,
    MAX_BLOCK_LOG, STREAMS, VERSION,
};
use crate::huffman::{Codes, Decoder, RUN_CLASSES};
use crate::index::Layout;
use crate::material::Material;
use crate::pair::PairStream;
use crate::pos::TbPos;
use crate::table::{StoredTable, Table, TableSource};
use crate::value::INVALID;
use crate::TbError;

/// Reads an encoded stream section in index order, one block at a time.
pub(crate) struct SectionCursor<'a> {
    bytes: &'a [u8],
    st: Stream,
    size: usize,
    block: usize,
    syms: Vec<u16>,
    values: Vec<i16>,
    at: usize,
}

impl<'a> SectionCursor<'a> {
    pub(crate) fn new(bytes: &'a [u8], size: u64) -> Result<SectionCursor<'a>, String> {
        let st = parse_stream(bytes, 0, bytes.len(), size)?;
        Ok(SectionCursor::of(bytes, st, size))
    }

    fn of(bytes: &'a [u8], st: Stream, size: u64) -> SectionCursor<'a> {
        SectionCursor { bytes, st, size: size as usize, block: 0, syms: Vec::new(), values: Vec::new(), at: 0 }
    }

    /// The next value (the caller reads exactly `size` values).
    pub(crate) fn next_value(&mut self) -> Result<i16, String> {
        if self.at == self.values.len() {
            if self.block >= self.st.blocks() {
                return Err("read beyond the stream".into());
            }
            if let Err(e) = self.st.decode_block(self.bytes, self.block, self.size, &mut self.syms, &mut self.values) {
                // The callers walk on after an error (they report the first one): every later call
                // fails too, instead of reading a half-decoded block.
                self.values.clear();
                self.at = 0;
                self.block = usize::MAX;
                return Err(e);
            }
            self.block += 1;
            self.at = 0;
            if self.values.is_empty() {
                return Err("empty block".into());
            }
        }
        let v = self.values[self.at];
        self.at += 1;
        Ok(v)
    }
}

/// One stream of an open file: run-length coded (codec 0) or pair coded (codec 1, [`crate::pair`]).
#[derive(Clone, Debug)]
struct Stream {
    code: Code,
    section_len: usize,
}

#[derive(Clone, Debug)]
enum Code {
    Runs(RunStream),
    Pairs(Box<PairStream>),
}

/// A run-length coded stream: blocks of a fixed number of positions.
#[derive(Clone, Debug)]
struct RunStream {
    block_len: usize,
    blocks: usize,
    values: Vec<i16>,
    dec: Codes,
    /// Byte positions in the file of the block offsets and of the block data.
    offsets_at: usize,
    data_at: usize,
}

impl RunStream {
    /// The bytes of block `b` and the number of values in it.
    fn block<'b>(&self, bytes: &'b [u8], b: usize, size: usize) -> Result<(&'b [u8], usize), String> {
        if b >= self.blocks {
            return Err("index beyond the table".into());
        }
        let a = u32_at(bytes, self.offsets_at + 4 * b) as usize;
        let e = u32_at(bytes, self.offsets_at + 4 * (b + 1)) as usize;
        Ok((&bytes[self.data_at + a..self.data_at + e], self.block_len.min(size - b * self.block_len)))
    }
}

impl Stream {
    /// The stream's distinct values.
    fn values(&self) -> &[i16] {
        match &self.code {
            Code::Runs(r) => &r.values,
            Code::Pairs(p) => p.values(),
        }
    }

    fn blocks(&self) -> usize {
        match &self.code {
            Code::Runs(r) => r.blocks,
            Code::Pairs(p) => p.blocks(),
        }
    }

    /// The block holding position `idx` and the position its values start at.
    fn locate(&self, bytes: &[u8], idx: u64) -> Result<(usize, u64), String> {
        match &self.code {
            Code::Runs(r) => {
                let b = idx as usize / r.block_len;
                Ok((b, (b * r.block_len) as u64))
            }
            Code::Pairs(p) => p.locate(bytes, idx).map_err(String::from),
        }
    }

    /// The values of block `b` into `out` (`syms`: scratch).
    fn decode_block(
        &self,
        bytes: &[u8],
        b: usize,
        size: usize,
        syms: &mut Vec<u16>,
        out: &mut Vec<i16>,
    ) -> Result<(), String> {
        match &self.code {
            Code::Runs(r) => {
                let (data, want) = r.block(bytes, b, size)?;
                r.dec.decode_block(data, want, syms)?;
                out.clear();
                for &x in syms.iter() {
                    out.push(r.values.get(x as usize).copied().ok_or("symbol out of range")?);
                }
                Ok(())
            }
            Code::Pairs(p) => p.decode_block(bytes, b, out).map_err(String::from),
        }
    }

    /// One value, decoding only what leads to it (nothing is allocated).
    fn value_at(&self, bytes: &[u8], idx: u64, size: usize) -> Result<i16, String> {
        match &self.code {
            Code::Runs(r) => {
                let b = idx as usize / r.block_len;
                let (data, want) = r.block(bytes, b, size)?;
                let sym = r.dec.symbol_at(data, idx as usize % r.block_len, want)?;
                Ok(r.values.get(sym as usize).copied().ok_or("symbol out of range")?)
            }
            Code::Pairs(p) => p.value_at(bytes, idx).map_err(String::from),
        }
    }
}

/// A table file, memory-mapped (or in memory) and checked; values are decoded one block at a time.
#[derive(Debug)]
pub struct TableFile {
    pub path: PathBuf,
    pub layout: Layout,
    bytes: Bytes,
    streams: Vec<Stream>,
    /// Header flags (bit 4, 5: that DTM stream holds DTM minus DTZ).
    pub(crate) flags: u32,
    /// Tells this file's blocks apart in the per-thread block cache of [`TableFile::get_cached`].
    id: u64,
}

/// The bytes of a table file.
#[derive(Debug)]
enum Bytes {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m) => m,
        }
    }
}

/// Decoded blocks per thread (see [`TableFile::get_cached`]).
const CACHED_BLOCKS: usize = 32;

struct CachedBlock {
    file: u64,
    stream: usize,
    block: usize,
    values: Vec<i16>,
}

thread_local! {
    static BLOCKS: std::cell::RefCell<Vec<CachedBlock>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Parses and checks a stream section `[at, end)`: its codec tag, then the codec's section.
fn parse_stream(bytes: &[u8], at: usize, end: usize, size: u64) -> Result<Stream, String> {
    if end < at || end - at < 4 {
        return Err("stream section too short".into());
    }
    let code = match u32_at(bytes, at) {
        CODEC_RUNS => Code::Runs(parse_runs(bytes, at + 4, end, size)?),
        CODEC_PAIRS => Code::Pairs(Box::new(PairStream::parse(bytes, at + 4, end, size)?)),
        c => return Err(format!("unknown codec {c}")),
    };
    Ok(Stream { code, section_len: end - at })
}

/// Parses and checks a run-length coded section `[at, end)`.
fn parse_runs(bytes: &[u8], at: usize, end: usize, size: u64) -> Result<RunStream, String> {
    if end - at < 12 {
        return Err("stream section too short".into());
    }
    let block_len = u32_at(bytes, at) as usize;
    let blocks = u32_at(bytes, at + 4) as usize;
    let nv = u16_at(bytes, at + 8) as usize;
    if block_len == 0 || !block_len.is_power_of_two() || block_len > 1 << MAX_BLOCK_LOG {
        return Err(format!("bad block length {block_len}"));
    }
    if blocks != (size as usize).div_ceil(block_len) {
        return Err("block count does not match the index size".into());
    }
    if nv == 0 {
        return Err("no values".into());
    }
    let ncodes = u16_at(bytes, at + 10) as usize;
    let ntok = nv + RUN_CLASSES;
    let values_at = at + 12;
    let lens_at = values_at + 2 * nv;
    let map_at = lens_at + ncodes * ntok;
    let offsets_at = map_at + 2 * (nv + 1);
    let data_at = offsets_at + 4 * (blocks + 1);
    if ncodes == 0 || data_at > end {
        return Err("truncated stream section".into());
    }
    let values = (0..nv).map(|k| u16_at(bytes, values_at + 2 * k) as i16).collect();
    let decoders = (0..ncodes)
        .map(|c| Decoder::new(&bytes[lens_at + c * ntok..lens_at + (c + 1) * ntok], nv))
        .collect::<Result<Vec<_>, _>>()?;
    let ctx: Vec<u16> = (0..=nv).map(|k| u16_at(bytes, map_at + 2 * k)).collect();
    if ctx.iter().any(|&c| c as usize >= ncodes) {
        return Err("bad context map".into());
    }
    let dec = Codes { decoders, ctx, v: nv };
    let data_len = end - data_at;
    let mut prev = 0;
    for k in 0..=blocks {
        let o = u32_at(bytes, offsets_at + 4 * k) as usize;
        if o > data_len || o < prev || (k == 0 && o != 0) {
            return Err(format!("block offset {k} out of range"));
        }
        prev = o;
    }
    if prev != data_len {
        return Err("block data length does not match the offsets".into());
    }
    Ok(RunStream { block_len, blocks, values, dec, offsets_at, data_at })
}

impl TableFile {
    /// Opens and verifies a file, memory-mapped (no system call per probe; only the blocks read become
    /// resident); `expect` is the ending the file name promises.
    pub fn open(path: &Path, expect: Option<Material>) -> Result<TableFile, TbError> {
        let io = |e| TbError::Io { path: path.to_path_buf(), source: e };
        let file = fs::File::open(path).map_err(io)?;
        // SAFETY: a mapped file that changes or shrinks under the mapping would change memory behind
        // `&[u8]` (or fault). mysl writes table files once (a temporary file, then a rename) and never
        // changes one in place; a table replaced later is a new file (a new inode), and this mapping
        // keeps the old one. Editing a table file by hand while mysl runs is outside this contract.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        let f = TableFile::checked(path, Bytes::Mapped(map), expect)?;
        // the checksum read every page; the probes need few of them again
        f.release_pages();
        Ok(f)
    }

    /// Hands the pages of a mapped file back to the kernel (they are read from the file again when needed):
    /// the generator, once it no longer reads an ending it promotes into.
    pub fn release_pages(&self) {
        if let Bytes::Mapped(m) = &self.bytes {
            // SAFETY: `MADV_DONTNEED` on a read-only file mapping that was never written: dropped pages
            // are read from the file again on the next access, so the contents behind every reference
            // stay the same (given the file is not changed, as for `open`).
            let _ = unsafe { m.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
        }
    }

    /// A table file from bytes in memory.
    pub fn from_bytes(path: &Path, bytes: Vec<u8>, expect: Option<Material>) -> Result<TableFile, TbError> {
        TableFile::checked(path, Bytes::Owned(bytes), expect)
    }

    fn checked(path: &Path, bytes: Bytes, expect: Option<Material>) -> Result<TableFile, TbError> {
        let bad = |why: String| TbError::Corrupt { path: path.to_path_buf(), why };
        if bytes.len() < 12 {
            return Err(bad(format!("truncated: {} bytes, smaller than the header", bytes.len())));
        }
        if &bytes[..8] != MAGIC {
            return Err(bad("not a mysl table (bad magic)".into()));
        }
        let version = u32_at(&bytes, 8);
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, this program reads version {VERSION} (generate the table again)"
            )));
        }
        if bytes.len() < HEADER + 4 {
            return Err(bad(format!("truncated: {} bytes, smaller than the header", bytes.len())));
        }
        let body = bytes.len() - 4;
        let crc = u32_at(&bytes, body);
        if crc32fast::hash(&bytes[..body]) != crc {
            return Err(bad("checksum mismatch (damaged or truncated file)".into()));
        }
        let name_end = bytes[12..28].iter().position(|&b| b == 0).unwrap_or(16);
        let name = std::str::from_utf8(&bytes[12..12 + name_end]).map_err(|_| bad("material is not ASCII".into()))?;
        let material = Material::parse(name).map_err(|e| bad(e.to_string()))?;
        if let Some(m) = expect {
            if m != material {
                return Err(bad(format!("holds {material}, expected {m}")));
            }
        }
        if material.normalized() != material {
            return Err(bad(format!("material {material} is not normalized")));
        }
        let metrics = u32_at(&bytes, 28);
        if metrics != 7 {
            return Err(bad(format!("metrics {metrics}, expected WDL, DTZ and DTM (7)")));
        }
        let layout = Layout::new(material);
        let size = u64_at(&bytes, 32);
        if size != layout.storage_size {
            return Err(bad(format!(
                "{size} positions per side, the storage index of {material} has {}",
                layout.storage_size
            )));
        }
        if u32_at(&bytes, 40) as usize != STREAMS {
            return Err(bad("unexpected number of streams".into()));
        }
        let flags = u32_at(&bytes, 44);
        let searched = FLAG_DTZ_SEARCHED[0] | FLAG_DTZ_SEARCHED[1];
        let needs_captures = FLAG_ZEROING | FLAG_DTM_CAPTURES | searched;
        if flags & !(0b11_0000 | FLAG_CAPTURES | needs_captures) != 0
            || (flags & needs_captures != 0 && flags & FLAG_CAPTURES == 0)
            || flags & searched == searched
        {
            return Err(bad(format!("unknown flags {flags:#x}")));
        }
        let mut streams = Vec::with_capacity(STREAMS);
        for s in 0..STREAMS {
            let at = u64_at(&bytes, 48 + 16 * s);
            let len = u64_at(&bytes, 56 + 16 * s);
            if at < HEADER as u64 || at.checked_add(len).is_none_or(|e| e > body as u64) {
                return Err(bad(format!("stream {s} out of range")));
            }
            let (at, end) = (at as usize, (at + len) as usize);
            let stream = parse_stream(&bytes, at, end, size).map_err(|why| bad(format!("stream {s}: {why}")))?;
            // The WDL streams (0 and 1) hold Syzygy's WDL numbers, which readers hand on as they are.
            let out_of_range = if s < 2 { stream.values().iter().find(|v| !(-2..=2).contains(*v)) } else { None };
            if let Some(v) = out_of_range {
                return Err(bad(format!("stream {s}: WDL value {v} out of range")));
            }
            streams.push(stream);
        }
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = NEXT_ID.fetch_add(1, Relaxed);
        Ok(TableFile { path: path.to_path_buf(), layout, bytes, streams, flags, id })
    }

    /// One value of stream `s` through this thread's cache of decoded blocks (the generator reads the
    /// endings it promotes into this way: neighbouring positions share blocks).
    fn cached_value(&self, s: usize, idx: u64) -> Result<i16, TbError> {
        let corrupt = |why: String| TbError::Corrupt { path: self.path.clone(), why: format!("stream {s}: {why}") };
        let (b, start) = self.streams[s].locate(&self.bytes, idx).map_err(corrupt)?;
        let at = (idx - start) as usize;
        BLOCKS.with(|cache| {
            let mut cache = cache.borrow_mut();
            if let Some(k) = cache.iter().position(|c| c.file == self.id && c.stream == s && c.block == b) {
                // most recently used first
                cache[..=k].rotate_right(1);
                return Ok(cache[0].values[at]);
            }
            let mut entry = if cache.len() >= CACHED_BLOCKS {
                cache.pop().unwrap_or(CachedBlock { file: 0, stream: 0, block: 0, values: Vec::new() })
            } else {
                CachedBlock { file: 0, stream: 0, block: 0, values: Vec::new() }
            };
            let mut syms = Vec::new();
            let size = self.layout.storage_size as usize;
            self.streams[s].decode_block(&self.bytes, b, size, &mut syms, &mut entry.values).map_err(|why| {
                TbError::Corrupt { path: self.path.clone(), why: format!("stream {s} block {b}: {why}") }
            })?;
            if at >= entry.values.len() {
                return Err(TbError::Corrupt {
                    path: self.path.clone(),
                    why: format!("stream {s} block {b}: too short"),
                });
            }
            (entry.file, entry.stream, entry.block) = (self.id, s, b);
            let v = entry.values[at];
            cache.insert(0, entry);
            Ok(v)
        })
    }

    /// (DTM, DTZ-scale) of storage index `idx` with `side` to move, through this thread's block cache; with `dtm`
    /// false only the WDL class is read and the DTZ-scale value stands for it (1 win, 101 cursed win, 0 draw,
    /// a loss in 101 blessed loss, a loss in 1 loss; DTM then 0): what a zeroing move into the position needs.
    pub fn get_cached(&self, side: usize, idx: u64, dtm: bool) -> Result<(i16, i16), TbError> {
        self.stored_wdl_is_exact()?;
        let w = self.cached_value(side, idx)?;
        if w == 0 {
            return Ok((0, 0));
        }
        if !dtm {
            let z = match w {
                2 => 1,
                1 => 101,
                -1 => -1 - 101,
                _ => -1 - 1,
            };
            return Ok((0, z));
        }
        let delta = self.flags & (1 << (4 + side)) != 0;
        let m = self.cached_value(4 + side, idx)?;
        if !delta {
            return Ok((m, 0));
        }
        let z = self.cached_value(2 + side, idx)?;
        Ok((m.wrapping_add(z), z))
    }

    /// One value of stream `s`: decodes only what leads to it in its block (nothing is allocated).
    fn value_at(&self, s: usize, idx: u64) -> Result<i16, TbError> {
        self.streams[s]
            .value_at(&self.bytes, idx, self.layout.storage_size as usize)
            .map_err(|why| TbError::Corrupt { path: self.path.clone(), why: format!("stream {s} at {idx}: {why}") })
    }

    /// WDL50 (-2..=2) of storage index `idx` ([`Layout::storage_index`]) with `side` to move (0 White): one
    /// block of one stream.
    pub fn wdl(&self, side: usize, idx: u64) -> Result<i8, TbError> {
        Ok(self.value_at(side, idx)? as i8)
    }

    /// Whether the WDL streams leave positions decided by a capture to the reader ([`FLAG_CAPTURES`]): the
    /// value is then the better of [`TableFile::wdl`] and the values of the position's captures.
    pub fn resolves_captures(&self) -> bool {
        self.flags & FLAG_CAPTURES != 0
    }

    /// An error for a reader that takes the stored WDL as the value (a file with [`FLAG_CAPTURES`] needs the
    /// capture search of [`crate::Tablebase`]).
    fn stored_wdl_is_exact(&self) -> Result<(), TbError> {
        if self.resolves_captures() {
            return Err(TbError::Unsupported(format!(
                "{}: its WDL values need a capture search (read it through a Tablebase)",
                self.path.display()
            )));
        }
        Ok(())
    }

    /// (DTM, DTZ-scale) of storage index `idx` with `side` to move (0 White) for a file without
    /// [`FLAG_CAPTURES`].
    pub fn get(&self, side: usize, idx: u64) -> Result<(i16, i16), TbError> {
        self.stored_wdl_is_exact()?;
        if self.value_at(side, idx)? == 0 {
            return Ok((0, 0));
        }
        self.metrics(side, idx)
    }

    /// (DTM, DTZ-scale) of storage index `idx` with `side` to move of a position that is not drawn (the
    /// DTZ and DTM streams hold anything for drawn positions).
    /// `known_dtz`: the position's DTZ where the reader found it itself (a winning zeroing move under
    /// [`FLAG_ZEROING`], a search under [`FLAG_DTZ_SEARCHED`]); the stored DTZ is then not read.
    pub fn metrics_with(&self, side: usize, idx: u64, known_dtz: Option<i16>) -> Result<(i16, i16), TbError> {
        let dtz = match known_dtz {
            Some(z) => z,
            None => self.value_at(2 + side, idx)?,
        };
        let dtm = self.value_at(4 + side, idx)?;
        Ok((if self.flags & (1 << (4 + side)) != 0 { dtm.wrapping_add(dtz) } else { dtm }, dtz))
    }

    /// (DTM, DTZ-scale) of a position that is not drawn, for a file without [`FLAG_ZEROING`].
    pub fn metrics(&self, side: usize, idx: u64) -> Result<(i16, i16), TbError> {
        self.metrics_with(side, idx, None)
    }

    /// Whether the DTM streams leave positions decided by a capture to the reader ([`FLAG_DTM_CAPTURES`]).
    pub fn resolves_dtm_captures(&self) -> bool {
        self.flags & FLAG_DTM_CAPTURES != 0
    }

    /// Whether 0 in the DTZ stream of `side` to move means "search" ([`FLAG_DTZ_SEARCHED`]).
    pub fn dtz_searched(&self, side: usize) -> bool {
        self.flags & FLAG_DTZ_SEARCHED[side] != 0
    }

    /// The value the DTZ stream of `side` holds at `idx`, as stored (see [`TableFile::dtz_searched`]).
    pub fn stored_dtz(&self, side: usize, idx: u64) -> Result<i16, TbError> {
        self.value_at(2 + side, idx)
    }

    /// Whether the DTZ streams leave wins with a winning zeroing move to the reader ([`FLAG_ZEROING`]).
    pub fn resolves_zeroing(&self) -> bool {
        self.flags & FLAG_ZEROING != 0
    }

    /// Compressed bytes of the WDL, DTZ and DTM streams (both sides each).
    pub fn stream_bytes(&self) -> [u64; 3] {
        let mut out = [0u64; 3];
        for s in 0..STREAMS {
            let st = &self.streams[s];
            out[s / 2] += st.section_len as u64;
        }
        out
    }

    /// Compressed bytes of each of the six stream sections (WDL, DTZ, DTM, each White then Black to move).
    pub fn section_bytes(&self) -> [u64; STREAMS] {
        std::array::from_fn(|s| self.streams[s].section_len as u64)
    }

    /// The values stream `s` holds, in storage index order, as stored (entries that do not matter as the
    /// encoder filled them; nothing resolved). For measurements (`examples/pair_coding.rs`).
    pub fn stored_values(&self, s: usize) -> Result<Vec<i16>, TbError> {
        let mut c = self.cursor(s);
        let n = self.layout.storage_size as usize;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let v = c
                .next_value()
                .map_err(|why| TbError::Corrupt { path: self.path.clone(), why: format!("stream {s}: {why}") })?;
            out.push(v);
        }
        Ok(out)
    }

    /// A cursor over the values of stream `s` in storage order.
    fn cursor(&self, s: usize) -> SectionCursor<'_> {
        SectionCursor::of(&self.bytes, self.streams[s].clone(), self.layout.storage_size)
    }

    /// The streams `wanted` decoded in generation index order (the others and the holes of the generation
    /// index left [`INVALID`]), walking the storage index once.
    pub(crate) fn decode_streams(&self, wanted: &[usize]) -> Result<Vec<Vec<i16>>, TbError> {
        let size = self.layout.size as usize;
        let mut cursors: Vec<(usize, SectionCursor)> = wanted.iter().map(|&s| (s, self.cursor(s))).collect();
        let mut out: Vec<Vec<i16>> =
            (0..STREAMS).map(|s| if wanted.contains(&s) { vec![INVALID; size] } else { Vec::new() }).collect();
        let mut failed = None;
        self.layout.storage_walk(&mut |g| {
            for (s, c) in cursors.iter_mut() {
                match c.next_value() {
                    Ok(v) => {
                        if let Some(g) = g {
                            out[*s][g as usize] = v;
                        }
                    }
                    Err(e) => {
                        failed.get_or_insert((*s, e));
                    }
                }
            }
        });
        if let Some((s, why)) = failed {
            return Err(TbError::Corrupt { path: self.path.clone(), why: format!("stream {s}: {why}") });
        }
        Ok(out)
    }

    /// Marks the holes of the generation index and its illegal positions [`INVALID`], gives drawn positions
    /// (WDL 0) the value 0 and adds DTZ back to a DTM stream stored as DTM minus DTZ (`dtz` must then hold
    /// the decoded DTZ streams; an empty vector is a metric not wanted).
    pub(crate) fn finish_decoded(&self, wdl: &[Vec<i16>], dtz: &mut [Vec<i16>], dtm: &mut [Vec<i16>]) {
        let l = &self.layout;
        let n = l.len();
        let mut sq = [0u8; 8];
        for i in 0..l.size as usize {
            let hole = l.decode(i as u64, &mut sq).is_none() || l.index(&sq[..n]) != Some(i as u64);
            for (side, stm) in [mysl_core::Color::White, mysl_core::Color::Black].into_iter().enumerate() {
                let invalid = hole || !TbPos::new(&l.pieces, &sq[..n], stm).is_legal();
                let (w, has_dtz, has_dtm) = (wdl[side][i], !dtz[side].is_empty(), !dtm[side].is_empty());
                if has_dtm {
                    dtm[side][i] = if invalid {
                        INVALID
                    } else if w == 0 {
                        0
                    } else if self.flags & (1 << (4 + side)) != 0 {
                        dtm[side][i].wrapping_add(dtz[side][i])
                    } else {
                        dtm[side][i]
                    };
                }
                if has_dtz {
                    dtz[side][i] = if invalid {
                        INVALID
                    } else if w == 0 {
                        0
                    } else {
                        dtz[side][i]
                    };
                }
            }
        }
    }
}

impl StoredTable for TableFile {
    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn get_cached(&self, side: usize, idx: u64, dtm: bool) -> Result<(i16, i16), TbError> {
        TableFile::get_cached(self, side, idx, dtm)
    }
    fn release_pages(&self) {
        TableFile::release_pages(self)
    }
}

/// Sub-tables in memory and in files.
#[derive(Debug, Default)]
pub struct Sources {
    pub tables: HashMap<Material, Arc<Table>>,
    pub files: HashMap<Material, Arc<TableFile>>,
}

impl TableSource for Sources {
    fn table(&self, m: &Material) -> Option<&Table> {
        self.tables.get(m).map(|t| t.as_ref())
    }
    fn file(&self, m: &Material) -> Option<&dyn StoredTable> {
        self.files.get(m).map(|t| t.as_ref() as &dyn StoredTable)
    }
}
