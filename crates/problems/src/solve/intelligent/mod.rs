//! The intelligent mode's bound for play ending in mate (h#, ser-h#; ser-# with b = 0): can the mating side,
//! with `w` moves left, and the mated side, with `b` moves left, still reach *any* mating
//! configuration? docs/problems.md, "Intelligent mode".
//!
//! In a mate of the king on square K every flight square of K (an on-board neighbour) is
//! occupied by a piece of the mated side or attacked by the mating side (the king removed), and
//! K itself is attacked. So for some K within king distance `b` of the king now:
//!
//! * the mated side spends at least `dist(king, K)` king moves, plus, for every flight it
//!   blocks, the empty-board move count of the cheapest of its (non-king) pieces to that square,
//!   the blockers being distinct pieces (a sum of per-square minima is a lower bound of any
//!   assignment, and there must be as many pieces as blocked flights);
//! * the mating side covers K and the other flights: each of its pieces ends on one square t
//!   (or is captured and covers nothing) and attacks from t at most what it attacks there on an
//!   empty board; it needs at least its empty-board move count to t (a pawn: ranks, one file a
//!   move, the double step; promotion: to the last rank, then the promoted piece's count). The
//!   pieces' moves add up (each move moves one piece: no castling rights, checked). The king may
//!   not end next to K. A mating piece that ends on a flight must be covered by another one (else
//!   the king takes it), and no piece of the mated side blocks that flight. The mating move gives
//!   the check, so a piece that checks K from where it stands now as a knight, a pawn or a rider
//!   next to K (a check that cannot be discovered) must leave and come back: two moves, never
//!   for a pawn. The cheapest cover of each set of the nine squares, with the flights the pieces
//!   stand on, is found by a dynamic program over the pieces.
//!
//! If no K passes, no line of that length ends in mate: the node is cut. Only orthodox pieces,
//! no condition, no castling rights (otherwise the bound says "possible").

use mysl_core::Color;

use crate::board::Board;
use crate::walk;

const NEVER: u8 = 255;

/// Attacker types of the mask table.
const T_KNIGHT: usize = 0;
const T_BISHOP: usize = 1;
const T_ROOK: usize = 2;
const T_QUEEN: usize = 3;
const T_KING: usize = 4;
const T_WPAWN: usize = 5;

/// Piece-kind rows of `dist` (N B R Q K).
const D_KINDS: [usize; 5] = [T_KNIGHT, T_BISHOP, T_ROOK, T_QUEEN, T_KING];

const DIRS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Bit of K itself in a cover mask (bits 0..8: the neighbours in `DIRS` order).
const CHECK_BIT: u16 = 1 << 8;
/// A cover state: the covered bits (0..=8) and, from `OCC_SHIFT` on, the flights that mating pieces
/// stand on (each must be covered by another piece, or the king takes it, and none can be blocked).
const OCC_SHIFT: u32 = 9;
const STATES: usize = 1 << 17;
/// `CHECK_BIT` in a state.
const CHECK_STATE: u32 = CHECK_BIT as u32;
const COVER_BITS: u32 = (1 << OCC_SHIFT) - 1;

/// The flights a state's pieces stand on, as cover bits.
fn occupied(state: u32) -> u32 {
    state >> OCC_SHIFT
}

struct Tables {
    /// `[kind N B R Q K][from][to]`: moves on an empty board.
    dist: Vec<u8>,
    /// `[k]`: the bits of the on-board neighbours of k.
    flights: [u16; 64],
    /// `[colour][from][to]`: a pawn's moves to stand on `to` as a pawn or promoted piece.
    pawn_any: Vec<u8>,
    /// `[colour][from][to]`: moves of a pawn that stays a pawn (no promotion).
    pawn: Vec<u8>,
    /// `[colour][from][kind N B R Q][to]`: moves of a pawn to promote and go to `to` as `kind`.
    promo: Vec<u8>,
    /// `[attacker type][t][k]`: the cover mask of an attacker on t for a king on k (empty board).
    mask: Vec<u16>,
    /// `[cover type][from]`: the cover lists, computed at first use.
    blocks: Vec<std::sync::OnceLock<Block>>,
}

/// Cover types of `Tables::blocks`: N B R Q K, the white pawn, the black pawn (promotions included).
const C_TYPES: usize = 7;

fn coords(s: usize) -> (i32, i32) {
    ((s % 8) as i32, (s / 8) as i32)
}

fn king_dist(a: usize, b: usize) -> i32 {
    let ((af, ar), (bf, br)) = (coords(a), coords(b));
    (af - bf).abs().max((ar - br).abs())
}

fn attacks(t: usize, k: usize, typ: usize) -> bool {
    if t == k {
        return false;
    }
    let ((tf, tr), (kf, kr)) = (coords(t), coords(k));
    let (df, dr) = (kf - tf, kr - tr);
    let diag = df.abs() == dr.abs();
    let ortho = df == 0 || dr == 0;
    match typ {
        T_KNIGHT => (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1),
        T_BISHOP => diag,
        T_ROOK => ortho,
        T_QUEEN => diag || ortho,
        T_KING => df.abs() <= 1 && dr.abs() <= 1,
        T_WPAWN => df.abs() == 1 && dr == 1,
        _ => df.abs() == 1 && dr == -1, // the black pawn
    }
}

fn tables() -> &'static Tables {
    static T: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut dist = vec![NEVER; 5 * 64 * 64];
        // Knight: breadth-first search.
        for s in 0..64 {
            dist[s * 64..s * 64 + 64].copy_from_slice(&walk::knight_distances(s));
        }
        for s in 0..64 {
            for t in 0..64 {
                let ((sf, sr), (tf, tr)) = (coords(s), coords(t));
                let diag = (sf - tf).abs() == (sr - tr).abs();
                let ortho = sf == tf || sr == tr;
                let same_colour = (sf + sr) % 2 == (tf + tr) % 2;
                let z = s == t;
                dist[(64 + s) * 64 + t] = if z {
                    0
                } else if diag {
                    1
                } else if same_colour {
                    2
                } else {
                    NEVER
                };
                dist[(2 * 64 + s) * 64 + t] = if z {
                    0
                } else if ortho {
                    1
                } else {
                    2
                };
                dist[(3 * 64 + s) * 64 + t] = if z {
                    0
                } else if ortho || diag {
                    1
                } else {
                    2
                };
                dist[(4 * 64 + s) * 64 + t] = king_dist(s, t) as u8;
            }
        }
        // Pawns, ranks counted from the pawn's side.
        let mut pawn = vec![NEVER; 2 * 64 * 64];
        let mut promo = vec![NEVER; 2 * 64 * 4 * 64];
        for c in 0..2 {
            let rel = |s: usize| if c == 0 { (s / 8) as i32 } else { 7 - (s / 8) as i32 };
            for from in 0..64 {
                let (f, r) = ((from % 8) as i32, rel(from));
                if !(1..=6).contains(&r) {
                    continue;
                }
                // Moves from `from` to a square (file tf, relative rank tr) as a pawn.
                let steps = |tf: i32, tr: i32| -> Option<i32> {
                    let adv = tr - r;
                    let df = (tf - f).abs();
                    if adv < 0 || df > adv {
                        return None;
                    }
                    Some(if r == 1 && adv >= 2 && df <= adv - 2 { adv - 1 } else { adv })
                };
                for to in 0..64 {
                    let (tf, tr) = ((to % 8) as i32, rel(to));
                    if tr <= 6 {
                        if let Some(n) = steps(tf, tr) {
                            pawn[(c * 64 + from) * 64 + to] = n as u8;
                        }
                    }
                }
                for pf in 0..8 {
                    let Some(n) = steps(pf, 7) else { continue };
                    let p = if c == 0 { 56 + pf } else { pf } as usize;
                    for (ki, &kind) in D_KINDS.iter().take(4).enumerate() {
                        for to in 0..64 {
                            let d = dist[(kind * 64 + p) * 64 + to];
                            if d != NEVER {
                                let i = ((c * 64 + from) * 4 + ki) * 64 + to;
                                promo[i] = promo[i].min((n + d as i32) as u8);
                            }
                        }
                    }
                }
            }
        }
        let mut mask = vec![0u16; 7 * 64 * 64];
        let mut flights = [0u16; 64];
        for k in 0..64 {
            let (kf, kr) = coords(k);
            let mut nb = [None; 8];
            for (i, (df, dr)) in DIRS.iter().enumerate() {
                let (f, r) = (kf + df, kr + dr);
                if (0..8).contains(&f) && (0..8).contains(&r) {
                    nb[i] = Some((r * 8 + f) as usize);
                    flights[k] |= 1 << i;
                }
            }
            for typ in 0..7 {
                for t in 0..64 {
                    let mut m = 0u16;
                    if attacks(t, k, typ) {
                        m |= CHECK_BIT;
                    }
                    for (i, n) in nb.iter().enumerate() {
                        if let Some(n) = *n {
                            if attacks(t, n, typ) {
                                m |= 1 << i;
                            }
                        }
                    }
                    mask[(typ * 64 + t) * 64 + k] = m;
                }
            }
        }
        let mut pawn_any = vec![NEVER; 2 * 64 * 64];
        for c in 0..2 {
            for from in 0..64 {
                for to in 0..64 {
                    let mut best = pawn[(c * 64 + from) * 64 + to];
                    for ki in 0..4 {
                        best = best.min(promo[((c * 64 + from) * 4 + ki) * 64 + to]);
                    }
                    pawn_any[(c * 64 + from) * 64 + to] = best;
                }
            }
        }
        let blocks = (0..C_TYPES * 64).map(|_| std::sync::OnceLock::new()).collect();
        Tables { dist, flights, pawn_any, pawn, promo, mask, blocks }
    })
}

/// The cover lists of one (cover type, square), computed at first use.
fn block(t: &Tables, ct: usize, from: usize) -> &Block {
    t.blocks[ct * 64 + from].get_or_init(|| {
        let (dist, pawn, promo, mask) = (&t.dist, &t.pawn, &t.promo, &t.mask);
        let mut index = [(0u16, 0u16); 64];
        let mut cover: Vec<u64> = Vec::new();
        let mut checks = [0u64; 8];
        let mut arr = vec![NEVER; STATES];
        let mut pairs: Vec<(u8, u32)> = Vec::new();
        for k in 0..64 {
            pairs.clear();
            let mut put = |m: u32, c: u8, pairs: &mut Vec<(u8, u32)>| {
                if m & COVER_BITS == 0 || c == NEVER {
                    return;
                }
                if arr[m as usize] == NEVER {
                    pairs.push((0, m));
                }
                arr[m as usize] = arr[m as usize].min(c);
            };
            let (kf, kr) = coords(k);
            for to in 0..64 {
                if to == k {
                    continue;
                }
                let (tf, tr) = coords(to);
                let occ = DIRS
                    .iter()
                    .position(|&(df, dr)| (kf + df, kr + dr) == (tf, tr))
                    .map_or(0, |i| 1u32 << (OCC_SHIFT as usize + i));
                let at = |typ: usize| mask[(typ * 64 + to) * 64 + k] as u32 | occ;
                // The mating move gives the check (the mated side cannot be in check before it). A
                // piece that checks K from the square it stands on now as a knight, a pawn or a rider
                // next to K cannot have its check discovered: it leaves and comes back (two moves; a
                // pawn cannot). It covers flights from there for nothing.
                let stays = to == from;
                let contact = |typ: usize| typ == T_KNIGHT || king_dist(to, k) == 1;
                match ct {
                    0..=3 if stays && at(ct) & CHECK_STATE != 0 && contact(ct) => {
                        put(at(ct) & !CHECK_STATE, 0, &mut pairs);
                        put(at(ct), 2, &mut pairs);
                    }
                    0..=3 => put(at(ct), dist[(ct * 64 + from) * 64 + to], &mut pairs),
                    4 => {
                        if king_dist(to, k) >= 2 {
                            put(at(T_KING), dist[(T_KING * 64 + from) * 64 + to], &mut pairs);
                        }
                    }
                    _ => {
                        let c = ct - 5;
                        let m = if stays { at(T_WPAWN + c) & !CHECK_STATE } else { at(T_WPAWN + c) };
                        put(m, pawn[(c * 64 + from) * 64 + to], &mut pairs);
                        for (ki, &typ) in D_KINDS.iter().take(4).enumerate() {
                            put(at(typ), promo[((c * 64 + from) * 4 + ki) * 64 + to], &mut pairs);
                        }
                    }
                }
            }
            for p in pairs.iter_mut() {
                p.0 = arr[p.1 as usize];
                arr[p.1 as usize] = NEVER;
            }
            // By cost, larger sets first; keep the pairs no kept pair dominates (covers a superset
            // standing on a subset of the flights, for no more moves).
            pairs.sort_by_key(|&(c, m)| (c, std::cmp::Reverse((m & COVER_BITS).count_ones()), m));
            let start = cover.len();
            for &(c, m) in pairs.iter() {
                let dominated = cover[start..].iter().any(|&e: &u64| {
                    let e = e as u32;
                    e & m & COVER_BITS == m & COVER_BITS && occupied(e) & !occupied(m) == 0
                });
                if !dominated {
                    cover.push(m as u64 | (c as u64) << 32);
                }
            }
            index[k] = (start as u16, (cover.len() - start) as u16);
            let first =
                cover[start..].iter().filter(|&&e| e as u32 & CHECK_STATE != 0).map(|&e| (e >> 32) as usize).min();
            if let Some(c) = first {
                for bits in checks.iter_mut().skip(c.min(8)) {
                    *bits |= 1 << k;
                }
            }
        }
        Block { index, cover, checks }
    })
}

/// The cover lists of one piece type on one square, for every K.
#[derive(Debug)]
struct Block {
    /// `[k]` -> `(start, len)` into `cover`: the (mask, cost) pairs of the piece (ending on any
    /// square but k; a king not next to k), Pareto-minimal (no other pair covers a superset
    /// standing on a subset of the flights for no more moves), by increasing cost.
    index: [(u16, u16); 64],
    /// `state | cost << 32` (a state: see `OCC_SHIFT`).
    cover: Vec<u64>,
    /// `[w 0..=7]`: the squares k the piece can attack within w moves.
    checks: [u64; 8],
}

/// Does the bound apply to this board (orthodox pieces, no condition, no castling rights)?
pub fn applicable(board: &Board) -> bool {
    board.circe == crate::board::Circe::Off
        && !board.attack_conditions()
        && !board.has_fairy(Color::White)
        && !board.has_fairy(Color::Black)
        && board.promotion_fairies == 0
        && board.effective_castling() == 0
        // A flight on a hole needs neither a blocker nor a guard.
        && !board.holes.any()
}

/// The cheapest moves of a piece of kind `kind` (walk kind) of colour `c` on `from` to stand on
/// `to`, a pawn possibly promoting; `NEVER` if impossible.
fn cost_to(t: &Tables, c: usize, kind: u8, from: usize, to: usize) -> u8 {
    if kind == walk::PAWN {
        t.pawn_any[(c * 64 + from) * 64 + to]
    } else {
        t.dist[(dist_row(kind) * 64 + from) * 64 + to]
    }
}

fn dist_row(kind: u8) -> usize {
    match kind {
        walk::KNIGHT => T_KNIGHT,
        walk::BISHOP => T_BISHOP,
        walk::ROOK => T_ROOK,
        walk::QUEEN => T_QUEEN,
        _ => T_KING,
    }
}

/// Entries of the per-thread cache of cover sets (a power of two).
const CACHE: usize = 1 << 14;
/// Maximal cover sets kept in a cache entry (more: not cached, computed each time).
const CACHE_SETS: usize = 27;

/// One cache entry: the maximal sets (with K attacked) that the mating pieces `key` cover
/// around K within w moves.
#[derive(Clone, Copy, Debug)]
struct CacheEntry {
    key: u64,
    n: u8,
    sets: [u16; CACHE_SETS],
}

/// Scratch buffers and the cover-set cache of the bound (one per search thread: no allocation
/// per node; sized at the first use, so a search without the intelligent mode pays nothing).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    best: Vec<u8>,
    next: Vec<u8>,
    active: Vec<u32>,
    next_active: Vec<u32>,
    piece_cost: Vec<u8>,
    piece_masks: Vec<u32>,
    /// Mating pieces: (cover type, square).
    pieces: Vec<(u8, u8)>,
    /// Mated side's non-king pieces: (kind, square).
    blockers: Vec<(u8, u8)>,
    /// Maximal cover sets of the K being looked at.
    sets: Vec<u16>,
    cache: Vec<CacheEntry>,
}

impl Scratch {
    /// Sizes the buffers (once).
    fn ready(&mut self) {
        if self.cache.is_empty() {
            self.best = vec![NEVER; STATES];
            self.next = vec![NEVER; STATES];
            self.piece_cost = vec![NEVER; STATES];
            self.cache = vec![CacheEntry { key: 0, n: 0, sets: [0; CACHE_SETS] }; CACHE];
        }
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The maximal sets among K and its flights that the mating pieces (`s.pieces`) can cover,
/// K included, with at most `w` moves in all, into `s.sets` (from the cache when it has them).
fn cover_sets(t: &Tables, s: &mut Scratch, pieces_key: u64, k: usize, w: u8) {
    let key = mix(pieces_key ^ mix((k as u64) << 8 | w as u64)) | 1;
    let slot = key as usize & (CACHE - 1);
    let e = &s.cache[slot];
    s.sets.clear();
    if e.key == key {
        s.sets.extend_from_slice(&e.sets[..e.n as usize]);
        return;
    }
    // Dynamic program over the pieces: best[m] = fewest moves to cover the set m.
    for &m in &s.active {
        s.best[m as usize] = NEVER;
    }
    s.active.clear();
    s.best[0] = 0;
    s.active.push(0);
    for pi in 0..s.pieces.len() {
        let (pk, from) = s.pieces[pi];
        // This piece's cheapest cost per cover mask (Pareto pairs, by increasing cost).
        let bl = block(t, pk as usize, from as usize);
        let (st, len) = bl.index[k];
        s.piece_masks.clear();
        for &e in &bl.cover[st as usize..(st + len) as usize] {
            let cost = (e >> 32) as u8;
            if cost > w {
                break;
            }
            let m = e as u32;
            s.piece_masks.push(m);
            s.piece_cost[m as usize] = cost;
        }
        if s.piece_masks.is_empty() {
            continue;
        }
        // Combine with the sets covered by the pieces before it.
        s.next_active.clear();
        for &m in &s.active {
            s.next[m as usize] = s.best[m as usize];
            s.next_active.push(m);
        }
        for ai in 0..s.active.len() {
            let m0 = s.active[ai];
            let c0 = s.best[m0 as usize];
            for &pm in &s.piece_masks {
                let c = c0 + s.piece_cost[pm as usize];
                if c > w {
                    continue;
                }
                let m = (m0 | pm) as usize;
                if s.next[m] == NEVER {
                    s.next_active.push(m as u32);
                    s.next[m] = c;
                } else if c < s.next[m] {
                    s.next[m] = c;
                }
            }
        }
        for &pm in &s.piece_masks {
            s.piece_cost[pm as usize] = NEVER;
        }
        std::mem::swap(&mut s.best, &mut s.next);
        std::mem::swap(&mut s.active, &mut s.next_active);
        for &m in &s.next_active {
            s.next[m as usize] = NEVER;
        }
    }
    // The maximal sets with K attacked and every flight a mating piece stands on covered (a
    // subset of a coverable set is coverable, and the test in `mate_possible` only gets easier
    // with a larger set).
    for &m in &s.active {
        if m & CHECK_STATE != 0 && occupied(m) & !m == 0 {
            s.sets.push((m & COVER_BITS) as u16);
        }
    }
    s.sets.sort_unstable_by_key(|m| std::cmp::Reverse(m.count_ones()));
    let mut kept = 0;
    for i in 0..s.sets.len() {
        let m = s.sets[i];
        if !s.sets[..kept].iter().any(|&x| x & m == m) {
            s.sets[kept] = m;
            kept += 1;
        }
    }
    s.sets.truncate(kept);
    if kept <= CACHE_SETS {
        let e = &mut s.cache[slot];
        e.key = key;
        e.n = kept as u8;
        e.sets[..kept].copy_from_slice(&s.sets);
    }
}

/// Can distinct pieces of the mated side (`blockers`, colour index `vc`) stand on the `open` flights of
/// a king on `k` within `budget` moves in all? The cheapest assignment of pieces to flights (each piece
/// blocks one flight), by a dynamic program over the subsets of the open flights. The sum of per-flight
/// minima that `mate_possible` tests first may count one piece for two flights.
fn blocks_fit(t: &Tables, vc: usize, blockers: &[(u8, u8)], k: usize, open: u16, budget: i32) -> bool {
    let (kf, kr) = coords(k);
    let mut squares = [0usize; 8];
    let mut n = 0;
    for (i, (df, dr)) in DIRS.iter().enumerate() {
        if open & (1 << i) != 0 {
            squares[n] = ((kr + dr) * 8 + kf + df) as usize;
            n += 1;
        }
    }
    if blockers.len() < n {
        return false;
    }
    let full = (1usize << n) - 1;
    // best[m]: fewest moves for distinct pieces (of those seen so far) to stand on the flights of m.
    let mut best = [u16::MAX; 256];
    best[0] = 0;
    let mut cost = [0u16; 8];
    for &(kind, from) in blockers {
        for (i, &sq) in squares[..n].iter().enumerate() {
            cost[i] = cost_to(t, vc, kind, from as usize, sq) as u16;
        }
        // Larger sets first, so that this piece is counted once per set.
        for m in (0..full).rev() {
            let c0 = best[m];
            if c0 == u16::MAX {
                continue;
            }
            for (i, &c) in cost[..n].iter().enumerate() {
                if m & (1 << i) == 0 && c != NEVER as u16 {
                    let to = m | 1 << i;
                    best[to] = best[to].min(c0 + c);
                }
            }
        }
    }
    (best[full] as i32) <= budget
}

/// Can `mating` (with `w` moves left, its last move included) mate the other king while that
/// side makes at most `b` moves? `false` only when no line can end in mate (see the module
/// comment); call only when [`applicable`].
pub fn mate_possible(board: &Board, mating: Color, w: u32, b: u32, s: &mut Scratch) -> bool {
    let Some(king) = board.king_square(!mating) else { return true };
    let t = tables();
    s.ready();
    let king = king as usize;
    let w = w.min(100) as u8;
    let b = b.min(100) as i32;
    let vc = (!mating).index();
    s.pieces.clear();
    let mut pieces_key = 0x5151_u64;
    for kind in [walk::QUEEN, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::KING, walk::PAWN] {
        let ct = match kind {
            walk::KNIGHT => T_KNIGHT,
            walk::BISHOP => T_BISHOP,
            walk::ROOK => T_ROOK,
            walk::QUEEN => T_QUEEN,
            walk::KING => T_KING,
            _ => 5 + mating.index(),
        };
        for sq in board.kind_bb(mating, kind) {
            s.pieces.push((ct as u8, sq as u8));
            pieces_key = pieces_key.wrapping_add(mix((ct * 64 + sq as usize + 1) as u64));
        }
    }
    s.blockers.clear();
    for kind in [walk::QUEEN, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::PAWN] {
        for sq in board.kind_bb(!mating, kind) {
            s.blockers.push((kind, sq as u8));
        }
    }
    let nblock = s.blockers.len() as u32;
    let (kf0, kr0) = coords(king);
    // Cheapest block of each square near the king (within b + 1) by the mated side.
    // (computed when first needed: `known` has the squares done).
    let mut block_at = [NEVER; 64];
    let mut known = 0u64;
    // The squares where the king can be checked at all within w moves.
    let mut checkable = 0u64;
    if w >= 8 {
        checkable = !0;
    } else {
        for &(pk, from) in &s.pieces {
            checkable |= block(t, pk as usize, from as usize).checks[w as usize];
        }
    }
    for kr in (kr0 - b).max(0)..=(kr0 + b).min(7) {
        for kf in (kf0 - b).max(0)..=(kf0 + b).min(7) {
            let k = (kr * 8 + kf) as usize;
            if checkable & 1 << k == 0 {
                continue;
            }
            let budget = b - king_dist(king, k);
            let flights = t.flights[k];
            // Cheapest block of each flight by the mated side.
            let mut block = [NEVER; 8];
            let mut blockable = 0u16;
            for (i, (df, dr)) in DIRS.iter().enumerate() {
                if flights & (1 << i) == 0 {
                    continue;
                }
                let sq = ((kr + dr) * 8 + kf + df) as usize;
                if known & 1 << sq == 0 {
                    known |= 1 << sq;
                    let mut best = NEVER;
                    for &(kind, from) in &s.blockers {
                        best = best.min(cost_to(t, vc, kind, from as usize, sq));
                    }
                    block_at[sq] = best;
                }
                let best = block_at[sq];
                if best as i32 <= budget {
                    block[i] = best;
                    blockable |= 1 << i;
                }
            }
            // The flights that cannot be blocked must be covered, and K attacked.
            let need = CHECK_BIT | (flights & !blockable);
            cover_sets(t, s, pieces_key, k, w);
            for &m in &s.sets {
                if m & need != need {
                    continue;
                }
                let open = flights & !m;
                if open.count_ones() > nblock {
                    continue;
                }
                let mut sum = 0i32;
                for (i, &c) in block.iter().enumerate() {
                    if open & (1 << i) != 0 {
                        sum += c as i32;
                    }
                }
                if sum <= budget && (open.count_ones() <= 1 || blocks_fit(t, vc, &s.blockers, k, open, budget)) {
                    return true;
                }
            }
        }
    }
    false
}
