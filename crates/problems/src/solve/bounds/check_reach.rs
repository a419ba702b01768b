//! The check-reach bound for help play ending in mate, and the empty-board move counts it and the
//! flight bound share.

use mysl_core::Color;

use crate::board::Board;
use crate::walk;

/// Empty-board lower bounds on the moves an orthodox piece needs to give check, for
/// [`check_reachable`].
pub(super) struct ReachTables {
    /// `[kind N B R Q][from][king][b]`: fewest moves for a piece on `from` to stand on a square
    /// from which it attacks some square within king distance `b` (0..=7) of `king`, on an empty
    /// board (obstacles only make paths longer); 255: never.
    pub(super) piece: Vec<u8>,
    /// `[colour][from][king][b]`: the same for a pawn that does not promote (one move a rank, at
    /// most one file a move, a double step from its second rank counted); 255: never.
    pub(super) pawn: Vec<u8>,
    /// `[kind N B R Q][from][to]`: fewest moves from `from` to `to` on an empty board; 255: never.
    pub(super) moves: Vec<u8>,
}

pub(super) const NEVER: u8 = 255;

pub(super) fn reach_index(a: usize, from: usize, king: usize, b: usize) -> usize {
    ((a * 64 + from) * 64 + king) * 8 + b
}

pub(super) fn coords(s: usize) -> (i32, i32) {
    ((s % 8) as i32, (s / 8) as i32)
}

pub(super) fn king_dist(a: usize, b: usize) -> i32 {
    let ((af, ar), (bf, br)) = (coords(a), coords(b));
    (af - bf).abs().max((ar - br).abs())
}

pub(super) fn reach_tables() -> &'static ReachTables {
    static T: std::sync::OnceLock<ReachTables> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        // Knight distances by breadth-first search.
        let kn: Vec<[u8; 64]> = (0..64).map(walk::knight_distances).collect();
        let diag = |a: usize, b: usize| {
            let ((af, ar), (bf, br)) = (coords(a), coords(b));
            a != b && (af - bf).abs() == (ar - br).abs()
        };
        let ortho = |a: usize, b: usize| {
            let ((af, ar), (bf, br)) = (coords(a), coords(b));
            a != b && (af == bf || ar == br)
        };
        let colour = |a: usize| (a % 8 + a / 8) % 2;
        // Moves from s to t on an empty board, and "a piece on t attacks k".
        let dist = |kind: usize, s: usize, t: usize| -> u8 {
            if s == t {
                return 0;
            }
            match kind {
                0 => kn[s][t],
                1 if diag(s, t) => 1,
                1 if colour(s) == colour(t) => 2,
                1 => NEVER,
                2 if ortho(s, t) => 1,
                3 if ortho(s, t) || diag(s, t) => 1,
                _ => 2,
            }
        };
        let attacks = |kind: usize, t: usize, k: usize| match kind {
            0 => kn[t][k] == 1,
            1 => diag(t, k),
            2 => ortho(t, k),
            _ => diag(t, k) || ortho(t, k),
        };
        let mut piece = vec![NEVER; 4 * 64 * 64 * 8];
        let mut pawn = vec![NEVER; 2 * 64 * 64 * 8];
        let mut moves = vec![NEVER; 4 * 64 * 64];
        for kind in 0..4 {
            for from in 0..64 {
                for to in 0..64 {
                    moves[(kind * 64 + from) * 64 + to] = dist(kind, from, to);
                }
            }
        }
        for from in 0..64 {
            for k in 0..64 {
                let mut to_k = [NEVER; 5];
                for (kind, v) in to_k.iter_mut().enumerate().take(4) {
                    for t in 0..64 {
                        if attacks(kind, t, k) {
                            *v = (*v).min(dist(kind, from, t));
                        }
                    }
                }
                for c in 0..2 {
                    // Ranks counted from the pawn's side.
                    let rel = |s: usize| if c == 0 { s / 8 } else { 7 - s / 8 } as i32;
                    let (f, r) = ((from % 8) as i32, rel(from));
                    let (kf, kr) = ((k % 8) as i32, rel(k));
                    let mut best = NEVER;
                    for tf in [kf - 1, kf + 1] {
                        let adv = kr - 1 - r;
                        let df = (tf - f).abs();
                        if !(0..8).contains(&tf) || adv < 0 || df > adv {
                            continue;
                        }
                        let lb = if r == 1 && adv >= 2 && df <= adv - 2 { adv - 1 } else { adv };
                        best = best.min(lb as u8);
                    }
                    to_k[4] = best;
                    for king in 0..64 {
                        let d = king_dist(king, k) as usize;
                        for b in d..8 {
                            let i = reach_index(c, from, king, b);
                            pawn[i] = pawn[i].min(best);
                        }
                    }
                }
                for king in 0..64 {
                    let d = king_dist(king, k) as usize;
                    for b in d..8 {
                        for (kind, &v) in to_k.iter().enumerate().take(4) {
                            let i = reach_index(kind, from, king, b);
                            piece[i] = piece[i].min(v);
                        }
                    }
                }
            }
        }
        ReachTables { piece, pawn, moves }
    })
}

/// A sound bound for help play ending in mate: can the side `mating`, with `w` moves left (its
/// last one the mate), give check at all, while the other king makes at most `b` moves? Mate
/// needs check, so some piece of `mating` stands, after the last move, on a square attacking the
/// king's square then. That square is within king distance `b` of the king's square now (`b + 1`
/// if it may still castle), and each piece needs at least its empty-board move count to get to a
/// square attacking it (0 for a discovered check); a pawn that can promote within `w` moves
/// counts as able. `false` means no line of that length can end in check. Only orthodox pieces
/// of `mating` and no condition (a Circe rebirth adds pieces, Madrasi unparalyses): otherwise
/// always `true`.
pub(in crate::solve) fn check_reachable(board: &Board, mating: Color, w: u32, b: u32) -> bool {
    use crate::board::{CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ};
    if board.circe != crate::board::Circe::Off || board.attack_conditions() || board.has_fairy(mating) || w >= 8 {
        return true;
    }
    let Some(king) = board.king_square(!mating) else { return true };
    let castle = if mating == Color::White { CASTLE_BK | CASTLE_BQ } else { CASTLE_WK | CASTLE_WQ };
    let b = (b + (board.castling & castle != 0) as u32).min(7) as usize;
    let t = reach_tables();
    let w8 = w as u8;
    for (a, kind) in [(0, walk::KNIGHT), (1, walk::BISHOP), (2, walk::ROOK), (3, walk::QUEEN)] {
        for s in board.kind_bb(mating, kind) {
            if t.piece[reach_index(a, s as usize, king as usize, b)] <= w8 {
                return true;
            }
        }
    }
    let c = mating.index();
    for s in board.kind_bb(mating, walk::PAWN) {
        let s = s as usize;
        let rank = if c == 0 { s / 8 } else { 7 - s / 8 } as u32;
        let promote = (7u32.saturating_sub(rank)).saturating_sub((rank == 1) as u32);
        if promote <= w || t.pawn[reach_index(c, s, king as usize, b)] <= w8 {
            return true;
        }
    }
    false
}
