//! BGL: distance budgets.

/// Condition BGL: each side has a budget of distance (in hundredths of a square's width), or
/// an unlimited one. A move costs the distance from its departure to its arrival square
/// (`round(100 * sqrt(dx² + dy²))`, so 100 a rook step, 141 a diagonal one, 224 a knight move;
/// castling: the king's two squares) and is possible only if the mover's side can pay it; a piece
/// attacks (gives check) only within its side's budget. `BGL w b`: a budget per side, each side
/// pays its own moves; `BGL n`: one budget both sides pay every move from (Popeye's
/// `BGL_global`). The budgets after a move are printed after it: ` (4/10.76)`, ` (5.5)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bgl {
    pub on: bool,
    /// One budget paid by both sides (`BGL n`).
    pub global: bool,
    /// Budgets left (white, black) in hundredths, [`BGL_INFINITE`] for `-`.
    pub left: [i32; 2],
}

/// An unlimited BGL budget (`-`).
pub const BGL_INFINITE: i32 = i32::MAX;

impl Bgl {
    pub const OFF: Bgl = Bgl { on: false, global: false, left: [BGL_INFINITE; 2] };

    /// The budgets as Popeye prints them after a move: ` (4/10.76)`, or ` (5.5)` when global.
    pub fn text(&self) -> String {
        if self.global {
            format!(" ({})", bgl_number(self.left[0]))
        } else {
            format!(" ({}/{})", bgl_number(self.left[0]), bgl_number(self.left[1]))
        }
    }
}

/// A budget the way Popeye writes it: `-` (unlimited), `4`, `6.5`, `1.05`.
pub fn bgl_number(v: i32) -> String {
    if v == BGL_INFINITE {
        "-".to_string()
    } else if v % 100 == 0 {
        format!("{}", v / 100)
    } else if v % 10 == 0 {
        format!("{}.{}", v / 100, (v % 100) / 10)
    } else {
        format!("{}.{:02}", v / 100, v % 100)
    }
}

/// The BGL cost of a move from `a` to `b`: the distance in hundredths, rounded.
#[inline]
pub fn bgl_cost(a: u8, b: u8) -> i32 {
    static COST: [[i32; 8]; 8] = {
        // round(100 * sqrt(dx² + dy²)) for dx, dy in 0..8 (integer square root, then rounding:
        // isqrt(4n) gives the value to the nearest half).
        let mut t = [[0i32; 8]; 8];
        let mut dx = 0;
        while dx < 8 {
            let mut dy = 0;
            while dy < 8 {
                let n = ((dx * dx + dy * dy) * 10000) as u64;
                // floor(sqrt(n)), then round: sqrt(n) >= r + 0.5 iff 4n >= (2r + 1)².
                let mut r = 0u64;
                while (r + 1) * (r + 1) <= n {
                    r += 1;
                }
                if 4 * n >= (2 * r + 1) * (2 * r + 1) {
                    r += 1;
                }
                t[dx][dy] = r as i32;
                dy += 1;
            }
            dx += 1;
        }
        t
    };
    let dx = (a % 8).abs_diff(b % 8) as usize;
    let dy = (a / 8).abs_diff(b / 8) as usize;
    COST[dx][dy]
}

/// A budget after paying `cost` (an unlimited budget stays unlimited).
#[inline]
pub(crate) fn bgl_pay(v: i32, cost: i32) -> i32 {
    if v == BGL_INFINITE {
        v
    } else {
        v - cost
    }
}
