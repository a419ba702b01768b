//! `mysl web --tb DIR`: the tables are opened from the command line (the page can name no path).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

fn mysl() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mysl"))
}

#[test]
fn a_missing_tablebase_directory_is_an_input_error() {
    let out = mysl().args(["web", "--port", "0", "--tb", "/nonexistent/mysl-tables"]).output().expect("run mysl");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--tb /nonexistent/mysl-tables: not a directory"), "{err}");
}

#[test]
fn the_server_reports_and_probes_its_tables() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("utf-8 path");
    let gen = mysl().args(["tb", "gen", "KRvK", "--dir", d]).output().expect("run mysl");
    assert!(gen.status.success(), "{}", String::from_utf8_lossy(&gen.stderr));
    let mut child = mysl()
        .args(["web", "--port", "0", "--tb", d])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mysl web");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("read");
    let addr = line.trim().strip_prefix("mysl web: listening on http://").expect("address").trim_end_matches('/');
    let get = |path: &str| -> String {
        let mut s = std::net::TcpStream::connect(addr).expect("connect");
        write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").expect("send");
        let mut text = String::new();
        s.read_to_string(&mut text).expect("answer");
        text
    };
    let info = get("/api/info");
    let probe = get("/api/tablebase?variant=chess&fen=8/8/8/8/8/2k5/8/K6R%20w%20-%20-%200%201");
    let _ = child.kill();
    let _ = child.wait();
    assert!(info.contains("\"materials\":[\"KRvK\"]"), "{info}");
    assert!(probe.starts_with("HTTP/1.1 200") && probe.contains("\"wdl\":2"), "{probe}");
}
