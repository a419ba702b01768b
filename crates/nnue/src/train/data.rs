//! Training data: the `*.bin` files of a directory (32-byte records, docs/nnue.md), checked record by
//! record on loading and kept in memory as raw records; the seeded validation split; the fast feature
//! decoder and the training target used by the kernels.

use std::path::{Path, PathBuf};

use crate::record::{Record, RecordError, RECORD_SIZE};

/// One raw record.
pub type Raw = [u8; RECORD_SIZE];

/// What is wrong with the training data.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {size} bytes is not a whole number of {RECORD_SIZE}-byte records", path.display())]
    BadSize { path: PathBuf, size: u64 },
    #[error("{}: record {index} (byte {}): {source}", path.display(), index * RECORD_SIZE as u64)]
    BadRecord { path: PathBuf, index: u64, source: RecordError },
    #[error("{}: no *.bin files with records", .0.display())]
    Empty(PathBuf),
}

/// The `*.bin` files of `dir` (not `*.tmp`), sorted by name.
pub fn bin_files(dir: &Path) -> Result<Vec<PathBuf>, DataError> {
    let io = |source| DataError::Io { path: dir.to_path_buf(), source };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "bin") && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Appends the records of one file to `out`, each checked with [`Record::from_bytes`].
pub fn read_file(path: &Path, out: &mut Vec<Raw>) -> Result<(), DataError> {
    let bytes = std::fs::read(path).map_err(|source| DataError::Io { path: path.to_path_buf(), source })?;
    if bytes.len() % RECORD_SIZE != 0 {
        return Err(DataError::BadSize { path: path.to_path_buf(), size: bytes.len() as u64 });
    }
    out.reserve(bytes.len() / RECORD_SIZE);
    for (index, chunk) in bytes.chunks_exact(RECORD_SIZE).enumerate() {
        let mut raw = [0u8; RECORD_SIZE];
        raw.copy_from_slice(chunk);
        if let Err(source) = Record::from_bytes(&raw) {
            return Err(DataError::BadRecord { path: path.to_path_buf(), index: index as u64, source });
        }
        out.push(raw);
    }
    Ok(())
}

/// All records of the `*.bin` files of `dir`.
pub fn read_dir(dir: &Path) -> Result<Vec<Raw>, DataError> {
    Ok(read_dir_by_file(dir)?.concat())
}

/// The records of each `*.bin` file of `dir`, file by file.
pub fn read_dir_by_file(dir: &Path) -> Result<Vec<Vec<Raw>>, DataError> {
    let mut out = Vec::new();
    for f in bin_files(dir)? {
        let mut records = Vec::new();
        read_file(&f, &mut records)?;
        out.push(records);
    }
    if out.iter().all(Vec::is_empty) {
        return Err(DataError::Empty(dir.to_path_buf()));
    }
    Ok(out)
}

/// Training and validation positions.
#[derive(Debug, Default)]
pub struct Dataset {
    pub train: Vec<Raw>,
    pub val: Vec<Raw>,
}

impl Dataset {
    /// Holds out whole files (seeded choice) until they reach `val_fraction` of the positions: a file
    /// holds whole games, and positions of one game are too alike for a position-level split to measure
    /// how the network does on games it has not seen. With a single file, a position-level [`split`].
    ///
    /// [`split`]: Dataset::split
    pub fn split_files(mut files: Vec<Vec<Raw>>, val_fraction: f64, seed: u64) -> Dataset {
        files.retain(|f| !f.is_empty());
        if files.len() < 2 {
            return Dataset::split(files.concat(), val_fraction, seed);
        }
        let total: usize = files.iter().map(Vec::len).sum();
        let want = (total as f64 * val_fraction.clamp(0.0, 1.0)).round() as usize;
        super::rng::Rng::stream(seed, u64::MAX - 1).shuffle(&mut files);
        let mut val = Vec::new();
        while val_fraction > 0.0 && (val.is_empty() || val.len() < want) && files.len() > 1 {
            val.extend(files.pop().expect("more than one file"));
        }
        let mut train = files.concat();
        super::rng::Rng::stream(seed, u64::MAX).shuffle(&mut train);
        Dataset { train, val }
    }

    /// Shuffles `records` with `seed` and holds out `val_fraction` of them (at least one when the
    /// fraction is positive and there are two or more records).
    pub fn split(mut records: Vec<Raw>, val_fraction: f64, seed: u64) -> Dataset {
        super::rng::Rng::stream(seed, u64::MAX).shuffle(&mut records);
        let mut n_val = (records.len() as f64 * val_fraction.clamp(0.0, 1.0)).round() as usize;
        if val_fraction > 0.0 && records.len() >= 2 {
            n_val = n_val.clamp(1, records.len() - 1);
        }
        let val = records.split_off(records.len() - n_val);
        Dataset { train: records, val }
    }
}

/// The features of a raw record for the side to move (`stm`) and the other side (`nstm`); returns the
/// number of pieces. Same as [`crate::features::index`] over [`Record::pieces`], without decoding.
#[inline(always)]
pub fn features(rec: &Raw, stm: &mut [u16; 32], nstm: &mut [u16; 32]) -> usize {
    let mut occ = u64::from_le_bytes([rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6], rec[7]]);
    let black_to_move = rec[24] & 128 != 0;
    let mut n = 0;
    while occ != 0 && n < 32 {
        let sq = occ.trailing_zeros() as u16;
        occ &= occ - 1;
        let code = (rec[8 + n / 2] >> (4 * (n % 2))) as u16 & 15;
        let black = code >> 3;
        let role = code & 7;
        let white_view = black * 384 + role * 64 + sq;
        let black_view = (1 - black) * 384 + role * 64 + (sq ^ 56);
        if black_to_move {
            stm[n] = black_view;
            nstm[n] = white_view;
        } else {
            stm[n] = white_view;
            nstm[n] = black_view;
        }
        n += 1;
    }
    n
}

#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target, side to move's view: `(1 − wdl)·sigmoid(score/400) + wdl·result` where `wdl`
/// is the weight of the game result (`--wdl`; docs/nnue.md's λ is `1 − wdl`).
#[inline(always)]
pub fn target(rec: &Raw, wdl: f32) -> f32 {
    let white = rec[24] & 128 == 0;
    let score = i16::from_le_bytes([rec[28], rec[29]]) as f32;
    let result = rec[30] as f32 * 0.5;
    let (score, result) = if white { (score, result) } else { (-score, 1.0 - result) };
    (1.0 - wdl) * sigmoid(score / 400.0) + wdl * result
}

/// `records` mirrored left to right ([`Record::mirrored`]): more training positions.
pub fn mirrored(records: &[Raw]) -> Vec<Raw> {
    // Records here were checked on loading; one that does not decode is left out.
    records.iter().filter_map(|r| Record::from_bytes(r).ok()).map(|r| r.mirrored().to_bytes()).collect()
}
