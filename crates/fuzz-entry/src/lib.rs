//! Fuzzing entry points: one function per kind of input mysl reads, each taking raw bytes,
//! running the code that reads them and asserting what must hold for any input (docs/reliability.md).
//!
//! The cargo-fuzz targets in `fuzz/` are thin wrappers around these functions, and the test
//! `tests/replay.rs` feeds every committed corpus file (`fuzz/corpus/<target>/`) through them on the
//! stable toolchain, so CI replays the corpora without nightly. A panic anywhere (an assertion here
//! or a bug in the code under test) is a finding.
//!
//! Conventions: where a target needs a variant or a few switches, the first input byte holds them
//! and the rest is the text; text is read as UTF-8 with invalid bytes replaced (the readers take
//! `&str`). Work per input is bounded (node caps, depth caps, line caps) so that every input runs in
//! milliseconds.

use std::io::{Cursor, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mysl_book::pgn::{for_each_game, replay_game, GameSink, GameTags};
use mysl_book::{Book, BookWriter, BuildError, BuildOptions, Input, MbkWriter, PolyglotWriter, Progress};
use mysl_core::{dispatch_variant, san, uci, Move, Outcome, Position, Rules, Setup, Variant};
use mysl_protocol::{Flow, Sandbox, Session, Uci, Xboard};

/// An entry point: bytes in, a panic on a finding.
pub type Entry = fn(&[u8]);

/// Every target: its name (the cargo-fuzz target and the corpus folder) and its entry point.
pub const TARGETS: &[(&str, Entry)] = &[
    ("fen", fuzz_fen),
    ("moves", fuzz_moves),
    ("pgn", fuzz_pgn),
    ("book", fuzz_book),
    ("popeye", fuzz_popeye),
    ("uci", fuzz_uci),
    ("xboard", fuzz_xboard),
    ("tb", fuzz_tb),
    ("syzygy", fuzz_syzygy),
    ("web", fuzz_web),
    ("shakmaty", fuzz_shakmaty),
    ("tbdiff", fuzz_tbdiff),
];

/// The variant a selector byte names.
pub fn variant_of(byte: u8) -> Variant {
    Variant::ALL[usize::from(byte) % Variant::ALL.len()]
}

fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

// ---------------------------------------------------------------------------------------------------
// FEN

/// FEN for every variant: byte 0 picks the variant, the rest is the FEN. A FEN that parses and
/// validates must write back to a FEN that reads as the same position (X-FEN and Shredder-FEN); every
/// legal move must be legal by `is_legal`, its SAN and UCI text must read back as the move, and
/// making and unmaking it must restore the key, the FEN and the caches.
pub fn fuzz_fen(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else { return };
    let text = text_of(rest);
    dispatch_variant!(variant_of(selector), R => fen_round_trip::<R>(&text));
}

fn fen_round_trip<R: Rules>(text: &str) {
    let Ok(setup) = Setup::parse(text) else { return };
    let mode = setup.detect_castling_mode();
    let Ok(pos) = Position::<R>::from_setup(setup, mode) else { return };
    check_position(&pos, true);
}

/// The invariants of a valid position; `deep`: also for the positions one move later (every n-th past 48 moves).
fn check_position<R: Rules>(pos: &Position<R>, deep: bool) {
    assert!(pos.is_consistent(), "inconsistent caches in {}", pos.fen());
    let fen = pos.fen();
    for (kind, written) in [("X-FEN", fen.clone()), ("Shredder-FEN", pos.shredder_fen())] {
        let back = match Position::<R>::from_fen(&written) {
            Ok(p) => p,
            Err(e) => panic!("{} {kind} '{written}' written by mysl does not read back: {e}", R::NAME),
        };
        assert_eq!(back.fen(), fen, "{} {kind} '{written}': FEN changed on reading back", R::NAME);
        // The FEN names the e.p. square only when the capture is legal, while the position (and the
        // Polyglot key) keeps it when a pawn could capture at all: an e.p. capture that a pin makes
        // illegal is not written (docs/reliability.md), so only then may the two differ.
        if pos.ep_square() == pos.legal_ep_square() {
            assert!(back == *pos, "{} {kind} '{written}' reads back as another position ({})", R::NAME, back.fen());
            assert_eq!(back.key(), pos.key(), "{} {kind} '{written}': key changed on reading back", R::NAME);
        }
    }
    let legal = pos.legal_moves();
    // The deep check costs the square of the move count (a crowded Recycle or Cylinder position has over
    // 100 moves: half a second): past 48 moves only every n-th child is checked in depth.
    let stride = legal.len().div_ceil(48).max(1);
    for (i, mv) in legal.iter().enumerate() {
        assert!(pos.is_legal(mv), "{} {fen}: generated move {mv:?} is not legal by is_legal", R::NAME);
        let san_text = san::move_to_san_with(pos, mv, &legal);
        assert_eq!(
            san::parse_san(pos, &san_text).ok(),
            Some(mv),
            "{} {fen}: SAN '{san_text}' does not read back",
            R::NAME
        );
        let uci_text = uci::move_to_uci(pos, mv);
        assert_eq!(
            uci::parse_uci_move(pos, &uci_text).ok(),
            Some(mv),
            "{} {fen}: UCI '{uci_text}' does not read back",
            R::NAME
        );
        let mut after = pos.clone();
        after.play_unchecked(mv);
        if deep && i % stride == 0 {
            check_position(&after, false);
        } else {
            assert!(after.is_consistent(), "{} {fen}: inconsistent caches after {uci_text}", R::NAME);
        }
        after.unplay(mv);
        assert!(after == *pos, "{} {fen}: {uci_text} then unplay gives {}", R::NAME, after.fen());
        assert_eq!(after.key(), pos.key(), "{} {fen}: key changed by {uci_text} and unplay", R::NAME);
        assert_eq!(after.fen(), fen, "{} {fen}: FEN changed by {uci_text} and unplay", R::NAME);
    }
}

// ---------------------------------------------------------------------------------------------------
// SAN and UCI move text

/// SAN and UCI move text against a fuzzed position: byte 0 picks the variant; the first line is a FEN
/// (the start position when it is not valid), each further line a move in SAN or UCI text. A move
/// either text reads must be legal and must write back to text that reads as the same move; the
/// first one read is played.
pub fn fuzz_moves(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else { return };
    let text = text_of(rest);
    dispatch_variant!(variant_of(selector), R => moves_on::<R>(&text));
}

fn moves_on<R: Rules>(text: &str) {
    let mut lines = text.lines();
    let mut pos = lines.next().and_then(|fen| Position::<R>::from_fen(fen).ok()).unwrap_or_else(Position::startpos);
    for line in lines.take(64) {
        let legal = pos.legal_moves();
        let by_san = san::parse_san(&pos, line).ok();
        let by_uci = uci::parse_uci_move(&pos, line).ok();
        for mv in by_san.iter().chain(by_uci.iter()).copied() {
            assert!(legal.contains(mv), "{} {}: '{line}' read as the illegal move {mv:?}", R::NAME, pos.fen());
            let s = san::move_to_san(&pos, mv);
            assert_eq!(
                san::parse_san(&pos, &s).ok(),
                Some(mv),
                "{} {}: SAN '{s}' does not read back",
                R::NAME,
                pos.fen()
            );
            let u = uci::move_to_uci(&pos, mv);
            assert_eq!(
                uci::parse_uci_move(&pos, &u).ok(),
                Some(mv),
                "{} {}: UCI '{u}' does not read back",
                R::NAME,
                pos.fen()
            );
        }
        if let Some(mv) = by_san.or(by_uci) {
            pos.play_unchecked(mv);
            assert!(pos.is_consistent(), "{}: inconsistent caches after '{line}' ({})", R::NAME, pos.fen());
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Differential: the rules core against shakmaty

/// At most this many plies a `shakmaty` input plays (every ply compares all moves' SAN).
const DIFF_MAX_PLIES: usize = 400;

/// Chess960 start position number `n` (Scharnagl's numbering, 518 the standard one) as a Shredder-FEN.
pub fn chess960_fen(n: usize) -> String {
    let mut rank = [' '; 8];
    let n = n % 960;
    rank[2 * (n % 4) + 1] = 'b';
    rank[2 * (n / 4 % 4)] = 'b';
    let mut put = |k: usize, piece: char| {
        if let Some(i) = (0..8).filter(|&i| rank[i] == ' ').nth(k) {
            rank[i] = piece;
        }
    };
    put(n / 16 % 6, 'q');
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (a, b) = KNIGHTS[n / 96];
    // The second knight first, so that the first one's place is not shifted.
    put(b, 'n');
    put(a, 'n');
    for piece in ['r', 'k', 'r'] {
        put(0, piece);
    }
    let black: String = rank.iter().collect();
    let rooks: Vec<char> = (0..8u8).filter(|&i| rank[usize::from(i)] == 'r').map(|i| char::from(b'a' + i)).collect();
    let castling: String =
        rooks.iter().rev().map(|c| c.to_ascii_uppercase()).chain(rooks.iter().rev().copied()).collect();
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w {castling} - 0 1", black.to_ascii_uppercase())
}

/// The rules core (`crates/core`) against shakmaty 0.30 in the four games both play. Byte 0: bits 0–1
/// the game (chess, Chess960, antichess, three-check), bit 2 clear: the game's start position (for
/// Chess960 bytes 1–2 pick one of the 960), bit 2 set: a FEN up to the first newline (read by both; an
/// input either refuses is skipped). Each further byte picks a legal move (its index modulo their number,
/// in mysl's order), up to 400 plies. At every position: the legal moves (UCI text, castling as each
/// game writes it), the SAN of every move (check and mate suffixes included), the FEN and the outcome
/// must be the same, but for the documented difference in outcomes (shakmaty's insufficient-material
/// draws in antichess and three-check, which mysl does not declare; docs/reliability.md).
pub fn fuzz_shakmaty(data: &[u8]) {
    use mysl_core::{Antichess, Orthodox, ThreeCheck};
    use shakmaty::variant;
    let Some((&flags, rest)) = data.split_first() else { return };
    let game = flags & 3;
    let (fen, choices) = if flags & 4 != 0 {
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        (text_of(&rest[..end]), rest.get(end + 1..).unwrap_or_default())
    } else {
        match game {
            1 => {
                let Some((n, choices)) = rest.split_first_chunk::<2>() else { return };
                (chess960_fen(usize::from(u16::from_le_bytes(*n))), choices)
            }
            2 => ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".to_string(), rest),
            3 => ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1".to_string(), rest),
            _ => (mysl_core::STARTING_FEN.to_string(), rest),
        }
    };
    match game {
        0 => diff_game::<Orthodox, shakmaty::Chess>(&fen, false, choices),
        1 => diff_game::<Orthodox, shakmaty::Chess>(&fen, true, choices),
        2 => diff_game::<Antichess, variant::Antichess>(&fen, false, choices),
        _ => diff_game::<ThreeCheck, variant::ThreeCheck>(&fen, false, choices),
    }
}

/// Plays the game from `fen` in both libraries, comparing every position (see [`fuzz_shakmaty`]).
fn diff_game<R, P>(fen: &str, chess960: bool, choices: &[u8])
where
    R: Rules,
    P: shakmaty::Position + shakmaty::FromSetup + Clone,
{
    use mysl_core::CastlingMode;
    let Ok(setup) = Setup::parse(fen) else { return };
    let mode = if chess960 { CastlingMode::Chess960 } else { setup.detect_castling_mode() };
    let Ok(mut ours) = Position::<R>::from_setup(setup, mode) else { return };
    let their_mode = match mode {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    };
    let Ok(their_fen) = shakmaty::fen::Fen::from_ascii(fen.as_bytes()) else { return };
    let Ok(mut theirs) = P::from_setup(their_fen.into_setup(), their_mode) else { return };
    let mut history = Vec::new();
    for ply in 0..=choices.len().min(DIFF_MAX_PLIES) {
        let context = format!("{} from '{fen}' after {history:?}", R::NAME);
        let moves = diff_position(&ours, &theirs, their_mode, &context);
        let Some(&choice) = choices.get(ply) else { break };
        if moves.is_empty() || ply == DIFF_MAX_PLIES {
            break;
        }
        let mv = moves.get(usize::from(choice) % moves.len()).expect("an index below the length");
        let text = uci::move_to_uci(&ours, mv);
        let Ok(their_move) = shakmaty::uci::UciMove::from_ascii(text.as_bytes()).map(|u| u.to_move(&theirs)) else {
            panic!("{context}: shakmaty does not read the UCI move {text}");
        };
        let Ok(their_move) = their_move else { panic!("{context}: {text} is not legal in shakmaty") };
        ours.play_unchecked(mv);
        theirs.play_unchecked(their_move);
        history.push(text);
    }
}

/// Compares one position of both libraries; returns mysl's legal moves.
fn diff_position<R, P>(
    ours: &Position<R>,
    theirs: &P,
    mode: shakmaty::CastlingMode,
    context: &str,
) -> mysl_core::MoveList
where
    R: Rules,
    P: shakmaty::Position + Clone,
{
    use shakmaty::{EnPassantMode, KnownOutcome};
    use std::collections::BTreeSet;
    let their_fen = shakmaty::fen::Fen::from_position(theirs, EnPassantMode::Legal).to_string();
    assert_eq!(ours.fen(), their_fen, "{context}: the FEN differs");
    let moves = ours.legal_moves();
    let our_set: BTreeSet<String> = moves.iter().map(|m| uci::move_to_uci(ours, m)).collect();
    let their_set: BTreeSet<String> = theirs.legal_moves().iter().map(|m| m.to_uci(mode).to_string()).collect();
    assert_eq!(our_set, their_set, "{context} ({their_fen}): the legal moves differ");
    assert_eq!(our_set.len(), moves.len(), "{context}: a move generated twice");
    for mv in moves.iter() {
        let text = uci::move_to_uci(ours, mv);
        let their_move = shakmaty::uci::UciMove::from_ascii(text.as_bytes())
            .ok()
            .and_then(|u| u.to_move(theirs).ok())
            .unwrap_or_else(|| panic!("{context}: {text} is not legal in shakmaty"));
        let our_san = san::move_to_san_with(ours, mv, &moves);
        let their_san = shakmaty::san::SanPlus::from_move(theirs.clone(), their_move).to_string();
        assert_eq!(our_san, their_san, "{context} ({their_fen}): the SAN of {text} differs");
    }
    let known = |o: Outcome| match o {
        Outcome::Decisive { winner, .. } => KnownOutcome::Decisive {
            winner: if winner.is_white() { shakmaty::Color::White } else { shakmaty::Color::Black },
        },
        Outcome::Draw { .. } => KnownOutcome::Draw,
    };
    let our_outcome = ours.outcome().map(known);
    let their_outcome = match theirs.outcome() {
        shakmaty::Outcome::Known(k) => Some(k),
        shakmaty::Outcome::Unknown => None,
    };
    if our_outcome != their_outcome {
        // shakmaty declares insufficient material in antichess (pieces that can never be captured) and
        // in three-check (bare kings); mysl has no such rule in those games (docs/reliability.md).
        let accepted = R::VARIANT != Variant::Chess
            && our_outcome.is_none()
            && their_outcome == Some(KnownOutcome::Draw)
            && theirs.is_insufficient_material();
        assert!(
            accepted,
            "{context} ({their_fen}): the outcome differs: mysl {our_outcome:?}, shakmaty {their_outcome:?}"
        );
    }
    moves
}

// ---------------------------------------------------------------------------------------------------
// PGN → book

/// The PGN reader as `mysl book build` uses it, bytes in (plain, gzip or zstd), games or located
/// errors out. Byte 0: bits 0–3 the variant (`--variant`), bit 4 Polyglot-compatible counting,
/// bit 5 write Polyglot (else `.mbk`), bit 6 `--max-ply 8`. The rest is the file. Checks: a broken
/// game's location lies in the input; the book written opens and has the entries reported; replaying
/// the games, every stored move of a position reached is legal there.
pub fn fuzz_pgn(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else { return };
    let variant = variant_of(flags & 15);
    let Ok(mut file) = tempfile::NamedTempFile::new() else { return };
    if file.write_all(rest).and_then(|()| file.flush()).is_err() {
        return;
    }
    let inputs = [Input::new(file.path().to_string_lossy().into_owned())];
    let opts = BuildOptions {
        variant,
        min_games: 1,
        max_ply: if flags & 64 != 0 { 8 } else { 1024 },
        polyglot_compat: flags & 16 != 0,
        // The smallest table (1,024 entries): larger inputs spill sorted runs and merge them.
        memory_bytes: 0,
        threads: 1,
        ..BuildOptions::default()
    };
    let polyglot = flags & 32 != 0;
    let lines = rest.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let mut on_error = |_: &Input, loc: mysl_book::GameLocation, e: &mysl_book::GameError| {
        assert!(loc.number >= 1 && loc.line >= 1 && loc.line <= lines, "game located outside the input: {loc:?}");
        assert!(!e.to_string().is_empty());
    };
    let progress = Progress::default();
    let mut out = Cursor::new(Vec::new());
    let (report, skipped) = if polyglot {
        let mut w = PolyglotWriter::new(&mut out);
        let r = mysl_book::build(&inputs, &opts, &mut w, &progress, &mut on_error);
        (r, w.skipped)
    } else {
        let Ok(mut w) = MbkWriter::new(&mut out, variant) else { return };
        (mysl_book::build(&inputs, &opts, &mut w as &mut dyn BookWriter, &progress, &mut on_error), 0)
    };
    let report = match report {
        Ok(r) => r,
        Err(BuildError::Input(e)) => {
            assert!(!e.to_string().is_empty());
            return;
        }
        Err(BuildError::Variant(Variant::Dice, _)) => return,
        Err(e) => panic!("book build failed on a readable input: {e}"),
    };
    let bytes = out.into_inner();
    let book = match Book::from_bytes(&bytes, "built") {
        Ok(b) => b,
        Err(e) => panic!("the book just built does not open: {e}"),
    };
    assert_eq!(book.entries(), report.entries_written - skipped, "entries written and read differ");
    if !polyglot {
        assert_eq!(book.positions(), report.positions_written, "positions written and read differ");
        assert_eq!(book.variant(), Some(variant));
    }
    // Every stored move of a position the games reach is legal there (the writer's and the
    // reader's move encodings agree).
    let book = &book;
    let _ = for_each_game(
        &inputs,
        1,
        Default::default(),
        &Default::default(),
        |_, text| dispatch_variant!(variant, R => replay_game::<R, _>(text, &mut ProbeAll { book }).is_ok()),
        |_, _| {},
    );
}

struct ProbeAll<'b> {
    book: &'b Book,
}

impl<R: Rules> GameSink<R> for ProbeAll<'_> {
    fn tags(&mut self, _: &GameTags) -> bool {
        true
    }
    fn ply(&mut self, pos: &Position<R>, _: Move, ply: usize) -> bool {
        let raw = self.book.raw_entries(pos.key());
        let found = self.book.probe(pos);
        assert_eq!(
            raw.len(),
            found.len(),
            "{} {} (key {:016x}): a stored move is not legal: stored {:?}, legal {:?}",
            R::NAME,
            pos.fen(),
            pos.key(),
            raw.iter().map(|e| e.mv).collect::<Vec<_>>(),
            found.iter().map(|m| m.mv).collect::<Vec<_>>()
        );
        ply < 64
    }
}

// ---------------------------------------------------------------------------------------------------
// Books

/// The Polyglot and `.mbk` readers on fuzzed files. Byte 0 bit 0: when the rest starts like a
/// `.mbk`, its CRC is set right first (so the fuzzer reaches the code behind the checksum). A book
/// that opens is probed along a short game (moves from the book where it has some) and at keys taken
/// from the file; the probe and `contains` must agree, and a chosen move must be a book move.
pub fn fuzz_book(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else { return };
    let mut bytes = rest.to_vec();
    // The `.mbk` header is 64 bytes, with the CRC-32 of everything after it at bytes 48..52.
    if flags & 1 != 0 && bytes.len() >= 64 && bytes.starts_with(mysl_book::format::MBK_MAGIC) {
        let crc = crc32(&bytes[64..]);
        bytes[48..52].copy_from_slice(&crc.to_le_bytes());
    }
    let book = match Book::from_bytes(&bytes, "fuzzed") {
        Ok(b) => b,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let _ = (book.entries(), book.positions());
    let variant = book.variant().unwrap_or(Variant::Chess);
    dispatch_variant!(variant, R => walk_book::<R>(&book, flags));
    for chunk in bytes.chunks(16).take(256) {
        if chunk.len() >= 8 {
            let key =
                u64::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7]]);
            let entries = book.raw_entries(key);
            if let Book::Polyglot(_) = book {
                assert!(!entries.is_empty(), "the key {key:016x} of an entry is not found");
            }
            for k in [key, u64::from_le_bytes(key.to_be_bytes())] {
                let entries = book.raw_entries(k);
                let contains = match &book {
                    Book::Polyglot(b) => b.contains(k),
                    Book::Mbk(b) => b.contains(k),
                };
                assert_eq!(contains, !entries.is_empty(), "contains and raw_entries disagree on {k:016x}");
                assert!(entries.iter().all(|e| e.key == k));
            }
        }
    }
}

fn walk_book<R: Rules>(book: &Book, flags: u8) {
    let mut pos = Position::<R>::startpos();
    for ply in 0..12u32 {
        let moves = book.probe(&pos);
        let legal = pos.legal_moves();
        assert!(moves.iter().all(|m| legal.contains(m.mv)), "a probed move is not legal");
        let random = f64::from((u32::from(flags) * 37 + ply * 11) % 100) / 100.0;
        let chosen = mysl_book::choose_move(&moves, u32::from(flags >> 1) % 101, random);
        if let Some(mv) = chosen {
            assert!(moves.iter().any(|m| m.mv == mv), "the chosen move is not a book move");
        }
        let Some(mv) = chosen.or_else(|| legal.iter().next()) else { break };
        pos.play_unchecked(mv);
    }
}

/// CRC-32 (IEEE), bit by bit: only the `.mbk` fix-up above needs it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

// ---------------------------------------------------------------------------------------------------
// Popeye input and the solver

/// The Popeye input parser on fuzzed text, and the solver on what parses with tiny limits: at most
/// two moves (stipulations cut to 2), one thread, a small hash, a cap of 5,000 nodes a problem and
/// 0.4 s for all. Output in both formats is written for every result.
pub fn fuzz_popeye(data: &[u8]) {
    use mysl_problems::input::TwinChange;
    use mysl_problems::solve::Limits;
    let text = text_of(data);
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(400);
    for parsed in mysl_problems::input::parse_problems(&text).into_iter().take(4) {
        let mut problem = match parsed {
            Ok(p) => p,
            Err(e) => {
                assert!(e.line >= 1 && e.column >= 1, "error not located: {e}");
                continue;
            }
        };
        let cut = |s: &mut mysl_problems::stipulation::Stipulation| s.moves = s.moves.min(2);
        if let Some(s) = problem.stipulation.as_mut() {
            cut(s);
        }
        for twin in &mut problem.twins {
            for change in &mut twin.changes {
                if let TwinChange::Stipulation(s) = change {
                    cut(s);
                }
            }
        }
        problem.options.max_time = None;
        // Nodes can be costly (AntiCirce Cage searches cages inside each move), so a deadline backs
        // the node cap: a solve stops at whichever comes first.
        let limits = Limits {
            hash_entries: 1 << 10,
            threads: 1,
            max_nodes: Some(5_000),
            deadline: Some(deadline),
            ..Limits::default()
        };
        let result = mysl_problems::solve_problem(&problem, &limits);
        let _ = mysl_problems::output::text(&problem, &result);
        let _ = mysl_problems::output::json(&problem, &result);
    }
}

// ---------------------------------------------------------------------------------------------------
// UCI and xboard command streams

/// The bounds of a fuzzed protocol session: 500 nodes a search, 1 MiB hash, 2 threads, perft and
/// bench depth 2, no files.
pub fn sandbox() -> Sandbox {
    Sandbox { max_nodes: Some(500), max_hash_mb: Some(1), max_threads: Some(2), max_depth: Some(2), no_files: true }
}

/// A line sink for a protocol: keeps the number of lines written.
fn counting_output() -> (mysl_protocol::Output, Arc<AtomicUsize>) {
    let count = Arc::new(AtomicUsize::new(0));
    let c = count.clone();
    (
        Arc::new(move |_: &str| {
            c.fetch_add(1, Ordering::Relaxed);
        }),
        count,
    )
}

/// At most this many input lines are fed to a protocol.
const MAX_LINES: usize = 64;

/// The lines fed to a protocol: at most [`MAX_LINES`], of which at most two `bench` (a whole bench run
/// at the sandbox's depth takes about 50 ms: twenty of them made a one-second input with nothing wrong).
fn protocol_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut benches = 0;
    text.lines().take(MAX_LINES).filter(move |line| {
        let bench = line.split_whitespace().next() == Some("bench");
        benches += bench as usize;
        !bench || benches <= 2
    })
}

/// The UCI front end fed a fuzzed command stream (one command a line), in a [`sandbox`].
pub fn fuzz_uci(data: &[u8]) {
    let text = text_of(data);
    let (out, _) = counting_output();
    let mut uci = Uci::with_session(out, Session::sandboxed(sandbox()));
    for line in protocol_lines(&text) {
        if uci.handle(line) == Flow::Quit {
            break;
        }
    }
    uci.session.finish();
}

/// The xboard front end fed a fuzzed command stream (one command a line), in a [`sandbox`].
pub fn fuzz_xboard(data: &[u8]) {
    let text = text_of(data);
    let (out, _) = counting_output();
    let mut xb = Xboard::with_session(out, Session::sandboxed(sandbox()));
    for line in protocol_lines(&text) {
        if xb.handle(line) == Flow::Quit {
            break;
        }
    }
    xb.finish();
}

// ---------------------------------------------------------------------------------------------------
// Our table files

/// The endings a `tb` or `syzygy` selector byte names when the file does not name its own.
const TB_MATERIALS: &[&str] = &["KBvK", "KNvK", "KQvK", "KRvK", "KPvK", "KBvKN", "KNvKN", "KRvKR", "KBvKP", "KQvKR"];

/// Up to `n` legal positions of `material` (orthodox chess, no castling, either side to move),
/// seeded: pieces on random squares, pawns on ranks 2–7, those that do not read as legal skipped.
fn positions_of(material: &str, seed: u64, n: usize) -> Vec<mysl_core::Chess> {
    use mysl_core::rng::SplitMix64;
    let Some((white, black)) = material.split_once('v') else { return Vec::new() };
    let pieces: Vec<char> =
        white.chars().map(|c| c.to_ascii_uppercase()).chain(black.chars().map(|c| c.to_ascii_lowercase())).collect();
    if pieces.len() > 7 {
        return Vec::new();
    }
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..n * 8 {
        if out.len() >= n {
            break;
        }
        let mut board = [None::<char>; 64];
        for &p in &pieces {
            let sq = loop {
                let sq = rng.below(64) as usize;
                let pawn_rank_ok = !matches!(p, 'P' | 'p') || (8..56).contains(&sq);
                if board[sq].is_none() && pawn_rank_ok {
                    break sq;
                }
            };
            board[sq] = Some(p);
        }
        let mut fen = board_fen(&board);
        fen.push_str(if rng.below(2) == 0 { " w - - 0 1" } else { " b - - 0 1" });
        if let Ok(pos) = mysl_core::Chess::from_fen(&fen) {
            out.push(pos);
        }
    }
    out
}

/// Probes positions through both fronts of the tables: `mysl_tb::Tablebase::probe_fen` (what `mysl tb
/// probe` and the web panel ask) and `mysl_tb::Tablebases` (the engine's). Each answers a value or an
/// error (or nothing); a value is in range.
fn probe_fronts(ours: Option<&mysl_tb::Tablebase>, front: &mysl_tb::Tablebases, positions: &[mysl_core::Chess]) {
    for pos in positions {
        if let Some(tb) = ours {
            if let Ok((root, moves)) = tb.probe_fen(&pos.fen()) {
                assert!((-2..=2).contains(&root.wdl()), "WDL {} out of range", root.wdl());
                for m in &moves {
                    assert!(
                        uci::parse_uci_move(pos, &m.uci).is_ok(),
                        "{}: the table move {} is not legal",
                        pos.fen(),
                        m.uci
                    );
                }
            }
        }
        if let Some(w) = front.probe_wdl(pos.board(), pos.turn(), pos.ep_square()) {
            assert!((-2..=2).contains(&w), "WDL {w} out of range");
        }
        if let Some(v) = front.probe(pos.board(), pos.turn(), pos.ep_square()) {
            assert!((-2..=2).contains(&v.wdl), "WDL {} out of range", v.wdl);
        }
        if let Some(root) = front.probe_root(pos) {
            let legal = pos.legal_moves();
            assert_eq!(root.moves.len(), legal.len(), "{}: root moves and legal moves differ", pos.fen());
            assert!(root.moves.iter().all(|m| legal.contains(m.mv)), "{}: a root move is not legal", pos.fen());
        }
    }
}

/// A seed for the positions probed: the input's bytes hashed (FNV-1a).
fn seed_of(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Our table files (`*.mtb`) on fuzzed bytes. Byte 0: bit 0 sets the file's CRC-32 right first (so the
/// fuzzer gets past the checksum), bits 4–7 the ending when the file does not name a valid one.
/// (Decoding a whole file, `TableFile::to_table`, takes 0.2–1 s even for 3 and 4 pieces: it is left
/// to `crates/tb/tests/corrupt.rs`, which decodes 200 damaged files behind a valid checksum.) The file is opened from memory (`TableFile::from_bytes`: an error
/// must name the file) and from a directory (memory-mapped, as `mysl tb probe` and the engine open
/// tables), and probed at storage indexes and at positions of its ending through both fronts (12, or 2
/// when the file is refused): an error or a value, never a panic.
pub fn fuzz_tb(data: &[u8]) {
    use mysl_tb::format::{path_for, MAGIC};
    use mysl_tb::read::TableFile;
    use mysl_tb::Material;
    let Some((&flags, rest)) = data.split_first() else { return };
    let mut bytes = rest.to_vec();
    // The CRC-32 of everything before it is the file's last 4 bytes; the header is 144 bytes.
    if flags & 1 != 0 && bytes.len() >= 148 && bytes.starts_with(MAGIC) {
        let body = bytes.len() - 4;
        let crc = crc32(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
    }
    // The ending the file names (bytes 12..28, NUL-padded), else one from the selector.
    let named = bytes
        .get(12..28)
        .and_then(|b| std::str::from_utf8(&b[..b.iter().position(|&c| c == 0).unwrap_or(16)]).ok())
        .and_then(|t| Material::parse(t).ok())
        .filter(|m| m.normalized() == *m && m.count() > 2);
    let material = match named {
        Some(m) => m,
        None => match Material::parse(TB_MATERIALS[usize::from(flags >> 4) % TB_MATERIALS.len()]) {
            Ok(m) => m,
            Err(e) => panic!("a built-in ending does not parse: {e}"),
        },
    };
    let Ok(dir) = tempfile::tempdir() else { return };
    let path = path_for(dir.path(), &material);
    // A refused file is refused again at every probe (each opens it anew): two positions show that.
    let mut probes = 2;
    match TableFile::from_bytes(&path, bytes.clone(), Some(material)) {
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains(&format!("{material}.mtb")), "the error does not name the file: {text}");
        }
        Ok(f) => {
            probes = 12;
            let size = f.layout.storage_size;
            let step = (size / 64).max(1);
            for side in 0..2 {
                for idx in (0..size.saturating_add(2)).step_by(step as usize) {
                    if let Ok(w) = f.wdl(side, idx) {
                        assert!(idx < size, "a value beyond the table: {idx} of {size}");
                        let _ = w;
                    }
                    let _ = f.get(side, idx);
                    let _ = f.metrics(side, idx);
                    let _ = f.get_cached(side, idx, idx % 2 == 0);
                }
            }
            let _ = f.stream_bytes();
        }
    }
    if std::fs::write(&path, &bytes).is_err() {
        return;
    }
    let ours = mysl_tb::Tablebase::open_dir(dir.path());
    let mut front = mysl_tb::Tablebases::new();
    if front.set_ours(dir.path()).is_err() {
        return;
    }
    let positions = positions_of(&material.to_string(), seed_of(data), probes);
    probe_fronts(Some(&ours), &front, &positions);
}

// ---------------------------------------------------------------------------------------------------
// Syzygy files

/// The Syzygy front (`mysl_tb::Tablebases::add_syzygy`, shakmaty-syzygy behind it, memory-mapped) on
/// fuzzed files under a valid name. Byte 0: bits 0–3 the ending ([`TB_MATERIALS`]); bit 7 clear: the
/// rest is the `.rtbw` file; bit 7 set: bytes 1–2 (little-endian) the length of the `.rtbw` file that
/// follows, then the `.rtbz` file. Positions of the ending are probed (WDL, DTZ, the root moves): a
/// value or nothing, never a panic.
pub fn fuzz_syzygy(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else { return };
    let material = TB_MATERIALS[usize::from(flags & 15) % TB_MATERIALS.len()];
    let (wdl, dtz) = if flags & 0x80 != 0 {
        let Some((len, files)) = rest.split_first_chunk::<2>() else { return };
        let len = usize::from(u16::from_le_bytes(*len)).min(files.len());
        (&files[..len], Some(&files[len..]))
    } else {
        (rest, None)
    };
    let Ok(dir) = tempfile::tempdir() else { return };
    if std::fs::write(dir.path().join(format!("{material}.rtbw")), wdl).is_err() {
        return;
    }
    if let Some(dtz) = dtz {
        if std::fs::write(dir.path().join(format!("{material}.rtbz")), dtz).is_err() {
            return;
        }
    }
    let mut front = mysl_tb::Tablebases::new();
    match front.add_syzygy(dir.path()) {
        Ok(n) => assert!(n >= 1, "the file {material}.rtbw was not added"),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    }
    let positions = positions_of(material, seed_of(data), 12);
    probe_fronts(None, &front, &positions);
}

// ---------------------------------------------------------------------------------------------------
// Differential: our tables against Syzygy

/// The Syzygy files of `../shared/data/syzygy` beside the checkout (all 3–4 piece endings), if there.
pub fn shared_syzygy() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy");
    dir.join("KQvKR.rtbw").is_file().then_some(dir)
}

/// Our tables, generated when an input first needs them, and the Syzygy oracle.
struct TbDiff {
    generator: mysl_tb::Generator,
    /// Our table files (`mysl tb gen`'s format), kept between runs ([`tbdiff_dir`]).
    dir: std::path::PathBuf,
    /// The endings whose files are in `dir`.
    known: std::collections::HashSet<mysl_tb::Material>,
    /// The files of `dir`, and the engine's front over them (reopened when files are added).
    files: mysl_tb::Tablebase,
    ours: mysl_tb::Tablebases,
    syzygy: shakmaty_syzygy::Tablebase<shakmaty::Chess>,
    /// The engine's front over the Syzygy files alone.
    syzygy_front: mysl_tb::Tablebases,
}

/// The sources the table files are made by: a change regenerates the files kept between runs.
const TB_SOURCES: &[&str] = &[
    include_str!("../../tb/src/decode.rs"),
    include_str!("../../tb/src/format.rs"),
    include_str!("../../tb/src/gen.rs"),
    include_str!("../../tb/src/huffman.rs"),
    include_str!("../../tb/src/index.rs"),
    include_str!("../../tb/src/material.rs"),
    include_str!("../../tb/src/pos.rs"),
    include_str!("../../tb/src/read.rs"),
    include_str!("../../tb/src/table.rs"),
    include_str!("../../tb/src/value.rs"),
    include_str!("../../tb/src/write.rs"),
];

/// `target/tbdiff-tables/HASH`: our table files, generated once (about a minute for the 35 endings on an
/// idle machine, 42 MB) and kept for later runs while the generator's sources stay the same (`HASH`);
/// the folders of other sources are removed.
fn tbdiff_dir() -> std::path::PathBuf {
    let hash = TB_SOURCES.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, s| {
        s.bytes().fold(h, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    });
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tbdiff-tables");
    let name = format!("{hash:016x}");
    if let Ok(entries) = std::fs::read_dir(&root) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy() != name {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    root.join(name)
}

impl TbDiff {
    fn new(syzygy_dir: &std::path::Path) -> TbDiff {
        let dir = tbdiff_dir();
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        // SAFETY: shakmaty-syzygy's contract for memory maps: the files of ../shared are read-only.
        let mut syzygy = unsafe { shakmaty_syzygy::Tablebase::with_mmap_filesystem() };
        syzygy.add_directory(syzygy_dir).unwrap_or_else(|e| panic!("{}: {e}", syzygy_dir.display()));
        let mut syzygy_front = mysl_tb::Tablebases::new();
        syzygy_front.add_syzygy(syzygy_dir).unwrap_or_else(|e| panic!("{}: {e}", syzygy_dir.display()));
        TbDiff {
            generator: mysl_tb::Generator::new(2),
            files: mysl_tb::Tablebase::open_dir(&dir),
            ours: mysl_tb::Tablebases::new(),
            dir,
            known: Default::default(),
            syzygy,
            syzygy_front,
        }
    }

    /// Makes sure the files of `m` and of the endings it converts into are there (generated and written
    /// when missing), and reopens the fronts when files were added.
    fn ensure(&mut self, m: mysl_tb::Material) {
        use mysl_tb::format::path_for;
        let plan = mysl_tb::Generator::plan(&[m]);
        if plan.iter().all(|s| self.known.contains(s)) {
            return;
        }
        if plan.iter().any(|s| !path_for(&self.dir, s).is_file()) {
            self.generator.generate(m, &mysl_tb::Silent);
            for s in &plan {
                if !path_for(&self.dir, s).is_file() {
                    let t = &self.generator.tables[s];
                    if let Err(e) = mysl_tb::write::write_table_resolved(&self.dir, t, &self.generator.tables) {
                        panic!("writing {s}: {e}");
                    }
                }
            }
        }
        self.known.extend(plan);
        self.files = mysl_tb::Tablebase::open_dir(&self.dir);
        self.ours = mysl_tb::Tablebases::new();
        if let Err(e) = self.ours.set_ours(&self.dir) {
            panic!("{}: {e}", self.dir.display());
        }
    }
}

/// The board part of a FEN from 64 squares (a1 first).
fn board_fen(board: &[Option<char>; 64]) -> String {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(p) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(p);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen
}

/// The state of the `tbdiff` target, made once; `None` without the Syzygy files of `../shared`.
fn tbdiff_state() -> Option<&'static std::sync::Mutex<TbDiff>> {
    use std::sync::{Mutex, OnceLock};
    static STATE: OnceLock<Option<Mutex<TbDiff>>> = OnceLock::new();
    STATE
        .get_or_init(|| match shared_syzygy() {
            Some(dir) => Some(Mutex::new(TbDiff::new(&dir))),
            None => {
                eprintln!("tbdiff: skipped, ../shared/data/syzygy not found beside the checkout");
                None
            }
        })
        .as_ref()
}

/// Makes the table files of all 35 endings of the `tbdiff` target (when they are not kept from an earlier
/// run): the fuzz target calls it before the first input, so that no input runs into libFuzzer's timeout
/// while tables are generated.
pub fn tbdiff_prepare() {
    let Some(state) = tbdiff_state() else { return };
    let mut tb = state.lock().unwrap_or_else(|e| e.into_inner());
    for m in mysl_tb::Material::all_up_to(4) {
        tb.ensure(m);
    }
}

/// The FEN a `tbdiff` input builds, with the ending it is of (see [`fuzz_tbdiff`]).
pub fn tbdiff_fen(data: &[u8]) -> Option<(mysl_tb::Material, String)> {
    let endings: Vec<mysl_tb::Material> = mysl_tb::Material::all_up_to(4);
    let (&[ending, flags, counter], squares) = data.split_first_chunk::<3>()?;
    let material = endings[usize::from(ending) % endings.len()];
    let name = material.to_string();
    let (white, black) = name.split_once('v')?;
    let swap = flags & 2 != 0;
    let side = |text: &str, upper: bool| -> Vec<char> {
        text.chars().map(|c| if upper { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() }).collect()
    };
    let pieces: Vec<char> = [side(white, !swap), side(black, swap)].concat();
    let mut board = [None::<char>; 64];
    for (i, &p) in pieces.iter().enumerate() {
        let byte = usize::from(squares.get(i).copied().unwrap_or(0));
        // Pawns on ranks 2–7; a taken square gives the next free one.
        let (first, count) = if matches!(p, 'P' | 'p') { (8, 48) } else { (0, 64) };
        let sq = (0..count).map(|k| first + (byte + k) % count).find(|&sq| board[sq].is_none())?;
        board[sq] = Some(p);
    }
    let white_to_move = flags & 1 == 0;
    // En passant: the first pawn of the side that just moved standing on its double step's square,
    // the two squares behind it empty.
    let mut ep = "-".to_string();
    if flags & 4 != 0 {
        let (pawn, rank, dir): (char, usize, isize) = if white_to_move { ('p', 4, 1) } else { ('P', 3, -1) };
        for file in 0..8 {
            let sq = rank * 8 + file;
            let behind = sq.checked_add_signed(8 * dir)?;
            let start = behind.checked_add_signed(8 * dir)?;
            if board[sq] == Some(pawn) && board[behind].is_none() && board[start].is_none() {
                ep = format!("{}{}", char::from(b'a' + file as u8), char::from(b'1' + (behind / 8) as u8));
                break;
            }
        }
    }
    let turn = if white_to_move { 'w' } else { 'b' };
    Some((material, format!("{} {turn} - {ep} {} 1", board_fen(&board), counter % 128)))
}

/// Our tables (generated here, read from their files as `mysl tb probe` and the engine read them)
/// against Syzygy (shakmaty-syzygy over `../shared/data/syzygy`) on fuzzer-made positions
/// of the 35 endings of 3 and 4 pieces (5-piece tables take minutes and most of a gigabyte each to
/// generate). Byte 0: the ending; byte 1: bit 0 Black to move, bit 1 the stronger side Black, bit 2 an
/// e.p. square where a pawn has just made a double step; byte 2: the 50-move counter (modulo 128); then
/// one byte a piece: its square (the next free one when taken). A position either library refuses is
/// skipped. Checked: WDL equal everywhere; DTZ equal up to Syzygy's rounding (|ours| = |Syzygy| or
/// |Syzygy| + 1, the same sign); the root moves of `Tablebase::probe_fen` are the legal moves, each
/// with the sign of Syzygy's value after it; the engine's front (`Tablebases`) over our files and over the Syzygy files agree on the value, every
/// root move's WDL and DTZ, and the result with the counter (but within a ply of the 100-ply limit,
/// where the front allows Syzygy's rounding a ply of margin). Without `../shared` the target does nothing.
pub fn fuzz_tbdiff(data: &[u8]) {
    use shakmaty::{CastlingMode, EnPassantMode, Position as _};
    let Some(state) = tbdiff_state() else { return };
    let Some((material, fen)) = tbdiff_fen(data) else { return };
    let Ok(pos) = mysl_core::Chess::from_fen(&fen) else { return };
    let Ok(their_fen) = shakmaty::fen::Fen::from_ascii(fen.as_bytes()) else { return };
    let theirs = match their_fen.into_position::<shakmaty::Chess>(CastlingMode::Standard) {
        Ok(p) => p,
        Err(e) => match e.ignore_impossible_check() {
            Ok(p) => p,
            Err(_) => return,
        },
    };
    let mut tb = state.lock().unwrap_or_else(|e| e.into_inner());
    tb.ensure(material);
    let wdl_of = |w: shakmaty_syzygy::Wdl| -> i8 {
        use shakmaty_syzygy::Wdl;
        match w {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    };
    // |ours| = |Syzygy| or |Syzygy| + 1 with the same sign (../shared/data/syzygy/README.md).
    let dtz_agrees =
        |ours: i32, theirs: i32| ours == theirs || (ours.signum() == theirs.signum() && ours.abs() == theirs.abs() + 1);
    let syzygy_wdl = |p: &shakmaty::Chess| match tb.syzygy.probe_wdl_after_zeroing(p) {
        Ok(w) => wdl_of(w),
        Err(e) => panic!("{}: Syzygy fails: {e}", shakmaty::fen::Fen::from_position(p, EnPassantMode::Legal)),
    };
    let wdl = syzygy_wdl(&theirs);
    let dtz = match tb.syzygy.probe_dtz(&theirs) {
        Ok(d) => d.ignore_rounding().0,
        Err(e) => panic!("{fen}: Syzygy's DTZ fails: {e}"),
    };

    // `mysl tb probe`'s path over the files.
    let (root, moves) = match tb.files.probe_fen(&fen) {
        Ok(r) => r,
        Err(e) => panic!("{fen}: our files answer an error: {e}"),
    };
    assert_eq!(root.wdl(), wdl, "{fen}: WDL ours {}, Syzygy {wdl}", root.wdl());
    assert!(dtz_agrees(root.dtz(), dtz), "{fen}: DTZ ours {}, Syzygy {dtz}", root.dtz());
    let legal: std::collections::BTreeSet<String> =
        pos.legal_moves().iter().map(|m| uci::move_to_uci(&pos, m)).collect();
    let listed: std::collections::BTreeSet<String> = moves.iter().map(|m| m.uci.clone()).collect();
    assert_eq!(listed, legal, "{fen}: the root moves of our tables are not the legal moves");
    for m in &moves {
        let Some(theirs_move) =
            shakmaty::uci::UciMove::from_ascii(m.uci.as_bytes()).ok().and_then(|u| u.to_move(&theirs).ok())
        else {
            panic!("{fen}: shakmaty does not take {}", m.uci);
        };
        let mut child = theirs.clone();
        child.play_unchecked(theirs_move);
        let after = -syzygy_wdl(&child);
        assert_eq!(
            m.result.wdl().signum(),
            after.signum(),
            "{fen}: after {} ours {} (WDL for the mover), Syzygy {after}",
            m.uci,
            m.result.wdl()
        );
    }
    // The engine's front over our files against the same front over the Syzygy files.
    let ep = pos.ep_square();
    assert_eq!(tb.ours.probe_wdl(pos.board(), pos.turn(), ep), Some(wdl), "{fen}: the front's WDL probe");
    let ours = tb.ours.probe_root(&pos);
    let syz = tb.syzygy_front.probe_root(&pos);
    let (Some(ours), Some(syz)) = (ours.clone(), syz.clone()) else {
        panic!("{fen}: a root probe answers nothing: ours {ours:?}, Syzygy {syz:?}");
    };
    assert_eq!(ours.value.wdl, wdl, "{fen}: the front's WDL");
    assert!(
        ours.value.dtz.is_some_and(|d| dtz_agrees(d, dtz)),
        "{fen}: the front's DTZ {:?}, Syzygy {dtz}",
        ours.value.dtz
    );
    let mut theirs_moves: Vec<_> = syz.moves.iter().map(|m| (m.uci.clone(), m.wdl, m.dtz)).collect();
    theirs_moves.sort();
    let mut ours_moves: Vec<_> = ours.moves.iter().map(|m| (m.uci.clone(), m.wdl, m.dtz)).collect();
    ours_moves.sort();
    assert_eq!(ours_moves.len(), theirs_moves.len(), "{fen}: the fronts' root moves differ");
    for ((u, w, d), (su, sw, sd)) in ours_moves.iter().zip(&theirs_moves) {
        assert!(
            u == su && w == sw && dtz_agrees(*d, *sd),
            "{fen}: root move {u}: ours WDL {w} DTZ {d}, Syzygy's front {su} WDL {sw} DTZ {sd}"
        );
    }
    let counter = pos.halfmoves() as i32;
    let at_the_limit = ours.moves.iter().any(|m| (99..=101).contains(&(m.dtz.abs() + counter)));
    assert!(
        ours.wdl50 == syz.wdl50 || at_the_limit,
        "{fen}: the result with the counter: ours {}, Syzygy's front {}",
        ours.wdl50,
        syz.wdl50
    );
}

// ---------------------------------------------------------------------------------------------------
// The web API

/// The bounds of the fuzzed web server: 300 nodes a search, 1 MiB tables, 2,000 nodes and 0.2 s a
/// problem solve.
pub fn web_sandbox() -> mysl_web::Sandbox {
    mysl_web::Sandbox {
        max_nodes: Some(300),
        hash_mb: Some(1),
        solve_nodes: Some(2_000),
        solve_time: Some(std::time::Duration::from_millis(200)),
    }
}

/// At most this many requests per input.
const MAX_REQUESTS: usize = 8;

/// KRvK, generated once: the server's tablebase panel answers from it.
fn krvk() -> std::collections::HashMap<mysl_tb::Material, Arc<mysl_tb::Table>> {
    static TABLES: std::sync::OnceLock<std::collections::HashMap<mysl_tb::Material, Arc<mysl_tb::Table>>> =
        std::sync::OnceLock::new();
    TABLES
        .get_or_init(|| {
            let mut g = mysl_tb::Generator::new(1);
            if let Ok(m) = mysl_tb::Material::parse("KRvK") {
                g.generate(m, &mysl_tb::Silent);
            }
            g.tables
        })
        .clone()
}

/// Bytes a query value keeps as they are (RFC 3986's unreserved set); the others are percent-encoded.
const UNRESERVED: &[u8] = b"-._~";
/// Bytes that may stand in a whole query as they are (the fuzzer's own `%` escapes too).
const QUERY_CHARS: &[u8] = b"-._~!$&'()*+,;=:@/?%";

/// `text` with every byte that is not alphanumeric nor in `keep` percent-encoded.
fn percent_encode(text: &str, keep: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || keep.contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// One request of a `web` input: method, path and query, extra headers, body.
struct WebRequest {
    method: String,
    uri: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// The request a chunk of a `web` input stands for (`None`: a WebSocket message, handled by the caller).
fn web_request(selector: u8, payload: &[u8], game: u64, solve: u64) -> Option<WebRequest> {
    let text = text_of(payload);
    let json_str = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    let req =
        |method: &str, uri: String, body: Vec<u8>| WebRequest { method: method.into(), uri, headers: Vec::new(), body };
    Some(match selector % 28 {
        // Raw: "METHOD URI" on the first line, headers "Name: value" up to an empty line, then the body.
        0 => {
            let (head, body) = match text.split_once("\n\n") {
                Some((h, b)) => (h.to_string(), b.as_bytes().to_vec()),
                None => (text.clone(), Vec::new()),
            };
            let mut lines = head.lines();
            let first = lines.next().unwrap_or("");
            let (method, uri) = first.split_once(' ').unwrap_or(("GET", first));
            let headers =
                lines.filter_map(|l| l.split_once(':')).map(|(n, v)| (n.trim().to_string(), v.trim().to_string()));
            WebRequest { method: method.to_string(), uri: uri.to_string(), headers: headers.collect(), body }
        }
        1 => req("POST", "/api/games".into(), payload.to_vec()),
        2 => req(
            "POST",
            "/api/games".into(),
            format!(r#"{{"fen":{},"white":"human","black":"human"}}"#, json_str(&text)).into_bytes(),
        ),
        3 => req("POST", "/api/games".into(), format!(r#"{{"fen":{},"level":1}}"#, json_str(&text)).into_bytes()),
        4 => req("POST", "/api/games/import".into(), payload.to_vec()),
        5 => req("POST", "/api/games/import".into(), format!(r#"{{"pgn":{}}}"#, json_str(&text)).into_bytes()),
        6 => req("GET", format!("/api/games/{game}"), Vec::new()),
        7 => req("POST", format!("/api/games/{game}/move"), payload.to_vec()),
        8 => req("POST", format!("/api/games/{game}/move"), format!(r#"{{"move":{}}}"#, json_str(&text)).into_bytes()),
        9 => req("POST", format!("/api/games/{game}/takeback"), Vec::new()),
        10 => req("POST", format!("/api/games/{game}/resign"), payload.to_vec()),
        11 => req("POST", format!("/api/games/{game}/draw"), Vec::new()),
        12 => req("GET", format!("/api/games/{game}/pgn"), Vec::new()),
        13 => req("GET", format!("/api/games/{game}/evals"), Vec::new()),
        14 => req("GET", format!("/api/explorer?{}", percent_encode(&text, QUERY_CHARS)), Vec::new()),
        15 => req("GET", format!("/api/explorer?fen={}", percent_encode(&text, UNRESERVED)), Vec::new()),
        16 => req("GET", format!("/api/position?{}", percent_encode(&text, QUERY_CHARS)), Vec::new()),
        17 => req("GET", format!("/api/position?fen={}", percent_encode(&text, UNRESERVED)), Vec::new()),
        18 => req("GET", format!("/api/tablebase?{}", percent_encode(&text, QUERY_CHARS)), Vec::new()),
        19 => req("GET", format!("/api/tablebase?fen={}", percent_encode(&text, UNRESERVED)), Vec::new()),
        20 => req("POST", "/api/solve".into(), payload.to_vec()),
        21 => req("POST", "/api/solve".into(), format!(r#"{{"input":{}}}"#, json_str(&text)).into_bytes()),
        22 => req("GET", format!("/api/solve/{solve}"), Vec::new()),
        23 => req("POST", format!("/api/solve/{solve}/cancel"), Vec::new()),
        24 => req("GET", "/api/info".into(), Vec::new()),
        25 => req("GET", "/api/ws".into(), Vec::new()),
        // 26, 27: WebSocket messages.
        _ => return None,
    })
}

/// The web API router in process (`mysl_web::router` on a [`web_sandbox`]ed state, the built-in book
/// and KRvK tables), driven with `tower::ServiceExt::oneshot` on a current-thread runtime. The input
/// is up to 8 requests separated by NUL bytes; byte 0 of each picks the route ([`web_request`]: a raw
/// request, JSON bodies of every POST route as given or with the text in one field, query strings,
/// game and solve routes on the last game and job created) or a WebSocket message (the text as given,
/// or as the FEN of an analysis), handled by `mysl_web::Connection` without a socket. Every response
/// must come within 2 s with a status below 500 and a body that reads; a JSON body must parse, and an
/// API error must be JSON with an `error` sentence (docs/web.md). Afterwards the server is shut down
/// and every thread it started must end within 2 s.
pub fn fuzz_web(data: &[u8]) {
    use axum::body::Body;
    use axum::http::{header, HeaderName, HeaderValue, Method, Request};
    use http_body_util::BodyExt;
    use std::time::{Duration, Instant};
    use tower::ServiceExt;

    let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_time().build() else { return };
    let tablebase = mysl_web::tablebase::Tablebases {
        mysl: Some(mysl_tb::Tablebase::from_tables(krvk())),
        front: None,
        syzygy: false,
        name: "KRvK".into(),
    };
    let config = mysl_web::Config { tablebase: Some(tablebase), ..mysl_web::Config::default() };
    let state = mysl_web::AppState::sandboxed(config, 8080, web_sandbox());
    *state.rng.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = mysl_web::game::Random::new(seed_of(data));
    let app = mysl_web::router(state.clone());
    let (out, mut lines) = tokio::sync::mpsc::unbounded_channel::<String>();
    let mut conn = mysl_web::Connection::default();
    let (mut game, mut solve) = (1u64, 1u64);
    rt.block_on(async {
        for chunk in data.split(|&b| b == 0).filter(|c| !c.is_empty()).take(MAX_REQUESTS) {
            let (&selector, payload) = chunk.split_first().unwrap_or((&0, &[]));
            let Some(r) = web_request(selector, payload, game, solve) else {
                let text = text_of(payload);
                let message = if selector % 28 == 26 {
                    text
                } else {
                    format!(
                        r#"{{"type":"analyse","id":1,"variant":"chess","fen":{}}}"#,
                        serde_json::Value::String(text)
                    )
                };
                conn.message(&state, &message, &out);
                while let Ok(line) = lines.try_recv() {
                    assert!(
                        serde_json::from_str::<serde_json::Value>(&line).is_ok(),
                        "a WebSocket answer is not JSON: {line}"
                    );
                }
                continue;
            };
            let Ok(method) = Method::from_bytes(r.method.as_bytes()) else { continue };
            let mut builder = Request::builder().method(method.clone()).uri(r.uri.as_str());
            let mut has_host = false;
            let mut has_type = false;
            for (name, value) in &r.headers {
                let (Ok(n), Ok(v)) = (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(value)) else {
                    continue;
                };
                has_host |= n == header::HOST;
                has_type |= n == header::CONTENT_TYPE;
                builder = builder.header(n, v);
            }
            if !has_host {
                builder = builder.header(header::HOST, "127.0.0.1:8080");
            }
            if !has_type && method == Method::POST {
                builder = builder.header(header::CONTENT_TYPE, "application/json");
            }
            let Ok(request) = builder.body(Body::from(r.body)) else { continue };
            let path = request.uri().path().to_string();
            let started = Instant::now();
            let answer = tokio::time::timeout(Duration::from_secs(2), async {
                let response = match app.clone().oneshot(request).await {
                    Ok(r) => r,
                    Err(e) => match e {},
                };
                let (parts, body) = response.into_parts();
                let bytes = body.collect().await.map(|b| b.to_bytes());
                (parts, bytes)
            })
            .await;
            let Ok((parts, bytes)) = answer else {
                panic!("{} {}: no answer within 2 s", r.method, r.uri);
            };
            let bytes = match bytes {
                Ok(b) => b,
                Err(e) => panic!("{} {}: the body does not read: {e}", r.method, r.uri),
            };
            let body = String::from_utf8_lossy(&bytes);
            let status = parts.status;
            assert!(
                status.as_u16() < 500,
                "{} {}: status {status} after {:?}: {body}",
                r.method,
                r.uri,
                started.elapsed()
            );
            let is_json = parts
                .headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|t| t.starts_with("application/json"));
            let value = if is_json {
                match serde_json::from_slice::<serde_json::Value>(&bytes) {
                    Ok(v) => Some(v),
                    Err(e) => panic!("{} {}: a JSON answer does not parse ({e}): {body}", r.method, r.uri),
                }
            } else {
                None
            };
            if path.starts_with("/api/") && status.is_client_error() {
                let sentence = value.as_ref().and_then(|v| v["error"].as_str()).unwrap_or("");
                assert!(
                    !sentence.is_empty(),
                    "{} {}: the error {status} is not JSON with an error sentence: {body}",
                    r.method,
                    r.uri
                );
            }
            if let Some(v) = &value {
                if status.is_success() {
                    if path.starts_with("/api/games") {
                        game = v["id"].as_u64().unwrap_or(game);
                    } else if path.starts_with("/api/solve") {
                        solve = v["id"].as_u64().unwrap_or(solve);
                    }
                }
            }
        }
    });
    // Shut down: every search, analysis and solve stops, and every thread the server started ends.
    conn.close();
    state.shutdown();
    drop(app);
    drop(out);
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        // The analysis threads hold a sender of the socket's channel; the others hold the state.
        let analyses_done = matches!(lines.try_recv(), Err(tokio::sync::mpsc::error::TryRecvError::Disconnected));
        if analyses_done && Arc::strong_count(&state) == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "the server's threads still run 2 s after the shutdown");
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(rt);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_check_value() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn every_entry_takes_empty_and_short_inputs() {
        for (_, entry) in TARGETS {
            for data in [&b""[..], b"\0", b"\x01\n", b"\xff\xfe"] {
                entry(data);
            }
        }
    }
}
