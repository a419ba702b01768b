//! Measures what Syzygy-style pair coding (Re-Pair + canonical Huffman) would make of our WDL and DTZ
//! streams (issue 23); a measurement prototype, no change to the file format:
//! `cargo run --release -p mysl-tb --example pair_coding -- [MATERIAL...]` (default: all 3-4 piece endings).
//!
//! For each ending it generates the table, takes the exact values `mysl tb gen` stores in each WDL and DTZ
//! stream (after the writer's don't-care filling and with what captures and zeroing moves decide left to
//! the reader: `write::stream_values` + `write::fill_dont_care`, checked against the file's own decoding),
//! and prints in bits per position (both sides to move over the positions the Syzygy generator counts, as
//! docs/tablebases.md):
//! * (a) the bytes of the streams in our file (run-length + order-1 Huffman tokens);
//! * (b) Re-Pair over the whole stream (the most frequent adjacent pairs become new symbols, a few at a time,
//!   at most 4,095 symbols, each expanding to at most 256 values, a pair kept only when it occurs at least
//!   `MIN_FREQ` times) then a length-limited canonical Huffman code, in fixed-size blocks (WDL 16-64 bytes,
//!   DTZ 64-1,024 bytes, the smallest total) with a 4-byte index entry per block; the dictionary counted (3
//!   bytes per symbol, 2 per value, 2 per code length, a 16-byte header per stream);
//! * (c) as (b) with DTZ for one side to move only (the smaller; the other side's from a 1-ply search, as
//!   Syzygy), and WDL for one side in symmetric endings (KRvKR: the other side is the colour flip);
//! * (d) as (c) with the DTZ stream's sign dropped (a loss in `d` plies stored as `d`: the reader knows the
//!   sign from the WDL it probes first);
//! * (e) as (d) in moves instead of plies (`(d + 1) / 2`: lossy here; Syzygy stores moves where the ply does
//!   not matter for the 50-move rule and its readers accept a DTZ one ply off);
//! * Syzygy's .rtbw / .rtbz files of the ending (`SYZYGY`, default ../shared/data/syzygy).
use std::collections::HashMap;
use std::path::PathBuf;

use mysl_tb::read::TableFile;
use mysl_tb::stats::{stats, Counting};
use mysl_tb::write::{encode_table_resolved, fill_dont_care, stream_values};
use mysl_tb::{Generator, Material, Silent};

/// A pair becomes a symbol only when it occurs at least this often.
const MIN_FREQ: u64 = 8;
/// Most symbols of a stream (Syzygy's 12-bit symbols).
const MAX_SYMBOLS: usize = 4095;
/// Most values one symbol expands to (Syzygy's).
const MAX_EXPANSION: u32 = 256;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<Material> = if args.is_empty() {
        Material::all_up_to(4)
    } else {
        args.iter().map(|s| Material::parse(s).expect("material")).collect()
    };
    let syzygy = std::env::var_os("SYZYGY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/syzygy")));
    let mut g = Generator::new(1);
    println!(
        "{:8} {:>10} | {:>6} {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
        "ending", "positions", "WDL a", "b", "c", "sz", "DTZ a", "a1side", "b", "c", "d", "e", "sz"
    );
    // totals: positions; WDL a, b, c, Syzygy; DTZ a, a one side, b, c, d, e, Syzygy (bytes)
    let mut tot = [0u64; 12];
    for m in Generator::plan(&names) {
        if m.count() > 4 {
            continue;
        }
        g.generate(m, &Silent);
        if !names.contains(&m) {
            continue;
        }
        let t = &g.tables[&m];
        let s = stats(t, true, Counting::SyzygyUnique);
        let positions = s[0].positions + s[1].positions;
        let values = stream_values(t, Some(&g.tables)).expect("stream values");
        let file = TableFile::from_bytes(
            std::path::Path::new("mem"),
            encode_table_resolved(t, &g.tables).expect("encode"),
            Some(m),
        )
        .expect("reopen");
        let a = file.section_bytes();
        let mut b = [0u64; 4];
        let (mut d, mut e) = ([0u64; 2], [0u64; 2]);
        for (k, v) in values[..4].iter().enumerate() {
            let filled = fill_dont_care(v);
            assert_eq!(
                filled,
                file.stored_values(k).expect("decode"),
                "{m} stream {k}: not the values the file stores"
            );
            let limits = if k < 2 { (4, 6) } else { (6, 10) };
            b[k] = pair_coded_bytes(&filled, limits).0;
            if k >= 2 {
                // the DTZ without its sign (the reader knows it from the WDL): a loss in d plies as d
                let unsigned: Vec<Option<i16>> = v.iter().map(|x| x.map(|z| if z < 0 { -1 - z } else { z })).collect();
                d[k - 2] = pair_coded_bytes(&fill_dont_care(&unsigned), limits).0;
                // ... and in moves instead of plies (Syzygy's files where the ply does not matter: lossy here)
                let moves: Vec<Option<i16>> = unsigned.iter().map(|x| x.map(|z| (z + 1) / 2)).collect();
                e[k - 2] = pair_coded_bytes(&fill_dont_care(&moves), limits).0;
            }
        }
        // a symmetric ending's Black-to-move streams are its White-to-move ones with the colours exchanged
        let wdl_c = if m.is_symmetric() { b[0] } else { b[0] + b[1] };
        let size = |ext: &str| std::fs::metadata(syzygy.join(format!("{m}.{ext}"))).map_or(0, |x| x.len());
        let (szw, szz) = (size("rtbw"), size("rtbz"));
        let row = [
            positions,
            a[0] + a[1],
            b[0] + b[1],
            wdl_c,
            szw,
            a[2] + a[3],
            a[2].min(a[3]),
            b[2] + b[3],
            b[2].min(b[3]),
            d[0].min(d[1]),
            e[0].min(e[1]),
            szz,
        ];
        for (x, y) in tot.iter_mut().zip(row) {
            *x += y;
        }
        print_row(&m.to_string(), &row);
    }
    print_row("total", &tot);
    println!(
        "bits per position; a: our files; a1side: our DTZ, one side to move; b: Re-Pair + Huffman, blocks; c: b with \
         one side's DTZ (the smaller) and one side's WDL in symmetric endings; d: c with the DTZ's sign dropped (the \
         WDL gives it); e: d in moves instead of plies (lossy, as Syzygy where the ply does not matter); sz: \
         Syzygy ({})",
        syzygy.display()
    );
}

fn print_row(name: &str, r: &[u64; 12]) {
    let bits = |x: u64| 8.0 * x as f64 / r[0].max(1) as f64;
    println!(
        "{name:8} {:>10} | {:6.3} {:6.3} {:6.3} {:6.3} | {:6.3} {:6.3} {:6.3} {:6.3} {:6.3} {:6.3} {:6.3}",
        r[0],
        bits(r[1]),
        bits(r[2]),
        bits(r[3]),
        bits(r[4]),
        bits(r[5]),
        bits(r[6]),
        bits(r[7]),
        bits(r[8]),
        bits(r[9]),
        bits(r[10]),
        bits(r[11]),
    );
}

/// Bytes of `values` pair coded in blocks of 2^k bytes, `k` in `logs` (the smallest total), and the block
/// size taken; the blocks taken are decoded and checked against `values`.
fn pair_coded_bytes(values: &[i16], logs: (u32, u32)) -> (u64, usize) {
    let code = repair::compress(values, MIN_FREQ, MAX_SYMBOLS, MAX_EXPANSION);
    let Some(best) = (logs.0..=logs.1).map(|l| repair::encode_blocks(&code, 1 << l)).min_by_key(|b| b.total_bytes())
    else {
        return (0, 0);
    };
    assert!(repair::decode_blocks(&code, &best) == values, "the pair code does not decode to the stream");
    (best.total_bytes(), best.block_bytes)
}

/// Re-Pair (pair dictionary over the whole stream), canonical Huffman code of the symbols, fixed-size
/// blocks; and the decoder, for the round-trip test.
mod repair {
    use super::HashMap;
    use mysl_tb::huffman::{self, BitWriter};

    /// A stream as symbols: `values[s]` for a base symbol `s < values.len()`, `pairs[s - values.len()]`
    /// for the others (each expands to its two symbols' expansions); `seq` the stream.
    #[derive(Debug, Clone)]
    pub struct PairCode {
        pub values: Vec<i16>,
        pub pairs: Vec<(u32, u32)>,
        pub seq: Vec<u32>,
        /// Values each symbol expands to.
        pub len: Vec<u32>,
    }

    impl PairCode {
        pub fn symbols(&self) -> usize {
            self.values.len() + self.pairs.len()
        }

        /// Appends the values of symbol `s` to `out`.
        pub fn expand(&self, s: u32, out: &mut Vec<i16>) {
            let nb = self.values.len() as u32;
            if s < nb {
                out.push(self.values[s as usize]);
            } else {
                let (a, b) = self.pairs[(s - nb) as usize];
                self.expand(a, out);
                self.expand(b, out);
            }
        }
    }

    /// A fast hash for the pair keys.
    #[derive(Default)]
    pub struct PairHasher(u64);

    impl std::hash::Hasher for PairHasher {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
            }
        }
        fn write_u64(&mut self, x: u64) {
            self.0 = (x ^ (x >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    type Map<V> = HashMap<u64, V, std::hash::BuildHasherDefault<PairHasher>>;

    fn key(a: u32, b: u32) -> u64 {
        (a as u64) << 32 | b as u64
    }

    /// New symbols at most per round (Syzygy's MAX_NEW).
    const PER_ROUND: usize = 250;

    /// Re-Pair: repeatedly the most frequent adjacent pairs (a round takes up to [`PER_ROUND`] of them that
    /// cannot overlap: no pair's second symbol is another's first) become new symbols, replaced left to
    /// right, until no pair occurs `min_freq` times or `max_symbols` symbols exist; a symbol expands to at
    /// most `max_expansion` values.
    pub fn compress(input: &[i16], min_freq: u64, max_symbols: usize, max_expansion: u32) -> PairCode {
        let mut values: Vec<i16> = input.to_vec();
        values.sort_unstable();
        values.dedup();
        let sym_of: HashMap<i16, u32> = values.iter().enumerate().map(|(k, &v)| (v, k as u32)).collect();
        let mut seq: Vec<u32> = input.iter().map(|v| sym_of[v]).collect();
        let mut len = vec![1u32; values.len()];
        let mut pairs = Vec::new();
        let mut counts: Map<u64> = Map::default();
        let mut new: Map<u32> = Map::default();
        loop {
            let nsyms = values.len() + pairs.len();
            if nsyms >= max_symbols || seq.len() < 2 {
                break;
            }
            counts.clear();
            for w in seq.windows(2) {
                *counts.entry(key(w[0], w[1])).or_insert(0) += 1;
            }
            let mut cands: Vec<(u64, u64)> = counts
                .iter()
                .filter(|&(&k, &f)| f >= min_freq && len[(k >> 32) as usize] + len[k as u32 as usize] <= max_expansion)
                .map(|(&k, &f)| (f, k))
                .collect();
            cands.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            cands.truncate(PER_ROUND);
            // taken without conflict with a more frequent candidate (taken or not)
            let (mut first, mut second) = (vec![false; nsyms], vec![false; nsyms]);
            new.clear();
            let budget = max_symbols - nsyms;
            for &(_, k) in &cands {
                if new.len() == budget {
                    break;
                }
                let (a, b) = ((k >> 32) as u32, k as u32);
                if !second[a as usize] && !first[b as usize] {
                    let s = (values.len() + pairs.len()) as u32;
                    pairs.push((a, b));
                    len.push(len[a as usize] + len[b as usize]);
                    new.insert(k, s);
                }
                first[a as usize] = true;
                second[b as usize] = true;
            }
            if new.is_empty() {
                break;
            }
            // replace, left to right
            let mut out = Vec::with_capacity(seq.len());
            let mut i = 0;
            while i < seq.len() {
                if i + 1 < seq.len() && first[seq[i] as usize] {
                    if let Some(&s) = new.get(&key(seq[i], seq[i + 1])) {
                        out.push(s);
                        i += 2;
                        continue;
                    }
                }
                out.push(seq[i]);
                i += 1;
            }
            seq = out;
        }
        PairCode { values, pairs, seq, len }
    }

    /// A pair-coded stream in fixed-size blocks: each block a whole number of symbols (Huffman coded, most
    /// significant bit first, zero padded), its positions in `block_len`.
    pub struct Blocks {
        pub block_bytes: usize,
        pub lens: Vec<u8>,
        pub data: Vec<u8>,
        pub block_len: Vec<u32>,
        /// Bytes of the dictionary and code description (as Syzygy stores them, estimated).
        pub dictionary: u64,
    }

    /// Most values in a block (Syzygy's 16-bit block sizes).
    const BLOCK_VALUES: u32 = 65_536;

    impl Blocks {
        /// Bytes in all: blocks, a 4-byte index entry per block, the dictionary.
        pub fn total_bytes(&self) -> u64 {
            self.data.len() as u64 + 4 * self.block_len.len() as u64 + self.dictionary
        }
    }

    /// Codes `code.seq` with a canonical Huffman code of its symbol frequencies, in blocks of `block_bytes`.
    /// A stream of one value is a header alone.
    pub fn encode_blocks(code: &PairCode, block_bytes: usize) -> Blocks {
        let n = code.symbols();
        if code.values.len() <= 1 {
            let total: u64 = code.seq.iter().map(|&s| code.len[s as usize] as u64).sum();
            let block_len = if total == 0 { Vec::new() } else { vec![total as u32] };
            return Blocks { block_bytes, lens: vec![0; n], data: Vec::new(), block_len, dictionary: 16 };
        }
        let mut freq = vec![0u64; n];
        for &s in &code.seq {
            freq[s as usize] += 1;
        }
        let lens = huffman::code_lengths(&freq);
        let codes = huffman::canonical_codes(&lens);
        let (lo, hi) = lens.iter().filter(|&&l| l > 0).fold((u8::MAX, 0u8), |(a, b), &l| (a.min(l), b.max(l)));
        let dictionary = 16 + 3 * n as u64 + 2 * code.values.len() as u64 + 2 * (hi.saturating_sub(lo) as u64 + 1);
        let max_bits = 8 * block_bytes as u64;
        let mut data = Vec::new();
        let mut block_len = Vec::new();
        let mut w = BitWriter::default();
        let (mut bits, mut count) = (0u64, 0u32);
        let close = |w: &mut BitWriter, count: u32, data: &mut Vec<u8>, block_len: &mut Vec<u32>| {
            w.flush();
            let mut b = std::mem::take(&mut w.bytes);
            b.resize(block_bytes, 0);
            data.extend_from_slice(&b);
            block_len.push(count);
        };
        for &s in &code.seq {
            let (c, l) = codes[s as usize];
            let t = code.len[s as usize];
            if bits + l as u64 > max_bits || count + t > BLOCK_VALUES {
                close(&mut w, count, &mut data, &mut block_len);
                bits = 0;
                count = 0;
            }
            w.put(c, l);
            bits += l as u64;
            count += t;
        }
        if count > 0 {
            close(&mut w, count, &mut data, &mut block_len);
        }
        Blocks { block_bytes, lens, data, block_len, dictionary }
    }

    /// Decodes every block back into values (the dictionary from `code`, the code from `b.lens`).
    pub fn decode_blocks(code: &PairCode, b: &Blocks) -> Vec<i16> {
        let mut out = Vec::new();
        if code.values.len() <= 1 {
            let total: u64 = b.block_len.iter().map(|&x| x as u64).sum();
            out.resize(total as usize, code.values.first().copied().unwrap_or(0));
            return out;
        }
        // canonical decoding tables: symbols by (length, symbol), first code and first rank per length
        let mut order: Vec<usize> = (0..b.lens.len()).filter(|&i| b.lens[i] > 0).collect();
        order.sort_by_key(|&i| (b.lens[i], i));
        let maxl = order.iter().map(|&i| b.lens[i]).max().unwrap_or(0) as usize;
        let mut count = vec![0u32; maxl + 1];
        for &i in &order {
            count[b.lens[i] as usize] += 1;
        }
        let (mut first, mut start) = (vec![0u32; maxl + 1], vec![0u32; maxl + 1]);
        let (mut c, mut r) = (0u32, 0u32);
        for l in 1..=maxl {
            first[l] = c;
            start[l] = r;
            c = (c + count[l]) << 1;
            r += count[l];
        }
        for (k, chunk) in b.data.chunks(b.block_bytes).enumerate() {
            let want = b.block_len[k] as usize;
            let at = out.len();
            let mut bit = 0usize;
            while out.len() - at < want {
                let (mut v, mut l) = (0u32, 0usize);
                loop {
                    v = (v << 1) | ((chunk[bit / 8] >> (7 - bit % 8)) & 1) as u32;
                    bit += 1;
                    l += 1;
                    if v >= first[l] && v - first[l] < count[l] {
                        break;
                    }
                }
                let s = order[(start[l] + v - first[l]) as usize];
                code.expand(s as u32, &mut out);
            }
        }
        out
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use proptest::prelude::*;

        fn round_trip(input: &[i16], min_freq: u64, max_symbols: usize, block_bytes: usize) {
            let code = compress(input, min_freq, max_symbols, 256);
            assert!(code.symbols() <= max_symbols.max(code.values.len()));
            assert!(code.len.iter().all(|&l| l <= 256));
            let mut flat = Vec::new();
            for &s in &code.seq {
                code.expand(s, &mut flat);
            }
            assert_eq!(flat, input, "the pair sequence expands to the input");
            let b = encode_blocks(&code, block_bytes);
            if code.values.len() > 1 {
                assert_eq!(b.data.len(), b.block_bytes * b.block_len.len());
            }
            assert_eq!(decode_blocks(&code, &b), input, "the blocks decode to the input");
        }

        #[test]
        fn degenerate_inputs() {
            round_trip(&[], 2, 4095, 64);
            round_trip(&[5], 2, 4095, 64);
            round_trip(&[-3; 1000], 2, 4095, 64);
            round_trip(&[1, 2], 1, 4095, 64);
            round_trip(&[1, 2, 1, 2, 1, 2, 1], 1, 4095, 16);
            // long runs: symbols up to 256 values, blocks up to 65,536 values
            round_trip(&vec![0i16; 300_000], 2, 4095, 64);
            // a symbol budget already spent, and one of a single new symbol
            round_trip(&[1, 2, 3, 1, 2, 3, 1, 2, 3], 1, 3, 16);
            round_trip(&[1, 2, 3, 1, 2, 3, 1, 2, 3], 1, 4, 16);
            // a periodic pattern (the bishops' colours of KBBvK)
            let p: Vec<i16> = (0..10_000).map(|k| if (k / 7) % 2 == 0 { 2 } else { 0 }).collect();
            round_trip(&p, 8, 4095, 64);
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 200, rng_seed: proptest::test_runner::RngSeed::Fixed(23), ..ProptestConfig::default() })]
            #[test]
            fn encode_then_decode_gives_the_input(
                input in proptest::collection::vec(prop_oneof![4 => -2i16..=2, 1 => -300i16..300], 0..3000),
                runs in proptest::collection::vec((-2i16..=2, 1usize..400), 0..20),
                min_freq in 1u64..10,
                max_symbols in 1usize..600,
                block_log in 4u32..11,
            ) {
                let mut v = input;
                for (x, n) in runs {
                    v.extend(std::iter::repeat_n(x, n));
                }
                round_trip(&v, min_freq, max_symbols, 1 << block_log);
            }
        }
    }
}
