//! A small seeded generator (SplitMix64) for initialisation, the validation split and the per-epoch
//! shuffle: the same seed gives the same run.

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng(mysl_core::rng::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(mysl_core::rng::SplitMix64::new(seed ^ 0x6A09_E667_F3BC_C908))
    }

    /// A generator for stream `stream` of `seed` (e.g. the shuffle of epoch `stream`).
    pub fn stream(seed: u64, stream: u64) -> Rng {
        let mut r = Rng::new(seed.wrapping_add(stream.wrapping_mul(0xD1B5_4A32_D192_ED03)));
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[-a, a)`.
    pub fn symmetric(&mut self, a: f32) -> f32 {
        (self.unit() * 2.0 - 1.0) * a
    }

    /// Fisher-Yates.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}
