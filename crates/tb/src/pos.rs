//! A small position type for the generator and prober: up to 5 pieces, no castling, no en passant.

use mysl_core::attacks;
use mysl_core::{Bitboard, Color, Role, Square};

use crate::material::{Material, ROLE_ORDER};
use crate::value;

/// Pieces (color, role, square) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbPos {
    pub n: usize,
    pub color: [Color; 8],
    pub role: [Role; 8],
    pub sq: [u8; 8],
    pub stm: Color,
}

/// A move of a [`TbPos`]: piece number, destination, captured piece number, promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbMove {
    pub piece: u8,
    pub from: u8,
    pub to: u8,
    pub capture: Option<u8>,
    pub promo: Option<Role>,
}

impl TbMove {
    /// Captures and pawn moves reset the 50-move counter.
    pub fn is_zeroing(&self, pos: &TbPos) -> bool {
        self.capture.is_some() || pos.role[self.piece as usize] == Role::Pawn
    }

    pub fn uci(&self) -> String {
        let mut s = format!("{}{}", sq_name(self.from), sq_name(self.to));
        if let Some(p) = self.promo {
            s.push(p.char());
        }
        s
    }
}

/// Whether zeroing move `m` of `p` may decide a DTZ entry: not a double pawn step, whose value depends on
/// an en passant capture the tables do not store.
pub(crate) fn zeroing_may_decide(p: &TbPos, m: &TbMove) -> bool {
    !(p.role[m.piece as usize] == Role::Pawn && (m.to as i32 - m.from as i32).abs() == 16)
}

/// The DTZ-scale value of `p` (not drawn) from a 1-ply search, as a table that stores only the other side's
/// DTZ needs it: the best (by [`value::rank`]) over the legal moves of what each gives the mover: a zeroing
/// move [`value::zeroing_exit`] of the WDL of the position it leads to (`wdl_after`, the 50-move counter
/// reset), another move [`value::parent_of`] the DTZ of the position it leads to (`dtz_after`: the same
/// ending, the other side to move). `None` when a move is a double pawn step after which an en passant
/// capture is legal (that position's value depends on the right, which the tables do not hold: such
/// positions keep their stored DTZ).
pub(crate) fn searched_dtz<E>(
    p: &TbPos,
    moves: &mut Moves,
    mut wdl_after: impl FnMut(&TbPos) -> Result<i8, E>,
    mut dtz_after: impl FnMut(&TbPos) -> Result<i16, E>,
) -> Result<Option<i16>, E> {
    p.legal_moves(moves);
    let mut best: Option<i16> = None;
    for m in moves.as_slice() {
        let c = p.play(m);
        let v = if m.is_zeroing(p) {
            if !zeroing_may_decide(p, m) && !c.en_passant_children(m.to).is_empty() {
                return Ok(None);
            }
            value::zeroing_exit(value::dtz_of_wdl(wdl_after(&c)?))
        } else {
            value::parent_of(dtz_after(&c)?)
        };
        if best.is_none_or(|b| value::rank(v) > value::rank(b)) {
            best = Some(v);
        }
    }
    Ok(Some(best.unwrap_or(if p.in_check() { -1 } else { 0 })))
}

pub fn sq_name(sq: u8) -> String {
    format!("{}{}", (b'a' + (sq & 7)) as char, (b'1' + (sq >> 3)) as char)
}

/// Fixed-capacity move list (no allocation in the generator's loops).
#[derive(Debug)]
pub struct Moves {
    len: usize,
    buf: [TbMove; 192],
}

impl Default for Moves {
    fn default() -> Self {
        Moves { len: 0, buf: [TbMove { piece: 0, from: 0, to: 0, capture: None, promo: None }; 192] }
    }
}

impl Moves {
    pub fn as_slice(&self) -> &[TbMove] {
        &self.buf[..self.len]
    }
    fn push(&mut self, m: TbMove) {
        self.buf[self.len] = m;
        self.len += 1;
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

#[inline(always)]
fn sqr(s: u8) -> Square {
    Square::from_index(s as u32)
}

impl TbPos {
    pub fn new(pieces: &[(Color, Role)], squares: &[u8], stm: Color) -> TbPos {
        let mut p = TbPos { n: pieces.len(), color: [Color::White; 8], role: [Role::King; 8], sq: [0; 8], stm };
        for (i, &(c, r)) in pieces.iter().enumerate() {
            p.color[i] = c;
            p.role[i] = r;
            p.sq[i] = squares[i];
        }
        p
    }

    #[inline]
    pub fn occupied(&self) -> u64 {
        let mut o = 0;
        for i in 0..self.n {
            o |= 1u64 << self.sq[i];
        }
        o
    }

    #[inline]
    pub fn king(&self, c: Color) -> u8 {
        for i in 0..self.n {
            if self.role[i] == Role::King && self.color[i] == c {
                return self.sq[i];
            }
        }
        64
    }

    #[inline]
    pub fn piece_at(&self, sq: u8) -> Option<usize> {
        (0..self.n).find(|&i| self.sq[i] == sq)
    }

    /// Is `target` attacked by a piece of color `by` (given the occupancy, ignoring piece `skip`)?
    #[inline]
    fn attacked(&self, target: u8, by: Color, occ: u64, skip: usize) -> bool {
        for i in 0..self.n {
            if i == skip || self.color[i] != by {
                continue;
            }
            if attacks::attacks(by, self.role[i], sqr(self.sq[i]), Bitboard(occ)).contains(sqr(target)) {
                return true;
            }
        }
        false
    }

    /// The side not to move is not in check, both kings present.
    pub fn is_legal(&self) -> bool {
        let k = self.king(!self.stm);
        k < 64 && self.king(self.stm) < 64 && !self.attacked(k, self.stm, self.occupied(), usize::MAX)
    }

    pub fn in_check(&self) -> bool {
        self.attacked(self.king(self.stm), !self.stm, self.occupied(), usize::MAX)
    }

    /// Legal moves (the position must be legal).
    pub fn legal_moves(&self, out: &mut Moves) {
        out.clear();
        let us = self.stm;
        let occ = self.occupied();
        let mut ours = 0u64;
        let mut theirs = 0u64;
        for i in 0..self.n {
            if self.color[i] == us {
                ours |= 1 << self.sq[i];
            } else if self.role[i] != Role::King {
                theirs |= 1 << self.sq[i];
            }
        }
        let ksq = self.king(us);
        for i in 0..self.n {
            if self.color[i] != us {
                continue;
            }
            let from = self.sq[i];
            let role = self.role[i];
            let mut targets: u64;
            if role == Role::Pawn {
                targets = attacks::pawn_attacks(us, sqr(from)).0 & theirs;
                let (step, start_rank): (i32, u8) = if us == Color::White { (8, 1) } else { (-8, 6) };
                let one = (from as i32 + step) as u8;
                if occ & (1 << one) == 0 {
                    targets |= 1 << one;
                    if from >> 3 == start_rank {
                        let two = (from as i32 + 2 * step) as u8;
                        if occ & (1 << two) == 0 {
                            targets |= 1 << two;
                        }
                    }
                }
            } else {
                targets = attacks::attacks(us, role, sqr(from), Bitboard(occ)).0 & !ours;
                // never capture a king (cannot happen in a legal position)
                targets &= !(1u64 << self.king(!us));
            }
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let capture = if theirs & (1 << to) != 0 { self.piece_at(to).map(|c| c as u8) } else { None };
                // legality: our king not attacked after the move
                let new_occ = (occ & !(1u64 << from)) | (1u64 << to);
                let king_after = if role == Role::King { to } else { ksq };
                let skip = capture.map_or(usize::MAX, |c| c as usize);
                let mut moved = *self;
                moved.sq[i] = to;
                if moved.attacked(king_after, !us, new_occ, skip) {
                    continue;
                }
                let promo_rank = if us == Color::White { 7 } else { 0 };
                if role == Role::Pawn && to >> 3 == promo_rank {
                    for p in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        out.push(TbMove { piece: i as u8, from, to, capture, promo: Some(p) });
                    }
                } else {
                    out.push(TbMove { piece: i as u8, from, to, capture, promo: None });
                }
            }
        }
    }

    /// The position after a move (captured piece removed, keeping the order of the others).
    /// The legal zeroing moves (captures, promotions, pawn moves) into `out`; returns whether the side to
    /// move also has a legal move that is not zeroing (the generator needs no more of those: it stops at
    /// the first one found). The same moves as [`TbPos::legal_moves`], split.
    pub fn zeroing_moves(&self, out: &mut Moves) -> bool {
        out.clear();
        let us = self.stm;
        let occ = self.occupied();
        let mut ours = 0u64;
        let mut theirs = 0u64;
        for i in 0..self.n {
            if self.color[i] == us {
                ours |= 1 << self.sq[i];
            } else if self.role[i] != Role::King {
                theirs |= 1 << self.sq[i];
            }
        }
        let ksq = self.king(us);
        let their_king = self.king(!us);
        let mut quiet = false;
        for i in 0..self.n {
            if self.color[i] != us {
                continue;
            }
            let from = self.sq[i];
            let role = self.role[i];
            let mut targets: u64;
            if role == Role::Pawn {
                targets = attacks::pawn_attacks(us, sqr(from)).0 & theirs;
                let (step, start_rank): (i32, u8) = if us == Color::White { (8, 1) } else { (-8, 6) };
                let one = (from as i32 + step) as u8;
                if occ & (1 << one) == 0 {
                    targets |= 1 << one;
                    if from >> 3 == start_rank {
                        let two = (from as i32 + 2 * step) as u8;
                        if occ & (1 << two) == 0 {
                            targets |= 1 << two;
                        }
                    }
                }
            } else {
                targets = attacks::attacks(us, role, sqr(from), Bitboard(occ)).0 & !ours;
                targets &= !(1u64 << their_king);
                if quiet {
                    targets &= theirs; // captures only: a quiet move is already known
                }
            }
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let capture = if theirs & (1 << to) != 0 { self.piece_at(to).map(|c| c as u8) } else { None };
                let zeroing = capture.is_some() || role == Role::Pawn;
                if !zeroing && quiet {
                    continue;
                }
                let new_occ = (occ & !(1u64 << from)) | (1u64 << to);
                let king_after = if role == Role::King { to } else { ksq };
                let skip = capture.map_or(usize::MAX, |c| c as usize);
                let mut moved = *self;
                moved.sq[i] = to;
                if moved.attacked(king_after, !us, new_occ, skip) {
                    continue;
                }
                if !zeroing {
                    quiet = true;
                    continue;
                }
                let promo_rank = if us == Color::White { 7 } else { 0 };
                if role == Role::Pawn && to >> 3 == promo_rank {
                    for p in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        out.push(TbMove { piece: i as u8, from, to, capture, promo: Some(p) });
                    }
                } else {
                    out.push(TbMove { piece: i as u8, from, to, capture, promo: None });
                }
            }
        }
        quiet
    }

    pub fn play(&self, m: &TbMove) -> TbPos {
        let mut p = *self;
        let i = m.piece as usize;
        p.sq[i] = m.to;
        if let Some(r) = m.promo {
            p.role[i] = r;
        }
        if let Some(c) = m.capture {
            let c = c as usize;
            for j in c..p.n - 1 {
                p.color[j] = p.color[j + 1];
                p.role[j] = p.role[j + 1];
                p.sq[j] = p.sq[j + 1];
            }
            p.n -= 1;
        }
        p.stm = !p.stm;
        p
    }

    /// Positions from which the side not to move reached this one by a non-capturing move of a piece other
    /// than a pawn (the moves the generator undoes). Calls `f` with each legal predecessor.
    pub fn for_each_unmove(&self, f: impl FnMut(&TbPos)) {
        self.unmoves::<true>(f)
    }

    /// As [`TbPos::for_each_unmove`] without the legality test (the generator finds illegal predecessors
    /// marked invalid in its table).
    pub fn for_each_unmove_unchecked(&self, f: impl FnMut(&TbPos)) {
        self.unmoves::<false>(f)
    }

    fn unmoves<const CHECK_LEGAL: bool>(&self, mut f: impl FnMut(&TbPos)) {
        let mover = !self.stm;
        let occ = self.occupied();
        for i in 0..self.n {
            if self.color[i] != mover || self.role[i] == Role::Pawn {
                continue;
            }
            let to = self.sq[i];
            let mut froms = attacks::attacks(mover, self.role[i], sqr(to), Bitboard(occ)).0 & !occ;
            while froms != 0 {
                let from = froms.trailing_zeros() as u8;
                froms &= froms - 1;
                let mut p = *self;
                p.sq[i] = from;
                p.stm = mover;
                // the side that is now not to move (self.stm) must not be in check
                if !CHECK_LEGAL {
                    f(&p);
                    continue;
                }
                let k = p.king(self.stm);
                if !p.attacked(k, mover, (occ & !(1u64 << to)) | (1u64 << from), usize::MAX) {
                    f(&p);
                }
            }
        }
    }

    pub fn material(&self) -> Material {
        Material::from_pieces((0..self.n).map(|i| (self.color[i], self.role[i])))
    }

    /// Colors exchanged and the board mirrored vertically (same game value).
    pub fn color_flipped(&self) -> TbPos {
        let mut p = *self;
        for i in 0..p.n {
            p.color[i] = !p.color[i];
            p.sq[i] ^= 56;
        }
        p.stm = !p.stm;
        p
    }

    /// Pieces sorted into table order for their material (which must not need a flip).
    pub fn table_order_squares(&self, out: &mut [u8; 8]) {
        let key = |i: usize| -> (u8, u8, u8) {
            if self.role[i] == Role::King {
                (0, self.color[i] as u8, 0)
            } else {
                let rank = ROLE_ORDER.iter().position(|&r| r == self.role[i]).unwrap_or(0) as u8;
                (1, self.color[i] as u8, rank)
            }
        };
        let mut ids = [0usize, 1, 2, 3, 4, 5, 6, 7];
        ids[..self.n].sort_by_key(|&i| key(i));
        for (k, &i) in ids[..self.n].iter().enumerate() {
            out[k] = self.sq[i];
        }
    }

    /// Converts a rules-core position (no castling rights expected; en passant is ignored).
    pub fn from_board(board: &mysl_core::Board, stm: Color) -> Option<TbPos> {
        let occ = board.occupied();
        if occ.count() as usize > 8 {
            return None;
        }
        let mut p = TbPos { n: 0, color: [Color::White; 8], role: [Role::King; 8], sq: [0; 8], stm };
        for sq in occ.iter() {
            let pc = board.piece_at(sq)?;
            p.color[p.n] = pc.color;
            p.role[p.n] = pc.role;
            p.sq[p.n] = sq as u8;
            p.n += 1;
        }
        Some(p)
    }

    /// FEN of this position (no castling, no en passant, clocks 0 1).
    pub fn fen(&self) -> String {
        let mut board = [None; 64];
        for i in 0..self.n {
            board[self.sq[i] as usize] = Some((self.color[i], self.role[i]));
        }
        let mut s = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match board[r * 8 + f] {
                    None => empty += 1,
                    Some((c, role)) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        let ch = role.char();
                        s.push(if c == Color::White { ch.to_ascii_uppercase() } else { ch });
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.stm == Color::White { " w - - 0 1" } else { " b - - 0 1" });
        s
    }
}

impl TbPos {
    /// After a pawn double push to `to` (this position, the opponent to move): the legal positions after
    /// capturing that pawn en passant (0, 1 or 2 of them).
    pub fn en_passant_children(&self, to: u8) -> Vec<(TbMove, TbPos)> {
        let mut out = Vec::new();
        let us = self.stm;
        let Some(victim) = self.piece_at(to) else { return out };
        if self.role[victim] != Role::Pawn || self.color[victim] == us {
            return out;
        }
        let mid = if us == Color::White { to + 8 } else { to - 8 };
        for i in 0..self.n {
            if self.color[i] != us || self.role[i] != Role::Pawn {
                continue;
            }
            let s = self.sq[i];
            if s >> 3 != to >> 3 || ((s & 7) as i32 - (to & 7) as i32).abs() != 1 {
                continue;
            }
            let m = TbMove { piece: i as u8, from: s, to: mid, capture: Some(victim as u8), promo: None };
            let child = self.play(&m);
            // legal if our king is not attacked afterwards
            let mut check = child;
            check.stm = us;
            let k = check.king(us);
            if !check.attacked(k, !us, check.occupied(), usize::MAX) {
                out.push((m, child));
            }
        }
        out
    }

    /// Calls `f` with the position after each non-capturing move of a piece other than a pawn, legal or
    /// not (an illegal one leaves the mover's king in check); stops and returns false when `f` does.
    pub fn all_quiet_piece_moves(&self, mut f: impl FnMut(&TbPos) -> bool) -> bool {
        let us = self.stm;
        let occ = self.occupied();
        for i in 0..self.n {
            if self.color[i] != us || self.role[i] == Role::Pawn {
                continue;
            }
            let from = self.sq[i];
            let mut targets = attacks::attacks(us, self.role[i], sqr(from), Bitboard(occ)).0 & !occ;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let mut c = *self;
                c.sq[i] = to;
                c.stm = !us;
                if !f(&c) {
                    return false;
                }
            }
        }
        true
    }

    /// Does the side to move have a legal move (en passant not considered)?
    pub fn has_moves(&self) -> bool {
        let mut m = Moves::default();
        self.legal_moves(&mut m);
        !m.as_slice().is_empty()
    }
}
