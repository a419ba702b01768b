//! Replays every committed fuzzing corpus (`fuzz/corpus/<target>/`) and every kept finding
//! (`fuzz/regressions/<target>/`) once through the entry points, on the stable toolchain: what the
//! fuzzer once found must keep passing. A panic on any thread (a search thread of the protocol
//! targets too) fails the test, with the files named.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

static PANICS: AtomicUsize = AtomicUsize::new(0);

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn committed_corpora_replay_without_a_finding() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default_hook(info);
    }));
    let mut failures = Vec::new();
    let mut total = 0;
    for (name, entry) in mysl_fuzz_entry::TARGETS {
        let start = Instant::now();
        let mut n = 0;
        let mut slowest = (std::time::Duration::ZERO, String::new());
        for kind in ["corpus", "regressions"] {
            for path in files(&root.join(kind).join(name)) {
                let data = std::fs::read(&path).expect("a corpus file reads");
                let before = PANICS.load(Ordering::SeqCst);
                let t = Instant::now();
                let caught = std::panic::catch_unwind(|| entry(&data));
                let took = t.elapsed();
                if took > slowest.0 {
                    slowest = (took, path.display().to_string());
                }
                if caught.is_err() || PANICS.load(Ordering::SeqCst) != before {
                    failures.push(path.display().to_string());
                }
                n += 1;
            }
        }
        assert!(n > 0, "no corpus for the target {name} under {}", root.display());
        println!(
            "{name}: {n} inputs in {:.2} s, slowest {:.3} s ({})",
            start.elapsed().as_secs_f64(),
            slowest.0.as_secs_f64(),
            slowest.1
        );
        total += n;
    }
    let _ = std::panic::take_hook();
    assert!(failures.is_empty(), "{} of {total} inputs failed:\n{}", failures.len(), failures.join("\n"));
}
