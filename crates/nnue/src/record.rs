//! The training record: one position in 32 bytes, in the layout of the "marlinformat" that several
//! open-source trainers read, so that our data can also be used elsewhere.
//!
//! | bytes | field |
//! |---|---|
//! | 0-7 | occupancy, u64 little-endian, bit i = square i (a1 = 0, h8 = 63) |
//! | 8-23 | one 4-bit code per occupied square, in rising square order, low nibble first: role (0 pawn .. 5 king) plus 8 for Black |
//! | 24 | bit 7: Black to move; bits 0-6: en-passant square, 64 when none |
//! | 25 | half-move clock |
//! | 26-27 | full-move number, u16 little-endian |
//! | 28-29 | search score from White's point of view, i16 little-endian, centipawns |
//! | 30 | game result: 0 Black won, 1 draw, 2 White won |
//! | 31 | unused, 0 |

use mysl_core::{Board, Color, Piece, Role, Square};

/// Size of one record in bytes.
pub const RECORD_SIZE: usize = 32;

/// Game result from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWin = 0,
    Draw = 1,
    WhiteWin = 2,
}

impl GameResult {
    /// 0, 0.5 or 1: White's score.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }
}

/// One decoded training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub occupied: u64,
    /// 4-bit codes of the occupied squares, rising square order.
    pub codes: [u8; 16],
    pub turn: Color,
    pub ep_square: Option<Square>,
    pub halfmoves: u8,
    pub fullmoves: u16,
    /// Search score, White's point of view, centipawns.
    pub score: i16,
    pub result: GameResult,
}

/// What is wrong with a record's bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("{0} pieces on the board (at most 32)")]
    TooManyPieces(u32),
    #[error("piece code {code} on {square} (0-5 and 8-13 are pieces)")]
    BadPiece { code: u8, square: Square },
    #[error("en-passant byte {0} (0-63 or 64)")]
    BadEpSquare(u8),
    #[error("result byte {0} (0, 1 or 2)")]
    BadResult(u8),
}

impl Record {
    /// A record of `board` with `turn` to move.
    pub fn new(
        board: &Board,
        turn: Color,
        ep_square: Option<Square>,
        halfmoves: u32,
        fullmoves: u32,
        white_score: i16,
        result: GameResult,
    ) -> Record {
        let occupied = board.occupied();
        let mut codes = [0u8; 16];
        for (i, sq) in occupied.into_iter().take(32).enumerate() {
            let code = board.piece_at(sq).map_or(0, |p| p.role as u8 | ((p.color == Color::Black) as u8) << 3);
            codes[i / 2] |= code << (4 * (i % 2));
        }
        Record {
            occupied: occupied.0,
            codes,
            turn,
            ep_square,
            halfmoves: halfmoves.min(255) as u8,
            fullmoves: fullmoves.min(u16::MAX as u32) as u16,
            score: white_score,
            result,
        }
    }

    /// The pieces on the board: (colour, role, square).
    pub fn pieces(&self) -> impl Iterator<Item = (Color, Role, Square)> + '_ {
        let mut occ = self.occupied;
        let mut i = 0usize;
        std::iter::from_fn(move || {
            if occ == 0 {
                return None;
            }
            let sq = occ.trailing_zeros();
            occ &= occ - 1;
            let code = (self.codes[i / 2] >> (4 * (i % 2))) & 15;
            i += 1;
            let color = if code & 8 != 0 { Color::Black } else { Color::White };
            Some((color, Role::from_index((code & 7) as usize), Square::from_index(sq)))
        })
    }

    /// The piece placement.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for (color, role, sq) in self.pieces() {
            board.set_piece_at(sq, Some(Piece::new(color, role)));
        }
        board
    }

    /// The position mirrored left to right (files a-h swapped), same score and result: an orthodox
    /// position without castling rights is worth the same mirrored, so it serves as one more training
    /// position (castling rights are not in the features).
    pub fn mirrored(&self) -> Record {
        let mut board = Board::empty();
        for (color, role, sq) in self.pieces() {
            board.set_piece_at(Square::from_index(sq as u32 ^ 7), Some(Piece::new(color, role)));
        }
        Record {
            ep_square: self.ep_square.map(|s| Square::from_index(s as u32 ^ 7)),
            ..Record::new(
                &board,
                self.turn,
                None,
                self.halfmoves as u32,
                self.fullmoves as u32,
                self.score,
                self.result,
            )
        }
    }

    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        b[0..8].copy_from_slice(&self.occupied.to_le_bytes());
        b[8..24].copy_from_slice(&self.codes);
        b[24] = ((self.turn == Color::Black) as u8) << 7 | self.ep_square.map_or(64, |s| s as u8);
        b[25] = self.halfmoves;
        b[26..28].copy_from_slice(&self.fullmoves.to_le_bytes());
        b[28..30].copy_from_slice(&self.score.to_le_bytes());
        b[30] = self.result as u8;
        b
    }

    /// Decodes and checks one record.
    pub fn from_bytes(b: &[u8; RECORD_SIZE]) -> Result<Record, RecordError> {
        let occupied = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
        let n = occupied.count_ones();
        if n > 32 {
            return Err(RecordError::TooManyPieces(n));
        }
        let mut codes = [0u8; 16];
        codes.copy_from_slice(&b[8..24]);
        let mut occ = occupied;
        for i in 0..n as usize {
            let sq = occ.trailing_zeros();
            occ &= occ - 1;
            let code = (codes[i / 2] >> (4 * (i % 2))) & 15;
            if code & 7 > 5 {
                return Err(RecordError::BadPiece { code, square: Square::from_index(sq) });
            }
        }
        let ep = b[24] & 127;
        let ep_square = match ep {
            0..=63 => Some(Square::from_index(ep as u32)),
            64 => None,
            _ => return Err(RecordError::BadEpSquare(ep)),
        };
        let result = match b[30] {
            0 => GameResult::BlackWin,
            1 => GameResult::Draw,
            2 => GameResult::WhiteWin,
            r => return Err(RecordError::BadResult(r)),
        };
        Ok(Record {
            occupied,
            codes,
            turn: if b[24] & 128 != 0 { Color::Black } else { Color::White },
            ep_square,
            halfmoves: b[25],
            fullmoves: u16::from_le_bytes([b[26], b[27]]),
            score: i16::from_le_bytes([b[28], b[29]]),
            result,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mysl_core::Chess;

    #[test]
    fn a_record_round_trips_through_its_bytes() {
        let pos = Chess::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").expect("fen");
        let r = Record::new(pos.board(), pos.turn(), pos.ep_square(), 0, 12, -37, GameResult::Draw);
        let bytes = r.to_bytes();
        let back = Record::from_bytes(&bytes).expect("valid");
        assert_eq!(back, r);
        assert_eq!(&back.board(), pos.board());
        assert_eq!(back.pieces().count(), pos.board().occupied().count() as usize);
        assert_eq!(back.ep_square, Some(Square::F6));
        assert_eq!(back.score, -37);
    }

    #[test]
    fn mirroring_swaps_the_files_and_twice_is_the_same() {
        let pos = Chess::from_fen("r3k2r/pp1n1ppp/2p5/3pP3/8/2N5/PPP2PPP/R3K2R w KQkq - 0 12").expect("fen");
        let r = Record::new(pos.board(), pos.turn(), Some(Square::D6), 3, 12, 55, GameResult::WhiteWin);
        let m = r.mirrored();
        assert_eq!(m.board().board_fen(), "r2k3r/ppp1n1pp/5p2/3Pp3/8/5N2/PPP2PPP/R2K3R");
        assert_eq!(m.ep_square, Some(Square::E6));
        assert_eq!(
            (m.score, m.result, m.turn, m.halfmoves, m.fullmoves),
            (55, GameResult::WhiteWin, Color::White, 3, 12)
        );
        assert_eq!(m.mirrored(), r);
    }

    #[test]
    fn bad_bytes_are_named() {
        let pos = Chess::startpos();
        let mut b = Record::new(pos.board(), pos.turn(), None, 0, 1, 0, GameResult::WhiteWin).to_bytes();
        b[30] = 7;
        assert_eq!(Record::from_bytes(&b), Err(RecordError::BadResult(7)));
        b[30] = 2;
        b[8] = 0x07; // a role code of 7 on a1
        assert!(matches!(Record::from_bytes(&b), Err(RecordError::BadPiece { code: 7, .. })));
        b[0..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(Record::from_bytes(&b), Err(RecordError::TooManyPieces(64)));
    }
}
