//! The table of proven results, shared by the threads of one solve, and the salts of its keys.

use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket of the hash table (4 entries of 16 bytes: one cache line).
const BUCKET: usize = 4;

/// The table of proven results, shared by the threads of one solve, lock-free: buckets of four
/// entries, each two `AtomicU64`s (`key ^ data`, `data`; "lockless hashing": an entry torn by a
/// concurrent write fails the key check and is simply a miss). The full 64-bit key is checked.
/// `data` is `value | depth << 1 | 1 << 63` (the top bit marks a used entry). A new result
/// replaces the entry of the same key, else an empty one, else the one with the smallest depth
/// (the cheapest to recompute): time, never solutions.
pub(super) struct SharedHash {
    /// Entry i is `entries[offset + 2i]` (`key ^ data`) and `entries[offset + 2i + 1]` (`data`).
    pub(super) entries: Vec<AtomicU64>,
    mask: usize,
    /// Words before the first bucket (the buckets start on a cache line).
    offset: usize,
}

// `AtomicU64` has the size and alignment of `u64` where it exists; the table relies on it.
const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());

impl SharedHash {
    pub(super) fn new(entries: usize) -> SharedHash {
        // A power of two not above the entries asked for (`--maxmem` is a bound).
        let want = (entries / BUCKET).max(16);
        let buckets = if want.is_power_of_two() { want } else { want.next_power_of_two() / 2 };
        // Zeroed memory from the allocator (`vec![0; n]`): pages are only touched when used, so
        // a large table costs nothing for a small problem (a table built entry by entry was
        // written in full for every twin).
        // Eight words more, so that the buckets can start on a 64-byte boundary (one cache line
        // each: the allocator's pointer is only 16-byte aligned).
        let zeroed = std::mem::ManuallyDrop::new(vec![0u64; buckets * BUCKET * 2 + 8]);
        let (ptr, len, cap) = (zeroed.as_ptr() as *mut AtomicU64, zeroed.len(), zeroed.capacity());
        // SAFETY: AtomicU64 has the same size and alignment as u64 (asserted above) and 0 is a
        // valid value; the allocation is handed over whole (pointer, length, capacity).
        let entries = unsafe { Vec::from_raw_parts(ptr, len, cap) };
        let offset = (64 - entries.as_ptr() as usize % 64) % 64 / 8;
        SharedHash { entries, mask: buckets - 1, offset }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let b = self.offset + (key as usize & self.mask) * BUCKET * 2;
        let slice = &self.entries[b..b + BUCKET * 2];
        let (pairs, _) = slice.as_chunks::<2>();
        pairs
    }

    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<bool> {
        self.load(key).map(|d| d & 1 == 1)
    }

    /// Starts loading the bucket of `key` into the cache: called right after a move is made, so
    /// that the child's probe, after its cheaper tests, finds it there (the probes are otherwise
    /// the help search's main memory stall). A hint only: it changes no result.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; the pointer is to a live element of `entries`.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.bucket(key).as_ptr() as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub(super) fn put(&self, key: u64, v: bool, depth: u32) {
        let data = v as u64 | (depth.min(1 << 20) as u64) << 1 | 1 << 63;
        self.store(key, data);
    }

    /// A result of a node whose answer only grows with its move budget (battle play: a win within
    /// n moves is a win within more, a failure within n a failure within fewer): true if the answer
    /// is known for `n` from any budget stored under `key` (the key without the budget).
    #[inline]
    pub(super) fn get_monotone(&self, key: u64, n: u32) -> Option<bool> {
        let d = self.load(key)?;
        let (win_at, fail_below) = monotone_fields(d);
        if n >= win_at as u32 {
            Some(true)
        } else if n < fail_below as u32 {
            Some(false)
        } else {
            None
        }
    }

    /// Stores that the node of `key` wins (`v`) or fails within `n` moves, merged with what the entry
    /// already knows for other budgets. Two threads merging at once may lose one's fact (a time cost);
    /// every fact kept is true.
    #[inline]
    pub(super) fn put_monotone(&self, key: u64, v: bool, n: u32) {
        let n = n.min(254) as u8;
        let (mut win_at, mut fail_below) = self.load(key).map_or((u8::MAX, 0), monotone_fields);
        if v {
            win_at = win_at.min(n);
        } else {
            fail_below = fail_below.max(n + 1);
        }
        // The depth that decides replacement: the largest budget the entry speaks for.
        let depth = if win_at == u8::MAX { fail_below } else { win_at.max(fail_below) };
        let data = (depth as u64) << 1 | (win_at as u64) << 24 | (fail_below as u64) << 32 | 1 << 63;
        self.store(key, data);
    }

    #[inline]
    fn load(&self, key: u64) -> Option<u64> {
        for e in self.bucket(key) {
            let d = e[1].load(Ordering::Relaxed);
            if d != 0 && e[0].load(Ordering::Relaxed) ^ d == key {
                return Some(d);
            }
        }
        None
    }

    #[inline]
    fn store(&self, key: u64, data: u64) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_depth = u64::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let d = e[1].load(Ordering::Relaxed);
            if d == 0 || e[0].load(Ordering::Relaxed) ^ d == key {
                victim = i;
                break;
            }
            let depth = (d >> 1) & 0xF_FFFF;
            if depth < victim_depth {
                victim = i;
                victim_depth = depth;
            }
        }
        bucket[victim][0].store(key ^ data, Ordering::Relaxed);
        bucket[victim][1].store(data, Ordering::Relaxed);
    }
}

/// (fewest moves known to win, `u8::MAX` if none; one more than the most moves known to fail, 0 if
/// none) of a [`SharedHash::put_monotone`] entry.
#[inline]
fn monotone_fields(d: u64) -> (u8, u8) {
    ((d >> 24) as u8, (d >> 32) as u8)
}

/// Salts for the hash key: (moves left, node type).
pub(super) fn salt(n: u32, tag: u64) -> u64 {
    let mut z = (n as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ tag.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_start_on_a_cache_line_and_keep_what_is_put() {
        for entries in [0, 1, 64, 100, 1000] {
            let h = SharedHash::new(entries);
            let first = h.entries[h.offset..].as_ptr() as usize;
            assert_eq!(first % 64, 0, "{entries}");
            assert!(h.offset + (h.mask + 1) * BUCKET * 2 <= h.entries.len());
            for key in [1u64, 2, 0xdead_beef, u64::MAX] {
                assert_eq!(h.get(key), None);
                h.prefetch(key);
                h.put(key, key % 2 == 1, 3);
                assert_eq!(h.get(key), Some(key % 2 == 1));
            }
        }
    }

    #[test]
    fn monotone_entries_answer_for_every_budget_they_imply() {
        let h = SharedHash::new(64);
        let key = 0x1234_5678_9abc_def1;
        assert_eq!(h.get_monotone(key, 3), None);
        h.put_monotone(key, false, 3);
        assert_eq!(h.get_monotone(key, 1), Some(false));
        assert_eq!(h.get_monotone(key, 3), Some(false));
        assert_eq!(h.get_monotone(key, 4), None);
        h.put_monotone(key, true, 6);
        assert_eq!(h.get_monotone(key, 2), Some(false), "the failure is kept");
        assert_eq!(h.get_monotone(key, 5), None);
        assert_eq!(h.get_monotone(key, 6), Some(true));
        assert_eq!(h.get_monotone(key, 60), Some(true));
        h.put_monotone(key, true, 4);
        h.put_monotone(key, false, 1);
        assert_eq!(h.get_monotone(key, 4), Some(true));
        assert_eq!(h.get_monotone(key, 3), Some(false));
        assert_eq!(h.get_monotone(key ^ 1, 4), None);
    }

    /// Four threads put into and get from the smallest table at once (under Miri: the atomics over the
    /// memory `from_raw_parts` handed over, and its release). A hit is always the value put for its key.
    #[test]
    fn threads_share_the_table() {
        let h = SharedHash::new(0);
        let rounds: u64 = if cfg!(miri) { 60 } else { 20_000 };
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let h = &h;
                s.spawn(move || {
                    for i in 0..rounds {
                        let key = salt((t * 8 + i % 24) as u32, 7);
                        h.prefetch(key);
                        h.put(key, key.count_ones() % 2 == 1, (i % 40) as u32);
                        let probe = salt(((i * 5) % 40) as u32, 7);
                        if let Some(v) = h.get(probe) {
                            assert_eq!(v, probe.count_ones() % 2 == 1);
                        }
                    }
                });
            }
        });
    }
}
