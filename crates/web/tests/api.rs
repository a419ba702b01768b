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

/// Found by the `web` fuzz target's first inputs (fuzz/regressions/web/): axum's own rejections of a
/// path, a query, a request body and a WebSocket upgrade that do not read, and its 405, were plain text
/// (or empty), not the documented `{"error": ...}`.
#[tokio::test]
async fn requests_that_do_not_read_are_json_errors() {
    let app = app();
    new_game(&app, json!({"white": "human", "black": "human"})).await;
    let cases: [(&str, &str, &str, StatusCode, &str); 8] = [
        ("GET", "/api/ws", "", StatusCode::BAD_REQUEST, "upgrade"),
        ("GET", "/api/games/abc", "", StatusCode::BAD_REQUEST, "abc"),
        ("POST", "/api/solve/99999999999999999999/cancel", "", StatusCode::BAD_REQUEST, "u64"),
        ("GET", "/api/explorer", "", StatusCode::BAD_REQUEST, "fen"),
        ("GET", "/api/position?fen=x&fen=y", "", StatusCode::BAD_REQUEST, "duplicate field"),
        ("POST", "/api/games/1/resign", "{bad", StatusCode::BAD_REQUEST, "JSON"),
        ("DELETE", "/api/games/1", "", StatusCode::METHOD_NOT_ALLOWED, "DELETE"),
        ("GET", "/api/games", "", StatusCode::METHOD_NOT_ALLOWED, "GET"),
    ];
    for (method, path, body, status, word) in cases {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, HOST)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        let (s, v, text) = send(&app, request).await;
        assert_eq!(s, status, "{method} {path}: {text}");
        assert!(error_of(&v).contains(word), "{method} {path}: {text}");
    }
    // The game is still there and unchanged.
    let (s, v, _) = get(&app, "/api/games/1").await;
    assert_eq!(s, StatusCode::OK);
    assert!(v["result"].is_null(), "{v}");
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
    // A human move while the engine thinks is refused; at level 1 the engine may already have answered
    // (a loaded machine decides the race), and then the move is the human's and must be accepted.
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": "a4"})).await;
    let answered_first = s == StatusCode::OK;
    if answered_first {
        assert_eq!(v["moves"].as_array().map(Vec::len), Some(3), "accepted only after the engine's reply: {v}");
        let (s, v) = post(&app, &format!("/api/games/{id}/takeback"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["moves"].as_array().map(Vec::len), Some(2), "back to the human's turn: {v}");
    } else {
        assert_eq!(s, StatusCode::CONFLICT, "not the human's turn: {v}");
        assert!(error_of(&v).contains("engine's turn"), "{v}");
    }
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
async fn a_human_move_in_an_engine_game_is_a_conflict() {
    let app = app();
    // Both sides engines: whatever the engines have played, it is never a human's turn.
    let game = new_game(&app, json!({"white": "engine", "black": "engine", "level": 1})).await;
    let id = game["id"].as_u64().expect("id");
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": "e4"})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(error_of(&v).contains("engine's turn"), "{v}");
    let (s, v) = post(&app, &format!("/api/games/{id}/resign"), json!({"color": "white"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["result"], "0-1");
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

// ------------------------------------------------------------------ tablebase, solver, editor, graph

fn app_with_krvk() -> Router {
    let mut g = mysl_tb::Generator::new(1);
    g.generate(mysl_tb::Material::parse("KRvK").expect("material"), &mysl_tb::Silent);
    let tablebase = mysl_tb::Tablebase::from_tables(g.tables);
    let config = mysl_web::Config {
        tablebase: Some(mysl_web::tablebase::Tablebases {
            mysl: Some(tablebase),
            front: None,
            syzygy: false,
            name: "test".into(),
        }),
        ..mysl_web::Config::default()
    };
    mysl_web::router(mysl_web::AppState::new(config, 8080))
}

fn q(fen: &str) -> String {
    fen.replace(' ', "%20").replace('/', "%2F")
}

#[tokio::test]
async fn tablebase_values_equal_the_library_probe() {
    let app = app_with_krvk();
    let (s, info, _) = get(&app, "/api/info").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(info["tablebase"]["materials"], json!(["KRvK"]), "{info}");
    // The calibrated Elo of levels 1-7, rising with the level; level 8 (more time) is not rated.
    let elos = info["level_elos"].as_array().expect("level_elos");
    let rated: Vec<u64> = elos.iter().filter_map(|e| e.as_u64()).collect();
    assert!(elos.len() == 8 && rated.len() == 7 && elos[7].is_null(), "{info}");
    assert!(rated.windows(2).all(|w| w[0] < w[1]) && rated[0] == 1350, "{info}");
    let fen = "8/8/8/8/8/2k5/8/K6R w - - 0 1";
    let (s, v, _) = get(&app, &format!("/api/tablebase?variant=chess&fen={}", q(fen))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // The same values as `mysl tb probe` (which calls the same library function).
    let mut g = mysl_tb::Generator::new(1);
    g.generate(mysl_tb::Material::parse("KRvK").expect("material"), &mysl_tb::Silent);
    let (root, moves) = mysl_tb::Tablebase::from_tables(g.tables).probe_fen(fen).expect("probe");
    assert_eq!(
        (v["wdl"].as_i64(), v["dtz"].as_i64(), v["dtm"].as_i64()),
        (Some(2), Some(root.dtz().into()), Some(root.dtm().into()))
    );
    assert_eq!(v["category"], "win");
    let listed = v["moves"].as_array().expect("moves");
    assert_eq!(listed.len(), moves.len());
    for (a, b) in listed.iter().zip(&moves) {
        assert_eq!(a["uci"], b.uci.as_str());
        assert_eq!(a["dtm"].as_i64(), Some(b.result.dtm().into()));
        assert_eq!(a["dtz"].as_i64(), Some(b.result.dtz().into()));
        assert!(a["san"].as_str().is_some_and(|s| !s.is_empty()), "{a}");
    }
    // Black to move in the same position loses.
    let (_, v, _) =
        get(&app, &format!("/api/tablebase?variant=chess&fen={}", q("8/8/8/8/8/2k5/8/K6R b - - 0 1"))).await;
    assert_eq!(v["category"], "loss", "{v}");
}

#[tokio::test]
async fn tablebase_errors_are_clear_4xx() {
    let app = app_with_krvk();
    let cases = [
        ("chess", "garbage", StatusCode::BAD_REQUEST, "bad FEN"),
        ("antichess", "8/8/8/8/8/2k5/8/K6R w - - 0 1", StatusCode::BAD_REQUEST, "orthodox chess only"),
        ("nonsense", "8/8/8/8/8/2k5/8/K6R w - - 0 1", StatusCode::BAD_REQUEST, "unknown variant"),
        ("chess", "8/8/8/8/8/2k5/8/KQ6 w - - 0 1", StatusCode::NOT_FOUND, "no table for KQvK"),
        ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", StatusCode::BAD_REQUEST, "castling"),
        ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", StatusCode::BAD_REQUEST, "32 pieces"),
    ];
    for (variant, fen, status, text) in cases {
        let (s, v, _) = get(&app, &format!("/api/tablebase?variant={variant}&fen={}", q(fen))).await;
        assert_eq!(s, status, "{variant} {fen}: {v}");
        assert!(error_of(&v).contains(text), "{variant} {fen}: {v}");
    }
    // The tables still answer afterwards.
    let (s, _, _) = get(&app, &format!("/api/tablebase?fen={}", q("8/8/8/8/8/2k5/8/K6R w - - 0 1"))).await;
    assert_eq!(s, StatusCode::OK);
    // Without --tb: a 404 that says how to get tables, and /api/info says null.
    let plain = self::app();
    let (s, v, _) = get(&plain, &format!("/api/tablebase?fen={}", q("8/8/8/8/8/2k5/8/K6R w - - 0 1"))).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(error_of(&v).contains("--tb"), "{v}");
    let (_, info, _) = get(&plain, "/api/info").await;
    assert!(info["tablebase"].is_null());
}

async fn wait_job(app: &Router, id: u64) -> Value {
    for _ in 0..600 {
        let (s, v, _) = get(app, &format!("/api/solve/{id}")).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if v["status"] != "running" {
            return v;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("solve job {id} did not finish");
}

const LONG_PROBLEM: &str =
    "BeginProblem\nStipulation ser-h#9\nPieces White Ke1 Qd1 Ra1 Rh1 Sb1 Black Ke8 Qd8 Ra8 Rh8 Pa7b7c7d7\nEndProblem\n";

#[tokio::test]
async fn solver_jobs_solve_and_replay() {
    let app = app();
    let input =
        "BeginProblem\nStipulation h#2\nPieces White Ke1 Ra1 Sd1 Bd4\n  Black Kd3 Qc1 Bh6 Sd5 Pc3c4\nEndProblem\n";
    let (s, v) = post(&app, "/api/solve", json!({ "input": input })).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    let done = wait_job(&app, v["id"].as_u64().expect("id")).await;
    assert_eq!(done["status"], "done", "{done}");
    let solutions = done["twins"][0]["solutions"].as_array().expect("solutions");
    let mut texts: Vec<&str> = solutions.iter().filter_map(|s| s["text"].as_str()).collect();
    texts.sort_unstable();
    assert_eq!(texts, ["1.Qc1-f4 Sd1-e3 2.Qf4-e4 Ra1-d1 #", "1.Qc1-g5 Sd1*c3 2.Sd5-f4 0-0-0 #"]);
    for sol in solutions {
        let moves = sol["replay"]["moves"].as_array().expect("replayable");
        assert_eq!(moves.len(), 4);
        assert_eq!(moves[3]["check"], true, "the last move mates: {sol}");
    }
    assert!(done["text"].as_str().is_some_and(|t| t.contains("solution finished")), "{done}");
    // The library's classification: two solutions, one intended by default, the other a cook.
    assert_eq!(done["summary"], "cooked: 1 extra solution", "{done}");
    let class = &done["twins"][0]["classification"];
    assert_eq!(class["verdict"], "cooked", "{class}");
    let mut roles: Vec<&str> = solutions.iter().filter_map(|s| s["role"].as_str()).collect();
    roles.sort_unstable();
    assert_eq!(roles, ["cook", "intended"], "{done}");
    for sol in solutions {
        let k = sol["solution"].as_u64().expect("a solution number") as usize;
        assert_eq!(class["solutions"][k - 1]["text"], sol["text"], "{done}");
    }
    // `Remark Intended 2`: the same lines are sound; a transposition is marked as a move-order dual.
    let (_, v) = post(
        &app,
        "/api/solve",
        json!({ "input": input.replace("BeginProblem\n", "BeginProblem\nRemark Intended 2\n") }),
    )
    .await;
    let done = wait_job(&app, v["id"].as_u64().expect("id")).await;
    assert_eq!(done["summary"], "sound (C+)", "{done}");
    let series = "BeginProblem\nStipulation ser-h#2\nPieces White Kd1 Se5 Black Kh8 Ra8 Be4 Pg7\nEndProblem\n";
    let (_, v) = post(&app, "/api/solve", json!({ "input": series })).await;
    let done = wait_job(&app, v["id"].as_u64().expect("id")).await;
    assert_eq!(done["summary"], "sound (C+); 1 move-order dual", "{done}");
    let solutions = done["twins"][0]["solutions"].as_array().expect("solutions");
    let roles: Vec<(&str, u64)> =
        solutions.iter().map(|s| (s["role"].as_str().unwrap_or(""), s["solution"].as_u64().unwrap_or(0))).collect();
    assert_eq!(roles, [("intended", 1), ("move-order", 1)], "{done}");
    assert!(done["twins"][0]["classification"]["summary"].as_str().is_some_and(|s| s.contains("1 move-order dual")));
    // The board's position with a stipulation.
    let (s, v) =
        post(&app, "/api/solve", json!({"fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "stipulation": "#1"})).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    let done = wait_job(&app, v["id"].as_u64().expect("id")).await;
    let lines = done["twins"][0]["solutions"].as_array().expect("lines");
    assert_eq!(lines[0]["text"], "1.Ra1-a8 # !", "{done}");
    assert_eq!(lines[0]["replay"]["moves"][0]["san"], "Ra8#");
    assert_eq!((lines[0]["role"].as_str(), done["summary"].as_str()), (Some("intended"), Some("sound (C+)")), "{done}");
}

#[tokio::test]
async fn solver_errors_are_clear_4xx_and_cancel_works() {
    let app = app();
    let game = new_game(&app, json!({"white": "human", "black": "human"})).await;
    let id = game["id"].as_u64().expect("id");
    post(&app, &format!("/api/games/{id}/move"), json!({"move": "e4"})).await;
    // A malformed problem: line and column.
    let (s, v) =
        post(&app, "/api/solve", json!({"input": "BeginProblem\nStipulation h#2\nPieces White Kx9\nEndProblem\n"}))
            .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["line"], 3, "{v}");
    assert!(v["column"].as_u64().is_some() && error_of(&v).starts_with("line 3, column"), "{v}");
    // Oversized, empty, two problems, unsupported, a bad stipulation for the board.
    let big = format!("BeginProblem\nRemark {}\nStipulation #2\nEndProblem\n", "x".repeat(20_000));
    let (s, v) = post(&app, "/api/solve", json!({ "input": big })).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(error_of(&v).contains("too large"), "{v}");
    let (s, v) = post(&app, "/api/solve", json!({})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let two = "BeginProblem\nStipulation #1\nPieces White Ke1 Black Ke8\nNextProblem\nStipulation #1\nPieces White Ke1 Black Ke8\nEndProblem\n";
    let (s, v) = post(&app, "/api/solve", json!({ "input": two })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).contains("one at a time"), "{v}");
    let fairy = "BeginProblem\nStipulation #2\nPieces White Ke1 UUd4 Black Ke8\nEndProblem\n";
    let (s, v) = post(&app, "/api/solve", json!({ "input": fairy })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).contains("not supported yet"), "{v}");
    let (s, v) = post(&app, "/api/solve", json!({"fen": "bad", "stipulation": "h#2"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v) = post(
        &app,
        "/api/solve",
        json!({"fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "stipulation": "h#2\nCondition Circe"}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Two long solves run; a third is refused until one is cancelled.
    let (s, a) = post(&app, "/api/solve", json!({ "input": LONG_PROBLEM })).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{a}");
    let (s, b) = post(&app, "/api/solve", json!({ "input": LONG_PROBLEM })).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{b}");
    let (s, v) = post(&app, "/api/solve", json!({ "input": LONG_PROBLEM })).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(error_of(&v).contains("cancel"), "{v}");
    for job in [&a, &b] {
        let jid = job["id"].as_u64().expect("id");
        let (s, v) = post(&app, &format!("/api/solve/{jid}/cancel"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let end = wait_job(&app, jid).await;
        assert_eq!(end["status"], "cancelled", "{end}");
        assert_eq!(end["interrupted"], true, "{end}");
        // Never sound when interrupted.
        assert!(end["summary"].as_str().is_some_and(|s| !s.contains("sound (C+)")), "{end}");
        let (s, v) = post(&app, &format!("/api/solve/{jid}/cancel"), json!({})).await;
        assert_eq!(s, StatusCode::CONFLICT, "{v}");
    }
    let (s, v) = post(&app, "/api/solve/999/cancel", json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let (s, v, _) = get(&app, "/api/solve/999").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    // The game is as it was.
    let (_, v, _) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(v["moves"][0]["san"], "e4");
}

#[tokio::test]
async fn position_check_for_the_board_editor() {
    let app = app();
    let (s, v, _) =
        get(&app, &format!("/api/position?variant=chess&fen={}", q("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["turn"], "white");
    assert!(v["legal_moves"].as_u64().unwrap_or(0) > 10);
    let (_, v, _) = get(&app, &format!("/api/position?fen={}", q("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"))).await;
    assert!(v["outcome"].as_str().is_some_and(|o| o.contains("checkmate")), "{v}");
    for fen in ["garbage", "K6K/8/8/8/8/8/8/k7 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w K - 0 1"] {
        let (s, v, _) = get(&app, &format!("/api/position?fen={}", q(fen))).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{fen}: {v}");
        assert!(error_of(&v).contains("bad FEN"), "{v}");
    }
}

#[tokio::test]
async fn evaluation_of_every_move_for_the_graph() {
    let app = app();
    let game = new_game(&app, json!({"white": "human", "black": "human"})).await;
    let id = game["id"].as_u64().expect("id");
    for m in ["f3", "e5", "g4", "Qh4#"] {
        let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": m })).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (s, v, _) = get(&app, &format!("/api/games/{id}/evals")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let evals = v["evals"].as_array().expect("evals");
    assert_eq!(evals.len(), 4);
    assert_eq!(evals[3]["mate"], 0, "mated: {v}");
    assert!(evals[3]["score"].as_i64().unwrap_or(0) < 0, "Black won: {v}");
    assert!(evals[2]["score"].as_i64().unwrap_or(0) < -1000, "after 2. g4 Black mates: {v}");
    // Kept with the game: the view carries them now.
    let (_, view, _) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(view["moves"][0]["eval"]["source"], "analysis", "{view}");
}

#[tokio::test]
async fn syzygy_answers_for_the_endings_our_tables_lack() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy");
    if !dir.join("KQvK.rtbw").exists() {
        eprintln!("skipped: ../shared/data/syzygy (Syzygy files) is absent");
        return;
    }
    let mut g = mysl_tb::Generator::new(1);
    g.generate(mysl_tb::Material::parse("KRvK").expect("material"), &mysl_tb::Silent);
    let mut front = mysl_tb::Tablebases::new();
    assert!(front.add_syzygy(&dir).expect("syzygy") > 0);
    let config = mysl_web::Config {
        tablebase: Some(mysl_web::tablebase::Tablebases {
            mysl: Some(mysl_tb::Tablebase::from_tables(g.tables)),
            front: Some(std::sync::Arc::new(front)),
            syzygy: true,
            name: "test + Syzygy".into(),
        }),
        ..mysl_web::Config::default()
    };
    let app = mysl_web::router(mysl_web::AppState::new(config, 8080));
    // KRvK: ours first (with DTM).
    let fen = "8/8/8/8/8/2k5/8/K6R w - - 0 1";
    let (s, ours, _) = get(&app, &format!("/api/tablebase?variant=chess&fen={}", q(fen))).await;
    assert_eq!(s, StatusCode::OK, "{ours}");
    assert_eq!(ours["source"], "test + Syzygy");
    assert!(ours["dtm"].as_i64().is_some_and(|d| d > 0), "{ours}");
    // KQvKR is not ours: Syzygy answers, without DTM; White to move wins, and every move's WDL is listed.
    let fen = "8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1";
    let (s, v, _) = get(&app, &format!("/api/tablebase?variant=chess&fen={}", q(fen))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["source"], "Syzygy");
    assert!(v["dtm"].is_null(), "{v}");
    assert_eq!(v["category"], "win", "{v}");
    let moves = v["moves"].as_array().expect("moves");
    assert!(!moves.is_empty());
    assert_eq!(moves[0]["wdl"], 2, "best first: {v}");
    assert!(moves.iter().any(|m| m["san"] == "Qxc2" && m["wdl"] == 2), "{v}");
    // Six pieces: beyond the files here.
    let fen = "8/8/3k4/8/8/2rp4/8/KQR5 w - - 0 1";
    let (s, v, _) = get(&app, &format!("/api/tablebase?variant=chess&fen={}", q(fen))).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
}

#[tokio::test]
async fn analysis_searches_with_the_tables_and_reports_tbhits() {
    // KRvK only: the root (KRvKN) is not in the tables, the capture of the knight leads into them.
    let mut g = mysl_tb::Generator::new(1);
    g.generate(mysl_tb::Material::parse("KRvK").expect("material"), &mysl_tb::Silent);
    let dir = tempfile::tempdir().expect("tempdir");
    for t in g.tables.values() {
        mysl_tb::write::write_table_resolved(dir.path(), t, &g.tables).expect("write");
    }
    let mut front = mysl_tb::Tablebases::new();
    front.set_ours(dir.path()).expect("ours");
    let config = mysl_web::Config {
        tablebase: Some(mysl_web::tablebase::Tablebases {
            mysl: Some(mysl_tb::Tablebase::open_dir(dir.path())),
            front: Some(std::sync::Arc::new(front)),
            syzygy: false,
            name: "test".into(),
        }),
        ..mysl_web::Config::default()
    };
    let state = mysl_web::AppState::new(config, 8080);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let request = mysl_web::engine::AnalyseRequest {
        id: 7,
        variant: "chess".into(),
        fen: "8/8/8/8/3k4/8/1n6/KR6 w - - 0 1".into(),
        multipv: 1,
    };
    let analysis = mysl_web::engine::analyse(&state, &request, tx).expect("analyse");
    let mut best_hits = 0;
    let mut first_move = None;
    while let Some(text) = rx.recv().await {
        let v: Value = serde_json::from_str(&text).expect("json");
        if v["type"] == "info" {
            best_hits = best_hits.max(v["tbhits"].as_u64().expect("tbhits field"));
            first_move = v["uci"][0].as_str().map(str::to_string);
            if v["depth"].as_i64().unwrap_or(0) >= 6 {
                break;
            }
        }
    }
    analysis.stop();
    assert!(best_hits > 0, "no tablebase hits reported");
    // Kxb2 or Rxb2: a capture into the won KRvK.
    assert!(first_move.as_deref().is_some_and(|m| m.ends_with("b2")), "{first_move:?}");
}

/// A variant's own tables (`mysl tb gen --variant`, in `--tb DIR/<variant>/`): the panel's values are the
/// library's, every move's value one ply later agrees with the position's.
#[tokio::test]
async fn variant_tablebase_values() {
    use mysl_core::{Cylinder, Position};
    use mysl_tb::variant::{self, Dtm, Pieces, VariantGenerator};
    let dir = tempfile::tempdir().expect("tempdir");
    let mut g = VariantGenerator::<Cylinder>::default();
    let table = g.table(&Pieces::parse::<Cylinder>("KQvK").expect("ending"), &mut |_| {}).expect("generates");
    for t in g.tables() {
        variant::write(dir.path(), &t).expect("writes");
    }
    let mut front = mysl_tb::Tablebases::new();
    front.set_ours(dir.path()).expect("reads the directory");
    let config = mysl_web::Config {
        tablebase: Some(mysl_web::tablebase::Tablebases {
            mysl: None,
            front: Some(std::sync::Arc::new(front)),
            syzygy: false,
            name: "test".into(),
        }),
        ..mysl_web::Config::default()
    };
    let app = mysl_web::router(mysl_web::AppState::new(config, 8080));
    let (_, info, _) = get(&app, "/api/info").await;
    assert_eq!(info["tablebase"]["variants"], json!(["cylinder"]), "{info}");
    let fen = "8/8/8/3k4/8/8/8/KQ6 w - - 0 1";
    let (s, v, _) = get(&app, &format!("/api/tablebase?variant=cylinder&fen={}", q(fen))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let pos = Position::<Cylinder>::from_fen(fen).expect("fen");
    let Some(Dtm::Win(plies)) = table.probe(&pos) else { panic!("a win") };
    assert_eq!((v["dtm"].as_i64(), v["category"].as_str()), (Some(plies as i64), Some("win")), "{v}");
    let moves = v["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), pos.legal_moves().len());
    assert_eq!(moves[0]["dtm"].as_i64(), Some(plies as i64), "the best move keeps the distance: {v}");
    assert!(moves.iter().any(|m| m["category"] == "draw"), "a queen left to the king: {v}");
    // another variant without tables: a clear 400
    let (s, v, _) = get(&app, &format!("/api/tablebase?variant=antichess&fen={}", q(fen))).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).contains("no antichess tables"), "{v}");
}
