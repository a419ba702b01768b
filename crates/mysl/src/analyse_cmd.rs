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
use mysl_book::pgn::{for_each_game, replay_game, GameSink, GameTags};
use mysl_book::{GameLocation, Input};
use mysl_core::{dispatch_variant, san, Color, Move, Outcome, Position, Rules, Variant};
use mysl_engine::score::{mate_in, MATE_BOUND, MATE_SCORE, TB_BOUND};
use mysl_engine::{Limits, Searcher, Tablebases, TranspositionTable};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Skip, Visitor};

use crate::CliError;

/// The node limit when no limit is given: a fixed node count makes the analysis reproducible.
pub const DEFAULT_NODES: u64 = 200_000;
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
// The pure parts: scores, judgements, accuracy, comments.

/// lichess's logistic constant: expected score = 1 / (1 + exp(-K·cp)).
pub const WIN_K: f64 = 0.003_682_08;
/// Expected-score losses at which a move is an inaccuracy, a mistake, a blunder.
pub const INACCURACY: f64 = 0.10;
pub const MISTAKE: f64 = 0.20;
pub const BLUNDER: f64 = 0.30;
/// Centipawn scores are capped at this for the average centipawn loss (mates count as the cap).
pub const CP_CAP: i32 = 1000;

/// The expected score (0..1) of an engine score (centipawns or mate, from the side it is for).
pub fn expected_score(score: i32) -> f64 {
    if score >= MATE_BOUND {
        1.0
    } else if score <= -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-WIN_K * f64::from(score)).exp())
    }
}

/// A score in centipawns capped to ±[`CP_CAP`] (mates included), for the average centipawn loss.
pub fn capped_cp(score: i32) -> i32 {
    score.clamp(-CP_CAP, CP_CAP)
}

/// How bad a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// From the loss in expected score of the move played against the best move.
    pub fn from_loss(loss: f64) -> Judgement {
        if loss >= BLUNDER {
            Judgement::Blunder
        } else if loss >= MISTAKE {
            Judgement::Mistake
        } else if loss >= INACCURACY {
            Judgement::Inaccuracy
        } else {
            Judgement::Good
        }
    }

    /// The move suffix (`?!`, `?`, `??`).
    pub fn nag(self) -> &'static str {
        match self {
            Judgement::Good => "",
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Good => "",
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// lichess's accuracy of one move from the mover's win percentages (0..100) before and after it.
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    let drop = win_before - win_after;
    if drop <= 0.0 {
        return 100.0;
    }
    (103.166_8 * (-0.043_54 * drop).exp() - 3.166_9).clamp(0.0, 100.0)
}

/// The `[%eval]` value of a score from White's view: pawns with two decimals, or `#N` / `#-N` for a mate
/// (`#0` / `#-0`: the game is over, White or Black won). A table win without a mate distance is
/// `100.00` / `-100.00`.
pub fn format_eval(white_score: i32) -> String {
    match mate_in(white_score) {
        Some(n) if white_score > 0 => format!("#{}", n.abs()),
        Some(n) => format!("#-{}", n.abs()),
        None if white_score.abs() >= TB_BOUND => format!("{}100.00", if white_score < 0 { "-" } else { "" }),
        None => format!("{:.2}", f64::from(white_score) / 100.0),
    }
}

/// The `[%clk ...]` commands of a comment, as written.
pub fn clock_commands(comment: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = comment;
    while let Some(start) = rest.find("[%clk") {
        let Some(len) = rest[start..].find(']') else { break };
        out.push(rest[start..start + len + 1].to_string());
        rest = &rest[start + len + 1..];
    }
    out
}

/// A move's comment: `{ [%eval E] [%clk ...] Note }`.
pub fn move_comment(eval: &str, clocks: &[String], note: Option<&str>) -> String {
    let mut s = format!("{{ [%eval {eval}]");
    for c in clocks {
        s.push(' ');
        s.push_str(c);
    }
    if let Some(n) = note {
        s.push(' ');
        s.push_str(&n.replace('}', ")"));
    }
    s.push_str(" }");
    s
}

/// One player's figures over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerStats {
    pub moves: u32,
    pub cp_loss: i64,
    pub accuracy_sum: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

impl PlayerStats {
    /// Adds a move: the mover's scores of the best move and of the move played (engine scores).
    pub fn add(&mut self, best: i32, played: i32) -> Judgement {
        let loss = (expected_score(best) - expected_score(played)).max(0.0);
        let judgement = Judgement::from_loss(loss);
        self.moves += 1;
        self.cp_loss += i64::from((capped_cp(best) - capped_cp(played)).max(0));
        self.accuracy_sum += move_accuracy(100.0 * expected_score(best), 100.0 * expected_score(played));
        match judgement {
            Judgement::Inaccuracy => self.inaccuracies += 1,
            Judgement::Mistake => self.mistakes += 1,
            Judgement::Blunder => self.blunders += 1,
            Judgement::Good => {}
        }
        judgement
    }

    /// Average centipawn loss (rounded).
    pub fn acpl(&self) -> i64 {
        if self.moves == 0 {
            0
        } else {
            (self.cp_loss as f64 / f64::from(self.moves)).round() as i64
        }
    }

    /// Mean per-move accuracy, 0..100 (100 without moves).
    pub fn accuracy(&self) -> f64 {
        if self.moves == 0 {
            100.0
        } else {
            self.accuracy_sum / f64::from(self.moves)
        }
    }

    fn describe(&self) -> String {
        format!(
            "ACPL {}, accuracy {:.1} ({} inaccuracies, {} mistakes, {} blunders)",
            self.acpl(),
            self.accuracy(),
            self.inaccuracies,
            self.mistakes,
            self.blunders
        )
    }
}

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
    limits: Limits,
    hash: usize,
    tablebases: Option<Arc<Tablebases>>,
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

/// One searched position: the score from White's view, the best move and its line.
struct Evaluated {
    white: i32,
    pv: Vec<Move>,
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
    let mut positions = vec![start.clone()];
    for &mv in &collect.moves {
        let mut next = positions[positions.len() - 1].clone();
        next.play_unchecked(mv);
        positions.push(next);
    }
    let tt = Arc::new(TranspositionTable::new(cfg.hash.max(1)));
    let mut searcher = Searcher::<R>::new(tt, search_stop.clone());
    searcher.set_tablebases(cfg.tablebases.clone(), TB_PROBE_LIMIT);
    let mut evals = Vec::with_capacity(positions.len());
    for pos in &positions {
        search_stop.store(false, Ordering::SeqCst);
        if cfg.stop.load(Ordering::SeqCst) {
            return GameOutcome::Stopped;
        }
        let white_view = |s: i32| if pos.turn() == Color::White { s } else { -s };
        let eval = match pos.outcome() {
            Some(Outcome::Decisive { winner, .. }) => {
                Evaluated { white: if winner == Color::White { MATE_SCORE } else { -MATE_SCORE }, pv: Vec::new() }
            }
            Some(Outcome::Draw { .. }) => Evaluated { white: 0, pv: Vec::new() },
            None => {
                let mut pv = Vec::new();
                let r = searcher.search(pos, &cfg.limits, |info| {
                    if info.multipv == 1 && info.bound.is_none() && !info.pv.is_empty() {
                        pv.clone_from(&info.pv);
                    }
                });
                if cfg.stop.load(Ordering::SeqCst) {
                    return GameOutcome::Stopped;
                }
                match r.best {
                    Some(best) if pv.first() != Some(&best) => pv = vec![best],
                    None => pv.clear(),
                    _ => {}
                }
                Evaluated { white: white_view(r.score), pv }
            }
        };
        cfg.positions.fetch_add(1, Ordering::Relaxed);
        evals.push(eval);
    }

    let mut stats = [PlayerStats::default(); 2];
    let mut tokens = Vec::new();
    if let Some(c) = raw.clocks.first().filter(|c| !c.is_empty()) {
        tokens.push(format!("{{ {} }}", c.join(" ")));
    }
    for (i, &mv) in collect.moves.iter().enumerate() {
        let pos = &positions[i];
        let mover = pos.turn();
        let to_mover = |white: i32| if mover == Color::White { white } else { -white };
        let best = to_mover(evals[i].white);
        let best_move = evals[i].pv.first().copied();
        let played = if best_move == Some(mv) { best } else { to_mover(evals[i + 1].white) };
        let judgement = stats[mover as usize].add(best, played);
        let number =
            if mover == Color::White { format!("{}.", pos.fullmoves()) } else { format!("{}...", pos.fullmoves()) };
        tokens.push(format!("{number} {}{}", san::move_to_san(pos, mv), judgement.nag()));
        let clocks = raw.clocks.get(i + 1).cloned().unwrap_or_default();
        let line = if judgement == Judgement::Good { None } else { variation(pos, &evals[i].pv) };
        let note = match &line {
            _ if judgement == Judgement::Good => None,
            Some((first, _)) => Some(format!("{}. {first} was best.", judgement.name())),
            None => Some(format!("{}.", judgement.name())),
        };
        tokens.push(move_comment(&format_eval(evals[i + 1].white), &clocks, note.as_deref()));
        // The better line for mistakes and blunders.
        if let (Some((_, text)), Judgement::Mistake | Judgement::Blunder) = (line, judgement) {
            tokens.push(text);
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
    let [w, b] = stats;
    pgn.push_str(&format!("[WhiteACPL \"{}\"]\n[BlackACPL \"{}\"]\n", w.acpl(), b.acpl()));
    pgn.push_str(&format!("[WhiteAccuracy \"{:.1}\"]\n[BlackAccuracy \"{:.1}\"]\n", w.accuracy(), b.accuracy()));
    pgn.push_str(&format!("[Annotator \"{}\"]\n\n", escape_tag(&cfg.annotator)));
    pgn.push_str(&wrap(&tokens));
    pgn.push('\n');
    let title = format!("{} - {}", raw.tag("White").unwrap_or("?"), raw.tag("Black").unwrap_or("?"));
    GameOutcome::Done(Box::new(Analysed { pgn, title, stats }))
}

/// The better line as a PGN variation, `( 14. Nf3 Nc6 15. ... )`, and its first move's SAN; at most 10
/// plies, stopping at the first move that is not legal.
fn variation<R: Rules>(start: &Position<R>, pv: &[Move]) -> Option<(String, String)> {
    let mut pos = start.clone();
    let mut parts = Vec::new();
    let mut first = None;
    for (k, &mv) in pv.iter().take(10).enumerate() {
        let legal = pos.legal_moves();
        if !legal.contains(mv) {
            break;
        }
        let s = san::move_to_san_with(&pos, mv, &legal);
        if k == 0 {
            first = Some(s.clone());
        }
        if pos.turn() == Color::White {
            parts.push(format!("{}. {s}", pos.fullmoves()));
        } else if k == 0 {
            parts.push(format!("{}... {s}", pos.fullmoves()));
        } else {
            parts.push(s);
        }
        pos.play_unchecked(mv);
        if pos.outcome().is_some() {
            break;
        }
    }
    first.map(|f| (f, format!("( {} )", parts.join(" "))))
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
        limits,
        hash: a.hash,
        tablebases,
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
    fn analyse_thresholds() {
        assert_eq!(Judgement::from_loss(0.0), Judgement::Good);
        assert_eq!(Judgement::from_loss(0.099), Judgement::Good);
        assert_eq!(Judgement::from_loss(0.10), Judgement::Inaccuracy);
        assert_eq!(Judgement::from_loss(0.199), Judgement::Inaccuracy);
        assert_eq!(Judgement::from_loss(0.20), Judgement::Mistake);
        assert_eq!(Judgement::from_loss(0.30), Judgement::Blunder);
        assert_eq!(Judgement::from_loss(1.0).nag(), "??");
        assert_eq!(Judgement::Mistake.nag(), "?");
        assert_eq!(Judgement::Inaccuracy.nag(), "?!");
    }

    #[test]
    fn analyse_win_probability() {
        assert!((expected_score(0) - 0.5).abs() < 1e-12);
        assert!((expected_score(100) + expected_score(-100) - 1.0).abs() < 1e-12);
        assert!((expected_score(100) - 0.591).abs() < 0.001);
        assert_eq!(expected_score(MATE_SCORE - 3), 1.0);
        assert_eq!(expected_score(-MATE_SCORE + 4), 0.0);
        // Hanging a queen from equality is a blunder; a pawn at +5 is not even an inaccuracy.
        let mut s = PlayerStats::default();
        assert_eq!(s.add(0, -900), Judgement::Blunder);
        assert_eq!(s.add(500, 400), Judgement::Good);
        assert_eq!(s.add(0, -120), Judgement::Inaccuracy);
        assert_eq!(s.cp_loss, 900 + 100 + 120);
    }

    #[test]
    fn analyse_eval_formatting() {
        assert_eq!(format_eval(35), "0.35");
        assert_eq!(format_eval(-120), "-1.20");
        assert_eq!(format_eval(0), "0.00");
        assert_eq!(format_eval(MATE_SCORE - 5), "#3");
        assert_eq!(format_eval(-(MATE_SCORE - 4)), "#-2");
        assert_eq!(format_eval(MATE_SCORE), "#0");
        assert_eq!(format_eval(-MATE_SCORE), "#-0");
        assert_eq!(format_eval(mysl_engine::score::TB_WIN - 1), "100.00");
        assert_eq!(format_eval(-mysl_engine::score::TB_WIN + 3), "-100.00");
    }

    #[test]
    fn analyse_accuracy() {
        let mut perfect = PlayerStats::default();
        for s in [0, 30, -50, 400, MATE_SCORE - 3] {
            perfect.add(s, s);
        }
        assert_eq!(perfect.accuracy(), 100.0);
        assert_eq!(perfect.acpl(), 0);
        assert_eq!(PlayerStats::default().accuracy(), 100.0);
        assert_eq!(move_accuracy(50.0, 60.0), 100.0);
        assert!((move_accuracy(50.0, 40.0) - 63.6).abs() < 0.1);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
        // Mates count as the centipawn cap.
        let mut s = PlayerStats::default();
        s.add(MATE_SCORE - 1, 0);
        assert_eq!(s.acpl(), i64::from(CP_CAP));
        assert_eq!(s.blunders, 1);
    }

    #[test]
    fn analyse_comments() {
        assert_eq!(
            clock_commands(" [%clk 0:01:02] [%eval 0.3] x [%clk 1:00:00]"),
            vec!["[%clk 0:01:02]", "[%clk 1:00:00]"]
        );
        assert!(clock_commands("no clock").is_empty());
        assert_eq!(move_comment("0.35", &[], None), "{ [%eval 0.35] }");
        assert_eq!(
            move_comment("#-2", &["[%clk 0:00:09]".to_string()], Some("Blunder. Qe7 was best.")),
            "{ [%eval #-2] [%clk 0:00:09] Blunder. Qe7 was best. }"
        );
        assert_eq!(escape_tag("a \"b\" \\"), "a \\\"b\\\" \\\\");
    }
}
