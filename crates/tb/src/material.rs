//! Material signatures such as `KQvKR`: which pieces each side has.

use std::fmt;

use mysl_core::{Color, Role};

use crate::TbError;

/// Most pieces (kings included) an ending may have.
pub const MAX_PIECES: usize = 5;

/// Roles in the order they are written in a signature (after the king) and ranked for normalization.
pub(crate) const ROLE_ORDER: [Role; 5] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// Piece counts per side; each side has exactly one king (implied).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Counts of pawn, knight, bishop, rook, queen (indexed by `Role::index`) for white and black.
    pub(crate) counts: [[u8; 5]; 2],
}

impl Material {
    /// Parses `KQvKR`, `KRPvKR`, `KvK` (case-insensitive for the piece letters, `v` separator).
    pub fn parse(s: &str) -> Result<Material, TbError> {
        let bad = |why: &str| TbError::BadMaterial { text: s.to_string(), why: why.to_string() };
        let (w, b) = s.split_once(['v', 'V']).ok_or_else(|| bad("expected two sides separated by 'v'"))?;
        let mut counts = [[0u8; 5]; 2];
        for (side, text) in [w, b].iter().enumerate() {
            let mut chars = text.chars();
            if !matches!(chars.next(), Some('K' | 'k')) {
                return Err(bad("each side must start with its king 'K'"));
            }
            for c in chars {
                let role = Role::from_char(c).ok_or_else(|| bad(&format!("unknown piece letter '{c}'")))?;
                if role == Role::King {
                    return Err(bad("only one king per side"));
                }
                counts[side][role.index()] += 1;
            }
        }
        let m = Material { counts };
        if m.count() > MAX_PIECES {
            return Err(bad(&format!("{} pieces; at most {MAX_PIECES} are supported", m.count())));
        }
        Ok(m)
    }

    /// Material of a list of pieces (kings included, one per side assumed).
    pub(crate) fn from_pieces(pieces: impl Iterator<Item = (Color, Role)>) -> Material {
        let mut counts = [[0u8; 5]; 2];
        for (c, r) in pieces {
            if r != Role::King {
                counts[c.index()][r.index()] += 1;
            }
        }
        Material { counts }
    }

    /// Number of pieces including both kings.
    pub fn count(&self) -> usize {
        2 + self.counts.iter().flatten().map(|&c| c as usize).sum::<usize>()
    }

    pub fn side_count(&self, color: Color) -> usize {
        1 + self.counts[color.index()].iter().map(|&c| c as usize).sum::<usize>()
    }

    pub fn has_pawns(&self) -> bool {
        self.counts[0][Role::Pawn.index()] + self.counts[1][Role::Pawn.index()] > 0
    }

    pub fn count_of(&self, color: Color, role: Role) -> u8 {
        if role == Role::King {
            1
        } else {
            self.counts[color.index()][role.index()]
        }
    }

    /// The same material with the colors exchanged.
    pub fn flipped(&self) -> Material {
        Material { counts: [self.counts[1], self.counts[0]] }
    }

    fn side_key(&self, side: usize) -> [u8; 6] {
        let c = &self.counts[side];
        let n = c.iter().sum::<u8>();
        [
            n,
            c[Role::Queen.index()],
            c[Role::Rook.index()],
            c[Role::Bishop.index()],
            c[Role::Knight.index()],
            c[Role::Pawn.index()],
        ]
    }

    /// True when Black's side ranks above White's, so that tables store this material with the colors
    /// exchanged (the stronger side is White, as in Syzygy's file names).
    pub fn needs_flip(&self) -> bool {
        self.side_key(1) > self.side_key(0)
    }

    /// White the stronger side (more pieces, then more queens, rooks, bishops, knights, pawns).
    pub fn normalized(&self) -> Material {
        if self.needs_flip() {
            self.flipped()
        } else {
            *self
        }
    }

    pub fn is_symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// Pieces in table order: white king, black king, then White's pieces (Q, R, B, N, P), then Black's.
    pub(crate) fn pieces(&self) -> Vec<(Color, Role)> {
        let mut v = vec![(Color::White, Role::King), (Color::Black, Role::King)];
        for color in Color::ALL {
            for role in ROLE_ORDER {
                for _ in 0..self.counts[color.index()][role.index()] {
                    v.push((color, role));
                }
            }
        }
        v
    }

    /// Every ending this one can turn into by one capture and/or promotion, normalized, without `KvK`.
    pub fn successors(&self) -> Vec<Material> {
        let mut out = Vec::new();
        let mut push = |m: Material| {
            let m = m.normalized();
            if m.count() > 2 && !out.contains(&m) {
                out.push(m);
            }
        };
        for side in 0..2 {
            for role in ROLE_ORDER {
                if self.counts[side][role.index()] > 0 {
                    let mut m = *self;
                    m.counts[side][role.index()] -= 1;
                    push(m);
                }
            }
            // promotions, with and without a capture
            if self.counts[side][Role::Pawn.index()] > 0 {
                for promo in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    let mut m = *self;
                    m.counts[side][Role::Pawn.index()] -= 1;
                    m.counts[side][promo.index()] += 1;
                    push(m);
                    for role in ROLE_ORDER {
                        if m.counts[1 - side][role.index()] > 0 {
                            let mut m2 = m;
                            m2.counts[1 - side][role.index()] -= 1;
                            push(m2);
                        }
                    }
                }
            }
        }
        out
    }

    /// All normalized endings with 3..=n pieces, smallest first.
    pub fn all_up_to(n: usize) -> Vec<Material> {
        // every multiset of at most n-2 non-king pieces for one side
        fn sides(start: usize, left: usize, cur: &mut [u8; 5], out: &mut Vec<[u8; 5]>) {
            out.push(*cur);
            if left == 0 {
                return;
            }
            for (i, role) in ROLE_ORDER.iter().enumerate().skip(start) {
                cur[role.index()] += 1;
                sides(i, left - 1, cur, out);
                cur[role.index()] -= 1;
            }
        }
        let k = n.saturating_sub(2);
        let mut one = Vec::new();
        sides(0, k, &mut [0; 5], &mut one);
        let mut out: Vec<Material> = Vec::new();
        for w in &one {
            for b in &one {
                let m = Material { counts: [*w, *b] }.normalized();
                if m.count() > 2 && m.count() <= n && !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        out.sort_by_key(|m| (m.count(), m.to_string()));
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, color) in Color::ALL.into_iter().enumerate() {
            if i == 1 {
                f.write_str("v")?;
            }
            f.write_str("K")?;
            for role in ROLE_ORDER {
                for _ in 0..self.counts[color.index()][role.index()] {
                    write!(f, "{}", role.upper_char())?;
                }
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Material {
    type Err = TbError;
    fn from_str(s: &str) -> Result<Material, TbError> {
        Material::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let m = Material::parse("KRPvKR").expect("test value");
        assert_eq!(m.to_string(), "KRPvKR");
        assert_eq!(m.count(), 5);
        assert!(m.has_pawns());
        assert_eq!(Material::parse("KRvKQ").expect("test value").normalized().to_string(), "KQvKR");
        assert!(Material::parse("KQRBNvK").is_err());
        assert!(Material::parse("KQvR").is_err());
        assert!(Material::parse("KXvK").is_err());
    }

    #[test]
    fn all_endings_up_to_four() {
        let all = Material::all_up_to(4);
        // 5 three-piece and 30 four-piece endings, as in the Syzygy set
        assert_eq!(all.iter().filter(|m| m.count() == 3).count(), 5);
        assert_eq!(all.iter().filter(|m| m.count() == 4).count(), 30);
        assert!(all.iter().any(|m| m.to_string() == "KBvKN"));
        assert!(all.iter().any(|m| m.to_string() == "KNvKP"));
    }

    #[test]
    fn successors_of_krpvkr() {
        let m = Material::parse("KRPvKR").expect("test value");
        let names: Vec<String> = m.successors().iter().map(|m| m.to_string()).collect();
        for n in ["KRPvK", "KRvKR", "KQRvKR", "KRvKP", "KQRvK", "KRRvKR"] {
            assert!(names.contains(&n.to_string()), "{n} missing from {names:?}");
        }
    }
}
