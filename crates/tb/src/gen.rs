//! The retrograde generator.
//!
//! Values are `i16` per position and side to move (see [`crate::value`]): 0 draw, `d > 0` the side to move
//! wins in `d` plies, `-1 - d` it loses in `d` plies, [`INVALID`] for holes of the index and illegal
//! positions. Two metrics are computed with the same machinery:
//!
//! * DTM: plies to mate with best play, the 50-move rule ignored. A move into a smaller ending (capture,
//!   promotion) or into an already solved pawn slice takes that position's DTM plus one ply.
//! * DTZ (the "DTZ scale"): plies to the next zeroing move (capture or pawn move) or mate on the path where
//!   the winner minimises and the loser maximises it, with a zeroing move valued from the WDL50 class of the
//!   position it reaches: into a loss 1, into a blessed loss 101, into a draw 0, into a cursed win a loss in
//!   101, into a win a loss in 1. A win with `d <= 100` is a win under the 50-move rule, `d > 100` a cursed
//!   win; likewise a loss in `d <= 100` or `d > 100` (blessed). This is Syzygy's DTZ50.
//!
//! Algorithm (per batch of pawn slices; without pawns the whole table is one batch; slices are solved from
//! the most advanced pawns down, so every pawn move leads into a finished slice):
//! 1. *Init*: for every index and side, decode; holes and illegal positions become `INVALID`. Generate the
//!    legal moves: no move means mate (loss in 0) or stalemate (draw). The zeroing moves ("exits": captures,
//!    promotions and pawn moves) are valued from the smaller endings already generated (or finished
//!    slices) and the best exit for the side to move is kept in the position's own value, as an
//!    *undecided* state that carries the exit (no other array: 2 bytes per position, side and metric).
//! 2. *Levels* d = 1, 2, ...: the positions decided at level d-1 (a list) give their predecessors by
//!    un-moves (retro moves: the other side's non-pawn pieces stepping back to empty squares, no
//!    un-captures): a predecessor of a loss in d-1 is a win in d; a predecessor of a win in d-1 becomes a
//!    *candidate* loss, verified forward after all predecessors are marked (every move leads to a win of the
//!    opponent in at most d-1, and the best exit is a loss in at most d). Undecided positions whose best exit
//!    is a win in d, or a loss in d, are settled at the same level by a scan of the index chunks that hold
//!    such exits (per chunk the least pending exit level is kept). All values written at level d are level
//!    d, values of level < d are final, so the threads (which share the arrays through relaxed atomics and
//!    change a state by compare-and-swap) always agree: the result does not depend on the number of
//!    threads or the order of work.
//! 3. Positions still undecided are draws.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use mysl_core::{Color, Role};

use crate::index::Layout;
use crate::material::Material;
use crate::pos::{Moves, TbPos};
use crate::table::{trace_mem, MetricTable, Progress, Store, StoredTable, Table, TableSource, Values, DTM, DTZ};
use crate::value::{self, zeroing_exit, INVALID};

/// "No zeroing move" while the best exit is computed.
const NO_EXIT: i16 = i16::MIN + 2;

/// Largest level (plies) a value may have; the working states below leave room for values up to it.
const MAX_LEVEL: i32 = 4000;
/// Working states besides the decided values (which lie in `-1 - MAX_LEVEL..=MAX_LEVEL`): an undecided
/// position, or a candidate loss of the current level, each carrying the value of the best zeroing move
/// ("exit") of the side to move. So a metric needs nothing but its `i16` per position and side to move.
const EXIT_SPAN: i32 = 2 * (MAX_LEVEL + 2) + 1;
const U_BASE: i32 = -30_000;
const C_BASE: i32 = U_BASE + EXIT_SPAN + 8;

#[inline]
fn exit_code(x: i16) -> i32 {
    if x == NO_EXIT {
        0
    } else {
        x as i32 + MAX_LEVEL + 3
    }
}

/// An undecided position whose best exit is `x` (or [`NO_EXIT`]).
#[inline]
fn undecided(x: i16) -> i16 {
    (U_BASE + exit_code(x)) as i16
}

/// A candidate loss whose best exit is `x`.
#[inline]
fn candidate(x: i16) -> i16 {
    (C_BASE + exit_code(x)) as i16
}

#[inline]
fn is_undecided(v: i16) -> bool {
    (U_BASE..U_BASE + EXIT_SPAN).contains(&(v as i32))
}

#[inline]
fn is_candidate(v: i16) -> bool {
    (C_BASE..C_BASE + EXIT_SPAN).contains(&(v as i32))
}

/// The best exit of an undecided or candidate state.
#[inline]
fn exit_of(v: i16) -> i16 {
    let v = v as i32;
    let e = if v >= C_BASE { v - C_BASE } else { v - U_BASE };
    if e == 0 {
        NO_EXIT
    } else {
        (e - MAX_LEVEL - 3) as i16
    }
}

struct Work<'a> {
    layout: &'a Layout,
    /// The metrics solved in this run and their values: `val[k][side][idx]` for metric `metrics[k]`.
    metrics: &'a [usize],
    val: Vec<[Values; 2]>,
    subs: &'a dyn TableSource,
    /// The endings this one converts into, looked up without hashing.
    near: Vec<(Material, &'a Table)>,
    near_files: Vec<(Material, &'a dyn StoredTable)>,
}

/// The value of a zeroing move into a position of value `c` (the opponent's view) in `metric`.
#[inline]
fn exit_value(metric: usize, c: i16) -> i16 {
    if metric == DTM {
        value::parent_of(c)
    } else {
        zeroing_exit(c)
    }
}

/// Better for the side to move?
#[inline]
fn better(a: i16, b: i16) -> bool {
    value::rank(a) > value::rank(b)
}

/// A set of entries `(idx - lo) << 1 | side` (a bitmap shared by the threads; `lo` the first index of the
/// batch of slices in work): the positions decided at one level, or the candidates of a level. A fixed 1 bit
/// per position and side, however many a level decides.
struct Bits(Vec<AtomicU64>);

/// Words of a [`Bits`] per work unit.
const WORDS_JOB: usize = 256;

impl Bits {
    fn new(entries: u64) -> Bits {
        // zeroed by the allocator: a large bitmap gets fresh pages, resident only where a level writes
        let mut v = std::mem::ManuallyDrop::new(vec![0u64; entries.div_ceil(64) as usize]);
        // SAFETY: `AtomicU64` has the size and alignment of `u64` on every target with 64-bit atomics
        // (which this crate needs), and 0 is a valid value; the `ManuallyDrop` vector's allocation
        // (pointer, length, capacity) is handed over whole and freed once, by the new vector, with the
        // same layout.
        Bits(unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<AtomicU64>(), v.len(), v.capacity()) })
    }

    #[inline]
    fn set(&self, e: u32) {
        self.0[(e >> 6) as usize].fetch_or(1 << (e & 63), Relaxed);
    }

    /// Calls `f` for every entry of words `a..b` and clears them.
    #[inline]
    fn take(&self, a: usize, b: usize, mut f: impl FnMut(u32)) {
        for (w, word) in self.0[a..b].iter().enumerate() {
            if word.load(Relaxed) == 0 {
                continue;
            }
            let mut x = word.swap(0, Relaxed);
            while x != 0 {
                let bit = x.trailing_zeros();
                x &= x - 1;
                f(((a + w) as u32) << 6 | bit);
            }
        }
    }

    /// Work units over the words.
    fn jobs(&self) -> Vec<(usize, usize)> {
        let n = self.0.len();
        (0..n).step_by(WORDS_JOB).map(|a| (a, (a + WORDS_JOB).min(n))).collect()
    }
}

/// A unit of work of a level: a range of the list of the previous level, or a chunk of the index whose
/// pending exits of this level are settled.
enum Job {
    List(usize, usize),
    Scan(usize, usize),
}

impl Work<'_> {
    /// (DTM, DTZ-scale) of any position reachable in the ending or smaller ones, from its mover's view
    /// ([`INVALID`] for a metric of this ending that this run does not solve).
    fn lookup(&self, child: &TbPos) -> [i16; 2] {
        let m = child.material();
        if m.count() <= 2 {
            return [0, 0];
        }
        let c = if m.needs_flip() { child.color_flipped() } else { *child };
        let m = c.material();
        let mut sq = [0u8; 8];
        c.table_order_squares(&mut sq);
        let side = c.stm as usize;
        if m == self.layout.material {
            let Some(idx) = self.layout.index(&sq[..c.n]) else { return [INVALID; 2] };
            let mut out = [INVALID; 2];
            for (k, &metric) in self.metrics.iter().enumerate() {
                out[metric] = self.val[k][side][idx as usize].load(Relaxed);
            }
            out
        } else {
            let near = self.near.iter().find(|(x, _)| *x == m).map(|&(_, t)| t);
            if let Some(t) = near.or_else(|| self.subs.table(&m)) {
                let Some(idx) = t.layout.index(&sq[..c.n]) else { return [INVALID; 2] };
                return [t.dtm[side][idx as usize], t.dtz[side][idx as usize]];
            }
            let near = self.near_files.iter().find(|(x, _)| *x == m).map(|&(_, t)| t);
            let Some(f) = near.or_else(|| self.subs.file(&m)) else { return [INVALID; 2] };
            let Some(idx) = f.layout().storage_index(&sq[..c.n]) else { return [INVALID; 2] };
            // a zeroing move into another ending: DTZ needs only its WDL class, DTM the exact value
            let dtm = self.metrics.contains(&DTM);
            match f.get_cached(side, idx, dtm) {
                Ok((m, z)) => [m, z],
                Err(e) => panic!("sub-table read failed after its checksum passed: {e}"),
            }
        }
    }

    /// Value of the position after a zeroing move `m` of `pos`, counting an en passant capture the
    /// opponent may answer a double push with (the tables themselves hold no en passant rights).
    fn child_value(&self, pos: &TbPos, m: &crate::pos::TbMove, child: &TbPos) -> [i16; 2] {
        let t = self.lookup(child);
        let double_push = pos.role[m.piece as usize] == Role::Pawn && (m.to as i32 - m.from as i32).abs() == 16;
        if !double_push {
            return t;
        }
        let eps = child.en_passant_children(m.to);
        if eps.is_empty() {
            return t;
        }
        // without en passant the child may be mate or stalemate; then only the capture counts
        let mut best = if child.has_moves() { t } else { [NO_EXIT; 2] };
        for (_, e) in &eps {
            let ev = self.lookup(e);
            for &metric in self.metrics {
                let v = exit_value(metric, ev[metric]);
                if best[metric] == NO_EXIT || better(v, best[metric]) {
                    best[metric] = v;
                }
            }
        }
        best
    }

    fn init(&self, idx: u64, moves: &mut Moves) -> i32 {
        let l = self.layout;
        let n = l.len();
        let mut sq = [0u8; 8];
        let mut max_level = 0;
        let i = idx as usize;
        let set_invalid = |s: usize| {
            for v in &self.val {
                v[s][i].store(INVALID, Relaxed);
            }
        };
        if l.decode(idx, &mut sq).is_none() || l.index(&sq[..n]) != Some(idx) {
            set_invalid(0);
            set_invalid(1);
            return 0;
        }
        for side in 0..2 {
            let stm = if side == 0 { Color::White } else { Color::Black };
            let pos = TbPos::new(&l.pieces, &sq[..n], stm);
            if !pos.is_legal() {
                set_invalid(side);
                continue;
            }
            let quiet = pos.zeroing_moves(moves);
            if !quiet && moves.as_slice().is_empty() {
                let v = if pos.in_check() { -1 } else { 0 };
                for vals in &self.val {
                    vals[side][i].store(v, Relaxed);
                }
                continue;
            }
            let mut best = [NO_EXIT, NO_EXIT];
            for m in moves.as_slice() {
                let child = pos.play(m);
                let c = self.child_value(&pos, m, &child);
                for &metric in self.metrics {
                    debug_assert!(c[metric] != INVALID, "exit into an invalid position");
                    let v = exit_value(metric, c[metric]);
                    if best[metric] == NO_EXIT || better(v, best[metric]) {
                        best[metric] = v;
                    }
                }
            }
            for (k, &metric) in self.metrics.iter().enumerate() {
                let b = best[metric];
                if b != NO_EXIT && b != 0 {
                    max_level = max_level.max(value::level(b));
                }
                // only zeroing moves: the best of them is the value (also a loss in 0 "before zeroing")
                let v = if quiet { undecided(b) } else { b };
                self.val[k][side][i].store(v, Relaxed);
            }
        }
        assert!(max_level < MAX_LEVEL, "{}: a value beyond {MAX_LEVEL} plies", l.material);
        max_level
    }

    /// Is the candidate `idx` with `side` to move, best exit `x`, lost in exactly `d` plies for metric
    /// number `k`? All values below level d are final. Illegal moves lead to positions marked invalid (the
    /// mover's king in check), which are skipped.
    fn verify_loss(&self, k: usize, side: usize, idx: usize, d: i32, x: i16) -> bool {
        if x != NO_EXIT && !(x < 0 && value::level(x) <= d) {
            return false;
        }
        let l = self.layout;
        let mut sq = [0u8; 8];
        if l.decode(idx as u64, &mut sq).is_none() {
            return false;
        }
        let other = &self.val[k][1 - side];
        l.for_each_piece_move(&sq[..l.len()], idx as u64, COLORS[side], |ci| {
            let Some(ci) = ci else { return true };
            let c = other[ci as usize].load(Relaxed);
            c == INVALID || (c > 0 && (c as i32) < d)
        })
    }

    /// Level `d`, part 1: the predecessors of `decided` (positions of level d-1, entries `idx << 1 | side`):
    /// those of a loss become wins in d (pushed to `out`), those of a win become candidate losses (pushed to
    /// `cands` once each, verified by [`Work::verify_candidates`]).
    #[allow(clippy::too_many_arguments)]
    fn propagate(
        &self,
        k: usize,
        d: i32,
        lo: u64,
        decided: &Bits,
        words: (usize, usize),
        out: &Bits,
        cands: &Bits,
    ) -> u64 {
        let l = self.layout;
        let n = l.len();
        let win_d = d as i16;
        let mut sq = [0u8; 8];
        let mut found = 0;
        decided.take(words.0, words.1, |e| {
            let (idx, side) = (lo + (e >> 1) as u64, (e & 1) as usize);
            let v = self.val[k][side][idx as usize].load(Relaxed);
            if l.decode(idx, &mut sq).is_none() {
                return;
            }
            // predecessors: the other side moved one of its pieces (not a pawn) without capturing
            let psize = 1 - side;
            let pvals = &self.val[k][psize];
            let want_win = v < 0;
            l.for_each_piece_move(&sq[..n], idx, COLORS[psize], |pi| {
                let Some(pi) = pi else { return true };
                let pcell = &pvals[pi as usize];
                let mut p = pcell.load(Relaxed);
                loop {
                    let (to, list) = if want_win {
                        if !is_undecided(p) && !is_candidate(p) {
                            break;
                        }
                        (win_d, out)
                    } else {
                        if !is_undecided(p) {
                            break;
                        }
                        (candidate(exit_of(p)), cands)
                    };
                    match pcell.compare_exchange(p, to, Relaxed, Relaxed) {
                        Ok(_) => {
                            list.set(((pi - lo) as u32) << 1 | psize as u32);
                            found += want_win as u64;
                            break;
                        }
                        Err(now) => p = now,
                    }
                }
                true
            });
        });
        found
    }

    /// Level `d`, part 2: the positions of `a..b` whose best zeroing move is a win or loss in `d`: a win is
    /// decided (pushed to `out`), a loss becomes a candidate. Returns the least level above `d` of an exit
    /// still pending in the chunk (`u16::MAX` for none).
    #[allow(clippy::too_many_arguments)]
    fn settle_exits(
        &self,
        k: usize,
        d: i32,
        lo: u64,
        (a, b): (u64, u64),
        out: &Bits,
        cands: &Bits,
        found: &mut u64,
    ) -> u16 {
        let win_d = d as i16;
        let mut next = u16::MAX;
        for idx in a..b {
            for side in 0..2 {
                let cell = &self.val[k][side][idx as usize];
                let mut p = cell.load(Relaxed);
                loop {
                    if !is_undecided(p) && !is_candidate(p) {
                        break;
                    }
                    let x = exit_of(p);
                    if x == NO_EXIT || x == 0 {
                        break;
                    }
                    let lvl = value::level(x);
                    if lvl != d {
                        if lvl > d {
                            next = next.min(lvl as u16);
                        }
                        break;
                    }
                    let (to, list) = if x == win_d {
                        (win_d, out)
                    } else if is_undecided(p) {
                        (candidate(x), cands)
                    } else {
                        break;
                    };
                    match cell.compare_exchange(p, to, Relaxed, Relaxed) {
                        Ok(_) => {
                            list.set(((idx - lo) as u32) << 1 | side as u32);
                            *found += (x == win_d) as u64;
                            break;
                        }
                        Err(now) => p = now,
                    }
                }
            }
        }
        next
    }

    /// Level `d`, part 3 (after parts 1 and 2 of all threads): each candidate still marked is a loss in
    /// `d` (pushed to `out`) if verified, else undecided again.
    fn verify_candidates(&self, k: usize, d: i32, lo: u64, cands: &Bits, words: (usize, usize), out: &Bits) -> u64 {
        let loss_d = -1 - d as i16;
        let mut found = 0;
        cands.take(words.0, words.1, |e| {
            let (i, side) = ((lo + (e >> 1) as u64) as usize, (e & 1) as usize);
            let cell = &self.val[k][side][i];
            let p = cell.load(Relaxed);
            if !is_candidate(p) {
                return;
            }
            let x = exit_of(p);
            if self.verify_loss(k, side, i, d, x) {
                cell.store(loss_d, Relaxed);
                out.set(e);
                found += 1;
            } else {
                cell.store(undecided(x), Relaxed);
            }
        });
        found
    }
}

const COLORS: [Color; 2] = [Color::White, Color::Black];

/// Indices per work unit of a scan.
const CHUNK: u64 = 1 << 13;
/// Indices per chunk of the exit scans (small: a chunk is scanned once for every level of a pending exit
/// in it).
const SCAN_CHUNK: u64 = 1 << 6;
/// Scan chunks per work unit.
const SCAN_JOB: usize = 128;
/// Index entries initialised together before finished slices are released (mapped values): enough work
/// for all threads.
const INIT_GROUP: u64 = 1 << 20;

/// Runs `f(job, state)` over `jobs` on `threads` threads, each thread with its own state from `init`;
/// returns the states.
fn par_states<J: Sync, S: Send, I, F>(jobs: &[J], threads: usize, init: I, f: F) -> Vec<S>
where
    I: Fn() -> S + Sync,
    F: Fn(usize, &J, &mut S) + Sync,
{
    let next = AtomicUsize::new(0);
    let threads = threads.max(1).min(jobs.len().max(1));
    let work = || {
        let mut state = init();
        loop {
            let k = next.fetch_add(1, Relaxed);
            if k >= jobs.len() {
                break;
            }
            f(k, &jobs[k], &mut state);
        }
        state
    };
    if threads == 1 {
        return vec![work()];
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    })
}

/// `ranges` cut into chunks of at most `size`.
fn chunks_of(ranges: &[(u64, u64)], size: u64) -> Vec<(u64, u64)> {
    let mut chunks = Vec::new();
    for &(a, b) in ranges {
        let mut s = a;
        while s < b {
            let e = (s + size).min(b);
            chunks.push((s, e));
            s = e;
        }
    }
    chunks
}

fn push_at(v: &mut Vec<Vec<u32>>, level: usize, e: u32) {
    if v.len() <= level {
        v.resize_with(level + 1, Vec::new);
    }
    v[level].push(e);
}

fn take_at(v: &mut [Vec<u32>], level: usize) -> Vec<u32> {
    v.get_mut(level).map(std::mem::take).unwrap_or_default()
}

/// Solves `metrics` (a subset of [`DTM`], [`DTZ`]) of one ending: the values per metric (in the order of
/// `metrics`) and side to move. Memory: 2 bytes per index entry, side to move and metric (with
/// [`Store::Mapped`] only the slices in work are resident), plus three bitmaps over the batch in work.
fn solve(
    layout: &Layout,
    subs: &dyn TableSource,
    threads: usize,
    progress: &dyn Progress,
    metrics: &[usize],
    store: Store,
) -> Result<Vec<[Values; 2]>, crate::TbError> {
    let size = layout.size as usize;
    assert!(layout.size < 1 << 31, "{}: index too large for the level lists", layout.material);
    let fill = undecided(NO_EXIT);
    let mut val = Vec::with_capacity(metrics.len());
    for _ in metrics {
        val.push([Values::new(store, size, fill)?, Values::new(store, size, fill)?]);
    }
    let successors = layout.material.successors();
    let work = Work {
        layout,
        metrics,
        val,
        subs,
        near: successors.iter().filter_map(|m| Some((*m, subs.table(m)?))).collect(),
        near_files: successors.iter().filter_map(|m| Some((*m, subs.file(m)?))).collect(),
    };
    let mapped = matches!(store, Store::Mapped(_));
    let ss = layout.slice_size;
    let release = |slice: u64| {
        for vals in &work.val {
            for side_vals in vals {
                side_vals.release((slice * ss) as usize, ((slice + 1) * ss) as usize);
            }
        }
    };
    // the slices each slice's pawn moves lead to: read by its init, released right after (pages read again
    // later come back from the page cache)
    let targets: Vec<Vec<u64>> =
        if mapped { (0..layout.slices()).map(|s| layout.push_targets(s)).collect() } else { Vec::new() };
    const NAMES: [&str; 2] = ["DTM", "DTZ"];
    let what = metrics.iter().map(|&m| NAMES[m]).collect::<Vec<_>>().join("+");
    // batches of slices with the same pawn advance, most advanced first
    let slices = layout.slices();
    let mut by_score: Vec<(u32, u64)> = (0..slices).map(|s| (layout.slice_advance(s), s)).collect();
    by_score.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut batches: Vec<Vec<(u64, u64)>> = Vec::new();
    let mut last = None;
    for (score, s) in by_score {
        if last != Some(score) {
            batches.push(Vec::new());
            last = Some(score);
        }
        let a = s * layout.slice_size;
        if let Some(b) = batches.last_mut() {
            b.push((a, a + layout.slice_size));
        }
    }
    progress.start(layout.material, batches.len() as u64);
    let trace = std::env::var_os("MYSL_TB_TRACE").is_some();
    let (mut t_init, mut t_lvl) = (0.0, [0.0f64; 2]);
    let nm = metrics.len();
    for ranges in &batches {
        let t0 = std::time::Instant::now();
        if batches.len() == 1 {
            progress.message(&format!("{} {what} init", layout.material));
        }
        let chunks = chunks_of(ranges, CHUNK);
        let init = |chunks: &[(u64, u64)]| {
            par_states(
                chunks,
                threads,
                || (Moves::default(), 0i32),
                |_, &(a, b), (moves, m)| {
                    for idx in a..b {
                        *m = (*m).max(work.init(idx, moves));
                    }
                },
            )
            .iter()
            .fold(0, |m, s| m.max(s.1))
        };
        let max_seed = if mapped {
            // a group of slices (at least INIT_GROUP entries) at a time, releasing the finished slices its pawn
            // moves read
            let mut max_seed = 0;
            for group in ranges.chunks(INIT_GROUP.div_ceil(ss).max(1) as usize) {
                max_seed = max_seed.max(init(&chunks_of(group, CHUNK)));
                for &(a, _) in group {
                    for &t in &targets[(a / ss) as usize] {
                        release(t);
                    }
                }
            }
            max_seed
        } else {
            init(&chunks)
        };
        t_init += t0.elapsed().as_secs_f64();
        // the batch's bitmaps cover its index span only (entries relative to `lo`)
        let lo = ranges.iter().map(|r| r.0).min().unwrap_or(0);
        let span = ranges.iter().map(|r| r.1).max().unwrap_or(0) - lo;
        // the seeds of the levels: positions decided at init (lists per level), and per chunk the least
        // level of a pending best exit
        trace_mem(&format!("{} {what} init", layout.material));
        let scan_chunks = chunks_of(ranges, SCAN_CHUNK);
        let pending: Vec<Vec<AtomicU16>> =
            (0..nm).map(|_| (0..scan_chunks.len()).map(|_| AtomicU16::new(u16::MAX)).collect()).collect();
        let per_thread = par_states(
            &scan_chunks,
            threads,
            || vec![Vec::<Vec<u32>>::new(); nm],
            |c, &(a, b), decided| {
                for (k, dk) in decided.iter_mut().enumerate() {
                    let mut least = u16::MAX;
                    for idx in a..b {
                        for side in 0..2 {
                            let v = work.val[k][side][idx as usize].load(Relaxed);
                            if is_undecided(v) {
                                let x = exit_of(v);
                                if x != NO_EXIT && x != 0 {
                                    least = least.min(value::level(x) as u16);
                                }
                            } else if v != INVALID && v != 0 {
                                push_at(dk, value::level(v) as usize, ((idx - lo) as u32) << 1 | side as u32);
                            }
                        }
                    }
                    pending[k][c].store(least, Relaxed);
                }
            },
        );
        let mut seeds: Vec<Vec<Vec<u32>>> = vec![Vec::new(); nm];
        for t in per_thread {
            for (k, levels) in t.into_iter().enumerate() {
                for (level, v) in levels.into_iter().enumerate() {
                    if seeds[k].len() <= level {
                        seeds[k].resize_with(level + 1, Vec::new);
                    }
                    seeds[k][level].extend_from_slice(&v);
                }
            }
        }
        for k in 0..nm {
            let t1 = std::time::Instant::now();
            let metric = metrics[k];
            let (mut last, mut next, cands) = (Bits::new(2 * span), Bits::new(2 * span), Bits::new(2 * span));
            for &e in &take_at(&mut seeds[k], 0) {
                last.set(e);
            }
            let mut d = 1;
            loop {
                assert!(d < MAX_LEVEL, "{}: more than {MAX_LEVEL} levels", layout.material);
                if batches.len() == 1 {
                    progress.message(&format!("{} {} level {d}", layout.material, NAMES[metric]));
                }
                let ts = std::time::Instant::now();
                // positions decided at init with this level
                let seeded = take_at(&mut seeds[k], d as usize);
                for &e in &seeded {
                    next.set(e);
                }
                let mut jobs: Vec<Job> = last.jobs().into_iter().map(|(a, b)| Job::List(a, b)).collect();
                let scan: Vec<u32> = (0..scan_chunks.len() as u32)
                    .filter(|&c| pending[k][c as usize].load(Relaxed) as i32 == d)
                    .collect();
                jobs.extend((0..scan.len()).step_by(SCAN_JOB).map(|a| Job::Scan(a, (a + SCAN_JOB).min(scan.len()))));
                let (last_ref, next_ref) = (&last, &next);
                let found_a: u64 = par_states(
                    &jobs,
                    threads,
                    || 0u64,
                    |_, job, found| match *job {
                        Job::List(a, b) => *found += work.propagate(k, d, lo, last_ref, (a, b), next_ref, &cands),
                        Job::Scan(a, b) => {
                            for &c in &scan[a..b] {
                                let (x, y) = scan_chunks[c as usize];
                                let least = work.settle_exits(k, d, lo, (x, y), next_ref, &cands, found);
                                pending[k][c as usize].store(least, Relaxed);
                            }
                        }
                    },
                )
                .iter()
                .sum();
                let found_b: u64 = par_states(
                    &cands.jobs(),
                    threads,
                    || 0u64,
                    |_, &(a, b), found| {
                        *found += work.verify_candidates(k, d, lo, &cands, (a, b), next_ref);
                    },
                )
                .iter()
                .sum();
                if d == 1 {
                    trace_mem(&format!("{} {} level 1", layout.material, NAMES[metric]));
                }
                let found = found_a + found_b + seeded.len() as u64;
                if trace && std::env::var_os("MYSL_TB_TRACE_SWEEPS").is_some() {
                    eprintln!("  metric {metric} d {d}: {found} found, {:.4} s", ts.elapsed().as_secs_f64());
                }
                // positions decided at init up to level max_seed propagate in sweep max_seed + 1
                if found == 0 && d > max_seed {
                    break;
                }
                // `last` was cleared while it was read
                std::mem::swap(&mut last, &mut next);
                d += 1;
            }
            t_lvl[metric] += t1.elapsed().as_secs_f64();
            trace_mem(&format!("{} {} levels", layout.material, NAMES[metric]));
        }
        // undecided -> draw
        par_states(
            &chunks,
            threads,
            || (),
            |_, &(a, b), _| {
                for vals in &work.val {
                    for side_vals in vals {
                        for cell in &side_vals[a as usize..b as usize] {
                            let v = cell.load(Relaxed);
                            if is_undecided(v) || is_candidate(v) {
                                cell.store(0, Relaxed);
                            }
                        }
                    }
                }
            },
        );
        if mapped {
            for &(a, _) in ranges {
                release(a / ss);
            }
            // the endings it promotes into are read by the most advanced batch only
            for (_, f) in &work.near_files {
                f.release_pages();
            }
        }
        progress.advance(1);
    }
    if trace {
        eprintln!(
            "{} ({what}): init {t_init:.2} s, DTM levels {:.2} s, DTZ levels {:.2} s",
            layout.material, t_lvl[0], t_lvl[1]
        );
    }
    Ok(work.val)
}

/// Generates one ending (DTM and DTZ together); every ending it converts into must be available from
/// `subs`. Working memory: 8 bytes per index entry (4 arrays of `i16`), plus the table it returns.
pub fn generate_table(material: Material, subs: &dyn TableSource, threads: usize, progress: &dyn Progress) -> Table {
    let layout = Layout::new(material.normalized());
    let vals = match solve(&layout, subs, threads, progress, &[DTM, DTZ], Store::Heap) {
        Ok(v) => v,
        Err(e) => unreachable!("values on the heap cannot fail: {e}"),
    };
    let mut it = vals.into_iter().map(|sides| sides.map(Values::into_vec));
    let (Some(dtm), Some(dtz)) = (it.next(), it.next()) else { unreachable!("two metrics solved") };
    progress.finish(layout.material);
    Table { layout, dtm, dtz }
}

/// Generates one metric ([`DTM`] or [`DTZ`]) of an ending; every ending it converts into must be available
/// from `subs`. Working memory: 4 bytes per index entry (2 per side to move; with [`Store::Mapped`] only for
/// the slices in work) plus the bitmaps of a batch.
pub fn generate_metric(
    material: Material,
    subs: &dyn TableSource,
    threads: usize,
    progress: &dyn Progress,
    metric: usize,
    store: Store,
) -> Result<MetricTable, crate::TbError> {
    let layout = Layout::new(material.normalized());
    let metric = metric.min(DTZ);
    let vals = solve(&layout, subs, threads, progress, &[metric], store)?;
    let Some(values) = vals.into_iter().next() else { unreachable!("one metric solved") };
    progress.finish(layout.material);
    Ok(MetricTable { layout, metric, values })
}

/// Generates endings and, first, everything they convert into; keeps all of them in memory.
#[derive(Debug, Default)]
pub struct Generator {
    pub tables: HashMap<Material, Arc<Table>>,
    pub threads: usize,
}

impl Generator {
    pub fn new(threads: usize) -> Generator {
        Generator { tables: HashMap::new(), threads: threads.max(1) }
    }

    /// The order in which `targets` and their successors must be generated (smaller first).
    pub fn plan(targets: &[Material]) -> Vec<Material> {
        fn visit(m: Material, out: &mut Vec<Material>) {
            if out.contains(&m) {
                return;
            }
            for s in m.successors() {
                visit(s, out);
            }
            out.push(m);
        }
        let mut out = Vec::new();
        for t in targets {
            visit(t.normalized(), &mut out);
        }
        out
    }

    pub fn generate(&mut self, m: Material, progress: &dyn Progress) -> Arc<Table> {
        for s in Generator::plan(&[m]) {
            if !self.tables.contains_key(&s) {
                let t = generate_table(s, &self.tables, self.threads, progress);
                self.tables.insert(s, Arc::new(t));
            }
        }
        self.tables[&m.normalized()].clone()
    }
}

/// True for the roles a pawn may promote to.
pub fn is_promotion_role(r: Role) -> bool {
    matches!(r, Role::Queen | Role::Rook | Role::Bishop | Role::Knight)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn working_states_carry_the_exit_and_are_no_values() {
        let exits = (-1 - MAX_LEVEL as i16..=MAX_LEVEL as i16).chain([NO_EXIT]);
        for x in exits {
            let (u, c) = (undecided(x), candidate(x));
            assert!(is_undecided(u) && !is_candidate(u), "{x}");
            assert!(is_candidate(c) && !is_undecided(c), "{x}");
            assert_eq!((exit_of(u), exit_of(c)), (x, x));
            // no decided value, and not INVALID: a loss in MAX_LEVEL is -1 - MAX_LEVEL
            for s in [u, c] {
                assert!(s != INVALID && (s as i32) < -1 - MAX_LEVEL, "{x}");
            }
        }
        for v in -1 - MAX_LEVEL as i16..=MAX_LEVEL as i16 {
            assert!(!is_undecided(v) && !is_candidate(v));
        }
        assert!(!is_undecided(INVALID) && !is_candidate(INVALID));
    }

    /// Bits set by threads are taken once each (under Miri: the vector `from_raw_parts` built and freed).
    #[test]
    fn bits_set_by_threads_are_taken_once() {
        let entries: u32 = if cfg!(miri) { 700 } else { 100_000 };
        let bits = Bits::new(u64::from(entries));
        std::thread::scope(|s| {
            for t in 0..3u32 {
                let bits = &bits;
                s.spawn(move || (t..entries).step_by(5).for_each(|e| bits.set(e)));
            }
        });
        let mut taken = Vec::new();
        for (a, b) in bits.jobs() {
            bits.take(a, b, |e| taken.push(e));
        }
        let want: Vec<u32> = (0..entries).filter(|e| e % 5 < 3).collect();
        assert_eq!(taken, want);
        let mut again = 0;
        bits.take(0, bits.0.len(), |_| again += 1);
        assert_eq!(again, 0, "taking clears the bits");
    }
}
