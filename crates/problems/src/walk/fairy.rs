//! The fairy walks on the board: target squares of each walk shape ([`Board::fairy_targets`]),
//! attacks by fairy pieces followed backwards from the attacked square
//! ([`Board::fairy_attacked`]), the locust's captures and the Berolina pawn's moves. Holes
//! (Condition Hole) end lines like the board's edge.

use mysl_core::{Bitboard, Color};

use crate::board::{offset, sq, Board, Move, Special, NO_EXTRA};
use crate::walk::{self, Kind, KindSet, RoseKind, Walk, KINDS, NUM_KINDS};

impl Board {
    /// Does a piece of colour `by` have a fairy kind?
    #[inline(always)]
    pub fn has_fairy(&self, by: Color) -> bool {
        self.fairy[by.index()].any()
    }

    /// The fairy kinds present on the board, as a bit set (bit k for kind k).
    pub fn fairy_kinds_present(&self) -> KindSet {
        let mut m: KindSet = 0;
        for k in walk::FIRST_FAIRY as usize..NUM_KINDS {
            if self.by_kind[0][k].any() || self.by_kind[1][k].any() {
                m |= 1 << k;
            }
        }
        m
    }

    /// Is square `s` attacked by a fairy piece of colour `by`? Leapers, riders, hoppers (also
    /// long ones) and Chinese pieces are symmetric, so their walk is followed backwards from `s`;
    /// lions, roses and bouncers generate each piece's captures.
    #[inline(never)]
    pub(crate) fn fairy_attacked(&self, s: u8, by: Color) -> bool {
        for kind in walk::FIRST_FAIRY..NUM_KINDS as Kind {
            let pieces = self.by_kind[by.index()][kind as usize];
            if !pieces.any() {
                continue;
            }
            let found = |t: u8| pieces.contains(sq(t));
            let hit = match KINDS[kind as usize].walk {
                Walk::Leaper(v) => v.iter().any(|&d| self.step(s, d).is_some_and(found)),
                Walk::Rider(v) => v.iter().any(|&d| self.ride_to_piece(s, d).is_some_and(found)),
                // The hurdle stands next to `s` (one vector away); the hopper is the first piece
                // behind it on the same line.
                Walk::Hopper(v) => v.iter().any(|&d| {
                    self.step(s, d).is_some_and(|h| {
                        self.squares[h as usize].is_some() && self.ride_to_piece(h, d).is_some_and(found)
                    })
                }),
                // Landing `n` squares behind the hurdle: the n-1 squares next to `s` are empty, the
                // next one is the hurdle, and the hopper is the first piece behind it.
                Walk::LongHopper(v, n) => v.iter().any(|&d| {
                    let mut t = s;
                    for i in 0..n {
                        match self.step(t, d) {
                            Some(u) if i + 1 == n || self.squares[u as usize].is_none() => t = u,
                            _ => return false,
                        }
                    }
                    self.squares[t as usize].is_some() && self.ride_to_piece(t, d).is_some_and(found)
                }),
                // The first piece from `s` is the screen, the next one behind it must be the
                // Chinese piece.
                Walk::Chinese(v) => v
                    .iter()
                    .any(|&d| self.ride_to_piece(s, d).and_then(|h| self.ride_to_piece(h, d)).is_some_and(found)),
                // The locust is the first piece from `s` along `d`, and it would land on the
                // empty square on the other side of `s`.
                Walk::Locust(v) => v.iter().any(|&d| {
                    self.step(s, (-d.0, -d.1)).is_some_and(|a| self.squares[a as usize].is_none())
                        && self.ride_to_piece(s, d).is_some_and(found)
                }),
                // The Berolina pawn captures one square straight forward, not from its first rank.
                Walk::BerolinaPawn => {
                    let f = if by == Color::White { s.checked_sub(8) } else { Some(s + 8).filter(|&f| f < 64) };
                    f.is_some_and(|f| found(f) && berolina_capture_square(f, by) == Some(s))
                }
                _ => Iterator::any(&mut pieces.into_iter(), |f| self.fairy_targets(f as u8, kind, by).contains(sq(s))),
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// The square `d` away from `s` if it is on the board and not a hole (Condition Hole: a hole
    /// is off the board for the pieces' walks, as Popeye's blocked squares).
    #[inline(always)]
    fn step(&self, s: u8, d: (i8, i8)) -> Option<u8> {
        offset(s, d).filter(|&t| !self.holes.contains(sq(t)))
    }

    /// The first occupied square from `s` (exclusive) along vector `d`, if any (a hole ends the
    /// line like the board's edge).
    #[inline(always)]
    fn ride_to_piece(&self, mut s: u8, d: (i8, i8)) -> Option<u8> {
        while let Some(t) = self.step(s, d) {
            if self.squares[t as usize].is_some() {
                return Some(t);
            }
            s = t;
        }
        None
    }

    /// Target squares of a fairy piece of colour `us` on `from` (moves and captures; squares of
    /// own pieces excluded).
    pub fn fairy_targets(&self, from: u8, kind: Kind, us: Color) -> Bitboard {
        let t = match KINDS[kind as usize].walk {
            Walk::Orphan => self.orphan_targets(from, us),
            Walk::BerolinaPawn => {
                berolina_capture_square(from, us).map_or(Bitboard(0), |t| Bitboard::from_square(sq(t)))
            }
            w => self.walk_targets(from, w),
        };
        t & !(self.color_bb(us) | self.holes)
    }

    /// Target squares of a fairy walk from `from`, own pieces included (masked by the caller).
    pub(crate) fn walk_targets(&self, from: u8, walk: Walk) -> Bitboard {
        let mut out = Bitboard(0);
        match walk {
            Walk::Leaper(v) => {
                for &d in v {
                    if let Some(t) = self.step(from, d) {
                        out.set(sq(t));
                    }
                }
            }
            Walk::Rider(v) => {
                for &d in v {
                    let mut s = from;
                    while let Some(t) = self.step(s, d) {
                        out.set(sq(t));
                        if self.squares[t as usize].is_some() {
                            break;
                        }
                        s = t;
                    }
                }
            }
            Walk::Hopper(v) => {
                for &d in v {
                    if let Some(t) = self.ride_to_piece(from, d).and_then(|h| self.step(h, d)) {
                        out.set(sq(t));
                    }
                }
            }
            Walk::LongHopper(v, n) => {
                for &d in v {
                    let Some(mut t) = self.ride_to_piece(from, d) else { continue };
                    let mut ok = true;
                    for i in 0..n {
                        match self.step(t, d) {
                            Some(u) if i + 1 == n || self.squares[u as usize].is_none() => t = u,
                            _ => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    if ok {
                        out.set(sq(t));
                    }
                }
            }
            Walk::Lion(v, hurdles) => {
                for &d in v {
                    let mut h = Some(from);
                    for _ in 0..hurdles {
                        h = h.and_then(|x| self.ride_to_piece(x, d));
                    }
                    let Some(mut t) = h else { continue };
                    while let Some(u) = self.step(t, d) {
                        out.set(sq(u));
                        if self.squares[u as usize].is_some() {
                            break;
                        }
                        t = u;
                    }
                }
            }
            Walk::Chinese(v) => {
                for &d in v {
                    let mut t = from;
                    while let Some(u) = self.step(t, d) {
                        if self.squares[u as usize].is_some() {
                            // The screen: capture the first piece behind it (own pieces are
                            // masked out below).
                            if let Some(c) = self.ride_to_piece(u, d) {
                                out.set(sq(c));
                            }
                            break;
                        }
                        out.set(sq(u));
                        t = u;
                    }
                }
            }
            Walk::Bouncer(v) => {
                for &d in v {
                    // k: distance to the first piece or the first square off the board along d.
                    let mut k = 1;
                    let mut t = from;
                    while let Some(u) = self.step(t, d) {
                        if self.squares[u as usize].is_some() {
                            break;
                        }
                        k += 1;
                        t = u;
                    }
                    // Exactly k squares back along -d, the squares before the last empty.
                    let back = (-d.0, -d.1);
                    let mut t = from;
                    for i in 1..=k {
                        match self.step(t, back) {
                            Some(u) => {
                                if i == k {
                                    out.set(sq(u));
                                } else if self.squares[u as usize].is_some() {
                                    break;
                                }
                                t = u;
                            }
                            None => break,
                        }
                    }
                }
            }
            Walk::Rose(kind) => {
                let v = &walk::KNIGHT_VECTORS;
                for start in 0..8usize {
                    for turn in [1usize, 7] {
                        // The line: up to seven knight steps round the octagon (the eighth would
                        // come back to `from`), ending at the board's edge.
                        let mut line = [0u8; 7];
                        let mut n = 0;
                        let mut t = from;
                        while n < 7 {
                            let Some(u) = self.step(t, v[(start + n * turn) % 8]) else { break };
                            line[n] = u;
                            n += 1;
                            t = u;
                        }
                        let line = &line[..n];
                        let occupied = |u: &u8| self.squares[*u as usize].is_some();
                        let hurdle = line.iter().position(occupied);
                        let empty_run = &line[..hurdle.unwrap_or(n)];
                        match kind {
                            RoseKind::Plain | RoseKind::Rao => {
                                for &u in empty_run {
                                    out.set(sq(u));
                                }
                            }
                            RoseKind::Hopper | RoseKind::Lion => {}
                        }
                        let Some(h) = hurdle else { continue };
                        let behind = &line[h + 1..];
                        match kind {
                            RoseKind::Plain => out.set(sq(line[h])),
                            RoseKind::Hopper => {
                                if let Some(&u) = behind.first() {
                                    out.set(sq(u));
                                }
                            }
                            RoseKind::Lion => {
                                let stop = behind.iter().position(occupied).map_or(behind.len(), |i| i + 1);
                                for &u in &behind[..stop] {
                                    out.set(sq(u));
                                }
                            }
                            RoseKind::Rao => {
                                if let Some(&u) = behind.iter().find(|u| occupied(u)) {
                                    out.set(sq(u));
                                }
                            }
                        }
                    }
                }
            }
            Walk::Kangaroo(v) => {
                for &d in v {
                    let second = self.ride_to_piece(from, d).and_then(|h| self.ride_to_piece(h, d));
                    if let Some(t) = second.and_then(|h| self.step(h, d)) {
                        out.set(sq(t));
                    }
                }
            }
            Walk::Xiangqi { diagonal_first, rider } => {
                for &d in &walk::KNIGHT_VECTORS {
                    let mut t = from;
                    while let Some(u) = self.xiangqi_step(t, d, diagonal_first) {
                        out.set(sq(u));
                        if !rider || self.squares[u as usize].is_some() {
                            break;
                        }
                        t = u;
                    }
                }
            }
            Walk::Equihopper { queen_lines_only } => {
                for &d in &walk::QUEEN_VECTORS {
                    let Some(h) = self.ride_to_piece(from, d) else { continue };
                    // As many squares behind the hurdle as before it, those in between empty.
                    let k = ((h % 8) as i8 - (from % 8) as i8).abs().max(((h / 8) as i8 - (from / 8) as i8).abs());
                    let mut t = Some(h);
                    for i in 1..=k {
                        t = t.and_then(|x| self.step(x, d)).filter(|&x| i == k || self.squares[x as usize].is_none());
                    }
                    if let Some(t) = t {
                        out.set(sq(t));
                    }
                }
                if !queen_lines_only {
                    for &d in &walk::EQUIHOPPER_OFF_LINE {
                        if let Some(h) = self.step(from, d) {
                            if self.squares[h as usize].is_some() {
                                if let Some(t) = self.step(h, d) {
                                    out.set(sq(t));
                                }
                            }
                        }
                    }
                }
            }
            Walk::NonstopEquihopper => {
                let (ff, fr) = ((from % 8) as i8, (from / 8) as i8);
                for h in self.occupied() {
                    let h = h as u8;
                    let (tf, tr) = (2 * (h % 8) as i8 - ff, 2 * (h / 8) as i8 - fr);
                    if h != from && (0..8).contains(&tf) && (0..8).contains(&tr) {
                        out.set(sq((tr * 8 + tf) as u8));
                    }
                }
            }
            Walk::Compound(parts) => {
                for &w in parts {
                    out |= self.walk_targets(from, w);
                }
            }
            // The squares a locust attacks: the first piece on a line with an empty square
            // directly behind it.
            Walk::Locust(v) => {
                for &d in v {
                    if let Some(h) = self.ride_to_piece(from, d) {
                        if self.step(h, d).is_some_and(|t| self.squares[t as usize].is_none()) {
                            out.set(sq(h));
                        }
                    }
                }
            }
            Walk::AngleHopper(v, eighths) => {
                let circle = &walk::QUEEN_DIRECTIONS_CIRCULAR;
                for &d in v {
                    let Some(h) = self.ride_to_piece(from, d) else { continue };
                    let i = circle.iter().position(|&c| c == d).expect("a queen direction");
                    for turn in [eighths as usize, 8 - eighths as usize] {
                        if let Some(t) = self.step(h, circle[(i + turn) % 8]) {
                            out.set(sq(t));
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// One mao (orthogonal square first) or moa (diagonal square first) step from `s` along the
    /// knight vector `d`: the arrival square if the square passed on the way is empty.
    #[inline(always)]
    fn xiangqi_step(&self, s: u8, d: (i8, i8), diagonal_first: bool) -> Option<u8> {
        let via = if diagonal_first {
            (d.0.signum(), d.1.signum())
        } else if d.0.abs() == 2 {
            (d.0.signum(), 0)
        } else {
            (0, d.1.signum())
        };
        let v = self.step(s, via)?;
        if self.squares[v as usize].is_some() {
            return None;
        }
        self.step(s, d)
    }

    /// The captures of a locust of colour `us` on `f` along the vectors `v`: over the first piece
    /// on each line, an enemy, to the empty square directly behind it.
    #[inline(never)]
    pub(crate) fn locust_moves(&self, f: u8, us: Color, v: &[(i8, i8)], out: &mut Vec<Move>) {
        for &d in v {
            let Some(cap) = self.ride_to_piece(f, d) else { continue };
            if self.squares[cap as usize].is_some_and(|p| p.color != us) {
                if let Some(to) = self.step(cap, d).filter(|&t| self.squares[t as usize].is_none()) {
                    out.push(Move { from: f, to, special: Special::Locust { cap }, extra: NO_EXTRA });
                }
            }
        }
    }

    /// The moves of the Berolina pawn of `us` on `f` (Popeye's `berolina_pawn_generate_moves`):
    /// the capture one square straight forward (en passant too, onto the square an orthodox or
    /// Berolina pawn's double step passed), then the non-capturing steps diagonally forward left
    /// and right, two squares from its second rank if the passed square is empty (a double step:
    /// en-passant right on the passed square). None from its first rank (Popeye's
    /// `pawn_get_no_capture_length` is 0 there) or its last. A move to the last rank promotes
    /// to Q, R, B, S and the fairy kinds present other than pawns (Popeye's promotee sequence
    /// leaves out pawn walks).
    #[inline(never)]
    pub(crate) fn berolina_moves(&self, f: u8, us: Color, theirs: Bitboard, occ: Bitboard, out: &mut Vec<Move>) {
        let (dir, start, last): (i8, u8, u8) = if us == Color::White { (8, 1, 7) } else { (-8, 6, 0) };
        let push = |out: &mut Vec<Move>, to: u8, special: Special| self.push_pawn_move(f, to, last, special, out);
        let Some(t) = berolina_capture_square(f, us) else { return };
        if theirs.contains(sq(t)) {
            push(out, t, Special::None);
        } else if let Some((ep_to, cap)) = self.ep {
            if ep_to == t && self.ep_victim(cap, us) && !occ.contains(sq(t)) {
                out.push(Move { from: f, to: t, special: Special::EnPassant { cap }, extra: NO_EXTRA });
            }
        }
        for dx in [-1i8, 1] {
            let file = (f % 8) as i8 + dx;
            if !(0..8).contains(&file) {
                continue;
            }
            let one = (f as i8 + dir + dx) as u8;
            if occ.contains(sq(one)) {
                continue;
            }
            push(out, one, Special::None);
            let file2 = file + dx;
            if f / 8 == start && (0..8).contains(&file2) {
                let two = (one as i8 + dir + dx) as u8;
                if !occ.contains(sq(two)) {
                    push(out, two, Special::Double);
                }
            }
        }
    }
}

/// The square a Berolina pawn of `us` on `f` captures on (one straight forward), `None` on its
/// first rank (no moves there, Popeye's `pawn_get_no_capture_length`) or its last.
#[inline]
pub fn berolina_capture_square(f: u8, us: Color) -> Option<u8> {
    match f / 8 {
        0 | 7 => None,
        _ if us == Color::White => Some(f + 8),
        _ => Some(f - 8),
    }
}
