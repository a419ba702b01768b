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
//!    slices) and the best exit for the side to move is kept; the position is `UNDECIDED`.
//! 2. *Levels* d = 1, 2, ...: a sweep over the batch finds the positions decided at level d-1. Un-moves
//!    (retro moves: the other side's non-pawn pieces stepping back to empty squares, no un-captures) give
//!    their predecessors: a predecessor of a loss in d-1 is a win in d; a predecessor of a win in d-1 is a
//!    loss in d only after forward verification (every move leads to a win of the opponent in at most d-1,
//!    and every exit to a loss in at most d). Undecided positions whose best exit is a win in d, or a loss
//!    in d, are decided at the same sweep. All values written in sweep d are level d, values of level < d
//!    are final, so the threads (which share the arrays through relaxed atomics) always agree: the result
//!    does not depend on the number of threads or the order of work.
//! 3. Positions still undecided are draws.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI16, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use mysl_core::{Color, Role};

use crate::index::Layout;
use crate::material::Material;
use crate::pos::{Moves, TbPos};
use crate::value::{self, INVALID};

const UNDECIDED: i16 = i16::MIN + 1;
const NO_EXIT: i16 = i16::MIN + 2;
/// A position marked during a level as a possible loss, until verified.
const CANDIDATE: i16 = i16::MIN + 3;

/// A generated ending: DTM and DTZ values per side to move over the generation index.
#[derive(Debug)]
pub struct Table {
    pub layout: Layout,
    /// `dtm[side][index]`, `side` 0 = White to move.
    pub dtm: [Vec<i16>; 2],
    pub dtz: [Vec<i16>; 2],
}

impl Table {
    pub fn material(&self) -> Material {
        self.layout.material
    }
}

/// Progress reports from the generator.
pub trait Progress: Sync {
    /// A table is started (`total` work units).
    fn start(&self, _material: Material, _total: u64) {}
    fn advance(&self, _units: u64) {}
    fn finish(&self, _material: Material) {}
}

/// No progress reporting.
#[derive(Debug)]
pub struct Silent;
impl Progress for Silent {}

/// Where values of other endings come from while generating.
pub trait TableSource: Sync {
    fn table(&self, m: &Material) -> Option<&Table>;
}

impl TableSource for HashMap<Material, Arc<Table>> {
    fn table(&self, m: &Material) -> Option<&Table> {
        self.get(m).map(|t| t.as_ref())
    }
}

struct Work<'a> {
    layout: &'a Layout,
    val: [[Vec<AtomicI16>; 2]; 2], // [metric][side]
    exit: [[Vec<AtomicI16>; 2]; 2],
    subs: &'a dyn TableSource,
}

fn atomics(n: usize, v: i16) -> Vec<AtomicI16> {
    (0..n).map(|_| AtomicI16::new(v)).collect()
}

/// The value for the side to move after a zeroing move into a position whose DTZ-scale value (from the
/// opponent's view) is `c`: into a loss 1, a blessed loss 101, a draw 0, a cursed win a loss in 101, a win a
/// loss in 1 (the zeroing move itself is the ply). This is the count of the Syzygy generator: with it the
/// longest DTZ of every 3-4 piece ending equals the generator's statistics in tb-stats.tsv. (Counting a
/// forced losing capture as a loss in 0 instead matches more values probed from Syzygy files, which may be
/// one ply low where a table stores moves, but breaks those statistics; see docs/tablebases.md.)
pub(crate) fn zeroing_exit(c: i16) -> i16 {
    match value::wdl_of_dtz(c) {
        -2 => 1,
        -1 => 101,
        0 => 0,
        1 => -1 - 101,
        _ => -1 - 1,
    }
}

/// Better for the side to move?
#[inline]
fn better(a: i16, b: i16) -> bool {
    value::rank(a) > value::rank(b)
}

impl Work<'_> {
    /// (DTM, DTZ-scale) of any position reachable in the ending or smaller ones, from its mover's view.
    fn lookup(&self, child: &TbPos) -> (i16, i16) {
        let m = child.material();
        if m.count() <= 2 {
            return (0, 0);
        }
        let c = if m.needs_flip() { child.color_flipped() } else { *child };
        let m = c.material();
        let mut sq = [0u8; 8];
        c.table_order_squares(&mut sq);
        let side = c.stm as usize;
        if m == self.layout.material {
            let Some(idx) = self.layout.index(&sq[..c.n]) else { return (INVALID, INVALID) };
            let idx = idx as usize;
            (self.val[0][side][idx].load(Relaxed), self.val[1][side][idx].load(Relaxed))
        } else {
            let Some(t) = self.subs.table(&m) else { return (INVALID, INVALID) };
            let Some(idx) = t.layout.index(&sq[..c.n]) else { return (INVALID, INVALID) };
            (t.dtm[side][idx as usize], t.dtz[side][idx as usize])
        }
    }

    /// Value of the position after a zeroing move `m` of `pos`, counting an en passant capture the
    /// opponent may answer a double push with (the tables themselves hold no en passant rights).
    fn child_value(&self, pos: &TbPos, m: &crate::pos::TbMove, child: &TbPos) -> (i16, i16) {
        let (tdtm, tdtz) = self.lookup(child);
        let double_push = pos.role[m.piece as usize] == Role::Pawn && (m.to as i32 - m.from as i32).abs() == 16;
        if !double_push {
            return (tdtm, tdtz);
        }
        let eps = child.en_passant_children(m.to);
        if eps.is_empty() {
            return (tdtm, tdtz);
        }
        // without en passant the child may be mate or stalemate; then only the capture counts
        let (mut bdtm, mut bdtz) = if child.has_moves() { (tdtm, tdtz) } else { (NO_EXIT, NO_EXIT) };
        for (_, e) in &eps {
            let (edtm, edtz) = self.lookup(e);
            let (vdtm, vdtz) = (value::parent_of(edtm), zeroing_exit(edtz));
            if bdtm == NO_EXIT || better(vdtm, bdtm) {
                bdtm = vdtm;
            }
            if bdtz == NO_EXIT || better(vdtz, bdtz) {
                bdtz = vdtz;
            }
        }
        (bdtm, bdtz)
    }

    fn init(&self, idx: u64, moves: &mut Moves) -> i32 {
        let l = self.layout;
        let n = l.len();
        let mut sq = [0u8; 8];
        let mut max_level = 0;
        let i = idx as usize;
        let set_invalid = |s: usize| {
            for metric in 0..2 {
                self.val[metric][s][i].store(INVALID, Relaxed);
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
            pos.legal_moves(moves);
            if moves.as_slice().is_empty() {
                let v = if pos.in_check() { -1 } else { 0 };
                self.val[0][side][i].store(v, Relaxed);
                self.val[1][side][i].store(v, Relaxed);
                continue;
            }
            let mut best = [NO_EXIT, NO_EXIT];
            let mut quiet = 0;
            for m in moves.as_slice() {
                if !m.is_zeroing(&pos) {
                    quiet += 1;
                    continue;
                }
                let child = pos.play(m);
                let (cdtm, cdtz) = self.child_value(&pos, m, &child);
                debug_assert!(cdtm != INVALID && cdtz != INVALID, "exit into an invalid position");
                let v = [value::parent_of(cdtm), zeroing_exit(cdtz)];
                for metric in 0..2 {
                    if best[metric] == NO_EXIT || better(v[metric], best[metric]) {
                        best[metric] = v[metric];
                    }
                }
            }
            for (metric, &b) in best.iter().enumerate() {
                if b != NO_EXIT && b != 0 {
                    max_level = max_level.max(value::level(b));
                }
                if quiet == 0 {
                    // only zeroing moves: the best of them is the value (also a loss in 0 "before zeroing")
                    self.val[metric][side][i].store(b, Relaxed);
                    continue;
                }
                self.val[metric][side][i].store(UNDECIDED, Relaxed);
                self.exit[metric][side][i].store(b, Relaxed);
            }
        }
        max_level
    }

    /// Is the undecided position `idx` with `side` to move lost in exactly `d` plies for `metric`? All
    /// values below level d are final. Illegal moves lead to positions marked invalid (the mover's king in
    /// check), which are skipped.
    fn verify_loss(&self, metric: usize, side: usize, idx: usize, d: i32) -> bool {
        let x = self.exit[metric][side][idx].load(Relaxed);
        if x != NO_EXIT && !(x < 0 && value::level(x) <= d) {
            return false;
        }
        let l = self.layout;
        let mut sq = [0u8; 8];
        if l.decode(idx as u64, &mut sq).is_none() {
            return false;
        }
        let other = &self.val[metric][1 - side];
        l.for_each_piece_move(&sq[..l.len()], idx as u64, COLORS[side], |ci| {
            let Some(ci) = ci else { return true };
            let c = other[ci as usize].load(Relaxed);
            c == INVALID || (c > 0 && (c as i32) < d)
        })
    }

    /// Level `d`, part 1: the predecessors of `decided` (positions of level d-1, entries `idx << 1 | side`):
    /// those of a loss become wins in d (pushed to `out`), those of a win become candidate losses (marked
    /// [`CANDIDATE`], pushed to `cands` once each, verified by [`Work::verify_candidates`]).
    fn propagate(&self, metric: usize, d: i32, decided: &[u64], out: &mut Vec<u64>, cands: &mut Vec<u64>) {
        let l = self.layout;
        let n = l.len();
        let win_d = d as i16;
        let mut sq = [0u8; 8];
        for &e in decided {
            let (idx, side) = (e >> 1, (e & 1) as usize);
            let v = self.val[metric][side][idx as usize].load(Relaxed);
            if l.decode(idx, &mut sq).is_none() {
                continue;
            }
            // predecessors: the other side moved one of its pieces (not a pawn) without capturing
            let psize = 1 - side;
            let pvals = &self.val[metric][psize];
            let want_win = v < 0;
            l.for_each_piece_move(&sq[..n], idx, COLORS[psize], |pi| {
                let Some(pi) = pi else { return true };
                let pcell = &pvals[pi as usize];
                let p = pcell.load(Relaxed);
                if want_win {
                    if (p == UNDECIDED || p == CANDIDATE) && pcell.compare_exchange(p, win_d, Relaxed, Relaxed).is_ok()
                    {
                        out.push(pi << 1 | psize as u64);
                    }
                } else if p == UNDECIDED && pcell.compare_exchange(p, CANDIDATE, Relaxed, Relaxed).is_ok() {
                    cands.push(pi << 1 | psize as u64);
                }
                true
            });
        }
    }

    /// Level `d`, part 2: positions whose best zeroing move is a win or loss in `d` (`exits`): a win is
    /// decided (pushed to `out`), a loss becomes a candidate.
    fn settle_exits(&self, metric: usize, d: i32, exits: &[u64], out: &mut Vec<u64>, cands: &mut Vec<u64>) {
        let win_d = d as i16;
        for &e in exits {
            let (i, side) = ((e >> 1) as usize, (e & 1) as usize);
            let cell = &self.val[metric][side][i];
            let p = cell.load(Relaxed);
            if p != UNDECIDED && p != CANDIDATE {
                continue;
            }
            if self.exit[metric][side][i].load(Relaxed) == win_d {
                if cell.compare_exchange(p, win_d, Relaxed, Relaxed).is_ok() {
                    out.push(e);
                }
            } else if p == UNDECIDED && cell.compare_exchange(p, CANDIDATE, Relaxed, Relaxed).is_ok() {
                cands.push(e);
            }
        }
    }

    /// Level `d`, part 3 (after parts 1 and 2 of all threads): each candidate still marked is a loss in
    /// `d` (pushed to `out`) if verified, else undecided again.
    fn verify_candidates(&self, metric: usize, d: i32, cands: &[u64], out: &mut Vec<u64>) {
        let loss_d = -1 - d as i16;
        for &e in cands {
            let (i, side) = ((e >> 1) as usize, (e & 1) as usize);
            let cell = &self.val[metric][side][i];
            if cell.load(Relaxed) != CANDIDATE {
                continue;
            }
            if self.verify_loss(metric, side, i, d) {
                cell.store(loss_d, Relaxed);
                out.push(e);
            } else {
                cell.store(UNDECIDED, Relaxed);
            }
        }
    }
}

const COLORS: [Color; 2] = [Color::White, Color::Black];

/// Indices per work unit of a scan.
const CHUNK: u64 = 1 << 13;
/// Entries of a level's list per work unit.
const LIST_CHUNK: u64 = 1 << 11;

/// Runs `f(a, b, state)` over `chunks` on `threads` threads, each thread with its own state from `init`;
/// returns the states.
fn par_states<S: Send, I, F>(chunks: &[(u64, u64)], threads: usize, init: I, f: F) -> Vec<S>
where
    I: Fn() -> S + Sync,
    F: Fn(u64, u64, &mut S) + Sync,
{
    let next = AtomicUsize::new(0);
    let threads = threads.max(1).min(chunks.len().max(1));
    let work = || {
        let mut state = init();
        loop {
            let k = next.fetch_add(1, Relaxed);
            if k >= chunks.len() {
                break;
            }
            let (a, b) = chunks[k];
            f(a, b, &mut state);
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

/// Runs `f(a, b, moves)` over all chunks of `ranges` on `threads` threads; returns the sum and the max of
/// what `f` returns (as a pair).
fn par<F>(ranges: &[(u64, u64)], threads: usize, f: F) -> (u64, i32)
where
    F: Fn(u64, u64, &mut Moves) -> (u64, i32) + Sync,
{
    let states = par_states(
        &chunks_of(ranges, CHUNK),
        threads,
        || (Moves::default(), 0u64, 0i32),
        |a, b, st| {
            let (s, m) = f(a, b, &mut st.0);
            st.1 += s;
            st.2 = st.2.max(m);
        },
    );
    states.iter().fold((0, 0), |(s, m), st| (s + st.1, m.max(st.2)))
}

/// Per metric and level: entries (`idx << 1 | side`) decided at init and entries whose best exit is a
/// win or loss of that level.
#[derive(Default)]
struct Seeds {
    decided: [Vec<Vec<u64>>; 2],
    exits: [Vec<Vec<u64>>; 2],
}

fn push_at(v: &mut Vec<Vec<u64>>, level: usize, e: u64) {
    if v.len() <= level {
        v.resize_with(level + 1, Vec::new);
    }
    v[level].push(e);
}

fn take_at(v: &mut [Vec<u64>], level: usize) -> Vec<u64> {
    v.get_mut(level).map(std::mem::take).unwrap_or_default()
}

/// Generates one ending; every ending it converts into must be available from `subs`.
pub fn generate_table(material: Material, subs: &dyn TableSource, threads: usize, progress: &dyn Progress) -> Table {
    let layout = Layout::new(material.normalized());
    let size = layout.size as usize;
    let work = Work {
        layout: &layout,
        val: [
            [atomics(size, UNDECIDED), atomics(size, UNDECIDED)],
            [atomics(size, UNDECIDED), atomics(size, UNDECIDED)],
        ],
        exit: [[atomics(size, NO_EXIT), atomics(size, NO_EXIT)], [atomics(size, NO_EXIT), atomics(size, NO_EXIT)]],
        subs,
    };
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
    for ranges in &batches {
        let t0 = std::time::Instant::now();
        let (_, max_seed) = par(ranges, threads, |a, b, moves| {
            let mut m = 0;
            for idx in a..b {
                m = m.max(work.init(idx, moves));
            }
            (0, m)
        });
        t_init += t0.elapsed().as_secs_f64();
        // the seeds of the levels: positions decided at init, and best exits
        let per_thread = par_states(&chunks_of(ranges, CHUNK), threads, Seeds::default, |a, b, seeds| {
            for idx in a..b {
                for metric in 0..2 {
                    for side in 0..2 {
                        let e = idx << 1 | side as u64;
                        let v = work.val[metric][side][idx as usize].load(Relaxed);
                        if v == UNDECIDED {
                            let x = work.exit[metric][side][idx as usize].load(Relaxed);
                            if x != NO_EXIT && x != 0 {
                                push_at(&mut seeds.exits[metric], value::level(x) as usize, e);
                            }
                        } else if v != INVALID && v != 0 {
                            push_at(&mut seeds.decided[metric], value::level(v) as usize, e);
                        }
                    }
                }
            }
        });
        let mut seeds = Seeds::default();
        for mut t in per_thread {
            for metric in 0..2 {
                for (to, from) in [(&mut seeds.decided, &mut t.decided), (&mut seeds.exits, &mut t.exits)] {
                    for (level, v) in std::mem::take(&mut from[metric]).into_iter().enumerate() {
                        if to[metric].len() <= level {
                            to[metric].resize_with(level + 1, Vec::new);
                        }
                        to[metric][level].extend_from_slice(&v);
                    }
                }
            }
        }
        for (metric, t_metric) in t_lvl.iter_mut().enumerate() {
            let t1 = std::time::Instant::now();
            let mut last = take_at(&mut seeds.decided[metric], 0);
            let mut d = 1;
            loop {
                let ts = std::time::Instant::now();
                let exits = take_at(&mut seeds.exits[metric], d as usize);
                let (nl, ne) = (last.len() as u64, exits.len() as u64);
                let mut chunks: Vec<(u64, u64)> = chunks_of(&[(0, nl)], LIST_CHUNK);
                chunks.extend(chunks_of(&[(nl, nl + ne)], LIST_CHUNK));
                let outs = par_states(&chunks, threads, <(Vec<u64>, Vec<u64>)>::default, |a, b, (out, cands)| {
                    if a < nl {
                        work.propagate(metric, d, &last[a as usize..b as usize], out, cands);
                    } else {
                        work.settle_exits(metric, d, &exits[(a - nl) as usize..(b - nl) as usize], out, cands);
                    }
                });
                let mut next = take_at(&mut seeds.decided[metric], d as usize);
                let mut cands = Vec::new();
                for (o, c) in outs {
                    next.extend_from_slice(&o);
                    cands.extend_from_slice(&c);
                }
                let nc = cands.len() as u64;
                let outs = par_states(&chunks_of(&[(0, nc)], LIST_CHUNK), threads, Vec::new, |a, b, out| {
                    work.verify_candidates(metric, d, &cands[a as usize..b as usize], out);
                });
                for o in outs {
                    next.extend_from_slice(&o);
                }
                let found = next.len();
                if trace && std::env::var_os("MYSL_TB_TRACE_SWEEPS").is_some() {
                    eprintln!("  metric {metric} d {d}: {found} found, {:.4} s", ts.elapsed().as_secs_f64());
                }
                // positions decided at init up to level max_seed propagate in sweep max_seed + 1
                if next.is_empty() && d > max_seed {
                    break;
                }
                last = next;
                d += 1;
            }
            *t_metric += t1.elapsed().as_secs_f64();
        }
        // undecided -> draw
        par(ranges, threads, |a, b, _| {
            for idx in a..b {
                for metric in 0..2 {
                    for side in 0..2 {
                        let cell = &work.val[metric][side][idx as usize];
                        if cell.load(Relaxed) == UNDECIDED {
                            cell.store(0, Relaxed);
                        }
                    }
                }
            }
            (0, 0)
        });
        progress.advance(1);
    }
    if trace {
        eprintln!(
            "{}: init {t_init:.2} s, DTM levels {:.2} s, DTZ levels {:.2} s",
            layout.material, t_lvl[0], t_lvl[1]
        );
    }
    let Work { val, .. } = work;
    let [dtm, dtz] = val.map(|sides| sides.map(|v| v.into_iter().map(|a| a.into_inner()).collect::<Vec<i16>>()));
    progress.finish(layout.material);
    Table { layout, dtm, dtz }
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
