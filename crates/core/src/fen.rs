//! FEN, X-FEN and Shredder-FEN: reading into an unvalidated [`Setup`], writing from a [`Position`].

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::error::FenError;
use crate::position::Position;
use crate::rules::{Rules, Variant, VariantState};
use crate::types::{CastlingMode, CastlingSide, Color, File, Piece, Rank, Role, Square};

/// The orthodox start position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Everything a FEN says, not yet validated as a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    /// The rooks that still have castling rights.
    pub castling_rooks: Bitboard,
    pub ep_square: Option<Square>,
    /// Berolina only: the double-stepped pawn, when the e.p. field names it (`g6h5`) because the
    /// passed square alone would be ambiguous.
    pub ep_victim: Option<Square>,
    pub halfmoves: u32,
    pub fullmoves: u32,
    /// Three-check: checks each side still needs (`3+3` after the e.p. field, or `+N+N` given).
    pub remaining_checks: Option<[u8; 2]>,
    /// Recycle: pieces in hand (`[...]` after the placement), per color, roles P N B R Q.
    pub pockets: Option<[[u8; 5]; 2]>,
    /// Dice: the rolled piece type (trailing field `roll=N`, N = 1 pawn … 6 king).
    pub roll: Option<Role>,
}

impl Setup {
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castling_rooks: Bitboard::from_square(Square::A1) | Square::H1 | Square::A8 | Square::H8,
            ep_square: None,
            ep_victim: None,
            halfmoves: 0,
            fullmoves: 1,
            remaining_checks: None,
            pockets: None,
            roll: None,
        }
    }

    /// Parses a FEN or the first four fields of an EPD (clocks then default to 0 and 1), with the
    /// variant extensions: `[...]` pockets after the placement, a `W+B` remaining-checks field after
    /// the e.p. field or a `+W+B` checks-given field at the end, and a trailing `roll=N` for dice.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() < 4 || fields.len() > 8 {
            return Err(FenError::FieldCount { found: fields.len() });
        }
        let mut roll = None;
        if let Some(last) = fields.last().and_then(|f| f.strip_prefix("roll=")) {
            let face: u8 = last.parse().map_err(|_| FenError::Variant {
                field: fields.len(),
                message: format!("die roll: expected roll=1 to roll=6, found 'roll={last}'"),
            })?;
            roll = Some(crate::rules::die_face_role(face).ok_or_else(|| FenError::Variant {
                field: fields.len(),
                message: format!("die roll: expected roll=1 to roll=6, found 'roll={last}'"),
            })?);
            fields.pop();
            // The roll is not one of the four fields a FEN needs.
            if fields.len() < 4 {
                return Err(FenError::FieldCount { found: fields.len() });
            }
        }
        let mut remaining_checks = None;
        // Checks given, lichess/Scid style: a last field "+W+B".
        if fields.len() >= 5 {
            if let Some(given) = fields.last().and_then(|f| parse_checks(f.strip_prefix('+')?, '+')) {
                remaining_checks = Some([3u8.saturating_sub(given[0]), 3u8.saturating_sub(given[1])]);
                fields.pop();
            }
        }
        // Checks remaining, X-FEN/Fairy-Stockfish style: "W+B" right after the e.p. field.
        if fields.len() >= 5 {
            if let Some(remaining) = parse_checks(fields[4], '+') {
                if remaining_checks.is_some() {
                    return Err(FenError::Variant { field: 5, message: "two check counters".to_string() });
                }
                remaining_checks = Some(remaining);
                fields.remove(4);
            }
        }
        if fields.len() > 6 {
            return Err(FenError::FieldCount { found: fields.len() });
        }
        let (placement, pockets) = match fields[0].split_once('[') {
            Some((placement, rest)) => {
                let Some(inner) = rest.strip_suffix(']') else {
                    return Err(FenError::Placement(format!("pieces in hand: missing ']' in '{}'", fields[0])));
                };
                (placement, Some(parse_pockets(inner)?))
            }
            None => (fields[0], None),
        };
        let board = parse_placement(placement)?;
        let turn = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_string())),
        };
        let castling_rooks = parse_castling(&board, fields[2])?;
        let ep_error = || FenError::EnPassant(fields[3].to_string());
        let (ep_square, ep_victim) = match fields[3] {
            "-" => (None, None),
            text if text.len() == 4 && text.is_ascii() => (
                Some(Square::parse(&text[..2]).ok_or_else(ep_error)?),
                Some(Square::parse(&text[2..]).ok_or_else(ep_error)?),
            ),
            text => (Some(Square::parse(text).ok_or_else(ep_error)?), None),
        };
        let counter = |i: usize, name: &'static str, default: u32| -> Result<u32, FenError> {
            match fields.get(i) {
                None => Ok(default),
                Some(text) => {
                    text.parse::<u32>().map_err(|_| FenError::Counter { field: i + 1, name, text: text.to_string() })
                }
            }
        };
        let halfmoves = counter(4, "half-move clock", 0)?;
        let fullmoves = counter(5, "move number", 1)?.max(1);
        Ok(Setup {
            board,
            turn,
            castling_rooks,
            ep_square,
            ep_victim,
            halfmoves,
            fullmoves,
            remaining_checks,
            pockets,
            roll,
        })
    }

    /// Chess960 if any castling right is not a standard e-file king with an a- or h-file rook.
    pub fn detect_castling_mode(&self) -> CastlingMode {
        for sq in self.castling_rooks {
            let color = if sq.rank() == Rank::First { Color::White } else { Color::Black };
            let king_ok = castling_king(&self.board, color).is_some_and(|k| k.file() == File::E);
            if !king_ok || !matches!(sq.file(), File::A | File::H) {
                return CastlingMode::Chess960;
            }
        }
        CastlingMode::Standard
    }
}

/// `W+B` with digits 0..=3... (any small number; the position checks the range).
fn parse_checks(text: &str, sep: char) -> Option<[u8; 2]> {
    let (w, b) = text.split_once(sep)?;
    if w.is_empty() || b.is_empty() || !w.bytes().all(|c| c.is_ascii_digit()) || !b.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    Some([w.parse().ok()?, b.parse().ok()?])
}

fn parse_pockets(text: &str) -> Result<[[u8; 5]; 2], FenError> {
    let mut pockets = [[0u8; 5]; 2];
    for c in text.chars() {
        match Piece::from_char(c) {
            Some(p) if p.role != Role::King => {
                let n = &mut pockets[p.color as usize][p.role as usize];
                *n = n.saturating_add(1);
            }
            _ => return Err(FenError::Placement(format!("pieces in hand: unexpected '{c}' in '[{text}]'"))),
        }
    }
    Ok(pockets)
}

fn parse_placement(text: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Placement(format!(
            "expected 8 ranks separated by '/', found {} in '{text}'",
            ranks.len()
        )));
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0u32;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::Placement(format!("bad empty-square count '{c}' in rank {}", rank.char())));
                }
                file += d;
            } else if let Some(piece) = Piece::from_char(c) {
                if file >= 8 {
                    return Err(FenError::Placement(format!("rank {} has more than 8 squares", rank.char())));
                }
                board.put(Square::from_coords(File::ALL[file as usize], rank), piece);
                file += 1;
            } else {
                return Err(FenError::Placement(format!("unknown piece '{c}' in rank {}", rank.char())));
            }
            if file > 8 {
                return Err(FenError::Placement(format!("rank {} has more than 8 squares", rank.char())));
            }
        }
        if file != 8 {
            return Err(FenError::Placement(format!("rank {} has {file} squares, expected 8", rank.char())));
        }
    }
    Ok(board)
}

/// Resolves X-FEN (`KQkq`, file letters when ambiguous) and Shredder-FEN (`HAha`) castling.
fn parse_castling(board: &Board, text: &str) -> Result<Bitboard, FenError> {
    let mut rooks = Bitboard::EMPTY;
    if text == "-" {
        return Ok(rooks);
    }
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let back = Bitboard::rank(color.relative_rank(Rank::First));
        let our_rooks = board.by_piece(Piece::new(color, Role::Rook)) & back;
        let king = castling_king(board, color);
        let square = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                let side = if c.eq_ignore_ascii_case(&'k') { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                let Some(king) = king else {
                    return Err(FenError::Castling(format!(
                        "castling right {c} but the {color} king is not on its back rank"
                    )));
                };
                let candidates: Bitboard = our_rooks
                    .filter(|r| match side {
                        CastlingSide::KingSide => r.file() > king.file(),
                        CastlingSide::QueenSide => r.file() < king.file(),
                    })
                    .collect();
                let outermost = match side {
                    CastlingSide::KingSide => candidates.into_iter().last(),
                    CastlingSide::QueenSide => candidates.first(),
                };
                match outermost {
                    Some(sq) => sq,
                    None => {
                        let corner = Square::from_coords(
                            if side == CastlingSide::KingSide { File::H } else { File::A },
                            color.relative_rank(Rank::First),
                        );
                        return Err(FenError::Castling(format!("castling right {c} but no rook on {corner}")));
                    }
                }
            }
            'a'..='h' => {
                let file = File::from_char(c.to_ascii_lowercase()).unwrap_or(File::A);
                let sq = Square::from_coords(file, color.relative_rank(Rank::First));
                if !our_rooks.contains(sq) {
                    return Err(FenError::Castling(format!("castling right {c} but no rook on {sq}")));
                }
                if king.is_none() {
                    return Err(FenError::Castling(format!(
                        "castling right {c} but the {color} king is not on its back rank"
                    )));
                }
                sq
            }
            _ => {
                return Err(FenError::Castling(format!(
                    "unexpected character '{c}' in '{text}'; expected '-' or letters from KQkq and A-H/a-h"
                )))
            }
        };
        if rooks.contains(square) {
            return Err(FenError::Castling(format!("castling right {c} given twice in '{text}'")));
        }
        rooks.set(square);
    }
    Ok(rooks)
}

/// The king that castling rights of `color` belong to: its king on its back rank. Where a variant
/// allows several kings (extinction: pawns promote to kings), a promoted king elsewhere is not it, and
/// of several on the back rank the one on the e-file is (the others were promoted and came back).
pub(crate) fn castling_king(board: &Board, color: Color) -> Option<Square> {
    let back = board.kings() & board.by_color(color) & Bitboard::rank(color.relative_rank(Rank::First));
    back.into_iter().find(|k| k.file() == File::E).or_else(|| back.first())
}

/// The X-FEN letter of the castling right whose rook is on `rook`: `K`/`Q` for the outermost rook on
/// that side of the king, the file letter otherwise.
pub(crate) fn castling_char(board: &Board, color: Color, rook: Square) -> char {
    let letter = |c: char| if color == Color::White { c.to_ascii_uppercase() } else { c };
    let Some(king) = castling_king(board, color) else {
        return letter(rook.file().char());
    };
    let back = Bitboard::rank(rook.rank());
    let our_rooks = board.by_piece(Piece::new(color, Role::Rook)) & back;
    if rook.file() > king.file() {
        let outer = our_rooks.filter(|r| r.file() > rook.file()).count() == 0;
        if outer {
            return letter('k');
        }
    } else {
        let outer = our_rooks.filter(|r| r.file() < rook.file()).count() == 0;
        if outer {
            return letter('q');
        }
    }
    letter(rook.file().char())
}

impl<R: Rules> Position<R> {
    fn castling_field(&self, shredder: bool) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling.rook(color, side) {
                    let c = if shredder {
                        let f = rook.file().char();
                        if color == Color::White {
                            f.to_ascii_uppercase()
                        } else {
                            f
                        }
                    } else {
                        castling_char(&self.board, color, rook)
                    };
                    s.push(c);
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    fn fen_fields(&self, shredder: bool) -> String {
        let ep = match self.legal_ep_square() {
            None => "-".to_string(),
            Some(sq) => match self.berolina_ambiguous_victim(sq) {
                Some(victim) => format!("{sq}{victim}"),
                None => sq.to_string(),
            },
        };
        let mut placement = self.board.board_fen();
        if matches!(R::VARIANT, Variant::Recycle) {
            placement.push('[');
            for color in Color::ALL {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn] {
                    for _ in 0..self.state.pockets()[color as usize][role as usize] {
                        placement.push(Piece::new(color, role).char());
                    }
                }
            }
            placement.push(']');
        }
        let mut s = format!("{placement} {} {} {ep}", self.turn.char(), self.castling_field(shredder));
        if matches!(R::VARIANT, Variant::ThreeCheck) {
            let c = self.state.remaining_checks();
            s.push_str(&format!(" {}+{}", c[0], c[1]));
        }
        s
    }

    fn roll_suffix(&self) -> String {
        match self.state.roll() {
            Some(role) if matches!(R::VARIANT, Variant::Dice) => format!(" roll={}", crate::rules::role_die_face(role)),
            _ => String::new(),
        }
    }

    /// Berolina: the double-stepped pawn, if the passed square alone would not say which pawn it is.
    fn berolina_ambiguous_victim(&self, passed: Square) -> Option<Square> {
        if !matches!(R::VARIANT, Variant::Berolina) {
            return None;
        }
        let victim = self.state.ep_victim()?;
        let (pawn_rank, origin_rank) = match self.turn {
            Color::White => (Rank::Fifth, Rank::Seventh),
            Color::Black => (Rank::Fourth, Rank::Second),
        };
        let other_file = 2 * passed.file() as i32 - victim.file() as i32;
        let other = Square::from_coords(File::new(other_file as u32)?, pawn_rank);
        let origin_of_other = Square::from_coords(File::new(victim.file() as u32)?, origin_rank);
        let enemy_pawn = Piece::new(!self.turn, Role::Pawn);
        (self.board.piece_at(other) == Some(enemy_pawn) && !self.board.occupied().contains(origin_of_other))
            .then_some(victim)
    }

    /// The FEN (X-FEN castling letters; the e.p. square only when an e.p. capture is legal), with the
    /// variant's fields (`3+3` checks, `[...]` hands, `roll=N`).
    pub fn fen(&self) -> String {
        format!("{} {} {}{}", self.fen_fields(false), self.halfmoves, self.fullmoves, self.roll_suffix())
    }

    /// The FEN with Shredder-FEN castling letters (rook files, e.g. `HAha`).
    pub fn shredder_fen(&self) -> String {
        format!("{} {} {}{}", self.fen_fields(true), self.halfmoves, self.fullmoves, self.roll_suffix())
    }

    /// The first four FEN fields (an EPD without operations).
    pub fn epd(&self) -> String {
        self.fen_fields(false)
    }
}
