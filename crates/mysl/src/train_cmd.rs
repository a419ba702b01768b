//! `mysl train`: trains the NNUE evaluation on `mysl datagen` data (crate mysl-nnue, docs/nnue.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use mysl_nnue::train::{self, data, Checkpoint, Dataset, Event, TrainConfig, Trainer};

use crate::CliError;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Directory of training data: every `*.bin` file of 32-byte records (`*.tmp` is ignored).
    #[arg(long)]
    data: PathBuf,
    /// The quantised network file, rewritten after each epoch.
    #[arg(long)]
    out: PathBuf,
    /// Hidden size N of the (768 → N)×2 → 1 network [default: 256; with --resume, the checkpoint's].
    #[arg(long)]
    hidden: Option<usize>,
    /// Epochs in all (a resumed run continues up to this many).
    #[arg(long, default_value_t = 10)]
    epochs: u32,
    /// Peak learning rate of AdamW; cosine decay to a tenth of it by the last epoch.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the game result in the target, the rest being the search score (0 = score only).
    #[arg(long, default_value_t = 0.3)]
    wdl: f32,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the initialisation, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fraction of the positions held out for the validation loss.
    #[arg(long, default_value_t = 0.01)]
    val_fraction: f64,
    /// AdamW weight decay of the weights (not the biases).
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Also train on every training position mirrored left to right (twice the positions per epoch).
    #[arg(long)]
    mirror: bool,
    /// Where the per-epoch checkpoints go [default: the directory of --out].
    #[arg(long)]
    checkpoint_dir: Option<PathBuf>,
    /// Continue from a checkpoint (same --data, --seed, --val-fraction and --epochs as the run that wrote it).
    #[arg(long)]
    resume: Option<PathBuf>,
}

pub fn run(a: TrainArgs) -> Result<ExitCode, CliError> {
    let input = |e: &dyn std::fmt::Display| CliError::Input(e.to_string());
    if !(0.0..1.0).contains(&a.val_fraction) {
        return Err(CliError::Input("--val-fraction must be at least 0 and below 1".into()));
    }
    let cfg = TrainConfig {
        hidden: a.hidden.unwrap_or(256),
        epochs: a.epochs,
        lr: a.lr,
        wdl: a.wdl,
        batch: a.batch,
        threads: a.threads,
        seed: a.seed,
        weight_decay: a.weight_decay,
        simd: true,
    };
    let mut trainer = match &a.resume {
        Some(path) => {
            let ck = Checkpoint::load(path).map_err(|e| input(&e))?;
            if a.hidden.is_some_and(|h| h != ck.net.hidden()) {
                return Err(CliError::Input(format!(
                    "{}: hidden size {}, not --hidden {}",
                    path.display(),
                    ck.net.hidden(),
                    cfg.hidden
                )));
            }
            eprintln!("resuming from {} after epoch {}", path.display(), ck.epochs_done);
            Trainer::resume(cfg, ck).map_err(|e| input(&e))?
        }
        None => Trainer::new(cfg).map_err(|e| input(&e))?,
    };

    let t0 = Instant::now();
    let files = data::bin_files(&a.data).map_err(|e| input(&e))?;
    let records = data::read_dir_by_file(&a.data).map_err(|e| input(&e))?;
    let mut data = Dataset::split_files(records, a.val_fraction, a.seed);
    if a.mirror {
        let mirrored = data::mirrored(&data.train);
        data.train.extend(mirrored);
    }
    eprintln!(
        "{} positions from {} files in {:.1} s: {} training, {} validation; hidden {}, {} threads, {} kernels",
        data.train.len() + data.val.len(),
        files.len(),
        t0.elapsed().as_secs_f64(),
        data.train.len(),
        data.val.len(),
        trainer.net.hidden(),
        trainer.cfg.threads,
        if trainer.simd() { "AVX2+FMA" } else { "portable" },
    );

    let ckpt_dir = a.checkpoint_dir.clone().unwrap_or_else(|| match a.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let presses = Arc::new(AtomicUsize::new(0));
    {
        let (stop, presses) = (stop.clone(), presses.clone());
        let _ = ctrlc::set_handler(move || {
            if presses.fetch_add(1, Ordering::Relaxed) > 0 {
                eprintln!("\nmysl: interrupted");
                std::process::exit(130);
            }
            eprintln!("\nmysl: stopping after this mini-batch (the last checkpoint is the restart point); Ctrl-C again to quit now");
            stop.store(true, Ordering::Relaxed);
        });
    }

    let mut on_event = |e: &Event| match e {
        Event::Progress { epoch, done, total, train_loss, pos_per_s } => {
            eprintln!("epoch {epoch}: {done}/{total} positions, train loss {train_loss:.6}, {pos_per_s:.0} positions/s")
        }
        Event::Epoch(s) => println!(
            "epoch {:>3}: train loss {:.6}, validation loss {}, {:.0} positions/s, {:.1} s, lr {:.2e}",
            s.epoch,
            s.train_loss,
            s.val_loss.map_or("-".to_string(), |v| format!("{v:.6}")),
            s.pos_per_s,
            s.secs,
            s.lr
        ),
        Event::Saved { net, checkpoint } => {
            eprintln!("wrote {} and {}", net.display(), checkpoint.display())
        }
    };
    let outcome = train::train(&mut trainer, &data, &a.out, &ckpt_dir, &stop, &mut on_event)
        .map_err(|e| CliError::Failure(e.to_string()))?;
    if outcome.interrupted {
        let from = outcome
            .last_checkpoint
            .or_else(|| a.resume.clone().filter(|_| outcome.epochs_done > 0))
            .map_or("the start (no epoch finished)".to_string(), |p| format!("--resume {}", p.display()));
        eprintln!("mysl: stopped after {} epochs; continue from {from}", outcome.epochs_done);
        return Ok(ExitCode::from(130));
    }
    eprintln!(
        "trained {} epochs in {:.1} s; network in {}",
        outcome.epochs_done,
        t0.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
