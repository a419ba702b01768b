//! The server on a real localhost socket fed what a browser never sends (issue 24 item 6): requests that
//! do not parse or are too large, WebSocket frames that are too large or break the protocol, paths that
//! try to leave the embedded assets, and `Host`/`Origin` values of a DNS-rebinding or cross-site page
//! (also on the WebSocket upgrade). Each must be refused with a 4xx or close only its own socket, and
//! leave the other games and sockets as they were. (`api.rs` checks the router's answers in memory;
//! here hyper's and tungstenite's parsing is in the path too.)

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A server on a free port; its `host:port`.
async fn server() -> String {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await.expect("bind");
    let port = listener.local_addr().expect("address").port();
    let state = mysl_web::AppState::new(mysl_web::Config::default(), port);
    tokio::spawn(async move {
        let _ = axum::serve(listener, mysl_web::router(state)).await;
    });
    format!("127.0.0.1:{port}")
}

/// Sends raw bytes on a new connection; the status and the body of the answer (status 0: the server
/// closed the connection without an answer).
async fn raw(addr: &str, request: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    // The server may answer and close before it has read everything: a failed write is not an error.
    let _ = stream.write_all(request).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "no answer within 20 s to {:?}", String::from_utf8_lossy(&request[..request.len().min(80)]));
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

async fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let (status, body) = raw(addr, text.as_bytes()).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// A game between people with these moves; its id.
async fn game(addr: &str, moves: &[&str]) -> u64 {
    let (s, v) = request(addr, "POST", "/api/games", r#"{"white":"human","black":"human"}"#).await;
    assert_eq!(s, 200, "{v}");
    let id = v["id"].as_u64().expect("id");
    for m in moves {
        let (s, v) = request(addr, "POST", &format!("/api/games/{id}/move"), &json!({ "move": m }).to_string()).await;
        assert_eq!(s, 200, "{v}");
    }
    id
}

async fn moves_of(addr: &str, id: u64) -> Vec<String> {
    let (s, v) = request(addr, "GET", &format!("/api/games/{id}"), "").await;
    assert_eq!(s, 200, "{v}");
    v["moves"].as_array().expect("moves").iter().map(|m| m["uci"].as_str().expect("uci").to_string()).collect()
}

async fn watch(addr: &str, id: u64) -> Socket {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/ws")).await.expect("WebSocket");
    ws.send(Message::text(json!({"type": "watch", "game": id}).to_string())).await.expect("send");
    let v = next_json(&mut ws).await.expect("the game's view");
    assert_eq!(v["type"], "game");
    ws
}

async fn next_json(ws: &mut Socket) -> Option<Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(20), ws.next()).await.ok()?? {
            Ok(Message::Text(t)) => return Some(serde_json::from_str(&t).expect("JSON")),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// A move by HTTP reaches the watching socket: the socket and the game still work.
async fn still_works(addr: &str, id: u64, ws: &mut Socket, mv: &str, expected: &[&str]) {
    assert_eq!(moves_of(addr, id).await, expected, "game {id} unchanged");
    let (s, v) = request(addr, "POST", &format!("/api/games/{id}/move"), &json!({ "move": mv }).to_string()).await;
    assert_eq!(s, 200, "{v}");
    let v = next_json(ws).await.expect("the watching socket still receives");
    assert_eq!(v["game"]["moves"].as_array().map(Vec::len), Some(expected.len() + 1), "{v}");
}

#[tokio::test]
async fn malformed_and_oversized_requests_are_4xx_and_other_games_go_on() {
    let addr = server().await;
    let id = game(&addr, &["e2e4"]).await;
    let mut ws = watch(&addr, id).await;
    let post = |path: &str, content_type: &str, body: &str| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    };
    let mv = format!("/api/games/{id}/move");
    let big = format!("{{\"move\":\"{}\"}}", "x".repeat(mysl_web::MAX_BODY_BYTES));
    let mut chunked = format!(
        "POST {mv} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    .into_bytes();
    for _ in 0..20 {
        chunked.extend_from_slice(format!("1000\r\n{}\r\n", "y".repeat(4096)).as_bytes());
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let many_headers: String = (0..300).map(|i| format!("X-H{i}: {i}\r\n")).collect();
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        ("a request line that is not HTTP", b"HELLO THERE\r\n\r\n".to_vec(), 400),
        ("a bad Content-Length", format!("POST {mv} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: abc\r\n\r\n").into_bytes(), 400),
        ("a control character in the path", format!("GET /api/games/\x01 HTTP/1.1\r\nHost: {addr}\r\n\r\n").into_bytes(), 400),
        ("a header of 1 MiB", format!("GET /api/info HTTP/1.1\r\nHost: {addr}\r\nX-Big: {}\r\n\r\n", "z".repeat(1 << 20)).into_bytes(), 431),
        ("300 headers", format!("GET /api/info HTTP/1.1\r\nHost: {addr}\r\n{many_headers}\r\n").into_bytes(), 431),
        ("a body over the limit", post(&mv, "application/json", &big), 413),
        ("a chunked body over the limit", chunked, 413),
        (
            "a Content-Length of a terabyte",
            format!("POST {mv} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n{{")
                .into_bytes(),
            413,
        ),
        ("JSON that does not parse", post(&mv, "application/json", "{\"move\": "), 400),
        ("JSON of the wrong shape", post(&mv, "application/json", "[1, 2, 3]"), 422),
        ("not JSON", post(&mv, "text/plain", "e7e5"), 415),
        ("a form (what a cross-site form posts)", post(&mv, "application/x-www-form-urlencoded", "move=e7e5"), 415),
        ("an unknown method", format!("BREW {mv} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").into_bytes(), 405),
    ];
    for (what, bytes, expected) in cases {
        let (status, body) = raw(&addr, &bytes).await;
        assert_eq!(status, expected, "{what}: {body}");
        if !body.is_empty() {
            // what reaches the router is answered in JSON (hyper answers a request it cannot parse itself)
            let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{what}: {e}: {body}"));
            assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{what}: {body}");
        }
    }
    still_works(&addr, id, &mut ws, "e7e5", &["e2e4"]).await;
}

/// A WebSocket opened by hand on a raw connection (so that frames can break the protocol).
async fn raw_socket(addr: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let upgrade = format!(
        "GET /api/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(upgrade.as_bytes()).await.expect("upgrade");
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8];
        stream.read_exact(&mut byte).await.expect("the upgrade's answer");
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    stream
}

/// A client frame: FIN flag, opcode, masked (as a client must) or not, with this payload; `length`
/// overrides the length written in the header.
fn frame(fin: bool, opcode: u8, masked: bool, payload: &[u8], length: Option<u64>) -> Vec<u8> {
    let mut f = vec![(u8::from(fin) << 7) | opcode];
    let len = length.unwrap_or(payload.len() as u64);
    let mask_bit = if masked { 0x80 } else { 0 };
    if len < 126 {
        f.push(mask_bit | len as u8);
    } else if len <= 0xffff {
        f.push(mask_bit | 126);
        f.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        f.push(mask_bit | 127);
        f.extend_from_slice(&len.to_be_bytes());
    }
    let key = [0x12, 0x34, 0x56, 0x78];
    if masked {
        f.extend_from_slice(&key);
        f.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    } else {
        f.extend_from_slice(payload);
    }
    f
}

/// Reads server frames until a text frame (its text) or the end of the socket (None): a close frame
/// or the connection closed.
async fn read_frame_text(stream: &mut TcpStream) -> Option<String> {
    loop {
        let mut h = [0u8; 2];
        tokio::time::timeout(Duration::from_secs(20), stream.read_exact(&mut h)).await.expect("an answer").ok()?;
        let mut len = u64::from(h[1] & 0x7f);
        if len == 126 {
            let mut b = [0u8; 2];
            stream.read_exact(&mut b).await.ok()?;
            len = u64::from(u16::from_be_bytes(b));
        } else if len == 127 {
            let mut b = [0u8; 8];
            stream.read_exact(&mut b).await.ok()?;
            len = u64::from_be_bytes(b);
        }
        let mut payload = vec![0u8; len as usize];
        stream.read_exact(&mut payload).await.ok()?;
        match h[0] & 0x0f {
            0x1 => return Some(String::from_utf8(payload).expect("UTF-8 text")),
            0x8 => return None,
            _ => {}
        }
    }
}

#[tokio::test]
async fn websocket_frames_that_break_the_rules_close_only_their_socket() {
    let addr = server().await;
    let id = game(&addr, &["d2d4"]).await;
    let mut ws = watch(&addr, id).await;
    let max = mysl_web::MAX_WS_MESSAGE_BYTES;
    let watch_text = json!({"type": "watch", "game": id}).to_string();
    let fragments: Vec<u8> = [
        frame(false, 0x1, true, &vec![b'a'; max / 2], None),
        frame(false, 0x0, true, &vec![b'b'; max / 2], None),
        frame(true, 0x0, true, &vec![b'c'; max / 2], None),
    ]
    .concat();
    let closing: Vec<(&str, Vec<u8>)> = vec![
        ("a text message over the limit", frame(true, 0x1, true, &vec![b'x'; max + 1], None)),
        ("a frame that announces 2^62 bytes", frame(true, 0x2, true, &[], Some(1 << 62))),
        ("fragments that add up to more than the limit", fragments),
        ("text that is not UTF-8", frame(true, 0x1, true, &[0xff, 0xfe, 0xfd], None)),
        ("an unmasked client frame", frame(true, 0x1, false, watch_text.as_bytes(), None)),
        ("a reserved opcode", frame(true, 0x3, true, b"hi", None)),
        ("a ping of 200 bytes (control frames have at most 125)", frame(true, 0x9, true, &[0u8; 200], None)),
    ];
    for (what, bytes) in closing {
        let mut s = raw_socket(&addr).await;
        let _ = s.write_all(&bytes).await;
        assert_eq!(read_frame_text(&mut s).await, None, "{what}: the socket is closed");
    }
    // Messages that are well-formed frames but not understood: an error message, and the socket goes on.
    let mut s = raw_socket(&addr).await;
    for (what, bytes) in [
        ("a binary message", frame(true, 0x2, true, b"\x00\x01", None)),
        ("JSON that does not parse", frame(true, 0x1, true, b"{\"type\":", None)),
        ("an unknown message", frame(true, 0x1, true, br#"{"type":"launch"}"#, None)),
    ] {
        s.write_all(&bytes).await.expect("send");
        let text = read_frame_text(&mut s).await.unwrap_or_else(|| panic!("{what}: socket closed"));
        let v: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(v["type"], "error", "{what}: {v}");
    }
    s.write_all(&frame(true, 0x1, true, watch_text.as_bytes(), None)).await.expect("send");
    let text = read_frame_text(&mut s).await.expect("the game's view");
    assert!(text.contains("\"type\":\"game\""), "{text}");
    // The other socket and the game did not notice.
    still_works(&addr, id, &mut ws, "d7d5", &["d2d4"]).await;
}

#[tokio::test]
async fn no_request_reaches_the_file_system() {
    let addr = server().await;
    let id = game(&addr, &[]).await;
    let paths = [
        "/assets/../../etc/passwd",
        "/../../../../etc/passwd",
        "/assets/..%2f..%2f..%2f..%2fetc%2fpasswd",
        "/assets/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/assets/%252e%252e/%252e%252e/etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "//etc/passwd",
        "/assets//etc/passwd",
        "/assets/%2Fetc%2Fpasswd",
        "/assets/.%2e/.%2e/Cargo.toml",
        "/assets/..\\..\\..\\Cargo.toml",
        "/assets/vendor/chessground/../../../../Cargo.toml",
        "/assets/app.js/../../../../Cargo.toml",
        "/assets/index.html%00.png",
        "/assets/src/lib.rs",
        "/api/../../../etc/passwd",
        "/Cargo.toml",
        "/src/routes.rs",
        "/.git/config",
    ];
    for path in paths {
        let get = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        let (status, body) = raw(&addr, get.as_bytes()).await;
        assert!(status == 404 || status == 400, "{path}: {status} {body}");
        assert!(!body.contains("root:") && !body.contains("[package]") && !body.contains("[core]"), "{path}: {body}");
    }
    // The absolute form (what a proxy gets) names no file either.
    let absolute =
        format!("GET http://{addr}/assets/../../../etc/passwd HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let (status, body) = raw(&addr, absolute.as_bytes()).await;
    assert!(status == 404 || status == 400, "{status} {body}");
    // Fields that look like paths are text: a FEN, a PGN, a problem are read as such, never opened.
    let q = "/api/position?variant=chess&fen=%2Fetc%2Fpasswd";
    let (status, v) = request(&addr, "GET", q, "").await;
    assert_eq!(status, 400, "{v}");
    for (path, body) in
        [("/api/games", json!({"fen": "../../Cargo.toml"})), ("/api/solve", json!({"input": "/etc/passwd"}))]
    {
        let (status, v) = request(&addr, "POST", path, &body.to_string()).await;
        assert_eq!(status, 400, "{path}: {v}");
        assert!(!v.to_string().contains("root:"), "{v}");
    }
    // A PGN that is a path is a PGN without moves: an empty game.
    let (status, v) = request(&addr, "POST", "/api/games/import", &json!({"pgn": "/etc/passwd"}).to_string()).await;
    assert!(status == 200 || status == 400, "{v}");
    assert!(v["moves"].as_array().is_none_or(Vec::is_empty) && !v.to_string().contains("root:"), "{v}");
    // The embedded files are still served, and the game is there.
    let (status, _) =
        raw(&addr, format!("GET /assets/app.js HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes())
            .await;
    assert_eq!(status, 200);
    assert!(moves_of(&addr, id).await.is_empty());
}

#[tokio::test]
async fn host_and_origin_checks_cover_the_websocket_and_odd_host_forms() {
    let addr = server().await;
    let port = addr.rsplit(':').next().expect("port");
    for host in [
        format!("rebind.example:{port}"),
        "127.0.0.1.rebind.example".to_string(),
        format!("localhost:{port}@rebind.example"),
        format!("localhost.:{port}"),
        format!("127.0.0.2:{port}"),
        format!("0.0.0.0:{port}"),
        " ".to_string(),
    ] {
        let request = format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let (status, body) = raw(&addr, request.as_bytes()).await;
        assert_eq!(status, 403, "Host '{host}': {body}");
    }
    // HTTP/1.0 without a Host header.
    let (status, _) = raw(&addr, b"GET /api/info HTTP/1.0\r\n\r\n").await;
    assert_eq!(status, 403);
    // The WebSocket upgrade: a page of another site cannot open the socket (cross-site WebSocket
    // hijacking), nor can a rebound name.
    for (host, origin) in [
        (addr.clone(), Some("http://rebind.example")),
        (addr.clone(), Some("null")),
        (addr.clone(), Some(&*format!("https://127.0.0.1:{port}"))),
        (format!("rebind.example:{port}"), None),
    ] {
        let mut request = tungstenite::client::IntoClientRequest::into_client_request(format!("ws://{addr}/api/ws"))
            .expect("request");
        request.headers_mut().insert("Host", host.parse().expect("header"));
        if let Some(o) = origin {
            request.headers_mut().insert("Origin", o.parse().expect("header"));
        }
        match tokio_tungstenite::connect_async(request).await {
            Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403, "{host} {origin:?}"),
            other => panic!("{host} {origin:?}: the upgrade was not refused: {:?}", other.map(|(_, r)| r.status())),
        }
    }
    // The page's own origin may.
    let mut request =
        tungstenite::client::IntoClientRequest::into_client_request(format!("ws://{addr}/api/ws")).expect("request");
    request.headers_mut().insert("Origin", format!("http://localhost:{port}").parse().expect("header"));
    let (mut ws, response) = tokio_tungstenite::connect_async(request).await.expect("the own origin");
    assert_eq!(response.status(), 101);
    ws.send(Message::text(json!({"type": "watch", "game": 1}).to_string())).await.expect("send");
    let _ = ws.close(None).await;
}
