//! The intelligent mode's bound for help play ending in mate (h#, ser-h#): can the mating side,
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
//!   not end next to K. The cheapest cover of each set of the nine squares is found by a
//!   dynamic program over the pieces.
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
const T_BPAWN: usize = 6;

/// Piece-kind rows of `dist` (N B R Q K).
const D_KINDS: [usize; 5] = [T_KNIGHT, T_BISHOP, T_ROOK, T_QUEEN, T_KING];

const DIRS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Bit of K itself in a cover mask (bits 0..8: the neighbours in `DIRS` order).
const CHECK_BIT: u16 = 1 << 8;

struct Tables {
    /// `[kind N B R Q K][from][to]`: moves on an empty board.
    dist: Vec<u8>,
    /// `[colour][from][to]`: moves of a pawn that stays a pawn (no promotion).
    pawn: Vec<u8>,
    /// `[colour][from][kind N B R Q][to]`: moves of a pawn to promote and go to `to` as `kind`.
    promo: Vec<u8>,
    /// `[attacker type][t][k]`: the cover mask of an attacker on t for a king on k (empty board).
    mask: Vec<u16>,
    /// `[k]`: the bits of the on-board neighbours of k.
    flights: [u16; 64],
}

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
        _ => df.abs() == 1 && dr == -1,
    }
}

fn tables() -> &'static Tables {
    static T: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut dist = vec![NEVER; 5 * 64 * 64];
        // Knight: breadth-first search.
        for s in 0..64 {
            let row = &mut dist[s * 64..s * 64 + 64];
            row[s] = 0;
            let mut frontier = vec![s];
            let mut d = 0;
            while !frontier.is_empty() {
                d += 1;
                let mut next = Vec::new();
                for &x in &frontier {
                    let (f, r) = coords(x);
                    for (df, dr) in walk::KNIGHT_VECTORS {
                        let (nf, nr) = (f + df as i32, r + dr as i32);
                        if (0..8).contains(&nf) && (0..8).contains(&nr) {
                            let t = (nr * 8 + nf) as usize;
                            if row[t] == NEVER {
                                row[t] = d;
                                next.push(t);
                            }
                        }
                    }
                }
                frontier = next;
            }
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
        Tables { dist, pawn, promo, mask, flights }
    })
}

/// Scratch buffers of the bound (one per search thread: no allocation per node).
#[derive(Clone, Debug)]
pub struct Scratch {
    best: Vec<u8>,
    next: Vec<u8>,
    active: Vec<u16>,
    next_active: Vec<u16>,
    /// Per piece: the cheapest cost per mask, and the masks set.
    piece_cost: Vec<u8>,
    piece_masks: Vec<u16>,
    /// Mating pieces: (attacker type or pawn marker, square).
    pieces: Vec<(u8, u8)>,
    /// Mated side's non-king pieces: (kind, square).
    blockers: Vec<(u8, u8)>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            best: vec![NEVER; 512],
            next: vec![NEVER; 512],
            active: Vec::with_capacity(512),
            next_active: Vec::with_capacity(512),
            piece_cost: vec![NEVER; 512],
            piece_masks: Vec::with_capacity(512),
            pieces: Vec::with_capacity(32),
            blockers: Vec::with_capacity(32),
        }
    }
}

/// Does the bound apply to this board (orthodox pieces, no condition, no castling rights)?
pub fn applicable(board: &Board) -> bool {
    board.circe == crate::board::Circe::Off
        && !board.attack_conditions()
        && !board.has_fairy(Color::White)
        && !board.has_fairy(Color::Black)
        && board.promotion_fairies == 0
        && board.castling == 0
}

/// Pawn marker in `Scratch::pieces` (the colour is the mating side's).
const P_PAWN: u8 = 7;

/// The cheapest moves of a piece of kind `kind` (walk kind) of colour `c` on `from` to stand on
/// `to`, a pawn possibly promoting; `NEVER` if impossible.
fn cost_to(t: &Tables, c: usize, kind: u8, from: usize, to: usize) -> u8 {
    if kind == walk::PAWN {
        let mut best = t.pawn[(c * 64 + from) * 64 + to];
        for ki in 0..4 {
            best = best.min(t.promo[((c * 64 + from) * 4 + ki) * 64 + to]);
        }
        best
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

/// Can `mating` (with `w` moves left, its last move included) mate the other king while that
/// side makes at most `b` moves? `false` only when no line can end in mate (see the module
/// comment); call only when [`applicable`].
pub fn mate_possible(board: &Board, mating: Color, w: u32, b: u32, s: &mut Scratch) -> bool {
    let Some(king) = board.king_square(!mating) else { return true };
    let t = tables();
    let king = king as usize;
    let w = w.min(100) as u8;
    let b = b.min(100) as i32;
    let mc = mating.index();
    let vc = (!mating).index();
    s.pieces.clear();
    for kind in [walk::QUEEN, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::KING, walk::PAWN] {
        for sq in board.kind_bb(mating, kind) {
            s.pieces.push((if kind == walk::PAWN { P_PAWN } else { kind }, sq as u8));
        }
    }
    s.blockers.clear();
    for kind in [walk::QUEEN, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::PAWN] {
        for sq in board.kind_bb(!mating, kind) {
            s.blockers.push((kind, sq as u8));
        }
    }
    let nblock = s.blockers.len() as u32;
    let pawn_type = if mating == Color::White { T_WPAWN } else { T_BPAWN };
    for k in 0..64usize {
        let dk = king_dist(king, k);
        if dk > b {
            continue;
        }
        let budget = b - dk;
        let flights = t.flights[k];
        // Cheapest block of each flight by the mated side.
        let mut block = [NEVER; 8];
        for (i, (df, dr)) in DIRS.iter().enumerate() {
            if flights & (1 << i) == 0 {
                continue;
            }
            let (kf, kr) = coords(k);
            let f = ((kr + dr) * 8 + kf + df) as usize;
            let mut best = NEVER;
            for &(kind, from) in &s.blockers {
                best = best.min(cost_to(t, vc, kind, from as usize, f));
                if best == 0 {
                    break;
                }
            }
            if best as i32 <= budget {
                block[i] = best;
            }
        }
        // The flights that can be blocked at all: the mating side must cover the others.
        let mut blockable = 0u16;
        for (i, &c) in block.iter().enumerate() {
            if c != NEVER {
                blockable |= 1 << i;
            }
        }
        let need = CHECK_BIT | (flights & !blockable);
        // Dynamic program: best[m] = fewest moves of the mating side to cover the set m.
        for &m in &s.active {
            s.best[m as usize] = NEVER;
        }
        s.active.clear();
        s.best[0] = 0;
        s.active.push(0);
        let relevant = CHECK_BIT | flights;
        for pi in 0..s.pieces.len() {
            let (pk, from) = s.pieces[pi];
            let from = from as usize;
            // This piece's cheapest cost per cover mask.
            s.piece_masks.clear();
            for to in 0..64usize {
                if to == k {
                    continue;
                }
                let (typ, cost) = if pk == P_PAWN {
                    (pawn_type, t.pawn[(mc * 64 + from) * 64 + to])
                } else if pk == walk::KING {
                    if king_dist(to, k) <= 1 {
                        continue;
                    }
                    (T_KING, t.dist[(T_KING * 64 + from) * 64 + to])
                } else {
                    let r = dist_row(pk);
                    (r, t.dist[(r * 64 + from) * 64 + to])
                };
                if cost <= w {
                    let m = t.mask[(typ * 64 + to) * 64 + k] & relevant;
                    if m != 0 {
                        note(s, m, cost);
                    }
                }
                if pk == P_PAWN {
                    for (ki, &typ) in D_KINDS.iter().take(4).enumerate() {
                        let cost = t.promo[((mc * 64 + from) * 4 + ki) * 64 + to];
                        if cost <= w {
                            let m = t.mask[(typ * 64 + to) * 64 + k] & relevant;
                            if m != 0 {
                                note(s, m, cost);
                            }
                        }
                    }
                }
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
                        s.next_active.push(m as u16);
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
        // Some covered set with K attacked whose uncovered flights the mated side can block.
        let mut ok = false;
        for &m in &s.active {
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
            if sum <= budget {
                ok = true;
                break;
            }
        }
        if ok {
            return true;
        }
    }
    false
}

#[inline]
fn note(s: &mut Scratch, m: u16, cost: u8) {
    let c = &mut s.piece_cost[m as usize];
    if *c == NEVER {
        s.piece_masks.push(m);
        *c = cost;
    } else if cost < *c {
        *c = cost;
    }
}
