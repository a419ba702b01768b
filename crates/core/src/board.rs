//! Piece placement: bitboards by role and color plus a mailbox for square lookups.

use std::fmt;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{ByColor, Color, File, Piece, Rank, Role, Square};

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: ByColor<Bitboard>,
    occupied: Bitboard,
    mailbox: [Option<Piece>; 64],
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: ByColor([Bitboard::EMPTY; 2]),
            occupied: Bitboard::EMPTY,
            mailbox: [None; 64],
        }
    }

    /// The orthodox start position.
    pub fn standard() -> Board {
        let mut b = Board::empty();
        let back =
            [Role::Rook, Role::Knight, Role::Bishop, Role::Queen, Role::King, Role::Bishop, Role::Knight, Role::Rook];
        for (i, role) in back.into_iter().enumerate() {
            let file = File::ALL[i];
            b.put(Square::from_coords(file, Rank::First), Piece::new(Color::White, role));
            b.put(Square::from_coords(file, Rank::Second), Piece::new(Color::White, Role::Pawn));
            b.put(Square::from_coords(file, Rank::Seventh), Piece::new(Color::Black, Role::Pawn));
            b.put(Square::from_coords(file, Rank::Eighth), Piece::new(Color::Black, role));
        }
        b
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq as usize]
    }
    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.mailbox[sq as usize].map(|p| p.role)
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }
    #[inline(always)]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role[piece.role as usize] & self.by_color[piece.color]
    }
    #[inline(always)]
    pub fn pawns(&self) -> Bitboard {
        self.by_role[Role::Pawn as usize]
    }
    #[inline(always)]
    pub fn knights(&self) -> Bitboard {
        self.by_role[Role::Knight as usize]
    }
    #[inline(always)]
    pub fn bishops(&self) -> Bitboard {
        self.by_role[Role::Bishop as usize]
    }
    #[inline(always)]
    pub fn rooks(&self) -> Bitboard {
        self.by_role[Role::Rook as usize]
    }
    #[inline(always)]
    pub fn queens(&self) -> Bitboard {
        self.by_role[Role::Queen as usize]
    }
    #[inline(always)]
    pub fn kings(&self) -> Bitboard {
        self.by_role[Role::King as usize]
    }
    /// Bishops and queens.
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_role[Role::Bishop as usize] | self.by_role[Role::Queen as usize]
    }
    /// Rooks and queens.
    #[inline(always)]
    pub fn orthogonal_sliders(&self) -> Bitboard {
        self.by_role[Role::Rook as usize] | self.by_role[Role::Queen as usize]
    }
    /// The king of this color, if there is exactly one... or the lowest one if there are several.
    #[inline(always)]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.kings() & self.by_color[color]).first()
    }

    /// Puts a piece on an empty square.
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role as usize].set(sq);
        self.by_color[piece.color].set(sq);
        self.occupied.set(sq);
        self.mailbox[sq as usize] = Some(piece);
    }

    /// Removes the given piece from its square.
    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role as usize].clear(sq);
        self.by_color[piece.color].clear(sq);
        self.occupied.clear(sq);
        self.mailbox[sq as usize] = None;
    }

    /// Moves a piece between two squares (the target must be empty).
    #[inline(always)]
    pub(crate) fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        let both = Bitboard::from_square(from) | to;
        self.by_role[piece.role as usize] ^= both;
        self.by_color[piece.color] ^= both;
        self.occupied ^= both;
        self.mailbox[from as usize] = None;
        self.mailbox[to as usize] = Some(piece);
    }

    /// Sets or clears a square (for building positions by hand).
    pub fn set_piece_at(&mut self, sq: Square, piece: Option<Piece>) {
        if let Some(old) = self.piece_at(sq) {
            self.remove(sq, old);
        }
        if let Some(p) = piece {
            self.put(sq, p);
        }
    }

    /// Pieces of `color` that attack `sq`, with the given occupancy for sliders.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[color];
        ((attacks::pawn_attacks(!color, sq) & self.pawns())
            | (attacks::knight_attacks(sq) & self.knights())
            | (attacks::king_attacks(sq) & self.kings())
            | (attacks::bishop_attacks(sq, occupied) & self.diagonal_sliders())
            | (attacks::rook_attacks(sq, occupied) & self.orthogonal_sliders()))
            & them
    }

    /// Whether any piece of `color` attacks `sq`.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, color: Color, occupied: Bitboard) -> bool {
        let them = self.by_color[color];
        (attacks::knight_attacks(sq) & self.knights() & them).any()
            || (attacks::pawn_attacks(!color, sq) & self.pawns() & them).any()
            || (attacks::king_attacks(sq) & self.kings() & them).any()
            || (attacks::bishop_attacks(sq, occupied) & self.diagonal_sliders() & them).any()
            || (attacks::rook_attacks(sq, occupied) & self.orthogonal_sliders() & them).any()
    }

    /// The FEN placement field.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(72);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if *rank != Rank::First {
                s.push('/');
            }
        }
        s
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.board_fen())
    }
}

impl fmt::Display for Board {
    /// A diagram, rank 8 at the top, `.` for empty squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            write!(f, "{} ", rank.char())?;
            for file in File::ALL {
                let c = self.piece_at(Square::from_coords(file, *rank)).map_or('.', |p| p.char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h")
    }
}
