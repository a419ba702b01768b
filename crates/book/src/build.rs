//! Building a book from games: count every (position, move) with its results and players' Elo, in a
//! hash table that spills sorted runs to disk when it reaches its memory budget; the runs are merged at
//! the end, so the memory used does not grow with the number of games.

use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;

use mysl_core::{dispatch_variant, Color, Move, Position, Rules, Variant};

use crate::format::{BookWriter, Stats, WrittenMove};
use crate::pgn::{
    for_each_game, replay_game, GameError, GameLocation, GameResult, GameSink, GameTags, Input, InputError,
};

/// How move weights are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightMode {
    /// 2 × wins + draws of the side that played the move (Polyglot's rule).
    Polyglot,
    /// The number of games the move was played in.
    Count,
    /// Polyglot's rule scaled so that the weights of a position sum to 65535 (weight / 65535 = probability).
    Normalized,
}

#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub variant: Variant,
    /// Keep games whose players are rated at least this (both players, or either with `elo_either`).
    pub min_elo: Option<u16>,
    pub elo_either: bool,
    /// Only the first `max_ply` moves of each game are counted (and read).
    pub max_ply: usize,
    /// A move needs this many games.
    pub min_games: u32,
    /// A move needs this score in percent for the side that played it.
    pub min_score: f64,
    /// Keep only the moves of this side.
    pub only: Option<Color>,
    /// All weights 1.
    pub uniform: bool,
    pub weights: WeightMode,
    /// Polyglot's exact rules: `*` counts as a draw, counts halve at 16384, ties keep first-seen order.
    pub polyglot_compat: bool,
    /// Memory budget of the counting table in bytes; past it, sorted runs go to disk.
    pub memory_bytes: usize,
    pub threads: usize,
    /// Where runs are spilled (default: the system's temporary directory).
    pub temp_dir: Option<PathBuf>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            variant: Variant::Chess,
            min_elo: None,
            elo_either: false,
            max_ply: 1024,
            min_games: 3,
            min_score: 0.0,
            only: None,
            uniform: false,
            weights: WeightMode::Polyglot,
            polyglot_compat: false,
            memory_bytes: 64 << 20,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            temp_dir: None,
        }
    }
}

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    pub games_read: u64,
    pub games_used: u64,
    pub filtered_elo: u64,
    pub filtered_variant: u64,
    pub filtered_result: u64,
    pub broken: u64,
    /// (position, move) occurrences counted.
    pub observations: u64,
    pub positions_written: u64,
    pub entries_written: u64,
    pub runs_spilled: u64,
    /// The most (position, move) pairs held in memory at once.
    pub peak_entries: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("writing the book: {0}")]
    Output(io::Error),
    #[error("spill file: {0}")]
    Spill(io::Error),
    #[error("stopped")]
    Stopped,
    #[error("books cannot be built for {0}: {1}")]
    Variant(Variant, &'static str),
}

/// Shared progress counters (raw input bytes, games) that a progress bar can poll.
#[derive(Debug, Default)]
pub struct Progress {
    pub bytes: Arc<AtomicU64>,
    pub games: AtomicU64,
    pub stop: AtomicBool,
}

const NIL: u32 = u32::MAX;
const POLYGLOT_COUNT_MAX: u16 = 16384;

/// Everything counted for one (position, move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Acc {
    key: u64,
    /// Order of first appearance: Polyglot keeps equal weights in this order.
    first_seen: u64,
    elo_sum: u64,
    games: u32,
    white: u32,
    draws: u32,
    black: u32,
    elo_n: u32,
    /// Wins of the side to move (for its score).
    mover_wins: u32,
    next: u32,
    mv: u16,
    /// Polyglot's counters (games and 2W+D, halved at 16384).
    poly_n: u16,
    poly_sum: u16,
}

const ACC_RECORD: usize = 8 + 8 + 8 + 4 * 6 + 2 * 3;

impl Acc {
    fn write_to(&self, w: &mut impl Write) -> io::Result<()> {
        let mut b = [0u8; ACC_RECORD];
        b[0..8].copy_from_slice(&self.key.to_le_bytes());
        b[8..16].copy_from_slice(&self.first_seen.to_le_bytes());
        b[16..24].copy_from_slice(&self.elo_sum.to_le_bytes());
        for (i, v) in [self.games, self.white, self.draws, self.black, self.elo_n, self.mover_wins].iter().enumerate() {
            b[24 + 4 * i..28 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        b[48..50].copy_from_slice(&self.mv.to_le_bytes());
        b[50..52].copy_from_slice(&self.poly_n.to_le_bytes());
        b[52..54].copy_from_slice(&self.poly_sum.to_le_bytes());
        w.write_all(&b)
    }

    fn read_from(r: &mut impl Read) -> io::Result<Option<Acc>> {
        let mut b = [0u8; ACC_RECORD];
        match r.read_exact(&mut b) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
        let u16_at = |i: usize| u16::from_le_bytes(b[i..i + 2].try_into().unwrap_or([0; 2]));
        Ok(Some(Acc {
            key: u64_at(0),
            first_seen: u64_at(8),
            elo_sum: u64_at(16),
            games: u32_at(24),
            white: u32_at(28),
            draws: u32_at(32),
            black: u32_at(36),
            elo_n: u32_at(40),
            mover_wins: u32_at(44),
            mv: u16_at(48),
            poly_n: u16_at(50),
            poly_sum: u16_at(52),
            next: NIL,
        }))
    }

    /// Adds another run's counts of the same (position, move).
    fn merge(&mut self, other: &Acc) {
        self.first_seen = self.first_seen.min(other.first_seen);
        self.elo_sum += other.elo_sum;
        self.games += other.games;
        self.white += other.white;
        self.draws += other.draws;
        self.black += other.black;
        self.elo_n += other.elo_n;
        self.mover_wins += other.mover_wins;
        self.poly_n = self.poly_n.saturating_add(other.poly_n);
        self.poly_sum = self.poly_sum.saturating_add(other.poly_sum);
    }
}

/// The counting table: entries in insertion order (never reallocated: their capacity is reserved from
/// the budget) and an open-addressing index from position key to the position's first entry. Index slots
/// hold the key's high 32 bits and the entry number, so most lookups touch one cache line.
struct Table {
    slots: Vec<u64>,
    mask: usize,
    entries: Vec<Acc>,
    capacity: usize,
    /// First-seen stamps: (game number, ply) packed, so they do not depend on thread timing.
    stamp: u64,
}

impl Table {
    fn new(memory_bytes: usize) -> Table {
        let entry = std::mem::size_of::<Acc>();
        let mut slots = 1usize << 12;
        while 8 * slots * 2 + entry * (slots * 2 * 3 / 4) <= memory_bytes {
            slots *= 2;
        }
        let capacity = (slots * 3 / 4).min(memory_bytes.saturating_sub(8 * slots) / entry).max(1024);
        Table { slots: vec![0; slots], mask: slots - 1, entries: Vec::with_capacity(capacity), capacity, stamp: 0 }
    }

    /// The first entry of a position (creating the slot if `insert`), as an index into `entries`.
    #[inline]
    fn head(&mut self, key: u64) -> (usize, u32) {
        let tag = key & 0xffff_ffff_0000_0000;
        let mut i = (key as usize) & self.mask;
        loop {
            let s = self.slots[i];
            if s == 0 {
                return (i, NIL);
            }
            if s & 0xffff_ffff_0000_0000 == tag && self.entries[(s as u32 - 1) as usize].key == key {
                return (i, s as u32 - 1);
            }
            i = (i + 1) & self.mask;
        }
    }

    fn add(&mut self, key: u64, mv: u16, result: GameResult, mover: Color, mover_elo: Option<u16>, compat: bool) {
        let (slot, head) = self.head(key);
        let mut i = head;
        while i != NIL && self.entries[i as usize].mv != mv {
            i = self.entries[i as usize].next;
        }
        if i == NIL {
            i = self.entries.len() as u32;
            self.entries.push(Acc { key, mv, first_seen: self.stamp, next: head, ..Acc::default() });
            self.slots[slot] = (key & 0xffff_ffff_0000_0000) | u64::from(i + 1);
        }
        let e = &mut self.entries[i as usize];
        e.games += 1;
        let mover_points = match (result, mover) {
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => 0,
            _ => 1,
        };
        match result {
            GameResult::WhiteWins => e.white += 1,
            GameResult::BlackWins => e.black += 1,
            _ => e.draws += 1,
        }
        if mover_points == 2 {
            e.mover_wins += 1;
        }
        if let Some(elo) = mover_elo {
            e.elo_sum += u64::from(elo);
            e.elo_n += 1;
        }
        e.poly_n += 1;
        e.poly_sum += mover_points;
        if compat && e.poly_n >= POLYGLOT_COUNT_MAX {
            // Polyglot halves every move of the position so its 16-bit counters never overflow.
            let mut j = (self.slots[slot] as u32) - 1;
            while j != NIL {
                let e = &mut self.entries[j as usize];
                e.poly_n = e.poly_n.div_ceil(2);
                e.poly_sum = e.poly_sum.div_ceil(2);
                j = e.next;
            }
        }
    }

    fn is_full(&self) -> bool {
        self.entries.len() >= self.capacity
    }

    /// Empties the table into a list sorted by (key, move).
    fn drain_sorted(&mut self) -> Vec<Acc> {
        self.slots = Vec::new();
        let mut all = std::mem::take(&mut self.entries);
        all.sort_unstable_by_key(|a| (a.key, a.mv));
        all
    }

    /// Writes the table sorted by (key, move) and empties it, keeping its memory for the next run
    /// (freeing and reallocating would let the allocator hold both).
    fn spill_to(&mut self, w: &mut impl Write) -> io::Result<()> {
        self.entries.sort_unstable_by_key(|a| (a.key, a.mv));
        for acc in &self.entries {
            acc.write_to(w)?;
        }
        self.entries.clear();
        self.slots.iter_mut().for_each(|s| *s = 0);
        Ok(())
    }
}

/// What the workers hand the counting thread for one game.
struct ParsedGame {
    status: Result<Used, Skipped>,
}

struct Used {
    result: GameResult,
    white_elo: Option<u16>,
    black_elo: Option<u16>,
    /// (key, move bits, side to move) of each counted ply.
    plies: Vec<(u64, u16, Color)>,
}

enum Skipped {
    Elo,
    Variant,
    Result,
    Broken(GameError),
}

struct Collector<'o> {
    opts: &'o BuildOptions,
    skipped: Option<Skipped>,
    plies: Vec<(u64, u16, Color)>,
}

impl<R: Rules> GameSink<R> for Collector<'_> {
    fn tags(&mut self, tags: &GameTags) -> bool {
        let variant = tags.variant.as_deref().and_then(Variant::from_name).unwrap_or(Variant::Chess);
        if variant != self.opts.variant {
            self.skipped = Some(Skipped::Variant);
            return false;
        }
        if let Some(min) = self.opts.min_elo {
            let ok = |e: Option<u16>| e.is_some_and(|e| e >= min);
            let keep = if self.opts.elo_either {
                ok(tags.white_elo) || ok(tags.black_elo)
            } else {
                ok(tags.white_elo) && ok(tags.black_elo)
            };
            if !keep {
                self.skipped = Some(Skipped::Elo);
                return false;
            }
        }
        if !self.opts.polyglot_compat && tags.result == Some(GameResult::Unknown) {
            self.skipped = Some(Skipped::Result);
            return false;
        }
        true
    }

    fn ply(&mut self, pos: &Position<R>, mv: Move, ply: usize) -> bool {
        if ply > self.opts.max_ply {
            return false;
        }
        let turn = pos.turn();
        if self.opts.only.is_none_or(|c| c == turn) {
            self.plies.push((pos.key(), mv.bits(), turn));
        }
        true
    }
}

fn parse_one<R: Rules>(opts: &BuildOptions, text: &[u8]) -> ParsedGame {
    let mut collector = Collector { opts, skipped: None, plies: Vec::new() };
    let outcome = replay_game::<R, _>(text, &mut collector);
    let status = match outcome {
        Err(e) => Err(Skipped::Broken(e)),
        Ok(_) if collector.skipped.is_some() => Err(collector.skipped.take().unwrap_or(Skipped::Variant)),
        Ok(tags) => {
            let result = tags.result.unwrap_or(GameResult::Unknown);
            if result == GameResult::Unknown && !opts.polyglot_compat {
                Err(Skipped::Result)
            } else {
                Ok(Used { result, white_elo: tags.white_elo, black_elo: tags.black_elo, plies: collector.plies })
            }
        }
    };
    ParsedGame { status }
}

/// Builds a book from the inputs into `writer`. `on_error` hears of each broken game (which is skipped).
pub fn build(
    inputs: &[Input],
    opts: &BuildOptions,
    writer: &mut dyn BookWriter,
    progress: &Progress,
    on_error: &mut dyn FnMut(&Input, GameLocation, &GameError),
) -> Result<BuildReport, BuildError> {
    if opts.variant == Variant::Dice {
        return Err(BuildError::Variant(Variant::Dice, "a dice position has no single best move to keep"));
    }
    let mut report = BuildReport::default();
    let mut table = Table::new(opts.memory_bytes);
    let temp_dir = match &opts.temp_dir {
        Some(d) => tempfile::tempdir_in(d),
        None => tempfile::tempdir(),
    }
    .map_err(BuildError::Spill)?;
    let mut runs: Vec<PathBuf> = Vec::new();
    let mut spill_error = None;
    let parse = |_loc: GameLocation, text: &[u8]| -> ParsedGame {
        dispatch_variant!(opts.variant, R => parse_one::<R>(opts, text))
    };
    for_each_game(inputs, opts.threads, progress.bytes.clone(), &progress.stop, parse, |loc, game| {
        report.games_read += 1;
        progress.games.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match game.status {
            Err(Skipped::Elo) => report.filtered_elo += 1,
            Err(Skipped::Variant) => report.filtered_variant += 1,
            Err(Skipped::Result) => report.filtered_result += 1,
            Err(Skipped::Broken(e)) => {
                report.broken += 1;
                on_error(&inputs[loc.input], loc, &e);
            }
            Ok(used) => {
                report.games_used += 1;
                for (ply, (key, mv, mover)) in used.plies.into_iter().enumerate() {
                    table.stamp = (report.games_read << 16) | ply.min(0xffff) as u64;
                    let elo = if mover == Color::White { used.white_elo } else { used.black_elo };
                    table.add(key, mv, used.result, mover, elo, opts.polyglot_compat);
                    report.observations += 1;
                }
                report.peak_entries = report.peak_entries.max(table.entries.len() as u64);
                if table.is_full() && spill_error.is_none() {
                    match spill(&mut table, temp_dir.path(), runs.len()) {
                        Ok(path) => runs.push(path),
                        Err(e) => spill_error = Some(e),
                    }
                }
            }
        }
    })?;
    if let Some(e) = spill_error {
        return Err(BuildError::Spill(e));
    }
    if progress.stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(BuildError::Stopped);
    }
    report.runs_spilled = runs.len() as u64;
    if runs.is_empty() {
        let all = table.drain_sorted();
        write_groups(all.into_iter().map(Ok), opts, writer, &mut report)?;
    } else {
        runs.push(spill(&mut table, temp_dir.path(), runs.len()).map_err(BuildError::Spill)?);
        let merged = MergeRuns::open(&runs).map_err(BuildError::Spill)?;
        write_groups(merged, opts, writer, &mut report)?;
    }
    writer.finish().map_err(BuildError::Output)?;
    Ok(report)
}

fn spill(table: &mut Table, dir: &std::path::Path, n: usize) -> io::Result<PathBuf> {
    let path = dir.join(format!("run-{n:05}.bin"));
    let mut w = BufWriter::with_capacity(1 << 20, File::create(&path)?);
    table.spill_to(&mut w)?;
    w.flush()?;
    Ok(path)
}

/// K-way merge of sorted runs, adding up equal (key, move) pairs.
struct MergeRuns {
    readers: Vec<BufReader<File>>,
    heap: BinaryHeap<std::cmp::Reverse<(u64, u16, usize)>>,
    heads: Vec<Option<Acc>>,
}

impl MergeRuns {
    fn open(paths: &[PathBuf]) -> io::Result<MergeRuns> {
        let mut m = MergeRuns { readers: Vec::new(), heap: BinaryHeap::new(), heads: Vec::new() };
        for (i, p) in paths.iter().enumerate() {
            let mut r = BufReader::with_capacity(1 << 16, File::open(p)?);
            let head = Acc::read_from(&mut r)?;
            if let Some(a) = &head {
                m.heap.push(std::cmp::Reverse((a.key, a.mv, i)));
            }
            m.readers.push(r);
            m.heads.push(head);
        }
        Ok(m)
    }

    fn pop(&mut self) -> io::Result<Option<Acc>> {
        let Some(std::cmp::Reverse((_, _, i))) = self.heap.pop() else { return Ok(None) };
        let acc = self.heads[i].take();
        let next = Acc::read_from(&mut self.readers[i])?;
        if let Some(a) = &next {
            self.heap.push(std::cmp::Reverse((a.key, a.mv, i)));
        }
        self.heads[i] = next;
        Ok(acc)
    }
}

impl Iterator for MergeRuns {
    type Item = io::Result<Acc>;
    fn next(&mut self) -> Option<io::Result<Acc>> {
        let mut acc = match self.pop() {
            Ok(Some(a)) => a,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        while let Some(std::cmp::Reverse((key, mv, _))) = self.heap.peek() {
            if (*key, *mv) != (acc.key, acc.mv) {
                break;
            }
            match self.pop() {
                Ok(Some(other)) => acc.merge(&other),
                Ok(None) => break,
                Err(e) => return Some(Err(e)),
            }
        }
        Some(Ok(acc))
    }
}

/// Groups (key, move)-sorted counts by position, filters and weighs the moves, and writes them.
fn write_groups(
    accs: impl Iterator<Item = io::Result<Acc>>,
    opts: &BuildOptions,
    writer: &mut dyn BookWriter,
    report: &mut BuildReport,
) -> Result<(), BuildError> {
    let mut group: Vec<Acc> = Vec::new();
    let mut out: Vec<(u64, WrittenMove)> = Vec::new();
    let mut flush = |group: &mut Vec<Acc>, report: &mut BuildReport| -> Result<(), BuildError> {
        if group.is_empty() {
            return Ok(());
        }
        out.clear();
        finish_position(group, opts, &mut out);
        group.clear();
        if out.is_empty() {
            return Ok(());
        }
        let moves: Vec<WrittenMove> = out.iter().map(|(_, m)| *m).collect();
        writer.position(out[0].0, &moves).map_err(BuildError::Output)?;
        report.positions_written += 1;
        report.entries_written += moves.len() as u64;
        Ok(())
    };
    for acc in accs {
        let acc = acc.map_err(BuildError::Spill)?;
        if group.last().is_some_and(|g| g.key != acc.key) {
            flush(&mut group, report)?;
        }
        group.push(acc);
    }
    flush(&mut group, report)
}

/// Filters and weighs the moves of one position, best first (equal weights in first-seen order).
fn finish_position(group: &mut [Acc], opts: &BuildOptions, out: &mut Vec<(u64, WrittenMove)>) {
    group.sort_by_key(|a| a.first_seen);
    let mut kept: Vec<(&Acc, u64)> = Vec::with_capacity(group.len());
    for a in group.iter() {
        let (n, points) = if opts.polyglot_compat {
            (u64::from(a.poly_n), u64::from(a.poly_sum))
        } else {
            (u64::from(a.games), 2 * u64::from(a.mover_wins) + u64::from(a.draws))
        };
        if n < u64::from(opts.min_games) || n == 0 {
            continue;
        }
        let score = points as f64 / n as f64 / 2.0;
        if score < opts.min_score / 100.0 {
            continue;
        }
        let raw = match opts.weights {
            WeightMode::Polyglot | WeightMode::Normalized => points,
            WeightMode::Count => n,
        };
        // A move that never scored is never worth playing (Polyglot drops it too).
        if points == 0 {
            continue;
        }
        kept.push((a, raw));
    }
    if kept.is_empty() {
        return;
    }
    let total: u64 = kept.iter().map(|k| k.1).sum();
    let max = kept.iter().map(|k| k.1).max().unwrap_or(1);
    for (a, raw) in kept.iter_mut() {
        let w = if opts.uniform {
            1
        } else if opts.weights == WeightMode::Normalized {
            (*raw * 65535).div_ceil(total.max(1)).max(1)
        } else if max > 65535 {
            (*raw * 65535 / max).max(1)
        } else {
            *raw
        };
        let Some(mv) = Move::from_bits(a.mv) else { continue };
        let elo_avg = if a.elo_n > 0 { (a.elo_sum / u64::from(a.elo_n)) as u16 } else { 0 };
        out.push((
            a.key,
            WrittenMove {
                mv,
                weight: w.min(65535) as u16,
                stats: Stats { games: a.games, white_wins: a.white, draws: a.draws, black_wins: a.black, elo_avg },
            },
        ));
    }
    // Stable: equal weights stay in first-seen order, as Polyglot's sort leaves them.
    out.sort_by_key(|x| std::cmp::Reverse(x.1.weight));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acc_records_round_trip() {
        let a = Acc {
            key: 0x0123_4567_89ab_cdef,
            first_seen: 7,
            elo_sum: 5000,
            games: 3,
            white: 1,
            draws: 1,
            black: 1,
            elo_n: 2,
            mover_wins: 1,
            next: NIL,
            mv: 0x031c,
            poly_n: 3,
            poly_sum: 3,
        };
        let mut buf = Vec::new();
        a.write_to(&mut buf).expect("write");
        assert_eq!(buf.len(), ACC_RECORD);
        let b = Acc::read_from(&mut buf.as_slice()).expect("read").expect("record");
        assert_eq!(a, b);
    }
}
