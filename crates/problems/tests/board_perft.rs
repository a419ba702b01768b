//! The solver board's move generation against the well-known perft counts (castling, en passant,
//! promotions, pins): the solver is only as correct as its legal moves.

use mysl_problems::board::Board;
use mysl_problems::input::parse_problems;

fn board_from_forsyth(fen: &str) -> Board {
    // Popeye's Forsyth writes the knight as S.
    let fen = fen.replace('n', "s").replace('N', "S");
    let text = format!("BeginProblem\nstip #2\nforsyth {fen}\nEndProblem\n");
    let mut b = parse_problems(&text).remove(0).expect("parsed").board;
    b.castling = b.default_castling();
    b
}

fn perft(b: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = b.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for m in moves {
        let u = b.make(m);
        n += perft(b, depth - 1);
        b.unmake(m, u);
    }
    n
}

#[test]
fn start_position() {
    let mut b = board_from_forsyth("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    assert_eq!(perft(&mut b, 3), 8902);
}

#[test]
fn kiwipete_castling_and_en_passant() {
    let mut b = board_from_forsyth("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R");
    assert_eq!(perft(&mut b, 3), 97862);
}

#[test]
fn endgame_pins_and_en_passant() {
    let mut b = board_from_forsyth("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8");
    assert_eq!(perft(&mut b, 4), 43238);
}

#[test]
fn promotions() {
    let mut b = board_from_forsyth("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1");
    assert_eq!(perft(&mut b, 3), 9467);
}

#[test]
fn make_unmake_restores_the_key() {
    let mut b = board_from_forsyth("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R");
    let key = b.key();
    for m in b.legal_moves() {
        let u = b.make(m);
        for r in b.legal_moves() {
            let u2 = b.make(r);
            b.unmake(r, u2);
        }
        b.unmake(m, u);
        assert_eq!(b.key(), key);
    }
}

/// Checkmates among the leaves of a perft tree (the published perft tables count them).
fn perft_mates(b: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return b.is_mate() as u64;
    }
    let mut n = 0;
    for m in b.legal_moves() {
        let u = b.make(m);
        n += perft_mates(b, depth - 1);
        b.unmake(m, u);
    }
    n
}

#[test]
fn mates_at_the_leaves_equal_the_published_perft_counts() {
    // The checkmate column of the well-known perft tables (chessprogramming.org "Perft Results",
    // positions 2, 3 and 4); `is_mate` takes the in-check shortcut of `evasion_candidates`.
    for (fen, depth, mates) in [
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R", 3, 1),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8", 4, 17),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1", 3, 22),
    ] {
        let mut b = board_from_forsyth(fen);
        assert_eq!(perft_mates(&mut b, depth), mates, "{fen} depth {depth}");
    }
}

/// Visits every node of the perft tree below `b` to `depth`; in check, compares the legal
/// moves among `evasion_candidates` with the legal moves of the full generator. Returns how
/// many nodes were in check.
fn compare_evasions(b: &mut Board, depth: u32) -> u64 {
    let legal = b.legal_moves();
    let mut in_check = 0;
    if let (Some(targets), Some(ksq)) = (b.evasion_targets(), b.king_square(b.side)) {
        assert!(b.in_check(b.side));
        in_check += 1;
        let mut candidates = Vec::new();
        b.evasion_candidates(targets, ksq, &mut candidates);
        let us = b.side;
        let mut from_candidates: Vec<_> = candidates
            .into_iter()
            .filter(|&m| {
                let u = b.make(m);
                let ok = !b.in_check(us);
                b.unmake(m, u);
                ok
            })
            .collect();
        let mut expected = legal.clone();
        let key = |m: &mysl_problems::board::Move| (m.from, m.to, format!("{:?}", m.special));
        from_candidates.sort_by_key(key);
        expected.sort_by_key(key);
        assert_eq!(from_candidates, expected, "evasions differ at the node with key {:x}", b.key());
        assert_eq!(b.is_mate(), expected.is_empty());
    } else {
        assert!(!b.in_check(b.side) || b.is_mate() == legal.is_empty());
    }
    if depth > 0 {
        for m in legal {
            let u = b.make(m);
            in_check += compare_evasions(b, depth - 1);
            b.unmake(m, u);
        }
    }
    in_check
}

#[test]
fn evasion_candidates_hold_every_legal_move_in_check() {
    let mut checks = 0;
    for (fen, depth) in [
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R", 3),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8", 4),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1", 3),
    ] {
        checks += compare_evasions(&mut board_from_forsyth(fen), depth);
    }
    // The trees hold a few thousand positions in check (single, double, by pawns and en passant).
    assert!(checks > 1000, "only {checks} positions in check were compared");
}
