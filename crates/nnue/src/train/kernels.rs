//! The hot loops: one thread's share of a mini-batch (forward, loss, backward into its own dense
//! gradient buffer, the input layer's gradient only on the rows of active features), the validation
//! loss, the sum of gradient buffers and the AdamW step.
//!
//! The bodies are `#[inline(always)]` loops over contiguous `f32` slices, in blocks of 16 lanes so that
//! reductions vectorise; each entry point is compiled twice, with AVX2+FMA (chosen at run time when
//! the CPU has it) and portably.

use super::data::{self, Raw};
use super::model::Layout;
use crate::features::INPUTS;

const LANES: usize = 16;

/// Per-thread scratch, allocated once: the accumulators of a tile of positions (two per position,
/// overwritten by their gradients in the backward pass), their features, and the tile's inverted
/// index (for each active feature, the accumulators it feeds).
#[derive(Clone, Debug)]
pub struct Scratch {
    n: usize,
    tile: usize,
    acc: Vec<f32>,
    feats: Vec<[u16; 32]>,
    counts: Vec<usize>,
    users: Vec<u16>,
    start: Vec<u16>,
    distinct: Vec<u16>,
    list: Vec<u16>,
}

impl Scratch {
    pub fn new(n: usize) -> Scratch {
        // a tile's accumulators take at most 32 KiB (L1), up to 64 positions
        let tile = (4096 / n.max(1)).clamp(1, 64);
        Scratch {
            n,
            tile,
            acc: vec![0.0; 2 * tile * n],
            feats: vec![[0; 32]; 2 * tile],
            counts: vec![0; tile],
            users: vec![0; INPUTS],
            start: vec![0; INPUTS],
            distinct: Vec::with_capacity(INPUTS),
            list: vec![0; 2 * tile * 32],
        }
    }

    /// Builds the inverted index of the first `slots` feature lists: `distinct` the features, and for
    /// each `f` of them `list[start[f] - users[f]..start[f]]` the slots where it is active (the caller
    /// resets `users[f]` to 0 after use).
    #[inline(always)]
    fn index(&mut self, slots: usize) {
        self.distinct.clear();
        for s in 0..slots {
            for &f in &self.feats[s][..self.counts[s / 2]] {
                let u = &mut self.users[f as usize];
                if *u == 0 {
                    self.distinct.push(f);
                }
                *u += 1;
            }
        }
        let mut at = 0u16;
        for &f in &self.distinct {
            self.start[f as usize] = at;
            at += self.users[f as usize];
        }
        for s in 0..slots {
            for &f in &self.feats[s][..self.counts[s / 2]] {
                let st = &mut self.start[f as usize];
                self.list[*st as usize] = s as u16;
                *st += 1;
            }
        }
    }
}

/// Whether the AVX2+FMA kernels can run here.
pub fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[inline(always)]
fn madd<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FMA {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

#[inline(always)]
fn clamp01(x: f32) -> f32 {
    let x = if x < 0.0 { 0.0 } else { x };
    if x > 1.0 {
        1.0
    } else {
        x
    }
}

#[inline(always)]
fn add_assign(dst: &mut [f32], src: &[f32]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += *s;
    }
}

/// `acc = bias + Σ rows[f]`, in register blocks of 64.
#[inline(always)]
fn accumulate(acc: &mut [f32], bias: &[f32], fw: &[f32], feats: &[u16], n: usize) {
    const B: usize = 64;
    let full = n / B * B;
    let mut c = 0;
    while c < full {
        let mut r = [0f32; B];
        r.copy_from_slice(&bias[c..c + B]);
        for &f in feats {
            let row = &fw[f as usize * n + c..f as usize * n + c + B];
            for k in 0..B {
                r[k] += row[k];
            }
        }
        acc[c..c + B].copy_from_slice(&r);
        c += B;
    }
    if full < n {
        acc[full..].copy_from_slice(&bias[full..n]);
        for &f in feats {
            add_assign(&mut acc[full..], &fw[f as usize * n + full..f as usize * n + n]);
        }
    }
}

/// `Σ clamp(acc, 0, 1)² · w`.
#[inline(always)]
fn screlu_dot<const FMA: bool>(acc: &[f32], w: &[f32]) -> f32 {
    let mut s = [0f32; LANES];
    let (a_chunks, w_chunks) = (acc.chunks_exact(LANES), w.chunks_exact(LANES));
    let (a_rest, w_rest) = (a_chunks.remainder(), w_chunks.remainder());
    for (a, w) in a_chunks.zip(w_chunks) {
        for k in 0..LANES {
            let x = clamp01(a[k]);
            s[k] = madd::<FMA>(x * x, w[k], s[k]);
        }
    }
    let mut t = 0.0;
    for (a, w) in a_rest.iter().zip(w_rest) {
        let x = clamp01(*a);
        t += x * x * w;
    }
    s.iter().sum::<f32>() + t
}

/// Output layer backward for one half: `gw += g·h`, and the accumulator is replaced by its gradient
/// `g·w·h'(acc)`.
#[inline(always)]
fn backward_out<const FMA: bool>(acc: &mut [f32], w: &[f32], g: f32, gw: &mut [f32]) {
    for ((a, w), gw) in acc.iter_mut().zip(w).zip(gw.iter_mut()) {
        let x = clamp01(*a);
        *gw = madd::<FMA>(g, x * x, *gw);
        let inside = *a > 0.0 && *a < 1.0;
        *a = if inside { 2.0 * x * g * w } else { 0.0 };
    }
}

/// Forward of one record into accumulators `acc` (2N: side to move, other side) with features
/// `fs`, `fn_`; returns the output and the number of pieces.
#[inline(always)]
fn forward<const FMA: bool>(
    p: &[f32],
    l: Layout,
    rec: &Raw,
    acc: &mut [f32],
    fs: &mut [u16; 32],
    fn_: &mut [u16; 32],
) -> (f32, usize) {
    let n = l.n;
    let count = data::features(rec, fs, fn_);
    let fw = &p[l.feature_weights()];
    let fb = &p[l.feature_biases()];
    let ow = &p[l.output_weights()];
    let (us, them) = acc.split_at_mut(n);
    accumulate(us, fb, fw, &fs[..count], n);
    accumulate(them, fb, fw, &fn_[..count], n);
    let out = p[l.output_bias()] + screlu_dot::<FMA>(us, &ow[..n]) + screlu_dot::<FMA>(them, &ow[n..]);
    (out, count)
}

/// The training pass over `idx`, a tile of positions at a time: per position forward, loss and the
/// output layer's backward; then the input layer's gradient feature by feature, each active row of
/// the gradient read and written once per tile with the tile's accumulator gradients (in L1) added.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn train_body<const FMA: bool>(
    p: &[f32],
    l: Layout,
    data: &[Raw],
    idx: &[u32],
    wdl: f32,
    scale: f32,
    grad: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    let n = l.n;
    debug_assert_eq!(s.n, n);
    let mut loss = 0f64;
    let (gfw, rest) = grad.split_at_mut(l.feature_weights().end);
    let (gfb, rest) = rest.split_at_mut(n);
    let (gow, gob) = rest.split_at_mut(2 * n);
    let (gow_us, gow_them) = gow.split_at_mut(n);
    let ow = &p[l.output_weights()];
    for (t, tile) in idx.chunks(s.tile).enumerate() {
        // the records are read in shuffled order: fetch the next tile's while this one is worked on
        for &i in idx.iter().skip((t + 1) * s.tile).take(s.tile) {
            prefetch(&data[i as usize]);
        }
        for (k, &i) in tile.iter().enumerate() {
            let rec = &data[i as usize];
            let acc = &mut s.acc[2 * k * n..2 * (k + 1) * n];
            let [fs, fn_] = &mut s.feats[2 * k..2 * k + 2] else { unreachable!() };
            let (out, count) = forward::<FMA>(p, l, rec, acc, fs, fn_);
            s.counts[k] = count;
            let y = data::sigmoid(out);
            let t = data::target(rec, wdl);
            loss += ((y - t) * (y - t)) as f64;
            let g = 2.0 * (y - t) * y * (1.0 - y) * scale;
            gob[0] += g;
            let (us, them) = acc.split_at_mut(n);
            backward_out::<FMA>(us, &ow[..n], g, gow_us);
            backward_out::<FMA>(them, &ow[n..], g, gow_them);
            for ((b, a), c) in gfb.iter_mut().zip(us.iter()).zip(them.iter()) {
                *b += *a + *c;
            }
        }
        let slots = 2 * tile.len();
        s.index(slots);
        for (j, &f) in s.distinct.iter().enumerate() {
            if let Some(&next) = s.distinct.get(j + 1) {
                prefetch_row(&gfw[next as usize * n..(next as usize + 1) * n]);
            }
            let users = s.users[f as usize] as usize;
            let end = s.start[f as usize] as usize;
            let slots = &s.list[end - users..end];
            scatter(&mut gfw[f as usize * n..(f as usize + 1) * n], &s.acc, slots, n);
            s.users[f as usize] = 0;
        }
    }
    loss
}

/// Asks for a record's cache lines.
#[inline(always)]
fn prefetch(r: &Raw) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = r.as_ptr() as *const i8;
        // SAFETY: a prefetch is only a hint and reads nothing; both addresses lie in the record.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p);
            _mm_prefetch::<_MM_HINT_T0>(p.add(RECORD_LAST));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// Asks for the cache lines of a row of floats.
#[inline(always)]
fn prefetch_row(row: &[f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        for line in row.chunks(16) {
            // SAFETY: a prefetch is only a hint and reads nothing; the address lies in the row.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr() as *const i8) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = row;
}

const RECORD_LAST: usize = crate::record::RECORD_SIZE - 1;

/// `row += Σ acc[slot]` over `slots`, in register blocks of 64.
#[inline(always)]
fn scatter(row: &mut [f32], acc: &[f32], slots: &[u16], n: usize) {
    const B: usize = 64;
    let full = n / B * B;
    let mut c = 0;
    while c < full {
        let mut r = [0f32; B];
        r.copy_from_slice(&row[c..c + B]);
        for &sl in slots {
            let a = &acc[sl as usize * n + c..sl as usize * n + c + B];
            for k in 0..B {
                r[k] += a[k];
            }
        }
        row[c..c + B].copy_from_slice(&r);
        c += B;
    }
    if full < n {
        for &sl in slots {
            add_assign(&mut row[full..], &acc[sl as usize * n + full..(sl as usize + 1) * n]);
        }
    }
}

#[inline(always)]
fn val_body<const FMA: bool>(p: &[f32], l: Layout, data: &[Raw], wdl: f32, s: &mut Scratch) -> f64 {
    let mut loss = 0f64;
    let acc = &mut s.acc[..2 * l.n];
    let [fs, fn_] = &mut s.feats[..2] else { unreachable!() };
    for rec in data {
        let (out, _) = forward::<FMA>(p, l, rec, acc, fs, fn_);
        let d = data::sigmoid(out) - data::target(rec, wdl);
        loss += (d * d) as f64;
    }
    loss
}

/// AdamW hyper-parameters of one step.
#[derive(Clone, Copy, Debug)]
pub struct AdamStep {
    pub lr: f32,
    pub beta1: f32,
    pub beta2: f32,
    pub eps: f32,
    /// `1 − β1^t`, `1 − β2^t`.
    pub bc1: f32,
    pub bc2: f32,
}

#[inline(always)]
fn adam_body(p: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], h: AdamStep, decay: f32, clip: f32) {
    let (b1, b2) = (h.beta1, h.beta2);
    let (ib1, ib2) = (1.0 / h.bc1, 1.0 / h.bc2);
    for (((p, g), m), v) in p.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
        *m = b1 * *m + (1.0 - b1) * g;
        *v = b2 * *v + (1.0 - b2) * g * g;
        let step = (*m * ib1) / ((*v * ib2).sqrt() + h.eps) + decay * *p;
        let x = *p - h.lr * step;
        *p = x.clamp(-clip, clip);
    }
}

macro_rules! dispatch {
    ($simd:expr, $avx:ident, $portable:ident ( $($arg:expr),* )) => {{
        #[cfg(target_arch = "x86_64")]
        {
            // `simd_available` again here (a cached flag): these functions are safe, so a caller's
            // `simd = true` alone must not reach an AVX2 kernel on a CPU without it.
            if $simd && simd_available() {
                // SAFETY: the kernels' only precondition is a CPU with AVX2 and FMA (`#[target_feature]`),
                // checked on the line above; their memory accesses are safe Rust (bounds-checked).
                return unsafe { $avx($($arg),*) };
            }
        }
        let _ = $simd;
        $portable($($arg),*)
    }};
}

#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
/// # Safety
/// The CPU must have AVX2 and FMA ([`simd_available`]); the body is safe Rust compiled with them.
#[target_feature(enable = "avx2,fma")]
unsafe fn train_avx2(
    p: &[f32],
    l: Layout,
    d: &[Raw],
    idx: &[u32],
    wdl: f32,
    scale: f32,
    g: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    train_body::<true>(p, l, d, idx, wdl, scale, g, s)
}

#[allow(clippy::too_many_arguments)]
fn train_portable(
    p: &[f32],
    l: Layout,
    d: &[Raw],
    idx: &[u32],
    wdl: f32,
    scale: f32,
    g: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    train_body::<false>(p, l, d, idx, wdl, scale, g, s)
}

/// Adds the gradient of `scale ·` the summed loss over `data[idx]` to `grad`; returns the summed loss.
/// `simd` asks for the AVX2+FMA kernel; it runs only where [`simd_available`] (else the portable one).
#[allow(clippy::too_many_arguments)]
pub fn train_chunk(
    simd: bool,
    p: &[f32],
    l: Layout,
    data: &[Raw],
    idx: &[u32],
    wdl: f32,
    scale: f32,
    grad: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    dispatch!(simd, train_avx2, train_portable(p, l, data, idx, wdl, scale, grad, s))
}

#[cfg(target_arch = "x86_64")]
/// # Safety
/// The CPU must have AVX2 and FMA ([`simd_available`]); the body is safe Rust compiled with them.
#[target_feature(enable = "avx2,fma")]
unsafe fn val_avx2(p: &[f32], l: Layout, d: &[Raw], wdl: f32, s: &mut Scratch) -> f64 {
    val_body::<true>(p, l, d, wdl, s)
}

fn val_portable(p: &[f32], l: Layout, d: &[Raw], wdl: f32, s: &mut Scratch) -> f64 {
    val_body::<false>(p, l, d, wdl, s)
}

/// The summed loss over `data`.
pub fn val_chunk(simd: bool, p: &[f32], l: Layout, data: &[Raw], wdl: f32, s: &mut Scratch) -> f64 {
    dispatch!(simd, val_avx2, val_portable(p, l, data, wdl, s))
}

/// The model output for one record (tests, tools).
pub fn output(simd: bool, p: &[f32], l: Layout, rec: &Raw, s: &mut Scratch) -> f32 {
    #[cfg(target_arch = "x86_64")]
    /// # Safety
    /// The CPU must have AVX2 and FMA ([`simd_available`]).
    #[target_feature(enable = "avx2,fma")]
    unsafe fn avx(p: &[f32], l: Layout, rec: &Raw, s: &mut Scratch) -> f32 {
        let [fs, fn_] = &mut s.feats[..2] else { unreachable!() };
        forward::<true>(p, l, rec, &mut s.acc[..2 * l.n], fs, fn_).0
    }
    fn portable(p: &[f32], l: Layout, rec: &Raw, s: &mut Scratch) -> f32 {
        let [fs, fn_] = &mut s.feats[..2] else { unreachable!() };
        forward::<false>(p, l, rec, &mut s.acc[..2 * l.n], fs, fn_).0
    }
    dispatch!(simd, avx, portable(p, l, rec, s))
}

#[cfg(target_arch = "x86_64")]
/// # Safety
/// The CPU must have AVX2 and FMA ([`simd_available`]); the body is safe Rust compiled with them.
#[target_feature(enable = "avx2,fma")]
unsafe fn add_avx2(dst: &mut [f32], src: &[f32]) {
    add_assign(dst, src)
}

fn add_portable(dst: &mut [f32], src: &[f32]) {
    add_assign(dst, src)
}

/// `dst += src`.
pub fn add(simd: bool, dst: &mut [f32], src: &[f32]) {
    dispatch!(simd, add_avx2, add_portable(dst, src))
}

#[cfg(target_arch = "x86_64")]
/// # Safety
/// The CPU must have AVX2 and FMA ([`simd_available`]); the body is safe Rust compiled with them.
#[target_feature(enable = "avx2,fma")]
unsafe fn adam_avx2(p: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], h: AdamStep, decay: f32, clip: f32) {
    adam_body(p, g, m, v, h, decay, clip)
}

fn adam_portable(p: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], h: AdamStep, decay: f32, clip: f32) {
    adam_body(p, g, m, v, h, decay, clip)
}

/// One AdamW step on a parameter group with weight decay `decay` and clipping to `[-clip, clip]`.
#[allow(clippy::too_many_arguments)]
pub fn adam(simd: bool, p: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], h: AdamStep, decay: f32, clip: f32) {
    dispatch!(simd, adam_avx2, adam_portable(p, g, m, v, h, decay, clip))
}
