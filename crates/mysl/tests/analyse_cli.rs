//! `mysl analyse`: annotated output, blunder marks, variants, broken games skipped.

use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use mysl_book::pgn::{for_each_game, replay_game, GameSink, GameTags};
use mysl_book::Input;
use mysl_core::{dispatch_variant, Move, Position, Rules, Variant};

fn mysl() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mysl"))
}

const GAMES: &str = r#"[Event "Scholar"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 { [%clk 0:05:00] } e5 { [%clk 0:05:00] } 2. Qh5 { [%clk 0:04:58] } Nc6 { [%clk 0:04:57] }
3. Bc4 { [%clk 0:04:55] } Nf6 { [%clk 0:04:50] } 4. Qxf7# { [%clk 0:04:49] } 1-0

[Event "Broken"]
[White "C"]
[Black "D"]
[Result "*"]

1. e4 e5 2. Ke3 Nc6 *

[Event "Three-check"]
[White "E"]
[Black "F"]
[Result "*"]
[Variant "Three-check"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 *
"#;

struct Moves(Vec<Move>);
impl<R: Rules> GameSink<R> for Moves {
    fn tags(&mut self, _tags: &GameTags) -> bool {
        true
    }
    fn ply(&mut self, _pos: &Position<R>, mv: Move, _ply: usize) -> bool {
        self.0.push(mv);
        true
    }
}

/// Each game's moves (as UCI text), or the error, read with the book crate's reader.
fn read_games(path: &str) -> Vec<Result<Vec<String>, String>> {
    let games = Mutex::new(Vec::new());
    let stop = AtomicBool::new(false);
    for_each_game(
        &[Input::new(path)],
        1,
        Arc::new(Default::default()),
        &stop,
        |_, text| {
            let text = String::from_utf8_lossy(text).into_owned();
            let variant = text
                .lines()
                .find_map(|l| l.strip_prefix("[Variant \"").and_then(|v| v.strip_suffix("\"]")))
                .and_then(Variant::from_name)
                .unwrap_or(Variant::Chess);
            dispatch_variant!(variant, R => {
                let mut sink = Moves(Vec::new());
                replay_game::<R, _>(text.as_bytes(), &mut sink)
                    .map(|_| sink.0.iter().map(|m| format!("{m:?}")).collect::<Vec<_>>())
                    .map_err(|e| e.to_string())
            })
        },
        |_, g| games.lock().expect("lock").push(g),
    )
    .expect("read");
    games.into_inner().expect("lock")
}

#[test]
fn analyse_marks_blunders_keeps_clocks_and_skips_broken_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("games.pgn");
    let output = dir.path().join("annotated.pgn");
    std::fs::write(&input, GAMES).expect("write");
    let out = mysl()
        .args(["analyse", input.to_str().expect("utf-8 path"), "--nodes", "3000", "--threads", "2", "--out"])
        .arg(&output)
        .output()
        .expect("run mysl");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("game 2 (line 9): illegal move Ke3 at ply 3"), "{stderr}");
    assert!(stderr.contains("2 games analysed, 1 broken"), "{stderr}");
    assert!(stdout.contains("game 1: A - B") && stdout.contains("game 3: E - F"), "{stdout}");
    // Movetext lines wrap at 80 columns: compare with single spaces.
    let text = std::fs::read_to_string(&output).expect("output").replace('\n', " ");
    // The blunder 3... Nf6?? with the better line, the mate after it.
    assert!(text.contains("3... Nf6??"), "{text}");
    assert!(text.contains("Blunder.") && text.contains("( 3... "), "{text}");
    assert!(text.contains("4. Qxf7# { [%eval #0] [%clk 0:04:49] }"), "{text}");
    assert!(text.contains("[%clk 0:04:50]"), "{text}");
    assert!(text.contains("[BlackAccuracy \"") && text.contains("[WhiteACPL \""), "{text}");
    assert!(text.contains("[Event \"Three-check\"]") && text.contains("[Variant \"Three-check\"]"), "{text}");
    // Every move has an eval: 7 + 6 moves.
    assert_eq!(text.matches("[%eval ").count(), 13, "{text}");
    // The output reads back with the same moves.
    let before = read_games(input.to_str().expect("utf-8 path"));
    let after = read_games(output.to_str().expect("utf-8 path"));
    assert_eq!(after.len(), 2);
    assert_eq!(after[0], before[0]);
    assert_eq!(after[1], before[2]);
    assert!(before[1].is_err());
}

#[test]
fn analyse_is_reproducible_and_takes_a_variant_option() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("anti.pgn");
    std::fs::write(&input, "1. e3 b5 2. Bxb5 c6 3. Bxc6 Nxc6 *\n").expect("write");
    let run = |name: &str| {
        let output = dir.path().join(name);
        let out = mysl()
            .args([
                "analyse",
                input.to_str().expect("utf-8 path"),
                "--variant",
                "antichess",
                "--nodes",
                "2000",
                "--out",
            ])
            .arg(&output)
            .output()
            .expect("run mysl");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read_to_string(&output).expect("output")
    };
    let a = run("a.pgn");
    assert_eq!(a, run("b.pgn"));
    assert!(a.contains("[Variant \"antichess\"]"), "{a}");
    assert_eq!(a.matches("[%eval ").count(), 6, "{a}");
}

#[test]
fn analyse_reports_a_missing_file() {
    let out = mysl().args(["analyse", "/nonexistent/games.pgn", "--out", "/dev/null"]).output().expect("run mysl");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such file"));
}

#[test]
fn analyse_gives_table_positions_the_tables_values() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).expect("mkdir");
    let gen = mysl().args(["tb", "gen", "KRvK", "--dir"]).arg(&tables).output().expect("run mysl");
    assert!(gen.status.success(), "{}", String::from_utf8_lossy(&gen.stderr));
    let input = dir.path().join("krk.pgn");
    let output = dir.path().join("out.pgn");
    std::fs::write(&input, "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/2k5/8/K6R w - - 0 1\"]\n\n1. Rh3+ Kc4 2. Kb2 *\n")
        .expect("write");
    let out = mysl()
        .args(["analyse", input.to_str().expect("utf-8 path"), "--nodes", "1000", "--tb"])
        .arg(&tables)
        .arg("--out")
        .arg(&output)
        .output()
        .expect("run mysl");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&output).expect("output");
    // Every position is a won table position: a mate distance for White, no centipawns.
    assert_eq!(text.matches("[%eval #").count(), 3, "{text}");
    assert!(!text.contains("[%eval #-"), "{text}");
}
