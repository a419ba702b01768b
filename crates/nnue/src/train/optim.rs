//! AdamW (β1 0.9, β2 0.999, decoupled weight decay on the weights, not the biases), clipping of the
//! weights and feature biases to ±[`CLIP`], and the cosine learning-rate schedule from `lr` to `lr/10`.

use super::kernels::{self, AdamStep};
use super::model::{Net, CLIP};

pub const BETA1: f32 = 0.9;
pub const BETA2: f32 = 0.999;
pub const EPS: f32 = 1e-8;

/// The optimiser's state: first and second moments (layout of the parameters) and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub t: u64,
}

impl AdamW {
    pub fn new(len: usize) -> AdamW {
        AdamW { m: vec![0.0; len], v: vec![0.0; len], t: 0 }
    }

    /// One step on `net` with gradient `grad` (same layout), learning rate `lr`, decoupled weight decay
    /// `decay`.
    pub fn step(&mut self, simd: bool, net: &mut Net, grad: &[f32], lr: f32, decay: f32) {
        self.t += 1;
        let h = AdamStep {
            lr,
            beta1: BETA1,
            beta2: BETA2,
            eps: EPS,
            bc1: 1.0 - BETA1.powi(self.t.min(i32::MAX as u64) as i32),
            bc2: 1.0 - BETA2.powi(self.t.min(i32::MAX as u64) as i32),
        };
        let l = net.layout;
        let ob = l.output_bias();
        let groups = [
            (l.feature_weights(), decay, CLIP),
            (l.feature_biases(), 0.0, CLIP),
            (l.output_weights(), decay, CLIP),
            (ob..ob + 1, 0.0, f32::INFINITY),
        ];
        for (r, decay, clip) in groups {
            let (p, g) = (&mut net.params[r.clone()], &grad[r.clone()]);
            kernels::adam(simd, p, g, &mut self.m[r.clone()], &mut self.v[r], h, decay, clip);
        }
    }
}

/// Cosine decay from `lr` at step 0 to `lr/10` at step `total`.
pub fn cosine_lr(lr: f32, step: u64, total: u64) -> f32 {
    let x = if total == 0 { 1.0 } else { (step as f64 / total as f64).min(1.0) };
    let min = lr as f64 / 10.0;
    (min + 0.5 * (lr as f64 - min) * (1.0 + (std::f64::consts::PI * x).cos())) as f32
}
