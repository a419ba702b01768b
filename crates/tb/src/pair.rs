//! Pair coding of a stream of values (format version 4; Syzygy's scheme, our own code): Re-Pair, then a
//! length-limited canonical Huffman code, in blocks of a fixed number of bytes with a sparse index.
//!
//! Encoding: the stream's distinct values are the *base symbols*; the most frequent adjacent pairs of
//! symbols become new symbols, a round at a time, until no pair occurs [`MIN_FREQ`] times or
//! [`MAX_SYMBOLS`] symbols exist (a symbol expands to at most [`MAX_EXPANSION`] values). The symbols of the
//! resulting sequence get a canonical Huffman code (at most [`MAX_LEN`] bits) and are packed greedily into
//! blocks of `2^block_log` bytes (whole symbols, at most [`BLOCK_VALUES`] values a block).
//!
//! Section layout (little-endian), after the section's codec tag:
//!
//! | bytes | content |
//! |---|---|
//! | 12 | `V` (u16, distinct values), `N` (u16, symbols), shortest and longest code (u8 each), `block_log` (u8), `index_log` (u8), blocks (u32) |
//! | 2·V | the values (i16); base symbol `v` stands for value `v` |
//! | 2·(longest − shortest + 1) | symbols with a code of each length (u16) |
//! | 3·N | the symbols in code order (those without a code after them): left and right (12 bits each, left in the low bits); right `0xFFF`: the base symbol of value `left` |
//! | 2·blocks | values in each block, minus one (u16) |
//! | 6·⌈size / 2^index_log⌉ | the sparse index: for position `k·2^index_log` the block holding it (u32) and its offset there (u16) |
//! | blocks·2^block_log | the blocks, codes most significant bit first, zero padded |
//!
//! A stream of one value has no code and no blocks. A reader finds the block of a position through the
//! sparse index and the block lengths, decodes symbols until the one that covers the position, and walks
//! down that symbol's pairs: one block read, nothing allocated.

use crate::huffman::{self, BitWriter};

/// A pair becomes a symbol only when it occurs at least this often.
pub const MIN_FREQ: u32 = 8;
/// Most symbols of a stream (12-bit symbol numbers; `0xFFF` marks a base symbol).
pub const MAX_SYMBOLS: usize = 4095;
/// Most values one symbol expands to.
pub const MAX_EXPANSION: u32 = 256;
/// Most values in a block.
pub const BLOCK_VALUES: u32 = 1 << 16;
/// Longest code.
pub const MAX_LEN: u8 = huffman::MAX_LEN;
/// New symbols at most per round of Re-Pair.
const PER_ROUND: usize = 1000;
/// Bytes of the section header.
const HEAD: usize = 12;
const BASE: u16 = 0xFFF;

/// Pair-codes `values` in blocks of `2^k` bytes, `k` in `block_logs` (the smallest section is kept);
/// `None` for a stream of more distinct values than symbols.
pub fn encode(values: Vec<i16>, block_logs: std::ops::RangeInclusive<u32>) -> Option<Vec<u8>> {
    // base symbols: the distinct values, in increasing order
    let mut seen = vec![false; 1 << 16];
    for &v in &values {
        seen[v as u16 as usize] = true;
    }
    let distinct: Vec<i16> = (0..1usize << 16).filter(|&k| seen[k]).map(|k| k as u16 as i16).collect();
    let mut sym_of = vec![0u16; 1 << 16];
    for (k, &v) in distinct.iter().enumerate() {
        sym_of[v as u16 as usize] = k as u16;
    }
    if distinct.len() > MAX_SYMBOLS {
        return None;
    }
    let size = values.len();
    let mut seq: Vec<u16> = values.into_iter().map(|v| sym_of[v as u16 as usize]).collect();
    let nv = distinct.len();
    if nv <= 1 {
        let mut out = header(nv.max(1) as u16, 1, 0, 0, 0, 0, 0);
        out.extend_from_slice(&distinct.first().copied().unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&((BASE as u32) << 12).to_le_bytes()[..3]);
        return Some(out);
    }
    let (pairs, len) = re_pair(&mut seq, nv);
    let n = nv + pairs.len();
    // the code: lengths from the symbols' frequencies, symbols renumbered in code order
    let mut freq = vec![0u64; n];
    for &s in &seq {
        freq[s as usize] += 1;
    }
    let lens = huffman::code_lengths(&freq);
    let codes = huffman::canonical_codes(&lens);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&s| (lens[s] == 0, lens[s], s));
    let mut new_of = vec![0u16; n];
    for (k, &s) in order.iter().enumerate() {
        new_of[s] = k as u16;
    }
    let (lo, hi) = lens.iter().filter(|&&l| l > 0).fold((u8::MAX, 0u8), |(a, b), &l| (a.min(l), b.max(l)));
    let mut dictionary = Vec::new();
    for &v in &distinct {
        dictionary.extend_from_slice(&v.to_le_bytes());
    }
    for l in lo..=hi {
        let c = lens.iter().filter(|&&x| x == l).count() as u16;
        dictionary.extend_from_slice(&c.to_le_bytes());
    }
    for &s in &order {
        let (left, right) = if s < nv {
            (s as u32, BASE as u32)
        } else {
            let (a, b) = pairs[s - nv];
            (new_of[a as usize] as u32, new_of[b as usize] as u32)
        };
        dictionary.extend_from_slice(&(left | right << 12).to_le_bytes()[..3]);
    }
    let mut best: Option<Vec<u8>> = None;
    for block_log in block_logs {
        let bytes = 1usize << block_log;
        // greedy packing: (block data, values per block)
        let mut data = Vec::new();
        let mut block_len: Vec<u32> = Vec::new();
        let mut w = BitWriter::default();
        let (mut bits, mut count) = (0usize, 0u32);
        let mut close = |w: &mut BitWriter, count: u32| {
            w.flush();
            let mut b = std::mem::take(&mut w.bytes);
            b.resize(bytes, 0);
            data.extend_from_slice(&b);
            block_len.push(count);
        };
        for &s in &seq {
            let (c, l) = codes[s as usize];
            let t = len[s as usize];
            if bits + l as usize > 8 * bytes || count + t > BLOCK_VALUES {
                close(&mut w, count);
                bits = 0;
                count = 0;
            }
            w.put(c, l);
            bits += l as usize;
            count += t;
        }
        close(&mut w, count);
        let blocks = block_len.len();
        // a sparse index entry for every 2^index_log positions: about one for every two to four blocks
        let avg = (size / blocks).max(1);
        let index_log = ((usize::BITS - 1 - avg.leading_zeros()) + 2).min(30);
        let mut out = header(nv as u16, n as u16, lo, hi, block_log as u8, index_log as u8, blocks as u32);
        out.extend_from_slice(&dictionary);
        for &c in &block_len {
            out.extend_from_slice(&((c - 1) as u16).to_le_bytes());
        }
        let (mut start, mut b) = (0usize, 0usize);
        for k in 0..size.div_ceil(1 << index_log) {
            let pos = k << index_log;
            while pos >= start + block_len[b] as usize {
                start += block_len[b] as usize;
                b += 1;
            }
            out.extend_from_slice(&(b as u32).to_le_bytes());
            out.extend_from_slice(&((pos - start) as u16).to_le_bytes());
        }
        out.extend_from_slice(&data);
        if best.as_ref().is_none_or(|x| out.len() < x.len()) {
            best = Some(out);
        }
    }
    best
}

fn header(nv: u16, n: u16, lo: u8, hi: u8, block_log: u8, index_log: u8, blocks: u32) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&nv.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&[lo, hi, block_log, index_log]);
    out.extend_from_slice(&blocks.to_le_bytes());
    out
}

/// Re-Pair over `seq` (base symbols `0..nv`), in place: each round takes up to [`PER_ROUND`] of the most
/// frequent pairs that cannot overlap (no taken pair's second symbol is another's first) and replaces them
/// left to right. Returns the pairs (symbol `nv + k` is `pairs[k]`) and every symbol's expansion length.
fn re_pair(seq: &mut Vec<u16>, nv: usize) -> (Vec<(u16, u16)>, Vec<u32>) {
    let mut pairs: Vec<(u16, u16)> = Vec::new();
    let mut len = vec![1u32; nv];
    // pair counts by `a * symbols + b` (small while there are few symbols, so that the counting passes
    // over a long sequence stay in cache); all zero between rounds; reused from stream to stream
    let mut counts = COUNTS.lock().map(|mut p| p.pop()).ok().flatten().unwrap_or_default();
    let mut touched: Vec<u32> = Vec::new();
    loop {
        let nsyms = nv + pairs.len();
        if nsyms >= MAX_SYMBOLS || seq.len() < 2 {
            break;
        }
        if counts.len() < nsyms * nsyms {
            counts.resize(nsyms * nsyms, 0);
        }
        let key = |a: u16, b: u16| a as usize * nsyms + b as usize;
        // count, noting each distinct pair once; then the candidates from those, zeroing as we go
        touched.clear();
        for w in seq.windows(2) {
            let k = key(w[0], w[1]);
            let c = &mut counts[k];
            if *c == 0 {
                touched.push(k as u32);
            }
            *c = c.saturating_add(1);
        }
        let mut cands: Vec<(u32, usize)> = Vec::new();
        for &k in &touched {
            let k = k as usize;
            let c = std::mem::take(&mut counts[k]);
            if c >= MIN_FREQ && len[k / nsyms] + len[k % nsyms] <= MAX_EXPANSION {
                cands.push((c, k));
            }
        }
        cands.sort_unstable_by(|x, y| y.0.cmp(&x.0).then((x.1 / nsyms, x.1 % nsyms).cmp(&(y.1 / nsyms, y.1 % nsyms))));
        cands.truncate(PER_ROUND);
        let (mut first, mut second) = (vec![false; nsyms], vec![false; nsyms]);
        let budget = MAX_SYMBOLS - nsyms;
        let mut taken = 0;
        for &(_, k) in &cands {
            if taken == budget {
                break;
            }
            let (a, b) = ((k / nsyms) as u16, (k % nsyms) as u16);
            if !second[a as usize] && !first[b as usize] {
                let s = nv + pairs.len();
                pairs.push((a, b));
                len.push(len[a as usize] + len[b as usize]);
                counts[k] = s as u32 + 1;
                taken += 1;
            }
            first[a as usize] = true;
            second[b as usize] = true;
        }
        if taken == 0 {
            break;
        }
        // replace left to right, in place
        let (mut w, mut i) = (0, 0);
        while i < seq.len() {
            if i + 1 < seq.len() && first[seq[i] as usize] {
                let c = counts[key(seq[i], seq[i + 1])];
                if c > 0 {
                    seq[w] = (c - 1) as u16;
                    w += 1;
                    i += 2;
                    continue;
                }
            }
            seq[w] = seq[i];
            w += 1;
            i += 1;
        }
        seq.truncate(w);
        for &(a, b) in &pairs[pairs.len() - taken..] {
            counts[key(a, b)] = 0;
        }
    }
    if let Ok(mut pool) = COUNTS.lock() {
        pool.push(counts);
    }
    (pairs, len)
}

/// Pair-count tables of finished encodings (all zero), for the next ones: a fresh 64 MB table per
/// stream costs more in page faults than the counting itself.
static COUNTS: std::sync::Mutex<Vec<Vec<u32>>> = std::sync::Mutex::new(Vec::new());

/// A pair-coded stream section, parsed and checked; its blocks are read from the file's bytes.
#[derive(Clone, Debug)]
pub struct PairStream {
    values: Vec<i16>,
    /// Symbols in code order: (left, right), right [`BASE`] for a base symbol of value `left`.
    syms: Vec<(u16, u16)>,
    /// Values each symbol expands to.
    len: Vec<u32>,
    /// Per code length (index = length): left-justified end of its codes (exclusive), first code, first symbol.
    end: Vec<u128>,
    first: Vec<u64>,
    start: Vec<u32>,
    /// Per first byte of a code: the shortest length a code starting with it can have.
    shortest: [u8; 256],
    hi: u8,
    block_bytes: usize,
    index_log: u32,
    blocks: usize,
    /// Byte positions (in the bytes given to [`PairStream::parse`]) of the block lengths, the sparse index
    /// and the block data.
    lens_at: usize,
    index_at: usize,
    data_at: usize,
    size: u64,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl PairStream {
    /// Parses and checks the section `bytes[at..end]` of a stream of `size` values.
    pub fn parse(bytes: &[u8], at: usize, end: usize, size: u64) -> Result<PairStream, String> {
        if end < at || end - at < HEAD {
            return Err("stream section too short".into());
        }
        let nv = u16_at(bytes, at) as usize;
        let n = u16_at(bytes, at + 2) as usize;
        let (lo, hi, block_log, index_log) = (bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
        let blocks = u32_at(bytes, at + 8) as usize;
        if nv == 0 || n < nv || n > MAX_SYMBOLS {
            return Err(format!("{nv} values, {n} symbols"));
        }
        let trivial = blocks == 0;
        if trivial && (nv != 1 || n != 1) {
            return Err("a stream without blocks holds one value".into());
        }
        if !trivial && (lo == 0 || lo > hi || hi > MAX_LEN || !(2..=16).contains(&block_log) || index_log > 30) {
            return Err(format!("bad code lengths {lo}..{hi}, block size 2^{block_log} or index 2^{index_log}"));
        }
        let nlens = if trivial { 0 } else { (hi - lo + 1) as usize };
        let values_at = at + HEAD;
        let counts_at = values_at + 2 * nv;
        let syms_at = counts_at + 2 * nlens;
        let lens_at = syms_at + 3 * n;
        let index_at = lens_at + 2 * blocks;
        let entries = if trivial { 0 } else { size.div_ceil(1u64 << index_log) as usize };
        let data_at = index_at + 6 * entries;
        let block_bytes = if trivial { 0 } else { 1usize << block_log };
        if data_at.checked_add(blocks.checked_mul(block_bytes).ok_or("too many blocks")?) != Some(end) {
            return Err("section length does not match its header".into());
        }
        let values: Vec<i16> = (0..nv).map(|k| u16_at(bytes, values_at + 2 * k) as i16).collect();
        let syms: Vec<(u16, u16)> = (0..n)
            .map(|k| {
                let x = u32::from_le_bytes([
                    bytes[syms_at + 3 * k],
                    bytes[syms_at + 3 * k + 1],
                    bytes[syms_at + 3 * k + 2],
                    0,
                ]);
                ((x & 0xFFF) as u16, (x >> 12) as u16)
            })
            .collect();
        let len = expansion_lengths(&syms, nv)?;
        // the canonical code
        let (mut end_, mut first, mut start) = (vec![0u128; 33], vec![0u64; 33], vec![0u32; 33]);
        let (mut code, mut rank) = (0u64, 0u32);
        for l in lo..=hi {
            let c = if trivial { 0 } else { u16_at(bytes, counts_at + 2 * (l - lo) as usize) as u64 };
            first[l as usize] = code;
            start[l as usize] = rank;
            code += c;
            rank += c as u32;
            if code > 1u64 << l {
                return Err("not a prefix code".into());
            }
            end_[l as usize] = (code as u128) << (64 - l as u32);
            code <<= 1;
        }
        if rank as usize > n {
            return Err("more codes than symbols".into());
        }
        let mut shortest = [hi; 256];
        for (p, x) in shortest.iter_mut().enumerate() {
            if let Some(l) = (lo..=hi).find(|&l| ((p as u128) << 56) < end_[l as usize]) {
                *x = l;
            }
        }
        // block lengths add up to the stream, and the sparse index points where they say
        let mut total = 0u64;
        let mut e = 0usize;
        for b in 0..blocks {
            let bl = u16_at(bytes, lens_at + 2 * b) as u64 + 1;
            while e < entries && ((e as u64) << index_log) < total + bl {
                let pos = (e as u64) << index_log;
                let at = index_at + 6 * e;
                if u32_at(bytes, at) as usize != b || u16_at(bytes, at + 4) as u64 != pos - total {
                    return Err(format!("sparse index entry {e} does not point to position {pos}"));
                }
                e += 1;
            }
            total += bl;
        }
        if !trivial && total != size {
            return Err(format!("blocks hold {total} values, the stream has {size}"));
        }
        Ok(PairStream {
            values,
            syms,
            len,
            end: end_,
            first,
            start,
            shortest,
            hi,
            block_bytes,
            index_log: index_log as u32,
            blocks,
            lens_at,
            index_at,
            data_at,
            size,
        })
    }

    /// The stream's distinct values.
    pub fn values(&self) -> &[i16] {
        &self.values
    }

    /// Blocks of the stream. A stream of one value stores none; it reads as blocks of [`BLOCK_VALUES`]
    /// values, so that a reader that decodes a block at a time (the block cache, the cursor) never holds the
    /// whole stream (hundreds of millions of values in a 5-piece ending).
    pub fn blocks(&self) -> usize {
        if self.blocks == 0 {
            self.size.div_ceil(BLOCK_VALUES as u64) as usize
        } else {
            self.blocks
        }
    }

    /// Values in stored block `b` (`b` below `self.blocks`).
    fn block_len(&self, bytes: &[u8], b: usize) -> u64 {
        u16_at(bytes, self.lens_at + 2 * b) as u64 + 1
    }

    /// The block holding position `idx` and the position its values start at.
    pub fn locate(&self, bytes: &[u8], idx: u64) -> Result<(usize, u64), &'static str> {
        if idx >= self.size {
            return Err("index beyond the stream");
        }
        if self.blocks == 0 {
            let b = idx / BLOCK_VALUES as u64;
            return Ok((b as usize, b * BLOCK_VALUES as u64));
        }
        let e = (idx >> self.index_log) as usize;
        let at = self.index_at + 6 * e;
        let mut b = u32_at(bytes, at) as usize;
        let mut start = (e as u64) << self.index_log;
        start -= u16_at(bytes, at + 4) as u64;
        while b < self.blocks {
            let bl = self.block_len(bytes, b);
            if idx < start + bl {
                return Ok((b, start));
            }
            start += bl;
            b += 1;
        }
        Err("sparse index beyond the blocks")
    }

    /// The next symbol of a block at bit `bit` (the bit after it in `bit`).
    #[inline]
    fn symbol(&self, block: &[u8], bit: &mut usize) -> Result<usize, &'static str> {
        let (at, shift) = (*bit / 8, *bit % 8);
        // the bits from `bit` on, left-justified (zeros past the block): at least 57 of them, and a code
        // is at most [`MAX_LEN`] bits long
        let w = match block.get(at..at + 8) {
            Some(b) => u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            None => {
                let mut w = 0u64;
                for k in 0..8 {
                    w = w << 8 | block.get(at + k).copied().unwrap_or(0) as u64;
                }
                w
            }
        } << shift;
        let mut l = self.shortest[(w >> 56) as usize] as usize;
        while (w as u128) >= self.end[l] {
            l += 1;
            if l > self.hi as usize {
                return Err("invalid code");
            }
        }
        *bit += l;
        if *bit > 8 * block.len() {
            return Err("block ends early");
        }
        let s = self.start[l] as u64 + ((w >> (64 - l)) - self.first[l]);
        Ok(s as usize)
    }

    /// The value of stream position `idx`.
    pub fn value_at(&self, bytes: &[u8], idx: u64) -> Result<i16, &'static str> {
        if self.blocks == 0 {
            return if idx < self.size { Ok(self.values[0]) } else { Err("index beyond the stream") };
        }
        let (b, start) = self.locate(bytes, idx)?;
        let block = &bytes[self.data_at + b * self.block_bytes..self.data_at + (b + 1) * self.block_bytes];
        let mut off = (idx - start) as u32;
        let mut bit = 0usize;
        let mut s = loop {
            let s = self.symbol(block, &mut bit)?;
            let l = self.len[s];
            if off < l {
                break s;
            }
            off -= l;
        };
        loop {
            let (a, c) = self.syms[s];
            if c == BASE {
                return Ok(self.values[a as usize]);
            }
            let la = self.len[a as usize];
            if off < la {
                s = a as usize;
            } else {
                off -= la;
                s = c as usize;
            }
        }
    }

    /// The values of block `b` into `out`.
    pub fn decode_block(&self, bytes: &[u8], b: usize, out: &mut Vec<i16>) -> Result<(), &'static str> {
        out.clear();
        if b >= self.blocks() {
            return Err("block beyond the stream");
        }
        if self.blocks == 0 {
            let start = b as u64 * BLOCK_VALUES as u64;
            out.resize((self.size - start).min(BLOCK_VALUES as u64) as usize, self.values[0]);
            return Ok(());
        }
        let want = self.block_len(bytes, b) as usize;
        let block = &bytes[self.data_at + b * self.block_bytes..self.data_at + (b + 1) * self.block_bytes];
        let mut bit = 0usize;
        let mut stack: Vec<u16> = Vec::new();
        while out.len() < want {
            let s = self.symbol(block, &mut bit)?;
            if out.len() + self.len[s] as usize > want {
                return Err("symbol beyond the block");
            }
            stack.push(s as u16);
            while let Some(s) = stack.pop() {
                let (a, c) = self.syms[s as usize];
                if c == BASE {
                    out.push(self.values[a as usize]);
                } else {
                    stack.push(c);
                    stack.push(a);
                }
            }
        }
        Ok(())
    }
}

/// The expansion length of every symbol, checking that the pairs form no cycle, that every base symbol
/// names a value and that no symbol expands to more than [`BLOCK_VALUES`] values.
fn expansion_lengths(syms: &[(u16, u16)], nv: usize) -> Result<Vec<u32>, String> {
    let n = syms.len();
    let mut len = vec![0u32; n];
    // 0: not seen, 1: in work, 2: done
    let mut state = vec![0u8; n];
    for root in 0..n {
        if state[root] == 2 {
            continue;
        }
        let mut stack = vec![root];
        while let Some(&s) = stack.last() {
            let (a, c) = syms[s];
            if c == BASE {
                if a as usize >= nv {
                    return Err(format!("symbol {s} names value {a} of {nv}"));
                }
                len[s] = 1;
                state[s] = 2;
                stack.pop();
                continue;
            }
            let (a, c) = (a as usize, c as usize);
            if a >= n || c >= n {
                return Err(format!("symbol {s} refers to a symbol beyond {n}"));
            }
            if state[s] == 0 {
                state[s] = 1;
                for x in [a, c] {
                    match state[x] {
                        1 => return Err(format!("symbol {s} is part of itself")),
                        0 => stack.push(x),
                        _ => {}
                    }
                }
                continue;
            }
            if state[a] != 2 || state[c] != 2 {
                return Err(format!("symbol {s} is part of itself"));
            }
            len[s] = len[a] + len[c];
            if len[s] > BLOCK_VALUES {
                return Err(format!("symbol {s} expands to more than {BLOCK_VALUES} values"));
            }
            state[s] = 2;
            stack.pop();
        }
    }
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(input: &[i16], logs: std::ops::RangeInclusive<u32>) {
        let section = encode(input.to_vec(), logs).expect("few values");
        let p = PairStream::parse(&section, 0, section.len(), input.len() as u64).expect("parse");
        for (i, &v) in input.iter().enumerate() {
            assert_eq!(p.value_at(&section, i as u64), Ok(v), "position {i}");
        }
        let mut all = Vec::new();
        let mut out = Vec::new();
        for b in 0..p.blocks() {
            p.decode_block(&section, b, &mut out).expect("block");
            all.extend_from_slice(&out);
        }
        assert_eq!(all, input);
    }

    /// A stream of one value stores no block but reads as blocks of at most 65,536 values (a cache entry
    /// or a cursor never holds the whole stream).
    #[test]
    fn a_stream_of_one_value_reads_in_bounded_blocks() {
        let n = 200_000u64;
        let section = encode(vec![7; n as usize], 4..=6).expect("one value");
        let p = PairStream::parse(&section, 0, section.len(), n).expect("parse");
        assert_eq!(p.blocks(), 4);
        let mut out = Vec::new();
        let mut total = 0;
        for b in 0..p.blocks() {
            p.decode_block(&section, b, &mut out).expect("block");
            assert!(out.len() <= BLOCK_VALUES as usize && out.iter().all(|&v| v == 7));
            total += out.len() as u64;
        }
        assert_eq!(total, n);
        assert!(p.decode_block(&section, 4, &mut out).is_err());
        assert_eq!(p.locate(&section, n - 1), Ok((3, 3 * BLOCK_VALUES as u64)));
        assert_eq!(p.value_at(&section, n - 1), Ok(7));
        assert!(p.value_at(&section, n).is_err());
    }

    #[test]
    fn degenerate_inputs() {
        round_trip(&[5], 4..=6);
        round_trip(&[-3; 1000], 4..=6);
        round_trip(&[1, 2], 4..=6);
        round_trip(&[1, 2, 1, 2, 1, 2, 1], 4..=4);
        round_trip(&vec![0i16; 300_000].into_iter().chain([1]).collect::<Vec<_>>(), 4..=6);
        let p: Vec<i16> = (0..10_000).map(|k| if (k / 7) % 2 == 0 { 2 } else { 0 }).collect();
        round_trip(&p, 4..=10);
        let q: Vec<i16> = (0..50_000).map(|k: i32| ((k * 7919) % 613 - 300) as i16).collect();
        round_trip(&q, 6..=10);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, rng_seed: proptest::test_runner::RngSeed::Fixed(42), ..ProptestConfig::default() })]
        #[test]
        fn encode_then_decode_gives_the_input(
            input in proptest::collection::vec(prop_oneof![4 => -2i16..=2, 1 => -300i16..300], 1..3000),
            runs in proptest::collection::vec((-2i16..=2, 1usize..400), 0..20),
            block_log in 4u32..11,
        ) {
            let mut v = input;
            for (x, n) in runs {
                v.extend(std::iter::repeat_n(x, n));
            }
            round_trip(&v, block_log..=block_log);
        }

        /// A damaged section is refused or read with errors, never a panic.
        #[test]
        fn damaged_sections_do_not_panic(seed_input in proptest::collection::vec(-3i16..=3, 1..2000),
                                         flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
            let mut section = encode(seed_input.clone(), 4..=5).expect("few values");
            for (at, x) in flips {
                let k = at % section.len();
                section[k] ^= x;
            }
            if let Ok(p) = PairStream::parse(&section, 0, section.len(), seed_input.len() as u64) {
                let mut out = Vec::new();
                for i in 0..seed_input.len() as u64 {
                    let _ = p.value_at(&section, i);
                }
                for b in 0..p.blocks() {
                    let _ = p.decode_block(&section, b, &mut out);
                }
            }
        }
    }
}
