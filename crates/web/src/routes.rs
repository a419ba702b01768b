//! HTTP routes: the embedded page, the JSON API and the WebSocket.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use mysl_core::{dispatch_variant, san, uci, Color, Rules, Variant};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::game::{book_for, parse_fen, roll_die, Clock, Game, Player};
use crate::games::SharedGame;
use crate::{assets, engine, lock, solver, AppState, MAX_BODY_BYTES, MAX_WS_MESSAGE_BYTES};

/// An API error: a status and a sentence, sent as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl ApiError {
    fn bad(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, msg.into())
    }
    fn not_found(what: impl Into<String>) -> ApiError {
        ApiError(StatusCode::NOT_FOUND, what.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let status = r.status();
        let text = if status == StatusCode::PAYLOAD_TOO_LARGE {
            format!("request too large: at most {MAX_BODY_BYTES} bytes")
        } else {
            r.body_text()
        };
        ApiError(status, text)
    }
}

/// An extractor's rejection (a path, query or WebSocket upgrade that does not read) as an API error:
/// its status and its text, in JSON like every other error.
macro_rules! rejection_to_api_error {
    ($($rejection:ty),*) => {$(
        impl From<$rejection> for ApiError {
            fn from(r: $rejection) -> ApiError {
                ApiError(r.status(), r.body_text())
            }
        }
    )*};
}
rejection_to_api_error!(PathRejection, QueryRejection, WebSocketUpgradeRejection);

type ApiResult<T> = Result<T, ApiError>;

/// The number in a route's path (`/api/games/{id}`, `/api/solve/{id}`); one that does not read is a
/// 400 in JSON (axum's own rejection is plain text).
struct Id(u64);

impl<S: Send + Sync> FromRequestParts<S> for Id {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Id, ApiError> {
        let Path(id) = Path::<u64>::from_request_parts(parts, state).await?;
        Ok(Id(id))
    }
}

/// A query string; one that does not read (a missing or malformed field) is a 400 in JSON.
struct ApiQuery<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<ApiQuery<T>, ApiError> {
        let Query(q) = Query::<T>::from_request_parts(parts, state).await?;
        Ok(ApiQuery(q))
    }
}

/// The whole application: page, API, WebSocket, behind the Host/Origin guard and the body limit.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/assets/{*file}", get(asset))
        .route("/api/info", get(info))
        .route("/api/games", post(new_game))
        .route("/api/games/import", post(import_pgn))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/takeback", post(take_back))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(offer_draw))
        .route("/api/games/{id}/pgn", get(export_pgn))
        .route("/api/games/{id}/evals", get(game_evals))
        .route("/api/explorer", get(explorer))
        .route("/api/position", get(position_info))
        .route("/api/tablebase", get(tablebase_probe))
        .route("/api/solve", post(solve_start))
        .route("/api/solve/{id}", get(solve_status))
        .route("/api/solve/{id}/cancel", post(solve_cancel))
        .route("/api/ws", get(websocket))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// DNS-rebinding and cross-site guard: the `Host` header must name this server (localhost or the bound
/// address), and a request that carries an `Origin` must come from this server's own page. Also refuses
/// a body announced over [`MAX_BODY_BYTES`] before reading it.
async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !state.allowed_hosts.iter().any(|a| a.eq_ignore_ascii_case(host)) {
        return ApiError(
            StatusCode::FORBIDDEN,
            format!("Host '{host}' is not allowed: mysl web answers only requests addressed to localhost (DNS-rebinding guard)"),
        )
        .into_response();
    }
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let origin_host = origin.strip_prefix("http://").unwrap_or("");
        if !state.allowed_hosts.iter().any(|a| a.eq_ignore_ascii_case(origin_host)) {
            return ApiError(
                StatusCode::FORBIDDEN,
                format!("Origin '{origin}' is not allowed: only this server's own page may use the API"),
            )
            .into_response();
        }
    }
    // A body announced over the limit is refused before it is read: the body limit alone would wait for
    // the bytes (a client announcing a terabyte and sending one byte kept its request open for ever).
    let announced =
        request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return ApiError(StatusCode::PAYLOAD_TOO_LARGE, format!("request too large: at most {MAX_BODY_BYTES} bytes"))
            .into_response();
    }
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, header::HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, header::HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, header::HeaderValue::from_static("no-referrer"));
    response
}

async fn index() -> Response {
    asset_response("index.html")
}

async fn asset(Path(file): Path<String>) -> Response {
    asset_response(&file)
}

fn asset_response(name: &str) -> Response {
    match assets::get(name) {
        Some((bytes, mime)) => {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, header::HeaderValue::from_static(mime));
            headers.insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-cache"));
            if name == "index.html" {
                headers.insert(
                    header::CONTENT_SECURITY_POLICY,
                    header::HeaderValue::from_static(
                        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'",
                    ),
                );
            }
            (headers, bytes).into_response()
        }
        None => ApiError::not_found(format!("no asset '{name}'")).into_response(),
    }
}

async fn not_found(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no route for {method} {}", uri.path()))
}

async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError(StatusCode::METHOD_NOT_ALLOWED, format!("{} does not answer {method}", uri.path()))
}

async fn info(State(state): State<Arc<AppState>>) -> Json<Value> {
    let variants: Vec<Value> = Variant::ALL
        .iter()
        .map(|v| json!({"name": v.name(), "title": crate::game::variant_title(*v), "start_fen": start_fen(*v)}))
        .collect();
    let levels: Vec<&str> = engine::LEVELS.iter().map(|l| l.label).collect();
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "variants": variants,
        "levels": levels,
        "level_elos": engine::level_elos(),
        "book": state.book.as_ref().map(|b| json!({
            "name": state.book_name, "variant": b.variant().unwrap_or(Variant::Chess).name(), "positions": b.positions(),
        })),
        "tablebase": state.tablebase.as_ref().map(|tb| crate::tablebase::info(tb)),
        "solver": {
            "max_input_bytes": solver::MAX_PROBLEM_BYTES, "max_running": solver::MAX_RUNNING_SOLVES,
            "max_seconds": solver::MAX_SOLVE_TIME.as_secs(),
            "stipulations": ["#n", "=n", "h#n", "h#n.5", "h=n", "s#n", "r#n", "hs#n", "ser-#n", "ser-h#n", "ser-s#n"],
        },
    }))
}

fn start_fen(v: Variant) -> String {
    dispatch_variant!(v, R => mysl_core::Position::<R>::startpos().fen())
}

/// Time control: minutes and increment seconds.
#[derive(Debug, Deserialize)]
struct TimeControl {
    minutes: f64,
    #[serde(default)]
    increment: f64,
}

#[derive(Debug, Deserialize)]
struct NewGame {
    #[serde(default = "chess")]
    variant: String,
    fen: Option<String>,
    #[serde(default = "human")]
    white: String,
    #[serde(default = "engine_player")]
    black: String,
    #[serde(default = "default_level")]
    level: u8,
    tc: Option<TimeControl>,
}

fn chess() -> String {
    "chess".into()
}
fn human() -> String {
    "human".into()
}
fn engine_player() -> String {
    "engine".into()
}
fn default_level() -> u8 {
    3
}

fn variant_named(name: &str) -> ApiResult<Variant> {
    Variant::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        ApiError::bad(format!("unknown variant '{name}' (known: {})", names.join(", ")))
    })
}

fn clock_from(tc: Option<&TimeControl>) -> ApiResult<Option<Clock>> {
    let Some(tc) = tc else { return Ok(None) };
    let valid = tc.minutes > 0.0 && tc.minutes <= 600.0 && (0.0..=600.0).contains(&tc.increment);
    if !valid {
        return Err(ApiError::bad("time control: minutes must be in (0, 600] and the increment in [0, 600] seconds"));
    }
    let initial = Duration::from_secs_f64(tc.minutes * 60.0);
    Ok(Some(Clock {
        initial,
        remaining: [initial; 2],
        increment: Duration::from_secs_f64(tc.increment),
        since: Instant::now(),
    }))
}

/// Adds a game (dropping the least recently used beyond [`crate::MAX_GAMES`]), starts the engine if it
/// moves first, and returns the game's view.
fn insert_game(state: &Arc<AppState>, mut game: Game) -> ApiResult<Json<Value>> {
    let id = {
        let mut next = lock(&state.next_id);
        let id = *next;
        *next += 1;
        id
    };
    game.id = id;
    let (game, dropped) = lock(&state.games).insert(id, game);
    // The dropped games' engines stop; their locks are taken after the map's is released.
    for g in dropped {
        engine::cancel(&mut lock(&g));
    }
    engine::maybe_start(state, id);
    let mut g = lock(&game);
    view_locked(state, &mut g)
}

/// Game `id` (a use of it), or a 404.
fn game_of(state: &AppState, id: u64) -> ApiResult<SharedGame> {
    state.game(id).ok_or_else(|| ApiError::not_found(format!("no game {id}")))
}

/// The view of game `id`: the map's lock only for the look-up, the game's own while it is replayed.
fn view_of(state: &AppState, id: u64) -> ApiResult<Json<Value>> {
    let game = game_of(state, id)?;
    let mut g = lock(&game);
    view_locked(state, &mut g)
}

fn view_locked(state: &AppState, g: &mut Game) -> ApiResult<Json<Value>> {
    if g.check_flag() {
        let _ = state.changes.send((g.id, g.version));
    }
    g.view(state.book.as_ref()).map(Json).map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e))
}

async fn new_game(
    State(state): State<Arc<AppState>>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let Json(req) = body?;
    let variant = variant_named(&req.variant)?;
    let players =
        [Player::parse(&req.white).map_err(ApiError::bad)?, Player::parse(&req.black).map_err(ApiError::bad)?];
    if !(1..=8).contains(&req.level) {
        return Err(ApiError::bad(format!("engine level must be 1 to 8, found {}", req.level)));
    }
    let clock = clock_from(req.tc.as_ref())?;
    let (start_fen, roll) = dispatch_variant!(variant, R => {
        let pos = match &req.fen {
            Some(fen) if !fen.trim().is_empty() => parse_fen::<R>(fen.trim()).map_err(ApiError::bad)?,
            _ => mysl_core::Position::<R>::startpos(),
        };
        let roll = pos.state_roll().or_else(|| roll_die::<R>(&pos, lock(&state.rng).next_u64()));
        (pos.fen(), roll)
    });
    let game = Game {
        id: 0,
        variant,
        start_fen,
        moves: Vec::new(),
        roll,
        players,
        level: req.level,
        clock,
        result: None,
        version: 0,
        engine_stop: None,
        analysis: None,
    };
    let mut game = game;
    dispatch_variant!(variant, R => {
        let pos = game.position::<R>().map_err(ApiError::bad)?;
        game.after_change::<R>(&pos);
    });
    insert_game(&state, game)
}

/// The roll a FEN carried, if any.
trait StateRoll {
    fn state_roll(&self) -> Option<mysl_core::Role>;
}

impl<R: Rules> StateRoll for mysl_core::Position<R> {
    fn state_roll(&self) -> Option<mysl_core::Role> {
        use mysl_core::VariantState;
        self.state().roll()
    }
}

async fn get_game(State(state): State<Arc<AppState>>, Id(id): Id) -> ApiResult<Json<Value>> {
    view_of(&state, id)
}

#[derive(Debug, Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
}

async fn play_move(
    State(state): State<Arc<AppState>>,
    Id(id): Id,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let Json(req) = body?;
    let game = game_of(&state, id)?;
    {
        let mut g = lock(&game);
        if g.result.is_none() && g.players[g.turn() as usize] == Player::Engine {
            return Err(ApiError(StatusCode::CONFLICT, "it is the engine's turn".into()));
        }
        let mut rng = lock(&state.rng);
        g.play(&req.mv, state.book.as_ref(), &mut rng).map_err(ApiError::bad)?;
        let _ = state.changes.send((id, g.version));
    }
    engine::maybe_start(&state, id);
    let mut g = lock(&game);
    view_locked(&state, &mut g)
}

async fn take_back(State(state): State<Arc<AppState>>, Id(id): Id) -> ApiResult<Json<Value>> {
    let game = game_of(&state, id)?;
    {
        let mut g = lock(&game);
        engine::cancel(&mut g);
        // Back to the last position where a human was to move (two plies against the engine).
        let mut n = 0;
        let mut turn = g.turn();
        loop {
            if n >= g.moves.len() {
                break;
            }
            n += 1;
            turn = !turn;
            if g.players[turn as usize] == Player::Human {
                break;
            }
        }
        if !g.players.contains(&Player::Human) {
            n = n.min(1);
        }
        if n == 0 {
            return Err(ApiError::bad("no move to take back"));
        }
        let mut rng = lock(&state.rng);
        g.take_back(n, &mut rng).map_err(ApiError::bad)?;
        let _ = state.changes.send((id, g.version));
    }
    engine::maybe_start(&state, id);
    let mut g = lock(&game);
    view_locked(&state, &mut g)
}

#[derive(Debug, Deserialize, Default)]
struct ResignRequest {
    color: Option<String>,
}

async fn resign(
    State(state): State<Arc<AppState>>,
    Id(id): Id,
    body: Result<Option<Json<ResignRequest>>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let req = body?.map(|b| b.0).unwrap_or_default();
    let color = match req.color.as_deref() {
        None => None,
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        Some(other) => return Err(ApiError::bad(format!("color must be 'white' or 'black', found '{other}'"))),
    };
    let game = game_of(&state, id)?;
    let mut g = lock(&game);
    g.resign(color).map_err(ApiError::bad)?;
    engine::cancel(&mut g);
    let _ = state.changes.send((id, g.version));
    view_locked(&state, &mut g)
}

/// A draw offer by the human to move (or the only human). Between two humans at one screen the offer
/// is the agreement. The engine accepts when a short search finds it no better than equal.
async fn offer_draw(State(state): State<Arc<AppState>>, Id(id): Id) -> ApiResult<Json<Value>> {
    let game = game_of(&state, id)?;
    let (variant, pos_game) = {
        let g = lock(&game);
        if let Some(end) = &g.result {
            return Err(ApiError::bad(format!("the game is over ({} {})", end.result, end.reason)));
        }
        let humans = g.players.iter().filter(|p| **p == Player::Human).count();
        match humans {
            0 => return Err(ApiError::bad("no human to offer a draw in an engine-vs-engine game")),
            2 => (None, None),
            _ => {
                let engine_color = if g.players[0] == Player::Engine { Color::White } else { Color::Black };
                (Some(g.variant), Some((g.start_fen.clone(), g.moves.clone(), g.roll, engine_color)))
            }
        }
    };
    let accepted = match (variant, pos_game) {
        (Some(variant), Some((start_fen, moves, roll, engine_color))) => {
            let tt = state.engine_tt.clone();
            let sandbox = state.sandbox;
            tokio::task::spawn_blocking(move || {
                let g = Game {
                    id, variant, start_fen, moves, roll, players: [Player::Human; 2], level: 1, clock: None,
                    result: None, version: 0, engine_stop: None, analysis: None,
                };
                dispatch_variant!(variant, R => {
                    let Ok(pos) = g.position::<R>() else { return false };
                    let limits = mysl_engine::Limits { depth: Some(8), movetime: Some(Duration::from_millis(300)), nodes: sandbox.max_nodes, multipv: 1, ..Default::default() };
                    let mut searcher = mysl_engine::Searcher::<R>::new(tt, Arc::new(AtomicBool::new(false)));
                    let score = searcher.search(&pos, &limits, |_| {}).score;
                    let engine_score = if pos.turn() == engine_color { score } else { -score };
                    engine_score <= 0
                })
            })
            .await
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("draw offer: {e}")))?
        }
        _ => true,
    };
    if !accepted {
        return Err(ApiError(StatusCode::CONFLICT, "mysl declines the draw".into()));
    }
    let mut g = lock(&game);
    if g.result.is_none() {
        engine::cancel(&mut g);
        g.result = Some(crate::game::GameEnd { result: "1/2-1/2".into(), reason: "Draw by agreement".into() });
        g.version += 1;
        let _ = state.changes.send((id, g.version));
    }
    view_locked(&state, &mut g)
}

async fn export_pgn(State(state): State<Arc<AppState>>, Id(id): Id) -> ApiResult<Response> {
    let game = game_of(&state, id)?;
    let text = lock(&game).pgn().map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    Ok(([(header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8")], text).into_response())
}

#[derive(Debug, Deserialize)]
struct ImportRequest {
    pgn: String,
    #[serde(default = "human")]
    white: String,
    #[serde(default = "human")]
    black: String,
    #[serde(default = "default_level")]
    level: u8,
}

/// Collects the moves of an imported game and the `[%clk]` times after them.
struct Collect<R: Rules> {
    start: Option<mysl_core::Position<R>>,
    moves: Vec<String>,
    /// The clock after each ply (index 0: before the first move).
    clocks: Vec<Option<Duration>>,
}

impl<R: Rules> mysl_book::pgn::GameSink<R> for Collect<R> {
    fn tags(&mut self, _tags: &mysl_book::pgn::GameTags) -> bool {
        true
    }
    fn ply(&mut self, pos: &mysl_core::Position<R>, mv: mysl_core::Move, _ply: usize) -> bool {
        if self.start.is_none() {
            self.start = Some(pos.clone());
        }
        self.moves.push(uci::move_to_uci(pos, mv));
        true
    }
    fn comment(&mut self, ply: usize, text: &[u8]) {
        let text = String::from_utf8_lossy(text);
        if let Some(time) = mysl_book::pgn::clock_commands(&text).iter().find_map(|c| mysl_book::pgn::parse_clock(c)) {
            if self.clocks.len() <= ply {
                self.clocks.resize(ply + 1, None);
            }
            self.clocks[ply] = Some(time);
        }
    }
}

/// The value of a PGN tag in the first game's header.
fn tag_value<'a>(pgn: &'a str, name: &str) -> Option<&'a str> {
    pgn.lines().map(str::trim).take_while(|l| l.is_empty() || l.starts_with('[')).find_map(|l| {
        let rest = l.strip_prefix('[')?.strip_prefix(name)?.trim_start();
        rest.strip_prefix('"')?.rsplit_once('"').map(|(v, _)| v)
    })
}

async fn import_pgn(
    State(state): State<Arc<AppState>>,
    body: Result<Json<ImportRequest>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let Json(req) = body?;
    let players =
        [Player::parse(&req.white).map_err(ApiError::bad)?, Player::parse(&req.black).map_err(ApiError::bad)?];
    let variant = variant_named(tag_value(&req.pgn, "Variant").unwrap_or("chess"))?;
    let text = req.pgn.trim_start_matches('\u{feff}');
    let game = dispatch_variant!(variant, R => {
        let mut sink = Collect::<R> { start: None, moves: Vec::new(), clocks: Vec::new() };
        let tags = mysl_book::pgn::replay_game::<R, _>(text.as_bytes(), &mut sink)
            .map_err(|e| ApiError::bad(format!("PGN: {e}")))?;
        let start = match (sink.start, &tags.fen) {
            (Some(p), _) => p,
            (None, Some(fen)) => parse_fen::<R>(fen).map_err(ApiError::bad)?,
            (None, None) => mysl_core::Position::<R>::startpos(),
        };
        let mut game = Game {
            id: 0, variant, start_fen: start.fen(), moves: Vec::new(), roll: None, players,
            level: req.level.clamp(1, 8), clock: None, result: None, version: 0, engine_stop: None, analysis: None,
        };
        if matches!(R::VARIANT, Variant::Dice) && !sink.moves.is_empty() {
            return Err(ApiError::bad("PGN: dice games cannot be imported yet (the rolls are not recorded in PGN)"));
        }
        let mut rng = lock(&state.rng);
        for (i, m) in sink.moves.iter().enumerate() {
            game.play(m, state.book.as_ref(), &mut rng).map_err(|e| ApiError::bad(format!("PGN: {e}")))?;
            // The clock times of the PGN are kept for the export (the game itself has no clock).
            if let (Some(ply), Some(&Some(time))) = (game.moves.last_mut(), sink.clocks.get(i + 1)) {
                ply.clock_after = Some(time);
            }
        }
        if game.moves.is_empty() {
            game.roll = roll_die::<R>(&start, rng.next_u64());
            game.after_change::<R>(&start);
        }
        game
    });
    insert_game(&state, game)
}

#[derive(Debug, Deserialize)]
struct ExplorerQuery {
    #[serde(default = "chess")]
    variant: String,
    fen: String,
}

/// The book's moves for a position, with statistics, play probabilities and opening names.
async fn explorer(State(state): State<Arc<AppState>>, ApiQuery(q): ApiQuery<ExplorerQuery>) -> ApiResult<Json<Value>> {
    let variant = variant_named(&q.variant)?;
    dispatch_variant!(variant, R => {
        let pos = parse_fen::<R>(&q.fen).map_err(ApiError::bad)?;
        let Some(book) = book_for::<R>(state.book.as_ref()) else {
            return Ok(Json(json!({"book": state.book_name, "available": false, "moves": [],
                "message": format!("the book has no {} positions", R::NAME)})));
        };
        let moves = book.probe(&pos);
        let total: f64 = moves.iter().map(|m| f64::from(m.weight)).sum();
        let list: Vec<Value> = moves.iter().map(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m.mv);
            let opening = mysl_book::eco::lookup(after.key()).map(|o| json!({"eco": o.eco, "name": o.name}));
            json!({
                "uci": uci::move_to_uci(&pos, m.mv), "san": san::move_to_san(&pos, m.mv), "weight": m.weight,
                "probability": if total > 0.0 { f64::from(m.weight) / total } else { 0.0 },
                "games": m.stats.map(|s| s.games), "white": m.stats.map(|s| s.white_wins),
                "draws": m.stats.map(|s| s.draws), "black": m.stats.map(|s| s.black_wins),
                "elo": m.stats.map(|s| s.elo_avg).filter(|&e| e > 0), "opening": opening,
            })
        }).collect();
        let opening = mysl_book::eco::lookup(pos.key()).map(|o| json!({"eco": o.eco, "name": o.name}));
        Ok(Json(json!({"book": state.book_name, "available": true, "opening": opening, "moves": list})))
    })
}

#[derive(Debug, Deserialize)]
struct PositionQuery {
    #[serde(default = "chess")]
    variant: String,
    fen: String,
}

/// Checks a FEN with the rules core (the board editor): the normalised FEN, the side to move, the number
/// of legal moves, check, and the result if the position is already over.
async fn position_info(ApiQuery(q): ApiQuery<PositionQuery>) -> ApiResult<Json<Value>> {
    let variant = variant_named(&q.variant)?;
    dispatch_variant!(variant, R => {
        let pos = parse_fen::<R>(q.fen.trim()).map_err(ApiError::bad)?;
        let outcome = pos.outcome().map(|o| crate::game::describe_outcome::<R>(o).reason);
        Ok(Json(json!({
            "variant": R::NAME, "fen": pos.fen(), "turn": if pos.turn().is_white() { "white" } else { "black" },
            "legal_moves": pos.legal_moves().len(), "check": pos.is_check(), "outcome": outcome,
        })))
    })
}

/// WDL/DTZ/DTM of a position and of each legal move from the tables given with `--tb`.
async fn tablebase_probe(
    State(state): State<Arc<AppState>>,
    ApiQuery(q): ApiQuery<PositionQuery>,
) -> ApiResult<Json<Value>> {
    let variant = variant_named(&q.variant)?;
    let Some(tb) = state.tablebase.clone() else {
        return Err(ApiError::not_found("no tablebase: start mysl web with --tb DIR (tables from mysl tb gen)"));
    };
    let has_variant_tables = tb.front.as_ref().is_some_and(|f| f.variant(variant).is_some());
    if variant != Variant::Chess && !has_variant_tables {
        return Err(ApiError::bad(format!(
            "no {} tables: the tablebases here cover orthodox chess{} (variant tables: mysl tb gen --variant)",
            variant.name(),
            if tb.front.is_some() { " and the variants they were generated for" } else { " only" }
        )));
    }
    let fen = q.fen.trim().to_string();
    let answer = tokio::task::spawn_blocking(move || {
        if variant == Variant::Chess {
            crate::tablebase::probe(&tb, &fen)
        } else {
            crate::tablebase::probe_variant(&tb, variant, &fen)
        }
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("tablebase: {e}")))?;
    answer.map(Json).map_err(|e| match e {
        crate::tablebase::ProbeError::Bad(m) => ApiError::bad(m),
        crate::tablebase::ProbeError::Missing(m) => ApiError::not_found(m),
        crate::tablebase::ProbeError::Failed(m) => ApiError(StatusCode::INTERNAL_SERVER_ERROR, m),
    })
}

#[derive(Debug, Deserialize)]
struct SolveRequest {
    /// A problem in Popeye's input language, or:
    input: Option<String>,
    /// the board of this FEN with
    fen: Option<String>,
    /// this stipulation (`h#2`, `#3`, `ser-h#4`, ...).
    stipulation: Option<String>,
}

fn problem_error(e: solver::ProblemError) -> Response {
    let status = if e.message.starts_with("problem too large") {
        StatusCode::PAYLOAD_TOO_LARGE
    } else {
        StatusCode::BAD_REQUEST
    };
    (status, Json(json!({"error": e.message, "line": e.line, "column": e.column}))).into_response()
}

/// Starts solving a problem on a background thread; answers the job's view (status `running`).
async fn solve_start(State(state): State<Arc<AppState>>, body: Result<Json<SolveRequest>, JsonRejection>) -> Response {
    let Json(req) = match body {
        Ok(b) => b,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let text = match (&req.input, &req.fen, &req.stipulation) {
        (Some(input), _, _) if !input.trim().is_empty() => input.clone(),
        (_, Some(fen), Some(stip)) => match solver::input_from_fen(fen, stip) {
            Ok(t) => t,
            Err(e) => return problem_error(e),
        },
        _ => {
            return ApiError::bad("give a problem as {input} (Popeye's input language) or {fen, stipulation}")
                .into_response()
        }
    };
    let problem = match solver::parse_one(&text) {
        Ok(p) => p,
        Err(e) => return problem_error(e),
    };
    let id = {
        let mut jobs = lock(&state.solve_jobs);
        let running = jobs.values().filter(|j| j.running()).count();
        if running >= solver::MAX_RUNNING_SOLVES {
            return ApiError(
                StatusCode::TOO_MANY_REQUESTS,
                format!("{running} solves are running (at most {}): cancel one or wait", solver::MAX_RUNNING_SOLVES),
            )
            .into_response();
        }
        while jobs.len() >= solver::MAX_SOLVE_JOBS {
            let Some(oldest) = jobs.values().find(|j| !j.running()).map(|j| j.id) else { break };
            jobs.remove(&oldest);
        }
        let id = {
            let mut next = lock(&state.next_solve_id);
            let id = *next;
            *next += 1;
            id
        };
        let job = solver::SolveJob {
            id,
            started: Instant::now(),
            elapsed: None,
            stop: Arc::new(AtomicBool::new(false)),
            nodes: Arc::new(std::sync::atomic::AtomicU64::new(0)),
            summary: solver::summary(&problem),
            result: None,
            error: None,
            cancelled: false,
        };
        let (stop, nodes) = (job.stop.clone(), job.nodes.clone());
        let state2 = state.clone();
        let spawned = std::thread::Builder::new().name(format!("solve-{id}")).spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                solver::solve(&problem, stop, nodes, &state2.sandbox)
            }));
            let mut jobs = lock(&state2.solve_jobs);
            if let Some(job) = jobs.get_mut(&id) {
                job.elapsed = Some(job.started.elapsed());
                match outcome {
                    Ok(Ok(v)) => job.result = Some(v),
                    Ok(Err(e)) => job.error = Some(e),
                    Err(_) => job.error = Some("the solver failed (a bug; please report it)".into()),
                }
            }
        });
        if let Err(e) = spawned {
            return ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot start the solver: {e}"))
                .into_response();
        }
        jobs.insert(id, job);
        id
    };
    solve_view(&state, id).map_or_else(IntoResponse::into_response, |v| (StatusCode::ACCEPTED, v).into_response())
}

fn solve_view(state: &AppState, id: u64) -> ApiResult<Json<Value>> {
    let jobs = lock(&state.solve_jobs);
    let job = jobs.get(&id).ok_or_else(|| ApiError::not_found(format!("no solve job {id}")))?;
    Ok(Json(job.view()))
}

async fn solve_status(State(state): State<Arc<AppState>>, Id(id): Id) -> ApiResult<Json<Value>> {
    solve_view(&state, id)
}

/// Stops a running solve; the job ends as `cancelled` with what it had found (marked interrupted).
async fn solve_cancel(State(state): State<Arc<AppState>>, Id(id): Id) -> ApiResult<Json<Value>> {
    {
        let mut jobs = lock(&state.solve_jobs);
        let job = jobs.get_mut(&id).ok_or_else(|| ApiError::not_found(format!("no solve job {id}")))?;
        if !job.running() {
            return Err(ApiError(StatusCode::CONFLICT, format!("solve job {id} has already finished")));
        }
        job.stop.store(true, Ordering::Relaxed);
        job.cancelled = true;
    }
    solve_view(&state, id)
}

/// The evaluation of the position after each move (White's side): the score the engine reported for
/// its own moves, a quick fixed-depth search for the others (computed once and kept with the game).
async fn game_evals(State(state): State<Arc<AppState>>, Id(id): Id) -> ApiResult<Json<Value>> {
    let game = game_of(&state, id)?;
    let (variant, snapshot) = {
        let g = lock(&game);
        (g.variant, g.snapshot())
    };
    let tt = state.analysis_tt.clone();
    let version = snapshot.version;
    let sandbox = state.sandbox;
    let evals = tokio::task::spawn_blocking(move || engine::evaluate_game(variant, &snapshot, tt, &sandbox))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("evaluation: {e}")))?
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    {
        let mut g = lock(&game);
        if g.version == version {
            for (ply, e) in g.moves.iter_mut().zip(&evals) {
                ply.eval.get_or_insert(*e);
            }
        }
    }
    let list: Vec<Value> = evals.iter().enumerate().map(|(i, e)| e.json(i + 1)).collect();
    Ok(Json(json!({"game": id, "evals": list})))
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ClientMessage {
    /// Send this game's view whenever it changes.
    Watch {
        game: u64,
    },
    Analyse(engine::AnalyseRequest),
    Stop,
    /// Analyse a whole game of the server (every move judged); stops the last one of this socket.
    #[serde(rename = "analyse_game")]
    AnalyseGame(engine::GameAnalysisRequest),
    #[serde(rename = "stop_game_analysis")]
    StopGameAnalysis,
}

async fn websocket(
    State(state): State<Arc<AppState>>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let ws = match ws {
        Ok(ws) => ws,
        Err(e) => return ApiError::from(e).into_response(),
    };
    ws.max_message_size(MAX_WS_MESSAGE_BYTES)
        .max_frame_size(MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| socket_loop(state, socket))
}

/// One WebSocket's state on the server: the game it watches and the analyses it started. The socket
/// loop feeds it each text message ([`Connection::message`]); it is `pub` so that messages can be
/// handled in process without a socket (the fuzzer).
#[derive(Debug, Default)]
pub struct Connection {
    /// The game whose changes are sent.
    pub watching: Option<u64>,
    analysis: Option<engine::AnalysisHandle>,
    /// The game analysis of this socket; watching another game (a new game on the page) stops it.
    game_analysis: Option<engine::GameAnalysisHandle>,
}

impl Connection {
    fn stop_analysis(&mut self) {
        if let Some(h) = self.analysis.take() {
            h.stop();
        }
    }

    fn stop_game_analysis(&mut self) {
        if let Some(h) = self.game_analysis.take() {
            h.stop();
        }
    }

    /// Handles one text message from the page; answers (now or later, from the analysis threads) go to
    /// `out` as JSON text.
    pub fn message(&mut self, state: &Arc<AppState>, text: &str, out: &tokio::sync::mpsc::UnboundedSender<String>) {
        match serde_json::from_str::<ClientMessage>(text) {
            Ok(ClientMessage::Watch { game }) => {
                self.watching = Some(game);
                if self.game_analysis.as_ref().is_some_and(|h| h.game != game) {
                    self.stop_game_analysis();
                }
                if let Ok(Json(v)) = view_of(state, game) {
                    let _ = out.send(json!({"type": "game", "game": v}).to_string());
                }
            }
            Ok(ClientMessage::Analyse(req)) => {
                self.stop_analysis();
                match engine::analyse(state, &req, out.clone()) {
                    Ok(handle) => self.analysis = Some(handle),
                    Err(e) => {
                        let _ = out.send(json!({"type": "error", "id": req.id, "message": e}).to_string());
                    }
                }
            }
            Ok(ClientMessage::Stop) => self.stop_analysis(),
            Ok(ClientMessage::AnalyseGame(req)) => {
                self.stop_game_analysis();
                match engine::analyse_game(state, &req, out.clone()) {
                    Ok(handle) => self.game_analysis = Some(handle),
                    Err(e) => {
                        let _ = out.send(
                            json!({"type": "game_analysis_error", "id": req.id, "game": req.game, "message": e})
                                .to_string(),
                        );
                    }
                }
            }
            Ok(ClientMessage::StopGameAnalysis) => self.stop_game_analysis(),
            Err(e) => {
                let _ = out.send(json!({"type": "error", "message": format!("bad message: {e}")}).to_string());
            }
        }
    }

    /// The socket closed: stops its analyses.
    pub fn close(&mut self) {
        self.stop_analysis();
        self.stop_game_analysis();
    }
}

async fn socket_loop(state: Arc<AppState>, mut socket: WebSocket) {
    let (out, mut lines) = tokio::sync::mpsc::unbounded_channel::<String>();
    let mut changes = state.changes.subscribe();
    let mut conn = Connection::default();
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Binary(_))) => {
                        let _ = out.send(json!({"type": "error", "message": "binary messages are not understood"}).to_string());
                        continue;
                    }
                    _ => break,
                };
                conn.message(&state, &text, &out);
            }
            line = lines.recv() => {
                let Some(line) = line else { break };
                if socket.send(Message::Text(line.into())).await.is_err() { break; }
            }
            change = changes.recv() => {
                match change {
                    Ok((id, _)) if Some(id) == conn.watching => {
                        if let Ok(Json(v)) = view_of(&state, id) {
                            let _ = out.send(json!({"type": "game", "game": v}).to_string());
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        if let Some(id) = conn.watching {
                            if let Ok(Json(v)) = view_of(&state, id) {
                                let _ = out.send(json!({"type": "game", "game": v}).to_string());
                            }
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                    _ => {}
                }
            }
        }
    }
    conn.close();
}
