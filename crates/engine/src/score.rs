//! Score conventions: centipawns from the side to move; mates as `MATE_SCORE - plies`.

pub const INFINITY: i32 = 32000;
pub const MATE_SCORE: i32 = 31000;
/// Scores at or beyond this are mates (up to 500 plies away).
pub const MATE_BOUND: i32 = MATE_SCORE - 500;
pub const DRAW: i32 = 0;
/// A tablebase win at ply p scores `TB_WIN - p`: below every mate score, above every evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1 - 256;
/// Scores at or beyond this are tablebase wins (or mates).
pub const TB_BOUND: i32 = TB_WIN - 128;

/// Mate in how many moves (positive: we mate), if `score` is a mate score.
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE_SCORE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE_SCORE + score + 1) / 2)
    } else {
        None
    }
}
