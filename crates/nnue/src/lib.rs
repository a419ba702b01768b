//! mysl-nnue: the learned evaluation for orthodox chess.
//!
//! - [`record`]: the 32-byte training record that `mysl datagen` writes and `mysl train` reads;
//! - [`features`]: the (768 → N)×2 → 1 perspective network's input features;
//! - [`train`]: the trainer behind `mysl train` and the reference quantised evaluator.
//!
//! The formats are described in docs/nnue.md.

pub mod features;
pub mod record;
pub mod train;
