//! The engine in the web UI: moves for engine players (book first, then search) and infinite
//! analysis streamed to a WebSocket. Searches run on their own threads with a stop flag, as the UCI
//! session runs them, so the async server never blocks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mysl_core::{dispatch_variant, san, uci, Position, Rules};
use mysl_engine::score::mate_in;
use mysl_engine::skill::{search_at_level, Skill};
use mysl_engine::{Limits, Searcher};
use serde_json::{json, Value};

use crate::game::{book_for, parse_fen, Eval, Game, Player};
use crate::{lock, AppState};

/// One of the page's engine levels.
#[derive(Clone, Copy, Debug)]
pub struct Level {
    /// Shown beside the level number.
    pub label: &'static str,
    /// The strength level (`UCI_Elo` on Stockfish 15.1's scale, `mysl_engine::skill`), or `None` for
    /// the full engine.
    pub elo: Option<u32>,
    /// Thinking time a move without a clock (a level's node limit usually ends it sooner).
    pub movetime_ms: u64,
}

/// The page's levels: 1-7 are the calibrated strength levels of UCI's `UCI_Elo` (docs/levels.md),
/// from Stockfish's weakest level to the full engine (which the calibration puts at 2250); 8 is the
/// full engine with more time, not calibrated.
pub const LEVELS: [Level; 8] = [
    Level { label: "1350 Elo", elo: Some(1350), movetime_ms: 1000 },
    Level { label: "1500 Elo", elo: Some(1500), movetime_ms: 1000 },
    Level { label: "1650 Elo", elo: Some(1650), movetime_ms: 1000 },
    Level { label: "1800 Elo", elo: Some(1800), movetime_ms: 1000 },
    Level { label: "1950 Elo", elo: Some(1950), movetime_ms: 1000 },
    Level { label: "2100 Elo", elo: Some(2100), movetime_ms: 1000 },
    Level { label: "2250 Elo: full strength, 1 s", elo: None, movetime_ms: 1000 },
    Level { label: "full strength, 5 s", elo: None, movetime_ms: 5000 },
];

/// The calibrated Elo of each level, `None` where it is not measured (level 8).
pub fn level_elos() -> [Option<u32>; 8] {
    let mut elos = LEVELS.map(|l| l.elo);
    elos[6] = Some(mysl_engine::skill::FULL_ENGINE_ELO);
    elos
}

/// The level `level` (1-8, clamped).
pub fn level(level: u8) -> Level {
    LEVELS[(level.clamp(1, 8) - 1) as usize]
}

/// The search limits for a level; with a clock the engine also manages its time. A strength level's
/// own limits are added by `skill::search_at_level`.
pub fn level_limits(level: u8, clock: Option<(Duration, Duration)>) -> Limits {
    let mut limits = Limits { multipv: 1, move_overhead: Duration::from_millis(100), ..Limits::default() };
    match clock {
        Some((left, inc)) => limits.clock = Some((left, inc, None)),
        None => limits.movetime = Some(Duration::from_millis(self::level(level).movetime_ms)),
    }
    limits
}

/// Starts the engine for game `id` if an engine is to move and none is thinking yet.
pub fn maybe_start(state: &Arc<AppState>, id: u64) {
    // Looked up again by id (not a use): a game dropped from the map meanwhile gets no engine.
    let Some(game) = state.peek_game(id) else { return };
    let mut g = lock(&game);
    if g.result.is_some() || g.engine_stop.is_some() {
        return;
    }
    let turn = g.turn();
    if g.players[turn as usize] != Player::Engine {
        return;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let clock = g.clock.as_ref().map(|c| (c.remaining[turn as usize].saturating_sub(c.since.elapsed()), c.increment));
    let mut limits = level_limits(g.level, clock);
    limits.nodes = state.sandbox.nodes(limits.nodes);
    let skill = level(g.level).elo.map(|elo| (Skill::new(elo), lock(&state.rng).next_u64()));
    let version = g.version;
    let random = lock(&state.rng).unit();
    let started = dispatch_variant!(g.variant, R => {
        match g.position::<R>() {
            Ok(pos) => {
                let state2 = state.clone();
                let stop2 = stop.clone();
                std::thread::Builder::new()
                    .name(format!("engine-game-{id}"))
                    .spawn(move || {
                        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            think::<R>(&state2, &pos, &limits, skill, stop2.clone(), random)
                        }));
                        let white = pos.turn().is_white();
                        let outcome = outcome.map(|m| m.map(|(mv, eval)| {
                            (mv, eval.map(|(score, depth)| Eval { score: if white { score } else { -score }, engine: true, depth }))
                        }));
                        finish_move(&state2, id, version, &stop2, outcome.map_err(|_| ()));
                    })
                    .is_ok()
            }
            Err(_) => false,
        }
    });
    if started {
        g.engine_stop = Some(stop);
        g.version += 1;
        let _ = state.changes.send((id, g.version));
    }
}

fn think<R: Rules>(
    state: &AppState,
    pos: &Position<R>,
    limits: &Limits,
    skill: Option<(Skill, u64)>,
    stop: Arc<AtomicBool>,
    random: f64,
) -> Option<(String, Option<(i32, i32)>)> {
    if let Some(book) = book_for::<R>(state.book.as_ref()) {
        let moves = book.probe(pos);
        if let Some(mv) = mysl_book::choose_move(&moves, 50, random) {
            // A short pause so a book move does not appear before the page has drawn the last one.
            if !state.sandbox.is_active() {
                std::thread::sleep(Duration::from_millis(150));
            }
            return Some((uci::move_to_uci(pos, mv), None));
        }
    }
    let mut searcher = Searcher::<R>::new(state.engine_tt.clone(), stop);
    searcher.set_tablebases(engine_tablebases(state), TB_PROBE_LIMIT);
    let result = match skill {
        Some((skill, seed)) => search_at_level(&mut searcher, pos, limits, skill, seed, |_| {}).0,
        None => searcher.search(pos, limits, |_| {}),
    };
    // The score of the position before the move, for the mover = the score after its best move.
    result.best.map(|mv| (uci::move_to_uci(pos, mv), Some((result.score, result.depth))))
}

/// Plays the engine's move if the game still waits for it. `Err` = the search panicked: the game
/// is stopped with that reason rather than left waiting for ever.
fn finish_move(
    state: &Arc<AppState>,
    id: u64,
    version: u64,
    stop: &Arc<AtomicBool>,
    mv: Result<Option<(String, Option<Eval>)>, ()>,
) {
    {
        let Some(game) = state.peek_game(id) else { return };
        let mut g = lock(&game);
        // Only the search this game is waiting for may move; a takeback or new start cancelled older ones.
        if !g.engine_stop.as_ref().is_some_and(|s| Arc::ptr_eq(s, stop)) {
            return;
        }
        g.engine_stop = None;
        if mv.is_err() {
            g.result = Some(crate::game::GameEnd {
                result: "*".into(),
                reason: "stopped: the engine failed (a bug; please report it)".into(),
            });
        }
        // Not the stop flag: the search raises it itself when its node or time limit runs out, and a
        // cancelled search was told apart above (`cancel` takes `engine_stop`).
        if g.version == version + 1 {
            if let Ok(Some((mv, eval))) = mv {
                let mut rng = lock(&state.rng);
                if g.play(&mv, state.book.as_ref(), &mut rng).is_ok() {
                    if let Some(ply) = g.moves.last_mut() {
                        ply.eval = eval;
                    }
                }
            }
        }
        g.check_flag();
        g.version += 1;
        let _ = state.changes.send((id, g.version));
    }
    maybe_start(state, id);
}

/// Stops the engine thinking for a game (the move it finds is thrown away).
pub fn cancel(g: &mut crate::game::Game) {
    if let Some(stop) = g.engine_stop.take() {
        stop.store(true, Ordering::Relaxed);
    }
}

/// An analysis request from the page.
#[derive(Debug, serde::Deserialize)]
pub struct AnalyseRequest {
    /// The page's number for this request; every answer carries it.
    pub id: u64,
    pub variant: String,
    pub fen: String,
    #[serde(default = "one")]
    pub multipv: usize,
}

fn one() -> usize {
    1
}

/// Stops an analysis started by [`analyse`], running or waiting for a slot.
#[derive(Debug, Clone)]
pub struct AnalysisHandle {
    stop: Arc<AtomicBool>,
    slots: Arc<crate::slots::AnalysisSlots>,
}

impl AnalysisHandle {
    /// Stops the search (it then sends `done`); one still waiting leaves the queue and sends `done` now.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.slots.drop_stopped();
    }
}

/// The notice of an analysis that waits for a slot ([`crate::slots`]).
fn queued_message(running: usize, ahead: usize, max: usize) -> String {
    let before = if ahead == 0 { String::new() } else { format!(" ({ahead} waiting before it)") };
    format!(
        "waiting: the server runs at most {max} analyses at once (one a core) and {running} are running (in other tabs or windows?); this one starts when one of them stops{before}"
    )
}

/// Starts infinite analysis; each completed line is sent to `out` as JSON text. Beyond the server's
/// bound on running analyses ([`crate::slots`]) it waits, and `{"type":"queued","id","running",
/// "ahead","max","message"}` is sent first. Returns the handle that stops it.
pub fn analyse(
    state: &Arc<AppState>,
    request: &AnalyseRequest,
    out: tokio::sync::mpsc::UnboundedSender<String>,
) -> Result<AnalysisHandle, String> {
    let variant = mysl_core::Variant::from_name(&request.variant)
        .ok_or_else(|| format!("unknown variant '{}'", request.variant))?;
    let multipv = request.multipv.clamp(1, 5);
    let stop = Arc::new(AtomicBool::new(false));
    let id = request.id;
    dispatch_variant!(variant, R => {
        let pos = parse_fen::<R>(&request.fen)?;
        let tt = state.analysis_tt.clone();
        let tables = engine_tablebases(state);
        let stop2 = stop.clone();
        // Infinite unless a sandbox bounds it.
        let max_nodes = state.sandbox.max_nodes;
        let (out_queued, out_not_run) = (out.clone(), out.clone());
        let max = state.analyses.max();
        let job = crate::slots::Job {
            name: "analysis".into(),
            stop: stop.clone(),
            not_run: Box::new(move |error: Option<String>| {
                let message = match error {
                    None => json!({"type": "done", "id": id}),
                    Some(e) => json!({"type": "error", "id": id, "message": e}),
                };
                let _ = out_not_run.send(message.to_string());
            }),
            run: Box::new(move || {
                let mut searcher = Searcher::<R>::new(tt, stop2.clone());
                searcher.set_tablebases(tables, TB_PROBE_LIMIT);
                let limits = Limits { infinite: max_nodes.is_none(), nodes: max_nodes, multipv, ..Limits::default() };
                if pos.legal_moves().is_empty() {
                    let _ = out.send(json!({"type": "done", "id": id, "reason": "no legal moves"}).to_string());
                    return;
                }
                searcher.search(&pos, &limits, |info| {
                    // The page shows exact scores only (no aspiration fail-high/low lines).
                    if !stop2.load(Ordering::Relaxed) && info.bound.is_none() {
                        let _ = out.send(info_json::<R>(id, &pos, info).to_string());
                    }
                });
                let _ = out.send(json!({"type": "done", "id": id}).to_string());
            }),
        };
        state.analyses.start(job, |running, ahead| {
            let _ = out_queued.send(json!({"type": "queued", "id": id, "running": running, "ahead": ahead,
                "max": max, "message": queued_message(running, ahead, max)}).to_string());
        })?;
    });
    Ok(AnalysisHandle { stop, slots: state.analyses.clone() })
}

/// Pieces up to which the engine probes the tables (all the tables it has).
const TB_PROBE_LIMIT: usize = 7;

/// The tables the engine searches with (`--tb`, `--syzygy`); the search uses them in orthodox chess only.
fn engine_tablebases(state: &AppState) -> Option<Arc<mysl_tb::Tablebases>> {
    state.tablebase.as_ref().and_then(|t| t.front.clone())
}

/// One analysis line as the page shows it: score from White's side, the PV in SAN.
pub fn info_json<R: Rules>(id: u64, pos: &Position<R>, info: &mysl_engine::SearchInfo) -> Value {
    let mut p = pos.clone();
    let mut sans = Vec::new();
    let mut ucis = Vec::new();
    for &mv in &info.pv {
        if !p.is_legal(mv) {
            break;
        }
        sans.push(san::move_to_san(&p, mv));
        ucis.push(uci::move_to_uci(&p, mv));
        p.play_unchecked(mv);
    }
    let sign = if pos.turn().is_white() { 1 } else { -1 };
    let millis = info.time.as_millis().max(1) as u64;
    json!({
        "type": "info", "id": id, "multipv": info.multipv, "depth": info.depth, "seldepth": info.seldepth,
        "cp": if mate_in(info.score).is_none() { Some(sign * info.score) } else { None },
        "mate": mate_in(info.score).map(|m| sign * m),
        "nodes": info.nodes, "nps": info.nodes * 1000 / millis, "time_ms": millis, "tbhits": info.tbhits,
        "san": sans, "uci": ucis, "start_number": pos.fullmoves(), "white_to_move": pos.turn().is_white(),
    })
}

/// Depth of the quick search that fills the evaluation graph where the engine reported no score.
pub const GRAPH_DEPTH: i32 = 5;
/// Longest game the graph evaluates (plies).
pub const GRAPH_MAX_PLIES: usize = 400;

/// The evaluation after each move of a game (White's side): kept scores first, else a quick
/// fixed-depth search; a finished position gets its result (mate as a mate score, a draw 0).
pub fn evaluate_game(
    variant: mysl_core::Variant,
    game: &Game,
    tt: Arc<mysl_engine::TranspositionTable>,
    sandbox: &crate::Sandbox,
) -> Result<Vec<Eval>, String> {
    dispatch_variant!(variant, R => {
        let mut out = Vec::with_capacity(game.moves.len());
        for (i, ply) in game.moves.iter().enumerate().take(GRAPH_MAX_PLIES) {
            if let Some(e) = ply.eval {
                out.push(e);
                continue;
            }
            let pos = game.position_at::<R>(i + 1)?;
            let white = pos.turn().is_white();
            let score = match pos.outcome() {
                Some(mysl_core::Outcome::Decisive { winner, .. }) => {
                    let s = mysl_engine::score::MATE_SCORE;
                    if winner.is_white() { s } else { -s }
                }
                Some(mysl_core::Outcome::Draw { .. }) => 0,
                None => {
                    let mut searcher = Searcher::<R>::new(tt.clone(), Arc::new(AtomicBool::new(false)));
                    let limits = Limits { depth: Some(GRAPH_DEPTH), movetime: Some(Duration::from_millis(200)), nodes: sandbox.max_nodes, multipv: 1, ..Limits::default() };
                    let score = searcher.search(&pos, &limits, |_| {}).score;
                    if white { score } else { -score }
                }
            };
            out.push(Eval { score, engine: false, depth: GRAPH_DEPTH });
        }
        Ok(out)
    })
}

// ---------------------------------------------------------------------------------------------------
// "Analyse the game": every position searched, every move judged (mysl_engine::analysis, as `mysl analyse`).

/// Nodes per position unless the page asks for others: `mysl analyse`'s default, so the page's figures
/// are the command's.
pub const GAME_ANALYSIS_NODES: u64 = mysl_engine::analysis::DEFAULT_NODES;
/// The most nodes per position the page may ask for.
pub const GAME_ANALYSIS_MAX_NODES: u64 = 10_000_000;
/// The longest game analysed (plies).
pub const GAME_ANALYSIS_MAX_PLIES: usize = 600;
/// Transposition table of a game analysis (MB, a fresh one each time), as `mysl analyse`'s default.
const GAME_ANALYSIS_HASH_MB: usize = 16;

/// A request to analyse a game of the server.
#[derive(Debug, serde::Deserialize)]
pub struct GameAnalysisRequest {
    /// The page's number for this request; every answer carries it.
    pub id: u64,
    /// The game.
    pub game: u64,
    /// Nodes per position (default [`GAME_ANALYSIS_NODES`]).
    pub nodes: Option<u64>,
}

/// Stops a running game analysis.
#[derive(Debug, Clone)]
pub struct GameAnalysisHandle {
    pub game: u64,
    cancel: Arc<AtomicBool>,
    search: Arc<AtomicBool>,
    slots: Arc<crate::slots::AnalysisSlots>,
}

impl GameAnalysisHandle {
    /// Stops the analysis and the search running now.
    pub fn stop(&self) {
        self.cancel.store(true, Ordering::SeqCst);
        self.search.store(true, Ordering::SeqCst);
        // One still waiting for a slot leaves the queue (and sends `game_analysis_stopped`) now.
        self.slots.drop_stopped();
    }

    pub fn stopped(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }
}

/// Starts analysing a game on its own thread. It sends `{"type":"game_analysis_progress","id","game",
/// "done","total"}` after each position (`total` = moves + 1), then `{"type":"game_analysis",...}` with
/// the result (see [`game_analysis_json`]), or `{"type":"game_analysis_stopped","id","game"}` when stopped.
/// The result is also kept with the game for the PGN export. Errors (unknown game, no moves, too long, a
/// node count out of range) are returned before anything starts.
pub fn analyse_game(
    state: &Arc<AppState>,
    request: &GameAnalysisRequest,
    out: tokio::sync::mpsc::UnboundedSender<String>,
) -> Result<GameAnalysisHandle, String> {
    let nodes = request.nodes.unwrap_or(GAME_ANALYSIS_NODES);
    if !(1..=GAME_ANALYSIS_MAX_NODES).contains(&nodes) {
        return Err(format!("nodes must be 1 to {GAME_ANALYSIS_MAX_NODES} per position, found {nodes}"));
    }
    let snapshot = {
        let g = state.game(request.game).ok_or_else(|| format!("no game {}", request.game))?;
        let g = lock(&g);
        g.snapshot()
    };
    if snapshot.moves.is_empty() {
        return Err("the game has no moves to analyse".into());
    }
    if snapshot.moves.len() > GAME_ANALYSIS_MAX_PLIES {
        return Err(format!(
            "the game is too long to analyse here ({} plies, at most {GAME_ANALYSIS_MAX_PLIES}): use mysl analyse",
            snapshot.moves.len()
        ));
    }
    let handle = GameAnalysisHandle {
        game: request.game,
        cancel: Arc::new(AtomicBool::new(false)),
        search: Arc::new(AtomicBool::new(false)),
        slots: state.analyses.clone(),
    };
    let settings = mysl_engine::analysis::Settings {
        limits: Limits { nodes: state.sandbox.nodes(Some(nodes)), multipv: 1, ..Limits::default() },
        hash_mb: state.sandbox.hash_mb.unwrap_or(GAME_ANALYSIS_HASH_MB),
        tablebases: engine_tablebases(state),
        tb_probe_limit: TB_PROBE_LIMIT,
    };
    let (id, game) = (request.id, request.game);
    dispatch_variant!(snapshot.variant, R => {
        let (positions, moves) = snapshot.positions_and_moves::<R>()?;
        // Not the state itself: a job waiting in the state's queue must not keep the state alive.
        let state2 = Arc::downgrade(state);
        let h = handle.clone();
        let (out_queued, out_not_run) = (out.clone(), out.clone());
        let max = state.analyses.max();
        let job = crate::slots::Job {
            name: format!("game-analysis-{game}"),
            stop: handle.cancel.clone(),
            not_run: Box::new(move |error: Option<String>| {
                let message = match error {
                    None => json!({"type": "game_analysis_stopped", "id": id, "game": game}),
                    Some(e) => json!({"type": "game_analysis_error", "id": id, "game": game, "message": e}),
                };
                let _ = out_not_run.send(message.to_string());
            }),
            run: Box::new(move || {
                let progress = |done: usize, total: usize| {
                    let _ = out.send(json!({"type": "game_analysis_progress", "id": id, "game": game, "done": done, "total": total}).to_string());
                };
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    mysl_engine::analysis::analyse_positions(&positions, &moves, &settings, &h.cancel, &h.search, progress)
                }));
                let message = match outcome {
                    Ok(Ok(analysis)) => {
                        let (value, stored) = game_analysis_json::<R>(&positions, &moves, &analysis, nodes);
                        if let Some(state) = state2.upgrade() {
                            keep_analysis(&state, game, stored);
                        }
                        let mut value = value;
                        value["id"] = json!(id);
                        value["game"] = json!(game);
                        value
                    }
                    Ok(Err(mysl_engine::analysis::Stopped)) => json!({"type": "game_analysis_stopped", "id": id, "game": game}),
                    Err(_) => json!({"type": "game_analysis_error", "id": id, "game": game,
                        "message": "the analysis failed (a bug; please report it)"}),
                };
                let _ = out.send(message.to_string());
            }),
        };
        state.analyses.start(job, |running, ahead| {
            let _ = out_queued.send(json!({"type": "game_analysis_queued", "id": id, "game": game, "running": running,
                "ahead": ahead, "max": max, "message": queued_message(running, ahead, max)}).to_string());
        })?;
    });
    Ok(handle)
}

/// Keeps a finished analysis with its game (if the game is still there).
fn keep_analysis(state: &AppState, game: u64, stored: crate::game::StoredAnalysis) {
    if let Some(g) = state.peek_game(game) {
        lock(&g).analysis = Some(Arc::new(stored));
    }
}

/// An evaluation from White's side for the page: `{score, cp, mate, text}` (`text` as in `[%eval]`).
fn eval_json(white: i32) -> Value {
    let mate = mate_in(white);
    json!({
        "score": white, "cp": if mate.is_none() { Some(white) } else { None }, "mate": mate,
        "text": mysl_engine::analysis::format_eval(white),
    })
}

fn judgement_word(j: mysl_engine::analysis::Judgement) -> &'static str {
    use mysl_engine::analysis::Judgement;
    match j {
        Judgement::Good => "good",
        Judgement::Inaccuracy => "inaccuracy",
        Judgement::Mistake => "mistake",
        Judgement::Blunder => "blunder",
    }
}

/// The result message of a game analysis, and what is kept with the game:
/// `{"type":"game_analysis", "nodes", "start_eval", "plies": [{ply, san, uci, number, white, eval,
/// judgement: good|inaccuracy|mistake|blunder, nag, loss, note, best: {san, uci}|null, line: [san]|null,
/// line_number, line_white}], "players": {"white"|"black": {moves, acpl, accuracy, inaccuracies,
/// mistakes, blunders}}}`. `best` and `line` are given for every move that is not good.
pub fn game_analysis_json<R: Rules>(
    positions: &[Position<R>],
    moves: &[mysl_core::Move],
    analysis: &mysl_engine::analysis::GameAnalysis,
    nodes: u64,
) -> (Value, crate::game::StoredAnalysis) {
    use mysl_engine::analysis::{line_san, note, variation_text, Judgement, LINE_PLIES};
    let mut plies = Vec::with_capacity(moves.len());
    let mut stored = Vec::with_capacity(moves.len());
    for (i, (&mv, judged)) in moves.iter().zip(&analysis.moves).enumerate() {
        let pos = &positions[i];
        let white_eval = analysis.evals[i + 1].white;
        let line = if judged.judgement == Judgement::Good {
            Vec::new()
        } else {
            line_san(pos, &analysis.evals[i].pv, LINE_PLIES)
        };
        let best = line.first();
        let uci_text = uci::move_to_uci(pos, mv);
        plies.push(json!({
            "ply": i + 1, "san": san::move_to_san(pos, mv), "uci": uci_text, "number": pos.fullmoves(),
            "white": pos.turn().is_white(), "eval": eval_json(white_eval),
            "judgement": judgement_word(judged.judgement), "nag": judged.judgement.nag(),
            "loss": (judged.loss * 1000.0).round() / 1000.0,
            "note": note(judged.judgement, best.map(|m| m.san.as_str())),
            "best": best.map(|m| json!({"san": m.san, "uci": uci::move_to_uci(pos, m.mv)})),
            "line": if line.is_empty() { None } else { Some(line.iter().map(|m| m.san.clone()).collect::<Vec<_>>()) },
            "line_number": best.map(|m| m.number), "line_white": best.map(|m| m.white),
        }));
        stored.push(crate::game::AnalysedPly {
            uci: uci_text,
            white_eval,
            judgement: judged.judgement,
            best_san: best.map(|m| m.san.clone()),
            variation: variation_text(&line),
        });
    }
    let player = |s: &mysl_engine::analysis::PlayerStats| {
        json!({
            "moves": s.moves, "acpl": s.acpl(), "accuracy": (s.accuracy() * 10.0).round() / 10.0,
            "inaccuracies": s.inaccuracies, "mistakes": s.mistakes, "blunders": s.blunders,
        })
    };
    let value = json!({
        "type": "game_analysis", "nodes": nodes, "start_eval": eval_json(analysis.evals[0].white), "plies": plies,
        "players": {"white": player(&analysis.stats[0]), "black": player(&analysis.stats[1])},
    });
    (value, crate::game::StoredAnalysis { plies: stored, stats: analysis.stats, nodes })
}
