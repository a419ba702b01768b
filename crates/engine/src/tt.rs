//! The transposition table: 64-byte buckets of four entries, lockless (key XOR data, as in Crafty and
//! Stockfish-style Lazy SMP engines), with aging and mate scores stored relative to the node.
//!
//! **A race accepted by design.** The search threads share one table without locks. Every word is an
//! `AtomicU64` accessed with `Relaxed` ordering, so there is no data race in Rust's sense (no undefined
//! behaviour, no torn word); but an entry is two words (`key ^ data`, `data`) written by two separate
//! stores, and another thread may store into the same slot in between, or read between the two stores.
//! A reader then sees the key word of one entry with the data word of another. This is tolerated:
//! - [`TranspositionTable::probe`] accepts an entry only when `key_word ^ data == key` (Hyatt and
//!   Mann's lockless hashing): a mixed pair passes only if the two data words differ in a way that
//!   cancels in the XOR, which is as unlikely as a 64-bit key collision (2⁻⁶⁴ per probe);
//! - what passes can still be wrong (a real 64-bit collision, or that rare mix): the search never
//!   plays the stored move; it only compares it with the moves it generated itself, legal in the
//!   position (move ordering, the excluded move of a singular search), so a wrong move changes the
//!   order of the search, not its legality; a wrong score or bound can change a search result as a hash
//!   collision does in any engine, never memory safety;
//! - `store` reads, then decides, then writes: two threads may both replace the same slot, and the last
//!   write wins, which only loses one entry.
//!
//! The one `unsafe` block is a prefetch, a hint that reads nothing.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use mysl_core::Move;

use crate::score::{MATE_BOUND, MATE_SCORE, TB_BOUND};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES: usize = 4;

#[repr(align(64))]
struct Bucket {
    slots: [(AtomicU64, AtomicU64); ENTRIES],
}

impl Bucket {
    fn new() -> Bucket {
        Bucket { slots: std::array::from_fn(|_| (AtomicU64::new(0), AtomicU64::new(0))) }
    }
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TranspositionTable({} buckets)", self.buckets.len())
    }
}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let m = mv.map_or(0, |m| m.bits()) as u64;
    let s = (score.clamp(-32000, 32000) as i16 as u16) as u64;
    let e = (eval.clamp(-32000, 32000) as i16 as u16) as u64;
    let d = (depth.clamp(-1, 254) + 1) as u64;
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    m | s << 16 | e << 32 | d << 48 | (b | (age as u64 & 63) << 2) << 56
}

fn unpack(data: u64) -> Option<(TtEntry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some((
        TtEntry {
            mv: Move::from_bits(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xff) as i32 - 1,
            bound,
        },
        ((data >> 58) & 63) as u8,
    ))
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable { buckets: (0..n).map(|_| Bucket::new()).collect(), age: AtomicU8::new(0) }
    }

    /// A table of `n` buckets (tests: a few buckets, so that threads meet in them).
    #[cfg(test)]
    fn with_buckets(n: usize) -> TranspositionTable {
        TranspositionTable { buckets: (0..n.max(1)).map(|_| Bucket::new()).collect(), age: AtomicU8::new(0) }
    }

    pub fn clear(&self) {
        for b in &self.buckets {
            for (k, d) in &b.slots {
                k.store(0, Ordering::Relaxed);
                d.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Called once per search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the table without a power-of-two size.
        let idx = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// The entry for `key`, with a mate score converted to the distance from this node (`ply`).
    /// Starts loading the bucket of `key` into the cache (called right after a move is made, so the
    /// child's probe finds it there: the probes are otherwise the search's main memory stall).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `_mm_prefetch` is only a hint to the cache: it reads and writes nothing and cannot fault;
        // the pointer is to a live element of `buckets` (SSE is part of the x86_64 baseline).
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.bucket(key) as *const Bucket as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64, ply: i32) -> Option<TtEntry> {
        for (k, d) in &self.bucket(key).slots {
            let data = d.load(Ordering::Relaxed);
            if k.load(Ordering::Relaxed) ^ data == key {
                let (mut e, _) = unpack(data)?;
                e.score = score_from_tt(e.score, ply);
                return Some(e);
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, ply: i32) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, (k, d)) in bucket.slots.iter().enumerate() {
            let data = d.load(Ordering::Relaxed);
            if k.load(Ordering::Relaxed) ^ data == key || data == 0 {
                victim = i;
                let same = k.load(Ordering::Relaxed) ^ data == key;
                // A much shallower bound (a quiescence result) does not replace a deep entry.
                if let (true, Some((old, old_age))) = (same, unpack(data)) {
                    if bound != Bound::Exact && depth + 4 <= old.depth && old_age == age {
                        return;
                    }
                }
                // Keep the old move if the new store has none.
                if let (None, Some((old, _))) = (mv, unpack(data)) {
                    if same {
                        let data = pack(old.mv, score_to_tt(score, ply), eval, depth, bound, age);
                        bucket.slots[i].0.store(key ^ data, Ordering::Relaxed);
                        bucket.slots[i].1.store(data, Ordering::Relaxed);
                        return;
                    }
                }
                break;
            }
            let (e, entry_age) = unpack(data).map_or((0, 0), |(e, a)| (e.depth, a));
            let stale = ((age as i32 - entry_age as i32) & 63) * 8;
            let value = e - stale;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let data = pack(mv, score_to_tt(score, ply), eval, depth, bound, age);
        bucket.slots[victim].0.store(key ^ data, Ordering::Relaxed);
        bucket.slots[victim].1.store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand buckets' entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for (_, d) in &b.slots {
                if let Some((_, a)) = unpack(d.load(Ordering::Relaxed)) {
                    if a == age {
                        used += 1;
                    }
                }
            }
        }
        (used * 1000 / (n * ENTRIES).max(1)) as u32
    }
}

/// Mate and tablebase scores are stored as distance from the stored node, read back as distance from the root.
fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= TB_BOUND {
        score + ply
    } else if score <= -TB_BOUND {
        score - ply
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        (score - ply).min(MATE_SCORE)
    } else if score <= -MATE_BOUND {
        (score + ply).max(-MATE_SCORE)
    } else if score >= TB_BOUND {
        score - ply
    } else if score <= -TB_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mysl_core::{Move, Square};

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let mv = Move::normal(Square::E2, Square::E4);
        tt.store(0x1234_5678_9abc_def0, Some(mv), -57, 12, 9, Bound::Lower, 3);
        let e = tt.probe(0x1234_5678_9abc_def0, 3).expect("stored");
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound), (Some(mv), -57, 12, 9, Bound::Lower));
        assert!(tt.probe(0x1234_5678_9abc_def1, 3).is_none());
        // A mate score is relative to the node.
        tt.store(42, None, MATE_SCORE - 10, 0, 5, Bound::Exact, 4);
        assert_eq!(tt.probe(42, 6).expect("stored").score, MATE_SCORE - 12);
    }

    /// The values stored for `key` in the threaded tests: a hit must carry exactly these.
    fn values_of(key: u64) -> (Option<Move>, i32, i32, i32) {
        let mv = (!key.is_multiple_of(3)).then(|| Move::normal(Square::from_index((key % 64) as u32), Square::E4));
        (mv, (key % 2000) as i32 - 1000, ((key >> 11) % 500) as i32, ((key >> 20) % 60) as i32)
    }

    /// Four threads store into and probe two buckets at once, with `prefetch`, `new_search`, `hashfull`
    /// and a `clear` on the way (under Miri: the atomics, the bucket indexing and the prefetch are
    /// checked). A hit always carries the values stored for its key (a mixed pair of words fails the
    /// key check).
    #[test]
    fn threads_share_the_table() {
        let tt = TranspositionTable::with_buckets(2);
        let rounds: u64 = if cfg!(miri) { 60 } else { 20_000 };
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..rounds {
                        // 16 keys a thread, 8 of them shared with the next thread
                        let key = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul((t * 8 + i % 16) | 1 << 40);
                        let (mv, score, eval, depth) = values_of(key);
                        tt.prefetch(key);
                        tt.store(key, mv, score, eval, depth, Bound::Exact, 0);
                        let probe = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul((t * 8 + (i * 7) % 16) | 1 << 40);
                        if let Some(e) = tt.probe(probe, 0) {
                            let (mv, score, eval, depth) = values_of(probe);
                            assert_eq!((e.score, e.eval, e.depth), (score, eval, depth));
                            assert!(e.mv == mv || mv.is_none(), "a move that was not stored");
                        }
                        if i % 16 == 0 {
                            tt.new_search();
                            assert!(tt.hashfull() <= 1000);
                        }
                        if t == 0 && i == rounds / 2 {
                            tt.clear();
                        }
                    }
                });
            }
        });
    }
}
