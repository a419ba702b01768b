//! Standard algebraic notation: writing (disambiguation, `+`/`#`, `=Q`, `O-O`) and lenient reading
//! (`Nf3`, `ng1f3`, `0-0`, `e8Q`, `exd6e.p.`, trailing `!?`).

use crate::error::SanError;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{CastlingSide, File, Rank, Role, Square};

fn castling_side(mv: Move) -> CastlingSide {
    if mv.to().file() > mv.from().file() {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    }
}

/// SAN of a legal move, without the check suffix.
pub fn move_to_san_plain<R: Rules>(pos: &Position<R>, mv: Move, legal: &MoveList) -> String {
    if mv.is_castle() {
        return match castling_side(mv) {
            CastlingSide::KingSide => "O-O".to_string(),
            CastlingSide::QueenSide => "O-O-O".to_string(),
        };
    }
    if let Some(role) = mv.drop_role() {
        return format!("{}@{}", role.upper_char(), mv.to());
    }
    let board = pos.board();
    let from = mv.from();
    let to = mv.to();
    let role = board.role_at(from).unwrap_or(Role::Pawn);
    // A capture of an enemy piece, or of an own piece in recycle.
    let capture = mv.is_en_passant() || board.occupied().contains(to);
    let mut s = String::with_capacity(8);
    if role == Role::Pawn {
        // The from-file is written for captures and for any pawn move that changes file (Berolina's
        // diagonal steps, relayed pawn moves); the rank too if another pawn on that file reaches `to`.
        if capture || from.file() != to.file() {
            s.push(from.file().char());
            let rival = legal.iter().any(|m| {
                m.to() == to
                    && m.from() != from
                    && m.from().file() == from.file()
                    && m.promotion() == mv.promotion()
                    && m.drop_role().is_none()
                    && board.role_at(m.from()) == Some(Role::Pawn)
            });
            if rival {
                s.push(from.rank().char());
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&to.to_string());
    } else {
        s.push(role.upper_char());
        // Disambiguate among other pieces of the same role that can reach the same square.
        let others: Vec<Square> = legal
            .iter()
            .filter(|m| {
                m.to() == to
                    && m.from() != from
                    && !m.is_castle()
                    && m.drop_role().is_none()
                    && board.role_at(m.from()) == Some(role)
            })
            .map(|m| m.from())
            .collect();
        if !others.is_empty() {
            let file_unique = others.iter().all(|o| o.file() != from.file());
            let rank_unique = others.iter().all(|o| o.rank() != from.rank());
            if file_unique {
                s.push(from.file().char());
            } else if rank_unique {
                s.push(from.rank().char());
            } else {
                s.push_str(&from.to_string());
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&to.to_string());
    }
    if let Some(p) = mv.promotion() {
        s.push('=');
        s.push(p.upper_char());
    }
    s
}

/// SAN of a legal move with `+` or `#`.
pub fn move_to_san<R: Rules>(pos: &Position<R>, mv: Move) -> String {
    let legal = pos.legal_moves();
    move_to_san_with(pos, mv, &legal)
}

/// SAN with suffix, reusing the legal move list of `pos`.
pub fn move_to_san_with<R: Rules>(pos: &Position<R>, mv: Move, legal: &MoveList) -> String {
    let mut s = move_to_san_plain(pos, mv, legal);
    let mut after = pos.clone();
    after.play_unchecked(mv);
    // '#' for a move that wins the game at once (mate, or a variant's win), '+' for a check.
    if matches!(after.outcome(), Some(crate::Outcome::Decisive { .. })) {
        s.push('#');
    } else if after.is_check() {
        s.push('+');
    }
    s
}

struct Pattern {
    role: Option<Role>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

fn matches_pattern<R: Rules>(pos: &Position<R>, mv: Move, p: &Pattern) -> bool {
    if mv.is_castle() || mv.to() != p.to || mv.drop_role().is_some() {
        return false;
    }
    let from = mv.from();
    if p.from_file.is_some_and(|f| f != from.file()) || p.from_rank.is_some_and(|r| r != from.rank()) {
        return false;
    }
    if let Some(role) = p.role {
        if pos.board().role_at(from) != Some(role) {
            return false;
        }
    }
    mv.promotion() == p.promotion
}

/// Reads SAN (leniently) and returns the one legal move it names.
pub fn parse_san<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, SanError> {
    let syntax = || SanError::Syntax(text.to_string());
    let mut t = text.trim();
    if !t.is_ascii() || t.is_empty() || t.len() > 16 {
        return Err(syntax());
    }
    if let Some(stripped) = t.strip_suffix("e.p.") {
        t = stripped.trim_end();
    }
    t = t.trim_end_matches(['+', '#', '!', '?']);
    if let Some(stripped) = t.strip_suffix("e.p.") {
        t = stripped.trim_end();
    }
    let legal = pos.legal_moves();

    let castle = match t {
        "O-O" | "0-0" | "o-o" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(CastlingSide::QueenSide),
        _ => None,
    };
    if let Some(side) = castle {
        return legal
            .iter()
            .find(|m| m.is_castle() && castling_side(*m) == side)
            .ok_or_else(|| SanError::Illegal(text.to_string()));
    }

    // Drops: "R@e4", "P@e4" or "@e4" (a pawn).
    if let Some((piece, square)) = t.split_once('@') {
        let role = match piece {
            "" => Role::Pawn,
            p if p.len() == 1 => Role::from_char(p.chars().next().unwrap_or('?')).ok_or_else(syntax)?,
            _ => return Err(syntax()),
        };
        let to = Square::parse(square).ok_or_else(syntax)?;
        return legal
            .iter()
            .find(|m| m.drop_role() == Some(role) && m.to() == to)
            .ok_or_else(|| SanError::Illegal(text.to_string()));
    }

    let bytes = t.as_bytes();
    // Promotion suffix: "=Q", "Q" or "q" after the destination rank.
    let mut end = bytes.len();
    let mut promotion = None;
    if end >= 3 && Role::from_char(bytes[end - 1] as char).is_some() && !(bytes[end - 1] as char).is_ascii_digit() {
        let prev = bytes[end - 2];
        if prev == b'=' || prev.is_ascii_digit() {
            promotion = Role::from_char(bytes[end - 1] as char);
            end -= if prev == b'=' { 2 } else { 1 };
        }
    }
    if promotion == Some(Role::Pawn) {
        return Err(syntax());
    }
    if end < 2 {
        return Err(syntax());
    }
    let to = Square::parse(&t[end - 2..end]).ok_or_else(syntax)?;
    let prefix: Vec<char> = t[..end - 2].chars().filter(|c| !matches!(c, 'x' | 'X' | ':' | '-')).collect();

    // Candidate readings of the prefix: (role, from file, from rank).
    let mut readings: Vec<Pattern> = Vec::new();
    let mut push_reading = |role: Option<Role>, rest: &[char], default_pawn: bool| {
        let mut from_file = None;
        let mut from_rank = None;
        let mut i = 0;
        if let Some(f) = rest.get(i).and_then(|c| File::from_char(*c)) {
            from_file = Some(f);
            i += 1;
        }
        if let Some(r) = rest.get(i).and_then(|c| Rank::from_char(*c)) {
            from_rank = Some(r);
            i += 1;
        }
        if i != rest.len() {
            return;
        }
        let role = match role {
            Some(r) => Some(r),
            // A bare from-square ("g1f3") may be any piece; otherwise no letter means a pawn.
            None if from_file.is_some() && from_rank.is_some() => None,
            None if default_pawn => Some(Role::Pawn),
            None => None,
        };
        readings.push(Pattern { role, from_file, from_rank, to, promotion });
    };
    match prefix.first() {
        Some(&c) if c.is_ascii_uppercase() => match Role::from_char(c) {
            Some(role) => push_reading(Some(role), &prefix[1..], true),
            None => return Err(syntax()),
        },
        Some(&'b') => {
            // 'b' is the b-file in SAN; as a lenient fallback it may be a bishop.
            push_reading(None, &prefix, true);
            push_reading(Some(Role::Bishop), &prefix[1..], true);
        }
        Some(&c) if matches!(c, 'n' | 'r' | 'q' | 'k' | 'p') => push_reading(Role::from_char(c), &prefix[1..], true),
        _ => push_reading(None, &prefix, true),
    }
    if readings.is_empty() {
        return Err(syntax());
    }
    for reading in &readings {
        let mut found: Option<Move> = None;
        let mut count = 0;
        for mv in legal.iter() {
            if matches_pattern(pos, mv, reading) {
                count += 1;
                found = Some(mv);
            }
        }
        // A pawn move written without a from-file is the one along the file (the writer names the
        // file of any pawn move that changes file: Berolina steps, relayed pawns in knight relay).
        if count > 1 && reading.role == Some(Role::Pawn) && reading.from_file.is_none() {
            let mut straight =
                legal.iter().filter(|&m| matches_pattern(pos, m, reading) && m.from().file() == to.file());
            if let (Some(mv), None) = (straight.next(), straight.next()) {
                return Ok(mv);
            }
        }
        match (count, found) {
            (1, Some(mv)) => return Ok(mv),
            (n, _) if n > 1 => return Err(SanError::Ambiguous(text.to_string())),
            _ => {}
        }
    }
    // Castling written as a king move in UCI style (e1g1 / e1h1).
    if let Ok(mv) = crate::uci::parse_uci_move(pos, t) {
        return Ok(mv);
    }
    Err(SanError::Illegal(text.to_string()))
}
