//! Bul (Popeye's piece attribute for hoppers): after the hop the hurdle moves too.

use mysl_core::Color;

use crate::board::{offset, sq, Board, Move, Special};
use crate::conditions::drop_marked;
use crate::walk::{self, Kind, Walk, KINDS};

impl Board {
    /// Bul: each move of a Bul hopper among `out[start..]` becomes one move per non-capturing
    /// move of its hurdle with the hopper's walk on the board after the hop (and per promotion
    /// kind for a pawn reaching its last rank); a move whose hurdle cannot move is dropped.
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
            let mut targets = [0u8; 16];
            let n = self.bul_hurdle_targets(m.from, m.to, v, &mut targets);
            for &t2 in &targets[..n] {
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
