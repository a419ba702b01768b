//! Value encoding shared by the generator, files and prober.
//!
//! An `i16` per position, from the side to move's view: `0` draw; `d > 0` a win in `d` plies; `-1 - d` a
//! loss in `d` plies (`-1` = checkmated now); [`INVALID`] for illegal positions and holes of the index.

pub const INVALID: i16 = i16::MIN;

/// Plies of a decided value.
#[inline]
pub fn level(v: i16) -> i32 {
    if v > 0 {
        v as i32
    } else {
        -1 - v as i32
    }
}

/// The value of a position whose best move leads to a position of value `c` (the opponent's view).
#[inline]
pub fn parent_of(c: i16) -> i16 {
    if c < 0 {
        -c
    } else if c > 0 {
        -c - 2
    } else {
        0
    }
}

/// Ordering for the side to move: quicker wins, then draws, then slower losses.
#[inline]
pub fn rank(v: i16) -> i32 {
    if v > 0 {
        100_000 - v as i32
    } else if v == 0 {
        0
    } else {
        -100_000 + level(v)
    }
}

/// WDL under the 50-move rule of a DTZ-scale value, after a zeroing move:
/// -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win.
#[inline]
pub fn wdl_of_dtz(v: i16) -> i8 {
    if v > 0 {
        if v <= 100 {
            2
        } else {
            1
        }
    } else if v == 0 {
        0
    } else if level(v) <= 100 {
        -2
    } else {
        -1
    }
}

/// Syzygy's DTZ number for a DTZ-scale value: wins `d`, losses `-d` (and `-1` for a mated side), 0 draws.
#[inline]
pub fn syzygy_dtz(v: i16) -> i32 {
    if v > 0 {
        v as i32
    } else if v == 0 {
        0
    } else {
        -(level(v).max(1))
    }
}

/// DTM in the python-chess Gaviota convention: plies, positive when the side to move mates, negative when
/// it is mated, 0 for draws (and for a side already checkmated).
#[inline]
pub fn gaviota_dtm(v: i16) -> i32 {
    if v > 0 {
        v as i32
    } else if v == 0 {
        0
    } else {
        -level(v)
    }
}

/// A DTZ-scale value standing for WDL50 `w` (-2..=2): 1 win, 101 cursed win, 0 draw, a loss in 101 blessed
/// loss, a loss in 1 loss ([`wdl_of_dtz`] gives `w` back).
#[inline]
pub fn dtz_of_wdl(w: i8) -> i16 {
    match w {
        2 => 1,
        1 => 101,
        0 => 0,
        -1 => -1 - 101,
        _ => -1 - 1,
    }
}

/// The value for the side to move after a zeroing move into a position whose DTZ-scale value (from the
/// opponent's view) is `c`: into a loss 1, a blessed loss 101, a draw 0, a cursed win a loss in 101, a win a
/// loss in 1 (the zeroing move itself is the ply). This is the count of the Syzygy generator: with it the
/// longest DTZ of every 3-4 piece ending equals the generator's statistics in tb-stats.tsv. (Counting a
/// forced losing capture as a loss in 0 instead matches more values probed from Syzygy files, which may be
/// one ply low where a table stores moves, but breaks those statistics; see docs/tablebases.md.)
pub(crate) fn zeroing_exit(c: i16) -> i16 {
    match wdl_of_dtz(c) {
        -2 => 1,
        -1 => 101,
        0 => 0,
        1 => -1 - 101,
        _ => -1 - 1,
    }
}
