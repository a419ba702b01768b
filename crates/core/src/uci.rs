//! UCI move text: `e2e4`, `e7e8q`, castling as `e1g1` (standard) or `e1h1` (Chess960, king takes rook).
//!
//! In Recycle the king may capture its own rook, so in a Chess960 setup with the king beside its
//! castling rook `b1a1` names both castling and the self-capture. There (and only there) castling is
//! written `O-O` / `O-O-O`, the one text no other move has; the reader takes the square pair for the
//! other move and reads `O-O` / `O-O-O` (or `0-0` / `0-0-0`) as castling in any variant.

use crate::error::UciMoveError;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{CastlingMode, CastlingSide, Role, Square};

/// Writes a legal move of `pos` in UCI notation, following the position's castling mode.
pub fn move_to_uci<R: Rules>(pos: &Position<R>, mv: Move) -> String {
    let text = move_to_uci_mode(mv, pos.turn(), pos.castling_mode());
    if R::VARIANT == crate::rules::Variant::Recycle && mv.is_castle() {
        let from = mv.from();
        let to = Square::parse(&text[2..4]);
        if pos.legal_moves().iter().any(|m| !m.is_castle() && m.from() == from && Some(m.to()) == to) {
            return castle_text(castling_side(mv)).to_string();
        }
    }
    text
}

fn castling_side(mv: Move) -> CastlingSide {
    if mv.to().file() > mv.from().file() {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    }
}

fn castle_text(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "O-O",
        CastlingSide::QueenSide => "O-O-O",
    }
}

/// Writes a move in UCI notation for the given side and castling mode.
pub fn move_to_uci_mode(mv: Move, turn: crate::types::Color, mode: CastlingMode) -> String {
    let from = mv.from();
    let mut to = mv.to();
    if let Some(role) = mv.drop_role() {
        return format!("{}@{}", role.upper_char(), to);
    }
    if mv.kind() == MoveKind::Castle && mode == CastlingMode::Standard {
        let side = if to.file() > from.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
        to = side.king_to(turn);
    }
    let mut s = format!("{from}{to}");
    if let Some(role) = mv.promotion() {
        s.push(role.char());
    }
    s
}

/// Reads UCI move text and finds the legal move it names. Castling is accepted both as the king's
/// destination (`e1g1`) and as king takes rook (`e1h1`) whatever the mode, when no other move has that
/// text, and as `O-O` / `O-O-O`.
pub fn parse_uci_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, UciMoveError> {
    let syntax = || UciMoveError::Syntax(text.to_string());
    let t = text.trim();
    let castle = match t {
        "O-O" | "0-0" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    };
    if let Some(side) = castle {
        return pos
            .legal_moves()
            .iter()
            .find(|m| m.is_castle() && castling_side(*m) == side)
            .ok_or_else(|| UciMoveError::Illegal(text.to_string()));
    }
    if !t.is_ascii() || !(4..=5).contains(&t.len()) {
        return Err(syntax());
    }
    if t.as_bytes()[1] == b'@' && t.len() == 4 {
        let role = Role::from_char(t.as_bytes()[0] as char).ok_or_else(syntax)?;
        let to = Square::parse(&t[2..4]).ok_or_else(syntax)?;
        return pos
            .legal_moves()
            .iter()
            .find(|m| m.drop_role() == Some(role) && m.to() == to)
            .ok_or_else(|| UciMoveError::Illegal(text.to_string()));
    }
    let from = Square::parse(&t[0..2]).ok_or_else(syntax)?;
    let to = Square::parse(&t[2..4]).ok_or_else(syntax)?;
    let promotion = match t.as_bytes().get(4) {
        None => None,
        Some(&c) => match Role::from_char(c as char) {
            Some(Role::Pawn) | None => return Err(syntax()),
            Some(role) => Some(role),
        },
    };
    let moves = pos.legal_moves();
    // Exact encodings first (normal, promotion, e.p.), then castling as king takes rook (in Recycle
    // the same squares may also be the king taking its own rook: that move has them).
    let exact = |mv: &Move| mv.from() == from && mv.to() == to && mv.promotion() == promotion;
    if let Some(mv) = moves.iter().find(|m| !m.is_castle() && exact(m)).or_else(|| moves.iter().find(exact)) {
        return Ok(mv);
    }
    if promotion.is_none() {
        for mv in moves.iter() {
            if mv.is_castle() && mv.from() == from && castling_side(mv).king_to(pos.turn()) == to {
                return Ok(mv);
            }
        }
    }
    Err(UciMoveError::Illegal(text.to_string()))
}
