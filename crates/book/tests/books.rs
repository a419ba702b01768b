//! Books against outside oracles: Polyglot's golden books (byte for byte), the readable dump of one of
//! them, shakmaty's replay of the same games for our statistics; and broken input of every kind.

use std::io::Cursor;
use std::path::PathBuf;

use mysl_book::build::{BuildOptions, Progress};
use mysl_book::format::{MbkWriter, PolyglotWriter};
use mysl_book::{build, Book, BookError, BuildReport, GameError, GameLocation, Input};
use mysl_core::uci::{move_to_uci, parse_uci_move};
use mysl_core::{Chess, Color};

fn shared_data() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/data not found (expected beside the checkout at {})", dir.display());
        None
    }
}

fn build_polyglot(inputs: &[Input], opts: &BuildOptions) -> (Vec<u8>, BuildReport, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let report = {
        let mut writer = PolyglotWriter::new(&mut out);
        build(inputs, opts, &mut writer, &Progress::default(), &mut |i: &Input, loc: GameLocation, e: &GameError| {
            errors.push(format!("{}: game {} (line {}): {e}", i.name, loc.number, loc.line))
        })
        .expect("build")
    };
    (out, report, errors)
}

fn build_mbk(inputs: &[Input], opts: &BuildOptions) -> (Vec<u8>, BuildReport) {
    let mut out = Cursor::new(Vec::new());
    let report = {
        let mut writer = MbkWriter::new(&mut out, opts.variant).expect("writer");
        build(inputs, opts, &mut writer, &Progress::default(), &mut |_: &Input, _: GameLocation, _: &GameError| {})
            .expect("build")
    };
    (out.into_inner(), report)
}

/// Polyglot's options: compat on, its defaults otherwise.
fn polyglot_opts() -> BuildOptions {
    BuildOptions { polyglot_compat: true, threads: 2, ..BuildOptions::default() }
}

#[test]
fn golden_polyglot_books_are_reproduced_byte_for_byte() {
    let Some(data) = shared_data() else { return };
    let kasparov = data.join("pgn/kasparov-2128.pgn").display().to_string();
    let mentor = data.join("pgn/pgnmentor-12players.pgn.zst").display().to_string();
    let cases: Vec<(&str, &str, BuildOptions)> = vec![
        ("kasparov_allply_min3.bin", &kasparov, polyglot_opts()),
        ("kasparov_maxply20_min1.bin", &kasparov, BuildOptions { max_ply: 20, min_games: 1, ..polyglot_opts() }),
        (
            "kasparov_maxply20_min1_uniform.bin",
            &kasparov,
            BuildOptions { max_ply: 20, min_games: 1, uniform: true, ..polyglot_opts() },
        ),
        (
            "kasparov_maxply20_min1_onlywhite.bin",
            &kasparov,
            BuildOptions { max_ply: 20, min_games: 1, only: Some(Color::White), ..polyglot_opts() },
        ),
        (
            "kasparov_maxply20_min1_minscore50.bin",
            &kasparov,
            BuildOptions { max_ply: 20, min_games: 1, min_score: 50.0, ..polyglot_opts() },
        ),
        ("pgnmentor_allply_min3.bin", &mentor, polyglot_opts()),
        // A small memory budget: the same bytes must come out of spilled, merged runs.
        (
            "pgnmentor_maxply30_min3.bin",
            &mentor,
            BuildOptions { max_ply: 30, memory_bytes: 4 << 20, ..polyglot_opts() },
        ),
    ];
    for (golden, pgn, opts) in cases {
        let expected = std::fs::read(data.join("books").join(golden)).expect("golden book");
        let (ours, report, errors) = build_polyglot(&[Input::new(pgn)], &opts);
        assert!(errors.is_empty(), "{golden}: {errors:?}");
        if golden.starts_with("pgnmentor_maxply30") {
            assert!(report.runs_spilled > 1, "the small budget should spill: {report:?}");
        }
        assert_eq!(ours.len(), expected.len(), "{golden}: size");
        if let Some(i) = ours.chunks(16).zip(expected.chunks(16)).position(|(a, b)| a != b) {
            panic!(
                "{golden}: entry {i} differs: ours {:02x?}, Polyglot {:02x?}",
                &ours[i * 16..i * 16 + 16],
                &expected[i * 16..i * 16 + 16]
            );
        }
    }
}

#[test]
fn reader_agrees_with_the_golden_dump() {
    let Some(data) = shared_data() else { return };
    let book = Book::open(data.join("books/kasparov_maxply20_min1.bin")).expect("book");
    let dump = std::fs::read_to_string(data.join("books/kasparov_maxply20_min1.dump.tsv")).expect("dump");
    let mut by_epd: std::collections::BTreeMap<String, Vec<(String, u16)>> = Default::default();
    for line in dump.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        by_epd.entry(f[1].to_string()).or_default().push((f[2].to_string(), f[4].parse().expect("weight")));
    }
    // 517 positions, 887 moves (the data README says 567 positions: it counts otherwise).
    assert_eq!(by_epd.len(), 517);
    assert_eq!(by_epd.values().map(Vec::len).sum::<usize>(), 887);
    for (epd, expected) in by_epd {
        let pos = Chess::from_fen(&format!("{epd} 0 1")).expect("epd");
        let ours: Vec<(String, u16)> = book.probe(&pos).iter().map(|m| (move_to_uci(&pos, m.mv), m.weight)).collect();
        assert_eq!(ours, expected, "{epd}");
    }
}

/// Counts first moves with shakmaty (an independent replay) and compares with our statistics.
#[test]
fn mbk_statistics_match_an_independent_count() {
    use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
    use shakmaty::{Chess as SChess, Position as _};
    use std::ops::ControlFlow;

    let Some(data) = shared_data() else { return };
    let path = data.join("pgn/kasparov-2128.pgn");

    #[derive(Default)]
    struct FirstMoves {
        // (uci, result, white elo, black elo)
        rows: Vec<(String, String, Option<u32>)>,
    }
    struct Game {
        pos: SChess,
        first: Option<String>,
        result: String,
        white_elo: Option<u32>,
    }
    impl Visitor for FirstMoves {
        type Tags = (String, Option<u32>);
        type Movetext = Game;
        type Output = ();
        fn begin_tags(&mut self) -> ControlFlow<(), Self::Tags> {
            ControlFlow::Continue((String::new(), None))
        }
        fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
            if name == b"Result" {
                tags.0 = String::from_utf8_lossy(value.as_bytes()).into_owned();
            } else if name == b"WhiteElo" {
                tags.1 = std::str::from_utf8(value.as_bytes()).ok().and_then(|s| s.parse().ok()).filter(|&e| e > 0);
            }
            ControlFlow::Continue(())
        }
        fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<(), Game> {
            ControlFlow::Continue(Game { pos: SChess::default(), first: None, result: tags.0, white_elo: tags.1 })
        }
        fn begin_variation(&mut self, _: &mut Game) -> ControlFlow<(), Skip> {
            ControlFlow::Continue(Skip(true))
        }
        fn san(&mut self, g: &mut Game, san: SanPlus) -> ControlFlow<()> {
            if g.first.is_none() {
                if let Ok(m) = san.san.to_move(&g.pos) {
                    g.first = Some(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
                    g.pos.play_unchecked(m);
                }
            }
            ControlFlow::Continue(())
        }
        fn end_game(&mut self, g: Game) {
            if let Some(f) = g.first {
                self.rows.push((f, g.result, g.white_elo));
            }
        }
    }
    let mut v = FirstMoves::default();
    let file = std::fs::File::open(&path).expect("pgn");
    Reader::new(file).visit_all_games(&mut v).expect("read");

    let opts = BuildOptions { min_games: 1, max_ply: 1, threads: 2, ..BuildOptions::default() };
    let (bytes, report) = build_mbk(&[Input::new(path.display().to_string())], &opts);
    let book = Book::from_bytes(&bytes, "kasparov.mbk").expect("mbk");
    let pos = Chess::startpos();
    let moves = book.probe(&pos);
    let decided: Vec<_> = v.rows.iter().filter(|r| r.1 != "*").collect();
    assert_eq!(report.games_used as usize, decided.len());
    // Every first move with its games, except those that never scored for White (Polyglot's rule drops them).
    let mut firsts: Vec<&str> = decided.iter().map(|r| r.0.as_str()).collect();
    firsts.sort_unstable();
    firsts.dedup();
    let mut listed = 0;
    for uci in firsts {
        let games: Vec<_> = decided.iter().filter(|r| r.0 == uci).collect();
        let count = |res: &str| games.iter().filter(|r| r.1 == res).count() as u32;
        let ours = moves.iter().find(|m| move_to_uci(&pos, m.mv) == uci);
        if 2 * count("1-0") + count("1/2-1/2") == 0 {
            assert!(ours.is_none(), "{uci} never scored");
            continue;
        }
        let m = ours.unwrap_or_else(|| panic!("{uci} missing"));
        listed += 1;
        let s = m.stats.expect("mbk books keep statistics");
        assert_eq!(s.games as usize, games.len(), "{uci}");
        assert_eq!((s.white_wins, s.draws, s.black_wins), (count("1-0"), count("1/2-1/2"), count("0-1")), "{uci}");
        let rated: Vec<u32> = games.iter().filter_map(|r| r.2).collect();
        if !rated.is_empty() {
            assert_eq!(u32::from(s.elo_avg), rated.iter().sum::<u32>() / rated.len() as u32, "{uci}");
        }
        assert_eq!(m.weight as u32, 2 * s.white_wins + s.draws, "{uci}: Polyglot weights for White");
    }
    assert_eq!(listed, moves.len());
    assert!(listed >= 5, "{listed}");
}

const GOOD: &str = "[Event \"g1\"]\n[Result \"1-0\"]\n[WhiteElo \"2500\"]\n[BlackElo \"2400\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n\
[Event \"g2\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 0-1\n\n";

fn write_temp(name: &str, text: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write");
    (dir, path.display().to_string())
}

fn stats_of(text: &str) -> (Vec<u8>, BuildReport, Vec<String>) {
    let (_dir, path) = write_temp("in.pgn", text.as_bytes());
    let opts = BuildOptions { min_games: 1, threads: 2, ..BuildOptions::default() };
    build_polyglot(&[Input::new(path)], &opts)
}

#[test]
fn broken_games_are_reported_and_good_games_kept() {
    let (clean, clean_report, _) = stats_of(GOOD);
    assert_eq!(clean_report.games_used, 2);

    // An illegal move mid-game, junk between games, and a game cut off at the end of the file.
    let illegal = "[Event \"bad\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nf6 1-0\n\n";
    let junk = "%% this is not PGN at all }}} ))) \n\n";
    let truncated = "[Event \"cut\"]\n[Result \"1/2-1/2\"]\n\n1. c4 c5 2. N";
    let text = format!("{illegal}{junk}{GOOD}{truncated}");
    let (book, report, errors) = stats_of(&text);
    assert_eq!(report.broken, 1, "{report:?} {errors:?}");
    assert_eq!(errors.len(), 1);
    assert!(errors[0].contains("game 1 (line 1): illegal move Ke3 at ply 3 (2. Ke3)"), "{}", errors[0]);
    // The cut game's complete moves count; the good games count exactly as on their own.
    assert_eq!(report.games_used, 3, "{report:?}");
    let book = Book::from_bytes(&book, "x").expect("book");
    let clean = Book::from_bytes(&clean, "y").expect("book");
    let start = Chess::startpos();
    let without_c4: Vec<_> = book.probe(&start).into_iter().filter(|m| move_to_uci(&start, m.mv) != "c2c4").collect();
    assert_eq!(without_c4, clean.probe(&start));
    let mut pos = start.clone();
    for (i, m) in ["e2e4", "e7e5", "g1f3", "b8c6"].iter().enumerate() {
        if i > 0 {
            assert_eq!(book.probe(&pos), clean.probe(&pos), "at {m}");
        }
        let mv = parse_uci_move(&pos, m).expect("move");
        pos.play_unchecked(mv);
    }
    let start = book.probe(&Chess::startpos());
    assert!(start.iter().any(|m| move_to_uci(&Chess::startpos(), m.mv) == "c2c4"), "the cut game's first move");
}

#[test]
fn gzip_and_zstd_inputs_give_the_same_book() {
    use std::io::Write;
    let (plain, _, _) = stats_of(GOOD);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(GOOD.as_bytes()).expect("gz");
    let gz = gz.finish().expect("gz");
    let zst = zstd::encode_all(GOOD.as_bytes(), 3).expect("zstd");
    for (name, bytes) in [("a.pgn.gz", gz), ("a.pgn.zst", zst)] {
        let (_dir, path) = write_temp(name, &bytes);
        let opts = BuildOptions { min_games: 1, threads: 2, ..BuildOptions::default() };
        let (book, report, _) = build_polyglot(&[Input::new(path)], &opts);
        assert_eq!(report.games_used, 2, "{name}");
        assert_eq!(book, plain, "{name}");
    }
}

#[test]
fn filters_count_what_they_drop() {
    let text = format!(
        "{GOOD}[Event \"v\"]\n[Variant \"Antichess\"]\n[Result \"1-0\"]\n\n1. e3 b5 1-0\n\n\
         [Event \"u\"]\n[Result \"*\"]\n\n1. g3 *\n\n[Event \"w\"]\n[Variant \"Martian\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n"
    );
    let (_dir, path) = write_temp("f.pgn", text.as_bytes());
    let mut errors = Vec::new();
    let opts = BuildOptions { min_games: 1, min_elo: Some(2450), threads: 1, ..BuildOptions::default() };
    let mut out = Vec::new();
    let report = build(
        &[Input::new(path)],
        &opts,
        &mut PolyglotWriter::new(&mut out),
        &Progress::default(),
        &mut |_: &Input, _: GameLocation, e: &GameError| errors.push(e.to_string()),
    )
    .expect("build");
    assert_eq!(report.games_read, 5);
    assert_eq!(report.filtered_variant, 1);
    assert_eq!(report.broken, 1, "unknown variant");
    assert_eq!(errors, vec!["unknown variant 'Martian'".to_string()]);
    // g1 has 2400 for Black: both must reach 2450. g2 has no ratings. The `*` game is never counted.
    assert_eq!(report.filtered_elo + report.filtered_result, 3, "{report:?}");
    assert_eq!(report.games_used, 0);
    assert!(out.is_empty());

    let either = BuildOptions { elo_either: true, ..opts };
    let (_dir, path) = write_temp("f.pgn", text.as_bytes());
    let mut out = Vec::new();
    let report = build(
        &[Input::new(path)],
        &either,
        &mut PolyglotWriter::new(&mut out),
        &Progress::default(),
        &mut |_: &Input, _: GameLocation, _: &GameError| {},
    )
    .expect("build");
    assert_eq!(report.games_used, 1, "{report:?}");
}

#[test]
fn variant_books_use_the_variants_games() {
    let text = "[Variant \"Antichess\"]\n[Result \"0-1\"]\n\n1. e3 b5 2. Bxb5 Bb7 0-1\n\n\
                [Variant \"Antichess\"]\n[Result \"1-0\"]\n\n1. e3 e6 1-0\n\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
    let (_dir, path) = write_temp("v.pgn", text.as_bytes());
    let opts = BuildOptions { variant: mysl_core::Variant::Antichess, min_games: 1, ..BuildOptions::default() };
    let (bytes, report) = build_mbk(&[Input::new(path)], &opts);
    assert_eq!((report.games_used, report.filtered_variant), (2, 1));
    let book = Book::from_bytes(&bytes, "v.mbk").expect("mbk");
    assert_eq!(book.variant(), Some(mysl_core::Variant::Antichess));
    let pos = mysl_core::Position::<mysl_core::Antichess>::startpos();
    let moves = book.probe(&pos);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].stats.map(|s| s.games), Some(2));
}

#[test]
fn damaged_books_are_refused_with_clear_errors() {
    let (poly, _, _) = stats_of(GOOD);
    let err = Book::from_bytes(&poly[..poly.len() - 3], "odd.bin").expect_err("odd length");
    assert!(matches!(err, BookError::OddLength { .. }), "{err}");
    assert!(err.to_string().contains("odd.bin"), "{err}");
    let mut unsorted = poly.clone();
    let n = unsorted.len();
    let (a, b) = unsorted.split_at_mut(n - 16);
    a[..16].swap_with_slice(&mut b[..16]);
    let err = Book::from_bytes(&unsorted, "unsorted.bin").expect_err("unsorted");
    assert!(matches!(err, BookError::Unsorted { .. }), "{err}");

    let (_dir, path) = write_temp("in.pgn", GOOD.as_bytes());
    let (mbk, _) = build_mbk(&[Input::new(path)], &BuildOptions { min_games: 1, ..BuildOptions::default() });
    assert!(Book::from_bytes(&mbk, "ok.mbk").is_ok());
    let err = Book::from_bytes(&mbk[..mbk.len() - 1], "cut.mbk").expect_err("truncated");
    assert!(matches!(err, BookError::Truncated { .. }), "{err}");
    let err = Book::from_bytes(&mbk[..40], "cut.mbk").expect_err("truncated header");
    assert!(matches!(err, BookError::Truncated { .. }), "{err}");
    let mut flipped = mbk.clone();
    flipped[70] ^= 0x10;
    let err = Book::from_bytes(&flipped, "flip.mbk").expect_err("checksum");
    assert!(matches!(err, BookError::Checksum { .. }), "{err}");
    let mut version = mbk.clone();
    version[8] = 9;
    let err = Book::from_bytes(&version, "v9.mbk").expect_err("version");
    assert!(err.to_string().contains("version 9"), "{err}");
}

#[test]
fn mbk_and_polyglot_books_agree() {
    let Some(data) = shared_data() else { return };
    let pgn = data.join("pgn/kasparov-2128.pgn").display().to_string();
    let opts = BuildOptions { max_ply: 12, min_games: 2, ..BuildOptions::default() };
    let (poly, r1, _) = build_polyglot(&[Input::new(&pgn)], &opts);
    let (mbk, r2) = build_mbk(&[Input::new(&pgn)], &opts);
    assert_eq!(r1.entries_written, r2.entries_written);
    let poly = Book::from_bytes(&poly, "p.bin").expect("bin");
    let mbk_book = Book::from_bytes(&mbk, "m.mbk").expect("mbk");
    // A small book's keys are far apart (8-byte deltas); big books come under 16 bytes an entry.
    assert!(mbk.len() as u64 <= 18 * r2.entries_written, "{} bytes for {} entries", mbk.len(), r2.entries_written);
    // Walk both books together.
    let mut stack = vec![(Chess::startpos(), 0)];
    let mut positions = 0;
    while let Some((pos, depth)) = stack.pop() {
        let a = poly.probe(&pos);
        let b = mbk_book.probe(&pos);
        let strip = |v: &[mysl_book::BookMove]| v.iter().map(|m| (m.mv, m.weight)).collect::<Vec<_>>();
        assert_eq!(strip(&a), strip(&b), "{}", pos.fen());
        positions += 1;
        if depth < 6 {
            for m in a {
                let mut p = pos.clone();
                p.play_unchecked(m.mv);
                stack.push((p, depth + 1));
            }
        }
    }
    assert!(positions > 100, "{positions}");
}
