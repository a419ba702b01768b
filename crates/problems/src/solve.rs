//! Exhaustive solving of orthodox problems: help, series, direct, self, reflex and semi-reflex play,
//! with Popeye-compatible output lines.
//!
//! Every search is exhaustive. Pruning: a hash table of proven results (positions keyed by
//! Zobrist key and the number of moves left; bounded, a full bucket drops its shallowest entry,
//! which costs time, never solutions), and in help play ending in mate the check-reach bound
//! ([`check_reachable`]) and check-only generation at the last half move; in self play the
//! last layer refuted by the first legal checkless defence and the s#1 free-defence bound
//! ([`Searcher::free_defences`]). Each rule is sound: docs/problems.md, "Pruning".

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use mysl_core::attacks;
use mysl_core::{Bitboard, Color};

use crate::board::{square_name, Board, Move, Special, NULL_MOVE};
use crate::input::Options;
use crate::stipulation::{Goal, Parry, Play, Stipulation};
use crate::walk::{self, Walk, KINDS};

/// Limits and controls for one solve.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Hash table entries per thread (0: default).
    pub hash_entries: usize,
    /// Stop at this instant (`--maxtime`).
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop.
    pub stop: Arc<AtomicBool>,
    /// Threads for splitting root moves.
    pub threads: usize,
    /// Progress: nodes searched so far by all threads (added in steps of 64), for a caller that
    /// shows progress while another thread solves (the web UI).
    pub nodes: Arc<AtomicU64>,
    /// Stop after about this many nodes (all threads together; checked every 64 nodes): a bound
    /// for untrusted input (fuzzing), like `deadline` but the same on every run.
    pub max_nodes: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            hash_entries: 1 << 21,
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
            threads: 2,
            nodes: Arc::new(AtomicU64::new(0)),
            max_nodes: None,
        }
    }
}

/// Entries per bucket of the hash table (4 entries of 16 bytes: one cache line).
const BUCKET: usize = 4;

/// The table of proven results, shared by the threads of one solve, lock-free: buckets of four
/// entries, each two `AtomicU64`s (`key ^ data`, `data`; "lockless hashing": an entry torn by a
/// concurrent write fails the key check and is simply a miss). The full 64-bit key is checked.
/// `data` is `value | depth << 1 | 1 << 63` (the top bit marks a used entry). A new result
/// replaces the entry of the same key, else an empty one, else the one with the smallest depth
/// (the cheapest to recompute): time, never solutions.
struct SharedHash {
    /// Entry i is `entries[offset + 2i]` (`key ^ data`) and `entries[offset + 2i + 1]` (`data`).
    entries: Vec<AtomicU64>,
    mask: usize,
    /// Words before the first bucket (the buckets start on a cache line).
    offset: usize,
}

// `AtomicU64` has the size and alignment of `u64` where it exists; the table relies on it.
const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());

impl SharedHash {
    fn new(entries: usize) -> SharedHash {
        // A power of two not above the entries asked for (`--maxmem` is a bound).
        let want = (entries / BUCKET).max(16);
        let buckets = if want.is_power_of_two() { want } else { want.next_power_of_two() / 2 };
        // Zeroed memory from the allocator (`vec![0; n]`): pages are only touched when used, so
        // a large table costs nothing for a small problem (a table built entry by entry was
        // written in full for every twin).
        // Eight words more, so that the buckets can start on a 64-byte boundary (one cache line
        // each: the allocator's pointer is only 16-byte aligned).
        let zeroed = std::mem::ManuallyDrop::new(vec![0u64; buckets * BUCKET * 2 + 8]);
        let (ptr, len, cap) = (zeroed.as_ptr() as *mut AtomicU64, zeroed.len(), zeroed.capacity());
        // SAFETY: AtomicU64 has the same size and alignment as u64 (asserted above) and 0 is a
        // valid value; the allocation is handed over whole (pointer, length, capacity).
        let entries = unsafe { Vec::from_raw_parts(ptr, len, cap) };
        let offset = (64 - entries.as_ptr() as usize % 64) % 64 / 8;
        SharedHash { entries, mask: buckets - 1, offset }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let b = self.offset + (key as usize & self.mask) * BUCKET * 2;
        let slice = &self.entries[b..b + BUCKET * 2];
        let (pairs, _) = slice.as_chunks::<2>();
        pairs
    }

    #[inline]
    fn get(&self, key: u64) -> Option<bool> {
        for e in self.bucket(key) {
            let d = e[1].load(Ordering::Relaxed);
            if d != 0 && e[0].load(Ordering::Relaxed) ^ d == key {
                return Some(d & 1 == 1);
            }
        }
        None
    }

    /// Starts loading the bucket of `key` into the cache: called right after a move is made, so
    /// that the child's probe, after its cheaper tests, finds it there (the probes are otherwise
    /// the help search's main memory stall). A hint only: it changes no result.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; the pointer is to a live element of `entries`.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.bucket(key).as_ptr() as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn put(&self, key: u64, v: bool, depth: u32) {
        let data = v as u64 | (depth.min(1 << 20) as u64) << 1 | 1 << 63;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_depth = u64::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let d = e[1].load(Ordering::Relaxed);
            if d == 0 || e[0].load(Ordering::Relaxed) ^ d == key {
                victim = i;
                break;
            }
            let depth = (d >> 1) & 0xF_FFFF;
            if depth < victim_depth {
                victim = i;
                victim_depth = depth;
            }
        }
        bucket[victim][0].store(key ^ data, Ordering::Relaxed);
        bucket[victim][1].store(data, Ordering::Relaxed);
    }
}

/// One search thread's state.
#[derive(Clone)]
struct Searcher {
    board: Board,
    stip: Stipulation,
    opts: Options,
    hash: Arc<SharedHash>,
    /// Entries the table may grow to.
    max_hash: usize,
    nodes: u64,
    shared_nodes: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    /// Nodes between looks at the clock and the stop flag, minus one (a power of two minus one).
    tick_mask: u64,
    stopped: bool,
    /// Last refutation found per number of attacker moves left (tried first: a cut-off is likely).
    refute_killer: [Option<Move>; 64],
    /// Last winning attacker move per number of moves left.
    win_killer: [Option<Move>; 64],
    /// Help play (h#, ser-h#) ending in mate: [`check_reachable`] prunes.
    help_mate: bool,
    /// Series direct mate (ser-#, no parry series): the series side mates with its last move;
    /// [`check_reachable`] and the intelligent mode's bound prune with the other side moving none.
    series_mate: bool,
    /// Move buffers per number of half moves left (no allocation per node).
    bufs: Vec<Vec<Move>>,
    /// Intelligent mode (`Option Intelligent`, `--intelligent`) and its bound applies
    /// ([`crate::intelligent::applicable`], checked once: no move changes it).
    intel: bool,
    intel_scratch: crate::intelligent::Scratch,
    /// Self play ending in mate on a plain orthodox board (no condition, no neutral or
    /// attributed piece; fairy pieces are tested per node): the s#1 free-defence bound applies
    /// ([`Searcher::free_defences`]).
    self_free: bool,
    /// Help or series play ending in stalemate (h=, h==, ser-=, ser-h=) on a plain orthodox
    /// board: the last move must take away every free move of the stalemated side
    /// ([`Searcher::stalemate_free_moves`]).
    stale_free: bool,
    /// Help mate: prune with [`flights_coverable`] (off only to test the bound).
    help_flights: bool,
    /// `Option NullMoves`: in help play either side may pass, in series play the series side
    /// (not in check: the passing side would stay in check). The check-reach and flight bounds count at most `w` and `b` moves,
    /// so they hold with passes; the intelligent mode (exact move counts) is off.
    null_moves: bool,
}

/// Can one move that leaves a square of `from` (the mover's pieces) and lands on one other
/// square touch every mask? (Some piece square f, and one square in all masks without f.)
fn one_move_touches_all(masks: &[Bitboard], from: Bitboard) -> bool {
    if masks.len() < 2 {
        return true;
    }
    Iterator::any(&mut from.into_iter(), |f| {
        let f = Bitboard::from_square(f);
        let mut common = Bitboard(!0);
        for &mask in masks {
            if (mask & f).is_empty() {
                common &= mask;
            }
        }
        !common.is_empty()
    })
}

/// How many of `masks` missing `touched` share no square (greedy: a lower bound of the most).
fn disjoint_count(masks: &[Bitboard], touched: Bitboard) -> usize {
    let mut union = touched;
    let mut n = 0;
    for &mask in masks {
        if (mask & union).is_empty() {
            union |= mask;
            n += 1;
        }
    }
    n
}

/// The squares on the line from `a` through `b` beyond `b` (to the edge); empty if not aligned.
fn ray_beyond(a: mysl_core::Square, b: mysl_core::Square) -> Bitboard {
    let line = attacks::line(a, b);
    if line.is_empty() {
        return line;
    }
    let (ax, ay) = (a as i32 % 8, a as i32 / 8);
    let (bx, by) = (b as i32 % 8, b as i32 / 8);
    let (dx, dy) = ((bx - ax).signum(), (by - ay).signum());
    let mut out = Bitboard(0);
    let (mut x, mut y) = (bx + dx, by + dy);
    while (0..8).contains(&x) && (0..8).contains(&y) {
        out |= Bitboard::from_square(mysl_core::Square::from_index((y * 8 + x) as u32));
        x += dx;
        y += dy;
    }
    out
}

/// Moves `m` to the front of `moves` if it is there (search order only; output order is unaffected).
fn front(moves: &mut [Move], m: Option<Move>) {
    if let Some(m) = m {
        if let Some(i) = moves.iter().position(|&x| x == m) {
            moves[..=i].rotate_right(1);
        }
    }
}

/// Salts for the hash key: (moves left, node type).
fn salt(n: u32, tag: u64) -> u64 {
    let mut z = (n as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ tag.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 29)
}

/// Free defences kept per s#1 node ([`Searcher::free_defences`]).
const FREE_MAX: usize = 6;

/// Help nodes with at least this many half moves left take the intelligent mode's bound.
const INTEL_MIN_PLIES: u32 = 2;

// ------------------------------------------------------------------ check-reach bound

/// Empty-board lower bounds on the moves an orthodox piece needs to give check, for
/// [`check_reachable`].
struct ReachTables {
    /// `[kind N B R Q][from][king][b]`: fewest moves for a piece on `from` to stand on a square
    /// from which it attacks some square within king distance `b` (0..=7) of `king`, on an empty
    /// board (obstacles only make paths longer); 255: never.
    piece: Vec<u8>,
    /// `[colour][from][king][b]`: the same for a pawn that does not promote (one move a rank, at
    /// most one file a move, a double step from its second rank counted); 255: never.
    pawn: Vec<u8>,
    /// `[kind N B R Q][from][to]`: fewest moves from `from` to `to` on an empty board; 255: never.
    moves: Vec<u8>,
}

const NEVER: u8 = 255;

fn reach_index(a: usize, from: usize, king: usize, b: usize) -> usize {
    ((a * 64 + from) * 64 + king) * 8 + b
}

fn coords(s: usize) -> (i32, i32) {
    ((s % 8) as i32, (s / 8) as i32)
}

fn king_dist(a: usize, b: usize) -> i32 {
    let ((af, ar), (bf, br)) = (coords(a), coords(b));
    (af - bf).abs().max((ar - br).abs())
}

fn reach_tables() -> &'static ReachTables {
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
fn check_reachable(board: &Board, mating: Color, w: u32, b: u32) -> bool {
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
fn flights_coverable(board: &Board, mating: Color, w: u32, b: u32) -> bool {
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

/// Result of solving one position with one stipulation.
#[derive(Clone, Debug, Default)]
pub struct Solution {
    /// Output lines (Popeye's format, without the twin header).
    pub lines: Vec<String>,
    /// True if the solve was stopped (time limit or Ctrl-C): the lines may be incomplete.
    pub interrupted: bool,
}

impl Searcher {
    fn new(board: Board, stip: Stipulation, opts: Options, limits: &Limits) -> Searcher {
        let max_hash = limits.hash_entries.max(1024) * limits.threads.max(1);
        // Help play, ser-h# and ser-# (lib.rs rejects the other play forms with the option).
        let null_moves = opts.null_moves && matches!(stip.play, Play::Help | Play::Direct) && stip.parry == Parry::None;
        let intel = opts.intelligent
            && !opts.null_moves
            && (stip.play == Play::Help || (stip.play == Play::Direct && stip.series))
            && stip.goal == Goal::Mate
            && stip.parry == Parry::None
            && crate::intelligent::applicable(&board);
        let plain_board = board.conditions() == crate::board::Conditions::NONE
            && !(board.neutral.any() || board.bul.any() || board.uncapturable.any());
        let self_free = stip.play == Play::SelfPlay && stip.goal == Goal::Mate && plain_board;
        let stale_free = matches!(stip.play, Play::Help | Play::Direct)
            && matches!(stip.goal, Goal::Stalemate | Goal::DoubleStalemate)
            && stip.parry == Parry::None
            && plain_board;
        // AntiCirce Cage searches cages inside a move (milliseconds a node, found by fuzzing: a
        // deadline was seen 1.4 s late); elsewhere 64 nodes take microseconds.
        let tick_mask = if board.anticirce == crate::board::AntiCirce::Cage { 0 } else { 63 };
        Searcher {
            board,
            stip,
            opts,
            // Help and series play start small and grow between phases (`grow_hash`): a short
            // problem then never pays for the pages of a large table.
            hash: Arc::new(SharedHash::new(if stip.series || matches!(stip.play, Play::Help | Play::HelpSelf) {
                (1 << 16).min(max_hash)
            } else {
                max_hash
            })),
            max_hash,
            nodes: 0,
            shared_nodes: limits.nodes.clone(),
            stop: limits.stop.clone(),
            deadline: limits.deadline,
            max_nodes: limits.max_nodes,
            tick_mask,
            stopped: false,
            refute_killer: [None; 64],
            win_killer: [None; 64],
            help_mate: stip.play == Play::Help && stip.goal == Goal::Mate,
            series_mate: stip.play == Play::Direct
                && stip.series
                && stip.goal == Goal::Mate
                && stip.parry == Parry::None,
            bufs: Vec::new(),
            intel,
            intel_scratch: crate::intelligent::Scratch::default(),
            self_free,
            stale_free,
            help_flights: true,
            null_moves,
        }
    }

    /// The move buffer for depth `d`, empty (give it back with `self.bufs[d] = buf`).
    fn take_buf(&mut self, d: u32) -> Vec<Move> {
        let d = d as usize;
        if self.bufs.len() <= d {
            self.bufs.resize_with(d + 1, || Vec::with_capacity(64));
        }
        let mut b = std::mem::take(&mut self.bufs[d]);
        b.clear();
        b
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        // Every 64 nodes: a node's subtree can be large (a series node's last move checks every reply
        // for mate), so a cancel or the deadline is seen within milliseconds.
        if self.nodes & self.tick_mask == 0 {
            let step = self.tick_mask + 1;
            let total = self.shared_nodes.fetch_add(step, Ordering::Relaxed) + step;
            if !self.stopped
                && (self.stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.max_nodes.is_some_and(|m| total >= m))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Between phases of a help or series solve (before the threads start): a table with fewer
    /// entries than twice the nodes searched so far is replaced by a larger one (up to
    /// `max_hash`); its results are dropped, which costs time, never solutions.
    fn grow_hash(&mut self) {
        let used = self.shared_nodes.load(Ordering::Relaxed) as usize;
        let want = used.saturating_mul(2).min(self.max_hash);
        if want > self.hash.entries.len() / 2 {
            self.hash = Arc::new(SharedHash::new(want));
        }
    }

    #[inline]
    fn hash_get(&self, key: u64) -> Option<bool> {
        self.hash.get(key)
    }

    /// Stores a proven result; `depth` (moves or half moves left) decides what a full bucket keeps.
    #[inline]
    fn hash_put(&mut self, key: u64, v: bool, depth: u32) {
        if self.stopped {
            return;
        }
        self.hash.put(key, v, depth);
    }

    /// Is the goal reached for the side to move (the victim)?
    fn goal_reached(&mut self) -> bool {
        goal_reached(&mut self.board, self.stip.goal)
    }

    // ------------------------------------------------------------------ notation

    /// Popeye's text for `m` in the current position, with its check/goal mark.
    fn move_text(&mut self, m: Move, final_goal: bool) -> String {
        move_text(&mut self.board, self.stip.goal, m, final_goal)
    }

    /// Texts of a sequence of moves played from the current position (the board is restored).
    fn line_texts(&mut self, moves: &[Move], final_goal_at: Option<usize>) -> Vec<String> {
        let mut texts = Vec::new();
        let mut undos = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            if m == NULL_MOVE {
                texts.push("...".to_string());
                undos.push((m, None, Some(self.board.make_null())));
                continue;
            }
            texts.push(self.move_text(m, final_goal_at == Some(i)));
            undos.push((m, Some(self.board.make(m)), None));
        }
        while let Some((m, u, ep)) = undos.pop() {
            match (u, ep) {
                (Some(u), _) => self.board.unmake(m, u),
                (None, Some(ep)) => self.board.unmake_null(ep),
                (None, None) => {}
            }
        }
        texts
    }

    /// Texts of a series line: `k` series moves (the other side passing in between, or in a parry
    /// series parrying a check with the move that follows in `moves`), then the tail. Each text
    /// comes with whether it is a (numbered) series move.
    fn series_texts(&mut self, moves: &[Move], k: usize) -> Vec<(bool, String)> {
        let mut texts = Vec::new();
        let mut undos = Vec::new();
        let mut series_done = 0;
        let mut parry_next = false;
        for (i, &m) in moves.iter().enumerate() {
            let numbered = series_done < k && !parry_next;
            let u = if m == NULL_MOVE {
                texts.push((numbered, "...".to_string()));
                (None, Some(self.board.make_null()))
            } else {
                texts.push((numbered, self.move_text(m, i + 1 == moves.len())));
                (Some(self.board.make(m)), None)
            };
            let mut null = None;
            parry_next = false;
            if numbered {
                series_done += 1;
                if series_done < k {
                    if self.stip.parry != Parry::None && self.board.in_check(self.board.side) {
                        parry_next = true;
                    } else {
                        null = Some(self.board.make_null());
                    }
                }
            }
            undos.push((m, u, null));
        }
        while let Some((m, u, null)) = undos.pop() {
            if let Some(ep) = null {
                self.board.unmake_null(ep);
            }
            match u {
                (Some(u), _) => self.board.unmake(m, u),
                (None, Some(ep)) => self.board.unmake_null(ep),
                (None, None) => {}
            }
        }
        texts
    }

    // ------------------------------------------------------------------ help play

    /// All help lines of exactly `plies` half moves from here ending in the goal (for hs#: ending
    /// in a position where the other side is forced to reach the goal). Returns true if any.
    fn help(&mut self, plies: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        if self.tick() {
            return false;
        }
        if self.help_mate {
            let mating = if plies % 2 == 1 { self.board.side } else { !self.board.side };
            if !check_reachable(&self.board, mating, plies.div_ceil(2), plies / 2) {
                return false;
            }
        }
        if plies == 1 {
            return self.help_leaf(line, out);
        }
        let key = self.board.key() ^ salt(plies, 1);
        if self.hash_get(key) == Some(false) {
            return false;
        }
        if self.help_mate && self.help_flights {
            let mating = if plies % 2 == 1 { self.board.side } else { !self.board.side };
            if !flights_coverable(&self.board, mating, plies.div_ceil(2), plies / 2) {
                self.hash_put(key, false, plies);
                return false;
            }
        }
        if self.intel && plies >= INTEL_MIN_PLIES {
            let mating = if plies % 2 == 1 { self.board.side } else { !self.board.side };
            if !crate::intelligent::mate_possible(
                &self.board,
                mating,
                plies.div_ceil(2),
                plies / 2,
                &mut self.intel_scratch,
            ) {
                self.hash_put(key, false, plies);
                return false;
            }
        }
        // h=: the stalemated side's move, then the last move (see `stalemate_skips`).
        let mut free = [Bitboard(0); FREE_MAX];
        let (nfree, castle) = if self.stale_free && plies == 2 && !self.stip.series {
            (self.stalemate_free_moves(false, &mut free), self.board.has_castling_rights(!self.board.side))
        } else {
            (0, false)
        };
        let mut moves = self.take_buf(plies);
        self.board.pseudo_moves(&mut moves);
        let us = self.board.side;
        let test = self.board.needs_legality_test();
        let mut found = false;
        let child_salt = salt(plies - 1, 1);
        for &m in &moves {
            if nfree >= 2 && self.stalemate_skips(m, &free[..nfree], castle) {
                continue;
            }
            let u = self.board.make(m);
            self.hash.prefetch(self.board.key() ^ child_salt);
            if Board::must_test(test, m) && self.board.in_check(us) {
                self.board.unmake(m, u);
                continue;
            }
            line.push(m);
            if self.help(plies - 1, line, out) {
                found = true;
            }
            line.pop();
            self.board.unmake(m, u);
        }
        self.bufs[plies as usize] = moves;
        if self.null_moves && self.help_null(plies, line, out) {
            found = true;
        }
        if !found {
            self.hash_put(key, false, plies);
        }
        found
    }

    /// Option NullMoves: the side to move passes (Popeye's `null_move_generator_solve`), unless
    /// it is in check (the passing side would stay in check: illegal). Never the last half move:
    /// a pass gives no check.
    fn help_null(&mut self, plies: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        if plies < 2 || self.board.in_check(self.board.side) {
            return false;
        }
        let ep = self.board.make_null();
        line.push(NULL_MOVE);
        let found = self.help(plies - 1, line, out);
        line.pop();
        self.board.unmake_null(ep);
        found
    }

    /// The last help half move: only moves that can complete the goal are looked at closely.
    /// The hash is probed only when there are candidate moves: in h# finding that there is no
    /// checking move at all costs less than a probe's cache miss.
    fn help_leaf(&mut self, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        // h=, h==: the other side's free moves; a last move that leaves one in place is skipped.
        let mut free = [Bitboard(0); FREE_MAX];
        let nfree = if self.stale_free { self.stalemate_free_moves(true, &mut free) } else { 0 };
        // The last move leaves a square of one of our pieces and lands on one square (en passant
        // touches a third, castling four: then only a count of masks sharing no square): if no
        // such pair of squares touches every mask, no last move stalemates.
        if nfree >= 2 {
            let (ep, castle) = (self.board.ep.is_some(), self.board.has_castling_rights(self.board.side));
            let hopeless = if ep || castle {
                disjoint_count(&free[..nfree], Bitboard(0)) > 2 + ep as usize + 2 * castle as usize
            } else {
                !one_move_touches_all(&free[..nfree], self.board.color_bb(self.board.side))
            };
            if hopeless {
                return false;
            }
        }
        let mut pseudo = self.take_buf(0);
        let us = self.board.side;
        let need_check = self.stip.goal == Goal::Mate && self.stip.play != Play::HelpSelf;
        // Candidate generation skips the conditions' move restrictions.
        let ci = if need_check && !self.board.restricts_moves() {
            self.board.king_square(!us).map(|k| self.board.check_info(k))
        } else {
            None
        };
        match &ci {
            Some(ci) => {
                self.board.checking_candidates(ci, &mut pseudo);
                pseudo.retain(|&m| self.board.could_check_with(ci, m));
            }
            None => self.board.pseudo_moves(&mut pseudo),
        }
        if nfree > 0 {
            pseudo.retain(|&m| !self.misses_a_free_move(m, &free[..nfree]));
        }
        if pseudo.is_empty() {
            self.bufs[0] = pseudo;
            return false;
        }
        let key = self.board.key() ^ salt(1, 1);
        if self.hash_get(key) == Some(false) {
            self.bufs[0] = pseudo;
            return false;
        }
        let found = self.help_leaf_moves(&pseudo, need_check, line, out);
        self.bufs[0] = pseudo;
        if !found {
            self.hash_put(key, false, 1);
        }
        found
    }

    /// The candidate last moves `pseudo` (only possible checks for mate): records the solutions.
    fn help_leaf_moves(
        &mut self,
        pseudo: &[Move],
        need_check: bool,
        line: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) -> bool {
        let us = self.board.side;
        let before = out.len();
        let test = self.board.needs_legality_test();
        for &m in pseudo {
            let u = self.board.make(m);
            let candidate =
                (!need_check || self.board.in_check(!us)) && !(Board::must_test(test, m) && self.board.in_check(us));
            self.board.unmake(m, u);
            if candidate {
                line.push(m);
                self.help_final_line(line, out);
                line.pop();
            }
        }
        out.len() > before
    }

    /// The last help move `m` (board before it): records the solution(s) it completes.
    fn help_final(&mut self, m: Move, out: &mut Vec<Vec<Move>>) {
        self.help_final_line(&[m], out);
    }

    /// `line` ends with the last help move, played from the current position minus that move.
    fn help_final_line(&mut self, line: &[Move], out: &mut Vec<Vec<Move>>) {
        let m = *line.last().expect("a move");
        let u = self.board.make(m);
        if self.stip.play == Play::HelpSelf {
            // The other side must reach the goal (mate us) with every move.
            let replies = self.board.legal_moves();
            let mut all = !replies.is_empty();
            for &r in &replies {
                let u2 = self.board.make(r);
                let g = self.goal_reached();
                self.board.unmake(r, u2);
                if !g {
                    all = false;
                    break;
                }
            }
            if all {
                for &r in &replies {
                    let mut l = line.to_vec();
                    l.push(r);
                    out.push(l);
                }
            }
        } else if self.goal_reached() {
            out.push(line.to_vec());
        }
        self.board.unmake(m, u);
    }

    // ------------------------------------------------------------------ series play

    /// Series of exactly `k` moves by the side to move, then the tail. Lines include tail replies.
    fn series(&mut self, k: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        if self.tick() {
            return false;
        }
        // ser-h#: the other side mates with one move after this series of k moves (a parry
        // series gives it more moves).
        if self.help_mate && self.stip.parry == Parry::None && !check_reachable(&self.board, !self.board.side, 1, k) {
            return false;
        }
        // ser-#: the series side mates with its k-th move, the other side does not move.
        if self.series_mate && !check_reachable(&self.board, self.board.side, k, 0) {
            return false;
        }
        let key = self.board.key() ^ salt(k, 2);
        if k > 1 && self.hash_get(key) == Some(false) {
            return false;
        }
        let (mating, w, b) = if self.series_mate { (self.board.side, k, 0) } else { (!self.board.side, 1, k) };
        if self.intel && !crate::intelligent::mate_possible(&self.board, mating, w, b, &mut self.intel_scratch) {
            if k > 1 {
                self.hash_put(key, false, k);
            }
            return false;
        }
        // Stalemate goals (no parry): the stalemated side's free moves.
        // ser-=: only the series side moves, its k moves touch at most 2k squares (2 more when
        // castling), so more free moves with disjoint masks than that cannot all be taken away;
        // the last move must touch every mask. ser-h=: the series side's last move, then the
        // other side's stalemating move (as h= two half moves before the end: `stalemate_skips`).
        let mut free = [Bitboard(0); FREE_MAX];
        let mut nfree = 0;
        let mut castle = false;
        let mut last_filter = false;
        let mut help_skip = false;
        if self.stale_free && self.stip.parry == Parry::None {
            if self.stip.play == Play::Direct {
                nfree = self.stalemate_free_moves(true, &mut free);
                // En passant: only now (the other side makes no double step), a third square.
                let budget = 2 * k as usize
                    + 2 * self.board.has_castling_rights(self.board.side) as usize
                    + self.board.ep.is_some() as usize;
                if disjoint_count(&free[..nfree], Bitboard(0)) > budget {
                    if k > 1 {
                        self.hash_put(key, false, k);
                    }
                    return false;
                }
                last_filter = k == 1;
            } else if self.stip.play == Play::Help && k == 1 {
                nfree = self.stalemate_free_moves(false, &mut free);
                castle = self.board.has_castling_rights(!self.board.side);
                help_skip = true;
            }
        }
        let us = self.board.side;
        let mut moves = self.take_buf(k);
        self.board.pseudo_moves(&mut moves);
        let test = self.board.needs_legality_test();
        let mut found = false;
        for &m in &moves {
            if last_filter && nfree > 0 && self.misses_a_free_move(m, &free[..nfree]) {
                continue;
            }
            if help_skip && nfree >= 2 && self.stalemate_skips(m, &free[..nfree], castle) {
                continue;
            }
            let u = self.board.make(m);
            if Board::must_test(test, m) && self.board.in_check(us) {
                self.board.unmake(m, u);
                continue;
            }
            line.push(m);
            found |= self.after_series_move(k, line, out);
            line.pop();
            self.board.unmake(m, u);
        }
        self.bufs[k as usize] = moves;
        // Option NullMoves: the series side passes (not in check).
        if self.null_moves && !self.board.in_check(us) {
            let ep = self.board.make_null();
            line.push(NULL_MOVE);
            found |= self.after_series_move(k, line, out);
            line.pop();
            self.board.unmake_null(ep);
        }
        if k > 1 && !found {
            self.hash_put(key, false, k);
        }
        found
    }

    /// After a series move (`k` moves of the series left, this one included; the other side to
    /// move): the tail after the last one, else the rest of the series: the other side passes,
    /// or in a parry series parries a check (Popeye's `pser-`: some parry for help parries, every
    /// parry for defences; a check that cannot be parried ends the line).
    fn after_series_move(&mut self, k: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        let us = !self.board.side;
        if k == 1 {
            return self.series_tail(line, out);
        }
        if self.board.in_check(!us) {
            if self.stip.parry == Parry::None || self.series_goal_early() {
                return false;
            }
            return self.series_parry(k, line, out);
        }
        if self.series_goal_early() {
            return false;
        }
        let ep = self.board.make_null();
        let found = self.series(k - 1, line, out);
        self.board.unmake_null(ep);
        found
    }

    /// A parry series move gave check: the other side's parries, then `k - 1` series moves.
    #[cold]
    fn series_parry(&mut self, k: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) -> bool {
        let parries = self.board.legal_moves();
        if parries.is_empty() {
            return false;
        }
        let every = self.stip.parry == Parry::Defence;
        let mut lines = Vec::new();
        let mut found = false;
        for &r in &parries {
            let u = self.board.make(r);
            line.push(r);
            let ok = self.series(k - 1, line, &mut lines);
            line.pop();
            self.board.unmake(r, u);
            if every && !ok {
                return false;
            }
            found |= ok;
        }
        out.extend(lines);
        found
    }

    /// After a non-final series move: positions in which the play would already end.
    fn series_goal_early(&mut self) -> bool {
        match self.stip.play {
            Play::Direct => self.goal_reached(),
            // Reflex: if the other side can reach the goal it must, so the series ends here.
            Play::Reflex | Play::SemiReflex => self.has_goal_move(),
            _ => false,
        }
    }

    /// Does the side to move have a move reaching the goal?
    fn has_goal_move(&mut self) -> bool {
        !self.goal_moves().is_empty()
    }

    /// Legal moves of the side to move that reach the goal (for mate, only the moves that may
    /// give check are made: the cheap filter comes before the legality test).
    fn goal_moves(&mut self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        let us = self.board.side;
        let king = if self.stip.goal == Goal::Mate && !self.board.restricts_moves() {
            self.board.king_square(!us)
        } else {
            None
        };
        let ci = king.map(|k| self.board.check_info(k));
        match &ci {
            Some(ci) => self.board.checking_candidates(ci, &mut moves),
            None => self.board.pseudo_moves(&mut moves),
        }
        if self.stale_free && self.stip.play == Play::Help {
            let mut free = [Bitboard(0); FREE_MAX];
            let nfree = self.stalemate_free_moves(true, &mut free);
            if nfree > 0 {
                moves.retain(|&m| !self.misses_a_free_move(m, &free[..nfree]));
            }
        }
        let mut res = Vec::new();
        for m in moves {
            if ci.as_ref().is_some_and(|ci| !self.board.could_check_with(ci, m)) {
                continue;
            }
            let u = self.board.make(m);
            if !self.board.in_check(us) && self.goal_reached() {
                res.push(m);
            }
            self.board.unmake(m, u);
        }
        res
    }

    /// The end of a series (after its last move; the other side to move).
    fn series_tail(&mut self, line: &[Move], out: &mut Vec<Vec<Move>>) -> bool {
        match self.stip.play {
            Play::Direct => {
                if self.goal_reached() {
                    out.push(line.to_vec());
                    return true;
                }
                false
            }
            Play::Help => {
                let g = self.goal_moves();
                for &r in &g {
                    let mut l = line.to_vec();
                    l.push(r);
                    out.push(l);
                }
                !g.is_empty()
            }
            Play::SelfPlay => {
                let replies = self.board.legal_moves();
                if replies.is_empty() {
                    return false;
                }
                for &r in &replies {
                    let u = self.board.make(r);
                    let g = self.goal_reached();
                    self.board.unmake(r, u);
                    if !g {
                        return false;
                    }
                }
                for &r in &replies {
                    let mut l = line.to_vec();
                    l.push(r);
                    out.push(l);
                }
                true
            }
            Play::Reflex | Play::SemiReflex => {
                let g = self.goal_moves();
                for &r in &g {
                    let mut l = line.to_vec();
                    l.push(r);
                    out.push(l);
                }
                !g.is_empty()
            }
            Play::HelpSelf => false,
        }
    }

    // ------------------------------------------------------------------ battle play

    fn is_direct(&self) -> bool {
        self.stip.play == Play::Direct
    }

    /// Defences available to the side to move (reflex: only goal moves when there are any).
    fn defences(&mut self) -> Vec<Move> {
        if matches!(self.stip.play, Play::Reflex | Play::SemiReflex) {
            let g = self.goal_moves();
            if !g.is_empty() {
                return g;
            }
        }
        self.board.legal_moves()
    }

    /// After a defence (attacker to move, `k` attacker moves left): does the attacker win?
    fn after_defence(&mut self, k: u32) -> bool {
        if !self.is_direct() && self.goal_reached() {
            return true;
        }
        k > 0 && self.wins(k)
    }

    /// Defender to move, `k` attacker moves left: does the attacker win against every defence?
    fn defender_loses(&mut self, k: u32) -> bool {
        if k == 0 && self.stip.play == Play::SelfPlay {
            // The last layer of a self-play problem: computed, never hashed (a probe of the large
            // table is a cache miss that costs more than the test, which mostly stops at the
            // first defence).
            if self.tick() {
                return false;
            }
            return self.all_replies_reach_goal();
        }
        let key = self.board.key() ^ salt(k, 3);
        if let Some(v) = self.hash_get(key) {
            return v;
        }
        if self.tick() {
            return false;
        }
        let reflex = matches!(self.stip.play, Play::Reflex | Play::SemiReflex);
        let ds = if reflex {
            self.defences()
        } else {
            let mut v = Vec::with_capacity(64);
            self.board.pseudo_moves(&mut v);
            v
        };
        let mut ds = ds;
        front(&mut ds, self.refute_killer[(k as usize).min(63)]);
        let us = self.board.side;
        let mut res = true;
        let mut legal = 0;
        let child_salt = salt(k, 4);
        for d in ds {
            let u = self.board.make(d);
            if k > 0 {
                self.hash.prefetch(self.board.key() ^ child_salt);
            }
            if self.board.in_check(us) {
                self.board.unmake(d, u);
                continue;
            }
            legal += 1;
            let ok = self.after_defence(k);
            self.board.unmake(d, u);
            if !ok {
                self.refute_killer[(k as usize).min(63)] = Some(d);
                res = false;
                break;
            }
        }
        if legal == 0 {
            res = false;
        }
        self.hash_put(key, res, k);
        res
    }

    /// Self play, defender to move, no attacker move left: does every legal defence reach the
    /// goal (and is there one)? The same answer as the general loop of
    /// [`Searcher::defender_loses`] with `k == 0` (`after_defence(0)` is "the goal is reached").
    ///
    /// For mate, the defences that cannot give check ([`Board::could_check_with`] false: a
    /// superset test of checking moves, the one the help search's last move relies on) come
    /// first and need only their legality tested: a legal defence that gives no check mates no
    /// king, so it refutes at once. This order changes nothing but the time (the answer is an
    /// "every defence" test). The moves that may check are then played out in full.
    fn all_replies_reach_goal(&mut self) -> bool {
        let us = self.board.side;
        let mut moves = self.take_buf(0);
        self.board.pseudo_moves(&mut moves);
        let test = self.board.needs_legality_test();
        let ci = if self.stip.goal == Goal::Mate && !self.board.restricts_moves() && !self.board.neutral.any() {
            self.board.king_square(!us).map(|k| self.board.check_info(k))
        } else {
            None
        };
        let mut res = None;
        if let Some(ci) = &ci {
            for &m in &moves {
                if self.board.could_check_with(ci, m) {
                    continue;
                }
                if !Board::must_test(test, m) {
                    res = Some(false);
                    break;
                }
                let u = self.board.make(m);
                let legal = !self.board.in_check(us);
                self.board.unmake(m, u);
                if legal {
                    res = Some(false);
                    break;
                }
            }
        }
        let res = match res {
            Some(r) => r,
            None => {
                let mut legal = 0;
                let mut all = true;
                for &m in &moves {
                    if ci.as_ref().is_some_and(|ci| !self.board.could_check_with(ci, m)) {
                        continue; // illegal (the pass above)
                    }
                    let u = self.board.make(m);
                    if self.board.in_check(us) {
                        self.board.unmake(m, u);
                        continue;
                    }
                    legal += 1;
                    let g = self.goal_reached();
                    self.board.unmake(m, u);
                    if !g {
                        all = false;
                        break;
                    }
                }
                all && legal > 0
            }
        };
        self.bufs[0] = moves;
        res
    }

    /// After an attacker move (defender to move) with `n` attacker moves counting that move: does it win?
    fn move_wins(&mut self, n: u32) -> bool {
        match self.stip.play {
            Play::Direct => self.goal_reached() || (n > 1 && self.defender_loses(n - 1)),
            _ => (self.opts.quodlibet && self.goal_reached()) || self.defender_loses(n - 1),
        }
    }

    /// Attacker to move: does it win within `n` moves?
    fn wins(&mut self, n: u32) -> bool {
        let key = self.board.key() ^ salt(n, 4);
        if let Some(v) = self.hash_get(key) {
            return v;
        }
        if self.tick() {
            return false;
        }
        let mut moves = Vec::with_capacity(64);
        self.board.pseudo_moves(&mut moves);
        let mut res = false;
        if self.stip.play == Play::Reflex {
            moves = self.board.legal_moves();
            // White must reach the goal if it can; then it cannot force the reflex goal.
            for &m in &moves {
                let u = self.board.make(m);
                let g = self.goal_reached();
                self.board.unmake(m, u);
                if g {
                    let q = self.opts.quodlibet;
                    self.hash_put(key, q, n);
                    return q;
                }
            }
        }
        front(&mut moves, self.win_killer[(n as usize).min(63)]);
        // s#1: the defender's free moves, and the attacker moves that cannot stop them.
        let mut free = [Bitboard(0); FREE_MAX];
        let nfree = if n == 1 && self.self_free { self.free_defences(&mut free) } else { 0 };
        let their_king_info =
            if nfree > 0 { self.board.king_square(!self.board.side).map(|k| self.board.check_info(k)) } else { None };
        let mate_in_1 = n == 1 && self.stip.play == Play::Direct && self.stip.goal == Goal::Mate;
        let enemy_king = self.board.king_square(!self.board.side);
        for m in moves {
            if mate_in_1 && enemy_king.is_some_and(|k| !self.board.could_check(m, k)) {
                continue;
            }
            if let Some(ci) = &their_king_info {
                if self.misses_a_free_defence(m, ci, &free[..nfree]) {
                    continue;
                }
            }
            let u = self.board.make(m);
            if n > 1 || self.stip.play != Play::SelfPlay {
                self.hash.prefetch(self.board.key() ^ salt(n - 1, 3));
            }
            if self.board.in_check(!self.board.side) {
                self.board.unmake(m, u);
                continue;
            }
            let w = self.move_wins(n);
            self.board.unmake(m, u);
            if w {
                self.win_killer[(n as usize).min(63)] = Some(m);
                res = true;
                break;
            }
        }
        self.hash_put(key, res, n);
        res
    }

    /// s#1 (self play, mate, plain orthodox board: [`Searcher::self_free`]), attacker to move:
    /// the defender's "free" moves, seen as if it were to move now (a null move): legal, giving
    /// no check, not by its king, not en passant or castling, a promotion only to an orthodox
    /// piece. For each (at most [`FREE_MAX`]) the mask of squares an attacker move must touch
    /// (leave or land on) to take that move away or make it a check, in `out`; returns how many.
    ///
    /// Why the mask is enough. Let d go from s to t, and let the attacker's move m be a legal move
    /// that is no check, not by the king, not castling or en passant, not a promotion to a fairy
    /// piece, with neither end in the mask. After m the defender can still play d, d is legal
    /// and gives no check, so it mates nothing and m does not win (s#1: every defence must mate):
    /// * d is still pseudo-legal: its piece is still on s (m does not land on s), its path and,
    ///   for a pawn push, t are still empty (m lands on none of them), a pawn capture still has
    ///   its victim (m does not leave t).
    /// * d leaves its king unattacked. Before m it did (d was legal); the occupancy after m and
    ///   d differs from that after d alone only on m's two squares. A new attack on the king
    ///   must run through a square m changed: a line opened by m.from that did not pass s would
    ///   have been open after m alone (t only blocks), so m would give check; a line through s
    ///   is the line through the defender's king and s, which m does not touch. The piece on
    ///   m.to attacking the king directly would be a check by m, unless s was in between (same
    ///   line). Knights and pawns do not care about occupancy.
    /// * d gives no check. The attacker's king did not move. An attack on it after m and d
    ///   that was not there after d alone runs through m.from (m.to only blocks, and a captured
    ///   defender on m.to attacks nothing): if that line avoided s and t, it was open after m
    ///   alone and m would leave its own king in check (m is legal); if it passes s or t it is
    ///   the line through the attacker's king and s or t, which m does not touch.
    ///
    /// If the attacker is in check now the null-move view is meaningless: no free moves.
    fn free_defences(&mut self, out: &mut [Bitboard; FREE_MAX]) -> usize {
        self.free_moves(false, true, out)
    }

    /// The stalemated side's free moves (as [`Searcher::free_defences`]) for a stalemate goal:
    /// the moves may give check, and their masks leave out the lines through the other king.
    /// `null`: the other side is to move now (its last move comes next), else the stalemated
    /// side is (its move, then the other side's last move).
    ///
    /// Why that is enough. Let the remaining moves (the other side's last move m, and at most
    /// one move of the stalemated side before it, not by its king, no castling) touch none of
    /// the squares of d's mask, and let the final position F be no check (else no stalemate).
    /// d's piece is still on s, its path, and for a pawn push t, are as now, a pawn capture's
    /// victim is still on t: d is still pseudo-legal. After d in F, an attack on the (unmoved)
    /// king that F itself does not have must run through s, along the line through the king
    /// and s; that line is untouched, so the same attack would follow d now, and d is legal
    /// now. So the stalemated side still has the legal move d in F: no stalemate.
    fn stalemate_free_moves(&mut self, null: bool, out: &mut [Bitboard; FREE_MAX]) -> usize {
        self.free_moves(true, null, out)
    }

    fn free_moves(&mut self, stalemate: bool, null: bool, out: &mut [Bitboard; FREE_MAX]) -> usize {
        let to_move = self.board.side;
        if self.board.has_fairy(Color::White)
            || self.board.has_fairy(Color::Black)
            || (null && self.board.in_check(to_move))
        {
            return 0;
        }
        // `mover`: the side whose free moves are listed; `other`: the side whose moves must take them away.
        let mover = if null { !to_move } else { to_move };
        let (Some(ak), Some(dk)) = (self.board.king_square(!mover), self.board.king_square(mover)) else {
            return 0;
        };
        let sqr = |i: u8| mysl_core::Square::from_index(i as u32);
        let (ak, dk) = (sqr(ak), sqr(dk));
        let ep = if null { Some(self.board.make_null()) } else { None };
        // Stalemate: legality alone, so a move of an unpinned piece (not the king) needs no test.
        let test = if stalemate { self.board.needs_legality_test() } else { None };
        let mut moves = self.take_buf(0);
        self.board.pseudo_moves(&mut moves);
        let mut n = 0;
        let mut pieces_seen = Bitboard(0);
        for &d in &moves {
            let orthodox = match d.special {
                Special::None | Special::Double => true,
                Special::Promote(k) => {
                    matches!(KINDS[k as usize].walk, Walk::Queen | Walk::Rook | Walk::Bishop | Walk::Knight)
                }
                _ => false,
            };
            if !orthodox
                || self.board.piece_at(d.from).is_none_or(|p| p.kind == walk::KING)
                || pieces_seen.contains(sqr(d.from))
            {
                continue;
            }
            let free = if Board::must_test(test, d) {
                let u = self.board.make(d);
                let free = !self.board.in_check(mover) && (stalemate || !self.board.in_check(!mover));
                self.board.unmake(d, u);
                free
            } else {
                true
            };
            if free {
                let (f, t) = (sqr(d.from), sqr(d.to));
                let mut mask = Bitboard::from_square(f)
                    | Bitboard::from_square(t)
                    | attacks::between(f, t)
                    | attacks::between(dk, f)
                    | ray_beyond(dk, f);
                if !stalemate {
                    mask |= attacks::line(ak, f) | attacks::line(ak, t);
                }
                // One move per piece: masks of one piece all hold its square.
                pieces_seen |= Bitboard::from_square(f);
                out[n] = mask;
                n += 1;
                if n == FREE_MAX {
                    break;
                }
            }
        }
        self.bufs[0] = moves;
        if let Some(ep) = ep {
            self.board.unmake_null(ep);
        }
        n
    }

    /// h= with two half moves left, the stalemated side to move, `free` its free moves
    /// ([`Searcher::stalemate_free_moves`], not `null`): can its move `d` be skipped? The masks
    /// `d` does not touch stay free after it (see there), so the other side's last move must
    /// touch each of them: it leaves a square of its own piece and lands on one square
    /// ([`one_move_touches_all`]; en passant's third square is d's own, so it changes nothing).
    /// With castling rights (`castle`: four squares) the weaker test: five masks that d misses
    /// and that share no square.
    fn stalemate_skips(&self, d: Move, free: &[Bitboard], castle: bool) -> bool {
        if !matches!(d.special, Special::None | Special::Double | Special::Promote(_))
            || self.board.piece_at(d.from).is_none_or(|p| p.kind == walk::KING)
        {
            return false;
        }
        let touched = Bitboard::from_square(mysl_core::Square::from_index(d.from as u32))
            | Bitboard::from_square(mysl_core::Square::from_index(d.to as u32));
        if castle {
            return disjoint_count(free, touched) >= 5;
        }
        let mut left = [Bitboard(0); FREE_MAX];
        let mut n = 0;
        for &mask in free {
            if (mask & touched).is_empty() {
                left[n] = mask;
                n += 1;
            }
        }
        !one_move_touches_all(&left[..n], self.board.color_bb(!self.board.side))
    }

    /// Does attacker move `m` leave one of the free defences `free` ([`Searcher::free_defences`])
    /// untouched, while it is certainly no check (`ci`: the defender's king) and of the plain
    /// kind the proof there needs? Then `m` does not win s#1.
    #[inline]
    fn misses_a_free_defence(&self, m: Move, ci: &crate::board::CheckInfo, free: &[Bitboard]) -> bool {
        let plain = match m.special {
            Special::None | Special::Double => true,
            Special::Promote(k) => {
                matches!(KINDS[k as usize].walk, Walk::Queen | Walk::Rook | Walk::Bishop | Walk::Knight)
            }
            _ => false,
        };
        if !plain
            || self.board.piece_at(m.from).is_none_or(|p| p.kind == walk::KING)
            || self.board.could_check_with(ci, m)
        {
            return false;
        }
        Self::leaves_a_mask_untouched(m, free)
    }

    /// Does our last move `m` leave one of the stalemated side's free moves
    /// ([`Searcher::stalemate_free_moves`]) in place? Then it does not stalemate.
    #[inline]
    fn misses_a_free_move(&self, m: Move, free: &[Bitboard]) -> bool {
        let plain = match m.special {
            Special::None | Special::Double => true,
            Special::Promote(k) => {
                matches!(KINDS[k as usize].walk, Walk::Queen | Walk::Rook | Walk::Bishop | Walk::Knight)
            }
            _ => false,
        };
        plain && Self::leaves_a_mask_untouched(m, free)
    }

    #[inline]
    fn leaves_a_mask_untouched(m: Move, masks: &[Bitboard]) -> bool {
        let touched = Bitboard::from_square(mysl_core::Square::from_index(m.from as u32))
            | Bitboard::from_square(mysl_core::Square::from_index(m.to as u32));
        masks.iter().any(|&mask| (mask & touched).is_empty())
    }

    /// Smallest k in 1..=max with `wins(k)` (attacker to move).
    fn min_win(&mut self, max: u32) -> Option<u32> {
        (1..=max).find(|&k| self.wins(k))
    }

    /// Attacker moves that win in exactly `k` (attacker to move).
    fn winning_moves(&mut self, k: u32) -> Vec<Move> {
        let moves = self.board.legal_moves();
        let mut res = Vec::new();
        for m in moves {
            let u = self.board.make(m);
            if self.move_wins(k) {
                res.push(m);
            }
            self.board.unmake(m, u);
        }
        res
    }

    /// Threat after an attacker move (defender to move): (length, threat moves), if any.
    fn threat(&mut self, n_after: u32) -> Option<(u32, Vec<Move>)> {
        let ep = self.board.make_null();
        let mut res = None;
        let max = self.opts.threat.map_or(n_after, |t| t.min(n_after));
        if let Some(k) = self.min_win(max) {
            let ts = self.winning_moves(k);
            res = Some((k, ts));
        }
        self.board.unmake_null(ep);
        res
    }

    /// Prints an attacker move `m` (board before it) that wins in `n`, with its subtree.
    /// `marker`: " !" for keys, " ?" for tries, "" inside the tree. Returns refutations (tries).
    fn print_attack(&mut self, m: Move, n: u32, num: u32, marker: &str, refutations: &[Move], out: &mut Vec<String>) {
        let u = self.board.make(m);
        let direct_goal = (self.is_direct() || self.opts.quodlibet) && self.goal_reached();
        self.board.unmake(m, u);
        // A move reaching the goal before the last move (a short solution) gets the goal's mark
        // too (`1.b6*a7[wPa7->b6] = !` in an =2, pyset-065).
        let text = self.move_text(m, n == 1 || direct_goal);
        let u = self.board.make(m);
        let victim = self.board.side;
        let in_check = self.board.in_check(victim);
        if direct_goal {
            out.push(format!("{num}.{text}{marker}"));
            self.board.unmake(m, u);
            return;
        }
        let n_after = n - 1;
        let mut threat = None;
        let mut suffix = "";
        if !in_check && n_after > 0 && !self.opts.no_threat {
            threat = self.threat(n_after);
            suffix = if threat.is_some() { " threat:" } else { " zugzwang." };
        }
        out.push(format!("{num}.{text}{marker}{suffix}"));
        if let Some((k, ts)) = &threat {
            let ep = self.board.make_null();
            for &t in ts {
                self.print_attack(t, *k, num + 1, "", &[], out);
            }
            self.board.unmake_null(ep);
        }
        // Without Option Variation only the keys/tries, their threats and (s#1, r#1) the forced replies.
        if self.opts.variation || (!marker.is_empty() && n_after == 0) {
            self.print_defences(n_after, num, threat.as_ref(), refutations, out);
        }
        if !refutations.is_empty() {
            out.push("but".to_string());
            for &r in refutations {
                let t = self.move_text(r, false);
                out.push(format!("{num}...{t} !"));
            }
        }
        self.board.unmake(m, u);
    }

    /// Defender to move; prints the defences that defeat the threat with their shortest continuations.
    fn print_defences(
        &mut self,
        k: u32,
        num: u32,
        threat: Option<&(u32, Vec<Move>)>,
        refutations: &[Move],
        out: &mut Vec<String>,
    ) {
        let ds = self.defences();
        for d in ds {
            if refutations.contains(&d) {
                continue;
            }
            let text_goal = !self.is_direct();
            let text = self.move_text(d, text_goal);
            let u = self.board.make(d);
            if !self.is_direct() && self.goal_reached() {
                // Popeye shows the defender's goal moves only at the end (or with MatesIn1).
                if k == 0 || self.opts.mates_in_1 {
                    out.push(format!("{num}...{text}"));
                }
                self.board.unmake(d, u);
                continue;
            }
            if k == 0 {
                self.board.unmake(d, u);
                continue;
            }
            let Some(kmin) = self.min_win(k) else {
                self.board.unmake(d, u);
                continue;
            };
            if let Some((kt, ts)) = threat {
                // As Popeye prints them: a defence is a variation if it defeats at least one of
                // the threat moves and does not allow a win shorter than the threat.
                let legal = self.board.legal_moves();
                let mut all_still = kmin >= *kt;
                for &t in ts {
                    if !all_still {
                        break;
                    }
                    if legal.contains(&t) {
                        let u2 = self.board.make(t);
                        let w = self.move_wins(*kt);
                        self.board.unmake(t, u2);
                        all_still &= w;
                    } else {
                        all_still = false;
                    }
                }
                let short = kmin < *kt;
                if short || all_still {
                    self.board.unmake(d, u);
                    continue;
                }
            }
            out.push(format!("{num}...{text}"));
            for c in self.winning_moves(kmin) {
                self.print_attack(c, kmin, num + 1, "", &[], out);
            }
            self.board.unmake(d, u);
        }
    }

    /// Refutations of attacker move `m` (board before it) in an n-mover; None if `m` is no try.
    fn refutations(&mut self, m: Move, n: u32) -> Vec<Move> {
        let u = self.board.make(m);
        let ds = self.defences();
        let mut refs = Vec::new();
        if ds.is_empty() {
            refs.push(m); // marker: no defence at all (stalemate): not a try
        } else {
            for d in ds {
                let u2 = self.board.make(d);
                let ok = self.after_defence(n - 1);
                self.board.unmake(d, u2);
                if !ok {
                    refs.push(d);
                }
            }
        }
        self.board.unmake(m, u);
        refs
    }

    /// Does attacker move `m` satisfy the `Threat n` option (if given)?
    fn threat_ok(&mut self, m: Move, n: u32) -> bool {
        let Some(t) = self.opts.threat else { return true };
        let u = self.board.make(m);
        let ok = if self.board.in_check(self.board.side) || n <= 1 {
            true
        } else {
            let ep = self.board.make_null();
            let r = (1..=t.min(n - 1)).any(|k| self.wins(k));
            self.board.unmake_null(ep);
            r
        };
        self.board.unmake(m, u);
        ok
    }

    /// Output block of one root move in battle play.
    fn battle_root_move(&mut self, m: Move) -> Vec<String> {
        let n = self.stip.moves;
        let mut out = Vec::new();
        if self.stip.play == Play::Reflex && self.has_goal_move() {
            return out;
        }
        let u = self.board.make(m);
        let key = self.move_wins(n);
        self.board.unmake(m, u);
        if key {
            if self.threat_ok(m, n) {
                self.print_attack(m, n, 1, " !", &[], &mut out);
            }
        } else if self.opts.try_play && !self.stopped {
            let refs = self.refutations(m, n);
            let is_stalemate = refs.first() == Some(&m);
            if !is_stalemate && !refs.is_empty() && refs.len() as u32 <= self.opts.defence && self.threat_ok(m, n) {
                self.print_attack(m, n, 1, " ?", &refs, &mut out);
            }
        }
        out
    }

    /// Set play in battle play: the defender moves first.
    fn battle_set_play(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        let ep = self.board.make_null();
        if !self.board.in_check(!self.board.side) {
            let n = self.stip.moves;
            self.print_defences_set(n - 1, &mut out);
        }
        self.board.unmake_null(ep);
        out
    }

    fn print_defences_set(&mut self, k: u32, out: &mut Vec<String>) {
        let ds = self.defences();
        for d in ds {
            let text = self.move_text(d, !self.is_direct());
            let u = self.board.make(d);
            if !self.is_direct() && self.goal_reached() {
                if self.opts.mates_in_1 {
                    out.push(format!("1...{text}"));
                }
            } else if k > 0 {
                if let Some(kmin) = self.min_win(k) {
                    out.push(format!("1...{text}"));
                    for c in self.winning_moves(kmin) {
                        self.print_attack(c, kmin, 2, "", &[], out);
                    }
                }
            }
            self.board.unmake(d, u);
        }
    }
}

/// Popeye's text for the legal move `m` on `board` (restored afterwards), with its check mark and,
/// when `final_goal`, the stalemate marks of `goal`: `Qd6-d5 +`, `0-0-0 #`, `Rh1*h4[+bQd8]`.
pub fn move_text(board: &mut Board, goal: Goal, m: Move, final_goal: bool) -> String {
    let p = board.piece_at(m.from).expect("moving piece");
    let mut s = String::new();
    match m.special {
        Special::Castle { rook_from, rook_to } if board.castling_chess || board.exchange_castling => {
            // CastlingChess: the king's move, then the partner's with its colour,
            // `Ke8-c6/bPb5-d7`; ExchangeCastling: partner and king on their squares before the
            // move, `Bh5<->Ke8` (Popeye's `output_plaintext_write_castling`, `write_exchange`).
            let partner = board.piece_at(rook_from).expect("castling partner");
            let code = KINDS[partner.kind as usize].code;
            if board.castling_chess {
                let col = if partner.color == Color::White { 'w' } else { 'b' };
                s.push_str(&format!(
                    "{}{}-{}/{col}{code}{}-{}",
                    KINDS[p.kind as usize].code,
                    square_name(m.from),
                    square_name(m.to),
                    square_name(rook_from),
                    square_name(rook_to)
                ));
            } else {
                s.push_str(&format!(
                    "{code}{}<->{}{}",
                    square_name(rook_from),
                    KINDS[p.kind as usize].code,
                    square_name(m.from)
                ));
            }
        }
        Special::Castle { rook_from, rook_to } => {
            // Anti-Mars Circe: king and rook first go to their rebirth squares,
            // `[bKf6->e8][bRh5->a8]0-0-0`.
            let col = if p.color == Color::White { 'w' } else { 'b' };
            if m.extra != crate::board::NO_EXTRA {
                s.push_str(&format!("[{col}K{}->{}]", square_name(m.from), square_name(m.extra)));
            }
            let corner = if rook_to % 8 == 5 { rook_to + 2 } else { rook_to - 3 };
            if rook_from != corner {
                s.push_str(&format!("[{col}R{}->{}]", square_name(rook_from), square_name(corner)));
            }
            s.push_str(if rook_to % 8 == 5 { "0-0" } else { "0-0-0" })
        }
        _ => {
            let from = mysl_core::Square::from_index(m.from as u32);
            // Attributes before the piece; with one, a pawn is written `P` too (`uPc3-c4`); a
            // neutral piece `nPe7-e8=nQ`.
            let neutral = board.neutral.contains(from);
            let attr = neutral || board.bul.contains(from) || board.uncapturable.contains(from);
            if neutral {
                s.push('n');
            }
            if board.bul.contains(from) {
                s.push('b');
            }
            if board.uncapturable.contains(from) {
                s.push('u');
            }
            if p.kind != walk::PAWN || attr {
                s.push_str(KINDS[p.kind as usize].code);
            }
            s.push_str(&square_name(m.from));
            if board.mars != crate::board::Mars::Off && m.extra != crate::board::NO_EXTRA {
                // (Anti)Mars Circe: the piece is first put on its rebirth square, `Rh5-h8-e8`.
                s.push('-');
                s.push_str(&square_name(m.extra));
            }
            let ep = matches!(m.special, Special::EnPassant { .. } | Special::EnPassantRebirthPromote { .. });
            if let Special::Locust { cap } = m.special {
                // A locust capture, Popeye's way: departure, capture square, arrival (`Lb3*d5-e6`).
                s.push('*');
                s.push_str(&square_name(cap));
                s.push('-');
            } else {
                let capture = board.piece_at(m.to).is_some() || ep;
                s.push(if capture { '*' } else { '-' });
            }
            s.push_str(&square_name(m.to));
            if let Special::Promote(k) = m.special {
                s.push('=');
                if neutral {
                    s.push('n');
                }
                // Imitator: a promotion into an imitator, `e7-e8=I`.
                let imitator = board.imitators.n > 0 && m.extra == crate::board::IMITATOR_PROMOTION;
                s.push_str(if imitator { "I" } else { KINDS[k as usize].code });
            }
            if ep {
                s.push_str(" ep.");
            }
        }
    }
    let u = board.make(m);
    let fx = board.effects(&u);
    if fx.side_changed() {
        // Chameleon pursuit: the piece now belongs to the other side, `Nd3-c1=w`.
        s.push_str(if p.color == Color::White { "=b" } else { "=w" });
    }
    if let Some((r, rp)) = u.reborn() {
        // Circe rebirth, Popeye's way: `[+bPc7]`; a neutral piece `[+nPe7]`.
        let c = if board.neutral.contains(mysl_core::Square::from_index(r as u32)) {
            'n'
        } else if rp.color == Color::White {
            'w'
        } else {
            'b'
        };
        s.push_str(&format!("[+{c}{}{}]", KINDS[rp.kind as usize].code, square_name(r)));
    }
    if let Some((r, rp)) = fx.parrain_reborn() {
        // Circe Parrain: the piece captured by the move before is reborn, `[+bPc5]`; a pawn
        // reborn on its last rank as the promoted piece, `[+wPc8=Q]`.
        let c = if rp.color == Color::White { 'w' } else { 'b' };
        let last = if rp.color == Color::White { 7 } else { 0 };
        if rp.kind != walk::PAWN && r / 8 == last && m.extra as usize == rp.kind as usize {
            s.push_str(&format!("[+{c}P{}={}]", square_name(r), KINDS[rp.kind as usize].code));
        } else {
            s.push_str(&format!("[+{c}{}{}]", KINDS[rp.kind as usize].code, square_name(r)));
        }
    }
    if let Some((g, gp)) = fx.ghost_summoned() {
        // Ghost chess: the ghost comes back, uncapturable: `[+wuPc3]`.
        let c = if gp.color == Color::White { 'w' } else { 'b' };
        s.push_str(&format!("[+{c}u{}{}]", KINDS[gp.kind as usize].code, square_name(g)));
    }
    if let Some((r, placed)) = fx.anti_reborn() {
        // AntiCirce: the capturer's rebirth, `[wPa7->d8=Q]`.
        let c = if placed.color == Color::White { 'w' } else { 'b' };
        s.push_str(&format!("[{c}{}{}->{}", KINDS[placed.kind as usize].code, square_name(m.to), square_name(r)));
        if let Special::RebirthPromote(k) | Special::EnPassantRebirthPromote { kind: k, .. } = m.special {
            s.push('=');
            s.push_str(KINDS[k as usize].code);
        }
        s.push(']');
    }
    if let Some((h, t2, hp)) = fx.hurdle_moved() {
        // Bul: the hurdle's move, `[bPc4->f4]`, `[wbGe3->a7]` (a Bul hurdle), `[wPc6->c8=S]`.
        let c = if hp.color == Color::White { 'w' } else { 'b' };
        let attr = if board.bul.contains(mysl_core::Square::from_index(t2 as u32)) { "b" } else { "" };
        s.push_str(&format!("[{c}{attr}{}{}->{}", KINDS[hp.kind as usize].code, square_name(h), square_name(t2)));
        if let Special::HurdlePromote(k) = m.special {
            s.push('=');
            s.push_str(KINDS[k as usize].code);
        }
        s.push(']');
    }
    if let Some((r, rp)) = fx.breton_removed() {
        // Breton removal: `[-bPb3]`.
        let c = if rp.color == Color::White { 'w' } else { 'b' };
        s.push_str(&format!("[-{c}{}{}]", KINDS[rp.kind as usize].code, square_name(r)));
    }
    if board.imitators.n > 0 {
        // Imitator: where the imitators stand after the move, `[Ic4,f6]`.
        let squares: Vec<String> = board.imitators.squares().iter().map(|&i| square_name(i)).collect();
        s.push_str(&format!("[I{}]", squares.join(",")));
    }
    if board.bgl.on {
        s.push_str(&board.bgl.text());
    }
    let victim = board.side;
    if board.in_check(victim) {
        s.push_str(if board.has_legal_move() { " +" } else { " #" });
    } else if final_goal && goal != Goal::Mate && goal_reached(board, goal) {
        s.push_str(if goal == Goal::Stalemate { " =" } else { " ==" });
    }
    board.unmake(m, u);
    s
}

/// Is `goal` reached for the side to move on `board` (the victim)?
pub fn goal_reached(board: &mut Board, goal: Goal) -> bool {
    match goal {
        Goal::Mate => board.is_mate(),
        Goal::Stalemate => board.is_stalemate(),
        Goal::DoubleStalemate => board.is_double_stalemate(),
    }
}

/// Formats help-play lines: numbered in pairs ending with the last half move.
fn format_help_line(texts: &[String]) -> String {
    let mut s = String::new();
    let odd = texts.len() % 2 == 1;
    let mut num = 1;
    for (i, t) in texts.iter().enumerate() {
        // A null move (`...`, Popeye's " ...") after a move number: `1. ...`, `1... ...`.
        let pos = i + odd as usize; // position in pairs
        let t = if t == "..." && (pos.is_multiple_of(2) || i == 0) { " ..." } else { t.as_str() };
        if i == 0 && odd {
            s.push_str(&format!("1...{t}"));
            num = 2;
            continue;
        }
        if pos.is_multiple_of(2) {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&format!("{num}.{t}"));
            num += 1;
        } else {
            s.push(' ');
            s.push_str(t);
        }
    }
    s
}

/// Runs `f` over `items` on up to `threads` threads, each with its own clone of `proto`;
/// results in item order.
fn par_map<T: Send, I: Sync + Copy + Send>(
    proto: &Searcher,
    items: &[I],
    threads: usize,
    f: impl Fn(&mut Searcher, I) -> T + Sync,
) -> (Vec<T>, bool) {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let stopped = AtomicBool::new(false);
    let threads = threads.clamp(1, items.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut s = proto.clone();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= items.len() {
                        break;
                    }
                    let r = f(&mut s, items[i]);
                    if let Ok(mut v) = results.lock() {
                        v[i] = Some(r);
                    }
                }
                if s.stopped {
                    stopped.store(true, Ordering::Relaxed);
                }
            });
        }
    });
    let v = results.into_inner().unwrap_or_default();
    (v.into_iter().flatten().collect(), stopped.load(Ordering::Relaxed))
}

/// Solves one position (one twin) and returns Popeye's solution lines.
pub fn solve_position(board: &Board, stip: Stipulation, opts: &Options, limits: &Limits) -> Solution {
    let mut s = Searcher::new(board.clone(), stip, opts.clone(), limits);
    let mut sol = Solution::default();
    let threads = limits.threads.max(1);
    if stip.series {
        solve_series(&mut s, threads, &mut sol);
    } else {
        match stip.play {
            Play::Help | Play::HelpSelf => solve_help(&mut s, threads, &mut sol),
            _ => solve_battle(&mut s, threads, &mut sol),
        }
    }
    if let Some(max) = opts.max_solutions {
        if !matches!(stip.play, Play::Direct | Play::SelfPlay | Play::Reflex | Play::SemiReflex) || stip.series {
            sol.lines.truncate(max as usize);
        }
    }
    sol
}

fn help_lines(s: &mut Searcher, plies: u32, threads: usize, sol: &mut Solution) {
    if plies == 0 {
        return;
    }
    s.grow_hash();
    let mut roots = s.board.legal_moves();
    if s.null_moves && plies >= 2 && !s.board.in_check(s.board.side) {
        roots.push(NULL_MOVE);
    }
    let (res, stopped) = par_map(s, &roots, threads, |t, m| {
        let mut out = Vec::new();
        if m == NULL_MOVE {
            let ep = t.board.make_null();
            let mut line = vec![m];
            t.help(plies - 1, &mut line, &mut out);
            t.board.unmake_null(ep);
            let lines: Vec<String> =
                out.iter().map(|l| format_help_line(&t.line_texts(l, Some(plies as usize - 1)))).collect();
            return (lines, t.stopped);
        }
        let u = t.board.make(m);
        let mut line = vec![m];
        if plies == 1 {
            t.board.unmake(m, u);
            t.help_final(m, &mut out);
        } else {
            t.help(plies - 1, &mut line, &mut out);
            t.board.unmake(m, u);
        }
        let final_at = if t.stip.play == Play::HelpSelf { None } else { Some(plies as usize - 1) };
        let lines: Vec<String> = out
            .iter()
            .map(|l| {
                let fa = if t.stip.play == Play::HelpSelf { Some(l.len() - 1) } else { final_at };
                format_help_line(&t.line_texts(l, fa))
            })
            .collect();
        (lines, t.stopped)
    });
    for (lines, _) in res {
        sol.lines.extend(lines);
    }
    sol.interrupted |= stopped;
}

fn solve_help(s: &mut Searcher, threads: usize, sol: &mut Solution) {
    let full = s.stip.help_plies();
    let plies = if s.opts.white_to_play && !s.stip.half { full - 1 } else { full };
    // The side that reaches the goal (or forces it, hs#) makes the last help move: White.
    s.board.side = if plies % 2 == 1 { Color::White } else { Color::Black };
    if s.opts.set_play && plies >= 1 {
        let ep = s.board.make_null();
        let mut min = plies - 1;
        while min >= 3 {
            min -= 2;
        }
        let mut k = min;
        while k < plies {
            if k >= 1 {
                help_lines(s, k, threads, sol);
            }
            k += 2;
        }
        s.board.unmake_null(ep);
    }
    // Shorter solutions of the same parity, then the full length.
    let mut k = if plies % 2 == 0 { 2 } else { 1 };
    while k <= plies {
        help_lines(s, k, threads, sol);
        k += 2;
    }
}

fn solve_series(s: &mut Searcher, threads: usize, sol: &mut Solution) {
    let n = s.stip.moves;
    // The series side: Black in ser-h (White makes the last move), White otherwise.
    let series_white = s.stip.play != Play::Help;
    s.board.side = if series_white { Color::White } else { Color::Black };
    let fmt = |t: &mut Searcher, l: &[Move], k: usize| -> String {
        let texts = t.series_texts(l, k);
        let mut line = String::new();
        let mut num = 0;
        for (i, (numbered, tx)) in texts.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            if *numbered {
                num += 1;
                // A pass (Option NullMoves): `2. ...`.
                let tx = if tx == "..." { " ..." } else { tx.as_str() };
                line.push_str(&format!("{num}.{tx}"));
            } else {
                line.push_str(tx);
            }
        }
        line
    };
    if s.opts.set_play {
        // The other side plays the end at once.
        let ep = s.board.make_null();
        let mut out = Vec::new();
        s.series_tail(&[], &mut out);
        let ep2 = s.board.make_null();
        s.board.unmake_null(ep2);
        for l in out {
            let texts = s.line_texts(&l, Some(l.len() - 1));
            sol.lines.push(format!("1...{}", texts.join(" ")));
        }
        s.board.unmake_null(ep);
    }
    for k in 1..=n {
        s.grow_hash();
        let mut roots = s.board.legal_moves();
        if s.null_moves && !s.board.in_check(s.board.side) {
            roots.push(NULL_MOVE);
        }
        let (res, stopped) = par_map(s, &roots, threads, |t, m| {
            let mut out = Vec::new();
            let mut line = vec![m];
            if m == NULL_MOVE {
                let ep = t.board.make_null();
                t.after_series_move(k, &mut line, &mut out);
                t.board.unmake_null(ep);
            } else {
                let u = t.board.make(m);
                t.after_series_move(k, &mut line, &mut out);
                t.board.unmake(m, u);
            }
            out.iter().map(|l| fmt(t, l, k as usize)).collect::<Vec<_>>()
        });
        for lines in res {
            sol.lines.extend(lines);
        }
        sol.interrupted |= stopped;
    }
}

fn solve_battle(s: &mut Searcher, threads: usize, sol: &mut Solution) {
    s.board.side = Color::White;
    if s.opts.set_play {
        let lines = s.battle_set_play();
        sol.lines.extend(lines);
    }
    let roots = s.board.legal_moves();
    let (res, stopped) = par_map(s, &roots, threads, |t, m| t.battle_root_move(m));
    for lines in res {
        sol.lines.extend(lines);
    }
    sol.interrupted |= stopped;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Piece;

    /// The next number of a xorshift generator (reproducible random test positions).
    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Does a line of `plies` legal half moves (the last one by `mating`) end in a position where
    /// `goal` holds? Brute force.
    fn line_exists(b: &mut Board, mating: Color, plies: u32, goal: fn(&mut Board, Color) -> bool) -> bool {
        if plies == 0 {
            return false;
        }
        for m in b.legal_moves() {
            let u = b.make(m);
            let hit = if plies == 1 { goal(b, mating) } else { line_exists(b, mating, plies - 1, goal) };
            b.unmake(m, u);
            if hit {
                return true;
            }
        }
        false
    }

    /// `mating` gives check (the goal of the check-reach bound's test).
    fn gives_check(b: &mut Board, mating: Color) -> bool {
        b.in_check(!mating)
    }

    /// `mating` mates.
    fn gives_mate(b: &mut Board, mating: Color) -> bool {
        b.in_check(!mating) && b.legal_moves().is_empty()
    }

    /// The check-reach bound never rules out a line that exists: random positions, every length
    /// up to 4 half moves, compared with brute force.
    #[test]
    fn check_reachable_is_sound() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut rnd = |n: u64| xorshift(&mut seed) % n;
        let mut pruned = 0;
        let mut tried = 0;
        while tried < 400 {
            let mut b = Board::empty();
            let white = [walk::KING, walk::KNIGHT, walk::PAWN, walk::BISHOP, walk::ROOK, walk::QUEEN];
            let black = [walk::KING, walk::ROOK, walk::PAWN];
            let nw = 2 + rnd(3) as usize;
            let mut ok = true;
            for (i, &k) in white.iter().take(nw).chain(black.iter()).enumerate() {
                let color = if i < nw { Color::White } else { Color::Black };
                let s = rnd(64) as u8;
                if b.piece_at(s).is_some() || (k == walk::PAWN && !(8..56).contains(&s)) {
                    ok = false;
                    break;
                }
                b.put(s, Piece { color, kind: k });
            }
            if !ok {
                continue;
            }
            b.side = Color::Black;
            if b.in_check(Color::White) || b.in_check(Color::Black) {
                continue;
            }
            tried += 1;
            // The mask-based check filter and generator keep every move that gives check.
            for side in [Color::White, Color::Black] {
                b.side = side;
                let k = b.king_square(!side).expect("king");
                let ci = b.check_info(k);
                let mut all = Vec::new();
                b.pseudo_moves(&mut all);
                // Moves that skip the legality test are legal.
                let test = b.needs_legality_test();
                for &m in &all {
                    if !Board::must_test(test, m) {
                        let u = b.make(m);
                        assert!(!b.in_check(side), "{m:?} {b:?}");
                        b.unmake(m, u);
                    }
                }
                let mut got = Vec::new();
                b.checking_candidates(&ci, &mut got);
                got.retain(|&m| b.could_check_with(&ci, m));
                for &m in &all {
                    let u = b.make(m);
                    let checks = !b.in_check(side) && b.in_check(!side);
                    b.unmake(m, u);
                    if checks {
                        assert!(got.contains(&m), "{m:?} {b:?}");
                    }
                }
                assert!(got.iter().all(|m| all.contains(m)));
            }
            for plies in 1..=4u32 {
                // White makes the last half move.
                b.side = if plies % 2 == 1 { Color::White } else { Color::Black };
                if !check_reachable(&b, Color::White, plies.div_ceil(2), plies / 2) {
                    pruned += 1;
                    assert!(
                        !line_exists(&mut b, Color::White, plies, gives_check),
                        "pruned a line: {plies} plies, {b:?}"
                    );
                }
            }
        }
        assert!(pruned > 50, "the bound should prune some of these positions ({pruned})");
    }

    /// The s#1 free-defence bound ([`Searcher::free_defences`]) never changes an answer: random
    /// positions, s#1 and s#2, `wins` with the bound against `wins` without it.
    #[test]
    fn free_defence_bound_is_sound() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = |n: u64| xorshift(&mut seed) % n;
        let limits = Limits { hash_entries: 1 << 12, threads: 1, ..Limits::default() };
        let (mut tried, mut wins, mut skipped_before) = (0, 0, 0u64);
        // Release test runs take more positions (most are lost: about one in 500 s#1 is won).
        let positions = if cfg!(debug_assertions) { 5000 } else { 20000 };
        while tried < positions {
            let mut b = Board::empty();
            let white =
                [walk::KING, walk::QUEEN, walk::ROOK, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::PAWN, walk::PAWN];
            let black = [walk::KING, walk::QUEEN, walk::KNIGHT, walk::PAWN, walk::ROOK, walk::PAWN];
            let nw = 4 + rnd(5) as usize;
            let nb = 2 + rnd(5) as usize;
            // Kings close together, so that mates are within reach.
            let wk = rnd(64) as u8;
            let mut ok = true;
            for (i, &k) in white.iter().take(nw).chain(black.iter().take(nb)).enumerate() {
                let color = if i < nw { Color::White } else { Color::Black };
                let s = if i == nw {
                    let (f, r) = ((wk % 8) as i64 + rnd(5) as i64 - 2, (wk / 8) as i64 + rnd(5) as i64 - 2);
                    if !(0..8).contains(&f) || !(0..8).contains(&r) {
                        ok = false;
                        break;
                    }
                    (r * 8 + f) as u8
                } else if i == 0 {
                    wk
                } else {
                    rnd(64) as u8
                };
                if b.piece_at(s).is_some() || (k == walk::PAWN && !(8..56).contains(&s)) {
                    ok = false;
                    break;
                }
                b.put(s, Piece { color, kind: k });
            }
            if !ok {
                continue;
            }
            b.side = Color::White;
            if b.in_check(Color::Black) {
                continue;
            }
            tried += 1;
            for n in 1..=(1 + (tried % 10 == 0) as u32) {
                let stip = Stipulation {
                    play: Play::SelfPlay,
                    series: false,
                    goal: Goal::Mate,
                    moves: n,
                    half: false,
                    parry: Parry::None,
                };
                let mut with = Searcher::new(b.clone(), stip, Options::default(), &limits);
                assert!(with.self_free);
                let mut without = Searcher::new(b.clone(), stip, Options::default(), &limits);
                without.self_free = false;
                let (x, y) = (with.wins(n), without.wins(n));
                assert_eq!(x, y, "s#{n}: {b:?}");
                wins += x as u32;
                skipped_before += without.nodes.saturating_sub(with.nodes);
            }
        }
        eprintln!("free-defence test: {wins} won, {skipped_before} nodes saved");
        assert!(wins > 5, "some positions should be won ({wins})");
        assert!(skipped_before > 0, "the bound should save some nodes");
    }
    /// The stalemate bounds (the last move must take away every free move of the stalemated
    /// side, [`Searcher::stalemate_free_moves`]; its move before that must leave fewer than
    /// three disjoint ones, [`Searcher::stalemate_skips`]) never lose a solution: random
    /// positions with a few pieces a side (castling rights now and then), h= of 1 to 4 half
    /// moves solved with and without them, the same lines.
    #[test]
    fn stalemate_bounds_are_sound() {
        let mut seed = 0x5851_f42d_4c95_7f2du64;
        let mut rnd = |n: u64| xorshift(&mut seed) % n;
        let limits = Limits { hash_entries: 1 << 12, threads: 1, ..Limits::default() };
        let (mut tried, mut solved, mut saved, mut series_solved) = (0u32, 0u32, 0u64, 0u32);
        let positions = if cfg!(debug_assertions) { 1500 } else { 6000 };
        let white_pool = [walk::QUEEN, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::PAWN, walk::PAWN];
        let black_pool = [walk::PAWN, walk::PAWN, walk::PAWN, walk::KNIGHT, walk::BISHOP, walk::ROOK];
        while tried < positions {
            let mut b = Board::empty();
            let castle = rnd(4) == 0;
            let wk = if castle { 4 } else { rnd(64) as u8 };
            b.put(wk, Piece { color: Color::White, kind: walk::KING });
            if castle {
                b.put(7, Piece { color: Color::White, kind: walk::ROOK });
                if rnd(2) == 0 {
                    b.put(0, Piece { color: Color::White, kind: walk::ROOK });
                }
            }
            // The stalemated king near an edge, where stalemates are within reach.
            let bk = [rnd(8) as u8, 56 + rnd(8) as u8, 8 * rnd(8) as u8, 8 * rnd(8) as u8 + 7][rnd(4) as usize];
            if b.piece_at(bk).is_some() {
                continue;
            }
            b.put(bk, Piece { color: Color::Black, kind: walk::KING });
            let mut ok = true;
            let (nw, nb) = (1 + rnd(3) as usize, rnd(7) as usize);
            for i in 0..nw + nb {
                let (color, kind) = if i < nw {
                    (Color::White, white_pool[rnd(white_pool.len() as u64) as usize])
                } else {
                    (Color::Black, black_pool[rnd(black_pool.len() as u64) as usize])
                };
                let s = rnd(64) as u8;
                if b.piece_at(s).is_some() || (kind == walk::PAWN && !(8..56).contains(&s)) {
                    ok = false;
                    break;
                }
                b.put(s, Piece { color, kind });
            }
            if !ok {
                continue;
            }
            b.castling = b.default_castling();
            let plies = 1 + rnd(4) as u32;
            b.side = if plies % 2 == 1 { Color::White } else { Color::Black };
            if b.in_check(!b.side) {
                continue;
            }
            tried += 1;
            let stip = Stipulation {
                play: Play::Help,
                series: false,
                goal: Goal::Stalemate,
                moves: plies / 2,
                half: plies % 2 == 1,
                parry: Parry::None,
            };
            let mut with = Searcher::new(b.clone(), stip, Options::default(), &limits);
            assert!(with.stale_free);
            let mut without = Searcher::new(b.clone(), stip, Options::default(), &limits);
            without.stale_free = false;
            let (mut x, mut y) = (Vec::new(), Vec::new());
            with.help(plies, &mut Vec::new(), &mut x);
            without.help(plies, &mut Vec::new(), &mut y);
            let key = |v: &Vec<Vec<Move>>| {
                let mut k: Vec<String> = v.iter().map(|l| format!("{l:?}")).collect();
                k.sort();
                k
            };
            assert_eq!(key(&x), key(&y), "h= in {plies} half moves: {b:?}");
            solved += !x.is_empty() as u32;
            saved += without.nodes.saturating_sub(with.nodes);
            // The series forms: ser-= (White's series, Black stalemated) and ser-h= (Black's
            // series, then White stalemates), 1 to 3 moves.
            for play in [Play::Direct, Play::Help] {
                if tried % 3 != 0 {
                    break;
                }
                let series_side = if play == Play::Direct { Color::White } else { Color::Black };
                if b.in_check(!series_side) {
                    continue;
                }
                let stip = Stipulation {
                    play,
                    series: true,
                    goal: Goal::Stalemate,
                    moves: if tried % 8 == 0 { 3 } else { 1 + tried % 2 },
                    half: false,
                    parry: Parry::None,
                };
                let mut lines = Vec::new();
                for on in [true, false] {
                    let mut s = Searcher::new(b.clone(), stip, Options::default(), &limits);
                    assert!(s.stale_free);
                    s.stale_free = on;
                    let mut sol = Solution::default();
                    solve_series(&mut s, 1, &mut sol);
                    sol.lines.sort();
                    lines.push(sol.lines);
                }
                assert_eq!(lines[0], lines[1], "{stip}: {b:?}");
                series_solved += !lines[0].is_empty() as u32;
            }
        }
        eprintln!("series: {series_solved} with a solution");
        assert!(series_solved > 10, "some series should stalemate ({series_solved})");
        eprintln!("stalemate bound test: {solved} of {tried} positions with a solution, {saved} nodes saved");
        // By hand: the last move Rc2-a2 takes away two free moves at once (the capture d3xc2 by
        // leaving c2, the push a3-a2 by landing on a2), so Black's g3-g2 before it, which leaves
        // exactly two disjoint free moves, must not be skipped.
        let board_of = |black_pawn: &str| {
            let mut b = Board::empty();
            let sq = |name: &str| {
                let by = name.as_bytes();
                (by[1] - b'1') * 8 + (by[0] - b'a')
            };
            for (s, color, kind) in [
                ("h8", Color::Black, walk::KING),
                ("h7", Color::Black, walk::PAWN),
                ("d3", Color::Black, walk::PAWN),
                ("a3", Color::Black, walk::PAWN),
                (black_pawn, Color::Black, walk::PAWN),
                ("f7", Color::White, walk::KING),
                ("h6", Color::White, walk::PAWN),
                ("d2", Color::White, walk::PAWN),
                ("c2", Color::White, walk::ROOK),
                ("g1", Color::White, walk::BISHOP),
            ] {
                b.put(sq(s), Piece { color, kind });
            }
            b
        };
        let mut b = board_of("g3");
        b.side = Color::Black;
        let stip = Stipulation {
            play: Play::Help,
            series: false,
            goal: Goal::Stalemate,
            moves: 1,
            half: false,
            parry: Parry::None,
        };
        let mut s = Searcher::new(b, stip, Options::default(), &limits);
        let mut out = Vec::new();
        s.help(2, &mut Vec::new(), &mut out);
        let lines: Vec<String> = out.iter().map(|l| format_help_line(&s.line_texts(l, Some(1)))).collect();
        assert!(lines.iter().any(|l| l.contains("g3-g2") && l.contains("Rc2-a2 =")), "{lines:?}");
        // The same last move as ser-=1 (the pawn already on g2): one series move takes away
        // two free moves, so the series bound may not cut at two disjoint masks.
        // A White pawn on b4 gives a first move that touches nothing (ser-=2: the bound is
        // asked after it, not at the root).
        let mut b = board_of("g2");
        b.put(25, Piece { color: Color::White, kind: walk::PAWN });
        let stip = Stipulation {
            play: Play::Direct,
            series: true,
            goal: Goal::Stalemate,
            moves: 2,
            half: false,
            parry: Parry::None,
        };
        let mut s = Searcher::new(b, stip, Options::default(), &limits);
        let mut sol = Solution::default();
        solve_series(&mut s, 1, &mut sol);
        assert!(sol.lines.iter().any(|l| l == "1.b4-b5 2.Rc2-a2 ="), "ser-=2: {:?}", sol.lines);
        assert!(solved > 20, "some positions should have a stalemate ({solved})");
        assert!(saved > 0, "the bounds should save some nodes");
    }

    /// The flight bound ([`flights_coverable`]) never rules out a mate that exists: random
    /// positions with few mating pieces (a king and pawns or one piece) against many, every
    /// length up to 4 half moves against brute force, and h#1 to h#3 solved with the bound
    /// against without it (same solutions).
    #[test]
    fn flight_bound_is_sound() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |n: u64| xorshift(&mut seed) % n;
        let limits = Limits { hash_entries: 1 << 12, threads: 1, ..Limits::default() };
        let (mut tried, mut pruned, mut mates, mut saved) = (0, 0, 0, 0u64);
        let positions = if cfg!(debug_assertions) { 1000 } else { 3000 };
        while tried < positions {
            let mut b = Board::empty();
            let extra = [walk::PAWN, walk::PAWN, walk::KNIGHT, walk::BISHOP, walk::ROOK, walk::QUEEN];
            let black =
                [walk::KING, walk::PAWN, walk::PAWN, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::QUEEN, walk::PAWN];
            let nw = 1 + rnd(3) as usize;
            let nb = 3 + rnd(6) as usize;
            let bk = rnd(64) as u8;
            let mut ok = true;
            let mut units = vec![(Color::White, walk::KING)];
            for _ in 1..nw {
                units.push((Color::White, extra[rnd(6) as usize]));
            }
            units.extend(black.iter().take(nb).map(|&k| (Color::Black, k)));
            for (i, &(color, k)) in units.iter().enumerate() {
                // The black king first among black, near the white king.
                let s = if i == nw {
                    bk
                } else if i < nw || rnd(2) == 0 {
                    let (f, r) = ((bk % 8) as i64 + rnd(7) as i64 - 3, (bk / 8) as i64 + rnd(7) as i64 - 3);
                    if !(0..8).contains(&f) || !(0..8).contains(&r) {
                        ok = false;
                        break;
                    }
                    (r * 8 + f) as u8
                } else {
                    rnd(64) as u8
                };
                if b.piece_at(s).is_some() || (k == walk::PAWN && !(8..56).contains(&s)) {
                    ok = false;
                    break;
                }
                b.put(s, Piece { color, kind: k });
            }
            if !ok || b.king_square(Color::White).is_none() {
                continue;
            }
            b.side = Color::Black;
            if b.in_check(Color::White) || b.in_check(Color::Black) {
                continue;
            }
            tried += 1;
            for plies in 1..=4u32 {
                b.side = if plies % 2 == 1 { Color::White } else { Color::Black };
                if b.in_check(!b.side) {
                    continue;
                }
                if !flights_coverable(&b, Color::White, plies.div_ceil(2), plies / 2) {
                    pruned += 1;
                    assert!(
                        !line_exists(&mut b, Color::White, plies, gives_mate),
                        "pruned a mate: {plies} plies, {b:?}"
                    );
                }
            }
            b.side = Color::Black;
            let n = 1 + (tried % 3) as u32;
            if n == 3 && tried % 30 != 0 {
                continue;
            }
            let stip = Stipulation {
                play: Play::Help,
                series: false,
                goal: Goal::Mate,
                moves: n,
                half: false,
                parry: Parry::None,
            };
            let run = |flights: bool| {
                let mut s = Searcher::new(b.clone(), stip, Options::default(), &limits);
                s.help_flights = flights;
                let mut out = Vec::new();
                s.help(2 * n, &mut Vec::new(), &mut out);
                let mut lines: Vec<String> = out.iter().map(|l| format!("{l:?}")).collect();
                lines.sort();
                (lines, s.nodes)
            };
            let ((with, nodes_with), (without, nodes_without)) = (run(true), run(false));
            assert_eq!(with, without, "h#{n}: {b:?}");
            mates += !with.is_empty() as u32;
            saved += nodes_without.saturating_sub(nodes_with);
        }
        eprintln!("flight bound test: {pruned} pruned, {mates} helpmates, {saved} nodes saved");
        assert!(pruned > 50, "the bound should prune some positions ({pruned})");
        assert!(mates > 5, "some positions should have helpmates ({mates})");
    }
}
