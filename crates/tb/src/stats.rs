//! Per-ending totals, counted the two ways of `../shared/data/tb-stats.tsv`.

use crate::index::transform;
use crate::table::Table;
use crate::value::{self, INVALID};

/// Totals for one side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub cursed_wins: u64,
    pub blessed_losses: u64,
    pub longest_win: u32,
    pub longest_loss: u32,
    pub longest_cursed_win: u32,
    pub longest_blessed_loss: u32,
}

/// How positions are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// Every legal position on the full board (no symmetry reduction), as the Gaviota rows.
    FullBoard,
    /// As the Syzygy generator counts: positions up to symmetry, but identical pieces told apart.
    SyzygyUnique,
}

/// Number of full-board positions a canonical position stands for, and how many of those lie with all
/// pieces on the a1-h8 diagonal.
fn orbit(t: &Table, sq: &[u8]) -> (u64, u64) {
    if t.layout.pawns {
        return (2, 0);
    }
    // only a position with both kings on the diagonal can be its own mirror image
    if sq[0] & 7 != sq[0] >> 3 || sq[1] & 7 != sq[1] >> 3 {
        return (8, 0);
    }
    let on_diag = sq.iter().all(|&s| s & 7 == s >> 3);
    if on_diag {
        return (4, 2);
    }
    // reflection in the diagonal maps the position onto itself (identical pieces swapped)?
    let mut a: Vec<(usize, u8)> = sq.iter().enumerate().map(|(i, &s)| (piece_kind(t, i), s)).collect();
    let mut b: Vec<(usize, u8)> = sq.iter().enumerate().map(|(i, &s)| (piece_kind(t, i), transform(s, 4))).collect();
    a.sort_unstable();
    b.sort_unstable();
    if a == b {
        (4, 0)
    } else {
        (8, 0)
    }
}

fn piece_kind(t: &Table, i: usize) -> usize {
    let (c, r) = t.layout.pieces[i];
    c as usize * 8 + r as usize
}

fn factorials(t: &Table) -> u64 {
    let p = &t.layout.pieces;
    let mut f = 1u64;
    let mut i = 0;
    while i < p.len() {
        let mut j = i + 1;
        while j < p.len() && p[j] == p[i] {
            j += 1;
        }
        for k in 1..=(j - i) as u64 {
            f *= k;
        }
        i = j;
    }
    f
}

/// Totals of a metric (`dtz = false`: DTM classes win/draw/loss; `true`: WDL50 classes from DTZ50).
pub fn stats(t: &Table, dtz: bool, counting: Counting) -> [SideStats; 2] {
    let mut out = [SideStats::default(); 2];
    let n = t.layout.len();
    let mut sq = [0u8; 8];
    let kf = factorials(t);
    let vals = if dtz { &t.dtz } else { &t.dtm };
    for idx in 0..t.layout.size {
        let i = idx as usize;
        if vals[0][i] == INVALID && vals[1][i] == INVALID {
            continue;
        }
        if t.layout.decode(idx, &mut sq).is_none() {
            continue;
        }
        let (orb, diag) = orbit(t, &sq[..n]);
        let w = match counting {
            Counting::FullBoard => orb,
            Counting::SyzygyUnique if t.layout.pawns => kf * orb / 2,
            Counting::SyzygyUnique => kf * (orb + 2 * diag) / 8,
        };
        for side in 0..2 {
            let v = vals[side][i];
            if v == INVALID {
                continue;
            }
            let s = &mut out[side];
            s.positions += w;
            let lvl = value::level(v) as u32;
            if v == 0 {
                s.draws += w;
            } else if dtz && lvl > 100 {
                if v > 0 {
                    s.cursed_wins += w;
                    s.longest_cursed_win = s.longest_cursed_win.max(lvl);
                } else {
                    s.blessed_losses += w;
                    s.longest_blessed_loss = s.longest_blessed_loss.max(lvl);
                }
            } else if v > 0 {
                s.wins += w;
                s.longest_win = s.longest_win.max(lvl);
            } else {
                s.losses += w;
                s.longest_loss = s.longest_loss.max(lvl);
            }
        }
    }
    out
}
