//! API tests: the router in memory, requests as a browser would send them. Each error must be a 4xx
//! with a sentence in `{"error": ...}`, and must leave the server and its games as they were.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

const HOST: &str = "127.0.0.1:8080";

fn app() -> Router {
    let state = mysl_web::AppState::new(mysl_web::Config::default(), 8080);
    mysl_web::router(state)
}

async fn send(app: &Router, request: Request<Body>) -> (StatusCode, Value, String) {
    let response = app.clone().oneshot(request).await.expect("infallible");
    let status = response.status();
    let bytes = response.into_body().collect().await.expect("body").to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null), text)
}

async fn get(app: &Router, path: &str) -> (StatusCode, Value, String) {
    send(app, Request::get(path).header(header::HOST, HOST).body(Body::empty()).expect("request")).await
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    let request = Request::post(path)
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("request");
    let (s, v, _) = send(app, request).await;
    (s, v)
}

async fn new_game(app: &Router, body: Value) -> Value {
    let (status, view) = post(app, "/api/games", body).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    view
}

fn error_of(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

#[tokio::test]
async fn bad_fen_is_a_400_and_the_other_games_are_kept() {
    let app = app();
    let game = new_game(&app, json!({"white": "human", "black": "human"})).await;
    let id = game["id"].as_u64().expect("id");
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": "e4"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    for fen in ["not a fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1"] {
        let (s, v) = post(&app, "/api/games", json!({"fen": fen})).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{fen}: {v}");
        assert!(error_of(&v).contains("bad FEN"), "{v}");
    }
    let (s, v, _) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["moves"][0]["san"], "e4");
}

#[tokio::test]
async fn illegal_move_is_refused_and_the_game_is_unchanged() {
    let app = app();
    let game = new_game(&app, json!({"white": "human", "black": "human"})).await;
    let id = game["id"].as_u64().expect("id");
    for bad in ["e2e5", "Ke2", "xyz", "", "e7e5"] {
        let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": bad})).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
        assert!(error_of(&v).contains("illegal move"), "{v}");
    }
    let (_, v, _) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(0));
    assert_eq!(v["legal"].as_array().map(Vec::len), Some(20));
    // A move in a missing field or a wrong type is a 4xx too.
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"mv": "e4"})).await;
    assert!(s.is_client_error(), "{s} {v}");
    assert!(!error_of(&v).is_empty());
    let (s, v) = post(&app, "/api/games/999999/move", json!({"move": "e4"})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
}

#[tokio::test]
async fn unknown_variant_is_a_400_naming_the_known_ones() {
    let app = app();
    let (s, v) = post(&app, "/api/games", json!({"variant": "crazyhouse"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("unknown variant 'crazyhouse'") && error_of(&v).contains("recycle"), "{v}");
    let (s, v, _) = get(&app, "/api/explorer?variant=shogi&fen=x").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v) = post(&app, "/api/games", json!({"white": "robot"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("player"), "{v}");
    let (s, _) = post(&app, "/api/games", json!({"level": 99})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn oversized_request_is_a_413_and_the_server_goes_on() {
    let app = app();
    let game = new_game(&app, json!({"white": "human", "black": "human"})).await;
    let id = game["id"].as_u64().expect("id");
    let huge = "1. e4 e5 ".repeat(mysl_web::MAX_BODY_BYTES / 4);
    let (s, v) = post(&app, "/api/games/import", json!({"pgn": huge})).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(error_of(&v).contains("too large"), "{v}");
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": "d4"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn wrong_host_or_origin_is_refused() {
    let app = app();
    for host in ["evil.example", "evil.example:8080", "127.0.0.1:9999", ""] {
        let request = Request::get("/api/info").header(header::HOST, host).body(Body::empty()).expect("request");
        let (s, v, _) = send(&app, request).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{host}");
        assert!(error_of(&v).contains("DNS-rebinding"), "{v}");
    }
    let request = Request::get("/").body(Body::empty()).expect("request");
    assert_eq!(send(&app, request).await.0, StatusCode::FORBIDDEN, "no Host header");
    let request = Request::post("/api/games")
        .header(header::HOST, HOST)
        .header(header::ORIGIN, "http://evil.example")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{}"))
        .expect("request");
    let (s, v, _) = send(&app, request).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert!(error_of(&v).contains("Origin"), "{v}");
    for host in [HOST, "localhost:8080", "localhost"] {
        let request = Request::get("/api/info").header(header::HOST, host).body(Body::empty()).expect("request");
        assert_eq!(send(&app, request).await.0, StatusCode::OK, "{host}");
    }
}

#[tokio::test]
async fn page_and_assets_are_embedded() {
    let app = app();
    let (s, _, html) = get(&app, "/").await;
    assert_eq!(s, StatusCode::OK);
    assert!(html.contains("/assets/app.js"));
    for name in mysl_web::assets::names() {
        let (s, _, _) = get(&app, &format!("/assets/{name}")).await;
        assert_eq!(s, StatusCode::OK, "{name}");
    }
    let (s, v, _) = get(&app, "/assets/../../etc/passwd").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let (s, v, _) = get(&app, "/api/nothing").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(error_of(&v).contains("no route"));
}

#[tokio::test]
async fn every_variant_plays_a_move() {
    let app = app();
    for v in mysl_core::Variant::ALL {
        let game = new_game(&app, json!({"variant": v.name(), "white": "human", "black": "human"})).await;
        let id = game["id"].as_u64().expect("id");
        let first = game["legal"][0]["uci"].as_str().expect("a legal move").to_string();
        let (s, view) = post(&app, &format!("/api/games/{id}/move"), json!({"move": first})).await;
        assert_eq!(s, StatusCode::OK, "{v}: {view}");
        assert_eq!(view["moves"].as_array().map(Vec::len), Some(1), "{v}");
        assert_eq!(view["variant"], v.name());
    }
}

#[tokio::test]
async fn recycle_drop_dice_roll_and_three_check_count() {
    let app = app();
    // Recycle: a queen in hand is dropped.
    let game =
        new_game(&app, json!({"variant": "recycle", "fen": "4k3/8/8/8/8/8/8/4K3[Qq] w - - 0 1", "black": "human"}))
            .await;
    let id = game["id"].as_u64().expect("id");
    assert_eq!(game["pockets"]["white"]["queen"], 1);
    assert!(game["legal"].as_array().expect("legal").iter().any(|m| m["uci"] == "Q@d4" && m["drop"] == "queen"));
    let (s, view) = post(&app, &format!("/api/games/{id}/move"), json!({"move": "Q@d4"})).await;
    assert_eq!(s, StatusCode::OK, "{view}");
    assert_eq!(view["pockets"]["white"]["queen"], 0);
    assert_eq!(view["moves"][0]["san"], "Q@d4");

    // Dice: the server rolls a face 1–6 that has a move, and offers only that piece's moves.
    for _ in 0..5 {
        let game = new_game(&app, json!({"variant": "dice", "black": "human"})).await;
        let roll = game["roll"].as_u64().expect("a roll");
        assert!((1..=6).contains(&roll));
        let role = game["roll_role"].as_str().expect("role");
        assert!(role == "pawn" || role == "knight", "only pawns and knights can move at the start: {role}");
        let id = game["id"].as_u64().expect("id");
        let mv = game["legal"][0]["uci"].as_str().expect("move").to_string();
        let (s, view) = post(&app, &format!("/api/games/{id}/move"), json!({"move": mv})).await;
        assert_eq!(s, StatusCode::OK, "{view}");
        assert!(view["roll"].as_u64().is_some(), "Black got a roll: {view}");
        assert_eq!(view["moves"][0]["roll"], roll);
    }

    // Three-check: a check is counted.
    let game =
        new_game(&app, json!({"variant": "3check", "fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "black": "human"})).await;
    let id = game["id"].as_u64().expect("id");
    assert_eq!(game["checks"]["white"], 3);
    let (s, view) = post(&app, &format!("/api/games/{id}/move"), json!({"move": "Rh8+"})).await;
    assert_eq!(s, StatusCode::OK, "{view}");
    assert_eq!(view["checks"]["white"], 2);
    assert_eq!(view["checks"]["black"], 3);
}

#[tokio::test]
async fn the_engine_answers_and_takeback_returns_to_the_human() {
    let app = app();
    let game = new_game(&app, json!({"white": "human", "black": "engine", "level": 1})).await;
    let id = game["id"].as_u64().expect("id");
    // 1. a3 is not in the book, so the engine searches.
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": "a3"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": "a4"})).await;
    assert_eq!(s, StatusCode::CONFLICT, "not the human's turn: {v}");
    let mut view = Value::Null;
    for _ in 0..200 {
        view = get(&app, &format!("/api/games/{id}")).await.1;
        if view["moves"].as_array().map(Vec::len) == Some(2) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(2), "the engine replied: {view}");
    assert_eq!(view["turn"], "white");
    let (s, v) = post(&app, &format!("/api/games/{id}/takeback"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(0));
    let (s, v) = post(&app, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["result"], "0-1");
    assert_eq!(v["result"]["reason"], "White resigns");
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": "e4"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("over"), "{v}");
}

#[tokio::test]
async fn a_mate_ends_the_game_with_its_reason() {
    let app = app();
    let game = new_game(&app, json!({"white": "human", "black": "human"})).await;
    let id = game["id"].as_u64().expect("id");
    let mut v = Value::Null;
    for mv in ["f3", "e5", "g4", "Qh4#"] {
        let (s, view) = post(&app, &format!("/api/games/{id}/move"), json!({"move": mv})).await;
        assert_eq!(s, StatusCode::OK, "{view}");
        v = view;
    }
    assert_eq!(v["result"]["result"], "0-1");
    assert_eq!(v["result"]["reason"], "Black wins by checkmate");
    assert!(v["moves"][0]["book"].is_boolean());
    let (_, _, pgn) = get(&app, &format!("/api/games/{id}/pgn")).await;
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{pgn}");
    assert!(pgn.contains("[Termination \"Black wins by checkmate\"]"), "{pgn}");
}

#[tokio::test]
async fn pgn_export_and_import_keep_the_variant() {
    let app = app();
    let game = new_game(&app, json!({"variant": "3check", "white": "human", "black": "human"})).await;
    let id = game["id"].as_u64().expect("id");
    for mv in ["e4", "e5", "Bc4", "Nc6", "Bxf7+"] {
        let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": mv})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, _, pgn) = get(&app, &format!("/api/games/{id}/pgn")).await;
    assert!(pgn.contains("[Variant \"3check\"]"), "{pgn}");
    let (s, v) = post(&app, "/api/games/import", json!({"pgn": pgn})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["variant"], "3check");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(5));
    assert_eq!(v["checks"]["white"], 2);
    let (s, v) = post(&app, "/api/games/import", json!({"pgn": "1. e4 e5 2. Ke3 *"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("PGN"), "{v}");
    let (s, v) = post(&app, "/api/games/import", json!({"pgn": "[Variant \"shogi\"]\n\n1. e4 *"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("unknown variant"), "{v}");
}

#[tokio::test]
async fn explorer_lists_book_moves_with_statistics() {
    let app = app();
    let fen = mysl_core::STARTING_FEN.replace(' ', "%20").replace('/', "%2F");
    let (s, v, _) = get(&app, &format!("/api/explorer?variant=chess&fen={fen}")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let moves = v["moves"].as_array().expect("moves");
    assert!(moves.len() >= 3, "{v}");
    let e4 = moves.iter().find(|m| m["san"] == "e4").expect("1. e4 in the book");
    assert!(e4["games"].as_u64().unwrap_or(0) > 0, "{e4}");
    let sum: f64 = moves.iter().filter_map(|m| m["probability"].as_f64()).sum();
    assert!((sum - 1.0).abs() < 1e-6);
    let (s, v, _) = get(&app, "/api/explorer?variant=chess&fen=garbage").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("bad FEN"), "{v}");
    let (s, v, _) = get(&app, &format!("/api/explorer?variant=antichess&fen={fen}")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["available"], false);
}

#[tokio::test]
async fn draw_offers() {
    let app = app();
    let game = new_game(&app, json!({"white": "human", "black": "human"})).await;
    let id = game["id"].as_u64().expect("id");
    let (s, v) = post(&app, &format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["result"], "1/2-1/2");
    assert_eq!(v["result"]["reason"], "Draw by agreement");
    let (s, _) = post(&app, &format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "the game is over");
    // The engine (Black, a queen up) declines.
    let game =
        new_game(&app, json!({"fen": "3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "white": "human", "black": "engine"})).await;
    let id = game["id"].as_u64().expect("id");
    let (s, v) = post(&app, &format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(error_of(&v).contains("declines"), "{v}");
    let (_, v, _) = get(&app, &format!("/api/games/{id}")).await;
    assert!(v["result"].is_null());
    // ... and accepts a queen down.
    let game =
        new_game(&app, json!({"fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "white": "human", "black": "engine"})).await;
    let id = game["id"].as_u64().expect("id");
    let (s, v) = post(&app, &format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["reason"], "Draw by agreement");
}
