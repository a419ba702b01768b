//! Piece placements and the feature changes between two of them: what a move does to the network's
//! inputs, found by comparing the twelve piece bitboards (castling, en passant and promotions need no
//! special case).

use mysl_core::{Board, Color, Role, Square};

use crate::network::Feature;

/// The pieces of a board as eight bitboards (64 bytes, `Copy`): by role, then by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    roles: [u64; 6],
    colors: [u64; 2],
}

impl Placement {
    #[inline]
    pub fn of(board: &Board) -> Placement {
        Placement { roles: Role::ALL.map(|r| board.by_role(r).0), colors: Color::ALL.map(|c| board.by_color(c).0) }
    }

    #[inline(always)]
    fn piece_bits(&self, color: Color, role: Role) -> u64 {
        self.roles[role as usize] & self.colors[color as usize]
    }

    /// Every piece.
    pub fn pieces(&self) -> impl Iterator<Item = Feature> + '_ {
        Color::ALL.into_iter().flat_map(move |c| {
            Role::ALL.into_iter().flat_map(move |r| squares(self.piece_bits(c, r)).map(move |s| (c, r, s)))
        })
    }
}

fn squares(mut bits: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let sq = Square::from_index(bits.trailing_zeros());
            bits &= bits - 1;
            sq
        })
    })
}

/// At most this many pieces appear and disappear (a move: castling 2 and 2, a capturing promotion 1 and 2).
pub const MAX_CHANGES: usize = 4;

/// The pieces added and removed between two placements.
#[derive(Clone, Copy, Debug)]
pub struct Delta {
    added: [Feature; MAX_CHANGES],
    removed: [Feature; MAX_CHANGES],
    n_added: u8,
    n_removed: u8,
}

impl Delta {
    /// The change from `parent` to `child`; `None` when more than [`MAX_CHANGES`] pieces appear or
    /// disappear (not one move: refresh instead).
    #[inline]
    pub fn between(parent: &Placement, child: &Placement) -> Option<Delta> {
        const NONE: Feature = (Color::White, Role::Pawn, Square::A1);
        let mut d = Delta { added: [NONE; MAX_CHANGES], removed: [NONE; MAX_CHANGES], n_added: 0, n_removed: 0 };
        for color in Color::ALL {
            for role in Role::ALL {
                let (before, after) = (parent.piece_bits(color, role), child.piece_bits(color, role));
                let changed = before ^ after;
                if changed == 0 {
                    continue;
                }
                for sq in squares(changed & after) {
                    *d.added.get_mut(d.n_added as usize)? = (color, role, sq);
                    d.n_added += 1;
                }
                for sq in squares(changed & before) {
                    *d.removed.get_mut(d.n_removed as usize)? = (color, role, sq);
                    d.n_removed += 1;
                }
            }
        }
        Some(d)
    }

    pub fn added(&self) -> &[Feature] {
        &self.added[..self.n_added as usize]
    }

    pub fn removed(&self) -> &[Feature] {
        &self.removed[..self.n_removed as usize]
    }
}
