//! Table files (format version 1).
//!
//! Layout, all integers little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `MYSLTB\r\n` |
//! | 4 | format version (1) |
//! | 16 | material, ASCII, NUL-padded (`KQvKR`) |
//! | 4 | metrics present: bit 0 DTM, bit 1 DTZ50 (both in version 1) |
//! | 8 | positions per side (the generation index size) |
//! | 4 | block size in values (512: 1 KiB of decoded `i16` values) |
//! | 8 | number of blocks per (metric, side) stream |
//! | ... | block index: for every stream (DTM white, DTM black, DTZ white, DTZ black) and block, the u64 offset of
//!   the block's encoded bytes from the start of the data area, plus one final end offset per stream |
//! | ... | data area: blocks, each a run-length code of `i16` values (see [`encode_block`]) |
//! | 4 | CRC-32 of everything before |
//!
//! A block decodes to at most `BLOCK` values (512 values of 2 bytes = 1 KiB decoded), so a probe decodes one
//! block. The whole file is checked against its CRC when it is opened.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::gen::Table;
use crate::index::Layout;
use crate::material::Material;
use crate::TbError;

pub const MAGIC: &[u8; 8] = b"MYSLTB\r\n";
pub const VERSION: u32 = 1;
/// Values per block: 512 values of 2 bytes, 1 KiB decoded.
pub const BLOCK: usize = 512;
const HEADER: usize = 8 + 4 + 16 + 4 + 8 + 4 + 8;

/// File name of an ending in a directory.
pub fn path_for(dir: &Path, m: &Material) -> PathBuf {
    dir.join(format!("{m}.mtb"))
}

/// Run-length code: repeated (count-1: u8, value: i16 LE) pairs; a run covers 1..=256 equal values.
fn encode_block(vals: &[i16], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < vals.len() {
        let v = vals[i];
        let mut j = i + 1;
        while j < vals.len() && vals[j] == v && j - i < 256 {
            j += 1;
        }
        out.push((j - i - 1) as u8);
        out.extend_from_slice(&v.to_le_bytes());
        i = j;
    }
}

fn decode_block(bytes: &[u8], want: usize, out: &mut Vec<i16>) -> Result<(), String> {
    out.clear();
    if !bytes.len().is_multiple_of(3) {
        return Err("block length is not a multiple of 3".into());
    }
    for c in bytes.chunks_exact(3) {
        let n = c[0] as usize + 1;
        let v = i16::from_le_bytes([c[1], c[2]]);
        if out.len() + n > want {
            return Err("block decodes to too many values".into());
        }
        out.extend(std::iter::repeat_n(v, n));
    }
    if out.len() != want {
        return Err(format!("block decodes to {} values, expected {want}", out.len()));
    }
    Ok(())
}

/// Writes a table atomically: a temporary file in the same directory, then a rename.
pub fn write_table(dir: &Path, t: &Table) -> Result<PathBuf, TbError> {
    let path = path_for(dir, &t.material());
    let io = |e| TbError::Io { path: path.clone(), source: e };
    let size = t.layout.size as usize;
    let blocks = size.div_ceil(BLOCK);
    let streams: [&Vec<i16>; 4] = [&t.dtm[0], &t.dtm[1], &t.dtz[0], &t.dtz[1]];
    let mut data = Vec::new();
    let mut offsets: Vec<u64> = Vec::with_capacity(4 * (blocks + 1));
    for s in streams {
        for b in 0..blocks {
            offsets.push(data.len() as u64);
            let a = b * BLOCK;
            encode_block(&s[a..(a + BLOCK).min(size)], &mut data);
        }
        offsets.push(data.len() as u64);
    }
    let mut buf = Vec::with_capacity(HEADER + offsets.len() * 8 + data.len() + 4);
    buf.extend_from_slice(MAGIC);
    buf.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; 16];
    let ms = t.material().to_string();
    name[..ms.len()].copy_from_slice(ms.as_bytes());
    buf.extend_from_slice(&name);
    buf.extend_from_slice(&3u32.to_le_bytes());
    buf.extend_from_slice(&(size as u64).to_le_bytes());
    buf.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    buf.extend_from_slice(&(blocks as u64).to_le_bytes());
    for o in &offsets {
        buf.extend_from_slice(&o.to_le_bytes());
    }
    buf.extend_from_slice(&data);
    let crc = crc32fast::hash(&buf);
    buf.extend_from_slice(&crc.to_le_bytes());
    fs::create_dir_all(dir).map_err(|e| TbError::Io { path: dir.to_path_buf(), source: e })?;
    let tmp = dir.join(format!(".{ms}.mtb.tmp{}", std::process::id()));
    {
        let mut f = fs::File::create(&tmp).map_err(|e| TbError::Io { path: tmp.clone(), source: e })?;
        f.write_all(&buf).map_err(|e| TbError::Io { path: tmp.clone(), source: e })?;
        f.sync_all().map_err(|e| TbError::Io { path: tmp.clone(), source: e })?;
    }
    fs::rename(&tmp, &path).map_err(io)?;
    Ok(path)
}

/// A table file read into memory and checked; values are decoded one block at a time.
#[derive(Debug)]
pub struct TableFile {
    pub path: PathBuf,
    pub layout: Layout,
    bytes: Vec<u8>,
    blocks: usize,
    index_at: usize,
    data_at: usize,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

impl TableFile {
    /// Opens and verifies a file; `expect` is the ending the file name promises.
    pub fn open(path: &Path, expect: Option<Material>) -> Result<TableFile, TbError> {
        let bytes = fs::read(path).map_err(|e| TbError::Io { path: path.to_path_buf(), source: e })?;
        TableFile::from_bytes(path, bytes, expect)
    }

    pub fn from_bytes(path: &Path, bytes: Vec<u8>, expect: Option<Material>) -> Result<TableFile, TbError> {
        let bad = |why: String| TbError::Corrupt { path: path.to_path_buf(), why };
        if bytes.len() < HEADER + 4 {
            return Err(bad(format!("truncated: {} bytes, smaller than the header", bytes.len())));
        }
        if &bytes[..8] != MAGIC {
            return Err(bad("not a mysl table (bad magic)".into()));
        }
        let version = u32_at(&bytes, 8);
        if version != VERSION {
            return Err(bad(format!("format version {version}, this program reads version {VERSION}")));
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
        if metrics != 3 {
            return Err(bad(format!("metrics {metrics}, expected DTM and DTZ (3)")));
        }
        let layout = Layout::new(material);
        let size = u64_at(&bytes, 32);
        if size != layout.size {
            return Err(bad(format!("{size} positions per side, the index of {material} has {}", layout.size)));
        }
        if u32_at(&bytes, 40) as usize != BLOCK {
            return Err(bad("unsupported block size".into()));
        }
        let blocks = u64_at(&bytes, 44) as usize;
        if blocks != (size as usize).div_ceil(BLOCK) {
            return Err(bad("block count does not match the index size".into()));
        }
        let index_at = HEADER;
        let data_at = index_at + 4 * (blocks + 1) * 8;
        if data_at > body {
            return Err(bad("truncated block index".into()));
        }
        let data_len = (body - data_at) as u64;
        let mut prev = 0;
        for k in 0..4 * (blocks + 1) {
            let o = u64_at(&bytes, index_at + 8 * k);
            if o > data_len || (k % (blocks + 1) != 0 && o < prev) {
                return Err(bad(format!("block index entry {k} out of range")));
            }
            prev = o;
        }
        Ok(TableFile { path: path.to_path_buf(), layout, bytes, blocks, index_at, data_at })
    }

    /// Decodes the block holding `idx` of stream `stream` (0 DTM white, 1 DTM black, 2 DTZ white, 3 DTZ black).
    fn value(&self, stream: usize, idx: u64, scratch: &mut Vec<i16>) -> Result<i16, TbError> {
        let b = idx as usize / BLOCK;
        let k = stream * (self.blocks + 1) + b;
        let a = u64_at(&self.bytes, self.index_at + 8 * k) as usize;
        let e = u64_at(&self.bytes, self.index_at + 8 * (k + 1)) as usize;
        let want = BLOCK.min(self.layout.size as usize - b * BLOCK);
        decode_block(&self.bytes[self.data_at + a..self.data_at + e], want, scratch)
            .map_err(|why| TbError::Corrupt { path: self.path.clone(), why: format!("block {b}: {why}") })?;
        Ok(scratch[idx as usize % BLOCK])
    }

    /// One value of stream `stream`: walks the runs of its block without decoding it into memory (a probe
    /// allocates nothing), checking the whole block as `decode_block` does.
    fn value_at(&self, stream: usize, idx: u64) -> Result<i16, TbError> {
        let b = idx as usize / BLOCK;
        let k = stream * (self.blocks + 1) + b;
        let a = u64_at(&self.bytes, self.index_at + 8 * k) as usize;
        let e = u64_at(&self.bytes, self.index_at + 8 * (k + 1)) as usize;
        let want = BLOCK.min(self.layout.size as usize - b * BLOCK);
        let corrupt = |why: String| TbError::Corrupt { path: self.path.clone(), why: format!("block {b}: {why}") };
        let bytes = &self.bytes[self.data_at + a..self.data_at + e];
        if !bytes.len().is_multiple_of(3) {
            return Err(corrupt("block length is not a multiple of 3".into()));
        }
        let pos = idx as usize % BLOCK;
        let (mut count, mut found) = (0usize, None);
        for c in bytes.chunks_exact(3) {
            let n = c[0] as usize + 1;
            if count + n > want {
                return Err(corrupt("block decodes to too many values".into()));
            }
            if (count..count + n).contains(&pos) {
                found = Some(i16::from_le_bytes([c[1], c[2]]));
            }
            count += n;
        }
        match found {
            Some(v) if count == want => Ok(v),
            _ => Err(corrupt(format!("block decodes to {count} values, expected {want}"))),
        }
    }

    /// (DTM, DTZ-scale) of index `idx` with `side` to move (0 White).
    pub fn get(&self, side: usize, idx: u64) -> Result<(i16, i16), TbError> {
        Ok((self.value_at(side, idx)?, self.value_at(2 + side, idx)?))
    }

    /// Decodes the whole file into a table.
    pub fn to_table(&self) -> Result<Table, TbError> {
        let size = self.layout.size as usize;
        let mut scratch = Vec::with_capacity(BLOCK);
        let mut streams: Vec<Vec<i16>> = Vec::new();
        for s in 0..4 {
            let mut v = Vec::with_capacity(size);
            for b in 0..self.blocks {
                self.value(s, (b * BLOCK) as u64, &mut scratch)?;
                v.extend_from_slice(&scratch);
            }
            streams.push(v);
        }
        let mut it = streams.into_iter();
        let mut next = || it.next().unwrap_or_default();
        let dtm = [next(), next()];
        let dtz = [next(), next()];
        Ok(Table { layout: self.layout.clone(), dtm, dtz })
    }
}
