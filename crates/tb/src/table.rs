//! The types shared by the generator, the writer, the reader and the prober: a generated [`Table`], the
//! values in work ([`Values`], kept where [`Store`] says), one metric solved alone ([`MetricTable`]), the
//! metric numbers [`DTM`] and [`DTZ`], progress reports ([`Progress`]) and the sources of the sub-tables the
//! generator reads ([`TableSource`], [`StoredTable`]).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicI16, Ordering::Relaxed};
use std::sync::Arc;

use crate::index::Layout;
use crate::material::Material;
use crate::TbError;

/// Where the generator keeps the values of the ending it solves.
#[derive(Clone, Copy, Debug)]
pub enum Store<'a> {
    /// On the heap (the endings of up to 4 pieces, kept in memory as sub-tables).
    Heap,
    /// In a temporary file of this directory, mapped into memory: the pages of pawn slices that no later
    /// work reads are handed back to the kernel (the values stay in the file), so a 5-piece ending with
    /// pawns (403 M positions per side) keeps only the slices in work resident.
    Mapped(&'a Path),
}

/// The values of one metric and side to move over the generation index (see [`Store`]).
pub struct Values {
    ptr: *const AtomicI16,
    len: usize,
    backing: Backing,
}

enum Backing {
    Heap(#[allow(dead_code)] Vec<AtomicI16>),
    Mapped(memmap2::MmapMut),
}

// SAFETY: `Values` is a `&[AtomicI16]` in effect (the raw pointer is only there to have one type for
// both backings): the memory is owned by `backing`, which moves with `Values` (a `Vec`'s or a map's
// buffer does not move when its owner does) and is freed only when `Values` is dropped, so sending
// `Values` to another thread sends its owner with it.
unsafe impl Send for Values {}
// SAFETY: shared access only ever hands out `&[AtomicI16]` (`Deref`); every write goes through the
// atomics, so threads sharing `&Values` race on atomics only.
unsafe impl Sync for Values {}

impl std::fmt::Debug for Values {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = if matches!(self.backing, Backing::Heap(_)) { "heap" } else { "mapped" };
        write!(f, "Values({} entries, {kind})", self.len)
    }
}

impl std::ops::Deref for Values {
    type Target = [AtomicI16];
    #[inline]
    fn deref(&self) -> &[AtomicI16] {
        // SAFETY: `ptr` points to `len` initialised `AtomicI16`s owned by `backing`, alive as long as
        // `self`: a heap vector of exactly `len` atomics, or a mapping of at least `2 * len` bytes, page-
        // aligned (so 2-aligned), of a file that was zero-filled by `set_len` (0 is a valid `i16`). The
        // mapping is only reached through this slice, so nothing else in the program writes it.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Values {
    /// `len` entries: on the heap all set to `fill`; in a mapped file all 0 (the generator's init writes
    /// every entry of a slice before any is read).
    pub fn new(store: Store, len: usize, fill: i16) -> Result<Values, crate::TbError> {
        match store {
            Store::Heap => {
                let v: Vec<AtomicI16> = (0..len).map(|_| AtomicI16::new(fill)).collect();
                Ok(Values { ptr: v.as_ptr(), len, backing: Backing::Heap(v) })
            }
            Store::Mapped(dir) => {
                let io = |source| crate::TbError::Io { path: dir.to_path_buf(), source };
                std::fs::create_dir_all(dir).map_err(io)?;
                // an anonymous file in `dir` (removed at once: nothing is left behind, whatever happens)
                let file = tempfile::tempfile_in(dir).map_err(io)?;
                file.set_len(2 * len.max(1) as u64).map_err(io)?;
                // SAFETY: the file is ours alone (created unlinked by `tempfile_in`, no name in any
                // directory), so no other process can change or truncate it while it is mapped.
                let mut map = unsafe { memmap2::MmapMut::map_mut(&file) }.map_err(io)?;
                let ptr = map.as_mut_ptr().cast::<AtomicI16>().cast_const();
                Ok(Values { ptr, len, backing: Backing::Mapped(map) })
            }
        }
    }

    /// Hands the resident pages of entries `a..b` back to the kernel (mapped values only; they stay in the
    /// file and are read again if needed).
    pub fn release(&self, a: usize, b: usize) {
        if let Backing::Mapped(map) = &self.backing {
            let (a, b) = (a.min(self.len), b.min(self.len));
            if a < b {
                // SAFETY: `MADV_DONTNEED` on a shared file mapping (`map_mut`) drops only this process's
                // page table entries: the contents stay in the page cache or the file and are read back
                // on the next access, so any reference into the range still sees the same values.
                // The range lies inside the mapping (`a < b <= len`, the map has `2 * len` bytes).
                let _ = unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, 2 * a, 2 * (b - a)) };
            }
        }
    }

    /// The values as a plain vector (heap values without copying).
    pub fn into_vec(self) -> Vec<i16> {
        match self.backing {
            Backing::Heap(v) => v.into_iter().map(|a| a.into_inner()).collect(),
            Backing::Mapped(_) => self.iter().map(|a| a.load(Relaxed)).collect(),
        }
    }
}

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

/// Metric numbers: DTM and the DTZ scale.
pub const DTM: usize = 0;
pub const DTZ: usize = 1;

/// One metric of an ending, solved alone (the 5-piece endings: 2 bytes per index entry and side to move).
#[derive(Debug)]
pub struct MetricTable {
    pub layout: Layout,
    pub metric: usize,
    /// `values[side][idx]`, the generator's internal values ([`crate::value`]).
    pub values: [Values; 2],
}

impl MetricTable {
    #[inline]
    pub fn get(&self, side: usize, idx: usize) -> i16 {
        self.values[side][idx].load(Relaxed)
    }
}

/// Progress reports from the generator.
pub trait Progress: Sync {
    /// A table is started (`total` work units).
    fn start(&self, _material: Material, _total: u64) {}
    fn advance(&self, _units: u64) {}
    fn finish(&self, _material: Material) {}
    /// What the generator is doing now ("DTZ level 12").
    fn message(&self, _what: &str) {}
}

/// No progress reporting.
#[derive(Debug)]
pub struct Silent;
impl Progress for Silent {}

/// Where values of other endings come from while generating.
pub trait TableSource: Sync {
    fn table(&self, m: &Material) -> Option<&Table>;
    /// An ending not in memory, read from its file (5-piece endings that a 5-piece ending with a pawn
    /// promotes into).
    fn file(&self, _m: &Material) -> Option<&dyn StoredTable> {
        None
    }
}

/// An ending stored in a file that the generator reads one value at a time by its storage index
/// ([`Layout::storage_index`]): the reader's `TableFile` implements it, so the generator does not depend on
/// the reader.
pub trait StoredTable: Sync {
    /// The ending's index.
    fn layout(&self) -> &Layout;
    /// (DTM, DTZ-scale) of storage index `idx` with `side` to move (0 White), through a block cache; with
    /// `dtm` false only the WDL class is read and the DTZ-scale value stands for it (DTM then 0): what a
    /// zeroing move into the position needs.
    fn get_cached(&self, side: usize, idx: u64, dtm: bool) -> Result<(i16, i16), TbError>;
    /// Hands the pages of the stored ending back to the kernel (once the generator no longer reads it).
    fn release_pages(&self);
}

impl TableSource for HashMap<Material, Arc<Table>> {
    fn table(&self, m: &Material) -> Option<&Table> {
        self.get(m).map(|t| t.as_ref())
    }
}

/// With `MYSL_TB_TRACE` set: the process's resident memory now and at its peak, and its CPU time (Linux).
pub(crate) fn trace_mem(what: &str) {
    if std::env::var_os("MYSL_TB_TRACE").is_none() {
        return;
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |k: &str| status.lines().find(|l| l.starts_with(k)).map(|l| l[k.len()..].trim().to_string());
    // CPU time of the process so far (user + system, in clock ticks of 1/100 s)
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let f: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks: f64 = (11..13).filter_map(|k| f.get(k)?.parse::<f64>().ok()).sum();
    eprintln!(
        "  after {what}: {} resident, peak {}, process CPU {:.1} s",
        field("VmRSS:").unwrap_or_default(),
        field("VmHWM:").unwrap_or_default(),
        ticks / 100.0
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Heap values shared by threads (under Miri: the raw slice of `Deref`, `Send`/`Sync`, `into_vec`).
    #[test]
    fn heap_values_are_shared_by_threads() {
        let len = if cfg!(miri) { 300 } else { 100_000 };
        let v = Values::new(Store::Heap, len, 7).expect("heap values");
        assert_eq!(v.len(), len);
        assert!(v.iter().all(|a| a.load(Relaxed) == 7));
        v.release(0, len); // nothing to release on the heap
        std::thread::scope(|s| {
            for t in 0..3usize {
                let v = &v;
                s.spawn(move || {
                    // entry 0 is only added to (a store there would race with the other threads' adds)
                    for i in (1 + t..len).step_by(3) {
                        v[i].store(i as i16, Relaxed);
                    }
                    // every thread also adds to one shared entry
                    v[0].fetch_add(1000, Relaxed);
                });
            }
        });
        // Moved to another thread and read there (`Send`).
        let v = std::thread::spawn(move || v.into_vec()).join().expect("the thread ends");
        assert_eq!(v[0], 3007);
        assert!(v.iter().enumerate().skip(1).all(|(i, &x)| x == i as i16));
    }
}
