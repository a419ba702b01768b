//! A page that goes away mid-analysis frees its search (issue 24 item 6): the analysis threads of a real
//! server (named `analysis` and `game-analysis-N`, counted in /proc/self/task) end when their socket
//! closes, politely or not. One test in this file, so no other test's searches are counted.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// Threads of this process whose name starts with `prefix`.
fn threads(prefix: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    tasks
        .flatten()
        .filter(|t| std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.trim().starts_with(prefix)))
        .count()
}

async fn wait_threads(prefix: &str, expected: usize) -> Duration {
    let start = Instant::now();
    while threads(prefix) != expected {
        assert!(start.elapsed() < Duration::from_secs(10), "{} '{prefix}' threads, not {expected}", threads(prefix));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    start.elapsed()
}

/// The next message of this type.
async fn next_of(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next()).await.expect("a message").expect("open");
        if let Ok(Message::Text(t)) = msg {
            let v: Value = serde_json::from_str(&t).expect("JSON");
            if v["type"] == kind {
                return v;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(target_os = "linux"), ignore = "counts threads through /proc")]
async fn a_socket_that_goes_away_mid_analysis_stops_its_search() {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await.expect("bind");
    let addr = listener.local_addr().expect("address");
    // Room for the five analyses at once whatever the number of cores (the bound has its own tests).
    let config = mysl_web::Config { max_analyses: Some(5), ..mysl_web::Config::default() };
    let state = mysl_web::AppState::new(config, addr.port());
    tokio::spawn(async move {
        let _ = axum::serve(listener, mysl_web::router(state)).await;
    });
    let url = format!("ws://{addr}/api/ws");
    let host = addr.to_string();
    // a game to analyse as a whole
    let game = {
        let body = r#"{"white":"human","black":"human"}"#;
        let request = format!(
            "POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let mut s = TcpStream::connect(addr).await.expect("connect");
        tokio::io::AsyncWriteExt::write_all(&mut s, request.as_bytes()).await.expect("write");
        let mut answer = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut s, &mut answer).await.expect("read");
        let v: Value = serde_json::from_str(answer.split_once("\r\n\r\n").expect("body").1).expect("JSON");
        v["id"].as_u64().expect("id")
    };
    assert_eq!(threads("analysis"), 0);
    let mut sockets = Vec::new();
    for i in 0..4u64 {
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.expect("WebSocket");
        let analyse = json!({"type": "analyse", "id": i, "variant": "chess",
            "fen": "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "multipv": 3});
        ws.send(Message::text(analyse.to_string())).await.expect("send");
        next_of(&mut ws, "info").await;
        sockets.push(ws);
    }
    // and a whole game analysis at ten million nodes a position: minutes of work unless stopped
    let (mut ga, _) = tokio_tungstenite::connect_async(&url).await.expect("WebSocket");
    let moves = ["e2e4", "e7e5", "g1f3"];
    for m in moves {
        let body = json!({ "move": m }).to_string();
        let request = format!(
            "POST /api/games/{game}/move HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let mut s = TcpStream::connect(addr).await.expect("connect");
        tokio::io::AsyncWriteExt::write_all(&mut s, request.as_bytes()).await.expect("write");
        let mut answer = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut s, &mut answer).await.expect("read");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    let request = json!({"type": "analyse_game", "id": 9, "game": game, "nodes": 10_000_000});
    ga.send(Message::text(request.to_string())).await.expect("send");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(threads("analysis"), 4);
    assert_eq!(threads("game-analysis"), 1);

    // Dropped without a WebSocket close (the TCP connection just ends): two analyses and the game analysis.
    let mut sockets = sockets.into_iter();
    drop(sockets.next());
    drop(sockets.next());
    drop(ga);
    let took = wait_threads("analysis", 2).await;
    wait_threads("game-analysis", 0).await;
    eprintln!("dropped sockets: their searches ended after {took:?}");
    // Closed politely.
    let mut third = sockets.next().expect("socket");
    third.close(None).await.expect("close");
    wait_threads("analysis", 1).await;
    // Told to stop, and still open.
    let mut fourth = sockets.next().expect("socket");
    fourth.send(Message::text(json!({"type": "stop"}).to_string())).await.expect("send");
    next_of(&mut fourth, "done").await;
    wait_threads("analysis", 0).await;
}
