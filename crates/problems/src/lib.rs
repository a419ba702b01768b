//! mysl-problems: a chess problem solver.
//!
//! Reads Popeye's input language ([`input`]), keeps stipulations as structures
//! ([`stipulation`]), solves on its own board whose piece kinds are data ([`board`], [`walk`]) and
//! writes Popeye-compatible solution lines ([`solve`], [`output`]). Orthodox pieces, the fairy
//! pieces of [`walk::KINDS`], the Circe conditions of [`board::Circe`] and Madrasi/Isardam
//! ([`board::Paralysis`]); docs/problems.md.
//! Everything the solver does not support yet is reported as
//! "not supported yet: X" and never solved halfway.
//!
//! ```
//! let text = "BeginProblem\nStipulation h#1\nPieces White Kc7 Rh1 Black Ka8 Pa7b7\nEndProblem\n";
//! let problems = mysl_problems::input::parse_problems(text);
//! let problem = problems[0].as_ref().expect("parsed");
//! let limits = mysl_problems::solve::Limits::default();
//! let result = mysl_problems::solve_problem(problem, &limits).expect("supported");
//! let mut lines = result.twins[0].lines.clone();
//! lines.sort();
//! assert_eq!(lines, ["1.b7-b5 Rh1-h8 #", "1.b7-b6 Rh1-h8 #"]);
//! ```

pub mod board;
pub mod classify;
mod conditions;
pub mod input;
pub mod lang;
pub mod output;
pub mod solve;
pub mod stipulation;
pub mod walk;

pub use solve::intelligent;

use mysl_core::Color;

use board::{square_name, Board, Piece};
use input::{Mirror, Options, Problem, TwinChange};
use solve::Limits;
use stipulation::{Goal, Play, Stipulation};

/// Why a problem was not solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A feature the solver does not have yet.
    #[error("not supported yet: {0}")]
    Unsupported(String),
    /// The position or twin is invalid.
    #[error("{0}")]
    Invalid(String),
}

/// The solution of one twin.
#[derive(Clone, Debug)]
pub struct TwinResult {
    /// `a)`, `b) wQd1-->d4`, `+c) -bPa6`; empty when the problem has no twins.
    pub header: String,
    pub stipulation: Stipulation,
    pub lines: Vec<String>,
    pub interrupted: bool,
    /// The lines classified as intended solutions, cooks and duals ([`classify`]).
    pub classification: classify::Classification,
}

/// The solution of a problem.
#[derive(Clone, Debug)]
pub struct ProblemResult {
    pub twins: Vec<TwinResult>,
}

impl ProblemResult {
    /// The problem's verdict over its twins: cooks summed, else the first incomplete or unsound
    /// twin, else `sound (C+)`; the duals of all twins after `; ` as in a twin's summary.
    pub fn summary(&self) -> String {
        use classify::Verdict;
        let cooks: usize = self.twins.iter().map(|t| t.classification.cooks).sum();
        let any = |v: Verdict| self.twins.iter().find(|t| t.classification.verdict == v);
        let head = if cooks > 0 {
            let more = if self.twins.iter().any(|t| t.interrupted) { "at least " } else { "" };
            format!("cooked: {more}{cooks} extra solution{}", if cooks == 1 { "" } else { "s" })
        } else if let Some(t) = any(Verdict::Incomplete).or_else(|| any(Verdict::Unsound)) {
            let s = &t.classification.summary;
            let s = s.split("; ").next().unwrap_or(s);
            if t.header.is_empty() {
                s.to_string()
            } else {
                format!("{s} in {}", t.header.split(' ').next().unwrap_or(""))
            }
        } else {
            "sound (C+)".to_string()
        };
        let all: Vec<classify::ClassifiedSolution> =
            self.twins.iter().flat_map(|t| t.classification.solutions.iter().cloned()).collect();
        head + &classify::dual_suffix(&all)
    }
}

fn color_char(c: Color) -> char {
    if c == Color::White {
        'w'
    } else {
        'b'
    }
}

fn piece_text(p: Piece) -> String {
    format!("{}{}", color_char(p.color), walk::KINDS[p.kind as usize].code)
}

/// Applies one twin change; returns its header text.
fn apply_change(board: &mut Board, stip: &mut Stipulation, ch: &TwinChange) -> Result<String, SolveError> {
    let missing = |s: u8| SolveError::Invalid(format!("twin: no piece on {}", square_name(s)));
    Ok(match *ch {
        TwinChange::Move(a, b) => {
            let p = board.piece_at(a).ok_or_else(|| missing(a))?;
            board.clear(a);
            board.put(b, p);
            format!("{}{}-->{}", piece_text(p), square_name(a), square_name(b))
        }
        TwinChange::Exchange(a, b) => {
            let pa = board.piece_at(a).ok_or_else(|| missing(a))?;
            let pb = board.piece_at(b).ok_or_else(|| missing(b))?;
            board.put(a, pb);
            board.put(b, pa);
            format!("{}{}<-->{}{}", piece_text(pa), square_name(a), piece_text(pb), square_name(b))
        }
        TwinChange::Remove(a) => {
            let p = board.piece_at(a).ok_or_else(|| missing(a))?;
            board.clear(a);
            format!("-{}{}", piece_text(p), square_name(a))
        }
        TwinChange::Add(c, k, s) => {
            let p = Piece { color: c, kind: k };
            board.put(s, p);
            format!("{}{}", piece_text(p), square_name(s))
        }
        TwinChange::Substitute(a, b) => {
            let squares: Vec<(u8, Piece)> = board.pieces().filter(|(_, p)| p.kind == a).collect();
            for (s, p) in squares {
                board.put(s, Piece { color: p.color, kind: b });
            }
            format!("{} ==> {}", walk::KINDS[a as usize].code, walk::KINDS[b as usize].code)
        }
        TwinChange::Rotate(deg) => {
            let f = |s: u8| -> Option<u8> {
                let (x, y) = (s % 8, s / 8);
                Some(match deg {
                    90 => x * 8 + (7 - y),
                    180 => (7 - y) * 8 + (7 - x),
                    _ => (7 - x) * 8 + y,
                })
            };
            *board = board.transformed(f).ok_or_else(|| SolveError::Invalid("rotation".into()))?;
            format!("rotate {deg}")
        }
        TwinChange::Mirror(m) => {
            let f = |s: u8| -> Option<u8> {
                let (x, y) = (s % 8, s / 8);
                Some(match m {
                    Mirror::A1H1 => y * 8 + (7 - x),
                    Mirror::A1A8 => (7 - y) * 8 + x,
                    Mirror::A1H8 => x * 8 + y,
                    Mirror::H1A8 => (7 - x) * 8 + (7 - y),
                })
            };
            *board = board.transformed(f).ok_or_else(|| SolveError::Invalid("mirror".into()))?;
            let text = match m {
                Mirror::A1H1 => "a1<-->h1",
                Mirror::A1A8 => "a1<-->a8",
                Mirror::A1H8 => "a1<-->h8",
                Mirror::H1A8 => "h1<-->a8",
            };
            format!("mirror {text}")
        }
        TwinChange::Shift(a, b) => {
            let (dx, dy) = ((b % 8) as i32 - (a % 8) as i32, (b / 8) as i32 - (a / 8) as i32);
            let f = |s: u8| -> Option<u8> {
                let (x, y) = ((s % 8) as i32 + dx, (s / 8) as i32 + dy);
                ((0..8).contains(&x) && (0..8).contains(&y)).then_some((y * 8 + x) as u8)
            };
            *board =
                board.transformed(f).ok_or_else(|| SolveError::Invalid("shift moves a piece off the board".into()))?;
            format!("shift {} ==> {}", square_name(a), square_name(b))
        }
        TwinChange::Condition(c) => {
            board.set_conditions(&c);
            // Popeye writes one condition a line; the header keeps them on one.
            c.names().join("  ")
        }
        TwinChange::Stipulation(st) => {
            *stip = st;
            st.to_string()
        }
    })
}

/// Checks the problem for features not supported yet and for an invalid position.
pub fn check_supported(p: &Problem) -> Result<Stipulation, SolveError> {
    if let Some(u) = p.unsupported.first() {
        return Err(SolveError::Unsupported(u.clone()));
    }
    let stip = p.stipulation.ok_or_else(|| SolveError::Invalid("no stipulation".into()))?;
    if p.options.white_to_play && stip.play != Play::Help {
        return Err(SolveError::Unsupported("WhiteToPlay outside help play".into()));
    }
    Ok(stip)
}

/// One twin's position as it is solved: header (`a)`, `b) wQd1-->d4`, empty without twins), the
/// board with castling and en passant rights set, and the stipulation.
pub type TwinPosition = (String, Board, Stipulation);

/// The positions of every twin of a parsed problem (checked as [`solve_problem`] checks them).
pub fn twin_positions(p: &Problem) -> Result<Vec<TwinPosition>, SolveError> {
    let stip0 = check_supported(p)?;
    let mut positions: Vec<(String, Board, Stipulation)> = Vec::new();
    let has_twins = !p.twins.is_empty();
    let mut base = p.board.clone();
    base.set_conditions(&p.conditions);
    positions.push((if has_twins { "a)".into() } else { String::new() }, base.clone(), stip0));
    for (i, tw) in p.twins.iter().enumerate() {
        let (mut board, mut stip) = if tw.continued {
            let last = positions.last().expect("twin a exists");
            (last.1.clone(), last.2)
        } else {
            (base.clone(), stip0)
        };
        let mut parts = Vec::new();
        for ch in &tw.changes {
            parts.push(apply_change(&mut board, &mut stip, ch)?);
        }
        let letter = (b'b' + i as u8) as char;
        let plus = if tw.continued { "+" } else { "" };
        positions.push((format!("{plus}{letter}) {}", parts.join("  ")), board, stip));
    }
    let mut out = Vec::new();
    for (header, mut board, stip) in positions {
        if stip.play == Play::Help && p.options.white_to_play && stip.half {
            return Err(SolveError::Unsupported("WhiteToPlay with a half-move stipulation".into()));
        }
        // The solver's null moves (threats, series, set play) would need Popeye's notion of the
        // last move's departure square after a null move.
        // Bul pieces: with conditions or twins (which do not carry the attribute) not done yet.
        let conditions = board.conditions() != board::Conditions::NONE;
        if board.bul.any() && (!p.twins.is_empty() || conditions) {
            return Err(SolveError::Unsupported("piece attribute bul with twins or conditions".into()));
        }
        // Neutral pieces: alone or with Circe (plain, Chameleon, Clone); with other conditions,
        // Bul or twins not done yet.
        if board.neutral.any() {
            let mut other = board.conditions();
            other.circe = board::Circe::Off;
            let circe_ok = matches!(
                board.circe,
                board::Circe::Off | board::Circe::Plain | board::Circe::Chameleon | board::Circe::Clone
            );
            if !p.twins.is_empty() || other != board::Conditions::NONE || !circe_ok || board.bul.any() {
                return Err(SolveError::Unsupported(
                    "neutral pieces with twins, conditions other than Circe or piece attributes".into(),
                ));
            }
        }
        // NullMoves: h#, ser-h#, ser-# only. Popeye inserts null moves into every move
        // generation, its immobility testers' included, so stalemate goals, battle and self
        // play (passes of the attacker and the defender) and parry series are not settled here. ChameleonPursuit: the last move's departure square after a pass is not.
        if p.options.null_moves
            && (!(stip.play == Play::Help || (stip.play == Play::Direct && stip.series))
                || stip.parry != stipulation::Parry::None
                || stip.goal != Goal::Mate
                || board.chameleon_pursuit)
        {
            return Err(SolveError::Unsupported(
                "NullMoves outside h#, ser-h# and ser-#, or with ChameleonPursuit".into(),
            ));
        }
        if board.chameleon_pursuit && (stip.play != Play::Help || stip.series || p.options.set_play) {
            return Err(SolveError::Unsupported("ChameleonPursuit outside help play without set play".into()));
        }
        // Locusts and orphans: with Circe (a locust's victim is reborn as any captured piece)
        // or alone; other conditions are not checked with them.
        let locust_orphan = (0b1111 << walk::LOCUST) | (1 << walk::ORPHAN);
        if board.fairy_kinds_present() & locust_orphan != 0
            && board.conditions() != (board::Conditions { circe: board.circe, ..board::Conditions::NONE })
        {
            return Err(SolveError::Unsupported("locust or orphan with conditions other than Circe".into()));
        }
        // Berolina pawns: alone or with Circe (plain or Chameleon: reborn as it is, on the pawn's
        // square, Popeye's `rennormal` with `is_pawn`); with other conditions, neutral pieces or
        // attributes, with an orphan (which would borrow its walk) not checked; twins that
        // rotate or mirror the board not checked against Popeye.
        let circe_only = board::Conditions { circe: board.circe, ..board::Conditions::NONE };
        let berolina = board.fairy_kinds_present() & (1 << walk::BEROLINA_PAWN) != 0;
        if berolina
            && (board.conditions() != circe_only
                || !matches!(board.circe, board::Circe::Off | board::Circe::Plain | board::Circe::Chameleon)
                || board.neutral.any()
                || board.bul.any()
                || board.fairy_kinds_present() & (1 << walk::ORPHAN) != 0)
        {
            return Err(SolveError::Unsupported(
                "Berolina pawn with conditions other than Circe, neutral pieces, attributes or orphans".into(),
            ));
        }
        if berolina {
            no_board_moving_twins(p, "Berolina pawn")?;
        }
        // Take&Make: neutral pieces and piece attributes were not checked.
        if board.take_make && (board.neutral.any() || board.bul.any()) {
            return Err(SolveError::Unsupported("Take&Make with neutral pieces or piece attributes".into()));
        }
        // CavalierMajeur: the promotions of Bul and neutral pieces were not adapted.
        if board.cavalier_majeur && (board.neutral.any() || board.bul.any()) {
            return Err(SolveError::Unsupported("CavalierMajeur with neutral pieces or piece attributes".into()));
        }
        // Neutral locusts and orphans (and orphans beside neutral pieces) were not checked.
        if board.fairy_kinds_present() & locust_orphan != 0 && board.neutral.any() {
            return Err(SolveError::Unsupported("locust or orphan with neutral pieces".into()));
        }
        // SingleBox: a position with more pieces of a kind than the game array makes every move
        // illegal in Popeye; not taken on here.
        if board.singlebox {
            for c in [Color::White, Color::Black] {
                for k in [walk::QUEEN, walk::ROOK, walk::BISHOP, walk::KNIGHT, walk::PAWN] {
                    if board.kind_bb(c, k).count() > board::singlebox_max(k) {
                        return Err(SolveError::Unsupported(
                            "SingleBox with more pieces of a kind than the game array".into(),
                        ));
                    }
                }
            }
        }
        validate(&board, &p.options)?;
        if board.holes.any() {
            validate_holes(&board, p)?;
        }
        if board.imitators.n > 0 {
            validate_imitators(&board, p)?;
        }
        if board.back_home {
            // BackHome: alone (with other conditions or neutral pieces not checked).
            let other = board::Conditions { back_home: false, ..board.conditions() };
            if other != board::Conditions::NONE || board.neutral.any() || board.bul.any() {
                return Err(SolveError::Unsupported("BackHome with other conditions or neutral pieces".into()));
            }
            board.init_back_home();
        }
        if board.danger_circe {
            // DangerCirce: alone (with other conditions, neutral pieces or attributes not
            // checked).
            let other = board::Conditions { danger_circe: false, ..board.conditions() };
            if other != board::Conditions::NONE || board.neutral.any() || board.bul.any() {
                return Err(SolveError::Unsupported("DangerCirce with other conditions or neutral pieces".into()));
            }
        }
        if board.bicaptures || board.cast_inverse {
            // BiCaptures, CASTInverse: alone, with orthodox pieces (their capture generators and
            // counts know the orthodox walks only).
            let other = board::Conditions { bicaptures: false, cast_inverse: false, ..board.conditions() };
            if other != board::Conditions::NONE
                || (board.bicaptures && board.cast_inverse)
                || board.has_fairy(Color::White)
                || board.has_fairy(Color::Black)
                || board.neutral.any()
                || board.bul.any()
            {
                return Err(SolveError::Unsupported(
                    "BiCaptures or CASTInverse with other conditions or fairy pieces".into(),
                ));
            }
        }
        if board.frankfurt {
            // FrankfurtChess: alone, with orthodox pieces (other walks, conditions not checked).
            let other = board::Conditions { frankfurt: false, ..board.conditions() };
            if other != board::Conditions::NONE
                || board.has_fairy(Color::White)
                || board.has_fairy(Color::Black)
                || board.neutral.any()
                || board.bul.any()
            {
                return Err(SolveError::Unsupported("FrankfurtChess with other conditions or fairy pieces".into()));
            }
        }
        if board.all_in_chess {
            // AllInChess: alone, with orthodox pieces (other walks, conditions and castling of
            // the other side's king not checked).
            let other = board::Conditions { all_in_chess: false, ..board.conditions() };
            if other != board::Conditions::NONE
                || board.has_fairy(Color::White)
                || board.has_fairy(Color::Black)
                || board.neutral.any()
                || board.bul.any()
                || board::Board::usable_castling(board.default_castling()) & 0x0f != 0
            {
                return Err(SolveError::Unsupported(
                    "AllInChess with other conditions, fairy pieces or castling rights".into(),
                ));
            }
        }
        // Anti-Mars Circe: castling starts from the rebirth squares, so Popeye grants every
        // right (its flags are lost only by moves from and to the corners).
        board.castling = if board.mars == board::Mars::AntiMars {
            board::CASTLE_WK | board::CASTLE_WQ | board::CASTLE_BK | board::CASTLE_BQ
        } else {
            board.default_castling()
        };
        let mut ct = board.castling;
        for &s in &p.options.no_castling {
            ct &= !board::castle_bits(s);
        }
        board.castling = ct;
        // CastlingChess, ExchangeCastling: alone, with orthodox pieces only (their generators'
        // square-passed test relies on that; other pieces and conditions not checked). Popeye
        // switches orthodox castling off under both (`solving_disable_castling`).
        if board.castling_chess || board.exchange_castling {
            let other = board::Conditions { castling_chess: false, exchange_castling: false, ..board.conditions() };
            if other != board::Conditions::NONE
                || (board.castling_chess && board.exchange_castling)
                || board.has_fairy(Color::White)
                || board.has_fairy(Color::Black)
                || board.neutral.any()
                || board.bul.any()
            {
                return Err(SolveError::Unsupported(
                    "CastlingChess or ExchangeCastling with other conditions or fairy pieces".into(),
                ));
            }
            board.castling = 0;
            board.exchange_used = 0;
        }
        // AntiCirce Cage: castling (a non-capture the cage test would have to judge) is not done.
        if board.anticirce == board::AntiCirce::Cage && board.castling & 0x0f != 0 {
            return Err(SolveError::Unsupported("AntiCirce Cage with castling rights".into()));
        }
        // CASTInverse: Popeye tests the squares a castling king passes with the king on them (a
        // capture more for the observer); not done here.
        if board.cast_inverse && board.effective_castling() & 0x0f != 0 {
            return Err(SolveError::Unsupported("CASTInverse with castling rights".into()));
        }
        // Pepo: what "passing over an attacked square" means for castling is not settled here.
        if board.pepo && board.effective_castling() & 0x0f != 0 {
            return Err(SolveError::Unsupported("Pepo with castling rights".into()));
        }
        board.castling_exclusive = p.board.castling_exclusive.clone();
        board.ep = p.board.ep;
        // AllInChess: a diagram en-passant right stands for a double step just played.
        board.all_in_last_double = board.all_in_chess && board.ep.is_some();
        // Pawns do not promote to pawn walks (Popeye's promotee sequence: `!is_pawn`).
        board.promotion_fairies = board.fairy_kinds_present() & !(1 << walk::BEROLINA_PAWN);
        if board.cavalier_majeur {
            board.cavalier_majeur_setup();
        }
        out.push((header, board, stip));
    }
    Ok(out)
}

/// One twin's solution and classification; with Duplex the second part (the other side
/// starting) follows the first, each classified on its own.
fn solve_twin(
    board: &Board,
    stip: Stipulation,
    o: &Options,
    limits: &Limits,
) -> (solve::Solution, classify::Classification) {
    let parts: &[bool] = match (o.duplex, o.half_duplex) {
        (_, true) => &[true],
        (true, false) => &[false, true],
        _ => &[false],
    };
    let mut sol = solve::Solution::default();
    let mut classification: Option<classify::Classification> = None;
    for &swap in parts {
        let part = solve::solve_position_sides(board, stip, o, limits, swap);
        let c = classify::classify(board, &stip, o, &part.lines, part.interrupted);
        classification = Some(match classification {
            None => c,
            Some(first) => classify::merge_parts(first, c, sol.lines.len(), part.interrupted || sol.interrupted),
        });
        sol.lines.extend(part.lines);
        sol.interrupted |= part.interrupted;
        if limits.stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
    }
    (sol, classification.expect("at least one part"))
}

/// Solves every twin of a parsed problem.
pub fn solve_problem(p: &Problem, limits: &Limits) -> Result<ProblemResult, SolveError> {
    let mut twins = Vec::new();
    let o = &p.options;
    let positions = twin_positions(p)?;
    if o.duplex || o.half_duplex {
        // Duplex: help and series play (the other side starts and reaches the goal); not with
        // set play, parry series or battle play (their second part is not settled). With
        // WhiteToPlay the second part starts with Black, who then makes the last move.
        let ok =
            |s: &Stipulation| (s.series && s.parry == stipulation::Parry::None) || (!s.series && s.play == Play::Help);
        if positions.iter().any(|(_, _, s)| !ok(s)) || o.set_play || o.null_moves || o.max_solutions.is_some() {
            return Err(SolveError::Unsupported(
                "option Duplex/HalfDuplex outside help and series play (or with SetPlay, NullMoves, MaxSolutions)"
                    .into(),
            ));
        }
    }
    for (header, board, stip) in positions {
        let (sol, classification) = solve_twin(&board, stip, o, limits);
        twins.push(TwinResult {
            header,
            stipulation: stip,
            lines: sol.lines,
            interrupted: sol.interrupted,
            classification,
        });
        if limits.stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
    }
    Ok(ProblemResult { twins })
}

/// Condition Hole: no piece on a hole; only the walks whose treatment of holes was checked
/// against Popeye (orthodox pieces, leapers, riders, hoppers: a hole is off the board for them);
/// no twins that move the board (whether the holes move with it is not settled here).
fn validate_holes(b: &Board, p: &Problem) -> Result<(), SolveError> {
    if let Some((s, _)) = b.pieces().find(|&(s, _)| b.holes.contains(mysl_core::Square::from_index(s as u32))) {
        return Err(SolveError::Invalid(format!("a piece stands on the hole {}", square_name(s))));
    }
    fn simple(w: walk::Walk) -> bool {
        use walk::Walk::*;
        match w {
            King | Queen | Rook | Bishop | Knight | Pawn | Leaper(_) | Rider(_) | Hopper(_) | LongHopper(..) => true,
            Compound(parts) => parts.iter().all(|&w| simple(w)),
            _ => false,
        }
    }
    only_walks(b, "Hole", simple)?;
    no_board_moving_twins(p, "Hole")
}

/// `condition` is supported only with pieces whose walk passes `ok`.
fn only_walks(b: &Board, condition: &str, ok: impl Fn(walk::Walk) -> bool) -> Result<(), SolveError> {
    match b.pieces().find(|&(_, pc)| !ok(walk::KINDS[pc.kind as usize].walk)) {
        Some((_, pc)) => Err(SolveError::Unsupported(format!(
            "{condition} with the fairy piece {}",
            walk::KINDS[pc.kind as usize].code
        ))),
        None => Ok(()),
    }
}

/// `condition` is supported only with twins that keep the squares (no rotation, mirror or shift).
fn no_board_moving_twins(p: &Problem, condition: &str) -> Result<(), SolveError> {
    let moves_board =
        |c: &TwinChange| matches!(c, TwinChange::Rotate(_) | TwinChange::Mirror(_) | TwinChange::Shift(..));
    if p.twins.iter().any(|t| t.changes.iter().any(moves_board)) {
        return Err(SolveError::Unsupported(format!("{condition} with twins that rotate, mirror or shift the board")));
    }
    Ok(())
}

/// Condition Imitator: no piece on an imitator; alone (no other condition, no neutral pieces),
/// with orthodox pieces and fairy leapers and riders only (whose imitation was checked against
/// Popeye's `conditions/imitator.c`); no twins that move the board.
fn validate_imitators(b: &Board, p: &Problem) -> Result<(), SolveError> {
    let on = b.imitators.bitboard();
    if let Some((s, _)) = b.pieces().find(|&(s, _)| on.contains(mysl_core::Square::from_index(s as u32))) {
        return Err(SolveError::Invalid(format!("a piece stands on the imitator {}", square_name(s))));
    }
    let mut other = b.conditions();
    other.imitators = board::Imitators::NONE;
    other.no_iprom = false;
    if other != board::Conditions::NONE || b.neutral.any() || b.bul.any() {
        return Err(SolveError::Unsupported("Imitator with other conditions or neutral pieces".into()));
    }
    use walk::Walk::*;
    only_walks(b, "Imitator", |w| matches!(w, King | Queen | Rook | Bishop | Knight | Pawn | Leaper(_) | Rider(_)))?;
    no_board_moving_twins(p, "Imitator")
}

fn validate(b: &Board, o: &input::Options) -> Result<(), SolveError> {
    for c in [Color::White, Color::Black] {
        let n = b.kind_bb(c, walk::KING).count();
        let allowed = if c == Color::White { o.no_wk } else { o.no_bk };
        if n == 0 && !allowed {
            return Err(SolveError::Unsupported(format!(
                "positions without a {} king without Option NoWk/NoBk",
                if c == Color::White { "white" } else { "black" }
            )));
        }
        if n > 1 {
            return Err(SolveError::Invalid("two kings of one colour".into()));
        }
    }
    Ok(())
}
