//! Fitted evaluation weights, written by `mysl tune` (see docs/tuning.md). `None` until a fit is
//! committed: the evaluator then uses `Weights::initial()`.

use crate::eval::Weights;

pub fn weights() -> Option<Weights> {
    None
}
