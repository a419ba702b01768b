//! French and German input.
//!
//! The German oracle: `tests/data/lang/de/<file>-<n>.inp` are Popeye's own German example inputs
//! (`BEISPIEL/<file>.inp`, problem number n, GPL), cut out of their files; the English
//! conversions of the same problems are in ../shared/data/problems/popeye-set.jsonl
//! (`source_file`, `source_problem_index`). Both must parse into the same problem.

mod common;
use common::set_path;

use std::path::PathBuf;

use mysl_problems::input::{parse_problems, ParseError, Problem};
use mysl_problems::lang::{self, Category, Language};

/// A problem's canonical rendering: everything but the line it starts on, runs of whitespace
/// collapsed (the English conversions collapsed them in authors' and sources' text).
fn render(r: &Result<Problem, ParseError>) -> String {
    let s = match r {
        Ok(p) => {
            let mut p = p.clone();
            p.line = 0;
            format!("{p:?}")
        }
        Err(e) => format!("error: {}", e.message),
    };
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Where two renderings first differ, with some context.
fn first_difference(a: &[String], b: &[String]) -> String {
    if a.len() != b.len() {
        return format!("{} problems against {}", a.len(), b.len());
    }
    for (x, y) in a.iter().zip(b) {
        let (x, y): (Vec<char>, Vec<char>) = (x.chars().collect(), y.chars().collect());
        let i = x.iter().zip(&y).position(|(p, q)| p != q).unwrap_or(x.len().min(y.len()));
        if i < x.len().max(y.len()) {
            let from = i.saturating_sub(120);
            let cut = |v: &[char]| v[from.min(v.len())..(i + 80).min(v.len())].iter().collect::<String>();
            return format!("...{} | {}...", cut(&x), cut(&y));
        }
    }
    String::new()
}

fn parse_one(text: &str) -> Vec<String> {
    parse_problems(text).iter().map(render).collect()
}

#[test]
fn german_originals_parse_as_their_english_conversions() {
    let Some(path) = set_path() else { return };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/lang/de");
    let set = std::fs::read_to_string(path).expect("test data");
    let entries: Vec<serde_json::Value> = set.lines().map(|l| serde_json::from_str(l).expect("test data")).collect();
    let mut fixtures: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("test data").map(|e| e.expect("test data").path()).collect();
    fixtures.sort();
    let mut compared = 0;
    let mut failures = Vec::new();
    for f in &fixtures {
        let stem = f.file_stem().expect("test data").to_str().expect("test data");
        let (file, n) = stem.rsplit_once('-').expect("test data");
        let n: u64 = n.parse().expect("test data");
        let german = std::fs::read_to_string(f).expect("test data");
        let matching: Vec<&serde_json::Value> = entries
            .iter()
            .filter(|e| {
                e["source_file"].as_str() == Some(&format!("BEISPIEL/{file}.inp"))
                    && e["source_problem_index"].as_u64() == Some(n)
            })
            .collect();
        assert!(!matching.is_empty(), "{stem}: no entry in the set");
        for e in matching {
            let mut problems = parse_problems(&german);
            // pyset-095 is its original with `Option Intelligent` removed (said by its category).
            if e["category"].as_str().is_some_and(|c| c.contains("without Option Intelligent")) {
                for p in problems.iter_mut().flatten() {
                    p.options.intelligent = false;
                }
            }
            let got: Vec<String> = problems.iter().map(render).collect();
            let want = parse_one(e["popeye_input"].as_str().expect("test data"));
            compared += 1;
            if got != want {
                failures.push(format!("{stem} ({}): {}", e["id"], first_difference(&got, &want)));
            }
        }
    }
    eprintln!("{compared} German originals compared with their English conversions");
    let german_entries =
        entries.iter().filter(|e| e["source_language"].as_str().is_some_and(|l| l.starts_with("German"))).count();
    assert_eq!(compared, german_entries, "every German entry of the set has its original here");
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
    assert!(compared >= fixtures.len());
}

/// The same problem in the three languages.
fn same(english: &str, other: &str) {
    let e = parse_one(english);
    let o = parse_one(other);
    assert!(e.iter().all(|r| !r.starts_with("error")), "{e:?}");
    assert_eq!(e, o);
}

#[test]
fn french_orthodox_with_options_and_twins() {
    same(
        "BeginProblem\nAuthor X\nStipulation #2\nPieces White Kh8 Qd8 Rb2h3 Bf1h2 Sg3h1 Pa3e4e5\n\
         Black Kd4 Sd6 Pa4f2\nOption Variation NoThreat SetPlay Try Defence 2\n\
         Twin Move e5 c5\nTwin Continued Exchange d8 h8\nTwin Remove h1 Add Black Pb7\n\
         Twin Substitute S B\nTwin Rotate 90\nTwin Stipulation h#2\nEndProblem\n",
        "DebutProbleme\nAuteur X\nEnonce #2\nPieces Blanc Rh8 Dd8 Tb2h3 Ff1h2 Cg3h1 Pa3e4e5\n\
         Noir Rd4 Cd6 Pa4f2\nOption Variantes SansMenace Apparent Essais Defense 2\n\
         Jumeau Deplacement e5 c5\nJumeau EnPlus Echange d8 h8\nJumeau Ote h1 Ajoute Noir Pb7\n\
         Jumeau Remplace C F\nJumeau Rotation 90\nJumeau Enonce h#2\nFinProbleme\n",
    );
}

#[test]
fn french_fairy_pieces_and_conditions() {
    // Grasshopper (French `s`, sauterelle), nightrider (`n`), Circe; a second problem (`asuivre`)
    // with Madrasi RexInclusive (Popeye's French `RexInclusif`) and neutral pieces.
    same(
        "BeginProblem\nStipulation h#2\nCondition Circe\nPieces White Ke1 Gb2 Nc3 Black Ke8 Sd5\n\
         NextProblem\nStipulation #2\nCondition AndernachChess\nPieces White Kh1 Qa1 Black Kh8\n\
         Option WhiteToPlay\nNextProblem\nStipulation h#2\nCondition Hole d4e5\n\
         Pieces White Ka1 Rh1 Neutral Pe4 Black Kh8\nEndProblem\n",
        "DebutProbleme\nEnonce h#2\nCondition Circe\nPieces Blanc Re1 Sb2 Nc3 Noir Re8 Cd5\n\
         ASuivre\nEnonce #2\nCondition EchecsAndernach\nPieces Blanc Rh1 Da1 Noir Rh8\n\
         Option ApparentSeul\nASuivre\nEnonce h#2\nCondition Trou d4e5\n\
         Pieces Blanc Ra1 Th1 Neutre Pe4 Noir Rh8\nFinProbleme\n",
    );
}

#[test]
fn german_hand_written() {
    same(
        "BeginProblem\nStipulation h#2\nCondition Circe RexInclusive\nPieces White Kc1 Bh7 Pe2 Black Ka8 Sb1\n\
         Twin Condition ChameleonCirce\nTwin Add White Nh1\nEndProblem\n",
        "AnfangProblem\nForderung h#2\nBedingung Circe RexInklusive\nSteine Weiss Kc1 Lh7 Be2 Schwarz Ka8 Sb1\n\
         Zwilling Bedingung ChamaeleonCirce\nZwilling Hinzufuegen Weiss Nh1\nEndeProblem\n",
    );
}

/// Keywords that mysl does not implement are refused by their (English) name in every language.
#[test]
fn unsupported_refused_by_name() {
    for text in [
        "BeginProblem\nStipulation #2\nCondition KoeKo\nPieces White Ka1 Black Kh8\nEndProblem\n",
        "AnfangProblem\nForderung #2\nBedingung KoeKo\nSteine Weiss Ka1 Schwarz Kh8\nEndeProblem\n",
        "DebutProbleme\nEnonce #2\nCondition Koeko\nPieces Blanc Ra1 Noir Rh8\nFinProbleme\n",
    ] {
        let p = parse_problems(text).remove(0).expect("test data");
        assert_eq!(p.unsupported, vec!["condition KoeKo".to_string()], "{text}");
    }
    // A fairy piece mysl does not implement: the root-50-leaper (English `rf`, German `wf`,
    // French `cc`).
    for (text, code) in [
        ("AnfangProblem\nForderung #2\nSteine Weiss Ka1 WFb2 Schwarz Kh8\nEndeProblem\n", "RF"),
        ("DebutProbleme\nEnonce #2\nPieces Blanc Ra1 CCb2 Noir Rh8\nFinProbleme\n", "RF"),
    ] {
        let p = parse_problems(text).remove(0).expect("test data");
        assert!(p.unsupported.iter().any(|u| u.starts_with(&format!("fairy piece {code}"))), "{:?}", p.unsupported);
    }
    // An option (and `HalbDuplex`, which is read as HalfDuplex).
    let p = parse_problems(
        "AnfangProblem\nForderung #2\nOption HalteMattsetzendenStein\nSteine Weiss Ka1 Schwarz Kh8\nEndeProblem\n",
    )
    .remove(0)
    .expect("test data");
    assert_eq!(p.unsupported, vec!["option keepmatingpiece".to_string()]);
    let p =
        parse_problems("AnfangProblem\nForderung h#2\nOption HalbDuplex\nSteine Weiss Ka1 Schwarz Kh8\nEndeProblem\n")
            .remove(0)
            .expect("test data");
    assert!(p.unsupported.is_empty() && p.options.half_duplex);
}

#[test]
fn errors_stay_located_and_words_of_another_language_are_not_keywords() {
    // English `Pieces` is not a German command.
    let e = parse_problems("AnfangProblem\nForderung #2\nPieces White Ka1\nEndeProblem\n")
        .remove(0)
        .expect_err("an input error");
    assert_eq!((e.line, e.column, e.message.as_str()), (3, 1, "unknown keyword"));
    // German `q` is no piece (the queen is `d`).
    let e = parse_problems("AnfangProblem\nForderung #2\nSteine Weiss Ka1 Qb2\nEndeProblem\n")
        .remove(0)
        .expect_err("an input error");
    assert_eq!((e.line, e.column), (3, 18));
    assert!(e.message.contains("unknown piece"), "{}", e.message);
}

/// Every keyword of every category translated from English into French and German parses back
/// to the same English keyword (unique within each language's table).
#[test]
fn round_trip_of_every_keyword() {
    for cat in Category::ALL {
        for l in [Language::French, Language::German] {
            for i in 0..lang::count(cat) {
                let en = lang::english_word(cat, i);
                let Some(w) = lang::from_english(l, cat, en) else { continue };
                // The placeholder for a word we do not know; Popeye's French table has
                // `AnnanEchecs` twice (for AnnanChess and NannaChess): the first wins.
                if w.starts_with('?') || (w == "AnnanEchecs" && en == "NannaChess") {
                    continue;
                }
                let back = lang::to_english(l, cat, w).unwrap_or_else(|| panic!("{cat:?} {l:?} {w}"));
                assert!(back.eq_ignore_ascii_case(en), "{cat:?} {l:?}: {en} -> {w} -> {back}");
            }
        }
    }
}
