//! Random networks in the file format, for tests and speed measurements (no trained network needed).

use crate::features::INPUTS;
use crate::network::{file_size, MAGIC, VERSION};

pub use mysl_core::rng::SplitMix64 as Rng;

/// Uniform in `lo..=hi`.
pub fn range(rng: &mut Rng, lo: i64, hi: i64) -> i64 {
    lo + rng.below((hi - lo + 1) as u64) as i64
}

/// The file bytes of a random network with `hidden` neurons (a multiple of 16): feature weights in
/// ±40, biases in -50..=150 (so accumulators fall on both sides of the clamp), output weights in ±64 and
/// an output bias in ±2000. The same seed gives the same bytes.
pub fn random_network(hidden: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(file_size(hidden));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(hidden as u32).to_le_bytes());
    let mut push = |count: usize, lo: i64, hi: i64, out: &mut Vec<u8>| {
        for _ in 0..count {
            out.extend_from_slice(&(range(&mut rng, lo, hi) as i16).to_le_bytes());
        }
    };
    push(INPUTS * hidden, -40, 40, &mut out);
    push(hidden, -50, 150, &mut out);
    push(2 * hidden, -64, 64, &mut out);
    let bias = range(&mut Rng::new(seed ^ 0xb1a5), -2000, 2000) as i32;
    out.extend_from_slice(&bias.to_le_bytes());
    out
}
