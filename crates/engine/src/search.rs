//! Search: iterative deepening, PVS with aspiration windows, quiescence with SEE pruning, transposition
//! table, null move, ProbCut, reverse futility, futility, late-move and SEE pruning, late-move reductions,
//! check (when the check keeps material) and singular extensions, killers, history and counter-moves, a
//! correction history of the static evaluation (pawn structure, material, previous move), repetition and
//! fifty-move detection, MultiPV.
//!
//! Generic over the rules `R`: one instantiation per variant, no variant test inside the loop beyond
//! constants. Single-threaded and deterministic for a given node limit.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mysl_core::{attacks, Bitboard, Color, Move, MoveList, Outcome, Position, Role, Rules, Variant, VariantState};
use mysl_nnue::Network;
use mysl_tb::tablebases::RANK_WIN;
use mysl_tb::variant::{Dtm, VariantTablebase};
use mysl_tb::Tablebases;

use crate::eval::Evaluator;
use crate::nnue::NnueStack;
use crate::score::{DRAW, INFINITY, MATE_BOUND, MATE_SCORE, TB_WIN};
use crate::see::see_ge;
use crate::timeman::TimeBudget;
use crate::tt::{Bound, TranspositionTable};

pub const MAX_PLY: usize = 128;

/// Aspiration fail-highs and fail-lows are reported once a search has run this long (Stockfish waits
/// 3 s); earlier they would only flood the GUI.
pub const BOUND_REPORT_AFTER: Duration = Duration::from_secs(1);

/// The depth of quiescence results in the hash table: below every full-width search.
const QS_DEPTH: i32 = 0;

/// Entries of each correction-history table per side to move.
const CORRECTION_SIZE: usize = 16384;
/// Correction entries are kept in 1/CORRECTION_GRAIN centipawns, so that small steps add up.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction: 64 centipawns.
const CORRECTION_MAX: i32 = CORRECTION_GRAIN * 64;

/// How much wider the static pruning margins are than in orthodox chess: three times in antichess, where
/// material says little and a quiet position turns into a run of forced captures (Fairy-Stockfish's factor).
#[inline(always)]
fn margin_scale<R: Rules>() -> i32 {
    if R::MUST_CAPTURE {
        3
    } else {
        1
    }
}

/// What to search for how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub mate: Option<i32>,
    pub infinite: bool,
    /// Our clock, increment and moves to go (from `go wtime ... winc ... movestogo`).
    pub clock: Option<(Duration, Duration, Option<u32>)>,
    /// Root moves to consider (`searchmoves`); empty = all.
    pub searchmoves: Vec<Move>,
    pub multipv: usize,
    pub move_overhead: Duration,
}

/// One line of progress (UCI `info`).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: i32,
    pub seldepth: i32,
    pub multipv: usize,
    pub score: i32,
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
    /// Tablebase probes that found the position (root moves included).
    pub tbhits: u64,
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
}

/// The statistics that order moves, learnt by the search from its cutoffs: butterfly history,
/// counter-moves, continuation history and capture history. A game's searches share them (the next
/// move's search starts from what the previous one learnt); a new game clears them.
pub struct Histories {
    history: [[[i32; 64]; 64]; 2],
    countermoves: [[Option<Move>; 64]; 12],
    /// How a quiet (piece, to) fared after the (piece, to) one or two plies before, flat
    /// `[12 * 64][12 * 64]` (see `cont_index`).
    continuation: Box<[i32]>,
    /// `[piece][to][victim role]`.
    captures: [[[i32; 6]; 64]; 12],
    /// How far search results fell from the static evaluation, by side to move and pawn structure
    /// (`[side][pawn key % CORRECTION_SIZE]`) and by side to move and material (`[side][material key % ...]`),
    /// in 1/CORRECTION_GRAIN centipawns: the evaluation is corrected by their weighted mean (with the next).
    correction_pawns: Box<[i32]>,
    correction_material: Box<[i32]>,
    /// The same by side to move and the previous move's (piece, to), flat `[side][piece * 64 + to]`.
    correction_previous_move: Box<[i32]>,
}

impl Histories {
    pub fn new() -> Box<Histories> {
        Box::new(Histories {
            history: [[[0; 64]; 64]; 2],
            countermoves: [[None; 64]; 12],
            continuation: vec![0; CONT_SIZE].into_boxed_slice(),
            captures: [[[0; 6]; 64]; 12],
            correction_pawns: vec![0; 2 * CORRECTION_SIZE].into_boxed_slice(),
            correction_material: vec![0; 2 * CORRECTION_SIZE].into_boxed_slice(),
            correction_previous_move: vec![0; 2 * 12 * 64].into_boxed_slice(),
        })
    }

    pub fn clear(&mut self) {
        self.history = [[[0; 64]; 64]; 2];
        self.countermoves = [[None; 64]; 12];
        self.continuation.fill(0);
        self.captures = [[[0; 6]; 64]; 12];
        self.correction_pawns.fill(0);
        self.correction_material.fill(0);
        self.correction_previous_move.fill(0);
    }

    /// The correction entries of a position for the side to move: pawn structure, material, and the move
    /// that led to it (`previous`: its piece and target square; none at the root and after a null move).
    #[inline]
    fn correction_slots<R: Rules>(
        pos: &Position<R>,
        previous: Option<(usize, usize)>,
    ) -> (usize, usize, Option<usize>) {
        let side = pos.turn() as usize;
        (
            side * CORRECTION_SIZE + (pos.pawn_key() as usize) % CORRECTION_SIZE,
            side * CORRECTION_SIZE + (material_key(pos.board()) as usize) % CORRECTION_SIZE,
            previous.map(|(piece, to)| side * 12 * 64 + piece * 64 + to),
        )
    }

    /// The correction to add to the static evaluation of `pos` (centipawns): a weighted mean of the
    /// tables, pawn structure and material 2 each, the previous move 1 (0 without one).
    #[inline]
    fn correction<R: Rules>(&self, pos: &Position<R>, previous: Option<(usize, usize)>) -> i32 {
        let (p, m, c) = Self::correction_slots(pos, previous);
        let c = c.map_or(0, |c| self.correction_previous_move[c]);
        (2 * self.correction_pawns[p] + 2 * self.correction_material[m] + c) / (5 * CORRECTION_GRAIN)
    }

    /// A search of `depth` found `pos` worth `diff` centipawns more than its uncorrected evaluation: each
    /// entry moves toward that by a weight growing with depth (a running mean, recent results weighing more).
    fn update_correction<R: Rules>(
        &mut self,
        pos: &Position<R>,
        diff: i32,
        depth: i32,
        previous: Option<(usize, usize)>,
    ) {
        let (p, m, c) = Self::correction_slots(pos, previous);
        let weight = (depth + 1).min(16);
        let target = (diff * CORRECTION_GRAIN).clamp(-CORRECTION_MAX, CORRECTION_MAX);
        let update = |entry: &mut i32| {
            *entry = ((*entry * (256 - weight) + target * weight) / 256).clamp(-CORRECTION_MAX, CORRECTION_MAX);
        };
        update(&mut self.correction_pawns[p]);
        update(&mut self.correction_material[m]);
        if let Some(c) = c {
            update(&mut self.correction_previous_move[c]);
        }
    }
}

impl std::fmt::Debug for Histories {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Histories")
    }
}

struct Stack {
    killers: [Option<Move>; 2],
    static_eval: i32,
    moved: Option<(usize, usize)>, // (piece index, to square) of the move leading here
    excluded_null: bool,
    /// The move a singular-extension search leaves out at this ply.
    excluded: Option<Move>,
}

/// The search state of one thread.
pub struct Searcher<R: Rules> {
    tt: Arc<TranspositionTable>,
    pub eval: Evaluator,
    stop: Arc<AtomicBool>,
    nodes: u64,
    seldepth: i32,
    start: Instant,
    budget: TimeBudget,
    node_limit: Option<u64>,
    /// Move-ordering statistics; kept from one search to the next of a game (`take_histories`).
    hist: Box<Histories>,
    stack: Vec<Stack>,
    pv: Vec<Vec<Move>>,
    root_excluded: Vec<Move>,
    root_allowed: Vec<Move>,
    /// The iteration's depth (limits extensions: no path grows beyond twice it).
    root_depth: i32,
    lmr: [[i32; 64]; 64],
    /// Per-ply move-score buffers, reused so that no node allocates.
    score_buffers: Vec<Vec<i32>>,
    /// Endgame tables (orthodox chess only) and the most pieces to probe (`SyzygyProbeLimit`).
    tb: Option<Arc<Tablebases>>,
    tb_limit: usize,
    /// The variant's own tables (`mysl tb gen --variant`), for the variants that have them.
    variant_tb: Option<Arc<VariantTablebase>>,
    /// Pieces at or below which this search probes WDL (0: no probes).
    tb_cardinality: usize,
    tb_hits: u64,
    /// The root's table value, reported instead of a non-mate search score.
    root_tb_score: Option<i32>,
    /// Aspiration fail-highs and fail-lows are reported (`bound`) once the search has run this long.
    bound_report_after: Duration,
    /// The network's accumulator stack (orthodox chess with a network only; else the hand-crafted eval).
    nnue: Option<NnueStack>,
    _rules: std::marker::PhantomData<R>,
}

impl<R: Rules> std::fmt::Debug for Searcher<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Searcher<{}>({} nodes)", R::NAME, self.nodes)
    }
}

fn piece_index<R: Rules>(pos: &Position<R>, sq: mysl_core::Square) -> usize {
    pos.board().piece_at(sq).map_or(0, |p| p.color as usize * 6 + p.role as usize)
}

impl<R: Rules> Searcher<R> {
    pub fn new(tt: Arc<TranspositionTable>, stop: Arc<AtomicBool>) -> Searcher<R> {
        let mut lmr = [[0; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            }
        }
        let mut searcher = Searcher {
            tt,
            eval: Evaluator::default(),
            stop,
            nodes: 0,
            seldepth: 0,
            start: Instant::now(),
            budget: TimeBudget::unlimited(),
            node_limit: None,
            hist: Histories::new(),
            stack: (0..MAX_PLY + 4)
                .map(|_| Stack {
                    killers: [None; 2],
                    static_eval: 0,
                    moved: None,
                    excluded_null: false,
                    excluded: None,
                })
                .collect(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            root_excluded: Vec::new(),
            root_allowed: Vec::new(),
            root_depth: 0,
            lmr,
            score_buffers: (0..MAX_PLY + 4).map(|_| Vec::with_capacity(mysl_core::moves::MAX_MOVES)).collect(),
            tb: None,
            variant_tb: None,
            tb_limit: 0,
            tb_cardinality: 0,
            tb_hits: 0,
            root_tb_score: None,
            bound_report_after: BOUND_REPORT_AFTER,
            nnue: None,
            _rules: std::marker::PhantomData,
        };
        searcher.set_network(crate::nnue::default_network());
        searcher
    }

    /// The network to evaluate with (`None`: the hand-crafted evaluation). Used in orthodox chess and
    /// Chess960 only; the other variants ignore it.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.nnue = match net {
            Some(n) if matches!(R::VARIANT, Variant::Chess) => Some(NnueStack::new(n, MAX_PLY + 4)),
            _ => None,
        };
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.nnue.as_ref().map(|n| n.network())
    }

    /// Tests: refresh the accumulator at every evaluation instead of the lazy updates.
    #[cfg(test)]
    pub(crate) fn set_nnue_refresh_always(&mut self, on: bool) {
        if let Some(n) = self.nnue.as_mut() {
            n.set_refresh_always(on);
        }
    }

    /// Tests: the static evaluation of `pos` as the search sees it at its root.
    #[cfg(test)]
    pub(crate) fn static_eval(&mut self, pos: &Position<R>) -> i32 {
        self.nnue_root(pos);
        self.evaluate(pos, 0)
    }

    /// The static evaluation of `pos` at `ply`: the network (orthodox chess, when there is one) or the
    /// hand-crafted evaluation. The variant test is a constant: the other variants compile to the latter.
    #[inline]
    fn evaluate(&mut self, pos: &Position<R>, ply: i32) -> i32 {
        if matches!(R::VARIANT, Variant::Chess) {
            if let Some(n) = self.nnue.as_mut() {
                return n.evaluate(pos, ply as usize, self.eval.weights.tempo);
            }
        }
        self.eval.evaluate(pos)
    }

    /// A search starts at `pos`: the root accumulator is computed afresh.
    fn nnue_root(&mut self, pos: &Position<R>) {
        if matches!(R::VARIANT, Variant::Chess) {
            if let Some(n) = self.nnue.as_mut() {
                n.root(pos.board());
            }
        }
    }

    /// A move or null move led to `pos` at `ply`: its accumulator is stale (updated when evaluated).
    #[inline(always)]
    fn nnue_push(&mut self, ply: i32, pos: &Position<R>) {
        if matches!(R::VARIANT, Variant::Chess) {
            if let Some(n) = self.nnue.as_mut() {
                n.push(ply as usize, pos.board());
            }
        }
    }

    /// The move-ordering statistics, to give to the next search of the same game (`set_histories`);
    /// this searcher starts afresh.
    pub fn take_histories(&mut self) -> Box<Histories> {
        std::mem::replace(&mut self.hist, Histories::new())
    }

    /// Starts from the statistics an earlier search of the same game learnt (`take_histories`).
    pub fn set_histories(&mut self, hist: Box<Histories>) {
        self.hist = hist;
    }

    /// Forgets history and killers (`ucinewgame`).
    pub fn clear(&mut self) {
        self.hist.clear();
        self.eval.clear();
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Endgame tables to use (orthodox chess only) for positions of at most `probe_limit` pieces.
    pub fn set_tablebases(&mut self, tb: Option<Arc<Tablebases>>, probe_limit: usize) {
        self.tb = tb.filter(|t| !t.is_empty());
        self.variant_tb = if matches!(R::VARIANT, Variant::Chess) {
            None
        } else {
            self.tb.as_ref().and_then(|t| t.variant(R::VARIANT))
        };
        self.tb_limit = probe_limit;
    }

    /// After how long a search reports aspiration fail-highs and fail-lows (`SearchInfo::bound`);
    /// `BOUND_REPORT_AFTER` by default. Reporting never changes the search.
    pub fn set_bound_report_after(&mut self, after: Duration) {
        self.bound_report_after = after;
    }

    pub fn tb_hits(&self) -> u64 {
        self.tb_hits
    }

    /// The tables at the root. Narrows `root_allowed` to the moves of the best table rank (the ones that
    /// keep the win within the 50-move counter; in a draw, the non-losing ones), and returns the move to
    /// play at once with its score when our DTM settles it: the quickest mate (if that keeps the win within
    /// the counter, else the quickest safe conversion) or, when lost, the longest resistance.
    fn tablebase_root(&mut self, pos: &Position<R>, multipv: usize) -> Option<(Move, i32)> {
        self.tb_hits = 0;
        self.tb_cardinality = 0;
        self.root_tb_score = None;
        if !matches!(R::VARIANT, Variant::Chess) {
            return None;
        }
        let tb = self.tb.clone()?;
        let limit = self.tb_limit.min(tb.max_pieces());
        if limit < 3 {
            return None;
        }
        self.tb_cardinality = limit;
        if pos.board().occupied().count() as usize > limit
            || pos.castling().has_any(Color::White)
            || pos.castling().has_any(Color::Black)
        {
            return None;
        }
        let rp = tb.probe_root(pos)?;
        self.tb_hits += 1 + rp.moves.len() as u64;
        let allowed: Vec<_> = rp.moves.iter().filter(|m| self.root_allowed.contains(&m.mv)).collect();
        let best_rank = allowed.first()?.rank;
        // The root is in the tables: the search needs no probes below it (as Stockfish).
        self.tb_cardinality = 0;
        self.root_tb_score = Some(match rp.wdl50 {
            2 => TB_WIN - 1,
            -2 => -TB_WIN + 1,
            w => 2 * w as i32,
        });
        if multipv <= 1 && allowed.iter().all(|m| m.dtm.is_some()) {
            let dtm = |m: &mysl_tb::RootMove| m.dtm.unwrap_or(0);
            if best_rank >= RANK_WIN {
                let quickest = allowed.iter().filter(|m| dtm(m) > 0).min_by_key(|m| (dtm(m), m.dtz));
                let pick = match quickest {
                    Some(q) if q.rank >= RANK_WIN => Some(q),
                    _ => allowed.iter().filter(|m| m.rank >= RANK_WIN).min_by_key(|m| (m.dtz, dtm(m))),
                };
                if let Some(m) = pick {
                    let score = if dtm(m) > 0 { MATE_SCORE - dtm(m) } else { TB_WIN - 1 };
                    return Some((m.mv, score));
                }
            } else if best_rank <= -RANK_WIN + 100 {
                // every move loses whatever the counter: resist longest
                if let Some(m) = allowed.iter().min_by_key(|m| (dtm(m), m.dtz)) {
                    let score = if dtm(m) < 0 { -(MATE_SCORE + dtm(m)) } else { -TB_WIN + 1 };
                    return Some((m.mv, score));
                }
            }
        }
        self.root_allowed = allowed.iter().filter(|m| m.rank == best_rank).map(|m| m.mv).collect();
        None
    }

    /// A search score as reported: the root's table value unless the search found a mate.
    fn reported(&self, score: i32) -> i32 {
        match self.root_tb_score {
            Some(t) if score.abs() < MATE_BOUND => t,
            _ => score,
        }
    }

    /// Searches `pos` within `limits`, reporting each completed iteration to `on_info`.
    pub fn search(&mut self, pos: &Position<R>, limits: &Limits, mut on_info: impl FnMut(&SearchInfo)) -> SearchResult {
        self.start = Instant::now();
        self.nodes = 0;
        self.node_limit = limits.nodes;
        self.budget = TimeBudget::from_limits(limits, pos.fullmoves());
        self.tt.new_search();
        for s in &mut self.stack {
            s.killers = [None; 2];
        }
        let mut pos = pos.clone();
        self.nnue_root(&pos);
        let legal = pos.legal_moves();
        self.root_allowed =
            legal.iter().filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m)).collect();
        if let Some((mv, score)) = self.tablebase_root(&pos, limits.multipv) {
            on_info(&SearchInfo {
                depth: 1,
                seldepth: 1,
                multipv: 1,
                score,
                bound: None,
                nodes: 0,
                time: self.start.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: vec![mv],
                tbhits: self.tb_hits,
            });
            return SearchResult { best: Some(mv), ponder: None, score, depth: 1, nodes: 0 };
        }
        let mut result = SearchResult { best: self.root_allowed.first().copied(), ..SearchResult::default() };
        if self.root_allowed.is_empty() {
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as i32 - 4).clamp(1, MAX_PLY as i32 - 4);
        let multipv = limits.multipv.clamp(1, self.root_allowed.len());
        let mut previous_best: Option<Move> = None;
        let mut stable_iterations = 0;
        let mut previous_score: Option<i32> = None;
        let mut scores = vec![0; multipv];
        // Each line's PV from the last completed iteration (shown with a fail-low).
        let mut last_pvs: Vec<Vec<Move>> = vec![Vec::new(); multipv];
        // This iteration's finished lines, best first: (score, PV, seldepth).
        let mut ranked: Vec<(i32, Vec<Move>, i32)> = Vec::with_capacity(multipv);

        'deepening: for depth in 1..=max_depth {
            self.root_excluded.clear();
            self.root_depth = depth;
            ranked.clear();
            #[allow(clippy::needless_range_loop)]
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let prev = scores[pv_index];
                let mut delta = 20;
                let (mut alpha, mut beta) = if depth >= 4 {
                    ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
                } else {
                    (-INFINITY, INFINITY)
                };
                let score = loop {
                    let score = self.negamax(&mut pos, alpha, beta, depth, 0, true, false);
                    if self.stopped() {
                        break score;
                    }
                    let bound = if score <= alpha {
                        Bound::Upper
                    } else if score >= beta {
                        Bound::Lower
                    } else {
                        break score;
                    };
                    // A fail-high or fail-low: say so before re-searching (only reporting; the search
                    // goes on exactly as it would without it).
                    if self.start.elapsed() >= self.bound_report_after && self.reported(score) == score {
                        let pv = match bound {
                            Bound::Lower if !self.pv[0].is_empty() => self.pv[0].clone(),
                            _ => last_pvs[pv_index].clone(),
                        };
                        // A fail-low's line is the previous iteration's; its first move may be one that
                        // this iteration already reported as a better line (MultiPV): not shown twice.
                        if !pv.is_empty() && !self.root_excluded.contains(&pv[0]) {
                            on_info(&SearchInfo {
                                depth,
                                seldepth: self.seldepth.max(depth),
                                multipv: pv_index + 1,
                                score,
                                bound: Some(bound),
                                nodes: self.nodes,
                                time: self.start.elapsed(),
                                hashfull: self.tt.hashfull(),
                                pv,
                                tbhits: self.tb_hits,
                            });
                        }
                    }
                    if bound == Bound::Upper {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITY);
                    } else {
                        beta = (score + delta).min(INFINITY);
                    }
                    delta += delta / 2 + 10;
                };
                if self.stopped() && depth > 1 {
                    break 'deepening;
                }
                let pv = self.pv[0].clone();
                if pv.is_empty() {
                    break;
                }
                scores[pv_index] = score;
                last_pvs[pv_index].clone_from(&pv);
                self.root_excluded.push(pv[0]);
                // MultiPV: a later line can score better than an earlier one of the same iteration (its
                // search, without the earlier lines' moves, can see what theirs pruned). Lines are kept
                // best first: `multipv 1` and the best move are the best line found, and the lines it
                // passes are reported again one place lower. (Reporting and the move chosen only: each
                // line's search, its window included, is what it was.)
                let at = ranked.partition_point(|line| line.0 >= score);
                ranked.insert(at, (score, pv, self.seldepth.max(depth)));
                if at == 0 {
                    let best = &ranked[0].1;
                    result = SearchResult {
                        best: best.first().copied(),
                        ponder: best.get(1).copied(),
                        score: self.reported(score),
                        depth,
                        nodes: self.nodes,
                    };
                }
                for (i, (line_score, line_pv, seldepth)) in ranked.iter().enumerate().skip(at) {
                    on_info(&SearchInfo {
                        depth,
                        seldepth: *seldepth,
                        multipv: i + 1,
                        score: self.reported(*line_score),
                        bound: None,
                        nodes: self.nodes,
                        time: self.start.elapsed(),
                        hashfull: self.tt.hashfull(),
                        pv: line_pv.clone(),
                        tbhits: self.tb_hits,
                    });
                }
            }
            if let Some(m) = limits.mate {
                if ranked.first().is_some_and(|line| line.0 >= MATE_SCORE - 2 * m) {
                    break;
                }
            }
            if result.best == previous_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            previous_best = result.best;
            let score_drop = previous_score.map_or(0, |p| p - result.score);
            previous_score = Some(result.score);
            if self.budget.should_stop_iterating(self.start.elapsed(), stable_iterations, score_drop) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn check_limits(&mut self) {
        if self.nodes & 1023 == 0 && self.budget.hard_exceeded(self.start.elapsed()) {
            self.stop.store(true, Ordering::Relaxed);
        }
        if let Some(n) = self.node_limit {
            if self.nodes >= n {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The score of a finished game for the side to move at `ply`.
    fn terminal_score(&self, outcome: Outcome, pos: &Position<R>, ply: i32) -> i32 {
        match outcome.winner() {
            None => DRAW,
            Some(w) if w == pos.turn() => MATE_SCORE - ply,
            Some(_) => -(MATE_SCORE - ply),
        }
    }

    // The window, depth, ply and node type are the search's state, passed as Stockfish passes them.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &mut Position<R>,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: i32,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        let root = ply == 0;
        self.pv[ply as usize].clear();
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        self.check_limits();
        if self.stopped() && !root {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if !root {
            if let Some(o) = pos.variant_outcome() {
                return self.terminal_score(o, pos, ply);
            }
            if R::HAS_VARIANT_END && variant_win_in_one(pos) {
                return MATE_SCORE - ply - 1;
            }
            if (pos.halfmoves() >= 100 || pos.is_repetition() || pos.is_insufficient_material())
                && !(pos.halfmoves() >= 100 && pos.is_check() && !pos.has_legal_moves())
            {
                return DRAW;
            }
            // Mate distance pruning.
            alpha = alpha.max(-(MATE_SCORE - ply));
            beta = beta.min(MATE_SCORE - ply - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply as usize >= MAX_PLY - 2 {
                return self.evaluate(pos, ply);
            }
        }

        // Dice chess: a position whose die is not rolled yet is a chance node. Its value is the mean over
        // the faces that have a legal move (the others are re-rolled), each searched with a full window.
        if matches!(R::VARIANT, mysl_core::Variant::Dice) && !root && pos.state().roll().is_none() {
            let faces = pos.dice_faces_with_moves();
            if faces.is_empty() {
                return DRAW;
            }
            let mut sum = 0i64;
            for &face in &faces {
                pos.set_dice_roll(Some(face));
                sum += self.negamax(pos, -INFINITY, INFINITY, depth, ply, pv_node, cut_node) as i64;
                pos.set_dice_roll(None);
                if self.stopped() {
                    return 0;
                }
            }
            self.pv[ply as usize].clear();
            return (sum / faces.len() as i64) as i32;
        }

        let excluded = self.stack[ply as usize].excluded;
        let key = pos.key();
        let tt_entry = self.tt.probe(key, ply);
        let tt_move = tt_entry.and_then(|e| e.mv);
        if let Some(e) = tt_entry {
            if !pv_node && excluded.is_none() && e.depth >= depth {
                let cutoff = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if cutoff {
                    return e.score;
                }
            }
        }

        // Tablebases: a WDL probe after a zeroing move (the counter is 0, as the tables assume).
        let mut tb_floor = -INFINITY;
        let mut tb_cap = INFINITY;
        if matches!(R::VARIANT, Variant::Chess)
            && self.tb_cardinality > 0
            && !root
            && excluded.is_none()
            && pos.halfmoves() == 0
        {
            if let Some((value, bound)) = self.probe_wdl(pos, ply) {
                let cut = match bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if cut {
                    let eval = if pos.is_check() { 0 } else { self.evaluate(pos, ply) };
                    self.tt.store(key, None, value, eval, (depth + 6).min(MAX_PLY as i32 - 1), bound, ply);
                    return value;
                }
                if pv_node {
                    if bound == Bound::Lower {
                        tb_floor = value;
                        alpha = alpha.max(value);
                    } else {
                        tb_cap = value;
                    }
                }
            }
        }

        // A variant's tables: exact distance to mate (no castling rights, no en-passant capture pending).
        if !matches!(R::VARIANT, Variant::Chess) && !root && excluded.is_none() {
            if let Some(vt) = &self.variant_tb {
                if pos.board().occupied().count() as usize <= vt.max_pieces()
                    && pos.ep_square().is_none()
                    && !pos.castling().has_any(Color::White)
                    && !pos.castling().has_any(Color::Black)
                {
                    if let Some(v) = vt.probe(pos.board(), pos.turn()) {
                        self.tb_hits += 1;
                        return match v {
                            Dtm::Draw => DRAW,
                            Dtm::Win(d) => MATE_SCORE - ply - d as i32,
                            Dtm::Loss(d) => -(MATE_SCORE - ply - d as i32),
                        };
                    }
                }
            }
        }

        let in_check = pos.is_check();
        // The hash table keeps the uncorrected evaluation: the correction moves on as the search learns.
        let raw_eval = if in_check {
            -INFINITY
        } else if let Some(e) = tt_entry {
            e.eval
        } else {
            self.evaluate(pos, ply)
        };
        let static_eval = self.corrected(pos, raw_eval, ply);
        self.stack[ply as usize].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply as usize - 2].static_eval;

        // Three-check: with one check left to the opponent, any checking reply ends the game, so neither the
        // evaluation nor a null move's search says enough to prune the node.
        let last_check_threat =
            matches!(R::VARIANT, Variant::ThreeCheck) && pos.state().remaining_checks()[!pos.turn() as usize] == 1;
        if !pv_node && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND && !last_check_threat {
            // Reverse futility pruning.
            // The value returned is between the evaluation and beta: the evaluation is a guess, and a
            // fail-high far above beta would come back to the parent as a too-low upper bound.
            if depth <= 7
                && static_eval - 75 * margin_scale::<R>() * (depth - improving as i32) >= beta
                // Antichess: with a capture to make, every move gives material: no static verdict.
                && !(R::MUST_CAPTURE && has_capture(pos))
                // A quiet hash move is a plan the evaluation does not see (Stockfish's condition).
                && tt_move.is_none_or(|m| is_capture(pos, m))
            {
                return (static_eval + beta) / 2;
            }
            // Null move, not in pawn endings (zugzwang) and not twice in a row.
            let board = pos.board();
            let non_pawn = board.by_color(pos.turn()) - board.pawns() - board.kings();
            if depth >= 3
                && static_eval >= beta
                && non_pawn.any()
                && !self.stack[ply as usize].excluded_null
                && !R::MUST_CAPTURE
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                pos.play_null();
                self.nnue_push(ply + 1, pos);
                self.stack[ply as usize + 1].excluded_null = true;
                self.stack[ply as usize + 1].moved = None;
                let score = -self.negamax(pos, -beta, -beta + 1, depth - 1 - r, ply + 1, false, !cut_node);
                self.stack[ply as usize + 1].excluded_null = false;
                pos.unplay_null();
                if self.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        // ProbCut: a capture that wins enough material by exchange and whose quiescence and reduced
        // searches still beat beta by a margin refutes the node without a full search.
        if !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= 5
            && beta.abs() < MATE_BOUND
            && !R::MUST_CAPTURE
            && !last_check_threat
        {
            let probcut_beta = beta + 200;
            let hash_says_no = tt_entry.is_some_and(|e| e.depth >= depth - 3 && e.score < probcut_beta);
            if !hash_says_no {
                let mut tactical = MoveList::new();
                pos.legal_tactical_moves_into(&mut tactical);
                for mv in tactical.iter() {
                    if !is_capture(pos, mv) || !see_ge(pos, mv, probcut_beta - static_eval) {
                        continue;
                    }
                    let moved_piece = piece_index(pos, mv.from());
                    pos.play_unchecked(mv);
                    self.nnue_push(ply + 1, pos);
                    self.stack[ply as usize + 1].moved = Some((moved_piece, mv.to() as usize));
                    let mut score = -self.quiescence(pos, -probcut_beta, -probcut_beta + 1, ply + 1, 0);
                    if score >= probcut_beta {
                        score =
                            -self.negamax(pos, -probcut_beta, -probcut_beta + 1, depth - 4, ply + 1, false, !cut_node);
                    }
                    pos.unplay(mv);
                    if self.stopped() {
                        return 0;
                    }
                    if score >= probcut_beta {
                        self.tt.store(key, Some(mv), score, raw_eval, depth - 3, Bound::Lower, ply);
                        return score;
                    }
                }
            }
        }
        // Internal iterative reduction: without a hash move, a deep node is searched a ply shallower.
        let depth = if depth >= 4 && tt_move.is_none() { depth - 1 } else { depth };

        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return match pos.outcome() {
                Some(o) => self.terminal_score(o, pos, ply),
                None => DRAW,
            };
        }
        // Singular extension: when the hash move is much better than every other move (a search without
        // it at half depth fails low against the hash score minus a margin), it is searched a ply deeper.
        // When even the other moves beat beta by the margin, several moves refute: cut (multi-cut).
        let mut singular = false;
        if let (Some(e), Some(tm)) = (tt_entry, tt_move) {
            if !root
                && excluded.is_none()
                && depth >= 8
                && e.depth >= depth - 3
                && e.bound != Bound::Upper
                && e.score.abs() < MATE_BOUND
                && ply < 2 * self.root_depth
            {
                let singular_beta = e.score - 2 * depth;
                self.stack[ply as usize].excluded = Some(tm);
                let value = self.negamax(pos, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, false, cut_node);
                self.stack[ply as usize].excluded = None;
                self.pv[ply as usize].clear();
                if self.stopped() {
                    return 0;
                }
                if value < singular_beta {
                    singular = true;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }

        let mut scores = std::mem::take(&mut self.score_buffers[ply as usize]);
        self.score_moves(pos, &moves, tt_move, ply, &mut scores);

        let mut best_score = tb_floor;
        let mut best_move = None;
        let mut searched = 0;
        let mut quiets_tried = [Move::normal(mysl_core::Square::A1, mysl_core::Square::B1); 64];
        let mut quiet_count = 0;
        let mut captures_tried = [Move::normal(mysl_core::Square::A1, mysl_core::Square::B1); 32];
        let mut capture_count = 0;
        let original_alpha = alpha;
        let prev = self.continuation_keys(ply);

        for i in 0..moves.len() {
            let mv = pick_next(&mut moves, &mut scores, i);
            if root && (self.root_excluded.contains(&mv) || !self.root_allowed.contains(&mv)) {
                continue;
            }
            if excluded == Some(mv) {
                continue;
            }
            let capture = is_capture(pos, mv);
            let quiet = !capture && mv.promotion().is_none();
            // Pruning of late, futile quiet moves and losing captures; moves that give check are kept.
            let mut prune = false;
            // A move pruned as futile is worth at most the futility value: the node's fail-soft upper
            // bound is not below it.
            let mut futile_bound = -INFINITY;
            if !root && best_score > -MATE_BOUND && !in_check {
                // Antichess: a quiet move onto an attacked square forces the opponent's capture.
                let offers = R::MUST_CAPTURE
                    && quiet
                    && pos.board().is_attacked(
                        mv.to(),
                        !pos.turn(),
                        pos.board().occupied() ^ Bitboard::from_square(mv.from()),
                    );
                if quiet && !offers {
                    let futility = static_eval + (100 + 90 * depth) * margin_scale::<R>();
                    if depth <= 6 && futility <= alpha {
                        futile_bound = futility;
                    }
                    // A quiet move that loses material by exchange (more the shallower) is pruned too.
                    prune = (!pv_node && depth <= 8 && searched >= (3 + depth * depth) / (2 - improving as i32))
                        || futile_bound > -INFINITY
                        || (depth <= 8 && searched > 0 && !see_ge(pos, mv, -20 * depth * depth));
                } else if depth <= 6 && capture && !R::MUST_CAPTURE && !see_ge(pos, mv, -90 * depth) {
                    // (Antichess: a capture that loses material by orthodox exchange is often the best move.)
                    prune = true;
                }
            }
            let moved_piece = piece_index(pos, mv.from());
            let history = if quiet { self.quiet_history(pos, mv, &prev) } else { 0 };
            pos.play_unchecked(mv);
            self.tt.prefetch(pos.key());
            let gives_check = pos.is_check();
            if prune && !gives_check {
                pos.unplay(mv);
                best_score = best_score.max(futile_bound);
                continue;
            }
            // A check is extended unless it gives material away by exchange (three-check: every check counts).
            // SEE needs the position before the move: taken back and replayed for checks only, which are
            // few, rather than an exchange evaluated for every move searched.
            let extend_check = gives_check
                && (matches!(R::VARIANT, Variant::ThreeCheck) || {
                    pos.unplay(mv);
                    let keeps_material = see_ge(pos, mv, 0);
                    pos.play_unchecked(mv);
                    keeps_material
                });
            self.nnue_push(ply + 1, pos);
            self.stack[ply as usize + 1].moved = Some((moved_piece, mv.to() as usize));
            // Antichess: a forced move (often the only capture) does not use up depth.
            let forced = R::MUST_CAPTURE && moves.len() == 1;
            let extension = if extend_check || forced || (singular && Some(mv) == tt_move) { 1 } else { 0 };
            let new_depth = depth - 1 + extension;
            let score = if searched == 0 {
                -self.negamax(pos, -beta, -alpha, new_depth, ply + 1, pv_node, !pv_node && !cut_node)
            } else {
                let mut reduction = 0;
                // Losing captures (by exchange) at non-PV nodes are reduced like quiet moves.
                let late = depth >= 3 && searched >= 2 && !in_check;
                // (Orthodox only: three-check lost 180-212-8 with both changes; the other variants are untested.)
                let orthodox = matches!(R::VARIANT, Variant::Chess);
                let losing_capture = late && capture && !pv_node && orthodox && {
                    pos.unplay(mv);
                    let losing = !see_ge(pos, mv, 0);
                    pos.play_unchecked(mv);
                    losing
                };
                if late && (quiet || losing_capture) {
                    reduction = self.lmr[depth.min(63) as usize][searched.min(63) as usize];
                    reduction -= pv_node as i32;
                    // Expected cut nodes: a late move is unlikely to be the one that refutes.
                    reduction += (cut_node && quiet && orthodox) as i32;
                    reduction -= improving as i32;
                    if self.stack[ply as usize].killers.contains(&Some(mv)) {
                        reduction -= 1;
                    }
                    reduction -= (history / 8000).clamp(-2, 2);
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                // The reduced search expects to fail high (a cut node); an unreduced one alternates.
                let mut s = -self.negamax(
                    pos,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    ply + 1,
                    false,
                    reduction > 0 || !cut_node,
                );
                if s > alpha && reduction > 0 {
                    s = -self.negamax(pos, -alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.negamax(pos, -beta, -alpha, new_depth, ply + 1, true, false);
                }
                s
            };
            pos.unplay(mv);
            if self.stopped() && !(root && searched == 0 && depth == 1) {
                self.score_buffers[ply as usize] = scores;
                return 0;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply as usize + 1);
                    head[ply as usize].clear();
                    head[ply as usize].push(mv);
                    head[ply as usize].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(pos, mv, &quiets_tried[..quiet_count], depth, ply);
                            self.update_capture_stats(pos, None, &captures_tried[..capture_count], depth);
                        } else if capture {
                            self.update_capture_stats(pos, Some(mv), &captures_tried[..capture_count], depth);
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            } else if capture && capture_count < captures_tried.len() {
                captures_tried[capture_count] = mv;
                capture_count += 1;
            }
        }
        self.score_buffers[ply as usize] = scores;
        if searched == 0 {
            // Every move was pruned or excluded (at the root, or the singular search's only move).
            return if root || excluded.is_some() { alpha } else { static_eval.max(-MATE_BOUND + 1) };
        }
        let best_score = best_score.min(tb_cap);
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none() && (!root || self.root_excluded.is_empty()) {
            self.tt.store(key, best_move, best_score, if in_check { 0 } else { raw_eval }, depth, bound, ply);
        }
        // The correction history learns where the evaluation was wrong: after a quiet best move (or none),
        // when the bound says the true score lies beyond the evaluation on the side the search found.
        if excluded.is_none()
            && !in_check
            && best_move.is_none_or(|m| !is_capture(pos, m) && m.promotion().is_none())
            && best_score.abs() < MATE_BOUND
            && match bound {
                Bound::Exact => true,
                Bound::Lower => best_score > static_eval,
                Bound::Upper => best_score < static_eval,
            }
        {
            self.hist.update_correction(pos, best_score - raw_eval, depth, self.stack[ply as usize].moved);
        }
        best_score
    }

    /// `raw_eval` (the evaluation of `pos`; -INFINITY in check) with the correction history's correction.
    #[inline]
    fn corrected(&self, pos: &Position<R>, raw_eval: i32, ply: i32) -> i32 {
        if raw_eval == -INFINITY {
            return raw_eval;
        }
        (raw_eval + self.hist.correction(pos, self.stack[ply as usize].moved)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The table's WDL as a score and bound: wins and losses are bounds (the search may find the mate),
    /// draws exact; a cursed win or blessed loss is a draw under the 50-move rule (scored +-2).
    #[inline(never)]
    fn probe_wdl(&mut self, pos: &Position<R>, ply: i32) -> Option<(i32, Bound)> {
        let board = pos.board();
        if board.occupied().count() as usize > self.tb_cardinality
            || pos.castling().has_any(Color::White)
            || pos.castling().has_any(Color::Black)
        {
            return None;
        }
        let wdl = self.tb.as_ref()?.probe_wdl(board, pos.turn(), pos.ep_square())?;
        self.tb_hits += 1;
        Some(match wdl {
            2 => (TB_WIN - ply, Bound::Lower),
            -2 => (-TB_WIN + ply, Bound::Upper),
            w => (2 * w as i32, Bound::Exact),
        })
    }

    /// A quiet move `mv` refuted the node: killers, counter-move, and the butterfly and continuation
    /// histories (a bonus for it, a malus for the quiets tried before it).
    fn update_quiet_stats(&mut self, pos: &Position<R>, mv: Move, tried: &[Move], depth: i32, ply: i32) {
        let s = &mut self.stack[ply as usize];
        if s.killers[0] != Some(mv) {
            s.killers[1] = s.killers[0];
            s.killers[0] = Some(mv);
        }
        let us = pos.turn() as usize;
        let bonus = history_bonus(depth);
        gravity(&mut self.hist.history[us][mv.from() as usize][mv.to() as usize], bonus);
        for q in tried {
            gravity(&mut self.hist.history[us][q.from() as usize][q.to() as usize], -bonus);
        }
        let prev = self.continuation_keys(ply);
        for key in prev.into_iter().flatten() {
            gravity(&mut self.hist.continuation[cont_index(key, piece_index(pos, mv.from()), mv.to() as usize)], bonus);
            for q in tried {
                gravity(
                    &mut self.hist.continuation[cont_index(key, piece_index(pos, q.from()), q.to() as usize)],
                    -bonus,
                );
            }
        }
        if let Some((piece, to)) = self.stack[ply as usize].moved {
            self.hist.countermoves[piece][to] = Some(mv);
        }
    }

    /// A capture `mv` refuted the node, or a quiet move did after `tried` captures: the capture history.
    fn update_capture_stats(&mut self, pos: &Position<R>, best: Option<Move>, tried: &[Move], depth: i32) {
        let bonus = history_bonus(depth);
        if let Some(mv) = best {
            let (p, to, victim) = capture_key(pos, mv);
            gravity(&mut self.hist.captures[p][to][victim], bonus);
        }
        for &c in tried {
            let (p, to, victim) = capture_key(pos, c);
            gravity(&mut self.hist.captures[p][to][victim], -bonus);
        }
    }

    /// The (piece, to) of the moves one and two plies before `ply` (none after a null move or at the root).
    #[inline]
    fn continuation_keys(&self, ply: i32) -> [Option<(usize, usize)>; 2] {
        let one = self.stack[ply as usize].moved;
        let two = if ply >= 1 { self.stack[ply as usize - 1].moved } else { None };
        [one, two]
    }

    /// The history score of a quiet move: butterfly plus the continuations one and two plies back.
    #[inline]
    fn quiet_history(&self, pos: &Position<R>, mv: Move, prev: &[Option<(usize, usize)>; 2]) -> i32 {
        let piece = piece_index(pos, mv.from());
        let to = mv.to() as usize;
        let mut h = self.hist.history[pos.turn() as usize][mv.from() as usize][to];
        for key in prev.iter().flatten() {
            h += self.hist.continuation[cont_index(*key, piece, to)];
        }
        h
    }

    fn score_moves(&self, pos: &Position<R>, moves: &MoveList, tt_move: Option<Move>, ply: i32, out: &mut Vec<i32>) {
        let board = pos.board();
        let killers = self.stack[ply as usize].killers;
        let counter = self.stack[ply as usize].moved.and_then(|(p, to)| self.hist.countermoves[p][to]);
        let prev = self.continuation_keys(ply);
        out.clear();
        out.extend(moves.iter().map(|mv| {
            if Some(mv) == tt_move {
                return 2_000_000_000;
            }
            if is_capture(pos, mv) {
                let victim = board.role_at(mv.to()).map_or(100, value);
                let attacker = board.role_at(mv.from()).map_or(1, value);
                let base = if see_ge(pos, mv, 0) { 1_000_000_000 } else { -1_000_000 };
                let (p, to, v) = capture_key(pos, mv);
                return base + victim * 16 + self.hist.captures[p][to][v] / 8 - attacker / 16
                    + mv.promotion().map_or(0, value);
            }
            if let Some(r) = mv.promotion() {
                return if r == Role::Queen { 950_000_000 } else { -2_000_000 };
            }
            if killers[0] == Some(mv) {
                900_000_000
            } else if killers[1] == Some(mv) {
                890_000_000
            } else if counter == Some(mv) {
                880_000_000
            } else {
                self.quiet_history(pos, mv, &prev)
            }
        }));
    }

    /// Captures and queen promotions until the position is quiet (every move in check or in antichess);
    /// in three-check the first quiescence ply also searches quiet checks. `qply` counts its plies.
    fn quiescence(&mut self, pos: &mut Position<R>, mut alpha: i32, beta: i32, ply: i32, qply: i32) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        self.pv[ply as usize].clear();
        if let Some(o) = pos.variant_outcome() {
            return self.terminal_score(o, pos, ply);
        }
        if R::HAS_VARIANT_END && variant_win_in_one(pos) {
            return MATE_SCORE - ply - 1;
        }
        if pos.is_repetition() || pos.halfmoves() >= 100 {
            return DRAW;
        }
        let in_check = pos.is_check();
        if ply as usize >= MAX_PLY - 2 {
            return if in_check { DRAW } else { self.evaluate(pos, ply) };
        }
        let key = pos.key();
        let tt_entry = self.tt.probe(key, ply);
        if let Some(e) = tt_entry {
            let cutoff = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if cutoff {
                return e.score;
            }
        }
        let mut best = -INFINITY;
        let raw_eval = if in_check {
            -INFINITY
        } else {
            match tt_entry {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            }
        };
        let stand_pat = self.corrected(pos, raw_eval, ply);
        if !in_check {
            if stand_pat >= beta {
                if tt_entry.is_none() {
                    self.tt.store(key, None, stand_pat, raw_eval, QS_DEPTH, Bound::Lower, ply);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let quiet_checks = matches!(R::VARIANT, Variant::ThreeCheck) && !in_check && qply == 0;
        let direct = if quiet_checks { check_squares(pos) } else { None };
        let tactical_only = !in_check && !R::MUST_CAPTURE && direct.is_none();
        let mut moves = MoveList::new();
        if tactical_only {
            // Only captures and queen promotions are searched here: the quiet moves are not generated.
            pos.legal_tactical_moves_into(&mut moves);
            if moves.is_empty() && !pos.has_legal_moves() {
                return match pos.outcome() {
                    Some(o) => self.terminal_score(o, pos, ply),
                    None => DRAW,
                };
            }
            moves.retain(|m| is_capture(pos, m) || m.promotion() == Some(Role::Queen));
        } else {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                return match pos.outcome() {
                    Some(o) => self.terminal_score(o, pos, ply),
                    None => DRAW,
                };
            }
        }
        let tt_move = tt_entry.and_then(|e| e.mv);
        let mut scores = std::mem::take(&mut self.score_buffers[ply as usize]);
        self.score_moves(pos, &moves, tt_move, ply, &mut scores);
        let original_alpha = alpha;
        let mut best_move = None;
        for i in 0..moves.len() {
            let mv = pick_next(&mut moves, &mut scores, i);
            let capture = is_capture(pos, mv);
            if !in_check && !R::MUST_CAPTURE {
                if !capture && mv.promotion() != Some(Role::Queen) {
                    // Three-check: a quiet check that does not lose material is searched too.
                    let check = direct.as_ref().is_some_and(|d| gives_check(pos, mv, d));
                    if !check || !see_ge(pos, mv, 0) {
                        continue;
                    }
                } else {
                    // Delta pruning and losing captures.
                    let gain = pos.board().role_at(mv.to()).map_or(0, value) + mv.promotion().map_or(0, value);
                    let optimistic = stand_pat + gain + 200;
                    if optimistic <= alpha && mv.promotion().is_none() {
                        // The capture may still be worth up to its optimistic value: a fail-low result below
                        // it would be a wrong upper bound (and a too-high lower bound for the parent).
                        // Not in three-check, where it measured worse (docs/strength.md).
                        if !matches!(R::VARIANT, Variant::ThreeCheck) {
                            best = best.max(optimistic);
                        }
                        continue;
                    }
                    if !see_ge(pos, mv, 0) {
                        continue;
                    }
                }
            } else if R::MUST_CAPTURE && !in_check && !capture {
                // Antichess: a quiet position (no capture) ends the quiescence.
                if best > -INFINITY {
                    break;
                }
            }
            pos.play_unchecked(mv);
            self.nnue_push(ply + 1, pos);
            self.tt.prefetch(pos.key());
            let score = -self.quiescence(pos, -beta, -alpha, ply + 1, qply + 1);
            pos.unplay(mv);
            if self.stopped() {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.score_buffers[ply as usize] = scores;
        if self.stopped() {
            return 0;
        }
        if best == -INFINITY {
            // In antichess with only quiet moves, the static evaluation stands.
            return self.evaluate(pos, ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval = if in_check { 0 } else { raw_eval };
        self.tt.store(key, best_move, best, eval, QS_DEPTH, bound, ply);
        best
    }
}

/// A hash of the material on the board (the number of pieces of each colour and role but kings).
#[inline]
fn material_key(board: &mysl_core::Board) -> u64 {
    let mut key = 0u64;
    for color in Color::ALL {
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let n = (board.by_color(color) & board.by_role(role)).count() as u64;
            key = (key ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    key ^ (key >> 29)
}

/// Entries of the continuation history: (12 pieces × 64 squares)².
const CONT_SIZE: usize = 12 * 64 * 12 * 64;

/// The continuation history's entry for `piece` to `to` after the earlier move `prev` (piece, to).
#[inline(always)]
fn cont_index(prev: (usize, usize), piece: usize, to: usize) -> usize {
    ((prev.0 * 64 + prev.1) * 12 + piece) * 64 + to
}

/// The capture history's key of a capture: (moving piece, to square, victim role; a pawn en passant).
#[inline(always)]
fn capture_key<R: Rules>(pos: &Position<R>, mv: Move) -> (usize, usize, usize) {
    let victim = pos.board().role_at(mv.to()).map_or(0, |r| r as usize);
    (piece_index(pos, mv.from()), mv.to() as usize, victim)
}

/// The history bonus (and malus) for a cutoff at `depth`.
#[inline(always)]
fn history_bonus(depth: i32) -> i32 {
    (250 * depth - 100).clamp(0, 1600)
}

/// A history update with gravity: entries stay within ±16384 and recent results weigh more.
#[inline(always)]
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / 16384;
}

/// Material values for move ordering and SEE.
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 20000,
    }
}

/// A capture of an enemy piece (Recycle's capture of an own piece is a quiet move here: it gains nothing).
fn is_capture<R: Rules>(pos: &Position<R>, mv: Move) -> bool {
    mv.is_en_passant()
        || (!mv.is_castle() && mv.drop_role().is_none() && pos.board().by_color(!pos.turn()).contains(mv.to()))
}

/// Squares from which a piece of each role (P, N, B, R, Q, K) of the side to move attacks the enemy
/// king now (direct checks; a king gives none).
fn check_squares<R: Rules>(pos: &Position<R>) -> Option<[Bitboard; 6]> {
    let board = pos.board();
    let us = pos.turn();
    let king = board.king_of(!us)?;
    let occ = board.occupied();
    let bishop = attacks::bishop_attacks(king, occ);
    let rook = attacks::rook_attacks(king, occ);
    Some([
        attacks::pawn_attacks(!us, king),
        attacks::knight_attacks(king),
        bishop,
        rook,
        bishop | rook,
        Bitboard::EMPTY,
    ])
}

/// Whether the legal move `mv` gives check (orthodox geometry). A piece that lands on a direct check
/// square checks (the square saw the king with the piece still on its origin, which only lifts a
/// blocker); castling, en passant, promotions and moves from a line through the enemy king (discovered
/// checks) are played to be sure.
fn gives_check<R: Rules>(pos: &mut Position<R>, mv: Move, direct: &[Bitboard; 6]) -> bool {
    let board = pos.board();
    if let (Some(role), None, false, false) =
        (board.role_at(mv.from()), mv.promotion(), mv.is_castle(), mv.is_en_passant())
    {
        if direct[role as usize].contains(mv.to()) {
            return true;
        }
        let king = board.king_of(!pos.turn());
        if king.is_none_or(|k| attacks::line(mv.from(), k).is_empty()) {
            return false;
        }
    }
    pos.play_unchecked(mv);
    let check = pos.is_check();
    pos.unplay(mv);
    check
}

/// A win the side to move takes with its next move under a variant rule, found without a search:
/// Three-check with one check to go and a checking move; Extinction with an enemy piece that is the last
/// of its type under attack (every pseudo-legal move is legal there, so the capture can be played).
fn variant_win_in_one<R: Rules>(pos: &mut Position<R>) -> bool {
    match R::VARIANT {
        Variant::ThreeCheck => {
            if pos.state().remaining_checks()[pos.turn() as usize] != 1 {
                return false;
            }
            let Some(direct) = check_squares(pos) else { return false };
            let moves = pos.legal_moves();
            let found = moves.iter().any(|mv| gives_check(pos, mv, &direct));
            found
        }
        Variant::Extinction => {
            let board = pos.board();
            let us = pos.turn();
            let occ = board.occupied();
            let theirs = board.by_color(!us);
            Role::ALL
                .iter()
                .any(|&r| (board.by_role(r) & theirs).single().is_some_and(|sq| board.is_attacked(sq, us, occ)))
        }
        _ => false,
    }
}

/// Whether the side to move has a capture (in antichess: whether it must capture).
fn has_capture<R: Rules>(pos: &Position<R>) -> bool {
    let mut tactical = MoveList::new();
    pos.legal_tactical_moves_into(&mut tactical);
    let found = tactical.iter().any(|m| is_capture(pos, m));
    found
}

/// Selection sort step: brings the best remaining move to index `i`.
fn pick_next(moves: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..scores.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    scores.swap(i, best);
    moves.swap(i, best);
    moves.get(i).unwrap_or(Move::normal(mysl_core::Square::A1, mysl_core::Square::B1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mysl_core::Orthodox;

    #[test]
    fn a_fail_low_quiescence_counts_the_captures_it_prunes() {
        // White can take a rook for free. With alpha far above, delta pruning skips the capture, but the
        // result (an upper bound for the hash table and the parent) must not fall below what it may win.
        let mut pos = Position::<Orthodox>::from_fen("4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1").expect("valid FEN");
        let mut s = Searcher::<Orthodox>::new(Arc::new(TranspositionTable::new(1)), Arc::new(AtomicBool::new(false)));
        s.set_network(None);
        let stand_pat = s.static_eval(&pos);
        let alpha = stand_pat + value(Role::Rook) + 400;
        let score = s.quiescence(&mut pos, alpha, alpha + 1, 0, 0);
        assert!(score <= alpha, "fails low: {score} against {alpha}");
        assert!(score >= stand_pat + value(Role::Rook), "not below the capture's gain: {score}, stand pat {stand_pat}");
        let entry = s.tt.probe(pos.key(), 0).expect("stored");
        assert_eq!((entry.bound, entry.score), (Bound::Upper, score));
        // With a window it can reach, the capture is searched and wins the rook.
        let searched = s.quiescence(&mut pos, stand_pat, stand_pat + 1, 0, 0);
        assert!(searched > stand_pat + value(Role::Rook) / 2, "{searched}");
    }

    #[test]
    fn correction_history_learns_a_bounded_running_mean_per_side() {
        let white = Position::<Orthodox>::from_fen("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1").expect("valid FEN");
        let black = Position::<Orthodox>::from_fen("4k3/pp6/8/8/8/8/PP6/R3K3 b - - 0 1").expect("valid FEN");
        let mut hist = Histories::new();
        // The move that led here: piece 3 (a white rook) to a1.
        let previous = Some((3, 0));
        assert_eq!(hist.correction(&white, previous), 0);
        for _ in 0..200 {
            hist.update_correction(&white, 40, 12, previous);
        }
        let learnt = hist.correction(&white, previous);
        assert!((35..=40).contains(&learnt), "moves toward the search's verdict: {learnt}");
        assert_eq!(hist.correction(&black, previous), 0, "the other side to move has its own entries");
        hist.update_correction(&white, -40, 3, previous);
        assert!(
            hist.correction(&white, previous) < learnt,
            "one shallow result moves it a little: {}",
            hist.correction(&white, previous)
        );
        assert!(hist.correction(&white, previous) > 30, "but only a little: {}", hist.correction(&white, previous));
        for _ in 0..500 {
            hist.update_correction(&white, 10_000, 20, previous);
        }
        let high = hist.correction(&white, previous);
        assert!((60..=CORRECTION_MAX / CORRECTION_GRAIN).contains(&high), "bounded: {high}");
        // Without a previous move (the root, after a null move) the other two tables still correct.
        let without = hist.correction(&white, None);
        assert!(without > 0 && without < high, "two of the three tables: {without} {high}");
        hist.clear();
        assert_eq!(hist.correction(&white, previous), 0);
    }
}
