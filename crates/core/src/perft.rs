//! Perft: counting the leaves of the legal move tree, and reading perft suite files
//! (`variant;FEN;D N;D N;...`, `#` comments).

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;

/// Counts the leaf nodes `depth` plies below `pos` (make/unmake, bulk counting at the last ply).
pub fn perft<R: Rules>(pos: &mut Position<R>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists = vec![MoveList::new(); depth as usize];
    perft_inner(pos, depth, &mut lists)
}

fn perft_inner<R: Rules>(pos: &mut Position<R>, depth: u32, lists: &mut [MoveList]) -> u64 {
    if depth == 1 {
        return pos.count_legal_moves();
    }
    let Some((list, rest)) = lists.split_first_mut() else {
        return 0;
    };
    pos.legal_moves_into(list);
    let mut nodes = 0;
    for &mv in list.as_slice() {
        pos.play_unchecked(mv);
        nodes += perft_inner(pos, depth - 1, rest);
        pos.unplay(mv);
    }
    nodes
}

/// Perft per root move (for `--divide`), in generation order.
pub fn perft_divide<R: Rules>(pos: &mut Position<R>, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves.iter() {
        pos.play_unchecked(mv);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unplay(mv);
        out.push((mv, n));
    }
    out
}

/// Perft through copy-make (clone per move), as an independent check of make/unmake.
pub fn perft_copy_make<R: Rules>(pos: &Position<R>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            perft_copy_make(&child, depth - 1)
        })
        .sum()
}

/// One line of a perft suite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// 1-based line number in the file.
    pub line: usize,
    pub variant: String,
    pub fen: String,
    /// (depth, expected leaf count), in file order.
    pub counts: Vec<(u32, u64)>,
}

/// A malformed suite line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("perft suite line {line}: {message}")]
pub struct PerftSuiteError {
    pub line: usize,
    pub message: String,
}

/// Parses a perft suite (`variant;FEN;D N;...`; blank lines and `#` comments skipped).
pub fn parse_perft_suite(text: &str) -> Result<Vec<PerftCase>, PerftSuiteError> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = l.split(';').map(str::trim).collect();
        if parts.len() < 3 {
            return Err(PerftSuiteError { line, message: format!("expected 'variant;FEN;D N;...', found '{l}'") });
        }
        let mut counts = Vec::new();
        for p in &parts[2..] {
            if p.is_empty() {
                continue;
            }
            let mut it = p.split_whitespace();
            let (Some(d), Some(n), None) = (it.next(), it.next(), it.next()) else {
                return Err(PerftSuiteError { line, message: format!("expected 'DEPTH COUNT', found '{p}'") });
            };
            let d: u32 = d
                .trim_start_matches('D')
                .parse()
                .map_err(|_| PerftSuiteError { line, message: format!("bad depth '{d}'") })?;
            let n: u64 = n.parse().map_err(|_| PerftSuiteError { line, message: format!("bad count '{n}'") })?;
            counts.push((d, n));
        }
        cases.push(PerftCase { line, variant: parts[0].to_string(), fen: parts[1].to_string(), counts });
    }
    Ok(cases)
}
