//! Our keys are the Polyglot book keys: the test vectors of ../shared/data/books.

mod common;

use mysl_core::{uci, Chess};

#[test]
fn polyglot_test_vectors() {
    let Some(text) = common::shared_file("books/zobrist_test_vectors.tsv") else { return };
    let mut rows = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "row: {line}");
        let expected = u64::from_str_radix(cols[2].trim(), 16).expect("hex key");
        // Through the moves, incrementally.
        let mut pos = Chess::startpos();
        if cols[0] != "-" {
            for text in cols[0].split_whitespace() {
                let mv = uci::parse_uci_move(&pos, text).expect("legal vector move");
                pos.play_unchecked(mv);
            }
        }
        assert_eq!(pos.key(), expected, "incremental key after '{}'", cols[0]);
        // From the FEN, from scratch.
        let from_fen = Chess::from_fen(cols[1]).expect("vector FEN");
        assert_eq!(from_fen.key(), expected, "key of FEN {}", cols[1]);
        rows += 1;
    }
    assert!(rows >= 9, "all nine vectors read");
}

#[test]
fn random64_table_matches_shared_copy() {
    let Some(text) = common::shared_file("books/polyglot_random64.txt") else { return };
    let values: Vec<u64> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("0x"))
        .map(|h| u64::from_str_radix(h, 16).expect("hex"))
        .collect();
    assert_eq!(values.len(), 781);
    use mysl_core::{zobrist, CastlingSide, Color, Piece, Role, Square};
    for (i, v) in values.iter().enumerate().take(768) {
        let kind = i / 64;
        let piece = Piece::new(if kind % 2 == 1 { Color::White } else { Color::Black }, Role::from_index(kind / 2));
        assert_eq!(zobrist::piece_square(piece, Square::from_index((i % 64) as u32)), *v, "index {i}");
    }
    assert_eq!(zobrist::castling(Color::White, CastlingSide::KingSide), values[768]);
    assert_eq!(zobrist::castling(Color::Black, CastlingSide::QueenSide), values[771]);
    assert_eq!(zobrist::en_passant_file(0), values[772]);
    assert_eq!(zobrist::white_to_move(), values[780]);
}
