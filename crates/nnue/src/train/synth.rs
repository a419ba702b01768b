//! Synthetic training positions: random legal playouts from the start position, each position
//! labelled with the material balance (P 100, N 300, B 300, R 500, Q 900) as its score and a result
//! that follows it. For tests and speed measurements.

use mysl_core::{Chess, Color, Role};

use super::data::Raw;
use super::rng::Rng;
use crate::record::{GameResult, Record};

/// Material balance, White's view, centipawns.
pub fn material(rec: &Record) -> i32 {
    rec.pieces()
        .map(|(color, role, _)| {
            let v = match role {
                Role::Pawn => 100,
                Role::Knight | Role::Bishop => 300,
                Role::Rook => 500,
                Role::Queen => 900,
                Role::King => 0,
            };
            if color == Color::White {
                v
            } else {
                -v
            }
        })
        .sum()
}

/// `count` records from seeded random playouts.
pub fn material_records(count: usize, seed: u64) -> Vec<Raw> {
    let mut rng = Rng::stream(seed, 0x5717);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Chess::startpos();
        let plies = 16 + rng.below(200);
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(mv);
            if ply < 4 || rng.below(3) != 0 {
                continue;
            }
            let mut rec = Record::new(pos.board(), pos.turn(), pos.ep_square(), 0, 1, 0, GameResult::Draw);
            let m = material(&rec);
            rec.score = m as i16;
            rec.result = match m {
                m if m >= 200 => GameResult::WhiteWin,
                m if m <= -200 => GameResult::BlackWin,
                _ => GameResult::Draw,
            };
            out.push(rec.to_bytes());
            if out.len() == count {
                break;
            }
        }
    }
    out
}
