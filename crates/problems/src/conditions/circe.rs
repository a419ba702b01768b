//! Circe and its kin: the rebirth square, Circe Chameleon, Clone and Mirror (the reborn piece and
//! its square), Circe RexInclusive (checks), Circe Parrain (rebirth after the next move).

use mysl_core::Color;

use crate::board::{offset, Board, Move, Piece, Special};
use crate::walk::{self, Kind, Walk, KINDS};

/// Which Circe, if any (Popeye's `Circe`, `Circe Chameleon` = `ChameleonCirce`, `Circe Clone` =
/// `CirceClone`; all "relaxed": an occupied rebirth square means no rebirth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Circe {
    #[default]
    Off,
    /// The captured piece is reborn as it is.
    Plain,
    /// The captured piece changes S -> B -> R -> Q -> S before its rebirth (pawns, kings and fairy
    /// pieces keep their kind); the new kind decides the rebirth square.
    Chameleon,
    /// The captured piece is reborn with the kind of the piece that moved (as it was before a
    /// promotion), in its own colour; a captured piece taken by a king is reborn as it is.
    Clone,
    /// Mirror Circe: the captured piece is reborn as it is, on the square where a piece of its
    /// kind of the other colour would be reborn (a black rook taken on a light square goes to
    /// h1, a black pawn taken on the e-file to e2, a white fairy piece to the capture file's
    /// first rank).
    Mirror,
}

impl Circe {
    /// The piece reborn after `captured` was taken by `mover` (the moving piece before the move).
    pub fn reborn_piece(self, captured: Piece, mover: Piece) -> Piece {
        let kind = match self {
            Circe::Off | Circe::Plain | Circe::Mirror => captured.kind,
            Circe::Chameleon => match captured.kind {
                walk::KNIGHT => walk::BISHOP,
                walk::BISHOP => walk::ROOK,
                walk::ROOK => walk::QUEEN,
                walk::QUEEN => walk::KNIGHT,
                k => k,
            },
            Circe::Clone => {
                if mover.kind == walk::KING {
                    captured.kind
                } else {
                    mover.kind
                }
            }
        };
        Piece { color: captured.color, kind }
    }

    /// The square the reborn piece `p`, captured on `s`, goes to.
    pub fn rebirth_square(self, p: Piece, s: u8) -> u8 {
        match self {
            Circe::Mirror => rebirth_square(Piece { color: !p.color, ..p }, s),
            _ => rebirth_square(p, s),
        }
    }

    /// Popeye's name of the condition in twin headers (`Circe Chameleon`).
    pub fn name(self) -> &'static str {
        match self {
            Circe::Off => "",
            Circe::Plain => "Circe",
            Circe::Chameleon => "Circe Chameleon",
            Circe::Clone => "Circe Clone",
            Circe::Mirror => "MirrorCirce",
        }
    }
}

/// Circe rebirth square of piece `p` captured on `s` (Popeye's `rennormal`, plain Circe): a pawn
/// on the capture file, 2nd rank (white) or 7th (black); a queen on d1/d8; a king on e1/e8 (only
/// used by Rex inclusive variants); a rook, bishop or knight on its game-array square of the same
/// square colour as `s`; a fairy piece on the capture file, on its promotion rank (8th rank for
/// a white piece, 1st for a black one).
pub fn rebirth_square(p: Piece, s: u8) -> u8 {
    let file = s % 8;
    let base = if p.color == Color::White { 0 } else { 56 };
    let colour = |t: u8| (t % 8 + t / 8) % 2;
    // The two game-array squares (files x and y) differ in colour: take the one of `s`'s colour.
    let home = |x: u8, y: u8| if colour(base + x) == colour(s) { base + x } else { base + y };
    match KINDS[p.kind as usize].walk {
        // Popeye's `rennormal`: every pawn walk (`is_pawn`), the Berolina pawn too.
        Walk::Pawn | Walk::BerolinaPawn => {
            if p.color == Color::White {
                8 + file
            } else {
                48 + file
            }
        }
        Walk::Queen => base + 3,
        Walk::King => base + 4,
        Walk::Rook => home(0, 7),
        Walk::Bishop => home(2, 5),
        Walk::Knight => home(1, 6),
        _ => (56 - base) + file,
    }
}

impl Board {
    /// Circe RexInclusive: is the king of `c` on `k` in check, i.e. could a piece of `!c` capture
    /// it with its rebirth square occupied after the capture (the capture square itself, or an
    /// occupied square other than the capturer's departure square)?
    #[inline(never)]
    pub(crate) fn rex_circe_checked(&self, k: u8, c: Color) -> bool {
        let r = self.circe.rebirth_square(Piece { color: c, kind: walk::KING }, k);
        match self.squares[r as usize] {
            _ if r == k => self.attacked(k, !c),
            None => false,
            Some(q) if q.color == c => self.attacked(k, !c),
            // An enemy piece on the rebirth square: its capture frees the square, so only the
            // other attackers check.
            Some(_) => Iterator::any(&mut self.color_bb(!c).into_iter(), |f| {
                let f = f as u8;
                f != r && self.piece_attacks(f, self.squares[f as usize].expect("bitboard and mailbox agree"), k)
            }),
        }
    }

    /// Circe RexInclusive, castling: would the king of `c` standing on `king` be in check on `s`
    /// (the square itself or one it passes)? The king's home square is empty when it stands
    /// elsewhere.
    pub(crate) fn rex_circe_passing_checked(&self, s: u8, king: u8, c: Color) -> bool {
        if s == king {
            return self.rex_circe_checked(s, c);
        }
        let r = self.circe.rebirth_square(Piece { color: c, kind: walk::KING }, s);
        if r == king {
            return false;
        }
        self.rex_circe_checked(s, c)
    }

    /// Circe Parrain: the rebirth square of the capture on `cs` after the move `m`: `cs` moved by
    /// the vector of `m` (departure to arrival, plus the rook's for castling), if on the board.
    pub fn parrain_square(&self, m: Move, cs: u8) -> Option<u8> {
        let d = |a: u8, b: u8| ((b % 8) as i8 - (a % 8) as i8, (b / 8) as i8 - (a / 8) as i8);
        let (mut dx, mut dy) = d(m.from, m.to);
        if let Special::Castle { rook_from, rook_to } = m.special {
            let (rx, ry) = d(rook_from, rook_to);
            dx += rx;
            dy += ry;
        }
        offset(cs, (dx, dy))
    }

    /// Circe Parrain: a pawn waiting for its rebirth that would be reborn on its last rank
    /// promotes; each move among `out[start..]` that reborns it there becomes one move per
    /// promotion kind ([`Move::extra`]). Whether the square is free after the move is decided
    /// as [`Board::make`] does (the move's arrival and the castling rook's squares taken, its
    /// departure, the rook's departure and an en-passant victim's square freed).
    pub(crate) fn parrain_choices(&self, start: usize, out: &mut Vec<Move>) {
        let Some((cs, p)) = self.parrain_pending else { return };
        if p.kind != walk::PAWN {
            return;
        }
        let last = if p.color == Color::White { 7 } else { 0 };
        let end = out.len();
        for i in start..end {
            let m = out[i];
            let Some(r) = self.parrain_square(m, cs) else { continue };
            if r / 8 != last || r == m.to {
                continue;
            }
            let mut free = self.squares[r as usize].is_none() || r == m.from;
            match m.special {
                Special::Castle { rook_from, rook_to } => {
                    free = (free || r == rook_from) && r != rook_to;
                }
                Special::EnPassant { cap } | Special::Locust { cap } | Special::TakeMakePromote { cap, .. }
                    if r == cap =>
                {
                    free = true
                }
                _ => {}
            }
            if !free {
                continue;
            }
            let mut kinds: Vec<Kind> = walk::PROMOTIONS.to_vec();
            let mut fairies = self.promotion_fairies;
            while fairies != 0 {
                kinds.push(fairies.trailing_zeros() as Kind);
                fairies &= fairies - 1;
            }
            for (j, &k) in kinds.iter().enumerate() {
                let v = Move { extra: k, ..m };
                if j == 0 {
                    out[i] = v;
                } else {
                    out.push(v);
                }
            }
        }
    }
}
