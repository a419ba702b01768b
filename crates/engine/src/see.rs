//! Static exchange evaluation: does a capture sequence on one square win at least `threshold`?
//! Orthodox geometry (variants use it as an ordering heuristic only).

use mysl_core::attacks;
use mysl_core::{Color, Move, Position, Role, Rules};

use crate::search::value;

/// Whether playing `mv` and then the best sequence of recaptures on its square gains at least `threshold`.
pub fn see_ge<R: Rules>(pos: &Position<R>, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() || mv.is_en_passant() || mv.promotion().is_some() || mv.drop_role().is_some() {
        return threshold <= 0;
    }
    let board = pos.board();
    let from = mv.from();
    let to = mv.to();
    let mut swap = board.role_at(to).map_or(0, value) - threshold;
    if swap < 0 {
        return false;
    }
    swap = board.role_at(from).map_or(0, value) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = board.occupied() ^ from ^ to;
    let mut stm = pos.turn();
    let mut attackers = board.attackers_to(to, Color::White, occ) | board.attackers_to(to, Color::Black, occ);
    let diagonal = board.diagonal_sliders();
    let orthogonal = board.orthogonal_sliders();
    let mut result = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let ours = attackers & board.by_color(stm);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let Some((role, sq)) = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King]
            .into_iter()
            .find_map(|r| (ours & board.by_role(r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        if role == Role::King {
            // The king may only take last: if the opponent still attacks, the capture is illegal.
            return if (attackers & board.by_color(!stm)).any() { !result } else { result };
        }
        swap = value(role) - swap;
        if swap < result as i32 {
            break;
        }
        occ ^= sq;
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occ) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occ) & orthogonal;
        }
    }
    result
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use mysl_core::{uci, Chess};

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Chess::from_fen(fen).unwrap();
        see_ge(&pos, uci::parse_uci_move(&pos, mv).unwrap(), threshold)
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight: +320.
        assert!(see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300));
        // Queen takes a pawn defended by a pawn: loses.
        assert!(!see("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0));
        // Rook takes a rook defended by a rook, with our second rook behind: equal trade at least.
        assert!(see("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0));
    }
}
