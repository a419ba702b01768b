//! Bul and Dob (Popeye's piece attributes for hoppers): after the hop the hurdle moves too, as
//! the hopper would (Bul) or by its own walk (Dob).

use mysl_core::{attacks, Color};

use crate::board::{offset, sq, Board, Move, Special};
use crate::conditions::drop_marked;
use crate::walk::{self, Kind, Walk, KINDS};

impl Board {
    /// Bul, Dob: each move of a Bul (Dob) hopper among `out[start..]` becomes one move per
    /// non-capturing move of its hurdle with the hopper's walk (with its own walk) on the board
    /// after the hop (and per promotion kind for a pawn reaching its last rank); a move whose
    /// hurdle cannot move is dropped.
    pub(crate) fn bul_choices(&self, start: usize, out: &mut Vec<Move>) {
        let end = out.len();
        for i in start..end {
            let m = out[i];
            if !self.bul.contains(sq(m.from)) {
                continue;
            }
            let mover = self.squares[m.from as usize].expect("moving piece");
            let Walk::Hopper(v) = KINDS[mover.kind as usize].walk else { continue };
            let h = hurdle_square(m.from, m.to);
            let hp = self.squares[h as usize].expect("hurdle");
            let last = if hp.color == Color::White { 7 } else { 0 };
            let mut first = true;
            let mut targets = [0u8; 64];
            let dob = self.dob.contains(sq(m.from));
            let n = if dob {
                self.dob_hurdle_targets(m.from, m.to, &mut targets)
            } else {
                let mut t16 = [0u8; 16];
                let n = self.bul_hurdle_targets(m.from, m.to, v, &mut t16);
                targets[..n].copy_from_slice(&t16[..n]);
                n
            };
            for &t2 in &targets[..n] {
                // Popeye promotes a pawn that a hurdle move brings to a promotion square as the
                // side whose square it is (`find_potential_promotion_square`,
                // `move_effect_reason_bul`), and only a pawn of that side
                // (`is_square_occupied_by_promotable_pawn`): so only on its own last rank, also a
                // Dob pawn that moved as the mover's opponent's (a white one reaching the first
                // rank stays a pawn there).
                let promote = hp.kind == walk::PAWN && t2 / 8 == last;
                let mut push = |special: Special| {
                    let v = Move { special, extra: t2, ..m };
                    if first {
                        out[i] = v;
                        first = false;
                    } else {
                        out.push(v);
                    }
                };
                if promote {
                    for k in walk::PROMOTIONS {
                        push(Special::HurdlePromote(k));
                    }
                    let mut fairies = self.promotion_fairies;
                    while fairies != 0 {
                        let k = fairies.trailing_zeros() as Kind;
                        fairies &= fairies - 1;
                        push(Special::HurdlePromote(k));
                    }
                } else {
                    push(Special::None);
                }
            }
            if first {
                // No hurdle move: the move is illegal (marked, removed below).
                out[i].to = out[i].from;
            }
        }
        drop_marked(out, start);
    }

    /// Bul: the squares the hurdle of a hop `from`-`to` along the lines `v` can move to without
    /// capturing, as a hopper of those lines, on the board after the hop (`from` empty, `to`
    /// occupied, the hurdle leaving its square). Returns how many were written to `out`.
    pub(crate) fn bul_hurdle_targets(&self, from: u8, to: u8, v: &[(i8, i8)], out: &mut [u8; 16]) -> usize {
        let h = hurdle_square(from, to);
        let occupied = |x: u8| x != from && x != h && (x == to || self.squares[x as usize].is_some());
        let mut n = 0;
        for &d in v {
            let mut t = h;
            let second = loop {
                match offset(t, d) {
                    Some(u) if occupied(u) => break Some(u),
                    Some(u) => t = u,
                    None => break None,
                }
            };
            if let Some(t2) = second.and_then(|x| offset(x, d)) {
                if !occupied(t2) && n < out.len() {
                    out[n] = t2;
                    n += 1;
                }
            }
        }
        n
    }
}

impl Board {
    /// Dob: the squares the hurdle of a hop `from`-`to` can move to without capturing, by its
    /// own walk, on the board after the hop (`from` empty, `to` occupied). The moves are
    /// generated for the mover's opponent, as Popeye's Bul generates its hurdle moves
    /// (`bul_solve`: a sibling ply of the other side): that decides only a pawn's direction (a
    /// pawn hurdle of the mover's colour goes the other way; it promotes only on its own last
    /// rank, see [`Board::bul_choices`]); a king does not castle. Returns how many were
    /// written to `out`.
    pub(crate) fn dob_hurdle_targets(&self, from: u8, to: u8, out: &mut [u8; 64]) -> usize {
        let h = hurdle_square(from, to);
        let hp = self.squares[h as usize].expect("hurdle");
        let mover = self.squares[from as usize].expect("hopper");
        let mut occ = self.occupied();
        occ.clear(sq(from));
        occ.set(sq(to));
        let hs = sq(h);
        let targets = match KINDS[hp.kind as usize].walk {
            Walk::King => attacks::king_attacks(hs),
            Walk::Queen => attacks::queen_attacks(hs, occ),
            Walk::Rook => attacks::rook_attacks(hs, occ),
            Walk::Bishop => attacks::bishop_attacks(hs, occ),
            Walk::Knight => attacks::knight_attacks(hs),
            Walk::Pawn => {
                let gen = !mover.color;
                let (dir, second, first, last): (i8, u8, u8, u8) =
                    if gen == Color::White { (8, 1, 0, 7) } else { (-8, 6, 7, 0) };
                let rank = h / 8;
                let mut t = mysl_core::Bitboard(0);
                if rank != first && rank != last {
                    let one = (h as i8 + dir) as u8;
                    if !occ.contains(sq(one)) {
                        t.set(sq(one));
                        let two = (one as i8 + dir) as u8;
                        if rank == second && !occ.contains(sq(two)) {
                            t.set(sq(two));
                        }
                    }
                }
                t
            }
            _ => {
                // Fairy walks read the board: play the hop on a copy.
                let mut b = self.clone();
                b.clear(from);
                b.put(to, mover);
                b.fairy_targets(h, hp.kind, hp.color)
            }
        } & !occ;
        let mut n = 0;
        for t in targets {
            out[n] = t as u8;
            n += 1;
        }
        n
    }
}

/// The hurdle of a hop from `from` to `to` (hoppers land directly behind it): the square one
/// step of the hop's direction (the move vector divided by the gcd of its coordinates) before
/// `to`.
pub fn hurdle_square(from: u8, to: u8) -> u8 {
    let dx = (to % 8) as i8 - (from % 8) as i8;
    let dy = (to / 8) as i8 - (from / 8) as i8;
    let (mut a, mut b) = (dx.unsigned_abs(), dy.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1) as i8;
    offset(to, (-dx / g, -dy / g)).expect("on the board")
}
