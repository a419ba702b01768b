//! Quantised inference of the (768 → N)×2 → 1 perspective network (docs/nnue.md, "Network file").
//!
//! [`Network::from_bytes`] reads and checks a `.nnue` file; an [`Accumulator`] holds the hidden layer
//! before activation for both perspectives (refreshed from a board or updated by feature changes), and
//! [`Network::evaluate`] turns it into centipawns for the side to move.
//!
//! Two implementations with bit-identical results: AVX2 (`std::arch`, chosen at run time when the CPU
//! has it) and portable scalar code. Accumulator arithmetic wraps in i16 and the output sum wraps in
//! i32 in both, so even a pathological network gives the same numbers either way (and incremental
//! updates equal a refresh exactly).

use std::path::Path;

use mysl_core::{Board, Color, Role, Square};

use crate::features::{self, INPUTS};

/// File magic.
pub const MAGIC: &[u8; 8] = b"MYSLNNUE";
/// The file format version this code reads.
pub const VERSION: u32 = 1;
/// Feature-transformer quantisation (accumulator units per 1.0).
pub const QA: i32 = 255;
/// Output-layer quantisation.
pub const QB: i32 = 64;
/// Network output 1.0 is this many centipawns.
pub const SCALE: i32 = 400;
/// Largest hidden size accepted.
pub const MAX_HIDDEN: usize = 4096;
/// The hidden size must be a multiple of this (one 256-bit register of i16).
pub const LANES: usize = 16;
/// Output weights within ±this let `clamp(x)·w` fit in an i16 (255·128 = 32640), the fast evaluation.
const OUT_WEIGHT_FAST: i16 = 128;
const HEADER: usize = 16;

/// Sixteen i16, 32-byte aligned: the unit of storage and of one AVX2 register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C, align(32))]
pub struct Chunk(pub [i16; LANES]);

/// What is wrong with a network file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
    #[error("not a mysl network (the file does not start with \"MYSLNNUE\")")]
    BadMagic,
    #[error("network format version {0} (this mysl reads version {VERSION})")]
    UnsupportedVersion(u32),
    #[error("hidden size {0} (a positive multiple of 16, at most 4096)")]
    BadHiddenSize(u32),
    #[error("truncated network: {found} bytes, {expected} expected")]
    Truncated { expected: usize, found: usize },
    #[error("{extra} bytes after the network's {expected}")]
    TrailingBytes { expected: usize, extra: usize },
}

/// Which implementation computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Backend {
    /// AVX2 where the CPU has it.
    fn detect() -> Backend {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            return Backend::Avx2;
        }
        Backend::Scalar
    }
}

/// A quantised network.
#[derive(Clone)]
pub struct Network {
    hidden: usize,
    /// `[768][hidden / 16]` chunks: feature-major, a feature's row is contiguous.
    feature_weights: Vec<Chunk>,
    feature_bias: Vec<Chunk>,
    /// `[2][hidden / 16]`: the side to move's half, then the other side's.
    output_weights: Vec<Chunk>,
    output_bias: i32,
    /// Every output weight is within ±128 (the AVX2 evaluation's i16 product is exact).
    output_fits: bool,
    backend: Backend,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network").field("hidden", &self.hidden).field("backend", &self.backend).finish()
    }
}

/// The size in bytes of a network file with `hidden` neurons.
pub fn file_size(hidden: usize) -> usize {
    HEADER + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

fn read_chunks(bytes: &[u8], count: usize) -> Vec<Chunk> {
    bytes
        .chunks_exact(2 * LANES)
        .take(count)
        .map(|c| {
            let mut chunk = Chunk::default();
            for (v, b) in chunk.0.iter_mut().zip(c.chunks_exact(2)) {
                *v = i16::from_le_bytes([b[0], b[1]]);
            }
            chunk
        })
        .collect()
}

impl Network {
    /// Reads a network file's bytes (docs/nnue.md). Every defect is an error, none a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(if bytes.len() < 8 && MAGIC.starts_with(bytes) {
                NetworkError::Truncated { expected: HEADER, found: bytes.len() }
            } else {
                NetworkError::BadMagic
            });
        }
        if bytes.len() < HEADER {
            return Err(NetworkError::Truncated { expected: HEADER, found: bytes.len() });
        }
        let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let version = u32_at(8);
        if version != VERSION {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let hidden_raw = u32_at(12);
        let hidden = hidden_raw as usize;
        if hidden == 0 || !hidden.is_multiple_of(LANES) || hidden > MAX_HIDDEN {
            return Err(NetworkError::BadHiddenSize(hidden_raw));
        }
        let expected = file_size(hidden);
        if bytes.len() < expected {
            return Err(NetworkError::Truncated { expected, found: bytes.len() });
        }
        if bytes.len() > expected {
            return Err(NetworkError::TrailingBytes { expected, extra: bytes.len() - expected });
        }
        let chunks = hidden / LANES;
        let mut at = HEADER;
        let mut take = |count: usize| {
            let v = read_chunks(&bytes[at..], count);
            at += count * 2 * LANES;
            v
        };
        let feature_weights = take(INPUTS * chunks);
        let feature_bias = take(chunks);
        let output_weights = take(2 * chunks);
        let output_bias = u32_at(expected - 4) as i32;
        let output_fits = output_weights.iter().flat_map(|c| c.0).all(|w| w.abs() <= OUT_WEIGHT_FAST);
        Ok(Network {
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            output_fits,
            backend: Backend::detect(),
        })
    }

    /// Reads a network file.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetworkError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path)
            .map_err(|e| NetworkError::Io { path: path.display().to_string(), message: e.to_string() })?;
        Network::from_bytes(&bytes)
    }

    /// The file bytes of this network (`from_bytes(to_bytes())` gives it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_size(self.hidden));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for c in self.feature_weights.iter().chain(&self.feature_bias).chain(&self.output_weights) {
            for v in c.0 {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// The hidden size N.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Whether the AVX2 code runs (else the scalar code).
    pub fn uses_simd(&self) -> bool {
        self.backend != Backend::Scalar
    }

    #[inline(always)]
    fn chunks(&self) -> usize {
        self.hidden / LANES
    }

    /// The weights row of a feature index.
    #[inline(always)]
    fn row(&self, feature: usize) -> &[Chunk] {
        let n = self.chunks();
        &self.feature_weights[feature * n..(feature + 1) * n]
    }

    /// The evaluation of `acc` for `stm`, centipawns (docs/nnue.md):
    /// `((Σ screlu(us)·w_us + Σ screlu(them)·w_them) / QA + bias) · 400 / (QA·QB)`.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        self.evaluate_with(self.backend, acc, stm)
    }

    pub(crate) fn evaluate_with(&self, backend: Backend, acc: &Accumulator, stm: Color) -> i32 {
        let us = &acc.values[stm as usize];
        let them = &acc.values[(!stm) as usize];
        let (w_us, w_them) = self.output_weights.split_at(self.chunks());
        let sum = match backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Backend::Avx2` is only chosen (by `Backend::detect`, or by tests after checking
            // `is_x86_feature_detected!("avx2")`) on a CPU with AVX2; the slices all have `chunks()` chunks.
            Backend::Avx2 if self.output_fits => unsafe { avx2::output(us, w_us, them, w_them) },
            _ => scalar::output(us, w_us).wrapping_add(scalar::output(them, w_them)),
        };
        let v = (sum / QA) as i64 + self.output_bias as i64;
        (v * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

/// The hidden layer before activation, for both perspectives (`values[color]` is `color`'s view).
#[derive(Clone, PartialEq, Eq)]
pub struct Accumulator {
    values: [Vec<Chunk>; 2],
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |c: usize| self.values[c].iter().flat_map(|c| c.0).collect::<Vec<_>>();
        f.debug_struct("Accumulator").field("white", &show(0)).field("black", &show(1)).finish()
    }
}

/// A piece as a feature: colour, role, square.
pub type Feature = (Color, Role, Square);

impl Accumulator {
    /// An accumulator of `net`'s size holding the biases (an empty board).
    pub fn new(net: &Network) -> Accumulator {
        Accumulator { values: [net.feature_bias.clone(), net.feature_bias.clone()] }
    }

    /// `perspective`'s values (N of them).
    pub fn values(&self, perspective: Color) -> impl Iterator<Item = i16> + '_ {
        self.values[perspective as usize].iter().flat_map(|c| c.0)
    }

    /// Recomputes from scratch for the pieces on `board`.
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        let pieces = board.occupied().into_iter().filter_map(|sq| board.piece_at(sq).map(|p| (p.color, p.role, sq)));
        self.refresh_pieces(net, pieces);
    }

    /// Recomputes from scratch for `pieces`.
    pub fn refresh_pieces(&mut self, net: &Network, pieces: impl Iterator<Item = Feature>) {
        for v in &mut self.values {
            v.clone_from(&net.feature_bias);
        }
        for (color, role, sq) in pieces {
            self.add(net, color, role, sq);
        }
    }

    /// Adds a piece.
    pub fn add(&mut self, net: &Network, color: Color, role: Role, sq: Square) {
        for p in Color::ALL {
            let row = net.row(features::index(p, color, role, sq));
            for (a, w) in self.values[p as usize].iter_mut().zip(row) {
                for (x, y) in a.0.iter_mut().zip(w.0) {
                    *x = x.wrapping_add(y);
                }
            }
        }
    }

    /// Removes a piece.
    pub fn sub(&mut self, net: &Network, color: Color, role: Role, sq: Square) {
        for p in Color::ALL {
            let row = net.row(features::index(p, color, role, sq));
            for (a, w) in self.values[p as usize].iter_mut().zip(row) {
                for (x, y) in a.0.iter_mut().zip(w.0) {
                    *x = x.wrapping_sub(y);
                }
            }
        }
    }

    /// Sets `self` to `parent` plus the `added` and minus the `removed` pieces, in one pass.
    #[inline]
    pub fn update(&mut self, net: &Network, parent: &Accumulator, added: &[Feature], removed: &[Feature]) {
        self.update_with(net.backend, net, parent, added, removed);
    }

    pub(crate) fn update_with(
        &mut self,
        backend: Backend,
        net: &Network,
        parent: &Accumulator,
        added: &[Feature],
        removed: &[Feature],
    ) {
        const MAX: usize = 8;
        if added.len() > MAX || removed.len() > MAX {
            // Not a move: one by one.
            self.clone_from(parent);
            added.iter().for_each(|&(c, r, s)| self.add(net, c, r, s));
            removed.iter().for_each(|&(c, r, s)| self.sub(net, c, r, s));
            return;
        }
        let empty: &[Chunk] = &[];
        for p in Color::ALL {
            let mut add_rows = [empty; MAX];
            let mut sub_rows = [empty; MAX];
            for (row, &(c, r, s)) in add_rows.iter_mut().zip(added) {
                *row = net.row(features::index(p, c, r, s));
            }
            for (row, &(c, r, s)) in sub_rows.iter_mut().zip(removed) {
                *row = net.row(features::index(p, c, r, s));
            }
            let (add_rows, sub_rows) = (&add_rows[..added.len()], &sub_rows[..removed.len()]);
            let out = &mut self.values[p as usize];
            let from = &parent.values[p as usize];
            match backend {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `Backend::Avx2` is only chosen on a CPU with AVX2 (see `evaluate_with`); `out`,
                // `from` and every row have the network's `chunks()` chunks.
                Backend::Avx2 => unsafe { avx2::update(out, from, add_rows, sub_rows) },
                Backend::Scalar => scalar::update(out, from, add_rows, sub_rows),
            }
        }
    }
}

mod scalar {
    use super::{Chunk, QA};

    pub(super) fn update(out: &mut [Chunk], from: &[Chunk], add: &[&[Chunk]], sub: &[&[Chunk]]) {
        for (i, (o, f)) in out.iter_mut().zip(from).enumerate() {
            let mut v = f.0;
            for row in add {
                for (x, y) in v.iter_mut().zip(row[i].0) {
                    *x = x.wrapping_add(y);
                }
            }
            for row in sub {
                for (x, y) in v.iter_mut().zip(row[i].0) {
                    *x = x.wrapping_sub(y);
                }
            }
            o.0 = v;
        }
    }

    /// `Σ clamp(x, 0, QA)² · w`, wrapping in i32 (exact for any weights).
    pub(super) fn output(acc: &[Chunk], weights: &[Chunk]) -> i32 {
        let mut sum = 0i32;
        for (a, w) in acc.iter().zip(weights) {
            for (x, w) in a.0.iter().zip(w.0) {
                let c = (*x as i32).clamp(0, QA);
                sum = sum.wrapping_add((c * c).wrapping_mul(w as i32));
            }
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Chunk, QA};

    /// `out = from + Σ add − Σ sub`, chunk by chunk (the rows have at least `out.len()` chunks).
    ///
    /// # Safety
    /// The CPU must have AVX2. (Every memory access goes through references, bounds-checked.)
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update(out: &mut [Chunk], from: &[Chunk], add: &[&[Chunk]], sub: &[&[Chunk]]) {
        for (i, (o, f)) in out.iter_mut().zip(from).enumerate() {
            // SAFETY: a `Chunk` is 32 bytes, 32-byte aligned: one aligned 256-bit load or store.
            let mut v = unsafe { _mm256_load_si256(f.0.as_ptr().cast()) };
            for row in add {
                // SAFETY: as above; `row` has as many chunks as `from` (`i` is in range, checked).
                v = _mm256_add_epi16(v, unsafe { _mm256_load_si256(row[i].0.as_ptr().cast()) });
            }
            for row in sub {
                // SAFETY: as above.
                v = _mm256_sub_epi16(v, unsafe { _mm256_load_si256(row[i].0.as_ptr().cast()) });
            }
            // SAFETY: as above, `o` is a distinct, writable chunk.
            unsafe { _mm256_store_si256(o.0.as_mut_ptr().cast(), v) };
        }
    }

    /// `Σ screlu(us)·w_us + Σ screlu(them)·w_them`, wrapping in i32, with `(c·w) as i16 · c`: exact when
    /// every `|w| ≤ 128`, which the caller checks.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn output(us: &[Chunk], w_us: &[Chunk], them: &[Chunk], w_them: &[Chunk]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (acc, weights) in [(us, w_us), (them, w_them)] {
            for (a, w) in acc.iter().zip(weights) {
                // SAFETY: 32-byte aligned 32-byte chunks (see `update`).
                let (x, w) =
                    unsafe { (_mm256_load_si256(a.0.as_ptr().cast()), _mm256_load_si256(w.0.as_ptr().cast())) };
                let c = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
                let cw = _mm256_mullo_epi16(c, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
            }
        }
        let lo = _mm256_castsi256_si128(sum);
        let hi = _mm256_extracti128_si256::<1>(sum);
        let s = _mm_add_epi32(lo, hi);
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{random_network, Rng};
    use mysl_core::{Chess, Piece};

    fn net(hidden: usize, seed: u64) -> Network {
        Network::from_bytes(&random_network(hidden, seed)).expect("valid random network")
    }

    /// The backends this CPU can run.
    fn backends() -> Vec<Backend> {
        #[allow(unused_mut)]
        let mut b = vec![Backend::Scalar];
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            b.push(Backend::Avx2);
        }
        b
    }

    #[test]
    fn a_network_round_trips_through_its_bytes() {
        let bytes = random_network(32, 1);
        let n = Network::from_bytes(&bytes).expect("valid");
        assert_eq!(n.hidden(), 32);
        assert_eq!(n.to_bytes(), bytes);
        assert_eq!(bytes.len(), file_size(32));
    }

    // Under Miri: the file system is isolated, and a 6 MB network takes minutes to read.
    #[cfg_attr(miri, ignore)]
    #[test]
    fn bad_files_are_named() {
        let good = random_network(32, 2);
        let with = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            Network::from_bytes(&b).map(|_| ())
        };
        assert_eq!(with(&|b| b[0] = b'X'), Err(NetworkError::BadMagic));
        assert_eq!(with(&|b| b.truncate(5)), Err(NetworkError::Truncated { expected: 16, found: 5 }));
        assert_eq!(with(&|b| b.truncate(0)), Err(NetworkError::Truncated { expected: 16, found: 0 }));
        assert_eq!(with(&|b| b.truncate(12)), Err(NetworkError::Truncated { expected: 16, found: 12 }));
        assert_eq!(with(&|b| b[8] = 2), Err(NetworkError::UnsupportedVersion(2)));
        for bad in [0u32, 8, 17, 4112, u32::MAX] {
            assert_eq!(with(&|b| b[12..16].copy_from_slice(&bad.to_le_bytes())), Err(NetworkError::BadHiddenSize(bad)));
        }
        // A valid hidden size that does not match the length.
        assert_eq!(
            with(&|b| b[12..16].copy_from_slice(&64u32.to_le_bytes())),
            Err(NetworkError::Truncated { expected: file_size(64), found: good.len() })
        );
        let n = good.len();
        assert_eq!(with(&|b| b.truncate(n - 1)), Err(NetworkError::Truncated { expected: n, found: n - 1 }));
        assert_eq!(
            with(&|b| b.extend_from_slice(&[0, 0, 0])),
            Err(NetworkError::TrailingBytes { expected: n, extra: 3 })
        );
        assert!(with(&|_| {}).is_ok());
        let e = Network::load("/nonexistent/mysl.nnue").expect_err("no such file");
        assert!(matches!(e, NetworkError::Io { .. }), "{e}");
        // Every prefix of a good file is an error, never a panic.
        for len in (0..n).step_by(97) {
            assert!(Network::from_bytes(&good[..len]).is_err());
        }
        // Large hidden size accepted.
        assert_eq!(Network::from_bytes(&random_network(4096, 3)).map(|n| n.hidden()), Ok(4096));
    }

    /// The evaluation formula written out with i64 arithmetic, straight from docs/nnue.md.
    fn reference(net: &Network, acc: &Accumulator, stm: Color) -> i32 {
        let w: Vec<i64> = net.output_weights.iter().flat_map(|c| c.0).map(i64::from).collect();
        let n = net.hidden();
        let screlu = |x: i16| (x as i64).clamp(0, 255).pow(2);
        let us: i64 = acc.values(stm).zip(&w[..n]).map(|(x, w)| screlu(x) * w).sum();
        let them: i64 = acc.values(!stm).zip(&w[n..]).map(|(x, w)| screlu(x) * w).sum();
        (((us + them) / 255 + net.output_bias as i64) * 400 / (255 * 64)) as i32
    }

    fn random_board(rng: &mut Rng) -> Board {
        let mut b = Board::empty();
        for _ in 0..rng.below(33) {
            let sq = Square::from_index(rng.below(64) as u32);
            let piece = Piece::new(Color::ALL[rng.below(2) as usize], Role::ALL[rng.below(6) as usize]);
            b.set_piece_at(sq, Some(piece));
        }
        b
    }

    /// The portable inference (the backend Miri runs: it detects no AVX2, and cannot run its intrinsics)
    /// on a few boards: refresh, fused updates and the evaluation against the formula.
    #[test]
    fn portable_inference_on_a_few_boards() {
        let mut rng = Rng::new(17);
        for (hidden, seed) in [(32, 31), (48, 32)] {
            let net = net(hidden, seed);
            let mut parent = Accumulator::new(&net);
            for _ in 0..3 {
                parent.refresh(&net, &random_board(&mut rng));
                for stm in Color::ALL {
                    assert_eq!(net.evaluate_with(Backend::Scalar, &parent, stm), reference(&net, &parent, stm));
                    assert_eq!(net.evaluate(&parent, stm), reference(&net, &parent, stm));
                }
                let added = [(Color::White, Role::Queen, Square::D4), (Color::Black, Role::Pawn, Square::E5)];
                let removed = [(Color::White, Role::Knight, Square::G1)];
                let mut want = parent.clone();
                added.iter().for_each(|&(c, r, s)| want.add(&net, c, r, s));
                removed.iter().for_each(|&(c, r, s)| want.sub(&net, c, r, s));
                let mut got = Accumulator::new(&net);
                got.update_with(Backend::Scalar, &net, &parent, &added, &removed);
                assert_eq!(got, want);
                got.update(&net, &parent, &added, &removed);
                assert_eq!(got, want);
            }
        }
    }

    // Under Miri (hours): `portable_inference_on_a_few_boards` covers the portable backend.
    #[cfg_attr(miri, ignore)]
    #[test]
    fn simd_equals_scalar_and_the_formula() {
        let mut rng = Rng::new(7);
        for (hidden, seed) in [(32, 11), (256, 12), (48, 13)] {
            let net = net(hidden, seed);
            assert!(net.output_fits);
            let mut parent = Accumulator::new(&net);
            for _ in 0..200 {
                let board = random_board(&mut rng);
                parent.refresh(&net, &board);
                for stm in Color::ALL {
                    let want = reference(&net, &parent, stm);
                    for b in backends() {
                        assert_eq!(net.evaluate_with(b, &parent, stm), want, "{b:?} N={hidden}");
                    }
                }
                // Fused updates with 0..=4 added and removed random features.
                let feature = |rng: &mut Rng| {
                    (
                        Color::ALL[rng.below(2) as usize],
                        Role::ALL[rng.below(6) as usize],
                        Square::from_index(rng.below(64) as u32),
                    )
                };
                let added: Vec<_> = (0..rng.below(5)).map(|_| feature(&mut rng)).collect();
                let removed: Vec<_> = (0..rng.below(5)).map(|_| feature(&mut rng)).collect();
                let mut want = parent.clone();
                added.iter().for_each(|&(c, r, s)| want.add(&net, c, r, s));
                removed.iter().for_each(|&(c, r, s)| want.sub(&net, c, r, s));
                for b in backends() {
                    let mut got = Accumulator::new(&net);
                    got.update_with(b, &net, &parent, &added, &removed);
                    assert_eq!(got, want, "{b:?}");
                }
            }
        }
    }

    #[test]
    fn output_weights_of_128_take_the_fast_path_and_stay_exact() {
        let mut bytes = random_network(32, 6);
        let at = HEADER + 2 * (INPUTS * 32 + 32);
        for (i, w) in [128i16, -128, 128, -128].into_iter().enumerate() {
            bytes[at + 2 * i..at + 2 * i + 2].copy_from_slice(&w.to_le_bytes());
            bytes[at + 64 + 2 * i..at + 64 + 2 * i + 2].copy_from_slice(&w.to_le_bytes());
        }
        let net = Network::from_bytes(&bytes).expect("valid");
        assert!(net.output_fits);
        let mut rng = Rng::new(4);
        let mut acc = Accumulator::new(&net);
        for _ in 0..100 {
            acc.refresh(&net, &random_board(&mut rng));
            for stm in Color::ALL {
                for b in backends() {
                    assert_eq!(net.evaluate_with(b, &acc, stm), reference(&net, &acc, stm));
                }
            }
        }
    }

    #[test]
    fn large_output_weights_are_still_exact() {
        let mut bytes = random_network(32, 5);
        // An output weight of 1000: the i16 trick would overflow, the exact path runs instead.
        let at = HEADER + 2 * (INPUTS * 32 + 32);
        bytes[at..at + 2].copy_from_slice(&1000i16.to_le_bytes());
        let net = Network::from_bytes(&bytes).expect("valid");
        assert!(!net.output_fits);
        let mut rng = Rng::new(3);
        let mut acc = Accumulator::new(&net);
        for _ in 0..50 {
            acc.refresh(&net, &random_board(&mut rng));
            for b in backends() {
                assert_eq!(net.evaluate_with(b, &acc, Color::White), reference(&net, &acc, Color::White));
            }
        }
    }

    #[test]
    fn a_position_and_its_colour_flipped_mirror_score_alike() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
            "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 b - - 0 1",
        ];
        for hidden in [32, 256] {
            let net = net(hidden, 21);
            let (mut a, mut b) = (Accumulator::new(&net), Accumulator::new(&net));
            for fen in fens {
                let pos = Chess::from_fen(fen).expect("fen");
                let board = pos.board();
                let mut mirror = Board::empty();
                for sq in board.occupied() {
                    let p = board.piece_at(sq).expect("occupied");
                    mirror.set_piece_at(sq.flip_vertical(), Some(Piece::new(!p.color, p.role)));
                }
                a.refresh(&net, board);
                b.refresh(&net, &mirror);
                assert_eq!(a.values(Color::White).collect::<Vec<_>>(), b.values(Color::Black).collect::<Vec<_>>());
                let stm = pos.turn();
                assert_eq!(net.evaluate(&a, stm), net.evaluate(&b, !stm), "{fen}");
            }
        }
    }
}
