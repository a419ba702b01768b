//! Symmetries of a variant's board: square maps that carry every position of an ending to one of the same
//! value, so that the generator solves one position of each class (the smallest index) and copies its value
//! to the others. [`super::verify`] checks every position, the copies included, against its own successors,
//! so a map that is not a symmetry of the rules is caught there.
//!
//! Every supported variant is symmetric under the file mirror (a↔h). Without pawns the rank mirror is a
//! symmetry too, and on the orthodox board the diagonal one (8 maps in all); the cylinder has no diagonal
//! symmetry, but every rotation of its files is one (16 maps with pawns, 32 without).

use mysl_core::{Role, Rules, Variant};

use super::{Pieces, MAX_PIECES};

pub(super) struct Symmetry {
    /// The maps other than the identity (square → square).
    maps: Vec<[u8; 64]>,
    n: usize,
    /// Runs of identical pieces in table order (start, length ≥ 2): their squares are stored rising.
    runs: Vec<(usize, usize)>,
}

fn map(f: impl Fn(i32, i32) -> (i32, i32)) -> [u8; 64] {
    let mut m = [0u8; 64];
    for (s, t) in m.iter_mut().enumerate() {
        let (file, rank) = f(s as i32 % 8, s as i32 / 8);
        *t = (rank * 8 + file) as u8;
    }
    m
}

impl Symmetry {
    pub(super) fn new<R: Rules>(pieces: &Pieces) -> Symmetry {
        let pawns = pieces.0.iter().any(|p| p.role == Role::Pawn);
        let mut generators = Vec::new();
        match R::VARIANT {
            Variant::Cylinder => {
                generators.push(map(|f, r| (7 - f, r)));
                generators.push(map(|f, r| ((f + 1) % 8, r)));
                if !pawns {
                    generators.push(map(|f, r| (f, 7 - r)));
                }
            }
            Variant::Chess | Variant::Antichess | Variant::AntichessNoEp | Variant::Berolina | Variant::KnightRelay => {
                generators.push(map(|f, r| (7 - f, r)));
                if !pawns {
                    generators.push(map(|f, r| (f, 7 - r)));
                    generators.push(map(|f, r| (r, f)));
                }
            }
            // no assumption for the others
            _ => {}
        }
        // the group generated: compose until nothing new appears
        let identity = map(|f, r| (f, r));
        let mut group = vec![identity];
        let mut k = 0;
        while k < group.len() {
            for g in &generators {
                let mut c = [0u8; 64];
                for s in 0..64 {
                    c[s] = g[group[k][s] as usize];
                }
                if !group.contains(&c) {
                    group.push(c);
                }
            }
            k += 1;
        }
        group.remove(0);
        let n = pieces.0.len();
        let mut runs = Vec::new();
        let mut start = 0;
        for k in 1..=n {
            if k == n || pieces.0[k] != pieces.0[start] {
                if k - start >= 2 {
                    runs.push((start, k - start));
                }
                start = k;
            }
        }
        Symmetry { maps: group, n, runs }
    }

    /// Number of positions in a class at most (the identity included).
    #[cfg(test)]
    pub(super) fn order(&self) -> usize {
        self.maps.len() + 1
    }

    /// The smallest index among the images of a valid index (identical pieces on rising squares).
    #[inline]
    pub(super) fn canonical(&self, idx: usize) -> usize {
        if self.maps.is_empty() {
            return idx;
        }
        let n = self.n;
        let mut squares = [0u8; MAX_PIECES];
        for (k, s) in squares.iter_mut().enumerate().take(n) {
            *s = ((idx >> (6 * (n - 1 - k))) & 63) as u8;
        }
        let turn = idx >> (6 * n) << (6 * n);
        let mut best = idx;
        for m in &self.maps {
            let mut t = [0u8; MAX_PIECES];
            for k in 0..n {
                t[k] = m[squares[k] as usize];
            }
            for &(s, len) in &self.runs {
                t[s..s + len].sort_unstable();
            }
            let v = t[..n].iter().fold(0usize, |v, &s| v * 64 + s as usize);
            best = best.min(turn | v);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_orders() {
        let krk = Pieces::parse::<mysl_core::Cylinder>("KRvK").expect("test ending");
        let kpk = Pieces::parse::<mysl_core::Cylinder>("KPvK").expect("test ending");
        assert_eq!(Symmetry::new::<mysl_core::Cylinder>(&krk).order(), 32);
        assert_eq!(Symmetry::new::<mysl_core::Cylinder>(&kpk).order(), 16);
        assert_eq!(Symmetry::new::<mysl_core::KnightRelay>(&krk).order(), 8);
        assert_eq!(Symmetry::new::<mysl_core::Berolina>(&kpk).order(), 2);
        assert_eq!(Symmetry::new::<mysl_core::Dice>(&krk).order(), 1);
    }

    #[test]
    fn canonical_is_the_smallest_image_and_idempotent() {
        let p = Pieces::parse::<mysl_core::Antichess>("RRvN").expect("test ending");
        let sym = Symmetry::new::<mysl_core::Antichess>(&p);
        // rooks on g1 and h2 (rising), knight on a8, White to move
        let idx = (6 * 64 + 15) * 64 + 56;
        let c = sym.canonical(idx);
        assert!(c <= idx);
        assert_eq!(sym.canonical(c), c);
        // the a↔h mirror of the placement: rooks on a2 and b1 → stored rising as b1, a2; knight on h8
        let mirrored = (64 + 8) * 64 + 63;
        assert_eq!(sym.canonical(mirrored), c);
    }
}
