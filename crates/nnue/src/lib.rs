//! mysl-nnue: the learned evaluation for orthodox chess.
//!
//! - [`record`]: the 32-byte training record that `mysl datagen` writes and `mysl train` reads;
//! - [`features`]: the (768 → N)×2 → 1 perspective network's input features;
//! - [`train`]: the trainer behind `mysl train` and the reference quantised evaluator;
//! - [`network`]: the network file and quantised inference (accumulators, AVX2 and scalar);
//! - [`delta`]: piece placements and the feature changes between them (incremental updates);
//! - [`testing`]: random networks for tests and speed measurements.
//!
//! The formats are described in docs/nnue.md.

pub mod delta;
pub mod features;
pub mod network;
pub mod record;
pub mod testing;
pub mod train;

pub use delta::{Delta, Placement};
pub use network::{Accumulator, Network, NetworkError};
