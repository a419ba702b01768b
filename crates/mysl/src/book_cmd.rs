//! `mysl book build|probe|dump|random-games`: opening books from PGN databases.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use mysl_book::build::{BuildOptions, Progress, WeightMode};
use mysl_book::format::{BookWriter, MbkWriter, PolyglotWriter, WrittenMove};
use mysl_book::{eco, Book, BookMove, Input};
use mysl_core::uci::{move_to_uci, parse_uci_move};
use mysl_core::{dispatch_variant, Color, Position, Rules, Variant};
use mysl_engine::{Limits, Searcher, TranspositionTable};

use crate::CliError;

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Build a book from PGN games (`.pgn`, `.pgn.gz`, `.pgn.zst`, `-` for standard input).
    Build(BuildArgs),
    /// List a position's book moves with their statistics and the opening's name.
    Probe(ProbeArgs),
    /// Print every book move reachable from the start (or `--fen`) through book moves: FEN, move, weight.
    Dump(DumpArgs),
    /// Write random legal games as PGN (a corpus for scale tests of `book build`).
    RandomGames(RandomGamesArgs),
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Weights {
    Polyglot,
    Count,
    Normalized,
}

#[derive(Args, Debug)]
struct BuildArgs {
    /// PGN files.
    #[arg(long, num_args = 1.., required = true)]
    pgn: Vec<String>,
    /// Output book: `.bin` writes Polyglot, anything else mysl's `.mbk` format.
    #[arg(long)]
    out: String,
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Keep games whose players are rated at least this.
    #[arg(long)]
    min_elo: Option<u16>,
    /// Both players must reach --min-elo (the default).
    #[arg(long, conflicts_with = "elo_either")]
    elo_both: bool,
    /// One player reaching --min-elo is enough.
    #[arg(long)]
    elo_either: bool,
    /// Count only the first P plies of each game.
    #[arg(long, default_value_t = 1024)]
    max_ply: usize,
    /// A move needs at least N games.
    #[arg(long, default_value_t = 3)]
    min_games: u32,
    /// A move needs at least this score (percent, for the side that played it).
    #[arg(long, default_value_t = 0.0)]
    min_score: f64,
    #[arg(long, conflicts_with = "only_black")]
    only_white: bool,
    #[arg(long)]
    only_black: bool,
    /// All weights 1.
    #[arg(long)]
    uniform: bool,
    #[arg(long, value_enum, default_value = "polyglot")]
    weights: Weights,
    /// Polyglot make-book's exact rules (`*` as a draw, halving at 16384, Polyglot's tie order).
    #[arg(long)]
    polyglot_compat: bool,
    /// Search each book move to this depth and drop those worse than the best by more than --verify-margin.
    #[arg(long)]
    verify_depth: Option<i32>,
    #[arg(long, default_value_t = 50)]
    verify_margin: i32,
    /// Memory for counting, in MiB; past it, sorted runs are spilled to disk.
    #[arg(long, default_value_t = 64)]
    memory: usize,
    #[arg(long)]
    threads: Option<usize>,
    /// Directory for spilled runs (default: the system's temporary directory).
    #[arg(long)]
    temp_dir: Option<String>,
    /// No progress bar and no per-game error lines (the summary is still printed).
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct ProbeArgs {
    #[arg(long)]
    book: String,
    #[arg(long, conflicts_with = "moves")]
    fen: Option<String>,
    /// UCI moves from the start position, e.g. "e2e4 e7e5".
    #[arg(long)]
    moves: Option<String>,
    /// The variant (default: the book's own, or chess).
    #[arg(long)]
    variant: Option<String>,
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct DumpArgs {
    #[arg(long)]
    book: String,
    /// List the positions up to this many plies from the root.
    #[arg(long, default_value_t = 8)]
    depth: usize,
    #[arg(long)]
    fen: Option<String>,
    #[arg(long)]
    variant: Option<String>,
}

#[derive(Args, Debug)]
struct RandomGamesArgs {
    #[arg(long)]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies per game at most.
    #[arg(long, default_value_t = 80)]
    max_ply: usize,
}

pub fn run(args: BookArgs) -> Result<ExitCode, CliError> {
    match args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Probe(a) => probe(a),
        BookCommand::Dump(a) => dump(a),
        BookCommand::RandomGames(a) => random_games(a),
    }
}

fn parse_variant(name: &str) -> Result<Variant, CliError> {
    Variant::from_name(name).ok_or_else(|| CliError::Input(format!("unknown variant '{name}'")))
}

fn open_book(path: &str) -> Result<Book, CliError> {
    Book::open(path).map_err(|e| CliError::Input(e.to_string()))
}

fn build(a: BuildArgs) -> Result<ExitCode, CliError> {
    let variant = parse_variant(&a.variant)?;
    let opts = BuildOptions {
        variant,
        min_elo: a.min_elo,
        elo_either: a.elo_either,
        max_ply: a.max_ply,
        min_games: a.min_games,
        min_score: a.min_score,
        only: if a.only_white {
            Some(Color::White)
        } else if a.only_black {
            Some(Color::Black)
        } else {
            None
        },
        uniform: a.uniform,
        weights: match a.weights {
            Weights::Polyglot => WeightMode::Polyglot,
            Weights::Count => WeightMode::Count,
            Weights::Normalized => WeightMode::Normalized,
        },
        polyglot_compat: a.polyglot_compat,
        memory_bytes: a.memory.max(1) << 20,
        threads: a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        temp_dir: a.temp_dir.as_ref().map(Into::into),
    };
    let inputs: Vec<Input> = a.pgn.iter().map(Input::new).collect();
    for i in &inputs {
        if i.name != "-" && !std::path::Path::new(&i.name).exists() {
            return Err(CliError::Input(format!("{}: no such file", i.name)));
        }
    }
    let polyglot = a.out.ends_with(".bin");
    let progress = Arc::new(Progress::default());
    // Ctrl-C stops reading; the partial output is removed and an existing book keeps its old contents.
    let on_interrupt = progress.clone();
    let _ = ctrlc::set_handler(move || on_interrupt.stop.store(true, Ordering::Relaxed));
    let bar = (!a.quiet).then(|| progress_bar(&inputs, progress.clone()));
    let start = std::time::Instant::now();
    let mut broken_shown = 0;
    let quiet = a.quiet;
    let mut on_error = |input: &Input, loc: mysl_book::GameLocation, e: &mysl_book::GameError| {
        if !quiet && broken_shown < 100 {
            let line = format!("{}: game {} (line {}): {e}; game skipped", input.name, loc.number, loc.line);
            match &bar {
                Some(b) if !b.is_hidden() => b.println(line),
                _ => eprintln!("{line}"),
            }
        }
        broken_shown += 1;
    };
    let tmp_out = format!("{}.part", a.out);
    let file = File::create(&tmp_out).map_err(|e| CliError::Failure(format!("{tmp_out}: {e}")))?;
    let result = if a.verify_depth.is_some() {
        let mut memory = MemoryWriter::default();
        let r = mysl_book::build(&inputs, &opts, &mut memory, &progress, &mut on_error);
        r.and_then(|report| {
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            let depth = a.verify_depth.unwrap_or(1);
            dispatch_variant!(variant, R => verify::<R>(&mut memory.positions, depth, a.verify_margin, a.max_ply));
            let mut writer = make_writer(file, polyglot, variant).map_err(mysl_book::BuildError::Output)?;
            for (key, moves) in &memory.positions {
                if !moves.is_empty() {
                    writer.position(*key, moves).map_err(mysl_book::BuildError::Output)?;
                }
            }
            writer.finish().map_err(mysl_book::BuildError::Output)?;
            Ok(report)
        })
    } else {
        let mut writer = make_writer(file, polyglot, variant).map_err(|e| CliError::Failure(e.to_string()))?;
        mysl_book::build(&inputs, &opts, writer.as_mut(), &progress, &mut on_error)
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let report = match result {
        Ok(r) => r,
        Err(mysl_book::BuildError::Stopped) => {
            let _ = std::fs::remove_file(&tmp_out);
            return Err(CliError::Failure(format!("stopped: {} left unchanged", a.out)));
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp_out);
            return Err(CliError::Input(e.to_string()));
        }
    };
    if progress.stop.load(Ordering::Relaxed) {
        let _ = std::fs::remove_file(&tmp_out);
        return Err(CliError::Failure(format!("stopped: {} left unchanged", a.out)));
    }
    std::fs::rename(&tmp_out, &a.out).map_err(|e| CliError::Failure(format!("{}: {e}", a.out)))?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "games: {} read, {} used, {} filtered (elo {}, variant {}, no result {}), {} broken",
        report.games_read,
        report.games_used,
        report.filtered_elo + report.filtered_variant + report.filtered_result,
        report.filtered_elo,
        report.filtered_variant,
        report.filtered_result,
        report.broken
    );
    eprintln!(
        "book: {} positions, {} entries -> {}; {} moves counted, {} runs spilled, {:.2} s ({:.0} games/s)",
        report.positions_written,
        report.entries_written,
        a.out,
        report.observations,
        report.runs_spilled,
        secs,
        report.games_read as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

fn make_writer(file: File, polyglot: bool, variant: Variant) -> std::io::Result<Box<dyn BookWriter>> {
    let out = BufWriter::with_capacity(1 << 20, file);
    Ok(if polyglot { Box::new(PolyglotWriter::new(out)) } else { Box::new(MbkWriter::new(out, variant)?) })
}

fn progress_bar(inputs: &[Input], progress: Arc<Progress>) -> indicatif::ProgressBar {
    let bar = match mysl_book::pgn::total_input_bytes(inputs) {
        Some(total) => indicatif::ProgressBar::new(total).with_style(
            indicatif::ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg} ({elapsed}, eta {eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        ),
        None => indicatif::ProgressBar::new_spinner(),
    };
    let b = bar.clone();
    std::thread::spawn(move || {
        while !b.is_finished() {
            b.set_position(progress.bytes.load(Ordering::Relaxed));
            b.set_message(format!("{} games", progress.games.load(Ordering::Relaxed)));
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    bar
}

/// Keeps a whole book in memory (for engine verification, which needs to walk it).
#[derive(Default)]
struct MemoryWriter {
    positions: Vec<(u64, Vec<WrittenMove>)>,
}

impl BookWriter for MemoryWriter {
    fn position(&mut self, key: u64, moves: &[WrittenMove]) -> std::io::Result<()> {
        self.positions.push((key, moves.to_vec()));
        Ok(())
    }
    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The article's engine check: walks the book from the start, searches every book move of each position
/// reached, and drops those the engine finds worse than the best by more than `margin`.
fn verify<R: Rules>(positions: &mut [(u64, Vec<WrittenMove>)], depth: i32, margin: i32, max_ply: usize) {
    let index: HashMap<u64, usize> = positions.iter().enumerate().map(|(i, (k, _))| (*k, i)).collect();
    let tt = Arc::new(TranspositionTable::new(16));
    let mut searcher = Searcher::<R>::new(tt, Arc::new(std::sync::atomic::AtomicBool::new(false)));
    let mut seen = HashSet::new();
    let mut stack = vec![(Position::<R>::startpos(), 0usize)];
    let (mut checked, mut dropped) = (0, 0);
    while let Some((pos, ply)) = stack.pop() {
        let Some(&i) = index.get(&pos.key()) else { continue };
        if ply >= max_ply || !seen.insert(pos.key()) {
            continue;
        }
        let legal = pos.legal_moves();
        let moves: Vec<WrittenMove> = positions[i].1.iter().copied().filter(|m| legal.contains(m.mv)).collect();
        if moves.len() > 1 {
            let scores: Vec<i32> = moves
                .iter()
                .map(|m| {
                    let limits =
                        Limits { depth: Some(depth), searchmoves: vec![m.mv], multipv: 1, ..Limits::default() };
                    searcher.search(&pos, &limits, |_| {}).score
                })
                .collect();
            let best = scores.iter().copied().max().unwrap_or(0);
            checked += moves.len();
            let mut keep = Vec::new();
            for (m, s) in moves.iter().zip(&scores) {
                if *s < best - margin {
                    dropped += 1;
                    println!(
                        "suspicious: {}  {}  score {s} cp, best {best} cp, {} games",
                        pos.fen(),
                        move_to_uci(&pos, m.mv),
                        m.stats.games
                    );
                } else {
                    keep.push(*m);
                }
            }
            positions[i].1 = keep;
        } else {
            positions[i].1 = moves;
        }
        for m in &positions[i].1 {
            let mut next = pos.clone();
            next.play_unchecked(m.mv);
            stack.push((next, ply + 1));
        }
    }
    eprintln!("verification: {checked} moves searched to depth {depth}, {dropped} dropped (margin {margin} cp)");
}

fn start_position<R: Rules>(fen: Option<&str>, moves: Option<&str>) -> Result<(Position<R>, Vec<u64>), CliError> {
    let mut pos = match fen {
        Some(f) => Position::<R>::from_fen(f).map_err(|e| CliError::Input(e.to_string()))?,
        None => Position::<R>::startpos(),
    };
    let mut keys = vec![pos.key()];
    for text in moves.unwrap_or("").split_whitespace() {
        let mv = parse_uci_move(&pos, text).map_err(|e| CliError::Input(format!("move '{text}': {e}")))?;
        pos.play_unchecked(mv);
        keys.push(pos.key());
    }
    Ok((pos, keys))
}

fn book_variant(book: &Book, name: Option<&str>) -> Result<Variant, CliError> {
    match name {
        Some(n) => parse_variant(n),
        None => Ok(book.variant().unwrap_or(Variant::Chess)),
    }
}

fn probe(a: ProbeArgs) -> Result<ExitCode, CliError> {
    let book = open_book(&a.book)?;
    let variant = book_variant(&book, a.variant.as_deref())?;
    dispatch_variant!(variant, R => probe_in::<R>(&book, &a))
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn probe_in<R: Rules>(book: &Book, a: &ProbeArgs) -> Result<ExitCode, CliError> {
    let (pos, keys) = start_position::<R>(a.fen.as_deref(), a.moves.as_deref())?;
    let moves = book.probe(&pos);
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    let opening = if a.fen.is_some() { eco::lookup(pos.key()) } else { eco::classify(&keys) };
    let fen = pos.fen();
    let prob = |m: &BookMove| if total == 0 { 0.0 } else { f64::from(m.weight) / total as f64 };
    let pct = |n: u32, games: u32| if games == 0 { 0.0 } else { 100.0 * f64::from(n) / f64::from(games) };
    if a.json {
        let mut out = format!("{{\"fen\":{},\"key\":\"{:016x}\"", json_string(&fen), pos.key());
        match opening {
            Some(o) => out.push_str(&format!(",\"eco\":{},\"opening\":{}", json_string(o.eco), json_string(o.name))),
            None => out.push_str(",\"eco\":null,\"opening\":null"),
        }
        out.push_str(",\"moves\":[");
        for (i, m) in moves.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&format!(
                "{{\"uci\":{},\"san\":{},\"weight\":{},\"probability\":{:.6}",
                json_string(&move_to_uci(&pos, m.mv)),
                json_string(&mysl_core::san::move_to_san(&pos, m.mv)),
                m.weight,
                prob(m)
            ));
            if let Some(s) = m.stats {
                out.push_str(&format!(
                    ",\"games\":{},\"white\":{:.1},\"draws\":{:.1},\"black\":{:.1},\"avg_elo\":{}",
                    s.games,
                    pct(s.white_wins, s.games),
                    pct(s.draws, s.games),
                    pct(s.black_wins, s.games),
                    if s.elo_avg > 0 { s.elo_avg.to_string() } else { "null".into() }
                ));
            }
            out.push('}');
        }
        out.push_str("]}");
        println!("{out}");
        return Ok(ExitCode::SUCCESS);
    }
    println!("Position: {fen}");
    match opening {
        Some(o) => println!("Opening:  {} {}", o.eco, o.name),
        None => println!("Opening:  (not named)"),
    }
    if moves.is_empty() {
        println!("No book moves.");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:<8} {:<8} {:>6} {:>7} {:>7} {:>6} {:>6} {:>6} {:>7}",
        "move", "san", "weight", "prob", "games", "white", "draw", "black", "avg elo"
    );
    for m in &moves {
        let (games, w, d, b, elo) = match m.stats {
            Some(s) => (
                s.games.to_string(),
                format!("{:.1}%", pct(s.white_wins, s.games)),
                format!("{:.1}%", pct(s.draws, s.games)),
                format!("{:.1}%", pct(s.black_wins, s.games)),
                if s.elo_avg > 0 { s.elo_avg.to_string() } else { "-".into() },
            ),
            None => ("-".into(), "-".into(), "-".into(), "-".into(), "-".into()),
        };
        println!(
            "{:<8} {:<8} {:>6} {:>6.1}% {:>7} {:>6} {:>6} {:>6} {:>7}",
            move_to_uci(&pos, m.mv),
            mysl_core::san::move_to_san(&pos, m.mv),
            m.weight,
            100.0 * prob(m),
            games,
            w,
            d,
            b,
            elo
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn dump(a: DumpArgs) -> Result<ExitCode, CliError> {
    let book = open_book(&a.book)?;
    let variant = book_variant(&book, a.variant.as_deref())?;
    dispatch_variant!(variant, R => dump_in::<R>(&book, &a))
}

fn dump_in<R: Rules>(book: &Book, a: &DumpArgs) -> Result<ExitCode, CliError> {
    let (root, _) = start_position::<R>(a.fen.as_deref(), None)?;
    let mut seen = HashSet::new();
    let mut frontier = vec![root];
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for _ in 0..=a.depth {
        let mut next = Vec::new();
        for pos in frontier {
            if !seen.insert(pos.key()) {
                continue;
            }
            let fen = pos.fen();
            for m in book.probe(&pos) {
                let _ = writeln!(out, "{fen}\t{}\t{}", move_to_uci(&pos, m.mv), m.weight);
                let mut p = pos.clone();
                p.play_unchecked(m.mv);
                next.push(p);
            }
        }
        frontier = next;
    }
    let _ = out.flush();
    Ok(ExitCode::SUCCESS)
}

/// SplitMix64: a small, good generator for reproducible corpora.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn random_games(a: RandomGamesArgs) -> Result<ExitCode, CliError> {
    let mut rng = SplitMix(a.seed);
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let mut text = String::with_capacity(4096);
    for n in 1..=a.games {
        let mut pos = mysl_core::Chess::startpos();
        text.clear();
        let mut result = "1/2-1/2";
        for ply in 0..a.max_ply {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                if pos.is_check() {
                    result = if pos.turn() == Color::White { "0-1" } else { "1-0" };
                }
                break;
            }
            let Some(mv) = legal.get((rng.next() % legal.len() as u64) as usize) else { break };
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&mysl_core::san::move_to_san(&pos, mv));
            text.push(' ');
            pos.play_unchecked(mv);
        }
        if rng.next().is_multiple_of(3) && result == "1/2-1/2" {
            // Give some drawn-out games a decisive result so results vary.
            result = if rng.next().is_multiple_of(2) { "1-0" } else { "0-1" };
        }
        let elo = 2000 + rng.next() % 800;
        let w = writeln!(
            out,
            "[Event \"random {n}\"]\n[White \"r\"]\n[Black \"r\"]\n[Result \"{result}\"]\n[WhiteElo \"{elo}\"]\n[BlackElo \"{}\"]\n\n{text}{result}\n",
            elo + 10
        );
        if w.is_err() {
            break;
        }
    }
    let _ = out.flush();
    Ok(ExitCode::SUCCESS)
}
