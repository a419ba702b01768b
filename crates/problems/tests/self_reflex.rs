//! Self- and reflexmates (s#n, r#n): the lines Popeye prints where a defence reaches the goal at
//! once, and where White's obligation to mate in r# breaks a move. The rules were read off
//! Popeye's own regression output (`REGRESSIONTESTS/battle_play.tst`, `ghostchess.ref`); the
//! positions here are our own.

use mysl_problems::input::parse_problems;
use mysl_problems::solve::Limits;
use mysl_problems::solve_problem;

fn lines(text: &str) -> Vec<String> {
    let p = parse_problems(text).remove(0).expect("parsed");
    let r = solve_problem(&p, &Limits { threads: 1, ..Limits::default() }).expect("supported");
    r.twins.into_iter().next().expect("one twin").lines
}

fn problem(pieces: &str, stip: &str, options: &str) -> String {
    let opt = if options.is_empty() { String::new() } else { format!("Option {options}\n") };
    format!("BeginProblem\nPieces {pieces}\nStipulation {stip}\n{opt}EndProblem\n")
}

/// Black: Kh3, Ph2, Pg3 against White's Kh1. With a white rook on the 4th rank Black's only move
/// is g3-g2, mate.
const BOX: &str = "Black Kh3 Ph2 Pg3";

/// s#2 whose key leaves Black nothing but the mate: Popeye prints it as an s#1 key (no threat,
/// no zugzwang) followed by the mate, not the threats of a two-mover.
#[test]
fn s2_key_after_which_every_defence_mates_is_printed_as_a_short_solution() {
    let l = lines(&problem(&format!("White Kh1 Rc5 {BOX}"), "s#2", "Variation"));
    assert_eq!(l, vec!["1.Rc5-c4 !", "1...g3-g2 #"], "{l:?}");
}

/// s#1 set play: printed when every black move mates at once (a complete s#0.5), and not at all
/// when one black move does not.
#[test]
fn s1_set_play_only_when_complete() {
    let l = lines(&problem(&format!("White Kh1 Rc4 Pa2 {BOX}"), "s#1", "SetPlay Variation"));
    assert_eq!(l[0], "1...g3-g2 #", "{l:?}");
    assert_eq!(l.iter().filter(|x| x.starts_with("1...")).count(), 1 + (l.len() - 1) / 2, "{l:?}");
    let l = lines(&problem(&format!("White Kh1 Rc4 Pa2 {BOX} Pa5"), "s#1", "SetPlay Variation"));
    assert!(l[0].starts_with("1.") && !l[0].starts_with("1..."), "no set play when a5-a4 does not mate: {l:?}");
}

/// s#2 with the complete short set play: the set mate comes first, as in an s#1.
#[test]
fn s2_complete_short_set_play() {
    let l = lines(&problem(&format!("White Kh1 Rc4 Pa2 {BOX}"), "s#2", "SetPlay Variation NoThreat"));
    assert_eq!(l[0], "1...g3-g2 #", "{l:?}");
    assert_eq!(&l[1..3], ["1.a2-a3 !", "1...g3-g2 #"], "{l:?}");
}

/// r#1 set play (Black is obliged to mate and does), and an r#2 whose keys force the mate at
/// once: printed as r#1 keys, without "zugzwang." or threats.
#[test]
fn r_set_play_and_short_keys() {
    let pieces = format!("White Kh1 Pa2 {BOX}");
    let expected = vec!["1...g3-g2 #", "1.a2-a3 !", "1...g3-g2 #", "1.a2-a4 !", "1...g3-g2 #"];
    let l = lines(&problem(&pieces, "r#1", "SetPlay Variation"));
    assert_eq!(l, expected, "r#1: {l:?}");
    let l = lines(&problem(&pieces, "r#2", "SetPlay Variation"));
    assert_eq!(l, expected, "r#2: {l:?}");
}

/// r#1 where White can mate: White is obliged to, which breaks the r#. Popeye prints the mate
/// without a mark (`1.Bg7-f8 #` in its battle_play test); nothing else is printed.
#[test]
fn r_white_obliged_to_mate_at_the_root() {
    let l = lines(&problem("White Kc6 Rh1 Black Ka8 Pa7", "r#1", ""));
    assert_eq!(l, vec!["1.Rh1-h8 #"], "{l:?}");
}

/// r# tries: a refutation after which White must mate is followed by White's mates, as Popeye
/// prints them (`1...Ke3*d4 !` then `2.Sd2-f3 #`); a refutation after which White cannot mate is
/// not.
#[test]
fn r_try_refuted_by_the_reflex_obligation() {
    let l = lines(&problem("White Kf8 Qh1 Qa3 Black Ke2 Ph6", "r#1", "Try"));
    let after = |refutation: &str| {
        let i = l.iter().position(|x| x == refutation).unwrap_or_else(|| panic!("{refutation} missing: {l:?}"));
        l.get(i + 1).cloned()
    };
    assert_eq!(after("1...Ke2-d2 !").as_deref(), Some("2.Qh1-d1 #"), "{l:?}");
    assert_eq!(after("1...Ke2*e1 !").as_deref(), Some("1.Qa3-e3 + ?"), "{l:?}");
}

/// Without Option Variation Popeye prints no post-key play in s#/r#: no threat, no zugzwang
/// (its r#2 "no variations, but tries" in battle_play.tst); with the option the same try reads
/// `zugzwang.`.
#[test]
fn no_threat_or_zugzwang_without_option_variation() {
    let pieces = "White Kg4 Ph5 Se1 Black Kh1 Qg3";
    let l = lines(&problem(pieces, "s#2", "Try"));
    assert_eq!(l, vec!["1.Kg4*g3 ?", "but", "1...Kh1-g1 !"], "{l:?}");
    let l = lines(&problem(pieces, "s#2", "Try Variation"));
    assert_eq!(l, vec!["1.Kg4*g3 ? zugzwang.", "but", "1...Kh1-g1 !"], "{l:?}");
}
