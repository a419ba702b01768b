//! Property tests standing in for fuzzing: damaged books and PGN text never panic, and a damaged book is
//! either refused or (when the damage hits only a weight or a statistic) still returns legal moves.

use std::io::Cursor;

use mysl_book::format::{BookWriter, MbkWriter, PolyglotWriter, Stats, WrittenMove};
use mysl_book::pgn::{replay_game, GameSink, GameTags};
use mysl_book::Book;
use mysl_core::{Chess, Move, Orthodox, Position, Variant};
use proptest::prelude::*;

fn sample_books() -> (Vec<u8>, Vec<u8>) {
    let mut pos = Chess::startpos();
    let mut positions = Vec::new();
    for _ in 0..6 {
        let legal = pos.legal_moves();
        let moves: Vec<WrittenMove> = legal
            .iter()
            .take(3)
            .enumerate()
            .map(|(i, mv)| WrittenMove {
                mv,
                weight: 10 - i as u16,
                stats: Stats { games: 4, white_wins: 2, draws: 1, black_wins: 1, elo_avg: 2400 },
            })
            .collect();
        positions.push((pos.key(), moves.clone()));
        pos.play_unchecked(moves[0].mv);
    }
    positions.sort_by_key(|p| p.0);
    let mut poly = Vec::new();
    let mut mbk = Cursor::new(Vec::new());
    {
        let mut p = PolyglotWriter::new(&mut poly);
        let mut m = MbkWriter::new(&mut mbk, Variant::Chess).expect("writer");
        for (k, moves) in &positions {
            p.position(*k, moves).expect("poly");
            m.position(*k, moves).expect("mbk");
        }
        p.finish().expect("poly");
        m.finish().expect("mbk");
    }
    (poly, mbk.into_inner())
}

fn probe_walk(book: &Book) {
    let mut pos = Chess::startpos();
    for _ in 0..8 {
        let legal = pos.legal_moves();
        let moves = book.probe(&pos);
        assert!(moves.iter().all(|m| legal.contains(m.mv)));
        let Some(first) = moves.first() else { break };
        pos.play_unchecked(first.mv);
    }
}

struct Count(usize);
impl GameSink<Orthodox> for Count {
    fn tags(&mut self, _tags: &GameTags) -> bool {
        true
    }
    fn ply(&mut self, pos: &Position<Orthodox>, mv: Move, _ply: usize) -> bool {
        assert!(pos.legal_moves().contains(mv));
        self.0 += 1;
        true
    }
}

const PGN: &str =
    "[Event \"x\"]\n[Result \"1-0\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n\
1. e4 {comment} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_books_never_panic(which in 0usize..2, edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6), cut in any::<usize>()) {
        let (poly, mbk) = sample_books();
        let mut bytes = if which == 0 { poly } else { mbk };
        for (at, value) in edits {
            let i = at % bytes.len();
            bytes[i] = value;
        }
        if cut % 4 == 0 {
            bytes.truncate(cut % (bytes.len() + 1));
        }
        if let Ok(book) = Book::from_bytes(&bytes, "fuzz") {
            probe_walk(&book);
        }
    }

    #[test]
    fn mutated_pgn_never_panics(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8), cut in any::<usize>()) {
        let mut bytes = PGN.as_bytes().to_vec();
        for (at, value) in edits {
            let i = at % bytes.len();
            bytes[i] = value;
        }
        bytes.truncate(cut % (bytes.len() + 1));
        let mut sink = Count(0);
        let _ = replay_game::<Orthodox, _>(&bytes, &mut sink);
    }

    #[test]
    fn random_bytes_are_not_books(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(book) = Book::from_bytes(&bytes, "random") {
            probe_walk(&book);
        }
    }
}
