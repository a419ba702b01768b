//! Option Duplex / HalfDuplex (help and series play): the second part is the problem with the
//! other side starting and reaching the goal. Checked against an independent construction: the
//! position with colours exchanged and ranks mirrored, solved normally, its squares mirrored back.

use mysl_problems::input::parse_problems;
use mysl_problems::solve::Limits;
use mysl_problems::{solve_problem, TwinResult};

fn twin(text: &str) -> Result<TwinResult, String> {
    let p = parse_problems(text).remove(0).map_err(|e| e.to_string())?;
    let r = solve_problem(&p, &Limits { threads: 1, ..Limits::default() }).map_err(|e| format!("{e:?}"))?;
    Ok(r.twins.into_iter().next().expect("one twin"))
}

fn lines(text: &str) -> Result<Vec<String>, String> {
    twin(text).map(|t| t.lines)
}

/// `e2` -> `e7`: every square in a line of move texts mirrored top to bottom.
fn mirror_squares(line: &str) -> String {
    let b: Vec<char> = line.chars().collect();
    let mut out = String::new();
    for (i, &c) in b.iter().enumerate() {
        let after_file = i > 0 && ('a'..='h').contains(&b[i - 1]);
        if after_file && ('1'..='8').contains(&c) {
            out.push((b'1' + b'8' - c as u8) as char);
        } else {
            out.push(c);
        }
    }
    out
}

struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn square(i: u64) -> String {
    format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1)
}

#[test]
fn half_duplex_is_the_mirrored_problem() {
    let seed = 20261129u64;
    let mut rng = Lcg(seed);
    let mut compared = 0;
    let mut with_solutions = 0;
    for case in 0..120 {
        let mut used = Vec::new();
        let mut pick = |rng: &mut Lcg, pawn: bool| loop {
            let s = rng.next(64);
            if !used.contains(&s) && (!pawn || (8..56).contains(&s)) {
                used.push(s);
                return s;
            }
        };
        let mut white = vec![format!("K{}", square(pick(&mut rng, false)))];
        let mut black = vec![format!("K{}", square(pick(&mut rng, false)))];
        for side in [&mut white, &mut black] {
            for _ in 0..rng.next(3) + 1 {
                let k = ["Q", "R", "B", "S", "P"][rng.next(5) as usize];
                side.push(format!("{k}{}", square(pick(&mut rng, k == "P"))));
            }
        }
        let stip = ["h#2", "h#1.5", "ser-h#2", "ser-#2", "h=2", "h#2\nOption WhiteToPlay"][rng.next(6) as usize];
        let text = |w: &[String], b: &[String], opt: &str| {
            format!(
                "BeginProblem\nStipulation {stip}\n{opt}Pieces White {} Black {}\nEndProblem\n",
                w.join(" "),
                b.join(" ")
            )
        };
        let flip = |v: &[String]| -> Vec<String> { v.iter().map(|p| mirror_squares(p)).collect() };
        let Ok(half) = lines(&text(&white, &black, "Option HalfDuplex\n")) else { continue };
        let Ok(mirrored) = lines(&text(&flip(&black), &flip(&white), "")) else { continue };
        let mut got = half.clone();
        got.sort();
        let mut want: Vec<String> = mirrored.iter().map(|l| mirror_squares(l)).collect();
        want.sort();
        assert_eq!(got, want, "seed {seed} case {case}: {stip} White {white:?} Black {black:?}");
        // Duplex: the normal part, then the half-duplex part.
        let both = twin(&text(&white, &black, "Option Duplex\n")).expect("supported");
        let normal = twin(&text(&white, &black, "")).expect("supported");
        let half_c = twin(&text(&white, &black, "Option HalfDuplex\n")).expect("supported").classification;
        assert_eq!(both.lines, [normal.lines, half.clone()].concat(), "seed {seed} case {case}");
        // Each part is classified on its own (one intended solution each), then merged.
        let c = &both.classification;
        assert_eq!(c.cooks, normal.classification.cooks + half_c.cooks, "seed {seed} case {case}");
        assert_eq!(c.solutions.len(), normal.classification.solutions.len() + half_c.solutions.len());
        let sound = |v| v == mysl_problems::classify::Verdict::Sound;
        assert_eq!(
            sound(c.verdict),
            sound(normal.classification.verdict) && sound(half_c.verdict),
            "seed {seed} case {case}: {}",
            c.summary
        );
        compared += 1;
        with_solutions += (!half.is_empty()) as usize;
    }
    assert!(compared >= 60 && with_solutions >= 5, "seed {seed}: {compared} compared, {with_solutions} with solutions");
}

#[test]
fn duplex_is_refused_in_battle_play() {
    let text = "BeginProblem\nStipulation #2\nOption Duplex\nPieces White Kc6 Rh1 Black Ka8\nEndProblem\n";
    assert!(lines(text).is_err_and(|e| e.contains("Duplex")));
}
