//! The protocol-independent engine session: current game (variant, start FEN, moves), options, the
//! transposition table, and a search running on its own thread so the protocol loop keeps answering.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use mysl_book::Book;
use mysl_core::{dispatch_variant, uci, CastlingMode, Move, Position, Rules, Variant};
use mysl_engine::skill::{self, Skill};
use mysl_engine::{Histories, Limits, Network, SearchInfo, SearchResult, Searcher, Tablebases, TranspositionTable};

/// Where protocol output lines go (stdout in the binary, a buffer in tests).
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// A game as protocols describe it: variant, start position and the moves played since.
#[derive(Clone, Debug)]
pub struct Game {
    pub variant: Variant,
    pub fen: String,
    pub moves: Vec<String>,
    pub chess960: bool,
}

impl Game {
    pub fn new(variant: Variant) -> Game {
        Game { variant, fen: mysl_core::STARTING_FEN.to_string(), moves: Vec::new(), chess960: false }
    }

    /// Builds the position, checking the FEN and every move.
    pub fn position<R: Rules>(&self) -> Result<Position<R>, String> {
        let mut pos = Position::<R>::from_fen(&self.fen).map_err(|e| e.to_string())?;
        if self.chess960 {
            pos.set_castling_mode(CastlingMode::Chess960);
        }
        for text in &self.moves {
            let mv =
                uci::parse_uci_move(&pos, text).map_err(|e| format!("{e} (after {} moves)", pos.ply_from_setup()))?;
            pos.play_unchecked(mv);
        }
        Ok(pos)
    }

    /// Checks that the game can be set up (used before replacing the current one).
    pub fn validate(&self) -> Result<(), String> {
        dispatch_variant!(self.variant, R => self.position::<R>().map(|_| ()))
    }

    /// The side to move is White.
    pub fn white_to_move(&self) -> bool {
        dispatch_variant!(self.variant, R => self.position::<R>().map(|p| p.turn().is_white()).unwrap_or(true))
    }

    /// A castling move written `O-O` or `O-O-O` (as xboard sends castling in Chess960) as the legal
    /// move's UCI text; `None` for any other text or when that castling is not legal.
    pub fn castling_to_uci(&self, text: &str) -> Option<String> {
        if !matches!(text, "O-O" | "O-O-O" | "0-0" | "0-0-0") {
            return None;
        }
        dispatch_variant!(self.variant, R => {
            let p = self.position::<R>().ok()?;
            let mv = mysl_core::san::parse_san(&p, text).ok()?;
            Some(uci::move_to_uci(&p, mv))
        })
    }

    /// The legal moves in UCI text (for xboard's move checking and tests).
    pub fn legal_moves(&self) -> Vec<String> {
        dispatch_variant!(self.variant, R => match self.position::<R>() {
            Ok(p) => p.legal_moves().iter().map(|m| uci::move_to_uci(&p, m)).collect(),
            Err(_) => Vec::new(),
        })
    }

    /// The game result if it is over (`1-0`, `0-1`, `1/2-1/2`) with a reason.
    pub fn result(&self) -> Option<(String, String)> {
        dispatch_variant!(self.variant, R => {
            let p = self.position::<R>().ok()?;
            p.outcome_with_draw_rules().map(|o| {
                let reason = match o {
                    mysl_core::Outcome::Decisive { winner, reason } => format!("{} wins by {reason}", if winner.is_white() { "White" } else { "Black" }),
                    mysl_core::Outcome::Draw { reason } => format!("draw by {reason}"),
                };
                (o.result_str().to_string(), reason)
            })
        })
    }
}

/// Receives search progress in protocol terms.
pub trait Reporter: Send + Sync + 'static {
    /// A completed iteration; `pv` is in UCI move text.
    fn info(&self, info: &SearchInfo, pv: &[String]);
    /// A remark for the user (UCI `info string`, xboard `#` comment).
    fn note(&self, _text: &str) {}
    /// The search ended.
    fn done(&self, result: &SearchResult, best: Option<String>, ponder: Option<String>);
}

/// Options shared by the protocols.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead: Duration,
    /// Play book moves (only in timed searches: clock or movetime, not depth/nodes/mate/infinite).
    pub own_book: bool,
    /// `<default>` (the book built into mysl) or a Polyglot `.bin` / mysl `.mbk` path.
    pub book_file: String,
    /// Use the book for the first this many plies of a game.
    pub book_depth: usize,
    /// 0–100: 0 favours main lines, 50 follows the weights, 100 picks any book move alike.
    pub book_variety: u32,
    /// Syzygy directories (`DIR1:DIR2`), empty for none.
    pub syzygy_path: String,
    /// A directory of mysl's own tables (`mysl tb gen`), empty for none.
    pub tablebase_path: String,
    /// Probe the tables only with at most this many pieces (kings included).
    pub syzygy_probe_limit: usize,
    /// `<internal>` (the network built into mysl, if any) or a `.nnue` path.
    pub eval_file: String,
    /// Evaluate orthodox chess with the network (when there is one); else the hand-crafted evaluation.
    pub use_nnue: bool,
    /// Play at the strength of `elo` (`UCI_LimitStrength`); see `mysl_engine::skill`.
    pub limit_strength: bool,
    /// `UCI_Elo`: the level when `limit_strength` is on.
    pub elo: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: Duration::from_millis(30),
            own_book: false,
            book_file: DEFAULT_BOOK_NAME.to_string(),
            book_depth: 20,
            book_variety: 50,
            syzygy_path: String::new(),
            tablebase_path: String::new(),
            syzygy_probe_limit: 7,
            eval_file: DEFAULT_EVAL_FILE.to_string(),
            use_nnue: true,
            limit_strength: false,
            elo: skill::DEFAULT_ELO,
        }
    }
}

/// The `BookFile` value that names the book built into mysl.
pub const DEFAULT_BOOK_NAME: &str = "<default>";

/// The `EvalFile` value that names the network built into mysl (if any).
pub const DEFAULT_EVAL_FILE: &str = "<internal>";

/// Bounds for a session fed untrusted input (fuzzing, tests): none by default. The protocols' own
/// limits (Hash up to 64 GiB, 256 threads, perft depth 64) suit a user who asks for them, not a
/// command stream that must finish in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Sandbox {
    /// Every search (and `bench`) stops after at most this many nodes per position.
    pub max_nodes: Option<u64>,
    /// The hash table has at most this many MiB.
    pub max_hash_mb: Option<usize>,
    /// At most this many search threads.
    pub max_threads: Option<usize>,
    /// `go perft N` and `bench N` run at most this deep.
    pub max_depth: Option<u32>,
    /// Options that name files (books, tablebases, networks) are refused.
    pub no_files: bool,
}

/// The engine behind a protocol.
pub struct Session {
    pub game: Game,
    pub options: Options,
    /// Bounds on what the input may ask for ([`Sandbox`]; none by default).
    pub sandbox: Sandbox,
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
    /// Set while a `go ponder` search waits for `ponderhit`.
    pub pondering: Arc<Mutex<Option<Limits>>>,
    /// The running search has no end of its own (`go infinite`, `go ponder`, analysis).
    infinite: bool,
    /// The opening book, loaded when first needed.
    book: Option<Arc<Book>>,
    /// Endgame tables from `SyzygyPath` and `TablebasePath`.
    tablebases: Option<Arc<Tablebases>>,
    /// The network from `EvalFile` (`None`: the hand-crafted evaluation).
    network: Option<Arc<Network>>,
    /// Searches played with `limit_strength` on; mixed into each level's seed.
    skill_moves: u64,
    /// What the main search thread learnt for move ordering, handed to the next search of the game.
    histories: Arc<Mutex<Option<Box<Histories>>>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("game", &self.game).field("options", &self.options).finish()
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        Session::sandboxed(Sandbox::default())
    }

    /// A session whose input is bounded by `sandbox`.
    pub fn sandboxed(sandbox: Sandbox) -> Session {
        let mut options = Options::default();
        options.hash_mb = options.hash_mb.min(sandbox.max_hash_mb.unwrap_or(usize::MAX)).max(1);
        Session {
            game: Game::new(Variant::Chess),
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            options,
            sandbox,
            stop: Arc::new(AtomicBool::new(false)),
            worker: None,
            pondering: Arc::new(Mutex::new(None)),
            infinite: false,
            book: None,
            tablebases: None,
            network: mysl_engine::default_network(),
            skill_moves: 0,
            histories: Arc::new(Mutex::new(None)),
        }
    }

    /// Sets `EvalFile` (`<internal>` or empty: the built-in network, if any) and loads it now; on error
    /// the previous network stays. Returns a note on what evaluates from now on.
    pub fn set_eval_file(&mut self, path: &str) -> Result<String, String> {
        let internal = path.is_empty() || path == DEFAULT_EVAL_FILE;
        if !internal {
            self.check_files()?;
        }
        let network = if internal {
            mysl_engine::default_network()
        } else {
            Some(Arc::new(Network::load(path).map_err(|e| e.to_string())?))
        };
        self.stop_search();
        let name = if internal { DEFAULT_EVAL_FILE } else { path };
        let note = match &network {
            Some(n) => format!(
                "NNUE evaluation using {name} (hidden size {}, {})",
                n.hidden(),
                if n.uses_simd() { "AVX2" } else { "scalar" }
            ),
            None => format!("{name}: no network is built into this mysl; the hand-crafted evaluation plays"),
        };
        self.network = network;
        self.options.eval_file = name.to_string();
        Ok(note)
    }

    /// The network searches use: `EvalFile`'s, unless `Use NNUE` is off.
    pub fn active_network(&self) -> Option<Arc<Network>> {
        if self.options.use_nnue {
            self.network.clone()
        } else {
            None
        }
    }

    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Resizes the hash table (waits for a running search first).
    pub fn set_hash(&mut self, mb: usize) {
        self.stop_search();
        self.options.hash_mb = mb.clamp(1, 65536).min(self.sandbox.max_hash_mb.unwrap_or(usize::MAX)).max(1);
        self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb));
    }

    /// Clears the hash table and the move-ordering statistics (`ucinewgame`, `Clear Hash`).
    pub fn clear_hash(&mut self) {
        self.stop_search();
        self.tt.clear();
        self.forget_histories();
    }

    /// A new game: the next search starts without the move-ordering statistics of this one.
    pub fn forget_histories(&mut self) {
        self.stop_search();
        if let Ok(mut h) = self.histories.lock() {
            *h = None;
        }
    }

    /// Sets `BookFile` and loads it now, so a bad file is reported at once; the old book stays on error.
    pub fn set_book_file(&mut self, path: &str) -> Result<(), String> {
        if !(path.is_empty() || path == DEFAULT_BOOK_NAME) {
            self.check_files()?;
        }
        let book =
            if path.is_empty() || path == DEFAULT_BOOK_NAME { mysl_book::default_book() } else { Book::open(path) }
                .map_err(|e| e.to_string())?;
        self.book = Some(Arc::new(book));
        self.options.book_file = if path.is_empty() { DEFAULT_BOOK_NAME.to_string() } else { path.to_string() };
        Ok(())
    }

    /// Sets `SyzygyPath` (empty or `<empty>`: none) and reopens the tables; the old ones stay on error.
    pub fn set_syzygy_path(&mut self, path: &str) -> Result<String, String> {
        let path = if path == "<empty>" { "" } else { path };
        let tablebase_path = self.options.tablebase_path.clone();
        self.load_tablebases(path, &tablebase_path)
    }

    /// Sets `TablebasePath` (our own tables; empty or `<empty>`: none) and reopens the tables.
    pub fn set_tablebase_path(&mut self, path: &str) -> Result<String, String> {
        let path = if path == "<empty>" { "" } else { path };
        let syzygy_path = self.options.syzygy_path.clone();
        self.load_tablebases(&syzygy_path, path)
    }

    /// Refuses a file option in a sandbox that allows none.
    fn check_files(&self) -> Result<(), String> {
        if self.sandbox.no_files {
            Err("files are not opened in this session".to_string())
        } else {
            Ok(())
        }
    }

    /// The depth of `go perft N` or `bench N` within the sandbox.
    pub fn bounded_depth(&self, depth: u32) -> u32 {
        depth.min(self.sandbox.max_depth.unwrap_or(u32::MAX))
    }

    fn load_tablebases(&mut self, syzygy: &str, ours: &str) -> Result<String, String> {
        if !(syzygy.is_empty() && ours.is_empty()) {
            self.check_files()?;
        }
        self.stop_search();
        let mut tb = Tablebases::new();
        let mut notes = Vec::new();
        if !syzygy.is_empty() {
            let n = tb.add_syzygy_path(syzygy).map_err(|e| e.to_string())?;
            notes.push(format!("{n} Syzygy files"));
        }
        if !ours.is_empty() {
            let n = tb.set_ours(std::path::Path::new(ours)).map_err(|e| e.to_string())?;
            notes.push(format!("{n} mysl tables"));
        }
        self.options.syzygy_path = syzygy.to_string();
        self.options.tablebase_path = ours.to_string();
        let max = tb.max_pieces();
        self.tablebases = (!tb.is_empty()).then(|| Arc::new(tb));
        Ok(if notes.is_empty() {
            "no tablebases".to_string()
        } else {
            format!("tablebases: {}, up to {max} pieces", notes.join(", "))
        })
    }

    /// A book move for the current position, if the book has one (UCI text and a note on it).
    pub fn book_move(&mut self) -> Option<(String, String)> {
        if self.game.moves.len() >= self.options.book_depth {
            return None;
        }
        if self.book.is_none() {
            let file = self.options.book_file.clone();
            self.set_book_file(&file).ok()?;
        }
        let book = self.book.clone()?;
        if book.variant().unwrap_or(Variant::Chess) != self.game.variant {
            return None;
        }
        dispatch_variant!(self.game.variant, R => {
            let pos = self.game.position::<R>().ok()?;
            let moves = book.probe(&pos);
            let random = random_unit();
            let mv = mysl_book::choose_move(&moves, self.options.book_variety, random)?;
            let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
            let weight = moves.iter().find(|m| m.mv == mv).map_or(0, |m| m.weight);
            let text = uci::move_to_uci(&pos, mv);
            let note = format!(
                "book move {text} (weight {weight}, {:.1}% of {} book moves)",
                100.0 * f64::from(weight) / total.max(1) as f64,
                moves.len()
            );
            Some((text, note))
        })
    }

    /// Starts searching the current game on a new thread.
    pub fn go(&mut self, limits: Limits, reporter: Arc<dyn Reporter>) {
        self.stop_search();
        let timed = limits.clock.is_some() || limits.movetime.is_some();
        let analysis = limits.infinite
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some()
            || !limits.searchmoves.is_empty();
        if self.options.own_book && timed && !analysis {
            if let Some((mv, note)) = self.book_move() {
                reporter.note(&note);
                self.infinite = false;
                reporter.done(&SearchResult::default(), Some(mv), None);
                return;
            }
        }
        self.stop.store(false, Ordering::Relaxed);
        let game = self.game.clone();
        let tt = self.tt.clone();
        let stop = self.stop.clone();
        let mut limits = limits;
        self.infinite = limits.infinite;
        limits.multipv = self.options.multipv.max(1);
        limits.move_overhead = self.options.move_overhead;
        if let Some(cap) = self.sandbox.max_nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        let mut threads = self.options.threads.clamp(1, self.sandbox.max_threads.unwrap_or(usize::MAX).max(1));
        let level = self.options.limit_strength.then(|| {
            // A strength level (its nodes and lines are applied by `skill::search_at_level`): one
            // thread, and a seed from the game and the moves played at a level so far.
            threads = 1;
            self.skill_moves += 1;
            (Skill::new(self.options.elo), skill_seed(&game, self.skill_moves))
        });
        let knowledge = Knowledge {
            tablebases: self.tablebases.clone(),
            tb_limit: self.options.syzygy_probe_limit,
            network: self.active_network(),
            level,
            histories: self.histories.clone(),
        };
        self.worker = Some(std::thread::spawn(move || {
            dispatch_variant!(game.variant, R => run_search::<R>(&game, tt, stop, &limits, reporter.as_ref(), threads, &knowledge));
        }));
    }

    /// Stops a running search and waits for its `bestmove`.
    pub fn stop_search(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    /// Waits for a running search to finish by itself.
    pub fn wait(&mut self) {
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    /// At the end of input: a search with a limit may finish, an endless one is stopped.
    pub fn finish(&mut self) {
        if self.infinite {
            self.stop_search();
        } else {
            self.wait();
        }
    }

    /// The stop flag (a `ponderhit` timer sets it).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }
}

fn pv_text<R: Rules>(pos: &Position<R>, pv: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !p.is_legal(mv) {
            break;
        }
        out.push(uci::move_to_uci(&p, mv));
        p.play_unchecked(mv);
    }
    out
}

/// What every searcher of a `go` gets besides the position: tables and the network.
#[derive(Clone)]
struct Knowledge {
    tablebases: Option<Arc<Tablebases>>,
    tb_limit: usize,
    network: Option<Arc<Network>>,
    /// The strength level and its seed (`UCI_LimitStrength`), if on.
    level: Option<(Skill, u64)>,
    /// The main thread's move-ordering statistics from the game's previous search, and for the next.
    histories: Arc<Mutex<Option<Box<Histories>>>>,
}

impl Knowledge {
    fn apply<R: Rules>(self, searcher: &mut Searcher<R>) {
        searcher.set_tablebases(self.tablebases, self.tb_limit);
        searcher.set_network(self.network);
    }
}

fn run_search<R: Rules>(
    game: &Game,
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
    limits: &Limits,
    reporter: &dyn Reporter,
    threads: usize,
    knowledge: &Knowledge,
) {
    let level = knowledge.level;
    let pos = match game.position::<R>() {
        Ok(p) => p,
        Err(_) => {
            reporter.done(&SearchResult::default(), None, None);
            return;
        }
    };
    // Lazy SMP: helper threads search the same position and share only the hash table; the main
    // thread reports and decides. Helpers start one ply deeper on every other thread to diversify.
    let helper_stop = Arc::new(AtomicBool::new(false));
    let helpers: Vec<_> = (1..threads)
        .map(|i| {
            let (pos, tt, stop, helper_stop) = (pos.clone(), tt.clone(), stop.clone(), helper_stop.clone());
            let knowledge = knowledge.clone();
            let mut limits = limits.clone();
            limits.multipv = 1;
            limits.depth = limits.depth.map(|d| d + (i % 2) as i32);
            std::thread::spawn(move || {
                let flag = Arc::new(AtomicBool::new(false));
                let watcher = {
                    let flag = flag.clone();
                    std::thread::spawn(move || {
                        while !stop.load(Ordering::Relaxed) && !helper_stop.load(Ordering::Relaxed) {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                        flag.store(true, Ordering::Relaxed);
                    })
                };
                let mut searcher = Searcher::<R>::new(tt, flag);
                knowledge.apply(&mut searcher);
                let _ = searcher.search(&pos, &limits, |_| {});
                let _ = watcher.join();
            })
        })
        .collect();
    let mut searcher = Searcher::<R>::new(tt, stop.clone());
    if let Some(h) = knowledge.histories.lock().ok().and_then(|mut h| h.take()) {
        searcher.set_histories(h);
    }
    knowledge.clone().apply(&mut searcher);
    let on_info = |info: &SearchInfo| reporter.info(info, &pv_text(&pos, &info.pv));
    let (result, level_note) = match level {
        Some((skill, seed)) => skill::search_at_level(&mut searcher, &pos, limits, skill, seed, on_info),
        None => (searcher.search(&pos, limits, on_info), None),
    };
    // `go infinite` and `go ponder` never answer before `stop` (or `ponderhit`'s timer).
    if limits.infinite {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    if let Ok(mut h) = knowledge.histories.lock() {
        *h = Some(searcher.take_histories());
    }
    helper_stop.store(true, Ordering::Relaxed);
    for h in helpers {
        let _ = h.join();
    }
    if let Some(note) = level_note {
        reporter.note(&note);
    }
    let best = result.best.map(|m| uci::move_to_uci(&pos, m));
    let ponder = match (result.best, result.ponder) {
        (Some(b), Some(p)) => {
            let mut after = pos.clone();
            after.play_unchecked(b);
            after.is_legal(p).then(|| uci::move_to_uci(&after, p))
        }
        _ => None,
    };
    reporter.done(&result, best, ponder);
}

/// A strength level's seed: the game's text (variant, start, moves) and the count of level moves.
fn skill_seed(game: &Game, count: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let text = format!("{} {} {}", game.variant.name(), game.fen, game.moves.join(" "));
    for byte in text.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash ^ count.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// A uniform number in [0, 1) for book choices: the clock's nanoseconds, mixed (SplitMix64).
fn random_unit() -> f64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut z = nanos.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}
