//! Load test of `mysl web` (issue 24 item 6; docs/reliability.md, "Web server under load"): on loopback,
//! bounded in count and time, it stops by itself.
//!
//! ```sh
//! cargo build --release -p mysl && cargo run --release -p mysl-web --example load -- \
//!     [--games 200] [--analyses 50] [--minutes 10] [--seed 1] [--think-ms 300] [--rss-bound-mb 512] \
//!     [--mysl target/release/mysl | --addr 127.0.0.1:8080 [--pid PID]]
//! ```
//!
//! It starts `mysl web --port 0` (or uses a running server at `--addr`), then for `--minutes`:
//!
//! - `--games` tasks, each playing games against the engine (levels 1-3, so node-limited replies; a
//!   random variant of the ten; the human side on White or Black at random) as the page does: the game's
//!   view watched over a WebSocket, a random legal move posted when the human is to move, now and then
//!   the PGN, the explorer, the position check, a takeback or a resignation;
//! - `--analyses` WebSockets running infinite MultiPV analyses of random positions, each restarted,
//!   stopped, closed or dropped mid-analysis (the TCP connection closed without a WebSocket close) after
//!   a random 0.5-4 s;
//! - one task sending bad input among the load: malformed and oversized requests, a foreign `Host`, a path
//!   out of the assets, an oversized and a malformed WebSocket message (each must be a 4xx, or close only
//!   its own socket, or an error message), and checking that its own game is untouched afterwards.
//!
//! Then it checks that the server frees its searches (no `analysis` or `engine-game-*` thread left, CPU
//! idle), and prints: requests and their statuses (5xx must be 0), the latency of a move request (p50,
//! p99, max) and of the engine's reply, WebSocket messages, the server's peak memory (`VmHWM`) against
//! `--rss-bound-mb`, its threads, and any panic on its stderr. Exit status 1 if a check fails.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use mysl_web::game::Random;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

#[derive(Debug)]
struct Args {
    games: usize,
    analyses: usize,
    minutes: f64,
    seed: u64,
    think_ms: u64,
    rss_bound_mb: u64,
    mysl: String,
    addr: Option<String>,
    pid: Option<u32>,
}

fn parse_args() -> Args {
    let mut a = Args {
        games: 200,
        analyses: 50,
        minutes: 10.0,
        seed: 1,
        think_ms: 300,
        rss_bound_mb: 512,
        mysl: concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/release/mysl").to_string(),
        addr: None,
        pid: None,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let value = || argv.get(i + 1).cloned().unwrap_or_else(|| panic!("{} needs a value", argv[i]));
        match argv[i].as_str() {
            "--games" => a.games = value().parse().expect("--games N"),
            "--analyses" => a.analyses = value().parse().expect("--analyses N"),
            "--minutes" => a.minutes = value().parse().expect("--minutes M"),
            "--seed" => a.seed = value().parse().expect("--seed S"),
            "--think-ms" => a.think_ms = value().parse().expect("--think-ms MS"),
            "--rss-bound-mb" => a.rss_bound_mb = value().parse().expect("--rss-bound-mb MB"),
            "--mysl" => a.mysl = value(),
            "--addr" => a.addr = Some(value()),
            "--pid" => a.pid = Some(value().parse().expect("--pid PID")),
            "-h" | "--help" => {
                println!("see the documentation at the top of crates/web/examples/load.rs");
                std::process::exit(0);
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    a
}

/// What the clients saw.
#[derive(Default)]
struct Metrics {
    requests: AtomicU64,
    statuses: Mutex<BTreeMap<u16, u64>>,
    io_errors: AtomicU64,
    move_latency: Mutex<Vec<f64>>,
    reply_latency: Mutex<Vec<f64>>,
    reply_timeouts: AtomicU64,
    ws_messages: AtomicU64,
    ws_connects: AtomicU64,
    /// Sockets that ended while a client read them (the bad-input client's oversized message included).
    ws_closed: AtomicU64,
    games_started: AtomicU64,
    games_finished: AtomicU64,
    moves: AtomicU64,
    engine_moves: AtomicU64,
    evicted: AtomicU64,
    analyses: AtomicU64,
    analysis_infos: AtomicU64,
    /// Analyses that waited for a slot (the server's bound on analyses at once).
    analyses_queued: AtomicU64,
    dropped_mid_analysis: AtomicU64,
    bad_input_checks: AtomicU64,
    failures: Mutex<Vec<String>>,
}

impl Metrics {
    fn fail(&self, text: String) {
        eprintln!("FAIL: {text}");
        self.failures.lock().expect("metrics").push(text);
    }
    fn status(&self, s: u16) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        *self.statuses.lock().expect("metrics").entry(s).or_default() += 1;
    }
}

/// A keep-alive HTTP/1.1 connection (a small client: JSON in, status and body out).
struct Http {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
}

impl Http {
    fn new(addr: &str) -> Http {
        Http { addr: addr.to_string(), conn: None }
    }

    async fn request(&mut self, metrics: &Metrics, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        for attempt in 0..2 {
            match self.try_request(method, path, body).await {
                Ok((status, text)) => {
                    metrics.status(status);
                    return (status, serde_json::from_str(&text).unwrap_or(Value::String(text)));
                }
                Err(e) => {
                    self.conn = None;
                    if attempt == 1 {
                        metrics.io_errors.fetch_add(1, Ordering::Relaxed);
                        metrics.fail(format!("{method} {path}: {e}"));
                    }
                }
            }
        }
        (0, Value::Null)
    }

    async fn try_request(&mut self, method: &str, path: &str, body: Option<&Value>) -> std::io::Result<(u16, String)> {
        if self.conn.is_none() {
            self.conn = Some(BufReader::new(TcpStream::connect(&self.addr).await?));
        }
        let conn = self.conn.as_mut().expect("connected");
        let body = body.map(Value::to_string).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        conn.get_mut().write_all(format!("{head}{body}").as_bytes()).await?;
        read_response(conn).await
    }
}

fn bad(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string())
}

/// Reads one HTTP/1.1 response: the status and the body (Content-Length or chunked).
async fn read_response(conn: &mut BufReader<TcpStream>) -> std::io::Result<(u16, String)> {
    let mut line = String::new();
    if conn.read_line(&mut line).await? == 0 {
        return Err(bad("connection closed"));
    }
    let status: u16 = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| bad(&line))?;
    let (mut length, mut chunked) = (0usize, false);
    loop {
        line.clear();
        if conn.read_line(&mut line).await? == 0 {
            return Err(bad("connection closed in the headers"));
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().map_err(|_| bad(l))?;
            } else if k.eq_ignore_ascii_case("transfer-encoding") && v.to_ascii_lowercase().contains("chunked") {
                chunked = true;
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            conn.read_line(&mut line).await?;
            let n = usize::from_str_radix(line.trim(), 16).map_err(|_| bad("chunk size"))?;
            let mut chunk = vec![0; n + 2];
            conn.read_exact(&mut chunk).await?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        body.resize(length, 0);
        conn.read_exact(&mut body).await?;
    }
    Ok((status, String::from_utf8_lossy(&body).into_owned()))
}

/// One request on a fresh connection, raw bytes in; the status (0 if the server closed without one).
async fn raw_request(addr: &str, bytes: &[u8]) -> u16 {
    let Ok(stream) = TcpStream::connect(addr).await else { return 0 };
    let mut conn = BufReader::new(stream);
    if conn.get_mut().write_all(bytes).await.is_err() {
        // the server may answer and close before the whole request is written
    }
    match tokio::time::timeout(Duration::from_secs(20), read_response(&mut conn)).await {
        Ok(Ok((status, _))) => status,
        _ => 0,
    }
}

async fn connect_ws(addr: &str, metrics: &Metrics) -> Option<Socket> {
    metrics.ws_connects.fetch_add(1, Ordering::Relaxed);
    match tokio_tungstenite::connect_async(format!("ws://{addr}/api/ws")).await {
        Ok((ws, _)) => Some(ws),
        Err(e) => {
            metrics.io_errors.fetch_add(1, Ordering::Relaxed);
            metrics.fail(format!("WebSocket connect: {e}"));
            None
        }
    }
}

/// The next JSON message of a socket within `timeout` (None: timeout or closed).
async fn next_json(ws: &mut Socket, metrics: &Metrics, timeout: Duration) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                metrics.ws_messages.fetch_add(1, Ordering::Relaxed);
                match serde_json::from_str(&t) {
                    Ok(v) => return Some(v),
                    Err(e) => {
                        metrics.fail(format!("a WebSocket message that is not JSON ({e}): {t}"));
                        return None;
                    }
                }
            }
            Ok(Some(Ok(_))) => continue,
            Ok(_) => {
                // closed by the server, or broken
                metrics.ws_closed.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            Err(_) => return None,
        }
    }
}

const VARIANTS: [&str; 10] = [
    "chess",
    "antichess",
    "antichess-noep",
    "3check",
    "extinction",
    "berolina",
    "cylinder",
    "dice",
    "knightrelay",
    "recycle",
];
/// Longest game a client plays before resigning.
const MAX_PLIES: usize = 160;

fn legal_moves(view: &Value) -> Vec<String> {
    view["legal"]
        .as_array()
        .map(|l| l.iter().filter_map(|m| m["uci"].as_str().map(String::from)).collect())
        .unwrap_or_default()
}

/// A view sent over the socket before the last answer to a request (a takeback, a move) may arrive after
/// it: only a view of a later version replaces the one in hand.
fn newer(view: &Value, than: &Value) -> bool {
    view["version"].as_u64().unwrap_or(0) >= than["version"].as_u64().unwrap_or(0)
}

fn plies(view: &Value) -> usize {
    view["moves"].as_array().map_or(0, Vec::len)
}

/// One client playing games against the engine until the deadline.
async fn game_client(addr: String, seed: u64, think_ms: u64, deadline: Instant, metrics: Arc<Metrics>) {
    let mut rng = Random::new(seed);
    let mut http = Http::new(&addr);
    // spread the starts over the first seconds
    tokio::time::sleep(Duration::from_millis(rng.next_u64() % 3000)).await;
    while Instant::now() < deadline {
        let Some(mut ws) = connect_ws(&addr, &metrics).await else {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        let variant = VARIANTS[(rng.next_u64() % 10) as usize];
        let human_white = rng.unit() < 0.5;
        let (white, black) = if human_white { ("human", "engine") } else { ("engine", "human") };
        let level = 1 + rng.next_u64() % 3;
        let (status, mut view) = http
            .request(
                &metrics,
                "POST",
                "/api/games",
                Some(&json!({"variant": variant, "white": white, "black": black, "level": level})),
            )
            .await;
        if status != 200 {
            metrics.fail(format!("new game: {status} {view}"));
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        metrics.games_started.fetch_add(1, Ordering::Relaxed);
        let id = view["id"].as_u64().unwrap_or(0);
        let human = if human_white { "white" } else { "black" };
        let _ = ws.send(Message::text(json!({"type": "watch", "game": id}).to_string())).await;
        loop {
            if Instant::now() >= deadline {
                let _ = ws.close(None).await;
                return;
            }
            if !view["result"].is_null() {
                metrics.games_finished.fetch_add(1, Ordering::Relaxed);
                break;
            }
            let ours = view["turn"] == human && view["thinking"] != true;
            if !ours {
                // the engine thinks: its move comes over the socket
                match next_json(&mut ws, &metrics, Duration::from_secs(60)).await {
                    Some(v) if v["type"] == "game" && v["game"]["id"] == id && newer(&v["game"], &view) => {
                        view = v["game"].clone()
                    }
                    Some(_) => {}
                    None => {
                        metrics.reply_timeouts.fetch_add(1, Ordering::Relaxed);
                        let (s, v) = http.request(&metrics, "GET", &format!("/api/games/{id}"), None).await;
                        if s == 404 {
                            metrics.evicted.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        if s == 200 {
                            view = v;
                        }
                    }
                }
                continue;
            }
            let legal = legal_moves(&view);
            if legal.is_empty() {
                metrics.fail(format!("game {id}: no legal move and no result: {view}"));
                break;
            }
            if plies(&view) >= MAX_PLIES {
                let _ = http.request(&metrics, "POST", &format!("/api/games/{id}/resign"), Some(&json!({}))).await;
                metrics.games_finished.fetch_add(1, Ordering::Relaxed);
                break;
            }
            // a human's pause, then now and then something else than a move
            tokio::time::sleep(Duration::from_millis(rng.next_u64() % (2 * think_ms + 1))).await;
            let r = rng.unit();
            if r < 0.03 {
                let _ = http.request(&metrics, "GET", &format!("/api/games/{id}/pgn"), None).await;
            } else if r < 0.06 {
                let fen = view["fen"].as_str().unwrap_or("").replace(' ', "%20").replace('+', "%2B");
                let _ =
                    http.request(&metrics, "GET", &format!("/api/explorer?variant={variant}&fen={fen}"), None).await;
                let _ =
                    http.request(&metrics, "GET", &format!("/api/position?variant={variant}&fen={fen}"), None).await;
            } else if r < 0.075 && plies(&view) >= 2 {
                let (s, v) = http.request(&metrics, "POST", &format!("/api/games/{id}/takeback"), None).await;
                if s == 200 {
                    view = v;
                    continue;
                }
            }
            let mv = &legal[(rng.next_u64() % legal.len() as u64) as usize];
            let before = plies(&view);
            let t0 = Instant::now();
            let (s, v) =
                http.request(&metrics, "POST", &format!("/api/games/{id}/move"), Some(&json!({"move": mv}))).await;
            metrics.move_latency.lock().expect("metrics").push(t0.elapsed().as_secs_f64());
            match s {
                200 => {
                    metrics.moves.fetch_add(1, Ordering::Relaxed);
                    view = v;
                }
                404 => {
                    metrics.evicted.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                _ => {
                    metrics.fail(format!("game {id}: move {mv}: {s} {v}"));
                    break;
                }
            }
            if !view["result"].is_null() {
                continue;
            }
            // wait for the engine's reply
            loop {
                if plies(&view) > before + 1 || !view["result"].is_null() {
                    metrics.engine_moves.fetch_add(1, Ordering::Relaxed);
                    metrics.reply_latency.lock().expect("metrics").push(t0.elapsed().as_secs_f64());
                    break;
                }
                if Instant::now() >= deadline {
                    break;
                }
                match next_json(&mut ws, &metrics, Duration::from_secs(60)).await {
                    Some(m) if m["type"] == "game" && m["game"]["id"] == id && newer(&m["game"], &view) => {
                        view = m["game"].clone()
                    }
                    Some(_) => {}
                    None => {
                        metrics.reply_timeouts.fetch_add(1, Ordering::Relaxed);
                        let (s, v) = http.request(&metrics, "GET", &format!("/api/games/{id}"), None).await;
                        metrics.fail(format!(
                            "game {id}: no engine reply within 60 s (or the socket ended); now: {s}, {} plies, thinking {}, turn {}, result {}",
                            plies(&v), v["thinking"], v["turn"], v["result"]
                        ));
                        let (s, v) = http.request(&metrics, "GET", &format!("/api/games/{id}"), None).await;
                        if s == 200 {
                            view = v;
                        }
                        break;
                    }
                }
            }
        }
        let _ = ws.close(None).await;
    }
}

/// Positions the analyses start from (start positions come from /api/info as well).
const ANALYSIS_FENS: [(&str, &str); 4] = [
    ("chess", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("3check", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3+3 0 2"),
];

/// One page analysing positions: start, read lines for a while, then restart, stop, close or drop.
async fn analysis_client(
    addr: String,
    seed: u64,
    starts: Arc<Vec<(String, String)>>,
    deadline: Instant,
    metrics: Arc<Metrics>,
) {
    let mut rng = Random::new(seed);
    tokio::time::sleep(Duration::from_millis(rng.next_u64() % 3000)).await;
    let mut request = 0u64;
    while Instant::now() < deadline {
        let Some(mut ws) = connect_ws(&addr, &metrics).await else {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        let rounds = 1 + rng.next_u64() % 4;
        let mut dropped = false;
        for round in 0..rounds {
            request += 1;
            let (variant, fen) = if rng.unit() < 0.5 {
                let (v, f) = ANALYSIS_FENS[(rng.next_u64() % ANALYSIS_FENS.len() as u64) as usize];
                (v.to_string(), f.to_string())
            } else {
                starts[(rng.next_u64() % starts.len() as u64) as usize].clone()
            };
            let multipv = 1 + rng.next_u64() % 3;
            let msg = json!({"type": "analyse", "id": request, "variant": variant, "fen": fen, "multipv": multipv});
            if ws.send(Message::text(msg.to_string())).await.is_err() {
                break;
            }
            metrics.analyses.fetch_add(1, Ordering::Relaxed);
            let until = tokio::time::Instant::now() + Duration::from_millis(500 + rng.next_u64() % 3500);
            loop {
                let left = until.saturating_duration_since(tokio::time::Instant::now());
                if left.is_zero() {
                    break;
                }
                match next_json(&mut ws, &metrics, left).await {
                    Some(v) if v["type"] == "info" && v["id"] == request => {
                        metrics.analysis_infos.fetch_add(1, Ordering::Relaxed);
                    }
                    Some(v) if v["type"] == "queued" && v["id"] == request => {
                        metrics.analyses_queued.fetch_add(1, Ordering::Relaxed);
                    }
                    Some(v) if v["type"] == "error" => metrics.fail(format!("analysis {variant} {fen}: {v}")),
                    _ => {}
                }
            }
            if Instant::now() >= deadline {
                break;
            }
            // the last round ends the socket: stop and close, close, or drop mid-analysis
            if round + 1 == rounds {
                let how = rng.next_u64() % 3;
                if how == 0 {
                    let _ = ws.send(Message::text(json!({"type": "stop"}).to_string())).await;
                } else if how == 2 {
                    // the TCP connection goes without a WebSocket close
                    metrics.dropped_mid_analysis.fetch_add(1, Ordering::Relaxed);
                    dropped = true;
                }
            }
        }
        if dropped {
            drop(ws);
        } else {
            let _ = ws.close(None).await;
        }
    }
}

/// Bad input among the load: each must be refused with a 4xx (or close only its own socket) and leave
/// this task's game as it was.
async fn bad_input_client(addr: String, deadline: Instant, metrics: Arc<Metrics>) {
    let mut http = Http::new(&addr);
    let (s, v) = http.request(&metrics, "POST", "/api/games", Some(&json!({"white": "human", "black": "human"}))).await;
    if s != 200 {
        metrics.fail(format!("bad-input client: new game {s} {v}"));
        return;
    }
    let mut id = v["id"].as_u64().unwrap_or(0);
    let mut moves = 0usize;
    let host = addr.clone();
    while Instant::now() < deadline {
        let huge = "x".repeat(mysl_web::MAX_BODY_BYTES + 10);
        let cases: Vec<(String, Vec<u8>)> = vec![
            ("garbage request line".into(), b"NOT HTTP AT ALL\r\n\r\n".to_vec()),
            (
                "oversized body".into(),
                format!("POST /api/games/{id}/move HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{{\"move\":\"{huge}\"}}", huge.len() + 11).into_bytes(),
            ),
            (
                "malformed JSON".into(),
                format!("POST /api/games/{id}/move HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{{\"move\"").into_bytes(),
            ),
            (
                "foreign Host".into(),
                b"GET /api/info HTTP/1.1\r\nHost: rebind.example\r\nConnection: close\r\n\r\n".to_vec(),
            ),
            (
                "path out of the assets".into(),
                format!("GET /assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into_bytes(),
            ),
            (
                "huge header".into(),
                format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\nX-Big: {}\r\nConnection: close\r\n\r\n", "y".repeat(1 << 20)).into_bytes(),
            ),
        ];
        for (what, bytes) in cases {
            let s = raw_request(&addr, &bytes).await;
            metrics.bad_input_checks.fetch_add(1, Ordering::Relaxed);
            metrics.status(s);
            // a refused 1 MiB header may end in a reset connection before the answer is read (the client
            // was still writing): status 0, the connection closed, counts as refused too
            if !((400..500).contains(&s) || (s == 0 && what == "huge header")) {
                metrics.fail(format!("bad input '{what}': status {s}, not a 4xx"));
            }
        }
        // an oversized WebSocket message closes that socket; a malformed one is answered with an error
        if let Some(mut ws) = connect_ws(&addr, &metrics).await {
            let _ = ws.send(Message::text("{\"type\":")).await;
            match next_json(&mut ws, &metrics, Duration::from_secs(60)).await {
                Some(v) if v["type"] == "error" => {}
                other => metrics.fail(format!("malformed WebSocket message: {other:?}")),
            }
            let _ = ws.send(Message::text("z".repeat(mysl_web::MAX_WS_MESSAGE_BYTES + 1))).await;
            if next_json(&mut ws, &metrics, Duration::from_secs(60)).await.is_some() {
                metrics.fail("an oversized WebSocket message was answered, not refused".into());
            }
            metrics.bad_input_checks.fetch_add(2, Ordering::Relaxed);
        }
        // the game is untouched by all that, and still plays (unless the game limit dropped it, the
        // oldest game, while the other clients started theirs: then a new one)
        let (s, v) = http.request(&metrics, "GET", &format!("/api/games/{id}"), None).await;
        if s == 404 {
            metrics.evicted.fetch_add(1, Ordering::Relaxed);
            let (s, v) =
                http.request(&metrics, "POST", "/api/games", Some(&json!({"white": "human", "black": "human"}))).await;
            if s == 200 {
                id = v["id"].as_u64().unwrap_or(0);
                moves = 0;
            }
            continue;
        }
        if s != 200 || plies(&v) != moves {
            metrics.fail(format!("bad-input client: game {id} changed: {s}, {} moves instead of {moves}", plies(&v)));
        }
        if let Some(mv) = legal_moves(&v).first() {
            let (s, _) =
                http.request(&metrics, "POST", &format!("/api/games/{id}/move"), Some(&json!({"move": mv}))).await;
            if s == 200 {
                moves += 1;
            }
        }
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
}

/// Server figures from /proc.
#[derive(Debug, Default, Clone)]
struct Proc {
    rss_kb: u64,
    hwm_kb: u64,
    threads: u64,
    analysis_threads: u64,
    engine_threads: u64,
    cpu_ticks: u64,
}

fn read_proc(pid: u32) -> Option<Proc> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let mut p =
        Proc { rss_kb: field("VmRSS:"), hwm_kb: field("VmHWM:"), threads: field("Threads:"), ..Proc::default() };
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
            let comm = comm.trim();
            if comm == "analysis" {
                p.analysis_threads += 1;
            } else if comm.starts_with("engine-game") {
                p.engine_threads += 1;
            }
        }
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    // fields 14 and 15 (utime, stime) are the 12th and 13th after the name
    p.cpu_ticks = f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
        + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    Some(p)
}

fn percentile(xs: &mut [f64], p: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(f64::total_cmp);
    xs[((xs.len() as f64 * p) as usize).min(xs.len() - 1)]
}

fn main() {
    let args = parse_args();
    println!("load: {args:?}");
    // the server: started here, or the one at --addr
    let mut child = None;
    let stderr_lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let (addr, pid) = match &args.addr {
        Some(a) => (a.clone(), args.pid),
        None => {
            let mut c = std::process::Command::new(&args.mysl)
                .args(["web", "--port", "0"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| {
                    panic!("cannot start {}: {e} (build it: cargo build --release -p mysl)", args.mysl)
                });
            let stdout = c.stdout.take().expect("stdout");
            let mut first = String::new();
            std::io::BufReader::new(stdout).read_line(&mut first).expect("the server's first line");
            let url = first.trim().rsplit(' ').next().unwrap_or("").to_string();
            let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();
            let stderr = c.stderr.take().expect("stderr");
            let sink = stderr_lines.clone();
            std::thread::spawn(move || {
                for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
                    eprintln!("server: {line}");
                    sink.lock().expect("stderr").push(line);
                }
            });
            let pid = c.id();
            child = Some(c);
            (addr, Some(pid))
        }
    };
    println!("server {addr}, pid {pid:?}");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let metrics = Arc::new(Metrics::default());
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(args.minutes * 60.0);
    let samples: Arc<Mutex<Vec<Proc>>> = Arc::new(Mutex::new(Vec::new()));
    let after = runtime.block_on(async {
        // start positions of every variant, from the server
        let mut http = Http::new(&addr);
        let (_, info) = http.request(&metrics, "GET", "/api/info", None).await;
        let starts: Vec<(String, String)> = info["variants"]
            .as_array()
            .map(|vs| {
                vs.iter()
                    .filter_map(|v| Some((v["name"].as_str()?.to_string(), v["start_fen"].as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        let starts = Arc::new(starts);
        let mut tasks = Vec::new();
        for i in 0..args.games {
            tasks.push(tokio::spawn(game_client(addr.clone(), args.seed * 1_000_003 + i as u64, args.think_ms, deadline, metrics.clone())));
        }
        for i in 0..args.analyses {
            tasks.push(tokio::spawn(analysis_client(addr.clone(), args.seed * 7_000_003 + i as u64, starts.clone(), deadline, metrics.clone())));
        }
        tasks.push(tokio::spawn(bad_input_client(addr.clone(), deadline, metrics.clone())));
        // sample the server every second and report every 30 s
        if let Some(pid) = pid {
            let samples = samples.clone();
            let m = metrics.clone();
            tokio::spawn(async move {
                let mut n = 0u64;
                while Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    if let Some(p) = read_proc(pid) {
                        n += 1;
                        if n.is_multiple_of(30) {
                            println!(
                                "  {:>4.0} s: {} requests, {} moves, {} engine replies, {} games, {} analyses; server RSS {} MiB, {} threads ({} analysis, {} engine)",
                                started.elapsed().as_secs_f64(),
                                m.requests.load(Ordering::Relaxed),
                                m.moves.load(Ordering::Relaxed),
                                m.engine_moves.load(Ordering::Relaxed),
                                m.games_started.load(Ordering::Relaxed),
                                m.analyses.load(Ordering::Relaxed),
                                p.rss_kb / 1024,
                                p.threads,
                                p.analysis_threads,
                                p.engine_threads
                            );
                        }
                        samples.lock().expect("samples").push(p);
                    }
                }
            });
        }
        for t in tasks {
            if let Err(e) = t.await {
                metrics.fail(format!("a client task failed: {e}"));
            }
        }
        // every client is gone: the server must stop every search and go idle
        let mut freed = None;
        if let Some(pid) = pid {
            let t0 = Instant::now();
            while t0.elapsed() < Duration::from_secs(10) {
                if let Some(p) = read_proc(pid) {
                    if p.analysis_threads == 0 && p.engine_threads == 0 {
                        freed = Some(t0.elapsed());
                        break;
                    }
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let before = read_proc(pid);
            tokio::time::sleep(Duration::from_secs(3)).await;
            let after = read_proc(pid);
            return Some((freed, before, after));
        }
        None
    });
    let wall = started.elapsed().as_secs_f64();
    let m = &metrics;
    println!(
        "\n== load: {} games, {} analysis sockets, {:.1} min (wall {:.0} s), seed {}",
        args.games, args.analyses, args.minutes, wall, args.seed
    );
    let statuses = m.statuses.lock().expect("metrics").clone();
    let count = |f: &dyn Fn(u16) -> bool| statuses.iter().filter(|(s, _)| f(**s)).map(|(_, n)| n).sum::<u64>();
    let (ok, client, server, none) =
        (count(&|s| s < 400 && s > 0), count(&|s| (400..500).contains(&s)), count(&|s| s >= 500), count(&|s| s == 0));
    let requests = m.requests.load(Ordering::Relaxed);
    println!(
        "requests {requests} ({:.0}/s): {ok} 2xx, {client} 4xx, {server} 5xx, {none} without a status; by status {statuses:?}; connection errors {}",
        requests as f64 / wall,
        m.io_errors.load(Ordering::Relaxed)
    );
    let mut lat = m.move_latency.lock().expect("metrics").clone();
    let mut reply = m.reply_latency.lock().expect("metrics").clone();
    let ms = |x: f64| x * 1000.0;
    println!(
        "move requests {}: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        lat.len(),
        ms(percentile(&mut lat, 0.5)),
        ms(percentile(&mut lat, 0.99)),
        ms(lat.iter().copied().fold(0.0, f64::max))
    );
    println!(
        "engine replies {} (move posted to the reply seen on the socket): p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; {} timeouts",
        reply.len(),
        ms(percentile(&mut reply, 0.5)),
        ms(percentile(&mut reply, 0.99)),
        ms(reply.iter().copied().fold(0.0, f64::max)),
        m.reply_timeouts.load(Ordering::Relaxed)
    );
    println!(
        "games started {}, finished {}, dropped by the server (404) {}; WebSocket connections {}, messages {}, ended under a reader {}",
        m.games_started.load(Ordering::Relaxed),
        m.games_finished.load(Ordering::Relaxed),
        m.evicted.load(Ordering::Relaxed),
        m.ws_connects.load(Ordering::Relaxed),
        m.ws_messages.load(Ordering::Relaxed),
        m.ws_closed.load(Ordering::Relaxed)
    );
    println!(
        "analyses {} ({} waited for a slot, {} lines received, {} sockets dropped mid-analysis); bad-input checks {}",
        m.analyses.load(Ordering::Relaxed),
        m.analyses_queued.load(Ordering::Relaxed),
        m.analysis_infos.load(Ordering::Relaxed),
        m.dropped_mid_analysis.load(Ordering::Relaxed),
        m.bad_input_checks.load(Ordering::Relaxed)
    );
    let mut failed = !m.failures.lock().expect("metrics").is_empty() || server > 0;
    if m.evicted.load(Ordering::Relaxed) > 0 {
        println!("note: games were dropped by the server's game limit (mysl_web::MAX_GAMES = {})", mysl_web::MAX_GAMES);
    }
    let samples = samples.lock().expect("samples").clone();
    if let Some((freed, before, after_idle)) = after {
        let peak_rss = samples.iter().map(|p| p.rss_kb).max().unwrap_or(0);
        let peak_threads = samples.iter().map(|p| p.threads).max().unwrap_or(0);
        let peak_analysis = samples.iter().map(|p| p.analysis_threads).max().unwrap_or(0);
        let peak_engine = samples.iter().map(|p| p.engine_threads).max().unwrap_or(0);
        let hwm = after_idle.as_ref().map_or(0, |p| p.hwm_kb);
        println!(
            "server memory: VmHWM {} MiB (bound {} MiB), RSS sampled each second: peak {} MiB, at the end {} MiB",
            hwm / 1024,
            args.rss_bound_mb,
            peak_rss / 1024,
            after_idle.as_ref().map_or(0, |p| p.rss_kb / 1024)
        );
        println!("server threads: peak {peak_threads} ({peak_analysis} analysis, {peak_engine} engine moves)");
        match freed {
            Some(d) => println!("after the clients left: no analysis or engine thread after {:.2} s", d.as_secs_f64()),
            None => {
                println!("after the clients left: searches still running after 10 s: {after_idle:?}");
                failed = true;
            }
        }
        if let (Some(b), Some(a)) = (before, after_idle.clone()) {
            let ticks = a.cpu_ticks.saturating_sub(b.cpu_ticks);
            println!("server CPU in the 3 s after that: {ticks} ticks (1/100 s); threads {}", a.threads);
            if ticks > 30 {
                failed = true;
                println!("FAIL: the server is not idle");
            }
        }
        if hwm / 1024 > args.rss_bound_mb {
            failed = true;
            println!("FAIL: peak memory above the bound");
        }
    }
    if let Some(mut c) = child {
        let _ = c.kill();
        let _ = c.wait();
        std::thread::sleep(Duration::from_millis(200));
        let lines = stderr_lines.lock().expect("stderr");
        let panics = lines.iter().filter(|l| l.contains("panicked")).count();
        println!("server stderr: {} lines, {panics} panics", lines.len());
        if panics > 0 {
            failed = true;
        }
    }
    let failures = m.failures.lock().expect("metrics");
    println!("failures: {}", failures.len());
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    std::process::exit(i32::from(failed));
}
