//! The server under load (issue 24 item 6, docs/reliability.md): the bound on analyses searching at
//! once (more wait in a queue, a freed slot goes to the first waiting), each game behind its own lock
//! (a game held busy does not hold up the others), and the least recently used game dropped at the game
//! limit. Deterministic: the tests wait for messages and states, never for a time to pass (timeouts
//! only turn a hang into a failure).

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use mysl_web::{AppState, Config, Connection};
use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tower::ServiceExt;

const HOST: &str = "127.0.0.1:8080";
const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
/// Only to turn a hang into a failure.
const HANG: Duration = Duration::from_secs(120);

fn state_with(max_analyses: Option<usize>) -> Arc<AppState> {
    AppState::new(Config { max_analyses, ..Config::default() }, 8080)
}

async fn send(app: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = tokio::time::timeout(HANG, app.clone().oneshot(request)).await.expect("no hang").expect("answer");
    let status = response.status();
    let bytes = response.into_body().collect().await.expect("body").to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

async fn get(app: &Router, path: &str) -> (StatusCode, Value) {
    send(app, Request::get(path).header(header::HOST, HOST).body(Body::empty()).expect("request")).await
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    let request = Request::post(path)
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("request");
    send(app, request).await
}

/// A game between two people (no engine thread); its id.
async fn new_game(app: &Router) -> u64 {
    let (status, v) = post(app, "/api/games", json!({"white": "human", "black": "human"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["id"].as_u64().expect("id")
}

/// A WebSocket's server side without a socket: the connection and what it sends.
struct Page {
    conn: Connection,
    out: UnboundedSender<String>,
    answers: UnboundedReceiver<String>,
}

impl Page {
    fn new() -> Page {
        let (out, answers) = unbounded_channel();
        Page { conn: Connection::default(), out, answers }
    }

    fn say(&mut self, state: &Arc<AppState>, message: Value) {
        self.conn.message(state, &message.to_string(), &self.out);
    }

    fn analyse(&mut self, state: &Arc<AppState>, id: u64) {
        self.say(state, json!({"type": "analyse", "id": id, "variant": "chess", "fen": FEN, "multipv": 1}));
    }

    /// The next message of this type (others skipped).
    async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let text = tokio::time::timeout(HANG, self.answers.recv()).await.expect("no hang").expect("open");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            if v["type"] == kind {
                return v;
            }
        }
    }

    /// What was sent so far, without waiting.
    fn sent_now(&mut self) -> Vec<Value> {
        let mut all = Vec::new();
        while let Ok(text) = self.answers.try_recv() {
            all.push(serde_json::from_str(&text).expect("JSON"));
        }
        all
    }
}

/// Until no analysis holds a slot (their threads gone).
async fn all_slots_free(state: &AppState) {
    tokio::time::timeout(HANG, async {
        while state.analyses.running() > 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the analyses end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_beyond_the_bound_wait_and_take_the_freed_slots_in_order() {
    let state = state_with(Some(2));
    assert_eq!(state.analyses.max(), 2);
    let (mut a, mut b, mut c, mut d) = (Page::new(), Page::new(), Page::new(), Page::new());
    a.analyse(&state, 1);
    b.analyse(&state, 2);
    assert_eq!((state.analyses.running(), state.analyses.waiting()), (2, 0));
    a.next_of("info").await;
    b.next_of("info").await;

    // The third and fourth wait; the notice is there as soon as the request is handled.
    c.analyse(&state, 3);
    let notice = c.sent_now();
    assert_eq!(notice.len(), 1, "{notice:?}");
    assert_eq!(notice[0]["type"], "queued");
    assert_eq!(notice[0]["id"], 3);
    assert_eq!(
        (notice[0]["running"].as_u64(), notice[0]["ahead"].as_u64(), notice[0]["max"].as_u64()),
        (Some(2), Some(0), Some(2))
    );
    assert!(notice[0]["message"].as_str().is_some_and(|m| m.contains("at most 2 analyses")), "{notice:?}");
    d.analyse(&state, 4);
    let notice = d.sent_now();
    assert_eq!(notice[0]["type"], "queued");
    assert_eq!(notice[0]["ahead"], 1);
    assert_eq!((state.analyses.running(), state.analyses.waiting()), (2, 2));

    // A waiting request that is stopped leaves the queue at once, with its `done`.
    c.say(&state, json!({"type": "stop"}));
    let now = c.sent_now();
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!((&now[0]["type"], &now[0]["id"]), (&json!("done"), &json!(3)));
    assert_eq!((state.analyses.running(), state.analyses.waiting()), (2, 1));

    // a's socket closes: its slot goes to d (c is gone), which starts searching.
    a.conn.close();
    d.next_of("info").await;
    assert_eq!(state.analyses.waiting(), 0);
    assert!(c.sent_now().iter().all(|m| m["type"] != "info"), "a stopped request never searches");

    // A new request on a socket that runs one replaces it (the old one stops).
    b.analyse(&state, 5);
    let next = b.next_of("info").await;
    // the old search's lines may still come before its `done`; the new one's come after
    if next["id"] == 2 {
        b.next_of("done").await;
        while b.next_of("info").await["id"] != 5 {}
    }
    b.conn.close();
    d.conn.close();
    all_slots_free(&state).await;
    assert_eq!(state.analyses.waiting(), 0);

    // Freed slots are reused: two run again without waiting.
    let (mut e, mut f) = (Page::new(), Page::new());
    e.analyse(&state, 6);
    f.analyse(&state, 7);
    assert_eq!((state.analyses.running(), state.analyses.waiting()), (2, 0));
    assert!(e.sent_now().iter().chain(f.sent_now().iter()).all(|m| m["type"] != "queued"));
    e.next_of("info").await;
    f.next_of("info").await;
    e.conn.close();
    f.conn.close();
    all_slots_free(&state).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_analysis_request_takes_no_slot() {
    let state = state_with(Some(1));
    let mut a = Page::new();
    a.say(&state, json!({"type": "analyse", "id": 1, "variant": "chess", "fen": "not a fen"}));
    let sent = a.sent_now();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["type"], "error");
    assert_eq!((state.analyses.running(), state.analyses.waiting()), (0, 0));
    a.analyse(&state, 2);
    a.next_of("info").await;
    assert_eq!(state.analyses.running(), 1);
    a.conn.close();
    all_slots_free(&state).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_analysis_waits_for_a_slot_too() {
    let state = state_with(Some(1));
    let app = mysl_web::router(state.clone());
    let game = new_game(&app).await;
    for m in ["e2e4", "e7e5", "g1f3"] {
        let (status, v) = post(&app, &format!("/api/games/{game}/move"), json!({"move": m})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (mut a, mut b) = (Page::new(), Page::new());
    a.analyse(&state, 1);
    a.next_of("info").await;

    // Waiting, then stopped while waiting: told at once.
    b.say(&state, json!({"type": "analyse_game", "id": 8, "game": game, "nodes": 2000}));
    let sent = b.sent_now();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(
        (&sent[0]["type"], &sent[0]["id"], &sent[0]["running"]),
        (&json!("game_analysis_queued"), &json!(8), &json!(1))
    );
    b.say(&state, json!({"type": "stop_game_analysis"}));
    let sent = b.sent_now();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!((&sent[0]["type"], &sent[0]["id"]), (&json!("game_analysis_stopped"), &json!(8)));
    assert_eq!(state.analyses.waiting(), 0);

    // Waiting again; the analysis stops and the game analysis takes its slot and finishes.
    b.say(&state, json!({"type": "analyse_game", "id": 9, "game": game, "nodes": 2000}));
    assert_eq!(b.sent_now()[0]["type"], "game_analysis_queued");
    a.say(&state, json!({"type": "stop"}));
    let done = b.next_of("game_analysis").await;
    assert_eq!(done["id"], 9);
    assert_eq!(done["plies"].as_array().map(Vec::len), Some(3));
    a.conn.close();
    b.conn.close();
    all_slots_free(&state).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bound_defaults_to_the_number_of_cores() {
    let state = state_with(None);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    assert_eq!(state.analyses.max(), cores);
}

/// A game held busy (its lock taken here, as a long view or move would hold it) holds up neither
/// another game's requests nor the map: new games, views, moves, the PGN and a socket's watch of the
/// other game are answered. The busy game's own request waits, and is answered once it is released.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::await_holding_lock)] // on purpose: the lock held across the other game's requests
async fn a_busy_game_does_not_hold_up_the_others() {
    let state = state_with(Some(1));
    let app = mysl_web::router(state.clone());
    let busy = new_game(&app).await;
    let other = new_game(&app).await;
    let busy_game = state.game(busy).expect("busy game");
    let held = busy_game.lock().expect("lock");

    // The busy game's own request, on another task: it waits for the lock (or has not started yet).
    let waiting = {
        let app = app.clone();
        tokio::spawn(async move { post(&app, &format!("/api/games/{busy}/move"), json!({"move": "d4"})).await })
    };

    let (status, v) = post(&app, &format!("/api/games/{other}/move"), json!({"move": "e4"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = get(&app, &format!("/api/games/{other}")).await;
    assert_eq!((status, v["moves"].as_array().map(Vec::len)), (StatusCode::OK, Some(1)), "{v}");
    let (status, v) = get(&app, &format!("/api/games/{other}/pgn")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let third = new_game(&app).await;
    assert!(third > other);
    let mut page = Page::new();
    page.say(&state, json!({"type": "watch", "game": other}));
    let view = page.next_of("game").await;
    assert_eq!(view["game"]["id"], other);
    assert!(!waiting.is_finished(), "the busy game's request cannot be answered while its game is held");

    drop(held);
    let (status, v) = tokio::time::timeout(HANG, waiting).await.expect("no hang").expect("task");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"][0]["san"], "d4");
}

/// The engine thinking for one game (its search on its own thread, a 5 s move out of the book) does not
/// hold up another game: that game's moves and views are answered while the engine still thinks (the
/// search holds no lock; the game is locked only to start it and to play its move).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_search_does_not_hold_up_another_game() {
    let state = state_with(Some(1));
    let app = mysl_web::router(state.clone());
    let fen = "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PB1N2/PP1N1PPP/R2QK2R w KQ - 4 10";
    let (status, v) =
        post(&app, "/api/games", json!({"white": "engine", "black": "human", "level": 8, "fen": fen})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["thinking"], true, "{v}");
    let other = new_game(&app).await;
    for m in ["e4", "e5", "Nf3", "Nc6"] {
        let (status, v) = post(&app, &format!("/api/games/{other}/move"), json!({"move": m})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (status, v) = get(&app, &format!("/api/games/{other}")).await;
    assert_eq!((status, v["moves"].as_array().map(Vec::len)), (StatusCode::OK, Some(4)));
    state.shutdown();
}

/// At the game limit the least recently used game is dropped, not the oldest: a request on a game
/// (a view, a move) counts as a use.
#[tokio::test]
async fn the_least_recently_used_game_is_dropped_at_the_limit() {
    let state = state_with(Some(1));
    let app = mysl_web::router(state.clone());
    let mut ids = Vec::new();
    for _ in 0..mysl_web::MAX_GAMES {
        ids.push(new_game(&app).await);
    }
    assert_eq!(lock_len(&state), mysl_web::MAX_GAMES);
    // the oldest is viewed, the second oldest gets a move: the third oldest is the least recently used
    assert_eq!(get(&app, &format!("/api/games/{}", ids[0])).await.0, StatusCode::OK);
    assert_eq!(post(&app, &format!("/api/games/{}/move", ids[1]), json!({"move": "e4"})).await.0, StatusCode::OK);
    let newest = new_game(&app).await;
    assert_eq!(lock_len(&state), mysl_web::MAX_GAMES);
    let (status, v) = get(&app, &format!("/api/games/{}", ids[2])).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    for id in [ids[0], ids[1], ids[3], newest] {
        assert_eq!(get(&app, &format!("/api/games/{id}")).await.0, StatusCode::OK, "game {id}");
    }
    // Now ids[4] is the least recently used (ids[3], ids[0], ids[1] and the newest were used since).
    new_game(&app).await;
    assert_eq!(get(&app, &format!("/api/games/{}", ids[4])).await.0, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, &format!("/api/games/{}", ids[5])).await.0, StatusCode::OK);
    // A socket watching a game uses it too.
    let mut page = Page::new();
    page.say(&state, json!({"type": "watch", "game": ids[6]}));
    page.next_of("game").await;
    new_game(&app).await;
    assert_eq!(get(&app, &format!("/api/games/{}", ids[7])).await.0, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, &format!("/api/games/{}", ids[6])).await.0, StatusCode::OK);
}

fn lock_len(state: &AppState) -> usize {
    state.games.lock().expect("games").len()
}
