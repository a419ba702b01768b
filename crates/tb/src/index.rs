//! Symmetry and the generation index.
//!
//! Pieces are kept in *table order*: white king, black king, then White's other pieces (Q, R, B, N, P), then
//! Black's. A position of an ending is a square per piece plus the side to move.
//!
//! * Without pawns the board has 8 symmetries. The canonical orientation puts the white king in the triangle
//!   a1-d1-d4; if the white king is on the diagonal a1-d4 the black king must be on or below the diagonal
//!   a1-h8 (file >= rank). That leaves the 462 king pairs ([`KK_COUNT`]). If both kings are on the diagonal
//!   the reflection in it keeps them in place, and of the two orientations the one with the smaller index is
//!   canonical.
//! * With pawns only the left-right mirror is a symmetry: the white king is put on files a-d.
//! * Identical pieces (same color and role) are stored with ascending squares, so each set of squares is
//!   indexed once.
//!
//! The generation index is a mixed-radix number: without pawns `kk * 64^(n-2) + sum(sq_i * 64^...)`, with
//! pawns `((pawns * 32 + wk) * 64 + bk) * 64^m + others` where `pawns` is the number whose base-48 digits
//! are the pawn squares minus 8 (most significant first: a position's pawn configuration is a contiguous
//! range, a *slice*). It is fast to compute and has holes (overlapping pieces, non-canonical orderings,
//! illegal positions) which the generator marks as invalid. Castling and en passant are not represented:
//! the tables hold positions without castling rights and without an en passant square.

use std::sync::OnceLock;

use mysl_core::{attacks, Bitboard, Color, Role, Square};

use crate::material::Material;

/// Number of canonical king pairs without pawns.
pub const KK_COUNT: usize = 462;

/// One of the 8 board symmetries: bit 0 mirrors files, bit 1 mirrors ranks, bit 2 then swaps file and rank.
#[inline(always)]
pub fn transform(sq: u8, t: u8) -> u8 {
    TRANSFORM[t as usize & 7][sq as usize & 63]
}

static TRANSFORM: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut k = 0;
    while k < 8 {
        let mut sq = 0;
        while sq < 64 {
            t[k][sq] = transform_slow(sq as u8, k as u8);
            sq += 1;
        }
        k += 1;
    }
    t
};

const fn transform_slow(sq: u8, t: u8) -> u8 {
    let (mut f, mut r) = (sq & 7, sq >> 3);
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        let x = f;
        f = r;
        r = x;
    }
    r * 8 + f
}

#[inline(always)]
fn file(sq: u8) -> u8 {
    sq & 7
}
#[inline(always)]
fn rank(sq: u8) -> u8 {
    sq >> 3
}
#[inline(always)]
fn on_diag(sq: u8) -> bool {
    file(sq) == rank(sq)
}
fn in_triangle(sq: u8) -> bool {
    file(sq) <= 3 && rank(sq) <= file(sq)
}
fn kings_touch(a: u8, b: u8) -> bool {
    (file(a) as i32 - file(b) as i32).abs() <= 1 && (rank(a) as i32 - rank(b) as i32).abs() <= 1
}

struct KkTables {
    /// canonical pair -> index, or u16::MAX
    index: Vec<u16>,
    /// index -> (wk, bk)
    pairs: Vec<(u8, u8)>,
    /// raw (wk, bk) -> transform to apply, bit 7 set when the diagonal reflection gives a second candidate
    transform: Vec<u8>,
}

fn kk_tables() -> &'static KkTables {
    static T: OnceLock<KkTables> = OnceLock::new();
    T.get_or_init(|| {
        let mut index = vec![u16::MAX; 64 * 64];
        let mut pairs = Vec::new();
        for wk in 0..64u8 {
            if !in_triangle(wk) {
                continue;
            }
            for bk in 0..64u8 {
                if bk == wk || kings_touch(wk, bk) {
                    continue;
                }
                if on_diag(wk) && rank(bk) > file(bk) {
                    continue;
                }
                index[wk as usize * 64 + bk as usize] = pairs.len() as u16;
                pairs.push((wk, bk));
            }
        }
        let mut transform = vec![0u8; 64 * 64];
        for wk in 0..64u8 {
            for bk in 0..64u8 {
                for t in 0..8u8 {
                    let (w, b) = (transform_sq(wk, t), transform_sq(bk, t));
                    if in_triangle(w) && (!on_diag(w) || rank(b) <= file(b)) {
                        let amb = on_diag(w) && on_diag(b);
                        transform[wk as usize * 64 + bk as usize] = t | if amb { 0x80 } else { 0 };
                        break;
                    }
                }
            }
        }
        KkTables { index, pairs, transform }
    })
}

fn transform_sq(sq: u8, t: u8) -> u8 {
    transform(sq, t)
}

/// The index layout of one ending.
#[derive(Clone, Debug)]
pub struct Layout {
    pub material: Material,
    /// Pieces in table order.
    pub pieces: Vec<(Color, Role)>,
    pub pawns: bool,
    /// Piece numbers of the pawns (table order), then of the other non-king pieces.
    pawn_ids: Vec<usize>,
    other_ids: Vec<usize>,
    /// Ranges of identical pieces (length >= 2).
    groups: Vec<(usize, usize)>,
    /// Positions per side to move.
    pub size: u64,
    /// Positions per pawn slice (`size` without pawns).
    pub slice_size: u64,
    /// Per piece: the weight of its digit in the index when a move of that piece changes only that digit
    /// (a non-king piece outside any group of identical pieces), else 0.
    fast_mult: [u64; 8],
    /// The digits of the storage index after the king pair (without pawns) or from the first pawn on.
    units: Vec<Unit>,
    /// Positions per side to move in the storage index.
    pub storage_size: u64,
}

/// One digit of the storage index: a piece, or a group of identical pieces, on the free squares of its
/// domain (the squares of the domain no earlier piece stands on), ranked combinatorially.
#[derive(Clone, Debug)]
struct Unit {
    /// Piece numbers `first..first + k` (table order).
    first: usize,
    k: usize,
    domain: u64,
    /// Whether the squares of earlier pieces are taken out of the domain (all but the white king of an
    /// ending with pawns: its 32 squares are counted whole, and a pawn on its square is a hole).
    subtract: bool,
    /// Squares to choose from.
    n: u32,
    /// `C(n, k)`.
    radix: u64,
    /// Storage positions per value of this digit (the product of the later radices).
    below: u64,
    /// The generation index's base for each piece of the unit (48 pawns, 32 the white king with pawns, 64).
    base: u64,
}

/// Binomial coefficients `C(n, k)` for `n <= 64`, `k <= 7`.
static BINOM: [[u64; 8]; 65] = {
    let mut t = [[0u64; 8]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 8 {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

const PAWN_SQUARES: u64 = 0x00ff_ffff_ffff_ff00;
const QUEENSIDE: u64 = 0x0f0f_0f0f_0f0f_0f0f;

impl Layout {
    pub fn new(material: Material) -> Layout {
        let pieces = material.pieces();
        let pawns = material.has_pawns();
        let pawn_ids: Vec<usize> = (2..pieces.len()).filter(|&i| pieces[i].1 == Role::Pawn).collect();
        let other_ids: Vec<usize> = (2..pieces.len()).filter(|&i| pieces[i].1 != Role::Pawn).collect();
        let mut groups = Vec::new();
        let mut i = 2;
        while i < pieces.len() {
            let mut j = i + 1;
            while j < pieces.len() && pieces[j] == pieces[i] {
                j += 1;
            }
            if j - i >= 2 {
                groups.push((i, j));
            }
            i = j;
        }
        let m = other_ids.len() as u32;
        let (size, slice_size) = if pawns {
            let slice = 32 * 64 * 64u64.pow(m);
            (slice * 48u64.pow(pawn_ids.len() as u32), slice)
        } else {
            let s = KK_COUNT as u64 * 64u64.pow(m);
            (s, s)
        };
        let mut fast_mult = [0u64; 8];
        for (k, &o) in other_ids.iter().enumerate() {
            if !groups.iter().any(|&(a, b)| (a..b).contains(&o)) {
                fast_mult[o] = 64u64.pow((other_ids.len() - 1 - k) as u32);
            }
        }
        let mut layout = Layout {
            material,
            pieces,
            pawns,
            pawn_ids,
            other_ids,
            groups,
            size,
            slice_size,
            fast_mult,
            units: Vec::new(),
            storage_size: 0,
        };
        layout.storage_units();
        layout
    }

    /// The digits of the storage index: with pawns the pawns (on their 48 squares), the white king (files
    /// a-d), the black king, the other pieces; without pawns the king pair (462) and the other pieces. Each
    /// digit ranks a piece or a group of identical pieces among the squares still free, so no two pieces
    /// share a square and identical pieces count once (`C(n, k)`).
    fn storage_units(&mut self) {
        let mut ids: Vec<(usize, u64, bool, u64)> = Vec::new();
        if self.pawns {
            ids.extend(self.pawn_ids.iter().map(|&p| (p, PAWN_SQUARES, true, 48)));
            ids.push((0, QUEENSIDE, false, 32));
            ids.push((1, !0, true, 64));
        }
        ids.extend(self.other_ids.iter().map(|&o| (o, !0u64, true, 64)));
        let mut units: Vec<Unit> = Vec::new();
        // pieces placed before each unit, and of them those inside a pawn's domain
        let mut placed = if self.pawns { 0u32 } else { 2 };
        let mut placed_pawns = 0u32;
        let mut i = 0;
        while i < ids.len() {
            let (first, domain, subtract, base) = ids[i];
            let mut k = 1;
            while i + k < ids.len() && ids[i + k].0 == first + k && self.pieces[first + k] == self.pieces[first] {
                k += 1;
            }
            let n = if !subtract {
                domain.count_ones()
            } else if domain == PAWN_SQUARES {
                48 - placed_pawns
            } else {
                64 - placed
            };
            units.push(Unit { first, k, domain, subtract, n, radix: BINOM[n as usize][k], below: 0, base });
            placed += k as u32;
            if domain == PAWN_SQUARES {
                placed_pawns += k as u32;
            }
            i += k;
        }
        let mut below = 1u64;
        for u in units.iter_mut().rev() {
            u.below = below;
            below *= u.radix;
        }
        self.storage_size = if self.pawns { below } else { KK_COUNT as u64 * below };
        self.units = units;
    }

    /// Storage index of squares in canonical orientation and order (as [`Layout::encode`] takes them).
    fn storage_encode(&self, sq: &[u8]) -> Option<u64> {
        let (mut s, mut occ) = if self.pawns {
            (0u64, 0u64)
        } else {
            let kk = kk_tables().index[sq[0] as usize * 64 + sq[1] as usize];
            if kk == u16::MAX {
                return None;
            }
            (kk as u64, (1u64 << sq[0]) | (1u64 << sq[1]))
        };
        for u in &self.units {
            let free = if u.subtract { u.domain & !occ } else { u.domain };
            // lexicographic rank of the combination c_0 < c_1 < ... (ranks among the free squares)
            let mut acc = 0u64;
            for i in 0..u.k {
                let q = sq[u.first + i];
                if free & (1u64 << q) == 0 {
                    return None;
                }
                let c = (free & ((1u64 << q) - 1)).count_ones();
                acc += BINOM[(u.n - 1 - c) as usize][u.k - i];
            }
            s = s * u.radix + (u.radix - 1 - acc);
            for i in 0..u.k {
                occ |= 1u64 << sq[u.first + i];
            }
        }
        Some(s)
    }

    /// The storage index of a position given by its squares in table order (any orientation): the index
    /// of the table files. Every position has one (the canonical orientation of [`Layout::index`]);
    /// `None` for impossible placements.
    #[inline]
    pub fn storage_index(&self, squares: &[u8]) -> Option<u64> {
        let mut sq = [0u8; 8];
        self.canonical(squares, &mut sq)?;
        self.storage_encode(&sq[..self.pieces.len()])
    }

    /// Calls `f` for every storage index in order with the generation index of its position, or `None`
    /// where the storage index is a hole (the white king on a pawn's square; the second image of a position
    /// with both kings on the a1-h8 diagonal). The generation indices rise along the walk.
    pub fn storage_walk(&self, f: &mut dyn FnMut(Option<u64>)) {
        let mut sq = [0u8; 8];
        if self.pawns {
            self.walk_units(0, 0, 0, 0, &mut sq, false, f);
        } else {
            for (kk, &(wk, bk)) in kk_tables().pairs.iter().enumerate() {
                sq[0] = wk;
                sq[1] = bk;
                let twin_images = on_diag(wk) && on_diag(bk);
                self.walk_units(0, 0, (1u64 << wk) | (1u64 << bk), kk as u64, &mut sq, twin_images, f);
            }
        }
    }

    /// Places piece `j` of unit `u` (squares above `from` for a later piece of a group), then the rest.
    #[allow(clippy::too_many_arguments)]
    fn walk_units(
        &self,
        u: usize,
        j: usize,
        occ: u64,
        g: u64,
        sq: &mut [u8; 8],
        twin_images: bool,
        f: &mut dyn FnMut(Option<u64>),
    ) {
        let Some(unit) = self.units.get(u) else {
            let n = self.pieces.len();
            if twin_images && self.index(&sq[..n]) != Some(g) {
                f(None);
            } else {
                f(Some(g));
            }
            return;
        };
        if j == unit.k {
            return self.walk_units(u + 1, 0, occ, g, sq, twin_images, f);
        }
        let mut free = if unit.subtract { unit.domain & !occ } else { unit.domain };
        if j > 0 {
            let prev = sq[unit.first + j - 1];
            free &= (u64::MAX << prev) << 1;
        }
        while free != 0 {
            let s = free.trailing_zeros() as u8;
            free &= free - 1;
            if occ & (1u64 << s) != 0 {
                // the white king on a pawn (k = 1): a hole for every position below
                for _ in 0..unit.below {
                    f(None);
                }
                continue;
            }
            sq[unit.first + j] = s;
            let digit = match unit.base {
                48 => s as u64 - 8,
                32 => (rank(s) * 4 + file(s)) as u64,
                _ => s as u64,
            };
            self.walk_units(u, j + 1, occ | (1u64 << s), g * unit.base + digit, sq, twin_images, f);
        }
    }

    /// Calls `f` with the index of the position after every non-capturing move of a piece of `color` other
    /// than a pawn, legal or not (`None` for an impossible placement such as touching kings without
    /// pawns); stops and returns false when `f` does. `sq` are the squares of index `idx` as [`Layout::decode`]
    /// gives them. The same squares serve as un-moves (retro moves) of `color`: the attack sets of kings,
    /// knights and sliders are symmetric. A move of a piece that is not a king and has no identical twin
    /// changes only its own digit of the index (the orientation is fixed by the kings, except when both
    /// kings stand on the a1-h8 diagonal without pawns), so most indices cost one multiply-add.
    #[inline]
    pub fn for_each_piece_move(
        &self,
        sq: &[u8],
        idx: u64,
        color: Color,
        mut f: impl FnMut(Option<u64>) -> bool,
    ) -> bool {
        let n = self.pieces.len();
        let mut occ = 0u64;
        for &s in &sq[..n] {
            occ |= 1u64 << s;
        }
        let diag = !self.pawns && on_diag(sq[0]) && on_diag(sq[1]);
        for i in 0..n {
            let (c, role) = self.pieces[i];
            if c != color || role == Role::Pawn {
                continue;
            }
            let from = sq[i];
            let mut targets = attacks::attacks(c, role, Square::from_index(from as u32), Bitboard(occ)).0 & !occ;
            let mult = self.fast_mult[i];
            if role == Role::King {
                // a king move changes the king digit(s) only while the orientation stays the same
                let m64 = 64u64.pow(self.other_ids.len() as u32);
                let mut s2 = [0u8; 8];
                s2[..n].copy_from_slice(&sq[..n]);
                let kk = kk_tables();
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    let fast = if self.pawns {
                        if i == 1 {
                            Some(idx - from as u64 * m64 + to as u64 * m64)
                        } else if file(to) < 4 {
                            let w = |s: u8| (rank(s) * 4 + file(s)) as u64;
                            Some(idx - w(from) * 64 * m64 + w(to) * 64 * m64)
                        } else {
                            None
                        }
                    } else {
                        let key =
                            if i == 0 { to as usize * 64 + sq[1] as usize } else { sq[0] as usize * 64 + to as usize };
                        if kk.transform[key] == 0 {
                            let k = kk.index[key];
                            Some(if k == u16::MAX { u64::MAX } else { k as u64 * m64 + idx % m64 })
                        } else {
                            None
                        }
                    };
                    let r = match fast {
                        Some(u64::MAX) => None,
                        Some(x) => Some(x),
                        None => {
                            s2[i] = to;
                            self.index(&s2[..n])
                        }
                    };
                    if !f(r) {
                        return false;
                    }
                }
            } else if mult != 0 && !diag {
                let base = idx - from as u64 * mult;
                while targets != 0 {
                    let to = targets.trailing_zeros() as u64;
                    targets &= targets - 1;
                    if !f(Some(base + to * mult)) {
                        return false;
                    }
                }
            } else {
                let mut s2 = [0u8; 8];
                s2[..n].copy_from_slice(&sq[..n]);
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    s2[i] = to;
                    if !f(self.index(&s2[..n])) {
                        return false;
                    }
                }
            }
        }
        true
    }

    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Number of pawn slices (1 without pawns).
    pub fn slices(&self) -> u64 {
        self.size / self.slice_size
    }

    fn sort_groups(&self, sq: &mut [u8]) {
        for &(a, b) in &self.groups {
            sq[a..b].sort_unstable();
        }
    }

    /// Index of squares already in canonical orientation and order.
    #[inline]
    fn encode(&self, sq: &[u8]) -> Option<u64> {
        if self.pawns {
            let mut idx = 0u64;
            for &p in &self.pawn_ids {
                let s = sq[p];
                if !(8..56).contains(&s) {
                    return None;
                }
                idx = idx * 48 + (s - 8) as u64;
            }
            let wk = sq[0];
            idx = idx * 32 + (rank(wk) * 4 + file(wk)) as u64;
            idx = idx * 64 + sq[1] as u64;
            for &o in &self.other_ids {
                idx = idx * 64 + sq[o] as u64;
            }
            Some(idx)
        } else {
            let kk = kk_tables().index[sq[0] as usize * 64 + sq[1] as usize];
            if kk == u16::MAX {
                return None;
            }
            let mut idx = kk as u64;
            for &o in &self.other_ids {
                idx = idx * 64 + sq[o] as u64;
            }
            Some(idx)
        }
    }

    /// The canonical index of a position given by its squares in table order (any orientation).
    /// `None` for impossible placements (touching kings, a pawn on the first or last rank).
    #[inline]
    pub fn index(&self, squares: &[u8]) -> Option<u64> {
        let mut sq = [0u8; 8];
        self.canonical(squares, &mut sq)
    }

    /// The canonical index of a position (as [`Layout::index`]), leaving its squares in the canonical
    /// orientation and order in `sq`.
    #[inline]
    fn canonical(&self, squares: &[u8], sq: &mut [u8; 8]) -> Option<u64> {
        let n = self.pieces.len();
        if self.pawns {
            let t = if file(squares[0]) >= 4 { 1 } else { 0 };
            for i in 0..n {
                sq[i] = transform(squares[i], t);
            }
            self.sort_groups(&mut sq[..n]);
            self.encode(&sq[..n])
        } else {
            let tt = kk_tables().transform[squares[0] as usize * 64 + squares[1] as usize];
            let t = tt & 7;
            for i in 0..n {
                sq[i] = transform(squares[i], t);
            }
            self.sort_groups(&mut sq[..n]);
            let a = self.encode(&sq[..n])?;
            if tt & 0x80 != 0 {
                let mut other = *sq;
                for s in other[..n].iter_mut() {
                    *s = transform(*s, 4);
                }
                self.sort_groups(&mut other[..n]);
                let b = self.encode(&other[..n])?;
                if b < a {
                    *sq = other;
                }
                Some(a.min(b))
            } else {
                Some(a)
            }
        }
    }

    /// Squares (table order) of an index, without any check of canonicity or legality.
    /// `None` when two pieces share a square.
    pub fn decode(&self, idx: u64, out: &mut [u8]) -> Option<()> {
        let mut rest = idx;
        for &o in self.other_ids.iter().rev() {
            out[o] = (rest % 64) as u8;
            rest /= 64;
        }
        if self.pawns {
            out[1] = (rest % 64) as u8;
            rest /= 64;
            let wk = (rest % 32) as u8;
            rest /= 32;
            out[0] = (wk / 4) * 8 + wk % 4;
            for &p in self.pawn_ids.iter().rev() {
                out[p] = (rest % 48) as u8 + 8;
                rest /= 48;
            }
        } else {
            let (wk, bk) = kk_tables().pairs[rest as usize];
            out[0] = wk;
            out[1] = bk;
        }
        let mut occ = 0u64;
        for &s in &out[..self.pieces.len()] {
            if occ & (1 << s) != 0 {
                return None;
            }
            occ |= 1 << s;
        }
        Some(())
    }

    /// The pawn slices that the pawn moves of slice `slice` lead to without a capture or promotion (one or two
    /// squares forward; the kings do not move, so the orientation stays), sorted and without repeats.
    pub fn push_targets(&self, slice: u64) -> Vec<u64> {
        if !self.pawns {
            return Vec::new();
        }
        let n = self.pieces.len();
        let mut sq = [0u8; 8];
        let mut rest = slice;
        for &p in self.pawn_ids.iter().rev() {
            sq[p] = (rest % 48) as u8 + 8;
            rest /= 48;
        }
        let occ: u64 = self.pawn_ids.iter().map(|&p| 1u64 << sq[p]).sum();
        let mut out = Vec::new();
        for &p in &self.pawn_ids {
            let (step, start) = if self.pieces[p].0 == Color::White { (8i32, 1) } else { (-8, 6) };
            let mut to = sq[p] as i32;
            for k in 0..2 {
                to += step;
                if !(8..56).contains(&to) || occ & (1u64 << to) != 0 || (k == 1 && rank(sq[p]) != start) {
                    break;
                }
                let mut s2 = sq;
                s2[p] = to as u8;
                self.sort_groups(&mut s2[..n]);
                out.push(self.pawn_ids.iter().fold(0u64, |acc, &q| acc * 48 + (s2[q] - 8) as u64));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Score of a pawn slice: how far the pawns have advanced (each pawn move raises it).
    pub fn slice_advance(&self, slice: u64) -> u32 {
        let mut rest = slice;
        let mut score = 0;
        for &p in self.pawn_ids.iter().rev() {
            let s = (rest % 48) as u8 + 8;
            rest /= 48;
            score += match self.pieces[p].0 {
                Color::White => rank(s) as u32,
                Color::Black => 7 - rank(s) as u32,
            };
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kk_count_is_462() {
        assert_eq!(kk_tables().pairs.len(), KK_COUNT);
    }

    #[test]
    fn fast_moves_equal_generic_index() {
        for name in ["KQvKR", "KRRvK", "KRPvK", "KBNvK", "KRvKP"] {
            let l = Layout::new(Material::parse(name).expect("test value"));
            let n = l.len();
            let mut sq = [0u8; 8];
            let mut checked = 0u64;
            for idx in (0..l.size).step_by(31) {
                if l.decode(idx, &mut sq).is_none() || l.index(&sq[..n]) != Some(idx) {
                    continue;
                }
                for color in Color::ALL {
                    let mut fast = Vec::new();
                    l.for_each_piece_move(&sq[..n], idx, color, |c| {
                        fast.push(c);
                        true
                    });
                    let mut slow = Vec::new();
                    let occ: u64 = sq[..n].iter().map(|&s| 1u64 << s).sum();
                    for i in 0..n {
                        let (c, r) = l.pieces[i];
                        if c != color || r == Role::Pawn {
                            continue;
                        }
                        let t = attacks::attacks(c, r, Square::from_index(sq[i] as u32), Bitboard(occ)).0 & !occ;
                        for to in Bitboard(t).iter() {
                            let mut s2 = sq;
                            s2[i] = to as u8;
                            slow.push(l.index(&s2[..n]));
                        }
                    }
                    assert_eq!(fast, slow, "{name} idx {idx}");
                    checked += 1;
                }
            }
            assert!(checked > 100);
        }
    }

    #[test]
    fn index_roundtrip_and_symmetry() {
        for name in ["KQvKR", "KRRvK", "KPvKP", "KBNvK"] {
            let l = Layout::new(Material::parse(name).expect("test value"));
            let mut sq = [0u8; 5];
            let mut valid = 0u64;
            for idx in (0..l.size).step_by(97) {
                if l.decode(idx, &mut sq).is_none() {
                    continue;
                }
                let Some(back) = l.index(&sq[..l.len()]) else { continue };
                if back != idx {
                    continue;
                }
                valid += 1;
                // every symmetric image has the same index
                let ts: &[u8] = if l.pawns { &[0, 1] } else { &[0, 1, 2, 3, 4, 5, 6, 7] };
                for &t in ts {
                    let img: Vec<u8> = sq[..l.len()].iter().map(|&s| transform(s, t)).collect();
                    assert_eq!(l.index(&img), Some(idx), "{name} idx {idx} t {t}");
                }
            }
            assert!(valid > 0);
        }
    }
}

#[cfg(test)]
mod storage_tests {
    use super::*;

    /// The storage walk visits `storage_size` entries; each entry that is not a hole holds a valid canonical
    /// generation index whose position gives back that storage index (from any symmetric image); every
    /// valid canonical generation index is visited exactly once, in rising order.
    #[test]
    fn storage_index_is_a_bijection_onto_the_canonical_positions() {
        for name in ["KQvK", "KRRvK", "KPvK", "KPvKP", "KPPvK", "KBNvK", "KQvKR", "KNNNvK", "KRPvK"] {
            let l = Layout::new(Material::parse(name).expect("test value"));
            let n = l.len();
            let mut s = 0u64;
            let mut last: Option<u64> = None;
            let mut seen = 0u64;
            let mut sq = [0u8; 8];
            let ts: &[u8] = if l.pawns { &[0, 1] } else { &[0, 1, 2, 3, 4, 5, 6, 7] };
            l.storage_walk(&mut |g| {
                if let Some(g) = g {
                    assert!(last.is_none_or(|p| g > p), "{name}: generation indices must rise");
                    last = Some(g);
                    l.decode(g, &mut sq).expect("decodes");
                    assert_eq!(l.index(&sq[..n]), Some(g), "{name}: canonical");
                    if s.is_multiple_of(7) {
                        for &t in ts {
                            let img: Vec<u8> = sq[..n].iter().map(|&q| transform(q, t)).collect();
                            assert_eq!(l.storage_index(&img), Some(s), "{name} {s} image {t}");
                        }
                    }
                    seen += 1;
                }
                s += 1;
            });
            assert_eq!(s, l.storage_size, "{name}: walk length");
            let canonical =
                (0..l.size).filter(|&i| l.decode(i, &mut sq).is_some() && l.index(&sq[..n]) == Some(i)).count() as u64;
            assert_eq!(seen, canonical, "{name}: every canonical position once");
            assert!(l.storage_size < l.size, "{name}: smaller than the generation index");
        }
    }
}
