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
use mysl_core::{dispatch_variant, san, uci, Move, Position, Rules, Setup, Variant};
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

/// The invariants of a valid position; `deep`: also for every position one move later.
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
    for mv in legal.iter() {
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
        if deep {
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

/// The UCI front end fed a fuzzed command stream (one command a line), in a [`sandbox`].
pub fn fuzz_uci(data: &[u8]) {
    let text = text_of(data);
    let (out, _) = counting_output();
    let mut uci = Uci::with_session(out, Session::sandboxed(sandbox()));
    for line in text.lines().take(MAX_LINES) {
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
    for line in text.lines().take(MAX_LINES) {
        if xb.handle(line) == Flow::Quit {
            break;
        }
    }
    xb.finish();
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
