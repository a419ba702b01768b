//! Static exchange evaluation: does a capture sequence on one square win at least `threshold`?
//! Each variant's geometry (Cylinder's wrapped files, Berolina's straight pawn captures, Knight
//! Relay's relayed knight jumps). Other variant rules (compulsory captures, pockets, dice) are not
//! modelled: there it is an ordering and pruning heuristic only.

use mysl_core::variants;
use mysl_core::{Color, Move, Position, Role, Rules, Variant};

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
    let mut attackers = variants::attackers_to::<R>(board, to, Color::White, occ)
        | variants::attackers_to::<R>(board, to, Color::Black, occ);
    // A capturing pawn leaves the line it captured along: diagonal, or straight in Berolina.
    let pawn_line_diagonal = !matches!(R::VARIANT, Variant::Berolina);
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
        let pawn = role == Role::Pawn;
        if matches!(role, Role::Bishop | Role::Queen) || (pawn && pawn_line_diagonal) {
            attackers |= variants::bishop_attacks::<R>(to, occ) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) || (pawn && !pawn_line_diagonal) {
            attackers |= variants::rook_attacks::<R>(to, occ) & orthogonal;
        }
    }
    result
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use mysl_core::uci;

    fn see_in<R: Rules>(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::<R>::from_fen(fen).unwrap();
        see_ge(&pos, uci::parse_uci_move(&pos, mv).unwrap(), threshold)
    }

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        see_in::<mysl_core::Orthodox>(fen, mv, threshold)
    }

    /// Berolina pawns capture straight ahead: a pawn on d6 defends d5, one on c6 does not; and a pawn's
    /// capture along a file opens that file.
    #[test]
    fn berolina_pawns_defend_straight_ahead() {
        let see_b = see_in::<mysl_core::Berolina>;
        assert!(!see_b("4k3/8/3p4/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0));
        assert!(see_b("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100));
        // Rook takes a pawn defended straight by a pawn, a second rook behind: R for 2P, still losing
        // 300; the black rook on d8 behind the defender joins after the pawn's capture.
        assert!(!see_b("3rk3/8/3p4/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", -250));
    }

    /// Cylinder: a knight on h7 defends a5 across the edge (files wrap).
    #[test]
    fn cylinder_defence_across_the_edge() {
        let see_c = see_in::<mysl_core::Cylinder>;
        assert!(!see_c("4k3/7n/8/p7/8/8/8/Q3K3 w - - 0 1", "a1a5", 0));
        assert!(see("4k3/7n/8/p7/8/8/8/Q3K3 w - - 0 1", "a1a5", 100));
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
