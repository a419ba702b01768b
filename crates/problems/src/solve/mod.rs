//! Exhaustive solving of orthodox problems: help, series, direct, self, reflex and semi-reflex play,
//! with Popeye-compatible output lines.
//!
//! Every search is exhaustive. Pruning: a hash table of proven results (positions keyed by
//! Zobrist key and the number of moves left; bounded, a full bucket drops its shallowest entry,
//! which costs time, never solutions), and in help play ending in mate the check-reach bound
//! (`check_reachable`) and check-only generation at the last half move; in self play the
//! last layer refuted by the first legal checkless defence and the s#1 free-defence bound
//! (`Searcher::free_defences`). Each rule is sound: docs/problems.md, "Pruning".
//!
//! This module holds the limits, one search thread's state (`Searcher`) and the entry point
//! ([`solve_position`]); the rest is one concern a file:
//!
//! * `help.rs`: help play (h#, h=, hs#);
//! * `series.rs`: series play (ser-#, ser-h#, ser-s#, ser-r#, parry series);
//! * `battle.rs`: direct, self, reflex and semi-reflex play (solutions as trees);
//! * `bounds/`: the pruning bounds (check reach, flights, free defences and free moves);
//! * `intelligent/`: the intelligent mode's bound;
//! * `hash.rs`: the shared table of proven results;
//! * `notation.rs`: Popeye's move texts and line formats.

mod battle;
mod bounds;
mod hash;
mod help;
pub mod intelligent;
mod notation;
mod series;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::board::{Board, Move, Special, NULL_MOVE};
use crate::input::Options;
use crate::stipulation::{Goal, Parry, Play, Stipulation};

use self::battle::solve_battle;
use self::hash::SharedHash;
use self::help::solve_help;
use self::series::solve_series;

pub use self::notation::move_text;

/// Limits and controls for one solve.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Hash table entries per thread (0: default).
    pub hash_entries: usize,
    /// Stop at this instant (`--maxtime`).
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop.
    pub stop: Arc<AtomicBool>,
    /// Threads for splitting root moves.
    pub threads: usize,
    /// Progress: nodes searched so far by all threads (added in steps of 64), for a caller that
    /// shows progress while another thread solves (the web UI).
    pub nodes: Arc<AtomicU64>,
    /// Stop after about this many nodes (all threads together; checked every 64 nodes): a bound
    /// for untrusted input (fuzzing), like `deadline` but the same on every run.
    pub max_nodes: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            hash_entries: 1 << 21,
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
            threads: 2,
            nodes: Arc::new(AtomicU64::new(0)),
            max_nodes: None,
        }
    }
}

/// One search thread's state.
#[derive(Clone)]
struct Searcher {
    board: Board,
    stip: Stipulation,
    opts: Options,
    /// Option Duplex/HalfDuplex, the second part: the other side starts and reaches the goal.
    swap_sides: bool,
    hash: Arc<SharedHash>,
    /// Entries the table may grow to.
    max_hash: usize,
    nodes: u64,
    shared_nodes: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    /// Nodes between looks at the clock and the stop flag, minus one (a power of two minus one).
    tick_mask: u64,
    stopped: bool,
    /// Last refutation found per number of attacker moves left (tried first: a cut-off is likely).
    refute_killer: [Option<Move>; 64],
    /// Last winning attacker move per number of moves left.
    win_killer: [Option<Move>; 64],
    /// Help play (h#, ser-h#) ending in mate: [`check_reachable`] prunes.
    help_mate: bool,
    /// Series direct mate (ser-#, no parry series): the series side mates with its last move;
    /// [`check_reachable`] and the intelligent mode's bound prune with the other side moving none.
    series_mate: bool,
    /// Move buffers per number of half moves left (no allocation per node).
    bufs: Vec<Vec<Move>>,
    /// Battle play: defences keyed by the attacker's reply count ([`Searcher::order_by_replies`]).
    reply_counts: Vec<(u32, Move)>,
    /// Intelligent mode (`Option Intelligent`, `--intelligent`) and its bound applies
    /// ([`crate::intelligent::applicable`], checked once: no move changes it).
    intel: bool,
    intel_scratch: crate::intelligent::Scratch,
    /// Self play ending in mate on a plain orthodox board (no condition, no neutral or
    /// attributed piece; fairy pieces are tested per node): the s#1 free-defence bound applies
    /// ([`Searcher::free_defences`]).
    self_free: bool,
    /// Help or series play ending in stalemate (h=, h==, ser-=, ser-h=) on a plain orthodox
    /// board: the last move must take away every free move of the stalemated side
    /// ([`Searcher::stalemate_free_moves`]).
    stale_free: bool,
    /// Help mate: prune with [`flights_coverable`] (off only to test the bound).
    help_flights: bool,
    /// `Option NullMoves`: in help play either side may pass, in series play the series side
    /// (not in check: the passing side would stay in check). The check-reach and flight bounds count at most `w` and `b` moves,
    /// so they hold with passes; the intelligent mode (exact move counts) is off.
    null_moves: bool,
}

/// Moves `m` to the front of `moves` if it is there (search order only; output order is unaffected).
fn front(moves: &mut [Move], m: Option<Move>) {
    if let Some(m) = m {
        if let Some(i) = moves.iter().position(|&x| x == m) {
            moves[..=i].rotate_right(1);
        }
    }
}

/// Help nodes with at least this many half moves left take the intelligent mode's bound.
const INTEL_MIN_PLIES: u32 = 2;

/// Result of solving one position with one stipulation.
#[derive(Clone, Debug, Default)]
pub struct Solution {
    /// Output lines (Popeye's format, without the twin header).
    pub lines: Vec<String>,
    /// True if the solve was stopped (time limit or Ctrl-C): the lines may be incomplete.
    pub interrupted: bool,
    /// How many of `lines`, at the front, are set play (`MaxSolutions` limits each phase).
    pub set_play_lines: usize,
}

impl Searcher {
    fn new(board: Board, stip: Stipulation, opts: Options, limits: &Limits) -> Searcher {
        let max_hash = limits.hash_entries.max(1024) * limits.threads.max(1);
        // Help play, ser-h# and ser-# (lib.rs rejects the other play forms with the option).
        let null_moves = opts.null_moves && matches!(stip.play, Play::Help | Play::Direct) && stip.parry == Parry::None;
        let intel = opts.intelligent
            && !opts.null_moves
            && (stip.play == Play::Help || (stip.play == Play::Direct && stip.series))
            && stip.goal == Goal::Mate
            && stip.parry == Parry::None
            && crate::intelligent::applicable(&board);
        let plain_board = board.conditions() == crate::board::Conditions::NONE
            && !(board.neutral.any() || board.bul.any() || board.uncapturable.any());
        let self_free = stip.play == Play::SelfPlay && stip.goal == Goal::Mate && plain_board;
        let stale_free = matches!(stip.play, Play::Help | Play::Direct)
            && matches!(stip.goal, Goal::Stalemate | Goal::DoubleStalemate)
            && stip.parry == Parry::None
            && plain_board;
        // AntiCirce Cage searches cages inside a move (milliseconds a node, found by fuzzing: a
        // deadline was seen 1.4 s late); elsewhere 64 nodes take microseconds.
        let tick_mask = if board.anticirce == crate::board::AntiCirce::Cage { 0 } else { 63 };
        Searcher {
            board,
            stip,
            opts,
            swap_sides: false,
            // Help and series play start small and grow between phases (`grow_hash`): a short
            // problem then never pays for the pages of a large table.
            hash: Arc::new(SharedHash::new(if stip.series || matches!(stip.play, Play::Help | Play::HelpSelf) {
                (1 << 16).min(max_hash)
            } else {
                max_hash
            })),
            max_hash,
            nodes: 0,
            shared_nodes: limits.nodes.clone(),
            stop: limits.stop.clone(),
            deadline: limits.deadline,
            max_nodes: limits.max_nodes,
            tick_mask,
            stopped: false,
            refute_killer: [None; 64],
            win_killer: [None; 64],
            help_mate: stip.play == Play::Help && stip.goal == Goal::Mate,
            series_mate: stip.play == Play::Direct
                && stip.series
                && stip.goal == Goal::Mate
                && stip.parry == Parry::None,
            bufs: Vec::new(),
            reply_counts: Vec::new(),
            intel,
            intel_scratch: crate::intelligent::Scratch::default(),
            self_free,
            stale_free,
            help_flights: true,
            null_moves,
        }
    }

    /// The move buffer for depth `d`, empty (give it back with `self.bufs[d] = buf`).
    fn take_buf(&mut self, d: u32) -> Vec<Move> {
        let d = d as usize;
        if self.bufs.len() <= d {
            self.bufs.resize_with(d + 1, || Vec::with_capacity(64));
        }
        let mut b = std::mem::take(&mut self.bufs[d]);
        b.clear();
        b
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        // Every 64 nodes: a node's subtree can be large (a series node's last move checks every reply
        // for mate), so a cancel or the deadline is seen within milliseconds.
        if self.nodes & self.tick_mask == 0 {
            let step = self.tick_mask + 1;
            let total = self.shared_nodes.fetch_add(step, Ordering::Relaxed) + step;
            if !self.stopped
                && (self.stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.max_nodes.is_some_and(|m| total >= m))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Between phases of a help or series solve (before the threads start): a table with fewer
    /// entries than twice the nodes searched so far is replaced by a larger one (up to
    /// `max_hash`); its results are dropped, which costs time, never solutions.
    fn grow_hash(&mut self) {
        let used = self.shared_nodes.load(Ordering::Relaxed) as usize;
        let want = used.saturating_mul(2).min(self.max_hash);
        if want > self.hash.entries.len() / 2 {
            self.hash = Arc::new(SharedHash::new(want));
        }
    }

    #[inline]
    fn hash_get(&self, key: u64) -> Option<bool> {
        self.hash.get(key)
    }

    /// Stores a proven result; `depth` (moves or half moves left) decides what a full bucket keeps.
    #[inline]
    fn hash_put(&mut self, key: u64, v: bool, depth: u32) {
        if self.stopped {
            return;
        }
        self.hash.put(key, v, depth);
    }

    /// Stores a battle-play result that holds for every larger budget (true) or smaller one (false).
    #[inline]
    fn hash_put_monotone(&mut self, key: u64, v: bool, n: u32) {
        if self.stopped {
            return;
        }
        self.hash.put_monotone(key, v, n);
    }

    /// Is the goal reached for the side to move (the victim)?
    fn goal_reached(&mut self) -> bool {
        goal_reached(&mut self.board, self.stip.goal)
    }
}

/// Is `goal` reached for the side to move on `board` (the victim)?
pub fn goal_reached(board: &mut Board, goal: Goal) -> bool {
    match goal {
        Goal::Mate => board.is_mate(),
        Goal::Stalemate => board.is_stalemate(),
        Goal::DoubleStalemate => board.is_double_stalemate(),
        Goal::Check => board.in_check(board.side),
        Goal::Capture => board.last_capture,
        Goal::Castling => matches!(board.last_move.special, Special::Castle { .. }),
        Goal::EnPassant => {
            matches!(board.last_move.special, Special::EnPassant { .. } | Special::EnPassantRebirthPromote { .. })
        }
        Goal::Target(s) => board.last_move != NULL_MOVE && board.last_move.to == s,
        Goal::Any => board.last_move != NULL_MOVE,
    }
}

/// Runs `f` over `items` on up to `threads` threads, each with its own clone of `proto`;
/// results in item order.
fn par_map<T: Send, I: Sync + Copy + Send>(
    proto: &Searcher,
    items: &[I],
    threads: usize,
    f: impl Fn(&mut Searcher, I) -> T + Sync,
) -> (Vec<T>, bool) {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let stopped = AtomicBool::new(false);
    let threads = threads.clamp(1, items.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut s = proto.clone();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= items.len() {
                        break;
                    }
                    let r = f(&mut s, items[i]);
                    if let Ok(mut v) = results.lock() {
                        v[i] = Some(r);
                    }
                }
                if s.stopped {
                    stopped.store(true, Ordering::Relaxed);
                }
            });
        }
    });
    let v = results.into_inner().unwrap_or_default();
    (v.into_iter().flatten().collect(), stopped.load(Ordering::Relaxed))
}

/// Solves one position (one twin) and returns Popeye's solution lines.
pub fn solve_position(board: &Board, stip: Stipulation, opts: &Options, limits: &Limits) -> Solution {
    solve_position_sides(board, stip, opts, limits, false)
}

/// [`solve_position`]; with `swap_sides` the other side starts and reaches the goal (the
/// second part of Option Duplex, help and series play only).
pub fn solve_position_sides(
    board: &Board,
    stip: Stipulation,
    opts: &Options,
    limits: &Limits,
    swap_sides: bool,
) -> Solution {
    let mut s = Searcher::new(board.clone(), stip, opts.clone(), limits);
    s.swap_sides = swap_sides;
    let mut sol = Solution::default();
    let threads = limits.threads.max(1);
    if stip.series {
        solve_series(&mut s, threads, &mut sol);
    } else {
        match stip.play {
            Play::Help | Play::HelpSelf => solve_help(&mut s, threads, &mut sol),
            _ => solve_battle(&mut s, threads, &mut sol),
        }
    }
    if let Some(max) = opts.max_solutions {
        if !matches!(stip.play, Play::Direct | Play::SelfPlay | Play::Reflex | Play::SemiReflex) || stip.series {
            // Popeye counts the solutions of set play and of actual play each on its own.
            let max = max as usize;
            let actual = sol.lines.split_off(sol.set_play_lines);
            sol.lines.truncate(max);
            sol.set_play_lines = sol.lines.len();
            sol.lines.extend(actual.into_iter().take(max));
        }
    }
    sol
}
