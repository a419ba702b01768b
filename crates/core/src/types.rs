//! Small exact types: colors, roles, pieces, files, ranks and squares.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// The side: White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `true` for White.
    #[inline(always)]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// The rank index (0-based) that is this side's `n`th rank counted from its own side (0-based).
    #[inline(always)]
    pub const fn relative_rank(self, rank: Rank) -> Rank {
        match self {
            Color::White => rank,
            Color::Black => Rank::ALL[7 - rank as usize],
        }
    }

    /// `w` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    pub const fn from_white(white: bool) -> Color {
        if white {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A piece type without color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter: p n b r q k.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// Upper-case letter as in SAN: P N B R Q K.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Parses a piece letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }
}

/// A colored piece, packed as `color * 8 + role` (so it fits in a byte and indexes tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece { color: Color::from_white(c.is_ascii_uppercase()), role }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A file (column), a..h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn new(i: u32) -> Option<File> {
        if i < 8 {
            Some(File::ALL[i as usize])
        } else {
            None
        }
    }
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::ALL[(c as u8 - b'a') as usize]),
            _ => None,
        }
    }
}

/// A rank (row), 1..8; `Rank::First` is index 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn new(i: u32) -> Option<Rank> {
        if i < 8 {
            Some(Rank::ALL[i as usize])
        } else {
            None
        }
    }
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::ALL[(c as u8 - b'1') as usize]),
            _ => None,
        }
    }
}

macro_rules! squares {
    ($($name:ident = $i:expr),* $(,)?) => {
        /// A square, a1 = 0 … h8 = 63 (little-endian rank-file mapping).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Square { $($name = $i),* }

        impl Square {
            /// All squares in index order a1, b1, …, h8.
            pub const ALL: [Square; 64] = [$(Square::$name),*];
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with this index, if it is below 64.
    #[inline(always)]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square::ALL[index as usize])
        } else {
            None
        }
    }

    /// The square with this index; the index is masked to 0..63.
    #[inline(always)]
    pub const fn from_index(index: u32) -> Square {
        Square::ALL[(index & 63) as usize]
    }

    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::ALL[rank as usize * 8 + file as usize]
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    pub const fn file(self) -> File {
        File::ALL[self as usize & 7]
    }
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize >> 3]
    }

    /// The square `delta` steps away in index space, if it stays on the board (no wrap check).
    #[inline(always)]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square::ALL[i as usize])
        } else {
            None
        }
    }

    /// The square seen from Black's side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square::ALL[self as usize ^ 56]
    }

    /// The square with the same file on the given rank.
    #[inline(always)]
    pub const fn with_rank(self, rank: Rank) -> Square {
        Square::from_coords(self.file(), rank)
    }

    /// Chebyshev distance.
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// Parses `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        Some(Square::from_coords(File::from_char(b[0] as char)?, Rank::from_char(b[1] as char)?))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// A pair of values, one per color.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        &self.0[c as usize]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c as usize]
    }
}

/// How castling is written: standard (`e1g1`, `KQkq`) or Chess960 (`e1h1`, king takes rook).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    #[default]
    Standard,
    Chess960,
}

/// Which side of the king a castling goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CastlingSide {
    /// O-O: the king ends on the g-file.
    KingSide = 0,
    /// O-O-O: the king ends on the c-file.
    QueenSide = 1,
}

impl CastlingSide {
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// Where the king lands (g1/c1 relative).
    pub const fn king_to(self, color: Color) -> Square {
        let file = match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        };
        Square::from_coords(file, color.relative_rank(Rank::First))
    }

    /// Where the rook lands (f1/d1 relative).
    pub const fn rook_to(self, color: Color) -> Square {
        let file = match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        };
        Square::from_coords(file, color.relative_rank(Rank::First))
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A side won.
    Decisive { winner: Color, reason: EndReason },
    /// A draw.
    Draw { reason: EndReason },
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(self) -> &'static str {
        match self {
            Outcome::Decisive { winner: Color::White, .. } => "1-0",
            Outcome::Decisive { winner: Color::Black, .. } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    FiftyMoveRule,
    ThreefoldRepetition,
    /// A rule of a variant (three checks, extinction, no pieces left, …).
    VariantRule,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::FiftyMoveRule => "fifty-move rule",
            EndReason::ThreefoldRepetition => "threefold repetition",
            EndReason::VariantRule => "variant rule",
        })
    }
}
