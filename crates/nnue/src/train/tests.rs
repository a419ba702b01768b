//! Trainer tests: data errors, learning on synthetic material-balance data, a numerical gradient
//! check, the quantised file against the float model, checkpoint and resume. Seeded and short.

use std::sync::atomic::AtomicBool;

use super::data::{self, Dataset, Raw};
use super::kernels::{self, Scratch};
use super::model::{eval_quantised, Layout, Net, QA, QB};
use super::rng::Rng;
use super::synth::material_records;
use super::*;
use crate::features;
use crate::record::{Record, RECORD_SIZE};

fn decode(r: &Raw) -> Record {
    Record::from_bytes(r).expect("valid record")
}

fn small_cfg(hidden: usize) -> TrainConfig {
    TrainConfig { hidden, epochs: 6, lr: 0.01, wdl: 0.0, batch: 256, threads: 2, seed: 7, ..TrainConfig::default() }
}

fn kernel_kinds() -> Vec<bool> {
    if kernels::simd_available() {
        vec![false, true]
    } else {
        vec![false]
    }
}

#[test]
fn a_bad_file_size_or_record_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = material_records(3, 1);
    let write = |name: &str, recs: &[Raw], extra: &[u8]| {
        let mut b: Vec<u8> = recs.concat();
        b.extend_from_slice(extra);
        std::fs::write(dir.path().join(name), b).expect("write");
    };
    write("chunk-000000.bin", &good, &[]);
    write("chunk-000001.bin.tmp", &[], &[1, 2, 3]); // unfinished chunk: ignored
    let recs = data::read_dir(dir.path()).expect("good data");
    assert_eq!(recs, good);

    write("chunk-000002.bin", &good, &[0; 5]);
    let e = data::read_dir(dir.path()).expect_err("odd size");
    assert!(matches!(e, DataError::BadSize { size: 101, .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("chunk-000002.bin") && msg.contains("101 bytes"), "{msg}");

    let mut bad = good.clone();
    bad.push(good[0]);
    bad[3][30] = 7; // result byte
    write("chunk-000002.bin", &bad, &[]);
    let e = data::read_dir(dir.path()).expect_err("bad record");
    assert!(matches!(e, DataError::BadRecord { index: 3, .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("chunk-000002.bin") && msg.contains("record 3") && msg.contains("result byte 7"), "{msg}");

    let empty = tempfile::tempdir().expect("tempdir");
    assert!(matches!(data::read_dir(empty.path()), Err(DataError::Empty(_))));
}

#[test]
fn the_fast_feature_decoder_agrees_with_the_features_module() {
    for raw in material_records(300, 2) {
        let rec = decode(&raw);
        let (mut stm, mut nstm) = ([0u16; 32], [0u16; 32]);
        let n = data::features(&raw, &mut stm, &mut nstm);
        let expect = |persp| rec.pieces().map(|(c, r, s)| features::index(persp, c, r, s) as u16).collect::<Vec<_>>();
        assert_eq!(stm[..n], expect(rec.turn)[..]);
        assert_eq!(nstm[..n], expect(!rec.turn)[..]);
    }
}

#[test]
fn the_target_is_the_side_to_moves_view() {
    let mut raw = material_records(1, 3)[0];
    raw[28..30].copy_from_slice(&400i16.to_le_bytes());
    raw[30] = 2; // White won
    raw[24] &= 127; // White to move
    let s = data::sigmoid(1.0);
    assert!((data::target(&raw, 0.0) - s).abs() < 1e-6);
    assert!((data::target(&raw, 1.0) - 1.0).abs() < 1e-6);
    assert!((data::target(&raw, 0.25) - (0.75 * s + 0.25)).abs() < 1e-6);
    raw[24] |= 128; // Black to move
    assert!((data::target(&raw, 0.0) - (1.0 - s)).abs() < 1e-6);
    assert!(data::target(&raw, 1.0).abs() < 1e-6);
}

/// The loss of one position computed in f64 from the reference forward pass.
fn loss64(net: &Net, raw: &Raw, wdl: f32) -> f64 {
    let out = net.forward(&decode(raw));
    let y = 1.0 / (1.0 + (-out).exp());
    let t = data::target(raw, wdl) as f64;
    (y - t) * (y - t)
}

/// The accumulators (side to move, other side) in f64.
fn accumulators(net: &Net, rec: &Record) -> [Vec<f64>; 2] {
    let n = net.hidden();
    let l = net.layout;
    [rec.turn, !rec.turn].map(|persp| {
        (0..n)
            .map(|i| {
                let b = net.params[l.feature_biases().start + i] as f64;
                b + rec
                    .pieces()
                    .map(|(c, r, s)| net.params[features::index(persp, c, r, s) * n + i] as f64)
                    .sum::<f64>()
            })
            .collect()
    })
}

#[test]
fn the_gradient_agrees_with_finite_differences() {
    let n = 16;
    let mut net = Net::random(n, 11);
    let l = net.layout;
    let mut rng = Rng::new(5);
    for p in &mut net.params[l.feature_biases()] {
        *p = rng.symmetric(0.4) + 0.2;
    }
    net.params[l.output_bias()] = 0.1;
    let mut recs = material_records(2, 9);
    recs[0][30] = 2;
    recs[1][30] = 0;
    let wdl = 0.6;
    let eps = 1e-3f32;
    let mut checked = 0;
    for simd in kernel_kinds() {
        for raw in &recs {
            let rec = decode(raw);
            let mut grad = vec![0.0; l.param_count()];
            kernels::train_chunk(
                simd,
                &net.params,
                l,
                std::slice::from_ref(raw),
                &[0],
                wdl,
                1.0,
                &mut grad,
                &mut Scratch::new(n),
            );
            let acc = accumulators(&net, &rec);
            let near_kink =
                |i: usize| acc.iter().any(|a| a[i].abs() < 3.0 * eps as f64 || (a[i] - 1.0).abs() < 3.0 * eps as f64);
            let mut params: Vec<usize> = l.output_weights().chain([l.output_bias()]).collect();
            params.extend(l.feature_biases().filter(|&k| !near_kink(k - l.feature_biases().start)));
            let feats: Vec<usize> = rec.pieces().map(|(c, r, s)| features::index(rec.turn, c, r, s)).collect();
            for &f in feats.iter().take(6) {
                params.extend((0..n).filter(|&i| !near_kink(i)).map(|i| f * n + i));
            }
            for k in params {
                let mut plus = net.clone();
                plus.params[k] += eps;
                let mut minus = net.clone();
                minus.params[k] -= eps;
                let h = plus.params[k] as f64 - minus.params[k] as f64;
                let numeric = (loss64(&plus, raw, wdl) - loss64(&minus, raw, wdl)) / h;
                let analytic = grad[k] as f64;
                assert!(
                    (analytic - numeric).abs() <= 2e-6 + 2e-3 * numeric.abs(),
                    "parameter {k} (simd {simd}): analytic {analytic}, numeric {numeric}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn the_kernels_agree_with_the_reference_forward() {
    for n in [32, 40, 256] {
        let net = Net::random(n, 4);
        for simd in kernel_kinds() {
            let mut s = Scratch::new(n);
            for raw in material_records(20, 8) {
                let fast = kernels::output(simd, &net.params, net.layout, &raw, &mut s) as f64;
                let reference = net.forward(&decode(&raw));
                assert!((fast - reference).abs() < 1e-4, "n {n} simd {simd}: {fast} vs {reference}");
            }
        }
    }
}

#[test]
fn a_tiles_gradient_is_the_sum_of_the_positions_gradients() {
    for n in [32, 72, 256] {
        let net = Net::random(n, 6);
        let l = net.layout;
        let recs = material_records(150, 13);
        let idx: Vec<u32> = (0..150).rev().collect();
        for simd in kernel_kinds() {
            let mut s = Scratch::new(n);
            let mut whole = vec![0.0; l.param_count()];
            let loss = kernels::train_chunk(simd, &net.params, l, &recs, &idx, 0.3, 0.5, &mut whole, &mut s);
            let mut sum = vec![0.0; l.param_count()];
            let mut loss_sum = 0.0;
            for &i in &idx {
                loss_sum += kernels::train_chunk(simd, &net.params, l, &recs, &[i], 0.3, 0.5, &mut sum, &mut s);
            }
            assert!((loss - loss_sum).abs() < 1e-9 * loss.abs().max(1.0));
            for (k, (a, b)) in whole.iter().zip(&sum).enumerate() {
                assert!((a - b).abs() <= 1e-5 + 1e-4 * b.abs(), "n {n} simd {simd} parameter {k}: {a} vs {b}");
            }
        }
    }
}

/// The validation loss of always predicting 0.5.
fn constant_loss(val: &[Raw], wdl: f32) -> f64 {
    val.iter().map(|r| (0.5 - data::target(r, wdl) as f64).powi(2)).sum::<f64>() / val.len() as f64
}

fn trained_small_net() -> (Net, Dataset, f64, f64) {
    let data = Dataset::split(material_records(30_000, 21), 0.1, 7);
    let cfg = small_cfg(32);
    let mut t = Trainer::new(cfg).expect("config");
    let before = t.validation_loss(&data.val).expect("val");
    let stop = AtomicBool::new(false);
    let mut last = None;
    while t.epochs_done < t.cfg.epochs {
        last = t.run_epoch(&data.train, &stop, &mut |_| {});
    }
    assert!(last.is_some_and(|s| s.train_loss.is_finite()));
    let after = t.validation_loss(&data.val).expect("val");
    (t.net, data, before, after)
}

#[test]
fn a_small_net_learns_the_material_balance() {
    let (_, data, before, after) = trained_small_net();
    let constant = constant_loss(&data.val, 0.0);
    eprintln!("validation loss: constant 0.5 {constant:.5}, initial {before:.5}, trained {after:.5}");
    assert!(after < 0.2 * constant, "trained {after} vs constant {constant}");
    assert!(after < 0.2 * before, "trained {after} vs initial {before}");
}

#[test]
fn the_quantised_file_agrees_with_the_float_model() {
    // weights on the quantisation grid: only the integer divisions differ
    let n = 24;
    let l = Layout { n };
    let mut rng = Rng::new(3);
    let mut params = vec![0.0; l.param_count()];
    for p in &mut params[l.feature_weights()] {
        *p = (rng.below(61) as i32 - 30) as f32 / QA as f32;
    }
    for p in &mut params[l.feature_biases()] {
        *p = (rng.below(201) as i32 - 50) as f32 / QA as f32;
    }
    for p in &mut params[l.output_weights()] {
        *p = (rng.below(127) as i32 - 63) as f32 / QB as f32;
    }
    params[l.output_bias()] = 1234.0 / (QA * QB) as f32;
    let net = Net { layout: l, params };
    let bytes = net.to_nnue();
    assert_eq!(bytes.len(), 16 + 2 * (768 * n + 3 * n) + 4);
    assert_eq!(&bytes[..8], b"MYSLNNUE");
    for raw in material_records(200, 12) {
        let rec = decode(&raw);
        let q = eval_quantised(&bytes, &rec).expect("valid net") as f64;
        let f = net.forward(&rec) * 400.0;
        assert!((q - f).abs() < 1.1, "quantised {q}, float {f}");
    }

    // a trained net: rounding the weights (output weights in steps of 1/64) costs a few centipawns,
    // about 1% of the evaluation
    let (net, data, _, _) = trained_small_net();
    let bytes = net.to_nnue();
    let (mut worst, mut sum, mut size) = (0f64, 0f64, 0f64);
    for raw in &data.val[..500] {
        let rec = decode(raw);
        let q = eval_quantised(&bytes, &rec).expect("valid net") as f64;
        let f = net.forward(&rec) * 400.0;
        let d = (q - f).abs();
        assert!(d <= 15.0 + 0.03 * f.abs(), "quantised {q}, float {f}");
        worst = worst.max(d);
        sum += d;
        size += f.abs();
    }
    eprintln!("quantised vs float: mean {:.2} cp, worst {worst:.2} cp, mean |eval| {:.1}", sum / 500.0, size / 500.0);
    assert!(sum / 500.0 < 8.0 && worst < 30.0, "mean {} worst {worst}", sum / 500.0);

    assert_eq!(eval_quantised(&bytes[1..], &decode(&data.val[0])), Err(NetFileError::Magic));
    assert!(matches!(eval_quantised(&bytes[..bytes.len() - 2], &decode(&data.val[0])), Err(NetFileError::Size { .. })));
}

#[test]
fn a_checkpoint_resumes_the_same_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = Dataset::split(material_records(4000, 31), 0.05, 3);
    let cfg = TrainConfig { epochs: 3, ..small_cfg(32) };
    let stop = AtomicBool::new(false);

    let out_a = dir.path().join("a.nnue");
    let mut a = Trainer::new(cfg.clone()).expect("config");
    let mut epochs = Vec::new();
    let outcome = train(&mut a, &data, &out_a, dir.path(), &stop, &mut |e| {
        if let Event::Epoch(s) = e {
            epochs.push(s.epoch)
        }
    })
    .expect("train");
    assert_eq!(epochs, [1, 2, 3]);
    assert_eq!(outcome.epochs_done, 3);
    let last = outcome.last_checkpoint.expect("checkpoint");
    assert_eq!(last, dir.path().join("a-e003.ckpt"));
    assert_eq!(Checkpoint::load(&last).expect("load"), a.checkpoint());
    assert_eq!(std::fs::read(&out_a).expect("net"), a.net.to_nnue());

    // one epoch, interrupted (as by Ctrl-C) once its checkpoint is written, then resume from it
    let out_b = dir.path().join("b.nnue");
    let mut b = Trainer::new(cfg.clone()).expect("config");
    let interrupt = AtomicBool::new(false);
    let stopped = train(&mut b, &data, &out_b, dir.path(), &interrupt, &mut |e| {
        if let Event::Saved { .. } = e {
            interrupt.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })
    .expect("train");
    assert!(stopped.interrupted && stopped.epochs_done == 1);
    let ck = Checkpoint::load(&dir.path().join("b-e001.ckpt")).expect("load");
    assert_eq!(ck.epochs_done, 1);
    assert_ne!(ck.net, a.net);
    let mut b = Trainer::resume(cfg.clone(), ck).expect("resume");
    let outcome = train(&mut b, &data, &out_b, dir.path(), &stop, &mut |_| {}).expect("train");
    assert_eq!(outcome.epochs_done, 3);
    assert!(b.net.params == a.net.params, "resumed weights differ");
    assert_eq!(b.adam, a.adam);

    // a different seed is refused; a stop request leaves the last checkpoint as it was
    let ck = Checkpoint::load(&dir.path().join("b-e001.ckpt")).expect("load");
    assert!(Trainer::resume(TrainConfig { seed: 8, ..cfg.clone() }, ck.clone()).is_err());
    let mut c = Trainer::resume(cfg, ck.clone()).expect("resume");
    let stopped = train(&mut c, &data, &out_b, dir.path(), &AtomicBool::new(true), &mut |_| {}).expect("train");
    assert!(stopped.interrupted && stopped.epochs_done == 1);
    assert_eq!(Checkpoint::load(&dir.path().join("b-e001.ckpt")).expect("load"), ck);
    assert!(!dir.path().join("b-e001.ckpt.tmp").exists());
    let _ = RECORD_SIZE;
}

#[test]
fn validation_holds_out_whole_files() {
    let files: Vec<Vec<Raw>> = (0..10).map(|k| material_records(100 + 10 * k, 40 + k as u64)).collect();
    let total: usize = files.iter().map(Vec::len).sum();
    let data = Dataset::split_files(files.clone(), 0.15, 5);
    assert_eq!(data.train.len() + data.val.len(), total);
    assert!(data.val.len() * 100 >= 15 * total - 200, "at least the fraction, in whole files");
    // Every validation position comes from a file none of whose positions are in training.
    let held: Vec<&Vec<Raw>> = files.iter().filter(|f| data.val.contains(&f[0])).collect();
    assert!(!held.is_empty());
    assert_eq!(held.iter().map(|f| f.len()).sum::<usize>(), data.val.len());
    for f in held {
        assert!(f.iter().all(|r| !data.train.contains(r)));
    }
    // Seeded: the same split again.
    let again = Dataset::split_files(files.clone(), 0.15, 5);
    assert_eq!((again.train, again.val), (data.train, data.val));
    // One file: split by position.
    let one = Dataset::split_files(vec![files[0].clone()], 0.1, 5);
    assert_eq!(one.val.len(), 10);
}
