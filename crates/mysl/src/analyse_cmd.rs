//! `mysl analyse`: evaluates every position of PGN games with mysl's search and writes the games back
//! with `[%eval]` comments, `?!`/`?`/`??` marks, better lines for mistakes and blunders, and each
//! player's average centipawn loss and accuracy (docs/analysis.md).

use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use mysl_book::pgn::{clock_commands, for_each_game, replay_game, GameSink, GameTags};
use mysl_book::{GameLocation, Input};
use mysl_core::{dispatch_variant, san, Color, Move, Position, Rules, Variant};
use mysl_engine::analysis::{self, format_eval, move_comment, Judgement, PlayerStats, Settings, DEFAULT_NODES};
use mysl_engine::{Limits, Tablebases};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Skip, Visitor};

use crate::CliError;

/// The most pieces the search probes the tables for (as the default `SyzygyProbeLimit`).
const TB_PROBE_LIMIT: usize = 7;

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The games: a PGN file (`.pgn`, `.pgn.gz`, `.pgn.zst`), or `-` for standard input.
    pgn: String,
    /// Where to write the annotated games.
    #[arg(long, short)]
    out: String,
    /// Search each position to this depth.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    depth: Option<i32>,
    /// Search each position this many seconds (not reproducible).
    #[arg(long, conflicts_with = "nodes")]
    movetime: Option<f64>,
    /// Search each position this many nodes (the default: 200000).
    #[arg(long)]
    nodes: Option<u64>,
    /// The variant of games without a `Variant` tag (default: chess).
    #[arg(long)]
    variant: Option<String>,
    /// Games analysed in parallel (one search thread each); the output keeps the input order.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB (a fresh table for each game).
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Directory of endgame tables made by `mysl tb gen` (`*.mtb`): table positions get the tables' values.
    #[arg(long, value_name = "DIR")]
    tb: Option<std::path::PathBuf>,
    /// Syzygy directories (`DIR1:DIR2`), for the endings `--tb` lacks.
    #[arg(long, value_name = "DIR")]
    syzygy: Option<String>,
    /// No progress bar or log lines (broken games and the summary are still shown).
    #[arg(long, short)]
    quiet: bool,
}

// ---------------------------------------------------------------------------------------------------
// PGN text: tags escaped, movetext wrapped (the clock comments: mysl_book::pgn::clock_commands). The scores,
// judgements and accuracy are mysl_engine::analysis's.

fn escape_tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Movetext tokens wrapped at 80 columns (a comment or variation stays on one line).
fn wrap(tokens: &[String]) -> String {
    let mut s = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    s.push_str(&line);
    s.push('\n');
    s
}

// ---------------------------------------------------------------------------------------------------
// Reading a game: its tags and clock comments (any rules), its moves (replayed with mysl's rules).

/// The tags in order and the `[%clk]` commands after each ply (index 0: before the first move).
#[derive(Default)]
struct RawGame {
    tags: Vec<(String, String)>,
    clocks: Vec<Vec<String>>,
    outcome: Option<String>,
    plies: usize,
    started: bool,
    done: bool,
}

impl Visitor for RawGame {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if !self.started {
            let name = String::from_utf8_lossy(name).into_owned();
            self.tags.push((name, String::from_utf8_lossy(&value.decode()).into_owned()));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), ()> {
        self.started = true;
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), _san: SanPlus) -> ControlFlow<()> {
        self.plies += 1;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _movetext: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        let clocks = clock_commands(&String::from_utf8_lossy(comment.as_bytes()));
        if self.clocks.len() <= self.plies {
            self.clocks.resize(self.plies + 1, Vec::new());
        }
        self.clocks[self.plies].extend(clocks);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, _movetext: &mut (), outcome: pgn_reader::Outcome) -> ControlFlow<()> {
        self.outcome = Some(outcome.to_string());
        self.done = true;
        ControlFlow::Break(())
    }

    fn end_game(&mut self, _movetext: ()) {}
}

impl RawGame {
    fn read(text: &[u8]) -> Result<RawGame, String> {
        let mut game = RawGame::default();
        let mut reader = Reader::new(text);
        // As `replay_game`: a blank line inside the movetext does not end the game.
        loop {
            match reader.read_game(&mut game) {
                Ok(Some(())) => {}
                Ok(None) => break,
                Err(e) => return Err(format!("unreadable game text: {e}")),
            }
            if game.done {
                break;
            }
        }
        Ok(game)
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

struct Collect<R: Rules> {
    start: Option<Position<R>>,
    moves: Vec<Move>,
}

impl<R: Rules> GameSink<R> for Collect<R> {
    fn tags(&mut self, _tags: &GameTags) -> bool {
        true
    }
    fn ply(&mut self, pos: &Position<R>, mv: Move, _ply: usize) -> bool {
        if self.start.is_none() {
            self.start = Some(pos.clone());
        }
        self.moves.push(mv);
        true
    }
}

// ---------------------------------------------------------------------------------------------------
// Analysing a game.

/// What every worker needs.
struct Config {
    settings: Settings,
    default_variant: Variant,
    annotator: String,
    /// Ctrl-C.
    stop: Arc<AtomicBool>,
    /// Each worker's search stop flag (a search raises its own at its node limit), for Ctrl-C.
    search_stops: Mutex<Vec<Arc<AtomicBool>>>,
    positions: AtomicU64,
}

struct Analysed {
    pgn: String,
    title: String,
    stats: [PlayerStats; 2],
}

enum GameOutcome {
    Done(Box<Analysed>),
    Broken(String),
    Stopped,
}

fn analyse_text(text: &[u8], cfg: &Config, search_stop: &Arc<AtomicBool>) -> GameOutcome {
    let raw = match RawGame::read(text) {
        Ok(r) => r,
        Err(e) => return GameOutcome::Broken(e),
    };
    let variant = match raw.tag("Variant") {
        Some(name) => match Variant::from_name(name) {
            Some(v) => v,
            None => return GameOutcome::Broken(format!("unknown variant '{name}'")),
        },
        None => cfg.default_variant,
    };
    dispatch_variant!(variant, R => analyse_game::<R>(text, &raw, cfg, search_stop))
}

fn analyse_game<R: Rules>(text: &[u8], raw: &RawGame, cfg: &Config, search_stop: &Arc<AtomicBool>) -> GameOutcome {
    let mut collect = Collect::<R> { start: None, moves: Vec::new() };
    let tags = match replay_game::<R, _>(text, &mut collect) {
        Ok(t) => t,
        Err(e) => return GameOutcome::Broken(e.to_string()),
    };
    let start = match collect.start.take() {
        Some(p) => p,
        None => match &tags.fen {
            Some(fen) => match Position::<R>::from_fen(fen) {
                Ok(p) => p,
                Err(e) => return GameOutcome::Broken(format!("bad FEN tag: {e}")),
            },
            None => Position::<R>::startpos(),
        },
    };
    let positions = analysis::positions(&start, &collect.moves);
    let on_position = |_, _| {
        cfg.positions.fetch_add(1, Ordering::Relaxed);
    };
    let Ok(analysed) =
        analysis::analyse_positions(&positions, &collect.moves, &cfg.settings, &cfg.stop, search_stop, on_position)
    else {
        return GameOutcome::Stopped;
    };
    let evals = &analysed.evals;

    let mut tokens = Vec::new();
    if let Some(c) = raw.clocks.first().filter(|c| !c.is_empty()) {
        tokens.push(format!("{{ {} }}", c.join(" ")));
    }
    for (i, (&mv, judged)) in collect.moves.iter().zip(&analysed.moves).enumerate() {
        let pos = &positions[i];
        let judgement = judged.judgement;
        let number = if judged.mover == Color::White {
            format!("{}.", pos.fullmoves())
        } else {
            format!("{}...", pos.fullmoves())
        };
        tokens.push(format!("{number} {}{}", san::move_to_san(pos, mv), judgement.nag()));
        let clocks = raw.clocks.get(i + 1).cloned().unwrap_or_default();
        let line = if judgement == Judgement::Good {
            Vec::new()
        } else {
            analysis::line_san(pos, &evals[i].pv, analysis::LINE_PLIES)
        };
        let note = analysis::note(judgement, line.first().map(|m| m.san.as_str()));
        tokens.push(move_comment(Some(&format_eval(evals[i + 1].white)), &clocks, note.as_deref()));
        // The better line for mistakes and blunders.
        if analysis::shows_line(judgement) {
            tokens.extend(analysis::variation_text(&line));
        }
    }
    let result =
        raw.tag("Result").map(str::to_string).or_else(|| raw.outcome.clone()).unwrap_or_else(|| "*".to_string());
    tokens.push(result);

    let ours = ["WhiteACPL", "BlackACPL", "WhiteAccuracy", "BlackAccuracy", "Annotator"];
    let mut pgn = String::new();
    for (name, value) in raw.tags.iter().filter(|(n, _)| !ours.contains(&n.as_str())) {
        pgn.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
    }
    if raw.tag("Variant").is_none() && !matches!(R::VARIANT, Variant::Chess) {
        pgn.push_str(&format!("[Variant \"{}\"]\n", R::NAME));
    }
    let stats = analysed.stats;
    let [w, b] = stats;
    pgn.push_str(&format!("[WhiteACPL \"{}\"]\n[BlackACPL \"{}\"]\n", w.acpl(), b.acpl()));
    pgn.push_str(&format!("[WhiteAccuracy \"{:.1}\"]\n[BlackAccuracy \"{:.1}\"]\n", w.accuracy(), b.accuracy()));
    pgn.push_str(&format!("[Annotator \"{}\"]\n\n", escape_tag(&cfg.annotator)));
    pgn.push_str(&wrap(&tokens));
    pgn.push('\n');
    let title = format!("{} - {}", raw.tag("White").unwrap_or("?"), raw.tag("Black").unwrap_or("?"));
    GameOutcome::Done(Box::new(Analysed { pgn, title, stats }))
}

// ---------------------------------------------------------------------------------------------------
// The command.

pub fn run(a: AnalyseArgs) -> Result<ExitCode, CliError> {
    let default_variant = match &a.variant {
        Some(name) => Variant::from_name(name).ok_or_else(|| CliError::Input(format!("unknown variant '{name}'")))?,
        None => Variant::Chess,
    };
    if a.pgn != "-" && !std::path::Path::new(&a.pgn).is_file() {
        return Err(CliError::Input(format!("{}: no such file", a.pgn)));
    }
    let (limits, limit_text) = match (a.depth, a.movetime, a.nodes) {
        (Some(d), _, _) => (Limits { depth: Some(d.max(1)), multipv: 1, ..Limits::default() }, format!("depth {d}")),
        (_, Some(t), _) => {
            if !(t.is_finite() && t > 0.0) {
                return Err(CliError::Input(format!("--movetime {t}: not a positive number of seconds")));
            }
            let limits = Limits { movetime: Some(Duration::from_secs_f64(t)), multipv: 1, ..Limits::default() };
            (limits, format!("{t} s a position"))
        }
        (_, _, n) => {
            let n = n.unwrap_or(DEFAULT_NODES).max(1);
            (Limits { nodes: Some(n), multipv: 1, ..Limits::default() }, format!("{n} nodes"))
        }
    };
    let threads = a.threads.max(1);
    let tablebases = if a.tb.is_some() || a.syzygy.is_some() {
        let mut tables = Tablebases::new();
        if let Some(dir) = &a.tb {
            if !dir.is_dir() {
                return Err(CliError::Input(format!("--tb {}: not a directory", dir.display())));
            }
            tables.set_ours(dir).map_err(|e| CliError::Input(format!("--tb {}: {e}", dir.display())))?;
        }
        if let Some(path) = &a.syzygy {
            let n = tables.add_syzygy_path(path).map_err(|e| CliError::Input(format!("--syzygy {path}: {e}")))?;
            if n == 0 {
                eprintln!("mysl analyse: warning: --syzygy {path}: no Syzygy files there");
            }
        }
        Some(Arc::new(tables))
    } else {
        None
    };
    let cfg = Config {
        settings: Settings { limits, hash_mb: a.hash, tablebases, tb_probe_limit: TB_PROBE_LIMIT },
        default_variant,
        annotator: format!("mysl {} analyse, {limit_text}", env!("CARGO_PKG_VERSION")),
        stop: Arc::new(AtomicBool::new(false)),
        search_stops: Mutex::new(Vec::new()),
        positions: AtomicU64::new(0),
    };
    let inputs = vec![Input::new(a.pgn.clone())];

    // Count the games first (cheap next to the searches) for the progress bar.
    let total_games = if a.pgn == "-" {
        None
    } else {
        let mut n = 0u64;
        let never = AtomicBool::new(false);
        for_each_game(&inputs, 1, Arc::new(AtomicU64::new(0)), &never, |_, _| (), |_, ()| n += 1)
            .map_err(|e| CliError::Input(e.to_string()))?;
        Some(n)
    };

    let tmp_out = format!("{}.part", a.out);
    let file = std::fs::File::create(&tmp_out).map_err(|e| CliError::Failure(format!("{tmp_out}: {e}")))?;
    let mut out = BufWriter::new(file);

    let interactive = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bar = if a.quiet || !interactive {
        indicatif::ProgressBar::hidden()
    } else {
        match total_games {
            Some(n) => indicatif::ProgressBar::new(n).with_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games {msg} ({elapsed}, eta {eta})")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            ),
            None => indicatif::ProgressBar::new_spinner(),
        }
    };
    let log_lines = !a.quiet && !interactive;
    let say = |line: String| {
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
    };

    let cfg = Arc::new(cfg);
    let on_interrupt = cfg.clone();
    let _ = ctrlc::set_handler(move || {
        on_interrupt.stop.store(true, Ordering::SeqCst);
        if let Ok(stops) = on_interrupt.search_stops.lock() {
            for s in stops.iter() {
                s.store(true, Ordering::SeqCst);
            }
        }
    });

    let start = Instant::now();
    let mut totals = Totals::default();
    let mut summaries = Vec::new();
    let mut write_error = None;
    let (game_tx, game_rx) = sync_channel::<(u64, GameLocation, Vec<u8>)>(threads * 2);
    let game_rx = Mutex::new(game_rx);
    let (result_tx, result_rx) = sync_channel::<(u64, GameLocation, GameOutcome)>(threads * 2);
    let read_result = std::thread::scope(|scope| {
        let cfg_ref = &cfg;
        let inputs_ref = &inputs;
        let reader = scope.spawn(move || {
            let mut seq = 0u64;
            for_each_game(
                inputs_ref,
                1,
                Arc::new(AtomicU64::new(0)),
                &cfg_ref.stop,
                |_, text| text.to_vec(),
                |loc, text| {
                    if game_tx.send((seq, loc, text)).is_ok() {
                        seq += 1;
                    }
                },
            )
        });
        for _ in 0..threads {
            let result_tx = result_tx.clone();
            let game_rx = &game_rx;
            scope.spawn(move || {
                let search_stop = Arc::new(AtomicBool::new(false));
                if let Ok(mut stops) = cfg_ref.search_stops.lock() {
                    stops.push(search_stop.clone());
                }
                loop {
                    let next = match game_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((seq, loc, text)) = next else { return };
                    let outcome = analyse_text(&text, cfg_ref, &search_stop);
                    if result_tx.send((seq, loc, outcome)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(result_tx);
        let mut pending = BTreeMap::new();
        let mut next = 0u64;
        let mut stopped = false;
        for (seq, loc, outcome) in result_rx {
            pending.insert(seq, (loc, outcome));
            while let Some((loc, outcome)) = pending.remove(&next) {
                next += 1;
                bar.inc(1);
                bar.set_message(format!("{} positions", cfg.positions.load(Ordering::Relaxed)));
                match outcome {
                    _ if stopped => {}
                    GameOutcome::Stopped => stopped = true,
                    GameOutcome::Broken(e) => {
                        totals.broken += 1;
                        say(format!("{}: game {} (line {}): {e}; game skipped", a.pgn, loc.number, loc.line));
                    }
                    GameOutcome::Done(g) => {
                        totals.games += 1;
                        if write_error.is_none() {
                            if let Err(e) = out.write_all(g.pgn.as_bytes()) {
                                write_error = Some(e);
                            }
                        }
                        if log_lines {
                            eprintln!(
                                "analyse: game {} done ({:.1} s, {} positions)",
                                loc.number,
                                start.elapsed().as_secs_f64(),
                                cfg.positions.load(Ordering::Relaxed)
                            );
                        }
                        summaries.push((loc.number, g.title, g.stats));
                    }
                }
            }
        }
        match reader.join() {
            Ok(r) => r.map_err(|e| e.to_string()),
            Err(_) => Err("the PGN reader thread failed".to_string()),
        }
    });
    bar.finish_and_clear();
    let stopped = cfg.stop.load(Ordering::SeqCst);
    if let Some(e) = write_error.or_else(|| out.flush().err()) {
        let _ = std::fs::remove_file(&tmp_out);
        return Err(CliError::Failure(format!("{}: {e}", a.out)));
    }
    drop(out);
    if let Err(e) = read_result {
        let _ = std::fs::remove_file(&tmp_out);
        return Err(CliError::Input(e));
    }
    std::fs::rename(&tmp_out, &a.out).map_err(|e| CliError::Failure(format!("{}: {e}", a.out)))?;
    for (number, title, [w, b]) in &summaries {
        println!("game {number}: {title}");
        println!("  White: {}", w.describe());
        println!("  Black: {}", b.describe());
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "analyse: {} games analysed, {} broken, {} positions in {:.1} s ({}) -> {}",
        totals.games,
        totals.broken,
        cfg.positions.load(Ordering::Relaxed),
        secs,
        limit_text,
        a.out
    );
    if stopped {
        return Err(CliError::Failure(format!("stopped: the {} games finished are in {}", totals.games, a.out)));
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Default)]
struct Totals {
    games: u64,
    broken: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analyse_comments() {
        assert_eq!(escape_tag("a \"b\" \\"), "a \\\"b\\\" \\\\");
    }
}
