//! The `mysl` binary end to end: perft output format, suites, and clear errors on bad input.

use std::process::{Command, Output};

fn mysl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mysl")).args(args).output().expect("run mysl")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_nodes_searched() {
    let o = mysl(&["perft", "--depth", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 8902"));
    let o = mysl(&["perft", "startpos", "--depth", "2"]);
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 400"));
}

#[test]
fn perft_divide_lists_root_moves() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = mysl(&["perft", "--depth", "2", "--fen", kiwipete, "--divide"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let counts: Vec<(String, u64)> = out
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| m.len() <= 5)
        .map(|(m, n)| (m.to_string(), n.parse().expect("count")))
        .collect();
    assert_eq!(counts.len(), 48);
    assert!(counts.iter().any(|(m, _)| m == "e1g1"), "castling written as e1g1");
    assert_eq!(counts.iter().map(|(_, n)| n).sum::<u64>(), 2039);
    assert_eq!(out.lines().last(), Some("Nodes searched: 2039"));
}

#[test]
fn bad_fen_gives_exit_code_2_and_one_line() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "not a fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",
        "",
    ] {
        let o = mysl(&["perft", "--depth", "1", "--fen", fen]);
        assert_eq!(o.status.code(), Some(2), "fen {fen:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "one line for {fen:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.starts_with("mysl: "), "{err}");
    }
    let o = mysl(&["perft", "--depth", "1", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"]);
    assert_eq!(stderr(&o).trim(), "mysl: FEN field 2 (side to move): expected w or b, found 'x'");
}

#[test]
fn suite_reports_mismatches_and_skips_by_node_limit() {
    let dir = std::env::temp_dir().join(format!("mysl-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = dir.join("good.perft");
    std::fs::write(
        &good,
        "# comment\nchess;rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;1 20;2 400;5 4865609\n",
    )
    .expect("write");
    let o = mysl(&["perft", "--suite", good.to_str().expect("utf8"), "--max-nodes", "1000"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("2 passed, 0 failed, 1 skipped"), "{}", stdout(&o));

    let bad = dir.join("bad.perft");
    std::fs::write(&bad, "chess;rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;1 20;2 401\n").expect("write");
    let o = mysl(&["perft", "--suite", bad.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("depth 2: expected 401, got 400"), "{}", stdout(&o));

    let broken = dir.join("broken.perft");
    std::fs::write(&broken, "chess;8/8/8/8/8/8/8/K6k w - - 0 1;two 3\n").expect("write");
    let o = mysl(&["perft", "--suite", broken.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 1"), "{}", stderr(&o));

    let o = mysl(&["perft", "--suite", dir.join("missing.perft").to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn full_standard_suite_via_cli_under_node_limit() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/perft/standard.perft");
    if !path.exists() {
        eprintln!("skipped: {} not found", path.display());
        return;
    }
    let o = mysl(&["perft", "--suite", path.to_str().expect("utf8"), "--max-nodes", "1000000"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains(" 0 failed"), "{}", stdout(&o));
}

#[test]
fn perft_variants_and_unknown_variant() {
    let o = mysl(&[
        "perft",
        "--variant",
        "antichess",
        "--depth",
        "3",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 8067"));
    let o = mysl(&[
        "perft",
        "--variant",
        "Three-check",
        "--depth",
        "2",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
    ]);
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 400"));
    let o = mysl(&[
        "perft",
        "--variant",
        "dice",
        "--depth",
        "1",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 roll=2",
    ]);
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 4"), "only knight moves on a 2");
    let o = mysl(&["perft", "--variant", "atomic", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown variant 'atomic'"), "{}", stderr(&o));
    let o = mysl(&["perft", "--depth", "1", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"]);
    assert_eq!(o.status.code(), Some(2), "a check counter is not orthodox");
}

#[test]
fn every_shared_suite_via_cli_under_node_limit() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/perft");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} not found", dir.display());
        return;
    };
    let mut files = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "perft") {
            let o = mysl(&["perft", "--suite", path.to_str().expect("utf8"), "--max-nodes", "300000"]);
            assert!(o.status.success(), "{}: {}", path.display(), stdout(&o));
            assert!(stdout(&o).contains(" 0 failed"), "{}", stdout(&o));
            files += 1;
        }
    }
    assert!(files >= 8, "all perft files found");
}

fn mysl_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mysl"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mysl");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    child.wait_with_output().expect("wait")
}

#[test]
fn play_engine_vs_engine_saves_pgn() {
    let path = std::env::temp_dir().join(format!("mysl-play-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let o = mysl_with_input(
        &[
            "play",
            "--white",
            "engine",
            "--black",
            "engine",
            "--movetime",
            "0.005",
            "--fen",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            "--pgn",
            path.to_str().expect("utf8"),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Result: 1-0"), "{}", stdout(&o));
    let pgn = std::fs::read_to_string(&path).expect("pgn written");
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.contains("[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. Ra8# 1-0"), "{pgn}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn play_human_input_errors_undo_and_resign() {
    let o = mysl_with_input(
        &["play", "--black", "engine", "--movetime", "0.01", "--ascii"],
        "e4\nKe2e9\nundo\nNf3\nresign\n",
    );
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("White plays e4"), "{out}");
    assert!(out.contains("'Ke2e9' is not a legal move here"), "{out}");
    assert!(out.contains("White plays Nf3"), "{out}");
    assert!(out.contains("Result: 0-1 (White resigns)"), "{out}");
    let o = mysl_with_input(&["play", "--variant", "recycle", "--white", "human", "--black", "human"], "quit\n");
    assert!(o.status.success());
    let o = mysl(&["play", "--tc", "five"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn protocol_loop_detects_uci_and_xboard() {
    let o = mysl_with_input(&[], "uci\nisready\nposition startpos moves e2e4\ngo depth 3\n");
    let out = stdout(&o);
    assert!(out.contains("uciok") && out.contains("readyok") && out.contains("bestmove "), "{out}");
    let o = mysl_with_input(&[], "xboard\nprotover 2\nping 3\nquit\n");
    let out = stdout(&o);
    assert!(out.contains("feature done=1") && out.contains("pong 3"), "{out}");
}

#[test]
fn tune_reduces_the_error_on_real_games() {
    let pgn = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/pgn/kasparov-2128.pgn");
    if !pgn.exists() {
        eprintln!("skipped: {} not found", pgn.display());
        return;
    }
    let out = std::env::temp_dir().join(format!("mysl-tuned-{}.rs", std::process::id()));
    let o = mysl(&[
        "tune",
        "--pgn",
        pgn.to_str().expect("utf8"),
        "--epochs",
        "30",
        "--max-games",
        "600",
        "--out",
        out.to_str().expect("utf8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let line = err.lines().find(|l| l.starts_with("error ")).expect("summary line");
    let nums: Vec<f64> = line.split_whitespace().filter_map(|t| t.parse().ok()).collect();
    assert!(nums.len() >= 2 && nums[1] < nums[0], "error must fall: {line}");
    let source = std::fs::read_to_string(&out).expect("written");
    assert!(
        source.contains("pub fn weights() -> Option<Weights>") && source.contains("// material queen"),
        "{source:.300}"
    );
    let _ = std::fs::remove_file(&out);
    let o = mysl(&["tune", "--pgn", "/nonexistent.pgn"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn match_referees_engine_games_in_a_variant() {
    let me = env!("CARGO_BIN_EXE_mysl");
    let pgn = std::env::temp_dir().join(format!("mysl-match-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let o = mysl(&[
        "match",
        "--engine",
        me,
        "--engine",
        me,
        "--variant",
        "3check",
        "--tc",
        "1+0.01",
        "--games",
        "2",
        "--pgn",
        pgn.to_str().expect("utf8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("game 1: mysl-1 - mysl-2") && out.contains("game 2: mysl-2 - mysl-1"), "{out}");
    assert!(out.contains("Score of mysl-1 vs mysl-2:") && out.contains("2 games"), "{out}");
    assert!(!out.contains("illegal move '") && !out.contains("lost on time"), "{out}");
    assert_eq!(out.matches("0 crashes or hangs, 0 illegal moves, 0 losses on time").count(), 2, "{out}");
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    assert_eq!(text.matches("[Variant \"3check\"]").count(), 2);
    let _ = std::fs::remove_file(&pgn);
    let o = mysl(&["match", "--engine", me]);
    assert_eq!(o.status.code(), Some(2));
    let o = mysl(&["match", "--engine", me, "--engine", "cmd=x proto=telepathy"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown protocol"), "{}", stderr(&o));
}

#[test]
fn match_plays_xboard_engines_in_parallel_from_random_openings() {
    let me = env!("CARGO_BIN_EXE_mysl");
    let pgn = std::env::temp_dir().join(format!("mysl-match-xb-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let uci = format!("cmd={me} name=uci");
    let xboard = format!("cmd={me} arg=xboard proto=xboard name=xb");
    let o = mysl(&[
        "match",
        "--engine",
        &uci,
        "--engine",
        &xboard,
        "--variant",
        "berolina",
        "--tc",
        "1+0.01",
        "--games",
        "4",
        "--random-plies",
        "6",
        "--concurrency",
        "2",
        "--pgn",
        pgn.to_str().expect("utf8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Score of uci vs xb:") && out.contains("4 games"), "{out}");
    assert_eq!(out.matches("0 crashes or hangs, 0 illegal moves, 0 losses on time").count(), 2, "{out}");
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    assert_eq!(text.matches("[Variant \"berolina\"]").count(), 4);
    // Both games of a pair start with the same random moves, the two pairs with different ones.
    let openings: Vec<String> = text
        .split("[Event")
        .skip(1)
        .map(|g| g.split("\n\n").nth(1).unwrap_or("").split_whitespace().take(9).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(openings.len(), 4);
    let mut distinct = openings.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 2, "{openings:?}");
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn match_counts_a_crashing_engine_and_restarts_it() {
    let me = env!("CARGO_BIN_EXE_mysl");
    // A UCI engine that dies when asked to think.
    let crasher = "cmd=sh arg=-c arg=\"while read l; do case $l in uci) echo uciok;; isready) echo readyok;; go*) exit 3;; esac; done\" name=crasher";
    let o = mysl(&["match", "--engine", me, "--engine", crasher, "--tc", "1+0.01", "--games", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Score of mysl vs crasher: 2 - 0 - 0"), "{out}");
    assert!(out.contains("crasher: 2 crashes or hangs, 0 illegal moves, 0 losses on time"), "{out}");
}

fn shared_path(rel: &str) -> Option<std::path::PathBuf> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data").join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} not found", p.display());
        None
    }
}

#[test]
fn book_build_probe_and_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pgn = dir.path().join("games.pgn");
    std::fs::write(
        &pgn,
        "[Result \"1-0\"]\n[WhiteElo \"2600\"]\n[BlackElo \"2500\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n\n\
         [Result \"1/2-1/2\"]\n\n1. e4 c5 2. Nf3 1/2-1/2\n\n[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Ke6 3. Qxe5# 0-1\n",
    )
    .expect("write");
    let book = dir.path().join("b.mbk");
    let o = mysl(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().expect("utf8"),
        "--out",
        book.to_str().expect("utf8"),
        "--min-games",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("games: 3 read, 2 used"), "{err}");
    assert!(err.contains("game 3 (line 11): illegal move Ke6 at ply 4 (2... Ke6)"), "{err}");

    let o = mysl(&["book", "probe", "--book", book.to_str().expect("utf8"), "--moves", "e2e4 e7e5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Opening:  C20 King's Pawn Game"), "{out}");
    let row = out.lines().find(|l| l.starts_with("g1f3")).unwrap_or_else(|| panic!("{out}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    // move san weight prob games white draw black elo: one win for White.
    assert_eq!(cols[..5], ["g1f3", "Nf3", "2", "100.0%", "1"], "{row}");
    assert_eq!(cols[5], "100.0%", "{row}");
    assert_eq!(cols[8], "2600", "{row}");

    let o = mysl(&["book", "probe", "--book", book.to_str().expect("utf8"), "--json"]);
    let json = stdout(&o);
    assert!(json.starts_with("{\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\""), "{json}");
    assert!(json.contains("\"uci\":\"e2e4\",\"san\":\"e4\",\"weight\":3,\"probability\":1.000000,\"games\":2,\"white\":50.0,\"draws\":50.0,\"black\":0.0"), "{json}");

    // A damaged book: a clear error naming the file, exit code 2.
    let mut bytes = std::fs::read(&book).expect("read");
    bytes.truncate(bytes.len() - 5);
    let bad = dir.path().join("bad.mbk");
    std::fs::write(&bad, &bytes).expect("write");
    let o = mysl(&["book", "probe", "--book", bad.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.mbk: truncated mysl book"), "{}", stderr(&o));
    let odd = dir.path().join("odd.bin");
    std::fs::write(&odd, [0u8; 20]).expect("write");
    let o = mysl(&["book", "probe", "--book", odd.to_str().expect("utf8")]);
    assert!(stderr(&o).contains("20 bytes is not a whole number of 16-byte Polyglot entries"), "{}", stderr(&o));
    let o = mysl(&["book", "build", "--pgn", "/no/such.pgn", "--out", book.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/no/such.pgn: no such file"), "{}", stderr(&o));
    // The failed build left the earlier book alone.
    assert!(mysl(&["book", "probe", "--book", book.to_str().expect("utf8")]).status.success());
}

#[test]
fn shipped_default_book_is_what_the_documented_command_builds() {
    let Some(pgn) = shared_path("pgn/pgnmentor-12players.pgn.zst") else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("default.mbk");
    let o = mysl(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().expect("utf8"),
        "--min-elo",
        "2400",
        "--max-ply",
        "20",
        "--min-games",
        "5",
        "--out",
        out.to_str().expect("utf8"),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/data/default.mbk");
    assert!(
        std::fs::read(out).expect("built") == std::fs::read(shipped).expect("shipped"),
        "rebuild with scripts/build-default-book.sh"
    );
}

#[test]
fn book_dump_walks_book_moves() {
    let Some(bin) = shared_path("books/kasparov_maxply20_min1.bin") else { return };
    let o = mysl(&["book", "dump", "--book", bin.to_str().expect("utf8"), "--depth", "6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The data's dump walks the same book to the same depth: 887 rows.
    assert_eq!(stdout(&o).lines().count(), 887);
}

#[test]
fn book_verification_drops_moves_the_engine_refutes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pgn = dir.path().join("v.pgn");
    let mut text = String::new();
    for (moves, result) in [
        ("1. e4 e5 2. Nf3 Nc6 3. Bb5", "1-0"),
        ("1. e4 e5 2. Nf3 Nc6 3. Bc4", "0-1"),
        // The queen hangs to the knight, yet Black "won" these games.
        ("1. e4 e5 2. Nf3 Qg5 3. d3", "0-1"),
        ("1. e4 e5 2. Nf3 Qg5 3. c3", "0-1"),
    ] {
        text.push_str(&format!("[Result \"{result}\"]\n\n{moves} {result}\n\n"));
    }
    std::fs::write(&pgn, text).expect("write");
    let book = dir.path().join("v.mbk");
    let o = mysl(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().expect("utf8"),
        "--out",
        book.to_str().expect("utf8"),
        "--min-games",
        "1",
        "--verify-depth",
        "4",
        "--verify-margin",
        "100",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let suspicious: Vec<&str> = out.lines().filter(|l| l.starts_with("suspicious:")).collect();
    assert_eq!(suspicious.len(), 1, "{out}");
    assert!(suspicious[0].contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2  d8g5"), "{out}");
    let o = mysl(&["book", "probe", "--book", book.to_str().expect("utf8"), "--moves", "e2e4 e7e5 g1f3", "--json"]);
    let json = stdout(&o);
    assert!(json.contains("\"uci\":\"b8c6\"") && !json.contains("d8g5"), "{json}");
}

#[test]
fn uci_bench_command_prints_the_node_count_of_mysl_bench() {
    let nodes_line = |text: &str| text.lines().find(|l| l.starts_with("Nodes searched: ")).map(str::to_string);
    let o = mysl(&["bench", "--depth", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let cli = nodes_line(&stdout(&o)).expect("mysl bench output");
    let o = mysl_with_input(&[], "uci\nbench 5\nquit\n");
    let uci = nodes_line(&stdout(&o)).unwrap_or_else(|| panic!("UCI bench output: {}", stdout(&o)));
    assert_eq!(cli, uci);
    assert!(stdout(&o).contains("Nodes/second: "), "{}", stdout(&o));
}

#[test]
fn play_dice_undo_keeps_the_roll() {
    // White's die shows a 2 (knight) in the FEN; after Nf3 and undo, White is on that roll again.
    let o = mysl_with_input(
        &[
            "play",
            "--variant",
            "dice",
            "--white",
            "human",
            "--black",
            "human",
            "--ascii",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 roll=2",
        ],
        "Nf3\nundo\ne4\nNc3\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("White plays Nf3"), "{out}");
    let after_undo = out.split("White plays Nf3").nth(1).expect("after Nf3");
    assert!(after_undo.contains("die: 2 (knight)"), "{out}");
    assert!(after_undo.contains("'e4' is not a legal move here"), "{out}");
    assert!(after_undo.contains("White plays Nc3"), "{out}");
}

/// A fake UCI engine as a shell script in `dir`: it answers `uci`/`isready`, and on `go` runs
/// `on_go` with `$pos` holding the last `position` line.
fn fake_engine(dir: &std::path::Path, name: &str, on_go: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    uci) echo \"id name {name}\"; echo uciok;;\n    \
         isready) echo readyok;;\n    position*) pos=\"$line\";;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).expect("write fake engine");
    format!("cmd=sh arg={} name={name}", path.display())
}

/// `on_go` for a fake engine that opens 1. e4 e5 (whichever side it has) and reports `score cp SCORE`.
fn e4_e5(score: i32) -> String {
    format!(
        "case \"$pos\" in *moves*) echo \"info depth 1 score cp {score} pv e7e5\"; echo \"bestmove e7e5\";; \
         *) echo \"info depth 1 score cp {score} pv e2e4\"; echo \"bestmove e2e4\";; esac"
    )
}

fn match_with(engines: [&str; 2], extra: &[&str]) -> String {
    let mut args = vec!["match", "--engine", engines[0], "--engine", engines[1], "--games", "2"];
    args.extend_from_slice(extra);
    let o = mysl(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn match_counts_an_illegal_move_as_a_loss() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = fake_engine(dir.path(), "good", &e4_e5(10));
    let bad = fake_engine(dir.path(), "bad", "echo \"bestmove a1a1\"");
    let out = match_with([&good, &bad], &["--tc", "5+0", "--resign-moves", "0"]);
    // Game 1: 1. e4 a1a1 (Black's illegal move); game 2: 1. a1a1 at once.
    assert!(out.contains("game 1: good - bad 1-0 (bad played an illegal move 'a1a1')"), "{out}");
    assert!(out.contains("game 2: bad - good 0-1 (bad played an illegal move 'a1a1')"), "{out}");
    assert!(out.contains("Score of good vs bad: 2 - 0 - 0"), "{out}");
    assert!(out.contains("bad: 0 crashes or hangs, 2 illegal moves, 0 losses on time"), "{out}");
    assert!(out.contains("good: 0 crashes or hangs, 0 illegal moves, 0 losses on time"), "{out}");
}

#[test]
fn match_counts_an_engine_that_never_answers_go_as_a_time_loss() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = fake_engine(dir.path(), "good", &e4_e5(10));
    let sleeper = fake_engine(dir.path(), "sleeper", ":");
    let start = std::time::Instant::now();
    let out = match_with([&good, &sleeper], &["--tc", "0.2+0", "--margin-ms", "50", "--resign-moves", "0"]);
    assert!(out.contains("Score of good vs sleeper: 2 - 0 - 0"), "{out}");
    assert!(out.contains("sleeper: 0 crashes or hangs, 0 illegal moves, 2 losses on time"), "{out}");
    assert!(out.contains("good: 0 crashes or hangs, 0 illegal moves, 0 losses on time"), "{out}");
    // Each game waits for the clock, the margin and a second of grace, not longer.
    assert!(start.elapsed() < std::time::Duration::from_secs(20), "{:?}", start.elapsed());
}

#[test]
fn match_adjudicates_by_agreed_scores_and_by_the_move_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Each engine reports from its own side: `up` always sees itself winning, `down` losing.
    let up = fake_engine(dir.path(), "up", &e4_e5(2000));
    let down = fake_engine(dir.path(), "down", &e4_e5(-2000));
    let out = match_with([&up, &down], &["--tc", "5+0", "--resign-moves", "1", "--resign-score", "1000"]);
    assert!(out.contains("game 1: up - down 1-0 (adjudication: both engines' scores)"), "{out}");
    assert!(out.contains("game 2: down - up 0-1 (adjudication: both engines' scores)"), "{out}");
    assert!(out.contains("Score of up vs down: 2 - 0 - 0"), "{out}");
    // Scores that do not reach the threshold: no adjudication; the move limit ends the game after 1. e4 e5.
    let out =
        match_with([&up, &down], &["--tc", "5+0", "--resign-moves", "1", "--resign-score", "3000", "--max-moves", "1"]);
    assert_eq!(out.matches("1/2-1/2 (draw after 1 moves)").count(), 2, "{out}");
    assert!(out.contains("Score of up vs down: 0 - 0 - 2"), "{out}");
    assert_eq!(out.matches("0 crashes or hangs, 0 illegal moves, 0 losses on time").count(), 2, "{out}");
}
