//! The run-length block code of table files (codec 0 of format version 4, for streams too large to pair code):
//! run-length tokens under a canonical Huffman code; and the canonical Huffman code lengths and bit writer
//! the pair coder (`pair.rs`) shares.
//!
//! A stream of values is first mapped to *symbols* (the stream's distinct values, most frequent first).
//! A block is a sequence of tokens: a *literal* token `s < V` is one value of symbol `s`; a *run* token
//! `V + c` repeats the previous value `2^c + e` more times, where `e` is the next `c` bits (c = 0..=16, so a
//! run covers 1..=131071 repeats). A block starts with a literal. Tokens are coded with one canonical Huffman
//! code per stream (code lengths 1..=[`MAX_LEN`]; bits most significant first; a block starts on a byte
//! boundary). Decoding a value walks the tokens of its block up to it: nothing is allocated.

/// Longest code.
pub const MAX_LEN: u8 = 20;
/// Bits looked up at once when decoding.
const LUT_BITS: u32 = 8;
/// Run classes (`c` in `2^c + e`).
pub const RUN_CLASSES: usize = 17;

/// Tokens of one block of symbols: (token, extra bits value, extra bit count).
pub fn tokens(syms: &[u16], v: usize, out: &mut Vec<(u32, u32, u8)>) {
    out.clear();
    let mut i = 0;
    while i < syms.len() {
        let s = syms[i];
        out.push((s as u32, 0, 0));
        let mut j = i + 1;
        while j < syms.len() && syms[j] == s && j - i < (1 << RUN_CLASSES) {
            j += 1;
        }
        let run = (j - i - 1) as u32; // repeats after the literal
        if run > 0 {
            let c = 31 - run.leading_zeros();
            out.push(((v + c as usize) as u32, run - (1 << c), c as u8));
        }
        i = j;
    }
}

/// Code lengths for the given frequencies (0 for unused tokens), at most [`MAX_LEN`] bits.
pub fn code_lengths(freq: &[u64]) -> Vec<u8> {
    let mut f: Vec<u64> = freq.to_vec();
    loop {
        let lens = huffman_lengths(&f);
        if lens.iter().all(|&l| l <= MAX_LEN) {
            return lens;
        }
        // flatten the distribution and try again
        for x in f.iter_mut() {
            if *x > 0 {
                *x = (*x >> 1) | 1;
            }
        }
    }
}

fn huffman_lengths(freq: &[u64]) -> Vec<u8> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = freq.len();
    let mut lens = vec![0u8; n];
    let used: Vec<usize> = (0..n).filter(|&i| freq[i] > 0).collect();
    if used.len() == 1 {
        lens[used[0]] = 1;
        return lens;
    }
    // nodes: leaves 0..n, then inner nodes; parent links
    let mut parent: Vec<usize> = vec![usize::MAX; n];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = used.iter().map(|&i| Reverse((freq[i], i))).collect();
    while heap.len() > 1 {
        let (Some(Reverse((fa, a))), Some(Reverse((fb, b)))) = (heap.pop(), heap.pop()) else { break };
        let id = parent.len();
        parent.push(usize::MAX);
        parent[a] = id;
        parent[b] = id;
        heap.push(Reverse((fa + fb, id)));
    }
    for &i in &used {
        let mut d = 0u32;
        let mut k = i;
        while parent[k] != usize::MAX {
            k = parent[k];
            d += 1;
        }
        lens[i] = d.min(255) as u8;
    }
    lens
}

/// Canonical codes (code, length) from lengths.
pub fn canonical_codes(lens: &[u8]) -> Vec<(u32, u8)> {
    let mut order: Vec<usize> = (0..lens.len()).filter(|&i| lens[i] > 0).collect();
    order.sort_by_key(|&i| (lens[i], i));
    let mut codes = vec![(0u32, 0u8); lens.len()];
    let mut code = 0u32;
    let mut prev = 0u8;
    for (k, &i) in order.iter().enumerate() {
        if k > 0 {
            code += 1;
        }
        code <<= lens[i] - prev;
        prev = lens[i];
        codes[i] = (code, lens[i]);
    }
    codes
}

/// Bit writer, most significant bit first.
#[derive(Debug, Default)]
pub struct BitWriter {
    pub bytes: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    pub fn put(&mut self, value: u32, bits: u8) {
        if bits == 0 {
            return;
        }
        self.acc = (self.acc << bits) | (value as u64 & ((1u64 << bits) - 1));
        self.n += bits as u32;
        while self.n >= 8 {
            self.n -= 8;
            self.bytes.push((self.acc >> self.n) as u8);
        }
    }
    /// Pads the last byte with zero bits.
    pub fn flush(&mut self) {
        if self.n > 0 {
            self.bytes.push((self.acc << (8 - self.n)) as u8);
            self.n = 0;
        }
        self.acc = 0;
    }
}

/// Decoding tables of a canonical code.
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    /// Per length: first code, index of its first symbol in `sorted`, count.
    first: [u32; MAX_LEN as usize + 1],
    start: [u32; MAX_LEN as usize + 1],
    count: [u32; MAX_LEN as usize + 1],
    sorted: Vec<u16>,
    /// The next [`LUT_BITS`] bits -> token << 8 | length, for codes of at most that length (0: longer code).
    lut: Vec<u32>,
    /// Number of literal symbols (tokens below are literals, from it on run classes).
    pub v: usize,
}

impl Decoder {
    /// From code lengths (checked: a valid prefix code, lengths 0..=MAX_LEN).
    pub fn new(lens: &[u8], v: usize) -> Result<Decoder, String> {
        let mut d = Decoder { v, ..Decoder::default() };
        if lens.len() != v + RUN_CLASSES {
            return Err("bad code table size".into());
        }
        let mut order: Vec<usize> = (0..lens.len()).filter(|&i| lens[i] > 0).collect();
        if order.is_empty() {
            return Err("empty code".into());
        }
        if lens.iter().any(|&l| l > MAX_LEN) {
            return Err("code length too long".into());
        }
        order.sort_by_key(|&i| (lens[i], i));
        // Kraft sum must not exceed 1
        let kraft: u64 = order.iter().map(|&i| 1u64 << (MAX_LEN - lens[i])).sum();
        if kraft > 1u64 << MAX_LEN {
            return Err("not a prefix code".into());
        }
        let mut code = 0u32;
        let mut prev = 0u8;
        for (k, &i) in order.iter().enumerate() {
            let l = lens[i];
            if k > 0 {
                code += 1;
            }
            code <<= l - prev;
            prev = l;
            if d.count[l as usize] == 0 {
                d.first[l as usize] = code;
                d.start[l as usize] = k as u32;
            }
            d.count[l as usize] += 1;
            d.sorted.push(i as u16);
            if l as u32 <= LUT_BITS {
                let shift = LUT_BITS - l as u32;
                let base = (code << shift) as usize;
                if d.lut.is_empty() {
                    d.lut = vec![0; 1 << LUT_BITS];
                }
                for e in &mut d.lut[base..base + (1 << shift)] {
                    *e = (i as u32) << 8 | l as u32;
                }
            }
        }
        Ok(d)
    }

    #[inline]
    fn token(&self, r: &mut BitReader) -> Result<u16, &'static str> {
        r.refill();
        if let Some(&e) = self.lut.get((r.acc >> (64 - LUT_BITS)) as usize) {
            if e != 0 {
                let l = e & 0xff;
                if l > r.n {
                    return Err("block ends early");
                }
                r.acc <<= l;
                r.n -= l;
                return Ok((e >> 8) as u16);
            }
        }
        for l in 1..=MAX_LEN as u32 {
            let code = (r.acc >> (64 - l)) as u32;
            let k = code.wrapping_sub(self.first[l as usize]);
            if k < self.count[l as usize] {
                if l > r.n {
                    return Err("block ends early");
                }
                r.acc <<= l;
                r.n -= l;
                return Ok(self.sorted[(self.start[l as usize] + k) as usize]);
            }
        }
        Err("invalid code")
    }
}

/// The codes of a stream: the token after a literal of symbol `s` is coded with code `ctx[s]`, the first
/// token of a block with code `ctx[V]` (the token after a run with the code of the literal before it).
#[derive(Clone, Debug, Default)]
pub struct Codes {
    pub decoders: Vec<Decoder>,
    pub ctx: Vec<u16>,
    pub v: usize,
}

impl Codes {
    #[inline]
    fn token(&self, r: &mut BitReader, ctx: usize) -> Result<u16, &'static str> {
        let d = self.ctx.get(ctx).and_then(|&c| self.decoders.get(c as usize)).ok_or("bad context")?;
        d.token(r)
    }

    /// The symbol at position `pos` of a block (`want` values), walking its tokens; `Err` for a damaged block.
    #[inline]
    pub fn symbol_at(&self, bytes: &[u8], pos: usize, want: usize) -> Result<u16, &'static str> {
        let mut r = BitReader { bytes, at: 0, acc: 0, n: 0 };
        let mut count = 0usize; // values decoded so far
        let mut last: Option<u16> = None;
        loop {
            let t = self.token(&mut r, last.map_or(self.v, |s| s as usize))? as usize;
            if t < self.v {
                if count == pos {
                    return Ok(t as u16);
                }
                count += 1;
                last = Some(t as u16);
            } else {
                let c = (t - self.v) as u8;
                let run = (1usize << c) + r.bits(c)? as usize;
                let s = last.ok_or("block starts with a run")?;
                if pos < count + run {
                    return Ok(s);
                }
                count += run;
            }
            if count >= want {
                return Err("position beyond the block");
            }
        }
    }

    /// Decodes a whole block into `out` (exactly `want` symbols).
    pub fn decode_block(&self, bytes: &[u8], want: usize, out: &mut Vec<u16>) -> Result<(), &'static str> {
        out.clear();
        let mut r = BitReader { bytes, at: 0, acc: 0, n: 0 };
        while out.len() < want {
            let t = self.token(&mut r, out.last().map_or(self.v, |&s| s as usize))? as usize;
            if t < self.v {
                out.push(t as u16);
            } else {
                let c = (t - self.v) as u8;
                let run = (1usize << c) + r.bits(c)? as usize;
                let s = *out.last().ok_or("block starts with a run")?;
                if out.len() + run > want {
                    return Err("run beyond the block");
                }
                out.extend(std::iter::repeat_n(s, run));
            }
        }
        Ok(())
    }
}

struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
    acc: u64,
    n: u32,
}

impl BitReader<'_> {
    #[inline]
    fn refill(&mut self) {
        if self.n >= 32 {
            return;
        }
        if self.at + 8 <= self.bytes.len() {
            // load 4 bytes at once
            let w = u32::from_be_bytes([
                self.bytes[self.at],
                self.bytes[self.at + 1],
                self.bytes[self.at + 2],
                self.bytes[self.at + 3],
            ]) as u64;
            self.acc |= w << (32 - self.n);
            self.at += 4;
            self.n += 32;
            return;
        }
        while self.n <= 56 && self.at < self.bytes.len() {
            self.acc |= (self.bytes[self.at] as u64) << (56 - self.n);
            self.at += 1;
            self.n += 8;
        }
    }
    #[inline]
    fn bits(&mut self, c: u8) -> Result<u32, &'static str> {
        if c == 0 {
            return Ok(0);
        }
        if self.n < c as u32 {
            self.refill();
            if self.n < c as u32 {
                return Err("block ends early");
            }
        }
        let v = (self.acc >> (64 - c as u32)) as u32;
        self.acc <<= c;
        self.n -= c as u32;
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let syms: Vec<u16> = (0..5000u32).map(|i| if i % 97 < 60 { 0 } else { ((i * 7) % 5) as u16 }).collect();
        let v = 5;
        let mut toks = Vec::new();
        tokens(&syms, v, &mut toks);
        let mut freq = vec![0u64; v + RUN_CLASSES];
        for t in &toks {
            freq[t.0 as usize] += 1;
        }
        let lens = code_lengths(&freq);
        let codes = canonical_codes(&lens);
        let mut w = BitWriter::default();
        for &(t, e, c) in &toks {
            let (code, l) = codes[t as usize];
            w.put(code, l);
            w.put(e, c);
        }
        w.flush();
        let d = Codes { decoders: vec![Decoder::new(&lens, v).expect("decoder")], ctx: vec![0; v + 1], v };
        let mut out = Vec::new();
        d.decode_block(&w.bytes, syms.len(), &mut out).expect("decode");
        assert_eq!(out, syms);
        for p in (0..syms.len()).step_by(13) {
            assert_eq!(d.symbol_at(&w.bytes, p, syms.len()), Ok(syms[p]));
        }
    }
}
