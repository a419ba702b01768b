//! mysl-engine: search and evaluation for orthodox chess and every variant of `mysl-core`.
//!
//! Modules follow Stockfish's split: `search` (with move ordering), `eval`, `see`, `tt`, `timeman`,
//! `bench`, `score`. Protocols live in `mysl-protocol`.

pub mod analysis;
pub mod bench;
pub mod endgame;
pub mod eval;
pub mod nnue;
pub mod score;
pub mod search;
pub mod see;
pub mod skill;
pub mod timeman;
pub mod tt;
pub mod tuned;

pub use mysl_nnue::{Network, NetworkError};
pub use mysl_tb::Tablebases;
pub use nnue::default_network;
pub use search::{Histories, Limits, SearchInfo, SearchResult, Searcher};
pub use skill::{Skill, SkillRng};
pub use tt::TranspositionTable;
