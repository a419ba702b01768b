//! Crash-safe output files (docs/reliability.md): `mysl book build`, `mysl tb gen` and `mysl analyse`
//! (the annotated PGN export) are killed with SIGKILL at seeded random moments, each run continuing what
//! the previous one left. After every kill the output is either absent or complete and valid (byte for
//! byte the output of an uninterrupted run), and a final run finishes the work. Only that is asserted,
//! so the test passes or fails the same whatever moment a kill lands on.
//!
//! 20 kills per command by default; `MYSL_KILLS=N` runs N (the `#[ignore]`d `..._many_kills` test: 100).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mysl_core::rng::SplitMix64;
use mysl_core::{san, Chess};

fn mysl(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mysl"));
    c.args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    c
}

/// Runs to the end; returns the time it took.
fn run(args: &[&str]) -> Duration {
    let start = Instant::now();
    let out = mysl(args).output().expect("run mysl");
    assert!(out.status.success(), "mysl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    start.elapsed()
}

/// Starts a run and kills it (SIGKILL) after `delay`, unless it has finished by then.
fn run_killed(args: &[&str], delay: Duration) -> bool {
    let mut child = mysl(args).stderr(Stdio::null()).spawn().expect("start mysl");
    let end = Instant::now() + delay;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            assert!(status.success(), "mysl {args:?} failed on its own: {status}");
            return false;
        }
        if Instant::now() >= end {
            let _ = child.kill();
            let _ = child.wait();
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn kills(default: usize) -> usize {
    std::env::var("MYSL_KILLS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `n` seeded random games (orthodox chess, up to 80 plies, random results) as PGN.
fn random_games(n: usize, seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::new();
    for g in 0..n {
        let result = ["1-0", "0-1", "1/2-1/2"][rng.below(3) as usize];
        out.push_str(&format!("[Event \"random {g}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"{result}\"]\n\n"));
        let mut pos = Chess::startpos();
        for ply in 0..80 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Mostly the first few moves, so that games share openings.
            let pick = if ply < 8 { rng.below(3.min(legal.len() as u64)) } else { rng.below(legal.len() as u64) };
            let mv = legal.iter().nth(pick as usize).expect("a move");
            if ply % 2 == 0 {
                out.push_str(&format!("{}. ", ply / 2 + 1));
            }
            out.push_str(&san::move_to_san(&pos, mv));
            out.push(' ');
            pos.play_unchecked(mv);
        }
        out.push_str(result);
        out.push_str("\n\n");
    }
    out
}

/// The kill chain: a reference run in its own folder, then runs in `work` each killed after a seeded
/// delay up to 0.9 times the reference's time, `check` after each, until `n` runs were killed. A run
/// that finished first was checked complete and starts the folder afresh (else every later run of a
/// resuming command would find the work done). A last run goes to the end. Returns the work folder.
fn kill_chain(
    n: usize,
    seed: u64,
    args: &dyn Fn(&Path) -> Vec<String>,
    check: &dyn Fn(&Path, &Path),
) -> tempfile::TempDir {
    let reference = tempfile::tempdir().expect("tempdir");
    let work = tempfile::tempdir().expect("tempdir");
    let ref_args = args(reference.path());
    let full = run(&ref_args.iter().map(String::as_str).collect::<Vec<_>>());
    let work_args = args(work.path());
    let work_args: Vec<&str> = work_args.iter().map(String::as_str).collect();
    let mut rng = SplitMix64::new(seed);
    let span = (full.as_millis() as u64 * 9 / 10).max(10);
    let (mut killed, mut runs) = (0, 0);
    while killed < n {
        runs += 1;
        assert!(runs <= 4 * n + 10, "only {killed} of {runs} runs could be killed");
        let delay = Duration::from_millis(rng.below(span));
        let was_killed = run_killed(&work_args, delay);
        check(work.path(), reference.path());
        if was_killed {
            killed += 1;
        } else {
            for entry in std::fs::read_dir(work.path()).expect("the work folder").flatten() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    run(&work_args);
    check(work.path(), reference.path());
    println!("{killed} kills in {runs} runs; reference run {full:?}");
    work
}

/// `name` in `work` is absent or equal to the reference's.
fn absent_or_complete(work: &Path, reference: &Path, name: &str) {
    let Ok(got) = std::fs::read(work.join(name)) else { return };
    let want = std::fs::read(reference.join(name)).expect("the reference output");
    assert!(got == want, "{name}: present but not the complete output ({} of {} bytes)", got.len(), want.len());
}

fn book_build(n: usize) {
    let inputs = tempfile::tempdir().expect("tempdir");
    let pgn = inputs.path().join("games.pgn");
    std::fs::write(&pgn, random_games(3000, 1)).expect("write games");
    let pgn = pgn.to_string_lossy().into_owned();
    for (name, seed) in [("book.mbk", 11), ("book.bin", 12)] {
        kill_chain(
            n / 2,
            seed,
            &|dir| {
                let out = dir.join(name).to_string_lossy().into_owned();
                ["book", "build", "--pgn", &pgn, "--out", &out, "--min-games", "1", "--quiet", "--threads", "2"]
                    .map(String::from)
                    .to_vec()
            },
            &|work, reference| {
                absent_or_complete(work, reference, name);
                if let Ok(bytes) = std::fs::read(work.join(name)) {
                    mysl_book::Book::from_bytes(&bytes, name).expect("a complete book opens");
                }
            },
        );
    }
}

fn tb_gen(n: usize) {
    let work = kill_chain(
        n,
        21,
        &|dir| ["tb", "gen", "KPvK", "--dir", &dir.to_string_lossy(), "--threads", "2"].map(String::from).to_vec(),
        &|work, reference| {
            let names: Vec<String> = std::fs::read_dir(reference)
                .expect("the reference tables")
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".mtb"))
                .collect();
            assert!(names.len() >= 3, "{names:?}");
            for name in &names {
                absent_or_complete(work, reference, name);
                if work.join(name).exists() {
                    mysl_tb::read::TableFile::open(&work.join(name), None).expect("a complete table opens");
                }
            }
        },
    );
    // The last run rewrote every table a killed run left unfinished, and with it removed that run's
    // temporary file.
    let left: Vec<String> = std::fs::read_dir(work.path())
        .expect("the work folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left by killed runs: {left:?}");
}

fn analyse(n: usize) {
    let inputs = tempfile::tempdir().expect("tempdir");
    let pgn = inputs.path().join("games.pgn");
    std::fs::write(&pgn, random_games(2, 2)).expect("write games");
    let pgn = pgn.to_string_lossy().into_owned();
    kill_chain(
        n,
        31,
        &|dir| {
            let out = dir.join("annotated.pgn").to_string_lossy().into_owned();
            ["analyse", &pgn, "--out", &out, "--nodes", "1000", "--quiet"].map(String::from).to_vec()
        },
        &|work, reference| absent_or_complete(work, reference, "annotated.pgn"),
    );
}

#[test]
fn book_build_killed_leaves_no_partial_book() {
    book_build(kills(20) * 2);
}

#[test]
fn tb_gen_killed_leaves_no_partial_table() {
    tb_gen(kills(20));
}

#[test]
fn analyse_killed_leaves_no_partial_pgn() {
    analyse(kills(20));
}

#[test]
#[ignore = "long: 100 kills of each command (cargo test --release -- --ignored)"]
fn crash_safety_many_kills() {
    book_build(200);
    tb_gen(100);
    analyse(100);
}
