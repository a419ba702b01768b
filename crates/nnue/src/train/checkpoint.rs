//! Checkpoints: float weights, the optimiser's state, completed epochs and the seed, written to a
//! temporary file and renamed, so that an interrupted run always leaves a valid restart point.
//!
//! Layout (little-endian): `MYSLCKPT`, version u32 (1), hidden u32, epochs done u32, seed u64, Adam
//! step u64, then parameters, first moments and second moments, each `len` f32.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::model::{Layout, Net};
use super::optim::AdamW;

const MAGIC: &[u8; 8] = b"MYSLCKPT";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 4 + 4 + 8 + 8;

#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub net: Net,
    pub adam: AdamW,
    pub epochs_done: u32,
    pub seed: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: not a mysl checkpoint ({what})", path.display())]
    Format { path: PathBuf, what: String },
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let len = self.net.layout.param_count();
        let mut b = Vec::with_capacity(HEADER + 12 * len);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(self.net.layout.n as u32).to_le_bytes());
        b.extend_from_slice(&self.epochs_done.to_le_bytes());
        b.extend_from_slice(&self.seed.to_le_bytes());
        b.extend_from_slice(&self.adam.t.to_le_bytes());
        for v in [&self.net.params, &self.adam.m, &self.adam.v] {
            for x in v.iter() {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        b
    }

    pub fn from_bytes(b: &[u8], path: &Path) -> Result<Checkpoint, CheckpointError> {
        let bad = |what: &str| CheckpointError::Format { path: path.to_path_buf(), what: what.to_string() };
        if b.len() < HEADER || &b[..8] != MAGIC {
            return Err(bad("magic"));
        }
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let u64_at = |o: usize| (u32_at(o) as u64) | (u32_at(o + 4) as u64) << 32;
        if u32_at(8) != VERSION {
            return Err(bad(&format!("version {}", u32_at(8))));
        }
        let n = u32_at(12) as usize;
        if n == 0 {
            return Err(bad("hidden size 0"));
        }
        let layout = Layout { n };
        let len = layout.param_count();
        if b.len() != HEADER + 12 * len {
            return Err(bad(&format!("{} bytes, {} expected for hidden size {n}", b.len(), HEADER + 12 * len)));
        }
        let floats = |k: usize| -> Vec<f32> {
            b[HEADER + 4 * len * k..HEADER + 4 * len * (k + 1)]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        Ok(Checkpoint {
            net: Net { layout, params: floats(0) },
            adam: AdamW { m: floats(1), v: floats(2), t: u64_at(28) },
            epochs_done: u32_at(16),
            seed: u64_at(20),
        })
    }

    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        write_atomically(path, &self.to_bytes())
            .map_err(|source| CheckpointError::Io { path: path.to_path_buf(), source })
    }

    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let b = std::fs::read(path).map_err(|source| CheckpointError::Io { path: path.to_path_buf(), source })?;
        Checkpoint::from_bytes(&b, path)
    }
}

/// Writes `bytes` to `path` through `path.tmp` and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}
