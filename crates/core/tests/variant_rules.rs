//! Hand-checked rule tests for the variants without an outside oracle (Cylinder, Knight Relay, Recycle):
//! one test per rule line of docs/variants.md, plus invariants for every variant.

mod common;

use std::collections::BTreeSet;

use mysl_core::perft::{perft, perft_copy_make};
use mysl_core::{
    dispatch_variant, san, uci, Cylinder, KnightRelay, MoveKind, Position, Recycle, Role, Rules, Variant, VariantState,
};

fn moves<R: Rules>(pos: &Position<R>) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|m| uci::move_to_uci(pos, m)).collect()
}

fn pos<R: Rules>(fen: &str) -> Position<R> {
    Position::<R>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play<R: Rules>(p: &mut Position<R>, text: &str) {
    let mv = uci::parse_uci_move(p, text).unwrap_or_else(|e| panic!("{text}: {e} in {}", p.fen()));
    p.play_unchecked(mv);
}

// ---- Cylinder ----

#[test]
fn cylinder_rook_reaches_h1_through_the_edge() {
    let p = pos::<Cylinder>("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let m = moves(&p);
    for sq in ["a1h1", "a1g1", "a1f1", "a1b1", "a1d1", "a1a8"] {
        assert!(m.contains(sq), "{sq} in {m:?}");
    }
    assert!(!m.contains("a1e1"), "the own king blocks");
}

#[test]
fn cylinder_rook_on_empty_rank_has_each_square_once() {
    let p = pos::<Cylinder>("k7/8/8/8/3R4/8/8/K7 w - - 0 1");
    let rook: Vec<String> =
        p.legal_moves().iter().filter(|m| m.from().to_string() == "d4").map(|m| uci::move_to_uci(&p, m)).collect();
    let unique: BTreeSet<&String> = rook.iter().collect();
    assert_eq!(rook.len(), 14, "7 on the rank + 7 on the file: {rook:?}");
    assert_eq!(unique.len(), 14, "no duplicates");
    assert!(!rook.contains(&"d4d4".to_string()), "a slider never returns to its own square");
}

#[test]
fn cylinder_bishop_wraps_and_counts_two_routes_once() {
    let p = pos::<Cylinder>("k7/8/8/8/8/8/8/B6K w - - 0 1");
    let m = moves(&p);
    assert!(m.contains("a1h2"), "a1-h2 over the edge");
    assert!(m.contains("a1g3"));
    let to_e5 =
        p.legal_moves().iter().filter(|mv| mv.from().to_string() == "a1" && mv.to().to_string() == "e5").count();
    assert_eq!(to_e5, 1, "e5 via b2-c3-d4 or via h2-g3-f4 is one move");
}

#[test]
fn cylinder_knight_king_and_pawns_wrap() {
    let p = pos::<Cylinder>("4k3/8/8/7p/P7/8/8/N3K3 w - - 0 1");
    let m = moves(&p);
    assert!(m.contains("a1g2") && m.contains("a1h3"), "knight over the edge: {m:?}");
    assert!(m.contains("a4h5"), "pawn capture over the edge");
    // The king is attacked over the edge: a rook on h1 gives check to a king on a1.
    let check = pos::<Cylinder>("k7/8/8/8/8/8/8/K6r w - - 0 1");
    assert!(check.is_check());
    assert!(!moves(&check).contains("a1b1"), "b1 is on the rook's rank");
    // A king on a4 touches h3, h4, h5.
    let king = pos::<Cylinder>("7k/8/8/8/K7/8/8/8 w - - 0 1");
    let km = moves(&king);
    for sq in ["a4h3", "a4h4", "a4h5"] {
        assert!(km.contains(sq), "{sq} in {km:?}");
    }
}

#[test]
fn cylinder_en_passant_over_the_edge() {
    let mut p = pos::<Cylinder>("4k3/7p/8/P7/8/8/8/4K3 b - - 0 1");
    play(&mut p, "h7h5");
    let m = moves(&p);
    assert!(m.contains("a5h6"), "axh6 e.p. over the edge: {m:?}");
    let mv = uci::parse_uci_move(&p, "a5h6").expect("legal");
    assert_eq!(mv.kind(), MoveKind::EnPassant);
    p.play_unchecked(mv);
    assert!(p.board().piece_at(mysl_core::Square::H5).is_none(), "the h5 pawn is taken");
}

#[test]
fn cylinder_castling_is_orthodox_with_cylinder_attacks() {
    let p = pos::<Cylinder>("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let m = moves(&p);
    assert!(m.contains("e1g1") && m.contains("e1c1"));
    // A black rook on a2 attacks h1? No: ranks do not wrap. A black bishop on a3 attacks h2, g1 over the edge.
    let q = pos::<Cylinder>("4k3/8/8/8/8/b7/8/R3K2R w KQ - 0 1");
    assert!(!moves(&q).contains("e1g1"), "g1 is attacked by the bishop on a3 over the edge");
}

/// Turning all files of a castling-free position by k gives the same perft.
#[test]
fn cylinder_perft_is_invariant_under_file_rotation() {
    let fens = [
        "r1bqk2r/pp1p1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w - - 0 1",
        "4k3/2p5/8/3Pp3/8/5N2/1B6/4K2R w - e6 0 1",
        "8/2p5/3p4/1P6/K4p1r/8/4P1P1/5k2 w - - 0 1",
    ];
    for fen in fens {
        let base = perft(&mut pos::<Cylinder>(fen), 3);
        for k in 1..8 {
            let rotated = rotate_files(fen, k);
            assert_eq!(perft(&mut pos::<Cylinder>(&rotated), 3), base, "{fen} turned by {k}: {rotated}");
        }
    }
}

fn rotate_files(fen: &str, k: usize) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(String::from).collect();
    let ranks: Vec<String> = fields[0]
        .split('/')
        .map(|rank| {
            let mut squares = Vec::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => squares.extend(std::iter::repeat_n('.', n as usize)),
                    None => squares.push(c),
                }
            }
            let turned: Vec<char> = (0..8).map(|i| squares[(i + 8 - k) % 8]).collect();
            let mut out = String::new();
            let mut empty = 0;
            for c in turned {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    fields[0] = ranks.join("/");
    if fields[3] != "-" {
        let file = (((fields[3].as_bytes()[0] - b'a') as usize + k) % 8) as u8 + b'a';
        fields[3] = format!("{}{}", file as char, &fields[3][1..]);
    }
    fields.join(" ")
}

// ---- Knight relay ----

#[test]
fn knight_relay_bishop_gets_knight_moves_while_defended() {
    let mut p = pos::<KnightRelay>("4k3/8/8/8/8/8/3B4/1N2K3 w - - 0 1");
    assert!(moves(&p).contains("d2f3"), "the bishop on d2 relays the knight on b1");
    assert!(moves(&p).contains("d2b3"));
    play(&mut p, "b1a3");
    play(&mut p, "e8d8");
    assert!(!moves(&p).contains("d2f3"), "the knight left: no relay");
}

#[test]
fn knight_relay_knights_neither_capture_nor_are_captured_nor_check() {
    let p = pos::<KnightRelay>("4k3/8/8/8/4P3/R1n5/8/3K4 w - - 0 1");
    assert!(!p.is_check(), "the knight on c3 does not check d1");
    assert!(!moves(&p).contains("a3c3"), "the knight cannot be captured");
    let b = pos::<KnightRelay>("4k3/8/8/8/4P3/2n5/8/3K4 b - - 0 1");
    assert!(!moves(&b).contains("c3e4"), "the knight cannot capture");
    assert!(moves(&b).contains("c3d5"));
}

#[test]
fn knight_relay_king_takes_a_piece_guarded_only_by_a_knight() {
    let p = pos::<KnightRelay>("4k3/8/8/8/8/8/3p4/1n1K4 w - - 0 1");
    assert!(moves(&p).contains("d1d2"), "the knight on b1 guards nothing");
}

#[test]
fn knight_relay_pawn_never_reaches_last_rank_by_relay() {
    let p = pos::<KnightRelay>("k7/8/4P3/2N5/8/8/8/4K3 w - - 0 1");
    let m = moves(&p);
    assert!(m.contains("e6g7") && m.contains("e6c7"), "relayed pawn moves: {m:?}");
    assert!(!m.contains("e6d8") && !m.contains("e6f8"), "never onto the last rank by relay");
    assert!(!m.iter().any(|s| s.starts_with("e6d8") || s.starts_with("e6f8")));
    // Nor does a pawn attack the last rank through relay: the black king on d8 is not in check.
    let k = pos::<KnightRelay>("3k4/8/4P3/2N5/8/8/8/4K3 b - - 0 1");
    assert!(!k.is_check());
}

#[test]
fn knight_relay_relayed_pawn_on_second_rank_double_steps_and_no_en_passant() {
    let mut p = pos::<KnightRelay>("4k3/8/8/2N5/4P3/8/8/4K3 w - - 0 1");
    play(&mut p, "e4d2");
    play(&mut p, "e8d8");
    assert!(moves(&p).contains("d2d4"), "double step again from the second rank");
    let ep = pos::<KnightRelay>("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert!(!moves(&ep).contains("e5d6"), "no en passant in knight relay");
}

// ---- Recycle ----

#[test]
fn recycle_self_capture_goes_to_hand_and_is_dropped() {
    let mut p = pos::<Recycle>("4k3/8/8/8/8/8/8/RN2K3 w - - 0 1");
    assert!(moves(&p).contains("a1b1"), "the rook may capture its own knight");
    play(&mut p, "a1b1");
    assert_eq!(p.state().pockets()[0][Role::Knight as usize], 1);
    assert!(p.fen().starts_with("4k3/8/8/8/8/8/8/1R2K3[N] b"), "{}", p.fen());
    play(&mut p, "e8d8");
    let drop = uci::parse_uci_move(&p, "N@e4").expect("drop");
    assert_eq!(san::move_to_san(&p, drop), "N@e4");
    assert_eq!(san::parse_san(&p, "N@e4"), Ok(drop));
    p.play_unchecked(drop);
    assert_eq!(p.state().pockets()[0][Role::Knight as usize], 0);
    assert!(p.is_consistent());
}

#[test]
fn recycle_king_is_never_captured_but_may_capture_own_pieces() {
    let p = pos::<Recycle>("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1");
    let m = moves(&p);
    assert!(!m.contains("a1e1"), "the own king is not capturable");
    assert!(m.contains("e1e2"), "the king captures its own pawn");
}

#[test]
fn recycle_pawns_are_never_dropped_on_first_or_last_rank() {
    let p = pos::<Recycle>("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    let drops: Vec<String> =
        p.legal_moves().iter().filter(|m| m.drop_role().is_some()).map(|m| m.to().to_string()).collect();
    assert_eq!(drops.len(), 48, "ranks 2 to 7, all empty");
    assert!(drops.iter().all(|s| !s.ends_with('1') && !s.ends_with('8')));
}

#[test]
fn recycle_pawn_on_last_rank_disappears() {
    let mut p = pos::<Recycle>("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let mv = uci::parse_uci_move(&p, "a7a8").expect("legal");
    assert_eq!(mv.kind(), MoveKind::PawnVanish);
    assert!(moves(&p).iter().all(|m| m.len() == 4), "no promotions");
    p.play_unchecked(mv);
    assert!(p.board().piece_at(mysl_core::Square::A8).is_none());
    assert_eq!(p.state().pockets(), [[0; 5]; 2], "not to hand");
}

#[test]
fn recycle_self_capture_in_check_only_if_it_resolves_the_check() {
    // The king on e1 is checked by the rook on e8; capturing the own bishop on f1 with the king
    // leaves the e-file, so it resolves the check; the rook taking the own knight does not.
    let p = pos::<Recycle>("4r2k/8/8/8/8/8/8/R3KBN1 w - - 0 1");
    assert!(p.is_check());
    let m = moves(&p);
    assert!(m.contains("e1f1"));
    assert!(!m.contains("a1b1") && !m.iter().any(|s| s.starts_with("f1g1")));
}

#[test]
fn recycle_castling_beside_the_rook_has_a_text_of_its_own() {
    // Found by the `fen` fuzz target: the king on b1 beside its castling rook on a1 (Chess960 setup).
    // `b1a1` is the king taking its own rook and, king-takes-rook style, castling long; `b1c1` is a king
    // step and castling long by the king's destination. Castling is written `O-O-O` there.
    let p = pos::<Recycle>("4k3/8/8/8/8/8/8/RK5R[] w KQ - 0 1");
    let castles: Vec<_> = p.legal_moves().iter().filter(|m| m.is_castle()).collect();
    assert_eq!(castles.len(), 2, "{}", p.fen());
    let texts: Vec<String> = p.legal_moves().iter().map(|m| uci::move_to_uci(&p, m)).collect();
    let unique: BTreeSet<&String> = texts.iter().collect();
    assert_eq!(unique.len(), texts.len(), "every legal move has a text of its own: {texts:?}");
    assert!(texts.contains(&"O-O-O".to_string()) && texts.contains(&"b1h1".to_string()), "{texts:?}");
    for mv in p.legal_moves().iter() {
        assert_eq!(uci::parse_uci_move(&p, &uci::move_to_uci(&p, mv)), Ok(mv));
    }
    let self_capture = uci::parse_uci_move(&p, "b1a1").expect("legal");
    assert!(!self_capture.is_castle() && self_capture.to() == mysl_core::Square::A1);
    assert!(!uci::parse_uci_move(&p, "b1c1").expect("legal").is_castle(), "the king step");
    assert!(uci::parse_uci_move(&p, "0-0-0").expect("legal").is_castle());
    assert!(uci::parse_uci_move(&p, "O-O").expect("legal").is_castle());
    // Without the collision castling keeps its usual text, and in chess `O-O` reads too.
    let far = pos::<Recycle>("4k3/8/8/8/8/8/8/R1K4R[] w KQ - 0 1");
    assert!(far.legal_moves().iter().any(|m| m.is_castle() && uci::move_to_uci(&far, m) == "c1a1"));
    let chess = pos::<mysl_core::Orthodox>("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(uci::move_to_uci(&chess, uci::parse_uci_move(&chess, "O-O").expect("legal")), "e1g1");
}

#[test]
fn recycle_drop_may_give_check_and_mate() {
    let p = pos::<Recycle>("7k/5K2/8/8/8/8/8/8[Q] w - - 0 1");
    let mate = uci::parse_uci_move(&p, "Q@g7").expect("drop");
    assert_eq!(san::move_to_san(&p, mate), "Q@g7#");
}

// ---- every variant ----

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn playout<R: Rules>(seed: u64, games: usize) {
    let start = match R::VARIANT {
        Variant::Antichess | Variant::AntichessNoEp => START.replace("KQkq", "-"),
        Variant::Recycle => START.replace("RNBQKBNR w", "RNBQKBNR[] w"),
        _ => START.to_string(),
    };
    let mut rng = common::Rng(seed);
    for game in 0..games {
        let mut p = pos::<R>(&start);
        for ply in 0..150 {
            let list = p.legal_moves();
            if list.is_empty() {
                break;
            }
            let mv = list.get(rng.below(list.len())).expect("non-empty");
            let before = (p.fen(), p.key(), p.pawn_key());
            p.play_unchecked(mv);
            assert!(
                p.is_consistent(),
                "{} game {game} ply {ply}: keys or checkers differ from scratch at {}",
                R::NAME,
                p.fen()
            );
            let reread = pos::<R>(&p.fen());
            assert_eq!(reread.fen(), p.fen(), "{} FEN round trip", R::NAME);
            p.unplay(mv);
            assert_eq!((p.fen(), p.key(), p.pawn_key()), before, "{} unplay", R::NAME);
            p.play_unchecked(mv);
        }
    }
}

#[test]
fn every_variant_keeps_incremental_state_and_round_trips() {
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        dispatch_variant!(variant, R => playout::<R>(0x1234 + i as u64, 12));
    }
}

fn copy_make_matches<R: Rules>() {
    let start = match R::VARIANT {
        Variant::Antichess | Variant::AntichessNoEp => START.replace("KQkq", "-"),
        _ => START.to_string(),
    };
    let mut p = pos::<R>(&start);
    let depth = 3;
    assert_eq!(perft(&mut p, depth), perft_copy_make(&p, depth), "{}", R::NAME);
}

#[test]
fn every_variant_perft_through_make_unmake_equals_copy_make() {
    for variant in Variant::ALL {
        dispatch_variant!(variant, R => copy_make_matches::<R>());
    }
}

#[test]
fn dice_roll_filters_moves_and_faces_are_rerolled() {
    use mysl_core::Dice;
    let p = pos::<Dice>("4k3/8/8/8/8/8/P7/RN2K3 w Q - 0 1");
    let faces = p.dice_faces_with_moves();
    assert_eq!(faces, vec![Role::Pawn, Role::Knight, Role::King], "no bishop, rook or queen moves");
    // A pawn that can promote makes every face but the king's playable.
    let promo = pos::<Dice>("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(promo.dice_faces_with_moves().len(), 6);
    let knight = pos::<Dice>("4k3/P7/8/8/8/8/8/RN2K3 w Q - 0 1 roll=2");
    let m = moves(&knight);
    assert!(m.contains("a7a8n"), "a pawn may promote to the rolled type: {m:?}");
    assert!(m.contains("b1c3") && !m.contains("a7a8q") && !m.contains("e1d1"));
    let king = pos::<Dice>("4k3/P7/8/8/8/8/8/R3K3 w Q - 0 1 roll=6");
    let km = moves(&king);
    assert!(km.contains("e1c1"), "castling is a king move: {km:?}");
    assert!(!km.iter().any(|s| s.starts_with("a7")), "a 6 promotes nothing");
    assert_eq!(king.fen(), "4k3/P7/8/8/8/8/8/R3K3 w Q - 0 1 roll=6");
}

#[test]
fn variant_san_forms() {
    use mysl_core::{Antichess, Berolina};
    // Berolina: the from-file is always written when a pawn changes file.
    let b = pos::<Berolina>("4k3/8/8/3p4/3P4/8/4P3/4K3 w - - 0 1");
    let san_of = |p: &Position<Berolina>, u: &str| san::move_to_san(p, uci::parse_uci_move(p, u).expect(u));
    assert_eq!(san_of(&b, "e2d3"), "ed3");
    assert_eq!(san_of(&b, "e2c4"), "ec4");
    assert_eq!(san_of(&b, "d4d5"), "dxd5", "a straight capture");
    for text in ["ed3", "ec4", "e2d3"] {
        assert!(san::parse_san(&b, text).is_ok(), "{text}");
    }
    // Antichess: promotion to a king.
    let a = pos::<Antichess>("8/P7/8/8/8/8/8/7k w - - 0 1");
    let k = uci::parse_uci_move(&a, "a7a8k").expect("a8=K");
    assert_eq!(san::move_to_san(&a, k), "a8=K");
    assert_eq!(san::parse_san(&a, "a8=K"), Ok(k));
    // Recycle: a self-capture is written as a capture.
    let r = pos::<Recycle>("4k3/8/8/8/8/8/8/RN2K3 w - - 0 1");
    let m = uci::parse_uci_move(&r, "a1b1").expect("self-capture");
    assert_eq!(san::move_to_san(&r, m), "Rxb1");
    // Knight relay: a relayed pawn move names its file.
    let kr = pos::<KnightRelay>("k7/8/4P3/2N5/8/8/8/4K3 w - - 0 1");
    let g7 = uci::parse_uci_move(&kr, "e6g7").expect("relay");
    assert_eq!(san::move_to_san(&kr, g7), "eg7");
    assert_eq!(san::parse_san(&kr, "eg7"), Ok(g7));
}

/// Found by fuzzing (fuzz target `fen`): in extinction a pawn may promote to a king. After ...dxc1=K
/// Black has two kings, and the castling rights belong to the one on e8: the FEN of that position
/// must read back (it failed: "the black king is not on its back rank", the c1 king was taken), and
/// castling must start from e8 (the generator castled from c1).
#[test]
fn extinction_castling_belongs_to_the_back_rank_king() {
    use mysl_core::Extinction;
    let mut p = pos::<Extinction>("rnqbkbnr/pppppp1p/8/4P3/8/8/PPPpP1PP/RNBQKBNR b KQkq - 0 2");
    let promote = uci::parse_uci_move(&p, "d2c1k").expect("d2xc1=K is legal");
    p.play_unchecked(promote);
    let fen = p.fen();
    assert_eq!(fen, "rnqbkbnr/pppppp1p/8/4P3/8/8/PPP1P1PP/RNkQKBNR w KQkq - 0 3");
    let back = pos::<Extinction>(&fen);
    assert!(back == p && back.key() == p.key());
    // Black to move with both kings and the rights: castling only from e8.
    let black = pos::<Extinction>("rnbqk2r/pppppp1p/8/4P3/8/8/PPP1P1PP/RNkQKBNR b KQkq - 0 3");
    let castles: Vec<String> = black
        .legal_moves()
        .iter()
        .filter(|m| m.kind() == MoveKind::Castle)
        .map(|m| uci::move_to_uci(&black, m))
        .collect();
    assert_eq!(castles, ["e8g8"]);
}
