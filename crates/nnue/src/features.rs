//! Input features of the perspective network: 768 per side (colour relative to the perspective ×
//! role × square, the board flipped vertically for Black), so one set of weights serves both sides.

use mysl_core::{Color, Role, Square};

/// Inputs per perspective.
pub const INPUTS: usize = 768;

/// The feature of a `color` `role` on `sq` as seen by `perspective`.
#[inline(always)]
pub fn index(perspective: Color, color: Color, role: Role, sq: Square) -> usize {
    let sq = if perspective == Color::Black { sq as usize ^ 56 } else { sq as usize };
    ((color != perspective) as usize) * 384 + role as usize * 64 + sq
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_perspectives_mirror_each_other() {
        for sq in Square::ALL {
            for role in Role::ALL {
                for color in Color::ALL {
                    let w = index(Color::White, color, role, sq);
                    let b = index(Color::Black, !color, role, sq.flip_vertical());
                    assert_eq!(w, b, "{color:?} {role:?} {sq}");
                    assert!(w < INPUTS);
                }
            }
        }
        assert_eq!(index(Color::White, Color::White, Role::Pawn, Square::A1), 0);
        assert_eq!(index(Color::White, Color::Black, Role::King, Square::H8), 767);
    }
}
