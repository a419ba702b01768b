//! The flight bound for help play ending in mate.

use mysl_core::Color;

use super::check_reach::{coords, king_dist, reach_index, reach_tables, NEVER};
use crate::board::Board;
use crate::walk;

/// A second sound bound for help play ending in mate, about the mated king's flights. In the
/// mate position every on-board square next to the mated king is either occupied by one of its
/// own pieces or attacked by a piece of `mating` (else the king steps or captures there: a
/// piece of `mating` standing there unprotected is captured, and protected means attacked).
/// Bound: the mated king ends on a square `kf` within king distance `b` of its square now (it
/// makes at most `b` moves; castling rights: no bound). A flight `f` of `kf` counts as coverable
/// if some single piece of `mating` can attack `f` within `w` moves (empty-board move counts: a
/// king within distance `w + 1`, or `w + 2` with castling rights since castling moves it two
/// squares; the [`ReachTables`] entries with `b = 0`; a pawn that can promote within `w` moves
/// always). Every other flight needs its own piece of the mated side
/// standing on it at the end: distinct pieces, each at least its empty-board move count away
/// (a pawn: one rank a move, at most one file a move, one double step; once it can promote,
/// at least the moves to promote), so those moves sum to at least the sum over such flights
/// of the cheapest piece's count. The king's own moves (at least its king distance to `kf`)
/// are other moves of the same side, so when `dist(king, kf) + sum > b` for every `kf`, no
/// line of `w` mating and `b` mated moves ends in mate. Orthodox pieces on both sides and no
/// condition only: otherwise always `true`.
pub(in crate::solve) fn flights_coverable(board: &Board, mating: Color, w: u32, b: u32) -> bool {
    use crate::board::{CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ};
    if board.circe != crate::board::Circe::Off
        || board.conditions() != crate::board::Conditions::NONE
        || board.neutral.any()
        || board.bul.any()
        || board.uncapturable.any()
        || board.attack_conditions()
        || board.has_fairy(mating)
        || board.has_fairy(!mating)
        || w >= 8
        || b >= 8
    {
        return true;
    }
    let mated = !mating;
    let Some(king) = board.king_square(mated) else { return true };
    let castle = if mating == Color::White { CASTLE_BK | CASTLE_BQ } else { CASTLE_WK | CASTLE_WQ };
    if board.castling & castle != 0 {
        return true;
    }
    // The mating king covers squares within one step of where it ends; castling moves it two
    // squares in one move, so with castling rights it may end one square further.
    let own_castle = if mating == Color::White { CASTLE_WK | CASTLE_WQ } else { CASTLE_BK | CASTLE_BQ };
    let king_reach = w + 1 + u32::from(board.castling & own_castle != 0);
    let king = king as usize;
    let bu = b as usize;
    let t = reach_tables();
    let w8 = w as u8;
    let mk = board.king_square(mating).map(|s| s as usize);
    let (cm, cd) = (mating.index(), mated.index());
    let rel = |c: usize, s: usize| if c == 0 { s / 8 } else { 7 - s / 8 };
    let promote = |r: usize| (7usize.saturating_sub(r)).saturating_sub((r == 1) as usize);
    // Per square within b + 1 of the king: coverable by the mating side, else the cheapest
    // blocker's move count.
    let mut cost = [0u32; 64];
    for (f, slot) in cost.iter_mut().enumerate() {
        if king_dist(king, f) as usize > bu + 1 {
            continue;
        }
        let mut covered = mk.is_some_and(|k| king_dist(k, f) as u32 <= king_reach);
        for (a, kind) in [(0, walk::KNIGHT), (1, walk::BISHOP), (2, walk::ROOK), (3, walk::QUEEN)] {
            if covered {
                break;
            }
            covered =
                Iterator::any(&mut board.kind_bb(mating, kind), |s| t.piece[reach_index(a, s as usize, f, 0)] <= w8);
        }
        if !covered {
            covered = Iterator::any(&mut board.kind_bb(mating, walk::PAWN), |s| {
                let s = s as usize;
                promote(rel(cm, s)) <= w as usize || t.pawn[reach_index(cm, s, f, 0)] <= w8
            });
        }
        if covered {
            continue;
        }
        let mut best = NEVER as u32;
        for (a, kind) in [(0, walk::KNIGHT), (1, walk::BISHOP), (2, walk::ROOK), (3, walk::QUEEN)] {
            for s in board.kind_bb(mated, kind) {
                best = best.min(t.moves[(a * 64 + s as usize) * 64 + f] as u32);
            }
        }
        for s in board.kind_bb(mated, walk::PAWN) {
            let s = s as usize;
            let r = rel(cd, s);
            let mut lb = promote(r) as u32;
            if s == f {
                lb = 0;
            } else {
                let (adv, df) = (rel(cd, f) as i32 - r as i32, (f as i32 % 8 - s as i32 % 8).abs());
                if adv > 0 && df <= adv {
                    lb = lb.min(if r == 1 && adv >= 2 { adv as u32 - 1 } else { adv as u32 });
                }
            }
            best = best.min(lb);
        }
        *slot = best;
    }
    for kf in 0..64usize {
        let d = king_dist(king, kf) as u32;
        if d > b {
            continue;
        }
        // The mate is a check: some piece of `mating` attacks `kf` after its last move.
        let mut check = false;
        for (a, kind) in [(0, walk::KNIGHT), (1, walk::BISHOP), (2, walk::ROOK), (3, walk::QUEEN)] {
            if check {
                break;
            }
            check =
                Iterator::any(&mut board.kind_bb(mating, kind), |s| t.piece[reach_index(a, s as usize, kf, 0)] <= w8);
        }
        if !check {
            check = Iterator::any(&mut board.kind_bb(mating, walk::PAWN), |s| {
                let s = s as usize;
                promote(rel(cm, s)) <= w as usize || t.pawn[reach_index(cm, s, kf, 0)] <= w8
            });
        }
        if !check {
            continue;
        }
        let (kx, ky) = coords(kf);
        let mut need = d;
        'f: for dy in -1..=1 {
            for dx in -1..=1 {
                let (x, y) = (kx + dx, ky + dy);
                if (dx, dy) == (0, 0) || !(0..8).contains(&x) || !(0..8).contains(&y) {
                    continue;
                }
                need += cost[(y * 8 + x) as usize];
                if need > b {
                    break 'f;
                }
            }
        }
        if need <= b {
            return true;
        }
    }
    false
}
