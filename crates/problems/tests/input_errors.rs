//! Malformed inputs give located errors; one bad problem does not stop the others; random bytes
//! never panic the parser; unsupported features are reported as such.

use mysl_problems::input::{parse_problems, ParseError};
use mysl_problems::solve::Limits;
use mysl_problems::{solve_problem, SolveError};
use proptest::prelude::*;

fn first_error(text: &str) -> ParseError {
    match parse_problems(text).into_iter().next() {
        Some(Err(e)) => e,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn unknown_piece_is_located() {
    let e = first_error("BeginProblem\nstipulation h#2\npieces white Ka1 Xb2 black Kh8\nEndProblem\n");
    assert_eq!((e.line, e.column, e.token.as_str()), (3, 18, "Xb2"));
    assert!(e.message.contains("unknown piece"), "{e}");
}

#[test]
fn bad_square_is_located() {
    let e = first_error("BeginProblem\nstipulation #2\npieces white Ka1 Bz9 black Kh8\nEndProblem\n");
    assert_eq!((e.line, e.column, e.token.as_str()), (3, 18, "Bz9"));
}

#[test]
fn two_kings_are_an_error() {
    let e = first_error("BeginProblem\nstipulation #2\npieces white Ka1 Ke1 black Kh8\nEndProblem\n");
    assert_eq!((e.line, e.column, e.token.as_str()), (3, 18, "Ke1"));
    assert!(e.message.contains("two white kings"), "{e}");
    // In a problem refused anyway (Dynasty allows several kings) it is refused by name instead.
    let p = parse_problems(
        "BeginProblem\ncondition RoyalDynasty\nstipulation #2\npieces white Ka1 Ke1 black Kh8\nEndProblem\n",
    )
    .remove(0)
    .expect("refused, not an input error");
    assert!(p.unsupported.iter().any(|m| m.contains("RoyalDynasty")), "{:?}", p.unsupported);
}

#[test]
fn unknown_keyword_is_located() {
    let e = first_error("BeginProblem\nstipulation #2\nfrobnicate 3\npieces white Ka1 black Kh8\nEndProblem\n");
    assert_eq!((e.line, e.column, e.token.as_str()), (3, 1, "frobnicate"));
    assert!(e.message.contains("unknown keyword"), "{e}");
}

#[test]
fn unterminated_problem_is_reported_at_the_end() {
    let e = first_error("BeginProblem\nstipulation #2\npieces white Ka1 black Kh8\n");
    assert_eq!(e.line, 3);
    assert!(e.message.contains("unterminated"), "{e}");
}

#[test]
fn bad_stipulation_is_located() {
    let e = first_error("BeginProblem\nstipulation h#x\npieces white Ka1 black Kh8\nEndProblem\n");
    assert_eq!((e.line, e.column, e.token.as_str()), (2, 13, "h#x"));
}

#[test]
fn one_bad_problem_does_not_stop_the_others() {
    let text = "BeginProblem\nstip h#1\npieces white Kc7 Rh1 black Ka8 Pa7b7\nNextProblem\nstip #2\npieces white Ka1 Xb2 black Kh8\nNextProblem\nstip h#1\npieces white Kc7 Rh1 black Ka8 Pa7b7\nEndProblem\n";
    let res = parse_problems(text);
    assert_eq!(res.len(), 3);
    assert!(res[0].is_ok());
    assert!(res[1].is_err());
    assert!(res[2].is_ok());
    let sol = solve_problem(res[2].as_ref().expect("ok"), &Limits::default()).expect("solved");
    assert!(sol.twins[0].lines.iter().any(|l| l == "1.b7-b6 Rh1-h8 #"), "{:?}", sol.twins[0].lines);
}

#[test]
fn fairy_pieces_and_conditions_are_unsupported_not_errors() {
    for (text, what) in [
        ("BeginProblem\nstip h#2\npieces white Ka1 Fd4 black Kh8\nEndProblem\n", "F"),
        ("BeginProblem\nstip h#2\npieces white Ka1 Ld4 black Kh8\ncondition Madrasi\nEndProblem\n", "locust"),
        ("BeginProblem\nstip h#2\npieces white Ka1 SSd4 black Kh8\nEndProblem\n", "SS"),
        ("BeginProblem\nstip h#2\npieces white Ka1 black Kh8\ncondition Madrasi RexInclusive\nEndProblem\n", "RexInclusive"),
        ("BeginProblem\nstip h#2\npieces white Ka1 black Kh8\ncondition Circe Parrain Madrasi\nEndProblem\n", "Parrain"),
        (
            "BeginProblem\nstip h#2\npieces white Ka1 black Kh8\ncondition Circe\ntwin condition AntiCirce Cage Super\nEndProblem\n",
            "AntiCirce Cage Super",
        ),
        ("BeginProblem\nstip phser-h#2\npieces white Ka1 black Kh8\nEndProblem\n", "phser-h#2"),
        ("BeginProblem\nstip h#2\npieces white Ka1 black Kh8\nneutral Pe4\ncondition Madrasi\nEndProblem\n", "neutral"),
    ] {
        let res = parse_problems(text);
        let p = res[0].as_ref().expect("parsed");
        match solve_problem(p, &Limits::default()) {
            Err(SolveError::Unsupported(m)) => assert!(m.contains(what), "{m}"),
            other => panic!("expected unsupported {what}, got {other:?}"),
        }
    }
}

#[test]
fn grasshopper_and_circe_are_supported() {
    // A grasshopper and Condition Circe: parsed and solved, not reported unsupported.
    let text = "BeginProblem\nstip h#1\npieces white Kc7 Gh1 black Ka8 Pa7b7\ncondition Circe\nEndProblem\n";
    let res = parse_problems(text);
    let p = res[0].as_ref().expect("parsed");
    assert_eq!(p.conditions.circe, mysl_problems::board::Circe::Plain);
    assert!(p.unsupported.is_empty(), "{:?}", p.unsupported);
    solve_problem(p, &Limits::default()).expect("supported");
}

#[test]
fn abbreviated_keywords_and_forsyth() {
    let text = "beginp\nstip h#1\nfors k7/ppK5/8/8/8/8/8/7R\nopt vari\nendp\n";
    let res = parse_problems(text);
    let p = res[0].as_ref().expect("parsed");
    assert!(p.options.variation);
    let sol = solve_problem(p, &Limits::default()).expect("solved");
    let lines = &sol.twins[0].lines;
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(sorted, ["1.b7-b5 Rh1-h8 #", "1.b7-b6 Rh1-h8 #"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_problems(&text);
    }

    #[test]
    fn random_token_soup_never_panics(words in proptest::collection::vec(prop_oneof![
        Just("BeginProblem"), Just("EndProblem"), Just("NextProblem"), Just("stip"), Just("h#2"), Just("#3"),
        Just("pieces"), Just("white"), Just("black"), Just("Ka1"), Just("Kh8"), Just("Pb2c3"), Just("twin"),
        Just("move"), Just("a1"), Just("h8"), Just("add"), Just("remove"), Just("rotate"), Just("90"),
        Just("option"), Just("try"), Just("defence"), Just("forsyth"), Just("8/8/8/8/8/8/8/8"), Just("cont"),
        Just("enpassant"), Just("d2d3d4"), Just("\n"), Just("Gd4"), Just("condition"), Just("mirror"), Just("a1<-->h1"),
        Just("shift"), Just("substitute"), Just("Q"), Just("S"), Just("Circe"), Just("NHb3"), Just("35a1"),
        Just("Nc3"), Just("G"), Just("CAe2"), Just("h#1"),
        // Conditions, attributes and pieces of the coverage work (issue 7).
        Just("Breton"), Just("bgl"), Just("4.5"), Just("1.005"), Just("-"), Just("chameleonp"), Just("antisup"),
        Just("TransmutedKings"), Just("Pepo"), Just("ghostchess"), Just("bul"), Just("B1d4"), Just("nowk"),
        Just("Gb3"), Just("fors"), Just("32/6K1/k7/3n4/8"), Just("60K4k"),
        Just("ChecklessChess"), Just("Hole"), Just("d4e5"), Just("AntiCirce"), Just("Cheylan"), Just("AnnanChess"), Just("TypeB"), Just("Parrain"), Just("CirceParrain"),
    ], 0..60)) {
        let text = words.join(" ");
        for p in parse_problems(&text).into_iter().flatten() {
            // Tiny time budget: only checks that solving never panics on odd positions.
            let limits = Limits { deadline: Some(std::time::Instant::now() + std::time::Duration::from_millis(50)), threads: 1, ..Limits::default() };
            let _ = solve_problem(&p, &limits);
        }
    }
}

#[test]
fn stipulation_length_may_follow_after_a_space() {
    // Popeye reads on while the stipulation lacks its length: `h# 2.5`, `dia 4`, `ser-s00 9` (the
    // castling goal ends in digits); `#2 3` has its length, so `3` is a stray keyword.
    let parsed = |stip: &str| {
        let text = format!("BeginProblem\nstipulation {stip}\npieces white Ke1 Ra2 black Ke8 Rh8\nEndProblem\n");
        parse_problems(&text).remove(0)
    };
    let p = parsed("h# 2.5").expect("parsed");
    assert_eq!(p.stipulation.expect("stipulation"), mysl_problems::stipulation::parse("h#2.5").expect("h#2.5"));
    let p = parsed("dia 4").expect("parsed");
    assert!(p.unsupported.iter().any(|m| m.contains("dia4")), "{:?}", p.unsupported);
    let p = parsed("ser-s00 9").expect("parsed");
    assert_eq!(p.stipulation.expect("stipulation"), mysl_problems::stipulation::parse("ser-s009").expect("ser-s009"));
    let e = parsed("#2 3").expect_err("stray length");
    assert_eq!((e.line, e.column, e.token.as_str()), (2, 16, "3"));
}

#[test]
fn latex_output_commands_are_read_and_ignored() {
    // `LaTeX file` then piece lines for it (code, LaTeX code, name), as Popeye's
    // `ParseLaTeXPieces` reads them; the German `n` (nightrider) line must not be taken for
    // `nullstellung`.
    let text = "AnfangProblem\nlatex x.tex\n  n SU Nachtreiter\n  g DU Grashuepfer\nforderung #1\nsteine weiss kc6 th1 schwarz ka8 ba7\nEndeProblem\n";
    let p = parse_problems(text).remove(0).expect("parsed");
    assert!(p.unsupported.is_empty(), "{:?}", p.unsupported);
    assert!(p.stipulation.is_some());
    let text =
        "BeginProblem\nlatexpieces n SU Nightrider\nstipulation #1\npieces white Kc6 Rh1 black Ka8 Pa7\nEndProblem\n";
    let p = parse_problems(text).remove(0).expect("parsed");
    assert!(p.unsupported.is_empty() && p.stipulation.is_some(), "{:?}", p.unsupported);
}

#[test]
fn problems_without_pieces_and_the_game_array_are_read() {
    // No pieces: an empty board (Popeye reads it; mysl then refuses the missing kings by name).
    let p = parse_problems("BeginProblem\nstipulation #2\nEndProblem\n").remove(0).expect("parsed");
    assert_eq!(p.board.pieces().count(), 0);
    let r = solve_problem(&p, &Limits::default());
    assert!(matches!(r, Err(SolveError::Unsupported(ref m)) if m.contains("king")), "{r:?}");
    // `InitialGameArray` (German `PartieAnfangsStellung`): the 32 pieces of the initial position.
    for text in [
        "BeginProblem\nInitialGameArray\nstipulation h#2\nEndProblem\n",
        "AnfangProblem\npartieanfangsstellung\nforderung h#2\nEndeProblem\n",
    ] {
        let p = parse_problems(text).remove(0).expect("parsed");
        assert_eq!(p.board.pieces().count(), 32, "{text}");
        let r = solve_problem(&p, &Limits { threads: 1, ..Limits::default() }).expect("supported");
        // Fool's mate reversed: 1.f7-f6 e2-e3 2.g7-g5 Qd1-h5 # and its seven orders and variants.
        assert_eq!(r.twins[0].lines.len(), 8, "{:?}", r.twins[0].lines);
        assert!(r.twins[0].lines.iter().all(|l| l.ends_with("Qd1-h5 #")), "{:?}", r.twins[0].lines);
    }
}

#[test]
fn commas_and_semicolons_separate_tokens() {
    // Popeye's token separators are white space, `,` and `;` (`Kh8, Rd8`).
    let p = parse_problems("BeginProblem\nstipulation h#1;\npieces white Kc6, Rh1 black Ka8,Pa7\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert_eq!(p.board.pieces().count(), 4);
    // Series proof games are refused by name.
    let p = parse_problems("BeginProblem\nstipulation ser-dia5\npieces white Kc6 black Ka8\nEndProblem\n")
        .remove(0)
        .expect("parsed");
    assert!(p.unsupported.iter().any(|m| m.contains("ser-dia5")), "{:?}", p.unsupported);
}

#[test]
fn zero_position_changes_are_read_and_refused_by_name() {
    for text in [
        "BeginProblem\nstipulation h#2\npieces white Kc6 Rh1 black Ka8 Pa7\nzeroposition move h1 g1\ntwin add black Pb7\nEndProblem\n",
        "AnfangProblem\nforderung h#2\nsteine weiss kc6 th1 schwarz ka8 ba7\nnullstellung versetze h1 g1\nEndeProblem\n",
    ] {
        let p = parse_problems(text).remove(0).expect("parsed");
        assert!(p.unsupported.iter().any(|m| m == "command zeroposition"), "{:?}", p.unsupported);
    }
}

#[test]
fn every_popeye_piece_attribute_is_read() {
    // Popeye's attribute words (English; German `SprungbockFarbeWechselnd`, `Patrouille`): each is
    // supported or refused by name, never an unknown word.
    for a in [
        "Royal",
        "Kamikaze",
        "Paralysing",
        "Chameleon",
        "Jigger",
        "Volage",
        "Functionary",
        "HalfNeutral",
        "HurdleColourChanging",
        "Protean",
        "Magic",
        "Uncapturable",
        "Patrol",
        "Frischauf",
        "Bul",
        "Dob",
    ] {
        let text = format!("BeginProblem\nstipulation h#2\npieces white Kc6 {a} Gd8 black Ka8\nEndProblem\n");
        assert!(parse_problems(&text).remove(0).is_ok(), "{a}");
    }
    for a in ["SprungbockFarbeWechselnd", "Patrouille"] {
        let text = format!("AnfangProblem\nforderung h#2\nsteine weiss kc6 {a} gd8 schwarz ka8\nEndeProblem\n");
        let p = parse_problems(&text).remove(0).expect(a);
        assert!(!p.unsupported.is_empty(), "{a}");
    }
}

#[test]
fn piece_codes_after_a_condition_belong_to_it() {
    // Chameleon Circe's sequence `s l t d s`: `t` also abbreviates `Titel` (command) and
    // `tausche` (twin word); Popeye reads it as part of the condition.
    for text in [
        "AnfangProblem\nforderung #2\nbedingung chamaeleoncirce s l t d s\nsteine weiss kf2 da7 schwarz ke4\nEndeProblem\n",
        "AnfangProblem\nforderung #2\nbedingung circe\nsteine weiss kf2 da7 schwarz ke4\nzwilling bedingung chamaeleoncirce s l t d s\nEndeProblem\n",
    ] {
        let p = parse_problems(text).remove(0).expect("parsed");
        assert!(p.titles.is_empty(), "{:?}", p.titles);
        assert!(p.unsupported.iter().any(|m| m.ends_with("s l t d s")), "{:?}", p.unsupported);
    }
}
