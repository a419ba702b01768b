//! The NNUE trainer behind `mysl train`: (768 → N)×2 → 1 perspective network (docs/nnue.md) trained on
//! the CPU with mini-batch AdamW.
//!
//! - [`data`]: loading and checking `*.bin` record files, the validation split, features and targets;
//! - [`model`]: the float parameters, the quantised network file and the reference quantised evaluator;
//! - [`kernels`]: the hot loops (AVX2+FMA at run time, portable otherwise);
//! - [`optim`]: AdamW, clipping, the learning-rate schedule;
//! - [`checkpoint`]: restart points;
//! - [`synth`]: synthetic positions for tests and speed measurements.
//!
//! Loss per position: `(sigmoid(out) − t)²` with `t = (1 − wdl)·sigmoid(score_stm/400) + wdl·result_stm`.

pub mod checkpoint;
pub mod data;
pub mod kernels;
pub mod model;
pub mod optim;
pub mod rng;
pub mod synth;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use checkpoint::{Checkpoint, CheckpointError};
pub use data::{DataError, Dataset, Raw};
pub use model::{eval_quantised, Net, NetFileError};

use kernels::Scratch;
use optim::AdamW;

/// Training settings (the flags of `mysl train`).
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Hidden size N.
    pub hidden: usize,
    /// Epochs in all (a resumed run continues up to this many).
    pub epochs: u32,
    /// Peak learning rate; cosine decay to a tenth of it at the end.
    pub lr: f32,
    /// Weight of the game result in the target (0 = search score only).
    pub wdl: f32,
    /// Positions per mini-batch.
    pub batch: usize,
    pub threads: usize,
    pub seed: u64,
    /// AdamW's decoupled weight decay (weights only, not biases).
    pub weight_decay: f32,
    /// Use the AVX2+FMA kernels (ignored where the CPU lacks them).
    pub simd: bool,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 256,
            epochs: 10,
            lr: 0.001,
            wdl: 0.3,
            batch: 16384,
            threads: 2,
            seed: 1,
            weight_decay: 0.01,
            simd: true,
        }
    }
}

/// What the trainer reports.
#[derive(Clone, Debug)]
pub enum Event {
    /// Within an epoch, every few seconds.
    Progress { epoch: u32, done: usize, total: usize, train_loss: f64, pos_per_s: f64 },
    /// An epoch finished.
    Epoch(EpochStats),
    /// The network and the checkpoint of an epoch were written.
    Saved { net: PathBuf, checkpoint: PathBuf },
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochStats {
    /// 1-based.
    pub epoch: u32,
    pub train_loss: f64,
    pub val_loss: Option<f64>,
    pub positions: usize,
    pub secs: f64,
    /// Training positions per second (validation not counted).
    pub pos_per_s: f64,
    /// Learning rate at the end of the epoch.
    pub lr: f32,
}

#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error(transparent)]
    Data(#[from] DataError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{0}")]
    Config(String),
}

/// One thread's buffers.
#[derive(Debug)]
struct Worker {
    grad: Vec<f32>,
    scratch: Scratch,
}

/// The network, the optimiser and the buffers of a training run.
#[derive(Debug)]
pub struct Trainer {
    pub cfg: TrainConfig,
    pub net: Net,
    pub adam: AdamW,
    pub epochs_done: u32,
    simd: bool,
    workers: Vec<Worker>,
    perm: Vec<u32>,
}

impl Trainer {
    /// A fresh run: seeded initialisation.
    pub fn new(cfg: TrainConfig) -> Result<Trainer, TrainError> {
        check(&cfg)?;
        let net = Net::random(cfg.hidden, cfg.seed);
        let adam = AdamW::new(net.layout.param_count());
        Ok(Trainer::with(cfg, net, adam, 0))
    }

    /// Continues from a checkpoint; the hidden size is the checkpoint's, the seed must be the same (it
    /// fixes the validation split and the shuffles).
    pub fn resume(mut cfg: TrainConfig, ck: Checkpoint) -> Result<Trainer, TrainError> {
        if ck.seed != cfg.seed {
            return Err(TrainError::Config(format!(
                "the checkpoint was made with --seed {} (the seed fixes the validation split)",
                ck.seed
            )));
        }
        cfg.hidden = ck.net.hidden();
        check(&cfg)?;
        Ok(Trainer::with(cfg, ck.net, ck.adam, ck.epochs_done))
    }

    fn with(cfg: TrainConfig, net: Net, adam: AdamW, epochs_done: u32) -> Trainer {
        let simd = cfg.simd && kernels::simd_available();
        let workers = (0..cfg.threads)
            .map(|_| Worker { grad: vec![0.0; net.layout.param_count()], scratch: Scratch::new(net.hidden()) })
            .collect();
        Trainer { cfg, net, adam, epochs_done, simd, workers, perm: Vec::new() }
    }

    /// Whether the AVX2+FMA kernels are in use.
    pub fn simd(&self) -> bool {
        self.simd
    }

    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            net: self.net.clone(),
            adam: self.adam.clone(),
            epochs_done: self.epochs_done,
            seed: self.cfg.seed,
        }
    }

    fn steps_per_epoch(&self, positions: usize) -> u64 {
        positions.div_ceil(self.cfg.batch) as u64
    }

    /// One epoch over `train` (seeded shuffle, mini-batches, AdamW); `None` when `stop` was set, the
    /// weights then being those after the last whole mini-batch (the last checkpoint stays the restart
    /// point).
    pub fn run_epoch(
        &mut self,
        train: &[Raw],
        stop: &AtomicBool,
        on_event: &mut dyn FnMut(&Event),
    ) -> Option<EpochStats> {
        let epoch = self.epochs_done;
        self.perm.clear();
        self.perm.extend(0..train.len() as u32);
        rng::Rng::stream(self.cfg.seed, epoch as u64 + 1).shuffle(&mut self.perm);
        let perm = std::mem::take(&mut self.perm);
        let spe = self.steps_per_epoch(train.len());
        let total = spe * self.cfg.epochs as u64;
        let start = Instant::now();
        let mut last_report = start;
        let mut loss = 0f64;
        let mut lr = self.cfg.lr;
        let mut done = 0;
        for (b, batch) in perm.chunks(self.cfg.batch).enumerate() {
            if stop.load(Ordering::Relaxed) {
                self.perm = perm;
                return None;
            }
            lr = optim::cosine_lr(self.cfg.lr, epoch as u64 * spe + b as u64, total);
            loss += self.step(train, batch, lr);
            done += batch.len();
            if last_report.elapsed() >= Duration::from_secs(5) {
                last_report = Instant::now();
                let secs = start.elapsed().as_secs_f64();
                on_event(&Event::Progress {
                    epoch: epoch + 1,
                    done,
                    total: train.len(),
                    train_loss: loss / done as f64,
                    pos_per_s: done as f64 / secs,
                });
            }
        }
        self.perm = perm;
        self.epochs_done += 1;
        let secs = start.elapsed().as_secs_f64();
        Some(EpochStats {
            epoch: epoch + 1,
            train_loss: loss / train.len().max(1) as f64,
            val_loss: None,
            positions: train.len(),
            secs,
            pos_per_s: train.len() as f64 / secs.max(1e-9),
            lr,
        })
    }

    /// One mini-batch: gradients on the threads, summed, then an AdamW step. Returns the summed loss.
    pub fn step(&mut self, data: &[Raw], batch: &[u32], lr: f32) -> f64 {
        if batch.is_empty() {
            return 0.0;
        }
        let (simd, l, wdl) = (self.simd, self.net.layout, self.cfg.wdl);
        let scale = 1.0 / batch.len() as f32;
        let chunk = batch.len().div_ceil(self.workers.len());
        let used = batch.len().div_ceil(chunk);
        let params = &self.net.params;
        let loss = std::thread::scope(|sc| {
            let mut work = self.workers.iter_mut().zip(batch.chunks(chunk));
            let run = move |(w, part): (&mut Worker, &[u32])| {
                w.grad.fill(0.0);
                kernels::train_chunk(simd, params, l, data, part, wdl, scale, &mut w.grad, &mut w.scratch)
            };
            let first = work.next();
            let handles: Vec<_> = work.map(|job| sc.spawn(move || run(job))).collect();
            let mut loss = first.map_or(0.0, run);
            for h in handles {
                loss += h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            }
            loss
        });
        let (first, rest) = self.workers.split_at_mut(1);
        for w in &rest[..used - 1] {
            kernels::add(simd, &mut first[0].grad, &w.grad);
        }
        self.adam.step(simd, &mut self.net, &first[0].grad, lr, self.cfg.weight_decay);
        loss
    }

    /// Mean loss over `val` (`None` when empty), on the threads.
    pub fn validation_loss(&mut self, val: &[Raw]) -> Option<f64> {
        if val.is_empty() {
            return None;
        }
        let (simd, l, wdl) = (self.simd, self.net.layout, self.cfg.wdl);
        let chunk = val.len().div_ceil(self.workers.len());
        let params = &self.net.params;
        let sum = std::thread::scope(|sc| {
            let mut work = self.workers.iter_mut().zip(val.chunks(chunk));
            let run =
                move |(w, part): (&mut Worker, &[Raw])| kernels::val_chunk(simd, params, l, part, wdl, &mut w.scratch);
            let first = work.next();
            let handles: Vec<_> = work.map(|job| sc.spawn(move || run(job))).collect();
            let mut sum = first.map_or(0.0, run);
            for h in handles {
                sum += h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            }
            sum
        });
        Some(sum / val.len() as f64)
    }
}

fn check(cfg: &TrainConfig) -> Result<(), TrainError> {
    let bad = |m: &str| Err(TrainError::Config(m.to_string()));
    if cfg.hidden == 0 || cfg.hidden > 1 << 16 {
        return bad("--hidden must be 1 to 65536");
    }
    if cfg.batch == 0 {
        return bad("--batch must be at least 1");
    }
    if cfg.threads == 0 {
        return bad("--threads must be at least 1");
    }
    if !(0.0..=1.0).contains(&cfg.wdl) {
        return bad("--wdl must be between 0 and 1");
    }
    if !(cfg.lr > 0.0 && cfg.lr.is_finite()) {
        return bad("--lr must be positive");
    }
    Ok(())
}

/// Where the checkpoint of epoch `epoch` of a run writing `out` goes.
pub fn checkpoint_path(dir: &Path, out: &Path, epoch: u32) -> PathBuf {
    let stem = out.file_stem().map_or_else(|| "net".into(), |s| s.to_string_lossy().into_owned());
    dir.join(format!("{stem}-e{epoch:03}.ckpt"))
}

/// How a run ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub epochs_done: u32,
    pub interrupted: bool,
    pub last_checkpoint: Option<PathBuf>,
    pub last: Option<EpochStats>,
}

/// Trains from `trainer`'s state up to `cfg.epochs`; after each epoch writes the checkpoint into
/// `ckpt_dir` and the quantised network to `out` (both through a temporary file and a rename).
pub fn train(
    trainer: &mut Trainer,
    data: &Dataset,
    out: &Path,
    ckpt_dir: &Path,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, TrainError> {
    if data.train.is_empty() {
        return Err(TrainError::Config("no training positions".into()));
    }
    std::fs::create_dir_all(ckpt_dir).map_err(|source| TrainError::Io { path: ckpt_dir.to_path_buf(), source })?;
    let mut outcome =
        Outcome { epochs_done: trainer.epochs_done, interrupted: false, last_checkpoint: None, last: None };
    while trainer.epochs_done < trainer.cfg.epochs {
        let Some(mut stats) = trainer.run_epoch(&data.train, stop, on_event) else {
            outcome.interrupted = true;
            return Ok(outcome);
        };
        stats.val_loss = trainer.validation_loss(&data.val);
        on_event(&Event::Epoch(stats.clone()));
        let ck = checkpoint_path(ckpt_dir, out, trainer.epochs_done);
        trainer.checkpoint().save(&ck)?;
        write_net(&trainer.net, out)?;
        on_event(&Event::Saved { net: out.to_path_buf(), checkpoint: ck.clone() });
        outcome.epochs_done = trainer.epochs_done;
        outcome.last_checkpoint = Some(ck);
        outcome.last = Some(stats);
    }
    if outcome.last.is_none() {
        write_net(&trainer.net, out)?;
    }
    Ok(outcome)
}

/// Writes the quantised network file.
pub fn write_net(net: &Net, out: &Path) -> Result<(), TrainError> {
    checkpoint::write_atomically(out, &net.to_nnue())
        .map_err(|source| TrainError::Io { path: out.to_path_buf(), source })
}
