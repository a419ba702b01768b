//! "Beyond Popeye": the solution lines of a twin classified as intended solutions, cooks and duals,
//! with a summary such as `sound (C+)` or `cooked: 1 extra solution` (docs/problems.md,
//! "Classification").
//!
//! Help and series play: every line is replayed on the twin's board. Lines reaching the same final
//! position are one solution (the S-algorithm idea: transpositions of independent moves are one
//! solution): a *move-order dual* when they play the same moves in another order, a *second-path
//! dual* when other moves lead to the same position. A line of the same length that differs from a
//! solution's line in exactly one half move (another tempo move, another mating move) is a *dual* of
//! it. Every other line is a solution of its own; a shorter line is always a cook.
//!
//! Battle play: each key (`1.X !`) is a solution; under it, after a defence, every attacking move
//! beyond the first one listed (the tree lists all shortest continuations) is a *dual*. Several
//! threats are marked `threat` and not counted. Tries and set play are not solutions.
//!
//! The first `intended` solutions (default 1 per twin, `Remark Intended n`, `Option Intended n`,
//! `mysl solve --intended n`) in Popeye's output order are the intended ones, the others cooks.

use std::collections::HashMap;

use crate::board::{Board, Move};
use crate::input::Options;
use crate::solve::move_text;
use crate::stipulation::{Parry, Play, Stipulation};

/// Intended or cook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionKind {
    Intended,
    Cook,
}

impl SolutionKind {
    pub fn name(self) -> &'static str {
        match self {
            SolutionKind::Intended => "intended",
            SolutionKind::Cook => "cook",
        }
    }
}

/// How a line is a dual of its solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DualKind {
    /// The same moves in another order, the same final position.
    MoveOrder,
    /// Other moves, the same final position.
    SecondPath,
    /// One half move differs (help/series), or another continuation after a defence (battle).
    Dual,
    /// Another threat after a key or continuation (battle play; not counted as a dual).
    Threat,
}

impl DualKind {
    pub fn name(self) -> &'static str {
        match self {
            DualKind::MoveOrder => "move-order",
            DualKind::SecondPath => "second-path",
            DualKind::Dual => "dual",
            DualKind::Threat => "threat",
        }
    }
}

/// A dual: the index of its line in the twin's lines, and (battle play) the line it follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dual {
    pub line: usize,
    pub kind: DualKind,
    /// Battle play: the defence (or the key/continuation for threats) after which it is played.
    pub after: Option<usize>,
}

/// One solution of a twin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifiedSolution {
    /// The solution's first line (help/series) or key line (battle).
    pub line: usize,
    /// Every line that belongs to it: the first one, the forced endings of hs#/ser-s#/ser-r#
    /// (the same play, another forced last move), the tree under a key; duals included.
    pub lines: Vec<usize>,
    pub kind: SolutionKind,
    /// Shorter than the stipulation (always a cook).
    pub short: bool,
    pub duals: Vec<Dual>,
}

/// The twin's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly the intended number of solutions, the solve complete.
    Sound,
    /// More solutions than intended.
    Cooked,
    /// Fewer solutions than intended (none included).
    Unsound,
    /// Interrupted or cut by `MaxSolutions`: never called sound.
    Incomplete,
}

/// The classification of one twin's lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    pub solutions: Vec<ClassifiedSolution>,
    /// Set-play lines (not solutions).
    pub set_play: Vec<usize>,
    /// Try lines (refuted keys with their trees; not solutions).
    pub tries: Vec<usize>,
    pub intended: u32,
    pub cooks: usize,
    /// Duals counted (threats not included).
    pub duals: usize,
    pub verdict: Verdict,
    /// `sound (C+)`, `cooked: 2 extra solutions`, `no solution`, ...; with the duals after `; `.
    pub summary: String,
}

impl Classification {
    /// What line `i` of the twin is: `intended`, `cook`, a dual kind (`move-order`, `second-path`,
    /// `dual`, `threat`), `line` (another line of a solution's tree or a forced ending), `set-play`,
    /// `try`, or `none`; with the 0-based index of its solution in [`Classification::solutions`].
    pub fn role(&self, i: usize) -> (&'static str, Option<usize>) {
        if self.set_play.contains(&i) {
            return ("set-play", None);
        }
        if self.tries.contains(&i) {
            return ("try", None);
        }
        for (k, s) in self.solutions.iter().enumerate() {
            if s.line == i {
                return (s.kind.name(), Some(k));
            }
            if let Some(d) = s.duals.iter().find(|d| d.line == i) {
                return (d.kind.name(), Some(k));
            }
            if s.lines.contains(&i) {
                return ("line", Some(k));
            }
        }
        ("none", None)
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Depth of a tree line: `N.` is 2N-2, `N...` is 2N-1; other lines (`but`) have none.
pub fn line_depth(line: &str) -> Option<usize> {
    let t = line.trim_start();
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    let n: usize = t[..digits].parse().ok()?;
    let rest = &t[digits..];
    if n == 0 {
        return None;
    }
    if rest.starts_with("...") {
        Some(2 * n - 1)
    } else if rest.starts_with('.') {
        Some(2 * n - 2)
    } else {
        None
    }
}

/// The half moves of an output line: each move's text (with its check/goal marks and rebirth) and
/// whether it carried a move number; `!`, `?`, `threat:`, `zugzwang.` are dropped.
pub fn split_line(line: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    // A move number standing alone (`1. ...`, `1... ...`: a null move follows) numbers the next.
    let mut numbered_next = false;
    for tok in line.split_whitespace() {
        // Battle-play marks are not moves.
        if matches!(tok, "!" | "?" | "threat:" | "zugzwang." | "but") {
            continue;
        }
        let attach = matches!(tok, "+" | "#" | "=" | "==") || tok.starts_with("ep.");
        if attach {
            if let Some(last) = out.last_mut() {
                last.0.push(' ');
                last.0.push_str(tok);
                continue;
            }
        }
        let digits = tok.chars().take_while(|c| c.is_ascii_digit()).count();
        let rest = &tok[digits..];
        if digits > 0 && rest.starts_with('.') {
            let text = rest.trim_start_matches('.');
            if text.is_empty() {
                numbered_next = true;
            } else {
                out.push((text.to_string(), true));
            }
        } else {
            out.push((tok.to_string(), std::mem::take(&mut numbered_next)));
        }
    }
    out
}

/// A help/series line replayed: its moves (with the moving piece) and the final placement.
struct Replayed {
    moves: Vec<(u8, u8, Move)>,
    placement: Vec<(u8, u8, u8)>,
}

fn placement(b: &Board) -> Vec<(u8, u8, u8)> {
    let mut v: Vec<(u8, u8, u8)> = b.pieces().map(|(s, p)| (s, p.color as u8, p.kind)).collect();
    v.push((64, b.side as u8, 0));
    v
}

/// Replays a help/series line from `board`, `first` to move; `core` half moves count (the rest, a
/// forced ending, is played but not kept). None if a half move is not a legal move's text.
fn replay(board: &Board, stip: &Stipulation, line: &str, first: mysl_core::Color, core: usize) -> Option<Replayed> {
    let mut b = board.clone();
    if b.side != first {
        b.make_null();
    }
    let parts = split_line(line);
    let mut moves = Vec::new();
    let mut at_core = None;
    for (i, (text, _)) in parts.iter().enumerate() {
        if text == "..." {
            // Option NullMoves: a pass.
            moves.push((b.side as u8, 255, crate::board::NULL_MOVE));
            b.make_null();
        } else {
            let m = b.legal_moves().into_iter().find(|&m| is_text_of(&mut b, stip.goal, m, text))?;
            let p = b.piece_at(m.from)?;
            moves.push((p.color as u8, p.kind, m));
            b.make(m);
        }
        if i + 1 == core {
            at_core = Some(placement(&b));
        }
        // Series: the other side passes between two numbered series moves.
        // (A parry, unnumbered, follows a checking move of a parry series without a pass.)
        if stip.series && parts[i].1 && parts.get(i + 1).is_some_and(|n| n.1) {
            b.make_null();
        }
    }
    let placement = at_core.unwrap_or_else(|| placement(&b));
    moves.truncate(core);
    Some(Replayed { moves, placement })
}

/// Plays move texts as the solver printed them (`Qc1-g5`, `Rh1*h4[+bQd8] +`, `0-0-0 #`) from
/// `board`, whichever side has the move: when the side to move has no legal move with that text,
/// the other side moves (series play, threats, the first move). Returns each move with the board
/// after it (Circe rebirths and fairy pieces included), or None when a text matches no legal move.
pub fn replay_texts(board: &Board, goal: crate::stipulation::Goal, texts: &[String]) -> Option<Vec<(Move, Board)>> {
    let mut b = board.clone();
    let mut out = Vec::new();
    for text in texts {
        let mut found = None;
        for pass in 0..2 {
            if pass == 1 {
                b.make_null();
            }
            found = b.legal_moves().into_iter().find(|&m| is_text_of(&mut b, goal, m, text));
            if found.is_some() {
                break;
            }
        }
        let m = found?;
        b.make(m);
        out.push((m, b.clone()));
    }
    Some(out)
}

/// Is `text` how the solver prints `m`, as the goal move or as any other move (the goal's marks,
/// ` x` and ` z`, appear only on the former)?
fn is_text_of(b: &mut Board, goal: crate::stipulation::Goal, m: Move, text: &str) -> bool {
    move_text(b, goal, m, true) == text || move_text(b, goal, m, false) == text
}

fn sorted(moves: &[(u8, u8, Move)]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    v.sort();
    v
}

/// Classifies the lines of one twin solved from `board` with `stip` and `opts`.
/// `interrupted`: the solve was stopped (time limit, cancel), so lines may be missing.
pub fn classify(
    board: &Board,
    stip: &Stipulation,
    opts: &Options,
    lines: &[String],
    interrupted: bool,
) -> Classification {
    let intended = opts.intended.unwrap_or(1).max(1);
    let battle = !stip.series && !matches!(stip.play, Play::Help | Play::HelpSelf);
    let mut c = if battle { classify_battle(lines) } else { classify_help_series(board, stip, opts, lines) };
    c.intended = intended;
    let full: Vec<usize> = (0..c.solutions.len()).filter(|&i| !c.solutions[i].short).collect();
    for (n, &i) in full.iter().enumerate() {
        c.solutions[i].kind = if n < intended as usize { SolutionKind::Intended } else { SolutionKind::Cook };
    }
    let cooks = c.solutions.iter().filter(|s| s.kind == SolutionKind::Cook).count();
    c.cooks = cooks;
    c.duals = c.solutions.iter().flat_map(|s| &s.duals).filter(|d| d.kind != DualKind::Threat).count();
    // Set play has its own count (`MaxSolutions` limits each phase).
    let truncated = !battle && opts.max_solutions.is_some_and(|m| lines.len() - c.set_play.len() >= m as usize);
    let n = c.solutions.len();
    let (verdict, summary) = if cooks > 0 {
        let more = if interrupted || truncated { "at least " } else { "" };
        (Verdict::Cooked, format!("cooked: {more}{}", plural(cooks, "extra solution")))
    } else if interrupted {
        (Verdict::Incomplete, format!("incomplete: solving interrupted after {}", plural(n, "solution")))
    } else if truncated {
        (Verdict::Incomplete, format!("incomplete: MaxSolutions stopped the solve after {}", plural(n, "solution")))
    } else if n == 0 {
        (Verdict::Unsound, "unsound: no solution".to_string())
    } else if n < intended as usize {
        (Verdict::Unsound, format!("unsound: {} of {intended} intended", plural(n, "solution")))
    } else {
        (Verdict::Sound, "sound (C+)".to_string())
    };
    c.verdict = verdict;
    c.summary = summary + &dual_suffix(&c.solutions);
    c
}

/// Option Duplex: the classification of two parts solved one after the other (the second's
/// lines follow the first's, from `offset`), as one: the solutions of both, the worse verdict.
pub fn merge_parts(a: Classification, b: Classification, offset: usize, interrupted: bool) -> Classification {
    let shift = |i: usize| i + offset;
    let mut c = a;
    for mut s in b.solutions {
        s.line = shift(s.line);
        s.lines = s.lines.into_iter().map(shift).collect();
        for d in &mut s.duals {
            d.line = shift(d.line);
            d.after = d.after.map(shift);
        }
        c.solutions.push(s);
    }
    c.set_play.extend(b.set_play.into_iter().map(shift));
    c.tries.extend(b.tries.into_iter().map(shift));
    c.intended += b.intended;
    c.cooks += b.cooks;
    c.duals += b.duals;
    let worst = [Verdict::Cooked, Verdict::Incomplete, Verdict::Unsound, Verdict::Sound]
        .into_iter()
        .find(|v| c.verdict == *v || b.verdict == *v)
        .unwrap_or(Verdict::Sound);
    let n = c.solutions.len();
    let summary = match worst {
        Verdict::Cooked => {
            format!("cooked: {}{}", if interrupted { "at least " } else { "" }, plural(c.cooks, "extra solution"))
        }
        Verdict::Incomplete => format!("incomplete: {}", plural(n, "solution")),
        Verdict::Unsound => format!("unsound: {} of {} intended (both parts)", plural(n, "solution"), c.intended),
        Verdict::Sound => "sound (C+)".to_string(),
    };
    c.verdict = worst;
    c.summary = summary + &dual_suffix(&c.solutions);
    c
}

/// `; 1 move-order dual, 2 duals` (empty without duals).
pub fn dual_suffix(solutions: &[ClassifiedSolution]) -> String {
    let mut parts = Vec::new();
    for (k, word) in
        [(DualKind::MoveOrder, "move-order dual"), (DualKind::SecondPath, "second-path dual"), (DualKind::Dual, "dual")]
    {
        let n = solutions.iter().flat_map(|s| &s.duals).filter(|d| d.kind == k).count();
        if n > 0 {
            parts.push(plural(n, word));
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("; {}", parts.join(", "))
    }
}

fn empty(solutions: Vec<ClassifiedSolution>, set_play: Vec<usize>, tries: Vec<usize>) -> Classification {
    Classification {
        solutions,
        set_play,
        tries,
        intended: 1,
        cooks: 0,
        duals: 0,
        verdict: Verdict::Incomplete,
        summary: String::new(),
    }
}

fn classify_help_series(board: &Board, stip: &Stipulation, opts: &Options, lines: &[String]) -> Classification {
    use mysl_core::Color;
    // The last half move of hs#, ser-s#, ser-r# is the defender's forced one: not part of the play.
    let forced_end = stip.play == Play::HelpSelf || (stip.series && matches!(stip.play, Play::SelfPlay | Play::Reflex));
    let help_plies = if stip.series {
        0
    } else {
        let full = stip.help_plies();
        (if opts.white_to_play && !stip.half { full - 1 } else { full }) as usize + forced_end as usize
    };
    let mut set_play = Vec::new();
    let mut solutions: Vec<ClassifiedSolution> = Vec::new();
    // Indexes of the lines placed so far, to the (lowest) solution holding such a line: the same
    // moves; the same length and final position (with the sorted moves, to tell a move order from
    // a second path); the same moves but one (the half move's index and the others).
    type Moves = Vec<(u8, u8, Move)>;
    type Placement = Vec<(u8, u8, u8)>;
    type PlaceIndex = HashMap<(usize, Placement), Vec<(usize, Vec<String>)>>;
    let mut by_moves: HashMap<Moves, usize> = HashMap::new();
    let mut by_place: PlaceIndex = HashMap::new();
    let mut by_hole: HashMap<(usize, Moves), usize> = HashMap::new();
    let mut parried: Vec<(Vec<(String, bool)>, usize)> = Vec::new();
    let holes = |moves: &Moves| -> Vec<(usize, Moves)> {
        (0..moves.len())
            .map(|k| (k, moves.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, m)| *m).collect()))
            .collect()
    };
    for (i, line) in lines.iter().enumerate() {
        let parts = split_line(line);
        let half_moves = parts.len();
        let (is_set, short) = if stip.series {
            let numbered = parts.iter().filter(|p| p.1).count();
            (line.trim_start().starts_with("1..."), numbered < stip.moves as usize)
        } else {
            // Set play of an odd number of half-moves (h#n.5, WhiteToPlay) keeps the actual
            // play's numbering, White's first move passed: `1... ... 2.B W`.
            let passed = opts.set_play && !opts.null_moves && line.trim_start().starts_with("1... ...");
            (passed || half_moves % 2 != help_plies % 2, half_moves < help_plies)
        };
        if is_set {
            set_play.push(i);
            continue;
        }
        let core = half_moves - (forced_end && half_moves > 1) as usize;
        let Some(r) = [Color::White, Color::Black].into_iter().find_map(|c| replay(board, stip, line, c, core)) else {
            // Not replayable (never expected): a solution of its own.
            solutions.push(ClassifiedSolution {
                line: i,
                lines: vec![i],
                kind: SolutionKind::Intended,
                short,
                duals: vec![],
            });
            continue;
        };
        let sorted_moves = sorted(&r.moves);
        let place_key = (r.moves.len(), r.placement.clone());
        let hole_keys = holes(&r.moves);
        // Candidates (solution, relation rank): 0 the same play, 1 move order, 2 second path, 3 dual.
        let mut cand: Vec<(usize, u8)> = Vec::new();
        if let Some(&s) = by_moves.get(&r.moves) {
            cand.push((s, 0));
        }
        for (s, ms) in by_place.get(&place_key).into_iter().flatten() {
            cand.push((*s, if *ms == sorted_moves { 1 } else { 2 }));
        }
        for k in &hole_keys {
            if let Some(&s) = by_hole.get(k) {
                cand.push((s, 3));
            }
        }
        // Parry series with defences (`pser-#n`): every parry is answered, so lines that first
        // differ in a parry (an unnumbered half move that is not the ending) are one solution.
        if stip.parry == Parry::Defence {
            for (earlier, s) in &parried {
                let d = parts.iter().zip(earlier.iter()).take_while(|(a, b)| a == b).count();
                if d + 1 < parts.len() && d + 1 < earlier.len() && !parts[d].1 && !earlier[d].1 {
                    cand.push((*s, 0));
                }
            }
        }
        // The first solution this line belongs to; against its lines, the closest relation.
        let sol = match cand.iter().min() {
            Some(&(s, rank)) => {
                solutions[s].lines.push(i);
                let kind =
                    [None, Some(DualKind::MoveOrder), Some(DualKind::SecondPath), Some(DualKind::Dual)][rank as usize];
                if let Some(kind) = kind {
                    solutions[s].duals.push(Dual { line: i, kind, after: None });
                }
                s
            }
            None => {
                solutions.push(ClassifiedSolution {
                    line: i,
                    lines: vec![i],
                    kind: SolutionKind::Intended,
                    short,
                    duals: vec![],
                });
                solutions.len() - 1
            }
        };
        if stip.parry == Parry::Defence {
            parried.push((parts.clone(), sol));
        }
        let e = by_moves.entry(r.moves.clone()).or_insert(sol);
        *e = (*e).min(sol);
        let e = by_place.entry(place_key).or_default();
        if !e.contains(&(sol, sorted_moves.clone())) {
            e.push((sol, sorted_moves));
        }
        for k in hole_keys {
            let e = by_hole.entry(k).or_insert(sol);
            *e = (*e).min(sol);
        }
    }
    // Full-length solutions first (the intended ones are counted among them), then the short ones.
    let mut order: Vec<usize> = (0..solutions.len()).collect();
    order.sort_by_key(|&i| solutions[i].short);
    let solutions = order.into_iter().map(|i| solutions[i].clone()).collect();
    empty(solutions, set_play, Vec::new())
}

fn classify_battle(lines: &[String]) -> Classification {
    let mut set_play = Vec::new();
    let mut tries = Vec::new();
    let mut solutions: Vec<ClassifiedSolution> = Vec::new();
    // None: before the first key or try; Some(true): under a key; Some(false): under a try.
    let mut under: Option<bool> = None;
    for (i, line) in lines.iter().enumerate() {
        let d = line_depth(line);
        if d == Some(0) {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.contains(&"!") {
                solutions.push(ClassifiedSolution {
                    line: i,
                    lines: vec![i],
                    kind: SolutionKind::Intended,
                    short: false,
                    duals: Vec::new(),
                });
                under = Some(true);
            } else {
                tries.push(i);
                under = Some(false);
            }
            continue;
        }
        match under {
            None => set_play.push(i),
            Some(true) => solutions.last_mut().expect("a key").lines.push(i),
            Some(false) => tries.push(i),
        }
    }
    for sol in &mut solutions {
        let tree: Vec<(usize, Option<usize>)> = sol.lines.iter().map(|&i| (i, line_depth(&lines[i]))).collect();
        for (k, &(i, d)) in tree.iter().enumerate() {
            let Some(d) = d else { continue };
            // After a defence (odd depth): the attacker's continuations; after a line with a threat:
            // its threats (two plies deeper).
            let (child_depth, kind) = if d % 2 == 1 {
                (d + 1, DualKind::Dual)
            } else if lines[i].contains("threat:") {
                (d + 2, DualKind::Threat)
            } else {
                continue;
            };
            let mut children = Vec::new();
            for &(j, dj) in &tree[k + 1..] {
                match dj {
                    Some(x) if x == child_depth => children.push(j),
                    Some(x) if x < child_depth && (kind == DualKind::Dual || x <= d + 1) => break,
                    _ => {}
                }
            }
            for &j in children.iter().skip(1) {
                sol.duals.push(Dual { line: j, kind, after: Some(i) });
            }
        }
        sol.duals.sort_by_key(|d| d.line);
    }
    empty(solutions, set_play, tries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_and_half_moves() {
        assert_eq!(line_depth("1.Ra2-a5 ! threat:"), Some(0));
        assert_eq!(line_depth("1...c6*d5"), Some(1));
        assert_eq!(line_depth("2.Sd6-b5 #"), Some(2));
        assert_eq!(line_depth("but"), None);
        assert_eq!(line_depth("0-0 !"), None);
        let p = split_line("1.Qc1-g5 Sd1*c3 2.Sd5-f4 0-0-0 #");
        assert_eq!(p.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["Qc1-g5", "Sd1*c3", "Sd5-f4", "0-0-0 #"]);
        assert_eq!(p.iter().map(|x| x.1).collect::<Vec<_>>(), [true, false, true, false]);
        let p = split_line("1.e5*d6 ep.[+bPd7] + Ke8-d8");
        assert_eq!(p[0].0, "e5*d6 ep.[+bPd7] +");
    }
}
