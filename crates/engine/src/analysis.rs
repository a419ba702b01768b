//! Game analysis: every position of a game searched, each move judged by its loss in expected score
//! (`?!`, `?`, `??`), each player's average centipawn loss and accuracy. `mysl analyse` (PGN files) and
//! the web UI's "Analyse the game" both use this module; the formulas are in docs/analysis.md.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use mysl_core::{san, Color, Move, Outcome, Position, Rules};

use crate::score::{mate_in, MATE_BOUND, MATE_SCORE, TB_BOUND};
use crate::{Limits, Searcher, Tablebases, TranspositionTable};

/// lichess's logistic constant: expected score = 1 / (1 + exp(-K·cp)).
pub const WIN_K: f64 = 0.003_682_08;
/// Expected-score losses at which a move is an inaccuracy, a mistake, a blunder.
pub const INACCURACY: f64 = 0.10;
pub const MISTAKE: f64 = 0.20;
pub const BLUNDER: f64 = 0.30;
/// Centipawn scores are capped at this for the average centipawn loss (mates count as the cap).
pub const CP_CAP: i32 = 1000;
/// The node limit per position when no limit is given (`mysl analyse`, the web page): a fixed node count
/// makes the analysis reproducible.
pub const DEFAULT_NODES: u64 = 200_000;
/// The longest better line given for a mistake (plies).
pub const LINE_PLIES: usize = 10;

/// The expected score (0..1) of an engine score (centipawns or mate, from the side it is for).
pub fn expected_score(score: i32) -> f64 {
    if score >= MATE_BOUND {
        1.0
    } else if score <= -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-WIN_K * f64::from(score)).exp())
    }
}

/// A score in centipawns capped to ±[`CP_CAP`] (mates included), for the average centipawn loss.
pub fn capped_cp(score: i32) -> i32 {
    score.clamp(-CP_CAP, CP_CAP)
}

/// How bad a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// From the loss in expected score of the move played against the best move.
    pub fn from_loss(loss: f64) -> Judgement {
        if loss >= BLUNDER {
            Judgement::Blunder
        } else if loss >= MISTAKE {
            Judgement::Mistake
        } else if loss >= INACCURACY {
            Judgement::Inaccuracy
        } else {
            Judgement::Good
        }
    }

    /// The move suffix (`?!`, `?`, `??`; empty for a good move).
    pub fn nag(self) -> &'static str {
        match self {
            Judgement::Good => "",
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// `Inaccuracy`, `Mistake`, `Blunder` (empty for a good move).
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Good => "",
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// lichess's accuracy of one move from the mover's win percentages (0..100) before and after it.
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    let drop = win_before - win_after;
    if drop <= 0.0 {
        return 100.0;
    }
    (103.166_8 * (-0.043_54 * drop).exp() - 3.166_9).clamp(0.0, 100.0)
}

/// The `[%eval]` value of a score from White's view: pawns with two decimals, or `#N` / `#-N` for a mate
/// (`#0` / `#-0`: the game is over, White or Black won). A table win without a mate distance is
/// `100.00` / `-100.00`.
pub fn format_eval(white_score: i32) -> String {
    match mate_in(white_score) {
        Some(n) if white_score > 0 => format!("#{}", n.abs()),
        Some(n) => format!("#-{}", n.abs()),
        None if white_score.abs() >= TB_BOUND => format!("{}100.00", if white_score < 0 { "-" } else { "" }),
        None => format!("{:.2}", f64::from(white_score) / 100.0),
    }
}

/// A PGN move comment `{ [%eval E] [%clk ...] Note }`; without an evaluation `{ [%clk ...] Note }`.
pub fn move_comment(eval: Option<&str>, clocks: &[String], note: Option<&str>) -> String {
    let mut s = String::from("{");
    if let Some(e) = eval {
        s.push_str(&format!(" [%eval {e}]"));
    }
    for c in clocks {
        s.push(' ');
        s.push_str(c);
    }
    if let Some(n) = note {
        s.push(' ');
        s.push_str(&n.replace('}', ")"));
    }
    s.push_str(" }");
    s
}

/// A `[%clk h:mm:ss]` command for a clock reading (whole seconds, rounded down).
pub fn clock_command(left: std::time::Duration) -> String {
    let s = left.as_secs();
    format!("[%clk {}:{:02}:{:02}]", s / 3600, s / 60 % 60, s % 60)
}

/// One player's figures over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerStats {
    pub moves: u32,
    pub cp_loss: i64,
    pub accuracy_sum: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

impl PlayerStats {
    /// Adds a move: the mover's scores of the best move and of the move played (engine scores).
    pub fn add(&mut self, best: i32, played: i32) -> Judgement {
        let judgement = Judgement::from_loss(expected_loss(best, played));
        self.moves += 1;
        self.cp_loss += i64::from((capped_cp(best) - capped_cp(played)).max(0));
        self.accuracy_sum += move_accuracy(100.0 * expected_score(best), 100.0 * expected_score(played));
        match judgement {
            Judgement::Inaccuracy => self.inaccuracies += 1,
            Judgement::Mistake => self.mistakes += 1,
            Judgement::Blunder => self.blunders += 1,
            Judgement::Good => {}
        }
        judgement
    }

    /// Average centipawn loss (rounded).
    pub fn acpl(&self) -> i64 {
        if self.moves == 0 {
            0
        } else {
            (self.cp_loss as f64 / f64::from(self.moves)).round() as i64
        }
    }

    /// Mean per-move accuracy, 0..100 (100 without moves).
    pub fn accuracy(&self) -> f64 {
        if self.moves == 0 {
            100.0
        } else {
            self.accuracy_sum / f64::from(self.moves)
        }
    }

    /// `ACPL 12, accuracy 91.3 (1 inaccuracies, 0 mistakes, 0 blunders)`.
    pub fn describe(&self) -> String {
        format!(
            "ACPL {}, accuracy {:.1} ({} inaccuracies, {} mistakes, {} blunders)",
            self.acpl(),
            self.accuracy(),
            self.inaccuracies,
            self.mistakes,
            self.blunders
        )
    }
}

/// The loss in expected score (≥ 0) of the move played against the best move (mover's scores).
pub fn expected_loss(best: i32, played: i32) -> f64 {
    (expected_score(best) - expected_score(played)).max(0.0)
}

// ---------------------------------------------------------------------------------------------------
// Analysing a game.

/// How each position is searched.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Per position (MultiPV is set to 1). A node or depth limit makes the analysis reproducible.
    pub limits: Limits,
    /// Transposition table size in MB (a fresh table for each game).
    pub hash_mb: usize,
    /// Endgame tables for the search (orthodox chess), probed up to `tb_probe_limit` pieces.
    pub tablebases: Option<Arc<Tablebases>>,
    pub tb_probe_limit: usize,
}

impl Settings {
    /// `nodes` per position, a 16 MB table, no endgame tables.
    pub fn nodes(nodes: u64) -> Settings {
        Settings {
            limits: Limits { nodes: Some(nodes.max(1)), multipv: 1, ..Limits::default() },
            hash_mb: 16,
            tablebases: None,
            tb_probe_limit: 7,
        }
    }
}

/// One searched position: the score from White's view and the search's line (its best move first;
/// empty when the game is over there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionEval {
    pub white: i32,
    pub pv: Vec<Move>,
}

/// One move judged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveJudgement {
    pub mover: Color,
    /// The mover's score of the best move (the score of the position before the move).
    pub best: i32,
    /// The mover's score of the move played (`best` when it is the search's best move).
    pub played: i32,
    /// The loss in expected score, 0..1.
    pub loss: f64,
    pub judgement: Judgement,
}

/// A whole game analysed: `evals[i]` is the position before move `i` (`evals[moves]` the last one),
/// `moves[i]` the judgement of move `i`.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    pub evals: Vec<PositionEval>,
    pub moves: Vec<MoveJudgement>,
    /// White's, Black's.
    pub stats: [PlayerStats; 2],
}

/// The analysis was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// The positions of a game: the start and the position after each move (moves played unchecked:
/// they must be legal, as a PGN reader or a game model replays them).
pub fn positions<R: Rules>(start: &Position<R>, moves: &[Move]) -> Vec<Position<R>> {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(start.clone());
    for &mv in moves {
        let mut next = positions[positions.len() - 1].clone();
        next.play_unchecked(mv);
        positions.push(next);
    }
    positions
}

/// Searches every position of a game and judges every move. `positions[i + 1]` must be `positions[i]`
/// after `moves[i]` (see [`positions`]; a variant with state outside the moves, such as dice chess's
/// rolls, sets it in the positions).
///
/// `cancel` stops the analysis (checked before every position); to stop the search running at that
/// moment too, raise `search_stop` after `cancel` (the searches use it, and it is lowered before each
/// position because a search raises it at its own limit). `on_position(done, total)` is called after
/// each position.
pub fn analyse_positions<R: Rules>(
    positions: &[Position<R>],
    moves: &[Move],
    settings: &Settings,
    cancel: &AtomicBool,
    search_stop: &Arc<AtomicBool>,
    mut on_position: impl FnMut(usize, usize),
) -> Result<GameAnalysis, Stopped> {
    assert_eq!(positions.len(), moves.len() + 1, "a position before each move and after the last");
    let tt = Arc::new(TranspositionTable::new(settings.hash_mb.max(1)));
    let mut searcher = Searcher::<R>::new(tt, search_stop.clone());
    searcher.set_tablebases(settings.tablebases.clone(), settings.tb_probe_limit);
    let limits = Limits { multipv: 1, ..settings.limits.clone() };
    let mut evals = Vec::with_capacity(positions.len());
    for pos in positions {
        search_stop.store(false, Ordering::SeqCst);
        if cancel.load(Ordering::SeqCst) {
            return Err(Stopped);
        }
        let white_view = |s: i32| if pos.turn() == Color::White { s } else { -s };
        let eval = match pos.outcome() {
            Some(Outcome::Decisive { winner, .. }) => {
                PositionEval { white: if winner == Color::White { MATE_SCORE } else { -MATE_SCORE }, pv: Vec::new() }
            }
            Some(Outcome::Draw { .. }) => PositionEval { white: 0, pv: Vec::new() },
            None => {
                let mut pv = Vec::new();
                let r = searcher.search(pos, &limits, |info| {
                    if info.multipv == 1 && info.bound.is_none() && !info.pv.is_empty() {
                        pv.clone_from(&info.pv);
                    }
                });
                if cancel.load(Ordering::SeqCst) {
                    return Err(Stopped);
                }
                match r.best {
                    Some(best) if pv.first() != Some(&best) => pv = vec![best],
                    None => pv.clear(),
                    _ => {}
                }
                PositionEval { white: white_view(r.score), pv }
            }
        };
        evals.push(eval);
        on_position(evals.len(), positions.len());
    }

    let mut stats = [PlayerStats::default(); 2];
    let mut judged = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mover = positions[i].turn();
        let to_mover = |white: i32| if mover == Color::White { white } else { -white };
        let best = to_mover(evals[i].white);
        let played = if evals[i].pv.first() == Some(&mv) { best } else { to_mover(evals[i + 1].white) };
        let judgement = stats[mover as usize].add(best, played);
        judged.push(MoveJudgement { mover, best, played, loss: expected_loss(best, played), judgement });
    }
    Ok(GameAnalysis { evals, moves: judged, stats })
}

/// [`analyse_positions`] for a game given as its start position and moves.
pub fn analyse_game<R: Rules>(
    start: &Position<R>,
    moves: &[Move],
    settings: &Settings,
    cancel: &AtomicBool,
    search_stop: &Arc<AtomicBool>,
    on_position: impl FnMut(usize, usize),
) -> Result<GameAnalysis, Stopped> {
    analyse_positions(&positions(start, moves), moves, settings, cancel, search_stop, on_position)
}

/// A move of a line in SAN with its move number and mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineMove {
    pub mv: Move,
    pub san: String,
    /// The full-move number of the position it is played in.
    pub number: u32,
    pub white: bool,
}

/// A line (the search's best line) in SAN from `start`: at most `max_plies` moves, stopping at the first
/// move that is not legal and after a move that ends the game.
pub fn line_san<R: Rules>(start: &Position<R>, pv: &[Move], max_plies: usize) -> Vec<LineMove> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for &mv in pv.iter().take(max_plies) {
        let legal = pos.legal_moves();
        if !legal.contains(mv) {
            break;
        }
        let san = san::move_to_san_with(&pos, mv, &legal);
        out.push(LineMove { mv, san, number: pos.fullmoves(), white: pos.turn() == Color::White });
        pos.play_unchecked(mv);
        if pos.outcome().is_some() {
            break;
        }
    }
    out
}

/// The note of a judged move, `Blunder. Qe7 was best.` (`Blunder.` without a best move); none for a
/// good move.
pub fn note(judgement: Judgement, best_san: Option<&str>) -> Option<String> {
    match best_san {
        _ if judgement == Judgement::Good => None,
        Some(best) => Some(format!("{}. {best} was best.", judgement.name())),
        None => Some(format!("{}.", judgement.name())),
    }
}

/// A line as a PGN variation, `( 14. Nf3 Nc6 15. Bb5 )` (`( 14... Nc6 15. Bb5 )` from Black); none when
/// it is empty.
pub fn variation_text(line: &[LineMove]) -> Option<String> {
    if line.is_empty() {
        return None;
    }
    let parts: Vec<String> = line
        .iter()
        .enumerate()
        .map(|(k, m)| match (m.white, k) {
            (true, _) => format!("{}. {}", m.number, m.san),
            (false, 0) => format!("{}... {}", m.number, m.san),
            (false, _) => m.san.clone(),
        })
        .collect();
    Some(format!("( {} )", parts.join(" ")))
}

/// Whether a judged move gets its better line as a variation (mistakes and blunders).
pub fn shows_line(judgement: Judgement) -> bool {
    matches!(judgement, Judgement::Mistake | Judgement::Blunder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::TB_WIN;
    use mysl_core::{uci, Orthodox};

    #[test]
    fn analyse_thresholds() {
        assert_eq!(Judgement::from_loss(0.0), Judgement::Good);
        assert_eq!(Judgement::from_loss(0.099), Judgement::Good);
        assert_eq!(Judgement::from_loss(0.10), Judgement::Inaccuracy);
        assert_eq!(Judgement::from_loss(0.199), Judgement::Inaccuracy);
        assert_eq!(Judgement::from_loss(0.20), Judgement::Mistake);
        assert_eq!(Judgement::from_loss(0.30), Judgement::Blunder);
        assert_eq!(Judgement::from_loss(1.0).nag(), "??");
        assert_eq!(Judgement::Mistake.nag(), "?");
        assert_eq!(Judgement::Inaccuracy.nag(), "?!");
    }

    #[test]
    fn analyse_win_probability() {
        assert!((expected_score(0) - 0.5).abs() < 1e-12);
        assert!((expected_score(100) + expected_score(-100) - 1.0).abs() < 1e-12);
        assert!((expected_score(100) - 0.591).abs() < 0.001);
        assert_eq!(expected_score(MATE_SCORE - 3), 1.0);
        assert_eq!(expected_score(-MATE_SCORE + 4), 0.0);
        // Hanging a queen from equality is a blunder; a pawn at +5 is not even an inaccuracy.
        let mut s = PlayerStats::default();
        assert_eq!(s.add(0, -900), Judgement::Blunder);
        assert_eq!(s.add(500, 400), Judgement::Good);
        assert_eq!(s.add(0, -120), Judgement::Inaccuracy);
        assert_eq!(s.cp_loss, 900 + 100 + 120);
    }

    #[test]
    fn analyse_eval_formatting() {
        assert_eq!(format_eval(35), "0.35");
        assert_eq!(format_eval(-120), "-1.20");
        assert_eq!(format_eval(0), "0.00");
        assert_eq!(format_eval(MATE_SCORE - 5), "#3");
        assert_eq!(format_eval(-(MATE_SCORE - 4)), "#-2");
        assert_eq!(format_eval(MATE_SCORE), "#0");
        assert_eq!(format_eval(-MATE_SCORE), "#-0");
        assert_eq!(format_eval(TB_WIN - 1), "100.00");
        assert_eq!(format_eval(-TB_WIN + 3), "-100.00");
    }

    #[test]
    fn analyse_accuracy() {
        let mut perfect = PlayerStats::default();
        for s in [0, 30, -50, 400, MATE_SCORE - 3] {
            perfect.add(s, s);
        }
        assert_eq!(perfect.accuracy(), 100.0);
        assert_eq!(perfect.acpl(), 0);
        assert_eq!(PlayerStats::default().accuracy(), 100.0);
        assert_eq!(move_accuracy(50.0, 60.0), 100.0);
        assert!((move_accuracy(50.0, 40.0) - 63.6).abs() < 0.1);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
        // Mates count as the centipawn cap.
        let mut s = PlayerStats::default();
        s.add(MATE_SCORE - 1, 0);
        assert_eq!(s.acpl(), i64::from(CP_CAP));
        assert_eq!(s.blunders, 1);
        assert_eq!(
            s.describe(),
            format!("ACPL 1000, accuracy {:.1} (0 inaccuracies, 0 mistakes, 1 blunders)", s.accuracy())
        );
    }

    #[test]
    fn analyse_comments() {
        assert_eq!(move_comment(Some("0.35"), &[], None), "{ [%eval 0.35] }");
        assert_eq!(
            move_comment(Some("#-2"), &["[%clk 0:00:09]".to_string()], Some("Blunder. Qe7 was best.")),
            "{ [%eval #-2] [%clk 0:00:09] Blunder. Qe7 was best. }"
        );
        assert_eq!(move_comment(None, &["[%clk 0:05:00]".to_string()], None), "{ [%clk 0:05:00] }");
        assert_eq!(move_comment(None, &[], Some("a } b")), "{ a ) b }");
        assert_eq!(clock_command(std::time::Duration::from_millis(299_900)), "[%clk 0:04:59]");
        assert_eq!(clock_command(std::time::Duration::from_secs(3 * 3600 + 62)), "[%clk 3:01:02]");
    }

    fn game(moves: &[&str]) -> (Position<Orthodox>, Vec<Move>) {
        let start = Position::<Orthodox>::startpos();
        let mut pos = start.clone();
        let mut out = Vec::new();
        for m in moves {
            let mv = uci::parse_uci_move(&pos, m).expect("legal move");
            pos.play_unchecked(mv);
            out.push(mv);
        }
        (start, out)
    }

    #[test]
    fn a_hung_queen_is_a_blunder_and_the_capture_is_best() {
        // 1. e4 e5 2. Nf3 Qg5?? 3. Nxg5
        let (start, moves) = game(&["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"]);
        let mut progress = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let a = analyse_game(&start, &moves, &Settings::nodes(5000), &AtomicBool::new(false), &stop, |d, t| {
            progress.push((d, t))
        })
        .expect("not stopped");
        assert_eq!(progress, (1..=6).map(|d| (d, 6)).collect::<Vec<_>>());
        assert_eq!(a.evals.len(), 6);
        assert_eq!(a.moves.len(), 5);
        assert_eq!(a.moves[3].judgement, Judgement::Blunder, "{:?}", a.moves[3]);
        assert_eq!(a.moves[3].mover, Color::Black);
        assert_eq!(a.moves[4].judgement, Judgement::Good);
        assert!(a.evals[4].white > 500, "White is a queen up: {:?}", a.evals[4]);
        assert_eq!(a.stats[1].blunders, 1);
        assert!(a.stats[1].acpl() > a.stats[0].acpl());
        // The same again: node limits make it reproducible.
        let b = analyse_game(&start, &moves, &Settings::nodes(5000), &AtomicBool::new(false), &stop, |_, _| {})
            .expect("not stopped");
        assert_eq!(a.evals, b.evals);
        // The better line for Black is legal SAN from the position before the blunder.
        let line = line_san(&positions(&start, &moves)[3], &a.evals[3].pv, LINE_PLIES);
        assert!(!line.is_empty() && line.len() <= LINE_PLIES);
        assert_eq!((line[0].number, line[0].white), (2, false));
        assert_ne!(line[0].san, "Qg5");
        let text = variation_text(&line).expect("a line");
        assert!(text.starts_with(&format!("( 2... {} ", line[0].san)) && text.ends_with(" )"), "{text}");
        assert_eq!(note(Judgement::Blunder, Some("Nc6")).as_deref(), Some("Blunder. Nc6 was best."));
        assert_eq!(note(Judgement::Mistake, None).as_deref(), Some("Mistake."));
        assert_eq!(note(Judgement::Good, Some("Nc6")), None);
        assert!(shows_line(Judgement::Blunder) && !shows_line(Judgement::Inaccuracy));
    }

    #[test]
    fn a_cancelled_analysis_stops() {
        let (start, moves) = game(&["e2e4", "e7e5"]);
        let stop = Arc::new(AtomicBool::new(false));
        let r = analyse_game(&start, &moves, &Settings::nodes(5000), &AtomicBool::new(true), &stop, |_, _| {});
        assert_eq!(r.err(), Some(Stopped));
    }

    #[test]
    fn finished_positions_get_their_result() {
        // Fool's mate: the last position is Black's win, without a search.
        let (start, moves) = game(&["f2f3", "e7e5", "g2g4", "d8h4"]);
        let stop = Arc::new(AtomicBool::new(false));
        let a = analyse_game(&start, &moves, &Settings::nodes(2000), &AtomicBool::new(false), &stop, |_, _| {})
            .expect("not stopped");
        assert_eq!(a.evals[4], PositionEval { white: -MATE_SCORE, pv: Vec::new() });
        assert_eq!(format_eval(a.evals[4].white), "#-0");
        assert_eq!(a.moves[3].judgement, Judgement::Good);
        assert!(matches!(a.moves[2].judgement, Judgement::Blunder), "2. g4 allows mate: {:?}", a.moves[2]);
    }
}
