//! FEN, X-FEN and Shredder-FEN: reading into an unvalidated [`Setup`], writing from a [`Position`].

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::error::FenError;
use crate::position::Position;
use crate::rules::Rules;
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
    pub halfmoves: u32,
    pub fullmoves: u32,
}

impl Setup {
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castling_rooks: Bitboard::from_square(Square::A1) | Square::H1 | Square::A8 | Square::H8,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// Parses a FEN or the first four fields of an EPD (clocks then default to 0 and 1).
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount { found: fields.len() });
        }
        let board = parse_placement(fields[0])?;
        let turn = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_string())),
        };
        let castling_rooks = parse_castling(&board, fields[2])?;
        let ep_square = match fields[3] {
            "-" => None,
            text => Some(Square::parse(text).ok_or_else(|| FenError::EnPassant(text.to_string()))?),
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
        Ok(Setup { board, turn, castling_rooks, ep_square, halfmoves, fullmoves })
    }

    /// Chess960 if any castling right is not a standard e-file king with an a- or h-file rook.
    pub fn detect_castling_mode(&self) -> CastlingMode {
        for sq in self.castling_rooks {
            let color = if sq.rank() == Rank::First { Color::White } else { Color::Black };
            let king_ok = self.board.king_of(color).is_some_and(|k| k.file() == File::E && k.rank() == sq.rank());
            if !king_ok || !matches!(sq.file(), File::A | File::H) {
                return CastlingMode::Chess960;
            }
        }
        CastlingMode::Standard
    }
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
        let king = board.king_of(color).filter(|k| back.contains(*k));
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

/// The X-FEN letter of the castling right whose rook is on `rook`: `K`/`Q` for the outermost rook on
/// that side of the king, the file letter otherwise.
pub(crate) fn castling_char(board: &Board, color: Color, rook: Square) -> char {
    let letter = |c: char| if color == Color::White { c.to_ascii_uppercase() } else { c };
    let Some(king) = board.king_of(color) else {
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
        let ep = self.legal_ep_square().map_or_else(|| "-".to_string(), |sq| sq.to_string());
        format!("{} {} {} {}", self.board.board_fen(), self.turn.char(), self.castling_field(shredder), ep)
    }

    /// The FEN (X-FEN castling letters; the e.p. square only when an e.p. capture is legal).
    pub fn fen(&self) -> String {
        format!("{} {} {}", self.fen_fields(false), self.halfmoves, self.fullmoves)
    }

    /// The FEN with Shredder-FEN castling letters (rook files, e.g. `HAha`).
    pub fn shredder_fen(&self) -> String {
        format!("{} {} {}", self.fen_fields(true), self.halfmoves, self.fullmoves)
    }

    /// The first four FEN fields (an EPD without operations).
    pub fn epd(&self) -> String {
        self.fen_fields(false)
    }
}
