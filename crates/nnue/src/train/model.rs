//! The float model and its quantised network file (docs/nnue.md).
//!
//! All parameters live in one `f32` vector, laid out as the file: feature weights `[768][N]`, feature
//! biases `[N]`, output weights `[2N]` (side to move's half first), output bias. Gradients and the
//! optimiser's moments use the same layout.

use std::ops::Range;

use super::rng::Rng;
use crate::features::{self, INPUTS};
use crate::record::Record;

/// Scale of the feature weights and biases in the file.
pub const QA: i32 = 255;
/// Scale of the output weights in the file.
pub const QB: i32 = 64;
/// File magic and version.
pub const MAGIC: &[u8; 8] = b"MYSLNNUE";
pub const VERSION: u32 = 1;
/// Weights and feature biases are kept in `[-CLIP, CLIP]` so that the quantised values fit.
pub const CLIP: f32 = 1.98;

/// Where each parameter group lives in the flat vector, for hidden size `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub n: usize,
}

impl Layout {
    pub fn feature_weights(self) -> Range<usize> {
        0..INPUTS * self.n
    }
    pub fn feature_biases(self) -> Range<usize> {
        INPUTS * self.n..(INPUTS + 1) * self.n
    }
    pub fn output_weights(self) -> Range<usize> {
        (INPUTS + 1) * self.n..(INPUTS + 3) * self.n
    }
    pub fn output_bias(self) -> usize {
        (INPUTS + 3) * self.n
    }
    /// Number of parameters.
    pub fn param_count(self) -> usize {
        (INPUTS + 3) * self.n + 1
    }
    /// Parameters that weight decay leaves alone (the biases).
    pub fn is_bias(self, i: usize) -> bool {
        self.feature_biases().contains(&i) || i == self.output_bias()
    }
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub layout: Layout,
    pub params: Vec<f32>,
}

impl Net {
    /// Seeded initialisation: feature weights uniform in ±1/√32 (about 30 features are active), output
    /// weights uniform in ±1/√(2N), biases 0.
    pub fn random(hidden: usize, seed: u64) -> Net {
        let layout = Layout { n: hidden };
        let mut params = vec![0.0; layout.param_count()];
        let mut rng = Rng::stream(seed, 0x1417);
        let a = 1.0 / 32f32.sqrt();
        for p in &mut params[layout.feature_weights()] {
            *p = rng.symmetric(a);
        }
        let a = 1.0 / (2.0 * hidden as f32).sqrt();
        for p in &mut params[layout.output_weights()] {
            *p = rng.symmetric(a);
        }
        Net { layout, params }
    }

    pub fn hidden(&self) -> usize {
        self.layout.n
    }

    /// The model's output (times 400 is centipawns, side to move's view), computed plainly in `f64`
    /// from the decoded record: the reference for the fast kernels.
    pub fn forward(&self, rec: &Record) -> f64 {
        let l = self.layout;
        let n = l.n;
        let p = &self.params;
        let us = rec.turn;
        let mut acc = [vec![0f64; n], vec![0f64; n]];
        for (side, persp) in [us, !us].into_iter().enumerate() {
            for (i, a) in acc[side].iter_mut().enumerate() {
                *a = p[l.feature_biases().start + i] as f64;
            }
            for (color, role, sq) in rec.pieces() {
                let f = features::index(persp, color, role, sq);
                for (i, a) in acc[side].iter_mut().enumerate() {
                    *a += p[f * n + i] as f64;
                }
            }
        }
        let ow = &p[l.output_weights()];
        let mut out = p[l.output_bias()] as f64;
        for (side, acc) in acc.iter().enumerate() {
            for (i, &a) in acc.iter().enumerate() {
                let x = a.clamp(0.0, 1.0);
                out += x * x * ow[side * n + i] as f64;
            }
        }
        out
    }

    /// The quantised network file: QA = 255 for the feature layer, QB = 64 for the output weights, the
    /// output bias at QA·QB, rounded to nearest.
    pub fn to_nnue(&self) -> Vec<u8> {
        let l = self.layout;
        let p = &self.params;
        let mut out = Vec::with_capacity(20 + 2 * (l.param_count() - 1) + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(l.n as u32).to_le_bytes());
        let q16 = |x: f32, s: i32| (x as f64 * s as f64).round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        for &x in &p[l.feature_weights()] {
            out.extend_from_slice(&q16(x, QA).to_le_bytes());
        }
        for &x in &p[l.feature_biases()] {
            out.extend_from_slice(&q16(x, QA).to_le_bytes());
        }
        for &x in &p[l.output_weights()] {
            out.extend_from_slice(&q16(x, QB).to_le_bytes());
        }
        let b = (p[l.output_bias()] as f64 * (QA * QB) as f64).round();
        out.extend_from_slice(&(b.clamp(i32::MIN as f64, i32::MAX as f64) as i32).to_le_bytes());
        out
    }
}

/// What is wrong with a network file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetFileError {
    #[error("not a mysl network file (magic)")]
    Magic,
    #[error("network file version {0} (expected {VERSION})")]
    Version(u32),
    #[error("network file of {len} bytes, {expected} expected for hidden size {hidden}")]
    Size { len: usize, expected: usize, hidden: usize },
}

/// Reference quantised evaluation of `rec` by the network file `net`, side to move's view in
/// centipawns: plain scalar integer code following docs/nnue.md,
/// `((Σ screlu(acc_us[i])·w[i] + Σ screlu(acc_them[i])·w[N+i]) / QA + bias) · 400 / (QA·QB)` with
/// `screlu(x) = clamp(x, 0, QA)²` and truncating integer division.
pub fn eval_quantised(net: &[u8], rec: &Record) -> Result<i32, NetFileError> {
    if net.len() < 16 || &net[..8] != MAGIC {
        return Err(NetFileError::Magic);
    }
    let u32_at = |o: usize| u32::from_le_bytes([net[o], net[o + 1], net[o + 2], net[o + 3]]);
    let version = u32_at(8);
    if version != VERSION {
        return Err(NetFileError::Version(version));
    }
    let n = u32_at(12) as usize;
    let expected = 16 + 2 * (INPUTS * n + n + 2 * n) + 4;
    if net.len() != expected {
        return Err(NetFileError::Size { len: net.len(), expected, hidden: n });
    }
    let i16_at = |k: usize| i16::from_le_bytes([net[16 + 2 * k], net[17 + 2 * k]]) as i64;
    let fb = INPUTS * n;
    let ow = fb + n;
    let bias = i32::from_le_bytes([net[expected - 4], net[expected - 3], net[expected - 2], net[expected - 1]]) as i64;
    let (qa, qb) = (QA as i64, QB as i64);
    let mut sum = 0i64;
    for (side, persp) in [rec.turn, !rec.turn].into_iter().enumerate() {
        let feats: Vec<usize> = rec.pieces().map(|(c, r, sq)| features::index(persp, c, r, sq)).collect();
        for i in 0..n {
            let mut acc = i16_at(fb + i);
            for &f in &feats {
                acc += i16_at(f * n + i);
            }
            let x = acc.clamp(0, qa);
            sum += x * x * i16_at(ow + side * n + i);
        }
    }
    let out = (sum / qa + bias) * 400 / (qa * qb);
    Ok(out as i32)
}
