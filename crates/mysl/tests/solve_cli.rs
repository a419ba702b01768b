//! `mysl solve` end to end: Popeye-style text, JSON, located input errors, unsupported features.

use std::process::{Command, Output};

fn mysl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mysl")).args(args).output().expect("run mysl")
}

const PROBLEMS: &str = "BeginProblem
stipulation h#1
pieces white Kc7 Rh1 black Ka8 Pa7b7
NextProblem
stipulation #2
pieces white Ka1 Xb2 black Kh8
NextProblem
stipulation h#2
pieces white Ka1 UUd4 black Kh8
EndProblem
";

#[test]
fn solve_text_json_and_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("p.inp");
    std::fs::write(&file, PROBLEMS).expect("write");
    let path = file.to_str().expect("utf-8 path");

    let o = mysl(&["solve", path]);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "input error gives exit code 2");
    assert!(out.contains("1.b7-b6 Rh1-h8 #\n"), "{out}");
    assert!(out.contains("1.b7-b5 Rh1-h8 #\n"), "{out}");
    assert!(out.contains("solution finished.\nclassification: sound (C+); 1 dual\n"), "{out}");
    assert!(out.contains("not supported yet: fairy piece UU (ubi-ubi)"), "{out}");
    assert!(err.contains("p.inp:6:18: unknown piece 'X' (at 'Xb2')"), "{err}");

    let o = mysl(&["solve", "--json", path]);
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].contains("\"lines\":[\"1.b7-b6 Rh1-h8 #\",\"1.b7-b5 Rh1-h8 #\"]"), "{out}");
    assert!(lines[1].contains("\"error\":\"input\""), "{out}");
    assert!(lines[2].contains("\"kind\":\"unsupported\""), "{out}");
    assert!(lines[0].contains("\"summary\":\"sound (C+); 1 dual\"}"), "{out}");

    // --intended 2: the two lines differ in one black move (a tempo dual), still one solution, so
    // one of two intended solutions is missing.
    let o = mysl(&["solve", "--intended", "2", path]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("classification: unsound: 1 solution of 2 intended; 1 dual\n"), "{out}");
}

#[test]
fn solve_missing_file_is_an_input_error() {
    let o = mysl(&["solve", "/nonexistent/problems.inp"]);
    assert_eq!(o.status.code(), Some(2));
}
