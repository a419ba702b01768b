//! Incremental accumulator updates along random games equal a refresh at every ply.

use mysl_core::{CastlingMode, Chess, Color, Role};
use mysl_nnue::testing::{random_network, Rng};
use mysl_nnue::{Accumulator, Delta, Network, Placement};

const FENS: &[&str] = &[
    // kiwipete: castling both ways, en passant soon, captures everywhere
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1",
    // promotions (with captures) on both sides
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // an en-passant capture available at once
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // pawns about to promote, few pieces
    "8/P1k5/8/8/8/8/1p4K1/8 w - - 0 1",
    // Chess960 (played in Chess960 castling mode): the king may land on its rook's square
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1r2k2r/8/8/8/8/8/8/R2K1R2 w FAhb - 0 1",
];

#[test]
fn incremental_updates_equal_a_refresh_at_every_ply() {
    let mut seen = [0usize; 4]; // castles, en passant, promotions, captures
    let mut castles_960 = 0;
    for (hidden, seed) in [(32usize, 1u64), (256, 2)] {
        let net = Network::from_bytes(&random_network(hidden, seed)).expect("valid");
        let mut rng = Rng::new(seed * 100);
        let mut fresh = Accumulator::new(&net);
        for fen in FENS {
            for _game in 0..if hidden == 32 { 40 } else { 10 } {
                let mut pos = Chess::from_fen(fen).expect("fen");
                let chess960 = fen.contains("HFhf") || fen.contains("FAhb");
                if chess960 {
                    pos.set_castling_mode(CastlingMode::Chess960);
                }
                let mut acc = Accumulator::new(&net);
                acc.refresh(&net, pos.board());
                let mut placement = Placement::of(pos.board());
                for ply in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer the special moves now and then so that every game has some.
                    let special: Vec<_> = moves
                        .iter()
                        .filter(|m| m.is_castle() || m.is_en_passant() || m.promotion().is_some())
                        .collect();
                    let mv = if !special.is_empty() && rng.below(2) == 0 {
                        special[rng.below(special.len() as u64) as usize]
                    } else {
                        moves.iter().nth(rng.below(moves.len() as u64) as usize).expect("in range")
                    };
                    seen[0] += mv.is_castle() as usize;
                    castles_960 += (chess960 && mv.is_castle()) as usize;
                    seen[1] += mv.is_en_passant() as usize;
                    seen[2] += mv.promotion().is_some() as usize;
                    seen[3] += pos.board().by_color(!pos.turn()).contains(mv.to()) as usize;
                    pos.play_unchecked(mv);
                    let child = Placement::of(pos.board());
                    let delta = Delta::between(&placement, &child).expect("one move");
                    let mut next = Accumulator::new(&net);
                    next.update(&net, &acc, delta.added(), delta.removed());
                    fresh.refresh(&net, pos.board());
                    assert_eq!(next, fresh, "{fen} ply {ply} N={hidden}");
                    for stm in Color::ALL {
                        assert_eq!(net.evaluate(&next, stm), net.evaluate(&fresh, stm));
                    }
                    // add/sub one at a time agree too
                    let mut single = acc.clone();
                    delta.added().iter().for_each(|&(c, r, s)| single.add(&net, c, r, s));
                    delta.removed().iter().for_each(|&(c, r, s)| single.sub(&net, c, r, s));
                    assert_eq!(single, fresh);
                    // a refresh from the placement alone
                    let mut from_placement = Accumulator::new(&net);
                    from_placement.refresh_pieces(&net, child.pieces());
                    assert_eq!(from_placement, fresh);
                    acc = next;
                    placement = child;
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 20), "castles, en passant, promotions, captures: {seen:?}");
    assert!(castles_960 > 10, "Chess960 castles: {castles_960}");
}

#[test]
fn a_null_move_changes_nothing_and_a_big_change_is_no_delta() {
    let pos = Chess::from_fen(FENS[0]).expect("fen");
    let p = Placement::of(pos.board());
    let d = Delta::between(&p, &p).expect("no change");
    assert!(d.added().is_empty() && d.removed().is_empty());
    let empty = Placement::of(&mysl_core::Board::empty());
    assert!(Delta::between(&p, &empty).is_none());
    assert_eq!(p.pieces().filter(|&(_, r, _)| r == Role::King).count(), 2);
}
