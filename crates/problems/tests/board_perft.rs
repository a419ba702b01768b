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
