//! `mysl tb gen` and `mysl tb probe` end to end (small endings only).

use std::process::Command;

fn mysl(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mysl")).args(args).output().expect("run mysl")
}

#[test]
fn gen_resume_and_probe() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("utf-8 path");
    let out = mysl(&["tb", "gen", "KRvK", "--dir", d, "--threads", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.path().join("KRvK.mtb").exists());
    // a second run finds the table and keeps it
    let out = mysl(&["tb", "gen", "KRvK", "--dir", d]);
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("0 endings generated"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    let out = mysl(&["tb", "probe", "--dir", d, "--fen", "8/8/8/8/8/2k5/8/KR6 w - - 0 1", "--json", "--line"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(
        s.starts_with('{') && s.contains("\"wdl\":2") && s.contains("\"moves\":[") && s.contains("\"line\":["),
        "{s}"
    );
    // the mover's values: the best move's DTM is the position's DTM
    let dtm: i32 =
        s.split("\"dtm\":").nth(1).and_then(|x| x.split(',').next()).and_then(|x| x.parse().ok()).expect("dtm");
    let first_move_dtm: i32 =
        s.split("\"dtm\":").nth(2).and_then(|x| x.split(',').next()).and_then(|x| x.parse().ok()).expect("move dtm");
    assert!(dtm > 0 && dtm == first_move_dtm, "{s}");
    let line_len = s.split("\"line\":[").nth(1).map_or(0, |x| x.split(']').next().unwrap_or("").split(',').count());
    assert_eq!(line_len as i32, dtm, "the line to mate has DTM plies: {s}");

    let out = mysl(&["tb", "probe", "--dir", d, "--fen", "8/8/8/8/8/2k5/8/KR6 b - - 0 1"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("loss"));
}

#[test]
fn bad_input_is_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("utf-8 path");
    for (args, needle) in [
        (vec!["tb", "probe", "--dir", d, "--fen", "not a fen"], "bad FEN"),
        (vec!["tb", "probe", "--dir", d, "--fen", "8/8/8/8/8/2k5/8/KQ5r w - - 0 1"], "KQvKR"),
        (vec!["tb", "probe", "--dir", d, "--fen", "8/8/8/8/8/2k5/8/KQ1RN2r w - - 0 1"], "pieces"),
        (vec!["tb", "gen", "KQRBNvK", "--dir", d], "at most 5"),
        (vec!["tb", "gen", "--max-pieces", "7", "--dir", d], "max-pieces"),
        (vec!["tb", "gen", "KRvKX", "--dir", d], "KRvKX"),
    ] {
        let out = mysl(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // a damaged table file names the file
    std::fs::write(dir.path().join("KRvK.mtb"), b"garbage").expect("write");
    let out = mysl(&["tb", "probe", "--dir", d, "--fen", "8/8/8/8/8/2k5/8/KR6 w - - 0 1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("KRvK.mtb"));
}

#[test]
fn probe_through_syzygy_files() {
    let syzygy = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy");
    if !syzygy.is_dir() {
        eprintln!("skipped: ../shared/data/syzygy not found");
        return;
    }
    let s = syzygy.to_str().expect("utf-8 path");
    // a 5-piece position: Syzygy only, no DTM
    let out = mysl(&["tb", "probe", "--syzygy", s, "--fen", "8/3B4/8/1R6/5r2/8/3K4/5k2 w - - 0 1", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let j = String::from_utf8_lossy(&out.stdout);
    assert!(j.contains("\"wdl\":1") && j.contains("\"dtm\":null") && j.contains("\"moves\":["), "{j}");
    // ours first when --dir has the ending
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("utf-8 path");
    assert!(mysl(&["tb", "gen", "KRvK", "--dir", d]).status.success());
    let fen = "8/8/8/8/8/2k5/8/KR6 w - - 0 1";
    let ours = mysl(&["tb", "probe", "--dir", d, "--syzygy", s, "--fen", fen, "--json"]);
    let j = String::from_utf8_lossy(&ours.stdout);
    assert!(j.contains("\"wdl\":2") && !j.contains("\"dtm\":null"), "{j}");
    let theirs = mysl(&["tb", "probe", "--syzygy", s, "--fen", fen, "--json", "--line"]);
    let j = String::from_utf8_lossy(&theirs.stdout);
    assert!(j.contains("\"wdl\":2") && j.contains("\"dtm\":null") && j.contains("\"line\":[\""), "{j}");
    let out = mysl(&["tb", "probe", "--fen", fen]);
    assert_eq!(out.status.code(), Some(2));
}

/// `tb plan --json` is the job graph workflow/Snakefile reads; `tb gen --estimate` prints it and generates
/// nothing; a stale temporary file of a process that is gone is removed, a live one is not.
#[test]
fn plan_and_estimate() {
    let out = mysl(&["tb", "plan", "KRvKP", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = String::from_utf8_lossy(&out.stdout);
    let v: Vec<serde_json::Value> = serde_json::from_str(&s).expect("a JSON array");
    let names: Vec<&str> = v.iter().map(|x| x["ending"].as_str().expect("ending")).collect();
    assert_eq!(names.last(), Some(&"KRvKP"), "{s}");
    for (k, x) in v.iter().enumerate() {
        for need in x["needs"].as_array().expect("needs") {
            assert!(names[..k].contains(&need.as_str().expect("name")), "{} needs {need} later: {s}", names[k]);
        }
        assert!(x["peak_mb"].as_u64().expect("peak") > 0 && x["index_entries"].as_u64().expect("entries") > 0);
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("utf-8 path");
    // a temporary file of a live process (this test's) and of one that cannot exist
    let live = dir.path().join(format!(".KQvK.mtb.tmp{}", std::process::id()));
    let stale = dir.path().join(".KRvK.mtb.tmp4294967295");
    std::fs::write(&live, b"x").expect("write");
    std::fs::write(&stale, b"x").expect("write");
    let out = mysl(&["tb", "gen", "KRvKP", "--dir", d, "--estimate"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("KRvKP") && s.contains("MB peak") && s.contains("10 endings"), "{s}");
    assert!(!dir.path().join("KRvKP.mtb").exists(), "--estimate generates nothing");
    let out = mysl(&["tb", "gen", "KRvK", "--dir", d]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(live.exists() && !stale.exists(), "only the dead process's temporary file is removed");
}

#[test]
fn variant_gen_all_endings_resumes_and_replaces_a_damaged_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("utf-8 path");
    let text = |o: &std::process::Output| {
        format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
    };
    // every cylinder ending of up to 3 pieces: KvK, KXvK and KvKX for X in Q R B N P
    let out = mysl(&["tb", "gen", "--variant", "cylinder", "--max-pieces", "3", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out));
    let files = std::fs::read_dir(dir.path().join("cylinder")).expect("cylinder dir").count();
    assert_eq!(files, 11, "{}", text(&out));
    assert!(text(&out).contains("done: 11 generated, 0 kept"), "{}", text(&out));
    // a damaged file is generated again, the rest kept
    let krk = dir.path().join("cylinder/KRvK.vtb");
    let mut bytes = std::fs::read(&krk).expect("KRvK file");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&krk, &bytes).expect("write");
    let out = mysl(&["tb", "gen", "--variant", "cylinder", "--max-pieces", "3", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("KRvK.vtb: CRC mismatch"), "{}", text(&out));
    assert!(text(&out).contains("done: 1 generated, 10 kept"), "{}", text(&out));
    // the regenerated table answers: Re8 mates (the king's flights h8 and h7 are next to a8 round the
    // cylinder, covered by the rook along the rank and by the king on a6)
    let out = mysl(&["tb", "probe", "--variant", "cylinder", "--dir", d, "--fen", "k7/8/K7/8/8/8/8/4R3 w - - 0 1"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(": win in 1 plies") && text(&out).contains("e1e8: win in 1 plies"), "{}", text(&out));
    // bad values are refused by name
    let out = mysl(&["tb", "gen", "--variant", "cylinder", "--max-pieces", "5", "--dir", d]);
    assert!(!out.status.success() && text(&out).contains("--max-pieces 5"), "{}", text(&out));
    let out = mysl(&["tb", "gen", "--variant", "cylinder", "--dir", d]);
    assert!(!out.status.success() && text(&out).contains("--max-pieces"), "{}", text(&out));
}
