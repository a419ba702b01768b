//! Damaged books, many of them (docs/reliability.md). A `.mbk` (the default book) damaged in 1,500
//! seeded ways — truncations, single flipped bytes, overwritten runs — is either refused with a clear
//! error or answers exactly as the intact book at every position of its first plies; never a wrong
//! answer, never a panic. A Polyglot `.bin` has no checksum, so a damaged weight or move cannot be
//! told from a real one: 1,500 variants of a small one must never panic and never return a move that
//! is not legal, and a damaged key order or length is refused.

use std::io::Cursor;

use mysl_book::format::{BookWriter, PolyglotWriter, WrittenMove};
use mysl_book::{Book, BookMove};
use mysl_core::rng::SplitMix64;
use mysl_core::Chess;

/// The positions reached from the start by book moves in `plies` plies (at most `max`), with the
/// book's answer in each.
fn answers(book: &Book, plies: usize, max: usize) -> Vec<(Chess, Vec<BookMove>)> {
    let mut out = Vec::new();
    let mut frontier = vec![Chess::startpos()];
    for _ in 0..plies {
        let mut next = Vec::new();
        for pos in frontier {
            let moves = book.probe(&pos);
            for m in &moves {
                let mut p = pos.clone();
                p.play_unchecked(m.mv);
                next.push(p);
            }
            out.push((pos, moves));
            if out.len() >= max {
                return out;
            }
        }
        frontier = next;
    }
    out
}

fn damage(good: &[u8], rng: &mut SplitMix64, k: usize) -> (&'static str, Vec<u8>) {
    let n = good.len() as u64;
    let mut b = good.to_vec();
    match k % 3 {
        0 => {
            b.truncate(rng.below(n) as usize);
            ("truncated", b)
        }
        1 => {
            let at = rng.below(n) as usize;
            b[at] ^= 1 + rng.below(255) as u8;
            ("flipped", b)
        }
        _ => {
            let at = rng.below(n) as usize;
            let len = (1 + rng.below(16) as usize).min(b.len() - at);
            for x in &mut b[at..at + len] {
                *x = rng.next_u64() as u8;
            }
            ("overwritten", b)
        }
    }
}

#[test]
fn a_damaged_mbk_is_refused_or_answers_right() {
    let good = mysl_book::DEFAULT_BOOK.to_vec();
    let intact = Book::from_bytes(&good, "default").expect("the default book opens");
    let expected = answers(&intact, 4, 400);
    assert!(expected.len() >= 100 && expected.iter().any(|(_, m)| m.len() > 1));
    let mut rng = SplitMix64::new(0xb00c);
    let (mut refused, mut same) = (0, 0);
    for k in 0..1500 {
        let (kind, b) = damage(&good, &mut rng, k);
        let unchanged = b == good;
        match std::panic::catch_unwind(|| Book::from_bytes(&b, "damaged.mbk")) {
            Err(_) => panic!("variant {k} ({kind}): opening panicked"),
            Ok(Err(e)) => {
                assert!(e.to_string().starts_with("damaged.mbk: "), "variant {k} ({kind}): {e}");
                refused += 1;
            }
            Ok(Ok(book)) => {
                assert!(unchanged, "variant {k} ({kind}): a damaged book was accepted");
                for (pos, moves) in &expected {
                    assert_eq!(&book.probe(pos), moves, "variant {k} ({kind}): a wrong answer");
                }
                same += 1;
            }
        }
    }
    println!("1500 damaged default books: {refused} refused, {same} unchanged and right");
    assert!(refused > 1400);
}

#[test]
fn a_damaged_polyglot_book_never_panics_nor_gives_an_illegal_move() {
    // A small Polyglot book: the default book's moves in its first plies.
    let source = Book::from_bytes(mysl_book::DEFAULT_BOOK, "default").expect("the default book opens");
    let mut positions: Vec<(u64, Vec<WrittenMove>)> = answers(&source, 4, 200)
        .into_iter()
        .filter(|(_, m)| !m.is_empty())
        .map(|(p, m)| {
            let moves = m
                .iter()
                .map(|b| WrittenMove { mv: b.mv, weight: b.weight, stats: b.stats.unwrap_or_default() })
                .collect();
            (p.key(), moves)
        })
        .collect();
    positions.sort_by_key(|p| p.0);
    positions.dedup_by_key(|p| p.0);
    let mut good = Vec::new();
    {
        let mut w = PolyglotWriter::new(Cursor::new(&mut good));
        for (key, moves) in &positions {
            w.position(*key, moves).expect("write");
        }
        w.finish().expect("write");
    }
    let intact = Book::from_bytes(&good, "small.bin").expect("opens");
    let probes: Vec<Chess> = answers(&intact, 4, 300).into_iter().map(|(p, _)| p).collect();
    let mut rng = SplitMix64::new(0x9017);
    let (mut refused, mut opened) = (0, 0);
    for k in 0..1500 {
        let (kind, b) = damage(&good, &mut rng, k);
        let outcome = std::panic::catch_unwind(|| match Book::from_bytes(&b, "damaged.bin") {
            Err(e) => Err(e.to_string()),
            Ok(book) => {
                for pos in &probes {
                    let legal = pos.legal_moves();
                    for m in book.probe(pos) {
                        assert!(legal.contains(m.mv), "an illegal move");
                    }
                    let _ = mysl_book::choose_move(&book.probe(pos), 50, 0.5);
                }
                let _ = answers(&book, 3, 100);
                Ok(())
            }
        });
        match outcome {
            Err(_) => panic!("variant {k} ({kind}) panicked or gave an illegal move"),
            Ok(Err(e)) => {
                assert!(e.starts_with("damaged.bin: "), "variant {k} ({kind}): {e}");
                refused += 1;
            }
            Ok(Ok(())) => opened += 1,
        }
    }
    println!("1500 damaged Polyglot books: {refused} refused, {opened} opened (no checksum in the format)");
}
