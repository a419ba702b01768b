//! Encoding and writing table files (the format: [`crate::format`]): [`write_table`] and
//! [`write_table_resolved`] write a generated [`Table`] (the latter leaving what captures and zeroing moves
//! decide to the reader, found through the prober); [`generate_file`] generates a 5-piece ending metric by
//! metric straight to its file.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use std::sync::atomic::Ordering::Relaxed;

use crate::format::{
    path_for, stream_value, BLOCK_LIMIT, CODEC_PAIRS, CODEC_RUNS, FLAG_CAPTURES, FLAG_DTM_CAPTURES, FLAG_DTZ_SEARCHED,
    FLAG_ZEROING, HEADER, MAGIC, MAX_BLOCK_LOG, MIN_BLOCK_LOG, PAIR_BLOCK_LOGS, PAIR_MAX_VALUES, STREAMS, VERSION,
};
use crate::gen::generate_metric;
use crate::huffman::{self, BitWriter, RUN_CLASSES};
use crate::index::Layout;
use crate::material::Material;
use crate::pair;
use crate::pos::{zeroing_may_decide, TbPos};
use crate::read::{SectionCursor, TableFile};
use crate::table::{trace_mem, Progress, Store, Table, TableSource, DTM, DTZ};
use crate::value::{self, INVALID};
use crate::TbError;

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

/// An encoded stream section (codec tag and section) of the values `walk` gives for metric `metric` (0 WDL,
/// 1 DTZ, 2 DTM): pair coded up to [`PAIR_MAX_VALUES`] positions, else run-length coded.
fn encode_stream(walk: &Walk, metric: usize) -> Vec<u8> {
    let mut len = 0usize;
    walk(&mut |_| len += 1);
    if len <= PAIR_MAX_VALUES {
        let mut values = Vec::with_capacity(len);
        let mut leading = 0;
        walk(&mut |x| match (x, values.last()) {
            (Some(x), _) => values.push(x),
            (None, Some(&p)) => values.push(p),
            (None, None) => leading += 1,
        });
        // the entries before the first value take the first value
        let first = values.first().copied().unwrap_or(0);
        values.splice(0..0, std::iter::repeat_n(first, leading));
        let (lo, hi) = PAIR_BLOCK_LOGS[metric];
        if let Some(section) = pair::encode(values, lo..=hi) {
            let mut out = CODEC_PAIRS.to_le_bytes().to_vec();
            out.extend_from_slice(&section);
            return out;
        }
    }
    let mut out = CODEC_RUNS.to_le_bytes().to_vec();
    out.extend_from_slice(&encode_runs(walk, BLOCK_LIMIT[metric]));
    out
}

/// A run-length coded section of the values `walk` gives (streamed: nothing of the stream's size is kept).
fn encode_runs(walk: &Walk, limit: usize) -> Vec<u8> {
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
            let Some((walk, metric)) = jobs.get(k) else { break };
            done.push((k, encode_stream(walk.as_ref(), *metric)));
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
                let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(&prefix)).and_then(|p| p.parse::<u32>().ok())
                else {
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

/// Per position (generation index order) of [`capture_values`]: the best capture's WDL plus 2 in the low
/// bits, or this where there is no capture.
const NO_CAPTURE: u8 = 7;
/// ... and this bit when a zeroing move other than a double step reaches the position's own (winning) WDL.
const ZEROING_WINS: u8 = 8;
/// ... and this bit when the position is not drawn and a 1-ply search (`pos::searched_dtz`) gives its DTZ.
const DTZ_SEARCHED: u8 = 16;

/// What the writer knows of a position's captures and zeroing moves ([`capture_values`]).
#[derive(Clone, Copy)]
struct Capture {
    /// The best capture's WDL plus 2 or [`NO_CAPTURE`], with [`ZEROING_WINS`].
    wdl: u8,
    /// The best DTM a capture gives (internal value), [`INVALID`] without a capture.
    dtm: i16,
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
                let mut all_moves = crate::pos::Moves::default();
                // the DTZ one ply down, a non-zeroing move: this table, the other side to move
                let same_dtz = |c: &TbPos| -> Result<i16, TbError> {
                    let mut csq = [0u8; 8];
                    c.table_order_squares(&mut csq);
                    let g = l.index(&csq[..c.n]).ok_or_else(|| TbError::Unsupported("impossible placement".into()))?;
                    Ok(t.dtz[c.stm as usize][g as usize])
                };
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
                            let searched = own != 0
                                && match crate::pos::searched_dtz(&p, &mut all_moves, child_wdl, same_dtz) {
                                    Ok(z) => z == Some(t.dtz[side][g]),
                                    Err(e) => {
                                        failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                                        false
                                    }
                                };
                            dest.wdl = best.map_or(NO_CAPTURE, |b| (b + 2) as u8)
                                | if zeroing_wins { ZEROING_WINS } else { 0 }
                                | if searched { DTZ_SEARCHED } else { 0 };
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
    let map = storage_map(t);
    let jobs = stream_jobs(t, &map, &captures);
    let mut encoded = encode_jobs(&jobs, 2);
    let mut sections: Vec<Vec<u8>> = encoded.drain(..STREAMS).collect();
    // DTM streams: DTM itself or DTM minus DTZ, whichever is smaller
    let mut flags = if captures.is_some() { FLAG_CAPTURES | FLAG_ZEROING | FLAG_DTM_CAPTURES } else { 0 };
    for (s, d) in (4..STREAMS).zip(encoded.drain(..2)) {
        if d.len() < sections[s].len() {
            sections[s] = d;
            flags |= 1 << s;
        }
    }
    // DTZ: one side's stream with the searched entries as 0, where that is the smallest (Syzygy stores one
    // side's DTZ; here the other side's stream keeps only what a search does not find)
    if encoded.len() == 2 {
        let keep = sections[2].len() + sections[3].len();
        let white = encoded[0].len() + sections[3].len();
        let black = sections[2].len() + encoded[1].len();
        let side = if white < keep.min(black) {
            Some(0)
        } else if black < keep {
            Some(1)
        } else {
            None
        };
        if let Some(side) = side {
            sections[2 + side] = std::mem::take(&mut encoded[side]);
            flags |= FLAG_DTZ_SEARCHED[side];
        }
    }
    Ok(assemble(m, t.layout.storage_size, &sections, flags))
}

/// The generation index of each storage index of `t` (`u32::MAX` for its holes).
fn storage_map(t: &Table) -> Vec<u32> {
    let mut map = Vec::with_capacity(t.layout.storage_size as usize);
    t.layout.storage_walk(&mut |g| map.push(g.map_or(u32::MAX, |g| g as u32)));
    map
}

/// The walks of the six streams of `t` (storage order, `map` from [`storage_map`]), then the two DTM
/// streams as DTM minus DTZ, then (with `captures`) the two DTZ streams with 0 wherever a search finds the
/// DTZ ([`FLAG_DTZ_SEARCHED`]), each with its metric (0 WDL, 1 DTZ, 2 DTM); `captures` (from [`capture_values`]) leaves what
/// captures and zeroing moves decide to the reader.
fn stream_jobs<'a>(
    t: &'a Table,
    map: &'a [u32],
    captures: &'a Option<[Vec<Capture>; 2]>,
) -> Vec<(Box<Walk<'a>>, usize)> {
    let searched_dtz = if captures.is_some() { 2..4 } else { 0..0 };
    (0..STREAMS)
        .map(|s| (s, false, false))
        .chain((4..STREAMS).map(|s| (s, true, false)))
        .chain(searched_dtz.map(|s| (s, false, true)))
        .map(|(s, delta, searched)| {
            let side = s % 2;
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
                        (Some(w), Some(c)) if s < 2 && (c[side][g as usize].wdl & NO_CAPTURE) as i16 - 2 == w => {
                            Some(prev.min(w))
                        }
                        // a DTZ entry that a winning zeroing move decides: anything
                        (Some(_), Some(c)) if s / 2 == 1 && c[side][g as usize].wdl & ZEROING_WINS != 0 => None,
                        // a DTZ entry that a 1-ply search finds, in the stream that leaves them to one
                        (Some(_), Some(c)) if searched && c[side][g as usize].wdl & DTZ_SEARCHED != 0 => Some(0),
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
            (walk, s / 2)
        })
        .collect()
}

/// The values the writer stores in the six streams of `t` (WDL, DTZ, DTM, each for White and Black to move;
/// DTM as DTM itself), in storage index order, `None` where the value does not matter (before the encoder
/// fills it): what [`encode_table_resolved`] (with `subs`) or [`encode_table`] (without) encodes. For
/// measurements of other codes (`examples/pair_coding.rs`); [`fill_dont_care`] gives the filled sequence.
pub fn stream_values(
    t: &Table,
    subs: Option<&HashMap<Material, Arc<Table>>>,
) -> Result<Vec<Vec<Option<i16>>>, TbError> {
    let captures = match subs {
        Some(subs) => Some(capture_values(t, subs)?),
        None => None,
    };
    let map = storage_map(t);
    let jobs = stream_jobs(t, &map, &captures);
    Ok(jobs[..STREAMS]
        .iter()
        .map(|(walk, _)| {
            let mut v = Vec::with_capacity(map.len());
            walk(&mut |x| v.push(x));
            v
        })
        .collect())
}

/// The stream `values` (from [`stream_values`]) with the entries that do not matter filled as the encoder
/// fills them: the value before them, the leading ones with the first value (the sequence the file codes).
pub fn fill_dont_care(values: &[Option<i16>]) -> Vec<i16> {
    let walk = |f: &mut dyn FnMut(Option<i16>)| values.iter().for_each(|&x| f(x));
    let first = values.iter().find_map(|&x| x).unwrap_or(0);
    let identity: Vec<u16> = (0..=u16::MAX).collect();
    let mut out = Vec::with_capacity(values.len());
    for_blocks(&walk, &[], first, 1 << 16, &identity, &mut |b| out.extend(b.iter().map(|&x| x as i16)));
    out
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
fn for_stored(layout: &Layout, values: &crate::table::Values, f: &mut dyn FnMut(i16)) {
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
            (walk, s / 2)
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
            (walk, s / 2)
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
