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
use std::sync::atomic::{AtomicI16, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use mysl_core::{Color, Role};

use crate::index::Layout;
use crate::material::Material;
use crate::pos::{Moves, TbPos};
use crate::value::{self, INVALID};

const UNDECIDED: i16 = i16::MIN + 1;
const NO_EXIT: i16 = i16::MIN + 2;

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

    /// Is `pos` (undecided) lost in exactly `d` plies for `metric`? All values below level d are final.
    /// Illegal moves lead to positions marked invalid (the mover's king in check), which are skipped.
    fn verify_loss(&self, metric: usize, pos: &TbPos, idx: usize, d: i32) -> bool {
        let side = pos.stm as usize;
        let x = self.exit[metric][side][idx].load(Relaxed);
        if x != NO_EXIT && !(x < 0 && value::level(x) <= d) {
            return false;
        }
        let other = 1 - side;
        pos.all_quiet_piece_moves(|child| {
            let Some(ci) = self.layout.index(&child.sq[..child.n]) else { return true };
            let c = self.val[metric][other][ci as usize].load(Relaxed);
            c == INVALID || (c > 0 && (c as i32) < d)
        })
    }

    /// One sweep at level `d` over `[a, b)`: returns how many positions were decided.
    fn sweep(&self, metric: usize, d: i32, a: u64, b: u64) -> u64 {
        let l = self.layout;
        let n = l.len();
        let win_prev = (d - 1) as i16; // WIN(d-1)
        let loss_prev = -(d as i16); // LOSS(d-1) = -1-(d-1)
        let win_d = d as i16;
        let loss_d = -1 - d as i16;
        let mut found = 0u64;
        let mut sq = [0u8; 8];
        let mut psq = [0u8; 8];
        for idx in a..b {
            let i = idx as usize;
            for side in 0..2 {
                let v = self.val[metric][side][i].load(Relaxed);
                if v == INVALID {
                    continue;
                }
                let stm = if side == 0 { Color::White } else { Color::Black };
                if v == loss_prev || (d > 1 && v == win_prev) {
                    if l.decode(idx, &mut sq).is_none() {
                        continue;
                    }
                    let pos = TbPos::new(&l.pieces, &sq[..n], stm);
                    let psize = 1 - side;
                    let want_win = v == loss_prev;
                    pos.for_each_unmove_unchecked(|p| {
                        psq[..p.n].copy_from_slice(&p.sq[..p.n]);
                        let Some(pi) = l.index(&psq[..p.n]) else { return };
                        let cell = &self.val[metric][psize][pi as usize];
                        if cell.load(Relaxed) != UNDECIDED {
                            return;
                        }
                        if want_win {
                            if cell.compare_exchange(UNDECIDED, win_d, Relaxed, Relaxed).is_ok() {
                                found += 1;
                            }
                        } else if self.verify_loss(metric, p, pi as usize, d)
                            && cell.compare_exchange(UNDECIDED, loss_d, Relaxed, Relaxed).is_ok()
                        {
                            found += 1;
                        }
                    });
                } else if v == UNDECIDED {
                    let x = self.exit[metric][side][i].load(Relaxed);
                    if x == win_d {
                        if self.val[metric][side][i].compare_exchange(UNDECIDED, win_d, Relaxed, Relaxed).is_ok() {
                            found += 1;
                        }
                    } else if x == loss_d {
                        if l.decode(idx, &mut sq).is_none() {
                            continue;
                        }
                        let pos = TbPos::new(&l.pieces, &sq[..n], stm);
                        if self.verify_loss(metric, &pos, i, d)
                            && self.val[metric][side][i].compare_exchange(UNDECIDED, loss_d, Relaxed, Relaxed).is_ok()
                        {
                            found += 1;
                        }
                    }
                }
            }
        }
        found
    }
}

const CHUNK: u64 = 1 << 13;

/// Runs `f(a, b, moves)` over all chunks of `ranges` on `threads` threads; returns the sum and the max of
/// what `f` returns (as a pair).
fn par<F>(ranges: &[(u64, u64)], threads: usize, f: F) -> (u64, i32)
where
    F: Fn(u64, u64, &mut Moves) -> (u64, i32) + Sync,
{
    let mut chunks = Vec::new();
    for &(a, b) in ranges {
        let mut s = a;
        while s < b {
            let e = (s + CHUNK).min(b);
            chunks.push((s, e));
            s = e;
        }
    }
    let next = AtomicUsize::new(0);
    let sum = AtomicU64::new(0);
    let max = std::sync::atomic::AtomicI32::new(0);
    let threads = threads.max(1).min(chunks.len().max(1));
    let work = || {
        let mut moves = Moves::default();
        loop {
            let k = next.fetch_add(1, Relaxed);
            if k >= chunks.len() {
                break;
            }
            let (a, b) = chunks[k];
            let (s, m) = f(a, b, &mut moves);
            sum.fetch_add(s, Relaxed);
            max.fetch_max(m, Relaxed);
        }
    };
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    (sum.load(Relaxed), max.load(Relaxed))
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
        for (metric, t_metric) in t_lvl.iter_mut().enumerate() {
            let t1 = std::time::Instant::now();
            let mut d = 1;
            loop {
                let (found, _) = par(ranges, threads, |a, b, _| (work.sweep(metric, d, a, b), 0));
                // positions decided at init up to level max_seed propagate in sweep max_seed + 1
                if found == 0 && d > max_seed {
                    break;
                }
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
