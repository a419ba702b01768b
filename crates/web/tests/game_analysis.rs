//! "Analyse the game" over the WebSocket of a real server on a free localhost port: progress, the
//! judgements (a hung queen is `??`), the players' figures, reproducibility with a node limit, stopping,
//! clear errors, and the PGN export with `[%eval]` and `[%clk]`.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A server on a free port; the router for direct requests (the same state) and the host name.
struct Server {
    app: Router,
    host: String,
}

async fn server() -> Server {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await.expect("bind");
    let port = listener.local_addr().expect("address").port();
    let state = mysl_web::AppState::new(mysl_web::Config::default(), port);
    let app = mysl_web::router(Arc::clone(&state));
    let served = mysl_web::router(state);
    tokio::spawn(async move {
        let _ = axum::serve(listener, served).await;
    });
    Server { app, host: format!("127.0.0.1:{port}") }
}

impl Server {
    async fn send(&self, request: Request<Body>) -> (StatusCode, Value, String) {
        let response = self.app.clone().oneshot(request).await.expect("infallible");
        let status = response.status();
        let bytes = response.into_body().collect().await.expect("body").to_bytes();
        let text = String::from_utf8_lossy(&bytes).to_string();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null), text)
    }

    async fn get(&self, path: &str) -> (StatusCode, Value, String) {
        self.send(Request::get(path).header(header::HOST, &self.host).body(Body::empty()).expect("request")).await
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        let request = Request::post(path)
            .header(header::HOST, &self.host)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        let (status, v, _) = self.send(request).await;
        assert_eq!(status, StatusCode::OK, "{path}: {v}");
        v
    }

    /// A game between people with these moves; its id.
    async fn game(&self, body: Value, moves: &[&str]) -> u64 {
        let view = self.post("/api/games", body).await;
        let id = view["id"].as_u64().expect("id");
        for m in moves {
            self.post(&format!("/api/games/{id}/move"), json!({ "move": m })).await;
        }
        id
    }

    async fn socket(&self) -> Socket {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/ws", self.host)).await.expect("WebSocket");
        ws
    }
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::text(v.to_string())).await.expect("send");
}

/// The next message whose type starts with `game_analysis` (game views are skipped, and so are the
/// notices of a request waiting for an analysis slot: with one core a new request can wait for the
/// last one's thread to end; `concurrency.rs` tests the queue).
async fn next(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("an answer within 60 s")
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).expect("JSON");
            if v["type"] == "game_analysis_queued" {
                continue;
            }
            if v["type"].as_str().is_some_and(|t| t.starts_with("game_analysis") || t == "error") {
                return v;
            }
        }
    }
}

/// Runs an analysis to its end: the progress messages' (done, total) and the result.
async fn analyse(ws: &mut Socket, id: u64, game: u64, nodes: u64) -> (Vec<(u64, u64)>, Value) {
    send(ws, json!({"type": "analyse_game", "id": id, "game": game, "nodes": nodes})).await;
    let mut progress = Vec::new();
    loop {
        let v = next(ws).await;
        assert_eq!(v["id"], id, "{v}");
        match v["type"].as_str() {
            Some("game_analysis_progress") => {
                progress.push((v["done"].as_u64().expect("done"), v["total"].as_u64().expect("total")))
            }
            Some("game_analysis") => return (progress, v),
            _ => panic!("unexpected: {v}"),
        }
    }
}

#[tokio::test]
async fn a_hung_queen_is_a_blunder_and_the_export_keeps_the_evaluations() {
    let s = server().await;
    // 1. e4 e5 2. Nf3 Qg5?? 3. Nxg5: Black hangs the queen, White takes it.
    let game = s.game(json!({"white": "human", "black": "human"}), &["e4", "e5", "Nf3", "Qg5", "Nxg5"]).await;
    let mut ws = s.socket().await;
    send(&mut ws, json!({"type": "watch", "game": game})).await;
    let (progress, result) = analyse(&mut ws, 1, game, 3000).await;
    assert_eq!(progress, (1..=6).map(|d| (d, 6)).collect::<Vec<_>>(), "a message per position");
    assert_eq!(result["game"], game);
    assert_eq!(result["nodes"], 3000);
    let plies = result["plies"].as_array().expect("plies");
    let sans: Vec<&str> = plies.iter().map(|p| p["san"].as_str().expect("san")).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Qg5", "Nxg5"]);
    for (i, p) in plies.iter().enumerate() {
        assert_eq!(p["ply"], i + 1);
        assert_eq!(p["white"], i % 2 == 0);
        let eval = &p["eval"];
        assert!(eval["score"].is_i64() && eval["text"].is_string(), "{p}");
        assert!(eval["cp"].is_i64() != eval["mate"].is_i64(), "cp or mate: {p}");
        assert!(["good", "inaccuracy", "mistake", "blunder"].contains(&p["judgement"].as_str().unwrap_or("")), "{p}");
    }
    let blunder = &plies[3];
    assert_eq!(blunder["judgement"], "blunder", "{blunder}");
    assert_eq!(blunder["nag"], "??");
    assert!(blunder["loss"].as_f64().is_some_and(|l| l >= 0.30), "{blunder}");
    assert!(blunder["eval"]["cp"].as_i64().is_some_and(|cp| cp > 500), "White is a queen up: {blunder}");
    let best = blunder["best"]["san"].as_str().expect("a better move");
    assert_ne!(best, "Qg5");
    assert_eq!(blunder["line"][0], best);
    assert_eq!((blunder["line_number"].as_u64(), blunder["line_white"].as_bool()), (Some(2), Some(false)));
    assert_eq!(blunder["note"], format!("Blunder. {best} was best."));
    assert_eq!(plies[4]["judgement"], "good", "taking the queen is best: {}", plies[4]);
    assert!(plies[4]["best"].is_null() && plies[4]["line"].is_null(), "{}", plies[4]);
    let (white, black) = (&result["players"]["white"], &result["players"]["black"]);
    assert_eq!((white["moves"].as_u64(), black["moves"].as_u64()), (Some(3), Some(2)));
    assert_eq!(black["blunders"], 1);
    assert_eq!(white["blunders"], 0);
    assert!(white["acpl"].as_i64() < black["acpl"].as_i64(), "{result}");
    assert!(black["accuracy"].as_f64().is_some_and(|a| (0.0..100.0).contains(&a)), "{result}");
    assert!(result["start_eval"]["cp"].is_i64(), "{result}");

    // Node limits make it reproducible.
    let (_, again) = analyse(&mut ws, 2, game, 3000).await;
    assert_eq!(again["plies"], result["plies"]);
    assert_eq!(again["players"], result["players"]);

    // The export: marks, evaluations, the note and the better line, the players' figures.
    let (status, _, pgn) = s.get(&format!("/api/games/{game}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    let pgn = pgn.replace('\n', " ");
    let e = |i: usize| plies[i]["eval"]["text"].as_str().expect("text").to_string();
    assert!(pgn.contains(&format!("1. e4 {{ [%eval {}] }} 1... e5 {{ [%eval {}] }}", e(0), e(1))), "{pgn}");
    assert!(
        pgn.contains(&format!("2... Qg5?? {{ [%eval {}] Blunder. {best} was best. }} ( 2... {best} ", e(3))),
        "{pgn}"
    );
    assert!(pgn.contains(&format!("3. Nxg5 {{ [%eval {}] }}", e(4))), "{pgn}");
    assert!(pgn.contains("[BlackACPL \"") && pgn.contains("[Annotator \"mysl "), "{pgn}");
    // After a takeback the analysis still covers the moves kept, but not a new one.
    s.post(&format!("/api/games/{game}/takeback"), json!({})).await;
    s.post(&format!("/api/games/{game}/move"), json!({"move": "Nxe5"})).await;
    let (_, _, pgn) = s.get(&format!("/api/games/{game}/pgn")).await;
    let pgn = pgn.replace('\n', " ");
    assert!(pgn.contains("2... Qg5?? { [%eval") && pgn.contains("3. Nxe5 *"), "{pgn}");
    assert!(!pgn.contains("ACPL"), "the figures were for the other game: {pgn}");
}

#[tokio::test]
async fn variants_and_dice_rolls_are_analysed() {
    let s = server().await;
    let mut ws = s.socket().await;
    for variant in ["dice", "antichess", "3check", "recycle"] {
        let view = s.post("/api/games", json!({"variant": variant, "white": "human", "black": "human"})).await;
        let id = view["id"].as_u64().expect("id");
        let mut view = view;
        for _ in 0..3 {
            let mv = view["legal"][0]["uci"].as_str().expect("a legal move").to_string();
            view = s.post(&format!("/api/games/{id}/move"), json!({ "move": mv })).await;
        }
        let (progress, result) = analyse(&mut ws, 10, id, 500).await;
        assert_eq!(progress.last(), Some(&(4, 4)), "{variant}");
        assert_eq!(result["plies"].as_array().map(Vec::len), Some(3), "{variant}: {result}");
        let (status, _, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(pgn.matches("[%eval ").count(), 3, "{variant}: {pgn}");
    }
}

#[tokio::test]
async fn bad_requests_get_clear_errors_and_the_socket_goes_on() {
    let s = server().await;
    let empty = s.game(json!({"white": "human", "black": "human"}), &[]).await;
    let game = s.game(json!({"white": "human", "black": "human"}), &["e4"]).await;
    let mut ws = s.socket().await;
    let cases = [
        (json!({"type": "analyse_game", "id": 1, "game": 987_654}), "no game 987654"),
        (json!({"type": "analyse_game", "id": 2, "game": empty}), "no moves"),
        (json!({"type": "analyse_game", "id": 3, "game": game, "nodes": 0}), "nodes must be 1 to"),
        (json!({"type": "analyse_game", "id": 4, "game": game, "nodes": 100_000_000_000u64}), "nodes must be 1 to"),
    ];
    for (message, expected) in cases {
        send(&mut ws, message.clone()).await;
        let v = next(&mut ws).await;
        assert_eq!(v["type"], "game_analysis_error", "{message}: {v}");
        assert_eq!(v["id"], message["id"]);
        assert!(v["message"].as_str().is_some_and(|m| m.contains(expected)), "{message}: {v}");
    }
    for bad in [json!({"type": "analyse_game", "id": 5, "game": "one"}), json!({"type": "analyse_game", "id": 6})] {
        send(&mut ws, bad.clone()).await;
        let v = next(&mut ws).await;
        assert_eq!(v["type"], "error", "{bad}: {v}");
        assert!(v["message"].as_str().is_some_and(|m| m.starts_with("bad message")), "{v}");
    }
    // The socket still works.
    let (_, result) = analyse(&mut ws, 7, game, 500).await;
    assert_eq!(result["plies"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn stopping_watching_another_game_and_a_new_analysis_stop_the_running_one() {
    let s = server().await;
    let game = s.game(json!({"white": "human", "black": "human"}), &["e4", "e5", "Nf3", "Nc6"]).await;
    let other = s.game(json!({"white": "human", "black": "human"}), &[]).await;
    let mut ws = s.socket().await;
    // Millions of nodes a position: minutes of work unless stopped.
    let long = |id: u64| json!({"type": "analyse_game", "id": id, "game": game, "nodes": 10_000_000});
    send(&mut ws, long(1)).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    send(&mut ws, json!({"type": "stop_game_analysis"})).await;
    assert_stopped(&mut ws, 1).await;
    // A new game on the page (it watches another game).
    send(&mut ws, long(2)).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    send(&mut ws, json!({"type": "watch", "game": other})).await;
    assert_stopped(&mut ws, 2).await;
    // A second analysis replaces the first, which says it stopped (before or after the new one's messages).
    send(&mut ws, long(3)).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    send(&mut ws, json!({"type": "analyse_game", "id": 4, "game": game, "nodes": 500})).await;
    let (mut stopped, mut result) = (false, Value::Null);
    while !stopped || result.is_null() {
        let v = next(&mut ws).await;
        match (v["id"].as_u64(), v["type"].as_str()) {
            (Some(3), Some("game_analysis_stopped")) => stopped = true,
            (Some(3 | 4), Some("game_analysis_progress")) => {}
            (Some(4), Some("game_analysis")) => result = v,
            _ => panic!("unexpected: {v}"),
        }
    }
    assert_eq!(result["plies"].as_array().map(Vec::len), Some(4));
    let _ = ws.close(None).await;
}

async fn assert_stopped(ws: &mut Socket, id: u64) {
    let started = std::time::Instant::now();
    loop {
        let v = next(ws).await;
        if v["type"] == "game_analysis_stopped" {
            assert_eq!(v["id"], id, "{v}");
            break;
        }
        assert_eq!(v["type"], "game_analysis_progress", "{v}");
    }
    assert!(started.elapsed() < Duration::from_secs(10), "stopped at once ({:?})", started.elapsed());
}

#[tokio::test]
async fn the_export_keeps_the_clocks() {
    let s = server().await;
    let game =
        s.game(json!({"white": "human", "black": "human", "tc": {"minutes": 5, "increment": 3}}), &["e4", "e5"]).await;
    let (status, _, pgn) = s.get(&format!("/api/games/{game}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    let pgn = pgn.replace('\n', " ");
    assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
    // 5 minutes, a moment used, 3 s added: 0:05:02 (0:05:01 or less on a very slow machine).
    assert_eq!(pgn.matches("[%clk 0:0").count(), 2, "{pgn}");
    assert!(pgn.contains("1. e4 { [%clk 0:0") && pgn.contains("1... e5 { [%clk 0:0"), "{pgn}");
    // Analysed: the evaluation first, the clock kept.
    let mut ws = s.socket().await;
    let (_, result) = analyse(&mut ws, 1, game, 500).await;
    let (_, _, pgn) = s.get(&format!("/api/games/{game}/pgn")).await;
    let pgn = pgn.replace('\n', " ");
    let e0 = result["plies"][0]["eval"]["text"].as_str().expect("text");
    assert!(pgn.contains(&format!("1. e4 {{ [%eval {e0}] [%clk 0:0")), "{pgn}");

    // An imported game keeps its PGN's clock times (whole seconds), and the export reads back the same.
    let text = "[Event \"x\"]\n\n1. e4 { [%eval 0.2] [%clk 0:04:58.7] } e5 { [%clk 0:04:57] } 2. Nf3 { no clock } *";
    let view = s.post("/api/games/import", json!({ "pgn": text })).await;
    let id = view["id"].as_u64().expect("id");
    let (_, _, pgn) = s.get(&format!("/api/games/{id}/pgn")).await;
    let flat = pgn.replace('\n', " ");
    assert!(flat.contains("1. e4 { [%clk 0:04:58] } 1... e5 { [%clk 0:04:57] } 2. Nf3 *"), "{pgn}");
    assert!(!flat.contains("[%eval") && !flat.contains("TimeControl"), "only the clocks are kept: {pgn}");
    let again = s.post("/api/games/import", json!({ "pgn": pgn })).await;
    let id = again["id"].as_u64().expect("id");
    let (_, _, pgn2) = s.get(&format!("/api/games/{id}/pgn")).await;
    assert_eq!(pgn2, pgn);
}
