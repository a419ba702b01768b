//! Protocol transcripts fed in memory: a UCI session, an xboard session with variants, MultiPV,
//! `stop` during `go infinite`, `isready` mid-search, garbage and illegal FENs.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mysl_protocol::{Flow, Output, Protocol};

struct Transcript {
    protocol: Protocol,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Transcript {
    fn new() -> Transcript {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        let out: Output = Arc::new(move |l: &str| sink.lock().expect("lock").push(l.to_string()));
        Transcript { protocol: Protocol::new(out), lines }
    }

    fn send(&mut self, line: &str) -> Flow {
        self.protocol.handle(line)
    }

    fn output(&self) -> Vec<String> {
        self.lines.lock().expect("lock").clone()
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.lines.lock().expect("lock"))
    }

    /// Waits until a line satisfying `pred` appears; returns all lines so far.
    fn wait_for(&self, pred: impl Fn(&str) -> bool, what: &str) -> Vec<String> {
        let start = Instant::now();
        loop {
            let lines = self.output();
            if lines.iter().any(|l| pred(l)) {
                return lines;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "timed out waiting for {what}; got {lines:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

fn bestmove(lines: &[String]) -> String {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("bestmove")
        .split_whitespace()
        .next()
        .expect("move")
        .to_string()
}

#[test]
fn uci_session() {
    let mut t = Transcript::new();
    t.send("uci");
    let out = t.take();
    assert_eq!(out.first().map(String::as_str), Some("id name mysl 0.1.0"));
    assert_eq!(out.last().map(String::as_str), Some("uciok"));
    let variant_option = out.iter().find(|l| l.contains("UCI_Variant")).expect("UCI_Variant option");
    for v in ["chess", "antichess", "3check", "extinction", "berolina", "cylinder", "dice", "knightrelay", "recycle"] {
        assert!(variant_option.contains(&format!("var {v}")), "{v} in {variant_option}");
    }
    for o in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "UCI_Chess960", "Clear Hash"] {
        assert!(out.iter().any(|l| l.starts_with(&format!("option name {o} type"))), "option {o}");
    }
    t.send("isready");
    assert_eq!(t.take(), vec!["readyok"]);
    t.send("ucinewgame");
    t.send("position startpos moves e2e4 e7e5 g1f3");
    t.send("go depth 5");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 5, "{out:?}");
    for key in ["seldepth", "multipv 1", "score cp", "nodes", "nps", "hashfull", "time", "pv"] {
        assert!(infos[4].contains(key), "{key} in {}", infos[4]);
    }
    assert!(out.last().expect("line").starts_with("bestmove"), "nothing after bestmove");
    let game = mysl_protocol::Game {
        moves: vec!["e2e4".into(), "e7e5".into(), "g1f3".into()],
        ..mysl_protocol::Game::new(mysl_core::Variant::Chess)
    };
    let best = bestmove(&out);
    assert!(game.legal_moves().contains(&best), "{best} is legal");
    assert_eq!(t.send("quit"), Flow::Quit);
}

#[test]
fn uci_bad_input_keeps_state() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("position fen 8/8/8/8/8/8/8/K6k w - - 0 1");
    t.take();
    for garbage in [
        "",
        "   ",
        "xyzzy",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",
        "position fen",
        "position startpos moves e2e5",
        "go nodes notanumber",
        "setoption name Hash value big",
        "setoption name Nope value 1",
        "setoption name UCI_Variant value atomic",
    ] {
        assert_eq!(t.send(garbage), Flow::Continue, "{garbage}");
    }
    let out = t.take();
    assert!(out.iter().filter(|l| l.starts_with("info string error:")).count() >= 7, "{out:?}");
    assert!(out.iter().any(|l| l.contains("two white kings")), "{out:?}");
    // The bare-kings position is still there: only king moves.
    t.send("go depth 3");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert!(bestmove(&out).starts_with("a1"), "{out:?}");
    t.send("isready");
    t.wait_for(|l| l == "readyok", "readyok");
}

#[test]
fn uci_infinite_stop_isready_and_multipv() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("setoption name MultiPV value 3");
    t.send("position startpos");
    t.take();
    t.send("go infinite");
    t.wait_for(|l| l.starts_with("info depth 3 "), "depth 3");
    t.send("isready");
    t.wait_for(|l| l == "readyok", "readyok during search");
    assert!(!t.output().iter().any(|l| l.starts_with("bestmove")), "no bestmove before stop");
    t.send("stop");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove after stop");
    for k in 1..=3 {
        assert!(out.iter().any(|l| l.contains(&format!(" multipv {k} "))), "multipv {k}");
    }
    assert!(out.last().expect("line").starts_with("bestmove"), "no info after bestmove");
}

#[test]
fn uci_variants_and_chess960() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("setoption name UCI_Variant value 3check");
    t.send("position fen rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 3");
    t.take();
    t.send("go depth 3");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert_eq!(bestmove(&out), "f1b5", "the third check wins: {out:?}");
    t.take();
    t.send("setoption name UCI_Variant value chess");
    t.send("setoption name UCI_Chess960 value true");
    t.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    t.send("go perft 1");
    let out = t.wait_for(|l| l.starts_with("Nodes searched"), "perft");
    assert!(out.iter().any(|l| l == "Nodes searched: 21"), "{out:?}");
    t.take();
    t.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    t.send("go perft 1");
    let out = t.wait_for(|l| l.starts_with("Nodes searched"), "perft");
    assert!(out.iter().any(|l| l == "e1h1: 1"), "castling as king takes rook in Chess960 mode: {out:?}");
}

#[test]
fn xboard_session_with_variant_and_setboard() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    let out = t.take();
    assert!(
        out.iter().any(|l| l.contains("variants=\"normal,") && l.contains("3check") && l.contains("cylinder")),
        "{out:?}"
    );
    assert_eq!(out.last().map(String::as_str), Some("feature done=1"));
    t.send("new");
    t.send("variant 3check");
    t.send("force");
    t.send("setboard rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 3");
    t.send("ping 7");
    assert_eq!(t.take(), vec!["pong 7"]);
    t.send("usermove e2e5");
    assert_eq!(t.take(), vec!["Illegal move: e2e5"]);
    t.send("sd 3");
    t.send("post");
    t.send("go");
    let out = t.wait_for(|l| l.starts_with("move "), "move");
    assert!(out.iter().any(|l| l == "move f1b5"), "{out:?}");
    t.send("ping 8");
    let out = t.wait_for(|l| l == "pong 8", "pong");
    assert!(out.iter().any(|l| l.starts_with("1-0")), "the third check ends the game: {out:?}");
    t.take();
    t.send("new");
    t.send("sd 2");
    t.send("usermove e2e4");
    let out = t.wait_for(|l| l.starts_with("move "), "reply");
    let reply = out.iter().find_map(|l| l.strip_prefix("move ")).expect("move");
    assert!(reply.as_bytes()[1] == b'7' || reply.as_bytes()[1] == b'8', "black replies: {reply}");
    t.send("undo");
    t.send("undo");
    t.send("setboard not a fen");
    t.send("frobnicate");
    let out = t.take();
    assert!(out.iter().any(|l| l.starts_with("tellusererror Illegal position")), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("Error (unknown command): frobnicate")), "{out:?}");
    assert_eq!(t.send("quit"), Flow::Quit);
}

#[test]
fn uci_threads_search_together() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("setoption name Threads value 2");
    t.send("position startpos moves d2d4");
    t.send("go depth 6");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    let game =
        mysl_protocol::Game { moves: vec!["d2d4".into()], ..mysl_protocol::Game::new(mysl_core::Variant::Chess) };
    assert!(game.legal_moves().contains(&bestmove(&out)));
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "one bestmove");
}

#[test]
fn uci_own_book_plays_book_moves_in_timed_searches_only() {
    let mut t = Transcript::new();
    t.send("uci");
    let lines = t.wait_for(|l| l == "uciok", "uciok");
    assert!(lines.iter().any(|l| l.starts_with("option name OwnBook type check default false")));
    assert!(lines.iter().any(|l| l.starts_with("option name BookFile type string")));
    t.take();
    // Off by default: a timed search searches.
    t.send("position startpos");
    t.send("go movetime 200");
    let lines = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth")), "{lines:?}");
    t.take();

    t.send("setoption name OwnBook value true");
    t.send("setoption name BookFile value /no/such/book.bin");
    let lines = t.wait_for(|l| l.contains("error"), "BookFile error");
    assert!(
        lines.iter().any(|l| l.starts_with("info string error: setoption BookFile") && l.contains("/no/such/book.bin")),
        "{lines:?}"
    );
    t.take();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..12 {
        t.send("position startpos moves e2e4");
        t.send("go wtime 60000 btime 60000");
        let lines = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
        assert!(lines.iter().any(|l| l.starts_with("info string book move")), "{lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("info depth")), "{lines:?}");
        seen.insert(bestmove(&lines));
        t.take();
    }
    // The master games answer 1. e4 in several ways, and the choice is weighted at random: every move
    // played is one of the default book's moves there.
    assert!(seen.len() >= 2, "{seen:?}");
    let mut after_e4 = mysl_core::Chess::startpos();
    let e4 = mysl_core::uci::parse_uci_move(&after_e4, "e2e4").expect("e2e4");
    after_e4.play(e4).expect("legal");
    let book = mysl_book::default_book().expect("default book");
    let book_moves: Vec<String> =
        book.probe(&after_e4).iter().map(|b| mysl_core::uci::move_to_uci(&after_e4, b.mv)).collect();
    assert!(seen.iter().all(|m| book_moves.contains(m)), "{seen:?} not all in {book_moves:?}");
    // Analysis (depth) does not use the book; out of book the engine searches.
    t.send("go depth 3");
    let lines = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth")), "{lines:?}");
    t.take();
    t.send("position fen 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1");
    t.send("go movetime 100");
    let lines = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    t.send("quit");
}

#[test]
fn xboard_book_options() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    let lines = t.wait_for(|l| l == "feature done=1", "features");
    assert!(lines.iter().any(|l| l == "feature option=\"OwnBook -check 0\""), "{lines:?}");
    t.take();
    t.send("option BookFile=/no/such/file.mbk");
    let lines = t.wait_for(|l| l.starts_with("Error"), "error");
    assert!(lines[0].contains("/no/such/file.mbk"), "{lines:?}");
    t.take();
    t.send("option OwnBook=1");
    t.send("post");
    t.send("new");
    t.send("level 0 1 0");
    t.send("time 6000");
    t.send("otim 6000");
    t.send("usermove e2e4");
    let lines = t.wait_for(|l| l.starts_with("move "), "engine move");
    assert!(lines.iter().any(|l| l.starts_with("# book move")), "{lines:?}");
    t.send("quit");
}

/// ../shared/data/syzygy beside the checkout, if present.
fn shared_syzygy() -> Option<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy");
    if dir.is_dir() {
        Some(dir.to_string_lossy().to_string())
    } else {
        eprintln!("skipped: ../shared/data/syzygy not found");
        None
    }
}

#[test]
fn uci_tablebase_options_and_tbhits() {
    let mut t = Transcript::new();
    t.send("uci");
    let out = t.take();
    for o in ["SyzygyPath type string", "TablebasePath type string", "SyzygyProbeLimit type spin"] {
        assert!(out.iter().any(|l| l.starts_with(&format!("option name {o}"))), "option {o}");
    }
    t.send("setoption name SyzygyPath value /nonexistent/tables");
    assert!(t.take().iter().any(|l| l.starts_with("info string error: setoption SyzygyPath")));
    let Some(dir) = shared_syzygy() else { return };
    t.send(&format!("setoption name SyzygyPath value {dir}"));
    let out = t.take();
    assert!(out.iter().any(|l| l.contains("Syzygy files") && l.contains("up to 5 pieces")), "{out:?}");
    // KRPvKR: Black's rook hangs to the pawn; the engine keeps the win
    t.send("position fen 8/8/2k5/8/3r4/4P3/1R2K3/8 w - - 0 1");
    t.send("go depth 6");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert_eq!(bestmove(&out), "e3d4", "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("info depth") && l.contains(" tbhits ") && !l.contains(" tbhits 0 ")));
    // a middlegame: no probes
    t.take();
    t.send("position startpos");
    t.send("go depth 3");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert!(out.iter().filter(|l| l.starts_with("info depth")).all(|l| l.contains(" tbhits 0 ")), "{out:?}");
    // variants never probe
    t.send("setoption name UCI_Variant value antichess");
    t.send("position fen 8/8/2k5/8/3r4/4P3/1R2K3/8 w - - 0 1");
    t.take();
    t.send("go depth 3");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert!(out.iter().filter(|l| l.starts_with("info depth")).all(|l| l.contains(" tbhits 0 ")), "{out:?}");
}

#[test]
fn xboard_egtpath() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    let out = t.take();
    assert!(out.iter().any(|l| l.contains("egt=\"syzygy,mysl\"")), "{out:?}");
    t.send("egtpath gaviota /tmp");
    assert!(t.take().iter().any(|l| l.starts_with("Error")));
    let Some(dir) = shared_syzygy() else { return };
    t.send(&format!("egtpath syzygy {dir}"));
    assert!(t.take().iter().any(|l| l.contains("Syzygy files")));
    t.send("setboard 8/8/2k5/8/3r4/4P3/1R2K3/8 w - - 0 1");
    t.send("post");
    t.send("sd 5");
    t.send("go");
    let out = t.wait_for(|l| l.starts_with("move "), "move");
    assert!(out.iter().any(|l| l == "move e3d4"), "{out:?}");
    assert!(out.iter().any(|l| l.contains('\t')), "extended post output with tbhits: {out:?}");
}

/// The `info depth` lines' values of `key` (`nodes`, `hashfull`, ...), in order.
fn info_values(lines: &[String], key: &str) -> Vec<u64> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == key)?;
            words.get(at + 1)?.parse().ok()
        })
        .collect()
}

fn uci_state(t: &Transcript) -> &mysl_protocol::Session {
    match &t.protocol {
        Protocol::Uci(u) => &u.session,
        other => panic!("not UCI: {other:?}"),
    }
}

#[test]
fn uci_bench_counts_the_same_nodes_as_the_library_bench() {
    let mut t = Transcript::new();
    t.send("uci");
    t.take();
    t.send("bench 4");
    let out = t.take();
    let expected = mysl_engine::bench::run_bench(4, |_, _, _, _| {}).nodes;
    assert!(out.iter().any(|l| *l == format!("Nodes searched: {expected}")), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("Nodes/second: ")), "{out:?}");
    t.send("bench deep");
    let out = t.take();
    assert!(out.len() == 1 && out[0].starts_with("info string error: bench") && out[0].contains("'deep'"), "{out:?}");
}

#[test]
fn uci_malformed_go_is_refused_and_starts_nothing() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("setoption name MultiPV value 2");
    t.send("position startpos moves e2e4");
    t.take();
    for (command, token) in [
        ("go nodes x", "'x'"),
        ("go depth -3", "'depth -3'"),
        ("go wtime abc btime 1000", "'abc'"),
        ("go movetime", "'movetime'"),
        ("go depth 4 movestogo 0", "'movestogo 0'"),
        ("go mate zero", "'zero'"),
        ("go searchmoves e2e5", "'e2e5'"),
        ("go perft two", "'two'"),
    ] {
        t.send(command);
        assert!(!uci_state(&t).is_searching(), "{command}: no search");
        let out = t.take();
        assert_eq!(out.len(), 1, "{command}: {out:?}");
        assert!(out[0].starts_with("info string error: go: ") && out[0].contains(token), "{command}: {out:?}");
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(t.take().is_empty(), "no info, no bestmove");
    // The position and the options are the ones from before.
    t.send("go depth 2");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert!(out.iter().any(|l| l.starts_with("info depth 2 ") && l.contains(" multipv 2 ")), "{out:?}");
    let best = bestmove(&out);
    assert!(best.as_bytes()[1] == b'7' || best.as_bytes()[1] == b'8', "Black moves after 1. e4: {best}");
}

#[test]
fn uci_setoption_values_that_do_not_parse_keep_the_option() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("setoption name Ponder value true");
    t.send("setoption name MultiPV value 3");
    t.take();
    for (command, token) in [
        ("setoption name Hash value big", "'big'"),
        ("setoption name Threads value 2.5", "'2.5'"),
        ("setoption name MultiPV value two", "'two'"),
        ("setoption name Move Overhead value 10ms", "'10ms'"),
        ("setoption name Ponder value yes", "'yes'"),
        ("setoption name UCI_Chess960 value 1", "'1'"),
        ("setoption name OwnBook value on", "'on'"),
        ("setoption name BookDepth value deep", "'deep'"),
        ("setoption name BookVariety value", "''"),
        ("setoption name SyzygyProbeLimit value five", "'five'"),
    ] {
        t.send(command);
        let out = t.take();
        assert_eq!(out.len(), 1, "{command}: {out:?}");
        assert!(out[0].starts_with("info string error: setoption") && out[0].contains(token), "{command}: {out:?}");
    }
    let o = &uci_state(&t).options;
    assert_eq!((o.hash_mb, o.threads, o.multipv, o.move_overhead.as_millis()), (16, 1, 3, 30));
    assert!(o.ponder && !o.own_book && !uci_state(&t).game.chess960);
    assert_eq!((o.book_depth, o.book_variety, o.syzygy_probe_limit), (20, 50, 7));
}

/// WAC.001: mate in 2 (1. Qg6 and 2. Qxg7# or Qh7#), checked with Stockfish.
const MATE_IN_2: &str = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";

#[test]
fn uci_go_mate_finds_the_mate_and_stops() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send(&format!("position fen {MATE_IN_2}"));
    t.take();
    t.send("go mate 2");
    // No `stop`: the search ends by itself once the mate is proven.
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert_eq!(bestmove(&out), "g3g6", "{out:?}");
    let last = out.iter().rev().find(|l| l.starts_with("info depth")).expect("info");
    assert!(last.contains(" score mate 2 "), "{last}");
    let depths = info_values(&out, "depth");
    let first_mate = out
        .iter()
        .find(|l| l.starts_with("info depth") && l.contains(" score mate 2 "))
        .and_then(|l| l.split_whitespace().nth(2)?.parse::<u64>().ok())
        .expect("a mate line");
    assert!(depths.iter().all(|&d| d <= first_mate + 1), "stops soon after the mate: {depths:?}");
}

#[test]
fn uci_searchmoves_restricts_the_root_moves() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send(&format!("position fen {MATE_IN_2}"));
    t.take();
    t.send("go depth 5 searchmoves f6h5 a2a3");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    let best = bestmove(&out);
    assert!(best == "f6h5" || best == "a2a3", "{out:?}");
    for l in out.iter().filter(|l| l.starts_with("info depth")) {
        let pv = l.split(" pv ").nth(1).expect("pv");
        assert!(pv.starts_with("f6h5") || pv.starts_with("a2a3"), "{l}");
        assert!(!l.contains("score mate"), "the mate starts with g3g6, which is left out: {l}");
    }
}

#[test]
fn uci_ponder_then_ponderhit_and_ponder_then_stop() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("setoption name Ponder value true");
    t.send("position startpos moves e2e4 e7e5");
    t.take();
    t.send("go ponder wtime 3000 btime 3000 winc 0 binc 0");
    t.wait_for(|l| l.starts_with("info depth 2 "), "pondering");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!t.output().iter().any(|l| l.starts_with("bestmove")), "no bestmove while pondering");
    let hit = Instant::now();
    t.send("ponderhit");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove after ponderhit");
    // The clock applies from the ponderhit: 3 s left gives well under a second for this move.
    assert!(hit.elapsed() < Duration::from_secs(3), "{:?}", hit.elapsed());
    let game = mysl_protocol::Game {
        moves: vec!["e2e4".into(), "e7e5".into()],
        ..mysl_protocol::Game::new(mysl_core::Variant::Chess)
    };
    assert!(game.legal_moves().contains(&bestmove(&out)));
    t.take();
    t.send("go ponder wtime 3000 btime 3000");
    std::thread::sleep(Duration::from_millis(200));
    assert!(!t.output().iter().any(|l| l.starts_with("bestmove")), "no bestmove while pondering");
    t.send("stop");
    t.wait_for(|l| l.starts_with("bestmove"), "bestmove after stop");
}

/// `go ponder nodes N` (what python-chess sends for `play(..., Limit(nodes=N), ponder=True)`): the node
/// limit does not end the ponder search (no `bestmove` before `ponderhit` or `stop`); `ponderhit` ends it.
/// Depth 7 is past both limits; the node count is checked for the first search only, whose table starts
/// empty (the second one's depends on how far the first got before `ponderhit`).
#[test]
fn uci_ponder_with_a_node_or_depth_limit_waits_for_ponderhit() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("setoption name Ponder value true");
    t.send("position startpos moves e2e4 e7e5");
    t.take();
    for go in ["go ponder nodes 2000", "go ponder depth 2"] {
        t.send(go);
        // Well past the limit: the search goes on.
        let out = t.wait_for(|l| l.starts_with("info depth 7 "), "pondering past the limit");
        assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{go}: no bestmove while pondering: {out:?}");
        if go.contains("nodes") {
            assert!(*info_values(&out, "nodes").last().expect("nodes") > 2000, "{go}");
        }
        t.send("ponderhit");
        let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove after ponderhit");
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{go}: {out:?}");
        t.take();
    }
}

#[test]
fn uci_clear_hash_and_hashfull() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("position fen r1bq1rk1/pp2bppp/2n2n2/3p4/3P4/2NB1N2/PP3PPP/R1BQ1RK1 w - - 4 10");
    t.take();
    let search = |t: &mut Transcript| {
        t.send("go depth 7");
        let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
        t.take();
        out
    };
    let fresh = search(&mut t);
    let hashfull = info_values(&fresh, "hashfull");
    assert!(*hashfull.last().expect("hashfull") > 0, "{fresh:?}");
    assert!(hashfull.windows(2).all(|w| w[0] <= w[1]), "the table fills: {hashfull:?}");
    let fresh_nodes = *info_values(&fresh, "nodes").last().expect("nodes");
    let warm_nodes = *info_values(&search(&mut t), "nodes").last().expect("nodes");
    assert_ne!(warm_nodes, fresh_nodes, "the second search uses the first one's table");
    t.send("setoption name Clear Hash");
    assert!(t.take().is_empty());
    let cleared_nodes = *info_values(&search(&mut t), "nodes").last().expect("nodes");
    assert_eq!(cleared_nodes, fresh_nodes, "after Clear Hash the search starts from an empty table");
}

#[test]
fn uci_move_overhead_is_accepted_and_kept_off_the_clock() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("position startpos");
    t.send("setoption name Move Overhead value 0");
    t.take();
    let timed = |t: &mut Transcript| {
        let start = Instant::now();
        t.send("go wtime 5100 btime 5100");
        t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
        t.take();
        start.elapsed()
    };
    // 5.1 s left and no overhead: a soft limit of about 200 ms, and no stop before 100 ms.
    let without = timed(&mut t);
    t.send("setoption name Move Overhead value 5000");
    assert_eq!(uci_state(&t).options.move_overhead, Duration::from_millis(5000));
    assert!(t.take().is_empty());
    // 5 s of the 5.1 s are kept for the overhead: about 100 ms usable, a hard limit of 16 ms.
    let with = timed(&mut t);
    assert!(with < without, "overhead 5000 ms: {with:?}, none: {without:?}");
    assert!(without >= Duration::from_millis(100), "{without:?}");
}

#[test]
fn xboard_ping_while_thinking_is_answered_after_the_move() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    t.send("new");
    t.send("st 0.5");
    t.send("ping 1");
    t.send("go");
    t.send("ping 2");
    t.send("ping 3");
    let out = t.wait_for(|l| l == "pong 3", "pong 3");
    let at = |s: &str| out.iter().position(|l| l == s).unwrap_or_else(|| panic!("{s} in {out:?}"));
    let mv = out.iter().position(|l| l.starts_with("move ")).expect("move");
    assert!(at("pong 1") < mv && mv < at("pong 2") && at("pong 2") < at("pong 3"), "{out:?}");
    // Not thinking: answered at once.
    t.take();
    t.send("ping 4");
    assert_eq!(t.take(), vec!["pong 4"]);
}

/// CECP: when the engine's own move ends the game, its result claim follows the `move` line at once.
/// (It used to come only with the next command: in xboard matches after the `result` the GUI sent,
/// and with testClaims a claim arriving after the opponent's reply can be judged on the wrong position.)
#[test]
fn xboard_claims_the_result_right_after_its_own_move() {
    for (fen, mv, claim) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "move a1a8", "1-0 {"),
        // Kxf2 (not Ke1) leaves two bare kings.
        ("8/8/8/8/8/8/5r2/5K1k w - - 0 1", "move f1f2", "1/2-1/2 {"),
    ] {
        let mut t = Transcript::new();
        t.send("xboard");
        t.send("protover 2");
        t.send("new");
        t.send("force");
        t.send(&format!("setboard {fen}"));
        t.send("sd 4");
        t.take();
        t.send("go");
        // No further command: the claim must come by itself.
        let out = t.wait_for(|l| l.starts_with(claim), "the result claim");
        let at = out.iter().position(|l| l.starts_with("move ")).expect("move");
        assert_eq!(out[at], mv, "{out:?}");
        assert!(out[at + 1].starts_with(claim), "the claim follows the move: {out:?}");
        // Claimed once, and the engine stays in force mode afterwards.
        t.send("ping 1");
        let out = t.wait_for(|l| l == "pong 1", "pong");
        assert_eq!(out.iter().filter(|l| l.starts_with(claim)).count(), 1, "{out:?}");
        t.take();
        t.send("time 1000");
        t.send("ping 2");
        assert_eq!(t.take(), vec!["pong 2"]);
    }
}

/// xboard 4.9 sends castling in Chess960 as `O-O` / `O-O-O` (found in an xboard match of mysl against
/// itself: the second engine refused `O-O-O` and lost by a false illegal-move claim).
#[test]
fn xboard_takes_castling_as_o_o_in_chess960() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    t.send("new");
    t.send("variant fischerandom");
    t.send("force");
    // King on f1 between rooks on b1 and h1 (castling rights by file).
    t.send("setboard 1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1");
    t.take();
    t.send("usermove O-O-O");
    t.send("usermove O-O");
    t.send("ping 1");
    assert_eq!(t.take(), vec!["pong 1"]);
    assert_eq!(xboard_engine(&t).session.game.moves, vec!["f1b1".to_string(), "f8g8".to_string()]);
    // Not legal now (the king has castled): refused as the text xboard sent.
    t.send("usermove O-O");
    assert_eq!(t.take(), vec!["Illegal move: O-O"]);
    // Orthodox chess: `O-O` is taken too (xboard sends e1g1 there).
    t.send("new");
    t.send("force");
    t.send("setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    t.send("usermove O-O");
    t.send("ping 2");
    assert_eq!(t.take(), vec!["pong 2"]);
    assert_eq!(xboard_engine(&t).session.game.moves, vec!["e1g1".to_string()]);
}

fn xboard_engine(t: &Transcript) -> &mysl_protocol::Xboard {
    match &t.protocol {
        Protocol::Xboard(x) => x,
        other => panic!("not xboard: {other:?}"),
    }
}

#[test]
fn xboard_keeps_both_clocks() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    t.send("new");
    t.take();
    t.send("time 12345");
    t.send("otim 6789");
    assert_eq!(xboard_engine(&t).clocks(), (Some(Duration::from_millis(123450)), Some(Duration::from_millis(67890))));
    t.send("otim soon");
    assert_eq!(t.take(), vec!["Error (bad otim): otim soon"]);
    assert_eq!(xboard_engine(&t).clocks().1, Some(Duration::from_millis(67890)), "kept");
    t.send("otim -20");
    assert_eq!(xboard_engine(&t).clocks().1, Some(Duration::ZERO), "a fallen flag is an empty clock");
}

#[test]
fn xboard_analyze_and_exit() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    t.send("new");
    t.send(&format!("setboard {MATE_IN_2}"));
    t.take();
    t.send("analyze");
    // Thinking output `depth score time nodes pv`, a mate as 100000 + moves.
    let out = t.wait_for(|l| l.split_whitespace().nth(1) == Some("100002"), "the mate in analysis");
    assert!(out.iter().any(|l| l.ends_with(" g3g6") || l.contains(" g3g6 ")), "{out:?}");
    // A move in analysis mode restarts the analysis on the new position; the engine never moves.
    // Not `take()` after the move: the new analysis may print its only line before the take would run
    // (a race seen under load). The old analysis printed White's view, so any "-100001" line is new.
    t.take();
    t.send("usermove g3g6");
    t.wait_for(|l| l.split_whitespace().nth(1) == Some("-100001"), "the mated side's view");
    t.send("exit");
    t.take();
    std::thread::sleep(Duration::from_millis(200));
    let after = t.take();
    assert!(after.is_empty(), "nothing after exit: {after:?}");
    assert!(!xboard_engine(&t).session.is_searching());
    assert!(!t.output().iter().any(|l| l.starts_with("move ")));
    assert_eq!(xboard_engine(&t).session.game.moves, vec!["g3g6".to_string()]);
}

#[test]
fn xboard_st_and_sd() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    t.send("new");
    t.send("post");
    t.send("sd 3");
    t.take();
    t.send("go");
    let out = t.wait_for(|l| l.starts_with("move "), "move");
    let depths: Vec<u32> = out.iter().filter_map(|l| l.split_whitespace().next()?.parse().ok()).collect();
    assert_eq!(depths, vec![1, 2, 3], "sd 3 stops at depth 3: {out:?}");
    t.send("new");
    t.send("post");
    t.send("st 0.4");
    t.take();
    let start = Instant::now();
    t.send("go");
    let out = t.wait_for(|l| l.starts_with("move "), "move");
    let took = start.elapsed();
    // A fixed 0.4 s a move (less the move overhead) is used in full, never more.
    assert!(took >= Duration::from_millis(300), "{took:?}");
    let last_cs: u64 =
        out.iter().filter_map(|l| l.split_whitespace().nth(2)?.parse().ok()).next_back().expect("thinking output");
    assert!(last_cs <= 40, "{out:?}");
    t.send("st 0");
    assert_eq!(t.take().last().map(String::as_str), Some("Error (bad st): st 0"));
}

#[test]
fn xboard_remove_takes_back_a_move_pair() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    t.send("new");
    t.send("sd 2");
    t.send("usermove e2e4");
    t.wait_for(|l| l.starts_with("move "), "reply");
    t.take();
    t.send("usermove d2d4");
    t.wait_for(|l| l.starts_with("move "), "second reply");
    if let Protocol::Xboard(x) = &mut t.protocol {
        x.wait();
    }
    assert_eq!(xboard_engine(&t).session.game.moves.len(), 4);
    t.take();
    t.send("remove");
    let moves = &xboard_engine(&t).session.game.moves;
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert_eq!(moves[0], "e2e4");
    assert!(t.take().is_empty(), "no move after remove: the user is to move");
    t.send("remove");
    assert!(xboard_engine(&t).session.game.moves.is_empty());
    // White to move again: the engine (Black) answers a new first move.
    t.send("usermove c2c4");
    t.wait_for(|l| l.starts_with("move "), "reply to c4");
}

#[test]
fn xboard_result_stops_thinking_and_plays_nothing() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    t.send("new");
    t.send("st 60");
    t.send("usermove e2e4");
    std::thread::sleep(Duration::from_millis(100));
    assert!(xboard_engine(&t).session.is_searching());
    t.take();
    let start = Instant::now();
    t.send("result 1-0 {Black resigns}");
    assert!(start.elapsed() < Duration::from_secs(5), "thinking stopped");
    assert!(!xboard_engine(&t).session.is_searching());
    t.send("ping 9");
    let out = t.take();
    assert_eq!(out, vec!["pong 9"], "no move after the result");
    assert_eq!(xboard_engine(&t).session.game.moves, vec!["e2e4".to_string()]);
    // Force mode after a result: a move is taken but not answered.
    t.send("usermove e7e5");
    std::thread::sleep(Duration::from_millis(100));
    assert!(!xboard_engine(&t).session.is_searching());
    assert!(t.take().is_empty());
}

#[test]
fn xboard_force_while_thinking_drops_the_move() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    t.send("new");
    t.send("st 30");
    t.send("usermove e2e4");
    // The engine (Black) now thinks for up to 30 s; force stops it without a move.
    std::thread::sleep(Duration::from_millis(200));
    t.take();
    t.send("force");
    t.send("ping 3");
    let out = t.wait_for(|l| l == "pong 3", "pong");
    assert!(!out.iter().any(|l| l.starts_with("move ")), "no move after force: {out:?}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!t.take().iter().any(|l| l.starts_with("move ")));
    // Black is still to move: a black move is legal, a white one is not.
    t.send("usermove e7e5");
    t.send("usermove g1f3");
    t.send("ping 4");
    let out = t.wait_for(|l| l == "pong 4", "pong");
    assert!(!out.iter().any(|l| l.starts_with("Illegal")), "{out:?}");
}

/// A random network file (hidden size `hidden`) in the temporary directory, and a truncated copy.
fn random_net_files(hidden: usize, tag: &str) -> (String, String) {
    let dir = std::env::temp_dir();
    let bytes = mysl_nnue::testing::random_network(hidden, 77);
    let good = dir.join(format!("mysl-test-{}-{tag}.nnue", std::process::id()));
    let bad = dir.join(format!("mysl-test-{}-{tag}-truncated.nnue", std::process::id()));
    std::fs::write(&good, &bytes).expect("write");
    std::fs::write(&bad, &bytes[..bytes.len() - 10]).expect("write");
    (good.display().to_string(), bad.display().to_string())
}

#[test]
fn uci_eval_file_and_use_nnue() {
    let (good, bad) = random_net_files(32, "uci");
    let mut t = Transcript::new();
    t.send("uci");
    let out = t.take();
    assert!(out.iter().any(|l| l == "option name EvalFile type string default <internal>"), "{out:?}");
    assert!(out.iter().any(|l| l == "option name Use NNUE type check default true"), "{out:?}");
    // The built-in network plays; the bench's node count is that of the default evaluation.
    let internal = mysl_engine::default_network().expect("a network is built in");
    let is_internal = |t: &Transcript| uci_state(t).active_network().is_some_and(|n| Arc::ptr_eq(&n, &internal));
    assert!(is_internal(&t));
    let hce = mysl_engine::bench::run_bench_with(3, None, |_, _, _, _| {}).nodes;
    let internal_nodes = mysl_engine::bench::run_bench(3, |_, _, _, _| {}).nodes;
    assert_ne!(hce, internal_nodes, "the network changes the tree");
    t.send("bench 3");
    assert!(t.take().iter().any(|l| *l == format!("Nodes searched: {internal_nodes}")));
    // A bad file: a clear error, the previous (internal) choice stays.
    for path in [bad.as_str(), "/nonexistent/net.nnue"] {
        t.send(&format!("setoption name EvalFile value {path}"));
        let out = t.take();
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].starts_with("info string error: setoption EvalFile: ") && out[0].ends_with("keeping <internal>")
        );
        assert!(is_internal(&t));
    }
    assert!(t.take().is_empty());
    t.send(&format!("setoption name EvalFile value {bad}"));
    assert!(t.take()[0].contains("truncated network"));
    // A good file: loaded and used (the bench's node count changes with the evaluation).
    t.send(&format!("setoption name EvalFile value {good}"));
    let out = t.take();
    assert!(
        out.len() == 1 && out[0].starts_with("info string NNUE evaluation using") && out[0].contains("hidden size 32")
    );
    let net = uci_state(&t).active_network().expect("a network");
    assert_eq!(net.hidden(), 32);
    t.send("bench 3");
    let with_net = mysl_engine::bench::run_bench_with(3, Some(net.clone()), |_, _, _, _| {}).nodes;
    assert_ne!(with_net, hce);
    assert_ne!(with_net, internal_nodes);
    assert!(t.take().iter().any(|l| *l == format!("Nodes searched: {with_net}")));
    // Then a bad one: the good network stays.
    t.send(&format!("setoption name EvalFile value {bad}"));
    assert!(t.take()[0].ends_with(&format!("keeping {good}")));
    assert!(uci_state(&t).active_network().is_some_and(|n| Arc::ptr_eq(&n, &net)));
    // Use NNUE off: the hand-crafted evaluation.
    t.send("setoption name Use NNUE value false");
    assert!(uci_state(&t).active_network().is_none());
    t.send("bench 3");
    assert!(t.take().iter().any(|l| *l == format!("Nodes searched: {hce}")));
    t.send("setoption name Use NNUE value maybe");
    assert!(t.take()[0].starts_with("info string error: setoption Use NNUE"));
    t.send("setoption name Use NNUE value true");
    // A search with the network.
    t.send("position startpos moves e2e4");
    t.send("go depth 5");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert!(out.iter().any(|l| l.starts_with("info depth 5 ")), "{out:?}");
    // Back to the internal one.
    t.send("setoption name EvalFile value <internal>");
    assert!(t.take().iter().any(|l| l.starts_with("info string NNUE evaluation using <internal> (hidden size ")));
    assert!(is_internal(&t));
    let _ = (std::fs::remove_file(good), std::fs::remove_file(bad));
}

#[test]
fn xboard_eval_file_and_use_nnue() {
    let (good, bad) = random_net_files(32, "xboard");
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    let out = t.take();
    assert!(out.iter().any(|l| l == "feature option=\"EvalFile -file <internal>\""), "{out:?}");
    assert!(out.iter().any(|l| l == "feature option=\"Use NNUE -check 1\""), "{out:?}");
    t.send(&format!("option EvalFile={bad}"));
    let out = t.take();
    assert!(out.len() == 1 && out[0].starts_with("Error (truncated network") && out[0].contains("keeping <internal>"));
    t.send(&format!("option EvalFile={good}"));
    let out = t.take();
    assert!(out.len() == 1 && out[0].starts_with("# NNUE evaluation using") && out[0].contains("hidden size 32"));
    t.send("option Use NNUE=0");
    assert!(t.take().is_empty());
    t.send("sd 4");
    t.send("go");
    t.wait_for(|l| l.starts_with("move "), "move");
    let _ = (std::fs::remove_file(good), std::fs::remove_file(bad));
}

#[test]
fn uci_limit_strength_options_and_a_weak_move() {
    let mut t = Transcript::new();
    t.send("uci");
    let out = t.take();
    assert!(out.iter().any(|l| l == "option name UCI_LimitStrength type check default false"), "{out:?}");
    assert!(out.iter().any(|l| l == "option name UCI_Elo type spin default 1350 min 1350 max 2250"), "{out:?}");
    for (command, error) in [
        (
            "setoption name UCI_LimitStrength value maybe",
            "setoption UCI_LimitStrength: expected true or false, found 'maybe'",
        ),
        (
            "setoption name UCI_Elo value strong",
            "setoption UCI_Elo: expected a number from 1350 to 2250, found 'strong'",
        ),
    ] {
        t.send(command);
        assert_eq!(t.take(), vec![format!("info string error: {error}")], "{command}");
    }
    let o = &uci_state(&t).options;
    assert!(!o.limit_strength && o.elo == 1350);
    t.send("setoption name UCI_Elo value 99999");
    assert_eq!(uci_state(&t).options.elo, 2250, "clamped like the other spins");
    t.send("setoption name UCI_Elo value 1400");
    t.send("setoption name UCI_LimitStrength value true");
    assert!(t.take().is_empty());
    let o = &uci_state(&t).options;
    assert!(o.limit_strength && o.elo == 1400);
    // A clock of a minute: the level's node limit ends the search long before.
    for (position, variant) in
        [("position startpos moves e2e4 e7e5 g1f3", "chess"), ("position startpos moves e2e4 e7e5", "3check")]
    {
        t.send(&format!("setoption name UCI_Variant value {variant}"));
        t.send(position);
        assert!(t.take().is_empty());
        assert_eq!(uci_state(&t).game.variant.name(), variant);
        t.send("go wtime 60000 btime 60000");
        t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
        let out = t.take();
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{out:?}");
        let mv = bestmove(&out);
        assert!(uci_state(&t).game.legal_moves().contains(&mv), "{variant}: {mv} {out:?}");
        // `bestmove` and `ponder` are the first two moves of the line the note names.
        let note = out.iter().find_map(|l| l.strip_prefix("info string UCI_Elo 1400: line ")).expect("note");
        let words: Vec<&str> = note.split_whitespace().collect();
        let (line, depth) = (words[0], words[5]);
        let info = out
            .iter()
            .rev()
            .find(|l| l.starts_with(&format!("info depth {depth} ")) && l.contains(&format!(" multipv {line} ")))
            .expect("the chosen line's info");
        let pv: Vec<&str> = info.split(" pv ").nth(1).expect("pv").split_whitespace().collect();
        let answer = out.iter().find(|l| l.starts_with("bestmove")).expect("bestmove");
        let expected = match pv.get(1) {
            Some(p) => format!("bestmove {} ponder {p}", pv[0]),
            None => format!("bestmove {}", pv[0]),
        };
        assert_eq!(answer, &expected, "{out:?}");
        // 4 lines, the node limit of 1400 kept to within one check of the counter
        let limit = mysl_engine::skill::Skill::new(1400).node_limit().expect("1400 is not the full engine");
        assert!(out.iter().any(|l| l.starts_with("info depth") && l.contains(" multipv 4 ")), "{out:?}");
        assert!(info_values(&out, "nodes").iter().all(|&n| n < 2 * limit), "{limit}: {out:?}");
    }
}

#[test]
fn uci_limit_strength_takes_a_found_mate() {
    let mut t = Transcript::new();
    t.send("uci");
    t.send("setoption name UCI_LimitStrength value true");
    t.send("setoption name UCI_Elo value 1350");
    // Back-rank mate in one: Re8#.
    t.send("position fen 6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1");
    t.send("go movetime 5000");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    assert_eq!(bestmove(&out), "e1e8", "{out:?}");
}

#[test]
fn xboard_limit_strength_options_and_a_weak_move() {
    let mut t = Transcript::new();
    t.send("xboard");
    t.send("protover 2");
    let out = t.take();
    assert!(out.iter().any(|l| l == "feature option=\"UCI_LimitStrength -check 0\""), "{out:?}");
    assert!(out.iter().any(|l| l == "feature option=\"UCI_Elo -spin 1350 1350 2250\""), "{out:?}");
    t.send("option UCI_Elo=weak");
    assert_eq!(t.take(), vec!["Error (UCI_Elo: expected a number from 1350 to 2250): UCI_Elo=weak".to_string()]);
    t.send("option UCI_LimitStrength=yes");
    assert_eq!(t.take(), vec!["Error (UCI_LimitStrength: expected 0 or 1): UCI_LimitStrength=yes".to_string()]);
    t.send("option UCI_LimitStrength=1");
    t.send("option UCI_Elo=1500");
    assert!(t.take().is_empty());
    t.send("new");
    t.send("variant 3check");
    t.send("post");
    t.send("time 6000");
    t.send("otim 6000");
    t.send("usermove e2e4");
    let out = t.wait_for(|l| l.starts_with("move "), "engine move");
    assert_eq!(out.iter().filter(|l| l.starts_with("move ")).count(), 1, "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("# UCI_Elo 1500: line ")), "{out:?}");
    let mv = out.iter().find_map(|l| l.strip_prefix("move ")).expect("move").to_string();
    t.send("quit");
    // The move was legal after 1. e4 in 3check.
    let mut game = mysl_protocol::Game::new(mysl_core::Variant::from_name("3check").expect("variant"));
    game.moves.push("e2e4".to_string());
    assert!(game.legal_moves().contains(&mv), "{mv}");
}

/// A variant's own tables (`mysl tb gen --variant`, read from `<TablebasePath>/<variant>/`): the search
/// probes them and plays a move that keeps the table's distance to mate.
#[test]
fn uci_variant_tables() {
    use mysl_core::{Cylinder, Position};
    use mysl_tb::variant::{self, Dtm, Pieces, VariantGenerator};
    let dir = tempfile::tempdir().expect("tempdir");
    let mut g = VariantGenerator::<Cylinder>::default();
    let table = g.table(&Pieces::parse::<Cylinder>("KQvK").expect("ending"), &mut |_| {}).expect("generates");
    for t in g.tables() {
        variant::write(dir.path(), &t).expect("writes");
    }
    let fen = "8/8/8/3k4/8/8/8/KQ6 w - - 0 1";
    let mut pos = Position::<Cylinder>::from_fen(fen).expect("fen");
    let Some(Dtm::Win(plies)) = table.probe(&pos) else { panic!("a win in the table") };
    let mut keeping = Vec::new();
    for mv in pos.legal_moves().iter() {
        pos.play_unchecked(mv);
        if table.probe(&pos).map(Dtm::parent) == Some(Dtm::Win(plies)) {
            pos.unplay(mv);
            keeping.push(mysl_core::uci::move_to_uci(&pos, mv));
            continue;
        }
        pos.unplay(mv);
    }
    let mut t = Transcript::new();
    t.send("uci");
    t.send("setoption name UCI_Variant value cylinder");
    t.take();
    t.send(&format!("setoption name TablebasePath value {}", dir.path().display()));
    let out = t.take();
    assert!(out.iter().any(|l| l.contains("mysl tables")), "{out:?}");
    t.send(&format!("position fen {fen}"));
    t.send("go depth 4");
    let out = t.wait_for(|l| l.starts_with("bestmove"), "bestmove");
    let best = bestmove(&out);
    assert!(keeping.contains(&best), "{best} not in {keeping:?}");
    let last = out.iter().rev().find(|l| l.starts_with("info depth")).expect("info");
    assert!(last.contains(&format!("score mate {}", plies.div_ceil(2))), "{last} ({plies} plies)");
    assert!(last.contains(" tbhits ") && !last.contains(" tbhits 0 "), "{last}");
}
