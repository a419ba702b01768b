//! Variant rules as types. Each variant is a zero-sized type implementing [`Rules`]; the move generator,
//! make/unmake and outcome code are generic over it, so every `if R::CONST` is decided at compile time and
//! orthodox chess runs code with no variant branches in it.
//!
//! Today only [`Orthodox`] exists; the variants of docs/variants.md plug in here (docs/architecture.md).

use std::fmt::Debug;
use std::hash::Hash;

/// The rules of one game. Implemented by zero-sized marker types.
pub trait Rules: Copy + Clone + Default + Debug + Send + Sync + 'static {
    /// The variant's name as used by the CLI and `UCI_Variant`.
    const NAME: &'static str;
    /// Extra state the position carries (remaining checks, pockets, dice roll); `()` for orthodox.
    type State: Copy + Clone + Default + Debug + PartialEq + Eq + Hash + Send + Sync;
}

/// Orthodox chess (FIDE), including Chess960 through the castling mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Orthodox;

impl Rules for Orthodox {
    const NAME: &'static str = "chess";
    type State = ();
}
