//! Table files (format version 3).
//!
//! Layout, all integers little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `MYSLTB\r\n` |
//! | 4 | format version (3) |
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
//! A stream section: positions per block `u32` (a power of two), blocks `u32`, distinct values `V` (`u16`),
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
//! compressed, so a probe decodes at most one block per stream it reads. The whole file is checked against
//! its CRC when it is opened.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use std::sync::atomic::Ordering::Relaxed;

use crate::gen::{generate_metric, trace_mem, Progress, Store, Table, TableSource, DTM, DTZ};
use crate::huffman::{self, BitWriter, Codes, Decoder, RUN_CLASSES};
use crate::index::Layout;
use crate::material::Material;
use crate::pos::TbPos;
use crate::value::{self, INVALID};
use crate::TbError;

pub const MAGIC: &[u8; 8] = b"MYSLTB\r\n";
pub const VERSION: u32 = 3;
/// Streams: WDL white/black to move, DTZ white/black, DTM white/black.
pub const STREAMS: usize = 6;
const HEADER: usize = 8 + 4 + 16 + 4 + 8 + 4 + 4 + STREAMS * 16;
/// Largest compressed block of a stream (WDL, DTZ and DTM streams).
const BLOCK_LIMIT: [usize; 3] = [128, 1024, 1024];
/// Block sizes tried (positions per block), largest first.
const MAX_BLOCK_LOG: u32 = 16;
const MIN_BLOCK_LOG: u32 = 4;

/// File name of an ending in a directory.
pub fn path_for(dir: &Path, m: &Material) -> PathBuf {
    dir.join(format!("{m}.mtb"))
}

/// The value of stream `s` of a table at `i`, `None` where it does not matter; `delta`: a DTM stream holds
/// DTM minus DTZ (equal in many endings, where the best line has no zeroing move before mate).
#[inline]
fn stream_value(s: usize, z: i16, m: i16, delta: bool) -> Option<i16> {
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

/// The values of a stream, walked in index order (as often as the encoder needs): `None` where the value
/// does not matter.
type Walk<'a> = dyn Fn(&mut dyn FnMut(Option<i16>)) + Sync + 'a;

/// Walks `walk` filling the entries that do not matter with the value before them (the first ones with
/// the first value), in blocks of `bl` symbols (`sym_of` maps a value to its symbol); from `cache` (the
/// symbols, when they fit a byte) instead where there is one.
fn for_blocks(walk: &Walk, cache: &[u8], first: i16, bl: usize, sym_of: &[u16], f: &mut dyn FnMut(&[u16])) {
    let mut block = Vec::with_capacity(bl);
    if !cache.is_empty() {
        for c in cache.chunks(bl) {
            block.clear();
            block.extend(c.iter().map(|&x| x as u16));
            f(&block);
        }
        return;
    }
    let mut prev = first;
    walk(&mut |x| {
        if let Some(x) = x {
            prev = x;
        }
        block.push(sym_of[prev as u16 as usize]);
        if block.len() == bl {
            f(&block);
            block.clear();
        }
    });
    if !block.is_empty() {
        f(&block);
    }
}

/// An encoded stream section of the values `walk` gives (streamed: nothing of the stream's size is kept).
fn encode_stream(walk: &Walk, limit: usize) -> Vec<u8> {
    // symbols by frequency
    let mut counts = vec![0u64; 1 << 16];
    let (mut first, mut leading, mut len) = (None, 0u64, 0usize);
    let mut prev = 0i16;
    walk(&mut |x| {
        len += 1;
        match (x, first) {
            (Some(x), _) => {
                first.get_or_insert(x);
                prev = x;
                counts[x as u16 as usize] += 1;
            }
            (None, None) => leading += 1,
            (None, Some(_)) => counts[prev as u16 as usize] += 1,
        }
    });
    // the entries before the first value take the first value
    let first = first.unwrap_or(0);
    counts[first as u16 as usize] += leading;
    let mut values: Vec<(i16, u64)> =
        (0..1usize << 16).filter(|&k| counts[k] > 0).map(|k| (k as u16 as i16, counts[k])).collect();
    values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut sym_of = vec![0u16; 1 << 16];
    for (k, &(v, _)) in values.iter().enumerate() {
        sym_of[v as u16 as usize] = k as u16;
    }
    let nv = values.len();
    // the symbols in memory when they fit a byte (a byte per value: 121 MB for a pawnless 5-piece stream),
    // so the passes below need not walk the values again; not for the 403 M values of a 5-piece ending with
    // pawns, where the cache would take the generator past 1 GB (the passes read the values again instead)
    let mut cache = Vec::new();
    if nv <= 256 && len <= 1 << 28 {
        cache.reserve_exact(len);
        for_blocks(walk, &[], first, 1 << 16, &sym_of, &mut |b| cache.extend(b.iter().map(|&x| x as u8)));
    }
    let ntok = nv + RUN_CLASSES;
    let mut toks = Vec::new();
    // (token, extra, extra bits, context) of a block
    let ctx_tokens = |block: &[u16], toks: &mut Vec<(u32, u32, u8)>, f: &mut dyn FnMut(u32, u32, u8, usize)| {
        huffman::tokens(block, nv, toks);
        let mut ctx = nv;
        for &(t, e, c) in toks.iter() {
            f(t, e, c, ctx);
            if (t as usize) < nv {
                ctx = t as usize;
            }
        }
    };
    // codes and whether every block fits, for a block size
    let mut try_size = |log: u32| {
        let bl = 1usize << log;
        let mut freq = vec![vec![0u64; ntok]; nv + 1];
        for_blocks(walk, &cache, first, bl, &sym_of, &mut |block| {
            ctx_tokens(block, &mut toks, &mut |t, _, _, ctx| freq[ctx][t as usize] += 1);
        });
        let (codes, ctx_map) = choose_codes(&freq);
        let mut fits = true;
        for_blocks(walk, &cache, first, bl, &sym_of, &mut |block| {
            if !fits {
                return;
            }
            let mut bits = 0u64;
            ctx_tokens(block, &mut toks, &mut |t, _, c, ctx| {
                bits += codes[ctx_map[ctx] as usize][t as usize] as u64 + c as u64;
            });
            fits = (bits as usize).div_ceil(8) <= limit;
        });
        (fits, (bl, codes, ctx_map))
    };
    // the largest block size that fits: a binary search (smaller blocks fit more easily); the smallest size
    // is taken when none fits (a block of 16 values always fits in practice: at most 16 tokens of 20 + 16 bits)
    let mut top = MAX_BLOCK_LOG;
    while top > MIN_BLOCK_LOG && (1usize << (top - 1)) >= len.max(1) {
        top -= 1; // a smaller block holds the whole stream as well
    }
    let (mut lo, mut hi) = (MIN_BLOCK_LOG, top);
    let mut chosen = None;
    while lo <= hi {
        let mid = (lo + hi) / 2;
        let (fits, c) = try_size(mid);
        if fits {
            chosen = Some(c);
            lo = mid + 1;
        } else {
            if mid == MIN_BLOCK_LOG {
                break;
            }
            hi = mid - 1;
        }
    }
    let chosen = chosen.or_else(|| Some(try_size(MIN_BLOCK_LOG).1));
    let Some((bl, lens, ctx_map)) = chosen else { unreachable!("the smallest block size is always chosen") };
    let codes: Vec<Vec<(u32, u8)>> = lens.iter().map(|l| huffman::canonical_codes(l)).collect();
    let blocks = len.div_ceil(bl);
    let mut data = Vec::new();
    let mut offsets = Vec::with_capacity(blocks + 1);
    for_blocks(walk, &cache, first, bl, &sym_of, &mut |block| {
        offsets.push(data.len() as u32);
        let mut w = BitWriter::default();
        ctx_tokens(block, &mut toks, &mut |t, e, c, ctx| {
            let (code, l) = codes[ctx_map[ctx] as usize][t as usize];
            w.put(code, l);
            w.put(e, c);
        });
        w.flush();
        data.extend_from_slice(&w.bytes);
    });
    offsets.push(data.len() as u32);
    let mut out = Vec::new();
    out.extend_from_slice(&(bl as u32).to_le_bytes());
    out.extend_from_slice(&(blocks as u32).to_le_bytes());
    out.extend_from_slice(&(nv as u16).to_le_bytes());
    out.extend_from_slice(&(lens.len() as u16).to_le_bytes());
    for &(v, _) in &values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for l in &lens {
        out.extend_from_slice(l);
    }
    for &c in &ctx_map {
        out.extend_from_slice(&c.to_le_bytes());
    }
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&data);
    out
}

/// Code lengths for the token frequencies of each context: a shared code (code 0) from all of them, and a
/// context of its own where that saves more bits than its table costs. Returns the codes and, per
/// context, the code it uses.
fn choose_codes(freq: &[Vec<u64>]) -> (Vec<Vec<u8>>, Vec<u16>) {
    let ntok = freq[0].len();
    let mut all = vec![0u64; ntok];
    for f in freq {
        for (a, &x) in all.iter_mut().zip(f) {
            *a += x;
        }
    }
    if all.iter().all(|&x| x == 0) {
        all[0] = 1;
    }
    let shared = huffman::code_lengths(&all);
    let cost = |lens: &[u8], f: &[u64]| -> u64 { f.iter().zip(lens).map(|(&x, &l)| x * l as u64).sum() };
    let mut codes = vec![shared.clone()];
    let mut map = vec![0u16; freq.len()];
    for (ctx, f) in freq.iter().enumerate() {
        if f.iter().all(|&x| x == 0) || codes.len() >= u16::MAX as usize {
            continue;
        }
        let own = huffman::code_lengths(f);
        if cost(&own, f) + 8 * ntok as u64 + 64 < cost(&shared, f) {
            map[ctx] = codes.len() as u16;
            codes.push(own);
        }
    }
    (codes, map)
}

/// Encodes the streams `jobs` on `threads` threads; the sections in the order of `jobs`.
fn encode_jobs(jobs: &[(Box<Walk>, usize)], threads: usize) -> Vec<Vec<u8>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some((walk, limit)) = jobs.get(k) else { break };
            done.push((k, encode_stream(walk.as_ref(), *limit)));
        }
        done
    };
    let mut encoded: Vec<Vec<u8>> = vec![Vec::new(); jobs.len()];
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads.max(1)).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for h in others {
            all.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        for (k, e) in all {
            encoded[k] = e;
        }
    });
    encoded
}

/// The bytes of a file from its six stream sections.
fn assemble(m: Material, size: u64, sections: &[Vec<u8>], flags: u32) -> Vec<u8> {
    let mut buf = Vec::with_capacity(HEADER + sections.iter().map(|s| s.len()).sum::<usize>() + 4);
    buf.extend_from_slice(&header(m, size, sections, flags));
    for s in sections {
        buf.extend_from_slice(s);
    }
    let crc = crc32fast::hash(&buf);
    buf.extend_from_slice(&crc.to_le_bytes());
    buf
}

/// The header of a file with these stream sections (the stream directory included).
fn header(m: Material, size: u64, sections: &[Vec<u8>], flags: u32) -> Vec<u8> {
    let mut buf = Vec::with_capacity(HEADER);
    buf.extend_from_slice(MAGIC);
    buf.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; 16];
    let ms = m.to_string();
    name[..ms.len()].copy_from_slice(ms.as_bytes());
    buf.extend_from_slice(&name);
    buf.extend_from_slice(&7u32.to_le_bytes());
    buf.extend_from_slice(&size.to_le_bytes());
    buf.extend_from_slice(&(STREAMS as u32).to_le_bytes());
    buf.extend_from_slice(&flags.to_le_bytes());
    let mut at = HEADER as u64;
    for s in sections {
        buf.extend_from_slice(&at.to_le_bytes());
        buf.extend_from_slice(&(s.len() as u64).to_le_bytes());
        at += s.len() as u64;
    }
    buf
}

/// The temporary file a table is written to before its rename: `.<material>.mtb.tmp<pid>` in the
/// table's directory. Temporary files of the same table left by a process that no longer runs (a
/// generation killed while writing) are removed first, so a rerun leaves none behind; where process
/// ids cannot be checked (no `/proc`) they are left alone.
fn temp_path(dir: &Path, m: Material) -> PathBuf {
    let prefix = format!(".{m}.mtb.tmp");
    let own = std::process::id();
    if Path::new("/proc/self").exists() {
        if let Ok(entries) = fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(&prefix)).and_then(|p| p.parse::<u32>().ok()) else {
                    continue;
                };
                if pid != own && !Path::new(&format!("/proc/{pid}")).exists() {
                    let _ = fs::remove_file(entry.path());
                }
            }
        }
    }
    dir.join(format!("{prefix}{own}"))
}

/// Writes a file from its stream sections without assembling it in memory (a 5-piece file is hundreds of
/// MB): a temporary file, checked by opening it as a table (header, checksum, every stream section), then
/// renamed.
fn write_sections(dir: &Path, m: Material, size: u64, sections: &[Vec<u8>], flags: u32) -> Result<PathBuf, TbError> {
    let path = path_for(dir, &m);
    fs::create_dir_all(dir).map_err(|e| TbError::Io { path: dir.to_path_buf(), source: e })?;
    let tmp = temp_path(dir, m);
    let io = |e| TbError::Io { path: tmp.clone(), source: e };
    {
        let mut w = std::io::BufWriter::new(fs::File::create(&tmp).map_err(io)?);
        let mut crc = crc32fast::Hasher::new();
        let head = header(m, size, sections, flags);
        for part in std::iter::once(&head).chain(sections) {
            crc.update(part);
            w.write_all(part).map_err(io)?;
        }
        w.write_all(&crc.finalize().to_le_bytes()).map_err(io)?;
        let f = w.into_inner().map_err(|e| io(e.into_error()))?;
        f.sync_all().map_err(io)?;
    }
    if let Err(e) = TableFile::open(&tmp, Some(m)) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    fs::rename(&tmp, &path).map_err(|e| TbError::Io { path: path.clone(), source: e })?;
    Ok(path)
}

/// Header flag: the WDL streams store a position whose best capture already reaches its value as any value
/// not above it (whatever compresses best); a reader takes the better of the stored value and the captures'
/// values ([`TableFile::resolves_captures`]). Set by [`encode_table_resolved`] (the files of `mysl tb gen`
/// up to 4 pieces).
pub const FLAG_CAPTURES: u32 = 1 << 6;

/// Header flag: the DTZ streams leave a win with a winning zeroing move (DTZ 1; 101 for a cursed win)
/// other than a double pawn step to the reader, which looks for such a move. Set with [`FLAG_CAPTURES`].
pub const FLAG_ZEROING: u32 = 1 << 7;

/// Per position (generation index order) of [`capture_values`]: the best capture's WDL plus 2 in the low
/// bits, or this where there is no capture.
const NO_CAPTURE: u8 = 7;
/// ... and this bit when a zeroing move other than a double step reaches the position's own (winning) WDL.
const ZEROING_WINS: u8 = 8;

/// What the writer knows of a position's captures and zeroing moves ([`capture_values`]).
#[derive(Clone, Copy)]
struct Capture {
    /// The best capture's WDL plus 2 or [`NO_CAPTURE`], with [`ZEROING_WINS`].
    wdl: u8,
    /// The best DTM a capture gives (internal value), [`INVALID`] without a capture.
    dtm: i16,
}

/// Header flag: the DTM streams store a position that is not drawn and whose best capture already reaches its
/// DTM as any value the reader ranks no higher (DTM minus DTZ streams: after adding DTZ); a reader takes the
/// better of that and the captures' DTM. Set with [`FLAG_CAPTURES`].
pub const FLAG_DTM_CAPTURES: u32 = 1 << 8;

/// Whether zeroing move `m` of `p` may decide a DTZ entry: not a double pawn step, whose value depends on
/// an en passant capture the tables do not store.
pub(crate) fn zeroing_may_decide(p: &TbPos, m: &crate::pos::TbMove) -> bool {
    !(p.role[m.piece as usize] == mysl_core::Role::Pawn && (m.to as i32 - m.from as i32).abs() == 16)
}

/// For each position and side to move (generation index order): the best value (WDL, mover's view) of its
/// legal captures and whether a zeroing move reaches its own winning WDL (see [`NO_CAPTURE`],
/// [`ZEROING_WINS`]; invalid entries [`NO_CAPTURE`]), from the endings in `subs` and `t` itself.
fn capture_values(t: &Table, subs: &HashMap<Material, Arc<Table>>) -> Result<[Vec<Capture>; 2], TbError> {
    let l = &t.layout;
    let n = l.len();
    let tb = crate::probe::Tablebase::from_tables(subs.clone());
    let size = l.size as usize;
    // the WDL of a position after a zeroing move: in this table (a pawn step) or another
    let child_wdl = |c: &TbPos| -> Result<i8, TbError> {
        if c.material() == t.material() {
            let mut sq = [0u8; 8];
            c.table_order_squares(&mut sq);
            let g = l.index(&sq[..c.n]).ok_or_else(|| TbError::Unsupported("impossible placement".into()))?;
            Ok(value::wdl_of_dtz(t.dtz[c.stm as usize][g as usize]))
        } else {
            Ok(tb.probe(c)?.wdl())
        }
    };
    let none = Capture { wdl: NO_CAPTURE, dtm: INVALID };
    let mut out = [vec![none; size], vec![none; size]];
    const CHUNK: usize = 1 << 14;
    let (white, black) = out.split_at_mut(1);
    let parts: Vec<(usize, &mut [Capture], &mut [Capture])> = white[0]
        .chunks_mut(CHUNK)
        .zip(black[0].chunks_mut(CHUNK))
        .enumerate()
        .map(|(k, (w, b))| (k * CHUNK, w, b))
        .collect();
    let next = std::sync::Mutex::new(parts.into_iter());
    let failed = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut sq = [0u8; 8];
                let mut moves = crate::pos::Moves::default();
                loop {
                    let Some((at, w, b)) = next.lock().unwrap_or_else(|e| e.into_inner()).next() else { break };
                    for k in 0..w.len() {
                        let g = at + k;
                        if l.decode(g as u64, &mut sq).is_none() {
                            continue;
                        }
                        for (side, dest) in [(0usize, &mut w[k]), (1, &mut b[k])] {
                            if t.dtz[side][g] == INVALID {
                                continue;
                            }
                            let stm = if side == 0 { mysl_core::Color::White } else { mysl_core::Color::Black };
                            let p = TbPos::new(&l.pieces, &sq[..n], stm);
                            let own = value::wdl_of_dtz(t.dtz[side][g]);
                            p.zeroing_moves(&mut moves);
                            let mut best: Option<i8> = None;
                            let mut zeroing_wins = false;
                            let mut best_dtm = INVALID;
                            for m in moves.as_slice() {
                                if m.capture.is_none() && (own <= 0 || !zeroing_may_decide(&p, m)) {
                                    continue;
                                }
                                let child = p.play(m);
                                if m.capture.is_some() {
                                    match tb.probe(&child) {
                                        Ok(r) => {
                                            let d = value::parent_of(r.dtm_raw);
                                            if best_dtm == INVALID || value::rank(d) > value::rank(best_dtm) {
                                                best_dtm = d;
                                            }
                                        }
                                        Err(e) => {
                                            failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                                        }
                                    }
                                }
                                match child_wdl(&child) {
                                    Ok(c) => {
                                        if m.capture.is_some() {
                                            best = Some(best.map_or(-c, |b| b.max(-c)));
                                        }
                                        if own > 0 && -c == own && zeroing_may_decide(&p, m) {
                                            zeroing_wins = true;
                                        }
                                    }
                                    Err(e) => {
                                        failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                                    }
                                }
                            }
                            dest.wdl = best.map_or(NO_CAPTURE, |b| (b + 2) as u8)
                                | if zeroing_wins { ZEROING_WINS } else { 0 };
                            dest.dtm = best_dtm;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(out)
}

/// The bytes of a table file (every WDL entry stored as it is).
pub fn encode_table(t: &Table) -> Result<Vec<u8>, TbError> {
    encode(t, None)
}

/// The bytes of a table file whose WDL streams leave the positions decided by a capture to the reader's
/// capture search ([`FLAG_CAPTURES`]); `subs` holds the endings the captures lead to.
pub fn encode_table_resolved(t: &Table, subs: &HashMap<Material, Arc<Table>>) -> Result<Vec<u8>, TbError> {
    encode(t, Some(subs))
}

fn encode(t: &Table, subs: Option<&HashMap<Material, Arc<Table>>>) -> Result<Vec<u8>, TbError> {
    let m = t.material();
    let captures = match subs {
        Some(subs) => Some(capture_values(t, subs)?),
        None => None,
    };
    // a draw is a draw in both metrics (the DTZ and DTM streams leave draws to the WDL stream)
    for side in 0..2 {
        for (&z, &d) in t.dtz[side].iter().zip(&t.dtm[side]) {
            if z != INVALID && d != INVALID && (z == 0) != (d == 0) {
                return Err(TbError::Unsupported(format!("{m}: a position is drawn in one metric only")));
            }
        }
    }
    // the generation index of each storage index (u32::MAX for its holes)
    let mut map = Vec::with_capacity(t.layout.storage_size as usize);
    t.layout.storage_walk(&mut |g| map.push(g.map_or(u32::MAX, |g| g as u32)));
    // the six streams, and the two DTM streams as DTM minus DTZ, encoded on two threads
    let jobs: Vec<(Box<Walk>, usize)> = (0..STREAMS)
        .map(|s| (s, false))
        .chain((4..STREAMS).map(|s| (s, true)))
        .map(|(s, delta)| {
            let side = s % 2;
            let (map, captures) = (&map, &captures);
            let walk: Box<Walk> = Box::new(move |f: &mut dyn FnMut(Option<i16>)| {
                // the value last given (the encoder fills "don't care" entries with it)
                let mut prev = -2i16;
                for &g in map {
                    let v = match g {
                        u32::MAX => None,
                        g => stream_value(s, t.dtz[side][g as usize], t.dtm[side][g as usize], delta),
                    };
                    let v = match (v, captures) {
                        // a WDL entry that a capture decides may hold any value not above its own
                        (Some(w), Some(c)) if s < 2 && (c[side][g as usize].wdl & 7) as i16 - 2 == w => {
                            Some(prev.min(w))
                        }
                        // a DTZ entry that a winning zeroing move decides: anything
                        (Some(_), Some(c)) if s / 2 == 1 && c[side][g as usize].wdl & ZEROING_WINS != 0 => None,
                        // a DTM entry that a capture decides: anything the reader ranks no higher
                        (Some(x), Some(c)) if s >= 4 && c[side][g as usize].dtm == t.dtm[side][g as usize] => {
                            let z = if delta { t.dtz[side][g as usize] } else { 0 };
                            let own = t.dtm[side][g as usize];
                            if value::rank(prev.wrapping_add(z)) <= value::rank(own) {
                                Some(prev)
                            } else {
                                Some(x)
                            }
                        }
                        (v, _) => v,
                    };
                    if let Some(x) = v {
                        prev = x;
                    }
                    f(v);
                }
            });
            (walk, BLOCK_LIMIT[s / 2])
        })
        .collect();
    let mut encoded = encode_jobs(&jobs, 2);
    let mut sections: Vec<Vec<u8>> = encoded.drain(..STREAMS).collect();
    // DTM streams: DTM itself or DTM minus DTZ, whichever is smaller
    let mut flags = if captures.is_some() { FLAG_CAPTURES | FLAG_ZEROING | FLAG_DTM_CAPTURES } else { 0 };
    for (s, d) in (4..STREAMS).zip(encoded) {
        if d.len() < sections[s].len() {
            sections[s] = d;
            flags |= 1 << s;
        }
    }
    Ok(assemble(m, t.layout.storage_size, &sections, flags))
}

/// Writes a table atomically: a temporary file in the same directory, then a rename.
pub fn write_table(dir: &Path, t: &Table) -> Result<PathBuf, TbError> {
    write_bytes(dir, t.material(), &encode_table(t)?)
}

/// Writes a table as [`write_table`], its WDL streams leaving captures to the reader ([`FLAG_CAPTURES`]);
/// `subs` holds the endings its captures lead to. What `mysl tb gen` writes.
pub fn write_table_resolved(dir: &Path, t: &Table, subs: &HashMap<Material, Arc<Table>>) -> Result<PathBuf, TbError> {
    write_bytes(dir, t.material(), &encode_table_resolved(t, subs)?)
}

/// Writes the bytes of a table file atomically: a temporary file in the same directory, then a rename.
fn write_bytes(dir: &Path, m: Material, buf: &[u8]) -> Result<PathBuf, TbError> {
    let path = path_for(dir, &m);
    let io = |e| TbError::Io { path: path.clone(), source: e };
    fs::create_dir_all(dir).map_err(|e| TbError::Io { path: dir.to_path_buf(), source: e })?;
    let tmp = temp_path(dir, m);
    {
        let mut f = fs::File::create(&tmp).map_err(|e| TbError::Io { path: tmp.clone(), source: e })?;
        f.write_all(buf).map_err(|e| TbError::Io { path: tmp.clone(), source: e })?;
        f.sync_all().map_err(|e| TbError::Io { path: tmp.clone(), source: e })?;
    }
    fs::rename(&tmp, &path).map_err(io)?;
    Ok(path)
}

/// Reads an encoded stream section in index order, one block at a time.
struct SectionCursor<'a> {
    bytes: &'a [u8],
    st: Stream,
    size: usize,
    block: usize,
    syms: Vec<u16>,
    at: usize,
}

impl<'a> SectionCursor<'a> {
    fn new(bytes: &'a [u8], size: u64) -> Result<SectionCursor<'a>, String> {
        let st = parse_stream(bytes, 0, bytes.len(), size)?;
        Ok(SectionCursor { bytes, st, size: size as usize, block: 0, syms: Vec::new(), at: 0 })
    }

    /// The next value (the caller reads exactly `size` values).
    fn next_value(&mut self) -> Result<i16, String> {
        if self.at == self.syms.len() {
            let st = &self.st;
            let b = self.block;
            if b >= st.blocks {
                return Err("read beyond the stream".into());
            }
            let a = u32_at(self.bytes, st.offsets_at + 4 * b) as usize;
            let e = u32_at(self.bytes, st.offsets_at + 4 * (b + 1)) as usize;
            let want = st.block_len.min(self.size - b * st.block_len);
            if let Err(e) = st.dec.decode_block(&self.bytes[st.data_at + a..st.data_at + e], want, &mut self.syms) {
                // The callers walk on after an error (they report the first one): every later call
                // fails too, instead of reading a half-decoded block.
                self.syms.clear();
                self.at = 0;
                self.block = usize::MAX;
                return Err(e.into());
            }
            self.block += 1;
            self.at = 0;
        }
        let sym = self.syms[self.at];
        self.at += 1;
        self.st.values.get(sym as usize).copied().ok_or_else(|| "symbol out of range".to_string())
    }
}

/// Streams encoded at a time: two; one for the 5-piece endings with pawns (403 M positions a stream: each
/// pass of the encoder reads all of them).
fn encode_threads(size: u64, threads: usize) -> usize {
    if size > 1 << 28 {
        1
    } else {
        threads.clamp(1, 2)
    }
}

/// Calls `f` with every value in storage index order ([`INVALID`] for its holes), handing the pages read
/// back to the kernel as it goes (mapped values: a walk over a 5-piece table must not make all of it
/// resident; the generation indices rise along the walk).
fn for_stored(layout: &Layout, values: &crate::gen::Values, f: &mut dyn FnMut(i16)) {
    const PART: usize = 1 << 20;
    let mut released = 0;
    layout.storage_walk(&mut |g| match g {
        Some(g) => {
            let g = g as usize;
            if g >= released + 2 * PART {
                let to = (g - PART) & !(PART - 1);
                values.release(released, to);
                released = to;
            }
            f(values[g].load(Relaxed))
        }
        None => f(INVALID),
    });
    values.release(released, values.len());
}

/// Generates one ending metric by metric and writes its file atomically, keeping only one metric in memory
/// at a time (for 5-piece endings: 4 bytes per index entry, about 0.5 GB without pawns): DTZ first, whose
/// WDL and DTZ streams are encoded at once; then DTM, stored as DTM or as DTM minus DTZ (DTZ read back from
/// the encoded DTZ stream), whichever has fewer runs. The ending's file is all that is kept (it is not
/// returned as a [`Table`]).
pub fn generate_file(
    material: Material,
    subs: &dyn TableSource,
    threads: usize,
    progress: &dyn Progress,
    dir: &Path,
) -> Result<PathBuf, TbError> {
    let m = material.normalized();
    let internal = |why: String| TbError::Corrupt { path: path_for(dir, &m), why };
    // the values in a temporary file beside the tables, mapped: resident only while in work or being read
    let store = Store::Mapped(dir);
    let z = generate_metric(m, subs, threads, progress, DTZ, store)?;
    let layout = z.layout.clone();
    let size = layout.storage_size;
    progress.message(&format!("{m} encoding WDL, DTZ"));
    let jobs: Vec<(Box<Walk>, usize)> = (0..4)
        .map(|s| {
            let z = &z;
            let walk: Box<Walk> = Box::new(move |f: &mut dyn FnMut(Option<i16>)| {
                for_stored(&z.layout, &z.values[s % 2], &mut |v| f(stream_value(s, v, v, false)));
            });
            (walk, BLOCK_LIMIT[s / 2])
        })
        .collect();
    let t0 = std::time::Instant::now();
    // at most two streams at a time: each may keep its symbols in memory (a byte per position)
    let mut sections = encode_jobs(&jobs, encode_threads(size, threads));
    trace_mem(&format!("{m} WDL and DTZ encoded ({:.1} s)", t0.elapsed().as_secs_f64()));
    drop(jobs);
    drop(z);
    let dm = generate_metric(m, subs, threads, progress, DTM, store)?;
    progress.message(&format!("{m} encoding DTM"));
    // a draw is a draw in both metrics (the DTZ and DTM streams leave draws to the WDL stream)
    for (side, wdl_section) in sections[..2].iter().enumerate() {
        let mut wdl = SectionCursor::new(wdl_section, size).map_err(&internal)?;
        let mut failed = None;
        for_stored(&layout, &dm.values[side], &mut |d| {
            if failed.is_some() {
                return;
            }
            match wdl.next_value() {
                Ok(w) if d != INVALID && (w == 0) != (d == 0) => {
                    failed = Some(TbError::Unsupported(format!("{m}: a position is drawn in one metric only")))
                }
                Ok(_) => {}
                Err(e) => failed = Some(internal(e)),
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
    }
    // DTM or DTM minus DTZ: the one with fewer runs (value changes, don't-care entries filled) is encoded
    // (encoding both, as for smaller endings, would double the time)
    let mut use_delta = [false; 2];
    for side in 0..2 {
        let mut z = SectionCursor::new(&sections[2 + side], size).map_err(&internal)?;
        let (mut prev, mut runs) = ([None::<i16>; 2], [0u64; 2]);
        let mut failed = None;
        for_stored(&layout, &dm.values[side], &mut |d| {
            let zv = z.next_value().unwrap_or_else(|e| {
                failed.get_or_insert(e);
                0
            });
            for (k, delta) in [false, true].into_iter().enumerate() {
                if let Some(v) = stream_value(4 + side, zv, d, delta) {
                    if prev[k] != Some(v) {
                        runs[k] += 1;
                        prev[k] = Some(v);
                    }
                }
            }
        });
        if let Some(e) = failed {
            return Err(internal(e));
        }
        use_delta[side] = runs[1] < runs[0];
    }
    let failed = std::sync::atomic::AtomicBool::new(false);
    let jobs: Vec<(Box<Walk>, usize)> = (4..STREAMS)
        .map(|s| {
            let delta = use_delta[s - 4];
            let (dm, dtz_section, failed, layout) = (&dm, &sections[s - 2], &failed, &layout);
            let walk: Box<Walk> = Box::new(move |f: &mut dyn FnMut(Option<i16>)| {
                let mut z = if delta { SectionCursor::new(dtz_section, size).ok() } else { None };
                if delta && z.is_none() {
                    failed.store(true, Relaxed);
                }
                for_stored(layout, &dm.values[s % 2], &mut |d| {
                    let zv = match z.as_mut().map(|z| z.next_value()) {
                        Some(Ok(v)) => v,
                        Some(Err(_)) => {
                            failed.store(true, Relaxed);
                            0
                        }
                        None => 0,
                    };
                    f(stream_value(s, if d == INVALID { INVALID } else { zv }, d, delta));
                });
            });
            (walk, BLOCK_LIMIT[s / 2])
        })
        .collect();
    let t0 = std::time::Instant::now();
    let encoded = encode_jobs(&jobs, encode_threads(size, threads));
    trace_mem(&format!("{m} DTM encoded ({:.1} s)", t0.elapsed().as_secs_f64()));
    drop(jobs);
    if failed.load(Relaxed) {
        return Err(internal("the DTZ stream just encoded does not decode".into()));
    }
    let mut flags = 0u32;
    for (k, e) in encoded.into_iter().enumerate() {
        if use_delta[k] {
            flags |= 1 << (4 + k);
        }
        sections.push(e);
    }
    drop(dm);
    // the file must read back (header, checksum, every stream section) before it replaces anything
    write_sections(dir, m, size, &sections, flags)
}

/// One stream of an open file.
#[derive(Clone, Debug)]
struct Stream {
    block_len: usize,
    blocks: usize,
    values: Vec<i16>,
    dec: Codes,
    /// Byte positions in the file of the block offsets and of the block data.
    offsets_at: usize,
    data_at: usize,
    section_len: usize,
}

/// A table file, memory-mapped (or in memory) and checked; values are decoded one block at a time.
#[derive(Debug)]
pub struct TableFile {
    pub path: PathBuf,
    pub layout: Layout,
    bytes: Bytes,
    streams: Vec<Stream>,
    /// Header flags (bit 4, 5: that DTM stream holds DTM minus DTZ).
    flags: u32,
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

/// Parses and checks a stream section `[at, end)`.
fn parse_stream(bytes: &[u8], at: usize, end: usize, size: u64) -> Result<Stream, String> {
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
    Ok(Stream { block_len, blocks, values, dec, offsets_at, data_at, section_len: end - at })
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
        let needs_captures = FLAG_ZEROING | FLAG_DTM_CAPTURES;
        if flags & !(0b11_0000 | FLAG_CAPTURES | needs_captures) != 0
            || (flags & needs_captures != 0 && flags & FLAG_CAPTURES == 0)
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
            let out_of_range = if s < 2 { stream.values.iter().find(|v| !(-2..=2).contains(*v)) } else { None };
            if let Some(v) = out_of_range {
                return Err(bad(format!("stream {s}: WDL value {v} out of range")));
            }
            streams.push(stream);
        }
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = NEXT_ID.fetch_add(1, Relaxed);
        Ok(TableFile { path: path.to_path_buf(), layout, bytes, streams, flags, id })
    }

    /// The values of block `b` of stream `s`.
    fn block_values(&self, s: usize, b: usize, syms: &mut Vec<u16>, out: &mut Vec<i16>) -> Result<(), TbError> {
        let st = &self.streams[s];
        let corrupt =
            |why: String| TbError::Corrupt { path: self.path.clone(), why: format!("stream {s} block {b}: {why}") };
        if b >= st.blocks {
            return Err(corrupt("index beyond the table".into()));
        }
        let a = u32_at(&self.bytes, st.offsets_at + 4 * b) as usize;
        let e = u32_at(&self.bytes, st.offsets_at + 4 * (b + 1)) as usize;
        let want = st.block_len.min(self.layout.storage_size as usize - b * st.block_len);
        st.dec
            .decode_block(&self.bytes[st.data_at + a..st.data_at + e], want, syms)
            .map_err(|e| corrupt(e.to_string()))?;
        out.clear();
        for &x in syms.iter() {
            out.push(st.values.get(x as usize).copied().ok_or_else(|| corrupt("symbol out of range".into()))?);
        }
        Ok(())
    }

    /// One value of stream `s` through this thread's cache of decoded blocks (the generator reads the
    /// endings it promotes into this way: neighbouring positions share blocks).
    fn cached_value(&self, s: usize, idx: u64) -> Result<i16, TbError> {
        let b = idx as usize / self.streams[s].block_len;
        let at = idx as usize % self.streams[s].block_len;
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
            self.block_values(s, b, &mut syms, &mut entry.values)?;
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

    /// One value of stream `s`: walks the tokens of its block (nothing is allocated).
    fn value_at(&self, s: usize, idx: u64) -> Result<i16, TbError> {
        let st = &self.streams[s];
        let b = idx as usize / st.block_len;
        let corrupt =
            |why: &str| TbError::Corrupt { path: self.path.clone(), why: format!("stream {s} block {b}: {why}") };
        if b >= st.blocks {
            return Err(corrupt("index beyond the table"));
        }
        let a = u32_at(&self.bytes, st.offsets_at + 4 * b) as usize;
        let e = u32_at(&self.bytes, st.offsets_at + 4 * (b + 1)) as usize;
        let want = st.block_len.min(self.layout.storage_size as usize - b * st.block_len);
        let sym = st.dec.symbol_at(&self.bytes[st.data_at + a..st.data_at + e], idx as usize % st.block_len, want);
        let sym = sym.map_err(corrupt)?;
        st.values.get(sym as usize).copied().ok_or_else(|| corrupt("symbol out of range"))
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
    /// For a file with [`FLAG_ZEROING`], `zeroing_dtz` is the DTZ a winning zeroing move gives the position
    /// (1, or 101 for a cursed win) when it has one (the stored DTZ is then anything).
    pub fn metrics_with(&self, side: usize, idx: u64, zeroing_dtz: Option<i16>) -> Result<(i16, i16), TbError> {
        let dtz = match zeroing_dtz {
            Some(z) if self.resolves_zeroing() => z,
            _ => self.value_at(2 + side, idx)?,
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

    /// A cursor over the values of stream `s` in storage order.
    fn cursor(&self, s: usize) -> SectionCursor<'_> {
        SectionCursor {
            bytes: &self.bytes,
            st: self.streams[s].clone(),
            size: self.layout.storage_size as usize,
            block: 0,
            syms: Vec::new(),
            at: 0,
        }
    }

    /// The streams `wanted` decoded in generation index order (the others and the holes of the generation
    /// index left [`INVALID`]), walking the storage index once.
    fn decode_streams(&self, wanted: &[usize]) -> Result<Vec<Vec<i16>>, TbError> {
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

    /// Calls `f(index, side, position, its legal zeroing moves)` for every canonical legal position of the
    /// generation index and side to move (the whole-file resolvers below).
    fn for_each_position(
        &self,
        mut f: impl FnMut(usize, usize, &TbPos, &[crate::pos::TbMove]) -> Result<(), TbError>,
    ) -> Result<(), TbError> {
        let l = &self.layout;
        let n = l.len();
        let mut sq = [0u8; 8];
        let mut moves = crate::pos::Moves::default();
        for i in 0..l.size as usize {
            if l.decode(i as u64, &mut sq).is_none() || l.index(&sq[..n]) != Some(i as u64) {
                continue;
            }
            for (side, stm) in [mysl_core::Color::White, mysl_core::Color::Black].into_iter().enumerate() {
                let p = TbPos::new(&l.pieces, &sq[..n], stm);
                if !p.is_legal() {
                    continue;
                }
                p.zeroing_moves(&mut moves);
                f(i, side, &p, moves.as_slice())?;
            }
        }
        Ok(())
    }

    /// With [`FLAG_CAPTURES`]: the decoded WDL values (generation order, both sides) raised to the best value
    /// of each position's captures, probed in `subs`.
    fn resolve_captures(&self, wdl: &mut [Vec<i16>], subs: &HashMap<Material, Arc<Table>>) -> Result<(), TbError> {
        if !self.resolves_captures() {
            return Ok(());
        }
        let tb = crate::probe::Tablebase::from_tables(subs.clone());
        self.for_each_position(|i, side, p, moves| {
            let w = wdl[side][i];
            if w == 2 || w == INVALID {
                return Ok(());
            }
            for m in moves.iter().filter(|m| m.capture.is_some()) {
                wdl[side][i] = wdl[side][i].max(-tb.probe(&p.play(m))?.wdl() as i16);
            }
            Ok(())
        })
    }

    /// With [`FLAG_ZEROING`]: the decoded DTZ values (generation order, both sides) of wins with a winning
    /// zeroing move set to 1 (101 for a cursed win); `wdl` are the resolved WDL values of this table.
    fn resolve_zeroing(
        &self,
        wdl: &[Vec<i16>],
        dtz: &mut [Vec<i16>],
        subs: &HashMap<Material, Arc<Table>>,
    ) -> Result<(), TbError> {
        if !self.resolves_zeroing() {
            return Ok(());
        }
        let tb = crate::probe::Tablebase::from_tables(subs.clone());
        let l = &self.layout;
        let mut csq = [0u8; 8];
        self.for_each_position(|i, side, p, moves| {
            let w = wdl[side][i];
            if w <= 0 || w == INVALID {
                return Ok(());
            }
            for m in moves.iter().filter(|m| zeroing_may_decide(p, m)) {
                let c = p.play(m);
                let cw = if c.material() == l.material {
                    c.table_order_squares(&mut csq);
                    let g = l.index(&csq[..c.n]).ok_or_else(|| TbError::Unsupported("impossible placement".into()))?;
                    wdl[c.stm as usize][g as usize] as i8
                } else {
                    tb.probe(&c)?.wdl()
                };
                if -cw as i16 == w {
                    dtz[side][i] = if w == 2 { 1 } else { 101 };
                    break;
                }
            }
            Ok(())
        })
    }

    /// With [`FLAG_DTM_CAPTURES`]: the decoded DTM values (generation order, both sides, after
    /// [`TableFile::finish_decoded`]) of positions that are not drawn raised to their best capture's.
    fn resolve_dtm_captures(&self, dtm: &mut [Vec<i16>], subs: &HashMap<Material, Arc<Table>>) -> Result<(), TbError> {
        if !self.resolves_dtm_captures() {
            return Ok(());
        }
        let tb = crate::probe::Tablebase::from_tables(subs.clone());
        self.for_each_position(|i, side, p, moves| {
            if dtm[side][i] == INVALID || dtm[side][i] == 0 {
                return Ok(());
            }
            for m in moves.iter().filter(|m| m.capture.is_some()) {
                let c = value::parent_of(tb.probe(&p.play(m))?.dtm_raw);
                if value::rank(c) > value::rank(dtm[side][i]) {
                    dtm[side][i] = c;
                }
            }
            Ok(())
        })
    }

    /// Marks the holes of the generation index and its illegal positions [`INVALID`], gives drawn positions
    /// (WDL 0) the value 0 and adds DTZ back to a DTM stream stored as DTM minus DTZ (`dtz` must then hold
    /// the decoded DTZ streams; an empty vector is a metric not wanted).
    fn finish_decoded(&self, wdl: &[Vec<i16>], dtz: &mut [Vec<i16>], dtm: &mut [Vec<i16>]) {
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

    /// The values of one metric ([`DTM`] or [`DTZ`]) for both sides to move, as the generator made them
    /// ([`INVALID`] for holes and illegal positions, 0 for draws): a third of the memory of
    /// [`TableFile::to_table`] (the totals of a 5-piece ending with pawns).
    pub fn decode_metric(&self, metric: usize, subs: &HashMap<Material, Arc<Table>>) -> Result<[Vec<i16>; 2], TbError> {
        let delta = self.flags & 0b11_0000 != 0;
        let wanted: Vec<usize> = if metric == DTM {
            if delta {
                vec![0, 1, 2, 3, 4, 5]
            } else {
                vec![0, 1, 4, 5]
            }
        } else {
            vec![0, 1, 2, 3]
        };
        let mut st = self.decode_streams(&wanted)?;
        self.resolve_captures(&mut st[..2], subs)?;
        if !st[2].is_empty() {
            let (wdl, rest) = st.split_at_mut(2);
            self.resolve_zeroing(wdl, &mut rest[..2], subs)?;
        }
        let (wdl, rest) = st.split_at_mut(2);
        let (dtz, dtm) = rest.split_at_mut(2);
        if metric == DTM {
            self.finish_decoded(wdl, dtz, dtm);
            self.resolve_dtm_captures(dtm, subs)?;
            Ok([std::mem::take(&mut dtm[0]), std::mem::take(&mut dtm[1])])
        } else {
            self.finish_decoded(wdl, dtz, &mut [Vec::new(), Vec::new()]);
            Ok([std::mem::take(&mut dtz[0]), std::mem::take(&mut dtz[1])])
        }
    }

    /// Decodes the whole file into a table, the same as the generator made it: holes and illegal positions
    /// (which the file leaves as "don't care") are marked [`INVALID`] again, drawn positions get DTM and DTZ 0.
    /// `subs`: the endings its captures lead to (needed for a file with [`FLAG_CAPTURES`]).
    pub fn to_table(&self, subs: &HashMap<Material, Arc<Table>>) -> Result<Table, TbError> {
        let mut st = self.decode_streams(&[0, 1, 2, 3, 4, 5])?;
        self.resolve_captures(&mut st[..2], subs)?;
        let (wdl, rest) = st.split_at_mut(2);
        self.resolve_zeroing(wdl, &mut rest[..2], subs)?;
        let (wdl, rest) = st.split_at_mut(2);
        let (dtz, dtm) = rest.split_at_mut(2);
        self.finish_decoded(wdl, dtz, dtm);
        self.resolve_dtm_captures(dtm, subs)?;
        let dtz = [std::mem::take(&mut dtz[0]), std::mem::take(&mut dtz[1])];
        let dtm = [std::mem::take(&mut dtm[0]), std::mem::take(&mut dtm[1])];
        Ok(Table { layout: self.layout.clone(), dtm, dtz })
    }
}
