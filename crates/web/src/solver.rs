//! The solver panel's server side: problems in Popeye's input language solved by `mysl-problems` as
//! background jobs (progress, cancel), and each solution line turned into moves the board can replay.
//!
//! A job runs on its own thread with the `stop` flag and node counter of `mysl_problems::solve::Limits`;
//! at most [`MAX_RUNNING_SOLVES`] run at once and the last [`MAX_SOLVE_JOBS`] are kept.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mysl_core::{san, uci, Chess, Color, Square};
use mysl_problems::board::{square_name, Board, Circe, CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ};
use mysl_problems::input::{parse_problems, Problem};
use mysl_problems::solve::Limits;
use mysl_problems::stipulation::{Play, Stipulation};
use mysl_problems::walk::KINDS;
use mysl_problems::{output, SolveError};
use serde_json::{json, Value};

/// Largest problem text accepted (bytes).
pub const MAX_PROBLEM_BYTES: usize = 16 * 1024;
/// Solves running at the same time.
pub const MAX_RUNNING_SOLVES: usize = 2;
/// Jobs kept in memory (finished ones beyond this are dropped, oldest first).
pub const MAX_SOLVE_JOBS: usize = 16;
/// A solve stops by itself after this long (the page can cancel sooner).
pub const MAX_SOLVE_TIME: Duration = Duration::from_secs(600);

/// One solve job.
#[derive(Debug)]
pub struct SolveJob {
    pub id: u64,
    pub started: Instant,
    /// Set when the solve thread ended.
    pub elapsed: Option<Duration>,
    pub stop: Arc<AtomicBool>,
    pub nodes: Arc<AtomicU64>,
    /// Stipulation and author/title lines, for the page's header.
    pub summary: Value,
    /// The answer once finished: twins with their solutions, Popeye's text.
    pub result: Option<Value>,
    pub error: Option<String>,
    pub cancelled: bool,
}

impl SolveJob {
    pub fn running(&self) -> bool {
        self.elapsed.is_none()
    }

    /// The job as the page sees it.
    pub fn view(&self) -> Value {
        let status = if self.running() {
            "running"
        } else if self.error.is_some() {
            "error"
        } else if self.cancelled {
            "cancelled"
        } else {
            "done"
        };
        let elapsed = self.elapsed.unwrap_or_else(|| self.started.elapsed());
        let mut v = json!({
            "id": self.id, "status": status, "elapsed_ms": elapsed.as_millis() as u64,
            "nodes": self.nodes.load(Ordering::Relaxed), "problem": self.summary, "error": self.error,
        });
        if let Some(r) = &self.result {
            v["twins"] = r["twins"].clone();
            v["text"] = r["text"].clone();
            v["interrupted"] = r["interrupted"].clone();
            v["summary"] = r["summary"].clone();
        }
        v
    }
}

/// A rejected problem: the message and, for input errors, where.
#[derive(Debug)]
pub struct ProblemError {
    pub message: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl ProblemError {
    fn plain(message: impl Into<String>) -> ProblemError {
        ProblemError { message: message.into(), line: None, column: None }
    }
}

/// Popeye input for the position of a FEN (its board only) and a stipulation such as `h#2`.
pub fn input_from_fen(fen: &str, stipulation: &str) -> Result<String, ProblemError> {
    let stipulation = stipulation.trim();
    if stipulation.is_empty() || stipulation.len() > 32 || stipulation.contains(char::is_whitespace) {
        return Err(ProblemError::plain(format!(
            "bad stipulation '{stipulation}': expected e.g. #2, h#2, s#3, ser-h#4"
        )));
    }
    let pos: Chess = crate::game::parse_fen(fen).map_err(ProblemError::plain)?;
    let placement = pos.fen().split(' ').next().unwrap_or("").to_string();
    // Popeye's Forsyth writes the knight S (N is the nightrider).
    let forsyth: String = placement
        .chars()
        .map(|c| match c {
            'N' => 'S',
            'n' => 's',
            c => c,
        })
        .collect();
    Ok(format!("BeginProblem\nStipulation {stipulation}\nForsyth {forsyth}\nEndProblem\n"))
}

/// Parses one problem and checks that the solver supports it.
pub fn parse_one(text: &str) -> Result<Problem, ProblemError> {
    if text.len() > MAX_PROBLEM_BYTES {
        return Err(ProblemError::plain(format!("problem too large: at most {MAX_PROBLEM_BYTES} bytes")));
    }
    let mut problems = parse_problems(text);
    if problems.is_empty() {
        return Err(ProblemError::plain("no problem found: expected BeginProblem ... EndProblem"));
    }
    if problems.len() > 1 {
        return Err(ProblemError::plain(format!(
            "{} problems in the input: the solver panel takes one at a time",
            problems.len()
        )));
    }
    let problem = problems.remove(0).map_err(|e| ProblemError {
        message: format!("line {}, column {}: {} (at '{}')", e.line, e.column, e.message, e.token),
        line: Some(e.line),
        column: Some(e.column),
    })?;
    mysl_problems::twin_positions(&problem).map_err(|e| ProblemError::plain(e.to_string()))?;
    Ok(problem)
}

/// The header the page shows for a problem.
pub fn summary(p: &Problem) -> Value {
    json!({
        "stipulation": p.stipulation.map(|s| s.to_string()), "authors": p.authors, "origin": p.origin,
        "titles": p.titles, "twins": p.twins.len() + 1,
    })
}

/// Solves on the calling thread (a job's thread) and returns the job's result.
/// A sandbox ([`crate::Sandbox`]) bounds its nodes, time and hash table.
pub fn solve(
    problem: &Problem,
    stop: Arc<AtomicBool>,
    nodes: Arc<AtomicU64>,
    sandbox: &crate::Sandbox,
) -> Result<Value, String> {
    let limits = Limits {
        hash_entries: if sandbox.is_active() { 1 << 10 } else { 1 << 18 },
        deadline: Some(Instant::now() + sandbox.solve_time.unwrap_or(MAX_SOLVE_TIME).min(MAX_SOLVE_TIME)),
        stop,
        threads: 1,
        nodes,
        max_nodes: sandbox.solve_nodes,
    };
    let result = mysl_problems::solve_problem(problem, &limits);
    let text = output::text(problem, &result);
    let result = result.map_err(|e: SolveError| e.to_string())?;
    let positions = mysl_problems::twin_positions(problem).map_err(|e| e.to_string())?;
    let mut twins = Vec::new();
    let mut interrupted = false;
    for (twin, (_, board, stip)) in result.twins.iter().zip(positions.iter()) {
        interrupted |= twin.interrupted;
        let replays = replay_lines(board, stip, &twin.lines);
        // The library's classification: each line's role (intended, cook, a dual, ...) and its solution.
        let class = &twin.classification;
        let solutions: Vec<Value> = twin
            .lines
            .iter()
            .zip(replays)
            .enumerate()
            .map(|(i, (text, replay))| {
                let (role, solution) = class.role(i);
                let short = solution.is_some_and(|k| class.solutions[k].short && class.solutions[k].line == i);
                json!({"text": text, "replay": replay, "role": role, "solution": solution.map(|k| k + 1), "short": short})
            })
            .collect();
        let classification: Value =
            serde_json::from_str(&output::classification_json(class, &twin.lines)).unwrap_or(Value::Null);
        let count = twin.lines.iter().filter(|l| starts_with_move_number(l)).count();
        // The diagram: the first replay's start, else the twin's board with the side that starts.
        let diagram = solutions
            .iter()
            .find_map(|s| s["replay"]["start_fen"].as_str().map(str::to_string))
            .or_else(|| diagram_fen(board, stip));
        twins.push(json!({
            "header": twin.header, "stipulation": twin.stipulation.to_string(), "interrupted": twin.interrupted,
            "solutions": solutions, "count": count, "position": diagram, "classification": classification,
            "board_note": board_note(board),
        }));
    }
    Ok(json!({"twins": twins, "text": text, "interrupted": interrupted, "summary": result.summary()}))
}

fn starts_with_move_number(line: &str) -> bool {
    line.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// One move of a solution line in Popeye's notation.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Normal { from: u8, to: u8, promotion: Option<char> },
    Castle { long: bool },
}

/// Depth of a move number: `N.` is ply 2N-2, `N...` ply 2N-1.
fn split_number(word: &str) -> Option<(usize, &str)> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let n: usize = word[..digits].parse().ok()?;
    let rest = &word[digits..];
    if let Some(m) = rest.strip_prefix("...") {
        Some(((2 * n).checked_sub(1)?, m))
    } else {
        rest.strip_prefix('.').map(|m| ((2 * n).saturating_sub(2), m))
    }
}

fn parse_move(text: &str) -> Option<Token> {
    match text {
        "0-0" => return Some(Token::Castle { long: false }),
        "0-0-0" => return Some(Token::Castle { long: true }),
        _ => {}
    }
    let body = text.trim_start_matches(|c: char| c.is_ascii_uppercase());
    let (squares, promotion) = match body.split_once('=') {
        Some((s, p)) => (s, Some(p.chars().next()?)),
        None => (body, None),
    };
    let (a, b) = squares.split_once(['-', '*'])?;
    let from = mysl_problems::board::parse_square(a)?;
    let to = mysl_problems::board::parse_square(b)?;
    Some(Token::Normal { from, to, promotion })
}

/// The moves of one output line with the depth of the first, or `None` for a line without moves
/// (`but`, headers).
fn line_moves(line: &str) -> Option<(usize, Vec<Token>)> {
    let mut depth = None;
    let mut moves = Vec::new();
    for word in line.split_whitespace() {
        let text = match split_number(word) {
            Some((d, rest)) => {
                depth.get_or_insert(d);
                rest
            }
            None => word,
        };
        if text.is_empty() {
            continue;
        }
        if let Some(t) = parse_move(text) {
            moves.push(t);
        }
    }
    Some((depth?, moves)).filter(|(_, m)| !m.is_empty())
}

/// Replays for every line of a twin's solution. Help and series lines stand alone (each starts at move
/// 1); battle play prints a tree, so a line continues the lines above it of smaller depth (a threat
/// skips the defender's ply: the replay then lets the attacker move again).
pub fn replay_lines(board: &Board, stip: &Stipulation, lines: &[String]) -> Vec<Value> {
    // The board shows orthodox pieces only: fairy pieces cannot be shown (a nightrider would pass for a
    // knight), so such twins get no replays (the panel says why: `board_note`).
    if board_note(board).is_some() {
        return vec![Value::Null; lines.len()];
    }
    // Circe rebirths and the other conditions (Madrasi, Isardam, Breton, BGL, AntiCirce, Pepo, ghosts,
    // ...): replayed on the solver's own board, a position per half move.
    if board.circe != Circe::Off || board.attack_conditions() {
        return replay_lines_on_solver_board(board, stip, lines);
    }
    let tree = !(stip.series || matches!(stip.play, Play::Help | Play::HelpSelf));
    let mut stack: Vec<(usize, Token)> = Vec::new();
    lines
        .iter()
        .map(|line| {
            let Some((depth, moves)) = line_moves(line) else { return Value::Null };
            if tree || depth > 1 {
                stack.retain(|(d, _)| *d < depth);
            } else {
                stack.clear();
            }
            stack.extend(moves.into_iter().enumerate().map(|(i, t)| (depth + i, t)));
            let path: Vec<Token> = stack.iter().map(|(_, t)| t.clone()).collect();
            replay(board, &path).unwrap_or(Value::Null)
        })
        .collect()
}

/// Why a twin's lines cannot be shown on the board (fairy pieces), or None.
pub fn board_note(board: &Board) -> Option<String> {
    let mut codes: Vec<&str> = board
        .pieces()
        .filter(|(_, p)| p.kind >= mysl_problems::walk::FIRST_FAIRY)
        .map(|(_, p)| KINDS[p.kind as usize].code)
        .collect();
    codes.sort_unstable();
    codes.dedup();
    (!codes.is_empty()).then(|| {
        format!(
            "The board shows orthodox pieces only: these lines (fairy pieces {}) are not replayed.",
            codes.join(", ")
        )
    })
}

/// Replays with the solver's board (`mysl_problems::classify::replay_texts`), so Circe rebirths and
/// paralysis are right: the same tree logic as [`replay_lines`], a FEN after every half move.
fn replay_lines_on_solver_board(board: &Board, stip: &Stipulation, lines: &[String]) -> Vec<Value> {
    let tree = !(stip.series || matches!(stip.play, Play::Help | Play::HelpSelf));
    let mut stack: Vec<(usize, String)> = Vec::new();
    lines
        .iter()
        .map(|line| {
            let Some(depth) = mysl_problems::classify::line_depth(line) else { return Value::Null };
            let texts: Vec<String> = mysl_problems::classify::split_line(line).into_iter().map(|(t, _)| t).collect();
            if texts.is_empty() {
                return Value::Null;
            }
            if tree || depth > 1 {
                stack.retain(|(d, _)| *d < depth);
            } else {
                stack.clear();
            }
            stack.extend(texts.into_iter().enumerate().map(|(i, t)| (depth + i, t)));
            let path: Vec<String> = stack.iter().map(|(_, t)| t.clone()).collect();
            replay_on_solver_board(board, stip, &path).unwrap_or(Value::Null)
        })
        .collect()
}

fn solver_board_fen(b: &Board) -> String {
    let (placement, castling, ep) = board_fields(b);
    let side = if b.side == Color::White { 'w' } else { 'b' };
    format!("{placement} {side} {castling} {} 0 1", ep.map_or("-".to_string(), square_name))
}

fn replay_on_solver_board(board: &Board, stip: &Stipulation, texts: &[String]) -> Option<Value> {
    let played = mysl_problems::classify::replay_texts(board, stip.goal, texts)?;
    // The side that made the first move starts.
    let first = played.first()?;
    let mut start = board.clone();
    if first.1.side == start.side {
        start.make_null();
    }
    let mut moves = Vec::new();
    for ((m, after), text) in played.iter().zip(texts) {
        let promo = match m.special {
            mysl_problems::board::Special::Promote(k) => match KINDS[k as usize].code {
                "S" => "n".to_string(),
                c => c.to_ascii_lowercase(),
            },
            _ => String::new(),
        };
        let (from, to) = (square_name(m.from), square_name(m.to));
        moves.push(json!({
            "uci": format!("{from}{to}{promo}"), "san": text, "fen": solver_board_fen(after), "from": from, "to": to,
            // ` +`/` #` after the move: the `+` of a rebirth `[+bQd8]` is no check.
            "check": text.ends_with(" +") || text.ends_with(" #"),
        }));
    }
    Some(json!({"start_fen": solver_board_fen(&start), "moves": moves}))
}

/// FEN letter of an orthodox kind; '?' (an invalid FEN, so no board) for a fairy piece.
fn role_letter(kind: u8) -> char {
    if kind >= mysl_problems::walk::FIRST_FAIRY {
        return '?';
    }
    match KINDS[kind as usize].code {
        "S" => 'N',
        code => code.chars().next().unwrap_or('?'),
    }
}

/// FEN fields of a solver board: placement, castling, en passant square (the side to move is chosen
/// by the replay).
fn board_fields(board: &Board) -> (String, String, Option<u8>) {
    let mut placement = String::new();
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            match board.piece_at(rank * 8 + file) {
                Some(p) => {
                    if empty > 0 {
                        placement.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let c = role_letter(p.kind);
                    placement.push(if p.color == Color::White { c } else { c.to_ascii_lowercase() });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    // The rights usable now (a rook's flag counts only while its king keeps its own).
    let usable = board.effective_castling();
    let mut castling = String::new();
    for (bit, c) in [(CASTLE_WK, 'K'), (CASTLE_WQ, 'Q'), (CASTLE_BK, 'k'), (CASTLE_BQ, 'q')] {
        if usable & bit != 0 {
            castling.push(c);
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    (placement, castling, board.ep.map(|(passed, _)| passed))
}

/// The FEN of a twin's board with the side that starts: Black in help play and series helpmates
/// (White with a half move), else White.
fn diagram_fen(board: &Board, stip: &Stipulation) -> Option<String> {
    let (placement, castling, ep) = board_fields(board);
    let black = stip.play == Play::Help && !stip.half;
    position(&placement, if black { Color::Black } else { Color::White }, &castling, ep).map(|p| p.fen())
}

fn position(placement: &str, turn: Color, castling: &str, ep: Option<u8>) -> Option<Chess> {
    let side = if turn.is_white() { 'w' } else { 'b' };
    let ep_text = ep.map_or("-".to_string(), square_name);
    Chess::from_fen(&format!("{placement} {side} {castling} {ep_text} 0 1"))
        .or_else(|_| Chess::from_fen(&format!("{placement} {side} {castling} - 0 1")))
        .ok()
}

/// The same position with the other side to move (series play: one side moves several times).
fn with_turn(pos: &Chess, turn: Color) -> Option<Chess> {
    let fen = pos.fen();
    let f: Vec<&str> = fen.split(' ').collect();
    position(f.first()?, turn, f.get(2)?, None)
}

fn find_move(pos: &Chess, t: &Token) -> Option<mysl_core::Move> {
    match t {
        Token::Castle { long } => san::parse_san(pos, if *long { "O-O-O" } else { "O-O" }).ok(),
        Token::Normal { from, to, promotion } => {
            let mut text = format!("{}{}", square_name(*from), square_name(*to));
            if let Some(p) = promotion {
                text.push(match p {
                    'S' => 'n',
                    c => c.to_ascii_lowercase(),
                });
            }
            uci::parse_uci_move(pos, &text).ok()
        }
    }
    .filter(|m| pos.is_legal(*m))
}

/// Plays a line's moves from the twin's position: `{start_fen, moves: [{uci, san, fen, from, to}]}`, or
/// `None` if a move cannot be replayed with the rules core (then the page shows the text only).
fn replay(board: &Board, tokens: &[Token]) -> Option<Value> {
    let (placement, castling, ep) = board_fields(board);
    let mover = |pos_board: Option<&Chess>, t: &Token| -> Option<Color> {
        match t {
            Token::Normal { from, .. } => match pos_board {
                Some(p) => p.board().piece_at(Square::new(u32::from(*from))?).map(|pc| pc.color),
                None => board.piece_at(*from).map(|p| p.color),
            },
            Token::Castle { .. } => None,
        }
    };
    let first = tokens.first()?;
    let start_turn = mover(None, first).unwrap_or(Color::White);
    let mut pos = position(&placement, start_turn, &castling, ep)?;
    if matches!(first, Token::Castle { .. }) && find_move(&pos, first).is_none() {
        pos = position(&placement, !start_turn, &castling, ep)?;
    }
    let start_fen = pos.fen();
    let mut moves = Vec::new();
    for t in tokens {
        if let Some(c) = mover(Some(&pos), t) {
            if c != pos.turn() {
                pos = with_turn(&pos, c)?;
            }
        }
        let mv = match find_move(&pos, t) {
            Some(m) => m,
            None if matches!(t, Token::Castle { .. }) => {
                pos = with_turn(&pos, !pos.turn())?;
                find_move(&pos, t)?
            }
            None => return None,
        };
        let text = uci::move_to_uci(&pos, mv);
        let san_text = san::move_to_san(&pos, mv);
        let (from, to) = (text.get(0..2).map(str::to_string), text.get(2..4).unwrap_or("").to_string());
        pos.play_unchecked(mv);
        moves.push(
            json!({"uci": text, "san": san_text, "fen": pos.fen(), "from": from, "to": to, "check": pos.is_check()}),
        );
    }
    Some(json!({"start_fen": start_fen, "moves": moves}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_and_moves() {
        assert_eq!(split_number("1.Qc1-g5"), Some((0, "Qc1-g5")));
        assert_eq!(split_number("1...Bg4-e2"), Some((1, "Bg4-e2")));
        assert_eq!(split_number("2.0-0-0"), Some((2, "0-0-0")));
        assert_eq!(parse_move("0-0-0"), Some(Token::Castle { long: true }));
        assert_eq!(parse_move("Sd1*c3"), Some(Token::Normal { from: 3, to: 18, promotion: None }));
        assert_eq!(parse_move("c2-c1=B"), Some(Token::Normal { from: 10, to: 2, promotion: Some('B') }));
        assert_eq!(parse_move("#"), None);
    }

    #[test]
    fn a_helpmate_line_replays_with_castling() {
        // pyset-011's position and solution.
        let text =
            "BeginProblem\nStipulation h#2\nPieces White Ke1 Ra1 Sd1 Bd4 Black Kd3 Qc1 Bh6 Sd5 Pc3c4\nEndProblem\n";
        let p = parse_one(text).expect("parsed");
        let positions = mysl_problems::twin_positions(&p).expect("supported");
        let (_, board, stip) = &positions[0];
        let lines = vec!["1.Qc1-g5 Sd1*c3 2.Sd5-f4 0-0-0 #".to_string()];
        let r = replay_lines(board, stip, &lines);
        let moves = r[0]["moves"].as_array().expect("replayed");
        let ucis: Vec<&str> = moves.iter().map(|m| m["uci"].as_str().unwrap_or("")).collect();
        assert_eq!(ucis, ["c1g5", "d1c3", "d5f4", "e1c1"]);
        assert!(r[0]["start_fen"].as_str().unwrap_or("").contains(" b Q "));
    }

    #[test]
    fn circe_lines_replay_with_their_rebirths() {
        // A Circe h#2 (pyset-061's position): every solution line of every twin replays on the solver's
        // board; a rebirth `[+bQd8]` puts that piece on that square in the FEN after the move.
        let text = "BeginProblem\nStipulation h#2\nCondition Circe\nPieces White Ke2 Se5 Pb2g7\n\
                    Black Kh4 Qf8 Rh5 Bc8g3 Sa7g8 Pc3f7g6\nTwin rotate 90\nEndProblem\n";
        let p = parse_one(text).expect("parsed");
        let stop = Arc::new(AtomicBool::new(false));
        let v = solve(&p, stop, Arc::new(AtomicU64::new(0)), &crate::Sandbox::default()).expect("solved");
        let mut rebirths = 0;
        for twin in v["twins"].as_array().expect("twins") {
            assert!(twin["board_note"].is_null(), "{twin}");
            for sol in twin["solutions"].as_array().expect("solutions") {
                let moves = sol["replay"]["moves"].as_array().unwrap_or_else(|| panic!("replayed: {sol}"));
                assert_eq!(moves.len(), 4, "{sol}");
                assert_eq!(moves[3]["check"], true);
                for m in &moves[..3] {
                    assert_eq!(m["check"], m["san"].as_str().is_some_and(|t| t.ends_with(" +")), "{m}");
                }
                for m in moves {
                    let san = m["san"].as_str().expect("text");
                    if let Some(i) = san.find("[+") {
                        let (color, kind, square) = (&san[i + 2..i + 3], &san[i + 3..i + 4], &san[i + 4..i + 6]);
                        let letter = if kind == "S" { "N" } else { kind };
                        let letter = if color == "w" { letter.to_string() } else { letter.to_lowercase() };
                        let fen = m["fen"].as_str().expect("fen");
                        let pos = Chess::from_fen(fen).expect("a legal FEN");
                        let sq = mysl_problems::board::parse_square(square).expect("square");
                        let piece = pos.board().piece_at(Square::new(u32::from(sq)).expect("square")).expect("reborn");
                        assert_eq!(piece.char().to_string(), letter, "{san} in {fen}");
                        rebirths += 1;
                    }
                }
            }
        }
        assert!(rebirths >= 2, "the lines have rebirths");
    }

    #[test]
    fn fairy_twins_say_why_they_are_not_replayed() {
        let text = "BeginProblem\nStipulation h#1\nPieces White Kc7 Gh1 Black Ka8 Pa7b7\nEndProblem\n";
        let p = parse_one(text).expect("parsed");
        let v = solve(&p, Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)), &crate::Sandbox::default())
            .expect("solved");
        let twin = &v["twins"][0];
        assert!(twin["board_note"].as_str().is_some_and(|n| n.contains("fairy pieces G")), "{twin}");
        assert!(twin["solutions"].as_array().expect("lines").iter().all(|s| s["replay"].is_null()));
    }

    #[test]
    fn battle_play_lines_continue_the_tree() {
        let text = "BeginProblem\nStipulation #2\nPieces White Kc3 Ra1 Rb2 Black Kh8\nEndProblem\n";
        let p = parse_one(text).expect("parsed");
        let positions = mysl_problems::twin_positions(&p).expect("supported");
        let (_, board, stip) = &positions[0];
        let lines: Vec<String> =
            ["1.Rb2-g2 ! threat:", "2.Ra1-a8 #", "1...Kh8-h7", "2.Ra1-h1 #"].iter().map(|s| s.to_string()).collect();
        let r = replay_lines(board, stip, &lines);
        let ucis = |v: &Value| -> Vec<String> {
            v["moves"]
                .as_array()
                .map_or(Vec::new(), |m| m.iter().map(|x| x["uci"].as_str().unwrap_or("").to_string()).collect())
        };
        assert_eq!(ucis(&r[0]), ["b2g2"]);
        assert_eq!(ucis(&r[1]), ["b2g2", "a1a8"], "the threat: White moves again");
        assert_eq!(ucis(&r[3]), ["b2g2", "h8h7", "a1h1"], "{}", r[3]);
    }
}
