//! mysl-web: the local web UI. An axum server with the page embedded in the binary: play any variant
//! against a person or the engine, analyse with the engine over a WebSocket, explore the opening
//! book, probe the endgame tablebases, solve chess problems, set up positions and see a game's evaluation
//! graph. See `docs/web.md` for the API and the security choices.
//!
//! The server is the referee: every move is checked by mysl-core, the page only ever offers the legal
//! moves the server sent, the die of dice chess is rolled here, and file paths (the book, the tables)
//! come only from the command line.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let config = mysl_web::Config::default();
//! let listener = tokio::net::TcpListener::bind((config.host.as_str(), config.port)).await?;
//! mysl_web::serve(listener, config).await
//! # }
//! ```

pub mod assets;
pub mod engine;
pub mod game;
pub mod games;
mod routes;
pub mod slots;
pub mod solver;
pub mod tablebase;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use games::{Games, SharedGame};

use mysl_engine::TranspositionTable;

pub use routes::{router, Connection};

/// Largest JSON request body (a PGN import is the largest request).
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Largest WebSocket message from the page.
pub const MAX_WS_MESSAGE_BYTES: usize = 16 * 1024;
/// Games kept in memory; the least recently used is dropped beyond this. Room for the load test's 200 concurrent
/// games (docs/reliability.md); a game is a few KiB (its moves), so the bound is on memory, not a quota.
pub const MAX_GAMES: usize = 256;

/// How the server was started (from the command line).
#[derive(Debug)]
pub struct Config {
    pub host: String,
    pub port: u16,
    /// The opening book: the built-in default book unless the command line names a file.
    pub book: Option<mysl_book::Book>,
    /// Where the book came from, for the page ("built-in" or the file name).
    pub book_name: String,
    /// Endgame tables (`--tb DIR`), if any.
    pub tablebase: Option<tablebase::Tablebases>,
    /// The most analyses (infinite and whole-game, over the WebSocket) searching at once; more wait in
    /// a queue ([`slots`]). `None`: the number of cores.
    pub max_analyses: Option<usize>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".to_string(),
            port: 8080,
            book: mysl_book::default_book().ok(),
            book_name: "built-in".into(),
            tablebase: None,
            max_analyses: None,
        }
    }
}

/// Bounds for a server whose requests are untrusted and must be answered at once, in process (the
/// fuzzer, `crates/fuzz-entry`): every engine search is cut to a node count, the transposition tables
/// are small, problem solving is capped, and book moves come without the page's short pause. The
/// default bounds nothing (the server as `mysl web` runs it).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sandbox {
    /// The most nodes of any engine search: engine moves, draw offers, the evaluation graph, analysis
    /// over the WebSocket (then no longer infinite) and game analysis.
    pub max_nodes: Option<u64>,
    /// Size (MiB) of the server's transposition tables and of each game analysis's table.
    pub hash_mb: Option<usize>,
    /// The most nodes of a problem solve, and its time.
    pub solve_nodes: Option<u64>,
    pub solve_time: Option<std::time::Duration>,
}

impl Sandbox {
    /// `nodes` cut to the sandbox's bound.
    pub fn nodes(&self, nodes: Option<u64>) -> Option<u64> {
        match (nodes, self.max_nodes) {
            (Some(n), Some(m)) => Some(n.min(m)),
            (n, m) => n.or(m),
        }
    }

    /// Whether the sandbox bounds anything.
    pub fn is_active(&self) -> bool {
        self.max_nodes.is_some() || self.hash_mb.is_some() || self.solve_nodes.is_some() || self.solve_time.is_some()
    }
}

/// Shared server state.
#[derive(Debug)]
pub struct AppState {
    /// The games, each behind its own lock: this map's lock is held only to look one up, add or drop
    /// one ([`games`]). Use [`AppState::game`].
    pub games: Mutex<Games>,
    pub next_id: Mutex<u64>,
    pub book: Option<mysl_book::Book>,
    pub book_name: String,
    /// Host names (with and without the port) the server answers to.
    pub allowed_hosts: Vec<String>,
    pub engine_tt: Arc<TranspositionTable>,
    pub analysis_tt: Arc<TranspositionTable>,
    /// Tells WebSockets that a game changed: (game id, version).
    pub changes: tokio::sync::broadcast::Sender<(u64, u64)>,
    pub rng: Mutex<game::Random>,
    pub tablebase: Option<Arc<tablebase::Tablebases>>,
    /// Problem-solving jobs by id.
    pub solve_jobs: Mutex<BTreeMap<u64, solver::SolveJob>>,
    pub next_solve_id: Mutex<u64>,
    /// Bounds for untrusted in-process use ([`Sandbox::default`]: none).
    pub sandbox: Sandbox,
    /// The analyses searching now and those waiting ([`Config::max_analyses`]).
    pub analyses: Arc<slots::AnalysisSlots>,
}

impl AppState {
    /// The state for a server listening on `port` (0 before binding is fine for tests that set hosts).
    pub fn new(config: Config, port: u16) -> Arc<AppState> {
        AppState::sandboxed(config, port, Sandbox::default())
    }

    /// [`AppState::new`] with bounds on every search and solve (see [`Sandbox`]).
    pub fn sandboxed(config: Config, port: u16, sandbox: Sandbox) -> Arc<AppState> {
        let mut allowed = Vec::new();
        let host = config.host.trim_start_matches('[').trim_end_matches(']').to_string();
        for name in ["localhost", "127.0.0.1", "[::1]", host.as_str()] {
            let name =
                if name.contains(':') && !name.starts_with('[') { format!("[{name}]") } else { name.to_string() };
            allowed.push(format!("{name}:{port}"));
            allowed.push(name);
        }
        let (changes, _) = tokio::sync::broadcast::channel(256);
        Arc::new(AppState {
            games: Mutex::new(Games::new(MAX_GAMES)),
            next_id: Mutex::new(1),
            book: config.book,
            book_name: config.book_name,
            allowed_hosts: allowed,
            engine_tt: Arc::new(TranspositionTable::new(sandbox.hash_mb.unwrap_or(32))),
            analysis_tt: Arc::new(TranspositionTable::new(sandbox.hash_mb.unwrap_or(32))),
            changes,
            rng: Mutex::new(game::Random::from_time()),
            tablebase: config.tablebase.map(Arc::new),
            solve_jobs: Mutex::new(BTreeMap::new()),
            next_solve_id: Mutex::new(1),
            sandbox,
            analyses: slots::AnalysisSlots::new(config.max_analyses.unwrap_or_else(slots::AnalysisSlots::default_max)),
        })
    }

    /// Game `id` for a client's request (it becomes the most recently used), the map's lock held only
    /// for the look-up.
    pub fn game(&self, id: u64) -> Option<SharedGame> {
        lock(&self.games).get(id)
    }

    /// Game `id` for the server's own work (an engine move, a finished analysis): not counted as a use.
    pub fn peek_game(&self, id: u64) -> Option<SharedGame> {
        lock(&self.games).peek(id)
    }

    /// Stops every engine search of every game and every running solve (their results are thrown
    /// away). Analyses started over a WebSocket stop with their socket ([`Connection::close`]).
    /// What runs on other threads ends soon after; each holds the state until then.
    pub fn shutdown(&self) {
        let games = lock(&self.games).all();
        for g in games {
            engine::cancel(&mut lock(&g));
        }
        for job in lock(&self.solve_jobs).values_mut() {
            job.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// Serves the UI on a bound listener until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    let state = AppState::new(config, port);
    axum::serve(listener, router(state)).await
}

/// Locks a mutex, recovering the data if a thread panicked while holding it (the game model keeps
/// no half-done updates across a panic point).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
