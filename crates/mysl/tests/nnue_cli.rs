//! `mysl datagen` and `mysl train` from the command line: chunks are whole and resumable, the same
//! seed makes the same bytes, a broken data file is named, and the trained network loads in the engine.

use std::process::Command;

fn mysl() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mysl"))
}

fn datagen(dir: &str) -> std::process::Output {
    mysl()
        .args(["datagen", "--out", dir, "--games", "4", "--games-per-chunk", "2", "--nodes", "300", "--quiet"])
        .output()
        .expect("run mysl")
}

#[test]
fn datagen_resumes_and_train_reads_its_chunks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("utf-8 path");
    let out = datagen(d);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let chunk = |k: usize| dir.path().join(format!("chunk-{k:06}.bin"));
    let first = std::fs::read(chunk(0)).expect("chunk 0");
    let second = std::fs::read(chunk(1)).expect("chunk 1");
    assert!(!first.is_empty() && first.len() % 32 == 0 && second.len() % 32 == 0);
    assert!(!chunk(2).exists(), "4 games of 2 per chunk: two chunks");

    // An interrupted run leaves a .tmp and misses a chunk: the re-run removes the one, remakes the other
    // with the same bytes, and leaves the complete chunk alone.
    std::fs::remove_file(chunk(1)).expect("remove");
    std::fs::write(dir.path().join("chunk-000001.bin.tmp"), b"partial").expect("write");
    let out = datagen(d);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(chunk(1)).expect("chunk 1"), second);
    assert_eq!(std::fs::read(chunk(0)).expect("chunk 0"), first);
    assert!(!dir.path().join("chunk-000001.bin.tmp").exists());

    // Train a small network on it; the engine loads the result.
    let net = dir.path().join("net.nnue");
    let out = mysl()
        .args([
            "train",
            "--data",
            d,
            "--out",
            net.to_str().expect("utf-8"),
            "--hidden",
            "16",
            "--epochs",
            "2",
            "--batch",
            "64",
        ])
        .output()
        .expect("run mysl");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let network = mysl_engine::Network::load(&net).expect("the engine loads the trained network");
    assert_eq!(network.hidden(), 16);

    // A file cut short is named, with exit code 2.
    std::fs::write(dir.path().join("chunk-000009.bin"), &first[..first.len() - 5]).expect("write");
    let out = mysl()
        .args(["train", "--data", d, "--out", net.to_str().expect("utf-8"), "--hidden", "16", "--epochs", "1"])
        .output()
        .expect("run mysl");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("chunk-000009.bin") && err.contains("not a whole number"), "{err}");
}
